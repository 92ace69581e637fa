"""Blocked-host reports in chat: report messages in rooms, the owners' DMs and their buttons.

- A message in a room FlyBot is in whose text starts with ``blocked:`` or ``sandbox-preflight:`` is read as a
  report (format: ``bot/reports.py``). It must name its Bot, host and session, be posted in that Bot's room
  (``bot.room``) and by the Bot's own chat identity (``bot.chat_user``, ``flybot bots add ... --chat-user U...``):
  a Bot without a room or a chat user reports through the API only. Anything else is ignored
  with a log line and an audit row (``report.ignored``); FlyBot never answers it in the room and never crashes on it.
- The owners' DMs and their redraws are outbox jobs (``bot/delivery``), queued by :class:`bot.reports.ReportService`
  in the transaction that records the report or its decision.
- The DM's buttons decide through :meth:`bot.reports.ReportService.decide`: the decision, its audit row and the
  DMs' redraw job commit BEFORE ``ack()`` (an acknowledged click is never lost); refusals are ephemeral and change
  nothing, no raw error text reaches chat. "… for this Bot" opens a confirmation modal
  (``cards.report_grant_modal``); host commands are in the grant only when the owner ticks that box there.
- A click on a DM of a report already decided (its redraw has not landed: Slack failed or was slow) queues the
  redraw of every DM of it (:func:`redraw_report_dms`), and the clicker is told who decided it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import structlog
from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.errors import SlackClientError

from bot.errors import AlreadyDecided, FlyBotError, NotAllowed, NotFound
from bot.refusals import REFUSALS
from bot.report_card import BOT_APPROVAL_HOURS, to_card_report
from bot.reports import already_text, build_report, dm_room, parse_chat_report
from bot.slack.actions import GENERIC_FAILURE, _action_value, _refuse, _where, open_form
from bot.slack.deps import SlackDeps
from cards import (
    REPORT_APPROVE_BOT_ACTION,
    REPORT_APPROVE_TURN_ACTION,
    REPORT_GRANT_CALLBACK,
    REPORT_GRANT_HOST_BLOCK,
    REPORT_GRANT_HOST_INPUT,
    REPORT_GRANT_HOST_VALUE,
    REPORT_RESOLVE_ACTION,
    report_grant_modal,
)

log = structlog.get_logger("flybot.slack.reports")

REPORT_MESSAGE = re.compile(r"^\s*(?:blocked:|sandbox-preflight:)")
"""Room messages this module reads as reports (others are left to other listeners)."""

_CHOICES = {
    REPORT_APPROVE_TURN_ACTION: "approve_turn",
    REPORT_APPROVE_BOT_ACTION: "approve_bot",
    REPORT_RESOLVE_ACTION: "resolve",
}
_SLACK_ERRORS = (SlackClientError, OSError, TimeoutError, KeyError, TypeError)
__all__ = ["BOT_APPROVAL_HOURS", "REPORT_MESSAGE", "handle_report_message", "register", "to_card_report"]


async def handle_report_message(deps: SlackDeps, message: dict[str, Any]) -> None:
    """Read one room message as a report and pass it on; ignore (with a log line) anything that is not one."""
    text = str(message.get("text") or "")
    channel = str(message.get("channel") or "")
    poster = str(message.get("user") or message.get("bot_id") or "")
    bound = log.bind(channel=channel, reported_by=poster)
    try:
        facts = parse_chat_report(text)
        name = facts.bot or ""
        bot = await deps.store.bot_by_name(name) or await deps.store.get_bot(name)
        if bot is None:
            raise NotFound(f"no Bot named {name}")
        if not bot.room or channel != bot.room:
            raise NotAllowed(f"chat reports of {bot.name} are accepted only in its own room")
        if not bot.chat_user or poster != bot.chat_user:
            raise NotAllowed(f"chat reports of {bot.name} are accepted only from its registered chat user")
        blocked = build_report(bot, facts, source="chat", reported_by=poster or None, channel=channel)
        report, created = await deps.reports.report(bot, blocked)
    except FlyBotError as exc:
        # Anyone in a room FlyBot is in can post such lines: the first of a kind per poster a minute is logged, the
        # rest counted (bot.refusals); each still gets its audit row.
        REFUSALS.refused(
            "report.ignored",
            why=exc.code,
            who=poster or channel or "unknown",
            level="warning",
            channel=channel,
            field=exc.field,
            detail=exc.detail[:300],
        )
        try:
            await deps.store.audit(
                "report.ignored",
                at=deps.reports.clock(),
                actor=poster or None,
                channel=channel,
                why=exc.code,
                field=exc.field,
                detail=exc.detail[:300],
            )
        except Exception:  # noqa: BLE001 - the audit row is best effort here; the log line above stands
            bound.exception("report.ignored_audit_failed")
        return
    except Exception:  # noqa: BLE001 - a room message must never break the listener
        bound.exception("report.message_failed")
        return
    bound.info("report.accepted", report_id=report.id, bot_id=report.bot_id, created=created, count=report.count)


async def redraw_report_dms(deps: SlackDeps, report_id: str, user: str) -> None:
    """A click on a DM of a report that is no longer open (its redraw has not landed: Slack failed or was slow):
    queue the redraw of every DM of it, so no live buttons stay on a decided report. Failures are logged; the
    clicker is answered all the same."""
    try:
        report = await deps.store.get_report(report_id)
        bot = await deps.store.get_bot(report.bot_id) if report is not None else None
        if report is None or bot is None or report.open or not report.dms:
            return
        async with deps.store.transaction() as tx:
            await tx.enqueue("report.update", ref=report.id, room=dm_room(bot), at=deps.service.clock())
        log.info("report.redraw_queued", report_id=report.id, actor=user, status=report.status)
    except Exception:  # noqa: BLE001 - the clicker is still answered; the store's failure is logged
        log.exception("report.redraw_not_queued", report_id=report_id, actor=user)


def _refusal_text(error: FlyBotError) -> str:
    if isinstance(error, AlreadyDecided):
        return f"This report is {error.detail}."
    return error.detail


async def _decide(
    deps: SlackDeps,
    ack: AsyncAck | None,
    body: dict[str, Any],
    choice: str,
    *,
    include_host: bool = False,
    report_id: str | None = None,
    channel: str = "",
) -> None:
    """Decide, THEN ``ack()`` (the decision, its audit row and the DMs' redraw job are committed before Slack hears
    back: an acknowledged click is never lost), then reply to the clicker."""
    user = body["user"]["id"]
    if report_id is None:
        channel, report_id = _where(body), _action_value(body)
    reply: str | None = None
    try:
        report = await deps.reports.decide(report_id, actor=user, choice=choice, include_host=include_host)
        if report.status == "approved_bot" and report.standing_approval_id:
            where = "on the host too" if report.grant_on_host else "contained commands only"
            reply = (
                f"Approved. Standing approval `{report.standing_approval_id}` approves this Bot's escalations for "
                f"{BOT_APPROVAL_HOURS}h (up to system, {where}; destructive commands still ask). "
                f"Revoke it with `/flybot standing revoke {report.standing_approval_id}`."
            )
    except AlreadyDecided as exc:
        reply = _refusal_text(exc)
        await redraw_report_dms(deps, report_id, user)  # before the ack: the DMs lose their buttons
    except FlyBotError as exc:
        reply = _refusal_text(exc)
    except Exception:  # noqa: BLE001 - never a stack trace in chat
        log.exception("report.decision_failed", report_id=report_id, actor=user, choice=choice)
        reply = GENERIC_FAILURE
    finally:
        if ack is not None:
            await ack()
    if reply:
        await _refuse(deps, channel, user, reply)


async def _open_grant_modal(deps: SlackDeps, body: dict[str, Any]) -> None:
    """ "… for this Bot": check the clicker may decide, then open the confirmation modal (nothing is granted yet)."""
    user, channel, report_id = body["user"]["id"], _where(body), _action_value(body)
    try:
        report, bot, _source = await deps.reports.require_decider(report_id, user)
    except FlyBotError as exc:
        await _refuse(deps, channel, user, _refusal_text(exc))
        return
    if not report.open:
        await redraw_report_dms(deps, report.id, user)
        await _refuse(deps, channel, user, f"This report is {already_text(report)}.")
        return
    modal = report_grant_modal(report.id, bot.name, BOT_APPROVAL_HOURS)
    meta = json.loads(modal["private_metadata"])
    modal["private_metadata"] = json.dumps({**meta, "channel": channel})
    await open_form(deps, body, modal, "Approve danger-full-access for this Bot")


def _host_ticked(view: dict[str, Any]) -> bool:
    values = (view.get("state") or {}).get("values") or {}
    picked = ((values.get(REPORT_GRANT_HOST_BLOCK) or {}).get(REPORT_GRANT_HOST_INPUT) or {}).get("selected_options")
    return any(isinstance(o, dict) and o.get("value") == REPORT_GRANT_HOST_VALUE for o in picked or [])


def register(app: AsyncApp, deps: SlackDeps) -> None:
    """Register the report-message listener and the DM's three buttons."""

    @app.message(REPORT_MESSAGE)
    @deps.tracked
    async def on_report_message(message: dict[str, Any]) -> None:
        await handle_report_message(deps, message)

    @app.event("message")
    async def on_other_message() -> None:
        """Every other message in a room FlyBot is in: acknowledged with 200 and nothing else. Unhandled, bolt
        answers 404, which Slack retries three times and counts as a failed delivery (it disables the event
        subscriptions of an app whose deliveries keep failing, blocked reports included)."""

    @app.action(REPORT_APPROVE_TURN_ACTION)
    @deps.tracked
    async def on_approve_turn(ack: AsyncAck, body: dict[str, Any]) -> None:
        await _decide(deps, ack, body, _CHOICES[REPORT_APPROVE_TURN_ACTION])

    @app.action(REPORT_APPROVE_BOT_ACTION)
    @deps.tracked
    async def on_approve_bot(ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        await _open_grant_modal(deps, body)

    @app.view(REPORT_GRANT_CALLBACK)
    @deps.tracked
    async def on_grant_submit(ack: AsyncAck, body: dict[str, Any], view: dict[str, Any]) -> None:
        try:
            meta = json.loads(view.get("private_metadata") or "{}")
            report_id, channel = str(meta["report_id"]), str(meta.get("channel") or "")
        except (ValueError, KeyError, TypeError):
            await ack()
            log.warning("report.grant_modal_unreadable")
            return
        await _decide(
            deps,
            ack,
            body,
            _CHOICES[REPORT_APPROVE_BOT_ACTION],
            include_host=_host_ticked(view),
            report_id=report_id,
            channel=channel,
        )

    @app.action(REPORT_RESOLVE_ACTION)
    @deps.tracked
    async def on_resolve(ack: AsyncAck, body: dict[str, Any]) -> None:
        await _decide(deps, ack, body, _CHOICES[REPORT_RESOLVE_ACTION])
