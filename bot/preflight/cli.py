"""``flybot preflight [--mode read-only|workspace-write|danger-full-access] [--json]``.

Prints one line (or, with ``--json``, the document of ``PreflightReport.to_json_dict``) on stdout.
The mode may also come from ``FLYBOT_SANDBOX_MODE``; the flag wins. Exit codes: 0 usable, 3 blocked,
4 cannot tell, 2 usage (a bad mode or override value: one line on stderr).

Wiring: ``bot/cli.py`` calls :func:`register` on its subparsers; ``python -m bot.preflight.cli preflight ...``
runs it standalone through :func:`main`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from bot.preflight import EXIT_USAGE, MODE_ENV, PreflightUsageError, SandboxMode, render_one_line, run_preflight

_MODES = ", ".join(mode.value for mode in SandboxMode)


def handle(args: argparse.Namespace) -> int:
    """Run the preflight for ``args.mode`` / ``args.json`` over ``os.environ``; return the exit code."""
    try:
        report = run_preflight(args.mode, env=os.environ)
    except PreflightUsageError as exc:
        print(f"flybot preflight: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        print(json.dumps(report.to_json_dict(), indent=2))
    else:
        print(render_one_line(report))
    return report.exit_code


def register(subparsers: Any) -> None:
    """Add the ``preflight`` subcommand to an argparse subparsers object; its ``func`` is :func:`handle`.

    ``--mode`` takes any string and is validated by the handler, so a bad value gives one stderr line and
    exit 2 instead of argparse's usage block.
    """
    parser = subparsers.add_parser(
        "preflight",
        help="tell whether this host can confine the session's shell calls",
        description="Tell whether this host can confine the session's shell calls (bubblewrap, Landlock, "
        "sandbox-exec). Exit codes: 0 usable, 3 blocked, 4 cannot tell, 2 usage.",
    )
    parser.add_argument(
        "--mode",
        default=None,
        metavar="MODE",
        help=f"the session's sandbox mode: {_MODES} (default: ${MODE_ENV}, else none)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(func=handle, logs=False)


def build_parser() -> argparse.ArgumentParser:
    """A minimal ``flybot`` parser holding only the ``preflight`` subcommand."""
    parser = argparse.ArgumentParser(prog="flybot")
    register(parser.add_subparsers(dest="command", required=True))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``) as ``preflight [--mode M] [--json]``; return the exit code."""
    args = build_parser().parse_args(argv)
    exit_code: int = args.func(args)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
