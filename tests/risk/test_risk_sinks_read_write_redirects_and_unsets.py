"""Grades a held-back corpus found too high for a wrong reason: a copy to standard output, bash's read-write
redirect, removing a git config key, kubectl's client version, and the reason a link out of the workspace gives.
Each case checks one side; its neighbours check the other. The workspace is a real directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "README.md").write_text("hello\n")
    return root


def assess(command: str, workspace: Path, contained: bool = False) -> tuple[RiskLevel, dict[str, str]]:
    found = classify(command, contained=contained, workspace=workspace, recipes=ProjectRecipes(workspace))
    return found.risk, {r.rule: r.detail for r in found.reasons}


def grade(command: str, workspace: Path, contained: bool = False) -> RiskLevel:
    return assess(command, workspace, contained)[0]


# -- a sink is no directory ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["cp README.md /dev/stdout", "cp -r src /dev/null", "cp README.md src /dev/stderr"])
def test_a_copy_to_a_sink_writes_nothing(command: str, workspace: Path) -> None:
    assert grade(command, workspace) == RO


def test_a_copy_of_a_credential_file_to_standard_output_is_a_secret_read_only(workspace: Path) -> None:
    risk, found = assess("cp ~/.netrc /dev/stdout", workspace)
    assert risk == NET and "secret-read" in found and "device-write" not in found


@pytest.mark.parametrize("command", ["cp README.md /dev/sda", "cp README.md /dev/sda1/x"])
def test_a_copy_to_a_disk_device_stays_destructive(command: str, workspace: Path) -> None:
    assert grade(command, workspace) == DES


# -- bash's read-write redirect [n]<>WORD ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    ["exec 3<>/dev/tcp/example.com/80; echo hi >&3; cat <&3", "exec 5<>/dev/udp/10.0.0.1/53", "exec 4<> /dev/tcp/h/1"],
)
@pytest.mark.parametrize("contained", [False, True])
def test_a_read_write_socket_parses_and_is_network(command: str, contained: bool, workspace: Path) -> None:
    risk, found = assess(command, workspace, contained)
    assert risk == NET
    assert "parse-error" not in found and "network-socket" in found


def test_a_read_write_redirect_writes_its_file(workspace: Path) -> None:
    assert grade("exec 3<> notes.txt", workspace) == WW
    assert grade("exec 3<>/tmp/scratch", workspace) == WW
    risk, found = assess("exec 3<>/etc/hosts", workspace)
    assert risk == DES and "protected-path-write" in found


@pytest.mark.parametrize("command", ["exec 3< >f", "exec 3<>", "cat < > f"])
def test_a_split_or_empty_read_write_redirect_stays_a_parse_error(command: str, workspace: Path) -> None:
    risk, found = assess(command, workspace)
    assert risk == DES and "parse-error" in found


# -- removing a git config key ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("git config --unset credential.helper", WW),
        ("git config --unset-all credential.helper", WW),
        ("git config unset credential.helper", WW),
        ("git config --global --unset credential.helper", SYS),
        ("git config --unset core.fsmonitor", WW),
    ],
)
def test_removing_a_key_that_names_a_program_runs_none(command: str, level: RiskLevel, workspace: Path) -> None:
    assert grade(command, workspace) == level


@pytest.mark.parametrize(
    "command",
    [
        "git config --unset core.hooksPath",
        "git config unset core.hooksPath",
        "git config --unset remote.origin.pushurl",
        "git config unset branch.main.pushRemote",
        "git config --unset",
        "git config unset",
        "git config --file ~/.gitconfig --unset credential.helper",
        "git config credential.helper store",
    ],
)
def test_removing_hooks_path_or_push_places_and_setting_helpers_stay_destructive(command: str, workspace: Path) -> None:
    assert grade(command, workspace) == DES


# -- kubectl's own version -------------------------------------------------------------------------------------------
def test_kubectl_client_version_only_prints(workspace: Path) -> None:
    assert grade("kubectl version --client", workspace) == RO
    assert grade("kubectl version --client -o json", workspace) == RO
    assert grade("kubectl version", workspace) == NET
    assert grade("kubectl version --client=false", workspace) == NET


# -- a link out of the workspace: the reason says what it risks ------------------------------------------------------
def test_a_link_out_of_the_workspace_is_said_to_lead_later_writes_there(workspace: Path) -> None:
    risk, found = assess("ln -s /etc/passwd passwd-link", workspace)
    assert risk == DES
    assert "later writes" in found["protected-path-write"] and "/etc/passwd" in found["protected-path-write"]
    assert grade("ln -s ../README.md again", workspace / "src") >= WW
