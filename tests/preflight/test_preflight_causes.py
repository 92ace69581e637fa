"""Landlock asked through the real syscall, and the real cause of a bwrap failure with its own unlock.

bwrap failures are simulated with small stand-in scripts printing what bwrap prints for each cause, plus the host
settings files under ``FLYBOT_PREFLIGHT_ROOT``; the real bwrap and the real syscall are exercised too.
"""

from __future__ import annotations

import platform
import shutil
from pathlib import Path

import pytest
from preflight_support import FakeHost, run_cli

from bot.preflight import Status, parse_one_line, render_one_line, run_preflight
from bot.preflight.catalogue import APPARMOR_PROFILE_COMMAND
from bot.preflight.probes import LANDLOCK_SYSCALL, landlock_abi

ON_KNOWN_MACHINE = platform.machine() in LANDLOCK_SYSCALL
needs_syscall = pytest.mark.skipif(not ON_KNOWN_MACHINE, reason="landlock_create_ruleset's number is not known here")
REAL_BWRAP = shutil.which("bwrap")

UID_MAP = 'echo "bwrap: setting up uid map: Permission denied" >&2\nexit 1'
NO_PERMS = (
    'echo "bwrap: No permissions to creating new namespace, likely because the kernel does not allow '
    "non-privileged user namespaces. On e.g. debian this can be enabled with "
    "'sysctl kernel.unprivileged_userns_clone=1'.\" >&2\nexit 1"
)
ENOSPC = 'echo "bwrap: Creating new namespace failed: No space left on device" >&2\nexit 1'
EPERM = 'echo "bwrap: Creating new namespace failed: Operation not permitted" >&2\nexit 1'
SECCOMP = 'echo "bwrap: Failed to make / slave: Function not implemented" >&2\nexit 1'

OS_RELEASES = {
    "debian": 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nID=debian\n',
    "ubuntu": 'PRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\nID_LIKE=debian\n',
    "fedora": 'NAME="Fedora Linux"\nVERSION_ID=41\nID=fedora\nPRETTY_NAME="Fedora Linux 41 (Workstation Edition)"\n',
    "arch": 'NAME="Arch Linux"\nPRETTY_NAME="Arch Linux"\nID=arch\nBUILD_ID=rolling\n',
}


@pytest.fixture
def kernel_host(tmp_path: Path) -> FakeHost:
    """A Linux host with no bwrap, whose Landlock is asked through the real syscall (no lsm override)."""
    return FakeHost(tmp_path, lsm_override=False)


# -- Landlock by syscall -------------------------------------------------------------------------------------
@needs_syscall
def test_real_syscall_answers_an_abi_on_this_machine() -> None:
    abi, err = landlock_abi()
    assert err is None and abi is not None and abi >= 1


@needs_syscall
def test_hidden_bwrap_is_usable_through_landlock_naming_its_abi(kernel_host: FakeHost) -> None:
    abi, _ = landlock_abi()
    assert abi is not None and abi >= 3, "this machine's kernel has Landlock ABI 3+"
    result = run_cli(kernel_host.env(), "--mode", "workspace-write")
    assert result.code == 0
    assert f"Landlock (ABI {abi} from landlock_create_ruleset)" in result.stdout
    doc = run_cli(kernel_host.env(), "--mode", "read-only", "--json").json
    landlock = doc["backends"][1]
    assert (doc["status"], landlock["available"], landlock["abi"]) == ("usable", True, abi)


def test_override_absent_forces_no_landlock(kernel_host: FakeHost) -> None:
    result = run_cli(kernel_host.env(FLYBOT_PREFLIGHT_LANDLOCK="absent"), "--mode", "workspace-write", "--json")
    landlock = result.json["backends"][1]
    assert result.code == 3
    assert (landlock["available"], landlock["cause"], landlock["error"], landlock["abi"]) == (
        False,
        "not-built",
        "ENOSYS",
        None,
    )
    assert "landlock-kernel" in [u["id"] for u in result.json["unlock"]]


def test_override_disabled_means_built_but_off_at_boot(kernel_host: FakeHost) -> None:
    kernel_host.os_release_text(OS_RELEASES["fedora"])
    report = run_preflight("read-only", env=kernel_host.env(FLYBOT_PREFLIGHT_LANDLOCK="disabled"))
    assert report.status is Status.BLOCKED
    assert "Landlock built but disabled at boot" in render_one_line(report)
    boot = next(u for u in report.unlock if u.id == "landlock-boot")
    assert boot.command is not None and boot.command.startswith("sudo grubby --update-kernel=ALL")


@pytest.mark.parametrize(("abi", "status"), [("1", 3), ("2", 3), ("3", 0), ("7", 0)])
def test_each_confined_mode_needs_landlock_abi_3(kernel_host: FakeHost, abi: str, status: int) -> None:
    for mode in ("read-only", "workspace-write"):
        result = run_cli(kernel_host.env(FLYBOT_PREFLIGHT_LANDLOCK=abi), "--mode", mode, "--json")
        assert result.code == status
        assert result.json["backends"][1]["abi"] == int(abi)
        if status == 3:
            assert result.json["backends"][1]["cause"] == "abi-too-old"


def test_old_abi_line_names_the_abi_and_parses_back(kernel_host: FakeHost) -> None:
    line = run_cli(kernel_host.env(FLYBOT_PREFLIGHT_LANDLOCK="2"), "--mode", "workspace-write").stdout.strip()
    assert "Landlock ABI 2 is older than the ABI 3 needed" in line
    finding = parse_one_line(line).findings[1]
    assert (finding.backend, finding.cause, finding.abi) == ("landlock", "abi-too-old", 2)


def test_lsm_file_override_answer_stands_over_the_syscall(host: FakeHost) -> None:
    """``host`` sets FLYBOT_PREFLIGHT_LSM_FILE without landlock: the kernel's own ABI is not asked."""
    report = run_preflight("workspace-write", env=host.env())
    assert report.status is Status.BLOCKED
    assert (report.backends[1].cause, report.backends[1].abi) == ("not-listed", None)


def test_bad_landlock_override_is_a_usage_error(kernel_host: FakeHost) -> None:
    result = run_cli(kernel_host.env(FLYBOT_PREFLIGHT_LANDLOCK="maybe"), "--mode", "read-only")
    assert result.code == 2 and "FLYBOT_PREFLIGHT_LANDLOCK" in result.stderr and result.stdout == ""


# -- why bwrap fails -----------------------------------------------------------------------------------------
CASES = {
    # cause: (stand-in script or None for "not installed", host settings, phrase, host-side unlock ids)
    "not-installed": (None, {}, "bubblewrap not installed", ["install-bubblewrap"]),
    "apparmor-userns": (
        UID_MAP,
        {"proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1\n"},
        "bubblewrap present but user namespaces are restricted by AppArmor",
        ["bwrap-apparmor-profile", "apparmor-userns-sysctl"],
    ),
    "userns-disabled": (
        NO_PERMS,
        {"proc/sys/kernel/unprivileged_userns_clone": "0\n"},
        "bubblewrap present but unprivileged user namespaces are disabled",
        ["userns-clone-sysctl"],
    ),
    "userns-limit": (
        ENOSPC,
        {"proc/sys/user/max_user_namespaces": "0\n"},
        "bubblewrap present but the user-namespace limit is 0",
        ["userns-max-sysctl"],
    ),
    "container": (
        EPERM,
        {".dockerenv": ""},
        "bubblewrap present but this container does not let it create namespaces",
        ["container-userns"],
    ),
    "other": (SECCOMP, {}, "bubblewrap present but not runnable", []),
}


@pytest.mark.parametrize("cause", list(CASES))
def test_each_bwrap_failure_names_its_own_cause_and_unlock(kernel_host: FakeHost, cause: str) -> None:
    script, settings, phrase, unlock = CASES[cause]
    if script is not None:
        kernel_host.tool("bwrap", script)
    for relative, value in settings.items():
        kernel_host.setting(relative, value)
    env = kernel_host.env(FLYBOT_PREFLIGHT_LANDLOCK="absent")
    result = run_cli(env, "--mode", "workspace-write")
    line = result.stdout.strip()
    assert result.code == 3
    assert line.startswith("sandbox-preflight: workspace-write is UNAVAILABLE: no usable sandbox backend (")
    assert f"({phrase}" in line and " Unlock: " in line
    doc = run_cli(env, "--mode", "workspace-write", "--json").json
    assert doc["backends"][0]["cause"] == cause
    host_ids = [u["id"] for u in doc["unlock"]][2:-2]  # approvals first; Landlock's option and the policy last
    assert host_ids == unlock
    parsed = parse_one_line(line)
    assert (parsed.findings[0].backend, parsed.findings[0].cause) == ("bubblewrap", cause)
    if script is not None:
        assert script.split('"')[1][:40] in parsed.findings[0].error


def test_apparmor_failure_no_longer_offers_installing_bubblewrap(kernel_host: FakeHost) -> None:
    kernel_host.tool("bwrap", UID_MAP)
    kernel_host.setting("proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1")
    kernel_host.os_release_text(OS_RELEASES["ubuntu"])
    report = run_preflight("workspace-write", env=kernel_host.env(FLYBOT_PREFLIGHT_LANDLOCK="absent"))
    ids = [u.id for u in report.unlock]
    assert "install-bubblewrap" not in ids
    assert report.unlock[ids.index("bwrap-apparmor-profile")].command == APPARMOR_PROFILE_COMMAND
    sysctl = report.unlock[ids.index("apparmor-userns-sysctl")]
    assert sysctl.command == "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"
    assert "weakens the host" in sysctl.text
    assert report.backends[0].error.endswith("bwrap: setting up uid map: Permission denied")


def test_no_permissions_message_alone_means_userns_disabled(kernel_host: FakeHost) -> None:
    kernel_host.tool("bwrap", NO_PERMS)
    report = run_preflight("read-only", env=kernel_host.env(FLYBOT_PREFLIGHT_LANDLOCK="absent"))
    assert report.backends[0].cause == "userns-disabled"


@pytest.mark.skipif(REAL_BWRAP is None, reason="bubblewrap is not installed on this machine")
def test_real_bwrap_with_every_restriction_file_present_still_decides_by_running(kernel_host: FakeHost) -> None:
    """The settings only explain a failure: a bwrap that runs is usable whatever they say."""
    assert REAL_BWRAP is not None
    kernel_host.link("bwrap", REAL_BWRAP)
    kernel_host.setting("proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1")
    report = run_preflight("workspace-write", env=kernel_host.env(FLYBOT_PREFLIGHT_LANDLOCK="absent"))
    direct_ok = report.backends[0].available is True
    if direct_ok:
        assert (report.status, report.backends[0].cause) == (Status.USABLE, None)
    else:  # a host where bwrap really fails: the AppArmor setting names the cause
        assert report.backends[0].cause == "apparmor-userns"


# -- exact host commands per OS ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("distro", "install"),
    [
        ("debian", "sudo apt-get install -y bubblewrap"),
        ("ubuntu", "sudo apt-get install -y bubblewrap"),
        ("fedora", "sudo dnf install -y bubblewrap"),
        ("arch", "sudo pacman -S --noconfirm bubblewrap"),
    ],
)
def test_os_release_picks_the_install_command(kernel_host: FakeHost, distro: str, install: str) -> None:
    kernel_host.os_release_text(OS_RELEASES[distro])
    doc = run_cli(kernel_host.env(FLYBOT_PREFLIGHT_LANDLOCK="absent"), "--mode", "read-only", "--json").json
    assert (doc["os"], doc["os_family"]) == (distro, distro)
    option = next(u for u in doc["unlock"] if u["id"] == "install-bubblewrap")
    assert option["command"] == install


def test_unknown_os_gets_no_install_command(kernel_host: FakeHost) -> None:
    kernel_host.os_release_text("ID=plan9\n")
    report = run_preflight("read-only", env=kernel_host.env(FLYBOT_PREFLIGHT_LANDLOCK="absent"))
    option = next(u for u in report.unlock if u.id == "install-bubblewrap")
    assert option.command is None and report.os_family is None
