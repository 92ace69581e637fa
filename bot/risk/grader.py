"""The grading machinery shared by the walker and the per-program handlers.

A :class:`Grader` holds one classification's state: containment, the working
directory candidates, the reasons and the simple commands found. Handlers receive a
:class:`Call` (one program invocation, after unwrapping) and report findings through
it. Containment enters here and only here: :meth:`Grader.flag` lowers a finding
marked ``downgradable`` to ``workspace_write`` when the script runs contained
(issue 3, "Containment must enter the CLASSIFIER, never the policy").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from bot.risk.model import RiskLevel, SimpleCommand, simple_command_of
from bot.risk.paths import CwdState, Where, locate
from bot.risk.reasons import ReasonBook, shorten
from bot.risk.sensitive import (
    credential_path,
    may_name_secret,
    path_text,
    protected_path,
    read_path_text,
    secret_expansions,
    secret_variable,
)
from bot.risk.words import Word
from bot.values import Frozen

TYPE_CHECKING = False  # the recipe reader loads only where recipes are read (bot/values.py: no typing at run time)
if TYPE_CHECKING:
    from bot.risk.recipes import Recipe, RecipeBook

__all__ = ["INERT_ENVIRONMENT", "Call", "Grader", "Handler", "Program", "Rec", "Scope", "inert_environment"]

R = RiskLevel
# Module constants: looking an enum member up on its class is slow in a hot path.
_READ_ONLY = RiskLevel.READ_ONLY
_WORKSPACE_WRITE = RiskLevel.WORKSPACE_WRITE

_WORD_SPLIT = re.compile(r"[^a-z]+")
#: Recipe and program words that say what a target does (issue 14: deploy/release/publish/push, destroy/clean).
_SHIPPING_WORDS = frozenset({"deploy", "release", "publish", "push", "upload", "ship", "rollout", "promote"})
_DELETING_WORDS = frozenset({"destroy", "clean", "purge", "wipe", "nuke", "teardown", "drop", "reset", "uninstall", "delete", "prune", "clobber", "distclean"})

#: Programs that print the whole environment when given no command or name (coreutils env, printenv; bash set).
_DUMPS_ENVIRONMENT = frozenset({"env", "printenv", "set"})
#: Programs that use a key file named in their arguments (``ssh -i KEY``), or only change or list a path's name and
#: attributes, rather than print the file's content. Copying programs (``scp``, ``rsync``, ``cp``, ``install``,
#: ``tar``, ``dd``) are not here: a copy of a secret into the workspace is read from there.
_USES_KEYS = frozenset({
    "ssh", "git", "chmod", "chown", "chgrp", "mkdir", "touch", "rmdir", "ln", "ls", "stat",
    "test", "[", "mv", "rm", "unlink", "shred", "realpath", "readlink", "dirname", "basename", "du",
})  # fmt: skip


def _dumps_environment(name: str, values: list[str | None]) -> bool:
    """True when ``name values...`` prints every variable: ``env``/``printenv`` without a name or command
    (coreutils env, printenv), ``set`` without arguments (bash(1) SHELL BUILTIN COMMANDS)."""
    if name == "env":
        return all(v is not None and (v.startswith("-") or "=" in v) for v in values) and not any(
            v is not None and (v.startswith(("-S", "--split-string", "-u", "--unset", "-C", "--chdir"))) for v in values
        )
    if name == "printenv":
        return all(v is not None and v.startswith("-") for v in values)
    return not values


#: Environment names that change only output, colour, locale or time zone (they name no program, file, option or
#: code), and ``LC_*``: a project recipe runner (programs/projects.py) or a command a standing approval covers
#: (bot/standing.py) given them still runs as read. Any other name set by the script before a program runs
#: (``FOO=bar make test``, ``export X=...; npm test``, ``env X=... just``, ``HOME=/tmp/x git push``,
#: ``RUSTC_WRAPPER=/tmp/x cargo install``) may change what that program does.
INERT_ENVIRONMENT = frozenset({
    "CI", "FORCE_COLOR", "NO_COLOR", "CLICOLOR", "TERM", "COLUMNS", "LINES", "TZ", "LANG", "LANGUAGE",
    "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "RUST_BACKTRACE",
})  # fmt: skip


def inert_environment(name: str) -> bool:
    """True when setting ``name`` changes only output, colour, locale or time zone (:data:`INERT_ENVIRONMENT`)."""
    return name in INERT_ENVIRONMENT or name.startswith("LC_")


#: Paths accepted as the system's own program (documented in table.py).
SYSTEM_BIN_DIRS = ("/usr/bin/", "/bin/")


def _expanded_target(word: Word, *, redirect: bool) -> bool:
    """True when a write target only known when it runs is built by the script from an expansion (``$OUT``,
    ``$D/hosts``, ``"${D:-/etc}/hosts"``, a command substitution) rather than a ``$HOME`` path or a location a
    program handler names (``/usr/local``): a redirect's target, or an operand with a directory part."""
    src = word.src
    if "$" not in src and "`" not in src or path_text(word.value, src):
        return False
    return redirect or "/" in src


class Program(Frozen):
    """A recognised program: its handler and the source of truth for its rules."""

    __slots__ = ("handler", "source")
    handler: Handler
    source: str

    def __init__(self, handler: Handler, source: str) -> None:
        self._init(handler=handler, source=source)


class Rec:
    """One simple command being graded (mutable until finished).

    ``words`` is the effective argv (replaced as wrappers are unwrapped); ``emit`` is
    False for a shell wrapper (``bash -c``) whose inner commands were listed instead;
    ``stdin`` is the literal text on its standard input when the script shows it (a
    quoted here-document, a literal here-string, ``echo LITERAL |``), else None (unknown);
    ``marks`` lists its redirects that write outside the workspace (:attr:`SimpleCommand.marks`);
    ``environment`` and ``outside`` are the script's assigned names and whether the directory was outside the
    workspace when the command was dispatched (:attr:`SimpleCommand.environment`, :attr:`SimpleCommand.outside`).
    """

    __slots__ = ("words", "text", "wrappers", "level", "emit", "stdin", "marks", "environment", "outside")

    def __init__(self, words: list[Word], text: str, wrappers: list[str] | None = None) -> None:
        self.words = words
        self.text = text
        self.wrappers: list[str] = wrappers if wrappers is not None else []
        self.level = _READ_ONLY
        self.emit = True
        self.stdin: str | None = None
        self.marks: list[str] | None = None
        self.environment: tuple[str, ...] = ()
        self.outside = False


class Scope:
    """How the current script runs (immutable by convention; :meth:`but` makes a changed copy).

    Attributes:
        contained: the script runs in the sandbox VM (downgrades apply).
        depth: nesting of re-parsed scripts (``bash -c``, ``eval``).
        repeat: >0 inside loops, function bodies and traps (a ``cd`` there makes the cwd unknown).
        wrappers: wrappers that led into this script, prefixed to its simple commands' wrappers.
        floor: a level every simple command of this script gets at least (``sudo bash -c``).
    """

    __slots__ = ("contained", "depth", "repeat", "wrappers", "floor", "project")

    def __init__(
        self,
        contained: bool,
        depth: int = 0,
        repeat: int = 0,
        wrappers: tuple[str, ...] = (),
        floor: RiskLevel = R.READ_ONLY,
        project: bool = False,
    ) -> None:
        self.contained = contained
        self.depth = depth
        self.repeat = repeat
        self.wrappers = wrappers
        self.floor = floor
        self.project = project  # a project recipe's line: programs not in the table are the project's own code

    def repeated(self) -> Scope:
        """This scope inside a loop or function body."""
        return Scope(self.contained, self.depth, self.repeat + 1, self.wrappers, self.floor, self.project)


class Call:
    """One program invocation handed to a handler.

    Attributes:
        name: the program name as resolved (``rm``); ``args``: its arguments.
    """

    __slots__ = ("args", "g", "name", "rec", "scope")

    def __init__(self, g: Grader, rec: Rec, scope: Scope, name: str, args: list[Word]) -> None:
        self.g = g
        self.rec = rec
        self.scope = scope
        self.name = name
        self.args = args

    def flag(
        self, level: RiskLevel, rule: str, detail: str, *, downgradable: bool = False, subject: str | None = None,
        contained_level: RiskLevel | None = None,
    ) -> None:
        """Report a finding for this command (see :meth:`Grader.flag`)."""
        self.g.flag(self.rec, self.scope, level, rule, detail, downgradable=downgradable, subject=subject,
                    contained_level=contained_level)

    def write(self, word: Word, what: str, *, cwd: Word | None = None, replaces: bool = False) -> None:
        """Report a write to ``word`` (relative to ``cwd`` when given) by its location; ``replaces``: the write
        replaces what is there (``cp``/``mv``/``ln -f`` destinations, ``>``, ``truncate``, ``sed -i``)."""
        self.g.write(self.rec, self.scope, word, what, cwd=cwd, replaces=replaces)

    def where(self, word: Word, *, cwd: Word | None = None) -> Where:
        """Where ``word`` lands (relative to ``cwd`` when given)."""
        return self.g.where(word, cwd)

    def run(self, words: list[Word], wrapper: str, *, child_process: bool = True, cwd: Word | None = None) -> None:
        """Grade ``words`` as the command this wrapper runs, in the same simple command."""
        self.g.unwrap(self.rec, self.scope, words, wrapper, child_process=child_process, cwd=cwd)

    def child(self, words: list[Word], wrapper: str, *, cwd_unknown: bool = False) -> None:
        """Grade ``words`` as a separate command this program runs (``find -exec``)."""
        self.g.child(self.rec, self.scope, words, wrapper, cwd_unknown=cwd_unknown)

    def script(
        self, text: str, wrapper: str, *, remote: bool = False, repeat: bool = False, same_shell: bool = False, project: bool = False
    ) -> None:
        """Parse and grade ``text`` as a shell script this program runs (``bash -c``, ``eval``).

        ``same_shell``: it runs in this shell (``eval``, ``trap``), so its ``cd`` carries on.
        ``project``: it is a line of a project recipe (see :attr:`Scope.project`).
        """
        self.g.script(self.rec, self.scope, text, wrapper, remote=remote, repeat=repeat, same_shell=same_shell, project=project)


Handler = Callable[[Call], None]
#: Parses and grades a nested script: ``walker(grader, parent, scope, text)`` (bot.risk.walker.walk_script).
Walker = Callable[["Grader", "Rec | None", Scope, str], None]


class Grader:
    """The state of one classification. Use :func:`bot.risk.classify` rather than this class."""

    def __init__(
        self, programs: Mapping[str, Program], contained: bool, workspace: str | None, walker: Walker, recipes: RecipeBook | None = None
    ) -> None:
        self.programs = programs
        self.recipes = recipes
        self.recipes_used: list[Recipe] = []
        self.risk_before = R.READ_ONLY  # the script's grade when the current program was dispatched
        self.contained = contained
        self.walker = walker
        self.state = self.start = CwdState.start(workspace)
        self.book = ReasonBook()
        self.records: list[tuple[Rec, Scope]] = []
        self.risk = R.READ_ONLY
        self.functions: set[str] = set()
        self.direct_cd: tuple[int, int, int, CwdState] | None = None
        self.last_cd: CwdState | None = None
        #: Names this script has assigned so far in the current shell (``NAME=value``, ``export``, ``env NAME=...``):
        #: the environment a project recipe runs with may hold them (programs/projects.py).
        self.assigned: set[str] = set()
        #: True once the script gave a variable the integer attribute (``declare -i``): assigned values may then be
        #: arithmetic that assigns other names (``x=HOME=1``).
        self.integers = False

    # -- findings -------------------------------------------------------------
    def flag(
        self,
        rec: Rec,
        scope: Scope,
        level: RiskLevel,
        rule: str,
        detail: str,
        *,
        downgradable: bool = False,
        subject: str | None = None,
        contained_level: RiskLevel | None = None,
    ) -> None:
        """Record a finding against ``rec``.

        ``downgradable`` findings become ``workspace_write`` (``downgraded=True``) when the
        scope is contained; a finding with a ``contained_level`` becomes that level when contained
        (an irreversible host change by a program that is not in the containment allowlist keeps the
        program's contained grade, ``system``); nothing else is ever lowered (issue 3, containment allowlist).
        """
        downgraded = False
        if scope.contained:
            lowest = _WORKSPACE_WRITE if downgradable else contained_level
            if lowest is not None and level > lowest:
                level = lowest
                downgraded = True
        if level > rec.level:
            rec.level = level
        if level > self.risk:
            self.risk = level
        self.book.add(subject if subject is not None else rec.text, rule, level, detail, downgraded)

    def orphan(self, scope: Scope, subject: str, level: RiskLevel, rule: str, detail: str, *, downgradable: bool = False) -> None:
        """A finding with no program of its own (a redirect on ``{ ...; }``, an assignment).

        It is listed as a simple command with ``argv=()`` so no standing approval covers it.
        """
        rec = Rec([], subject)
        self.flag(rec, scope, level, rule, detail, downgradable=downgradable)
        if rec.level > R.READ_ONLY:
            self.records.append((rec, scope))

    def where(self, word: Word, cwd: Word | None = None) -> Where:
        """Where ``word`` lands from the current directory, or from ``cwd`` when given."""
        state = self.state if cwd is None else self.state.after_cd(cwd.value, certain=True)
        return locate(word, state)

    def write(
        self, rec: Rec, scope: Scope, word: Word, what: str, *, cwd: Word | None = None, subject: str | None = None,
        replaces: bool = False,
    ) -> None:
        """Grade a write to ``word`` by where it lands (issue 3, "Redirects and writes").

        Outside the workspace: a protected path (sensitive.py: system trees, login and credential files) is
        ``destructive`` whatever the write; so is a write that ``replaces`` what is there at a path known before
        it runs (the old content is lost), and a write to a path the script builds from an expansion (a redirect
        ``> $OUT``, ``> $D/hosts``; an operand with a directory part ``$D/hosts``, ``"${D:-/etc}/hosts"``): it may
        be any protected path (``D=/etc`` earlier). Other writes there (create or append at a known path, an
        operand that is only possibly a write, such as ``cp "$SRC" dest/`` where ``$SRC`` may be ``-t DIR``) are
        ``system``. All are
        downgraded when contained (the VM is discarded). A redirect (``subject`` given) that writes outside the
        workspace is also listed in the command's :attr:`Rec.marks`.
        """
        where = self.where(word, cwd)
        target = word.src
        if where is Where.NOWHERE:
            return
        if where is Where.WORKSPACE:
            self.flag(rec, scope, R.WORKSPACE_WRITE, "write-in-workspace", f"{what} {target} inside the workspace.", subject=subject)
            return
        if where is Where.TEMP:
            self.flag(rec, scope, R.WORKSPACE_WRITE, "write-in-temp", f"{what} {target} in the temp area.", subject=subject)
            if subject is not None:  # outside the workspace all the same: a standing approval's pattern does not cover it
                rec.marks = (rec.marks or []) + [subject]
            return
        if subject is not None:
            if rec.marks is None:
                rec.marks = []
            rec.marks.append(subject)
        if where is Where.OUTSIDE:
            why = protected_path(path_text(word.value, word.src))
            if why is not None:
                self.flag(rec, scope, R.DESTRUCTIVE, "protected-path-write", f"{what} {target}: {why}.", downgradable=True, subject=subject)
            elif replaces and word.value is not None:
                self.flag(
                    rec, scope, R.DESTRUCTIVE, "overwrite-outside-workspace",
                    f"{what} {target}, outside the workspace (or not knowable before it runs), replacing what is there.",
                    downgradable=True, subject=subject,
                )  # fmt: skip
            elif word.value is None and _expanded_target(word, redirect=subject is not None):
                self.flag(
                    rec, scope, R.DESTRUCTIVE, "unknown-write-target",
                    f"{what} {target}, a path only known when it runs: it may be a system file (/etc/hosts).",
                    downgradable=True, subject=subject,
                )  # fmt: skip
            else:
                self.flag(
                    rec, scope, R.SYSTEM, "write-outside-workspace",
                    f"{what} {target}, outside the workspace (or not knowable before it runs).",
                    downgradable=True, subject=subject,
                )  # fmt: skip
        elif where is Where.GIT_CONTROL:
            self.flag(rec, scope, R.DESTRUCTIVE, "git-control-write", f"{what} {target}: git hooks and config make git run programs later.", subject=subject)
        else:
            self.flag(rec, scope, R.DESTRUCTIVE, "device-write", f"{what} the device {target}, which can destroy a disk.", subject=subject)

    # -- dispatch -------------------------------------------------------------
    def dispatch(self, rec: Rec, scope: Scope) -> None:
        """Grade ``rec.words`` as a program invocation by the table (unknown => destructive)."""
        words = rec.words
        if not words:
            return
        if self.assigned:
            rec.environment = tuple(sorted(self.assigned))
        state = self.state
        name = words[0].value
        if state is not self.start:  # the start is the workspace itself
            # git finds its repository, hooks and config from its directory (git(1) "GIT_DIR": the parents are
            # searched): any directory but the one the script started in may be another repository (a bare copy).
            rec.outside = name == "git" or state.remote or not state.cwds or any(
                cwd != state.root and not cwd.startswith(state.root + "/") for cwd in state.cwds
            )
        if name is None:
            self.flag(rec, scope, R.DESTRUCTIVE, "dynamic-command-name", f"The program name {shorten(words[0].src, 60)} is only known when it runs.")
            return
        if "/" in name:
            accepted = next((name[len(d) :] for d in SYSTEM_BIN_DIRS if name.startswith(d)), None)
            if scope.project and not name.startswith(("/", "~")) and ".." not in name.split("/"):
                self.project_program(rec, scope, name)
                return
            if accepted is None or "/" in accepted or accepted not in self.programs:
                self.flag(rec, scope, R.DESTRUCTIVE, "program-path", f"{shorten(name, 60)} is a path to a program, not a recognised system program.")
                return
            name = accepted
        program = self.programs.get(name)
        if program is None:
            if scope.project:
                self.project_program(rec, scope, name)
                return
            self.flag(rec, scope, R.DESTRUCTIVE, "unrecognised", f"{shorten(name, 60)} is not a recognised program.")
            return
        self.risk_before = self.risk
        if name in _DUMPS_ENVIRONMENT or may_name_secret(rec.text):
            self.secrets(rec, scope, name, words[1:])
        program.handler(Call(self, rec, scope, name, words[1:]))

    def secrets(self, rec: Rec, scope: Scope, name: str, args: list[Word]) -> None:
        """Reading a credential file outside the workspace, printing a secret variable or the whole environment:
        at least ``network``, never downgraded (sensitive.py): the command's output goes to the model provider,
        wherever the command runs."""
        values = [w.value for w in args]
        if name in _DUMPS_ENVIRONMENT and _dumps_environment(name, values):
            self.flag(rec, scope, R.NETWORK, "secret-read", f"{name} prints every environment variable, secrets too: its output goes to the model.")
        if name == "printenv":
            for value in values:
                if value is not None and not value.startswith("-") and secret_variable(value):
                    self.flag(rec, scope, R.NETWORK, "secret-read", f"printenv {shorten(value, 60)} prints a secret: its output goes to the model.")
        for word in args:
            for variable in secret_expansions(word.src):
                self.flag(rec, scope, R.NETWORK, "secret-read", f"{shorten(word.src, 60)} expands the secret ${variable}: the command's output goes to the model.")
            if name in _USES_KEYS:
                continue
            text = read_path_text(word.value, word.src)
            if "=" in text and not text.startswith(("/", "~", ".")):
                text = text.split("=", 1)[1]  # --file=PATH, dd's if=PATH
            what = credential_path(text)
            if what is not None and self.where(Word(text, text)) not in (Where.WORKSPACE, Where.TEMP):
                self.flag(rec, scope, R.NETWORK, "secret-read", f"{shorten(word.src, 60)} holds {what}: the command's output goes to the model.")

    def project_program(self, rec: Rec, scope: Scope, name: str) -> None:
        """A program a project recipe runs that is not in the table (the project's script, a dependency's
        program): the project's own code, as ``make``/``npm run`` always were (workspace_write), raised by
        words that say deploy/publish (network) or destroy/clean (destructive)."""
        self.flag(rec, scope, R.WORKSPACE_WRITE, "project-program", f"{shorten(name, 60)} is the project's own code or a dependency's program, run by its recipe.")
        self.name_floor(rec, scope, [w.value for w in rec.words if w.value is not None], name)

    def name_floor(self, rec: Rec, scope: Scope, words: list[str], what: str) -> None:
        """Words saying deploy/release/publish/push (network) or destroy/clean (destructive) raise the grade (issue 14)."""
        parts = {part for word in words for part in _WORD_SPLIT.split(word.lower()) if part}
        if parts & _DELETING_WORDS:
            self.flag(rec, scope, R.DESTRUCTIVE, "recipe-name", f"{shorten(what, 60)}: its name says it deletes ({', '.join(sorted(parts & _DELETING_WORDS))}).")
        if parts & _SHIPPING_WORDS:
            self.flag(rec, scope, R.NETWORK, "recipe-name", f"{shorten(what, 60)}: its name says it ships to another machine ({', '.join(sorted(parts & _SHIPPING_WORDS))}).")

    def unwrap(self, rec: Rec, scope: Scope, words: list[Word], wrapper: str, *, child_process: bool, cwd: Word | None) -> None:
        """Replace ``rec``'s argv by the wrapped command and grade it."""
        rec.words = words
        rec.wrappers.append(wrapper)
        if not child_process and cwd is None:
            self.dispatch(rec, scope)
            return
        saved = self.state
        if cwd is not None:
            self.state = self.state.after_cd(cwd.value, certain=True)
        try:
            self.dispatch(rec, scope)
        finally:
            self.state = saved

    def child(self, parent: Rec, scope: Scope, words: list[Word], wrapper: str, *, cwd_unknown: bool) -> None:
        """Grade a command run by ``parent`` (``find -exec``) as its own simple command."""
        rec = Rec(words, " ".join(w.src for w in words), parent.wrappers + [wrapper])
        saved = self.state
        if cwd_unknown:
            self.state = self.state.unknown()
        self.records.append((rec, scope))
        try:
            self.dispatch(rec, scope)
        finally:
            self.state = saved
        if rec.level > parent.level:
            parent.level = rec.level

    def script(
        self, parent: Rec, scope: Scope, text: str, wrapper: str, *, remote: bool, repeat: bool, same_shell: bool, project: bool = False
    ) -> None:
        """Parse ``text`` and grade it as a script run by ``parent``'s program."""
        inner = Scope(
            contained=scope.contained and not remote,
            depth=scope.depth + 1,
            repeat=scope.repeat + (1 if repeat else 0),
            wrappers=tuple(parent.wrappers) + (wrapper,),
            floor=max(scope.floor, parent.level),
            project=scope.project or project,
        )
        before = len(self.records)  # parent is already listed: only records after it are inner
        saved = self.state
        saved_assigned = self.assigned
        if not same_shell:
            self.assigned = set(saved_assigned)  # another shell: its assignments do not carry on
        if remote:
            self.state = CwdState.remote_state()
        try:
            self.walker(self, parent, inner, text)
        finally:
            if remote or not same_shell:
                self.state = saved
            self.assigned = saved_assigned if not same_shell else self.assigned
        inner_level = max((r.level for r, _ in self.records[before:]), default=R.READ_ONLY)
        if inner_level > parent.level:
            parent.level = inner_level
        if len(self.records) > before:
            parent.emit = False

    # -- results --------------------------------------------------------------
    def simple_commands(self) -> tuple[SimpleCommand, ...]:
        """The simple commands found, in order, with argv cut before the first non-literal word."""
        out: list[SimpleCommand] = []
        for rec, scope in self.records:
            if not rec.emit:
                continue
            name = rec.words[0].value if rec.words else None
            if self.functions and name is not None and name in self.functions:
                self.flag(rec, scope, R.DESTRUCTIVE, "shadowed-by-function", f"{shorten(name, 60)} is a shell function defined in this script.")
            argv: list[str] = []
            for word in rec.words:
                if word.value is None:
                    break
                argv.append(word.value)
            risk = rec.level if rec.level >= scope.floor else scope.floor
            wrappers = scope.wrappers + tuple(rec.wrappers) if rec.wrappers else scope.wrappers
            out.append(simple_command_of(tuple(argv), rec.text, risk, wrappers, tuple(rec.marks) if rec.marks else (),
                                         rec.environment, rec.outside))
        return tuple(out)
