"""The one-line report: rendering for every outcome, and parsing the blocked line back (FlyBot receives these).

Blocked line grammar (the only line :func:`parse_one_line` accepts)::

    sandbox-preflight: <mode> is UNAVAILABLE: no usable sandbox backend (<missing>[; <missing>...]).
    Every shell call will be refused with SANDBOX_UNAVAILABLE. Unlock: <option>[; <option>...].

(one line; wrapped here). ``<missing>`` is a phrase per backend (``bubblewrap missing or not runnable``,
``Landlock not enabled``, ``sandbox-exec missing or not runnable``); ``<option>`` is an unlock option's text,
followed by `` (`<command>`)`` when it has one. ``approve-turn`` and ``approve-bot`` render together as
``approve danger-full-access for this turn (or the Bot)``.
"""

from __future__ import annotations

import re

from bot.preflight.decide import (
    APPROVE_BOT,
    APPROVE_TURN,
    CHANGE_FILE_POLICY,
    INSTALL_BUBBLEWRAP_TEXT,
    LANDLOCK_KERNEL,
    RESTORE_SANDBOX_EXEC,
    backend_label,
)
from bot.preflight.model import (
    Backend,
    BackendProbe,
    BlockedLineParseError,
    InvalidModeError,
    ParsedBlockedLine,
    PreflightReport,
    SandboxMode,
    Status,
    UnlockOption,
)

PREFIX = "sandbox-preflight: "
APPROVE_BOTH_TEXT = "approve danger-full-access for this turn (or the Bot)"
MISSING_PHRASES: dict[str, str] = {
    Backend.BUBBLEWRAP.value: "bubblewrap missing or not runnable",
    Backend.LANDLOCK.value: "Landlock not enabled",
    Backend.SANDBOX_EXEC.value: "sandbox-exec missing or not runnable",
    Backend.WINDOWS_ACL.value: "Windows ACL runner not available",
}
_OPTION_IDS: dict[str, str] = {
    option.text: option.id
    for option in (APPROVE_TURN, APPROVE_BOT, CHANGE_FILE_POLICY, LANDLOCK_KERNEL, RESTORE_SANDBOX_EXEC)
} | {INSTALL_BUBBLEWRAP_TEXT: "install-bubblewrap"}
_BLOCKED_RE = re.compile(
    r"sandbox-preflight: (?P<mode>\S+) is UNAVAILABLE: no usable sandbox backend \((?P<missing>[^()]+)\)\. "
    r"Every shell call will be refused with SANDBOX_UNAVAILABLE\. Unlock: (?P<unlock>.+)\."
)
_COMMAND_RE = re.compile(r"(?P<text>.+?) \(`(?P<command>[^`]+)`\)")


def _flat(text: str) -> str:
    """``text`` on one line (newlines become spaces)."""
    return " ".join(text.split())


def _probe_state(probe: BackendProbe) -> str:
    """``"bubblewrap: usable"`` / ``"Landlock: not usable (...)"`` / ``"...: unknown (...)"``."""
    state = {True: "usable", False: "not usable", None: "unknown"}[probe.available]
    return f"{backend_label(probe.name)}: {state} ({_flat(probe.detail)})"


def _summary(report: PreflightReport) -> str:
    """Every probe's state joined by ``; ``, or a note that the platform has no probe."""
    if not report.backends:
        return f"no probe for platform {report.platform}"
    return "; ".join(_probe_state(probe) for probe in report.backends)


def render_unlock(options: tuple[UnlockOption, ...]) -> str:
    """Unlock options as ``; ``-joined phrases (turn+Bot approvals merged; commands in backticks)."""
    ids = {option.id for option in options}
    phrases: list[str] = []
    for option in options:
        if option.id == APPROVE_BOT.id and APPROVE_TURN.id in ids:
            continue
        if option.id == APPROVE_TURN.id and APPROVE_BOT.id in ids:
            phrases.append(APPROVE_BOTH_TEXT)
        elif option.command:
            phrases.append(f"{option.text} (`{option.command}`)")
        else:
            phrases.append(option.text)
    return "; ".join(phrases)


def _usable_backends(report: PreflightReport) -> str:
    return ", ".join(
        f"{backend_label(p.name)} ({_flat(p.detail)})" for p in report.backends if p.available is True
    )


def _render_usable(report: PreflightReport) -> str:
    if report.mode is SandboxMode.DANGER_FULL_ACCESS:
        return (
            f"{PREFIX}danger-full-access needs no sandbox backend; shell calls run unconfined "
            f"(probes: {_summary(report)})."
        )
    if report.mode is None:
        return (
            f"{PREFIX}no sandbox mode given; usable sandbox backend: {_usable_backends(report)}. "
            "read-only and workspace-write shell calls will run confined."
        )
    return f"{PREFIX}{report.mode} is usable: {_usable_backends(report)}. Shell calls will run confined."


def _render_blocked(report: PreflightReport) -> str:
    missing = "; ".join(
        MISSING_PHRASES.get(p.name, f"{p.name} not available") for p in report.backends if p.available is False
    )
    return (
        f"{PREFIX}{report.mode} is UNAVAILABLE: no usable sandbox backend ({missing}). "
        f"Every shell call will be refused with SANDBOX_UNAVAILABLE. Unlock: {render_unlock(report.unlock)}."
    )


def _render_unknown(report: PreflightReport) -> str:
    unlock = render_unlock(report.unlock)
    if report.mode is None:
        return (
            f"{PREFIX}no sandbox mode given; cannot tell: no usable sandbox backend found ({_summary(report)}). "
            "Under read-only or workspace-write, shell calls may be refused with SANDBOX_UNAVAILABLE. "
            f"Unlock if they are: {unlock}."
        )
    return (
        f"{PREFIX}{report.mode} is UNKNOWN: cannot tell whether a sandbox backend is usable here "
        f"({_summary(report)}). Shell calls may be refused with SANDBOX_UNAVAILABLE. Unlock if they are: {unlock}."
    )


def render_one_line(report: PreflightReport) -> str:
    """The one human line for ``report`` (no trailing newline); blocked lines follow the module grammar."""
    renderers = {Status.USABLE: _render_usable, Status.BLOCKED: _render_blocked, Status.UNKNOWN: _render_unknown}
    return renderers[report.status](report)


def _parse_missing(text: str) -> tuple[str, ...]:
    by_phrase = {phrase: name for name, phrase in MISSING_PHRASES.items()}
    names = tuple(by_phrase.get(part.strip(), part.strip()) for part in text.split(";"))
    if not all(names):
        raise BlockedLineParseError(f"blocked report lists an empty missing backend: ({text})")
    return names


def _parse_option(phrase: str) -> tuple[UnlockOption, ...]:
    if phrase == APPROVE_BOTH_TEXT:
        return (APPROVE_TURN, APPROVE_BOT)
    match = _COMMAND_RE.fullmatch(phrase)
    text, command = (match["text"], match["command"]) if match else (phrase, None)
    return (UnlockOption(_OPTION_IDS.get(text, "other"), text, command),)


def _parse_unlock(text: str) -> tuple[UnlockOption, ...]:
    phrases = [part.strip() for part in text.split("; ")]
    if not all(phrases):
        raise BlockedLineParseError(f"blocked report has an empty unlock option: {text!r}")
    return tuple(option for phrase in phrases for option in _parse_option(phrase))


def _parse_mode(text: str) -> SandboxMode:
    try:
        mode = SandboxMode.parse(text, source="the blocked report")
    except InvalidModeError as exc:
        raise BlockedLineParseError(str(exc)) from None
    if not mode.needs_backend:
        raise BlockedLineParseError("danger-full-access needs no sandbox backend, so it cannot be blocked")
    return mode


def parse_one_line(text: str) -> ParsedBlockedLine:
    """Parse a one-line blocked report (module grammar) back into mode, missing backends and unlock options.

    Surrounding whitespace is ignored; anything else must match exactly. Unrecognised backend phrases are kept
    verbatim; unrecognised unlock phrases get id ``"other"``. ``parse_one_line(r.one_line())`` recovers
    ``r.mode``, the names of ``r``'s unavailable backends and ``r.unlock``.

    Raises:
        BlockedLineParseError (a ``ValueError``): not a single well-formed blocked line — including usable and
            unknown reports, several lines, a ``danger-full-access`` or unknown mode.
    """
    line = text.strip()
    if not line.startswith(PREFIX):
        raise BlockedLineParseError(f"not a sandbox-preflight line (expected it to start with {PREFIX.strip()!r})")
    if "\n" in line or "\r" in line:
        raise BlockedLineParseError("a blocked report is one line; got several")
    if " is UNAVAILABLE: " not in line:
        raise BlockedLineParseError("not a blocked report: the line has no 'is UNAVAILABLE:'")
    match = _BLOCKED_RE.fullmatch(line)
    if match is None:
        raise BlockedLineParseError(f"malformed blocked report: {line[:120]!r}")
    return ParsedBlockedLine(
        mode=_parse_mode(match["mode"]),
        missing_backends=_parse_missing(match["missing"]),
        unlock=_parse_unlock(match["unlock"]),
    )
