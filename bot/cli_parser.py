"""The ``flybot`` argument parsers (argparse), imported by :func:`bot.cli.main` for every command line but the
hook's usual ones (:func:`bot.hooks.cli.hook_args`).

Parsers are :class:`Parser`, whose help formatter does not import shutil. Each subcommand names its handler as
``"module:function"`` (``set_defaults(handler=...)``); bot/cli.py describes how to add a command.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable

#: Subcommands defined elsewhere: command -> its ``"module:function"`` adding it to the subparsers. Only the function
#: of the command being run is imported and called (all of them for ``flybot --help`` or an unknown command), so
#: importing a package's ``__init__`` (bot.preflight's loads every probe) costs nothing to the other commands.
REGISTRARS = {
    "classify": "bot.risk.cli:register",
    "preflight": "bot.preflight.cli:register",
    "hook": "bot.hooks.cli:register_hook",
    "exec": "bot.hooks.cli:register_exec",
    "report": "bot.hooks.cli:register_report",
    "codex": "bot.hooks.cli:register_codex",
}
#: Commands of two words whose parser is built alone when that command runs (the hook starts on every tool call):
#: ``"command word"`` -> its ``"module:function"``, which adds the command with only that second word.
ALONE = {
    "hook claude-code": "bot.hooks.cli:register_hook_claude_code",
    "hook codex": "bot.hooks.cli:register_hook_codex",
}

# -- parsers ----------------------------------------------------------------------------------------------
STANDING_HELP = """\
Standing approvals answer matching escalations without asking anyone (the same rules as /flybot standing).

actions:
  add PATTERN...        save one; PATTERN is the command's first words (apt-get install), or * for any
  list                  live standing approvals
  revoke ID             stop one (sa_...), from the next request

options of add:
  --bot NAME            for one Bot (one of --bot and --room is required)
  --room CHANNEL_ID     for every Bot whose cards go to this room
  --max-risk LEVEL      highest grade it covers: read_only, workspace_write, network or system
                        (default workspace_write; destructive commands always ask)
  --host-ok             also cover commands that run on the host (default: only in the sandbox)
  --expires DURATION    like 30m, 12h, 7d or 2w (default: never)
  --note TEXT           shown in listings

options of list:
  --bot NAME, --room CHANNEL_ID   only those of one Bot or room

exit codes: 0 done; 2 bad input, a setting or the store (one line on stderr)
"""


class _Version(argparse.Action):
    """``--version``: the installed flybot version, looked up only when asked (the adapters start fast)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version of flybot and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kwargs: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("flybot")
        except PackageNotFoundError:
            found = "unknown"
        print(f"flybot {found}")
        parser.exit()


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it (``COLUMNS``, then stdout's terminal, else 80)."""
    import os

    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class Parser(argparse.ArgumentParser):
    """``flybot``'s argument parsers (subparsers are of the same class).

    argparse builds a help formatter for every ``add_argument`` (to check its metavar), and a formatter without a
    ``width`` imports :mod:`shutil` (with zlib, bz2 and lzma: ~1.5 ms) to ask the terminal's size; this one passes
    the same width itself, found without shutil. The agent adapters start on every tool call, so start-up time counts.
    """

    def _get_formatter(self) -> argparse.HelpFormatter:
        return self.formatter_class(prog=self.prog, width=_columns() - 2)  # type: ignore[call-arg]


def build_parser(command: str | None = None, second: str | None = None) -> argparse.ArgumentParser:
    """The ``flybot`` argument parser: every subcommand, or with ``command`` only what parsing that command needs
    (a command defined by a module in :data:`REGISTRARS`: only that module's subcommands; a command and ``second``
    word in :data:`ALONE`: only that one)."""
    parser = Parser(prog="flybot", description="FlyBot: approval cards for coding-agent escalations.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    if f"{command} {second}" in ALONE:
        _registrar(ALONE[f"{command} {second}"])(sub)
        return parser
    if command in REGISTRARS:
        _registrar(REGISTRARS[command])(sub)
        return parser
    _core(sub)
    if command not in sub.choices:
        for target in REGISTRARS.values():
            _registrar(target)(sub)
    return parser


def _registrar(target: str) -> Callable[[argparse._SubParsersAction], None]:  # type: ignore[type-arg]
    """The function ``"module:function"`` that adds a subcommand (imported now)."""
    module, _, name = target.partition(":")
    found: Callable[[argparse._SubParsersAction], None] = getattr(importlib.import_module(module), name)  # type: ignore[type-arg]
    return found


def _core(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The subcommands defined here (the server, the store, admin and operator commands)."""
    serve = sub.add_parser("serve", help="run FlyBot (local chat without Slack credentials)")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1, or FLYBOT_HOST)")
    serve.add_argument("--port", type=int, help="port (default 8080, or FLYBOT_PORT; 0 picks a free one)")
    serve.add_argument(
        "--allow-remote",
        action="store_true",
        help="local mode: listen on a non-loopback --host (the chat page is then protected only by its key)",
    )
    serve.set_defaults(handler="bot.commands.server:cmd_serve")

    ask = sub.add_parser(
        "ask",
        help="escalate one command and wait for the owner's decision",
        description="Escalate one command to danger-full-access and wait for its owner's decision. Exit codes: 0 "
        "approved; 1 denied, expired, withdrawn or undeliverable; 2 usage error (checked before sending); 3 FlyBot "
        "unreachable or the request refused.",
    )
    ask.add_argument("--server", help="FlyBot URL (or FLYBOT_URL; local mode finds it)")
    ask.add_argument("--token", help="the Bot's API token (or FLYBOT_TOKEN; local mode finds it)")
    where = ask.add_mutually_exclusive_group()
    where.add_argument(
        "--contained", action="store_true", help="the command runs in the sandbox (a discarded micro-VM)"
    )
    where.add_argument("--host", dest="on_host", action="store_true", help="the command runs on the host (default)")
    ask.add_argument("--cwd", help="working directory of the command (default: the current one)")
    ask.add_argument("--timeout", type=int, default=600, help="seconds before the escalation expires (default 600)")
    ask.add_argument("--justification", help="why the session needs it (shown on the card)")
    ask.add_argument("--session", help="session id (default cli-PID)")
    ask.add_argument("--json", action="store_true", help="print the final escalation as JSON")
    ask.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND...")
    ask.set_defaults(handler="bot.commands.ask:cmd_ask")

    db = sub.add_parser("db", help="database schema")
    db_sub = db.add_subparsers(dest="db_cmd", required=True, metavar="ACTION")
    db_sub.add_parser("upgrade", help="apply the migrations (run before starting replicas)").set_defaults(
        handler="bot.commands.server:cmd_db"
    )
    db_sub.add_parser(
        "current", help="print the schema revision; exit 1 when behind or empty, 2 when there is no store"
    ).set_defaults(handler="bot.commands.server:cmd_db")

    bots = sub.add_parser("bots", help="register and list Bots")
    bots_sub = bots.add_subparsers(dest="bots_cmd", required=True, metavar="ACTION")
    add = bots_sub.add_parser("add", help="register a Bot and print its token once")
    add.add_argument("name", help="the Bot's name: letters, digits, '.', '_' or '-'")
    add.add_argument("--owner", action="append", required=True, help="Slack user ID of an owner (repeatable)")
    add.add_argument("--room", help="Slack channel ID where its cards go")
    add.add_argument(
        "--chat-user",
        metavar="USER_ID",
        help="the Slack user ID the Bot posts as: only its room messages count as its blocked reports",
    )
    add.add_argument(
        "--owner-group",
        action="append",
        metavar="GROUP_ID",
        help="Slack user group ID whose members are owners too, looked up when someone decides (repeatable)",
    )
    add.add_argument(
        "--fallback-owner",
        action="append",
        metavar="USER_ID",
        help="Slack user ID asked (a DM copy of the card) when no one decided after "
        "FLYBOT_FALLBACK_AFTER_S (repeatable; default: the admins)",
    )
    add.add_argument(
        "--fallback-group",
        action="append",
        metavar="GROUP_ID",
        help="Slack user group ID whose members are asked then (repeatable)",
    )
    add.add_argument(
        "--two-person",
        choices=["destructive-host"],
        metavar="destructive-host",
        help="two different people must approve its destructive commands on the host",
    )
    add.add_argument(
        "--allow-room",
        action="append",
        metavar="CHANNEL_ID",
        help="another Slack channel ID its requests may name for their cards (repeatable; any other room is refused)",
    )
    add.set_defaults(handler="bot.commands.admin:cmd_bots_add")
    lst = bots_sub.add_parser("list", help="list Bots")
    lst.add_argument("--json", action="store_true", help="print JSON")
    lst.set_defaults(handler="bot.commands.admin:cmd_bots_list")

    standing = sub.add_parser(
        "standing",
        help="standing approvals (as an admin)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="flybot standing add --bot NAME|--room CHANNEL_ID PATTERN [--max-risk LEVEL] [--host-ok] "
        "[--expires 7d] [--note TEXT] | list [--bot NAME|--room CHANNEL_ID] | revoke ID  [--json]",
        description=STANDING_HELP,
    )
    standing.add_argument("--json", action="store_true", help="print JSON")
    standing.add_argument("words", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    standing.set_defaults(handler="bot.commands.admin:cmd_standing")

    admin_tokens = sub.add_parser("admin-tokens", help="admin API tokens")
    admin_sub = admin_tokens.add_subparsers(dest="admin_cmd", required=True, metavar="ACTION")
    admin_add = admin_sub.add_parser("add", help="create an admin API token acting as USER_ID")
    admin_add.add_argument(
        "--user", required=True, metavar="USER_ID", help="the admin's Slack user ID the token acts as"
    )
    admin_add.set_defaults(handler="bot.commands.admin:cmd_admin_token")

    # Bot lifecycle, admin tokens, audit, escalations: handlers in bot/operator_cli.py
    rotate = bots_sub.add_parser(
        "rotate-token",
        help="print a new API token once; the old one stops at once",
        description="Print a new API token for the Bot once; the old one stops at once.",
    )
    rotate.add_argument("name", help="the Bot's name")
    rotate.set_defaults(handler="bot.operator_cli:cmd_bots_rotate_token")
    remove = bots_sub.add_parser(
        "remove",
        help="remove a Bot: its token stops, its pending escalations are withdrawn",
        description="Remove a Bot: its token stops at once, it is no longer listed, and FlyBot withdraws its pending "
        "escalations (cards updated). Its history stays in the audit trail.",
    )
    remove.add_argument("name", help="the Bot's name")
    remove.set_defaults(handler="bot.operator_cli:cmd_bots_remove")
    change = bots_sub.add_parser(
        "set",
        help="change a Bot's owners, rooms, chat user or two-person rule",
        description="Change a Bot's owners (the whole list), its room, its chat user and/or its two-person rule.",
    )
    change.add_argument("name", help="the Bot's name")
    change.add_argument(
        "--owner", action="append", metavar="USER_ID", help="Slack user ID of an owner (repeatable; replaces the list)"
    )
    change.add_argument(
        "--room", metavar="CHANNEL_ID", help="Slack channel ID for its cards, or - for a DM to the first owner"
    )
    change.add_argument(
        "--chat-user",
        metavar="USER_ID",
        help="Slack user the Bot posts as (its room messages count as its reports), or - for none",
    )
    change.add_argument(
        "--owner-group",
        action="append",
        metavar="GROUP_ID",
        help="Slack user group ID whose members are owners too (repeatable; replaces the list; - for none)",
    )
    change.add_argument(
        "--fallback-owner",
        action="append",
        metavar="USER_ID",
        help="Slack user ID asked when no one decided in time (repeatable; replaces the list; - for none: the admins)",
    )
    change.add_argument(
        "--fallback-group",
        action="append",
        metavar="GROUP_ID",
        help="Slack user group ID asked when no one decided in time (repeatable; replaces; - for none)",
    )
    change.add_argument(
        "--two-person",
        choices=["destructive-host", "off"],
        metavar="destructive-host|off",
        help="two different people must approve its destructive commands on the host; off: only "
        "when the deployment says so (FLYBOT_TWO_PERSON)",
    )
    change.add_argument(
        "--allow-room",
        action="append",
        metavar="CHANNEL_ID",
        help="another Slack channel ID its requests may name for their cards (repeatable; replaces "
        "the list; - for none: only its own room)",
    )
    change.set_defaults(handler="bot.operator_cli:cmd_bots_set")

    listed = admin_sub.add_parser("list", help="list admin tokens (ids and users, never the tokens)")
    listed.add_argument("--json", action="store_true", help="print JSON")
    listed.set_defaults(handler="bot.operator_cli:cmd_admin_tokens_list")
    revoke = admin_sub.add_parser("revoke", help="revoke an admin token by id; it stops at once")
    revoke.add_argument("id", help="the token's id (adm_..., from admin-tokens list)")
    revoke.set_defaults(handler="bot.operator_cli:cmd_admin_tokens_revoke")

    rules = sub.add_parser(
        "rules",
        help="program rules: how FlyBot grades programs (as an admin)",
        description="Program rules grade a program FlyBot does not know, or grade one it knows "
        "higher (or lower: an override every card names). Grades: read_only, "
        "workspace_write, network, system, destructive.",
    )
    rules_sub = rules.add_subparsers(dest="rules_cmd", required=True, metavar="ACTION")
    rules_list = rules_sub.add_parser("list", help="list the program rules")
    rules_set = rules_sub.add_parser("set", help="grade a program (replaces its rule)")
    rules_set.add_argument("program", help="the program's plain name, like gcc")
    rules_set.add_argument("grade", help="read_only, workspace_write, network, system or destructive")
    rules_set.add_argument("--note", help="why (shown in listings)")
    rules_remove = rules_sub.add_parser("remove", help="remove a program rule")
    rules_remove.add_argument("program", help="the program's plain name")
    for each in (rules_set, rules_remove):
        each.add_argument("--subcommand", metavar="WORD", help="only when the program's first argument is WORD")
    for each in (rules_list, rules_set, rules_remove):
        each.add_argument("--json", action="store_true", help="print JSON")
        each.set_defaults(handler="bot.operator_cli:cmd_rules")

    audit = sub.add_parser(
        "audit",
        help="print the audit trail",
        description="Print the audit trail, oldest first: decisions, refusals, standing approvals, Bot changes.",
    )
    audit.add_argument(
        "--since",
        metavar="WHEN",
        help="only rows since WHEN: a duration ago (30m, 24h, 7d) or an RFC 3339 time "
        "(2026-12-01T09:00:00Z); default: all",
    )
    audit.add_argument("--until", metavar="WHEN", help="only rows before WHEN (same forms as --since)")
    audit.add_argument("--bot", metavar="NAME", help="only this Bot's escalations")
    audit.add_argument(
        "--json",
        action="store_true",
        help="JSON Lines, one row each (command, risk, contained, reason, via; secrets redacted), "
        "streamed a page at a time: for a SIEM",
    )
    audit.set_defaults(handler="bot.operator_cli:cmd_audit")
    escalations = sub.add_parser(
        "escalations",
        help="list escalations with their state",
        description="List escalations, newest first, with their state and Bot.",
    )
    escalations.add_argument("--pending", action="store_true", help="only pending ones")
    escalations.add_argument("--bot", metavar="NAME", help="only this Bot's")
    escalations.add_argument("--since", metavar="DURATION", help="only those created in the last DURATION, like 24h")
    escalations.add_argument("--limit", type=int, default=200, help="at most this many (default 200)")
    escalations.add_argument("--json", action="store_true", help="JSON lines, one escalation each")
    escalations.set_defaults(handler="bot.operator_cli:cmd_escalations")


def subparser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The innermost subcommand parser that ``args`` went through (``flybot bots add`` -> the ``add`` parser)."""
    current = parser
    while True:
        action = next((a for a in current._actions if isinstance(a, argparse._SubParsersAction)), None)
        name = getattr(args, action.dest, None) if action is not None and action.dest else None
        if action is None or name not in action.choices:
            return current
        current = action.choices[name]
