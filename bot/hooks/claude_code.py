"""``flybot hook claude-code``: a Claude Code command hook that asks FlyBot before a Bash command runs.

Events answered (Claude Code hooks reference, https://code.claude.com/docs/en/hooks; the shapes checked against
Claude Code 2.1.332's own schema):

* ``PreToolUse`` (matcher ``Bash``): a Bash tool call. Input::

      {"session_id": "abc123", "transcript_path": "/.../abc123.jsonl", "cwd": "/repo", "permission_mode": "default",
       "hook_event_name": "PreToolUse", "tool_name": "Bash",
       "tool_input": {"command": "npm install", "description": "Install deps", "timeout": 120000,
                      "run_in_background": false},
       "tool_use_id": "toolu_01ABC..."}

  Answer: ``{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow" | "deny" | "ask",
  "permissionDecisionReason": "..."}}``. ``allow`` runs the call without the permission prompt (settings' deny/ask
  rules still apply); ``deny`` blocks it and the reason is shown to Claude; ``ask`` shows the user the ordinary
  permission prompt with the reason.
* ``PreSkillShellCommand`` (matcher ``Bash``): a shell command in a skill's or slash command's text
  (`` !`cmd` ``), run as the skill or command loads. Input: ``tool_name`` (``Bash`` or ``PowerShell``),
  ``tool_input.command`` (arguments filled in), ``tool_use_id``, ``command_name``, ``command_source``,
  ``invoked_by`` (``user``, ``claude``, ``other``). Answer: the same ``permissionDecision`` shape with
  ``hookEventName: "PreSkillShellCommand"``; only ``allow`` lets the command run (``deny``, ``ask`` and ``defer``
  all keep it from running), and **no answer lets it run**, so this hook always answers this event: unreadable input
  and a ``PowerShell`` command get ``deny``.
* ``PermissionRequest`` (matcher ``Bash``): the agent would show its own permission dialog. Input: ``tool_name``,
  ``tool_input`` (no ``tool_use_id``). Answer: ``{"hookSpecificOutput": {"hookEventName": "PermissionRequest",
  "decision": {"behavior": "allow"}}}`` or ``{"behavior": "deny", "message": "..."}``; "ask" is no output at all,
  so the dialog is shown and a person decides there. Codex (0.171) sends the same event from its ``hooks.json``
  with the same answer shape (``tool_name`` ``Bash``, ``tool_input.command``, ``tool_input.description``: the
  request's justification); ``flybot hook codex`` is this hook under that name.
* Codex's ``PreToolUse`` (matcher ``Bash``, 0.171): sent before every shell command, also one Codex runs in its
  sandbox without asking; the same input shape as Claude Code's (``tool_input.command``, ``tool_use_id``). Codex takes
  only ``deny`` there (an ``allow`` or ``ask`` answer is an error), so ``flybot hook codex`` writes nothing when the
  command is at or below the ceiling or approved (Codex runs it its own way) and ``deny`` for everything else, a
  missing human decision included (:func:`codex_pre_tool_use`).
* Fields not listed here are ignored (Claude Code adds fields over time).
* Exit 0 with empty stdout is "no decision" (the normal permission flow); exit 2 blocks the call and feeds stderr to
  Claude; any other exit code is a non-blocking error and **the call proceeds** -- so this hook never lets an exception
  escape as a traceback: an internal error answers ``ask``.

FlyBot's mapping (fail closed, never ``allow`` without an approval):

==========================================  =========  ============================================================
situation                                   answer     reason
==========================================  =========  ============================================================
risk at or below ``--ceiling``              allow      no call but, when its copy of the program rules is stale,
                                                       their GET (bot/hooks/rules_cache.py); without a fresh copy
                                                       FlyBot is asked (``Grade.unverified``)
approved (click or standing approval)       allow      names the approver or the standing approval id
denied                                      deny       the owner's reason, passed on to Claude
expired                                     deny       nobody decided in time
no human decision (see below)               NO-DEC     ``--on-no-decision``: ``ask`` (default) or ``deny``
internal error                              NO-DEC     (exit 2 with ``--block-on-error``)
a tool left out of ``--tools``              (none)     exit 0, empty stdout, one line on stderr
unparseable stdin                           (none)     exit 0, empty stdout, one line on stderr (exit 2 with
                                                       ``--block-on-error``)
==========================================  =========  ============================================================

``PreSkillShellCommand`` differs only where "none" would let the command run: not Bash, or unreadable -> ``deny``.

The workspace: ``CLAUDE_PROJECT_DIR``, which Claude Code sets for every hook it runs to the project's root (hooks
reference, "Reference scripts by path"), when it is an absolute path; else the event's ``cwd`` (older releases).
Codex (0.171) sets no such variable and gives as the event's ``cwd`` the call's own ``workdir`` (the model's choice
for one call); it starts its hooks in the session's directory, so ``flybot hook codex`` takes its own working
directory as the workspace. The event's ``cwd`` is where the call runs: the agent's shell keeps the
directory a ``cd`` left it in, so it may lie anywhere. A call run elsewhere than the project's root is graded, and
sent, as ``cd -- CWD || exit 1`` followed by the command (:func:`bot.hooks.gate.in_directory`): from a directory
outside the project, a relative write is a write there, never one in the workspace. A file tool's relative path is
still resolved from ``cwd``, and the workspace it is judged against is the project's.

``Monitor`` (Claude Code 2.1.x) runs a shell command in the background, each line of its output an event, or opens a
WebSocket (``ws.url``). Its command form reaches ``PreToolUse`` as a ``Bash`` call; its ``PermissionRequest``
(``tool_name`` ``Monitor``, ``tool_input.command``) is answered as a Bash call of that command. Its WebSocket form
reaches the hook only as ``Monitor``, and is graded as a tool (network egress to the URL's origin).

Tools other than Bash (``PreToolUse`` and ``PermissionRequest``; ``--tools`` chooses which, by default Read, Grep,
Glob, Edit, Write, MultiEdit, NotebookEdit, WebFetch, WebSearch, Monitor, ReadMcpResourceTool and every MCP tool): graded by bot/risk/tools.py (a
file tool's path resolved with ``realpath`` first; Read, Grep and Glob as ``cat``, ``grep -r`` and ``ls`` of that
path: a secret or FlyBot's state is ``network``, a workspace file ``read_only``), answered with the same mapping; above the ceiling the escalation carries the call
(``tool``) and the card shows its target and diff or arguments. A tool call runs on the agent's host, never
contained.
``PermissionRequest`` writes nothing for ``ask`` (the agent's own dialog asks a person).

"No human decision" (:data:`bot.hooks.gate.NO_DECISION`): still pending after ``--wait`` seconds (withdrawn first),
undeliverable, withdrawn, FlyBot unreachable or refusing, no token, or the hook interrupted by SIGINT/SIGTERM/SIGHUP
(withdrawn first; the answer is still written, exit 0).

Permission modes (``permission_mode`` of the event; Claude Code hooks reference: ``default``, ``plan``,
``acceptEdits``, ``auto``, ``dontAsk``, ``bypassPermissions``): ``ask`` is fail-closed only where Claude Code then
asks a person or refuses. In ``bypassPermissions`` every call that reaches the permission step runs, and in ``auto``
a classifier answers instead of a person, so there (:data:`ASK_NOT_ENFORCED`, and any mode this hook does not know)
the hook answers ``deny`` instead of ``ask``, saying why. A missing ``permission_mode`` (older releases) keeps ``ask``.

``SessionStart`` (configure it with the matcher ``startup``): the hook runs the sandbox preflight once
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

from bot.hooks.gate import (
    Grade,
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
    """The hook's stdin is not an event this hook can read; ``event`` is its ``hook_event_name`` when it had one."""

    def __init__(self, message: str, event: str | None = None) -> None:
        super().__init__(message)
        self.event = event


#: The events that carry a Bash command to decide on (see the module docstring).
COMMAND_EVENTS = ("PreToolUse", "PreSkillShellCommand", "PermissionRequest")


class BashCall(Frozen):
    """The parts of a Bash command event that FlyBot uses; ``event`` is one of :data:`COMMAND_EVENTS`."""

    __slots__ = ("session_id", "cwd", "command", "description", "tool_use_id", "permission_mode", "event")
    session_id: str
    cwd: str
    command: str
    description: str | None
    tool_use_id: str | None
    permission_mode: str | None
    event: str

    def __init__(
        self,
        session_id: str,
        cwd: str,
        command: str,
        description: str | None,
        tool_use_id: str | None,
        permission_mode: str | None = None,
        event: str = "PreToolUse",
    ) -> None:
        self._init(
            session_id=session_id,
            cwd=cwd,
            command=command,
            description=description,
            tool_use_id=tool_use_id,
            permission_mode=permission_mode,
            event=event,
        )


class ToolUse(Frozen):
    """A ``PreToolUse`` or ``PermissionRequest`` event for a tool other than Bash (bot/risk/tools.py): its name and
    input object as the agent gave them."""

    __slots__ = ("session_id", "cwd", "tool_name", "tool_input", "tool_use_id", "permission_mode", "event")
    session_id: str
    cwd: str
    tool_name: str
    tool_input: dict[str, Any]
    tool_use_id: str | None
    permission_mode: str | None
    event: str

    def __init__(
        self,
        session_id: str,
        cwd: str,
        tool_name: str,
        tool_input: dict[str, Any],
        tool_use_id: str | None,
        permission_mode: str | None,
        event: str,
    ) -> None:
        self._init(
            session_id=session_id,
            cwd=cwd,
            tool_name=tool_name,
            tool_input=tool_input,
            tool_use_id=tool_use_id,
            permission_mode=permission_mode,
            event=event,
        )


#: ``--tools`` default: every tool the hook can gate (``mcp``: every MCP tool). An edit inside the workspace grades
#: ``workspace_write`` and a read of a workspace file ``read_only``, at or below the default ceiling: answered here
#: without asking FlyBot.
DEFAULT_TOOLS = (
    "Bash,Read,Grep,Glob,Edit,Write,MultiEdit,NotebookEdit,WebFetch,WebSearch,Monitor,ReadMcpResourceTool,mcp"
)
GATED_TOOLS = frozenset(DEFAULT_TOOLS.split(","))


def parse_tools(text: str) -> frozenset[str]:
    """``--tools``: a comma-separated list of :data:`GATED_TOOLS` names or MCP tool names (``mcp__SERVER__TOOL``).

    Raises:
        ValueError: with the one-line message the CLI prints.
    """
    names = frozenset(part.strip() for part in text.split(",") if part.strip())
    wrong: list[str] = []
    if names - GATED_TOOLS:  # the tool grader loads only for MCP tools named one by one
        from bot.risk.tools import mcp_parts

        wrong = sorted(n for n in names - GATED_TOOLS if mcp_parts(n) is None)
    if not names or wrong:
        raise ValueError(
            f"--tools {text!r}: give a comma-separated list of {', '.join(sorted(GATED_TOOLS))} or "
            f"mcp__SERVER__TOOL names" + (f" (not: {', '.join(wrong)})" if wrong else "")
        )
    return names


def gated(tool: str, tools: frozenset[str]) -> bool:
    """True when ``tools`` (``--tools``) sends ``tool`` to the gate: a name in it, an MCP tool's when ``mcp`` is, and
    any name that matches one of them ignoring case (``bash``, ``WEBFETCH``, ``MCP__x__y``, ``baſh``). Claude Code
    looks tools up by exact name, so such a name is no tool FlyBot knows: it is graded as one (bot/risk/tools.py,
    ``unrecognised-tool``: ``destructive``) instead of getting no decision."""
    if tool in tools or ("mcp" in tools and tool.startswith("mcp__")):
        return True
    folded = tool.casefold()
    return any(folded == name.casefold() for name in tools) or ("mcp" in tools and folded.startswith("mcp__"))


class OtherTool(Frozen):
    """A command event for another tool (the matcher should have been ``Bash``)."""

    __slots__ = ("tool_name", "event")
    tool_name: str
    event: str

    def __init__(self, tool_name: str, event: str = "PreToolUse") -> None:
        self._init(tool_name=tool_name, event=event)


class SessionStart(Frozen):
    """A ``SessionStart`` event: ``source`` is ``startup``, ``resume``, ``clear`` or ``compact``."""

    __slots__ = ("session_id", "source")
    session_id: str
    source: str

    def __init__(self, session_id: str, source: str) -> None:
        self._init(session_id=session_id, source=source)


def parse_event(raw: bytes) -> BashCall | ToolUse | OtherTool | SessionStart:
    """Read one event (see the module docstring); unknown fields are ignored.

    Raises:
        InputError: not JSON, not an object, not an event this hook answers, or a Bash event without a command
            string (``InputError.event`` names the event when the object had one).
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
    if event is None:
        event = "PreToolUse"  # older releases sent no event name
    if event not in COMMAND_EVENTS:
        raise InputError(
            f"hook_event_name is {event!r}; configure this hook under {', '.join(COMMAND_EVENTS)} or SessionStart"
        )
    tool = data.get("tool_name")
    if not isinstance(tool, str) or not tool:
        raise InputError("the event has no tool_name", event)
    monitored = data.get("tool_input")
    if tool == "Monitor" and isinstance(monitored, dict) and "command" in monitored and "ws" not in monitored:
        tool = "Bash"  # a Monitor of a shell command runs it as the Bash tool does (in the background)
    if tool != "Bash":
        tool_input = data.get("tool_input")
        if event == "PreSkillShellCommand" or not isinstance(tool_input, dict):
            return OtherTool(tool, event)
        session_id, cwd = data.get("session_id"), data.get("cwd")
        tool_use_id, mode = data.get("tool_use_id"), data.get("permission_mode")
        return ToolUse(
            session_id=session_id if isinstance(session_id, str) and session_id else "claude-code",
            cwd=cwd if isinstance(cwd, str) and cwd else os.getcwd(),
            tool_name=tool,
            tool_input=tool_input,
            tool_use_id=tool_use_id if isinstance(tool_use_id, str) and tool_use_id else None,
            permission_mode=mode if isinstance(mode, str) else (None if mode is None else repr(mode)),
            event=event,
        )
    tool_input = data.get("tool_input")
    if not isinstance(tool_input, dict):
        raise InputError("the Bash event has no tool_input object", event)
    command = tool_input.get("command")
    if not isinstance(command, str) or not command.strip():
        raise InputError("the Bash event has no tool_input.command", event)
    cwd = data.get("cwd")
    session_id = data.get("session_id")
    tool_use_id = data.get("tool_use_id")
    mode = data.get("permission_mode")
    return BashCall(
        session_id=session_id if isinstance(session_id, str) and session_id else "claude-code",
        cwd=cwd if isinstance(cwd, str) and cwd else os.getcwd(),
        command=command,
        description=_justification(event, data, tool_input),
        tool_use_id=tool_use_id if isinstance(tool_use_id, str) and tool_use_id else None,
        permission_mode=mode if isinstance(mode, str) else (None if mode is None else repr(mode)),
        event=event,
    )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _justification(event: str, data: dict[str, Any], tool_input: dict[str, Any]) -> str | None:
    """What the card shows as the reason: the tool call's ``description``; for a skill's or slash command's shell
    command, which command holds it, where it comes from and who started it (the agent's own words, shown as such)."""
    description = _text(tool_input.get("description"))
    if event != "PreSkillShellCommand":
        return description
    name = _text(data.get("command_name")) or "an unnamed skill or command"
    source = _text(data.get("command_source"))
    started = _text(data.get("invoked_by"))
    line = f"Runs from the text of /{name.lstrip('/')}" + (f" ({source})" if source else "")
    line += f", started by {started}" if started else ""
    return f"{line}. {description}" if description else line


def answer(decision: Decision, reason: str, event: str = "PreToolUse") -> dict[str, Any] | None:
    """The hook's stdout object for ``decision`` in ``event``'s own shape; None: write nothing.

    ``PreToolUse`` and ``PreSkillShellCommand``: ``permissionDecision`` and its reason. ``PermissionRequest``:
    ``decision: {behavior: allow}`` or ``{behavior: deny, message}``; ``ask`` is no output at all, so the agent shows
    its own permission dialog (a person decides there).
    """
    if event == "PermissionRequest":
        if decision == "ask":
            return None
        verdict: dict[str, Any] = {"behavior": decision}
        if decision == "deny":
            verdict["message"] = reason
        return {"hookSpecificOutput": {"hookEventName": event, "decision": verdict}}
    return {
        "hookSpecificOutput": {
            "hookEventName": event,
            "permissionDecision": decision,
            "permissionDecisionReason": reason,
        }
    }


def codex_pre_tool_use(decision: Decision, reason: str) -> tuple[Decision, str]:
    """A decision for Codex's ``PreToolUse``, which takes only ``deny``: ``allow`` stays (the caller writes nothing,
    so Codex runs the command its own way, in its sandbox or asking for approval); ``ask`` becomes ``deny``, since
    no answer would let the command run unasked."""
    if decision == "ask":
        return "deny", reason.removesuffix(" Asking here instead.") + " Not run: Codex's PreToolUse hook cannot ask."
    return decision, reason


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
        return "deny", (
            f"{line}. Denied rather than ask: permission mode {permission_mode} {known}, so ask would not be enforced."
        )
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
    agent: str = "claude-code",
    tools: frozenset[str] = frozenset(DEFAULT_TOOLS.split(",")),
    project_dir: str | None = None,
) -> int:
    """Read one event from ``stdin``, write the answer to ``stdout``; returns the exit code (0, or 2 when blocking).

    ``wait_s`` is the whole budget from the moment stdin has been read; keep it below the hook's ``timeout`` in
    Claude Code's settings (600 s by default). ``agent``: ``claude-code`` or ``codex`` (Codex takes only ``deny``
    from ``PreToolUse``: see :func:`codex_pre_tool_use`; another tool than Bash there gets no decision). ``tools``:
    which tools go through the gate (``--tools``); another tool's event gets no decision (the agent's own permission
    flow). ``project_dir``: ``CLAUDE_PROJECT_DIR`` as the hook found it, or for Codex the hook's working directory
    (:func:`workspace_for`).
    """
    try:
        event = parse_event(stdin.read())
    except InputError as exc:
        if exc.event == "PreSkillShellCommand":  # no answer would let the command run: refuse it
            _write(stdout, answer("deny", f"FlyBot could not read the event ({exc}); not run", exc.event))
            print(f"{PREFIX}: {exc}; denied", file=stderr)
            return EXIT_OK
        return _no_decision(stderr, str(exc), block=block_on_error)
    except OSError as exc:
        return _no_decision(stderr, f"cannot read stdin ({exc.strerror or exc})", block=block_on_error)
    if isinstance(event, SessionStart):
        return session_start(event, server=server, mode=mode, stdout=stdout, stderr=stderr)
    if isinstance(event, OtherTool):
        if event.event == "PreSkillShellCommand":  # no answer would let it run, and FlyBot grades Bash only
            _write(
                stdout,
                answer(
                    "deny",
                    f"FlyBot grades Bash commands only; this {event.tool_name} command was not "
                    "graded, so it does not run",
                    event.event,
                ),
            )
            return EXIT_OK
        print(f'{PREFIX}: {event.tool_name} is not a Bash call; no decision (use the matcher "Bash")', file=stderr)
        return EXIT_OK
    if not gated("Bash" if isinstance(event, BashCall) else event.tool_name, tools):
        name = "Bash" if isinstance(event, BashCall) else event.tool_name
        if event.event == "PreSkillShellCommand":  # no answer would let it run
            _write(stdout, answer("deny", "FlyBot's hook is set not to grade Bash (--tools); not run", event.event))
            return EXIT_OK
        print(f"{PREFIX}: {name} is not in --tools; no decision", file=stderr)
        return EXIT_OK
    codex_pre = agent == "codex" and event.event == "PreToolUse"
    if codex_pre and not isinstance(event, BashCall):
        print(
            f"{PREFIX.replace('claude-code', agent)}: FlyBot grades Codex's Bash calls only; no decision", file=stderr
        )
        return EXIT_OK
    started = time.monotonic()
    workspace = workspace_for(event.cwd, project_dir)
    try:
        if isinstance(event, ToolUse):  # a tool call runs on the agent's host, never in the sandbox
            graded: Grade = grade_tool_call(
                event.tool_name, event.tool_input, cwd=event.cwd, ceiling=ceiling, server=server, workspace=workspace
            )
            justification = None  # a tool's input is shown whole as the call (a "description" there is an argument)
        else:
            command = in_directory(event.command, cwd=event.cwd, workspace=workspace)
            graded = grade(command, contained=contained, cwd=workspace, ceiling=ceiling, server=server)
            justification = event.description
        remaining = max(0.5, wait_s - (time.monotonic() - started))
        request = Request(
            session_id=event.session_id,
            cwd=workspace,
            contained=contained and not isinstance(event, ToolUse),
            justification=justification,
            room=room,
            idempotency_key=f"{agent}:{event.tool_use_id}" if event.tool_use_id else None,
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
    if codex_pre:
        decision, reason = codex_pre_tool_use(decision, reason)
    out = answer(decision, reason, event.event) if decision != "allow" or not codex_pre else None
    if out is None:
        print(f"{PREFIX}: {reason}", file=stderr)
    _write(stdout, out)
    return EXIT_OK


def workspace_for(cwd: str, project_dir: str | None) -> str:
    """The workspace a call is graded in (module docstring): ``project_dir`` (``CLAUDE_PROJECT_DIR``) when it is an
    absolute path, else the event's ``cwd``."""
    return project_dir if project_dir and project_dir.startswith("/") else cwd


def _write(stdout: IO[str], out: dict[str, Any] | None) -> None:
    """Write the answer object as one JSON line (nothing for None: the agent's own permission flow)."""
    if out is not None:
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()


def session_start(
    event: SessionStart,
    *,
    server: Server,
    mode: str | None,
    stdout: IO[str],
    stderr: IO[str],
    env: dict[str, str] | None = None,
) -> int:
    """The ``SessionStart`` answer (module docstring): preflight once, report when blocked; always exit 0."""
    from bot.hooks.report import REPORT_SESSION_LIMIT, default_host, run_report
    from bot.preflight import PreflightUsageError, Status

    environ = dict(os.environ) if env is None else env
    session = "".join(ch for ch in event.session_id if not ch.isspace() and ch not in "|=")[:REPORT_SESSION_LIMIT]
    try:
        outcome = run_report(mode, host=default_host(), session=session or "claude-code", server=server, env=environ)
    except PreflightUsageError as exc:
        print(f"{PREFIX}: {exc}; no preflight", file=stderr)
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - a SessionStart hook must never break the session
        from bot.errors import plain_cause

        print(f"{PREFIX}: the preflight failed ({plain_cause(exc)}); no report", file=stderr)
        return EXIT_OK
    if outcome.report.status is not Status.BLOCKED or outcome.line is None:
        return EXIT_OK
    told = (
        "FlyBot has told the Bot's owners"
        if outcome.sent
        else f"FlyBot could NOT be told ({outcome.problem}); tell the user"
    )
    context = (
        f"{outcome.line}\nEvery shell call in this session will be refused with SANDBOX_UNAVAILABLE. "
        f"{told}. Do not retry shell calls; hand the work on until an owner unlocks the host."
    )
    stdout.write(
        json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}}) + "\n"
    )
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
        raise ValueError(
            f"--wait must be between {MIN_WAIT_S:g} and {MAX_WAIT_S:g} seconds (got {text}); keep the "
            "hook's timeout in Claude Code's settings above it"
        )
    return value


def main_from_args(
    contained: bool,
    ceiling: RiskLevel,
    url: str | None,
    token: str | None,
    wait: str,
    room: str | None,
    block_on_error: bool,
    mode: str | None = None,
    on_no_decision: NoDecision = "ask",
    agent: str = "claude-code",
    tools: str = DEFAULT_TOOLS,
) -> int:
    """Run against the process's real stdin/stdout/stderr (the CLI's entry); a bad ``--wait`` or ``--tools`` exits
    2 with one line (Claude Code then blocks the call and shows the line)."""
    try:
        wait_s = parse_wait(wait)
        gate_tools = parse_tools(tools)
    except ValueError as exc:
        print(f"{PREFIX}: {exc}", file=sys.stderr)
        return EXIT_BLOCK
    return run(
        stdin=sys.stdin.buffer,
        stdout=sys.stdout,
        stderr=sys.stderr,
        contained=contained,
        ceiling=ceiling,
        server=find_server(url, token),
        wait_s=wait_s,
        room=room,
        block_on_error=block_on_error,
        mode=mode,
        on_no_decision=on_no_decision,
        agent=agent,
        tools=gate_tools,
        project_dir=os.environ.get("CLAUDE_PROJECT_DIR") if agent == "claude-code" else os.getcwd(),
    )
