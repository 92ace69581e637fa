"""Agent tools other than shell commands, graded and described for an approval card.

An agent's tool call (Claude Code's ``Read``, ``Grep``, ``Glob``, ``Edit``, ``Write``, ``MultiEdit``,
``NotebookEdit``, ``WebFetch``, ``WebSearch``, ``Monitor``, ``ReadMcpResourceTool``, or an MCP tool
``mcp__SERVER__TOOL``) is graded from its name and
input alone (pure functions; the adapter and the server grade the same way):

==========================================  ====================  ==============================================
tool call                                   grade                 rule
==========================================  ====================  ==============================================
file edit or write inside the workspace     ``workspace_write``   ``tool-write-in-workspace``
... a git, hg or jj control file, or a      ``destructive``       ``git-control-write`` (the shell grader's rules:
coding agent's settings (``.claude``,                             paths.py ``_git_control``, grader.py
``.codex``, ``.gemini``, ``.mcp.json``)                           ``git_directory_file``)
... in a temp area                          ``system``            ``tool-write-outside-workspace``
... elsewhere outside the workspace         ``destructive``       ``overwrite-outside-workspace`` (as the same
                                                                  overwrite by a shell command)
... a protected path or credential file     ``destructive``       ``protected-path-write`` (bot/risk/sensitive.py;
(in the workspace too when the workspace                          ``workspace_protected``)
is or holds that home or system tree)
... a path that is not absolute             ``destructive``       ``tool-unknown-path``
``Read``, ``Grep``, ``Glob``: graded as     as the shell grader   ``secret-read`` for a credential file, a
``cat -- FILE``, ``grep -r -e PATTERN --    grades the command    secret or FlyBot's own state (``network``:
PATH``, ``ls -d -- PATH/GLOB``                                    the output goes to the model), else
                                                                  ``read-only``
... a path that is not known                ``destructive``       ``tool-unknown-path``
``WebFetch`` of an http(s) URL              ``network``           ``tool-network``
... whose host parsers may read differently ``destructive``       ``tool-unknown-url`` (``origin``)
``WebSearch``                               ``network``           ``tool-network``
``Monitor`` of a WebSocket ``ws.url``       ``network``           ``tool-network`` (``host:ORIGIN`` as a fetch's)
... whose host parsers may read differently ``destructive``       ``tool-unknown-url``
``ReadMcpResourceTool`` (an MCP server's    ``network``           ``tool-network``; ``secret-read`` when its
resource, read to the model)                                      arguments name a credential file
MCP tool with a program rule                the rule's grade      ``program-rule``
MCP tool without one                        ``destructive``       ``unrecognised`` (the card offers an admin to
                                                                  grade it: a program rule)
any other tool                              ``destructive``       ``unrecognised-tool``
==========================================  ====================  ==============================================

"Inside the workspace" is judged on the path as the adapter resolved it (``realpath``: a symbolic link in the
workspace that leads out is outside), given as ``resolved_path``; without one, on the path as written.

Program rules grade MCP tools by their full name: a rule for program ``mcp__github__create_issue`` (a plain word,
bot/risk/rules.py) gives that tool its grade; no other rule applies to a tool call.

A tool call's words (:func:`tool_words`), which standing approvals match as they match a command's argv
(bot/standing.py): ``tool:NAME``, then for a web fetch ``host:ORIGIN`` (:func:`origin`: scheme, host and a port
other than the scheme's default) and for a file or read tool ``path:PATH`` (the resolved path). A pattern
``tool:WebFetch host:https://docs.python.org`` covers https fetches from that host on port 443 only (not http, not
``:8443``), ``tool:WebFetch`` any fetch, ``tool:mcp__github__create_issue`` that MCP tool (once a program rule grades it below ``destructive``).
"""

from __future__ import annotations

import difflib
import json
import posixpath
import re
from urllib.parse import urlsplit

from bot.risk.grader import git_directory_file
from bot.risk.model import Assessment, Reason, RiskLevel, SimpleCommand
from bot.risk.paths import CwdState, Where, locate
from bot.risk.sensitive import credential_path, flybot_state, protected_path, workspace_protected
from bot.risk.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from bot.risk.rules import ProgramRules

__all__ = [
    "FILE_TOOLS",
    "READ_TOOLS",
    "WEB_TOOLS",
    "MCP_RESOURCE_TOOL",
    "MCP_TOOL",
    "describe_tool",
    "origin",
    "grade_tool",
    "tool_path",
    "tool_words",
    "mcp_parts",
    "TOOL_PREFIX",
]

#: File tools and the input field naming their file.
FILE_TOOLS = {"Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path", "NotebookEdit": "notebook_path"}
#: Claude Code's tools that read files, and the input field naming the file or directory (Grep and Glob search the
#: current directory without one). Their output goes to the model.
READ_TOOLS = {"Read": "file_path", "Grep": "path", "Glob": "path"}
#: A Glob ``pattern`` kept as a glob in the equivalent ``ls`` (other characters are quoted: a literal path).
_GLOB_WORD = re.compile(r"^[A-Za-z0-9_.*?/{},\[\]@+=:-]+\Z")
WEB_TOOLS = frozenset({"WebFetch", "WebSearch"})
#: Claude Code's tool that reads a resource of a configured MCP server (``{"server", "uri"}``).
MCP_RESOURCE_TOOL = "ReadMcpResourceTool"
#: An MCP tool's name as Claude Code gives it: ``mcp__SERVER__TOOL``.
MCP_TOOL = re.compile(r"^mcp__([A-Za-z0-9_-]+?)__([A-Za-z0-9_.-]+)\Z")
#: The first word of a tool call's words (and of a standing approval's pattern for a tool).
TOOL_PREFIX = "tool:"
#: Lines of a diff or of arguments shown per value before the text says how many more there are (the card cuts
#: further and its Review modal shows what the escalation holds).
_MAX_LINES = 400
_CUT = re.compile(r"\n\.\.\. (\d+) more lines\Z")


def mcp_parts(name: str) -> tuple[str, str] | None:
    """``(server, tool)`` of an MCP tool's name, or None when ``name`` is not one."""
    found = MCP_TOOL.match(name)
    return (found.group(1), found.group(2)) if found else None


def tool_path(name: str, tool_input: dict[str, Any]) -> str | None:
    """The file a file tool writes or a read tool reads, as written in its input (``.`` for a Grep or Glob without
    a ``path``: the current directory), or None (not such a tool, or no path)."""
    field = FILE_TOOLS.get(name) or READ_TOOLS.get(name)
    value = tool_input.get(field) if field else None
    if name in ("Grep", "Glob") and value in (None, ""):
        return "."
    return value if isinstance(value, str) and value else None


def _read_command(name: str, tool_input: dict[str, Any], path: str) -> str:
    """The shell command that reads what the read tool ``name`` reads from ``path`` (absolute) and prints it:
    ``cat -- FILE`` (Read), ``grep -r [--include=GLOB] -e PATTERN -- PATH`` (Grep: matching lines, or the names of
    files holding them), ``ls -d -- PATH/PATTERN`` (Glob: file names). The shell grader grades it (secrets, FlyBot's
    own state, the workspace) as it grades those commands."""
    import shlex

    if name == "Read":
        return f"cat -- {shlex.quote(path)}"
    pattern = tool_input.get("pattern")
    pattern = pattern if isinstance(pattern, str) else ""
    if name == "Grep":
        glob = tool_input.get("glob")
        include = f"--include={shlex.quote(glob)} " if isinstance(glob, str) and glob else ""
        return f"grep -r {include}-e {shlex.quote(pattern)} -- {shlex.quote(path)}"
    target = pattern if pattern.startswith("/") else posixpath.join(path, pattern or "*")
    return "ls -d -- " + (target if _GLOB_WORD.match(target) else shlex.quote(target))


def _read(
    name: str, tool_input: dict[str, Any], paths: tuple[str, ...], workspace: str | None
) -> tuple[RiskLevel, list[tuple[str, str]]]:
    """Grade and ``(rule, detail)`` reasons of a read tool reading ``paths`` (the path as the adapter resolved it
    and as written, absolute): the highest grade of the equivalent commands (:func:`_read_command`)."""
    from bot.risk import classify

    level, reasons = RiskLevel.READ_ONLY, [("read-only", f"{name} only reads.")]
    for path in paths:
        graded = classify(_read_command(name, tool_input, path), contained=False, workspace=workspace)
        if graded.risk > level:
            level = graded.risk
            reasons = [(r.rule, r.detail) for r in graded.reasons if r.level == graded.risk][:2]
    return level, reasons


def _where(path: str | None, workspace: str | None) -> tuple[RiskLevel, str, str]:
    """Grade, rule and detail of writing ``path`` (absolute, normalised here) from ``workspace``: the shell
    grader's rules for a write (bot/risk/grader.py ``Grader.write``), a tool write replacing what is there."""
    if path is None or not path.startswith("/"):
        return RiskLevel.DESTRUCTIVE, "tool-unknown-path", "writes a file whose absolute path is not known."
    path = posixpath.normpath(path)
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    state = CwdState.start(workspace if workspace is not None and workspace.startswith("/") else None)
    where = locate(Word(path, path), state)
    if where is Where.GIT_CONTROL or (where in (Where.WORKSPACE, Where.TEMP) and git_directory_file(path)):
        return (
            RiskLevel.DESTRUCTIVE,
            "git-control-write",
            f"writes {path}: git hooks and config, and coding agents' settings (.claude, .codex, .gemini, .mcp.json), make "
            "programs run later.",
        )
    if where is Where.WORKSPACE:
        why = workspace_protected(path, state.root)  # a session started in a home directory: ~/.bashrc is .bashrc
        if why is None and flybot_state(path):  # a state directory or store inside the workspace, as the shell's
            why = "FlyBot's own state (its store and local mode's files) decides what is approved"
        if why is not None:
            return RiskLevel.DESTRUCTIVE, "protected-path-write", f"writes {path}: {why}."
        return RiskLevel.WORKSPACE_WRITE, "tool-write-in-workspace", f"writes {path} inside the workspace."
    why = protected_path(path) or (f"it holds {credential_path(path)}" if credential_path(path) else None)
    if why is not None:
        return RiskLevel.DESTRUCTIVE, "protected-path-write", f"writes {path}: {why}."
    if where is Where.TEMP:
        return RiskLevel.SYSTEM, "tool-write-outside-workspace", f"writes {path} in the temp area."
    return (
        RiskLevel.DESTRUCTIVE,
        "overwrite-outside-workspace",
        f"writes {path}, outside the workspace, replacing or changing what is there.",
    )


#: Whitespace and control characters anywhere in a URL: parsers strip or keep them differently.
_UNSAFE_URL = re.compile(r"[\x00-\x20\x7f]")
#: An authority with a backslash (WHATWG reads it as ``/`` in an http URL, Python's urlsplit as part of the
#: authority), userinfo (``@``) or a percent escape: parsers disagree on where the host is.
_UNSAFE_AUTHORITY = re.compile(r"[\\@%]")


#: A host name's labels (letters, digits, ``-``, ``_``), or an IPv6 literal in brackets.
_HOST_NAME = re.compile(r"^(?:[a-z0-9_-]+\.)*[a-z0-9_-]+\Z")
_IPV6 = re.compile(r"^\[[0-9a-f:.]+\]\Z")
#: A last label the WHATWG URL parser reads as a number, so the host as an IPv4 address (``2130706433``, ``0x7f.1``).
_NUMERIC_LABEL = re.compile(r"^(?:0x[0-9a-f]*|[0-9]+)\Z")
_DOTTED_QUAD = re.compile(
    r"^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\Z"
)
#: The port an http(s) URL without one uses (RFC 9110 4.2.1, 4.2.2).
DEFAULT_PORTS = {"http": 80, "https": 443}
_PORT = re.compile(r"^[0-9]{0,5}\Z")


#: The port a WebSocket URL without one uses (RFC 6455 3), for Claude Code's ``Monitor`` tool.
WEBSOCKET_PORTS = {"ws": 80, "wss": 443}


def _origin_parts(url: object, ports: dict[str, int] = DEFAULT_PORTS) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an http(s) URL, lower case, the port given or the scheme's default, one trailing
    dot of the host dropped (``docs.example.com.`` is the same DNS name); None for any URL that parsers may read
    as another host: any non-ASCII (an IDN is shown by its ``xn--`` form only when written so), whitespace or
    control character; a backslash, ``@`` (userinfo) or ``%`` in its authority; a host that is not plain labels or
    an IPv6 literal, has an empty label, or ends in a number without being a dotted-quad IPv4 address (the WHATWG
    URL parser reads ``2130706433`` and ``0x7f.1`` as 127.0.0.1); a port that is not 1-65535 in digits."""
    if not isinstance(url, str):
        return None
    url = url.strip()
    if not url.isascii() or _UNSAFE_URL.search(url):
        return None
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ports or not host or _UNSAFE_AUTHORITY.search(parts.netloc):
        return None
    host = host.lower()
    if ":" in host:
        host = f"[{host}]"
        if not _IPV6.match(host):
            return None
    else:
        host = host[:-1] if host.endswith(".") else host
        if not _HOST_NAME.match(host):
            return None
        if _NUMERIC_LABEL.match(host.rsplit(".", 1)[-1]) and not _DOTTED_QUAD.match(host):
            return None
    after_host = parts.netloc.rsplit("]", 1)[-1]
    given = after_host.rpartition(":")[2] if ":" in after_host else ""
    if not _PORT.match(given):
        return None
    port = int(given) if given else ports[scheme]
    if not 0 < port < 65536:
        return None
    return scheme, host, port


def origin(url: object, ports: dict[str, int] = DEFAULT_PORTS) -> str | None:
    """The origin of an http(s) URL as a standing approval names it: ``SCHEME://HOST``, then ``:PORT`` unless the
    scheme's default port (``https://docs.example.com``, ``http://docs.example.com:8080``); None when
    :func:`_origin_parts` finds no host every parser agrees on. A fetch's origin is its scheme, host and port
    (RFC 6454 4): an approval for ``https://docs.example.com`` never covers ``http://docs.example.com`` nor another
    port. ``ports``: the schemes accepted and their default ports (:data:`WEBSOCKET_PORTS` for a WebSocket URL)."""
    found = _origin_parts(url, ports)
    if found is None:
        return None
    scheme, host, port = found
    return f"{scheme}://{host}" + ("" if port == ports[scheme] else f":{port}")


def monitor_socket(tool_input: dict[str, Any]) -> str | None:
    """The origin of the WebSocket a ``Monitor`` call opens (``ws.url``, a ``ws``/``wss`` URL: :func:`origin`), or
    None: no such URL, one parsers may read differently, or a ``command`` given too."""
    ws = tool_input.get("ws")
    if not isinstance(ws, dict) or "command" in tool_input:
        return None
    return origin(ws.get("url"), WEBSOCKET_PORTS)


def tool_words(name: str, tool_input: dict[str, Any], resolved_path: str | None = None) -> tuple[str, ...]:
    """The words standing approvals match for this tool call (module docstring)."""
    words = [TOOL_PREFIX + name]
    if name in ("WebFetch", "Monitor"):
        found = origin(tool_input.get("url")) if name == "WebFetch" else monitor_socket(tool_input)
        if found is not None:
            words.append("host:" + found)
    elif name in FILE_TOOLS or name in READ_TOOLS:
        path = resolved_path or tool_path(name, tool_input)
        if path is not None and path.startswith("/"):
            words.append("path:" + posixpath.normpath(path))
    return tuple(words)


def _read_paths(name: str, tool_input: dict[str, Any], workspace: str | None, resolved: str | None) -> tuple[str, ...]:
    """The absolute paths a read tool's call names: as resolved and as written (relative to ``workspace``)."""
    written = tool_path(name, tool_input)
    if written is not None and not written.startswith("/") and workspace is not None and workspace.startswith("/"):
        written = posixpath.join(workspace, written)
    found = [p for p in (resolved, written) if p is not None and p.startswith("/")]
    return tuple(dict.fromkeys(posixpath.normpath(p) for p in found))


def grade_tool(
    name: str,
    tool_input: dict[str, Any],
    *,
    workspace: str | None,
    resolved_path: str | None = None,
    rules: ProgramRules | None = None,
) -> Assessment:
    """The grade of one tool call (module docstring's table); never raises."""
    words = tool_words(name, tool_input, resolved_path)
    subject = " ".join(words)
    more: list[tuple[str, str]] = []  # a read tool's further reasons at its level
    if name in FILE_TOOLS:
        level, rule, detail = _where(resolved_path or tool_path(name, tool_input), workspace)
        detail = f"{name} {detail}"
    elif name in READ_TOOLS:
        paths = _read_paths(name, tool_input, workspace, resolved_path)
        if not paths:
            level, rule, detail = RiskLevel.DESTRUCTIVE, "tool-unknown-path", f"{name} reads a path that is not known."
        else:
            level, read_reasons = _read(name, tool_input, paths, workspace)
            (rule, detail), more = read_reasons[0], read_reasons[1:]
    elif name == "WebFetch":
        fetched = origin(tool_input.get("url"))
        if fetched is None:
            level, rule, detail = (
                RiskLevel.DESTRUCTIVE,
                "tool-unknown-url",
                "WebFetch of something that is not an http(s) URL with a host.",
            )
        else:
            level, rule, detail = RiskLevel.NETWORK, "tool-network", f"WebFetch reads {fetched} over the network."
    elif name == "WebSearch":
        level, rule, detail = RiskLevel.NETWORK, "tool-network", "WebSearch sends a query over the network."
    elif name == MCP_RESOURCE_TOOL:
        server, uri = tool_input.get("server"), tool_input.get("uri")
        level, rule = RiskLevel.NETWORK, "tool-network"
        detail = (
            f"{name} reads the resource {str(uri)[:200]!r} of the MCP server {str(server)[:100]!r}: what it returns "
            "goes to the model provider."
        )
        secret = _names_secret(tool_input)
        if secret is not None:
            more.append(("secret-read", f"{name}'s arguments name {secret}: what it reads goes to the model."))
    elif name == "Monitor":  # its shell command form reaches the adapters as a Bash call (bot/hooks/claude_code.py)
        opened = monitor_socket(tool_input)
        if opened is None:
            level, rule, detail = (
                RiskLevel.DESTRUCTIVE,
                "tool-unknown-url",
                "Monitor of something that is not one ws(s) URL with a host.",
            )
        else:
            level, rule = RiskLevel.NETWORK, "tool-network"
            detail = f"Monitor opens a WebSocket to {opened}: the URL and what it receives cross the network."
    else:
        found = rules.find(name, None) if rules is not None and mcp_parts(name) is not None else None
        if found is not None:
            level, rule = found.level, "program-rule"
            detail = f"graded {found.level.label} by {found.set_by}'s program rule for {name}."
            secret = _names_secret(tool_input)
            if secret is not None:  # as a ruled program's operands (docs/standing-approvals.md "Program rules")
                more.append(("secret-read", f"{name}'s arguments name {secret}: what it reads goes to the model."))
        else:
            level = RiskLevel.DESTRUCTIVE
            if mcp_parts(name) is not None:  # worded as the grader words a program: the card offers to grade it
                rule, detail = "unrecognised", f"{name} is not a recognised program."
            else:
                rule, detail = "unrecognised-tool", f"FlyBot does not know what the tool {name} does."
    reasons = [Reason(subject, r, level, d) for r, d in [(rule, detail), *more]]
    if name not in READ_TOOLS and any(r == "secret-read" for r, _d in more):  # MCP arguments (_names_secret)
        reasons = [Reason(subject, rule, level, detail), Reason(subject, more[0][0], RiskLevel.NETWORK, more[0][1])]
        level = max(level, RiskLevel.NETWORK)
    shown = describe_tool(name, tool_input, workspace=workspace, resolved_path=resolved_path)
    cut = _CUT.search(shown) if level > RiskLevel.WORKSPACE_WRITE else None
    if cut is not None:  # a card shows what the call does: a part it cannot show is a part nobody approved
        level = RiskLevel.DESTRUCTIVE
        reasons.append(
            Reason(
                subject,
                "too-long-to-show",
                level,
                f"{cut.group(1)} lines of the call are past what the card shows; approving would run them unseen.",
            )
        )
    command = SimpleCommand(words, subject, level)
    return Assessment(level, tuple(reasons), (command,))


def _lines(text: str) -> list[str]:
    return text.splitlines() or [""]


def _diff(path: str, old: str, new: str) -> list[str]:
    return list(difflib.unified_diff(_lines(old), _lines(new), fromfile=path, tofile=path, lineterm="", n=2))


def _capped(lines: list[str]) -> str:
    if len(lines) > _MAX_LINES:
        lines = [*lines[:_MAX_LINES], f"... {len(lines) - _MAX_LINES} more lines"]
    return "\n".join(lines)


def describe_tool(
    name: str, tool_input: dict[str, Any], *, workspace: str | None, resolved_path: str | None = None
) -> str:
    """What the card shows as the call, exactly as the agent will make it: the tool and its target on the first
    line, then the diff (a file tool), the prompt (a web fetch) or the arguments as JSON with every non-ASCII
    character escaped (``\\uXXXX``, so nothing hidden reaches the card). Pure; never raises."""
    if name in FILE_TOOLS:
        path = tool_path(name, tool_input) or "(no path)"
        shown = resolved_path or path
        target = resolved_path or tool_path(name, tool_input)
        _level, rule, _detail = _where(target, workspace)
        root = posixpath.normpath(workspace) if workspace is not None and workspace.startswith("/") else None
        inside = (
            root is not None
            and target is not None
            and (posixpath.normpath(target) + "/").startswith(root.rstrip("/") + "/")
        )
        place = (
            "inside the workspace"
            if rule == "tool-write-in-workspace" or (rule in ("git-control-write", "protected-path-write") and inside)
            else "path not known"
            if rule == "tool-unknown-path"
            else "outside the workspace"
        )
        head = f"{name} {shown} ({place})" + (f", written as {path}" if resolved_path and resolved_path != path else "")
        if name == "Edit":
            body = _diff(shown, str(tool_input.get("old_string", "")), str(tool_input.get("new_string", "")))
            if tool_input.get("replace_all") is True:
                head += ", every occurrence"
        elif name == "MultiEdit":
            body = []
            edits = tool_input.get("edits")
            for edit in edits if isinstance(edits, list) else []:
                if isinstance(edit, dict):
                    body += _diff(shown, str(edit.get("old_string", "")), str(edit.get("new_string", "")))
        elif name == "Write":
            body = [
                f"--- {shown}",
                f"+++ {shown} (the whole new content)",
                *("+" + line for line in _lines(str(tool_input.get("content", "")))),
            ]
        else:
            mode = str(tool_input.get("edit_mode") or "replace")
            cell = str(tool_input.get("cell_id") or "(first cell)")
            body = [f"{mode} cell {cell}:", *("+" + line for line in _lines(str(tool_input.get("new_source", ""))))]
        return head + "\n" + _capped(body)
    if name in READ_TOOLS:
        path = tool_path(name, tool_input) or "(no path)"
        shown = resolved_path or path
        root = posixpath.normpath(workspace) if workspace is not None and workspace.startswith("/") else None
        target = posixpath.normpath(posixpath.join(root or "/", shown)) if root or shown.startswith("/") else None
        inside = root is not None and target is not None and (target + "/").startswith(root.rstrip("/") + "/")
        place = "inside the workspace" if inside else "outside the workspace" if target else "path not known"
        head = f"{name} {shown} ({place})" + (f", written as {path}" if resolved_path and resolved_path != path else "")
        arguments = json.dumps(tool_input, ensure_ascii=True, indent=2, sort_keys=True)
        return head + "\nArguments:\n" + _capped(arguments.splitlines())
    if name == "WebFetch":
        url = str(tool_input.get("url", ""))
        host = origin(url) or "(no host)"
        prompt = str(tool_input.get("prompt", ""))
        return f"WebFetch {url}\nHost: {host}" + (f"\nPrompt: {prompt}" if prompt else "")
    if name == "WebSearch":
        return "WebSearch " + json.dumps(tool_input, ensure_ascii=True, indent=2, sort_keys=True)
    parts = mcp_parts(name)
    head = f"MCP tool {parts[1]} of server {parts[0]} ({name})" if parts else f"Tool {name}"
    arguments = json.dumps(tool_input, ensure_ascii=True, indent=2, sort_keys=True)
    return head + "\nArguments:\n" + _capped(arguments.splitlines())


def _names_secret(tool_input: dict[str, Any]) -> str | None:
    """What secret an MCP tool's arguments name, as a ruled program's operands are judged (bot/risk/sensitive.py):
    a word of any string in them (keys and values, nested) that names a credential file (``~/.ssh/id_rsa``,
    ``/home/u/.aws/credentials``, ``.env``) or a cloud instance metadata service; None when none does. FlyBot does
    not know what the tool does with its arguments, so naming one counts as reading it (fail closed)."""
    from bot.risk.sensitive import credential_path, env_file, metadata_endpoint

    stack: list[Any] = [tool_input]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            endpoint = metadata_endpoint(item)
            if endpoint is not None:
                return f"{endpoint}, a cloud instance metadata service"
            for word in item.split():
                what = credential_path(word.strip("\"'`()[]{}<>,;")) or env_file(word.strip("\"'`()[]{}<>,;"))
                if what is not None:
                    return f"{word[:80]} ({what})"
    return None
