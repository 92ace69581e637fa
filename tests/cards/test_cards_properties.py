"""Property tests: for arbitrary user text the card stays valid, within limits, and keeps user text out of mrkdwn."""

from __future__ import annotations

import dataclasses

from cards_testkit import (
    assert_inert_mrkdwn_string,
    assert_mrkdwn_is_flybot_wording,
    make_escalation,
    preformatted_texts,
    validate_message,
    validate_view,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards import CardReason, approval_card, deny_reason_modal, full_command_modal
from cards.text import clean

# Any code point, lone surrogates included (JSON input can carry "\ud800"); mentions/markup mixed in on purpose.
ANY_CHAR = st.characters(exclude_categories=())
MARKUP = st.sampled_from(
    [
        "<!channel>",
        "<!here>",
        "<@U123>",
        "<#C123|x>",
        "<https://evil|click>",
        "*",
        "_",
        "~",
        "`",
        "&",
        "&amp;",
        "\n",
        ">",
    ]
)
USER_TEXT = st.lists(st.one_of(st.text(ANY_CHAR, max_size=40), MARKUP), max_size=12).map("".join)
LONG_TEXT = st.builds(lambda piece, n: piece * n, st.text(ANY_CHAR, min_size=1, max_size=8), st.integers(0, 1500))
STATUSES = st.sampled_from(["pending", "approved", "denied", "expired", "withdrawn", "undeliverable"])
REASON = st.builds(CardReason, USER_TEXT, USER_TEXT, USER_TEXT, USER_TEXT, st.booleans())

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check(esc) -> None:
    message = approval_card(esc)
    validate_message(message)
    assert_mrkdwn_is_flybot_wording(message.blocks)
    assert_inert_mrkdwn_string(message.text)
    shown = "".join(preformatted_texts(message.blocks[3]))
    assert clean(esc.command).startswith(shown)


@SETTINGS
@given(
    command=st.one_of(USER_TEXT, LONG_TEXT),
    justification=st.one_of(st.none(), USER_TEXT, LONG_TEXT),
    session_id=st.one_of(USER_TEXT, LONG_TEXT),
    bot_name=USER_TEXT,
    status=STATUSES,
    contained=st.booleans(),
    reasons=st.lists(REASON, max_size=14).map(tuple),
    decided_by=st.one_of(st.none(), USER_TEXT, st.just("U0123ABC")),
    reason=st.one_of(st.none(), USER_TEXT, LONG_TEXT),
)
def test_card_is_valid_and_inert_for_any_text(
    command, justification, session_id, bot_name, status, contained, reasons, decided_by, reason
) -> None:
    esc = make_escalation(
        command=command,
        justification=justification,
        session_id=session_id,
        bot_name=bot_name,
        cwd=session_id[::-1],
        room=bot_name,
        status=status,
        contained=contained,
        reasons=reasons,
        decided_by=decided_by,
        reason=reason,
    )
    _check(esc)


@SETTINGS
@given(command=st.one_of(USER_TEXT, LONG_TEXT))
def test_modals_are_valid_and_lossless(command: str) -> None:
    esc = dataclasses.replace(make_escalation(), command=command)
    view = full_command_modal(esc)
    validate_view(view)
    assert "".join(preformatted_texts(view["blocks"])) == clean(command)
    deny = deny_reason_modal(esc.id, command)
    validate_view(deny)
    assert_mrkdwn_is_flybot_wording(deny)
