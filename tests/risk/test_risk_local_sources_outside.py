"""Local path dependencies outside the workspace for Bundler, Composer and poetry (bot/risk/settings.py
``_bundler_outside``, ``_composer_outside``, ``_python_outside`` for poetry): a gem, package or dependency from a
directory outside makes the install (and ``bundle exec``) build and run code from there: destructive, on the adapter's
side and the server's. Dependencies from the registry and paths inside the workspace keep the command's grade."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded
from tests.risk.both_sides import project as _project

DES = RiskLevel.DESTRUCTIVE


GEMFILE = 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\n'


@pytest.mark.parametrize(
    ("gemfile", "named"),
    [
        (GEMFILE + "gem 'x', path: '../elsewhere'\n", "path ../elsewhere"),
        (GEMFILE + 'gem "x", :path => "/tmp/x"\n', "path /tmp/x"),
        (GEMFILE + 'path "/srv/gems" do\n  gem "x"\nend\n', "path /srv/gems"),
        (GEMFILE + 'gem "x", git: "/tmp/repo"\n', "git /tmp/repo"),
        (GEMFILE + 'gem "x", git: "file:///tmp/repo"\n', "git file:///tmp/repo"),
        (GEMFILE + 'eval_gemfile "../elsewhere/Gemfile"\n', "eval_gemfile"),
        (GEMFILE + 'gem "x", path: File.expand_path("../x", __dir__)\n', "cannot read"),
        (GEMFILE + 'gem "x", path: "#{ENV["HOME"]}/x"\n', "cannot read"),
        (GEMFILE + 'gemspec path: "/tmp/x"\n', "path /tmp/x"),
    ],
)
def test_a_gemfile_naming_gems_outside_the_workspace_is_destructive(tmp_path: Path, gemfile: str, named: str) -> None:
    root = _project(tmp_path, {"Gemfile": gemfile})
    for command in ("bundle install", "bundle exec rake test", "bundle update x"):
        risk, details = graded(command, root)
        assert risk == DES, (command, details)
        assert any("Gemfile" in d and named in d for d in details), details


def test_a_gemfile_lock_path_remote_outside_is_destructive(tmp_path: Path) -> None:
    lock = "PATH\n  remote: /tmp/x\n  specs:\n    x (0.1.0)\n\nGEM\n  remote: https://rubygems.org/\n"
    root = _project(tmp_path, {"Gemfile": GEMFILE, "Gemfile.lock": lock})
    risk, details = graded("bundle install", root)
    assert risk == DES
    assert any("Gemfile.lock" in d and "PATH remote /tmp/x" in d for d in details), details


@pytest.mark.parametrize(
    "gemfile",
    [
        GEMFILE,
        GEMFILE + "gem 'x', path: 'vendor/x'\n",
        GEMFILE + "# gem 'x', path: '/tmp/x'\n",
        GEMFILE + 'gem "x", git: "https://github.com/a/x.git"\n',
        GEMFILE + 'gem "x", git: "git@github.com:a/x.git"\n',
        GEMFILE + 'gem "x", github: "a/x"\n',
        GEMFILE + "gemspec\n",
        GEMFILE + 'path = File.join(__dir__, "x")\n',
    ],
)
def test_gems_from_the_registry_or_inside_keep_the_grade(tmp_path: Path, gemfile: str) -> None:
    root = _project(tmp_path, {"Gemfile": gemfile, "vendor/x/x.gemspec": ""})
    for command in ("bundle install", "bundle exec rake test"):
        risk, details = graded(command, root)
        assert risk < DES, (command, details)


def _composer(repositories: object) -> str:
    return json.dumps({"require": {"a/x": "*"}, "repositories": repositories})


@pytest.mark.parametrize(
    ("repositories", "named"),
    [
        ([{"type": "path", "url": "/tmp/x"}], "(path) url /tmp/x"),
        ([{"type": "path", "url": "../elsewhere/*"}], "(path) url ../elsewhere/*"),
        ({"local": {"type": "artifact", "url": "/srv/zips/"}}, "(artifact)"),
        ([{"type": "vcs", "url": "/tmp/repo"}], "(vcs)"),
        ([{"type": "git", "url": "file:///tmp/repo"}], "(git)"),
        ([{"type": "composer", "url": "file:///tmp/packages.json"}], "(composer)"),
        (
            [
                {
                    "type": "package",
                    "package": {"name": "a/x", "version": "1.0", "dist": {"url": "/tmp/x.zip", "type": "zip"}},
                }
            ],
            "(package)",
        ),
        ([{"type": "path", "url": 7}], "cannot read"),
        (["nonsense"], "cannot read"),
    ],
)
def test_a_composer_repository_outside_the_workspace_is_destructive(
    tmp_path: Path, repositories: object, named: str
) -> None:
    root = _project(tmp_path, {"composer.json": _composer(repositories)})
    for command in ("composer install", "composer update a/x", "composer require a/x"):
        risk, details = graded(command, root)
        assert risk == DES, (command, details)
        assert any("composer.json" in d and named in d for d in details), details


@pytest.mark.parametrize(
    "repositories",
    [
        [],
        [{"type": "path", "url": "packages/*"}],
        [{"type": "vcs", "url": "https://github.com/a/x"}],
        [{"type": "composer", "url": "https://repo.example.com"}],
        [{"packagist.org": False}],
    ],
)
def test_composer_repositories_inside_or_remote_keep_the_grade(tmp_path: Path, repositories: object) -> None:
    root = _project(tmp_path, {"composer.json": _composer(repositories), "packages/x/composer.json": "{}"})
    for command in ("composer install", "composer show"):
        risk, details = graded(command, root)
        assert risk < DES, (command, details)


POETRY = '[tool.poetry]\nname = "a"\nversion = "0.1.0"\n[tool.poetry.dependencies]\npython = "^3.11"\n'


@pytest.mark.parametrize(
    ("pyproject", "named"),
    [
        (POETRY + 'x = {path = "/tmp/x"}\n', "tool.poetry.dependencies.x.path"),
        (POETRY + 'x = {path = "../elsewhere", develop = true}\n', "tool.poetry.dependencies.x.path"),
        (POETRY + '[tool.poetry.group.dev.dependencies]\nx = {path = "/srv/x"}\n', "tool.poetry.group.dev"),
        (POETRY + '[tool.poetry.dev-dependencies]\nx = {path = "/srv/x"}\n', "tool.poetry.dev-dependencies"),
        (POETRY + 'x = [{path = "/tmp/x", python = "<3.12"}, {version = "1"}]\n', "tool.poetry.dependencies.x.path"),
        (POETRY + 'x = {git = "/tmp/repo"}\n', "a repository on this machine"),
        (POETRY + "x = {path = 3}\n", "cannot read"),
        (
            POETRY.replace('version = "0.1.0"\n', 'version = "0.1.0"\npackages = [{include = "a", from = "/tmp"}]\n'),
            "packages.from",
        ),
    ],
)
def test_a_poetry_path_dependency_outside_the_workspace_is_destructive(
    tmp_path: Path, pyproject: str, named: str
) -> None:
    root = _project(tmp_path, {"pyproject.toml": pyproject})
    for command in ("poetry install", "poetry lock", "poetry update", "poetry sync"):
        risk, details = graded(command, root)
        assert risk == DES, (command, details)
        assert any("pyproject.toml" in d and named in d for d in details), details


@pytest.mark.parametrize(
    "pyproject",
    [
        POETRY + 'requests = "^2.31"\n',
        POETRY + 'x = {path = "libs/x", develop = true}\n',
        POETRY + 'x = {git = "https://github.com/a/x.git"}\n',
    ],
)
def test_poetry_dependencies_inside_or_remote_keep_the_grade(tmp_path: Path, pyproject: str) -> None:
    root = _project(tmp_path, {"pyproject.toml": pyproject, "libs/x/pyproject.toml": ""})
    for command in ("poetry install", "poetry lock"):
        risk, details = graded(command, root)
        assert risk < DES, (command, details)
