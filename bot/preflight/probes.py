"""Backend probes: the preflight's only I/O, one small function per backend of the session's runner chain.

Runner chain (mirrored here): Linux tries bubblewrap, then Landlock; macOS uses sandbox-exec; Windows uses an
ACL runner that cannot be probed from inside a shell.

Test/operator overrides — what the probes look at, read from the ``env`` mapping given (the process
environment in the CLI), so tests can force every outcome with real probes and no mocks:

- ``PATH``: where ``bwrap`` / ``sandbox-exec`` are looked up (and the probed child's ``PATH``).
- ``FLYBOT_PREFLIGHT_LSM_FILE``: the LSM list file (default ``/sys/kernel/security/lsm``).
- ``FLYBOT_PREFLIGHT_PLATFORM``: ``linux`` | ``darwin`` | ``win32``, overriding ``sys.platform``.
- ``FLYBOT_PREFLIGHT_OS_RELEASE_FILE``: the os-release file used to suggest an install command
  (default ``/etc/os-release``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.preflight.decide import bubblewrap_install_command, parse_os_release
from bot.preflight.model import Backend, BackendProbe, InvalidOverrideError

LSM_FILE_ENV = "FLYBOT_PREFLIGHT_LSM_FILE"
PLATFORM_ENV = "FLYBOT_PREFLIGHT_PLATFORM"
OS_RELEASE_FILE_ENV = "FLYBOT_PREFLIGHT_OS_RELEASE_FILE"
DEFAULT_LSM_FILE = "/sys/kernel/security/lsm"
DEFAULT_OS_RELEASE_FILE = "/etc/os-release"
PLATFORMS = ("linux", "darwin", "win32")
DEFAULT_TIMEOUT_S = 10.0

# The read-only profile: root bound read-only, fresh /dev and /proc, every namespace new, a trivial command.
BWRAP_READ_ONLY_ARGS: tuple[str, ...] = (
    "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
    "--unshare-all", "--die-with-parent", "--", "/bin/true",
)
# Deny by default; allow only what exec'ing /usr/bin/true needs.
SEATBELT_DENY_DEFAULT_PROFILE = (
    "(version 1) (deny default) (allow process-exec) (allow process-fork) (allow file-read*) (allow sysctl-read)"
)


@dataclass(frozen=True, slots=True)
class ProbeInputs:
    """What the probes look at, resolved from an env mapping (see the module docstring).

    Attributes:
        platform: ``linux`` | ``darwin`` | ``win32`` or another ``sys.platform`` value.
        path: the ``PATH`` searched for backend binaries (``os.defpath`` when the env has none).
        lsm_file: the LSM list file.
        os_release_file: the os-release file.
        env: the environment given to probed children.
    """

    platform: str
    path: str
    lsm_file: Path
    os_release_file: Path
    env: Mapping[str, str]


def normalize_platform(value: str) -> str:
    """Map a ``sys.platform`` value to ``linux`` / ``darwin`` / ``win32``; others are returned as is."""
    if value.startswith("linux"):
        return "linux"
    if value in ("win32", "cygwin", "msys"):
        return "win32"
    return value


def platform_from_env(env: Mapping[str, str]) -> str:
    """``FLYBOT_PREFLIGHT_PLATFORM`` when set, else ``sys.platform`` normalized.

    Raises:
        InvalidOverrideError: the override is not ``linux``, ``darwin`` or ``win32``.
    """
    override = env.get(PLATFORM_ENV, "")
    if not override:
        return normalize_platform(sys.platform)
    if override not in PLATFORMS:
        raise InvalidOverrideError(
            f"invalid platform {override!r} from {PLATFORM_ENV}; expected one of: {', '.join(PLATFORMS)}"
        )
    return override


def inputs_from_env(env: Mapping[str, str]) -> ProbeInputs:
    """Resolve :class:`ProbeInputs` from ``env`` (raises :class:`InvalidOverrideError` on a bad platform)."""
    return ProbeInputs(
        platform=platform_from_env(env),
        path=env.get("PATH", os.defpath),
        lsm_file=Path(env.get(LSM_FILE_ENV) or DEFAULT_LSM_FILE),
        os_release_file=Path(env.get(OS_RELEASE_FILE_ENV) or DEFAULT_OS_RELEASE_FILE),
        env=env,
    )


def one_line(text: str, limit: int = 200) -> str:
    """The first non-empty line of ``text``, stripped and cut to ``limit`` characters."""
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:limit]
    return ""


def run_trial(name: str, argv: list[str], env: Mapping[str, str], timeout: float) -> BackendProbe:
    """Run a backend binary for real; usable iff it exits 0 within ``timeout`` seconds.

    Non-zero exit or exec failure -> ``available=False`` with the stderr's first line as detail;
    timeout -> ``available=None`` (cannot tell).
    """
    try:
        done = subprocess.run(
            argv, env=dict(env), stdin=subprocess.DEVNULL, capture_output=True, text=True,
            errors="replace", timeout=timeout, check=False,
        )
    except subprocess.TimeoutExpired:
        return BackendProbe(name, None, f"{argv[0]} did not finish within {timeout:g}s")
    except OSError as exc:
        return BackendProbe(name, False, f"not runnable: {argv[0]}: {exc.strerror or exc}")
    if done.returncode == 0:
        return BackendProbe(name, True, f"{argv[0]} ran the read-only profile")
    status = f"killed by signal {-done.returncode}" if done.returncode < 0 else f"exit {done.returncode}"
    reason = one_line(done.stderr) or "no stderr"
    return BackendProbe(name, False, f"not runnable: {status}: {reason}")


def probe_bubblewrap(path: str, env: Mapping[str, str], timeout: float = DEFAULT_TIMEOUT_S) -> BackendProbe:
    """Find ``bwrap`` on ``path`` and run it with :data:`BWRAP_READ_ONLY_ARGS`."""
    binary = shutil.which("bwrap", path=path)
    if binary is None:
        return BackendProbe(Backend.BUBBLEWRAP.value, False, "bwrap not found on PATH")
    return run_trial(Backend.BUBBLEWRAP.value, [binary, *BWRAP_READ_ONLY_ARGS], env, timeout)


def probe_landlock(lsm_file: Path) -> BackendProbe:
    """Landlock is usable iff ``landlock`` is in the comma-separated LSM list; unreadable -> cannot tell."""
    try:
        listed = lsm_file.read_text(encoding="utf-8", errors="replace").strip()
    except OSError as exc:
        return BackendProbe(Backend.LANDLOCK.value, None, f"cannot read {lsm_file}: {exc.strerror or exc}")
    if "landlock" in [name.strip() for name in listed.split(",")]:
        return BackendProbe(Backend.LANDLOCK.value, True, f"landlock listed in {lsm_file}")
    return BackendProbe(Backend.LANDLOCK.value, False, f"landlock not listed in {lsm_file} ({listed or 'empty'})")


def probe_sandbox_exec(path: str, env: Mapping[str, str], timeout: float = DEFAULT_TIMEOUT_S) -> BackendProbe:
    """Find ``sandbox-exec`` on ``path`` and run ``/usr/bin/true`` under a deny-by-default profile."""
    binary = shutil.which("sandbox-exec", path=path)
    if binary is None:
        return BackendProbe(Backend.SANDBOX_EXEC.value, False, "sandbox-exec not found on PATH")
    argv = [binary, "-p", SEATBELT_DENY_DEFAULT_PROFILE, "/usr/bin/true"]
    return run_trial(Backend.SANDBOX_EXEC.value, argv, env, timeout)


def probe_windows_acl() -> BackendProbe:
    """The Windows ACL runner cannot be probed from inside a shell: always unknown, never unavailable."""
    return BackendProbe(Backend.WINDOWS_ACL.value, None, "the ACL runner cannot be probed from inside a shell")


def probe_backends(inputs: ProbeInputs, timeout: float = DEFAULT_TIMEOUT_S) -> tuple[BackendProbe, ...]:
    """Run the platform's probes in runner-chain order; ``()`` on a platform with no known backend."""
    if inputs.platform == "linux":
        return (probe_bubblewrap(inputs.path, inputs.env, timeout), probe_landlock(inputs.lsm_file))
    if inputs.platform == "darwin":
        return (probe_sandbox_exec(inputs.path, inputs.env, timeout),)
    if inputs.platform == "win32":
        return (probe_windows_acl(),)
    return ()


def read_install_command(os_release_file: Path) -> str | None:
    """The bubblewrap install command for the distribution in ``os_release_file``; ``None`` if unreadable/unknown."""
    try:
        text = os_release_file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return bubblewrap_install_command(parse_os_release(text))
