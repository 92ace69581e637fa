"""Typed results of the command risk classifier.

Levels, in order (DESIGN.md "Contracts worth keeping stable"):
``read_only < workspace_write < network < system < destructive``.
Anything the classifier does not recognise is ``destructive``.
"""

from __future__ import annotations

from enum import IntEnum

from bot.values import Frozen

TYPE_CHECKING = False  # typing, dataclasses and the recipe reader stay unloaded (bot/values.py says why)
if TYPE_CHECKING:
    from typing import Any

    from bot.risk.recipes import Recipe


class RiskLevel(IntEnum):
    """A linear risk scale; compare with ``<``/``>``; ``str(level)`` is the wire name."""

    READ_ONLY = 0
    WORKSPACE_WRITE = 1
    NETWORK = 2
    SYSTEM = 3
    DESTRUCTIVE = 4

    @property
    def label(self) -> str:
        """The wire name, e.g. ``"workspace_write"`` (from a table: an enum's ``name`` is slow to reach and the
        request path asks for labels a dozen times)."""
        return _LABELS[self]

    def __str__(self) -> str:
        return self.label

    @classmethod
    def parse(cls, text: str) -> RiskLevel:
        """Parse a wire name (``"system"``; ``-`` accepted for ``_``).

        Raises:
            ValueError: the text names no level; the message lists the valid names.
        """
        found = _BY_LABEL.get(text)  # the stored wire names, as they are read back on every request
        if found is not None:
            return found
        key = text.strip().lower().replace("-", "_")
        for level in cls:
            if level.label == key:
                return level
        valid = ", ".join(level.label for level in cls)
        raise ValueError(f"unknown risk level {text!r}; expected one of: {valid}")


_LABELS = tuple(level.name.lower() for level in RiskLevel)
"""Wire names by level (index = value)."""
_BY_LABEL = {level.name.lower(): level for level in RiskLevel}


def requires_approval(risk: RiskLevel, ceiling: RiskLevel) -> bool:
    """True when ``risk`` is above ``ceiling`` (``risk > ceiling``)."""
    return risk > ceiling


class Reason(Frozen):
    """Why a part of a command got its level.

    Attributes:
        subject: the simple command or redirect that raised the level, as written (e.g. ``rm -rf src``, ``> /etc/hosts``).
        rule: a stable rule id (e.g. ``deletion``, ``network-egress``, ``write-outside-workspace``, ``unrecognised``).
        level: the level this rule gave that subject (after any containment downgrade).
        detail: one human sentence.
        downgraded: True when containment lowered it (it runs in the sandbox and its effect is discarded).
    """

    __slots__ = ("subject", "rule", "level", "detail", "downgraded")
    subject: str
    rule: str
    level: RiskLevel
    detail: str
    downgraded: bool

    def __init__(self, subject: str, rule: str, level: RiskLevel, detail: str, downgraded: bool = False) -> None:
        self._init(subject=subject, rule=rule, level=level, detail=detail, downgraded=downgraded)


class Runner(Frozen):
    """A project recipe that runs a command as one of its lines (bot/risk/programs/projects.py ``run_recipe``).

    Attributes:
        argv: the literal words of the command that ran the recipe, after unwrapping wrappers and cut before the
            first word that is not literal (``("make", "test")``, ``("npm", "test", "--prefix", "other")``).
        directory: where the tool ran, relative to the workspace (``""``: the workspace itself).
        file: the recipe file named on the command line (``make -f``), relative to the workspace, or ``""``.
        source: where the line is written (``Makefile:2 (test)``, ``package.json scripts.test``).
    """

    __slots__ = ("argv", "directory", "file", "source")
    argv: tuple[str, ...]
    directory: str
    file: str
    source: str

    def __init__(self, argv: tuple[str, ...], directory: str, file: str, source: str) -> None:
        self._init(argv=argv, directory=directory, file=file, source=source)


class SimpleCommand(Frozen):
    """One simple command found in the script, after unwrapping wrappers (``env``, ``timeout``, ``sudo`` ...).

    Attributes:
        argv: the literal words of the effective command (``("apt-get", "install", "-y", "jq")``);
            empty when the name was not literal.
        text: the source text of the simple command as written.
        risk: the grade of this simple command alone.
        wrappers: the wrappers unwrapped to reach ``argv``, outermost first (``("sudo", "env")``);
            lets a standing-approval check refuse a command reached through ``sudo``.
        marks: what the command does beyond its argv's words: its redirects that write outside the workspace,
            the temp area included, or open a network socket (``("> /etc/passwd",)``, ``(">/dev/tcp/h/80",)``);
            a standing approval with a pattern never covers a command with marks (only ``*`` does).
        environment: the environment names this script sets that the command may run with, sorted: its own
            ``NAME=value`` prefix, ``env NAME=...``, and any assignment, ``export``, ``declare``, ``read`` or
            ``printf -v`` earlier in the same shell (``("HOME",)`` for ``export HOME=/tmp/x; git push``).
        outside: True when the command runs in a directory outside the workspace or only known when it runs
            (after ``cd /tmp/x``, ``pushd $D``, ``popd``), or on another machine; for ``git``, in any directory but
            the one the script started in (``cd sub && git push``: git finds its repository, hooks and config there).
        chosen_by: what in the workspace chooses code this command runs, beyond its words, or what FlyBot could not
            check: a configuration file that names a registry, toolchain, program or hook (``(".npmrc:2 registry",)``,
            ``("rust-toolchain.toml",)``), a path that is a link out of the workspace, or a place the adapter did not
            report (``("cargo configuration (not reported)",)``); no standing approval covers a command with any
            (bot/risk/settings.py).
        runners: the project recipes this command is a line of, outermost first (``make test`` whose Makefile
            runs ``npm test``, whose script runs ``pytest -q``: two for ``pytest -q``); empty for a command typed
            in the script itself. A standing approval covers a recipe's line only through its runner
            (bot/standing.py ``covers_command``). A package's life cycle scripts, which an install runs
            (``npm install``'s ``postinstall``), have none: they are reached through a wrapper (``npm install
            (package.json scripts.postinstall)``) that no standing approval looks through.
    """

    __slots__ = ("argv", "text", "risk", "wrappers", "marks", "environment", "outside", "chosen_by", "runners")
    argv: tuple[str, ...]
    text: str
    risk: RiskLevel
    wrappers: tuple[str, ...]
    marks: tuple[str, ...]
    environment: tuple[str, ...]
    outside: bool
    chosen_by: tuple[str, ...]
    runners: tuple[Runner, ...]

    def __init__(
        self,
        argv: tuple[str, ...],
        text: str,
        risk: RiskLevel,
        wrappers: tuple[str, ...] = (),
        marks: tuple[str, ...] = (),
        environment: tuple[str, ...] = (),
        outside: bool = False,
        chosen_by: tuple[str, ...] = (),
        runners: tuple[Runner, ...] = (),
    ) -> None:
        self._init(
            argv=argv,
            text=text,
            risk=risk,
            wrappers=wrappers,
            marks=marks,
            environment=environment,
            outside=outside,
            chosen_by=chosen_by,
            runners=runners,
        )

    def __hash__(self) -> int:
        # Frozen's hash (of the fields in slot order), spelled out: a request's commands key the server's memo of
        # standing-approval covers, and the generic form is slower.
        return hash((
            self.argv, self.text, self.risk, self.wrappers, self.marks, self.environment, self.outside,
            self.chosen_by, self.runners,
        ))  # fmt: skip


class Assessment(Frozen):
    """The classifier's verdict on a whole script: ``risk`` is the maximum over its parts.

    ``recipes``: the project recipes read and graded (``make X``, ``npm run X``...), for the adapter to send with the
    escalation.
    """

    __slots__ = ("risk", "reasons", "commands", "contained", "recipes")
    risk: RiskLevel
    reasons: tuple[Reason, ...]
    commands: tuple[SimpleCommand, ...]
    contained: bool
    recipes: tuple[Recipe, ...]

    def __init__(
        self,
        risk: RiskLevel,
        reasons: tuple[Reason, ...],
        commands: tuple[SimpleCommand, ...] = (),
        contained: bool = False,
        recipes: tuple[Recipe, ...] = (),
    ) -> None:
        self._init(risk=risk, reasons=reasons, commands=commands, contained=contained, recipes=recipes)


# -- fast builders for the classifier's hot path ---------------------------------------------------------------------
# A frozen value's __init__ sets each field through object.__setattr__, which costs more than the rest of grading
# a short command. These build the same objects (equal, hashable, frozen) by setting the slots directly.
_new = object.__new__


def _setters(cls: type, *names: str) -> tuple[Any, ...]:
    """The slot descriptors' setters of ``names`` on ``cls``."""
    return tuple(vars(cls)[name].__set__ for name in names)


_R_SUBJECT, _R_RULE, _R_LEVEL, _R_DETAIL, _R_DOWN = _setters(Reason, "subject", "rule", "level", "detail", "downgraded")
_C_ARGV, _C_TEXT, _C_RISK, _C_WRAPPERS, _C_MARKS, _C_ENVIRONMENT, _C_OUTSIDE, _C_CHOSEN_BY, _C_RUNNERS = _setters(
    SimpleCommand, "argv", "text", "risk", "wrappers", "marks", "environment", "outside", "chosen_by", "runners"
)
_A_RISK, _A_REASONS, _A_COMMANDS, _A_CONTAINED, _A_RECIPES = _setters(
    Assessment, "risk", "reasons", "commands", "contained", "recipes"
)


def reason_of(subject: str, rule: str, level: RiskLevel, detail: str, downgraded: bool) -> Reason:
    """``Reason(subject, rule, level, detail, downgraded)``, built faster (see above)."""
    obj: Reason = _new(Reason)
    _R_SUBJECT(obj, subject)
    _R_RULE(obj, rule)
    _R_LEVEL(obj, level)
    _R_DETAIL(obj, detail)
    _R_DOWN(obj, downgraded)
    return obj


def simple_command_of(
    argv: tuple[str, ...],
    text: str,
    risk: RiskLevel,
    wrappers: tuple[str, ...],
    marks: tuple[str, ...] = (),
    environment: tuple[str, ...] = (),
    outside: bool = False,
    chosen_by: tuple[str, ...] = (),
    runners: tuple[Runner, ...] = (),
) -> SimpleCommand:
    """``SimpleCommand(argv, text, risk, wrappers, marks, environment, outside, chosen_by, runners)``, built faster
    (see above)."""
    obj: SimpleCommand = _new(SimpleCommand)
    _C_ARGV(obj, argv)
    _C_TEXT(obj, text)
    _C_RISK(obj, risk)
    _C_WRAPPERS(obj, wrappers)
    _C_MARKS(obj, marks)
    _C_ENVIRONMENT(obj, environment)
    _C_OUTSIDE(obj, outside)
    _C_CHOSEN_BY(obj, chosen_by)
    _C_RUNNERS(obj, runners)
    return obj


def assessment_of(
    risk: RiskLevel,
    reasons: tuple[Reason, ...],
    commands: tuple[SimpleCommand, ...],
    contained: bool,
    recipes: tuple[Recipe, ...],
) -> Assessment:
    """``Assessment(risk, reasons, commands, contained, recipes)``, built faster (see above)."""
    obj: Assessment = _new(Assessment)
    _A_RISK(obj, risk)
    _A_REASONS(obj, reasons)
    _A_COMMANDS(obj, commands)
    _A_CONTAINED(obj, contained)
    _A_RECIPES(obj, recipes)
    return obj
