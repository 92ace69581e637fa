"""The real probes, in process: real bwrap on this machine, timeouts, exec failures, the lsm file."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from preflight_support import FakeHost, run_cli

from bot.preflight import Status, run_preflight
from bot.preflight.probes import probe_landlock_lsm as probe_landlock

REAL_BWRAP = shutil.which("bwrap")
if REAL_BWRAP is None and os.environ.get("CI") == "true":
    raise RuntimeError("CI must install Debian's bubblewrap (.ci/run): the preflight's real probe needs it")
needs_bwrap = pytest.mark.skipif(REAL_BWRAP is None, reason="bubblewrap is not installed on this machine")


def direct_bwrap_run(bwrap: str) -> subprocess.CompletedProcess[str]:
    """The read-only profile, run directly: the ground truth for what bwrap can do here."""
    argv = [
        bwrap,
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--unshare-all",
        "--die-with-parent",
        "--",
        "/bin/true",
    ]
    return subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)


@needs_bwrap
def test_real_bwrap_outcome_matches_a_direct_run(host: FakeHost) -> None:
    assert REAL_BWRAP is not None
    host.link("bwrap", REAL_BWRAP)
    direct = direct_bwrap_run(REAL_BWRAP)
    result = run_cli(host.env(), "--mode", "workspace-write", "--json")
    bwrap = result.json["backends"][0]
    if direct.returncode == 0:
        assert (result.code, bwrap["available"]) == (0, True)
    else:
        first = next(line.strip() for line in direct.stderr.splitlines() if line.strip())
        assert (result.code, bwrap["available"]) == (3, False)
        assert bwrap["detail"].endswith(first)


@needs_bwrap
def test_real_bwrap_does_not_decide_danger_full_access(host: FakeHost) -> None:
    assert REAL_BWRAP is not None
    host.link("bwrap", REAL_BWRAP)
    assert run_cli(host.env(), "--mode", "danger-full-access").code == 0


def test_bwrap_that_hangs_past_the_timeout_cannot_tell(host: FakeHost) -> None:
    host.tool("bwrap", "exec /bin/sleep 30")
    report = run_preflight("workspace-write", env=host.env(), timeout=0.5)
    assert report.status is Status.UNKNOWN
    assert report.backends[0].available is None and "did not finish within 0.5s" in report.backends[0].detail


def test_bwrap_that_cannot_be_executed_is_not_runnable(host: FakeHost) -> None:
    bwrap = host.bin_dir / "bwrap"
    bwrap.write_text("#!/nonexistent/interpreter\n")
    bwrap.chmod(0o755)
    report = run_preflight("read-only", env=host.env())
    assert report.status is Status.BLOCKED
    assert report.backends[0].detail.startswith("not runnable: ")


def test_bwrap_probe_passes_the_read_only_profile(host: FakeHost) -> None:
    record = host.root / "argv"
    host.tool("bwrap", f'printf "%s\\n" "$@" > {record}')
    assert run_preflight("read-only", env=host.env()).status is Status.USABLE
    assert record.read_text().split() == [
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--unshare-all",
        "--die-with-parent",
        "--",
        "/bin/true",
    ]


def test_run_preflight_reads_mode_from_env_when_none_given(host: FakeHost) -> None:
    report = run_preflight(env=host.env(FLYBOT_SANDBOX_MODE="read-only"))
    assert (report.mode, report.status, report.exit_code) == ("read-only", Status.BLOCKED, 3)


@pytest.mark.parametrize(
    ("content", "available"),
    [("lockdown,capability,landlock,yama", True), ("landlock", True), ("capability,landlocked", False), ("", False)],
)
def test_landlock_is_usable_only_when_listed(tmp_path: Path, content: str, available: bool) -> None:
    lsm = tmp_path / "lsm"
    lsm.write_text(content)
    assert probe_landlock(lsm).available is available


def test_unreadable_lsm_file_cannot_tell(tmp_path: Path) -> None:
    probe = probe_landlock(tmp_path / "absent")
    assert probe.available is None and "cannot read" in probe.detail
