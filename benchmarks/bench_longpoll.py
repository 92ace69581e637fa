"""Benchmark: many concurrent long-polls held by one FlyBot replica, against a bare aiohttp server holding the same
waits (issue 10). Not a test: it prints figures.

Run from the repository root (PostgreSQL on 127.0.0.1:5432 with trust auth, or FLYBOT_BENCH_POSTGRES)::

    python benchmarks/bench_longpoll.py [--backend sqlite|postgresql|both] [--polls 10000] [--wait 20]

For each server: ``--escalations`` pending escalations are made, then ``--polls`` long-polls
(``GET /v1/escalations/{id}?wait=--wait``) are opened in batches and held. Half-way through the wait,
``--decide`` of the escalations are withdrawn (a decision), so their long-polls must answer at once; the others
answer when their wait ends. Meanwhile ``/healthz`` is probed every 20 ms on its own connection. Printed:

* errors (any answer but 200, or a failed connection) and how many were 5xx;
* the server's peak RSS (VmHWM) while holding them;
* lateness: for decided escalations, answer time minus decision time; for the others, answer time minus the end
  of their wait (counted from when the request was sent, after its connection was made); how many answered within
  1 s;
* ``/healthz`` p50/p99 while the long-polls were held.

The bare server answers ``pending`` after sleeping ``wait`` seconds: the baseline for memory and ``/healthz``.
This process raises its own open-file limit (it holds the client sockets); FlyBot raises its own at start.

Targets (issue 10, "Done when"): RSS at most 300 MB, answers within 1 s of their wait, ``/healthz`` p99 under
100 ms, no 5xx.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import (  # noqa: E402
    Server,
    add_bot,
    bare_server,
    database,
    flybot_server,
    percentile,
    raise_fd_limit,
    rss_mb,
)

BODY = {"command": "sudo apt-get install -y jq", "cwd": "/work/repo", "file_policy": "workspace-write",
        "approval_policy": "ask", "contained": False}


@dataclass
class Run:
    """What one server's run observed."""

    statuses: dict[str, int] = field(default_factory=dict)
    late_waits: list[float] = field(default_factory=list)
    late_decided: list[float] = field(default_factory=list)
    healthz_ms: list[float] = field(default_factory=list)
    peak_rss: float = 0.0
    held_max: int = 0


async def probe_healthz(url: str, stop: asyncio.Event, run: Run) -> None:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1)) as http:
        while not stop.is_set():
            started = time.monotonic()
            try:
                async with http.get(f"{url}/healthz", timeout=aiohttp.ClientTimeout(total=10)) as response:
                    await response.read()
                    ok = response.status == 200
            except (aiohttp.ClientError, TimeoutError):
                ok = False
            run.healthz_ms.append((time.monotonic() - started) * 1000 if ok else 10_000.0)
            await asyncio.sleep(0.02)


async def watch_rss(server: Server, stop: asyncio.Event, run: Run) -> None:
    while not stop.is_set():
        run.peak_rss = max(run.peak_rss, rss_mb(server.pid)[1])
        await asyncio.sleep(0.5)


async def bench(server: Server, token: str, ids: list[str], decide: list[str], args: argparse.Namespace) -> Run:
    run = Run()
    headers = {"Authorization": f"Bearer {token}"}
    decided_at: dict[str, float] = {}
    stop = asyncio.Event()
    side = [asyncio.create_task(probe_healthz(server.url, stop, run)), asyncio.create_task(watch_rss(server, stop, run))]
    timeout = aiohttp.ClientTimeout(total=args.wait + 60)
    in_flight = 0
    trace = aiohttp.TraceConfig()

    async def sent(_session: object, context: object, _params: object) -> None:
        context.trace_request_ctx["sent"] = time.monotonic()  # type: ignore[attr-defined]

    trace.on_request_headers_sent.append(sent)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), timeout=timeout,
                                     trace_configs=[trace]) as http:

        async def poll(escalation_id: str) -> None:
            nonlocal in_flight
            ctx: dict[str, float] = {}
            in_flight += 1
            run.held_max = max(run.held_max, in_flight)
            try:
                async with http.get(f"{server.url}/v1/escalations/{escalation_id}", params={"wait": str(args.wait)},
                                    headers=headers, trace_request_ctx=ctx) as response:
                    await response.read()
                    key = str(response.status)
            except (aiohttp.ClientError, TimeoutError) as exc:
                key = type(exc).__name__
            finally:
                in_flight -= 1
            answered = time.monotonic()
            run.statuses[key] = run.statuses.get(key, 0) + 1
            if key != "200":
                return
            started = ctx["sent"]  # when the request left this client (connecting under a burst takes a while)
            if escalation_id in decided_at:
                run.late_decided.append(answered - max(decided_at[escalation_id], started))
            else:
                run.late_waits.append(answered - (started + args.wait))

        tasks: list[asyncio.Task[None]] = []
        for i in range(args.polls):
            tasks.append(asyncio.create_task(poll(ids[i % len(ids)])))
            if (i + 1) % args.batch == 0:
                await asyncio.sleep(0.05)
        await asyncio.sleep(args.wait / 2)
        if decide:
            async with aiohttp.ClientSession() as control:
                for escalation_id in decide:
                    decided_at[escalation_id] = time.monotonic()
                    async with control.post(f"{server.url}/v1/escalations/{escalation_id}/withdraw",
                                            headers=headers) as response:
                        await response.read()
        await asyncio.gather(*tasks)
    stop.set()
    await asyncio.gather(*side)
    return run


def report(name: str, run: Run, polls: int) -> None:
    errors = {k: v for k, v in run.statuses.items() if k != "200"}
    five = sum(v for k, v in run.statuses.items() if k.startswith("5"))
    late = run.late_waits + run.late_decided
    within = sum(1 for x in late if x <= 1.0)
    print(f"  {name}")
    print(f"    answers 200: {run.statuses.get('200', 0)}/{polls}   errors: {errors or 'none'}   5xx: {five}"
          f"   held at most: {run.held_max}")
    print(f"    peak RSS {run.peak_rss:.0f} MB   /healthz p50 {percentile(run.healthz_ms, .5):.1f} ms"
          f"  p99 {percentile(run.healthz_ms, .99):.1f} ms  ({len(run.healthz_ms)} probes)")
    if run.late_waits:
        print(f"    wait ended -> answer: p50 {percentile(run.late_waits, .5) * 1000:.0f} ms"
              f"  p99 {percentile(run.late_waits, .99) * 1000:.0f} ms  max {max(run.late_waits) * 1000:.0f} ms")
    if run.late_decided:
        print(f"    decision -> answer:   p50 {percentile(run.late_decided, .5) * 1000:.0f} ms"
              f"  p99 {percentile(run.late_decided, .99) * 1000:.0f} ms  max {max(run.late_decided) * 1000:.0f} ms"
              f"  ({len(run.late_decided)} long-polls)")
    print(f"    answered within 1 s: {within}/{len(late)}", flush=True)


async def flybot_run(backend: str, args: argparse.Namespace) -> Run:
    async with database(backend) as url:
        token = await add_bot(url)
        with tempfile.TemporaryDirectory(prefix="flybot-bench-state-") as state:
            async with flybot_server(url, Path(state), max_open_escalations="0", rate_per_minute="0",
                                     slack_room_interval_s="0") as flybot:
                ids: list[str] = []
                async with aiohttp.ClientSession() as http:
                    for i in range(args.escalations):
                        async with http.post(f"{flybot.url}/v1/escalations", json={**BODY, "session_id": f"s{i}"},
                                             headers={"Authorization": f"Bearer {token}"}) as response:
                            data = await response.json()
                            assert response.status == 201, data
                            ids.append(data["id"])
                run = await bench(flybot, token, ids, ids[: args.decide], args)
                report(f"FlyBot ({backend})", run, args.polls)
                return run


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--polls", type=int, default=10_000)
    parser.add_argument("--wait", type=float, default=20.0)
    parser.add_argument("--escalations", type=int, default=200)
    parser.add_argument("--decide", type=int, default=50)
    parser.add_argument("--batch", type=int, default=500, help="long-polls opened per 50 ms")
    args = parser.parse_args()
    limit = raise_fd_limit()
    if limit < args.polls + 200:
        sys.exit(f"the open-file limit is {limit}: too low for {args.polls} long-polls (raise the hard limit)")
    print(f"bench_longpoll: {args.polls} long-polls (wait={args.wait:.0f}s) on one replica, "
          f"{args.escalations} escalations, {args.decide} decided half-way; loopback", flush=True)
    async with bare_server() as bare:
        run = await bench(bare, "none", [f"esc_{i}" for i in range(args.escalations)], [], args)
        report("bare aiohttp server (sleeping handler)", run, args.polls)
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    for backend in backends:
        await flybot_run(backend, args)


if __name__ == "__main__":
    asyncio.run(main())
