"""The reminder (cards/routing.py): FlyBot's only mentions, of well-formed IDs only; user text inert."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from cards import reminder_message
from cards.routing import MAX_MENTIONS, mentions

EXPIRES = datetime(2026, 11, 30, 19, 14, 16, tzinfo=UTC)


def test_mentions_name_only_well_formed_user_and_group_ids_once() -> None:
    assert mentions(["U0OWNER01", "<!channel>", "olivia", "W0ADMIN01", "U0OWNER01"], ["S0ONCALL1", "!here", "S"]) == [
        "<@U0OWNER01>",
        "<@W0ADMIN01>",
        "<!subteam^S0ONCALL1>",
    ]
    assert len(mentions([f"U0{i:07d}" for i in range(50)])) == MAX_MENTIONS


def test_the_reminder_escapes_the_bots_name_and_says_when_it_expires() -> None:
    message = reminder_message(
        bot_name="ci <!channel> *bot*", owners=["U0OWNER01"], groups=["S0ONCALL1"], expires_at=EXPIRES
    )
    assert message.text.startswith("\u23f0 <@U0OWNER01> <!subteam^S0ONCALL1>: *ci &lt;!channel&gt; ")
    assert "<!channel>" not in message.text
    assert "expires at 2026-11-30 19:14:16 UTC; then the session is told no." in message.text
    assert message.blocks == [{"type": "section", "text": {"type": "mrkdwn", "text": message.text}}]


def test_a_two_person_reminder_counts_the_approvals() -> None:
    first = reminder_message(bot_name="b", owners=["U0OWNER01"], groups=[], expires_at=EXPIRES, approvals=1, needed=2)
    assert "It has 1 of 2 approvals; a second, different person must approve." in first.text
    none = reminder_message(bot_name="b", owners=[], groups=[], expires_at=EXPIRES, needed=2)
    assert none.text.startswith("\u23f0 *b*'s request") and "needs 2 approvals from different people" in none.text


def test_a_fallback_copy_says_why_after_where_it_runs_and_the_original_does_not() -> None:
    from cards import SANDBOX_STATEMENT, approval_card
    from tests.cards.cards_testkit import assert_mrkdwn_is_flybot_wording, make_escalation, validate_message

    asked = datetime(2026, 11, 30, 14, 5, tzinfo=UTC)
    copy = approval_card(make_escalation(fallback_copy=True, fallback_at=asked))
    validate_message(copy)
    assert_mrkdwn_is_flybot_wording(copy.blocks)
    assert copy.blocks[1]["text"]["text"] == SANDBOX_STATEMENT, "where it runs stays the first block after the header"
    assert copy.blocks[2]["type"] == "context"
    assert "as a fallback approver: its owners had not decided by 2026-11-30 14:05:00 UTC" in json.dumps(copy.blocks[2])
    original = approval_card(make_escalation(fallback_at=asked))
    assert "You have this copy" not in json.dumps(original.blocks)
    assert "Fallback approvers asked 2026-11-30 14:05:00 UTC" in json.dumps(original.blocks)


def test_a_fallback_copy_offers_only_what_a_fallback_approver_may_do() -> None:
    """A fallback approver cannot make standing approvals, so their copy offers none of them."""
    from cards import approval_card
    from tests.cards.cards_testkit import make_escalation, validate_message

    def labels(**fields: object) -> list[str]:
        message = approval_card(make_escalation(**fields))
        validate_message(message)
        actions = [b for b in message.blocks if b["type"] == "actions"]
        return [e["text"]["text"] for b in actions for e in b["elements"]]

    standing = {"Approve for this session", "Always for this Bot"}
    assert standing <= set(labels()), "the room's card keeps the owners' standing choices"
    assert labels(fallback_copy=True) == ["Approve", "Deny"]
    long = "make deploy " + "x" * 5000
    assert labels(fallback_copy=True, command=long) == ["Review and approve", "Deny"]
    assert "Approve for this session saves" not in json.dumps(
        approval_card(make_escalation(fallback_copy=True, session_patterns=("make",))).blocks
    )
