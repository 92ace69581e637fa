"""Fallback approvers, end to end: two FlyBot replicas (real servers, real bolt apps) on one store
(SQLite file or PostgreSQL), the Slack emulation over HTTP with real request signing.

After ``FLYBOT_FALLBACK_AFTER_S`` without a decision, a Bot's fallback approvers (``--fallback-owner``,
``--fallback-group``; default the admins) get a DM copy of the card and may decide; the first decision anywhere wins
and every copy is updated.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from bot.app import RUNTIME
from bot.bots import register_bot
from bot.localchat.emulator import local_person_name
from cards import APPROVE_ACTION
from tests.harness import ADMIN, OTHER, OWNER, ROOM, Harness, block_text
from tests.routing import audit, click, ephemerals, eventually
from tests.test_bot_lifecycle import operator
from tests.test_operability import metric
from tests.test_replicas import Cluster

BACKUP = "U0BACKUP01"
AFTER_S = 1.5


async def start(
    replicas: Cluster,
    *,
    fallback_owners: list[str] | None = None,
    fallback_groups: list[str] | None = None,
    two_person: str | None = None,
    after_s: float = AFTER_S,
) -> str:
    await replicas.start(replicas=2, admins=(ADMIN,), fallback_after_s=after_s)
    replicas.emulator.users[BACKUP] = {"name": "bea", "real_name": "Bea (backup)", "is_admin": False, "is_owner": False}
    _bot, token = await register_bot(
        replicas.apps[0][RUNTIME].store,
        "ci-bot",
        [OWNER],
        ROOM,
        fallback_owners=fallback_owners,
        fallback_groups=fallback_groups,
        two_person=two_person,
    )
    return token


def dm_copy(replicas: Cluster, user: str, escalation_id: str) -> Any | None:
    dms = {cid for cid, c in replicas.emulator.channels.items() if c["is_im"] and c["user"] == user}
    return next(
        (
            m
            for m in replicas.emulator.messages
            if m.channel in dms and m.ephemeral_to is None and escalation_id in json.dumps(m.blocks)
        ),
        None,
    )


async def recorded_copy(replicas: Cluster, user: str, escalation_id: str) -> Any:
    """The DM copy of the escalation's card sent to ``user``, once FlyBot has recorded it in the store (a click on
    it is checked against the recorded copies; the emulation shows it a moment before FlyBot records it)."""
    await eventually(lambda: dm_copy(replicas, user, escalation_id) is not None, timeout=15)
    copy = dm_copy(replicas, user, escalation_id)
    store = replicas.apps[0][RUNTIME].store
    deadline = time.monotonic() + 15
    while (copy.channel, copy.ts) not in await store.card_copies(escalation_id):
        assert time.monotonic() < deadline, "the copy was never recorded"
        await asyncio.sleep(0.05)
    return copy


def has_buttons(message: Any) -> bool:
    return APPROVE_ACTION in json.dumps(message.blocks)


async def click_message(replicas: Cluster, user: str, message: Any, escalation_id: str, replica: int) -> None:
    replicas.events_to(replica)
    async with replicas.http.post(
        f"{replicas.emu_url}/page/click",
        json={
            "user": user,
            "channel": message.channel,
            "ts": message.ts,
            "action_id": APPROVE_ACTION,
            "block_id": "",
            "value": escalation_id,
        },
    ) as response:
        assert (await response.json())["status"] == 200


async def test_the_fallback_is_asked_after_the_delay_and_decides_and_every_copy_is_updated(replicas: Cluster) -> None:
    token = await start(replicas, fallback_owners=[BACKUP])
    esc = await replicas.escalate(0, token, timeout_s=60)
    await click(replicas, BACKUP, esc["id"], replica=1)  # too early: not an owner, not asked yet
    await eventually(lambda: ephemerals(replicas, BACKUP))
    assert "only the owners" in ephemerals(replicas, BACKUP)[-1].lower()
    assert dm_copy(replicas, BACKUP, esc["id"]) is None

    copy = await recorded_copy(replicas, BACKUP, esc["id"])
    assert has_buttons(copy) and "ci-bot asks to run one command" in block_text(copy.blocks)
    labels = [e["text"]["text"] for b in copy.blocks if b["type"] == "actions" for e in b["elements"]]
    assert labels == ["Approve", "Deny"], "a fallback approver's copy offers no standing choice"
    assert "Always for this Bot" in block_text(replicas.card(esc["id"]).blocks), "the room's card still does"
    assert "You have this copy as a fallback approver" in block_text(copy.blocks)
    assert "fallback approver" not in block_text(replicas.card(esc["id"]).blocks).replace(
        "Fallback approvers asked", ""
    )
    now = await replicas.get(0, token, esc["id"])
    assert now["status"] == "pending" and now["fallback_at"] is not None
    rows = await audit(replicas, esc["id"])
    assert [(d["asked"], d["named"]) for e, _a, d in rows if e == "escalation.fallback_asked"] == [([BACKUP], True)]
    await eventually(lambda: "Fallback approvers asked" in block_text(replicas.card(esc["id"]).blocks))

    await click_message(replicas, BACKUP, copy, esc["id"], replica=1)
    final = await replicas.get(0, token, esc["id"], wait=10)
    assert final["status"] == "approved" and final["decided_by"] == BACKUP and final["decision_source"] == "fallback"
    await eventually(
        lambda: not has_buttons(replicas.card(esc["id"])) and not has_buttons(dm_copy(replicas, BACKUP, esc["id"]))
    )
    assert "as a fallback approver" in block_text(dm_copy(replicas, BACKUP, esc["id"]).blocks)
    assert "You have this copy as a fallback approver" in block_text(dm_copy(replicas, BACKUP, esc["id"]).blocks)
    async with replicas.http.get(f"{replicas.urls[1]}/metrics") as response:  # the replica that took the click
        text = await response.text()
    assert metric(text, "flybot_decision_latency_seconds_count", decision_source="fallback", decider="fallback") == 1
    await asyncio.sleep(0.5)
    assert (
        len([m for m in replicas.emulator.messages if m.ephemeral_to is None and esc["id"] in json.dumps(m.blocks)])
        == 2
    ), "one card and one copy, across two replicas"


async def test_by_default_the_admins_are_asked_and_the_owner_still_wins_first(replicas: Cluster) -> None:
    token = await start(replicas)
    esc = await replicas.escalate(1, token, timeout_s=60)
    await eventually(lambda: dm_copy(replicas, ADMIN, esc["id"]) is not None, timeout=15)
    rows = await audit(replicas, esc["id"])
    assert [(d["asked"], d["named"]) for e, _a, d in rows if e == "escalation.fallback_asked"] == [([ADMIN], False)]
    await click(replicas, OWNER, esc["id"], replica=0)  # the room card: the first decision wins
    assert (await replicas.get(1, token, esc["id"], wait=10))["decision_source"] == "owner"
    await eventually(lambda: not has_buttons(dm_copy(replicas, ADMIN, esc["id"])))
    await click_message(replicas, ADMIN, dm_copy(replicas, ADMIN, esc["id"]), esc["id"], replica=1)
    await eventually(lambda: any("already approved" in t for t in ephemerals(replicas, ADMIN)))


async def test_a_fallback_groups_members_are_asked_and_one_decided_in_time_asks_no_one(replicas: Cluster) -> None:
    # The delay counts from the request: "in time" must leave room for the card's post and the click on a loaded
    # machine (a post took 2 s under a full CI run).
    after_s = 5.0
    token = await start(replicas, fallback_groups=["S0ONCALL1"], after_s=after_s)  # Olivia (an owner) and Oscar
    early = await replicas.escalate(0, token, timeout_s=60)
    await click(replicas, OWNER, early["id"])
    late = await replicas.escalate(0, token, timeout_s=60)
    copy = await recorded_copy(replicas, OTHER, late["id"])
    assert dm_copy(replicas, OWNER, late["id"]) is None, "an owner has the card already"
    await click_message(replicas, OTHER, copy, late["id"], replica=0)
    assert (await replicas.get(1, token, late["id"], wait=10))["decision_source"] == "fallback"
    await asyncio.sleep(after_s + 0.5)
    assert dm_copy(replicas, OTHER, early["id"]) is None
    assert "escalation.fallback_asked" not in [e for e, _a, _d in await audit(replicas, early["id"])]


async def test_the_operator_names_and_clears_fallback_approvers(harness: Harness) -> None:
    await harness.add_bot()
    changed = await operator(
        harness, "bots", "set", "ci-bot", "--fallback-owner", BACKUP, "--fallback-group", "S0ONCALL1"
    )
    shown = f"@{local_person_name(BACKUP)}"  # people by name, never their ids
    assert changed.returncode == 0 and f"fallback: {shown}, @flybot-oncall" in changed.stdout, changed.stderr
    assert changed.stderr == "", "a group local chat has: no warning"
    listed_line = (await operator(harness, "bots", "list")).stdout
    assert f"; fallback: {shown}, @flybot-oncall" in listed_line, "bots list shows the fallback approvers too"
    listed = json.loads((await operator(harness, "bots", "list", "--json")).stdout)[0]
    assert listed["fallback_owners"] == [BACKUP] and listed["fallback_groups"] == ["S0ONCALL1"]
    cleared = await operator(harness, "bots", "set", "ci-bot", "--fallback-owner", "-", "--fallback-group", "-")
    assert cleared.returncode == 0 and "fallback: (the admins)" in cleared.stdout
    bad = await operator(harness, "bots", "set", "ci-bot", "--fallback-owner", "bea")
    assert bad.returncode == 2 and "fallback owner 'bea' is not a Slack user ID" in bad.stderr


async def test_under_the_two_person_rule_a_fallback_approval_is_the_second_of_two(replicas: Cluster) -> None:
    token = await start(replicas, fallback_owners=[BACKUP], two_person="destructive-host")
    esc = await replicas.escalate(0, token, command="rm -rf /var/lib/app", timeout_s=60)
    await click(replicas, OWNER, esc["id"], replica=0)
    await eventually(lambda: "1 of 2 approvals" in block_text(replicas.card(esc["id"]).blocks))
    copy = await recorded_copy(replicas, BACKUP, esc["id"])
    assert "1 of 2 approvals" in block_text(copy.blocks), "the copy shows the count too"
    await click_message(replicas, BACKUP, copy, esc["id"], replica=1)
    final = await replicas.get(0, token, esc["id"], wait=10)
    assert final["status"] == "approved" and final["approvals"]["by"] == [OWNER, BACKUP]
    assert final["decision_source"] == "fallback"


async def test_slash_pending_lists_a_request_for_its_fallback_approver_once_asked(replicas: Cluster) -> None:
    token = await start(replicas, fallback_owners=[BACKUP])
    esc = await replicas.escalate(0, token, timeout_s=60)
    assert esc["id"] not in await replicas.slash(BACKUP, "pending", replica=1)
    await eventually(lambda: dm_copy(replicas, BACKUP, esc["id"]) is not None, timeout=15)
    assert esc["id"] in await replicas.slash(BACKUP, "pending", replica=0)
