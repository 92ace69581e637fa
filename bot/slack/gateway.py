"""Slack's Web API for FlyBot (slack-sdk ``AsyncWebClient``s sharing ONE aiohttp session per process).

- :class:`SlackChat` is the chat port (:class:`bot.chat.ChatPort`) the delivery workers send through, plus the
  direct calls a click may answer with at once (ephemeral replies, modals, App Home, ``users.info``).
- Retries: idempotent calls (``chat.update``, ``conversations.history``/``open``, the interactive calls) use
  slack-sdk's retry handlers for connection errors and 5xx; the interactive client also retries 429s honouring
  ``Retry-After``. ``chat.postMessage`` from the outbox is sent WITHOUT slack-sdk retries: a post is not idempotent,
  so the delivery worker retries it itself, after looking for it in the room's history (message metadata), and a
  429 pauses the whole room for every replica (``Retry-After`` stored with the room's pace).
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

import aiohttp
import structlog
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot.chat import ChatError, RateLimited, Refused, Tag, Unsure
from bot.metrics import Metrics
from bot.slack.scopes import note_missing_scope

log = structlog.get_logger("flybot.slack")

REFUSALS = frozenset(
    {
        "channel_not_found",
        "not_in_channel",
        "is_archived",
        "msg_too_long",
        "no_text",
        "invalid_blocks",
        "invalid_blocks_format",
        "too_many_attachments",
        "restricted_action",
        "invalid_auth",
        "account_inactive",
        "token_revoked",
        "token_expired",
        "missing_scope",
        "not_authed",
        "message_not_found",
        "cant_update_message",
        "edit_window_closed",
        "user_not_found",
        "user_disabled",
        "invalid_metadata_format",
        "invalid_metadata_schema",
        "metadata_too_large",
        "channel_is_archived",
        "cannot_dm_bot",
        "not_allowed_token_type",
        "invalid_arguments",
        "invalid_arg_name",
        "team_access_not_granted",
        "ekm_access_denied",
    }
)
"""Slack error codes that no retry will change (Slack's method reference pages, "Errors")."""

RETRY_AFTER_MAX_S = 600.0
"""The longest ``Retry-After`` a room is paused for, seconds (Slack sends whole seconds, usually under a minute)."""

HISTORY_PAGES = 5
"""How many pages of ``conversations.history`` (200 messages each) a lost post is looked for in."""


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
    token: str,
    base_url: str,
    *,
    max_retries: int = 2,
    metrics: Metrics | None = None,
    session: aiohttp.ClientSession | None = None,
    timeout_s: float = 15,
    rate_limits: bool = True,
    retries: bool = True,
) -> AsyncWebClient:
    """An ``AsyncWebClient`` for ``base_url`` on ``session`` (shared; the caller closes it).

    With ``retries``: slack-sdk's handlers for connection errors and 5xx (``max_retries`` each) and, with
    ``rate_limits``, 429 honouring ``Retry-After`` (one more). Without: no retry at all (the outbox's posts).
    """
    handlers: list[AsyncRetryHandler] = []
    if retries:
        handlers += [
            _counted(AsyncConnectionErrorRetryHandler(max_retry_count=max_retries), metrics, "connection"),
            _counted(AsyncServerErrorRetryHandler(max_retry_count=max_retries), metrics, "server_error"),
        ]
        if rate_limits:
            handlers.append(
                _counted(AsyncRateLimitErrorRetryHandler(max_retry_count=max_retries + 1), metrics, "rate_limited")
            )
    return AsyncWebClient(
        token=token, base_url=base_url, timeout=int(max(1, timeout_s)), session=session, retry_handlers=handlers
    )


def _classify(exc: BaseException) -> ChatError:
    """A slack-sdk or transport exception as :class:`RateLimited`, :class:`Refused` or :class:`Unsure`."""
    note_missing_scope(exc)
    if isinstance(exc, SlackApiError):
        response = exc.response
        status = getattr(response, "status_code", 200)
        error = str((response.get("error") if hasattr(response, "get") else None) or f"http_{status}")
        if status == 429:
            headers = getattr(response, "headers", {}) or {}
            raw = next((v for k, v in headers.items() if k.lower() == "retry-after"), "1")
            try:
                retry_after = float(raw[0] if isinstance(raw, list) else raw)
            except (TypeError, ValueError):
                retry_after = 1.0
            if not math.isfinite(retry_after):  # "inf" or "nan" would stop the room for good (or fail the worker)
                retry_after = 1.0
            return RateLimited(min(max(0.0, retry_after), RETRY_AFTER_MAX_S))
        if error in REFUSALS:
            return Refused(error)
        return Unsure(error)
    return Unsure(type(exc).__name__)


_TRANSPORT_ERRORS = (SlackClientError, aiohttp.ClientError, OSError, TimeoutError)


class SlackChat:
    """The chat port over Slack, and the direct calls of the listeners.

    Args:
        client: the interactive client (slack-sdk retries, 429s included); bolt uses the same one.
        sender: the outbox's client for posts (no slack-sdk retries: see the module docstring).
        updater: the outbox's client for idempotent calls (connection and 5xx retries; 429 reported, not slept).
        metrics: counts Slack errors.
    """

    def __init__(
        self,
        client: AsyncWebClient,
        *,
        sender: AsyncWebClient | None = None,
        updater: AsyncWebClient | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.client = client
        self.sender = sender or client
        self.updater = updater or client
        self.metrics = metrics
        self._home: tuple[str | None, str | None] | None = None  # (team_id, enterprise_id) from auth.test, once read

    def _failed(self, method: str, error: str) -> None:
        if self.metrics is not None:
            self.metrics.slack_errors.labels(method, error).inc()

    # -- the chat port (bot.chat.ChatPort) --------------------------------------------------------------
    async def post(
        self, channel: str, text: str, blocks: list[dict[str, Any]], tag: Tag, *, thread_ts: str | None = None
    ) -> tuple[str, str]:
        """``chat.postMessage`` with ``tag`` as message metadata (``thread_ts``: a reply in that thread); returns
        ``(channel, ts)``.

        Raises RateLimited, Refused or Unsure (:mod:`bot.chat`)."""
        try:
            response = await self.sender.chat_postMessage(
                channel=channel, text=text, blocks=blocks, metadata=tag.metadata(), thread_ts=thread_ts
            )
        except _TRANSPORT_ERRORS as exc:
            error = _classify(exc)
            self._failed("chat.postMessage", error.error)
            raise error from None
        return str(response["channel"]), str(response["ts"])

    async def update(self, channel: str, ts: str, text: str, blocks: list[dict[str, Any]]) -> None:
        """``chat.update`` (idempotent). Raises RateLimited, Refused or Unsure."""
        try:
            await self.updater.chat_update(channel=channel, ts=ts, text=text, blocks=blocks)
        except _TRANSPORT_ERRORS as exc:
            error = _classify(exc)
            self._failed("chat.update", error.error)
            raise error from None

    async def find(self, channel: str, tag: Tag, *, since: datetime, thread_ts: str | None = None) -> str | None:
        """FlyBot's message in ``channel`` tagged ``tag`` since ``since`` (``conversations.history`` with
        ``include_all_metadata``, up to :data:`HISTORY_PAGES` pages; with ``thread_ts``, that thread's
        ``conversations.replies``). Raises RateLimited, Refused or Unsure."""
        cursor: str | None = None
        for _ in range(HISTORY_PAGES):
            try:
                if thread_ts is not None:
                    response = await self.updater.conversations_replies(
                        channel=channel, ts=thread_ts, limit=200, include_all_metadata=True, cursor=cursor
                    )
                else:
                    response = await self.updater.conversations_history(
                        channel=channel,
                        oldest=f"{since.timestamp() - 60:.6f}",
                        limit=200,
                        include_all_metadata=True,
                        cursor=cursor,
                    )
            except _TRANSPORT_ERRORS as exc:
                error = _classify(exc)
                self._failed("conversations.history", error.error)
                raise error from None
            for message in response.get("messages") or []:
                metadata = message.get("metadata") or {}
                payload = metadata.get("event_payload") or {}
                if metadata.get("event_type") == tag.event_type and payload.get("key") == tag.key:
                    return str(message["ts"])
            cursor = ((response.get("response_metadata") or {}).get("next_cursor")) or None
            if not cursor:
                return None
        return None

    async def open_dm(self, user: str) -> str:
        """``conversations.open`` with ``user``; its channel id. Raises RateLimited, Refused or Unsure."""
        try:
            opened = await self.updater.conversations_open(users=user)
        except _TRANSPORT_ERRORS as exc:
            error = _classify(exc)
            self._failed("conversations.open", error.error)
            raise error from None
        return str(opened["channel"]["id"])

    async def tell(self, channel: str | None, user: str, text: str) -> None:
        """Ephemeral to ``user`` in ``channel``, or (no channel, or Slack refuses it there) a DM. Raises
        RateLimited, Refused or Unsure."""
        if channel and not channel.startswith("D"):
            try:
                await self.updater.chat_postEphemeral(channel=channel, user=user, text=text)
                return
            except _TRANSPORT_ERRORS as exc:
                error = _classify(exc)
                self._failed("chat.postEphemeral", error.error)
                if not isinstance(error, Refused):
                    raise error from None
        dm = await self.open_dm(user)
        try:
            await self.sender.chat_postMessage(channel=dm, text=text)
        except _TRANSPORT_ERRORS as exc:
            error = _classify(exc)
            self._failed("chat.postMessage", error.error)
            raise error from None

    # -- direct calls of the listeners ------------------------------------------------------------------
    async def _home_team(self) -> tuple[str | None, str | None]:
        """``(team_id, enterprise_id)`` of the workspace (or Enterprise Grid organisation) FlyBot is installed in,
        from ``auth.test`` (read once); ``(None, None)`` while it cannot be read."""
        if self._home is None:
            response = await self.client.auth_test()
            team, enterprise = response.get("team_id"), response.get("enterprise_id")
            self._home = (str(team) if team else None, str(enterprise) if enterprise else None)
        return self._home

    async def is_workspace_admin(self, user: str) -> bool:
        """``users.info``: an admin or owner of the workspace FlyBot is installed in (or of its Enterprise Grid
        organisation). Any error means no (fail closed).

        In a Slack Connect channel a person of another organisation can click too, and ``users.info`` then
        describes them as their own workspace knows them: an admin there is no admin here. So the user's
        ``team_id`` must be FlyBot's (``auth.test``), or their ``enterprise_user.enterprise_id`` FlyBot's
        organisation; a guest (``is_restricted``, ``is_ultra_restricted``) or a stranger (``is_stranger``) never is.
        """
        try:
            response = await self.client.users_info(user=user)
            team, enterprise = await self._home_team()
        except _TRANSPORT_ERRORS as exc:
            note_missing_scope(exc)
            return False
        info = response.get("user") or {}
        if info.get("is_stranger") or info.get("is_restricted") or info.get("is_ultra_restricted"):
            return False
        grid = info.get("enterprise_user") or {}
        home = (team is not None and info.get("team_id") == team) or (
            enterprise is not None and isinstance(grid, dict) and grid.get("enterprise_id") == enterprise
        )
        return home and bool(info.get("is_admin") or info.get("is_owner") or info.get("is_primary_owner"))

    async def usergroup_members(self, group: str, *, retries: bool = True) -> frozenset[str] | None:
        """``usergroups.users.list``: the user ids in Slack user group ``group`` (scope ``usergroups:read``); None
        when Slack says no (an unknown group, a missing scope, rate limited when not ``retries``) or cannot be
        reached: the caller fails closed. ``retries=False`` for a click waiting on the answer (no waiting out
        ``Retry-After`` inside Slack's 3 seconds)."""
        try:
            client = self.client if retries else self.sender
            response = await client.usergroups_users_list(usergroup=group)
        except _TRANSPORT_ERRORS as exc:
            error = _classify(exc)
            self._failed("usergroups.users.list", error.error)
            log.warning("usergroups_users_list.failed", group=group, error=error.error)
            return None
        return frozenset(str(user) for user in response.get("users") or [])

    async def publish_home(self, user: str, view: dict[str, Any]) -> str | None:
        """``views.publish`` the App Home tab (best effort): None when published, else Slack's error code (or
        ``unreachable``), so a listener can tell the person whose click it was."""
        try:
            await self.client.views_publish(user_id=user, view=view)
        except SlackApiError as exc:
            note_missing_scope(exc)
            error = str(exc.response.get("error") or "error") if hasattr(exc.response, "get") else "error"
            log.warning("views_publish.failed", user=user, error=error)
            return error
        except _TRANSPORT_ERRORS as exc:
            log.warning("views_publish.failed", user=user, error=type(exc).__name__)
            return "unreachable"
        return None

    async def dm_channel(self, user: str) -> str | None:
        """The DM channel between FlyBot and ``user`` (``conversations.open``), or None when Slack says no."""
        try:
            opened = await self.client.conversations_open(users=user)
        except _TRANSPORT_ERRORS as exc:
            note_missing_scope(exc)
            return None
        return str(opened["channel"]["id"])

    async def ephemeral(self, channel: str, user: str, text: str) -> bool:
        """Show ``text`` to ``user`` only; True when Slack took it (failures are logged, never raised; a direct
        reply to a click, not an outbox job)."""
        try:
            await self.client.chat_postEphemeral(channel=channel, user=user, text=text)
        except _TRANSPORT_ERRORS as exc:
            note_missing_scope(exc)
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
            note_missing_scope(exc)
            log.warning("direct_message.failed", user=user, error=type(exc).__name__)
            return False
        return True

    async def open_view(self, trigger_id: str, view: dict[str, Any]) -> str | None:
        """Open a modal; returns None when it opened, else Slack's error code (``expired_trigger_id``, or
        ``unreachable`` when Slack could not be reached) so the listener can tell the person who clicked."""
        try:
            await self.client.views_open(trigger_id=trigger_id, view=view)
        except SlackApiError as exc:
            note_missing_scope(exc)
            error = str(exc.response.get("error") or "error") if hasattr(exc.response, "get") else "error"
            log.warning("views_open.failed", error=error)
            return error
        except _TRANSPORT_ERRORS as exc:
            log.warning("views_open.failed", error=type(exc).__name__)
            return "unreachable"
        return None
