"""Owner groups, end to end: two FlyBot replicas (real servers, real bolt apps) on one store (SQLite
file or PostgreSQL), the Slack emulation over HTTP with real request signing.

A Bot's owners may include Slack user groups (``--owner-group S…``), resolved when someone decides through
``usergroups.users.list`` and cached briefly (``FLYBOT_GROUP_CACHE_S``): a member removed from the group can no longer
decide once the copy is that old; a group Slack cannot read gives no one a say (fail closed).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

from bot.app import RUNTIME
from bot.bots import register_bot
from tests.harness import BOT_TOKEN, OTHER, OWNER, ROOM, SIGNING_SECRET, Harness
from tests.routing import audit, click, ephemerals, eventually
from tests.test_bot_lifecycle import operator
from tests.test_cli import clean_env
from tests.test_replicas import Cluster

GROUP = "S0ONCALL1"  # the emulation's built-in group: Olivia and Oscar
CACHE_S = 0.5


async def start(replicas: Cluster, groups: list[str]) -> str:
    await replicas.start(replicas=2, group_cache_s=CACHE_S)
    _bot, token = await register_bot(replicas.apps[0][RUNTIME].store, "ci-bot", [OWNER], ROOM, owner_groups=groups)
    return token


async def slack(replicas: Cluster, method: str, **args: Any) -> dict[str, Any]:
    """Call the emulated Slack Web API as a workspace admin's tool would (bearer token, form body)."""
    async with replicas.http.post(
        f"{replicas.emu_url}/api/{method}", data=args, headers={"Authorization": f"Bearer {BOT_TOKEN}"}
    ) as response:
        return dict(await response.json())


def group_lookups(replicas: Cluster) -> int:
    return sum(1 for c in replicas.emulator.calls if c["method"] == "usergroups.users.list")


async def test_a_group_member_decides_and_once_removed_no_longer_can(replicas: Cluster) -> None:
    token = await start(replicas, [GROUP])
    esc = await replicas.escalate(0, token)
    assert group_lookups(replicas) == 0, "groups are read when someone decides, not before"
    await click(replicas, OTHER, esc["id"], replica=1)
    final = await replicas.get(0, token, esc["id"], wait=10)
    assert final["status"] == "approved" and final["decided_by"] == OTHER and final["decision_source"] == "owner"
    assert group_lookups(replicas) >= 1

    removed = await slack(replicas, "usergroups.users.update", usergroup=GROUP, users=OWNER)
    assert removed["ok"], removed
    await asyncio.sleep(CACHE_S + 0.2)  # each replica's copy of the members is now older than FLYBOT_GROUP_CACHE_S
    for replica in (0, 1):
        esc = await replicas.escalate(replica, token)
        before = len(ephemerals(replicas, OTHER))
        await click(replicas, OTHER, esc["id"], replica=replica)
        await eventually(lambda n=before: len(ephemerals(replicas, OTHER)) > n)
        assert "only the owners" in ephemerals(replicas, OTHER)[-1].lower()
        assert (await replicas.get(replica, token, esc["id"]))["status"] == "pending"
        rows = await audit(replicas, esc["id"])
        assert ("decision.refused", OTHER, "not_allowed") in [(e, a, d.get("why")) for e, a, d in rows]
    await click(replicas, OWNER, esc["id"])  # listed owners are not affected
    assert (await replicas.get(0, token, esc["id"], wait=10))["status"] == "approved"


async def test_a_group_slack_cannot_read_gives_no_one_a_say(replicas: Cluster) -> None:
    token = await start(replicas, ["S0MISSING1", GROUP])
    esc = await replicas.escalate(0, token)
    # S0MISSING1 is no_such_subteam in the emulation (as in Slack); OTHER is in GROUP, listed after it.
    await click(replicas, OTHER, esc["id"])
    assert (await replicas.get(0, token, esc["id"], wait=10))["status"] == "approved"
    faulty = await replicas.escalate(1, token)
    async with replicas.http.post(
        f"{replicas.emu_url}/control/faults",
        json={"method": "usergroups.users.list", "status": 200, "count": 100, "error": "missing_scope"},
    ) as response:
        assert response.status == 200
    await asyncio.sleep(CACHE_S + 0.2)
    before = len(ephemerals(replicas, OTHER))
    await click(replicas, OTHER, faulty["id"], replica=1)
    await eventually(lambda: len(ephemerals(replicas, OTHER)) > before)
    assert "only the owners" in ephemerals(replicas, OTHER)[-1].lower()
    assert (await replicas.get(1, token, faulty["id"]))["status"] == "pending"


async def test_the_operator_sets_and_clears_owner_groups(harness: Harness) -> None:
    await harness.add_bot()
    added = await operator(harness, "bots", "add", "second", "--owner", OWNER, "--owner-group", GROUP)
    assert added.returncode == 0 and "owners @Olivia and the members of @flybot-oncall;" in added.stdout, added.stderr
    assert added.stderr == "", "local chat has this group: no warning"
    changed = await operator(harness, "bots", "set", "ci-bot", "--owner-group", GROUP, "--owner-group", "S0TEAM002")
    assert changed.returncode == 0 and "and the members of @flybot-oncall, S0TEAM002;" in changed.stdout, changed.stderr
    # A group local chat does not have is named in one warning line (it gives no one a say).
    assert changed.stderr.count("\n") == 1 and changed.stderr.startswith(
        "flybot: warning: group S0TEAM002: local chat has no such group"
    ), changed.stderr
    listed = await operator(harness, "bots", "list")
    assert "ci-bot: owners @Olivia and the members of @flybot-oncall, S0TEAM002;" in listed.stdout, listed.stdout
    cleared = await operator(harness, "bots", "set", "ci-bot", "--owner-group", "-")
    assert cleared.returncode == 0 and "members of" not in cleared.stdout
    bad = await operator(harness, "bots", "set", "ci-bot", "--owner-group", "oncall")
    assert bad.returncode == 2 and "not a Slack user group ID" in bad.stderr and "Traceback" not in bad.stderr
    bot = await harness.runtime.store.bot_by_name("ci-bot")
    assert bot is not None and bot.owner_groups == ()


async def test_a_group_member_is_an_owner_for_standing_approvals_and_the_pending_list(replicas: Cluster) -> None:
    token = await start(replicas, [GROUP])
    saved = await replicas.slash(OTHER, "standing add --bot ci-bot apt-get install", replica=1)
    assert saved.startswith("Saved"), saved
    esc = await replicas.escalate(0, token, command="rm -rf /srv/cache")
    assert esc["id"] in await replicas.slash(OTHER, "pending", replica=0)
    await slack(replicas, "usergroups.users.update", usergroup=GROUP, users=OWNER)
    await asyncio.sleep(CACHE_S + 0.2)
    again = await replicas.slash(OTHER, "standing add --bot ci-bot npm test", replica=0)
    assert not again.startswith("Saved") and "owners" in again.lower(), again
    assert esc["id"] not in await replicas.slash(OTHER, "pending", replica=1)


async def test_with_slack_groups_are_named_by_handle_and_an_unreadable_one_is_warned_about(harness: Harness) -> None:
    """Owner groups with Slack credentials (the emulation over HTTP): ``bots set`` names groups by their handle
    (``usergroups.list``), warns in one line about a group Slack will not show (``usergroups.users.list``), and the
    audit trail names the groups too."""
    await harness.add_bot()
    env = clean_env(
        FLYBOT_DATABASE_URL=f"sqlite+aiosqlite:///{harness.tmp / 'flybot.db'}",
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_SIGNING_SECRET=SIGNING_SECRET,
        FLYBOT_SLACK_API_URL=f"{harness.emu_url}/api/",
    )
    elsewhere = harness.tmp / "operator"
    elsewhere.mkdir(exist_ok=True)

    async def flybot(*args: str) -> subprocess.CompletedProcess[str]:
        return await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "bot", *args],
            cwd=elsewhere,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )

    changed = await flybot("bots", "set", "ci-bot", "--owner-group", GROUP, "--owner-group", "S0MISSING1")
    assert changed.returncode == 0, changed.stderr
    assert "owners @Olivia and the members of @flybot-oncall, S0MISSING1;" in changed.stdout, changed.stdout
    assert (
        changed.stderr == "flybot: warning: group S0MISSING1: Slack says no_such_subteam; its members cannot "
        "decide until that is fixed\n"
    ), changed.stderr
    fine = await flybot("bots", "set", "ci-bot", "--owner-group", GROUP)
    assert fine.returncode == 0 and fine.stderr == "", fine.stderr
    trail = await flybot("audit")
    assert trail.returncode == 0, trail.stderr
    assert "owner_groups=@flybot-oncall,S0MISSING1" in trail.stdout, trail.stdout
    assert "S0ONCALL1" not in trail.stdout, trail.stdout
