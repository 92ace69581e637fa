"""The session API's request limits, in one dependency-free module: the server's models enforce them and the
clients (``flybot ask``, ``exec``, the hook) check them before sending, naming them."""

from __future__ import annotations

import os

MAX_COMMAND_CHARS = 100_000
"""Longest ``command``, in characters."""
MIN_TIMEOUT_S = 5
MAX_TIMEOUT_S = 86_400
"""``timeout_s`` bounds a request may give; the server then caps it to its own FLYBOT_ESCALATION_TIMEOUT_S."""
MAX_CWD_CHARS = 4096
MAX_JUSTIFICATION_CHARS = 4000


def request_problem(
    command: str, *, timeout_s: int | None, cwd: str | None, justification: str | None = None
) -> str | None:
    """What is wrong with a request before it is sent, as one line naming the limit, or None.

    ``cwd`` must be an existing directory on this machine (the command runs there).
    """
    if len(command) > MAX_COMMAND_CHARS:
        return f"the command is {len(command):,} characters; FlyBot takes at most {MAX_COMMAND_CHARS:,}"
    if timeout_s is not None and not MIN_TIMEOUT_S <= timeout_s <= MAX_TIMEOUT_S:
        return (
            f"--timeout {timeout_s}: FlyBot takes {MIN_TIMEOUT_S} to {MAX_TIMEOUT_S} seconds, and caps it to "
            "its own maximum (FLYBOT_ESCALATION_TIMEOUT_S, 600 by default)"
        )
    if cwd is not None:
        if len(cwd) > MAX_CWD_CHARS:
            return f"--cwd is {len(cwd):,} characters; FlyBot takes at most {MAX_CWD_CHARS:,}"
        if not os.path.isdir(cwd):
            return f"--cwd {cwd}: no such directory"
    if justification is not None and len(justification) > MAX_JUSTIFICATION_CHARS:
        return f"--justification is {len(justification):,} characters; FlyBot takes at most {MAX_JUSTIFICATION_CHARS:,}"
    return None
