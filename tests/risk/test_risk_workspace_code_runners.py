"""Runners that load workspace code without ``bundle exec``: rake (its Rakefile), rails (bin/rails), rspec (its
``.rspec`` options: ``--require``, ``-I``), mix test (test files and ``--require``), composer (plugins, and the
scripts of composer.json that dump-autoload fires) are graded as running workspace code, never read-only; what they
load from outside the workspace is code from outside (destructive)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

RO, WW, DES = RiskLevel.READ_ONLY, RiskLevel.WORKSPACE_WRITE, RiskLevel.DESTRUCTIVE
RAILS = {"Rakefile": "task :default\n", "bin/rails": "APP_PATH = File.expand_path('../config/application', __dir__)\n"}


@pytest.mark.parametrize(
    ("command", "files"),
    [
        ("rake -T", RAILS),  # rake(1): -T loads the Rakefile to list its tasks
        ("rake --dry-run test", RAILS),
        ("rails --version", RAILS),  # railties AppLoader.exec_app runs bin/rails first
        ("rails routes", RAILS),
        ("rspec --dry-run", {".rspec": "--require spec_helper\n"}),
        ("rspec", {".rspec": "--require spec_helper\n--format documentation\n"}),
        ("mix test", {"mix.exs": ""}),
        ("mix test test/a_test.exs:12", {"mix.exs": ""}),
        ("mix test --require test/support/helper.exs", {"mix.exs": ""}),
        ("composer dump-autoload", {"composer.json": "{}"}),
        ("composer run-script --list", {"composer.json": '{"scripts": {"test": "phpunit"}}'}),
        ("composer validate", {"composer.json": "{}"}),
    ],
)
def test_runners_of_workspace_code_are_graded_as_builds(tmp_path: Path, command: str, files: dict[str, str]) -> None:
    assert graded(command, project(tmp_path, files))[0] is WW, command


def test_version_prints_stay_read_only_where_no_code_loads(tmp_path: Path) -> None:
    # rake(1) and rspec --version print before reading the Rakefile or .rspec
    root = project(tmp_path, {".rspec": "--require spec_helper\n"})
    assert graded("rspec --version", root)[0] is RO
    assert graded("rake --version", root)[0] is RO


@pytest.mark.parametrize(
    ("command", "files"),
    [
        # mix help test: the files and directories given are required and run
        ("mix test /tmp/evil_test.exs", {"mix.exs": ""}),
        ("mix test ../elsewhere/t_test.exs", {"mix.exs": ""}),
        ("mix test --require /tmp/evil.exs", {"mix.exs": ""}),
        ("mix run -r /tmp/evil.exs", {"mix.exs": ""}),
        # rspec-core: .rspec is read as command-line options
        ("rspec", {".rspec": "--require /tmp/evil.rb\n"}),
        ("rspec", {".rspec": "-r/tmp/evil\n"}),
        ("rspec", {".rspec": "--require=../elsewhere/evil\n"}),
        ("rspec", {".rspec-local": "-I /tmp/lib --require evil\n"}),
        ("rspec", {".rspec": "--default-path /srv/specs\n"}),
        ("rspec", {".rspec": "<%= ENV['OPTS'] %>\n"}),
        ("rspec spec/a_spec.rb", {".rspec": "--require /tmp/evil.rb\n"}),
        ("echo '--require /tmp/evil.rb' > .rspec && rspec", {".rspec": "--require spec_helper\n"}),
        # getcomposer.org "Scripts": dump-autoload fires pre-/post-autoload-dump
        ("composer dump-autoload", {"composer.json": '{"scripts": {"post-autoload-dump": "rm -rf ~"}}'}),
    ],
)
def test_code_from_outside_the_workspace_is_destructive(tmp_path: Path, command: str, files: dict[str, str]) -> None:
    assert graded(command, project(tmp_path, files))[0] is DES, (command, files)


def test_an_rspec_report_written_in_the_temp_area_keeps_the_grade(tmp_path: Path) -> None:
    assert graded("rspec", project(tmp_path, {".rspec": "--out /tmp/rspec.txt\n"}))[0] is WW
