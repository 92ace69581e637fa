"""The session client: post an escalation, long-poll its decision, withdraw it -- with the standard library only.

One synchronous client for every caller outside the server (``flybot hook``, ``flybot exec``, ``flybot codex``,
``flybot report``, ``flybot ask``): each request is one ``http.client`` connection, so an adapter that escalates
loads neither asyncio nor aiohttp (DESIGN.md, "Adapters": an auto-answered escalation costs at most ~3x
``python -c pass``). Callers that run an event loop call it through ``asyncio.to_thread``.

Network errors and FlyBot restarts are retried with the same ``Idempotency-Key`` (so no second card is posted)
until the caller's deadline; no attempt outlasts that deadline (each socket operation is bounded by what is left).
"""

from __future__ import annotations

import http.client
import json
import time
import uuid
from urllib.parse import urlencode, urlsplit

from bot.errors import plain_cause

TYPE_CHECKING = False  # typing stays unloaded: the adapters start on every tool call (bot/values.py)
if TYPE_CHECKING:
    from typing import Any, Protocol

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
        parts = urlsplit(base_url.rstrip("/"))
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"FlyBot's URL must be http:// or https://HOST[:PORT], not {base_url!r}")
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path

    # -- one attempt ---------------------------------------------------------------------------------------------
    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        if self._https:
            return http.client.HTTPSConnection(self._host, self._port, timeout=timeout)
        return http.client.HTTPConnection(self._host, self._port, timeout=timeout)

    def _attempt(
        self, method: str, target: str, body: bytes | None, headers: dict[str, str], connect_s: float, answer_s: float
    ) -> tuple[int, str | None, bytes]:
        """``(status, Retry-After, body)`` of one request: ``connect_s`` seconds to connect, then ``answer_s`` for
        each socket operation of sending and reading the answer.

        Raises:
            OSError: the connection could not be made (nothing was sent).
            _Lost: the request was sent but no whole answer came back.
        """
        conn = self._connection(connect_s)
        try:
            conn.connect()
            try:
                if conn.sock is not None:
                    conn.sock.settimeout(answer_s)
                conn.request(method, target, body=body, headers=headers)
                response = conn.getresponse()
                return response.status, response.getheader("Retry-After"), response.read()
            except (OSError, http.client.HTTPException) as exc:
                raise _Lost(plain_cause(exc)) from None
        finally:
            conn.close()

    def _call(
        self,
        method: str,
        path: str,
        deadline: float,
        *,
        answer_deadline: float | None = None,
        attempt_s: float = ATTEMPT_S,
        json_body: dict[str, Any] | None = None,
        query: dict[str, str] | None = None,
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
        """
        target = self._prefix + path + (f"?{urlencode(query)}" if query else "")
        body = json.dumps(json_body).encode() if json_body is not None else None
        sent = {"Authorization": f"Bearer {self.token}", "Accept": "application/json", **(headers or {})}
        if body is not None:
            sent["Content-Type"] = "application/json"
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
                status, retry_after, raw = self._attempt(method, target, body, sent, connect_s, answer_s)
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
        default a fresh UUID.

        Raises:
            Refused: a problem answer (e.g. ``rate_limited`` still in force when ``timeout_s`` runs out).
            Unreachable: out of time.
        """
        key = idempotency_key or str(uuid.uuid4())
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
            "GET", f"/v1/escalations/{escalation_id}", end, attempt_s=wait_s + timeout_s, query={"wait": str(wait_s)}
        )

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
                    query={"wait": f"{poll:.1f}"},
                )
            except Unanswered:  # the long-poll reached FlyBot; its answer missed the deadline: still pending
                break
        return current
