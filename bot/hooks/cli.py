"""The ``hook``, ``exec``, ``report`` and ``codex`` subcommands of ``flybot``; also runnable alone as ``python -m bot.hooks.cli``.

``bot.cli.build_parser`` adds them by calling :func:`register` with its subparsers. Each handler returns the exit
code (see :mod:`bot.hooks.claude_code` and :mod:`bot.hooks.runner`).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing is not imported at run time: hook and exec start on every tool call (bot/values.py)
if TYPE_CHECKING:  # nor is argparse here: the parsers below are built (and converters run) by argparse's callers
    import argparse
    from typing import NoReturn

    from bot.risk.model import RiskLevel

#: The default ceiling: edits inside the workspace go ahead, anything more asks (argparse converts it with
#: :func:`ceiling_level`, so building the parser does not import the classifier).
DEFAULT_CEILING = "workspace_write"
#: The hook's default wait, seconds: below Claude Code's default hook timeout (600 s) with room for the withdraw.
DEFAULT_HOOK_WAIT = "590"
#: The tools whose calls ``hook claude-code`` and ``hook codex`` send through FlyBot by default.
DEFAULT_TOOLS = (
    "Bash,Read,Grep,Glob,Edit,Write,MultiEdit,NotebookEdit,WebFetch,WebSearch,Monitor,ReadMcpResourceTool,mcp"
)


def ceiling_level(text: str) -> RiskLevel:
    """``--ceiling`` values: ``read_only``, ``workspace_write``, ``network`` or ``system``.

    ``destructive`` is refused: anything the classifier does not recognise is destructive, so that ceiling would let
    every command through unasked.
    """
    import argparse

    from bot.risk.model import RiskLevel

    try:
        level = RiskLevel.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if level >= RiskLevel.DESTRUCTIVE:
        raise argparse.ArgumentTypeError(
            "a ceiling of destructive would let every command through unasked; the highest ceiling is system"
        )
    return level


def positive_int(text: str) -> int:
    """A positive whole number of seconds."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of seconds") from None
    if value < 1:
        raise argparse.ArgumentTypeError("give a positive number of seconds")
    return value


def escalation_seconds(text: str) -> int:
    """``--timeout`` of an escalation: 5 to 86400 seconds, the session API's range (bot/request_limits.py)."""
    import argparse

    from bot.request_limits import MAX_TIMEOUT_S, MIN_TIMEOUT_S

    value = positive_int(text)
    if not MIN_TIMEOUT_S <= value <= MAX_TIMEOUT_S:
        raise argparse.ArgumentTypeError(
            f"FlyBot takes {MIN_TIMEOUT_S} to {MAX_TIMEOUT_S} seconds, and caps it to its own maximum "
            "(FLYBOT_ESCALATION_TIMEOUT_S, 600 by default)"
        )
    return value


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--contained",
        action="store_true",
        help="the commands run in the sandbox (a discarded micro-VM) (graded accordingly; default: on the host)",
    )
    parser.add_argument(
        "--ceiling",
        type=ceiling_level,
        default=DEFAULT_CEILING,
        metavar="LEVEL",
        help="highest risk allowed without asking: read_only, workspace_write (default), network, system",
    )
    parser.add_argument(
        "--server",
        help="FlyBot URL (or FLYBOT_URL; else the local server named in $XDG_STATE_HOME/flybot/local.json, as flybot serve writes it in local mode; else http://127.0.0.1:8080)",
    )
    parser.add_argument(
        "--token",
        help="the Bot's API token (or FLYBOT_TOKEN; else the demo Bot's token in $XDG_STATE_HOME/flybot/local.json)",
    )
    parser.add_argument(
        "--room",
        help="Slack channel ID for the card instead of the Bot's room (one an operator allowed for "
        "the Bot: flybot bots set NAME --allow-room)",
    )


def cmd_hook_claude_code(args: argparse.Namespace) -> int:
    """``flybot hook claude-code``: exit 0 with the decision JSON on stdout (or nothing); 2 only with --block-on-error."""
    from bot.hooks.claude_code import main_from_args

    return main_from_args(
        args.contained,
        args.ceiling,
        args.server,
        args.token,
        args.wait,
        args.room,
        args.block_on_error,
        args.mode,
        args.on_no_decision,
        args.agent,
        args.tools,
    )


#: The hooks of :mod:`bot.hooks.agent_hook`: name -> (help line, the ``--wait`` default and range).
AGENT_HOOKS = {
    "cursor": (
        "Cursor hook (.cursor/hooks.json beforeShellExecution): reads the event on stdin.",
        "1 to 590, default 590",
    ),
    "copilot": ("GitHub Copilot CLI hook (preToolUse): reads the event on stdin.", "1 to 590, default 590"),
    "cline": (
        "Cline hook (a PreToolUse hook file): reads the event on stdin.",
        "1 to 110, default 100: Cline gives a hook 120 s",
    ),
    "opencode": (
        "the helper FlyBot's OpenCode plugin runs for each bash call: reads the call on stdin.",
        "1 to 590, default 590",
    ),
}


def cmd_hook_agent(args: argparse.Namespace) -> int:
    """``flybot hook cursor|copilot|cline|opencode``: exit 0 with the answer on stdout (bot/hooks/agent_hook.py)."""
    from bot.hooks.agent_hook import main_from_args

    return main_from_args(
        args.agent, args.contained, args.ceiling, args.server, args.token, args.wait, args.room, args.settings
    )


def cmd_exec(args: argparse.Namespace) -> int:
    """``flybot exec -- COMMAND...``: the command's status, 128+N on signal N, 126 not run, 127 not found, 2 usage."""
    from bot.hooks.gate import find_server
    from bot.hooks.runner import run

    return run(
        list(args.argv),
        contained=args.contained,
        ceiling=args.ceiling,
        server=find_server(args.server, args.token),
        timeout_s=args.timeout,
        session_id=args.session,
        justification=args.justification,
        room=args.room,
    )


def cmd_report(args: argparse.Namespace) -> int:
    """``flybot report``: 3 blocked (reported, the line printed), 0 usable, 4 cannot tell, 2 usage."""
    from bot.hooks.gate import find_server
    from bot.hooks.report import main as report_main

    return report_main(
        args.mode, args.host, args.session, find_server(args.server, args.token), stdout=sys.stdout, stderr=sys.stderr
    )


def cmd_codex(args: argparse.Namespace) -> int:
    """``flybot codex -- PROMPT``: 0 turn completed, 1 failed, 2 usage, 3 Codex unusable, 128+N on signal N."""
    import os

    from bot.hooks.codex import EXIT_USAGE, Options, find_codex, run
    from bot.hooks.gate import find_server

    words = args.prompt[1:] if args.prompt[:1] == ["--"] else args.prompt
    prompt = " ".join(words).strip()
    if not prompt:
        print(
            "flybot codex: give the prompt after --, e.g. flybot codex -- 'add a test for the parser'", file=sys.stderr
        )
        return EXIT_USAGE
    codex = find_codex(args.codex)
    if codex is None:
        print("flybot codex: no codex found: install @openai/codex (npm), or pass --codex PATH", file=sys.stderr)
        return EXIT_USAGE
    cwd = os.path.abspath(args.cwd or os.getcwd())
    if not os.path.isdir(cwd):
        print(f"flybot codex: --cwd {args.cwd!r} is not a directory", file=sys.stderr)
        return EXIT_USAGE
    return run(
        Options(
            prompt=prompt,
            cwd=cwd,
            sandbox=args.sandbox,
            approval_policy=args.approval_policy,
            ceiling=args.ceiling,
            server=find_server(args.server, args.token),
            timeout_s=args.timeout,
            codex=codex,
            model=args.model,
            config=list(args.config or []),
            room=args.room,
            transcript=args.transcript,
        )
    )


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``hook claude-code``, ``exec``, ``report`` and ``codex`` to ``flybot``'s subparsers (``set_defaults(func=...)``
    returning an int); ``bot.cli`` adds only the one being run (:func:`register_hook` ...)."""
    for add in (register_hook, register_exec, register_report, register_codex):
        add(sub)


def register_hook(
    sub: argparse._SubParsersAction,  # type: ignore[type-arg]
    agents: tuple[str, ...] = ("claude-code", "codex", "gemini", "cursor", "copilot", "cline", "opencode", "install"),
) -> None:
    """Add ``hook claude-code``, ``hook codex`` and ``hook install`` (those of them in ``agents``)."""
    hook = sub.add_parser(
        "hook",
        help="agent hooks that ask FlyBot before a command runs",
        description="Agent hooks that ask FlyBot before a command runs.",
    )
    parsers = hook.add_subparsers(dest="hook_agent", required=True, metavar="AGENT")
    hooks: list[tuple[argparse.ArgumentParser, str]] = []
    if "claude-code" in agents:
        hooks.append(
            (
                parsers.add_parser(
                    "claude-code",
                    help='Claude Code hook (PreToolUse, PreSkillShellCommand, PermissionRequest; matcher "Bash"): reads the event '
                    "on stdin",
                    description="Claude Code command hook: reads the event JSON on stdin and answers in the event's own shape on "
                    "stdout (exit 0): PreToolUse and PreSkillShellCommand allow/deny/ask, PermissionRequest "
                    'allow/deny (nothing: Claude Code\'s own dialog). Configure with matcher "Bash" and a hook '
                    "timeout above --wait (flybot hook install claude-code writes it). Under SessionStart (matcher "
                    '"startup") it runs the sandbox preflight once and reports a blocked host.',
                ),
                "claude-code",
            )
        )
    if "codex" in agents:
        hooks.append(
            (
                parsers.add_parser(
                    "codex",
                    help='Codex hook (PreToolUse and PermissionRequest, matcher "Bash" in hooks.json): reads the '
                    "event on stdin",
                    description="Codex command hook for hooks.json: answers PermissionRequest allow/deny on stdout "
                    "(nothing: Codex's own approval prompt) and PreToolUse deny (nothing: Codex runs the command its "
                    "own way; Codex takes no allow or ask there, so a missing human decision is a deny). flybot hook "
                    "install codex writes both.",
                ),
                "codex",
            )
        )
    for parser, agent in hooks:
        _common(parser)
        parser.add_argument(
            "--wait",
            default=DEFAULT_HOOK_WAIT,
            metavar="S",
            help="seconds to wait for a decision before withdrawing it, 1 to 590 (default 590; keep "
            "the hook's timeout above it)",
        )
        parser.add_argument(
            "--on-no-decision",
            choices=("ask", "deny"),
            default="ask",
            help="answer when no human decided (unreachable, no decision within --wait, "
            "undeliverable, interrupted): ask (default) or deny; deny anyway where the "
            "permission mode does not enforce ask (bypassPermissions, auto)",
        )
        parser.add_argument(
            "--block-on-error",
            action="store_true",
            help="on unreadable input or an internal error exit 2 (the agent blocks the call) "
            "instead of giving no decision / ask",
        )
        parser.add_argument(
            "--mode", help="SessionStart: the session's sandbox mode for the preflight (or FLYBOT_SANDBOX_MODE)"
        )
        parser.add_argument(
            "--tools",
            default=DEFAULT_TOOLS,
            metavar="LIST",
            help="the tools whose calls go through FlyBot, comma-separated: Bash, Read, Grep, Glob, "
            "Edit, Write, MultiEdit, NotebookEdit, WebFetch, WebSearch, Monitor, ReadMcpResourceTool, mcp (every MCP tool) or "
            "mcp__SERVER__TOOL (default: all of them; a read or an edit inside the workspace is at or "
            "below the default ceiling, so it is answered without asking); another tool gets "
            "no decision",
        )
        parser.set_defaults(func=cmd_hook_claude_code, logs=False, agent=agent)
    if "gemini" in agents:
        gemini = parsers.add_parser(
            "gemini",
            help="Gemini CLI hook (BeforeTool: shell commands, file writes and edits, web searches, MCP tools): reads "
            "the event on stdin",
            description="Gemini CLI command hook for settings.json: answers BeforeTool allow/deny/ask on stdout (exit 0; "
            "exit 2 when stdin is unreadable). Keep the hook's timeout (milliseconds, 60000 by default) above "
            "--wait: Gemini CLI runs the call when the hook times out (flybot hook install gemini writes both).",
        )
        _common(gemini)
        gemini.add_argument(
            "--wait",
            default="55",
            metavar="S",
            help="seconds to wait for a decision before withdrawing it, 1 to 590 (default 55, below Gemini CLI's "
            "default hook timeout of 60 s)",
        )
        gemini.add_argument(
            "--on-no-decision",
            choices=("ask", "deny"),
            default="deny",
            help="answer when no human decided: deny (default) or ask (Gemini CLI asks in its terminal; a headless "
            "gemini -p run then waits until killed)",
        )
        gemini.add_argument(
            "--settings",
            metavar="PATH",
            help="the hook's settings file in FlyBot's state directory (flybot hook install gemini writes it and "
            "names it here): FlyBot's URL, token and state directory come from it, never from the environment "
            "Gemini CLI hands over (it loads the project's .env into it)",
        )
        gemini.set_defaults(func=cmd_hook_gemini, logs=False)
    for name, (summary, wait) in AGENT_HOOKS.items():
        if name not in agents:
            continue
        parser = parsers.add_parser(
            name,
            help=summary,
            description=summary + " Answers on stdout in the agent's own "
            "shape; anything but an approval (or a grade at or below the ceiling) is a refusal "
            f"with the reason. flybot hook install {name} writes the settings.",
        )
        _common(parser)
        parser.add_argument(
            "--wait", metavar="S", help=f"seconds to wait for a decision before withdrawing it ({wait})"
        )
        parser.add_argument(
            "--settings",
            metavar="PATH",
            help="the hook's settings file in FlyBot's state directory (flybot hook install cline writes it and "
            "names it here): FlyBot's URL, token and state directory come from it, never from the environment",
        )
        parser.set_defaults(func=cmd_hook_agent, logs=False, agent=name)
    if "install" not in agents:
        return
    install = parsers.add_parser(
        "install",
        help="write the hook into Claude Code's settings.json or Codex's hooks.json",
        description="Write (or print, with --print) the hook settings for a project (default: this directory) or "
        "for you (--user), merged with the file's other settings and hooks; a FlyBot hook already there "
        "is replaced. Claude Code: .claude/settings.json, events PreToolUse, PreSkillShellCommand and "
        "PermissionRequest. Codex: .codex/hooks.json, events PreToolUse and PermissionRequest. Gemini CLI: .gemini/settings.json, "
        "event BeforeTool (timeout 600000 ms, --wait 590 unless given); Gemini CLI hands its hooks the project's .env, "
        "so its hook reads FLYBOT_URL and FLYBOT_TOKEN as they are now from hook-settings.json in FlyBot's state "
        "directory (mode 0600), written here. Otherwise credentials stay in the environment (FLYBOT_URL, "
        "FLYBOT_TOKEN), never in the agent's settings file.",
    )
    install.add_argument(
        "target",
        choices=("claude-code", "codex", "gemini", *AGENT_HOOKS),
        metavar="AGENT",
        help=", ".join(("claude-code", "codex", "gemini", *AGENT_HOOKS)),
    )
    where = install.add_mutually_exclusive_group()
    where.add_argument("--project", metavar="DIR", help="the project directory (default: the current one)")
    where.add_argument("--user", action="store_true", help="your own settings (~/.claude, ~/.codex or ~/.gemini)")
    install.add_argument(
        "--print", dest="show", action="store_true", help="print the merged settings instead of writing them"
    )
    install.add_argument(
        "--program",
        metavar="PATH",
        help="the flybot program the hook runs (default: the one running this command, by its absolute path)",
    )
    install.add_argument("--contained", action="store_true", help="pass --contained to the hook")
    install.add_argument("--ceiling", type=ceiling_level, metavar="LEVEL", help="pass --ceiling LEVEL to the hook")
    install.add_argument("--wait", metavar="S", help="pass --wait S to the hook (1 to 590)")
    install.add_argument("--on-no-decision", choices=("ask", "deny"), help="pass --on-no-decision to the hook")
    install.set_defaults(func=cmd_hook_install)


def cmd_hook_gemini(args: argparse.Namespace) -> int:
    """``flybot hook gemini``: exit 0 with the decision JSON on stdout; 2 when stdin cannot be read."""
    from bot.hooks.gemini import main_from_args

    return main_from_args(
        args.contained, args.ceiling, args.server, args.token, args.wait, args.room, args.on_no_decision, args.settings
    )


def register_hook_claude_code(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``hook claude-code`` alone (``flybot hook claude-code`` starts on every tool call)."""
    register_hook(sub, ("claude-code",))


def register_hook_codex(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``hook codex`` alone."""
    register_hook(sub, ("codex",))


#: ``hook claude-code`` and ``hook codex`` options that :func:`hook_args` reads: option -> its attribute. Flags
#: (``store_true``) and options taking a value, as :func:`register_hook` defines them.
HOOK_FLAGS = {"--contained": "contained", "--block-on-error": "block_on_error"}
HOOK_VALUES = {
    "--ceiling": "ceiling",
    "--server": "server",
    "--token": "token",
    "--room": "room",
    "--wait": "wait",
    "--on-no-decision": "on_no_decision",
    "--mode": "mode",
    "--tools": "tools",
}


def hook_args(agent: str, words: list[str]) -> argparse.Namespace | None:
    """The arguments of ``flybot hook AGENT WORDS...`` (``claude-code`` or ``codex``) as the argparse parser of
    :func:`register_hook` sets them, read without argparse: these hooks start on every tool call, and importing
    argparse and building the parser cost about a seventh of an escalation's start-up.

    Only what needs no judgement is read here: the options by their full names, as ``--option VALUE`` or
    ``--option=VALUE``, flags without a value. Anything else (``--help``, an abbreviated or unknown option, a
    value that starts with ``-`` or is not one the option takes, a missing value, a word that is no option) gives
    None, and argparse parses the command line: it prints the help or the usage error.
    """
    import types

    values: dict[str, object] = {
        "contained": False,
        "block_on_error": False,
        "ceiling": DEFAULT_CEILING,
        "server": None,
        "token": None,
        "room": None,
        "wait": DEFAULT_HOOK_WAIT,
        "on_no_decision": "ask",
        "mode": None,
        "tools": DEFAULT_TOOLS,
    }
    at = 0
    while at < len(words):
        word = words[at]
        option, equals, value = word.partition("=")
        if word in HOOK_FLAGS:
            values[HOOK_FLAGS[word]] = True
        elif option in HOOK_VALUES and equals:
            values[HOOK_VALUES[option]] = value
        elif word in HOOK_VALUES and at + 1 < len(words) and not words[at + 1].startswith("-"):
            at += 1
            values[HOOK_VALUES[word]] = words[at]
        else:
            return None
        at += 1
    if values["on_no_decision"] not in ("ask", "deny"):
        return None
    ceiling = _ceiling_or_none(str(values["ceiling"]))
    if ceiling is None:
        return None
    values["ceiling"] = ceiling
    namespace: argparse.Namespace = types.SimpleNamespace(  # type: ignore[assignment]
        version=None, cmd="hook", hook_agent=agent, func=cmd_hook_claude_code, logs=False, agent=agent, **values
    )
    return namespace


def _ceiling_or_none(text: str) -> RiskLevel | None:
    """What :func:`ceiling_level` makes of ``text``, or None where it refuses it (argparse then says why)."""
    from bot.risk.model import RiskLevel

    try:
        level = RiskLevel.parse(text)
    except ValueError:
        return None
    return level if level < RiskLevel.DESTRUCTIVE else None


def cmd_hook_install(args: argparse.Namespace) -> int:
    """``flybot hook install AGENT``: 0 written or printed; 2 when the settings cannot be merged."""
    from bot.hooks.install import main_from_args

    if args.target in AGENT_HOOKS:
        from bot.hooks.agent_install import main_from_args as install_agent

        return install_agent(args)

    options = ["--contained"] if args.contained else []
    if args.ceiling is not None:
        options += ["--ceiling", args.ceiling.label]
    if args.wait is not None:
        from bot.hooks.claude_code import parse_wait

        try:
            parse_wait(args.wait)
        except ValueError as exc:
            print(f"flybot hook install: {exc}", file=sys.stderr)
            return 2
        options += ["--wait", args.wait]
    elif args.target == "gemini":  # its default wait fits Gemini CLI's default timeout; the settings raise both
        from bot.hooks.gemini import INSTALL_WAIT

        options += ["--wait", INSTALL_WAIT]
    if args.on_no_decision is not None:
        options += ["--on-no-decision", args.on_no_decision]
    return main_from_args(args.target, args.project, args.user, args.show, args.program, options)


def register_exec(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``exec``."""
    import argparse

    ex = sub.add_parser(
        "exec",
        help="run a command once FlyBot allows it (126 when not)",
        description="Grade COMMAND; above the ceiling ask FlyBot and wait; run it only when allowed. Several words run "
        "as given without a shell; a single word is a script for bash -c. Exit: the command's status "
        "(128+N on signal N), 126 not run (denied, expired, unreachable ...), 127 not found, 125 usage "
        "(flybot exec's own, never the command's).",
    )
    _usage_errors_exit(ex, 125)
    _common(ex)
    ex.add_argument(
        "--timeout",
        type=escalation_seconds,
        default=600,
        metavar="S",
        help="seconds before the escalation expires (default 600)",
    )
    ex.add_argument("--session", help="session id shown on the card (default exec-PID)")
    ex.add_argument("--justification", help="why it is needed (shown on the card)")
    ex.add_argument("argv", nargs=argparse.REMAINDER, metavar="-- COMMAND...", help="the command to run, after --")
    ex.set_defaults(func=cmd_exec, logs=False)


def register_report(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``report``."""
    rep = sub.add_parser(
        "report",
        help="run the sandbox preflight and report a blocked host to FlyBot",
        description="Run the sandbox preflight; when the host is blocked (exit 3) report it to FlyBot with the Bot's "
        "token and print the report line. Usable (0) or cannot tell (4): prints nothing.",
    )
    rep.add_argument("--mode", help="the session's sandbox mode (or FLYBOT_SANDBOX_MODE)")
    rep.add_argument("--session", help="the session id (or FLYBOT_SESSION_ID; default report-PID)")
    rep.add_argument("--host", help="the host's name in the report (default: this machine's host name)")
    rep.add_argument(
        "--server",
        help="FlyBot URL (or FLYBOT_URL; else the local server named in $XDG_STATE_HOME/flybot/local.json, as flybot serve writes it in local mode; else http://127.0.0.1:8080)",
    )
    rep.add_argument(
        "--token",
        help="the Bot's API token (or FLYBOT_TOKEN; else the demo Bot's token in $XDG_STATE_HOME/flybot/local.json)",
    )
    rep.set_defaults(func=cmd_report)


def register_codex(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``codex``."""
    import argparse

    cx = sub.add_parser(
        "codex",
        help="run a Codex turn (codex app-server) with its approvals answered through FlyBot",
        usage="flybot codex [--cwd DIR] [--sandbox MODE] [--approval-policy POLICY] [--model M] [-c KEY=VALUE]... "
        "[--ceiling LEVEL] [--server URL] [--token TOKEN] [--timeout S] -- PROMPT...",
        description="Start the real `codex app-server`, open a thread (cwd, sandbox, approval policy), send PROMPT as "
        "a turn and stream it; each approval Codex asks for becomes a FlyBot card (Approve -> accept, "
        "Deny -> decline, no decision -> cancel). Ctrl-C withdraws pending cards and interrupts the turn.",
    )
    _common(cx)
    cx.add_argument("--cwd", metavar="DIR", help="the thread's working directory (default: the current one)")
    cx.add_argument(
        "--sandbox",
        choices=("read-only", "workspace-write", "danger-full-access"),
        default="workspace-write",
        help="Codex's sandbox for the thread (default workspace-write)",
    )
    cx.add_argument(
        "--approval-policy",
        choices=("untrusted", "on-failure", "on-request", "never"),
        default="on-request",
        help="when Codex asks for approval (default on-request)",
    )
    cx.add_argument("--model", help="Codex model (default: Codex's own setting)")
    cx.add_argument(
        "-c",
        "--config",
        action="append",
        metavar="KEY=VALUE",
        help="a Codex config override passed to codex app-server -c (repeatable)",
    )
    cx.add_argument(
        "--timeout",
        type=positive_int,
        default=600,
        metavar="S",
        help="seconds before each escalation expires (default 600)",
    )
    cx.add_argument("--codex", metavar="PATH", help="the codex program (or FLYBOT_CODEX; default codex on PATH)")
    cx.add_argument(
        "--transcript", metavar="FILE", help="append every JSON-RPC message sent and received to FILE (JSON lines)"
    )
    cx.add_argument("prompt", nargs=argparse.REMAINDER, metavar="-- PROMPT...", help="the turn's prompt, after --")
    cx.set_defaults(func=cmd_codex, logs=False)


def _usage_errors_exit(parser: argparse.ArgumentParser, code: int) -> None:
    """Make ``parser``'s usage errors exit ``code`` instead of argparse's 2 (``flybot exec``: 125, as env/timeout)."""

    def error(message: str) -> NoReturn:
        parser.print_usage(sys.stderr)
        parser.exit(code, f"{parser.prog}: error: {message}\n")

    parser.error = error  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    """``python -m bot.hooks.cli hook claude-code ...`` / ``... exec -- ...`` without the rest of ``flybot``."""
    import argparse

    parser = argparse.ArgumentParser(prog="flybot", description="FlyBot agent adapters: hook and exec.")
    register(parser.add_subparsers(dest="cmd", required=True, metavar="COMMAND"))
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
