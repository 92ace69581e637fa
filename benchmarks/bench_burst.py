"""Benchmark: a burst of escalations into one room while Slack rate-limits (not a test: it prints figures).

Run from the repository root::

    python benchmarks/bench_burst.py [--count 200] [--limited-for 10] [--interval 1.0] [--postgres DSN]

What it does, on SQLite (and on PostgreSQL when ``--postgres`` names a server, e.g.
``postgresql+asyncpg://postgres@127.0.0.1:5432/postgres``; a throw-away database is created there):

1. starts the Slack emulation in this process and ``flybot serve`` as its own process (room pace ``--interval``
   seconds, the default burst), with a registered Bot whose room is ``C0APPROVE``;
2. makes the emulation answer every ``chat.postMessage`` with HTTP 429 ``Retry-After: 1`` for ``--limited-for``
   seconds;
3. sends ``--count`` escalations open-loop at ``--rate`` per second (0: all at once; one aiohttp session, no
   connection limit, keep-alive) and times each POST;
4. waits until every card is posted (or its escalation ended undeliverable), then counts.

It prints the POSTs' p50/p99/max, the time from the first POST to the last card, cards lost (escalations with
no card), duplicates (escalations with more than one card), undeliverable escalations, and, as a baseline measured
in the same run, a bare aiohttp JSON handler answering the same ``--count`` POSTs at once (p99 and the ratio).
Target: every POST within 50 ms p99, every card posted exactly once, none lost.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402
import asyncpg  # noqa: E402
from aiohttp import web  # noqa: E402

from bot.bots import register_bot  # noqa: E402
from bot.localchat import SlackEmulator  # noqa: E402
from bot.localchat.emulator import Fault  # noqa: E402
from bot.store import open_store  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "xoxb-bench-token"
SECRET = "bench-signing-secret-0123456789"
ROOM = "C0APPROVE"
OWNER = "U0OWNER01"


async def _ok() -> web.Response:
    return web.json_response({"status": "ok"})


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def post_all(url: str, count: int, headers: dict[str, str], body: Any, rate: float) -> list[float]:
    """``count`` POSTs sent open-loop at ``rate`` per second (0: all at once); their latencies in seconds (any
    non-2xx answer is fatal). Connections are opened (and kept) before the clock starts."""
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=120)) as http:
        for _ in range(min(count, 32)):  # warm the keep-alive pool a little, like a client that has been running
            async with http.get(url.rsplit("/v1/", 1)[0] + "/healthz") as response:
                await response.read()
        origin = time.perf_counter()

        async def one(i: int) -> float:
            if rate > 0:
                await asyncio.sleep(max(0.0, origin + i / rate - time.perf_counter()))
            started = time.perf_counter()
            payload = {**body, "session_id": f"s{i}"} if isinstance(body, dict) else body
            async with http.post(url, json=payload, headers=headers) as response:
                await response.read()
                if response.status // 100 != 2:
                    raise SystemExit(f"POST answered {response.status}: {await response.text()}")
            return time.perf_counter() - started

        return list(await asyncio.gather(*(one(i) for i in range(count))))


async def baseline(count: int, rate: float) -> list[float]:
    """A bare aiohttp JSON handler (reads the body, answers 201 JSON), same client, same burst."""

    async def handle(request: web.Request) -> web.Response:
        data = await request.json()
        return web.json_response({"id": uuid.uuid4().hex, **data}, status=201)

    app = web.Application()
    app.router.add_post("/v1/escalations", handle)
    app.router.add_get("/healthz", lambda _r: _ok())
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        return await post_all(f"http://127.0.0.1:{port}/v1/escalations", count, {}, {"command": "x"}, rate)
    finally:
        await runner.cleanup()


async def escalation_statuses(store: Any) -> dict[str, str]:
    """Every escalation's status (one query)."""
    from sqlalchemy import select

    from bot.store.models import EscalationRow

    async with store.transaction() as tx:
        return {str(i): str(s) for i, s in (await tx.session.execute(select(EscalationRow.id, EscalationRow.status)))}


async def run(database: str, label: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    emulator = SlackEmulator(
        bot_token=TOKEN, signing_secret=SECRET, control=True
    )  # control: it logs the calls counted below
    emu_port = free_port()
    emu_url = f"http://127.0.0.1:{emu_port}"
    emulator.public_base = emu_url
    runner = web.AppRunner(emulator.app())
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", emu_port).start()
    store = await open_store(database, migrate=True)
    _bot, token = await register_bot(store, "builder", [OWNER], ROOM)
    await store.close()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "FLYBOT_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        FLYBOT_DATABASE_URL=database,
        SLACK_BOT_TOKEN=TOKEN,
        SLACK_SIGNING_SECRET=SECRET,
        FLYBOT_SLACK_API_URL=f"{emu_url}/api/",
        FLYBOT_SLACK_ROOM_INTERVAL_S=str(args.interval),
        FLYBOT_LOG_FORMAT="json",
        # One Bot sends the whole burst: admission limits are raised past it but stay on (counted as usual).
        FLYBOT_MAX_OPEN_ESCALATIONS=str(max(1000, 2 * args.count)),
        FLYBOT_RATE_PER_MINUTE="10000000",
    )
    env.update({f"FLYBOT_{name.upper()}": value for name, value in (item.split("=", 1) for item in args.set)})
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "serve",
        "--port",
        str(port),
        cwd=workdir,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(300):
                try:
                    async with http.get(f"{url}/readyz") as response:
                        if response.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.1)
        emulator.faults.append(
            Fault(
                method="chat.postMessage", count=0, status=429, retry_after=1, until=time.monotonic() + args.limited_for
            )
        )
        body = {
            "command": "sudo apt-get install -y jq",
            "cwd": "/w",
            "file_policy": "workspace-write",
            "approval_policy": "ask",
            "contained": False,
        }
        started = time.perf_counter()
        latencies = await post_all(
            f"{url}/v1/escalations", args.count, {"Authorization": f"Bearer {token}"}, body, args.rate
        )
        posted_all = None
        deadline = time.perf_counter() + args.wait
        store = await open_store(database)
        try:
            while True:
                carded = {
                    (m.metadata or {}).get("event_payload", {}).get("key")
                    for m in emulator.messages
                    if (m.metadata or {}).get("event_type") == "flybot_card"
                }
                if len(carded) >= args.count and posted_all is None:
                    posted_all = time.perf_counter() - started
                statuses = await escalation_statuses(store)
                ended = [k for k, v in statuses.items() if v == "undeliverable"]
                if len(carded | set(ended)) >= args.count or time.perf_counter() > deadline:
                    break
                await asyncio.sleep(0.25)
            await asyncio.sleep(2.0)  # anything posted twice would show up now
            all_escalations = set(statuses)
        finally:
            await store.close()
        per_escalation: dict[str, int] = {}
        for message in emulator.messages:
            if (message.metadata or {}).get("event_type") == "flybot_card":
                key = message.metadata["event_payload"]["key"] if message.metadata else ""
                per_escalation[key] = per_escalation.get(key, 0) + 1
        lost = sorted(all_escalations - set(per_escalation))
        duplicates = [k for k, n in per_escalation.items() if n > 1]
        rate_limited = sum(1 for c in emulator.calls if c["method"] == "chat.postMessage") - sum(
            per_escalation.values()
        )
        return {
            "label": label,
            "latencies": latencies,
            "posted_all": posted_all,
            "lost": len(lost),
            "duplicates": len(duplicates),
            "undeliverable": len(ended),
            "cards": sum(per_escalation.values()),
            "answered_429": rate_limited,
        }
    finally:
        if proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 15)
            except TimeoutError:
                proc.kill()
        await runner.cleanup()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--rate", type=float, default=50.0, help="POSTs per second, open loop (0: all at once)")
    parser.add_argument("--limited-for", type=float, default=10.0, help="seconds of 429s at the start")
    parser.add_argument("--interval", type=float, default=1.0, help="room pace, seconds per message")
    parser.add_argument("--wait", type=float, default=900.0, help="give up waiting for cards after this")
    parser.add_argument("--postgres", default="", help="SQLAlchemy URL of a PostgreSQL server to also run on")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an extra FLYBOT_ setting for the FlyBot under test, e.g. --set remind_at=0",
    )
    args = parser.parse_args()
    base = await baseline(args.count, args.rate)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        results.append(await run(f"sqlite+aiosqlite:///{tmp}/bench.db", "SQLite", args, Path(tmp)))
    if args.postgres:
        name = f"flybot_bench_{uuid.uuid4().hex[:8]}"
        admin_dsn = args.postgres.replace("postgresql+asyncpg://", "postgresql://", 1)
        admin = await asyncpg.connect(admin_dsn)
        await admin.execute(f'CREATE DATABASE "{name}"')
        await admin.close()
        try:
            with tempfile.TemporaryDirectory() as tmp:
                url = args.postgres.rsplit("/", 1)[0] + f"/{name}"
                results.append(await run(url, "PostgreSQL", args, Path(tmp)))
        finally:
            admin = await asyncpg.connect(admin_dsn)
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.close()
    base_p99 = percentile(base, 0.99) * 1000
    sent = f"at {args.rate:g}/s" if args.rate > 0 else "all at once"
    print(
        f"burst of {args.count} escalations ({sent}) into one room; chat.postMessage answers 429 (Retry-After: 1) for the "
        f"first {args.limited_for:g} s; room pace {args.interval:g} s/message"
    )
    print(
        f"baseline (bare aiohttp JSON handler, same burst): p50 {statistics.median(base) * 1000:.1f} ms, "
        f"p99 {base_p99:.1f} ms"
    )
    for r in results:
        lat = r["latencies"]
        p99 = percentile(lat, 0.99) * 1000
        done = f"{r['posted_all']:.1f} s" if r["posted_all"] is not None else "not reached"
        print(
            f"{r['label']}: POST p50 {statistics.median(lat) * 1000:.1f} ms, p99 {p99:.1f} ms, "
            f"max {max(lat) * 1000:.1f} ms (p99 {p99 / base_p99:.1f}x the baseline); "
            f"time to the {args.count}th card {done}; cards {r['cards']}, lost {r['lost']}, "
            f"duplicates {r['duplicates']}, undeliverable {r['undeliverable']}, 429 answers {r['answered_429']}"
        )


if __name__ == "__main__":
    asyncio.run(main())
