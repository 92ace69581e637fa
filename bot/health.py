"""Readiness checks for ``GET /readyz``: the store answers, its schema is current, Slack accepts our token."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from slack_sdk.errors import SlackClientError
from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy import text

from bot.store import Store

SLACK_AUTH_TTL_S = 60.0
"""A successful ``auth.test`` is trusted this long (seconds), so probes do not hammer Slack."""


@dataclass
class Health:
    """Runs the readiness checks; each returns ``{"ok": bool, "detail": str}``."""

    store: Store
    client: AsyncWebClient
    _slack_ok_until: float = field(default=0.0)

    async def check(self) -> dict[str, dict[str, Any]]:
        """All checks, never raising."""
        return {"store": await self._store(), "schema": await self._schema(), "slack": await self._slack()}

    async def _store(self) -> dict[str, Any]:
        try:
            async with self.store.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        except Exception as exc:  # noqa: BLE001
            return {"ok": False, "detail": f"store unreachable: {type(exc).__name__}"}
        return {"ok": True, "detail": "reachable"}

    async def _schema(self) -> dict[str, Any]:
        from bot.store.migrate import SchemaBehind, check_current

        try:
            await check_current(self.store.engine)
        except SchemaBehind as exc:
            return {"ok": False, "detail": str(exc)}
        except Exception as exc:  # noqa: BLE001
            return {"ok": False, "detail": f"cannot read the schema version: {type(exc).__name__}"}
        return {"ok": True, "detail": "current"}

    async def _slack(self) -> dict[str, Any]:
        if time.monotonic() < self._slack_ok_until:
            return {"ok": True, "detail": "auth ok (cached)"}
        try:
            response = await self.client.auth_test()
        except (SlackClientError, OSError, TimeoutError) as exc:
            return {"ok": False, "detail": f"Slack auth failed: {type(exc).__name__}"}
        self._slack_ok_until = time.monotonic() + SLACK_AUTH_TTL_S
        return {"ok": True, "detail": f"auth ok as {response.get('user_id')}"}


HEALTH = web.AppKey("health", Health)
