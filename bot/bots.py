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

from bot.errors import InvalidRequest, Unauthorized
from bot.store import Bot, Store

TOKEN_PREFIX = "fbt_"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}\Z")
USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}\Z")
CHANNEL_ID = re.compile(r"^[CGD][A-Z0-9]{2,}\Z")


def hash_token(token: str) -> str:
    """Hex SHA-256 of a token (64 characters)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh Bot API token, e.g. ``fbt_3q...`` (47 characters)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


async def register_bot(
    store: Store, name: str, owners: list[str], room: str | None, *, chat_user: str | None = None
) -> tuple[Bot, str]:
    """Register a Bot; returns ``(bot, token)``. The token is shown once and only its hash is kept.

    ``chat_user`` is the Slack user ID the Bot posts as in chat: only its room messages are read as the Bot's
    blocked reports (issue 11 section 4); ``None``: the Bot reports through the API only.

    Raises:
        InvalidRequest: a bad name, no owner, an owner or chat user that is not a Slack user ID, or a bad
            channel ID.
        Conflict: the name is taken.
    """
    if not _NAME.match(name):
        raise InvalidRequest("Bot name: 1-80 letters, digits, '.', '_' or '-', starting with a letter or digit", field="name")
    if not owners:
        raise InvalidRequest("a Bot needs at least one owner (--owner USER_ID)", field="owners")
    for owner in owners:
        if not USER_ID.match(owner):
            raise InvalidRequest(f"owner {owner!r} is not a Slack user ID (like U0123ABCD)", field="owners")
    if room is not None and not CHANNEL_ID.match(room):
        raise InvalidRequest(f"room {room!r} is not a Slack channel ID (like C0123ABCD)", field="room")
    if chat_user is not None and not USER_ID.match(chat_user):
        raise InvalidRequest(f"chat user {chat_user!r} is not a Slack user ID (like U0123ABCD)", field="chat_user")
    token = new_token()
    bot = Bot(
        id="bot_" + uuid.uuid4().hex[:16],
        name=name,
        owners=tuple(dict.fromkeys(owners)),
        room=room,
        created_at=datetime.now(UTC),
        chat_user=chat_user,
    )
    await store.add_bot(bot, hash_token(token))
    return bot, token


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
