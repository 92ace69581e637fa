"""pyproject.toml dependencies on local code outside the workspace (bot/risk/settings.py ``_python_outside``): a PEP
508 direct reference to a local path, a ``[tool.uv.sources]`` path or local git repository, a uv workspace member,
find-links or index directory outside make uv (sync, run, lock, build, pip install) and pdm build that code and run
its build backend: destructive, on the adapter's side and the server's. Remote sources and paths in the workspace
keep the grade, and so do the uses that build nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded

DES = RiskLevel.DESTRUCTIVE
PROJECT = '[project]\nname = "a"\nversion = "0.1.0"\n'


def _project(tmp_path: Path, pyproject: str) -> Path:
    root = (tmp_path / "ws").resolve()
    (root / "libs" / "inner").mkdir(parents=True)
    (root / "pyproject.toml").write_text(pyproject)
    return root


@pytest.mark.parametrize(
    ("pyproject", "named", "commands"),
    [
        (
            PROJECT + 'dependencies = ["x @ file:///tmp/x"]\n',
            "project.dependencies",
            ["uv sync", "uv run pytest", "uv lock", "pdm install", "uv pip install -e ."],
        ),
        (PROJECT + '[project.optional-dependencies]\ndev = ["y[z] @ file:///srv/y"]\n', "optional", ["uv sync"]),
        (PROJECT + '[dependency-groups]\ndev = ["y @ ../elsewhere/y"]\n', "dependency-groups.dev", ["pdm sync"]),
        (PROJECT + 'dependencies = ["x @ file:../elsewhere/x"]\n', "project.dependencies", ["uv sync"]),
        (PROJECT + 'dependencies = ["x @ file://localhost/tmp/x"]\n', "project.dependencies", ["uv sync"]),
        (PROJECT + '[tool.uv.sources]\nx = { path = "/tmp/x", editable = true }\n', "sources.x.path", ["uv sync"]),
        (
            PROJECT + '[tool.uv.sources]\nx = [{ path = "../o/x", marker = "sys_platform == \'linux\'" }]\n',
            "x.path",
            ["uv run python -V"],
        ),  # fmt: skip
        (PROJECT + '[tool.uv.sources]\nx = { git = "file:///tmp/repo" }\n', "on this machine", ["uv build"]),
        (PROJECT + '[tool.uv.workspace]\nmembers = ["../*"]\n', "tool.uv.workspace.members", ["uv sync"]),
        (PROJECT + '[tool.uv]\nfind-links = ["/tmp/wheels"]\n', "tool.uv.find-links", ["uv lock"]),
        (PROJECT + '[[tool.uv.index]]\nname = "l"\nurl = "file:///tmp/index"\n', "tool.uv.index.url", ["uv sync"]),
    ],
)
def test_local_code_outside_the_workspace_is_destructive(
    tmp_path: Path, pyproject: str, named: str, commands: list[str]
) -> None:
    root = _project(tmp_path, pyproject)
    for command in commands:
        risk, details = graded(command, root)
        assert risk is DES and any("pyproject.toml" in d and named in d for d in details), (command, details)


@pytest.mark.parametrize(
    "pyproject",
    [
        PROJECT + 'dependencies = ["requests>=2", "x @ https://example.com/x-1.0.tar.gz", "inner @ file:libs/inner"]\n',
        PROJECT + '[tool.uv.sources]\ninner = { path = "libs/inner" }\ny = { git = "https://github.com/o/y" }\n',
        PROJECT + '[tool.uv.workspace]\nmembers = ["libs/*"]\n',
        PROJECT + '[[tool.uv.index]]\nname = "pt"\nurl = "https://download.pytorch.org/whl/cpu"\n',
    ],
)
def test_remote_sources_and_workspace_paths_keep_the_grade(tmp_path: Path, pyproject: str) -> None:
    root = _project(tmp_path, pyproject)
    for command in ("uv sync", "uv lock", "pdm install"):
        risk, details = graded(command, root)
        assert risk < DES, (command, details)


def test_uses_that_build_nothing_do_not_read_them(tmp_path: Path) -> None:
    root = _project(tmp_path, PROJECT + 'dependencies = ["x @ file:///tmp/x"]\n')
    for command in ("uv pip list", "uv --version", "uv python list", "pdm --version"):
        assert graded(command, root)[0] < DES, command


def test_a_pyproject_that_cannot_be_read_fails_closed(tmp_path: Path) -> None:
    root = _project(tmp_path, PROJECT + "dependencies = [\n")
    assert graded("uv sync", root)[0] is DES
