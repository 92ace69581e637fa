"""Notes on standing approvals and program rules are one line of printable text: a newline, a control character or
a hidden character (bidi override, zero-width, non-ASCII space) is refused on every surface, naming the character."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.risk.hidden import hidden_characters
from cards import STANDING_BOT_ACTION, STANDING_NOTE_BLOCK, STANDING_NOTE_INPUT
from tests.harness import ADMIN, OWNER, ROOM, Harness
from tests.test_cli import clean_env
from tests.test_standing import _admin_token, asks, modal_values

HOSTILE = [
    ("two\nlines", "U+000A"),
    ("tab\there", "U+0009"),
    ("bell\x07", "U+0007"),
    ("ok \u202edesrever", "U+202E"),
    ("zero\u200bwidth", "U+200B"),
    ("no\u00a0break", "U+00A0"),
    ("tag\U000e0041", "U+E0041"),
    ("filler\u3164", "U+3164"),
]
EVERYDAY = ["toolchain installs", "Ünïcödé ok: 日本語, emoji ⚠️ and 🧑‍💻", "  trimmed  "]


@pytest.mark.parametrize(("note", "code"), HOSTILE)
async def test_the_admin_api_refuses_a_standing_note_with_hidden_characters(
    harness: Harness, note: str, code: str
) -> None:
    admin = await _admin_token(harness)
    body = {"scope": "room", "room": ROOM, "pattern": "npm test", "note": note}
    async with harness.http.post(
        f"{harness.url}/v1/standing-approvals", json=body, headers={"Authorization": f"Bearer {admin}"}
    ) as r:
        problem = await r.json(content_type=None)
    assert r.status == 422 and r.content_type == "application/problem+json", problem
    assert problem["errors"][0]["field"] == "note" and code in problem["errors"][0]["message"], problem
    assert await harness.runtime.store.list_standing() == []


@pytest.mark.parametrize(("note", "code"), HOSTILE)
async def test_the_admin_api_refuses_a_program_rule_note_with_hidden_characters(
    harness: Harness, note: str, code: str
) -> None:
    admin = await _admin_token(harness)
    async with harness.http.put(
        f"{harness.url}/v1/program-rules/acmecc",
        json={"grade": "workspace_write", "note": note},
        headers={"Authorization": f"Bearer {admin}"},
    ) as r:
        problem = await r.json(content_type=None)
    assert r.status == 422 and problem["errors"][0]["field"] == "note", problem
    assert code in problem["errors"][0]["message"], problem
    assert await harness.runtime.store.program_rules() == []


@pytest.mark.parametrize("note", EVERYDAY)
async def test_everyday_notes_are_kept_on_both(harness: Harness, note: str) -> None:
    admin = await _admin_token(harness)
    auth = {"Authorization": f"Bearer {admin}"}
    body = {"scope": "room", "room": ROOM, "pattern": "npm test", "note": note}
    async with harness.http.post(f"{harness.url}/v1/standing-approvals", json=body, headers=auth) as r:
        assert r.status == 201, await r.text()
        assert (await r.json())["note"] == note.strip()
    async with harness.http.put(
        f"{harness.url}/v1/program-rules/acmecc", json={"grade": "workspace_write", "note": note}, headers=auth
    ) as r:
        assert r.status == 200, await r.text()
        assert (await r.json())["note"] == note.strip()


@pytest.mark.parametrize(("note", "code"), [n for n in HOSTILE if n[1] not in ("U+000A", "U+0009")])
async def test_the_slash_command_refuses_a_hidden_character_in_a_note(harness: Harness, note: str, code: str) -> None:
    await harness.add_bot()
    reply = await harness.slash(OWNER, f"standing add --bot ci-bot npm test --note '{note}'")
    assert code in reply and "note" in reply, reply
    assert await harness.runtime.store.list_standing() == []
    reply = await harness.slash(ADMIN, f"rule set acmecc workspace_write {note}")
    if not hidden_characters(" ".join(note.split())):  # `rule set` joins the words after the grade by one space
        (rule,) = await harness.runtime.store.program_rules()
        assert rule.note == " ".join(note.split()), reply
        return
    assert code in reply and "note" in reply, reply
    assert await harness.runtime.store.program_rules() == []


async def test_the_slash_command_refuses_a_note_typed_over_two_lines(harness: Harness) -> None:
    await harness.add_bot()
    reply = await harness.slash(OWNER, "standing add --bot ci-bot npm test --note 'first\nsecond'")
    assert "U+000A" in reply, reply
    assert await harness.runtime.store.list_standing() == []
    reply = await harness.slash(OWNER, "standing add --bot ci-bot npm test --note 'build and test'")
    (saved,) = await harness.runtime.store.list_standing()
    assert saved.note == "build and test", reply


async def test_the_modal_refuses_a_hidden_note_inline_and_keeps_the_escalation_pending(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await asks(harness, token, command="apt-get install -y jq", contained=True)
    await harness.click(OWNER, esc["id"], STANDING_BOT_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER))
    modal = harness.open_modal(OWNER)
    values = modal_values(modal["view"])
    values[STANDING_NOTE_BLOCK] = {STANDING_NOTE_INPUT: "looks \u202efine"}
    await harness.submit_modal(OWNER, modal["id"], values)
    still_open = harness.open_modal(OWNER)
    assert still_open is not None and "U+202E" in still_open["errors"].get(STANDING_NOTE_BLOCK, ""), still_open
    assert await harness.runtime.store.list_standing() == []
    _, now = await harness.get(token, esc["id"])
    assert now["status"] == "pending"


def test_the_operator_cli_refuses_a_hidden_note_and_keeps_an_everyday_one(tmp_path: Path) -> None:
    env = clean_env(FLYBOT_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'f.db'}")

    def flybot(*words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", *words], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
        )

    assert flybot("db", "upgrade").returncode == 0
    for words in (
        ("rules", "set", "acmecc", "workspace_write", "--note", "ours \u202elanretxe"),
        ("standing", "add", "--room", ROOM, "npm", "test", "--note", "ours \u202elanretxe"),
    ):
        bad = flybot(*words)
        assert bad.returncode == 2 and "U+202E" in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
    assert flybot("rules", "list", "--json").stdout.strip() == "[]"
    done = flybot("standing", "add", "--room", ROOM, "npm", "test", "--note", "CI runs")
    assert done.returncode == 0, done.stderr
    assert "CI runs" in flybot("standing", "list", "--json").stdout
