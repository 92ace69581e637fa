"""`flybot exec` with real make and npm: a project script whose recipe runs unseen code asks FlyBot first."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.harness import Harness
from tests.test_hooks import deny_with, pending_id, start_exec

pytestmark = pytest.mark.skipif(
    shutil.which("make") is None or shutil.which("npm") is None, reason="needs make and npm"
)


def script_project(root: Path) -> Path:
    """A workspace whose `make test` and `npm test` run ./run.sh, which writes a marker file."""
    marker = root / "ran"
    (root / "run.sh").write_text(f"#!/bin/sh\necho ran > {marker}\n")
    (root / "run.sh").chmod(0o755)
    (root / "Makefile").write_text("test:\n\t./run.sh\n")
    (root / "package.json").write_text(json.dumps({"name": "x", "version": "1.0.0", "scripts": {"test": "sh run.sh"}}))
    return marker


@pytest.mark.parametrize("command", ["make test", "npm test"])
async def test_a_recipe_that_runs_a_script_asks_before_it_runs(harness: Harness, tmp_path: Path, command: str) -> None:
    token = await harness.add_bot()
    marker = script_project(tmp_path)
    run = await start_exec(tmp_path, "--", command, FLYBOT_URL=harness.url, FLYBOT_TOKEN=token)
    escalation_id = await pending_id(harness)  # the card is posted: it asked
    assert not marker.exists(), "nothing runs before the answer"
    await deny_with(harness, escalation_id, "read run.sh first")
    code, _out, err = await run.finish()
    assert code == 126 and "read run.sh first" in err, err
    assert not marker.exists()


async def test_a_recipe_of_known_programs_runs_at_once_without_flybot(tmp_path: Path) -> None:
    # FlyBot down (a refused port), its program rules read a moment ago: within the workspace_write ceiling nothing
    # is asked. (Without a fresh copy of the rules only read-only commands run unasked: tests/test_rules_cache.py.)
    from tests.test_rules_cache import hold_fresh_rules

    hold_fresh_rules("http://127.0.0.1:9")
    (tmp_path / "Makefile").write_text("test:\n\ttouch made\n")
    run = await start_exec(tmp_path, "--", "make test", FLYBOT_URL="http://127.0.0.1:9", FLYBOT_TOKEN="fbt_x")
    code, _out, err = await run.finish(timeout=30)
    assert code == 0, err
    assert (tmp_path / "made").exists()


async def test_npm_install_with_a_postinstall_script_is_never_run_unasked(tmp_path: Path) -> None:
    # ceiling network: a plain install would run at once; the root package's postinstall makes it ask
    marker = tmp_path / "ran"
    (tmp_path / "package.json").write_text(
        json.dumps(
            {
                "name": "x",
                "version": "1.0.0",
                "scripts": {"postinstall": f"echo ran > {marker}; rm -f ~/.flybot-never-there"},
            }
        )
    )
    run = await start_exec(
        tmp_path,
        "--ceiling",
        "network",
        "--",
        "npm install --offline",
        FLYBOT_URL="http://127.0.0.1:9",
        FLYBOT_TOKEN="fbt_x",
    )
    code, _out, err = await run.finish(timeout=60)
    assert code == 126 and "destructive" in err, err
    assert not marker.exists()
