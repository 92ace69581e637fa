"""Connection admission for ``flybot serve``: a descriptor budget, a per-address cap and a header deadline.

Each connection is one file descriptor. When ``accept()`` runs out of descriptors (``EMFILE``) the server cannot
answer anybody, not even ``/healthz`` (and libuv, under uvloop, accepts and closes connections to get out of it).
:class:`ConnectionGuard` accepts connections itself, from the listening socket, and:

- counts them: at :attr:`ConnectionGuard.connections` (:func:`bot.limits.connection_budget`) it accepts the next
  connection only after closing one it holds (:meth:`ConnectionGuard.evict`): the oldest that has not sent a complete
  request head (answered ``503 busy``), else the oldest idle kept-alive one (closed). A connection with a request in
  progress (a long-poll, a body being read, a handler running) is never closed for this. When there is none to
  close, new connections wait in the kernel's listen queue (:data:`LISTEN_BACKLOG`) until one closes. Either way
  descriptors never run out. A connection accepted while all but the last :attr:`~ConnectionGuard.reserve` of the budget are held may
  only ask for ``/healthz``, ``/readyz`` or ``/metrics`` (:data:`HEALTH_PATHS`); anything else is answered
  ``503 busy`` (problem+json, ``Retry-After``) and closed as soon as its request head has arrived;
- caps connections per client (:attr:`~ConnectionGuard.per_ip`, the client as :func:`client_of` names it: one
  address; all of loopback; an IPv6 /64): a client at its cap gets its next connection by closing its own oldest
  one as above; when it has none to close, the new one may only ask for :data:`HEALTH_PATHS` (as in the reserved
  part of the budget), anything else is answered ``503 busy`` and closed once its request head has arrived;
- shares loopback by route: every local process is the one client ``loopback``, so one of them holding
  :attr:`~ConnectionGuard.per_ip` requests in progress (long-polls) would leave the page and every local Bot at
  ``503``. A loopback connection is put in a share by its first request that is not a health check
  (:func:`share_of`): the page's routes, or the Bot API by the ``Authorization`` it carries (one share per token).
  A loopback connection past the cap with nothing to close is still admitted when its request's share holds fewer
  than half the cap (:meth:`ConnectionGuard.share_has_room`), so a process filling its own share leaves the
  others theirs;
- shares any other address by Bot: Bots behind one NAT or on one host share its address. A connection of any client
  is put in a share the same way; one past the cap with nothing to close is admitted when its share has room, as on
  loopback, and only when the share is a Bot's: its ``Authorization`` names a Bot the store knows
  (:attr:`~ConnectionGuard.bot_of`, asked while the connection waits, once per client at a time; the answer is
  remembered). So one Bot holding an address's whole cap of long-polls leaves another Bot from that address half the
  cap, and a client without a Bot's token (pre-authentication) stays within the per-address cap;
- drops a connection whose request line and headers are not complete within
  :attr:`~ConnectionGuard.header_timeout_s` (``408``, then closed): for the first request, from the moment the
  connection is accepted; for each later request on a kept-alive connection, from its first byte (aiohttp itself
  only bounds a request head by its keep-alive timeout). An idle kept-alive connection that sends nothing is closed
  by aiohttp after ``FLYBOT_KEEPALIVE_TIMEOUT_S``.

Refusals and evictions (``connection.evicted``) are logged through :data:`bot.refusals.REFUSALS` (first of a kind
per client a minute, the rest counted).
:func:`body_deadline` bounds the time a request body may take (``408``) and refuses a declared length above the
body cap at once (``413``).
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import json
import socket
from collections.abc import Awaitable, Callable
from typing import cast

from aiohttp import web
from aiohttp.typedefs import Middleware
from aiohttp.web_protocol import RequestPayloadError

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
MAX_HEAD_BYTES = 16_384
"""A request head held back for screening (reserved part of the budget) may be this long; longer: ``431``."""
BUSY_RETRY_AFTER_S = 2
"""``Retry-After`` of the guard's ``503 busy``."""


def _canned(status: int, reason: str, code: str, detail: str, retry_after: int | None = None) -> bytes:
    """A complete HTTP/1.1 response with a problem+json body (RFC 9457), closing the connection."""
    body = json.dumps(
        {
            "type": f"https://flybot.dev/problems/{code}",
            "title": reason,
            "status": status,
            "detail": detail,
            "code": code,
        }
    ).encode()
    head = [
        f"HTTP/1.1 {status} {reason}",
        "Content-Type: application/problem+json",
        f"Content-Length: {len(body)}",
        "Connection: close",
    ]
    if retry_after is not None:
        head.append(f"Retry-After: {retry_after}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


BUSY_PER_IP = _canned(
    503,
    "Service Unavailable",
    "busy",
    "too many connections from this client: close one, or retry later",
    BUSY_RETRY_AFTER_S,
)
BUSY_BUDGET = _canned(
    503,
    "Service Unavailable",
    "busy",
    "this FlyBot replica holds as many connections as it may: retry in a moment",
    BUSY_RETRY_AFTER_S,
)
HEADER_TIMEOUT = _canned(
    408, "Request Timeout", "request_timeout", "the request line and headers did not arrive in time"
)
EVICTED = _canned(
    503,
    "Service Unavailable",
    "busy",
    "the request head was not complete and the connection was needed for another client: retry",
    BUSY_RETRY_AFTER_S,
)
HEAD_TOO_LARGE = _canned(431, "Request Header Fields Too Large", "too_large", "the request head is too long")

MAX_BOT_SHARES = 4096
"""Bot shares the guard remembers (:attr:`ConnectionGuard.bot_shares`)."""

_PASS, _HEAD, _SCREEN, _REFUSED = 0, 1, 2, 3
"""A connection's states: passing bytes to aiohttp; the same while its first request head is incomplete (the
deadline runs); holding the head back to see its path (reserved budget); refused (answered, closing)."""

IPV6_CLIENT_PREFIX = 64
"""IPv6 clients are counted per /64: the prefix one host or site is given (RFC 6177), whose addresses it may all use."""


LOOPBACK = "loopback"
"""The client every loopback address counts as (:func:`client_of`)."""


def share_of(data: bytes) -> bytes | None:
    """The share of a connection (see the module docstring) from the bytes it sent first: ``b"page"`` for a
    request outside ``/v1/``, ``b"api "`` and the SHA-256 (16 hex digits) of its ``Authorization`` value for one in
    it (``b"api -"`` without one). Health checks (:data:`HEALTH_PATHS`) are skipped; None until a request head that
    is not one is complete (or when a request before it has a body: what follows cannot be read as a head)."""
    import hashlib

    first = _first_request(data)
    if first is None:
        return None
    path, auth = first
    if not path.startswith(b"/v1/"):
        return b"page"
    return b"api " + (hashlib.sha256(auth).hexdigest()[:16].encode() if auth else b"-")


def authorization_of(data: bytes) -> bytes | None:
    """The ``Authorization`` value of the first request in ``data`` that is not a health check (as
    :func:`share_of` reads it), or None."""
    first = _first_request(data)
    return first[1] if first is not None else None


def _first_request(data: bytes) -> tuple[bytes, bytes | None] | None:
    """``(path, Authorization value or None)`` of the first complete request head in ``data`` that is not a health
    check, or None (see :func:`share_of`)."""
    while True:
        end = data.find(b"\r\n\r\n")
        if end < 0:
            return None
        head, data = data[:end], data[end + 4 :]
        lines = head.split(b"\r\n")
        parts = lines[0].split(b" ", 2)
        path = parts[1].split(b"?", 1)[0] if len(parts) > 2 else b""
        fields = dict((k.strip().lower(), v.strip()) for k, _, v in (line.partition(b":") for line in lines[1:]))
        if path not in HEALTH_PATHS:
            return path, fields.get(b"authorization")
        if fields.get(b"content-length", b"0") not in (b"0", b"") or b"transfer-encoding" in fields:
            return None


def client_of(ip: str) -> str:
    """The client an address counts as for the per-client cap: every loopback address (``127.0.0.0/8``, ``::1``,
    ``::ffff:127.x.y.z``) is ``"loopback"`` (any local process may bind any of them); an IPv6 address is its /64
    (``"2001:db8:1:2::/64"``); an IPv4 address (also written IPv4-mapped) is itself; anything else is returned as
    given."""
    try:
        address: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(ip.split("%", 1)[0])
    except ValueError:
        return ip
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return LOOPBACK
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, IPV6_CLIENT_PREFIX), strict=False))
    return str(address)


class ConnectionGuard(asyncio.AbstractServer):
    """Accepts from a listening socket within a connection budget; hands connections to aiohttp's protocol factory.

    Args:
        connections: the most connections held at once (accepting pauses there).
        reserve: the last ``reserve`` of them serve only :data:`HEALTH_PATHS`.
        per_ip: connections one client (:func:`client_of`) may hold (0: no cap).
        header_timeout_s: seconds a connection has for a request's line and headers.
        refusals: where refusals are logged (:data:`bot.refusals.REFUSALS`).
        metrics: ``flybot_connections`` reads :attr:`open` at each scrape.
        bot_of: whether an ``Authorization`` value names a Bot (the store's answer); None: no address but loopback
            is shared by Bot (see the module docstring).
    """

    def __init__(
        self,
        *,
        connections: int,
        reserve: int,
        per_ip: int,
        header_timeout_s: float,
        refusals: RefusalLog = REFUSALS,
        metrics: Metrics | None = None,
        bot_of: Callable[[bytes], Awaitable[bool]] | None = None,
    ) -> None:
        self.connections = connections
        self.reserve = reserve
        self.per_ip = per_ip
        self.header_timeout_s = header_timeout_s
        self.refusals = refusals
        self.bot_of = bot_of
        self.bot_shares: dict[bytes, None] = {}
        """Shares (:func:`share_of`) whose ``Authorization`` :attr:`bot_of` named a Bot (at most
        :data:`MAX_BOT_SHARES`, the oldest forgotten first)."""
        self._asking: set[str] = set()
        """Clients (other than loopback) with a question to :attr:`bot_of` in flight."""
        self.open = 0
        """Connections held now (accepted and not yet closed)."""
        self.by_ip: dict[str, int] = {}
        """Connections held now per client (:func:`client_of`), but those refused by the cap or evicted (closing)."""
        self.by_share: dict[tuple[str, bytes], int] = {}
        """Of those, the ones per share (:func:`share_of`), once their share is known."""
        self._held: dict[_Connection, None] = {}
        """Connections with a transport, oldest first."""
        self._heads: dict[_Connection, None] = {}
        """Connections whose request head is awaited under the header deadline, the longest waiting first."""
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
        for accepted in range(ACCEPT_BATCH):
            if self.open >= self.connections:
                if accepted:
                    return  # called again while a connection waits (the listening socket stays readable)
                # A connection waits (the socket was readable): close one to make room, accept when it is closed
                # (_closed() resumes accepting); none to close: it waits in the listen queue until one closes.
                self._pause()
                self.evict()
                return
            try:
                conn, address = self._sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                if exc.errno in ACCEPT_ERRNOS:
                    self._pause()
                    self._retry = self._loop.call_later(ACCEPT_RETRY_S, self._retry_later)
                    self._loop.call_exception_handler(
                        {"message": "socket.accept() out of system resource", "exception": exc, "socket": self._sock}
                    )
                    return
                if exc.errno in (errno.ECONNABORTED, errno.EPROTO, errno.EPERM):
                    continue  # the client gave up before accept(): nothing to do
                raise
            self._admit(conn, str(address[0]) if isinstance(address, tuple) else "local")

    def evict(self, client: str | None = None) -> bool:
        """Close one held connection of ``client`` (None: of any client) to make room for a new one: the one waiting
        longest for its request head (answered ``503 busy``), else the oldest idle kept-alive one (closed without an
        answer, as HTTP/1.1 lets a server close an idle connection, RFC 9112 section 9.6). A connection with a
        request in progress is never chosen. False when there is none to close."""
        arrived: list[_Connection] = []  # heads complete but not read yet: not slow, kept (as the newest)
        chosen: _Connection | None = None
        for held in self._heads:
            if client is not None and (held.client != client or not held.counted):
                continue  # a client makes room among the connections counted for it
            if held.state == _PASS and not held.between_requests():
                continue
            if held.head_arrived():
                arrived.append(held)
                if len(arrived) >= ACCEPT_BATCH:
                    break
                continue
            chosen = held
            break
        for held in arrived:
            del self._heads[held]
            self._heads[held] = None
        if chosen is not None:
            chosen.evict(EVICTED, "slow_head")
            return True
        for held in self._held:
            if (client is None or held.client == client and held.counted) and held.idle():
                held.evict(None, "idle")
                return True
        return False

    def share_has_room(self, client: str, share: bytes) -> bool:
        """Whether ``client``'s connections in ``share`` (counted for its cap) are fewer than half its cap, outside the
        reserved part of the budget: then a connection past the cap is admitted for that share (see the module
        docstring; an address other than loopback: a Bot's share only)."""
        if self.open > self.connections - self.reserve:
            return False  # the reserved part of the budget stays for the health checks
        return self.by_share.get((client, share), 0) < max(1, self.per_ip // 2)

    def remember_bot(self, share: bytes) -> None:
        """Note that ``share`` is a Bot's (:attr:`bot_shares`)."""
        if len(self.bot_shares) >= MAX_BOT_SHARES:
            del self.bot_shares[next(iter(self.bot_shares))]
        self.bot_shares[share] = None

    def _admit(self, conn: socket.socket, ip: str) -> None:
        conn.setblocking(False)
        if conn.family in (socket.AF_INET, socket.AF_INET6):
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as asyncio's own transports do
        client = client_of(ip)
        held = self.by_ip.get(client, 0)
        self.open += 1
        # Past its client's cap with nothing to close: health checks only, and not counted for the client (it holds
        # a place of the budget until its head has come, and may be closed to make room like any slow head).
        capped = bool(self.per_ip) and held >= self.per_ip and not self.evict(client)
        state = _SCREEN if capped or self.open > self.connections - self.reserve else _HEAD
        assert self._factory is not None and self._loop is not None
        protocol = _Connection(self, client, state, conn)
        protocol.capped = capped
        if not capped:
            self.by_ip[client] = self.by_ip.get(client, 0) + 1  # one fewer than held if one was evicted
            protocol.counted = True
        self._held[protocol] = None  # candidates at once: its transport is made a loop iteration later
        self._heads[protocol] = None
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
                self._heads.pop(protocol, None)
                self._held.pop(protocol, None)
                self._closed(protocol)

    def _uncount(self, protocol: _Connection) -> None:
        """``protocol`` no longer counts for its client's cap (it is closed, or closing)."""
        if protocol.counted:
            protocol.counted = False
            client = protocol.client
            if protocol.share is not None:
                key = (client, protocol.share)
                if self.by_share[key] > 1:
                    self.by_share[key] -= 1
                else:
                    del self.by_share[key]
            left = self.by_ip[client] - 1
            if left:
                self.by_ip[client] = left
            else:
                del self.by_ip[client]

    def _closed(self, protocol: _Connection) -> None:
        self.open -= 1
        self._uncount(protocol)
        if not self._accepting and self._retry is None and self.open < self.connections:
            self._resume()


class _Connection(asyncio.Protocol):
    """One accepted connection: the guard's checks in front of aiohttp's protocol (``inner``), which gets every
    byte once the connection is admitted."""

    __slots__ = (
        "guard",
        "client",
        "state",
        "inner",
        "transport",
        "timer",
        "tail",
        "head",
        "made",
        "answer",
        "sock",
        "counted",
        "capped",
        "share",
        "first",
        "asking",
        "health_only",
        "refusing",
    )

    def __init__(self, guard: ConnectionGuard, client: str, state: int, sock: socket.socket) -> None:
        self.guard = guard
        self.sock = sock
        self.client = client
        self.state = state
        self.inner: asyncio.Protocol | None = None
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.tail = b""
        self.head = b""
        self.made = False
        self.counted = False
        """Whether it counts for its client's cap (:attr:`ConnectionGuard.by_ip`): all but those refused for it."""
        self.capped = False
        """Accepted past its client's cap: health checks only, answered ``BUSY_PER_IP`` else."""
        self.answer: bytes | None = None
        """What a connection evicted before its transport was made is answered when it is."""
        self.share: bytes | None = None
        """Its share (:func:`share_of`), once its first request that is not a health check came."""
        self.first: bytes | None = b""
        """What it has sent until its share is known (at most :data:`MAX_HEAD_BYTES`)."""
        self.health_only = False
        """Let in past the cap or in the reserved budget for health checks: each of its requests is screened
        (:meth:`_health_feed`)."""
        self.refusing = False
        """A health-only connection that sent another request: answered ``503`` once its earlier answers are out."""
        self.asking = False
        """Whether its share waits for :attr:`ConnectionGuard.bot_of`'s answer (reading is paused meanwhile)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.made = True
        self.transport = transport = cast(asyncio.Transport, transport)  # uvloop's is no asyncio.Transport subclass
        if self.state == _REFUSED:  # evicted before its transport was made: the descriptor is wanted now
            if self.answer is not None:
                transport.write(self.answer)
            self._drain()
            transport.close()
            return
        self._await_head()
        if self.state == _HEAD:
            self._pass_to_aiohttp()

    def _pass_to_aiohttp(self) -> None:
        assert self.guard._factory is not None and self.transport is not None
        self.inner = self.guard._factory()
        self.inner.connection_made(self.transport)

    def _await_head(self) -> None:
        """Start the header deadline; the connection may be evicted until its head is complete."""
        self.timer = self.guard.get_loop().call_later(self.guard.header_timeout_s, self._head_late)
        self.guard._heads[self] = None

    def head_arrived(self) -> bool:
        """Whether the rest of the request head waits unread in the socket's receive buffer (``MSG_PEEK``): the
        client was not slow, this process has not read it yet."""
        if self.state not in (_HEAD, _SCREEN):
            return False
        try:
            waiting = self.sock.recv(MAX_HEAD_BYTES, socket.MSG_PEEK)
        except OSError:
            return False
        seen = (self.head if self.state == _SCREEN else self.tail) + waiting
        return b"\r\n\r\n" in seen or b"\n\n" in seen

    def idle(self) -> bool:
        """Whether aiohttp waits for this kept-alive connection's next request (none in progress; a later request's
        head may have begun). The same test as aiohttp's keep-alive timeout (``RequestHandler._process_keepalive``)."""
        waiter: asyncio.Future[None] | None = getattr(self.inner, "_waiter", None)
        return self.state == _PASS and waiter is not None and not waiter.done()

    def between_requests(self) -> bool:
        """Whether aiohttp has no request of this connection parsed and unanswered (bytes of the next one may have
        arrived): its handler has returned and no complete request head waits."""
        return (
            self.state == _PASS
            and not getattr(self.inner, "_messages", True)
            and not getattr(self.inner, "_request_in_progress", True)
        )

    def data_received(self, data: bytes) -> None:
        state = self.state
        if self.health_only:
            self._health_feed(data)
            return
        if self.first is not None and state != _SCREEN:
            self._note_share(data)
        if state == _PASS:
            assert self.inner is not None
            if self.timer is None and self.between_requests():
                self._await_head()  # a later request on a kept-alive connection begins: its head has a deadline
            self.inner.data_received(data)
            if self.timer is not None and not self.between_requests():
                self._head_done()
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

    def _note_share(self, data: bytes) -> None:
        """Keep what the connection sent until its share is known (:func:`share_of`)."""
        assert self.first is not None
        self.first += data
        share = share_of(self.first)
        if share is not None and self.counted:
            self._join(share)
        if share is not None or len(self.first) > MAX_HEAD_BYTES:
            self.first = None

    def _head_done(self) -> None:
        self.state = _PASS
        self.tail = b""
        self.guard._heads.pop(self, None)
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _screen(self, data: bytes) -> None:
        """The reserved part of the budget: hold the head back; pass health checks on, answer the rest 503."""
        head = self.head = self.head + data
        if self.asking:
            return
        if b"\r\n\r\n" not in head and b"\n\n" not in head:
            if len(head) > MAX_HEAD_BYTES:
                self._refuse(HEAD_TOO_LARGE, "head_too_large")
            return
        parts = head.split(b" ", 2)
        path = parts[1].split(b"?", 1)[0] if len(parts) > 2 else b""
        if path not in HEALTH_PATHS:
            share = share_of(head) if self.capped else None
            guard = self.guard
            if share is not None and self.client != LOOPBACK and share not in guard.bot_shares:
                if (
                    guard.bot_of is not None
                    and share.startswith(b"api ")
                    and share != b"api -"
                    and self.client not in guard._asking
                    and guard.share_has_room(self.client, share)
                ):
                    self._ask(share, head)  # decided when the store answers
                    return
                share = None  # not a Bot's share (or not known yet): the per-address cap holds
            self._decide(share, head)
            return
        self.health_only = True
        self._head_done()
        self.head = b""
        self._pass_to_aiohttp()
        self._health_feed(head)

    def _health_feed(self, data: bytes) -> None:
        """A connection let in for health checks only: pass each complete request head that is one (without a body)
        on to aiohttp; at any other request, answer ``503 busy`` and close (past the cap or in the reserved budget:
        a connection never carries more than health checks)."""
        if self.refusing:
            return
        self.head += data
        while True:
            ends = [(i, n) for i, n in ((self.head.find(b"\r\n\r\n"), 4), (self.head.find(b"\n\n"), 2)) if i >= 0]
            if not ends:
                if len(self.head) > MAX_HEAD_BYTES:
                    self._refuse(HEAD_TOO_LARGE, "head_too_large")
                return
            end, size = min(ends)
            head, self.head = self.head[: end + size], self.head[end + size :]
            lines = head.replace(b"\r\n", b"\n").split(b"\n")
            parts = lines[0].split(b" ", 2)
            path = parts[1].split(b"?", 1)[0] if len(parts) > 2 else b""
            fields = {k.strip().lower(): v.strip() for k, _, v in (line.partition(b":") for line in lines[1:])}
            body = fields.get(b"content-length", b"0") not in (b"0", b"") or b"transfer-encoding" in fields
            if path not in HEALTH_PATHS or body:
                self.refusing = True  # nothing more is read from it
                if self.transport is not None:
                    self.transport.pause_reading()
                self._refuse_when_answered(self.guard.get_loop().time() + self.guard.header_timeout_s)
                return
            assert self.inner is not None
            self.inner.data_received(head)

    def _refuse_when_answered(self, until: float) -> None:
        """Answer ``503 busy`` and close once aiohttp has answered the health checks before (or at ``until``, loop
        time), so the answers keep their order."""
        if self.state == _REFUSED:
            return
        if not self.between_requests() and self.guard.get_loop().time() < until:
            self.guard.get_loop().call_later(0.01, self._refuse_when_answered, until)
            return
        if self.capped:
            self._refuse(BUSY_PER_IP, "per_ip")
        else:
            self._refuse(BUSY_BUDGET, "connections")

    def _decide(self, share: bytes | None, head: bytes) -> None:
        """A request head past the cap or in the reserved budget: served for a ``share`` with room, else refused."""
        if share is not None and self.guard.share_has_room(self.client, share):
            self._admit_share(share)  # a share with room: past the client's cap, served
        elif self.capped:
            self._refuse(BUSY_PER_IP, "per_ip")
            return
        else:
            self._refuse(BUSY_BUDGET, "connections")
            return
        self._serve(head)

    def _ask(self, share: bytes, head: bytes) -> None:
        """Ask :attr:`ConnectionGuard.bot_of` whether ``share`` is a Bot's; decide the connection on the answer (it
        stays under the header deadline meanwhile)."""
        guard = self.guard
        guard._asking.add(self.client)
        self.asking = True
        if self.transport is not None:
            self.transport.pause_reading()  # what follows the head (a body) stays in the socket meanwhile
        authorization = authorization_of(head) or b""

        async def ask() -> None:
            assert guard.bot_of is not None
            try:
                known = await guard.bot_of(authorization)
            except Exception:  # the store failed: not known (fail closed: the per-address cap holds)
                known = False
            finally:
                guard._asking.discard(self.client)
            self.asking = False
            if known:
                guard.remember_bot(share)
            if self.state == _SCREEN and self.transport is not None and not self.transport.is_closing():
                self.transport.resume_reading()
                self._decide(share if known else None, self.head)

        task = guard.get_loop().create_task(ask())
        guard._connecting.add(task)
        task.add_done_callback(guard._connecting.discard)

    def _serve(self, head: bytes) -> None:
        """Pass the held-back ``head`` on to aiohttp."""
        self._head_done()
        self.head = b""
        self._pass_to_aiohttp()
        assert self.inner is not None
        self.inner.data_received(head)

    def _admit_share(self, share: bytes) -> None:
        """Admit a connection past its client's cap for ``share`` (:meth:`ConnectionGuard.share_has_room`):
        it counts for the client from now on."""
        self.capped = False
        self.first = None
        self.counted = True
        self.guard.by_ip[self.client] = self.guard.by_ip.get(self.client, 0) + 1
        self._join(share)

    def _join(self, share: bytes) -> None:
        """Count this connection (counted for its client) in ``share``."""
        self.share = share
        key = (self.client, share)
        self.guard.by_share[key] = self.guard.by_share.get(key, 0) + 1

    def _refuse(self, answer: bytes, why: str) -> None:
        self._end(answer)
        if why == "per_ip":
            self.guard.refusals.refused("connection.refused", why=why, who=self.client, limit=self.guard.per_ip)
        else:
            self.guard.refusals.refused("connection.refused", why=why, who=self.client)

    def evict(self, answer: bytes | None, why: str) -> None:
        """Close this connection to make room for another (:meth:`ConnectionGuard.evict`), answering ``answer``.
        It stops counting for its client's cap at once; its descriptor counts until it is closed."""
        self._end(answer)
        self.guard._uncount(self)
        self.guard.refusals.refused("connection.evicted", why=why, who=self.client)

    def _end(self, answer: bytes | None) -> None:
        """Refused: stop the deadline, leave the eviction candidates, write ``answer`` and close."""
        self.state = _REFUSED
        self.guard._heads.pop(self, None)
        self.guard._held.pop(self, None)
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.answer = answer
        if self.transport is not None and answer is not None:
            self.transport.write(answer)
            self._drain()
        self._close()

    def _drain(self) -> None:
        """Read and drop what the client has sent: closing a socket with unread data resets the connection (RFC 2525
        section 2.17), and the client may then lose the answer written just before."""
        try:
            for _ in range(16):
                if not self.sock.recv(65_536):
                    return
        except OSError:  # nothing more to read (or the transport has the socket's descriptor to itself)
            return

    def _head_late(self) -> None:
        self.timer = None
        if self.state in (_HEAD, _SCREEN) or self.between_requests():
            self._end(HEADER_TIMEOUT)
            self.guard.refusals.refused(
                "connection.refused", why="header_timeout", who=self.client, timeout_s=self.guard.header_timeout_s
            )

    def _close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.guard._heads.pop(self, None)
        self.guard._held.pop(self, None)
        self.guard._closed(self)
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
    the connection is closed); handlers then read it from memory (aiohttp keeps it, at most ``client_max_size``).

    A request whose ``Content-Length`` is above ``client_max_size`` is answered ``413`` problem+json (``too_large``)
    as soon as its head is read, and its connection closed: nothing of the body is awaited, so a client declaring a
    huge length holds no connection until the body deadline. A body without a length (chunked) that grows past the
    cap is refused by aiohttp's own ``413`` while it is read."""

    @web.middleware
    async def read_body_in_time(request: web.Request, handler: Handler) -> web.StreamResponse:
        declared = request.content_length
        if declared is not None and declared > request.client_max_size:
            from bot.api.problems import problem

            REFUSALS.refused(
                "request.refused",
                why="too_large",
                who=request.remote or "unknown",
                status=413,
                content_length=declared,
                limit=request.client_max_size,
            )
            response = problem(
                413,
                "too_large",
                "Request Entity Too Large",
                f"the request body is {declared:,} bytes; FlyBot takes at most {request.client_max_size:,}",
            )
            response.force_close()
            # Answered and closed here: aiohttp would otherwise read on ("linger", up to 10 s) for the body it
            # declared before closing.
            await response.prepare(request)
            await response.write_eof()
            request.protocol.force_close()
            return response
        if request.body_exists:
            try:
                async with asyncio.timeout(timeout_s):
                    await request.read()
            except TimeoutError:
                from bot.api.problems import problem

                REFUSALS.refused(
                    "request.refused", why="body_timeout", who=request.remote or "unknown", timeout_s=timeout_s
                )
                response = problem(
                    408, "request_timeout", "Request Timeout", f"the request body did not arrive within {timeout_s:g} s"
                )
                response.force_close()
                return response
            except (RequestPayloadError, ConnectionResetError) as exc:
                from bot.api.problems import problem

                # A body that cannot be decoded (Content-Encoding: gzip over bytes that are not gzip, a broken
                # chunk) or a client gone before its body ended: the client's fault, counted like any refusal.
                gone = isinstance(exc, ConnectionResetError)
                REFUSALS.refused(
                    "request.refused", why="client_gone" if gone else "body_unreadable", who=request.remote or "unknown"
                )
                response = problem(400, "bad_request", "Bad Request", "the request body could not be read")
                response.force_close()
                if not gone:
                    # Answered and closed here, as the 413 above: aiohttp would otherwise read on after the answer
                    # for the rest of a body it cannot decode, and log that failure with a traceback.
                    await response.prepare(request)
                    await response.write_eof()
                    request.protocol.force_close()
                return response
        return await handler(request)

    return read_body_in_time
