"""Secrets read through ``..``: a relative path climbing out of the workspace is judged where it lands, from the
escalation's working directory as the server has it (no path report from the adapter), and fails closed when that
directory is not known."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import GivenRecipes

R = RiskLevel
ROOT = Path(__file__).resolve().parents[2]
CWDS = ["/srv/attack/work", "/home/dev/project", None]


def grade(command: str, workspace: str | None) -> RiskLevel:
    """The server's grade: the adapter's path report is empty (GivenRecipes with nothing)."""
    return classify(command, contained=False, workspace=workspace, recipes=GivenRecipes(())).risk


@pytest.mark.parametrize("workspace", CWDS)
@pytest.mark.parametrize(
    "command",
    [
        "cat ../../../etc/shadow",
        "cat ../../../../../../../etc/shadow",
        "cat sub/../../../../etc/gshadow",
        "head -c 100 ../../../proc/self/environ",
        "cat ../../../etc/ssh/ssh_host_ed25519_key",
        "cat ../../../root/.local/state/flybot/local.json",
        "cat ../../../home/dev/.ssh/id_rsa",
        "grep root ../../../etc/shadow",
        'cd "$D" && cat ../../etc/shadow',
        'cd "$D" && cat ../.ssh/id_rsa',
    ],
)
def test_a_secret_read_through_dot_dot_is_a_secret_read(command: str, workspace: str | None) -> None:
    assert grade(command, workspace) == R.NETWORK


@pytest.mark.parametrize("workspace", CWDS)
@pytest.mark.parametrize("command", ["cat ../README.md", "cat src/../docs/index.md", "diff ../a.txt b.txt"])
def test_a_read_through_dot_dot_of_an_ordinary_file_stays_read_only(command: str, workspace: str | None) -> None:
    assert grade(command, workspace) == R.READ_ONLY


def test_a_climb_that_lands_on_no_secret_from_a_known_directory_stays_read_only() -> None:
    assert grade("cat ../../etc/shadow", "/srv/attack/work") == R.READ_ONLY  # /srv/etc/shadow


@pytest.mark.parametrize("cwd", [["--cwd", "/nonexistent/attack/work"], []])
def test_flybot_classify_grades_a_climbing_secret_read_network(cwd: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot.risk.cli", "classify", *cwd, "--", "cat ../../../etc/shadow"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("risk: network"), result.stdout
    assert "secret-read" in result.stdout
