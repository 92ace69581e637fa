"""``flybot serve`` as a child process for tests: the real server (local mode, SQLite) on a free loopback port,
talked to in raw HTTP/1.1 (the connection-level behaviour aiohttp's client would hide)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class Served:
    """A running ``flybot serve``: its URL and port, the demo Bot's token, its log (stderr), its process and the
    login key of the login URL it printed first."""

    url: str
    port: int
    token: str
    log: Path
    process: subprocess.Popen[bytes]
    key: str = ""

    def lines(self) -> list[str]:
        return [line for line in self.log.read_text().splitlines() if line.strip()]

    async def logged(self, needle: str, timeout: float = 30.0) -> None:
        """Wait until a line of the log holds ``needle``."""
        deadline = time.monotonic() + timeout
        while not any(needle in line for line in self.lines()):
            assert time.monotonic() < deadline, f"{needle!r} not logged within {timeout}s:\n" + "\n".join(self.lines())
            await asyncio.sleep(0.05)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(30)


def printed_login(line: str, state_dir: Path) -> str:
    """The login URL a ``flybot serve`` line names: the line itself when it holds the URL (a terminal), else the
    contents of the 0600 file in ``state_dir`` it points to (bot.commands.server.show_login; tests read stdout from a
    pipe, which is no terminal)."""
    from bot.commands.server import LOGIN_FILE

    if "/?key=" in line or f"/{LOGIN_FILE}" not in line:
        return line
    return (state_dir / LOGIN_FILE).read_text()


@asynccontextmanager
async def serve(
    tmp_path: Path,
    command: Sequence[str] = (sys.executable, "-m", "bot", "serve"),
    nofile: int | None = None,
    **settings: Any,
) -> AsyncIterator[Served]:
    """``flybot serve`` (``command``) on a free loopback port with ``FLYBOT_<NAME>`` settings, from its first
    ``/healthz`` answer until the end of the ``with`` block (then SIGTERM). ``nofile``: its open-file limit, soft
    and hard (as systemd's ``LimitNOFILE=``)."""

    def limit_open_files() -> None:
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLYBOT_", "SLACK_"))}
    env.update(
        {
            "FLYBOT_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'flybot.db'}",
            "FLYBOT_PORT": "0",
            "FLYBOT_STATE_DIR": str(tmp_path / ".flybot"),
            "FLYBOT_LOG_FORMAT": "json",
        }
    )
    env.update({f"FLYBOT_{k.upper()}": str(v) for k, v in settings.items()})
    log = tmp_path / "flybot.log"
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            list(command), cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=stderr, preexec_fn=limit_open_files
        )
    try:
        assert process.stdout is not None
        banner = await asyncio.to_thread(process.stdout.readline)
        found = re.search(rb"http://127\.0\.0\.1:(\d+)/", banner)
        assert found, (banner, log.read_text())
        port = int(found.group(1))
        token = json.loads((tmp_path / ".flybot" / "local.json").read_text())["token"]
        key = re.search(r"/\?key=([A-Za-z0-9_-]+)", printed_login(banner.decode(), tmp_path / ".flybot"))
        served = Served(f"http://127.0.0.1:{port}", port, token, log, process, key.group(1) if key else "")
        await up(served)
        yield served
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.stdout is not None:
            process.stdout.close()


async def up(served: Served, timeout: float = 30.0) -> None:
    """Wait until the server answers ``/healthz`` (a connection refused: not listening yet)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            assert (await exchange(served, HEALTHZ))[0] == 200
            return
        except ConnectionRefusedError:
            assert time.monotonic() < deadline, served.log.read_text()
            await asyncio.sleep(0.05)


async def connect(served: Served, source: str = "127.0.0.1") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", served.port, local_addr=(source, 0))


async def exchange(
    served: Served, head: str, source: str = "127.0.0.1", body: bytes = b"", timeout: float = 30.0
) -> tuple[int, dict[str, str], bytes]:
    """Send ``head`` (and ``body``) on a new connection and read the answer until the server closes it."""
    reader, writer = await connect(served, source)
    try:
        writer.write(head.encode() + body)
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
    return parse(raw)


def parse(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers, body


HEALTHZ = "GET /healthz HTTP/1.1\r\nHost: flybot\r\nConnection: close\r\n\r\n"


async def response(reader: asyncio.StreamReader, timeout: float = 30.0) -> tuple[int, dict[str, str], bytes]:
    """Read one answer (its ``Content-Length`` body) from a kept-alive connection."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    status, headers, _ = parse(head)
    body = await asyncio.wait_for(reader.readexactly(int(headers.get("content-length", "0"))), timeout)
    return status, headers, body


async def create_escalation(served: Served, cwd: Path) -> str:
    """A pending escalation of the demo Bot (on a connection of its own, closed after the answer): its id."""
    body = json.dumps(
        {
            "session_id": "s1",
            "command": "sudo apt-get install -y jq",
            "cwd": str(cwd),
            "file_policy": "workspace-write",
            "approval_policy": "ask",
            "contained": False,
        }
    ).encode()
    head = (
        f"POST /v1/escalations HTTP/1.1\r\nHost: flybot\r\nAuthorization: Bearer {served.token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    status, _headers, answer = await exchange(served, head, body=body)
    assert status == 201, answer
    return str(json.loads(answer)["id"])


async def hold_long_poll(
    served: Served,
    escalation: str,
    wait: float,
    source: str = "127.0.0.1",
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection holding a long-poll on ``escalation``: ``/healthz`` and the long-poll pipelined in one write;
    the ``/healthz`` answer is read, so the server has parsed the long-poll too and its handler is running."""
    reader, writer = await connect(served, source)
    writer.write(
        (
            HEALTHZ.replace("Connection: close", "Connection: keep-alive")
            + f"GET /v1/escalations/{escalation}?wait={wait:g} HTTP/1.1\r\nHost: flybot\r\n"
            f"Authorization: Bearer {served.token}\r\nConnection: close\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    assert (await response(reader))[0] == 200
    return reader, writer
