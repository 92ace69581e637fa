"""Listeners for the approval card's buttons and the deny-reason modal.

A decision (Approve, the Deny modal's submit) is committed with its audit row and its card-update job BEFORE
``ack()``: a compare-and-set takes milliseconds, far inside Slack's 3 seconds, and a click Slack saw acknowledged
is never lost, even to a kill -9. Other listeners ``ack()`` first. Refusals are ephemeral and
change nothing; errors never reach chat as raw exception text.

A click on a card whose escalation is no longer pending (its redraw has not landed yet: Slack failed or was slow)
is never only refused: the card's redraw is queued with the click's audit row in one transaction, whoever clicked,
and the clicker is told who decided it (:func:`answer_stale`).
"""

from __future__ import annotations

from typing import Any

import structlog
from slack_bolt.async_app import AsyncAck, AsyncApp

from bot.errors import AlreadyDecided, FlyBotError
from bot.escalations import card_room
from bot.render import to_card
from bot.slack.deps import SlackDeps
from bot.slack.home import publish_home
from bot.store import Bot, Escalation
from cards import (
    APPROVE_ACTION,
    DENY_ACTION,
    DENY_MODAL_CALLBACK,
    DENY_REASON_BLOCK,
    DENY_REASON_INPUT,
    REVIEW_APPROVE_ACTION,
    REVIEW_MODAL_CALLBACK,
    SHOW_COMMAND_ACTION,
    SHOW_JUSTIFICATION_ACTION,
    already_decided_text,
    deny_reason_modal,
    full_command_modal,
    full_justification_modal,
)

log = structlog.get_logger("flybot.slack.actions")

GENERIC_FAILURE = "Something went wrong on FlyBot's side; nothing was decided. Try again, or check FlyBot's logs."


def _action_value(body: dict[str, Any]) -> str:
    actions = body.get("actions") or [{}]
    return str(actions[0].get("value") or "")


def _where(body: dict[str, Any]) -> str:
    channel = (body.get("channel") or {}).get("id")
    container = body.get("container") or {}
    return str(channel or container.get("channel_id") or "")


async def _refuse(deps: SlackDeps, channel: str, user: str, text: str) -> None:
    """Tell ``user`` only; a click without a channel (App Home) is answered in the user's DM with FlyBot. When Slack
    refuses the ephemeral (FlyBot not in the channel, a Slack error), the answer goes to the DM instead: a person's
    action is never answered by silence."""
    if not channel:
        channel = await deps.chat.dm_channel(user) or ""
    if channel and await deps.chat.ephemeral(channel, user, text):
        return
    await deps.chat.direct_message(user, text)


def form_failed_text(error: str, button: str) -> str:
    """What the person who clicked ``button`` is told when Slack did not open its form (``views.open`` failed).

    ``expired_trigger_id``: Slack allows 3 seconds between the click and the form (Slack's "trigger_id" rules).
    """
    if error == "expired_trigger_id":
        return f"Slack did not open the form in time \u2014 click {button} again. Nothing was decided."
    if error == "unreachable":
        return f"FlyBot could not reach Slack to open the form \u2014 click {button} again. Nothing was decided."
    return f"Slack did not open the form ({error}) \u2014 click {button} again. Nothing was decided."


async def open_form(deps: SlackDeps, body: dict[str, Any], view: dict[str, Any], button: str) -> None:
    """``views.open`` for a click on ``button``; when Slack refuses or cannot be reached, tell the clicker ephemerally."""
    error = await deps.chat.open_view(str(body.get("trigger_id") or ""), view)
    if error is not None:
        await _refuse(deps, _where(body), body["user"]["id"], form_failed_text(error, button))


async def refresh_home(deps: SlackDeps, user: str) -> None:
    """Redraw ``user``'s App Home after their click there; when Slack would not, tell them (by DM: a Home click has no
    channel), so a stale tab is never taken for the truth."""
    error = await publish_home(deps, user)
    if error is not None:
        await _refuse(
            deps,
            "",
            user,
            f"Done, but Slack did not refresh your FlyBot Home tab ({error}): it may show "
            "what was true before your click. Open the tab again to see it as it is now.",
        )


async def queue_redraw(deps: SlackDeps, escalation: Escalation, user: str, *, audit: bool = True) -> None:
    """Queue the redraw of a no-longer-pending escalation's card and its copies (and the App Homes), in ONE
    transaction with the click's ``decision.refused`` audit row (``audit`` False: the decision service wrote it).
    Nothing is queued for an escalation without a card, or whose Bot is gone (the worker could not draw it)."""
    bot = await deps.store.get_bot(escalation.bot_id)
    now = deps.service.clock()
    async with deps.store.transaction() as tx:
        if audit:
            await tx.audit(
                "decision.refused",
                at=now,
                escalation_id=escalation.id,
                actor=user,
                why="already_decided",
                status=escalation.status,
            )
        if bot is not None and escalation.card_status is not None:
            await tx.enqueue("card.update", ref=escalation.id, room=card_room(escalation, bot), at=now)
            await tx.refresh_homes(now)
    log.info("card.redraw_queued", escalation_id=escalation.id, actor=user, status=escalation.status)


SEEN_ESCALATION = "flybot_escalation"
"""The key under which the off-card check leaves the clicked card's escalation in bolt's request context."""


async def seen_escalation(deps: SlackDeps, context: dict[str, Any], escalation_id: str) -> Escalation | None:
    """The clicked escalation: as this click's off-card check read it (``context``), else read now; None when there
    is no such escalation. A click reads it once; every later step that changes state re-checks in the store."""
    seen = context.get(SEEN_ESCALATION)
    if isinstance(seen, Escalation) and seen.id == escalation_id:
        return seen
    return await deps.store.get_escalation(escalation_id) if escalation_id else None


async def answer_stale(
    deps: SlackDeps,
    body: dict[str, Any],
    escalation_id: str,
    *,
    channel: str | None = None,
    ack: AsyncAck | None = None,
    seen: Escalation | None = None,
) -> bool:
    """When ``escalation_id`` is no longer pending: queue its card's redraw (:func:`queue_redraw`), ``ack()`` (when
    given) once that is stored, tell the clicker who decided it, redraw their App Home when the click came from
    there; True. False (nothing done) while it is pending or when there is no such escalation. ``seen``: the
    escalation as this click read it (:func:`seen_escalation`), else it is read here."""
    if seen is not None and seen.id == escalation_id:
        escalation: Escalation | None = seen
    else:
        escalation = await deps.store.get_escalation(escalation_id) if escalation_id else None
    if escalation is None or escalation.pending:
        return False
    user = body["user"]["id"]
    try:
        await queue_redraw(deps, escalation, user)
    except Exception:  # noqa: BLE001 - the clicker is still answered; the store's failure is logged
        log.exception("card.redraw_not_queued", escalation_id=escalation.id, actor=user)
    finally:
        if ack is not None:
            await ack()
    await _refuse(deps, _where(body) if channel is None else channel, user, already_text(escalation))
    if (body.get("container") or {}).get("type") == "view":
        await refresh_home(deps, user)
    return True


async def _pending_for_decider(
    deps: SlackDeps, body: dict[str, Any], *, approve: bool = False
) -> tuple[Escalation, Bot] | None:
    """The clicked escalation and its Bot when the clicker may decide it (``approve``: may approve it) and it is still
    pending; otherwise the clicker is told why (ephemerally; a card no longer pending is redrawn, whoever clicked)
    and None is returned."""
    user, channel, escalation_id = body["user"]["id"], _where(body), _action_value(body)
    if await answer_stale(deps, body, escalation_id):
        return None
    check = deps.service.require_approver if approve else deps.service.require_decider
    try:
        escalation, bot, _source = await check(escalation_id, user)
    except FlyBotError as exc:
        await _refuse(deps, channel, user, _outcome_text(exc))
        return None
    if not escalation.pending:
        await answer_stale(deps, body, escalation_id)
        return None
    return escalation, bot


def _outcome_text(error: FlyBotError) -> str:
    if isinstance(error, AlreadyDecided):
        return f"This escalation is {error.detail}."
    return error.detail


def already_text(escalation: Escalation) -> str:
    """ "This request was already approved by @Olivia at ..." for a card that is no longer pending (people as
    mentions, a session's withdrawal without the Bot's internal id)."""
    return already_decided_text(
        escalation.status, escalation.decided_by, escalation.decided_at, escalation.decision_source
    )


async def _decide(
    deps: SlackDeps,
    ack: AsyncAck,
    *,
    escalation_id: str,
    user: str,
    channel: str,
    approve: bool,
    reason: str | None,
    via: str,
    seen: Escalation | None = None,
) -> None:
    """Decide, THEN ``ack()`` (durable before acknowledged), then tell the user of a refusal. A card no longer
    pending is redrawn (:func:`queue_redraw`, before the ack), whoever clicked. ``via``: ``button`` or ``modal``
    (:data:`bot.escalations.VIAS`), for the audit row; ``seen``: the escalation as this click read it."""
    refusal: str | None = None
    try:
        decided = await deps.service.decide(
            escalation_id, actor=user, approve=approve, reason=reason, via=via, seen=seen
        )
        if decided.pending:  # the first of two approvals: say what happens next
            refusal = first_approval_text(decided.approvals_needed)
    except AlreadyDecided as exc:
        current = await deps.store.get_escalation(escalation_id)
        refusal = already_text(current) if current else _outcome_text(exc)
        if current is not None:
            try:
                await queue_redraw(deps, current, user, audit=False)  # the service audited the refusal
            except Exception:  # noqa: BLE001 - the clicker is still answered; the store's failure is logged
                log.exception("card.redraw_not_queued", escalation_id=escalation_id, actor=user)
    except FlyBotError as exc:
        refusal = _outcome_text(exc)
    except Exception:  # noqa: BLE001 - never a stack trace in chat
        log.exception("decision.failed", escalation_id=escalation_id, actor=user)
        refusal = GENERIC_FAILURE
    finally:
        await ack()
    if refusal:
        await _refuse(deps, channel, user, refusal)


def first_approval_text(needed: int) -> str:
    """The ephemeral answer to the first Approve of a two-person escalation (nothing is decided yet)."""
    return (
        f"Your approval is recorded: 1 of {needed}. The two-person rule needs a second, different person to "
        "approve before anything runs; a Deny by anyone ends it."
    )


def register(app: AsyncApp, deps: SlackDeps) -> None:
    """Register the card's listeners: Approve, Deny (opens the reason modal), Show full command, and the modal submit."""

    @app.action(APPROVE_ACTION)
    @deps.tracked
    async def on_approve(ack: AsyncAck, body: dict[str, Any], context: dict[str, Any]) -> None:
        seen = await seen_escalation(deps, context, _action_value(body))
        if await answer_stale(deps, body, _action_value(body), ack=ack, seen=seen):
            return
        await _decide(
            deps,
            ack,
            escalation_id=_action_value(body),
            user=body["user"]["id"],
            channel=_where(body),
            approve=True,
            reason=None,
            via="button",
            seen=seen,
        )
        if (body.get("container") or {}).get("type") == "view":
            await refresh_home(deps, body["user"]["id"])

    @app.action(DENY_ACTION)
    @deps.tracked
    async def on_deny(ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        found = await _pending_for_decider(deps, body)
        if found is not None:
            escalation, _bot = found
            await open_form(deps, body, deny_reason_modal(escalation.id, escalation.command), "Deny")

    @app.action(SHOW_COMMAND_ACTION)
    @deps.tracked
    async def on_show_command(ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        escalation = await deps.store.get_escalation(_action_value(body))
        bot = await deps.store.get_bot(escalation.bot_id) if escalation else None
        if escalation is None or bot is None:
            await _refuse(deps, _where(body), body["user"]["id"], "That escalation no longer exists.")
            return
        await open_form(deps, body, full_command_modal(to_card(escalation, bot)), "Show full command")

    @app.action(REVIEW_APPROVE_ACTION)
    @deps.tracked
    async def on_review(ack: AsyncAck, body: dict[str, Any]) -> None:
        # Where the command is shown cut, Approve first opens the whole command, with Approve in it.
        await ack()
        found = await _pending_for_decider(deps, body, approve=True)
        if found is not None:
            escalation, bot = found
            from_home = (body.get("container") or {}).get("type") == "view"  # App Home shows no justification
            await open_form(
                deps,
                body,
                full_command_modal(to_card(escalation, bot), approve=True, whole_justification=from_home),
                "Review and approve",
            )

    @app.view(REVIEW_MODAL_CALLBACK)
    @deps.tracked
    async def on_review_submit(ack: AsyncAck, body: dict[str, Any], view: dict[str, Any]) -> None:
        user, escalation_id = body["user"]["id"], str(view.get("private_metadata") or "")
        escalation = await deps.store.get_escalation(escalation_id)
        channel = (escalation.card_channel if escalation else None) or ""
        if not await answer_stale(deps, body, escalation_id, channel=channel, ack=ack):
            await _decide(
                deps,
                ack,
                escalation_id=escalation_id,
                user=user,
                channel=channel,
                approve=True,
                reason=None,
                via="modal",
            )
        await publish_home(deps, user)  # the click may have come from App Home

    @app.action(SHOW_JUSTIFICATION_ACTION)
    @deps.tracked
    async def on_show_justification(ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        escalation = await deps.store.get_escalation(_action_value(body))
        bot = await deps.store.get_bot(escalation.bot_id) if escalation else None
        if escalation is None or bot is None:
            await _refuse(deps, _where(body), body["user"]["id"], "That escalation no longer exists.")
            return
        await open_form(deps, body, full_justification_modal(to_card(escalation, bot)), "Show full justification")

    @app.view(DENY_MODAL_CALLBACK)
    @deps.tracked
    async def on_deny_submit(ack: AsyncAck, body: dict[str, Any], view: dict[str, Any]) -> None:
        escalation_id = str(view.get("private_metadata") or "")
        values = (view.get("state") or {}).get("values") or {}
        reason = ((values.get(DENY_REASON_BLOCK) or {}).get(DENY_REASON_INPUT) or {}).get("value")
        escalation = await deps.store.get_escalation(escalation_id)
        channel = (escalation.card_channel if escalation else None) or ""
        if await answer_stale(deps, body, escalation_id, channel=channel, ack=ack):
            return
        await _decide(
            deps,
            ack,
            escalation_id=escalation_id,
            user=body["user"]["id"],
            channel=channel,
            approve=False,
            reason=(reason or "").strip() or None,
            via="modal",
        )
