"""Bad input at the HTTP edge of a real ``flybot serve`` (JSON logs): a clear 4xx, and log lines that are all JSON,
without a traceback, even for what goes wrong after the answer is sent.

Raw HTTP/1.1 bytes (tests/served.py), so nothing a client library would fix or refuse hides the server's answer.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiohttp

from tests.harness import page_log_in
from tests.served import HEALTHZ, Served, exchange, serve


def _json_lines_without_tracebacks(served: Served) -> list[dict[str, object]]:
    lines = served.lines()
    parsed = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"a log line is not JSON: {line[:300]}\n" + "\n".join(lines)) from None
    text = "\n".join(lines)
    assert "Traceback" not in text and "Unhandled exception" not in text, text
    return parsed


async def test_a_body_that_cannot_be_decoded_is_one_refusal_and_no_traceback_after_the_answer(tmp_path: Path) -> None:
    async with serve(tmp_path) as served:
        for path, auth in (("/v1/escalations", f"Authorization: Bearer {served.token}\r\n"), ("/slack/events", "")):
            for body in (b"abcd", b'{"session_id": "s1", "command": "ls"}'):
                head = (
                    f"POST {path} HTTP/1.1\r\nHost: flybot\r\n{auth}Content-Type: application/json\r\n"
                    f"Content-Encoding: gzip\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
                )
                status, _headers, answer = await exchange(served, head, body=body)
                assert status == 400 and json.loads(answer)["code"] == "bad_request", (path, body, answer)
        # What aiohttp would log about the body comes after the answer: a later request on another connection
        # shows the server has gone past it.
        await asyncio.sleep(0.3)
        assert (await exchange(served, HEALTHZ))[0] == 200
        events = _json_lines_without_tracebacks(served)
        refused = [e for e in events if e.get("event") == "request.refused" and e.get("why") == "body_unreadable"]
        assert len(refused) == 1, events


async def test_a_slack_timestamp_too_long_for_a_float_is_a_401_not_a_500(tmp_path: Path) -> None:
    async with serve(tmp_path) as served:
        for timestamp in ("9" * 400, "1" * 13, "0" * 20 + "1"):
            body = b'{"type": "url_verification", "challenge": "x"}'
            head = (
                "POST /slack/events HTTP/1.1\r\nHost: flybot\r\nContent-Type: application/json\r\n"
                f"X-Slack-Request-Timestamp: {timestamp}\r\nX-Slack-Signature: v0={'0' * 64}\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            )
            status, _headers, answer = await exchange(served, head, body=body)
            assert status == 401, (timestamp[:20], status, answer)
        assert (await exchange(served, HEALTHZ))[0] == 200
        _json_lines_without_tracebacks(served)


async def test_room_messages_read_as_reports_and_ignored_are_counted_not_logged_one_line_each(tmp_path: Path) -> None:
    """Anyone in a room FlyBot is in can post lines starting ``blocked:``; each one it ignores (not the Bot's chat
    user, not a report) writes the first ``report.ignored`` of its kind per poster a minute, the rest counted in the
    ``refusals.summary``."""
    async with serve(tmp_path) as served, aiohttp.ClientSession() as http:
        await page_log_in(http, f"{served.url}/local/slack/login", served.key)
        for i in range(25):
            for text in (
                f"blocked: junk {i}",
                f"blocked: no usable sandbox backend bot=demo host=h{i} session=s mode=read-only",
            ):
                async with http.post(
                    f"{served.url}/local/slack/page/message",
                    json={"user": "U0OTHER01", "channel": "C0APPROVE", "text": text},
                ) as response:
                    assert (await response.json())["ok"]
        await served.logged('"report.ignored"')
        served.stop()  # the refusal log writes its summary as the server stops
        events = _json_lines_without_tracebacks(served)
    ignored = [e for e in events if e.get("event") == "report.ignored"]
    assert sorted(str(e["why"]) for e in ignored) == ["invalid_request", "not_allowed"], ignored
    assert all(e["who"] == "U0OTHER01" and e["channel"] == "C0APPROVE" for e in ignored), ignored
    summary = next(e for e in events if e.get("event") == "refusals.summary")
    counted = summary["counted"]
    assert isinstance(counted, dict), summary
    assert counted["report.ignored invalid_request U0OTHER01"] == 24, summary
    assert counted["report.ignored not_allowed U0OTHER01"] == 24, summary
