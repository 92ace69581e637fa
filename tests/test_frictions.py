"""Small frictions a newcomer meets, each handled where the person meets it."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from cards import DENY_ACTION, STANDING_BOT_ACTION, STANDING_SCOPE_BLOCK, STANDING_SCOPE_INPUT
from tests.harness import ADMIN, OWNER, ROOM, Harness
from tests.served import HEALTHZ, Served, exchange, printed_login
from tests.test_cli import clean_env
from tests.test_standing import asks, modal_values


async def test_standing_add_takes_the_rest_of_the_line_as_the_pattern_dashes_and_all(harness: Harness) -> None:
    await harness.add_bot()
    reply = await harness.slash(OWNER, "standing add --bot ci-bot rm -rf")
    assert "unrecognized arguments" not in reply and "`rm -rf` is destructive (rm deletes)" in reply, reply
    reply = await harness.slash(OWNER, "standing add --bot ci-bot apt-get install -y --expires 7d")
    (saved,) = await harness.runtime.store.list_standing()
    assert saved.pattern == "apt-get install -y" and saved.expires_at is not None, reply
    reply = await harness.slash(OWNER, "standing add --bot ci-bot -- npm test --note x")
    assert sorted(a.pattern for a in await harness.runtime.store.list_standing()) == [
        "apt-get install -y",
        "npm test --note x",
    ], reply


def test_a_missing_codex_binary_exits_2_as_the_docs_say(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "codex", "--codex", str(tmp_path / "no-codex"), "--", "hi"],
        env=clean_env(PATH=str(tmp_path)),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and "no codex found" in done.stderr, (done.returncode, done.stderr)
    adapters = (Path(__file__).resolve().parent.parent / "docs" / "adapters.md").read_text()
    assert "**2:** usage error, or no Codex binary found" in adapters


async def test_serve_prints_its_login_url_only_once_the_port_answers(tmp_path: Path) -> None:
    """Whoever opens the printed URL at once is answered: the banner comes after the listener accepts (a scripted
    start that connects on the banner got "connection refused" before)."""
    env = clean_env(
        FLYBOT_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'flybot.db'}",
        FLYBOT_PORT="0",
        FLYBOT_STATE_DIR=str(tmp_path / ".flybot"),
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
    )
    try:
        assert process.stdout is not None
        banner = await asyncio.to_thread(process.stdout.readline)
        found = re.search(rb"http://127\.0\.0\.1:(\d+)/", banner)
        assert found and "/?key=" in printed_login(banner.decode(), tmp_path / ".flybot"), banner
        served = Served(
            f"http://127.0.0.1:{found.group(1).decode()}", int(found.group(1)), "", tmp_path / "x.log", process
        )
        status, _headers, _body = await exchange(served, HEALTHZ)  # one try, no retry
        assert status == 200
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stdout is not None:
            process.stdout.close()


async def test_a_modal_left_open_does_not_come_back_on_a_reload_or_in_another_browser(harness: Harness) -> None:
    token = await harness.add_bot()
    escalation = await harness.escalate(token)
    card = harness.card_for(escalation["id"])
    block_id = next(b["block_id"] for b in card["blocks"] if b.get("type") == "actions")

    async def deny_from(client: str) -> None:
        async with harness.http.post(
            f"{harness.emu_url}/page/click",
            json={
                "user": OWNER,
                "channel": card["channel"],
                "ts": card["ts"],
                "action_id": DENY_ACTION,
                "block_id": block_id,
                "value": escalation["id"],
                "client": client,
            },
        ) as response:
            assert (await response.json())["ok"]

    async def modal_in(client: str) -> dict[str, Any] | None:
        async with harness.http.get(
            f"{harness.emu_url}/page/state", params={"user": OWNER, "client": client}
        ) as response:
            modal: dict[str, Any] | None = (await response.json())["modal"]
            return modal

    await deny_from("first-load")
    await harness.eventually(lambda: bool(harness.emulator.views))
    assert (await modal_in("first-load")) is not None  # the page that clicked shows its Deny modal
    assert (await modal_in("after-reload")) is None  # a reload (or another browser) does not
    await deny_from("after-reload")
    await harness.eventually(lambda: any(v.client == "after-reload" for v in harness.emulator.views.values()))
    assert (await modal_in("after-reload")) is not None
    assert (await modal_in("first-load")) is None and len(harness.emulator.views) == 1


async def test_the_room_wide_choice_is_offered_to_admins_only_inside_their_modal(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await asks(harness, token, command="apt-get install -y jq", contained=True)
    labels = [
        e["text"]["text"]
        for b in harness.card_for(esc["id"])["blocks"]
        if b.get("type") == "actions"
        for e in b["elements"]
    ]
    assert "Always for this room" not in labels and "Always for this Bot" in labels  # no button refused after a click

    await harness.click(OWNER, esc["id"], STANDING_BOT_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER))
    owners = harness.open_modal(OWNER)
    assert owners is not None and STANDING_SCOPE_BLOCK not in [b.get("block_id") for b in owners["view"]["blocks"]]
    forged = modal_values(owners["view"])
    forged[STANDING_SCOPE_BLOCK] = {
        STANDING_SCOPE_INPUT: {"type": "radio_buttons", "selected_option": {"value": "room"}}
    }
    await harness.submit_modal(OWNER, owners["id"], forged)
    still = harness.open_modal(OWNER)
    assert still is not None and "only admins" in str(still["errors"])
    assert await harness.runtime.store.list_standing() == []

    await harness.click(ADMIN, esc["id"], STANDING_BOT_ACTION)
    await harness.eventually(lambda: harness.open_modal(ADMIN))
    admins = harness.open_modal(ADMIN)
    assert admins is not None
    values = modal_values(admins["view"])
    assert values[STANDING_SCOPE_BLOCK][STANDING_SCOPE_INPUT]["selected_option"]["value"] == "bot"
    values[STANDING_SCOPE_BLOCK] = {
        STANDING_SCOPE_INPUT: {"type": "radio_buttons", "selected_option": {"value": "room"}}
    }
    await harness.submit_modal(ADMIN, admins["id"], values)
    (approval,) = await harness.runtime.store.list_standing()
    assert (approval.scope, approval.subject) == ("room", ROOM)
