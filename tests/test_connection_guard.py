"""``flybot serve`` under abuse: slow clients dropped at the header and body deadlines, the per-address connection
cap, the connection budget (503 beyond it, ``/healthz`` still answered), unparsable HTTP and refusals logged as a
few JSON lines. Each test runs the real ``flybot serve`` (local mode, SQLite) as a child process over loopback and
talks raw HTTP/1.1 to it."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import aiohttp
import structlog

from bot.refusals import RefusalLog
from tests.served import HEALTHZ, connect, exchange, parse, serve

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
        head = (f"POST /v1/escalations HTTP/1.1\r\nHost: flybot\r\nAuthorization: Bearer {served.token}\r\n"
                "Content-Type: application/json\r\nContent-Length: 200\r\n\r\n")
        status, _headers, body = await exchange(served, head, body=b'{"session_id": "s1", ')
        assert status == 408 and json.loads(body)["code"] == "request_timeout"


async def test_the_per_address_cap_refuses_the_next_connection_with_503(tmp_path: Path) -> None:
    async with serve(tmp_path, max_connections_per_ip=3) as served:
        held = [await connect(served, ATTACKER) for _ in range(3)]
        # Accepted in order from the listen queue: the fourth from that address is past its cap.
        status, headers, body = await exchange(served, HEALTHZ, source=ATTACKER)
        assert status == 503 and int(headers["retry-after"]) >= 1
        assert headers["content-type"] == "application/problem+json" and json.loads(body)["code"] == "busy"
        # Another address is not affected.
        assert (await exchange(served, HEALTHZ))[0] == 200
        status, _headers, body = await exchange(served, HEALTHZ.replace("/healthz", "/metrics"))
        held_now = re.search(rb"^flybot_connections (\d+)", body, re.M)
        assert status == 200 and held_now and int(held_now.group(1)) >= 4  # the 3 held and this request's
        for _reader, writer in held:
            writer.close()
        await served.logged('"why": "per_ip"')


async def test_long_polls_past_the_connection_budget_get_503_and_healthz_still_answers(tmp_path: Path) -> None:
    # A budget of 16 connections keeps the last 2 for the health checks (bot.limits.health_reserve).
    async with serve(tmp_path, max_connections=16, header_timeout_s=60) as served:
        auth = {"Authorization": f"Bearer {served.token}"}
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{served.url}/v1/escalations", headers=auth, json={
                "session_id": "s1", "command": "sudo apt-get install -y jq", "cwd": str(tmp_path),
                "file_policy": "workspace-write", "approval_policy": "ask", "contained": False,
            }) as response:
                assert response.status == 201
                escalation = (await response.json())["id"]
        idle = [await connect(served, ATTACKER) for _ in range(14)]  # open, silent: the budget but its reserve
        poll = (f"GET /v1/escalations/{escalation}?wait=30 HTTP/1.1\r\nHost: flybot\r\n"
                f"Authorization: Bearer {served.token}\r\n\r\n")
        status, headers, body = await exchange(served, poll)
        assert status == 503 and int(headers["retry-after"]) >= 1 and headers["connection"] == "close"
        assert headers["content-type"] == "application/problem+json" and json.loads(body)["code"] == "busy"
        status, _headers, body = await exchange(served, HEALTHZ)
        assert status == 200 and json.loads(body) == {"status": "ok"}
        for _reader, writer in idle:
            writer.close()


async def test_past_the_open_file_limit_connections_wait_and_are_answered_none_dropped(tmp_path: Path) -> None:
    # 128 descriptors: a budget of 32 connections (a quarter: bot.limits.connection_budget). 150 slow clients at
    # once: the server accepts 32, answers them 408 at the header deadline, then takes the next from the listen
    # queue; accept() never fails for want of descriptors, so no connection is reset or closed without an answer.
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
        assert [parse(a)[0] if a.startswith(b"HTTP/") else a for a in answers] == [408] * 150
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
        body = {"session_id": "s1", "command": "sudo apt-get install -y jq", "cwd": str(tmp_path),
                "file_policy": "workspace-write", "approval_policy": "ask", "contained": False}
        statuses = []
        async with aiohttp.ClientSession() as http:
            for _ in range(101):
                async with http.post(f"{served.url}/v1/escalations", headers=auth, json=body) as response:
                    statuses.append(response.status)
            for _ in range(100):  # and a hundred with a wrong token: refused per client address
                async with http.get(f"{served.url}/v1/escalations/esc_x",
                                    headers={"Authorization": "Bearer fbt_wrong_token_0123"}) as response:
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
            ("api.refused", "192.0.2.7"), ("api.refused", "192.0.2.8"), ("escalation.refused", "bot_1")]
        now[0] = 61.0  # the next window: the first refusal of a kind is logged again, after the last one's summary
        refusals.refused("api.refused", why="unauthorized", who="192.0.2.7", status=401)
        refusals.flush()  # only one refusal in this window: no summary
    assert [e["event"] for e in logs[3:]] == ["refusals.summary", "api.refused"]
    assert logs[3]["not_logged"] == 49 and logs[3]["counted"] == {"api.refused unauthorized 192.0.2.7": 49}
