"""Blocked-host reports in chat (issue 5): report messages in rooms, the owners' DMs and their buttons.

- A message in a room FlyBot is in whose text starts with ``blocked:`` or ``sandbox-preflight:`` is read as a
  report (format: ``bot/reports.py``). It must name its Bot, host and session, be posted in that Bot's room
  (``bot.room``) and by the Bot's own chat identity (``bot.chat_user``, ``flybot bots add ... --chat-user U...``;
  issue 11 section 4): a Bot without a room or a chat user reports through the API only. Anything else is ignored
  with a log line and an audit row (``report.ignored``); FlyBot never answers it in the room and never crashes on it.
- :class:`SlackReportChat` DMs each owner (``conversations.open`` + ``chat.postMessage``) and redraws the DMs
  (``chat.update``); Slack errors are logged, never raised.
- The DM's buttons decide through :meth:`bot.reports.ReportService.decide`: ``ack()`` first, refusals are
  ephemeral and change nothing, no raw error text reaches chat. "… for this Bot" opens a confirmation modal
  (``cards.report_grant_modal``); host commands are in the grant only when the owner ticks that box there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import structlog
from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.errors import SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from bot.errors import AlreadyDecided, FlyBotError, NotAllowed, NotFound
from bot.report_card import BOT_APPROVAL_HOURS, to_card_report
from bot.reports import already_text, build_report, parse_chat_report
from bot.slack.actions import GENERIC_FAILURE, _action_value, _refuse, _where, open_form
from bot.slack.deps import SlackDeps
from bot.store import Bot
from bot.store.reports import Report
from cards import (
    REPORT_APPROVE_BOT_ACTION,
    REPORT_APPROVE_TURN_ACTION,
    REPORT_GRANT_CALLBACK,
    REPORT_GRANT_HOST_BLOCK,
    REPORT_GRANT_HOST_INPUT,
    REPORT_GRANT_HOST_VALUE,
    REPORT_RESOLVE_ACTION,
    report_dm,
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
__all__ = ["BOT_APPROVAL_HOURS", "REPORT_MESSAGE", "SlackReportChat", "handle_report_message", "register",
           "to_card_report"]


class SlackReportChat:
    """:class:`bot.reports.ReportChat` over a slack-sdk client (the one ``SlackChat`` uses, with its retries)."""

    def __init__(self, client: AsyncWebClient) -> None:
        self.client = client

    async def deliver(
        self, report: Report, bot: Bot, blocked_hosts: Sequence[tuple[str, datetime]] = ()
    ) -> list[tuple[str, str]]:
        """DM every owner; returns ``(channel, ts)`` of each DM posted. A failed owner is logged and skipped."""
        message = report_dm(to_card_report(report, bot, blocked_hosts))
        posted: list[tuple[str, str]] = []
        for owner in bot.owners:
            try:
                opened = await self.client.conversations_open(users=owner)
                channel = str(opened["channel"]["id"])
                response = await self.client.chat_postMessage(channel=channel, text=message.text, blocks=message.blocks)
                posted.append((str(response["channel"]), str(response["ts"])))
            except _SLACK_ERRORS as exc:
                log.warning("report.dm_failed", report_id=report.id, bot_id=bot.id, owner=owner,
                            error=type(exc).__name__)
        return posted

    async def redraw(self, report: Report, bot: Bot, blocked_hosts: Sequence[tuple[str, datetime]] = ()) -> None:
        """``chat.update`` each DM to the report's current state (buttons gone once decided); failures logged."""
        message = report_dm(to_card_report(report, bot, blocked_hosts))
        for channel, ts in report.dms:
            try:
                await self.client.chat_update(channel=channel, ts=ts, text=message.text, blocks=message.blocks)
            except _SLACK_ERRORS as exc:
                log.warning("report.dm_update_failed", report_id=report.id, channel=channel, error=type(exc).__name__)


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
        bound.warning("report.ignored", why=exc.code, field=exc.field, detail=exc.detail)
        try:
            await deps.store.audit("report.ignored", at=deps.reports.clock(), actor=poster or None, channel=channel,
                                   why=exc.code, field=exc.field, detail=exc.detail[:300])
        except Exception:  # noqa: BLE001 - the audit row is best effort here; the log line above stands
            bound.exception("report.ignored_audit_failed")
        return
    except Exception:  # noqa: BLE001 - a room message must never break the listener
        bound.exception("report.message_failed")
        return
    bound.info("report.accepted", report_id=report.id, bot_id=report.bot_id, created=created, count=report.count)


def _refusal_text(error: FlyBotError) -> str:
    if isinstance(error, AlreadyDecided):
        return f"This report is {error.detail}."
    return error.detail


async def _decide(deps: SlackDeps, body: dict[str, Any], choice: str, *, include_host: bool = False,
                  report_id: str | None = None, channel: str = "") -> None:
    user = body["user"]["id"]
    if report_id is None:
        channel, report_id = _where(body), _action_value(body)
    try:
        report = await deps.reports.decide(report_id, actor=user, choice=choice, include_host=include_host)
    except FlyBotError as exc:
        await _refuse(deps, channel, user, _refusal_text(exc))
        return
    except Exception:  # noqa: BLE001 - never a stack trace in chat
        log.exception("report.decision_failed", report_id=report_id, actor=user, choice=choice)
        await _refuse(deps, channel, user, GENERIC_FAILURE)
        return
    if report.status == "approved_bot" and report.standing_approval_id:
        where = "on the host too" if report.grant_on_host else "contained commands only"
        await _refuse(deps, channel, user, (
            f"Approved. Standing approval `{report.standing_approval_id}` approves this Bot's escalations for "
            f"{BOT_APPROVAL_HOURS}h (up to system, {where}; destructive commands still ask). "
            f"Revoke it with `/flybot standing revoke {report.standing_approval_id}`."
        ))


async def _open_grant_modal(deps: SlackDeps, body: dict[str, Any]) -> None:
    """"… for this Bot": check the clicker may decide, then open the confirmation modal (nothing is granted yet)."""
    user, channel, report_id = body["user"]["id"], _where(body), _action_value(body)
    try:
        report, bot, _source = await deps.reports.require_decider(report_id, user)
    except FlyBotError as exc:
        await _refuse(deps, channel, user, _refusal_text(exc))
        return
    if not report.open:
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

    @app.action(REPORT_APPROVE_TURN_ACTION)
    @deps.tracked
    async def on_approve_turn(ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        await _decide(deps, body, _CHOICES[REPORT_APPROVE_TURN_ACTION])

    @app.action(REPORT_APPROVE_BOT_ACTION)
    @deps.tracked
    async def on_approve_bot(ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        await _open_grant_modal(deps, body)

    @app.view(REPORT_GRANT_CALLBACK)
    @deps.tracked
    async def on_grant_submit(ack: AsyncAck, body: dict[str, Any], view: dict[str, Any]) -> None:
        await ack()
        try:
            meta = json.loads(view.get("private_metadata") or "{}")
            report_id, channel = str(meta["report_id"]), str(meta.get("channel") or "")
        except (ValueError, KeyError, TypeError):
            log.warning("report.grant_modal_unreadable")
            return
        await _decide(deps, body, _CHOICES[REPORT_APPROVE_BOT_ACTION], include_host=_host_ticked(view),
                      report_id=report_id, channel=channel)

    @app.action(REPORT_RESOLVE_ACTION)
    @deps.tracked
    async def on_resolve(ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        await _decide(deps, body, _CHOICES[REPORT_RESOLVE_ACTION])
