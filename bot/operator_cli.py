"""Operator commands for the Bot lifecycle, admin tokens, the audit trail and the escalation list.

``flybot bots rotate-token|remove|set``, ``flybot admin-tokens list|revoke``, ``flybot audit``, ``flybot
escalations``. Like every operator command they open the server's store and never create one. Exit codes: 0 done;
2 bad input, a setting or the store (one line on stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.store import Store


def _actor() -> str:
    return f"operator:{getpass.getuser()}"


def _run(prefix: str, work: Callable[[Store], Awaitable[int]]) -> int:
    """Open the store (never creating it), run ``work``, close; a FlyBotError is one line on stderr, exit 2."""

    from bot.errors import FlyBotError
    from bot.settings import load_settings
    from bot.store import open_store

    async def run() -> int:
        store = await open_store(load_settings().database_url, create=False)
        try:
            return await work(store)
        except FlyBotError as exc:
            print(f"flybot {prefix}: {exc.detail}", file=sys.stderr)
            return 2
        finally:
            await store.close()

    return asyncio.run(run())


def cmd_bots_rotate_token(args: argparse.Namespace) -> int:
    """Print a new token for the Bot once; the old one stops at once."""
    from bot.bots import rotate_token

    async def work(store: Store) -> int:
        bot, token = await rotate_token(store, args.name, actor=_actor())
        print(f"New API token for {bot.name}, shown once (the old one no longer works):")
        print(token)
        return 0

    return _run("bots rotate-token", work)


def cmd_bots_remove(args: argparse.Namespace) -> int:
    """Remove a Bot: its token stops; its pending escalations are withdrawn by the server (cards updated)."""
    from bot.bots import remove_bot

    async def work(store: Store) -> int:
        bot, pending = await remove_bot(store, args.name, actor=_actor())
        tail = (
            f"; FlyBot withdraws its {pending} pending escalation{'s' if pending != 1 else ''} and updates the cards"
            if pending
            else ""
        )
        print(f"Removed {bot.name}: its token no longer works{tail}.")
        return 0

    return _run("bots remove", work)


def cmd_bots_set(args: argparse.Namespace) -> int:
    """Change a Bot's owners (the whole list), room, allowed rooms and/or chat user."""
    from bot.bots import update_bot

    async def work(store: Store) -> int:
        from bot.settings import load_settings
        from bot.slack.directory import bot_line, group_warnings, names_for

        bot = await update_bot(
            store,
            args.name,
            actor=_actor(),
            owners=args.owner,
            room=args.room,
            chat_user=args.chat_user,
            two_person=args.two_person,
            owner_groups=args.owner_group,
            fallback_owners=args.fallback_owner,
            fallback_groups=args.fallback_group,
            allowed_rooms=args.allow_room,
        )
        settings = load_settings()
        async with names_for(settings) as names:
            print(f"{bot.name}: {await bot_line(bot, names)}")
        warnings = await group_warnings(settings, [*bot.owner_groups, *bot.fallback_groups])
        if warnings:
            print(f"flybot: warning: {'; '.join(warnings)}", file=sys.stderr)
        return 0

    return _run("bots set", work)


def cmd_admin_tokens_list(args: argparse.Namespace) -> int:
    """List admin tokens (never the tokens themselves)."""

    from bot.settings import load_settings
    from bot.slack.directory import names_for

    async def work(store: Store) -> int:
        tokens = await store.list_admin_tokens()
        if args.json:
            print(json.dumps([{"id": i, "user": u, "created_at": c.isoformat()} for i, u, c in tokens]))
        elif not tokens:
            print("No admin tokens. Add one: flybot admin-tokens add --user USER_ID")
        if args.json or not tokens:
            return 0
        async with names_for(load_settings()) as names:
            people = await names.people(user for _id, user, _created in tokens)
        for token_id, user, created in tokens:
            print(f"{token_id}\tacts as {people[user]}\tcreated {created.strftime('%Y-%m-%d %H:%M UTC')}")
        return 0

    return _run("admin-tokens list", work)


def cmd_admin_tokens_revoke(args: argparse.Namespace) -> int:
    """Revoke an admin token by id; it stops at once."""
    from datetime import UTC, datetime

    from bot.errors import NotFound

    async def work(store: Store) -> int:
        if not await store.revoke_admin_token(args.id):
            raise NotFound(f"no admin token {args.id} (flybot admin-tokens list shows them)")
        await store.audit("admin_token.revoked", at=datetime.now(UTC), actor=_actor(), token_id=args.id)
        print(f"Revoked {args.id}.")
        return 0

    return _run("admin-tokens revoke", work)


def cmd_audit(args: argparse.Namespace) -> int:
    """Print the audit trail, oldest first (JSON lines with ``--json``); people, rooms and Bots by name."""
    from bot.audit import (
        bot_id_of,
        bot_labels,
        entry_line,
        entry_text,
        entry_to_api,
        entry_values,
        labels,
        since_of,
        until_of,
    )
    from bot.escalations import utcnow
    from bot.risk.hidden import plain_warning
    from bot.settings import load_settings
    from bot.slack.directory import names_for

    async def work(store: Store) -> int:
        now = utcnow()
        since, until = since_of(args.since, now), until_of(args.until, now)
        bot_id = await bot_id_of(store, args.bot)
        bots = await bot_labels(store)  # removed Bots too: "builder (removed)"
        after, shown = 0, 0
        warned = False
        async with names_for(load_settings()) as names:
            while True:
                rows = await store.audit_page(after_id=after, since=since, until=until, bot_id=bot_id, limit=500)
                named = {} if args.json else await labels((v for r in rows for v in entry_values(r)), names, bots)
                for row in rows:
                    print(json.dumps(entry_to_api(row)) if args.json else entry_line(row, named))
                warning = None if args.json or warned else plain_warning(entry_text(row, named) for row in rows)
                if warning:  # once, on stderr: stdout stays one line per row
                    print(f"flybot audit: {warning}", file=sys.stderr)
                    warned = True
                shown += len(rows)
                if len(rows) < 500:
                    break
                after = rows[-1].id
        if not shown and not args.json:
            window = (f" since {args.since}" if args.since else "") + (f" before {args.until}" if args.until else "")
            print(f"No audit rows{window}.", file=sys.stderr)
        return 0

    return _run("audit", work)


def cmd_escalations(args: argparse.Namespace) -> int:
    """List escalations, newest first, with their state, Bot name (``builder (removed)`` for a removed Bot) and who
    decided (by name)."""
    from bot.audit import bot_id_of, bot_labels, escalation_line, labels, since_of
    from bot.escalations import utcnow
    from bot.risk.hidden import plain_warning
    from bot.settings import load_settings
    from bot.slack.directory import names_for
    from bot.wire import escalation_to_api

    if args.limit < 1:
        print("flybot escalations: --limit must be 1 or more", file=sys.stderr)
        return 2

    async def work(store: Store) -> int:
        bot_id = await bot_id_of(store, args.bot)
        since = since_of(args.since, utcnow())
        items = await store.list_escalations(
            status="pending" if args.pending else None, bot_id=bot_id, since=since, limit=args.limit + 1
        )
        cut = len(items) > args.limit  # one more than asked for was found: say the list is cut, and how to see more
        items = items[: args.limit]
        bots = await bot_labels(store)  # removed Bots too: "builder (removed)"
        names_of = {b.id: b.name for b in await store.list_bots(removed=True)}  # --json: the plain name
        named: dict[str, str] = {}
        if not args.json:
            async with names_for(load_settings()) as names:
                named = await labels([v for e in items for v in (e.bot_id, e.decided_by or "")], names, bots)
        for escalation in items:
            if args.json:
                print(json.dumps({**escalation_to_api(escalation), "bot": names_of.get(escalation.bot_id)}))
            else:
                print(escalation_line(escalation, named))
        warning = None if args.json else plain_warning((e.command for e in items), multiline=True)
        if warning:
            print(f"flybot escalations: {warning}", file=sys.stderr)
        if not items and not args.json:
            print("No pending escalations." if args.pending else "No escalations.", file=sys.stderr)
        if cut:
            print(
                f"flybot escalations: the newest {args.limit:,} shown; more match: pass a larger --limit, or narrow "
                "with --pending, --bot NAME or --since DURATION.",
                file=sys.stderr,
            )
        return 0

    return _run("escalations", work)


def cmd_rules(args: argparse.Namespace) -> int:
    """``flybot rules list|set|remove``: the organisation's program rules (bot/program_rules.py); operators act as
    an admin. Exit 0, or 2 with one line on bad input (nothing changes)."""
    from bot.escalations import utcnow
    from bot.program_rules import ProgramRuleService, RuleSpec
    from bot.wire import rule_to_api

    async def no_admin(_user: str) -> bool:
        return False

    async def work(store: Store) -> int:
        service = ProgramRuleService(store, is_admin=no_admin, clock=utcnow)
        if args.rules_cmd == "set":
            rule = await service.set(
                _actor(),
                RuleSpec(program=args.program, subcommand=args.subcommand, grade=args.grade, note=args.note),
                operator=True,
            )
            print(
                json.dumps(rule_to_api(rule)) if args.json else f"Program rule: `{rule.words}` is graded {rule.grade}."
            )
            return 0
        if args.rules_cmd == "remove":
            rule = await service.remove(_actor(), args.program, args.subcommand, operator=True)
            print(
                json.dumps(rule_to_api(rule))
                if args.json
                else f"Removed the program rule on `{rule.words}` ({rule.grade}); FlyBot grades it as it did before."
            )
            return 0
        rules = await service.list()
        if args.json:
            print(json.dumps([rule_to_api(rule) for rule in rules]))
            return 0
        for rule in rules:
            note = f"\t{rule.note}" if rule.note else ""
            print(f"{rule.words}\t{rule.grade}\tset by {rule.set_by} {rule.set_at:%Y-%m-%d %H:%M} UTC{note}")
        if not rules:
            print("No program rules. Set one: flybot rules set PROGRAM GRADE [--subcommand WORD] [--note TEXT]")
        return 0

    return _run(f"rules {args.rules_cmd}", work)
