"""``flybot bots``, ``flybot standing``, ``flybot admin-tokens``: operator commands over the store."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from bot.settings import Settings, load_settings


def _settings() -> Settings:
    return load_settings()


def _actor() -> str:
    """Who the audit trail says did it: ``operator:$USER`` (as :mod:`bot.operator_cli` does)."""
    import getpass

    return f"operator:{getpass.getuser()}"


# -- bots -----------------------------------------------------------------------------------------------
def cmd_bots_add(args: argparse.Namespace) -> int:
    """Register a Bot and print its token once. Exit 0, or 2 on invalid input / a taken name."""
    from bot.bots import register_bot
    from bot.errors import FlyBotError
    from bot.store import open_store

    async def run() -> int:
        store = await open_store(settings.database_url, create=False)
        try:
            bot, token = await register_bot(
                store,
                args.name,
                args.owner,
                args.room,
                chat_user=args.chat_user,
                two_person=args.two_person,
                owner_groups=args.owner_group,
                fallback_owners=args.fallback_owner,
                fallback_groups=args.fallback_group,
                allowed_rooms=args.allow_room,
                actor=_actor(),
            )
        except FlyBotError as exc:
            print(f"flybot: {exc.detail}", file=sys.stderr)
            return 2
        finally:
            await store.close()
        from bot.slack.directory import bot_line, group_warnings, names_for

        async with names_for(settings) as names:
            print(f"Registered Bot {bot.name}: {await bot_line(bot, names)}")
        print("Its API token, shown once (only a hash is stored):")
        print(token)
        await _check_with_slack(settings, list(bot.owners), bot.room)
        warnings = await group_warnings(settings, [*bot.owner_groups, *bot.fallback_groups])
        if warnings:
            print(f"flybot: warning: {'; '.join(warnings)}", file=sys.stderr)
        return 0

    settings = _settings()
    return asyncio.run(run())


async def _check_with_slack(settings: Settings, owners: list[str], room: str | None) -> None:
    """With Slack credentials: one warning line on stderr when Slack does not know an owner or the room, or FlyBot
    is not in the room (``users.info`` / ``conversations.info``). Local mode learns every id, so nothing to check."""
    if settings.slack_bot_token is None:
        return
    from bot.slack.directory import registration_warnings
    from bot.slack.gateway import make_web_client

    client = make_web_client(settings.slack_bot_token.get_secret_value(), settings.slack_api_url, max_retries=0)
    try:
        warnings = await registration_warnings(client, owners, room)
    finally:
        session = getattr(client, "session", None)
        if session is not None:
            await session.close()
    if warnings:
        print(f"flybot: warning: {'; '.join(warnings)}", file=sys.stderr)


def cmd_bots_list(args: argparse.Namespace) -> int:
    """List registered Bots (never their tokens)."""
    from bot.slack.directory import bot_line, names_for
    from bot.store import open_store

    async def run() -> int:
        settings = _settings()
        store = await open_store(settings.database_url, create=False)
        try:
            bots = await store.list_bots()
        finally:
            await store.close()
        if args.json:
            print(
                json.dumps(
                    [
                        {
                            "id": b.id,
                            "name": b.name,
                            "owners": list(b.owners),
                            "room": b.room,
                            "chat_user": b.chat_user,
                            "two_person": b.two_person,
                            "owner_groups": list(b.owner_groups),
                            "fallback_owners": list(b.fallback_owners),
                            "fallback_groups": list(b.fallback_groups),
                            "allowed_rooms": list(b.allowed_rooms),
                        }
                        for b in bots
                    ]
                )
            )
            return 0
        if not bots:
            print("No Bots yet. Add one: flybot bots add NAME --owner USER_ID [--room CHANNEL_ID]")
        async with names_for(settings) as names:  # people and rooms by name; --json has the ids
            for b in bots:
                print(f"{b.name}: {await bot_line(b, names)}")
        return 0

    return asyncio.run(run())


# -- standing approvals (operators act as an admin) -----------------------------------------------------
def cmd_standing(args: argparse.Namespace) -> int:
    """``flybot standing add|list|revoke`` with the slash command's rules. Exit 0, or 2 with one line on bad input."""
    import getpass

    from bot import standing_args
    from bot.errors import FlyBotError, NotFound
    from bot.escalations import utcnow
    from bot.risk.hidden import plain_warning, reveal
    from bot.slack.directory import names_for
    from bot.standing import StandingService, StandingSpec
    from bot.store import open_store
    from bot.wire import approval_to_api

    async def no_workspace_admin(_user: str) -> bool:
        return False

    async def run() -> int:
        settings = _settings()
        store = await open_store(settings.database_url, create=False)
        service = StandingService(
            store, admins=frozenset(settings.admins), is_workspace_admin=no_workspace_admin, clock=utcnow
        )
        actor = f"operator:{getpass.getuser()}"
        words = [w for w in args.words if w != "--json"]
        as_json = args.json or len(words) != len(args.words)
        try:
            parsed = standing_args.parse(words)
            if parsed.action == "list":
                scope, subject = (None, None)
                if parsed.bot:
                    bot = await store.bot_by_name(parsed.bot)
                    if bot is None:
                        raise NotFound(f"no Bot named {parsed.bot}")
                    scope, subject = "bot", bot.id
                elif parsed.room:
                    scope, subject = "room", parsed.room
                items = await store.list_standing(scope=scope, subject=subject, live_at=utcnow())
                if as_json:
                    print(json.dumps([approval_to_api(a) for a in items]))
                names = {b.id: b.name for b in await store.list_bots()}
                subjects: list[str] = []
                rooms, setters = {}, {}
                async with names_for(settings) as people:
                    rooms = await people.rooms(a.subject for a in items if a.scope == "room")
                    setters = await people.people(a.created_by for a in items)
                for a in [] if as_json else items:
                    expiry = a.expires_at.strftime("%Y-%m-%d %H:%M UTC") if a.expires_at else "never"
                    subject = names.get(a.subject, a.subject) if a.scope == "bot" else rooms.get(a.subject, a.subject)
                    if a.scope == "session":  # the Bot's name, not its id
                        subject = f"{names.get(a.bot_id or '', a.bot_id)}/{a.subject}"
                    subjects.append(subject)
                    print(
                        f"{a.id}\t{a.scope}\t{reveal(subject, multiline=False)}\t{a.pattern}\tmax={a.max_risk}\t"
                        f"{'contained-only' if a.contained_only else 'host-ok'}\texpires={expiry}\tuses={a.use_count}"
                        f"\tset by {reveal(setters[a.created_by], multiline=False)}"
                    )
                warning = plain_warning(subjects)
                if warning:
                    print(f"flybot standing: {warning}", file=sys.stderr)
                if not items and not as_json:
                    print("No live standing approval.")
                return 0
            if parsed.action == "revoke":
                revoked = await service.revoke(actor, parsed.id, operator=True)
                print(f"Revoked {revoked.id}.")
                return 0
            if parsed.bot:
                bot = await store.bot_by_name(parsed.bot)
                if bot is None:
                    raise NotFound(f"no Bot named {parsed.bot}")
                scope, subject = "bot", bot.id
            else:
                scope, subject = "room", parsed.room
            approval = await service.create(
                actor,
                StandingSpec(
                    scope=scope,
                    subject=subject,
                    pattern=parsed.pattern,
                    max_risk=parsed.max_risk,
                    contained_only=not parsed.host_ok,
                    expires=parsed.expires,
                    note=parsed.note,
                ),
                operator=True,
            )
            if approval.scope == "bot":
                covers = f"bot {parsed.bot}"
            else:
                async with names_for(settings) as people:
                    covers = f"{approval.scope} {await people.room(approval.subject)}"
            print(
                json.dumps(approval_to_api(approval))
                if as_json
                else f"Saved {approval.id}: {covers} `{approval.pattern}` up to {approval.max_risk}"
            )
            return 0
        except FlyBotError as exc:
            first = exc.detail.splitlines()[0].removesuffix(" Usage:").removesuffix(".")
            print(f"flybot standing: {first} (see flybot standing --help)", file=sys.stderr)
            return 2
        finally:
            await store.close()

    return asyncio.run(run())


def cmd_admin_token(args: argparse.Namespace) -> int:
    """``flybot admin-tokens add --user USER_ID``: an admin API token, printed once (hash stored)."""
    import uuid
    from datetime import UTC, datetime

    from bot.bots import USER_ID, hash_token, new_token
    from bot.store import open_store

    if not USER_ID.match(args.user):
        print(f"flybot: {args.user!r} is not a Slack user ID (like U0123ABCD)", file=sys.stderr)
        return 2

    async def run() -> int:
        settings = _settings()
        store = await open_store(settings.database_url, create=False)
        token = new_token()
        try:
            await store.add_admin_token(
                "adm_" + uuid.uuid4().hex[:12], hash_token(token), args.user, datetime.now(UTC), actor=_actor()
            )
        finally:
            await store.close()
        from bot.slack.directory import names_for

        async with names_for(settings) as names:
            print(f"Admin API token acting as {await names.person(args.user)}, shown once (only a hash is stored):")
        print(token)
        return 0

    return asyncio.run(run())
