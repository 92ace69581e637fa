"""Messages of approval routing: the reminder posted in a card's thread. Pure: no I/O, no clock.

The reminder is the only message in which FlyBot mentions people on its own: the owners it names are Slack user IDs
(``<@U…>``) and user group IDs (``<!subteam^S…>``) that passed their ID checks; anything else is left out. The Bot's
name is the only user text, escaped. Source of the mention syntax: Slack's "Formatting text for app surfaces".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from cards import blocks as bk
from cards.approval import CardMessage
from cards.escape import mrkdwn_escape
from cards.limits import FALLBACK_BOT_NAME_MAX
from cards.text import format_utc, is_slack_user_id, one_line

_GROUP_ID = re.compile(r"^S[A-Z0-9]{2,}\Z")
MAX_MENTIONS = 20
"""At most this many people and groups are named in one reminder."""


def mentions(owners: Sequence[str], groups: Sequence[str] = ()) -> list[str]:
    """``<@U…>`` for each owner and ``<!subteam^S…>`` for each group whose ID is well-formed (others are left out),
    in order, without repeats, at most :data:`MAX_MENTIONS`."""
    found = [f"<@{u}>" for u in owners if is_slack_user_id(u)]
    found += [f"<!subteam^{g}>" for g in groups if _GROUP_ID.match(g)]
    return list(dict.fromkeys(found))[:MAX_MENTIONS]


def reminder_message(
    *,
    bot_name: str,
    owners: Sequence[str],
    groups: Sequence[str],
    expires_at: datetime,
    approvals: int = 0,
    needed: int = 1,
) -> CardMessage:
    """The reminder in the card's thread: "⏰ <@U1> <@U2>: *builder*'s request above is still waiting for a decision.
    It expires at 2026-11-30 19:14:16 UTC; then the session is told no." With ``needed`` 2 and one approval given:
    "It has 1 of 2 approvals; a second person must approve." One ``section`` block with the same text."""
    name = mrkdwn_escape(one_line(bot_name)[:FALLBACK_BOT_NAME_MAX]) or "(unnamed Bot)"
    who = " ".join(mentions(owners, groups))
    text = f"\u23f0 {who + ': ' if who else ''}*{name}*'s request above is still waiting for a decision."
    if needed > 1:
        text += (
            f" It has {approvals} of {needed} approvals; a second, different person must approve."
            if approvals
            else f" It needs {needed} approvals from different people."
        )
    text += f" It expires at {format_utc(expires_at)}; then the session is told no."
    return CardMessage(text=text, blocks=[bk.mrkdwn_section(text)])
