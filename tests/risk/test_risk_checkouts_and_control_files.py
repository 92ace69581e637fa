"""Version-control checkouts before a recipe, writes into a repository's ``.git``, git configuration dumps, tools
that edit shell start-up files, package managers' script shells and git's ``ext::`` transport.

Each group checks the command graded as its manual says it behaves, and everyday neighbours graded as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import GivenRecipes, ProjectRecipes

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A workspace with a Makefile (``test`` runs pytest) and a package.json (``test`` runs jest)."""
    (tmp_path / "Makefile").write_text("test:\n\tpytest -q\n")
    (tmp_path / "package.json").write_text(json.dumps({"name": "x", "version": "1.0.0", "scripts": {"test": "jest"}}))
    return tmp_path


def graded(command: str, root: Path, contained: bool = False) -> tuple[RiskLevel, set[str]]:
    """The grade and rules on the adapter's side; the server, given what the adapter read, must grade the same."""
    read = classify(command, contained=contained, workspace=root, recipes=ProjectRecipes(root))
    given = classify(command, contained=contained, workspace=root, recipes=GivenRecipes(read.recipes))
    assert given.risk is read.risk, (read.reasons, given.reasons)
    return read.risk, {r.rule for r in read.reasons}


# -- a checkout of another revision before a recipe: the recipe that runs is not the one read ------------------------
@pytest.mark.parametrize(
    "command",
    [
        "hg update evil && make test",
        "hg up evil && make test",
        "hg checkout evil && npm test",
        "hg import /tmp/x.patch && make test",
        "hg patch /tmp/x.patch && make test",
        "hg pull -u && make test",
        "hg pull --update && npm test",
        "hg merge evil && make test",
        "hg unshelve && make test",
        "hg graft -r 5 && make test",
        "svn update && make test",
        "svn up -r 42 && npm test",
        "svn switch ^/branches/evil && make test",
        "svn merge ^/branches/evil && make test",
        "svn patch /tmp/x.diff && make test",
        "jj new evil && make test",
        "jj edit evil && make test",
        "jj restore --from evil && npm test",
        "jj git fetch && jj rebase -d evil && make test",
        "jj undo && make test",
        "jj op restore abc123 && make test",
        "fossil update && make test",
        "fossil checkout evil && make test",
    ],
)
def test_a_checkout_before_a_recipe_is_destructive(project: Path, command: str) -> None:
    risk, rules = graded(command, project)
    assert risk is DES
    assert "recipe-rewritten" in rules


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("hg status && make test", WW),
        ("hg log -l 5 && npm test", WW),
        ("hg commit -m fix && make test", WW),
        ("hg pull && make test", NET),
        ("svn status && make test", WW),
        ("svn add src/new.py && make test", WW),
        ("jj log && npm test", WW),
        ("jj st && make test", WW),
        ("jj describe -m fix && make test", WW),
        ("jj commit -m fix && make test", WW),
        ("make test && hg update default", WW),
        ("npm test && svn update", NET),
    ],
)
def test_a_recipe_after_a_query_or_a_commit_or_before_the_checkout_keeps_its_grade(
    project: Path, command: str, level: RiskLevel
) -> None:
    risk, rules = graded(command, project)
    assert risk is level
    assert "recipe-rewritten" not in rules


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("hg update default", WW),
        ("hg import /tmp/x.patch", WW),
        ("hg pull -u", NET),
        ("svn update", NET),
        ("svn switch ^/branches/b", NET),
        ("jj new", WW),
        ("jj rebase -d main", WW),
        ("jj git fetch", NET),
        ("fossil update", NET),
        ("hg update --clean", DES),
    ],
)
def test_a_checkout_alone_keeps_its_grade(project: Path, command: str, level: RiskLevel) -> None:
    assert graded(command, project)[0] is level
