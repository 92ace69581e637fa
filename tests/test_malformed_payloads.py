"""Signed interactive payloads, slash commands and Events API callbacks whose fields are not of Slack's shapes are
refused cleanly.

A correctly signed request to ``/slack/events`` over real HTTP (the real server, the real bolt app): a
``block_actions`` without ``user``, a view submission without its view's ``type``, a field of another type, a deny
or review modal submitted with inputs it does not have, an ``event_callback`` whose ``event`` is not an object.
Each answers 400 with the field in error, changes nothing (the escalation stays pending, no audit row is written)
and leaves no stack trace in the log.
"""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

import pytest

from cards import (
    APPROVE_ACTION,
    DENY_ACTION,
    DENY_MODAL_CALLBACK,
    DENY_REASON_BLOCK,
    DENY_REASON_INPUT,
    REVIEW_MODAL_CALLBACK,
    STANDING_MODAL_CALLBACK,
)
from tests.harness import OWNER, Harness

FORM = "application/x-www-form-urlencoded"


async def signed_post(h: Harness, form: dict[str, str]) -> tuple[int, str]:
    body = urllib.parse.urlencode(form)
    async with h.http.post(
        f"{h.url}/slack/events", data=body, headers={**h.emulator.sign(body), "Content-Type": FORM}
    ) as response:
        return response.status, await response.text()


def click(escalation_id: str, action: str = APPROVE_ACTION, **fields: Any) -> dict[str, Any]:
    return {
        "type": "block_actions",
        "trigger_id": "1.2",
        "user": {"id": OWNER},
        "actions": [{"action_id": action, "value": escalation_id, "block_id": "b"}],
        **fields,
    }


def submit(escalation_id: str, callback: str = DENY_MODAL_CALLBACK, **view: Any) -> dict[str, Any]:
    return {
        "type": "view_submission",
        "user": {"id": OWNER},
        "view": {"type": "modal", "callback_id": callback, "private_metadata": escalation_id, **view},
    }


def reason(state: dict[str, Any]) -> dict[str, Any]:
    return {"values": {DENY_REASON_BLOCK: {DENY_REASON_INPUT: state}}}


CASES: dict[str, Any] = {
    "block_actions without user": lambda e: {k: v for k, v in click(e).items() if k != "user"},
    "a user id that is a number": lambda e: {**click(e), "user": {"id": 5}},
    "a user id that is not Slack's": lambda e: {**click(e), "user": {"id": "owner; drop"}},
    "actions not a list": lambda e: {**click(e), "actions": "approve"},
    "no action": lambda e: {**click(e), "actions": []},
    "an action value that is not text": lambda e: click(e) | {"actions": [{"action_id": DENY_ACTION, "value": [e]}]},
    "channel as text": lambda e: {**click(e), "channel": "C0APPROVE"},
    "container as a list": lambda e: {**click(e), "container": ["message"]},
    "view_submission without user": lambda e: {k: v for k, v in submit(e).items() if k != "user"},
    "a view without its type": lambda e: {
        **submit(e),
        "view": {"callback_id": DENY_MODAL_CALLBACK, "private_metadata": e},
    },
    "view state as text": lambda e: submit(e, state="deny"),
    "standing form values not objects": lambda e: submit(e, STANDING_MODAL_CALLBACK, state={"values": {"a": 1}}),
    "a shortcut without user": lambda e: {"type": "shortcut", "callback_id": "x", "trigger_id": "1"},
    "a payload that is a list": lambda e: [click(e)],
    "a deny reason that is a number": lambda e: submit(e, state=reason({"type": "plain_text_input", "value": 5})),
    "a deny reason with a selected option as text": lambda e: submit(
        e, state=reason({"type": "plain_text_input", "value": "no", "selected_option": "approve"})
    ),
    "a deny reason that is a select with nothing selected": lambda e: submit(
        e, state=reason({"type": "static_select", "selected_option": None})
    ),
    "a deny view hash that is a number": lambda e: submit(e, hash=5),
    "a review with a value that is a number": lambda e: submit(
        e, REVIEW_MODAL_CALLBACK, state={"values": {"b": {"a": {"type": "plain_text_input", "value": 5}}}}
    ),
    "a review with a selected option as text": lambda e: submit(
        e, REVIEW_MODAL_CALLBACK, state={"values": {"b": {"a": {"type": "static_select", "selected_option": "x"}}}}
    ),
    "a review with an input it does not have": lambda e: submit(
        e, REVIEW_MODAL_CALLBACK, state={"values": {"b": {"a": {"type": "static_select", "selected_option": None}}}}
    ),
    "a review view hash that is a number": lambda e: submit(e, REVIEW_MODAL_CALLBACK, hash=5),
}


@pytest.mark.parametrize("case", sorted(CASES))
async def test_a_signed_malformed_interaction_is_refused_with_a_400_and_changes_nothing(
    harness: Harness,
    capfd: pytest.CaptureFixture[str],
    case: str,
) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    audit_before = len(await harness.runtime.store.audit_log())
    capfd.readouterr()
    status, text = await signed_post(harness, {"payload": json.dumps(CASES[case](esc["id"]))})
    assert status == 400, (status, text)
    assert "nothing was changed" in text
    _, now = await harness.get(token, esc["id"])
    assert now["status"] == "pending"
    assert len(await harness.runtime.store.audit_log()) == audit_before
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err


async def test_a_slash_command_without_its_user_is_refused_with_a_400(
    harness: Harness,
    capfd: pytest.CaptureFixture[str],
) -> None:
    capfd.readouterr()
    status, text = await signed_post(harness, {"command": "/flybot", "text": "pending", "channel_id": "C0APPROVE"})
    assert status == 400 and "user_id" in text, (status, text)
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err


async def test_a_well_formed_click_still_decides(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    status, _text = await signed_post(harness, {"payload": json.dumps(click(esc["id"]))})
    assert status == 200
    _, now = await harness.get(token, esc["id"])
    assert now["status"] == "approved" and now["decided_by"] == OWNER


async def test_a_well_formed_deny_submission_still_denies_with_its_reason(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    view = {"hash": "1.abc", "state": reason({"type": "plain_text_input", "value": " not on prod "})}
    status, _text = await signed_post(harness, {"payload": json.dumps(submit(esc["id"], **view))})
    assert status == 200
    _, now = await harness.get(token, esc["id"])
    assert now["status"] == "denied" and now["decided_by"] == OWNER


EVENTS: dict[str, Any] = {
    "an event that is text": {"type": "event_callback", "event_id": "Ev1", "event": "x"},
    "an event without its type": {"type": "event_callback", "event_id": "Ev2", "event": {"text": "hi"}},
    "a message whose text is a number": {
        "type": "event_callback",
        "event_id": "Ev3",
        "event": {"type": "message", "channel": "C0APPROVE", "user": OWNER, "text": 5, "ts": "1.2"},
    },
    "an app_home_opened whose user is a number": {
        "type": "event_callback",
        "event_id": "Ev4",
        "event": {"type": "app_home_opened", "user": 5, "tab": "home"},
    },
    "a url_verification without its challenge": {"type": "url_verification"},
}


@pytest.mark.parametrize("case", sorted(EVENTS))
async def test_a_signed_malformed_events_api_callback_is_refused_with_a_400(
    harness: Harness,
    capfd: pytest.CaptureFixture[str],
    case: str,
) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    audit_before = len(await harness.runtime.store.audit_log())
    capfd.readouterr()
    body = json.dumps(EVENTS[case])
    async with harness.http.post(
        f"{harness.url}/slack/events",
        data=body,
        headers={**harness.emulator.sign(body), "Content-Type": "application/json"},
    ) as response:
        status, text = response.status, await response.text()
    assert status == 400 and "nothing was changed" in text, (status, text)
    assert "event" in text or "challenge" in text
    _, now = await harness.get(token, esc["id"])
    assert now["status"] == "pending"
    assert len(await harness.runtime.store.audit_log()) == audit_before
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err
    assert (out + err).count("slack.malformed_payload") == 1


async def test_a_signed_payload_nested_too_deeply_is_refused_with_a_400(
    harness: Harness,
    capfd: pytest.CaptureFixture[str],
) -> None:
    capfd.readouterr()
    body = "[" * 200_000 + "]" * 200_000
    async with harness.http.post(
        f"{harness.url}/slack/events",
        data=body,
        headers={**harness.emulator.sign(body), "Content-Type": "application/json"},
    ) as response:
        status, text = response.status, await response.text()
    assert status == 400 and "nested too deeply" in text, (status, text[:200])
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err


@pytest.mark.parametrize("page", ["9" * 5000, "１", "١", "-1", "abc"])
async def test_pending_with_a_page_that_is_not_a_small_ascii_number_answers_its_usage(
    harness: Harness,
    capfd: pytest.CaptureFixture[str],
    page: str,
) -> None:
    capfd.readouterr()
    status, _text = await signed_post(
        harness,
        {
            "command": "/flybot",
            "text": f"pending {page}",
            "user_id": OWNER,
            "channel_id": "C0APPROVE",
            "team_id": "T0LOCAL01",
        },
    )
    assert status == 200
    await harness.eventually(lambda: harness.ephemerals(OWNER) or _text)
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err
    assert "Usage: `/flybot pending [PAGE]`" in (_text + "".join(harness.ephemerals(OWNER))), _text


@pytest.mark.parametrize("path", ["/v1/escalations", "/slack/events"])
async def test_a_body_that_cannot_be_decoded_is_a_400_without_a_traceback(
    harness: Harness,
    capfd: pytest.CaptureFixture[str],
    path: str,
) -> None:
    capfd.readouterr()
    async with harness.http.post(
        f"{harness.url}{path}", data=b"abcd", headers={"Content-Encoding": "gzip", "Content-Type": "application/json"}
    ) as response:
        assert response.status == 400, await response.text()
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and "api.unhandled" not in out + err
