"""`flybot preflight` through a real subprocess: exit codes, the one line and the JSON per mode x outcome.

Each host setup controls only what the real probes see (PATH, lsm file, platform override).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest
from preflight_support import FakeHost, run_cli

from bot.preflight.cli import handle, register

BLOCKED_LINE_WW = (
    "sandbox-preflight: workspace-write is UNAVAILABLE: no usable sandbox backend (bubblewrap not installed; "
    "Landlock not enabled). Every shell call will be refused with SANDBOX_UNAVAILABLE. Unlock: approve "
    "danger-full-access for this turn (or the Bot); install bubblewrap on the host (`sudo apt-get install -y "
    "bubblewrap`); run a kernel with Landlock ABI 3 or later (Linux 6.2+); change the session file policy to "
    "danger-full-access."
)


def no_backend(h: FakeHost) -> None:
    """Linux, no bwrap on PATH, landlock not in the lsm list."""


def landlock_only(h: FakeHost) -> None:
    h.lsm("lockdown,capability,landlock,yama")


def bwrap_runs(h: FakeHost) -> None:
    h.tool("bwrap", "exit 0")


def bwrap_fails(h: FakeHost) -> None:
    h.tool("bwrap", 'echo "bwrap: No permissions to create new namespace" >&2\necho "second line" >&2\nexit 1')


def bwrap_fails_landlock(h: FakeHost) -> None:
    bwrap_fails(h)
    landlock_only(h)


def lsm_unreadable(h: FakeHost) -> None:
    h.lsm(None)


def lsm_unreadable_bwrap_runs(h: FakeHost) -> None:
    h.lsm(None)
    bwrap_runs(h)


def darwin_missing(h: FakeHost) -> None:
    h.platform = "darwin"


def darwin_runs(h: FakeHost) -> None:
    h.platform = "darwin"
    h.tool("sandbox-exec", 'test "$1" = -p || exit 64\nexit 0')


def darwin_fails(h: FakeHost) -> None:
    h.platform = "darwin"
    h.tool("sandbox-exec", 'echo "sandbox-exec: sandbox_apply: Operation not permitted" >&2\nexit 71')


def win32(h: FakeHost) -> None:
    h.platform = "win32"
    h.lsm(None)


Setup = Callable[[FakeHost], None]
RO, WW, DFA, NONE = "read-only", "workspace-write", "danger-full-access", None

# (setup, mode, exit code, status): every mode x outcome of the rules.
MATRIX: list[tuple[Setup, str | None, int, str]] = [
    (no_backend, RO, 3, "blocked"),
    (no_backend, WW, 3, "blocked"),
    (no_backend, DFA, 0, "usable"),
    (no_backend, NONE, 4, "unknown"),
    (bwrap_fails, RO, 3, "blocked"),
    (bwrap_fails, WW, 3, "blocked"),
    (bwrap_fails, DFA, 0, "usable"),
    (bwrap_fails, NONE, 4, "unknown"),
    (bwrap_runs, RO, 0, "usable"),
    (bwrap_runs, WW, 0, "usable"),
    (bwrap_runs, DFA, 0, "usable"),
    (bwrap_runs, NONE, 0, "usable"),
    (landlock_only, RO, 0, "usable"),
    (landlock_only, WW, 0, "usable"),
    (landlock_only, NONE, 0, "usable"),
    (bwrap_fails_landlock, WW, 0, "usable"),
    (lsm_unreadable, RO, 4, "unknown"),
    (lsm_unreadable, WW, 4, "unknown"),
    (lsm_unreadable, DFA, 0, "usable"),
    (lsm_unreadable, NONE, 4, "unknown"),
    (lsm_unreadable_bwrap_runs, WW, 0, "usable"),
    (darwin_missing, RO, 3, "blocked"),
    (darwin_missing, WW, 3, "blocked"),
    (darwin_missing, DFA, 0, "usable"),
    (darwin_missing, NONE, 4, "unknown"),
    (darwin_runs, WW, 0, "usable"),
    (darwin_runs, NONE, 0, "usable"),
    (darwin_fails, WW, 3, "blocked"),
    (win32, RO, 4, "unknown"),
    (win32, WW, 4, "unknown"),
    (win32, DFA, 0, "usable"),
    (win32, NONE, 4, "unknown"),
]


def _mode_args(mode: str | None) -> list[str]:
    return [] if mode is None else ["--mode", mode]


@pytest.mark.parametrize(("setup", "mode", "code", "status"), MATRIX, ids=lambda v: getattr(v, "__name__", str(v)))
def test_exit_code_and_json_status_per_mode_and_outcome(
    host: FakeHost, setup: Setup, mode: str | None, code: int, status: str
) -> None:
    setup(host)
    as_json = run_cli(host.env(), *_mode_args(mode), "--json")
    as_line = run_cli(host.env(), *_mode_args(mode))
    assert (as_json.code, as_json.json["status"], as_json.json["mode"]) == (code, status, mode)
    assert as_json.json["usable"] is (status == "usable")
    assert as_json.json["unknown"] is (status == "unknown")
    assert as_line.code == code
    assert len(as_line.lines) == 1 and as_line.lines[0].startswith("sandbox-preflight: ")
    assert as_line.stderr == ""


def test_blocked_host_prints_the_one_blocked_line(host: FakeHost) -> None:
    result = run_cli(host.env(), "--mode", "workspace-write")
    assert (result.code, result.stdout) == (3, BLOCKED_LINE_WW + "\n")


def test_bwrap_that_cannot_create_namespaces_is_not_runnable_with_first_stderr_line(host: FakeHost) -> None:
    bwrap_fails(host)
    bwrap = run_cli(host.env(), "--mode", "read-only", "--json").json["backends"][0]
    assert bwrap["name"] == "bubblewrap" and bwrap["available"] is False
    assert bwrap["detail"].endswith("exit 1: bwrap: No permissions to create new namespace")


def test_darwin_blocked_line_names_sandbox_exec(host: FakeHost) -> None:
    darwin_missing(host)
    line = run_cli(host.env(), "--mode", "read-only").stdout
    assert "no usable sandbox backend (sandbox-exec missing or not runnable)" in line
    assert "install bubblewrap" not in line


def test_windows_is_never_blocked_even_without_anything_on_path(host: FakeHost) -> None:
    win32(host)
    result = run_cli(host.env(PATH="/nonexistent"), "--mode", "workspace-write", "--json")
    assert result.code == 4
    assert result.json["backends"] == [
        {
            "name": "windows-acl",
            "available": None,
            "detail": "the ACL runner cannot be probed from inside a shell",
            "cause": None,
            "error": "",
        }
    ]


def test_usable_and_unknown_lines_say_where_the_session_stands(host: FakeHost) -> None:
    landlock_only(host)
    usable = run_cli(host.env(), "--mode", "workspace-write").stdout
    assert usable.startswith("sandbox-preflight: workspace-write is usable: Landlock (")
    lsm_unreadable(host)
    unknown = run_cli(host.env(), "--mode", "workspace-write").stdout
    assert unknown.startswith("sandbox-preflight: workspace-write is UNKNOWN: cannot tell")
    assert "SANDBOX_UNAVAILABLE" in unknown and "Unlock if they are: " in unknown


def test_danger_full_access_line_reports_probes_without_deciding(host: FakeHost) -> None:
    line = run_cli(host.env(), "--mode", "danger-full-access").stdout
    assert line.startswith("sandbox-preflight: danger-full-access needs no sandbox backend")
    assert "bubblewrap: not usable (bwrap not found on PATH)" in line


def test_json_document_shape(host: FakeHost) -> None:
    doc = run_cli(host.env(), "--json").json
    assert set(doc) == {"mode", "platform", "status", "unknown", "usable", "os", "os_family", "backends", "unlock"}
    assert (doc["mode"], doc["platform"], doc["status"]) == (None, "linux", "unknown")
    assert [b["name"] for b in doc["backends"]] == ["bubblewrap", "landlock"]
    assert set(doc["backends"][0]) == {"name", "available", "detail", "cause", "error"}
    assert set(doc["backends"][1]) == {"name", "available", "detail", "cause", "error", "abi"}
    assert doc["unlock"][2] == {
        "id": "install-bubblewrap",
        "text": "install bubblewrap on the host",
        "command": "sudo apt-get install -y bubblewrap",
    }
    assert [u["id"] for u in doc["unlock"]] == [
        "approve-turn",
        "approve-bot",
        "install-bubblewrap",
        "landlock-kernel",
        "change-file-policy",
    ]


def test_json_has_no_install_command_on_an_unknown_distribution(host: FakeHost) -> None:
    host.os_release("somethingelse")
    unlock = run_cli(host.env(), "--mode", "read-only", "--json").json["unlock"]
    assert {"id": "install-bubblewrap", "text": "install bubblewrap on the host"} in unlock


def test_usable_json_has_empty_unlock(host: FakeHost) -> None:
    bwrap_runs(host)
    assert run_cli(host.env(), "--mode", "read-only", "--json").json["unlock"] == []


@pytest.mark.parametrize(
    ("env_mode", "flag", "code", "mode"),
    [
        ("danger-full-access", None, 0, "danger-full-access"),
        ("workspace-write", None, 3, "workspace-write"),
        ("danger-full-access", "workspace-write", 3, "workspace-write"),
        ("workspace-write", "danger-full-access", 0, "danger-full-access"),
        ("not-a-mode", "read-only", 3, "read-only"),
        ("", None, 4, None),
    ],
)
def test_flag_wins_over_env_mode(host: FakeHost, env_mode: str, flag: str | None, code: int, mode: str | None) -> None:
    result = run_cli(host.env(FLYBOT_SANDBOX_MODE=env_mode), *_mode_args(flag), "--json")
    assert (result.code, result.json["mode"]) == (code, mode)


@pytest.mark.parametrize(
    ("env", "args", "names"),
    [
        ({}, ["--mode", "workspace_write"], "--mode"),
        ({}, ["--mode", ""], "--mode"),
        ({"FLYBOT_SANDBOX_MODE": "full"}, [], "FLYBOT_SANDBOX_MODE"),
        ({"FLYBOT_SANDBOX_MODE": "full"}, ["--json"], "FLYBOT_SANDBOX_MODE"),
        ({"FLYBOT_PREFLIGHT_PLATFORM": "freebsd"}, ["--mode", "read-only"], "FLYBOT_PREFLIGHT_PLATFORM"),
    ],
)
def test_bad_mode_or_override_is_one_stderr_line_and_exit_2(
    host: FakeHost, env: dict[str, str], args: list[str], names: str
) -> None:
    result = run_cli(host.env(**env), *args)
    assert (result.code, result.stdout) == (2, "")
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("flybot preflight: invalid ") and names in result.stderr


def test_register_adds_preflight_subcommand_with_handler() -> None:
    parser = argparse.ArgumentParser(prog="flybot")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["preflight", "--mode", "read-only", "--json"])
    assert (args.func, args.mode, args.json) == (handle, "read-only", True)
