""":class:`KeyedClient`: :class:`bot.client.FlyBotClient` with a caller-chosen ``Idempotency-Key``.

``FlyBotClient.escalate`` makes a fresh random key per call; the Claude Code hook wants the tool call's own id
(``tool_use_id``) so that a re-run of the same hook for the same tool call never posts a second card. Imported
lazily (aiohttp is only needed once a command is above the ceiling).
"""

from __future__ import annotations

import time
from typing import Any

import aiohttp

from bot.client import FlyBotClient


class KeyedClient(FlyBotClient):
    """A :class:`FlyBotClient` whose escalation request carries the given ``Idempotency-Key``."""

    async def escalate_keyed(self, body: dict[str, Any], *, key: str, connect_timeout_s: float = 10.0) -> dict[str, Any]:
        """``POST /v1/escalations`` with ``Idempotency-Key: key``, retried on network errors for ``connect_timeout_s``.

        Returns the escalation (201 body). Raises :class:`bot.client.Refused` on a problem answer,
        :class:`bot.client.Unreachable` when FlyBot could not be reached in time.
        """
        deadline = time.monotonic() + connect_timeout_s
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
            return await self._call(
                session, "POST", "/v1/escalations", deadline, json=body, headers=self._headers({"Idempotency-Key": key})
            )
