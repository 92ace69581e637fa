"""FlyBot for programs built on the Claude Agent SDK (PyPI ``claude-agent-sdk``, ``pip install 'flybot[sdk]'``): a
permission callback and a ``PreToolUse`` hook that ask FlyBot before a tool call runs.

::

    from claude_agent_sdk import ClaudeAgentOptions, query
    from bot.sdk import FlyBotPermissions

    flybot = FlyBotPermissions(cwd="/srv/shop")   # FLYBOT_URL, FLYBOT_TOKEN; ceiling workspace_write
    options = ClaudeAgentOptions(
        cwd="/srv/shop",
        can_use_tool=flybot.can_use_tool,          # where Claude Code would ask a person
        hooks={"PreToolUse": [flybot.hook_matcher()]},  # every gated call, in every permission mode
    )

``from bot.sdk import can_use_tool, pre_tool_use`` are the same two functions with the defaults (the environment's
FlyBot, the process's working directory at the first call).

The two places (the SDK's own; the SDK does not read a project's ``.claude/settings.json`` unless told to, so
``flybot hook claude-code`` does not reach an SDK program):

* ``can_use_tool(tool_name, input, context)``: Claude Code calls it where it would show its permission prompt (not
  for calls its settings or ``allowed_tools`` already allow, and never in ``bypassPermissions``). Every tool it asks
  about is graded: Bash by FlyBot's classifier, other tools by bot/risk/tools.py (a tool FlyBot does not know grades
  ``destructive``, so it is asked). Answer: ``PermissionResultAllow()`` or ``PermissionResultDeny(message=...)``
  with the line naming the approver or the owner's reason; no human decision is a deny (there is no prompt to fall
  back to).
* ``pre_tool_use(input, tool_use_id, context)``, a ``PreToolUse`` hook callback: runs for each call of the matched
  tools before the permission step, in every permission mode. Answer: ``permissionDecision`` ``allow`` or ``deny``
  with the reason; a tool left out of ``tools`` gets ``{}`` (no decision). No human decision is ``deny``
  (``on_no_decision="ask"`` passes it on to the permission step, i.e. ``can_use_tool`` or the permission mode;
  ``bypassPermissions`` and ``auto`` get ``deny`` all the same). :meth:`FlyBotPermissions.hook_matcher` gives the
  matcher with a timeout above the wait and ``on_failure="block"``, so a callback the CLI gives up on blocks.

Both grade locally first (no network call for a call at or below the ceiling but the program rules' refresh,
bot/hooks/rules_cache.py), escalate above it and wait (the gate of bot/hooks/gate.py, the Claude Code hook's
mapping of bot/hooks/claude_code.py). FlyBot's client is the standard library's (synchronous ``http.client``): the
grading and the asking run in a worker thread (``asyncio.to_thread``), so the event loop never blocks on FlyBot and
the SDK program needs no HTTP client of its own. When the SDK cancels the callback (the CLI sent
``control_cancel_request``: the turn was interrupted or the CLI gave up on it), the escalation is withdrawn and its
card closed before the ``CancelledError`` goes on. FlyBot unreachable, refusing, no token, or any failure of the
callback itself: deny (never allow). Runs under asyncio (the SDK's default event loop), not trio.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Any

from bot.hooks.claude_code import DEFAULT_TOOLS, decision_for, gated, no_decision, parse_tools
from bot.hooks.gate import (
    Grade,
    Request,
    Server,
    Verdict,
    decide_async,
    expiry_for_wait,
    find_server,
    grade,
    grade_tool_call,
    in_directory,
)
from bot.risk.model import RiskLevel

if TYPE_CHECKING:
    from collections.abc import Mapping

    from claude_agent_sdk import HookMatcher, PermissionResultAllow, PermissionResultDeny, ToolPermissionContext

__all__ = ["FlyBotPermissions", "can_use_tool", "pre_tool_use"]

#: The default wait for a decision, seconds (as the Claude Code hook's).
DEFAULT_WAIT_S = 590.0
#: Seconds the hook matcher's timeout keeps above the wait (the withdraw's reserve and the grading).
HOOK_TIMEOUT_MARGIN_S = 10.0


class FlyBotPermissions:
    """The Agent SDK's permission callback and ``PreToolUse`` hook, asking FlyBot (see the module docstring).

    Args:
        cwd: the agent's working directory (``ClaudeAgentOptions.cwd``): the workspace commands and file paths are
            graded against. The hook's event ``cwd`` is only where that call runs (the agent's shell stays where a
            ``cd`` left it): a call run elsewhere is graded as ``cd -- CWD || exit 1`` and the command. Default: the
            current directory.
        ceiling: the highest risk allowed without asking (``read_only``, ``workspace_write``, ``network``,
            ``system``; default ``workspace_write``).
        server, token: FlyBot's URL and the Bot's token (default ``FLYBOT_URL``, ``FLYBOT_TOKEN``, then local
            mode's ``local.json``, as ``flybot hook`` finds them).
        wait_s: seconds to wait for a decision before withdrawing the escalation (1 to 590, default 590).
        contained: the agent's commands run in the sandbox micro-VM (graded accordingly); tool calls never are.
        room: a Slack channel ID for the card instead of the Bot's room.
        session_id: the session named on cards from ``can_use_tool`` (the hook uses the event's ``session_id``).
        tools: the tools the hook sends to FlyBot (the Claude Code hook's ``--tools``; default Bash, the file
            tools, the web tools and every MCP tool).
        on_no_decision: the hook's answer when no human decided: ``deny`` (default) or ``ask``.
        env: the environment ``server`` and ``token`` default from (default ``os.environ``).

    Raises:
        ValueError: a bad ``ceiling``, ``wait_s``, ``tools`` or ``on_no_decision`` (nothing is asked then).
    """

    def __init__(
        self,
        *,
        cwd: str | os.PathLike[str] | None = None,
        ceiling: str | RiskLevel = RiskLevel.WORKSPACE_WRITE,
        server: str | None = None,
        token: str | None = None,
        wait_s: float = DEFAULT_WAIT_S,
        contained: bool = False,
        room: str | None = None,
        session_id: str | None = None,
        tools: str = DEFAULT_TOOLS,
        on_no_decision: str = "deny",
        env: Mapping[str, str] | None = None,
    ) -> None:
        from bot.hooks.claude_code import MAX_WAIT_S, MIN_WAIT_S

        level = ceiling if isinstance(ceiling, RiskLevel) else RiskLevel.parse(ceiling)
        if level >= RiskLevel.DESTRUCTIVE:
            raise ValueError("a ceiling of destructive would let every call through unasked; the highest is system")
        if not MIN_WAIT_S <= wait_s <= MAX_WAIT_S:  # also false for nan
            raise ValueError(f"wait_s must be between {MIN_WAIT_S:g} and {MAX_WAIT_S:g} seconds, not {wait_s!r}")
        if on_no_decision not in ("ask", "deny"):
            raise ValueError(f"on_no_decision must be 'ask' or 'deny', not {on_no_decision!r}")
        self.cwd = os.path.abspath(os.fspath(cwd) if cwd is not None else os.getcwd())
        self.ceiling = level
        self.server: Server = find_server(server, token, env)
        self.wait_s = float(wait_s)
        self.contained = contained
        self.room = room
        self.session_id = session_id or f"agent-sdk-{os.getpid()}"
        self.tools = parse_tools(tools)
        self.on_no_decision = on_no_decision

    # -- the SDK's two places ------------------------------------------------------------------------------------
    async def can_use_tool(
        self, tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext
    ) -> PermissionResultAllow | PermissionResultDeny:
        """The SDK's ``can_use_tool`` callback: allow only on a grade at or below the ceiling or an approval."""
        from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

        try:
            verdict = await self._ask(
                tool_name,
                tool_input,
                cwd=self.cwd,
                session_id=self.session_id,
                tool_use_id=getattr(context, "tool_use_id", None),
            )
            decision, reason = decision_for(verdict, on_no_decision="deny")
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - an exception would reach the CLI as an error: deny, saying why
            decision, reason = "deny", _failed(exc)
        if decision == "allow":
            return PermissionResultAllow()
        return PermissionResultDeny(message=reason)

    async def pre_tool_use(
        self, hook_input: Mapping[str, Any], tool_use_id: str | None, context: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The SDK's ``PreToolUse`` hook callback: ``permissionDecision`` allow or deny (or ask, see the module
        docstring) with the reason; ``{}`` for a tool outside ``tools`` or another event."""
        if hook_input.get("hook_event_name", "PreToolUse") != "PreToolUse":
            return {}
        name = hook_input.get("tool_name")
        tool_input = hook_input.get("tool_input")
        mode = hook_input.get("permission_mode")
        mode = mode if isinstance(mode, str) or mode is None else repr(mode)
        try:
            if not isinstance(name, str) or not name or not isinstance(tool_input, dict):
                raise ValueError("the PreToolUse input has no tool_name or tool_input")
            if not gated(name, self.tools):
                return {}
            cwd, session = hook_input.get("cwd"), hook_input.get("session_id")
            verdict = await self._ask(
                name,
                tool_input,
                cwd=cwd if isinstance(cwd, str) and cwd.startswith("/") else self.cwd,
                session_id=session if isinstance(session, str) and session else self.session_id,
                tool_use_id=tool_use_id or _text(hook_input.get("tool_use_id")),
            )
            decision, reason = decision_for(verdict, on_no_decision=self.on_no_decision, permission_mode=mode)  # type: ignore[arg-type]
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - fail closed with the reason
            decision, reason = no_decision(_failed(exc), on_no_decision=self.on_no_decision, permission_mode=mode)  # type: ignore[arg-type]
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": decision,
                "permissionDecisionReason": reason,
            }
        }

    def hook_matcher(self, matcher: str | None = None) -> HookMatcher:
        """``HookMatcher`` for ``hooks={"PreToolUse": [...]}``: the matcher ``flybot hook install claude-code``
        writes (or ``matcher``), :meth:`pre_tool_use`, a timeout above the wait, and ``on_failure="block"``."""
        from claude_agent_sdk import HookMatcher

        from bot.hooks.install import TOOL_MATCHER

        return HookMatcher(
            matcher=matcher or TOOL_MATCHER,
            hooks=[self.pre_tool_use],  # type: ignore[list-item]
            timeout=self.wait_s + HOOK_TIMEOUT_MARGIN_S,
            on_failure="block",
        )

    # -- the gate --------------------------------------------------------------------------------------------------
    async def _ask(
        self, tool_name: str, tool_input: dict[str, Any], *, cwd: str, session_id: str, tool_use_id: str | None
    ) -> Verdict:
        """Grade in a worker thread (the classifier, and the program rules' refresh over HTTP), then the gate."""
        graded, request = await asyncio.to_thread(self._graded, tool_name, tool_input, cwd, session_id, tool_use_id)
        return await decide_async(graded, self.server, request, wait_s=self.wait_s)

    def _graded(
        self, tool_name: str, tool_input: dict[str, Any], cwd: str, session_id: str, tool_use_id: str | None
    ) -> tuple[Grade, Request]:
        monitors = tool_name == "Monitor" and "ws" not in tool_input  # a Monitor of a shell command runs it
        command = tool_input.get("command") if tool_name == "Bash" or monitors else None
        is_command = isinstance(command, str) and bool(command.strip())
        # the workspace is the agent's (self.cwd); the hook event's cwd is only where this call runs (the agent's
        # shell stays where a cd left it): elsewhere, graded as a cd there first (bot/hooks/gate.py in_directory)
        if is_command:
            command = in_directory(str(command), cwd=cwd, workspace=self.cwd)
            graded = grade(command, contained=self.contained, cwd=self.cwd, ceiling=self.ceiling, server=self.server)
            justification = _text(tool_input.get("description"))
        else:  # another tool (or a Bash call without a command: graded as an unknown tool, so it asks)
            graded = grade_tool_call(
                tool_name, tool_input, cwd=cwd, ceiling=self.ceiling, server=self.server, workspace=self.cwd
            )
            justification = None
        request = Request(
            session_id=session_id,
            cwd=self.cwd,
            contained=self.contained and is_command,
            justification=justification,
            room=self.room,
            idempotency_key=f"agent-sdk:{tool_use_id}" if tool_use_id else None,
            expires_s=expiry_for_wait(self.wait_s),
        )
        return graded, request


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _failed(exc: BaseException) -> str:
    from bot.errors import plain_cause

    return f"the FlyBot permission check failed ({plain_cause(exc)}: {exc})".splitlines()[0]


_default: FlyBotPermissions | None = None


def _defaults() -> FlyBotPermissions:
    global _default
    if _default is None:
        _default = FlyBotPermissions()
    return _default


async def can_use_tool(
    tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext
) -> PermissionResultAllow | PermissionResultDeny:
    """:meth:`FlyBotPermissions.can_use_tool` with the defaults (built at the first call)."""
    return await _defaults().can_use_tool(tool_name, tool_input, context)


async def pre_tool_use(
    hook_input: Mapping[str, Any], tool_use_id: str | None, context: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """:meth:`FlyBotPermissions.pre_tool_use` with the defaults (built at the first call)."""
    return await _defaults().pre_tool_use(hook_input, tool_use_id, context)
