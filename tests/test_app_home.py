"""App Home copies, end to end: two FlyBot replicas (real servers, real bolt apps) on one store (SQLite
file or PostgreSQL), the Slack emulation over HTTP with real request signing.

Pending escalations appear on the Home of everyone who may decide them (owners, admins, and fallback approvers once
asked), with the card's buttons; a decision anywhere (room card, DM copy, Home) redraws every Home that showed it.
"""

from __future__ import annotations

import json
from typing import Any

from bot.app import RUNTIME
from bot.bots import register_bot
from cards import APPROVE_ACTION
from tests.harness import ADMIN, OTHER, OWNER, ROOM
from tests.routing import click, eventually
from tests.test_replicas import Cluster

BACKUP = "U0BACKUP01"


async def start(replicas: Cluster, **settings: Any) -> str:
    await replicas.start(replicas=2, admins=(ADMIN,), **settings)
    replicas.emulator.users[BACKUP] = {"name": "bea", "real_name": "Bea (backup)", "is_admin": False, "is_owner": False}
    _bot, token = await register_bot(replicas.apps[0][RUNTIME].store, "ci-bot", [OWNER], ROOM, fallback_owners=[BACKUP])
    return token


async def open_home(replicas: Cluster, user: str, replica: int) -> None:
    replicas.events_to(replica)
    async with replicas.http.post(f"{replicas.emu_url}/page/home_opened", json={"user": user}) as response:
        assert (await response.json())["ok"]


def home_buttons(replicas: Cluster, user: str) -> set[str]:
    """The escalation ids ``user``'s Home offers Approve (or Review and approve) for."""
    shown = replicas.emulator.home.get(user)
    if shown is None:
        return set()
    return {
        str(e.get("value"))
        for b in shown.view["blocks"]
        if b.get("type") == "actions" and str(b.get("block_id", "")).startswith("home_pending:")
        for e in b["elements"]
        if e.get("style") == "primary"
    }


async def test_pending_escalations_show_on_the_homes_that_may_decide_and_a_decision_anywhere_clears_them(
    replicas: Cluster,
) -> None:
    token = await start(replicas)
    for replica, user in enumerate((OWNER, ADMIN, OTHER)):
        await open_home(replicas, user, replica % 2)
    first = await replicas.escalate(0, token)
    second = await replicas.escalate(1, token)
    for user in (OWNER, ADMIN):
        await eventually(lambda u=user: home_buttons(replicas, u) == {first["id"], second["id"]})
    assert home_buttons(replicas, OTHER) == set(), "not an owner or admin: nothing to decide"

    replicas.events_to(1)  # Approve on Olivia's Home, on the other replica
    async with replicas.http.post(
        f"{replicas.emu_url}/page/click",
        json={
            "user": OWNER,
            "view_id": f"VH{OWNER}",
            "action_id": APPROVE_ACTION,
            "block_id": f"home_pending:{first['id']}",
            "value": first["id"],
        },
    ) as response:
        assert (await response.json())["status"] == 200
    assert (await replicas.get(0, token, first["id"], wait=10))["status"] == "approved"
    await eventually(lambda: APPROVE_ACTION not in json.dumps(replicas.card(first["id"]).blocks))
    for user in (OWNER, ADMIN):  # Ada's Home, too, was redrawn
        await eventually(lambda u=user: home_buttons(replicas, u) == {second["id"]})

    await click(replicas, ADMIN, second["id"], replica=0)  # the room card
    assert (await replicas.get(1, token, second["id"], wait=10))["status"] == "approved"
    for user in (OWNER, ADMIN):
        await eventually(lambda u=user: home_buttons(replicas, u) == set())
    assert "Nothing is waiting for you" in json.dumps(replicas.emulator.home[OWNER].view)


async def test_a_fallback_approvers_home_shows_the_request_once_they_are_asked(replicas: Cluster) -> None:
    token = await start(replicas, fallback_after_s=1.5)
    await open_home(replicas, BACKUP, 1)
    esc = await replicas.escalate(0, token, timeout_s=60)
    await eventually(lambda: "Waiting for a decision* (0)" in json.dumps(replicas.emulator.home[BACKUP].view))
    await eventually(lambda: home_buttons(replicas, BACKUP) == {esc["id"]}, timeout=15)
    await click(replicas, OWNER, esc["id"], replica=1)
    await eventually(lambda: home_buttons(replicas, BACKUP) == set())
