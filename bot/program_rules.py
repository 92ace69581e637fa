"""Program rules: admins teach FlyBot how to grade programs it does not know (or grade one higher, or override it).

The organisation's rules are held in the store (every replica grades with them) and apply to every escalation the
server grades (bot/risk/rules.py says how) and, through the adapters' copy (bot/hooks/rules_cache.py), to the hook
and ``flybot exec``. Rules:
- only admins (``FLYBOT_ADMINS``, a Slack workspace admin/owner, an admin token or an operator) set or remove one;
- a program is a plain word (bot/risk/rules.py ``plain_word``): no path, whitespace, control, hidden or look-alike
  character; a subcommand too, not starting with ``-``; wrappers, shells and interpreters (``sudo``, ``bash``,
  ``python``; bot/standing.py ``NEVER_MATCHES``) and the shell's own ``source``/``.`` run other commands and take no
  rule: the commands they run are what gets graded;
- a rule grades any level, ``destructive`` included; setting one replaces the rule on the same program and
  subcommand; every set, removal and refusal is audited (``program_rule.set``, ``program_rule.removed``,
  ``program_rule.refused``) in the change's own transaction.
Bad input changes nothing.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import structlog

from bot.errors import InvalidRequest, NotAllowed, NotFound
from bot.risk import RiskLevel
from bot.risk.rules import ProgramRules, plain_word, rules_of
from bot.risk.table import PROGRAMS
from bot.standing import NEVER_MATCHES, parse_note
from bot.store import ProgramRule, Store

log = structlog.get_logger("flybot.program_rules")

NO_RULE_FOR = NEVER_MATCHES | frozenset({
    "source", "eval", "exec", "builtin", "command",
    # shells and interpreters beyond NEVER_MATCHES: each runs a script or inline code (``fish -c``, ``pwsh
    # -Command``, ``busybox sh``, ``expect -c``, ``osascript -e``)
    "ash", "bun", "busybox", "csh", "deno", "elvish", "expect", "fish", "ksh", "mksh", "nu", "osascript", "pdksh",
    "powershell", "pwsh", "tcsh", "toybox", "ts-node", "tsx", "xonsh", "yash",
    # programs whose operands are a command they run: chroot(8), doas(1), pkexec(1), runuser(1), chrt(1),
    # taskset(1), unshare(1), nsenter(1), systemd-run(1), flatpak-spawn(1), firejail(1), bwrap(1), fakeroot(1),
    # proot(1), strace(1), ltrace(1), gdb(1) ``-ex shell``, valgrind(1), caffeinate(8), tmux(1), screen(1), entr(1),
    # at(1), batch(1), flock(1), ssh-agent(1), dbus-run-session(1), xvfb-run(1)
    "at", "batch", "bwrap", "caffeinate", "chroot", "chrt", "dbus-run-session", "doas", "entr", "fakeroot",
    "firejail", "flatpak-spawn", "flock", "gdb", "ltrace", "nsenter", "pkexec", "proot", "runuser", "screen",
    "ssh-agent", "strace", "systemd-run", "taskset", "tmux", "unshare", "valgrind", "xvfb-run",
})  # fmt: skip
"""Programs that run another command: a rule on them would grade the command they run by their name."""

_VERSIONED_INTERPRETER = re.compile(r"(?:python|pypy|ruby|perl|php|node|lua|luajit|tclsh|wish|pwsh)[0-9][0-9.]*\Z")
"""An interpreter named with its version (``ruby3.2``, ``perl5.36``, ``php8.1``, ``lua5.4``, ``pypy3``): as
:data:`NO_RULE_FOR`."""


def runs_other_commands(program: str) -> bool:
    """True for a program that takes no rule (:data:`NO_RULE_FOR`, or an interpreter named with its version)."""
    return program in NO_RULE_FOR or _VERSIONED_INTERPRETER.match(program) is not None


def parse_program(text: str, field: str = "program") -> str:
    """A program name as a rule names it.

    Raises:
        InvalidRequest: not a plain word (a path, whitespace, control or non-ASCII characters), or a program that
            runs another command (:data:`NO_RULE_FOR`).
    """
    if not isinstance(text, str) or not plain_word(text):
        shown = repr(text)[:80]
        raise InvalidRequest(
            f"program {shown}: give the program's plain name, like gcc or bazel (letters, digits, _ . + -; no path, "
            "space or look-alike character)",
            field=field,
        )
    if runs_other_commands(text):
        raise InvalidRequest(
            f"program {text!r} runs another command, script or module: FlyBot grades the command it runs, so it "
            "takes no program rule",
            field=field,
        )
    return text


def parse_subcommand(text: str | None) -> str | None:
    """A rule's subcommand (the program's first argument), or None for every use.

    Raises:
        InvalidRequest: not a plain word, or an option (starts with ``-``).
    """
    if text is None or text.strip() in ("", "*"):
        return None
    if not plain_word(text) or text.startswith("-"):
        raise InvalidRequest(
            f"subcommand {repr(text)[:80]}: give one plain word, like build or deploy (not an option)",
            field="subcommand",
        )
    return text


def parse_grade(text: str | None) -> RiskLevel:
    """A rule's grade: a risk level's name.

    Raises:
        InvalidRequest: missing or not a level.
    """
    valid = ", ".join(level.label for level in RiskLevel)
    if not text:
        raise InvalidRequest(f"give a grade: one of {valid}", field="grade")
    try:
        return RiskLevel.parse(text)
    except ValueError:
        raise InvalidRequest(f"unknown grade {text[:40]!r}; use one of: {valid}", field="grade") from None


MAX_RULES_AT_ONCE = 20
"""Program rules one request may set (a Grade dialog's subcommands): they are stored in one transaction, before the
dialog's 3 s acknowledgement."""

_UNRECOGNISED = " is not a recognised program."


def teachable_programs(risk: str, reasons: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """The programs a card offers to grade: when ``risk`` is destructive and every destructive reason is an
    ``unrecognised`` program named by a plain word that may take a rule (the grader's detail "NAME is not a
    recognised program."), those names in order; else ``()`` (something else is destructive too, such as
    ``rm -rf``, a path to a program or a hidden character: grading the program would not change the grade)."""
    if risk != RiskLevel.DESTRUCTIVE.label:
        return ()
    names: list[str] = []
    for reason in reasons:
        if reason.get("level") != RiskLevel.DESTRUCTIVE.label:
            continue
        detail = str(reason.get("detail", ""))
        name = detail.removesuffix(_UNRECOGNISED)
        if reason.get("rule") != "unrecognised" or name == detail or not plain_word(name) or runs_other_commands(name):
            return ()
        if name not in names:
            names.append(name)
    return tuple(names)


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """A program rule to set (validated by :meth:`ProgramRuleService.set`)."""

    program: str
    grade: str
    subcommand: str | None = None
    note: str | None = None


class ProgramRuleService:
    """Set, list and remove program rules, admins only.

    Args:
        store: persistence (and the rules' in-memory copy, bot/store/cache.py).
        is_admin: ``FLYBOT_ADMINS`` or a Slack workspace admin/owner (fail closed: an error means no).
        clock: aware UTC now.
    """

    def __init__(
        self, store: Store, *, is_admin: Callable[[str], Awaitable[bool]], clock: Callable[[], datetime]
    ) -> None:
        self.store = store
        self._is_admin = is_admin
        self.clock = clock
        self._last: tuple[list[ProgramRule], ProgramRules] | None = None

    async def current(self) -> ProgramRules:
        """The rules every grade applies now (converted once per copy the store serves); a rule stored on a program
        that now takes none (:func:`runs_other_commands`, set before it was refused) is not applied."""
        records = await self.store.program_rules()
        last = self._last
        if last is not None and last[0] is records:
            return last[1]
        rules = rules_of(record for record in records if not runs_other_commands(record.program))
        self._last = (records, rules)
        return rules

    async def list(self) -> builtins.list[ProgramRule]:
        """Every rule, by program and subcommand."""
        return list(await self.store.program_rules())

    async def _check_admin(self, actor: str, action: str, operator: bool, **detail: str | None) -> None:
        if operator or await self._is_admin(actor):
            return
        await self.store.audit("program_rule.refused", at=self.clock(), actor=actor, action=action, **detail)
        raise NotAllowed("only admins can set or remove program rules")

    async def set(self, actor: str, spec: RuleSpec, *, operator: bool = False) -> ProgramRule:
        """Validate and store a rule, replacing one on the same program and subcommand; audited with the built-in
        grade it replaces or raises (``builtin``: ``unknown`` when the classifier does not know the program).

        Raises:
            InvalidRequest: a bad program, subcommand, grade or note (nothing changes).
            NotAllowed: the actor is no admin (nothing changes; audited).
        """
        return (await self.set_all(actor, [spec], operator=operator))[0]

    async def set_all(
        self, actor: str, specs: Sequence[RuleSpec], *, operator: bool = False
    ) -> builtins.list[ProgramRule]:
        """:meth:`set` for each of ``specs`` (at most :data:`MAX_RULES_AT_ONCE`), all or none: every spec is checked
        before any is stored, and they are stored in one transaction. Returns the rules in ``specs``' order.

        Raises:
            InvalidRequest: no spec, more than :data:`MAX_RULES_AT_ONCE`, or a bad one (nothing changes).
            NotAllowed: the actor is no admin (nothing changes; audited).
        """
        if not specs:
            raise InvalidRequest("no program rule to set", field="program")
        if len(specs) > MAX_RULES_AT_ONCE:
            raise InvalidRequest(
                f"at most {MAX_RULES_AT_ONCE} subcommands at once ({len(specs)} given)", field="subcommand"
            )
        parsed = [
            (
                parse_program(spec.program),
                parse_subcommand(spec.subcommand),
                parse_grade(spec.grade),
                parse_note(spec.note),
            )
            for spec in specs
        ]
        await self._check_admin(actor, "set", operator, program=parsed[0][0], subcommand=parsed[0][1])
        at = self.clock()
        rules = [
            ProgramRule(program=program, subcommand=subcommand, grade=level.label, set_by=actor, set_at=at, note=note)
            for program, subcommand, level, note in parsed
        ]
        async with self.store.transaction() as tx:
            for rule in rules:
                before = await tx.get_program_rule(rule.program, rule.subcommand)
                await tx.set_program_rule(rule)
                await tx.audit(
                    "program_rule.set",
                    at=rule.set_at,
                    actor=actor,
                    program=rule.program,
                    subcommand=rule.subcommand,
                    grade=rule.grade,
                    note=rule.note,
                    replaced=before.grade if before else None,
                    builtin="known" if rule.program in PROGRAMS else "unknown",
                )
        for rule in rules:
            log.info(
                "program_rule.set", program=rule.program, subcommand=rule.subcommand, grade=rule.grade, actor=actor
            )
        return rules

    async def remove(
        self, actor: str, program: str, subcommand: str | None = None, *, operator: bool = False
    ) -> ProgramRule:
        """Remove the rule on ``program`` (and ``subcommand``); audited.

        Raises:
            InvalidRequest: a bad program or subcommand.
            NotAllowed: the actor is no admin (audited).
            NotFound: no such rule.
        """
        program = parse_program(program)
        subcommand = parse_subcommand(subcommand)
        await self._check_admin(actor, "remove", operator, program=program, subcommand=subcommand)
        now = self.clock()
        async with self.store.transaction() as tx:
            before = await tx.get_program_rule(program, subcommand)
            if before is not None and await tx.remove_program_rule(program, subcommand):
                await tx.audit(
                    "program_rule.removed",
                    at=now,
                    actor=actor,
                    program=program,
                    subcommand=subcommand,
                    grade=before.grade,
                    set_by=before.set_by,
                )
        if before is None:
            words = f"{program} {subcommand}" if subcommand else program
            raise NotFound(f"no program rule on {words}")
        log.info("program_rule.removed", program=program, subcommand=subcommand, actor=actor)
        return before
