"""Reading the audit trail and the escalation list: one place for the CLI and ``GET /v1/audit``.

Plain async code over the store; ``since`` takes the same durations as standing approvals (``30m``, ``24h``, ``7d``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from bot.bots import USER_ID
from bot.errors import InvalidRequest, NotFound
from bot.groups import GROUP_ID
from bot.logs import redact_text
from bot.risk.hidden import reveal
from bot.slack.directory import CHANNEL_ID, Names
from bot.standing import parse_duration
from bot.store import AuditEntry, Escalation, Store

MAX_PAGE = 500


def since_of(text: str | None, now: datetime) -> datetime | None:
    """``--since 24h`` -> ``now - 24h``; ``--since 2026-12-01T00:00:00Z`` (RFC 3339) -> that instant; None for none.

    Raises:
        InvalidRequest: neither a duration like 30m, 24h, 7d, 2w nor an RFC 3339 time (field ``since``).
    """
    return _time_bound(text, now, "since")


def until_of(text: str | None, now: datetime) -> datetime | None:
    """``--until``: rows strictly before this instant; the same forms as :func:`since_of` (a duration: that long
    ago). Raises InvalidRequest (field ``until``)."""
    return _time_bound(text, now, "until")


def _time_bound(text: str | None, now: datetime, field: str) -> datetime | None:
    if not text:
        return None
    if _RFC3339.match(text):
        try:
            return datetime.fromisoformat(text.replace("z", "Z")).astimezone(UTC)
        except ValueError:
            pass
    else:
        try:
            return now - parse_duration(text)
        except InvalidRequest:
            pass
    raise InvalidRequest(
        f"{field} {text!r}: use a number and a unit, like 30m, 24h, 7d or 2w, or an RFC 3339 time "
        "with its offset, like 2026-12-01T09:00:00Z",
        field=field,
    )


_RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$")
"""RFC 3339's date-time (section 5.6): an offset is required, so no instant is read in the wrong zone."""


async def bot_id_of(store: Store, name: str | None) -> str | None:
    """The id of Bot ``name`` (None for none), a removed Bot's too: its escalations and audit rows stay (README
    "Removing a Bot"). Raises NotFound."""
    if not name:
        return None
    bot = await store.bot_by_name(name, removed=True)
    if bot is None:
        raise NotFound(f"no Bot named {name}", field="bot")
    return bot.id


async def bot_labels(store: Store) -> dict[str, str]:
    """Every Bot's id -> the name people read: ``builder``, or ``builder (removed)`` for a removed Bot (its history
    stays; the name stays taken)."""
    return {
        bot.id: bot.name + (" (removed)" if bot.removed_at is not None else "")
        for bot in await store.list_bots(removed=True)
    }


def entry_to_api(entry: AuditEntry) -> dict[str, Any]:
    """One audit row as JSON (the API's items, ``--json``'s and the JSON Lines export's lines): ``{id, at (RFC 3339
    UTC), event, escalation_id, actor, detail}``; a decision's ``detail`` says what was decided (``command``,
    ``risk``, ``contained``, ``reason``, ``via``: :func:`bot.escalations.decision_detail`). Every string is shown
    redacted (:func:`bot.logs.redact_text`): a token or password in a command never leaves in an export."""
    return {
        "id": entry.id,
        "at": entry.at.isoformat(),
        "event": entry.event,
        "escalation_id": entry.escalation_id,
        "actor": entry.actor,
        "detail": redacted(entry.detail),
    }


def redacted(value: Any) -> Any:
    """``value`` with :func:`bot.logs.redact_text` applied to every string in it (dicts and lists walked; keys kept)."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, list):
        return [redacted(v) for v in value]
    if isinstance(value, dict):
        return {k: redacted(v) for k, v in value.items()}
    return value


def entry_values(entry: AuditEntry) -> list[str]:
    """Every string an audit row's line may show (actor and detail values, one level into lists): what
    :func:`labels` should name."""
    values = [entry.actor] if entry.actor else []
    for value in entry.detail.values():
        values += [str(v) for v in value] if isinstance(value, list) else [str(value)]
    return values


async def labels(values: Iterable[str], names: Names, bot_names: dict[str, str]) -> dict[str, str]:
    """What people read for each id among ``values``: a Bot id -> the Bot's name, a Slack user id ->
    ``@Olivia``, a channel id -> ``#flybot-approvals``, a user group id -> ``@flybot-oncall`` (through ``names``). Values that are no id are left out."""
    distinct = set(values)
    shown = {v: bot_names[v] for v in distinct if v in bot_names}
    shown |= await names.people(v for v in distinct if USER_ID.match(v))
    shown |= await names.rooms(v for v in distinct if CHANNEL_ID.match(v) and v not in shown)
    shown |= await names.groups(v for v in distinct if GROUP_ID.match(v) and v not in shown)
    return shown


def _shown(value: object, shown: dict[str, str]) -> str:
    """One value of a line: ids named through ``shown``, lists joined with commas."""
    if isinstance(value, list):
        return ",".join(_shown(v, shown) for v in value)
    text = str(value)
    return shown.get(text, text)


def entry_line(entry: AuditEntry, shown: dict[str, str]) -> str:
    """One audit row as a line a person reads: time, event, escalation, Bot name, actor, details; ids named through
    ``shown`` (:func:`labels`: ``by=@Olivia``, never ``U0OWNER01``); empty fields left out (never ``room=None``);
    hidden characters (a newline, ESC, a bidi
    control in a command, reason or note) shown as ``⟨U+XXXX⟩``."""
    return reveal(entry_text(entry, shown), multiline=False)


def entry_text(entry: AuditEntry, shown: dict[str, str]) -> str:
    """:func:`entry_line` before hidden characters are made visible (for :func:`bot.risk.hidden.plain_warning`)."""
    detail = redacted(dict(entry.detail))
    bot = shown.get(str(detail.pop("bot_id", "") or ""), "") or str(detail.pop("bot", "") or "")
    detail.pop("bot", None)
    parts = [entry.at.strftime("%Y-%m-%d %H:%M:%S"), entry.event]
    if entry.escalation_id:
        parts.append(entry.escalation_id)
    if bot:
        parts.append(f"bot={_shown(bot, shown)}")
    if entry.actor:
        parts.append(f"by={_shown(entry.actor, shown)}")
    # an empty field (None, "", []) says nothing: left out rather than shown as room=None (--json keeps it)
    parts += [f"{k}={_shown(v, shown)}" for k, v in sorted(detail.items()) if v is not None and v != "" and v != []]
    return "  ".join(parts)


def escalation_line(escalation: Escalation, shown: dict[str, str]) -> str:
    """One escalation as a line: created, status, Bot name, risk, where, decided by (``@Olivia``), the standing
    approval that answered it (``via=sa_...``), id, command (one
    line, cut after 80 characters, its hidden characters shown as ``⟨U+XXXX⟩``, so no terminal escape
    runs); ids named through ``shown`` (:func:`labels`)."""
    where = "sandbox" if escalation.contained else "host"
    command = " ".join(reveal(escalation.command).split())  # newlines and tabs folded; every other one shown
    command = command if len(command) <= 80 else command[:79] + "\u2026"
    who = escalation.decided_by if escalation.decided_by and escalation.decision_source != "session" else ""
    parts = [
        escalation.created_at.strftime("%Y-%m-%d %H:%M:%S"),
        escalation.status,
        _shown(escalation.bot_id, shown),
        escalation.risk,
        where,
    ]
    if who:
        parts.append(f"by={_shown(who, shown)}")
    if escalation.standing_approval_id:
        parts.append(f"via={escalation.standing_approval_id}")
    parts += [escalation.id, command]
    return reveal("  ".join(parts), multiline=False)  # the decider too ("operator:$USER" comes from the environment)


def page_size(text: str | None, default: int = 100) -> int:
    """``limit`` parameter: 1..500. Raises InvalidRequest."""
    if text is None or text == "":
        return default
    if not text.isdigit() or not 1 <= int(text) <= MAX_PAGE:
        raise InvalidRequest(f"limit: a whole number from 1 to {MAX_PAGE}", field="limit")
    return int(text)
