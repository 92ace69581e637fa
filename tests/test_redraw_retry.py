"""A card's redraw after a decision is retried until it lands, and lands soon after Slack recovers.

Slack fails every ``chat.update`` (``internal_error``: the outcome is unknown, so the worker retries) for longer than
the delivery deadline, then recovers. The redraw is never given up while Slack only fails (the card would keep live
buttons for good; the person who decided is told once, at the deadline), its retries stay at most
:data:`bot.delivery.worker.REDRAW_RETRY_MAX_S` apart, and the first worker pass after the recovery removes the
buttons.

Real components: the Slack Web API emulation on loopback, FlyBot's Slack client and chat port, the store on SQLite
and PostgreSQL, the escalation service and one delivery worker. Time is the worker's and the service's own clock,
moved to each job's due time by the test: one ``run_once`` is one worker pass, and no test waits for real seconds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from sqlalchemy import select

from bot.bots import register_bot
from bot.chat import RateLimited
from bot.delivery.worker import REDRAW_RETRY_MAX_S, Delivery, DeliveryConfig
from bot.escalations import EscalationRequest, EscalationService
from bot.localchat import SlackEmulator
from bot.localchat.emulator import Fault
from bot.slack.gateway import SlackChat, make_web_client
from bot.store import Store, open_store
from bot.store.models import OutboxJobRow
from bot.waiters import WaiterHub
from tests.harness import BOT_TOKEN, OWNER, ROOM, SIGNING_SECRET, free_socket
from tests.pg import migrated_store
from tests.test_outbox import has_buttons, tagged

DEADLINE_S = 120.0


class Clock:
    """The worker's and the service's aware-UTC clock, moved on by the test."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Rig:
    store: Store
    emulator: SlackEmulator
    service: EscalationService
    delivery: Delivery
    clock: Clock

    async def worker_pass(self) -> bool:
        """Move the clock to the next job's due time and let the worker take one job; False when none is queued."""
        due = await self.store.next_job_due(self.clock.now)
        if due is None:
            return False
        self.clock.now = max(self.clock.now, due) + timedelta(milliseconds=1)
        assert await self.delivery.run_once(), "a due job was not claimed"
        return True


@pytest.fixture(params=["sqlite", "postgresql"])
async def rig(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Rig]:
    emulator = SlackEmulator(bot_token=BOT_TOKEN, signing_secret=SIGNING_SECRET, control=True)
    sock = free_socket()
    runner = web.AppRunner(emulator.app())
    await runner.setup()
    await web.SockSite(runner, sock).start()
    api = f"http://127.0.0.1:{sock.getsockname()[1]}/api/"
    async with migrated_store(request.param, tmp_path) as url, aiohttp.ClientSession() as http:
        store = await open_store(url)
        clock = Clock()
        chat = SlackChat(
            make_web_client(BOT_TOKEN, api, session=http),
            sender=make_web_client(BOT_TOKEN, api, session=http, retries=False),
            updater=make_web_client(BOT_TOKEN, api, session=http, rate_limits=False),
        )
        service = EscalationService(store, WaiterHub(), admins=frozenset(), clock=clock)
        delivery = Delivery(store, chat, DeliveryConfig(interval_s=0.0, deadline_s=DEADLINE_S), clock=clock)
        try:
            yield Rig(store=store, emulator=emulator, service=service, delivery=delivery, clock=clock)
        finally:
            delivery.stop()
            await store.close()
            await runner.cleanup()


async def test_a_redraw_is_retried_past_the_deadline_and_lands_on_the_first_pass_after_slack_recovers(
    rig: Rig,
) -> None:
    bot, _token = await register_bot(rig.store, "ci-bot", [OWNER], ROOM)
    escalation = await rig.service.escalate(
        bot,
        EscalationRequest(
            session_id="sess-1",
            command="sudo apt-get install -y jq",
            cwd="/work/repo",
            file_policy="workspace-write",
            approval_policy="ask",
            contained=False,
        ),
    )
    while await rig.worker_pass():  # the card is posted (and the jobs that come with it are done)
        pass
    [card] = tagged(rig.emulator, escalation.id)
    assert has_buttons(card.blocks)

    rig.emulator.faults.append(Fault(method="chat.update", count=10_000))  # Slack fails every chat.update now
    await rig.service.decide(escalation.id, actor=OWNER, approve=True)
    started = rig.clock.now
    recovered_at: datetime | None = None
    passes_after_recovery = 0
    tries: list[datetime] = []
    while has_buttons(tagged(rig.emulator, escalation.id)[0].blocks):
        if recovered_at is None and rig.clock.now - started > timedelta(seconds=DEADLINE_S * 1.5):
            rig.emulator.faults.clear()  # Slack recovers, well after the delivery deadline
            recovered_at = rig.clock.now
        assert await rig.worker_pass(), "the redraw was given up: the card keeps its buttons for good"
        tries.append(rig.clock.now)
        if recovered_at is not None:
            passes_after_recovery += 1
    assert recovered_at is not None
    assert passes_after_recovery == 1, passes_after_recovery
    assert tries[-1] - recovered_at <= timedelta(seconds=REDRAW_RETRY_MAX_S * 1.2 + 0.01)
    gaps = [(b - a).total_seconds() for a, b in zip(tries, tries[1:], strict=False)]
    assert max(gaps) <= REDRAW_RETRY_MAX_S * 1.2 + 0.01, gaps
    async with rig.store.transaction(write=False) as tx:
        rows = (
            (
                await tx.session.execute(
                    select(OutboxJobRow.status).where(
                        OutboxJobRow.ref == escalation.id, OutboxJobRow.kind == "card.update"
                    )
                )
            )
            .scalars()
            .all()
        )
    assert list(rows) == ["done"], rows
    told = [r.detail.get("told") for r in await rig.store.audit_log(escalation.id) if r.event == "card.not_updated"]
    assert told == [OWNER], "past the deadline the decider is told once, and the redraw goes on"


@pytest.mark.parametrize(
    ("header", "paused_s"), [("4", 4.0), ("inf", 1.0), ("nan", 1.0), ("soon", 1.0), ("86400", 600.0)]
)
async def test_a_rate_limited_redraw_pauses_its_room_for_a_bounded_retry_after(header: str, paused_s: float) -> None:
    """Slack's ``Retry-After`` is whole seconds; one that is not a finite number pauses the room 1 s (an infinite
    pause cannot be stored: the retry would not be recorded, and the job would wait for its lease to end), and a day
    is held to 10 minutes."""

    async def rate_limited(_request: web.Request) -> web.Response:
        return web.json_response({"ok": False, "error": "ratelimited"}, status=429, headers={"Retry-After": header})

    app = web.Application()
    app.router.add_post("/api/{method}", rate_limited)
    runner = web.AppRunner(app)
    await runner.setup()
    sock = free_socket()
    await web.SockSite(runner, sock).start()
    try:
        async with aiohttp.ClientSession() as http:
            api = f"http://127.0.0.1:{sock.getsockname()[1]}/api/"
            chat = SlackChat(
                make_web_client(BOT_TOKEN, api, session=http),
                updater=make_web_client(BOT_TOKEN, api, session=http, rate_limits=False),
            )
            with pytest.raises(RateLimited) as raised:
                await chat.update(ROOM, "1.000001", "text", [])
        assert raised.value.retry_after_s == paused_s
    finally:
        await runner.cleanup()
