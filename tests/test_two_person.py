"""The two-person rule, end to end: two FlyBot replicas (real servers, real bolt apps) on one store
(SQLite file or PostgreSQL), the Slack emulation over HTTP with real request signing, clicks as people make them.

A Bot registered with ``--two-person destructive-host`` (or a deployment with ``FLYBOT_TWO_PERSON``) needs two
different people to approve a destructive command on the host: the first Approve marks the card "1 of 2 approvals
(by @…)"; the same person again is refused; a second person decides; a Deny by either ends it; the Bot's own chat
identity never approves; standing approvals never answer it.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from bot.app import RUNTIME
from bot.bots import register_bot
from cards import DENY_ACTION, DENY_REASON_BLOCK, DENY_REASON_INPUT
from tests.harness import ADMIN, OTHER, OWNER, ROOM, Harness, block_text
from tests.routing import audit, click, ephemerals, eventually
from tests.test_bot_lifecycle import operator
from tests.test_replicas import Cluster

OWNER2 = "U0OWNER02"
BOT_USER = "U0BOTUSER1"
DESTRUCTIVE = "rm -rf /var/lib/app"


async def start(
    replicas: Cluster, *, bot_rule: str | None = "destructive-host", chat_user: str | None = None, **settings: Any
) -> str:
    await replicas.start(replicas=2, admins=(ADMIN,), **settings)
    for user, name in ((OWNER2, "otto"), (BOT_USER, "ci-bot")):
        replicas.emulator.users[user] = {"name": name, "real_name": name, "is_admin": False, "is_owner": False}
    _bot, token = await register_bot(
        replicas.apps[0][RUNTIME].store, "ci-bot", [OWNER, OWNER2], ROOM, chat_user=chat_user, two_person=bot_rule
    )
    return token


def card_text(replicas: Cluster, escalation_id: str) -> str:
    return block_text(replicas.card(escalation_id).blocks)


async def test_two_people_approve_on_two_replicas_and_the_same_person_twice_is_refused(replicas: Cluster) -> None:
    token = await start(replicas)
    esc = await replicas.escalate(0, token, command=DESTRUCTIVE)
    assert esc["risk"] == "destructive" and esc["approvals"] == {"needed": 2, "by": []}
    assert "0 of 2 approvals" in card_text(replicas, esc["id"])
    waiter = asyncio.create_task(replicas.get(1, token, esc["id"], wait=25))

    await click(replicas, OWNER, esc["id"], replica=0)
    await eventually(lambda: "1 of 2 approvals" in card_text(replicas, esc["id"]))
    text = card_text(replicas, esc["id"])
    assert f"1 of 2 approvals (by <@{OWNER}>)" in text.replace("\n", "")
    assert any(b.get("type") == "actions" for b in replicas.card(esc["id"]).blocks), "still pending: buttons stay"
    assert any("Your approval is recorded: 1 of 2" in t for t in ephemerals(replicas, OWNER))
    assert (await replicas.get(0, token, esc["id"]))["status"] == "pending"
    assert not waiter.done()

    await click(replicas, OWNER, esc["id"], replica=1)  # the same person again, on the other replica
    await eventually(lambda: any("already gave the first approval" in t for t in ephemerals(replicas, OWNER)))
    # Replica 1 holds a long-poll on it: on one SQLite file its snapshot may be up to 1 s old (no NOTIFY there).
    deadline = time.monotonic() + 5
    while (now := await replicas.get(1, token, esc["id"]))["approvals"]["by"] != [OWNER]:
        assert time.monotonic() < deadline, now
        await asyncio.sleep(0.1)
    assert now["status"] == "pending"

    await click(replicas, OWNER2, esc["id"], replica=1)
    final = await asyncio.wait_for(waiter, 30)
    assert final["status"] == "approved" and final["decided_by"] == OWNER2
    assert final["approvals"] == {"needed": 2, "by": [OWNER, OWNER2]}
    assert final["decided_by_name"] == "@Olivia and @otto", "both approvers are named (what ask and hooks print)"
    await eventually(lambda: not any(b.get("type") == "actions" for b in replicas.card(esc["id"]).blocks))
    assert f"2 of 2 approvals (by <@{OWNER}> and <@{OWNER2}>" in card_text(replicas, esc["id"]).replace("\n", "")

    rows = await audit(replicas, esc["id"])
    approvals = [
        (actor, detail["n"], detail["needed"]) for event, actor, detail in rows if event == "escalation.approval"
    ]
    assert approvals == [(OWNER, 1, 2), (OWNER2, 2, 2)]
    assert [(actor, d["approvers"]) for event, actor, d in rows if event == "escalation.approved"] == [
        (OWNER2, [OWNER, OWNER2])
    ]
    assert ("decision.refused", OWNER) in [(e, a) for e, a, d in rows if d.get("why") == "same_person"]


async def test_a_deny_by_either_ends_it_after_the_first_approval(replicas: Cluster) -> None:
    token = await start(replicas)
    esc = await replicas.escalate(0, token, command=DESTRUCTIVE)
    await click(replicas, OWNER, esc["id"])
    await eventually(lambda: "1 of 2 approvals" in card_text(replicas, esc["id"]))
    await click(replicas, OWNER, esc["id"], DENY_ACTION, replica=1)  # the first approver may still deny
    await eventually(lambda: replicas.emulator.snapshot(OWNER)["modal"] is not None)
    modal = replicas.emulator.snapshot(OWNER)["modal"]
    async with replicas.http.post(
        f"{replicas.emu_url}/page/view_submit",
        json={
            "user": OWNER,
            "view_id": modal["id"],
            "values": {DENY_REASON_BLOCK: {DENY_REASON_INPUT: "not today"}},
        },
    ) as response:
        assert (await response.json())["status"] == 200
    final = await replicas.get(0, token, esc["id"], wait=10)
    assert final["status"] == "denied" and final["reason"] == "not today"
    await click(replicas, OWNER2, esc["id"], replica=0)  # too late: the deny stands
    await eventually(lambda: any("already denied" in t for t in ephemerals(replicas, OWNER2)))
    assert (await replicas.get(1, token, esc["id"]))["status"] == "denied"


async def test_two_first_approvals_at_once_on_two_replicas_make_exactly_one_decision(replicas: Cluster) -> None:
    token = await start(replicas)
    for _ in range(3):
        esc = await replicas.escalate(0, token, command=DESTRUCTIVE)
        await asyncio.gather(
            click(replicas, OWNER, esc["id"], replica=0),
            click(replicas, OWNER2, esc["id"], replica=1),
            click(replicas, OWNER, esc["id"], replica=1),
        )
        final = await replicas.get(0, token, esc["id"], wait=10)
        assert final["status"] == "approved"
        assert sorted(final["approvals"]["by"]) == sorted([OWNER, OWNER2])
        rows = await audit(replicas, esc["id"])
        assert [e for e, _a, _d in rows].count("escalation.approved") == 1
        assert [e for e, _a, _d in rows].count("escalation.approval") == 2


async def test_the_rule_covers_destructive_commands_on_the_host_only(replicas: Cluster) -> None:
    token = await start(replicas)
    contained = await replicas.escalate(0, token, command="rm -rf build", contained=True)
    assert contained["risk"] == "destructive" and contained["approvals"]["needed"] == 1
    system = await replicas.escalate(1, token, command="sudo apt-get install -y jq")
    assert system["approvals"]["needed"] == 1
    await click(replicas, OWNER, contained["id"])
    assert (await replicas.get(0, token, contained["id"], wait=10))["status"] == "approved"
    assert "approvals" not in card_text(replicas, contained["id"])


async def test_the_deployment_setting_applies_to_a_bot_without_its_own(replicas: Cluster) -> None:
    token = await start(replicas, bot_rule=None, two_person="destructive-host")  # FLYBOT_TWO_PERSON
    esc = await replicas.escalate(0, token, command=DESTRUCTIVE)
    assert esc["approvals"]["needed"] == 2
    await click(replicas, ADMIN, esc["id"])  # an admin's approval counts as one of the two
    await eventually(lambda: "1 of 2 approvals" in card_text(replicas, esc["id"]))
    await click(replicas, OWNER, esc["id"], replica=1)
    final = await replicas.get(0, token, esc["id"], wait=10)
    assert final["status"] == "approved" and final["approvals"]["by"] == [ADMIN, OWNER]


async def test_the_bots_own_chat_identity_never_approves(replicas: Cluster) -> None:
    await replicas.start(replicas=2, admins=(ADMIN,))
    replicas.emulator.users[OWNER2] = {"name": "otto", "real_name": "otto", "is_admin": False, "is_owner": False}
    # Even listed as an owner, the user the Bot posts as cannot approve its requests (two-person or not).
    _bot, token = await register_bot(
        replicas.apps[0][RUNTIME].store,
        "ci-bot",
        [OWNER, OWNER2],
        ROOM,
        chat_user=OWNER2,
        two_person="destructive-host",
    )
    for command in (DESTRUCTIVE, "sudo apt-get install -y jq"):
        esc = await replicas.escalate(0, token, command=command)
        before = len(ephemerals(replicas, OWNER2))
        await click(replicas, OWNER2, esc["id"])
        await eventually(lambda n=before: len(ephemerals(replicas, OWNER2)) > n)
        assert "own chat identity cannot approve" in ephemerals(replicas, OWNER2)[-1]
        now = await replicas.get(1, token, esc["id"])
        assert now["status"] == "pending" and now["approvals"]["by"] == []
        rows = await audit(replicas, esc["id"])
        assert ("decision.refused", OWNER2, "requester") in [(e, a, d.get("why")) for e, a, d in rows]


async def test_standing_approvals_do_not_answer_a_two_person_request(replicas: Cluster) -> None:
    token = await start(replicas)
    store = replicas.apps[0][RUNTIME].store
    bot = await store.bot_by_name("ci-bot")
    assert bot is not None
    standing = replicas.apps[0][RUNTIME].standing
    from bot.standing import StandingSpec

    await standing.create(
        ADMIN, StandingSpec(scope="bot", subject=bot.id, pattern="*", max_risk="system", contained_only=False)
    )
    esc = await replicas.escalate(0, token, command=DESTRUCTIVE)
    assert esc["status"] == "pending" and esc["card"]["status"] == "posted"
    assert esc["approvals"]["needed"] == 2 and esc["decision_source"] is None
    assert OTHER not in esc["approvals"]["by"]


async def test_the_operator_turns_the_rule_on_and_off_and_pending_requests_keep_theirs(harness: Harness) -> None:
    token = await harness.add_bot(owners=(OWNER, OWNER2))
    before = await harness.escalate(token, command=DESTRUCTIVE)
    assert before["approvals"]["needed"] == 1
    on = await operator(harness, "bots", "set", "ci-bot", "--two-person", "destructive-host")
    assert on.returncode == 0 and "two-person rule: destructive commands on the host" in on.stdout, on.stderr
    listed = await operator(harness, "bots", "list", "--json")
    assert json.loads(listed.stdout)[0]["two_person"] == "destructive-host"
    after = await harness.escalate(token, command=DESTRUCTIVE)
    assert after["approvals"]["needed"] == 2
    assert (await harness.get(token, before["id"]))[1]["approvals"]["needed"] == 1  # created under the old rule
    off = await operator(harness, "bots", "set", "ci-bot", "--two-person", "off")
    assert off.returncode == 0 and "two-person rule: (the deployment setting)" in off.stdout, off.stderr
    assert (await harness.escalate(token, command=DESTRUCTIVE))["approvals"]["needed"] == 1
    bad = await operator(harness, "bots", "set", "ci-bot", "--two-person", "always")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr and "Traceback" not in bad.stderr
    added = await operator(harness, "bots", "add", "second", "--owner", OWNER, "--two-person", "destructive-host")
    assert added.returncode == 0 and "two-person rule: destructive commands on the host" in added.stdout
    listed_lines = (await operator(harness, "bots", "list")).stdout  # the same words in add, set and list
    assert (
        "second: owners @Olivia; room (a DM to the first owner); chat user (none: reports through the API only); "
        "two-person rule: destructive commands on the host; fallback: (the admins)" in listed_lines
    ), listed_lines
