"""The unknown-program note on a card, its "Grade `PROGRAM` …" button and the program-rule modal."""

from __future__ import annotations

import json

from cards_testkit import buttons, make_escalation, validate_message, validate_view

from cards import TEACH_ACTION, TEACH_GRADE_BLOCK, TEACH_MODAL_CALLBACK, approval_card, teach_modal


def test_a_card_with_an_unknown_program_says_so_and_offers_to_grade_it() -> None:
    esc = make_escalation(risk="destructive", unknown_programs=("acmecc",))
    card = approval_card(esc)
    validate_message(card)
    message = card.to_dict()
    text = json.dumps(message["blocks"])
    assert "FlyBot does not know `acmecc`" in text and "Grade" in text
    teach = [b for b in buttons(message["blocks"]) if b["action_id"] == TEACH_ACTION]
    assert [(b["text"]["text"], b["value"]) for b in teach] == [("Grade `acmecc` \u2026", f"{esc.id} acmecc")]
    assert buttons(message["blocks"])[-1]["action_id"] != TEACH_ACTION  # Deny stays last


def test_without_unknown_programs_or_once_decided_there_is_no_button() -> None:
    plain = approval_card(make_escalation(risk="destructive")).to_dict()
    assert "does not know" not in json.dumps(plain) and TEACH_ACTION not in json.dumps(plain)
    decided = approval_card(
        make_escalation(risk="destructive", unknown_programs=("acmecc",), status="denied", decided_by="U0OWNER01")
    ).to_dict()
    assert TEACH_ACTION not in json.dumps(decided) and "FlyBot does not know `acmecc`" in json.dumps(decided)


def test_the_modal_asks_for_the_grade_the_subcommands_and_a_note() -> None:
    view = teach_modal(escalation_id="esc_1", program="mytool", first_argument="deploy")
    validate_view(view)
    assert view["callback_id"] == TEACH_MODAL_CALLBACK
    assert json.loads(view["private_metadata"]) == {"escalation_id": "esc_1", "program": "mytool"}
    grade = next(b for b in view["blocks"] if b.get("block_id") == TEACH_GRADE_BLOCK)
    assert [o["value"] for o in grade["element"]["options"]] == [
        "read_only",
        "workspace_write",
        "network",
        "system",
        "destructive",
    ]
    assert "e.g. deploy" in json.dumps(view)
