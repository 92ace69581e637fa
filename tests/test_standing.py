"""Standing approvals for a session, a Bot or a room — through chat, the admin API and the CLI."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.bots import update_bot
from cards import (
    APPROVE_ACTION,
    STANDING_BOT_ACTION,
    STANDING_EXPIRES_BLOCK,
    STANDING_EXPIRES_INPUT,
    STANDING_HOST_BLOCK,
    STANDING_HOST_INPUT,
    STANDING_NOTE_BLOCK,
    STANDING_NOTE_INPUT,
    STANDING_PATTERN_BLOCK,
    STANDING_PATTERN_INPUT,
    STANDING_REVOKE_ACTION,
    STANDING_RISK_BLOCK,
    STANDING_RISK_INPUT,
    STANDING_ROOM_ACTION,
    STANDING_SESSION_ACTION,
)
from tests.harness import ADMIN, OTHER, OWNER, ROOM, Harness, block_text


def cards_posted(harness: Harness) -> int:
    """Approval cards posted so far (chat.postMessage calls carrying buttons; later updates do not count)."""
    import json

    posts = [c["args"] for c in harness.emulator.calls if c["method"] == "chat.postMessage"]
    return sum(1 for args in posts if '"actions"' in json.dumps(args.get("blocks")))


async def asks(harness: Harness, token: str, **body: Any) -> dict[str, Any]:
    """Escalate and assert it produced a card (pending)."""
    before = cards_posted(harness)
    esc = await harness.escalate(token, **body)
    assert esc["status"] == "pending", esc
    assert cards_posted(harness) == before + 1
    return esc


async def auto(harness: Harness, token: str, **body: Any) -> dict[str, Any]:
    """Escalate and assert a standing approval answered it without a card."""
    before = cards_posted(harness)
    esc = await harness.escalate(token, **body)
    assert esc["status"] == "approved" and esc["decision_source"] == "standing_approval", esc
    assert esc["standing_approval_id"]
    assert cards_posted(harness) == before
    return esc


async def test_a_bot_wide_approval_answers_without_a_card_and_posts_a_notice(harness: Harness) -> None:
    token = await harness.add_bot()
    reply = await harness.slash(
        OWNER, "standing add --bot ci-bot apt-get install --max-risk network --note 'jq and friends'"
    )
    assert reply.startswith("Saved"), reply
    esc = await auto(harness, token, command="sudo apt-get install -y jq", contained=True)
    await harness.outbox_drained()
    [notice] = harness.notices()
    assert notice.channel == ROOM and notice.ephemeral_to is None
    text = block_text(notice.blocks)
    assert "ci-bot" in text and "apt-get install -y jq" in text and esc["standing_approval_id"] in text
    assert f"<@{OWNER}>" in text, "the notice names who set it"
    approval = await harness.runtime.store.get_standing(esc["standing_approval_id"])
    assert approval is not None and approval.use_count == 1 and approval.last_used_at is not None
    await auto(harness, token, command="apt-get install -y curl", contained=True)
    approval = await harness.runtime.store.get_standing(esc["standing_approval_id"])
    assert approval is not None and approval.use_count == 2


async def test_a_room_wide_approval_by_an_admin_covers_every_bot_in_the_room(harness: Harness) -> None:
    first = await harness.add_bot("first")
    await update_bot(harness.runtime.store, "first", actor="operator:test", allowed_rooms=["C0GENERAL"])
    second = await harness.add_bot("second", owners=("U0OWNER02",))
    reply = await harness.slash(ADMIN, "standing add --room npm test --max-risk system --host-ok")
    assert reply.startswith("Saved"), reply
    await auto(harness, first, command="npm test", contained=False)
    await auto(harness, second, command="npm test -- --watch=false", contained=False)
    # A room-wide approval belongs to the Bots registered in that room, whichever room a request names.
    await auto(harness, first, command="npm test", room="C0GENERAL")
    outsider = await harness.add_bot("outsider", room="C0GENERAL")
    await asks(harness, outsider, command="npm test")


async def test_what_a_standing_approval_does_not_cover_still_gets_a_card(harness: Harness) -> None:
    token = await harness.add_bot()
    await harness.slash(OWNER, "standing add --bot ci-bot apt-get install")  # max_risk workspace_write
    await asks(harness, token, command="apt-get install -y jq", contained=True)  # it downloads: network in the VM too
    await harness.slash(OWNER, "standing add --bot ci-bot apt-get install --max-risk network")
    await auto(harness, token, command="apt-get install -y jq", contained=True)
    await asks(harness, token, command="apt-get remove -y jq", contained=True)  # pattern does not match
    await asks(harness, token, command="apt-get install -y jq", contained=False)  # host, contained_only
    await asks(harness, token, command="apt-get install -y jq && make deploy", contained=True)  # one part uncovered
    await harness.slash(OWNER, "standing add --bot ci-bot systemctl --max-risk workspace_write --host-ok")
    await auto(harness, token, command="systemctl restart nginx", contained=True)  # workspace_write in the VM
    await asks(harness, token, command="systemctl restart nginx", contained=False)  # system on the host > max_risk


async def test_destructive_is_never_auto_approved_whatever_exists(harness: Harness) -> None:
    token = await harness.add_bot()
    assert (await harness.slash(ADMIN, "standing add --room * --max-risk system --host-ok")).startswith("Saved")
    assert "never covers destructive" in await harness.slash(ADMIN, "standing add --room * --max-risk destructive")
    esc = await asks(harness, token, command="rm -rf build", contained=True)
    assert esc["risk"] == "destructive"
    actions = [b for b in harness.card_for(esc["id"])["blocks"] if b.get("type") == "actions"][0]
    offered = {e["action_id"] for e in actions["elements"]}
    assert not offered & {STANDING_SESSION_ACTION, STANDING_BOT_ACTION, STANDING_ROOM_ACTION}
    await harness.click(OWNER, esc["id"], STANDING_SESSION_ACTION)  # forged: the button is not on the card
    await harness.eventually(lambda: harness.ephemerals(OWNER))
    _, still = await harness.get(token, esc["id"])
    assert still["status"] == "pending"


async def test_expired_and_revoked_approvals_stop_answering(harness: Harness) -> None:
    token = await harness.add_bot()
    reply = await harness.slash(OWNER, "standing add --bot ci-bot apt-get install --max-risk network --expires 1s")
    assert reply.startswith("Saved"), reply
    await asyncio.sleep(1.2)
    await asks(harness, token, command="apt-get install -y jq", contained=True)
    await harness.slash(OWNER, "standing add --bot ci-bot apt-get install --max-risk network")
    esc = await auto(harness, token, command="apt-get install -y jq", contained=True)
    reply = await harness.slash(OWNER, f"standing revoke {esc['standing_approval_id']}")
    assert reply.startswith("Revoked"), reply
    await asks(harness, token, command="apt-get install -y jq", contained=True)


async def test_only_admins_set_room_wide_approvals_by_slash_command(harness: Harness) -> None:
    await harness.add_bot()
    for user in (OWNER, OTHER):
        reply = await harness.slash(user, "standing add --room apt-get install")
        assert "only admins" in reply, reply
    reply = await harness.slash(OTHER, "standing add --bot ci-bot apt-get install")
    assert "only the owners of ci-bot" in reply
    assert await harness.runtime.store.list_standing() == []
    refusals = [e for e in await harness.runtime.store.audit_log() if e.event == "standing.refused"]
    assert len(refusals) == 3


async def test_a_slack_workspace_admin_counts_as_an_admin(harness: Harness) -> None:
    await harness.add_bot()
    harness.emulator.users["U0WSADMIN"] = {"name": "wes", "real_name": "Wes", "is_admin": True, "is_owner": False}
    reply = await harness.slash("U0WSADMIN", "standing add --room npm test")
    assert reply.startswith("Saved"), reply


async def test_an_admin_of_another_organisation_is_no_admin_here(harness: Harness) -> None:
    # In a Slack Connect channel a person of another organisation can type the slash command; users.info then
    # describes them as their own workspace knows them (its admin), which is no admin of this one
    await harness.add_bot()
    for user, info in (
        ("U0EXTADM1", {"team_id": "T0OTHERORG", "is_admin": True, "is_owner": True}),
        ("U0EXTADM2", {"team_id": "T0OTHERORG", "is_admin": True, "enterprise_user": {"enterprise_id": "E0OTHER"}}),
        ("U0GUESTAD", {"is_admin": True, "is_restricted": True}),
        ("U0STRANGE", {"is_admin": True, "is_stranger": True}),
    ):
        harness.emulator.users[user] = {"name": user.lower(), "real_name": user, **info}
        for text in ("standing add --room npm test", "rule set frobnicate read_only"):
            reply = await harness.slash(user, text)
            assert "admin" in reply and not reply.startswith(("Saved", "Program rule")), (user, text, reply)
    assert await harness.runtime.store.list_standing() == []
    assert await harness.runtime.store.program_rules() == []
    harness.emulator.users["U0WSADMIN"] = {"name": "wes", "real_name": "Wes", "is_admin": True, "is_owner": False}
    reply = await harness.slash("U0WSADMIN", "rule set frobnicate read_only")  # this workspace's admin still is one
    assert "frobnicate" in reply and "read_only" in reply and "admin" not in reply, reply


async def test_bad_slash_input_gets_a_clear_answer_and_changes_nothing(harness: Harness) -> None:
    await harness.add_bot()
    for text, expect in [
        ("standing add --bot ci-bot apt-get install --max-risk huge", "unknown risk level"),
        ("standing add --bot ci-bot apt-get install --expires forever", "expiry"),
        ("standing add --bot nobody apt-get install", "no Bot named nobody"),
        ("standing add apt-get install", "Usage"),
        ("standing add --bot ci-bot 'rm -rf' $(x)", "no shell syntax"),
        ("standing revoke sa_nope", "no standing approval"),
    ]:
        reply = await harness.slash(OWNER, text)
        assert expect in reply, (text, reply)
    assert await harness.runtime.store.list_standing() == []


def modal_values(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What a person submits when they accept the modal as shown (its initial values)."""
    values: dict[str, dict[str, Any]] = {}
    for block in view["blocks"]:
        if block.get("type") != "input":
            continue
        element = block["element"]
        if element["type"] == "plain_text_input":
            value: Any = element.get("initial_value", "")
        elif element["type"] in ("static_select", "radio_buttons"):
            value = {"type": element["type"], "selected_option": element["initial_option"]}
        else:
            value = {"type": "checkboxes", "selected_options": element.get("initial_options", [])}
        values[block["block_id"]] = {element["action_id"]: value}
    return values


async def test_always_for_this_bot_creates_exactly_what_the_modal_showed(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await asks(harness, token, command="sudo apt-get install -y jq", contained=True)
    await harness.click(OWNER, esc["id"], STANDING_BOT_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER))
    modal = harness.open_modal(OWNER)
    values = modal_values(modal["view"])
    assert values[STANDING_PATTERN_BLOCK][STANDING_PATTERN_INPUT] == "apt-get install"
    values[STANDING_NOTE_BLOCK] = {STANDING_NOTE_INPUT: "toolchain installs"}
    result = await harness.submit_modal(OWNER, modal["id"], values)
    assert result["status"] == 200
    _, decided = await harness.get(token, esc["id"], wait=10)
    assert decided["status"] == "approved" and decided["decided_by"] == OWNER
    (approval,) = await harness.runtime.store.list_standing()
    shown_risk = values[STANDING_RISK_BLOCK][STANDING_RISK_INPUT]["selected_option"]["value"]
    assert (approval.scope, approval.subject, approval.pattern, approval.max_risk) == (
        "bot",
        esc["bot_id"],
        "apt-get install",
        shown_risk,
    )
    assert approval.contained_only is True and approval.note == "toolchain installs"
    assert approval.expires_at is not None and approval.created_by == OWNER
    await harness.eventually(lambda: any(approval.id in text for text in harness.ephemerals(OWNER)))
    [told] = [text for text in harness.ephemerals(OWNER) if approval.id in text]
    assert "sandbox only" in told, told
    await auto(harness, token, command="apt-get install -y ripgrep", contained=True)


async def test_the_modal_refuses_bad_input_inline_and_saves_nothing(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await asks(harness, token, command="apt-get install -y jq", contained=True)
    await harness.click(OWNER, esc["id"], STANDING_BOT_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER))
    modal = harness.open_modal(OWNER)
    values = modal_values(modal["view"])
    values[STANDING_EXPIRES_BLOCK] = {STANDING_EXPIRES_INPUT: "forever"}
    await harness.submit_modal(OWNER, modal["id"], values)
    still_open = harness.open_modal(OWNER)
    assert still_open is not None and STANDING_EXPIRES_BLOCK in still_open["errors"]
    assert await harness.runtime.store.list_standing() == []
    _, now = await harness.get(token, esc["id"])
    assert now["status"] == "pending"


async def test_a_cards_old_always_for_this_room_button_is_refused_to_a_non_admin(harness: Harness) -> None:
    """Cards posted before the room choice moved into the modal still carry the button."""
    token = await harness.add_bot()
    esc = await asks(harness, token, command="apt-get install -y jq", contained=True)
    await harness.click(OWNER, esc["id"], STANDING_ROOM_ACTION)
    await harness.eventually(lambda: harness.ephemerals(OWNER))
    assert "only admins" in harness.ephemerals(OWNER)[-1]
    assert harness.open_modal(OWNER) is None
    await harness.click(ADMIN, esc["id"], STANDING_ROOM_ACTION)
    await harness.eventually(lambda: harness.open_modal(ADMIN))
    modal = harness.open_modal(ADMIN)
    values = modal_values(modal["view"])
    values[STANDING_HOST_BLOCK] = {
        STANDING_HOST_INPUT: {"type": "checkboxes", "selected_options": [{"value": "host_ok"}]}
    }
    await harness.submit_modal(ADMIN, modal["id"], values)
    (approval,) = await harness.runtime.store.list_standing()
    assert approval.scope == "room" and approval.subject == ROOM and approval.contained_only is False


async def test_approve_for_this_session_covers_only_that_session(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await asks(harness, token, command="apt-get install -y jq", contained=True, session_id="s-1")
    await harness.click(OWNER, esc["id"], STANDING_SESSION_ACTION)
    _, decided = await harness.get(token, esc["id"], wait=10)
    assert decided["status"] == "approved" and decided["decision_source"] == "owner"
    await harness.eventually(lambda: harness.ephemerals(OWNER))
    await auto(harness, token, command="apt-get install -y curl", contained=True, session_id="s-1")
    await asks(harness, token, command="apt-get install -y curl", contained=True, session_id="s-2")


async def test_a_non_owner_gets_no_standing_choice(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await asks(harness, token, command="apt-get install -y jq", contained=True)
    for action in (STANDING_SESSION_ACTION, STANDING_BOT_ACTION):
        await harness.click(OTHER, esc["id"], action)
    await harness.eventually(lambda: len(harness.ephemerals(OTHER)) == 2)
    assert harness.open_modal(OTHER) is None
    assert await harness.runtime.store.list_standing() == []
    _, now = await harness.get(token, esc["id"])
    assert now["status"] == "pending"


async def test_app_home_lists_and_revokes(harness: Harness) -> None:
    token = await harness.add_bot()
    await harness.slash(OWNER, "standing add --bot ci-bot apt-get install")
    pending = await asks(harness, token, command="make deploy", contained=False)
    home = await harness.open_home(OWNER)
    text = block_text(home["blocks"])
    assert "ci-bot" in text and "make deploy" in text and "apt-get install" in text
    revoke = [
        e
        for b in home["blocks"]
        if b.get("type") == "actions"
        for e in b["elements"]
        if e["action_id"] == STANDING_REVOKE_ACTION
    ]
    assert len(revoke) == 1
    other_home = await harness.open_home(OTHER)
    assert not any(
        e.get("action_id") == STANDING_REVOKE_ACTION
        for b in other_home["blocks"]
        if b.get("type") == "actions"
        for e in b["elements"]
    )
    await harness.click_in_view(OTHER, f"VH{OTHER}", STANDING_REVOKE_ACTION, revoke[0]["value"])
    await asyncio.sleep(0.3)
    assert (await harness.runtime.store.get_standing(revoke[0]["value"])).revoked_at is None  # type: ignore[union-attr]
    await harness.click_in_view(OWNER, f"VH{OWNER}", STANDING_REVOKE_ACTION, revoke[0]["value"])
    await harness.eventually(
        lambda: (
            not any(
                e.get("action_id") == STANDING_REVOKE_ACTION
                for b in harness.emulator.home[OWNER].view["blocks"]
                if b.get("type") == "actions"
                for e in b["elements"]
            )
        )
    )
    approval = await harness.runtime.store.get_standing(revoke[0]["value"])
    assert approval is not None and approval.revoked_by == OWNER
    await harness.click_in_view(OWNER, f"VH{OWNER}", APPROVE_ACTION, pending["id"])
    _, decided = await harness.get(token, pending["id"], wait=10)
    assert decided["status"] == "approved"


async def _admin_token(harness: Harness, user: str = ADMIN) -> str:
    from datetime import UTC, datetime

    from bot.bots import hash_token, new_token

    token = new_token()
    await harness.runtime.store.add_admin_token("adm_test", hash_token(token), user, datetime.now(UTC))
    return token


async def test_admin_api_creates_lists_and_revokes(harness: Harness) -> None:
    bot_token = await harness.add_bot()
    admin = await _admin_token(harness)
    url = f"{harness.url}/v1/standing-approvals"
    auth = {"Authorization": f"Bearer {admin}"}
    async with harness.http.post(
        url, json={"scope": "bot", "bot": "ci-bot", "pattern": "apt-get install", "max_risk": "network"}, headers=auth
    ) as r:
        assert r.status == 201
        created = await r.json()
    assert created["max_risk"] == "network" and created["contained_only"] is True
    await auto(harness, bot_token, command="apt-get install -y jq", contained=True)
    async with harness.http.get(url, headers=auth) as r:
        assert [i["id"] for i in (await r.json())["items"]] == [created["id"]]
    async with harness.http.delete(f"{url}/{created['id']}", headers=auth) as r:
        assert r.status == 200 and (await r.json())["revoked_by"] == ADMIN
    async with harness.http.delete(f"{url}/{created['id']}", headers=auth) as r:
        assert r.status == 409
    await asks(harness, bot_token, command="apt-get install -y jq", contained=True)


async def test_admin_api_refuses_bot_tokens_and_bad_bodies(harness: Harness) -> None:
    bot_token = await harness.add_bot()
    admin = await _admin_token(harness)
    url = f"{harness.url}/v1/standing-approvals"
    body = {"scope": "room", "room": ROOM, "pattern": "npm test"}
    async with harness.http.post(url, json=body, headers={"Authorization": f"Bearer {bot_token}"}) as r:
        assert r.status == 401 and (await r.json(content_type=None))["code"] == "unauthorized"
    for bad, field in [
        ({**body, "max_risk": "destructive"}, "max_risk"),
        ({**body, "room": "#general"}, "room"),
        ({**body, "expires": "7 days"}, "expires"),
        ({"scope": "bot", "pattern": "x"}, "bot"),
        ({**body, "surprise": True}, "surprise"),
    ]:
        async with harness.http.post(url, json=bad, headers={"Authorization": f"Bearer {admin}"}) as r:
            data = await r.json(content_type=None)
            assert r.status == 422 and data["errors"][0]["field"] == field, data
    assert await harness.runtime.store.list_standing() == []


# -- "Approve for this session" on a compound command --------------------------------------------------------------
@pytest.mark.parametrize(
    "prefix", ["cd /srv/app", "pushd /srv/app", "export LANG=C.UTF-8", "set -e", "true", "cd /srv/app && set -e"]
)
async def test_approve_for_this_session_on_a_compound_command_covers_the_part_that_needed_approval(
    harness: Harness, prefix: str
) -> None:
    token = await harness.add_bot()
    command = f"{prefix} && sudo apt-get install -y jq"
    esc = await harness.escalate(token, command=command, contained=True, session_id="s-compound")
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    assert "Approve for this session saves: apt-get install" in block_text(harness.card_for(esc["id"])["blocks"])
    await harness.click(OWNER, esc["id"], STANDING_SESSION_ACTION)
    await harness.eventually(lambda: any("Until the session ends" in t for t in harness.ephemerals(OWNER)))
    (saved,) = await harness.runtime.store.list_standing()
    assert saved.pattern == "apt-get install" and saved.scope == "session"
    again = await harness.escalate(token, command=command, contained=True, session_id="s-compound")
    assert again["status"] == "approved" and again["decision_source"] == "standing_approval"
    other = await harness.escalate(token, command=command, contained=True, session_id="s-other")
    assert other["status"] == "pending"


async def test_approve_for_this_session_names_and_saves_each_part_that_needs_cover(harness: Harness) -> None:
    token = await harness.add_bot()
    command = "cd /work/repo/app && sudo apt-get install -y jq && npm test && make"  # the recipes run in the workspace
    esc = await harness.escalate(token, command=command, contained=True, session_id="s-many")
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    assert "saves: apt-get install \u00b7 npm test \u00b7 make" in block_text(harness.card_for(esc["id"])["blocks"])
    await harness.click(OWNER, esc["id"], STANDING_SESSION_ACTION)
    await harness.eventually(lambda: any("Until the session ends" in t for t in harness.ephemerals(OWNER)))
    reply = next(t for t in harness.ephemerals(OWNER) if "Until the session ends" in t)
    assert "`apt-get install`" in reply and "`npm test`" in reply and "`make`" in reply and " are approved" in reply
    assert sorted(a.pattern for a in await harness.runtime.store.list_standing()) == [
        "apt-get install",
        "make",
        "npm test",
    ]
    again = await harness.escalate(token, command=command, contained=True, session_id="s-many")
    assert again["status"] == "approved"
    wider = await harness.escalate(
        token, command=command + " && curl -s https://example.com", contained=True, session_id="s-many"
    )
    assert wider["status"] == "pending", "a part nobody approved still asks"


async def test_a_risky_export_prefix_still_needs_cover(harness: Harness) -> None:
    token = await harness.add_bot()
    await harness.slash(OWNER, "standing add --bot ci-bot apt-get install --max-risk system --host-ok")
    for command in (
        "export PATH=/tmp:$PATH && sudo apt-get install -y jq",
        "export LD_PRELOAD=/tmp/x.so && sudo apt-get install -y jq",
        "cd /srv/app && rm -rf build && sudo apt-get install -y jq",
        "export DEBIAN_FRONTEND=noninteractive && sudo apt-get install -y jq",
        "export APT_CONFIG=/tmp/x && sudo apt-get install -y jq",
    ):
        esc = await harness.escalate(token, command=command, contained=True)
        assert esc["status"] == "pending", command
    ok = await harness.escalate(token, command="cd /srv/app && sudo apt-get install -y jq", contained=True)
    assert ok["status"] == "approved"


async def test_approve_for_this_session_on_curl_with_options_first_covers_that_url_only(harness: Harness) -> None:
    token = await harness.add_bot()
    command = "curl -s https://api.github.com/repos/acme/x"
    esc = await asks(harness, token, command=command, session_id="s-curl")
    assert f"Approve for this session saves: {command}" in block_text(harness.card_for(esc["id"])["blocks"])
    await harness.click(OWNER, esc["id"], STANDING_SESSION_ACTION)
    _, decided = await harness.get(token, esc["id"], wait=10)
    assert decided["status"] == "approved"
    await harness.eventually(lambda: harness.ephemerals(OWNER))
    await auto(harness, token, command=command, session_id="s-curl")
    for other in (
        "curl -s https://evil.example/",
        "curl -s https://api.github.com/repos/acme/y",
        "curl https://evil.example/",
    ):
        await asks(harness, token, command=other, session_id="s-curl")
