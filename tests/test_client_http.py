"""The session client's HTTP/1.1 exchange (bot/client.py) against raw answers on a real loopback socket: every
framing a server or a proxy in front of FlyBot may use is read, a broken or endless answer is a lost answer
(retried, then "unanswered"), and what the client sends is one well-formed request that no header value can split.
No patching: a real TCP server answers bytes as written here."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from bot.client import MAX_LINE, FlyBotClient, Unanswered, split_url


@asynccontextmanager
async def raw_server(answer: bytes, requests: list[bytes]) -> AsyncIterator[str]:
    """A loopback server that reads one request (head and ``Content-Length`` body), records it, writes ``answer``
    and closes the connection."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            (int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")),
            0,
        )
        requests.append(head + await reader.readexactly(length))
        writer.write(answer)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    finally:
        server.close()
        await server.wait_closed()


ESCALATION = b'{"id": "esc_1", "status": "approved"}'


@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
        % (len(ESCALATION), ESCALATION),
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\n"
        + ESCALATION[:5]
        + b"\r\n%x\r\n" % (len(ESCALATION) - 5)
        + ESCALATION[5:]
        + b"\r\n0\r\nTrailer: x\r\n\r\n",
        b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n" + ESCALATION,  # framed by the close
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: %d\r\n\r\n%s" % (len(ESCALATION), ESCALATION),
    ],
    ids=["content-length", "chunked", "until-close", "interim-100"],
)
async def test_every_framing_of_an_answer_is_read(answer: bytes) -> None:
    requests: list[bytes] = []
    async with raw_server(answer, requests) as url:
        client = FlyBotClient(url + "/prefix/", "fbt_x", retry_pause_s=0.05)
        got = await asyncio.to_thread(client.get, "esc_1", wait_s=2.5, timeout_s=2)
    assert got == {"id": "esc_1", "status": "approved"}
    head = requests[0].decode()
    assert head.startswith("GET /prefix/v1/escalations/esc_1?wait=2.5 HTTP/1.1\r\n"), head
    for line in ("Authorization: Bearer fbt_x", "Connection: close", "Accept-Encoding: identity", "Host: 127.0.0.1:"):
        assert f"\r\n{line}" in head, head


async def test_a_post_sends_its_body_with_its_length_and_key() -> None:
    requests: list[bytes] = []
    answer = b"HTTP/1.1 201 Created\r\nContent-Length: %d\r\n\r\n%s" % (len(ESCALATION), ESCALATION)
    async with raw_server(answer, requests) as url:
        client = FlyBotClient(url, "fbt_x")
        await asyncio.to_thread(client.escalate, {"command": "ls"}, idempotency_key="k-1")
    head, _, body = requests[0].partition(b"\r\n\r\n")
    assert body == b'{"command": "ls"}' and b"\r\nContent-Length: 17\r\n" in head + b"\r\n"
    assert b"\r\nIdempotency-Key: k-1" in head and b"\r\nContent-Type: application/json" in head


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{}", "cut off"),
        (b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * (MAX_LINE + 10) + b"\r\n\r\n", "unexpected answer"),
        (b"SSH-2.0-OpenSSH_9.6\r\n\r\n", "unexpected answer"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "unexpected answer"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n{}", "unexpected answer"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n{}", "unexpected answer"),
        (b"", "closed before an answer"),
    ],
    ids=["short-body", "long-line", "not-http", "bad-chunk", "unknown-coding", "bad-length", "nothing"],
)
async def test_a_broken_answer_is_a_lost_answer_told_in_plain_words(answer: bytes, words: str) -> None:
    requests: list[bytes] = []
    async with raw_server(answer, requests) as url:
        client = FlyBotClient(url, "fbt_x", retry_pause_s=0.1)
        with pytest.raises(Unanswered) as lost:
            await asyncio.to_thread(client.get, "esc_1", timeout_s=0.5)
    assert words in str(lost.value) and "Error" not in str(lost.value), lost.value
    assert len(requests) >= 1  # it reached the server, so it counts as unanswered, not unreachable


@pytest.mark.parametrize("value", ["k\r\nX-Injected: 1", "k\n", "k\x00", "clé"])
async def test_a_header_value_that_would_split_the_request_is_refused_before_sending(value: str) -> None:
    requests: list[bytes] = []
    async with raw_server(b"HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}", requests) as url:
        client = FlyBotClient(url, "fbt_x")
        with pytest.raises(ValueError, match="Idempotency-Key"):
            await asyncio.to_thread(client.escalate, {"command": "ls"}, idempotency_key=value)
    assert requests == []


@pytest.mark.parametrize(
    "url",
    [
        "http://user@127.0.0.1:8080",
        "http://127.0.0.1:8080?x=1",
        "http://127.0.0.1:8080#f",
        "ftp://127.0.0.1",
        "http://127.0.0.1:99999",
        "http://127.0.0.1:8a",
        "http://",
        "http://exa mple.com",
        "http://bücher.example",
        "http://[::1",
        "127.0.0.1:8080",
    ],
)
def test_only_a_plain_flybot_url_is_taken(url: str) -> None:
    with pytest.raises(ValueError, match="FlyBot's URL must be"):
        FlyBotClient(url, "fbt_x")


def test_a_plain_url_splits_into_its_parts() -> None:
    assert split_url("http://127.0.0.1:8080") == (False, "127.0.0.1", 8080, "")
    assert split_url("HTTPS://FlyBot.Example.com/api/") == (True, "flybot.example.com", None, "/api")
    assert split_url("http://[::1]:9/") == (False, "::1", 9, "")
