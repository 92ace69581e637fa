"""Several FlyBot replicas on one PostgreSQL, against one Slack emulation, over real HTTP.

Each replica is a full FlyBot application (its own aiohttp server, bolt app, engine, LISTEN connection and
waiters) in this process; they share nothing but the database, like replicas behind a load balancer.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.app import RUNTIME, create_app
from bot.bots import register_bot
from bot.localchat import SlackEmulator
from bot.settings import Settings
from bot.store import open_store
from cards import APPROVE_ACTION
from tests.harness import BOT_TOKEN, OWNER, ROOM, SIGNING_SECRET, add_standing, free_socket, log_in, person_session
from tests.pg import store_settings, throwaway_database
from tests.test_cli import clean_env


class Cluster:
    """An emulation server plus N FlyBot replicas on one database."""

    def __init__(self, database_url: str, tmp: Path) -> None:
        self.database_url = database_url
        self.tmp = tmp
        self.emulator = SlackEmulator(bot_token=BOT_TOKEN, signing_secret=SIGNING_SECRET, control=True)
        self.runners: list[web.AppRunner] = []
        self.apps: list[web.Application] = []
        self.urls: list[str] = []
        self.http = person_session()
        self.emu_url = ""

    async def start(self, replicas: int = 2, **overrides: Any) -> None:
        sock = free_socket()
        self.emu_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self.emulator.public_base = self.emu_url
        runner = web.AppRunner(self.emulator.app())
        await runner.setup()
        await web.SockSite(runner, sock).start()
        await log_in(self.http, self.emu_url, self.emulator)
        self.runners.append(runner)
        for _ in range(replicas):
            await self.add_replica(**overrides)

    async def add_replica(self, **overrides: Any) -> None:
        values: dict[str, Any] = {
            "database_url": self.database_url,
            "slack_bot_token": BOT_TOKEN,
            "slack_signing_secret": SIGNING_SECRET,
            "slack_api_url": f"{self.emu_url}/api/",
            "sweep_interval_s": 0.2,
            "slack_room_interval_s": 0.0,
            "state_dir": str(self.tmp / ".flybot"),
            "recheck_s": 30.0,
        }
        values.update(overrides)
        values = {**store_settings(self.database_url), **values}
        sock = free_socket()
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        app = create_app(Settings(**values), base_url=url)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.SockSite(runner, sock).start()
        await log_in(self.http, self.emu_url, self.emulator)
        self.runners.append(runner)
        self.apps.append(app)
        self.urls.append(url)

    def events_to(self, replica: int) -> None:
        """Slack delivers the next interactions to this replica (any replica may get any interaction)."""
        self.emulator.events_url = f"{self.urls[replica]}/slack/events"

    async def slash(self, user: str, text: str, replica: int = 0) -> str:
        """``/flybot TEXT`` typed by ``user`` in the Bot's room and delivered to ``replica``; FlyBot's answer: the
        acknowledgement's, or the one that follows it through the response_url when the work outlasts the answer
        budget (:data:`bot.slack.commands.ANSWER_BUDGET_S`; the acknowledgement is then the working line)."""
        from bot.slack.commands import WORKING_TEXT

        self.events_to(replica)
        async with self.http.post(
            f"{self.emu_url}/page/command", json={"user": user, "channel": ROOM, "text": text, "command": "/flybot"}
        ) as response:
            data = await response.json()
        assert data["status"] == 200, data  # elapsed_s: how long FlyBot took to acknowledge
        deadline = time.monotonic() + 40
        while (answer := [m.text for m in self.emulator.messages if m.ephemeral_to == user][-1]) == WORKING_TEXT:
            assert time.monotonic() < deadline, f"no answer followed the working line to {text!r}"
            await asyncio.sleep(0.05)
        return answer

    async def close(self) -> None:
        for runner in reversed(self.runners):
            await runner.cleanup()
        await self.http.close()

    async def add_bot(self) -> tuple[str, str]:
        bot, token = await register_bot(self.apps[0][RUNTIME].store, "ci-bot", [OWNER], ROOM)
        return bot.id, token

    async def escalate(self, replica: int, token: str, **body: Any) -> dict[str, Any]:
        payload = {
            "session_id": "s",
            "command": "sudo apt-get install -y jq",
            "cwd": "/w",
            "file_policy": "workspace-write",
            "approval_policy": "ask",
            "contained": False,
            **body,
        }
        async with self.http.post(
            f"{self.urls[replica]}/v1/escalations", json=payload, headers={"Authorization": f"Bearer {token}"}
        ) as response:
            assert response.status == 201
            data = dict(await response.json())
        deadline = time.monotonic() + 60
        while data.get("card") and data["card"]["status"] == "queued":  # the outbox posts it after the answer
            assert time.monotonic() < deadline, data
            await asyncio.sleep(0.02)
            data = await self.get(replica, token, data["id"])
        return data

    async def get(self, replica: int, token: str, escalation_id: str, wait: float = 0) -> dict[str, Any]:
        async with self.http.get(
            f"{self.urls[replica]}/v1/escalations/{escalation_id}",
            params={"wait": str(wait)},
            headers={"Authorization": f"Bearer {token}"},
        ) as response:
            assert response.status == 200, await response.text()
            return dict(await response.json())

    def card(self, escalation_id: str) -> Any:
        return next(m for m in self.emulator.messages if escalation_id in json.dumps(m.blocks))

    async def click(self, escalation_id: str, user: str = OWNER) -> dict[str, Any]:
        deadline = time.monotonic() + 30
        while not any(escalation_id in json.dumps(m.blocks) for m in self.emulator.messages):
            assert time.monotonic() < deadline, f"no card for {escalation_id}"
            await asyncio.sleep(0.02)  # the outbox posts the card after the answer
        card = self.card(escalation_id)
        async with self.http.post(
            f"{self.emu_url}/page/click",
            json={
                "user": user,
                "channel": card.channel,
                "ts": card.ts,
                "action_id": APPROVE_ACTION,
                "block_id": "",
                "value": escalation_id,
            },
        ) as response:
            return dict(await response.json())


@pytest.fixture(params=["postgresql", "pgbouncer"])
async def cluster(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Cluster]:
    async with throwaway_database(pooled=request.param == "pgbouncer") as url:
        store = await open_store(url, migrate=True)
        await store.close()
        c = Cluster(url, tmp_path)
        try:
            yield c
        finally:
            await c.close()


async def test_a_click_on_replica_b_wakes_the_session_long_polling_replica_a(cluster: Cluster) -> None:
    await cluster.start(replicas=2)
    _, token = await cluster.add_bot()
    esc = await cluster.escalate(0, token)
    waiter = asyncio.create_task(cluster.get(0, token, esc["id"], wait=25))
    await asyncio.sleep(0.3)
    cluster.events_to(1)
    started = time.monotonic()
    await cluster.click(esc["id"])
    final = await asyncio.wait_for(waiter, 30)
    latency = time.monotonic() - started
    # recheck_s is 30 s here and the wait 25 s: without LISTEN/NOTIFY the answer would only come when the wait
    # ends (25 s). 15 s leaves a wide margin on a busy machine; the expected figure is milliseconds.
    assert final["status"] == "approved" and final["decided_by"] == OWNER
    assert latency < 15
    print(f"cross-replica wake latency (click sent -> long-poll answered): {latency * 1000:.0f} ms")


async def test_the_same_click_on_two_replicas_at_once_records_one_decision(cluster: Cluster) -> None:
    await cluster.start(replicas=2)
    _, token = await cluster.add_bot()
    esc = await cluster.escalate(0, token)
    card = cluster.card(esc["id"])
    body = {
        "user": OWNER,
        "channel": card.channel,
        "ts": card.ts,
        "action_id": APPROVE_ACTION,
        "block_id": "",
        "value": esc["id"],
    }

    async def click_on(replica: int) -> None:
        cluster.events_to(replica)
        async with cluster.http.post(f"{cluster.emu_url}/page/click", json=body) as response:
            assert response.status == 200

    # The emulation reads events_url when a click is sent: alternate the target between the two sends.
    await asyncio.gather(click_on(0), click_on(1))
    final = await cluster.get(1, token, esc["id"], wait=10)
    assert final["status"] == "approved"
    store = cluster.apps[0][RUNTIME].store
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        events = [e.event for e in await store.audit_log(esc["id"])]
        if events.count("escalation.approved") + events.count("decision.refused") == 2:
            break
        await asyncio.sleep(0.05)
    assert events.count("escalation.approved") == 1 and events.count("decision.refused") == 1


async def test_a_retry_with_its_idempotency_key_on_another_replica_at_once_gets_the_same_escalation(
    cluster: Cluster,
) -> None:
    """A client retries (same Idempotency-Key) on the other replica while the first request still runs: both answers
    are the one escalation, never a 500 from the replica whose insert lost the unique key."""
    from datetime import UTC, datetime

    from bot.store import StandingApproval

    await cluster.start(replicas=2)
    bot_id, token = await cluster.add_bot()
    store = cluster.apps[0][RUNTIME].store
    await add_standing(
        store,
        StandingApproval(  # auto-answers: their groups take no room lock, so they race
            id="sa_any",
            scope="bot",
            subject=bot_id,
            bot_id=bot_id,
            pattern="*",
            max_risk="system",
            contained_only=True,
            created_by=OWNER,
            created_at=datetime.now(UTC),
        ),
    )
    body = {
        "session_id": "s",
        "command": "ls -la",
        "cwd": "/w",
        "file_policy": "workspace-write",
        "approval_policy": "ask",
        "contained": True,
    }

    async def post(replica: int, key: str) -> tuple[int, str]:
        async with cluster.http.post(
            f"{cluster.urls[replica]}/v1/escalations",
            json=body,
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key},
        ) as response:
            return response.status, str((await response.json()).get("id"))

    for n in range(6):
        first, second = await asyncio.gather(post(0, f"retry-{n}"), post(1, f"retry-{n}"))
        assert first[0] == second[0] == 201 and first[1] == second[1], (first, second)


async def test_expiry_with_two_replicas_updates_each_card_once(cluster: Cluster) -> None:
    await cluster.start(replicas=2)
    _, token = await cluster.add_bot()
    escalations = [await cluster.escalate(i % 2, token, timeout_s=5) for i in range(4)]
    for esc in escalations:
        final = await cluster.get(0, token, esc["id"], wait=15)
        assert final["status"] == "expired"
    await asyncio.sleep(1.0)  # both sweepers had several more passes
    for esc in escalations:
        card = cluster.card(esc["id"])
        updates = [c for c in cluster.emulator.calls if c["method"] == "chat.update" and c["args"].get("ts") == card.ts]
        assert len(updates) == 1, esc["id"]
        expired = [
            e for e in await cluster.apps[1][RUNTIME].store.audit_log(esc["id"]) if e.event == "escalation.expired"
        ]
        assert len(expired) == 1


async def test_a_429_burst_delays_but_loses_no_card(cluster: Cluster) -> None:
    await cluster.start(replicas=2, slack_room_interval_s=0.05)
    _, token = await cluster.add_bot()
    async with cluster.http.post(
        f"{cluster.emu_url}/control/faults",
        json={"method": "chat.postMessage", "status": 429, "count": 3, "retry_after": 1},
    ):
        pass
    burst = await asyncio.gather(*(cluster.escalate(i % 2, token, session_id=f"s{i}") for i in range(8)))
    assert [e["status"] for e in burst] == ["pending"] * 8
    for esc in burst:
        cluster.card(esc["id"])
    texts = []  # the retries were counted by whichever replica hit them
    for url in cluster.urls:
        async with cluster.http.get(f"{url}/metrics") as response:
            texts.append(await response.text())
    retried = sum(
        float(line.split()[-1])
        for text in texts
        for line in text.splitlines()
        if line.startswith('flybot_deliveries_total{kind="card.post",outcome="rate_limited"}')
    )
    assert retried == 3  # each 429 paused the room and the card waited: none was lost


async def test_sigterm_answers_long_polls_retryably_and_loses_nothing(cluster: Cluster, tmp_path: Path) -> None:
    await cluster.start(replicas=1)
    _, token = await cluster.add_bot()
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    env = clean_env(
        FLYBOT_DATABASE_URL=cluster.database_url,
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_SIGNING_SECRET=SIGNING_SECRET,
        FLYBOT_SLACK_API_URL=f"{cluster.emu_url}/api/",
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "serve",
        "--port",
        str(port),
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                async with cluster.http.get(f"{url}/healthz") as response:
                    if response.status == 200:
                        break
            except aiohttp.ClientError:
                pass
            assert time.monotonic() < deadline, "the subprocess replica did not start"
            await asyncio.sleep(0.2)
        cluster.urls.append(url)
        esc = await cluster.escalate(1, token)
        polls = [
            asyncio.create_task(
                cluster.http.get(
                    f"{url}/v1/escalations/{esc['id']}",
                    params={"wait": "50"},
                    headers={"Authorization": f"Bearer {token}"},
                )
            )
            for _ in range(3)
        ]
        await asyncio.sleep(0.5)
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        for poll in polls:
            response = await asyncio.wait_for(poll, 20)
            body = await response.json(content_type=None)
            assert response.status == 503 and body["code"] == "shutting_down", body
            assert response.headers.get("Retry-After") == "1"
        assert time.monotonic() - started < 10
        assert await asyncio.wait_for(proc.wait(), 20) == 0
        still = await cluster.get(0, token, esc["id"])
        assert still["status"] == "pending", "nothing was lost: the escalation is still there to decide"
        cluster.events_to(0)
        await cluster.click(esc["id"])
        assert (await cluster.get(0, token, esc["id"], wait=10))["status"] == "approved"
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_a_report_decided_on_replica_b_wakes_the_bot_polling_replica_a(cluster: Cluster) -> None:
    from cards import REPORT_APPROVE_TURN_ACTION  # the DM's "Approve danger-full-access for this turn"

    await cluster.start(replicas=2)
    _, token = await cluster.add_bot()
    line = "blocked: no usable sandbox backend bot=ci-bot host=h1 session=s1 mode=workspace-write"
    async with cluster.http.post(
        f"{cluster.urls[0]}/v1/reports", json={"line": line}, headers={"Authorization": f"Bearer {token}"}
    ) as response:
        assert response.status == 201
        report = await response.json()
    waiter = asyncio.create_task(
        cluster.http.get(
            f"{cluster.urls[0]}/v1/reports/{report['id']}",
            params={"wait": "25"},
            headers={"Authorization": f"Bearer {token}"},
        )
    )
    await asyncio.sleep(0.3)
    deadline = time.monotonic() + 30
    while not any(report["id"] in json.dumps(m.blocks) for m in cluster.emulator.messages):  # the DM is an outbox job
        assert time.monotonic() < deadline, "no DM"
        await asyncio.sleep(0.05)
    dm = next(m for m in cluster.emulator.messages if report["id"] in json.dumps(m.blocks))
    button = next(
        e
        for b in dm.blocks
        if b.get("type") == "actions"
        for e in b["elements"]
        if e["action_id"] == REPORT_APPROVE_TURN_ACTION
    )
    cluster.events_to(1)
    async with cluster.http.post(
        f"{cluster.emu_url}/page/click",
        json={
            "user": OWNER,
            "channel": dm.channel,
            "ts": dm.ts,
            "action_id": button["action_id"],
            "block_id": "",
            "value": button["value"],
        },
    ) as response:
        assert response.status == 200
    started = time.monotonic()
    answer = await asyncio.wait_for(waiter, 30)
    assert time.monotonic() - started < 15  # woken by NOTIFY, not by the end of the 25 s wait
    body = await answer.json()
    assert body["status"] == "approved_turn" and body["decided_by"] == OWNER  # before the 25 s wait (recheck 30 s)


async def test_a_program_rule_set_on_one_replica_grades_on_the_other_and_its_removal_too(
    cluster: Cluster,
    tmp_path: Path,
) -> None:
    """An admin grades ``acmecc`` on replica A; at once (each replica's copy of the rules is dropped by PostgreSQL's
    notification, not by time: the copies live 300 s here) a standing approval answers ``acmecc -O2 main.c -o app`` on
    replica B without a card, and the Claude Code hook pointed at B allows it; the audit says who taught what; the
    rule's removal on A makes B ask again."""
    from tests.harness import ADMIN
    from tests.test_hooks import decision, event, start_hook

    await cluster.start(replicas=2, admins=(ADMIN,), cache_ttl_s=300.0)
    _, token = await cluster.add_bot()
    acmecc = "acmecc -O2 main.c -o app"

    before = await cluster.escalate(1, token, command=acmecc, contained=True)  # B now holds its copy of no rules
    assert before["risk"] == "destructive" and before["status"] == "pending"
    assert "is graded workspace_write" in await cluster.slash(ADMIN, "rule set acmecc workspace_write our C compiler")
    assert (await cluster.slash(OWNER, "standing add --bot ci-bot acmecc")).startswith("Saved")
    covered = await cluster.escalate(1, token, command=acmecc, contained=True)
    assert covered["status"] == "approved" and covered["decision_source"] == "standing_approval", covered
    assert covered["risk"] == "workspace_write" and covered["card"] is None

    hook = await start_hook(
        json.dumps(event(acmecc, tmp_path)).encode(),
        tmp_path,
        "--contained",
        "--server",
        cluster.urls[1],
        "--token",
        token,
        "--wait",
        "20",
    )
    _code, out, err = await hook.finish()
    verdict, reason = decision(out)
    assert verdict == "allow" and "standing approval" in reason, (out, err)

    store = cluster.apps[1][RUNTIME].store
    taught = [
        (e.actor, e.detail["program"], e.detail["grade"], e.detail["note"])
        for e in await store.audit_log()
        if e.event == "program_rule.set"
    ]
    assert taught == [(ADMIN, "acmecc", "workspace_write", "our C compiler")]

    assert "Removed the program rule" in await cluster.slash(ADMIN, "rule remove acmecc")
    after = await cluster.escalate(1, token, command=acmecc, contained=True)
    assert after["risk"] == "destructive" and after["status"] == "pending", after
