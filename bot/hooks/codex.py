"""``flybot codex``: run a Codex turn through the real ``codex app-server`` and answer its approvals through FlyBot.

Protocol: Codex's app-server speaks JSON-RPC 2.0 over stdio, one JSON object per line, with the ``"jsonrpc"``
member omitted. Everything below was read from the JSON Schema the pinned CLI writes
(``codex app-server generate-json-schema --out DIR``, @openai/codex 0.171.0); the tests validate every message this
adapter sends and receives against it.

Flow::

    initialize -> initialized -> thread/start {cwd, sandbox, approvalPolicy[, model]} -> turn/start {threadId, input}
    ... notifications stream the turn (agent text to stdout, commands and file changes to stderr) ...
    server requests:
      item/commandExecution/requestApproval, execCommandApproval (older)   -> an escalation for the command
      item/fileChange/requestApproval, applyPatchApproval (older)          -> an escalation listing files and diff
      item/permissions/requestApproval                                     -> an escalation naming the access
      anything else the server asks (user input, MCP elicitation, ...)     -> a JSON-RPC error: not handled here
    turn/completed -> exit

Decisions (FlyBot's gate: grade locally, escalate above ``--ceiling``, wait, withdraw on every way out):

=============================================  ===========  ==============================================
FlyBot                                         v2 decision  older ``execCommandApproval`` /
                                                            ``applyPatchApproval``
=============================================  ===========  ==============================================
at or below the ceiling, approved              ``accept``   ``approved``
denied                                         ``decline``  ``{"denied": {"rejection": REASON}}``
no human decision (expired, withdrawn, no      ``cancel``   ``abort``
decision within ``--timeout``, undeliverable,
unreachable, refused, Ctrl-C)
=============================================  ===========  ==============================================

After a ``decline`` the owner's reason is steered into the running turn (``turn/steer``): a decline carries no
message, and the model would read only that the user rejected the call.

A permissions request (``item/permissions/requestApproval``: the model's ``request_permissions`` tool, Codex's
feature ``request_permissions_tool``) asks for filesystem read or write access to paths and for network access; the
card lists them (graded ``system``: access beyond the sandbox, a person decides). Approved, FlyBot grants exactly
what was asked, for this turn (``scope: turn``); anything else grants nothing (``permissions: {}``). The protocol
allows any subset and the session scope; FlyBot's card is Approve or Deny, so the grant is all or nothing, and never
for the session (a session-wide grant would take later calls out of FlyBot's hands).

A command approval's ``kind``: ``writeStdin`` is text typed into a running terminal (the card shows it as such,
with the terminal's command when Codex names it); ``humanCommand`` is a managed checkpoint that requires a fresh
human decision: it is always escalated (never answered by the ceiling) and a standing approval's answer is not
taken for it (FlyBot answers ``cancel``, saying so; the escalation itself stays approved in FlyBot's records). FlyBot does not declare the ``requiredHumanApproval``
capability, so Codex 0.171 does not send it these.

"Approve for this session" on the card approves the call and saves a session-scoped standing approval in FlyBot
(the session is the Codex thread), so Codex's next request for the same command is approved by FlyBot at once.
FlyBot answers it with ``accept`` rather than ``acceptForSession``: Codex's own session cache would take later
calls out of FlyBot's hands (no audit row, no revoke, no expiry).

Where the command runs: the approval request carries no sandbox flag (0.171.0). Codex runs a command it asked
approval for outside its sandbox when the model requested escalated permissions, or when it retries a command the
sandbox denied; so FlyBot grades every Codex approval as a command on the host (``contained`` false), never less.

Exactly one response per request id: :class:`AppServer` refuses a second answer; a ``serverRequest/resolved``
notification (Codex settled the request itself, e.g. the turn ended) withdraws the escalation and sends nothing.
The escalation's ``Idempotency-Key`` is ``codex:THREAD:REQUEST-ID``, so a FlyBot restart while asking never posts a
second card. Ctrl-C (SIGINT), SIGTERM and SIGHUP withdraw every pending escalation, answer its request ``cancel``,
interrupt the turn (``turn/interrupt``) and exit 128+N.

Exit codes: 0 the turn completed; 1 it failed or was interrupted by Codex; 2 usage; 3 Codex could not be started
or broke the protocol; 128+N after signal N.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from bot.hooks.gate import MAX_JUSTIFICATION, NO_DECISION, Grade, Request, Server, Verdict, grade, in_directory
from bot.risk.model import RiskLevel

PREFIX = "flybot codex"
EXIT_OK, EXIT_TURN_FAILED, EXIT_USAGE, EXIT_CODEX = 0, 1, 2, 3
SANDBOXES = ("read-only", "workspace-write", "danger-full-access")
APPROVAL_POLICIES = ("untrusted", "on-failure", "on-request", "never")
#: Characters of diff sent with a file-change escalation (the justification holds at most MAX_JUSTIFICATION); the
#: card shows the first 1500 and "Show full justification" opens all of it.
DIFF_CHARS = 3600
#: JSON-RPC "method not found": the answer to server requests this adapter does not handle.
METHOD_NOT_HANDLED = -32601

Message = dict[str, Any]


class CodexError(Exception):
    """Codex could not be started, stopped answering, or answered a request with an error; one line."""


# -- JSON-RPC over stdio ------------------------------------------------------------------------------------------
@dataclass
class AppServer:
    """One ``codex app-server`` process and its JSON-RPC channel (stdio, one message per line, no ``"jsonrpc"``).

    ``transcript``: an open text file that receives every message as ``{"dir": "sent"|"received", "message": ...}``
    lines (``--transcript``; the tests validate it against Codex's schema).
    """

    argv: list[str]
    env: dict[str, str]
    cwd: str
    transcript: IO[str] | None = None
    on_request: Callable[[Message], Awaitable[None]] | None = None
    on_notification: Callable[[Message], None] | None = None
    _proc: asyncio.subprocess.Process | None = None
    _next_id: int = 0
    _waiting: dict[int, asyncio.Future[Any]] = field(default_factory=dict)
    _answered: set[str] = field(default_factory=set)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _reader: asyncio.Task[None] | None = None
    closed: asyncio.Event = field(default_factory=asyncio.Event)

    async def start(self) -> None:
        """Start the process and the reader. Raises :class:`CodexError` when it cannot be started."""
        try:
            self._proc = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=None,
                env=self.env,
                cwd=self.cwd,
                limit=16 * 1024 * 1024,
                start_new_session=True,
            )
        except OSError as exc:
            raise CodexError(f"cannot start {self.argv[0]}: {exc.strerror or exc}") from None
        self._reader = asyncio.ensure_future(self._read())

    def _log(self, direction: str, message: Message) -> None:
        if self.transcript is not None:
            self.transcript.write(json.dumps({"dir": direction, "message": message}) + "\n")
            self.transcript.flush()

    async def _send(self, message: Message) -> None:
        if self._proc is None or self._proc.stdin is None or self._proc.stdin.is_closing():
            raise CodexError("codex app-server is not running")
        self._log("sent", message)
        self._proc.stdin.write((json.dumps(message) + "\n").encode())
        try:
            await self._proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise CodexError("codex app-server closed its input") from None

    async def request(self, method: str, params: Message, *, timeout: float = 60.0) -> Message:
        """Send a request and wait for its result. Raises :class:`CodexError` on an error answer, EOF or timeout."""
        self._next_id += 1
        request_id = self._next_id
        waiting: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = waiting
        await self._send({"id": request_id, "method": method, "params": params})
        try:
            answer: Message = await asyncio.wait_for(waiting, timeout)
        except TimeoutError:
            raise CodexError(f"codex app-server did not answer {method} within {timeout:g}s") from None
        finally:
            self._waiting.pop(request_id, None)
        if "error" in answer:
            error = answer.get("error") or {}
            raise CodexError(f"codex app-server refused {method}: {str(error.get('message', error))[:300]}")
        result = answer.get("result")
        return result if isinstance(result, dict) else {}

    async def notify(self, method: str, params: Message | None = None) -> None:
        """Send a notification (no answer)."""
        await self._send({"method": method} if params is None else {"method": method, "params": params})

    def settled(self, request_id: Any) -> bool:
        """True once the server request ``request_id`` was answered (or settled by Codex itself)."""
        return json.dumps(request_id) in self._answered

    def mark_settled(self, request_id: Any) -> bool:
        """Record that ``request_id`` needs no answer from us any more; False if it already had one."""
        key = json.dumps(request_id)
        if key in self._answered:
            return False
        self._answered.add(key)
        return True

    async def respond(self, request_id: Any, result: Message) -> bool:
        """Answer a server request once; a second answer for the same id is dropped (returns False)."""
        if not self.mark_settled(request_id):
            return False
        await self._send({"id": request_id, "result": result})
        return True

    async def respond_error(self, request_id: Any, code: int, message: str) -> bool:
        """Answer a server request with a JSON-RPC error, once (see :meth:`respond`)."""
        if not self.mark_settled(request_id):
            return False
        await self._send({"id": request_id, "error": {"code": code, "message": message}})
        return True

    async def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        try:
            while line := await self._proc.stdout.readline():
                try:
                    message = json.loads(line)
                except ValueError:
                    print(f"{PREFIX}: codex app-server wrote a line that is not JSON; ignored", file=sys.stderr)
                    continue
                if not isinstance(message, dict):
                    continue
                self._log("received", message)
                self._dispatch(message)
        finally:
            self.closed.set()
            for waiting in self._waiting.values():
                if not waiting.done():
                    waiting.set_exception(CodexError("codex app-server exited"))

    def _dispatch(self, message: Message) -> None:
        if "method" in message and "id" in message:
            if self.on_request is not None:
                task = asyncio.ensure_future(self.on_request(message))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        elif "method" in message:
            if self.on_notification is not None:
                self.on_notification(message)
        elif "id" in message:
            waiting = self._waiting.get(message["id"]) if isinstance(message["id"], int) else None
            if waiting is not None and not waiting.done():
                waiting.set_result(message)

    async def close(self, grace_s: float = 5.0) -> None:
        """Close its input, then wait for it to exit (terminated after ``grace_s``)."""
        proc = self._proc
        if proc is None:
            return
        if proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), grace_s)
        except TimeoutError:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), grace_s)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


# -- what a request asks for ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Ask:
    """One approval request, as FlyBot escalates it.

    Attributes:
        kind: ``command``, ``files`` or ``permissions``.
        legacy: the older ``execCommandApproval`` / ``applyPatchApproval`` (their decisions are spelled differently).
        command: the text graded and shown on the card (for files: a one-line summary of the change).
        cwd: the working directory Codex reports (the thread's otherwise).
        justification: Codex's reason, its parsed command actions or the files and diff (at most 4000 characters).
        grant: for ``permissions``: the access asked for, granted whole on approval.
        human: a ``humanCommand`` checkpoint: a person must decide (no ceiling, no standing approval).
        typed: a ``writeStdin`` approval: text typed into a running program (always a person's decision).
    """

    kind: str
    legacy: bool
    command: str
    cwd: str
    justification: str
    grant: Message | None = None
    human: bool = False
    typed: bool = False


def command_ask(method: str, params: Message, *, cwd: str) -> Ask:
    """The escalation for ``item/commandExecution/requestApproval`` or ``execCommandApproval``."""
    legacy = method == "execCommandApproval"
    if legacy:
        words = params.get("command") or []
        text = shlex.join(str(w) for w in words) if isinstance(words, list) else str(words)
        actions = params.get("parsedCmd") or []
    else:
        text = str(params.get("command") or "")
        actions = params.get("commandActions") or []
    lines = []
    kind = "command" if legacy else str(params.get("kind") or "command")
    if kind == "writeStdin":
        lines.append(
            "Codex asks to TYPE the text shown as the command into a terminal session that is already "
            "running (it runs as input to that program, not as a new command)"
        )
    elif kind == "humanCommand":
        lines.append(
            "A managed command policy requires a fresh human decision for this command: FlyBot always asks "
            "a person, and no standing approval answers it"
        )
    elif kind != "command":
        lines.append(f"Codex names this approval {kind!r}, which FlyBot does not know: read it as a command")
    if params.get("reason"):
        lines.append(f"Codex's reason: {params['reason']}")
    described = [_action_line(a) for a in actions if isinstance(a, dict)]
    if described:
        lines.append("Codex reads it as: " + "; ".join(described))
    context = params.get("networkApprovalContext")
    if isinstance(context, dict) and context.get("host"):
        lines.append(f"Network access to {context['host']} ({context.get('protocol')})")
    shown = text.strip() or "(Codex sent no command)"
    if kind == "writeStdin":
        shown = f"(typed into a running terminal) {text}" if text.strip() else "(Codex did not say what it types)"
    return Ask(
        "command",
        legacy,
        shown,
        str(params.get("cwd") or cwd),
        "\n".join(lines)[:MAX_JUSTIFICATION],
        human=kind == "humanCommand",
        typed=kind == "writeStdin",
    )


def _action_line(action: Message) -> str:
    kind = str(action.get("type"))
    what = str(action.get("path") or action.get("name") or action.get("cmd") or action.get("command") or "")
    if kind == "search" and action.get("query"):
        return f"search {action['query']!r} in {action.get('path') or '.'}"
    return f"{kind} {what}".strip()


def files_ask(method: str, params: Message, *, cwd: str, changes: list[Message]) -> Ask:
    """The escalation for ``item/fileChange/requestApproval`` (files from the item's ``changes``, seen on
    ``item/started``) or ``applyPatchApproval`` (files in the request)."""
    legacy = method == "applyPatchApproval"
    if legacy:
        entries = []
        for path, change in (params.get("fileChanges") or {}).items():
            change = change if isinstance(change, dict) else {}
            diff = change.get("unified_diff") or change.get("content") or ""
            entries.append((str(change.get("type", "update")), str(path), str(diff)))
    else:
        entries = [
            (str((c.get("kind") or {}).get("type", "update")), str(c.get("path")), str(c.get("diff") or ""))
            for c in changes
        ]
    summary = ", ".join(f"{kind} {path}" for kind, path, _ in entries) or "files Codex did not list"
    lines = []
    if params.get("reason"):
        lines.append(f"Codex's reason: {params['reason']}")
    if params.get("grantRoot"):
        lines.append(f"Codex also asks to write under {params['grantRoot']} for the rest of the session")
    diff = "\n".join(f"--- {path} ({kind})\n{body}" for kind, path, body in entries)
    if len(diff) > DIFF_CHARS:
        diff = diff[:DIFF_CHARS] + f"\n... ({len(diff) - DIFF_CHARS} more characters of diff not shown)"
    lines.append(diff)
    return Ask("files", legacy, f"codex apply_patch: {summary}", cwd, "\n".join(lines)[:MAX_JUSTIFICATION])


def permissions_ask(params: Message, *, cwd: str) -> Ask:
    """The escalation for ``item/permissions/requestApproval``: what access, to which paths, and network."""
    asked = params.get("permissions")
    permissions: Message = asked if isinstance(asked, dict) else {}
    lines = _access_lines(permissions)
    summary = "; ".join(lines) or "no access named"
    said = [f"Codex's reason: {params['reason']}"] if params.get("reason") else []
    said.append(
        "Approve grants exactly this access to the session's commands for the rest of this turn; Deny grants none."
    )
    return Ask(
        "permissions",
        False,
        f"codex request_permissions: {summary}",
        str(params.get("cwd") or cwd),
        "\n".join(said)[:MAX_JUSTIFICATION],
        grant=permissions,
    )


def _access_lines(permissions: Message) -> list[str]:
    """One line per kind of access asked for (``read``/``write`` paths, ``entries``, network)."""
    lines: list[str] = []
    found = permissions.get("fileSystem")
    files: Message = found if isinstance(found, dict) else {}
    for mode in ("read", "write"):
        paths = files.get(mode)
        if isinstance(paths, list) and paths:
            lines.append(f"{mode} {', '.join(str(p) for p in paths)}")
    listed = {
        (mode, str(p)) for mode in ("read", "write") for p in files.get(mode) or () if isinstance(files.get(mode), list)
    }
    for entry in files.get("entries") or []:
        if not isinstance(entry, dict):
            continue
        path = entry.get("path")
        if (
            isinstance(path, dict)
            and path.get("type") == "path"
            and (entry.get("access"), str(path.get("path"))) in listed
        ):
            continue  # the same access to the same path, already listed (Codex sends both forms)
        lines.append(f"{entry.get('access')} {json.dumps(path, sort_keys=True)}")
    network = permissions.get("network")
    if isinstance(network, dict) and network.get("enabled"):
        lines.append("network access")
    return lines


def permissions_result(verdict: Verdict | None, asked: Message | None) -> Message:
    """The answer to a permissions request: what was asked, for this turn, when approved; else nothing."""
    granted = asked if verdict is not None and verdict.approved and asked else {}
    return {"permissions": granted, "scope": "turn"}


def decision_for(verdict: Verdict, *, legacy: bool) -> str | dict[str, Any]:
    """Codex's decision for a verdict (see the module docstring's table).

    The older requests' ``ReviewDecision`` spells a denial as an object carrying the rejection text
    (``{"denied": {"rejection": ...}}``, schema of @openai/codex 0.171.0); FlyBot passes the owner's reason on.
    """
    if verdict.approved:
        return "approved" if legacy else "accept"
    if verdict.outcome == "denied":
        return {"denied": {"rejection": verdict.describe()}} if legacy else "decline"
    assert verdict.outcome in NO_DECISION or verdict.outcome == "expired"
    return "abort" if legacy else "cancel"


# -- the session --------------------------------------------------------------------------------------------------
@dataclass
class Options:
    """``flybot codex`` settings (see :func:`bot.hooks.cli.register`)."""

    prompt: str
    cwd: str
    sandbox: str
    approval_policy: str
    ceiling: RiskLevel
    server: Server
    timeout_s: int
    codex: str
    model: str | None = None
    config: list[str] = field(default_factory=list)
    room: str | None = None
    transcript: str | None = None


class Session:
    """One Codex thread driven to the end of one turn."""

    def __init__(self, options: Options, out: IO[str], err: IO[str]) -> None:
        self.options = options
        self.out = out
        self.err = err
        self.thread_id = ""
        self.turn_id = ""
        self.turn_done = asyncio.Event()
        self.turn_status = ""
        self.items: dict[str, Message] = {}
        self.asking: dict[str, asyncio.Task[None]] = {}
        self.signal = ""
        self.app: AppServer | None = None
        self.main_task: asyncio.Task[Any] | None = None

    def say(self, text: str) -> None:
        print(f"{PREFIX}: {text}", file=self.err, flush=True)

    async def run(self) -> int:
        """Drive the turn; returns the exit code."""
        opts = self.options
        argv = [opts.codex, "app-server"]
        for setting in opts.config:
            argv += ["-c", setting]
        try:
            transcript = open(opts.transcript, "a", encoding="utf-8") if opts.transcript else None  # noqa: SIM115
        except OSError as exc:
            self.say(f"cannot write the transcript {opts.transcript}: {exc.strerror or exc}")
            return EXIT_USAGE
        self.app = app = AppServer(argv, dict(os.environ), opts.cwd, transcript, self.on_request, self.on_notification)
        loop = asyncio.get_running_loop()
        self.main_task = asyncio.current_task()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(sig, self.on_signal, sig)
        try:
            await app.start()
            await app.request(
                "initialize", {"clientInfo": {"name": "flybot", "title": "FlyBot", "version": _version()}}
            )
            await app.notify("initialized")
            params: Message = {"cwd": opts.cwd, "sandbox": opts.sandbox, "approvalPolicy": opts.approval_policy}
            if opts.model:
                params["model"] = opts.model
            started = await app.request("thread/start", params)
            self.thread_id = str((started.get("thread") or {}).get("id") or "")
            turn = await app.request(
                "turn/start",
                {
                    "threadId": self.thread_id,
                    "input": [{"type": "text", "text": opts.prompt, "text_elements": []}],
                },
            )
            self.turn_id = self.turn_id or str((turn.get("turn") or {}).get("id") or "")
            self.say(
                f"thread {self.thread_id}, sandbox {opts.sandbox}, approval policy {opts.approval_policy}; "
                f"approvals go to FlyBot at {opts.server.url}"
            )
            waiter = asyncio.ensure_future(self.turn_done.wait())
            gone = asyncio.ensure_future(app.closed.wait())
            await asyncio.wait({waiter, gone}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            gone.cancel()
            if not self.turn_done.is_set():
                raise CodexError("codex app-server exited before the turn completed")
        except CodexError as exc:
            if not self.signal:
                self.say(str(exc))
                return EXIT_CODEX
        except asyncio.CancelledError:  # a signal before the turn started (see on_signal)
            if not self.signal:
                raise
        finally:
            await self._settle_all()
            await app.close()
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                loop.remove_signal_handler(sig)
            if transcript is not None:
                transcript.close()
        if self.signal:
            self.say(f"interrupted by {self.signal}: pending escalations withdrawn, turn interrupted")
            return 128 + signal.Signals[self.signal].value
        self.say(f"turn {self.turn_status or 'ended'}")
        return EXIT_OK if self.turn_status == "completed" else EXIT_TURN_FAILED

    # -- signals ---------------------------------------------------------------------------------------------
    def on_signal(self, signum: int) -> None:
        """SIGINT/SIGTERM/SIGHUP: withdraw every pending escalation, interrupt the turn, end."""
        if self.signal:
            return
        self.signal = signal.Signals(signum).name
        if not self.turn_id and self.main_task is not None:
            self.main_task.cancel()  # nothing started yet: stop setting up
            return
        asyncio.ensure_future(self._interrupt())

    async def _interrupt(self) -> None:
        """Interrupt the turn first (Codex then settles its pending requests itself, ``serverRequest/resolved``),
        then withdraw and ``cancel`` whatever is still asking, then wait (bounded) for the turn's end."""
        app = self.app
        if app is not None and self.thread_id and self.turn_id and not self.turn_done.is_set():
            try:
                await app.request("turn/interrupt", {"threadId": self.thread_id, "turnId": self.turn_id}, timeout=10)
            except CodexError:
                pass  # e.g. the turn ended meanwhile
        await self._settle_all()
        try:
            await asyncio.wait_for(self.turn_done.wait(), 10)
        except TimeoutError:
            pass
        self.turn_done.set()

    async def _settle_all(self) -> None:
        """Cancel the approvals still asking (each withdraws its escalation and answers ``cancel``)."""
        tasks = list(self.asking.values())
        for task in tasks:
            if not task.cancelling():
                task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- notifications ---------------------------------------------------------------------------------------
    def on_notification(self, message: Message) -> None:
        """Stream the turn: agent text to stdout; commands, file changes and the turn's end to stderr."""
        method = message.get("method")
        params = message.get("params") or {}
        if method == "turn/started":
            self.turn_id = self.turn_id or str((params.get("turn") or {}).get("id") or "")
        elif method == "item/agentMessage/delta":
            self.out.write(str(params.get("delta", "")))
            self.out.flush()
        elif method in ("item/started", "item/completed"):
            item = params.get("item") or {}
            self.items[str(item.get("id"))] = item
            self._show_item(method, item)
        elif method == "serverRequest/resolved":
            self._resolved(params.get("requestId"))
        elif method == "error":
            error = params.get("error") or {}
            self.say(f"Codex reports an error: {str(error.get('message', error))[:300]}")
        elif method == "turn/completed":
            turn = params.get("turn") or {}
            if not self.turn_id or turn.get("id") == self.turn_id:
                self.turn_status = str(turn.get("status") or "")
                self.out.write("\n")
                self.out.flush()
                self.turn_done.set()

    def _show_item(self, method: str, item: Message) -> None:
        kind = item.get("type")
        if kind == "commandExecution":
            if method == "item/started":
                self.say(f"$ {item.get('command')}")
            else:
                self.say(f"{item.get('status')} (exit {item.get('exitCode')}): {item.get('command')}")
        elif kind == "fileChange" and method == "item/completed":
            files = ", ".join(str(c.get("path")) for c in item.get("changes") or [])
            self.say(f"file change {item.get('status')}: {files}")

    def _resolved(self, request_id: Any) -> None:
        """Codex settled a request itself: withdraw its escalation and send no answer."""
        if self.app is None:
            return
        self.app.mark_settled(request_id)
        task = self.asking.get(json.dumps(request_id))
        if task is not None and not task.cancelling():
            task.cancel()

    # -- server requests -------------------------------------------------------------------------------------
    async def on_request(self, message: Message) -> None:
        """Answer one server request exactly once."""
        app = self.app
        assert app is not None
        request_id, method = message.get("id"), str(message.get("method"))
        params = message.get("params") or {}
        if method in ("item/commandExecution/requestApproval", "execCommandApproval"):
            ask = command_ask(method, params, cwd=self.options.cwd)
        elif method in ("item/fileChange/requestApproval", "applyPatchApproval"):
            item = self.items.get(str(params.get("itemId"))) or {}
            ask = files_ask(method, params, cwd=self.options.cwd, changes=list(item.get("changes") or []))
        elif method == "item/permissions/requestApproval":
            ask = permissions_ask(params, cwd=self.options.cwd)
        else:
            self.say(f"Codex asked {method}; FlyBot does not answer that kind of request (refused)")
            await app.respond_error(request_id, METHOD_NOT_HANDLED, f"{method} is not handled by FlyBot")
            return
        key = json.dumps(request_id)
        task = asyncio.current_task()
        assert task is not None
        self.asking[key] = task
        verdict: Verdict | None = None
        try:
            verdict = await self._decide(request_id, ask)
            if ask.human and verdict.approved and (verdict.escalation or {}).get("standing_approval_id"):
                self.say("a humanCommand checkpoint needs a person's decision, not a standing approval: cancelled")
                verdict = Verdict(
                    "refused",
                    verdict.grade,
                    verdict.escalation,
                    detail="a standing approval cannot answer a checkpoint that requires a fresh human decision",
                )
            decision = decision_for(verdict, legacy=ask.legacy)
            self.say(f"{verdict.describe()} -> {decision if isinstance(decision, str) else 'denied'}")
            if decision == "decline" or (ask.kind == "permissions" and verdict.outcome == "denied"):
                await self._steer(verdict, ask)
        except asyncio.CancelledError:
            decision = "abort" if ask.legacy else "cancel"
        finally:
            self.asking.pop(key, None)
        if ask.kind == "permissions":
            result: Message = permissions_result(verdict, ask.grant)
        elif ask.human and decision not in ("accept", "decline", "cancel"):
            result = {"decision": "cancel"}
        else:
            result = {"decision": decision}
        if not app.settled(request_id):
            try:
                await app.respond(request_id, result)
            except CodexError:
                pass

    async def _steer(self, verdict: Verdict, ask: Ask) -> None:
        """Tell the model why FlyBot declines, before the ``decline`` goes out: a ``decline`` carries no message (the
        model reads only that the user rejected it), so the owner's reason goes into the running turn as user input
        (``turn/steer``, which Codex adds to the model's next request). Best effort: a turn that ended meanwhile
        refuses it, and the decline stands."""
        app = self.app
        if app is None or not self.thread_id or not self.turn_id:
            return
        text = (
            f"{verdict.describe()}. The {'file change' if ask.kind == 'files' else 'command'} was not run: "
            f"{ask.command[:300]}. Do not run it another way; adapt the plan or ask the user."
        )
        try:
            await app.request(
                "turn/steer",
                {
                    "threadId": self.thread_id,
                    "expectedTurnId": self.turn_id,
                    "input": [{"type": "text", "text": text, "text_elements": []}],
                },
                timeout=10,
            )
        except CodexError as exc:
            self.say(f"could not pass the owner's reason on to the model ({exc})")

    async def _decide(self, request_id: Any, ask: Ask) -> Verdict:
        opts = self.options
        command, root = ask.command, ask.cwd
        if ask.kind == "command" and not ask.typed and ask.cwd.startswith("/") and opts.cwd.startswith("/"):
            # the thread's cwd is the workspace; the call's own workdir (the model's choice) is only where it runs
            command, root = in_directory(ask.command, cwd=ask.cwd, workspace=opts.cwd), opts.cwd
        graded: Grade = grade(command, contained=False, cwd=root, ceiling=opts.ceiling, server=opts.server)
        if ask.kind in ("files", "permissions") or ask.human or ask.typed:
            # not a shell command, text typed into a running program, or a checkpoint: a person decides
            graded = Grade(
                graded.command,
                max(graded.risk, RiskLevel.SYSTEM),
                opts.ceiling,
                graded.why,
                unverified=graded.unverified,
                always_asked=graded.always_asked,
            )
        if not graded.needs_approval:
            return Verdict("local", graded)
        if not opts.server.token:
            return Verdict("unconfigured", graded, detail="no Bot token: set FLYBOT_TOKEN or pass --token")
        from bot.hooks.asking import ask_async

        self.say(f"asking FlyBot ({graded.risk.label}, runs on the host): {graded.command}")
        request = Request(
            session_id=f"codex-{self.thread_id}",
            cwd=root,
            contained=False,
            justification=ask.justification,
            room=opts.room,
            idempotency_key=f"codex:{self.thread_id}:{json.dumps(request_id)}",
            expires_s=opts.timeout_s,
        )
        return await ask_async(graded, opts.server, request, wait_s=opts.timeout_s + 5)


def _version() -> str:
    from bot import __version__

    return __version__


def find_codex(explicit: str | None) -> str | None:
    """``--codex``, ``$FLYBOT_CODEX``, then ``codex`` on ``PATH``; None when none is found."""
    candidate = explicit or os.environ.get("FLYBOT_CODEX") or "codex"
    if os.sep in candidate:
        return candidate if Path(candidate).exists() else None
    return shutil.which(candidate)


def run(options: Options) -> int:
    """Run one turn (see the module docstring); returns the exit code."""
    return asyncio.run(Session(options, sys.stdout, sys.stderr).run())
