"""dotnet test's logger files, helm plugins, start-up files of tmux, screen, vi and Emacs, and pip list's index
queries. Each case checks one side; its neighbours check the other."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE
WORKSPACE = Path("/home/dev/project")


def grade(command: str, contained: bool = False) -> RiskLevel:
    return classify(command, contained=contained, workspace=WORKSPACE).risk


def rules(command: str, contained: bool = False) -> set[str]:
    return {r.rule for r in classify(command, contained=contained, workspace=WORKSPACE).reasons}


# -- dotnet test --logger "NAME;LogFileName=PATH" --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('dotnet test --logger "trx;LogFileName=/home/dev/.bashrc"', DES),
        ('dotnet test --logger "junit;LogFilePath=/home/dev/.profile"', DES),
        ('dotnet test -l "trx;LogFileName=/srv/results.trx"', SYS),
        ("dotnet test '--logger=trx;LogFileName=/srv/r.trx'", SYS),
    ],
)
def test_a_dotnet_test_logger_file_is_a_write_where_it_lands(command: str, expected: RiskLevel) -> None:
    assert grade(command) == expected


@pytest.mark.parametrize(
    "command",
    ["dotnet test", "dotnet test --logger trx", 'dotnet test --logger "trx;LogFileName=results.trx"'],
)
def test_a_dotnet_test_logger_in_the_workspace_stays_build_or_test(command: str) -> None:
    assert grade(command) == WW


def test_mocha_reporter_options_are_still_pairs_split_on_commas() -> None:
    assert grade("mocha --reporter-option output=/srv/x.xml,foo=bar") == SYS


# -- helm plugins ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "helm plugin install https://github.com/unknown/helm-x",
        "helm plugin install ./plugin",
        "helm plugin update diff",
    ],
)
def test_helm_plugin_install_is_a_tool_plugin(command: str) -> None:
    assert grade(command) == DES
    assert "tool-plugin" in rules(command)
    assert grade(command, contained=True) == SYS


def test_helm_plugin_list_only_reads_and_uninstall_stays_system() -> None:
    assert grade("helm plugin list") == RO
    assert grade("helm plugin uninstall diff") == SYS


# -- start-up files that run commands ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "echo 'set-hook -g session-created \"run-shell /tmp/x.sh\"' >> ~/.tmux.conf",
        "echo 'exec /tmp/x.sh' >> ~/.screenrc",
        "cp init.el ~/.emacs.d/init.el",
        "echo '!sh /tmp/x' >> ~/.exrc",
    ],
)
def test_a_write_to_a_start_up_file_that_runs_commands_is_protected(command: str) -> None:
    assert grade(command) == DES
    assert "protected-path-write" in rules(command)


def test_reading_tmux_conf_stays_read_only() -> None:
    assert grade("cat ~/.tmux.conf") == RO


# -- pip list --outdated asks the index --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command", ["pip list --outdated", "pip list -o", "pip3 list --uptodate", "python -P -m pip list --outdated"]
)
def test_pip_list_outdated_asks_the_index(command: str) -> None:
    assert grade(command) == NET


@pytest.mark.parametrize(
    "command", ["pip list", "pip list --format=freeze", "pip show requests", "pip list --path ./vendor"]
)
def test_pip_list_without_outdated_only_reads(command: str) -> None:
    assert grade(command) == RO
