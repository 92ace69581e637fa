"""Builds the slack-bolt ``AsyncApp`` and the aiohttp handler for ``POST /slack/events``.

Request signatures (HMAC-SHA256 over ``v0:timestamp:body``; timestamps older than 5 minutes refused) are
checked by bolt's built-in ``RequestVerification`` middleware, the same in local and Slack modes.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import structlog
from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from slack_sdk.web.async_client import AsyncWebClient

from bot.slack import actions, commands, home, reports, standing
from bot.slack.deps import SlackDeps

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
"""An aiohttp request handler."""


log = structlog.get_logger("flybot.slack")


def build_bolt_app(client: AsyncWebClient, signing_secret: str | None, deps: SlackDeps) -> AsyncApp:
    """The bolt app with every listener group registered.

    ``signing_secret`` None disables request verification: only for Socket Mode, where Slack's
    authenticated WebSocket replaces signed HTTP requests.
    """
    app = AsyncApp(
        client=client,
        signing_secret=signing_secret,
        request_verification_enabled=signing_secret is not None,
        logger=logging.getLogger("flybot.bolt"),
        name="flybot",
    )

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
    reports.register(app, deps)
    home.register(app, deps)
    return app


def events_handler(bolt_app: AsyncApp) -> Handler:
    """The aiohttp handler for ``POST /slack/events`` (events, interactivity and slash commands)."""

    async def handle(request: web.Request) -> web.StreamResponse:
        bolt_response = await bolt_app.async_dispatch(await to_bolt_request(request))
        return await to_aiohttp_response(bolt_response)

    return handle
