"""The ``flybot`` command line: ``serve``, ``ask``, ``bots add|list``, ``classify``, ``preflight``.

Exit codes follow each subcommand's docstring; 2 is always a usage or configuration error, printed as one line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

from bot.settings import ConfigError, Settings, load_settings
from bot.store.migrate import StoreProblem


def _settings() -> Settings:
    return load_settings()


# -- serve --------------------------------------------------------------------------------------------
def cmd_serve(args: argparse.Namespace) -> int:
    """Run FlyBot until interrupted (Ctrl-C / SIGTERM). Exit 2 on a configuration error or a port in use."""
    overrides: dict[str, Any] = {}
    if args.host:
        overrides["host"] = args.host
    if args.port is not None:
        overrides["port"] = args.port
    settings = load_settings(**overrides)
    remote_note = None
    if settings.chat_backend == "local" and not _is_loopback(settings.host):
        if not args.allow_remote:
            print(f"flybot: local mode listens on loopback only (127.0.0.1, ::1), not {settings.host or '(all)'}: its "
                  "chat page lets whoever holds its key approve escalations. Pass --allow-remote to listen there anyway.",
                  file=sys.stderr)
            return 2
        remote_note = (f"warning: listening on {settings.host or '(all addresses)'}: the local chat page is protected "
                       "only by its login key; anyone with the URL below can approve escalations.")

    from aiohttp import web

    from bot.app import create_app, login_url
    from bot.logs import configure_logging

    fmt = settings.log_format if settings.log_format != "auto" else ("console" if settings.chat_backend == "local" else "json")
    configure_logging(fmt, secrets=[secret.get_secret_value() for secret in
                                    (settings.slack_bot_token, settings.slack_signing_secret, settings.slack_app_token)
                                    if secret is not None])
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in settings.host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((settings.host, settings.port))
    except OSError as exc:
        print(f"flybot: cannot listen on {settings.host}:{settings.port}: {exc.strerror}", file=sys.stderr)
        return 2
    port = sock.getsockname()[1]
    shown_host = "127.0.0.1" if settings.host in ("0.0.0.0", "") else settings.host
    base_url = f"http://{'[' + shown_host + ']' if ':' in shown_host else shown_host}:{port}"
    app = create_app(settings, base_url=base_url)

    async def banner(_app: web.Application) -> None:
        # After the store opened and its schema was checked (cleanup_ctx runs first): only a working server says so.
        if settings.chat_backend == "local":
            if remote_note:
                print(remote_note, flush=True)
            print(f"FlyBot local chat: open {login_url(app, base_url)}", flush=True)
            print(f"  (that key is shown only here and changes on every start; demo Bot token in "
                  f"{settings.state_dir}/local.json)", flush=True)
            print(f"Try it, from this directory: {_self_command()} ask -- sudo apt-get install -y jq", flush=True)
        else:
            print(f"FlyBot listening on {base_url} ({settings.chat_backend})", flush=True)

    app.on_startup.append(banner)
    try:
        web.run_app(app, sock=sock, print=None, shutdown_timeout=10)
    except StoreProblem as exc:
        print(f"flybot: {exc}", file=sys.stderr)
        return 2
    return 0


def _is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IP literals (127.0.0.0/8, ::1); anything else, "" included, is not."""
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


# -- db ---------------------------------------------------------------------------------------------------
def cmd_db(args: argparse.Namespace) -> int:
    """``flybot db upgrade`` applies the migrations; ``flybot db current`` prints the revision. Exit 0, 1 (current:
    behind), or 2 (configuration or store problem, one line)."""
    from sqlalchemy.exc import SQLAlchemyError

    from bot.store.migrate import current_revision, head_revision, upgrade
    from bot.store.sql import open_engine, unreachable

    async def run() -> int:
        url = _settings().database_url
        # ``db upgrade`` is the explicit way to create a store (PostgreSQL's schema); ``db current`` only looks.
        engine = await open_engine(url, create=args.db_cmd == "upgrade")
        try:
            if args.db_cmd == "upgrade":
                before = await current_revision(engine)
                await upgrade(engine)
                after = await current_revision(engine)
                print(f"schema at {after} (was {before or 'empty'})")
            else:
                current = await current_revision(engine)
                head = head_revision()
                print(f"{current or 'empty'} (this FlyBot needs {head})")
                return 0 if current == head else 1
        except (OSError, SQLAlchemyError) as exc:
            raise unreachable(url, exc) from None
        finally:
            await engine.dispose()
        return 0

    return asyncio.run(run())


def _self_command() -> str:
    """How to run this same ``flybot`` from a shell in the current directory (the venv's script, even when the venv
    is not activated)."""
    import shutil

    script = Path(sys.executable).parent / "flybot"
    if script.exists():
        relative = os.path.relpath(script)
        return relative if not relative.startswith("..") else str(script)
    return shutil.which("flybot") or f"{sys.executable} -m bot"


# -- bots -----------------------------------------------------------------------------------------------
def cmd_bots_add(args: argparse.Namespace) -> int:
    """Register a Bot and print its token once. Exit 0, or 2 on invalid input / a taken name."""
    from bot.bots import register_bot
    from bot.errors import FlyBotError
    from bot.store import open_store

    async def run() -> int:
        store = await open_store(_settings().database_url, create=False)
        try:
            bot, token = await register_bot(store, args.name, args.owner, args.room, chat_user=args.chat_user)
        except FlyBotError as exc:
            print(f"flybot: {exc.detail}", file=sys.stderr)
            return 2
        finally:
            await store.close()
        print(f"Registered Bot {bot.name} ({bot.id}); owners: {', '.join(bot.owners)}; room: {bot.room or '(DM to the first owner)'}"
              + (f"; chat user: {bot.chat_user}" if bot.chat_user else ""))
        print("Its API token, shown once (only a hash is stored):")
        print(token)
        return 0

    return asyncio.run(run())


def cmd_bots_list(args: argparse.Namespace) -> int:
    """List registered Bots (never their tokens)."""
    from bot.store import open_store

    async def run() -> int:
        store = await open_store(_settings().database_url, create=False)
        try:
            bots = await store.list_bots()
        finally:
            await store.close()
        if args.json:
            print(json.dumps([{"id": b.id, "name": b.name, "owners": list(b.owners), "room": b.room,
                               "chat_user": b.chat_user} for b in bots]))
            return 0
        if not bots:
            print("No Bots yet. Add one: flybot bots add NAME --owner USER_ID [--room CHANNEL_ID]")
        for b in bots:
            print(f"{b.name}\t{b.id}\towners={','.join(b.owners)}\troom={b.room or '-'}")
        return 0

    return asyncio.run(run())


# -- standing approvals (operators act as an admin) -----------------------------------------------------
def cmd_standing(args: argparse.Namespace) -> int:
    """``flybot standing add|list|revoke`` with the slash command's rules. Exit 0, or 2 with one line on bad input."""
    import getpass

    from bot import standing_args
    from bot.errors import FlyBotError, NotFound
    from bot.escalations import utcnow
    from bot.risk.hidden import reveal
    from bot.standing import StandingService, StandingSpec
    from bot.store import open_store

    async def no_workspace_admin(_user: str) -> bool:
        return False

    async def run() -> int:
        settings = _settings()
        store = await open_store(settings.database_url, create=False)
        service = StandingService(store, admins=frozenset(settings.admins), is_workspace_admin=no_workspace_admin,
                                  clock=utcnow)
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
                    print(json.dumps([a.to_api() for a in items]))
                for a in [] if as_json else items:
                    expiry = a.expires_at.strftime("%Y-%m-%d %H:%M UTC") if a.expires_at else "never"
                    print(f"{a.id}\t{a.scope}\t{reveal(a.subject, multiline=False)}\t{a.pattern}\tmax={a.max_risk}\t"
                          f"{'contained-only' if a.contained_only else 'host-ok'}\texpires={expiry}\tuses={a.use_count}")
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
            approval = await service.create(actor, StandingSpec(
                scope=scope, subject=subject, pattern=parsed.pattern, max_risk=parsed.max_risk,
                contained_only=not parsed.host_ok, expires=parsed.expires, note=parsed.note,
            ), operator=True)
            print(json.dumps(approval.to_api()) if as_json else f"Saved {approval.id}: {approval.scope} "
                  f"{approval.subject} `{approval.pattern}` up to {approval.max_risk}")
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
        store = await open_store(_settings().database_url, create=False)
        token = new_token()
        try:
            await store.add_admin_token("adm_" + uuid.uuid4().hex[:12], hash_token(token), args.user, datetime.now(UTC))
        finally:
            await store.close()
        print(f"Admin API token acting as {args.user}, shown once (only a hash is stored):")
        print(token)
        return 0

    return asyncio.run(run())


# -- ask --------------------------------------------------------------------------------------------------
EXIT_APPROVED, EXIT_NO, EXIT_USAGE, EXIT_UNREACHABLE = 0, 1, 2, 3


def _local_credentials(settings: Settings) -> dict[str, str]:
    from bot.app import local_state_file

    try:
        data = json.loads(local_state_file(settings).read_text())
    except (OSError, ValueError):
        return {}
    return {k: str(v) for k, v in data.items() if isinstance(v, str)}


def cmd_ask(args: argparse.Namespace) -> int:
    """Escalate ``COMMAND`` and wait: exit 0 approved; 1 denied/expired/withdrawn/undeliverable; 2 usage; 3 unreachable/refused."""
    from bot.client import FlyBotClient, Refused, Unreachable

    command = " ".join(args.command).strip() if len(args.command) != 1 else args.command[0]
    if not command:
        print("flybot ask: give the command after --, e.g. flybot ask -- sudo apt-get install -y jq", file=sys.stderr)
        return EXIT_USAGE
    settings = _settings()
    local = _local_credentials(settings)
    url = args.server or os.environ.get("FLYBOT_URL") or local.get("url") or f"http://{settings.host}:{settings.port}"
    token = args.token or os.environ.get("FLYBOT_TOKEN") or local.get("token")
    if not token:
        print("flybot ask: no token: pass --token, set FLYBOT_TOKEN, or run from the directory of `flybot serve` (local mode)",
              file=sys.stderr)
        return EXIT_USAGE
    body: dict[str, Any] = {
        "session_id": args.session or f"cli-{os.getpid()}",
        "command": command,
        "cwd": str(Path(args.cwd).resolve()) if args.cwd else os.getcwd(),
        "file_policy": "workspace-write",
        "approval_policy": "ask",
        "contained": bool(args.contained),
        "timeout_s": args.timeout,
    }
    if args.justification:
        body["justification"] = args.justification
    client = FlyBotClient(url, token)
    if not args.json:
        where = "in the sandbox" if args.contained else "on the host"
        from bot.risk.hidden import reveal

        print(f"Asking FlyBot at {url} to approve (runs {where}): {reveal(command)}", file=sys.stderr, flush=True)
    try:
        final = asyncio.run(_ask_until_answer(client, body, args.timeout + 5))
    except Refused as exc:
        _say(args, {"status": "refused", "code": exc.code, "detail": exc.detail}, f"refused: {exc.detail} ({exc.code})")
        return EXIT_UNREACHABLE if exc.code != "invalid_request" else EXIT_USAGE
    except Unreachable as exc:
        _say(args, {"status": "unreachable", "detail": str(exc)}, f"unreachable: {exc}")
        return EXIT_UNREACHABLE
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted: the escalation was withdrawn", file=sys.stderr)
        return EXIT_NO
    status = str(final.get("status"))
    who = final.get("decided_by") or final.get("decision_source") or ""
    if final.get("decision_source") == "standing_approval":
        who = f"standing approval {final.get('standing_approval_id')} (set by {final.get('decided_by')})"
    line = f"{status}" + (f" by {who}" if who and status in ("approved", "denied") else "")
    if final.get("reason") and status != "approved":
        line += f": {final['reason']}"
    line += f" (escalation {final.get('id')}, risk {final.get('risk')})"
    _say(args, final, line)
    return EXIT_APPROVED if status == "approved" else EXIT_NO


async def _ask_until_answer(client: Any, body: dict[str, Any], timeout_s: float) -> dict[str, Any]:
    """Escalate and wait; Ctrl-C or SIGTERM withdraws the escalation (best effort) so no card stays live for nothing."""
    import signal

    from bot.client import ClientError

    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    if task is not None:
        loop.add_signal_handler(signal.SIGTERM, task.cancel)
    created = await client.escalate(body, connect_timeout_s=min(timeout_s, 10.0))
    try:
        final: dict[str, Any] = await client.wait(created, timeout_s=timeout_s)
    except asyncio.CancelledError:
        try:
            await asyncio.wait_for(client.withdraw(created["id"]), 5)
        except (ClientError, TimeoutError):
            pass
        raise
    if final.get("status") == "pending":
        try:
            final = await client.withdraw(final["id"])
        except ClientError:
            pass
    return final


def _say(args: argparse.Namespace, data: dict[str, Any], line: str) -> None:
    """Print the outcome: JSON as is, or the line with hidden characters made visible (a deny reason is user text)."""
    from bot.risk.hidden import reveal

    print(json.dumps(data) if args.json else reveal(line), flush=True)


# -- parser ----------------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The ``flybot`` argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="flybot", description="FlyBot: approval cards for coding-agent escalations.")
    sub = parser.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="run FlyBot (local chat without Slack credentials)")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1, or FLYBOT_HOST)")
    serve.add_argument("--port", type=int, help="port (default 8080, or FLYBOT_PORT; 0 picks a free one)")
    serve.add_argument("--allow-remote", action="store_true",
                       help="local mode: listen on a non-loopback --host (the chat page is then protected only by its key)")
    serve.set_defaults(func=cmd_serve)

    ask = sub.add_parser("ask", help="escalate one command and wait for the owner's decision")
    ask.add_argument("--server", help="FlyBot URL (or FLYBOT_URL; local mode finds it)")
    ask.add_argument("--token", help="the Bot's API token (or FLYBOT_TOKEN; local mode finds it)")
    where = ask.add_mutually_exclusive_group()
    where.add_argument("--contained", action="store_true", help="the command runs in the sandbox micro-VM")
    where.add_argument("--host", dest="on_host", action="store_true", help="the command runs on the host (default)")
    ask.add_argument("--cwd", help="working directory of the command (default: the current one)")
    ask.add_argument("--timeout", type=int, default=600, help="seconds before the escalation expires (default 600)")
    ask.add_argument("--justification", help="why the session needs it (shown on the card)")
    ask.add_argument("--session", help="session id (default cli-PID)")
    ask.add_argument("--json", action="store_true", help="print the final escalation as JSON")
    ask.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND...")
    ask.set_defaults(func=cmd_ask)

    db = sub.add_parser("db", help="database schema")
    db_sub = db.add_subparsers(dest="db_cmd", required=True, metavar="ACTION")
    db_sub.add_parser("upgrade", help="apply the migrations (run before starting replicas)").set_defaults(func=cmd_db)
    db_sub.add_parser("current", help="print the schema revision; exit 1 when behind").set_defaults(func=cmd_db)

    bots = sub.add_parser("bots", help="register and list Bots")
    bots_sub = bots.add_subparsers(dest="bots_cmd", required=True, metavar="ACTION")
    add = bots_sub.add_parser("add", help="register a Bot and print its token once")
    add.add_argument("name")
    add.add_argument("--owner", action="append", required=True, help="Slack user ID of an owner (repeatable)")
    add.add_argument("--room", help="Slack channel ID where its cards go")
    add.add_argument("--chat-user", metavar="USER_ID",
                     help="the Slack user ID the Bot posts as: only its room messages count as its blocked reports")
    add.set_defaults(func=cmd_bots_add)
    lst = bots_sub.add_parser("list", help="list Bots")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(func=cmd_bots_list)

    standing = sub.add_parser(
        "standing", help="standing approvals (as an admin)", description="standing add|list|revoke ...",
        usage="flybot standing add --bot NAME|--room CHANNEL_ID PATTERN [--max-risk LEVEL] [--host-ok] "
              "[--expires 7d] [--note TEXT] | list [--bot NAME|--room CHANNEL_ID] | revoke ID",
    )
    standing.add_argument("--json", action="store_true", help="print JSON")
    standing.add_argument("words", nargs=argparse.REMAINDER)
    standing.set_defaults(func=cmd_standing)

    admin_tokens = sub.add_parser("admin-tokens", help="admin API tokens")
    admin_sub = admin_tokens.add_subparsers(dest="admin_cmd", required=True, metavar="ACTION")
    admin_add = admin_sub.add_parser("add", help="create an admin API token acting as USER_ID")
    admin_add.add_argument("--user", required=True)
    admin_add.set_defaults(func=cmd_admin_token)

    for module in ("bot.risk.cli", "bot.preflight.cli", "bot.hooks.cli"):
        try:
            register = __import__(module, fromlist=["register"]).register
        except (ImportError, AttributeError):
            continue
        register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``flybot``; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.cmd != "serve":
        import logging

        from bot.logs import configure_logging

        configure_logging("console", level=logging.WARNING)  # stdout stays the command's own output
    if getattr(args, "command", None) and args.command[:1] == ["--"]:
        args.command = args.command[1:]
    try:
        return int(args.func(args))
    except ConfigError as exc:
        print(f"flybot: configuration error: {exc}", file=sys.stderr)
        return 2
    except StoreProblem as exc:
        print(f"flybot: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - last resort: one line, never a traceback
        print(f"flybot: unexpected error ({type(exc).__name__}); nothing more to show here, see FlyBot's logs",
              file=sys.stderr)
        return 1
