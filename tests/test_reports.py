"""Blocked-host reports — a Bot with no usable sandbox backend reports once; its owners decide from a DM.

A real FlyBot against the Slack emulation (``harness``): reports arrive over ``POST /v1/reports`` or as a room
message (the emulation's page API delivers a signed ``message`` event); owners click the DM's buttons.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

from slack_sdk.models.blocks import Block

from bot.preflight import BackendProbe, SandboxMode, build_report, render_one_line
from cards import (
    REPORT_APPROVE_BOT_ACTION,
    REPORT_APPROVE_TURN_ACTION,
    REPORT_GRANT_CALLBACK,
    REPORT_GRANT_HOST_BLOCK,
    REPORT_GRANT_HOST_INPUT,
    REPORT_GRANT_HOST_VALUE,
    REPORT_RESOLVE_ACTION,
    CardReport,
    CardUnlock,
    report_dm,
)
from tests.harness import ADMIN, OTHER, OWNER, ROOM, Harness, block_text

OWNER2 = "U0OWNER02"
BOT_USER = "U0CIBOT01"
"""The Slack user ci-bot posts as (its registered chat identity)."""
INSTALL = "sudo apt-get install -y bubblewrap"
BLOCKED = build_report(
    SandboxMode.WORKSPACE_WRITE,
    "linux",
    [
        BackendProbe("bubblewrap", False, "not found on PATH"),
        BackendProbe("landlock", False, "not in /sys/kernel/security/lsm"),
    ],
    {"ID": "debian"},
)
PREFLIGHT_LINE = render_one_line(BLOCKED)


# -- helpers --------------------------------------------------------------------------------------------------
async def add_bot(harness: Harness, owners: tuple[str, ...] = (OWNER, OWNER2)) -> str:
    """The Bot ``ci-bot`` (room C0APPROVE) with two owners; both exist in the emulated workspace."""
    harness.emulator.users.setdefault(
        OWNER2, {"name": "otto", "real_name": "Otto (owner)", "is_admin": False, "is_owner": False}
    )
    harness.emulator.users.setdefault(
        BOT_USER, {"name": "ci-bot", "real_name": "ci-bot (agent)", "is_admin": False, "is_owner": False}
    )
    return await harness.add_bot("ci-bot", owners=owners, chat_user=BOT_USER)


async def post_report(harness: Harness, token: str, body: Any) -> tuple[int, dict[str, Any]]:
    """POST a report; once accepted, wait until its DMs were delivered (outbox jobs) and read it again."""
    async with harness.http.post(
        f"{harness.url}/v1/reports", json=body, headers={"Authorization": f"Bearer {token}"}
    ) as response:
        status, data = response.status, await response.json(content_type=None)
    if status in (200, 201):
        await harness.outbox_drained()
        async with harness.http.get(
            f"{harness.url}/v1/reports/{data['id']}", headers={"Authorization": f"Bearer {token}"}
        ) as response:
            data = await response.json(content_type=None)
    return status, data


async def report_ok(harness: Harness, token: str, **body: Any) -> dict[str, Any]:
    body = {"line": PREFLIGHT_LINE, "host": "ci-7", "session_id": "s-42", **body}
    status, data = await post_report(harness, token, body)
    assert status in (200, 201), data
    return data


async def get_report(harness: Harness, token: str, report_id: str, wait: float = 0) -> tuple[int, dict[str, Any]]:
    async with harness.http.get(
        f"{harness.url}/v1/reports/{report_id}",
        params={"wait": str(wait)},
        headers={"Authorization": f"Bearer {token}"},
    ) as response:
        return response.status, await response.json(content_type=None)


def dms(harness: Harness, user: str, report_id: str | None = None) -> list[Any]:
    """Non-ephemeral messages in ``user``'s DM with FlyBot (DM ids come from ``conversations.open``)."""
    im = {cid for cid, c in harness.emulator.channels.items() if c["is_im"] and c["user"] == user}
    return [
        m
        for m in harness.emulator.messages
        if m.channel in im and m.ephemeral_to is None and (report_id is None or report_id in json.dumps(m.blocks))
    ]


def dm_posts(harness: Harness) -> int:
    """``chat.postMessage`` calls to DM channels (updates do not count)."""
    im = {cid for cid, c in harness.emulator.channels.items() if c["is_im"]}
    return sum(
        1 for c in harness.emulator.calls if c["method"] == "chat.postMessage" and c["args"].get("channel") in im
    )


def action_ids(message: Any) -> set[str]:
    return {e["action_id"] for b in message.blocks if b.get("type") == "actions" for e in b["elements"]}


async def approve_for_bot(harness: Harness, user: str, report_id: str, *, on_host: bool) -> None:
    """Click "… for this Bot" in the DM, then submit the confirmation modal, ticking "on the host" or not."""
    await harness.click(user, report_id, REPORT_APPROVE_BOT_ACTION)
    await harness.eventually(lambda: harness.open_modal(user) is not None)
    modal = harness.open_modal(user)
    assert modal is not None and modal["view"]["callback_id"] == REPORT_GRANT_CALLBACK
    ticked = [{"value": REPORT_GRANT_HOST_VALUE}] if on_host else []
    values = {REPORT_GRANT_HOST_BLOCK: {REPORT_GRANT_HOST_INPUT: {"type": "checkboxes", "selected_options": ticked}}}
    answer = await harness.submit_modal(user, modal["id"], values)
    assert answer["ok"], answer


async def audit_events(harness: Harness, report_id: str | None = None) -> list[str]:
    rows = await harness.runtime.store.audit_log()
    return [
        r.event
        for r in rows
        if r.event.startswith("report.") and (report_id is None or r.detail.get("report_id") == report_id)
    ]


# -- receiving reports ------------------------------------------------------------------------------------------
async def test_an_api_report_reaches_each_owner_by_dm_with_the_options_and_the_install_command(
    harness: Harness,
) -> None:
    token = await add_bot(harness)
    status, data = await post_report(harness, token, {"line": PREFLIGHT_LINE, "host": "ci-7", "session_id": "s-42"})
    assert status == 201, data
    assert data["status"] == "open" and data["count"] == 1 and data["delivered"] == 2
    assert (data["host"], data["session_id"], data["mode"]) == ("ci-7", "s-42", "workspace-write")
    assert data["missing"] == ["bubblewrap", "landlock"]
    assert {"id": "install-bubblewrap", "text": "install bubblewrap on the host", "command": INSTALL} in data["unlock"]
    for owner in (OWNER, OWNER2):
        [dm] = dms(harness, owner, data["id"])
        text = block_text(dm.blocks)
        assert "ci-bot" in text and "ci-7" in text and "s-42" in text and "workspace-write" in text
        assert (
            "bubblewrap" in text
            and "Landlock" in text
            and "run a kernel with Landlock ABI 3 or later (Linux 6.2+)" in text
        )
        assert "change the session file policy to danger-full-access" in text
        commands = [
            e
            for b in dm.blocks
            if b["type"] == "rich_text"
            for e in b["elements"]
            if e["type"] == "rich_text_preformatted"
        ]
        assert [e["elements"][0]["text"] for e in commands] == [INSTALL], "the exact command, copyable"
        assert action_ids(dm) == {REPORT_APPROVE_TURN_ACTION, REPORT_APPROVE_BOT_ACTION, REPORT_RESOLVE_ACTION}
    assert await audit_events(harness, data["id"]) == ["report.received", "report.delivered", "report.delivered"]


async def test_the_blocked_line_with_fields_and_the_preflight_json_are_accepted_too(harness: Harness) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    line = (
        f"blocked: no usable sandbox backend bot=ci-bot host=ci-8 session=s-1 mode=workspace-write | {PREFLIGHT_LINE}"
    )
    status, first = await post_report(harness, token, {"line": line})
    assert status == 201 and first["host"] == "ci-8" and first["missing"] == ["bubblewrap", "landlock"], first
    status, second = await post_report(
        harness, token, {"preflight": BLOCKED.to_json_dict(), "host": "ci-9", "session_id": "s-2"}
    )
    assert status == 201 and second["mode"] == "workspace-write" and second["missing"] == ["bubblewrap", "landlock"]
    assert [o["id"] for o in second["unlock"]] == [o.id for o in BLOCKED.unlock]
    status, bare = await post_report(
        harness, token, {"line": "blocked: no usable sandbox backend host=ci-10 session=s-3", "mode": "read-only"}
    )
    assert status == 201 and bare["missing"] == [], bare
    assert [o["id"] for o in bare["unlock"]] == ["approve-turn", "approve-bot", "change-file-policy"]
    assert len(dms(harness, OWNER)) == 3


async def test_a_report_posted_in_the_bots_room_reaches_the_owners_dm(harness: Harness) -> None:
    token = await add_bot(harness)
    text = (
        f"blocked: no usable sandbox backend bot=ci-bot host=ci-7 session=s-42 mode=workspace-write | {PREFLIGHT_LINE}"
    )
    async with harness.http.post(
        f"{harness.emu_url}/page/message", json={"user": BOT_USER, "channel": ROOM, "text": text}
    ) as response:
        assert (await response.json())["ok"]
    await harness.eventually(lambda: len(dms(harness, OWNER)) == 1 and len(dms(harness, OWNER2)) == 1)
    dm = dms(harness, OWNER)[0]
    report_id = next(e["value"] for b in dm.blocks if b.get("type") == "actions" for e in b["elements"])
    assert INSTALL in block_text(dm.blocks) and f"<@{BOT_USER}>" in block_text(dm.blocks), "who posted it is shown"
    status, data = await get_report(harness, token, report_id)
    assert status == 200 and data["source"] == "chat" and data["host"] == "ci-7" and data["session_id"] == "s-42"
    assert data["missing"] == ["bubblewrap", "landlock"]


async def test_a_malformed_api_report_is_a_422_naming_the_field_and_nothing_is_sent(harness: Harness) -> None:
    token = await add_bot(harness)
    usable = {**BLOCKED.to_json_dict(), "status": "usable", "usable": True}
    cases: list[tuple[dict[str, Any], str]] = [
        ({"line": "sandbox-preflight: workspace-write is fine", "host": "h", "session_id": "s"}, "line"),
        ({"line": "blocked: no usable sandbox backend host=h session=s mode=workspace-write bogus=1"}, "line"),
        ({"line": "blocked: no usable sandbox backend bot=someone-else host=h session=s mode=read-only"}, "line"),
        ({"line": PREFLIGHT_LINE, "session_id": "s"}, "host"),
        ({"line": PREFLIGHT_LINE, "host": "h"}, "session_id"),
        ({"line": "blocked: no usable sandbox backend host=h session=s"}, "mode"),
        ({"line": PREFLIGHT_LINE, "host": "h", "session_id": "s", "mode": "read-only"}, "mode"),
        ({"line": PREFLIGHT_LINE, "host": "h", "session_id": "s", "mode": "danger-full-access"}, "mode"),
        ({"line": "blocked: no usable sandbox backend host=h session=s", "host": "other", "mode": "read-only"}, "host"),
        ({"preflight": usable, "host": "h", "session_id": "s"}, "preflight.status"),
        (
            {"preflight": {**BLOCKED.to_json_dict(), "backends": "none"}, "host": "h", "session_id": "s"},
            "preflight.backends",
        ),
        ({"line": PREFLIGHT_LINE, "preflight": BLOCKED.to_json_dict(), "host": "h", "session_id": "s"}, "line"),
        ({"host": "h", "session_id": "s"}, "line"),
        ({"line": PREFLIGHT_LINE, "host": "has space", "session_id": "s"}, "host"),
        ({"line": PREFLIGHT_LINE, "host": "h", "session_id": "s", "extra": 1}, "extra"),
    ]
    for body, field in cases:
        status, problem = await post_report(harness, token, body)
        assert status == 422, (body, problem)
        assert problem["code"] == "invalid_request" and problem["detail"], problem
        assert field in [e["field"] for e in problem["errors"]], (field, problem)
    async with harness.http.post(
        f"{harness.url}/v1/reports", data="nope", headers={"Authorization": f"Bearer {token}"}
    ) as response:
        assert response.status == 422
    status, _ = await post_report(harness, "fbt_wrong", {"line": PREFLIGHT_LINE, "host": "h", "session_id": "s"})
    assert status == 401
    assert dm_posts(harness) == 0 and await audit_events(harness) == []


async def test_a_malformed_chat_report_is_ignored_and_flybot_keeps_working(harness: Harness) -> None:
    await add_bot(harness)
    bad = [
        ("blocked: no usable sandbox backend bot=ci-bot host=ci-7 mode=read-only", ROOM),  # no session
        ("blocked: no usable sandbox backend bot=nobody host=ci-7 session=s mode=read-only", ROOM),  # no such Bot
        (
            "blocked: no usable sandbox backend bot=ci-bot host=ci-7 session=s mode=read-only",
            "C0GENERAL",
        ),  # not its room
        ("blocked: no usable sandbox backend bot=ci-bot host=ci-7 session=s | garbage", ROOM),
        (f"{PREFLIGHT_LINE}", ROOM),  # the bare preflight line names no Bot
    ]
    for text, channel in bad:
        async with harness.http.post(
            f"{harness.emu_url}/page/message", json={"user": BOT_USER, "channel": channel, "text": text}
        ) as response:
            assert (await response.json())["ok"], "FlyBot answered the event normally"

    async def ignored() -> int:
        return sum(1 for r in await harness.runtime.store.audit_log() if r.event == "report.ignored")

    deadline = asyncio.get_running_loop().time() + 5
    while await ignored() < len(bad):
        assert asyncio.get_running_loop().time() < deadline, "every malformed message is logged and audited"
        await asyncio.sleep(0.05)
    assert dm_posts(harness) == 0
    assert not [m for m in harness.emulator.messages if m.channel in (ROOM, "C0GENERAL") and m.bot_id], "no reply"
    good = "blocked: no usable sandbox backend bot=ci-bot host=ci-7 session=s-1 mode=read-only"
    async with harness.http.post(
        f"{harness.emu_url}/page/message", json={"user": BOT_USER, "channel": ROOM, "text": good}
    ) as response:
        assert (await response.json())["ok"]
    await harness.eventually(lambda: dm_posts(harness) == 2)


# -- deciding ------------------------------------------------------------------------------------------------------
async def test_approve_for_this_turn_answers_the_waiting_bot_and_updates_every_dm(harness: Harness) -> None:
    token = await add_bot(harness)
    report = await report_ok(harness, token)
    waiting = asyncio.create_task(get_report(harness, token, report["id"], wait=20))
    await harness.eventually(lambda: harness.runtime.deps.reports.waiters.waiting(report["id"]) == 1)
    await harness.click(OWNER, report["id"], REPORT_APPROVE_TURN_ACTION)
    status, data = await asyncio.wait_for(waiting, timeout=10)
    assert status == 200 and data["status"] == "approved_turn" and data["decided_by"] == OWNER
    assert data["decision_source"] == "owner" and data["decided_at"] and data["standing_approval_id"] is None
    for owner in (OWNER, OWNER2):
        await harness.eventually(lambda o=owner: not action_ids(dms(harness, o, report["id"])[0]))
        [dm] = dms(harness, owner, report["id"])
        assert dm.edited and "Approved danger-full-access for this turn" in block_text(dm.blocks)
    assert await harness.runtime.store.list_standing() == []
    assert "report.approved_turn" in await audit_events(harness, report["id"])


async def test_approve_for_this_bot_saves_a_bot_wide_standing_approval_that_never_covers_destructive(
    harness: Harness,
) -> None:
    token = await add_bot(harness)
    report = await report_ok(harness, token)
    before = datetime.now(UTC)
    await approve_for_bot(harness, OWNER, report["id"], on_host=True)
    _, data = await get_report(harness, token, report["id"], wait=10)
    assert data["status"] == "approved_bot" and data["decided_by"] == OWNER and data["standing_approval_id"]
    approval = await harness.runtime.store.get_standing(data["standing_approval_id"])
    assert approval is not None and approval.live(datetime.now(UTC))
    assert (approval.scope, approval.subject, approval.pattern) == ("bot", report["bot_id"], "*")
    assert approval.max_risk == "system" and approval.contained_only is False and approval.created_by == OWNER
    assert approval.expires_at is not None
    assert timedelta(hours=23) < approval.expires_at - before <= timedelta(hours=24, minutes=1)
    await harness.eventually(lambda: any(data["standing_approval_id"] in t for t in harness.ephemerals(OWNER)))
    host_cmd = await harness.escalate(token, command="sudo apt-get install -y jq", contained=False)
    assert host_cmd["status"] == "approved" and host_cmd["decision_source"] == "standing_approval", host_cmd
    assert host_cmd["standing_approval_id"] == approval.id
    destructive = await harness.escalate(token, command="rm -rf x", contained=False)
    assert destructive["status"] == "pending", "destructive commands still ask"
    rows = await harness.runtime.store.audit_log()
    [decision] = [r for r in rows if r.event == "report.approved_bot"]
    assert decision.actor == OWNER and decision.detail["standing_id"] == approval.id
    assert [r.detail["standing_id"] for r in rows if r.event == "standing.created"] == [approval.id]


async def test_mark_resolved_records_resolved_and_grants_nothing(harness: Harness) -> None:
    token = await add_bot(harness)
    report = await report_ok(harness, token)
    await harness.click(OWNER2, report["id"], REPORT_RESOLVE_ACTION)
    _, data = await get_report(harness, token, report["id"], wait=10)
    assert data["status"] == "resolved" and data["decided_by"] == OWNER2 and data["standing_approval_id"] is None
    assert await harness.runtime.store.list_standing() == []
    await harness.eventually(lambda: "Marked resolved" in block_text(dms(harness, OWNER, report["id"])[0].blocks))


async def test_a_non_owner_click_is_refused_and_changes_nothing_and_the_first_decision_wins(harness: Harness) -> None:
    token = await add_bot(harness)
    report = await report_ok(harness, token)
    for action in (REPORT_APPROVE_BOT_ACTION, REPORT_APPROVE_TURN_ACTION, REPORT_RESOLVE_ACTION):
        await harness.click(OTHER, report["id"], action)
    await harness.eventually(lambda: len(harness.ephemerals(OTHER)) == 3)
    assert all("only the owners of ci-bot" in t for t in harness.ephemerals(OTHER))
    _, data = await get_report(harness, token, report["id"])
    assert data["status"] == "open" and data["decided_by"] is None
    assert await harness.runtime.store.list_standing() == []
    assert action_ids(dms(harness, OWNER, report["id"])[0]), "the buttons are still there"
    refusals = [r for r in await harness.runtime.store.audit_log() if r.event == "report.refused"]
    assert len(refusals) == 3 and all(r.detail["why"] == "not_allowed" and r.actor == OTHER for r in refusals)

    await harness.click(ADMIN, report["id"], REPORT_APPROVE_TURN_ACTION)  # an admin may decide too
    _, data = await get_report(harness, token, report["id"], wait=10)
    assert data["status"] == "approved_turn" and data["decision_source"] == "admin" and data["decided_by"] == ADMIN
    await harness.click(OWNER, report["id"], REPORT_APPROVE_BOT_ACTION)
    await harness.eventually(lambda: any("already approved_turn" in t for t in harness.ephemerals(OWNER)))
    _, after = await get_report(harness, token, report["id"])
    assert after["status"] == "approved_turn" and after["decided_by"] == ADMIN
    assert await harness.runtime.store.list_standing() == []


async def test_concurrent_clicks_record_exactly_one_decision(harness: Harness) -> None:
    token = await add_bot(harness)
    report = await report_ok(harness, token)
    service = harness.runtime.deps.reports
    results = await asyncio.gather(
        service.decide(report["id"], actor=OWNER, choice="approve_turn"),
        service.decide(report["id"], actor=OWNER2, choice="resolve"),
        service.decide(report["id"], actor=ADMIN, choice="approve_bot"),
        return_exceptions=True,
    )
    winners = [r for r in results if not isinstance(r, BaseException)]
    assert len(winners) == 1 and sum("already" in str(r) for r in results if isinstance(r, BaseException)) == 2
    _, data = await get_report(harness, token, report["id"])
    assert data["status"] == winners[0].status
    live = await harness.runtime.store.list_standing(live_at=datetime.now(UTC))
    assert [a.id for a in live] == ([data["standing_approval_id"]] if data["status"] == "approved_bot" else []), (
        "a losing 'for this Bot' leaves no live standing approval"
    )


# -- folding -------------------------------------------------------------------------------------------------------
async def test_a_repeated_report_of_the_same_bot_and_host_folds_into_the_open_one(harness: Harness) -> None:
    token = await add_bot(harness)
    first = await report_ok(harness, token)
    status, second = await post_report(harness, token, {"line": PREFLIGHT_LINE, "host": "ci-7", "session_id": "s-43"})
    assert status == 200 and second["id"] == first["id"] and second["count"] == 2
    assert second["last_seen"] >= first["last_seen"] and second["first_seen"] == first["first_seen"]
    assert dm_posts(harness) == 2, "one DM per owner only"
    await harness.eventually(lambda: "reported 2×" in block_text(dms(harness, OWNER, first["id"])[0].blocks))
    other_host = await report_ok(harness, token, host="ci-8")
    assert other_host["id"] != first["id"] and dm_posts(harness) == 4
    assert "report.folded" in await audit_events(harness, first["id"])
    await harness.click(OWNER, first["id"], REPORT_RESOLVE_ACTION)
    await get_report(harness, token, first["id"], wait=10)
    again = await report_ok(harness, token)
    assert again["id"] != first["id"] and again["count"] == 1, "a decided report is not reopened"


async def test_concurrent_duplicate_reports_fold_into_one(harness: Harness) -> None:
    token = await add_bot(harness)
    body = {"line": PREFLIGHT_LINE, "host": "ci-7", "session_id": "s-42"}
    results = await asyncio.gather(*(post_report(harness, token, body) for _ in range(8)))
    assert sorted(status for status, _ in results) == [200] * 7 + [201], results
    assert len({data["id"] for _, data in results}) == 1
    _, final = await get_report(harness, token, results[0][1]["id"])
    assert final["count"] == 8
    assert dm_posts(harness) == 2


# -- the long-poll ---------------------------------------------------------------------------------------------------
async def test_the_long_poll_answers_open_after_the_wait_and_only_to_the_reporting_bot(harness: Harness) -> None:
    token = await add_bot(harness)
    other = await harness.add_bot("other-bot", owners=(OWNER,))
    report = await report_ok(harness, token)
    status, data = await get_report(harness, token, report["id"], wait=0.2)
    assert status == 200 and data["status"] == "open"
    status, problem = await get_report(harness, other, report["id"])
    assert status == 404 and problem["code"] == "not_found"
    status, problem = await get_report(harness, token, report["id"], wait=61)
    assert status == 422 and problem["errors"][0]["field"] == "wait"


# -- the DM card (pure) --------------------------------------------------------------------------------------------
def _card(**overrides: Any) -> CardReport:
    seen = datetime(2025, 1, 31, 14, 0, tzinfo=UTC)
    base: dict[str, Any] = dict(
        id="rep_1",
        bot_name="ci-bot",
        host="ci-7 <!channel> *x*",
        session_id="s-42",
        mode="workspace-write",
        missing=("bubblewrap", "landlock"),
        unlock=tuple(CardUnlock(o.id, o.text, o.command) for o in BLOCKED.unlock),
        status="open",
        count=1,
        first_seen=seen,
        last_seen=seen,
    )
    base.update(overrides)
    return CardReport(**base)


def test_the_dm_is_valid_block_kit_and_keeps_user_text_out_of_mrkdwn() -> None:
    for card in (
        _card(),
        _card(status="approved_bot", decided_by=OWNER, decided_at=datetime.now(UTC), standing_approval_id="sa_1"),
        _card(status="resolved", source="chat", reported_by=OTHER, channel=ROOM),
    ):
        message = report_dm(card)
        for block in message.blocks:
            model = Block.parse(block)
            assert model is not None and model.to_dict() == block, block
        mrkdwn = [d["text"] for b in message.blocks for d in [b.get("text") or {}] if d.get("type") == "mrkdwn"]
        assert all("<!channel>" not in t and "ci-7" not in t for t in mrkdwn)
        assert "<!channel>" not in message.text and "&lt;!channel&gt;" in message.text
        assert ("actions" in {b["type"] for b in message.blocks}) == (card.status == "open")


async def test_a_long_poll_answers_503_retryable_at_once_when_flybot_shuts_down(harness: Harness) -> None:
    token = await add_bot(harness)
    report = await report_ok(harness, token)
    service = harness.runtime.deps.reports
    waiting = asyncio.create_task(get_report(harness, token, report["id"], wait=30))
    await harness.eventually(lambda: service.waiters.waiting(report["id"]) == 1)
    started = asyncio.get_running_loop().time()
    await harness.stop_flybot()
    status, problem = await asyncio.wait_for(waiting, timeout=10)
    assert status == 503 and problem["code"] == "shutting_down", problem
    assert asyncio.get_running_loop().time() - started < 10


async def test_an_ordinary_room_message_is_acknowledged_not_answered_404(harness: Harness) -> None:
    # Slack retries a non-200 event delivery and disables the subscriptions of an app whose deliveries keep failing.
    await add_bot(harness)
    for text in ("good morning", "<!here> deploy at 5?", ""):
        async with harness.http.post(
            f"{harness.emu_url}/page/message", json={"user": OWNER, "channel": ROOM, "text": text}
        ) as response:
            answer = await response.json()
        assert answer["ok"] and answer["status"] == 200, (text, answer)
    assert dm_posts(harness) == 0
