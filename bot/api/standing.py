"""``/v1/standing-approvals`` for admins (admin token): list, create, revoke.

Admin tokens are made by operators with ``flybot admin-tokens add --user USER_ID``; requests act as that admin.
Bodies are validated like the slash command (same :class:`~bot.standing.StandingService` rules).
"""

from __future__ import annotations

from typing import Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from bot.api.body import path_id, read_json_object, single_line
from bot.api.escalations import STORE
from bot.bots import bearer_token, hash_token
from bot.errors import InvalidRequest, NotFound, Unauthorized
from bot.standing import StandingService, StandingSpec
from bot.wire import approval_to_api

STANDING = web.AppKey("standing_service", StandingService)


class StandingIn(BaseModel):
    """``POST /v1/standing-approvals`` body: ``bot`` (name or id) for a Bot scope, ``room`` (channel id) for a room."""

    model_config = ConfigDict(extra="forbid")

    scope: Literal["bot", "room"]
    bot: str | None = Field(default=None, max_length=80)
    room: str | None = Field(default=None, max_length=40)
    pattern: str = Field(min_length=1, max_length=200)
    max_risk: str | None = None
    host_ok: StrictBool = False
    expires: str | None = Field(default=None, max_length=10)
    note: str | None = Field(default=None, max_length=500)


async def _admin(request: web.Request) -> str:
    token = bearer_token(request.headers.get("Authorization"), "admin token")
    user = await request.app[STORE].admin_by_token_hash(hash_token(token))
    if user is None:
        raise Unauthorized("not an admin token")
    return user


async def list_approvals(request: web.Request) -> web.Response:
    """``GET /v1/standing-approvals[?scope=&subject=&all=1]``: live ones unless ``all=1``."""
    await _admin(request)
    service = request.app[STANDING]
    live_at = None if request.query.get("all") == "1" else service.clock()
    scope, subject = request.query.get("scope"), request.query.get("subject")
    for name, value in (("scope", scope), ("subject", subject)):
        if value is not None:
            try:
                single_line(value, name)
            except ValueError as exc:
                raise InvalidRequest(str(exc), field=name) from None
    items = await request.app[STORE].list_standing(scope=scope, subject=subject, live_at=live_at)
    return web.json_response({"items": [approval_to_api(a) for a in items]})


async def create(request: web.Request) -> web.Response:
    """``POST /v1/standing-approvals`` -> 201 with the approval."""
    actor = await _admin(request)
    data = StandingIn.model_validate(await read_json_object(request))
    if data.scope == "bot":
        if not data.bot:
            raise InvalidRequest("a Bot-wide approval needs 'bot' (name or id)", field="bot")
        store = request.app[STORE]
        bot = await store.bot_by_name(data.bot) or await store.get_bot(data.bot)
        if bot is None:
            raise NotFound(f"no Bot {data.bot}")
        subject = bot.id
    else:
        if not data.room:
            raise InvalidRequest("a room-wide approval needs 'room' (channel id)", field="room")
        subject = data.room
    approval = await request.app[STANDING].create(
        actor,
        StandingSpec(
            scope=data.scope,
            subject=subject,
            pattern=data.pattern,
            max_risk=data.max_risk,
            contained_only=not data.host_ok,
            expires=data.expires,
            note=data.note,
        ),
        operator=True,
    )
    return web.json_response(approval_to_api(approval), status=201)


async def revoke(request: web.Request) -> web.Response:
    """``DELETE /v1/standing-approvals/{id}`` -> 200 with the revoked approval (409 if already revoked)."""
    actor = await _admin(request)
    approval = await request.app[STANDING].revoke(actor, path_id(request, "standing approval"), operator=True)
    return web.json_response(approval_to_api(approval))


def add_routes(app: web.Application) -> None:
    """Register the admin routes."""
    app.router.add_get("/v1/standing-approvals", list_approvals)
    app.router.add_post("/v1/standing-approvals", create)
    app.router.add_delete("/v1/standing-approvals/{id}", revoke)
