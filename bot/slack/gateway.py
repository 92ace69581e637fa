"""The chat port over Slack's Web API (slack-sdk ``AsyncWebClient`` with its retry handlers).

Retries come from slack-sdk's built-in handlers: rate limits (HTTP 429, honouring ``Retry-After``),
server errors (5xx) and connection errors. A card that still cannot be posted raises
:class:`~bot.chat.DeliveryFailed`, and the escalation ends ``undeliverable`` (fail closed).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import structlog
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot.chat import DeliveryFailed
from bot.metrics import Metrics
from bot.store import Bot, Escalation, StandingApproval
from cards import CardEscalation, CardReason, CardStanding, approval_card, standing_notice

log = structlog.get_logger("flybot.slack")


def _counted(handler: Any, metrics: Metrics | None, reason: str) -> Any:
    """Wrap a slack-sdk retry handler so each retry it grants is counted (``flybot_slack_api_retries_total``)."""
    if metrics is None:
        return handler
    original = handler.prepare_for_next_attempt_async

    async def prepare(**kwargs: Any) -> None:
        metrics.slack_retries.labels(reason).inc()
        await original(**kwargs)

    handler.prepare_for_next_attempt_async = prepare
    return handler


def make_web_client(
    token: str, base_url: str, *, max_retries: int = 2, metrics: Metrics | None = None
) -> AsyncWebClient:
    """An ``AsyncWebClient`` for ``base_url`` with slack-sdk's retry handlers for 429 (honouring ``Retry-After``),
    5xx and connection errors; ``max_retries`` per kind (rate limits get one more)."""
    return AsyncWebClient(
        token=token,
        base_url=base_url,
        timeout=15,
        retry_handlers=[
            _counted(AsyncConnectionErrorRetryHandler(max_retry_count=max_retries), metrics, "connection"),
            _counted(AsyncRateLimitErrorRetryHandler(max_retry_count=max_retries + 1), metrics, "rate_limited"),
            _counted(AsyncServerErrorRetryHandler(max_retry_count=max_retries), metrics, "server_error"),
        ],
    )


def to_card(escalation: Escalation, bot: Bot) -> CardEscalation:
    """The card model of an escalation (cards/ knows nothing of the store)."""
    return CardEscalation(
        id=escalation.id,
        bot_id=bot.id,
        bot_name=bot.name,
        session_id=escalation.session_id,
        room=escalation.card_channel or escalation.room or "",
        command=escalation.command,
        cwd=escalation.cwd,
        contained=escalation.contained,
        risk=escalation.risk,
        reasons=tuple(
            CardReason(
                subject=str(r.get("subject", "")),
                rule=str(r.get("rule", "")),
                level=str(r.get("level", "")),
                detail=str(r.get("detail", "")),
                downgraded=bool(r.get("downgraded", False)),
            )
            for r in escalation.reasons
        ),
        justification=escalation.justification,
        file_policy=escalation.file_policy,
        status=escalation.status,
        created_at=escalation.created_at,
        expires_at=escalation.expires_at,
        decided_at=escalation.decided_at,
        decided_by=escalation.decided_by,
        decision_source=escalation.decision_source,
        reason=escalation.reason,
        session_patterns=tuple(_session_patterns(escalation)) if escalation.pending else (),
    )


def _session_patterns(escalation: Escalation) -> list[str]:
    """What the card's "Approve for this session" would save (bot.standing.suggest_patterns, pure)."""
    from pathlib import Path

    from bot.risk import RiskLevel, classify
    from bot.standing import suggest_patterns

    if escalation.risk == RiskLevel.DESTRUCTIVE.label:
        return []
    workspace = Path(escalation.cwd) if escalation.cwd.startswith("/") else None  # as bot.escalations.grade
    assessment = classify(escalation.command, contained=escalation.contained, workspace=workspace)
    return suggest_patterns(assessment.commands)


def to_card_standing(approval: StandingApproval) -> CardStanding:
    """The surface model of a standing approval."""
    return CardStanding(
        id=approval.id, scope=approval.scope, subject_label=approval.subject, pattern=approval.pattern,
        max_risk=approval.max_risk, contained_only=approval.contained_only, created_by=approval.created_by,
        expires_at=approval.expires_at, note=approval.note, use_count=approval.use_count,
    )


class SlackChat:
    """:class:`~bot.chat.ChatGateway` over a slack-sdk client. Cards go to the escalation's room, else a DM to the first owner.

    Posting into one room is paced: at most one message per ``room_interval_s`` seconds per channel in this replica
    (Slack's guidance: about one message per second per channel; bursts beyond it are rate limited). A burst of
    escalations therefore queues instead of being dropped; slack-sdk's 429 handler covers what pacing misses.
    """

    def __init__(self, client: AsyncWebClient, *, room_interval_s: float = 1.0, metrics: Metrics | None = None) -> None:
        self.client = client
        self.room_interval_s = room_interval_s
        self.metrics = metrics
        self._room_locks: dict[str, asyncio.Lock] = {}
        self._room_last: dict[str, float] = {}

    async def _paced_post(self, channel: str, **kwargs: Any) -> Any:
        lock = self._room_locks.setdefault(channel, asyncio.Lock())
        async with lock:
            wait = self._room_last.get(channel, 0.0) + self.room_interval_s - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                return await self.client.chat_postMessage(channel=channel, **kwargs)
            finally:
                self._room_last[channel] = time.monotonic()

    def _failed(self, method: str, error: str) -> None:
        if self.metrics is not None:
            self.metrics.slack_errors.labels(method, error).inc()

    async def _room(self, escalation: Escalation, bot: Bot) -> str:
        if escalation.room:
            return escalation.room
        opened = await self.client.conversations_open(users=bot.owners[0])
        return str(opened["channel"]["id"])

    async def post_card(self, escalation: Escalation, bot: Bot) -> tuple[str, str]:
        """Post the approval card; returns ``(channel, ts)``. Raises DeliveryFailed after slack-sdk's retries."""
        try:
            channel = await self._room(escalation, bot)
            message = approval_card(to_card(escalation, bot))
            response = await self._paced_post(channel, text=message.text, blocks=message.blocks)
        except SlackApiError as exc:
            self._failed("chat.postMessage", str(exc.response.get("error") or "http"))
            raise DeliveryFailed(_api_error(exc)) from None
        except (SlackClientError, OSError, TimeoutError) as exc:
            self._failed("chat.postMessage", type(exc).__name__)
            raise DeliveryFailed(f"cannot reach Slack: {type(exc).__name__}") from None
        return str(response["channel"]), str(response["ts"])

    async def update_card(self, escalation: Escalation, bot: Bot) -> None:
        """Redraw the card; a failure is logged (the decision itself is already stored and delivered)."""
        if not (escalation.card_channel and escalation.card_ts):
            return
        message = approval_card(to_card(escalation, bot))
        try:
            await self.client.chat_update(
                channel=escalation.card_channel, ts=escalation.card_ts, text=message.text, blocks=message.blocks
            )
        except (SlackClientError, OSError, TimeoutError) as exc:
            self._failed("chat.update", type(exc).__name__)
            log.warning("card.update_failed", escalation_id=escalation.id, error=type(exc).__name__)

    async def post_notice(self, escalation: Escalation, bot: Bot, approvals: list[StandingApproval]) -> None:
        """The one-line standing-approval notice in the escalation's room (DM to the first owner without a room).

        Raises DeliveryFailed after slack-sdk's retries (the escalation then takes the card path).
        """
        message = standing_notice(
            bot_name=bot.name, command=escalation.command, contained=escalation.contained,
            escalation_id=escalation.id, approvals=[to_card_standing(a) for a in approvals],
        )
        try:
            channel = await self._room(escalation, bot)
            await self._paced_post(channel, text=message.text, blocks=message.blocks)
        except SlackApiError as exc:
            self._failed("chat.postMessage", str(exc.response.get("error") or "http"))
            raise DeliveryFailed(_api_error(exc)) from None
        except (SlackClientError, OSError, TimeoutError) as exc:
            self._failed("chat.postMessage", type(exc).__name__)
            raise DeliveryFailed(f"cannot reach Slack: {type(exc).__name__}") from None

    async def is_workspace_admin(self, user: str) -> bool:
        """``users.info``: a workspace admin or owner. Any error means no (fail closed)."""
        try:
            response = await self.client.users_info(user=user)
        except (SlackClientError, OSError, TimeoutError):
            return False
        info = response.get("user") or {}
        return bool(info.get("is_admin") or info.get("is_owner") or info.get("is_primary_owner"))

    async def publish_home(self, user: str, view: dict[str, Any]) -> None:
        """``views.publish`` the App Home tab (best effort)."""
        try:
            await self.client.views_publish(user_id=user, view=view)
        except (SlackClientError, OSError, TimeoutError) as exc:
            log.warning("views_publish.failed", user=user, error=type(exc).__name__)

    async def dm_channel(self, user: str) -> str | None:
        """The DM channel between FlyBot and ``user`` (``conversations.open``), or None when Slack says no."""
        try:
            opened = await self.client.conversations_open(users=user)
        except (SlackClientError, OSError, TimeoutError):
            return None
        return str(opened["channel"]["id"])

    async def ephemeral(self, channel: str, user: str, text: str) -> bool:
        """Show ``text`` to ``user`` only; True when Slack took it (failures are logged, never raised)."""
        try:
            await self.client.chat_postEphemeral(channel=channel, user=user, text=text)
        except (SlackClientError, OSError, TimeoutError) as exc:
            log.warning("ephemeral.failed", user=user, error=type(exc).__name__)
            return False
        return True

    async def direct_message(self, user: str, text: str) -> bool:
        """Post ``text`` in FlyBot's DM with ``user`` (``conversations.open`` + ``chat.postMessage``); True when
        posted. The fallback when an ephemeral answer to the person's own action cannot be shown."""
        channel = await self.dm_channel(user)
        if channel is None:
            return False
        try:
            await self.client.chat_postMessage(channel=channel, text=text)
        except (SlackClientError, OSError, TimeoutError) as exc:
            log.warning("direct_message.failed", user=user, error=type(exc).__name__)
            return False
        return True

    async def open_view(self, trigger_id: str, view: dict[str, Any]) -> str | None:
        """Open a modal; returns None when it opened, else Slack's error code (``expired_trigger_id``, or
        ``unreachable`` when Slack could not be reached) so the listener can tell the person who clicked."""
        try:
            await self.client.views_open(trigger_id=trigger_id, view=view)
        except SlackApiError as exc:
            error = str(exc.response.get("error") or "error") if hasattr(exc.response, "get") else "error"
            log.warning("views_open.failed", error=error)
            return error
        except (SlackClientError, OSError, TimeoutError) as exc:
            log.warning("views_open.failed", error=type(exc).__name__)
            return "unreachable"
        return None


def _api_error(exc: SlackApiError) -> str:
    response = exc.response
    error = response.get("error") if hasattr(response, "get") else None
    status = getattr(response, "status_code", "?")
    return f"Slack answered {error or 'an error'} (HTTP {status})"
