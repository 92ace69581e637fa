"""A throw-away PostgreSQL database for tests (PostgreSQL runs on 127.0.0.1:5432 with trust auth here and in CI),
reached directly or through a private PgBouncer in transaction mode.

``FLYBOT_TEST_POSTGRES`` overrides the server URL (an asyncpg DSN of a database to connect to for CREATE DATABASE).
Without a reachable server (or without Debian's ``pgbouncer``) the PostgreSQL tests are skipped locally and FAIL
under ``CI=true``.

A test picks its store by backend name, :data:`BACKENDS`: ``sqlite``, ``postgresql``, or ``pgbouncer`` (the same
PostgreSQL behind ``pool_mode = transaction``, :func:`pgbouncer`). Settings for a store URL come from
:func:`store_settings`: behind PgBouncer they add ``database_listen_url``, PostgreSQL itself, for ``LISTEN``.
"""

from __future__ import annotations

import atexit
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import pytest

ADMIN_DSN = os.environ.get("FLYBOT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
BACKENDS = ("sqlite", "postgresql", "pgbouncer")
"""Every store a test can run on; ``pgbouncer`` is PostgreSQL behind PgBouncer in transaction mode."""

_LISTEN: dict[str, str] = {}  # store URL through PgBouncer -> the same database on PostgreSQL itself


def _unavailable(why: str) -> None:
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{why} (required in CI)")
    pytest.skip(why)


@dataclass
class Bouncer:
    """A private PgBouncer: its loopback port, its directory (ini, userlist, log) and its process."""

    port: int
    directory: Path
    process: subprocess.Popen[bytes]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        shutil.rmtree(self.directory, ignore_errors=True)


_bouncer: Bouncer | None = None


def _version(binary: str) -> tuple[int, ...]:
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10).stdout
    found = re.search(r"PgBouncer (\d+)\.(\d+)", out)
    return (int(found.group(1)), int(found.group(2))) if found else (0, 0)


def pgbouncer() -> Bouncer:
    """This test process's PgBouncer (started at first use, stopped at exit): ``pool_mode = transaction``, a pool of
    four server connections per database, trust auth, any database name forwarded to :data:`ADMIN_DSN`'s server,
    protocol-level prepared statements not tracked (``max_prepared_statements = 0`` where the version has it). It
    runs as ``postgres`` (or ``nobody``) when the tests run as root: PgBouncer refuses root."""
    global _bouncer
    if _bouncer is not None and _bouncer.process.poll() is None:
        return _bouncer
    binary = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
    if not os.path.exists(binary):
        _unavailable("pgbouncer is not installed (Debian: apt-get install pgbouncer)")
    server = urlsplit(ADMIN_DSN)
    user = server.username or "postgres"
    directory = Path(tempfile.mkdtemp(prefix="flybot-pgbouncer-"))
    directory.chmod(0o755)  # read by the unprivileged user PgBouncer switches to
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    tracked = "max_prepared_statements = 0\n" if _version(binary) >= (1, 21) else ""
    ini = directory / "pgbouncer.ini"
    ini.write_text(
        "[databases]\n"
        f"* = host={server.hostname or '127.0.0.1'} port={server.port or 5432}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {directory / 'userlist.txt'}\n"
        "pool_mode = transaction\ndefault_pool_size = 4\nmax_client_conn = 1000\n"
        "ignore_startup_parameters = extra_float_digits\n"
        f"{tracked}"
    )
    (directory / "userlist.txt").write_text(f'"{user}" ""\n')
    for path in (ini, directory / "userlist.txt"):
        path.chmod(0o644)
    command = [binary]
    if os.geteuid() == 0:
        command += ["-u", "postgres" if _has_user("postgres") else "nobody"]
    log = (directory / "pgbouncer.log").open("wb")
    process = subprocess.Popen([*command, str(ini)], stdout=log, stderr=log)
    log.close()
    deadline = time.monotonic() + 15
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                _unavailable(f"pgbouncer did not start: {(directory / 'pgbouncer.log').read_text()[-2000:]}")
            time.sleep(0.05)
    _bouncer = Bouncer(port=port, directory=directory, process=process)
    atexit.register(_bouncer.stop)
    return _bouncer


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def store_settings(url: str) -> dict[str, Any]:
    """FlyBot's settings for the store at ``url``: ``database_url``, and behind PgBouncer ``database_listen_url``
    (the same database on PostgreSQL itself, since a pooler in transaction mode cannot hold a ``LISTEN``)."""
    settings: dict[str, Any] = {"database_url": url}
    if url in _LISTEN:
        settings["database_listen_url"] = _LISTEN[url]
    return settings


async def _admin() -> asyncpg.Connection:
    try:
        return await asyncpg.connect(ADMIN_DSN, timeout=5)
    except (OSError, asyncpg.PostgresError) as exc:
        if os.environ.get("CI") == "true":
            raise RuntimeError(f"PostgreSQL is required in CI and is not reachable at {ADMIN_DSN}: {exc}") from exc
        pytest.skip(f"PostgreSQL not reachable at {ADMIN_DSN}: {exc}")


@asynccontextmanager
async def throwaway_database(encoding: str | None = None, *, pooled: bool = False) -> AsyncIterator[str]:
    """Create a fresh database (in ``encoding``, e.g. ``SQL_ASCII``, else the server's default), yield its SQLAlchemy
    URL (``postgresql+asyncpg://``), drop it afterwards. ``pooled``: the URL goes through :func:`pgbouncer`
    (:func:`store_settings` knows the direct one)."""
    name = f"flybot_test_{uuid.uuid4().hex[:12]}"
    admin = await _admin()
    try:
        options = f" ENCODING '{encoding}' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'" if encoding else ""
        await admin.execute(f'CREATE DATABASE "{name}"{options}')
    finally:
        await admin.close()
    base = ADMIN_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1)
    url = direct = f"{base}/{name}"
    if pooled:
        server = urlsplit(ADMIN_DSN)
        url = f"postgresql+asyncpg://{server.username or 'postgres'}@127.0.0.1:{pgbouncer().port}/{name}"
        _LISTEN[url] = direct
    try:
        yield url
    finally:
        _LISTEN.pop(url, None)
        admin = await _admin()
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@asynccontextmanager
async def migrated_store(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """A migrated store for a test parametrized over :data:`BACKENDS`: yields its SQLAlchemy URL (a SQLite file
    under ``tmp_path``, or a throw-away PostgreSQL database, dropped afterwards, migrated through PgBouncer for
    ``pgbouncer``)."""
    from bot.store import open_store

    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'flybot.db'}"
        store = await open_store(url, migrate=True)
        await store.close()
        yield url
        return
    async with throwaway_database(pooled=backend == "pgbouncer") as url:
        store = await open_store(url, migrate=True)
        await store.close()
        yield url
