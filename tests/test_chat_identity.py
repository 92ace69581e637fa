"""The Bot's own chat identity never approves for itself ("the requester's own chat identity can never
approve"), whatever the surface: not an escalation (tested in test_two_person), and not the approvals that answer
its later requests on their own, a Bot- or session-wide standing approval (the card's "Always for this Bot" form,
``/flybot standing add``) or danger-full-access from its own blocked-host report.

The chat identity (``--chat-user``) is the Slack user the agent posts as. It may well be listed as an owner, or sit
in an owner group, next to the people who own the Bot; it still decides nothing in its own favour. A real FlyBot
against the Slack emulation (real signing), on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cards import (
    REPORT_APPROVE_TURN_ACTION,
    STANDING_BOT_ACTION,
    STANDING_SESSION_ACTION,
)
from tests.harness import OWNER, Harness
from tests.pg import migrated_store
from tests.test_reports import BOT_USER, get_report, report_ok
from tests.test_standing import modal_values

COMMAND = "sudo apt-get install -y jq"


@pytest.fixture(params=["sqlite", "postgresql"])
async def h(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    async with migrated_store(request.param, tmp_path) as url:
        harness = Harness(tmp=tmp_path, settings_overrides={"database_url": url})
        await harness.start()
        try:
            yield harness
        finally:
            await harness.close()


async def bot_owned_by_its_chat_user(h: Harness) -> str:
    """``ci-bot``, owned by Olivia AND by its own chat identity (a careless, but possible, registration)."""
    h.emulator.users.setdefault(
        BOT_USER, {"name": "ci-bot", "real_name": "ci-bot (agent)", "is_admin": False, "is_owner": False}
    )
    return await h.add_bot("ci-bot", owners=(OWNER, BOT_USER), chat_user=BOT_USER)


async def test_the_chat_identity_cannot_save_a_standing_approval_from_the_cards_form(h: Harness) -> None:
    token = await bot_owned_by_its_chat_user(h)
    esc = await h.escalate(token, command=COMMAND)
    await h.click(BOT_USER, esc["id"], STANDING_BOT_ACTION)
    await h.eventually(lambda: h.open_modal(BOT_USER) is not None or h.ephemerals(BOT_USER))
    modal = h.open_modal(BOT_USER)
    if modal is not None:  # the form opened: submitting it must save nothing either
        await h.submit_modal(BOT_USER, modal["id"], modal_values(modal["view"]))
    await h.click(BOT_USER, esc["id"], STANDING_SESSION_ACTION)
    await h.eventually(
        lambda: len(h.ephemerals(BOT_USER)) >= 1 and any("own chat identity" in t for t in h.ephemerals(BOT_USER))
    )
    assert await h.runtime.store.list_standing() == [], "nothing may answer its later requests"
    _, still = await h.get(token, esc["id"])
    assert still["status"] == "pending"
    again = await h.escalate(token, command=COMMAND, session_id="sess-2")
    assert again["status"] == "pending" and again["decision_source"] is None, again


async def test_the_chat_identity_cannot_add_a_standing_approval_with_the_slash_command(h: Harness) -> None:
    await bot_owned_by_its_chat_user(h)
    answer = await h.slash(BOT_USER, "standing add --bot ci-bot apt-get install")
    assert not answer.startswith("Saved") and "own chat identity" in answer, answer
    assert await h.runtime.store.list_standing() == []
    rows = await h.runtime.store.audit_log()
    assert any(r.event == "standing.refused" and r.actor == BOT_USER for r in rows)
    saved = await h.slash(OWNER, "standing add --bot ci-bot apt-get install")  # a person still can
    assert saved.startswith("Saved"), saved


async def test_the_chat_identity_cannot_unlock_its_own_blocked_host(h: Harness) -> None:
    token = await bot_owned_by_its_chat_user(h)
    report = await report_ok(h, token)
    await h.click(BOT_USER, report["id"], REPORT_APPROVE_TURN_ACTION)
    await h.eventually(lambda: any("own chat identity" in t for t in h.ephemerals(BOT_USER)))
    _, data = await get_report(h, token, report["id"])
    assert data["status"] == "open" and data["decided_by"] is None, data
    rows = await h.runtime.store.audit_log()
    assert any(r.event == "report.refused" and r.actor == BOT_USER and r.detail.get("why") == "requester" for r in rows)
    await h.click(OWNER, report["id"], REPORT_APPROVE_TURN_ACTION)  # an owner who is a person still decides
    _, data = await get_report(h, token, report["id"], wait=10)
    assert data["status"] == "approved_turn" and data["decided_by"] == OWNER
