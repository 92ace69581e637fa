"""``flybot hook gemini``: a Gemini CLI ``BeforeTool`` command hook that asks FlyBot before a tool call runs.

Protocol (Gemini CLI's hooks reference, docs/hooks/reference.md in the npm package ``@google/gemini-cli``; checked
against 0.61.0's hook runner):

* Input, one JSON object on stdin::

      {"session_id": "8cb1...", "transcript_path": "/.../session-....jsonl", "cwd": "/repo",
       "hook_event_name": "BeforeTool", "timestamp": "2026-12-06T10:50:13.275Z",
       "tool_name": "run_shell_command", "tool_input": {"command": "rm -rf build", "description": "..."}}

  (``mcp_context`` and ``original_request_name`` may follow; fields not listed here are ignored.)
* Output on stdout, exit 0: ``{"decision": "allow"}`` (Gemini CLI's own approval mode and policy still apply:
  ``allow`` never skips its confirmation), ``{"decision": "deny", "reason": "..."}`` (the call does not run; the
  reason reaches the model as the tool's error, "Tool execution blocked: ..."), or ``{"decision": "ask"}`` (Gemini CLI
  asks the user in its terminal, in every approval mode, ``yolo`` included).
* Exit 2 blocks the call with stderr as the reason. Exit 1, no output, or (with exit 0) output that is not JSON is
  a warning and **the call proceeds** (Gemini CLI reads stderr when stdout is empty); so does a hook that outlives
  its ``timeout`` (milliseconds, 60000 by default: the hook is killed and its answer ignored). This hook therefore
  never lets an exception escape, and its ``--wait`` (55 s by default) stays below that timeout: ``flybot hook
  install gemini`` writes ``--wait 590`` with ``"timeout": 600000``.

Tools graded (a tool in :data:`UNGRADED`, or another event, gets no decision: ``{}`` on stdout, one line on
stderr):

======================  ==============================  ===========================================================
Gemini CLI tool         graded as                       notes
======================  ==============================  ===========================================================
``run_shell_command``   a shell command                 in ``dir_path`` when given (relative to ``cwd``, graded
                                                        as a ``cd`` there: ``cwd`` stays the workspace); the
                                                        ``description`` is the card's justification
``write_file``          ``Write`` (bot/risk/tools.py)   ``file_path``, ``content``
``replace``             ``Edit``                        ``file_path``, ``old_string``, ``new_string``,
                                                        ``allow_multiple``
``google_web_search``   ``WebSearch``                   ``query``
``web_fetch``           ``WebFetch``                    the URLs in ``prompt`` (or ``url``); several hosts, or
                                                        none, ``destructive`` (:func:`fetch_call`)
``save_memory``         ``Edit`` of ``~/.gemini/        ``fact``, appended: ``destructive`` (:func:`memory_call`)
                        GEMINI.md``
``read_file``           ``Read``                        ``file_path``
``read_many_files``     ``Read`` per path, ``Grep`` per ``include``: paths and glob patterns below ``cwd``
                        glob pattern                    (:func:`read_calls`); a card shows one, so several, one of
                                                        them asked, are denied
``grep_search``,        ``Grep``                        ``pattern``, ``dir_path``, ``include_pattern`` (or
``search_file_content``                                 ``include``)
``glob``                ``Glob``                        ``pattern``, ``dir_path``
``list_directory``      ``Glob`` of ``*``               ``dir_path``
``mcp_<server>_<tool>`` ``mcp__SERVER__TOOL``           from ``mcp_context`` (``server_name``, ``tool_name``);
                                                        ``destructive`` until a program rule grades it
any other name          a tool FlyBot does not know     ``destructive``: a discovered tool
                                                        (``discovered_tool_*``), a name spelled another way
======================  ==============================  ===========================================================

The read tools are graded as ``flybot hook claude-code`` grades Claude Code's: a read of a workspace file is
``read_only`` (allowed at once), one of a secret or credential file (``.env``, ``~/.ssh/id_rsa``) ``network`` (asked),
since what they read goes to the model. Gemini CLI's built-in tools that plan, ask the user or keep the session's
notes (:data:`UNGRADED`) get no decision.

FlyBot's mapping, fail closed: at or below ``--ceiling`` or approved -> ``allow``; denied or expired -> ``deny`` with
the line naming the approver and the owner's reason; no human decision (FlyBot unreachable or refusing, no token,
nothing decided within ``--wait``, an undeliverable card, the hook interrupted: :data:`bot.hooks.gate.NO_DECISION`)
-> ``--on-no-decision``, ``deny`` by default (``ask`` waits in the terminal, and a headless ``gemini -p`` run has no
one to answer it, so it waits until killed); an internal error -> ``deny``; stdin that is not a JSON object -> exit 2.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time

from bot.hooks.claude_code import decision_for, no_decision
from bot.hooks.gate import (
    Grade,
    Request,
    Server,
    decide,
    expiry_for_wait,
    find_server,
    grade,
    grade_tool_call,
    in_directory,
)

TYPE_CHECKING = False  # typing stays unloaded: this hook runs on every tool call (bot/values.py)
if TYPE_CHECKING:
    from typing import IO, Any

    from bot.risk.model import RiskLevel

EXIT_OK, EXIT_BLOCK = 0, 2
PREFIX = "flybot hook gemini"
#: ``--wait`` default, seconds: below Gemini CLI's default hook timeout of 60 s, with room for the withdraw.
DEFAULT_WAIT = "55"
#: The hook ``timeout`` ``flybot hook install gemini`` writes (milliseconds) and the ``--wait`` it passes.
INSTALL_TIMEOUT_MS, INSTALL_WAIT = 600_000, "590"
#: Gemini CLI's tools this hook grades, and the FlyBot tool name each is graded as (``Bash``: a shell command).
#: ``save_memory`` (releases before 0.61.0; 0.61.0's memory is written with ``write_file`` and ``replace``) appends
#: a fact to ``~/.gemini/GEMINI.md``, which every later session reads as instructions.
TOOLS = {
    "run_shell_command": "Bash",
    "write_file": "Write",
    "replace": "Edit",
    "google_web_search": "WebSearch",
    "web_fetch": "WebFetch",
    "save_memory": "Edit",
    "read_file": "Read",
    "read_many_files": "Read",
    "grep_search": "Grep",
    "search_file_content": "Grep",
    "glob": "Glob",
    "list_directory": "Glob",
}
#: Gemini CLI 0.61.0's other built-in tools (``ALL_BUILTIN_TOOL_NAMES`` in its bundle): they plan, ask the user,
#: keep the session's own notes or read its own docs and MCP resources, and go by Gemini CLI's own approval (no decision from FlyBot). Any other name
#: is graded as a tool FlyBot does not know (``destructive``): Gemini CLI looks tools up by their exact name, so a
#: name spelled another way (``Run_Shell_Command``) is not one of these.
UNGRADED = frozenset({
    "ask_user", "activate_skill", "write_todos", "tracker_create_task", "tracker_update_task", "tracker_get_task",
    "tracker_list_tasks", "tracker_add_dependency", "tracker_visualize", "get_internal_docs", "enter_plan_mode",
    "exit_plan_mode", "update_topic", "complete_task", "invoke_agent", "read_mcp_resource", "list_mcp_resources",
})  # fmt: skip
#: The prefix of a tool found by the project's ``tools.discoveryCommand`` and run by its ``tools.callCommand``: a
#: program the workspace names, graded as a tool FlyBot does not know (``destructive``).
DISCOVERED_PREFIX = "discovered_tool_"
#: The matcher (a regular expression on the tool name) for the settings: :data:`TOOLS`, every MCP tool and every
#: discovered tool.
MATCHER = "|".join([*TOOLS, "mcp_.*", DISCOVERED_PREFIX + ".*"])
#: A URL in a ``web_fetch`` prompt: Gemini CLI 0.61.0 (``parsePrompt``) splits the prompt on whitespace and fetches
#: every word holding ``://``.
_URL_MARK = "://"


def mcp_name(tool: object, context: object) -> str | None:
    """The FlyBot name (``mcp__SERVER__TOOL``, as Claude Code names MCP tools and program rules name them) of a
    Gemini CLI MCP tool call (``mcp_<server>_<tool>``, with ``mcp_context.server_name`` and ``tool_name``); None
    when it is not one."""
    if not isinstance(tool, str) or not tool.startswith("mcp_"):
        return None
    if isinstance(context, dict):
        server, name = context.get("server_name"), context.get("tool_name")
        if isinstance(server, str) and server and isinstance(name, str) and name:
            return f"mcp__{server}__{name}"
    return tool  # no context: graded under its own name, as a tool FlyBot does not know (it asks)


class InputError(ValueError):
    """stdin is not a ``BeforeTool`` event this hook can read."""


class SeveralAsked(ValueError):
    """A read of several files, one of them above the ceiling: an approval card shows one file, so the call is denied
    (the message says which file, for the model)."""


def parse_event(raw: bytes) -> dict[str, Any]:
    """The event object; raises :class:`InputError` when stdin is not a JSON object."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        from bot.errors import plain_cause

        raise InputError(f"stdin is not a JSON hook event ({plain_cause(exc)})") from None
    if not isinstance(data, dict):
        raise InputError("stdin is not a JSON object")
    return data


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def graded_call(
    tool: str, tool_input: dict[str, Any], *, cwd: str, contained: bool, ceiling: RiskLevel, server: Server
) -> tuple[Grade, str, str | None, bool]:
    """Grade one call of a Gemini CLI tool in :data:`TOOLS`: the grade, the escalation's directory (the workspace),
    the card's justification and whether it runs contained (only a shell command can)."""
    as_name = TOOLS[tool]
    if as_name == "Bash":
        command = tool_input.get("command")
        if not isinstance(command, str) or not command.strip():
            raise InputError("the run_shell_command call has no command")
        where = _text(tool_input.get("dir_path"))
        run_in = os.path.realpath(os.path.join(cwd, where)) if where else cwd
        if cwd.startswith("/"):
            # the session's cwd is the workspace; dir_path (the model's choice for this call) is only where it runs
            command = in_directory(command, cwd=run_in, workspace=cwd)
            run_in = cwd
        graded = grade(command, contained=contained, cwd=run_in, ceiling=ceiling, server=server)
        return graded, run_in, _text(tool_input.get("description")), contained
    if as_name in ("Read", "Grep", "Glob"):
        graded_reads = [
            grade_tool_call(name, call, cwd=cwd, ceiling=ceiling, server=server)
            for name, call in read_calls(tool, tool_input)
        ]
        asking = [g for g in graded_reads if g.needs_approval]
        if len(graded_reads) > 1 and asking:
            path = (asking[0].tool or {}).get("resolved_path") or "one of them"
            raise SeveralAsked(
                f"this {tool} call names {len(graded_reads)} files and {path} needs an owner's approval; an approval "
                "card shows one file. Not run: name one file a call"
            )
        return (asking or graded_reads)[0], cwd, None, False
    if as_name == "Edit":
        call: dict[str, Any] = {
            "file_path": tool_input.get("file_path"),
            "old_string": tool_input.get("old_string"),
            "new_string": tool_input.get("new_string"),
            "replace_all": bool(tool_input.get("allow_multiple")),
        }
    elif as_name == "Write":
        call = {"file_path": tool_input.get("file_path"), "content": tool_input.get("content")}
    elif as_name == "WebFetch":
        call = fetch_call(tool_input)
    else:
        call = {"query": tool_input.get("query")}
    if tool == "save_memory":
        call = memory_call(tool_input)
    return grade_tool_call(as_name, call, cwd=cwd, ceiling=ceiling, server=server), cwd, None, False


#: A character that makes a ``read_many_files`` entry a glob pattern rather than a path.
_GLOB_CHARS = re.compile(r"[*?\[\]{}]")


def read_calls(tool: str, tool_input: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """A read tool's call as FlyBot's ``Read``, ``Grep`` or ``Glob`` calls (bot/risk/tools.py), paths relative to the
    session's ``cwd``.

    ``read_many_files`` reads every file its ``include`` entries name (paths or glob patterns, below ``cwd``): a path
    is a ``Read``; a glob pattern a ``Grep`` (which prints files' content) of the directory before its first glob
    character, with the rest as the ``glob``, so the grader sees a search of every file it may match.

    Raises:
        InputError: no path or pattern.
    """
    if tool == "read_file":
        path = tool_input.get("file_path", tool_input.get("absolute_path"))
        if not isinstance(path, str) or not path.strip():
            raise InputError("the read_file call has no file_path")
        return [("Read", {"file_path": path})]
    if tool == "read_many_files":
        include = tool_input.get("include", tool_input.get("paths"))
        include = [include] if isinstance(include, str) else include
        if not isinstance(include, list) or not include or not all(isinstance(i, str) and i.strip() for i in include):
            raise InputError("the read_many_files call's include is not a list of paths or glob patterns")
        calls: list[tuple[str, dict[str, Any]]] = []
        for entry in include:
            found = _GLOB_CHARS.search(entry)
            if found is None:
                calls.append(("Read", {"file_path": entry}))
                continue
            cut = entry.rfind("/", 0, found.start())
            base, glob = (".", entry) if cut < 0 else (entry[:cut] or "/", entry[cut + 1 :])
            calls.append(("Grep", {"pattern": "", "path": base, "glob": glob}))
        return calls
    path = tool_input.get("dir_path")
    if path is not None and not isinstance(path, str):
        raise InputError(f"the {tool} call's dir_path is not a string")
    if tool == "list_directory":
        if not path:
            raise InputError("the list_directory call has no dir_path")
        return [("Glob", {"pattern": "*", "path": path})]
    pattern = tool_input.get("pattern")
    if not isinstance(pattern, str):
        raise InputError(f"the {tool} call has no pattern")
    if tool == "glob":
        return [("Glob", {"pattern": pattern, "path": path or "."})]
    search: dict[str, Any] = {"pattern": pattern, "path": path or "."}
    include = tool_input.get("include_pattern", tool_input.get("include"))
    if isinstance(include, str) and include:
        search["glob"] = include
    return [("Grep", search)]


def fetch_call(tool_input: dict[str, Any]) -> dict[str, Any]:
    """A ``web_fetch`` call as a ``WebFetch`` (bot/risk/tools.py): ``url`` (the direct-fetch setting's input) or the
    URLs in ``prompt`` (up to 20, fetched from any host, ``localhost`` too), with the prompt for the card. One URL, or
    several of one origin (scheme, host and port: ``tools.origin``), is a fetch from that origin (the first URL is
    named, the prompt shows the rest); URLs of several origins, or none, are a ``url`` no host can be read from
    (``tool-unknown-url``: ``destructive``). A GitHub
    ``blob`` URL is fetched from ``raw.githubusercontent.com`` (Gemini CLI's ``convertGithubUrlToRaw``), so it is
    graded as that host."""
    from bot.risk.tools import origin

    prompt = tool_input.get("prompt")
    url = tool_input.get("url")
    if isinstance(url, str) and url.strip():
        found = [url.strip()]
    elif isinstance(prompt, str):
        found = [word for word in re.split(r"[\s\ufeff]+", prompt) if _URL_MARK in word]
    else:
        found = []
    found = [_raw_github(u) for u in found]
    hosts = {origin(u) for u in found}
    call: dict[str, Any] = {"url": found[0] if len(hosts) == 1 and None not in hosts else " ".join(found)}
    if isinstance(prompt, str) and prompt:
        call["prompt"] = prompt
    return call


def _raw_github(url: str) -> str:
    """``https://github.com/O/R/blob/...`` as Gemini CLI fetches it (``raw.githubusercontent.com/O/R/...``)."""
    found = re.match(r"(?i)^(https?://)github\.com(/[^/]+/[^/]+)/blob/", url)
    return f"{found.group(1)}raw.githubusercontent.com{found.group(2)}/{url[found.end() :]}" if found else url


def memory_call(tool_input: dict[str, Any]) -> dict[str, Any]:
    """A ``save_memory`` call (``fact``) as an ``Edit`` appending the fact to ``~/.gemini/GEMINI.md`` (Gemini CLI's
    global memory file, read into every later session): a write outside the workspace, in Gemini CLI's settings
    directory, so ``destructive``."""
    fact = tool_input.get("fact")
    path = os.path.join(os.path.expanduser("~"), ".gemini", "GEMINI.md")
    return {"file_path": path, "old_string": "", "new_string": f"- {fact}" if isinstance(fact, str) else ""}


def answer(decision: str, reason: str, verdict_outcome: str | None = None) -> dict[str, Any]:
    """The stdout object: ``allow`` (with the approval line as ``systemMessage`` when a person or a standing
    approval approved), ``deny`` with the reason, or ``ask`` with the reason as ``systemMessage``."""
    if decision == "allow":
        return (
            {"decision": "allow", "systemMessage": reason} if verdict_outcome == "approved" else {"decision": "allow"}
        )
    if decision == "ask":
        return {"decision": "ask", "systemMessage": reason}
    return {"decision": "deny", "reason": reason}


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
    on_no_decision: str = "deny",
) -> int:
    """Read one event, write the answer; returns the exit code (0, or 2 when stdin cannot be read)."""
    try:
        event = parse_event(stdin.read())
    except InputError as exc:
        print(f"{PREFIX}: FlyBot could not read the event ({exc}); blocked", file=stderr)
        return EXIT_BLOCK
    except OSError as exc:
        print(f"{PREFIX}: cannot read stdin ({exc.strerror or exc}); blocked", file=stderr)
        return EXIT_BLOCK
    name, tool_input = event.get("tool_name"), event.get("tool_input")
    if event.get("hook_event_name") != "BeforeTool":
        return _no_decision(stdout, stderr, f"{event.get('hook_event_name')!r} is not BeforeTool")
    mcp = mcp_name(name, event.get("mcp_context"))
    if isinstance(name, str) and name in UNGRADED:
        return _no_decision(stdout, stderr, f"FlyBot does not grade {name!r} (matcher {MATCHER!r})")
    started = time.monotonic()
    mode = "deny" if on_no_decision == "deny" else "ask"
    try:
        if not isinstance(tool_input, dict):
            raise InputError(f"the {name} call has no tool_input object")
        cwd = _text(event.get("cwd")) or os.getcwd()
        if mcp is not None:  # an MCP tool: program rules grade it by its full name (bot/risk/tools.py)
            graded = grade_tool_call(mcp, tool_input, cwd=cwd, ceiling=ceiling, server=server)
            run_in, justification, runs_contained = cwd, None, False
        elif (
            not isinstance(name, str) or name not in TOOLS
        ):  # a discovered tool, a name spelled another way, a tool FlyBot does not know
            unknown = name if isinstance(name, str) and name else repr(name)
            graded = grade_tool_call(unknown, tool_input, cwd=cwd, ceiling=ceiling, server=server)
            run_in, justification, runs_contained = cwd, None, False
        else:
            graded, run_in, justification, runs_contained = graded_call(
                name, tool_input, cwd=cwd, contained=contained, ceiling=ceiling, server=server
            )
        session = _text(event.get("session_id")) or "gemini-cli"
        request = Request(
            session_id=session,
            cwd=run_in,
            contained=runs_contained,
            justification=justification,
            room=room,
            expires_s=expiry_for_wait(wait_s),
        )
        verdict = decide(graded, server, request, wait_s=max(0.5, wait_s - (time.monotonic() - started)))
        decision, reason = decision_for(verdict, on_no_decision=mode)  # type: ignore[arg-type]
        out = answer(decision, reason, verdict.outcome)
    except SeveralAsked as exc:
        out = answer("deny", f"{exc}.")
    except Exception as exc:  # noqa: BLE001 - exit 1 would let the call proceed: deny, saying why
        from bot.errors import plain_cause

        text = f"the FlyBot hook failed ({plain_cause(exc)}: {exc})".splitlines()[0]
        _, reason = no_decision(text, on_no_decision="deny", permission_mode=None)
        out = answer("deny", reason)
    stdout.write(json.dumps(out) + "\n")
    stdout.flush()
    if out["decision"] != "allow":
        print(f"{PREFIX}: {out.get('reason') or out.get('systemMessage')}", file=stderr)
    return EXIT_OK


def _no_decision(stdout: IO[str], stderr: IO[str], why: str) -> int:
    """``{}``: Gemini CLI's own approval mode and policy decide (with stdout empty it would read stderr as the
    answer and show it as a message)."""
    stdout.write("{}\n")
    stdout.flush()
    print(f"{PREFIX}: {why}; no decision", file=stderr)
    return EXIT_OK


def main_from_args(
    contained: bool,
    ceiling: RiskLevel,
    url: str | None,
    token: str | None,
    wait: str,
    room: str | None,
    on_no_decision: str,
    settings: str | None = None,
) -> int:
    """Run against the process's real stdin/stdout/stderr (the CLI's entry); a bad ``--wait`` exits 2 with one line
    (Gemini CLI then blocks the call and shows the line). ``settings``: the hook's settings file
    (:mod:`bot.hooks.hook_settings`, as ``flybot hook install gemini`` names it): the URL, token and state directory
    come from it (``--server``/``--token`` still win), never from the environment Gemini CLI hands over, which a
    project's ``.env`` fills; a settings file that cannot be trusted denies the call."""
    from bot.hooks.claude_code import parse_wait

    try:
        wait_s = parse_wait(wait)
    except ValueError as exc:
        print(f"{PREFIX}: {exc}", file=sys.stderr)
        return EXIT_BLOCK
    if settings is not None:
        from bot.hooks.hook_settings import SettingsError, apply

        try:
            recorded_url, recorded_token = apply(settings)
        except SettingsError as exc:
            sys.stdin.buffer.read()
            _, reason = no_decision(f"{exc}; not run", on_no_decision="deny", permission_mode=None)
            out = answer("deny", reason)
            sys.stdout.write(json.dumps(out) + "\n")
            sys.stdout.flush()
            print(f"{PREFIX}: {out.get('reason')}", file=sys.stderr)
            return EXIT_OK
        url, token = url or recorded_url, token or recorded_token
    return run(
        stdin=sys.stdin.buffer,
        stdout=sys.stdout,
        stderr=sys.stderr,
        contained=contained,
        ceiling=ceiling,
        server=find_server(url, token),
        wait_s=wait_s,
        room=room,
        on_no_decision=on_no_decision,
    )
