"""``flybot hook cline``: a Cline ``PreToolUse`` hook that asks FlyBot before a shell command, file edit or file read
runs.

Cline (npm ``cline`` 3.0.65) runs an executable file named ``PreToolUse`` from its hooks directories
(``.clinerules/hooks/`` in the workspace, ``~/.cline/hooks/``) with the event on stdin::

    {"hookName": "tool_call", "taskId": "conv_...", "workspaceRoots": ["/repo"],
     "tool_call": {"id": "call_...", "name": "run_commands", "input": {"commands": ["rm -rf build"]}},
     "preToolUse": {"toolName": "run_commands", "parameters": {"commands": "[\\"rm -rf build\\"]"}}, ...}

The shell tools are ``run_commands`` (``commands``: a list, each run in its own shell, so each must parse on its
own; graded together as one script, one command a line) and
``execute_command`` (``command``). Its file tools, ``editor`` and ``apply_patch``, are graded as FlyBot's ``Edit`` and
``Write`` are (bot/risk/tools.py), one file at a time: an edit in the workspace goes ahead at once, one outside it or
of an agent's hooks and settings (``.clinerules/hooks/``, whose ``PreToolUse`` Cline runs afresh on every call, so an
unasked edit would end FlyBot's say over the session) asks. Its read tools, whose output goes to the model, are graded as
FlyBot's: ``read_files`` (``files``: a list of ``{"path": ...}``; Cline also takes a path, a list of paths, ``paths``,
``file_paths`` or one ``{"path": ...}``) as a ``Read`` per file, and ``search_codebase`` (``queries``: regular
expressions searched below the workspace) as a ``Grep`` of the workspace per query: a read of a workspace file goes
ahead at once, one of a secret or credential file (``.env``, ``~/.ssh/id_rsa``) asks. Any other tool gets no answer
and goes ahead as Cline's own settings say.
``run_commands`` also takes ``{"command": PROGRAM, "args": [ARG, ...]}``, which Cline runs directly, with no shell
(its input schema: "The executable to run directly without shell parsing"): graded as that argv, each word quoted
for the shell (``find . -delete``, never ``find``).

Answer (stdout, exit 0): ``{"cancel": false}`` to let it run; ``{"cancel": true, "errorMessage": REASON}`` to stop
it. Cline 3.0.65 ends the whole task on ``cancel`` ("aborted") and shows the reason to neither the model nor the
person, so this hook also prints the reason on stderr. Cline runs the tool when a hook writes nothing, fails or
runs past its 120-second limit, so this hook always answers, and its ``--wait`` stays below that limit.
"""

from __future__ import annotations

import json

from bot.hooks.agent_hook import (
    FileCall,
    InputError,
    NotShell,
    ShellCall,
    directory,
    near,
    patch_calls,
    shell_call,
    text,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

AGENT, LABEL = "cline", "Cline"
#: ``--wait`` default and bound, seconds: Cline stops waiting for a hook after 120 s and then runs the tool.
DEFAULT_WAIT_S, MAX_WAIT_S = 100.0, 110.0
SHELL_TOOLS = ("run_commands", "execute_command")
#: Cline's tools that change files: ``editor`` (``path``, ``old_text``, ``new_text``, ``insert_line``) and
#: ``apply_patch`` (``input``: a patch, :func:`bot.hooks.agent_hook.patch_calls`); and that read them: ``read_files``
#: and ``search_codebase`` (:func:`_read_calls`).
FILE_TOOLS = ("editor", "apply_patch", "read_files", "search_codebase")


def parse(data: dict[str, Any]) -> ShellCall | FileCall | NotShell:
    """The shell or file call in a ``tool_call`` (``PreToolUse``) event (see the module docstring).

    Raises:
        InputError: not a tool-call event, or a shell call whose commands are not strings.
    """
    call = data.get("tool_call")
    pre = data.get("preToolUse")
    if isinstance(call, dict):
        name, tool_input, call_id, encoded = text(call.get("name")), call.get("input"), call.get("id"), False
    elif isinstance(pre, dict):
        name, tool_input, call_id, encoded = text(pre.get("toolName")), pre.get("parameters"), None, True
    else:
        raise InputError(f"hookName is {data.get('hookName')!r}; install this hook as PreToolUse")
    if name is not None and near(name, SHELL_TOOLS + FILE_TOOLS):
        raise InputError(f"the tool {name!r} is not one of Cline's shell or file tools (tool names are exact)")
    if name not in SHELL_TOOLS + FILE_TOOLS:
        return NotShell(name or "an unnamed tool")
    if not isinstance(tool_input, dict):
        raise InputError(f"the {name} call has no input object")
    roots = data.get("workspaceRoots")
    if name in FILE_TOOLS:
        return FileCall(
            _file_calls(name, tool_input, encoded=encoded),
            workspace=directory(roots[0] if isinstance(roots, list) and roots else None),
            session_id=f"{LABEL} {text(data.get('taskId')) or 'session'}",
            call_id=text(call_id),
        )
    return shell_call(
        _commands(tool_input, encoded=encoded),
        cwd=None,
        workspace=roots[0] if isinstance(roots, list) and roots else None,
        agent=LABEL,
        session=data.get("taskId"),
        call_id=call_id,
    )


def _commands(tool_input: dict[str, Any], *, encoded: bool) -> str:
    """The shell text of a ``run_commands`` or ``execute_command`` input: one command a line.

    Cline runs each command of the list in its own shell, so each must be a whole script on its own (a quote or a
    here-document left open would join the next command to it in the graded text): one that is not is refused.
    ``encoded``: the input is ``preToolUse.parameters``, which holds the list as JSON text; in ``tool_call.input`` a
    string is the command itself, JSON-looking or not.

    Raises:
        InputError: not a list of strings, or a command that does not parse on its own.
    """
    commands = tool_input.get("commands", tool_input.get("command"))
    if encoded and isinstance(commands, str) and commands.lstrip().startswith("["):
        try:
            commands = json.loads(commands)
        except ValueError:
            pass
    if "commands" not in tool_input and "args" in tool_input:
        return _argv(commands, tool_input["args"], encoded=encoded)
    if isinstance(commands, str):
        commands = [commands]
    if not isinstance(commands, list) or not commands or not all(isinstance(c, str) for c in commands):
        raise InputError("the shell call's commands are not a list of strings")
    for command in commands:
        if not _whole(command):
            raise InputError("a command of the call does not parse on its own (an open quote or here-document)")
    return "\n".join(commands)


def _file_calls(name: str, tool_input: dict[str, Any], *, encoded: bool) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The files an ``editor`` or ``apply_patch`` call changes, as FlyBot's ``Write``/``Edit`` calls, or those a
    ``read_files`` or ``search_codebase`` call reads (:func:`_read_calls`).

    Raises:
        InputError: no path, a patch that names no file, or a read without a path or query.
    """
    if name in ("read_files", "search_codebase"):
        return _read_calls(name, tool_input, encoded=encoded)
    if name == "editor":
        path, old, new = tool_input.get("path"), tool_input.get("old_text"), tool_input.get("new_text")
        if not isinstance(path, str) or not path.strip():
            raise InputError("the editor call has no path")
        new = new if isinstance(new, str) else ""
        if old is None and tool_input.get("insert_line") is None:  # creates the file (or fails on one that exists)
            return (("Write", {"file_path": path, "content": new}),)
        return (("Edit", {"file_path": path, "old_string": old if isinstance(old, str) else "", "new_string": new}),)
    return patch_calls(tool_input.get("input"))


def _read_calls(name: str, tool_input: dict[str, Any], *, encoded: bool) -> tuple[tuple[str, dict[str, Any]], ...]:
    """A ``read_files`` call as one FlyBot ``Read`` per file, a ``search_codebase`` call as one ``Grep`` of the
    workspace per query. Every input shape Cline 3.0.65's ``read_files`` takes is read (``files``, ``paths``,
    ``file_paths``: a list or one entry; an entry a path or ``{"path": ...}``; or the input itself one entry); its
    ``search_codebase`` takes ``queries``, a list or one query. ``encoded``: the input is ``preToolUse.parameters``,
    whose lists and objects are JSON text.

    Raises:
        InputError: no file path or no query, or an entry that is neither.
    """
    if name == "search_codebase":
        queries = _decoded(tool_input.get("queries"), encoded)
        queries = [queries] if isinstance(queries, str) else queries
        if not isinstance(queries, list) or not queries or not all(isinstance(q, str) for q in queries):
            raise InputError("the search_codebase call's queries are not a list of strings")
        return tuple(("Grep", {"pattern": query, "path": "."}) for query in queries)
    for field in ("files", "file_paths", "paths"):
        if field in tool_input:
            entries = _decoded(tool_input[field], encoded)
            break
    else:
        entries = [tool_input]
    entries = entries if isinstance(entries, list) else [entries]
    paths = [entry.get("path") if isinstance(entry, dict) else entry for entry in entries]
    if not paths or not all(isinstance(path, str) and path.strip() for path in paths):
        raise InputError("the read_files call names no file (or an entry without a path)")
    return tuple(("Read", {"file_path": path}) for path in paths)


def _decoded(value: object, encoded: bool) -> object:
    """``value``, or, when ``encoded``, what it holds as JSON text when it is a string that starts a JSON list or
    object."""
    if encoded and isinstance(value, str) and value.lstrip()[:1] in ("[", "{"):
        try:
            return json.loads(value)
        except ValueError:
            pass
    return value


def _argv(program: object, args: object, *, encoded: bool) -> str:
    """The shell text of ``{"command": PROGRAM, "args": [...]}``, which Cline runs with no shell: the argv, each word
    quoted (``shlex.join``), so it grades as the program with its arguments.

    Raises:
        InputError: a program or arguments that are not strings (Cline would then run ``command`` as shell text
            and drop ``args``, or refuse the call: which one is not told by the words).
    """
    import shlex

    if encoded and isinstance(args, str):
        try:
            args = json.loads(args)
        except ValueError:
            pass
    if not isinstance(program, str) or not program or not isinstance(args, list):
        raise InputError("the shell call's command and args are not a program and a list of strings")
    if not all(isinstance(arg, str) for arg in args):
        raise InputError("the shell call's command and args are not a program and a list of strings")
    return shlex.join([program, *args])


def _whole(command: str) -> bool:
    """True when ``command`` parses as bash on its own, with nothing left open."""
    from bot.risk.walker import UnsafeToParse, parse

    try:
        return not parse(command.encode("utf-8", "surrogatepass")).has_error
    except UnsafeToParse:
        return False


def answer(allowed: bool, reason: str) -> tuple[dict[str, Any], int]:
    """Cline's hook control answer; always exit 0 (the JSON carries the decision)."""
    if allowed:
        return {"cancel": False}, 0
    return {"cancel": True, "errorMessage": reason}, 0
