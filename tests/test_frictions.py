"""Small frictions a newcomer met: each fixed where the person meets it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.harness import OWNER, Harness
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
