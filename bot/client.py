"""The session client: post an escalation, long-poll its decision, withdraw it -- with the standard library only.

One synchronous client for every caller outside the server (``flybot hook``, ``flybot exec``, ``flybot codex``,
``flybot report``, ``flybot ask``): each request is one HTTP/1.1 exchange on its own connection (``Connection:
close``), so an adapter that escalates loads neither asyncio nor aiohttp (DESIGN.md, "Adapters": the goal for an
auto-answered escalation is at most ~3x ``python -c pass``). Callers that run an event loop call it through
``asyncio.to_thread``.

The exchange is written here on sockets rather than with :mod:`http.client`: importing ``http.client`` loads
the :mod:`email` package (for its header parser) and :mod:`ssl` whatever the URL, more than the rest of an
escalation's start-up; the adapters start on every tool call. ``http://`` connections use the ``_socket`` extension
module directly, not the :mod:`socket` module, which builds enums of its constants at import (about a tenth of an
escalation's start-up). What is sent is fixed (one request, ``Connection: close``, ``Accept-Encoding: identity``);
what is read is the status line, the header fields and a body framed by ``Content-Length``, ``chunked`` or the end
of the connection, each bounded (:data:`MAX_LINE`, :data:`MAX_FIELDS`, :data:`MAX_BODY`). ``https://`` URLs load
:mod:`socket` and :mod:`ssl` when used, with the system's CAs and host name checks.

Network errors and FlyBot restarts are retried with the same ``Idempotency-Key`` (so no second card is posted)
until the caller's deadline; no attempt outlasts that deadline (each socket operation is bounded by what is left).
"""

from __future__ import annotations

import _socket
import io
import json
import os
import time

from bot.errors import plain_cause

TYPE_CHECKING = False  # typing stays unloaded: the adapters start on every tool call (bot/values.py)
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Protocol

    class Stop(Protocol):
        """What :attr:`FlyBotClient.stop` must offer (``threading.Event`` does)."""

        def is_set(self) -> bool: ...
        def wait(self, timeout: float | None = None) -> bool: ...


FINAL = frozenset({"approved", "denied", "expired", "withdrawn", "undeliverable"})


class ClientError(Exception):
    """Base class of the client's errors."""


class Unreachable(ClientError):
    """FlyBot could not be reached before the deadline (or the caller's :attr:`FlyBotClient.stop` was set)."""


class Unanswered(Unreachable):
    """The request reached FlyBot (it was sent, or FlyBot answered 5xx) but no usable answer came before the
    deadline."""


class Refused(ClientError):
    """FlyBot answered with a problem (4xx/5xx); ``code`` and ``status`` come from its problem+json body."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(f"{detail} ({code}, HTTP {status})")
        self.status = status
        self.code = code
        self.detail = detail


RETRY_AFTER_MAX_S = 60.0
"""The longest ``Retry-After`` the client honours as given (seconds); a larger one is read as this."""
#: Seconds one request may take beyond its long-poll ``wait`` (or in all, without one).
ATTEMPT_S = 15.0
#: The longest ``wait`` one long-poll GET asks the server for, seconds.
LONG_POLL_S = 30.0
#: The longest status line or header field line of an answer, and the most header fields, read before the answer
#: counts as lost (a proxy's junk is neither a hang nor a memory sink).
MAX_LINE, MAX_FIELDS = 65536, 100
#: The largest answer body read, bytes (FlyBot's answers are a few kilobytes).
MAX_BODY = 16 * 1024 * 1024


def _retry_after(raw: str | None, default: float) -> float:
    """``Retry-After`` in seconds (RFC 9110: delay-seconds; an HTTP date or junk counts as ``default``)."""
    try:
        return min(RETRY_AFTER_MAX_S, max(0.0, float(raw or "")))
    except ValueError:
        return default


def _problem(status: int, raw: bytes) -> Refused:
    """The :class:`Refused` for a problem answer (RFC 9457 body; anything unreadable counts as ``error``)."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    return Refused(status, str(data.get("code", "error")), str(data.get("detail", "")))


class _Lost(Exception):
    """An attempt that reached FlyBot (the request was sent) but got no usable answer: ``cause`` in plain words."""

    def __init__(self, cause: str) -> None:
        super().__init__(cause)
        self.cause = cause


def split_url(url: str) -> tuple[bool, str, int | None, str]:
    """``(https, host, port, path prefix)`` of FlyBot's URL: ``http://`` or ``https://``, a host name, an IPv4
    address or a bracketed IPv6 one, an optional port and path; nothing else (no user, query or fragment), so what
    the client connects to is never open to two readings. The host is in lower case, the prefix has no trailing ``/``.

    Raises:
        ValueError: anything else.
    """
    bad = ValueError(f"FlyBot's URL must be http:// or https://HOST[:PORT][/PATH], not {url!r}")
    scheme, sep, rest = url.partition("://")
    authority, slash, path = rest.partition("/")
    if not sep or scheme.lower() not in ("http", "https") or not (rest.isascii() and rest.isprintable()):
        raise bad
    if authority.startswith("["):
        host, bracket, port_text = authority[1:].partition("]")
        if not bracket or any(c not in "0123456789abcdefABCDEF:." for c in host) or port_text[:1] not in ("", ":"):
            raise bad
        port_text = port_text[1:]
    else:
        host, _, port_text = authority.partition(":")
        if any(not (c.isalnum() or c in "-._") for c in host):
            raise bad
    prefix = (slash + path).rstrip("/")
    if not host or any(c in prefix for c in " ?#") or (port_text and not port_text.isdigit()):
        raise bad
    port = int(port_text) if port_text else None
    if port is not None and not 0 < port < 65536:
        raise bad
    return scheme.lower() == "https", host.lower(), port, prefix


def random_key() -> str:
    """A fresh ``Idempotency-Key``: 128 random bits in hex (the :mod:`uuid` module costs a millisecond to import)."""
    return os.urandom(16).hex()


def _line(stream: BinaryIO) -> bytes:
    """One line of an answer's head, without its line end (``_Lost`` if too long or the connection closed)."""
    line = stream.readline(MAX_LINE + 1)
    if not line:
        raise _Lost("the connection closed before an answer")
    if len(line) > MAX_LINE or not line.endswith(b"\n"):
        raise _Lost("an unexpected answer")
    return line.rstrip(b"\r\n")


def _head(stream: BinaryIO) -> tuple[int, dict[str, str]]:
    """The status and the header fields (names in lower case; repeated ones joined by ``, ``) of one answer."""
    version, _, rest = _line(stream).partition(b" ")
    code = rest[:3]
    if not version.startswith(b"HTTP/1.") or len(code) != 3 or not code.isdigit() or rest[3:4] not in (b"", b" "):
        raise _Lost("an unexpected answer")
    fields: dict[str, str] = {}
    while line := _line(stream):
        name, colon, value = line.decode("latin-1").partition(":")
        if not colon or not name or name != name.strip() or len(fields) >= MAX_FIELDS:
            raise _Lost("an unexpected answer")
        name, value = name.lower(), value.strip(" \t")
        fields[name] = f"{fields[name]}, {value}" if name in fields else value
    return int(code), fields


def _exactly(stream: BinaryIO, size: int) -> bytes:
    data = stream.read(size)
    if len(data) < size:
        raise _Lost("the answer was cut off")
    return data


def _chunked(stream: BinaryIO) -> bytes:
    """A ``Transfer-Encoding: chunked`` body (trailer fields are read and dropped)."""
    parts: list[bytes] = []
    total = 0
    while True:
        size_text = _line(stream).partition(b";")[0].strip()
        if not size_text or len(size_text) > 16 or any(c not in b"0123456789abcdefABCDEF" for c in size_text):
            raise _Lost("an unexpected answer")
        size = int(size_text, 16)
        if size == 0:
            while _line(stream):
                pass
            return b"".join(parts)
        total += size
        if total > MAX_BODY:
            raise _Lost("an unexpected answer")
        parts.append(_exactly(stream, size))
        if _line(stream):
            raise _Lost("an unexpected answer")


def _read_answer(stream: BinaryIO, method: str) -> tuple[int, str | None, bytes]:
    """``(status, Retry-After, body)`` of the answer on ``stream`` (interim ``1xx`` answers are skipped)."""
    status, fields = _head(stream)
    while 100 <= status < 200:
        status, fields = _head(stream)
    if method == "HEAD" or status in (204, 304):
        return status, fields.get("retry-after"), b""
    coding = fields.get("transfer-encoding", "").lower()
    if coding:
        if [c.strip() for c in coding.split(",")][-1] != "chunked":
            raise _Lost("an unexpected answer")
        body = _chunked(stream)
    elif "content-length" in fields:
        length = fields["content-length"]
        if not length.isdigit() or int(length) > MAX_BODY:
            raise _Lost("an unexpected answer")
        body = _exactly(stream, int(length))
    else:  # framed by the end of the connection
        body = stream.read(MAX_BODY + 1)
        if len(body) > MAX_BODY:
            raise _Lost("an unexpected answer")
    return status, fields.get("retry-after"), body


def _open(host: bytes, port: int, timeout: float) -> _socket.socket:
    """A TCP connection to ``host`` (an address or a name, ASCII) and ``port``, as ``socket.create_connection``
    makes it: each address the resolver gives, in order, until one connects, each within ``timeout`` seconds.

    Raises:
        OSError: no address connected (the first address's error), or the name did not resolve.
    """
    errors: list[OSError] = []
    for family, kind, proto, _name, address in _socket.getaddrinfo(host, port, 0, _socket.SOCK_STREAM):
        sock = _socket.socket(family, kind, proto)
        try:
            sock.settimeout(timeout)
            sock.connect(address)
        except OSError as exc:
            sock.close()
            errors.append(exc)
            continue
        return sock
    raise errors[0] if errors else OSError(f"no address for {host.decode()}")


class _Received(io.RawIOBase):
    """What arrives on a connected socket, as a raw stream for :class:`io.BufferedReader` (what ``makefile("rb")``
    gives, without the :mod:`socket` module). Reading raises the socket's errors (``TimeoutError`` after its
    timeout); closing it leaves the socket open."""

    def __init__(self, sock: _socket.socket) -> None:
        super().__init__()
        self._sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        return self._sock.recv_into(buffer)


class FlyBotClient:
    """Talks to FlyBot's session API with a Bot token.

    Args:
        base_url: e.g. ``http://127.0.0.1:8080`` (``https://`` loads ``ssl`` when used).
        token: the Bot's API token.
        retry_pause_s: pause between retries after a network error, seconds.
        stop: when set (e.g. a ``threading.Event`` of a caller whose task was cancelled), no further attempt is
            made and the call raises :class:`Unreachable` at its next retry.

    Retries ("no client gives up on a request FlyBot accepted"): network errors, lost answers and 502/503/504 are
    retried; ``429`` and ``503`` wait for their ``Retry-After``. A POST is retried with the same
    ``Idempotency-Key``, so a retry of a request FlyBot already took returns that escalation and posts nothing.
    """

    def __init__(self, base_url: str, token: str, retry_pause_s: float = 1.0, stop: Stop | None = None) -> None:
        self.base_url = base_url
        self.token = token
        self.retry_pause_s = retry_pause_s
        self.stop = stop
        self._https, self._host, self._port, self._prefix = split_url(base_url)

    # -- one attempt ---------------------------------------------------------------------------------------------
    def _connect(self, timeout: float) -> _socket.socket:
        """A connection to FlyBot (TLS for ``https://``, checked against the system's CAs and the host name).

        Raises:
            OSError: no connection (``ssl.SSLError`` is one): nothing was sent.
        """
        default = 443 if self._https else 80
        # The host as bytes (it is ASCII, split_url checked): as text, the resolver call would load the IDNA codec
        # (with stringprep and unicodedata), which costs more than the rest of the connection.
        address = (self._host.encode("ascii"), self._port or default)
        if not self._https:
            return _open(address[0], address[1], timeout)
        import socket

        sock = socket.create_connection(address, timeout=timeout)  # type: ignore[arg-type]
        try:
            import ssl

            return ssl.create_default_context().wrap_socket(sock, server_hostname=self._host)
        except BaseException:
            sock.close()
            raise

    def _request(self, method: str, target: str, body: bytes | None, headers: dict[str, str]) -> bytes:
        """The request's bytes: request line, header fields, body.

        Raises:
            ValueError: a target or a header value with a control character or a non-ASCII one (it would split the
                request or be read differently by FlyBot and by a proxy in front of it).
        """
        if not (target.isascii() and target.isprintable()) or " " in target:
            raise ValueError(f"not a request target: {target!r}")
        host = f"[{self._host}]" if ":" in self._host else self._host
        lines = [f"{method} {target} HTTP/1.1", f"Host: {host}" + (f":{self._port}" if self._port else "")]
        fields = {**headers, "Connection": "close", "Accept-Encoding": "identity"}
        if body is not None:
            fields["Content-Length"] = str(len(body))
        for name, value in fields.items():
            if not (value.isascii() and value.isprintable()):
                raise ValueError(f"the {name} header has a control or non-ASCII character")
            lines.append(f"{name}: {value}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + (body or b"")

    def _attempt(
        self, method: str, target: str, request: bytes, connect_s: float, answer_s: float
    ) -> tuple[int, str | None, bytes]:
        """``(status, Retry-After, body)`` of one request: ``connect_s`` seconds to connect, then ``answer_s`` for
        each socket operation of sending and reading the answer.

        Raises:
            OSError: the connection could not be made (nothing was sent).
            _Lost: the request was sent but no whole answer came back.
        """
        sock = self._connect(connect_s)
        try:
            sock.settimeout(answer_s)
            sock.sendall(request)
            with io.BufferedReader(_Received(sock)) as stream:
                return _read_answer(stream, method)
        except OSError as exc:
            raise _Lost(plain_cause(exc)) from None
        finally:
            sock.close()

    def _call(
        self,
        method: str,
        path: str,
        deadline: float,
        *,
        answer_deadline: float | None = None,
        attempt_s: float = ATTEMPT_S,
        json_body: dict[str, Any] | None = None,
        wait: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """One request, retried until it gets an answer.

        ``deadline`` (monotonic seconds) bounds retries while FlyBot has not been reached at all; once an attempt
        got through to FlyBot (an HTTP answer, or a request sent whose answer was lost), retries go on until
        ``answer_deadline`` (default: ``deadline``). Connecting is bounded by the deadline in force, each socket
        operation after it by ``attempt_s`` and ``answer_deadline``: an answer on its way is not cut off when the
        time to reach FlyBot ends.

        Raises:
            Refused: a problem answer (4xx, 500), or a 429 whose ``Retry-After`` does not fit before the deadline.
            Unreachable: out of time, or :attr:`stop` set.
            ValueError: a header value (the token, the ``Idempotency-Key``) that cannot be sent; nothing was sent.
        """
        target = self._prefix + path + (f"?wait={wait}" if wait is not None else "")
        body = json.dumps(json_body).encode() if json_body is not None else None
        sent = {"Authorization": f"Bearer {self.token}", "Accept": "application/json", **(headers or {})}
        if body is not None:
            sent["Content-Type"] = "application/json"
        request = self._request(method, target, body, sent)
        last = "no attempt"
        reached = False
        refused: Refused | None = None
        while True:
            if self.stop is not None and self.stop.is_set():
                raise Unreachable(f"FlyBot at {self.base_url}: stopped before an answer")
            pause = self.retry_pause_s
            now = time.monotonic()
            connect_s = max(0.05, min(attempt_s, (answer_deadline if reached and answer_deadline else deadline) - now))
            answer_s = max(0.05, min(attempt_s, (answer_deadline or deadline) - now))
            try:
                status, retry_after, raw = self._attempt(method, target, request, connect_s, answer_s)
                reached = True
                if status in (429, 503) or status > 500:
                    pause = _retry_after(retry_after, pause) if status in (429, 503) else pause
                    last = f"HTTP {status}"
                    refused = _problem(status, raw) if status == 429 else None
                else:
                    if status >= 400:
                        raise _problem(status, raw)
                    data = json.loads(raw.decode("utf-8"))
                    if not isinstance(data, dict):
                        raise ValueError("not a JSON object")
                    return data
            except _Lost as exc:  # sent; the answer may be lost
                reached = True
                last = exc.cause
            except OSError as exc:  # the connection was not made: nothing was sent
                last = f"could not connect: {plain_cause(exc)}"
            except ValueError as exc:  # an answer that is not JSON (a proxy's page)
                last = plain_cause(exc)
            limit = answer_deadline if reached and answer_deadline is not None else deadline
            if time.monotonic() + pause >= limit:
                if refused is not None:
                    raise refused
                raise (Unanswered if reached else Unreachable)(f"FlyBot at {self.base_url} is unreachable ({last})")
            if self.stop is not None:
                self.stop.wait(pause)
            else:
                time.sleep(pause)

    # -- the session API -----------------------------------------------------------------------------------------
    def escalate(
        self,
        body: dict[str, Any],
        *,
        connect_timeout_s: float = 10.0,
        idempotency_key: str | None = None,
        timeout_s: float | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/escalations`` with ONE Idempotency-Key, retried until FlyBot answers.

        ``connect_timeout_s``: how long to keep trying while FlyBot cannot be reached at all. ``timeout_s`` (default
        the larger of ``connect_timeout_s`` and 120 s): how long to keep trying once it was reached, i.e. waiting
        out ``429 rate_limited`` / ``503`` (their ``Retry-After``) and re-asking after a lost answer, which returns
        the escalation FlyBot already took (the same key), never a second one.
        ``idempotency_key``: the caller's own (e.g. a tool call id, so a re-run never posts a second card);
        default a fresh random one.

        Raises:
            Refused: a problem answer (e.g. ``rate_limited`` still in force when ``timeout_s`` runs out).
            Unreachable: out of time.
        """
        key = idempotency_key or random_key()
        now = time.monotonic()
        budget = timeout_s if timeout_s is not None else max(connect_timeout_s, 120.0)
        return self._call(
            "POST",
            "/v1/escalations",
            now + min(connect_timeout_s, budget),
            answer_deadline=now + budget,
            json_body=body,
            headers={"Idempotency-Key": key},
        )

    def report(self, body: dict[str, Any], *, connect_timeout_s: float = 10.0) -> dict[str, Any]:
        """``POST /v1/reports`` (a blocked-host report; folding makes a retry harmless), retried on network errors
        for up to ``connect_timeout_s``. Raises :class:`Refused` / :class:`Unreachable`."""
        deadline = time.monotonic() + connect_timeout_s
        return self._call("POST", "/v1/reports", deadline, answer_deadline=deadline + ATTEMPT_S, json_body=body)

    def host_usable(self, host: str, preflight: dict[str, Any], *, connect_timeout_s: float = 10.0) -> dict[str, Any]:
        """``POST /v1/reports/usable``: this host's preflight is usable; FlyBot resolves its open report, if any.
        Returns ``{"resolved": <report> | null}``. Raises :class:`Refused` / :class:`Unreachable`."""
        deadline = time.monotonic() + connect_timeout_s
        return self._call(
            "POST",
            "/v1/reports/usable",
            deadline,
            answer_deadline=deadline + ATTEMPT_S,
            json_body={"host": host, "preflight": preflight},
        )

    def get(self, escalation_id: str, *, wait_s: float = 0, timeout_s: float = ATTEMPT_S) -> dict[str, Any]:
        """``GET /v1/escalations/{id}?wait=`` once (no retry), within ``wait_s + timeout_s`` seconds."""
        end = time.monotonic() + wait_s + timeout_s
        return self._call(
            "GET", f"/v1/escalations/{escalation_id}", end, attempt_s=wait_s + timeout_s, wait=f"{wait_s:g}"
        )

    def program_rules(self, *, timeout_s: float = ATTEMPT_S) -> dict[str, Any]:
        """``GET /v1/program-rules`` (the organisation's program rules), retried on network errors within
        ``timeout_s`` seconds. Raises :class:`Refused` / :class:`Unreachable`."""
        return self._call("GET", "/v1/program-rules", time.monotonic() + timeout_s, attempt_s=timeout_s)

    def withdraw(self, escalation_id: str, *, timeout_s: float = ATTEMPT_S) -> dict[str, Any]:
        """``POST /v1/escalations/{id}/withdraw`` once, within ``timeout_s`` seconds."""
        return self._call("POST", f"/v1/escalations/{escalation_id}/withdraw", time.monotonic() + timeout_s)

    def wait(self, escalation: dict[str, Any], *, timeout_s: float) -> dict[str, Any]:
        """Long-poll until the escalation is final or ``timeout_s`` passes; re-polls across restarts and network errors.

        Each GET asks the server to hold it at most :data:`LONG_POLL_S` seconds, and half a second less than what
        is left, so its answer arrives before the deadline.
        Returns the last escalation seen (still ``pending`` if the timeout passed first).
        Raises :class:`Unreachable` if FlyBot could not be reached at all when the timeout passed (a long-poll that
        reached FlyBot but whose answer came too late leaves the escalation ``pending``).
        """
        deadline = time.monotonic() + timeout_s
        current = escalation
        while current.get("status") not in FINAL:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            poll = max(0.0, min(LONG_POLL_S, remaining - 0.5))
            try:
                current = self._call(
                    "GET",
                    f"/v1/escalations/{current['id']}",
                    deadline,
                    attempt_s=poll + ATTEMPT_S,
                    wait=f"{poll:.1f}",
                )
            except Unanswered:  # the long-poll reached FlyBot; its answer missed the deadline: still pending
                break
        return current
