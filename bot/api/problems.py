"""RFC 9457 problem details at the HTTP edge: every error, including bad input, becomes ``application/problem+json``.

Shape: ``{type, title, status, detail, code, errors?}``; ``code`` is stable; ``errors`` lists
``{field, message}`` for validation failures. Unexpected exceptions are logged and answered with a
generic 500 problem that reveals nothing (no stack trace leaves the process).
"""

from __future__ import annotations

import json
from typing import Any

import structlog
from aiohttp import web
from pydantic import ValidationError

from bot.errors import Busy, FlyBotError
from bot.refusals import REFUSALS
from bot.store import STORE_BUSY

log = structlog.get_logger("flybot.api")

PROBLEM_TYPE = "application/problem+json"


def problem(status: int, code: str, title: str, detail: str, **extra: Any) -> web.Response:
    """A problem+json response."""
    body = {
        "type": f"https://flybot.dev/problems/{code}",
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
    }
    body.update(extra)
    return web.Response(status=status, text=json.dumps(body), content_type=PROBLEM_TYPE)


def _message(err: Any) -> str:
    """pydantic's message for one error, without its "Value error, " prefix (the field is named separately)."""
    message = str(err.get("msg", "invalid"))
    return message.removeprefix("Value error, ")


def validation_problem(exc: ValidationError) -> web.Response:
    """422 naming every bad field (dotted path) with pydantic's message."""
    errors = [
        {"field": ".".join(str(p) for p in err.get("loc", ())) or "body", "message": _message(err)}
        for err in exc.errors()
    ]
    first = errors[0] if errors else {"field": "body", "message": "invalid"}
    return problem(422, "invalid_request", "Invalid request", f"{first['field']}: {first['message']}", errors=errors)


def error_problem(exc: FlyBotError) -> web.Response:
    """The problem+json answer of a :class:`FlyBotError`, with ``Retry-After`` when a retry may succeed.

    A 503 also closes the connection, so a replica at capacity gives its file descriptor back at once.
    """
    extra = {"errors": [{"field": exc.field, "message": exc.detail}]} if exc.field else {}
    response = problem(exc.status, exc.code, exc.title, exc.detail, **extra)
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    if exc.status == 503:
        response.force_close()
    return response


_REFUSALS = frozenset({401, 403, 429, 503})
"""Statuses logged as refusals, per client address (:mod:`bot.refusals`: the first of a kind a minute)."""
_LOGGED_BY_SERVICE = frozenset({"rate_limited", "room_busy"})
"""Refusals the escalation service logs itself, per Bot (``escalation.refused``)."""


@web.middleware
async def problems_middleware(request: web.Request, handler: Any) -> web.StreamResponse:
    """Turn FlyBotError, pydantic errors, aiohttp HTTP errors and anything unexpected into problem+json.

    Only for the session API (``/v1/``); other routes (Slack, the page) keep their own formats.
    """
    if not request.path.startswith("/v1/"):
        passed: web.StreamResponse = await handler(request)
        return passed
    try:
        response: web.StreamResponse = await handler(request)
        return response
    except FlyBotError as exc:
        if exc.status in _REFUSALS and exc.code not in _LOGGED_BY_SERVICE:
            REFUSALS.refused(
                "api.refused",
                why=exc.code,
                who=request.remote or "unknown",
                status=exc.status,
                method=request.method,
                path=request.path,
            )
        return error_problem(exc)
    except STORE_BUSY:
        log.warning("api.store_busy", path=request.path)
        return error_problem(Busy("FlyBot's database connections are all busy: retry in a moment"))
    except ValidationError as exc:
        return validation_problem(exc)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(exc.status, "http_error")
        answer = problem(exc.status, code, exc.reason, exc.text or exc.reason)
        if "Allow" in exc.headers:  # RFC 9110 §15.5.6: a 405 names the methods the resource allows
            answer.headers["Allow"] = exc.headers["Allow"]
        return answer
    except Exception:  # noqa: BLE001 - the edge: log it, reveal nothing
        log.exception("api.unhandled", path=request.path)
        return problem(500, "internal_error", "Internal error", "FlyBot failed to handle this request; it was logged.")
