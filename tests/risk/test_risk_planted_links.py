"""Writes after a program that may make symbolic links in the same command (or before it in a loop or function body,
which runs again), and writes through globs: where they land is only known when they run, so they are not graded as
workspace writes (grader.py ``Grader.write``, ``Grader.repeating``). Reads after such a program, and globbed read
targets that may name a credential file, are graded as the secret reads they may be (``Grader.planted_reads``,
``Grader.glob_reads``)."""

from __future__ import annotations

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel
from bot.standing import never_covered

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
        "echo x >> notes.txt && git apply --check q.diff",
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


# -- loops and functions: a body runs again, so a write before its link maker runs after it ---------------------------


@pytest.mark.parametrize(
    "command",
    [
        "for i in 1 2; do echo x > d/f; git checkout evil; done",
        "for i in 1 2; do echo x >> d/f; tar xf a.tar; done",
        "for ((i = 0; i < 2; i++)); do echo x >> d/f; unzip -o a.zip; done",
        "while true; do echo x >> d/f; tar xf a.tar; done",
        "until false; do cp evil d/f; git apply q.diff; done",
        "f() { echo x >> d/f; tar xf a.tar; }; f; f",
        "function f { sed -i s/a/b/ d/f; patch -p1 < q.diff; }; f; f",
        "for i in 1 2; do for j in 1; do echo x >> d/f; done; rsync -a src/ d/; done",
        "for i in 1 2; do bash -c 'echo x >> d/f'; cp -a src d; done",
        "watch 'echo x >> d/f; tar xf a.tar'",
        "find . -name x -exec sh -c 'echo x >> d/f; tar xf a.tar' \\;",
        "trap 'echo x >> d/f' EXIT; tar xf a.tar",
        "for i in 1 2; do trap 'echo x >> d/f' EXIT; tar xf a.tar; done",
    ],
)
def test_a_write_before_a_link_maker_in_a_loop_or_function_body_is_an_unknown_place(command: str) -> None:
    graded = classify(command, contained=False, workspace=W)
    first = next(c for c in graded.commands if "d/f" in c.text and c.argv[0] in ("echo", "cp", "sed"))
    assert graded.risk is RiskLevel.DESTRUCTIVE, graded.reasons
    assert any(r.rule == "unknown-write-target" and "d/f" in r.subject for r in graded.reasons), graded.reasons
    assert first.risk is RiskLevel.DESTRUCTIVE and first.outside, first
    assert len([c for c in graded.commands if "d/f" in c.text and c.argv[0] != "find"]) == 1, graded.commands


@pytest.mark.parametrize(
    "command",
    [
        "for i in 1 2; do echo x >> d/f; done",
        "for i in 1 2; do echo x >> d/f; tar cf a.tar d; done",
        "for i in 1 2; do echo x >> d/f; done; tar xf a.tar -C sub src/a.c",
        "f() { echo x >> d/f; }; echo y >> d/g",
        'while read -r l; do echo "$l" >> d/f; done < list.txt',
    ],
)
def test_a_loop_without_a_link_maker_in_its_body_keeps_its_writes_in_the_workspace(command: str) -> None:
    graded = classify(command, contained=False, workspace=W)
    assert graded.risk is RiskLevel.WORKSPACE_WRITE, graded.reasons
    assert "unknown-write-target" not in [r.rule for r in graded.reasons]


@pytest.mark.parametrize(
    "command",
    [
        "find . -name '*.tar' -exec tar xf {} \\;",
        "ls *.tar | xargs -n1 tar xf",
        "git submodule foreach 'git pull'",
    ],
)
def test_a_link_maker_run_again_by_find_xargs_or_fd_writes_where_its_last_run_may_lead(command: str) -> None:
    graded = classify(command, contained=False, workspace=W)
    assert graded.risk is RiskLevel.DESTRUCTIVE and "unknown-write-target" in [r.rule for r in graded.reasons]


@pytest.mark.parametrize(
    "command", ["trap 'echo x >> d/f' EXIT; echo hi", "find . -name '*.py' -exec sed -i s/a/b/ {} +"]
)
def test_a_trap_or_find_without_a_link_maker_keeps_its_writes_in_the_workspace(command: str) -> None:
    assert classify(command, contained=False, workspace=W).risk is RiskLevel.WORKSPACE_WRITE


def test_a_loop_body_is_graded_at_most_twice_however_deep_the_loops_nest() -> None:
    deep = "for a in 1; do " * 60 + "echo x >> d/f; tar xf a.tar" + "; done" * 60
    graded = classify(deep, contained=False, workspace=W)
    assert graded.risk is RiskLevel.DESTRUCTIVE
    assert [c.argv[0] for c in graded.commands] == ["echo", "tar"]


# -- reads through a link planted in the same command: graded as the secret read they may be --------------------------


@pytest.mark.parametrize(
    ("command", "names"),
    [
        ("ln -s ~/.ssh/id_rsa x; cat x", "~/.ssh/id_rsa"),
        ("cp -s ~/.ssh/id_rsa x; cat x", "~/.ssh/id_rsa"),
        ("ln ~/.aws/credentials x && head -n 5 x", "~/.aws/credentials"),
        ("for i in 1 2; do cat x; ln -sf ~/.ssh/id_rsa x; done", "~/.ssh/id_rsa"),
        ("git checkout evil && cat x", "a credential file"),
        ("tar xf a.tar && grep -r key x", "a credential file"),
        ("unzip a.zip && dd if=x", "a credential file"),
        ("tar xf a.tar && cat ?", "a credential file"),
        ("git apply q.diff && base64 /tmp/x", "a credential file"),
        ("tar xf a.tar; base64 < x", "a credential file"),
        ("ln -s ~/.ssh/id_rsa x; while read -r l; do echo $l; done < x", "~/.ssh/id_rsa"),
    ],
)
def test_a_read_after_a_link_maker_is_graded_as_the_secret_read_it_may_be(command: str, names: str) -> None:
    graded = classify(command, contained=True, workspace=W)  # contained too: the output leaves wherever it ran
    read = graded.commands[-1] if not command.startswith("for") else graded.commands[0]
    assert read.risk >= RiskLevel.NETWORK, graded.reasons
    found = [r for r in graded.reasons if r.rule == "secret-read" and r.subject == read.text]
    assert found and names in found[0].detail and not found[0].downgraded, graded.reasons
    direct = classify(f"cat {names}", contained=True, workspace=W) if names.startswith("~") else None
    if direct is not None:  # the same grade and rule as reading the secret directly
        assert (read.risk, "secret-read") == (direct.risk, direct.reasons[0].rule)


@pytest.mark.parametrize(
    "command",
    ["tar xf a.tar && ls x", "tar xf a.tar && wc -l x", "git checkout -b t && echo done", "cat x; ln -s y x"],
)
def test_a_command_that_prints_no_file_after_a_link_maker_is_no_secret_read(command: str) -> None:
    assert "secret-read" not in [r.rule for r in classify(command, contained=False, workspace=W).reasons]


# -- globbed read targets ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "cat .en?",
        "head ~/.ss*/id*",
        "cat */credentials",
        "cat .ss?/id_rsa",
        "tail -n 3 x*/.ssh/id_*",
        "grep -h token */.git-credentials",
        "cat /tmp/*/credentials",
        "cat */shadow",
        "less .npmr[c]",
        "cd sub && cat .en?",
        "base64 < .en?",
    ],
)
def test_a_glob_that_may_name_a_credential_file_is_a_secret_read_never_covered(command: str) -> None:
    graded = classify(command, contained=True, workspace=W)
    assert graded.risk is RiskLevel.NETWORK, graded.reasons
    assert never_covered(graded.reasons) is not None


@pytest.mark.parametrize(
    "command",
    ["cat ?", "cat *.py", "grep -n foo src/*.py", "cat 'x*/credentials'", "ls */credentials", "cat src/*.json"],
)
def test_a_glob_that_names_no_credential_file_stays_read_only_and_coverable(command: str) -> None:
    graded = classify(command, contained=False, workspace=W)
    assert graded.risk is RiskLevel.READ_ONLY and never_covered(graded.reasons) is None, graded.reasons
    assert not graded.commands[-1].outside
