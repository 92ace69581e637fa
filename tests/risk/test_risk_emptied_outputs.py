"""Output directories a tool empties before it writes there (pytest --basetemp, mkdocs, vite, jekyll), the options
pytest's ``-o addopts=`` sets, and pytest's ini files written earlier in the same command. Each case checks one side;
its neighbours check the other."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

WW = RiskLevel.WORKSPACE_WRITE
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE
WORKSPACE = Path("/home/dev/project")


def grade(command: str, contained: bool = False) -> RiskLevel:
    return classify(command, contained=contained, workspace=WORKSPACE).risk


def rules(command: str) -> dict[str, str]:
    return {r.rule: r.detail for r in classify(command, contained=False, workspace=WORKSPACE).reasons}


# -- a directory emptied outside the workspace is a deletion ---------------------------------------------------------
EMPTIED_OUTSIDE = [
    "pytest -q --basetemp=/home/dev/projects",
    "pytest --basetemp /srv/data",
    "pytest --basetemp=.",  # the workspace itself
    "pytest --basetemp=..",  # the directory holding it
    "pytest --basetemp=/tmp",  # a temp area's root
    "python -m pytest --basetemp=/home/dev/other",
    "mkdocs build -d /home/dev/projects",
    "mkdocs build --clean --site-dir /home/dev/projects",
    "mkdocs build --site-dir=/srv/www",
    "mkdocs gh-deploy -d /srv/www",
    "npx vite build --outDir /home/dev/projects --emptyOutDir",
    "vite build --outDir=/srv/www",
    "jekyll build -d /srv/www",
    "jekyll serve --destination /srv/www",
]


@pytest.mark.parametrize("command", EMPTIED_OUTSIDE)
def test_an_output_directory_emptied_outside_the_workspace_is_a_deletion(command: str) -> None:
    assert grade(command) == DES
    assert "empties" in rules(command)["deletion"]


@pytest.mark.parametrize("command", ["pytest --basetemp=/home/dev/x", "mkdocs build -d /srv/www"])
def test_an_emptied_directory_stays_destructive_contained(command: str) -> None:
    assert grade(command, contained=True) == DES


EMPTIED_INSIDE = [
    "pytest --basetemp=build/pytest",
    "pytest --basetemp /tmp/pytest-run",
    "mkdocs build",
    "mkdocs build -d site2",
    "mkdocs build --strict",
    "vite build --outDir dist --emptyOutDir",
    "jekyll build -d _site",
]


@pytest.mark.parametrize("command", EMPTIED_INSIDE)
def test_an_output_directory_emptied_below_the_workspace_or_temp_area_is_a_write(command: str) -> None:
    assert grade(command) == WW


def test_a_plain_output_option_outside_the_workspace_stays_a_write_there() -> None:
    assert grade("pytest --junitxml=/srv/report.xml") == SYS
    assert grade("sphinx-build docs /srv/www") == SYS


# -- pytest -o addopts=... -------------------------------------------------------------------------------------------
ADDOPTS = [
    ("pytest -o addopts='--basetemp=/home/dev' -q", "deletion"),
    ("pytest -q -o addopts='--junitxml=/home/dev/.bashrc'", "protected-path-write"),
    ("pytest --override-ini=addopts='--junitxml=/home/dev/.profile'", "protected-path-write"),
    ("pytest --override-ini 'addopts=-p evil_plugin'", "runs-program"),
    ("pytest -oaddopts=--basetemp=/srv/data", "deletion"),
    ("pytest -o 'addopts=--cov-report=html:/home/dev/.config/autostart'", "protected-path-write"),
    ('pytest -o "$SETTING"', "runs-program"),
    ("pytest -o 'addopts=\"unclosed'", "runs-program"),
]


@pytest.mark.parametrize(("command", "rule"), ADDOPTS)
def test_options_pytest_o_addopts_sets_are_graded_as_given(command: str, rule: str) -> None:
    assert grade(command) == DES
    assert rule in rules(command)


@pytest.mark.parametrize(
    "command",
    ["pytest -o addopts=-q", "pytest -o 'addopts=-q --basetemp=build/t'", "pytest -o cache_dir=.cache -q"],
)
def test_harmless_addopts_overrides_stay_build_or_test(command: str) -> None:
    assert grade(command) == WW


# -- pytest's ini files written earlier in the same command ----------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "printf '[pytest]\\naddopts = --basetemp=/home/dev/projects\\n' > pytest.ini && pytest -q",
        "printf '[tool.pytest.ini_options]\\naddopts = \"--basetemp=/home/dev\"\\n' >> pyproject.toml && pytest -q",
        "echo '[tool:pytest]' > setup.cfg && pytest -q",
        "echo '[pytest]' > tox.ini && python -m pytest -q",
        "echo '[pytest]' > .pytest.ini && py.test",
    ],
)
def test_pytest_after_its_ini_file_is_written_is_config_rewritten(command: str) -> None:
    assert grade(command) == DES
    assert "config-rewritten" in rules(command)


@pytest.mark.parametrize("command", ["echo x > notes.txt && pytest -q", "echo '[pytest]' > pytest.ini"])
def test_pytest_without_its_ini_file_written_before_stays_a_write(command: str) -> None:
    assert grade(command) == WW
