"""``flybot hook opencode``: the helper FlyBot's OpenCode plugin runs before a shell command, file edit or file read.

OpenCode (npm ``opencode-ai``) has no command hooks; its plugins (JavaScript modules it loads from
``.opencode/plugins/`` and ``~/.config/opencode/plugins/``) get ``tool.execute.before(input, output)`` before every
tool call, in every way OpenCode runs (the TUI, ``opencode run``, ``opencode serve`` and the IDE extensions), and a
plugin that throws stops the call with its message as the tool's error, which the model reads.
``flybot hook install opencode`` writes FlyBot's plugin (``bot/hooks/opencode_plugin.js``): for the ``bash`` tool and
the file tools (``edit``: ``filePath``, ``oldString``, ``newString``; ``write``: ``filePath``, ``content``;
``apply_patch``: ``patchText``) it runs this command with the call on stdin and throws unless the answer is
``allow`` -- also when this command fails, writes nothing readable, or outlives the plugin's own deadline (fail
closed). A file tool's call is graded as FlyBot's ``Edit`` or ``Write`` (bot/risk/tools.py), one file at a time: an
edit in the workspace runs at once; one outside it, or of an agent's plugins and settings (``.opencode/plugins/``,
which OpenCode loads as code at its next start), asks. The read tools, whose output goes to the model, are graded as
FlyBot's: ``read`` (``filePath``, a file or directory) as ``Read``, ``grep`` (``pattern``, ``path``, ``include``) as
``Grep``, ``glob`` (``pattern``, ``path``) and ``list`` (``path``; releases that have it) as ``Glob``: a read of a
workspace file runs at once, one of a secret or credential file (``.env``, ``~/.ssh/id_rsa``) asks.

Input (written by the plugin)::

    {"tool": "bash", "sessionID": "ses_...", "callID": "call_...", "directory": "/repo",
     "args": {"command": "rm -rf build", "description": "...", "workdir": "/repo/sub"}}

Answer (stdout, exit 0): ``{"decision": "allow" | "deny", "reason": REASON}``.
"""

from __future__ import annotations

import os

from bot.hooks.agent_hook import FileCall, InputError, NotShell, ShellCall, near, patch_calls, shell_call, text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

AGENT, LABEL = "opencode", "OpenCode"
DEFAULT_WAIT_S, MAX_WAIT_S = 590.0, 590.0


#: OpenCode's tools that change files, and those that read them (their output goes to the model).
FILE_TOOLS = ("edit", "write", "apply_patch", "read", "grep", "glob", "list")


def parse(data: dict[str, Any]) -> ShellCall | FileCall | NotShell:
    """The ``bash`` or file tool call the plugin sent (see the module docstring).

    Raises:
        InputError: no tool name, a name that is one of these tools only when case is ignored, or a call without an
            ``args`` object, a command or a file path.
    """
    tool = text(data.get("tool"))
    if tool is None:
        raise InputError("the event has no tool")
    if near(tool, ("bash", *FILE_TOOLS)):
        raise InputError(f"the tool {tool!r} is not OpenCode's bash or file tools (tool names are exact)")
    if tool != "bash" and tool not in FILE_TOOLS:
        return NotShell(tool)
    args = data.get("args")
    if not isinstance(args, dict):
        raise InputError(f"the {tool} call has no args object")
    if tool in FILE_TOOLS:
        directory = data.get("directory")
        if not isinstance(directory, str) or not directory.startswith("/"):
            raise InputError(f"a {tool} call without an absolute session directory")
        return FileCall(
            _file_calls(tool, args),
            workspace=directory,
            session_id=f"{LABEL} {text(data.get('sessionID')) or 'session'}",
            call_id=text(data.get("callID")),
        )
    workdir, directory = args.get("workdir"), data.get("directory")
    if isinstance(workdir, str) and workdir and not workdir.startswith("/"):
        # OpenCode runs the command in workdir, a relative one from the session's directory
        if not isinstance(directory, str) or not directory.startswith("/"):
            raise InputError("a relative workdir without an absolute session directory")
        workdir = os.path.normpath(os.path.join(directory, workdir))
    # The session's directory is the workspace; workdir (the model's choice for this call) is only where it runs.
    return shell_call(
        args.get("command"),
        cwd=workdir if isinstance(workdir, str) and workdir.startswith("/") else directory,
        workspace=directory,
        agent=LABEL,
        session=data.get("sessionID"),
        call_id=data.get("callID"),
        justification=args.get("description"),
    )


def _file_calls(tool: str, args: dict[str, Any]) -> tuple[tuple[str, dict[str, Any]], ...]:
    """An ``edit``, ``write`` or ``apply_patch`` call as FlyBot's ``Edit``/``Write`` calls, one per file; a ``read``,
    ``grep``, ``glob`` or ``list`` call as FlyBot's ``Read``, ``Grep`` or ``Glob`` (a search without a ``path``
    searches the session's directory).

    Raises:
        InputError: no file path, a patch that names no file, or a search without a pattern.
    """
    if tool == "apply_patch":
        return patch_calls(args.get("patchText"))
    if tool in ("grep", "glob", "list"):
        path = args.get("path")
        if path is not None and not isinstance(path, str):
            raise InputError(f"the {tool} call's path is not a string")
        pattern = "*" if tool == "list" else args.get("pattern")
        if not isinstance(pattern, str):
            raise InputError(f"the {tool} call has no pattern")
        search: dict[str, Any] = {"pattern": pattern, "path": path or "."}
        if tool == "grep" and isinstance(args.get("include"), str):
            search["glob"] = args["include"]
        return (("Grep" if tool == "grep" else "Glob", search),)
    path = args.get("filePath")
    if not isinstance(path, str) or not path.strip():
        raise InputError(f"the {tool} call has no filePath")
    if tool == "read":
        return (("Read", {"file_path": path}),)
    if tool == "write":
        content = args.get("content")
        return (("Write", {"file_path": path, "content": content if isinstance(content, str) else ""}),)
    old, new = args.get("oldString"), args.get("newString")
    edit = {
        "file_path": path,
        "old_string": old if isinstance(old, str) else "",
        "new_string": new if isinstance(new, str) else "",
        "replace_all": args.get("replaceAll") is True,
    }
    return (("Edit", edit),)


def answer(allowed: bool, reason: str) -> tuple[dict[str, Any], int]:
    """The plugin's answer; always exit 0."""
    return {"decision": "allow" if allowed else "deny", "reason": reason}, 0
