"""The preflight's decision: pure functions from probe results to a report (no I/O).

Rules (issue "sandbox preflight"):

- ``danger-full-access`` needs no backend: always usable; the probes are reported but never decide.
- ``read-only`` / ``workspace-write``: usable when any probe found a usable backend; blocked when every probe
  says missing/not runnable (every shell call is refused with ``SANDBOX_UNAVAILABLE``); unknown when none is
  usable but one that would decide could not be probed (``available is None``).
- no mode: usable when a backend was found, else unknown (the policy is unknown, so it cannot tell).
- Windows: the ACL runner is reported ``available=None``, so a Windows session is never called blocked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot.preflight.model import Backend, BackendProbe, PreflightReport, SandboxMode, Status, UnlockOption

APPROVE_TURN = UnlockOption("approve-turn", "approve danger-full-access for this turn")
APPROVE_BOT = UnlockOption("approve-bot", "approve danger-full-access for the Bot")
CHANGE_FILE_POLICY = UnlockOption("change-file-policy", "change the session file policy to danger-full-access")
LANDLOCK_KERNEL = UnlockOption("landlock-kernel", "run a Landlock-enforcing kernel")
RESTORE_SANDBOX_EXEC = UnlockOption("restore-sandbox-exec", "restore sandbox-exec (/usr/bin/sandbox-exec) on the host")
INSTALL_BUBBLEWRAP_TEXT = "install bubblewrap on the host"

# os-release ID / ID_LIKE word -> the install command (source: each distribution's package name "bubblewrap").
_INSTALL_COMMANDS: tuple[tuple[str, str], ...] = (
    ("debian", "sudo apt-get install -y bubblewrap"),
    ("ubuntu", "sudo apt-get install -y bubblewrap"),
    ("fedora", "sudo dnf install -y bubblewrap"),
    ("rhel", "sudo dnf install -y bubblewrap"),
    ("centos", "sudo dnf install -y bubblewrap"),
    ("arch", "sudo pacman -S --noconfirm bubblewrap"),
    ("alpine", "sudo apk add bubblewrap"),
    ("suse", "sudo zypper install -y bubblewrap"),
)


def decide_status(mode: SandboxMode | None, backends: Sequence[BackendProbe]) -> Status:
    """The status for ``mode`` given the probe results (rules in the module docstring)."""
    if mode is SandboxMode.DANGER_FULL_ACCESS:
        return Status.USABLE
    if any(probe.available is True for probe in backends):
        return Status.USABLE
    if mode is None or any(probe.available is None for probe in backends) or not backends:
        return Status.UNKNOWN
    return Status.BLOCKED


def parse_os_release(text: str) -> dict[str, str]:
    """``KEY=value`` lines of an os-release file as a dict, quotes stripped; other lines ignored."""
    fields: dict[str, str] = {}
    for raw in text.splitlines():
        key, sep, value = raw.strip().partition("=")
        if sep and key and not key.startswith("#"):
            fields[key] = value.strip().strip("\"'")
    return fields


def bubblewrap_install_command(os_release: Mapping[str, str]) -> str | None:
    """The command that installs bubblewrap on this distribution, or ``None`` when unknown.

    ``os_release`` is :func:`parse_os_release` output; ``ID`` then ``ID_LIKE`` words are matched in order,
    e.g. ``ID=ubuntu`` or ``ID_LIKE=debian`` -> ``sudo apt-get install -y bubblewrap``.
    """
    words = [os_release.get("ID", ""), *os_release.get("ID_LIKE", "").split()]
    for word in words:
        for distro, command in _INSTALL_COMMANDS:
            if word.lower() == distro or word.lower().startswith(distro + "-"):
                return command
    return None


def backend_unlock_options(platform: str, install_command: str | None) -> tuple[UnlockOption, ...]:
    """The host-side options for ``platform``: make a backend usable (none on Windows or unknown platforms)."""
    if platform == "linux":
        return (UnlockOption("install-bubblewrap", INSTALL_BUBBLEWRAP_TEXT, install_command), LANDLOCK_KERNEL)
    if platform == "darwin":
        return (RESTORE_SANDBOX_EXEC,)
    return ()


def unlock_options(status: Status, platform: str, install_command: str | None) -> tuple[UnlockOption, ...]:
    """Every unlock option, approvals first and the policy change last; ``()`` when usable."""
    if status is Status.USABLE:
        return ()
    return (APPROVE_TURN, APPROVE_BOT, *backend_unlock_options(platform, install_command), CHANGE_FILE_POLICY)


def build_report(
    mode: SandboxMode | None,
    platform: str,
    backends: Iterable[BackendProbe],
    install_command: str | None = None,
) -> PreflightReport:
    """Assemble the report: status by :func:`decide_status`, unlock options by :func:`unlock_options`."""
    probes = tuple(backends)
    status = decide_status(mode, probes)
    return PreflightReport(mode, platform, status, probes, unlock_options(status, platform, install_command))


def backend_label(name: str) -> str:
    """Human label of a backend wire name (``landlock`` -> ``Landlock``)."""
    labels = {
        Backend.BUBBLEWRAP.value: "bubblewrap",
        Backend.LANDLOCK.value: "Landlock",
        Backend.SANDBOX_EXEC.value: "sandbox-exec",
        Backend.WINDOWS_ACL.value: "Windows ACL runner",
    }
    return labels.get(name, name)
