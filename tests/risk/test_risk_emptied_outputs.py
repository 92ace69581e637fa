"""Output directories a tool empties before it writes there (pytest --basetemp, mkdocs, vite, jekyll), the options
pytest's ``-o addopts=`` sets, and pytest's ini files written earlier in the same command. Each case checks one side;
its neighbours check the other."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import GivenRecipes, ProjectRecipes
from tests.harness import Harness
from tests.test_standing import asks, auto
from tests.test_standing_coverage import _approve, sent

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
    "ng build --output-path /srv/www",
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
    "ng build --output-path=dist/app",
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


# -- pytest's addopts from the workspace's configuration file --------------------------------------------------------
def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir(parents=True)
    for name, text in files.items():
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).write_text(text)
    return ws.resolve()


def _adapter_and_server(command: str, ws: Path) -> tuple[RiskLevel, RiskLevel, set[str]]:
    """The grade on the adapter's side (reading ``ws``), on the server's (from what the adapter sent), and the rules."""
    read = classify(command, contained=False, workspace=str(ws), recipes=ProjectRecipes(ws))
    given = classify(command, contained=False, workspace=str(ws), recipes=GivenRecipes(read.recipes))
    return read.risk, given.risk, {r.rule for r in read.reasons}


CONFIGURED = [
    ({"pytest.ini": "[pytest]\naddopts = --basetemp=/home/dev/projects -q\n"}, "deletion"),
    ({".pytest.ini": "[pytest]\naddopts = --junitxml=/home/dev/.bashrc\n"}, "protected-path-write"),
    ({"pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-p evil_plugin"\n'}, "runs-program"),
    ({"pyproject.toml": '[tool.pytest.ini_options]\naddopts = ["--basetemp", "/srv/data"]\n'}, "deletion"),
    ({"tox.ini": "[pytest]\naddopts =\n    -q\n    --basetemp=/srv/data\n"}, "deletion"),
    ({"setup.cfg": "[tool:pytest]\naddopts = --cov-report=html:/home/dev/.config/autostart\n"}, "protected-path-write"),
    ({"pytest.ini": "[pytest\naddopts = -q\n"}, "recipe-unreadable"),  # not INI: fail closed
    ({"pyproject.toml": "[tool.pytest.ini_options\n"}, "recipe-unreadable"),  # not TOML
    ({"pytest.ini": "[pytest]\naddopts = '--unclosed\n"}, "recipe-unreadable"),  # not shell words
]


@pytest.mark.parametrize(("files", "rule"), CONFIGURED)
@pytest.mark.parametrize("command", ["pytest -q", "python -m pytest tests/"])
def test_options_in_pytests_configuration_are_graded_as_given(
    tmp_path: Path, files: dict[str, str], rule: str, command: str
) -> None:
    adapter, server, rules_found = _adapter_and_server(command, _project(tmp_path, files))
    assert adapter == server == DES
    assert rule in rules_found


def test_a_recipe_running_pytest_reads_its_configuration(tmp_path: Path) -> None:
    ws = _project(
        tmp_path, {"Makefile": "test:\n\tpytest -q\n", "pytest.ini": "[pytest]\naddopts = --basetemp=/srv/data\n"}
    )
    assert _adapter_and_server("make test", ws)[:2] == (DES, DES)


@pytest.mark.parametrize(
    "files",
    [
        {"pytest.ini": "[pytest]\naddopts = -q --strict-markers --basetemp=build/pytest\n"},
        {"pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'},
        {"tox.ini": "[tox]\nenvlist = py312\n", "setup.cfg": "[metadata]\nname = x\n"},
        # pytest.ini counts even without a [pytest] section, so the setup.cfg beside it is not read
        {"pytest.ini": "", "setup.cfg": "[tool:pytest]\naddopts = --basetemp=/srv/data\n"},
        {},
    ],
)
def test_harmless_or_absent_pytest_configuration_stays_build_or_test(tmp_path: Path, files: dict[str, str]) -> None:
    adapter, server, _rules = _adapter_and_server("pytest -q", _project(tmp_path, files))
    assert adapter == server == WW


def test_pytest_without_its_settings_reported_is_noted_as_chosen_elsewhere() -> None:
    result = classify("pytest -q", contained=False, workspace=WORKSPACE)
    assert result.risk == WW
    assert any("pytest settings" in c for part in result.commands for c in (part.chosen_by or []))


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("pytest -c ci/pytest.ini", "protected-path-write"),
        ("pytest --config-file=ci/alt.toml", "runs-program"),
        ("pytest -cci/pytest.ini -q", "protected-path-write"),
        ("pytest -c ci/missing.ini", "recipe-unreadable"),
        ('pytest -c "$CONFIG"', "runs-program"),
    ],
)
def test_the_configuration_file_pytest_c_names_is_read(tmp_path: Path, command: str, rule: str) -> None:
    ws = _project(
        tmp_path,
        {
            "ci/pytest.ini": "[pytest]\naddopts = --junitxml=/home/dev/.bashrc\n",
            "ci/alt.toml": '[tool.pytest.ini_options]\naddopts = "-p evil_plugin"\n',
        },
    )
    adapter, server, rules_found = _adapter_and_server(command, ws)
    assert adapter == server == DES
    assert rule in rules_found


def test_a_harmless_configuration_file_named_by_pytest_c_stays_build_or_test(tmp_path: Path) -> None:
    ws = _project(
        tmp_path, {"ci/pytest.ini": "[pytest]\naddopts = -q\n", "pytest.ini": "[pytest]\naddopts = -p evil\n"}
    )
    assert _adapter_and_server("pytest -c ci/pytest.ini", ws)[:2] == (WW, WW)


def test_long_addopts_are_sent_whole_in_lines_the_server_reads(tmp_path: Path) -> None:
    options = " ".join(f"--deselect=tests/test_{n}.py::test_case" for n in range(20)) + " --basetemp=/srv/data"
    ws = _project(tmp_path, {"pytest.ini": f"[pytest]\naddopts = {options}\n"})
    read = classify("pytest -q", contained=False, workspace=str(ws), recipes=ProjectRecipes(ws))
    sent = [r for r in read.recipes if r.tool == "pytest"]
    assert len(sent[0].lines) > 1 and all(len(line.command) <= 200 for line in sent[0].lines)
    assert _adapter_and_server("pytest -q", ws)[:2] == (DES, DES)


def test_an_empty_addopts_adds_nothing(tmp_path: Path) -> None:
    ws = _project(tmp_path, {"pytest.ini": "[pytest]\naddopts =\n"})
    assert _adapter_and_server("pytest -q", ws)[:2] == (WW, WW)


async def test_a_pytest_approval_covers_a_harmless_configuration_not_a_basetemp_outside(
    harness: Harness, tmp_path: Path
) -> None:
    """Over the real server: what the adapter read from pytest.ini is sent with the escalation and graded there."""
    token = await harness.add_bot()
    await _approve(harness, pattern="pytest -q", max_risk="workspace_write", host_ok=True)
    plain = _project(tmp_path / "plain", {"pytest.ini": "[pytest]\naddopts = -q --strict-markers\n"})
    await auto(harness, token, **sent("pytest -q", plain))
    hostile = _project(tmp_path / "hostile", {"pytest.ini": "[pytest]\naddopts = --basetemp=/srv/data\n"})
    esc = await asks(harness, token, **sent("pytest -q", hostile))
    assert esc["risk"] == "destructive"


# pytest looks for its configuration from the common ancestor of the paths it is given (pytest reference, "rootdir and
# configfile"), not only from where it runs
@pytest.mark.parametrize(
    "command",
    [
        "pytest sub/tests",
        "pytest -q sub/tests/test_a.py",
        "pytest sub/tests/test_a.py::test_x -x",
        "pytest sub/tests/test_*.py",
        "python -m pytest sub",
        "pytest tests sub/tests",
        "cd sub && pytest tests",
    ],
)
@pytest.mark.parametrize(
    ("files", "rule"),
    [
        ({"sub/pytest.ini": "[pytest]\naddopts = -p evil_plugin\n"}, "runs-program"),
        ({"sub/pyproject.toml": '[tool.pytest.ini_options]\naddopts = "--basetemp=/srv/data"\n'}, "deletion"),
        ({"sub/tox.ini": "[pytest]\naddopts = --junitxml=/home/dev/.bashrc\n"}, "protected-path-write"),
        ({"sub/setup.cfg": "[tool:pytest]\naddopts = -p evil_plugin\n"}, "runs-program"),
        ({"sub/tests/pytest.ini": "[pytest]\naddopts = -p evil_plugin\n"}, "runs-program"),
        ({"sub/pytest.ini": "[pytest\naddopts = -q\n"}, "recipe-unreadable"),  # not INI: fail closed
    ],
)
def test_pytest_reads_the_configuration_above_the_paths_it_is_given(
    tmp_path: Path, command: str, files: dict[str, str], rule: str
) -> None:
    ws = _project(tmp_path, {"sub/tests/test_a.py": "def test_x(): pass\n", "tests/test_b.py": "", **files})
    adapter, server, rules_found = _adapter_and_server(command, ws)
    if "sub/tests/pytest.ini" in files and command == "python -m pytest sub":
        assert adapter == server == WW, rules_found  # pytest looks from sub and above: sub/tests is below
        return
    assert adapter == server == DES, rules_found
    assert rule in rules_found


@pytest.mark.parametrize(
    "command", ["pytest sub/tests", "pytest sub/tests/test_a.py::test_x", "pytest -k sub missing/dir", "pytest -q"]
)
def test_harmless_configuration_above_the_test_paths_stays_build_or_test(tmp_path: Path, command: str) -> None:
    ws = _project(
        tmp_path,
        {
            "sub/tests/test_a.py": "",
            "sub/pytest.ini": "[pytest]\naddopts = -q --strict-markers\n",
            # pytest.ini counts even without a [pytest] section: the setup.cfg beside it is not read
            "sub/tests/pytest.ini": "",
            "sub/tests/setup.cfg": "[tool:pytest]\naddopts = -p evil_plugin\n",
        },
    )
    assert _adapter_and_server(command, ws)[:2] == (WW, WW)


def test_a_glob_in_a_test_paths_directory_is_not_looked_up(tmp_path: Path) -> None:
    ws = _project(tmp_path, {"sub/tests/test_a.py": ""})
    adapter, server, rules_found = _adapter_and_server("pytest sub/*/test_a.py", ws)
    assert adapter == server == DES and "recipe-unreadable" in rules_found


# mkdocs build/gh-deploy empty the site_dir mkdocs.yml names (MkDocs "Configuration": site_dir; the CLI's --clean)
MATERIAL = (
    "markdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
)


@pytest.mark.parametrize(
    "command", ["mkdocs build", "mkdocs gh-deploy", "mkdocs build --strict", "cd docs && mkdocs build"]
)
@pytest.mark.parametrize(
    ("site_dir", "rule"),
    [
        ("site_dir: /srv/www\n", "deletion"),
        ("site_dir: '/home/dev'\n", "deletion"),
        ('site_dir: "."  # the project itself\n', "deletion"),
        ("site_dir: ..\n", "deletion"),
        ("site_dir: !ENV [SITE_DIR, site]\n", "recipe-unreadable"),
        ("INHERIT: ../base.yml\n", "recipe-unreadable"),
        ("site_dir: build\nsite_dir: /srv/www\n", "recipe-unreadable"),
        ("site_dir:\n  /srv/www\n", "recipe-unreadable"),
    ],
)
def test_the_site_dir_mkdocs_yml_names_is_graded_as_site_dir_is(
    tmp_path: Path, command: str, site_dir: str, rule: str
) -> None:
    where = "docs/mkdocs.yml" if command.startswith("cd docs") else "mkdocs.yml"
    ws = _project(tmp_path, {where: f"site_name: x\n{site_dir}{MATERIAL}"})
    adapter, server, rules_found = _adapter_and_server(command, ws)
    if where == "docs/mkdocs.yml" and site_dir.startswith('site_dir: "."'):
        assert adapter == server == WW, rules_found  # docs/ itself: below the workspace's root, a write there
        return
    assert adapter == server == DES, rules_found
    assert rule in rules_found


@pytest.mark.parametrize(
    ("files", "command"),
    [
        ({"mkdocs.yml": f"site_name: x\n{MATERIAL}"}, "mkdocs build"),
        ({"mkdocs.yml": f"site_name: x\nsite_dir: build/site  # below the project\n{MATERIAL}"}, "mkdocs build"),
        ({"mkdocs.yaml": "site_name: x\nsite_dir: 'public'\n"}, "mkdocs build"),
        ({"mkdocs.yml": "site_dir: /srv/www\n"}, "mkdocs build -d out"),
        ({"docs/ci.yml": "site_dir: ../out\n", "mkdocs.yml": "site_dir: /srv/www\n"}, "mkdocs build -f docs/ci.yml"),
        ({}, "mkdocs build"),
    ],
)
def test_a_site_dir_below_the_project_stays_build_or_test(tmp_path: Path, files: dict[str, str], command: str) -> None:
    adapter, server, rules_found = _adapter_and_server(command, _project(tmp_path, files))
    assert adapter == server == WW, rules_found


def test_mkdocs_f_names_the_configuration_whose_site_dir_is_emptied(tmp_path: Path) -> None:
    ws = _project(tmp_path, {"ci/mkdocs.yml": "site_dir: /srv/www\n"})
    assert _adapter_and_server("mkdocs build -f ci/mkdocs.yml", ws)[:2] == (DES, DES)
    assert _adapter_and_server("mkdocs gh-deploy --config-file=ci/mkdocs.yml", ws)[:2] == (DES, DES)
