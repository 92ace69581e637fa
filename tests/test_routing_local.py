"""Approval routing in local chat: a real local-mode FlyBot (its own Slack emulation, the page API with the login
cookie) and the real CLI. The README's examples as written: the built-in group S0ONCALL1 owns the demo Bot; a
reminder in the card's thread; the admins' DM copy after the fallback delay, from which Ada decides, and every copy
is redrawn."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from tests.harness import log_in_local, person_session
from tests.test_cli import clean_env
from tests.test_local_access import PAGE, Local, _start

OLIVIA, ADA, OSCAR = "U0OWNER01", "U0ADMIN01", "U0OTHER01"


async def _state(person: aiohttp.ClientSession, local: Local, viewer: str) -> dict[str, Any]:
    async with person.get(f"{local.url}{PAGE}/state", params={"user": viewer}) as response:
        assert response.status == 200, await response.text()
        data: dict[str, Any] = await response.json()
        return data


async def _until(check: Any, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = await check()
        if found:
            return found
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.1)


async def _escalate(local: Local, **extra: Any) -> dict[str, Any]:
    async with (
        aiohttp.ClientSession() as agent,
        agent.post(
            f"{local.url}/v1/escalations",
            headers={"Authorization": f"Bearer {local.demo_token}"},
            json={
                "session_id": "s-1",
                "command": "sudo apt-get install -y jq",
                "cwd": "/work",
                "contained": False,
                "file_policy": "workspace-write",
                "approval_policy": "ask",
                **extra,
            },
        ) as response,
    ):
        assert response.status == 201, await response.text()
        data: dict[str, Any] = await response.json()
        return data


async def _status(local: Local, escalation_id: str, wait: float = 0) -> dict[str, Any]:
    async with (
        aiohttp.ClientSession() as agent,
        agent.get(
            f"{local.url}/v1/escalations/{escalation_id}",
            params={"wait": str(wait)},
            headers={"Authorization": f"Bearer {local.demo_token}"},
        ) as response,
    ):
        data: dict[str, Any] = await response.json()
        return data


def _with(messages: list[dict[str, Any]], escalation_id: str) -> list[dict[str, Any]]:
    return [m for m in messages if escalation_id in json.dumps(m["blocks"]) and not m["ephemeral"]]


async def _click(person: aiohttp.ClientSession, local: Local, user: str, message: dict[str, Any], value: str) -> None:
    async with person.post(
        f"{local.url}{PAGE}/click",
        json={
            "user": user,
            "channel": message["channel"],
            "ts": message["ts"],
            "action_id": "escalation_approve",
            "block_id": "",
            "value": value,
        },
    ) as response:
        assert (await response.json())["status"] == 200


async def test_the_built_in_group_owns_the_demo_bot_after_the_readmes_command(tmp_path: Path) -> None:
    local, runner = await _start(tmp_path)
    try:
        escalation = await _escalate(local)
        async with person_session() as person:
            await log_in_local(person, local.app, local.url)
            card = await _until(lambda: _card_of(person, local, escalation["id"]))
            await _click(person, local, OSCAR, card, escalation["id"])  # not yet an owner: refused
            assert (await _status(local, escalation["id"]))["status"] == "pending"
            done = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "bot", "bots", "set", "demo", "--owner-group", "S0ONCALL1"],
                cwd=tmp_path,
                env=clean_env(),
                capture_output=True,
                text=True,
                timeout=60,
                stdin=subprocess.DEVNULL,
            )
            assert done.returncode == 0, done.stderr
            await _click(person, local, OSCAR, card, escalation["id"])
            decided = await _status(local, escalation["id"], wait=10)
            assert decided["status"] == "approved" and decided["decided_by"] == OSCAR
            assert decided["decision_source"] == "owner"
    finally:
        await runner.cleanup()


async def _card_of(person: aiohttp.ClientSession, local: Local, escalation_id: str) -> dict[str, Any] | None:
    cards = _with((await _state(person, local, OLIVIA))["messages"], escalation_id)
    return cards[0] if cards else None


async def test_reminder_and_fallback_in_local_chat_and_ada_decides_from_her_dm(tmp_path: Path) -> None:
    local, runner = await _start(tmp_path, fallback_after_s=3.0)
    try:
        escalation = await _escalate(local, timeout_s=8)  # reminded at 4 s; Ada (the demo admin) asked at 3 s
        async with person_session() as person:
            await log_in_local(person, local.app, local.url)
            card = await _until(lambda: _card_of(person, local, escalation["id"]))

            async def reminder() -> dict[str, Any] | None:
                messages = (await _state(person, local, OLIVIA))["messages"]
                return next((m for m in messages if m.get("thread_ts") == card["ts"]), None)

            async def copy() -> dict[str, Any] | None:
                state = await _state(person, local, ADA)
                dms = {c["id"] for c in state["channels"] if c["is_im"]}
                found = [m for m in _with(state["messages"], escalation["id"]) if m["channel"] in dms]
                return found[0] if found else None

            dm = await _until(copy)

            async def marked() -> bool:
                return "Fallback approvers asked" in json.dumps(await _card_of(person, local, escalation["id"]) or {})

            await _until(marked)
            note = await _until(reminder)
            assert f"<@{OLIVIA}>" in note["text"] and "still waiting for a decision" in note["text"]
            await _click(person, local, ADA, dm, escalation["id"])
            decided = await _status(local, escalation["id"], wait=10)
            assert decided["status"] == "approved" and decided["decided_by"] == ADA

            async def redrawn() -> bool:
                room = await _card_of(person, local, escalation["id"])
                mine = await copy()
                return bool(
                    room
                    and mine
                    and "escalation_approve" not in json.dumps(room["blocks"])
                    and "escalation_approve" not in json.dumps(mine["blocks"])
                )

            await _until(redrawn)
    finally:
        await runner.cleanup()


async def test_flybot_ask_names_both_approvers_under_the_two_person_rule(tmp_path: Path) -> None:
    """Under the two-person rule ``flybot ask`` (and the hooks, through the same ``decided_by_name``) names both
    approvers."""
    local, runner = await _start(tmp_path)
    try:
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "bot", "bots", "set", "demo", "--two-person", "destructive-host"],
            cwd=tmp_path,
            env=clean_env(),
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 0, done.stderr
        ask = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "ask",
            "--timeout",
            "60",
            "--",
            "rm",
            "-rf",
            "/var/lib/app",
            cwd=tmp_path,
            env=clean_env(),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            stdin=asyncio.subprocess.DEVNULL,
        )
        try:
            async with person_session() as person:
                await log_in_local(person, local.app, local.url)

                async def card() -> dict[str, Any] | None:
                    messages = (await _state(person, local, OLIVIA))["messages"]
                    return next(
                        (
                            m
                            for m in messages
                            if not m["ephemeral"]
                            and "/var/lib/app" in json.dumps(m["blocks"])
                            and "escalation_approve" in json.dumps(m["blocks"])
                        ),
                        None,
                    )

                message = await _until(card, timeout=30)
                value = next(
                    e["value"]
                    for b in message["blocks"]
                    if b["type"] == "actions"
                    for e in b["elements"]
                    if e["action_id"] == "escalation_approve"
                )
                await _click(person, local, OLIVIA, message, value)
                assert (await _status(local, value))["approvals"]["by"] == [OLIVIA]
                await _click(person, local, ADA, message, value)
            out, err = await asyncio.wait_for(ask.communicate(), 60)
        finally:
            if ask.returncode is None:
                ask.kill()
                await ask.wait()
        assert ask.returncode == 0, err.decode()
        assert out.decode().startswith("approved by @Olivia and @Ada (escalation "), out.decode()
    finally:
        await runner.cleanup()
