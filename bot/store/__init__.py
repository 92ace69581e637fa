"""FlyBot's store: one :class:`Store` over SQLAlchemy 2 async (SQLite embedded default, PostgreSQL in production)."""

from bot.store.migrate import SchemaBehind, StoreMissing, StoreProblem, StoreUnreachable
from bot.store.records import (
    FINAL_STATUSES,
    JOB_KINDS,
    SCOPES,
    STATUSES,
    AuditEntry,
    Bot,
    Escalation,
    Job,
    NewEscalation,
    Notice,
    ProgramRule,
    StandingApproval,
)
from bot.store.sql import STORE_BUSY, Store, open_store
from bot.store.tx import Tx

__all__ = [
    "JOB_KINDS",
    "Job",
    "Notice",
    "ProgramRule",
    "Tx",
    "STORE_BUSY",
    "FINAL_STATUSES",
    "SCOPES",
    "STATUSES",
    "StandingApproval",
    "AuditEntry",
    "Bot",
    "Escalation",
    "NewEscalation",
    "Store",
    "open_store",
    "SchemaBehind",
    "StoreMissing",
    "StoreProblem",
    "StoreUnreachable",
]
