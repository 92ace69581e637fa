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

FINAL = frozenset({"approved", "denied", "expired", "withdrawn", "undeliverable"})


class ClientError(Exception):
    """Base class of the client's errors."""


class Unreachable(ClientError):
    """FlyBot could not be reached before the deadline."""


class Refused(ClientError):
    """FlyBot answered with a problem (4xx/5xx); ``code`` and ``status`` come from its problem+json body."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(f"{detail} ({code}, HTTP {status})")
        self.status = status
        self.code = code
        self.detail = detail


@dataclass
class FlyBotClient:
    """Talks to FlyBot's session API with a Bot token.

    Args:
        base_url: e.g. ``http://127.0.0.1:8080``.
        token: the Bot's API token.
        retry_pause_s: pause between retries after a network error, seconds.
    """

    base_url: str
    token: str
    retry_pause_s: float = 1.0

    def _headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **(extra or {})}

    async def _call(
        self, session: aiohttp.ClientSession, method: str, path: str, deadline: float, **kwargs: Any
    ) -> dict[str, Any]:
        url = self.base_url.rstrip("/") + path
        last = "no attempt"
        while True:
            try:
                async with session.request(method, url, **kwargs) as response:
                    if response.status >= 500 and response.status != 500:
                        last = f"HTTP {response.status}"
                    else:
                        data = await response.json(content_type=None)
                        if response.status >= 400:
                            raise Refused(response.status, str(data.get("code", "error")), str(data.get("detail", "")))
                        return dict(data)
            except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
                last = type(exc).__name__
            if time.monotonic() + self.retry_pause_s >= deadline:
                raise Unreachable(f"FlyBot at {self.base_url} is unreachable ({last})")
            await asyncio.sleep(self.retry_pause_s)

    async def escalate(
        self, body: dict[str, Any], *, connect_timeout_s: float = 10.0, idempotency_key: str | None = None
    ) -> dict[str, Any]:
        """``POST /v1/escalations``, retried on network errors for up to ``connect_timeout_s`` with ONE Idempotency-Key.

        ``idempotency_key``: the caller's own (e.g. a tool call id, so a re-run never posts a second card);
        default a fresh UUID. Raises :class:`Refused` on a problem answer, :class:`Unreachable` when out of time.
        """
        key = idempotency_key or str(uuid.uuid4())
        deadline = time.monotonic() + connect_timeout_s
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
            return await self._call(
                session, "POST", "/v1/escalations", deadline, json=body, headers=self._headers({"Idempotency-Key": key})
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
        """Escalate and wait for the decision; on timeout the escalation is withdrawn (best effort) and returned."""
        created = await self.escalate(body, connect_timeout_s=min(timeout_s, 10.0))
        final = await self.wait(created, timeout_s=timeout_s)
        if final.get("status") == "pending":
            try:
                final = await self.withdraw(final["id"])
            except ClientError:
                pass
        return final
