"""Wrappers: programs that run another command, which is what gets graded.

``env``, ``timeout``, ``nice``, ``nohup``, ``stdbuf``, ``time``, ``ionice``, ``setsid``,
``command``, ``builtin``, ``exec`` and ``sudo`` are unwrapped in place (the simple
command's argv becomes the wrapped command's). ``xargs`` grades the command it runs
with an unknown argument appended (xargs(1): "the command ... is executed one or more
times with any initial-arguments followed by items read from standard input");
``xargs`` without a command runs ``echo``. ``find -exec``/``-execdir``/``-ok``/``-okdir``
grade the executed command as a separate simple command.
"""

from __future__ import annotations

import re
import shlex

from bot.risk.grader import XARGS_INPUT, Call, prints_content
from bot.risk.options import Scan, long_is, scan
from bot.risk.paths import Where
from bot.risk.reasons import shorten
from bot.risk.walker import environment_risk, harmless_value
from bot.risk.words import Word, dynamic_word, literal_word

from .kit import R, deletion, destructive, read_only, refuse, shifted, show

__all__ = [
    "arch",
    "builtin",
    "command",
    "env",
    "exec_",
    "find",
    "ionice",
    "nice",
    "nohup",
    "parallel",
    "script",
    "setsid",
    "stdbuf",
    "su",
    "sudo",
    "sudoedit",
    "time_",
    "timeout",
    "watch",
    "xargs",
]  # fmt: skip


def _assignments(call: Call, words: list[Word], start: int) -> int:
    """Skip ``NAME=value`` words (env(1), sudo(8)); any name but an inert one grades destructive
    (:func:`~bot.risk.walker.environment_risk`)."""
    index = start
    while index < len(words):
        value = words[index].value
        if value is None or "=" not in value or value.startswith("="):
            break
        name, assigned = value.split("=", 1)
        call.g.assigned.add(name)
        why = environment_risk(name)
        if harmless_value(name, assigned):  # ``env MAKEFLAGS=-j4 make``
            why = None
            call.g.assigned.discard(name)
        if why is not None:
            destructive(call, "env-hijack", why)
        index += 1
    return index


def env(call: Call) -> None:
    """env(1) (GNU coreutils): options, ``NAME=value`` words, then the command; ``-S`` is refused;
    ``-C DIR`` runs the command in DIR; ``-a``/``--argv0 ARG`` (coreutils 9.5) takes a value, the zeroth argument
    the command is given, so the word after it is not the command; without a command it prints the environment."""
    words = call.args
    index = 0
    cwd: Word | None = None
    while index < len(words):
        value = words[index].value
        if value is None or not value.startswith("-"):
            break
        index += 1
        if value == "--":
            break
        if value == "-":
            continue
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            if long_is(name, "--split-string"):
                destructive(
                    call, "dynamic-script", "env -S splits a string into a command line the classifier does not parse."
                )
                return
            if long_is(name, "--chdir") or long_is(name, "--unset") or long_is(name, "--argv0"):
                taken = Word(attached, attached) if eq else (words[index] if index < len(words) else None)
                index += 0 if eq else 1
                if long_is(name, "--chdir"):
                    cwd = taken
            continue
        letters = value[1:]
        for position, letter in enumerate(letters):
            if letter == "S":
                destructive(
                    call, "dynamic-script", "env -S splits a string into a command line the classifier does not parse."
                )
                return
            if letter in "uCa":
                attached = letters[position + 1 :]
                taken = Word(attached, attached) if attached else (words[index] if index < len(words) else None)
                index += 0 if attached else 1
                if letter == "C":
                    cwd = taken
                break
    options = [w.src for w in words[:index] if w.src != "--"]
    index = _assignments(call, words, index)
    rest = words[index:]
    if shifted(call, words[:index]):
        return
    if not rest:
        read_only(call, "env without a command prints the environment.")
        return
    # Any option (-i, -u, -C, --argv0, --ignore-signal...) changes how the command runs: it is named in the
    # wrapper, which no standing approval looks through (bot/standing.py LOCAL_WRAPPERS).
    call.run(rest, " ".join(["env", *options]), cwd=cwd)


def _run_rest(call: Call, rest: list[Word], wrapper: str, *, child_process: bool = True) -> None:
    if shifted(call, call.args[: len(call.args) - len(rest)]):
        return
    if not rest:
        read_only(call, f"{call.name} without a command runs nothing.")
        return
    call.run(rest, wrapper, child_process=child_process)


def arch(call: Call) -> None:
    """arch: GNU coreutils arch(1) takes no operand and prints the machine's architecture (``uname -m``); macOS
    arch(1) runs a program under an architecture: ``arch [-32] [-64] [[-ARCH_NAME | -arch ARCH_NAME]...] [-c]
    [-d ENVNAME]... [-e ENVNAME=VALUE]... [-h] prog [args ...]``, so the words after its options are a command,
    graded as such (``arch -x86_64 rm -rf ~`` is ``rm -rf ~``), and ``-e NAME=VALUE`` puts a variable in its
    environment as ``env NAME=VALUE`` does. Without a program it only prints."""
    words = call.args
    index = 0
    while index < len(words):
        value = words[index].value
        if value is None or not value.startswith("-") or value in ("-", "--"):
            break
        index += 1
        if value in ("-arch", "-d", "-e") and index < len(words):
            if value == "-e":
                _assignments(call, words[index : index + 1], 0)
            index += 1
    _run_rest(call, words[index:], "arch")


def timeout(call: Call) -> None:
    """timeout(1): ``timeout [OPTION] DURATION COMMAND [ARG]...``."""
    found = scan(call.args, "sk", frozenset({"--signal", "--kill-after"}), stop_at_operand=True)
    _run_rest(call, found.rest[1:], "timeout")


def nice(call: Call) -> None:
    """nice(1): ``nice [-n N] [COMMAND [ARG]...]``."""
    found = scan(call.args, "n", frozenset({"--adjustment"}), stop_at_operand=True)
    _run_rest(call, found.rest, "nice")


def nohup(call: Call) -> None:
    """nohup(1): ``nohup COMMAND [ARG]...``."""
    words = call.args
    _run_rest(call, words[1:] if words and words[0].value == "--" else words, "nohup")


def stdbuf(call: Call) -> None:
    """stdbuf(1): ``stdbuf OPTION... COMMAND``."""
    found = scan(call.args, "ioe", frozenset({"--input", "--output", "--error"}), stop_at_operand=True)
    _run_rest(call, found.rest, "stdbuf")


def time_(call: Call) -> None:
    """bash's ``time [-p]`` keyword and GNU time(1) (``-o FILE`` writes, ``-f FMT``). The word ``time`` first in a
    command is bash's reserved word (bash(1) "Pipelines"): it times the pipeline in the current shell, so a builtin
    it times (``time cd DIR``, ``time pushd DIR``, ``time eval 'cd DIR'``) changes this shell's directory."""
    found = scan(call.args, "of", frozenset({"--output", "--format"}), stop_at_operand=True)
    for output in found.values("-o", "--output"):
        call.write(output, "time -o writes")
    keyword = not call.rec.wrappers and bool(call.rec.words) and call.rec.words[0].value == "time"
    _run_rest(call, found.rest, "time", child_process=not keyword)


def ionice(call: Call) -> None:
    """ionice(1): runs a command; ``-p``/``-P``/``-u`` change other processes (system)."""
    found = scan(
        call.args, "cnpPu", frozenset({"--class", "--classdata", "--pid", "--pgid", "--uid"}), stop_at_operand=True
    )
    if found.has("-p", "-P", "-u", "--pid", "--pgid", "--uid"):
        call.flag(R.SYSTEM, "system-command", "ionice -p/-P/-u changes other processes.")
        return
    _run_rest(call, found.rest, "ionice")


def setsid(call: Call) -> None:
    """setsid(1): ``setsid [-c] [-f] [-w] COMMAND``."""
    found = scan(call.args, "", frozenset(), stop_at_operand=True)
    _run_rest(call, found.rest, "setsid")


def command(call: Call) -> None:
    """bash ``command [-pVv] name [args]``: ``-v``/``-V`` only look the name up."""
    words = call.args
    index = 0
    while index < len(words) and (words[index].value or "").startswith("-") and words[index].value != "--":
        if "v" in (words[index].value or "") or "V" in (words[index].value or ""):
            read_only(call, "command -v only looks a name up.")
            return
        index += 1
    if index < len(words) and words[index].value == "--":
        index += 1
    _run_rest(call, words[index:], "command", child_process=False)


def builtin(call: Call) -> None:
    """bash ``builtin name [args]``: runs the named builtin in this shell."""
    _run_rest(call, call.args, "builtin", child_process=False)


def exec_(call: Call) -> None:
    """bash ``exec [-cl] [-a name] [command]``: without a command it only applies redirects."""
    found = scan(call.args, "a", frozenset(), stop_at_operand=True)
    if shifted(call, call.args[: len(call.args) - len(found.rest)]):
        return
    if not found.rest:
        read_only(call, "exec without a command only applies its redirects.")
        return
    # -c (empty environment), -l (a login shell's argv[0]), -a NAME (another argv[0]) change how it runs: named in
    # the wrapper, which no standing approval looks through (bot/standing.py LOCAL_WRAPPERS).
    given = call.args[: len(call.args) - len(found.rest)]
    wrapper = " ".join(["exec", *(w.src for w in given if w.src != "--")])
    call.run(found.rest, wrapper, child_process=False)


_XARGS_VALUES = frozenset({
    "--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs",
    "--max-chars", "--process-slot-var",
})  # fmt: skip
_XARGS_FLAGS = frozenset(
    {"--null", "--interactive", "--no-run-if-empty", "--verbose", "--exit", "--open-tty", "--show-limits"}
)


def xargs(call: Call) -> None:
    """xargs(1) (GNU findutils): grades the command it runs, with the input as unknown arguments
    (:data:`~bot.risk.grader.XARGS_INPUT`: written to, they are a path the script builds, as ``> $OUT`` is)."""
    words = call.args
    replace: str | None = None
    index = 0
    while index < len(words):
        value = words[index].value
        if value is None:
            break
        if value == "--":
            index += 1
            break
        if not value.startswith("-") or value == "-":
            break
        index += 1
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            full = next((f for f in _XARGS_VALUES | _XARGS_FLAGS if long_is(name, f)), name)
            if full == "--replace":
                replace = attached if eq else "{}"
            elif full in _XARGS_VALUES and not eq and full not in ("--eof", "--max-lines"):
                index += 1
            continue
        letters = value[1:]
        for position, letter in enumerate(letters):
            attached = letters[position + 1 :]
            if letter in "adELnPs":
                index += 0 if attached else 1
                break
            if letter == "I":
                replace = attached if attached else (words[index].value if index < len(words) else None)
                index += 0 if attached else 1
                break
            if letter in "eil":
                if letter == "i":
                    replace = attached or "{}"
                break
    rest = words[index:]
    if shifted(call, words[:index]):
        return
    if not rest:
        rest = [literal_word("echo")]
    if replace is None:
        command_words = rest + [dynamic_word(XARGS_INPUT)]
    else:  # the input stands where the replace string does: a path built from it (``{}/.bashrc``) is one too
        command_words = [
            dynamic_word(w.src if w.value is None else w.value.replace(replace, XARGS_INPUT))
            if w.value is None or replace in w.value
            else w
            for w in rest
        ]
    call.run(command_words, "xargs", repeat=True)


#: sudo(8) options that take a value. ``-a``/``--auth-type`` and ``-c``/``--login-class`` (BSD authentication and
#: login classes) take one on every system: sudo's option parser accepts them everywhere, so ``sudo -a TYPE CMD``
#: runs CMD.
_SUDO_VALUES = frozenset({
    "--user", "--group", "--close-from", "--chdir", "--host", "--prompt", "--role", "--type",
    "--command-timeout", "--other-user", "--chroot", "--auth-type", "--login-class",
})  # fmt: skip
#: sudo(8) options that leave the command as written: ``-n`` (never prompt), ``-H`` (HOME is the target user's, the
#: sudoers default), ``-k`` (ask for the password again). Any other (``-E``/``--preserve-env`` keep the caller's
#: environment, ``-R``/``--chroot`` change the root directory, ``-D``/``--chdir`` the directory, ``-i``/``-s`` run
#: through a shell, ``-A`` runs the askpass helper, ``-u``/``-g`` another user or group...) is named in the wrapper
#: (``sudo -E``), which no standing approval looks through (bot/standing.py ``LOCAL_WRAPPERS``).
_SUDO_PLAIN = frozenset({"-n", "--non-interactive", "-H", "--set-home", "-k", "--reset-timestamp"})
_SUDO_FLAGS = frozenset({
    "--askpass", "--background", "--preserve-env", "--edit", "--set-home", "--login", "--remove-timestamp",
    "--reset-timestamp", "--list", "--non-interactive", "--preserve-groups", "--stdin", "--shell",
    "--version", "--validate", "--bell", "--help",
})  # fmt: skip


#: sudo(8) options that run nothing: ``-l``/``--list`` lists the user's privileges (with a command: whether it
#: may run, and its full path), ``-v``/``--validate`` refreshes the cached credentials, ``-k``/``--reset-timestamp``
#: and ``-K``/``--remove-timestamp`` drop them; ``-U``/``--other-user`` (whose privileges ``-l`` lists),
#: ``-n``/``--non-interactive``, ``-h``/``--host`` (with ``-l``: a host's privileges), ``-p``/``--prompt``.
_SUDO_NO_RUN = frozenset({"-l", "--list", "-v", "--validate", "-k", "--reset-timestamp", "-K", "--remove-timestamp"})
_SUDO_NO_RUN_WITH = _SUDO_NO_RUN | {"-U", "--other-user", "-n", "--non-interactive", "-h", "--host", "-p", "--prompt"}


def _sudo_runs_nothing(found: Scan) -> bool:
    """True for ``sudo -l [CMD]``, ``sudo -v``, ``sudo -k``, ``sudo -K`` (and their long names, with only the
    options of :data:`_SUDO_NO_RUN_WITH`): they list or refresh credentials and run nothing (sudo(8) "-l", "-v",
    "-k", "-K"); ``-k`` with a command runs it."""
    names = {opt.name for opt in found.opts}
    if found.dynamic or not names & _SUDO_NO_RUN or not names <= _SUDO_NO_RUN_WITH:
        return False
    return not found.rest or bool(names & {"-l", "--list"})


def sudo(call: Call) -> None:
    """sudo(8): not a transparent prefix: the run is at least system on the host
    and at least workspace_write contained; the command after sudo's options is graded too. ``sudo -l``, ``-v``,
    ``-k``, ``-K`` run nothing: read-only (:func:`_sudo_runs_nothing`)."""
    found = scan(call.args, "acugCDhprtTUR", _SUDO_VALUES, long_flags=_SUDO_FLAGS, stop_at_operand=True)
    if _sudo_runs_nothing(found):
        read_only(call, "sudo only lists the user's privileges or refreshes or drops its cached credentials.")
        return
    call.flag(R.SYSTEM, "privilege-escalation", "sudo runs the command as another user (root).", downgradable=True)
    for root in found.values("-R", "--chroot"):
        if root.value != "/":
            destructive(
                call,
                "chroot",
                f"sudo -R {root.src} runs the command as root from another root directory: "
                "its programs and configuration come from there.",
            )
            return
    if found.has("-e", "--edit"):
        for word in found.rest:
            call.write(word, "sudo -e edits")
        return
    for kept in (opt.value for opt in found.opts if opt.name == "--preserve-env" and opt.value is not None):
        # sudo(8) --preserve-env=LIST keeps those variables for the command run as root: one that chooses the code
        # it runs (LD_PRELOAD, PATH, PYTHONPATH...) is graded as if assigned (as sudo NAME=value)
        for name in (kept.value or "?").split(","):
            why = (
                environment_risk(name) if kept.value is not None else "The kept variables are only known when it runs."
            )
            if why is not None:
                destructive(call, "env-hijack", why)
                break
    index = _assignments(call, found.rest, 0)
    rest = found.rest[index:]
    if shifted(call, call.args[: len(call.args) - len(rest)]):
        return
    if not rest:
        if found.has("-i", "-s", "--login", "--shell"):
            destructive(call, "shell-stdin", "sudo -i/-s without a command opens a root shell reading standard input.")
        return
    dirs = found.values("-D", "--chdir")
    given = call.args[: len(call.args) - len(found.rest)]
    plain = all(opt.name in _SUDO_PLAIN for opt in found.opts) and not found.dynamic
    wrapper = "sudo" if plain else " ".join(["sudo", *(w.src for w in given if w.src != "--")])
    call.run(rest, wrapper, cwd=dirs[-1] if dirs else None)


def sudoedit(call: Call) -> None:
    """sudoedit(8): edits each file as root."""
    call.flag(R.SYSTEM, "privilege-escalation", "sudoedit edits files as root.", downgradable=True)
    found = scan(call.args, "acugCDhprtTU", _SUDO_VALUES, long_flags=_SUDO_FLAGS)
    for word in found.operands:
        call.write(word, "sudoedit edits")


# find(1) (GNU findutils 4.9) primaries, by how many arguments they take.
_FIND_ONE = frozenset({
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-xtype",
    "-user", "-group", "-uid", "-gid", "-perm", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime",
    "-cmin", "-newer", "-anewer", "-cnewer", "-samefile", "-links", "-inum", "-lname", "-ilname",
    "-maxdepth", "-mindepth", "-used", "-fstype", "-context", "-printf", "-regextype", "-files0-from",
})  # fmt: skip
_FIND_NONE = frozenset({
    "-print", "-print0", "-ls", "-prune", "-quit", "-true", "-false", "-empty", "-executable", "-readable",
    "-writable", "-nouser", "-nogroup", "-depth", "-d", "-mount", "-xdev", "-follow", "-noleaf",
    "-ignore_readdir_race", "-noignore_readdir_race", "-daystart", "-not", "-a", "-and", "-o", "-or",
    "!", "(", ")", ",", "-warn", "-nowarn", "-help", "--help", "-version", "--version",
})  # fmt: skip
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


#: Names a find expression is checked against (fnmatch) when it runs a reader on what it finds below the workspace's
#: top: the repository's configuration and the workspace's .env (sensitive.GIT_CONFIG_SECRET, ``env_file``).
_FIND_SECRET_NAMES = ("config", ".env", ".env.local", ".envrc")


def _find_reads_top(call: Call, roots: list[Word], words: list[Word], command: list[Word]) -> str | None:
    """What a command find runs on every file below the workspace's top (or a directory above it) prints, as grep
    -r from there does (grader ``git_directory_search``): find(1) lists hidden files and descends into ``.git``, so
    without a test excluding them (``-name '*.py'``, ``-path './src/*'``) the command reads ``.git/config`` and
    ``.env``. A ``!``/``-not``, ``-regex`` or a ``-name``/``-path`` glob matching one of :data:`_FIND_SECRET_NAMES`
    keeps them. Only a command printing what it reads counts (grader :func:`prints_content`: ``cat``, ``grep``,
    ``head``; not ``ls``, ``cp``, ``sed -i``). None when the files are not reached."""
    from fnmatch import fnmatchcase

    from bot.risk.sensitive import GIT_CONFIG_SECRET

    if not prints_content(command):
        return None  # it does not print what it reads (cp, sed -i, grep -l), or is graded as what it runs (sh)
    state = call.g.state
    top = next(
        (r for r in roots if r.value is not None and call.g.git_directory_search(r.value, state, top=True)), None
    )
    if top is None:
        return None
    values = [w.value or "" for w in words]
    if "!" in values or "-not" in values:
        return GIT_CONFIG_SECRET
    globs: list[tuple[str, bool, bool]] = []  # (glob, folded, whole path)
    for index, value in enumerate(values[:-1]):
        if value in ("-regex", "-iregex"):
            return GIT_CONFIG_SECRET
        if value in ("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename"):
            globs.append((values[index + 1], value.startswith("-i"), "name" not in value or "whole" in value))
    if not globs:
        return GIT_CONFIG_SECRET
    base = (top.value or ".").rstrip("/") or "/"
    for glob, folded, whole in globs:
        for probe in _FIND_SECRET_NAMES:
            candidates = [f"{base}/.git/{probe}", f"{base}/{probe}"] if whole else [probe]
            for text in candidates:
                if fnmatchcase(text.lower(), glob.lower()) if folded else fnmatchcase(text, glob):
                    return GIT_CONFIG_SECRET
    return None


def _find_reads_secret_files(call: Call, roots: list[Word], words: list[Word], command: list[Word]) -> str | None:
    """What a command find runs on every file below its start points in the workspace prints of the secret files
    there by their name (grader ``secret_files``: ``sub/.env``, ``keys/server.key``): find(1) lists every file,
    hidden ones too, so unless a ``-name``/``-path`` test selects none of them (``-name '*.py'``) a command printing
    what it reads (grader :func:`prints_content`) prints them. A ``!``/``-not`` or ``-regex`` keeps them; a tree FlyBot
    did not look through may hold one (fail closed). None otherwise."""
    from fnmatch import fnmatchcase

    if not prints_content(command):
        return None
    values = [w.value or "" for w in words]
    globs: list[tuple[str, bool, bool]] = []  # (glob, folded, whole path)
    every = "!" in values or "-not" in values
    for index, value in enumerate(values[:-1]):
        if value in ("-regex", "-iregex"):
            every = True
        if value in ("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename"):
            globs.append((values[index + 1], value.startswith("-i"), "name" not in value or "whole" in value))
    for root in roots:
        if root.value is None:
            continue
        base = root.value.rstrip("/") or "/"
        for below, what in call.g.secret_files(root.value):
            if below == "*" or every or not globs:
                return what if below == "*" else f"{shorten(below, 60)}, {what}"
            for glob, folded, whole in globs:
                if whole and base.startswith("~"):
                    return f"{shorten(below, 60)}, {what}"  # the shell expands ~ to a path FlyBot does not spell
                text = f"{base}/{below}" if whole else below.rsplit("/", 1)[-1]
                if fnmatchcase(text.lower(), glob.lower()) if folded else fnmatchcase(text, glob):
                    return f"{shorten(below, 60)}, {what}"
    return None


def find(call: Call) -> None:
    """find(1): read-only, except ``-delete`` (deletion), ``-fprint*``/``-fls`` (writes) and
    ``-exec``/``-execdir``/``-ok``/``-okdir`` (the executed command is graded)."""
    words = call.args
    split = next((w for w in words if w.value is None and w.splits), None)
    if split is not None:
        destructive(
            call,
            "dynamic-argument",
            f"{show(split)} may expand to several words, including find primaries such as -delete.",
        )
        return
    index = 0
    while index < len(words):
        lead = words[index].value
        if lead in ("-H", "-L", "-P") or (lead is not None and lead.startswith("-O") and lead[2:].isdigit()):
            index += 1
        elif lead == "-D":
            index += 2
        else:
            break
    starts = 0
    while index < len(words):
        value = words[index].value
        if value is not None and (value.startswith("-") or value in ("(", "!", ")", ",")):
            break
        index += 1
        starts += 1
    # A found path begins with its literal start point, so it is never an option. Below start points that are all
    # inside the workspace (none given: ".") it is a workspace path; elsewhere a path only known when it runs.
    roots = words[index - starts : index] if starts else [Word(".", ".")]
    inside = all(w.value is not None and call.where(w) is Where.WORKSPACE for w in roots)
    contained_roots = all(w.value is not None and call.where(w) in (Where.WORKSPACE, Where.TEMP) for w in roots)
    found = Word(None, "{}", operand_only=starts > 0 and all(w.value is not None for w in roots), inside=inside)
    acted = False
    while index < len(words):
        word = words[index]
        value = word.value
        index += 1
        if value is None:
            destructive(call, "dynamic-argument", f"The find expression word {show(word)} is only known when it runs.")
            return
        if word.splits:
            continue  # a literal glob: it expands to names matching it, never to a primary
        if value in _FIND_NONE:
            continue
        if value in _FIND_ONE or (value.startswith("-newer") and len(value) == 8):
            index += 1
            continue
        if value == "-delete":
            deletion(call, "find -delete deletes what it finds.")
            for root in roots:  # what it finds lies below its start points: graded by where they are
                call.g.removes(call.rec, call.scope, root, "find -delete deletes what it finds below")
            acted = True
            continue
        if value in ("-fprint", "-fprint0", "-fls", "-fprintf"):
            if index < len(words):
                call.write(words[index], f"find {value} writes")
            index += 2 if value == "-fprintf" else 1
            acted = True
            continue
        if value in _FIND_EXEC:
            end = index
            while end < len(words) and words[end].value not in (";", "+"):
                end += 1
            command_words = [
                w
                if w.value is not None and "{}" not in w.value
                else (found if w.value == "{}" else dynamic_word(w.src))
                for w in words[index:end]
            ]
            if not command_words or end >= len(words):
                refuse(call, f"{value} without a command and its terminator")
                return
            before = len(call.g.records)
            # -execdir runs in the directory of each file found: below the start points, so inside the workspace
            # when they all are.
            # A project recipe run there is that directory's, which FlyBot did not read (``-execdir make``).
            call.child(
                command_words,
                "find",
                cwd_unknown=value in ("-execdir", "-okdir") and not inside,
                elsewhere="find -execdir runs it in each found file's directory, whose recipes FlyBot did not read"
                if value in ("-execdir", "-okdir")
                else None,
            )
            changed = max((r.level for r, _ in call.g.records[before:]), default=R.READ_ONLY)
            secret = (
                call.g.reads_below(roots, command_words)
                or _find_reads_top(call, roots, words, command_words)
                or _find_reads_secret_files(call, roots, words, command_words)
            )
            if secret is not None:
                call.flag(
                    R.NETWORK,
                    "secret-read",
                    f"find {value} runs {show(command_words[0])} on every file below {', '.join(show(w) for w in roots)}, which may hold {secret}: the command's output goes to the model.",
                )
            if not contained_roots and changed >= R.SYSTEM:
                # find(1) runs the command on every file below its start points: outside the workspace (find /)
                # that reaches system files.
                call.flag(
                    R.DESTRUCTIVE,
                    "host-change",
                    f"find {value} changes every file it finds below {', '.join(show(w) for w in roots)}, outside the workspace.",
                    downgradable=True,
                )
            index = end + 1
            acted = True
            continue
        refuse(call, f"the primary {value}")
        return
    if not acted:
        read_only(call, "find only lists files.")


#: watch(1) options taking a value. ``-d``/``--differences[=permanent]`` takes only an attached one (an optional
#: argument, getopt_long), so it is a flag here: the word after it is the command.
_WATCH_VALUES = frozenset({"--interval"})
_WATCH_FLAGS = frozenset({
    "--differences", "--beep", "--color", "--no-color", "--chgexit", "--errexit", "--exec", "--no-title", "--precise", "--no-wrap",
    "--no-linewrap", "--equexit", "--help", "--version",
})  # fmt: skip


def watch(call: Call) -> None:
    """watch(1) (procps-ng): runs COMMAND repeatedly; without ``-x`` the words are joined by spaces and run
    with ``sh -c`` (graded as that script, repeated); with ``-x`` the command is run as words."""
    found = scan(
        call.args, "nq", _WATCH_VALUES | frozenset({"--equexit"}), long_flags=_WATCH_FLAGS, stop_at_operand=True
    )
    if found.dynamic and not found.rest:
        destructive(call, "dynamic-argument", "An argument of watch is only known when it runs.")
        return
    rest = found.rest
    if not rest:
        read_only(call, "watch without a command runs nothing.")
        return
    if found.has("-x", "--exec"):
        call.run(rest, "watch")
        return
    if any(w.value is None for w in rest):
        destructive(call, "dynamic-script", "The command watch runs with sh -c is only known when it runs.")
        return
    call.script(" ".join(w.value or "" for w in rest), "watch", repeat=True)


#: GNU parallel(1) OPTIONS that take a value (the next word, or ``--name=VALUE``).
_PARALLEL_VALUES = frozenset({
    "-j", "--jobs", "-n", "--max-args", "-N", "--max-replace-args", "-L", "--max-lines", "-d", "--delimiter", "-E",
    "--eof", "-I", "--replace", "--colsep", "-C", "--delay", "--timeout", "--retries", "--halt", "--tagstring",
    "--nice", "--load", "--memfree", "--tmpdir", "--results", "--joblog", "--env", "--progress-bar", "--sshdelay",
    "--block", "--block-size", "--header", "--rpl", "--shuf", "--termseq", "-l", "-s", "--max-chars",
})  # fmt: skip
#: GNU parallel(1) OPTIONS that take none.
_PARALLEL_FLAGS = frozenset({
    "-k", "--keep-order", "-v", "--verbose", "-q", "--quote", "-0", "--null", "-X", "-m", "--xargs", "--tag",
    "--bar", "--eta", "--progress", "--line-buffer", "--lb", "-u", "--ungroup", "--group", "--will-cite",
    "--no-notice", "--dry-run", "--dryrun", "-r", "--no-run-if-empty", "--halt-on-error", "--version", "--help",
})  # fmt: skip
_PARALLEL_REMOTE = (
    "-S",
    "--sshlogin",
    "--slf",
    "--sshloginfile",
    "--transfer",
    "--return",
    "--trc",
    "--cleanup",
    "--basefile",
    "--bf",
)
_PARALLEL_PROGRAMS = (
    "--pipe",
    "--pipepart",
    "--shebang",
    "--shebang-wrap",
    "--fifo",
    "--cat",
    "--profile",
    "-J",
    "--ssh",
    "--filter",
    "--semaphore",
    "--sem",
    "--embed",
    "--plus",
    "--rpl",
    "--shellquote",
)


def _parallel_step(value: str) -> int | None:
    """How many words the option ``value`` of GNU parallel takes (parallel(1) OPTIONS): 2 for one of
    :data:`_PARALLEL_VALUES` given without ``=VALUE`` (``-j 4``, ``--jobs 4``), 1 for ``--jobs=4``, a flag of
    :data:`_PARALLEL_FLAGS` or ``--``; None for any other option (``-j4`` included: not read here)."""
    name = value.split("=", 1)[0]
    if name in _PARALLEL_VALUES:
        return 1 if "=" in value else 2
    if name in _PARALLEL_FLAGS or name == "--":
        return 1
    return None


def parallel_command(words: list[str | None]) -> int | None:
    """Where the command starts in GNU parallel's arguments ``words`` (``parallel -j 4 cat``: 2), after the options
    :func:`_parallel_step` reads; None when a word before it is an option not read there, one that runs programs or
    works remotely (:data:`_PARALLEL_REMOTE`, :data:`_PARALLEL_PROGRAMS`), or is only known when it runs: the
    :func:`parallel` handler refuses those, so what the command is stays unknown."""
    index = 0
    while index < len(words):
        value = words[index]
        if value is None:
            return None
        if not value.startswith("-") or value.startswith(":::"):
            return index
        name = value.split("=", 1)[0]
        step = _parallel_step(value)
        if step is None or name in _PARALLEL_REMOTE or name in _PARALLEL_PROGRAMS:
            return None
        index += step
    return index


def parallel(call: Call) -> None:
    """GNU parallel: the command (words before ``:::``/``::::``) is run by a shell once per input, with each
    input shell-quoted in place of ``{}`` (or appended); graded as that script with the input unknown.
    Without a command the inputs are the commands (graded when they are literal ``:::`` words).
    Remote execution (``-S``) and options that read programs or profiles are destructive."""
    words = call.args
    index = 0
    while index < len(words):
        word = words[index]
        value = word.value
        if value is None:
            destructive(call, "dynamic-argument", f"{show(word)} may be a parallel option.")
            return
        if not value.startswith("-") or value.startswith(":::"):
            break
        index += 1
        name = value.split("=", 1)[0]
        if name in _PARALLEL_REMOTE or name in _PARALLEL_PROGRAMS:
            destructive(
                call,
                "runs-program",
                f"parallel {name} runs commands on other machines or from files the classifier cannot see.",
            )
            return
        if name in ("--results", "--res", "--joblog"):
            target = (
                Word(value.split("=", 1)[1], value) if "=" in value else (words[index] if index < len(words) else None)
            )
            if target is not None:
                call.write(target, f"parallel {name} writes")
        step = _parallel_step(value)
        if step is None:
            refuse(call, f"the option {name}")
            return
        index += step - 1
        if name == "--dry-run" or name == "--dryrun":
            read_only(call, "parallel --dry-run only prints the commands.")
            return
    separator = next(
        (i for i in range(index, len(words)) if (words[i].value or "") in (":::", "::::", ":::+", "::::+")), len(words)
    )
    command = words[index:separator]
    inputs = words[separator:]
    if not command:
        literal = [w for w in inputs if w.value not in (":::", ":::+")]
        if inputs and inputs[0].value == ":::" and all(w.value is not None for w in literal):
            for word in literal:
                call.script(word.value or "", "parallel", repeat=True)
            return
        destructive(
            call,
            "shell-stdin",
            "parallel without a command runs its inputs as commands; the classifier cannot see them.",
        )
        return
    if any(w.value is None for w in command):
        destructive(call, "dynamic-script", "The command parallel runs is only known when it runs.")
        return
    text = " ".join(w.value or "" for w in command)
    given = [w.value for w in inputs[1:] if w.value is not None]
    if (
        inputs
        and inputs[0].value == ":::"
        and len(given) == len(inputs) - 1
        and ":::" not in given
        and len(given) <= 16
    ):
        arguments = [shlex.quote(value) for value in given]  # parallel quotes each input (GNU parallel(1) "{}")
    else:
        arguments = ['"$UNKNOWN_ARGUMENT"']
    for argument in arguments:
        call.script(_fill(text, argument), "parallel", repeat=True)


def _fill(template: str, argument: str) -> str:
    """``template`` with every replacement string (``{}``, ``{.}``, ``{1}``...) replaced by ``argument``, or it appended."""
    parts = _PARALLEL_REPLACEMENT.split(template)
    if len(parts) == 1:
        return f"{template} {argument}"
    return f" {argument} ".join(parts)


_PARALLEL_REPLACEMENT = re.compile(r"\{(?:\d*(?:\.|/|//|/\.|#|%)?|\d+)\}")


_SU_VALUES = frozenset(
    {
        "--command",
        "--session-command",
        "--shell",
        "--group",
        "--supp-group",
        "--whitelist-environment",
        "-c",
        "-s",
        "-g",
        "-G",
        "-w",
    }
)
_SU_SHELLS = frozenset(
    {"/bin/bash", "/bin/sh", "/usr/bin/bash", "/usr/bin/sh", "bash", "sh", "/bin/dash", "/bin/zsh", "/usr/bin/zsh"}
)


def su(call: Call) -> None:
    """su(1) (util-linux): like sudo, not a transparent prefix: at least system on the host (workspace_write
    contained); ``-c CMD`` is graded as a script; without ``-c`` it opens a shell reading standard input."""
    call.flag(R.SYSTEM, "privilege-escalation", "su runs commands as another user (root).", downgradable=True)
    found = scan(
        call.args, "csgGw", _SU_VALUES, long_flags=frozenset({"--login", "--preserve-environment", "--pty", "--fast"})
    )
    if found.dynamic:
        destructive(call, "dynamic-argument", "An argument of su is only known when it runs.")
        return
    for shell in found.values("-s", "--shell"):
        if shell.value not in _SU_SHELLS:
            destructive(call, "runs-program", f"su -s {show(shell)} runs a program as the shell.")
            return
    commands = found.values("-c", "--command", "--session-command")
    if not commands:
        destructive(call, "shell-stdin", "su without -c opens a shell reading standard input.")
        return
    text = commands[-1].value
    if text is None:
        destructive(call, "dynamic-script", "The command given to su -c is only known when it runs.")
        return
    saved = call.g.state
    if found.has("-", "-l", "--login") or any(w.value == "-" for w in found.operands):
        call.g.state = saved.unknown()  # a login shell starts in the user's home
    try:
        call.script(text, "su -c")
    finally:
        call.g.state = saved


_SCRIPT_VALUES = frozenset(
    {
        "--command",
        "--log-in",
        "--log-out",
        "--log-io",
        "--log-timing",
        "--logging-format",
        "--output-limit",
        "--echo",
        "-c",
        "-I",
        "-O",
        "-B",
        "-T",
        "-m",
        "-E",
        "-o",
    }
)


def script(call: Call) -> None:
    """script(1) (util-linux): records a session to FILE (default ``typescript``: a write); ``-c CMD`` is graded
    as a script; without ``-c`` it opens an interactive shell (reading standard input)."""
    found = scan(
        call.args,
        "cIOBTmEo",
        _SCRIPT_VALUES,
        long_flags=frozenset({"--append", "--flush", "--force", "--quiet", "--return", "--timing"}),
    )
    if found.dynamic:
        destructive(call, "dynamic-argument", "An argument of script is only known when it runs.")
        return
    logs = found.operands[:1] or [literal_word("typescript")]
    for log in logs + found.values("-I", "-O", "-B", "-T", "--log-in", "--log-out", "--log-io", "--log-timing"):
        call.write(log, "script records the session into")
    commands = found.values("-c", "--command")
    if not commands:
        destructive(call, "shell-stdin", "script without -c opens a shell reading standard input.")
        return
    text = commands[-1].value
    if text is None:
        destructive(call, "dynamic-script", "The command given to script -c is only known when it runs.")
        return
    call.script(text, "script -c")
