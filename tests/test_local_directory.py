"""Local chat knows who the README names. A real local-mode FlyBot on loopback, the real CLI in the same
directory, a person using the page API with the login cookie."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from bot.app import DEMO_BOT, EMULATOR, RUNTIME
from bot.bots import update_bot
from bot.localchat.emulator import SlackEmulator
from bot.state_home import state_home
from tests.harness import BOT_TOKEN, OWNER, ROOM, SIGNING_SECRET, Harness, log_in_local, person_session
from tests.test_cli import clean_env
from tests.test_local_access import PAGE, Local, _start


async def _card(local: Local, escalation_id: str) -> dict[str, Any]:
    emulator: SlackEmulator = local.app[EMULATOR]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the card is posted after the 201
        for message in emulator.messages:
            if escalation_id in json.dumps(message.blocks) and message.ephemeral_to is None:
                return {"channel": message.channel, "ts": message.ts}
        await asyncio.sleep(0.05)
    raise AssertionError("no card was posted")


async def _escalate(http: aiohttp.ClientSession, local: Local, token: str, **extra: Any) -> dict[str, Any]:
    body = {
        "session_id": "s-42",
        "command": "sudo apt-get install -y jq",
        "cwd": "/work/repo",
        "file_policy": "workspace-write",
        "approval_policy": "ask",
        "contained": False,
        **extra,
    }
    async with http.post(
        f"{local.url}/v1/escalations", json=body, headers={"Authorization": f"Bearer {token}"}
    ) as response:
        assert response.status == 201, await response.text()
        data: dict[str, Any] = await response.json()
        return data


async def test_the_readme_bots_add_example_works_in_local_chat_as_written(tmp_path: Path) -> None:
    local, runner = await _start(tmp_path)
    try:
        added = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "bot", "bots", "add", "builder", "--owner", "U0123ABCD", "--room", "C0789IJKL"],
            cwd=tmp_path,
            env=clean_env(),
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert added.returncode == 0, added.stderr
        token = added.stdout.strip().splitlines()[-1]
        async with person_session() as person:
            await log_in_local(person, local.app, local.url)
            escalation = await _escalate(person, local, token)
            card = await _card(local, escalation["id"])
            assert card["channel"] == "C0789IJKL"
            async with person.get(f"{local.url}{PAGE}/state", params={"user": "U0123ABCD"}) as response:
                assert response.status == 200, await response.text()
                state = await response.json()
            owner = next(u for u in state["users"] if u["id"] == "U0123ABCD")
            assert owner["real_name"].endswith("(U0123ABCD)") and not owner["is_admin"]
            room = next(c for c in state["channels"] if c["id"] == "C0789IJKL")
            assert room["name"] == "room-c0789ijkl"
            click = {
                "user": "U0123ABCD",
                "channel": card["channel"],
                "ts": card["ts"],
                "action_id": "escalation_approve",
                "block_id": "",
                "value": escalation["id"],
            }
            async with person.post(f"{local.url}{PAGE}/click", json=click) as response:
                assert (await response.json())["status"] == 200
            async with person.get(
                f"{local.url}/v1/escalations/{escalation['id']}",
                params={"wait": "30"},
                headers={"Authorization": f"Bearer {token}"},
            ) as response:
                decided = await response.json()
            assert decided["status"] == "approved" and decided["decided_by"] == "U0123ABCD", decided
    finally:
        await runner.cleanup()
    # the learned person and room survive a restart of local mode
    saved = json.loads((state_home() / "localchat.json").read_text())
    assert "U0123ABCD" in [u["id"] for u in saved["users"]]
    assert "C0789IJKL" in [c["id"] for c in saved["channels"]]


async def test_the_readme_api_example_room_gets_the_card_not_undeliverable(tmp_path: Path) -> None:
    local, runner = await _start(tmp_path)
    try:
        demo = json.loads((state_home() / "local.json").read_text())["token"]
        # A request may name only its Bot's rooms: the operator allows the example's room for the demo Bot.
        await update_bot(local.app[RUNTIME].store, DEMO_BOT, actor="operator:test", allowed_rooms=["C0123ABCD"])
        async with aiohttp.ClientSession() as agent:
            escalation = await _escalate(agent, local, demo, room="C0123ABCD", justification="need jq", timeout_s=300)
            card = await _card(local, escalation["id"])
            assert card["channel"] == "C0123ABCD"
            async with agent.get(
                f"{local.url}/v1/escalations/{escalation['id']}", headers={"Authorization": f"Bearer {demo}"}
            ) as response:
                assert (await response.json())["status"] == "pending"
    finally:
        await runner.cleanup()


async def test_ids_that_are_not_slack_ids_are_not_learned(tmp_path: Path) -> None:
    local, runner = await _start(tmp_path)
    try:
        emulator: SlackEmulator = local.app[EMULATOR]
        assert not emulator.learn(users=["olivia", "U0"], channels=["#general", "general", "D0123ABCD"])
        assert emulator.learn(users=["U0456EFGH"], channels=["G0123ABCD"])
    finally:
        await runner.cleanup()


async def test_bots_add_with_slack_credentials_warns_in_one_line_about_unknown_owners_and_rooms(
    harness: Harness, tmp_path: Path
) -> None:
    harness.emulator.channels["C0ELSEWHR"] = {
        "id": "C0ELSEWHR",
        "name": "elsewhere",
        "is_im": False,
        "user": None,
        "is_member": False,
    }
    env = {
        "SLACK_BOT_TOKEN": BOT_TOKEN,
        "SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "FLYBOT_SLACK_API_URL": f"{harness.emu_url}/api/",
        "FLYBOT_DATABASE_URL": f"sqlite+aiosqlite:///{harness.tmp / 'flybot.db'}",
    }

    def add(name: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", "bots", "add", name, *args],
            cwd=tmp_path,
            env=clean_env(**env),
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )

    unknown = await asyncio.to_thread(add, "ghosts", "--owner", "U0NOBODY1", "--room", "C0NOWHERE")
    assert unknown.returncode == 0, unknown.stderr  # registered all the same: a warning, not a refusal
    (line,) = unknown.stderr.strip().splitlines()
    assert (
        "owner U0NOBODY1: Slack says user_not_found" in line and "room C0NOWHERE: Slack says channel_not_found" in line
    )
    outside = await asyncio.to_thread(add, "outsider", "--owner", OWNER, "--room", "C0ELSEWHR")
    assert outside.returncode == 0 and "FlyBot is not in #elsewhere; invite @flybot there" in outside.stderr
    fine = await asyncio.to_thread(add, "fine", "--owner", OWNER, "--room", ROOM)
    assert fine.returncode == 0 and fine.stderr.strip() == "", fine.stderr


async def test_the_docs_bots_list_line_and_fallback_names_are_what_local_chat_prints(tmp_path: Path) -> None:
    """The ``bots add`` example in docs/bots.md with every option, run as written (brackets dropped), gives the very
    ``bots list`` line the page shows; and docs/routing.md's fallback example's person is called what local chat calls
    them."""
    import re
    import shlex

    from bot.localchat.emulator import local_person_name

    docs = Path(__file__).resolve().parents[1] / "docs"
    bots, routing = (docs / "bots.md").read_text(), (docs / "routing.md").read_text()
    example = re.search(r"^flybot bots add builder (.*?)\nflybot bots list$", bots, re.M | re.S)
    assert example is not None
    args = shlex.split(example.group(1).replace("\\\n", " ").replace("[", "").replace("]", ""))
    shown = re.search(r"`bots list` prints \(in local chat\)\n\n```text\n(.*?)\n```", bots)
    assert shown is not None
    local, runner = await _start(tmp_path)
    try:

        def flybot(*argv: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [sys.executable, "-m", "bot", *argv],
                cwd=tmp_path,
                env=clean_env(),
                capture_output=True,
                text=True,
                timeout=60,
                stdin=subprocess.DEVNULL,
            )

        added = await asyncio.to_thread(flybot, "bots", "add", "builder", *args)
        assert added.returncode == 0 and added.stderr == "", added.stderr
        listed = await asyncio.to_thread(flybot, "bots", "list")
        assert listed.returncode == 0, listed.stderr
        assert shown.group(1) in listed.stdout.splitlines(), listed.stdout
        assert f"Registered Bot {shown.group(1)}" in added.stdout, "bots add prints the same line"
    finally:
        await runner.cleanup()
    fallback = re.search(r"^flybot bots set builder --fallback-owner (U[A-Z0-9]+)", routing, re.M)
    assert fallback is not None
    name = local_person_name(fallback.group(1))
    section = routing[routing.index("## Fallback approvers") : routing.index("## Two people")]
    assert f"Approved by @{name} " in section and f"{name} gets" in section, name
    assert not any(re.search(r"\bBea\b", page.read_text()) for page in docs.glob("*.md"))


def test_each_emulation_owns_its_people_so_a_profile_change_reaches_no_other() -> None:
    """A display name changed in one emulation (as a test or a profile edit does) stays there: it never
    reaches the built-in people of a later emulation in the process, nor, through them, other tests' names."""
    from bot.localchat.emulator import DEFAULT_USERS, local_person_name

    first = SlackEmulator(bot_token=BOT_TOKEN, signing_secret=SIGNING_SECRET)
    user = next(iter(first.users))
    before = local_person_name(user)
    first.users[user]["display_name"] = "Changed\u202e"
    second = SlackEmulator(bot_token=BOT_TOKEN, signing_secret=SIGNING_SECRET)
    assert second.users[user]["display_name"] == before == DEFAULT_USERS[user]["display_name"]
    assert local_person_name(user) == before
