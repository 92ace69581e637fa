"""`flybot exec` with real git and tar: a write before a link maker in a loop, and git run in a repository outside the
workspace, ask FlyBot before they run (they are not graded as mere workspace writes and reads)."""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.harness import Harness
from tests.test_hooks import deny_with, pending_id, start_exec

pytestmark = pytest.mark.skipif(shutil.which("git") is None or shutil.which("tar") is None, reason="needs git, tar")


def _git(*args: str | Path) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *map(str, args)], check=True)


async def test_a_write_before_a_link_maker_in_a_loop_asks_before_it_can_land_outside(
    harness: Harness, tmp_path: Path
) -> None:
    workspace, outside = tmp_path / "ws", tmp_path / "outside"
    workspace.mkdir()
    outside.mkdir()
    link = tarfile.TarInfo("d")  # the archive plants d -> outside; the loop's next round writes d/f through it
    link.type, link.linkname = tarfile.SYMTYPE, str(outside)
    with tarfile.open(workspace / "a.tar", "w") as archive:
        archive.addfile(link)
    token = await harness.add_bot()
    run = await start_exec(
        workspace,
        "--",
        "for i in 1 2; do echo pwned >> d/f; tar xf a.tar; done",
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )
    escalation_id = await pending_id(harness)  # the card is posted: it asked
    assert not (outside / "f").exists() and not (workspace / "d").exists(), "nothing runs before the answer"
    await deny_with(harness, escalation_id, "no links")
    code, _out, err = await run.finish()
    assert code == 126 and "no links" in err, err
    assert not (outside / "f").exists()


@pytest.mark.parametrize("option", ["-C", "--git-dir", "--work-tree", "cd"])
async def test_git_in_a_repository_outside_the_workspace_asks_before_its_config_runs_a_program(
    harness: Harness, tmp_path: Path, option: str
) -> None:
    workspace, other = tmp_path / "ws", tmp_path / "other"
    workspace.mkdir()
    marker = tmp_path / "ran"
    _git("init", "-q", other)
    (other / "a.txt").write_text("one\n")
    _git("-C", other, "add", "a.txt")
    _git("-C", other, "commit", "-q", "-m", "one")
    (other / "a.txt").write_text("two\n")
    (other / "diff.sh").write_text(f"#!/bin/sh\necho ran > {marker}\n")
    (other / "diff.sh").chmod(0o755)
    _git("-C", other, "config", "diff.external", other / "diff.sh")  # git diff runs it (git-config(1))
    commands = {
        "-C": f"git -C {other} diff",
        "--git-dir": f"git --git-dir {other}/.git diff",
        "--work-tree": f"git --git-dir {other}/.git --work-tree {other} diff",
        "cd": f"cd {other} && git diff",
    }
    command = commands[option]
    token = await harness.add_bot()
    run = await start_exec(workspace, "--", command, FLYBOT_URL=harness.url, FLYBOT_TOKEN=token)
    escalation_id = await pending_id(harness)
    assert not marker.exists(), "nothing runs before the answer"
    await deny_with(harness, escalation_id, "not that repository")
    code, _out, err = await run.finish()
    assert code == 126 and "not that repository" in err, err
    assert not marker.exists()
