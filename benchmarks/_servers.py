"""Shared pieces of the HTTP benchmarks: start FlyBot or a bare aiohttp server in a child process on loopback,
prepare a database with one Bot (and a standing approval), read a process's memory. Not a test; no FlyBot code is
changed or patched: FlyBot runs as ``python -m bot serve`` in local mode (its embedded Slack emulation)."""

from __future__ import annotations

import asyncio
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.bots import register_bot  # noqa: E402
from bot.store import StandingApproval, open_store  # noqa: E402

PG_ADMIN = os.environ.get("FLYBOT_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
OWNER = "U0OWNER01"
ROOM = "C0APPROVE"  # the local chat's room

BARE_SERVER = r'''
import asyncio, sys
from aiohttp import web

async def create(request):
    body = await request.json()
    return web.json_response({"id": "esc_bare", "status": "approved", "command": body.get("command")}, status=201)

async def get(request):
    await asyncio.sleep(float(request.query.get("wait", "0")))
    return web.json_response({"id": request.match_info["id"], "status": "pending"})

async def healthz(request):
    return web.json_response({"status": "ok"})

app = web.Application()
app.router.add_post("/v1/escalations", create)
app.router.add_get("/v1/escalations/{id}", get)
app.router.add_get("/healthz", healthz)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
'''


BARE_STORE_SERVER = r'''
import asyncio, json, sys, uuid
import asyncpg
from aiohttp import web

async def start(app):
    app["pool"] = await asyncpg.create_pool(sys.argv[2], min_size=4, max_size=16)
    async with app["pool"].acquire() as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS bare_rows (id text PRIMARY KEY, body jsonb NOT NULL)")

async def stop(app):
    await app["pool"].close()

async def create(request):
    body = await request.json()
    row_id = "esc_" + uuid.uuid4().hex
    async with request.app["pool"].acquire() as conn:  # one INSERT, one commit (autocommit) per request
        await conn.execute("INSERT INTO bare_rows (id, body) VALUES ($1, $2)", row_id, json.dumps(body))
    return web.json_response({"id": row_id, "status": "approved", "command": body.get("command")}, status=201)

async def healthz(request):
    return web.json_response({"status": "ok"})

app = web.Application()
app.on_startup.append(start)
app.on_cleanup.append(stop)
app.router.add_post("/v1/escalations", create)
app.router.add_get("/healthz", healthz)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
'''
"""A second baseline: the bare handler plus one row written to PostgreSQL and committed per request (asyncpg pool,
autocommit), to show what the database's commit alone costs on this machine (its WAL flush)."""


def raise_fd_limit() -> int:
    """Soft RLIMIT_NOFILE up to the hard limit (this process holds the client sockets); returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_mb(pid: int) -> tuple[float, float]:
    """(current RSS, peak RSS) of ``pid`` in MB, from /proc (Linux)."""
    values: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = float(rest.split()[0]) / 1024
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) ``pid`` has used so far, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Server:
    """A child process serving HTTP on ``url``."""

    url: str
    process: subprocess.Popen[bytes]

    @property
    def pid(self) -> int:
        return self.process.pid


async def _until_up(url: str, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    async with aiohttp.ClientSession() as http:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"server exited with {process.returncode}")
            try:
                async with http.get(f"{url}/healthz") as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


@asynccontextmanager
async def _script_server(code: str, *args: str) -> AsyncIterator[Server]:
    """``python -c code PORT *args`` in its own process, until it answers ``/healthz``; stopped on exit."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", code, str(port), *args], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, preexec_fn=raise_fd_limit)
    server = Server(f"http://127.0.0.1:{port}", process)
    try:
        await _until_up(server.url, process)
        yield server
    finally:
        _stop(process)


@asynccontextmanager
async def bare_server(*, uvloop: bool = False) -> AsyncIterator[Server]:
    """The baseline: a bare aiohttp JSON handler (and a sleeping long-poll) in its own process; on uvloop's event
    loop when ``uvloop`` (as ``flybot serve`` runs where uvloop is installed), else the standard library's."""
    code = ("import asyncio, uvloop; asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())\n" if uvloop else "") + BARE_SERVER
    async with _script_server(code) as server:
        yield server


@asynccontextmanager
async def bare_store_server(asyncpg_url: str) -> AsyncIterator[Server]:
    """:data:`BARE_STORE_SERVER` in its own process, writing to ``asyncpg_url`` (a ``postgresql://`` URL)."""
    async with _script_server(BARE_STORE_SERVER, asyncpg_url) as server:
        yield server


@asynccontextmanager
async def flybot_server(database_url: str, state_dir: Path, **settings: str) -> AsyncIterator[Server]:
    """``python -m bot serve`` in local mode on ``database_url``; ``settings`` are extra ``FLYBOT_*`` variables."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLYBOT_", "SLACK_"))}
    env.update({"FLYBOT_DATABASE_URL": database_url, "FLYBOT_STATE_DIR": str(state_dir), "FLYBOT_LOG_FORMAT": "json",
                "FLYBOT_PORT": str(port), "PYTHONPATH": str(ROOT)})
    env.update({f"FLYBOT_{k.upper()}": v for k, v in settings.items()})
    log = open(state_dir / "flybot.log", "wb")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen([sys.executable, "-m", "bot", "serve"], cwd=state_dir, env=env,
                               stdout=subprocess.DEVNULL, stderr=log)
    server = Server(f"http://127.0.0.1:{port}", process)
    try:
        await _until_up(server.url, process)
        yield server
    finally:
        _stop(process)
        log.close()


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@asynccontextmanager
async def database(backend: str) -> AsyncIterator[str]:
    """A fresh database URL: a SQLite file in a temporary directory, or a throw-away PostgreSQL database."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="flybot-bench-") as tmp:
            url = f"sqlite+aiosqlite:///{tmp}/bench.db"
            store = await open_store(url, migrate=True)
            await store.close()
            yield url
        return
    import asyncpg

    name = f"flybot_bench_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(PG_ADMIN)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    url = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1) + f"/{name}"
    try:
        store = await open_store(url, migrate=True)
        await store.close()
        yield url
    finally:
        admin = await asyncpg.connect(PG_ADMIN)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


async def add_bot(database_url: str, *, standing_pattern: str | None = None, name: str = "bench-bot") -> str:
    """Register a Bot in the room of the local chat (and a Bot-wide standing approval); returns its token."""
    store = await open_store(database_url)
    try:
        bot, token = await register_bot(store, name, [OWNER], ROOM)
        if standing_pattern is not None:
            await store.add_standing(StandingApproval(
                id="sa_" + uuid.uuid4().hex[:12], scope="bot", subject=bot.id, bot_id=bot.id,
                pattern=standing_pattern, max_risk="system", contained_only=True, created_by=OWNER,
                created_at=datetime.now(UTC),
            ))
        return token
    finally:
        await store.close()


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]
