"""The OpenAPI document names every route the app serves, and none it does not: compared with the real aiohttp
app's router in Slack HTTP mode, Socket Mode and local mode."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from openapi_spec_validator import validate

from bot.api.openapi import openapi_handler
from bot.app import create_app
from bot.settings import Settings
from tests.harness import BOT_TOKEN, SIGNING_SECRET

LOCAL_PAGE = ("/", "/static", "/local/slack/")
"""Local mode's chat page, its files and its emulated Slack: the page's, not FlyBot's API."""


def _settings(tmp_path: Path, mode: str) -> Settings:
    state = tmp_path / ".flybot"
    state.mkdir(mode=0o700)
    values: dict[str, Any] = {"database_url": f"sqlite+aiosqlite:///{tmp_path / 'flybot.db'}", "state_dir": str(state)}
    if mode == "http":
        values |= {
            "slack_bot_token": BOT_TOKEN,
            "slack_signing_secret": SIGNING_SECRET,
            "slack_api_url": "http://127.0.0.1:9/api/",
        }
    elif mode == "socket":
        values |= {
            "slack_bot_token": BOT_TOKEN,
            "slack_app_token": "xapp-test",
            "slack_signing_secret": None,
            "slack_api_url": "http://127.0.0.1:9/api/",
        }
    return Settings(**values)


def served(app: web.Application) -> set[tuple[str, str]]:
    """``(METHOD, path)`` of every route of ``app``'s router (aiohttp's automatic HEAD of a GET left out)."""
    routes = set()
    for route in app.router.routes():
        resource = route.resource
        assert resource is not None
        path = resource.canonical
        if route.method == "HEAD" or any(path == p or (p != "/" and path.startswith(p)) for p in LOCAL_PAGE):
            continue
        routes.add((route.method, path))
    return routes


async def document_of(app: web.Application) -> dict[str, Any]:
    """The document as the app serves it (its own handler, on a request to this app)."""
    response = await openapi_handler(make_mocked_request("GET", "/v1/openapi.json", app=app))
    assert response.text is not None
    document: dict[str, Any] = json.loads(response.text)
    return document


@pytest.mark.parametrize("mode", ["http", "socket", "local"])
async def test_the_openapi_document_names_exactly_the_routes_the_app_serves(mode: str, tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, mode), base_url="http://127.0.0.1:8080")
    document = await document_of(app)
    validate(document)
    documented = {(method.upper(), path) for path, operations in document["paths"].items() for method in operations}
    routes = served(app)
    assert routes - documented == set(), "served but not in the document"
    assert documented - routes == set(), "in the document but not served"
    assert (("POST", "/slack/events") in routes) is (mode != "socket")  # Socket Mode: over its WebSocket only
    assert {("GET", "/v1/audit"), ("POST", "/v1/reports"), ("DELETE", "/v1/standing-approvals/{id}")} <= routes


async def test_every_operation_says_who_may_call_it_and_what_it_answers(tmp_path: Path) -> None:
    document = await document_of(create_app(_settings(tmp_path, "http"), base_url="http://127.0.0.1:8080"))
    schemes = set(document["components"]["securitySchemes"])
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert "security" in operation, (method, path)
            assert {name for entry in operation["security"] for name in entry} <= schemes
            assert operation["responses"], (method, path)
    audit = document["paths"]["/v1/audit"]["get"]
    assert {p["name"] for p in audit["parameters"]} >= {"since", "until", "format", "after", "limit", "bot"}
    assert "application/x-ndjson" in audit["responses"]["200"]["content"]
    assert document["paths"]["/v1/standing-approvals"]["post"]["security"] == [{"admin": []}]
