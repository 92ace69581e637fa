"""Benchmark: from the owner's click on the local chat page to the waiting session's long-poll answer, against a bare
aiohttp handler waking a waiter, measured by the same client in the same run. Not a test: it prints figures.

Run from the repository root (PostgreSQL on 127.0.0.1:5432 with trust auth, or FLYBOT_BENCH_POSTGRES)::

    python benchmarks/bench_click.py [--backend sqlite|postgresql|both] [--rounds 200] [--history 220,1900] \
        [--delay 0.6] [--compare CHECKOUT]

Each round, one Bot (no standing approval) asks for ``sudo apt-get install -y jq`` on the host
(``POST /v1/escalations``: graded ``system``, so it waits for a click), opens the session's long-poll
(``GET /v1/escalations/{id}?wait=30``), reads the page's state (``GET page/state``, as the page does) until the
approval card is there, takes the Approve button's ``action_id``, ``block_id`` and ``value`` from the card's blocks
and clicks it (``POST page/click`` with the page credential and the page's ``Origin``, as the page's script does;
the credential comes from ``POST login`` with the key in the login URL that ``flybot serve`` prints). Timed, from
the moment the click is sent:

* click -> answered: until the session's long-poll answers ``approved`` (the figure that matters);
* click round trip: until ``page/click`` answers (the chat delivered the click to ``/slack/events`` and FlyBot
  acknowledged it, after storing the decision);
* answered - click return: the long-poll's answer minus the click's return (negative: the session was answered
  before the click's own answer came back);
* and, before the click, the page state read: how long the ``page/state`` read that showed the card took (the
  page reads the whole visible history after every change; the bare handler's ``GET /held`` for the baseline).

Servers, each in its own process on loopback:

* the baseline: a bare aiohttp handler (:data:`BARE_WAITER`) where ``GET /wait/{id}`` awaits a future that
  ``POST /click/{id}`` resolves, read (``GET /held/{id}``) until the wait is held, then clicked, the same way;
* FlyBot, one replica, local mode (``flybot serve`` with its embedded chat), per backend;
* FlyBot, two replicas on PostgreSQL in Slack mode against the Slack emulation in its own process
  (:func:`_servers.slack_emulation`): the escalation and its long-poll on replica 1, the click delivered to
  replica 2, so the session is woken across replicas (PostgreSQL's ``LISTEN``/``NOTIFY``);
* with ``--history N[,N...]``: FlyBot, one replica, local mode, whose chat already holds N messages (copies of an
  approval card, written into ``localchat.json`` before the start; the chat keeps its last 2,000). Here each click
  waits a random 0 to ``--delay`` seconds after the card is seen (the same seeded sequence for every server), so
  some clicks land while the chat saves its history (about 0.5 s after any change);
* with ``--compare CHECKOUT``: every FlyBot above also runs the ``bot`` package of another checkout (e.g.
  ``git -C /work/main archive HEAD | tar -x -C /tmp/base``), first, for A/B figures in the same run.

Printed: one table, p50/p99 (ms) of each figure and the click -> answered ratio against the baseline; the load
average before and after. This client runs without Python's cyclic garbage collector while it measures.

Target: click -> answered p99 at most 25 ms on SQLite and PostgreSQL, one replica and two, and no click slowed by the
local chat's save.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import (  # noqa: E402
    OWNER,
    Server,
    _script_server,
    add_bot,
    database,
    flybot_server,
    free_port,
    login_key,
    percentile,
    slack_emulation,
)

from cards import APPROVE_ACTION  # noqa: E402

BODY = {
    "command": "sudo apt-get install -y jq",
    "cwd": "/work/repo",
    "file_policy": "workspace-write",
    "approval_policy": "ask",
    "contained": False,
}


def flybot(
    url: str,
    state: Path,
    root: Path | None,
    *,
    slack: dict[str, str] | None = None,
    port: int | None = None,
    slack_api_url: str = "https://slack.com/api/",
) -> AbstractAsyncContextManager[Server]:
    """:func:`_servers.flybot_server` with the admission limits off (one Bot asks for hundreds of escalations in a
    row) and no room pace (a card is posted as soon as the outbox takes it)."""
    return flybot_server(
        url,
        state,
        root=root,
        slack=slack,
        port=port,
        slack_api_url=slack_api_url,
        max_open_escalations="0",
        rate_per_minute="0",
        slack_room_interval_s="0",
    )


PAGE = "/local/slack"
ESCALATION_ID = re.compile(r"esc_[0-9a-f]{12,}")

BARE_WAITER = r"""
import asyncio, sys
from aiohttp import web

waiters = {}

def waiter(key):
    if key not in waiters:
        waiters[key] = asyncio.get_running_loop().create_future()
    return waiters[key]

async def wait(request):
    key = request.match_info["id"]
    future = waiter(key)
    future.held = True
    try:
        status = await asyncio.wait_for(asyncio.shield(future), float(request.query.get("wait", "30")))
    except TimeoutError:
        status = "pending"
    waiters.pop(key, None)
    return web.json_response({"id": key, "status": status})

async def held(request):
    future = waiters.get(request.match_info["id"])
    return web.json_response({"held": bool(future is not None and getattr(future, "held", False))})

async def click(request):
    future = waiter(request.match_info["id"])
    if not future.done():
        future.set_result("approved")
    return web.json_response({"ok": True})

async def healthz(request):
    return web.json_response({"status": "ok"})

app = web.Application()
app.router.add_get("/wait/{id}", wait)
app.router.add_get("/held/{id}", held)
app.router.add_post("/click/{id}", click)
app.router.add_get("/healthz", healthz)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
"""
"""The baseline: a held ``GET /wait/{id}`` awaits a future that ``POST /click/{id}`` resolves (on the standard
library's event loop; ``flybot serve`` runs uvloop, which is faster)."""


@dataclass
class Rounds:
    """What one server's rounds measured, in seconds."""

    name: str
    answered: list[float] = field(default_factory=list)
    click_rtt: list[float] = field(default_factory=list)
    after_click: list[float] = field(default_factory=list)
    state_read: list[float] = field(default_factory=list)
    failures: int = 0


@dataclass
class Target:
    """Where a round's requests go: the Bot API (``api``, with the Bot's ``token``) and the chat page (``page``)."""

    api: str
    token: str
    page: str


Timing = tuple[float, float, float, float]
"""A round's click -> answered, click round trip, answered - click return, page state read (s)."""
Round = Callable[[aiohttp.ClientSession, int], Awaitable[Timing | None]]


async def timed_click(
    http: aiohttp.ClientSession,
    poll: asyncio.Task[tuple[str, float]],
    url: str,
    body: dict[str, Any],
    delay: float,
    state_read: float,
) -> Timing | None:
    """Wait ``delay`` s, send the click, and time it (:data:`Timing`, with ``state_read`` given); None when the
    long-poll did not answer ``approved``."""
    if delay:
        await asyncio.sleep(delay)
    sent = time.monotonic()
    async with http.post(url, json=body) as response:
        await response.read()
        ok = response.status == 200
    returned = time.monotonic()
    status, answered = await poll
    if not ok or status != "approved":
        return None
    return answered - sent, returned - sent, answered - returned, state_read


async def long_poll(http: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> tuple[str, float]:
    """The session's long-poll: ``(its status, when it answered)``."""
    async with http.get(url, params={"wait": "30"}, headers=headers) as response:
        data = await response.json()
    return str(data.get("status")), time.monotonic()


def approve_button(state: dict[str, Any], escalation_id: str) -> dict[str, Any] | None:
    """The page/click body for the Approve button of ``escalation_id``'s card in a page state, if it is there."""
    for message in reversed(state.get("messages", [])):
        for block in message.get("blocks") or []:
            for element in block.get("elements") or []:
                if element.get("action_id") == APPROVE_ACTION and element.get("value") == escalation_id:
                    return {
                        "user": OWNER,
                        "channel": message["channel"],
                        "ts": message["ts"],
                        "action_id": APPROVE_ACTION,
                        "block_id": block.get("block_id", ""),
                        "value": element["value"],
                    }
    return None


def flybot_round(target: Target, delays: list[float]) -> Round:
    """One FlyBot round on ``target``: escalate, long-poll, find the card on the page, click Approve."""
    bot = {"Authorization": f"Bearer {target.token}"}

    async def round_(http: aiohttp.ClientSession, i: int) -> Timing | None:
        async with http.post(
            f"{target.api}/v1/escalations", json={**BODY, "session_id": f"s{i}"}, headers=bot
        ) as response:
            created = await response.json()
            if response.status != 201 or created.get("status") != "pending":
                raise RuntimeError(f"escalation not pending: {response.status} {created}")
        poll = asyncio.create_task(long_poll(http, f"{target.api}/v1/escalations/{created['id']}", bot))
        version, deadline = -1, time.monotonic() + 30
        while True:
            read = time.monotonic()
            async with http.get(
                f"{target.page}/page/state", params={"user": OWNER, "since": str(version), "wait": "5"}
            ) as response:
                state = await response.json()
            read = time.monotonic() - read
            click = approve_button(state, created["id"])
            if click is not None:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"no card for {created['id']} within 30 s")
            version = int(state["version"])
        return await timed_click(http, poll, f"{target.page}/page/click", click, delays[i % len(delays)], read)

    return round_


def bare_round(url: str, delays: list[float]) -> Round:
    async def round_(http: aiohttp.ClientSession, i: int) -> Timing | None:
        key = uuid.uuid4().hex
        poll = asyncio.create_task(long_poll(http, f"{url}/wait/{key}", {}))
        while True:
            read = time.monotonic()
            async with http.get(f"{url}/held/{key}") as response:
                held = (await response.json())["held"]
            read = time.monotonic() - read
            if held:
                break
            await asyncio.sleep(0.001)
        return await timed_click(http, poll, f"{url}/click/{key}", {}, delays[i % len(delays)], read)

    return round_


async def measure(name: str, round_: Round, rounds: int, page_login: tuple[str, str] | None = None) -> Rounds:
    """``rounds`` rounds of ``round_`` (after 5 unmeasured), one at a time, on one client session; ``page_login``:
    the page's ``(base URL, login key)`` to log in first, as the page does."""
    result = Rounds(name)
    async with aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(total=60)
    ) as http:
        if page_login is not None:
            base, key = page_login
            origin = base.split(PAGE, 1)[0]
            async with http.post(f"{base}/login", json={"key": key}, headers={"Origin": origin}) as response:
                if response.status != 200:
                    raise RuntimeError(f"login refused: {response.status}")
                http.headers.update({"X-FlyBot-Session": (await response.json())["session"], "Origin": origin})
        for i in range(5):
            await round_(http, rounds + i)
        gc.collect()
        gc.disable()
        try:
            for i in range(rounds):
                timing = await round_(http, i)
                if timing is None:
                    result.failures += 1
                    continue
                result.answered.append(timing[0])
                result.click_rtt.append(timing[1])
                result.after_click.append(timing[2])
                result.state_read.append(timing[3])
        finally:
            gc.enable()
    print(f"  measured: {name}", flush=True)
    return result


async def flybot_target(
    stack: AsyncExitStack, backend: str, replicas: int, root: Path | None, history: int = 0
) -> tuple[Target, str]:
    """Start FlyBot (``replicas`` on one database; with ``history``, its chat holding that many messages) and
    return where to send a round's requests and the page's login key."""
    url = await stack.enter_async_context(database(backend))
    token = await add_bot(url)
    state = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="flybot-bench-click-")))
    if replicas == 1:
        if history:
            await seed_history(url, token, state, history, root)
        server = await stack.enter_async_context(flybot(url, state, root))
        return Target(server.url, token, server.url + PAGE), login_key(state)
    port = free_port()
    emulation = await stack.enter_async_context(slack_emulation(f"http://127.0.0.1:{port}/slack/events", root=root))
    servers = []
    for i in range(replicas):
        state_i = state / f"replica-{i}"
        state_i.mkdir(mode=0o700)
        servers.append(
            await stack.enter_async_context(
                flybot(
                    url,
                    state_i,
                    root,
                    slack=emulation.slack,
                    port=port if i == replicas - 1 else None,
                    slack_api_url=emulation.url + "/api/",
                )
            )
        )
    return Target(servers[0].url, token, emulation.url), emulation.key


async def seed_history(url: str, token: str, state: Path, count: int, root: Path | None) -> None:
    """Fill the local chat's ``localchat.json`` in ``state`` with ``count`` messages: copies (each with its own
    ``ts`` and escalation id) of an approval card that a first start of FlyBot posts and a click decides."""
    async with flybot(url, state, root) as server:
        target = Target(server.url, token, server.url + PAGE)
        result = await measure("(history seed)", flybot_round(target, [0.0]), 1, (target.page, login_key(state)))
        if result.failures:
            raise RuntimeError("the seed round failed")
    saved = json.loads((state / "localchat.json").read_text())  # saved when it stopped
    card = next(m for m in reversed(saved["messages"]) if m.get("bot_id") and ESCALATION_ID.search(json.dumps(m)))
    text = json.dumps(card)
    now = int(time.time()) - 86_400
    seeded = []
    for i in range(count):
        copy = json.loads(ESCALATION_ID.sub(f"esc_seed{i:08d}", text))
        copy["ts"] = f"{now}.{i + 1:06d}"
        seeded.append(copy)
    saved["messages"] = seeded
    (state / "localchat.json").write_text(json.dumps(saved))


@asynccontextmanager
async def bare_waiter() -> AsyncIterator[Server]:
    async with _script_server(BARE_WAITER) as server:
        yield server


async def run_flybot(
    name: str, backend: str, replicas: int, rounds: int, delays: list[float], root: Path | None, history: int = 0
) -> Rounds:
    async with AsyncExitStack() as stack:
        target, key = await flybot_target(stack, backend, replicas, root, history)
        return await measure(name, flybot_round(target, delays), rounds, (target.page, key))


def ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q) * 1000:.1f}"


def table(results: list[Rounds], bare: Rounds) -> None:
    base50, base99 = percentile(bare.answered, 0.5), percentile(bare.answered, 0.99)
    print(
        "| server | click -> answered p50 / p99 (ms) | x bare p50 / p99 | click round trip p50 / p99 "
        "| answered - click return p50 / p99 | page state read p50 / p99 | failed |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r.name} | {ms(r.answered, 0.5)} / {ms(r.answered, 0.99)} "
            f"| {percentile(r.answered, 0.5) / base50:.1f} / {percentile(r.answered, 0.99) / base99:.1f} "
            f"| {ms(r.click_rtt, 0.5)} / {ms(r.click_rtt, 0.99)} | {ms(r.after_click, 0.5)} / {ms(r.after_click, 0.99)} "
            f"| {ms(r.state_read, 0.5)} / {ms(r.state_read, 0.99)} | {r.failures} |"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument(
        "--history",
        default="",
        help="comma-separated message counts (e.g. 220,1900): also FlyBot whose chat holds as many",
    )
    parser.add_argument(
        "--history-backend",
        choices=["sqlite", "postgresql"],
        default="sqlite",
        help="the backend of the --history runs (the chat's save does not depend on it)",
    )
    parser.add_argument(
        "--delay",
        type=float,
        default=0.6,
        help="--history runs: each click waits a random 0 to DELAY s after the card is seen",
    )
    parser.add_argument("--no-standard", action="store_true", help="only the --history runs (and the baseline)")
    parser.add_argument("--compare", type=Path, help="another checkout whose FlyBot is also measured, first")
    args = parser.parse_args()
    history = [int(n) for n in args.history.split(",") if n.strip()]
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    rng = random.Random(27)
    spread = [rng.uniform(0, args.delay) for _ in range(args.rounds + 5)]
    print(
        f"bench_click: {args.rounds} rounds per server, one at a time; loopback; load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    roots: list[tuple[str, Path | None]] = ([(", before", args.compare)] if args.compare else []) + [("", None)]
    async with bare_waiter() as bare:
        baseline = await measure("bare aiohttp handler waking a waiter", bare_round(bare.url, [0.0]), args.rounds)
        baseline_spread = (
            await measure(
                f"bare aiohttp handler, clicks 0-{args.delay} s after", bare_round(bare.url, spread), args.rounds
            )
            if history
            else None
        )
    results = [baseline]
    if not args.no_standard:
        for backend in backends:
            for suffix, root in roots:
                results.append(
                    await run_flybot(f"FlyBot, {backend}, one replica{suffix}", backend, 1, args.rounds, [0.0], root)
                )
            if backend == "postgresql":
                for suffix, root in roots:
                    results.append(
                        await run_flybot(
                            f"FlyBot, postgresql, two replicas{suffix}", backend, 2, args.rounds, [0.0], root
                        )
                    )
    if baseline_spread is not None:
        results.append(baseline_spread)
    for count in history:
        for suffix, root in roots:
            results.append(
                await run_flybot(
                    f"FlyBot, {args.history_backend}, chat of {count:,} messages, clicks 0-{args.delay} s after{suffix}",
                    args.history_backend,
                    1,
                    args.rounds,
                    spread,
                    root,
                    history=count,
                )
            )
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    table(results, baseline)


if __name__ == "__main__":
    asyncio.run(main())
