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

The answer also gives the state directory and store file the server's settings use, as salted digests
(``own_state``: ``{"salt", "sha256"}``, bot/api/program_rules.py): the adapter grades a path whose digest, or whose
directory's, is among them as FlyBot's own state, as the server does (bot/hooks/gate.py), without learning where
the server keeps it. An answer without them, or with more than :data:`MAX_OWN_STATE` digests or a digest that is
not 64 hex digits, is malformed (all or nothing, as the rules): no fresh copy, so nothing runs unasked.

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


#: At most this many ``own_state`` digests (the server sends up to four: its state directory and store file, each
#: as written and with links resolved), and the longest salt taken.
MAX_OWN_STATE, MAX_SALT = 16, 128
_HEX64 = frozenset("0123456789abcdef")


class OwnState(Frozen):
    """Where the server keeps its state, as digests: ``salt`` and the SHA-256 hex ``digests`` of its paths
    (bot/risk/sensitive.py ``own_state_digests``)."""

    __slots__ = ("salt", "digests")
    salt: str
    digests: tuple[str, ...]

    def __init__(self, salt: str, digests: tuple[str, ...]) -> None:
        self._init(salt=salt, digests=digests)

    def to_json(self) -> dict[str, Any]:
        return {"salt": self.salt, "sha256": list(self.digests)}


class HeldRules(Frozen):
    """The rules an adapter holds: ``rules`` (raise-only; empty when none), whether they are ``fresh``, and where
    the server keeps its state (``own_state``; None when no copy is held)."""

    __slots__ = ("rules", "fresh", "own_state")
    rules: ProgramRules
    fresh: bool
    own_state: OwnState | None

    def __init__(self, rules: ProgramRules, fresh: bool, own_state: OwnState | None = None) -> None:
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
    copy = {"server": server.url, "fetched_at": now, "max_age_s": max_age, "items": items, "own_state": own.to_json()}
    _write(path, copy)
    return HeldRules(rules, True, own)


def _own_state(value: Any) -> OwnState | None:
    """The server's ``own_state`` (``{"salt": STR, "sha256": [HEX64...]}``), or None when it is not that: a salt
    of at most :data:`MAX_SALT` characters without NUL, at most :data:`MAX_OWN_STATE` digests of 64 lower-case hex
    digits."""
    if not isinstance(value, dict):
        return None
    salt, digests = value.get("salt"), value.get("sha256")
    if not isinstance(salt, str) or len(salt) > MAX_SALT or "\x00" in salt:
        return None
    if not isinstance(digests, list) or len(digests) > MAX_OWN_STATE:
        return None
    if not all(isinstance(d, str) and len(d) == 64 and set(d) <= _HEX64 for d in digests):
        return None
    return OwnState(salt, tuple(digests))


def _read(path: str, url: str) -> tuple[float, float, ProgramRules, OwnState] | None:
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


def _fetch(server: Server) -> tuple[float, list[Any], OwnState] | None:
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
