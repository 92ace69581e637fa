"""The one-line report: rendering for every outcome, and parsing the blocked line back (FlyBot receives these).

Blocked line grammar (the only line :func:`parse_one_line` accepts)::

    sandbox-preflight: <mode> is UNAVAILABLE: no usable sandbox backend (<missing>[; <missing>...]).
    Every shell call will be refused with SANDBOX_UNAVAILABLE. Unlock: <option>[; <option>...].

(one line; wrapped here). ``<missing>`` is a phrase per backend and cause (:data:`CAUSE_PHRASES`, e.g.
``bubblewrap present but user namespaces are restricted by AppArmor``, ``Landlock not built into the kernel``,
``Landlock ABI 2 is older than the ABI 3 needed``; older lines say ``bubblewrap missing or not runnable`` and
``Landlock not enabled``), optionally followed by ``: <the probe's error text>`` (one line, ``;`` turned into
``,``); ``<option>`` is an unlock option's text, followed by `` (`<command>`)`` when it has one. ``approve-turn``
and ``approve-bot`` render together as ``approve danger-full-access for this turn (or the Bot)``.
"""

from __future__ import annotations

import re

from bot.preflight import causes
from bot.preflight.catalogue import id_of_phrase
from bot.preflight.decide import APPROVE_BOT, APPROVE_TURN, backend_label, landlock_min_abi
from bot.preflight.model import (
    Backend,
    BackendProbe,
    BlockedLineParseError,
    Finding,
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
CAUSE_PHRASES: dict[tuple[str, str], str] = {
    (Backend.BUBBLEWRAP.value, causes.NOT_INSTALLED): "bubblewrap not installed",
    (
        Backend.BUBBLEWRAP.value,
        causes.APPARMOR_USERNS,
    ): "bubblewrap present but user namespaces are restricted by AppArmor",
    (
        Backend.BUBBLEWRAP.value,
        causes.USERNS_DISABLED,
    ): "bubblewrap present but unprivileged user namespaces are disabled",
    (Backend.BUBBLEWRAP.value, causes.USERNS_LIMIT): "bubblewrap present but the user-namespace limit is 0",
    (
        Backend.BUBBLEWRAP.value,
        causes.CONTAINER,
    ): "bubblewrap present but this container does not let it create namespaces",
    (Backend.BUBBLEWRAP.value, causes.OTHER): "bubblewrap present but not runnable",
    (Backend.LANDLOCK.value, causes.LANDLOCK_NOT_BUILT): "Landlock not built into the kernel",
    (Backend.LANDLOCK.value, causes.LANDLOCK_DISABLED): "Landlock built but disabled at boot",
    (Backend.LANDLOCK.value, causes.LANDLOCK_NOT_LISTED): "Landlock not enabled",
}
"""``(backend, cause)`` -> the missing-backend phrase of the blocked line."""
_OLD_ABI_RE = re.compile(r"Landlock ABI (?P<abi>\d{1,3}) is older than the ABI (?P<need>\d{1,3}) needed")
_BLOCKED_RE = re.compile(
    r"sandbox-preflight: (?P<mode>\S+) is UNAVAILABLE: no usable sandbox backend \((?P<missing>.+?)\)\. "
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
    return ", ".join(f"{backend_label(p.name)} ({_flat(p.detail)})" for p in report.backends if p.available is True)


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


def line_error(text: str, limit: int = 200) -> str:
    """A probe's error text made safe for the line: one line, ``;`` -> ``,``, backticks and parentheses kept out."""
    flat = _flat(text).replace(";", ",").replace("`", "'").replace("(", "[").replace(")", "]")
    return flat[:limit]


def missing_phrase(probe: BackendProbe) -> str:
    """The blocked line's phrase for one unusable probe: its cause's phrase, then ``: <error>`` when there is one."""
    if probe.name == Backend.LANDLOCK.value and probe.cause == causes.LANDLOCK_OLD_ABI and probe.abi is not None:
        return f"Landlock ABI {probe.abi} is older than the ABI {landlock_min_abi(None)} needed"
    phrase = CAUSE_PHRASES.get((probe.name, probe.cause or ""))
    if phrase is None:
        return MISSING_PHRASES.get(probe.name, f"{probe.name} not available")
    if probe.name == Backend.BUBBLEWRAP.value and probe.cause not in (None, causes.NOT_INSTALLED) and probe.error:
        return f"{phrase}: {line_error(probe.error)}"
    return phrase


def _render_blocked(report: PreflightReport) -> str:
    missing = "; ".join(missing_phrase(p) for p in report.backends if p.available is False)
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


def parse_finding(part: str) -> Finding:
    """One missing-backend phrase back to ``Finding(backend, cause, error, abi)``; unknown phrases are kept verbatim
    as the backend with no cause."""
    old_abi = _OLD_ABI_RE.fullmatch(part)
    if old_abi:
        return Finding(Backend.LANDLOCK.value, causes.LANDLOCK_OLD_ABI, f"ABI {old_abi['abi']}", int(old_abi["abi"]))
    for (backend, cause), phrase in CAUSE_PHRASES.items():
        if part == phrase:
            return Finding(backend, cause)
        if part.startswith(phrase + ": "):
            return Finding(backend, cause, part[len(phrase) + 2 :].strip())
    for backend, phrase in MISSING_PHRASES.items():
        if part == phrase:
            return Finding(backend)
    return Finding(part)


def _parse_missing(text: str) -> tuple[Finding, ...]:
    parts = [part.strip() for part in text.split(";")]
    if not all(parts):
        raise BlockedLineParseError(f"blocked report lists an empty missing backend: ({text})")
    return tuple(parse_finding(part) for part in parts)


def _parse_option(phrase: str) -> tuple[UnlockOption, ...]:
    if phrase == APPROVE_BOTH_TEXT:
        return (APPROVE_TURN, APPROVE_BOT)
    match = _COMMAND_RE.fullmatch(phrase)
    text, command = (match["text"], match["command"]) if match else (phrase, None)
    return (UnlockOption(id_of_phrase(text) or "other", text, command),)


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
    findings = _parse_missing(match["missing"])
    return ParsedBlockedLine(
        mode=_parse_mode(match["mode"]),
        missing_backends=tuple(f.backend for f in findings),
        unlock=_parse_unlock(match["unlock"]),
        findings=findings,
    )
