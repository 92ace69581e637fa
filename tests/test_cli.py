"""The ``flybot`` command line as a user runs it: real subprocesses against a real FlyBot."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.state_home import state_home
from cards import APPROVE_ACTION, DENY_ACTION, DENY_REASON_BLOCK, DENY_REASON_INPUT
from tests.harness import OWNER, Harness

ROOT = Path(__file__).resolve().parent.parent


def clean_env(**extra: str) -> dict[str, str]:
    """The environment for a ``flybot`` process: no ``SLACK_``/``FLYBOT_`` setting of the caller's, and the test's
    own ``XDG_STATE_HOME`` (conftest's ``state_home``), so FlyBot's default store and state never land in the real
    ``~/.local/state``."""
    assert os.path.isabs(os.environ.get("XDG_STATE_HOME", "")), "XDG_STATE_HOME is the test's (conftest state_home)"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "FLYBOT_"))}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def flybot(*args: str, cwd: Path, timeout: float = 60, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def new_store(where: Path) -> None:
    """Create the store the way an operator does without a running server (operator commands never create one)."""
    made = flybot("db", "upgrade", cwd=where)
    assert made.returncode == 0, made.stderr


def test_bots_add_prints_the_token_once_and_stores_only_its_hash(tmp_path: Path) -> None:
    new_store(tmp_path)
    added = flybot(
        "bots", "add", "builder", "--owner", "U0OWNER01", "--owner", "U0OWNER02", "--room", "C0APPROVE", cwd=tmp_path
    )
    assert added.returncode == 0, added.stderr
    token = added.stdout.strip().splitlines()[-1]
    assert token.startswith("fbt_") and len(token) > 40
    assert token.encode() not in (state_home() / "flybot.db").read_bytes()
    with sqlite3.connect(state_home() / "flybot.db") as db:
        (stored,) = db.execute("select token_hash from bots where name='builder'").fetchone()
    assert len(stored) == 64 and token not in stored
    assert added.stdout.startswith("Registered Bot builder: owners @Olivia, @"), added.stdout  # names, not ids
    listed = flybot("bots", "list", cwd=tmp_path)
    assert listed.returncode == 0 and listed.stdout.startswith("builder: owners @Olivia, @"), listed.stdout
    assert "room #flybot-approvals" in listed.stdout
    assert "U0OWNER" not in added.stdout + listed.stdout and "bot_" not in added.stdout + listed.stdout
    assert token not in listed.stdout
    as_json = json.loads(flybot("bots", "list", "--json", cwd=tmp_path).stdout)
    assert as_json[0]["owners"] == ["U0OWNER01", "U0OWNER02"] and as_json[0]["room"] == "C0APPROVE"


def test_bots_add_rejects_bad_input_with_one_line(tmp_path: Path) -> None:
    new_store(tmp_path)
    bad_owner = flybot("bots", "add", "x", "--owner", "olivia", cwd=tmp_path)
    assert bad_owner.returncode == 2 and "not a Slack user ID" in bad_owner.stderr
    assert len(bad_owner.stderr.strip().splitlines()) == 1
    flybot("bots", "add", "x", "--owner", "U0OWNER01", cwd=tmp_path)
    taken = flybot("bots", "add", "x", "--owner", "U0OWNER01", cwd=tmp_path)
    assert taken.returncode == 2 and "already exists" in taken.stderr


def test_a_missing_or_contradictory_setting_stops_start_up_with_one_line_naming_it(tmp_path: Path) -> None:
    cases = [
        ({"SLACK_APP_TOKEN": "xapp-1"}, "SLACK_APP_TOKEN"),
        ({"SLACK_BOT_TOKEN": "xoxb-1"}, "SLACK_SIGNING_SECRET"),
        ({"SLACK_BOT_TOKEN": "not-a-bot-token", "SLACK_SIGNING_SECRET": "s"}, "SLACK_BOT_TOKEN"),
        ({"FLYBOT_PORT": "eighty"}, "FLYBOT_PORT"),
        ({"FLYBOT_ADMINS": "olivia"}, "FLYBOT_ADMINS"),
    ]
    for env, name in cases:
        result = flybot("serve", cwd=tmp_path, timeout=30, **env)
        assert result.returncode == 2, (env, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and name in lines[0], (env, lines)
        assert "Traceback" not in result.stderr


def test_settings_come_from_the_file_flybot_env_file_names_never_from_a_dotenv_in_the_working_directory(
    tmp_path: Path,
) -> None:
    named = tmp_path / "etc" / "flybot.env"
    named.parent.mkdir()
    named.write_text("SLACK_APP_TOKEN=xapp-from-the-named-file\n")
    named.chmod(0o600)
    result = flybot("serve", cwd=tmp_path, timeout=30, FLYBOT_ENV_FILE=str(named))
    assert result.returncode == 2 and "SLACK_APP_TOKEN" in result.stderr
    (tmp_path / ".env").write_text("FLYBOT_DATABASE_URL=postgresql://agent@127.0.0.1/x\n")
    (tmp_path / ".env").chmod(0o600)
    listed = flybot("db", "upgrade", cwd=tmp_path, timeout=30)
    assert listed.returncode == 0 and (state_home() / "flybot.db").exists(), listed.stderr
    assert listed.stderr.strip().splitlines() == [
        f"WARNING bot.settings: ignoring {tmp_path}/.env: FlyBot reads no settings file from the working directory; "
        "name one with FLYBOT_ENV_FILE=/path/outside/any/agent/workspace, or set the variables in the environment"
    ]


async def _ask(tmp: Path, url: str, token: str, *args: str, sigint_ignored: bool = False) -> asyncio.subprocess.Process:
    """``flybot ask`` as a real process; ``sigint_ignored``: started with SIGINT ignored, as a background job of a
    non-interactive shell is (``cmd &``), and as every child of a test run started that way would be."""
    import signal

    def ignore_sigint() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "ask",
        "--server",
        url,
        "--token",
        token,
        *args,
        cwd=tmp,
        env=clean_env(),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.DEVNULL,
        preexec_fn=ignore_sigint if sigint_ignored else None,
    )


async def _pending_id(harness: Harness) -> str:
    await harness.eventually(lambda: harness.emulator.messages, timeout=20)
    return next(
        e["value"]
        for m in harness.emulator.messages
        for b in m.blocks
        if b.get("type") == "actions"
        for e in b["elements"]
        if e.get("action_id") == APPROVE_ACTION
    )


async def test_flybot_ask_exits_0_when_the_owner_approves(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    proc = await _ask(tmp_path, harness.url, token, "--", "sudo", "apt-get", "install", "-y", "jq")
    escalation_id = await _pending_id(harness)
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err
    assert out.decode().startswith("approved by @Olivia (escalation esc_"), out  # a name, never U0OWNER01
    assert f"escalation {escalation_id} (risk system) is waiting for the owner's decision" in err.decode(), err


async def test_flybot_ask_exits_1_with_the_reason_when_denied(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    proc = await _ask(tmp_path, harness.url, token, "--contained", "--json", "--", "rm -rf build")
    escalation_id = await _pending_id(harness)
    await harness.click(OWNER, escalation_id, DENY_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER))
    modal = harness.open_modal(OWNER)
    await harness.submit_modal(OWNER, modal["id"], {DENY_REASON_BLOCK: {DENY_REASON_INPUT: "not on a Friday"}})
    out, _err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 1
    data = __import__("json").loads(out)
    assert data["status"] == "denied" and data["reason"] == "not on a Friday" and data["contained"] is True


async def test_flybot_ask_keeps_waiting_across_a_flybot_restart(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    proc = await _ask(tmp_path, harness.url, token, "--", "sudo", "systemctl", "restart", "nginx")
    escalation_id = await _pending_id(harness)
    await harness.stop_flybot()
    await asyncio.sleep(1.5)
    await harness.start_flybot()
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    out, err = await asyncio.wait_for(proc.communicate(), 40)
    assert proc.returncode == 0, (out, err)


def test_flybot_ask_exits_3_when_flybot_is_unreachable_and_2_on_usage(tmp_path: Path) -> None:
    down = flybot(
        "ask", "--server", "http://127.0.0.1:9", "--token", "fbt_x", "--timeout", "5", "--", "ls", cwd=tmp_path
    )
    assert down.returncode == 3 and "unreachable" in down.stdout
    usage = flybot("ask", "--token", "fbt_x", cwd=tmp_path)
    assert usage.returncode == 2
    no_token = flybot("ask", "--server", "http://127.0.0.1:9", "--", "ls", cwd=tmp_path)
    assert no_token.returncode == 2 and "no token" in no_token.stderr


async def test_flybot_ask_exits_3_when_the_request_is_refused(harness: Harness, tmp_path: Path) -> None:
    proc = await _ask(tmp_path, harness.url, "fbt_wrong", "--", "ls")
    out, _ = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 3 and "unknown token" in out.decode()


def test_flybot_standing_add_list_revoke_acts_as_an_admin(tmp_path: Path) -> None:
    new_store(tmp_path)
    flybot("bots", "add", "builder", "--owner", "U0OWNER01", "--room", "C0APPROVE", cwd=tmp_path)
    added = flybot(
        "standing",
        "add",
        "--room",
        "C0APPROVE",
        "npm",
        "test",
        "--max-risk",
        "network",
        "--expires",
        "7d",
        "--json",
        cwd=tmp_path,
    )
    assert added.returncode == 0, added.stderr
    approval = __import__("json").loads(added.stdout)
    assert approval["scope"] == "room" and approval["pattern"] == "npm test" and approval["max_risk"] == "network"
    assert approval["created_by"].startswith("operator:")
    bot_wide = flybot("standing", "add", "--bot", "builder", "apt-get", "install", "--host-ok", cwd=tmp_path)
    assert bot_wide.returncode == 0, bot_wide.stderr
    assert "bot builder `apt-get install`" in bot_wide.stdout and "bot_" not in bot_wide.stdout  # its name, not id
    listed = flybot("standing", "list", cwd=tmp_path)
    assert "npm test" in listed.stdout and "apt-get install" in listed.stdout and "host-ok" in listed.stdout
    assert "\tbot\tbuilder\t" in listed.stdout and "bot_" not in listed.stdout  # the Bot's name, not its id
    assert "\troom\t#flybot-approvals\t" in listed.stdout and "C0APPROVE" not in listed.stdout, listed.stdout
    assert "set by operator:" in listed.stdout
    room_wide = flybot("standing", "add", "--room", "C0APPROVE", "make", "lint", cwd=tmp_path)
    assert "room #flybot-approvals `make lint`" in room_wide.stdout, room_wide.stdout
    revoked = flybot("standing", "revoke", approval["id"], cwd=tmp_path)
    assert revoked.returncode == 0
    assert "npm test" not in flybot("standing", "list", cwd=tmp_path).stdout
    again = flybot("standing", "revoke", approval["id"], cwd=tmp_path)
    assert again.returncode == 2 and "already revoked" in again.stderr


def test_flybot_standing_rejects_bad_input_with_one_line(tmp_path: Path) -> None:
    new_store(tmp_path)
    flybot("bots", "add", "builder", "--owner", "U0OWNER01", cwd=tmp_path)
    for args, expect in [
        (("add", "--bot", "builder", "x", "--max-risk", "destructive"), "never covers destructive"),
        (("add", "--room", "general", "x"), "not a Slack channel ID"),
        (("add", "--bot", "ghost", "x"), "no Bot named ghost"),
        (("add", "x"), "one of the arguments --bot --room is required"),
        (
            ("add", "--bot", "builder", "rm -rf"),
            "`rm -rf` is destructive (rm deletes): destructive commands always ask",
        ),
    ]:
        result = flybot("standing", *args, cwd=tmp_path)
        assert result.returncode == 2 and expect in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1


def test_admin_tokens_are_printed_once_and_stored_hashed(tmp_path: Path) -> None:
    new_store(tmp_path)
    made = flybot("admin-tokens", "add", "--user", "U0ADMIN01", cwd=tmp_path)
    assert made.returncode == 0
    token = made.stdout.strip().splitlines()[-1]
    assert token.startswith("fbt_") and token.encode() not in (state_home() / "flybot.db").read_bytes()
    assert made.stdout.startswith("Admin API token acting as @Ada,"), made.stdout  # a name, not U0ADMIN01
    listed = flybot("admin-tokens", "list", cwd=tmp_path).stdout
    assert "\tacts as @Ada\t" in listed and "U0ADMIN01" not in listed, listed
    assert flybot("admin-tokens", "add", "--user", "ada", cwd=tmp_path).returncode == 2


@pytest.mark.parametrize("sigint_ignored", [False, True], ids=["sigint-default", "sigint-inherited-ignored"])
async def test_interrupting_flybot_ask_withdraws_its_escalation(
    harness: Harness, tmp_path: Path, sigint_ignored: bool
) -> None:
    """SIGINT and SIGTERM withdraw the escalation, also when ``flybot ask`` inherited SIGINT ignored: a test run
    started as a background job (``pytest ... &`` from a script) hands that to every child, and the SIGINT round
    then waited out its 20 s (the flaky failure of a full run). The card being posted is the readiness sign: the
    handlers are installed before the escalation is sent, and a signal that beats FlyBot's answer still withdraws
    it (same Idempotency-Key), so no sleep before the signal."""
    import signal

    token = await harness.add_bot()
    for sig in (signal.SIGINT, signal.SIGTERM):
        before = len(harness.emulator.messages)
        proc = await _ask(
            tmp_path, harness.url, token, "--", "sudo", "systemctl", "restart", "nginx", sigint_ignored=sigint_ignored
        )
        await harness.eventually(lambda before=before: len(harness.emulator.messages) > before, timeout=20)
        escalation_id = next(
            e["value"]
            for b in harness.emulator.messages[-1].blocks
            if b.get("type") == "actions"
            for e in b["elements"]
            if e.get("action_id") == APPROVE_ACTION
        )
        proc.send_signal(sig)
        _out, err = await asyncio.wait_for(proc.communicate(), 20)
        assert proc.returncode == 1 and b"withdrawn" in err, (sig, err)
        _, final = await harness.get(token, escalation_id)
        assert final["status"] == "withdrawn", sig


async def test_flybot_ask_names_the_standing_approval_that_answered(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    await harness.slash(OWNER, "standing add --bot ci-bot apt-get install --max-risk network")
    proc = await _ask(tmp_path, harness.url, token, "--contained", "--", "sudo", "apt-get", "install", "-y", "jq")
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err
    assert out.decode().startswith("approved by standing approval sa_"), out
    assert "(set by @Olivia)" in out.decode() and OWNER not in out.decode(), out


def test_a_reader_that_closes_stdout_early_ends_every_command_quietly(tmp_path: Path) -> None:
    """``flybot audit | head`` when ``head`` has gone: no "unexpected error", no traceback, no "Exception ignored"
    at exit; the exit code is 0 or 141 (128 + SIGPIPE, what a shell reports for a program its pipe ended)."""
    new_store(tmp_path)
    for name in ("builder", "tester"):
        assert flybot("bots", "add", name, "--owner", "U0OWNER01", cwd=tmp_path).returncode == 0
    for args in (("bots", "list"), ("audit", "--since", "1h"), ("escalations", "--json"), ("classify", "rm -rf /")):
        reader, writer = os.pipe()
        os.close(reader)  # the reader is gone before FlyBot writes a byte
        try:
            done = subprocess.run(
                [sys.executable, "-m", "bot", *args],
                cwd=tmp_path,
                env=clean_env(),
                stdout=writer,
                stderr=subprocess.PIPE,
                text=True,
                timeout=60,
                stdin=subprocess.DEVNULL,
            )
        finally:
            os.close(writer)
        assert done.returncode in (0, 141), (args, done.returncode, done.stderr)
        assert done.stderr == "", (args, done.stderr)
