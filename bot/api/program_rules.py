"""``/v1/program-rules``: the organisation's program rules (bot/program_rules.py).

``GET`` answers a Bot's token (the adapters grade locally with the rules: bot/hooks/rules_cache.py) or an admin
token; ``PUT`` and ``DELETE`` need an admin token (``flybot admin-tokens add --user USER_ID``; requests act as that
admin), as the standing approvals' admin routes do. Errors are problem+json (bot/api/problems.py).
"""

from __future__ import annotations

import secrets

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from bot.api.body import read_json_object
from bot.api.escalations import STORE
from bot.bots import bearer_token, hash_token
from bot.errors import Unauthorized
from bot.program_rules import ProgramRuleService, RuleSpec
from bot.risk.sensitive import own_state_digests, own_state_paths
from bot.wire import rule_to_api

PROGRAM_RULES = web.AppKey("program_rule_service", ProgramRuleService)
RULES_MAX_AGE_S = 60
"""How long an adapter may grade with the copy it fetched (seconds); older copies are stale (fail closed)."""


class ProgramRuleIn(BaseModel):
    """``PUT /v1/program-rules/{program}[/{subcommand}]`` body: the grade (a risk level's name) and a note."""

    model_config = ConfigDict(extra="forbid")

    grade: str = Field(min_length=1, max_length=20)
    note: str | None = Field(default=None, max_length=500)


class ProgramRuleOut(BaseModel):
    """A program rule as the API returns it."""

    program: str
    subcommand: str | None
    grade: str
    note: str | None
    set_by: str
    set_at: str


class OwnStateOut(BaseModel):
    """The state directory and store file this server's settings name (as written and with links resolved), as
    digests: ``sha256`` holds the SHA-256 (hex) of ``salt``, a NUL and each absolute path (bot/risk/sensitive.py
    ``own_state_digests``). An adapter tells whether a path is FlyBot's own state by hashing it and the
    directories above it, and grades it as the server does (``own_state``); the answer names no path, and never
    the database URL, its password or any token."""

    salt: str
    sha256: list[str]


class ProgramRulesOut(BaseModel):
    """``GET /v1/program-rules``: every rule, how long a copy may be used (``max_age_s``), and where this server
    keeps its state, as digests (``own_state``: :class:`OwnStateOut`)."""

    items: list[ProgramRuleOut]
    max_age_s: int
    own_state: OwnStateOut


#: The salt of this process's ``own_state`` digests: new on every start, so digests from one server say nothing
#: of another's.
_SALT = secrets.token_hex(16)


async def _admin(request: web.Request) -> str:
    token = bearer_token(request.headers.get("Authorization"), "admin token")
    user = await request.app[STORE].admin_by_token_hash(hash_token(token))
    if user is None:
        raise Unauthorized("not an admin token")
    return user


async def list_rules(request: web.Request) -> web.Response:
    """``GET /v1/program-rules`` (a Bot's token or an admin token)."""
    store = request.app[STORE]
    token_hash = hash_token(bearer_token(request.headers.get("Authorization")))
    if await store.bot_by_token_hash(token_hash) is None and await store.admin_by_token_hash(token_hash) is None:
        raise Unauthorized("unknown token")
    items = [rule_to_api(rule) for rule in await request.app[PROGRAM_RULES].list()]
    own = {"salt": _SALT, "sha256": own_state_digests(_SALT, own_state_paths())}
    return web.json_response({"items": items, "max_age_s": RULES_MAX_AGE_S, "own_state": own})


async def put_rule(request: web.Request) -> web.Response:
    """``PUT /v1/program-rules/{program}[/{subcommand}]`` -> 200 with the rule (replacing one on the same words)."""
    actor = await _admin(request)
    data = ProgramRuleIn.model_validate(await read_json_object(request))
    rule = await request.app[PROGRAM_RULES].set(
        actor,
        RuleSpec(
            program=request.match_info["program"],
            subcommand=request.match_info.get("subcommand"),
            grade=data.grade,
            note=data.note,
        ),
        operator=True,
    )
    return web.json_response(rule_to_api(rule))


async def delete_rule(request: web.Request) -> web.Response:
    """``DELETE /v1/program-rules/{program}[/{subcommand}]`` -> 200 with the removed rule (404 when none)."""
    actor = await _admin(request)
    rule = await request.app[PROGRAM_RULES].remove(
        actor, request.match_info["program"], request.match_info.get("subcommand"), operator=True
    )
    return web.json_response(rule_to_api(rule))


def add_routes(app: web.Application) -> None:
    """Register the routes."""
    app.router.add_get("/v1/program-rules", list_rules)
    for path in ("/v1/program-rules/{program}", "/v1/program-rules/{program}/{subcommand}"):
        app.router.add_put(path, put_rule)
        app.router.add_delete(path, delete_rule)
