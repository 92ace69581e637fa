"""Grading a command on both sides of the wire: the adapter reading the project (``ProjectRecipes``) and the server
grading only what the adapter sent (``GivenRecipes``); the two must agree."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bot.risk import RiskLevel, classify
from bot.risk.recipes import GivenRecipes, ProjectRecipes


def graded(command: str, workspace: Path) -> tuple[RiskLevel, list[str]]:
    """The host grade of ``command`` in ``workspace`` on both sides (asserted equal) and the reasons' details."""
    read = classify(command, contained=False, workspace=str(workspace), recipes=ProjectRecipes(workspace))
    given = classify(command, contained=False, workspace=str(workspace), recipes=GivenRecipes(read.recipes))
    assert given.risk == read.risk, (read.reasons, given.reasons)
    return read.risk, [r.detail for r in read.reasons]


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    """A workspace ``tmp_path/ws`` holding ``files`` (relative name -> text), beside an empty ``tmp_path/elsewhere``."""
    root = (tmp_path / "ws").resolve()
    root.mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def git(*args: str, cwd: Path) -> None:
    """Run ``git ARGS`` in ``cwd`` (with a committer name and address, so commits work anywhere); raises on failure."""
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", *args], cwd=cwd, check=True, capture_output=True
    )
