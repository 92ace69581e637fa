"""What a project script runs: recipes read from the project, graded with the same classifier.

``make X``, ``npm run X``/``npm test``/``npm start``, ``yarn X``, ``pnpm X``, ``just X`` and ``tox -e X`` run
commands the project (often the agent itself) wrote. Where FlyBot can read the project (the hook,
``flybot exec`` and ``flybot classify --cwd`` run in the session's directory) a :class:`ProjectRecipes`
reads the recipe; the server, which cannot, is given the expanded recipe by the adapter
(:class:`GivenRecipes`, from the escalation request). Either way the lines are graded as scripts.
A recipe is found by its key: tool, target, the directory the tool runs in, the file the command names and the
variables the command sets (:class:`Recipe`; programs/projects.py works the directory out from the command). A
recipe that exists but cannot be read for certain is an unreadable recipe (:func:`unreadable`): one line
:data:`UNKNOWN`, graded destructive on both sides.

Nothing here runs anything: ``make -n`` is not used because it still runs ``$(shell ...)`` and
recipes marked ``+`` (GNU make manual, "Instead of Executing Recipes"). The Makefile is parsed
(:func:`make_recipe`): rules, recipe lines (TAB-indented, ``\\`` continuations, ``@``/``-``/``+``
prefixes), simple variables and automatic variables are expanded; any other make function or a
variable with no single known value (also an undefined one: make imports the environment) becomes ``$FLYBOT_UNKNOWN`` (a word only known at run time),
and text make or just pastes from a program's output or file names (``$(shell CMD)``, ``$(wildcard ...)``, a just
backtick) becomes ``$FLYBOT_PASTED`` (:data:`PASTED`: the shell may read it as commands; graded destructive).
``$(shell CMD)`` and ``VAR != CMD`` run when make reads the file, whatever the target: they are
returned as lines too. Prerequisites' recipes are included (they run first); an ``include`` that
cannot be read makes the makefile unreadable. package.json ``scripts`` (with ``pre``/``post``
scripts), a justfile's recipes (dependencies first; backtick assignments run on load) and tox.ini
``[testenv:X] commands`` are read likewise, and so is an Apptainer definition file's sections
(:func:`apptainer_definition`). Files over :data:`MAX_FILE_BYTES` are not read.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shlex
from collections.abc import Callable, Iterable, Iterator, Sequence

from bot.values import Frozen, Record

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_LINE_CHARS",
    "MAX_LINES",
    "MAX_RECIPES",
    "MAX_RECIPE_CHARS",
    "GO_GENERATE",
    "JUST_FROM_ARGUMENTS",
    "JUST_PARAMETER",
    "LIFECYCLE",
    "LINK_TOOL",
    "SEARCH_PATH",
    "SETTINGS",
    "TOX_ALL",
    "TOX_DEFAULT",
    "TOX_START",
    "PASTED",
    "UNKNOWN",
    "COMPOSER_EVENTS",
    "APPTAINER_CONTAINER",
    "APPTAINER_FILES",
    "APPTAINER_HOST",
    "apptainer_definition",
    "GivenRecipes",
    "ProjectRecipes",
    "Recipe",
    "RecipeBook",
    "RecipeLine",
    "just_arguments",
    "link_target",
    "make_recipe",
    "secrets_target",
    "tree_target",
]

MAX_FILE_BYTES = 256 * 1024
MAX_LINES = 64
#: The longest recipe line the server takes (bot/api/models.py); a recipe with a longer one is unreadable.
MAX_LINE_CHARS = 4000
#: The most recipes, and characters of recipe lines in all, one escalation carries (bot/api/models.py): a command
#: that runs more is destructive (programs/projects.py), so the server is always sent every recipe it grades.
MAX_RECIPES = 16
MAX_RECIPE_CHARS = 32 * 1024
#: Stands for a value only known when the recipe runs (an unknown make/just expansion).
UNKNOWN = "$FLYBOT_UNKNOWN"
#: Stands for text make or just pastes into a recipe line before the shell reads it, and that comes from a program's
#: output or from file names (``$(shell CMD)``, ``VAR != CMD``, ``$(wildcard ...)``, a just backtick): the shell
#: parses it as part of the line, so ``;``, ``$(...)``, a backtick or a quote in it run as code (GNU make manual,
#: "The shell Function", "Reading Makefiles": the value is text in the recipe; just manual, "Command Evaluation Using
#: Backticks"). The line's source names what is pasted (", where make pastes ..."); the grader grades such a line
#: destructive. Output of a producer known to print only plain text (:data:`_PLAIN_OUTPUT`) stays :data:`UNKNOWN`.
PASTED = "$FLYBOT_PASTED"
#: The target of a recipe that is the settings of the place a tool runs in, not a script (bot/risk/settings.py).
SETTINGS = "<settings> "
#: The tox target of its start without an environment (``tox -l``, ``--version``): no line, unreadable when a
#: ``toxfile.py`` (an inline plugin tox imports) is there.
TOX_START = "<start>"
#: The go target whose lines are the ``//go:generate`` directives ``go generate PACKAGES...`` runs (after it, the
#: package patterns separated by spaces): :func:`_go_generate`.
GO_GENERATE = "generate "
#: The make target of ``make -n`` / ``-q`` (GNU make manual, "Instead of Executing Recipes"): after it, the goal
#: (:func:`make_recipe` ``dry_run``).
MAKE_DRY_RUN = "<dry-run> "
#: The tool of a recipe that says where a path in the workspace really leads (:meth:`RecipeBook.link`).
LINK_TOOL = "path"


def link_target(path: str) -> str:
    """The target a link recipe of ``path`` is sent under: ``<link> `` and the SHA-256 of the path as written
    (any length fits the server's 200 characters; ``..`` after a link is not normalised away)."""
    import hashlib

    return "<link> " + hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()


#: The most directory entries :meth:`ProjectRecipes.tree` looks at below one path (a ``readdir`` with no ``stat``
#: for most: a few milliseconds); a tree with more is reported as unknown (:data:`UNKNOWN`), so its reads fail closed.
MAX_TREE_ENTRIES = 10000
#: The most links out of the workspace a tree recipe lists; a tree with more is reported as unknown.
MAX_TREE_LINKS = 16


#: The target of the recipe that says which entries of the ``PATH`` the session's commands run under are relative
#: (:meth:`RecipeBook.search_path`).
SEARCH_PATH = "<PATH>"
#: bash's ``PATH`` when its environment has none (bash 5.2 ``config-top.h`` ``DEFAULT_PATH_VALUE``): it ends in
#: ``.``, the working directory.
BASH_DEFAULT_PATH = "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:."
#: The most relative ``PATH`` entries a search-path recipe lists (one is enough to grade).
MAX_PATH_ENTRIES = 16


def tree_target(path: str) -> str:
    """The target a tree recipe of ``path`` is sent under: ``<tree> `` and the SHA-256 of the path as written."""
    return "<tree> " + link_target(path).removeprefix("<link> ")


#: The most directory entries :meth:`ProjectRecipes.secrets` looks at below one path (a ``readdir`` with a name
#: check for each name: about 0.1 s for 50,000 files whose names repeat, 0.5 s for 50,000 distinct names); a tree
#: with more is reported as unknown (:data:`UNKNOWN`),
#: so a recursive read of it fails closed (a secret read).
MAX_SECRET_ENTRIES = 50000
#: The most secret files a secrets recipe lists.
MAX_SECRET_FILES = 20


def secrets_target(path: str, hidden: bool) -> str:
    """The target a secrets recipe of ``path`` is sent under: ``<secrets> `` (every file below) or ``<visible> ``
    (none whose path below ``path`` has a part starting with ``.``: what rg and ag read without ``--hidden``) and the
    SHA-256 of the path as written."""
    return ("<secrets> " if hidden else "<visible> ") + link_target(path).removeprefix("<link> ")


class RecipeLine(Frozen):
    """One command a recipe runs: ``source`` names where it is written (``Makefile:12``, ``package.json scripts.build``)."""

    __slots__ = ("source", "command")
    source: str
    command: str

    def __init__(self, source: str, command: str) -> None:
        self._init(source=source, command=command)


class Recipe(Frozen):
    """The commands ``tool target`` runs (``tool``: make, npm, yarn, pnpm, just, tox, dvc, composer, apptainer...;
    ``target`` may be ``""``: the default).

    ``directory``: where the tool runs, relative to the workspace (``""``: the workspace itself; see
    :func:`~bot.risk.programs.projects.run_recipe`). ``file``: the recipe file named on the command line
    (``make -f``, ``just --justfile``, ``tox -c``), relative to the workspace, or ``""``. ``overrides``: the
    sorted names of variables the command line or its environment sets (``make test CC=...``), whose values
    are unknown in ``lines``. The four together are the recipe's key: both sides look it up by them.
    """

    __slots__ = ("tool", "target", "lines", "directory", "file", "overrides")
    tool: str
    target: str
    lines: tuple[RecipeLine, ...]
    directory: str
    file: str
    overrides: tuple[str, ...]

    def __init__(
        self,
        tool: str,
        target: str,
        lines: tuple[RecipeLine, ...],
        directory: str = "",
        file: str = "",
        overrides: tuple[str, ...] = (),
    ) -> None:
        self._init(tool=tool, target=target, lines=lines, directory=directory, file=file, overrides=overrides)


class RecipeBook:
    """Looks recipes up; None means there is no recipe to read (then the target's name decides).

    A recipe that exists but cannot be read for certain (a symbolic link out of the workspace, a file the tool
    would look for above the workspace, an include that cannot be read) is returned as an unreadable recipe
    (:func:`unreadable`): one line that is :data:`UNKNOWN`, whose source says why.

    The base of :class:`GivenRecipes` and :class:`ProjectRecipes` (a plain base class rather than a
    ``typing.Protocol``: the adapters start without importing ``typing``).

    ``complete``: True when the book reads the project itself, so that None means there is nothing there; False when
    None may only mean that nobody sent the recipe (:class:`GivenRecipes`): then whatever depends on it fails closed.
    """

    __slots__ = ()
    complete = False

    def recipe(
        self, tool: str, target: str, directory: str = "", file: str = "", overrides: tuple[str, ...] = ()
    ) -> Recipe | None:
        """The recipe ``tool target`` runs in ``directory`` with ``file`` and ``overrides`` (see :class:`Recipe`)."""
        raise NotImplementedError

    def link(self, path: str) -> Recipe | None:
        """Where ``path`` (relative to the workspace, as written: ``etc2/passwd``, ``etc2/..``) really leads when a
        symbolic link on the way takes it out of the workspace: a recipe of tool :data:`LINK_TOOL` whose one line's
        command is the real path; None when it stays inside (or, for :class:`GivenRecipes`, was not reported)."""
        return self.recipe(LINK_TOOL, link_target(path))

    def tree(self, path: str) -> Recipe | None:
        """The symbolic links below the directory ``path`` (relative to the workspace, as written) that lead out of
        the workspace, as a program that follows links finds them (links to directories in the workspace are
        followed too): a recipe of tool :data:`LINK_TOOL` whose lines are ``(link, real path)``, or one line
        :data:`UNKNOWN` when the tree was too large to look through; None when no link below leads out (or, for
        :class:`GivenRecipes`, none was reported)."""
        return self.recipe(LINK_TOOL, tree_target(path))

    def secrets(self, path: str, hidden: bool = True) -> Recipe | None:
        """The files below the directory ``path`` (relative to the workspace, or from ``~``, as written) whose name makes them secret
        files (sensitive.py ``env_file``, ``named_secret``: ``sub/.env``, ``config/server.key``), without following
        symbolic links; with ``hidden`` False, only those whose path below ``path`` has no part starting with ``.``
        (rg(1) and ag(1) skip hidden files and directories): a recipe of tool :data:`LINK_TOOL` whose lines are
        ``(path relative to path, what it holds)``, or one line :data:`UNKNOWN` when the tree was too large
        or could not be read; one without lines when there is none; None (:class:`GivenRecipes`) when the adapter
        reported nothing."""
        return self.recipe(LINK_TOOL, secrets_target(path, hidden))

    def search_path(self) -> Recipe | None:
        """The relative entries of the ``PATH`` the session's commands run under, as a
        recipe of tool :data:`LINK_TOOL` and target :data:`SEARCH_PATH` whose lines' commands are the entries
        (an empty one written ``''``); None when every entry is absolute (or, for :class:`GivenRecipes`, the
        adapter reported none). An entry not starting with ``/`` is relative: an empty one (``::``, a leading or
        trailing ``:``, an empty ``PATH``) and ``.`` name the working directory, ``bin`` a directory in it (bash(1)
        "PATH": "A zero-length (null) directory name in the value of PATH indicates the current directory";
        execvp(3)), so a program the workspace holds runs in place of the one a bare name means elsewhere."""
        return self.recipe(LINK_TOOL, SEARCH_PATH)


def unreadable(tool: str, target: str, directory: str, file: str, overrides: tuple[str, ...], why: str) -> Recipe:
    """A recipe FlyBot cannot read for certain: one :data:`UNKNOWN` line whose source is ``why`` (graded destructive)."""
    return Recipe(tool, target, (RecipeLine(why[:200], UNKNOWN),), directory, file, overrides)


def is_unreadable(recipe: Recipe) -> bool:
    """True for a recipe made by :func:`unreadable` (or sent as one)."""
    return len(recipe.lines) == 1 and recipe.lines[0].command == UNKNOWN


class GivenRecipes(RecipeBook):
    """Recipes the adapter expanded and sent with the escalation (the server cannot read the project)."""

    __slots__ = ("recipes",)

    def __init__(self, recipes: Sequence[Recipe]) -> None:
        self.recipes = recipes

    def __repr__(self) -> str:
        return f"GivenRecipes(recipes={self.recipes!r})"

    def recipe(
        self, tool: str, target: str, directory: str = "", file: str = "", overrides: tuple[str, ...] = ()
    ) -> Recipe | None:
        """The given recipe with this key (tool, target, directory, file, overrides), or None."""
        want = (_norm_dir(directory), _norm_dir(file), tuple(sorted(overrides)))
        for recipe in self.recipes:
            if (
                recipe.tool == tool
                and recipe.target == target
                and (_norm_dir(recipe.directory), _norm_dir(recipe.file), tuple(sorted(recipe.overrides))) == want
            ):
                return recipe
        return None


def _norm_dir(directory: str | None) -> str:
    return posixpath.normpath(directory) if directory else "."


class _Unreadable(ValueError):
    """A recipe file that is there but must not be read (its message says why, ending in "not read...")."""


class ProjectRecipes(RecipeBook):
    """Reads recipes from the project in ``root`` (the session's directory: a ``Path`` or a string). Reads files only;
    runs nothing.

    What is read must be what the tool will read, and must lie in the workspace. The directory, after symbolic
    links, must be the workspace's own ``directory`` (a link anywhere on the way makes the recipe unreadable). The
    recipe file and included makefiles, after symbolic links, must be regular files inside the workspace. npm,
    yarn, pnpm, just and tox look for their file in the directories above when the directory has none, so a
    missing ``package.json`` (unless a ``node_modules`` directory is there: npm stops at it, npm-prefix(1); or no
    directory above holds a project, :data:`_PROJECT_MARKERS`: then there is no script), justfile or ``tox.ini`` is
    unreadable, as is a ``tox.toml`` next to ``tox.ini`` (FlyBot reads ``tox.ini``
    only), a package whose ``.npmrc`` holds a key that is not inert (:data:`_INERT_NPMRC_KEYS`) or whose
    ``.yarnrc``/``.yarnrc.yml`` names a program the tool runs (:data:`_PROGRAM_KEYS`) and a makefile with an include or a line FlyBot cannot read. A directory without a makefile has no
    recipe (make then has only its built-in rules): None.

    ``session_path``: the ``PATH`` the session's commands run under (the adapter's environment, which the agent's
    shell shares), or None when it is not known (``flybot classify``): then :meth:`search_path` reports nothing.
    """

    __slots__ = ("root", "session_path", "_cache")
    complete = True

    def __init__(self, root: str | os.PathLike[str], session_path: str | None = None) -> None:
        self.root = root
        self.session_path = session_path
        self._cache: dict[tuple[str, str, str, str, tuple[str, ...]], Recipe | None] = {}

    def __repr__(self) -> str:
        return f"ProjectRecipes(root={self.root!r})"

    def recipe(
        self, tool: str, target: str, directory: str = "", file: str = "", overrides: tuple[str, ...] = ()
    ) -> Recipe | None:
        """The recipe, an unreadable recipe (see the class), or None when there is none (no makefile, no such target)."""
        directory = "" if _norm_dir(directory) == "." else _norm_dir(directory)
        file = "" if _norm_dir(file) == "." else _norm_dir(file)
        overrides = tuple(sorted(overrides))
        key = (tool, target, directory, file, overrides)
        if key not in self._cache:
            try:
                self._cache[key] = _sendable(self._read(tool, target, directory, file, overrides))
            except _Unreadable as error:
                self._cache[key] = unreadable(tool, target, directory, file, overrides, str(error))
            except (OSError, ValueError, UnicodeDecodeError, RecursionError) as error:
                what = file or posixpath.join(directory or ".", _FILES.get(tool, tool))
                why = f"{what} (not read: {type(error).__name__})"
                if tool == "kubernetes":  # bot/risk/manifests.py says which file and why
                    why = str(error) if isinstance(error, ValueError) else f"{error.__class__.__name__}: {error}"
                self._cache[key] = unreadable(tool, target, directory, file, overrides, why)
        return self._cache[key]

    def search_path(self) -> Recipe | None:
        """See :meth:`RecipeBook.search_path`: the relative entries of :attr:`session_path`."""
        if self.session_path is None:
            return None
        found = [(n, e) for n, e in enumerate(self.session_path.split(":"), 1) if not e.startswith("/")]
        if not found:
            return None
        lines = tuple(RecipeLine(f"PATH entry {n}", (e or "''")[:MAX_LINE_CHARS]) for n, e in found[:MAX_PATH_ENTRIES])
        return Recipe(LINK_TOOL, SEARCH_PATH, lines)

    def link(self, path: str) -> Recipe | None:
        """See :meth:`RecipeBook.link`: the path is resolved with ``os.path.realpath`` from the real workspace."""
        key = (LINK_TOOL, path, "", "", ())
        if key not in self._cache:
            root = os.path.realpath(self.root)
            real = os.path.realpath(os.path.join(root, path))
            inside = real == root or real.startswith(root.rstrip(os.sep) + os.sep)
            line = RecipeLine(path[:200] or ".", real[:MAX_LINE_CHARS])
            self._cache[key] = None if inside else Recipe(LINK_TOOL, link_target(path), (line,))
        return self._cache[key]

    def tree(self, path: str) -> Recipe | None:
        """See :meth:`RecipeBook.tree`: an ``lstat`` walk of at most :data:`MAX_TREE_ENTRIES` entries from the real
        directory, each link resolved with ``os.path.realpath``. Reads directory entries only; opens no file."""
        key = (LINK_TOOL, "<tree> " + path, "", "", ())
        if key not in self._cache:
            root = os.path.realpath(self.root)
            start = os.path.realpath(os.path.join(root, path))
            inside = start == root or start.startswith(root.rstrip(os.sep) + os.sep)
            found = _links_out(root, start) if inside and os.path.isdir(start) else []
            if found is None:
                why = f"{path[:120] or '.'} (more than {MAX_TREE_ENTRIES} entries or {MAX_TREE_LINKS} links out: not looked through)"
                self._cache[key] = unreadable(LINK_TOOL, tree_target(path), "", "", (), why)
            elif found:
                lines = tuple(RecipeLine(link[:200], real[:MAX_LINE_CHARS]) for link, real in found)
                self._cache[key] = Recipe(LINK_TOOL, tree_target(path), lines)
            else:
                self._cache[key] = None
        return self._cache[key]

    def secrets(self, path: str, hidden: bool = True) -> Recipe | None:
        """See :meth:`RecipeBook.secrets`: a walk of at most :data:`MAX_SECRET_ENTRIES` entries from the real
        directory, links not followed. Reads directory entries only; opens no file. A directory from ``~`` outside the
        workspace that may hold another project's secret files (sensitive.py ``may_hold_project_secrets``) is not
        looked through: its answer is unknown (fail closed)."""
        from bot.risk.sensitive import may_hold_project_secrets

        target = secrets_target(path, hidden)
        key = (LINK_TOOL, target, "", "", ())
        if key not in self._cache:
            root = os.path.realpath(self.root)
            start = os.path.realpath(os.path.join(root, os.path.expanduser(path)))
            inside = start == root or start.startswith(root.rstrip(os.sep) + os.sep)
            found = _secrets_below(root, start, hidden) if inside and os.path.isdir(start) else []
            if not inside and path.startswith("~") and may_hold_project_secrets(path) is not None:
                # another project's tree below the home directory: not looked through (sensitive.py)
                found = None
            if found is None:
                why = (
                    f"{path[:120] or '.'}: more than {MAX_SECRET_ENTRIES} entries, unreadable, or outside the workspace"
                )
                self._cache[key] = unreadable(LINK_TOOL, target, "", "", (), why)
            else:  # none found is an answer too, sent as a recipe without lines (the server fails closed without one)
                lines = tuple(RecipeLine(_one_line(rel)[:200], what[:MAX_LINE_CHARS]) for rel, what in found)
                self._cache[key] = Recipe(LINK_TOOL, target, lines)
        return self._cache[key]

    def _read(self, tool: str, target: str, directory: str, file: str, overrides: tuple[str, ...]) -> Recipe | None:
        for part in (directory, file):
            if part.startswith("/") or part == ".." or part.startswith("../"):
                raise _Unreadable(f"{part} (not read: outside the workspace)")
        root = os.path.realpath(self.root)
        base = os.path.join(root, directory) if directory else root
        if os.path.realpath(base) != base or not os.path.isdir(base):
            raise _Unreadable(f"{directory or '.'} (not read: a symbolic link, or not a directory)")

        def here(name: str) -> str | None:
            return _regular_file(root, posixpath.join(directory, name) if directory else name)

        def text(rel: str) -> str:
            return _read_text(os.path.join(root, rel))

        def recipe(lines: list[RecipeLine] | None) -> Recipe | None:
            return None if lines is None else Recipe(tool, target, tuple(lines), directory, file, overrides)

        if tool == "go" and target.startswith(GO_GENERATE):
            return recipe(_go_generate(root, base, target[len(GO_GENERATE) :].split()))
        if target.startswith(SETTINGS):
            from bot.risk.settings import read

            return recipe(
                [
                    RecipeLine(source[:200], setting[:200])
                    for source, setting in read(root, base, tool, target[len(SETTINGS) :])
                ]
            )
        if tool == "apptainer" and file and os.path.isdir(os.path.join(root, file)):
            # apptainer build(1) "BUILD SPEC": a directory is a (ch)root file system converted to an image, no recipe
            real = os.path.realpath(os.path.join(root, file))
            if not real.startswith(root.rstrip(os.sep) + os.sep):
                raise _Unreadable(f"{file} (not read: a link out of the workspace)")
            return recipe([])
        named = _regular_file(root, file) if file else None
        if file and named is None:
            raise _Unreadable(f"{file} (not read: no such file)")
        if tool == "make":
            rel = named or next((r for r in map(here, ("GNUmakefile", "makefile", "Makefile")) if r is not None), None)
            if rel is None:
                return None

            def include(name: str) -> str:
                found = here(name)
                if found is None:
                    raise FileNotFoundError(name)
                return text(found)

            def exists(name: str) -> bool:
                path = posixpath.normpath(posixpath.join(directory, name))
                if path.startswith(("/", "../")) or path == "..":
                    return True  # outside the workspace: not looked at, taken to be there
                return os.path.lexists(os.path.join(root, path))

            dry_run = target.startswith(MAKE_DRY_RUN)
            lines = make_recipe(
                text(rel),
                target.removeprefix(MAKE_DRY_RUN),
                rel,
                include,
                overrides=overrides,
                exists=exists,
                plain_dir=_plain_path(base),
                dry_run=dry_run,
            )
            if lines is None:
                raise _Unreadable(
                    f"{rel} (not read completely: an include, a line FlyBot cannot read, or a setting that "
                    "changes how make runs recipes: export, .SHELLFLAGS, MAKEFLAGS, .SECONDEXPANSION...)"
                )
            return recipe(lines)
        if tool in ("npm", "yarn", "pnpm"):
            # read before package.json: with none here and none above, npm's prefix is here and its .npmrc is read
            # too (npm-prefix(1)), and npm init runs the init-module it names (npm-config(7) "init-module")
            npmrc = here(".npmrc")
            if npmrc is not None:
                key = _npmrc_key_not_inert(text(npmrc))
                if key is not None:
                    raise _Unreadable(
                        f"{npmrc} (not read: its key {key} may name a program, a configuration file or other packages' scripts)"
                    )
            for config in (".yarnrc", ".yarnrc.yml"):
                found = here(config)
                if found is not None and _config_runs_program(text(found), yaml=config.endswith(".yml")):
                    raise _Unreadable(
                        f"{found} (not read: it names a program, a plugin or other packages' scripts {tool} runs)"
                    )
            if tool == "yarn":
                # yarnpkg.com "Scripting", "Environment files": Yarn injects the content of .env.yarn (by default,
                # the injectEnvironmentFiles setting) into every command yarn run runs: PATH, NODE_OPTIONS too
                parts = directory.split("/") if directory else []
                for depth in range(len(parts), -1, -1):
                    env_file = posixpath.join(*parts[:depth], ".env.yarn") if depth else ".env.yarn"
                    if os.path.lexists(os.path.join(root, env_file)):
                        raise _Unreadable(
                            f"{env_file} (not read: yarn sets every script's environment from it, PATH and NODE_OPTIONS too)"
                        )
            if tool == "pnpm":
                setting = _pnpm_workspace_setting(root, directory)
                if setting is not None:
                    raise _Unreadable(
                        f"{setting} (not read: a pnpm setting that may name a program or change which scripts run)"
                    )
            rel = here("package.json")
            if rel is None:
                none = recipe([]) if target.startswith(LIFECYCLE) else None  # no life cycle script runs: sent as such
                if os.path.isdir(os.path.join(base, "node_modules")):
                    return none  # npm's prefix is here; with no package.json there is no script to run
                if not _package_above(base):
                    return none  # npm-prefix(1): no package.json or node_modules up to /, so the prefix is here
                raise _Unreadable(
                    f"{directory or '.'} has no package.json ({tool} looks in the directories above: not read)"
                )
            if target.startswith(LIFECYCLE):
                events = target[len(LIFECYCLE) :].split(",")
                lines = _with_gyp(root, rel, events, lifecycle_scripts(text(rel), events) or [])
                for package in _own_packages(root, rel, text):
                    lines += _with_gyp(
                        root, package, events, lifecycle_scripts(text(package), events, where=package) or []
                    )
                return recipe(lines)
            return recipe(
                package_script(
                    text(rel),
                    target,
                    # pnpm runs pre/post scripts when its setting enablePrePostScripts says so (pnpm.io "Settings":
                    # the default changed between versions, and pnpm-workspace.yaml or the command can set it): read
                    # as run, as npm does
                    pre_post=True,
                    env_builtin=tool in ("npm", "yarn"),
                    restart_default=tool == "npm",
                )
            )
        if tool == "composer":
            rel = here("composer.json")
            if rel is None:
                return recipe([]) if target.startswith(LIFECYCLE) else None
            if target.startswith(LIFECYCLE):
                return recipe(composer_scripts(text(rel), COMPOSER_EVENTS.get(target[len(LIFECYCLE) :], ()), rel))
            lines = composer_scripts(text(rel), [target], rel)
            return recipe(lines) if lines or _composer_defines(text(rel), target) else None
        if tool == "just":
            rel = named or next(
                (r for r in map(here, ("justfile", "Justfile", ".justfile", "JUSTFILE")) if r is not None), None
            )
            if rel is None:
                raise _Unreadable(f"{directory or '.'} has no justfile (just looks in the directories above: not read)")
            return recipe(just_recipe(text(rel), target, rel, overrides=overrides))
        if tool == "dvc":
            rel = here("dvc.yaml")
            if rel is None:
                raise _Unreadable(
                    f"{directory or '.'} has no dvc.yaml (dvc runs the project's other pipelines: not read)"
                )
            _dvc_alone(root, directory, rel)
            return recipe(dvc_stages(text(rel), rel))
        if tool == "tox":
            if file and not file.endswith(".ini"):
                raise _Unreadable(f"{file} (not read: FlyBot reads tox.ini files only)")
            # tox "Your first plugin": tox 4 imports a toxfile.py next to its configuration file at every start
            plugin = posixpath.join(posixpath.dirname(named) if named else directory, "toxfile.py")
            if os.path.lexists(os.path.join(root, plugin)):
                raise _Unreadable(f"{plugin} (not read: tox imports it as an inline plugin at every start)")
            if target == TOX_START:
                return recipe([])
            rel = named or here("tox.ini")
            if rel is None:
                raise _Unreadable(
                    f"{directory or '.'} has no tox.ini (tox looks in other files and the directories above: not read)"
                )
            if not file and here("tox.toml") is not None:
                raise _Unreadable(
                    f"{posixpath.join(directory, 'tox.toml') if directory else 'tox.toml'} (not read: tox may read it instead of tox.ini)"
                )
            return recipe(tox_commands(text(rel), target))
        if tool == "apptainer":
            if named is None:
                raise _Unreadable(f"{directory or '.'} (not read: no definition file named)")
            return recipe(apptainer_definition(text(named), named, directory))
        return None


def _links_out(root: str, start: str) -> list[tuple[str, str]] | None:
    """The symbolic links below the real directory ``start`` (in the real workspace ``root``) whose real path is
    outside ``root``, as ``(path relative to root, real path)``; links to directories inside are followed (once
    each). None when more than :data:`MAX_TREE_ENTRIES` entries or :data:`MAX_TREE_LINKS` such links were met, or a
    directory could not be read."""
    prefix = root.rstrip(os.sep) + os.sep
    found: list[tuple[str, str]] = []
    pending = [start]
    seen = {start}
    entries = 0
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as listing:
                for entry in listing:
                    entries += 1
                    if entries > MAX_TREE_ENTRIES:
                        return None
                    if entry.is_symlink():
                        real = os.path.realpath(entry.path)
                        if real != root and not real.startswith(prefix):
                            found.append((os.path.relpath(entry.path, root), real))
                            if len(found) > MAX_TREE_LINKS:
                                return None
                        elif os.path.isdir(real) and real not in seen:
                            seen.add(real)
                            pending.append(real)
                    elif entry.is_dir(follow_symlinks=False) and entry.path not in seen:
                        seen.add(entry.path)
                        pending.append(entry.path)
        except OSError:
            return None
    return found


def _secrets_below(root: str, start: str, hidden: bool) -> list[tuple[str, str]] | None:
    """The files below the real directory ``start`` (in the real workspace ``root``) that are secret files by their
    name (sensitive.py ``env_file``, ``named_secret``, given the path relative to ``root``), as ``(path relative to
    start, what it holds)``, at most :data:`MAX_SECRET_FILES`; links are not followed (a link is judged by its own
    name). Without ``hidden``, an entry whose name starts with ``.`` is skipped, and so is all below it. None when
    more than :data:`MAX_SECRET_ENTRIES` entries were met or a directory could not be read (fail closed).

    Below directories that are all :func:`_plain_part` a file's name alone decides (``named_secret`` looks at the
    directories only for ``.git``, ``config/secrets.yml`` and dot directories such as ``.ssh`` and ``.config``), so
    its answer is kept by name."""
    from bot.risk.sensitive import env_file, named_secret

    found: list[tuple[str, str]] = []
    by_name: dict[str, str | None] = {}
    top = os.path.relpath(start, root)
    prefix = "" if top == "." else top + "/"
    cut = len(prefix)
    pending = [(start, prefix, all(_plain_part(part) for part in prefix.split("/")[:-1]))]
    entries = 0
    while pending:
        directory, prefix, plain = pending.pop()
        try:
            with os.scandir(directory) as listing:
                for entry in listing:
                    entries += 1
                    if entries > MAX_SECRET_ENTRIES:
                        return None
                    name = entry.name
                    if not hidden and name.startswith("."):
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        pending.append((entry.path, prefix + name + "/", plain and _plain_part(name)))
                        continue
                    if len(found) >= MAX_SECRET_FILES:
                        continue
                    rel = prefix + name
                    if plain:
                        if name not in by_name:
                            by_name[name] = env_file(name) or named_secret(name)
                        what = by_name[name]
                    else:
                        what = env_file(name) or named_secret(rel)
                    if what is not None:
                        found.append((rel[cut:], what))
        except OSError:
            return None
    return sorted(found)


#: What the server refuses in a one-line field (bot/api/body.py ``control_character``).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _one_line(path: str) -> str:
    """``path`` as the server takes a recipe line's source: valid UTF-8 (a name that is not is shown with
    replacement characters) with each control character shown as ``?``."""
    return _CONTROL.sub("?", path.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))


def _plain_part(part: str) -> bool:
    """True for a directory name that changes no file's answer below it in sensitive.py ``named_secret``: not a dot
    directory (``.git``, ``.ssh``, ``.aws``, ``.config``...), not ``config``, and no glob character."""
    return not part.startswith(".") and part != "config" and not any(c in part for c in "*?[]{}\\")


def _sendable(recipe: Recipe | None) -> Recipe | None:
    """``recipe`` without blank lines (they run nothing), or unreadable when it is more than the server takes
    (:data:`MAX_LINES` lines of :data:`MAX_LINE_CHARS` characters, sources of 200): both sides then grade the same."""
    if recipe is None:
        return None
    lines = tuple(line for line in recipe.lines if line.command.strip())
    if len(lines) > MAX_LINES or any(len(line.command) > MAX_LINE_CHARS for line in lines):
        return unreadable(
            recipe.tool,
            recipe.target,
            recipe.directory,
            recipe.file,
            recipe.overrides,
            f"{recipe.lines[0].source.split(':')[0]} (more than {MAX_LINES} lines, or a line over {MAX_LINE_CHARS} characters: not graded)",
        )
    lines = tuple(RecipeLine(line.source[:200], line.command) for line in lines)
    return (
        recipe
        if lines == recipe.lines
        else Recipe(recipe.tool, recipe.target, lines, recipe.directory, recipe.file, recipe.overrides)
    )


#: Project configuration keys that make yarn run a program of the file's choosing (yarn 1 ``yarn-path``; yarn 2+
#: ``yarnPath`` and ``plugins``; and npm-config(7) keys yarn 1 also reads: script-shell, node-options, shell, editor,
#: browser, git, viewer, userconfig, globalconfig, init-module, onload-script, node-gyp, python), or that run other
#: packages' scripts (workspace, workspaces, include-workspace-root), compared without case, ``-`` or ``_``.
_PROGRAM_KEYS = frozenset({
    "scriptshell", "nodeoptions", "shell", "editor", "browser", "git", "viewer", "userconfig", "globalconfig",
    "initmodule", "onloadscript", "yarnpath", "plugins", "workspace", "workspaces", "includeworkspaceroot", "nodegyp",
    "python",
})  # fmt: skip

#: ``.npmrc`` keys (npm-config(7)) that name no program, no other configuration file and no other package's scripts:
#: where packages come from and how installs are saved and reported. Any other key in a project's ``.npmrc`` (npm and
#: pnpm read it) makes its scripts unreadable. ``registry`` and ``@scope:registry`` only change where an install
#: fetches packages, and an install is graded network, with dependencies' own install scripts out of FlyBot's reach.
_INERT_NPMRC_KEYS = frozenset({
    "registry", "save", "save-exact", "save-prefix", "save-dev", "save-optional", "save-peer", "save-prod",
    "package-lock", "package-lock-only", "engine-strict", "fund", "audit", "audit-level", "loglevel", "progress",
    "color", "legacy-peer-deps", "strict-peer-deps", "auto-install-peers", "shamefully-hoist", "always-auth",
    "update-notifier", "fetch-retries", "fetch-retry-mintimeout", "fetch-retry-maxtimeout", "fetch-timeout",
    "prefer-offline", "prefer-online", "ignore-scripts", "lockfile-version", "git-tag-version", "sign-git-tag",
    "tag-version-prefix", "message", "init-author-name", "init-author-email", "init-author-url", "init-license",
    "init-version", "email", "username", "_auth", "_authtoken", "_password", "omit", "include", "production",
    "resolution-mode", "unicode", "timing", "logs-max", "use-node-version",
})  # fmt: skip


#: The top-level keys of a ``pnpm-workspace.yaml`` (pnpm.io "pnpm-workspace.yaml" and "Settings": pnpm 10 reads
#: its settings there, ``scriptShell``, ``shellEmulator``, ``nodeOptions``, ``enablePrePostScripts`` among them)
#: that only list the workspace's packages or choose what an install fetches and builds, never how a script runs.
#: Any other key makes pnpm's scripts unreadable.
_INERT_PNPM_WORKSPACE_KEYS = frozenset({
    "packages", "catalog", "catalogs", "overrides", "packageExtensions", "onlyBuiltDependencies",
    "ignoredBuiltDependencies", "neverBuiltDependencies", "peerDependencyRules", "allowedDeprecatedVersions",
    "autoInstallPeers", "saveExact", "savePrefix", "linkWorkspacePackages", "minimumReleaseAge",
})  # fmt: skip


def _pnpm_workspace_setting(root: str, directory: str) -> str | None:
    """Where a ``pnpm-workspace.yaml`` in ``directory`` or a directory above it, up to the workspace ``root``
    (pnpm finds its workspace's root by looking up for the file), sets a key outside
    :data:`_INERT_PNPM_WORKSPACE_KEYS` (``pnpm-workspace.yaml: scriptShell``), or None. A file that is not a YAML
    mapping, or a key that is not plain text, counts as such a setting."""
    from bot.risk.settings import yaml_keys

    parts = directory.split("/") if directory else []
    for depth in range(len(parts), -1, -1):
        rel = posixpath.join(*parts[:depth], "pnpm-workspace.yaml") if depth else "pnpm-workspace.yaml"
        path = os.path.join(root, rel)
        if not os.path.lexists(path):
            continue
        try:
            keys = [key for _line, key in yaml_keys(_read_text(path))]
        except (OSError, ValueError):
            return f"{rel} (unreadable)"
        for key in keys:
            if key not in _INERT_PNPM_WORKSPACE_KEYS:
                return f"{rel}: {(key or 'a key that is not plain text')[:60]}"
    return None


def _config_lines(text: str) -> list[str]:
    """The non-comment lines of a configuration file, a leading UTF-8 byte order mark removed (npm and yarn ignore it)."""
    lines = []
    for line in text.removeprefix("\ufeff").split("\n"):
        line = line.strip().removeprefix("\ufeff").strip()
        if line and not line.startswith(("#", ";")):
            lines.append(line)
    return lines


def _config_runs_program(text: str, *, yaml: bool = False) -> bool:
    """True when a ``.yarnrc`` (``key value``) or ``.yarnrc.yml`` (YAML, read as such: flow style, ``? key`` and
    escapes in keys too; settings.py ``yaml_keys``) sets a key of :data:`_PROGRAM_KEYS` (an environment reference in
    a key, or a key that is not plain text, is taken for one)."""
    if yaml:
        from bot.risk.settings import yaml_keys

        keys = [key for _line, key in yaml_keys(text)]
    else:
        keys = [re.split(r"[\s=:]", line, maxsplit=1)[0].strip("\"'") for line in _config_lines(text)]
    for key in keys:
        if key is None:
            return True
        key = key.lower().replace("-", "").replace("_", "")
        if key in _PROGRAM_KEYS or "${" in key:
            return True
    return False


def _npmrc_key_not_inert(text: str) -> str | None:
    """The first key of an ``.npmrc`` (ini: ``key = value``, ``[section]``) that is not inert
    (:data:`_INERT_NPMRC_KEYS`, ``@scope:registry``, ``//host/path/:_authToken``-style credentials), or None.
    Keys are compared without case, quotes or surrounding space, ``_`` read as ``-``; a section header, a key holding
    ``${`` or a line without ``=`` counts as not inert."""
    for line in _config_lines(text):
        if line.startswith("[") or "=" not in line:
            return line[:60]
        raw = line.split("=", 1)[0].strip().strip("\"'").strip()
        if "${" in raw:
            return raw[:60]
        key = raw.lower()
        if key.startswith("//"):
            key = key.rsplit(":", 1)[-1] if ":" in key[2:] else key
        elif key.startswith("@") and key.endswith(":registry"):
            continue
        if key.replace("_", "-") not in _INERT_NPMRC_KEYS and key not in _INERT_NPMRC_KEYS:
            return raw[:60]
    return None


#: The file each tool reads, named in an unreadable recipe's source.
#: Files whose content decides what a project recipe runs (the recipe files the tools read, their settings, and
#: makefile fragments ``*.mk``): a command that writes one of them before running a recipe runs a recipe FlyBot has
#: not read (programs/projects.py).
RECIPE_INPUTS = frozenset({
    "GNUmakefile", "makefile", "Makefile", "package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs",
    "pnpm-workspace.yaml", "justfile", "Justfile", ".justfile", "tox.ini", "tox.toml", "pyproject.toml", "setup.cfg",
    ".env", ".env.yarn", "composer.json", "dvc.yaml",
})  # fmt: skip


def recipe_input(name: str) -> bool:
    """True when a file named ``name`` (a base name) can change what a project recipe runs (:data:`RECIPE_INPUTS`)."""
    return name in RECIPE_INPUTS or name.endswith(".mk")


_FILES = {
    "make": "Makefile",
    "npm": "package.json",
    "yarn": "package.json",
    "pnpm": "package.json",
    "just": "justfile",
    "tox": "tox.ini",
    "composer": "composer.json",
    "dvc": "dvc.yaml",
    "apptainer": "the definition file",
}


_GO_GENERATE_LINE = re.compile(r"^//go:generate[ \t]+(.*)$", re.MULTILINE)


def _go_generate(root: str, base: str, patterns: list[str]) -> list[RecipeLine]:
    """The ``//go:generate`` directives ``go generate PATTERNS`` runs from ``base`` (go help generate): each is run,
    in the directory of the file holding it, as ``cd DIR && LINE`` (DIR relative to ``base``, where the lines are
    graded). A pattern is a directory below ``base``
    (``.`` when none is given, ``./sub``), the same followed by ``/...`` (every package below it but
    ``testdata``, ``vendor`` and names starting with ``.`` or ``_``), or a ``.go`` file; every ``.go`` file of a
    package is read (test files too). go generate splits the line itself and runs no shell, so grading it as a
    shell line is the stricter reading; ``-command`` aliases, other patterns (import paths), a directory or file
    outside the workspace, more than :data:`MAX_TREE_ENTRIES` entries or :data:`MAX_LINES` directives make the
    place unreadable (:class:`_Unreadable`)."""
    prefix = root.rstrip(os.sep) + os.sep
    files: list[str] = []
    seen = 0
    for pattern in patterns or ["."]:
        recursive = pattern == "..." or pattern.endswith("/...")
        rel = pattern[: -len("...")].rstrip("/") or "." if recursive else pattern
        if not (rel == "." or rel.startswith(("./", "../")) or rel.endswith(".go")):
            raise _Unreadable(f"go generate {pattern[:80]} (not read: a package FlyBot does not look up)")
        start = os.path.realpath(os.path.join(base, rel))
        if start != root and not start.startswith(prefix):
            raise _Unreadable(f"go generate {pattern[:80]} (not read: outside the workspace)")
        if rel.endswith(".go"):
            files.append(start)
            continue
        pending = [start]
        while pending:
            here = pending.pop()
            with os.scandir(here) as entries:
                for entry in sorted(entries, key=lambda e: e.name):
                    seen += 1
                    if seen > MAX_TREE_ENTRIES:
                        raise _Unreadable(
                            f"go generate {pattern[:80]} (not read: more than {MAX_TREE_ENTRIES} entries)"
                        )
                    if entry.is_dir(follow_symlinks=False):
                        if recursive and entry.name not in ("testdata", "vendor") and entry.name[:1] not in "._":
                            pending.append(entry.path)
                    elif entry.name.endswith(".go"):
                        files.append(entry.path)
    lines: list[RecipeLine] = []
    for path in files:
        real = os.path.realpath(path)
        if not real.startswith(prefix) or not os.path.isfile(real):
            raise _Unreadable(f"{os.path.relpath(path, root)} (not read: not a regular file in the workspace)")
        rel_file = os.path.relpath(path, root)
        text = _read_text(real)
        for number, directive in _directives(text):
            if directive.startswith("-command"):
                raise _Unreadable(f"{rel_file}:{number} (not read: go:generate -command defines an alias)")
            if len(lines) >= MAX_LINES:
                raise _Unreadable(f"go generate (not read: more than {MAX_LINES} directives)")
            where = shlex.quote(os.path.relpath(os.path.dirname(path), base))  # lines are graded from base
            lines.append(RecipeLine(f"{rel_file}:{number} (go:generate)", f"cd {where} && {directive}"))
    return lines


def _directives(text: str) -> list[tuple[int, str]]:
    """The ``//go:generate`` lines of a Go source ``text``, numbered (a directive starts a line: go help generate)."""
    return [(text.count("\n", 0, m.start()) + 1, m.group(1).strip()) for m in _GO_GENERATE_LINE.finditer(text)]


def _regular_file(root: str, rel: str) -> str | None:
    """``rel`` (relative to the real workspace ``root``) when it exists, None when it does not; :class:`_Unreadable`
    when it is not a regular file inside the workspace after symbolic links."""
    path = os.path.join(root, rel)
    if not os.path.lexists(path):
        return None
    real = os.path.realpath(path)
    if not real.startswith(root.rstrip(os.sep) + os.sep) or not os.path.isfile(real):
        raise _Unreadable(f"{rel} (not read: a link out of the workspace, or not a regular file)")
    return rel


def _read_text(path: str) -> str:
    from bot.risk.reading import read_text

    return read_text(path, MAX_FILE_BYTES)


#: What npm (npm-prefix(1): package.json, node_modules), yarn (yarn.lock, .yarnrc, .yarnrc.yml) and pnpm
#: (pnpm-workspace.yaml, .npmrc) look for in the directories above to find the project they run in.
_PROJECT_MARKERS = (
    "package.json",
    "node_modules",
    "yarn.lock",
    ".yarnrc",
    ".yarnrc.yml",
    "pnpm-workspace.yaml",
    ".npmrc",
)


def _package_above(base: str) -> bool:
    """True when a directory above ``base`` (up to /) holds one of :data:`_PROJECT_MARKERS`: the tool may run there."""
    here = base
    while True:
        parent = os.path.dirname(here)
        if parent == here:
            return False
        here = parent
        if any(os.path.lexists(os.path.join(here, marker)) for marker in _PROJECT_MARKERS):
            return True


# -- package.json -------------------------------------------------------------------------------
#: The target of a recipe that is a package's life cycle scripts rather than one script: ``LIFECYCLE`` followed by the
#: events, comma-separated, in the order the tool runs them (programs/build.py). A script whose name starts with it is
#: never run by name (``npm run`` refuses it), so the two never share a key.
LIFECYCLE = "<lifecycle> "


#: The most workspace and local packages read for one install (more: unreadable).
_MAX_PACKAGES = 32
_LOCAL_DEPENDENCY = r"^\s*(?:file:|link:|portal:|\.{1,2}(?:/|$))"
#: A dependency spec that names code outside the workspace on this machine (a git repository by path, an absolute
#: or home path, with or without ``file:``/``link:``/``portal:``; package.json(5) "Local Paths", "Git URLs as
#: Dependencies"), or code yarn runs to make the package (yarn "Protocols": ``exec:`` runs a script at resolution).
_OUTSIDE_DEPENDENCY = r"^\s*(?:git\+file:|exec:|(?:file:|link:|portal:)?\s*[/~])"
#: The package.json fields whose values are dependency specs npm, yarn or pnpm install: package.json(5)
#: ``dependencies``, ``devDependencies``, ``optionalDependencies``, ``peerDependencies`` (npm 7 and later install
#: peers) and ``overrides`` (nested: ``{"x": {"lodash": SPEC, ".": SPEC}}``); yarn's ``resolutions`` (yarn
#: "Selective dependency resolutions"); pnpm's ``pnpm.overrides`` (pnpm "Settings (package.json)"). pnpm 10 also
#: reads ``overrides`` from pnpm-workspace.yaml.
_DEPENDENCY_FIELDS = ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies")
_OVERRIDE_FIELDS = ("overrides", "resolutions")
#: How deep ``overrides`` may nest before the file counts as unreadable.
_MAX_OVERRIDE_DEPTH = 8


def _override_specs(value: object, current: str, field: str, depth: int = 0) -> Iterator[tuple[str, str]]:
    """Every spec in an ``overrides``-like object (nested objects too), as ``(field, spec)``."""
    if depth > _MAX_OVERRIDE_DEPTH or not isinstance(value, dict):
        raise _Unreadable(f"{current} (not read: {field} is not an object of strings and objects)")
    for spec in value.values():
        if isinstance(spec, dict):
            yield from _override_specs(spec, current, field, depth + 1)
        elif isinstance(spec, str):
            yield field, spec
        else:
            raise _Unreadable(f"{current} (not read: {field} is not an object of strings and objects)")


def _field_specs(data: dict[object, object], current: str, prefix: str = "") -> Iterator[tuple[str, str]]:
    """The specs of :data:`_DEPENDENCY_FIELDS` in the object ``data``, as ``(field, spec)``."""
    for field in _DEPENDENCY_FIELDS:
        specs = data.get(field) or {}
        for spec in specs.values() if isinstance(specs, dict) else [None]:
            if not isinstance(spec, str):
                raise _Unreadable(f"{current} (not read: {prefix}{field} is not an object of strings)")
            yield prefix + field, spec


def _dependency_specs(
    data: dict[object, object], current: str, workspace: dict[object, object]
) -> Iterator[tuple[str, str]]:
    """Every dependency spec of the package.json object ``data`` (the file ``current``) in
    :data:`_DEPENDENCY_FIELDS` and :data:`_OVERRIDE_FIELDS`, ``pnpm.overrides`` and the dependencies
    ``pnpm.packageExtensions`` adds to packages (pnpm "Settings (package.json)"), and in ``workspace``, the
    pnpm-workspace.yaml beside it ({} for none), its ``overrides`` and ``packageExtensions``: ``(field, spec)``;
    :class:`_Unreadable` for a field of another shape."""
    yield from _field_specs(data, current)
    pnpm = data.get("pnpm")
    if pnpm is None:
        pnpm = {}
    if not isinstance(pnpm, dict):
        raise _Unreadable(f"{current} (not read: pnpm is not an object)")
    overrides = [(field, data.get(field)) for field in _OVERRIDE_FIELDS]
    overrides += [
        ("pnpm.overrides", pnpm.get("overrides")),
        ("pnpm-workspace.yaml overrides", workspace.get("overrides")),
    ]
    for field, value in overrides:
        if value is not None:
            yield from _override_specs(value, current, field)
    for field, extensions in (
        ("pnpm.packageExtensions", pnpm.get("packageExtensions")),
        ("pnpm-workspace.yaml packageExtensions", workspace.get("packageExtensions")),
    ):
        if extensions is None:
            continue
        if not isinstance(extensions, dict) or not all(isinstance(e, dict) for e in extensions.values()):
            raise _Unreadable(f"{current} (not read: {field} is not an object of objects)")
        for extension in extensions.values():
            yield from _field_specs(extension, current, f"{field} ")


def _own_packages(root: str, rel: str, text: Callable[[str], str]) -> list[str]:
    """The package.json files (relative to the real workspace ``root``) of the packages an install of the package
    ``rel`` runs the life cycle scripts of besides its own: its workspaces (package.json ``workspaces``,
    ``pnpm-workspace.yaml`` ``packages``: globs) and its dependencies on local directories (``file:``, ``link:``,
    ``portal:``, a relative path; package.json(5)), theirs too. :class:`_Unreadable` for a glob or path that leads
    out of the workspace, a dependency on a git repository on this machine or a home or absolute path, or more than
    :data:`_MAX_PACKAGES` packages."""
    import glob

    seen: list[str] = []
    todo = [rel]
    while todo:
        current = todo.pop(0)
        data = json.loads(text(current))
        if not isinstance(data, dict):
            raise _Unreadable(f"{current} (not read: not a JSON object)")
        base = posixpath.dirname(current)
        patterns: list[object] = []
        workspaces = data.get("workspaces")
        if isinstance(workspaces, dict):
            workspaces = workspaces.get("packages")
        if isinstance(workspaces, list):
            patterns += workspaces
        elif workspaces:
            raise _Unreadable(f"{current} (not read: workspaces is not a list of globs)")
        pnpm = _regular_file(root, posixpath.join(base, "pnpm-workspace.yaml"))
        pnpm_settings: dict[object, object] = {}
        if pnpm is not None:
            import yaml

            try:
                loaded = yaml.safe_load(text(pnpm)) or {}
                listed = loaded.get("packages", [])
                pnpm_settings = loaded
            except (yaml.YAMLError, AttributeError) as error:
                raise _Unreadable(f"{pnpm} (not read: not a mapping of packages)") from error
            patterns += listed if isinstance(listed, list) else [None]
        found: list[str] = []
        for pattern in patterns:
            if not isinstance(pattern, str) or pattern.startswith(("/", "~")) or ".." in pattern or "$" in pattern:
                raise _Unreadable(
                    f"{current} (not read: the workspace glob {str(pattern)[:60]} leads out of the workspace)"
                )
            if pattern.startswith("!"):
                continue  # an exclusion: reading the excluded packages too only grades more
            matches = glob.iglob(pattern, root_dir=os.path.join(root, base) if base else root, recursive=True)
            for count, match in enumerate(matches):
                if count >= _MAX_PACKAGES * 8:  # a glob such as ** walks node_modules: stop early
                    raise _Unreadable(f"{current} (not read: the workspace glob {pattern[:60]} matches too much)")
                found.append(posixpath.normpath(posixpath.join(base, match)))
        for field, spec in _dependency_specs(data, current, pnpm_settings):
            if re.match(_OUTSIDE_DEPENDENCY, spec, re.IGNORECASE):
                raise _Unreadable(
                    f"{current} (not read: the {field} {spec[:60]} is outside the workspace, or a script yarn runs)"
                )
            if re.match(_LOCAL_DEPENDENCY, spec, re.IGNORECASE):
                path = re.sub(r"^\s*(?:file:|link:|portal:)", "", spec, flags=re.IGNORECASE).strip()
                found.append(posixpath.normpath(posixpath.join(base, path)))
        for directory in found:
            if directory == ".." or directory.startswith("../") or directory.startswith("/"):
                raise _Unreadable(f"{current} (not read: the package {directory[:60]} is outside the workspace)")
            package = _regular_file(
                root, posixpath.join(directory, "package.json") if directory != "." else "package.json"
            )
            if package is None or package == rel or package in seen:
                continue  # a glob may match directories that hold no package; npm skips them
            seen.append(package)
            todo.append(package)
            if len(seen) > _MAX_PACKAGES:
                raise _Unreadable(f"{rel} (not read: more than {_MAX_PACKAGES} workspace and local packages)")
    return seen


def _with_gyp(root: str, package: str, events: Sequence[str], lines: list[RecipeLine]) -> list[RecipeLine]:
    """``lines``, the life cycle scripts of the package.json ``package``, with npm's default install script when
    the package has a ``binding.gyp`` and neither an ``install`` nor a ``preinstall`` script (npm-scripts(7)
    "Default Values": "npm will default the install command to compile using node-gyp via node-gyp rebuild"; pnpm
    and yarn do the same): ``node-gyp rebuild``, which runs the command expansions ``<!(...)`` of binding.gyp."""
    if "install" not in events or any(line.source.endswith((".install", ".preinstall")) for line in lines):
        return lines
    gyp = posixpath.join(posixpath.dirname(package), "binding.gyp")
    if not os.path.lexists(os.path.join(root, gyp)):
        return lines
    return [*lines, RecipeLine(f"{gyp} (the default install script)", "node-gyp rebuild")]


def lifecycle_scripts(text: str, events: Sequence[str], where: str = "package.json") -> list[RecipeLine] | None:
    """The ``scripts`` of ``events`` that package.json ``text`` (the file ``where``) defines, in that order (none
    defined: an empty list; npm, yarn and pnpm then run nothing of the package's own)."""
    data = json.loads(text)
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if scripts is None:
        return []
    if not isinstance(scripts, dict):
        raise ValueError("scripts is not an object")
    out: list[RecipeLine] = []
    for event in events:
        value = scripts.get(event)
        if isinstance(value, str):
            out.append(RecipeLine(f"{where} scripts.{event}", value))
        elif value is not None:
            raise ValueError(f"scripts.{event} is not a string")
    return out


#: The script events each Composer command fires (getcomposer.org "Scripts", "Event names": command, installer,
#: package and plugin events; ``install`` without a lock file fires the update events, every command ``init`` and
#: ``command``), by the command's name and aliases; the target of a Composer recipe is :data:`LIFECYCLE` and the
#: command.
_COMPOSER_EVERY = ("init", "command", "pre-command-run")
_COMPOSER_AUTOLOAD = ("pre-autoload-dump", "post-autoload-dump")
_COMPOSER_PACKAGES = (
    "pre-update-cmd", "pre-operations-exec", "pre-pool-create", "pre-file-download", "post-file-download",
    "pre-package-install", "post-package-install", "pre-package-update", "post-package-update",
    "pre-package-uninstall", "post-package-uninstall", *_COMPOSER_AUTOLOAD, "post-update-cmd",
)  # fmt: skip
_COMPOSER_INSTALL = ("pre-install-cmd", *_COMPOSER_PACKAGES, "post-install-cmd")
COMPOSER_EVENTS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("install", "i"), _COMPOSER_EVERY + _COMPOSER_INSTALL),
    **dict.fromkeys(
        ("update", "u", "upgrade", "require", "r", "remove", "rm", "reinstall", "bump"),
        _COMPOSER_EVERY + _COMPOSER_PACKAGES,
    ),
    "create-project": _COMPOSER_EVERY + _COMPOSER_INSTALL + ("post-root-package-install", "post-create-project-cmd"),
    **dict.fromkeys(("dump-autoload", "dumpautoload"), _COMPOSER_EVERY + _COMPOSER_AUTOLOAD),
    "status": (*_COMPOSER_EVERY, "pre-status-cmd", "post-status-cmd"),
    "archive": (*_COMPOSER_EVERY, "pre-archive-cmd", "post-archive-cmd"),
}


def composer_scripts(
    text: str, events: Sequence[str], where: str = "composer.json", depth: int = 0
) -> list[RecipeLine]:
    """The ``scripts`` of ``events`` that composer.json ``text`` (the file ``where``) defines, as the lines they run
    (getcomposer.org "Scripts": a string or an array of strings, each a command line or a PHP callback
    ``Class::method``, run as written; ``@php ARGS`` runs ``php ARGS``, ``@composer ARGS`` runs ``composer ARGS``,
    ``@putenv NAME=VALUE`` sets a variable, ``@NAME`` runs the script NAME).

    Raises:
        ValueError: not JSON, a script that is neither a string nor an array of strings, or references more than 8
            deep (a cycle).
    """
    data = json.loads(text)
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if scripts is None:
        return []
    if not isinstance(scripts, dict) or depth > 8:
        raise ValueError("scripts is not an object, or its references go too deep")
    out: list[RecipeLine] = []
    for event in events:
        value = scripts.get(event)
        items = [value] if isinstance(value, str) else value if isinstance(value, list) else None
        if value is None:
            continue
        if items is None or not all(isinstance(item, str) for item in items):
            raise ValueError(f"scripts.{event} is not a string or an array of strings")
        for item in items:
            source = f"{where} scripts.{event}"
            line = str(item).strip()
            head, _, rest = line[1:].partition(" ")
            if not line.startswith("@"):
                out.append(RecipeLine(source, line))
            elif head in ("php", "composer"):
                out.append(RecipeLine(source, f"{head} {rest}".strip()))
            elif head == "putenv":
                out.append(RecipeLine(source, f"export {rest}"))
            else:
                out += composer_scripts(text, [head], where, depth + 1)
    return out


def _composer_defines(text: str, name: str) -> bool:
    """True when composer.json ``text`` defines the script ``name`` (an empty one runs nothing)."""
    data = json.loads(text)
    scripts = data.get("scripts") if isinstance(data, dict) else None
    return isinstance(scripts, dict) and name in scripts


def package_script(
    text: str, name: str, *, pre_post: bool = True, env_builtin: bool = False, restart_default: bool = False
) -> list[RecipeLine] | None:
    """``scripts[name]`` with ``pre``/``post`` scripts (npm runs them, and pnpm as its settings say), or None.

    ``npm start`` without a start script runs ``node server.js`` (npm-start(1)). With ``restart_default`` (npm),
    ``npm restart`` without a restart script runs the stop script and then start, its default too (npm-restart(1):
    "equivalent to running npm stop --if-present && npm start"). With ``env_builtin`` (npm, yarn), ``npm run env``
    without an env script runs npm's built-in, which lists the environment variables (npm-run-script(1): "env ... a
    special built-in command that can be used to list environment variables"; yarn run: "yarn run env: Running this
    command will list environment variables available to the scripts at runtime"): the line ``env``. A missing
    script: None.
    """
    data = json.loads(text)
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        scripts = {}
    out: list[RecipeLine] = []
    order = [f"pre{name}", name, f"post{name}"] if pre_post else [name]
    for key in order:
        value = scripts.get(key)
        if isinstance(value, str):
            out.append(RecipeLine(f"package.json scripts.{key}", value))
        elif value is not None:
            return None
    if not any(line.source.endswith(f".{name}") for line in out):
        if name == "restart" and restart_default:
            stop = package_script(text, "stop", pre_post=pre_post) or []
            start = package_script(text, "start", pre_post=pre_post) or []
            return out + stop + start
        if name == "start":
            return out + [RecipeLine("npm start default", "node server.js")]
        if name == "env" and env_builtin:
            return out + [RecipeLine("run env built-in", "env")]
        return None
    return out


# -- Makefile -----------------------------------------------------------------------------------
# The patterns here are compiled on first use, through re's own cache (re.match(PATTERN, ...)): compiling them at
# import costs ~2 ms, and the adapters load this module on every tool call though most commands run no recipe.
_ASSIGN = r"^(?:(?:override|export|private)\s+)*([A-Za-z0-9_.\-]+)\s*([:+?!]*=)\s*(.*)$"
_RULE = r"^([^:=#\t][^:=#]*?)\s*(::?)(?!=)\s*(.*)$"
_VAR = r"\$(?:\(([^()$]*)\)|\{([^{}$]*)\}|(.))"
_SAFE_SHELLS = frozenset({"/bin/sh", "/bin/bash", "/usr/bin/bash", "/usr/bin/sh", "/bin/dash", "sh", "bash"})
_BUILTIN_VARS = {
    "MAKE": "make", "CC": "cc", "CXX": "g++", "CPP": "cc -E", "AR": "ar", "AS": "as", "LD": "ld", "RM": "rm -f",
    "FC": "f77", "LEX": "lex", "YACC": "yacc", "MAKEFLAGS": "", "CURDIR": ".", "SHELL": "/bin/sh",
}  # fmt: skip


class _Rule(Record):
    __slots__ = ("prereqs", "lines")

    def __init__(self, prereqs: list[str] | None = None, lines: list[tuple[int, str]] | None = None) -> None:
        self.prereqs: list[str] = [] if prereqs is None else prereqs
        self.lines: list[tuple[int, str]] = [] if lines is None else lines


class _Makefile(Record):
    __slots__ = (
        "name",
        "variables",
        "rules",
        "patterns",
        "order",
        "load_lines",
        "incomplete",
        "oneshell",
        "unsafe_shell",
        "included",
        "exists",
        "pasted",
        "plain_dir",
        "dry_run",
    )

    def __init__(self, name: str) -> None:
        self.name = name
        self.exists: Callable[[str], bool] | None = None
        self.variables: dict[str, str | None] = {}
        self.rules: dict[str, _Rule] = {}
        self.patterns: list[tuple[str, _Rule]] = []
        self.order: list[str] = []
        self.load_lines: list[RecipeLine] = []
        self.incomplete = False
        self.oneshell = False
        self.unsafe_shell = False
        self.included: list[str] = []
        self.pasted: dict[str, list[str]] = {}  # variable -> what any of its values pastes (:func:`_pastes`)
        self.plain_dir = True  # make's directory has a plain absolute path (``$(CURDIR)``, ``pwd``)
        self.dry_run = False  # make -n/-q: only the goal's lines that still run (:func:`_runs_in_dry_run`)


#: Environment variables make passes on to recipes with the makefile's value (GNU make manual, "Communicating
#: Variables to a Sub-make": a variable from the environment is exported): they choose the programs, libraries and
#: start-up files of every recipe line, so an assignment to one makes the makefile unreadable.
_RECIPE_ENVIRONMENT = frozenset({
    "PATH", "HOME", "BASH_ENV", "ENV", "LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES",
    "DYLD_LIBRARY_PATH", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "NODE_OPTIONS", "NODE_PATH", "PERL5OPT",
    "PERL5LIB", "RUBYOPT", "RUBYLIB", "XDG_CONFIG_HOME", "GIT_DIR", "GIT_EXEC_PATH", "GIT_CONFIG_GLOBAL",
})  # fmt: skip


def make_recipe(
    text: str,
    target: str,
    name: str,
    read_include: object = None,
    overrides: Iterable[str] = (),
    exists: Callable[[str], bool] | None = None,
    plain_dir: bool = True,
    dry_run: bool = False,
) -> list[RecipeLine] | None:
    """The commands ``make TARGET`` runs, read from Makefile ``text`` (``target`` ``""``: the default goal).

    Returns recipe lines (prerequisites' first, then the target's), preceded by what runs whenever make
    reads the file (``$(shell ...)``, ``VAR != ...``). None when the file cannot be read completely: an
    include that cannot be read (also an optional ``-include`` of a missing file: make would look for it in
    ``-I`` directories and /usr/local/include, /usr/gnu/include, /usr/include, and run a rule that makes it;
    GNU make manual, "Including Other Makefiles"), or a line the parser does not know (``$(eval ...)``,
    ``load``, a function other than the text functions, ``shell`` and ``call`` of a named variable), an ``export``
    of a name that is not inert (the recipes' environment: ``BASH_ENV``, ``PATH``...), an assignment to a variable
    that changes how make reads or runs (``.SHELLFLAGS``, ``MAKEFLAGS``, ``MAKEFILES``...), a special target FlyBot
    does not know (``.SECONDEXPANSION``, ``.EXPORT_ALL_VARIABLES``, a suffix rule) or a static pattern rule,
    an assignment to an environment variable make passes to recipes that chooses their programs
    (:data:`_RECIPE_ENVIRONMENT`: ``PATH``, ``LD_PRELOAD``...), or an included makefile that a rule of the makefile
    makes (make remakes it and reads the new one).
    ``$(shell ...)`` in conditionals and ``define`` bodies counts as run on load. Order-only prerequisites and every
    ``::`` rule of a target are included. A target with no rule runs the ``.DEFAULT`` rule when there is one, else nothing but the
    load-time lines. ``SHELL`` set to a program other than sh/bash (also by ``SHELL != CMD`` and ``define SHELL``)
    makes every recipe line ``$FLYBOT_UNKNOWN``
    (run by a program the classifier cannot see). ``overrides``: variables set on the command line or in the
    environment (``make test CC=...``): their values are unknown, and they win over the makefile's assignments.
    ``exists``: whether a file (relative to make's directory) is there, to tell which built-in rules apply
    (:func:`_builtin_lines`); None: every one may. A recipe line into which make pastes a program's output or file
    names (:func:`_pastes`) holds :data:`PASTED`, and its source says what is pasted; ``plain_dir``: whether the
    absolute path of make's directory (``$(CURDIR)``, the output of ``pwd``) holds only plain characters.
    ``dry_run``: ``make -n`` or ``make -q`` (GNU make manual, "Instead of Executing Recipes": recipes are printed,
    or not run, except a line that starts with ``+`` or refers to ``$(MAKE)``, :func:`_runs_in_dry_run`): of the
    goal's recipes only such lines and the ``$(shell ...)`` calls make expands to print a line are kept; what runs on
    load and the rule that remakes the makefile itself ("How Makefiles Are Remade": it runs under -n too) are kept.
    """
    mk = _Makefile(name)
    mk.exists = exists
    mk.plain_dir = plain_dir
    for variable in overrides:
        mk.variables[variable] = None  # stays None: an assignment to an unknown variable keeps it unknown
    _parse_make(mk, text, name, read_include, depth=0)
    for included in mk.included:
        if included in mk.rules or any(_match(pattern, included) is not None for pattern, _rule in mk.patterns):
            mk.incomplete = True  # make remakes it first, then reads the new one (GNU make, "How Makefiles Are Remade")
    if mk.incomplete:
        return None
    goal = target or _default_goal(mk)
    if goal is None:
        return list(mk.load_lines)
    out: list[RecipeLine] = list(mk.load_lines)
    seen: set[str] = set()
    # GNU make manual, "How Makefiles Are Remade": make first updates the makefile itself by any rule that makes it
    # (explicit or pattern), then reads it again: that rule's lines run before the goal's
    _collect(mk, posixpath.basename(name), out, seen, depth=0)
    mk.dry_run = dry_run
    if not _collect(mk, goal, out, seen, depth=0):
        _no_rule(mk, goal, out, seen, depth=0)
    return out[: MAX_LINES * 4]


def _no_rule(mk: _Makefile, target: str, out: list[RecipeLine], seen: set[str], depth: int) -> None:
    """What make may run for ``target``, a goal or prerequisite no rule of the makefile makes: a built-in rule
    (:func:`_builtin_lines`), else, for a file that does not exist, the ``.DEFAULT`` recipe (GNU make manual,
    "Special Built-in Target Names": "used for any target for which no rules are found", prerequisites too). Whether
    the file exists is not looked at: both are graded."""
    _builtin_lines(mk, target, out)
    if ".DEFAULT" in mk.rules:
        _collect(mk, ".DEFAULT", out, seen - {".DEFAULT"}, depth, stem_of=target)


#: The variables of make's built-in rules and their default values (``make -p -f /dev/null``, GNU make 4.3),
#: besides :data:`_BUILTIN_VARS`; the flags and ``TARGET_*`` variables have none (empty).
_BUILTIN_DEFS = {
    "OUTPUT_OPTION": "-o $@", "COMPILE.c": "$(CC) $(CFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c",
    "COMPILE.cc": "$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c", "COMPILE.C": "$(COMPILE.cc)",
    "COMPILE.cpp": "$(COMPILE.cc)", "COMPILE.m": "$(OBJC) $(OBJCFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c",
    "COMPILE.p": "$(PC) $(PFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c", "COMPILE.f": "$(FC) $(FFLAGS) $(TARGET_ARCH) -c",
    "COMPILE.F": "$(FC) $(FFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c",
    "COMPILE.r": "$(FC) $(FFLAGS) $(RFLAGS) $(TARGET_ARCH) -c", "COMPILE.s": "$(AS) $(ASFLAGS) $(TARGET_MACH)",
    "COMPILE.S": "$(CC) $(ASFLAGS) $(CPPFLAGS) $(TARGET_MACH) -c",
    "COMPILE.mod": "$(M2C) $(M2FLAGS) $(MODFLAGS) $(TARGET_ARCH)",
    "COMPILE.def": "$(M2C) $(M2FLAGS) $(DEFFLAGS) $(TARGET_ARCH)", "LINK.o": "$(CC) $(LDFLAGS) $(TARGET_ARCH)",
    "LINK.c": "$(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)",
    "LINK.cc": "$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)", "LINK.C": "$(LINK.cc)",
    "LINK.cpp": "$(LINK.cc)", "LINK.m": "$(OBJC) $(OBJCFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)",
    "LINK.p": "$(PC) $(PFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)",
    "LINK.f": "$(FC) $(FFLAGS) $(LDFLAGS) $(TARGET_ARCH)", "LINK.F": "$(FC) $(FFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)",
    "LINK.r": "$(FC) $(FFLAGS) $(RFLAGS) $(LDFLAGS) $(TARGET_ARCH)",
    "LINK.s": "$(CC) $(ASFLAGS) $(LDFLAGS) $(TARGET_MACH)", "LINK.S": "$(CC) $(ASFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_MACH)",
    "PREPROCESS.F": "$(FC) $(FFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -F", "PREPROCESS.r": "$(FC) $(FFLAGS) $(RFLAGS) $(TARGET_ARCH) -F",
    "PREPROCESS.S": "$(CC) -E $(CPPFLAGS)", "YACC.y": "$(YACC) $(YFLAGS)", "YACC.m": "$(YACC) $(YFLAGS)",
    "LEX.l": "$(LEX) $(LFLAGS) -t", "LEX.m": "$(LEX) $(LFLAGS) -t", "LINT.c": "$(LINT) $(LINTFLAGS) $(CPPFLAGS) $(TARGET_ARCH)",
    "CHECKOUT,v": "$(CO) $(COFLAGS) $< $@", "OBJC": "cc", "PC": "pc", "M2C": "m2c", "LINT": "lint", "TEX": "tex",
    "TEXI2DVI": "texi2dvi", "MAKEINFO": "makeinfo", "CTANGLE": "ctangle", "CWEAVE": "cweave", "TANGLE": "tangle",
    "WEAVE": "weave", "GET": "get", "CO": "co", "ARFLAGS": "rv",
}  # fmt: skip
_LINK = "$^ $(LOADLIBES) $(LDLIBS) -o $@"
#: make's built-in rules (``make -p -f /dev/null``, GNU make 4.3; GNU make manual, "Catalogue of Built-In Rules"):
#: target pattern, source suffix, recipe lines. ``%`` rules apply to a name no other built-in target pattern matches
#: (GNU make manual, "Match-Anything Pattern Rules": a non-terminal match-anything rule is not used for a name that
#: "indicates a specific type of data"); the ``%::`` version-control rules and ``(%)`` archive members to any name.
_BUILTIN_RULES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    *(("%", f".{s}", (f"$(LINK.{s}) {_LINK}",)) for s in ("o", "c", "cc", "C", "cpp", "p", "f", "F", "m", "r", "s", "S")),
    ("%", ".mod", ("$(COMPILE.mod) -o $@ -e $@ $^",)),
    ("%", ".sh", ("cat $< >$@", "chmod a+x $@")),
    *(("%.o", f".{s}", (f"$(COMPILE.{s}) $(OUTPUT_OPTION) $<",)) for s in ("c", "cc", "C", "cpp", "p", "f", "F", "m", "r")),
    ("%.o", ".s", ("$(COMPILE.s) -o $@ $<",)), ("%.o", ".S", ("$(COMPILE.S) -o $@ $<",)),
    ("%.o", ".mod", ("$(COMPILE.mod) -o $@ $<",)),
    ("%.ln", ".c", ("$(LINT.c) -C$* $<",)), ("%.ln", ".y", ("$(YACC.y) $<", "$(LINT.c) -C$* y.tab.c")),
    ("%.ln", ".l", ("$(LEX.l) $< > $*.c", "$(LINT.c) -i $*.c -o $@")),
    ("%.f", ".F", ("$(PREPROCESS.F) $(OUTPUT_OPTION) $<",)), ("%.f", ".r", ("$(PREPROCESS.r) $(OUTPUT_OPTION) $<",)),
    ("%.c", ".y", ("$(YACC.y) $<", "mv -f y.tab.c $@")), ("%.c", ".l", ("$(RM) $@", "$(LEX.l) $< > $@")),
    ("%.c", ".w", ("$(CTANGLE) $< - $@",)), ("%.r", ".l", ("$(LEX.l) $< > $@", "mv -f lex.yy.r $@")),
    ("%.m", ".ym", ("$(YACC.m) $<", "mv -f y.tab.c $@")), ("%.s", ".S", ("$(PREPROCESS.S) $< > $@",)),
    ("%.sym", ".def", ("$(COMPILE.def) -o $@ $<",)), ("%.dvi", ".tex", ("$(TEX) $<",)),
    *(("%.info", f".{s}", ("$(MAKEINFO) $(MAKEINFO_FLAGS) $< -o $@",)) for s in ("texinfo", "texi", "txinfo")),
    *(("%.dvi", f".{s}", ("$(TEXI2DVI) $(TEXI2DVI_FLAGS) $<",)) for s in ("texinfo", "texi", "txinfo")),
    ("%.tex", ".w", ("$(CWEAVE) $< - $@",)), ("%.p", ".web", ("$(TANGLE) $<",)), ("%.tex", ".web", ("$(WEAVE) $<",)),
    ("%::", ",v", ("$(CHECKOUT,v)",)), ("%::", "", ("$(GET) $(GFLAGS) $(SCCS_OUTPUT_OPTION) $<",)),
    ("(%)", "", ("$(AR) $(ARFLAGS) $@ $<",)),
)  # fmt: skip
#: Target suffixes some built-in rule makes (``make -p``: the ``.SUFFIXES`` list): a name ending in one is not made
#: by a ``%`` rule.
_BUILTIN_SUFFIXES = (
    ".out", ".a", ".ln", ".o", ".c", ".cc", ".C", ".cpp", ".p", ".f", ".F", ".m", ".r", ".y", ".l", ".ym", ".yl",
    ".s", ".S", ".mod", ".sym", ".def", ".h", ".info", ".dvi", ".tex", ".texinfo", ".texi", ".txinfo", ".w", ".ch",
    ".web", ".sh", ".elc", ".el",
)  # fmt: skip


def _builtin_uses(text: str, depth: int = 0) -> set[str]:
    """The variables a built-in recipe ``text`` uses, through :data:`_BUILTIN_DEFS` too."""
    names = set(re.findall(r"\$\(([^()$ ]+)\)", text))
    if depth < 4:
        for name in list(names):
            if name in _BUILTIN_DEFS:
                names |= _builtin_uses(_BUILTIN_DEFS[name], depth + 1)
    return names


def _builtin_lines(mk: _Makefile, target: str, out: list[RecipeLine], depth: int = 0) -> bool:
    """Append the recipes of make's built-in rules that may make ``target`` and that use a variable the makefile or
    the command line sets (``CC = ...``, ``COMPILE.c = ...``): those run what the makefile chose; True when some
    built-in rule may make it. A rule may apply when its source is there (``mk.exists``; unknown: it may be) or
    another built-in rule may make the source (a chain: ``x.y`` to ``x.c`` to ``x.o``; GNU make manual, "Chains of
    Implicit Rules"), whose recipes are appended too. A built-in rule using only make's defaults runs the usual
    compilers and tools (``cc``, ``as``, ``yacc``...), as make itself is graded."""
    if not mk.variables or depth > 3:
        return False
    specific = any(target.endswith(suffix) for suffix in _BUILTIN_SUFFIXES)
    found = False
    for pattern, source, lines in _BUILTIN_RULES:
        if pattern == "(%)":
            fits = target.endswith(")") and "(" in target
        elif pattern in ("%", "%::"):
            fits = pattern == "%::" or not specific
        else:
            fits = target.endswith(pattern[1:])
        if not fits:
            continue
        stem = target[: len(target) - len(pattern) + 1] if pattern.startswith("%.") else target
        first = stem + source
        if pattern == "%::":
            head, _, tail = stem.rpartition("/")
            head = head + "/" if head else ""
            sources = [f"{head}RCS/{tail},v", f"{head}{tail},v", f"{head}RCS/{tail}"] if source else []
            sources = sources or [f"{head}s.{tail}", f"{head}SCCS/s.{tail}"]
            first = sources[0]
            there = mk.exists is None or any(mk.exists(path) for path in sources)
        elif pattern == "(%)":
            there = True
        else:
            there = mk.exists is None or mk.exists(first)
            if not there and pattern != "%" and first not in mk.rules:
                mark = len(out)
                there = _builtin_lines(mk, first, out, depth + 1)
                del out[mark if not there else len(out) :]
        if not there:
            continue
        found = True
        if not any(name in mk.variables for line in lines for name in _builtin_uses(line)):
            continue
        auto = {"@": target, "<": first, "^": first, "+": first, "?": first, "*": stem}
        for line in lines:
            expanded = _expand(mk, line, auto, builtin=True)
            if expanded.strip():
                out.append(RecipeLine(f"{mk.name} (built-in rule {pattern} from %{source}: {target})"[:200], expanded))
    return found


def _default_goal(mk: _Makefile) -> str | None:
    goal = mk.variables.get(".DEFAULT_GOAL")
    if goal:
        return goal.strip()
    return next((t for t in mk.order if not t.startswith(".") and "%" not in t), None)


def _parse_make(mk: _Makefile, text: str, name: str, read_include: object, depth: int) -> None:
    lines = text.split("\n")
    index = 0
    current: list[_Rule] = []
    conditional = 0
    in_define = False
    defining = ""
    while index < len(lines):
        number = index + 1
        line = lines[index]
        index += 1
        while line.endswith("\\") and index < len(lines):
            line = line[:-1] + " " + lines[index].lstrip() if not line.startswith("\t") else line + "\n" + lines[index]
            index += 1
        if not _functions_known(line):
            mk.incomplete = True  # a make function that writes files, evaluates text or calls one chosen at run time
        if in_define:
            if line.strip() == "endef":
                in_define = False
            else:  # a define's body: any $(shell ...) in it may run when make reads the file (define X :=)
                for shell in _shell_calls(line):
                    mk.load_lines.append(RecipeLine(f"{name}:{number} ($(shell))", shell))
                pasted = _pastes(mk, line)
                if pasted and defining:
                    mk.pasted[defining] = mk.pasted.get(defining, []) + pasted
            continue
        if line.startswith("\t") and current:
            for rule in current:
                rule.lines.append((number, line[1:]))
            continue
        stripped = line.split("#", 1)[0].strip() if "#" in line and not line.lstrip().startswith("\t") else line.strip()
        if not stripped:
            continue
        word = stripped.split(None, 1)[0]
        if word in ("ifeq", "ifneq", "ifdef", "ifndef", "else"):
            for shell in _shell_calls(stripped):  # a condition is expanded when make reads the file
                mk.load_lines.append(RecipeLine(f"{name}:{number} ($(shell))", shell))
        if word in ("ifeq", "ifneq", "ifdef", "ifndef"):
            conditional += 1
            continue
        if word == "else":
            continue
        if word == "endif":
            conditional = max(0, conditional - 1)
            continue
        head = stripped.split()
        while head and head[0] in ("override", "export", "private"):
            head = head[1:]
        if head[:1] == ["define"]:
            in_define = True
            defining = head[1] if len(head) > 1 else ""
            if len(head) > 1:
                mk.variables[head[1]] = None
                if head[1] == "SHELL":
                    mk.unsafe_shell = True  # define SHELL ... endef: recipes run by the program it names
                if head[1] in _RECIPE_ENVIRONMENT or _make_special(head[1]):
                    mk.incomplete = True
            current = []
            continue
        if word in ("include", "-include", "sinclude"):
            current = []
            _include(mk, stripped.split()[1:], read_include, depth)
            continue
        if word == "export" and not _exports_inert(stripped):
            mk.incomplete = True  # the recipes' environment: BASH_ENV, PATH... change what their programs run
        if word in ("export", "unexport", "vpath", "override") and "=" not in stripped:
            continue
        for shell in _shell_calls(stripped):
            mk.load_lines.append(RecipeLine(f"{name}:{number} ($(shell))", shell))
        assign = re.match(_ASSIGN, stripped)
        if assign:
            var, op, value = assign.group(1), assign.group(2), assign.group(3)
            current = []
            if _make_special(var) or (var == ".DEFAULT_GOAL" and "$" in value) or var in _RECIPE_ENVIRONMENT:
                mk.incomplete = (
                    True  # .SHELLFLAGS, .RECIPEPREFIX, MAKEFLAGS, MAKEFILES, PATH...: how make reads or runs
                )
            if var == "SHELL" and op == "!=":
                mk.unsafe_shell = True

            pasted = _pastes(mk, f"$(shell {value})" if op == "!=" else value)
            if pasted:
                mk.pasted[var] = (mk.pasted.get(var, []) if op in ("+=", "?=") or conditional else []) + pasted
            elif not (op in ("+=", "?=") or conditional):
                mk.pasted.pop(var, None)
            if op == "!=":
                mk.load_lines.append(RecipeLine(f"{name}:{number} ({var} !=)", _expand(mk, value, {})))
                mk.variables[var] = None
                continue
            if var == "SHELL" and _expand(mk, value, {}).strip() not in _SAFE_SHELLS:
                mk.unsafe_shell = True
            if conditional or var in mk.variables and mk.variables[var] is None:
                mk.variables[var] = None
            elif op == "+=":
                before = mk.variables.get(var, "")
                mk.variables[var] = None if before is None else f"{before} {value}".strip()
            elif op == "?=":
                mk.variables.setdefault(var, value)
            else:
                mk.variables[var] = value
            continue
        found = re.match(_RULE, stripped)
        if found is None:
            current = []
            if re.match(r"^\$[({](?:info|warning|error)\s[^$]*[)}]$", stripped) is None:
                mk.incomplete = True  # a line the parser does not know ($(eval ...), load, a function call...)
            continue
        targets = found.group(1).split()
        rest = found.group(3)
        inline = None
        if ";" in rest:
            rest, inline = rest.split(";", 1)
        if "=" in rest and not rest.strip().startswith("="):  # a target-specific variable
            var = re.match(_ASSIGN, rest.strip())
            if (
                var is None
                or _make_special(var.group(1))
                or var.group(1) in _RECIPE_ENVIRONMENT
                or (rest.strip().startswith("export") and not _exports_inert(rest.strip()))
            ):
                mk.incomplete = True
            if var and (var.group(1) == "SHELL" or var.group(1) in mk.variables):
                mk.variables[var.group(1)] = None
            pasted = _pastes(mk, var.group(3)) if var else []
            if var and pasted:
                mk.pasted[var.group(1)] = mk.pasted.get(var.group(1), []) + pasted
            if var and var.group(1) == "SHELL":
                mk.unsafe_shell = True
            current = []
            continue
        prereqs = [p for p in rest.replace("|", " ").split()]
        current = []
        if ":" in rest.replace("::", ""):
            mk.incomplete = True  # a static pattern rule (targets: pattern: prerequisites)
        for name_ in targets:
            if name_ == ".ONESHELL":
                mk.oneshell = True
            if name_.startswith(".") and name_ not in _KNOWN_SPECIAL_TARGETS:
                mk.incomplete = True  # .SECONDEXPANSION, .EXPORT_ALL_VARIABLES, a suffix rule (.c.o:)...
            if "%" in name_:
                rule_obj = _Rule(prereqs)
                mk.patterns.append((name_, rule_obj))
            else:
                rule_obj = mk.rules.setdefault(name_, _Rule())
                rule_obj.prereqs.extend(prereqs)
                if name_ not in mk.order:
                    mk.order.append(name_)
            current.append(rule_obj)
            if inline is not None and inline.strip():
                rule_obj.lines.append((number, inline.strip()))


#: Special targets (GNU make manual, "Special Built-in Target Names") that change nothing FlyBot grades: any other
#: target starting with ``.`` (``.SECONDEXPANSION``, ``.EXPORT_ALL_VARIABLES``, a suffix rule) makes the file unreadable.
_KNOWN_SPECIAL_TARGETS = frozenset({
    ".PHONY", ".DEFAULT", ".PRECIOUS", ".INTERMEDIATE", ".NOTINTERMEDIATE", ".SECONDARY", ".DELETE_ON_ERROR",
    ".IGNORE", ".SILENT", ".NOTPARALLEL", ".ONESHELL", ".POSIX", ".LOW_RESOLUTION_TIME", ".WAIT", ".SUFFIXES",
})  # fmt: skip
#: make functions (GNU make manual, "Functions for Transforming Text") that only compute text, print or stop, plus
#: ``shell`` (its commands are graded) and ``call`` of a named variable: any other (``file``, ``eval``, ``guile``,
#: ``call`` of a function or of a computed name) makes the file unreadable.
_TEXT_FUNCTIONS = frozenset({
    "subst", "patsubst", "strip", "findstring", "filter", "filter-out", "sort", "word", "wordlist", "words",
    "firstword", "lastword", "dir", "notdir", "suffix", "basename", "addsuffix", "addprefix", "join", "wildcard",
    "realpath", "abspath", "if", "or", "and", "intcmp", "foreach", "let", "origin", "flavor", "info", "warning",
    "error", "value", "shell",
})  # fmt: skip
_ALL_FUNCTIONS = _TEXT_FUNCTIONS | {"call", "eval", "file", "guile"}
#: Environment names that change only output, colour, locale or time zone (they name no program, file, option or
#: code), and ``LC_*``: a makefile may export them, a project recipe runner (programs/projects.py) or a command a
#: standing approval covers (bot/standing.py) given them still runs as read. Any other name set before a program runs
#: (``FOO=bar make test``, ``export X=...; npm test``, ``HOME=/tmp/x git push``, ``RUSTC_WRAPPER=/tmp/x cargo
#: install``) may change what that program does.
INERT_ENVIRONMENT = frozenset({
    "CI", "FORCE_COLOR", "NO_COLOR", "CLICOLOR", "TERM", "COLUMNS", "LINES", "TZ", "LANG", "LANGUAGE",
    "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "RUST_BACKTRACE",
    # bash(1) IFS (word splitting; bash never imports it from the environment); the target platform of a Go build
    # and whether it uses cgo (go help environment); the log filter of Rust programs (env_logger RUST_LOG); the
    # mode of a Node.js project's own code (NODE_ENV); Python's hash seed and I/O encoding (python(1)); commit
    # identities and dates (git-commit-tree(1)), and git's credential prompt switch (git(1) GIT_TERMINAL_PROMPT);
    # reproducible-build time (SOURCE_DATE_EPOCH).
    "IFS", "GOOS", "GOARCH", "GOARM", "GOAMD64", "CGO_ENABLED", "GOMAXPROCS", "RUST_LOG", "RUST_LIB_BACKTRACE",
    "NODE_ENV", "PYTHONHASHSEED", "PYTHONIOENCODING", "PYTHONUTF8", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL",
    "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE", "GIT_TERMINAL_PROMPT",
    "SOURCE_DATE_EPOCH",
})  # fmt: skip


def inert_environment(name: str) -> bool:
    """True when setting ``name`` changes only output, colour, locale or time zone (:data:`INERT_ENVIRONMENT`)."""
    return name in INERT_ENVIRONMENT or name.startswith("LC_")


def _make_special(var: str) -> bool:
    """A variable that changes how make reads the makefile or runs recipes (GNU make manual, "Special Variables",
    "Choosing the Shell", "The Variable MAKEFILES"); ``SHELL`` is checked on its own (sh and bash are fine)."""
    return (
        (var.startswith(".") and var != ".DEFAULT_GOAL") or var.startswith("MAKE") or var in ("MFLAGS", "GNUMAKEFLAGS")
    )


def _exports_inert(line: str) -> bool:
    """True when an ``export`` line exports only names of :data:`INERT_ENVIRONMENT` (a bare ``export`` exports all)."""
    words = line.split("=", 1)[0].replace(":", " ").replace("+", " ").replace("?", " ").replace("!", " ").split()
    names = [w for w in words if w not in ("export", "override", "private")]
    return bool(names) and all(inert_environment(n) for n in names)


def _functions_known(line: str) -> bool:
    """False when ``line`` calls a make function outside :data:`_TEXT_FUNCTIONS` (``$$`` is a literal ``$``)."""
    text = line.replace("$$", "")
    for match in re.finditer(r"\$[({]([^\s(){}$:=#,]+)[\s,]", text):
        function = match.group(1)
        if function == "call":
            called = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*[,)}]", text[match.end() :])
            if called is None or called.group(1) in _ALL_FUNCTIONS:
                return False
        elif function not in _TEXT_FUNCTIONS:
            return False
    return True


def _include(mk: _Makefile, names: list[str], read_include: object, depth: int) -> None:
    for word in names:
        expanded = _expand(mk, word, {}) if "$" in word else word
        mk.included += expanded.split()
        for included in expanded.split():
            if (
                UNKNOWN in included
                or PASTED in included
                or depth >= 3
                or not callable(read_include)
                or included.startswith("/")
                or ".." in included
            ):
                mk.incomplete = True
                continue
            try:
                text = read_include(included)
            except (OSError, ValueError, UnicodeDecodeError):
                mk.incomplete = True
                continue
            _parse_make(mk, str(text), included, read_include, depth + 1)


def _shell_calls(text: str) -> list[str]:
    """The commands in ``$(shell ...)``/``${shell ...}`` calls (balanced parentheses)."""
    out: list[str] = []
    for match in re.finditer(r"\$[({]shell\s", text):
        start = match.end()
        depth = 1
        index = start
        close = ")" if text[match.start() + 1] == "(" else "}"
        opener = "(" if close == ")" else "{"
        while index < len(text) and depth:
            if text[index] == opener:
                depth += 1
            elif text[index] == close:
                depth -= 1
            index += 1
        out.append(text[start : index - 1] if depth == 0 else text[start:] + " " + UNKNOWN)
    return out


#: Programs known to print only plain text (letters, digits, ``._-+/:%,``, spaces), whose output pasted into a recipe
#: line cannot be read by the shell as code (each a full command, spaces collapsed, optionally with ``2>/dev/null``):
#: date(1) with a format of plain characters (its fields print digits, names and ``:``), uname(1) ``-s -m -r -p -i
#: -o`` (kernel name, machine, release, processor, platform, system), nproc(1) and getconf(1) ``_NPROCESSORS_ONLN``
#: (a number), ``git rev-parse [--verify] [--short[=N]] HEAD`` (git-rev-parse(1): a hexadecimal object name, or
#: ``HEAD`` when there is none; not ``--abbrev-ref``, whose branch names may hold ``;``, ``$(...)``, quotes and
#: backticks: git-check-ref-format(1) forbids only space, ``~^:?*[\``, control characters and ``..``/``@{``), and
#: ``go env`` of GOOS, GOARCH, GOHOSTOS, GOHOSTARCH, GOVERSION, GOEXE (values go checks), GOPATH and GOROOT (paths set by
#: the user's environment, go's settings file outside the workspace (``go env -w``) or the Go installation: an
#: agent changes them only by a command graded on its own). ``git describe`` is not here: it prints tag names, which
#: may hold shell syntax (a tag ``v1$(touch${IFS}x)`` runs inside double quotes too). ``pwd`` is plain when the
#: absolute path of make's directory is (:func:`_plain_path`).
_PLAIN_OUTPUT = (
    r"date(?: -u| --utc)*(?: (?:\+[%\w:.\-/]*|'\+[%\w:.\-/ ]*'|\"\+[%\w:.\-/ ]*\"))?(?: -u| --utc)*",
    r"uname(?: -[smrpio]+)*",
    r"nproc|getconf _NPROCESSORS_ONLN",
    r"git rev-parse(?: --verify)?(?: --short(?:=\d+)?)?(?: --verify)? HEAD",
    r"go env(?: (?:GOOS|GOARCH|GOHOSTOS|GOHOSTARCH|GOVERSION|GOEXE|GOPATH|GOROOT))+",
)


def _plain_output(command: str, plain_dir: bool) -> bool:
    """True when ``command`` prints only plain text (:data:`_PLAIN_OUTPUT`; ``pwd`` when ``plain_dir``)."""
    text = re.sub(r"\s+", " ", command).strip()
    text = re.sub(r" ?2> ?/dev/null$", "", text)
    if text == "pwd":
        return plain_dir
    return any(re.fullmatch(pattern, text) for pattern in _PLAIN_OUTPUT)


def _plain_path(path: str) -> bool:
    """True when ``path`` holds only characters the shell reads as part of one word (no space, quote, ``$``, ``;``,
    glob or other shell syntax)."""
    return re.fullmatch(r"[\w./@%+,:=\-]*", path) is not None


def _balanced(text: str, start: int) -> str:
    """The make reference starting at ``text[start]`` (``$(`` or ``${``), up to its matching close (or the end)."""
    opener = text[start + 1]
    close = ")" if opener == "(" else "}"
    depth = 0
    for index in range(start + 1, len(text)):
        if text[index] == opener:
            depth += 1
        elif text[index] == close:
            depth -= 1
            if depth == 0:
                return text[start : index + 1]
    return text[start:]


def _pastes(mk: _Makefile, text: str, depth: int = 0) -> list[str]:
    """What make text ``text`` pastes that comes from a program's output or file names: ``$(shell CMD)`` (CMD not
    in :data:`_PLAIN_OUTPUT`), ``$(wildcard ...)`` and ``$(realpath ...)`` (names of files the agent may have made:
    a file name may hold ``;`` or ``$(...)``), ``$(CURDIR)`` when make's directory has a path that is not plain, and
    variables whose value does (also a value only known at run time, recorded in ``mk.pasted``)."""
    if "$" not in text or depth > 8:
        return []
    text = text.replace("$$", "")
    found: list[str] = []
    for command in _shell_calls(text):
        if not _plain_output(command, mk.plain_dir):
            command = re.sub(r"\s+", " ", command.replace(UNKNOWN, "...")).strip()
            found.append(f"the output of `{command[:60] + '...' if len(command) > 60 else command}`")
    for function in re.findall(r"\$[({](wildcard|realpath)\s", text):
        found.append(f"file names from $({function} ...)")
    for name in re.findall(r"\$[({]([A-Za-z0-9_.\-]+)[)}:]", text) + re.findall(r"\$([A-Za-z0-9_.])", text):
        if name == "CURDIR" and not mk.plain_dir:
            found.append("the path of its directory")
        elif name in mk.pasted:
            found += mk.pasted[name]
        else:
            value = mk.variables.get(name)
            if value:
                found += _pastes(mk, value, depth + 1)
    return list(dict.fromkeys(found))


def _pasted_source(source: str, tool: str, what: list[str]) -> str:
    """``source`` naming what ``tool`` pastes into the line (at most 200 characters, the server's limit)."""
    said = " and ".join(what[:2]) + (" and more" if len(what) > 2 else "") if what else "text only known when it runs"
    text = f"{source}, where {tool} pastes {said}"
    return text if len(text) <= 200 else text[:197] + "..."


def _collect(
    mk: _Makefile, target: str, out: list[RecipeLine], seen: set[str], depth: int, stem_of: str | None = None
) -> bool:
    """Append the lines ``target`` runs (prerequisites first); False when no rule makes it. ``stem_of``: the
    target ``.DEFAULT``'s recipe is run for (its ``$@``)."""
    if target in seen or depth > 12:
        return True
    seen.add(target)
    rule = mk.rules.get(target)
    stem = None
    if rule is None or (not rule.lines and not rule.prereqs):
        for pattern, candidate in mk.patterns:
            stem = _match(pattern, target)
            if stem is not None:
                rule = candidate if rule is None else _Rule(rule.prereqs + candidate.prereqs, candidate.lines)
                break
    if rule is None:
        return False
    prereqs = [p.replace("%", stem) if stem is not None else p for p in rule.prereqs]
    for prereq in prereqs:
        names = _expand(mk, prereq, {}) if "$" in prereq else prereq
        if UNKNOWN in names or PASTED in names:  # a prerequisite only known when make runs: so is its recipe
            out.append(RecipeLine(f"{mk.name} ({target}: prerequisite {prereq[:60]})", UNKNOWN))
            continue
        for name in names.split():
            if name not in seen and not _collect(mk, name, out, seen, depth + 1):
                _no_rule(mk, name, out, seen, depth + 1)
    auto = {
        "@": stem_of if stem_of is not None else target,
        "<": prereqs[0] if prereqs else "",
        "^": " ".join(dict.fromkeys(prereqs)),
        "+": " ".join(prereqs),
        "?": " ".join(prereqs),
        "*": stem if stem is not None else UNKNOWN,
    }
    lines = rule.lines
    if not lines and not target.startswith("."):
        # GNU make manual, "Using Implicit Rules": a target whose rules have no recipe is made by an implicit rule
        _builtin_lines(mk, target, out)
    if mk.oneshell and lines:
        lines = [(lines[0][0], "\n".join(text for _, text in lines))]
    for number, text in lines:
        command = _strip_prefixes(text)
        for shell in _shell_calls(command):
            run = _expand(mk, shell, auto)
            source = f"{mk.name}:{number} ($(shell))"
            out.append(RecipeLine(_pasted_source(source, "make", _pastes(mk, shell)) if PASTED in run else source, run))
        if mk.dry_run and not _runs_in_dry_run(mk, text):
            continue
        expanded = UNKNOWN if mk.unsafe_shell else _expand(mk, command, auto)
        if expanded.strip():
            source = f"{mk.name}:{number} ({target})"
            if PASTED in expanded:
                source = _pasted_source(source, "make", _pastes(mk, command))
            out.append(RecipeLine(source, expanded))
    return True


def _runs_in_dry_run(mk: _Makefile, text: str, depth: int = 0) -> bool:
    """True when the recipe line ``text`` runs under ``make -n``/``-q`` all the same (GNU make manual, "Instead of
    Executing Recipes" and "How the MAKE Variable Works": a line starting with ``+`` (after ``@`` and ``-``), or one
    holding ``$(MAKE)``/``${MAKE}``). Fails closed: a reference to ``MAKE`` through another variable (whose value,
    followed through the makefile's variables, names it), a line of a ``.ONESHELL`` recipe after a ``+``, an unknown
    variable (a value from the environment or the command line), a function other than ``shell``, or unreadable
    text count as running."""
    if depth > 8:
        return True
    if re.search(r"(?:^|\n)[ \t]*[@\-+ \t]*\+", text) or re.search(r"\$[({]MAKE[)}:]", text):
        return True
    for name in re.findall(r"\$[({]([^()${}\s:]+)[)}:]", text) + re.findall(r"\$([A-Za-z0-9_])", text):
        if name in ("@", "<", "^", "+", "?", "*", "%", "|") or name.startswith(("@", "<", "^", "*")):
            continue
        if name not in mk.variables and name not in _BUILTIN_DEFS:
            continue  # make's own empty or built-in variables; MAKE itself is caught above
        value = mk.variables.get(name, _BUILTIN_DEFS.get(name))
        if value is None or "MAKE" in value or (("$" in value) and _runs_in_dry_run(mk, value, depth + 1)):
            return True
    return False


def _match(pattern: str, target: str) -> str | None:
    head, _, tail = pattern.partition("%")
    if target.startswith(head) and target.endswith(tail) and len(target) >= len(head) + len(tail):
        return target[len(head) : len(target) - len(tail)]
    return None


def _strip_prefixes(text: str) -> str:
    text = text.lstrip()
    while text[:1] in ("@", "-", "+") and text:
        text = text[1:].lstrip()
    return text


def _expand(mk: _Makefile, text: str, auto: dict[str, str], depth: int = 0, *, builtin: bool = False) -> str:
    """Expand make variables in ``text``; unknown ones and functions become :data:`UNKNOWN`. ``builtin``: ``text``
    is a built-in rule's recipe: the built-in variables have their default (:data:`_BUILTIN_DEFS`) and a variable
    no one defined (the flags) is empty."""
    if "$" not in text:
        return text
    if depth > 8:
        return UNKNOWN

    def one(match: re.Match[str]) -> str:
        inner = match.group(1) if match.group(1) is not None else match.group(2)
        if inner is None:
            char = match.group(3)
            if char == "$":
                return "$"
            if char in auto:
                return auto[char]
            if char in "({":  # a reference holding another one: $(shell cat $(F)), $(patsubst %,%,$(wildcard *))
                if _pastes(mk, _balanced(match.string, match.start()).replace(placeholder, "$$"), depth):
                    return PASTED
            inner = char
        if _pastes(mk, match.group(0), depth):
            return PASTED
        if " " in inner or "," in inner or ":" in inner:
            return UNKNOWN  # a make function (wildcard, patsubst, shell...) or a substitution reference
        if inner in ("@D", "@F", "<D", "<F"):
            return UNKNOWN
        if inner in auto:
            return auto[inner]
        value: str | None
        if builtin and inner not in mk.variables:
            value = _BUILTIN_VARS.get(inner, _BUILTIN_DEFS.get(inner, ""))
        else:
            value = mk.variables.get(inner, _BUILTIN_VARS.get(inner))  # undefined: may come from the environment
        if value is None:
            return UNKNOWN
        return _expand(mk, value, auto, depth + 1, builtin=builtin)

    placeholder = "\x00DOLLAR\x00"
    text = text.replace("$$", placeholder)
    expanded = re.sub(_VAR, one, text)
    return expanded.replace(placeholder, "$")


# -- justfile -----------------------------------------------------------------------------------
_JUST_RECIPE = r"^@?([A-Za-z_][\w-]*)((?:\s+[+*]?\$?[A-Za-z_][\w-]*(?:=(?:'[^']*'|\"[^\"]*\"|\S+))?)*)\s*:(?!=)\s*(.*)$"
_JUST_ASSIGN = r"^(?:export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(.*)$"
_JUST_SAFE = ("sh", "bash", "/bin/sh", "/bin/bash", "/usr/bin/env bash", "/usr/bin/env sh")
#: justfile settings (just manual, "Settings") that change neither what a recipe runs nor where: any other
#: (``working-directory``, ``script-interpreter``, ``dotenv-*``, ``fallback``, ``tempdir``...) makes the file
#: unreadable; ``shell``/``windows-shell`` are read (sh and bash are fine), ``export`` is read with the assignments.
_JUST_INERT_SETTINGS = frozenset({
    "allow-duplicate-recipes", "allow-duplicate-variables", "ignore-comments", "positional-arguments", "quiet",
    "unstable", "no-exit-message",
})  # fmt: skip
#: Recipe attributes (just manual, "Attributes") that change neither what a recipe runs nor where; any other
#: (``working-directory``, ``script``, ``extension``...) makes the file unreadable.
_JUST_INERT_ATTRIBUTES = frozenset({
    "private", "no-cd", "no-exit-message", "exit-message", "no-quiet", "confirm", "doc", "group", "linux", "macos",
    "unix", "windows", "openbsd", "freebsd", "netbsd", "dragonfly", "android", "ios", "positional-arguments",
    "default", "parallel", "metadata",
})  # fmt: skip


#: Stands for a parameter of the recipe ``just`` names, in its lines: ``${FLYBOT_JUST_<index>_<kind>}`` (kind ``ONE``: a
#: parameter without a default, ``OPT``: with one, ``ALL``: variadic ``*``/``+`` without one, ``ALLOPT``: with one),
#: ``_Q`` after the kind for ``{{quote(NAME)}}``. :func:`just_arguments` puts the words the command passes in its place.
JUST_PARAMETER = "${FLYBOT_JUST_"
#: Stands for a ``{{...}}`` value only known when it runs that may hold the words the command passes (an expression
#: using a parameter, or a parameter of a dependency, which its dependency arguments may fill from the words).
JUST_FROM_ARGUMENTS = "${FLYBOT_JUST_CODE}"
_JUST_TOKEN = r"\$\{FLYBOT_JUST_(?:(\d+)_(ONE|OPT|ALL|ALLOPT)(_Q)?|CODE)\}"
_JUST_PARAMETERS = r"([+*]?)\$?([A-Za-z_][\w-]*)(=(?:'[^']*'|\"[^\"]*\"|\S+))?"
#: A passed word just substitutes as itself in every shell: no shell syntax, no space, no glob.
_PLAIN_WORD = r"[\w./:=,@%+\-]*"


def just_arguments(command: str, words: Sequence[str] | None) -> tuple[str, bool]:
    """``command``, a recipe line of :func:`just_recipe`, with the recipe's parameters replaced by ``words``, the
    words the command passes after the recipe's name (None: one is only known when it runs; each parameter then is
    :data:`UNKNOWN`), and whether a value only known when it runs may carry words that are not plain (shell syntax:
    the recipe would run them as code).

    just manual, "Recipe Parameters": the arguments after a recipe's name bind to its parameters in order, a variadic
    parameter (``+NAME``, ``*NAME``) takes all that are left, joined by spaces; ``{{NAME}}`` puts the value into the
    line as text, before the shell reads it (so ``just test '; curl x | sh'`` runs ``curl``), and
    ``{{quote(NAME)}}`` as one single-quoted word ("Built-in Functions", ``quote(s)``). A parameter given no
    argument takes its default (:data:`UNKNOWN` here) or, when variadic with none, is empty."""
    tainted = False

    def one(match: re.Match[str]) -> str:
        nonlocal tainted
        if match.group(1) is None:  # JUST_FROM_ARGUMENTS
            tainted = tainted or words is None or any(not re.fullmatch(_PLAIN_WORD, w) for w in words)
            return UNKNOWN
        if words is None:
            return UNKNOWN
        index, kind = int(match.group(1)), match.group(2)
        given = words[index:] if kind.startswith("ALL") else words[index : index + 1]
        if not given:
            return UNKNOWN if kind in ("ONE", "OPT", "ALLOPT") else ("''" if match.group(3) else "")
        value = " ".join(given)
        return shlex.quote(value) if match.group(3) else value

    return re.sub(_JUST_TOKEN, one, command), tainted


def just_recipe(text: str, target: str, name: str, overrides: Iterable[str] = ()) -> list[RecipeLine] | None:
    """The commands ``just TARGET`` runs (dependencies first; ``""``: the first recipe), or None.

    Backtick assignments run when just loads the file and are returned too (an assignment calling ``shell()`` as
    :data:`UNKNOWN`); ``{{...}}`` interpolations
    of a string variable are substituted; a parameter of TARGET as :data:`JUST_PARAMETER` (:func:`just_arguments`
    puts the passed words in), any other expression using a parameter, or a dependency's parameter, as
    :data:`JUST_FROM_ARGUMENTS`; any other becomes :data:`UNKNOWN`; ``set shell`` to anything
    but sh/bash and recipes with a shebang other than sh/bash become :data:`UNKNOWN` (a program run).
    A setting outside :data:`_JUST_INERT_SETTINGS`, an attribute outside :data:`_JUST_INERT_ATTRIBUTES`,
    ``import``/``mod`` (recipes from another file), and a variable or ``$`` parameter exported to recipes
    (``export``, ``set export``) whose name is not inert make the file unreadable (:class:`_Unreadable`).
    ``overrides``: variables the command line sets (``just VAR=value``): their values are unknown.
    """
    if "FLYBOT_JUST_" in text:
        raise _Unreadable(f"{name} (not read: it holds FLYBOT_JUST_, which stands for a recipe parameter here)")
    recipes: dict[str, tuple[list[str], list[tuple[int, str]]]] = {}
    parameters: dict[str, dict[str, str]] = {}  # recipe -> parameter name -> its JUST_PARAMETER token
    aliases: dict[str, str] = {}
    order: list[str] = []
    variables: dict[str, str | None] = {}
    pasted: dict[str, list[str]] = {}  # variable -> what its value pastes (:func:`_just_pastes`)
    headers: list[tuple[str, list[str]]] = []  # each recipe's dependency text and the recipes it names
    load: list[RecipeLine] = []
    unsafe = False
    exports_all = False
    exported: list[tuple[bool, str, str]] = []
    current: list[tuple[int, str]] | None = None
    for number, raw in enumerate(text.split("\n"), 1):
        if raw[:1] in (" ", "\t") and current is not None:
            if raw.strip():
                current.append((number, raw.strip()))
            continue
        line = _just_uncomment(raw, f"{name}:{number}")
        current = None
        if not line.strip():
            continue
        if line.startswith("["):
            inner = re.sub(r"'[^']*'|\"[^\"]*\"|\([^()]*\)", "", line.strip()[1:].rstrip("]"))
            for attribute in re.findall(r"(?:^|,)\s*([^\s,:]+)", inner):
                if attribute not in _JUST_INERT_ATTRIBUTES:
                    raise _Unreadable(
                        f"{name}:{number} (not read: the attribute [{attribute[:40]}] may change what the recipe runs "
                        "or where: a setting the classifier does not read)"
                    )
            continue
        if line.startswith("set "):
            setting = re.split(r"[\s:]", line[4:].strip(), maxsplit=1)[0]
            if setting in ("shell", "windows-shell"):
                if not any(f'"{s}"' in line.split(":=", 1)[-1].split(",")[0] for s in _JUST_SAFE):
                    unsafe = True
            elif setting == "export":
                exports_all = "false" not in line
            elif setting not in _JUST_INERT_SETTINGS:
                raise _Unreadable(
                    f"{name}:{number} (not read: set {setting[:40]} may change what recipes run or where: a setting "
                    "the classifier does not read)"
                )
            continue
        if re.match(r"^(?:import|mod)\??\s", line):
            raise _Unreadable(
                f"{name}:{number} (not read: recipes from another file, which the classifier does not read)"
            )
        if line.startswith("alias "):
            if line.startswith("alias "):
                parts = line[6:].split(":=")
                if len(parts) == 2:
                    aliases.setdefault(parts[0].strip(), parts[1].strip())
            continue
        assign = re.match(_JUST_ASSIGN, line)
        if assign:
            if not inert_environment(assign.group(1)):
                exported.append((line.startswith("export"), f"{name}:{number}", assign.group(1)))
            value = assign.group(2).strip()
            for tick in re.findall(r"`([^`]*)`", value):
                load.append(RecipeLine(f"{name}:{number} (backtick)", tick))
            if re.search(r"\bshell\s*\(", value):  # just manual, "shell(command, args...)": runs on load
                load.append(RecipeLine(f"{name}:{number} (shell())", UNKNOWN))
            pasted[assign.group(1)] = _just_pastes(value, pasted)
            variables[assign.group(1)] = (
                value[1:-1]
                if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"" and "{{" not in value
                else None
            )
            continue
        recipe = re.match(_JUST_RECIPE, line)
        if recipe is None:
            raise _Unreadable(f"{name}:{number} (not read: a line the classifier does not parse)")
        for tick in re.findall(r"`([^`]*)`", line):
            # just manual, "Dependencies with arguments", "Recipe parameters": argument and default expressions
            load.append(RecipeLine(f"{name}:{number} (backtick)", tick))
        for variable in re.findall(r"\$([A-Za-z_][\w-]*)", recipe.group(2)):
            if not inert_environment(variable):
                raise _Unreadable(
                    f"{name}:{number} (not read: the parameter ${variable[:40]} is exported to the recipe)"
                )
        deps = _just_dependencies(recipe.group(3), f"{name}:{number}")
        headers.append((recipe.group(3), deps))
        body: list[tuple[int, str]] = []
        recipes[recipe.group(1)] = (deps, body)
        parameters[recipe.group(1)] = {
            param: f"{JUST_PARAMETER}{position}_{'ALL' if star else ''}{'OPT' if default else '' if star else 'ONE'}}}"
            for position, (star, param, default) in enumerate(re.findall(_JUST_PARAMETERS, recipe.group(2)))
        }
        order.append(recipe.group(1))
        current = body
    for export, where, variable in exported:
        if export or exports_all:  # the recipes' environment: PATH, BASH_ENV... choose what their programs run
            raise _Unreadable(f"{where} (not read: it exports {variable[:40]} to every recipe)")
    for alias, aliased in aliases.items():
        recipes.setdefault(alias, ([aliased], []))  # just manual, "Aliases": the recipe runs with the same arguments
        parameters.setdefault(alias, parameters.get(aliased, {}))
    goal = target or (order[0] if order else "")
    named = aliases.get(goal, goal) if goal not in order else goal
    if goal not in recipes:
        return None
    out = list(load)
    seen: set[str] = set()
    # just manual, "Dependencies with arguments": ``(dep `cmd`)`` passes the output to dep's parameters, which its
    # lines paste; a dependency list holding a program's output taints every dependency it names
    pasted_deps: dict[str, list[str]] = {}
    for dependencies, named_deps in headers:
        found = _just_pastes(dependencies, pasted)
        for dep in named_deps if found else ():
            pasted_deps[dep] = pasted_deps.get(dep, []) + found

    def visit(name_: str, depth: int) -> None:
        if name_ in seen or depth > 12 or name_ not in recipes:
            return
        seen.add(name_)
        deps, body = recipes[name_]
        for dep in deps:
            visit(dep, depth + 1)
        # the parameters of the recipe named take the command's words; a dependency's, its dependency arguments
        # (justfile expressions that may use the named recipe's parameters)
        own = {
            param: token if name_ == named else PASTED if name_ in pasted_deps else JUST_FROM_ARGUMENTS
            for param, token in parameters.get(name_, {}).items()
        }
        if body and body[0][1].startswith("#!"):
            shebang = body[0][1][2:].strip()
            script = (
                "\n".join(b for _, b in body[1:])
                if shebang in _JUST_SAFE[2:] + ("/usr/bin/env bash", "/usr/bin/env sh")
                else UNKNOWN
            )
            what: list[str] = list(pasted_deps.get(name_, []))
            for number, line in body[1:]:
                for tick in _just_ticks(line):
                    out.append(RecipeLine(f"{name}:{number} (backtick)", tick))
            command = _just_expand(script, variables, own, pasted, what)
            out.append(RecipeLine(_just_source(f"{name}:{body[0][0]} ({name_})", command, what), command))
            return
        for number, line in body:
            what = list(pasted_deps.get(name_, []))
            for tick in _just_ticks(line):  # just manual, "Command Evaluation Using Backticks": in {{...}} too
                out.append(RecipeLine(f"{name}:{number} (backtick)", tick))
            command = UNKNOWN if unsafe else _just_expand(_strip_prefixes(line), variables, own, pasted, what)
            out.append(RecipeLine(_just_source(f"{name}:{number} ({name_})", command, what), command))

    for variable in overrides:
        variables[variable] = None
    visit(goal, 0)
    return out


def _just_dependencies(text: str, where: str) -> list[str]:
    """The recipes a recipe header's dependency list names (just manual, "Dependencies", "Dependencies with
    arguments", "Running Recipes at the End of a Recipe"): ``a b && c`` names a, b and c, ``(build "x" `cmd`)``
    names build (its arguments are expressions, evaluated first). :class:`_Unreadable` for a parenthesis or quote
    left open or a word that is not a recipe name."""
    names: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char.isspace():
            index += 1
        elif text.startswith("&&", index):
            index += 2
        elif char == "(":
            depth, quote, end = 0, "", index
            while end < len(text):
                c = text[end]
                if quote:
                    if c == "\\" and quote == '"':
                        end += 1
                    elif c == quote:
                        quote = ""
                elif c in "'\"`":
                    quote = c
                elif c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                    if depth == 0:
                        break
                end += 1
            found = re.match(r"\(\s*([A-Za-z_][\w-]*)", text[index:])
            if end >= len(text) or found is None:
                raise _Unreadable(f"{where} (not read: a dependency the classifier does not parse)")
            names.append(found.group(1))
            index = end + 1
        else:
            found = re.match(r"[A-Za-z_][\w-]*", text[index:])
            if found is None:
                raise _Unreadable(f"{where} (not read: a dependency the classifier does not parse)")
            names.append(found.group(0))
            index += found.end()
    return names


def _just_uncomment(raw: str, where: str) -> str:
    """``raw``, a justfile line outside a recipe body, without its comment: a ``#`` outside quotes and backticks
    starts one. :class:`_Unreadable` for a string or backtick left open at the end of the line, or a triple-quoted
    or triple-backtick one (just manual, "Strings", "Indented backticks": they span lines)."""
    if "```" in raw or '"""' in raw or "'''" in raw:
        raise _Unreadable(f"{where} (not read: a string or backtick over several lines)")
    quote = ""
    index = 0
    while index < len(raw):
        char = raw[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1  # an escape in a double-quoted string: the next character is part of it
            elif char == quote:
                quote = ""
        elif char in "'\"`":
            quote = char
        elif char == "#":
            return raw[:index].rstrip()
        index += 1
    if quote:
        raise _Unreadable(f"{where} (not read: a string or backtick left open)")
    return raw.rstrip()


def _just_ticks(line: str) -> list[str]:
    """The backtick commands in the ``{{...}}`` interpolations of a recipe line (run when the recipe runs)."""
    return [tick for expression in re.findall(r"\{\{(.*?)\}\}", line) for tick in re.findall(r"`([^`]*)`", expression)]


def _just_pastes(expression: str, pasted: dict[str, list[str]]) -> list[str]:
    """What a justfile expression's value holds of a program's output (just manual, "Command Evaluation Using
    Backticks", ``shell()``, ``read()``): a backtick whose command is not in :data:`_PLAIN_OUTPUT`, a ``shell(...)``
    or ``read(...)`` call, or a variable whose value does (``pasted``). ``quote(...)`` of it is one single-quoted
    word ("Built-in Functions": ``'`` inside is escaped), so the whole expression then pastes nothing."""
    if re.fullmatch(r"quote\(.*\)", expression.strip(), re.S):
        return []
    found: list[str] = []
    for tick in re.findall(r"`([^`]*)`", expression):
        if not _plain_output(tick, plain_dir=False):
            tick = re.sub(r"\s+", " ", tick).strip()
            found.append(f"the output of `{tick[:60] + '...' if len(tick) > 60 else tick}`")
    for function in re.findall(r"\b(shell|read)\s*\(", expression):
        found.append(f"the text {function}() returns")
    unquoted = re.sub(r"'[^']*'|\"(?:\\.|[^\"\\])*\"|`[^`]*`", "", expression)
    for word in re.findall(r"[A-Za-z_][\w-]*", unquoted):
        found += pasted.get(word, [])
    return list(dict.fromkeys(found))


def _just_source(source: str, command: str, what: list[str]) -> str:
    """``source`` naming what just pastes into ``command`` when it holds :data:`PASTED`."""
    return _pasted_source(source, "just", list(dict.fromkeys(what))) if PASTED in command else source


def _just_expand(
    text: str,
    variables: dict[str, str | None],
    parameters: dict[str, str],
    pasted: dict[str, list[str]] | None = None,
    what: list[str] | None = None,
) -> str:
    """``text`` with each ``{{...}}`` replaced: a parameter (which shadows a variable of its name) by its token,
    ``quote(PARAMETER)`` by the token quoted, another expression using a parameter by :data:`JUST_FROM_ARGUMENTS`,
    an expression holding a program's output (:func:`_just_pastes`, ``pasted``: the variables that do) by
    :data:`PASTED` (``what`` collects what), a string variable by its value, anything else by :data:`UNKNOWN`."""

    def one(match: re.Match[str]) -> str:
        expression = match.group(1).strip()
        if expression in parameters:
            return parameters[expression]
        found = _just_pastes(expression, pasted or {})
        if found:
            if what is not None:
                what.extend(found)
            return PASTED
        quoted = re.fullmatch(r"quote\(\s*([A-Za-z_][\w-]*)\s*\)", expression)
        if quoted and quoted.group(1) in parameters:
            token = parameters[quoted.group(1)]
            return token if token == JUST_FROM_ARGUMENTS else UNKNOWN if token == PASTED else token[:-1] + "_Q}"
        used = [parameters[word] for word in re.findall(r"[A-Za-z_][\w-]*", expression) if word in parameters]
        if PASTED in used:
            return PASTED  # a dependency's parameter given a program's output
        if used:
            return JUST_FROM_ARGUMENTS
        value = variables.get(expression)
        return value if value is not None and "{{" not in value else UNKNOWN

    return re.sub(r"\{\{(.*?)\}\}", one, text.replace("{{{{", "\x00")).replace("\x00", "{{")


# -- tox.ini ------------------------------------------------------------------------------------
#: tox.ini keys (tox "Configuration", compared without ``_``/``-``) that choose where commands run, the programs
#: that install or run them, or their environment: any of them makes the file unreadable (``basepython`` only when it
#: is not a plain interpreter name such as ``python3.12``; ``deps`` only for an option or a local path).
_TOX_CHOOSING = frozenset({
    "base", "changedir", "installcommand", "setenv", "listdependenciescommand", "requires", "envdir", "toxworkdir",
    "workdir", "tempdir", "runner", "provisiontoxenv", "packageenv", "envtmpdir", "envlogdir",
})  # fmt: skip
_TOX_PLAIN_PYTHON = r"^(?:python|py|pypy|cpython)[\d.]*$"


#: The tox targets of a run without ``-e``: the environments of ``env_list``/``envlist`` (``py`` when there is
#: none; tox "env_list"), and of a run selecting by label, factor or ``ALL`` (``-m``, ``-f``, ``-e ALL``): every
#: environment the file names (``env_list``, ``labels``, ``[testenv:NAME]`` sections), a superset of those selected.
TOX_DEFAULT = "<default>"
TOX_ALL = "<all>"
#: The most environments one tox recipe reads (more: unreadable).
_TOX_MAX_ENVS = 32


def tox_commands(text: str, env: str) -> list[RecipeLine] | None:
    """``commands_pre``, ``commands`` and ``commands_post`` of ``[testenv:ENV]`` (each, when not there, from
    ``[testenv]``; tox runs them in that order) in tox.ini; ``{posargs}`` and other substitutions unknown. ``env``
    may be :data:`TOX_DEFAULT` or :data:`TOX_ALL` (each environment's lines, in turn). A section name may be
    generative (tox "Generative section names": ``[testenv:py{310,311}-lint]`` is one section of each name). A key of
    :data:`_TOX_CHOOSING` (also in ``[tox]``), a ``basepython`` that is a path, ``deps`` naming an option or a
    local path (``-e DIR``, ``-r FILE``, ``./pkg``, ``file:``), a name two sections define, or braces FlyBot does not
    expand make it unreadable (:class:`_Unreadable`)."""
    import configparser

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(text)
    sections: dict[str, str] = {}
    for section in parser.sections():
        if section.startswith("testenv:"):
            for name in _tox_expand(section[len("testenv:") :].strip()):
                if name in sections:
                    raise _Unreadable(f"tox.ini [{section[:80]}] (not read: {name[:40]} is defined twice)")
                sections[name] = section
    if env in (TOX_DEFAULT, TOX_ALL):
        listed = parser.get("tox", "env_list", fallback=parser.get("tox", "envlist", fallback=""))
        envs = [n for item in _tox_items(listed) for n in _tox_expand(item)]
        if env == TOX_ALL:
            for line in parser.get("tox", "labels", fallback="").split("\n"):
                envs += [n for item in _tox_items(line.partition("=")[2]) for n in _tox_expand(item)]
            envs += list(sections)
        envs = list(dict.fromkeys(envs)) or ["py"]
    else:
        envs = [env]
    if len(envs) > _TOX_MAX_ENVS:
        raise _Unreadable(f"tox.ini (not read: more than {_TOX_MAX_ENVS} environments)")
    out: list[RecipeLine] = []
    found = False
    for name in envs:
        lines = _tox_env(parser, sections.get(name))
        found = found or lines is not None
        out += lines or []
    return out if found or out else None


def _tox_items(value: str) -> list[str]:
    """The entries of a tox list (``env_list``): separated by commas or new lines outside braces, blanks removed."""
    items: list[str] = []
    depth = 0
    current = ""
    for char in value:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char in ",\n" and depth == 0:
            items.append(current)
            current = ""
        else:
            current += char
    items.append(current)
    return [i.strip() for i in items if i.strip() and not i.strip().startswith("#")]


def _tox_expand(name: str) -> list[str]:
    """The environment names a generative name stands for: each ``{a,b}`` group gives its alternatives (spaces
    around them removed), ``{8-11}`` a range of numbers; nested or unclosed braces: :class:`_Unreadable`."""
    names = [""]
    rest = name
    while "{" in rest or "}" in rest:
        head, brace, tail = rest.partition("{")
        group, close, after = tail.partition("}")
        if not brace or not close or "{" in group or "}" in head:
            raise _Unreadable(f"tox.ini {name[:80]} (not read: braces FlyBot does not expand)")
        span = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", group)
        options = (
            [str(n) for n in range(int(span.group(1)), int(span.group(2)) + 1)]
            if span and int(span.group(2)) - int(span.group(1)) < _TOX_MAX_ENVS
            else [o.strip() for o in group.split(",")]
        )
        names = [n + head + o for n in names for o in options]
        rest = after
        if len(names) > _TOX_MAX_ENVS:
            raise _Unreadable(f"tox.ini {name[:80]} (not read: more than {_TOX_MAX_ENVS} environments)")
    return [n + rest for n in names]


def _tox_env(parser: object, own: str | None) -> list[RecipeLine] | None:
    """The lines of an environment whose own section is ``own`` (None: it has none, only ``[testenv]``)."""
    import configparser

    assert isinstance(parser, configparser.ConfigParser)
    sections = [s for s in (own, "testenv") if s is not None and parser.has_section(s)]
    for section in [*sections, *(s for s in ("tox", "tox:tox") if parser.has_section(s))]:
        for key, value in parser.items(section):
            plain = key.replace("_", "").replace("-", "")
            why: str | None = None
            entries = [e.strip() for e in value.split("\n") if e.strip() and not e.strip().startswith("#")]
            if plain == "setenv" and all(
                re.match(r"^[A-Za-z_]\w*\s*=", e) and inert_environment(e.split("=", 1)[0].strip()) for e in entries
            ):
                continue  # only output, colour, locale or time zone
            if plain == "requires" and all(re.match(r"^(?:tox|virtualenv)\s*(?:[<>=!~].*)?$", e) for e in entries):
                continue  # tox provisions itself (tox "requires"): a package index install, not a plugin
            if plain in _TOX_CHOOSING:
                why = f"{key} chooses where commands run, what installs or runs them, or their environment"
            elif plain == "basepython" and not re.match(_TOX_PLAIN_PYTHON, value.strip()):
                why = f"{key} = {value.strip()[:60]} is not a plain interpreter name"
            elif plain == "deps" and any(
                line.strip().startswith(("-", ".", "/", "~", "file:")) or "/" in line or "{" in line
                for line in value.split("\n")
                if line.strip() and not line.strip().startswith("#")
            ):
                why = f"{key} names an option or a local path (its code runs on install)"
            if why is not None:
                raise _Unreadable(f"tox.ini [{section}] (not read: {why}: a setting the classifier does not read)")
    out: list[RecipeLine] = []
    found = False
    for phase in ("commands_pre", "commands", "commands_post"):
        where = next((s for s in sections if parser.has_option(s, phase)), None)
        if where is None:
            continue
        found = found or phase == "commands"
        for line in parser.get(where, phase).split("\n"):
            line = line.strip()
            if line:
                line = line.lstrip("-").strip().replace("{posargs}", "")  # empty unless given after `tox --`
                line = re.sub(r"\{[^{}]*\}", UNKNOWN, line)
                out.append(RecipeLine(f"tox.ini [{where}] {phase}", line))
    return out if found or out else None


def quote_args(words: Iterable[str]) -> str:
    """Shell text passing ``words`` as arguments (``npm run X -- ARGS`` appends them to the script)."""
    return " ".join(shlex.quote(w) for w in words)


#: The keys of a dvc.yaml stage FlyBot reads (DVC "dvc.yaml Files", "Stage entries"); ``foreach``/``matrix``/``do``
#: (generated stages) and anything else make the file unreadable.
_DVC_STAGE_KEYS = frozenset({
    "cmd", "wdir", "deps", "params", "outs", "metrics", "plots", "frozen", "always_changed", "desc", "meta",
})  # fmt: skip
#: The top-level keys of a dvc.yaml other than ``stages`` that hold no command (``vars`` holds values its
#: ``${...}`` templating puts into commands: unreadable).
_DVC_TOP_KEYS = frozenset({"stages", "plots", "metrics", "params", "artifacts", "datasets"})
#: How many directory entries FlyBot looks at for a project's other pipelines before it gives up (unreadable).
_DVC_MAX_ENTRIES = 20000


def dvc_stages(text: str, rel: str) -> list[RecipeLine]:
    """The ``cmd`` lines of every stage of the dvc.yaml ``text`` (DVC "dvc.yaml Files": ``stages: NAME: cmd:``, a
    command or a list of them, run by the shell in the stage's ``wdir``, by default the file's directory), in the
    file's order: ``dvc repro`` runs the stages whose dependencies changed and, for a target, the stages upstream of
    it, so every stage is graded. Templating (``vars``, ``${...}``, ``foreach``/``matrix``), a ``wdir`` other than
    ``.``, or a file that is not a mapping of stages is unreadable (:class:`_Unreadable`)."""
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        raise _Unreadable(f"{rel} (not read: not YAML)") from None
    if data is None:
        return []
    if not isinstance(data, dict) or not set(data) <= _DVC_TOP_KEYS:
        raise _Unreadable(f"{rel} (not read: keys FlyBot does not read, vars templating among them)")
    stages = data.get("stages") or {}
    if not isinstance(stages, dict):
        raise _Unreadable(f"{rel} (not read: stages is not a mapping)")
    lines: list[RecipeLine] = []
    for name, stage in stages.items():
        where = f"{rel} stages.{str(name)[:60]}"
        if not isinstance(stage, dict) or not set(stage) <= _DVC_STAGE_KEYS:
            raise _Unreadable(f"{where} (not read: a generated stage, or keys FlyBot does not read)")
        if stage.get("wdir", ".") not in (".", "./"):
            raise _Unreadable(f"{where} (not read: it runs in another directory, wdir)")
        cmd = stage.get("cmd")
        commands = [cmd] if isinstance(cmd, str) else cmd
        if not isinstance(commands, list) or not all(isinstance(c, str) for c in commands):
            raise _Unreadable(f"{where} (not read: cmd is not a command or a list of commands)")
        for command in commands:
            if "${" in command:
                raise _Unreadable(f"{where} (not read: ${{...}} puts values from params or vars into the command)")
            lines.append(RecipeLine(f"{where}.cmd", command[:MAX_RECIPE_CHARS]))
    return lines


def _dvc_alone(root: str, directory: str, rel: str) -> None:
    """Unreadable unless ``rel`` is the only pipeline of its DVC project: the project is the nearest directory from
    ``directory`` up holding ``.dvc`` (within the workspace ``root``), and ``dvc repro`` reproduces every pipeline
    (each ``dvc.yaml``) and import (each ``.dvc`` file) of it, and a target's upstream stages may be in any of them
    (DVC "dvc repro")."""
    parts = directory.split("/") if directory else []
    project: str | None = None
    for depth in range(len(parts), -1, -1):
        candidate = os.path.join(root, *parts[:depth])
        if os.path.isdir(os.path.join(candidate, ".dvc")) and not os.path.islink(os.path.join(candidate, ".dvc")):
            project = candidate
            break
    if project is None:
        raise _Unreadable(f"{rel} (not read: its DVC project, the directory holding .dvc, is outside the workspace)")
    seen = 0
    for top, dirs, files in os.walk(project):
        dirs[:] = [d for d in dirs if d not in (".git", ".dvc")]
        seen += len(dirs) + len(files)
        if seen > _DVC_MAX_ENTRIES:
            raise _Unreadable(f"{rel} (not read: too many files to look for the project's other pipelines)")
        for name in files:
            path = os.path.relpath(os.path.join(top, name), root)
            if (name == "dvc.yaml" and path != rel) or name.endswith(".dvc"):
                raise _Unreadable(f"{rel} (not read: the project has another pipeline or import, {path[:80]})")


#: The sections of an Apptainer definition file (Apptainer 1.3 "Definition Files"; apptainer's parser,
#: pkg/build/types/parser/deffile.go ``validSections``/``appSections``): a section named otherwise is unreadable.
#: ``%setup`` (and the older ``%pre``) run on the host before the build ("executed on the host system outside of the
#: container"); ``%post``, ``%test`` and ``%appinstall`` run in the container being built; ``%files`` and
#: ``%appfiles`` copy host files into it; the others are written into the image and run nowhere at build time.
APPTAINER_HOST = frozenset({"setup", "pre"})
APPTAINER_CONTAINER = frozenset({"post", "test", "appinstall"})
APPTAINER_FILES = frozenset({"files", "appfiles"})
_APPTAINER_INERT = frozenset({
    "help", "labels", "environment", "runscript", "startscript", "arguments",
    "applabels", "appenv", "apptest", "apphelp", "apprun", "appstart",
})  # fmt: skip
#: Bootstraps whose ``From:`` names a file or directory on this machine (Apptainer "Definition Files",
#: "Preferred bootstrap agents": localimage; "Other bootstrap agents": oci, oci-archive, docker-archive): outside the
#: workspace it is an image FlyBot does not read (unreadable).
_APPTAINER_LOCAL_BOOTSTRAPS = frozenset({"localimage", "oci", "oci-archive", "docker-archive"})
#: The shells a script section's ``-c`` may name for its lines to be read as shell (``%post -c /bin/bash``).
_APPTAINER_SHELLS = frozenset({"/bin/sh", "/bin/bash", "sh", "bash", "/usr/bin/bash", "/usr/bin/sh"})
#: Build-argument templating (Apptainer "Definition Files", "%arguments": ``{{ NAME }}``, set by ``--build-arg``).
_APPTAINER_ARGUMENT = re.compile(r"\{\{\s*\w+\s*\}\}")


def apptainer_definition(text: str, rel: str, directory: str) -> list[RecipeLine]:
    """What ``apptainer build IMAGE rel`` runs and reads on this machine, from the definition file ``text``:
    one line per script section (``%setup``, ``%pre``, ``%post``, ``%test``, ``%appinstall``: the section's body,
    source ``%SECTION rel:LINE``) and one per ``%files``/``%appfiles`` entry (its host source path as written,
    source ``%files rel:LINE``; ``%files from STAGE`` copies from another stage's image and is left out). Sections
    start at a line whose first word starts with ``%`` (deffile.go ``scanDefinitionFile``); a header ``From:`` of a
    local bootstrap (``localimage``...) outside the workspace, a section FlyBot does not know, a script section with
    an interpreter that is not a shell (``%post -c /usr/bin/python3``) or a body longer than a recipe line holds is
    unreadable (:class:`_Unreadable`). Build arguments ``{{ NAME }}`` become :data:`UNKNOWN`."""
    lines: list[RecipeLine] = []
    bootstrap = ""
    section: str | None = None
    args = ""
    body: list[str] = []
    start = 0

    def close() -> None:
        if section is None:
            return
        if section in _APPTAINER_INERT:
            return
        if section in APPTAINER_FILES:
            words = args.split()
            if section == "files" and words[:1] == ["from"] or section == "appfiles" and words[1:2] == ["from"]:
                return  # copied between the stages' images (Apptainer "Definition Files", "%files")
            for n, raw in enumerate(body, start + 1):
                entry = raw.strip()
                if not entry or entry.startswith("#"):
                    continue  # deffile.go parseTokenSection: blank lines and lines starting with # are left out
                found = re.match(r'"([^"]*)"|(\S+)', entry)
                source = (found.group(1) if found and found.group(1) is not None else found.group(2)) if found else ""
                source = _APPTAINER_ARGUMENT.sub(UNKNOWN, source)
                lines.append(RecipeLine(f"%{section} {rel}:{n}", source[:MAX_LINE_CHARS] or UNKNOWN))
            return
        words = args.split()
        if section == "appinstall":
            words = words[1:]  # the app's name
        if words and not (len(words) == 2 and words[0] == "-c" and words[1] in _APPTAINER_SHELLS):
            raise _Unreadable(
                f"{rel}:{start} (not read: %{section} {' '.join(words)[:60]}, an interpreter FlyBot does not read)"
            )
        script = _APPTAINER_ARGUMENT.sub(UNKNOWN, "\n".join(body)).strip()
        if not script:
            return
        if len(script) > MAX_LINE_CHARS:
            raise _Unreadable(f"{rel}:{start} (not read: %{section} holds more than {MAX_LINE_CHARS} characters)")
        lines.append(RecipeLine(f"%{section} {rel}:{start}", script))

    for number, raw in enumerate(text.splitlines(), 1):
        first = raw.split(None, 1)[0] if raw.strip() else ""
        if raw[:10].lower() == "bootstrap:":  # another stage's header (deffile.go All: ``(?mi)^bootstrap:``)
            close()
            section, args, body = None, "", []
            bootstrap = raw[10:].split("#", 1)[0].strip().lower()
            continue
        if first.startswith("%"):
            close()
            name = first[1:].lower()
            if name not in APPTAINER_HOST | APPTAINER_CONTAINER | APPTAINER_FILES | _APPTAINER_INERT:
                raise _Unreadable(f"{rel}:{number} (not read: a section FlyBot does not know, %{name[:40]})")
            section, args, body, start = name, raw.split(None, 1)[1] if len(raw.split(None, 1)) > 1 else "", [], number
            continue
        if section is not None:
            body.append(raw)
            continue
        header = raw.split("#", 1)[0].strip()
        if not header:
            continue
        key, colon, value = header.partition(":")
        if not colon:
            raise _Unreadable(f"{rel}:{number} (not read: a header line that is not KEY: VALUE)")
        key, value = key.strip().lower(), value.strip()
        if key == "bootstrap":
            bootstrap = value.lower()
        elif key == "from" and bootstrap in _APPTAINER_LOCAL_BOOTSTRAPS:
            place = posixpath.normpath(posixpath.join(directory, value)) if value else ""
            if not value or value.startswith(("/", "~")) or place == ".." or place.startswith("../") or "{{" in value:
                raise _Unreadable(
                    f"{rel}:{number} (not read: Bootstrap {bootstrap} from {value[:80]}, outside the workspace)"
                )
    close()
    return lines
