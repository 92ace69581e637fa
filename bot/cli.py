"""The ``flybot`` command line: a thin dispatcher.

``flybot`` starts on every tool call of an agent session (``flybot hook claude-code``, ``flybot exec``), so this module
imports nothing but argparse: each subcommand names its handler as ``"module:function"``
(``set_defaults(handler=...)``) and the module is imported only when that command runs. The server, the store and
Alembic load for ``serve``/``db``/``bots``/``standing``/``admin-tokens`` only; the adapters and ``classify`` load the
classifier (and the HTTP client when they escalate), nothing else (tests/test_adapter_exits.py checks the module set;
benchmarks/bench_hook.py times them). Parsers are :class:`Parser`, whose help formatter does not import shutil.

Adding a command: define its parser here (or in a function ``(subparsers) -> None`` of a module, listed in
:data:`REGISTRARS`; that module must import nothing heavy at module level) and point ``handler`` at a function
``(argparse.Namespace) -> int`` in a module under :mod:`bot.commands` (or the adapter's own package). Set
``logs=False`` on commands whose stdout/stderr belong to an agent protocol and that never log (hook, exec, classify).

Exit codes follow each subcommand's docstring; 2 is always a usage or configuration error, printed as one line.
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

Handler = Callable[[argparse.Namespace], int]


# -- parser ----------------------------------------------------------------------------------------------
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

    ask = sub.add_parser("ask", help="escalate one command and wait for the owner's decision")
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


def resolve(handler: str | Handler) -> Handler:
    """The handler function for ``"module:function"`` (imported now), or the callable itself."""
    if callable(handler):
        return handler
    module, _, name = handler.partition(":")
    found: Handler = getattr(importlib.import_module(module), name)
    return found


def _subparser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The innermost subcommand parser that ``args`` went through (``flybot bots add`` -> the ``add`` parser)."""
    current = parser
    while True:
        action = next((a for a in current._actions if isinstance(a, argparse._SubParsersAction)), None)
        name = getattr(args, action.dest, None) if action is not None and action.dest else None
        if action is None or name not in action.choices:
            return current
        current = action.choices[name]


#: Commands that run without the cyclic garbage collector (see :func:`run`): the adapters, short-lived and allocating
#: little after start-up (a long-poll's few requests), however long they wait.
NO_COLLECTOR = frozenset({"hook", "exec"})


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``flybot``; returns the exit code."""
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(*(words[:2] if words and not words[0].startswith("-") else ()))
    args, extra = parser.parse_known_args(words)
    if extra:
        # An unknown option belongs to the command's own usage, not flybot's top-level one (`ask --frobnicate`).
        _subparser(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
    if getattr(args, "command", None) and args.command[:1] == ["--"]:
        args.command = args.command[1:]
    if args.cmd not in NO_COLLECTOR:
        import gc

        gc.enable()
    handler = getattr(args, "handler", None) or getattr(args, "func", None)
    if handler is None:  # pragma: no cover - every subcommand sets one
        parser.error("no handler for this command")
    if args.cmd != "serve" and getattr(args, "logs", True):
        import logging

        from bot.logs import configure_logging

        configure_logging("console", level=logging.WARNING)  # stdout stays the command's own output
    try:
        code = int(resolve(handler)(args))
        sys.stdout.flush()  # a reader gone shows here, not in the interpreter's own flush at exit
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return stdout_closed()
    except Exception as exc:  # noqa: BLE001 - last resort: one line, never a traceback
        line = _known_error(exc)
        if line is not None:
            print(line, file=sys.stderr)
            return 2
        print(
            f"flybot: unexpected error ({type(exc).__name__}); nothing more to show here, see FlyBot's logs",
            file=sys.stderr,
        )
        return 125 if args.cmd == "exec" else 1  # exec: never a status its command could have given


STDOUT_CLOSED = 141
"""Exit code when the reader of stdout went away (``flybot audit | head``): 128 + SIGPIPE, what a shell reports
for a program its pipe's signal ended."""


def stdout_closed() -> int:
    """The reader of stdout closed its end (``flybot escalations | head -3``): end quietly, as command-line programs
    do. stdout is pointed at ``/dev/null`` so the interpreter's flush at exit does not fail again (Python docs,
    "Note on SIGPIPE"); returns :data:`STDOUT_CLOSED`."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file descriptor (a test's captured stdout)
        pass
    return STDOUT_CLOSED


def run() -> None:
    """``flybot`` as a program (the console script and ``python -m bot``): :func:`main`, then exit with its code.

    The cyclic garbage collector is off while the command line is parsed and the command's modules load: what they
    allocate lives until exit, so the collections the imports would trigger find nothing, and cost the adapters
    (which start on every agent tool call) several percent of their start-up. :func:`main` turns it back on before
    any command but those of :data:`NO_COLLECTOR`. Before exiting it moves every object alive out of the collector's
    sight (``gc.freeze``): the interpreter's final collection would otherwise walk all the objects the imports made
    (``benchmarks/bench_hook.py`` times the hook). Nothing is lost, as the process ends here; :func:`main` itself
    does neither, since tests call it in-process.
    """
    import gc

    gc.disable()
    code = main()
    gc.freeze()
    sys.exit(code)


def _known_error(exc: Exception) -> str | None:
    """One line for a configuration error or a store problem (schema behind, store missing or unreachable); None
    for anything else.

    Their classes live in heavy modules (pydantic-settings, SQLAlchemy); a handler that can raise them has loaded
    those modules already, so they are looked up in ``sys.modules`` rather than imported here.
    """
    settings = sys.modules.get("bot.settings")
    if settings is not None and isinstance(exc, settings.ConfigError):
        return f"flybot: configuration error: {exc}"
    migrate = sys.modules.get("bot.store.migrate")
    if migrate is not None and isinstance(exc, migrate.StoreProblem):
        return f"flybot: {exc}"
    return None


if __name__ == "__main__":
    run()
