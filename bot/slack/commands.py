"""The ``/flybot`` slash command. Standing approvals (issue 4) add subcommands here."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp

from bot.slack.deps import SlackDeps

HELP = (
    "*FlyBot* shows a Bot's owners an approval card when a coding-agent session asks to run one call with "
    "danger-full-access.\n"
    "• `/flybot help`: this text\n"
    "• `/flybot pending`: the escalations waiting for a decision in Bots you own"
)


def register(app: AsyncApp, deps: SlackDeps) -> None:
    """Register ``/flybot``; answers are ephemeral (only the caller sees them)."""

    @app.command("/flybot")
    async def on_flybot(ack: AsyncAck, command: dict[str, Any]) -> None:
        words = str(command.get("text") or "").split()
        if not words or words[0] == "help":
            await ack(HELP)
            return
        if words[0] == "pending":
            user = str(command.get("user_id") or "")
            bots = [b for b in await deps.store.list_bots() if user in b.owners or user in deps.service.admins]
            pending = await deps.store.pending_escalations([b.id for b in bots]) if bots else []
            if not pending:
                await ack("No escalation is waiting for you.")
                return
            names = {b.id: b.name for b in bots}
            lines = [f"• {names.get(e.bot_id, e.bot_id)}: `{e.id}` risk {e.risk}, expires {e.expires_at:%H:%M:%S} UTC" for e in pending[:20]]
            await ack("Waiting for a decision:\n" + "\n".join(lines))
            return
        await ack("Unknown subcommand. Try `/flybot help`.")
