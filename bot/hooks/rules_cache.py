"""The agent adapters' copy of the organisation's program rules (``GET /v1/program-rules``), kept in the state home.

The hook and ``flybot exec`` grade locally; they must never allow what the server, grading with the program rules,
would ask. So (bot/hooks/gate.py ``grade``):

- the copy is used only to raise a built-in grade (``ProgramRules(raise_only=True)``): a program the classifier
  does not know still asks locally, and FlyBot grades it with the rule (a standing approval may then answer it
  without a card); the copy can make the adapter ask more, never less;
- a copy is fresh for the ``max_age_s`` the server gave (:data:`DEFAULT_MAX_AGE_S` when it gave none), counted
  from when this adapter fetched it; a stale, missing or unreadable copy is fetched again (one GET, at most
  :data:`FETCH_TIMEOUT_S`);
- when no fresh copy can be had (first run with FlyBot unreachable, no token, a bad answer, a stale copy that
  cannot be refreshed), a rule FlyBot holds could raise any grade and the server's state may be where only the
  answer says, so the adapter fails closed: it allows nothing locally and asks FlyBot about every command
  (``Grade.unverified``); FlyBot unreachable, the adapter's answer for no decision follows.

The answer also names the state directory and store file the server's settings use (``own_state``: absolute
paths); the adapter grades them as FlyBot's own state, as the server does (bot/hooks/gate.py). An answer without
that list, or with one that is not a short list of absolute paths, is malformed (all or nothing, as the rules): no
fresh copy, so nothing runs unasked.

The file is ``program-rules.json`` in ``$FLYBOT_STATE_DIR`` (default :func:`bot.state_home.default_state_dir`), mode 0600,
replaced whole; it names the FlyBot URL it came from, and a copy of another server counts as missing.
Standard library only (the session client, :mod:`bot.client`, loads only to fetch).
"""

from __future__ import annotations

import json
import os
import time

from bot.risk.model import RiskLevel
from bot.risk.rules import ProgramRules, Rule, plain_word
from bot.state_home import default_state_dir
from bot.values import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from bot.hooks.gate import Server

RULES_FILE = "program-rules.json"
DEFAULT_MAX_AGE_S = 60
MAX_AGE_LIMIT_S = 3600
"""A server's ``max_age_s`` above this is cut to it."""
FETCH_TIMEOUT_S = 2.0


#: At most this many ``own_state`` paths, each at most this long (the server sends four: its state directory and
#: store file, each as written and with links resolved).
MAX_OWN_STATE, MAX_PATH = 16, 4096


class HeldRules(Frozen):
    """The rules an adapter holds: ``rules`` (raise-only; empty when none), whether they are ``fresh``, and the
    server's state directory and store file (``own_state``; empty when no copy is held)."""

    __slots__ = ("rules", "fresh", "own_state")
    rules: ProgramRules
    fresh: bool
    own_state: tuple[str, ...]

    def __init__(self, rules: ProgramRules, fresh: bool, own_state: tuple[str, ...] = ()) -> None:
        self._init(rules=rules, fresh=fresh, own_state=own_state)


def rules_path(env: Mapping[str, str] | None = None) -> str:
    """Where the copy is kept."""
    env = os.environ if env is None else env
    return os.path.join(env.get("FLYBOT_STATE_DIR") or default_state_dir(env), RULES_FILE)


def held_rules(server: Server, *, env: Mapping[str, str] | None = None, now: float | None = None) -> HeldRules:
    """The rules to grade with: the fresh copy on disk, else a newly fetched one (saved), else the stale copy (or
    none) marked not fresh. Never raises."""
    now = time.time() if now is None else now
    path = rules_path(env)
    saved = _read(path, server.url)
    if saved is not None and 0 <= now - saved[0] <= saved[1]:
        return HeldRules(saved[2], True, saved[3])
    fetched = _fetch(server)
    stale = (
        HeldRules(saved[2], False, saved[3]) if saved is not None else HeldRules(ProgramRules(raise_only=True), False)
    )
    if fetched is None:
        return stale
    max_age, items, own = fetched
    rules = _rules(items)
    if rules is None:
        return stale
    _write(path, {"server": server.url, "fetched_at": now, "max_age_s": max_age, "items": items, "own_state": own})
    return HeldRules(rules, True, own)


def _own_state(value: Any) -> tuple[str, ...] | None:
    """The server's ``own_state`` paths, or None when they are not a list of at most :data:`MAX_OWN_STATE` absolute
    paths (each at most :data:`MAX_PATH` characters, no NUL)."""
    if not isinstance(value, list) or len(value) > MAX_OWN_STATE:
        return None
    if not all(isinstance(p, str) and p.startswith("/") and len(p) <= MAX_PATH and "\x00" not in p for p in value):
        return None
    return tuple(value)


def _read(path: str, url: str) -> tuple[float, float, ProgramRules, tuple[str, ...]] | None:
    """``(fetched_at, max_age_s, rules, own_state)`` of the copy of ``url``'s rules at ``path``, or None (missing,
    unreadable, another server's, or malformed)."""
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("server") != url:
        return None
    fetched_at, max_age = data.get("fetched_at"), data.get("max_age_s")
    if not isinstance(fetched_at, (int, float)) or not isinstance(max_age, (int, float)):
        return None
    rules, own = _rules(data.get("items")), _own_state(data.get("own_state"))
    if rules is None or own is None:
        return None
    return float(fetched_at), float(min(max_age, MAX_AGE_LIMIT_S)), rules, own


def _rules(items: Any) -> ProgramRules | None:
    """Raise-only rules from the API's ``items``; None when they are malformed (all or nothing)."""
    if not isinstance(items, list):
        return None
    rules: list[Rule] = []
    for item in items:
        if not isinstance(item, dict):
            return None
        program, subcommand = item.get("program"), item.get("subcommand")
        grade, set_by = item.get("grade"), item.get("set_by")
        if not isinstance(program, str) or not plain_word(program) or not isinstance(set_by, str):
            return None
        if subcommand is not None and (not isinstance(subcommand, str) or not plain_word(subcommand)):
            return None
        try:
            level = RiskLevel.parse(grade) if isinstance(grade, str) else None
        except ValueError:
            level = None
        if level is None:
            return None
        rules.append(Rule(program, subcommand, level, set_by))
    return ProgramRules(tuple(rules), raise_only=True)


def _fetch(server: Server) -> tuple[float, list[Any], tuple[str, ...]] | None:
    """``(max_age_s, items, own_state)`` from ``GET /v1/program-rules``, or None (no token, unreachable, not 200,
    bad JSON, no valid ``own_state``)."""
    if not server.token:
        return None
    from bot.client import ClientError, FlyBotClient

    try:  # one attempt: the pause before a retry is longer than the time allowed
        data = FlyBotClient(server.url, server.token, retry_pause_s=FETCH_TIMEOUT_S).program_rules(
            timeout_s=FETCH_TIMEOUT_S
        )
    except (ClientError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        return None
    max_age = data.get("max_age_s", DEFAULT_MAX_AGE_S)
    own = _own_state(data.get("own_state"))
    if not isinstance(max_age, (int, float)) or max_age < 0 or own is None:
        return None
    return float(min(max_age, MAX_AGE_LIMIT_S)), data["items"], own


def _write(path: str, data: dict[str, Any]) -> None:
    """Replace the copy (mode 0600, its directory made 0700); failures are ignored (the next call fetches again)."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(data, file)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
