"""``flybot escalations`` lines say who decided, and which standing approval answered when one did."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.audit import escalation_line
from bot.store.records import Escalation


def _escalation(**changes: object) -> Escalation:
    now = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
    fields: dict[str, object] = {
        "id": "esc_1",
        "bot_id": "bot_1",
        "session_id": "s1",
        "command": "sudo apt-get install -y jq",
        "cwd": "/home/dev/project",
        "file_policy": "workspace-write",
        "approval_policy": "ask",
        "contained": False,
        "justification": None,
        "room": "C0GENERAL",
        "risk": "system",
        "reasons": (),
        "status": "approved",
        "created_at": now,
        "expires_at": now,
        "decided_by": "U0OWNER01",
        "decision_source": "slack",
    }
    fields.update(changes)
    return Escalation(**fields)  # type: ignore[arg-type]


def test_a_standing_approvals_answer_names_it() -> None:
    line = escalation_line(_escalation(standing_approval_id="sa_4c2d1b057e40"), {"U0OWNER01": "@Olivia"})
    assert "by=@Olivia" in line and "via=sa_4c2d1b057e40" in line


def test_a_click_names_no_standing_approval() -> None:
    line = escalation_line(_escalation(), {"U0OWNER01": "@Olivia"})
    assert "by=@Olivia" in line and "via=" not in line
