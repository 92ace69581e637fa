"""A justification cut on the card (e.g. a Codex file change's diff) can be read whole in a modal."""

from __future__ import annotations

from cards_testkit import buttons, make_escalation, preformatted_texts, validate_message, validate_view

from cards import SHOW_JUSTIFICATION_ACTION, approval_card, full_justification_modal

DIFF = "".join(f"+line {i} of the new file\n" for i in range(150))  # ~3800 characters, over the card's 1500


def test_a_cut_justification_gets_a_show_full_justification_button_kept_after_the_decision() -> None:
    for esc in (make_escalation(justification=DIFF), make_escalation(justification=DIFF, status="denied")):
        message = approval_card(esc)
        validate_message(message)
        found = [b for b in buttons(message.blocks) if b["action_id"] == SHOW_JUSTIFICATION_ACTION]
        assert len(found) == 1 and found[0]["value"] == esc.id


def test_a_short_justification_gets_no_such_button() -> None:
    message = approval_card(make_escalation(justification="install jq to parse the API output"))
    assert SHOW_JUSTIFICATION_ACTION not in [b["action_id"] for b in buttons(message.blocks)]


def test_the_full_justification_modal_holds_the_justification_exactly() -> None:
    view = full_justification_modal(make_escalation(justification=DIFF))
    validate_view(view)
    assert "".join(preformatted_texts(view["blocks"])) == DIFF
    assert view["title"]["text"] == "Full justification" and "submit" not in view
