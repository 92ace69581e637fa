"""Every --help shows its real options with one-line descriptions; --version; an unknown option is
answered with the command's own usage. Real subprocesses for what a user types; the parser walked for the rest."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.cli_parser import build_parser
from bot.hooks.gate import DEFAULT_URL as DEFAULT_SERVER
from tests.test_cli import flybot
from tests.test_rules_cache import hold_fresh_rules


def _parsers(
    parser: argparse.ArgumentParser, path: tuple[str, ...]
) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                found += _parsers(child, (*path, name))
    return found


def test_every_option_of_every_command_has_a_description() -> None:
    missing = [
        f"{' '.join(path)} {action.option_strings or action.dest}"
        for path, parser in _parsers(build_parser(), ("flybot",))
        for action in parser._actions
        if not isinstance(action, argparse._HelpAction | argparse._SubParsersAction) and not action.help
    ]
    assert missing == []


def test_standing_help_lists_its_real_options(tmp_path: Path) -> None:
    shown = flybot("standing", "--help", cwd=tmp_path)
    assert shown.returncode == 0
    for option in ("--max-risk", "--host-ok", "--expires", "--note", "--bot NAME", "--room CHANNEL_ID", "revoke ID"):
        assert option in shown.stdout, option
    assert "positional arguments" not in shown.stdout


def test_preflight_help_shows_no_raw_markup(tmp_path: Path) -> None:
    shown = flybot("preflight", "--help", cwd=tmp_path)
    assert shown.returncode == 0 and "``" not in shown.stdout and "Exit codes: 0 usable, 3 blocked" in shown.stdout


def test_version(tmp_path: Path) -> None:
    shown = flybot("--version", cwd=tmp_path)
    assert shown.returncode == 0 and shown.stdout.startswith("flybot ") and shown.stdout.strip() != "flybot"


def test_an_unknown_option_gets_the_commands_own_usage(tmp_path: Path) -> None:
    result = flybot("ask", "--frobnicate", "--", "ls", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: flybot ask") and "unrecognized arguments: --frobnicate" in result.stderr


def test_exec_keeps_its_own_usage_errors_apart_from_the_commands_status(tmp_path: Path) -> None:
    for args in (
        (),
        ("--bogus", "--", "true"),
        ("--timeout", "soon", "--", "true"),
        ("--ceiling", "huge", "--", "true"),
    ):
        result = flybot("exec", *args, cwd=tmp_path)
        assert result.returncode == 125, (args, result.stderr)
        assert "Traceback" not in result.stderr
    hold_fresh_rules(DEFAULT_SERVER)  # a fresh copy of the rules (without one the adapters ask FlyBot)
    ran = flybot("exec", "--", "bash", "-c", "exit 2", cwd=tmp_path)  # read_only: runs at once, no FlyBot asked
    assert ran.returncode == 2, ran.stderr


def test_exec_help_shows_every_option_it_takes(tmp_path: Path) -> None:
    shown = flybot("exec", "--help", cwd=tmp_path)
    for option in ("--room", "--session", "--justification", "--timeout", "--ceiling", "--contained"):
        assert option in shown.stdout, option
    assert "$XDG_STATE_HOME/flybot/local.json" in " ".join(
        shown.stdout.split()
    )  # --server's true default: a local server first
