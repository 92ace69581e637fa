"""Operators' records: audit rows say what was decided (command, risk, contained, deny reason, who, how), the trail
exports as JSON Lines filtered by time, and no secret in a command leaves in any output."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.bots import hash_token, new_token
from cards import APPROVE_ACTION, DENY_ACTION, DENY_REASON_BLOCK, DENY_REASON_INPUT
from tests.harness import ADMIN, OWNER, Harness
from tests.test_bot_lifecycle import operator

SECRETS = ("sk_live_abcdef123456", "hunter2-pw", "xoxb-1234-abcdefghij")
SECRET_COMMAND = (
    f'curl -H "Authorization: Bearer {SECRETS[0]}" https://api.example.com && '
    f"DB_PASSWORD={SECRETS[1]} psql -c 'select 1' && echo {SECRETS[2]}"
)


async def _admin(harness: Harness) -> dict[str, str]:
    admin = new_token()
    await harness.runtime.store.add_admin_token("adm_audit", hash_token(admin), ADMIN, datetime.now(UTC))
    return {"Authorization": f"Bearer {admin}"}


async def _export(harness: Harness, auth: dict[str, str], **params: str) -> tuple[str, list[dict[str, Any]]]:
    """``GET /v1/audit?format=jsonl``: the content type and the rows."""
    async with harness.http.get(
        f"{harness.url}/v1/audit", params={"format": "jsonl", **params}, headers=auth
    ) as response:
        assert response.status == 200, await response.text()
        body = await response.text()
        return response.content_type, [json.loads(line) for line in body.splitlines()]


async def _deny_with_reason(harness: Harness, escalation_id: str, reason: str) -> None:
    await harness.click(OWNER, escalation_id, DENY_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER))
    modal = harness.open_modal(OWNER)
    assert modal is not None
    await harness.submit_modal(OWNER, modal["id"], {DENY_REASON_BLOCK: {DENY_REASON_INPUT: reason}})


async def test_decision_rows_say_what_was_decided_who_decided_and_how(harness: Harness) -> None:
    token = await harness.add_bot()
    auth = await _admin(harness)
    denied = await harness.escalate(token, command="sudo rm -rf /var/cache/apt", contained=False)
    await _deny_with_reason(harness, denied["id"], "not on a Friday")
    approved = await harness.escalate(token, command="sudo apt-get install -y jq", contained=True)
    await harness.click(OWNER, approved["id"], APPROVE_ACTION)
    withdrawn = await harness.escalate(token, command="sudo systemctl restart nginx")
    async with harness.http.post(
        f"{harness.url}/v1/escalations/{withdrawn['id']}/withdraw", headers={"Authorization": f"Bearer {token}"}
    ) as response:
        assert response.status == 200, await response.text()
    async with harness.http.post(
        f"{harness.url}/v1/standing-approvals",
        headers=auth,
        json={"scope": "bot", "bot": "ci-bot", "pattern": "apt-get install", "max_risk": "network"},
    ) as response:
        assert response.status == 201, await response.text()
    standing = await harness.escalate(token, command="apt-get install -y jq", contained=True)
    assert standing["status"] == "approved"

    _, rows = await _export(harness, auth)
    by = {(r["escalation_id"], r["event"]): r for r in rows}
    row = by[(denied["id"], "escalation.denied")]
    assert row["actor"] == OWNER
    assert row["detail"] | {"source": "owner"} == {
        "command": "sudo rm -rf /var/cache/apt",
        "risk": denied["risk"],
        "contained": False,
        "reason": "not on a Friday",
        "via": "modal",
        "source": "owner",
    }
    row = by[(approved["id"], "escalation.approved")]
    assert (row["actor"], row["detail"]["via"], row["detail"]["contained"]) == (OWNER, "button", True)
    assert row["detail"]["command"] == "sudo apt-get install -y jq" and "reason" not in row["detail"]
    row = by[(withdrawn["id"], "escalation.withdrawn")]
    assert row["detail"]["via"] == "api" and row["detail"]["command"] == "sudo systemctl restart nginx"
    row = by[(standing["id"], "escalation.approved")]
    assert (row["actor"], row["detail"]["via"], row["detail"]["source"]) == (
        ADMIN,
        "standing_approval",
        "standing_approval",
    )
    assert row["detail"]["command"] == "apt-get install -y jq"
    created = by[(denied["id"], "escalation.created")]
    assert created["detail"]["via"] == "api" and created["detail"]["command"] == "sudo rm -rf /var/cache/apt"


async def test_the_trail_exports_as_json_lines_in_pages_filtered_by_time(harness: Harness) -> None:
    auth = await _admin(harness)
    store = harness.runtime.store
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for n in range(1203):  # more than two pages of the export (500 rows a page)
        await store.audit("test.row", at=start + timedelta(minutes=n), n=n)
    content_type, rows = await _export(harness, auth)
    assert content_type == "application/x-ndjson"
    numbered = [r["detail"]["n"] for r in rows if r["event"] == "test.row"]
    assert numbered == list(range(1203))
    everything = await store.audit_log()
    assert [r["id"] for r in rows] == [e.id for e in everything]

    async with harness.http.get(
        f"{harness.url}/v1/audit",
        headers={**auth, "Accept": "application/x-ndjson"},
        params={"since": "2026-01-01T10:00:00Z", "until": "2026-01-01T12:00:00+01:00"},
    ) as response:
        assert response.content_type == "application/x-ndjson"
        window = [json.loads(line) for line in (await response.text()).splitlines()]
    assert [r["detail"]["n"] for r in window] == list(range(600, 660))  # 10:00 UTC up to, not including, 11:00 UTC

    for params, field in (
        ({"until": "2026-01-01"}, "until"),
        ({"since": "2026-01-01T10:00:00"}, "since"),
        ({"format": "csv"}, "format"),
    ):
        async with harness.http.get(f"{harness.url}/v1/audit", params=params, headers=auth) as response:
            assert response.status == 422, params
            assert (await response.json(content_type=None))["errors"][0]["field"] == field

    cli = await operator(
        harness, "audit", "--json", "--since", "2026-01-01T10:00:00Z", "--until", "2026-01-01T11:00:00Z"
    )
    assert cli.returncode == 0, cli.stderr
    assert [json.loads(line)["detail"]["n"] for line in cli.stdout.splitlines()] == list(range(600, 660))
    bad = await operator(harness, "audit", "--until", "tomorrow")
    assert bad.returncode == 2 and "RFC 3339" in bad.stderr


async def test_no_secret_in_a_command_reaches_any_audit_output(harness: Harness) -> None:
    token = await harness.add_bot()
    auth = await _admin(harness)
    escalation = await harness.escalate(token, command=SECRET_COMMAND)
    await _deny_with_reason(harness, escalation["id"], f"it prints DB_PASSWORD={SECRETS[1]} and {SECRETS[2]}")
    raw = [json.dumps(e.detail) for e in await harness.runtime.store.audit_log(escalation["id"])]
    assert any(SECRETS[0] in text for text in raw)  # the store keeps what was asked; the outputs cut it
    _, lines = await _export(harness, auth)
    async with harness.http.get(f"{harness.url}/v1/audit", headers=auth) as response:
        page = await response.text()
    cli_json = await operator(harness, "audit", "--json")
    cli_text = await operator(harness, "audit")
    outputs = {"jsonl": json.dumps(lines), "json": page, "cli --json": cli_json.stdout, "cli": cli_text.stdout}
    for name, text in outputs.items():
        assert escalation["id"] in text, name
        for secret in SECRETS:
            assert secret not in text, (name, secret)
    denied = next(r for r in lines if r["event"] == "escalation.denied")
    assert denied["detail"]["command"].startswith('curl -H "Authorization: Bearer [redacted]"')
    assert "DB_PASSWORD=[redacted]" in denied["detail"]["command"]
