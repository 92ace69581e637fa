"""``flybot serve`` under abuse: slow clients dropped at the header and body deadlines, the per-address connection
cap, the connection budget (503 beyond it, ``/healthz`` still answered), unparsable HTTP and refusals logged as a
few JSON lines. Each test runs the real ``flybot serve`` (local mode, SQLite) as a child process over loopback and
talks raw HTTP/1.1 to it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
import structlog
from aiohttp import web

from bot.capacity import client_of
from bot.refusals import RefusalLog
from tests.served import HEALTHZ, connect, create_escalation, exchange, hold_long_poll, parse, response, serve

GUARD_READS = ("_waiter", "_messages", "_request_in_progress")
"""The private attributes of aiohttp's ``RequestHandler`` that :class:`bot.capacity.ConnectionGuard` reads
(``_Connection.idle`` and ``_Connection.between_requests``); requirements/*.lock pins aiohttp for them."""

ATTACKER = "127.0.0.2"
"""Loopback is 127.0.0.0/8 on Linux: a second client address without a second machine."""


async def test_a_client_slow_to_send_its_headers_is_answered_408_and_dropped(tmp_path: Path) -> None:
    async with serve(tmp_path, header_timeout_s=1) as served:
        reader, writer = await connect(served)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: flybot\r\n")  # the blank line never comes
        await writer.drain()
        status, headers, body = parse(await asyncio.wait_for(reader.read(), 30))
        writer.close()
        assert status == 408 and headers["connection"] == "close"
        assert json.loads(body)["code"] == "request_timeout"
        # Everyone else is still served.
        assert (await exchange(served, HEALTHZ))[0] == 200


async def test_a_request_body_slower_than_the_body_timeout_is_answered_408(tmp_path: Path) -> None:
    async with serve(tmp_path, body_timeout_s=1) as served:
        head = (
            f"POST /v1/escalations HTTP/1.1\r\nHost: flybot\r\nAuthorization: Bearer {served.token}\r\n"
            "Content-Type: application/json\r\nContent-Length: 200\r\n\r\n"
        )
        status, _headers, body = await exchange(served, head, body=b'{"session_id": "s1", ')
        assert status == 408 and json.loads(body)["code"] == "request_timeout"


async def test_a_declared_length_above_the_body_cap_is_answered_413_at_once_without_the_body(tmp_path: Path) -> None:
    async with serve(tmp_path, body_timeout_s=60) as served:
        for path, auth in (
            ("/v1/escalations", f"Authorization: Bearer {served.token}\r\n"),
            ("/v1/escalations", ""),
            ("/local/slack/page/click", ""),
            ("/slack/events", ""),
        ):
            head = (
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n{auth}"
                "Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n"
            )
            started = asyncio.get_running_loop().time()
            status, headers, body = await exchange(served, head, timeout=10)  # no byte of the body is sent
            assert asyncio.get_running_loop().time() - started < 5, path
            assert status == 413 and headers["connection"] == "close", (path, status, body)
            assert headers["content-type"].startswith("application/problem+json"), path
            assert json.loads(body)["code"] == "too_large", path
        await served.logged("request.refused")
        assert (await exchange(served, HEALTHZ))[0] == 200
        served.stop()
        records = [json.loads(line) for line in served.lines()]
    refused = [r for r in records if r["event"] == "request.refused" and r["why"] == "too_large"]
    assert len(refused) == 1 and refused[0]["content_length"] == 50_000_000, refused  # the rest are counted


async def test_loopback_addresses_are_one_client_for_the_per_client_cap(tmp_path: Path) -> None:
    async with serve(tmp_path, max_connections_per_ip=2, header_timeout_s=60) as served:
        escalation = await create_escalation(served, tmp_path)
        # Two long-polls (requests in progress: never closed to make room) from two loopback addresses.
        held = [await hold_long_poll(served, escalation, 30, source) for source in ("127.0.0.2", "127.0.0.3")]
        # A third loopback address is the same client, at its cap with nothing to close: refused in the same share
        # (the same Bot token), but for the health checks.
        same_bot = HEALTHZ.replace("/healthz", "/v1/openapi.json").replace(
            "Connection", f"Authorization: Bearer {served.token}\r\nConnection"
        )
        status, headers, body = await exchange(served, same_bot, source="127.0.0.4")
        assert status == 503 and int(headers["retry-after"]) >= 1
        assert headers["content-type"] == "application/problem+json" and json.loads(body)["code"] == "busy"
        assert (await exchange(served, HEALTHZ, source="127.0.0.4"))[0] == 200
        for _reader, writer in held:
            writer.close()
        await served.logged('"why": "per_ip"')
        assert any('"who": "loopback"' in line for line in served.lines() if '"per_ip"' in line)


async def test_one_local_process_filling_its_share_leaves_the_page_and_other_bots_theirs(tmp_path: Path) -> None:
    async with serve(tmp_path, max_connections_per_ip=4, header_timeout_s=60) as served:
        escalation = await create_escalation(served, tmp_path)
        # One local process holds long-polls with the demo Bot's token: its share (half the cap) and the whole cap.
        held = [await hold_long_poll(served, escalation, 30, ATTACKER) for _ in range(4)]
        same_bot = HEALTHZ.replace("/healthz", f"/v1/escalations/{escalation}").replace(
            "Connection", f"Authorization: Bearer {served.token}\r\nConnection"
        )
        status, _headers, body = await exchange(served, same_bot, source="127.0.0.3")
        assert status == 503 and json.loads(body)["code"] == "busy"
        # The page's routes and another Bot's token are other shares: answered (the page, 200; the unknown token,
        # 401 from the API itself), not 503.
        status, _headers, _body = await exchange(served, HEALTHZ.replace("/healthz", "/page/state"), source="127.0.0.3")
        assert status != 503, status
        other_bot = same_bot.replace(served.token, "fbt_another_bots_token")
        assert (await exchange(served, other_bot, source="127.0.0.3"))[0] == 401
        assert (await exchange(served, HEALTHZ, source="127.0.0.3"))[0] == 200
        for _reader, writer in held:
            writer.close()


async def test_a_client_at_its_cap_gets_a_new_connection_in_place_of_its_oldest_slow_one(tmp_path: Path) -> None:
    async with serve(tmp_path, max_connections_per_ip=3, header_timeout_s=60) as served:
        slow = []
        for _ in range(3):  # request heads begun and never finished, from 127.0.0.2
            reader, writer = await connect(served, ATTACKER)
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: flybot\r\n")
            slow.append((reader, writer))
        # 127.0.0.3 is the same client (loopback): its connection takes the place of the oldest slow one.
        assert (await exchange(served, HEALTHZ, source="127.0.0.3"))[0] == 200
        status, _headers, body = parse(await asyncio.wait_for(slow[0][0].read(), 30))
        assert status == 503 and json.loads(body)["code"] == "busy"
        for _reader, writer in slow:
            writer.close()
        await served.logged('"event": "connection.evicted"')


async def test_with_the_budget_full_of_slow_clients_healthz_is_served_in_place_of_the_oldest(tmp_path: Path) -> None:
    # A budget of 16 connections, filled by slow-header clients from four loopback addresses.
    async with serve(tmp_path, max_connections=16, header_timeout_s=60) as served:
        slow = []
        for i in range(16):
            reader, writer = await connect(served, f"127.0.0.{2 + i % 4}")
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: flybot\r\n")
            slow.append((reader, writer))
        status, _headers, body = await exchange(served, HEALTHZ)
        assert status == 200 and json.loads(body) == {"status": "ok"}
        status, _headers, body = parse(await asyncio.wait_for(slow[0][0].read(), 30))  # the oldest made room
        assert status == 503 and json.loads(body)["code"] == "busy"
        for _reader, writer in slow:
            writer.close()


async def test_long_polls_are_never_closed_to_make_room(tmp_path: Path) -> None:
    # A budget of 16: 12 long-polls (as many as it holds) and 4 slow clients fill it; 6 newcomers and a /healthz
    # take the places of slow clients only, though the long-polls are older.
    async with serve(tmp_path, max_connections=16, header_timeout_s=60) as served:
        escalation = await create_escalation(served, tmp_path)
        polls = [await hold_long_poll(served, escalation, 5, f"127.0.0.{2 + i % 4}") for i in range(12)]
        slow = []
        for i in range(10):
            reader, writer = await connect(served, f"127.0.0.{6 + i % 4}")
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: flybot\r\n")
            slow.append((reader, writer))
        assert (await exchange(served, HEALTHZ))[0] == 200
        for reader, _writer in slow[:7]:
            status, _headers, body = parse(await asyncio.wait_for(reader.read(), 30))
            assert status == 503 and json.loads(body)["code"] == "busy"
        for reader, _writer in polls:  # each answered at the end of its wait
            status, _headers, body = parse(await asyncio.wait_for(reader.read(), 30))
            assert status == 200 and json.loads(body)["id"] == escalation
        for _reader, writer in polls + slow:
            writer.close()


async def test_long_polls_are_never_closed_in_place_of_idle_kept_alive_connections(tmp_path: Path) -> None:
    # 12 long-polls and then 4 idle kept-alive connections fill a budget of 16; no slow head to close: a /healthz
    # takes the place of the oldest idle connection, not of an older long-poll.
    async with serve(tmp_path, max_connections=16, keepalive_timeout_s=120) as served:
        escalation = await create_escalation(served, tmp_path)
        polls = [await hold_long_poll(served, escalation, 5, f"127.0.0.{2 + i % 4}") for i in range(12)]
        idle = []
        for i in range(4):
            reader, writer = await connect(served, f"127.0.0.{6 + i}")
            writer.write(HEALTHZ.replace("Connection: close", "Connection: keep-alive").encode())
            assert (await response(reader))[0] == 200
            idle.append((reader, writer))
        assert (await exchange(served, HEALTHZ))[0] == 200
        assert await asyncio.wait_for(idle[0][0].read(), 30) == b""  # closed without an answer
        for reader, _writer in polls:  # each answered at the end of its wait
            status, _headers, body = parse(await asyncio.wait_for(reader.read(), 30))
            assert status == 200 and json.loads(body)["id"] == escalation
        for _reader, writer in polls + idle:
            writer.close()


async def test_a_slow_later_request_head_on_a_kept_alive_connection_is_answered_408(tmp_path: Path) -> None:
    async with serve(tmp_path, header_timeout_s=1, keepalive_timeout_s=120) as served:
        reader, writer = await connect(served)
        writer.write(HEALTHZ.replace("Connection: close", "Connection: keep-alive").encode())
        assert (await response(reader))[0] == 200
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: flybot\r\n")  # the second head never ends
        status, headers, body = parse(await asyncio.wait_for(reader.read(), 30))
        writer.close()
        assert status == 408 and json.loads(body)["code"] == "request_timeout"


async def test_with_the_budget_full_of_idle_kept_alive_connections_the_oldest_is_closed(tmp_path: Path) -> None:
    async with serve(tmp_path, max_connections=16, keepalive_timeout_s=120) as served:
        idle = []
        for i in range(16):
            reader, writer = await connect(served, f"127.0.0.{2 + i % 4}")
            writer.write(HEALTHZ.replace("Connection: close", "Connection: keep-alive").encode())
            assert (await response(reader))[0] == 200
            idle.append((reader, writer))
        assert (await exchange(served, HEALTHZ))[0] == 200
        assert await asyncio.wait_for(idle[0][0].read(), 30) == b""  # closed without an answer
        for _reader, writer in idle:
            writer.close()


async def test_long_polls_past_the_connection_budget_get_503_and_healthz_still_answers(tmp_path: Path) -> None:
    # A budget of 16 connections keeps the last 2 for the health checks (bot.limits.health_reserve).
    async with serve(tmp_path, max_connections=16, header_timeout_s=60) as served:
        auth = {"Authorization": f"Bearer {served.token}"}
        async with aiohttp.ClientSession() as http:
            async with http.post(
                f"{served.url}/v1/escalations",
                headers=auth,
                json={
                    "session_id": "s1",
                    "command": "sudo apt-get install -y jq",
                    "cwd": str(tmp_path),
                    "file_policy": "workspace-write",
                    "approval_policy": "ask",
                    "contained": False,
                },
            ) as response:
                assert response.status == 201
                escalation = (await response.json())["id"]
        idle = [await connect(served, ATTACKER) for _ in range(14)]  # open, silent: the budget but its reserve
        poll = (
            f"GET /v1/escalations/{escalation}?wait=30 HTTP/1.1\r\nHost: flybot\r\n"
            f"Authorization: Bearer {served.token}\r\n\r\n"
        )
        status, headers, body = await exchange(served, poll)
        assert status == 503 and int(headers["retry-after"]) >= 1 and headers["connection"] == "close"
        assert headers["content-type"] == "application/problem+json" and json.loads(body)["code"] == "busy"
        status, _headers, body = await exchange(served, HEALTHZ)
        assert status == 200 and json.loads(body) == {"status": "ok"}
        for _reader, writer in idle:
            writer.close()


async def test_past_the_open_file_limit_slow_connections_make_room_and_healthz_is_served(tmp_path: Path) -> None:
    # 128 descriptors: a budget of 32 connections (a quarter: bot.limits.connection_budget). 150 slow clients at
    # once: the server accepts 32; each next one from the listen queue takes the place of the oldest slow one
    # (503; reset if its bytes arrive after it was closed), the last ones are answered 408 at the header deadline;
    # accept() never fails for want of descriptors.
    async with serve(tmp_path, nofile=128, header_timeout_s=1) as served:

        async def slow_client(i: int) -> bytes:
            reader, writer = await connect(served, f"127.0.0.{10 + i % 5}")
            try:
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: flybot\r\n")
                return await asyncio.wait_for(reader.read(), 60)
            except ConnectionResetError:
                return b"reset"
            finally:
                writer.close()

        answers = await asyncio.gather(*(slow_client(i) for i in range(150)))
        outcomes = [parse(a)[0] if a.startswith(b"HTTP/") else a for a in answers]
        assert set(outcomes) <= {408, 503, b"reset"} and outcomes.count(408) >= 1, outcomes
        assert (await exchange(served, HEALTHZ))[0] == 200


async def test_a_malformed_request_line_is_one_json_log_line_without_traceback(tmp_path: Path) -> None:
    async with serve(tmp_path) as served:
        status, _headers, _body = await exchange(served, "GET / HTTP/9.9\r\nHost: flybot\r\n\r\n")
        assert status == 400
        await served.logged("http.bad_request")
        served.stop()
        lines = served.lines()
    records = [json.loads(line) for line in lines]  # every line is JSON
    bad = [r for r in records if r["event"] == "http.bad_request"]
    assert len(bad) == 1 and bad[0]["who"] == "127.0.0.1" and bad[0]["status"] == 400
    assert not any("Traceback" in line or "exception" in r for line, r in zip(lines, records, strict=True))


async def test_a_hundred_refused_requests_from_one_token_are_a_few_log_lines(tmp_path: Path) -> None:
    async with serve(tmp_path, rate_per_minute=1) as served:
        auth = {"Authorization": f"Bearer {served.token}"}
        body = {
            "session_id": "s1",
            "command": "sudo apt-get install -y jq",
            "cwd": str(tmp_path),
            "file_policy": "workspace-write",
            "approval_policy": "ask",
            "contained": False,
        }
        statuses = []
        async with aiohttp.ClientSession() as http:
            for _ in range(101):
                async with http.post(f"{served.url}/v1/escalations", headers=auth, json=body) as response:
                    statuses.append(response.status)
            for _ in range(100):  # and a hundred with a wrong token: refused per client address
                async with http.get(
                    f"{served.url}/v1/escalations/esc_x", headers={"Authorization": "Bearer fbt_wrong_token_0123"}
                ) as response:
                    statuses.append(response.status)
        assert statuses == [201] + [429] * 100 + [401] * 100
        served.stop()
        records = [json.loads(line) for line in served.lines()]
    refusals = [r for r in records if "refused" in r["event"] or r["event"] == "refusals.summary"]
    events = sorted(r["event"] for r in refusals)
    assert events == ["api.refused", "escalation.refused", "refusals.summary"], refusals
    summary = next(r for r in refusals if r["event"] == "refusals.summary")
    assert summary["not_logged"] == 99 + 99


def test_the_refusal_log_writes_the_first_of_a_kind_per_window_and_one_summary() -> None:
    now = [0.0]
    refusals = RefusalLog(window_s=60, clock=lambda: now[0])
    with structlog.testing.capture_logs() as logs:
        for _ in range(50):
            refusals.refused("api.refused", why="unauthorized", who="192.0.2.7", status=401)
        refusals.refused("api.refused", why="unauthorized", who="192.0.2.8", status=401)
        refusals.refused("escalation.refused", why="rate", who="bot_1")
        assert [(e["event"], e["who"]) for e in logs] == [
            ("api.refused", "192.0.2.7"),
            ("api.refused", "192.0.2.8"),
            ("escalation.refused", "bot_1"),
        ]
        now[0] = 61.0  # the next window: the first refusal of a kind is logged again, after the last one's summary
        refusals.refused("api.refused", why="unauthorized", who="192.0.2.7", status=401)
        refusals.flush()  # only one refusal in this window: no summary
    assert [e["event"] for e in logs[3:]] == ["refusals.summary", "api.refused"]
    assert logs[3]["not_logged"] == 49 and logs[3]["counted"] == {"api.refused unauthorized 192.0.2.7": 49}


def test_a_client_is_an_ipv4_address_all_of_loopback_or_an_ipv6_64() -> None:
    assert {client_of(a) for a in ("127.0.0.1", "127.0.0.2", "127.255.0.9", "::1", "::ffff:127.0.0.3")} == {"loopback"}
    assert client_of("192.0.2.7") == client_of("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_of("192.0.2.8") != client_of("192.0.2.7")
    assert client_of("2001:db8:1:2::1") == client_of("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert client_of("2001:db8:1:3::1") == "2001:db8:1:3::/64"
    assert client_of("fe80::1%eth0") == "fe80::/64"


async def test_the_installed_aiohttp_keeps_the_handler_state_the_guard_reads() -> None:
    """A real aiohttp server on loopback, one kept-alive connection: while its request is handled, and after, while
    it waits for the next one, the handler holds :data:`GUARD_READS` with the meaning the guard gives them."""
    missing = [name for name in GUARD_READS if not hasattr(web.RequestHandler, name)]  # a slot is a class attribute
    assert not missing, (
        f"aiohttp {aiohttp.__version__}: RequestHandler has no {missing}, which "
        f"bot/capacity.py's ConnectionGuard reads; adapt it before moving the aiohttp pin"
    )
    during: dict[str, Any] = {}
    handlers: list[web.RequestHandler[web.Request]] = []

    async def handle(request: web.Request) -> web.Response:
        handlers.append(request.protocol)
        during.update((name, getattr(request.protocol, name)) for name in GUARD_READS)
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: flybot\r\nConnection: keep-alive\r\n\r\n")
        assert (await asyncio.wait_for(reader.readuntil(b"ok"), 10)).startswith(b"HTTP/1.1 200")
        version = f"aiohttp {aiohttp.__version__}"
        assert during["_request_in_progress"] is True, f"{version}: _request_in_progress is not True in a handler"
        (handler,) = handlers
        for _ in range(200):  # the handler's loop awaits the next request on a fresh _waiter
            waiter = handler._waiter
            if waiter is not None:
                break
            await asyncio.sleep(0.01)
        assert isinstance(waiter, asyncio.Future) and not waiter.done(), f"{version}: no _waiter while kept alive"
        assert handler._request_in_progress is False, f"{version}: _request_in_progress stays set after the answer"
        assert len(handler._messages) == 0, f"{version}: _messages is not an empty queue between requests"
        writer.close()
    finally:
        await runner.cleanup()
