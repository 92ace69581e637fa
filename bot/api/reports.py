"""``/v1/reports``: a Bot reports that its host has no usable sandbox backend, then long-polls the owner's answer.

Bearer token of the Bot. Errors are problem+json (``bot/api/problems.py``); a malformed report is a 422 whose
``errors[].field`` names the bad field (``line``, ``preflight.status``, ``host``, ``session_id``, ``mode``, ...).
"""

from __future__ import annotations

from typing import Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationInfo, field_validator

from bot.api.body import path_id, read_json_object, single_line
from bot.api.escalations import STORE
from bot.bots import authenticate
from bot.errors import InvalidRequest
from bot.reports import (
    MAX_LINE_CHARS,
    MAX_UNLOCK_OPTIONS,
    ReportService,
    build_report,
    facts_from_preflight,
    parse_report_line,
)
from bot.wire import report_to_api

REPORTS = web.AppKey("report_service", ReportService)
MAX_WAIT_S = 60
_WORD = r"^[^\s|=]{1,200}$"


class BackendIn(BaseModel):
    """One probe of the preflight's ``--json`` (``{name, available, detail, cause?, error?, abi?}``)."""

    name: str = Field(min_length=1, max_length=40)
    available: StrictBool | None
    detail: str = Field(default="", max_length=2000)
    cause: str | None = Field(default=None, pattern=r"^[a-z0-9-]{1,40}$")
    error: str = Field(default="", max_length=2000)
    abi: StrictInt | None = Field(default=None, ge=0, le=1000)


class UnlockIn(BaseModel):
    """One unlock option of the preflight's ``--json`` (``{id, text, command?}``)."""

    id: str = Field(min_length=1, max_length=40)
    text: str = Field(min_length=1, max_length=300)
    command: str | None = Field(default=None, min_length=1, max_length=500)


class PreflightIn(BaseModel):
    """The preflight's ``--json`` document (``PreflightReport.to_json_dict()``); unknown keys are ignored."""

    model_config = ConfigDict(extra="ignore")

    mode: Literal["read-only", "workspace-write", "danger-full-access"] | None
    platform: str = Field(min_length=1, max_length=40)
    status: Literal["usable", "blocked", "unknown"]
    usable: StrictBool | None = None
    unknown: StrictBool | None = None
    os: str | None = Field(default=None, max_length=40)
    os_family: str | None = Field(default=None, max_length=40)
    backends: list[BackendIn] = Field(max_length=10)
    unlock: list[UnlockIn] = Field(default_factory=list, max_length=MAX_UNLOCK_OPTIONS)


class ReportIn(BaseModel):
    """``POST /v1/reports`` body: exactly one of ``line`` or ``preflight``, plus where it happened.

    ``host``, ``session_id`` and ``mode`` may instead come from the line (``host=``, ``session=``, ``mode=``, or the
    preflight line's mode); where both give one they must agree. Unknown keys are refused.
    """

    model_config = ConfigDict(extra="forbid")

    line: str | None = Field(default=None, min_length=1, max_length=MAX_LINE_CHARS)
    preflight: PreflightIn | None = None
    host: str | None = Field(default=None, pattern=_WORD)
    session_id: str | None = Field(default=None, pattern=_WORD)
    mode: Literal["read-only", "workspace-write"] | None = None

    @field_validator("host", "session_id")
    @classmethod
    def _one_line(cls, value: str | None, info: ValidationInfo) -> str | None:
        return None if value is None else single_line(value, str(info.field_name))


async def create(request: web.Request) -> web.Response:
    """``POST /v1/reports`` -> 201 with a new report (the owners get a DM), or 200 with the open report it folded into.

    Errors: 401 bad token; 422 a malformed report, naming the field (nothing is recorded or sent).
    """
    bot = await authenticate(request.app[STORE], request.headers.get("Authorization"))
    data = ReportIn.model_validate(await read_json_object(request))
    if (data.line is None) == (data.preflight is None):
        raise InvalidRequest(
            "give exactly one of 'line' (the one-line report) or 'preflight' (its --json)", field="line"
        )
    if data.line is not None:
        facts = parse_report_line(data.line)
    else:
        assert data.preflight is not None
        facts = facts_from_preflight(data.preflight.model_dump())
    blocked = build_report(bot, facts, host=data.host, session_id=data.session_id, mode=data.mode, source="api")
    report, created = await request.app[REPORTS].report(bot, blocked)
    return web.json_response({**report_to_api(report), "bot": bot.name}, status=201 if created else 200)


class UsableIn(BaseModel):
    """``POST /v1/reports/usable`` body: the host whose preflight is now usable, and that preflight's ``--json``."""

    model_config = ConfigDict(extra="forbid")

    host: str = Field(pattern=_WORD)
    preflight: PreflightIn

    @field_validator("host")
    @classmethod
    def _one_line(cls, value: str, info: ValidationInfo) -> str:
        return single_line(value, str(info.field_name))


async def usable(request: web.Request) -> web.Response:
    """``POST /v1/reports/usable`` -> 200 ``{"resolved": <report> | null}``: a usable preflight from ``host``
    closes the Bot's open report for that host by itself.

    Errors: 401 bad token; 422 the preflight is not ``usable`` (field ``preflight.status``) or a malformed body.
    """
    bot = await authenticate(request.app[STORE], request.headers.get("Authorization"))
    data = UsableIn.model_validate(await read_json_object(request))
    if data.preflight.status != "usable":
        raise InvalidRequest(
            f"the preflight says {data.preflight.status!r}: only a usable one resolves a report",
            field="preflight.status",
        )
    resolved = await request.app[REPORTS].host_usable(bot, data.host)
    return web.json_response({"resolved": report_to_api(resolved) if resolved else None})


async def get(request: web.Request) -> web.Response:
    """``GET /v1/reports/{id}?wait=SECONDS`` (0..60): at once when decided, else when the wait ends (still ``open``)."""
    bot = await authenticate(request.app[STORE], request.headers.get("Authorization"))
    raw = request.query.get("wait", "0")
    try:
        wait = float(raw)
    except ValueError:
        raise InvalidRequest("wait must be a number of seconds from 0 to 60", field="wait") from None
    if not 0 <= wait <= MAX_WAIT_S:
        raise InvalidRequest("wait must be a number of seconds from 0 to 60", field="wait")
    report = await request.app[REPORTS].wait(bot, path_id(request, "report"), wait)
    return web.json_response(report_to_api(report))


async def _release_waiters(app: web.Application) -> None:
    """``on_shutdown`` (before aiohttp waits for open handlers): long-polls answer 503 ``shutting_down`` at once."""
    service = app.get(REPORTS)
    if service is not None:
        service.shutdown()


def add_routes(app: web.Application) -> None:
    """Register the report routes, and the shutdown hook that releases their long-polls."""
    app.router.add_post("/v1/reports", create)
    app.router.add_post("/v1/reports/usable", usable)
    app.router.add_get("/v1/reports/{id}", get)
    app.on_shutdown.append(_release_waiters)
