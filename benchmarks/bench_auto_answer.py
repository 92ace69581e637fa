"""Benchmark: standing-approval auto-answers against a bare aiohttp JSON handler. Not a test: it prints.

Run from the repository root (PostgreSQL on 127.0.0.1:5432 with trust auth, or FLYBOT_BENCH_POSTGRES)::

    python benchmarks/bench_auto_answer.py [--backend sqlite|postgresql|both] [--seconds 5] [--concurrency 16]

For each server, in this one run and with the same client:

* throughput: ``--concurrency`` workers POST ``/v1/escalations`` back to back for ``--seconds`` seconds;
* latency at a fixed rate: ``--rate`` requests a second (default 200) for ``--seconds`` seconds, each sent at its
  scheduled time whatever the others do; p50/p99 from the scheduled time (so queueing counts). The client runs this
  phase without Python's cyclic garbage collector (collected just before): a full collection of the client's heap
  takes tens of milliseconds, and the requests it holds up would count as the server's;

then the ratio of FlyBot's throughput to the bare handler's. Every server is started once and measured ``--rounds``
times, interleaved (the machine's load changes between rounds); the summary is the median. Server CPU per request
(``/proc``, over the throughput phase) is printed too: the bare handler's rate is bound by this one-process client,
so the CPU figure is the steadier one. Per backend, a second baseline is the bare handler committing one row per
request ("bare + 1 commit", autocommit): what a commit alone costs on this machine. ``flybot
serve`` runs on uvloop's event loop where it is installed (``FLYBOT_EVENT_LOOP``); the ratio is against the bare
handler on the standard loop, and the bare handler on uvloop is shown beside it (``--no-bare-uvloop`` to skip). FlyBot runs as ``python -m bot serve`` (local mode, JSON
logs) on a fresh database with one Bot and a Bot-wide standing approval for ``apt-get install``; every request is
``apt-get install -y jq`` contained, so every one is answered ``approved`` by the standing approval. The per-Bot rate
limit is raised (``FLYBOT_RATE_PER_MINUTE=10000000``) but stays on, so its counting is measured too.

The floor (``--floor``, on by default) is a bare handler that does only what any durable auto-answer must: check
the token, validate the body, commit the escalation row, its two audit rows and the Bot's request counter in groups, answer
and log one line (``_servers.FLOOR_SERVER``), in FlyBot's schema on the same backend and event loop. Its ratio to
the bare handler is the most a server of this design reaches on this machine; "FlyBot / floor" shows how near FlyBot
comes. The one-transaction floor (``_servers.TX_FLOOR_SERVER``, with ``--floor``) does the same but writes each
request's rows in a transaction of its own through FlyBot's store (``Store.transaction()``, SQLAlchemy Core), nothing
grouped: the least an auto-answer written the store's one way costs here, so its ratio is the most FlyBot can reach
without grouping requests.

The floor to stay above: FlyBot's throughput at least 0.2x the bare handler that commits one row per request on the
same backend ("bare + 1 commit"), and p99 at most 25 ms at 200 requests/s, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import resource
import statistics
import sys
import tempfile
import time
import uuid
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import (  # noqa: E402
    Server,
    add_bot,
    bare_server,
    bare_store_server,
    cpu_s,
    database,
    floor_server,
    flybot_server,
    percentile,
    tx_floor_server,
)

BODY = {
    "session_id": "bench",
    "command": "apt-get install -y jq",
    "cwd": "/work/repo",
    "file_policy": "workspace-write",
    "approval_policy": "ask",
    "contained": True,
}


KEYS = {"on": False}
"""``--keys``: every request carries a new ``Idempotency-Key``, as FlyBot's own clients send one."""


async def one(http: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> str:
    if KEYS["on"]:
        headers = {**headers, "Idempotency-Key": uuid.uuid4().hex}
    async with http.post(f"{url}/v1/escalations", json=BODY, headers=headers) as response:
        data = await response.json(content_type=None)
        return str(data.get("status")) if response.status == 201 else f"HTTP {response.status}"


async def throughput(url: str, token: str, seconds: float, concurrency: int) -> tuple[float, dict[str, int]]:
    """Requests answered a second by ``concurrency`` closed-loop workers; and the answers by status."""
    headers = {"Authorization": f"Bearer {token}"}
    outcomes: dict[str, int] = {}
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as http:
        for _ in range(concurrency):  # warm-up: connections, caches
            await one(http, url, headers)
        end = time.monotonic() + seconds

        async def worker() -> None:
            while time.monotonic() < end:
                try:
                    status = await one(http, url, headers)
                except aiohttp.ClientError as exc:
                    status = type(exc).__name__
                outcomes[status] = outcomes.get(status, 0) + 1

        started = time.monotonic()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.monotonic() - started
    return sum(outcomes.values()) / elapsed, outcomes


async def fixed_rate(url: str, token: str, seconds: float, rate: float) -> tuple[list[float], dict[str, int]]:
    """Latencies (ms, from each request's scheduled time) at ``rate`` requests a second."""
    headers = {"Authorization": f"Bearer {token}"}
    latencies: list[float] = []
    outcomes: dict[str, int] = {}
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        for _ in range(8):
            await one(http, url, headers)

        async def timed(at: float) -> None:
            try:
                status = await one(http, url, headers)
            except aiohttp.ClientError as exc:
                status = type(exc).__name__
            latencies.append((time.monotonic() - at) * 1000)
            outcomes[status] = outcomes.get(status, 0) + 1

        start = time.monotonic() + 0.05
        tasks: list[asyncio.Task[None]] = []
        for i in range(int(seconds * rate)):
            at = start + i / rate
            delay = at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(timed(at)))
        await asyncio.gather(*tasks)
    return latencies, outcomes


@dataclass
class Row:
    """One server's figures in one round."""

    name: str
    rps: float
    outcomes: dict[str, int]
    server_us: float  # server CPU (user + system) per request over the throughput phase, microseconds
    client_us: float  # this (client) process's CPU per request over the same phase
    p50: float
    p99: float
    rate_outcomes: dict[str, int]

    @property
    def all_approved(self) -> bool:
        return self.outcomes.get("approved", 0) == sum(self.outcomes.values()) and self.rate_outcomes.get(
            "approved", 0
        ) == sum(self.rate_outcomes.values())


def own_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def measure(name: str, server: Server, token: str, args: argparse.Namespace) -> Row:
    server_before, client_before = cpu_s(server.pid), own_cpu_s()
    rps, outcomes = await throughput(server.url, token, args.seconds, args.concurrency)
    n = max(1, sum(outcomes.values()))
    server_us = (cpu_s(server.pid) - server_before) * 1e6 / n
    client_us = (own_cpu_s() - client_before) * 1e6 / n
    gc.collect()
    gc.disable()  # the client's own collections would count as server latency
    try:
        latencies, rate_outcomes = await fixed_rate(server.url, token, args.seconds, args.rate)
    finally:
        gc.enable()
    row = Row(
        name,
        rps,
        outcomes,
        server_us,
        client_us,
        percentile(latencies, 0.50),
        percentile(latencies, 0.99),
        rate_outcomes,
    )
    print(
        f"  {name:<26} {rps:8.0f} req/s  server {server_us:5.0f} us/req  client {client_us:4.0f} us/req"
        f"   at {args.rate:.0f}/s: p50 {row.p50:6.1f} ms  p99 {row.p99:6.1f} ms"
        f"   answers {outcomes} / {rate_outcomes}",
        flush=True,
    )
    return row


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="measure every server this many times, interleaved; the summary gives the median",
    )
    parser.add_argument(
        "--bare-uvloop",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also measure the bare handler on uvloop's event loop (flybot serve's, where installed)",
    )
    parser.add_argument(
        "--floor",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also measure the floor: a bare handler doing only what an auto-answer must (its rows "
        "committed in groups; benchmarks/_servers.py FLOOR_SERVER), per backend",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        action="append",
        default=[],
        metavar="CHECKOUT",
        help="also measure the FlyBot of another checkout (e.g. an export of main), per backend, "
        "interleaved with this one's in the same run (A/B)",
    )
    parser.add_argument(
        "--keys", action="store_true", help="send a new Idempotency-Key with every request (FlyBot's clients always do)"
    )
    parser.add_argument(
        "--warm-up",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="load each server that has a Bot for SECONDS first, then ANALYZE the PostgreSQL "
        "databases (a fresh table's cached plans scan it until autovacuum analyzes it, within "
        "a minute in a running deployment: with --keys, each lookup grew with the table)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an extra FLYBOT_ setting for the FlyBot under test, e.g. --set slack_room_interval_s=0",
    )
    args = parser.parse_args()
    extra = dict(item.split("=", 1) for item in args.set)
    KEYS["on"] = args.keys
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    print(
        f"bench_auto_answer: {args.rounds} rounds of {args.concurrency} workers x {args.seconds:.0f} s, then "
        f"{args.rate:.0f} req/s x {args.seconds:.0f} s, loopback; load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    async with AsyncExitStack() as stack:
        servers: list[tuple[str, Server, str]] = [
            ("bare aiohttp handler", await stack.enter_async_context(bare_server()), "none")
        ]
        if args.bare_uvloop:
            servers.append(
                ("bare handler on uvloop", await stack.enter_async_context(bare_server(uvloop=True)), "none")
            )
        for backend in backends:
            url = await stack.enter_async_context(database(backend))
            plain = url.replace("postgresql+asyncpg://", "postgresql://", 1).replace("sqlite+aiosqlite:///", "", 1)
            servers.append(
                (f"bare + 1 commit ({backend})", await stack.enter_async_context(bare_store_server(plain)), "none")
            )
        analyze: list[str] = []
        for backend in backends:
            if args.floor:
                url = await stack.enter_async_context(database(backend))
                token = await add_bot(url, standing_pattern="apt-get install")
                servers.append((f"floor ({backend})", await stack.enter_async_context(floor_server(url)), token))
                analyze += [url] if backend == "postgresql" else []
                url = await stack.enter_async_context(database(backend))
                token = await add_bot(url, standing_pattern="apt-get install")
                servers.append(
                    (f"one-tx floor ({backend})", await stack.enter_async_context(tx_floor_server(url)), token)
                )
                analyze += [url] if backend == "postgresql" else []
        for backend in backends:
            for root in [None, *args.compare]:
                url = await stack.enter_async_context(database(backend))
                token = await add_bot(url, standing_pattern="apt-get install")
                state = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="flybot-bench-state-")))
                flybot = await stack.enter_async_context(
                    flybot_server(
                        url,
                        state,
                        root=root.resolve() if root is not None else None,
                        **{"rate_per_minute": "10000000", **extra},
                    )
                )
                label = f"FlyBot ({backend})" if root is None else f"{root.name} ({backend})"
                servers.append((label, flybot, token))
                analyze += [url] if backend == "postgresql" else []
        if args.warm_up > 0:
            for _name, server, token in servers:
                if token != "none":
                    await throughput(server.url, token, args.warm_up, args.concurrency)
            for url in analyze:
                db = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
                try:
                    await db.execute("ANALYZE")
                finally:
                    await db.close()
            print(f"warm-up: {args.warm_up:.0f} s per server with a Bot, then ANALYZE", flush=True)
        rounds: list[list[Row]] = []
        for n in range(args.rounds):
            print(f"round {n + 1} (load average {os.getloadavg()[0]:.1f}):", flush=True)
            rounds.append([await measure(name, server, token, args) for name, server, token in servers])
    print(
        "\nmedian over the rounds; ratio = the server's throughput / the bare handler's in the same round, p99 at "
        "the fixed rate (floor: <= 25 ms):"
    )
    for i, (name, _server, _token) in enumerate(servers):
        rows = [r[i] for r in rounds]
        ratio = statistics.median(r[i].rps / r[0].rps for r in rounds)
        cpu = statistics.median(row.server_us for row in rows)
        cpu_ratio = statistics.median(r[i].server_us / r[0].server_us for r in rounds)
        print(
            f"  {name:<26} {statistics.median(row.rps for row in rows):8.0f} req/s  ratio {ratio:5.2f}"
            f"   server CPU {cpu:5.0f} us/req ({cpu_ratio:4.1f}x bare)"
            f"   p50 {statistics.median(row.p50 for row in rows):5.1f} ms"
            f"   p99 {statistics.median(row.p99 for row in rows):6.1f} ms"
            f"   {'all approved' if i == 0 or all(row.all_approved for row in rows) else 'NOT all approved'}"
        )
    names = [name for name, _server, _token in servers]
    for backend in backends:
        c, b = names.index(f"bare + 1 commit ({backend})"), names.index(f"FlyBot ({backend})")
        print(
            f"  FlyBot / bare + 1 commit ({backend}): throughput "
            f"{statistics.median(r[b].rps / r[c].rps for r in rounds):4.2f} (floor >= 0.2)"
        )
        if f"one-tx floor ({backend})" in names:
            t = names.index(f"one-tx floor ({backend})")
            print(
                f"  one-tx floor / bare + 1 commit ({backend}): throughput "
                f"{statistics.median(r[t].rps / r[c].rps for r in rounds):4.2f}"
            )
        if f"floor ({backend})" in names:
            f, b = names.index(f"floor ({backend})"), names.index(f"FlyBot ({backend})")
            print(
                f"  FlyBot / floor ({backend}): throughput {statistics.median(r[b].rps / r[f].rps for r in rounds):4.2f}"
                f", server CPU {statistics.median(r[b].server_us / r[f].server_us for r in rounds):4.2f}x"
            )


if __name__ == "__main__":
    asyncio.run(main())
