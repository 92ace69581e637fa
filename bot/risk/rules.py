"""Program rules as the classifier applies them: the organisation's grades for programs, set by admins.

A rule names a program as a plain word (``gcc``; :func:`plain_word`) and optionally a subcommand, its first
argument (``bazel build``), and a grade. The grader (bot/risk/grader.py ``Grader.dispatch``) applies it to every
simple command that runs the program by that name, wherever it is in the script (after ``&&``, in a pipeline,
through ``sudo`` or ``bash -c``):

- a program the classifier does not know gets the rule's grade (instead of ``unrecognised``, destructive);
- a program it knows gets the higher of the built-in grade and the rule's;
- a rule below the built-in grade is an override: the program's own findings give way to the rule's grade, and the
  reason says so ("graded workspace_write by U123's program rule (override)"); findings about places (a protected
  path or device written, a deletion outside the workspace or of its root, a protected path or a secret file, a
  credential read, a repository or project outside the workspace) and findings that the program runs code its
  command line chooses (``tar -I CMD``, ``git -c core.pager=CMD``, inline code) or makes an irreversible host
  change (``kill -9 -1``, a setuid bit, package removal) are kept (grader.py ``_KEPT_BY_OVERRIDE``);
- a rule never applies to a program given as a path (``./gcc``, ``/tmp/gcc``), which stays ``program-path``
  (destructive), nor changes what hidden or look-alike characters, unparseable text or a name only known when it
  runs are graded: those are findings of their own. A rule that raises a grade also applies to a system program
  given by its path (``/usr/bin/git``), which the classifier grades as the program.

A subcommand rule is preferred to the program's rule when the command's first argument is that word.
"""

from __future__ import annotations

import re

from bot.risk.model import RiskLevel

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["PROGRAM_RULE_REASONS", "ProgramRules", "Rule", "plain_word", "rules_of"]

PROGRAM_RULE_REASONS = frozenset({"program-rule", "program-rule-override"})
"""The reason rules (bot/risk/grader.py) of a grade a program rule gave: a program the classifier does not know graded
by a rule, and a known program's grade raised or lowered by one."""

_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,63}\Z")


def plain_word(text: str) -> bool:
    """True for a plain program or subcommand name: ASCII letters, digits, ``_``, and ``. + -`` after the first
    character, at most 64 characters (so no path, whitespace, control, hidden or look-alike character)."""
    return _PLAIN.match(text) is not None


class Rule:
    """One program rule: ``program`` (``subcommand``: None for every use) graded ``level``, set by ``set_by``."""

    __slots__ = ("level", "program", "set_by", "subcommand")

    def __init__(self, program: str, subcommand: str | None, level: RiskLevel, set_by: str) -> None:
        self.program = program
        self.subcommand = subcommand
        self.level = level
        self.set_by = set_by

    def _key(self) -> tuple[str, str, int, str]:
        return (self.program, self.subcommand or "", int(self.level), self.set_by)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rule) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Rule({self.program!r}, {self.subcommand!r}, {self.level.label}, {self.set_by!r})"

    @property
    def words(self) -> str:
        """``gcc`` or ``bazel build``."""
        return f"{self.program} {self.subcommand}" if self.subcommand else self.program


class ProgramRules:
    """The organisation's rules, looked up by program and first argument. Equal (and hashing equal) when they hold
    the same rules, so a verdict remembered with one set is never served for another.

    ``raise_only``: apply only the rules that raise a built-in grade (a program the classifier does not know stays
    ``unrecognised``; no override). The agent adapters grade so with the copy of the rules they hold
    (bot/hooks/rules_cache.py): a copy can then only make them ask more, never allow what the server would ask.
    """

    __slots__ = ("_hash", "_index", "raise_only", "rules")

    def __init__(self, rules: tuple[Rule, ...] = (), *, raise_only: bool = False) -> None:
        self.rules = tuple(sorted(rules, key=Rule._key))
        self.raise_only = raise_only
        self._index: dict[tuple[str, str], Rule] = {(r.program, r.subcommand or ""): r for r in self.rules}
        self._hash = hash((self.rules, raise_only))  # a key of every remembered verdict (bot/escalations.py Grades)

    def __bool__(self) -> bool:
        return bool(self.rules)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ProgramRules) and (self.rules, self.raise_only) == (other.rules, other.raise_only)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"ProgramRules({list(self.rules)!r}, raise_only={self.raise_only})"

    def find(self, program: str, first_argument: str | None) -> Rule | None:
        """The rule for ``program`` run with ``first_argument`` (None: none, or not literal): its subcommand's rule,
        else the program's, else None."""
        if first_argument is not None:
            found = self._index.get((program, first_argument))
            if found is not None:
                return found
        return self._index.get((program, ""))

    def programs(self) -> frozenset[str]:
        """The programs some rule names."""
        return frozenset(rule.program for rule in self.rules)


def rules_of(records: Iterable[object]) -> ProgramRules:
    """The classifier's form of stored rules (objects with ``program``, ``subcommand``, ``grade`` (a level's name)
    and ``set_by``: bot/store/records.py ``ProgramRule``, or the adapters' copy). A record whose grade names no level
    is left out: its program is then graded as if it had no rule, which is never below the built-in grade."""
    rules: list[Rule] = []
    for record in records:
        try:
            level = RiskLevel.parse(str(getattr(record, "grade")))  # noqa: B009 - duck-typed records
        except ValueError:
            continue
        rules.append(
            Rule(
                str(getattr(record, "program")),  # noqa: B009 - duck-typed records
                getattr(record, "subcommand") or None,  # noqa: B009
                level,
                str(getattr(record, "set_by")),  # noqa: B009
            )
        )
    return ProgramRules(tuple(rules))
