"""``flybot hook cursor``: a Cursor hook (``.cursor/hooks.json``) that asks FlyBot before a shell command runs.

Events read (Cursor's hooks documentation, https://cursor.com/docs/agent/hooks; Cursor is not on npm, so these
shapes come from its documented examples and are not checked against a running Cursor):

* ``beforeShellExecution``: ``{"hook_event_name": "beforeShellExecution", "conversation_id": "...",
  "generation_id": "...", "workspace_roots": ["/repo"], "command": "npm install express", "cwd": "/repo"}``;
* ``preToolUse`` for the ``Shell`` tool: ``{"hook_event_name": "preToolUse", "tool_name": "Shell",
  "tool_input": {"command": "...", "cwd": "..."}, "tool_use_id": "...", "conversation_id": "...", ...}``; another
  tool gets no answer (configure the matcher ``Shell``).

Answer (stdout, exit 0): ``{"permission": "allow" | "deny", "user_message": REASON, "agent_message": REASON}``:
``user_message`` is shown to the person, ``agent_message`` to the model. Cursor also offers ``ask``, but it is
reported to be ignored in one of its modes, so when no human decided the answer is ``deny`` with the reason
(:mod:`bot.hooks.agent_hook`). ``flybot hook install cursor`` configures ``beforeShellExecution`` with
``failClosed``, so a hook that crashes or times out blocks the command too.
"""

from __future__ import annotations

import os

from bot.hooks.agent_hook import InputError, NotShell, ShellCall, near, shell_call, text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

AGENT, LABEL = "cursor", "Cursor"
#: ``--wait`` default and bound, seconds: ``flybot hook install cursor`` sets the hook's ``timeout`` to 600.
DEFAULT_WAIT_S, MAX_WAIT_S = 590.0, 590.0
SHELL_TOOL = "Shell"


def parse(data: dict[str, Any]) -> ShellCall | NotShell:
    """The shell call in a ``beforeShellExecution`` or ``preToolUse`` event (see the module docstring).

    Raises:
        InputError: another event, or a shell event without a command.
    """
    event = data.get("hook_event_name")
    roots = data.get("workspace_roots")
    roots = [r for r in roots if isinstance(r, str) and r.startswith("/")] if isinstance(roots, list) else []
    if event == "beforeShellExecution":
        cwd = data.get("cwd")
        return shell_call(
            data.get("command"),
            cwd=cwd,
            workspace=_root(roots, cwd),
            agent=LABEL,
            session=data.get("conversation_id"),
        )
    if event == "preToolUse":
        tool = text(data.get("tool_name")) or "an unnamed tool"
        if near(tool, (SHELL_TOOL,)):
            raise InputError(f"the tool {tool!r} is not Cursor's {SHELL_TOOL} (tool names are exact)")
        if tool != SHELL_TOOL:
            return NotShell(tool)
        tool_input = data.get("tool_input")
        if not isinstance(tool_input, dict):
            raise InputError("the Shell event has no tool_input object")
        cwd = tool_input.get("cwd") or data.get("cwd")
        return shell_call(
            tool_input.get("command"),
            cwd=cwd,
            workspace=_root(roots, cwd),
            agent=LABEL,
            session=data.get("conversation_id"),
            call_id=data.get("tool_use_id"),
        )
    raise InputError(f"hook_event_name is {event!r}; configure this hook under beforeShellExecution")


def _root(roots: list[str], cwd: object) -> str | None:
    """The workspace root holding ``cwd``, else the first root; None without roots (the hook's own directory).

    The call's ``cwd`` never becomes the workspace: a command run elsewhere is graded as a ``cd`` there."""
    if isinstance(cwd, str):
        real = os.path.realpath(cwd)
        for root in roots:
            top = os.path.realpath(root).rstrip("/")
            if real == top or real.startswith(top + "/"):
                return root
    return roots[0] if roots else None


def answer(allowed: bool, reason: str) -> tuple[dict[str, Any], int]:
    """Cursor's permission answer; always exit 0 (the JSON carries the decision)."""
    return {"permission": "allow" if allowed else "deny", "user_message": reason, "agent_message": reason}, 0
