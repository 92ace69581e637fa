"""The gate shared by the agent adapters: grade a command, and above the ceiling ask FlyBot and wait.

Flow::

    grade(command)  --risk <= ceiling-->  Verdict("local")              no call but GET /v1/program-rules when the
          |                                                             copy of the rules is stale (rules_cache.py)
          |
          +--risk > ceiling, or no fresh copy of the rules (unverified)-->  POST /v1/escalations (Idempotency-Key)
               --> GET ?wait= long-polls until final or the wait budget runs out --> POST /withdraw (best effort)
               --> Verdict(...)

Only ``local`` and ``approved`` verdicts let a command through (:attr:`Verdict.approved`). Everything else -- denied,
expired, withdrawn, undeliverable, the wait running out, FlyBot unreachable, FlyBot refusing the request, no token, a
classifier crash (graded ``destructive``) -- is a "no" that each adapter maps to its own fail-closed answer.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence

from bot.risk.model import RiskLevel, requires_approval
from bot.state_home import default_state_dir
from bot.values import Frozen

TYPE_CHECKING = False  # typing and dataclasses stay unloaded: the adapters start on every tool call (bot/values.py)
if TYPE_CHECKING:
    from typing import Any, Literal

#: Where ``flybot serve`` listens by default (Settings.host/port defaults).
DEFAULT_URL = "http://127.0.0.1:8080"
#: The API's limits (bot/api/models.py) that the adapters must respect when filling the body from agent input.
MAX_SESSION_ID, MAX_JUSTIFICATION, MAX_KEY = 200, 4000, 200
#: The API's limits on ``state_paths`` (bot/api/models.py): how many, and the characters of each.
MAX_STATE_PATHS, MAX_STATE_PATH_CHARS = 8, 4096
#: The escalation's own minimum lifetime accepted by the API (``timeout_s`` >= 5).
MIN_ESCALATION_TIMEOUT_S = 5

if TYPE_CHECKING:
    Outcome = Literal[
        "local",  # at or below the ceiling: allowed without asking
        "approved",
        "denied",
        "expired",
        "withdrawn",
        "undeliverable",  # FlyBot's final statuses
        "timeout",  # still pending when the wait ran out; withdrawn (best effort)
        "unreachable",
        "refused",
        "unconfigured",  # FlyBot could not be asked
        "interrupted",  # SIGINT/SIGTERM/SIGHUP while asking; the escalation was withdrawn (best effort)
    ]

#: Outcomes in which no human decided: the adapters answer their "no decision" choice (the hook's --on-no-decision).
NO_DECISION: frozenset[str] = frozenset(
    {"timeout", "withdrawn", "undeliverable", "unreachable", "refused", "unconfigured", "interrupted"}
)


class Grade(Frozen):
    """The local grade of a command.

    Attributes:
        command: the shell text that was graded (and is sent to FlyBot).
        risk: the classifier's level (``destructive`` if the classifier failed).
        ceiling: the highest level allowed without asking.
        why: one short human line on what raised the level (empty when nothing did).
        recipes: the project recipes read while grading (``serialize`` shape), sent with the escalation.
        tool: a tool call other than Bash (``{name, input, resolved_path}``), sent as the escalation's ``tool``; None for
            a command.
        unverified: True when no fresh copy of the server's program rules and state locations was held
            (bot/hooks/rules_cache.py): the local grade alone allows nothing, so FlyBot is asked whatever the risk.
        always_asked: True when a reason is one no standing approval answers (:data:`ALWAYS_ASKED`: a secret read,
            forwarding the ssh agent): no ceiling allows it either, so FlyBot is asked whatever the ceiling.
    """

    __slots__ = ("command", "risk", "ceiling", "why", "recipes", "tool", "unverified", "always_asked")
    command: str
    risk: RiskLevel
    ceiling: RiskLevel
    why: str
    recipes: tuple[dict[str, Any], ...]
    tool: dict[str, Any] | None
    unverified: bool
    always_asked: bool

    def __init__(
        self,
        command: str,
        risk: RiskLevel,
        ceiling: RiskLevel,
        why: str = "",
        recipes: tuple[dict[str, Any], ...] = (),
        tool: dict[str, Any] | None = None,
        unverified: bool = False,
        always_asked: bool = False,
    ) -> None:
        self._init(
            command=command,
            risk=risk,
            ceiling=ceiling,
            why=why,
            recipes=recipes,
            tool=tool,
            unverified=unverified,
            always_asked=always_asked,
        )

    @property
    def needs_approval(self) -> bool:
        """True when the risk is above the ceiling (:func:`bot.risk.model.requires_approval`), or the grade is
        :attr:`unverified` or :attr:`always_asked`."""
        return self.unverified or self.always_asked or requires_approval(self.risk, self.ceiling)


#: Reasons no standing approval answers (bot/standing.py ``NEVER_COVERED_RULES``; not imported: adapters stay
#: light): no ceiling allows them at once either, ``--ceiling system`` included.
ALWAYS_ASKED = frozenset({"secret-read", "credential-forwarding"})


class Server(Frozen):
    """Where FlyBot is and the Bot token to use; ``token`` is None when none was configured."""

    __slots__ = ("url", "token")
    url: str
    token: str | None

    def __init__(self, url: str, token: str | None) -> None:
        self._init(url=url, token=token)


class Verdict(Frozen):
    """The gate's answer.

    Attributes:
        outcome: see :data:`Outcome`.
        grade: the local grade.
        escalation: the last escalation seen (the API's JSON shape), when one was created.
        detail: for ``unreachable``/``refused``/``unconfigured``: what went wrong, one line.
        waited_s: seconds actually spent asking before giving up, withdraw included (``timeout`` only); less than
            ``budget_s``, since the gate stops early to keep time for the withdraw (:mod:`bot.hooks.asking`).
        budget_s: the wait budget it was given, in seconds (``timeout`` only).
        signal: the signal's name (``interrupted`` only), e.g. ``SIGTERM``.
    """

    __slots__ = ("outcome", "grade", "escalation", "detail", "waited_s", "budget_s", "signal")
    outcome: Outcome
    grade: Grade
    escalation: dict[str, Any] | None
    detail: str
    waited_s: float
    budget_s: float
    signal: str

    def __init__(
        self,
        outcome: Outcome,
        grade: Grade,
        escalation: dict[str, Any] | None = None,
        detail: str = "",
        waited_s: float = 0.0,
        budget_s: float = 0.0,
        signal: str = "",
    ) -> None:
        self._init(
            outcome=outcome,
            grade=grade,
            escalation=escalation,
            detail=detail,
            waited_s=waited_s,
            budget_s=budget_s,
            signal=signal,
        )

    @property
    def approved(self) -> bool:
        """True only for ``local`` and ``approved``: the command may run."""
        return self.outcome in ("local", "approved")

    def describe(self) -> str:
        """One human line naming the outcome and, for decisions, who made it and why (no trailing period).

        The approver is named as people read them (``decided_by_name``: ``@Olivia``). The owner's reason and
        the approver's name are shown with hidden characters as ``⟨U+XXXX⟩`` (a newline in
        the reason is kept), since ``flybot exec``, Claude Code and Codex print this line to a person.
        """
        from bot.risk.hidden import reveal

        esc = self.escalation or {}
        ref = f"escalation {esc.get('id')}" if esc.get("id") else "no escalation"
        who = reveal(str(esc.get("decided_by_name") or esc.get("decided_by") or "an unknown approver"), multiline=False)
        reason = reveal(str(esc.get("reason") or "").strip())
        risk, ceiling = self.grade.risk.label, self.grade.ceiling.label
        match self.outcome:
            case "local":
                return f"FlyBot: {risk} is at or below the {ceiling} ceiling; allowed without asking"
            case "approved":
                if esc.get("standing_approval_id"):
                    return (
                        f"FlyBot: approved by standing approval {esc['standing_approval_id']} "
                        f"(set by {who}); {ref}, risk {esc.get('risk') or risk}"
                    )
                source = esc.get("decision_source")
                by = f"{who} ({source})" if source and source != "owner" else who
                return f"FlyBot: approved by {by}; {ref}, risk {esc.get('risk') or risk}"
            case "denied":
                because = f": {reason}" if reason else " (no reason given)"
                return f"FlyBot: denied by {who}{because}; {ref}"
            case "expired":
                return f"FlyBot: nobody decided before {ref} expired, so it is not approved"
            case "withdrawn":
                return f"FlyBot: {ref} was withdrawn before anyone decided"
            case "undeliverable":
                because = f" ({reason})" if reason else ""
                return f"FlyBot could not deliver the approval card{because}; {ref}"
            case "timeout":
                # The time really waited: the gate gives up before its budget ends, to withdraw in time (issue:
                # "--wait 8" answered after 6.2 s saying "within 8s").
                early = (
                    f" (stopped before the {self.budget_s:g}s wait ran out, to withdraw in time)"
                    if self.budget_s - self.waited_s >= 0.1
                    else ""
                )
                return f"FlyBot: no decision within {self.waited_s:g}s{early}; {ref} withdrawn"
            case "unreachable":
                return self.detail if self.detail.startswith("FlyBot") else f"FlyBot is unreachable: {self.detail}"
            case "refused":
                return f"FlyBot refused the escalation: {self.detail}"
            case "unconfigured":
                return f"FlyBot is not configured: {self.detail}"
            case "interrupted":
                done = (
                    f"{ref} withdrawn"
                    if esc.get("status") == "withdrawn"
                    else (f"{ref} left {esc.get('status')}" if esc.get("id") else "nothing was pending")
                )
                return f"FlyBot: interrupted by {self.signal or 'a signal'} before a decision; {done}"
        return f"FlyBot: unexpected outcome {self.outcome}"  # pragma: no cover - exhaustive above


# -- grading -------------------------------------------------------------------------------------------------------
#: Why a grade is ``unverified`` (:attr:`Grade.unverified`).
UNVERIFIED = (
    "FlyBot's program rules and the places of its own state could not be read, so nothing goes ahead without asking"
)


def in_directory(command: str, *, cwd: str, workspace: str) -> str:
    """``command`` as run from ``cwd`` while the workspace is ``workspace`` (both absolute): unchanged when ``cwd`` is
    the workspace root, else preceded by the line ``cd -- CWD || exit 1``, so that the classifier (and the server,
    which grades the escalation's command with its ``cwd`` as the workspace) judges every path from where the command
    really runs while the workspace stays the session's project. The directory the agent names for one call never
    widens the workspace: from ``/etc/cron.d`` or ``~/.claude`` a relative write is a write there.

    ``cwd`` is resolved (``realpath``: a link inside the workspace leads where it points); one below the workspace
    keeps the workspace's spelling, so the classifier sees it inside.
    """
    import shlex

    real_ws, real_cwd = os.path.realpath(workspace), os.path.realpath(cwd)
    if real_cwd == real_ws:
        return command
    if real_cwd.startswith(real_ws.rstrip("/") + "/"):
        real_cwd = workspace.rstrip("/") + real_cwd[len(real_ws.rstrip("/")) :]
    return f"cd -- {shlex.quote(real_cwd)} || exit 1\n{command}"


#: Exported functions in the environment (bash(1) "FUNCTIONS": ``export -f``): ``BASH_FUNC_NAME%%=() {...}``.
_FUNCTION_PREFIX, _FUNCTION_SUFFIX = "BASH_FUNC_", "%%"


def shell_startup(env: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """The variables of ``env`` (default: this process's) by which bash runs code before, or in place of, the
    command it is given: ``BASH_ENV`` (the file every non-interactive bash, ``bash -c`` included, reads first; its
    value is expanded, so ``$(...)`` in it runs: bash(1) "INVOCATION"), each exported function (``BASH_FUNC_NAME%%``:
    every bash started defines ``NAME`` from it, replacing the program of that name) and, when ``SHELLOPTS`` names
    ``xtrace``, ``SHELLOPTS`` and ``PS4`` (expanded before each command is traced). ``(name, value)`` pairs, an
    exported function under its variable's name. ``ENV`` is left out: bash and dash read it in interactive shells
    only, and an agent's shell runs its commands non-interactively."""
    env = os.environ if env is None else env
    found = [(name, value) for name, value in env.items() if name == "BASH_ENV" and value]
    found += [(n, v) for n, v in env.items() if n.startswith(_FUNCTION_PREFIX) and n.endswith(_FUNCTION_SUFFIX)]
    if "xtrace" in env.get("SHELLOPTS", "").split(":"):
        found += [(n, env[n]) for n in ("SHELLOPTS", "PS4") if n in env]
    return found


def with_shell_startup(command: str, env: Mapping[str, str] | None = None) -> str:
    """``command`` preceded by one ``export NAME=VALUE`` line for each variable :func:`shell_startup` finds (an
    exported function's as ``BASH_FUNC_NAME``, other characters of its name written ``_``), so that the classifier,
    the server and the card all see the code bash runs first (``env-hijack``: ``destructive``); unchanged when
    there is none. The agents' shells run commands with the environment their hooks get (Gemini CLI adds the
    project's ``.env`` to it)."""
    found = shell_startup(env)
    if not found:
        return command
    import re
    import shlex

    lines = []
    for name, value in found:
        if name.startswith(_FUNCTION_PREFIX):
            name = _FUNCTION_PREFIX + re.sub(
                r"[^A-Za-z0-9_]", "_", name[len(_FUNCTION_PREFIX) : -len(_FUNCTION_SUFFIX)]
            )
        lines.append(f"export {name}={shlex.quote(value)}\n")
    return "".join(lines) + command


def _sqlite_file(url: str) -> str | None:
    """The file of a SQLite ``FLYBOT_DATABASE_URL`` (``sqlite[+driver]:///PATH``, four slashes for an absolute path;
    SQLAlchemy's "SQLite" database URLs), absolute; None for another database or an in-memory one."""
    scheme, sep, rest = url.partition(":///")
    if not sep or scheme.split("+", 1)[0].lower() != "sqlite":
        return None
    path = rest.split("?", 1)[0]
    if not path or path == ":memory:":
        return None
    return os.path.abspath(os.path.expanduser(path))


def own_state_paths(env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """FlyBot's state where this adapter's environment puts it: ``FLYBOT_STATE_DIR`` (else
    :func:`bot.state_home.default_state_dir`; a hook run from its settings file has it set to the file's directory,
    bot/hooks/hook_settings.py) and the SQLite file of ``FLYBOT_DATABASE_URL`` (local mode runs the server as the
    same user), absolute, as written and with symbolic links resolved. The adapter grades them as FlyBot's own state
    (bot/risk/sensitive.py ``own_state``) with the locations the server's program-rules answer gives as digests
    (bot/hooks/rules_cache.py): a value the workspace chose (a Gemini CLI project's ``.env``) only protects more."""
    env = os.environ if env is None else env
    found: list[str] = []
    places = [env.get("FLYBOT_STATE_DIR") or default_state_dir(env), _sqlite_file(env.get("FLYBOT_DATABASE_URL", ""))]
    for place in places:
        if place and "\x00" not in place:
            absolute = os.path.abspath(os.path.expanduser(place))
            found += [absolute, os.path.realpath(absolute)]
    return tuple(found)


def grade(command: str, *, contained: bool, cwd: str, ceiling: RiskLevel, server: Server | None = None) -> Grade:
    """Grade ``command`` with FlyBot's classifier as the server does (``workspace`` = ``cwd`` when absolute).

    ``server``: where the organisation's program rules come from (bot/hooks/rules_cache.py). A command the built-in
    grade already puts above the ceiling asks, whatever the rules; one at or below it is graded again with the rules
    held (raise-only: they can only make it ask), and when no fresh copy of them can be had the grade is
    ``unverified`` and FlyBot is asked whatever the risk (fail closed: a rule FlyBot holds may raise any grade, and
    without the copy the adapter knows only the default places of FlyBot's own state, not where the server's
    settings put it, so even a read may be one of its store). None: no rules (the caller asks no one).

    The ``PATH`` of this process's environment is the one the command runs under (the agent's shell shares it; bash
    uses its default, which ends in ``.``, when there is none): a relative entry in it grades every program named
    without a ``/`` ``destructive`` (bot/risk/grader.py ``relative_path``), and is sent to the server with the
    recipes so that it grades the same. ``flybot exec`` drops such entries before grading (bot/hooks/runner.py).
    The variables by which that shell runs code of its own first (``BASH_ENV``, exported functions:
    :func:`shell_startup`) are graded, and sent, as ``export`` lines before the command (:func:`with_shell_startup`);
    ``flybot exec`` drops them too.

    Never raises: a classifier failure grades the command ``destructive`` (fail closed).
    """
    try:
        command = with_shell_startup(command)
        from bot.risk import classify
        from bot.risk.recipes import BASH_DEFAULT_PATH, ProjectRecipes
        from bot.risk.sensitive import add_own_state, add_own_state_digests

        add_own_state(own_state_paths())
        workspace = cwd if cwd.startswith("/") else None
        # The adapter runs in the session's directory, so it reads project recipes (make X, npm run X...), and its
        # environment's PATH is the one the agent's shell runs commands under (bash's own when there is none).
        session_path = os.environ.get("PATH", BASH_DEFAULT_PATH)
        recipes = ProjectRecipes(workspace, session_path) if workspace is not None else None
        assessment = classify(command, contained=contained, workspace=workspace, recipes=recipes)
        stale = ""
        if server is not None and not requires_approval(assessment.risk, ceiling):
            from bot.hooks.rules_cache import held_rules

            held = held_rules(server)
            if held.own_state is not None:  # the server's state directory and store, where its settings put them
                add_own_state_digests(held.own_state.salt, held.own_state.digests)
            if held.rules or held.own_state is not None:
                assessment = classify(
                    command, contained=contained, workspace=workspace, recipes=recipes, rules=held.rules
                )
            if not held.fresh:
                stale = UNVERIFIED
    except Exception as exc:  # noqa: BLE001 - a crash must never let a command through unasked
        return Grade(command, RiskLevel.DESTRUCTIVE, ceiling, f"the classifier failed ({type(exc).__name__})")
    top = [r for r in assessment.reasons if r.level == assessment.risk]
    why = "; ".join([f"{r.subject}: {r.detail}" for r in top[:2]] + ([stale] if stale else []))
    return Grade(
        command,
        assessment.risk,
        ceiling,
        why,
        _recipes_for_server(assessment.recipes),
        unverified=bool(stale),
        always_asked=any(r.rule in ALWAYS_ASKED for r in assessment.reasons),
    )


def grade_tool_call(
    name: str,
    tool_input: dict[str, Any],
    *,
    cwd: str,
    ceiling: RiskLevel,
    server: Server | None = None,
    workspace: str | None = None,
) -> Grade:
    """Grade a call of a tool other than Bash as the server does (bot/risk/tools.py): ``Grade.command`` is the
    tool's name and ``Grade.tool`` the call to send, with a file tool's path resolved (``realpath``, relative to
    ``cwd``) and judged against ``workspace`` (default: ``cwd``). Program rules grade MCP tools: held as for commands (:func:`grade`), and when no fresh copy of them
    can be had the grade is ``unverified`` (FlyBot is asked). Never raises: a failure grades the call
    ``destructive``."""
    try:
        from bot.risk.sensitive import add_own_state, add_own_state_digests
        from bot.risk.tools import grade_tool, tool_path

        add_own_state(own_state_paths())

        path = tool_path(name, tool_input)
        resolved = os.path.realpath(os.path.join(cwd, path)) if path is not None else None
        root = cwd if workspace is None else workspace
        workspace = os.path.realpath(root) if root.startswith("/") else None
        rules, stale = None, ""
        if server is not None:
            from bot.hooks.rules_cache import held_rules

            held = held_rules(server)
            if held.own_state is not None:
                add_own_state_digests(held.own_state.salt, held.own_state.digests)
            rules = held.rules or None
            if not held.fresh:
                stale = UNVERIFIED
        assessment = grade_tool(name, tool_input, workspace=workspace, resolved_path=resolved, rules=rules)
    except Exception as exc:  # noqa: BLE001 - a crash must never let a call through unasked
        return Grade(name, RiskLevel.DESTRUCTIVE, ceiling, f"the tool grader failed ({type(exc).__name__})")
    why = "; ".join([r.detail for r in assessment.reasons[:1]] + ([stale] if stale else []))
    call = {"name": name, "input": tool_input, "resolved_path": resolved}
    always_asked = any(r.rule in ALWAYS_ASKED for r in assessment.reasons)
    return Grade(name, assessment.risk, ceiling, why, tool=call, unverified=bool(stale), always_asked=always_asked)


#: The server's bounds on recipes (bot/api/models.py; not imported: adapters stay light).
_MAX_RECIPES, _MAX_RECIPE_LINES, _MAX_RECIPE_CHARS = 16, 64, 32 * 1024


def _recipes_for_server(recipes: Sequence[Any]) -> tuple[dict[str, Any], ...]:
    """The recipes as the escalation's ``recipes`` field, within the server's bounds.

    The classifier keeps a command's recipes within them (more recipes, longer recipes or longer lines grade
    destructive: bot/risk/programs/projects.py, bot/risk/recipes.py), so they are sent whole. Should they exceed the
    bounds all the same, recipes past :data:`_MAX_RECIPES` are left out and the longest recipes are sent as
    unreadable (one ``$FLYBOT_UNKNOWN`` line, which the server grades destructive) until they fit."""
    out = [
        {"tool": r.tool, "target": r.target[:200], "directory": r.directory, "file": r.file, "overrides": list(r.overrides),
         "lines": [{"source": x.source[:200], "command": x.command} for x in r.lines]}
        for r in recipes[:_MAX_RECIPES]
    ]  # fmt: skip

    def size(recipe: dict[str, Any]) -> int:
        return sum(len(x["command"]) for x in recipe["lines"])

    total = sum(size(r) for r in out)
    for recipe in sorted(out, key=size, reverse=True):
        if total <= _MAX_RECIPE_CHARS:
            break
        total -= size(recipe) - len(_UNKNOWN)
        recipe["lines"] = [{"source": "(too long to send: not graded by the server)", "command": _UNKNOWN}]
    return tuple(out)


_UNKNOWN = "$FLYBOT_UNKNOWN"  # bot.risk.recipes.UNKNOWN (not imported: adapters stay light)


# -- where FlyBot is -------------------------------------------------------------------------------------------------
def find_server(url: str | None, token: str | None, env: Mapping[str, str] | None = None) -> Server:
    """Resolve FlyBot's URL and token: flag, then ``FLYBOT_URL``/``FLYBOT_TOKEN``, then local mode's demo credentials.

    Local mode (``flybot serve`` without Slack) writes ``{"url", "token"}`` to ``$FLYBOT_STATE_DIR/local.json``
    (default ``$XDG_STATE_HOME/flybot/local.json``, :func:`bot.state_home.default_state_dir`), as ``flybot ask`` reads it. The URL falls back to
    :data:`DEFAULT_URL`; the token stays None when nothing provides one.
    """
    env = os.environ if env is None else env
    url = url or env.get("FLYBOT_URL") or None
    token = token or env.get("FLYBOT_TOKEN") or None
    if url is None or token is None:
        local = _local_credentials(os.path.join(env.get("FLYBOT_STATE_DIR") or default_state_dir(env), "local.json"))
        url = url or local.get("url")
        token = token or local.get("token")
    return Server(url or DEFAULT_URL, token)


def _local_credentials(path: str) -> dict[str, str]:
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}


# -- asking ----------------------------------------------------------------------------------------------------------
class Request(Frozen):
    """What to escalate, beyond the graded command.

    Attributes:
        session_id: the agent session's id (truncated to the API's 200 characters).
        cwd: the command's working directory.
        contained: the command runs in the sandbox.
        justification: why the session needs it (truncated to 4000 characters), or None.
        room: a Slack channel ID overriding the Bot's room, or None.
        idempotency_key: sent as ``Idempotency-Key`` (1-200 characters); a retry with it never posts a second card.
        expires_s: the escalation's own lifetime in seconds (at least 5).
    """

    __slots__ = ("session_id", "cwd", "contained", "justification", "room", "idempotency_key", "expires_s")
    session_id: str
    cwd: str
    contained: bool
    justification: str | None
    room: str | None
    idempotency_key: str | None
    expires_s: int

    def __init__(
        self,
        session_id: str,
        cwd: str,
        contained: bool,
        justification: str | None = None,
        room: str | None = None,
        idempotency_key: str | None = None,
        expires_s: int = 600,
    ) -> None:
        self._init(
            session_id=session_id,
            cwd=cwd,
            contained=contained,
            justification=justification,
            room=room,
            idempotency_key=idempotency_key,
            expires_s=expires_s,
        )

    def body(
        self, command: str, recipes: Sequence[dict[str, Any]] = (), tool: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The ``POST /v1/escalations`` body (file_policy ``workspace-write``, approval_policy ``ask``);
        ``recipes``: the project recipes the command runs (see :func:`grade`); ``tool``: a tool call
        (``{name, input, resolved_path}``; ``command`` is then its name, see :func:`grade_tool_call`)."""
        body: dict[str, Any] = {
            "session_id": (self.session_id or "unknown-session")[:MAX_SESSION_ID],
            "command": command,
            "cwd": self.cwd or "/",
            "file_policy": "workspace-write",
            "approval_policy": "ask",
            "contained": self.contained,
            "timeout_s": max(MIN_ESCALATION_TIMEOUT_S, self.expires_s),
        }
        if self.justification and self.justification.strip():
            body["justification"] = self.justification[:MAX_JUSTIFICATION]
        if self.room:
            body["room"] = self.room
        if recipes:
            body["recipes"] = list(recipes)
        if tool is not None:
            body["tool"] = tool
        # The adapter's own state (its token, local mode's files, its copy of the program rules) may not be where
        # the server keeps its own: the server grades a write there as the adapter does (destructive).
        places = dict.fromkeys(own_state_paths())
        state = [p for p in places if len(p) <= MAX_STATE_PATH_CHARS and p.isprintable()][:MAX_STATE_PATHS]
        if state:
            body["state_paths"] = state
        return body


def decide(graded: Grade, server: Server, request: Request, *, wait_s: float) -> Verdict:
    """The whole gate, synchronously: ``local`` without a network call, else ask FlyBot within ``wait_s`` seconds.

    ``wait_s`` bounds everything after grading: creating the escalation (retried on network errors), the long-poll,
    and the withdraw when the wait runs out. SIGINT, SIGTERM and SIGHUP while asking withdraw the escalation and
    give an ``interrupted`` verdict (:mod:`bot.hooks.asking`). Never raises for FlyBot's failures (they become
    verdicts).
    """
    early = _without_asking(graded, server, request)
    if early is not None:
        return early
    from bot.hooks.asking import ask  # asyncio and the HTTP client load only when FlyBot is asked

    return ask(graded, server, request, wait_s=wait_s)


async def decide_async(graded: Grade, server: Server, request: Request, *, wait_s: float) -> Verdict:
    """:func:`decide` for an adapter that runs its own event loop (the Agent SDK helper, bot/sdk.py): the same
    checks, then :func:`bot.hooks.asking.ask_async` (the standard-library client in a worker thread). Cancelling the
    calling task withdraws the escalation, then the cancellation goes on."""
    early = _without_asking(graded, server, request)
    if early is not None:
        return early
    from bot.hooks.asking import ask_async

    return await ask_async(graded, server, request, wait_s=wait_s)


def _without_asking(graded: Grade, server: Server, request: Request) -> Verdict | None:
    """The verdict reached before FlyBot is asked (at or below the ceiling, no token, a request FlyBot would
    refuse), or None: ask."""
    if not graded.needs_approval:
        return Verdict("local", graded)
    if not server.token:
        return Verdict("unconfigured", graded, detail="no Bot token: set FLYBOT_TOKEN or pass --token")
    from bot.request_limits import request_problem

    problem = request_problem(
        graded.command, timeout_s=max(MIN_ESCALATION_TIMEOUT_S, request.expires_s), cwd=None, justification=None
    )
    if problem is not None:  # what FlyBot would refuse is refused here, before sending, naming the limit
        return Verdict("refused", graded, detail=f"{problem} (checked before sending)")
    return None


def expiry_for_wait(wait_s: float) -> int:
    """The escalation lifetime for a gate that waits ``wait_s``: a little longer, so the gate withdraws it first."""
    return max(MIN_ESCALATION_TIMEOUT_S, math.ceil(wait_s) + 5)
