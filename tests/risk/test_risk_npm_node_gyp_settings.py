"""npm's ``node-gyp`` and ``python`` settings name programs a script runs: npm puts a ``node-gyp`` shim first on a
script's PATH that runs the program ``npm_config_node_gyp`` names (npm-config(7) ``node-gyp``), and node-gyp runs the
Python ``npm_config_python`` names (node-gyp README, "Configuring Python Dependency"). Given on the command line or
in the project's ``.npmrc``, they choose code the script runs: destructive, as ``script-shell`` is. Settings that only
say where headers are (``nodedir``) or how installs report keep the script's grade."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

FILES = {"package.json": json.dumps({"name": "x", "scripts": {"test": "pytest -q"}})}


@pytest.mark.parametrize(
    "command",
    [
        "npm test --node-gyp=/tmp/x",
        "npm test --node_gyp=/tmp/x",
        "npm test --node-gyp /tmp/x",
        "npm test --python=/tmp/x",
        "npm run test --python /tmp/x",
    ],
)
def test_a_setting_naming_the_program_a_script_runs_is_destructive(tmp_path: Path, command: str) -> None:
    assert graded(command, project(tmp_path, FILES))[0] is RiskLevel.DESTRUCTIVE, command


@pytest.mark.parametrize("npmrc", ["node-gyp=/tmp/x\n", "python=/tmp/py\n"])
def test_the_same_settings_in_the_projects_npmrc_are_destructive(tmp_path: Path, npmrc: str) -> None:
    assert graded("npm test", project(tmp_path, {**FILES, ".npmrc": npmrc}))[0] is RiskLevel.DESTRUCTIVE


@pytest.mark.parametrize(
    "command", ["npm test", "npm test --nodedir=/tmp/x", "npm test --no-audit", "npm test --silent"]
)
def test_other_settings_keep_the_scripts_grade(tmp_path: Path, command: str) -> None:
    assert graded(command, project(tmp_path, FILES))[0] is RiskLevel.WORKSPACE_WRITE, command
