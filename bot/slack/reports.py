"""Blocked-host reports in chat (issue 5): report messages in rooms, the owners' DMs and their buttons.

- A message in a room FlyBot is in whose text starts with ``blocked:`` or ``sandbox-preflight:`` is read as a
  report (format: ``bot/reports.py``). It must name its Bot, host and session, and be posted in that Bot's room
  (``bot.room``; a Bot without a room reports through the API only). Anything malformed is ignored with a log
  line and an audit row (``report.ignored``); FlyBot never answers it in the room and never crashes on it.
- :class:`SlackReportChat` DMs each owner (``conversations.open`` + ``chat.postMessage``) and redraws the DMs
  (``chat.update``); Slack errors are logged, never raised.
- The DM's buttons decide through :meth:`bot.reports.ReportService.decide`: ``ack()`` first, refusals are
  ephemeral and change nothing, no raw error text reaches chat.
"""

from __future__ import annotations

import re
from typing import Any

import structlog
from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.errors import SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from bot.errors import AlreadyDecided, FlyBotError, NotAllowed, NotFound
from bot.reports import BOT_APPROVAL_EXPIRY, build_report, parse_chat_report
from bot.slack.actions import GENERIC_FAILURE, _action_value, _refuse, _where
from bot.slack.deps import SlackDeps
from bot.standing import parse_duration
from bot.store import Bot
from bot.store.reports import Report
from cards import (
    REPORT_APPROVE_BOT_ACTION,
    REPORT_APPROVE_TURN_ACTION,
    REPORT_RESOLVE_ACTION,
    CardReport,
    CardUnlock,
    report_dm,
)

log = structlog.get_logger("flybot.slack.reports")

REPORT_MESSAGE = re.compile(r"^\s*(?:blocked:|sandbox-preflight:)")
"""Room messages this module reads as reports (others are left to other listeners)."""

BOT_APPROVAL_HOURS = int(parse_duration(BOT_APPROVAL_EXPIRY).total_seconds() // 3600)
_CHOICES = {
    REPORT_APPROVE_TURN_ACTION: "approve_turn",
    REPORT_APPROVE_BOT_ACTION: "approve_bot",
    REPORT_RESOLVE_ACTION: "resolve",
}
_SLACK_ERRORS = (SlackClientError, OSError, TimeoutError, KeyError, TypeError)


def to_card_report(report: Report, bot: Bot) -> CardReport:
    """The DM model of a report (cards/ knows nothing of the store)."""
    return CardReport(
        id=report.id, bot_name=bot.name, host=report.host, session_id=report.session_id, mode=report.mode,
        missing=report.missing, unlock=tuple(CardUnlock(o.id, o.text, o.command) for o in report.unlock),
        status=report.status, count=report.count, first_seen=report.first_seen, last_seen=report.last_seen,
        source=report.source, reported_by=report.reported_by, channel=report.channel, decided_by=report.decided_by,
        decided_at=report.decided_at, standing_approval_id=report.standing_approval_id,
        bot_approval_hours=BOT_APPROVAL_HOURS,
    )


class SlackReportChat:
    """:class:`bot.reports.ReportChat` over a slack-sdk client (the one ``SlackChat`` uses, with its retries)."""

    def __init__(self, client: AsyncWebClient) -> None:
        self.client = client

    async def deliver(self, report: Report, bot: Bot) -> list[tuple[str, str]]:
        """DM every owner; returns ``(channel, ts)`` of each DM posted. A failed owner is logged and skipped."""
        message = report_dm(to_card_report(report, bot))
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

    async def redraw(self, report: Report, bot: Bot) -> None:
        """``chat.update`` each DM to the report's current state (buttons gone once decided); failures logged."""
        message = report_dm(to_card_report(report, bot))
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


async def _decide(deps: SlackDeps, body: dict[str, Any], choice: str) -> None:
    user, channel, report_id = body["user"]["id"], _where(body), _action_value(body)
    try:
        report = await deps.reports.decide(report_id, actor=user, choice=choice)
    except FlyBotError as exc:
        await _refuse(deps, channel, user, _refusal_text(exc))
        return
    except Exception:  # noqa: BLE001 - never a stack trace in chat
        log.exception("report.decision_failed", report_id=report_id, actor=user, choice=choice)
        await _refuse(deps, channel, user, GENERIC_FAILURE)
        return
    if report.status == "approved_bot" and report.standing_approval_id:
        await _refuse(deps, channel, user, (
            f"Approved. Standing approval `{report.standing_approval_id}` approves this Bot's escalations for "
            f"{BOT_APPROVAL_HOURS}h (up to system, on the host too; destructive commands still ask). "
            f"Revoke it with `/flybot standing revoke {report.standing_approval_id}`."
        ))


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
        await _decide(deps, body, _CHOICES[REPORT_APPROVE_BOT_ACTION])

    @app.action(REPORT_RESOLVE_ACTION)
    @deps.tracked
    async def on_resolve(ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        await _decide(deps, body, _CHOICES[REPORT_RESOLVE_ACTION])
