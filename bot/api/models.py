"""Pydantic models of the session API's request bodies."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationInfo,
    field_validator,
    model_validator,
)

from bot.api.body import single_line
from bot.request_limits import (
    MAX_COMMAND_CHARS,
    MAX_CWD_CHARS,
    MAX_JUSTIFICATION_CHARS,
    MAX_TIMEOUT_S,
    MIN_TIMEOUT_S,
)
from bot.risk.recipes import MAX_LINE_CHARS, MAX_RECIPE_CHARS, MAX_RECIPES
from bot.risk.recipes import MAX_LINES as MAX_RECIPE_LINES

# The recipe bounds are the classifier's (bot/risk/recipes.py): it grades a command past them destructive, so
# the adapter never has to leave out a recipe the server would grade.


class RecipeLineIn(BaseModel):
    """One command of a project recipe: where it is written (``Makefile:12 (deploy)``) and the command."""

    model_config = ConfigDict(extra="forbid")

    source: str = Field(min_length=1, max_length=200)
    command: str = Field(min_length=1, max_length=MAX_LINE_CHARS)

    @field_validator("source")
    @classmethod
    def _one_line(cls, value: str) -> str:
        return single_line(value, "source")


class RecipeIn(BaseModel):
    """A project recipe the adapter read and expanded (``make deploy``, ``npm run build``...), so that the server,
    which cannot read the project, grades and shows what will really run; or, with a target starting
    ``<settings> ``, the workspace settings that choose code a tool runs there (bot/risk/settings.py: each line a
    finding, none when nothing does); or, tool ``path``, where a path in the workspace really leads through a
    symbolic link (its one line's command), or, with a target starting ``<tree> ``, the symbolic links below a
    directory in the workspace that lead out of it (each line: the link and its real path), or with a target
    starting ``<secrets> `` or ``<visible> ``, the secret files by their name below a directory in the workspace
    (each line: the path and what it holds; no line when there is none; one unknown line when the tree was not
    looked through); or, tool ``path`` and target ``<PATH>``, the relative entries of the PATH the session's
    commands run under (each line's command one entry, ``''`` for an empty one), which make every program named
    without a ``/`` graded ``destructive``; or, tool ``apptainer``, the sections of the definition file
    ``apptainer build`` runs (``file``; each line's source starts with its section, ``%setup``, ``%post``, ``%files``:
    bot/risk/recipes.py ``apptainer_definition``). ``directory``, ``file`` and ``overrides`` say which recipe it is (:class:`bot.risk.recipes.Recipe`): the server looks it up by them."""

    model_config = ConfigDict(extra="forbid")

    tool: Literal[
        "make",
        "npm",
        "yarn",
        "pnpm",
        "just",
        "tox",
        "cargo",
        "go",
        "git",
        "python",
        "pytest",
        "mkdocs",
        "compose",
        "pip",
        "jvm",
        "aws",
        "ruby",
        "composer",
        "ffmpeg",
        "cc",
        "apptainer",
        "kubernetes",
        "dotnet",
        "dart",
        "ansible",
        "dvc",
        "path",
        "iac",
        "sops",
    ]
    target: str = Field(default="", max_length=200)
    directory: str = Field(default="", max_length=1024)
    file: str = Field(default="", max_length=1024)
    overrides: list[str] = Field(default_factory=list, max_length=MAX_RECIPE_LINES)
    lines: list[RecipeLineIn] = Field(max_length=MAX_RECIPE_LINES)

    @field_validator("target", "directory", "file")
    @classmethod
    def _one_line(cls, value: str, info: ValidationInfo) -> str:
        return single_line(value, str(info.field_name))

    @field_validator("overrides")
    @classmethod
    def _names(cls, value: list[str]) -> list[str]:
        for name in value:
            if not 0 < len(name) <= 200:
                raise ValueError("each override is a variable name of 1 to 200 characters")
            single_line(name, "overrides")
        return value


#: The most characters a tool call's input may hold, as compact JSON.
MAX_TOOL_INPUT_CHARS = 64 * 1024


class ToolCallIn(BaseModel):
    """An agent's call of a tool other than a shell (bot/risk/tools.py): ``name`` (``Edit``, ``WebFetch``,
    ``mcp__SERVER__TOOL`` ...), its ``input`` object as the agent gave it (at most :data:`MAX_TOOL_INPUT_CHARS` as
    compact JSON), and for a file tool ``resolved_path``: the file's path as the adapter resolved it (``realpath``),
    by which the server judges inside or outside the workspace."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.-]+$")
    input: dict[str, Any]
    resolved_path: str | None = Field(default=None, min_length=1, max_length=MAX_CWD_CHARS)

    @field_validator("input")
    @classmethod
    def _bounded(cls, value: dict[str, Any]) -> dict[str, Any]:
        size = len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))
        if size > MAX_TOOL_INPUT_CHARS:
            raise ValueError(
                f"the tool input holds {size} characters as JSON; at most {MAX_TOOL_INPUT_CHARS} are accepted"
            )
        return value

    @field_validator("resolved_path")
    @classmethod
    def _path(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith("/"):
            raise ValueError("resolved_path must be an absolute path")
        return None if value is None else single_line(value, "resolved_path")


#: The most state paths an escalation request may report (an adapter sends its state directory and store file,
#: each as written and with symbolic links resolved).
MAX_STATE_PATHS = 8


class EscalationIn(BaseModel):
    """``POST /v1/escalations`` body.

    ``contained``: the command will run in the sandbox (a discarded micro-VM) rather than on the host; it must be
    given explicitly (no default), since it changes the grade. ``timeout_s``: seconds until expiry, capped to the
    server's maximum (default 600). ``recipes``: optional, the project recipes the command runs, as the adapter read
    them (bounded: :data:`MAX_RECIPES`, :data:`MAX_RECIPE_LINES` each, :data:`MAX_RECIPE_CHARS` in all); they are
    graded with the command and their lines named in the reasons. ``tool``: optional, a call of a tool other than
    a shell; then ``command`` must be the tool's name, and the server grades the call and stores what the card shows
    of it (bot/risk/tools.py ``describe_tool``) as the escalation's command. ``state_paths``: optional, the adapter's
    own state directories and store files (absolute, at most :data:`MAX_STATE_PATHS`): where its environment puts its
    token, local mode's files and its copy of the program rules, which may not be the server's; the command or tool
    call is graded with them as FlyBot's own state, as the adapter grades it (a write there is ``destructive``, so
    no standing approval answers it). Unknown fields are refused so that a typo cannot silently change meaning.
    """

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)

    session_id: str = Field(min_length=1, max_length=200)
    command: str = Field(min_length=1, max_length=MAX_COMMAND_CHARS)
    cwd: str = Field(min_length=1, max_length=MAX_CWD_CHARS)
    file_policy: Literal["read-only", "workspace-write", "danger-full-access"]
    approval_policy: Literal["ask", "never"]
    contained: StrictBool
    justification: str | None = Field(default=None, max_length=MAX_JUSTIFICATION_CHARS)
    room: str | None = Field(default=None, pattern=r"^[CGD][A-Z0-9]{2,39}$")
    timeout_s: StrictInt | None = Field(default=None, ge=MIN_TIMEOUT_S, le=MAX_TIMEOUT_S)
    recipes: list[RecipeIn] | None = Field(default=None, max_length=MAX_RECIPES)
    tool: ToolCallIn | None = None
    state_paths: list[str] | None = Field(default=None, max_length=MAX_STATE_PATHS)

    @field_validator("state_paths")
    @classmethod
    def _state_paths(cls, value: list[str] | None) -> list[str] | None:
        """Each an absolute path of one line, at most :data:`MAX_CWD_CHARS` characters."""
        for path in value or ():
            if not path.startswith("/") or len(path) > MAX_CWD_CHARS:
                raise ValueError(f"each state path is an absolute path of at most {MAX_CWD_CHARS} characters")
            single_line(path, "state_paths")
        return value

    @model_validator(mode="after")
    def _tool_named(self) -> EscalationIn:
        """With ``tool``, ``command`` is the tool's name and no recipe is sent."""
        if self.tool is not None and (self.command != self.tool.name or self.recipes):
            raise ValueError("with a tool call, command must be the tool's name and recipes are not accepted")
        return self

    @model_validator(mode="after")
    def _recipes_bounded(self) -> EscalationIn:
        """All recipe lines together hold at most :data:`MAX_RECIPE_CHARS` characters."""
        total = sum(len(line.command) for recipe in self.recipes or () for line in recipe.lines)
        if total > MAX_RECIPE_CHARS:
            raise ValueError(f"recipes hold {total} characters of commands; at most {MAX_RECIPE_CHARS} are accepted")
        return self

    @field_validator("session_id", "cwd")
    @classmethod
    def _one_line(cls, value: str, info: ValidationInfo) -> str:
        """Single-line fields refuse control characters (a newline would add fake lines to the card)."""
        return single_line(value, str(info.field_name))

    @field_validator("timeout_s", mode="before")
    @classmethod
    def _whole_seconds(cls, value: Any) -> Any:
        """``300.0`` is the integer 300 (JSON Schema's ``integer`` admits it); ``300.5``, ``"300"``, ``true`` are not."""
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value


class ReasonOut(BaseModel):
    """One reason of the grade: the simple command or redirect, the rule, its level, and whether containment lowered it."""

    subject: str
    rule: str
    level: str
    detail: str
    downgraded: bool = False


class CardOut(BaseModel):
    """The approval card's delivery: ``queued`` until the outbox posts it, then ``posted`` (with ``channel`` and
    ``ts``), ``failed`` (the escalation then ends ``undeliverable``) or ``cancelled`` (the escalation ended before
    its card was posted: it never will be)."""

    status: Literal["queued", "posted", "failed", "cancelled"]
    channel: str | None
    ts: str | None


class ApprovalsOut(BaseModel):
    """How many approvals decide (2 under the two-person rule) and who approved so far, in order."""

    needed: int
    by: list[str]


class EscalationOut(BaseModel):
    """An escalation as the session API returns it (``bot.wire.escalation_to_api``)."""

    id: str
    status: Literal["pending", "approved", "denied", "expired", "withdrawn", "undeliverable"]
    bot_id: str
    session_id: str
    command: str
    cwd: str
    file_policy: str
    approval_policy: str
    contained: bool
    justification: str | None
    risk: Literal["read_only", "workspace_write", "network", "system", "destructive"]
    reasons: list[ReasonOut]
    room: str | None
    created_at: str
    expires_at: str
    decided_at: str | None
    decided_by: str | None
    decided_by_name: str | None = None
    """Who decided, as people read it: ``@Olivia`` (the standing approval's author for ``standing_approval``);
    ``@Olivia and @Otto`` when two people approved (the two-person rule); the id when chat cannot name it; None when
    no person decided."""
    decision_source: (
        Literal["owner", "admin", "standing_approval", "timeout", "session", "delivery_failure", "fallback"] | None
    )
    reason: str | None
    standing_approval_id: str | None = None
    approvals: ApprovalsOut | None = None
    fallback_at: str | None = None
    """When the fallback approvers were asked, or None."""
    card: CardOut | None = None
    """None when no card was needed (a standing approval answered)."""
    tool: dict[str, Any] | None = None
    """The tool call asked about (``{name, input, resolved_path}``), or None for a shell command."""


class FieldError(BaseModel):
    """One invalid field."""

    field: str | None
    message: str


class Problem(BaseModel):
    """RFC 9457 problem details, with FlyBot's stable ``code``."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    errors: list[FieldError] | None = None
