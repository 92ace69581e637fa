"""Concurrent reads by id share queries: the ids asked for while one query runs are read together by the next one.

A burst of long-polls each reading their escalation costs a few queries (each bound as one parameter, see
:func:`bot.store.sql.id_among`); a lone read costs one query. Every answer comes from a query that started after it
was asked for, so a read never misses a write that committed before the call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

V = TypeVar("V")

MAX_BATCH = 5000
"""Most ids one query reads."""


class Coalescer(Generic[V]):
    """Reads values by id through ``fetch(ids) -> {id: value}`` (ids missing from the answer read as None)."""

    def __init__(self, fetch: Callable[[list[str]], Awaitable[dict[str, V]]], *, max_batch: int = MAX_BATCH) -> None:
        self._fetch = fetch
        self._max_batch = max_batch
        self._waiting: dict[str, list[asyncio.Future[V | None]]] = {}
        self._draining: asyncio.Task[None] | None = None

    async def get(self, key: str) -> V | None:
        """The value of ``key`` (None: there is none). Raises what ``fetch`` raised for its batch."""
        future: asyncio.Future[V | None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, []).append(future)
        if self._draining is None:
            self._draining = asyncio.create_task(self._drain(), name="flybot-coalesced-reads")
        return await future

    async def _drain(self) -> None:
        try:
            while self._waiting:
                keys = list(self._waiting)[: self._max_batch]
                batch = {key: self._waiting.pop(key) for key in keys}
                try:
                    found = await self._fetch(keys)
                except Exception as exc:  # noqa: BLE001 - handed to every reader of this batch
                    for futures in batch.values():
                        for future in futures:
                            if not future.done():
                                future.set_exception(exc)
                    continue
                for key, futures in batch.items():
                    for future in futures:
                        if not future.done():
                            future.set_result(found.get(key))
        finally:
            self._draining = None
