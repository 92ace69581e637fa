"""``flybot report``: run the preflight and, when the host is blocked, report it to FlyBot with the Bot's token.

What it does, by the preflight's outcome (the exit code is the preflight's):

- blocked (exit 3): ``POST /v1/reports`` with the preflight's ``--json``, the host and the session, then print the
  report line on stdout::

      blocked: no usable sandbox backend bot=BOT_ID host=HOST session=ID mode=MODE | sandbox-preflight: ...

  If FlyBot cannot be reached, refuses, or no token is configured, the line is printed all the same (a Bot can
  post it in its room) and one line on stderr says why it was not sent;
- usable (exit 0): nothing is printed; FlyBot is told quietly (``POST /v1/reports/usable``) so that an open report
  of this host resolves by itself; a failure there is silent too (nothing to report);
- unknown (exit 4): nothing is printed or sent (the seed: exit 4 is not a block);
- a bad ``--mode`` or override: exit 2 with one line on stderr.

Defaults: ``--host`` is this machine's host name; ``--session`` is ``$FLYBOT_SESSION_ID`` or ``report-<pid>``;
FlyBot's URL and token as for the hook (``--server``/``FLYBOT_URL``, ``--token``/``FLYBOT_TOKEN``, local mode's file).
Imports only the preflight and the HTTP client (DESIGN.md: adapters stay light).
"""

from __future__ import annotations

import os
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO, Any

from bot.hooks.gate import Server
from bot.preflight import EXIT_USAGE, PreflightReport, PreflightUsageError, Status, render_one_line, run_preflight

PREFIX = "flybot report"
SESSION_ENV = "FLYBOT_SESSION_ID"
REPORT_SESSION_LIMIT = 200
"""Longest session id a report carries (the API's limit)."""
_WORD = re.compile(r"[^\s|=]{1,200}")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What ``flybot report`` did: the preflight, the report line (blocked only), FlyBot's answer or why not sent."""

    report: PreflightReport
    line: str | None = None
    sent: dict[str, Any] | None = None
    problem: str | None = None


def _word(value: str, fallback: str) -> str:
    """``value`` as a report field value (no whitespace, ``|`` or ``=``; 1-200 characters), else ``fallback``."""
    cleaned = re.sub(r"[\s|=]+", "-", value.strip())[:200]
    return cleaned if _WORD.fullmatch(cleaned) else fallback


def default_host() -> str:
    """This machine's host name as a report field value."""
    return _word(socket.gethostname(), "localhost")


def default_session(env: Mapping[str, str]) -> str:
    """``$FLYBOT_SESSION_ID``, else ``report-<pid>``."""
    return _word(env.get(SESSION_ENV, ""), f"report-{os.getpid()}")


def _sent_summary(sent: Mapping[str, object]) -> str:
    """What FlyBot did with the report: a new one (its owners are told) or folded into the open one (told once)."""
    count = sent.get("count")
    if isinstance(count, int) and count > 1:
        return (
            f"folded into the open report {sent.get('id')} (reported {count} times; "
            "its owners were told the first time)"
        )
    return f"reported to FlyBot as {sent.get('id')}; FlyBot tells the Bot's owners"


def report_line(report: PreflightReport, *, host: str, session: str, bot: str | None) -> str:
    """The chat/API report line for a blocked ``report`` (``bot.reports`` grammar)."""
    fields = ([f"bot={bot}"] if bot else []) + [f"host={host}", f"session={session}", f"mode={report.mode}"]
    return f"blocked: no usable sandbox backend {' '.join(fields)} | {render_one_line(report)}"


def _send(server: Server, report: PreflightReport, host: str, session: str) -> Outcome:
    from bot.client import ClientError, FlyBotClient

    doc = report.to_json_dict()
    if server.token is None:
        problem = (
            "no Bot token (give --token or set FLYBOT_TOKEN): not sent" if report.status is Status.BLOCKED else None
        )
        line = report_line(report, host=host, session=session, bot=None) if report.status is Status.BLOCKED else None
        return Outcome(report, line, problem=problem)
    client = FlyBotClient(server.url, server.token)
    try:
        if report.status is Status.BLOCKED:
            sent = client.report({"preflight": doc, "host": host, "session_id": session})
            bot = str(sent.get("bot") or sent.get("bot_id") or "") or None
            return Outcome(report, report_line(report, host=host, session=session, bot=bot), sent)
        return Outcome(report, None, client.host_usable(host, doc))
    except ClientError as exc:
        line = report_line(report, host=host, session=session, bot=None) if report.status is Status.BLOCKED else None
        return Outcome(report, line, problem=f"not sent: {exc}")


def run_report(mode: str | None, *, host: str, session: str, server: Server, env: Mapping[str, str]) -> Outcome:
    """Run the preflight for ``mode`` and tell FlyBot what it needs to know (see the module docstring).

    Raises:
        PreflightUsageError: a bad mode or override value.
    """
    report = run_preflight(mode, env=env)
    if report.status is Status.UNKNOWN:
        return Outcome(report)
    return _send(server, report, host, session)


def main(
    mode: str | None,
    host: str | None,
    session: str | None,
    server: Server,
    *,
    stdout: IO[str],
    stderr: IO[str],
    env: Mapping[str, str] | None = None,
) -> int:
    """The command: returns the preflight's exit code (0, 3, 4) or 2 on a usage error."""
    environ = os.environ if env is None else env
    for flag, value in (("--host", host), ("--session", session)):
        if value is not None and not _WORD.fullmatch(value):
            print(f"{PREFIX}: {flag} needs 1-200 characters without spaces, '|' or '='", file=stderr)
            return EXIT_USAGE
    try:
        outcome = run_report(
            mode, host=host or default_host(), session=session or default_session(environ), server=server, env=environ
        )
    except PreflightUsageError as exc:
        print(f"{PREFIX}: {exc}", file=stderr)
        return EXIT_USAGE
    if outcome.line is not None:
        print(outcome.line, file=stdout)
        if outcome.problem:
            print(f"{PREFIX}: {outcome.problem}", file=stderr)
        elif outcome.sent:
            print(f"{PREFIX}: {_sent_summary(outcome.sent)}; do not retry shell calls", file=stderr)
    return outcome.report.exit_code
