"""JSON-ready views of classifier results (shared by the CLI and the HTTP API)."""

from __future__ import annotations

from bot.risk.model import Assessment, Reason, SimpleCommand

TYPE_CHECKING = False  # typing is not imported at run time: the adapters start on every tool call (bot/values.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["assessment_to_dict", "command_to_dict", "reason_to_dict"]


def reason_to_dict(reason: Reason) -> dict[str, Any]:
    """``{"subject", "rule", "level", "detail", "downgraded"}`` with ``level`` as its wire label."""
    return {
        "subject": reason.subject,
        "rule": reason.rule,
        "level": reason.level.label,
        "detail": reason.detail,
        "downgraded": reason.downgraded,
    }


def command_to_dict(command: SimpleCommand) -> dict[str, Any]:
    """``{"argv", "text", "risk", "wrappers"}`` with ``risk`` as its wire label, ``"marks"`` (its redirects
    that write outside the workspace), ``"chosen_by"`` (workspace settings that choose code it runs, or were not
    reported) and ``"runners"`` (the project recipes it is a line of, outermost first:
    ``[{"argv", "directory", "file", "source"}]``) when there are any."""
    out: dict[str, Any] = {
        "argv": list(command.argv),
        "text": command.text,
        "risk": command.risk.label,
        "wrappers": list(command.wrappers),
    }
    if command.marks:
        out["marks"] = list(command.marks)
    if command.chosen_by:
        out["chosen_by"] = list(command.chosen_by)
    if command.runners:
        out["runners"] = [
            {"argv": list(r.argv), "directory": r.directory, "file": r.file, "source": r.source}
            for r in command.runners
        ]
    return out


def assessment_to_dict(assessment: Assessment) -> dict[str, Any]:
    """``{"risk", "reasons", "commands", "contained"}`` (and ``"recipes"`` when project recipes were read:
    ``[{"tool", "target", "directory", "file", "overrides", "lines": [{"source", "command"}]}]``): JSON-serialisable,
    levels as labels."""
    out = _assessment_dict(assessment)
    if assessment.recipes:
        out["recipes"] = [
            {
                "tool": r.tool,
                "target": r.target,
                "directory": r.directory,
                "file": r.file,
                "overrides": list(r.overrides),
                "lines": [{"source": x.source, "command": x.command} for x in r.lines],
            }
            for r in assessment.recipes
        ]
    return out


def _assessment_dict(assessment: Assessment) -> dict[str, Any]:
    return {
        "risk": assessment.risk.label,
        "reasons": [reason_to_dict(r) for r in assessment.reasons],
        "commands": [command_to_dict(c) for c in assessment.commands],
        "contained": assessment.contained,
    }
