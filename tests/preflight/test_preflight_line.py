"""parse_one_line reads the blocked line back and rejects everything else."""

from __future__ import annotations

import pytest
from preflight_support import FakeHost, run_cli

from bot.preflight import (
    BackendProbe,
    BlockedLineParseError,
    PreflightReport,
    SandboxMode,
    UnlockOption,
    build_report,
    parse_one_line,
    render_one_line,
    run_preflight,
)

ISSUE_EXAMPLE = (
    "sandbox-preflight: workspace-write is UNAVAILABLE: no usable sandbox backend (bubblewrap missing or not "
    "runnable; Landlock not enabled). Every shell call will be refused with SANDBOX_UNAVAILABLE. Unlock: approve "
    "danger-full-access for this turn (or the Bot); install bubblewrap on the host; run a Landlock-enforcing "
    "kernel; change the session file policy to danger-full-access."
)
NONE_USABLE = (BackendProbe("bubblewrap", False, "x"), BackendProbe("landlock", False, "y"))


@pytest.mark.parametrize(
    "report",
    [
        build_report(SandboxMode.WORKSPACE_WRITE, "linux", NONE_USABLE, {"ID": "debian"}),
        build_report(SandboxMode.READ_ONLY, "linux", NONE_USABLE),
        build_report(SandboxMode.READ_ONLY, "darwin", (BackendProbe("sandbox-exec", False, "z"),)),
    ],
    ids=["linux-with-command", "linux-no-command", "darwin"],
)
def test_parse_round_trips_one_line(report: PreflightReport) -> None:
    parsed = parse_one_line(render_one_line(report))
    assert parsed.mode is report.mode
    assert parsed.missing_backends == tuple(b.name for b in report.backends)
    assert parsed.unlock == report.unlock


def test_parse_round_trips_a_real_cli_line(host: FakeHost) -> None:
    line = run_cli(host.env(), "--mode", "read-only").stdout
    parsed = parse_one_line(line)
    report = run_preflight("read-only", env=host.env())
    assert (parsed.mode, parsed.missing_backends, parsed.unlock) == (
        SandboxMode.READ_ONLY,
        ("bubblewrap", "landlock"),
        report.unlock,
    )


def test_parse_reads_the_issue_example() -> None:
    parsed = parse_one_line(ISSUE_EXAMPLE)
    assert parsed.mode is SandboxMode.WORKSPACE_WRITE
    assert parsed.missing_backends == ("bubblewrap", "landlock")
    assert [(o.id, o.command) for o in parsed.unlock] == [
        ("approve-turn", None),
        ("approve-bot", None),
        ("install-bubblewrap", None),
        ("landlock-kernel", None),
        ("change-file-policy", None),
    ]


def test_parse_keeps_unrecognised_phrases() -> None:
    line = ISSUE_EXAMPLE.replace("Landlock not enabled", "seccomp absent").replace(
        "run a Landlock-enforcing kernel", "reboot the moon (`moonctl reboot`)"
    )
    parsed = parse_one_line(line)
    assert parsed.missing_backends == ("bubblewrap", "seccomp absent")
    assert UnlockOption("other", "reboot the moon", "moonctl reboot") in parsed.unlock


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        "sandbox-preflight: workspace-write is usable: bubblewrap (ran). Shell calls will run confined.",
        "sandbox-preflight: workspace-write is UNKNOWN: cannot tell whether a sandbox backend is usable here (x).",
        ISSUE_EXAMPLE.replace("workspace-write", "danger-full-access", 1),
        ISSUE_EXAMPLE.replace("workspace-write", "sideways", 1),
        ISSUE_EXAMPLE[:-1],
        ISSUE_EXAMPLE + " trailing",
        ISSUE_EXAMPLE.split(" Unlock: ")[0],
        ISSUE_EXAMPLE.replace("Unlock: approve", "Unlock: ; approve"),
        ISSUE_EXAMPLE.replace("(bubblewrap missing or not runnable; Landlock not enabled)", "()"),
        ISSUE_EXAMPLE + "\n" + ISSUE_EXAMPLE,
    ],
    ids=[
        "empty",
        "not-preflight",
        "usable",
        "unknown",
        "danger-mode",
        "bad-mode",
        "no-final-period",
        "trailing-text",
        "no-unlock",
        "empty-option",
        "empty-missing",
        "two-lines",
    ],
)
def test_parse_rejects_malformed_text(text: str) -> None:
    with pytest.raises(BlockedLineParseError) as caught:
        parse_one_line(text)
    assert isinstance(caught.value, ValueError) and str(caught.value)
