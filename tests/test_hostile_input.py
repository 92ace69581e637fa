"""Malformed or hostile input at the HTTP edge gets a 4xx problem, never a 500, and
single-line fields cannot carry line breaks (or other control characters) onto a card.

Real server, real SQLite (and PostgreSQL where the behaviour is PostgreSQL's own), raw HTTP bytes where a client
library would refuse to send them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from bot.api.openapi import build_openapi
from bot.bots import hash_token, register_bot
from bot.errors import FlyBotError
from bot.standing import StandingService, StandingSpec
from tests.harness import ADMIN, Harness
from tests.pg import throwaway_database


async def raw(url: str, head: bytes, body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """Send one HTTP/1.1 request with exactly these header bytes; ``(status, headers, body)``."""
    parts = urlsplit(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    try:
        writer.write(
            head
            + b"\r\nHost: x\r\nConnection: close\r\nContent-Length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
            + body
        )
        await writer.drain()
        data = await reader.read()
    finally:
        writer.close()
    header_blob, _, payload = data.partition(b"\r\n\r\n")
    lines = header_blob.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, payload


def _problem(payload: bytes) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(payload)
    assert {"type", "title", "status", "detail", "code"} <= data.keys(), data
    return data


async def test_a_json_body_with_a_bogus_charset_is_a_415_problem(harness: Harness) -> None:
    token = await harness.add_bot()
    body = json.dumps(harness.body()).encode()
    for charset in ("bogus", "latin-1", "utf-16"):
        status, headers, payload = await raw(
            harness.url,
            b"POST /v1/escalations HTTP/1.1\r\nAuthorization: Bearer "
            + token.encode()
            + b"\r\nContent-Type: application/json; charset="
            + charset.encode(),
            body,
        )
        assert status == 415, (charset, payload)
        assert headers["content-type"].startswith("application/problem+json")
        assert _problem(payload)["code"] == "unsupported_media_type"
    for charset in ("utf-8", "UTF-8", "utf8"):
        status, _, payload = await raw(
            harness.url,
            b"POST /v1/escalations HTTP/1.1\r\nAuthorization: Bearer "
            + token.encode()
            + b"\r\nContent-Type: application/json; charset="
            + charset.encode(),
            body,
        )
        assert status == 201, (charset, payload)
    assert len(await harness.runtime.store.pending_escalations()) == 3


async def test_non_utf8_or_control_bytes_in_authorization_are_a_401_problem(harness: Harness) -> None:
    await harness.add_bot()
    for path, method in (
        ("/v1/escalations", b"POST"),
        ("/v1/escalations/esc_1", b"GET"),
        ("/v1/reports", b"POST"),
        ("/v1/standing-approvals", b"GET"),
    ):
        for token in (b"\xff\xfe", b"fbt_\xc3\x28", b"fbt_\xe2\x80\xae"):
            status, _, payload = await raw(
                harness.url,
                method
                + b" "
                + path.encode()
                + b" HTTP/1.1\r\nAuthorization: Bearer "
                + token
                + b"\r\nContent-Type: application/json",
                b"{}",
            )
            assert status == 401, (path, token, payload)
            assert _problem(payload)["code"] == "unauthorized"


async def test_a_non_ascii_or_control_idempotency_key_is_a_422_naming_the_header(harness: Harness) -> None:
    token = await harness.add_bot()
    body = json.dumps(harness.body()).encode()
    for key in (b"\xff\xfe", b"k\xc3\xa9", b"k\xe2\x80\xaey", b"a" * 201):  # (aiohttp refuses C0 bytes itself)
        status, _, payload = await raw(
            harness.url,
            b"POST /v1/escalations HTTP/1.1\r\nAuthorization: Bearer "
            + token.encode()
            + b"\r\nContent-Type: application/json\r\nIdempotency-Key: "
            + key,
            body,
        )
        assert status == 422, (key, payload)
        problem = _problem(payload)
        assert problem["errors"][0]["field"] == "Idempotency-Key"
    assert await harness.runtime.store.pending_escalations() == []
    status, _ = await harness.post(token, harness.body(), {"Idempotency-Key": "retry-1 (same call)"})
    assert status == 201


@pytest.mark.parametrize("field", ["session_id", "cwd"])
@pytest.mark.parametrize("char", ["\n", "\r", "\t", "\x1b", "\x07", "\x85", "\u2028", "\u2029", "\x7f"])
async def test_single_line_escalation_fields_refuse_control_characters_naming_the_field(
    harness: Harness, field: str, char: str
) -> None:
    token = await harness.add_bot()
    forged = f"s-1{char}Room: #general{char}Working directory: /home/olivia"
    status, problem = await harness.post(token, harness.body(**{field: forged}))
    assert status == 422, problem
    assert problem["errors"][0]["field"] == field and f"U+{ord(char):04X}" in problem["detail"]
    assert "Value error" not in problem["detail"], "pydantic's internal prefix is not shown to the caller"
    assert await harness.runtime.store.pending_escalations() == []


async def test_single_line_report_fields_refuse_control_characters(harness: Harness) -> None:
    token = await harness.add_bot()
    for field in ("host", "session_id"):
        async with harness.http.post(
            f"{harness.url}/v1/reports",
            headers={"Authorization": f"Bearer {token}"},
            json={"line": "blocked: no usable sandbox backend", field: "h\x1b[2Jx"},
        ) as r:
            assert r.status == 422
            assert (await r.json())["errors"][0]["field"] == field


async def test_a_room_or_bot_name_with_a_trailing_newline_is_refused(harness: Harness) -> None:
    store = harness.runtime.store
    for name, owners, room, field in (
        ("demo\n", ["U0OWNER01"], None, "name"),
        ("demo", ["U0OWNER01\n"], None, "owners"),
        ("demo", ["U0OWNER01"], "C0APPROVE\n", "room"),
    ):
        with pytest.raises(FlyBotError) as info:
            await register_bot(store, name, owners, room)
        assert info.value.status == 422 and info.value.field == field
    standing: StandingService = harness.runtime.standing
    with pytest.raises(FlyBotError):
        await standing.create(
            ADMIN,
            StandingSpec(
                scope="room",
                subject="C0APPROVE\n",
                pattern="ls",
                max_risk=None,
                contained_only=True,
                expires=None,
                note=None,
            ),
            operator=True,
        )
    assert await store.list_standing() == []


async def test_a_whole_number_timeout_written_as_a_float_is_accepted_as_the_schema_says(harness: Harness) -> None:
    token = await harness.add_bot()
    status, esc = await harness.post(token, harness.body(timeout_s=300.0))
    assert status == 201, esc
    for bad in (300.5, "300", True):
        status, problem = await harness.post(token, harness.body(timeout_s=bad))
        assert status == 422 and problem["errors"][0]["field"] == "timeout_s", bad
    schema = build_openapi()["components"]["schemas"]["EscalationIn"]["properties"]["timeout_s"]
    assert {"type": "integer", "minimum": 5, "maximum": 86400}.items() <= schema["anyOf"][0].items()


async def test_a_405_says_which_methods_are_allowed(harness: Harness) -> None:
    for method, path in (("DELETE", "/v1/escalations"), ("PUT", "/v1/reports"), ("PATCH", "/v1/escalations/esc_1")):
        async with harness.http.request(method, f"{harness.url}{path}") as response:
            assert response.status == 405
            assert response.headers["Content-Type"].startswith("application/problem+json")
            assert response.headers["Allow"], path
            assert method not in response.headers["Allow"]


async def test_the_openapi_idempotency_key_matches_the_server() -> None:
    post = build_openapi()["paths"]["/v1/escalations"]["post"]
    header = next(p for p in post["parameters"] if p["name"] == "Idempotency-Key")
    assert header["schema"]["minLength"] == 1 and header["schema"]["maxLength"] == 200
    assert "415" in post["responses"]


@pytest.fixture(params=["sqlite", "postgresql"])
async def any_store_harness(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    """A harness on SQLite, then on a fresh PostgreSQL database (migrated as ``flybot db upgrade`` would)."""
    if request.param == "sqlite":
        h = Harness(tmp=tmp_path)
        await h.start()
        try:
            yield h
        finally:
            await h.close()
        return
    from sqlalchemy.ext.asyncio import create_async_engine

    from bot.store.migrate import upgrade

    async with throwaway_database() as url:
        engine = create_async_engine(url)
        try:
            await upgrade(engine)
        finally:
            await engine.dispose()
        h = Harness(tmp=tmp_path, settings_overrides={"database_url": url})
        await h.start()
        try:
            yield h
        finally:
            await h.close()


async def test_a_nul_or_control_character_in_a_path_id_is_a_404_problem(any_store_harness: Harness) -> None:
    h = any_store_harness
    token = await h.add_bot()
    admin = "fbt_admin-" + "x" * 20
    await h.runtime.store.add_admin_token("adm_t", hash_token(admin), ADMIN, datetime.now(UTC))
    for method, path, bearer in (
        ("GET", "/v1/escalations/esc%00x", token),
        ("POST", "/v1/escalations/esc%00x/withdraw", token),
        ("GET", "/v1/reports/rep%00x", token),
        ("GET", "/v1/escalations/esc%0Ax", token),
        ("GET", "/v1/reports/%E2%80%AErep", token),
        ("DELETE", "/v1/standing-approvals/sa%00x", admin),
    ):
        async with h.http.request(method, f"{h.url}{path}", headers={"Authorization": f"Bearer {bearer}"}) as r:
            assert r.status == 404, (path, await r.text())
            assert (await r.json())["code"] == "not_found"
    async with h.http.get(
        f"{h.url}/v1/standing-approvals", params={"subject": "C0\x00X"}, headers={"Authorization": f"Bearer {admin}"}
    ) as r:
        assert r.status == 422 and (await r.json())["errors"][0]["field"] == "subject"


async def test_slack_and_emulation_routes_answer_a_bogus_charset_or_bad_bytes_without_a_500(harness: Harness) -> None:
    for url, content_type in (
        (f"{harness.url}/slack/events", "application/x-www-form-urlencoded; charset=bogus"),
        (f"{harness.url}/slack/events", "application/json; charset=bogus"),
        (f"{harness.emu_url}/api/chat.postMessage", "application/json; charset=bogus"),
        (f"{harness.emu_url}/api/chat.postMessage", "application/x-www-form-urlencoded; charset=bogus"),
        (f"{harness.emu_url}/page/message", "application/json; charset=bogus"),
    ):
        for body in (b'{"a": 1}', b"\xff\xfe\x00"):
            headers = {"Content-Type": content_type, **harness.emulator.sign(body.decode("latin-1"))}
            async with harness.http.post(url, data=body, headers=headers) as response:
                assert response.status < 500, (url, content_type, body, response.status)
