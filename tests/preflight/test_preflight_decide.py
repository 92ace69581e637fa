"""The pure decision: status per mode x probe outcome, unlock options, install command."""

from __future__ import annotations

import pytest

from bot.preflight import BackendProbe, SandboxMode, Status, build_report, decide_status
from bot.preflight.decide import bubblewrap_install_command, parse_os_release

OK = BackendProbe("bubblewrap", True, "ran")
MISSING = BackendProbe("bubblewrap", False, "bwrap not found on PATH")
NO_LANDLOCK = BackendProbe("landlock", False, "not listed")
LANDLOCK = BackendProbe("landlock", True, "listed")
LSM_UNREADABLE = BackendProbe("landlock", None, "cannot read")
ACL = BackendProbe("windows-acl", None, "cannot be probed")

RO, WW, DFA = SandboxMode.READ_ONLY, SandboxMode.WORKSPACE_WRITE, SandboxMode.DANGER_FULL_ACCESS
FOUND = (OK, NO_LANDLOCK)
LANDLOCK_ONLY = (MISSING, LANDLOCK)
NONE_USABLE = (MISSING, NO_LANDLOCK)
UNPROBEABLE = (MISSING, LSM_UNREADABLE)


@pytest.mark.parametrize(
    ("mode", "backends", "expected"),
    [
        (DFA, FOUND, Status.USABLE),
        (DFA, NONE_USABLE, Status.USABLE),
        (DFA, UNPROBEABLE, Status.USABLE),
        (DFA, (ACL,), Status.USABLE),
        (RO, FOUND, Status.USABLE),
        (WW, LANDLOCK_ONLY, Status.USABLE),
        (RO, NONE_USABLE, Status.BLOCKED),
        (WW, NONE_USABLE, Status.BLOCKED),
        (RO, UNPROBEABLE, Status.UNKNOWN),
        (WW, UNPROBEABLE, Status.UNKNOWN),
        (WW, (ACL,), Status.UNKNOWN),
        (WW, (), Status.UNKNOWN),
        (None, FOUND, Status.USABLE),
        (None, LANDLOCK_ONLY, Status.USABLE),
        (None, NONE_USABLE, Status.UNKNOWN),
        (None, UNPROBEABLE, Status.UNKNOWN),
    ],
)
def test_decide_status_follows_the_mode_rules(
    mode: SandboxMode | None, backends: tuple[BackendProbe, ...], expected: Status
) -> None:
    assert decide_status(mode, backends) is expected


def test_usable_report_offers_no_unlock_options() -> None:
    assert build_report(WW, "linux", FOUND, {"ID": "debian"}).unlock == ()


def test_blocked_linux_report_offers_approvals_install_kernel_and_policy_in_order() -> None:
    report = build_report(WW, "linux", NONE_USABLE, {"ID": "debian"})
    assert [o.id for o in report.unlock] == [
        "approve-turn",
        "approve-bot",
        "install-bubblewrap",
        "landlock-kernel",
        "change-file-policy",
    ]
    assert report.unlock[2].command == "sudo apt-get install -y bubblewrap"


def test_windows_unknown_report_offers_no_host_backend_option() -> None:
    report = build_report(WW, "win32", (ACL,))
    assert [o.id for o in report.unlock] == ["approve-turn", "approve-bot", "change-file-policy"]


@pytest.mark.parametrize(
    ("os_release", "expected"),
    [
        ("ID=debian\n", "sudo apt-get install -y bubblewrap"),
        ('ID=ubuntu\nID_LIKE="debian"\n', "sudo apt-get install -y bubblewrap"),
        ('ID=linuxmint\nID_LIKE="ubuntu debian"\n', "sudo apt-get install -y bubblewrap"),
        ('ID="fedora"\n', "sudo dnf install -y bubblewrap"),
        ('ID=opensuse-tumbleweed\nID_LIKE="opensuse suse"\n', "sudo zypper install -y bubblewrap"),
        ("ID=somethingelse\n", None),
        ("", None),
    ],
)
def test_install_command_follows_os_release(os_release: str, expected: str | None) -> None:
    assert bubblewrap_install_command(parse_os_release(os_release)) == expected
