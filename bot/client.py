"""The session client: post an escalation and wait for its decision (async Python API behind ``flybot ask``).

Network errors and FlyBot restarts are retried with the same ``Idempotency-Key`` (so no second card is posted)
until the caller's deadline.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.errors import plain_cause

FINAL = frozenset({"approved", "denied", "expired", "withdrawn", "undeliverable"})


class ClientError(Exception):
    """Base class of the client's errors."""


class Unreachable(ClientError):
    """FlyBot could not be reached before the deadline."""


async def _problem(response: aiohttp.ClientResponse) -> Refused:
    try:
        data = await response.json(content_type=None)
    except (aiohttp.ClientError, ValueError):
        data = {}
    if not isinstance(data, dict):
        data = {}
    return Refused(response.status, str(data.get("code", "error")), str(data.get("detail", "")))


class Refused(ClientError):
    """FlyBot answered with a problem (4xx/5xx); ``code`` and ``status`` come from its problem+json body."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(f"{detail} ({code}, HTTP {status})")
        self.status = status
        self.code = code
        self.detail = detail


RETRY_AFTER_MAX_S = 60.0
"""The longest ``Retry-After`` the client honours as given (seconds); a larger one is read as this."""


def _retry_after(response: aiohttp.ClientResponse, default: float) -> float:
    """``Retry-After`` in seconds (RFC 9110: delay-seconds; an HTTP date or junk counts as ``default``)."""
    raw = response.headers.get("Retry-After", "")
    try:
        return min(RETRY_AFTER_MAX_S, max(0.0, float(raw)))
    except ValueError:
        return default


@dataclass
class FlyBotClient:
    """Talks to FlyBot's session API with a Bot token.

    Args:
        base_url: e.g. ``http://127.0.0.1:8080``.
        token: the Bot's API token.
        retry_pause_s: pause between retries after a network error, seconds.

    Retries (issue 10, "no client gives up on a request FlyBot accepted"): network errors, lost answers and 502/503/504
    are retried; ``429`` and ``503`` wait for their ``Retry-After``. A POST is retried with the same
    ``Idempotency-Key``, so a retry of a request FlyBot already took returns that escalation and posts nothing.
    """

    base_url: str
    token: str
    retry_pause_s: float = 1.0

    def _headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **(extra or {})}

    async def _call(
        self, session: aiohttp.ClientSession, method: str, path: str, deadline: float, *,
        answer_deadline: float | None = None, **kwargs: Any,
    ) -> dict[str, Any]:
        """One request, retried until it gets an answer.

        ``deadline`` (monotonic seconds) bounds retries while FlyBot has not been reached at all; once an attempt
        got through to FlyBot (an HTTP answer, or a request sent whose answer was lost), retries go on until
        ``answer_deadline`` (default: ``deadline``).

        Raises:
            Refused: a problem answer (4xx, 500), or a 429 whose ``Retry-After`` does not fit before the deadline.
            Unreachable: out of time.
        """
        url = self.base_url.rstrip("/") + path
        last = "no attempt"
        reached = False
        refused: Refused | None = None
        while True:
            pause = self.retry_pause_s
            try:
                async with session.request(method, url, **kwargs) as response:
                    reached = True
                    if response.status in (429, 503) or (response.status > 500):
                        pause = _retry_after(response, self.retry_pause_s) if response.status in (429, 503) else pause
                        last = f"HTTP {response.status}"
                        refused = await _problem(response) if response.status == 429 else None
                    else:
                        data = await response.json(content_type=None)
                        if response.status >= 400:
                            raise Refused(response.status, str(data.get("code", "error")), str(data.get("detail", "")))
                        return dict(data)
            except aiohttp.ClientConnectorError as exc:  # nothing was sent
                last = plain_cause(exc)
            except (aiohttp.ClientError, TimeoutError, ValueError) as exc:  # sent; the answer may be lost
                reached = True
                last = plain_cause(exc)
            limit = answer_deadline if reached and answer_deadline is not None else deadline
            if time.monotonic() + pause >= limit:
                if refused is not None:
                    raise refused
                raise Unreachable(f"FlyBot at {self.base_url} is unreachable ({last})")
            await asyncio.sleep(pause)

    async def escalate(
        self, body: dict[str, Any], *, connect_timeout_s: float = 10.0, idempotency_key: str | None = None,
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
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
            return await self._call(
                session, "POST", "/v1/escalations", now + connect_timeout_s, answer_deadline=now + budget,
                json=body, headers=self._headers({"Idempotency-Key": key}),
            )

    async def report(self, body: dict[str, Any], *, connect_timeout_s: float = 10.0) -> dict[str, Any]:
        """``POST /v1/reports`` (a blocked-host report; folding makes a retry harmless), retried on network errors
        for up to ``connect_timeout_s``. Raises :class:`Refused` / :class:`Unreachable`."""
        deadline = time.monotonic() + connect_timeout_s
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
            return await self._call(session, "POST", "/v1/reports", deadline, json=body, headers=self._headers())

    async def host_usable(
        self, host: str, preflight: dict[str, Any], *, connect_timeout_s: float = 10.0
    ) -> dict[str, Any]:
        """``POST /v1/reports/usable``: this host's preflight is usable; FlyBot resolves its open report, if any.
        Returns ``{"resolved": <report> | null}``. Raises :class:`Refused` / :class:`Unreachable`."""
        deadline = time.monotonic() + connect_timeout_s
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
            return await self._call(session, "POST", "/v1/reports/usable", deadline,
                                    json={"host": host, "preflight": preflight}, headers=self._headers())

    async def get(self, escalation_id: str, *, wait_s: float = 0) -> dict[str, Any]:
        """``GET /v1/escalations/{id}?wait=`` once (no retry)."""
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=wait_s + 15)) as session:
            return await self._call(
                session, "GET", f"/v1/escalations/{escalation_id}", time.monotonic(),
                params={"wait": str(wait_s)}, headers=self._headers(),
            )

    async def withdraw(self, escalation_id: str) -> dict[str, Any]:
        """``POST /v1/escalations/{id}/withdraw`` once."""
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
            return await self._call(
                session, "POST", f"/v1/escalations/{escalation_id}/withdraw", time.monotonic(), headers=self._headers()
            )

    async def wait(self, escalation: dict[str, Any], *, timeout_s: float) -> dict[str, Any]:
        """Long-poll until the escalation is final or ``timeout_s`` passes; re-polls across restarts and network errors.

        Returns the last escalation seen (still ``pending`` if the timeout passed first).
        Raises :class:`Unreachable` if FlyBot could not be reached at all when the timeout passed.
        """
        deadline = time.monotonic() + timeout_s
        current = escalation
        reached = True
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=75)) as session:
            while current.get("status") not in FINAL:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                wait = max(0.0, min(30.0, remaining))
                try:
                    current = await self._call(
                        session, "GET", f"/v1/escalations/{current['id']}", deadline,
                        params={"wait": f"{wait:.1f}"}, headers=self._headers(),
                    )
                    reached = True
                except Unreachable:
                    reached = False
                    break
        if not reached and current.get("status") not in FINAL:
            raise Unreachable(f"FlyBot at {self.base_url} is unreachable")
        return current

    async def ask(self, body: dict[str, Any], *, timeout_s: float) -> dict[str, Any]:
        """Escalate and wait for the decision; on timeout the escalation is withdrawn (best effort) and returned.

        Time spent waiting out ``429 rate_limited`` counts against ``timeout_s``.
        """
        deadline = time.monotonic() + timeout_s
        created = await self.escalate(body, connect_timeout_s=min(timeout_s, 10.0), timeout_s=timeout_s)
        final = await self.wait(created, timeout_s=max(0.0, deadline - time.monotonic()))
        if final.get("status") == "pending":
            try:
                final = await self.withdraw(final["id"])
            except ClientError:
                pass
        return final
