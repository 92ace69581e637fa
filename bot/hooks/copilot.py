"""``flybot hook copilot``: a GitHub Copilot CLI ``preToolUse`` command hook that asks FlyBot before a shell
command or file edit runs.

Input (Copilot CLI hooks reference, https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference;
checked against ``@github/copilot`` 1.0.102)::

    {"sessionId": "852cd714-...", "timestamp": 1796553778444, "cwd": "/repo", "toolName": "bash",
     "toolArgs": {"command": "rm -rf build", "description": "..."}}

``toolArgs`` is an object (older releases sent it as a JSON string; both are read). The shell tool is ``bash``;
``powershell`` is refused (FlyBot grades bash). The file tools ``create`` (``path``, ``file_text``) and ``edit``
(``path``, ``old_str``, ``new_str``) are graded as FlyBot's ``Write`` and ``Edit`` (bot/risk/tools.py): an edit in the
workspace is allowed at once, one outside it or of an agent's hooks and settings (``.github/hooks/``, whose
``flybot.json`` is this hook) asks. The read tools, whose output goes to the model, are graded as FlyBot's read tools:
``view`` (``path``) as ``Read``, ``grep`` and ``rg`` (``pattern``, ``paths``: a path or a list, the working directory
without one; ``glob``) as ``Grep``, ``glob`` (``pattern``, ``paths``) as ``Glob``, one call per path, and
``str_replace_editor`` (``command``: ``view``, ``create``, ``str_replace``, ``insert``) as ``Read``, ``Write`` or
``Edit``: a read of a workspace file is allowed at once, one of a secret or credential file (``.env``,
``~/.ssh/id_rsa``) asks. ``str_replace`` is ``edit`` under another name, and ``apply_patch`` (``toolArgs`` the patch
text itself, or ``{"input": PATCH}`` / ``{"patch": PATCH}``, as Copilot reads it) is an ``Edit`` per file the patch
names (:func:`bot.hooks.agent_hook.patch_calls`). Any other tool gets no answer, so Copilot's own permission flow decides.

Answer (stdout, exit 0): ``{"permissionDecision": "allow" | "deny", "permissionDecisionReason": REASON}``. ``allow``
also skips Copilot's own approval prompt; ``deny`` blocks the call and the model reads "Denied by preToolUse hook:
REASON". Copilot denies the call when a ``preToolUse`` hook fails or times out (``timeoutSec``, which
``flybot hook install copilot`` sets to 600).
"""

from __future__ import annotations

import json
import re

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

AGENT, LABEL = "copilot", "Copilot CLI"
DEFAULT_WAIT_S, MAX_WAIT_S = 590.0, 590.0
#: A key written by name in ``write_bash`` input. Copilot CLI's tool description: "You can send text, {up}, {down},
#: {left}, {right}, {enter}, and {backspace} as input" (these in any case); the other names (``{tab}``, ``{ctrl+c}``,
#: ``{home}``, ``{f1}``...), in lower case (``${HOME}`` stays a variable), are what another release or a terminal
#: library may also read as a key.
_KEY_NAME = re.compile(
    r"\{(?:(?i:up|down|left|right|enter|backspace)|return|delete|del|tab|esc|escape|home|end|space|insert"
    r"|page_?up|page_?down|pgup|pgdn|f[0-9]{1,2}|(?:ctrl|control|alt|meta|shift|cmd)[+-][^{}]{1,10})\}"
)


#: Copilot CLI's tools that change or read files (1.0.102's built-in file tools, of which a model gets some: ``view``,
#: ``grep``, ``rg``, ``glob``, ``create``, ``edit``, ``str_replace``, ``str_replace_editor``, ``apply_patch``).
FILE_TOOLS = ("create", "edit", "str_replace", "apply_patch", "view", "grep", "rg", "glob", "str_replace_editor")


def parse(data: dict[str, Any]) -> ShellCall | FileCall | NotShell:
    """The ``bash`` or file tool call in a ``preToolUse`` event (see the module docstring).

    Raises:
        InputError: no ``toolName``, a ``powershell`` call, a ``bash`` call without a command, or a file tool call
            without a path (:func:`_file_calls`).
    """
    tool = text(data.get("toolName"))
    if tool is None:
        raise InputError("the event has no toolName; configure this hook under preToolUse")
    if near(tool, ("bash", "write_bash", "powershell", *FILE_TOOLS)):
        raise InputError(f"the tool {tool!r} is not one of Copilot CLI's shell or file tools (tool names are exact)")
    if tool == "powershell":
        raise InputError("a PowerShell command: FlyBot grades bash commands only")
    if tool not in ("bash", "write_bash", *FILE_TOOLS):
        return NotShell(tool)
    args = data.get("toolArgs")
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except ValueError:
            if tool != "apply_patch":
                raise InputError("toolArgs is not JSON") from None
    if tool == "apply_patch" and isinstance(args, str):  # a freeform tool: its input is the patch itself
        args = {"input": args}
    if not isinstance(args, dict):
        raise InputError(f"the {tool} event has no toolArgs object")
    if tool in FILE_TOOLS:
        session = f"{LABEL} {text(data.get('sessionId')) or 'session'}"
        # the workspace is the session's directory, where Copilot starts the hook
        return FileCall(_file_calls(tool, args), workspace=directory(None), session_id=session, call_id=None)
    # write_bash types into a shell session started earlier (or a program running in it, a pager's ``!cmd``
    # included): its input is graded as the shell text it may be.
    command = args.get("input") if tool == "write_bash" else args.get("command")
    if tool == "write_bash":
        if not isinstance(command, str):
            raise InputError("the write_bash event has no input text")
        command = typed_text(command)
    return shell_call(
        command,
        # cwd is the shell's directory, which an earlier call's cd moves: the workspace is where Copilot started
        # the hook (the session's directory)
        cwd=data.get("cwd"),
        workspace=None,
        agent=LABEL,
        session=data.get("sessionId"),
        justification=args.get("description"),
    )


def _file_calls(tool: str, args: dict[str, Any]) -> tuple[tuple[str, dict[str, Any]], ...]:
    """A file tool's call as FlyBot's ``Write``/``Edit``/``Read``/``Grep``/``Glob`` calls, one per path.

    Raises:
        InputError: no path (``paths`` that is neither a path nor a list of paths), no pattern for a search, or a
            ``str_replace_editor`` command that is not one of its four.
    """
    if tool == "apply_patch":
        patch = args.get("input") if isinstance(args.get("input"), str) else args.get("patch")
        return patch_calls(patch)
    if tool in ("grep", "rg", "glob"):
        pattern = args.get("pattern")
        if not isinstance(pattern, str):
            raise InputError(f"the {tool} call has no pattern")
        paths = args.get("paths")
        paths = ["."] if paths is None else [paths] if isinstance(paths, str) else paths
        if not isinstance(paths, list) or not paths or not all(isinstance(p, str) and p.strip() for p in paths):
            raise InputError(f"the {tool} call's paths are not a path or a list of paths")
        if tool == "glob":
            return tuple(("Glob", {"pattern": pattern, "path": path}) for path in paths)
        found = {"pattern": pattern, **({"glob": args["glob"]} if isinstance(args.get("glob"), str) else {})}
        return tuple(("Grep", {**found, "path": path}) for path in paths)
    path = args.get("path")
    if not isinstance(path, str) or not path.strip():
        raise InputError(f"the {tool} call has no path")
    command = {"create": "create", "edit": "str_replace", "str_replace": "str_replace", "view": "view"}.get(tool)
    command = command or args.get("command")
    if command == "view":
        return (("Read", {"file_path": path}),)
    if command == "create":
        return (("Write", {"file_path": path, "content": _string(args.get("file_text"))}),)
    if command in ("str_replace", "insert"):
        old, new = _string(args.get("old_str")), _string(args.get("new_str"))
        return (("Edit", {"file_path": path, "old_string": old, "new_string": new}),)
    raise InputError(f"the str_replace_editor command {command!r} is not view, create, str_replace or insert")


def _string(value: object) -> str:
    return value if isinstance(value, str) else ""


def typed_text(typed: str) -> str:
    """The text a ``write_bash`` input types: each ``{enter}`` is the end of a line (the shell runs the line).

    Any other key written by name (:data:`_KEY_NAME`: ``{up}`` recalls an earlier command, ``{left}`` and
    ``{backspace}`` edit the line), and ``{enter}`` in another case, which Copilot may read as a key or as text,
    leaves what runs unknown from the words: refused, never graded as the literal text (``echo x {up}{enter}``
    reads as an ``echo`` and re-runs the last command).

    Raises:
        InputError: naming the first such key.
    """
    for found in _KEY_NAME.finditer(typed):
        if found.group() != "{enter}":
            raise InputError(
                f"the write_bash input presses {found.group()!r}: FlyBot cannot tell what it makes the shell run"
            )
    return typed.replace("{enter}", "\n")


def answer(allowed: bool, reason: str) -> tuple[dict[str, Any], int]:
    """Copilot's ``preToolUse`` answer; always exit 0 (the JSON carries the decision)."""
    return {"permissionDecision": "allow" if allowed else "deny", "permissionDecisionReason": reason}, 0
