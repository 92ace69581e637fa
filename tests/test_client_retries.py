"""The session client honours Retry-After and never gives up on a request FlyBot accepted (a lost answer
is asked again with the same Idempotency-Key and returns the same escalation). Real server, a real TCP proxy that
loses answers, no patching."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.app import METRICS
from bot.client import FlyBotClient, Refused
from bot.metrics import Metrics
from bot.store.admission import OPEN_RETRY_AFTER_S
from tests.harness import Harness


@dataclass
class LossyProxy:
    """A loopback TCP proxy that loses the answer of the first ``lose`` connections: it holds the answer's first
    bytes for ``hold_s`` seconds, then closes the connection without passing them on (a timeout, as the client sees
    it, after FlyBot did the work)."""

    upstream_port: int
    lose: int = 1
    hold_s: float = 0.0
    lost: int = 0
    server: asyncio.Server | None = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        losing = self.lose > 0
        self.lose -= 1 if losing else 0

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, drop: bool) -> None:
            try:
                while data := await src.read(65536):
                    if drop:
                        await asyncio.sleep(self.hold_s)
                        self.lost += 1
                        break
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                for w in (writer, up_writer):
                    w.close()

        for task in (
            asyncio.create_task(pipe(reader, up_writer, False)),
            asyncio.create_task(pipe(up_reader, writer, losing)),
        ):
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)


def metrics_of(h: Harness) -> Metrics:
    return h._app[METRICS]  # type: ignore[index]


async def test_a_lost_answer_is_asked_again_with_the_same_key_and_returns_the_same_escalation(
    harness: Harness,
) -> None:
    token = await harness.add_bot()
    proxy = LossyProxy(int(harness.url.rsplit(":", 1)[1]), lose=1, hold_s=1.0)
    url = await proxy.start()
    try:
        client = FlyBotClient(url, token, retry_pause_s=0.05)
        # The answer is lost after the connect window (0.3 s) closed: FlyBot took the request, so the client asks
        # again (same Idempotency-Key) instead of reporting "unreachable" for an escalation that exists.
        created = await asyncio.to_thread(client.escalate, harness.body(), connect_timeout_s=0.3, timeout_s=20)
    finally:
        await proxy.close()
    assert proxy.lost == 1
    assert created["status"] == "pending"
    pending = await harness.runtime.store.pending_escalations()
    assert [e.id for e in pending] == [created["id"]], "one escalation, not two"
    cards = [m for m in harness.emulator.messages if m.ephemeral_to is None and created["id"] in str(m.blocks)]
    assert len(cards) == 1, "one card"


async def test_the_client_waits_out_429_retry_after_then_gets_in(tmp_path: Path) -> None:
    h = Harness(tmp=tmp_path, settings_overrides={"max_open_escalations": 1})
    await h.start()
    try:
        token = await h.add_bot()
        client = FlyBotClient(h.url, token, retry_pause_s=0.05)
        first = await asyncio.to_thread(client.escalate, h.body(session_id="a"))
        second = asyncio.create_task(asyncio.to_thread(client.escalate, h.body(session_id="b"), timeout_s=30))
        refusals = metrics_of(h).rate_limited.labels("open_escalations")
        await h.eventually(lambda: refusals._value.get() >= 1)
        refused_at = time.monotonic()
        await asyncio.to_thread(client.withdraw, first["id"])
        created = await asyncio.wait_for(second, 30)
        assert created["status"] == "pending" and created["id"] != first["id"]
        # It waited for the Retry-After it was given rather than asking again at its own 0.05 s pace.
        assert refusals._value.get() == 1
        assert time.monotonic() - refused_at >= OPEN_RETRY_AFTER_S - 1
    finally:
        await h.close()


async def test_a_429_that_outlasts_the_callers_time_is_reported_as_rate_limited_not_unreachable(
    tmp_path: Path,
) -> None:
    h = Harness(tmp=tmp_path, settings_overrides={"max_open_escalations": 1})
    await h.start()
    try:
        token = await h.add_bot()
        client = FlyBotClient(h.url, token, retry_pause_s=0.05)
        await asyncio.to_thread(client.escalate, h.body(session_id="a"))
        with pytest.raises(Refused) as refused:
            await asyncio.to_thread(client.escalate, h.body(session_id="b"), timeout_s=1.0)
        assert refused.value.status == 429 and refused.value.code == "rate_limited"
    finally:
        await h.close()


async def test_unreachable_and_a_non_json_answer_are_told_in_plain_words_not_exception_class_names() -> None:
    """A newcomer read "unreachable (ClientConnectorError)"; the message says what happened instead."""
    from aiohttp import web

    from bot.client import Unreachable
    from tests.harness import free_socket

    closed = free_socket()
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there: the connection is refused
    client = FlyBotClient(f"http://127.0.0.1:{port}", "fbt_x", retry_pause_s=0.05)
    with pytest.raises(Unreachable) as unreachable:
        client.report({"host": "h"}, connect_timeout_s=0.3)
    assert "could not connect" in str(unreachable.value) and "Error" not in str(unreachable.value), unreachable.value

    async def garbled(_request: web.Request) -> web.Response:
        return web.Response(status=200, text="<html>a proxy page</html>")

    app = web.Application()
    app.router.add_post("/v1/reports", garbled)
    runner = web.AppRunner(app)
    await runner.setup()
    sock = free_socket()
    await web.SockSite(runner, sock).start()
    try:
        proxy_client = FlyBotClient(f"http://127.0.0.1:{sock.getsockname()[1]}", "fbt_x", retry_pause_s=0.05)
        with pytest.raises(Unreachable) as garbage:
            await asyncio.to_thread(proxy_client.report, {"host": "h"}, connect_timeout_s=0.3)
    finally:
        await runner.cleanup()
    assert "not valid JSON" in str(garbage.value) and "Error" not in str(garbage.value), garbage.value


async def test_a_long_poll_whose_answer_misses_the_deadline_leaves_the_escalation_pending_not_unreachable(
    harness: Harness,
) -> None:
    """A loaded server answers the last long-poll a moment after the session's deadline: FlyBot was reached, so
    the session's answer is "no decision within the wait" (still pending), not "FlyBot is unreachable"."""
    token = await harness.add_bot()
    created = await asyncio.to_thread(FlyBotClient(harness.url, token).escalate, harness.body())
    proxy = LossyProxy(int(harness.url.rsplit(":", 1)[1]), lose=100, hold_s=5.0)
    url = await proxy.start()
    try:
        client = FlyBotClient(url, token, retry_pause_s=0.05)
        started = time.monotonic()
        last = await asyncio.to_thread(client.wait, created, timeout_s=2.0)
    finally:
        await proxy.close()
    assert last["status"] == "pending" and last["id"] == created["id"]
    assert time.monotonic() - started < 4.0
