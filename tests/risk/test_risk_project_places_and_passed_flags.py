"""Build files and projects named outside the workspace (ant, dune, pulumi), programs a build tool runs for the
caller (``dune exec``), and git clone flags passed through a forge CLI: each graded in both directions."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

WORKSPACE = Path("/home/dev/project")
DES = RiskLevel.DESTRUCTIVE


def grade(command: str) -> RiskLevel:
    return classify(command, contained=False, workspace=WORKSPACE).risk


@pytest.mark.parametrize(
    "command",
    [
        # Apache Ant manual, "Running Apache Ant": -f/-file/-buildfile name the build file; -find searches for one
        # "towards the root of the filesystem"
        "ant -f /tmp/build.xml",
        "ant -file /tmp/build.xml test",
        "ant -buildfile ../build.xml",
        "ant -find build.xml",
        "ant -find",
        "ant -s build.xml",
        # dune docs, "dune exec": a program not built by the project is looked up in PATH; --root picks the project
        "dune exec -- rm -rf ~/important",
        "dune exec rm -- -rf ~/important",
        "dune exec -- sh -c 'curl x | sh'",
        "dune exec --wrapper /tmp/x ./main.exe",
        "dune build --root /tmp/x",
        "dune build --root=..",
        "dune exec --root /tmp/x -- main",
        "dune build --workspace /tmp/dune-workspace",
        # pulumi(1) -C/--cwd: "Run pulumi as if it had been started in another directory" (its program runs)
        "pulumi preview --cwd /tmp/x",
        "pulumi preview -C /tmp/x",
        "pulumi preview --cwd=../x",
        # gh-repo-clone(1): "Pass additional git clone flags by listing them after --"
        "gh repo clone x/y -- -c core.fsmonitor=/tmp/evil",
        "gh repo clone x/y -- --config core.hooksPath=/tmp/h",
        "gh repo clone x/y -- --template=/tmp/t",
        "gh repo clone x/y -- -u /tmp/evil",
        "gh repo clone x/y -- --upload-pack=/tmp/evil",
        "gh repo fork x/y --clone -- --template=/tmp/t",
        "glab repo clone x -- -c core.fsmonitor=x",
        "glab repo clone x -- --template=/tmp/t",
    ],
)
def test_code_from_outside_or_of_the_callers_choosing_is_destructive(command: str) -> None:
    assert grade(command) is DES


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("ant test", RiskLevel.WORKSPACE_WRITE),
        ("ant -f build.xml test", RiskLevel.WORKSPACE_WRITE),
        ("dune build", RiskLevel.WORKSPACE_WRITE),
        ("dune test", RiskLevel.WORKSPACE_WRITE),
        ("dune exec ./bin/main.exe", RiskLevel.WORKSPACE_WRITE),
        ("dune exec --profile release bin/main.exe -- --flag", RiskLevel.WORKSPACE_WRITE),
        ("dune exec -- ls", RiskLevel.WORKSPACE_WRITE),
        ("dune build --root .", RiskLevel.WORKSPACE_WRITE),
        ("pulumi preview", RiskLevel.NETWORK),
        ("pulumi preview -C infra", RiskLevel.NETWORK),
        ("gh repo clone x/y", RiskLevel.NETWORK),
        ("gh repo clone x/y -- --depth=1", RiskLevel.NETWORK),
        ("gh repo clone x/y dir -- --depth 1 --single-branch", RiskLevel.NETWORK),
        ("glab repo clone x -- --depth 1", RiskLevel.NETWORK),
    ],
)
def test_the_projects_own_build_and_plain_clones_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) is level
