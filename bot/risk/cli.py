"""``flybot classify``: grade commands from the command line.

Usage::

    flybot classify [--contained] [--cwd DIR] [--json] -- COMMAND...
    flybot classify --jsonl < requests.jsonl

``COMMAND`` words are joined with spaces (a single argument is the whole script).
``--jsonl`` reads one JSON object ``{"command", "contained", "cwd"}`` per line and
writes one JSON result per line (``{"risk", "reasons", "commands", "contained"}``);
a malformed line yields ``{"error": ...}`` and the run goes on. Exit codes: 0 after
grading (whatever the grade), 2 for usage errors.

:func:`register` adds the subcommand to the ``flybot`` parser; :func:`main` runs it
standalone (``python -m bot.risk.cli classify ...``).
"""

from __future__ import annotations

import argparse
import json
import sys

TYPE_CHECKING = False  # typing is not imported at run time: classify starts fast (bot/values.py)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, TextIO

    from bot.risk.model import Assessment

__all__ = ["register", "main", "run_classify", "run_jsonl"]

EXIT_OK = 0
EXIT_USAGE = 2


def register(subparsers: Any) -> None:
    """Add the ``classify`` subcommand to an argparse subparsers object (``func`` is set)."""
    parser = subparsers.add_parser(
        "classify",
        help="grade a shell command's risk",
        description="Grade a shell command: prints its risk level and the reasons.",
    )
    parser.add_argument("--contained", action="store_true", help="the command runs contained in the sandbox")
    parser.add_argument("--cwd", metavar="DIR", help="the escalation's working directory (the workspace)")
    parser.add_argument("--json", action="store_true", help="print the assessment as JSON")
    parser.add_argument("--jsonl", action="store_true", help='read {"command","contained","cwd"} lines on stdin')
    parser.add_argument("command", nargs="*", metavar="COMMAND", help="the command (words are joined with spaces)")
    parser.set_defaults(func=handle, logs=False)


def handle(args: argparse.Namespace) -> int:
    """The ``classify`` handler: returns the exit code."""
    from bot.hooks.gate import own_state_paths
    from bot.risk.sensitive import add_own_state

    # FlyBot's state where this environment puts it (FLYBOT_STATE_DIR, the SQLite store), graded as the hook does
    add_own_state(own_state_paths())
    if args.jsonl:
        if args.command:
            print("flybot classify: --jsonl reads commands from stdin; give no COMMAND", file=sys.stderr)
            return EXIT_USAGE
        return run_jsonl(sys.stdin, sys.stdout)
    if not args.command:
        print("flybot classify: give a COMMAND (after --) or --jsonl", file=sys.stderr)
        return EXIT_USAGE
    cwd = _workspace(args.cwd)
    if args.cwd is not None and cwd is None:
        print(f"flybot classify: --cwd must be an absolute path, not {args.cwd!r}", file=sys.stderr)
        return EXIT_USAGE
    return run_classify(" ".join(args.command), contained=args.contained, cwd=cwd, as_json=args.json, out=sys.stdout)


def run_classify(command: str, *, contained: bool, cwd: Path | None, as_json: bool, out: TextIO) -> int:
    """Grade one command and print it (text or JSON) to ``out``; returns 0."""
    from bot.risk.classifier import classify
    from bot.risk.recipes import ProjectRecipes
    from bot.risk.serialize import assessment_to_dict

    assessment = classify(
        command, contained=contained, workspace=cwd, recipes=ProjectRecipes(cwd) if cwd is not None else None
    )
    if as_json:
        out.write(json.dumps(assessment_to_dict(assessment), ensure_ascii=False) + "\n")
    else:
        out.write(format_text(assessment))
    return EXIT_OK


def format_text(assessment: Assessment) -> str:
    """``risk: LEVEL (contained|host)`` then one line per reason (hidden characters shown as ``⟨U+202E⟩``)."""
    from bot.risk.hidden import reveal

    where = "contained" if assessment.contained else "host"
    lines = [f"risk: {assessment.risk.label} ({where})"]
    for reason in assessment.reasons:
        mark = " [downgraded: contained]" if reason.downgraded else ""
        subject, detail = reveal(reason.subject, multiline=False), reveal(reason.detail, multiline=False)
        lines.append(f"  {reason.level.label:<15} {reason.rule:<24} {subject}: {detail}{mark}")
    return "\n".join(lines) + "\n"


def run_jsonl(source: TextIO, out: TextIO) -> int:
    """Grade one JSON request per input line; one JSON line out per non-blank line in. Returns 0."""
    from bot.risk.classifier import classify  # noqa: F401 - loaded once here, before the first line is read

    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            result = _jsonl_one(line)
        except ValueError as error:
            result = {"error": str(error), "line": number}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return EXIT_OK


def _jsonl_one(line: str) -> dict[str, Any]:
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON: {error.msg}") from None
    if not isinstance(request, dict):
        raise ValueError("expected a JSON object")
    command = request.get("command")
    if not isinstance(command, str):
        raise ValueError('"command" must be a string')
    contained = request.get("contained", False)
    if not isinstance(contained, bool):
        raise ValueError('"contained" must be true or false')
    raw_cwd = request.get("cwd")
    if raw_cwd is not None and not isinstance(raw_cwd, str):
        raise ValueError('"cwd" must be a string or null')
    cwd = _workspace(raw_cwd)
    if raw_cwd is not None and cwd is None:
        raise ValueError('"cwd" must be an absolute path')
    from bot.risk.classifier import classify
    from bot.risk.recipes import ProjectRecipes
    from bot.risk.serialize import assessment_to_dict

    return assessment_to_dict(
        classify(command, contained=contained, workspace=cwd, recipes=ProjectRecipes(cwd) if cwd is not None else None)
    )


def _workspace(raw: str | None) -> Path | None:
    if raw is None or not raw.startswith("/") or "\x00" in raw:
        return None
    from pathlib import Path

    return Path(raw)


def main(argv: list[str] | None = None) -> int:
    """Run ``classify`` standalone: ``main(["classify", "--", "ls"])``; returns the exit code."""
    parser = argparse.ArgumentParser(prog="flybot", description="FlyBot command risk classifier")
    subparsers = parser.add_subparsers(dest="subcommand", required=True)
    register(subparsers)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    handler = args.func
    code: int = handler(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
