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

BARE_SERVER = r"""
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
"""


BARE_STORE_SERVER = r"""
import asyncio, json, sqlite3, sys, uuid
from aiohttp import web

POSTGRES = sys.argv[2].startswith("postgresql://")

async def start(app):
    if POSTGRES:
        import asyncpg
        app["pool"] = await asyncpg.create_pool(sys.argv[2], min_size=4, max_size=16)
        async with app["pool"].acquire() as conn:
            await conn.execute("CREATE TABLE IF NOT EXISTS bare_rows (id text PRIMARY KEY, body jsonb NOT NULL)")
    else:  # as FlyBot's SQLite store: WAL, synchronous=NORMAL; sqlite3 in the loop's thread
        app["db"] = db = sqlite3.connect(sys.argv[2], isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("CREATE TABLE IF NOT EXISTS bare_rows (id text PRIMARY KEY, body text NOT NULL)")

async def stop(app):
    if POSTGRES:
        await app["pool"].close()
    else:
        app["db"].close()

async def create(request):
    body = await request.json()
    row_id = "esc_" + uuid.uuid4().hex
    if POSTGRES:
        async with request.app["pool"].acquire() as conn:  # one INSERT, one commit (autocommit) per request
            await conn.execute("INSERT INTO bare_rows (id, body) VALUES ($1, $2)", row_id, json.dumps(body))
    else:
        request.app["db"].execute("INSERT INTO bare_rows (id, body) VALUES (?, ?)", (row_id, json.dumps(body)))
    return web.json_response({"id": row_id, "status": "approved", "command": body.get("command")}, status=201)

async def healthz(request):
    return web.json_response({"status": "ok"})

app = web.Application()
app.on_startup.append(start)
app.on_cleanup.append(stop)
app.router.add_post("/v1/escalations", create)
app.router.add_get("/healthz", healthz)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
"""
"""A second baseline: the bare handler plus one row written and committed per request, to show what the database's
commit alone costs on this machine: PostgreSQL (``postgresql://`` URL: asyncpg pool, autocommit), or a SQLite file
(its path: sqlite3, WAL and ``synchronous=NORMAL`` as FlyBot's store, autocommit)."""


BODY_MODEL = r"""
class Body(BaseModel):  # the fields and bounds of FlyBot's EscalationIn that a bench request uses
    model_config = ConfigDict(extra="forbid")
    session_id: str = Field(min_length=1, max_length=200)
    command: str = Field(min_length=1, max_length=100_000)
    cwd: str = Field(min_length=1, max_length=4096)
    file_policy: Literal["read-only", "workspace-write", "danger-full-access"]
    approval_policy: Literal["ask", "never"]
    contained: StrictBool
    justification: str | None = Field(default=None, max_length=4000)
"""
"""The request body model of the floor servers (``Body``), in their code: pydantic, as FlyBot validates it."""


FLOOR_SERVER = (
    r"""
import asyncio, hashlib, json, secrets, sys, time
from datetime import UTC, datetime, timedelta
from typing import Literal
from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, StrictBool

"""
    + BODY_MODEL
    + r"""

COLUMNS = ("id", "bot_id", "session_id", "command", "cwd", "file_policy", "approval_policy", "contained",
           "justification", "room", "risk", "reasons", "status", "created_at", "expires_at", "decided_at",
           "decided_by", "decision_source", "standing_approval_id")
POSTGRES = sys.argv[2].startswith("postgresql")
def mark(i, json_column=False):  # the i-th parameter (from 1)
    return (f"${i}::json" if json_column else f"${i}") if POSTGRES else "?"
INSERT_ESCALATION = (f"INSERT INTO escalations ({', '.join(COLUMNS)}) VALUES "
                     f"({', '.join(mark(i + 1, name == 'reasons') for i, name in enumerate(COLUMNS))})")
INSERT_AUDIT = f"INSERT INTO audit (at, event, escalation_id, actor, detail) VALUES ({', '.join(mark(i, i == 5) for i in range(1, 6))})"
TYPES = ("text",) * 7 + ("boolean",) + ("text",) * 3 + ("json", "text", "timestamptz", "timestamptz",
                                                          "timestamptz", "text", "text", "text")
GROUP = (f"WITH e AS (INSERT INTO escalations ({', '.join(COLUMNS)}) SELECT * FROM unnest("
         f"{', '.join(f'${i + 1}::{t}[]' for i, t in enumerate(TYPES))})), "
         f"a AS (INSERT INTO audit (at, event, escalation_id, actor, detail) SELECT * FROM unnest("
         f"${len(TYPES) + 1}::timestamptz[], ${len(TYPES) + 2}::text[], ${len(TYPES) + 3}::text[], "
         f"${len(TYPES) + 4}::text[], ${len(TYPES) + 5}::json[])) "
         f"UPDATE bot_request_counts SET count = count + ${len(TYPES) + 6} WHERE bot_id = ${len(TYPES) + 7}")
COUNT = f"UPDATE bot_request_counts SET count = count + {mark(1)} WHERE bot_id = {mark(2)}"
log = sys.stderr
tokens, grades, queue = {}, {}, []

def when(value):  # SQLite: text as FlyBot stores it; PostgreSQL: timestamptz
    return value if POSTGRES else value.replace(tzinfo=None).isoformat(" ", "microseconds")

async def writer(app):
    db, wake = app["db"], app["wake"]
    while True:
        await wake.wait()
        wake.clear()
        while queue:
            group = queue[:]
            del queue[:]
            escalations = [row for row, _, _ in group]
            audits = [audit for _, pair, _ in group for audit in pair]
            bot_id = escalations[0][1]
            try:
                if POSTGRES:  # one statement, so one round trip and one commit (autocommit) for the whole group
                    await db.execute(GROUP, *[list(column) for column in zip(*escalations)],
                                     *[list(column) for column in zip(*audits)], len(group), bot_id)
                else:
                    db.execute("BEGIN IMMEDIATE")
                    db.executemany(INSERT_ESCALATION, escalations)
                    db.executemany(INSERT_AUDIT, audits)
                    db.execute(COUNT, (len(group), bot_id))
                    db.execute("COMMIT")
            except Exception as error:  # the group's requests fail (500) rather than wait forever
                if not POSTGRES and db.in_transaction:
                    db.execute("ROLLBACK")
                for _, _, answered in group:
                    answered.set_exception(error)
                continue
            for _, _, answered in group:
                answered.set_result(None)
            await asyncio.sleep(0)

async def create(request):
    auth = request.headers.get("Authorization", "")
    digest = hashlib.sha256(auth.removeprefix("Bearer ").encode()).hexdigest()
    bot_id = tokens.get(digest)
    if bot_id is None:
        raise web.HTTPUnauthorized()
    data = Body.model_validate(await request.json())
    grade = grades.get(data.command)
    if grade is None:
        grades[data.command] = grade = ("system", ["installs packages"])
    now = datetime.now(UTC)
    ends = now + timedelta(seconds=600)
    escalation_id = f"esc_{time.time_ns() // 1_000_000:012x}{secrets.token_hex(10)}"
    reasons = json.dumps(grade[1])
    row = (escalation_id, bot_id, data.session_id, data.command, data.cwd, data.file_policy, data.approval_policy,
           data.contained, data.justification, request.app["room"], grade[0], reasons, "approved", when(now),
           when(ends), when(now), request.app["owner"], "standing_approval", request.app["standing_id"])
    audits = ((when(now), "escalation.created", escalation_id, bot_id, json.dumps({"risk": grade[0]})),
              (when(now), "escalation.approved", escalation_id, request.app["owner"],
               json.dumps({"source": "standing_approval", "standing_ids": [request.app["standing_id"]]})))
    answered = asyncio.get_running_loop().create_future()
    queue.append((row, audits, answered))
    request.app["wake"].set()
    await answered
    answer = dict(zip(COLUMNS, row))
    answer.update(reasons=grade[1], created_at=now.isoformat(), expires_at=ends.isoformat(),
                  decided_at=now.isoformat(), card=None)
    log.write(json.dumps({"event": "escalation.approved", "escalation_id": escalation_id, "bot_id": bot_id,
                          "session_id": data.session_id, "risk": grade[0], "level": "info",
                          "timestamp": now.isoformat()}) + "\n")
    return web.Response(body=json.dumps(answer).encode(), status=201, content_type="application/json",
                        charset="utf-8")

async def healthz(request):
    return web.json_response({"status": "ok"})

async def start(app):
    url = sys.argv[2]
    if POSTGRES:
        import asyncpg
        app["db"] = db = await asyncpg.connect(url)
        bots = await db.fetch("SELECT id, token_hash FROM bots")
        standing = await db.fetchrow("SELECT id, bot_id FROM standing_approvals")
    else:
        import sqlite3
        app["db"] = db = sqlite3.connect(url, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        bots = db.execute("SELECT id, token_hash FROM bots").fetchall()
        standing = db.execute("SELECT id, bot_id FROM standing_approvals").fetchone()
    tokens.update({token_hash: bot_id for bot_id, token_hash in bots})
    app["standing_id"], app["owner"], app["room"] = standing[0], "U0OWNER01", "C0APPROVE"
    app["wake"] = asyncio.Event()
    app["writer"] = asyncio.ensure_future(writer(app))

app = web.Application()
app.on_startup.append(start)
app.router.add_post("/v1/escalations", create)
app.router.add_get("/healthz", healthz)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
"""
)
"""The floor: a bare handler doing only what any durable standing-approval auto-answer must, on the same client,
schema and event loop as FlyBot. It checks the token (SHA-256, looked up in memory), validates the body
with pydantic, takes the grade from memory, commits the escalation row, its two audit rows and the Bot's request
count in groups (one transaction for the requests waiting at that moment: sqlite3 in
the event loop's thread, or one asyncpg connection), then answers the escalation as JSON and writes one JSON log
line (a group that fails answers its requests 500). It has none of FlyBot's rate limiting, idempotency, notices, cache checks, metrics or redaction, so FlyBot
can only come near it, not pass it: its ratio to the bare handler is the most a FlyBot of this design could reach on
this machine."""


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
    process = subprocess.Popen(
        [sys.executable, "-c", code, str(port), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=raise_fd_limit,
    )
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
    code = (
        "import asyncio, uvloop; asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())\n" if uvloop else ""
    ) + BARE_SERVER
    async with _script_server(code) as server:
        yield server


@asynccontextmanager
async def bare_store_server(target: str) -> AsyncIterator[Server]:
    """:data:`BARE_STORE_SERVER` in its own process, writing to ``target`` (a ``postgresql://`` URL, or a SQLite
    file's path)."""
    async with _script_server(BARE_STORE_SERVER, target) as server:
        yield server


TX_FLOOR_SERVER = (
    r"""
import asyncio, hashlib, json, secrets, sys, time
from datetime import UTC, datetime, timedelta
from typing import Literal
from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from sqlalchemy import bindparam, insert, select, update
from bot.store import open_store
from bot.store.models import AuditRow, BotRequestCountRow, BotRow, EscalationRow, StandingApprovalRow

"""
    + BODY_MODEL
    + r"""

ESCALATION = insert(EscalationRow.__table__)
AUDIT = insert(AuditRow.__table__)
COUNT = (update(BotRequestCountRow.__table__).where(BotRequestCountRow.__table__.c.bot_id == bindparam("p_bot"))
         .values(count=BotRequestCountRow.__table__.c["count"] + 1))
log = sys.stderr
tokens, grades = {}, {}

async def create(request):
    auth = request.headers.get("Authorization", "")
    digest = hashlib.sha256(auth.removeprefix("Bearer ").encode()).hexdigest()
    bot_id = tokens.get(digest)
    if bot_id is None:
        raise web.HTTPUnauthorized()
    data = Body.model_validate(await request.json())
    grade = grades.get(data.command)
    if grade is None:
        grades[data.command] = grade = ("system", ["installs packages"])
    now = datetime.now(UTC)
    ends = now + timedelta(seconds=600)
    escalation_id = f"esc_{time.time_ns() // 1_000_000:012x}{secrets.token_hex(10)}"
    app = request.app
    row = {"id": escalation_id, "bot_id": bot_id, "session_id": data.session_id, "command": data.command,
           "cwd": data.cwd, "file_policy": data.file_policy, "approval_policy": data.approval_policy,
           "contained": data.contained, "justification": data.justification, "room": app["room"], "risk": grade[0],
           "reasons": grade[1], "status": "approved", "created_at": now, "expires_at": ends, "decided_at": now,
           "decided_by": app["owner"], "decision_source": "standing_approval",
           "standing_approval_id": app["standing_id"]}
    audits = [{"at": now, "event": "escalation.created", "escalation_id": escalation_id, "actor": bot_id,
               "detail": {"risk": grade[0]}},
              {"at": now, "event": "escalation.approved", "escalation_id": escalation_id, "actor": app["owner"],
               "detail": {"source": "standing_approval", "standing_ids": [app["standing_id"]]}}]
    async with app["store"].transaction() as tx:
        connection = await tx.connection()
        await connection.execute(ESCALATION, row)
        await connection.execute(AUDIT, audits)
        await connection.execute(COUNT, {"p_bot": bot_id})
    answer = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in row.items()} | {"card": None}
    log.write(json.dumps({"event": "escalation.approved", "escalation_id": escalation_id, "bot_id": bot_id,
                          "session_id": data.session_id, "risk": grade[0], "level": "info",
                          "timestamp": now.isoformat()}) + "\n")
    return web.Response(body=json.dumps(answer).encode(), status=201, content_type="application/json",
                        charset="utf-8")

async def healthz(request):
    return web.json_response({"status": "ok"})

async def start(app):
    app["store"] = store = await open_store(sys.argv[2])
    async with store.transaction(write=False) as tx:
        connection = await tx.connection()
        bots = (await connection.execute(select(BotRow.__table__.c.id, BotRow.__table__.c.token_hash))).all()
        standing = (await connection.execute(select(StandingApprovalRow.__table__.c.id))).first()
    tokens.update({token_hash: bot_id for bot_id, token_hash in bots})
    app["standing_id"], app["owner"], app["room"] = standing[0], "U0OWNER01", "C0APPROVE"

async def stop(app):
    await app["store"].close()

app = web.Application()
app.on_startup.append(start)
app.on_cleanup.append(stop)
app.router.add_post("/v1/escalations", create)
app.router.add_get("/healthz", healthz)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
"""
)
"""The one-transaction floor: the floor's handler, but each request's rows (the escalation, its two audit rows, the
Bot's request counter: three statements) written in a transaction of its own through FlyBot's store
(``Store.transaction()``: SQLAlchemy Core on FlyBot's engine, its SQLite writer turn and PostgreSQL settings), with
nothing grouped: the least any auto-answer written the store's one way costs on this machine."""


@asynccontextmanager
async def tx_floor_server(database_url: str) -> AsyncIterator[Server]:
    """:data:`TX_FLOOR_SERVER` in its own process on uvloop, on ``database_url`` (a database made by
    :func:`database`, with one Bot and its standing approval: :func:`add_bot`)."""
    code = "import asyncio, uvloop; asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())\n" + TX_FLOOR_SERVER
    async with _script_server(code, database_url) as server:
        yield server


@asynccontextmanager
async def floor_server(database_url: str) -> AsyncIterator[Server]:
    """:data:`FLOOR_SERVER` in its own process on uvloop (``flybot serve``'s loop), on ``database_url`` (FlyBot's
    SQLAlchemy URL of a database made by :func:`database`, with one Bot and its standing approval: :func:`add_bot`)."""
    plain = database_url.replace("postgresql+asyncpg://", "postgresql://", 1).replace("sqlite+aiosqlite:///", "", 1)
    code = "import asyncio, uvloop; asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())\n" + FLOOR_SERVER
    async with _script_server(code, plain) as server:
        yield server


@asynccontextmanager
async def flybot_server(
    database_url: str,
    state_dir: Path,
    *,
    root: Path | None = None,
    nofile: int | None = None,
    slack: dict[str, str] | None = None,
    port: int | None = None,
    **settings: str,
) -> AsyncIterator[Server]:
    """``python -m bot serve`` in local mode on ``database_url``; ``settings`` are extra ``FLYBOT_*`` variables;
    ``root``: the checkout whose ``bot`` package runs (None: this one; another, for an A/B comparison in one run);
    ``nofile``: the child's open-file limit, soft and hard (as systemd's ``LimitNOFILE=``; None: this process's);
    ``slack``: ``SLACK_*`` variables (``SLACK_BOT_TOKEN`` and ``SLACK_SIGNING_SECRET`` make it Slack mode, on the
    Slack of ``FLYBOT_SLACK_API_URL``, e.g. :func:`slack_emulation`'s); ``port``: where it listens (None: a free
    port).

    Its standard output (the login URL it prints in local mode: :func:`login_key`) goes to ``flybot.out`` and its
    log to ``flybot.log``, both in ``state_dir``. A benchmark's clients all connect from loopback: the per-address
    connection cap (``FLYBOT_MAX_CONNECTIONS_PER_IP``) is off unless ``settings`` sets it."""
    port = port or free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLYBOT_", "SLACK_"))}
    env.update(
        {
            "FLYBOT_DATABASE_URL": database_url,
            "FLYBOT_STATE_DIR": str(state_dir),
            "FLYBOT_LOG_FORMAT": "json",
            "FLYBOT_PORT": str(port),
            "PYTHONPATH": str(root or ROOT),
            "FLYBOT_MAX_CONNECTIONS_PER_IP": "0",
        }
    )
    env.update({f"FLYBOT_{k.upper()}": v for k, v in settings.items()})
    env.update(slack or {})

    def limit_open_files() -> None:
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    log = open(state_dir / "flybot.log", "wb")  # noqa: SIM115 - closed with the process
    out = open(state_dir / "flybot.out", "wb")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve"],
        cwd=state_dir,
        env=env,
        stdout=out,
        stderr=log,
        preexec_fn=limit_open_files,
    )
    server = Server(f"http://127.0.0.1:{port}", process)
    try:
        await _until_up(server.url, process)
        yield server
    finally:
        _stop(process)
        log.close()
        out.close()


def login_key(state_dir: Path) -> str:
    """The local chat's login key, from the login URL (``.../?key=KEY``) that the local-mode ``flybot serve`` of
    :func:`flybot_server` gave when it started (before it answers ``/healthz``): printed, or, as its output is a
    file, written to its state directory's :data:`bot.commands.server.LOGIN_FILE`."""
    from bot.commands.server import LOGIN_FILE

    for line in (state_dir / "flybot.out").read_text().splitlines():
        if "/?key=" in line:
            return line.rsplit("/?key=", 1)[1].split()[0]
    if (state_dir / LOGIN_FILE).exists():  # stdout is no terminal: the URL is in the state directory's file
        return (state_dir / LOGIN_FILE).read_text().strip().rsplit("/?key=", 1)[1]
    raise RuntimeError(f"no login URL in {state_dir / 'flybot.out'}")


SLACK_EMULATION = r"""
import asyncio, sys
from aiohttp import web
from bot.localchat import SlackEmulator
from bot.localchat.access import PageAccess

try:
    import uvloop
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
except ImportError:
    pass
port, bot_token, signing_secret, key, events_url = sys.argv[1:6]
base = f"http://127.0.0.1:{port}"
emulator = SlackEmulator(bot_token=bot_token, signing_secret=signing_secret, events_url=events_url,
                         public_base=f"{base}/local/slack", access=PageAccess(key=key), learn_ids=True)

async def healthz(request):
    return web.json_response({"status": "ok"})

app = web.Application()
app.router.add_get("/healthz", healthz)
app.add_subapp("/local/slack/", emulator.app())
web.run_app(app, host="127.0.0.1", port=int(port), print=None, access_log=None)
"""
"""FlyBot's Slack emulation (:class:`bot.localchat.SlackEmulator`, the tests' Slack) served on its own, as local mode
mounts it (``/local/slack/api/`` for the Web API, ``/local/slack/page/`` and ``/local/slack/login`` for the page);
arguments: port, bot token, signing secret, login key, the URL it delivers clicks to."""


@dataclass
class SlackEmulation:
    """:data:`SLACK_EMULATION` running: ``url`` (its ``/local/slack`` base) and the ``SLACK_*`` / ``FLYBOT_*``
    variables that point a FlyBot at it (:func:`flybot_server`'s ``slack`` and ``slack_api_url``)."""

    server: Server
    key: str
    slack: dict[str, str]

    @property
    def url(self) -> str:
        return f"{self.server.url}/local/slack"


@asynccontextmanager
async def slack_emulation(events_url: str, *, root: Path | None = None) -> AsyncIterator[SlackEmulation]:
    """The Slack emulation in its own process, delivering every click and command to ``events_url`` (one FlyBot
    replica's ``/slack/events``); ``root``: the checkout whose ``bot`` package runs it (None: this one)."""
    token, secret, key = "xoxb-bench-" + uuid.uuid4().hex, uuid.uuid4().hex, uuid.uuid4().hex
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(root or ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-c", SLACK_EMULATION, str(port), token, secret, key, events_url],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    server = Server(f"http://127.0.0.1:{port}", process)
    try:
        await _until_up(server.url, process)
        yield SlackEmulation(server, key, {"SLACK_BOT_TOKEN": token, "SLACK_SIGNING_SECRET": secret})
    finally:
        _stop(process)


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
            async with store.transaction() as tx:
                await tx.add_standing(
                    StandingApproval(
                        id="sa_" + uuid.uuid4().hex[:12],
                        scope="bot",
                        subject=bot.id,
                        bot_id=bot.id,
                        pattern=standing_pattern,
                        max_risk="system",
                        contained_only=True,
                        created_by=OWNER,
                        created_at=datetime.now(UTC),
                    )
                )
        return token
    finally:
        await store.close()


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]
