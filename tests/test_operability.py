"""Health, readiness, metrics, OpenAPI, Socket Mode and Slack redeliveries, against the real server."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from openapi_spec_validator import validate

from cards import APPROVE_ACTION
from tests.harness import OWNER, Harness


async def test_healthz_and_readyz_report_truthfully(harness: Harness) -> None:
    async with harness.http.get(f"{harness.url}/healthz") as response:
        assert response.status == 200
    async with harness.http.get(f"{harness.url}/readyz") as response:
        body = await response.json()
        assert response.status == 200 and body["status"] == "ready", body
        assert set(body["checks"]) == {"store", "schema", "slack"}


async def test_readyz_is_not_ready_when_slack_rejects_the_token(tmp_path: Path) -> None:
    harness = Harness(tmp=tmp_path, settings_overrides={"slack_bot_token": "xoxb-wrong-token"})
    await harness.start()
    try:
        async with harness.http.get(f"{harness.url}/readyz") as response:
            body = await response.json()
        assert response.status == 503
        assert body["checks"]["slack"]["ok"] is False and body["checks"]["store"]["ok"] is True
    finally:
        await harness.close()


def metric(text: str, name: str, **labels: str) -> float:
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        key, _, value = line.rpartition(" ")
        metric_name, _, label_text = key.partition("{")
        got = ",".join(sorted(label_text.rstrip("}").split(","))) if label_text else ""
        if metric_name == name and got == wanted:
            return float(value)
    return 0.0


async def test_metrics_count_escalations_decisions_and_pending(harness: Harness) -> None:
    token = await harness.add_bot()
    first = await harness.escalate(token)
    await harness.escalate(token)
    await harness.click(OWNER, first["id"], APPROVE_ACTION)
    await harness.get(token, first["id"], wait=10)
    text = ""
    for _ in range(100):  # the decision is stored before it is counted: poll until the scrape shows it
        async with harness.http.get(f"{harness.url}/metrics") as response:
            assert response.status == 200 and response.content_type == "text/plain"
            text = await response.text()
        if metric(text, "flybot_escalations_total", status="approved", decision_source="owner"):
            break
        await asyncio.sleep(0.05)
    assert metric(text, "flybot_escalations_total", status="pending", decision_source="created") == 2
    assert metric(text, "flybot_escalations_total", status="approved", decision_source="owner") == 1
    assert metric(text, "flybot_pending_escalations") == 1
    assert metric(text, "flybot_decision_latency_seconds_count", decision_source="owner", decider="owner") == 1


async def test_metrics_count_slack_errors(harness: Harness) -> None:
    token = await harness.add_bot()
    await harness.fault("chat.postMessage", status=200, error="channel_not_found", count=1)
    await harness.escalate(token)
    async with harness.http.get(f"{harness.url}/metrics") as response:
        text = await response.text()
    assert metric(text, "flybot_slack_api_errors_total", method="chat.postMessage", error="channel_not_found") == 1


async def test_openapi_document_is_valid_and_describes_the_session_api(harness: Harness) -> None:
    async with harness.http.get(f"{harness.url}/v1/openapi.json") as response:
        document = await response.json()
    validate(document)
    assert {"/v1/escalations", "/v1/escalations/{id}", "/v1/escalations/{id}/withdraw"} <= set(document["paths"])
    request = document["components"]["schemas"]["EscalationIn"]
    assert {"session_id", "command", "cwd", "file_policy", "approval_policy", "contained"} <= set(request["required"])


async def test_socket_mode_starts_against_the_emulation_and_clicks_arrive_over_it(tmp_path: Path) -> None:
    harness = Harness(tmp=tmp_path, settings_overrides={"slack_app_token": "xapp-test", "slack_signing_secret": None})
    harness_started = False
    try:
        await harness.start()
        harness_started = True
        harness.emulator.app_token = "xapp-test"
        await harness.eventually(lambda: harness.emulator.socket_connected, timeout=20)
        harness.emulator.events_url = None  # nothing may come over HTTP now
        async with harness.http.post(f"{harness.url}/slack/events", data="payload={}") as response:
            assert response.status == 404, "without a signing secret, FlyBot takes nothing over HTTP"
        token = await harness.add_bot()
        esc = await harness.escalate(token)
        await harness.click(OWNER, esc["id"], APPROVE_ACTION)
        _, final = await harness.get(token, esc["id"], wait=10)
        assert final["status"] == "approved" and final["decided_by"] == OWNER
        reply = await harness.slash(OWNER, "help")
        assert "standing add" in reply
    finally:
        if harness_started:
            await harness.close()


async def test_an_events_api_redelivery_is_not_processed_twice(harness: Harness) -> None:
    await harness.add_bot()
    event = {
        "type": "event_callback",
        "team_id": "T0LOCAL01",
        "api_app_id": "A0FLYBOT1",
        "event_id": "Ev0REDELIVER",
        "event_time": int(time.time()),
        "event": {"type": "app_home_opened", "user": OWNER, "tab": "home"},
    }
    body = json.dumps(event)
    for retry in (None, "1", "2"):
        headers = {"Content-Type": "application/json", **harness.emulator.sign(body)}
        if retry:
            headers.update({"X-Slack-Retry-Num": retry, "X-Slack-Retry-Reason": "http_timeout"})
        async with harness.http.post(f"{harness.url}/slack/events", data=body, headers=headers) as response:
            assert response.status == 200
    await harness.eventually(lambda: OWNER in harness.emulator.home)
    await asyncio.sleep(0.3)
    publishes = [c for c in harness.emulator.calls if c["method"] == "views.publish"]
    assert len(publishes) == 1


async def test_metrics_count_blocked_reports_and_standing_hits(harness: Harness) -> None:
    token = await harness.add_bot()
    line = "blocked: no usable sandbox backend bot=ci-bot host=h1 session=s1 mode=workspace-write"
    for _ in range(2):
        async with harness.http.post(
            f"{harness.url}/v1/reports", json={"line": line}, headers={"Authorization": f"Bearer {token}"}
        ) as response:
            assert response.status in (200, 201)
    await harness.slash(OWNER, "standing add --bot ci-bot apt-get install --max-risk network")
    await harness.escalate(token, command="apt-get install -y jq", contained=True)
    async with harness.http.get(f"{harness.url}/metrics") as response:
        text = await response.text()
    assert metric(text, "flybot_blocked_reports_total", outcome="new") == 1
    assert metric(text, "flybot_blocked_reports_total", outcome="folded") == 1
    assert metric(text, "flybot_standing_approval_hits_total") == 1


def test_the_latency_histogram_names_who_decided() -> None:
    from bot.metrics import decider

    assert [decider(s) for s in ("owner", "fallback", "admin", "standing_approval")] == [
        "owner",
        "fallback",
        "admin",
        "standing",
    ]
    assert {decider(s) for s in ("timeout", "session", "delivery_failure")} == {"none"}
