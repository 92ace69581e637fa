"""``flybot hook opencode``: the helper FlyBot's OpenCode plugin runs before a shell command.

OpenCode (npm ``opencode-ai``) has no command hooks; its plugins (JavaScript modules it loads from
``.opencode/plugins/`` and ``~/.config/opencode/plugins/``) get ``tool.execute.before(input, output)`` before every
tool call, in every way OpenCode runs (the TUI, ``opencode run``, ``opencode serve`` and the IDE extensions), and a
plugin that throws stops the call with its message as the tool's error, which the model reads.
``flybot hook install opencode`` writes FlyBot's plugin (``bot/hooks/opencode_plugin.js``): for the ``bash`` tool it
runs this command with the call on stdin and throws unless the answer is ``allow`` -- also when this command fails,
writes nothing readable, or outlives the plugin's own deadline (fail closed).

Input (written by the plugin)::

    {"tool": "bash", "sessionID": "ses_...", "callID": "call_...", "directory": "/repo",
     "args": {"command": "rm -rf build", "description": "...", "workdir": "/repo/sub"}}

Answer (stdout, exit 0): ``{"decision": "allow" | "deny", "reason": REASON}``.
"""

from __future__ import annotations

import os

from bot.hooks.agent_hook import InputError, NotShell, ShellCall, near, shell_call, text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

AGENT, LABEL = "opencode", "OpenCode"
DEFAULT_WAIT_S, MAX_WAIT_S = 590.0, 590.0


def parse(data: dict[str, Any]) -> ShellCall | NotShell:
    """The ``bash`` call the plugin sent (see the module docstring).

    Raises:
        InputError: no tool name, or a ``bash`` call without an ``args`` object or a command.
    """
    tool = text(data.get("tool"))
    if tool is None:
        raise InputError("the event has no tool")
    if near(tool, ("bash",)):
        raise InputError(f"the tool {tool!r} is not OpenCode's bash (tool names are exact)")
    if tool != "bash":
        return NotShell(tool)
    args = data.get("args")
    if not isinstance(args, dict):
        raise InputError("the bash call has no args object")
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


def answer(allowed: bool, reason: str) -> tuple[dict[str, Any], int]:
    """The plugin's answer; always exit 0."""
    return {"decision": "allow" if allowed else "deny", "reason": reason}, 0
