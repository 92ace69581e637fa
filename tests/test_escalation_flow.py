"""End to end: escalation -> approval card -> the owner's click -> the waiting session, over real HTTP."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.parse

from cards import APPROVE_ACTION, DENY_ACTION, DENY_REASON_BLOCK, DENY_REASON_INPUT, HOST_STATEMENT, SANDBOX_STATEMENT
from tests.harness import ADMIN, OTHER, OWNER, ROOM, SIGNING_SECRET, Harness, block_text


def has_buttons(blocks: list[dict]) -> bool:
    return any(b.get("type") == "actions" for b in blocks)


async def test_owner_approves_and_the_waiting_session_gets_approved(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    assert esc["status"] == "pending" and esc["room"] == ROOM
    assert esc["risk"] in ("read_only", "workspace_write", "network", "system", "destructive")
    card = harness.card_for(esc["id"])
    text = block_text(card["blocks"])
    assert HOST_STATEMENT in text and SANDBOX_STATEMENT not in text
    assert "sudo apt-get install -y jq" in text
    assert has_buttons(card["blocks"])

    waiter = asyncio.create_task(harness.get(token, esc["id"], wait=30))
    await asyncio.sleep(0.2)
    assert not waiter.done()
    result = await harness.click(OWNER, esc["id"], APPROVE_ACTION)
    assert result["status"] == 200
    status, final = await asyncio.wait_for(waiter, 10)
    assert status == 200
    assert final["status"] == "approved"
    assert final["decided_by"] == OWNER and final["decision_source"] == "owner"

    await harness.eventually(lambda: not has_buttons(harness.card_for(esc["id"])["blocks"]))
    assert "approved" in block_text(harness.card_for(esc["id"])["blocks"]).lower()
    events = [e.event for e in await harness.runtime.store.audit_log(esc["id"])]
    assert events[:3] == ["escalation.created", "card.posted", "escalation.approved"]


async def test_contained_command_card_says_it_runs_in_the_sandbox(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token, contained=True)
    text = block_text(harness.card_for(esc["id"])["blocks"])
    assert SANDBOX_STATEMENT in text and HOST_STATEMENT not in text


async def test_deny_with_a_reason_reaches_the_session(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    await harness.click(OWNER, esc["id"], DENY_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER))
    modal = harness.open_modal(OWNER)
    assert modal is not None, "the deny button opens a reason modal"
    submitted = await harness.submit_modal(
        OWNER, modal["id"], {DENY_REASON_BLOCK: {DENY_REASON_INPUT: "use the vendored jq in tools/"}}
    )
    assert submitted["status"] == 200
    status, final = await harness.get(token, esc["id"], wait=10)
    assert final["status"] == "denied"
    assert final["reason"] == "use the vendored jq in tools/"
    assert final["decided_by"] == OWNER
    assert harness.open_modal(OWNER) is None
    await harness.eventually(lambda: not has_buttons(harness.card_for(esc["id"])["blocks"]))


async def test_a_non_owner_click_is_refused_and_changes_nothing(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    before = harness.card_for(esc["id"])
    await harness.click(OTHER, esc["id"], APPROVE_ACTION)
    await harness.click(OTHER, esc["id"], DENY_ACTION)
    await harness.eventually(lambda: len(harness.ephemerals(OTHER)) == 2)
    _, now = await harness.get(token, esc["id"])
    assert now["status"] == "pending" and now["decided_by"] is None
    assert harness.open_modal(OTHER) is None, "no deny modal for a non-owner"
    refusals = harness.ephemerals(OTHER)
    assert len(refusals) == 2 and all("only the owners" in r for r in refusals)
    assert harness.ephemerals(OWNER) == []
    assert harness.card_for(esc["id"])["blocks"] == before["blocks"]
    audit = [(e.event, e.actor, e.detail.get("why")) for e in await harness.runtime.store.audit_log(esc["id"])]
    assert ("decision.refused", OTHER, "not_allowed") in audit


async def test_an_admin_may_decide_any_bots_escalation(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    await harness.click(ADMIN, esc["id"], APPROVE_ACTION)
    _, final = await harness.get(token, esc["id"], wait=10)
    assert final["status"] == "approved" and final["decision_source"] == "admin"


async def test_two_concurrent_clicks_make_exactly_one_decision(harness: Harness) -> None:
    token = await harness.add_bot(owners=(OWNER, "U0OWNER02"))
    harness.emulator.users["U0OWNER02"] = {"name": "otto", "real_name": "Otto", "is_admin": False, "is_owner": False}
    for _ in range(3):
        esc = await harness.escalate(token)
        await asyncio.gather(
            harness.click(OWNER, esc["id"], APPROVE_ACTION),
            harness.click(ADMIN, esc["id"], APPROVE_ACTION),
            harness.click("U0OWNER02", esc["id"], APPROVE_ACTION),
        )
        _, final = await harness.get(token, esc["id"], wait=10)
        assert final["status"] == "approved"
        deadline = time.monotonic() + 5
        audit: list = []
        while time.monotonic() < deadline:
            audit = await harness.runtime.store.audit_log(esc["id"])
            if sum(1 for e in audit if e.event in ("escalation.approved", "decision.refused")) == 3:
                break
            await asyncio.sleep(0.05)
        decisions = [e for e in audit if e.event == "escalation.approved"]
        refused = [e for e in audit if e.event == "decision.refused"]
        assert len(decisions) == 1
        assert len(refused) == 2 and all(e.detail["why"] == "already_decided" for e in refused)
        assert decisions[0].actor == final["decided_by"]


async def test_a_later_click_is_told_who_already_decided(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    await harness.click(OWNER, esc["id"], DENY_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER))
    modal = harness.open_modal(OWNER)
    await harness.click(ADMIN, esc["id"], APPROVE_ACTION)
    await harness.submit_modal(OWNER, modal["id"], {DENY_REASON_BLOCK: {DENY_REASON_INPUT: ""}})
    _, final = await harness.get(token, esc["id"], wait=10)  # the click is acknowledged before it is stored
    assert final["status"] == "approved" and final["decided_by"] == ADMIN
    await harness.eventually(lambda: harness.ephemerals(OWNER))
    assert any("already approved" in text and ADMIN in text for text in harness.ephemerals(OWNER)), harness.ephemerals(
        OWNER
    )


async def test_an_escalation_expires_fails_closed_and_updates_its_card(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token, timeout_s=5)
    status, final = await harness.get(token, esc["id"], wait=15)
    assert final["status"] == "expired" and final["decision_source"] == "timeout"
    await harness.eventually(lambda: not has_buttons(harness.card_for(esc["id"])["blocks"]))
    await harness.click(OWNER, esc["id"], APPROVE_ACTION)
    _, after = await harness.get(token, esc["id"])
    assert after["status"] == "expired", "a click after expiry changes nothing"


async def test_card_that_cannot_be_posted_ends_undeliverable_never_approved(harness: Harness) -> None:
    token = await harness.add_bot()
    await harness.fault("chat.postMessage", status=500)
    esc = await harness.escalate(token)
    assert esc["status"] == "undeliverable" and esc["decision_source"] == "delivery_failure"
    posts = [c for c in harness.emulator.calls if c["method"] == "chat.postMessage"]
    assert len(posts) >= 2, "slack-sdk's server-error retry handler retried"


async def test_slack_errors_that_are_not_retried_also_end_undeliverable(harness: Harness) -> None:
    token = await harness.add_bot(room="C0NOSUCH1")
    esc = await harness.escalate(token)
    assert esc["status"] == "undeliverable"
    assert "channel_not_found" in esc["reason"]


async def test_a_rate_limited_post_is_retried_and_delivered(harness: Harness) -> None:
    token = await harness.add_bot()
    await harness.fault("chat.postMessage", status=429, count=1)
    esc = await harness.escalate(token)
    assert esc["status"] == "pending"
    harness.card_for(esc["id"])


async def test_idempotent_retry_returns_the_same_escalation_and_posts_one_card(harness: Harness) -> None:
    token = await harness.add_bot()
    headers = {"Idempotency-Key": "retry-123"}
    first = await harness.post(token, harness.body(), headers)
    second = await harness.post(token, harness.body(), headers)
    assert first[0] == second[0] == 201
    assert first[1]["id"] == second[1]["id"]
    await harness.outbox_drained()
    assert sum(1 for c in harness.emulator.calls if c["method"] == "chat.postMessage") == 1


async def test_a_key_reused_after_its_escalation_ended_is_refused_not_answered(harness: Harness) -> None:
    """A hook's key is the agent's call id: a later call reusing it must get no old decision."""
    token = await harness.add_bot()
    headers = {"Idempotency-Key": "call-reused-1"}
    status, first = await harness.post(token, harness.body(timeout_s=5), headers)
    assert status == 201
    await harness.outbox_drained()
    await harness.click(OWNER, first["id"], APPROVE_ACTION)
    _, decided = await harness.get(token, first["id"], wait=10)
    assert decided["status"] == "approved"
    status, again = await harness.post(token, harness.body(timeout_s=5), headers)
    assert (status, again["id"]) == (201, first["id"])  # within its lifetime: a retry, answered
    await asyncio.sleep(5.2)
    status, late = await harness.post(token, harness.body(timeout_s=5), headers)
    assert status == 409 and late["code"] == "conflict" and "lifetime has ended" in late["detail"], late
    assert "approved" not in json.dumps(late)


async def test_a_pending_escalation_survives_a_restart_and_the_click_still_lands(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    await harness.restart_flybot()
    await harness.click(OWNER, esc["id"], APPROVE_ACTION)
    _, final = await harness.get(token, esc["id"], wait=10)
    assert final["status"] == "approved"


async def test_expiry_still_happens_after_a_restart(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token, timeout_s=5)
    await harness.stop_flybot()
    await asyncio.sleep(5.5)
    await harness.start_flybot()
    _, final = await harness.get(token, esc["id"], wait=10)
    assert final["status"] == "expired"
    deadline = time.monotonic() + 5
    while has_buttons(harness.card_for(esc["id"])["blocks"]) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert not has_buttons(harness.card_for(esc["id"])["blocks"])


def _click_body(escalation_id: str, user: str) -> str:
    payload = {
        "type": "block_actions",
        "user": {"id": user},
        "team": {"id": "T0LOCAL01"},
        "trigger_id": "1.x",
        "actions": [{"type": "button", "action_id": APPROVE_ACTION, "block_id": "b", "value": escalation_id}],
        "channel": {"id": ROOM},
        "container": {"type": "message", "channel_id": ROOM},
    }
    return urllib.parse.urlencode({"payload": json.dumps(payload)})


async def test_forged_slack_requests_are_rejected(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    body = _click_body(esc["id"], OWNER)
    forged = {"X-Slack-Request-Timestamp": str(int(time.time())), "X-Slack-Signature": "v0=" + "0" * 64}
    stale = harness.emulator.sign(body, timestamp=int(time.time()) - 6 * 60)
    other_secret = __import__("slack_sdk.signature", fromlist=["SignatureVerifier"]).SignatureVerifier(
        "not-" + SIGNING_SECRET
    )
    ts = str(int(time.time()))
    wrong_key = {
        "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": other_secret.generate_signature(timestamp=ts, body=body),
    }
    for headers in (forged, stale, wrong_key, {}):
        async with harness.http.post(
            f"{harness.url}/slack/events",
            data=body,
            headers={"Content-Type": "application/x-www-form-urlencoded", **headers},
        ) as response:
            assert response.status == 401
    _, now = await harness.get(token, esc["id"])
    assert now["status"] == "pending"
    good = harness.emulator.sign(body)
    async with harness.http.post(
        f"{harness.url}/slack/events", data=body, headers={"Content-Type": "application/x-www-form-urlencoded", **good}
    ) as response:
        assert response.status == 200
    _, final = await harness.get(token, esc["id"], wait=10)
    assert final["status"] == "approved", "the same payload, correctly signed, is accepted"


async def test_mention_and_mrkdwn_syntax_in_a_command_is_shown_inert(harness: Harness) -> None:
    token = await harness.add_bot()
    nasty = "echo '<!channel> <@U0ADMIN01> <https://evil.example|click me> *bold* _it_ ~s~ `tick`' > /tmp/x"
    esc = await harness.escalate(token, command=nasty, justification="<!here> please *now*")
    card = harness.card_for(esc["id"])

    def mrkdwn_texts(node: object) -> list[str]:
        found: list[str] = []
        if isinstance(node, dict):
            if node.get("type") == "mrkdwn":
                found.append(str(node.get("text")))
            for value in node.values():
                found.extend(mrkdwn_texts(value))
        elif isinstance(node, list):
            for item in node:
                found.extend(mrkdwn_texts(item))
        return found

    for text in mrkdwn_texts(card["blocks"]) + [card["text"]]:
        assert "<!channel>" not in text and "<@U0ADMIN01>" not in text and "<https://evil" not in text
        assert "<!here>" not in text
    literal = json.dumps(card["blocks"])
    assert json.dumps(nasty)[1:-1] in literal, "the command appears verbatim in a literal (rich_text) element"


async def test_a_long_command_is_truncated_visibly_and_shown_whole_on_request(harness: Harness) -> None:
    from cards import SHOW_COMMAND_ACTION

    token = await harness.add_bot()
    long_command = "echo " + " ".join(f"arg{i:05d}" for i in range(3000))
    esc = await harness.escalate(token, command=long_command)
    card = harness.card_for(esc["id"])
    assert len(json.dumps(card["blocks"])) < 40_000
    assert "more characters" in block_text(card["blocks"])
    await harness.click(OWNER, esc["id"], SHOW_COMMAND_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER))
    modal = harness.open_modal(OWNER)
    pre = [
        el["elements"][0]["text"]
        for b in modal["view"]["blocks"]
        if b.get("type") == "rich_text"
        for el in b["elements"]
        if el.get("type") == "rich_text_preformatted"
    ]
    assert "".join(pre) == long_command
    _, still = await harness.get(token, esc["id"])
    assert still["status"] == "pending"


async def test_a_click_being_processed_at_shutdown_finishes_before_the_store_closes(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    await harness.fault("chat.update", count=1, delay_s=1.5)  # a slow Slack: the card update is still running...
    await harness.click(OWNER, esc["id"], APPROVE_ACTION)  # returns at ack(); the decision runs after it
    await asyncio.sleep(0.3)
    await harness.stop_flybot()  # ...when the shutdown starts
    await harness.start_flybot()
    _, final = await harness.get(token, esc["id"])
    assert final["status"] == "approved"
    assert not has_buttons(harness.card_for(esc["id"])["blocks"]), "the card was updated before shutdown completed"


def test_escalation_ids_keep_their_shape_sort_by_creation_time_and_do_not_repeat() -> None:
    """Ids grow with time so the indexes of a group commit append to one leaf page (see
    bot.escalations.new_escalation_id); still ``esc_`` and 32 hex digits, 80 of their bits random."""
    import re
    import time as clock

    from bot.escalations import new_escalation_id

    first = new_escalation_id()
    clock.sleep(0.002)
    batch = [new_escalation_id() for _ in range(10_000)]
    clock.sleep(0.002)
    last = new_escalation_id()
    assert all(re.fullmatch(r"esc_[0-9a-f]{32}", i) for i in (first, *batch, last))
    assert first < min(batch) and max(batch) < last
    assert len(set(batch)) == len(batch)
    assert len({i[-20:] for i in batch}) == len(batch)  # the random part alone differs
