"""The standing-approval notice, modal and App Home validate and keep user text inert."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from cards_testkit import (
    assert_inert_mrkdwn_string,
    buttons,
    literal_texts,
    mrkdwn_texts,
    validate_message,
    validate_view,
)

from cards import (
    STANDING_PATTERN_BLOCK,
    STANDING_REVOKE_ACTION,
    CardStanding,
    HomePending,
    home_view,
    standing_modal,
    standing_notice,
)
from cards.approval import CardMessage

NASTY = "apt-get install <!channel> <@U0ADMIN01> *x* `y` <https://evil|z>"
WHEN = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def validate_home(view: dict[str, object]) -> None:
    """A Home tab: slack-sdk's View and Block models, at most 100 blocks (Slack's limit for views)."""
    from slack_sdk.models.blocks import Block
    from slack_sdk.models.views import View

    blocks = view["blocks"]
    assert isinstance(blocks, list) and 1 <= len(blocks) <= 100
    assert View(**view).to_dict() == view
    for block in blocks:
        model = Block.parse(block)
        assert model is not None and model.to_dict() == block


def assert_no_user_text_in_mrkdwn(node: object, *user_texts: str) -> None:
    for text in mrkdwn_texts(node):
        assert "<" not in text, text
        for user_text in user_texts:
            assert user_text not in text, (user_text, text)


def approval(**kw: object) -> CardStanding:
    values: dict[str, object] = dict(
        id="sa_123",
        scope="bot",
        subject_label="bot_1",
        pattern="apt-get install",
        max_risk="workspace_write",
        contained_only=True,
        created_by="U0OWNER01",
        expires_at=WHEN,
        use_count=3,
    )
    values.update(kw)
    return CardStanding(**values)  # type: ignore[arg-type]


def test_notice_names_bot_command_approval_and_who_set_it_inertly() -> None:
    message = standing_notice(
        bot_name="ci<!here>", command=NASTY, contained=True, escalation_id="esc_1", approvals=[approval()]
    )
    validate_message(message)
    assert_no_user_text_in_mrkdwn(message.blocks, NASTY, "ci<!here>", "apt-get")
    assert_inert_mrkdwn_string(message.text)
    texts = " ".join(literal_texts(message.blocks))
    assert NASTY in texts and "sa_123" in texts and "ci<!here>" in texts
    assert {"type": "user", "user_id": "U0OWNER01"} in message.blocks[0]["elements"][0]["elements"]


def test_notice_of_an_operator_made_approval_shows_the_operator_as_text() -> None:
    message = standing_notice(
        bot_name="ci",
        command="ls",
        contained=False,
        escalation_id="e",
        approvals=[approval(created_by="operator:root")],
    )
    validate_message(message)
    assert "operator:root" in " ".join(literal_texts(message.blocks))


def test_modal_is_prefilled_valid_and_carries_its_escalation() -> None:
    view = standing_modal(
        escalation_id="esc_9",
        scope="bot",
        pattern="apt-get install",
        max_risk="system",
        command_preview=NASTY,
        contained=False,
    )
    validate_view(view)
    assert_no_user_text_in_mrkdwn(view["blocks"], NASTY, "apt-get")
    assert json.loads(view["private_metadata"]) == {"escalation_id": "esc_9", "scope": "bot"}
    pattern = next(b for b in view["blocks"] if b.get("block_id") == STANDING_PATTERN_BLOCK)
    assert pattern["element"]["initial_value"] == "apt-get install"
    options = [
        o["value"]
        for b in view["blocks"]
        if b.get("type") == "input" and b["element"]["type"] == "static_select"
        for o in b["element"]["options"]
    ]
    assert "destructive" not in options


def test_home_view_validates_and_offers_revoke_per_approval() -> None:
    view = home_view(
        bots=[("ci<!channel>", "C0APPROVE")],
        pending=[
            HomePending(id="esc_1", bot_name="ci", command=NASTY, risk="system", contained=False, expires_at=WHEN)
        ],
        approvals=[approval(), approval(id="sa_456", scope="room", subject_label="C0APPROVE", created_by="U0ADMIN01")],
    )
    validate_home(view)
    assert_no_user_text_in_mrkdwn(view["blocks"], NASTY, "ci<!channel>", "apt-get")
    assert [b["value"] for b in buttons(view["blocks"]) if b["action_id"] == STANDING_REVOKE_ACTION] == [
        "sa_123",
        "sa_456",
    ]


def test_empty_home_view_validates() -> None:
    view = home_view(bots=[], pending=[], approvals=[])
    validate_home(view)
    assert isinstance(CardMessage(text="", blocks=[]), CardMessage)


def test_a_home_view_whose_lists_are_cut_says_how_many_more_and_where_to_see_them() -> None:
    pending = [
        HomePending(
            id=f"esc_{i}",
            bot_name="ci",
            command=NASTY + "\u202e",
            risk="system",
            contained=False,
            expires_at=WHEN,
            approvals_needed=2,
            approvers=("U0OWNER01",),
        )
        for i in range(30)
    ]
    view = home_view(
        bots=[(f"bot-{i}", "C0APPROVE") for i in range(35)],
        pending=pending,  # each with its hidden-text warning and two-person line: four blocks
        approvals=[approval(id=f"sa_{i}") for i in range(40)],
    )
    validate_home(view)  # Slack's 100 blocks: nothing cut silently
    text = json.dumps(view, ensure_ascii=False)
    assert "\u2026and 5 more Bots: `flybot bots list`" in text
    assert "\u2026and 20 more escalations waiting for you: `/flybot pending` lists them all, 20 a page." in text
    revoke = [b["value"] for b in buttons(view["blocks"]) if b["action_id"] == STANDING_REVOKE_ACTION]
    assert 0 < len(revoke) < 40
    assert f"\u2026and {40 - len(revoke)} more standing approvals: `/flybot standing list`" in text


def test_a_home_view_whose_lists_fit_has_no_more_line() -> None:
    view = home_view(
        bots=[("ci", "C0APPROVE")],
        pending=[
            HomePending(id="esc_1", bot_name="ci", command="make", risk="system", contained=False, expires_at=WHEN)
        ],
        approvals=[approval()],
    )
    assert "more" not in json.dumps(view)


def test_the_modal_warns_that_a_host_approval_for_a_package_manager_or_git_approves_the_workspace_configuration() -> (
    None
):
    def texts(pattern: str, contained: bool) -> str:
        view = standing_modal(
            escalation_id="esc_9",
            scope="bot",
            pattern=pattern,
            max_risk="system",
            command_preview=pattern,
            contained=contained,
        )
        validate_view(view)
        return json.dumps(view["blocks"])

    for pattern in ("npm install", "cargo install", "git push", "pip install"):
        assert "workspace's own configuration" in texts(pattern, contained=False), pattern
        assert "workspace's own configuration" not in texts(pattern, contained=True), pattern
    assert "workspace's own configuration" not in texts("apt-get install", contained=False)


def test_a_folded_notice_names_the_program_rules_that_graded_a_command() -> None:
    from cards.standing import NOTICE_RULES_SHOWN, NoticeItem, standing_digest

    ruled = tuple(f"tool{n} is graded workspace_write by @U0ADMIN01's program rule (tool{n})." for n in range(3))
    message = standing_digest(
        bot_name="builder",
        count=2,
        window_s=60,
        items=[
            NoticeItem(escalation_id="esc_1", command="tool0 a && tool1 b && tool2 c", contained=True, ruled=ruled),
            NoticeItem(escalation_id="esc_2", command="ls", contained=True),
        ],
        approvals=[],
    )
    shown = json.dumps(message.blocks)
    assert all(detail in shown for detail in ruled[:NOTICE_RULES_SHOWN])
    assert ruled[NOTICE_RULES_SHOWN] not in shown
    assert shown.count("program rule") == NOTICE_RULES_SHOWN
