"""The session API's contract and its errors (problem+json, no 500 for any bad input)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.bots import register_bot
from tests.harness import OWNER, ROOM, Harness


def assert_problem(status: int, data: dict[str, Any], expected_status: int, code: str) -> None:
    assert status == expected_status, data
    assert data["code"] == code and data["status"] == expected_status
    assert "Traceback" not in str(data)


async def test_approvals_closed_is_refused_with_409(harness: Harness) -> None:
    token = await harness.add_bot()
    status, data = await harness.post(token, harness.body(approval_policy="never"))
    assert_problem(status, data, 409, "approvals_closed")
    assert harness.emulator.calls == [] or all(c["method"] != "chat.postMessage" for c in harness.emulator.calls)


async def test_the_response_has_every_documented_field(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    for key in (
        "id",
        "status",
        "bot_id",
        "session_id",
        "command",
        "contained",
        "risk",
        "reasons",
        "room",
        "created_at",
        "expires_at",
        "decided_at",
        "decided_by",
        "decision_source",
        "reason",
    ):
        assert key in esc
    assert esc["expires_at"] > esc["created_at"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"command": ""}, "command"),
        ({"contained": "yes"}, "contained"),
        ({"file_policy": "root"}, "file_policy"),
        ({"session_id": None, "_drop": "session_id"}, "session_id"),
        ({"room": "#general"}, "room"),
        ({"timeout_s": 1}, "timeout_s"),
        ({"surprise": 1}, "surprise"),
        ({"state_paths": ["relative/state"]}, "state_paths"),
        ({"state_paths": ["/ok", "/line\nbreak"]}, "state_paths"),
        ({"state_paths": [f"/s{n}" for n in range(9)]}, "state_paths"),
    ],
)
async def test_validation_errors_name_the_field(harness: Harness, body: dict[str, Any], field: str) -> None:
    token = await harness.add_bot()
    payload = harness.body(**{k: v for k, v in body.items() if k != "_drop"})
    payload.pop(body.get("_drop", ""), None)
    status, data = await harness.post(token, payload)
    assert_problem(status, data, 422, "invalid_request")
    assert data["errors"][0]["field"] == field


async def test_bad_bodies_and_tokens_get_clear_problems(harness: Harness) -> None:
    token = await harness.add_bot()
    async with harness.http.post(
        f"{harness.url}/v1/escalations", data=b"{not json", headers={"Authorization": f"Bearer {token}"}
    ) as response:
        assert_problem(response.status, await response.json(content_type=None), 422, "invalid_request")
        assert response.content_type == "application/problem+json"
    for body in ([], "x", 3):
        status, data = await harness.post(token, body)
        assert_problem(status, data, 422, "invalid_request")
    status, data = await harness.post("fbt_nope", harness.body())
    assert_problem(status, data, 401, "unauthorized")
    async with harness.http.post(f"{harness.url}/v1/escalations", json=harness.body()) as response:
        assert_problem(response.status, await response.json(content_type=None), 401, "unauthorized")
    async with harness.http.get(f"{harness.url}/v1/nothing-here") as response:
        assert_problem(response.status, await response.json(content_type=None), 404, "not_found")
    async with harness.http.post(
        f"{harness.url}/v1/escalations", data=b"x" * (2 * 1024 * 1024), headers={"Authorization": f"Bearer {token}"}
    ) as response:
        assert response.status == 413
    assert not any(c["method"] == "chat.postMessage" for c in harness.emulator.calls), "no card for bad input"


async def test_an_escalation_is_visible_only_to_its_own_bot(harness: Harness) -> None:
    token = await harness.add_bot("first")
    other = await harness.add_bot("second")
    esc = await harness.escalate(token)
    status, data = await harness.get(other, esc["id"])
    assert_problem(status, data, 404, "not_found")
    status, data = await harness.get(token, "esc_doesnotexist")
    assert_problem(status, data, 404, "not_found")


async def test_wait_parameter_is_bounded(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    for bad in ("61", "-1", "soon"):
        status, data = await harness.get(token, esc["id"], wait=bad)  # type: ignore[arg-type]
        assert_problem(status, data, 422, "invalid_request")


async def test_long_poll_answers_when_the_wait_ends_with_pending(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    status, data = await harness.get(token, esc["id"], wait=0.5)
    assert status == 200 and data["status"] == "pending"


async def test_withdraw_ends_the_escalation_and_updates_the_card(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    async with harness.http.post(
        f"{harness.url}/v1/escalations/{esc['id']}/withdraw", headers={"Authorization": f"Bearer {token}"}
    ) as response:
        data = await response.json()
        assert response.status == 200 and data["status"] == "withdrawn" and data["decision_source"] == "session"
    await harness.outbox_drained()  # the card's update is a chat job, delivered after the answer
    card = harness.card_for(esc["id"])
    assert not any(b.get("type") == "actions" for b in card["blocks"])
    async with harness.http.post(
        f"{harness.url}/v1/escalations/{esc['id']}/withdraw", headers={"Authorization": f"Bearer {token}"}
    ) as response:
        assert_problem(response.status, await response.json(content_type=None), 409, "already_decided")


async def test_already_full_access_needs_no_escalation(harness: Harness) -> None:
    token = await harness.add_bot()
    status, data = await harness.post(token, harness.body(file_policy="danger-full-access"))
    assert_problem(status, data, 409, "no_escalation_needed")


def test_every_field_of_the_request_body_reaches_the_service() -> None:
    """bot/api/escalations.create names each field when it builds the service's request: a field added to the body
    model must be added there (and to EscalationRequest) too."""
    from dataclasses import fields

    from bot.api.models import EscalationIn
    from bot.escalations import EscalationRequest

    assert set(EscalationIn.model_fields) == {f.name for f in fields(EscalationRequest)}


async def test_the_created_escalation_is_json_with_its_charset_and_every_given_field(harness: Harness) -> None:
    _bot, token = await register_bot(harness.runtime.store, "ci-bot", [OWNER], ROOM, allowed_rooms=["C0OTHER1"])
    body = harness.body(justification="needs jq", room="C0OTHER1", timeout_s=120, session_id="s-1", cwd="/srv/app")
    async with harness.http.post(
        f"{harness.url}/v1/escalations", json=body, headers={"Authorization": f"Bearer {token}"}
    ) as response:
        assert response.status == 201 and response.headers["Content-Type"] == "application/json; charset=utf-8"
        esc = await response.json()
    for key in ("justification", "room", "session_id", "cwd", "command", "file_policy", "approval_policy", "contained"):
        assert esc[key] == body[key], key
    assert esc["expires_at"] > esc["created_at"]
