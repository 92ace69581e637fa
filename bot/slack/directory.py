"""Does Slack know the people and the room a Bot is registered with? (``flybot bots add`` with Slack credentials.)

One ``users.info`` per owner and one ``conversations.info`` for the room (Slack Web API reference); the answers are
warnings, never refusals: the operator may register first and invite FlyBot later.
"""

from __future__ import annotations

from collections.abc import Sequence

from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web.async_client import AsyncWebClient


async def registration_warnings(client: AsyncWebClient, owners: Sequence[str], room: str | None) -> list[str]:
    """One line per problem: an owner Slack does not know (or a deactivated one / a bot user), a room that does not
    exist, or a room FlyBot is not a member of. Slack unreachable: one line saying the check was skipped."""
    warnings: list[str] = []
    try:
        for owner in owners:
            try:
                info = (await client.users_info(user=owner)).get("user") or {}
            except SlackApiError as exc:
                warnings.append(f"owner {owner}: Slack says {_error(exc)}; they cannot decide until the ID is right")
                continue
            if info.get("deleted"):
                warnings.append(f"owner {owner}: this Slack account is deactivated")
            elif info.get("is_bot"):
                warnings.append(f"owner {owner}: this is a bot user, not a person")
        if room:
            try:
                channel = (await client.conversations_info(channel=room)).get("channel") or {}
            except SlackApiError as exc:
                warnings.append(f"room {room}: Slack says {_error(exc)}; invite @flybot to the room, or fix the ID")
            else:
                if not channel.get("is_member", False) and not channel.get("is_im", False):
                    warnings.append(f"room {room}: FlyBot is not in #{channel.get('name', room)}; invite @flybot there")
    except (SlackClientError, OSError, TimeoutError) as exc:
        warnings.append(f"could not ask Slack about the owners and room ({type(exc).__name__}); not checked")
    return warnings


def _error(exc: SlackApiError) -> str:
    response = exc.response
    return str(response.get("error") or "an error") if hasattr(response, "get") else "an error"
