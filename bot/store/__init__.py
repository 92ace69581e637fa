"""FlyBot's store: one :class:`Store` over SQLAlchemy 2 async (SQLite embedded default, PostgreSQL in production)."""

from bot.store.migrate import SchemaBehind, StoreMissing, StoreProblem, StoreUnreachable
from bot.store.records import (
    FINAL_STATUSES,
    SCOPES,
    STATUSES,
    AuditEntry,
    Bot,
    Escalation,
    NewEscalation,
    StandingApproval,
)
from bot.store.sql import STORE_BUSY, Store, open_store

__all__ = ["STORE_BUSY", "FINAL_STATUSES", "SCOPES", "STATUSES", "StandingApproval", "AuditEntry", "Bot", "Escalation", "NewEscalation", "Store", "open_store",
           "SchemaBehind", "StoreMissing", "StoreProblem", "StoreUnreachable"]
