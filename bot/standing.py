"""Standing approvals: answer safe repeats without asking, never the dangerous one.

Rules:
- a standing approval covers at most ``system``; ``destructive`` always asks, whatever exists, and so does a command
  that reads a secret (:data:`NEVER_COVERED_RULES`);
- ``contained_only`` (the default) covers only commands that run in the sandbox;
- the classifier's grade is used, never the session's claim;
- a compound command is covered only if EVERY simple command in it is covered (each by some live approval
  whose pattern prefixes its argv and whose ``max_risk`` is at least its grade, and the whole script's grade is
  within the highest ``max_risk`` used);
- a pattern covers what its words say and no more: a word that changes what the subcommand means
  (bot/risk/meaning.py, an allowlist: any option or operand not listed there as plain, such as
  ``apt-get install jq=1.0-old``, ``pip install --index-url ...``, ``git push --forc``) is covered only when the
  pattern spells it out; a pattern that names operands (``apt-get install jq``, ``systemctl restart nginx``,
  ``curl https://api.example.com/health``) covers exactly those operands, no further one, and for curl and wget
  no further URL or transfer (bot/risk/meaning.py ``extra_operands``); and a command whose redirect writes outside
  the workspace or opens a socket (``SimpleCommand.marks``) only by ``*``;
- no approval, ``*`` included, covers a command that runs with environment variables this command line sets
  (``HOME=/tmp/x git push``, ``export RUSTC_WRAPPER=...; cargo install``, ``env X=... cmd``), but for names that
  only change output, locale or time zone (bot/risk/recipes.py ``INERT_ENVIRONMENT``), or that runs in a directory
  outside the workspace or only known when it runs (``cd /tmp/x && git push``, ``pushd $D; make``: the program
  reads its configuration, hooks and plugins from there) unless the program reads nothing there
  (:data:`PLACE_INDEPENDENT`: ``cd /srv/app && sudo apt-get install -y jq``); for ``git``, after any ``cd``
  (``cd sub && git push``: a bare copy of the repository there has hooks of its own); nor one whose workspace
  settings choose code it runs, as the adapter reports them (bot/risk/settings.py: ``.npmrc`` ``registry``,
  ``.cargo/config.toml``, ``rust-toolchain.toml``, a ``pre-push`` hook, a push to a name no remote has), or that
  the adapter did not report (an API caller: fail closed);
- a pattern whose first word is a wrapper, shell or interpreter (:data:`NEVER_MATCHES`) is refused: the command
  it runs is what gets matched;
- room-wide approvals: admins only (``FLYBOT_ADMINS``, or a Slack workspace admin/owner by ``users.info``);
  Bot-wide and session ones: that Bot's owners or admins.
"""

from __future__ import annotations

import re
import shlex
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

import structlog

from bot.errors import Conflict, InvalidRequest, NotAllowed, NotFound
from bot.groups import GroupCheckTooSlow, OwnerGroups, owns
from bot.risk import Reason, RiskLevel, SimpleCommand, classify
from bot.risk.grader import inert_environment
from bot.risk.hidden import hidden_characters
from bot.risk.meaning import URL_PROGRAMS, changing_words, extra_operands
from bot.risk.model import Runner
from bot.risk.rules import ProgramRules, rules_of
from bot.risk.tools import TOOL_PREFIX
from bot.store import Bot, StandingApproval, Store, Tx
from bot.store.cache import StoreCache

log = structlog.get_logger("flybot.standing")

MAX_STANDING_RISK = RiskLevel.SYSTEM
DEFAULT_MAX_RISK = RiskLevel.WORKSPACE_WRITE
MAX_EXPIRY = timedelta(days=365)
SESSION_APPROVAL_TTL = timedelta(hours=12)
OWN_CHAT_IDENTITY = (
    "This Bot's own chat identity cannot approve for it (its requests, standing approvals that would "
    "answer them, its blocked host); an owner or an admin must."
)
"""The refusal when a Bot's ``--chat-user`` approves for its own Bot, on every surface."""
_DURATION = re.compile(r"^\s*(\d{1,6})\s*([smhdw])\s*$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
_PATTERN_WORD = re.compile(r"^[A-Za-z0-9_@%+=:,./-]+\Z")


def parse_duration(text: str) -> timedelta:
    """``30m``, ``12h``, ``7d``, ``2w`` -> timedelta (at most 365 days).

    Raises:
        InvalidRequest: anything else, or zero, or over a year.
    """
    found = _DURATION.match(text or "")
    if not found:
        raise InvalidRequest(f"expiry {text!r}: use a number and a unit, like 30m, 12h, 7d or 2w", field="expires")
    value = timedelta(**{_UNITS[found.group(2)]: int(found.group(1))})
    if value <= timedelta(0) or value > MAX_EXPIRY:
        raise InvalidRequest("expiry must be more than zero and at most 365d", field="expires")
    return value


MAX_NOTE = 500
"""Longest note on a standing approval or a program rule (characters, after stripping blanks at both ends)."""


def parse_note(text: str | None, limit: int = MAX_NOTE) -> str | None:
    """A note as stored: blanks at both ends stripped, None when nothing is left.

    A note is shown later on other surfaces (the API, ``flybot standing list``, ``/flybot rules``), often after the
    author has gone, so it must read as what it is: one line of printable characters. Newlines, tabs, control
    characters and every hidden character of :mod:`bot.risk.hidden` (bidirectional controls, zero-width and tag
    characters, spaces other than U+0020) are refused, naming the first one.

    Raises:
        InvalidRequest: ``field="note"``, over ``limit`` characters or holding such a character.
    """
    note = (text or "").strip()
    if not note:
        return None
    if len(note) > limit:
        raise InvalidRequest(f"note: at most {limit} characters", field="note")
    hidden = hidden_characters(note, multiline=False)
    if hidden:
        raise InvalidRequest(
            f"note: one line of printable text; character {hidden[0]} (a newline, control or hidden character) "
            "is not allowed",
            field="note",
        )
    return note


@lru_cache(maxsize=4096)  # every auto-answer matched each live approval's pattern again (shlex: 3% of its CPU)
def parse_pattern(text: str) -> tuple[str, ...]:
    """A pattern's argv words: ``"apt-get install"`` -> ``("apt-get", "install")``; ``"*"`` -> ``()`` (any command).

    Raises:
        InvalidRequest: empty, unbalanced quotes, more than 8 words, or shell syntax in a word.
    """
    stripped = (text or "").strip()
    if stripped == "*":
        return ()
    try:
        words = tuple(shlex.split(stripped))
    except ValueError:
        raise InvalidRequest(f"pattern {text!r}: unbalanced quotes", field="pattern") from None
    if not words:
        raise InvalidRequest(
            "pattern: give the command's first words (e.g. 'apt-get install') or * for any", field="pattern"
        )
    if len(words) > 8:
        raise InvalidRequest("pattern: at most 8 words", field="pattern")
    for word in words:
        if not _PATTERN_WORD.match(word):
            raise InvalidRequest(f"pattern word {word!r}: only plain command words, no shell syntax", field="pattern")
    return words


def format_pattern(words: Sequence[str]) -> str:
    """The stored form of a pattern (``*`` for any)."""
    return " ".join(words) if words else "*"


def parse_max_risk(text: str | None) -> RiskLevel:
    """A ``max_risk`` value: a level up to ``system``; default ``workspace_write``.

    Raises:
        InvalidRequest: an unknown level, or ``destructive`` (a standing approval never covers it).
    """
    if text is None or text == "":
        return DEFAULT_MAX_RISK
    valid = ", ".join(level.label for level in RiskLevel if level <= MAX_STANDING_RISK)
    try:
        level = RiskLevel.parse(text)
    except ValueError:
        raise InvalidRequest(f"unknown risk level {text!r}; use one of: {valid}", field="max_risk") from None
    if level > MAX_STANDING_RISK:
        raise InvalidRequest(
            f"max risk {level.label}: a standing approval never covers destructive commands (they always ask), "
            f"so it could never match; use one of: {valid}",
            field="max_risk",
        )
    return level


_WRAPPERS = frozenset({
    "sudo", "su", "env", "eval", "exec", "command", "builtin", "xargs", "nohup", "time", "timeout", "nice", "ionice",
    "stdbuf", "setsid", "watch", "parallel", "script", "npx", "arch",
})  # fmt: skip
_INTERPRETERS = frozenset({
    "bash", "sh", "zsh", "dash", "python", "python2", "python3", "node", "nodejs", "perl", "ruby", "php",
    *(f"python3.{minor}" for minor in range(6, 15)),
})  # fmt: skip
NEVER_MATCHES = _WRAPPERS | _INTERPRETERS
"""First words a pattern may not start with: the classifier looks through these wrappers (bot/risk/programs/
wrappers.py: ``sudo apt-get install`` is listed as ``apt-get install``, ``npx eslint`` as ``eslint``) and shells and
interpreters (``bash -c '...'`` as its inner commands, ``python -m pytest`` as ``pytest``; a script file or inline
code grades destructive), so a standing approval is matched against the command they run, never against them."""


def check_can_match(words: Sequence[str], rules: ProgramRules | None = None) -> None:
    """Refuse a pattern that could never match: its first word is a wrapper, shell or interpreter
    (:data:`NEVER_MATCHES`), or its words alone already grade ``destructive`` (even contained), and destructive
    commands always ask: such a pattern would be saved and never answer anything.

    The classifier grades a command at least as high as its first words for deletion, unrecognised programs
    and program paths, which is what makes a pattern like ``rm -rf``, ``git clean`` or ``./build.sh`` hopeless;
    ``rules``: the organisation's program rules (a program a rule grades is no longer unrecognised).

    Raises:
        InvalidRequest: with the reason, naming the pattern.
    """
    if not words:
        return
    pattern = shlex.join(words)
    first = words[0]
    if first.startswith(TOOL_PREFIX):
        _check_tool_pattern(words, pattern, rules)
        return
    if first in _WRAPPERS:
        example = (
            "apt-get install"
            if first in ("sudo", "su", "env", "exec", "command", "nohup", "time", "timeout")
            else "make"
        )
        raise InvalidRequest(
            f"pattern `{pattern}` could never match: {first} runs another command, and standing approvals are "
            f"matched against that command (give its words instead, e.g. `{example}`)",
            field="pattern",
        )
    if first in _INTERPRETERS:
        raise InvalidRequest(
            f"pattern `{pattern}` could never match: {first} runs a script, inline code or a module; the commands "
            "inside are what standing approvals are matched against (`python -m pytest` is matched by `pytest`), "
            "and a script file or inline code always asks",
            field="pattern",
        )
    verdict = classify(pattern, contained=True, rules=rules)
    if verdict.risk < RiskLevel.DESTRUCTIVE:
        return
    why = next((r.detail.rstrip(".") for r in verdict.reasons if r.level >= RiskLevel.DESTRUCTIVE), "")
    because = f" ({why})" if why else ""
    raise InvalidRequest(
        f"pattern `{pattern}` is destructive{because}: destructive commands always ask, so this standing approval "
        "could never match",
        field="pattern",
    )


def _check_tool_pattern(words: Sequence[str], pattern: str, rules: ProgramRules | None) -> None:
    """A tool pattern (bot/risk/tools.py ``tool_words``): ``tool:NAME``, then for ``WebFetch`` one ``host:ORIGIN``
    (``host:https://docs.python.org``, ``host:http://localhost:8000``: scheme, host and a port other than the
    scheme's default, as ``tools.origin`` writes it), for ``Monitor`` one WebSocket origin (``host:wss://HOST``) and for a file or read tool one ``path:/ABSOLUTE``; refused when it
    names no tool FlyBot grades below destructive (an MCP tool without a program rule) or holds other words.

    Raises:
        InvalidRequest: with the reason, naming the pattern.
    """
    from bot.risk.tools import (
        FILE_TOOLS,
        MCP_RESOURCE_TOOL,
        READ_TOOLS,
        WEB_TOOLS,
        WEBSOCKET_PORTS,
        grade_tool,
        mcp_parts,
        origin,
    )

    name = words[0][len(TOOL_PREFIX) :]
    extra = {"WebFetch": "host:", "Monitor": "host:"}.get(name) or (
        "path:/" if name in FILE_TOOLS or name in READ_TOOLS else None
    )
    if len(words) > 2 or (
        len(words) == 2 and (extra is None or not words[1].startswith(extra) or len(words[1]) == len(extra))
    ):
        raise InvalidRequest(
            f"pattern `{pattern}`: a tool pattern is tool:NAME, then host:ORIGIN for WebFetch or Monitor or path:/FILE for a file "
            "tool, and nothing else",
            field="pattern",
        )
    if name == "Monitor" and len(words) == 2:
        given = words[1][len("host:") :]
        if origin(given, WEBSOCKET_PORTS) != given:
            raise InvalidRequest(
                f"pattern `{pattern}`: a Monitor pattern names the WebSocket origin it covers, host:ws://HOST or "
                "host:wss://HOST, then :PORT when it is not the scheme's default",
                field="pattern",
            )
    if name == "WebFetch" and len(words) == 2:
        given = words[1][len("host:") :]
        if origin(given) != given:
            written = origin(given if "://" in given else f"https://{given}")
            instead = f" (e.g. `tool:WebFetch host:{written}`)" if written else ""
            raise InvalidRequest(
                f"pattern `{pattern}`: a WebFetch pattern names the origin it covers, host:SCHEME://HOST, then :PORT "
                f"when it is not the scheme's default{instead}; it covers that scheme and port only",
                field="pattern",
            )
    if name in FILE_TOOLS or name in READ_TOOLS or name in WEB_TOOLS or name in ("Monitor", MCP_RESOURCE_TOOL):
        return
    if mcp_parts(name) is None:
        raise InvalidRequest(
            f"pattern `{pattern}`: {name} is not a tool FlyBot grades (Read, Grep, Glob, Edit, Write, MultiEdit, "
            "NotebookEdit, WebFetch, WebSearch, Monitor, ReadMcpResourceTool, or an MCP tool mcp__SERVER__TOOL)",
            field="pattern",
        )
    if grade_tool(name, {}, workspace=None, rules=rules).risk >= RiskLevel.DESTRUCTIVE:
        raise InvalidRequest(
            f"pattern `{pattern}` could never match: FlyBot does not know what {name} does, so it always asks; an "
            f"admin's program rule for {name} grades it first",
            field="pattern",
        )


NEVER_COVERED_RULES = frozenset({"secret-read", "credential-forwarding"})
"""Reasons no standing approval answers, ``*`` up to ``system`` included: reading a credential file or a secret
variable (bot/risk/sensitive.py) sends the secret to the model provider, so each such read is asked for; handing
this machine's ssh agent to another machine or to a build's steps (``ssh -A``, ``-o ForwardAgent=yes``, ``docker
build --ssh default``: programs/net.py, programs/control.py) lets code the agent chose use every loaded key, which
no pattern's words say (``docker build`` does not say ``--ssh default``)."""


def never_covered(reasons: Sequence[Reason]) -> Reason | None:
    """The first reason of :data:`NEVER_COVERED_RULES` among ``reasons``, or None."""
    return next((reason for reason in reasons if reason.rule in NEVER_COVERED_RULES), None)


NO_COVER_NEEDED = frozenset({"cd", "pushd", "popd", "export", "set", "true", ":"})
"""Navigation and no-op builtins that need no cover when they grade ``read_only``: "Approve for this session"
on ``cd /srv/app && sudo apt-get install -y jq`` saves ``sudo apt-get install -y jq``, not ``cd /srv/app``, so
the same command is answered next time. One that grades higher (``export LD_PRELOAD=...``, ``export PATH=...``)
still needs cover, like any command."""


def needs_cover(command: SimpleCommand) -> bool:
    """True unless ``command`` is a :data:`NO_COVER_NEEDED` builtin, unwrapped, graded ``read_only``."""
    return not (
        command.argv
        and command.argv[0] in NO_COVER_NEEDED
        and not command.wrappers
        and command.risk <= RiskLevel.READ_ONLY
    )


def suggest_patterns(commands: Sequence[SimpleCommand]) -> list[str]:
    """One pattern per part of a command that needs cover, in order, without repeats; [] when a part that needs
    cover has no plain command prefix (then no pattern list could answer the command again).

    Each pattern is the part's name and subcommand: ``apt-get install -y jq`` -> ``apt-get install``;
    ``npm test`` -> ``npm test``; ``make`` -> ``make``; when a word changes what the subcommand means
    (bot/risk/meaning.py) the pattern runs up to it (``pip install -i https://x y`` -> ``pip install -i
    https://x``), so that it covers the command again; for ``curl``, ``wget``, HTTPie and xh with any word after
    the name, the whole command (``curl -s https://api.example.com/x``: that URL only, never every URL); [] for a
    command whose redirect writes outside the
    workspace (only ``*`` covers it), that does not run as written (:func:`runs_as_written`: none covers it), that
    is reached through a wrapper no approval looks through (:data:`LOCAL_WRAPPERS`: ``sudo -E``, ``xargs``), or
    that starts with a :data:`NEVER_MATCHES` word (``env`` alone,
    ``python --version``: such a pattern is refused). ``cd /srv/app && sudo apt-get install -y jq && make`` ->
    ``["apt-get install", "make"]`` (never ``cd``: :func:`needs_cover`). A project recipe's line (``pytest -q`` run
    by ``make test``) adds no pattern: its recipe's command's pattern covers it when it can be covered at all
    (:func:`covers_command`), else [].
    """
    patterns: list[str] = []
    for command in commands:
        if not needs_cover(command):
            continue
        if command.runners:
            # a recipe's line: covered through its recipe's command, whose own pattern is suggested for it
            runner = command.runners[0]
            runner_words = _suggested_words(runner.argv)
            if runner_words is None or not _line_coverable(command) or not _covers_runner(runner_words, runner):
                return []
            continue
        if not command.argv or command.marks or command.argv[0] in NEVER_MATCHES or not runs_as_written(command):
            return []
        if any(wrapper not in LOCAL_WRAPPERS for wrapper in command.wrappers):
            return []  # reached through ssh, xargs, sudo -E ...: no pattern covers it
        words = _suggested_words(command.argv)
        if words is None:
            return []
        pattern = format_pattern(words)
        if pattern not in patterns:
            patterns.append(pattern)
    return patterns


def _suggested_words(argv: tuple[str, ...]) -> tuple[str, ...] | None:
    """The pattern :func:`suggest_patterns` offers for ``argv`` (see there), or None when it has none."""
    if not argv:
        return None
    words = _own_words(argv)
    changing = changing_words(argv)
    if changing and changing[-1] >= len(words):
        words = argv[: changing[-1] + 1]  # the pattern spells out what changes the meaning
    if extra_operands(words, argv) or (words[0] in URL_PROGRAMS and len(argv) > 1):
        # a pattern naming an operand covers exactly the operands it names; for curl, wget, HTTPie and xh the
        # URL is spelt out whatever comes before it (``curl -s URL``), never ``curl`` alone (any URL)
        words = argv
    if len(words) > 8 or not all(_PATTERN_WORD.match(w) for w in words):
        return None
    return words


def suggest_pattern(commands: Sequence[SimpleCommand]) -> str:
    """The prefilled pattern for a card's "Always for this Bot": the first part that needs cover
    (:func:`suggest_patterns`), or "" when there is none."""
    patterns = suggest_patterns(commands)
    return patterns[0] if patterns else ""


LOCAL_WRAPPERS = frozenset(
    {
        "sudo",
        "env",
        "timeout",
        "nice",
        "nohup",
        "stdbuf",
        "time",
        "ionice",
        "setsid",
        "command",
        "builtin",
        "exec",
        "eval",
        "bash -c",
        "sh -c",
        "zsh -c",
        "dash -c",
    }
)
"""Wrappers a standing approval may look through: they run the wrapped command on this machine, as is. A command
reached through any other wrapper (``ssh HOST``, ``xargs``, ``find -exec``, ``git rebase --exec``, ``trap`` ...) runs
elsewhere or under someone else's control, and is never covered (``ssh prod systemctl stop``)."""


PLACE_INDEPENDENT = frozenset({"apt", "apt-get", "dnf", "yum", "pacman", "snap", "systemctl"})
"""Programs that read nothing from their working directory once their operands are plain names
(bot/risk/meaning.py): their configuration, hooks and plugins come from /etc (apt-get(8), apt.conf(5), dnf.conf(5),
pacman.conf(5), snap(8), systemctl(1)), so ``cd /srv/app && sudo apt-get install -y jq`` means what it says.
Every other program may read its directory (git hooks and config, ``.npmrc``, ``.cargo/config.toml``, ``go.work``,
a Makefile)."""


def runs_as_written(command: SimpleCommand) -> bool:
    """False when ``command`` runs with environment variables its command line sets (but for
    :data:`~bot.risk.recipes.INERT_ENVIRONMENT` names), in a directory outside the workspace or only known when
    it runs (but for :data:`PLACE_INDEPENDENT` programs): then no standing approval covers it, ``*`` included."""
    if command.outside and not (command.argv and command.argv[0] in PLACE_INDEPENDENT):
        return False
    return all(inert_environment(name) for name in command.environment)


def covers_command(approval: StandingApproval, command: SimpleCommand) -> bool:
    """True when ``approval``'s pattern prefixes ``command.argv``, its ``max_risk`` is at least the command's grade,
    every wrapper that led to the command is a :data:`LOCAL_WRAPPERS` one, the command runs as written
    (:func:`runs_as_written`: no environment set for it, in the workspace), no workspace setting chooses code it runs
    (:attr:`~bot.risk.model.SimpleCommand.chosen_by` is empty), and the pattern covers what the command
    means: every word that changes the subcommand's meaning (bot/risk/meaning.py) lies within the pattern's words,
    and a command with marks (a redirect writing outside the workspace or opening a socket) is covered only by
    ``*``.

    A line of a project recipe (:attr:`~bot.risk.model.SimpleCommand.runners`: ``pytest -q`` run by ``make test``)
    is covered only through a recipe that runs it, never by a pattern of its own words: the pattern must cover that
    recipe's command (:func:`_covers_runner`: ``make test`` covers the ``test`` recipe of the workspace's own
    Makefile, not ``make -C other test`` nor ``cd other && make test``), and the line must be one its program's
    name and subcommand alone would cover (:func:`_line_coverable`), within ``max_risk``; ``*`` covers any
    recipe's line that any command typed alone would be covered as. The recipe's command is itself one of the
    simple commands, graded at least as high as each of its lines, so it needs cover of its own too."""
    if not command.argv or command.risk > RiskLevel.parse(approval.max_risk):
        return False
    if not runs_as_written(command) or command.chosen_by:
        return False  # chosen_by: workspace settings choose code it runs, or were not reported (bot/risk/settings.py)
    if any(wrapper not in LOCAL_WRAPPERS for wrapper in command.wrappers):
        return False
    words = parse_pattern(approval.pattern)
    if command.runners:
        if not any(_covers_runner(words, runner) for runner in command.runners):
            return False
        return not words or _line_coverable(command)
    return _pattern_covers(words, command.argv, command.marks)


def _pattern_covers(words: tuple[str, ...], argv: tuple[str, ...], marks: tuple[str, ...]) -> bool:
    """True when the pattern ``words`` covers ``argv`` by its words (see :func:`covers_command`): they prefix it, no
    word changing its meaning lies past them, no operand past them when they name operands, and no marks unless
    the pattern is ``*``."""
    if tuple(argv[: len(words)]) != words:
        return False
    if not words:
        return True
    if marks or extra_operands(words, argv):
        return False  # extra_operands: a pattern that names operands covers exactly those (bot/risk/meaning.py)
    changing = changing_words(argv)
    return not changing or changing[-1] < len(words)


def _own_words(argv: tuple[str, ...]) -> tuple[str, ...]:
    """A command's name and subcommand: its first word, and its second when that is a plain word and no option
    (``apt-get install -y jq`` -> ``apt-get install``; ``pytest -q`` -> ``pytest``)."""
    if len(argv) > 1 and _PATTERN_WORD.match(argv[1]) and not argv[1].startswith("-"):
        return argv[:2]
    return argv[:1]


def _covers_runner(words: tuple[str, ...], runner: Runner) -> bool:
    """True when the pattern ``words`` covers the recipe ``runner`` ran: ``*`` any; any other pattern covers the
    recipe's command by its words (:func:`_pattern_covers`), and only the recipe of the workspace's own directory
    and the tool's own file: ``make test`` says nothing of ``make -C other test``, ``make test -C other``,
    ``npm test --prefix other`` or ``cd other && make test``, whose recipes are other files."""
    if not words:
        return True
    if runner.directory or runner.file:
        return False
    return _pattern_covers(words, runner.argv, ())


def _line_coverable(command: SimpleCommand) -> bool:
    """True when a recipe's line is one a pattern of its program's name and subcommand alone would cover
    (:func:`_own_words`, :func:`_pattern_covers`): no redirect writing outside the workspace or opening a socket,
    no word changing the subcommand's meaning, no URL for a URL program (``curl``, ``wget``: a pattern must name
    the URL), and not a wrapper, shell or interpreter (:data:`NEVER_MATCHES`), nor run with environment set for it,
    outside the workspace, through a wrapper no approval looks through, or with code chosen by workspace settings.
    The recipe's command is all the approval spells out: whatever the line's words would have to spell out stays
    asked."""
    if not command.argv or command.argv[0] in NEVER_MATCHES or command.chosen_by or not runs_as_written(command):
        return False
    if any(wrapper not in LOCAL_WRAPPERS for wrapper in command.wrappers):
        return False
    words = _own_words(command.argv)
    if command.argv[0] in URL_PROGRAMS and len(command.argv) > 1:
        return False
    return _pattern_covers(words, command.argv, command.marks)


def match(
    approvals: Sequence[StandingApproval],
    *,
    risk: RiskLevel,
    contained: bool,
    commands: Sequence[SimpleCommand],
    now: datetime,
) -> list[StandingApproval] | None:
    """The approvals that together cover every simple command, or None when any part stays uncovered.

    Pure function over the classifier's result (never the session's claim). ``destructive`` is never covered.
    Navigation and no-op builtins graded ``read_only`` (:func:`needs_cover`) need no cover of their own.
    """
    if risk >= RiskLevel.DESTRUCTIVE or not commands:
        return None
    usable = [
        a
        for a in approvals
        if a.live(now) and (contained or not a.contained_only) and RiskLevel.parse(a.max_risk) <= MAX_STANDING_RISK
    ]
    used: dict[str, StandingApproval] = {}
    for command in commands:
        if not needs_cover(command):
            continue
        cover = next((a for a in usable if covers_command(a, command)), None)
        if cover is None:
            return None
        used.setdefault(cover.id, cover)
    if not used or risk > max(RiskLevel.parse(a.max_risk) for a in used.values()):
        return None
    return list(used.values())


@dataclass(frozen=True, slots=True)
class StandingSpec:
    """What a person asked to create (validated by :meth:`StandingService.create`)."""

    scope: str
    subject: str
    pattern: str
    max_risk: str | None = None
    contained_only: bool = True
    expires: str | None = None
    note: str | None = None
    bot_id: str | None = None


class StandingService:
    """Create, list, revoke and match standing approvals, with the who-may rules above.

    Args:
        store: persistence.
        admins: ``FLYBOT_ADMINS``.
        is_workspace_admin: asks chat whether a user is a workspace admin/owner (``users.info``); failures mean no.
        clock: aware UTC now.
    """

    def __init__(
        self,
        store: Store,
        *,
        admins: frozenset[str],
        is_workspace_admin: Callable[[str], Awaitable[bool]],
        clock: Callable[[], datetime],
        groups: OwnerGroups | None = None,
    ) -> None:
        self.groups = groups  # a Bot's owner groups count as its owners; None: listed owners only
        self.store = store
        self.admins = admins
        self._is_workspace_admin = is_workspace_admin
        self.clock = clock
        self.covers = Covers(store.cache)

    async def is_admin(self, user: str) -> bool:
        """``FLYBOT_ADMINS`` or a Slack workspace admin/owner (fail closed: an error means no)."""
        if user in self.admins:
            return True
        try:
            return await self._is_workspace_admin(user)
        except Exception:  # noqa: BLE001 - fail closed
            return False

    async def may_manage(self, actor: str, scope: str, bot: Bot | None, *, operator: bool = False) -> bool:
        """Room scope: admins; Bot and session scope: the Bot's owners (owner groups' members too) or admins;
        operators act as admins.

        Raises:
            GroupCheckTooSlow: an owner group could not be read in time and the actor is no admin ("click again";
                nothing changes).
        """
        if operator or actor in self.admins:  # FLYBOT_ADMINS first: they never wait on Slack
            return True
        if scope in ("bot", "session") and bot is not None:
            try:
                if await owns(bot, actor, self.groups, in_time=True):
                    return True
            except GroupCheckTooSlow:
                if await self.is_admin(actor):
                    return True
                raise
        return await self.is_admin(actor)

    async def _own_chat_identity(self, actor: str, scope: str, subject: str, bot: Bot | None) -> bool:
        """True when ``actor`` is the chat identity (``--chat-user``) of a Bot the approval would answer: the Bot of a
        Bot or session approval, or any Bot whose registered room is a room approval's room. A Bot never approves
        for itself, whether it is also listed as an owner, sits in an owner group or is an admin."""
        if scope != "room":
            return bot is not None and bot.chat_user is not None and bot.chat_user == actor
        return any(b.chat_user == actor and b.room == subject for b in await self.store.list_bots())

    async def create(self, actor: str, spec: StandingSpec, *, operator: bool = False) -> StandingApproval:
        """Validate and store a standing approval; audited (the approval and its audit row commit together).

        Raises:
            InvalidRequest: bad scope, subject, pattern, level or expiry.
            NotFound: the Bot does not exist.
            NotAllowed: the actor may not create it (nothing changes; audited).
        """
        approval = await self.prepare(actor, spec, operator=operator)
        async with self.store.transaction() as tx:
            await self.save_in(tx, approval)
        log_created(approval)
        return approval

    async def save_in(self, tx: Tx, approval: StandingApproval) -> None:
        """Store an approval made by :meth:`prepare`, with its audit row, in ``tx``: the caller's transaction, so that
        a click that decides something AND grants an approval (a card's "Approve for this session", a blocked
        report's "for this Bot") commits both, or neither (a click is durable before it is
        acknowledged). The caller logs it (:func:`log_created`) once ``tx`` has committed."""
        await tx.add_standing(approval)
        await tx.audit(
            "standing.created",
            at=approval.created_at,
            actor=approval.created_by,
            standing_id=approval.id,
            scope=approval.scope,
            subject=approval.subject,
            pattern=approval.pattern,
            max_risk=approval.max_risk,
            contained_only=approval.contained_only,
        )

    async def prepare(self, actor: str, spec: StandingSpec, *, operator: bool = False) -> StandingApproval:
        """Validate ``spec`` and check that ``actor`` may make it; returns the approval, NOT yet stored (see
        :meth:`save_in`).

        Raises:
            InvalidRequest: bad scope, subject, pattern, level or expiry.
            NotFound: the Bot does not exist.
            NotAllowed: the actor may not create it (nothing changes; the refusal is audited).
        """
        if spec.scope not in ("session", "bot", "room"):
            raise InvalidRequest("scope must be session, bot or room", field="scope")
        words = parse_pattern(spec.pattern)
        level = parse_max_risk(spec.max_risk)
        expires_in = parse_duration(spec.expires) if spec.expires else None
        bot: Bot | None = None
        if spec.scope == "bot":
            bot = await self.store.get_bot(spec.subject)
            if bot is None:
                raise NotFound(f"no Bot {spec.subject}")
        elif spec.scope == "session":
            bot = await self.store.get_bot(spec.bot_id or "")
            if bot is None or not spec.subject:
                raise InvalidRequest("a session approval needs its Bot and session id", field="subject")
            expires_in = min(expires_in or SESSION_APPROVAL_TTL, SESSION_APPROVAL_TTL)
        elif not re.match(r"^[CGD][A-Z0-9]{2,}\Z", spec.subject):
            raise InvalidRequest(f"room {spec.subject!r} is not a Slack channel ID", field="room")
        note = parse_note(spec.note)
        check_can_match(words, rules_of(await self.store.program_rules()))
        now = self.clock()
        if not operator and await self._own_chat_identity(actor, spec.scope, spec.subject, bot):
            await self.store.audit(
                "standing.refused", at=now, actor=actor, scope=spec.scope, subject=spec.subject, why="requester"
            )
            log.warning("standing.refused", why="requester", actor=actor, scope=spec.scope, subject=spec.subject)
            raise NotAllowed(OWN_CHAT_IDENTITY)
        if not await self.may_manage(actor, spec.scope, bot, operator=operator):
            await self.store.audit("standing.refused", at=now, actor=actor, scope=spec.scope, subject=spec.subject)
            who = "admins" if spec.scope == "room" else f"the owners of {bot.name if bot else 'the Bot'} or admins"
            raise NotAllowed(f"only {who} can set a {spec.scope}-wide standing approval")
        approval = StandingApproval(
            id="sa_" + uuid.uuid4().hex[:12],
            scope=spec.scope,
            subject=spec.subject,
            bot_id=bot.id if spec.scope == "session" and bot else None,
            pattern=format_pattern(words),
            max_risk=level.label,
            contained_only=spec.contained_only,
            expires_at=now + expires_in if expires_in else None,
            created_by=actor,
            created_at=now,
            note=note,
        )
        return approval

    async def revoke(self, actor: str, approval_id: str, *, operator: bool = False) -> StandingApproval:
        """Revoke; takes effect on the next escalation.

        Raises:
            NotFound: no such approval.
            NotAllowed: the actor may not manage it.
            Conflict: already revoked.
        """
        approval = await self.store.get_standing(approval_id)
        if approval is None:
            raise NotFound(f"no standing approval {approval_id}")
        bot = await self._bot_of(approval)
        now = self.clock()
        if not await self.may_manage(actor, approval.scope, bot, operator=operator):
            await self.store.audit("standing.refused", at=now, actor=actor, standing_id=approval_id, action="revoke")
            raise NotAllowed("only admins, or the Bot's owners for a Bot or session approval, can revoke it")
        async with self.store.transaction() as tx:  # the revocation and its audit row commit together
            done = await tx.revoke_standing(approval_id, by=actor, at=now)
            if done:
                await tx.audit("standing.revoked", at=now, actor=actor, standing_id=approval_id)
        revoked = await self.store.get_standing(approval_id) if done else None
        if revoked is None:
            raise Conflict(f"standing approval {approval_id} is already revoked")
        log.info("standing.revoked", standing_id=approval_id, actor=actor)
        return revoked

    async def _bot_of(self, approval: StandingApproval) -> Bot | None:
        if approval.scope == "bot":
            return await self.store.get_bot(approval.subject)
        if approval.scope == "session" and approval.bot_id:
            return await self.store.get_bot(approval.bot_id)
        return None

    async def manageable(self, actor: str, *, operator: bool = False) -> list[StandingApproval]:
        """Live standing approvals ``actor`` may revoke (newest first)."""
        live = await self.store.list_standing(live_at=self.clock())
        return [a for a in live if await self.may_manage(actor, a.scope, await self._bot_of(a), operator=operator)]

    async def find_cover(
        self,
        bot: Bot,
        *,
        session_id: str,
        room: str | None,
        risk: RiskLevel,
        contained: bool,
        commands: Sequence[SimpleCommand],
    ) -> list[StandingApproval] | None:
        """The live approvals of this session, Bot and room that cover the whole command, or None.

        Remembered (:class:`Covers`) while the store serves the same in-memory copy of the live approvals; every
        answer is checked against ``now`` again (an approval that expired stops answering at once).
        """
        if risk >= RiskLevel.DESTRUCTIVE:
            return None
        now = self.clock()
        key = (bot.id, session_id, room, risk, contained, tuple(commands))
        found = self.covers.get(key, now)
        if found is not None:
            return found[0]
        store_cache = self.store.cache
        before, generation = store_cache.standing(), store_cache.generation("standing")
        candidates = await self.store.live_standing_for(bot_id=bot.id, session_id=session_id, room=room, now=now)
        cover = match(candidates, risk=risk, contained=contained, commands=commands, now=now)
        # Remembered only when computed from the copy the store serves now: nothing was invalidated meanwhile, and
        # the copy is the one served before (or, none before, the one this call's read just loaded).
        after = store_cache.standing()
        if (
            after is not None
            and generation == store_cache.generation("standing")
            and (before is None or before is after)
        ):
            self.covers.put(key, after, cover)
        return cover


_UNKNOWN: list[StandingApproval] = []
"""``Covers``' marker (by identity) of an answer not remembered."""
CoverKey = tuple[str, str, str | None, RiskLevel, bool, tuple[SimpleCommand, ...]]
"""What :func:`match` depends on besides the approvals: Bot, session, room, grade, containment, simple commands."""


class Covers:
    """Remembered answers of :meth:`StandingService.find_cover`, valid exactly while the store serves the same
    in-memory copy of the live standing approvals (:meth:`bot.store.cache.StoreCache.standing`).

    That copy is dropped by every change to a standing approval (this process's writes, another process's through the
    SQLite sidecar, any replica's through PostgreSQL's notification), is not served while notifications may be
    missed, and is reloaded after ``FLYBOT_CACHE_TTL_S``: each of these gives a new copy (or none), and an answer
    remembered from the old copy is not used again.

    Time alone changes an answer only by expiry (an approval never starts later than it is made): a remembered cover
    is used only while each of its approvals is still live at the request's ``now``; one that expired makes it be
    computed again. (An expired approval that was not part of the cover changes nothing: :func:`match` takes the
    first usable approval for each command.) At most ``size`` answers; when full it starts afresh. Only requests
    whose simple commands' text is at most ``max_chars`` characters in all are remembered (as :class:`Grades` does):
    the key holds the commands, and 4096 remembered 100,000-character commands would pin about a gigabyte.
    """

    def __init__(self, store_cache: StoreCache, size: int = 4096, max_chars: int = 4096) -> None:
        self.size = size
        self.max_chars = max_chars
        self._store_cache = store_cache
        self._source: list[StandingApproval] | None = None
        self._answers: dict[CoverKey, list[StandingApproval] | None] = {}

    def get(self, key: CoverKey, now: datetime) -> tuple[list[StandingApproval] | None] | None:
        """``(cover,)`` when an answer for ``key`` is remembered from the store's current copy and each approval in it
        is live at ``now``; None when it must be computed."""
        cover = self._answers.get(key, _UNKNOWN)
        if cover is _UNKNOWN:
            return None
        current = self._store_cache.standing()
        if current is None or current is not self._source:
            self._answers.clear()
            self._source = None
            return None
        if cover is not None and not all(approval.live(now) for approval in cover):
            return None
        return (cover,)

    def put(self, key: CoverKey, source: list[StandingApproval], cover: list[StandingApproval] | None) -> None:
        """Remember ``cover`` for ``key``, computed from the store's copy ``source`` (unless its commands are longer
        than ``max_chars``)."""
        if sum(len(command.text) + sum(map(len, command.argv)) for command in key[5]) > self.max_chars:
            return
        if source is not self._source:
            self._answers.clear()
            self._source = source
        elif len(self._answers) >= self.size:
            self._answers.clear()
        self._answers[key] = cover


def log_created(approval: StandingApproval) -> None:
    """The log line of a stored standing approval (after its transaction committed)."""
    log.info(
        "standing.created",
        standing_id=approval.id,
        scope=approval.scope,
        subject=approval.subject,
        actor=approval.created_by,
    )
