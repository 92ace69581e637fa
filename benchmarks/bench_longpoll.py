"""Benchmark: many concurrent long-polls held by one FlyBot replica, against a bare aiohttp server holding the same
waits. Not a test: it prints figures.

Run from the repository root (PostgreSQL on 127.0.0.1:5432 with trust auth, or FLYBOT_BENCH_POSTGRES)::

    python benchmarks/bench_longpoll.py [--backend sqlite|postgresql|both] [--polls 10000] [--wait 20] \
        [--compare CHECKOUT]

For each server: ``--escalations`` pending escalations are made, then ``--polls`` long-polls
(``GET /v1/escalations/{id}?wait=--wait``) are opened in batches by ``--clients`` client processes and held
(one client process would itself be the bottleneck). Long-polls open at ``--batch`` per 50 ms (2,000 a second by
default, so all are held together from 5 s to the end of the first wait); much faster, and on a small machine
the bare baseline itself answers late: the client processes (and their garbage collector) are measured, not the
server. FlyBot's cards are posted before the long-polls open (in local
mode its Slack emulation runs in FlyBot's own process). Half-way through the wait,
``--decide`` of the escalations are withdrawn (a decision), so their long-polls must answer at once; the others
answer when their wait ends. Meanwhile ``/healthz`` is probed every 20 ms from another process. ``--compare``
also measures the FlyBot of another checkout, first (e.g. ``git archive main | tar -x -C /tmp/m``). Printed:

* errors (any answer but 200, or a failed connection) and how many were 5xx;
* the server's CPU time (user + system) over the run, and its peak RSS (VmHWM) while holding them;
* lateness: for decided escalations, answer time minus decision time; for the others, answer time minus the end
  of their wait (counted from when the request was sent, after its connection was made); how many answered within
  1 s;
* ``/healthz`` p50/p99 while the long-polls were held.

The bare server answers ``pending`` after sleeping ``wait`` seconds: the baseline for memory and ``/healthz``.
This process raises its own open-file limit (it holds the client sockets); FlyBot raises its own at start.

Targets: RSS at most 300 MB, answers within 1 s of their wait, ``/healthz`` p99 under
100 ms, no 5xx.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import (  # noqa: E402
    Server,
    add_bot,
    bare_server,
    cpu_s,
    database,
    flybot_server,
    percentile,
    raise_fd_limit,
    rss_mb,
)

BODY = {
    "command": "sudo apt-get install -y jq",
    "cwd": "/work/repo",
    "file_policy": "workspace-write",
    "approval_policy": "ask",
    "contained": False,
}


@dataclass
class Run:
    """What one server's run observed."""

    statuses: dict[str, int] = field(default_factory=dict)
    late_waits: list[float] = field(default_factory=list)
    late_decided: list[float] = field(default_factory=list)
    healthz_ms: list[float] = field(default_factory=list)
    peak_rss: float = 0.0
    cpu_s: float = 0.0


async def probe_healthz(url: str, seconds: float) -> list[float]:
    """``/healthz`` latencies (ms) every 20 ms for ``seconds`` (a failure counts as 10 s)."""
    latencies: list[float] = []
    end = time.monotonic() + seconds
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1)) as http:
        while time.monotonic() < end:
            started = time.monotonic()
            try:
                async with http.get(f"{url}/healthz", timeout=aiohttp.ClientTimeout(total=10)) as response:
                    await response.read()
                    ok = response.status == 200
            except (aiohttp.ClientError, TimeoutError):
                ok = False
            latencies.append((time.monotonic() - started) * 1000 if ok else 10_000.0)
            await asyncio.sleep(0.02)
    return latencies


async def hold(url: str, token: str, ids: list[str], count: int, wait: float, batch: int) -> list[list[Any]]:
    """Open ``count`` long-polls over ``ids`` and hold them; ``[id, status, sent, answered]`` each (monotonic s)."""
    headers = {"Authorization": f"Bearer {token}"}
    results: list[list[Any]] = []
    trace = aiohttp.TraceConfig()

    async def sent(_session: object, context: Any, _params: object) -> None:
        context.trace_request_ctx["sent"] = time.monotonic()

    trace.on_request_headers_sent.append(sent)
    timeout = aiohttp.ClientTimeout(total=wait + 60)
    async with aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0), timeout=timeout, trace_configs=[trace]
    ) as http:

        async def poll(escalation_id: str) -> None:
            ctx: dict[str, float] = {}
            try:
                async with http.get(
                    f"{url}/v1/escalations/{escalation_id}",
                    params={"wait": str(wait)},
                    headers=headers,
                    trace_request_ctx=ctx,
                ) as response:
                    await response.read()
                    key = str(response.status)
            except (aiohttp.ClientError, TimeoutError) as exc:
                key = type(exc).__name__
            results.append([escalation_id, key, ctx.get("sent", 0.0), time.monotonic()])

        tasks = []
        for i in range(count):
            tasks.append(asyncio.create_task(poll(ids[i % len(ids)])))
            if (i + 1) % batch == 0:
                await asyncio.sleep(0.05)
        await asyncio.gather(*tasks)
    return results


def child(argv: list[str]) -> None:
    """Child process: ``hold URL TOKEN IDS COUNT WAIT BATCH`` or ``probe URL SECONDS``; prints JSON.

    The cyclic garbage collector is off in these short-lived clients: with 5,000 connections each, its full
    collections can pause a client for up to a second, which the client would measure as the server's lateness (the
    bare baseline's too)."""
    gc.disable()
    raise_fd_limit()
    if argv[0] == "probe":
        print(json.dumps(asyncio.run(probe_healthz(argv[1], float(argv[2])))))
    else:
        url, token, ids, count, wait, batch = argv[1:7]
        print(json.dumps(asyncio.run(hold(url, token, ids.split(","), int(count), float(wait), int(batch)))))


async def spawn(*argv: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--child", *argv, stdout=asyncio.subprocess.PIPE
    )


async def watch_rss(server: Server, stop: asyncio.Event, run: Run) -> None:
    while not stop.is_set():
        run.peak_rss = max(run.peak_rss, rss_mb(server.pid)[1])
        await asyncio.sleep(0.5)


async def bench(server: Server, token: str, ids: list[str], decide: list[str], args: argparse.Namespace) -> Run:
    """Long-polls from ``--clients`` processes, ``/healthz`` probed from another, decisions from this one."""
    run = Run()
    stop = asyncio.Event()
    rss = asyncio.create_task(watch_rss(server, stop, run))
    cpu_before = cpu_s(server.pid)
    share = args.polls // args.clients
    holders = [
        await spawn(
            "hold",
            server.url,
            token,
            ",".join(ids[i :: args.clients] or ids),
            str(share),
            str(args.wait),
            str(max(1, args.batch // args.clients)),
        )
        for i in range(args.clients)
    ]
    probe = await spawn("probe", server.url, str(args.wait + 5))
    await asyncio.sleep(args.wait / 2)
    decided_at: dict[str, float] = {}
    if decide:
        async with aiohttp.ClientSession() as control:
            for escalation_id in decide:
                decided_at[escalation_id] = time.monotonic()
                async with control.post(
                    f"{server.url}/v1/escalations/{escalation_id}/withdraw",
                    headers={"Authorization": f"Bearer {token}"},
                ) as response:
                    await response.read()
    for holder in holders:
        out, _ = await holder.communicate()
        for escalation_id, key, sent, answered in json.loads(out):
            run.statuses[key] = run.statuses.get(key, 0) + 1
            if key != "200":
                continue
            if escalation_id in decided_at:
                run.late_decided.append(answered - max(decided_at[escalation_id], sent))
            else:
                run.late_waits.append(answered - (sent + args.wait))
    out, _ = await probe.communicate()
    run.healthz_ms = json.loads(out)
    run.cpu_s = cpu_s(server.pid) - cpu_before
    stop.set()
    await rss
    return run


def report(name: str, run: Run, polls: int) -> None:
    errors = {k: v for k, v in run.statuses.items() if k != "200"}
    five = sum(v for k, v in run.statuses.items() if k.startswith("5"))
    late = run.late_waits + run.late_decided
    within = sum(1 for x in late if x <= 1.0)
    print(f"  {name}")
    print(f"    answers 200: {run.statuses.get('200', 0)}/{polls}   errors: {errors or 'none'}   5xx: {five}")
    print(
        f"    server CPU {run.cpu_s:.1f} s   peak RSS {run.peak_rss:.0f} MB   /healthz p50 {percentile(run.healthz_ms, 0.5):.1f} ms"
        f"  p99 {percentile(run.healthz_ms, 0.99):.1f} ms  ({len(run.healthz_ms)} probes)"
    )
    if run.late_waits:
        print(
            f"    wait ended -> answer: p50 {percentile(run.late_waits, 0.5) * 1000:.0f} ms"
            f"  p99 {percentile(run.late_waits, 0.99) * 1000:.0f} ms  max {max(run.late_waits) * 1000:.0f} ms"
        )
    if run.late_decided:
        print(
            f"    decision -> answer:   p50 {percentile(run.late_decided, 0.5) * 1000:.0f} ms"
            f"  p99 {percentile(run.late_decided, 0.99) * 1000:.0f} ms  max {max(run.late_decided) * 1000:.0f} ms"
            f"  ({len(run.late_decided)} long-polls)"
        )
    print(f"    answered within 1 s: {within}/{len(late)}", flush=True)


async def cards_posted(http: aiohttp.ClientSession, url: str, token: str, ids: list[str], timeout: float = 300) -> None:
    """Wait until every escalation's card is posted, so the long-polls are measured on their own (in local mode the
    Slack emulation runs inside FlyBot's process: posting 200 cards while the long-polls arrive would measure both)."""
    deadline = time.monotonic() + timeout
    waiting = list(ids)
    while waiting and time.monotonic() < deadline:
        left = []
        for escalation_id in waiting:
            async with http.get(
                f"{url}/v1/escalations/{escalation_id}", headers={"Authorization": f"Bearer {token}"}
            ) as response:
                card = (await response.json()).get("card") or {}
                if card.get("status") == "queued":
                    left.append(escalation_id)
        waiting = left
        if waiting:
            await asyncio.sleep(0.5)
    if waiting:
        sys.exit(f"{len(waiting)} cards were not posted within {timeout:.0f} s")


async def flybot_run(backend: str, args: argparse.Namespace, root: Path | None = None) -> Run:
    async with database(backend) as url:
        token = await add_bot(url)
        with tempfile.TemporaryDirectory(prefix="flybot-bench-state-") as state:
            async with flybot_server(
                url, Path(state), root=root, max_open_escalations="0", rate_per_minute="0", slack_room_interval_s="0"
            ) as flybot:
                ids: list[str] = []
                async with aiohttp.ClientSession() as http:
                    for i in range(args.escalations):
                        async with http.post(
                            f"{flybot.url}/v1/escalations",
                            json={**BODY, "session_id": f"s{i}"},
                            headers={"Authorization": f"Bearer {token}"},
                        ) as response:
                            data = await response.json()
                            assert response.status == 201, data
                            ids.append(data["id"])
                    await cards_posted(http, flybot.url, token, ids)
                run = await bench(flybot, token, ids, ids[: args.decide], args)
                report(f"FlyBot ({backend}{', ' + str(root) if root else ''})", run, args.polls)
                return run


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--polls", type=int, default=10_000)
    parser.add_argument("--wait", type=float, default=20.0)
    parser.add_argument("--escalations", type=int, default=200)
    parser.add_argument("--decide", type=int, default=50)
    parser.add_argument(
        "--batch",
        type=int,
        default=100,
        help="long-polls opened per 50 ms (default 100: 2,000 a second, all 10,000 held after 5 s)",
    )
    parser.add_argument("--clients", type=int, default=2, help="client processes holding the long-polls")
    parser.add_argument("--compare", type=Path, help="another checkout whose FlyBot is also measured, first")
    args = parser.parse_args()
    limit = raise_fd_limit()
    if limit < args.polls + 200:
        sys.exit(f"the open-file limit is {limit}: too low for {args.polls} long-polls (raise the hard limit)")
    print(
        f"bench_longpoll: {args.polls} long-polls (wait={args.wait:.0f}s) on one replica, "
        f"{args.escalations} escalations, {args.decide} decided half-way; loopback",
        flush=True,
    )
    async with bare_server() as bare:
        run = await bench(bare, "none", [f"esc_{i}" for i in range(args.escalations)], [], args)
        report("bare aiohttp server (sleeping handler)", run, args.polls)
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    for backend in backends:
        if args.compare:
            await flybot_run(backend, args, args.compare)
        await flybot_run(backend, args)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2:])
    else:
        asyncio.run(main())
