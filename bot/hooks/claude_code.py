"""``flybot hook claude-code``: a Claude Code ``PreToolUse`` command hook that asks FlyBot before a Bash call runs.

Protocol (Claude Code hooks reference, https://code.claude.com/docs/en/hooks, "PreToolUse"):

* Claude Code runs the hook's command with the event as one JSON object on **stdin**::

      {"session_id": "abc123", "transcript_path": "/.../abc123.jsonl", "cwd": "/repo", "permission_mode": "default",
       "hook_event_name": "PreToolUse", "tool_name": "Bash",
       "tool_input": {"command": "npm install", "description": "Install deps", "timeout": 120000,
                      "run_in_background": false},
       "tool_use_id": "toolu_01ABC..."}

  Fields not listed here are ignored (Claude Code adds fields over time).
* The hook answers with **exit 0** and one JSON object on **stdout**::

      {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow" | "deny" | "ask",
                              "permissionDecisionReason": "..."}}

  ``allow`` runs the call without the permission prompt (settings' deny/ask rules still apply); ``deny`` blocks it and
  the reason is shown to Claude; ``ask`` shows the user the ordinary permission prompt with the reason.
* Exit 0 with empty stdout is "no decision" (the normal permission flow); exit 2 blocks the call and feeds stderr to
  Claude; any other exit code is a non-blocking error and **the call proceeds** -- so this hook never lets an exception
  escape as a traceback: an internal error answers ``ask``.

FlyBot's mapping (fail closed, never ``allow`` without an approval):

==========================================  =========  ============================================================
situation                                   answer     reason
==========================================  =========  ============================================================
risk at or below ``--ceiling``              allow      no call but, when its copy of the program rules is stale,
                                                       their GET (bot/hooks/rules_cache.py); without a fresh copy
                                                       the ceiling is ``read_only``
approved (click or standing approval)       allow      names the approver or the standing approval id
denied                                      deny       the owner's reason, passed on to Claude
expired                                     deny       nobody decided in time
no human decision (see below)               NO-DEC     ``--on-no-decision``: ``ask`` (default) or ``deny``
internal error                              NO-DEC     (exit 2 with ``--block-on-error``)
not a Bash call / another event             (none)     exit 0, empty stdout, one line on stderr
unparseable stdin                           (none)     exit 0, empty stdout, one line on stderr (exit 2 with
                                                       ``--block-on-error``)
==========================================  =========  ============================================================

"No human decision" (:data:`bot.hooks.gate.NO_DECISION`): still pending after ``--wait`` seconds (withdrawn first),
undeliverable, withdrawn, FlyBot unreachable or refusing, no token, or the hook interrupted by SIGINT/SIGTERM/SIGHUP
(withdrawn first; the answer is still written, exit 0).

Permission modes (``permission_mode`` of the event; Claude Code hooks reference: ``default``, ``plan``,
``acceptEdits``, ``auto``, ``dontAsk``, ``bypassPermissions``): ``ask`` is fail-closed only where Claude Code then
asks a person or refuses. In ``bypassPermissions`` every call that reaches the permission step runs, and in ``auto``
a classifier answers instead of a person, so there (:data:`ASK_NOT_ENFORCED`, and any mode this hook does not know)
the hook answers ``deny`` instead of ``ask``, saying why. A missing ``permission_mode`` (older releases) keeps ``ask``.

``SessionStart`` (issue 13; configure it with the matcher ``startup``): the hook runs the sandbox preflight once
(mode from ``--mode`` or ``FLYBOT_SANDBOX_MODE``) through ``bot.hooks.report``. Blocked: the report goes to FlyBot
with the Bot's token and the hook answers ``{"hookSpecificOutput": {"hookEventName": "SessionStart",
"additionalContext": "<the report line> ..."}}`` so Claude knows every shell call will be refused and not to retry;
usable: FlyBot is told quietly (an open report of this host resolves) and stdout stays empty; cannot tell: nothing.
Always exit 0 (a SessionStart hook cannot block a session).
"""

from __future__ import annotations

import json
import os
import sys
import time

from bot.hooks.gate import Grade, Request, Server, Verdict, decide, expiry_for_wait, find_server, grade
from bot.values import Frozen

TYPE_CHECKING = False  # typing and dataclasses stay unloaded: this hook runs on every Bash call (bot/values.py)
if TYPE_CHECKING:
    from typing import IO, Any, Literal

    from bot.risk.model import RiskLevel

    Decision = Literal["allow", "deny", "ask"]
    NoDecision = Literal["ask", "deny"]
EXIT_OK, EXIT_BLOCK = 0, 2
PREFIX = "flybot hook claude-code"
#: Permission modes in which Claude Code asks a person (or refuses) on ``ask``.
ASK_ENFORCED = frozenset({"default", "plan", "acceptEdits", "dontAsk"})
#: Modes in which ``ask`` does not reach a person: ``bypassPermissions`` runs the call, ``auto`` lets a classifier
#: decide. Unknown modes are treated the same way (fail closed).
ASK_NOT_ENFORCED = frozenset({"bypassPermissions", "auto"})
#: ``--wait`` bounds, seconds: Claude Code's default hook timeout is 600 s; 10 s stay for start-up and the withdraw.
MIN_WAIT_S, MAX_WAIT_S = 1.0, 590.0


class InputError(ValueError):
    """The hook's stdin is not a PreToolUse event this hook can read."""


class BashCall(Frozen):
    """The parts of a PreToolUse event for the Bash tool that FlyBot uses."""

    __slots__ = ("session_id", "cwd", "command", "description", "tool_use_id", "permission_mode")
    session_id: str
    cwd: str
    command: str
    description: str | None
    tool_use_id: str | None
    permission_mode: str | None

    def __init__(self, session_id: str, cwd: str, command: str, description: str | None, tool_use_id: str | None,
                 permission_mode: str | None = None) -> None:
        self._init(session_id=session_id, cwd=cwd, command=command, description=description,
                   tool_use_id=tool_use_id, permission_mode=permission_mode)


class OtherTool(Frozen):
    """A PreToolUse event for another tool (the matcher should have been ``Bash``): no decision."""

    __slots__ = ("tool_name",)
    tool_name: str

    def __init__(self, tool_name: str) -> None:
        self._init(tool_name=tool_name)


class SessionStart(Frozen):
    """A ``SessionStart`` event: ``source`` is ``startup``, ``resume``, ``clear`` or ``compact``."""

    __slots__ = ("session_id", "source")
    session_id: str
    source: str

    def __init__(self, session_id: str, source: str) -> None:
        self._init(session_id=session_id, source=source)


def parse_event(raw: bytes) -> BashCall | OtherTool | SessionStart:
    """Read one PreToolUse event (see the module docstring); unknown fields are ignored.

    Raises:
        InputError: not JSON, not an object, not ``PreToolUse``, or a Bash call without a command string.
    """
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        from bot.errors import plain_cause

        raise InputError(f"stdin is not a JSON hook event ({plain_cause(exc)})") from None
    if not isinstance(data, dict):
        raise InputError("stdin is not a JSON object")
    event = data.get("hook_event_name")
    if event == "SessionStart":
        session_id, source = data.get("session_id"), data.get("source")
        return SessionStart(
            session_id=session_id if isinstance(session_id, str) and session_id else "claude-code",
            source=source if isinstance(source, str) else "",
        )
    if event is not None and event != "PreToolUse":
        raise InputError(f"hook_event_name is {event!r}; configure this hook under PreToolUse or SessionStart")
    tool = data.get("tool_name")
    if not isinstance(tool, str) or not tool:
        raise InputError("the event has no tool_name")
    if tool != "Bash":
        return OtherTool(tool)
    tool_input = data.get("tool_input")
    if not isinstance(tool_input, dict):
        raise InputError("the Bash event has no tool_input object")
    command = tool_input.get("command")
    if not isinstance(command, str) or not command.strip():
        raise InputError("the Bash event has no tool_input.command")
    description = tool_input.get("description")
    cwd = data.get("cwd")
    session_id = data.get("session_id")
    tool_use_id = data.get("tool_use_id")
    mode = data.get("permission_mode")
    return BashCall(
        session_id=session_id if isinstance(session_id, str) and session_id else "claude-code",
        cwd=cwd if isinstance(cwd, str) and cwd else os.getcwd(),
        command=command,
        description=description if isinstance(description, str) else None,
        tool_use_id=tool_use_id if isinstance(tool_use_id, str) and tool_use_id else None,
        permission_mode=mode if isinstance(mode, str) else (None if mode is None else repr(mode)),
    )


def answer(decision: Decision, reason: str) -> dict[str, Any]:
    """The hook's stdout object for ``decision``."""
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": decision,
            "permissionDecisionReason": reason,
        }
    }


def decision_for(
    verdict: Verdict, *, on_no_decision: NoDecision = "ask", permission_mode: str | None = None
) -> tuple[Decision, str]:
    """Map a gate verdict to Claude Code's decision and the reason text (see the module docstring's table)."""
    line = verdict.describe()
    match verdict.outcome:
        case "local" | "approved":
            return "allow", line + "."
        case "denied":
            return "deny", line + ". Do not run this command another way; adapt the plan or ask the user."
        case "expired":
            return "deny", line + "."
    return no_decision(line, on_no_decision=on_no_decision, permission_mode=permission_mode)


def no_decision(line: str, *, on_no_decision: NoDecision, permission_mode: str | None) -> tuple[Decision, str]:
    """The answer when no human decided: ``--on-no-decision``, but ``deny`` where ``ask`` is not enforced."""
    if on_no_decision == "deny":
        return "deny", line + ". Not approved (--on-no-decision deny)."
    if permission_mode is not None and permission_mode not in ASK_ENFORCED:
        known = "does not ask a person" if permission_mode in ASK_NOT_ENFORCED else "is unknown to FlyBot"
        return "deny", (f"{line}. Denied rather than ask: permission mode {permission_mode} {known}, so ask would "
                        "not be enforced.")
    return "ask", line + ". Asking here instead."


def run(
    *,
    stdin: IO[bytes],
    stdout: IO[str],
    stderr: IO[str],
    contained: bool,
    ceiling: RiskLevel,
    server: Server,
    wait_s: float,
    room: str | None = None,
    block_on_error: bool = False,
    mode: str | None = None,
    on_no_decision: NoDecision = "ask",
) -> int:
    """Read one event from ``stdin``, write the answer to ``stdout``; returns the exit code (0, or 2 when blocking).

    ``wait_s`` is the whole budget from the moment stdin has been read; keep it below the hook's ``timeout`` in
    Claude Code's settings (600 s by default).
    """
    try:
        event = parse_event(stdin.read())
    except InputError as exc:
        return _no_decision(stderr, str(exc), block=block_on_error)
    except OSError as exc:
        return _no_decision(stderr, f"cannot read stdin ({exc.strerror or exc})", block=block_on_error)
    if isinstance(event, SessionStart):
        return session_start(event, server=server, mode=mode, stdout=stdout, stderr=stderr)
    if isinstance(event, OtherTool):
        print(f"{PREFIX}: {event.tool_name} is not a Bash call; no decision (use the matcher \"Bash\")", file=stderr)
        return EXIT_OK
    started = time.monotonic()
    try:
        graded: Grade = grade(event.command, contained=contained, cwd=event.cwd, ceiling=ceiling, server=server)
        remaining = max(0.5, wait_s - (time.monotonic() - started))
        request = Request(
            session_id=event.session_id, cwd=event.cwd, contained=contained, justification=event.description,
            room=room, idempotency_key=f"claude-code:{event.tool_use_id}" if event.tool_use_id else None,
            expires_s=expiry_for_wait(wait_s),
        )
        verdict = decide(graded, server, request, wait_s=remaining)
        decision, reason = decision_for(verdict, on_no_decision=on_no_decision, permission_mode=event.permission_mode)
    except Exception as exc:  # noqa: BLE001 - a traceback (exit 1) would let the call proceed: fail closed
        from bot.errors import plain_cause

        text = f"the FlyBot hook failed ({plain_cause(exc)}: {exc})".splitlines()[0]
        if block_on_error:
            print(f"{PREFIX}: {text}; blocked", file=stderr)
            return EXIT_BLOCK
        decision, reason = no_decision(text, on_no_decision=on_no_decision, permission_mode=event.permission_mode)
    stdout.write(json.dumps(answer(decision, reason)) + "\n")
    stdout.flush()
    return EXIT_OK


def session_start(event: SessionStart, *, server: Server, mode: str | None, stdout: IO[str], stderr: IO[str],
                  env: dict[str, str] | None = None) -> int:
    """The ``SessionStart`` answer (module docstring): preflight once, report when blocked; always exit 0."""
    from bot.hooks.report import REPORT_SESSION_LIMIT, default_host, run_report
    from bot.preflight import PreflightUsageError, Status

    environ = dict(os.environ) if env is None else env
    session = "".join(ch for ch in event.session_id if not ch.isspace() and ch not in "|=")[:REPORT_SESSION_LIMIT]
    try:
        outcome = run_report(mode, host=default_host(), session=session or "claude-code", server=server,
                             env=environ)
    except PreflightUsageError as exc:
        print(f"{PREFIX}: {exc}; no preflight", file=stderr)
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - a SessionStart hook must never break the session
        from bot.errors import plain_cause

        print(f"{PREFIX}: the preflight failed ({plain_cause(exc)}); no report", file=stderr)
        return EXIT_OK
    if outcome.report.status is not Status.BLOCKED or outcome.line is None:
        return EXIT_OK
    told = ("FlyBot has told the Bot's owners" if outcome.sent else
            f"FlyBot could NOT be told ({outcome.problem}); tell the user")
    context = (f"{outcome.line}\nEvery shell call in this session will be refused with SANDBOX_UNAVAILABLE. "
               f"{told}. Do not retry shell calls; hand the work on until an owner unlocks the host.")
    stdout.write(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                                    "additionalContext": context}}) + "\n")
    stdout.flush()
    if outcome.problem:
        print(f"{PREFIX}: {outcome.problem}", file=stderr)
    return EXIT_OK


def _no_decision(stderr: IO[str], why: str, *, block: bool) -> int:
    if block:
        print(f"{PREFIX}: {why}; blocked (--block-on-error)", file=stderr)
        return EXIT_BLOCK
    print(f"{PREFIX}: {why}; no decision", file=stderr)
    return EXIT_OK


def parse_wait(text: str) -> float:
    """``--wait``: a finite number of seconds from :data:`MIN_WAIT_S` to :data:`MAX_WAIT_S`.

    Raises:
        ValueError: with the one-line message the CLI prints (``inf``, ``nan``, 0, 900 ... are refused).
    """
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"--wait {text!r} is not a number of seconds (give 1 to 590)") from None
    if not MIN_WAIT_S <= value <= MAX_WAIT_S:  # also false for nan; inf is above the maximum
        raise ValueError(f"--wait must be between {MIN_WAIT_S:g} and {MAX_WAIT_S:g} seconds (got {text}); keep the "
                         "hook's timeout in Claude Code's settings above it")
    return value


def main_from_args(contained: bool, ceiling: RiskLevel, url: str | None, token: str | None, wait: str,
                   room: str | None, block_on_error: bool, mode: str | None = None,
                   on_no_decision: NoDecision = "ask") -> int:
    """Run against the process's real stdin/stdout/stderr (the CLI's entry); a bad ``--wait`` exits 2 with one line
    (Claude Code then blocks the call and shows the line)."""
    try:
        wait_s = parse_wait(wait)
    except ValueError as exc:
        print(f"{PREFIX}: {exc}", file=sys.stderr)
        return EXIT_BLOCK
    return run(
        stdin=sys.stdin.buffer, stdout=sys.stdout, stderr=sys.stderr, contained=contained, ceiling=ceiling,
        server=find_server(url, token), wait_s=wait_s, room=room, block_on_error=block_on_error, mode=mode,
        on_no_decision=on_no_decision,
    )
