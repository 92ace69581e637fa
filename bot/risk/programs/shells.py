"""Shells, ``eval``, ``trap``, ``source`` and language interpreters.

``bash``/``sh``/``zsh``/``dash`` ``-c SCRIPT`` and ``eval`` with literal text are parsed and
graded recursively (zsh scripts are parsed with the bash grammar); with non-literal
text, or a shell reading its script from standard input or a file, destructive
(fail closed). Interpreters given inline code (``python -c``, ``node -e``, ``perl -e``,
``ruby -e``, ``php -r``) or a program file are destructive: the classifier cannot see
what the program does. ``python -m MODULE`` is graded as the module's own command
when that command is in the table (``pytest``, ``pip``, ...).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from bot.risk.grader import Call, Handler
from bot.risk.paths import OUTPUT_SINKS, Where
from bot.risk.reasons import shorten
from bot.risk.settings import MODULE
from bot.risk.words import Word, literal_word

from .kit import R, build_or_test, deletion, destructive, network, read_only, show, unpacks

__all__ = ["eval_", "node", "other_interpreter", "python", "shell", "source", "trap", "umask"]


def shell(call: Call) -> None:
    """bash(1) INVOCATION: options (``-c`` takes the first operand as the script; ``-o``/``-O``
    take a name; ``--rcfile``/``--init-file`` load a file), then operands."""
    words = call.args
    command_mode = False
    stdin = False
    no_exec = False
    interactive = False
    index = 0
    while index < len(words):
        value = words[index].value
        if value is None:
            break
        if value in ("--", "-"):
            index += 1
            break
        if value.startswith("--"):
            if value.split("=", 1)[0] in ("--rcfile", "--init-file"):
                destructive(call, "script-file", f"{call.name} {value} loads a script file the classifier cannot see.")
                return
            index += 1
            continue
        if value[0] not in "-+" or len(value) < 2:
            break
        index += 1
        for letter in value[1:]:
            if value[0] == "-" and letter in "ni":
                no_exec = no_exec or letter == "n"
                interactive = interactive or letter == "i"
            if letter == "c":
                command_mode = True
            elif letter == "s":
                stdin = True
            elif letter in "oO":
                index += 1
    operands = words[index:]
    if no_exec and not interactive and (command_mode or operands) and all(w.value is not None for w in words):
        # bash(1) -n: "Read commands but do not execute them" (ignored by interactive shells, so not with -i)
        read_only(call, f"{call.name} -n only reads the script and checks its syntax.")
        return
    if command_mode:
        if not operands:
            destructive(call, "unrecognised-use", f"{call.name} -c without a script is not recognised.")
        elif operands[0].value is None:
            destructive(call, "dynamic-script", f"The script given to {call.name} -c is only known when it runs.")
        else:
            call.script(operands[0].value, f"{call.name} -c")
        return
    if (stdin or not operands) and call.rec.stdin is not None and not interactive:
        # bash(1): "If no arguments remain after option processing, or if the -s option is present, then commands
        # are read from the standard input": a literal here-document or here-string is that script, graded as
        # bash -c text is (a line the script reads as data is graded as a command too: never lower)
        call.script(call.rec.stdin, f"{call.name} (its standard input)")
    elif stdin or not operands:
        destructive(
            call, "shell-stdin", f"{call.name} reads its script from standard input, which the classifier cannot see."
        )
    else:
        destructive(
            call,
            "script-file",
            f"{call.name} runs the script file {show(operands[0])}, which the classifier cannot see.",
        )


def eval_(call: Call) -> None:
    """bash ``eval [arg ...]``: the arguments joined by spaces are parsed and graded."""
    if not call.args:
        read_only(call, "eval without arguments does nothing.")
        return
    if any(w.value is None for w in call.args):
        destructive(call, "dynamic-script", "The text given to eval is only known when it runs.")
        return
    call.script(" ".join(w.value or "" for w in call.args), "eval", same_shell=True)


def source(call: Call) -> None:
    """bash ``source``/``.``: runs a script file in this shell, which the classifier cannot see."""
    destructive(call, "script-file", f"{call.name} runs a script file the classifier cannot see.")


def trap(call: Call) -> None:
    """bash ``trap [-lp] [action] [sigspec ...]``: the action is graded as a script (it may run any number of times)."""
    words = call.args
    if words and words[0].value == "--":
        words = words[1:]
    if not words or words[0].value in ("-l", "-p", "-P"):
        read_only(call, "trap only lists traps.")
        return
    action = words[0]
    if action.value is None:
        destructive(call, "dynamic-script", "The trap action is only known when it runs.")
    elif action.value in ("", "-") or (len(words) == 1 or action.value.isdigit()):
        read_only(call, "trap only resets or ignores signals.")
    else:
        call.script(action.value, "trap", repeat=True, same_shell=True, later=True)


def umask(call: Call) -> None:
    """bash(1) ``umask [-p] [-S] [mode]``: without a mode it prints the mask (read-only); with one it sets the
    permission mask of every file and directory the script creates after it (``umask 000``: world-writable), a
    change to the workspace's later writes: workspace_write."""
    modes = [w for w in call.args if w.value is None or not w.value.startswith("-")]
    if not modes:
        read_only(call, "umask only prints the file mode mask.")
        return
    mode = modes[0].value
    if mode is None or not re.fullmatch(r"[0-7]{1,4}", mode) or not int(mode, 8) & 0o002:
        # a mask without the others' write bit (umask 000, 0022 keeps it; a symbolic or unknown mode may drop it):
        # the setting lasts in an agent's persistent shell, so every file created later, in the home and by
        # approved installs too, is writable by every user of the machine (chmod(1) "o+w")
        call.flag(
            R.SYSTEM,
            "sets-umask",
            f"umask {show(modes[0])} may let every user write the files created after it, in this shell's later "
            "commands too.",
        )
        return
    call.flag(
        R.WORKSPACE_WRITE,
        "sets-umask",
        f"umask {show(modes[0])} sets the permissions of every file the script creates after it.",
    )


_PY_VALUE = frozenset({"-W", "-X", "--check-hash-based-pycs"})
_PY_MODULES_AS_COMMANDS = frozenset(
    {"pytest", "pip", "pip3", "mypy", "black", "ruff", "isort", "flake8", "pylint", "coverage", "flask", "uvicorn"}
)
#: ``python -m MODULE`` graded as another command (build docs: ``python -m build`` is ``pyproject-build``).
_PY_MODULE_COMMANDS = {"build": "pyproject-build"}


#: Modules whose use already runs the project's own code, so a file of their name in the current directory adds
#: nothing to their grade: pytest (conftest.py and the tests), unittest (the test modules), coverage (``run`` runs
#: the program), build (the project's build backend).
_PY_RUNS_PROJECT_CODE = frozenset({"pytest", "unittest", "coverage", "build"})


def _imports_warning_category(given: str | None) -> bool:
    """True when the ``-W`` filter ``action:message:category:module:lineno`` (python(1) "-W arg"; warnings
    "The Warnings Filter") names a dotted category: Python imports that module at start-up to find the class
    (``warnings._getcategory``), code loaded by name. A value only known when it runs counts; the standard
    ``warnings``/``builtins`` classes do not."""
    if given is None:
        return True
    fields = given.split(":")
    if len(fields) < 3 or "." not in fields[2]:
        return False
    return fields[2].strip().split(".", 1)[0] not in ("builtins", "warnings")


def python(call: Call) -> None:
    """python(1) "Command line": ``-c`` is inline code; ``-m MOD`` runs a module; a file operand is a program.
    ``-I`` (isolated mode) and ``-P`` keep the current directory off ``sys.path`` (see :func:`_python_module`)."""
    words = call.args
    isolated = False
    plain = True  # no option but -u and -B, which change no code that runs
    index = 0
    while index < len(words):
        value = words[index].value
        if value is None or not value.startswith("-") or value == "-":
            break
        index += 1
        plain = plain and value in ("-u", "-B", "-uB", "-Bu")
        warning = None
        if value == "-W":
            warning = words[index] if index < len(words) else Word("", "")
        elif value.startswith("-W") and not value.startswith("--"):
            warning = Word(value[2:], value[2:])
        if warning is not None and _imports_warning_category(warning.value):
            destructive(
                call,
                "runs-program",
                f"{call.name} -W {show(warning)} imports the module its warning category names at start-up.",
            )
            return
        if value in _PY_VALUE:
            index += 1
            continue
        if value in ("-V", "-VV", "--version", "-h", "--help"):
            read_only(call, f"{call.name} {value} only prints.")
            return
        letters = value[1:] if not value.startswith("--") else ""
        for position, letter in enumerate(letters):
            attached = letters[position + 1 :]
            if letter in "WX":
                index += 0 if attached else 1
                break
            if letter in "IP":
                isolated = True
            if letter == "c":
                destructive(call, "inline-code", f"{call.name} -c runs inline code the classifier cannot see.")
                return
            if letter == "m":
                module = Word(attached, attached) if attached else (words[index] if index < len(words) else None)
                _python_module(call, module, words[index + (0 if attached else 1) :], isolated=isolated)
                return
    if index >= len(words) or words[index].value == "-":
        destructive(call, "shell-stdin", f"{call.name} reads a program from standard input.")
    elif plain and posixpath.basename(words[index].value or "") == "manage.py":
        from .frameworks import framework_script

        framework_script(call, words[index], words[index + 1 :])
    else:
        destructive(
            call,
            "script-file",
            f"{call.name} runs the program file {show(words[index])}, which the classifier cannot see.",
        )


#: compileall options that take the next word as their value (Python docs, "compileall" command-line use).
_COMPILEALL_VALUES = frozenset({"-d", "-s", "-p", "-x", "-i", "-o", "-j", "-r", "-e", "--invalidation-mode"})


#: unittest options that take the next word as their value (unittest "Command-line options", "Test Discovery").
_UNITTEST_VALUES = frozenset({"-s", "--start-directory", "-t", "--top-level-directory", "-p", "--pattern", "-k"})


def _python_module(call: Call, module: Word | None, rest: list[Word], *, isolated: bool = False) -> None:
    """``python -m MODULE``: python(1) ``-m`` "the first element of sys.path will be the current directory", so a
    file ``MODULE.py`` or a package ``MODULE/`` there (for ``json.tool``: ``json``), or one named like a standard
    module the run imports (``logging.py``), runs instead of the installed
    module, as ``python FILE`` runs a program file: destructive (``script-file``) when the directory it runs in holds
    one, as the recipe book answers (settings.py ``module NAME``: the adapter looks and sends what it found, so the
    server grades the same; one it could not look at is destructive), unless ``isolated`` (``-I``, ``-P``: "Don't
    prepend a potentially unsafe path to sys.path"; ``-E`` alone does not keep it off) or the module already runs
    the project's code (:data:`_PY_RUNS_PROJECT_CODE`). Graded as the module's command besides."""
    from .projects import configured_options  # the project readers import this module's helpers

    name = module.value if module is not None else None
    top = (name or "").split(".", 1)[0]
    if name and not isolated and top not in _PY_RUNS_PROJECT_CODE:
        label = f"{call.name} -m {show(module) if module else name}"
        shadows = configured_options(call, "python", label, f"{MODULE}{top}")
        if shadows is None:
            return  # the directory could not be looked at: destructive already
        if shadows:
            destructive(
                call,
                "script-file",
                f"{label} runs {shorten(', '.join(shadows), 120)} from the directory it runs in instead of the "
                f"installed modules of those names ({top}, or a standard module it imports: -m puts that directory "
                "first on sys.path); -P or -I keeps it out.",
            )
    if name in _PY_MODULES_AS_COMMANDS:
        call.run([literal_word(name or "")] + rest, f"{call.name} -m")
    elif name in _PY_MODULE_COMMANDS:
        call.run([literal_word(_PY_MODULE_COMMANDS[name or ""])] + rest, f"{call.name} -m")
    elif name in ("unittest", "compileall", "py_compile"):
        if name == "unittest":
            from .build import runs_outside

            # unittest "Test Discovery": -s/--start-directory and -t/--top-level-directory name where the tests
            # (and the modules they import) are found; without them, the directory it runs in.
            places: list[Word | None] = [
                rest[index + 1] if index + 1 < len(rest) else Word(None, "")
                for index, word in enumerate(rest)
                if word.value in ("-s", "--start-directory", "-t", "--top-level-directory")
            ]
            places += [
                literal_word((w.value or "").partition("=")[2])
                for w in rest
                if (w.value or "").startswith(("--start-directory=", "--top-level-directory="))
            ]
            if rest and rest[0].value == "discover":
                # "-s, -t and -p ... can be passed in as positional arguments in that order": START [PATTERN [TOP]]
                positional: list[Word] = []
                skip = False
                for word in rest[1:]:
                    text = word.value
                    if skip:
                        skip = False
                    elif text is not None and text.startswith("-") and text != "-":
                        skip = "=" not in text and text in _UNITTEST_VALUES
                    else:
                        positional.append(word)
                places += [word for at, word in enumerate(positional) if at in (0, 2)]
            for place in places or [None]:
                if runs_outside(call, f"{call.name} -m unittest", place):
                    return
        else:
            _byte_code(call, name, rest)
        build_or_test(call, f"{call.name} -m {name}")
    elif name in ("zipfile", "tarfile"):
        _archive_module(call, name, rest)
    elif name == "venv":
        _venv(call, rest)
    elif name == "json.tool":
        _json_tool(call, rest)
    elif name == "http.server":
        _http_server(call, rest)
    else:
        destructive(
            call, "unrecognised", f"The Python module {show(module) if module else '(none)'} is not recognised."
        )


#: venv's long options (Python docs, "venv": ``python -m venv [-h] [--system-site-packages] [--symlinks | --copies]
#: [--clear] [--upgrade] [--without-pip] [--prompt PROMPT] [--upgrade-deps] [--without-scm-ignore-files] ENV_DIR
#: [ENV_DIR ...]``); argparse takes a unique prefix of any of them (``--cl`` is ``--clear``).
_VENV_OPTIONS = (
    "--system-site-packages", "--symlinks", "--copies", "--clear", "--upgrade", "--without-pip", "--prompt",
    "--upgrade-deps", "--without-scm-ignore-files", "--help",
)  # fmt: skip


def _venv(call: Call, rest: list[Word]) -> None:
    """``python -m venv [OPTIONS] ENV_DIR...``: each ENV_DIR is created or written (a write there). ``--clear``
    ("Delete the contents of the environment directory if it already exists, before environment creation"; venv's
    ``EnvBuilder.clear_directory`` removes every file and directory in it, whatever made them) is a deletion of each
    ENV_DIR, graded as ``rm -rf ENV_DIR`` is (kit.deletion, Grader.removes: the workspace root is
    ``protected-deletion``). A word only known when it runs may be ``--clear``."""
    targets: list[Word] = []
    clears = False
    index = 0
    while index < len(rest):
        word = rest[index]
        value = word.value
        index += 1
        if value is None:
            clears = True  # it may be --clear, or a directory
            targets.append(word)
            continue
        if not value.startswith("-") or value == "-":
            targets.append(word)
            continue
        option, eq, _ = value.partition("=")
        found = [name for name in _VENV_OPTIONS if name.startswith(option)] if option.startswith("--") else []
        if option == "--clear" or (len(found) == 1 and found[0] == "--clear"):
            clears = True
        elif len(found) == 1 and found[0] == "--prompt" and not eq:
            index += 1  # the prompt's text
    what = f"{call.name} -m venv --clear deletes the contents of"
    if clears:
        deletion(call, f"{call.name} -m venv --clear deletes everything in the environment directory first.")
    for target in targets or [literal_word(".")]:
        if clears:
            call.g.removes(call.rec, call.scope, target, what)
        call.write(target, "python -m venv creates")


def _http_server(call: Call, rest: list[Word]) -> None:
    """``python -m http.server [-b ADDRESS] [-d DIR] [-p VERSION] [PORT]`` (Python docs, "http.server": "serves
    files relative to the current directory", ``-d/--directory`` another one; ``--cgi`` runs CGI scripts on
    request): a server other machines may connect to, network. Serving a directory that may hold credentials
    (sensitive.may_hold_credential: ``~``, ``/``, ``~/.ssh``) hands them to whoever connects: destructive, as any
    option not listed or a word only known when it runs. Without ``-d`` that is the directory it runs in
    (:func:`serves_where_it_runs`: ``cd / && python3 -m http.server``)."""
    index = 0
    directory_given = False
    while index < len(rest):
        word = rest[index]
        value = word.value
        index += 1
        if value is None:
            destructive(call, "dynamic-argument", f"{show(word)} may be an http.server option or directory.")
            return
        name, eq, attached = value.partition("=")
        if name in ("-d", "--directory"):
            served = literal_word(attached) if eq else (rest[index] if index < len(rest) else None)
            index += 0 if eq else 1
            directory_given = True
            if _serves_secrets(call, "http.server", served.value if served is not None else None):
                return
        elif name == "--cgi":
            destructive(call, "runs-program", "http.server --cgi runs the CGI scripts it serves.")
            return
        elif name in ("-b", "--bind", "-p", "--protocol"):
            index += 0 if eq else 1
        elif value.startswith("-") and value not in ("-h", "--help"):
            destructive(call, "unrecognised-use", f"http.server {show(word)} is not a recognised option.")
            return
    if not directory_given and serves_where_it_runs(call, "http.server"):
        return
    network(call, "python -m http.server serves the directory's files to other machines.", rule="listens")


def _byte_code(call: Call, name: str, rest: list[Word]) -> None:
    """compileall and py_compile write each source's byte code next to it (``__pycache__``, or beside it with
    compileall ``-b``): the operands are write targets (Python docs, "compileall", "py_compile"). Without operands
    compileall compiles every directory on ``sys.path`` ("If no argument is given, behave as if the command line
    was ``-l <directories from sys.path>``"); ``-i LIST`` (``-`` standard input) and py_compile's ``-`` take the
    names from a file: the byte code then lands in places only known when it runs."""
    index = 0
    operands = 0
    while index < len(rest):
        word = rest[index]
        value = word.value
        index += 1
        if value is not None and value.startswith("-") and value != "-":
            if value == "-i" and name == "compileall":
                call.write(Word(None, "the files -i lists"), f"{call.name} -m compileall -i writes byte code of")
            index += 1 if value in _COMPILEALL_VALUES else 0
            continue
        operands += 1
        if value == "-":
            call.write(Word(None, "the files standard input lists"), f"{call.name} -m {name} writes byte code of")
        else:
            call.write(word, f"{call.name} -m {name} writes byte code in")
    if name == "compileall" and not operands:
        call.write(Word(None, "sys.path"), f"{call.name} -m compileall without a directory writes byte code in")


#: The commands of the zipfile and tarfile command-line interfaces (Python docs, "zipfile" and "tarfile",
#: Command-Line Interface): ``-l``/``--list`` and ``-t``/``--test`` read the archive, ``-c``/``--create ARCHIVE
#: SOURCE...`` writes ARCHIVE, ``-e``/``--extract ARCHIVE [DIR]`` extracts into DIR (the current directory when
#: tarfile is given none). argparse takes a unique prefix of a long option.
_ARCHIVE_COMMANDS = {"-l": "list", "-t": "test", "-c": "create", "-e": "extract"}
_ARCHIVE_LONG = {"--list": "list", "--test": "test", "--create": "create", "--extract": "extract"}
#: Their other options: flags, and those taking a value (zipfile ``--metadata-encoding``, tarfile ``--filter``).
_ARCHIVE_FLAGS = ("-v", "--verbose")
_ARCHIVE_VALUED = ("--metadata-encoding", "--filter")


def _archive_option(value: str, names: Iterable[str]) -> str | None:
    """The long option of ``names`` that ``value`` (``--cr``, ``--filter=data``) spells, or None."""
    given = value.split("=", 1)[0]
    found = [name for name in names if len(given) >= 3 and name.startswith(given)]
    return found[0] if len(found) == 1 else None


def _archive_module(call: Call, name: str, rest: list[Word]) -> None:
    """``python -m zipfile``/``python -m tarfile`` (:data:`_ARCHIVE_COMMANDS`): graded by what each command
    writes, and ``-c``'s files as tar's are read (Grader.read_below); an option not listed, or a word only known when
    it runs, is refused."""
    label = f"{call.name} -m {name}"
    command: str | None = None
    operands: list[Word] = []
    index = 0
    while index < len(rest):
        word = rest[index]
        value = word.value
        index += 1
        if value is None:
            destructive(call, "dynamic-argument", f"{label}: {show(word)} is only known when it runs.")
            return
        if not value.startswith("-") or value == "-":
            operands.append(word)
            continue
        spelt = _ARCHIVE_COMMANDS.get(value) or _ARCHIVE_LONG.get(_archive_option(value, _ARCHIVE_LONG) or "")
        if spelt is not None and command is None:
            command = spelt
        elif value in _ARCHIVE_FLAGS or _archive_option(value, _ARCHIVE_FLAGS[1:]) is not None:
            continue
        elif _archive_option(value, _ARCHIVE_VALUED) is not None:
            index += 0 if "=" in value else 1
        else:
            destructive(call, "unrecognised", f"{label} {show(word)} is not an option FlyBot knows.")
            return
    if command in ("list", "test") or command is None:
        read_only(call, f"{label} only lists or tests an archive.")
    elif command == "create" and operands:
        call.write(operands[0], f"{label} -c writes the archive")
        # each file added is read with everything below it (the CLI adds a directory's tree, as tar -c does); an
        # archive written to standard output (/dev/stdout, /dev/fd/1) goes to the model with every file's content
        printed = operands[0].value in OUTPUT_SINKS
        for word in operands[1:]:
            call.g.read_below(call.rec, call.scope, label, word, None, printed=printed)
    elif command == "extract" and operands:
        dest = operands[1] if len(operands) > 1 else literal_word(".")
        unpacks(call, dest, f"{label} -e extracts into")


#: json.tool's option that takes a value; argparse accepts any unique prefix of it (``--ind 2``).
_JSON_TOOL_VALUED = "--indent"


def _json_tool(call: Call, rest: list[Word]) -> None:
    """Python docs, "json.tool" command-line interface: ``python -m json.tool [options] [infile [outfile]]``;
    ``outfile`` means "write the output of the infile to the given outfile", so a second operand is written
    (argparse takes operands between options, and every word after ``--`` as one)."""
    operands: list[Word] = []
    index = 0
    options_done = False
    while index < len(rest):
        word = rest[index]
        value = word.value
        index += 1
        if value is None:
            # an option or an operand, only known when it runs: it may be the output file
            call.write(word, "python -m json.tool may write")
            continue
        if not options_done and value == "--":
            options_done = True
        elif not options_done and value.startswith("-") and value != "-":
            if "=" not in value and len(value) > 3 and _JSON_TOOL_VALUED.startswith(value):
                index += 1
        else:
            operands.append(word)
    if len(operands) >= 2:
        for word in operands[1:]:
            if word.value != "-":
                call.write(word, "python -m json.tool writes its output to")
        return
    read_only(call, "json.tool with at most one operand only prints.")


#: node(1) options whose value is a module node loads before the tests (``-r``/``--require``, ``--import``,
#: ``--loader``/``--experimental-loader``), a reporter module (``--test-reporter``: "a module name or a path") or a
#: file of environment variables (``--env-file``: NODE_OPTIONS there may ``--require`` more).
_NODE_LOADS = frozenset({
    "-r", "--require", "--import", "--loader", "--experimental-loader", "--test-reporter", "--env-file",
    "--env-file-if-exists",
})  # fmt: skip


def _test_loads_outside(call: Call) -> bool:
    """``node --test`` given a module from outside the workspace (a path that is absolute, under ``~`` or climbs
    with ``..``) to load or one only known when it runs: destructive (``project-outside-workspace``), and True. A
    package name (``--import tsx``, ``--test-reporter spec``) resolves in the workspace's node_modules."""
    words = call.args
    for index, word in enumerate(words):
        name, eq, attached = (word.value or "").partition("=")
        if name not in _NODE_LOADS:
            continue
        given = Word(attached, attached) if eq else (words[index + 1] if index + 1 < len(words) else None)
        path = given.value if given is not None else None
        # a URL (file:///tmp/x.mjs, data:text/javascript,CODE, https:) names code from outside too
        if path is not None and ":" not in path:
            if not path.startswith(("/", "~")) and "../" not in path and path != "..":
                continue
            if call.where(Word(path, path)) in (Where.WORKSPACE, Where.NOWHERE):
                continue
        destructive(
            call,
            "project-outside-workspace",
            f"{call.name} --test {name} loads {show(given) if given is not None else 'a module'} from outside the "
            "workspace: code FlyBot does not read.",
        )
        return True
    return False


#: node(1) options naming a file or directory node writes (``--test-reporter-destination``, ``--redirect-warnings``,
#: ``--cpu-prof-dir``, ``--heap-prof-dir``, ``--diagnostic-dir``, ``--report-dir``/``--report-directory``,
#: ``--tls-keylog``): graded as writes, not as test files.
_NODE_OUTPUTS = frozenset({
    "--test-reporter-destination", "--redirect-warnings", "--cpu-prof-dir", "--heap-prof-dir", "--diagnostic-dir",
    "--report-dir", "--report-directory", "--tls-keylog",
})  # fmt: skip


def _tests_outside(call: Call) -> bool:
    """``node --test [FILES|GLOBS]`` (Node.js docs, "Test runner": "node --test ... the test runner executes the
    given files", or the test files it finds from the directory it runs in): a test file or directory outside the
    workspace (``node --test /tmp/x.test.js``, ``../other``), or a run from a directory outside it, runs code there
    that FlyBot does not read: destructive (``project-outside-workspace``), as ``pytest /tmp/x`` and ``go test
    /opt/o/...`` are, and True. The files its output options name are graded as writes."""
    from .build import _output_options, _outside_project, runs_outside

    _output_options(call, call.args, _NODE_OUTPUTS, "node --test")
    return _outside_project(call, call.args, "node --test", _NODE_OUTPUTS) or runs_outside(call, "node --test")


def node(call: Call) -> None:
    """node(1): ``-e``/``-p`` are inline code; ``--test`` runs the project's tests; a file operand is a program;
    ``-c``/``--check FILE`` alone only checks its syntax ("Syntax check the script without executing")."""
    words = call.args
    values = [w.value for w in words]
    if len(values) == 2 and values[0] in ("-c", "--check") and values[1] and not values[1].startswith("-"):
        read_only(call, f"{call.name} {values[0]} only checks the syntax of {show(words[1])}; it runs nothing.")
        return
    for word in words:
        value = word.value
        if value is None:
            break
        if value in ("-e", "--eval", "-p", "--print", "-pe") or value.startswith(("--eval=", "--print=")):
            destructive(call, "inline-code", f"{call.name} {value} runs inline code the classifier cannot see.")
            return
        if value in ("-v", "--version", "-h", "--help"):
            read_only(call, f"{call.name} {value} only prints.")
            return
        if value == "--test":
            if not _test_loads_outside(call) and not _tests_outside(call):
                build_or_test(call, "node --test")
            return
        if not value.startswith("-"):
            break
    destructive(call, "script-file", f"{call.name} runs a program the classifier cannot see.")


#: Syntax checks that compile a file without running any of it, with the only options accepted around them:
#: ruby(1) ``-c`` ("check the syntax of the script and exit without executing"), ``-w``/``-W`` warnings; php(1)
#: ``-l`` ("syntax check only (lint)"), ``-n`` (no php.ini). perl ``-c`` is not here: perlrun(1) says it still runs
#: BEGIN, UNITCHECK and CHECK blocks and ``use`` statements.
_SYNTAX_CHECKS = {
    "ruby": ("-c", frozenset({"-c", "-w", "-cw", "-wc", "-W", "-W0", "-W1", "-W2"})),
    "php": ("-l", frozenset({"-l", "-n", "-ln", "-nl"})),
}


def _syntax_check(name: str, values: list[str | None]) -> bool:
    """True for ``ruby -c FILE...`` / ``php -l FILE...``: known options only, the check among them, then files."""
    check = _SYNTAX_CHECKS.get(name)
    if check is None or any(v is None for v in values):
        return False
    flag, allowed = check
    options = [v for v in values if v and v.startswith("-")]
    files = [v for v in values if v and not v.startswith("-")]
    first_file = next((i for i, v in enumerate(values) if v and not v.startswith("-")), len(values))
    return (
        bool(files)
        and all(v in allowed for v in options)
        and any(flag[1] in v for v in options)
        and all(v is not None and v.startswith("-") for v in values[:first_file])
    )


def other_interpreter(call: Call) -> None:
    """perl(1) ``-e``/``-E``, ruby(1) ``-e``, php(1) ``-r``, tsx and ts-node ``-e``: inline code; any program:
    destructive; only ``-v``/``--version`` (and php's ``-m``, ``--ini``) is read-only."""
    inline = {"perl": "eE", "ruby": "e", "php": "r"}.get(call.name, "e")
    values = [w.value for w in call.args]
    if values in (["-v"], ["--version"], ["-V"]) or (call.name == "php" and values in (["-m"], ["--ini"])):
        # php(1): "-m Show compiled in modules", "--ini Show configuration file names": no script runs
        read_only(call, f"{call.name} {values[0]} only prints.")
        return
    if call.name.startswith("php") and values and posixpath.basename(values[0] or "") == "artisan":
        from .frameworks import framework_script

        framework_script(call, call.args[0], call.args[1:])
        return
    if _syntax_check(call.name, values):
        read_only(call, f"{call.name} {values[0]} only checks the syntax of {show(call.args[-1])}; it runs nothing.")
        return
    for value in values:
        if (
            value is not None
            and value.startswith("-")
            and not value.startswith("--")
            and any(ch in value[1:] for ch in inline)
        ):
            destructive(call, "inline-code", f"{call.name} {value} runs inline code the classifier cannot see.")
            return
    destructive(call, "script-file", f"{call.name} runs a program the classifier cannot see.")


def _serves_secrets(call: Call, server: str, directory: str | None) -> bool:
    """Grade ``directory`` as the one ``server`` serves to every machine that connects: destructive when it is only
    known at run time (dynamic-argument) or may hold credentials (sensitive.may_hold_credential) outside the workspace
    and the temporary directory (serves-secrets). True when it graded."""
    from bot.risk.paths import Where
    from bot.risk.sensitive import may_hold_credential

    if directory is None:
        destructive(call, "dynamic-argument", f"The directory {server} serves is only known when it runs.")
        return True
    what = may_hold_credential(directory)
    if what is None or call.where(Word(directory, directory)) in (Where.WORKSPACE, Where.TEMP):
        return False
    destructive(
        call,
        "serves-secrets",
        f"{server} serves {shorten(directory, 60)}, which may hold {what}, to any machine that connects.",
    )
    return True


def serves_where_it_runs(call: Call, server: str) -> bool:
    """Grade the directory ``server`` runs in as the one it serves (:func:`_serves_secrets`): each directory the
    shell may be in there (``cd / && ...``, ``cd ~ && ...``), or one only known when it runs. True when it graded."""
    from bot.risk.paths import Where

    state = call.g.state
    if state.remote or call.where(literal_word(".")) in (Where.WORKSPACE, Where.TEMP):
        return False
    if not state.cwds:
        return _serves_secrets(call, server, None)
    return any(_serves_secrets(call, server, cwd) for cwd in sorted(state.cwds))


def served_directory(base: Handler) -> Handler:
    """http-server (npm; README: "http-server [path] [options]", "-a Address to use (defaults to 0.0.0.0)"): it
    serves the directory it is given to every machine that connects (with none, ``./public`` if there is one, else
    the directory it runs in); one that may hold credentials (``/``, a home, ``~/.ssh``, ``/etc``) outside the
    workspace is destructive (serves-secrets), as ``python3 -m http.server --directory /`` is."""

    def handler(call: Call) -> None:
        base(call)
        operands = [w for w in call.args if w.value is None or not w.value.startswith("-")]
        for word in operands:
            if _serves_secrets(call, call.name, word.value):
                return
        if not operands:
            serves_where_it_runs(call, call.name)

    handler.__name__ = "served_directory"
    return handler
