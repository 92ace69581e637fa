"""Start-up files, extension trees and PATH directories of a home outside the first protected list (sensitive.py
``_SESSION_START``, ``_HOME_PROTECTED_PAIRS``, ``_HOME_PLACES``, ``_PATH_TREES``), and HTTPie's and xh's
``--session`` file: appending, linking, extracting, syncing or cloning there is destructive on the host; reading
them, listing them and writing in the workspace are graded as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from tests.risk.both_sides import graded, project

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE

FILES = {"package.json": '{"name": "x", "scripts": {"test": "jest"}}', "x": "", "ext/a.txt": ""}


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return project(tmp_path, FILES)


HOSTILE = [
    # systemd user units below $XDG_DATA_HOME, enabled by a *.wants link
    "mkdir -p ~/.local/share/systemd/user/default.target.wants && ln -s /tmp/x.service "
    "~/.local/share/systemd/user/default.target.wants/x.service",
    "ln -s /tmp/x.service ~/.local/share/systemd/user/x.service",
    "tar xf p.tgz -C ~/.local/share/systemd",
    # a directory above a protected pair: unpacking or cloning there writes its bin/config too
    "tar xf p.tgz -C ~/.yarn",
    "git clone https://github.com/acme/x ~/go",
    "tar xf p.tgz -C ~/Library",
    # shell start-up code sourced by .bashrc/.profile or a framework
    "echo '. /tmp/x' >> ~/.cargo/env",
    "tee -a ~/.fzf.bash < x",
    "echo x >> ~/.fzf.zsh",
    "echo x >> ~/.bash_completion",
    "echo x >> ~/.ghcup/env",
    "echo x >> ~/.asdf/asdf.sh",
    "echo x >> ~/.local/share/bash-completion/completions/git",
    "echo x >> ~/.local/share/fish/vendor_conf.d/x.fish",
    # build tools' start-up code
    "echo x >> ~/.mavenrc",
    "echo x >> ~/.sbt/1.0/global.sbt",
    "cp x ~/.sbt/1.0/plugins/",
    "echo x >> ~/.jupyter/jupyter_server_config.py",
    "echo x >> ~/.local/share/jupyter/kernels/python3/kernel.json",
    "echo x >> ~/.julia/config/startup.jl",
    # editor extensions
    "unzip x.zip -d ~/.vscode/extensions/",
    "rsync -a ext/ ~/.vscode/extensions/evil-1.0.0/",
    "git clone https://github.com/acme/x ~/.vscode/extensions/x",
    "echo x >> ~/.vscode-server/extensions/x/extension.js",
    "tar xf x.tgz -C ~/.windsurf/extensions",
    "echo x >> ~/.local/share/nvim/lazy/x/plugin/x.lua",
    "git clone https://github.com/acme/x ~/.local/share/nvim/lazy/x",
    # Terraform's implied local mirror
    "tar xf p.tgz -C ~/.terraform.d/plugins",
    # the user's Python site and Node's global folders
    "echo x >> ~/.local/lib/python3.12/site-packages/requests/__init__.py",
    "unzip x.whl -d ~/.local/lib/python3.12/site-packages",
    "echo x >> ~/.node_modules/x/index.js",
    "echo x >> ~/.local/lib/node_modules/x/index.js",
    # PATH directories package managers put first
    "echo x >> ~/.volta/bin/git",
    "ln -s /tmp/x ~/.local/share/mise/shims/git",
    "echo x >> ~/.local/share/pnpm/git",
    "ln -s /tmp/x ~/.yarn/bin/git",
    "echo x >> ~/.dotnet/tools/git",
    "echo x >> ~/.krew/bin/kubectl-x",
    "echo x >> ~/.cabal/bin/git",
    "echo x >> ~/.npm-global/bin/git",
    "echo x >> ~/.nix-profile/bin/git",
    "echo x >> /opt/homebrew/bin/git",
    "echo x >> /opt/homebrew/etc/profile.d/x.sh",
    "echo x >> /home/linuxbrew/.linuxbrew/bin/git",
    "echo x >> ~/.docker/cli-plugins/docker-x",
    # login agents and configuration of every later download
    "echo x >> ~/Library/LaunchAgents/x.plist",
    "echo x >> ~/.curlrc",
    "echo x >> ~/.wgetrc",
    "echo x >> ~/.gemrc",
    "echo x >> ~/.sqliterc",
    "echo x >> ~/.local/share/direnv/allow/abc",
    "echo x >> ~/.shrc",
    "echo x >> ~/.mozilla/firefox/x.default/user.js",
    # HTTPie and xh save their session file at a path holding a /
    "http --session=~/.bashrc https://api.example.com/x",
    "http --session ~/.bashrc https://api.example.com/x",
    "http --session=/home/u/.profile https://api.example.com/x 'X:$(id)'",
    "xh --session=~/.zshrc https://api.example.com/x",
]


@pytest.mark.parametrize("command", HOSTILE)
def test_writes_into_start_up_places_are_destructive_on_the_host(ws: Path, command: str) -> None:
    risk, details = graded(command, ws)
    assert risk is DES, details
    assert any("protected-path-write" in r.rule for r in classify(command, contained=False, workspace=ws).reasons)


@pytest.mark.parametrize(
    "command",
    [
        "echo x >> ~/.cargo/env",
        "unzip x.zip -d ~/.vscode/extensions/",
        "tar xf p.tgz -C ~/.terraform.d/plugins",
        "echo x >> ~/.volta/bin/git",
    ],
)
def test_contained_the_same_writes_follow_the_downgrade(ws: Path, command: str) -> None:
    assert classify(command, contained=True, workspace=ws).risk < DES


@pytest.mark.parametrize(
    "command",
    [
        "cat ~/.cargo/env",
        "ls ~/.vscode/extensions",
        "ls ~/.vscode-server/extensions",
        "cat ~/.mavenrc",
        "cat ~/.fzf.bash",
        "ls ~/.local/lib/python3.12/site-packages",
        "cat ~/.local/lib/python3.12/site-packages/requests/__init__.py",
        "ls ~/.local/share/nvim/lazy",
        "ls ~/.local/share/systemd/user",
        "ls ~/.volta/bin",
        "cat ~/.sbt/1.0/global.sbt",
        "ls /opt/homebrew/bin",
        "ls ~/.terraform.d/plugins",
    ],
)
def test_reading_those_places_stays_read_only(ws: Path, command: str) -> None:
    risk, details = graded(command, ws)
    assert risk is RO, details


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("echo x >> notes.txt", WW),
        ("cp x .vscode-notes.txt", WW),
        ("mkdir -p ~/.local/share/systemd", SYS),
        ("mkdir -p ~/.local/share/nvim", SYS),
        ("mkdir -p ~/.yarn", SYS),
        ("mkdir -p ~/go", SYS),
        ("echo x >> ~/.gradle/caches/x.log", SYS),
        ("ls ~/go", RO),
        ("cat ~/.mozilla/firefox/x.default/user.js", RO),
        ("cat ~/.inputrc", RO),
        ("echo x >> ~/notes.txt", SYS),
        ("echo x >> ~/.local/share/applications/x.desktop", SYS),
        ("http --session=s1 https://api.example.com/x", SYS),
        ("http --session-read-only=s1 https://api.example.com/x", NET),
        ("http https://api.example.com/x", NET),
    ],
)
def test_everyday_neighbours_are_not_over_graded(ws: Path, command: str, level: RiskLevel) -> None:
    risk, details = graded(command, ws)
    assert risk is level, details


def test_a_session_file_in_the_workspace_is_not_a_protected_write(ws: Path) -> None:
    risk, details = graded("http --session=./api-session.json https://api.example.com/x", ws)
    assert risk < DES, details
