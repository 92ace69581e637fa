"""Writes after a program that may make symbolic links in the same command, and writes through globs: where they
land is only known when they run, so they are not graded as workspace writes (grader.py ``Grader.write``)."""

from __future__ import annotations

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel

W = "/work/repo"


def _graded(command: str) -> tuple[RiskLevel, list[str]]:
    graded = classify(command, contained=False, workspace=W)
    return graded.risk, [reason.rule for reason in graded.reasons]


@pytest.mark.parametrize(
    "command",
    [
        "git apply q.diff && echo x >> hd/.bashrc",
        "git apply q.diff; echo x >> notes.txt",
        "patch -p1 < q.diff && echo x >> hd/.bashrc",
        "tar xf a.tar && echo x >> hd/.bashrc",
        "tar -xzf a.tgz && cp evil hd/.bashrc",
        "unzip a.zip && echo x > hd/.profile",
        "cp -a src dst && echo x >> dst/link",
        "cp -r src dst && echo x >> dst/link",
        "rsync -a src/ dst/ && echo x >> dst/link",
        "ln -s ../.. up && echo x >> up/f",
        "git checkout other && echo x >> hd/.bashrc",
        "git -C . pull && echo x >> hd/.bashrc",
        "git stash pop && echo x >> hd/.bashrc",
        "git cherry-pick abc && sed -i s/a/b/ hd/.bashrc",
        "git am < p.mbox && echo x >> hd/.bashrc",
        "tar -xf a.tar -C /tmp/x && echo x >> /tmp/x/hd/.bashrc",
        "git apply q.diff | tee hd/.bashrc",
    ],
)
def test_a_write_after_links_may_be_planted_is_an_unknown_place(command: str) -> None:
    level, rules = _graded(command)
    assert level is RiskLevel.DESTRUCTIVE and "unknown-write-target" in rules, rules


@pytest.mark.parametrize(
    "command",
    [
        "echo x >> notes.txt && git apply q.diff",
        "git commit -m merge && echo x >> notes.txt",
        "git status && echo x >> notes.txt",
        "cp a b && echo x > b/c",
        "tar cf a.tar src && echo x >> notes.txt",
        "echo x >> notes.txt",
    ],
)
def test_a_write_without_a_link_maker_before_it_stays_a_workspace_write(command: str) -> None:
    assert _graded(command) == (RiskLevel.WORKSPACE_WRITE, ["write-in-workspace"] * len(_graded(command)[1]))


def test_a_read_after_links_may_be_planted_is_not_covered_by_a_standing_approval() -> None:
    after = classify("tar xf a.tar && cat h/id_rsa", contained=False, workspace=W)
    assert [c.outside for c in after.commands] == [False, True]
    alone = classify("cat h/id_rsa", contained=False, workspace=W)
    assert [c.outside for c in alone.commands] == [False]


@pytest.mark.parametrize(
    ("command", "level", "rule"),
    [
        ("echo x >> g?", RiskLevel.DESTRUCTIVE, "unknown-write-target"),
        ("echo x >> h?/.bashrc", RiskLevel.DESTRUCTIVE, "unknown-write-target"),
        ("cp evil h*/.bashrc", RiskLevel.DESTRUCTIVE, "unknown-write-target"),
        ("cp evil g?", RiskLevel.SYSTEM, "write-outside-workspace"),
        ("chmod 644 src/*.sh", RiskLevel.SYSTEM, "write-outside-workspace"),
        ("sed -i --follow-symlinks s/a/b/ src/*.py", RiskLevel.SYSTEM, "write-outside-workspace"),
    ],
)
def test_a_globbed_write_target_is_an_unknown_place(command: str, level: RiskLevel, rule: str) -> None:
    assert _graded(command) == (level, [rule])


@pytest.mark.parametrize("command", ["echo x >> 'g?'", 'cp evil "h*/.bashrc"', "sed -i s/a/b/ src/a.py"])
def test_a_quoted_glob_character_is_a_plain_name(command: str) -> None:
    assert _graded(command) == (RiskLevel.WORKSPACE_WRITE, ["write-in-workspace"])


@pytest.mark.parametrize(
    "command",
    [
        "find . -name config -exec cp payload {} \\;",
        "find . -type l -exec chmod 666 {} +",
        "find . -name x -exec tee {} \\;",
        "find src -name '*.py' -exec sed -i --follow-symlinks s/a/b/ {} +",
    ],
)
def test_a_write_through_the_files_find_names_is_an_unknown_place(command: str) -> None:
    # find does not follow links below its start points, but the program it runs may write through a link it names
    assert _graded(command) == (RiskLevel.SYSTEM, ["write-outside-workspace"])


@pytest.mark.parametrize("command", ["sed -i s/a/b/ src/*.py", "find . -name '*.py' -exec sed -i s/a/b/ {} +"])
def test_sed_in_place_replaces_a_link_it_names_and_stays_in_the_workspace(command: str) -> None:
    # GNU sed -i renames a new file over the operand: a link there is replaced, its target untouched
    assert _graded(command) == (RiskLevel.WORKSPACE_WRITE, ["write-in-workspace"])


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("chmod +x build.sh", RiskLevel.WORKSPACE_WRITE),
        ("chgrp staff notes.txt", RiskLevel.WORKSPACE_WRITE),
        ("chmod 644 /opt/app/x", RiskLevel.SYSTEM),
        ("chmod 600 ~/.ssh/id_rsa", RiskLevel.DESTRUCTIVE),
        ("git checkout x && chmod 777 y", RiskLevel.DESTRUCTIVE),
    ],
)
def test_chmod_grades_each_file_where_it_lands(command: str, level: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=W).risk == level
