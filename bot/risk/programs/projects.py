"""Project scripts: grade the recipe ``make X``/``npm run X``/``yarn X``/``pnpm X``/``just X``/``tox -e X`` runs.

The recipe is the one of the directory where the tool really runs: the shell's directory at that point of the
script (after ``cd``/``pushd``), moved by the tool's own options (``make -C``, ``npm --prefix``, ``yarn --cwd``,
``pnpm -C``, ``just --justfile``, ``tox -c``: see the handlers). It comes from the grader's
:class:`~bot.risk.recipes.RecipeBook` (the project on the session's side, the adapter's expansion on the
server), looked up by directory and file relative to the workspace. A directory or file outside the workspace or
only known at run time, other packages' scripts (``npm --workspace``, ``pnpm -r``), variables set on the command
line and environment set by the script before the tool runs (but for names that only change output or locale:
:data:`~bot.risk.recipes.INERT_ENVIRONMENT`) grade destructive, the same on both sides, as does a recipe the book found but could
not read for certain. Each line is graded as a script run from the tool's directory, exactly as the same line typed
at the prompt (a script the line runs, ``./run.sh``, ``sh run.sh``, ``node x.js``, or a program not in the table is
destructive there and here), and named in a reason. When there is no recipe, or something earlier in the same script may have changed it (the script's grade
was above read-only before this command), the target's name decides too: deploy/release/publish/push are at
least network, destroy/clean at least destructive. ``poetry run CMD`` grades CMD as typed at the prompt. A recipe line
with hidden or look-alike characters grades destructive, as such a command does.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Sequence

from bot.risk.grader import Call, Handler, inert_environment
from bot.risk.hidden import needs_a_person, reveal
from bot.risk.model import Runner
from bot.risk.paths import CwdState, Where
from bot.risk.reasons import shorten
from bot.risk.recipes import (
    LIFECYCLE,
    MAX_LINES,
    MAX_RECIPE_CHARS,
    MAX_RECIPES,
    PASTED,
    SETTINGS,
    TOX_ALL,
    TOX_DEFAULT,
    TOX_START,
    UNKNOWN,
    RecipeLine,
    is_unreadable,
    just_arguments,
    recipe_input,
    unreadable,
)
from bot.risk.words import Word, literal_word

from .kit import (
    R,
    argv_text,
    build_or_test,
    chosen_source,
    deletion,
    destructive,
    local_package_outside,
    network,
    read_only,
    show,
    tool_plugin,
)
from .kit import destructive as _kit_destructive

__all__ = [
    "chosen",
    "configured_options",
    "dvc_repro",
    "found_above",
    "just",
    "outside_settings",
    "requirements_outside",
    "settings_lines",
    "poetry",
    "run_recipe",
    "tox",
    "workspace_settings",
    "yarn_release",
]


#: Characters of recipe lines a command's recipes may hold, keeping room for every recipe past it to be sent as
#: unreadable (one :data:`UNKNOWN` line): the server is sent every recipe it grades.
_RECIPE_BUDGET = MAX_RECIPE_CHARS - MAX_RECIPES * len(UNKNOWN)


def run_recipe(
    call: Call,
    tool: str,
    target: str,
    *,
    directory: Word | None = None,
    file: Word | None = None,
    overrides: Sequence[str] = (),
    extra: list[Word] | None = None,
    elsewhere: str | None = None,
    label: str | None = None,
    missing: str | None = None,
    arguments: Sequence[str] | None = None,
) -> None:
    """Grade what ``tool target`` runs, read from the directory where it really runs (see the module docstring).

    ``directory``: the directory the tool changes to (``make -C``, ``npm --prefix``, ``yarn --cwd``), relative to
    the shell's working directory at this point of the script; ``file``: the recipe file named on the command line,
    relative to the shell's working directory too. ``overrides``: variables the command line sets
    (``make test CC=...``, ``just VAR=...``): destructive unless the name is inert (:data:`~bot.risk.recipes.INERT_ENVIRONMENT`), then
    its value is unknown in the recipe. ``elsewhere``: why the tool runs recipes FlyBot does not look up
    (``npm --workspace``, ``pnpm -r``; by default :attr:`~bot.risk.grader.Grader.recipe_elsewhere`, set while a
    command ``git submodule foreach``, ``git rebase --exec``, ``git bisect run`` or ``find -execdir`` runs is
    graded): the grade is destructive. ``label``: how reasons name the command
    (``npm ci``, for a package's life cycle scripts: a ``target`` starting with :data:`~bot.risk.recipes.LIFECYCLE`,
    whose name never decides the grade: the subcommand's own grade is the floor). ``missing``: what the tool runs
    when there is no such recipe, for a tool that then runs something else FlyBot does not see (``bun run NAME``
    runs a file or a package's program named NAME): with no recipe found (or none sent) the grade is destructive
    (``runs-program``) and ``missing`` says why. ``arguments``: for just, the words after the recipe's name (None:
    one is only known when it runs), put in place of its parameters (:func:`~bot.risk.recipes.just_arguments`).
    A line holding :data:`~bot.risk.recipes.PASTED` (text make or just pastes from a program's output or file names)
    is destructive (``recipe-pasted-output``) wherever it stands: single quotes do not keep it out either, since the
    text may hold a ``'`` that closes them (make has no quoting function; just's ``quote()`` is read as safe).
    """
    g = call.g
    if label is None:
        label = f"{tool} run {target}" if tool in ("npm", "yarn", "pnpm") else f"{tool} {target}".strip()
    if elsewhere is None:
        elsewhere = g.recipe_elsewhere  # run by another program in places FlyBot did not read (grader.py)
    if elsewhere is not None:
        destructive(call, "recipe-elsewhere", f"{label}: {elsewhere}; FlyBot does not read those recipes.")
        return
    environment = sorted(name for name in g.assigned if not inert_environment(name))
    if environment:
        shown = ", ".join(shorten(name, 40) for name in environment[:3])
        destructive(
            call,
            "recipe-environment",
            f"{label} runs with {shown} set by this command: the environment can change what the recipe runs.",
        )
        return
    changed = sorted(name for name in overrides if not inert_environment(name))
    if changed:
        shown = ", ".join(shorten(name, 40) for name in changed[:3])
        destructive(
            call,
            "recipe-override",
            f"{label} is given {shown} on the command line: it sets the recipe's variables "
            "and its programs' environment, so what runs is only known when it runs.",
        )
        return
    state = g.state
    for word, what in ((directory, "directory"), (file, "file")):
        if word is not None and (word.value is None or word.value == "" or word.value.startswith("~")):
            destructive(
                call,
                "recipe-place-unknown",
                f"{label}: the recipe {what} {shorten(word.src, 60)} is only known when it runs.",
            )
            return
    if state.remote:  # on another machine or in a container (ssh, docker run): graded as that command is, by name here
        if missing is not None:
            destructive(call, "runs-program", f"{label}: {missing}")
        if not target.startswith(LIFECYCLE):
            g.name_floor(call.rec, call.scope, [target], label)
        return
    if not state.cwds:
        destructive(
            call,
            "recipe-place-unknown",
            f"{label}: the directory it runs in is only known when it runs (cd to an expansion, cd -, popd...), so its recipe cannot be read.",
        )
        return
    if tool == "make":
        overrides = sorted(set(overrides) | g.assigned)  # make takes the environment's variables as its own
    places: list[tuple[str, str, str]] = []
    for cwd in sorted(state.cwds):
        run_in = (
            posixpath.normpath(posixpath.join(cwd, directory.value))
            if directory is not None and directory.value
            else cwd
        )
        named = posixpath.normpath(posixpath.join(cwd, file.value)) if file is not None and file.value else ""
        rel = _inside(run_in, state.root)
        rel_file = _inside(named, state.root) if named else ""
        if rel is None or rel_file is None:
            outside = run_in if rel is None else named
            destructive(
                call,
                "recipe-outside-workspace",
                f"{label} runs the recipe of {shorten(outside, 80)}, outside the workspace: FlyBot does not read recipes there.",
            )
            return
        places.append((run_in, rel, rel_file))
    for run_in, rel, rel_file in places:
        _run_one(call, tool, target, label, run_in, rel, rel_file, tuple(overrides), extra, missing, arguments)
        # noted after its own lines are graded: what the recipe writes itself was not yet read when the tool read it
        noted = (run_in, rel_file, label, g.concurrent > 0 or call.scope.repeat > 0)
        if noted not in g.recipes_run:
            g.recipes_run.append(noted)


def _inside(path: str, root: str) -> str | None:
    """``path`` relative to the workspace ``root`` (``""`` for the root itself), or None when it is outside."""
    if path == root:
        return ""
    if root != "/" and path.startswith(root + "/"):
        return path[len(root) + 1 :]
    return None


def _rewritten(written: Collection[str], run_in: str, file: str) -> str | None:
    """A path written earlier in the script that can change the recipe run in ``run_in``: a recipe input there
    (:func:`~bot.risk.recipes.recipe_input`), the named recipe ``file`` (relative to the workspace root, so compared
    by its end), or ``run_in`` itself or a directory above it (a copy or extraction into it); else None."""
    for path in sorted(written):
        if run_in == path or run_in.startswith(path.rstrip("/") + "/"):
            return path
        if posixpath.dirname(path) == run_in and recipe_input(posixpath.basename(path)):
            return path
        if file and (path == file or path.endswith("/" + file)):
            return path
    return None


def _run_one(
    call: Call,
    tool: str,
    target: str,
    label: str,
    run_in: str,
    directory: str,
    file: str,
    overrides: tuple[str, ...],
    extra: list[Word] | None,
    missing: str | None = None,
    arguments: Sequence[str] | None = None,
) -> None:
    g = call.g
    stale = g.risk_before > R.READ_ONLY
    key = (tool, target, directory, file, overrides)
    if len(g.recipes_used) >= MAX_RECIPES and not any(
        (r.tool, r.target, r.directory, r.file, r.overrides) == key for r in g.recipes_used
    ):
        destructive(
            call,
            "recipes-too-many",
            f"{label}: the command runs more than {MAX_RECIPES} recipes; the rest are not graded.",
        )
        return
    rewritten = _rewritten(g.written_before, run_in, file)
    if rewritten is not None:
        destructive(
            call,
            "recipe-rewritten",
            f"{label}: this command writes {shorten(rewritten, 80)} before it runs, "
            "so the recipe that runs is not the one FlyBot read.",
        )
        return
    recipe = g.recipes.recipe(tool, target, directory, file, overrides) if g.recipes is not None else None
    # Recipes the adapter sent (GivenRecipes, not complete) can only raise the grade the server gives without them:
    # the target's name still sets its floor (make deploy: network), as when no recipe was sent.
    # A recipe with no lines (a makefile without a rule for the target and nothing run on load: make stops with
    # "No rule to make target") is graded as no recipe, as npm's missing script is: the name keeps its floor.
    given = g.recipes is not None and not g.recipes.complete
    empty = recipe is not None and not recipe.lines
    if (recipe is None or stale or given or empty) and not target.startswith(LIFECYCLE):
        g.name_floor(call.rec, call.scope, [target], label)
    if recipe is None:
        if missing is not None:
            destructive(call, "runs-program", f"{label}: {missing}")
            return
        if target.startswith(LIFECYCLE) and (g.recipes is None or not g.recipes.complete):
            # the adapter reports a package's life cycle scripts, none too: without the report they are unknown
            chosen(call, f"the package's life cycle scripts in {directory or '.'} (not reported by the adapter)", label)
        return
    if recipe not in g.recipes_used:
        size = sum(len(line.command) for used in g.recipes_used for line in used.lines)
        if size + sum(len(line.command) for line in recipe.lines) > _RECIPE_BUDGET:
            recipe = unreadable(
                tool,
                target,
                directory,
                file,
                overrides,
                f"{label} (not graded: the command's recipes hold more than {MAX_RECIPE_CHARS} characters)",
            )
        g.recipes_used.append(recipe)
    if is_unreadable(recipe):
        destructive(call, "recipe-unreadable", f"{label}: {shorten(recipe.lines[0].source, 200)}")
        return
    tail = argv_text(extra) if extra else ""
    lifecycle = target.startswith(LIFECYCLE)
    runner_argv: list[str] = []  # the command's literal words, as a simple command's argv is cut
    for word in call.rec.words:
        if word.value is None:
            break
        runner_argv.append(word.value)
    saved = g.state
    g.state = CwdState(saved.root, frozenset({run_in}), saved.remote)  # the recipe's lines run where the tool runs
    try:
        for line in recipe.lines[:MAX_LINES]:
            hidden = needs_a_person(line.command) or needs_a_person(line.source)
            if hidden is not None:  # what runs must read as what it is, a recipe's lines too
                destructive(call, "hidden-characters", f"{label} ({shorten(reveal(line.source), 60)}): {hidden}")
            before = len(g.records)
            level_before = call.rec.level
            main = line.source.endswith((f"package.json scripts.{target}", f"composer.json scripts.{target}"))
            command = line.command
            if tool == "just":
                command, code = just_arguments(command, arguments)
                if code:
                    destructive(
                        call,
                        "recipe-argument-code",
                        f"{label} ({shorten(line.source, 60)}): the words passed to the recipe reach a {{{{...}}}} "
                        "expression FlyBot does not evaluate, and they hold shell syntax, which the recipe's shell "
                        "would run as code.",
                    )
            if tool == "composer" and _COMPOSER_CALLBACK.fullmatch(command):
                # getcomposer.org "Scripts": "a PHP callback (defined as a static method)" of a class Composer
                # autoloads (the project's autoload or an installed package's, vendor/): the project's PHP code, as
                # a test runner or php artisan runs it (a composer.json written earlier in the command is
                # config-rewritten)
                build_or_test(call, f"{label} ({line.source}: the PHP callback {shorten(command, 80)})")
                continue
            if PASTED in command:
                destructive(
                    call,
                    "recipe-pasted-output",
                    f"{label}: {shorten(reveal(line.source, multiline=False), 200)} into the line as text, before the "
                    "shell reads it: the shell may read it as commands (a ;, $(...), a backtick or a quote in it).",
                )
            call.script(
                command + (tail if main else ""),
                f"{label} ({line.source})",
                # the recipe the command names runs the line; a package's life cycle scripts, run by an install, stay
                # behind the wrapper label that no standing approval looks through (bot/standing.py)
                runner=None if lifecycle else Runner(tuple(runner_argv), directory, file, line.source),
            )
            inner = max((r.level for r, _ in g.records[before:]), default=level_before)
            call.flag(
                inner,
                "recipe-line",
                f"{line.source} runs: {shorten(command, 100)}",
                subject=f"{label}: {line.source}",
            )
    finally:
        g.state = saved
    if len(recipe.lines) > MAX_LINES:
        destructive(
            call, "recipe-too-long", f"{label} runs more than {MAX_LINES} recipe lines; the rest are not graded."
        )
    call.rec.emit = True


#: A Composer script that is a PHP callback, ``Vendor\\Class::method`` (Composer's EventDispatcher takes a script
#: holding ``::`` and no space for one).
_COMPOSER_CALLBACK = re.compile(r"\\?[A-Za-z_][A-Za-z0-9_]*(?:\\[A-Za-z_][A-Za-z0-9_]*)*::[A-Za-z_][A-Za-z0-9_]*")


def workspace_settings(
    call: Call, tool: str, question: str = "", directory: Word | None = None, label: str | None = None
) -> None:
    """List in the command's :attr:`~bot.risk.model.SimpleCommand.chosen_by` what in the workspace chooses code
    ``tool`` runs (bot/risk/settings.py), read where it really runs: each directory the shell may be in, moved by
    ``directory`` (``npm --prefix``, ``git -C``). The grader's recipe book answers (the project on the adapter's
    side; on the server, what the adapter sent, and a place it did not report counts as unknown). The grade does
    not change: a reason at the command's level names what was found, and no standing approval covers it."""
    g = call.g
    state = g.state
    label = label or tool
    if state.remote or not state.cwds:
        return  # on another machine or in a directory only known when it runs: never covered anyway (outside)
    if directory is not None and (directory.value is None or directory.value.startswith("~")):
        chosen(call, f"a directory only known when it runs ({shorten(directory.src, 60)})", label)
        return
    for cwd in sorted(state.cwds):
        run_in = (
            posixpath.normpath(posixpath.join(cwd, directory.value))
            if directory is not None and directory.value
            else cwd
        )
        rel = _inside(run_in, state.root)
        if rel is None:
            chosen(call, f"{shorten(run_in, 80)}, outside the workspace", label)
            continue
        key = (tool, SETTINGS + question, rel, "", ())
        found = next((r for r in g.recipes_used if (r.tool, r.target, r.directory, r.file, r.overrides) == key), None)
        if found is None:
            found = g.recipes.recipe(tool, SETTINGS + question, rel) if g.recipes is not None else None
            if found is not None and len(g.recipes_used) < MAX_RECIPES:
                g.recipes_used.append(found)
            elif found is not None:
                found = None  # not sent, so the server could not know it either
        if found is None:
            chosen(call, f"the {tool} settings in {rel or '.'} (not reported by the adapter)", label)
            continue
        for line in found.lines:
            what = "could not be read" if line.command == UNKNOWN else reveal(line.command, multiline=False)
            chosen(call, f"{reveal(line.source, multiline=False)}: {shorten(what, 120)}", label)


def outside_settings(call: Call, tool: str, label: str, question: str) -> bool:
    """Settings that make ``tool`` run code from outside the workspace (bot/risk/settings.py :data:`OUTSIDE`:
    a cargo ``rustc-wrapper`` or ``runner`` at ``/tmp/x``, a go.mod ``replace`` with a directory outside, Maven's
    ``-javaagent:`` in ``.mvn/jvm.config``, Mocha's ``require``, bunfig's ``preload``), as the recipe book answers
    ``question`` where the shell may be (the adapter reads them and sends each finding, so the server grades the
    same): each is destructive (``runs-program``, naming the file and the setting), and True. A place outside the
    workspace or not reported is noted as :func:`workspace_settings` notes it; one that could not be read is
    destructive (``recipe-unreadable``)."""
    lines = settings_lines(call, tool, label, question)
    if lines is None:
        return True
    for line in lines:
        destructive(
            call,
            "runs-program",
            f"{label} reads {reveal(line.source, multiline=False)}: "
            f"{shorten(reveal(line.command, multiline=False), 160)}; it runs that code, which FlyBot does not read.",
        )
    return bool(lines)


def requirements_outside(call: Call, label: str, files: Sequence[Word], *, environment: bool = False) -> bool:
    """What the requirements or constraints files ``files`` (pip and uv pip ``-r``/``-c``, in the workspace) name
    from outside the workspace, as the recipe book answers bot/risk/settings.py :data:`REQUIREMENTS` (pip
    "Requirements File Format": a file's lines may include other files, a local project, an index): a file or project
    outside the workspace (``-r /tmp/x.txt``, ``-e /tmp/pkg``, ``${NAME}``) is destructive
    (``project-outside-workspace``: pip builds it, running code FlyBot does not read), an index, ``--find-links`` or a
    URL or VCS requirement is a chosen source (kit ``chosen_source``); True when either was found or the file could
    not be read (``recipe-unreadable``). A file written earlier in the same command is left to the planted-config
    rules; one not reported is noted as :func:`workspace_settings` notes it. ``environment``: the files are conda
    environment files (settings.py :data:`~bot.risk.settings.ENVIRONMENT`: channels, dependencies, the ``pip:``
    list), graded the same way."""
    from bot.risk.settings import ENVIRONMENT, REQUIREMENTS, REQUIREMENTS_OUTSIDE, REQUIREMENTS_SOURCE

    def said(line: RecipeLine) -> str:
        text = line.command.removeprefix(REQUIREMENTS_OUTSIDE).removeprefix(REQUIREMENTS_SOURCE).strip()
        return shorten(reveal(text, multiline=False), 120)

    for file in files:
        path = file.value
        if path is None or any(ord(c) < 32 or ord(c) == 127 for c in path):
            continue  # graded by the caller's rules for a dynamic or outside file
        question = (ENVIRONMENT if environment else REQUIREMENTS) + path
        if len(SETTINGS + question) > 200:
            destructive(call, "project-outside-workspace", f"{label} {shorten(file.src, 60)}: a path too long to read.")
            return True
        lines = settings_lines(call, "pip", f"{label} {shorten(file.src, 60)}", question)
        if lines is None:
            return True
        outside = [line for line in lines if line.command.startswith(REQUIREMENTS_OUTSIDE)]
        if outside:
            line = outside[0]
            destructive(
                call,
                "project-outside-workspace",
                f"{label} {shorten(file.src, 60)} reads {reveal(line.source, multiline=False)}: {said(line)}, "
                "code or requirements from outside the workspace that FlyBot does not read.",
            )
            return True
        if lines:
            line = lines[0]
            chosen_source(
                call,
                f"{label} {shorten(file.src, 60)} ({reveal(line.source, multiline=False)}: {said(line)})",
                listed=True,
            )
            return True
    return False


def configured_options(call: Call, tool: str, label: str, question: str = "") -> list[str] | None:
    """The option lines the workspace's settings give ``tool`` where it runs (bot/risk/settings.py: pytest's
    ``addopts``), from each directory the shell may be in, as the recipe book answers them (the adapter reads them and
    sends them with the escalation, so the server grades the same); ``question`` as in settings.py (pytest
    ``file PATH``: the file ``-c`` names). A place outside the workspace or not reported
    is noted as in :func:`workspace_settings` (no standing approval covers the command) and adds nothing; a place
    that could not be read is destructive (recipe-unreadable) and returns None."""
    lines = settings_lines(call, tool, label, question)
    return None if lines is None else [line.command for line in lines]


def settings_lines(
    call: Call,
    tool: str,
    label: str,
    question: str,
    *,
    required: bool = False,
    fail: Callable[[Call, str, str], None] | None = None,
) -> list[RecipeLine] | None:
    """The lines of :func:`configured_options`, with their sources. ``required``: a place that is not known, outside
    the workspace or not reported is destructive too (``recipe-unreadable``: what the command reads there is not
    known) and returns None. ``fail`` flags what cannot be read in place of ``destructive`` (called with the call,
    the rule and the detail)."""
    destructive = fail or _kit_destructive
    g = call.g
    state = g.state
    if (state.remote or not state.cwds) and required:
        destructive(call, "recipe-unreadable", f"{label}: it runs in a directory only known when it runs.")
        return None
    if state.remote or not state.cwds:
        return []
    out: list[RecipeLine] = []
    for cwd in sorted(state.cwds):
        rel = _inside(cwd, state.root)
        if rel is None and required:
            destructive(call, "recipe-unreadable", f"{label}: run from {shorten(cwd, 80)}, outside the workspace.")
            return None
        if rel is None:
            chosen(call, f"{shorten(cwd, 80)}, outside the workspace", label)
            continue
        key = (tool, SETTINGS + question, rel, "", ())
        found = next((r for r in g.recipes_used if (r.tool, r.target, r.directory, r.file, r.overrides) == key), None)
        if found is None:
            found = g.recipes.recipe(tool, SETTINGS + question, rel) if g.recipes is not None else None
            if found is not None and len(g.recipes_used) < MAX_RECIPES:
                g.recipes_used.append(found)
            elif found is not None:
                found = None  # not sent, so the server could not know it either
        if found is None and required:
            destructive(call, "recipe-unreadable", f"{label}: what it reads in {rel or '.'} was not reported.")
            return None
        if found is None:
            chosen(call, f"the {tool} settings in {rel or '.'} (not reported by the adapter)", label)
            continue
        if is_unreadable(found):
            destructive(call, "recipe-unreadable", f"{label}: {shorten(found.lines[0].source, 200)}")
            return None
        out.extend(found.lines)
    return out


def found_above(call: Call, names: Sequence[str], label: str) -> None:
    """A tool that looks for its build script or configuration (one of ``names``) in the directories above where it
    runs when there is none there (rake, bundler, pipenv, MSBuild's ``Directory.Build.*``, Gradle's settings file,
    eslint and prettier configurations): one found above the workspace, with none in the workspace on the way, is
    code from outside (project-outside-workspace), as the recipe book answers (settings.py ``above``: the adapter
    looks and sends what it found; a place it could not look at is destructive)."""
    from bot.risk.recipes import LINK_TOOL
    from bot.risk.settings import ABOVE

    question = ABOVE + " ".join(names)
    if len(SETTINGS + question) > 200:  # the longest recipe target the server takes (bot/api/models.py)
        raise ValueError(f"{label}: too many file names for one question")
    found = configured_options(call, LINK_TOOL, label, question)
    if found:
        destructive(
            call,
            "project-outside-workspace",
            f"{label} finds {shorten(found[0], 120)} above the workspace (none in it): it runs or loads that "
            "file's code, which FlyBot does not read.",
        )


def settings_start(call: Call, tool: str, label: str, question: str) -> None:
    """A use graded read-only that still starts what the workspace's settings choose (bot/risk/settings.py: a
    cargo ``[alias]`` or a rustup toolchain ``path``, question ``start`` or ``toolchain``): where the settings choose
    something, the use runs workspace code as a build does (build-or-test), each setting is listed in ``chosen_by``
    (no standing approval covers it), and a place that could not be read is destructive (:func:`configured_options`:
    fail closed)."""
    found = configured_options(call, tool, label, question)
    if found:
        build_or_test(call, f"{label} (it starts what the workspace's settings choose)")
        for setting in found:
            chosen(call, shorten(setting, 120), label)


#: Keys of ``.yarnrc.yml`` (yarnpkg.com "Settings": ``yarnPath``, the release every yarn command runs with node;
#: ``plugins``, code every yarn command loads) and of Yarn 1's ``.yarnrc`` (``yarn-path``, the release it runs
#: instead of itself), lower-cased as settings.py reports them.
_YARN_RELEASE_KEYS = frozenset({"yarnpath", "yarn-path", "plugins"})


def yarn_release(call: Call, directory: Word | None, label: str) -> None:
    """Every yarn command, ``yarn --version`` and ``yarn help`` too, first runs the release ``yarnPath`` names (and
    loads the ``plugins``) of the ``.yarnrc.yml`` or ``.yarnrc`` where it runs and in the directories above: code
    the workspace chooses, so destructive (``runs-program``), as ``node FILE`` is. Where it runs is found as
    :func:`workspace_settings` finds it; a directory outside the workspace (whose settings FlyBot does not read) or
    settings that could not be read are destructive (``recipe-elsewhere``, ``recipe-unreadable``: fail closed). A
    place the recipe book did not report is left to :func:`workspace_settings`, which notes it."""
    g = call.g
    state = g.state
    if state.remote or not state.cwds or (directory is not None and directory.value is None):
        return
    for cwd in sorted(state.cwds):
        run_in = posixpath.normpath(posixpath.join(cwd, directory.value)) if directory and directory.value else cwd
        rel = _inside(run_in, state.root)
        if rel is None:
            destructive(
                call,
                "recipe-elsewhere",
                f"{label} runs in {shorten(run_in, 80)}, outside the workspace: yarn runs the release its "
                ".yarnrc.yml names (yarnPath), which FlyBot does not read there.",
            )
            return
        key = ("yarn", SETTINGS, rel, "", ())
        found = next((r for r in g.recipes_used if (r.tool, r.target, r.directory, r.file, r.overrides) == key), None)
        if found is None and g.recipes is not None:
            found = g.recipes.recipe("yarn", SETTINGS, rel)
            if found is not None and len(g.recipes_used) < MAX_RECIPES:
                g.recipes_used.append(found)
            elif found is not None:
                found = None  # not sent, so the server could not know it either
        if found is None:
            continue
        if is_unreadable(found):
            destructive(call, "recipe-unreadable", f"{label}: {shorten(found.lines[0].source, 200)}")
            return
        for line in found.lines:
            name = posixpath.basename(line.source.rsplit(":", 1)[0])
            if name in (".yarnrc", ".yarnrc.yml") and line.command.lower() in _YARN_RELEASE_KEYS:
                destructive(
                    call,
                    "runs-program",
                    f"{label} first runs the code {reveal(line.command, multiline=False)} names in "
                    f"{reveal(line.source, multiline=False)}, which FlyBot does not see.",
                )
                return


def chosen(call: Call, what: str, label: str) -> None:
    """Note ``what`` as choosing code the command runs (see :func:`workspace_settings`)."""
    rec = call.rec
    if rec.chosen_by is None:
        rec.chosen_by = []
    if what in rec.chosen_by:
        return
    rec.chosen_by.append(what)
    call.flag(
        rec.level,
        "workspace-settings",
        f"{label} reads {what}: workspace settings that may choose the code it runs, so no standing approval covers it.",
    )


def just(call: Call) -> None:
    """just (just.systems manual): ``just [OPTIONS] [NAME=VALUE...] [RECIPE [ARGS...]]`` runs the justfile's recipe
    (dependencies first). ``--justfile FILE`` is read (relative to the shell's directory) and the recipe runs in its
    directory, or in ``--working-directory DIR``; without either, a first argument holding ``/`` names the directory
    the justfile is searched from ("Invoking justfiles in Other Directories": ``just sub/build`` is
    ``(cd sub && just build)``, ``just ../x/`` runs that justfile's default recipe); ``NAME=VALUE`` overrides are graded as :func:`run_recipe` says.
    ``--set``, ``--shell``, ``--shell-arg``, ``--dotenv-*``, ``--command``, ``--global-justfile`` and ``--choose``
    change what runs: destructive. ``--evaluate [VARIABLE]`` evaluates the assignments, running their backticks and
    ``shell()`` calls (just manual, "Command Evaluation Using Backticks"): graded as the default recipe's run, whose
    lines include them (an upper bound: the recipe's own lines are not run). The words after the recipe's name are
    its arguments ("Recipe Parameters"): ``{{PARAMETER}}`` puts them into the recipe's lines as text, so the lines are
    graded with them in place (:func:`~bot.risk.recipes.just_arguments`): shell syntax pasted unquoted is graded as
    the commands the shell reads."""
    words = call.args
    index = 0
    evaluate = False
    justfile: Word | None = None
    directory: Word | None = None
    overrides: list[str] = []
    while index < len(words):
        value = words[index].value
        if value is None:
            destructive(call, "dynamic-argument", f"The just recipe {words[index].src} is only known when it runs.")
            return
        name, eq, attached = value.partition("=")
        if not value.startswith("-"):
            if eq and name.replace("_", "").replace("-", "").isalnum():
                overrides.append(name)
                index += 1
                continue
            break
        index += 1
        if name in ("-f", "--justfile", "-d", "--working-directory"):
            taken = literal_word(attached) if eq else (words[index] if index < len(words) else Word(None, ""))
            index += 0 if eq else 1
            if name in ("-f", "--justfile"):
                justfile = taken
            else:
                directory = taken
            continue
        if name in (
            "--set",
            "--shell",
            "--shell-arg",
            "--dotenv-path",
            "--dotenv-filename",
            "--command",
            "-c",
            "-E",
            "--unstable",
            "--global-justfile",
            "-g",
            "--chooser",
            "--choose",
        ):
            destructive(call, "runs-program", f"just {name} changes which file, shell or command runs.")
            return
        if name in (
            "-l",
            "--list",
            "--summary",
            "--dump",
            "--variables",
            "--version",
            "--help",
            "-h",
            "-n",
            "--dry-run",
            "--show",
            "-s",
        ):
            read_only(call, f"just {name} only prints.")
            return
        if name == "--evaluate":
            evaluate = True
    build_or_test(call, "just")
    target = words[index].value if index < len(words) and not evaluate else ""
    if target and "/" in target and justfile is None and directory is None:
        # just manual, "Invoking justfiles in Other Directories": a first argument holding "/" is split at the
        # last "/"; just searches for the justfile from the part before it (`just foo/build` is
        # `(cd foo && just build)`, `just foo/` runs foo's default recipe)
        where, _, target = target.rpartition("/")
        directory = Word(where or "/", words[index].src)
    if justfile is not None and directory is None:
        parent = posixpath.dirname(justfile.value) if justfile.value is not None else None
        directory = Word(parent, justfile.src) if parent else None
    later = [] if evaluate else words[index + 1 :]
    passed = None if any(w.value is None or w.splits for w in later) else [str(w.value) for w in later]
    run_recipe(call, "just", target or "", directory=directory, file=justfile, overrides=overrides, arguments=passed)
    # just manual, "Recipe Parameters" and "Running Recipes": the words after the recipe are its arguments, or, for a
    # recipe that takes none, more recipes to run (``just test clean`` runs both). A later word naming a recipe is
    # read as one (an upper bound when it is an argument); one only known when it runs (``$X``, a glob) may name any
    for position, word in enumerate(later):
        if word.value is None or word.splits:
            destructive(
                call,
                "dynamic-argument",
                f"just {shorten(word.src, 40)}: a word only known when it runs may name another recipe, which runs too.",
            )
            return
        if not word.value.startswith("-") and "=" not in word.value and "/" not in word.value:
            run_recipe(
                call,
                "just",
                word.value,
                directory=directory,
                file=justfile,
                overrides=overrides,
                arguments=(passed or [])[position + 1 :],
            )


def tox(call: Call) -> None:
    """tox: installs each environment's dependencies (network) and runs its ``commands`` from ``tox.ini`` (or the
    configuration ``-c`` names, relative to the shell's directory; the commands run in its directory): the
    environments ``-e`` names (``,``-separated, blanks around them ignored), those of ``env_list`` without ``-e``
    (recipe ``TOX_DEFAULT``), every one the file names for ``-m``, ``-f`` and ``-e ALL`` (``TOX_ALL``). ``-x``/
    ``--override`` and arguments after ``--`` (``{posargs}``) change what runs: destructive; so do ``--installpkg``,
    ``--root`` and ``--discover`` outside the workspace (:data:`_TOX_CODE_OPTIONS`). tox 4 imports a
    ``toxfile.py`` next to its configuration at every start (tox "Your first plugin"), listings and ``--version``
    included: the recipe book refuses that place (recipe ``TOX_START`` for the uses that run no environment)."""
    envs: list[str] = []
    every = False
    prints: str | None = None
    words = call.args
    config: Word | None = None
    index = 0
    while index < len(words):
        word = words[index]
        value = word.value
        index += 1
        if word.splits and value is not None:
            # tox's parser (argparse) reads options anywhere: a glob may expand to a file named --override=...
            destructive(
                call,
                "glob-argument",
                f"tox {shorten(word.src, 40)}: the files a glob names are only known when it runs, "
                "and a file's name can be an option.",
            )
            return
        if value in ("-e", "--env") and index < len(words):
            envs.extend(e.strip() for e in (words[index].value or "\x00").split(","))
            index += 1
        elif value is not None and value.startswith(("-e", "--env=")) and len(value) > 2:
            envs.extend(e.strip() for e in value.split("=", 1)[-1].removeprefix("-e").split(","))
        elif value is not None and (
            value in ("-m", "--labels", "-f", "--factors") or value.startswith(("--labels=", "--factors=", "-m", "-f"))
        ):
            every = True  # tox run -m LABEL, -f FACTOR: environments chosen by the file's labels and factors
        elif value in ("-c", "--conf", "--configfile"):
            config = words[index] if index < len(words) else Word(None, "")
            index += 1
        elif value is not None and value.startswith(("--conf=", "--configfile=")):
            config = literal_word(value.split("=", 1)[1])
        elif value is not None and (value in ("-x", "--override") or value.startswith("--override=")):
            destructive(call, "runs-program", "tox --override changes the configuration, its commands too.")
            return
        elif value == "--" and index < len(words):
            destructive(call, "dynamic-argument", "tox passes the arguments after -- into the commands ({posargs}).")
            return
        elif value in ("-l", "--listenvs", "-a", "--listenvs-all", "--version", "-h", "--help", "--showconfig"):
            prints = value
        elif value is not None and _tox_code_option(value.split("=", 1)[0]):
            name, eq, attached = value.partition("=")
            taken = literal_word(attached) if eq else (words[index] if index < len(words) else Word(None, ""))
            index += 0 if eq else 1
            if taken.value is None or call.where(taken) not in (Where.WORKSPACE, Where.NOWHERE):
                destructive(
                    call,
                    "project-outside-workspace",
                    f"tox {name} {show(taken)}: a package, project or interpreter outside the workspace (or only "
                    "known when it runs) is built, installed or run, code FlyBot does not read.",
                )
                return
    if prints is not None:
        read_only(call, f"tox {prints} only prints.")
        directory, file = _tox_place(config)
        run_recipe(call, "tox", TOX_START, directory=directory, file=file, label=f"tox {prints}")
        return
    if any(e == "\x00" for e in envs):
        destructive(call, "dynamic-argument", "The tox environment is only known when it runs.")
        return
    network(call, "tox installs each environment's dependencies from the package index.", rule="package-install")
    build_or_test(call, "tox")
    directory, file = _tox_place(config)
    envs = [e for e in envs if e]
    if every or "ALL" in envs:
        envs = [TOX_ALL]  # every environment the file names (tox "ALL": all of them)
    for env in envs or [TOX_DEFAULT]:
        run_recipe(call, "tox", env, directory=directory, file=file)


#: tox 4 options naming code it builds, installs or runs (tox "CLI interface"): ``--installpkg`` "use given package
#: for installation" instead of packaging the project (an sdist's setup.py runs), ``--root`` the project root it
#: packages, ``--discover`` interpreters it tries first.
_TOX_CODE_OPTIONS = frozenset({"--installpkg", "--root", "--discover"})


def _tox_code_option(name: str) -> bool:
    """True for an option of :data:`_TOX_CODE_OPTIONS` or its argparse abbreviation (``--instal``, ``--roo``)."""
    return name.startswith("--") and len(name) >= 5 and any(o.startswith(name) for o in _TOX_CODE_OPTIONS)


def _tox_place(config: Word | None) -> tuple[Word | None, Word | None]:
    """The directory and configuration file ``tox -c CONFIG`` names (a file or a directory), or neither."""
    if config is None:
        return None, None
    if config.value is not None and config.value.endswith((".ini", ".toml", ".cfg")):
        parent = posixpath.dirname(config.value)
        return (Word(parent, config.src) if parent else None), config
    return config, None


def _poetry_self(call: Call, values: list[str | None]) -> None:
    """poetry self (python-poetry.org/docs/cli/#self): show only prints; add, install, update, lock, remove and sync
    change poetry's own environment, the plugins every later poetry run loads."""
    operands = [v for v in values if v is None or not v.startswith("-")]
    action = operands[1] if len(operands) > 1 else None
    if action == "show" or (action is None and all(v is not None for v in values)):
        read_only(call, "poetry self show only prints." if action else "poetry self without a command prints help.")
        return
    network(call, "poetry self talks to the package index.", rule="package-install")
    tool_plugin(call, f"poetry self {shorten(action or '?', 20)}")


#: Poetry settings that choose where packages come from or who is trusted to serve them (Poetry docs,
#: "Configuration": ``repositories.<name>.url``, ``http-basic.<name>``, ``pypi-token.<name>``,
#: ``certificates.<name>.cert`` (``false`` turns TLS verification off) and ``.client-cert``).
_POETRY_SOURCE_KEYS = ("repositories.", "http-basic.", "pypi-token.", "certificates.")


def _poetry_config(call: Call, rest: list[Word]) -> None:
    """``poetry config [--list] [--unset] [--local] [KEY [VALUE...]]`` (Poetry docs, "config"): without a key or
    with ``--list`` it prints the settings, with a key alone it prints that one; with values or ``--unset`` it
    changes the user's ``config.toml`` under ~ (``--local``: the project's ``poetry.toml``). A key that chooses a
    package source or turns TLS verification off (:data:`_POETRY_SOURCE_KEYS`) is graded as ``pip config set
    global.index-url``: every later install gets its packages from there."""
    values = [w.value for w in rest]
    flags = {v for v in values if v is not None and v.startswith("-")}
    operands = [w for w in rest if w.value is None or not w.value.startswith("-")]
    unknown = flags - {"--list", "--unset", "--local", "-h", "--help", "-q", "--quiet", "-n", "--no-interaction"}
    if unknown:
        destructive(
            call, "unrecognised-use", f"poetry config {shorten(sorted(unknown)[0], 40)} is not an option FlyBot knows."
        )
        return
    if "--list" in flags or "-h" in flags or "--help" in flags or not operands:
        read_only(call, "poetry config --list only prints the settings.")
        return
    key = operands[0].value
    if len(operands) == 1 and "--unset" not in flags:
        read_only(call, f"poetry config {shorten(key or '?', 40)} only prints the setting.")
        return
    what = f"poetry config{' --local' if '--local' in flags else ''} {shorten(operands[0].src, 40)}"
    if key is None or key.lower().startswith(_POETRY_SOURCE_KEYS):
        call.flag(
            R.DESTRUCTIVE,
            "package-source",
            f"{what} changes where later installs get their packages (or whether TLS is checked): future installs "
            "come from another source, which runs its code.",
            contained_level=R.WORKSPACE_WRITE,
        )
    if "--local" in flags:
        call.write(literal_word("poetry.toml"), f"{what} changes")
    else:
        call.write(Word(None, "~"), f"{what} changes poetry's configuration under")


def _poetry_env(call: Call, rest: list[Word]) -> None:
    """``poetry env`` (Poetry docs, "env"): ``info``, ``list`` and ``activate`` print; ``use PYTHON`` runs that
    interpreter to query it and makes a virtualenv for it (under ~ unless ``virtualenvs.in-project``): a path is a
    program of the caller's choosing; ``remove`` deletes environments (``--all``: every one of the project)."""
    operands = [w for w in rest if w.value is None or not w.value.startswith("-")]
    action = operands[0].value if operands else None
    if not operands or action in ("info", "list", "activate"):
        read_only(call, f"poetry env {action or ''}".rstrip() + " only prints.")
    elif action == "use":
        python = operands[1] if len(operands) > 1 else None
        value = python.value if python is not None else None
        if python is None or value is None or "/" in value or value.startswith(("~", ".")):
            destructive(
                call,
                "runs-program",
                f"poetry env use {shorten(python.src if python else '?', 60)} runs that interpreter: a program of the "
                "caller's choosing (or only known when it runs).",
            )
        else:
            call.write(Word(None, "~"), f"poetry env use {shorten(value, 40)} makes a virtualenv under")
    elif action == "remove":
        deletion(call, "poetry env remove deletes the project's virtualenvs.")
    else:
        destructive(call, "unrecognised-use", f"poetry env {shorten(action or '?', 40)} is not recognised.")


def _poetry_version(call: Call, rest: list[Word]) -> None:
    """``poetry version [RULE|VERSION]`` (Poetry docs, "version"): without an operand, or with ``--dry-run``, it
    prints; with one it rewrites the version in pyproject.toml."""
    values = [w.value for w in rest]
    operands = [v for v in values if v is None or not v.startswith("-")]
    if not operands or "--dry-run" in values:
        read_only(call, "poetry version only prints.")
        return
    call.write(literal_word("pyproject.toml"), "poetry version rewrites")


#: poetry's global options naming the project directory (poetry(1): ``-C, --directory``, ``-P, --project``).
_POETRY_PLACES = frozenset({"-C", "--directory", "-P", "--project"})


def _poetry_remote(spec: str) -> bool:
    """True for a poetry add dependency naming where it is fetched from: a URL (``https://…/x.tar.gz``,
    ``git+https://…``, ``NAME@https://…``) or a git link (``git@host:…``, ``git+ssh://…``)."""
    return "://" in spec or spec.startswith(("git+", "git@")) or "@git+" in spec or "@git@" in spec


def poetry(call: Call) -> None:
    """poetry: ``run CMD`` grades CMD as the same command typed at the prompt; install/add/update/lock/publish are network."""
    words = call.args
    values = [w.value for w in words]
    ends = values.index("run") if "run" in values else len(values)
    places: list[Word] = []
    taken: set[int] = set()
    for index, value in enumerate(values[:ends]):
        name, eq, attached = (value or "").partition("=")
        if name in _POETRY_PLACES:  # poetry(1) global options -C/--directory, -P/--project, before or after the command
            if eq:
                places.append(literal_word(attached))
            elif index + 1 < len(words):
                places.append(words[index + 1])
                taken.add(index + 1)
        elif len(name) > 2 and name[:2] in ("-C", "-P") and not name.startswith("--"):
            places.append(literal_word(name[2:]))
    for place in places:
        if place.value is None or call.where(place) is not Where.WORKSPACE:
            destructive(
                call,
                "project-outside-workspace",
                f"poetry is pointed at {shorten(place.src, 60)}, outside the workspace (or only known when it runs): "
                "its pyproject.toml chooses the sources, plugins and build backend that run.",
            )
            return
    command = next((v for i, v in enumerate(values) if i not in taken and (v is None or not v.startswith("-"))), None)
    if command in ("add", "install", "build") and local_package_outside(
        call,
        [w for w in words[values.index(command) + 1 :] if not (w.value or "").startswith("-")],
        f"poetry {command}",
    ):
        return
    if command == "add":
        # poetry add (poetry CLI docs, "add"): a git dependency (git+https://..., git@host:..., a URL with .git), a
        # URL to an archive, or NAME@URL is fetched from where the command says: a chosen source, as pip's
        specs = [w for w in words[values.index(command) + 1 :] if not (w.value or "").startswith("-")]
        remote = next((w for w in specs if w.value is not None and _poetry_remote(w.value)), None)
        if remote is not None:
            chosen_source(call, f"poetry add {shorten(remote.src, 60)}", listed=True)
    if command not in (None, "new", "init", "self", "config", "help", "about", "list", "search", "source"):
        # poetry finds the project in the nearest directory above with a pyproject.toml
        found_above(call, ("pyproject.toml",), f"poetry {command}")
    if command is None:
        read_only(call, "poetry without a command prints help.")
    elif command == "run":
        rest = words[values.index("run") + 1 :]
        if rest and rest[0].value == "--":
            rest = rest[1:]
        if not rest:
            read_only(call, "poetry run without a command does nothing.")
            return
        build_or_test(call, "poetry run")
        call.script(argv_text(rest).lstrip(), "poetry run")
        call.rec.emit = True
    elif command == "self":
        _poetry_self(call, values)
    elif command in ("install", "add", "update", "lock", "publish", "sync", "source"):
        network(call, f"poetry {command} talks to the package index.", rule="package-install")
        build_or_test(call, f"poetry {command}")
        workspace_settings(call, "python", label=f"poetry {command}")
        if command in ("install", "add", "update", "lock", "sync"):
            from bot.risk.settings import OUTSIDE

            # path and local git dependencies outside the workspace (settings.py _python_outside): poetry builds
            # them, running their build backend
            outside_settings(call, "python", f"poetry {command}", f"{OUTSIDE} poetry")
    elif command in ("config", "env", "version"):
        rest = words[values.index(command) + 1 :]
        {"config": _poetry_config, "env": _poetry_env, "version": _poetry_version}[command](call, rest)
    elif command in ("show", "check", "about", "list", "search", "help"):
        read_only(call, f"poetry {command} only prints.")
    elif command in ("build", "new", "init", "remove", "export"):
        build_or_test(call, f"poetry {command}")
    else:
        destructive(
            call, "unrecognised-use", f"poetry {shorten(command or '?', 40)} is not recognised (it may be a plugin)."
        )


#: Options of ``pdm run`` that take the next word as their value (PDM CLI reference, "run").
_PDM_RUN_VALUES = frozenset({"--skip", "--venv"})


def python_run_scripts(base: Handler) -> Handler:
    """``pdm run NAME`` and ``pipenv run NAME`` (catalogue/packages.py): the catalogue grades NAME and its words as
    the command typed at the prompt; this guard adds what the project makes the same words run instead
    (settings.py ``scripts pdm|pipenv NAME``: a ``[tool.pdm.scripts]`` or Pipfile ``[scripts]`` entry, pdm's run hooks,
    pipenv's ``.env``), destructive (``runs-program``): FlyBot does not grade project scripts of these tools. A place
    that could not be read is destructive; one not reported lists the command in ``chosen_by``. ``pdm -p DIR``
    (another project) is destructive."""

    def handler(call: Call) -> None:
        base(call)
        from bot.risk.settings import SCRIPTS

        values = [w.value for w in call.args]
        if "run" not in values:
            return
        at = values.index("run")
        if any(v is None for v in values[:at]):
            return  # a word only known when it runs: destructive already
        if call.name == "pdm" and any(
            v in ("-p", "--project") or (v or "").startswith(("-p", "--project=")) for v in values[:at]
        ):
            destructive(call, "project-outside-workspace", "pdm -p runs the scripts of the project it names.")
            return
        index = at + 1
        name: str | None = None
        while index < len(values):
            value = values[index]
            index += 1
            if value is None:
                return  # destructive already
            if value == "--":
                continue
            if value.startswith("-"):
                if value in _PDM_RUN_VALUES:
                    index += 1
                continue
            name = value
            break
        if name is None:
            return
        label = f"{call.name} run {shorten(name, 40)}"
        if len(name) > 100 or not name.isprintable():
            destructive(call, "runs-program", f"{label}: a script name FlyBot does not look up.")
            return
        lines = settings_lines(call, "python", label, f"{SCRIPTS}{call.name} {name}")
        if lines:
            shown = "; ".join(f"{line.source}: {line.command}" for line in lines[:3])
            destructive(
                call,
                "runs-program",
                f"{label} runs what the project defines ({shorten(shown, 160)}), which FlyBot does not grade.",
            )

    handler.__name__ = "python_run_scripts"
    return handler


#: ``dvc remote modify`` keys that hold credentials or tune transfers, leaving where the data goes unchanged (DVC
#: "dvc remote modify": the S3, SSH, HTTP... "Available parameters"); any other key (``url``, ``endpointurl``,
#: ``profile``...) may point the remote elsewhere.
_DVC_INERT_REMOTE_KEYS = frozenset({
    "access_key_id", "secret_access_key", "session_token", "password", "ask_password", "user", "jobs", "timeout",
    "connect_timeout", "read_timeout", "sse", "acl", "grant_read", "use_ssl", "ssl_verify_mode",
})  # fmt: skip


def _dvc_remote_change(call: Call, sub: list[str | None]) -> bool:
    """``dvc remote add|default|rename|modify`` and ``dvc config core.remote|remote.NAME.KEY`` choose where a later
    ``dvc push`` sends the project's data (DVC "dvc remote add": ``-d`` "Set the new remote as the default remote";
    "dvc remote default"; "dvc push": "Upload tracked files or directories to remote storage ... the default
    remote"), as ``git remote add``/``set-url`` choose where ``git push`` sends commits: destructive
    (remote-control-plane), since an approved ``dvc push`` would send the data where the URL says. Credentials and
    transfer settings (:data:`_DVC_INERT_REMOTE_KEYS`), ``remote default --unset`` and ``remote remove`` keep their
    grade. True when flagged."""
    operands = [v for v in sub if v is None or not v.startswith("-")]
    what: str | None = None
    if operands[:1] == ["remote"] and len(operands) > 1:
        action = operands[1]
        if action in ("add", "rename") or (action == "default" and "--unset" not in sub and "-u" not in sub):
            what = f"dvc remote {action}"
        elif action == "modify" and "--unset" not in sub and "-u" not in sub:
            key = operands[3] if len(operands) > 3 else None
            if key is None or key.lower() not in _DVC_INERT_REMOTE_KEYS:
                what = f"dvc remote modify {shorten(key or '(a key only known when it runs)', 40)}"
    elif operands[:1] == ["config"] and len(operands) > 2 and "--unset" not in sub and "-u" not in sub:
        key = (operands[1] or "").lower()
        if (
            operands[1] is None
            or key == "core.remote"
            or (key.startswith("remote.") and key.rsplit(".", 1)[-1] not in _DVC_INERT_REMOTE_KEYS)
        ):
            what = f"dvc config {shorten(operands[1] or '(a key only known when it runs)', 40)}"
    if what is None:
        return False
    destructive(
        call,
        "remote-control-plane",
        f"{what} chooses where a later dvc push sends the project's data (as git remote set-url does for git push).",
    )
    return True


def dvc_repro(base: Handler) -> Handler:
    """``dvc repro`` and ``dvc exp run`` (DVC "dvc repro", "dvc exp run"): run the ``cmd`` lines of the project's
    pipeline stages, read from the dvc.yaml of the directory they run in (recipes.py ``dvc_stages``: every stage,
    the project's only pipeline), graded as a project recipe is (:func:`run_recipe`); ``--cd DIR`` makes it run
    elsewhere: destructive. A change of where ``dvc push`` sends data is graded by :func:`_dvc_remote_change`."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        values = [w.value for w in words]
        index = 0
        while index < len(values) and (values[index] or "").startswith("-"):
            index += 2 if values[index] == "--cd" else 1
        if _dvc_remote_change(call, values[index:]):
            return
        sub = values[index : index + 2]
        if sub[:1] == ["repro"]:
            label = "dvc repro"
        elif sub in (["exp", "run"], ["experiments", "run"]):
            label = "dvc exp run"
        else:
            return
        if any(v == "--cd" or (v or "").startswith("--cd=") for v in values):
            destructive(call, "recipe-place-unknown", f"{label} --cd: the pipeline of another directory.")
            return
        run_recipe(call, "dvc", "", label=label, missing="dvc runs the pipelines of the whole project")

    handler.__name__ = "dvc_repro"
    return handler
