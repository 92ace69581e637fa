"""Connection admission for ``flybot serve``: a descriptor budget, a per-address cap and a header deadline.

Each connection is one file descriptor. When ``accept()`` runs out of descriptors (``EMFILE``) the server cannot
answer anybody, not even ``/healthz`` (and libuv, under uvloop, accepts and closes connections to get out of it).
:class:`ConnectionGuard` accepts connections itself, from the listening socket, and:

- counts them: at :attr:`ConnectionGuard.connections` (:func:`bot.limits.connection_budget`) it stops accepting;
  new connections wait in the kernel's listen queue (:data:`LISTEN_BACKLOG`) until one closes, so descriptors never
  run out. A connection accepted while all but the last :attr:`~ConnectionGuard.reserve` of the budget are held may
  only ask for ``/healthz``, ``/readyz`` or ``/metrics`` (:data:`HEALTH_PATHS`); anything else is answered
  ``503 busy`` (problem+json, ``Retry-After``) and closed as soon as its request head has arrived;
- caps connections per client address (:attr:`~ConnectionGuard.per_ip`): the next one is answered ``503 busy`` at
  once and closed at its first bytes (or after :data:`REFUSE_LINGER_S`);
- drops a connection whose first request line and headers are not complete within
  :attr:`~ConnectionGuard.header_timeout_s` (``408``, then closed): aiohttp itself only bounds that by its
  keep-alive timeout. Later requests on a kept-alive connection are bounded by that timeout
  (``FLYBOT_KEEPALIVE_TIMEOUT_S``: aiohttp closes a connection whose next request is incomplete then).

Refusals are logged through :data:`bot.refusals.REFUSALS` (first of a kind per address a minute, the rest counted).
:func:`body_deadline` bounds the time a request body may take (``408``).
"""

from __future__ import annotations

import asyncio
import errno
import json
import socket
from collections.abc import Awaitable, Callable
from typing import cast

from aiohttp import web
from aiohttp.typedefs import Middleware

from bot.limits import ACCEPT_ERRNOS
from bot.metrics import Metrics
from bot.refusals import REFUSALS, RefusalLog

HEALTH_PATHS = frozenset({b"/healthz", b"/readyz", b"/metrics"})
"""Paths still served from the reserved part of the connection budget."""
LISTEN_BACKLOG = 4096
"""The listen queue asked for (Linux caps it at ``net.core.somaxconn``, 4096 by default): connections wait there
while the guard does not accept."""
ACCEPT_BATCH = 64
"""Connections accepted per readiness of the listening socket before other work runs."""
ACCEPT_RETRY_S = 0.1
"""After ``accept()`` failed for want of descriptors or memory, accepting resumes this many seconds later."""
REFUSE_LINGER_S = 1.0
"""A connection answered ``503`` at once (per-address cap) is closed at its first bytes, or after this many
seconds: closing with its request unread would reset the connection before the client read the answer."""
MAX_HEAD_BYTES = 16_384
"""A request head held back for screening (reserved part of the budget) may be this long; longer: ``431``."""
BUSY_RETRY_AFTER_S = 2
"""``Retry-After`` of the guard's ``503 busy``."""


def _canned(status: int, reason: str, code: str, detail: str, retry_after: int | None = None) -> bytes:
    """A complete HTTP/1.1 response with a problem+json body (RFC 9457), closing the connection."""
    body = json.dumps({"type": f"https://flybot.dev/problems/{code}", "title": reason, "status": status,
                       "detail": detail, "code": code}).encode()
    head = [f"HTTP/1.1 {status} {reason}", "Content-Type: application/problem+json",
            f"Content-Length: {len(body)}", "Connection: close"]
    if retry_after is not None:
        head.append(f"Retry-After: {retry_after}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


BUSY_PER_IP = _canned(503, "Service Unavailable", "busy", "too many connections from this address: close one, "
                      "or retry later", BUSY_RETRY_AFTER_S)
BUSY_BUDGET = _canned(503, "Service Unavailable", "busy", "this FlyBot replica holds as many connections as it "
                      "may: retry in a moment", BUSY_RETRY_AFTER_S)
HEADER_TIMEOUT = _canned(408, "Request Timeout", "request_timeout",
                         "the request line and headers did not arrive in time")
HEAD_TOO_LARGE = _canned(431, "Request Header Fields Too Large", "too_large", "the request head is too long")

_PASS, _HEAD, _SCREEN, _REFUSED = 0, 1, 2, 3
"""A connection's states: passing bytes to aiohttp; the same while its first request head is incomplete (the
deadline runs); holding the head back to see its path (reserved budget); refused (answered, closing)."""


class ConnectionGuard(asyncio.AbstractServer):
    """Accepts from a listening socket within a connection budget; hands connections to aiohttp's protocol factory.

    Args:
        connections: the most connections held at once (accepting pauses there).
        reserve: the last ``reserve`` of them serve only :data:`HEALTH_PATHS`.
        per_ip: connections one client address may hold (0: no cap).
        header_timeout_s: seconds a connection has for its first request's line and headers.
        refusals: where refusals are logged (:data:`bot.refusals.REFUSALS`).
        metrics: ``flybot_connections`` reads :attr:`open` at each scrape.
    """

    def __init__(self, *, connections: int, reserve: int, per_ip: int, header_timeout_s: float,
                 refusals: RefusalLog = REFUSALS, metrics: Metrics | None = None) -> None:
        self.connections = connections
        self.reserve = reserve
        self.per_ip = per_ip
        self.header_timeout_s = header_timeout_s
        self.refusals = refusals
        self.open = 0
        """Connections held now (accepted and not yet closed)."""
        self.by_ip: dict[str, int] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sock: socket.socket | None = None
        self._factory: Callable[[], asyncio.Protocol] | None = None
        self._accepting = False
        self._serving = False
        self._retry: asyncio.TimerHandle | None = None
        self._connecting: set[asyncio.Task[None]] = set()
        if metrics is not None:
            metrics.connections.set_function(lambda: self.open)

    # -- the listening socket ------------------------------------------------------------------------
    def serve(self, sock: socket.socket, factory: Callable[[], asyncio.Protocol]) -> None:
        """Listen on ``sock`` (bound) and accept into ``factory``'s protocols (aiohttp's ``web.Server``)."""
        self._loop = asyncio.get_running_loop()
        self._sock, self._factory = sock, factory
        sock.setblocking(False)
        sock.listen(LISTEN_BACKLOG)
        self._serving = True
        self._resume()

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return (self._sock,) if self._sock is not None and self._serving else ()

    def close(self) -> None:
        """Stop accepting and close the listening socket (held connections stay: aiohttp's shutdown ends them)."""
        self._serving = False
        self._pause()
        if self._retry is not None:
            self._retry.cancel()
        if self._sock is not None:
            self._sock.close()

    def is_serving(self) -> bool:
        return self._serving

    def get_loop(self) -> asyncio.AbstractEventLoop:
        assert self._loop is not None
        return self._loop

    async def wait_closed(self) -> None:
        return None

    async def start_serving(self) -> None:
        return None

    async def serve_forever(self) -> None:
        raise NotImplementedError("ConnectionGuard serves from serve(); aiohttp's runner owns its lifetime")

    def _resume(self) -> None:
        if self._serving and not self._accepting and self._sock is not None and self._loop is not None:
            self._loop.add_reader(self._sock.fileno(), self._accept)
            self._accepting = True

    def _pause(self) -> None:
        if self._accepting and self._sock is not None and self._loop is not None:
            self._loop.remove_reader(self._sock.fileno())
            self._accepting = False

    def _retry_later(self) -> None:
        self._retry = None
        self._resume()

    def _accept(self) -> None:
        assert self._sock is not None and self._loop is not None
        for _ in range(ACCEPT_BATCH):
            if self.open >= self.connections:
                self._pause()  # resumed by _closed(): the next connection waits in the listen queue meanwhile
                return
            try:
                conn, address = self._sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                if exc.errno in ACCEPT_ERRNOS:
                    self._pause()
                    self._retry = self._loop.call_later(ACCEPT_RETRY_S, self._retry_later)
                    self._loop.call_exception_handler({"message": "socket.accept() out of system resource",
                                                       "exception": exc, "socket": self._sock})
                    return
                if exc.errno in (errno.ECONNABORTED, errno.EPROTO, errno.EPERM):
                    continue  # the client gave up before accept(): nothing to do
                raise
            self._admit(conn, str(address[0]) if isinstance(address, tuple) else "local")

    def _admit(self, conn: socket.socket, ip: str) -> None:
        conn.setblocking(False)
        if conn.family in (socket.AF_INET, socket.AF_INET6):
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as asyncio's own transports do
        self.open += 1
        held = self.by_ip.get(ip, 0) + 1
        self.by_ip[ip] = held
        if self.per_ip and held > self.per_ip:
            state = _REFUSED
            self.refusals.refused("connection.refused", why="per_ip", who=ip, limit=self.per_ip)
        elif self.open > self.connections - self.reserve:
            state = _SCREEN
        else:
            state = _HEAD
        assert self._factory is not None and self._loop is not None
        protocol = _Connection(self, ip, state)
        task = self._loop.create_task(self._connect(conn, protocol))
        self._connecting.add(task)  # a reference until it is done (the loop keeps only a weak one)
        task.add_done_callback(self._connecting.discard)

    async def _connect(self, conn: socket.socket, protocol: _Connection) -> None:
        assert self._loop is not None
        try:
            await self._loop.connect_accepted_socket(lambda: protocol, conn)
        except OSError:
            if not protocol.made:  # no transport: count it closed here (connection_lost will not run)
                conn.close()
                self._closed(protocol.ip)

    def _closed(self, ip: str) -> None:
        self.open -= 1
        left = self.by_ip[ip] - 1
        if left:
            self.by_ip[ip] = left
        else:
            del self.by_ip[ip]
        if not self._accepting and self._retry is None and self.open < self.connections:
            self._resume()


class _Connection(asyncio.Protocol):
    """One accepted connection: the guard's checks in front of aiohttp's protocol (``inner``), which gets every
    byte once the connection is admitted."""

    __slots__ = ("guard", "ip", "state", "inner", "transport", "timer", "tail", "head", "made")

    def __init__(self, guard: ConnectionGuard, ip: str, state: int) -> None:
        self.guard = guard
        self.ip = ip
        self.state = state
        self.inner: asyncio.Protocol | None = None
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.tail = b""
        self.head = b""
        self.made = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.made = True
        self.transport = transport = cast(asyncio.Transport, transport)  # uvloop's is no asyncio.Transport subclass
        loop = self.guard.get_loop()
        if self.state == _REFUSED:
            transport.write(BUSY_PER_IP)
            self.timer = loop.call_later(REFUSE_LINGER_S, transport.close)
            return
        self.timer = loop.call_later(self.guard.header_timeout_s, self._head_late)
        if self.state == _HEAD:
            self._pass_to_aiohttp()

    def _pass_to_aiohttp(self) -> None:
        assert self.guard._factory is not None and self.transport is not None
        self.inner = self.guard._factory()
        self.inner.connection_made(self.transport)

    def data_received(self, data: bytes) -> None:
        state = self.state
        if state == _PASS:
            assert self.inner is not None
            self.inner.data_received(data)
        elif state == _HEAD:
            assert self.inner is not None
            seen = self.tail + data
            if b"\r\n\r\n" in seen or b"\n\n" in seen:
                self._head_done()
            else:
                self.tail = seen[-3:]
            self.inner.data_received(data)
        elif state == _SCREEN:
            self._screen(data)
        else:
            self._close()  # refused: the client's request arrived after the answer; nothing unread remains

    def _head_done(self) -> None:
        self.state = _PASS
        self.tail = b""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _screen(self, data: bytes) -> None:
        """The reserved part of the budget: hold the head back; pass health checks on, answer the rest 503."""
        head = self.head = self.head + data
        if b"\r\n\r\n" not in head and b"\n\n" not in head:
            if len(head) > MAX_HEAD_BYTES:
                self._refuse(HEAD_TOO_LARGE, "head_too_large")
            return
        parts = head.split(b" ", 2)
        path = parts[1].split(b"?", 1)[0] if len(parts) > 2 else b""
        if path not in HEALTH_PATHS:
            self._refuse(BUSY_BUDGET, "connections")
            return
        self._head_done()
        self.head = b""
        self._pass_to_aiohttp()
        assert self.inner is not None
        self.inner.data_received(head)

    def _refuse(self, answer: bytes, why: str) -> None:
        self.state = _REFUSED
        self.guard.refusals.refused("connection.refused", why=why, who=self.ip)
        if self.transport is not None:
            self.transport.write(answer)
        self._close()

    def _head_late(self) -> None:
        self.timer = None
        if self.state in (_HEAD, _SCREEN) and self.transport is not None:
            self.guard.refusals.refused("connection.refused", why="header_timeout", who=self.ip,
                                        timeout_s=self.guard.header_timeout_s)
            self.state = _REFUSED
            self.transport.write(HEADER_TIMEOUT)
            self._close()

    def _close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.guard._closed(self.ip)
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


class GuardedSite(web.BaseSite):
    """aiohttp's site for ``flybot serve``: the runner's server behind a :class:`ConnectionGuard` on ``sock``."""

    __slots__ = ("_sock", "_guard", "_name")

    def __init__(self, runner: web.BaseRunner, sock: socket.socket, guard: ConnectionGuard) -> None:
        super().__init__(runner)
        self._sock = sock
        self._guard = guard
        host, port = sock.getsockname()[:2]
        self._name = f"http://{'[' + host + ']' if ':' in host else host}:{port}"

    @property
    def name(self) -> str:
        return self._name

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        self._guard.serve(self._sock, server)
        self._server = self._guard


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def body_deadline(timeout_s: float) -> Middleware:
    """A middleware: a request's body must be read within ``timeout_s`` seconds (else ``408`` problem+json, and
    the connection is closed); handlers then read it from memory (aiohttp keeps it, at most ``client_max_size``)."""

    @web.middleware
    async def read_body_in_time(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.body_exists:
            try:
                async with asyncio.timeout(timeout_s):
                    await request.read()
            except TimeoutError:
                from bot.api.problems import problem

                REFUSALS.refused("request.refused", why="body_timeout", who=request.remote or "unknown",
                                 timeout_s=timeout_s)
                response = problem(408, "request_timeout", "Request Timeout",
                                   f"the request body did not arrive within {timeout_s:g} s")
                response.force_close()
                return response
        return await handler(request)

    return read_body_in_time
