"""``GET /v1/openapi.json``: the OpenAPI 3.1 document of every route FlyBot serves (local mode's chat page and its
emulated Slack aside): the session API (escalations, blocked-host reports), the admin API (standing approvals,
audit), Slack's request URL, the probes and the metrics. Request bodies come from the handlers' pydantic models;
a test compares the paths and methods with the app's router."""

from __future__ import annotations

from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from bot import __version__
from bot.api.escalations import IDEMPOTENCY_KEY_MAX
from bot.api.models import EscalationIn, EscalationOut, Problem
from bot.api.program_rules import ProgramRuleIn, ProgramRuleOut, ProgramRulesOut
from bot.api.reports import MAX_WAIT_S, ReportIn, UsableIn
from bot.api.standing import StandingIn
from bot.audit import MAX_PAGE

_PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
_BOT: list[dict[str, list[str]]] = [{"bot": []}]
_ADMIN: list[dict[str, list[str]]] = [{"admin": []}]
_OPEN: list[dict[str, list[str]]] = []
SLACK_EVENTS = "/slack/events"
"""Served in Slack HTTP mode only (a signing secret is set); Socket Mode takes Slack's traffic over its WebSocket."""


def _errors(*codes: int) -> dict[str, Any]:
    return {str(code): {"description": "problem", "content": _PROBLEM} for code in codes}


def _json(ref: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": {"$ref": ref}}}}


def _body(model: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{model}"}}}}


_NULLABLE_TIME = {"type": ["string", "null"], "format": "date-time"}

_STANDING_OUT = {
    "type": "object",
    "description": "A standing approval.",
    "required": ["id", "scope", "subject", "pattern", "max_risk", "contained_only", "created_by", "created_at"],
    "properties": {
        "id": {"type": "string"},
        "scope": {"type": "string", "enum": ["bot", "room", "session"]},
        "subject": {"type": "string"},
        "bot_id": {"type": ["string", "null"]},
        "pattern": {"type": "string"},
        "max_risk": {"type": "string"},
        "contained_only": {"type": "boolean"},
        "expires_at": _NULLABLE_TIME,
        "created_by": {"type": "string"},
        "created_at": {"type": "string", "format": "date-time"},
        "note": {"type": ["string", "null"]},
        "use_count": {"type": "integer"},
        "last_used_at": _NULLABLE_TIME,
        "revoked_at": _NULLABLE_TIME,
        "revoked_by": {"type": ["string", "null"]},
    },
}

_REPORT_OUT = {
    "type": "object",
    "description": "A blocked-host report and the owners' answer.",
    "required": ["id", "status", "bot_id", "host"],
    "properties": {
        "id": {"type": "string"},
        "status": {"type": "string"},
        "bot_id": {"type": "string"},
        "host": {"type": "string"},
        "session_id": {"type": ["string", "null"]},
        "mode": {"type": ["string", "null"]},
        "missing": {"type": "array", "items": {"type": "string"}},
        "unlock": {"type": "array", "items": {"type": "object"}},
        "count": {"type": "integer"},
        "first_seen": {"type": "string", "format": "date-time"},
        "last_seen": {"type": "string", "format": "date-time"},
        "decided_by": {"type": ["string", "null"]},
        "decided_at": _NULLABLE_TIME,
        "decision_source": {"type": ["string", "null"]},
        "standing_approval_id": {"type": ["string", "null"]},
        "source": {"type": "string"},
        "delivered": {"type": "integer"},
        "findings": {"type": "array", "items": {"type": "object"}},
        "host_os": {"type": ["string", "null"]},
        "grant_on_host": {"type": ["boolean", "null"]},
        "bot": {"type": "string", "description": "POST only"},
    },
}

_AUDIT_ROW = {
    "type": "object",
    "description": "One audit row. A decision's detail says what was decided: command, risk, contained, reason (a "
    "Deny's), via (api, button, modal, standing_approval, timeout); who is the actor. Secrets in any "
    "string are shown as [redacted].",
    "required": ["id", "at", "event", "escalation_id", "actor", "detail"],
    "properties": {
        "id": {"type": "integer"},
        "at": {"type": "string", "format": "date-time"},
        "event": {"type": "string"},
        "escalation_id": {"type": ["string", "null"]},
        "actor": {"type": ["string", "null"]},
        "detail": {"type": "object"},
    },
}

_WHEN = "a duration ago (30m, 24h, 7d, 2w) or an RFC 3339 time with its offset (2026-12-01T09:00:00Z)"


def build_openapi(*, slack_events: bool = True) -> dict[str, Any]:
    """The OpenAPI document (a JSON-ready dict); ``slack_events``: the app serves :data:`SLACK_EVENTS` (HTTP mode)."""
    models: list[tuple[type[BaseModel], Literal["validation", "serialization"]]] = [
        (EscalationIn, "validation"),
        (EscalationOut, "serialization"),
        (Problem, "serialization"),
        (StandingIn, "validation"),
        (ReportIn, "validation"),
        (UsableIn, "validation"),
        (ProgramRuleIn, "validation"),
        (ProgramRuleOut, "serialization"),
        (ProgramRulesOut, "serialization"),
    ]
    _, schema = models_json_schema(models, ref_template="#/components/schemas/{model}")
    schemas = {
        **schema.get("$defs", {}),
        "StandingApprovalOut": _STANDING_OUT,
        "ReportOut": _REPORT_OUT,
        "AuditRow": _AUDIT_ROW,
    }
    escalation = _json("#/components/schemas/EscalationOut", "the escalation")
    standing = _json("#/components/schemas/StandingApprovalOut", "the standing approval")
    report = _json("#/components/schemas/ReportOut", "the report")
    ident = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
    paths: dict[str, Any] = {
        "/v1/escalations": {
            "post": {
                "summary": "Ask to run one call with danger-full-access",
                "security": _BOT,
                "parameters": [
                    {
                        "name": "Idempotency-Key",
                        "in": "header",
                        "schema": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": IDEMPOTENCY_KEY_MAX,
                            "pattern": "^[\\x20-\\x7e]+$",
                        },
                        "description": "printable ASCII; the same key answers the same escalation",
                    }
                ],
                "requestBody": _body("EscalationIn"),
                "responses": {"201": escalation, **_errors(401, 403, 409, 413, 415, 422, 429)},
            }
        },
        "/v1/escalations/{id}": {
            "get": {
                "summary": "Read or long-poll an escalation",
                "security": _BOT,
                "parameters": [
                    ident,
                    {
                        "name": "wait",
                        "in": "query",
                        "description": "long-poll up to this many seconds",
                        "schema": {"type": "number", "minimum": 0, "maximum": 60},
                    },
                ],
                "responses": {"200": escalation, **_errors(401, 404, 422, 503)},
            }
        },
        "/v1/escalations/{id}/withdraw": {
            "post": {
                "summary": "The session no longer needs it",
                "security": _BOT,
                "parameters": [ident],
                "responses": {"200": escalation, **_errors(401, 404, 409)},
            }
        },
        "/v1/reports": {
            "post": {
                "summary": "Report that the Bot's host has no usable sandbox backend (the owners get a DM)",
                "security": _BOT,
                "requestBody": _body("ReportIn"),
                "responses": {
                    "201": report,
                    "200": {**report, "description": "the open report it folded into"},
                    **_errors(401, 413, 415, 422),
                },
            }
        },
        "/v1/reports/usable": {
            "post": {
                "summary": "A usable preflight from the host closes its open report",
                "security": _BOT,
                "requestBody": _body("UsableIn"),
                "responses": {
                    "200": {
                        "description": "the report it resolved, or null",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["resolved"],
                                    "properties": {
                                        "resolved": {
                                            "anyOf": [{"$ref": "#/components/schemas/ReportOut"}, {"type": "null"}]
                                        }
                                    },
                                }
                            }
                        },
                    },
                    **_errors(401, 413, 415, 422),
                },
            }
        },
        "/v1/reports/{id}": {
            "get": {
                "summary": "Read or long-poll a report",
                "security": _BOT,
                "parameters": [
                    ident,
                    {
                        "name": "wait",
                        "in": "query",
                        "description": "long-poll up to this many seconds",
                        "schema": {"type": "number", "minimum": 0, "maximum": MAX_WAIT_S},
                    },
                ],
                "responses": {"200": report, **_errors(401, 404, 422, 503)},
            }
        },
        "/v1/standing-approvals": {
            "get": {
                "summary": "List standing approvals (live ones unless all=1)",
                "security": _ADMIN,
                "parameters": [
                    {"name": "all", "in": "query", "schema": {"type": "string", "enum": ["1"]}},
                    {"name": "scope", "in": "query", "schema": {"type": "string"}},
                    {"name": "subject", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "the standing approvals",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["items"],
                                    "properties": {
                                        "items": {
                                            "type": "array",
                                            "items": {"$ref": "#/components/schemas/StandingApprovalOut"},
                                        }
                                    },
                                }
                            }
                        },
                    },
                    **_errors(401, 422),
                },
            },
            "post": {
                "summary": "Create a Bot-wide or room-wide standing approval",
                "security": _ADMIN,
                "requestBody": _body("StandingIn"),
                "responses": {"201": standing, **_errors(401, 403, 404, 413, 415, 422)},
            },
        },
        "/v1/standing-approvals/{id}": {
            "delete": {
                "summary": "Revoke a standing approval",
                "security": _ADMIN,
                "parameters": [ident],
                "responses": {"200": standing, **_errors(401, 403, 404, 409)},
            }
        },
        "/v1/audit": {
            "get": {
                "summary": "The audit trail, oldest first: a page of JSON, or all of it as JSON Lines",
                "security": _ADMIN,
                "parameters": [
                    {
                        "name": "after",
                        "in": "query",
                        "description": "the id of the last row seen",
                        "schema": {"type": "integer", "minimum": 0},
                    },
                    {
                        "name": "since",
                        "in": "query",
                        "description": f"rows at or after: {_WHEN}",
                        "schema": {"type": "string"},
                    },
                    {
                        "name": "until",
                        "in": "query",
                        "description": f"rows before: {_WHEN}",
                        "schema": {"type": "string"},
                    },
                    {"name": "bot", "in": "query", "description": "a Bot's name", "schema": {"type": "string"}},
                    {
                        "name": "limit",
                        "in": "query",
                        "description": "rows a JSON page (JSON Lines: ignored)",
                        "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 100},
                    },
                    {
                        "name": "format",
                        "in": "query",
                        "description": "jsonl, or Accept: application/x-ndjson, for the export: every row, streamed",
                        "schema": {"type": "string", "enum": ["json", "jsonl"]},
                    },
                ],
                "responses": {
                    "200": {
                        "description": "a page (JSON), or every row (JSON Lines: one AuditRow a line)",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["items", "next"],
                                    "properties": {
                                        "items": {"type": "array", "items": {"$ref": "#/components/schemas/AuditRow"}},
                                        "next": {
                                            "type": ["integer", "null"],
                                            "description": "pass back as after; null: the end",
                                        },
                                    },
                                }
                            },
                            "application/x-ndjson": {"schema": {"$ref": "#/components/schemas/AuditRow"}},
                        },
                    },
                    **_errors(401, 404, 422),
                },
            }
        },
        "/v1/openapi.json": {
            "get": {
                "summary": "This document",
                "security": _OPEN,
                "responses": {
                    "200": {
                        "description": "OpenAPI 3.1",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    }
                },
            }
        },
        "/healthz": {
            "get": {
                "summary": "Liveness: the process answers",
                "security": _OPEN,
                "responses": {
                    "200": {
                        "description": '{"status": "ok"}',
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    }
                },
            }
        },
        "/readyz": {
            "get": {
                "summary": "Readiness: the store, its schema, Slack's answer to our token (and its scopes)",
                "security": _OPEN,
                "responses": {
                    code: {
                        "description": text,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["status"],
                                    "properties": {
                                        "status": {"type": "string"},
                                        "checks": {
                                            "type": "object",
                                            "additionalProperties": {
                                                "type": "object",
                                                "properties": {"ok": {"type": "boolean"}, "detail": {"type": "string"}},
                                            },
                                        },
                                    },
                                }
                            }
                        },
                    }
                    for code, text in (("200", "ready"), ("503", "not ready, or starting"))
                },
            }
        },
        "/metrics": {
            "get": {
                "summary": "Prometheus metrics",
                "security": _OPEN,
                "responses": {
                    "200": {
                        "description": "the text exposition format",
                        "content": {"text/plain": {"schema": {"type": "string"}}},
                    }
                },
            }
        },
    }
    word = {"type": "string", "pattern": "^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,63}$"}
    program = {"name": "program", "in": "path", "required": True, "schema": word}
    subcommand = {
        "name": "subcommand",
        "in": "path",
        "required": True,
        "schema": word,
        "description": "the program's first argument",
    }
    rule = _json("#/components/schemas/ProgramRuleOut", "the rule")
    paths["/v1/program-rules"] = {
        "get": {
            "summary": "The organisation's program rules (the adapters grade with them)",
            "security": [{"bot": []}, {"admin": []}],
            "responses": {"200": _json("#/components/schemas/ProgramRulesOut", "the rules"), **_errors(401)},
        }
    }
    for path, parameters in (
        ("/v1/program-rules/{program}", [program]),
        ("/v1/program-rules/{program}/{subcommand}", [program, subcommand]),
    ):
        paths[path] = {
            "put": {
                "summary": "Set a program rule (admins)",
                "security": _ADMIN,
                "parameters": parameters,
                "requestBody": _body("ProgramRuleIn"),
                "responses": {"200": rule, **_errors(401, 403, 413, 415, 422)},
            },
            "delete": {
                "summary": "Remove a program rule (admins)",
                "security": _ADMIN,
                "parameters": parameters,
                "responses": {"200": {**rule, "description": "the removed rule"}, **_errors(401, 403, 404, 422)},
            },
        }
    if slack_events:
        paths[SLACK_EVENTS] = {
            "post": {
                "summary": "Slack's request URL: events, interactions and slash commands (Slack-signed)",
                "description": "Checked with the signing secret (X-Slack-Signature, X-Slack-Request-Timestamp); "
                "served in HTTP mode only.",
                "security": _OPEN,
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"type": "object"}},
                        "application/x-www-form-urlencoded": {"schema": {"type": "object"}},
                    },
                },
                "responses": {"200": {"description": "acknowledged"}, "401": {"description": "bad or old signature"}},
            }
        }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "FlyBot API",
            "version": __version__,
            "description": "The session API (a Bot's token), the admin API (an admin token from flybot "
            "admin-tokens add), Slack's request URL, probes and metrics. Errors are RFC 9457 "
            "problem+json with a stable code.",
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bot": {"type": "http", "scheme": "bearer", "description": "the Bot's API token"},
                "admin": {"type": "http", "scheme": "bearer", "description": "an admin token"},
            },
        },
        "security": _BOT,
        "paths": paths,
    }


async def openapi_handler(request: web.Request) -> web.Response:
    """Serve the document (naming :data:`SLACK_EVENTS` where this app serves it)."""
    served = any(
        r.method == "POST" and r.resource is not None and r.resource.canonical == SLACK_EVENTS
        for r in request.app.router.routes()
    )
    return web.json_response(build_openapi(slack_events=served))
