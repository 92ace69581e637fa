"""Typed values of the sandbox preflight: modes, probe results, unlock options, the report.

Exit codes (issue "sandbox preflight"): ``0`` usable, ``3`` blocked, ``4`` cannot tell, ``2`` usage error.
The JSON shape of a report is documented on :meth:`PreflightReport.to_json_dict`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.errors import FlyBotError

EXIT_USABLE = 0
EXIT_USAGE = 2
EXIT_BLOCKED = 3
EXIT_UNKNOWN = 4


class PreflightError(FlyBotError):
    """Base of every error the preflight raises; the message is meant for the user as is (DESIGN.md: FlyBotError)."""

    code = "preflight_error"
    status = 422

    def __init__(self, detail: str = "", *, field: str | None = None) -> None:
        super().__init__(detail, field=field)


class PreflightUsageError(PreflightError, ValueError):
    """A bad input (mode value, override value); the CLI prints it on one stderr line and exits 2."""


class InvalidModeError(PreflightUsageError):
    """A sandbox mode that is not ``read-only``, ``workspace-write`` or ``danger-full-access``."""


class InvalidOverrideError(PreflightUsageError):
    """A test/operator override env var (e.g. ``FLYBOT_PREFLIGHT_PLATFORM``) holds a bad value."""


class BlockedLineParseError(PreflightError, ValueError):
    """Text that is not a well-formed one-line blocked report (see ``parse_one_line``)."""


class SandboxMode(StrEnum):
    """The session's file policy, as the coding agent names it (``--mode`` / ``FLYBOT_SANDBOX_MODE``)."""

    READ_ONLY = "read-only"
    WORKSPACE_WRITE = "workspace-write"
    DANGER_FULL_ACCESS = "danger-full-access"

    @property
    def needs_backend(self) -> bool:
        """True for modes whose shell calls run confined (everything but ``danger-full-access``)."""
        return self is not SandboxMode.DANGER_FULL_ACCESS

    @classmethod
    def parse(cls, text: str, *, source: str) -> SandboxMode:
        """Parse a mode name exactly as written (``"workspace-write"``).

        Args:
            text: the value given.
            source: where it came from, for the message (``"--mode"``, ``"FLYBOT_SANDBOX_MODE"``).

        Raises:
            InvalidModeError: not a mode name; the message names the source and the valid names.
        """
        for mode in cls:
            if mode.value == text:
                return mode
        valid = ", ".join(mode.value for mode in cls)
        raise InvalidModeError(f"invalid sandbox mode {text!r} from {source}; expected one of: {valid}")


class Status(StrEnum):
    """Where a session stands: its exit code is :attr:`exit_code`."""

    USABLE = "usable"
    BLOCKED = "blocked"
    UNKNOWN = "unknown"

    @property
    def exit_code(self) -> int:
        """``0`` usable, ``3`` blocked, ``4`` unknown (cannot tell)."""
        return {Status.USABLE: EXIT_USABLE, Status.BLOCKED: EXIT_BLOCKED, Status.UNKNOWN: EXIT_UNKNOWN}[self]


class Backend(StrEnum):
    """A confinement backend of the session's runner chain (wire names used in JSON and parsed lines)."""

    BUBBLEWRAP = "bubblewrap"
    LANDLOCK = "landlock"
    SANDBOX_EXEC = "sandbox-exec"
    WINDOWS_ACL = "windows-acl"


@dataclass(frozen=True, slots=True)
class BackendProbe:
    """What one probe found.

    Attributes:
        name: a :class:`Backend` wire name, e.g. ``"bubblewrap"``.
        available: ``True`` usable, ``False`` missing or not runnable, ``None`` cannot be probed here
            (timeout, unreadable lsm file, the Windows ACL runner).
        detail: one human line (no newlines), e.g. ``"not runnable: exit 1: bwrap: No permissions ..."``.
        cause: why it is not usable, one of ``bot.preflight.causes``' ids (``apparmor-userns``, ``not-built``,
            ...); ``None`` when usable or unknown.
        error: the probe's own error text, one line (bwrap's first stderr line, the syscall's errno name);
            empty when there is none.
        abi: Landlock only: the ABI version the kernel answered (``None`` when it could not be asked).
    """

    name: str
    available: bool | None
    detail: str
    cause: str | None = None
    error: str = ""
    abi: int | None = None

    def to_json_dict(self) -> dict[str, Any]:
        """``{"name": str, "available": bool | null, "detail": str, "cause": str | null, "error": str}``,
        plus ``"abi": int | null`` for Landlock."""
        out: dict[str, Any] = {
            "name": self.name,
            "available": self.available,
            "detail": self.detail,
            "cause": self.cause,
            "error": self.error,
        }
        if self.name == Backend.LANDLOCK.value:
            out["abi"] = self.abi
        return out


@dataclass(frozen=True, slots=True)
class UnlockOption:
    """One way the owner can unblock a session.

    Attributes:
        id: stable id: ``approve-turn``, ``approve-bot``, ``install-bubblewrap``, ``landlock-kernel``,
            ``restore-sandbox-exec``, ``change-file-policy``; ``other`` for a phrase a parser did not recognise.
        text: the human phrase, as it appears in the one-line report.
        command: a shell command that performs it on the host, when one is known (e.g.
            ``sudo apt-get install -y bubblewrap`` on Debian-like hosts).
    """

    id: str
    text: str
    command: str | None = None

    def to_json_dict(self) -> dict[str, Any]:
        """``{"id": str, "text": str}`` plus ``"command": str`` when one is known."""
        out: dict[str, Any] = {"id": self.id, "text": self.text}
        if self.command is not None:
            out["command"] = self.command
        return out


@dataclass(frozen=True, slots=True)
class PreflightReport:
    """The preflight's verdict for one mode on one host.

    Attributes:
        mode: the session's mode, ``None`` when none was given.
        platform: ``linux``, ``darwin``, ``win32`` (or another ``sys.platform`` value, which has no probes).
        status: usable / blocked / unknown, decided by ``bot.preflight.decide.decide_status``.
        backends: every probe's result, in runner-chain order.
        unlock: the options that would unblock the session; empty when usable.
        os_id: the os-release ``ID`` (``ubuntu``), ``None`` when unknown or not Linux.
        os_family: the OS family the unlock commands were chosen for (``bot.preflight.catalogue.os_family``:
            ``debian``, ``ubuntu``, ``fedora``, ``arch``, ...), ``None`` when unknown.
    """

    mode: SandboxMode | None
    platform: str
    status: Status
    backends: tuple[BackendProbe, ...]
    unlock: tuple[UnlockOption, ...]
    os_id: str | None = None
    os_family: str | None = None

    @property
    def exit_code(self) -> int:
        """``0`` usable, ``3`` blocked, ``4`` unknown."""
        return self.status.exit_code

    def to_json_dict(self) -> dict[str, Any]:
        """The ``--json`` document.

        Shape::

            {
              "mode": "read-only" | "workspace-write" | "danger-full-access" | null,
              "platform": "linux" | "darwin" | "win32" | <other sys.platform>,
              "status": "usable" | "blocked" | "unknown",
              "usable": bool,     # status == "usable" (exit 0)
              "unknown": bool,    # status == "unknown" (exit 4)
              "os": str | null,          # os-release ID
              "os_family": str | null,   # debian | ubuntu | fedora | arch | alpine | suse
              "backends": [{"name": str, "available": bool | null, "detail": str, "cause": str | null,
                            "error": str, "abi"?: int | null}, ...],     # "abi" on the landlock probe only
              "unlock": [{"id": str, "text": str, "command"?: str}, ...]   # [] when usable
            }
        """
        return {
            "mode": None if self.mode is None else self.mode.value,
            "platform": self.platform,
            "status": self.status.value,
            "usable": self.status is Status.USABLE,
            "unknown": self.status is Status.UNKNOWN,
            "os": self.os_id,
            "os_family": self.os_family,
            "backends": [probe.to_json_dict() for probe in self.backends],
            "unlock": [option.to_json_dict() for option in self.unlock],
        }


@dataclass(frozen=True, slots=True)
class ParsedBlockedLine:
    """A one-line blocked report read back (``parse_one_line``).

    Attributes:
        mode: ``read-only`` or ``workspace-write`` (only these can be blocked).
        missing_backends: backend wire names (``"bubblewrap"``, ``"landlock"``, ``"sandbox-exec"``); a phrase
            this version does not know is kept verbatim.
        unlock: the unlock options, ids recovered from their phrases (``"other"`` when unrecognised).
        findings: per missing backend, the cause and error text the line names (cause ``None`` when the
            phrase does not name one).
    """

    mode: SandboxMode
    missing_backends: tuple[str, ...]
    unlock: tuple[UnlockOption, ...]
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True, slots=True)
class Finding:
    """Why one backend is missing, as a report carries it.

    Attributes:
        backend: wire name (``bubblewrap``, ``landlock``) or a phrase this version does not know.
        cause: a ``bot.preflight.causes`` id, or ``None`` when not said.
        error: the probe's error text (one line), possibly empty.
        abi: Landlock's ABI when known.
    """

    backend: str
    cause: str | None = None
    error: str = ""
    abi: int | None = None
