"""Behaviour of the approval card, its modals and the ephemeral texts."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from cards_testkit import (
    DECIDED,
    REASONS,
    assert_inert_mrkdwn_string,
    assert_mrkdwn_is_flybot_wording,
    buttons,
    literal_texts,
    make_escalation,
    preformatted_texts,
    validate_message,
    validate_view,
    walk,
)

from cards import (
    APPROVE_ACTION,
    DENY_ACTION,
    DENY_MODAL_CALLBACK,
    DENY_REASON_BLOCK,
    DENY_REASON_INPUT,
    HOST_STATEMENT,
    REVIEW_APPROVE_ACTION,
    REVIEW_MODAL_CALLBACK,
    SANDBOX_STATEMENT,
    SHOW_COMMAND_ACTION,
    STANDING_BOT_ACTION,
    CardReason,
    actions_block_id,
    already_decided_text,
    approval_card,
    deny_reason_modal,
    escalation_id_from_block_id,
    full_command_modal,
    not_allowed_text,
)
from cards.text import clean

HOSTILE = "<!channel> <@U123> <https://evil|click> *bold* _it_ ~s~ `code` &amp;"
FINAL = ("approved", "denied", "expired", "withdrawn", "undeliverable")


def _decided(status: str, **overrides):
    return make_escalation(status=status, decided_at=DECIDED, **overrides)


def _action_ids(blocks) -> list[str]:
    return [b["action_id"] for b in buttons(blocks)]


def _all_text(node) -> str:
    return "".join(literal_texts(node))


# --- placement and structure ---------------------------------------------------------------------


@pytest.mark.parametrize("status", ("pending", *FINAL))
@pytest.mark.parametrize(("contained", "statement"), [(True, SANDBOX_STATEMENT), (False, HOST_STATEMENT)])
def test_placement_statement_is_first_block_after_header(status: str, contained: bool, statement: str) -> None:
    blocks = approval_card(make_escalation(status=status, contained=contained)).blocks
    assert blocks[0]["type"] == "header"
    assert blocks[1] == {"type": "section", "text": {"type": "mrkdwn", "text": statement}}


def test_statements_say_where_effects_go() -> None:
    assert "discarded micro-VM" in SANDBOX_STATEMENT and "only a workspace file sync comes back" in SANDBOX_STATEMENT
    assert "on the host" in HOST_STATEMENT.lower() and "permanent" in HOST_STATEMENT


def test_pending_card_has_approve_and_deny_carrying_the_id() -> None:
    esc = make_escalation()
    blocks = approval_card(esc).blocks
    actions = blocks[-1]
    assert actions["type"] == "actions"
    assert actions["block_id"] == actions_block_id(esc.id) == f"escalation:{esc.id}"
    approve, deny = actions["elements"][0], actions["elements"][-1]
    assert (approve["action_id"], approve["style"], approve["value"]) == (APPROVE_ACTION, "primary", esc.id)
    assert (deny["action_id"], deny["style"], deny["value"]) == (DENY_ACTION, "danger", esc.id)
    assert [approve["text"]["text"], deny["text"]["text"]] == ["Approve", "Deny"]
    assert all(button["value"] == esc.id for button in actions["elements"])


def test_standing_choices_are_offered_except_for_destructive_commands() -> None:
    """Owners get "Approve for this session" and "Always for this Bot"; the room is an admin's choice inside that
    modal (a message shows every viewer the same buttons)."""
    from cards import STANDING_BOT_ACTION, STANDING_SESSION_ACTION

    standing = [STANDING_SESSION_ACTION, STANDING_BOT_ACTION]
    offered = [e["action_id"] for e in approval_card(make_escalation()).blocks[-1]["elements"]]
    assert offered == [APPROVE_ACTION, *standing, DENY_ACTION]
    destructive = [e["action_id"] for e in approval_card(make_escalation(risk="destructive")).blocks[-1]["elements"]]
    assert destructive == [APPROVE_ACTION, DENY_ACTION]


def test_pending_card_shows_everything_asked_for() -> None:
    esc = make_escalation()
    message = approval_card(esc)
    text = _all_text(message.blocks)
    for expected in (esc.bot_name, esc.session_id, esc.cwd, "workspace-write", "danger-full-access", "network"):
        assert expected in text
    assert {"type": "channel", "channel_id": esc.room} in list(walk(message.blocks))
    assert preformatted_texts(message.blocks) == [esc.command]
    assert esc.justification in text
    assert "Expires 2025-01-31 14:15:00 UTC" in str(message.blocks)
    assert "Approval needed by 2025-01-31 14:15:00 UTC" in message.text


def test_room_that_is_not_a_channel_id_is_plain_text() -> None:
    blocks = approval_card(make_escalation(room="<#C1|general>")).blocks
    assert not [d for d in walk(blocks) if d.get("type") == "channel"]
    assert "<#C1|general>" in literal_texts(blocks)


@pytest.mark.parametrize("status", FINAL)
def test_buttons_disappear_when_decided(status: str) -> None:
    message = approval_card(_decided(status, decided_by="U0123ABC"))
    validate_message(message)
    assert _action_ids(message.blocks) == []
    assert not [b for b in message.blocks if b["type"] == "actions"]
    assert "Expires" not in str(message.blocks[-1])


def test_decided_card_keeps_only_show_full_command_when_cut() -> None:
    blocks = approval_card(_decided("approved", command="x" * 3000)).blocks
    assert _action_ids(blocks) == [SHOW_COMMAND_ACTION]


# --- outcomes ------------------------------------------------------------------------------------


def _outcome(esc) -> dict:
    """The outcome block: after header, placement, details, command, change, risk, justification."""
    assert esc.status != "pending"
    return approval_card(esc).blocks[7]


def test_approved_by_owner_mentions_a_valid_user_id() -> None:
    message = approval_card(_decided("approved", decided_by="U0123ABC", decision_source="owner"))
    outcome = _outcome(_decided("approved", decided_by="U0123ABC", decision_source="owner"))
    assert {"type": "user", "user_id": "U0123ABC"} in list(walk(outcome))
    text = _all_text(outcome)
    assert "Approved" in text and "2025-01-31 14:03:07 UTC" in text and "as the Bot's owner" in text
    assert message.blocks[0]["text"]["text"].startswith("\u2705 Approved")
    assert message.text.startswith("Approved:")


@pytest.mark.parametrize("who", ["<!channel>", "u0123abc", "U1", "Bob <@U999>", "UABC DEF"])
def test_invalid_decided_by_is_inert_text(who: str) -> None:
    outcome = _outcome(_decided("denied", decided_by=who, decision_source="owner"))
    assert not [d for d in walk(outcome) if d.get("type") == "user"]
    assert who in literal_texts(outcome)


def test_standing_approval_source_is_named() -> None:
    outcome = _outcome(_decided("approved", decision_source="standing_approval"))
    assert "by standing approval" in _all_text(outcome)


def test_denied_reason_is_shown_inert() -> None:
    message = approval_card(_decided("denied", decided_by="U0123ABC", reason=HOSTILE))
    validate_message(message)
    quotes = [d for d in walk(message.blocks) if d.get("type") == "rich_text_quote"]
    assert {"type": "text", "text": HOSTILE} in quotes[-1]["elements"]
    assert "Reason sent to the session:" in _all_text(message.blocks)
    assert_mrkdwn_is_flybot_wording(message.blocks)


def test_denied_without_reason_says_so() -> None:
    assert "No reason given." in _all_text(_outcome(_decided("denied")))


def test_expired_says_the_session_was_told_no() -> None:
    outcome = _outcome(make_escalation(status="expired", decision_source="timeout"))
    assert "\u231b Expired" in _all_text(outcome)
    assert " at 2025-01-31 14:15:00 UTC \u2014 the session was told no." in _all_text(outcome)


def test_undeliverable_and_withdrawn_outcomes() -> None:
    undeliverable = _all_text(_outcome(_decided("undeliverable", decision_source="delivery_failure")))
    assert "Undeliverable" in undeliverable and "could not be delivered, so the session was told no" in undeliverable
    withdrawn = _all_text(_outcome(_decided("withdrawn", decision_source="session", reason="done already")))
    assert "Withdrawn" in withdrawn and "Note:" in withdrawn and "done already" in withdrawn


def test_unknown_status_and_source_are_literal() -> None:
    message = approval_card(_decided("<!here>", decision_source="<@U1>"))
    validate_message(message)
    assert_mrkdwn_is_flybot_wording(message.blocks)
    assert_inert_mrkdwn_string(message.text.split(":", 1)[0])


# --- escaping ------------------------------------------------------------------------------------


def test_hostile_text_never_reaches_mrkdwn_and_command_is_verbatim() -> None:
    hostile_reasons = (
        CardReason(HOSTILE, HOSTILE, HOSTILE, HOSTILE, True),
        CardReason(HOSTILE, "r", "system", HOSTILE),
    )
    for status in ("pending", *FINAL):
        esc = make_escalation(
            status=status,
            command=HOSTILE,
            justification=HOSTILE,
            session_id=HOSTILE,
            bot_name=HOSTILE,
            cwd=HOSTILE,
            room=HOSTILE,
            reasons=hostile_reasons,
            decided_by=HOSTILE,
            decision_source=HOSTILE,
            reason=HOSTILE,
        )
        message = approval_card(esc)
        validate_message(message)
        assert_mrkdwn_is_flybot_wording(message.blocks)  # no user text in any mrkdwn object, no "<" at all
        assert HOSTILE in preformatted_texts(message.blocks)  # the command, verbatim
        assert {"type": "text", "text": HOSTILE} in list(walk(message.blocks))
        assert not [d for d in walk(message.blocks) if d.get("type") in ("user", "broadcast", "link", "usergroup")]
        assert_inert_mrkdwn_string(message.text)
        assert "&lt;!channel&gt;" in message.text


def test_fallback_text_has_no_raw_user_markup() -> None:
    message = approval_card(make_escalation(command=HOSTILE, bot_name="<@U1> *x*"))
    assert "<" not in message.text and "*" not in message.text and "`" not in message.text
    assert "&lt;@U1&gt;" in message.text


# --- truncation ----------------------------------------------------------------------------------


def test_a_cut_justification_is_approved_only_after_review_which_shows_it_whole() -> None:
    # Approve only what you see: an adapter may put what it asks to approve in the justification (Codex's diff of a file
    # change); a card that cuts it offers no one-click Approve, and Review and approve shows it whole.
    justification = "diff --git a/notes.txt b/notes.txt\n" + "+line written by the model\n" * 200
    esc = make_escalation(command="apply_patch", justification=justification)
    message = approval_card(esc)
    validate_message(message)
    ids = _action_ids(message.blocks)
    assert APPROVE_ACTION not in ids and ids[0] == REVIEW_APPROVE_ACTION
    view = full_command_modal(esc, approve=True)
    validate_view(view)
    assert view["submit"]["text"] == "Approve"
    assert clean(justification) in "".join(preformatted_texts(view["blocks"]))


def test_a_long_command_is_cut_visibly_and_only_review_and_approve_can_approve_it() -> None:
    # No button approves a command the card does not show whole.
    command = "echo " + "abcdefghij" * 400  # 4005 characters
    esc = make_escalation(command=command)
    message = approval_card(esc)
    validate_message(message)
    assert preformatted_texts(message.blocks) == [command[:2500]]
    assert f"\u2026 {len(command) - 2500:,} more characters \u2014 use Review and approve" in _all_text(message.blocks)
    ids = _action_ids(message.blocks)
    assert ids == [REVIEW_APPROVE_ACTION, STANDING_BOT_ACTION, DENY_ACTION]
    assert buttons(message.blocks)[0]["value"] == esc.id
    view = full_command_modal(esc, approve=True)
    validate_view(view)
    assert view["callback_id"] == REVIEW_MODAL_CALLBACK and view["submit"]["text"] == "Approve"
    assert "".join(preformatted_texts(view["blocks"])) == command
    decided = approval_card(
        make_escalation(
            command=command, status="denied", decided_by="U0OWNER01", decision_source="owner", decided_at=esc.created_at
        )
    )
    assert _action_ids(decided.blocks) == [SHOW_COMMAND_ACTION]
    assert "submit" not in full_command_modal(make_escalation(command=command, status="denied"), approve=True)


def test_astral_characters_count_double_when_cutting() -> None:
    command = "\U0001f600" * 2000  # 4000 UTF-16 units
    message = approval_card(make_escalation(command=command))
    assert preformatted_texts(message.blocks) == ["\U0001f600" * 1250]


def test_full_command_modal_reassembles_the_command() -> None:
    command = "".join(f"echo {i}\n" for i in range(3000))
    view = full_command_modal(make_escalation(command=command))
    validate_view(view)
    chunks = preformatted_texts(view["blocks"])
    assert "".join(chunks) == command
    assert all(len(c) <= 2900 for c in chunks) and len(chunks) > 1
    assert all(c.endswith("\n") for c in chunks[:-1])  # split on line ends where cheap
    assert view["title"]["text"] == "Full command" and view["close"]["text"] == "Close" and "submit" not in view


def test_full_command_modal_overflow_is_stated() -> None:
    command = "y" * (2900 * 100 + 5)
    view = full_command_modal(make_escalation(command=command))
    validate_view(view)
    assert len(view["blocks"]) == 100
    shown = "".join(preformatted_texts(view["blocks"]))
    assert command.startswith(shown)
    assert f"{len(command) - len(shown):,} more characters do not fit" in _all_text(view["blocks"][-1])


def test_full_command_modal_short_and_empty() -> None:
    for command in ("ls", ""):
        view = full_command_modal(make_escalation(command=command))
        validate_view(view)
        assert "".join(preformatted_texts(view["blocks"])) == command


def test_many_reasons_are_capped() -> None:
    reasons = tuple(CardReason(f"c{i}", "r", "system", "d", i % 2 == 0) for i in range(25))
    message = approval_card(make_escalation(reasons=reasons))
    validate_message(message)
    items = [d for d in walk(message.blocks) if d.get("type") == "rich_text_list"]
    assert sum(len(lst["elements"]) for lst in items) == 10
    assert "\u2026 and 15 more not shown" in _all_text(message.blocks)


def test_contained_reasons_split_into_still_asks_and_downgraded() -> None:
    risk_block = approval_card(make_escalation(contained=True, reasons=REASONS)).blocks[5]
    text = _all_text(risk_block)
    assert text.startswith("Risk: network")
    assert text.index("Still asks for approval:") < text.index("Downgraded because it runs in the sandbox:")
    assert text.index("curl") < text.index("Downgraded because") < text.index("rm deletes")


def test_host_reasons_are_one_list() -> None:
    text = _all_text(approval_card(make_escalation(contained=False, reasons=REASONS)).blocks)
    assert "Why:" in text and "Downgraded because" not in text and "downgraded" in text


def test_no_reasons_and_no_justification() -> None:
    text = _all_text(approval_card(make_escalation(reasons=(), justification="  ")).blocks)
    assert "The classifier gave no reasons." in text and "The session gave no justification." in text


def test_long_justification_is_cut_visibly() -> None:
    message = approval_card(make_escalation(justification="j" * 5000))
    validate_message(message)
    assert "j" * 1500 in literal_texts(message.blocks)
    assert "\u2026 3,500 more characters not shown" in _all_text(message.blocks)


def test_empty_values_get_placeholders() -> None:
    message = approval_card(make_escalation(command="", bot_name="", session_id="", cwd="", room=""))
    validate_message(message)
    assert "(empty command)" in _all_text(message.blocks)
    assert "(unnamed Bot)" in message.blocks[0]["text"]["text"]


def test_naive_datetimes_are_taken_as_utc() -> None:
    message = approval_card(make_escalation(expires_at=datetime(2025, 2, 1, 9, 30)))
    assert "Expires 2025-02-01 09:30:00 UTC" in str(message.blocks)


# --- deny modal, texts, ids ----------------------------------------------------------------------


def test_deny_reason_modal_shape() -> None:
    view = deny_reason_modal("esc_9", HOSTILE)
    validate_view(view)
    assert view["callback_id"] == DENY_MODAL_CALLBACK and view["private_metadata"] == "esc_9"
    assert (view["submit"]["text"], view["close"]["text"]) == ("Deny", "Cancel")
    field = view["blocks"][-1]
    assert field["block_id"] == DENY_REASON_BLOCK and field["optional"] is True
    assert field["label"]["text"] == "Reason (sent to the session)"  # Slack itself adds "(optional)"
    element = field["element"]
    assert (element["type"], element["action_id"], element["multiline"], element["max_length"]) == (
        "plain_text_input",
        DENY_REASON_INPUT,
        True,
        2000,
    )
    assert preformatted_texts(view) == [HOSTILE]
    assert_mrkdwn_is_flybot_wording(view)


def test_deny_reason_modal_cuts_long_preview() -> None:
    view = deny_reason_modal("esc_9", "z" * 5000)
    validate_view(view)
    assert preformatted_texts(view) == ["z" * 1000]
    assert "4,000 characters not shown" in _all_text(view)


def test_not_allowed_text_escapes_the_name() -> None:
    text = not_allowed_text("<!channel> *bot*")
    assert (
        text
        == "Only the owners of *&lt;!channel&gt; \u2217bot\u2217* or a FlyBot admin can approve or deny its requests."
    )


def test_already_decided_text() -> None:
    assert already_decided_text("approved", "U0123ABC", DECIDED) == (
        "This request was already approved by <@U0123ABC> at 2025-01-31 14:03:07 UTC."
    )
    assert already_decided_text("denied", "<!channel>", None) == "This request was already denied by &lt;!channel&gt;."
    assert already_decided_text("expired", None, None) == "This request was already expired (the session was told no)."


def test_block_id_round_trip_and_limit() -> None:
    assert escalation_id_from_block_id(actions_block_id("esc_1")) == "esc_1"
    assert escalation_id_from_block_id("something_else") is None
    with pytest.raises(ValueError):
        actions_block_id("x" * 245)


def test_card_reason_from_mapping() -> None:
    data = {"subject": "rm x", "rule": "deletion", "level": "system", "detail": "d", "downgraded": True}
    assert CardReason.from_mapping(data) == CardReason("rm x", "deletion", "system", "d", True)


def test_reasons_name_their_part_of_the_command_not_the_whole_command_again() -> None:
    from cards.text import reason_part

    assert reason_part("sudo apt-get install -y jq", "sudo runs the command as another user (root).") == "sudo"
    assert reason_part("sudo apt-get install -y jq", "apt-get changes the machine outside the workspace.") == "apt-get"
    assert reason_part("git push origin main --force", "git push with force can destroy remote history.") == "git push"
    assert reason_part("/usr/bin/rm -rf build", "rm deletes.") == "/usr/bin/rm"
    assert reason_part("make build", "Unparseable text.") == "make build"  # no named part: the whole subject
    card = approval_card(
        make_escalation(
            command="sudo apt-get install -y jq",
            reasons=(
                CardReason(
                    "sudo apt-get install -y jq", "sudo", "system", "sudo runs the command as another user (root)."
                ),
                CardReason(
                    "sudo apt-get install -y jq", "system-command", "system", "apt-get changes the machine outside."
                ),
            ),
        )
    ).to_dict()
    assert json.dumps(card).count("sudo apt-get install -y jq") == 2  # the command block and the fallback text only


@pytest.mark.parametrize(
    ("tool", "pending", "decided"),
    [
        (None, "asks to run one command with full access", "one command with full access"),
        ("Edit", "asks to change a file", "one file change"),
        ("WebFetch", "asks to reach the web", "one web request"),
        ("mcp__github__create_issue", "asks to call an MCP tool", "one MCP tool call"),
    ],
)
def test_a_tool_calls_card_names_what_it_asks_and_shows_the_call_as_the_diff_or_arguments(
    tool: str | None, pending: str, decided: str
) -> None:
    call = "Edit /srv/app/x (outside the workspace)\n--- /srv/app/x\n+++ /srv/app/x\n-a\n+b <@U123> *bold*"
    asked = approval_card(make_escalation(tool=tool, command=call)).to_dict()["blocks"]
    assert pending in asked[0]["text"]["text"]
    assert call in preformatted_texts(asked), "the call shown exactly, as literal text"
    label = "Command, exactly as it will run:" if tool is None else "Tool call, as FlyBot reads it"
    assert any(label in text for text in literal_texts(asked))
    done = approval_card(
        make_escalation(
            tool=tool,
            command=call,
            status="denied",
            decided_by="U0OWNER01",
            decision_source="owner",
            decided_at=make_escalation().created_at,
        )
    )
    assert decided in done.to_dict()["blocks"][0]["text"]["text"]
