"""Python tools' configuration and interpreters: ``poetry config`` with values changes the user's configuration (a
package source or TLS setting ranks as ``pip config set global.index-url``), ``poetry env use PATH``, ``pipenv
--python PATH`` and ``uv --python PATH`` run that program, ``poetry env remove`` deletes, ``poetry version RULE``
rewrites pyproject.toml. Reading the configuration or the environments stays read-only."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

RO, WW, NET, SYS, DES = (
    RiskLevel.READ_ONLY,
    RiskLevel.WORKSPACE_WRITE,
    RiskLevel.NETWORK,
    RiskLevel.SYSTEM,
    RiskLevel.DESTRUCTIVE,
)
WORKSPACE = Path("/home/dev/project")


def graded(command: str, *, contained: bool = False) -> tuple[RiskLevel, list[str]]:
    result = classify(command, contained=contained, workspace=WORKSPACE)
    return result.risk, [r.rule for r in result.reasons]


@pytest.mark.parametrize(
    ("command", "grade", "rule"),
    [
        ("poetry config certificates.pypi.cert false", DES, "package-source"),
        ("poetry config repositories.x https://evil.example/simple", DES, "package-source"),
        ("poetry config http-basic.x user pass", DES, "package-source"),
        ("poetry config pypi-token.pypi tok", DES, "package-source"),
        ("poetry config --local repositories.x https://evil.example/simple", DES, "package-source"),
        ("poetry config --unset repositories.x", DES, "package-source"),
        ("poetry config virtualenvs.in-project true", SYS, "write-outside-workspace"),
        ("poetry config --unset virtualenvs.path", SYS, "write-outside-workspace"),
        ("poetry config --local virtualenvs.path /tmp/x", WW, "write-in-workspace"),
        ("poetry config --frobnicate x y", DES, "unrecognised-use"),
        ("poetry env use ./evil.sh", DES, "runs-program"),
        ("poetry env use /tmp/x/python", DES, "runs-program"),
        ("poetry env use ~/bin/python", DES, "runs-program"),
        ("poetry env use $PY", DES, "runs-program"),
        ("poetry env use 3.12", SYS, "write-outside-workspace"),
        ("poetry env remove --all", DES, "deletion"),
        ("poetry env remove 3.12", DES, "deletion"),
        ("poetry env frobnicate", DES, "unrecognised-use"),
        ("poetry version major", WW, "write-in-workspace"),
        ("pipenv --python ./evil.sh", DES, "runs-program"),
        ("pipenv --python=/tmp/x/python3 install", DES, "runs-program"),
        ("pipenv --python 3.11", SYS, "write-outside-workspace"),
        ("uv venv --python ./evil.sh", DES, "runs-program"),
        ("uv venv -p /tmp/x/python", DES, "runs-program"),
        ("uv run --python=./evil pytest", DES, "runs-program"),
        ("uv python pin ./evil", DES, "runs-program"),
        ("uv python pin ~/x/python", DES, "runs-program"),
    ],
)
def test_python_tools_that_change_configuration_run_an_interpreter_or_delete_grade_high(
    command: str, grade: RiskLevel, rule: str
) -> None:
    risk, rules = graded(command)
    assert risk is grade and rule in rules, rules


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("poetry config --list", RO),
        ("poetry config", RO),
        ("poetry config virtualenvs.path", RO),
        ("poetry config repositories.x", RO),
        ("poetry env info", RO),
        ("poetry env info -p", RO),
        ("poetry env list --full-path", RO),
        ("poetry env", RO),
        ("poetry version", RO),
        ("poetry version --short", RO),
        ("poetry version patch --dry-run", RO),
        ("poetry show", RO),
        ("pipenv --venv", RO),
        ("pipenv --py", RO),
        ("pipenv install", NET),
        ("uv venv", WW),
        ("uv venv --python 3.12", WW),
        ("uv run -p 3.12 pytest", WW),
        ("uv --python=/usr/bin/python3 sync", NET),
        ("uv python pin 3.12", WW),
        ("uv python pin cpython@3.12", WW),
    ],
)
def test_reading_settings_and_choosing_a_version_keep_their_grade(command: str, grade: RiskLevel) -> None:
    assert graded(command)[0] is grade


def test_a_package_source_set_in_a_sandbox_is_a_write_there() -> None:
    assert graded("poetry config repositories.x https://evil.example/simple", contained=True)[0] is WW
