"""Sandbox preflight: tells a session whether its shell calls can run confined on this host.

Under ``read-only`` / ``workspace-write`` every shell call needs a confinement backend (bubblewrap or an
enforcing Landlock kernel on Linux, sandbox-exec on macOS); without one every call is refused with
``SANDBOX_UNAVAILABLE``. Entry points:

- :func:`run_preflight` -> :class:`PreflightReport` (``.status``, ``.exit_code``, ``.to_json_dict()``);
  :func:`render_one_line` gives its one line;
- :func:`parse_one_line` reads a blocked one-line report back (FlyBot receives these from Bots);
- ``bot.preflight.cli`` is the ``flybot preflight`` command.

Exit codes: 0 usable, 3 blocked, 4 cannot tell, 2 usage. Overrides for tests/operators are listed in
``bot.preflight.probes``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from bot.preflight.decide import build_report, decide_status, landlock_min_abi
from bot.preflight.line import parse_one_line, render_one_line
from bot.preflight.model import (
    EXIT_BLOCKED,
    EXIT_UNKNOWN,
    EXIT_USABLE,
    EXIT_USAGE,
    Backend,
    BackendProbe,
    BlockedLineParseError,
    Finding,
    InvalidModeError,
    InvalidOverrideError,
    ParsedBlockedLine,
    PreflightError,
    PreflightReport,
    PreflightUsageError,
    SandboxMode,
    Status,
    UnlockOption,
)
from bot.preflight.probes import DEFAULT_TIMEOUT_S, inputs_from_env, probe_backends, read_os_release

MODE_ENV = "FLYBOT_SANDBOX_MODE"

__all__ = [
    "EXIT_BLOCKED",
    "EXIT_UNKNOWN",
    "EXIT_USABLE",
    "EXIT_USAGE",
    "MODE_ENV",
    "Backend",
    "BackendProbe",
    "BlockedLineParseError",
    "Finding",
    "InvalidModeError",
    "InvalidOverrideError",
    "ParsedBlockedLine",
    "PreflightError",
    "PreflightReport",
    "PreflightUsageError",
    "SandboxMode",
    "Status",
    "UnlockOption",
    "build_report",
    "decide_status",
    "parse_one_line",
    "render_one_line",
    "resolve_mode",
    "run_preflight",
]


def resolve_mode(mode: str | SandboxMode | None, env: Mapping[str, str]) -> SandboxMode | None:
    """The effective mode: ``mode`` when given (it wins), else ``env["FLYBOT_SANDBOX_MODE"]``, else ``None``.

    An empty env value counts as unset; an env value is not even looked at when ``mode`` is given.

    Raises:
        InvalidModeError: the chosen value is not a mode name (message names ``--mode`` or the env var).
    """
    if isinstance(mode, SandboxMode):
        return mode
    if mode is not None:
        return SandboxMode.parse(mode, source="--mode")
    from_env = env.get(MODE_ENV, "")
    return SandboxMode.parse(from_env, source=MODE_ENV) if from_env else None


def run_preflight(
    mode: str | SandboxMode | None = None,
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> PreflightReport:
    """Probe this host's backends and decide for ``mode``.

    Args:
        mode: the session's mode; ``None`` falls back to ``FLYBOT_SANDBOX_MODE`` in ``env``, then to no mode.
        env: what the probes look at (``PATH``, ``FLYBOT_PREFLIGHT_*`` overrides); default ``os.environ``.
        timeout: seconds each backend trial run may take before it counts as "cannot tell".

    Raises:
        PreflightUsageError: a bad mode or override value (the CLI maps it to exit 2).
    """
    environ = os.environ if env is None else env
    resolved = resolve_mode(mode, environ)
    inputs = inputs_from_env(environ)
    backends = probe_backends(inputs, timeout, landlock_min_abi(resolved))
    os_release = read_os_release(inputs.os_release_file) if inputs.platform == "linux" else {}
    return build_report(resolved, inputs.platform, backends, os_release)
