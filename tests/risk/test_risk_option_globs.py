"""A bare glob among the words of a program whose options run programs (tar, rsync, zip, scp, 7z, find) expands,
when it runs, to file names the agent can create, and the program reads a name starting with ``-`` as its own option
(``--checkpoint-action=exec=sh x.sh``: tar runs it). Such a glob is destructive when its pattern can match such a
name; ``./*``, ``src/*``, a quoted glob, a glob after ``--`` and plain operands keep the program's grade."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

DES = RiskLevel.DESTRUCTIVE
FILES = {"src/a.py": "print(1)\n", "README.md": "x\n"}


@pytest.mark.parametrize(
    "command",
    [
        "tar cf x.tar *",
        "tar czf x.tgz ?*",
        "tar cf x.tar [a-z-]*",
        "tar -cf x.tar * src",
        "rsync -a * dst/",
        "rsync -a src * dst/",
        "zip out.zip *",
        "zip -r out.zip *",
        "scp * host:/tmp/",
        "7z a x.7z *",
        "find * -name x",
        "find . -name *",
        "find . -name -e*",
        "find . -name [-]*",
        "find -- * -print",
    ],
)
def test_a_bare_glob_that_may_expand_to_an_option_is_destructive(tmp_path: Path, command: str) -> None:
    level, reasons = graded(command, project(tmp_path, FILES))
    assert level is DES, (command, reasons)
    assert any("glob expands to" in r for r in reasons), reasons


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("tar cf x.tar ./*", RiskLevel.WORKSPACE_WRITE),
        ("tar cf x.tar -- *", RiskLevel.WORKSPACE_WRITE),
        ("tar cf x.tar src", RiskLevel.WORKSPACE_WRITE),
        ("tar cf x.tar src/*", RiskLevel.WORKSPACE_WRITE),
        ("tar cf x.tar '*'", RiskLevel.WORKSPACE_WRITE),
        ("zip -r out.zip src", RiskLevel.WORKSPACE_WRITE),
        ("zip out.zip ./*", RiskLevel.WORKSPACE_WRITE),
        ("rsync -a src/ dst/", RiskLevel.WORKSPACE_WRITE),
        ("rsync -a ./* dst/", RiskLevel.WORKSPACE_WRITE),
        ("7z a x.7z ./*", RiskLevel.WORKSPACE_WRITE),
        ("find . -name '*.py'", RiskLevel.READ_ONLY),
        ("find . -name *.py", RiskLevel.READ_ONLY),
        ("find src/* -name x", RiskLevel.READ_ONLY),
        ("find . -name \\*", RiskLevel.READ_ONLY),
    ],
)
def test_everyday_forms_keep_their_grade(tmp_path: Path, command: str, level: RiskLevel) -> None:
    assert graded(command, project(tmp_path, FILES))[0] is level, command


@pytest.mark.skipif(shutil.which("tar") is None, reason="needs tar")
def test_tar_runs_a_program_a_file_name_the_glob_expands_to_names(tmp_path: Path) -> None:
    # what the rule guards against, with the real tar: the file's name is an option that runs x.sh
    ws = project(tmp_path, {"x.sh": "touch ran\n", "--checkpoint=1": "", "--checkpoint-action=exec=sh x.sh": ""})
    subprocess.run(["bash", "-c", "tar cf x.tar *"], cwd=ws, capture_output=True, check=False)
    assert (ws / "ran").exists()
    assert graded("tar cf x.tar *", ws)[0] is DES
    (ws / "ran").unlink()
    subprocess.run(["bash", "-c", "tar cf y.tar ./*"], cwd=ws, capture_output=True, check=False)
    assert not (ws / "ran").exists()
    assert graded("tar cf y.tar ./*", ws)[0] is RiskLevel.WORKSPACE_WRITE
