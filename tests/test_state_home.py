"""FlyBot's default store and local-mode state live in the user's state directory (``$XDG_STATE_HOME/flybot``), never
in the working directory ``flybot`` starts in, which an agent working there can write.

Real ``flybot`` processes; conftest gives every test its own ``XDG_STATE_HOME`` outside ``tmp_path``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from bot.hooks.gate import find_server
from bot.state_home import state_home
from tests.harness import free_socket
from tests.test_cli import clean_env, flybot


def _serve(cwd: Path) -> tuple[subprocess.Popen[str], str, list[str]]:
    """``flybot serve`` in local mode started in ``cwd`` (umask 022, the usual one); returns it, its URL and the
    banner's lines once ``/healthz`` answers."""
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    previous = os.umask(0o022)
    try:
        server = subprocess.Popen(
            [sys.executable, "-m", "bot", "serve", "--port", str(port)],
            cwd=cwd,
            env=clean_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
        )
    finally:
        os.umask(previous)
    assert server.stdout is not None
    banner = [server.stdout.readline() for _ in range(3)]
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return server, url, banner
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise AssertionError(f"flybot serve did not start: {server.communicate(timeout=20)[1]}")


def _stop(server: subprocess.Popen[str]) -> str:
    server.terminate()
    return server.communicate(timeout=20)[1]


def test_serve_in_a_workspace_creates_nothing_there_and_keeps_its_state_private_in_the_state_directory(
    tmp_path: Path,
) -> None:
    work = tmp_path / "project"
    work.mkdir()
    server, url, banner = _serve(work)
    try:
        home = state_home()
        modes = {
            path.name: path.stat().st_mode & 0o777
            for path in (home, home / "local.json", home / "flybot.db", home / "flybot.db-wal")
        }
        local = json.loads((home / "local.json").read_text())
    finally:
        logged = _stop(server)
    assert list(work.iterdir()) == [], list(work.iterdir())  # no flybot.db, no .flybot
    assert modes == {"flybot": 0o700, "local.json": 0o600, "flybot.db": 0o600, "flybot.db-wal": 0o600}, modes
    assert local["url"] == url and local["token"]
    assert f"demo Bot token in {home}/local.json" in banner[1], banner
    assert banner[2].startswith("Try it, from any directory: "), banner
    # the same session id as the README's line, so a session-wide standing approval made from its card applies again
    assert banner[2].rstrip().endswith(" ask --session s1 -- sudo apt-get install -y jq"), banner
    assert "ignoring" not in logged


def test_flybot_ask_from_another_directory_finds_the_demo_bot_of_the_local_server(tmp_path: Path) -> None:
    work, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    work.mkdir()
    elsewhere.mkdir()
    server, url, _banner = _serve(work)
    try:
        # No --server, no --token: both come from local.json in the state directory. Nobody decides, so the
        # escalation expires after its shortest lifetime: exit 1, which only a request FlyBot accepted can reach.
        asked = flybot("ask", "--timeout", "5", "--", "sudo apt-get install -y jq", cwd=elsewhere)
    finally:
        _stop(server)
    assert asked.returncode == 1, (asked.stdout, asked.stderr)
    assert "expired" in asked.stdout + asked.stderr, (asked.stdout, asked.stderr)
    assert list(elsewhere.iterdir()) == []


def test_the_agent_adapters_find_the_local_server_in_the_state_directory(tmp_path: Path) -> None:
    home = tmp_path / "state" / "flybot"
    home.mkdir(parents=True)
    (home / "local.json").write_text(json.dumps({"url": "http://127.0.0.1:9999", "token": "fbt_demo"}))
    found = find_server(None, None, {"XDG_STATE_HOME": str(tmp_path / "state")})
    assert (found.url, found.token) == ("http://127.0.0.1:9999", "fbt_demo")
    named = find_server(None, None, {"XDG_STATE_HOME": str(tmp_path / "state"), "FLYBOT_STATE_DIR": str(tmp_path)})
    assert named.token is None  # FLYBOT_STATE_DIR still names the directory when set


def test_a_store_and_state_directory_left_in_the_working_directory_are_ignored_with_one_line(tmp_path: Path) -> None:
    work = tmp_path / "project"
    work.mkdir()
    legacy_url = f"sqlite+aiosqlite:///{work / 'flybot.db'}"
    made = flybot("db", "upgrade", cwd=work, FLYBOT_DATABASE_URL=legacy_url)
    assert made.returncode == 0 and made.stderr == "", made.stderr
    (work / ".flybot").mkdir(mode=0o700)
    (work / ".flybot" / "local.json").write_text(json.dumps({"url": "http://127.0.0.1:9", "token": "fbt_planted"}))
    before = (work / "flybot.db").read_bytes()
    notice = (
        f"ignoring {work}/flybot.db and {work}/.flybot: FlyBot keeps its state in {state_home()} (outside any "
        f"agent's workspace); to use them anyway, set FLYBOT_DATABASE_URL=sqlite+aiosqlite:///{work}/flybot.db "
        f"and FLYBOT_STATE_DIR={work}/.flybot in the environment or in FLYBOT_ENV_FILE's file"
    )

    upgraded = flybot("db", "upgrade", cwd=work)
    assert upgraded.returncode == 0, upgraded.stderr
    assert upgraded.stderr.splitlines() == [f"WARNING bot.settings: {notice}"]
    assert (state_home() / "flybot.db").is_file() and (work / "flybot.db").read_bytes() == before

    asked = flybot("ask", "--", "sudo apt-get install -y jq", cwd=work)  # the planted token is not used
    assert asked.returncode == 2, asked.stderr
    assert asked.stderr.splitlines()[0] == f"WARNING bot.settings: {notice}"
    assert "flybot ask: no token" in asked.stderr and "fbt_planted" not in asked.stderr

    server, _url, _banner = _serve(work)
    logged = _stop(server)
    assert logged.splitlines()[0] == f"WARNING bot.settings: {notice}", logged  # as every other command writes it

    named = flybot("bots", "list", cwd=work, FLYBOT_DATABASE_URL=legacy_url, FLYBOT_STATE_DIR=str(work / ".flybot"))
    assert named.returncode == 0 and named.stderr == "", named.stderr


def test_flybot_started_in_its_own_state_directory_gives_no_notice(tmp_path: Path) -> None:
    """As the systemd unit runs it: the working directory is the state directory, whose flybot.db is the default."""
    home = state_home()
    home.mkdir(mode=0o700, parents=True)
    first = flybot("db", "upgrade", cwd=home)
    again = flybot("db", "upgrade", cwd=home)
    assert first.returncode == again.returncode == 0 and first.stderr == again.stderr == "", again.stderr
    assert sorted(path.name for path in home.iterdir()) == ["flybot.db"]
