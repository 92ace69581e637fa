"""Symbolic links below a tree in the workspace that lead out of it (the recipe book's tree walk,
``RecipeBook.tree``): a program that follows them (``grep -R``, ``find -exec cat``, ``zip -r``, ``tar -h``,
``cp -rL``, ``rsync -L``) reads the secret they lead to, and moving the tree (``mv``, ``git mv``) makes a later
path below its new name lead there, as after a link maker. The adapter walks the tree and sends what it found;
the server grades the same from what was sent."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel
from bot.risk.recipes import MAX_TREE_ENTRIES, GivenRecipes, ProjectRecipes


def _workspace(tmp_path: Path, target: str = "/root/.ssh/id_rsa") -> Path:
    workspace = tmp_path / "ws"
    (workspace / "docs").mkdir(parents=True)
    (workspace / "docs" / "a.txt").write_text("hello\n")
    (workspace / "docs" / "key").symlink_to(target)
    (workspace / "stuff").mkdir()
    (workspace / "stuff" / "lnk").symlink_to("/root")
    (workspace / "plain").mkdir()
    (workspace / "plain" / "b.txt").write_text("x\n")
    (workspace / "README.md").write_text("x\n")
    return workspace


def _both(command: str, workspace: Path) -> tuple[RiskLevel, RiskLevel, list[str]]:
    """The grade on the adapter's side (reading the workspace) and on the server's (given what was sent)."""
    read = classify(command, contained=False, workspace=workspace, recipes=ProjectRecipes(workspace))
    given = classify(command, contained=False, workspace=workspace, recipes=GivenRecipes(read.recipes))
    return read.risk, given.risk, [r.rule for r in read.reasons]


@pytest.mark.parametrize(
    "command",
    [
        "grep -R . docs",
        "grep -R foo",
        "grep -R foo *",
        "grep -R foo do*",
        "zip -r x.zip docs/*",
        "grep --dereference-recursive -e foo docs",
        "rg -L . docs",
        "rg --follow foo",
        "ag -f foo docs",
        "find -L docs -type f -exec cat {} +",
        "find docs -exec cat {} +",
        "zip -qr docs.zip docs",
        "zip -r x.zip .",
        "tar -chf d.tar docs",
        "tar chf d.tar docs",
        "tar --create --dereference -f d.tar docs",
        "cp -rL docs out",
        "cp -a -L docs out",
        "rsync -aL docs/ out/",
        "rsync -r --copy-unsafe-links docs/ out/",
        "scp -r docs host:backup/",
        "tar -cLf d.tar docs",
        "aws s3 sync docs s3://bucket/docs",
        "aws s3 cp --recursive . s3://bucket/",
        "gsutil -m cp -r docs gs://bucket/",
    ],
)
def test_following_a_link_out_of_the_workspace_to_a_secret_is_a_secret_read(tmp_path: Path, command: str) -> None:
    adapter, server, rules = _both(command, _workspace(tmp_path))
    assert adapter >= RiskLevel.NETWORK and server >= RiskLevel.NETWORK, rules
    assert "secret-read" in rules


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("grep -r . docs", RiskLevel.READ_ONLY),  # grep(1): -r follows only links on the command line
        ("grep -R foo plain", RiskLevel.READ_ONLY),
        ("grep -R foo 'docs/*'", RiskLevel.READ_ONLY),  # a quoted glob is a plain name
        ("grep -R foo README.md", RiskLevel.READ_ONLY),
        ("rg . docs", RiskLevel.READ_ONLY),
        ("ag foo docs", RiskLevel.READ_ONLY),
        ("find docs -name '*.txt'", RiskLevel.READ_ONLY),
        ("find plain -exec cat {} +", RiskLevel.READ_ONLY),
        ("zip -qry docs.zip docs", RiskLevel.WORKSPACE_WRITE),
        ("zip -r plain.zip plain", RiskLevel.WORKSPACE_WRITE),
        ("tar -cf d.tar docs", RiskLevel.WORKSPACE_WRITE),
        ("cp -r docs out", RiskLevel.WORKSPACE_WRITE),
        ("cp -rL plain out", RiskLevel.WORKSPACE_WRITE),
        ("rsync -a docs/ out/", RiskLevel.WORKSPACE_WRITE),
        ("scp -r plain host:backup/", RiskLevel.NETWORK),
        ("scp docs/a.txt host:backup/", RiskLevel.NETWORK),
        ("aws s3 sync --no-follow-symlinks docs s3://bucket/docs", RiskLevel.SYSTEM),
        ("aws s3 sync plain s3://bucket/plain", RiskLevel.SYSTEM),
        ("gsutil cp -r -e docs gs://bucket/", RiskLevel.SYSTEM),
    ],
)
def test_not_following_links_or_a_tree_without_one_keeps_its_grade(
    tmp_path: Path, command: str, grade: RiskLevel
) -> None:
    adapter, server, rules = _both(command, _workspace(tmp_path))
    assert (adapter, server) == (grade, grade), rules
    assert "secret-read" not in rules


def test_a_link_out_of_the_workspace_to_a_harmless_place_is_no_secret_read(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path, target="/usr/share/dict/words")
    assert _both("grep -R foo docs", workspace)[:2] == (RiskLevel.READ_ONLY, RiskLevel.READ_ONLY)


def test_a_link_to_a_directory_in_the_workspace_is_followed_to_the_link_below_it(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "plain" / "more").symlink_to(workspace / "docs")
    adapter, server, _ = _both("grep -R foo plain", workspace)
    assert adapter >= RiskLevel.NETWORK and server >= RiskLevel.NETWORK


def test_a_tree_too_large_to_look_through_fails_closed(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    big = workspace / "big"
    big.mkdir(parents=True)
    for index in range(MAX_TREE_ENTRIES + 1):
        (big / f"f{index}").touch()
    adapter, server, rules = _both("grep -R foo big", workspace)
    assert adapter >= RiskLevel.NETWORK and server >= RiskLevel.NETWORK, rules
    assert _both("grep -r foo big", workspace)[:2] == (RiskLevel.READ_ONLY, RiskLevel.READ_ONLY)


@pytest.mark.parametrize(
    "command",
    [
        "mv stuff dst && echo x >> dst/lnk/.bashrc",
        "mv -T stuff dst && echo x >> dst/lnk/.bashrc",
        "mv -t sub stuff && echo x >> sub/stuff/lnk/.bashrc",
        "mv --target-directory=sub stuff && echo x >> sub/stuff/lnk/.bashrc",
        "mv -S .bak stuff dst && echo x >> dst/lnk/.bashrc",
        "git mv stuff dst && echo x >> dst/lnk/.bashrc",
        "git mv stuff/lnk lnk && echo x >> lnk/.bashrc",
        "mv docs d2 && cat d2/key",
    ],
)
def test_moving_a_tree_holding_a_link_out_is_a_link_maker(tmp_path: Path, command: str) -> None:
    adapter, server, rules = _both(command, _workspace(tmp_path))
    assert adapter >= RiskLevel.NETWORK and server >= RiskLevel.NETWORK, rules
    assert "unknown-write-target" in rules or "secret-read" in rules


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("mv plain p2 && echo x >> p2/b.txt", RiskLevel.WORKSPACE_WRITE),
        ("git mv plain p2 && echo x > p2/c.txt", RiskLevel.WORKSPACE_WRITE),
        ("mv README.md R.md && cat R.md", RiskLevel.WORKSPACE_WRITE),
        ("mv README.md stuff/ && echo x > notes.txt", RiskLevel.WORKSPACE_WRITE),  # the link is not moved
    ],
)
def test_moving_a_tree_without_a_link_out_keeps_later_writes_in_the_workspace(
    tmp_path: Path, command: str, grade: RiskLevel
) -> None:
    adapter, server, rules = _both(command, _workspace(tmp_path))
    assert (adapter, server) == (grade, grade), rules
