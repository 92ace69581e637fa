"""Benchmark: one FlyBot replica with systemd's default open-file limit (1,024) under slow-header connections and a
flood of long-polls, while ``/healthz`` is probed. Not a test: it prints figures.

Run from the repository root::

    python benchmarks/bench_descriptors.py [--compare PATH] [--slow 1100] [--spread 1] [--reopen] [--per-ip 256]
        [--polls 5000] [--wait 20] [--polls-over 2]

The server is ``python -m bot serve`` (local mode, SQLite) in a child process whose ``RLIMIT_NOFILE`` is set to
``--nofile`` (1,024: ``LimitNOFILE=1024``), with FlyBot's default settings but for the per-Bot request limits (off:
every long-poll is one Bot's) and the per-client connection cap (``--per-ip``; FlyBot counts all of loopback as one
client, so 0, no cap, leaves the connection budget alone in front of the flood). Everything runs on loopback, from
several client addresses (127.0.0.0/8):

* ``--slow`` slow-header connections spread evenly over ``--spread`` addresses (127.0.0.2 on), each sending a
  request line and one header, then one more header line every 5 s, never the blank line that ends the head; with
  ``--reopen``, each is opened again as soon as the server closes it (as an attacker keeping up the pressure);
* one second later, ``--polls`` long-polls (``GET /v1/escalations/{id}?wait=--wait``, ``Connection: close``) on
  one pending escalation, from 50 addresses (127.0.1.1-50), opened over ``--polls-over`` seconds;
* throughout, from another process, a ``GET /healthz`` on a new connection every 0.5 s from 127.0.0.1, until
  ``--polls-over`` + ``--wait`` + 5 seconds after the first long-poll.

Printed per server: ``/healthz`` probes answered 200 within 1 s (n/n) and their worst latency; the long-polls
answered ``200`` (held, then answered at the end of their wait), ``503`` (refused: ``Retry-After``), any other
status, and dropped (connection refused, reset or closed without an answer, or no answer within the wait plus
30 s); the slowest ``503``; what became of the slow-header connections; the log lines the server wrote.

``--compare PATH`` first runs the same against the checkout at PATH (e.g. ``git archive main | tar -x -C /tmp/m``),
the baseline, measured in the same run. The target: every probe answered within 1 s, and no long-poll dropped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import Server, add_bot, database, flybot_server, raise_fd_limit  # noqa: E402

PROBE_EVERY_S = 0.5
POLL_SOURCES = [f"127.0.1.{i}" for i in range(1, 51)]


@dataclass
class Figures:
    probes: list[float | None] = field(default_factory=list)
    """Each probe's latency in seconds, None when it got no 200."""
    polls: Counter[str] = field(default_factory=Counter)
    refused_latency: list[float] = field(default_factory=list)
    slow: Counter[str] = field(default_factory=Counter)
    log_lines: int = 0
    log_bytes: int = 0


async def _exchange(host: str, port: int, source: str, request: bytes, timeout: float) -> tuple[str, float]:
    """One request on a new connection (the server closes it after the answer): ``(outcome, seconds)``, the outcome
    being the status code, or ``dropped``."""
    start = time.monotonic()
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
            try:
                writer.write(request)
                raw = await reader.read()
            finally:
                writer.close()
    except (OSError, TimeoutError):
        return "dropped", time.monotonic() - start
    if not raw.startswith(b"HTTP/1.1 "):
        return "dropped", time.monotonic() - start
    return raw[9:12].decode(), time.monotonic() - start


PROBER = r"""
import asyncio, json, signal, sys, time

async def probe(port):
    start = time.monotonic()
    try:
        async with asyncio.timeout(5.0):
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.1", 0))
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: flybot\r\nConnection: close\r\n\r\n")
            raw = await reader.read()
            writer.close()
    except (OSError, TimeoutError):
        return None
    return time.monotonic() - start if raw.startswith(b"HTTP/1.1 200 ") else None

async def main(port, every):
    done = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, done.set)
    sys.stdout.write("ready\n"); sys.stdout.flush()
    probes = []
    while not done.is_set():
        probes.append(asyncio.create_task(probe(port)))
        try:
            await asyncio.wait_for(done.wait(), every)
        except TimeoutError:
            pass
    print(json.dumps(await asyncio.gather(*probes)))

asyncio.run(main(int(sys.argv[1]), float(sys.argv[2])))
"""
"""The ``/healthz`` prober, in a process of its own: the flood's client sockets would delay its own event loop."""


SLOW = r"""
import asyncio, collections, json, signal, sys, time

async def slow_once(port, source, outcomes, done):
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    except OSError:
        outcomes["connect failed"] += 1
        await asyncio.sleep(0.1)  # not at once again: the server's listen queue is full
        return
    start = time.monotonic()
    try:
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: flybot\r\n")
        read = asyncio.create_task(reader.read())
        while not done.is_set() and not read.done():
            await asyncio.wait([read, asyncio.create_task(done.wait())], timeout=5, return_when="FIRST_COMPLETED")
            if not read.done() and not done.is_set():
                writer.write(b"X-Slow: 1\r\n")
        if read.done():
            raw = read.result() if read.exception() is None else b""
            status = raw[9:12].decode() if raw.startswith(b"HTTP/1.1 ") else "no answer"
            after = time.monotonic() - start
            outcomes[f"closed by the server ({status}) after {'<1' if after < 1 else f'{after:.0f}'} s"] += 1
        else:
            read.cancel()
            outcomes["still open at the end"] += 1
    except OSError:
        outcomes["reset"] += 1
    finally:
        writer.close()

async def slow(port, source, outcomes, done, reopen):
    await slow_once(port, source, outcomes, done)
    while reopen and not done.is_set():
        await slow_once(port, source, outcomes, done)

async def main(port, count, spread, reopen):
    done = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, done.set)
    outcomes = collections.Counter()
    sources = [f"127.0.0.{2 + i}" for i in range(spread)]
    tasks = [asyncio.create_task(slow(port, sources[i % spread], outcomes, done, reopen)) for i in range(count)]
    sys.stdout.write("ready\n"); sys.stdout.flush()
    await done.wait()
    await asyncio.gather(*tasks)
    print(json.dumps(outcomes))

asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "reopen"))
"""
"""The slow-header clients, in a process of their own (as the prober): reopened at the rate the server closes them,
they would otherwise delay the long-polls' client loop, and a long-poll's request written late is a slow head."""


async def run(server: Server, token: str, args: argparse.Namespace, log: Path) -> Figures:
    host, port = "127.0.0.1", int(server.url.rsplit(":", 1)[1])
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{server.url}/v1/escalations",
            headers={"Authorization": f"Bearer {token}"},
            json={
                "session_id": "bench",
                "command": "sudo apt-get install -y jq",
                "cwd": "/tmp",
                "file_policy": "workspace-write",
                "approval_policy": "ask",
                "contained": False,
            },
        ) as response:
            assert response.status == 201, await response.text()
            escalation = (await response.json())["id"]
    figures = Figures()
    prober = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PROBER, str(port), str(PROBE_EVERY_S), stdout=asyncio.subprocess.PIPE
    )
    assert prober.stdout is not None
    await prober.stdout.readline()  # ready
    slow = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        SLOW,
        str(port),
        str(args.slow),
        str(args.spread),
        "reopen" if args.reopen else "once",
        stdout=asyncio.subprocess.PIPE,
    )
    assert slow.stdout is not None
    await slow.stdout.readline()  # ready
    await asyncio.sleep(1.0)
    request = (
        f"GET /v1/escalations/{escalation}?wait={args.wait} HTTP/1.1\r\nHost: flybot\r\n"
        f"Authorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    ).encode()

    async def poll(i: int) -> None:
        await asyncio.sleep(args.polls_over * i / args.polls)
        outcome, seconds = await _exchange(host, port, POLL_SOURCES[i % len(POLL_SOURCES)], request, args.wait + 30)
        figures.polls[outcome] += 1
        if outcome == "503":
            figures.refused_latency.append(seconds)

    first = time.monotonic()
    await asyncio.gather(*(poll(i) for i in range(args.polls)))
    # Probe as long on every server, however fast its long-polls ended (dropped ones end at once).
    await asyncio.sleep(max(0.0, first + args.polls_over + args.wait + 5 - time.monotonic()))
    prober.terminate()
    figures.probes = json.loads((await prober.communicate())[0])
    slow.terminate()
    figures.slow.update(json.loads((await slow.communicate())[0]))
    text = log.read_bytes()
    figures.log_lines, figures.log_bytes = text.count(b"\n"), len(text)
    return figures


def show(name: str, f: Figures, args: argparse.Namespace) -> None:
    answered = [p for p in f.probes if p is not None and p <= 1.0]
    worst = max((p for p in f.probes if p is not None), default=0.0)
    print(f"\n{name}")
    print(
        f"  /healthz answered within 1 s: {len(answered)}/{len(f.probes)} (worst {worst * 1000:.0f} ms; "
        f"{sum(p is None for p in f.probes)} unanswered within 5 s)"
    )
    other = {k: v for k, v in f.polls.items() if k not in ("200", "503", "dropped")}
    print(
        f"  long-polls ({args.polls}): {f.polls['200']} held and answered 200, {f.polls['503']} answered 503, "
        f"{f.polls['dropped']} dropped, other {other or 0}"
    )
    if f.refused_latency:
        print(f"  slowest 503: {max(f.refused_latency) * 1000:.0f} ms")
    print(f"  slow-header connections ({args.slow}): " + "; ".join(f"{n} {k}" for k, n in sorted(f.slow.items())))
    print(f"  server log: {f.log_lines} lines, {f.log_bytes / 1024:.0f} KB")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", type=Path, help="another checkout, run first as the baseline")
    parser.add_argument("--nofile", type=int, default=1024)
    parser.add_argument("--slow", type=int, default=1100)
    parser.add_argument("--spread", type=int, default=1, help="loopback addresses the slow connections come from")
    parser.add_argument("--reopen", action="store_true", help="open a slow connection again when it is closed")
    parser.add_argument("--per-ip", type=int, default=256, help="FLYBOT_MAX_CONNECTIONS_PER_IP (0: no cap)")
    parser.add_argument("--polls", type=int, default=5000)
    parser.add_argument("--wait", type=int, default=20)
    parser.add_argument("--polls-over", type=float, default=2.0, help="seconds over which the long-polls open")
    args = parser.parse_args()
    have = raise_fd_limit()
    if have < args.slow + args.polls + 200:
        sys.exit(f"this process may open {have} files; it needs {args.slow + args.polls + 200}")
    runs = [("baseline: " + str(args.compare), args.compare)] if args.compare else []
    runs.append(("this checkout", None))
    print(
        f"one replica, RLIMIT_NOFILE={args.nofile}, per-client cap {args.per_ip or 'off'}: {args.slow} slow-header "
        f"connections from {args.spread} address(es){' reopened when closed' if args.reopen else ''}, "
        f"{args.polls} long-polls (wait {args.wait} s) opened over {args.polls_over:g} s, /healthz every "
        f"{PROBE_EVERY_S} s"
    )
    for name, root in runs:
        async with database("sqlite") as url:
            token = await add_bot(url)
            with tempfile.TemporaryDirectory(prefix="flybot-bench-") as state:
                async with flybot_server(
                    url,
                    Path(state),
                    root=root,
                    nofile=args.nofile,
                    rate_per_minute="0",
                    max_open_escalations="0",
                    max_connections_per_ip=str(args.per_ip),
                ) as server:
                    figures = await run(server, token, args, Path(state) / "flybot.log")
        show(name, figures, args)
    print(json.dumps({"target": "every /healthz probe within 1 s; no long-poll dropped"}))


if __name__ == "__main__":
    asyncio.run(main())
