"""Bots that share one address (a NAT, one host) share its connection cap fairly: one Bot holding the whole cap of
long-polls leaves another Bot from that address half the cap, while a client without a Bot's token stays within
the per-address cap. The real app behind the real :class:`bot.capacity.ConnectionGuard`, listening on this machine's
address that is not loopback, over raw HTTP/1.1."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from bot.app import METRICS
from bot.capacity import ConnectionGuard, GuardedSite, client_of
from bot.commands.server import bot_token_check
from bot.metrics import Metrics
from tests.harness import Harness
from tests.served import HEALTHZ, parse, response


def _address() -> str | None:
    """An IPv4 address of this machine that is not loopback (the address a NAT's Bots share), or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: the kernel picks the outgoing address
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if client_of(address) == "loopback" else address


ADDRESS = _address()
pytestmark = pytest.mark.skipif(ADDRESS is None, reason="no address other than loopback")


class Guarded:
    def __init__(self, harness: Harness, app: web.Application, port: int) -> None:
        self.harness, self.app, self.port = harness, app, port

    async def connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        assert ADDRESS is not None
        return await asyncio.open_connection(ADDRESS, self.port, local_addr=(ADDRESS, 0))

    def long_polls(self) -> float:
        """Long-polls the app holds now (``flybot_long_polls``)."""
        metrics: Metrics = self.app[METRICS]
        return float(metrics.registry.get_sample_value("flybot_long_polls") or 0.0)

    async def hold_long_poll(self, token: str, escalation: str) -> asyncio.StreamWriter:
        """A connection holding a long-poll, once the app holds it."""
        before = self.long_polls()
        _reader, writer = await self.connect()
        writer.write(
            f"GET /v1/escalations/{escalation}?wait=30 HTTP/1.1\r\nHost: flybot\r\n"
            f"Authorization: Bearer {token}\r\nConnection: close\r\n\r\n".encode()
        )
        await writer.drain()
        await self.harness.eventually(lambda: self.long_polls() == before + 1)
        return writer

    async def read(self, token: str, escalation: str) -> tuple[int, dict[str, object]]:
        """``GET /v1/escalations/ID`` (no wait) on a new connection: the status and the JSON body."""
        reader, writer = await self.connect()
        try:
            writer.write(
                f"GET /v1/escalations/{escalation} HTTP/1.1\r\nHost: flybot\r\nAuthorization: Bearer {token}\r\n"
                "Connection: close\r\n\r\n".encode()
            )
            await writer.drain()
            status, _headers, body = parse(await asyncio.wait_for(reader.read(), 30))
        finally:
            writer.close()
        return status, json.loads(body)


@pytest.fixture
async def guarded(tmp_path: Path) -> AsyncIterator[Guarded]:
    """The harness's FlyBot app also served on :data:`ADDRESS` behind a guard with a cap of 2 per address, as
    ``flybot serve`` wires it (:func:`bot.commands.server.bot_token_check`)."""
    harness = Harness(tmp=tmp_path)
    await harness.start()
    runner, app = harness._runner, harness._app  # a second site of the harness's server
    assert runner is not None and app is not None
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((ADDRESS, 0))
    guard = ConnectionGuard(connections=1000, reserve=10, per_ip=2, header_timeout_s=30, bot_of=bot_token_check(app))
    await GuardedSite(runner, sock, guard).start()
    try:
        yield Guarded(harness, app, sock.getsockname()[1])
    finally:
        await harness.close()


async def test_one_bot_filling_an_address_s_cap_leaves_another_bot_from_it_half(guarded: Guarded) -> None:
    h = guarded.harness
    first, second = await h.add_bot("first-bot"), await h.add_bot("second-bot")
    mine = [(await h.escalate(first, session_id=f"a{i}"))["id"] for i in range(3)]
    theirs = (await h.escalate(second, session_id="b0"))["id"]
    # The first Bot holds the address's whole cap (2) with long-polls: requests in progress, never closed for room.
    held = [await guarded.hold_long_poll(first, escalation) for escalation in mine[:2]]
    # Past the cap, the first Bot's share is full: refused, as before.
    status, body = await guarded.read(first, mine[2])
    assert status == 503 and body["code"] == "busy"
    # A client without a Bot's token stays within the per-address cap (no share of its own before it is known).
    status, body = await guarded.read("fbt_not-a-token", mine[2])
    assert status == 503 and body["code"] == "busy"
    status, body = await guarded.read("", mine[2])
    assert status == 503 and body["code"] == "busy"
    # The second Bot from the same address is served in its share (half the cap): a long-poll of its own too.
    status, body = await guarded.read(second, theirs)
    assert status == 200 and body["id"] == theirs
    held.append(await guarded.hold_long_poll(second, theirs))
    # Its share full now (1 of a cap of 2), it is refused past the cap like the first.
    status, body = await guarded.read(second, theirs)
    assert status == 503 and body["code"] == "busy"
    for writer in held:
        writer.close()


async def test_a_health_check_let_in_past_the_cap_carries_no_other_request(guarded: Guarded) -> None:
    h = guarded.harness
    token = await h.add_bot("only-bot")
    mine = [(await h.escalate(token, session_id=f"a{i}"))["id"] for i in range(3)]
    held = [await guarded.hold_long_poll(token, escalation) for escalation in mine[:2]]
    # Past the cap with nothing to close: health checks are answered, on a kept-alive connection too; a request
    # pipelined behind them, or sent on it later, is answered 503 and the connection closed.
    reader, writer = await guarded.connect()
    keep_alive = HEALTHZ.replace("Connection: close", "Connection: keep-alive")
    read = f"GET /v1/escalations/{mine[2]} HTTP/1.1\r\nHost: flybot\r\nAuthorization: Bearer {token}\r\n\r\n"
    writer.write(keep_alive.encode())
    await writer.drain()
    assert (await response(reader))[0] == 200
    writer.write((keep_alive + read).encode())
    await writer.drain()
    assert (await response(reader))[0] == 200
    status, _headers, body = parse(await asyncio.wait_for(reader.read(), 30))
    assert status == 503 and json.loads(body)["code"] == "busy"
    writer.close()
    for held_writer in held:
        held_writer.close()
