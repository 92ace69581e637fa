"""Backend probes: the preflight's only I/O, one small function per backend of the session's runner chain.

Runner chain (mirrored here): Linux tries bubblewrap, then Landlock; macOS uses sandbox-exec; Windows uses an
ACL runner that cannot be probed from inside a shell.

Test/operator overrides — what the probes look at, read from the ``env`` mapping given (the process
environment in the CLI), so tests can force every outcome with real probes and no mocks:

- ``PATH``: where ``bwrap`` / ``sandbox-exec`` are looked up (and the probed child's ``PATH``).
- ``FLYBOT_PREFLIGHT_LSM_FILE``: the LSM list file. When set, its answer about Landlock stands (the syscall is not
  made); unset, the list (``/sys/kernel/security/lsm``) is only the second opinion, read when the
  ``landlock_create_ruleset`` syscall cannot be made or answers something else than an ABI, ENOSYS or EOPNOTSUPP.
- ``FLYBOT_PREFLIGHT_LANDLOCK``: force the kernel's answer instead of asking it: ``absent`` (as ENOSYS: not
  built), ``disabled`` (as EOPNOTSUPP: disabled at boot) or an ABI number (``2``). ``absent`` is the documented
  way to test "no Landlock" on a machine that has it.
- ``FLYBOT_PREFLIGHT_ROOT``: a directory standing in for ``/`` when reading the host settings that explain a
  bwrap failure (``proc/sys/kernel/apparmor_restrict_unprivileged_userns``,
  ``proc/sys/kernel/unprivileged_userns_clone``, ``proc/sys/user/max_user_namespaces``, ``.dockerenv``,
  ``run/.containerenv``) and, unless overridden below, ``etc/os-release``.
- ``FLYBOT_PREFLIGHT_PLATFORM``: ``linux`` | ``darwin`` | ``win32``, overriding ``sys.platform``.
- ``FLYBOT_PREFLIGHT_OS_RELEASE_FILE``: the os-release file used to suggest an install command
  (default ``/etc/os-release``).
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform as host_platform
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.preflight import causes
from bot.preflight.causes import HostSettings, classify_bwrap_failure
from bot.preflight.decide import parse_os_release
from bot.preflight.model import Backend, BackendProbe, InvalidOverrideError

LSM_FILE_ENV = "FLYBOT_PREFLIGHT_LSM_FILE"
LANDLOCK_ENV = "FLYBOT_PREFLIGHT_LANDLOCK"
ROOT_ENV = "FLYBOT_PREFLIGHT_ROOT"
LANDLOCK_SYSCALL = {"x86_64": 444, "aarch64": 444, "arm64": 444}
"""``landlock_create_ruleset``'s number per machine (kernel syscall tables: arch/x86/entry/syscalls/syscall_64.tbl
and include/uapi/asm-generic/unistd.h, which arm64 uses). Other machines fall back to the LSM list."""
LANDLOCK_CREATE_RULESET_VERSION = 1 << 0
"""The flag that makes ``landlock_create_ruleset(NULL, 0, flag)`` return the ABI version (include/uapi/linux/landlock.h)."""
PLATFORM_ENV = "FLYBOT_PREFLIGHT_PLATFORM"
OS_RELEASE_FILE_ENV = "FLYBOT_PREFLIGHT_OS_RELEASE_FILE"
DEFAULT_LSM_FILE = "/sys/kernel/security/lsm"
DEFAULT_OS_RELEASE_FILE = "/etc/os-release"
PLATFORMS = ("linux", "darwin", "win32")
DEFAULT_TIMEOUT_S = 10.0

# The read-only profile: root bound read-only, fresh /dev and /proc, every namespace new, a trivial command.
BWRAP_READ_ONLY_ARGS: tuple[str, ...] = (
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
        lsm_forced: ``FLYBOT_PREFLIGHT_LSM_FILE`` is set: the list's answer stands.
        landlock_forced: ``FLYBOT_PREFLIGHT_LANDLOCK`` (``absent``, ``disabled`` or an ABI), else ``None``.
        root: the directory standing in for ``/`` for host settings (``/`` by default).
    """

    platform: str
    path: str
    lsm_file: Path
    os_release_file: Path
    env: Mapping[str, str]
    lsm_forced: bool = False
    landlock_forced: str | None = None
    root: Path = Path("/")


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


def _landlock_override(env: Mapping[str, str]) -> str | None:
    value = env.get(LANDLOCK_ENV, "")
    if not value:
        return None
    if value in ("absent", "disabled") or (value.isdigit() and 0 < int(value) < 1000):
        return value
    raise InvalidOverrideError(
        f"invalid value {value!r} of {LANDLOCK_ENV}; expected absent, disabled or an ABI number such as 3"
    )


def inputs_from_env(env: Mapping[str, str]) -> ProbeInputs:
    """Resolve :class:`ProbeInputs` from ``env``.

    Raises:
        InvalidOverrideError: a bad ``FLYBOT_PREFLIGHT_PLATFORM`` or ``FLYBOT_PREFLIGHT_LANDLOCK`` value.
    """
    root = Path(env.get(ROOT_ENV) or "/")
    return ProbeInputs(
        platform=platform_from_env(env),
        path=env.get("PATH", os.defpath),
        lsm_file=Path(env.get(LSM_FILE_ENV) or DEFAULT_LSM_FILE),
        os_release_file=Path(env.get(OS_RELEASE_FILE_ENV) or root / DEFAULT_OS_RELEASE_FILE.lstrip("/")),
        env=env,
        lsm_forced=bool(env.get(LSM_FILE_ENV)),
        landlock_forced=_landlock_override(env),
        root=root,
    )


def _read_setting(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None


def read_host_settings(root: Path) -> HostSettings:
    """The settings that explain a bwrap failure, read under ``root`` (``/`` on a real host)."""
    marker = next((f"/{m}" for m in (".dockerenv", "run/.containerenv") if (root / m).exists()), None)
    return HostSettings(
        apparmor_restrict_userns=_read_setting(root / "proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
        unprivileged_userns_clone=_read_setting(root / "proc/sys/kernel/unprivileged_userns_clone"),
        max_user_namespaces=_read_setting(root / "proc/sys/user/max_user_namespaces"),
        container=marker,
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
            argv,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            check=False,
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


def probe_bubblewrap(
    path: str, env: Mapping[str, str], timeout: float = DEFAULT_TIMEOUT_S, root: Path = Path("/")
) -> BackendProbe:
    """Find ``bwrap`` on ``path`` and run it with :data:`BWRAP_READ_ONLY_ARGS`; name the cause when it fails.

    The cause (``bot.preflight.causes``) comes from the trial's stderr and the host settings under ``root``;
    ``error`` is the stderr's first line.
    """
    binary = shutil.which("bwrap", path=path)
    if binary is None:
        return BackendProbe(
            Backend.BUBBLEWRAP.value,
            False,
            "bwrap not found on PATH",
            cause=causes.NOT_INSTALLED,
            error="bwrap not found on PATH",
        )
    trial = run_trial(Backend.BUBBLEWRAP.value, [binary, *BWRAP_READ_ONLY_ARGS], env, timeout)
    if trial.available is not False:
        return trial
    error = trial.detail.removeprefix("not runnable: ")
    cause = classify_bwrap_failure(error, read_host_settings(root))
    return BackendProbe(trial.name, False, trial.detail, cause=cause, error=error)


def landlock_abi() -> tuple[int | None, int | None]:
    """Ask the kernel: ``landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)`` through libc's
    ``syscall(2)``.

    Returns ``(abi, None)`` on success, ``(None, errno)`` when the kernel refused (ENOSYS: Landlock not built in;
    EOPNOTSUPP: built but disabled at boot; anything else, e.g. EPERM from a seccomp filter: cannot tell), and
    ``(None, None)`` when the syscall cannot be made here (unknown machine, no libc).
    """
    number = LANDLOCK_SYSCALL.get(host_platform.machine())
    if number is None:
        return None, None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None, None
    libc.syscall.restype = ctypes.c_long
    ctypes.set_errno(0)
    result = libc.syscall(
        ctypes.c_long(number),
        ctypes.c_void_p(None),
        ctypes.c_size_t(0),
        ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION),
    )
    if result >= 0:
        return int(result), None
    return None, ctypes.get_errno()


def landlock_from_answer(abi: int | None, err: int | None, min_abi: int, source: str) -> BackendProbe | None:
    """The probe for the kernel's answer (``source`` says who answered), or ``None`` when it decides nothing."""
    name = Backend.LANDLOCK.value
    if abi is not None:
        if abi >= min_abi:
            return BackendProbe(name, True, f"ABI {abi} from {source}", abi=abi)
        return BackendProbe(
            name,
            False,
            f"Landlock ABI {abi} is older than the ABI {min_abi} needed ({source})",
            cause=causes.LANDLOCK_OLD_ABI,
            error=f"ABI {abi}",
            abi=abi,
        )
    if err == errno.ENOSYS:
        return BackendProbe(
            name,
            False,
            f"Landlock is not built into this kernel ({source}: ENOSYS)",
            cause=causes.LANDLOCK_NOT_BUILT,
            error="ENOSYS",
        )
    if err == errno.EOPNOTSUPP:
        return BackendProbe(
            name,
            False,
            f"Landlock is built but disabled at boot ({source}: EOPNOTSUPP)",
            cause=causes.LANDLOCK_DISABLED,
            error="EOPNOTSUPP",
        )
    return None


def probe_landlock_lsm(lsm_file: Path) -> BackendProbe:
    """Landlock is usable iff ``landlock`` is in the comma-separated LSM list; unreadable -> cannot tell."""
    try:
        listed = lsm_file.read_text(encoding="utf-8", errors="replace").strip()
    except OSError as exc:
        return BackendProbe(Backend.LANDLOCK.value, None, f"cannot read {lsm_file}: {exc.strerror or exc}")
    if "landlock" in [name.strip() for name in listed.split(",")]:
        return BackendProbe(Backend.LANDLOCK.value, True, f"landlock listed in {lsm_file}")
    return BackendProbe(
        Backend.LANDLOCK.value,
        False,
        f"landlock not listed in {lsm_file} ({listed or 'empty'})",
        cause=causes.LANDLOCK_NOT_LISTED,
        error=f"not listed in {lsm_file}",
    )


def probe_landlock(inputs: ProbeInputs, min_abi: int) -> BackendProbe:
    """Landlock, by order of authority: the LSM-file override (its answer stands), the ``FLYBOT_PREFLIGHT_LANDLOCK``
    override, the syscall, then the LSM list as a second opinion (the syscall could not be made or was refused).
    """
    if inputs.lsm_forced:
        return probe_landlock_lsm(inputs.lsm_file)
    forced = inputs.landlock_forced
    if forced is not None:
        err = {"absent": errno.ENOSYS, "disabled": errno.EOPNOTSUPP}.get(forced)
        answer = landlock_from_answer(int(forced) if err is None else None, err, min_abi, LANDLOCK_ENV)
        assert answer is not None  # absent/disabled/an ABI always decide
        return answer
    abi, err = landlock_abi()
    answer = landlock_from_answer(abi, err, min_abi, "landlock_create_ruleset")
    if answer is not None:
        return answer
    second = probe_landlock_lsm(inputs.lsm_file)
    why = "not available here" if err is None else errno.errorcode.get(err, str(err))
    return BackendProbe(
        second.name, second.available, f"{second.detail}; syscall {why}", cause=second.cause, error=second.error
    )


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


def probe_backends(
    inputs: ProbeInputs, timeout: float = DEFAULT_TIMEOUT_S, landlock_min_abi: int = 3
) -> tuple[BackendProbe, ...]:
    """Run the platform's probes in runner-chain order; ``()`` on a platform with no known backend.

    ``landlock_min_abi`` is the ABI the session's mode needs (``bot.preflight.decide.landlock_min_abi``).
    """
    if inputs.platform == "linux":
        return (
            probe_bubblewrap(inputs.path, inputs.env, timeout, inputs.root),
            probe_landlock(inputs, landlock_min_abi),
        )
    if inputs.platform == "darwin":
        return (probe_sandbox_exec(inputs.path, inputs.env, timeout),)
    if inputs.platform == "win32":
        return (probe_windows_acl(),)
    return ()


def read_os_release(os_release_file: Path) -> dict[str, str]:
    """The parsed os-release fields (``{}`` when unreadable)."""
    try:
        text = os_release_file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    return parse_os_release(text)
