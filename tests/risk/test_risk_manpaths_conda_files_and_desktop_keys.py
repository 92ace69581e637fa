"""Reads and host changes that said less than they do:

- ``man -M DIR``/``--manpath DIR`` formats a page from a directory the caller chose, whose ``.so`` requests may
  name any file (a secret read, as ``man -l``), where plain ``man ls`` only shows installed pages;
- ``conda config --show-sources``, and ``--show``/``--get`` without a key or of ``proxy_servers``, print proxy
  passwords (a secret read); ``--show channels`` only reads;
- ``conda env create|update -f FILE`` hands the file's pip section to pip: a file outside the workspace is a
  project there, as ``conda create --file`` is;
- ``dconf load`` (keys unseen) and ``dconf write|reset`` of a keybinding command or the lock screen, and
  ``defaults import`` (any key, LoginHook among them), run a program later or weaken the session's protection:
  destructive on the host. Other keys keep the grade of a change under ~."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes
from tests.risk.both_sides import graded, project

DES = RiskLevel.DESTRUCTIVE
SYS = RiskLevel.SYSTEM
NET = RiskLevel.NETWORK
WW = RiskLevel.WORKSPACE_WRITE
RO = RiskLevel.READ_ONLY


def _both(command: str, workspace: Path) -> tuple[RiskLevel, RiskLevel]:
    host, _ = graded(command, workspace)
    inside = classify(command, contained=True, workspace=str(workspace), recipes=ProjectRecipes(workspace)).risk
    return host, inside


@pytest.mark.parametrize(
    ("command", "host", "inside"),
    [
        ("man -M ../elsewhere ls", NET, NET),
        ("man -M . ls", NET, NET),
        ("man --manpath=../elsewhere ls", NET, NET),
        ("conda config --show", NET, NET),
        ("conda config --show-sources", NET, NET),
        ("conda config --get", NET, NET),
        ("conda config --show proxy_servers", NET, NET),
        ("conda env create -f ../elsewhere/environment.yml", DES, DES),
        ("conda env update --file ../elsewhere/environment.yml", DES, DES),
        ("mamba env create -f ../elsewhere/environment.yml", DES, DES),
        (
            "dconf write /org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/custom0/command \"'id'\"",
            DES,
            SYS,
        ),
        ("dconf write /org/gnome/desktop/screensaver/lock-enabled false", DES, SYS),
        ("dconf reset -f /", DES, SYS),
        ("dconf load / < settings.ini", DES, SYS),
        ("dconf load /org/gnome/terminal/ < settings.ini", DES, SYS),
        ("defaults import com.apple.loginwindow x.plist", DES, SYS),
    ],
)
def test_said_less_than_it_does(tmp_path: Path, command: str, host: RiskLevel, inside: RiskLevel) -> None:
    assert _both(command, project(tmp_path, {"settings.ini": "[x]\n"})) == (host, inside)


@pytest.mark.parametrize(
    ("command", "host", "inside"),
    [
        ("man ls", RO, RO),
        ("man 5 crontab", RO, RO),
        ("conda config --describe", RO, RO),
        ("conda config --show channels", RO, RO),
        ("conda config --get channels", RO, RO),
        ("conda info", RO, RO),
        ("conda env create -f environment.yml", SYS, NET),
        ("dconf write /org/gnome/desktop/interface/gtk-theme \"'Adwaita'\"", SYS, WW),
        ("dconf reset /org/gnome/desktop/interface/gtk-theme", SYS, WW),
        ("dconf read /org/gnome/desktop/screensaver/lock-enabled", RO, RO),
        ("dconf dump /", RO, RO),
        ("defaults write com.apple.dock autohide -bool true", SYS, WW),
        ("defaults read com.apple.dock", RO, RO),
    ],
)
def test_everyday_forms_keep_their_grade(tmp_path: Path, command: str, host: RiskLevel, inside: RiskLevel) -> None:
    assert _both(command, project(tmp_path, {"environment.yml": "name: x\n"})) == (host, inside)
