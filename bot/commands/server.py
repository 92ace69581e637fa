"""``flybot serve`` and ``flybot db``: the server and its schema (load aiohttp's server, the store, Alembic)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.settings import Settings, load_settings

if TYPE_CHECKING:
    from bot.logs import HeldRecords


LOGIN_FILE = "login-url"
"""The file in FlyBot's state directory (mode 0600) that holds local mode's current login URL when ``flybot serve``'s
standard output is no terminal."""


def show_login(url: str, state_dir: Path) -> str:
    """What ``flybot serve`` prints for local mode's login URL ``url``: the URL itself on a terminal; else (stdout
    is a file or a pipe, such as ``nohup.out`` in a directory an agent can read) the URL is written to
    :data:`LOGIN_FILE` in ``state_dir`` (0600, replaced whole) and the answer names that file and the page's address,
    so no log file holds a live key. Raises OSError when the file cannot be written."""
    if sys.stdout.isatty():
        return url
    state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = state_dir / LOGIN_FILE
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(url + "\n")
    os.replace(tmp, path)
    return (
        f"the login URL in {path} (for {url.split('?', 1)[0]}; the key is not shown here: this output is no terminal)"
    )


def _settings() -> Settings:
    return load_settings()


# -- serve --------------------------------------------------------------------------------------------
def keep_memory_private() -> bool:
    """Make this process's memory unreadable by the other processes of its user, an agent's among them: prctl(2)
    ``PR_SET_DUMPABLE`` 0 puts ``/proc/PID/mem`` and ptrace out of reach without CAP_SYS_PTRACE (and turns off core
    dumps). The server holds the Slack or local mode signing secret and the tokens there. True when set (Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    return int(ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)) == 0  # PR_SET_DUMPABLE = 4


def cmd_serve(args: argparse.Namespace) -> int:
    """Run FlyBot until interrupted (Ctrl-C / SIGTERM). Exit 2 on a configuration error or a port in use."""
    from bot.logs import HeldRecords

    # The settings' warnings (an ignored .env, store or state directory) are logged once the log format they name is
    # set up: with FLYBOT_LOG_FORMAT=json they are JSON lines too.
    held = HeldRecords("bot.settings")
    try:
        return _serve(args, held)
    finally:
        held.replay()


def _serve(args: argparse.Namespace, held: HeldRecords) -> int:
    keep_memory_private()
    overrides: dict[str, Any] = {}
    if args.host:
        overrides["host"] = args.host
    if args.port is not None:
        overrides["port"] = args.port
    settings = load_settings(**overrides)
    remote_note = None
    if settings.chat_backend == "local" and not _is_loopback(settings.host):
        if not args.allow_remote:
            print(
                f"flybot: local mode listens on loopback only (127.0.0.1, ::1), not {settings.host or '(all)'}: its "
                "chat page lets whoever holds its key approve escalations. Pass --allow-remote to listen there anyway.",
                file=sys.stderr,
            )
            return 2
        remote_note = (
            f"warning: listening on {settings.host or '(all addresses)'}: the local chat page is protected "
            "only by its login key; anyone with the URL below can approve escalations."
        )

    from aiohttp import web

    from bot.app import create_app, login_url
    from bot.capacity import LISTEN_BACKLOG
    from bot.logs import configure_logging

    fmt = (
        settings.log_format
        if settings.log_format != "auto"
        else ("console" if settings.chat_backend == "local" else "json")
    )
    configure_logging(
        fmt,
        secrets=[
            *(
                secret.get_secret_value()
                for secret in (settings.slack_bot_token, settings.slack_signing_secret, settings.slack_app_token)
                if secret is not None
            ),
            *_database_password(settings.database_url),
        ],
    )
    held.replay()
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in settings.host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((settings.host, settings.port))
        # Listening from here on: a connection made once the banner is printed waits in the queue (not refused)
        # until the server accepts, after start-up.
        sock.listen(LISTEN_BACKLOG)
    except OSError as exc:
        import errno

        fix = (
            "another program (perhaps another flybot serve) has that port: pick another with --port N or FLYBOT_PORT"
            if exc.errno == errno.EADDRINUSE
            else "check --host (FLYBOT_HOST) and --port (FLYBOT_PORT)"
        )
        print(
            f"flybot: cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}; {fix}", file=sys.stderr
        )
        return 2
    port = sock.getsockname()[1]
    shown_host = "127.0.0.1" if settings.host in ("0.0.0.0", "") else settings.host
    base_url = f"http://{'[' + shown_host + ']' if ':' in shown_host else shown_host}:{port}"
    app = create_app(settings, base_url=base_url)
    if settings.chat_backend == "local":
        from bot.app import EMULATOR

        def next_login(_key: str) -> None:
            shown = show_login(str(login_url(app, base_url)), Path(settings.state_dir))
            print(
                f"FlyBot local chat: that login URL is now used up; for another browser or tab open {shown}", flush=True
            )

        app[EMULATOR].access.on_new_key = next_login

    def banner() -> None:
        # Once the server accepts connections (after the store opened, its schema was checked and the site
        # started): whoever opens the URL at once is answered, never refused.
        if settings.chat_backend == "local":
            if remote_note:
                print(remote_note, flush=True)
            shown = show_login(str(login_url(app, base_url)), Path(settings.state_dir))
            where_next = "shown here" if sys.stdout.isatty() else "written to that file"
            print(f"FlyBot local chat: open {shown}", flush=True)
            print(
                f"  (that key works once; after each use the next one is {where_next}; demo Bot token in "
                f"{settings.state_dir}/local.json)",
                flush=True,
            )
            where = "any directory" if Path(settings.state_dir).is_absolute() else "this directory"
            print(f"Try it, from {where}: {_self_command()} ask --session s1 -- sudo apt-get install -y jq", flush=True)
        else:
            print(f"FlyBot listening on {base_url} ({settings.chat_backend})", flush=True)

    async def freeze_heap(_app: web.Application) -> None:
        from bot.limits import tune_garbage_collector

        tune_garbage_collector()  # last: after the store, the Slack app and the workers were made

    app.on_startup.append(freeze_heap)
    from bot.store.migrate import StoreProblem

    loop = event_loop(settings.event_loop)
    if loop is None:
        print(
            "flybot: FLYBOT_EVENT_LOOP=uvloop, but uvloop is not installed here: install it "
            "(pip install uvloop) or set FLYBOT_EVENT_LOOP=asyncio",
            file=sys.stderr,
        )
        return 2
    try:
        _run(app, sock, settings, loop, banner)
    except StoreProblem as exc:
        print(f"flybot: {exc}", file=sys.stderr)
        return 2
    return 0


def bot_token_check(app: Any) -> Callable[[bytes], Awaitable[bool]]:
    """For :class:`bot.capacity.ConnectionGuard`: whether an ``Authorization`` value (``Bearer <token>``) names a Bot
    of ``app``'s store (:func:`bot.bots.authenticate`; a malformed or unknown token: False)."""
    from bot.api.escalations import STORE
    from bot.bots import authenticate
    from bot.errors import Unauthorized

    async def check(authorization: bytes) -> bool:
        try:
            await authenticate(app[STORE], authorization.decode("latin-1"))
        except Unauthorized:
            return False
        return True

    return check


def _run(
    app: Any, sock: socket.socket, settings: Settings, loop: asyncio.AbstractEventLoop, serving: Callable[[], None]
) -> None:
    """Serve ``app`` on ``sock`` behind a :class:`bot.capacity.ConnectionGuard` until SIGINT/SIGTERM, then shut down
    as ``aiohttp.web.run_app`` does (long-polls answered 503 first, handlers given 10 s). ``serving`` is called once
    the server accepts connections."""
    from aiohttp import web

    from bot.app import METRICS
    from bot.capacity import ConnectionGuard, GuardedSite
    from bot.limits import connection_budget, health_reserve, raise_open_file_limit

    connections = connection_budget(raise_open_file_limit(), settings.max_connections)
    guard = ConnectionGuard(
        connections=connections,
        reserve=health_reserve(connections),
        per_ip=settings.max_connections_per_ip,
        header_timeout_s=settings.header_timeout_s,
        metrics=app[METRICS],
        bot_of=bot_token_check(app),
    )

    async def serve() -> None:
        # access_log=None: no per-connection access logger (FlyBot logs its own events; aiohttp's INFO access lines
        # were never shown), which costs a replica holding many long-polls measurable CPU.
        runner = web.AppRunner(
            app,
            handle_signals=True,
            access_log=None,
            shutdown_timeout=10,
            keepalive_timeout=settings.keepalive_timeout_s,
        )
        await runner.setup()
        try:
            await GuardedSite(runner, sock, guard).start()
            serving()
            while True:
                await asyncio.sleep(3600)
        finally:
            await runner.cleanup()

    asyncio.set_event_loop(loop)
    main = loop.create_task(serve())
    try:
        loop.run_until_complete(main)
    except (web.GracefulExit, KeyboardInterrupt):
        pass
    finally:
        if not main.done():
            main.cancel()
            with contextlib.suppress(asyncio.CancelledError, web.GracefulExit):
                loop.run_until_complete(main)
        rest = asyncio.all_tasks(loop)
        for task in rest:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*rest, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def event_loop(choice: str) -> asyncio.AbstractEventLoop | None:
    """A new event loop for ``flybot serve``: ``uvloop``'s, ``asyncio``'s, or (``auto``) uvloop's where it is
    installed, else asyncio's. None when ``uvloop`` was asked for and is not installed (the caller says so)."""
    if choice != "asyncio":
        try:
            import uvloop
        except ImportError:
            if choice == "uvloop":
                return None
        else:
            return uvloop.new_event_loop()
    return asyncio.new_event_loop()


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
    the store was read and its schema is behind or empty, with one line on stderr naming the store and the fix),
    or 2 (configuration or store problem, e.g. no store there at all, one line)."""
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
                if current == head:
                    return 0
                # Exit 1 (not 2): the store was found and read; its schema is behind (empty: none yet), as a
                # script checking before a deploy wants to know. Say where it looked and the fix (README "db").
                from bot.store.sql import shown_url

                state = "has no FlyBot schema yet" if not current else f"is at {current}, behind {head}"
                print(
                    f"flybot db current: the store at {shown_url(url)} {state}; run flybot db upgrade", file=sys.stderr
                )
                return 1
        except (OSError, SQLAlchemyError) as exc:
            raise unreachable(url, exc) from None
        finally:
            await engine.dispose()
        return 0

    return asyncio.run(run())


def _self_command() -> str:
    """How to run this same ``flybot`` from a shell in any directory: the venv's script by its absolute path (even when
    the venv is not activated), else ``flybot`` as found on PATH, else the interpreter with ``-m bot``."""
    import shutil

    script = Path(sys.executable).parent / "flybot"
    if script.exists():
        return os.path.abspath(script)
    return shutil.which("flybot") or f"{sys.executable} -m bot"


def _database_password(url: str) -> list[str]:
    """The database URL's password (for the log redactor), or nothing."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        password = make_url(url).password
    except (ArgumentError, ValueError):
        return []
    return [str(password)] if password else []
