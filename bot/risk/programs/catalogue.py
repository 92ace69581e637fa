"""The handler of every program described in the catalogue (bot/risk/catalogue/, format in bot/risk/README.md).

A catalogue entry is data: per program (and per subcommand, nested to any depth) a grade, the options it knows
(which take a value, which change the grade, which name a file written) and which operands are files written. This
module compiles an entry into a :data:`~bot.risk.grader.Handler` when the program is first looked up and grades a
command line with it:

* options are scanned getopt-style: ``--name=value`` or ``--name value``, short clusters (``-xvf``; a letter taking
  a value takes the rest of the cluster or the next word), whole single-dash words (``-std=c99``, ``-shared``),
  prefixes written ``NAME*`` (``-W*``, ``-f*``), ``--`` ends options;
* a subcommand is the first operand where the entry lists ``commands``; a word there that is not listed is
  ``unrecognised-use`` (destructive): plugins and aliases are such words;
* an option the entry (or an enclosing one) does not list is ``unrecognised-use`` unless the entry says ``open``
  (its manual lists no option that writes, deletes or runs programs beyond those the entry names); even then an
  abbreviation of a listed option with an effect is refused;
* a word only known when it runs where an option or a subcommand could stand is destructive;
* the grade is the maximum of the entry's grade and every effect of the options given; a write (``out``) goes
  through the path grading (workspace, temp, outside, protected paths) of :meth:`~bot.risk.grader.Call.write`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping

from bot.risk.grader import SYSTEM_BIN_DIRS, Call, Handler
from bot.risk.model import RiskLevel
from bot.risk.paths import Where
from bot.risk.reasons import shorten
from bot.risk.regex import Regex
from bot.risk.sensitive import credential_path
from bot.risk.words import Word, literal_word

from .kit import (
    argv_text,
    build_or_test,
    chosen_source,
    emptied,
    host_destructive,
    local_package,
    local_package_outside,
    network,
    refuse,
    tool_plugin,
    unpacks,
)

__all__ = ["EFFECTS", "ROLES", "CatalogueError", "compile_entry"]

R = RiskLevel
_DOT = literal_word(".")
_HOME = Word(None, "~")

#: The grades (and option effects) an entry may name: effect -> what it means. See bot/risk/README.md.
EFFECTS: dict[str, str] = {
    "read": "only reads or prints (read_only)",
    "build": "builds or tests the project in the current directory (workspace_write; a write where it runs)",
    "write": "writes files in the current directory (a write there)",
    "unpack": "extracts files its input names into the current directory or the ``out`` option's (a write there; "
    "in the workspace destructive: they may be git's or a coding agent's control files, or a nested .git)",
    "fetch": "downloads packages into the current directory (network, and a write there)",
    "checkout": "replaces working files in the current directory with those of a revision, patch or change the "
    "command names (``hg update``, ``svn switch``, ``jj new``): a write there that rewrites the directory as a "
    "whole, so a recipe run after it in the same command is not the one FlyBot read (recipe-rewritten)",
    "pull": "fetches from another machine and replaces working files in the current directory with what it fetched "
    "(``svn update``, ``fossil update``: network, and a checkout there)",
    "install": "downloads and installs for the user (network, and a write under ~: system on the host)",
    "home": "changes the user's files under ~ (system on the host, workspace_write contained)",
    "profile": "edits the user's shell start-up files (~/.bashrc, ~/.profile, ~/.zshrc), which every later shell "
    "runs: destructive on the host (protected-path-write, as a write to ~/.bashrc); contained, a write under ~",
    "network": "talks to another machine (network)",
    "remote": "reads from a remote service (network, remote-control-plane)",
    "publish": "sends to a remote service, deleting nothing there (network, remote-control-plane)",
    "change": "changes state on a remote service (system, remote-control-plane, never downgraded)",
    "destroy": "deletes on a remote service (destructive, remote-control-plane)",
    "grant": "grants full control of a remote service (a root token, an owner role: destructive, privilege-grant)",
    "delete": "deletes local files (destructive)",
    "system": "changes the machine outside the workspace (system, not downgraded)",
    "critical": "an irreversible or security-critical change to the machine: it stops a service, takes the machine "
    "off the network or weakens its protection (destructive on the host; contained, system)",
    "persist": "makes code run at every boot or login (a unit enabled, a user's manager kept running): persistence "
    "the owner must see (destructive on the host; contained, as critical)",
    "plugin": "installs code into a tool that the tool loads on every later run (a plugin, an injected package, a "
    "replaced tool: destructive, tool-plugin: code that runs later)",
    "secret": "prints secrets (network, secret-read: the output goes to the model)",
    "source": "changes where every later install gets its packages (the user's registry, channel, mirror, proxy or "
    "TLS check: destructive on the host, package-source; contained, a write under ~)",
    "runs": "runs programs the classifier cannot see (destructive)",
    "chosen": "downloads and builds packages from a source the command names rather than the configured registry "
    "(an index, URL or repository): their build code runs here (destructive on the host, chosen-source; contained, "
    "network): an entry's ``urls`` grade for a fetch or install given a URL among its words",
    "wrap": "runs the command given as its operands, graded as that command (and at least build)",
    "python": "runs its operands as python(1) would (``coverage run script.py``: ``python script.py``; with the "
    "entry's ``-m``/``--module`` given: ``python -m MODULE``), graded as that command (and at least build)",
    "unknown": "its effect cannot be bounded from its words (unrecognised-use, destructive)",
    "out": "(options and operands) its value is a file or directory written",
    "emptied": "(options) its value is a directory the tool empties before it writes there (pytest --basetemp, "
    "mkdocs build --site-dir): a write, and a deletion (destructive) unless it lies inside the workspace below its "
    "root",
    "in": "(options) its value is a file read: nothing beyond the read",
    "mount": "(options and operands) its value (``SRC:DST``, ``source=SRC``) hands the host directory SRC to a VM, "
    "container or build: destructive (container-host-access) when SRC is /, a home, a system tree or the directory "
    "holding the workspace",
    "pairs": "(options) its value is KEY=VALUE pairs separated by commas or semicolons, and a VALUE may be a file "
    "written (mocha --reporter-option output=FILE, dotnet test --logger 'trx;LogFileName=FILE'): each VALUE is graded "
    "as a write",
    "project": "(options and operands) its value names the project, its directory or a configuration, plugin or "
    "file the tool runs or loads (--manifest-path, -p DIR, --config FILE): destructive unless in the workspace",
    "interpreter": "(options and operands) its value is the interpreter the tool runs (uv --python): a path (holding "
    "/, starting with ~) or a value only known when it runs is a program of the caller's choosing (runs-program, "
    "destructive); a version or name (3.12, cpython@3.12, pypy3) picks an installed or managed one: nothing more",
    "package": "(options and operands) its value is a package to install or build: a name or URL, or a local project "
    "directory or archive (a path, file:, file://, git+file://, NAME @ file://...): one outside the workspace, or a "
    "value only known when it runs, runs its build backend, setup.py or scripts (project-outside-workspace, "
    "destructive)",
    "interpreter-home": "(options and operands) as interpreter, and for a version the tool also makes a virtualenv "
    "for it under ~ (pipenv --python 3.12: a write under ~)",
}
#: The effects that only options and operands have, never an entry's grade.
_ROLE_EFFECTS = ("out", "emptied", "in", "pairs", "project", "package", "mount", "interpreter", "interpreter-home")
#: The grades ordered by how much they allow (an entry's ``when`` that lowers the grade is read more strictly).
_RANK = {
    "read": 0,
    "build": 1,
    "write": 1,
    "unpack": 1,
    "checkout": 1,
    "fetch": 2,
    "pull": 2,
    "network": 2,
    "remote": 2,
    "publish": 2,
    "secret": 2,
    "source": 4,
    "install": 3,
    "home": 3,
    "profile": 4,
    "system": 3,
    "change": 3,
    "critical": 4,
    "persist": 4,
    "plugin": 4,
    "delete": 4,
    "destroy": 4,
    "grant": 4,
    "runs": 4,
    "chosen": 4,
    "wrap": 4,
    "python": 4,
    "unknown": 4,
}
#: Operand roles: which operands are files or directories written ("out").
#: Operand roles: ``out`` every operand is written, ``first-out``/``last-out`` the first or last (of two or more),
#: ``replaced`` every operand is rewritten by a new file renamed over it (a symbolic link there is replaced, not
#: followed: a glob below the workspace stays there), ``project`` every operand is a project the tool runs or loads,
#: ``package`` every operand is a package spec (a local one outside the workspace is destructive).
ROLES = frozenset({
    "out", "first-out", "last-out", "replaced", "project", "package", "mount", "interpreter", "interpreter-home",
})  # fmt: skip
_ENTRY_KEYS = frozenset(
    {
        "source",
        "guard",
        "grade",
        "options",
        "open",
        "operands",
        "commands",
        "many",
        "clusters",
        "else",
        "abbrev",
        "verbs",
        "when",
        "unsafe",
        "words",
        "sources",
        "settings",
        "above",
        "assigns",
        "urls",
        "paths",
        "prefixed",
    }
)
#: An option word that sets a field of the files it is given (exiftool(1) "WRITING META INFORMATION":
#: ``-[GROUP:]TAG[+-^]=[VALUE]``, ``-TAG<SRCTAG``, ``-TAG<=DATFILE``; ``-all=`` deletes every tag): the field's name.
_ASSIGNMENT = Regex(r"^-([^=<]+?)[-+^]?[=<]")
#: An advanced-formatting expression (exiftool(1) "Advanced formatting feature": ``${TAG;EXPR}``): EXPR is Perl code.
_PERL_EXPRESSION = Regex(r"\$\{[^}]*;")


def _task(commands: Mapping[str, _Node], value: str, paths: bool) -> _Node | None:
    """The entry of the subcommand or task ``value``; with ``paths`` (an entry's ``paths``: Gradle's "Executing tasks
    in multi-project builds", ``gradle :app:test`` runs the task ``test`` of the project ``:app``, ``app:test`` too),
    a word holding ``:`` is looked up by the name after its last ``:``; ``:test`` is the root project's (an empty
    project name otherwise, ``::test``, ``app::test``, is refused)."""
    child = commands.get(value)
    if child is None and paths and ":" in value:
        project, _, task = value.rpartition(":")
        names = project[1:].split(":") if project.startswith(":") else project.split(":")
        if task and (project == "" or all(names)):
            child = commands.get(task)
    return child


class CatalogueError(ValueError):
    """A catalogue entry is malformed (raised when it is compiled, so the catalogue's tests find it)."""


class _Option:
    __slots__ = ("takes", "effect")

    def __init__(self, takes: bool, effect: str | None) -> None:
        self.takes = takes
        self.effect = effect


class _Node:
    """One compiled level of an entry: the program or a subcommand."""

    __slots__ = (
        "grade",
        "options",
        "prefixes",
        "open",
        "operands",
        "commands",
        "many",
        "clusters",
        "otherwise",
        "abbrev",
        "verbs",
        "when",
        "together",
        "unsafe",
        "words",
        "sources",
        "settings",
        "above",
        "assigns",
        "urls",
        "paths",
        "prefixed",
    )

    def __init__(self) -> None:
        self.urls: str | None = None
        #: A task word may be a task path (Gradle ``:app:test``, ``app:test``): looked up by its last name.
        self.paths = False
        #: A written file named ``PREFIX:PATH`` writes PATH (ImageMagick's explicit format, ffmpeg's ``file:``).
        self.prefixed = False
        self.above: tuple[str, ...] = ()
        self.assigns: tuple[str, frozenset[str]] | None = None
        self.words: dict[str, str] = {}
        self.sources: tuple[str, ...] = ()
        self.settings: str | None = None
        self.when: dict[str, tuple[str | None, str | None, frozenset[str]]] = {}
        #: ``when`` keys joining groups with `` + ``: the grade applies when one option of every group is given.
        self.together: list[tuple[tuple[frozenset[str], ...], str]] = []
        self.unsafe: tuple[str, ...] = ()
        self.abbrev = False
        self.verbs: dict[str, str] | None = None
        self.grade: str | None = None
        self.many = False
        self.clusters = True
        self.otherwise: str | None = None
        self.options: dict[str, _Option] = {}
        self.prefixes: list[tuple[str, _Option]] = []
        self.open = False
        self.operands: str | None = None
        self.commands: dict[str, _Node] | None = None


def _parse_options(text: str, where: str) -> tuple[dict[str, _Option], list[tuple[str, _Option]]]:
    """``"-c -o=out --force:delete -W* --pager=:runs"`` -> options and prefixes (``NAME[=][:EFFECT]``)."""
    options: dict[str, _Option] = {}
    prefixes: list[tuple[str, _Option]] = []
    for token in text.split():
        name, _, effect = token.rpartition(":")
        if effect not in EFFECTS:  # a colon inside the name (ffmpeg -c:v), no effect
            name, effect = token, ""
        takes = name.endswith("=")
        name = name.rstrip("=")
        if "=" in name and not takes and not name.endswith("*"):  # NAME=EFFECT: a value whose effect is EFFECT
            name, effect = name.split("=", 1)
            takes = True
        if name.endswith("=*"):  # a prefix ending in "=" takes its value attached (-std=*)
            takes = True
        if not (name.startswith(("-", "@", "+"))) or not name.strip("-*"):
            raise CatalogueError(f"{where}: {token!r} is not an option")
        suffix = name.rsplit(":", 1)[1] if ":" in name else ""
        if len(suffix) >= 4 and suffix.isalpha() and suffix.islower():  # a misspelt effect (--out:writes)
            raise CatalogueError(f"{where}: {token!r} names no known effect")
        option = _Option(takes, effect or None)
        if name.endswith("*"):
            prefixes.append((name[:-1], option))
        else:
            options[name] = option
    return options, prefixes


def _compile(spec: object, parent: _Node | None, where: str) -> _Node:
    if isinstance(spec, str):
        spec = {"grade": spec}
    if not isinstance(spec, Mapping):
        raise CatalogueError(f"{where}: an entry is a grade or a mapping")
    unknown = set(spec) - _ENTRY_KEYS - ({"guard"} if parent is not None else set())
    if unknown or (parent is not None and "guard" in spec):
        raise CatalogueError(f"{where}: unknown keys {sorted(unknown | (set(spec) & {'guard'}))}")
    node = _Node()
    if parent is not None:
        node.options = dict(parent.options)
        node.prefixes = list(parent.prefixes)
        node.open = parent.open
        node.clusters = parent.clusters
    if "clusters" in spec:
        node.clusters = bool(spec["clusters"])
    for key in ("grade", "else"):
        grade = spec.get(key)
        if grade is not None and (grade not in EFFECTS or grade in _ROLE_EFFECTS):
            raise CatalogueError(f"{where}: {key} {grade!r} is not one of the grades")
    options, prefixes = _parse_options(str(spec.get("options", "")), where)
    node.options.update(options)
    node.prefixes = sorted(node.prefixes + prefixes, key=lambda item: -len(item[0]))
    node.grade = spec.get("grade")
    node.otherwise = spec.get("else")
    node.many = bool(spec.get("many", False))
    node.paths = bool(spec.get("paths", False)) or (parent is not None and parent.paths)
    node.prefixed = bool(spec.get("prefixed", False)) or (parent is not None and parent.prefixed)
    node.abbrev = bool(spec.get("abbrev", False))
    when = spec.get("when", {})
    if not isinstance(when, Mapping):
        raise CatalogueError(f"{where}: when is a mapping of options to grades or entries")
    if parent is not None:
        node.when = dict(parent.when)
        node.together = list(parent.together)
        node.unsafe = parent.unsafe
        node.sources = parent.sources
        node.settings = parent.settings
        node.urls = parent.urls
        node.above = parent.above
    for names, then in when.items():
        then = {"grade": then} if isinstance(then, str) else then
        if not isinstance(then, Mapping) or set(then) - {"grade", "operands", "reads"}:
            raise CatalogueError(f"{where}: when {names}: a grade or a mapping of grade, operands and reads")
        grade_then, role_then = then.get("grade"), then.get("operands")
        reads_then = frozenset(str(then.get("reads", "")).split())
        for name in reads_then:
            if name not in node.options:
                raise CatalogueError(f"{where}: when {names}: reads {name}: the option is not listed")
        if grade_then is not None and (grade_then not in EFFECTS or grade_then in _ROLE_EFFECTS):
            raise CatalogueError(f"{where}: when {names}: {grade_then!r} is not one of the grades")
        if role_then is not None and role_then not in ROLES | {"none"}:
            raise CatalogueError(f"{where}: when {names}: operands {role_then!r} is not one of {sorted(ROLES)} or none")
        groups = tuple(frozenset(group.split()) for group in str(names).split(" + "))
        for name in (name for group in groups for name in group):
            base, eq, value = name.partition("=")
            if eq and not (value and base in node.options and node.options[base].takes):
                raise CatalogueError(f"{where}: when {name}: NAME=VALUE needs an option NAME that takes a value")
            if base not in node.options and not any(p.rstrip("=") == base for p, _ in node.prefixes):
                raise CatalogueError(f"{where}: when {name}: the option is not listed")
        if len(groups) > 1:  # options given together: a grade that may only raise the entry's
            if grade_then is None or role_then is not None or reads_then:
                raise CatalogueError(f"{where}: when {names}: options given together take a grade only")
            node.together.append((groups, grade_then))
            continue
        for name in groups[0]:
            node.when[name] = (grade_then, role_then, reads_then)
    if "unsafe" in spec:
        node.unsafe = tuple(str(spec["unsafe"]).split())
    if "urls" in spec:
        if spec["urls"] not in EFFECTS or spec["urls"] in _ROLE_EFFECTS:
            raise CatalogueError(f"{where}: urls {spec['urls']!r} is not one of the grades")
        node.urls = str(spec["urls"])
    if parent is not None:
        node.assigns = parent.assigns
    assigns = spec.get("assigns")
    if assigns is not None:
        if not isinstance(assigns, Mapping) or set(assigns) - {"operands", "refused"}:
            raise CatalogueError(f"{where}: assigns is a mapping of operands and refused")
        role = assigns.get("operands")
        if role not in ROLES:
            raise CatalogueError(f"{where}: assigns operands {role!r} is not one of {sorted(ROLES)}")
        node.assigns = (str(role), frozenset(str(assigns.get("refused", "")).lower().split()))
    words = spec.get("words", {})
    if not isinstance(words, Mapping):
        raise CatalogueError(f"{where}: words is a mapping of operand words to grades")
    for names, grade in words.items():
        if grade not in EFFECTS or grade in (*_ROLE_EFFECTS, "wrap", "python"):
            raise CatalogueError(f"{where}: words {names}: {grade!r} is not one of the grades")
        for name in str(names).split():
            node.words[name] = str(grade)
    node.sources = tuple(str(spec["sources"]).split()) if "sources" in spec else node.sources
    node.above = tuple(str(spec["above"]).split()) if "above" in spec else node.above
    if "settings" in spec:
        from bot.risk.settings import TOOLS

        if spec["settings"] not in TOOLS:
            raise CatalogueError(f"{where}: settings {spec['settings']!r} is not one of {', '.join(TOOLS)}")
        node.settings = str(spec["settings"])
    verbs = spec.get("verbs")
    if verbs is not None:
        if not isinstance(verbs, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in verbs.items()
        ):
            raise CatalogueError(f"{where}: verbs is a mapping of aliases to verbs (empty when there are none)")
        node.verbs = dict(verbs)
    if "open" in spec:
        node.open = bool(spec["open"])
    role = spec.get("operands")
    if role is not None and role not in ROLES:
        raise CatalogueError(f"{where}: operands {role!r} is not one of {sorted(ROLES)}")
    node.operands = role
    commands = spec.get("commands")
    if commands is not None:
        if not isinstance(commands, Mapping) or not commands:
            raise CatalogueError(f"{where}: commands is a non-empty mapping")
        node.commands = {}
        for names, sub in commands.items():
            child = _compile(sub, node, f"{where} {names}")
            for name in str(names).split():
                node.commands[name] = child
    if node.grade is None and node.commands is None and node.verbs is None:
        raise CatalogueError(f"{where}: an entry without commands or verbs needs a grade")
    if node.grade in ("wrap", "python") and node.open:
        raise CatalogueError(
            f"{where}: a wrap entry lists its options (an unknown one may take the command's first word)"
        )
    if node.many and node.commands is None:
        raise CatalogueError(f"{where}: many needs commands")
    return node


def _remote_package(value: str) -> bool:
    """True for a package spec naming where it is downloaded from: a URL (``https://…/x.whl``), a VCS link
    (``git+https://…``, ``git@host:…``) or ``NAME @ URL`` (PEP 508 direct reference)."""
    spec = value.strip()
    return "://" in spec or spec.startswith(("git+", "git@")) or re.search(r"\s@\s*\S", spec) is not None


def compile_entry(name: str, spec: Mapping[str, object]) -> Handler:
    """The handler grading ``name`` by its catalogue entry ``spec`` (raises :class:`CatalogueError`)."""
    root = _compile(spec, None, name)

    def handler(call: Call) -> None:
        _grade(call, root)

    handler.__name__ = "catalogue"
    guard = spec.get("guard")
    if guard is None:
        return handler
    if not isinstance(guard, str) or not guard.split() or any(g.count(":") != 1 for g in guard.split()):
        raise CatalogueError(f"{name}: guard is MODULE:FUNCTION of bot.risk.programs (several: space-separated)")
    import importlib

    graded: Handler = handler
    for each in guard.split():  # each wraps the ones before it: all run, in the order written
        module, _, function = each.partition(":")
        wrap: Callable[[Handler], Handler] = getattr(importlib.import_module(f"bot.risk.programs.{module}"), function)
        graded = wrap(graded)
    return graded


def _with(node: _Node, **changes: str | None) -> _Node:
    """A copy of ``node`` with ``grade`` or ``operands`` replaced (an entry's ``when``)."""
    copy = _Node()
    for slot in _Node.__slots__:
        setattr(copy, slot, getattr(node, slot))
    for key, value in changes.items():
        setattr(copy, key, value)
    return copy


def _lookup(node: _Node, name: str) -> _Option | None:
    option = node.options.get(name)
    if option is not None:
        return option
    for prefix, candidate in node.prefixes:
        if name.startswith(prefix):
            return candidate
    return None


def _abbreviation(commands: dict[str, _Node], value: str) -> _Node | None:
    """The subcommand ``value`` abbreviates, when it starts exactly one listed name. The names listed are a subset of
    the program's, so a prefix the program finds ambiguous is refused there (an error, no effect)."""
    found = {id(node): node for name, node in commands.items() if name.startswith(value)}
    return next(iter(found.values())) if len(found) == 1 else None


def _abbreviates(node: _Node, name: str) -> bool:
    """True when the long option ``name`` may abbreviate a listed one with an effect (getopt_long, argparse)."""
    return name.startswith("--") and any(
        known.startswith(name) and option.effect not in (None, "in") for known, option in node.options.items()
    )


def _grade(call: Call, root: _Node) -> None:
    words = call.args
    values = [w.value for w in words]
    if len(values) == 1 and values[0] in ("--help", "--version"):
        call.flag(R.READ_ONLY, "read-only", f"{call.name} {values[0]} only prints.")
        family = _JVM_STARTS.get(call.name)
        if family is not None:
            _jvm_start(call, family, f"{call.name} {values[0]}")
        if call.name in _RUBY_STARTS:
            _jvm_start(call, _RUBY_STARTS[call.name], f"{call.name} {values[0]}", tool="ruby")
        _toolchain_start(call, f"{call.name} {values[0]}")
        _outside_code(call, f"{call.name} {values[0]}")
        return
    node = root
    what = [call.name]
    effects: list[tuple[str, Word | None, str]] = []
    operands: list[Word] = []
    wrapped: list[Word] | None = None
    many: dict[str, _Node] | None = None
    tasks: list[tuple[str, _Node]] = []
    valued: list[tuple[str, Word | None]] = []  # the options of one word that take a value, with the value
    given: set[str] = set()  # option names given (short clusters letter by letter), for the entry's "when"
    leading: set[str] = set()  # those given before the first operand
    assigned = False  # an assignment word (the entry's "assigns") was given
    index = 0
    while index < len(words):
        word = words[index]
        value = word.value
        index += 1
        if value is None:
            if word.operand_only:
                operands.append(word)
                continue
            call.flag(
                R.DESTRUCTIVE,
                "dynamic-argument",
                f"{shorten(word.src, 60)} is only known when it runs: it may be an option or a command of {' '.join(what)}.",
            )
            return
        if value == "--":
            if node.grade in ("wrap", "python") and node.commands is None:
                wrapped = words[index:]
            else:
                operands.extend(words[index:])
            break
        if node.assigns is not None and value not in node.options:
            assignment = _ASSIGNMENT.match(value)
            if assignment is not None:  # exiftool -TAG=VALUE: the files given are written
                field = assignment.group(1).rsplit(":", 1)[-1].lower()
                if field in node.assigns[1]:
                    refuse(call, f"{' '.join(what)} {shorten(value, 40)} (it moves or links the files it is given)")
                    return
                assigned = True
                continue
        if len(value) > 1 and (value.startswith("-") or (value.startswith("@") and _lookup(node, "@") is not None)):
            names = {value.split("=", 1)[0]}
            if not value.startswith("--") and node.clusters:
                names.update("-" + letter for letter in value[1:])
            consumed = _option(call, node, what, value, words, index, effects, valued)
            if consumed is None:
                return
            for taker, taken in valued:  # NAME=VALUE, for an entry's "when" that names a value (ormolu -m inplace)
                if taken is not None and taken.value is None and any(key.startswith(taker + "=") for key in node.when):
                    call.flag(
                        R.DESTRUCTIVE,
                        "dynamic-argument",
                        f"{shorten(taken.src, 60)} is only known when it runs: it chooses what "
                        f"{' '.join(what)} {taker} does.",
                    )
                    return
                if taken is not None:
                    names.add(f"{taker}={taken.value}")
            valued.clear()
            given |= names
            if not operands:
                leading |= names
            index += consumed
            continue
        if many is not None:  # each operand is a further task of the same table (mvn clean install)
            child = _task(many, value, root.paths)
            if child is None:
                refuse(call, f"{call.name} {shorten(value, 40)} (a task FlyBot does not know)")
                return
            tasks.append((f"{call.name} {value}", child))
            node = child
            continue
        if node.commands is not None and not operands:
            child = _task(node.commands, value, node.paths and node.many)
            if child is None and node.abbrev:
                child = _abbreviation(node.commands, value)
            if child is None and node.otherwise is None and node.verbs is None:
                refuse(call, f"{' '.join(what)} {shorten(value, 40)} (a subcommand FlyBot does not know)")
                return
            if child is not None:
                if node.many:
                    many = node.commands
                    tasks.append((f"{call.name} {value}", child))
                node = child
                what.append(value)
                continue
        if node.grade in ("wrap", "python"):
            wrapped = words[index - 1 :]
            break
        operands.append(word)
    label = " ".join(what)
    if node.unsafe:
        for word in words:
            value = word.value or ""
            if value.startswith(node.unsafe) or any(f"{p}" in value for p in node.unsafe if p.endswith(":")):
                refuse(
                    call, f"{label} {shorten(value, 40)} (a word it may read as a command, a script or a local path)"
                )
                return
    if node.assigns is not None:
        expression = next((w.value for w in words if w.value and _PERL_EXPRESSION.search(w.value)), None)
        if expression is not None:
            refuse(call, f"{label} {shorten(expression, 40)} (an expression it runs as Perl code)")
            return
        if assigned:
            node = _with(node, operands=node.assigns[0])
    chosen = node
    reads: frozenset[str] = frozenset()
    if node.when:
        # An option that lowers the grade counts only before the first operand (``java -jar app.jar -version`` passes
        # -version to the program); one that raises it counts anywhere (``clang-format x.c -i``).
        base = _RANK.get(node.grade or "", 0)
        for option, (grade_then, role_then, reads_then) in node.when.items():
            lowers = grade_then is not None and _RANK[grade_then] < base
            if option in (leading if lowers or reads_then else given):
                reads |= reads_then
                if grade_then is not None:  # the grade with operands (else) too: jar -c -f x.jar DIR
                    node = _with(node, grade=grade_then, otherwise=grade_then if node.otherwise is not None else None)
                if role_then is not None:
                    node = _with(node, operands=None if role_then == "none" else role_then)
    for groups, grade_then in node.together:
        if all(group & given for group in groups) and _RANK[grade_then] > _RANK.get(node.grade or "", 0):
            node = _with(node, grade=grade_then)
    if node.sources and (node.otherwise if operands and node.otherwise is not None else node.grade) != "read":
        for place, word in enumerate(words):
            key, eq, _ = (word.value or "").partition("=")
            key = key.lower()
            setting = bool(eq) or place + 1 < len(words)  # KEY=VALUE or KEY VALUE: set, not read
            if setting and any(key == name or key.startswith(name + ".") for name in node.sources):
                _effect(call, "source", f"{label} {shorten(key, 40)}", None)
                break
    url = next((w.value for w in words if w.value is not None and "://" in w.value), None)
    if url is not None and (node is chosen or node.grade == chosen.grade):
        # a URL among its words: it fetches from or sends to another machine (unless an option made it read only)
        call.flag(R.NETWORK, "network-egress", f"{label} names {shorten(url, 60)}: it talks to another machine.")
        if node.urls and (node.otherwise if operands and node.otherwise is not None else node.grade) in (
            "fetch",
            "install",
        ):
            _effect(call, node.urls, f"{label} {shorten(url, 60)}", None)  # a package from where the URL says
    if tasks:
        for task, child in tasks:
            if child.grade is None:
                refuse(call, f"{task} without a subcommand")
                return
            _effect(call, child.grade, task, None)
    elif node.many and not operands and node.grade is None and any(effect == "read" for effect, _, _ in effects):
        _effect(call, "read", label, None)  # an option that only prints and exits (gradle -v, mvn -v)
    elif node.verbs is not None and operands:
        from .cloud import _by_verb

        _by_verb(
            call,
            [literal_word(node.verbs[w.value]) if w.value in node.verbs else w for w in operands],
            first_is_group=True,
            lead=" ".join(what[1:]),
        )
    else:
        grade = node.otherwise if operands and node.otherwise is not None else node.grade
        if grade is None and not operands and any(effect == "read" for effect, _, _ in effects):
            grade = "read"  # an option that only prints and exits (gradle -v, mvn -v)
        if grade is None:
            refuse(call, f"{label} without a subcommand")
            return
        if grade == "python":
            if not wrapped:
                refuse(call, f"{label} without a program")
                return
            build_or_test(call, label)
            module = [literal_word("-m")] if given & {"-m", "--module"} else []
            call.run([literal_word("python"), *module, *wrapped], label)
        elif grade == "wrap":
            if not wrapped:
                refuse(call, f"{label} without a command")
                return
            build_or_test(call, label)
            call.script(argv_text(wrapped).lstrip(), label)
            call.rec.emit = True
        elif grade == "unpack":
            outs = [target for effect, target, option in effects if effect == "out" and option not in reads]
            last = operands[-1] if node.operands == "last-out" and len(operands) > 1 else None
            _effect(call, grade, label, outs[-1] if outs else last)
        else:
            _effect(call, grade, label, None)
    for effect, target, option in effects:
        if effect == "out" and option in reads:
            continue  # the entry's "when" made this option's file an input (ssh-keygen -l -f KEY)
        _effect(call, effect, label, target)
        if effect == "out" and node.prefixed:
            _prefixed_write(call, target, label)
    for target in operands:
        word_effect = node.words.get(target.value or "")
        if (
            word_effect == "delete"
        ):  # an operand word that loses what the program holds (VBoxManage controlvm VM poweroff)
            call.flag(R.DESTRUCTIVE, "deletion", f"{label} {target.value} loses state or data it cannot get back.")
        elif word_effect is not None:
            _effect(call, word_effect, f"{label} {target.value}", None)
    role = node.operands
    if role in ("project", "package", "interpreter", "interpreter-home"):
        for target in operands:
            _effect(call, role, label, target)
    elif role == "mount":
        for target in operands:
            if _mounts_host(call, label, target):
                break
    elif role is not None and operands:
        if role in ("out", "replaced") or (role == "first-out" and node.open):
            targets = operands
        elif role == "first-out":
            targets = operands[:1]
        else:
            targets = operands[-1:] if len(operands) > 1 else []
        for target in targets:
            call.write(target, f"{label} writes", follows_links=role != "replaced")
            if node.prefixed:
                _prefixed_write(call, target, label)
    if node.settings and (node.otherwise if operands and node.otherwise is not None else node.grade) != "read":
        from .projects import workspace_settings  # after the grade: the reason takes the command's level

        workspace_settings(call, node.settings, label=label)
    if node.above and not any(effect == "project" for effect, _, _ in effects):
        from .projects import found_above

        found_above(call, node.above, label)
    if tuple(what) in _CONFIGURED_OUTPUT and not any(effect == "emptied" for effect, _, _ in effects):
        _configured_output(call, label, effects)
    if tuple(what[:2]) in _COVERAGE_SECTIONS and not any(effect == "out" for effect, _, _ in effects):
        _coverage_outputs(call, label, _COVERAGE_SECTIONS[(what[0], what[1])], effects)
    family = _JVM_STARTS.get(call.name)
    if family is not None and call.rec.level == R.READ_ONLY:
        _jvm_start(call, family, label)
    if call.name in _RUBY_STARTS and call.rec.level == R.READ_ONLY:
        _jvm_start(call, _RUBY_STARTS[call.name], label, tool="ruby")
    _toolchain_start(call, label)
    if call.name in _CODE_MANIFESTS and node.grade in ("fetch", "install"):
        _manifest_code(call, label)
    _outside_code(call, label)
    _included_secret(call, label)
    if call.name == "composer" and len(what) > 1 and "--no-scripts" not in given:
        _composer_scripts(call, what[1], label, operands)


def _composer_scripts(call: Call, command: str, label: str, operands: list[Word]) -> None:
    """The scripts of composer.json that ``composer COMMAND`` fires (recipes.py ``COMPOSER_EVENTS``), or the one
    ``composer run-script NAME`` runs, read by the recipe book where Composer runs (``-d``/``--working-dir`` moves
    it) and graded line by line as a project recipe is (projects.py ``run_recipe``); ``--no-scripts`` runs none."""
    from bot.risk.recipes import COMPOSER_EVENTS, LIFECYCLE

    from .projects import run_recipe

    if command in ("run-script", "run") and operands:
        name = operands[0].value
        if name is None or name.startswith("<"):
            refuse(call, f"composer {command} {shorten(operands[0].src, 40)} (a script only known when it runs)")
            return
        target = name
    elif command in COMPOSER_EVENTS:
        target = LIFECYCLE + command
    else:
        return
    directory: Word | None = None
    words = call.args
    for index, word in enumerate(words):
        name, eq, value = (word.value or "").partition("=")
        if name in ("-d", "--working-dir"):
            directory = literal_word(value) if eq else words[index + 1] if index + 1 < len(words) else None
    # composer run-script NAME ARGS: the arguments are added to the script's command (getcomposer.org "Scripts",
    # "Running scripts manually")
    extra = [w for w in operands[1:] if w.value != "--"] if not target.startswith(LIFECYCLE) else None
    run_recipe(call, "composer", target, directory=directory, extra=extra, label=label)


#: Programs whose settings in the workspace may make them load code from outside it (settings.py ``OUTSIDE``:
#: ``.mvn/jvm.config``, ``.mvn/maven.config``, ``gradle.properties``, Mocha's configuration, ``bunfig.toml``,
#: ``global.json``'s ``sdk.paths``, pubspec path dependencies), with
#: the settings tool and program they are read for. Maven reads its ``.mvn`` files at every start, ``mvn -v`` too.
_OUTSIDE_CODE = {
    "mvn": ("jvm", "mvn"),
    "mvnw": ("jvm", "mvn"),
    "gradle": ("jvm", "gradle"),
    "gradlew": ("jvm", "gradle"),
    "sbt": ("jvm", "sbt"),
    "bazel": ("jvm", "bazel"),
    "bazelisk": ("jvm", "bazel"),
    "mocha": ("npm", "mocha"),
    "bun": ("npm", "bun"),
    "uv": ("python", "uv"),
    "pdm": ("python", "pdm"),
    "bundle": ("ruby", "bundle"),
    "bundler": ("ruby", "bundle"),
    "composer": ("composer", "composer"),
    # cmake-presets(7): a preset's toolchain file, cache variables and environment (read only with --preset or
    # --workflow)
    "cmake": ("cc", "cmake"),
    "ctest": ("cc", "cmake"),
    "rspec": ("ruby", "rspec"),
    # .NET "global.json overview": sdk.paths chooses where the host looks for the SDK it runs (every SDK command)
    "dotnet": ("dotnet", "dotnet"),
    # pub "Package dependencies": path and local git dependencies, compiled into what dart and flutter build and run
    "dart": ("dart", "dart"),
    "flutter": ("dart", "flutter"),
}
#: The uses of a program of :data:`_OUTSIDE_CODE` that read those settings, when not every use does: uv's, pdm's,
#: bundle's and composer's commands that lock, sync, build, install or run the project (uv "Projects": ``uv run`` syncs first; ``uv pip install``
#: and ``uv pip sync`` of the project; pdm CLI reference).
_OUTSIDE_USES = {
    # the commands that resolve the package's dependencies (pub get runs before test, run, compile and build when
    # the lock file is missing or stale: dart.dev "dart run", "dart test") and compile or analyse their code
    "dart": frozenset({"pub", "run", "test", "compile", "analyze", "doc", "fix"}),
    "flutter": frozenset({"pub", "run", "test", "build", "analyze", "assemble", "install", "gen-l10n"}),
    "uv": frozenset({"sync", "run", "build", "lock", "add", "remove", "export", "tree", "pip"}),
    "pdm": frozenset({"install", "sync", "lock", "add", "remove", "update", "build", "export"}),
    # bundle(1): the commands that load the Gemfile and the gems' gemspecs (Ruby), and exec, which runs their code
    "bundle": frozenset(
        {
            "install",
            "update",
            "add",
            "remove",
            "exec",
            "check",
            "list",
            "show",
            "info",
            "lock",
            "cache",
            "package",
            "outdated",
            "binstubs",
            "clean",
            "pristine",
            "console",
            "open",
            "platform",
            "licenses",
            "doctor",
        }
    ),  # fmt: skip
    # Composer CLI: the commands that install or update packages from the repositories
    "composer": frozenset(
        {
            "install",
            "i",
            "update",
            "u",
            "upgrade",
            "require",
            "r",
            "remove",
            "rm",
            "reinstall",
        }
    ),  # fmt: skip
}
_OUTSIDE_USES["bundler"] = _OUTSIDE_USES["bundle"]


#: Tools whose fetch or install reads a manifest that is code, from the directory they run in (CocoaPods "The
#: Podfile": "The Podfile is a specification that describes the dependencies of the targets of one or more Xcode
#: projects", written in Ruby and evaluated by ``pod install``/``pod update``, its ``pre_install``/``post_install``
#: hooks among it; gemfile(5): "A Gemfile is evaluated as Ruby code", which ``bundle install``/``update``/``lock``
#: evaluate, found from the current directory up).
_CODE_MANIFESTS: dict[str, str] = {"pod": "Podfile", "bundle": "Gemfile", "bundler": "Gemfile"}


def _manifest_code(call: Call, label: str) -> None:
    """A fetch by a tool of :data:`_CODE_MANIFESTS` run from a directory outside the workspace, or one only known
    when it runs (``cd /tmp/x && pod install``): it evaluates that directory's manifest, code FlyBot does not read,
    as a build there does (kit.py ``build_or_test``: destructive, ``project-outside-workspace``)."""
    state = call.g.state
    if state.remote:
        return
    inside = state.root.rstrip("/") + "/"
    outside = sorted(cwd for cwd in state.cwds if cwd != state.root and not cwd.startswith(inside))
    if state.cwds and not outside:
        return
    where = (
        f"in {shorten(outside[0], 60)}, outside the workspace" if outside else "in a directory only known when it runs"
    )
    call.flag(
        R.DESTRUCTIVE,
        "project-outside-workspace",
        f"{label} runs {where}: it evaluates the {_CODE_MANIFESTS[call.name]} there, code FlyBot does not read.",
    )


def _cmake_preset(call: Call) -> str | None:
    """The preset ``cmake``/``ctest`` is given (``--preset NAME``, ``--preset=NAME``, ``--workflow --preset NAME``,
    cmake(1), ctest(1)): ``""`` when none is (presets are then not read), None when one is only known when it runs or
    a word that may be the option is (every preset is looked at)."""
    words = call.args
    for index, word in enumerate(words):
        value = word.value
        if value is None:
            return None
        name, eq, rest = value.partition("=")
        if name == "--preset":
            chosen = rest if eq else words[index + 1].value if index + 1 < len(words) else None
            return chosen if chosen and " " not in chosen and len(chosen) <= 80 else None
    return ""


def _outside_code(call: Call, label: str) -> None:
    """Code from outside the workspace that a program of :data:`_OUTSIDE_CODE` loads: named by its settings
    (projects.py ``outside_settings``), or for Maven and Gradle by a JVM option or property on the command line
    (``mvn -Dmaven.ext.class.path=/tmp/x.jar``, ``gradle -Dorg.gradle.jvmargs=-javaagent:/tmp/a.jar``: settings.py
    ``jvm_code_options``): destructive (``runs-program``)."""
    entry = _OUTSIDE_CODE.get(call.name)
    if entry is None:
        return
    uses = _OUTSIDE_USES.get(call.name)
    words = label.split()
    if uses is not None and (
        len(words) < 2 or words[1] not in uses or (words[1] == "pip" and words[2:3] not in (["install"], ["sync"]))
    ):
        return
    family = entry[1]
    if family == "cmake":
        chosen = _cmake_preset(call)
        if chosen == "":
            return
        source = next(
            (w for w, v in zip(call.args, call.args[1:], strict=False) if w.value == "-S" and v.value != "."), None
        )
        glued = next((w for w in call.args if (w.value or "").startswith("-S") and w.value not in ("-S", "-S.")), None)
        if source is not None or glued is not None:
            call.flag(
                R.DESTRUCTIVE,
                "runs-program",
                f"{label} --preset with -S: the presets of a source directory other than where it runs, which FlyBot "
                "does not read (cmake-presets(7): a preset may name a toolchain file, compilers and environment).",
            )
            return
        family = "cmake" if chosen is None else f"cmake {chosen}"
    from bot.risk.settings import OUTSIDE, jvm_code_options

    from .projects import outside_settings

    outside_settings(call, entry[0], label, f"{OUTSIDE} {family}")
    if entry[1] not in ("mvn", "gradle"):
        return
    values = [w.value for w in call.args if w.value is not None]
    for option, path in jvm_code_options(values, maven=entry[1] == "mvn"):
        if path is None or call.where(Word(path, path)) is not Where.WORKSPACE:
            shown = option if path is None else f"{option} {shorten(path, 80)}"
            call.flag(
                R.DESTRUCTIVE,
                "runs-program",
                f"{label} {shown} loads code from outside the workspace (or runs a command): code FlyBot does not "
                "read.",
            )
            return


#: The C preprocessors and compilers whose ``-include``/``-imacros`` files are looked up along the include path.
_C_PREPROCESSORS = frozenset(
    "cpp gcc g++ cc c++ clang clang++ c99 c89 gcc-12 gcc-13 gcc-14 g++-12 g++-13 g++-14 clang-17 clang-18 clang-19".split()
)
_INCLUDE_DIRECTORIES = ("-I", "-iquote", "-isystem", "-idirafter")
_INCLUDED_FILES = ("-include", "-imacros")


def _included_secret(call: Call, label: str) -> None:
    """A file ``-include NAME``/``-imacros NAME`` names that is a credential file in an include directory
    (``gcc -E -I/etc -include shadow x.c``): at least ``network`` (secret-read), as when the path is written whole
    (``-E`` prints it, a compile error quotes its lines). gcc(1), "Options Controlling the Preprocessor": ``-include
    file`` is searched first in the preprocessor's working directory, then along the ``#include "..."`` chain;
    "Options for Directory Search": ``-I``, ``-iquote``, ``-isystem``, ``-idirafter`` add to it (their value
    attached or the next word)."""
    if call.name not in _C_PREPROCESSORS:
        return
    state = call.g.state
    directories: list[str] = []
    names: list[str] = []
    words = call.args
    for index, word in enumerate(words):
        value = word.value or ""
        for option, into in [(o, directories) for o in _INCLUDE_DIRECTORIES] + [(o, names) for o in _INCLUDED_FILES]:
            if value == option and index + 1 < len(words) and words[index + 1].value:
                into.append(str(words[index + 1].value))
            elif value.startswith(option) and len(value) > len(option) and not value[len(option) :].isalpha():
                into.append(value[len(option) :].removeprefix("="))
    places = [
        posixpath.normpath(posixpath.join(cwd, directory)) if not directory.startswith(("/", "~")) else directory
        for directory in directories
        for cwd in (sorted(state.cwds) if not state.remote and state.cwds else [""])
    ]
    for name in names:
        if name.startswith(("/", "~")):
            continue  # judged whole, as every word naming a credential file is
        for place in places:
            what = credential_path(posixpath.join(place, name))
            if what is not None:
                call.flag(
                    R.NETWORK,
                    "secret-read",
                    f"{label}: {shorten(name, 60)} from the include directory {shorten(place, 60)} holds {what}: "
                    "the command's output goes to the model.",
                )
                return


#: Uses whose configuration file names a directory they empty before writing there, when no option names it
#: (MkDocs 1.6: ``site_dir`` in mkdocs.yml, which ``--clean``, the default, empties; settings.py ``_mkdocs_site_dir``).
_CONFIGURED_OUTPUT = frozenset({("mkdocs", "build"), ("mkdocs", "gh-deploy")})


def _configured_output(call: Call, label: str, effects: list[tuple[str, Word | None, str]]) -> None:
    """The directory the configuration names (the file a ``project`` option names, else the one the tool finds
    where it runs), as the recipe book answers it (the adapter reads it and sends it, so the server grades the
    same), graded as the option naming it would be (:func:`~.kit.emptied`); one that cannot be read is destructive
    (``recipe-unreadable``: :func:`~.projects.configured_options`)."""
    from .projects import configured_options

    named = next((target for effect, target, _ in effects if effect == "project"), None)
    if named is not None and named.value is None:
        return  # a configuration only known when it runs is graded by the project option already
    question = f"file {named.value}" if named is not None else ""
    places = configured_options(call, call.name, label, question)
    for place in places or []:
        emptied(call, Word(place, place), f"{label} (its configuration's site_dir)")


#: coverage.py commands that write where their configuration's section says when no option names the place
#: (coverage.py "Configuration reference": ``[run] data_file`` for run and combine, ``[html] directory``, ``[xml]
#: output``, ``[json] output``, ``[lcov] output``; settings.py ``_coverage_outputs``).
_COVERAGE_SECTIONS = {
    ("coverage", "run"): "run",
    ("coverage", "combine"): "run",
    ("coverage", "html"): "html",
    ("coverage", "xml"): "xml",
    ("coverage", "json"): "json",
    ("coverage", "lcov"): "lcov",
}


def _coverage_outputs(call: Call, label: str, section: str, effects: list[tuple[str, Word | None, str]]) -> None:
    """The files the coverage.py configuration names for ``section`` (the file ``--rcfile`` names, else those
    coverage.py reads where it runs), as the recipe book answers them, each graded as a write there; one that cannot
    be read is destructive (``recipe-unreadable``: :func:`~.projects.configured_options`)."""
    from bot.risk.settings import COVERAGE

    from .projects import configured_options

    named = next((target for effect, target, _ in effects if effect == "project"), None)
    if named is not None and named.value is None:
        return  # a configuration only known when it runs is graded by the project option already
    question = f"{COVERAGE}{section}" + (f" {named.value}" if named is not None else "")
    for place in configured_options(call, "python", label, question) or []:
        call.write(Word(place, place), f"{label} (its configuration's [{section}] output) writes")


#: Programs whose every start reads workspace files that choose the JVM, its options or a launcher to run
#: (settings.py, settings tool ``jvm``): Maven's ``.mvn/jvm.config`` (maven.apache.org "Configuring Maven": JVM
#: options such as ``-javaagent``), ``.mvn/maven.config`` and ``.mvn/extensions.xml`` (core extensions); Bazel's
#: ``.bazelrc`` ``startup`` options (``--server_javabase``, ``--host_jvm_args``; bazel.build "Write bazelrc
#: configuration files"), and bazelisk's ``tools/bazel`` wrapper, ``.bazeliskrc`` and a fork in ``.bazelversion``
#: (bazelisk README); sbt's ``.jvmopts`` and ``.sbtopts`` (sbt "Command line reference": the launcher reads them).
_JVM_STARTS = {"mvn": "mvn", "bazel": "bazel", "bazelisk": "bazel", "sbt": "sbt"}
#: Programs whose every start may run a workspace script instead (settings.py, settings tool ``ruby``): the rails
#: gem's launcher looks for ``bin/rails`` (or ``script/rails``) in the directory it runs in and each one above, and
#: execs it with Ruby (railties ``Rails::AppLoader.exec_app``, before any option is read: ``rails --version`` too).
_RUBY_STARTS = {"rails": "rails"}


#: rustup's proxies the catalogue grades (rustup "Concepts: Proxies"): each execs the binary of the toolchain chosen
#: where it runs, a toolchain file's local ``path`` one too (``rustc --version`` runs ``PATH/bin/rustc``).
_TOOLCHAIN_PROXIES = frozenset({"rustc"})


def _toolchain_start(call: Call, label: str) -> None:
    """A rustup proxy (:data:`_TOOLCHAIN_PROXIES`) where a toolchain file names a local ``path`` toolchain runs that
    workspace-chosen binary: graded as a build, listed in ``chosen_by`` (projects.py ``settings_start``)."""
    if call.name not in _TOOLCHAIN_PROXIES:
        return
    from bot.risk.settings import CARGO_TOOLCHAIN

    from .projects import settings_start

    settings_start(call, "cargo", label, CARGO_TOOLCHAIN)


def _jvm_start(call: Call, family: str, label: str, tool: str = "jvm") -> None:
    """A use graded read-only of a program of :data:`_JVM_STARTS` (``mvn -v``, ``bazel version``) or, ``tool``
    ``ruby``, of :data:`_RUBY_STARTS` (``rails --version``): where the workspace holds files that choose what its
    JVM or launcher runs, the use runs the project's choice as a build does (build-or-test); a place that could not
    be read is destructive (:func:`configured_options`)."""
    from .projects import configured_options

    found = configured_options(call, tool, label, family)
    if found:
        build_or_test(call, label)
        call.flag(
            R.WORKSPACE_WRITE,
            "workspace-settings",
            f"{label} starts with the workspace's {shorten(', '.join(found), 120)}, which choose the program it runs.",
        )


def _option(
    call: Call,
    node: _Node,
    what: list[str],
    value: str,
    words: list[Word],
    index: int,
    effects: list[tuple[str, Word | None, str]],
    valued: list[tuple[str, Word | None]],
) -> int | None:
    """Scan one option word; returns how many following words it took, or None when the command was refused.
    Each option taking a value is added to ``valued`` with its value (None when no word is left)."""
    name, eq, attached = value.partition("=")
    used = 0
    taken: Word | None = None
    key = value
    option = node.options.get(value)
    if option is not None:  # the whole word: -o FILE, --force, -shared
        if option.takes:
            taken = words[index] if index < len(words) else None
            used = 1
    elif eq and name in node.options:  # --name=VALUE, -std=VALUE
        key, option = name, node.options[name]
        taken = literal_word(attached) if option.takes else None
    else:
        prefix = next(((p, o) for p, o in node.prefixes if value.startswith(p)), None)
        if prefix is not None:  # -Wall, -I/usr/include, -Wl,-rpath
            key, option = prefix[0].rstrip("="), prefix[1]
            if option.takes:
                rest = value[len(prefix[0]) :].removeprefix("=")
                taken = literal_word(rest) if rest else (words[index] if index < len(words) else None)
                used = 0 if rest else 1
    if option is not None:
        if option.takes:
            valued.append((key, taken))
        if option.effect is not None and option.effect != "in":
            effects.append((option.effect, taken if option.effect != "unknown" else literal_word(name), name))
        return used
    if node.clusters and not value.startswith("--") and len(value) > 2 and value[0] == "-":
        return _cluster(call, node, what, value, words, index, effects, valued)
    if node.open and not _abbreviates(node, name):
        named = _configuration_named(name, eq, attached, words, index)
        if named is not None:
            effects.append(("project", named, name))
        return 0
    refuse(call, f"{' '.join(what)} {shorten(name, 40)} (an option FlyBot does not know, spelled in full)")
    return None


#: Option names that name a configuration, settings, rc, init or plugin file (``--config``, ``--config-file``,
#: ``--global-config``, ``--rcfile``, ``--settings``, ``--plugin-dir``, ``-config``): tools read their configuration
#: there, and many run what it names (plugins, hooks, commands, code in a JavaScript or Python configuration).
_CONFIGURATION_OPTION = Regex(
    r"--?(?!(?:no|print|dump|show|list|generate|skip|ignore|disable|validate|check)-)(?:[a-z0-9]+-)*"
    r"(?:config|configs|conf|cfg|configuration|configfile|rcfile|rc|settings|ini|init-file|initfile|plugins?"
    r"|plugin-dir|plugin-path|rulesdir)(?:-(?:file|files|path|dir|directory|folder))?"
)
#: A value read as the name of a file: a path (``/``, ``~``, ``.``) or a name with a configuration file's suffix.
_CONFIGURATION_FILE = Regex(
    r"(?s).*/.*|~.*|\..*|.*\.(?:cfg|conf|ini|toml|ya?ml|json|jsonc|json5|js|cjs|mjs|ts|cts|mts|py|rb|lua|rc|xml"
    r"|hcl|properties|config)"
)


def _configuration_named(name: str, eq: str, attached: str, words: list[Word], index: int) -> Word | None:
    """The file an option of an ``open`` entry that the entry does not list names when its name is a configuration
    option's (:data:`_CONFIGURATION_OPTION`; not a short one: ``-c`` is ``--check`` or ``--compile`` as often):
    its value (``--config=FILE``; the next word when that reads as
    a file, :data:`_CONFIGURATION_FILE`, or is only known when it runs). The entry's manual lists no option that runs
    programs, but a configuration file names plugins, hooks and commands for many tools, and the manual is the
    tool's, not its plugins': graded as a ``project`` effect (destructive unless in the workspace), fail closed.
    None for any other option, and for a next word that is not a file (the option may be a flag)."""
    if not _CONFIGURATION_OPTION.fullmatch(name.lower()):
        return None
    if eq:
        return literal_word(attached)
    following = words[index] if index < len(words) else None
    if following is None:
        return None
    if following.value is None:
        return following
    if following.value.startswith("-") or not _CONFIGURATION_FILE.fullmatch(following.value):
        return None
    return following


def _cluster(
    call: Call,
    node: _Node,
    what: list[str],
    value: str,
    words: list[Word],
    index: int,
    effects: list[tuple[str, Word | None, str]],
    valued: list[tuple[str, Word | None]],
) -> int | None:
    """Short options clustered in one word (``-xvf FILE``)."""
    for position, letter in enumerate(value[1:], start=1):
        option = node.options.get("-" + letter)
        if option is None:
            if node.open:  # taken as a flag, so a listed letter after it still counts (-xo FILE)
                continue
            refuse(call, f"{' '.join(what)} {shorten(value, 40)} (an option FlyBot does not know)")
            return None
        if option.takes:
            rest = value[position + 1 :]
            taken = literal_word(rest) if rest else (words[index] if index < len(words) else None)
            valued.append(("-" + letter, taken))
            if option.effect is not None and option.effect != "in":
                effects.append(
                    (option.effect, taken if option.effect != "unknown" else literal_word("-" + letter), "-" + letter)
                )
            return 0 if rest else 1
        if option.effect is not None and option.effect != "in":
            effects.append(
                (option.effect, None if option.effect != "unknown" else literal_word("-" + letter), "-" + letter)
            )
    return 0


def _mounts_host(call: Call, what: str, word: Word) -> bool:
    """An operand of a use that hands a host directory to a VM, cluster or container (``minikube mount SRC:DST``,
    ``multipass mount SRC VM:DST``, ``lxc config device add C NAME disk source=SRC``): its source (before ``:``, or
    the value of ``source=``/``src=``; other ``KEY=VALUE`` words are settings) that is ``/``, a home, a system tree or
    the directory holding the workspace gives it the host's files: destructive, and True."""
    from bot.risk.sensitive import protected_path

    from .control import holds_host

    text = word.value
    if text is None:
        call.flag(
            R.DESTRUCTIVE,
            "container-host-access",
            f"{what} {shorten(word.src, 60)} is only known when it runs: it may hand over the host's root or a home.",
        )
        return True
    key, eq, value = text.partition("=")
    if eq and "/" not in key:
        if key not in ("source", "src"):
            return False
        source = value
    else:
        source = text.split(":", 1)[0]
    if not source.startswith(("/", "~", ".")):
        return False
    why: str | None = None
    if source.startswith("~"):
        why = "a home directory, with its keys and start-up files" if protected_path(source) is not None else None
    else:
        found = call.g.state.targets(source)
        if found is None:
            why = "it is only known when it runs"
        for path in sorted(found or ()):
            path = posixpath.normpath(path)
            why = why or ("it is the host's root" if path == "/" else holds_host(call, path))
    if why is None:
        return False
    call.flag(
        R.DESTRUCTIVE,
        "container-host-access",
        f"{what} hands {shorten(source, 60)} to the machine it manages: {why}.",
    )
    return True


def _in_cwd(call: Call, what: str) -> None:
    """A write into the directory the command runs in, when that is not the workspace itself."""
    if call.where(_DOT) is not Where.WORKSPACE:
        call.write(_DOT, f"{what} writes in")


#: ``PREFIX:PATH``: a format or protocol name of two or more characters, then a path (not ``//``: a URL).
_PREFIXED = Regex(r"^[A-Za-z][A-Za-z0-9_+-]+:(?!//)(.+)$")


def _prefixed_write(call: Call, target: Word | None, what: str) -> None:
    """An entry's ``prefixed``: a file named ``PREFIX:PATH`` is written at PATH (ImageMagick "Command-line Processing",
    "Filename References": ``magick rose.jpg png:rose`` chooses the format by the prefix; ffmpeg-protocols(1)
    "file": ``ffmpeg -i in file:out``)."""
    if target is None or target.value is None:
        return
    match = _PREFIXED.match(target.value)
    if match is not None:
        call.write(literal_word(match.group(1)), f"{what} writes")


def _effect(call: Call, effect: str, what: str, target: Word | None) -> None:
    if effect == "read":
        call.flag(R.READ_ONLY, "read-only", f"{what} only reads.")
    elif effect == "build":
        build_or_test(call, what)
        _in_cwd(call, what)
    elif effect == "write":
        call.flag(R.WORKSPACE_WRITE, "write-in-workspace", f"{what} writes files where it runs.")
        _in_cwd(call, what)
    elif effect == "unpack":
        call.flag(R.WORKSPACE_WRITE, "write-in-workspace", f"{what} writes files where it runs.")
        unpacks(call, target if target is not None else _DOT, f"{what} extracts into")
    elif effect == "fetch":
        call.flag(R.NETWORK, "package-install", f"{what} downloads packages from a registry.")
        _in_cwd(call, what)
    elif effect in ("checkout", "pull"):
        if effect == "pull":
            call.flag(R.NETWORK, "network-egress", f"{what} talks to another machine.")
        # a write to "." itself: the directory is recorded as rewritten (bot/risk/programs/projects.py _rewritten)
        call.write(_DOT, f"{what} replaces the working files in")
    elif effect == "install":
        call.flag(R.NETWORK, "package-install", f"{what} downloads packages from a registry.")
        call.write(_HOME, f"{what} installs for the user under")
    elif effect == "home":
        call.write(_HOME, f"{what} changes the user's files under")
    elif effect == "profile":
        call.flag(
            R.DESTRUCTIVE,
            "protected-path-write",
            f"{what} edits the shell start-up files under ~ (~/.bashrc, ~/.profile, ~/.zshrc): every later shell "
            "runs what it adds.",
            downgradable=True,
        )
        call.write(_HOME, f"{what} changes the user's files under")
    elif effect == "network":
        call.flag(R.NETWORK, "network-egress", f"{what} talks to another machine.")
    elif effect == "remote":
        call.flag(R.NETWORK, "remote-control-plane", f"{what} reads from a remote service.")
    elif effect == "publish":
        call.flag(R.NETWORK, "remote-control-plane", f"{what} sends to a remote service (it deletes nothing there).")
    elif effect == "change":
        call.flag(R.SYSTEM, "remote-control-plane", f"{what} changes state on a remote service.")
    elif effect == "destroy":
        call.flag(R.DESTRUCTIVE, "remote-control-plane", f"{what} deletes on a remote service.")
    elif effect == "grant":
        call.flag(R.DESTRUCTIVE, "privilege-grant", f"{what} grants full control of a remote service.")
    elif effect == "delete":
        call.flag(R.DESTRUCTIVE, "deletion", f"{what} deletes files.")
    elif effect == "system":
        call.flag(R.SYSTEM, "system-command", f"{what} changes the machine outside the workspace.")
    elif effect == "critical":
        host_destructive(
            call,
            "host-critical",
            f"{what} stops a service, takes the machine off the network or weakens its protection.",
        )
    elif effect == "persist":
        host_destructive(
            call,
            "persistence",
            f"{what} runs at every boot/login: persistence, an irreversible-looking change to the machine the owner "
            "must see.",
        )
    elif effect == "plugin":
        call.flag(R.NETWORK, "package-install", f"{what} downloads packages from a registry.")
        tool_plugin(call, what)
    elif effect == "secret":
        # the plaintext is on the command's output: piped to a program that talks to another machine it may leave
        # for good (Grader.secret_egress)
        call.flag(R.NETWORK, "secret-read", f"{what} prints secrets: its output goes to the model.", printed=True)
    elif effect == "source":
        call.flag(
            R.DESTRUCTIVE,
            "package-source",
            f"{what} changes where every later install gets its packages: future installs come from another "
            "source, which runs its code.",
            contained_level=R.WORKSPACE_WRITE,
        )
        call.write(_HOME, f"{what} changes the package manager's configuration under")
    elif effect == "runs":
        call.flag(R.DESTRUCTIVE, "runs-program", f"{what} runs programs the classifier cannot see.")
    elif effect == "chosen":
        chosen_source(call, what, listed=True)  # meaning.py has no table for catalogue programs
    elif effect == "out":
        if target is None:
            call.write(Word(None, ""), f"{what} writes")
        else:
            call.write(target, f"{what} writes")
    elif effect == "emptied":
        emptied(call, target, what)
    elif effect == "mount":
        _mounts_host(call, what, target if target is not None else Word(None, ""))
    elif effect == "pairs":
        if target is None or target.value is None:
            call.write(Word(None, target.src if target is not None else ""), f"{what} may write")
        else:
            for pair in target.value.replace(";", ",").split(","):
                key, eq, path = pair.partition("=")
                if eq and path:
                    call.write(literal_word(path), f"{what} {key}= may write")
    elif effect == "project":
        if (
            target is None
            or not target.value
            or target.value.startswith("~")
            or call.where(target) is not Where.WORKSPACE
        ):
            shown = shorten(target.src, 60) if target is not None else "a path"
            call.flag(
                R.DESTRUCTIVE,
                "project-outside-workspace",
                f"{what} is pointed at {shown}, outside the workspace (or only known when it runs): it runs or "
                "loads code there that FlyBot does not read.",
            )
    elif effect == "package":
        if target is not None and target.value is None:
            # a value only known when it runs may be a local project outside the workspace (/tmp/pkg), built there
            call.flag(
                R.DESTRUCTIVE,
                "project-outside-workspace",
                f"{what} {shorten(target.src, 60)} is a package only known when it runs: it may be a local project "
                "outside the workspace, whose build code FlyBot does not read.",
            )
        elif target is not None and not local_package_outside(call, [target], what):
            spec = target.value or ""
            if local_package(spec, bare_path=True) is None:
                # a name or URL: the tool downloads the package (and runs its build) first
                network(call, f"{what} {shorten(target.src, 60)} downloads a package.", rule="package-install")
                if _remote_package(spec):
                    # a URL or VCS link (uv run --with https://.../x.whl, -f URL, git+https://...): the package comes
                    # from where the command says, not the configured index (pip(1) "Requirement Specifiers": a URL
                    # or VCS requirement), so its build code is the source's
                    chosen_source(call, f"{what} {shorten(target.src, 60)}", listed=True)
    elif effect in ("interpreter", "interpreter-home"):
        value = target.value if target is not None else None
        if value is None or (
            not any(value.startswith(d) and value[len(d) :] and "/" not in value[len(d) :] for d in SYSTEM_BIN_DIRS)
            and ("/" in value or value.startswith(("~", ".")) or value == "")
        ):  # a path, but the system's own program (/usr/bin/python3)
            shown = shorten(target.src, 60) if target is not None else "an interpreter"
            call.flag(
                R.DESTRUCTIVE,
                "runs-program",
                f"{what} runs {shown} as its interpreter: a program of the caller's choosing (or only known when it "
                "runs).",
            )
        elif effect == "interpreter-home":
            call.write(_HOME, f"{what} makes a virtualenv for {shorten(value, 40)} under")
    elif effect == "unknown":
        refuse(call, f"{what} {target.value if target is not None else ''}".rstrip() + " (its effect is not bounded)")
    elif effect == "wrap":  # as an option: the command it runs is not separated here
        call.flag(R.DESTRUCTIVE, "runs-program", f"{what} runs a command the classifier does not separate.")
