"""``classify``: the containment-aware command risk classifier.

Pure, synchronous and total: any ``str`` yields an :class:`Assessment`; nothing raises.
"""

from __future__ import annotations

import os
import posixpath
from functools import lru_cache

from bot.risk.grader import Grader, Scope
from bot.risk.model import Assessment, Reason, RiskLevel, SimpleCommand, assessment_of
from bot.risk.reasons import shorten
from bot.risk.table import PROGRAMS
from bot.risk.walker import plain_words, walk_nested, walk_plain, walk_script

TYPE_CHECKING = False  # the recipe reader loads only where recipes are read (bot/values.py: no typing at run time)
if TYPE_CHECKING:
    from bot.risk.recipes import RecipeBook
    from bot.risk.rules import ProgramRules
__all__ = ["MAX_SCRIPT_CHARS", "classify"]

R = RiskLevel


def classify(
    command: str,
    *,
    contained: bool,
    workspace: str | os.PathLike[str] | None = None,
    recipes: RecipeBook | None = None,
    rules: ProgramRules | None = None,
) -> Assessment:
    """Grade a shell command (a whole bash script) for an escalation.

    Args:
        command: the script text as the session would run it with ``bash -c``.
        contained: True when it runs inside the sandbox (the containment downgrades apply:
            :data:`~bot.risk.table.CONTAINED_DOWNGRADE`), False when it runs on the host.
        workspace: the escalation's working directory (absolute; a ``Path`` or a string). When None, relative paths
            are inside the workspace, but ``..`` escaping it, ``~`` paths and absolute paths
            outside the temp area are outside. A relative ``workspace`` is treated as None.
        recipes: where project recipes are read (``make X``, ``npm run X``...): a
            :class:`~bot.risk.recipes.ProjectRecipes` on the session's side, the adapter's
            :class:`~bot.risk.recipes.GivenRecipes` on the server; None: recipes are unreadable
            and a target's name decides beyond "builds in the workspace".
        rules: the organisation's program rules (bot/risk/rules.py says how they apply); None: none.

    Returns:
        An :class:`Assessment`: ``risk`` is the maximum over every simple command and
        redirect; ``commands`` lists every simple command found (argv after unwrapping,
        cut before the first word that is not literal; ``argv=()`` when the program name
        is not literal, or for a part that raised the level without being a program run).

    Never raises: an empty script (only blanks or comments), a syntax error, an unknown
    construct, a script over :data:`MAX_SCRIPT_CHARS`, nesting deeper than the walker
    allows, or an internal failure grades ``destructive`` with a reason (fail closed, DESIGN.md).
    """
    try:
        return _classify(command, contained, workspace, recipes, rules=rules)
    except RecursionError:
        return _refusal(command, contained, "too-deep", "The script is nested too deeply to grade.")
    except Exception as error:  # fail closed on anything: classify never raises
        return _refusal(
            command,
            contained,
            "internal-error",
            f"The classifier could not grade this command ({type(error).__name__}).",
        )


def _refusal(command: object, contained: object, rule: str, detail: str) -> Assessment:
    subject = shorten(command if isinstance(command, str) else repr(command))
    reason = Reason(subject, rule, R.DESTRUCTIVE, detail)
    return Assessment(R.DESTRUCTIVE, (reason,), (SimpleCommand((), subject, R.DESTRUCTIVE),), bool(contained))


def _classify(
    command: str,
    contained: bool,
    workspace: str | os.PathLike[str] | None,
    recipes: RecipeBook | None = None,
    *,
    fast: bool = True,
    rules: ProgramRules | None = None,
) -> Assessment:
    """:func:`classify` without the fail-closed wrapper; ``fast=False`` always walks the parse tree (for tests)."""
    if not isinstance(command, str):
        raise TypeError("command must be str")
    root = _workspace_root(workspace)
    grader = Grader(PROGRAMS, contained, root, walk_nested if fast else walk_script, recipes, rules)
    grader.script_text = command
    scope = Scope(contained=contained)
    problem = _text_problem(command)
    if problem is not None:
        grader.orphan(scope, command, R.DESTRUCTIVE, "invalid-text", problem)
    else:
        plain = plain_words(command) if fast else None
        if plain is not None:
            walk_plain(grader, scope, command, plain)  # nothing to parse, nothing hidden (plain ASCII)
        else:
            walk_script(grader, None, scope, command)
            _hidden_text(grader, scope, command)
    grader.finish()
    grader.secret_egress(scope, command)
    commands = grader.simple_commands()
    risk = grader.risk
    return assessment_of(risk, grader.book.result(risk), commands, contained, tuple(grader.recipes_used))


def _hidden_text(grader: Grader, scope: Scope, command: str) -> None:
    """Hidden or look-alike characters: destructive, never downgraded (a person must look).

    The level is what keeps it from standing approvals (which never cover ``destructive``) and from an adapter's
    ceiling; the reason says why and shows the characters made visible.
    """
    if command.isascii() and (command.isprintable() or command.replace("\n", "").replace("\t", "").isprintable()):
        return  # ASCII without control characters but newline and tab: nothing hidden, no look-alike (hidden.py)
    from bot.risk.hidden import hidden_characters, lookalikes, needs_a_person, reveal  # loaded for such text only

    detail = needs_a_person(command)
    if detail is None:
        return
    similar = lookalikes(command)
    subject = similar[0].word if similar else " ".join(f"\u27e8{code}\u27e9" for code in hidden_characters(command)[:3])
    rule = "look-alike" if similar and not hidden_characters(command) else "hidden-characters"
    grader.orphan(scope, shorten(reveal(subject)), R.DESTRUCTIVE, rule, detail)


def _workspace_root(workspace: str | os.PathLike[str] | None) -> str | None:
    if workspace is None:
        return None
    return _root_of(os.fspath(workspace))


@lru_cache(maxsize=256)
def _root_of(text: str) -> str | None:
    if not text.startswith("/") or "\x00" in text:
        return None
    return posixpath.normpath(text)


#: Scripts longer than this (characters) are refused unparsed: grading is linear, but a session has
#: no business sending megabytes as one escalation, and this bounds the time one call can take.
MAX_SCRIPT_CHARS = 1024 * 1024


def _text_problem(command: str) -> str | None:
    if len(command) > MAX_SCRIPT_CHARS:
        return f"The command is longer than {MAX_SCRIPT_CHARS} characters; it is refused without grading."
    if "\x00" in command:
        return "The command contains a NUL byte, which bash cannot pass to a program."
    if command.isascii():
        return None
    try:
        command.encode("utf-8")
    except UnicodeEncodeError:
        return "The command is not valid Unicode text (lone surrogates)."
    return None
