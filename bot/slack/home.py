"""The App Home tab: the viewer's Bots, pending escalations and the standing approvals they may revoke.

Pending escalations appear on the Home of everyone who may decide them (owners, owner groups' members, admins,
and, once asked, fallback approvers) with the card's buttons; the Home is redrawn when it is opened, after a click
on it, and by the outbox's ``home.refresh`` job whenever an escalation with a card is posted or changes, so a
decision anywhere updates this copy too.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from slack_bolt.async_app import AsyncApp

from bot.groups import GroupCheckTooSlow
from bot.render import to_card_standing
from bot.slack.deps import SlackDeps
from bot.store import Bot
from cards import HomePending, home_view

GROUPS_UNCHECKED_TEXT = (
    "FlyBot could not check your groups in time: escalations of Bots you own through a group may be missing "
    "here. Look again in a moment."
)
"""Said under a list of what a person may decide when an owner or fallback group could not be read in time."""


async def decidable_bots(deps: SlackDeps, every: list[Bot], user: str, admin: bool) -> tuple[set[str], set[str], bool]:
    """``(owned, backup, unchecked)``: the ids of the Bots ``user`` owns (listed, in an owner group now, or every Bot
    for an admin), of those whose fallback approvers they are (once asked), and whether some owner or fallback
    group could not be read in time (those Bots are in neither set: the list may lack them, and must say so)."""
    owned: set[str] = set()
    backup: set[str] = set()
    unchecked = False
    for bot in every:
        try:
            if admin or await deps.service.owns(bot, user, in_time=True):
                owned.add(bot.id)
            elif await deps.service.is_fallback(bot, user, in_time=True):
                backup.add(bot.id)
        except GroupCheckTooSlow:
            unchecked = True
    return owned, backup, unchecked


async def publish_home(deps: SlackDeps, user: str) -> str | None:
    """Render and ``views.publish`` the Home tab for ``user``; None when published, else Slack's error code."""
    admin = await deps.standing.is_admin(user)
    every = await deps.store.list_bots()
    every_bot = {b.id: b.name for b in every}  # an approval names its Bot, never its id
    owned, backup, unchecked = await decidable_bots(deps, every, user, admin)  # owner groups too
    bots = [b for b in every if admin or b.id in owned]
    names = {b.id: b.name for b in every}
    seen = [b.id for b in every if admin or b.id in owned or b.id in backup]
    pending = [
        e
        for e in (await deps.store.pending_escalations(seen) if seen else [])
        if admin or e.bot_id in owned or e.fallback_at is not None
    ]
    approvals = await deps.standing.manageable(user)
    view = home_view(
        bots=[(b.name, b.room or "a DM to its first owner") for b in bots if b.id in owned or admin],
        pending=[
            HomePending(
                id=e.id,
                bot_name=names.get(e.bot_id, e.bot_id),
                command=e.command,
                risk=e.risk,
                contained=e.contained,
                expires_at=e.expires_at,
                justification=e.justification or "",
                approvals_needed=e.approvals_needed,
                approvers=e.approvers,
            )
            for e in pending
        ],
        approvals=[to_card_standing(a, every_bot) for a in approvals],
        notice=GROUPS_UNCHECKED_TEXT if unchecked else None,
    )
    return await deps.chat.publish_home(user, view)


def register(app: AsyncApp, deps: SlackDeps) -> None:
    """Publish the Home tab whenever a user opens it."""

    @app.event("app_home_opened")
    @deps.tracked
    async def on_home_opened(event: dict[str, Any]) -> None:
        if event.get("tab", "home") == "home" and event.get("user"):
            await deps.store.note_home_viewer(str(event["user"]), datetime.now(UTC))  # redrawn on changes
            await publish_home(deps, str(event["user"]))
