"""The command hooks of the agents whose hooks answer only "run it" or "do not run it": ``flybot hook cursor``,
``flybot hook copilot``, ``flybot hook cline`` and ``flybot hook opencode`` (the OpenCode plugin's helper).

Each agent's module (:mod:`bot.hooks.cursor`, :mod:`bot.hooks.copilot`, :mod:`bot.hooks.cline`,
:mod:`bot.hooks.opencode`) reads its agent's event into a :class:`ShellCall` (a shell command) or a :class:`FileCall`
(an edit or read of files, graded as FlyBot's ``Edit``/``Write`` or ``Read``/``Grep``/``Glob`` tools, as
``flybot hook claude-code`` grades Claude Code's; Copilot CLI, Cline and OpenCode) and writes its agent's answer; this
module
runs the one gate between them (:func:`bot.hooks.gate.decide`: grade locally, escalate above the ceiling, wait,
withdraw on every way out) and maps its verdict to allowed or not:

* allowed: at or below the ceiling, or approved by an owner or a standing approval;
* not allowed, with the owner's reason: denied, expired;
* not allowed, saying why no human decided: the wait ran out (withdrawn first), withdrawn, undeliverable, FlyBot
  unreachable or refusing, no token, the hook interrupted (withdrawn first), unreadable input, an internal error.

These agents have no answer that hands the call back to a person and is sure to hold in every mode (Cursor is
reported to ignore ``ask`` in one of its modes; Cline and OpenCode's plugins have none), so every "no decision" is a
refusal with the reason, never a silent pass. An event for a tool that is neither a shell command nor a file edit or
read gets no answer from FlyBot (the agent's own permission flow decides); an unreadable event is refused, and so is a tool
whose name is a shell or file tool's only when case is ignored (:func:`near`).

The exit code is the agent's own (0 with the answer on stdout for all four); a usage error (a bad ``--wait``) is
answered as a refusal too, since Cline runs the tool when a hook writes nothing.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time

from bot.hooks.gate import (
    Request,
    Server,
    Verdict,
    decide,
    expiry_for_wait,
    find_server,
    grade,
    grade_tool_call,
    in_directory,
)
from bot.values import Frozen

TYPE_CHECKING = False  # typing stays unloaded: the hook runs on every shell call (bot/values.py)
if TYPE_CHECKING:
    from types import ModuleType
    from typing import IO, Any

    from bot.risk.model import RiskLevel

EXIT_OK = 0
#: The agents this module serves: the name after ``flybot hook`` -> the module speaking that agent's protocol.
AGENTS = {
    "cursor": "bot.hooks.cursor",
    "copilot": "bot.hooks.copilot",
    "cline": "bot.hooks.cline",
    "opencode": "bot.hooks.opencode",
}


class InputError(ValueError):
    """The event cannot be read as a call this hook decides on (one line for the agent and its user)."""


class ShellCall(Frozen):
    """A shell command an agent is about to run.

    Attributes:
        command: the shell text, graded and shown on the card.
        cwd: where it runs (absolute): the directory the call names, else the workspace.
        workspace: the session's project directory as the agent reports it for the session (absolute), else the
            hook's own working directory (the agent starts the hook there); never the directory one call names.
        session_id: the agent's conversation or session id, prefixed with the agent's name for the card.
        call_id: the agent's id for this tool call (the escalation's idempotency key), or None.
        justification: the agent's own description of the call, or None.
    """

    __slots__ = ("command", "cwd", "workspace", "session_id", "call_id", "justification")
    command: str
    cwd: str
    workspace: str
    session_id: str
    call_id: str | None
    justification: str | None

    def __init__(
        self,
        command: str,
        cwd: str,
        session_id: str,
        call_id: str | None = None,
        justification: str | None = None,
        workspace: str | None = None,
    ) -> None:
        self._init(
            command=command,
            cwd=cwd,
            workspace=workspace or cwd,
            session_id=session_id,
            call_id=call_id,
            justification=justification,
        )


class FileCall(Frozen):
    """A call of an agent's file tool, as the FlyBot tools it is graded as (bot/risk/tools.py: ``Edit`` or ``Write``
    for a tool that changes files, ``Read``, ``Grep`` or ``Glob`` for one whose output -- a file's content, matching
    lines, file names -- goes to the model), one per file or directory it names.

    Attributes:
        calls: ``(tool, input)`` per file: ``("Write", {"file_path": ..., "content": ...})``, ``("Edit",
            {"file_path": ..., "old_string": ..., "new_string": ...})``, ``("Read", {"file_path": ...})``, ``("Grep",
            {"pattern": ..., "path": ..., "glob": ...})`` or ``("Glob", {"pattern": ..., "path": ...})``; a relative
            path is from the workspace.
        workspace: the session's project directory (absolute), as for :class:`ShellCall`.
        session_id: as for :class:`ShellCall`.
        call_id: as for :class:`ShellCall`.
    """

    __slots__ = ("calls", "workspace", "session_id", "call_id")
    calls: tuple[tuple[str, dict[str, Any]], ...]
    workspace: str
    session_id: str
    call_id: str | None

    def __init__(
        self, calls: tuple[tuple[str, dict[str, Any]], ...], workspace: str, session_id: str, call_id: str | None
    ) -> None:
        self._init(calls=calls, workspace=workspace, session_id=session_id, call_id=call_id)


#: A file a patch changes, in the patch format Cline and OpenCode share (``*** Begin Patch`` ... ``*** End Patch``).
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add File|Update File|Delete File|Move to): ?(.*)$", re.MULTILINE)


def patch_calls(patch: object) -> tuple[tuple[str, dict[str, Any]], ...]:
    """An ``apply_patch`` call as one ``Edit`` per file its patch names (``*** Add File:``, ``*** Update File:``,
    ``*** Delete File:``, ``*** Move to:``), each showing the whole patch, for :class:`FileCall`.

    Raises:
        InputError: no patch text, or a patch that names no file (or an empty path).
    """
    if not isinstance(patch, str):
        raise InputError("the apply_patch call has no patch text")
    paths = list(dict.fromkeys(found.strip() for found in _PATCH_FILE.findall(patch)))
    if not paths or not all(paths):
        raise InputError("the apply_patch call names no file (or an empty path)")
    return tuple(("Edit", {"file_path": path, "old_string": "", "new_string": patch}) for path in paths)


class NotShell(Frozen):
    """An event for a tool that is neither a shell command nor a file edit: FlyBot gives no answer (the agent's own
    flow decides)."""

    __slots__ = ("tool",)
    tool: str

    def __init__(self, tool: str) -> None:
        self._init(tool=tool)


def near(name: str, known: tuple[str, ...]) -> bool:
    """True when ``name`` is not one of ``known`` but matches one ignoring case (``Bash``, ``SHELL``, ``baſh``): an
    agent looks its tools up by exact name, so such a call is none of its known tools, and FlyBot refuses it rather
    than leave it to the agent's own flow."""
    return name not in known and name.casefold() in {k.casefold() for k in known}


def text(value: object) -> str | None:
    """``value`` when it is a non-blank string, else None."""
    return value if isinstance(value, str) and value.strip() else None


def directory(value: object) -> str:
    """An absolute directory from the event, else the hook's own working directory (the agent starts it there)."""
    return value if isinstance(value, str) and value.startswith("/") else os.getcwd()


def shell_call(
    command: object,
    *,
    cwd: object,
    workspace: object,
    agent: str,
    session: object,
    call_id: object = None,
    justification: object = None,
) -> ShellCall:
    """A :class:`ShellCall` from an event's fields, checking the command.

    ``workspace``: the session's project directory from the event (not an absolute path: the hook's own working
    directory); ``cwd``: the directory this call names (not an absolute path: the workspace).

    Raises:
        InputError: no command, or not a string.
    """
    if not isinstance(command, str) or not command.strip():
        raise InputError("the event has no shell command")
    root = directory(workspace)
    return ShellCall(
        command=command,
        cwd=cwd if isinstance(cwd, str) and cwd.startswith("/") else root,
        workspace=root,
        session_id=f"{agent} {text(session) or 'session'}",
        call_id=text(call_id),
        justification=text(justification),
    )


def verdict_answer(verdict: Verdict) -> tuple[bool, str]:
    """``(allowed, reason)`` for a gate verdict (see the module docstring); the reason is written for the model."""
    line = verdict.describe()
    match verdict.outcome:
        case "local" | "approved":
            return True, line + "."
        case "denied":
            return False, line + ". Do not run this command another way; adapt the plan or ask the user."
        case "expired":
            return False, line + "."
    return False, line + ". Not run: FlyBot needs an owner's approval for it."


def decide_call(
    call: ShellCall | FileCall,
    *,
    agent: str,
    contained: bool,
    ceiling: RiskLevel,
    server: Server,
    wait_s: float,
    room: str | None,
) -> tuple[bool, str]:
    """Grade ``call`` and, above the ceiling, ask FlyBot within ``wait_s`` seconds; ``(allowed, reason)``.

    The workspace is the session's (:attr:`ShellCall.workspace`); a call run elsewhere is graded, and sent, as a
    ``cd`` into its directory followed by the command (:func:`bot.hooks.gate.in_directory`).
    """
    started = time.monotonic()
    if isinstance(call, FileCall):
        return _decide_files(call, agent=agent, ceiling=ceiling, server=server, wait_s=wait_s, room=room)
    command = in_directory(call.command, cwd=call.cwd, workspace=call.workspace)
    graded = grade(command, contained=contained, cwd=call.workspace, ceiling=ceiling, server=server)
    request = Request(
        session_id=call.session_id,
        cwd=call.workspace,
        contained=contained,
        justification=call.justification,
        room=room,
        idempotency_key=f"{agent}:{call.call_id}" if call.call_id else None,
        expires_s=expiry_for_wait(wait_s),
    )
    verdict = decide(graded, server, request, wait_s=max(0.5, wait_s - (time.monotonic() - started)))
    return verdict_answer(verdict)


def _decide_files(
    call: FileCall, *, agent: str, ceiling: RiskLevel, server: Server, wait_s: float, room: str | None
) -> tuple[bool, str]:
    """Grade each file of ``call`` as its FlyBot tool (:func:`bot.hooks.gate.grade_tool_call`, as for Claude Code's
    tools: an edit inside the workspace is ``workspace_write``; outside it, FlyBot's own state, an agent's settings or
    hooks, a git directory are higher; a read of a workspace file is ``read_only``, of a secret or credential file
    ``network``) and, when one is above the ceiling, ask FlyBot about it; ``(allowed, reason)``.

    A card shows one file: a call naming several files, one of them above the ceiling, is refused (the agent can
    make one call a file). The call runs on the host, never contained."""
    started = time.monotonic()
    graded = [
        grade_tool_call(tool, tool_input, cwd=call.workspace, ceiling=ceiling, server=server)
        for tool, tool_input in call.calls
    ]
    asking = [g for g in graded if g.needs_approval]
    if not asking:
        return verdict_answer(Verdict("local", graded[0]))
    if len(graded) > 1:
        path = (asking[0].tool or {}).get("resolved_path") or "one of them"
        return False, (
            f"This call names {len(graded)} files and {path} needs an owner's approval; an approval card shows one "
            "file. Not run: name one file a call."
        )
    request = Request(
        session_id=call.session_id,
        cwd=call.workspace,
        contained=False,
        room=room,
        idempotency_key=f"{agent}:{call.call_id}" if call.call_id else None,
        expires_s=expiry_for_wait(wait_s),
    )
    verdict = decide(graded[0], server, request, wait_s=max(0.5, wait_s - (time.monotonic() - started)))
    return verdict_answer(verdict)


def run(
    protocol: ModuleType,
    *,
    stdin: IO[bytes],
    stdout: IO[str],
    stderr: IO[str],
    contained: bool,
    ceiling: RiskLevel,
    server: Server,
    wait_s: float,
    room: str | None = None,
) -> int:
    """Read one event from ``stdin`` with ``protocol.parse``, decide, write ``protocol.answer``; the exit code.

    ``protocol`` is one agent's module: ``AGENT`` (its name after ``flybot hook``), ``LABEL`` (the card's name for
    it), ``parse(data) -> ShellCall | FileCall | NotShell`` (raising :class:`InputError`), ``answer(allowed, reason) ->
    (object to write as JSON or None, exit code)``.
    """
    prefix = f"flybot hook {protocol.AGENT}"
    try:
        try:
            data = json.loads(stdin.read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            from bot.errors import plain_cause

            raise InputError(f"stdin is not a JSON hook event ({plain_cause(exc)})") from None
        if not isinstance(data, dict):
            raise InputError("stdin is not a JSON object")
        call = protocol.parse(data)
    except (InputError, OSError) as exc:
        reason = f"FlyBot could not read the hook event ({exc}); not run"
        print(f"{prefix}: {reason}", file=stderr)
        return _write(stdout, protocol.answer(False, reason))
    if isinstance(call, NotShell):
        print(f"{prefix}: {call.tool} is not a shell command; no decision", file=stderr)
        return EXIT_OK
    try:
        allowed, reason = decide_call(
            call,
            agent=protocol.AGENT,
            contained=contained,
            ceiling=ceiling,
            server=server,
            wait_s=wait_s,
            room=room,
        )
    except Exception as exc:  # noqa: BLE001 - a traceback would leave the agent to its own default: fail closed
        from bot.errors import plain_cause

        allowed, reason = False, f"the FlyBot hook failed ({plain_cause(exc)}); not run".splitlines()[0]
    if not allowed:
        print(f"{prefix}: {reason}", file=stderr)
    return _write(stdout, protocol.answer(allowed, reason))


def _write(stdout: IO[str], answer: tuple[Any, int]) -> int:
    out, code = answer
    if out is not None:
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()
    return int(code)


def parse_wait(text: str, *, agent: str, maximum: float) -> float:
    """``--wait``: a finite number of seconds from 1 to ``maximum`` (the agent's hook timeout less a margin).

    Raises:
        ValueError: with the one-line message the CLI prints.
    """
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"--wait {text!r} is not a number of seconds (give 1 to {maximum:g})") from None
    if not 1.0 <= value <= maximum:  # also false for nan; inf is above the maximum
        raise ValueError(
            f"--wait must be between 1 and {maximum:g} seconds for {agent} (got {text}); keep the hook's timeout "
            "above it"
        )
    return value


def main_from_args(
    agent: str,
    contained: bool,
    ceiling: RiskLevel,
    url: str | None,
    token: str | None,
    wait: str | None,
    room: str | None,
    settings: str | None = None,
) -> int:
    """Run ``agent``'s hook against the process's real stdin/stdout/stderr (the CLI's entry). ``settings``: the hook's
    settings file (:mod:`bot.hooks.hook_settings`; ``flybot hook install cline`` names it, as Cline loads the
    project's ``.env`` into the environment its hooks inherit): the URL, token and state directory come from it
    (``--server``/``--token`` still win), never from the environment; one that cannot be trusted refuses the call."""
    import importlib

    protocol = importlib.import_module(AGENTS[agent])
    try:
        wait_s = parse_wait(wait or str(protocol.DEFAULT_WAIT_S), agent=agent, maximum=protocol.MAX_WAIT_S)
    except ValueError as exc:
        print(f"flybot hook {agent}: {exc}", file=sys.stderr)
        return _write(sys.stdout, protocol.answer(False, f"the FlyBot hook is misconfigured ({exc}); not run"))
    if settings is not None:
        from bot.hooks.hook_settings import SettingsError, apply

        try:
            recorded_url, recorded_token = apply(settings)
        except SettingsError as exc:
            sys.stdin.buffer.read()
            print(f"flybot hook {agent}: {exc}; not run", file=sys.stderr)
            return _write(sys.stdout, protocol.answer(False, f"{exc}; not run"))
        url, token = url or recorded_url, token or recorded_token
    return run(
        protocol,
        stdin=sys.stdin.buffer,
        stdout=sys.stdout,
        stderr=sys.stderr,
        contained=contained,
        ceiling=ceiling,
        server=find_server(url, token),
        wait_s=wait_s,
        room=room,
    )
