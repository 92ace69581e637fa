"""Readiness checks for ``GET /readyz``: the store answers, its schema is current, Slack accepts our token (and the
scopes Slack says the token has, its ``X-OAuth-Scopes`` header, cover what FlyBot calls: a gap is named in the
detail and logged, not counted as unready)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import structlog
from aiohttp import web
from slack_sdk.errors import SlackClientError
from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy import text

from bot.slack.scopes import missing
from bot.store import Store

log = structlog.get_logger("flybot.health")

SLACK_AUTH_TTL_S = 60.0
"""A successful ``auth.test`` is trusted this long (seconds), so probes do not hammer Slack."""


@dataclass
class Health:
    """Runs the readiness checks; each returns ``{"ok": bool, "detail": str}``."""

    store: Store
    client: AsyncWebClient
    _slack_ok_until: float = field(default=0.0)
    _slack_detail: str = field(default="")

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
            return {"ok": True, "detail": f"{self._slack_detail} (cached)"}
        try:
            response = await self.client.auth_test()
        except (SlackClientError, OSError, TimeoutError) as exc:
            return {"ok": False, "detail": f"Slack auth failed: {type(exc).__name__}"}
        self._slack_ok_until = time.monotonic() + SLACK_AUTH_TTL_S
        detail = f"auth ok as {response.get('user_id')}"
        granted = next((str(v) for k, v in (response.headers or {}).items() if k.lower() == "x-oauth-scopes"), None)
        lacking = missing(s.strip() for s in granted.split(",")) if granted is not None else []
        if lacking:
            # Still ready: most of FlyBot works; the calls needing these scopes fail closed, each logged.
            detail += (
                f"; the Slack app lacks the scopes {', '.join(lacking)}: add them under "
                "oauth_config.scopes.bot in its manifest and reinstall it"
            )
            log.error("slack.scopes_missing", missing=lacking)
        self._slack_detail = detail
        return {"ok": True, "detail": detail}


HEALTH = web.AppKey("health", Health)
