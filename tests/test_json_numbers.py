"""Numbers and text that Python's json module reads but no store or chat message can hold (``NaN``, ``Infinity``,
``1e400``, an unpaired surrogate escape) are a ``422`` naming the body, on SQLite and PostgreSQL alike; before
they reached PostgreSQL's ``json`` column as a ``500`` with a traceback. Real server over HTTP."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.harness import Harness
from tests.pg import migrated_store

TOOL_BODY = (
    '{"session_id": "s", "command": "mcp__x__y", "cwd": "/w", "file_policy": "workspace-write", '
    '"approval_policy": "ask", "contained": false, "tool": {"name": "mcp__x__y", "input": {"a": %s}}}'
)
REFUSED = ["NaN", "Infinity", "-Infinity", "1e400", "-1E+999", '"\\ud800"', '"x\\udfffy"', '{"\\udbff": 1}']
TAKEN = ["1.5", "-2e300", "12345678901234567890", '"\\ud83d\\ude00"', '"\\u00e9"', '[1, {"b": 0.0}]']


@pytest.fixture(params=["sqlite", "postgresql"])
async def stored(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    async with migrated_store(request.param, tmp_path) as url:
        h = Harness(tmp=tmp_path, settings_overrides={"database_url": url, "max_open_escalations": 100})
        await h.start()
        try:
            yield h
        finally:
            await h.close()


async def _post(harness: Harness, token: str, data: str) -> tuple[int, dict[str, object]]:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    async with harness.http.post(f"{harness.url}/v1/escalations", data=data.encode(), headers=headers) as response:
        return response.status, await response.json(content_type=None)


async def test_values_no_store_holds_are_refused_and_the_rest_taken(stored: Harness) -> None:
    token = await stored.add_bot()
    for value in REFUSED:
        status, problem = await _post(stored, token, TOOL_BODY % value)
        assert status == 422, (value, problem)
        assert problem["code"] == "invalid_request" and problem["errors"] == [
            {"field": "body", "message": problem["detail"]}
        ], problem
    assert await stored.runtime.store.list_escalations() == []
    for value in TAKEN:
        status, escalation = await _post(stored, token, TOOL_BODY % value)
        assert status == 201, (value, escalation)
        assert escalation["tool"]["input"] == {"a": json.loads(value)}, escalation  # type: ignore[index]
