"""The typed dependencies that Slack listeners receive (instead of bolt's name-based injection)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.escalations import EscalationService
from bot.program_rules import ProgramRuleService
from bot.reports import ReportService
from bot.slack.gateway import SlackChat
from bot.standing import StandingService
from bot.store import Store

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


@dataclass(frozen=True)
class SlackDeps:
    """What every listener module's ``register(app, deps)`` gets.

    ``inflight`` holds the listener runs still working after their ``ack()`` (bolt runs them as background tasks);
    graceful shutdown waits for them before closing the store (:func:`bot.app.create_app`).
    """

    service: EscalationService
    chat: SlackChat
    store: Store
    standing: StandingService
    reports: ReportService
    program_rules: ProgramRuleService
    inflight: set[asyncio.Task[Any]] = field(default_factory=set)

    def tracked(self, listener: F) -> F:
        """Decorate a bolt listener so that its run is counted in :attr:`inflight` (bolt still sees its parameters)."""

        @functools.wraps(listener)
        async def run(*args: Any, **kwargs: Any) -> Any:
            task = asyncio.current_task()
            if task is not None:
                self.inflight.add(task)
            try:
                return await listener(*args, **kwargs)
            finally:
                if task is not None:
                    self.inflight.discard(task)

        return run  # type: ignore[return-value]
