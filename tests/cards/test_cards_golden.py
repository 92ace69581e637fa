"""Golden JSON for the cards. Regenerate with ``FLYBOT_UPDATE_GOLDEN=1 pytest tests/cards``; review the diff."""

from __future__ import annotations

import pytest
from cards_testkit import DECIDED, EXPIRES, assert_golden, make_escalation, validate_message, validate_view

from cards import CardEscalation, CardReason, approval_card, deny_reason_modal, full_command_modal

LONG_COMMAND = (
    "python3 - <<'EOF'\n" + "".join(f"print('line {i:04d} of a generated script')\n" for i in range(120)) + "EOF"
)


def _many_reasons() -> tuple[CardReason, ...]:
    return tuple(
        CardReason(
            f"cmd{i} --flag", f"rule-{i}", "system" if i % 3 else "workspace_write", f"Reason number {i}.", i % 3 == 0
        )
        for i in range(14)
    )


CASES: dict[str, CardEscalation] = {
    "pending_contained": make_escalation(),
    "pending_host": make_escalation(
        contained=False,
        risk="destructive",
        command="sudo systemctl restart nginx && rm -rf /var/cache/nginx",
        reasons=(
            CardReason(
                "sudo systemctl restart nginx",
                "service-control",
                "system",
                "sudo runs the command as another user (root).",
            ),
            CardReason("rm -rf /var/cache/nginx", "deletion", "destructive", "rm deletes."),
        ),
        justification=None,
        room="not-a-channel-id",
    ),
    "approved": make_escalation(status="approved", decided_at=DECIDED, decided_by="U0123ABC", decision_source="owner"),
    "denied_with_reason": make_escalation(
        status="denied",
        decided_at=DECIDED,
        decided_by="U0456DEF",
        decision_source="admin",
        reason="Use the pinned jq from the toolchain image <!here>, not apt.",
    ),
    "expired": make_escalation(status="expired", decided_at=EXPIRES, decision_source="timeout"),
    "long_command_truncated": make_escalation(command=LONG_COMMAND),
    "many_reasons": make_escalation(risk="system", reasons=_many_reasons()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_approval_card_golden(name: str) -> None:
    message = approval_card(CASES[name])
    validate_message(message)
    assert_golden(name, message.to_dict())


def test_full_command_modal_golden() -> None:
    view = full_command_modal(CASES["long_command_truncated"])
    validate_view(view)
    assert_golden("full_command_modal", view)


def test_deny_reason_modal_golden() -> None:
    esc = CASES["pending_host"]
    view = deny_reason_modal(esc.id, esc.command)
    validate_view(view)
    assert_golden("deny_reason_modal", view)
