"""Hostile requests: standing approvals that must not widen, idempotency keys, bodies and chat input that must get
clear refusals, the local page's cross-site refusal, and the memory a long body may hold."""

from __future__ import annotations

import json

import pytest

from bot.bots import register_bot
from cards import DENY_ACTION, STANDING_SESSION_ACTION
from tests.harness import ADMIN, OTHER, OWNER, ROOM, Harness


async def test_a_session_cannot_borrow_another_rooms_room_wide_approval(harness: Harness) -> None:
    _bot, token = await register_bot(
        harness.runtime.store,
        "rogue",
        [OTHER],
        ROOM,  # its room is C0APPROVE
        allowed_rooms=["C0GENERAL"],
    )  # it may send cards there, not borrow approvals
    reply = await harness.slash(ADMIN, "standing add --room * --max-risk system --host-ok", channel="C0GENERAL")
    assert reply.startswith("Saved"), reply
    esc = await harness.escalate(token, command="chmod -R 777 /etc", contained=False, room="C0GENERAL")
    assert esc["status"] == "pending", "a room's approvals answer only the Bots whose room it is"


async def test_a_standing_approval_does_not_reach_through_ssh(harness: Harness) -> None:
    token = await harness.add_bot()
    await harness.slash(OWNER, "standing add --bot ci-bot systemctl --max-risk system --host-ok")
    local = await harness.escalate(token, command="sudo systemctl restart nginx", contained=True)
    assert local["status"] == "approved"
    remote = await harness.escalate(token, command="ssh prod-db systemctl stop postgresql", contained=True)
    assert remote["status"] == "pending"


async def test_approve_for_this_session_never_widens_to_any_command(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token, command=">> ~/motd", contained=False)  # system: an append outside
    await harness.click(OWNER, esc["id"], STANDING_SESSION_ACTION)
    await harness.eventually(lambda: harness.ephemerals(OWNER))
    assert "no plain command prefix" in harness.ephemerals(OWNER)[-1]
    assert await harness.runtime.store.list_standing() == []
    _, still = await harness.get(token, esc["id"])
    assert still["status"] == "pending"


async def test_an_idempotency_key_reused_for_a_different_request_is_refused(harness: Harness) -> None:
    token = await harness.add_bot()
    headers = {"Idempotency-Key": "k-123"}
    first = await harness.post(token, harness.body(command="ls"), headers)
    assert first[0] == 201
    status, problem = await harness.post(token, harness.body(command="rm -rf /work/repo"), headers)
    assert status == 409 and problem["code"] == "conflict" and problem["errors"][0]["field"] == "Idempotency-Key"


async def test_deep_nul_or_mistyped_bodies_get_clear_problems_never_500s(harness: Harness) -> None:
    token = await harness.add_bot()
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    deep = '{"a":' * 100_000 + "1" + "}" * 100_000
    for path in ("/v1/escalations", "/v1/reports"):
        async with harness.http.post(f"{harness.url}{path}", data=deep, headers=auth) as response:
            assert response.status == 422, path
    for field in ("command", "session_id", "cwd", "justification"):
        status, problem = await harness.post(token, harness.body(**{field: "a\x00b"}))
        assert status == 422 and "NUL" in problem["detail"], field
    for bad in ({"timeout_s": "10"},):
        status, _ = await harness.post(token, harness.body(**bad))
        assert status == 422
    junk = json.dumps({"type": "event_callback", "event": []})
    async with harness.http.post(
        f"{harness.url}/slack/events", data=junk, headers={"Content-Type": "application/json"}
    ) as response:
        assert response.status == 401


async def test_a_body_naming_a_member_twice_is_refused_and_changes_nothing(harness: Harness) -> None:
    # Python keeps the last "command", other parsers the first: a body that says two things is not taken
    token = await harness.add_bot()
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    plain = json.dumps(harness.body(command="ls"))
    twice = plain[:-1] + ', "command": "rm -rf /work/repo"}'
    nested = json.dumps(harness.body(command="mcp__x__y", tool={"name": "mcp__x__y", "input": {"a": 1}}))
    nested = nested.replace('{"a": 1}', '{"a": 1, "a": 2}')
    for body in (twice, nested):
        async with harness.http.post(f"{harness.url}/v1/escalations", data=body, headers=auth) as response:
            problem = await response.json(content_type=None)
            assert response.status == 422 and "twice" in problem["detail"], problem
    assert not any(e.event == "escalation.created" for e in await harness.runtime.store.audit_log())
    async with harness.http.post(f"{harness.url}/v1/escalations", data=plain, headers=auth) as response:
        assert response.status == 201  # the same body with each name once is taken


async def test_nul_in_chat_input_is_refused_at_the_edge(harness: Harness) -> None:
    await harness.add_bot()
    reply = await harness.slash(OWNER, "standing add --bot ci-bot apt-get install --note a\x00b")
    assert "NUL" in reply
    assert await harness.runtime.store.list_standing() == []


async def test_an_unpaired_surrogate_in_chat_input_is_refused_at_the_edge_not_a_failed_decision(
    harness: Harness,
) -> None:
    from cards import DENY_ACTION, DENY_REASON_BLOCK, DENY_REASON_INPUT

    token = await harness.add_bot()
    esc = await harness.escalate(token, command="sudo ls")
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    await harness.click(OWNER, esc["id"], DENY_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER) is not None)
    modal = harness.open_modal(OWNER)
    assert modal is not None
    answer = await harness.submit_modal(OWNER, modal["id"], {DENY_REASON_BLOCK: {DENY_REASON_INPUT: "no \ud800 way"}})
    assert "unpaired surrogates" in answer["body"], answer  # refused before any handler ran
    assert not any("Something went wrong" in text for text in harness.ephemerals(OWNER))
    _, still = await harness.get(token, esc["id"])
    assert still["status"] == "pending"
    reply = await harness.slash(OWNER, "standing add --bot ci-bot apt-get install --note a\ud800b")  # no 500
    assert reply.startswith("Saved") and "\ud800" not in reply


async def test_slash_replies_quote_user_words_inertly(harness: Harness) -> None:
    await harness.add_bot()
    reply = await harness.slash(OWNER, "standing list --bot '<!channel>'")
    assert "<!channel>" not in reply and "&lt;!channel&gt;" in reply


async def test_the_local_page_api_refuses_cross_site_requests(harness: Harness) -> None:
    body = json.dumps({"user": ADMIN, "channel": "C0APPROVE", "text": "standing add --room * --max-risk system"})
    async with harness.http.post(
        f"{harness.emu_url}/page/command", data=body, headers={"Content-Type": "text/plain"}
    ) as response:
        assert response.status == 415
    async with harness.http.post(
        f"{harness.emu_url}/page/command",
        data=body,
        headers={"Content-Type": "application/json", "Origin": "http://evil.example"},
    ) as r:
        assert r.status == 403
    assert await harness.runtime.store.list_standing() == []


async def test_a_nul_anywhere_in_the_body_is_refused_and_the_text_backslash_u0000_is_not_a_nul(
    harness: Harness,
) -> None:
    token = await harness.add_bot()
    recipe = {"tool": "make", "target": "x", "lines": [{"source": "Makefile:1 (x)\x00", "command": "ls"}]}
    status, problem = await harness.post(token, harness.body(command="make x", recipes=[recipe]))
    assert status == 422 and "NUL" in problem["detail"]
    status, problem = await harness.post(token, {**harness.body(), "extra\x00": 1})  # in a key
    assert status == 422 and "NUL" in problem["detail"]
    status, esc = await harness.post(token, harness.body(command="printf '%s' '\\u0000'"))  # backslash, u, 0000
    assert status == 201 and esc["command"] == "printf '%s' '\\u0000'", esc


async def test_a_long_escalations_body_is_not_kept_in_memory_after_a_poll(harness: Harness) -> None:
    """The long-poll's memory of encoded bodies (bot.api.escalations._Bodies) keeps no long body: a 100,000-character
    non-ASCII command is ~600 KB of JSON, so 4096 of them would pin gigabytes. A long body is encoded each time; an
    ordinary one is still remembered."""
    from bot.api.escalations import _BODIES

    token = await harness.add_bot()
    long_command = "echo " + "é" * 99_990
    status, made = await harness.post(token, harness.body(command=long_command))
    assert status == 201, made
    short = await harness.escalate(token)
    for _ in range(2):
        status, polled = await harness.get(token, made["id"])
        assert status == 200 and polled["command"] == long_command
        assert (await harness.get(token, short["id"]))[0] == 200
    assert made["id"] not in _BODIES._bodies, "a 600 KB body is not kept"
    assert short["id"] in _BODIES._bodies, "an ordinary body still is"


async def test_a_modal_submitted_from_the_page_with_values_of_another_shape_is_a_400_that_changes_nothing(
    harness: Harness,
) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token, command="sudo apt-get install -y jq", contained=False)
    await harness.card_settled(token, esc)
    await harness.click(OWNER, esc["id"], DENY_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER) is not None)
    modal = harness.open_modal(OWNER)
    assert modal is not None
    for values in ([1], "x", {"reason": [1]}, {"reason": "x"}, {"reason": None}):
        async with harness.http.post(
            f"{harness.emu_url}/page/view_submit", json={"user": OWNER, "view_id": modal["id"], "values": values}
        ) as response:
            assert response.status == 400, (values, response.status, await response.text())
            assert "values" in (await response.json())["error"]
    _, still = await harness.get(token, esc["id"])
    assert still["status"] == "pending"
    assert harness.open_modal(OWNER) is not None, "the modal stays open"


async def test_a_response_url_given_blocks_that_are_not_a_list_is_a_400_that_posts_nothing(harness: Harness) -> None:
    await harness.slash(OWNER, "help")  # FlyBot was given a response URL for it
    url = next(iter(harness.emulator._response_urls))
    before = len(harness.emulator.messages)
    async with harness.http.post(f"{harness.emu_url}/response/{url}", json={"text": "x", "blocks": 5}) as response:
        assert response.status == 400 and await response.text() == "invalid_blocks_format"
    assert len(harness.emulator.messages) == before


@pytest.mark.parametrize("text", ["standing add --bot '' ls", "standing add --bot= ls", "standing list --bot ''"])
async def test_an_empty_bot_name_in_a_standing_command_is_a_clear_refusal_not_a_failure(
    harness: Harness, text: str
) -> None:
    await harness.add_bot()
    reply = await harness.slash(ADMIN, text)
    assert reply.startswith("--bot needs a value"), reply
    assert await harness.runtime.store.list_standing() == []
