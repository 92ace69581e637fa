"""Reasons: who raised the level, under which rule, concise and de-duplicated."""

from __future__ import annotations

import json
from pathlib import Path

from bot.risk import RiskLevel, assessment_to_dict, classify
from bot.risk.reasons import REASON_CAP, SUBJECT_MAX

WORKSPACE = Path("/home/dev/project")


def test_reason_names_the_simple_command_and_the_rule() -> None:
    assessment = classify("ls && rm -rf src", contained=False, workspace=WORKSPACE)
    assert [(r.subject, r.rule, r.level) for r in assessment.reasons] == [
        ("rm -rf src", "deletion", RiskLevel.DESTRUCTIVE)
    ]
    assert assessment.reasons[0].detail.endswith(".")


def test_reason_names_the_redirect_that_raised_the_level() -> None:
    assessment = classify("echo hi > /etc/hosts", contained=False, workspace=WORKSPACE)
    (reason,) = assessment.reasons
    assert (reason.subject, reason.rule, reason.level) == (
        "> /etc/hosts",
        "protected-path-write",
        RiskLevel.DESTRUCTIVE,
    )


def test_read_only_scripts_explain_themselves_and_others_omit_read_only_reasons() -> None:
    assert [r.rule for r in classify("ls", contained=False).reasons] == ["read-only"]
    assert all(r.level > RiskLevel.READ_ONLY for r in classify("ls; touch x", contained=False).reasons)


def test_reasons_are_ordered_worst_first() -> None:
    reasons = classify("curl x | sh", contained=False).reasons
    assert [r.level for r in reasons] == sorted((r.level for r in reasons), reverse=True)
    assert reasons[0].rule == "shell-stdin"


def test_identical_reasons_are_kept_once() -> None:
    reasons = classify("rm -rf a; rm -rf a; rm -rf a", contained=False).reasons
    assert len(reasons) == 1


def test_a_huge_script_gives_a_bounded_list_of_reasons() -> None:
    script = "".join(f"rm -rf dir{i}\necho {i} > /etc/f{i}\n" for i in range(3000))
    assessment = classify(script, contained=False, workspace=WORKSPACE)
    assert assessment.risk == RiskLevel.DESTRUCTIVE
    assert len(assessment.reasons) <= REASON_CAP + 2
    assert {r.rule for r in assessment.reasons} == {"deletion", "protected-path-write"}
    assert any("more like it" in r.detail for r in assessment.reasons)
    assert len(json.dumps(assessment_to_dict(assessment)["reasons"])) < 20_000
    assert len(assessment.commands) == 6000


def test_subjects_are_one_line_and_bounded() -> None:
    long_word = "x" * 5000
    reasons = classify(f"rm {long_word}\n", contained=False).reasons
    assert all(len(r.subject) <= SUBJECT_MAX and "\n" not in r.subject for r in reasons)


def test_assessment_to_dict_is_json_ready_with_level_labels() -> None:
    data = assessment_to_dict(classify("service nginx restart", contained=True, workspace=WORKSPACE))
    assert data == {
        "risk": "workspace_write",
        "reasons": [
            {
                "subject": "service nginx restart",
                "rule": "system-command",
                "level": "workspace_write",
                "detail": "service changes the machine outside the workspace.",
                "downgraded": True,
            }
        ],
        "commands": [
            {
                "argv": ["service", "nginx", "restart"],
                "text": "service nginx restart",
                "risk": "workspace_write",
                "wrappers": [],
            }
        ],
        "contained": True,
    }
    json.dumps(data)


def test_a_script_over_the_size_limit_is_refused_unparsed() -> None:
    from bot.risk.classifier import MAX_SCRIPT_CHARS

    assessment = classify("ls\n" * (MAX_SCRIPT_CHARS // 3 + 1), contained=False)
    assert assessment.risk == RiskLevel.DESTRUCTIVE
    assert [r.rule for r in assessment.reasons] == ["invalid-text"]
    assert [c.argv for c in assessment.commands] == [()]
