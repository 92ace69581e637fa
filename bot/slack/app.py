"""Builds the slack-bolt ``AsyncApp`` and the aiohttp handler for ``POST /slack/events``.

Request signatures (HMAC-SHA256 over ``v0:timestamp:body``; timestamps older than 5 minutes refused) are
checked by bolt's built-in ``RequestVerification`` middleware, the same in local and Slack modes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import structlog
from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from slack_sdk.signature import SignatureVerifier
from slack_sdk.web.async_client import AsyncWebClient

from bot.slack import actions, commands, home, payloads, reports, standing, teach
from bot.slack.actions import SEEN_ESCALATION
from bot.slack.deps import SlackDeps
from bot.storable import has_nul
from cards import (
    APPROVE_ACTION,
    DENY_ACTION,
    REPORT_APPROVE_BOT_ACTION,
    REPORT_APPROVE_TURN_ACTION,
    REPORT_RESOLVE_ACTION,
    REVIEW_APPROVE_ACTION,
    STANDING_BOT_ACTION,
    STANDING_ROOM_ACTION,
    STANDING_SESSION_ACTION,
)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
"""An aiohttp request handler."""


log = structlog.get_logger("flybot.slack")

SIGNATURE_KEY_PREFIX = "sig:"
"""Signed requests already taken are remembered in the store's Slack event table under ``sig:<hex signature>``
(64 hex characters), beside Events API ``event_id``s (which never start so)."""


def build_bolt_app(client: AsyncWebClient, signing_secret: str | None, deps: SlackDeps) -> AsyncApp:
    """The bolt app with every listener group registered.

    ``signing_secret`` None disables request verification: only for Socket Mode, where Slack's
    authenticated WebSocket replaces signed HTTP requests.
    """
    signature_enabled = signing_secret is not None
    app = AsyncApp(
        client=client,
        signing_secret=signing_secret,
        request_verification_enabled=signing_secret is not None,
        logger=logging.getLogger("flybot.bolt"),
        name="flybot",
    )

    @app.middleware
    async def refuse_nul(
        req: AsyncBoltRequest, resp: BoltResponse, next: Callable[[], Awaitable[BoltResponse]]
    ) -> BoltResponse:
        # PostgreSQL text cannot hold U+0000, and no store an unpaired surrogate (a JSON payload can carry
        # "\ud800"): refuse such input at the edge, before anything is stored (storing it would fail the decision).
        if has_nul(req.body, surrogates=True):
            log.info("slack.nul_refused")
            return BoltResponse(
                status=200,
                body="FlyBot does not accept text with NUL characters or unpaired surrogates; nothing was changed.",
            )
        return await next()

    @app.middleware
    async def refuse_replays(
        req: AsyncBoltRequest, resp: BoltResponse, next: Callable[[], Awaitable[BoltResponse]]
    ) -> BoltResponse:
        # The same signed bytes re-posted within Slack's 5-minute window (e.g. a revoked
        # `/flybot standing add`) are processed at most once. Bolt has verified the signature by now; two distinct
        # requests never share one (it is an HMAC over timestamp and body), so the signature names the request.
        # Remembered in the store, so a replay to another replica is refused too (pruned after a day).
        signature = req.headers.get("x-slack-signature")
        if not signature_enabled or not signature:
            return await next()
        key = SIGNATURE_KEY_PREFIX + signature[0].removeprefix("v0=")[:64]
        if isinstance(req.body, dict) and req.body.get("command"):
            # A slash command is claimed by its listener, as the first step of the work its acknowledgement waits
            # for at most ANSWER_BUDGET_S (bot.slack.commands.answer): a slow store never holds up the answer.
            req.context[commands.REPLAY_KEY] = key
            return await next()
        if not await deps.store.claim_event(key, at=datetime.now(UTC)):
            log.warning("slack.replay_refused")
            return BoltResponse(status=200, body="")
        return await next()

    @app.middleware
    async def refuse_clicks_off_the_card(
        req: AsyncBoltRequest, resp: BoltResponse, next: Callable[[], Awaitable[BoltResponse]]
    ) -> BoltResponse:
        # A card's buttons act only on that card: a click from any other message (a copy of the card in a restored
        # local chat history, forged to show another command) is refused, so the owner approves what they saw.
        refusal = await _off_its_card(deps, req.body if isinstance(req.body, dict) else {}, req.context)
        if refusal is not None:
            user, channel = refusal
            log.warning("slack.click_off_card", user=user, channel=channel)
            await deps.chat.ephemeral(channel, user, OFF_CARD_TEXT)
            return BoltResponse(status=200, body="")
        return await next()

    @app.middleware
    async def skip_redeliveries(
        req: AsyncBoltRequest, resp: BoltResponse, next: Callable[[], Awaitable[BoltResponse]]
    ) -> BoltResponse:
        # Events API redeliveries (X-Slack-Retry-Num) carry the same event_id: take each event once, on any replica.
        body = req.body if isinstance(req.body, dict) else {}
        event_id = body.get("event_id") if body.get("type") == "event_callback" else None
        if event_id and not await deps.store.claim_event(str(event_id), at=datetime.now(UTC)):
            log.info("slack.redelivery_skipped", event_id=event_id, retry=req.headers.get("x-slack-retry-num"))
            return BoltResponse(status=200, body="")
        return await next()

    actions.register(app, deps)
    commands.register(app, deps)
    standing.register(app, deps)
    teach.register(app, deps)
    reports.register(app, deps)
    home.register(app, deps)
    return app


OFF_CARD_TEXT = (
    "This button is not on the request's card, so nothing was decided. Use the card FlyBot posted for it (or App Home)."
)
_CARD_ACTIONS = frozenset(
    {
        APPROVE_ACTION,
        REVIEW_APPROVE_ACTION,
        DENY_ACTION,
        STANDING_SESSION_ACTION,
        STANDING_BOT_ACTION,
        STANDING_ROOM_ACTION,
    }
)
_REPORT_ACTIONS = frozenset({REPORT_APPROVE_TURN_ACTION, REPORT_APPROVE_BOT_ACTION, REPORT_RESOLVE_ACTION})


async def _off_its_card(deps: SlackDeps, body: dict[str, Any], context: dict[str, Any]) -> tuple[str, str] | None:
    """``(user, channel)`` when ``body`` is a click on a card button from a message that is not that escalation's
    card (its posted channel and ts) nor one of the copies FlyBot posted of it (``card_copies``), or on a report
    DM's button from a message that is not one of that report's DMs; else None. App Home clicks (a view) and cards
    or DMs not posted yet pass. The escalation read for a card's button is kept in ``context`` for the listener
    (:func:`bot.slack.actions.seen_escalation`)."""
    container = body.get("container") or {}
    actions_ = body.get("actions") or [{}]
    if body.get("type") != "block_actions" or container.get("type") != "message" or not isinstance(actions_, list):
        return None
    action = actions_[0] if actions_ and isinstance(actions_[0], dict) else {}
    where = (str(container.get("channel_id") or ""), str(container.get("message_ts") or ""))
    if action.get("action_id") not in _CARD_ACTIONS | _REPORT_ACTIONS or not where[1]:
        return None  # Slack always names the message; a payload that does not cannot be compared
    value = str(action.get("value") or "")
    if action.get("action_id") in _REPORT_ACTIONS:  # a report DM's buttons: one of the DMs FlyBot sent for it
        report = await deps.store.get_report(value)
        if report is None or not report.dms or where in report.dms:
            return None
        return str((body.get("user") or {}).get("id") or ""), where[0]
    escalation = await deps.store.get_escalation(value)
    if escalation is not None:
        context[SEEN_ESCALATION] = escalation
    if escalation is None or not escalation.card_ts or where == (escalation.card_channel or "", escalation.card_ts):
        return None
    if where in await deps.store.card_copies(escalation.id):
        return None  # a copy FlyBot itself posted and recorded: a fallback approver's DM
    return str((body.get("user") or {}).get("id") or ""), where[0]


def _signed(verifier: SignatureVerifier, body: str, request: web.Request) -> bool:
    """Slack's v0 signature over ``body`` with a timestamp within 5 minutes; any malformed header means no."""
    timestamp = request.headers.get("X-Slack-Request-Timestamp")
    signature = request.headers.get("X-Slack-Signature")
    if not timestamp or not signature or not (timestamp.isascii() and timestamp.isdigit()) or len(timestamp) > 12:
        return False  # Unix seconds: ten digits until the year 2286; a longer number overflows slack_sdk's float
    try:
        return bool(verifier.is_valid(body=body, timestamp=timestamp, signature=signature))
    except (ValueError, TypeError, OverflowError):
        return False


def events_handler(bolt_app: AsyncApp, signing_secret: str | None = None) -> Handler:
    """The aiohttp handler for ``POST /slack/events`` (events, interactivity and slash commands).

    With a ``signing_secret`` the signature is checked here first (401 before any parsing), then again by bolt;
    an interaction or slash command whose fields are not of Slack's shapes (:mod:`bot.slack.payloads`: no ``user``,
    a field of another type) and a body bolt cannot parse are a 400 that changes nothing, never a 500.
    """
    verifier = SignatureVerifier(signing_secret) if signing_secret else None

    async def handle(request: web.Request) -> web.StreamResponse:
        received = time.monotonic()  # Slack's 3 s for an acknowledgement count from here (bot.slack.commands.answer)
        try:  # Slack's bodies are UTF-8; a bogus charset or undecodable bytes are a 400, not a 500
            body = (await request.read()).decode("utf-8")
        except UnicodeDecodeError:
            return web.Response(status=400, text="the body must be UTF-8")
        if verifier is not None and not _signed(verifier, body, request):
            return web.Response(status=401, text="invalid signature")
        why = payloads.malformed(body, request.headers.get("Content-Type", ""))
        if why is not None:
            log.info("slack.malformed_payload", path=request.path, why=why)
            return web.Response(status=400, text=f"malformed Slack payload ({why}); nothing was changed")
        try:
            bolt_request = await to_bolt_request(request)
            bolt_request.context[commands.RECEIVED_KEY] = received
            bolt_response = await bolt_app.async_dispatch(bolt_request)
        except Exception:  # noqa: BLE001 - a malformed (but signed) body: refuse it, reveal nothing
            log.warning("slack.unparseable_request", path=request.path)
            return web.Response(status=400, text="unparseable request")
        return await to_aiohttp_response(bolt_response)

    return handle
