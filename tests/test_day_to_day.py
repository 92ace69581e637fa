"""Day-to-day use in chat and over the API: standing approvals that could never match are refused on every surface; a
failed modal tells the owner; the card's reasons name their part of the command. Real FlyBot, real emulation."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from bot.bots import hash_token, new_token
from cards import (
    APPROVE_ACTION,
    DENY_ACTION,
    STANDING_BOT_ACTION,
    STANDING_PATTERN_BLOCK,
    STANDING_PATTERN_INPUT,
    STANDING_SESSION_ACTION,
)
from tests.harness import ADMIN, OTHER, OWNER, ROOM, Harness, block_text
from tests.test_standing import asks, modal_values


async def test_a_destructive_pattern_is_refused_by_the_slash_command_with_the_reason(harness: Harness) -> None:
    await harness.add_bot()
    reply = await harness.slash(OWNER, "standing add --bot ci-bot 'rm -rf'")
    assert "`rm -rf` is destructive (rm deletes)" in reply and "could never match" in reply, reply
    reply = await harness.slash(OWNER, "standing add --bot ci-bot mytool build")
    assert "mytool is not a recognised program" in reply, reply
    assert await harness.runtime.store.list_standing() == []


async def test_max_risk_lists_only_the_levels_it_accepts(harness: Harness) -> None:
    await harness.add_bot()
    bogus = await harness.slash(OWNER, "standing add --bot ci-bot npm test --max-risk bogus")
    assert "read_only, workspace_write, network, system" in bogus and "destructive" not in bogus, bogus
    destructive = await harness.slash(OWNER, "standing add --bot ci-bot npm test --max-risk destructive")
    assert "could never match" in destructive, destructive
    assert await harness.runtime.store.list_standing() == []


async def test_a_destructive_pattern_is_refused_inline_in_the_modal(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await asks(harness, token, command="apt-get install -y jq", contained=True)
    await harness.click(OWNER, esc["id"], STANDING_BOT_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER))
    modal = harness.open_modal(OWNER)
    values = modal_values(modal["view"])
    values[STANDING_PATTERN_BLOCK] = {STANDING_PATTERN_INPUT: "git clean"}
    await harness.submit_modal(OWNER, modal["id"], values)
    still_open = harness.open_modal(OWNER)
    assert still_open is not None, "the modal closed on a pattern that can never match"
    assert "could never match" in still_open["errors"][STANDING_PATTERN_BLOCK]
    assert await harness.runtime.store.list_standing() == []


async def test_a_destructive_pattern_is_refused_by_the_admin_api_naming_the_field(harness: Harness) -> None:
    await harness.add_bot()
    admin = new_token()
    await harness.runtime.store.add_admin_token("adm_t15", hash_token(admin), ADMIN, datetime.now(UTC))
    async with harness.http.post(
        f"{harness.url}/v1/standing-approvals",
        json={"scope": "room", "room": ROOM, "pattern": "rm -rf"},
        headers={"Authorization": f"Bearer {admin}"},
    ) as response:
        data = await response.json(content_type=None)
    assert response.status == 422 and data["errors"][0]["field"] == "pattern", data
    assert "could never match" in data["errors"][0]["message"] or "could never match" in data["detail"], data
    assert await harness.runtime.store.list_standing() == []


async def test_a_deny_form_slack_did_not_open_tells_the_owner_and_decides_nothing(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    await harness.eventually(lambda: any(m.ephemeral_to is None for m in harness.emulator.messages))
    await harness.fault("views.open", status=200, count=1, error="expired_trigger_id")
    await harness.click(OWNER, esc["id"], DENY_ACTION)
    await harness.eventually(lambda: harness.ephemerals(OWNER))
    assert harness.ephemerals(OWNER)[-1].startswith("Slack did not open the form in time \u2014 click Deny again")
    assert harness.open_modal(OWNER) is None
    _, still = await harness.get(token, esc["id"])
    assert still["status"] == "pending"
    await harness.click(OWNER, esc["id"], DENY_ACTION)  # clicking again works: the form opens
    await harness.eventually(lambda: harness.open_modal(OWNER))


async def test_a_standing_form_slack_did_not_open_names_the_button_to_click_again(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await asks(harness, token, command="apt-get install -y jq", contained=True)
    await harness.fault("views.open", status=200, count=1, error="view_too_large")
    await harness.click(OWNER, esc["id"], STANDING_BOT_ACTION)
    await harness.eventually(lambda: harness.ephemerals(OWNER))
    assert "click Always for this Bot again" in harness.ephemerals(OWNER)[-1]
    assert await harness.runtime.store.list_standing() == []


async def test_a_withdrawn_card_and_a_late_click_name_no_internal_id_and_repeat_nothing(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    async with harness.http.post(
        f"{harness.url}/v1/escalations/{esc['id']}/withdraw", headers={"Authorization": f"Bearer {token}"}
    ) as response:
        assert response.status == 200
    await harness.eventually(lambda: "Withdrawn" in block_text(harness.card_for(esc["id"])["blocks"]))
    card = block_text(harness.card_for(esc["id"])["blocks"])
    assert "bot_" not in card and "Note:" not in card, card
    assert "the session withdrew the request" in card
    await harness.click(OWNER, esc["id"], APPROVE_ACTION)
    await harness.eventually(lambda: harness.ephemerals(OWNER))
    late = harness.ephemerals(OWNER)[-1]
    assert late.startswith("This request was withdrawn by the session at") and "bot_" not in late, late


async def test_a_late_click_names_the_person_who_decided_as_a_mention(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    await harness.click(ADMIN, esc["id"], APPROVE_ACTION)
    await harness.get(token, esc["id"], wait=10)
    await harness.click(OWNER, esc["id"], DENY_ACTION)
    await harness.eventually(lambda: harness.ephemerals(OWNER))
    assert harness.ephemerals(OWNER)[-1].startswith(f"This request was already approved by <@{ADMIN}> at")


async def test_a_refusal_slack_would_not_show_ephemerally_reaches_the_person_by_dm(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    await harness.fault("chat.postEphemeral", status=200, count=1, error="not_in_channel")
    await harness.click(OTHER, esc["id"], APPROVE_ACTION)

    def dm_to_other() -> list[str]:
        return [
            m.text
            for m in harness.emulator.messages
            if m.ephemeral_to is None and harness.emulator.channels.get(m.channel, {}).get("user") == OTHER
        ]

    await harness.eventually(dm_to_other)
    assert "only the owners of ci-bot" in dm_to_other()[-1]
    _, still = await harness.get(token, esc["id"])
    assert still["status"] == "pending"


async def test_the_api_names_who_decided_with_hidden_characters_made_visible(harness: Harness) -> None:
    harness.emulator.users[ADMIN]["display_name"] = "Ada\u202e\u2066 <@U0EVIL>"
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    assert esc["decided_by_name"] is None
    await harness.click(ADMIN, esc["id"], APPROVE_ACTION)
    _, decided = await harness.get(token, esc["id"], wait=10)
    assert decided["decided_by"] == ADMIN, decided
    assert decided["decided_by_name"] == "@Ada\u27e8U+202E\u27e9\u27e8U+2066\u27e9 <@U0EVIL>", decided


async def test_a_slow_directory_never_holds_the_answer_back_and_the_id_stands_in(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    await harness.fault("users.info", count=5, delay_s=5.0)
    await harness.click(OWNER, esc["id"], APPROVE_ACTION)
    started = time.monotonic()
    _, decided = await harness.get(token, esc["id"], wait=10)
    assert decided["status"] == "approved" and decided["decided_by_name"] == OWNER, decided
    assert time.monotonic() - started < 4.0


async def test_app_home_names_the_bot_and_room_an_approval_covers_never_their_ids(harness: Harness) -> None:
    token = await harness.add_bot()
    assert (await harness.slash(OWNER, "standing add --bot ci-bot apt-get install")).startswith("Saved")
    assert (await harness.slash(ADMIN, "standing add --room make lint")).startswith("Saved")
    esc = await asks(harness, token, command="npm test", contained=True, session_id="s-42")
    await harness.click(OWNER, esc["id"], STANDING_SESSION_ACTION)
    await harness.get(token, esc["id"], wait=10)
    home = await harness.open_home(ADMIN)
    text = block_text(home["blocks"]).replace("\n", "")
    assert " bot ci-bot: " in text and " session ci-bot/s-42: " in text and f" room <#{ROOM}>: " in text, text
    assert "bot_" not in text, text


async def test_the_slash_command_takes_a_channel_after_room_as_the_command_line_does(harness: Harness) -> None:
    await harness.add_bot()
    reply = await harness.slash(ADMIN, "standing add --room C0GENERAL make lint", channel=ROOM)
    assert reply.startswith("Saved") and "<#C0GENERAL>" in reply, reply
    (approval,) = await harness.runtime.store.list_standing()
    assert approval.scope == "room" and approval.subject == "C0GENERAL" and approval.pattern == "make lint"
    here = await harness.slash(ADMIN, "standing add --room <#C0APPROVE|flybot-approvals> npm test", channel="C0GENERAL")
    assert here.startswith("Saved") and f"<#{ROOM}>" in here, here
    listed = await harness.slash(ADMIN, "standing list --room C0GENERAL")
    assert "make lint" in listed and "npm test" not in listed, listed


async def test_a_card_slack_would_not_update_after_a_decision_tells_the_person_who_decided(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token, command="sudo apt-get install -y jq")
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    await harness.fault("chat.update", status=500, count=1000)
    await harness.click(OWNER, esc["id"], APPROVE_ACTION)
    _, decided = await harness.get(token, esc["id"], wait=10)
    assert decided["status"] == "approved"  # the session's answer never waits for the card
    await harness.eventually(lambda: harness.ephemerals(OWNER), timeout=20)
    told = harness.ephemerals(OWNER)[-1]
    assert told.startswith("You approved ci-bot's request `sudo apt-get install -y jq`"), told
    assert f"Slack did not update the card in <#{ROOM}> (`internal_error`): it may still show buttons" in told, told
    updates = [c for c in harness.emulator.calls if c["method"] == "chat.update"]
    # Retried with backoff (0.5 s, 1 s, 2 s...) up to the harness's 3 s delivery deadline: at least one retry, however
    # late a loaded machine ran the first attempt.
    assert len(updates) >= 2, "the redraw is retried until its delivery deadline before anyone is told"
    audit = await harness.runtime.store.audit_page(after_id=0, since=None, bot_id=None, limit=500)
    assert [(r.event, r.detail.get("told")) for r in audit if r.event == "card.not_updated"] == [
        ("card.not_updated", OWNER)
    ]


async def test_a_refused_redraw_reaches_the_decider_by_dm_when_the_room_refuses_the_ephemeral(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token)
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    await harness.fault("chat.update", status=200, count=1, error="cant_update_message")
    await harness.fault("chat.postEphemeral", status=200, count=1, error="not_in_channel")
    await harness.click(ADMIN, esc["id"], APPROVE_ACTION)

    def dm_to_admin() -> list[str]:
        return [
            m.text
            for m in harness.emulator.messages
            if m.ephemeral_to is None and harness.emulator.channels.get(m.channel, {}).get("user") == ADMIN
        ]

    await harness.eventually(dm_to_admin, timeout=10)
    assert "Slack did not update the card" in dm_to_admin()[-1] and "(`cant_update_message`)" in dm_to_admin()[-1]


async def test_an_expired_card_slack_would_not_update_tells_nobody(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token, timeout_s=5)
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    await harness.fault("chat.update", status=200, count=1, error="cant_update_message")
    await harness.get(token, esc["id"], wait=10)
    await harness.eventually(lambda: any(c["method"] == "chat.update" for c in harness.emulator.calls), timeout=15)
    await harness.outbox_drained()
    assert not any(c["method"] in ("chat.postEphemeral", "conversations.open") for c in harness.emulator.calls)


async def test_a_report_dm_slack_would_not_update_after_a_decision_tells_the_person_who_decided(
    harness: Harness,
) -> None:
    from cards import REPORT_APPROVE_TURN_ACTION
    from tests.test_reports import add_bot as add_report_bot
    from tests.test_reports import dms, report_ok

    token = await add_report_bot(harness)
    report = await report_ok(harness, token)
    await harness.eventually(lambda: dms(harness, OWNER, report["id"]))
    await harness.fault("chat.update", status=200, count=5, error="message_not_found")
    await harness.click(OWNER, report["id"], REPORT_APPROVE_TURN_ACTION)

    def told() -> list[str]:
        return [
            m.text
            for m in harness.emulator.messages
            if m.ephemeral_to is None
            and m.blocks == []
            and harness.emulator.channels.get(m.channel, {}).get("user") == OWNER
        ]

    await harness.eventually(told, timeout=10)
    assert told()[-1].startswith("You approved danger-full-access for one turn on ci-bot's blocked report"), told()
    assert "(`message_not_found`)" in told()[-1]


async def test_a_refused_revoke_from_app_home_is_answered_and_a_home_slack_would_not_redraw_is_told(
    harness: Harness,
) -> None:
    from cards import STANDING_REVOKE_ACTION

    await harness.add_bot()
    assert (await harness.slash(OWNER, "standing add --bot ci-bot apt-get install")).startswith("Saved")
    (approval,) = await harness.runtime.store.list_standing()
    await harness.open_home(OWNER)

    await harness.click_in_view(OTHER, f"VH{OTHER}", STANDING_REVOKE_ACTION, approval.id)
    await harness.eventually(lambda: harness.ephemerals(OTHER))  # a refusal, never silence (in their DM with FlyBot)
    assert "owners" in harness.ephemerals(OTHER)[-1] or "admins" in harness.ephemerals(OTHER)[-1]
    await harness.eventually(lambda: OTHER in harness.emulator.home)  # their Home redrawn before the fault below
    await harness.fault("views.publish", status=200, count=1, error="not_enabled")
    before = len(harness.ephemerals(OWNER))
    await harness.click_in_view(OWNER, f"VH{OWNER}", STANDING_REVOKE_ACTION, approval.id)
    await harness.eventually(lambda: len(harness.ephemerals(OWNER)) > before)
    told = harness.ephemerals(OWNER)[-1]
    assert told.startswith("Done, but Slack did not refresh your FlyBot Home tab (not_enabled)"), told
    revoked = await harness.runtime.store.get_standing(approval.id)
    assert revoked is not None and revoked.revoked_by == OWNER
