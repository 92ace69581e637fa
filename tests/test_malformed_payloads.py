"""Signed interactive payloads and slash commands whose fields are not of Slack's shapes are refused cleanly.

A correctly signed request to ``/slack/events`` over real HTTP (the real server, the real bolt app): a
``block_actions`` without ``user``, a view submission without its view's ``type``, a field of another type. Each
answers 400 with the field in error, changes nothing (the escalation stays pending, no audit row is written) and
leaves no stack trace in the log. Before, bolt or a listener failed on them: a 500 and a traceback.
"""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

import pytest

from cards import APPROVE_ACTION, DENY_ACTION, DENY_MODAL_CALLBACK, STANDING_MODAL_CALLBACK
from tests.harness import OWNER, Harness

FORM = "application/x-www-form-urlencoded"


async def signed_post(h: Harness, form: dict[str, str]) -> tuple[int, str]:
    body = urllib.parse.urlencode(form)
    async with h.http.post(f"{h.url}/slack/events", data=body,
                           headers={**h.emulator.sign(body), "Content-Type": FORM}) as response:
        return response.status, await response.text()


def click(escalation_id: str, action: str = APPROVE_ACTION, **fields: Any) -> dict[str, Any]:
    return {"type": "block_actions", "trigger_id": "1.2", "user": {"id": OWNER},
            "actions": [{"action_id": action, "value": escalation_id, "block_id": "b"}], **fields}


def submit(escalation_id: str, callback: str = DENY_MODAL_CALLBACK, **view: Any) -> dict[str, Any]:
    return {"type": "view_submission", "user": {"id": OWNER},
            "view": {"type": "modal", "callback_id": callback, "private_metadata": escalation_id, **view}}


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
    "a view without its type": lambda e: {**submit(e), "view": {"callback_id": DENY_MODAL_CALLBACK,
                                                                 "private_metadata": e}},
    "view state as text": lambda e: submit(e, state="deny"),
    "standing form values not objects": lambda e: submit(e, STANDING_MODAL_CALLBACK, state={"values": {"a": 1}}),
    "a shortcut without user": lambda e: {"type": "shortcut", "callback_id": "x", "trigger_id": "1"},
    "a payload that is a list": lambda e: [click(e)],
}


@pytest.mark.parametrize("case", sorted(CASES))
async def test_a_signed_malformed_interaction_is_refused_with_a_400_and_changes_nothing(
    harness: Harness, capfd: pytest.CaptureFixture[str], case: str,
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
    harness: Harness, capfd: pytest.CaptureFixture[str],
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
