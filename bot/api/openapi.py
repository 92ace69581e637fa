"""``GET /v1/openapi.json``: the session API's OpenAPI 3.1 document, generated from the pydantic models."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from bot import __version__
from bot.api.escalations import IDEMPOTENCY_KEY_MAX
from bot.api.models import EscalationIn, EscalationOut, Problem
from bot.api.program_rules import ProgramRuleIn, ProgramRuleOut, ProgramRulesOut

_PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}


def _errors(*codes: int) -> dict[str, Any]:
    return {str(code): {"description": "problem", "content": _PROBLEM} for code in codes}


def build_openapi(extra_models: tuple[type[BaseModel], ...] = ()) -> dict[str, Any]:
    """The OpenAPI document (a JSON-ready dict); ``extra_models`` add component schemas of other routes."""
    models: list[type[BaseModel]] = [EscalationIn, EscalationOut, Problem, ProgramRuleIn, ProgramRuleOut,
                                     ProgramRulesOut, *extra_models]
    inputs = (EscalationIn, ProgramRuleIn)
    _, schema = models_json_schema([(m, "validation" if m in inputs else "serialization") for m in models],
                                   ref_template="#/components/schemas/{model}")
    escalation = {"application/json": {"schema": {"$ref": "#/components/schemas/EscalationOut"}}}
    wait = {"name": "wait", "in": "query", "schema": {"type": "number", "minimum": 0, "maximum": 60},
            "description": "long-poll up to this many seconds"}
    ident = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
    word = {"type": "string", "pattern": "^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,63}$"}
    program = {"name": "program", "in": "path", "required": True, "schema": word}
    subcommand = {"name": "subcommand", "in": "path", "required": True, "schema": word,
                  "description": "the program's first argument"}
    rule = {"application/json": {"schema": {"$ref": "#/components/schemas/ProgramRuleOut"}}}
    admin: list[dict[str, list[str]]] = [{"admin": []}]
    rule_paths: dict[str, Any] = {}
    for path, parameters in (("/v1/program-rules/{program}", [program]),
                             ("/v1/program-rules/{program}/{subcommand}", [program, subcommand])):
        rule_paths[path] = {
            "put": {"summary": "Set a program rule (admins)", "security": admin, "parameters": parameters,
                    "requestBody": {"required": True, "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/ProgramRuleIn"}}}},
                    "responses": {"200": {"description": "the rule", "content": rule},
                                  **_errors(401, 403, 413, 415, 422)}},
            "delete": {"summary": "Remove a program rule (admins)", "security": admin, "parameters": parameters,
                       "responses": {"200": {"description": "the removed rule", "content": rule},
                                     **_errors(401, 403, 404, 422)}},
        }
    return {
        "openapi": "3.1.0",
        "info": {"title": "FlyBot session API", "version": __version__},
        "components": {
            "schemas": schema.get("$defs", {}),
            "securitySchemes": {"bot": {"type": "http", "scheme": "bearer", "description": "the Bot's API token"},
                                "admin": {"type": "http", "scheme": "bearer", "description": "an admin token"}},
        },
        "security": [{"bot": []}],
        "paths": {
            "/v1/escalations": {"post": {
                "summary": "Ask to run one call with danger-full-access",
                "parameters": [{"name": "Idempotency-Key", "in": "header", "schema": {
                    "type": "string", "minLength": 1, "maxLength": IDEMPOTENCY_KEY_MAX, "pattern": "^[\\x20-\\x7e]+$"},
                    "description": "printable ASCII; the same key answers the same escalation"}],
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/EscalationIn"}}}},
                "responses": {"201": {"description": "the escalation", "content": escalation},
                              **_errors(401, 403, 409, 413, 415, 422, 429)},
            }},
            "/v1/escalations/{id}": {"get": {
                "summary": "Read or long-poll an escalation", "parameters": [ident, wait],
                "responses": {"200": {"description": "the escalation", "content": escalation},
                              **_errors(401, 404, 422, 503)},
            }},
            "/v1/escalations/{id}/withdraw": {"post": {
                "summary": "The session no longer needs it", "parameters": [ident],
                "responses": {"200": {"description": "the escalation", "content": escalation},
                              **_errors(401, 404, 409)},
            }},
            "/v1/program-rules": {"get": {
                "summary": "The organisation's program rules (the adapters grade with them)",
                "security": [{"bot": []}, {"admin": []}],
                "responses": {"200": {"description": "the rules", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/ProgramRulesOut"}}}}, **_errors(401)},
            }},
            **rule_paths,
        },
    }


async def openapi_handler(_request: web.Request) -> web.Response:
    """Serve the document."""
    return web.json_response(build_openapi())
