"""pnpm and yarn built-ins graded by what they do, and never as a package.json script of the same name: pnpm and
yarn run a built-in first (pnpm.io/cli/run; yarn classic "yarn run"; yarnpkg.com/cli/run), except pnpm's ``tasks``,
``clean`` and ``purge`` (``pnpm help --all``, pnpm 12: "A same-named script takes precedence")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes

R = RiskLevel

BUILTINS = [
    ("pnpm dlx cowsay", R.DESTRUCTIVE),
    ("pnpm exec jest", R.WORKSPACE_WRITE),  # a build-and-check tool, as npx --no-install jest
    ("pnpm exec cowsay", R.DESTRUCTIVE),
    ("pnpm create vite", R.DESTRUCTIVE),
    ("pnpm env use --global 20", R.DESTRUCTIVE),
    ("pnpm rt use node@22", R.DESTRUCTIVE),
    ("pnpm with 9 install", R.DESTRUCTIVE),
    ("pnpm approve", R.DESTRUCTIVE),
    ("pnpm permissions approve", R.DESTRUCTIVE),
    ("pnpm shim add eslint", R.DESTRUCTIVE),
    ("pnpm edit lodash", R.DESTRUCTIVE),
    ("pnpm docs lodash", R.DESTRUCTIVE),
    ("pnpm unpublish mypkg@1.0.0", R.DESTRUCTIVE),
    ("pnpm pipeline ci", R.DESTRUCTIVE),
    ("pnpm lane list", R.DESTRUCTIVE),
    ("pnpm pack-app index.js", R.DESTRUCTIVE),
    ("pnpm config set registry http://evil.example", R.DESTRUCTIVE),
    ("pnpm deploy dist", R.NETWORK),
    ("pnpm deploy /srv/app", R.SYSTEM),
    ("pnpm ci", R.NETWORK),
    ("pnpm publish", R.NETWORK),
    ("pnpm dist-tags add mypkg@1.0.0 next", R.NETWORK),
    ("pnpm stage", R.NETWORK),
    ("pnpm store prune", R.SYSTEM),
    ("pnpm licenses list", R.READ_ONLY),
    ("pnpm ignored-builds", R.READ_ONLY),
    ("pnpm peers check", R.READ_ONLY),
    ("pnpm completion bash", R.READ_ONLY),
    ("pnpm cat-index lodash", R.READ_ONLY),
    ("pnpm uni lodash", R.WORKSPACE_WRITE),
    ("pnpm link", R.SYSTEM),
    ("pnpm link ../lib", R.WORKSPACE_WRITE),
    ("yarn link", R.SYSTEM),
    ("pnpm ss build tsc", R.WORKSPACE_WRITE),
    ("yarn dlx cowsay", R.DESTRUCTIVE),
    ("yarn exec jest", R.DESTRUCTIVE),
    ("yarn create vite", R.DESTRUCTIVE),
    ("yarn set version stable", R.DESTRUCTIVE),
    ("yarn config set npmRegistryServer http://evil.example", R.DESTRUCTIVE),
    ("yarn workspaces foreach -A run build", R.DESTRUCTIVE),
    ("yarn npm publish", R.NETWORK),
    ("yarn tag add mypkg@1.0.0 next", R.NETWORK),
    ("yarn check", R.READ_ONLY),
    ("yarn licenses list", R.READ_ONLY),
    ("yarn versions", R.READ_ONLY),
    ("yarn generate-lock-entry", R.READ_ONLY),
    ("yarn autoclean --force", R.WORKSPACE_WRITE),
]


def _package(root: Path, scripts: dict[str, str]) -> None:
    (root / "package.json").write_text(json.dumps({"name": "x", "version": "1.0.0", "scripts": scripts}))


@pytest.mark.parametrize(("command", "risk"), BUILTINS)
def test_built_ins_are_graded_by_what_they_do(tmp_path: Path, command: str, risk: RiskLevel) -> None:
    graded = classify(command, contained=False, workspace=tmp_path, recipes=ProjectRecipes(tmp_path))
    assert graded.risk is risk, graded.reasons


@pytest.mark.parametrize(("command", "risk"), BUILTINS)
def test_a_script_named_as_a_built_in_is_not_what_runs(tmp_path: Path, command: str, risk: RiskLevel) -> None:
    """A harmless script of the built-in's name does not lower the built-in's grade, and is not read."""
    word = command.split()[1]
    _package(tmp_path, {word: "echo harmless", "build": "tsc"})
    graded = classify(command, contained=False, workspace=tmp_path, recipes=ProjectRecipes(tmp_path))
    assert graded.risk is risk, graded.reasons
    assert not any(f"scripts.{word}" in r.detail for r in graded.reasons), graded.reasons
    assert not any("(a package.json script)" in r.detail for r in graded.reasons), graded.reasons


@pytest.mark.parametrize("command", ["pnpm tasks", "pnpm build", "yarn build", "pnpm run deploy", "yarn run licenses"])
def test_scripts_that_run_by_name_are_still_read(tmp_path: Path, command: str) -> None:
    """``pnpm tasks`` (a same-named script takes precedence), scripts that are no built-in, and ``run NAME``."""
    word = command.split()[-1]
    _package(tmp_path, {word: "rm -f ~/.flybot-never-there"})
    graded = classify(command, contained=False, workspace=tmp_path, recipes=ProjectRecipes(tmp_path))
    assert graded.risk is R.DESTRUCTIVE, graded.reasons
    _package(tmp_path, {word: "tsc"})
    graded = classify(command, contained=False, workspace=tmp_path, recipes=ProjectRecipes(tmp_path))
    assert graded.risk is R.WORKSPACE_WRITE, graded.reasons
