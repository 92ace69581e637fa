"""The ``flybot`` command line: a thin dispatcher.

``flybot`` starts on every tool call of an agent session (``flybot hook claude-code``, ``flybot exec``), so this module
imports nothing at start-up. The argument parsers are built with argparse in :mod:`bot.cli_parser`, where each
subcommand names its handler as ``"module:function"`` (``set_defaults(handler=...)``); the module is imported only
when that command runs. ``flybot hook claude-code`` and ``flybot hook codex`` with their usual options are read
without argparse (:func:`bot.hooks.cli.hook_args`); anything else on their command line (``--help``, a bad value,
an unknown option) goes to argparse, which answers it. The server, the store and Alembic load for
``serve``/``db``/``bots``/``standing``/``admin-tokens`` only; the adapters and ``classify`` load the classifier (and
the HTTP client when they escalate), nothing else (tests/test_adapter_exits.py checks the module set;
benchmarks/bench_hook.py times them).

Adding a command: define its parser in :mod:`bot.cli_parser` (or in a function ``(subparsers) -> None`` of a module
listed in :data:`bot.cli_parser.REGISTRARS`; that module must import nothing heavy at module level) and point
``handler`` at a function ``(argparse.Namespace) -> int`` in a module under :mod:`bot.commands` (or the adapter's own
package). Set ``logs=False`` on commands whose stdout/stderr belong to an agent protocol and that never log (hook,
exec, classify).

Exit codes follow each subcommand's docstring; 2 is always a usage or configuration error, printed as one line.
"""

from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False  # typing and argparse stay unloaded: the hook starts on every tool call (bot/values.py)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    Handler = Callable[[argparse.Namespace], int]


def resolve(handler: str | Handler) -> Handler:
    """The handler function for ``"module:function"`` (imported now), or the callable itself."""
    if callable(handler):
        return handler
    module, _, name = handler.partition(":")
    found: Handler = getattr(importlib.import_module(module), name)
    return found


def _hook_args(words: list[str]) -> argparse.Namespace | None:
    """The arguments of ``flybot hook claude-code|codex ...`` read without argparse (as argparse would set them),
    or None for any other command line, and for one of theirs that only argparse answers."""
    if words[:1] != ["hook"] or len(words) < 2 or words[1] not in ("claude-code", "codex"):
        return None
    from bot.hooks.cli import hook_args

    return hook_args(words[1], words[2:])


#: Commands that run without the cyclic garbage collector (see :func:`run`): the adapters, short-lived and allocating
#: little after start-up (a long-poll's few requests), however long they wait.
NO_COLLECTOR = frozenset({"hook", "exec"})


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``flybot``; returns the exit code."""
    words = sys.argv[1:] if argv is None else argv
    args = _hook_args(words)
    if args is None:
        from bot.cli_parser import build_parser, subparser

        parser = build_parser(*(words[:2] if words and not words[0].startswith("-") else ()))
        args, extra = parser.parse_known_args(words)
        if extra:
            # An unknown option belongs to the command's own usage, not flybot's top-level one (`ask --frobnicate`).
            subparser(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
    if getattr(args, "command", None) and args.command[:1] == ["--"]:
        args.command = args.command[1:]
    if args.cmd not in NO_COLLECTOR:
        import gc

        gc.enable()
    handler = getattr(args, "handler", None) or getattr(args, "func", None)
    if handler is None:  # pragma: no cover - every subcommand sets one
        raise SystemExit(f"flybot: no handler for the command {args.cmd}")
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
