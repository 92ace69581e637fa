"""Issue 15 in chat and over the API: standing approvals that could never match are refused on every surface; a
failed modal tells the owner; the card's reasons name their part of the command. Real FlyBot, real emulation."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.bots import hash_token, new_token
from cards import (
    APPROVE_ACTION,
    DENY_ACTION,
    STANDING_BOT_ACTION,
    STANDING_PATTERN_BLOCK,
    STANDING_PATTERN_INPUT,
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
        f"{harness.url}/v1/standing-approvals", json={"scope": "room", "room": ROOM, "pattern": "rm -rf"},
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
    async with harness.http.post(f"{harness.url}/v1/escalations/{esc['id']}/withdraw",
                                 headers={"Authorization": f"Bearer {token}"}) as response:
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
        return [m.text for m in harness.emulator.messages
                if m.ephemeral_to is None and harness.emulator.channels.get(m.channel, {}).get("user") == OTHER]

    await harness.eventually(dm_to_other)
    assert "only the owners of ci-bot" in dm_to_other()[-1]
    _, still = await harness.get(token, esc["id"])
    assert still["status"] == "pending"
