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

from bot.preflight import catalogue
from bot.preflight.causes import unlock_ids
from bot.preflight.model import Backend, BackendProbe, PreflightReport, SandboxMode, Status, UnlockOption

APPROVE_TURN = catalogue.option("approve-turn")
APPROVE_BOT = catalogue.option("approve-bot")
CHANGE_FILE_POLICY = catalogue.option("change-file-policy")
LANDLOCK_KERNEL = catalogue.option("landlock-kernel")
RESTORE_SANDBOX_EXEC = catalogue.option("restore-sandbox-exec")
INSTALL_BUBBLEWRAP_TEXT = catalogue.CATALOGUE["install-bubblewrap"].text

LANDLOCK_MIN_ABI: dict[SandboxMode, int] = {SandboxMode.READ_ONLY: 3, SandboxMode.WORKSPACE_WRITE: 3}
"""The Landlock ABI each confined mode needs before Landlock counts as its backend.

Both need ABI 3: below it truncation is outside Landlock's control, so ``truncate(2)`` could empty a file the
policy keeps read-only (read-only: every file; workspace-write: every file outside the workspace). Source: kernel
docs, Documentation/userspace-api/landlock.rst, "Previous limitations / File truncation (ABI < 3)", and
include/uapi/linux/landlock.h (LANDLOCK_ACCESS_FS_TRUNCATE "is available since the third version of the Landlock
ABI"). workspace-write also needs ABI 2's LANDLOCK_ACCESS_FS_REFER (below it every rename or link across
directories is refused: "File renaming and linking (ABI < 2)"), which ABI 3 includes. Linux 6.2 has ABI 3.
"""


def landlock_min_abi(mode: SandboxMode | None) -> int:
    """The ABI Landlock needs for ``mode``; with no mode, the highest any confined mode needs."""
    if mode is not None and mode in LANDLOCK_MIN_ABI:
        return LANDLOCK_MIN_ABI[mode]
    return max(LANDLOCK_MIN_ABI.values())


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
    e.g. ``ID=ubuntu`` or ``ID_LIKE=debian`` -> ``sudo apt-get install -y bubblewrap`` (``bot.preflight.catalogue``).
    """
    return catalogue.CATALOGUE["install-bubblewrap"].command_for(catalogue.os_family(os_release))


def backend_unlock_options(
    platform: str, backends: Sequence[BackendProbe], family: str | None = None
) -> tuple[UnlockOption, ...]:
    """The host-side options: for each unusable probe, the catalogue's options for its cause (deduplicated).

    Linux probes without a cause fall back to installing bubblewrap / a Landlock kernel; macOS offers restoring
    sandbox-exec; Windows and unknown platforms have none.
    """
    if platform == "darwin":
        return (RESTORE_SANDBOX_EXEC,)
    if platform != "linux":
        return ()
    ids: list[str] = []
    for probe in backends:
        if probe.available is not True:
            ids += [i for i in unlock_ids(probe.name, probe.cause) if i not in ids]
    if not ids:
        ids = ["install-bubblewrap", "landlock-kernel"]
    return tuple(catalogue.option(i, family) for i in ids)


def unlock_options(
    status: Status, platform: str, backends: Sequence[BackendProbe] = (), family: str | None = None
) -> tuple[UnlockOption, ...]:
    """Every unlock option, approvals first and the policy change last; ``()`` when usable."""
    if status is Status.USABLE:
        return ()
    return (APPROVE_TURN, APPROVE_BOT, *backend_unlock_options(platform, backends, family), CHANGE_FILE_POLICY)


def build_report(
    mode: SandboxMode | None,
    platform: str,
    backends: Iterable[BackendProbe],
    os_release: Mapping[str, str] | None = None,
) -> PreflightReport:
    """Assemble the report: status by :func:`decide_status`, unlock options by :func:`unlock_options`.

    ``os_release`` (parsed fields, Linux only) picks the exact host commands and fills ``os_id``.
    """
    probes = tuple(backends)
    status = decide_status(mode, probes)
    fields = os_release or {}
    family = catalogue.os_family(fields)
    return PreflightReport(
        mode,
        platform,
        status,
        probes,
        unlock_options(status, platform, probes, family),
        os_id=fields.get("ID") or None,
        os_family=family,
    )


def backend_label(name: str) -> str:
    """Human label of a backend wire name (``landlock`` -> ``Landlock``)."""
    labels = {
        Backend.BUBBLEWRAP.value: "bubblewrap",
        Backend.LANDLOCK.value: "Landlock",
        Backend.SANDBOX_EXEC.value: "sandbox-exec",
        Backend.WINDOWS_ACL.value: "Windows ACL runner",
    }
    return labels.get(name, name)
