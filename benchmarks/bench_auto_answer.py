"""Benchmark: standing-approval auto-answers against a bare aiohttp JSON handler (issue 10). Not a test: it prints.

Run from the repository root (PostgreSQL on 127.0.0.1:5432 with trust auth, or FLYBOT_BENCH_POSTGRES)::

    python benchmarks/bench_auto_answer.py [--backend sqlite|postgresql|both] [--seconds 5] [--concurrency 16]

For each server, in this one run and with the same client:

* throughput: ``--concurrency`` workers POST ``/v1/escalations`` back to back for ``--seconds`` seconds;
* latency at a fixed rate: ``--rate`` requests a second (default 200) for ``--seconds`` seconds, each sent at its
  scheduled time whatever the others do; p50/p99 from the scheduled time (so queueing counts);

then the ratio of FlyBot's throughput to the bare handler's. FlyBot runs as ``python -m bot serve`` (local mode, JSON
logs) on a fresh database with one Bot and a Bot-wide standing approval for ``apt-get install``; every request is
``apt-get install -y jq`` contained, so every one is answered ``approved`` by the standing approval. The per-Bot rate
limit is raised (``FLYBOT_RATE_PER_MINUTE=10000000``) but stays on, so its counting is measured too.

Targets (issue 10, "Done when"): throughput at least half the bare handler's; p99 at most 10 ms at 200 requests/s.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import add_bot, bare_server, database, flybot_server, percentile  # noqa: E402

BODY = {"session_id": "bench", "command": "apt-get install -y jq", "cwd": "/work/repo",
        "file_policy": "workspace-write", "approval_policy": "ask", "contained": True}


async def one(http: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> str:
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


async def measure(name: str, url: str, token: str, args: argparse.Namespace) -> dict[str, Any]:
    rps, outcomes = await throughput(url, token, args.seconds, args.concurrency)
    latencies, rate_outcomes = await fixed_rate(url, token, args.seconds, args.rate)
    row = {"name": name, "rps": rps, "outcomes": outcomes, "p50": percentile(latencies, 0.50),
           "p99": percentile(latencies, 0.99), "rate_outcomes": rate_outcomes}
    print(f"  {name:<22} {rps:8.0f} req/s   at {args.rate:.0f}/s: p50 {row['p50']:6.1f} ms  p99 {row['p99']:6.1f} ms"
          f"   answers {outcomes} / {rate_outcomes}", flush=True)
    return row


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="an extra FLYBOT_ setting for the FlyBot under test, e.g. --set slack_room_interval_s=0")
    args = parser.parse_args()
    extra = dict(item.split("=", 1) for item in args.set)
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    print(f"bench_auto_answer: {args.concurrency} workers x {args.seconds:.0f} s, then {args.rate:.0f} req/s x "
          f"{args.seconds:.0f} s, loopback", flush=True)
    rows = []
    async with bare_server() as bare:
        rows.append(await measure("bare aiohttp handler", bare.url, "none", args))
    for backend in backends:
        async with database(backend) as url:
            token = await add_bot(url, standing_pattern="apt-get install")
            with tempfile.TemporaryDirectory(prefix="flybot-bench-state-") as state:
                async with flybot_server(url, Path(state), **{"rate_per_minute": "10000000", **extra}) as flybot:
                    print(f"  (FlyBot pid {flybot.pid})", flush=True)
                    rows.append(await measure(f"FlyBot ({backend})", flybot.url, token, args))
    base = rows[0]["rps"]
    print("\nratio of throughputs (FlyBot / bare), target >= 0.5; p99 at the fixed rate, target <= 10 ms:")
    for row in rows[1:]:
        approved = row["outcomes"].get("approved", 0) == sum(row["outcomes"].values())
        print(f"  {row['name']:<22} ratio {row['rps'] / base:5.2f}   p99 {row['p99']:6.1f} ms"
              f"   {'all approved' if approved else 'NOT all approved'}")


if __name__ == "__main__":
    asyncio.run(main())
