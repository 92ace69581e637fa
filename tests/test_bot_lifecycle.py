"""Bot lifecycle, admin tokens, the audit trail and the escalation list, as an operator runs them
(real CLI subprocesses on the running server's store) against a real FlyBot and the Slack emulation."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.bots import hash_token, new_token
from bot.localchat.emulator import local_person_name
from cards import APPROVE_ACTION
from tests.harness import ADMIN, OTHER, OWNER, Harness, block_text
from tests.test_cli import clean_env


async def operator(harness: Harness, *args: str) -> subprocess.CompletedProcess[str]:
    """``flybot ARGS`` from another directory, pointed at the server's store by FLYBOT_DATABASE_URL."""
    elsewhere = harness.tmp / "operator"
    elsewhere.mkdir(exist_ok=True)
    env = clean_env(FLYBOT_DATABASE_URL=f"sqlite+aiosqlite:///{harness.tmp / 'flybot.db'}")
    return await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot", *args],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


async def test_rotate_token_prints_a_new_token_once_and_the_old_one_stops_at_once(harness: Harness) -> None:
    old = await harness.add_bot()
    rotated = await operator(harness, "bots", "rotate-token", "ci-bot")
    assert rotated.returncode == 0, rotated.stderr
    new = rotated.stdout.strip().splitlines()[-1]
    assert new.startswith("fbt_") and new != old
    status, _ = await harness.post(old, harness.body())
    assert status == 401
    assert (await harness.escalate(new))["status"] == "pending"
    missing = await operator(harness, "bots", "rotate-token", "ghost")
    assert missing.returncode == 2 and "no Bot named ghost" in missing.stderr


async def test_remove_stops_the_token_withdraws_pending_escalations_and_updates_their_cards(harness: Harness) -> None:
    token = await harness.add_bot()
    escalation = await harness.escalate(token)
    await harness.eventually(lambda: any(escalation["id"] in str(m.blocks) for m in harness.emulator.messages))
    removed = await operator(harness, "bots", "remove", "ci-bot")
    assert removed.returncode == 0, removed.stderr
    assert "withdraws its 1 pending escalation" in removed.stdout
    for _ in range(200):  # another process removed it: on SQLite this server's Bot cache lets go within its TTL (2 s)
        status, _ = await harness.get(token, escalation["id"])
        if status == 401:
            break
        await asyncio.sleep(0.05)
    status, _ = await harness.post(token, harness.body())
    assert status == 401
    store = harness.runtime.store

    async def withdrawn() -> bool:
        row = await store.get_escalation(escalation["id"])
        return row is not None and row.status == "withdrawn"

    for _ in range(200):  # the server's sweeper (every 0.2 s here) withdraws it
        if await withdrawn():
            break
        await asyncio.sleep(0.05)
    row = await store.get_escalation(escalation["id"])
    assert row is not None and row.status == "withdrawn" and row.decision_source == "admin"
    await harness.eventually(lambda: APPROVE_ACTION not in json.dumps(harness.card_for(escalation["id"])["blocks"]))
    text = block_text(harness.card_for(escalation["id"])["blocks"])
    assert "Withdrawn" in text and "its Bot was removed" in text
    listed = await operator(harness, "bots", "list")
    assert "ci-bot" not in listed.stdout
    again = await operator(harness, "bots", "remove", "ci-bot")
    assert again.returncode == 2 and "no Bot named ci-bot" in again.stderr


async def test_set_changes_owners_and_room_and_the_next_card_follows(harness: Harness) -> None:
    token = await harness.add_bot()
    changed = await operator(harness, "bots", "set", "ci-bot", "--owner", OTHER, "--room", "C0GENERAL")
    assert changed.returncode == 0, changed.stderr
    assert "owners @Oscar; room #general; chat user (none" in changed.stdout, changed.stdout  # names, not ids
    escalation = await harness.escalate(token)
    await harness.eventually(lambda: any(escalation["id"] in str(m.blocks) for m in harness.emulator.messages))
    assert harness.card_for(escalation["id"])["channel"] == "C0GENERAL"
    await harness.click(OTHER, escalation["id"], APPROVE_ACTION)
    _, decided = await harness.get(token, escalation["id"], wait=10)
    assert decided["status"] == "approved" and decided["decided_by"] == OTHER
    chat = await operator(harness, "bots", "set", "ci-bot", "--chat-user", "U0CHATBOT")
    assert chat.returncode == 0 and f"chat user @{local_person_name('U0CHATBOT')}" in chat.stdout, chat.stderr
    for args, expect in [
        (("--owner", "olivia"), "not a Slack user ID"),
        (("--room", "#general"), "not a Slack channel"),
        (("--chat-user", "bot"), "not a Slack user ID"),
        ((), "nothing to change"),
    ]:
        bad = await operator(harness, "bots", "set", "ci-bot", *args)
        assert bad.returncode == 2 and expect in bad.stderr and len(bad.stderr.strip().splitlines()) == 1, bad.stderr


async def test_admin_tokens_list_and_revoke(harness: Harness) -> None:
    await harness.add_bot()
    made = await operator(harness, "admin-tokens", "add", "--user", ADMIN)
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip().splitlines()[-1]
    listed = await operator(harness, "admin-tokens", "list", "--json")
    (entry,) = json.loads(listed.stdout)
    assert entry["user"] == ADMIN and token not in listed.stdout
    url = f"{harness.url}/v1/standing-approvals"
    async with harness.http.get(url, headers={"Authorization": f"Bearer {token}"}) as response:
        assert response.status == 200
    revoked = await operator(harness, "admin-tokens", "revoke", entry["id"])
    assert revoked.returncode == 0, revoked.stderr
    async with harness.http.get(url, headers={"Authorization": f"Bearer {token}"}) as response:
        assert response.status == 401
    again = await operator(harness, "admin-tokens", "revoke", entry["id"])
    assert again.returncode == 2 and "no admin token" in again.stderr


async def test_audit_and_escalations_print_what_happened_with_bot_names(harness: Harness) -> None:
    token = await harness.add_bot()
    other = await harness.add_bot("other-bot")
    first = await harness.escalate(token)
    await harness.eventually(lambda: any(first["id"] in str(m.blocks) for m in harness.emulator.messages))
    await harness.click(OWNER, first["id"], APPROVE_ACTION)
    await harness.get(token, first["id"], wait=10)
    second = await harness.escalate(other, command="sudo systemctl restart nginx")
    pending = await operator(harness, "escalations", "--pending")
    assert pending.returncode == 0, pending.stderr
    (line,) = pending.stdout.strip().splitlines()
    assert "other-bot" in line and second["id"] in line and "sudo systemctl restart nginx" in line
    assert "bot_" not in line.replace(second["id"], "")
    everything = await operator(harness, "escalations", "--bot", "ci-bot")
    assert first["id"] in everything.stdout and "approved" in everything.stdout and "by=@Olivia" in everything.stdout
    audit = await operator(harness, "audit", "--since", "1h", "--bot", "ci-bot", "--json")
    assert audit.returncode == 0, audit.stderr
    rows = [json.loads(x) for x in audit.stdout.strip().splitlines()]
    assert {r["escalation_id"] for r in rows if r["escalation_id"]} == {first["id"]}
    assert {r["detail"]["bot"] for r in rows if not r["escalation_id"]} == {"ci-bot"}  # its bot.created row
    assert "escalation.approved" in [r["event"] for r in rows]
    readable = await operator(harness, "audit")
    assert "escalation.approved" in readable.stdout and "by=@Olivia" in readable.stdout
    assert "U0OWNER01" not in readable.stdout and "bot_" not in readable.stdout, readable.stdout
    bad = await operator(harness, "audit", "--since", "yesterday")
    assert bad.returncode == 2 and "like 30m, 24h, 7d or 2w" in bad.stderr
    await harness.escalate(other, command="echo safe #\u202e\nrm -rf ~")
    hidden = await operator(harness, "escalations", "--bot", "other-bot")
    assert "echo safe #\u27e8U+202E\u27e9 rm -rf ~" in hidden.stdout and "\u202e" not in hidden.stdout, hidden.stdout


async def test_the_audit_api_pages_through_the_trail_for_admins_only(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    for _ in range(3):
        await harness.escalate(token)
    admin = new_token()
    await harness.runtime.store.add_admin_token("adm_audit", hash_token(admin), ADMIN, datetime.now(UTC))
    seen: list[int] = []
    after = 0
    while True:
        async with harness.http.get(
            f"{harness.url}/v1/audit",
            params={"after": str(after), "limit": "2"},
            headers={"Authorization": f"Bearer {admin}"},
        ) as response:
            assert response.status == 200, await response.text()
            page = await response.json()
        seen += [item["id"] for item in page["items"]]
        if page["next"] is None:
            break
        after = page["next"]
    assert seen == sorted(seen) and len(seen) == len(set(seen)) >= 3
    everything = await harness.runtime.store.audit_log()
    assert seen == [e.id for e in everything]
    async with harness.http.get(f"{harness.url}/v1/audit", headers={"Authorization": f"Bearer {token}"}) as response:
        assert response.status == 401
    async with harness.http.get(
        f"{harness.url}/v1/audit", params={"limit": "0"}, headers={"Authorization": f"Bearer {admin}"}
    ) as response:
        assert response.status == 422 and (await response.json(content_type=None))["errors"][0]["field"] == "limit"


async def test_a_removed_bots_escalations_and_audit_rows_still_show_its_name_and_filter_by_it(
    harness: Harness,
) -> None:
    token = await harness.add_bot()
    await harness.add_bot("other-bot")
    escalation = await harness.escalate(token)
    removed = await operator(harness, "bots", "remove", "ci-bot")
    assert removed.returncode == 0, removed.stderr
    listed = await operator(harness, "escalations")
    assert listed.returncode == 0, listed.stderr
    (line,) = [x for x in listed.stdout.splitlines() if escalation["id"] in x]
    assert "ci-bot (removed)" in line and "bot_" not in line.replace(escalation["id"], ""), line
    by_name = await operator(harness, "escalations", "--bot", "ci-bot")
    assert by_name.returncode == 0 and escalation["id"] in by_name.stdout, by_name.stderr
    as_json = await operator(harness, "escalations", "--bot", "ci-bot", "--json")
    assert [json.loads(x)["bot"] for x in as_json.stdout.splitlines()] == ["ci-bot"]
    audit = await operator(harness, "audit", "--bot", "ci-bot")
    assert audit.returncode == 0, audit.stderr
    assert escalation["id"] in audit.stdout and "by=ci-bot (removed)" in audit.stdout, audit.stdout
    own = [json.loads(x) for x in (await operator(harness, "audit", "--bot", "ci-bot", "--json")).stdout.splitlines()]
    assert {"bot.created", "bot.removed"} <= {r["event"] for r in own}, own  # its own rows, not only its escalations'
    assert "other-bot" not in json.dumps(own), own
    everything = await operator(harness, "audit")
    assert "bot.removed" in everything.stdout and not re.search(r"bot_[0-9a-f]{16}", everything.stdout), (
        everything.stdout
    )
    assert "None" not in everything.stdout, everything.stdout  # empty fields are left out (room=None, ...)
    unknown = await operator(harness, "audit", "--bot", "never-was")
    assert unknown.returncode == 2 and "no Bot named never-was" in unknown.stderr
    assert "ci-bot" not in (await operator(harness, "bots", "list")).stdout  # still not listed as a Bot


async def test_bots_add_and_admin_tokens_add_are_audited_without_the_token(harness: Harness) -> None:
    added = await operator(harness, "bots", "add", "builder", "--owner", OWNER, "--room", "C0APPROVE")
    assert added.returncode == 0, added.stderr
    bot_token = added.stdout.strip().splitlines()[-1]
    again = await operator(harness, "bots", "add", "builder", "--owner", OWNER)
    assert again.returncode == 2  # the name is taken: nothing written, no audit row either
    admin = await operator(harness, "admin-tokens", "add", "--user", ADMIN)
    assert admin.returncode == 0, admin.stderr
    admin_token = admin.stdout.strip().splitlines()[-1]
    rows = [json.loads(x) for x in (await operator(harness, "audit", "--json")).stdout.splitlines()]
    created = [r for r in rows if r["event"] == "bot.created"]
    assert len(created) == 1 and created[0]["detail"]["bot"] == "builder", rows
    assert created[0]["actor"].startswith("operator:") and created[0]["detail"]["owners"] == [OWNER]
    (token_row,) = [r for r in rows if r["event"] == "admin_token.created"]
    assert token_row["detail"]["user"] == ADMIN and token_row["detail"]["token_id"].startswith("adm_")
    stored = json.dumps(rows)
    for secret in (bot_token, admin_token):
        assert secret not in stored and hash_token(secret) not in stored
    readable = (await operator(harness, "audit")).stdout
    assert "bot.created" in readable and "bot=builder" in readable and "admin_token.created" in readable, readable
    assert "None" not in readable, readable
