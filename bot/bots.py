"""Registering Bots and checking their API tokens.

Tokens are ``fbt_`` + 32 random bytes (URL-safe base64); only their SHA-256 is stored. A fast hash is
enough for a high-entropy random token (there is nothing to brute-force as with a password).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from datetime import UTC, datetime

from bot.errors import InvalidRequest, NotFound, Unauthorized
from bot.groups import GROUP_ID
from bot.store import Bot, Store

TOKEN_PREFIX = "fbt_"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}\Z")
USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}\Z")
CHANNEL_ID = re.compile(r"^[CGD][A-Z0-9]{2,}\Z")
TWO_PERSON_RULES = ("destructive-host",)
"""What a Bot's two-person rule may cover: destructive commands that run on the host."""


def hash_token(token: str) -> str:
    """Hex SHA-256 of a token (64 characters)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh Bot API token, e.g. ``fbt_3q...`` (47 characters)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


async def register_bot(
    store: Store,
    name: str,
    owners: list[str],
    room: str | None,
    *,
    chat_user: str | None = None,
    two_person: str | None = None,
    owner_groups: list[str] | None = None,
    fallback_owners: list[str] | None = None,
    fallback_groups: list[str] | None = None,
    allowed_rooms: list[str] | None = None,
    actor: str | None = None,
) -> tuple[Bot, str]:
    """Register a Bot; returns ``(bot, token)``. The token is shown once and only its hash is kept. Audited
    (``bot.created`` by ``actor``, e.g. ``operator:$USER``, in the same transaction; never the token).

    ``chat_user`` is the Slack user ID the Bot posts as in chat: only its room messages are read as the Bot's
    blocked reports; ``None``: the Bot reports through the API only. ``two_person``:
    ``destructive-host`` asks two distinct approvers for its destructive commands on the host.
    ``owner_groups``: Slack user group IDs whose members are owners too, resolved when someone decides.
    ``fallback_owners`` / ``fallback_groups``: who is asked after ``FLYBOT_FALLBACK_AFTER_S`` without a decision
    (neither: the admins). ``allowed_rooms``: channel IDs besides ``room`` that its requests may name (any
    other room is refused, 403 ``room_not_allowed``).

    Raises:
        InvalidRequest: a bad name, no owner, an owner or chat user that is not a Slack user ID, a bad
            channel ID or user group ID.
        Conflict: the name is taken.
    """
    if not _NAME.match(name):
        raise InvalidRequest(
            "Bot name: 1-80 letters, digits, '.', '_' or '-', starting with a letter or digit", field="name"
        )
    _check_owners(owners)
    if room is not None and not CHANNEL_ID.match(room):
        raise InvalidRequest(f"room {room!r} is not a Slack channel ID (like C0123ABCD)", field="room")
    if chat_user is not None and not USER_ID.match(chat_user):
        raise InvalidRequest(f"chat user {chat_user!r} is not a Slack user ID (like U0123ABCD)", field="chat_user")
    _check_two_person(two_person)
    _check_groups(owner_groups or [])
    _check_groups(fallback_groups or [], field="fallback_groups", what="fallback group")
    _check_users(fallback_owners or [], field="fallback_owners", what="fallback owner")
    _check_rooms(allowed_rooms or [])
    token = new_token()
    bot = Bot(
        id="bot_" + uuid.uuid4().hex[:16],
        name=name,
        owners=tuple(dict.fromkeys(owners)),
        room=room,
        created_at=datetime.now(UTC),
        chat_user=chat_user,
        two_person=two_person,
        owner_groups=tuple(dict.fromkeys(owner_groups or ())),
        fallback_owners=tuple(dict.fromkeys(fallback_owners or ())),
        fallback_groups=tuple(dict.fromkeys(fallback_groups or ())),
        allowed_rooms=tuple(dict.fromkeys(allowed_rooms or ())),
    )
    await store.add_bot(bot, hash_token(token), actor=actor)
    return bot, token


def _check_two_person(rule: str | None, *, off: bool = False) -> None:
    if rule is None or rule in TWO_PERSON_RULES or (off and rule == "off"):
        return
    allowed = " or ".join((*TWO_PERSON_RULES, *(("off",) if off else ())))
    raise InvalidRequest(f"two-person rule {rule!r}: use {allowed}", field="two_person")


def _check_groups(groups: list[str], *, field: str = "owner_groups", what: str = "owner group") -> None:
    for group in groups:
        if not GROUP_ID.match(group):
            raise InvalidRequest(f"{what} {group!r} is not a Slack user group ID (like S0123ABCD)", field=field)


def _check_users(users: list[str], *, field: str, what: str) -> None:
    for user in users:
        if not USER_ID.match(user):
            raise InvalidRequest(f"{what} {user!r} is not a Slack user ID (like U0123ABCD)", field=field)


def _check_rooms(rooms: list[str]) -> None:
    for room in rooms:
        if not CHANNEL_ID.match(room):
            raise InvalidRequest(
                f"allowed room {room!r} is not a Slack channel ID (like C0123ABCD)", field="allowed_rooms"
            )


def _replacement(values: list[str] | None) -> list[str] | None:
    """A ``bots set`` list option: None (unchanged), ``["-"]`` (none) or the new list without repeats."""
    return None if values is None else [] if values == ["-"] else list(dict.fromkeys(values))


def _check_owners(owners: list[str]) -> None:
    if not owners:
        raise InvalidRequest("a Bot needs at least one owner (--owner USER_ID)", field="owners")
    for owner in owners:
        if not USER_ID.match(owner):
            raise InvalidRequest(f"owner {owner!r} is not a Slack user ID (like U0123ABCD)", field="owners")


async def _named(store: Store, name: str) -> Bot:
    bot = await store.bot_by_name(name)
    if bot is None:
        raise NotFound(f"no Bot named {name} (flybot bots list shows them)", field="name")
    return bot


async def rotate_token(store: Store, name: str, *, actor: str) -> tuple[Bot, str]:
    """A new token for Bot ``name``; the old one stops at once (its hash is replaced). Audited.

    Raises:
        NotFound: no such Bot.
    """
    bot = await _named(store, name)
    token = new_token()
    await store.set_token_hash(bot.id, hash_token(token))
    await store.audit("bot.token_rotated", at=datetime.now(UTC), actor=actor, bot_id=bot.id, bot=bot.name)
    return bot, token


async def remove_bot(store: Store, name: str, *, actor: str) -> tuple[Bot, int]:
    """Remove Bot ``name``: its token stops at once and it is no longer listed; its history stays. Returns the Bot
    and how many of its escalations are pending (FlyBot's sweeper withdraws them and updates their cards). Audited.

    Raises:
        NotFound: no such Bot.
    """
    bot = await _named(store, name)
    now = datetime.now(UTC)
    await store.remove_bot(bot.id, token_hash=hash_token(new_token()), at=now)
    pending = len(await store.pending_escalations([bot.id]))
    await store.audit("bot.removed", at=now, actor=actor, bot_id=bot.id, bot=bot.name, pending=pending)
    return bot, pending


async def update_bot(
    store: Store,
    name: str,
    *,
    actor: str,
    owners: list[str] | None = None,
    room: str | None = None,
    chat_user: str | None = None,
    two_person: str | None = None,
    owner_groups: list[str] | None = None,
    fallback_owners: list[str] | None = None,
    fallback_groups: list[str] | None = None,
    allowed_rooms: list[str] | None = None,
) -> Bot:
    """Change Bot ``name``'s owners (the whole list), room (``"-"``: none, cards go to a DM with the first owner),
    chat user (``"-"``: none), two-person rule (``destructive-host``, or ``off``: only the deployment's) and/or
    owner groups, fallback owners, fallback groups and allowed rooms (each the whole list; ``["-"]``: none). Audited.
    Pending escalations keep the rule and the room they were created with.

    Raises:
        NotFound: no such Bot.
        InvalidRequest: a bad owner, room or chat user ID, an unknown rule, or nothing to change.
    """
    lists = (owners, owner_groups, fallback_owners, fallback_groups, allowed_rooms)
    if room is None and chat_user is None and two_person is None and all(v is None for v in lists):
        raise InvalidRequest(
            "nothing to change: give --owner, --owner-group, --fallback-owner, --fallback-group, "
            "--room, --allow-room, --chat-user and/or --two-person",
            field="owners",
        )
    rooms = _replacement(allowed_rooms)
    _check_rooms(rooms or [])
    groups = _replacement(owner_groups)
    _check_groups(groups or [])
    backups, backup_groups = _replacement(fallback_owners), _replacement(fallback_groups)
    _check_users(backups or [], field="fallback_owners", what="fallback owner")
    _check_groups(backup_groups or [], field="fallback_groups", what="fallback group")
    _check_two_person(two_person, off=True)
    if chat_user is not None and chat_user != "-" and not USER_ID.match(chat_user):
        raise InvalidRequest(
            f"chat user {chat_user!r} is not a Slack user ID (like U0123ABCD), or - for none", field="chat_user"
        )
    if owners is not None:
        _check_owners(owners)
    if room is not None and room != "-" and not CHANNEL_ID.match(room):
        raise InvalidRequest(f"room {room!r} is not a Slack channel ID (like C0123ABCD), or - for none", field="room")
    bot = await _named(store, name)
    given = dict(room=room, chat_user=chat_user, two_person=two_person, owner_groups=groups)
    given |= dict(fallback_owners=backups, fallback_groups=backup_groups, allowed_rooms=rooms)
    changes = {k: None if v in ("-", "off") else v for k, v in given.items() if v is not None}
    if owners is not None:
        changes["owners"] = list(dict.fromkeys(owners))
    updated = await store.update_bot(bot.id, **changes)
    if updated is None:
        raise NotFound(f"no Bot named {name}", field="name")
    await store.audit(
        "bot.updated",
        at=datetime.now(UTC),
        actor=actor,
        bot_id=bot.id,
        bot=bot.name,
        owners=list(updated.owners),
        room=updated.room,
        chat_user=updated.chat_user,
        two_person=updated.two_person,
        owner_groups=list(updated.owner_groups),
        fallback_owners=list(updated.fallback_owners),
        fallback_groups=list(updated.fallback_groups),
        allowed_rooms=list(updated.allowed_rooms),
    )
    return updated


def bearer_token(authorization: str | None, what: str = "token") -> str:
    """The token of an ``Authorization: Bearer <token>`` header.

    Raises:
        Unauthorized: the header is missing or malformed, or the token is not printable ASCII (tokens FlyBot
            issues are; undecodable header bytes arrive as surrogates and are refused here, not hashed).
    """
    if not authorization:
        raise Unauthorized(f"missing Authorization: Bearer <{what}> header")
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or not (token.isascii() and token.isprintable()):
        raise Unauthorized(f"Authorization must be 'Bearer <{what}>'")
    return token


async def authenticate(store: Store, authorization: str | None) -> Bot:
    """The Bot named by an ``Authorization: Bearer <token>`` header.

    Raises:
        Unauthorized: the header is missing, malformed, or the token is unknown.
    """
    bot = await store.bot_by_token_hash(hash_token(bearer_token(authorization)))
    if bot is None:
        raise Unauthorized("unknown token")
    return bot
