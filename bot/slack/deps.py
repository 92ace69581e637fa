"""The typed dependencies that Slack listeners receive (instead of bolt's name-based injection)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.escalations import EscalationService
from bot.reports import ReportService
from bot.slack.gateway import SlackChat
from bot.standing import StandingService
from bot.store import Store


@dataclass(frozen=True, slots=True)
class SlackDeps:
    """What every listener module's ``register(app, deps)`` gets."""

    service: EscalationService
    chat: SlackChat
    store: Store
    standing: StandingService
    reports: ReportService
