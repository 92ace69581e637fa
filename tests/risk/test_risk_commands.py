"""Assessment.commands: every simple command, argv after unwrapping (for standing approvals)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

WORKSPACE = Path("/home/dev/project")


def argvs(command: str, *, contained: bool = False) -> list[tuple[str, ...]]:
    return [c.argv for c in classify(command, contained=contained, workspace=WORKSPACE).commands]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ls -la", [("ls", "-la")]),
        ("ls && rm -rf src", [("ls",), ("rm", "-rf", "src")]),
        ("a=1; ls | grep x || pwd & wait", [("ls",), ("grep", "x"), ("pwd",), ("wait",)]),
        ("(cd src; make) && { npm test; }", [("cd", "src"), ("make",), ("npm", "test")]),
        (
            "if ls; then pwd; elif true; then :; else echo no; fi",
            [("ls",), ("pwd",), ("true",), (":",), ("echo", "no")],
        ),
        ('for f in $(ls); do cat "$f"; done', [("ls",), ("cat",)]),
        ("while true; do sleep 1; done", [("true",), ("sleep", "1")]),
        ("case $x in a) ls;; b) pwd;; esac", [("ls",), ("pwd",)]),
        ("echo $(git rev-parse HEAD) `date`", [("git", "rev-parse", "HEAD"), ("date",), ("echo",)]),
        ("diff <(ls a) <(ls b)", [("ls", "a"), ("ls", "b"), ("diff",)]),
        ("cat <<EOF\n$(whoami)\nEOF", [("whoami",), ("cat",)]),
        ("cat <<EOF | sh\nls\nEOF", [("cat",), ("sh",)]),
        ("env -i FOO=1 timeout 5 nice -n 3 npm test", [("npm", "test")]),
        ("sudo -u root -E apt-get install -y jq", [("apt-get", "install", "-y", "jq")]),
        ("FOO=1 make", [("make",)]),
        ("xargs rm -f", [("rm", "-f")]),
        ("xargs", [("echo",)]),
        ("bash -c 'npm test && npm run lint'", [("npm", "test"), ("npm", "run", "lint")]),
        ("eval 'ls; pwd'", [("ls",), ("pwd",)]),
        ("git -C repo push origin main", [("git", "-C", "repo", "push", "origin", "main")]),
        ("npm test $EXTRA --watch", [("npm", "test")]),
        ("\\rm -f x", [("rm", "-f", "x")]),
        ("'r'm -f x", [("rm", "-f", "x")]),
        ("echo hi > out.txt", [("echo", "hi")]),
        ("echo > out.txt hi", [("echo", "hi")]),
    ],
)
def test_every_simple_command_is_listed_with_its_unwrapped_argv(command: str, expected: list[tuple[str, ...]]) -> None:
    assert argvs(command) == expected


def test_find_exec_lists_find_and_the_command_it_runs() -> None:
    commands = classify("find . -name '*.tmp' -exec rm {} +", contained=False, workspace=WORKSPACE).commands
    assert [c.argv[:2] for c in commands] == [("find", "."), ("rm",)]
    assert commands[1].wrappers == ("find",)
    assert commands[0].risk == RiskLevel.DESTRUCTIVE


def test_a_non_literal_program_name_gives_an_empty_argv() -> None:
    assert argvs("$cmd -x") == [()]
    assert argvs("ls; $(echo rm) -rf x") == [("ls",), ("echo", "rm"), ()]


def test_argv_stops_before_the_first_non_literal_word() -> None:
    assert argvs("git $SUB --force") == [("git",)]
    assert argvs('apt-get install -y "$PKG"') == [("apt-get", "install", "-y")]


def test_wrappers_are_recorded_outermost_first() -> None:
    commands = classify("sudo env FOO=1 timeout 5 apt-get update", contained=True, workspace=WORKSPACE).commands
    assert commands[0].argv == ("apt-get", "update")
    assert commands[0].wrappers == ("sudo", "env", "timeout")
    nested = classify("sudo bash -c 'apt-get update'", contained=False, workspace=WORKSPACE).commands
    assert nested[0].wrappers == ("sudo", "bash -c")
    assert nested[0].risk == RiskLevel.SYSTEM


def test_simple_command_risk_includes_its_redirects_and_wrappers() -> None:
    commands = classify("echo hi > /etc/hosts; ls", contained=False, workspace=WORKSPACE).commands
    assert [(c.argv, c.risk) for c in commands] == [
        (("echo", "hi"), RiskLevel.DESTRUCTIVE),
        (("ls",), RiskLevel.READ_ONLY),
    ]
    assert commands[0].text == "echo hi > /etc/hosts"
    assert [c.marks for c in commands] == [("> /etc/hosts",), ()]


def test_parts_that_raise_the_level_without_a_program_are_listed_with_empty_argv() -> None:
    # a redirect on a compound command, a hijacking assignment, a parse error, an empty script
    for script in ("{ ls; } > /etc/x", "PATH=/tmp/x", "ls (", ""):
        commands = classify(script, contained=False, workspace=WORKSPACE).commands
        assert any(c.argv == () and c.risk > RiskLevel.READ_ONLY for c in commands), script


def test_a_shell_wrapper_with_nothing_inside_is_listed_itself() -> None:
    commands = classify("sudo bash -c '[[ -f x ]]'", contained=False, workspace=WORKSPACE).commands
    assert [c.argv for c in commands] == [("bash", "-c", "[[ -f x ]]")]
    assert commands[0].risk == RiskLevel.SYSTEM


def test_redirect_after_a_list_belongs_to_its_last_command() -> None:
    commands = classify("cd .. && echo hi >> x", contained=False, workspace=WORKSPACE).commands
    assert [(c.argv, c.risk) for c in commands] == [
        (("cd", ".."), RiskLevel.READ_ONLY),
        (("echo", "hi"), RiskLevel.SYSTEM),
    ]


def test_a_large_script_lists_every_command() -> None:
    script = "ls -la src\n" * 2000
    commands = classify(script, contained=False, workspace=WORKSPACE).commands
    assert len(commands) == 2000
