"""Small frictions a newcomer met: each fixed where the person meets it."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

from tests.harness import OWNER, Harness
from tests.served import HEALTHZ, Served, exchange
from tests.test_cli import clean_env


async def test_standing_add_takes_the_rest_of_the_line_as_the_pattern_dashes_and_all(harness: Harness) -> None:
    await harness.add_bot()
    reply = await harness.slash(OWNER, "standing add --bot ci-bot rm -rf")
    assert "unrecognized arguments" not in reply and "`rm -rf` is destructive (rm deletes)" in reply, reply
    reply = await harness.slash(OWNER, "standing add --bot ci-bot apt-get install -y --expires 7d")
    (saved,) = await harness.runtime.store.list_standing()
    assert saved.pattern == "apt-get install -y" and saved.expires_at is not None, reply
    reply = await harness.slash(OWNER, "standing add --bot ci-bot -- npm test --note x")
    assert sorted(a.pattern for a in await harness.runtime.store.list_standing()) == [
        "apt-get install -y", "npm test --note x"], reply


def test_a_missing_codex_binary_exits_2_as_the_readme_says(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "codex", "--codex", str(tmp_path / "no-codex"), "--", "hi"],
                          env=clean_env(PATH=str(tmp_path)), cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "no codex found" in done.stderr, (done.returncode, done.stderr)
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert "**2:** usage error, or no Codex binary found" in readme


async def test_serve_prints_its_login_url_only_once_the_port_answers(tmp_path: Path) -> None:
    """Whoever opens the printed URL at once is answered: the banner comes after the listener accepts (a scripted
    start that connects on the banner got "connection refused" before)."""
    env = clean_env(FLYBOT_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'flybot.db'}", FLYBOT_PORT="0",
                    FLYBOT_STATE_DIR=str(tmp_path / ".flybot"))
    process = subprocess.Popen([sys.executable, "-m", "bot", "serve"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        assert process.stdout is not None
        banner = await asyncio.to_thread(process.stdout.readline)
        found = re.search(rb"http://127\.0\.0\.1:(\d+)/\?key=", banner)
        assert found, banner
        served = Served(f"http://127.0.0.1:{found.group(1).decode()}", int(found.group(1)), "", tmp_path / "x.log",
                        process)
        status, _headers, _body = await exchange(served, HEALTHZ)  # one try, no retry
        assert status == 200
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stdout is not None:
            process.stdout.close()
