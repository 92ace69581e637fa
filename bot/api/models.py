"""Pydantic models of the session API's request bodies (issue 2)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

MAX_COMMAND_CHARS = 100_000


class EscalationIn(BaseModel):
    """``POST /v1/escalations`` body.

    ``contained``: the command will run in the sandbox (a discarded micro-VM) rather than on the host; it must be
    given explicitly (no default), since it changes the grade. ``timeout_s``: seconds until expiry, capped to the
    server's maximum (default 600). Unknown fields are refused so that a typo cannot silently change meaning.
    """

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)

    session_id: str = Field(min_length=1, max_length=200)
    command: str = Field(min_length=1, max_length=MAX_COMMAND_CHARS)
    cwd: str = Field(min_length=1, max_length=4096)
    file_policy: Literal["read-only", "workspace-write", "danger-full-access"]
    approval_policy: Literal["ask", "never"]
    contained: StrictBool
    justification: str | None = Field(default=None, max_length=4000)
    room: str | None = Field(default=None, pattern=r"^[CGD][A-Z0-9]{2,39}$")
    timeout_s: int | None = Field(default=None, ge=5, le=86400)
