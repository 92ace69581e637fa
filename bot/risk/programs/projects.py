"""Project scripts (issue 14): grade the recipe ``make X``/``npm run X``/``yarn X``/``pnpm X``/``just X``/``tox -e X`` runs.

The recipe comes from the grader's :class:`~bot.risk.recipes.RecipeBook` (the project on the session's side,
the adapter's expansion on the server). Each line is graded as a script in a project scope (a program not in
the table is the project's own code: workspace_write, see ``Grader.project_program``) and named in a reason.
When the recipe cannot be read, or something earlier in the same script may have changed it (the script's
grade was above read-only before this command), the target's name decides too: deploy/release/publish/push
are at least network, destroy/clean at least destructive. ``poetry run CMD`` grades CMD in a project scope.
A recipe line with hidden or look-alike characters grades destructive, as such a command does (issue 11 §2).
"""

from __future__ import annotations

from bot.risk.grader import Call
from bot.risk.hidden import needs_a_person, reveal
from bot.risk.reasons import shorten
from bot.risk.recipes import MAX_LINES
from bot.risk.words import Word

from .kit import R, argv_text, build_or_test, destructive, network, read_only

__all__ = ["just", "poetry", "run_recipe", "tox"]


def run_recipe(call: Call, tool: str, target: str, *, directory: str | None = None, file: str | None = None, extra: list[Word] | None = None) -> None:
    """Grade what ``tool target`` runs (see the module docstring)."""
    g = call.g
    stale = g.risk_before > R.READ_ONLY
    recipe = g.recipes.recipe(tool, target, directory, file) if g.recipes is not None else None
    label = f"{tool} run {target}" if tool in ("npm", "yarn", "pnpm") else f"{tool} {target}".strip()
    if recipe is None or stale:
        g.name_floor(call.rec, call.scope, [target], label)
    if recipe is None:
        return
    g.recipes_used.append(recipe)
    tail = argv_text(extra) if extra else ""
    for line in recipe.lines[:MAX_LINES]:
        hidden = needs_a_person(line.command) or needs_a_person(line.source)
        if hidden is not None:  # issue 11 §2: what runs must read as what it is, a recipe's lines too
            destructive(call, "hidden-characters", f"{label} ({shorten(reveal(line.source), 60)}): {hidden}")
        before = len(g.records)
        level_before = call.rec.level
        call.script(line.command + (tail if line.source.startswith("package.json scripts." + target) else ""), f"{label} ({line.source})", project=True)
        inner = max((r.level for r, _ in g.records[before:]), default=level_before)
        call.flag(inner, "recipe-line", f"{line.source} runs: {shorten(line.command, 100)}", subject=f"{label}: {line.source}")
    if len(recipe.lines) > MAX_LINES:
        destructive(call, "recipe-too-long", f"{label} runs more than {MAX_LINES} recipe lines; the rest are not graded.")
    call.rec.emit = True


def just(call: Call) -> None:
    """just: ``just [OPTIONS] [RECIPE [ARGS...]]`` runs the justfile's recipe (dependencies first)."""
    words = call.args
    index = 0
    directory: str | None = None
    while index < len(words):
        value = words[index].value
        if value is None:
            destructive(call, "dynamic-argument", f"The just recipe {words[index].src} is only known when it runs.")
            return
        if not value.startswith("-"):
            break
        index += 1
        if value in ("-f", "--justfile", "-d", "--working-directory", "--set", "--shell", "--shell-arg", "--dotenv-path", "--dotenv-filename", "--command", "-c"):
            destructive(call, "runs-program", f"just {value} changes which file, shell or command runs.")
            return
        if value in ("-l", "--list", "--summary", "--dump", "--evaluate", "--variables", "--version", "--help", "-h", "-n", "--dry-run", "--show", "-s"):
            read_only(call, f"just {value} only prints.")
            return
    build_or_test(call, "just")
    target = words[index].value if index < len(words) else ""
    run_recipe(call, "just", target or "", directory=directory)


def tox(call: Call) -> None:
    """tox: installs each environment's dependencies (network) and runs its ``commands`` (tox.ini)."""
    envs: list[str] = []
    words = call.args
    for index, word in enumerate(words):
        value = word.value
        if value in ("-e", "--env") and index + 1 < len(words):
            envs.extend((words[index + 1].value or "\x00").split(","))
        elif value is not None and value.startswith(("-e", "--env=")) and len(value) > 2:
            envs.extend(value.split("=", 1)[-1].removeprefix("-e").split(","))
        elif value in ("-l", "--listenvs", "-a", "--listenvs-all", "--version", "-h", "--help", "--showconfig"):
            read_only(call, f"tox {value} only prints.")
            return
    if any(e == "\x00" for e in envs):
        destructive(call, "dynamic-argument", "The tox environment is only known when it runs.")
        return
    network(call, "tox installs each environment's dependencies from the package index.", rule="package-install")
    build_or_test(call, "tox")
    for env in envs or ["py"]:
        run_recipe(call, "tox", env)


def poetry(call: Call) -> None:
    """poetry: ``run CMD`` grades CMD as the project's code; install/add/update/lock/publish are network."""
    words = call.args
    values = [w.value for w in words]
    command = next((v for v in values if v is None or not v.startswith("-")), None)
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
        call.script(argv_text(rest).lstrip(), "poetry run", project=True)
        call.rec.emit = True
    elif command in ("install", "add", "update", "lock", "publish", "sync", "self", "source"):
        network(call, f"poetry {command} talks to the package index.", rule="package-install")
        build_or_test(call, f"poetry {command}")
    elif command in ("show", "check", "about", "version", "list", "search", "env", "config", "help"):
        read_only(call, f"poetry {command} only prints.")
    elif command in ("build", "new", "init", "remove", "export"):
        build_or_test(call, f"poetry {command}")
    else:
        destructive(call, "unrecognised-use", f"poetry {shorten(command or '?', 40)} is not recognised (it may be a plugin).")
