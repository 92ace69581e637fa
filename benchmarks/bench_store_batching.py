"""Benchmark: what running several auto-answers' writes in one store transaction (a savepoint each) buys against one
transaction per request, through FlyBot's store, in the same run. Not a test: it prints figures.

Run from the repository root (PostgreSQL on 127.0.0.1:5432 with trust auth, or FLYBOT_BENCH_POSTGRES)::

    python benchmarks/bench_store_batching.py [--backend sqlite|postgresql|both] [--requests 2000] [--batch 16]
        [--rounds 2]

Each request writes what a standing-approval auto-answer must: its escalation row, its two audit rows (one INSERT)
and the Bot's request counter (an UPDATE), through ``Store.transaction()`` (SQLAlchemy Core, the SQLite writer turn)
on uvloop, as ``_servers.TX_FLOOR_SERVER`` does without HTTP. Two ways, interleaved ``--rounds`` times:

* one transaction per request, 16 at a time;
* ``--batch`` requests per transaction, each in a savepoint of its own (``begin_nested``): the shape of the batching
  layer the store may grow only if it buys something a user would notice.

Printed: requests a second and this process's CPU per request (``time.process_time``) for each.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import uvloop
from sqlalchemy import bindparam, insert, text, update

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _servers  # noqa: E402 - the benchmarks' shared helpers, beside this file

from bot.store import Store, open_store  # noqa: E402
from bot.store.models import AuditRow, BotRequestCountRow, EscalationRow  # noqa: E402

ESCALATION = insert(EscalationRow.__table__)
AUDIT = insert(AuditRow.__table__)
COUNT = (
    update(BotRequestCountRow.__table__)
    .where(BotRequestCountRow.__table__.c.bot_id == bindparam("p_bot"))
    .values(count=BotRequestCountRow.__table__.c["count"] + 1)
)


def _rows(bot_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    now = datetime.now(UTC)
    escalation_id = f"esc_{uuid.uuid4().hex}"
    row = {
        "id": escalation_id, "bot_id": bot_id, "session_id": "s", "command": "apt-get install -y jq", "cwd": "/w",
        "file_policy": "workspace-write", "approval_policy": "ask", "contained": True, "justification": "j",
        "room": "C1", "risk": "system", "reasons": ["installs packages"], "status": "approved", "created_at": now,
        "expires_at": now + timedelta(seconds=600), "decided_at": now, "decided_by": "U1",
        "decision_source": "standing_approval", "standing_approval_id": None,
    }  # fmt: skip
    audits = [
        {"at": now, "event": "escalation.created", "escalation_id": escalation_id, "actor": bot_id, "detail": {}},
        {"at": now, "event": "escalation.approved", "escalation_id": escalation_id, "actor": "U1", "detail": {}},
    ]
    return row, audits


async def _one(store: Store, bot_id: str) -> None:
    row, audits = _rows(bot_id)
    async with store.transaction() as tx:
        connection = await tx.connection()
        await connection.execute(ESCALATION, row)
        await connection.execute(AUDIT, audits)
        await connection.execute(COUNT, {"p_bot": bot_id})


async def _grouped(store: Store, bot_id: str, size: int) -> None:
    async with store.transaction() as tx:
        connection = await tx.connection()
        for _ in range(size):
            row, audits = _rows(bot_id)
            async with connection.begin_nested():
                await connection.execute(ESCALATION, row)
                await connection.execute(AUDIT, audits)
                await connection.execute(COUNT, {"p_bot": bot_id})


async def measure(backend: str, requests: int, batch: int, rounds: int) -> None:
    async with _servers.database(backend) as url:
        await _servers.add_bot(url)
        store = await open_store(url)
        try:
            async with store.transaction() as tx:
                bot_id = (await (await tx.connection()).execute(text("SELECT id FROM bots"))).scalar_one()
            gate = asyncio.Semaphore(16)

            async def one() -> None:
                async with gate:
                    await _one(store, bot_id)

            ways = (
                ("one transaction per request", lambda: asyncio.gather(*(one() for _ in range(requests)))),
                (
                    f"{batch} per transaction, a savepoint each",
                    lambda: asyncio.gather(*(_grouped(store, bot_id, batch) for _ in range(requests // batch))),
                ),
            )
            for round_ in range(1, rounds + 1):
                for label, run in ways:
                    started, cpu = time.perf_counter(), time.process_time()
                    await run()
                    wall, used = time.perf_counter() - started, time.process_time() - cpu
                    print(
                        f"{backend:10s} round {round_}  {label:36s} {requests / wall:7.0f} req/s   "
                        f"CPU {1e6 * used / requests:6.0f} us/request"
                    )
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    backends = ("sqlite", "postgresql") if args.backend == "both" else (args.backend,)
    uvloop.install()
    for backend in backends:
        asyncio.run(measure(backend, args.requests, args.batch, args.rounds))


if __name__ == "__main__":
    main()
