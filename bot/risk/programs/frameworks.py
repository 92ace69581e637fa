"""A web framework's project dispatcher: Django's ``manage.py`` and Laravel's ``artisan``.

``python manage.py COMMAND`` (or ``./manage.py``) and ``php artisan COMMAND`` (or ``./artisan``) run a file of the
project, which the agent can write: on its own it is a program FlyBot does not read (``script-file``, destructive).
Where the recipe book says the file is the framework's own dispatcher, the shape of the file the framework's project
template writes (bot/risk/settings.py ``framework_script``: only the template's statements, for manage.py a settings
module next to it), the command is graded by the framework's command catalogue (catalogue/build.py
:data:`~bot.risk.catalogue.build.DJANGO_MANAGE`, :data:`~bot.risk.catalogue.build.LARAVEL_ARTISAN`), as ``bin/rails``
is graded as rails: every command boots the project's own code (settings, apps, bootstrap/app.php), as a build runs
it, so the script is listed in ``chosen_by`` and no standing approval covers it (grader.py ``wrapper_runs``). The
file is read where the command runs (the adapter reads it and sends what it found, so the server grades the same); a
file not reported, another shape, a link, one written earlier in the same command, an interpreter option, or an
environment variable that chooses the settings or the interpreter's start keeps ``script-file``.
"""

from __future__ import annotations

import posixpath

from bot.risk.grader import Call, Handler
from bot.risk.paths import Where
from bot.risk.settings import FRAMEWORK
from bot.risk.words import Word

from .kit import destructive, show

__all__ = ["SCRIPTS", "framework_script"]

#: The dispatcher's file name -> the interpreter it is run with.
SCRIPTS = {"manage.py": "python", "artisan": "php"}

#: Variables that choose the settings, the interpreter's start or its configuration (python(1) "Environment
#: variables": PYTHONPATH, PYTHONHOME, PYTHONSTARTUP...; Django "Designating the settings": DJANGO_SETTINGS_MODULE;
#: php(1) PHPRC, PHP_INI_SCAN_DIR; Laravel "Environment Configuration": APP_ENV loads ``.env.APP_ENV``).
_CHOOSING_PREFIXES = {"python": ("PYTHON", "DJANGO_"), "php": ("PHP", "APP_ENV", "LARAVEL_")}

#: The recipe tool the dispatcher's question is asked under (bot/api/models.py: Laravel is a Composer project).
_RECIPE_TOOL = {"manage.py": "python", "artisan": "composer"}

_HANDLERS: dict[str, Handler] = {}


#: Django's commands that change the database (catalogue/build.py DJANGO_MANAGE's ``change`` group): where every
#: database is the project's own SQLite file (settings.py ``_django_database``) they write that file, a build's
#: write in the workspace, rather than a server's data.
_DATABASE_COMMANDS = frozenset(
    {"migrate", "loaddata", "createsuperuser", "changepassword", "createcachetable", "clearsessions"}
)


def _handler(kind: str) -> Handler:
    if kind not in _HANDLERS:
        from bot.risk.catalogue.build import DJANGO_MANAGE, LARAVEL_ARTISAN

        from .catalogue import compile_entry

        entry = DJANGO_MANAGE if kind.startswith("manage.py") else LARAVEL_ARTISAN
        if kind == "manage.py local":
            commands = dict(entry["commands"])  # type: ignore[call-overload]
            key = next(k for k in commands if set(k.split()) == _DATABASE_COMMANDS)
            commands[key] = {"grade": "write", "open": True}
            entry = dict(entry, commands=commands)
        _HANDLERS[kind] = compile_entry("manage.py", entry)
    return _HANDLERS[kind]


def framework_script(call: Call, script: Word, rest: list[Word]) -> None:
    """``call`` (python or php) runs the file ``script`` with the arguments ``rest``: graded by the framework's
    catalogue where ``script`` is the framework's own dispatcher in the workspace (see the module), else
    ``script-file`` (destructive)."""
    from .projects import settings_lines  # the project readers import this package's helpers

    g = call.g
    value = script.value
    kind = posixpath.basename(value or "")
    label = f"{call.name} {show(script)}"

    def refuse(why: str) -> None:
        destructive(call, "script-file", f"{label} runs the program file {show(script)}, {why}")

    if value is None or kind not in SCRIPTS or SCRIPTS[kind] != call.name.rstrip("0123456789."):
        refuse("which the classifier cannot see.")
        return
    if call.where(script) is not Where.WORKSPACE or g.recipes is None or g.linked_out(value) is not None:
        refuse("which is not a file of the workspace FlyBot can read.")
        return
    if g.written_before:
        refuse("after this command has written files: it may be one of them.")
        return
    names = set(call.rec.environment or ()) | set(g.exported)
    choosing = sorted(n for n in names if n.startswith(_CHOOSING_PREFIXES[SCRIPTS[kind]]))
    if choosing:
        refuse(f"with {choosing[0]} set, which chooses the settings or code it starts with.")
        return
    question = f"{FRAMEWORK}{kind} {value}"
    if len(question) > 180 or any(ord(c) < 32 or ord(c) == 127 for c in value):
        refuse("a path too long to read.")
        return
    lines = settings_lines(call, _RECIPE_TOOL[kind], label, question, required=True)
    if lines is None:
        return  # not reported or not readable: destructive already
    if lines:
        refuse(f"which FlyBot does not grade: {lines[0].command}.")
        return
    g.wrapper_runs(call.rec, call.scope, value)
    if kind == "manage.py" and _DATABASE_COMMANDS & {w.value for w in rest}:
        # the database those commands change: the project's own SQLite file (settings.py _django_database) or not
        noted = len(call.rec.chosen_by or ())
        local = settings_lines(call, "python", label, f"{FRAMEWORK}manage.py-database {value}")
        if local == [] and len(call.rec.chosen_by or ()) == noted:  # answered, and nothing but the SQLite file
            _handler("manage.py local")(Call(g, call.rec, call.scope, kind, rest))
            return
    _handler(kind)(Call(g, call.rec, call.scope, kind, rest))
