"""The chat port the domain services talk to; implemented over Slack's Web API in ``bot/slack/gateway.py``."""

from __future__ import annotations

from typing import Protocol

from bot.store import Bot, Escalation, StandingApproval


class DeliveryFailed(Exception):
    """The card could not be posted after retries (Slack errors, rate limits that did not clear, no route)."""


class ChatGateway(Protocol):
    """What the escalation service needs from chat. Implementations do their own retries."""

    async def post_card(self, escalation: Escalation, bot: Bot) -> tuple[str, str]:
        """Post the approval card; returns ``(channel, ts)``. Raises :class:`DeliveryFailed`."""
        ...

    async def update_card(self, escalation: Escalation, bot: Bot) -> None:
        """Redraw the card in place to show the escalation's current state (best effort; logs failures)."""
        ...

    async def post_notice(self, escalation: Escalation, bot: Bot, approvals: list[StandingApproval]) -> None:
        """Post the one-line "approved by standing approval" notice in the escalation's room. Raises DeliveryFailed."""
        ...

    async def is_workspace_admin(self, user: str) -> bool:
        """Whether ``user`` is a workspace admin or owner (``users.info``); False when it cannot tell."""
        ...
