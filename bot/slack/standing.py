"""Listeners for standing approvals made from chat: the card's extra buttons, their modal, and Revoke on App Home.

Who may: "Approve for this session" and "Always for this Bot": the Bot's owners and admins; a room-wide approval:
admins only, offered to them alone inside the "Always for this Bot" modal ("Approve for": this Bot or every Bot in
this room; the modal is the person's own, a card's buttons are everyone's). Cards posted before still carry an
"Always for this room" button; it opens the room's modal for admins and is refused to others. Not offered for
destructive commands (and refused if forged). Refusals are ephemeral; nothing changes.
"""

from __future__ import annotations

import json
from typing import Any

import structlog
from slack_bolt.async_app import AsyncAck, AsyncApp

from bot.errors import FlyBotError, InvalidRequest, NotAllowed
from bot.escalations import simple_commands
from bot.risk import RiskLevel
from bot.slack.actions import (
    GENERIC_FAILURE,
    _action_value,
    _outcome_text,
    _refuse,
    _where,
    already_text,
    answer_stale,
    open_form,
    queue_redraw,
    refresh_home,
)
from bot.slack.deps import SlackDeps
from bot.standing import StandingSpec, suggest_pattern, suggest_patterns
from bot.store import Escalation
from cards import (
    HOST_OK_VALUE,
    STANDING_BOT_ACTION,
    STANDING_EXPIRES_BLOCK,
    STANDING_EXPIRES_INPUT,
    STANDING_HOST_BLOCK,
    STANDING_HOST_INPUT,
    STANDING_MODAL_CALLBACK,
    STANDING_NOTE_BLOCK,
    STANDING_NOTE_INPUT,
    STANDING_PATTERN_BLOCK,
    STANDING_PATTERN_INPUT,
    STANDING_REVOKE_ACTION,
    STANDING_RISK_BLOCK,
    STANDING_RISK_INPUT,
    STANDING_ROOM_ACTION,
    STANDING_SCOPE_BLOCK,
    STANDING_SCOPE_INPUT,
    STANDING_SESSION_ACTION,
    standing_modal,
)

log = structlog.get_logger("flybot.slack.standing")

_FIELD_BLOCKS = {
    "pattern": STANDING_PATTERN_BLOCK,
    "max_risk": STANDING_RISK_BLOCK,
    "expires": STANDING_EXPIRES_BLOCK,
    "note": STANDING_NOTE_BLOCK,
}


def _pattern_for(escalation: Escalation) -> str:
    return suggest_pattern(simple_commands(escalation))


def _patterns_for(escalation: Escalation) -> list[str]:
    """A pattern for each part of the command that needs cover (never a ``cd``/``export``/``true`` prefix); a tool
    call's words for a tool call (bot/risk/tools.py)."""
    return suggest_patterns(simple_commands(escalation))


async def _checked(deps: SlackDeps, escalation_id: str, user: str, scope: str) -> Escalation:
    """The pending, non-destructive escalation ``user`` may make a ``scope`` approval from; raises FlyBotError."""
    escalation, bot, _source = await deps.service.require_decider(escalation_id, user)
    if escalation.risk == RiskLevel.DESTRUCTIVE.label:
        raise NotAllowed("destructive commands always ask: no standing approval can cover them")
    if scope == "room" and not await deps.standing.is_admin(user):
        raise NotAllowed("only admins can set a room-wide standing approval")
    if not escalation.pending:
        raise FlyBotError(f"This escalation is already {escalation.status}.")
    return escalation


def _state_value(values: dict[str, Any], block: str, action: str) -> Any:
    return (values.get(block) or {}).get(action) or {}


def register(app: AsyncApp, deps: SlackDeps) -> None:
    """Register the standing-approval listeners."""

    @app.action(STANDING_SESSION_ACTION)
    @deps.tracked
    async def on_session(ack: AsyncAck, body: dict[str, Any]) -> None:
        # The decision and the session's standing approvals, each with its audit row, and the card's update job
        # commit in ONE transaction before the ack: never an approved escalation without its approvals.
        user, channel, escalation_id = body["user"]["id"], _where(body), _action_value(body)
        if await answer_stale(deps, body, escalation_id, ack=ack):  # decided elsewhere: the card is redrawn
            return
        try:
            escalation = await _checked(deps, escalation_id, user, "session")
            patterns = _patterns_for(escalation)
            if not patterns:
                # Never widen a one-click choice to "*": without a literal command prefix there is nothing to repeat.
                raise InvalidRequest(
                    "this command has no plain command prefix to approve for the session; "
                    "use Approve, or Always for this Bot to write a pattern yourself"
                )
            max_risk = max(RiskLevel.parse(escalation.risk), RiskLevel.WORKSPACE_WRITE).label
            approvals = [
                await deps.standing.prepare(
                    user,
                    StandingSpec(
                        scope="session",
                        subject=escalation.session_id,
                        bot_id=escalation.bot_id,
                        pattern=pattern,
                        max_risk=max_risk,
                        contained_only=escalation.contained,
                        note="approved for this session from the card",
                    ),
                )
                for pattern in patterns
            ]
            await deps.service.decide(escalation_id, actor=user, approve=True, grants=approvals, via="button")
        except FlyBotError as exc:
            await ack()
            await _refuse(deps, channel, user, _outcome_text(exc))
            return
        except Exception:  # noqa: BLE001
            await ack()
            log.exception("standing.session_failed", escalation_id=escalation_id)
            await _refuse(deps, channel, user, GENERIC_FAILURE)
            return
        await ack()
        named = ", ".join(f"`{a.pattern}` ({a.id})" for a in approvals)
        each = "each " if len(approvals) > 1 else ""
        await _refuse(
            deps,
            channel,
            user,
            f"Approved. Until the session ends (at most 12h), {named} "
            f"{'are' if len(approvals) > 1 else 'is'} approved for it, {each}up to {max_risk}.",
        )

    async def open_modal(ack: AsyncAck, body: dict[str, Any], scope: str) -> None:
        await ack()
        user, channel, escalation_id = body["user"]["id"], _where(body), _action_value(body)
        if await answer_stale(deps, body, escalation_id):  # decided elsewhere: the card is redrawn
            return
        try:
            escalation = await _checked(deps, escalation_id, user, scope)
        except FlyBotError as exc:
            await _refuse(deps, channel, user, _outcome_text(exc))
            return
        view = standing_modal(
            escalation_id=escalation.id,
            scope=scope,
            pattern=_pattern_for(escalation),
            max_risk=max(RiskLevel.parse(escalation.risk), RiskLevel.WORKSPACE_WRITE).label,
            command_preview=escalation.command,
            contained=escalation.contained,
            room_choice=scope == "bot" and await deps.standing.is_admin(user),
        )
        await open_form(deps, body, view, "Always for this room" if scope == "room" else "Always for this Bot")

    @app.action(STANDING_BOT_ACTION)
    @deps.tracked
    async def on_bot(ack: AsyncAck, body: dict[str, Any]) -> None:
        await open_modal(ack, body, "bot")

    @app.action(STANDING_ROOM_ACTION)
    @deps.tracked
    async def on_room(ack: AsyncAck, body: dict[str, Any]) -> None:
        await open_modal(ack, body, "room")

    @app.view(STANDING_MODAL_CALLBACK)
    @deps.tracked
    async def on_submit(ack: AsyncAck, body: dict[str, Any], view: dict[str, Any]) -> None:
        user = body["user"]["id"]
        try:
            meta = json.loads(view.get("private_metadata") or "{}")
            escalation_id, scope = str(meta["escalation_id"]), str(meta["scope"])
        except (ValueError, KeyError, TypeError):
            await ack()
            return
        current = await deps.store.get_escalation(escalation_id)
        if current is not None and not current.pending:  # decided while the form was open: the card is redrawn
            await queue_redraw(deps, current, user)
            await ack(response_action="errors", errors={STANDING_PATTERN_BLOCK: already_text(current)})
            return
        values = (view.get("state") or {}).get("values") or {}
        chosen = _state_value(values, STANDING_SCOPE_BLOCK, STANDING_SCOPE_INPUT).get("selected_option") or {}
        if chosen.get("value") in ("bot", "room"):  # an admin's choice (a forged "room" is refused by _checked)
            scope = str(chosen["value"])
        pattern = str(_state_value(values, STANDING_PATTERN_BLOCK, STANDING_PATTERN_INPUT).get("value") or "")
        selected = _state_value(values, STANDING_RISK_BLOCK, STANDING_RISK_INPUT).get("selected_option") or {}
        expires = str(_state_value(values, STANDING_EXPIRES_BLOCK, STANDING_EXPIRES_INPUT).get("value") or "").strip()
        host = _state_value(values, STANDING_HOST_BLOCK, STANDING_HOST_INPUT).get("selected_options") or []
        note = _state_value(values, STANDING_NOTE_BLOCK, STANDING_NOTE_INPUT).get("value")
        try:
            escalation = await _checked(deps, escalation_id, user, scope)
            bot = await deps.store.get_bot(escalation.bot_id)
            subject = (escalation.room or (bot.room if bot else None) or "") if scope == "room" else escalation.bot_id
            spec = StandingSpec(
                scope=scope,
                subject=subject,
                pattern=pattern,
                max_risk=str(selected.get("value") or "") or None,
                contained_only=not any(o.get("value") == HOST_OK_VALUE for o in host),
                expires=expires or None,
                note=note,
            )
            approval = await deps.standing.prepare(user, spec)
        except InvalidRequest as exc:
            await ack(
                response_action="errors",
                errors={_FIELD_BLOCKS.get(exc.field or "", STANDING_PATTERN_BLOCK): exc.detail},
            )
            return
        except FlyBotError as exc:
            await ack(response_action="errors", errors={STANDING_PATTERN_BLOCK: _outcome_text(exc)})
            return
        channel = escalation.card_channel or ""
        try:
            # The decision and the approval, each with its audit row, and the card's update job: ONE transaction,
            # committed before the ack.
            await deps.service.decide(escalation_id, actor=user, approve=True, grants=[approval], via="modal")
        except FlyBotError as exc:
            # The escalation could not be approved (decided meanwhile...): the approval the owner asked for is still
            # saved, on its own (with its audit row), and they are told both.
            try:
                approval = await deps.standing.create(user, spec)
            except FlyBotError as again:
                await ack(response_action="errors", errors={STANDING_PATTERN_BLOCK: _outcome_text(again)})
                return
            await ack()
            await _refuse(deps, channel, user, f"Saved standing approval {approval.id}, but: {_outcome_text(exc)}")
            return
        await ack()
        await _refuse(
            deps,
            channel,
            user,
            f"Approved, and saved standing approval {approval.id} "
            f"({approval.scope}: `{approval.pattern}` up to {approval.max_risk}, "
            f"{'sandbox only' if approval.contained_only else 'sandbox and host'}).",
        )

    @app.action(STANDING_REVOKE_ACTION)
    @deps.tracked
    async def on_revoke(ack: AsyncAck, body: dict[str, Any]) -> None:
        user = body["user"]["id"]
        refusal: str | None = None
        try:
            await deps.standing.revoke(user, _action_value(body))  # stored with its audit row before the ack
        except FlyBotError as exc:
            log.info("standing.revoke_refused", user=user, error=exc.code)
            refusal = _outcome_text(exc)
        finally:
            await ack()
        if refusal is not None:  # a refused click is answered, never silence
            await _refuse(deps, _where(body), user, refusal)
        await refresh_home(deps, user)
