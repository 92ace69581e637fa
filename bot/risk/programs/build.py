"""Build, test and package tools.

Building and testing run the project's own code and write build output in the
workspace: ``workspace_write`` (rule ``build-or-test``). Installs that fetch from a
registry (``npm install``, ``pip install``, ``cargo add``, ``go get``) are at least
``network``. Cleaning targets delete (destructive); installing into the
system (``make install``, ``npm -g``, ``pip --user``, ``cargo install``,
``go install``) is a write outside the workspace. Unknown subcommands are destructive
(cargo and git-style tools run ``cargo-<name>`` programs from PATH).
Dependency downloads that a build performs implicitly (cargo build, go test) are
treated as part of the build: they fetch only the project's declared dependencies.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections.abc import Iterator

from bot.risk.grader import Call, Handler
from bot.risk.hidden import reveal
from bot.risk.options import Scan, option_values, scan
from bot.risk.paths import Where
from bot.risk.reasons import shorten
from bot.risk.recipes import GO_GENERATE, LIFECYCLE, MAKE_DRY_RUN, SETTINGS, UNKNOWN
from bot.risk.sensitive import included_secret, secret_setting
from bot.risk.settings import CARGO_ALIAS, CARGO_START, CARGO_TOOLCHAIN, CC_INCLUDES, OUTSIDE, PYTEST_PATH
from bot.risk.walker import environment_risk, hijacks_environment
from bot.risk.words import Word, literal_word

from .kit import (
    R,
    argv_text,
    build_or_test,
    chosen_source,
    deletion,
    destructive,
    emptied,
    first_dynamic,
    host_destructive,
    injected,
    local_package_outside,
    network,
    read_only,
    refuse,
    show,
    system,
    tool_plugin,
    workspace_write,
)
from .projects import (
    chosen,
    configured_options,
    found_above,
    outside_settings,
    requirements_outside,
    run_recipe,
    settings_lines,
    settings_start,
    workspace_settings,
    yarn_release,
)

__all__ = ["cargo", "checker", "go", "js_package_manager", "make", "npx", "pip"]

_CLEAN_TARGETS = frozenset({"clean", "distclean", "mrproper", "realclean", "maintainer-clean", "clobber", "veryclean"})
_INSTALL_TARGETS = frozenset({"install", "uninstall", "install-strip"})
_HOME = Word(None, "~")


#: make variables that change how make reads the makefile or runs its recipes (GNU make manual, "Special Variables",
#: "Choosing the Shell", "Variables from the Environment"), with every name starting with ``.`` or ``MAKE``: set on
#: the command line or in the environment they are refused with a reason of their own.
_MAKE_SPECIAL = frozenset({"SHELL", "MAKESHELL", "MFLAGS", "GNUMAKEFLAGS", "VPATH", "SUFFIXES", "CURDIR"})
#: make's options that take a value (GNU make manual, "Summary of Options"); ``-j``/``-l`` take an optional number.
_MAKE_VALUES = frozenset(
    {
        "-C",
        "--directory",
        "-f",
        "--file",
        "--makefile",
        "-I",
        "--include-dir",
        "-o",
        "--old-file",
        "--assume-old",
        "-W",
        "--what-if",
        "--new-file",
        "--assume-new",
        "-E",
        "--eval",
    }
)


#: make's long options (GNU make manual, "Summary of Options"), spelled in full: getopt_long(3) also takes any
#: unambiguous abbreviation (``--direc``, ``--fi``, ``--ev``), which is refused rather than resolved.
_MAKE_LONG_OPTIONS = frozenset({
    "--always-make", "--directory", "--debug", "--environment-overrides", "--eval", "--file", "--makefile", "--help",
    "--ignore-errors", "--include-dir", "--jobs", "--keep-going", "--load-average", "--check-symlink-times",
    "--just-print", "--dry-run", "--recon", "--old-file", "--assume-old", "--output-sync", "--print-data-base",
    "--question", "--no-builtin-rules", "--no-builtin-variables", "--silent", "--quiet", "--no-silent", "--stop",
    "--no-keep-going", "--touch", "--trace", "--version", "--print-directory", "--no-print-directory", "--what-if",
    "--new-file", "--assume-new", "--warn-undefined-variables", "--shuffle",
})  # fmt: skip


def _make_special(name: str) -> bool:
    return name in _MAKE_SPECIAL or name.startswith((".", "MAKE"))


#: ``-j``/``--jobs`` given the output of nproc(1) ("Print the number of processing units available": one positive
#: integer) or ``getconf _NPROCESSORS_ONLN`` (POSIX getconf: an integer), attached (``-j$(nproc)``,
#: ``--jobs="$(nproc)"``) or as the next word (``-j $(nproc)``).
_CPU_COUNT = (
    r"(?:\$\((?:nproc(?: --all)?|getconf _NPROCESSORS_ONLN)\)|`(?:nproc(?: --all)?|getconf _NPROCESSORS_ONLN)`)"
)
_CPU_JOBS = re.compile(rf"(?:-j|--jobs=)(?:{_CPU_COUNT}|\"{_CPU_COUNT}\")")
_CPU_WORD = re.compile(rf"{_CPU_COUNT}|\"{_CPU_COUNT}\"")


def _cpu_jobs(call: Call, words: list[Word]) -> list[Word]:
    """``words`` with a job count spelled as the processor count (:data:`_CPU_JOBS`) made the literal job option it
    is (``-j``, ``-j 1``), unless this script defines a function named ``nproc`` or ``getconf`` (its output could
    be anything)."""
    if call.g.functions & {"nproc", "getconf"}:
        return words
    out: list[Word] = []
    for index, word in enumerate(words):
        if word.value is None and _CPU_JOBS.fullmatch(word.src):
            out.append(Word("-j", word.src))
        elif (
            word.value is None
            and index
            and words[index - 1].value in ("-j", "--jobs")
            and _CPU_WORD.fullmatch(word.src)
        ):
            out.append(Word("1", word.src))
        else:
            out.append(word)
    return out


def _goal_files(call: Call, names: set[str], dir_word: Word | None, directory: str | None) -> None:
    """A goal that is a path (``make ~/.bashrc``, ``make ../lib/x.o``) is a file make makes there: beside the
    makefile's rules, GNU make's built-in rules make a file from one next to it (GNU make manual, "Catalogue of
    Built-In Rules": ``%: %.sh`` copies ``x.sh`` over ``x``, ``%.o: %.c`` compiles, ``%: %.c`` links; "Implicit Rule
    Search": ``RCS/%,v`` and ``s.%`` check files out), unless ``-r``/``--no-builtin-rules`` is given. Each such goal
    outside the workspace is graded as a write there (relative goals from the directory make runs in)."""
    for target in sorted(names):
        if "/" not in target and not target.startswith("~"):
            continue
        if target.startswith(("/", "~")) or dir_word is None:
            goal = literal_word(target)
        elif directory:
            goal = literal_word(posixpath.join(directory, target))
        else:
            continue  # a directory only known when it runs: graded with it
        if call.where(goal) is not Where.WORKSPACE:
            call.write(goal, "make is asked for this file, which its built-in rules (%: %.sh ...) may write")


def make(call: Call) -> None:
    """GNU make(1): the recipe is read from the directory make runs in (``-C`` after ``-C``, relative to the
    shell's) and the makefile ``-f`` names (relative to that directory); targets are also graded by name.
    ``--eval``, ``-e`` (the environment overrides the makefile), a makefile read from standard input and
    special variables set on the command line (``SHELL=``, ``MAKEFLAGS=``, ``.RECIPEPREFIX=``...) or a value holding
    make code are refused; other command-line variables (``CC=...``) are graded as :func:`run_recipe` says.
    ``-p``/``--print-data-base`` prints every variable, the environment's too: a secret read. A job count given as
    the processor count (:func:`_cpu_jobs`: ``-j$(nproc)``) is a job count. ``-n`` (``--just-print``,
    ``--dry-run``, ``--recon``) and ``-q`` (``--question``) run no recipe line but those that start with ``+`` or
    refer to ``$(MAKE)`` (GNU make manual, "Instead of Executing Recipes"): only those are graded
    (recipes.MAKE_DRY_RUN), with what runs when make reads the makefile; ``-t`` (touch) is not a dry run, nor is a
    make whose recipes are not read (no recipe book)."""
    words = _cpu_jobs(call, call.args)
    if injected(call, words, runs_programs=True):
        return
    directory: str | None = ""
    dir_word: Word | None = None
    targets: list[str | None] = []
    makefile: Word | None = None
    overrides: list[str] = []
    makefiles = 0
    database = False  # -p, --print-data-base
    dry = False  # -n, -q and their long spellings
    touch = False  # -t, --touch: touches the targets instead
    index = 0

    def change_dir(word: Word) -> None:
        nonlocal directory, dir_word
        dir_word = word
        if directory is not None:
            directory = None if word.value is None else posixpath.join(directory, word.value)

    while index < len(words):
        value = words[index].value
        index += 1
        if words[index - 1].splits and value is not None:
            # GNU make reads every word as an option, a variable assignment (make(1): a word holding ``=``) or a
            # target, whatever it came from: a file named ``--eval=...`` or ``X:=$(shell ...)`` that a glob
            # expands to is make code that runs when make starts
            destructive(
                call,
                "glob-argument",
                f"make {shorten(words[index - 1].src, 40)}: the files a glob names are only known when it runs, "
                "and a file's name can be an option or a variable assignment make reads.",
            )
            return
        if value is None:
            targets.append(None)
            continue
        name, eq, attached = value.partition("=")
        if value.startswith("--") and len(value) > 2:
            if name not in _MAKE_LONG_OPTIONS:
                destructive(
                    call,
                    "unrecognised-use",
                    f"make {shorten(name, 40)} is not an option FlyBot knows spelled in full "
                    "(make takes any unambiguous abbreviation: --direc, --fi, --ev...).",
                )
                return
            long_value: Word | None = None
            if name in _MAKE_VALUES:
                long_value = literal_word(attached) if eq else (words[index] if index < len(words) else Word(None, ""))
                index += 0 if eq else 1
            elif (
                name in ("--jobs", "--load-average")
                and not eq
                and index < len(words)
                and (words[index].value or "").isdigit()
            ):
                index += 1
            if name in ("--eval",):
                destructive(call, "dynamic-script", "make --eval evaluates makefile text given on the command line.")
                return
            if name == "--environment-overrides":
                destructive(
                    call,
                    "make-environment",
                    "make --environment-overrides lets the environment set the makefile's variables.",
                )
                return
            if name == "--print-data-base":
                database = True
            dry = dry or name in ("--just-print", "--dry-run", "--recon", "--question")
            touch = touch or name == "--touch"
            if name == "--directory" and long_value is not None:
                change_dir(long_value)
            elif name in ("--file", "--makefile") and long_value is not None:
                makefiles += 1
                makefile = long_value
            continue
        if value.startswith("-") and len(value) > 1:
            letters = value[1:]
            for position, letter in enumerate(letters):
                if letter == "p":
                    database = True
                dry = dry or letter in "nq"
                touch = touch or letter == "t"
                if letter == "e":
                    destructive(call, "make-environment", "make -e lets the environment set the makefile's variables.")
                    return
                if letter == "E":
                    destructive(
                        call, "dynamic-script", "make --eval evaluates makefile text given on the command line."
                    )
                    return
                if letter in "CfIoW":
                    rest = letters[position + 1 :]
                    taken = literal_word(rest) if rest else (words[index] if index < len(words) else Word(None, ""))
                    index += 0 if rest else 1
                    if letter == "C":
                        change_dir(taken)
                    elif letter == "f":
                        makefiles += 1
                        makefile = taken
                    break
                if letter in "jl":
                    if not letters[position + 1 :] and index < len(words) and (words[index].value or "").isdigit():
                        index += 1
                    break
            continue
        if eq and name.strip(" :+?!"):
            variable = name.strip(" :+?!")
            if _make_special(variable) or hijacks_environment(variable):
                destructive(
                    call, "env-hijack", f"make {variable}= changes how make reads the makefile or runs its recipes."
                )
                return
            if "$" in attached or name.endswith("!"):
                destructive(call, "make-override", f"make {variable}= is given make code that runs when make starts.")
                return
            overrides.append(variable)
            continue
        targets.append(value)
    if any(t is None for t in targets):
        destructive(call, "dynamic-argument", "A make target is only known when it runs.")
        return
    if database:  # make(1) -p: "Print the data base (rules and variable values)", the environment's among them
        call.flag(
            R.NETWORK,
            "secret-read",
            "make -p prints every variable, those from the environment too (secrets): its output goes to the model.",
        )
    special = sorted(n for n in call.g.assigned if _make_special(n))
    if special:
        destructive(
            call,
            "env-hijack",
            f"make runs with {special[0]} set by this command: it changes how make reads the makefile or runs its recipes.",
        )
        return
    if makefiles > 1:
        destructive(
            call,
            "recipe-unreadable",
            "make reads every makefile -f names, FlyBot reads one: the recipe is not certain.",
        )
        return
    if makefile is not None and makefile.value in ("-", "/dev/stdin", "/proc/self/fd/0", "/dev/fd/0"):
        destructive(call, "dynamic-script", "make reads a makefile from its standard input.")
        return
    names = {t for t in targets if t is not None}
    if names & _CLEAN_TARGETS:
        deletion(call, f"make {' '.join(sorted(names & _CLEAN_TARGETS))} deletes files.")
    if names & _INSTALL_TARGETS:
        call.write(Word(None, "/usr/local"), f"make {' '.join(sorted(names & _INSTALL_TARGETS))} installs into")
    # without a recipe book (no adapter's report) the lines that still run under -n are not known: graded as make
    dry = dry and not touch and call.g.recipes is not None
    if dry:
        read_only(
            call,
            "make -n (or -q) prints the recipes, or runs none; it still runs the lines starting with + or naming $(MAKE).",
        )
    elif dir_word is not None:
        call.write(dir_word if directory is None else literal_word(directory), "make builds in")
    else:
        build_or_test(call, "make")
    where = None if dir_word is None else (dir_word if directory is None else literal_word(directory))
    file_word = None
    if makefile is not None:
        relative = makefile.value is not None and not makefile.value.startswith(("/", "~"))
        file_word = (
            literal_word(posixpath.join(directory, makefile.value))
            if relative and directory and makefile.value
            else makefile
        )
    if not dry:
        _goal_files(call, names, dir_word, directory)
    for target in sorted(names) or [""]:
        if dry:
            label = f"make -n {target}".rstrip()
            run_recipe(
                call, "make", MAKE_DRY_RUN + target, directory=where, file=file_word, overrides=overrides, label=label
            )
        else:
            run_recipe(call, "make", target, directory=where, file=file_word, overrides=overrides)


# npm(1) CLI commands (docs.npmjs.com/cli/v10/commands) with their aliases.
_NPM_RUN = frozenset({"test", "t", "tst", "run", "run-script", "rum", "urn", "start", "stop", "restart"})
_NPM_INSTALL = frozenset({
    "install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add", "ci",
    "clean-install", "ic", "install-clean", "isntall-clean", "update", "up", "upgrade", "udpate",
    "install-test", "it", "install-ci-test", "cit",
})  # fmt: skip
_NPM_REMOVE = frozenset({"uninstall", "unlink", "remove", "rm", "r", "un", "prune", "dedupe", "ddp"})
_NPM_READ = frozenset(
    {
        "ls",
        "list",
        "ll",
        "la",
        "explain",
        "why",
        "help",
        "prefix",
        "root",
        "query",
        "help-search",
        "-v",
        "--version",
        "-h",
    }
)
_NPM_NETWORK = frozenset({
    "view", "v", "info", "show", "search", "s", "se", "find", "outdated", "audit", "ping", "whoami", "doctor",
    "fund", "owner", "access", "team", "token", "dist-tag", "deprecate", "publish", "login", "logout",
    "adduser", "star", "stars", "org", "hook", "sbom",
})  # fmt: skip
_NPM_WRITE = frozenset({"pack", "shrinkwrap", "version", "pkg", "set-script", "link", "ln", "rebuild", "rb"})
_NPM_VALUES = frozenset(
    {
        "--prefix",
        "--registry",
        "--cache",
        "--loglevel",
        "-w",
        "--workspace",
        "--tag",
        "--otp",
        "--location",
        "--omit",
        "--include",
    }
)
# npm config keys that name a program npm runs, or a config file that can set one (docs.npmjs.com/cli/v10/using-npm/config:
# script-shell, node-options, shell, editor, browser, git, viewer, userconfig, globalconfig, init-module;
# onload-script (npm 6); node-gyp, the node-gyp program a script's ``node-gyp`` runs, and python, the interpreter
# node-gyp runs (node-gyp README, "Configuring Python Dependency": ``npm_config_python``); yarn 1 ``--use-yarnrc``, ``yarn-path`` and ``script-shell``; Yarn 2+'s camelCase keys
# (yarnpkg.com/configuration/yarnrc) are matched in kebab case: ``scriptShell``, ``yarnPath``, and
# ``injectEnvironmentFiles``, whose .env files set every script's environment, NODE_OPTIONS included). npm's
# option parser (nopt) accepts unambiguous abbreviations, and pnpm also takes ``--config.KEY=VALUE``: both are
# matched.
_NPM_PROGRAM_KEYS = (
    "script-shell", "node-options", "userconfig", "globalconfig", "shell", "editor", "browser", "git", "viewer",
    "onload-script", "init-module", "use-yarnrc", "yarn-path", "yarnpath", "inject-environment-files", "node-gyp",
    "python",
)  # fmt: skip


# npm config keys (npm-config(7)) naming no program that are also abbreviations of one of those keys.
_NPM_EXACT_KEYS = frozenset({"global"})

# Every spelling accepted for those keys: the key itself or an abbreviation of at least two characters.
_NPM_PROGRAM_SPELLINGS = frozenset(key[:end] for key in _NPM_PROGRAM_KEYS for end in range(2, len(key) + 1))


def _npm_program_key(key: str) -> bool:
    """True when ``key`` (a config key, or an option name without ``--``; camelCase read as kebab-case) may name a
    program npm, pnpm or yarn runs."""
    kebab = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", key)
    return key.lower().replace("_", "-") in _NPM_PROGRAM_SPELLINGS or kebab.lower() in _NPM_PROGRAM_SPELLINGS


# npm config keys that choose where every later install gets its packages from, or whether it checks who serves
# them (docs.npmjs.com/cli/v10/using-npm/config: registry, @scope:registry, strict-ssl, ca, cafile, proxy,
# https-proxy; yarn berry's npmRegistryServer, enableStrictSsl, httpProxy, httpsProxy): set in the user's
# configuration, they make a later ``npm install`` (which the adapters do not read there) run other packages' code.
_NPM_SOURCE_KEYS = frozenset({
    "registry", "strict-ssl", "ca", "cafile", "proxy", "https-proxy", "npmregistryserver", "enablestrictssl",
    "httpproxy", "httpsproxy",
})  # fmt: skip
# pip's equivalents ("Configuration", pip.pypa.io): the index, extra indexes, find-links, hosts trusted without TLS.
_PIP_SOURCE_KEYS = frozenset({"index-url", "extra-index-url", "find-links", "trusted-host", "cert", "proxy", "index"})


def _package_source(call: Call, detail: str) -> None:
    """A change to the user's package source: destructive on the host; contained, a write under ~ in the VM that is
    thrown away (its installs there still count as network)."""
    call.flag(R.DESTRUCTIVE, "package-source", detail, contained_level=R.WORKSPACE_WRITE)
    call.write(_HOME, "the package manager's configuration is under")


def _npm_source_key(key: str) -> bool:
    """True when the npm or yarn config key ``key`` chooses where packages come from."""
    name = key.split("=", 1)[0].lower().replace("_", "-")
    return name in _NPM_SOURCE_KEYS or name.endswith(":registry")


def _config_key(command: str, rest: list[Word]) -> list[Word]:
    """The words of ``npm set KEY=VALUE...`` / ``npm|pnpm|yarn config ACTION KEY VALUE`` that may be a key: every
    word after the action that is not an option. npm-config(1) takes several ``KEY=VALUE`` pairs, and an option
    before the key may take the next word as its value (``--location project``), so a value is checked too."""
    return [w for w in (rest if command == "set" else rest[1:]) if not (w.value or "").startswith("-")]


def _npm_program_option(name: str) -> bool:
    if not name.startswith("--"):
        return False
    if name.startswith("--config."):
        return _npm_program_key(name[len("--config.") :])
    # nopt takes an option spelled in full as that key before any abbreviation: --global is npm's global, not an
    # abbreviation of globalconfig (npm-config(7) "global", "Shorthands and Other CLI Niceties")
    if name[2:].lower() in _NPM_EXACT_KEYS:
        return False
    return name.startswith("--") and not name.startswith("--no-") and _npm_program_key(name[2:])


def _npm_workspace_option(name: str) -> bool:
    """True for an npm option that may select workspaces (npm-config(7) ``workspace``/``-w``, ``workspaces``/``-ws``/
    ``--ws``, ``include-workspace-root``), in any spelling nopt may take for one: a long option starting with ``w``
    or ``include-``, a short cluster holding ``w`` (``-sw``). Fails closed: it may match an option that is not one."""
    if name.startswith("--"):
        bare = name[2:].lower().removeprefix("no-")
        return bare.startswith(("w", "include-")) or bare == "iwr"
    return name.startswith("-") and "w" in name[1:].lower()


#: Long options yarn and pnpm are given, spelled in full, that change neither where they run nor what runs (yarn
#: classic and berry CLI, pnpm CLI): any other long option before the command (an abbreviation such as ``--cw`` or
#: ``--di`` too) is destructive. ``_JS_TAKES_VALUE``: those of them that take the next word as their value.
_JS_LONG_OPTIONS = {
    "npm": frozenset(),
    "yarn": frozenset({
        "--silent", "--verbose", "--json", "--no-progress", "--non-interactive", "--frozen-lockfile", "--immutable",
        "--pure-lockfile", "--prefer-offline", "--offline", "--production", "--prod", "--dev", "--peer", "--optional",
        "--exact", "--tilde", "--ignore-engines", "--ignore-optional", "--ignore-scripts", "--check-files",
        "--no-lockfile", "--network-timeout", "--registry", "--help", "--version", "--inline-builds", "--mode",
    }),
    "pnpm": frozenset({
        "--silent", "--reporter", "--loglevel", "--color", "--no-color", "--stream", "--aggregate-output", "--json",
        "--frozen-lockfile", "--no-frozen-lockfile", "--prefer-offline", "--offline", "--prod", "--dev", "--save-dev",
        "--save-exact", "--save-peer", "--save-optional", "--save-prod", "--ignore-scripts", "--if-present",
        "--lockfile-only", "--fix-lockfile", "--resolution-only", "--depth", "--latest", "--help", "--version",
        "--registry", "--no-optional", "--global",
    }),
}  # fmt: skip
_JS_TAKES_VALUE = frozenset({"--network-timeout", "--registry", "--mode", "--reporter", "--loglevel", "--depth"})

#: The package's own scripts each command runs (npm scripts(7), "Life Cycle Operation Order"; yarn and pnpm run the
#: same events where they run any), listed as a superset: an event a version does not run is read all the same.
#: Installs and every command that rebuilds node_modules (uninstall, update, dedupe, prune, rebuild, link) run the
#: install events; ``install-test``/``it``/``cit`` then ``test``; ``restart`` without a restart script runs stop and
#: start (the restart script itself is read by ``npm restart`` as a script).
_INSTALL_EVENTS = (
    "preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare",
    "predependencies", "dependencies", "postdependencies",
)  # fmt: skip
_PACK_EVENTS = ("prepack", "preprepare", "prepare", "postprepare", "postpack")
_LIFECYCLE: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(_NPM_INSTALL | _NPM_REMOVE | {"rebuild", "rb", "link", "ln", "remove"}, _INSTALL_EVENTS),
    **dict.fromkeys(("install-test", "it", "install-ci-test", "cit"), _INSTALL_EVENTS + ("pretest", "test", "posttest")),
    "pack": _PACK_EVENTS,
    "publish": ("prepublishOnly",) + _PACK_EVENTS + ("prepublish", "publish", "postpublish"),
    "version": ("preversion", "version", "postversion"),
    "shrinkwrap": ("preshrinkwrap", "shrinkwrap", "postshrinkwrap"),
    "restart": ("prestop", "stop", "poststop", "prestart", "start", "poststart"),
}  # fmt: skip


def _lifecycle_events(tool: str, command: str | None) -> tuple[str, ...] | None:
    """The life cycle events ``tool command`` runs of the package's own scripts, or None (``yarn`` alone installs)."""
    if command is None:
        return _INSTALL_EVENTS if tool == "yarn" else None
    if tool != "npm" and command in ("unlink",):
        return None
    installs = _NPM_INSTALL if tool == "npm" else (_PNPM_INSTALL if tool == "pnpm" else _YARN_INSTALL)
    if (
        command in installs
        or command in _LIFECYCLE
        and (
            tool == "npm"
            or command
            in _NPM_REMOVE
            | {"remove", "rebuild", "rb", "link", "ln", "pack", "publish", "version", "install-test", "it", "restart"}
        )
    ):
        return _LIFECYCLE.get(command, _INSTALL_EVENTS)
    return None


_PNPM_INSTALL = frozenset({
    "install", "i", "add", "update", "up", "upgrade", "fetch", "import", "install-test", "it", "ci", "clean-install",
    "ic", "install-clean",
})  # fmt: skip
_YARN_INSTALL = frozenset({"install", "add", "upgrade", "up", "upgrade-interactive", "import"})


#: Options that make npm, yarn or pnpm run in another directory (npm-config(7) ``prefix``, shorthand ``-C``, and
#: its unambiguous abbreviation ``--prefi``; yarn ``--cwd``; pnpm ``-C``/``--dir``).
_JS_DIRECTORY = {"npm": ("--prefix", "--prefi", "-C"), "yarn": ("--cwd",), "pnpm": ("-C", "--dir")}
#: Options that run the scripts of other packages (npm ``--workspace``/``--workspaces``, pnpm ``--recursive``,
#: ``--filter``, ``--workspace-root``), or of the global prefix.
_JS_ELSEWHERE = {
    "npm": ("-w", "--workspace", "--workspaces", "-ws", "--include-workspace-root"),
    "yarn": (),
    "pnpm": ("-r", "--recursive", "--filter", "-F", "--filter-prod", "-w", "--workspace-root"),
}


#: Options of npm, yarn and pnpm whose value (the next word) names a directory written, not a package.
_JS_PLACE_OPTIONS = frozenset({
    "--pack-destination", "--cache", "--logs-dir", "--modules-folder", "--cache-folder", "--global-folder",
    "--store-dir", "--virtual-store-dir", "--modules-dir", "--cache-dir",
})  # fmt: skip


def _js_option_values(words: list[Word]) -> list[Word]:
    """The words that are the values of :data:`_JS_PLACE_OPTIONS` given as ``--name VALUE``."""
    return [words[i + 1] for i, w in enumerate(words[:-1]) if w.value in _JS_PLACE_OPTIONS]


def js_package_manager(call: Call) -> None:
    """npm/pnpm/yarn: installs are network; test/run are build-or-test (the script is read from the directory the
    tool runs in); exec/dlx/npx-style runs are refused."""
    words = call.args
    if injected(call, words, runs_programs=True):
        return
    tool = call.name
    command: str | None = None
    rest: list[Word] = []
    prefix: Word | None = None
    run_dir: Word | None = None
    global_ = False
    ignore_scripts = False
    elsewhere: str | None = None
    #: the packages of the workspace that --filter, -r, --workspace, -ws select (see _workspace_scripts)
    selectors: list[str] = []
    selection_reason: str | None = None
    #: what pnpm's package selectors (--filter, -r, -w) alone made ``elsewhere``: an install they narrow runs no
    #: script that the install of the whole workspace does not (see below)
    pnpm_selected: str | None = None
    #: yarn and pnpm pass every word after a script's name to the script, options too (pnpm.io/cli/run: "Any
    #: options after the script's name are passed to the executed script"; yarn run: "Arguments passed to the
    #: script"); npm takes the options itself and passes only what follows ``--`` (npm-run-script(1)).
    forwarded: list[Word] | None = None
    index = 0
    while index < len(words):
        value = words[index].value
        index += 1
        if command is not None and forwarded is None and tool != "npm":
            forwarded = list(words[index - 1 :])
        if words[index - 1].splits and value is not None and value[:1] in "*?[{-":
            # the tool parses options before ``--`` (npm-run-script(1)): a glob that may expand to a file named
            # ``--userconfig=x`` gives it an option FlyBot never read
            destructive(
                call,
                "glob-argument",
                f"{tool} {shorten(words[index - 1].src, 40)}: the files a glob names are only known when it runs, "
                "and a file's name can be an option.",
            )
            return
        if value is None:
            if command is None:
                destructive(call, "dynamic-argument", f"The {call.name} command is only known when it runs.")
                return
            rest.append(words[index - 1])
            continue
        name = value.split("=", 1)[0]
        if _npm_program_option(name):
            destructive(call, "runs-program", f"{call.name} {name} makes it run a program of the caller's choosing.")
            return
        if tool == "npm" and name in _NPM_SELECTS and (value in _NPM_FLAGS or "=" in value or index < len(words)):
            if value in _NPM_FLAGS:
                selectors.append("*" if value != "--include-workspace-root" else ".")
            else:
                given = value.split("=", 1)[1] if "=" in value else words[index].value
                index += 0 if "=" in value else 1
                if given is None or given in ("", "false", "true"):
                    elsewhere = f"npm {name} with a value only known when it runs selects other packages"
                selectors.append(given or "")
            selection_reason = selection_reason or f"npm {name} runs the scripts of other packages"
            continue
        if tool == "npm" and _npm_workspace_option(name):
            destructive(
                call,
                "recipe-elsewhere",
                f"npm {shorten(name, 40)} may select workspaces: npm then runs other "
                "packages' scripts (their life cycle scripts too), which FlyBot does not read.",
            )
            return
        if (
            tool != "npm"
            and name.startswith("--")
            and name != "--"
            and name not in _JS_LONG_OPTIONS[tool]
            and name not in _JS_DIRECTORY[tool]
            and name not in _JS_ELSEWHERE[tool]
        ):
            if command is None or any(
                option.startswith(name) for option in _JS_DIRECTORY[tool] if option.startswith("--")
            ):
                # before the command it is the tool's own option, maybe an abbreviation of one (--cw, --di)
                destructive(
                    call,
                    "unrecognised-use",
                    f"{tool} {shorten(name, 40)} is not an option FlyBot knows, spelled in full: it may change where or what {tool} runs.",
                )
                return
        if value in ("--ignore-scripts", "--ignore-scripts=true"):
            ignore_scripts = True
        if tool == "npm" and len(name) >= len("--loca") and "--location".startswith(name):
            # nopt takes an unambiguous abbreviation (--loca, --locat...; --loc is also --lockfile-version's)
            name = "--location"
            value = name + value[len(value.split("=", 1)[0]) :]
        if (
            value in ("-g", "--global", "--location=global", "--location=user")
            or (name == "--global" and value.lower() not in ("--global=false", "--global=0"))
            or (
                value[:1] == "-"
                and value[1:2] != "-"
                and len(value) > 2
                and "=" not in value
                and "g" in value[1:]
                and (command is None or command in _NPM_INSTALL | _PNPM_INSTALL | _YARN_INSTALL)
            )
        ):
            # a cluster of one-letter options holding -g (``-Sg``, ``-gD``) is --global too: nopt expands a
            # single-dash word whose letters are all one-letter shorthands into them (nopt README "Abbreviations":
            # "-abc" is "-a -b -c"), and commander (yarn) splits combined short flags likewise
            global_ = True
            elsewhere = f"{tool} {value} runs in the global prefix"
        elif name == "--location" and "=" not in value:
            taken = words[index].value if index < len(words) else None
            index += 1
            if taken != "project":
                global_ = True
                elsewhere = f"{tool} --location {taken or '?'} runs outside the project"
        elif name in _JS_DIRECTORY.get(tool, ()) or (
            name.startswith("-C") and name != "-C" and "-C" in _JS_DIRECTORY.get(tool, ())
        ):
            if command is not None and tool != "npm":
                # yarn and pnpm pass what follows a script's name to the script: whether the script or the tool
                # takes it depends on the command and the version, so neither directory's recipe is certain
                elsewhere = f"{tool} {name} after the command may be the script's argument or {tool}'s option"
            if name.startswith("-C") and name != "-C":
                run_dir = literal_word(value[2:])
            else:
                run_dir = (
                    literal_word(value.split("=", 1)[1])
                    if "=" in value
                    else (words[index] if index < len(words) else Word(None, ""))
                )
                index += 0 if "=" in value else 1
            prefix = run_dir
        elif (
            tool == "pnpm"
            and name in _PNPM_SELECTS
            and (command is None or (command in ("run", "run-script") and not rest))
            and ("=" in value or name in ("-r", "--recursive", "-w", "--workspace-root") or index < len(words))
        ):
            # pnpm.io "Filtering", "pnpm -r": the packages of the workspace the scripts run in
            if name in ("-r", "--recursive"):
                selectors.append("*")
            elif name in ("-w", "--workspace-root"):
                selectors.append(".")
            else:
                given = value.split("=", 1)[1] if "=" in value else words[index].value
                index += 0 if "=" in value else 1
                if given is None:
                    elsewhere = f"pnpm {name} with a value only known when it runs selects other packages"
                selectors.append(given or "")
            selection_reason = selection_reason or f"pnpm {name} runs the scripts of other packages"
        elif name in _JS_ELSEWHERE.get(tool, ()):
            elsewhere = f"{tool} {name} runs the scripts of other packages"
            if tool == "pnpm" and (pnpm_selected is not None or selection_reason is None):
                pnpm_selected = elsewhere
            if (
                "=" not in value
                and name
                not in ("--workspaces", "-ws", "--include-workspace-root", "-r", "--recursive", "--workspace-root")
                and not (tool == "pnpm" and name == "-w")
            ):
                index += 1
        elif name == "--prefix":
            prefix = (
                literal_word(value.split("=", 1)[1]) if "=" in value else (words[index] if index < len(words) else None)
            )
            index += 0 if "=" in value else 1
        elif value in _NPM_VALUES or (tool != "npm" and value in _JS_TAKES_VALUE):
            index += 1
        elif value == "--":
            rest.extend(words[index:])
            break
        elif value.startswith("-"):
            if command is None and value in ("-v", "--version", "-h", "--help"):
                command = value
            continue
        elif command is None:
            command = value
        else:
            rest.append(words[index - 1])
    if tool == "pnpm" and command in _PNPM_INSTALL and elsewhere in (None, pnpm_selected):
        # pnpm.io "Filtering": --filter, -r and -w select projects of the pnpm workspace, and pnpm add/install/update
        # given them installs into those projects only; the install of the whole workspace runs the life cycle
        # scripts of every project it lists (recipes._own_packages, read below as for a plain pnpm install), so the
        # narrowed one runs no script that is not read. A selector whose value is only known when it runs stays
        # refused (the selection_reason branch above sets ``elsewhere`` for it).
        if "" not in selectors and (pnpm_selected is not None or selectors):
            elsewhere = None
            selectors, selection_reason = [], None
    if tool == "yarn":  # before anything else it does, yarn runs the release its settings name
        yarn_release(call, run_dir, f"yarn {command or 'install'}")
    if tool == "yarn" and command == "workspaces" and [w.value for w in rest] in (["list"], ["info"]):
        # yarn workspaces list (Yarn 2+) and yarn workspaces info (Yarn 1) only print the workspaces
        read_only(call, f"yarn workspaces {rest[0].value} only lists the project's workspaces.")
        return
    if (
        tool == "yarn"
        and command == "workspace"
        and not selectors
        and len(rest) >= 2
        and rest[0].value
        and rest[1].value
        and not rest[1].value.startswith("-")
        and rest[1].value not in _YARN_WORKSPACE_BUILTINS
    ):
        # yarnpkg.com/cli/workspace: "yarn workspace NAME COMMAND" runs COMMAND (a script, or with run) in the
        # workspace NAME
        selectors.append(rest[0].value)
        selection_reason = f"yarn workspace {rest[0].value}"
        command = "run"
        rest = rest[2:] if rest[1].value == "run" else rest[1:]
        forwarded = list(rest)
    elif tool in ("yarn", "pnpm") and command in ("workspace", "workspaces", "recursive", "multi", "m"):
        elsewhere = f"{tool} {command} runs the scripts of other packages"
    selection = (selection_reason or "", tuple(selectors)) if selectors else None
    installs_folder = (
        _NPM_INSTALL | _PNPM_INSTALL | _YARN_INSTALL | ({"pack", "link", "ln"} if tool == "npm" else set())
    )
    places = _js_option_values(call.args)
    if command in installs_folder and local_package_outside(
        call, [w for w in rest if not any(w is v for v in places)], f"{tool} {command}", bare_path=False
    ):
        return  # npm-install(1) <folder>, npm-pack(1) and npm-link(1) <folder>: its life cycle scripts run
    _grade_js(
        call, command, rest, prefix, global_, run_dir, elsewhere, rest if forwarded is None else forwarded, selection
    )
    if selection is not None and elsewhere is None:
        elsewhere = selection[0]  # the life cycle scripts of other packages are not read
    events = None if ignore_scripts else _lifecycle_events(tool, command)
    # npm-install(1) <folder>: a folder installed globally is linked there and its package's life cycle scripts run
    # as the project's do; the folder where it runs (".") is read as the project, any other one is not read
    folders = [w for w in rest if (w.value or "").startswith((".", "/", "~", "file:"))] if global_ else []
    if events is not None and any(w.value not in (".", "./") for w in folders):
        destructive(
            call,
            "recipe-elsewhere",
            f"{tool} {command} -g of {shorten(', '.join(w.src for w in folders), 60)} runs that package's life cycle "
            "scripts, which FlyBot does not read.",
        )
        return
    if folders:
        rest = []  # the project itself, installed globally (with other packages or not): its scripts run
    if events is not None and not (global_ and rest):
        # the package's own life cycle scripts (a global install of named packages runs theirs only, not the project's)
        others = None if global_ else elsewhere
        run_recipe(
            call,
            tool,
            LIFECYCLE + ",".join(events),
            directory=run_dir,
            elsewhere=others,
            label=f"{tool} {command or 'install'}",
        )
    if tool == "yarn" or (_lifecycle_events(tool, command) or ("",))[0] == _INSTALL_EVENTS[0]:
        # an install fetches packages (and runs their scripts) from where the project's .npmrc, .yarnrc.yml or
        # .pnpmfile.cjs say (npm-config(7)); a script run's settings are read with its recipe (bot/risk/recipes.py);
        # every yarn command runs the release .yarnrc.yml's yarnPath names (yarnrc: yarnPath)
        workspace_settings(call, tool, directory=run_dir, label=f"{tool} {command or 'install'}")


#: Spellings of npm's ``--logs-dir`` (npm-config(7); nopt takes an unambiguous prefix, ``--logs`` is ``--logs-max``
#: too).
_NPM_LOGS_DIR = frozenset({"--logs-d", "--logs-di", "--logs-dir"})
#: Directories yarn (classic CLI "yarn install": ``--cache-folder``, ``--modules-folder``, ``--global-folder``) and
#: pnpm ("Settings": ``--store-dir``, ``--virtual-store-dir``, ``--modules-dir``, ``--cache-dir``) write to.
_JS_OUTPUT_DIRS = {
    "yarn": frozenset({"--cache-folder", "--modules-folder", "--global-folder"}),
    "pnpm": frozenset({"--store-dir", "--virtual-store-dir", "--modules-dir", "--cache-dir"}),
}


#: npm-install(1) package specs that name a source other than the registry: a hosted git shorthand
#: (``github:user/repo``, ``gitlab:``, ``bitbucket:``, ``gist:``), a git URL (``git+https://``, ``git://``,
#: ``git+ssh://``), a tarball URL, and GitHub's ``user/repo`` shorthand; also after an alias's ``name@``; and yarn's
#: ``exec:`` protocol (yarnpkg.com "Protocols": it runs a script to make the package).
_JS_CHOSEN_SPEC = re.compile(
    r"^(?:(?:@[^/@\s]+/)?[^/@\s]+@)?(?:(?:github|gitlab|bitbucket|gist|git\+[a-z]+|git|exec):|[a-z][a-z0-9+.-]*://"
    r"|[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(?:#.*)?$)",
    re.IGNORECASE,
)


#: npm-config(7) options that choose who serves the packages, given on the command line (before or after the
#: command; pnpm and yarn classic take the same names): ``registry``, ``@scope:registry`` (the registry of one scope:
#: a package of that scope from anywhere, dependency confusion), ``proxy``, ``https-proxy`` (every download goes
#: through a machine of the command's choosing), ``ca``, ``cafile`` (certificate authorities of its choosing: a
#: server holding any certificate they sign is trusted); ``strict-ssl`` set false (``--no-strict-ssl``,
#: ``--strict-ssl=false``) turns the TLS check off. pip's ``--proxy``, ``--cert`` and ``--trusted-host`` are the same
#: (:func:`_pip_chosen_source`). pnpm's ``--config.KEY=VALUE`` spelling counts too.
_JS_SOURCE_OPTIONS = frozenset({"registry", "proxy", "https-proxy", "ca", "cafile"})


def _js_source_option(call: Call, index: int) -> Word | None:
    """The word naming the source when ``call.args[index]`` is one of :data:`_JS_SOURCE_OPTIONS` or turns
    ``strict-ssl`` off, else None."""
    words = call.args
    text = words[index].value or ""
    if not text.startswith("--"):
        return None
    name, eq, attached = text[2:].partition("=")
    name = name.lower().removeprefix("config.")
    following = words[index + 1] if index + 1 < len(words) else None
    if name in _JS_SOURCE_OPTIONS or name.endswith(":registry"):
        if eq:
            return Word(attached, words[index].src)
        return following if following is not None else words[index]
    if name == "no-strict-ssl":
        return words[index]
    if name == "strict-ssl":
        value = attached if eq else (following.value if following is not None else None)
        if value is not None and value.lower() in ("false", "0", "no"):
            return words[index]
    return None


def _js_chosen_source(call: Call, tool: str, command: str, rest: list[Word], *, listed: bool = False) -> None:
    """An install of a package from a source the command names (:data:`_JS_CHOSEN_SPEC`, or an option choosing the
    registry, a scope's registry, a proxy or certificate authorities, or turning the TLS check off:
    :data:`_JS_SOURCE_OPTIONS`): its install and prepare scripts run here (npm builds a git dependency with its dev
    dependencies), from a source the configured registry does not vouch for (kit ``chosen_source``; ``listed`` for a
    tool bot/risk/meaning.py has no rules for, bun)."""
    named = next(
        (
            w
            for w in rest
            if w.value is not None
            and not w.value.startswith(("-", ".", "/", "~", "file:"))
            and _JS_CHOSEN_SPEC.match(w.value)
        ),
        None,
    )
    for index in range(len(call.args)):
        if named is None:
            named = _js_source_option(call, index)
    if named is not None:
        chosen_source(call, f"{tool} {command} {shorten(named.src, 60)}", listed=listed)


def _grade_js(
    call: Call,
    command: str | None,
    rest: list[Word],
    prefix: Word | None,
    global_: bool,
    run_dir: Word | None = None,
    elsewhere: str | None = None,
    forwarded: list[Word] | None = None,
    selection: tuple[str, tuple[str, ...]] | None = None,
) -> None:
    """``forwarded``: the words a package.json script run is given (for yarn and pnpm every word after the
    command, options too; ``rest`` when None). ``selection``: the packages of the workspace a script run runs in
    (:func:`_workspace_scripts`); any other command given one runs in other packages (``elsewhere``)."""
    tool = call.name
    forwarded = rest if forwarded is None else forwarded
    # only a script run reads the selected packages' scripts; any other command runs in them unread
    others = elsewhere if elsewhere is not None or selection is None else selection[0]
    if (
        tool == "npm"
        and selection is not None
        and not (command in _NPM_RUN and (command not in ("run", "run-script", "rum", "urn") or rest))
    ):
        # npm's workspace options with any other command than a script run (an install, npm run listing the
        # scripts of every workspace): other packages' scripts and files, not read
        destructive(call, "recipe-elsewhere", f"{selection[0]}, which FlyBot does not read.")
        return
    if tool == "npm":
        # npm-config(7) "cache": the directory npm writes downloaded packages to (and clears with cache clean).
        _output_options(call, call.args, frozenset({"--cache"}), f"npm {command or ''}".rstrip())
        # npm-config(7) "logs-dir": npm creates it and writes its debug log there (nopt takes "--logs-d" for it).
        _output_options(call, call.args, _NPM_LOGS_DIR, f"npm {command or ''}".rstrip())
    elif tool in _JS_OUTPUT_DIRS:
        _output_options(call, call.args, _JS_OUTPUT_DIRS[tool], f"{tool} {command or ''}".rstrip())
    if command is None:
        if tool == "yarn":
            network(call, "yarn installs the project's dependencies from the registry.", rule="package-install")
            return
        read_only(call, f"{tool} without a command only prints help.")
        return
    installs = _NPM_INSTALL if tool == "npm" else (_PNPM_INSTALL if tool == "pnpm" else _YARN_INSTALL)
    if tool in ("pnpm", "yarn") and _js_tool_builtin(call, tool, command, rest):
        return
    if tool == "pnpm" and command == "exec":
        _pnpm_exec(call, forwarded, run_dir, others)
    elif command in ("exec", "x", "dlx", "create", "node", "bin") or (command in ("init", "innit", "create") and rest):
        destructive(call, "runs-program", f"{tool} {command} runs package programs the classifier cannot see.")
    elif command in installs:
        _js_chosen_source(call, tool, command, rest)
        network(call, f"{tool} {command} fetches packages from the registry.", rule="package-install")
        _js_location(call, prefix, global_, f"{tool} {command} installs into")
    elif command in ("dedupe", "ddp"):
        # npm-dedupe(1) (npm 10) reifies the simplified tree as npm install does (its options: --install-strategy,
        # --audit, --dry-run), fetching metadata and packages from the registry; pnpm dedupe "performs an install"
        # and yarn dedupe (berry) resolves again: network, as an install
        _js_chosen_source(call, tool, command, rest)
        network(call, f"{tool} {command} fetches packages from the registry.", rule="package-install")
        _js_location(call, prefix, global_, f"{tool} {command} changes the packages in")
    elif command in _NPM_REMOVE or command in ("remove", "unplug"):
        _js_location(call, prefix, global_, f"{tool} {command} changes the packages in")
    elif tool == "npm" and command in ("run", "run-script", "rum", "urn") and not rest:
        # npm-run-script(1): "Running without any arguments will list the available scripts"
        read_only(call, f"npm {command} without a script name only lists the scripts.")
    elif tool == "npm" and command == "pkg" and rest and rest[0].value == "get":
        # npm-pkg(1): "npm pkg get [<key> [<key> ...]]" prints values of package.json
        read_only(call, "npm pkg get only prints fields of package.json.")
    elif command in _NPM_RUN or command in ("init", "innit"):
        build_or_test(call, f"{tool} {command}")
        _js_script(call, tool, command, forwarded, run_dir, elsewhere, selection)
        if command in ("init", "innit"):
            # npm-init(1) without a package runs the init-module (npm-config(7): "A module that will be loaded by
            # the npm init command"), which a project's .npmrc may name anywhere: read with the settings a script
            # run reads (no life cycle script of its own runs)
            run_recipe(call, tool, LIFECYCLE, directory=run_dir, elsewhere=others, label=f"{tool} {command}")
    elif command in _NPM_READ:
        read_only(call, f"{tool} {command} only reads.")
    elif command in _NPM_NETWORK or command in ("npm", "global"):
        network(call, f"{tool} {command} talks to the registry.")
        if command == "global":
            call.write(_HOME, f"{tool} global changes")
            # yarn global add <folder> (yarn classic "yarn global", "yarn add" <folder>): that package's life cycle
            # scripts run, which FlyBot does not read
            if any((w.value or "").startswith((".", "/", "~", "file:", "link:")) or w.value is None for w in rest[1:]):
                destructive(
                    call,
                    "recipe-elsewhere",
                    f"{tool} global of a folder runs its life cycle scripts, which FlyBot does not read.",
                )
        elif command in ("login", "logout", "adduser", "add-user"):  # npm-login(1): the token goes to ~/.npmrc
            call.write(_HOME, f"{tool} {command} changes the user's .npmrc under")
        elif command == "token" and rest and rest[0].value in ("create", None):
            # npm-token(1): "create: Create a new authentication token ... it will be displayed"
            call.flag(R.NETWORK, "secret-read", f"{tool} token create prints a new authentication token to the model.")
    elif command in _NPM_WRITE:
        # npm-pack(1): --pack-destination names the directory the tarball is written to.
        _output_options(call, call.args, frozenset({"--pack-destination"}), f"{tool} {command}")
        if _rewrites_manifest(call, tool, command, rest, prefix, global_):
            return
        # npm-link(1): without a package name it links the current package into the global prefix; yarn classic's
        # "yarn link" registers it under ~/.config/yarn/link, and pnpm's may link it globally too (pnpm.io/cli/link)
        _js_location(
            call,
            prefix,
            global_ or (command in ("link", "ln") and not rest),
            f"{tool} {command} changes",
        )
        if (
            command == "version"
            and tool in ("npm", "yarn")
            and not {"--no-git-tag-version", "--no-git-tag"} & {w.value for w in call.args}
        ):
            # npm-version(1): "If run in a git repo, it will also create a version commit and tag" (yarn classic's
            # yarn version too): git add, git commit and git tag run there, with the programs its configuration names
            from .git import repository_programs

            repository_programs(call, ("add", "commit", "tag"), f"{tool} version")
    elif command in ("cache", "config", "c", "set", "get"):
        action = rest[0].value if rest else None
        keys = [w.value or "" for w in (rest if command == "get" else rest[1:]) if not (w.value or "").startswith("-")]
        long_list = any(w.value in ("-l", "--long", "--json") for w in call.args)
        if (
            (command == "get" or action == "get")
            and (not keys or any(secret_setting(k) for k in keys))
            or (command != "cache" and action in ("list", "ls", None) and long_list)
        ):
            # npm-config(1): "get" without a key and "list --long"/"--json" print every setting, auth tokens too.
            call.flag(
                R.NETWORK, "secret-read", f"{tool} {command} prints a credential setting: its output goes to the model."
            )
        elif (command != "cache" and action in ("get", "list", "ls", None)) or command == "get":
            read_only(call, f"{tool} {command} only reads its configuration.")
        elif action == "edit":
            destructive(call, "runs-program", f"{tool} {command} edit runs an editor.")
        elif command != "cache" and any(
            w.value is None or _npm_program_key(w.value.split("=", 1)[0]) for w in _config_key(command, rest)
        ):
            destructive(call, "runs-program", f"{tool} {command} {action} sets a key that makes {tool} run a program.")
        elif command != "cache" and any(_npm_source_key(w.value or "") for w in _config_key(command, rest)):
            _package_source(
                call,
                f"{tool} {command} {action} changes where every later install gets its packages from (or whether it "
                "checks who serves them): future installs come from another source, which runs its code.",
            )
        else:
            call.write(_HOME, f"{tool} {command} changes its files under")
            project = _project_config(tool, call.args)
            if project is not None:  # and the project's, which a script run later in the command reads
                call.write(_in_prefix(prefix, project), f"{tool} {command} {action or ''}".rstrip() + " writes")
    elif tool == "pnpm" and command == "store":
        # pnpm store (pnpm.io/cli/store): status and path print; add and prune change the global store under ~
        if [w.value for w in rest][:1] in (["status"], ["path"]):
            read_only(call, f"pnpm store {rest[0].value} only reads the store.")
        elif [w.value for w in rest][:1] in (["add"], ["prune"]):
            if rest[0].value == "add":
                network(call, "pnpm store add downloads packages from the registry.", rule="package-install")
            call.write(_HOME, f"pnpm store {rest[0].value} changes the global store under")
        else:
            refuse(call, "pnpm store without a known action")
    elif tool in ("pnpm", "yarn") and command in ("workspace", "workspaces", "recursive", "multi", "m"):
        # built-ins that run a command in other packages (yarn workspace(s), pnpm recursive): never a script's name
        destructive(
            call,
            "recipe-elsewhere",
            f"{tool} {command} runs commands and scripts of other packages; FlyBot does not read those recipes.",
        )
    elif tool in ("pnpm", "yarn") and not command.startswith("-"):
        build_or_test(call, f"{tool} {command} (a package.json script)")
        _js_script(call, tool, "run", [Word(command, command)] + forwarded, run_dir, elsewhere, selection)
    else:
        refuse(call, f"the command {command}")


#: The ``npm pkg`` and ``pnpm pkg`` actions that rewrite package.json (npm-pkg(1): ``set``, ``delete``, ``fix``;
#: pnpm.io/cli/pkg, the same actions); ``npm set-script NAME CMD`` (npm 7 and 8, npm-set-script(1)) writes
#: ``scripts.NAME``. ``npm version`` and the installs also write package.json, but only its version and dependencies.
_MANIFEST_ACTIONS = frozenset({"set", "delete", "fix"})


def _rewrites_manifest(
    call: Call, tool: str, command: str, rest: list[Word], prefix: Word | None, global_: bool
) -> bool:
    """Grade ``npm pkg set|delete|fix``, ``pnpm pkg …`` and ``npm set-script`` as a write of the package.json of the
    directory they run in (``--prefix``, ``-C``), so a recipe run in the same command (``… && npm test``) is read as
    rewritten (programs/projects.py); False when ``command`` is not such a use (then it is graded as before)."""
    if global_ or not (command == "set-script" or command == "pkg" and rest and rest[0].value in _MANIFEST_ACTIONS):
        return False
    action = command if command == "set-script" else f"{command} {rest[0].value}"
    call.write(_in_prefix(prefix, "package.json"), f"{tool} {action} rewrites")
    return True


def _in_prefix(prefix: Word | None, name: str) -> Word:
    """The file ``name`` of the directory the tool runs in: the shell's, or ``prefix`` (``--prefix``, ``-C``)."""
    if prefix is None:
        return literal_word(name)
    if prefix.value:
        return literal_word(posixpath.join(prefix.value, name))
    return Word(None, f"{prefix.src}/{name}")


def _project_config(tool: str, args: list[Word]) -> str | None:
    """The project's configuration file a ``config set`` also writes, or None: npm's and pnpm's with
    ``--location=project`` (npm-config(7) "location": the project's ``.npmrc``); yarn's ``.yarnrc.yml`` unless
    ``-H``/``--home`` (yarn berry, "yarn config set": the project's configuration by default; yarn 1 writes the
    user's ``~/.yarnrc``, which the caller grades already)."""
    values = [w.value for w in args]
    if tool == "yarn":
        return None if "-H" in values or "--home" in values else ".yarnrc.yml"
    project = "--location=project" in values or any(
        value == "--location" and following == "project" for value, following in zip(values, values[1:], strict=False)
    )
    return ".npmrc" if project else None


#: pnpm (pnpm.io/cli) and yarn (yarnpkg.com/cli) built-ins that change the tool itself, the shell start-up file or
#: which dependency scripts run; they run before any package.json script of the same name.
_JS_TOOL_BUILTINS = {
    "pnpm": frozenset({"setup", "self-update", "env", "runtime", "rt", "approve-builds", "server", "patch",
                       "patch-commit", "patch-remove", "permissions", "approve", "shim", "with"}),
    "yarn": frozenset({"plugin", "policies", "sdks", "patch", "patch-commit", "constraints"}),
}  # fmt: skip
#: Other built-ins the grader does not list as npm's commands, by what they do. pnpm and yarn run a built-in before a
#: package.json script of the same name (pnpm.io/cli/run: "pnpm <cmd>" runs the script only when <cmd> is not a pnpm
#: command; yarn classic "yarn run": the name may be left out when it is no built-in; yarnpkg.com/cli/run the
#: same), so none of these is ever graded as a script. pnpm's ``tasks``, ``clean`` and ``purge`` are the exceptions
#: (``pnpm help``: "A same-named script takes precedence"): they stay script names, graded by the script (the
#: built-in ``clean`` removes node_modules). Sources: ``pnpm help --all`` (pnpm 12), yarn classic CLI
#: (classic.yarnpkg.com/en/docs/cli), ``yarn help`` (yarn 4).
_JS_OTHER_BUILTINS: dict[str, dict[str, str]] = {
    "pnpm": {
        # print what is installed or in the store, or shell completion code
        **dict.fromkeys(
            ("licenses", "licences", "peers", "completion", "find-hash", "cat-file", "cat-index", "ignored-builds"),
            "read",
        ),
        # the registry: marks, tags, staged publications, owners and the account's profile
        **dict.fromkeys(("undeprecate", "unstar", "dist-tags", "stage", "owners", "profile"), "network"),
        "unpublish": "destroy",  # removes a published package from the registry
        "ss": "write",  # set-script: writes package.json
        "change": "write",  # records a change intent in the workspace
        "uni": "remove",
        "dislink": "remove",
        # opens the package's folder in $EDITOR, or a URL in the browser
        **dict.fromkeys(("edit", "bugs", "issues", "docs", "home", "repo"), "runs"),
        # runs every workspace package's tasks as CI would (their scripts, which FlyBot does not read)
        "pipeline": "elsewhere",
        "deploy": "deploy",
        # effects the manual does not spell out (release lanes, catalog edits, executables built for other platforms)
        **dict.fromkeys(("lane", "catalog", "pack-app"), "unknown"),
    },
    "yarn": {
        **dict.fromkeys(("check", "generate-lock-entry", "licenses", "versions"), "read"),
        "tag": "network",
        "autoclean": "write",  # .yarnclean, and with --force files removed from node_modules
        "stage": "write",  # stages (and with -c commits) the project's changes in its VCS
    },
}


def _js_tool_builtin(call: Call, tool: str, command: str, rest: list[Word]) -> bool:
    """Grade a pnpm or yarn built-in that is never a package.json script; False when ``command`` is not one."""
    action = rest[0].value if rest else None
    if tool == "yarn" and command == "set":
        if action in ("version", "resolution"):
            if action == "version":  # yarn set version: downloads a release that every later yarn run executes
                tool_plugin(call, "yarn set version")
            else:
                workspace_write(call, "yarn set resolution changes the project's lockfile.")
            return True
        return False
    if command in _JS_OTHER_BUILTINS[tool]:
        _js_other_builtin(call, tool, command, rest)
        return True
    if command not in _JS_TOOL_BUILTINS[tool]:
        return False
    what = f"{tool} {command}"
    if command in ("permissions", "approve"):  # pnpm 12: approve what dependencies may do (run build scripts)
        destructive(call, "runs-program", f"{what} lets dependencies' build scripts run in later installs.")
        return True
    if command == "with":  # pnpm with VERSION ...: downloads that pnpm release and runs it
        destructive(call, "runs-program", "pnpm with runs a pnpm release it downloads: a program FlyBot cannot see.")
        return True
    if command == "shim":  # shims that run packages' programs from the project's choice of version
        tool_plugin(call, what)
        return True
    if command == "rt":
        command = "runtime"
    if command == "setup":
        host_destructive(
            call,
            "persistence",
            "pnpm setup writes PNPM_HOME into the shell start-up file (~/.bashrc, ~/.zshrc): it runs in every later "
            "shell.",
        )
    elif command in ("self-update", "env", "runtime", "policies"):
        # pnpm self-update / pnpm env use / pnpm runtime set / yarn policies set-version replace the tool or node
        if action in ("list", "ls", None) and command in ("env", "runtime"):
            read_only(call, f"{what} only lists.")
        else:
            tool_plugin(call, what)
    elif command == "plugin":
        if action in ("list", "runtime", "check"):
            read_only(call, f"yarn plugin {action} only lists.")
        else:  # yarn plugin import|remove: .yarn/plugins and .yarnrc.yml, loaded by every later yarn run
            tool_plugin(call, f"yarn plugin {shorten(action or '?', 20)}")
    elif command == "approve-builds":
        destructive(call, "runs-program", "pnpm approve-builds lets dependencies' build scripts run in later installs.")
    elif command == "server":
        system(call, "pnpm server starts a store server that keeps running.", downgradable=True)
    elif command == "constraints":
        # yarn constraints runs the project's yarn.config.cjs (--fix also writes package.json)
        build_or_test(call, "yarn constraints")
    else:  # patch, patch-commit, patch-remove: a package copied for editing, a patch recorded in package.json
        workspace_write(call, f"{what} changes the project's patched dependencies.")
    return True


def _js_other_builtin(call: Call, tool: str, command: str, rest: list[Word]) -> None:
    """Grade a built-in of :data:`_JS_OTHER_BUILTINS` by what it does."""
    what = f"{tool} {command}"
    effect = _JS_OTHER_BUILTINS[tool][command]
    if effect == "read":
        read_only(call, f"{what} only prints.")
    elif effect == "network":
        network(call, f"{what} talks to the registry.")
    elif effect == "destroy":
        destructive(call, "remote-control-plane", f"{what} removes a published package from the registry.")
    elif effect == "write":
        workspace_write(call, f"{what} changes the project's files.")
    elif effect == "remove":
        _js_location(call, None, False, f"{what} changes the packages in")
    elif effect == "runs":
        destructive(call, "runs-program", f"{what} opens an editor or a browser: a program FlyBot cannot see.")
    elif effect == "elsewhere":
        destructive(
            call,
            "recipe-elsewhere",
            f"{what} runs the scripts of every workspace package; FlyBot does not read those recipes.",
        )
    elif effect == "deploy":
        # pnpm.io/cli/deploy: copies a workspace package and installs its production dependencies into the
        # target directory (the last operand)
        network(call, "pnpm deploy installs the package's dependencies from the registry.", rule="package-install")
        targets = [w for w in rest if not (w.value or "x").startswith("-")]
        call.write(targets[-1] if targets else Word(None, ""), "pnpm deploy writes the deployed package to")
    else:
        refuse(call, what)


_NPM_SCRIPT_ALIASES = {
    "t": "test",
    "tst": "test",
    "test": "test",
    "start": "start",
    "stop": "stop",
    "restart": "restart",
}


def _js_script(
    call: Call,
    tool: str,
    command: str,
    rest: list[Word],
    directory: Word | None = None,
    elsewhere: str | None = None,
    selection: tuple[str, tuple[str, ...]] | None = None,
) -> None:
    """``npm test``/``npm start``/``npm run X [-- ARGS]``: grade the package.json script of ``directory`` (``--prefix``,
    ``--cwd``, ``-C``; the shell's directory when None) as programs/projects.py reads it; ``elsewhere``: why the
    tool runs other packages' scripts (then it is destructive)."""
    if command in _NPM_SCRIPT_ALIASES:
        name: str | None = _NPM_SCRIPT_ALIASES[command]
        extra = rest
    elif command in ("run", "run-script", "rum", "urn"):
        if tool != "npm":  # yarn run's own options come before the script's name (yarn run --inspect, -T, -B)
            rest = rest[next((i for i, w in enumerate(rest) if not (w.value or "x").startswith("-")), len(rest)) :]
        if not rest:
            read_only(call, f"{tool} run without a script lists the scripts.")
            return
        name = rest[0].value
        extra = rest[1:]
    else:
        return
    if name is None:
        destructive(call, "dynamic-argument", f"The {tool} script is only known when it runs.")
        return
    extra = [w for w in extra if w.value != "--"]
    if selection is not None and elsewhere is None and directory is None:
        _workspace_scripts(call, tool, name, extra, selection)
        return
    if selection is not None:
        elsewhere = elsewhere or selection[0]
    run_recipe(call, tool, name, directory=directory, extra=extra, elsewhere=elsewhere)


#: npm's options that select workspaces (npm-workspaces(7), npm-config(7) ``workspace``, ``workspaces``,
#: ``include-workspace-root``), spelled in full; pnpm's (pnpm.io "Filtering", ``-r``, ``-w``/``--workspace-root``).
_NPM_SELECTS = frozenset({"-w", "--workspace", "--workspaces", "-ws", "--ws", "--include-workspace-root"})
_NPM_FLAGS = frozenset({"--workspaces", "-ws", "--ws", "--include-workspace-root"})
_PNPM_SELECTS = frozenset({"-r", "--recursive", "--filter", "-F", "-w", "--workspace-root"})
#: yarn's built-in commands (yarnpkg.com/cli), which ``yarn workspace NAME COMMAND`` runs instead of a script.
_YARN_WORKSPACE_BUILTINS = frozenset({
    "add", "remove", "install", "up", "upgrade", "dlx", "exec", "node", "bin", "link", "unlink", "pack", "npm",
    "patch", "patch-commit", "plugin", "set", "config", "cache", "constraints", "dedupe", "explain", "info",
    "init", "rebuild", "stage", "unplug", "version", "why", "workspace", "workspaces", "publish", "global",
})  # fmt: skip


def _workspace_scripts(
    call: Call, tool: str, name: str, extra: list[Word], selection: tuple[str, tuple[str, ...]]
) -> None:
    """The script ``name`` run in the workspace packages a selection names (``pnpm --filter web test``, ``pnpm -r
    build``, ``yarn workspace web test``, ``npm test -w web``, ``npm run build --workspaces``): each selected package's
    script is read where it runs and graded as ``npm test`` in that package is (programs/projects.py
    ``run_recipe``). The packages are the workspace's, as the recipe book answers (settings.py
    ``js_workspace_packages``: the adapter reads them and sends them, so the server grades the same; a workspace that
    could not be read is destructive). A selector that is a package's name or directory selects it; ``-r``,
    ``--workspaces`` and a pnpm selector with a glob or a graph or git part (``@acme/*``, ``...web``, ``web^...``,
    ``[origin/main]``, ``!web``) every package; ``-w`` and ``--include-workspace-root`` the package where the tool
    runs; a name or path no package of the workspace has is destructive (``recipe-elsewhere``)."""
    from bot.risk.settings import WORKSPACES

    from .projects import settings_lines

    reason, selectors = selection
    lines = settings_lines(call, tool, reason, WORKSPACES, required=True)
    if lines is None:
        return
    packages = [(line.source, line.command) for line in lines]
    chosen: list[str] = []
    root_too = False
    for selector in selectors:
        if selector == ".":
            root_too = True
            continue
        bare = selector.removeprefix("./").rstrip("/")
        named = [d for d, n in packages if n == selector or (bare and (d == bare or d.endswith("/" + bare)))]
        if selector != "*" and not named and not any(c in selector for c in "*?[{!^") and "..." not in selector:
            destructive(
                call,
                "recipe-elsewhere",
                f"{reason}: {shorten(selector, 60)} is not a package of the workspace FlyBot read.",
            )
            return
        chosen += named if named and selector != "*" else [d for d, _ in packages]
    state = call.g.state
    if root_too:
        run_recipe(call, tool, name, extra=extra, label=f"{tool} run {name}")
    for directory in sorted(set(chosen)):
        place = literal_word(posixpath.join(state.root, directory))
        run_recipe(call, tool, name, directory=place, extra=extra, label=f"{tool} run {name} in {directory}")


def _js_location(call: Call, prefix: Word | None, global_: bool, what: str) -> None:
    if global_:
        call.write(Word(None, "-g"), what)
    elif prefix is not None:
        call.write(prefix, what)
    else:
        workspace_write(call, f"{what} the project's packages.")


_PIP_GLOBAL_VALUES = frozenset({
    "--proxy", "--retries", "--timeout", "--exists-action", "--trusted-host", "--cert", "--client-cert",
    "--cache-dir", "--use-feature", "--use-deprecated", "--root-user-action", "--log", "--log-file",
    "--keyring-provider", "-i", "--index-url", "--extra-index-url", "-r", "--requirement", "-c", "--constraint",
    "-e", "--editable", "-t", "--target", "--prefix", "--root", "--src", "-d", "--dest", "-w", "--wheel-dir",
    "--platform", "--python-version", "--implementation", "--abi", "--upgrade-strategy", "-f", "--find-links",
    "--no-binary", "--only-binary", "--progress-bar", "--report", "--config-settings", "-C", "--global-option",
    "--editor",
})  # fmt: skip
#: pip flags spelled like the start of a value option above, so never read as its abbreviation (optparse: an
#: exact name wins): ``install -U, --upgrade`` (not ``--upgrade-strategy``), ``install --pre`` (not ``--prefix``),
#: ``config --global`` (not ``--global-option``).
_PIP_GLOBAL_FLAGS = frozenset({"--user", "--python", "--upgrade", "--pre", "--global"})


def _pip_local_outside(call: Call, command: str, specs: list[Word]) -> bool:
    """A requirement of ``pip install|download|wheel`` (an operand or ``-e``/``--editable``'s value) that is a local
    project directory or archive outside the workspace (``/tmp/pkg``, ``../pkg``, ``file:///tmp/pkg``, ``~/pkg``,
    ``pkg @ file:///tmp/pkg``, ``git+file:///tmp/pkg``; pip "Local project installs"): pip builds it, running its
    build backend or ``setup.py``, code FlyBot does not read: destructive (``project-outside-workspace``), and True
    (kit.local_package_outside). A path in the workspace (``-e .``) and a name or remote URL are not."""
    return local_package_outside(call, specs, f"pip {command}")


def _pip_requirements_outside(call: Call, command: str, files: list[Word]) -> bool:
    """A requirements or constraints file (``-r``/``--requirement``, ``-c``/``--constraint``; pip "Requirements File
    Format": pip also takes a URL there) outside the workspace, a URL or a path only known when it runs: its lines
    may name any option or requirement, ``-e /tmp/pkg``, a local project, an index (pip reads it, FlyBot does not),
    so it is graded as a local project outside the workspace: destructive (``project-outside-workspace``), and True.
    A file in the workspace keeps the grade of the install."""
    for file in files:
        value = file.value
        if value is not None and "://" not in value and not value.startswith("~"):
            if call.where(file) is Where.WORKSPACE:
                continue
        destructive(
            call,
            "project-outside-workspace",
            f"pip {command} reads the requirements file {shorten(file.src, 60)}, outside the workspace (or only "
            "known when it runs): its lines may name a local project or an index, code FlyBot does not read.",
        )
        return True
    return False


#: The index pip uses when none is named (pip "pip install" ``--index-url``: default https://pypi.org/simple).
_PYPI = frozenset({"https://pypi.org/simple", "https://pypi.org/simple/"})
#: Version control schemes of a requirement (pip "VCS Support": ``git+https://...``, ``hg+``, ``svn+``, ``bzr+``).
_VCS_REQUIREMENT = re.compile(r"(?:^|@\s*)(?:git|hg|svn|bzr)\+", re.IGNORECASE)


def _pip_chosen_source(call: Call, command: str, found: Scan, specs: list[Word]) -> bool:
    """``pip install|download|wheel`` from a source the command names (pip "pip install": ``-i``/``--index-url``
    other than PyPI, ``--extra-index-url``, ``-f``/``--find-links`` with a URL, ``--trusted-host`` (its TLS check
    off), ``--proxy`` and ``--cert`` (a proxy, or certificate authorities, of the command's choosing: as the
    exported HTTPS_PROXY and SSL_CERT_FILE, the downloads may be served by anyone), a requirement that is a URL or VCS link, ``name @ URL``): pip builds what it gets there (its build backend
    or setup.py runs, also to read the metadata), code from a source no configured index vouches for
    (kit ``chosen_source``), and True. A requirement file's own lines are the project's (``-r requirements.txt``)."""
    values = found.values
    named = [w for w in values("-i", "--index-url") if w.value is None or w.value not in _PYPI]
    named += [*values("--extra-index-url"), *values("--trusted-host"), *values("--proxy"), *values("--cert")]
    named += [w for w in values("-f", "--find-links") if w.value is None or "://" in w.value]
    named += [
        w
        for w in specs
        if w.value is not None
        and not w.value.startswith("file:")
        and ("://" in w.value or _VCS_REQUIREMENT.search(w.value) is not None)
    ]
    if not named:
        return False
    chosen_source(call, f"pip {command} from {shorten(named[0].src, 60)}")
    return True


def pip(call: Call) -> None:
    """pip (pip.pypa.io "Commands"): install/download/wheel are network; uninstall deletes."""
    found = scan(call.args, "irceftdwC", _PIP_GLOBAL_VALUES, long_flags=_PIP_GLOBAL_FLAGS)
    if injected(call, call.args, runs_programs=True):
        return
    # optparse takes any unambiguous abbreviation: before the command, where only the general options are parsed
    # and pip re-runs itself with the interpreter given, --py/--pyt/--pyth/--pytho are --python
    if any(o.name.startswith("--python") or (len(o.name) >= 4 and "--python".startswith(o.name)) for o in found.opts):
        destructive(call, "runs-program", "pip --python runs another interpreter.")
        return
    if found.dynamic and not found.operands:
        destructive(call, "dynamic-argument", "The pip command is only known when it runs.")
        return
    command = found.operands[0].value if found.operands else None
    for log in found.values("--log", "--log-file", "--report", "--cache-dir", "--src"):
        call.write(log, "pip writes")
    if command in ("install", "download", "wheel"):
        specs = [*found.operands[1:], *found.values("-e", "--editable")]
        if _pip_local_outside(call, command, specs):
            return
        # pip install "-f, --find-links <url>: If a URL or path to an html file, then parse for links to archives
        # ... If a local path or file:// URL that's a directory, then look for archives in the directory listing":
        # archives from a directory outside the workspace are built or installed as a local project is
        if local_package_outside(call, found.values("-f", "--find-links"), f"pip {command} --find-links"):
            return
        files = found.values("-r", "--requirement", "-c", "--constraint")
        if _pip_requirements_outside(call, command, files) or requirements_outside(call, f"pip {command} -r", files):
            return
        _pip_chosen_source(call, command, found, specs)
        network(call, f"pip {command} fetches packages from an index.", rule="package-install")
        workspace_settings(call, "pip", label=f"pip {command}")
        for target in found.values("-t", "--target", "--prefix", "--root", "-d", "--dest", "-w", "--wheel-dir"):
            call.write(target, f"pip {command} writes into")
        if found.has("--user"):
            call.write(_HOME, f"pip {command} --user installs into")
        if command == "install" and found.has("--break-system-packages"):
            # pip install "--break-system-packages: Allow pip to modify an EXTERNALLY-MANAGED Python installation"
            # (PEP 668 marks a distribution's interpreter so, never a virtual environment): the packages go into that
            # interpreter's site-packages, or the user's (~/.local) when it is not writable, outside the workspace
            system(
                call,
                f"pip {command} --break-system-packages installs into the system interpreter's packages (or "
                "~/.local), outside the workspace.",
                downgradable=True,
                rule="write-outside-workspace",
            )
        if command != "install" and not found.values("-d", "--dest", "-w", "--wheel-dir"):
            call.write(literal_word("."), f"pip {command} writes into")
    elif command == "uninstall":
        deletion(call, "pip uninstall deletes installed packages.")
    elif command == "list" and found.has("-o", "--outdated", "-u", "--uptodate"):
        # pip list (pip.pypa.io "pip list"): -o/--outdated and -u/--uptodate compare with the index's versions
        network(call, "pip list --outdated (or --uptodate) asks the package index for the latest versions.")
    elif command in ("list", "show", "freeze", "check", "help", "debug", "inspect", None) or found.has(
        "-V", "--version"
    ):
        read_only(call, f"pip {command or ''} only reads.".replace("  ", " "))
    elif command in ("search", "index"):
        network(call, f"pip {command} queries an index.")
    elif command == "config" and any(
        w.value is not None and len(n := w.value.split("=", 1)[0]) >= 3 and "--editor".startswith(n) for w in call.args
    ):
        # pip config "--editor <editor>: Editor to use to edit the file" (pip.pypa.io "pip config"): it names a
        # program pip runs, whatever the action; optparse takes any unambiguous abbreviation, and pip config has no
        # other option spelled --e..., so --edit and --edi are --editor there
        destructive(call, "runs-program", "pip config --editor names a program pip runs.")
    elif command in ("config", "cache"):
        action = found.operands[1].value if len(found.operands) > 1 else None
        keys = [w.value or "" for w in found.operands[2:]]
        if command == "config" and (
            action in ("list", "debug") or action == "get" and any(secret_setting(k) for k in keys)
        ):
            # pip "Configuration": index URLs carry a private index's user and password.
            call.flag(
                R.NETWORK,
                "secret-read",
                f"pip config {action} prints settings that may hold index passwords: its output goes to the model.",
            )
        elif action in ("list", "get", "debug", "dir", "info"):
            read_only(call, f"pip {command} {action} only reads.")
        elif action == "edit":
            destructive(call, "runs-program", "pip config edit runs an editor.")
        elif command == "config" and any(
            w.value is None or w.value.rsplit(".", 1)[-1].lower() in ("python", "editor") for w in found.operands[2:3]
        ):
            destructive(call, "runs-program", "pip config set python makes pip run another interpreter.")
        elif command == "config" and any(
            w.value.split("=", 1)[0].rsplit(".", 1)[-1].lower() in _PIP_SOURCE_KEYS
            for w in found.operands[2:3]
            if w.value is not None
        ):
            _package_source(
                call,
                "pip config set of the index changes where every later pip install gets its packages from: future "
                "installs come from another source, which runs its code.",
            )
        else:
            call.write(_HOME, f"pip {command} {action or ''} changes".replace("  ", " "))
    else:
        refuse(call, f"the command {command}")


#: ``cargo --config KEY=VALUE`` tables that name no program, configuration file or place (The Cargo Book,
#: "Configuration": ``[profile]`` code generation settings, ``[term]`` output, ``[net]`` retries and offline mode);
#: a value that is not ``KEY=VALUE`` is a configuration file's path, and other tables (``build``, ``target``,
#: ``alias``, ``env``, ``registries``, ``credential-provider``, ``http``, ``source``...) can name programs or sources.
_INERT_CARGO_TABLES = ("profile.", "term.", "net.")


def _inert_cargo_config(given: str | None) -> bool:
    """True when the ``cargo --config`` value ``given`` sets a key of :data:`_INERT_CARGO_TABLES` to a plain value
    (no ``rustflags`` or ``linker``, which pass options to rustc or name a linker)."""
    if not given:
        return False
    match = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*=\s*([A-Za-z0-9_.\"'-]*)", given)
    if match is None:
        return False
    key = match.group(1).lower()
    return key.startswith(_INERT_CARGO_TABLES) and not any(p in key for p in ("rustflags", "linker", "build-override"))


def _without_cargo_configs(words: list[Word]) -> list[Word]:
    """``words`` without the ``--config`` options and their values (checked by :func:`_inert_cargo_config`)."""
    out: list[Word] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.value == "--config":
            skip = True
        elif not (word.value or "").startswith("--config="):
            out.append(word)
    return out


_CARGO_BUILD = frozenset({
    "build", "b", "check", "c", "test", "t", "bench", "run", "r", "doc", "d", "clippy", "fmt", "fix", "tree",
    "metadata", "rustc", "rustdoc", "package", "locate-project", "read-manifest", "verify-project", "pkgid",
})  # fmt: skip
#: External cargo subcommands the catalogue describes (catalogue/build.py ``cargo-nextest``, ``cargo-audit``,
#: ``cargo-deny``); any other is a program from PATH FlyBot does not know.
_CARGO_EXTERNAL = frozenset({"nextest", "audit", "deny"})
_CARGO_NETWORK = frozenset(
    {"fetch", "update", "search", "publish", "login", "logout", "owner", "yank", "vendor", "generate-lockfile", "info"}
)


#: cargo options naming a directory it writes build output to (The Cargo Book, "cargo build": ``--target-dir``,
#: ``--artifact-dir`` and its older name ``--out-dir``).
_CARGO_OUTPUTS = frozenset({"--target-dir", "--artifact-dir", "--out-dir"})
#: go flags naming a file or directory the command writes (``go help build``, ``go help testflag``, ``go help mod
#: vendor``); go accepts them with one or two dashes, the value attached with ``=`` or as the next word.
_GO_OUTPUTS = frozenset({
    "-o", "-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace", "-outputdir",
    "-pkgdir",
})  # fmt: skip


def _output_options(call: Call, words: list[Word], names: frozenset[str], what: str, *, dashes: bool = False) -> None:
    """Each option of ``names`` in ``words`` (``--name DIR`` or ``--name=DIR``; with ``dashes``, ``-name`` and
    ``--name`` alike) is a write to its value, graded by where it lands."""
    for index, word in enumerate(words):
        value = word.value or ""
        name, eq, attached = value.partition("=")
        if dashes and name.startswith("--"):
            name = name[1:]
        if name in names:
            target = Word(attached, attached) if eq else (words[index + 1] if index + 1 < len(words) else None)
            if target is not None:
                call.write(target, f"{what} {name} writes")


def runs_outside(call: Call, what: str, directory: Word | None = None) -> bool:
    """A test runner or checker that finds its tests, ``conftest.py`` and configuration from the directory it runs
    in (pytest "rootdir" and conftest.py discovery; jest/vitest, eslint, mypy, pylint, flake8 configuration lookup),
    or from ``directory`` (``unittest discover -s DIR``), run where that is outside the workspace (``cd /tmp/evil &&
    pytest``): it runs code there that FlyBot does not read, as ``make`` and ``npm`` there do: destructive, and
    True."""
    target = directory if directory is not None else literal_word(".")
    if target.value is not None and call.where(target) in (Where.WORKSPACE, Where.NOWHERE):
        return False
    shown = show(target) if directory is not None else "the directory it runs in"
    destructive(
        call,
        "project-outside-workspace",
        f"{what} runs from {shown}, outside the workspace (or only known when it runs): it runs or loads code "
        "there (tests, conftest.py, configuration) that FlyBot does not read.",
    )
    return True


def _outside_project(
    call: Call,
    words: list[Word],
    what: str,
    outputs: frozenset[str] | tuple[str, ...],
    only: frozenset[str] | None = None,
) -> bool:
    """A build, test or check tool given a path outside the workspace (an operand, or an option's value: a project
    directory, manifest, configuration, plugin or test file, ``--manifest-path /opt/o/Cargo.toml``, ``-c ~/x.ini``,
    ``/opt/o/tests``) runs or loads code there that FlyBot does not read: destructive, and True. The values of
    ``outputs`` (options naming a file written, graded as writes) are not counted; given ``only``, only the values
    of those options are."""
    skip = False
    take = False
    for word in words:
        value = word.value
        if value == "--":  # what follows goes to the program built (cargo run -- ARGS), not to the tool
            break
        if skip or value is None:
            skip = False
            continue
        name, eq, attached = value.partition("=")
        if name in outputs:
            skip = not eq
            continue
        if only is not None:
            if take:
                take = False
            elif name in only:
                take = not eq
                if take:
                    continue
            else:
                continue
        path = attached if eq and name.startswith("-") else value
        if not path.startswith(("/", "~")) and "../" not in path and path != "..":
            continue
        target = Word(path, path)
        if call.where(target) not in (Where.WORKSPACE, Where.NOWHERE):
            destructive(
                call,
                "project-outside-workspace",
                f"{what} is pointed at {shorten(path, 60)}, outside the workspace: it runs or loads code there "
                "that FlyBot does not read.",
            )
            return True
    return False


#: cargo's own commands (cargo --list, Cargo 1.8x): an ``[alias]`` of the same name is ignored (The Cargo Book,
#: "Configuration", ``[alias]``: "Aliases are not allowed to redefine existing built-in commands"); any other word,
#: the built-in aliases ``b c d r t rm`` too, is looked up as an alias first.
_CARGO_COMMANDS = frozenset({
    "add", "bench", "build", "check", "clean", "config", "doc", "fetch", "fix", "generate-lockfile", "git-checkout",
    "help", "info", "init", "install", "locate-project", "login", "logout", "metadata", "new", "owner", "package",
    "pkgid", "publish", "read-manifest", "remove", "report", "run", "rustc", "rustdoc", "search", "test", "tree",
    "uninstall", "update", "vendor", "verify-project", "version", "yank",
})  # fmt: skip


def _cargo_alias(call: Call, words: list[Word], index: int, aliased: bool) -> bool:
    """``cargo NAME ARGS`` where the workspace's ``.cargo/config.toml`` defines the alias NAME (settings.py
    ``CARGO_ALIAS``, read by the adapter and sent): graded as ``cargo EXPANSION ARGS``, the alias listed in
    ``chosen_by``, and True. An alias whose expansion starts with another alias is destructive (the chain is not
    followed); a place that could not be read is destructive (``recipe-unreadable``)."""
    name = words[index].value or ""
    lines = settings_lines(call, "cargo", f"cargo {name}", CARGO_ALIAS + name)
    if lines is None:
        return True
    if not lines:
        return False
    source, expansion = lines[0].source, lines[0].command
    try:
        expanded = [literal_word(word) for word in shlex.split(expansion)]
    except ValueError:
        expanded = []
    first = next((w.value for w in expanded if not (w.value or "x").startswith("-")), None)
    if aliased or not expanded or (first is not None and first not in _CARGO_COMMANDS):
        destructive(
            call,
            "runs-program",
            f"cargo {name}: the alias {source} expands to {shorten(expansion, 80)}, which FlyBot does not follow.",
        )
    else:
        _cargo(Call(call.g, call.rec, call.scope, call.name, [*words[:index], *expanded, *words[index + 1 :]]), True)
    # after the grade: the reason takes the command's level
    chosen(call, f"{reveal(source, multiline=False)} = {shorten(reveal(expansion, multiline=False), 120)}", "cargo")
    return True


#: rustc codegen options (rustc book, "Codegen Options") that tune the code made and name no program or file read:
#: ``cargo rustc -- -C KEY=VALUE`` with one of them keeps the build's grade. Others name programs or code the
#: compiler runs or loads: ``linker``, ``link-arg(s)`` (``-fuse-ld=PATH``), ``llvm-args``, ``profile-use``...
_RUSTC_CODEGEN_TUNING = frozenset({
    "opt-level", "debuginfo", "target-cpu", "target-feature", "codegen-units", "lto", "panic", "overflow-checks",
    "debug-assertions", "strip", "relocation-model", "code-model", "force-frame-pointers", "embed-bitcode",
    "prefer-dynamic", "rpath", "split-debuginfo", "instrument-coverage", "force-unwind-tables", "soft-float",
})  # fmt: skip


def _compiler_runs(call: Call, after: list[Word]) -> bool:
    """``cargo rustc|rustdoc ... -- FLAGS`` (cargo-rustc(1): "the specified arguments will all be passed to the
    final compiler invocation"): a codegen option beyond :data:`_RUSTC_CODEGEN_TUNING` (``-C linker=/tmp/x``), an
    unstable ``-Z`` option (``-Z codegen-backend=PATH`` loads a library) or rustdoc's ``--runtool``,
    ``--test-builder``, ``--test-builder-wrapper`` (the rustdoc book: programs that build or run doctests) names a
    program or code the compiler runs: destructive (``runs-program``), and True. Lint levels, ``--cfg`` and
    ``--emit`` keep the grade."""
    index = 0
    while index < len(after):
        value = after[index].value
        index += 1
        if value is None:
            destructive(call, "dynamic-argument", "A compiler flag is only known when it runs.")
            return True
        key = None
        if value in ("-C", "--codegen"):
            key = after[index].value if index < len(after) else ""
            index += 1
        elif value.startswith("-C") or value.startswith("--codegen="):
            key = value.removeprefix("--codegen=").removeprefix("-C")
        if key is not None and (key or "").partition("=")[0] in _RUSTC_CODEGEN_TUNING:
            continue
        if key is not None or value.startswith(("-Z", "--runtool", "--test-builder")):
            destructive(
                call,
                "runs-program",
                f"{call.name} passes {shorten(value if key is None else f'-C {key}', 40)} to the compiler: it names "
                "a program or code the compiler runs.",
            )
            return True
    return False


def cargo(call: Call) -> None:
    """cargo (doc.rust-lang.org/cargo/commands): build/test/run are build-or-test; registry commands are network.
    An ``[alias]`` of the workspace is graded as what it expands to (:func:`_cargo_alias`); settings that make cargo
    run code from outside the workspace (a ``rustc-wrapper``, a ``runner``: settings.py ``OUTSIDE``) are
    destructive."""
    _cargo(call, False)


def _cargo(call: Call, aliased: bool) -> None:
    words = call.args
    if injected(call, words, runs_programs=True):
        return
    if words and (words[0].value or "").startswith("+"):
        toolchain = (words[0].value or "")[1:]
        if "/" in toolchain or not toolchain:
            destructive(call, "runs-program", f"cargo {show(words[0])} runs the toolchain at a path.")
            return
        # rustup(1) "Toolchain override shorthand": a toolchain not installed yet is downloaded first
        network(
            call,
            f"cargo +{toolchain} may download the {toolchain} toolchain (rustup auto-install).",
            rule="package-install",
        )
        words = words[1:]
    for index, word in enumerate(words):
        value = word.value or ""
        if value == "--config" or value.startswith("--config="):
            given = (
                value.partition("=")[2] if "=" in value else (words[index + 1].value if index + 1 < len(words) else "")
            )
            if not _inert_cargo_config(given):
                destructive(call, "runs-program", "cargo --config can make cargo run programs (runners, wrappers).")
                return
    words = _without_cargo_configs(words)
    operands = [w for w in words if not (w.value or "x").startswith("-")]
    command = operands[0].value if operands else None
    if command is not None and command not in _CARGO_COMMANDS:
        if _cargo_alias(call, words, words.index(operands[0]), aliased):
            return
    if not operands:
        read_only(call, "cargo without a command only prints.")
        settings_start(call, "cargo", "cargo", CARGO_START)
    elif command is None:
        destructive(call, "dynamic-argument", "The cargo command is only known when it runs.")
    elif (
        command == "fmt"
        and any(w.value == "--check" for w in words)
        and not any((w.value or "").startswith("--emit") for w in words)
    ):
        # cargo fmt --check, or rustfmt's --check after -- (cargo fmt -- --check): rustfmt(1) --check writes no file,
        # whatever files are named (--emit, which would write, is refused with --check; graded as a write here)
        read_only(call, "cargo fmt --check only reports what rustfmt would change.")
        settings_start(call, "cargo", "cargo fmt --check", CARGO_START)
        workspace_settings(call, "cargo", label="cargo fmt --check")
    elif command in _CARGO_BUILD:
        if _outside_project(call, words, f"cargo {command}", _CARGO_OUTPUTS):
            return
        _output_options(call, words, _CARGO_OUTPUTS, f"cargo {command}")
        values = [w.value for w in words]
        if command in ("test", "t", "bench") and "--" in values:
            # The rustc book, "Tests", libtest's options after ``--``: ``--logfile PATH`` writes the results there.
            after = words[values.index("--") + 1 :]
            _output_options(call, after, frozenset({"--logfile"}), f"cargo {command} --")
        if command in ("rustc", "rustdoc") and "--" in values and _compiler_runs(call, words[values.index("--") + 1 :]):
            return
        if command == "fmt" and any(w.value == "--" for w in words):
            # cargo fmt passes what follows -- to rustfmt, which rewrites the files named there.
            after = [
                w for w in words[[w.value for w in words].index("--") + 1 :] if not (w.value or "").startswith("-")
            ]
            for target in after:
                call.write(target, "cargo fmt -- rewrites")
        build_or_test(call, f"cargo {command}")
    elif command in _CARGO_NETWORK:
        network(call, f"cargo {command} talks to the registry.")
        if command in ("login", "logout"):  # cargo-login(1): the token goes to $CARGO_HOME/credentials.toml
            call.write(_HOME, f"cargo {command} changes ~/.cargo/credentials.toml under")
        if command == "vendor":
            for target in operands[1:2]:
                call.write(target, "cargo vendor writes the crates to")  # cargo-vendor(1): [PATH], default vendor
        workspace_write(call, f"cargo {command} changes the project's lock or vendor files.")
    elif command in ("add", "remove", "rm"):
        network(call, f"cargo {command} reads the registry index.", rule="package-install")
        workspace_write(call, f"cargo {command} changes Cargo.toml.")
    elif command in ("new", "init"):
        target = operands[1] if len(operands) > 1 else literal_word(".")
        call.write(target, f"cargo {command} creates")
    elif command in ("install", "uninstall"):
        _output_options(call, words, _CARGO_OUTPUTS | {"--root"}, f"cargo {command}")
        # cargo-install(1): "--path path: Filesystem path to local crate to install": cargo builds that crate, its
        # build.rs and proc macros running here, as a local project pip or npm builds
        if command == "install" and _outside_project(
            call, words, "cargo install", _CARGO_OUTPUTS | {"--root"}, only=frozenset({"--path"})
        ):
            return
        if command == "install":
            # cargo-install(1): --git URL and --index URL build a crate from a source the command names (its build.rs
            # and proc macros run here)
            source = next((w for w in words if (w.value or "").split("=", 1)[0] in ("--git", "--index")), None)
            if source is not None:
                chosen_source(call, f"cargo install {shorten(source.src, 40)}")
            network(call, "cargo install fetches a crate from the registry.", rule="package-install")
        else:  # as pip, pipx and gem uninstall are graded
            deletion(call, "cargo uninstall deletes installed programs.")
        call.write(_HOME, f"cargo {command} changes ~/.cargo/bin under")
    elif command == "clean":
        deletion(call, "cargo clean deletes the target directory.")
    elif command in ("version", "help", "-V", "--version", "--list"):
        read_only(call, f"cargo {command} only prints.")
        settings_start(call, "cargo", f"cargo {command}", CARGO_START)
    elif command in _CARGO_EXTERNAL and operands[0] is words[0]:
        # cargo runs an external subcommand as ``cargo-NAME NAME ARGS`` (The Cargo Book, "Custom subcommands"); an
        # option before the name (-C DIR, -Z) is refused below as an unknown command would be
        call.run([literal_word(f"cargo-{command}"), *words], f"cargo {command}")
    else:
        refuse(call, f"the command {show(operands[0])} (cargo-{command} would be a program from PATH)")
        return
    if command not in _CARGO_BUILD:
        # The Cargo Book, "Configuration"; rustup "Overrides": read from the directory cargo runs in and those above
        # (a build or test runs the project's code anyway: build.rs, tests)
        workspace_settings(call, "cargo", label=f"cargo {command or ''}".rstrip())
    # after the grade: a reason noting a place the adapter did not report takes the command's level
    if (
        command is not None
        and command not in ("version", "help", "-V", "--version", "--list")
        and not (command == "fmt" and any(w.value == "--check" for w in words))
    ):
        outside_settings(call, "cargo", f"cargo {command}", OUTSIDE)


#: go environment variables that name programs go runs or flags that do (``go help environment``: GOFLAGS can
#: carry -toolexec/-exec, CC/CXX/FC/AR/PKG_CONFIG are run by cgo, GOTOOLCHAIN selects a toolchain to download and
#: run, GOROOT/GOTOOLDIR/GOENV move the tools or the env file); ``go env -w`` keeps them for every later command.
_GO_PROGRAM_ENV = frozenset({
    "GOFLAGS", "CC", "CXX", "FC", "AR", "PKG_CONFIG", "GOTOOLCHAIN", "GOROOT", "GOTOOLDIR", "GOENV", "CGO_CFLAGS",
    "CGO_CXXFLAGS", "CGO_LDFLAGS", "CGO_FFLAGS", "CGO_CPPFLAGS", "GCCGO", "GOGCCFLAGS", "GOAUTH",
})  # fmt: skip
#: go environment variables that choose where modules come from or whether their checksums are checked (``go help
#: environment``, ``go help module-private``): set with ``go env -w``, every later ``go get``/``go build`` fetches
#: modules from that source.
_GO_SOURCE_ENV = frozenset({"GOPROXY", "GOSUMDB", "GONOSUMDB", "GONOSUMCHECK", "GONOPROXY", "GOPRIVATE", "GOINSECURE"})
#: The values of GOPROXY and GOSUMDB that keep the default source (``go help environment``): Go's own proxy and
#: checksum database, ``direct`` (the modules' own repositories, checked against that database) and ``off``.
_GO_DEFAULT_SOURCES = frozenset({"direct", "off", "https://proxy.golang.org", "proxy.golang.org", "sum.golang.org"})


def _go_source_setting(word: str) -> bool:
    """True when ``word`` (a ``go env -w`` operand ``NAME=VALUE``) sets a variable of :data:`_GO_SOURCE_ENV` to
    anything but the default source (GOSUMDB=off turns the checksum check off: a change)."""
    name, _, value = word.partition("=")
    name = name.upper()
    if name not in _GO_SOURCE_ENV:
        return False
    if name == "GOPROXY":
        return not all(part.strip() in _GO_DEFAULT_SOURCES for part in re.split(r"[,|]", value))
    if name == "GOSUMDB":
        return value.strip() != "sum.golang.org"
    return True


_GO_BUILD = frozenset({"build", "test", "vet", "fmt", "run", "fix", "work"})
_GO_PROGRAM_FLAGS = (
    "-exec",
    "-toolexec",
    "--exec",
    "--toolexec",
    "-overlay",
    "-vettool",
    "--vettool",
    "-modfile",
    "--modfile",
)
#: Linker flags (``go tool link``: "-extld linker: set the external linker", "-extar ar: set the external archive
#: program") that name a program the link runs; they reach it through ``-ldflags`` (``go help build``), whose value
#: is a word of its own or attached (``-ldflags=-extld=/tmp/x``, ``-ldflags '-linkmode external -extld cc'``).
_GO_LINKER_PROGRAMS = ("-extld", "-extar")


#: Flags of ``go tool compile``, ``go tool asm`` and ``go tool link`` that go passes on from ``-gcflags``,
#: ``-asmflags``, ``-ldflags`` (``go help build``) and that only tune the code made or print: stripping and symbol
#: values (link ``-s``, ``-w``, ``-X``, ``-buildid``, ``-linkmode``, ``-compressdwarf``), optimisation and debug output
#: (compile ``-N``, ``-l``, ``-m``, ``-d``, ``-B``, ``-C``, ``-S``, ``-e``, ``-live``, ``-wb``, ``-smallframes``,
#: ``-dwarf``, ``-c``, ``-lang``, ``-spectre``; asm ``-S``, ``-debug``), and the race, memory and address sanitizers.
#: The tool's later flag wins over the one go gives (go's flag package), so ``-o``, the profiles, ``-importcfg``,
#: ``-I``, ``-L``, ``-r``, ``-tmpdir`` choose where it writes or what code it links: not listed.
_GO_TOOL_TUNING = frozenset({
    "s", "w", "X", "buildid", "linkmode", "compressdwarf", "v", "strictdups", "checklinkname", "bindnow", "race",
    "msan", "asan", "N", "l", "m", "d", "B", "C", "S", "e", "h", "live", "wb", "smallframes", "dwarf",
    "dwarflocationlists", "c", "lang", "spectre", "std", "complete", "nolocalimports", "debug", "dynlink", "shared",
    "K", "W", "j",
})  # fmt: skip
_GO_TOOL_OPTIONS = ("gcflags", "ldflags", "asmflags", "gccgoflags")
#: Flags of gccgo (gcc(1), which ``-gccgoflags`` reaches: "arguments to pass on each gccgo compiler/linker
#: invocation", ``go help build``) that only choose optimisation, debug information and warnings: ``-O``/``-O2``...,
#: ``-g``/``-g3``..., ``-w``. Every other gcc flag may name a program it runs (``-wrapper PROG``, ``-B DIR``: "where to
#: find the executables", ``-fplugin=``, ``-specs=``), a file it writes or a pass-through to the linker or assembler
#: (``-Wl,``, ``-Xlinker``): not listed.
_GCCGO_TUNING = re.compile(r"-(?:O[0-3sgz]?|Ofast|g[0-3]?|w)")


def _go_tool_flag(rest: list[Word]) -> str | None:
    """The first tool flag outside :data:`_GO_TOOL_TUNING` in ``-gcflags``/``-asmflags``/``-ldflags`` values, or word
    outside :data:`_GCCGO_TUNING` in ``-gccgoflags`` values (attached with ``=`` or the next word, one or two dashes, each value after an optional ``PATTERN=`` package
    pattern, split as go splits it: spaces, quotes kept together), or None. A value only known when it runs is
    left to the caller's check of unknown words."""
    for index, word in enumerate(rest):
        value = word.value or ""
        if value == "--":
            return None
        name, eq, given = value.lstrip("-").partition("=")
        if not value.startswith("-") or name not in _GO_TOOL_OPTIONS:
            continue
        if not eq:
            given = (rest[index + 1].value or "") if index + 1 < len(rest) else ""
        if not given.startswith("-") and "=" in given.split(" ", 1)[0]:
            given = given.split("=", 1)[1]  # all=-N -l, ./...=-m
        try:
            tokens = shlex.split(given)
        except ValueError:
            return given
        for token in tokens:
            if name == "gccgoflags":
                if not _GCCGO_TUNING.fullmatch(token):
                    return token  # an operand too: gcc reads it as a file to compile or link
            elif token.startswith("-") and token.lstrip("-").split("=", 1)[0] not in _GO_TOOL_TUNING:
                return token
    return None


def _go_replaced_outside(words: list[Word]) -> str | None:
    """The ``-replace=OLD=NEW`` value of ``go mod edit`` (go help mod edit) whose NEW is a directory path (go.mod
    reference: a replacement starting with ``./``, ``../`` or ``/``) leaving the directory it runs in (absolute,
    ``..``, ``~``), or None; an unknown value counts."""
    for index, word in enumerate(words):
        value = word.value
        if value is None:
            continue
        if value.lstrip("-").startswith("replace"):
            given: str | None = value.split("=", 1)[1] if "=" in value else None
            if "=" not in value:
                given = words[index + 1].value if index + 1 < len(words) else ""
            if given is None:
                return words[index + 1].src if index + 1 < len(words) else value
            new = given.split("=", 1)[1] if "=" in given else ""
            if new.startswith(("/", "~")) or new == ".." or new.startswith("../") or "/../" in new:
                return given
    return None


def _go_generate(call: Call, rest: list[Word]) -> None:
    """go generate (go help generate): runs the ``//go:generate`` directives of the packages' files, each in its
    file's directory; graded line by line as the recipe book reads them (recipes.GO_GENERATE), as a Makefile's
    recipe lines are. ``-n`` only prints them; ``-run``/``-skip`` select among them (all are graded); ``-x``, ``-v``
    print; any other option is refused."""
    patterns: list[str] = []
    printing = False
    index = 0
    while index < len(rest):
        value = rest[index].value
        index += 1
        if value is None:
            destructive(call, "dynamic-argument", "The go generate packages are only known when they run.")
            return
        name = value.split("=", 1)[0].replace("--", "-", 1)
        if name in ("-run", "-skip"):
            index += 0 if "=" in value else 1
        elif name == "-n":
            printing = True
        elif name in ("-x", "-v"):
            continue
        elif value.startswith("-"):
            refuse(call, f"the go generate option {value[:40]}")
            return
        else:
            patterns.append(value)
    if printing:
        read_only(call, "go generate -n only prints the commands.")
        return
    build_or_test(call, "go generate")
    outside_settings(call, "go", "go generate", OUTSIDE)
    target = GO_GENERATE + " ".join(patterns)
    if len(target) > 200:  # the longest recipe target the server takes (bot/api/models.py)
        destructive(call, "recipe-unreadable", "go generate: too many packages named to read their directives.")
        return
    run_recipe(call, "go", target, label="go generate")


#: go build and go test flags whose value is a word of its own, read whole by go's flag package (pkg.go.dev/flag:
#: "-flag x", the next argument is the value) and naming no program or file (go help build, go help testflag):
#: build tags, counts, modes, test patterns and durations.
_GO_INERT_VALUES = frozenset({
    "tags", "p", "mod", "buildmode", "installsuffix", "covermode", "coverpkg", "run", "skip", "bench", "count",
    "timeout", "cpu", "parallel", "benchtime", "shuffle", "list",
})  # fmt: skip
_GO_INERT_FLAGS = frozenset(dashes + name for name in _GO_INERT_VALUES for dashes in ("-", "--"))


def _go_inert_values(words: list[Word]) -> list[Word]:
    """``words`` with an unknown value of :data:`_GO_INERT_VALUES` (``-tags "$(TAGS)"``, ``-tags="$TAGS"``) that
    bash keeps one word made an operand that cannot be an option: go's flag package reads the whole word as the
    value. An unquoted expansion (``-tags $TAGS``) may split into several, the later ones flags
    (``-toolexec=...``), and stays unknown; so does a word after a flag that is itself another flag's value."""
    out: list[Word] = []
    pending = False
    for word in words:
        value = word.value
        if value is None and not word.splits:
            name = word.src.lstrip('"').split("=", 1)[0] if "=" in word.src else ""
            inert = pending or name in _GO_INERT_FLAGS
            out.append(Word(None, word.src, operand_only=True) if inert else word)
            pending = False
            continue
        out.append(word)
        pending = not pending and value is not None and value in _GO_INERT_FLAGS
    return out


def go(call: Call) -> None:
    """go (pkg.go.dev/cmd/go): build/test/vet/run are build-or-test; get/mod download are network. An unknown
    value of a flag that names nothing (:func:`_go_inert_values`) is not read as a flag."""
    words = call.args
    # go run's words after its package are the program's own arguments (go help run): not go's flags
    if injected(call, words if words[:1] and words[0].value == "run" else _go_inert_values(words), runs_programs=True):
        return
    command = words[0].value if words else None
    rest = words[1:]
    for word in rest:
        value = word.value or ""
        if value.split("=", 1)[0] in _GO_PROGRAM_FLAGS:
            destructive(
                call, "runs-program", f"go {command} {value.split('=', 1)[0]} runs a program of the caller's choosing."
            )
            return
        if any(flag in value for flag in _GO_LINKER_PROGRAMS):
            destructive(
                call, "runs-program", f"go {command} -ldflags {shorten(value, 40)} names the linker program it runs."
            )
            return
    unknown = _go_tool_flag(rest)
    if unknown is not None:
        destructive(
            call,
            "runs-program",
            f"go {command} passes {shorten(unknown, 40)} to the compiler, assembler or linker: a tool flag that may "
            "name a file it writes or code it loads (-o, -cpuprofile, -importcfg, -I, -L, -r).",
        )
        return
    if command is None:
        refuse(call, "a go command only known when it runs" if words else "go without a command")
    elif command == "generate":
        _go_generate(call, rest)
    elif command == "run" and any("@" in (w.value or "") for w in rest):
        destructive(call, "runs-program", "go run pkg@version downloads and runs a program.")
    elif command in _GO_BUILD:
        # go run's words after its first package or file operand are the program's arguments (go help run)
        first = next((i for i, w in enumerate(rest) if not (w.value or "-").startswith("-")), len(rest))
        tool_words = rest[: first + 1] if command == "run" else rest
        if _outside_project(
            call, tool_words, f"go {command}", _GO_OUTPUTS | {"--" + n.lstrip("-") for n in _GO_OUTPUTS}
        ):
            return
        _output_options(call, rest, _GO_OUTPUTS, f"go {command}", dashes=True)
        build_or_test(call, f"go {command}")
        if command != "fmt":  # go help replace, go help work: the modules built may be directories outside
            outside_settings(call, "go", f"go {command}", OUTSIDE)
        if command == "build":
            _go_stamps(call, rest, f"go {command}")
    elif command == "list" and any(
        (w.value or "").split("=", 1)[0] in ("-m", "--m", "-u", "--u", "-versions", "--versions", "-retracted")
        for w in rest
    ):
        network(call, "go list -m resolves the module graph, downloading what the module cache lacks.")
    elif command in ("list", "version", "doc", "help"):
        read_only(call, f"go {command} only reads.")
        if command in ("list", "version"):  # go help toolchain: go.mod's toolchain line chooses the go that runs
            workspace_settings(call, "go", label=f"go {command}")
    elif command == "env":
        writes = any(w.value == "-w" for w in rest)
        keys = [(w.value or "=").split("=", 1)[0] for w in rest if not (w.value or "").startswith("-")]
        if writes and any(not key or key.upper() in _GO_PROGRAM_ENV for key in keys):
            destructive(
                call,
                "runs-program",
                "go env -w sets a variable that makes every later go command run a program of the caller's choosing.",
            )
        elif writes and any(_go_source_setting(w.value or "") for w in rest):
            _package_source(
                call,
                "go env -w sets where every later go command gets its modules, or whether it checks their checksums: "
                "future installs come from another source, which runs its code.",
            )
        elif any(w.value in ("-w", "-u") for w in rest):
            call.write(_HOME, "go env -w changes the go env file under")
        else:
            read_only(call, "go env only prints.")
            workspace_settings(call, "go", label="go env")
    elif command == "mod":
        action = rest[0].value if rest else None
        if action in ("download", "tidy", "graph", "why"):
            network(call, f"go mod {action} may fetch modules.", rule="package-install")
            if action == "tidy":
                workspace_write(call, "go mod tidy changes go.mod and go.sum.")
        elif action in ("init", "edit", "vendor"):
            outside = _go_replaced_outside(rest[1:]) if action == "edit" else None
            if outside is not None:
                destructive(
                    call,
                    "runs-program",
                    f"go mod edit -replace {shorten(outside, 50)}: every later go build or test of the module compiles "
                    "and runs that code, outside the workspace, which FlyBot does not read.",
                )
                return
            if action == "vendor":
                # go help mod vendor: "-o" names the vendor directory, removed and rewritten.
                _output_options(call, rest[1:], frozenset({"-o"}), "go mod vendor", dashes=True)
            workspace_write(call, f"go mod {action} changes the module files.")
        elif action == "verify":
            read_only(call, "go mod verify only checks.")
        else:
            refuse(call, f"go mod {action}")
    elif command == "get":
        network(call, "go get fetches modules.", rule="package-install")
        workspace_write(call, "go get changes go.mod and go.sum.")
        workspace_settings(call, "go", label="go get")
    elif command == "install":
        network(call, "go install may fetch modules.", rule="package-install")
        call.write(_HOME, "go install writes binaries under")
        workspace_settings(call, "go", label="go install")
        if not any("@" in (w.value or "") for w in rest):  # in the main module: its replacements count
            outside_settings(call, "go", "go install", OUTSIDE)
            _go_stamps(call, rest, "go install")
    elif command == "clean":
        deletion(call, "go clean deletes build output and caches.")
    elif command == "tool" and rest and rest[0].value == "cover":
        _go_cover(call, rest[1:])
    else:
        refuse(call, f"the command {command}")


def _go_stamps(call: Call, words: list[Word], label: str) -> None:
    """go build and go install stamp a main package built in a repository with its version (go help build,
    ``-buildvcs``: "auto" by default), running ``git status --porcelain`` and ``git log`` there: the programs the
    repository's configuration names run (programs/git.py ``repository_programs``), unless ``-buildvcs=false``."""
    from .git import repository_programs

    if any((w.value or "").lstrip("-") in ("buildvcs=false", "buildvcs=0") for w in words):
        return
    repository_programs(call, ("status", "log"), label)


#: ``go tool cover`` flags (go tool cover -help, Go 1.23): -func and -html read a coverage profile, -o names the
#: output file, -mode and -var instrument a source file (printed, or written to -o).
_GO_COVER_FLAGS = frozenset({"html", "func", "o", "mode", "var", "pkgcfg", "outfilelist", "V"})


def _go_cover(call: Call, words: list[Word]) -> None:
    """go tool cover: reports on a coverage profile; ``-html`` without ``-o`` opens a web browser (a program the
    classifier cannot see), ``-o FILE`` writes FILE."""
    given: dict[str, Word | None] = {}
    index = 0
    while index < len(words):
        word = words[index]
        value = word.value
        index += 1
        if value is None or not value.startswith("-"):
            continue  # a source file to instrument
        name, eq, attached = value.lstrip("-").partition("=")
        if name not in _GO_COVER_FLAGS or (eq and name == "V"):
            refuse(call, f"go tool cover -{shorten(name, 30)}")
            return
        if eq:
            given[name] = literal_word(attached)
        elif name != "V":
            given[name] = words[index] if index < len(words) else None
            index += 1
        else:
            given[name] = None
    if "html" in given and "o" not in given:
        destructive(call, "runs-program", "go tool cover -html without -o opens a web browser.")
        return
    read_only(call, "go tool cover only reads a coverage profile.")
    output = given.get("o")
    if output is not None:
        call.write(output, "go tool cover -o writes")
    workspace_settings(call, "go", label="go tool cover")


_CHECKER_OUTPUTS = (
    "--output-file", "--outfile", "--outFile", "--outDir", "--junitxml", "--junit-xml", "--basetemp", "--out-dir",
    "--report-log", "--resultlog", "--result-log", "--rootdir", "--cache-dir", "--cache-location", "--confcutdir",
    "--coverageDirectory", "--outputFile", "--cacheDirectory",
)  # fmt: skip
#: Short output options (ruff check --help: ``-o, --output-file <OUTPUT_FILE>``; eslint CLI reference: ``-o,
#: --output-file``), given the next word or attached (``-o/x``, ``-o=/x``).
_SHORT_OUTPUTS = {"ruff": "-o", "eslint": "-o"}
#: tsc options naming a file or directory it writes (TypeScript "tsc CLI Options": ``--outDir``, ``--outFile``,
#: ``--declarationDir``, ``--tsBuildInfoFile``, ``--generateTrace DIR``, ``--generateCpuProfile FILE``). tsc reads
#: option names without regard to case and after one dash or two (``-outdir``), so they are kept lower case and
#: compared without their dashes. mypy's report options (mypy --help, "Report generation": ``--html-report DIR``,
#: ``--txt-report``, ``--xml-report``, ``--cobertura-xml-report``, ... all ending in ``-report``) are matched by
#: that ending. pylint's ``--output=<file>`` ("Specify an output file", pylint 3 "Standard Checkers" options).
_TSC_OUTPUTS = frozenset({
    "outdir", "outfile", "out", "declarationdir", "tsbuildinfofile", "generatetrace", "generatecpuprofile",
})  # fmt: skip
#: Output options whose value is optional, so only the attached form (``--debug=FILE``) names the file: pytest
#: ``--debug[=DEBUG_FILE_NAME]`` (default ``pytestdebug.log`` in the current directory).
_CHECKER_ATTACHED_OUTPUTS = ("--debug",)
#: ini settings naming a directory pytest writes (pytest reference, "Configuration Options": ``cache_dir``; the
#: cache is removed by ``--cache-clear``).
_PYTEST_INI_DIRS = ("cache_dir",)
#: ini settings naming a file pytest writes (pytest reference, "Configuration Options": ``log_file``, as
#: ``--log-file``).
_PYTEST_INI_FILES = ("log_file",)
#: ini settings naming directories pytest collects tests from or imports modules from (pytest reference,
#: "Configuration Options": ``testpaths`` "directories that should be searched for tests when no specific directories,
#: files or test ids are given", ``pythonpath`` "paths that should be added to sys.path"): outside the workspace,
#: code there runs (checked: ``pytest -o testpaths=/tmp/x`` runs /tmp/x/test_*.py).
_PYTEST_INI_CODE = ("testpaths", "pythonpath")
#: Formatters and fixers that rewrite the files and directories named as operands, and the options that make them
#: do so (None: always, unless a check-only option is given); from each tool's CLI reference.
_REWRITERS: dict[tuple[str, str | None], tuple[str, ...] | None] = {
    ("black", None): None,
    ("isort", None): None,
    ("rustfmt", None): None,
    ("ruff", "format"): None,
    ("ruff", "check"): ("--fix", "--fix-only", "--unsafe-fixes"),
    ("ruff", None): ("--fix", "--fix-only", "--unsafe-fixes"),
    ("prettier", None): ("--write", "-w"),
    ("eslint", None): ("--fix",),
    ("gofmt", None): ("-w",),
}
#: Options that make those tools only report (black/ruff ``--check``/``--diff``, isort ``-c``/``--check-only``/
#: ``--stdout``, prettier ``-c``/``-l``, gofmt ``-l``/``-d`` without ``-w``, rustfmt ``--check``).
_CHECK_ONLY: dict[str, frozenset[str]] = {
    "black": frozenset({"--check", "--diff"}),
    "isort": frozenset({"--check", "--check-only", "-c", "--diff", "--stdout"}),
    "rustfmt": frozenset({"--check"}),
    "ruff": frozenset({"--check", "--diff"}),
    "prettier": frozenset({"--check", "-c", "--list-different", "-l"}),
    "eslint": frozenset(),
    "gofmt": frozenset(),
}
#: Options of those tools that take the next word as their value (not an operand).
_REWRITER_VALUES = frozenset({
    "--config", "--settings-path", "--settings-file", "--sp", "--ignore-path", "--config-path", "--rulesdir",
    "--plugin", "--line-length", "--target-version", "-t", "--include", "--exclude", "--extend-exclude",
    "--force-exclude", "--select", "--ignore", "--extend-select", "--extend-ignore", "--stdin-filename", "--parser",
    "--ext", "--format", "-f", "--output-format", "--edition", "--profile", "--src", "--max-warnings", "--env",
    "--global", "--rule", "--cache-location", "--cache-dir", "--output-file", "-o", "--emit", "--config-file",
    "--resolve-plugins-relative-to", "--log-level", "--python-version", "--required-version", "--workers", "-W",
})  # fmt: skip


def _pytest_config_file(words: list[Word]) -> Word | None:
    """The configuration file ``pytest -c FILE``/``--config-file=FILE`` names (pytest reference: used instead of
    the files it would find), or None."""
    for index, word in enumerate(words):
        value = word.value or ""
        name, eq, attached = value.partition("=")
        if name in ("-c", "--config-file") and not eq:
            return words[index + 1] if index + 1 < len(words) else Word(None, "")
        if name == "--config-file" and eq:
            return Word(attached, attached)
        if value.startswith("-c") and len(value) > 2 and not value.startswith("--"):
            return Word(value[2:], value[2:])
    return None


#: pytest options whose value is the next word (pytest reference, "Command-line Flags"), so that word is no test path.
_PYTEST_VALUES = frozenset({
    "-k", "-m", "-p", "-o", "-W", "-r", "-n", "--tb", "--maxfail", "--durations", "--durations-min", "--color",
    "--capture", "--import-mode", "--dist", "--basetemp", "--override-ini", "--junitxml", "--junit-xml",
    "--junit-prefix", "--rootdir", "--confcutdir", "--deselect", "--ignore", "--ignore-glob", "--log-level",
    "--log-file", "--log-cli-level", "--log-format", "--log-file-level", "--cov", "--cov-report", "--cov-config",
    "--cov-fail-under", "--pythonwarnings", "--debug", "--doctest-glob", "--lfnf", "--last-failed-no-failures",
    "--maxprocesses", "--tx", "--timeout", "--reruns", "--randomly-seed", "--html", "--report-log",
})  # fmt: skip
#: ``--pastebin`` and the abbreviations argparse may take for it (a word only known when it runs may be one).
_PYTEST_PASTEBIN = frozenset("--pastebin"[:n] for n in range(4, 11))
#: At most this many directories of test paths are looked in for pytest's configuration (one question each).
_PYTEST_PLACES = 8


def _pytest_places(call: Call, words: list[Word]) -> list[str] | None:
    """The directories of the test paths pytest is given, where it also looks for its configuration (pytest
    reference, "rootdir and configfile": from the common ancestor of the arguments that are existing paths, and
    from each argument, upwards; settings.py ``_pytest_path`` reads every file either search could take): each
    positional word with a node id's ``::...`` cut, a ``.py`` file's directory for the file, without ``.``. None,
    after a destructive finding, for a glob in a directory part (the directories are only known when it runs) or
    more than :data:`_PYTEST_PLACES` directories."""
    places: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        value = word.value
        index += 1
        if value is None or value == "--":
            continue  # a word only known when it runs is graded by the option checks that follow
        if value.startswith("-"):
            if value in _PYTEST_VALUES:
                index += 1
            continue
        path = posixpath.normpath(value.split("::", 1)[0])
        if path.endswith(".py") or (word.splits and any(c in path.rsplit("/", 1)[-1] for c in "*?[")):
            path = posixpath.dirname(path) or "."
        if word.splits and any(c in path for c in "*?["):
            destructive(
                call,
                "recipe-unreadable",
                f"{call.name} {shorten(word.src, 60)}: which directories it names, and so which configuration "
                "pytest reads there, is only known when it runs.",
            )
            return None
        if len(SETTINGS + PYTEST_PATH + path) > 200 or any(c in path for c in "\n\r\x00"):
            destructive(
                call,
                "recipe-unreadable",
                f"{call.name} {shorten(word.src, 60)}: a test path too long to look up pytest's configuration from.",
            )
            return None
        if path != "." and path not in places:
            places.append(path)
    if len(places) > _PYTEST_PLACES:
        destructive(
            call,
            "recipe-unreadable",
            f"{call.name} is given test paths in more than {_PYTEST_PLACES} directories: the configuration pytest "
            "reads from them is not looked up.",
        )
        return None
    return places


def _pytest_addopts(call: Call, words: list[Word]) -> list[Word] | None:
    """``words`` with the options each ``-o addopts=VALUE`` (``--override-ini``) sets spliced in after it: pytest
    reads them as if given on the command line (pytest reference, "Configuration Options": ``addopts`` "Add the
    specified OPTS to the set of command line arguments as if they had been specified by the user"; ``-o`` overrides
    an ini value). None, after a destructive finding, when such a value cannot be split as pytest does (shlex) or an
    ``-o`` value is only known when the command runs (it may set addopts)."""
    out: list[Word] = []
    index = 0
    while index < len(words):
        word = words[index]
        out.append(word)
        index += 1
        value = word.value or ""
        name, eq, attached = value.partition("=")
        setting: Word | None = None
        if name in ("-o", "--override-ini") and not eq and word.value is not None:
            setting = words[index] if index < len(words) else None
            if setting is not None:
                out.append(setting)
                index += 1
        elif name == "--override-ini" and eq:
            setting = Word(attached, attached)
        elif value.startswith("-o") and len(value) > 2 and not value.startswith("--"):
            setting = Word(value[2:], value[2:])
        if setting is None:
            continue
        if setting.value is None:
            destructive(
                call,
                "runs-program",
                f"{call.name} -o {shorten(setting.src, 60)}: the ini value it overrides is only known when it runs, "
                "and addopts sets any option (plugins, output files) as if given on the command line.",
            )
            return None
        key, has_value, text = setting.value.partition("=")
        if not has_value or key.strip() != "addopts":
            continue
        try:
            added = shlex.split(text)
        except ValueError:
            destructive(call, "runs-program", f"{call.name} -o addopts: its options cannot be read ({text[:60]}).")
            return None
        out.extend(literal_word(option) for option in added)
    return out


def checker(call: Call) -> None:
    """Test runners, linters, formatters and compilers (pytest, mypy, ruff, black, eslint, prettier, tsc, ...):
    build-or-test; an explicit output option writes where it says (also ``--cov-report=TYPE:PATH`` and pytest's
    ``-o cache_dir=DIR``), and a formatter or fixer (:data:`_REWRITERS`) writes its path operands. The options
    pytest's ``-o addopts=...`` sets are graded as given on the command line (:func:`_pytest_addopts`)."""
    words = call.args
    if call.name in ("pytest", "py.test"):
        config = _pytest_config_file(words)
        if config is not None and config.value is None:
            destructive(
                call,
                "runs-program",
                f"{call.name} -c {shorten(config.src, 60)}: its configuration file is only known when it runs.",
            )
            return
        question = f"file {config.value}" if config is not None and config.value is not None else ""
        configured = configured_options(call, "pytest", call.name, question)
        if configured is None:
            return
        if config is None:  # pytest looks for its configuration from the paths it is given too
            places = _pytest_places(call, words)
            if places is None:
                return
            for place in places:
                more = configured_options(call, "pytest", call.name, PYTEST_PATH + place)
                if more is None:
                    return
                configured += [line for line in more if line not in configured]
        try:  # pytest prepends its configuration file's addopts to the command line's arguments
            added = [literal_word(option) for line in configured for option in shlex.split(line)]
        except ValueError:
            destructive(call, "recipe-unreadable", f"{call.name}: its configuration's addopts cannot be read.")
            return
        spliced = _pytest_addopts(call, [*added, *words])
        if spliced is None:
            return
        words = spliced
    # a word only known when it runs may be an option that loads code (pytest -p, --rootdir, -c; eslint --rulesdir;
    # jest --config): the worst option of a runner that has one; the others' options only write
    loader = call.name in _RUNS_FROM or call.name in _LOADS_CODE
    injected(call, words, runs_programs=loader and _may_be_option(words, first_dynamic(words)))
    if call.name in _RUNS_FROM and runs_outside(call, call.name):
        return
    if call.name in _CONFIG_ABOVE and not any((w.value or "").startswith(("-c", "--config")) for w in words):
        found_above(call, _CONFIG_ABOVE[call.name], call.name)
    outputs: tuple[str, ...] = _CHECKER_OUTPUTS + _CHECKER_ATTACHED_OUTPUTS + _RUNNER_OUTPUTS
    if call.name in ("pytest", "py.test"):
        # pytest "Initialization: determining rootdir and configfile" and ``--confcutdir``: without a configuration
        # file the rootdir is the conftest cut-off, so ``--rootdir DIR``/``--confcutdir DIR`` above or outside the
        # workspace imports the conftest.py files from DIR down: code there, not only a cache written
        outputs = tuple(o for o in outputs if o not in _PYTEST_CONFTEST_DIRS)
    if call.name in _RUNS_FROM and _outside_project(call, words, call.name, outputs, _RUNS_FROM[call.name]):
        return
    if call.name == "jest" and _jest_inline_config(call, words):
        return
    loads = _loads_code(call.name, [w.value for w in words])
    if loads is not None:
        destructive(call, "runs-program", f"{call.name} {loads} loads code FlyBot does not read.")
        return
    if call.name in ("pytest", "py.test") and any(w.value == "--pyargs" for w in words):
        # pytest --pyargs: "Try to interpret all arguments as Python packages"; "pytest will discover where mypkg is
        # installed and collect tests from there" ("Good Integration Practices"): the test modules and conftest.py
        # files of wherever the package is installed (site-packages, outside the workspace, only known when it
        # runs), as pytest /usr/lib/python3/dist-packages/PKG would
        destructive(
            call,
            "project-outside-workspace",
            f"{call.name} --pyargs runs the tests and conftest.py files of the named packages where they are "
            "installed, outside the workspace or only known when it runs: code FlyBot does not read.",
        )
        return
    if call.name in ("pytest", "py.test") and any(
        (w.value or "--pastebin").split("=", 1)[0] in _PYTEST_PASTEBIN for w in words
    ):
        # pytest "How to use pytest's pastebin service": --pastebin=failed|all "sends the test session log to
        # bpa.st", a public paste service (the log may hold printed secrets)
        network(call, f"{call.name} --pastebin uploads the test session log to a public paste service.")
    if call.name == "mypy" and outside_settings(call, "python", "mypy", f"{OUTSIDE} mypy"):
        return  # its configuration imports plugins or runs an interpreter from outside the workspace
    if call.name == "flake8" and outside_settings(call, "python", "flake8", f"{OUTSIDE} flake8"):
        return  # its configuration imports local plugins from outside the workspace
    if call.name == "mypy" and any(w.value == "--install-types" for w in words):
        network(call, "mypy --install-types runs pip install for the missing stub packages.", rule="package-install")
        call.write(_HOME, "mypy --install-types installs packages into the environment, under")
    for index, word in enumerate(words):
        value = word.value or ""
        if word.value is None and call.name in ("pytest", "py.test") and word.src.startswith("--basetemp="):
            # ``--basetemp=$HOME``, ``--basetemp="$DIR"``: a directory only known when it runs is emptied
            rest = word.src[len("--basetemp=") :]
            emptied(call, Word(None, rest), f"{call.name} --basetemp", numbered=True)
            continue
        name, eq, attached = value.partition("=")
        short = _SHORT_OUTPUTS.get(call.name)
        if short is not None and value.startswith(short) and len(value) > len(short):
            # clap and optionator take a short option's value attached too: ``-o/root/x``, ``-o=/root/x``
            path = value[len(short) :].removeprefix("=")
            call.write(Word(path, path), f"{call.name} {short} writes")
        elif (
            name in _CHECKER_OUTPUTS
            or name == short
            or (eq and name in _CHECKER_ATTACHED_OUTPUTS)
            or (call.name == "mypy" and name.startswith("--") and name.endswith("-report"))
            or (call.name == "tsc" and name.lstrip("-").lower() in _TSC_OUTPUTS)
            or (call.name == "pylint" and name == "--output")
        ):
            target = Word(attached, attached) if eq else (words[index + 1] if index + 1 < len(words) else None)
            if call.name in ("pytest", "py.test") and name == "--basetemp":
                # pytest docs, "How to use temporary directories": "The contents of mydir will be completely
                # removed, so make sure to use a directory for that purpose only."
                emptied(call, target, f"{call.name} --basetemp", numbered=True)
            elif target is not None:
                call.write(target, f"{call.name} {name} writes")
        elif name == "--cov-report":
            spec = attached if eq else (words[index + 1].value or "" if index + 1 < len(words) else "")
            if ":" in spec:
                path = spec.split(":", 1)[1]
                call.write(Word(path, path), f"{call.name} --cov-report writes")
        elif call.name in ("pytest", "py.test") and (name in ("-o", "--override-ini") or value.startswith("-o")):
            setting = (
                attached
                if name == "--override-ini" and eq
                else value[2:]
                if name.startswith("-o") and len(name) > 2
                else (words[index + 1].value or "" if index + 1 < len(words) else "")
            )
            key, has_value, directory = setting.partition("=")
            if has_value and key.strip() in _PYTEST_INI_DIRS:
                call.write(Word(directory, directory), f"pytest -o {key.strip()} writes and clears")
            elif has_value and key.strip() in _PYTEST_INI_FILES:
                call.write(Word(directory.strip(), directory.strip()), f"pytest -o {key.strip()} writes")
            elif has_value and key.strip() in _PYTEST_INI_CODE:
                for path in directory.split():
                    target = Word(path, path)
                    if call.where(target) not in (Where.WORKSPACE, Where.NOWHERE):
                        destructive(
                            call,
                            "project-outside-workspace",
                            f"pytest -o {key.strip()}={shorten(path, 60)} collects or imports code outside the "
                            "workspace that FlyBot does not read.",
                        )
                        return
    _rewrites(call, words)
    if _only_checks(call.name, [w.value for w in words]):
        read_only(call, f"{call.name} only checks: it changes no file.")
    else:
        build_or_test(call, call.name)
    if call.name == "rustfmt":  # a rustup proxy: a toolchain file's path toolchain runs its own rustfmt
        settings_start(call, "cargo", call.name, CARGO_TOOLCHAIN)


#: Checkers that run or load code from the paths they are given: test runners from every operand and option value
#: (tests, conftest.py, configuration: None), the others from their configuration options (mypy --config-file and
#: its plugins, --python-executable; pylint --rcfile and its init-hook; eslint and prettier JavaScript configuration
#: and plugins; tsc -p and the outDir its tsconfig names; flake8 --config/--append-config and the local plugins they
#: name). black, isort, ruff, rustfmt and gofmt read TOML or INI settings that name no program: a path outside is only
#: read.
#: JavaScript configurations eslint (flat config, "Configuration Files": searched from the current directory up)
#: and prettier ("Configuration File": searched up from the file formatted) import, found above the workspace; Jest's
#: (jest-config ``resolveConfigPath``: jest.config.* searched from the root directory up), and flake8's
#: (``_find_config_file``: setup.cfg, tox.ini and .flake8 searched from the current directory up to the home
#: directory; ``[flake8:local-plugins] paths`` are imported; ``--config`` stops the search).
_CONFIG_ABOVE = {
    "eslint": ("eslint.config.*",),
    "prettier": (".prettierrc", ".prettierrc.*", "prettier.config.*"),
    "jest": ("jest.config.*",),
    "flake8": (".flake8", "setup.cfg", "tox.ini"),
}
_RUNS_FROM: dict[str, frozenset[str] | None] = {
    "pytest": None,
    "py.test": None,
    "jest": None,
    "vitest": None,
    # mypy and pylint parse with argparse, which takes a unique prefix (mypy --con is --config-file, whose
    # [mypy] plugins are imported; --python-e, --custom-types; pylint --rc)
    "mypy": frozenset(
        {"--config-file"[:n] for n in range(5, 14)}
        | {"--python-executable"[:n] for n in range(10, 20)}
        | {"--custom-typeshed-dir"[:n] for n in range(14, 22)}
    ),
    "pylint": frozenset({"--rcfile"[:n] for n in range(4, 9)}),
    # eslint "Command Line Interface Reference": -f/--format names a built-in formatter or a file or package it
    # loads, --parser (eslintrc mode) the parser module; prettier 2 --plugin-search-dir, the directory it loads
    # plugins from; tsc -b/--build, the projects it builds (their tsconfig names the outDir written)
    "eslint": frozenset(
        {"-c", "--config", "--rulesdir", "--resolve-plugins-relative-to", "-f", "--format", "--parser"}
    ),
    "prettier": frozenset({"--config", "--plugin", "--plugin-search-dir"}),
    "tsc": frozenset({"-p", "--project", "-b", "--build"}),
    # flake8 "Full Listing of Options": --config and --append-config name INI files whose
    # [flake8:local-plugins] paths= it imports; argparse takes a unique prefix of either (--conf, --append)
    "flake8": frozenset({"--config"[:n] for n in range(5, 9)} | {"--append-config"[:n] for n in range(4, 16)}),
}
#: pytest options naming the directory conftest.py files are imported from down to the tests (see checker).
_PYTEST_CONFTEST_DIRS = ("--rootdir", "--confcutdir")
#: Test runners' options naming what they write, beyond :data:`_CHECKER_OUTPUTS` (graded as writes, not as code
#: they run): pytest -o (an ini override) and --cov-report.
_RUNNER_OUTPUTS = ("-o", "--cov-report")
#: Options that load a plugin or run code by name (pytest -p NAME, except ``no:NAME``, which disables one; pylint
#: --load-plugins, --init-hook; eslint --plugin, --rulesdir, --resolve-plugins-relative-to; prettier --plugin;
#: jest/vitest --config, --rootDir, --root, --setupFiles; tsc -p/--project with a path is graded as a path).
_LOADS_CODE: dict[str, tuple[str, ...]] = {
    # pytest-xdist "Sending tests to remote SSH accounts", "Running tests in a Python subprocess": --tx ssh=HOST
    # runs the tests there, --tx popen//python=PATH runs PATH as the interpreter, --tx socket=ADDR talks to a server;
    # --pdbcls=MODULE:CLASS imports MODULE (pytest reference)
    "pytest": ("-p", "--tx", "--pdbcls"),
    "py.test": ("-p", "--tx", "--pdbcls"),
    "pylint": (*("--load-plugins"[:n] for n in range(5, 15)), *("--init-hook"[:n] for n in range(8, 12))),
    "eslint": ("--plugin", "--rulesdir", "--resolve-plugins-relative-to"),
    "prettier": ("--plugin",),
}


def _jest_inline_config(call: Call, words: list[Word]) -> bool:
    """``jest --config JSON`` / ``-c JSON`` (Jest CLI, "--config <path|json>": a value starting with ``{`` is the
    configuration itself), ``--transform JSON`` (Jest CLI "--transform <json>": a map of patterns to the modules
    that transform sources, code Jest runs) and ``--moduleNameMapper JSON`` (modules put in place of others): its ``setupFiles``, ``transform``, ``globalSetup``, ``testEnvironment``, ``rootDir``...
    name code Jest loads. A string in it naming a place outside the workspace (absolute, under ``~``, or climbing
    with ``..``), or JSON FlyBot cannot parse, is destructive (``project-outside-workspace``), and True."""
    for index, word in enumerate(words):
        value = word.value or ""
        name, eq, attached = value.partition("=")
        if name not in ("-c", "--config", "--transform", "--moduleNameMapper"):
            continue
        given = attached if eq else (words[index + 1].value if index + 1 < len(words) else "")
        if given is None or not given.lstrip().startswith("{"):
            continue
        try:
            config = json.loads(given)
        except ValueError:
            config = None
        strings = list(_json_strings(config)) if isinstance(config, dict) else None
        outside = (
            None
            if strings is None
            else next(
                (
                    text
                    for text in (item.replace("<rootDir>", ".").replace("\\", "/") for item in strings)
                    if text.startswith(("/", "~")) or ".." in text.split("/")
                ),
                None,
            )
        )
        if strings is None or (outside is not None and call.where(Word(outside, outside)) is not Where.WORKSPACE):
            shown = (
                "JSON FlyBot cannot read" if strings is None else f"{shorten(outside or '', 60)}, outside the workspace"
            )
            destructive(
                call,
                "project-outside-workspace",
                f"{call.name} --config is given its configuration inline, naming {shown}: Jest loads code there "
                "that FlyBot does not read.",
            )
            return True
    return False


def _json_strings(value: object) -> Iterator[str]:
    """Every string value in a parsed Jest configuration but the patterns: the keys (``transform`` and
    ``moduleNameMapper`` keys are regular expressions) and the values of options holding path patterns
    (``testPathIgnorePatterns: ["/node_modules/"]``, ``testRegex``, ``testMatch``, ``collectCoverageFrom``)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if not str(key).endswith(("Patterns", "Regex", "Match", "From")):
                yield from _json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_strings(item)


#: Test runner options whose value is a filter or a count, never a path or module (pytest "Command-line Flags":
#: -k EXPRESSION, -m MARKEXPR, --tb STYLE, --maxfail NUM, --durations N, --deselect NODEID; pytest-xdist -n NUM;
#: jest -t/--testNamePattern).
_FILTER_OPTIONS = frozenset(
    {"-k", "-m", "-n", "--tb", "--maxfail", "--durations", "--deselect", "-t", "--testNamePattern"}
)


def _may_be_option(words: list[Word], word: Word | None) -> bool:
    """True when ``word`` (only known when it runs) may stand for an option: its expansion comes first (``$X``,
    ``"$X"``, not ``tests/test_$N.py`` or ``--maxfail=$N``) and it is not the value of a filter option before it."""
    if word is None or not word.src.lstrip("\"'").startswith(("$", "`")) or word.src == UNKNOWN:
        return False  # UNKNOWN: a recipe's parameter or variable (recipes.py), graded as its line's other words
    index = next(i for i, w in enumerate(words) if w is word)
    return not (index and words[index - 1].value in _FILTER_OPTIONS)


def _loads_code(name: str, values: list[str | None]) -> str | None:
    """The option of :data:`_LOADS_CODE` that ``name values...`` gives, or None."""
    options = _LOADS_CODE.get(name)
    if options is None:
        return None
    for index, value in enumerate(values):
        if value is None:
            continue
        option, eq, attached = value.partition("=")
        if option in options:
            given = attached if eq else (values[index + 1] or "" if index + 1 < len(values) else "")
            if option == "-p" and given.startswith("no:"):
                continue
            if option == "--tx" and re.fullmatch(r"(?:\d+\*)?popen", given):
                continue  # pytest-xdist: local workers with this interpreter, as -n N
            return option
        if "-p" in options and value.startswith("-p") and len(value) > 2 and not value[2:].startswith("no:"):
            return "-p"
        if name in ("pytest", "py.test") and _imports_warning_category(values, index):
            return "-W"
    return None


def _imports_warning_category(values: list[str | None], index: int) -> bool:
    """True when ``values[index]`` is pytest's ``-W``/``--pythonwarnings`` (``-WARG`` attached) with a filter
    ``action:message:category:module:lineno`` whose category is a dotted name: pytest imports that module to find
    the class (``_resolve_warning_category``: ``__import__(module)``), code loaded by name as ``-p`` loads it. A
    value only known when it runs counts."""
    value = values[index]
    if value is None:
        return False
    option, eq, attached = value.partition("=")
    if value.startswith("-W") and not value.startswith("--"):
        given: str | None = value[2:] if len(value) > 2 else (values[index + 1] if index + 1 < len(values) else "")
    elif len(option) >= 4 and "--pythonwarnings".startswith(option):
        given = attached if eq else (values[index + 1] if index + 1 < len(values) else "")
    else:
        return False
    if given is None:
        return True
    fields = given.split(":")
    if len(fields) < 3 or "." not in fields[2]:
        return False
    return fields[2].strip().split(".", 1)[0] not in ("pytest", "_pytest", "builtins", "warnings")


#: Checkers that change no file and run none of the project's code. flake8 is not among them: a
#: ``[flake8:local-plugins]`` section in ``setup.cfg``, ``tox.ini`` or ``.flake8`` imports and runs the project's
#: Python (flake8 docs, "Using Local Plugins"), so it is graded as the other checkers that load the project's code.
_REPORTS_ONLY: frozenset[str] = frozenset()


def _only_checks(name: str, values: list[str | None]) -> bool:
    """True when ``name values...`` only reports: a pure reporter (:data:`_REPORTS_ONLY`, none now), a formatter given a
    check-only option (black/isort/rustfmt, :data:`_CHECK_ONLY`; black's cache of results under ``~/.cache/black``
    is not counted), or gofmt without ``-w`` (gofmt(1): it prints the formatted source, ``-l`` lists the files that
    differ, ``-d`` prints diffs), or tsc given only ``--version``/``-v``, ``--help``/``-h`` or ``--all`` (TypeScript
    compiler options reference: they print and exit, no tsconfig.json is read). prettier is not here: its
    configuration may be JavaScript (prettier.config.js) that it runs."""
    if any(v is None for v in values):
        return False
    if name in _REPORTS_ONLY:
        return True
    if name == "tsc":
        return len(values) == 1 and values[0] in ("--version", "-v", "--help", "-h", "--all")
    if name == "gofmt":
        return not any(v.startswith("-") and not v.startswith("--") and "w" in v[1:] for v in values if v)
    if name in ("black", "isort", "rustfmt"):
        return any(v in _CHECK_ONLY[name] for v in values if v)
    return False


def _gives(value: str, options: tuple[str, ...]) -> bool:
    """True when the word ``value`` gives one of ``options``: by name (``--fix``, ``--fix=x``) or, for a one-letter
    option, in a cluster of short options (gofmt ``-lw``)."""
    if value.split("=", 1)[0] in options:
        return True
    return (
        value.startswith("-")
        and not value.startswith("--")
        and any(len(option) == 2 and option[1] in value[1:] for option in options if not option.startswith("--"))
    )


def _rewrites(call: Call, words: list[Word]) -> None:
    """A formatter's or fixer's path operands are write targets (the file system path rules apply to them)."""
    values = [w.value for w in words]
    command = values[0] if call.name == "ruff" and values and values[0] in ("format", "check") else None
    key = (call.name, command)
    if key not in _REWRITERS:
        return
    needs = _REWRITERS[key]
    if any(v in _CHECK_ONLY[call.name] for v in values if v is not None):
        return
    if needs is not None and not any(v is not None and _gives(v, needs) for v in values):
        return
    index = 1 if command is not None else 0
    while index < len(words):
        word = words[index]
        value = word.value
        index += 1
        if value is not None and value.startswith("-"):
            if value in _REWRITER_VALUES:
                index += 1
            continue
        call.write(word, f"{call.name} rewrites")


_NPX_VALUES = frozenset(
    {"-p", "--package", "-c", "--call", "--cache", "--registry", "--userconfig", "-w", "--workspace"}
)
#: Catalogued programs whose npm package has the program's name (npx fetches that package when the project does not
#: have it): npx runs them as the catalogue grades them.
_NPX_CATALOGUED = frozenset({
    "playwright", "cypress", "vite", "rollup", "stylelint", "knip", "svelte-check", "vue-tsc", "oxlint", "madge",
    "license-checker", "prisma", "next", "wrangler", "storybook", "astro", "sv", "tailwindcss", "serve",
})  # fmt: skip
#: Catalogued programs whose npm package has another name (Biome's ``@biomejs/biome``, SvelteKit's
#: ``@sveltejs/kit``): npx runs them as the catalogue grades them only where the project has the program in
#: ``node_modules/.bin``; elsewhere npx would fetch the unrelated package of the program's name.
_NPX_LOCAL_ONLY = frozenset({"biome", "svelte-kit"})
#: npm's own registry (npm-config(7) ``registry``): any other one serves packages of someone else's choosing.
_NPM_REGISTRY = frozenset({"https://registry.npmjs.org", "https://registry.npmjs.org/"})


def _pnpm_exec(call: Call, words: list[Word], run_dir: Word | None, elsewhere: str | None) -> None:
    """``pnpm exec PROGRAM ARGS`` (pnpm.io/cli/exec: "Execute a shell command in scope of a project",
    ``node_modules/.bin`` first on PATH; it fetches nothing): a build-and-check tool of the table or of
    :data:`_NPX_CATALOGUED` is graded as that program typed at the prompt, at least a build, as ``npx --no-install``
    is; any other program, an option of exec (``-c``/``--shell-mode``, ``-r``, ``--parallel``...), another directory
    (``-C``) or other packages (``-r``, ``--filter``) is destructive."""
    if elsewhere is not None or run_dir is not None:
        destructive(call, "recipe-elsewhere", "pnpm exec runs in another directory or in other packages.")
        return
    rest = words[1:] if words[:1] and words[0].value == "--" else words
    if not rest or rest[0].value is None or rest[0].value.startswith("-"):
        destructive(call, "runs-program", "pnpm exec runs a program or shell command the classifier cannot see.")
        return
    program = rest[0].value
    entry = call.g.programs.get(program)
    if entry is None or (entry.handler is not checker and program not in _NPX_CATALOGUED | _NPX_LOCAL_ONLY):
        destructive(
            call, "unrecognised", f"pnpm exec {show(rest[0])} runs a package program the classifier cannot see."
        )
        return
    build_or_test(call, "pnpm exec")
    call.run([literal_word(program)] + rest[1:], "pnpm exec")


def npx(call: Call) -> None:
    """npx (npm exec): runs a package's program, fetching the package from the registry when the project
    does not have it. A program in the table's build-and-check tools (eslint, prettier, tsc, jest...) or in
    :data:`_NPX_CATALOGUED` (playwright, vite...) is graded as that program, plus ``network`` unless
    ``--no-install``/``--no``; one of :data:`_NPX_LOCAL_ONLY` (biome) only where the project has it; ``--registry`` naming another registry than npm's is destructive; ``-p``/``--package`` naming
    another package, ``-c``/``--call`` (a shell command with every package program first on PATH) and any
    other program are destructive (its code is not known)."""
    words = call.args
    index = 0
    offline = False
    while index < len(words):
        value = words[index].value
        if value is None:
            destructive(call, "dynamic-argument", f"{show(words[index])} may be an npx option that runs a program.")
            return
        if value == "--":
            index += 1
            break
        if not value.startswith("-"):
            break
        index += 1
        name = value.split("=", 1)[0]
        if _npm_program_option(name) or name in ("-c", "--call", "-p", "--package", "--userconfig"):
            destructive(call, "runs-program", f"npx {name} runs programs of packages the classifier cannot see.")
            return
        if name == "--registry":
            given = value.partition("=")[2] if "=" in value else (words[index].value if index < len(words) else "")
            if given not in _NPM_REGISTRY:
                destructive(call, "runs-program", "npx --registry fetches the program from another registry.")
                return
        if name in ("--no-install", "--no", "--offline", "--prefer-offline"):
            offline = True
        elif name in _NPX_VALUES and "=" not in value:
            index += 1
    rest = words[index:]
    if not rest:
        read_only(call, "npx without a command prints help.")
        return
    program = rest[0].value or ""
    base = program.rsplit("@", 1)[0] if program.rfind("@") > 0 else program
    if _npx_settings(call, base):
        return
    entry = call.g.programs.get(base)
    local_only = base in _NPX_LOCAL_ONLY
    if entry is None or (entry.handler is not checker and base not in _NPX_CATALOGUED and not local_only):
        destructive(call, "unrecognised", f"npx {show(rest[0])} runs a package program the classifier cannot see.")
        return
    local = (local_only or not offline) and program == base and _npx_local(call, base)
    offline = offline or local
    if local_only and not local:
        destructive(
            call,
            "unrecognised",
            f"npx {show(rest[0])} runs {base} only where the project has it; elsewhere npx fetches the npm package "
            f"named {base}, not the program's.",
        )
        return
    if not offline:
        network(
            call, f"npx may fetch {base} from the registry when the project does not have it.", rule="package-install"
        )
    call.run([literal_word(base)] + rest[1:], "npx")


def _npx_settings(call: Call, program: str) -> bool:
    """npx is npm exec, which reads the project's ``.npmrc`` (npm-config(7)): ``script-shell`` is "the shell to use
    for scripts run with the npm exec, npm run and npm init <package-spec> commands", ``node-options`` reaches the
    program's node, ``registry`` is where the package comes from. Each key of a workspace ``.npmrc`` where the shell
    may be that is outside the inert ones (settings.py :data:`~bot.risk.settings.INERT_NPMRC_KEYS`), as the recipe
    book answers, is destructive (``runs-program``), and True; a ``@scope:registry`` key counts only for a program of
    that scope. A place that could not be read is destructive (``recipe-unreadable``), and True."""
    lines = settings_lines(call, "npm", "npx", "")
    if lines is None:
        return True
    scope = program.split("/", 1)[0].lower() if program.startswith("@") else ""
    for line in lines:
        if posixpath.basename(line.source.rsplit(":", 1)[0]) != ".npmrc":
            continue
        key = line.command.strip("\"'").lower()
        if key.startswith("@") and key.split(":", 1)[0] != scope:
            continue
        destructive(
            call,
            "runs-program",
            f"npx reads {reveal(line.source, multiline=False)}: {shorten(reveal(key, multiline=False), 60)} may "
            "choose the shell, node options or registry of the program it runs, which FlyBot does not read.",
        )
        return True
    return False


def _npx_local(call: Call, name: str) -> bool:
    """True when the adapter reports that ``npx NAME`` runs the project's own ``node_modules/.bin/NAME`` from every
    directory the shell may be in (settings.py ``_npx_bin``): no package is fetched, so the program is graded as
    itself (as ``npm test`` running it is). Not reported, or in a place outside the workspace: False (the fetch's
    network grade stays)."""
    from bot.risk.settings import NPX_BIN

    from .projects import configured_options

    if len(NPX_BIN + name) > 150:
        return False
    lines = configured_options(call, "npm", f"npx {name}", NPX_BIN + name)
    cwds = call.g.state.cwds
    return (
        lines is not None
        and bool(cwds)
        and len(lines) == len(cwds)
        and all(line == "a local program" for line in lines)
    )


#: ``dune exec`` options that take the next word as their value (dune docs, "dune exec", common options).
_DUNE_VALUES = frozenset({
    "--root", "--workspace", "--profile", "--build-dir", "-j", "--context", "--display", "--config-file", "-x",
    "--only-packages", "-p", "--for-release-of-packages", "--promote", "--instrument-with", "--diff-command",
    "--action-stdout-on-success", "--action-stderr-on-success", "--error-reporting", "--sandbox", "--cache",
    "--cache-storage-mode", "--trace-file", "--terminal-persistence", "--wrapper",
})  # fmt: skip


def dune(call: Call) -> None:
    """dune (dune docs, "Command-line interface"), catalogue/build.py, with two more rules: ``--root``/``--workspace``
    outside the workspace pick the project whose ``dune`` rules (``(run ...)``, ``(system ...)`` actions) run
    (project-outside-workspace); ``dune exec PROG ARGS`` runs PROG, "looked up in PATH" when not built by the
    project, so a program not named by path (``./bin/main.exe``, ``%{bin:x}``) is graded as the command itself,
    as ``uv run``'s and ``npm exec``'s are."""
    words = call.args
    if injected(call, words, runs_programs=True):
        return
    if _outside_project(call, words, "dune", (), only=frozenset({"--root", "--workspace"})):
        return
    command = next((w.value for w in words if not (w.value or "").startswith("-")), None)
    if command == "exec":
        rest = words[[w.value for w in words].index("exec") + 1 :]
        index = 0
        while index < len(rest):
            value = rest[index].value or ""
            if value == "--":
                index += 1
                break
            if not value.startswith("-"):
                break
            if value == "--wrapper" or value.startswith("--wrapper="):
                destructive(call, "runs-program", "dune exec --wrapper runs the program through another one.")
                return
            index += 2 if value in _DUNE_VALUES else 1
        program = rest[index:]
        name = program[0].value if program else None
        if name is not None and ("/" in name or name.startswith("%{") or name.endswith((".exe", ".bc", ".bc.js"))):
            build_or_test(call, "dune exec")  # the project's own executable, built first
            return
        if not program:
            refuse(call, "dune exec without a program")
            return
        build_or_test(call, "dune exec")
        call.script(argv_text(program).lstrip(), "dune exec")
        call.rec.emit = True
        return
    _dune_catalogued(call)


#: dune's other commands, as a catalogue entry (format in bot/risk/README.md).
_DUNE = {
    "source": "dune docs: command-line interface (dune.readthedocs.io/en/stable/usage.html) (dune 3.16)",
    "options": "-h --help --version",
    "commands": {
        "build test runtest exec fmt promote describe rules utop": {"grade": "build", "open": True},
        "init": {"grade": "write", "open": True},
        "clean": {"grade": "delete", "open": True},
        "install uninstall": "unknown",
    },
}


_DUNE_HANDLER: list[Handler] = []


def _dune_catalogued(call: Call) -> None:
    if not _DUNE_HANDLER:
        from .catalogue import compile_entry

        _DUNE_HANDLER.append(compile_entry("dune", _DUNE))
    _DUNE_HANDLER[0](call)


#: bun's commands, as a catalogue entry (format in bot/risk/README.md); :func:`bun` reads the life cycle scripts.
_BUN = {
    "source": "Bun CLI docs (bun.sh/docs/cli) (Bun 1.2)",
    "options": "-h --help -v --version --revision --cwd=project",
    "else": "runs",
    "commands": {
        "install i add a remove rm update": {
            "grade": "fetch",
            "open": True,
            "options": "-g:install --global:install",
        },
        # bun test --help: "-r, --preload=<val> Import a module before other modules are loaded" (--require and
        # --import are its aliases): a path outside the workspace is code FlyBot does not read; its operands are
        # filters or, starting with ./ or /, the test files to run (Bun docs, "bun test": "To run a specific file,
        # pass a path starting with ./ or /"), so a path outside the workspace is tests FlyBot does not read too
        "test": {
            "grade": "build",
            "open": True,
            "operands": "project",
            "options": "-r=project --preload=project --require=project --import=project",
        },
        "build": {"grade": "build", "open": True, "options": "--outdir=out --outfile=out"},
        # bun run NAME: the package.json script NAME with its pre/post scripts, graded as npm's by bun() below;
        # without that script a file or a package's program named NAME (Bun docs, "bun run": resolution order)
        "run": {
            "grade": "build",
            "options": "--bun --silent --if-present --smol --no-clear-screen --elide-lines= --shell=",
        },
        "x exec repl create c": "runs",
        "init": {"grade": "write", "open": True},
        "outdated audit info why": {"grade": "network", "open": True},
        "publish": {"grade": "publish", "open": True},
        "link unlink": {"grade": "home", "open": True},
        "patch": {"grade": "write", "open": True},
        "upgrade": {"grade": "install", "open": True},
        "feedback": "publish",
        "pm": {
            "commands": {
                "ls bin hash hash-string hash-print whoami version untrusted": {"grade": "read", "open": True},
                "cache": {"grade": "read", "commands": {"rm": "delete"}},
                "pack": {"grade": "build", "open": True, "options": "--destination=out --filename=out"},
                "migrate trust": {"grade": "write", "open": True},
                "pkg": "unknown",
            }
        },
    },
}
_BUN_HANDLER: list[Handler] = []
#: The package's own life cycle scripts bun runs (Bun docs, "Lifecycle scripts": bun runs the root package's
#: scripts, not its dependencies' unless trusted), read as npm's events (a superset).
_BUN_EVENTS = {
    **dict.fromkeys(("install", "i", "add", "a", "remove", "rm", "update"), _INSTALL_EVENTS),
    "pack": _PACK_EVENTS,
    "publish": _LIFECYCLE["publish"],
}


def _bun_run(call: Call, words: list[Word], directory: Word | None) -> None:
    """``bun run NAME ARGS``: Bun docs, "bun run": NAME is first the package.json script of that name, run with its
    ``pre``/``post`` scripts, which is graded as npm's (the words after NAME go to the script); else a source file or
    a package's or the system's program of that name, which FlyBot does not see (destructive). ``bun run`` alone
    lists the scripts."""
    start = next(i for i, w in enumerate(words) if w.value == "run") + 1
    after = words[start:]
    rest = after[next((i for i, w in enumerate(after) if not (w.value or "x").startswith("-")), len(after)) :]
    if not rest:
        read_only(call, "bun run without a script lists the scripts.")
        return
    name = rest[0].value
    if name is None:
        destructive(call, "dynamic-argument", "The bun script is only known when it runs.")
        return
    if "/" in name or name.startswith("."):
        destructive(
            call, "script-file", f"bun run {show(rest[0])} runs a source file, which the classifier cannot see."
        )
        return
    run_recipe(
        call,
        "npm",
        name,
        directory=directory,
        extra=[w for w in rest[1:] if w.value != "--"],
        label=f"bun run {name}",
        missing="with no package.json script of that name, bun runs a source file or a program of that name, "
        "which the classifier cannot see.",
    )


#: bun's installing commands (Bun docs, "bun install", "bun add", "bun update").
_BUN_INSTALLS = frozenset({"install", "i", "add", "a", "update"})


def _bun_sources(call: Call, words: list[Word]) -> None:
    """bun install|add|update from a source the command names (Bun docs, "bun add": ``github:user/repo``,
    ``git+https://``, a tarball URL, "bun install": ``--registry URL``; the package specs are npm's,
    :data:`_JS_CHOSEN_SPEC`): a chosen source, listed in ``chosen_by`` (no standing approval covers it); a local
    package directory or tarball outside the workspace (``bun add /tmp/x``, ``file:../x``) runs its life cycle
    scripts: project-outside-workspace."""
    operands = [w for w in words if w.value is None or not w.value.startswith("-")]
    if not operands or operands[0].value not in _BUN_INSTALLS:
        return
    command = operands[0].value or ""
    rest = words[words.index(operands[0]) + 1 :]
    specs = [w for w in rest if w.value is not None and not w.value.startswith("-")]
    if local_package_outside(call, specs, f"bun {command}"):
        return
    _js_chosen_source(call, "bun", command, rest, listed=True)


def bun(call: Call) -> None:
    """bun (Bun CLI docs): graded by its catalogue entry, and the commands that run the package's own life cycle
    scripts (install, add, update, remove, ``pm pack``, publish) grade them as npm's are read from package.json
    (of ``--cwd`` when given); ``-g``/``--global`` and ``--ignore-scripts`` run none of the project's."""
    if not _BUN_HANDLER:
        from .catalogue import compile_entry

        _BUN_HANDLER.append(compile_entry("bun", _BUN))
    _BUN_HANDLER[0](call)
    words = call.args
    values = [w.value for w in words]
    _bun_sources(call, words)
    if any(v is None for v in values) or {"-g", "--global", "--ignore-scripts"} & set(values):
        return  # a word only known when it runs is destructive already
    operands: list[str] = []
    directory: Word | None = None
    index = 0
    while index < len(words):
        value = words[index].value or ""
        index += 1
        if value == "--cwd":
            directory = words[index] if index < len(words) else Word(None, "")
            index += 1
        elif value.startswith("--cwd="):
            directory = literal_word(value.split("=", 1)[1])
        elif not value.startswith("-"):
            operands.append(value)
    command = operands[1] if operands[:1] == ["pm"] and len(operands) > 1 else (operands[0] if operands else None)
    if operands[:1] == ["pm"] and command != "pack":
        return
    if command == "run":
        _bun_run(call, words, directory)
        return
    events = _BUN_EVENTS.get(command or "")
    if events is not None:
        run_recipe(call, "npm", LIFECYCLE + ",".join(events), directory=directory, label=f"bun {command}")


#: bazel options setting the environment of build actions, tests, repository rules and run targets (command-line
#: reference: ``--action_env=NAME=VALUE``, ``--host_action_env``, ``--repo_env``, ``--test_env``, ``--run_env``).
_BAZEL_ENVIRONMENT = ("--action_env", "--host_action_env", "--repo_env", "--test_env", "--run_env")


def _bazel_environment(call: Call, values: list[str | None]) -> bool:
    """A bazel environment option giving a variable that changes what runs (``PATH``, ``LD_PRELOAD``...:
    walker.hijacks_environment) a value (``--action_env=PATH=/tmp``, ``--action_env PATH=/tmp``): the build's
    compilers and tools are found or loaded from the caller's choice: destructive (``runs-program``), and True. A
    name alone inherits the caller's own environment and keeps the grade."""
    for index, value in enumerate(values):
        if value is None:
            continue
        name, eq, given = value.partition("=")
        if name not in _BAZEL_ENVIRONMENT:
            continue
        setting = given if eq else (values[index + 1] if index + 1 < len(values) else None)
        if setting is None:
            destructive(call, "runs-program", f"bazel {name} sets a variable only known when it runs.")
            return True
        variable, assigned, _ = setting.partition("=")
        if assigned and hijacks_environment(variable):
            destructive(
                call,
                "runs-program",
                f"bazel {name}={shorten(setting, 40)} sets a variable that chooses the programs the build runs.",
            )
            return True
    return False


def bazel_run(base: Handler) -> Handler:
    """``bazel run TARGET [-- ARGS]`` (bazel command-line reference, "run": "Runs the specified target"): the
    catalogue grades it as a build; the target must be a label of the workspace's own repository (``//pkg:name``,
    ``:name``, ``pkg:name``), whose binary is the project's code. A label of another repository (``@repo//...``,
    ``@@repo``: code fetched from elsewhere), a target only known when it runs or none is destructive
    (``runs-program``)."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args]
        if _bazel_environment(call, values):
            return
        if "run" not in values:
            return
        after = values[values.index("run") + 1 :]
        words = after[: after.index("--")] if "--" in after else after
        # an option's value may stand before the target (-c opt, --config dev): every word before -- is looked at
        target = next((v for v in words if v is None or not v.startswith("-")), None)
        # //external:NAME is a WORKSPACE bind() alias of another repository's target
        if target is None or any(v is None or v.startswith(("@", "//external:")) for v in words):
            destructive(
                call,
                "runs-program",
                f"bazel run {target or ''}".rstrip()
                + " runs a program that is not one of the workspace's own targets (or only known when it runs).",
            )

    handler.__name__ = "bazel_run"
    return handler


#: php.ini directives (php.net "php.ini directives") that only tune limits, error output, assertions and coverage:
#: ``phpunit -d KEY=VALUE`` / pest ``-d`` with one of them keeps the run's grade. Any other directive may name code
#: or a program PHP loads or runs (``auto_prepend_file``, ``extension``, ``zend_extension``, ``include_path``,
#: ``sendmail_path``, ``error_log``...).
_PHP_INI_TUNING = frozenset({
    "memory_limit", "max_execution_time", "max_input_time", "error_reporting", "display_errors",
    "display_startup_errors", "log_errors", "html_errors", "date.timezone", "zend.assertions", "assert.active",
    "assert.exception", "assert.warning", "xdebug.mode", "xdebug.start_with_request", "pcov.enabled",
    "opcache.enable", "opcache.enable_cli", "opcache.jit", "opcache.jit_buffer_size", "precision",
    "serialize_precision", "default_socket_timeout", "short_open_tag", "output_buffering", "intl.default_locale",
    "error_log_mode", "zend.exception_ignore_args", "zend.enable_gc",
})  # fmt: skip


def php_ini_settings(base: Handler) -> Handler:
    """PHPUnit ("The Command-Line Test Runner": ``-d <key[=value]>`` "Sets a php.ini value") and Pest (which takes
    PHPUnit's options): a directive beyond :data:`_PHP_INI_TUNING`, or one only known when it runs, may make PHP
    load code or run a program of the caller's choosing before the tests (``-d auto_prepend_file=/tmp/x``):
    destructive (``runs-program``). The entry's other test runners take no ``-d``."""

    def handler(call: Call) -> None:
        base(call)
        if call.name not in ("phpunit", "pest"):
            return
        words = call.args
        for index, word in enumerate(words):
            value = word.value
            if value == "--":
                return
            if value is None or not value.startswith("-d"):
                continue
            given = value[2:] if len(value) > 2 else (words[index + 1].value if index + 1 < len(words) else "")
            key = (given or "").partition("=")[0].strip().lower()
            if given is None or key not in _PHP_INI_TUNING:
                destructive(
                    call,
                    "runs-program",
                    f"{call.name} -d {shorten(given or '', 50)} sets a php.ini directive that may load code or run "
                    "a program before the tests.",
                )
                return

    handler.__name__ = "php_ini_settings"
    return handler


#: MSBuild properties (MSBuild "Common MSBuild project properties", .NET SDK "MSBuild reference for .NET SDK
#: projects", coverlet "MSBuild integration") that choose the configuration, target, version, warnings, packaging
#: or coverage of the build: ``dotnet build -p:NAME=VALUE`` with only these keeps the build's grade. Any other may
#: name a program, a tool directory or a file MSBuild imports (``CscToolPath``, ``CscToolExe``,
#: ``CustomBeforeMicrosoftCommonTargets``, ``MSBuildExtensionsPath``, ``RunCommand``, ``VSTestConsolePath``...).
_MSBUILD_TUNING = frozenset(
    name.lower()
    for name in (
        "Configuration", "Platform", "TargetFramework", "TargetFrameworks", "RuntimeIdentifier", "Version",
        "VersionPrefix", "VersionSuffix", "AssemblyVersion", "FileVersion", "InformationalVersion", "PackageVersion",
        "ContinuousIntegrationBuild", "Deterministic", "TreatWarningsAsErrors", "WarningLevel", "NoWarn",
        "WarningsAsErrors", "Nullable", "LangVersion", "Optimize", "DebugType", "DebugSymbols", "SelfContained",
        "PublishSingleFile", "PublishTrimmed", "PublishReadyToRun", "PublishAot", "UseAppHost",
        "InvariantGlobalization", "GenerateDocumentationFile", "CollectCoverage", "CoverletOutputFormat", "Threshold",
        "ThresholdType", "ThresholdStat", "EnableWindowsTargeting", "RestoreLockedMode", "IncludeSymbols",
        "SymbolPackageFormat", "BuildInParallel", "UseSharedCompilation", "GeneratePackageOnBuild", "IsPackable",
        "RunAnalyzers", "EnforceCodeStyleInBuild", "SourceRevisionId", "RepositoryCommit", "BuildNumber",
    )
)  # fmt: skip
#: MSBuild properties naming a directory or file the build writes (graded as writes where they land).
_MSBUILD_OUTPUTS = frozenset(
    name.lower() for name in ("OutputPath", "OutDir", "PackageOutputPath", "PublishDir", "CoverletOutput")
)
#: The spellings of MSBuild's property switch the dotnet CLI passes on (dotnet build: "-p|--property:<NAME>=<VALUE>";
#: MSBuild "-property:<n>=<v>", short "-p:"; the ``/`` forms are read as these, :data:`_MSBUILD_SLASH`).
_MSBUILD_PROPERTY = ("-p:", "-property:", "--property:")
#: MSBuild switches also spelt with ``/`` (MSBuild command-line reference: "Switches can be specified with a hyphen
#: or a forward slash", names case-insensitive), which dotnet build/test/publish/pack/msbuild pass on to MSBuild:
#: ``/p:``/``/property:`` (graded as ``-p:``, with its property list), ``/t:``/``/target:``, ``/v:``/``/verbosity:``,
#: ``/m``/``/m:N``/``/maxcpucount``, ``/nologo``, ``/restore``, ``/nr:``/``/nodeReuse:``. Without this a ``/``
#: spelling is an operand, an absolute path: a project outside the workspace (destructive). Any other ``/`` word
#: stays a path (``/bl:FILE`` writes a log, ``/r`` is dotnet's ``-r RID``).
_MSBUILD_SLASH = re.compile(
    r"/(?:(?:p|property):.*|(?:t|target|v|verbosity|nr|nodereuse):[^/]*|m(?::[0-9]+)?|maxcpucount(?::[0-9]+)?|nologo"
    r"|restore)\Z",
    re.IGNORECASE,
)


def _msbuild_switches(args: list[Word]) -> list[Word]:
    """``args`` with each :data:`_MSBUILD_SLASH` word before ``--`` spelt with ``-`` (its ``src`` kept)."""
    out: list[Word] = []
    for index, word in enumerate(args):
        if word.value == "--":
            return out + args[index:]
        if word.value is not None and _MSBUILD_SLASH.match(word.value):
            word = Word("-" + word.value[1:], word.src)
        out.append(word)
    return out


#: MSBuild command-line reference (learn.microsoft.com/visualstudio/msbuild/msbuild-command-line-reference), the
#: ``-NAME:VALUE`` switches dotnet build/test/publish/pack/run/msbuild pass on to MSBuild (names case-insensitive)
#: that name a file MSBuild writes: ``-binaryLogger:[LogFile=]FILE``, ``-fileLoggerParameters[1-9]:LogFile=FILE``,
#: ``-preprocess:FILE``, ``-outputResultsCache:FILE``, ``-profileEvaluation:FILE``, ``-getResultOutputFile:FILE``,
#: ``-targets:FILE`` (the list of targets), with their short forms.
_MSBUILD_WRITES = frozenset(
    {"bl", "binarylogger", "pp", "preprocess", "orc", "outputresultscache", "profileevaluation",
     "getresultoutputfile", "ts", "targets"}
    | {f"{name}{n}" for name in ("flp", "fileloggerparameters") for n in ("", *"123456789")}
)  # fmt: skip
#: MSBuild ``-logger:[CLASS,]ASSEMBLY[;PARAMETERS]`` (``-l``) and ``-distributedLogger:CENTRAL*FORWARDING``
#: (``-dl``) load a logger assembly into the build: code of the caller's choosing. (dotnet test's own
#: ``-l|--logger`` names a VSTest logger and its parameters: the catalogue's ``pairs``.)
_MSBUILD_LOADS = frozenset({"l", "logger", "dl", "distributedlogger"})
#: MSBuild ``-restoreProperty:NAME=VALUE`` (``-rp``): properties of the restore, graded as ``-p:`` ones.
_MSBUILD_RESTORE_PROPERTY = frozenset({"rp", "restoreproperty"})
#: ``dotnet test -- KEY=VALUE``: RunSettings given on the command line ("dotnet test", "RunSettings arguments"),
#: which may name test adapters, a host program or data collectors to load (``RunConfiguration.TestAdaptersPaths``,
#: ``RunConfiguration.DotNetHostPath``) or a results directory. These keys only tune the run.
_RUNSETTINGS_TUNING = frozenset(
    name.lower()
    for name in (
        "RunConfiguration.MaxCpuCount", "RunConfiguration.DisableParallelization", "RunConfiguration.DisableAppDomain",
        "RunConfiguration.TestSessionTimeout", "RunConfiguration.TreatNoTestsAsError",
        "RunConfiguration.CollectSourceInformation", "RunConfiguration.TargetPlatform",
        "MSTest.Parallelize.Workers", "MSTest.Parallelize.Scope", "NUnit.NumberOfTestWorkers", "NUnit.DefaultTimeout",
        "NUnit.Where", "NUnit.StopOnError", "xUnit.MaxParallelThreads", "xUnit.ParallelizeTestCollections",
        "xUnit.ParallelizeAssembly", "xUnit.DiagnosticMessages", "xUnit.StopOnFail",
    )
)  # fmt: skip
_MSBUILD_COLON = re.compile(r"--?([A-Za-z]+[0-9]?):(.*)\Z", re.DOTALL)


def dotnet_switches(base: Handler) -> Handler:
    """dotnet's switches that reach past the project (then :func:`msbuild_properties`): an MSBuild switch naming a
    file it writes (:data:`_MSBUILD_WRITES`: a write where it lands), loading a logger assembly
    (:data:`_MSBUILD_LOADS`: destructive, ``runs-program``; dotnet test's own ``--logger:VALUE`` is read as
    ``--logger VALUE``, the catalogue's ``pairs``), a restore
    property (graded as ``-p:``); a response file (``@FILE``: System.CommandLine and MSBuild read further options
    from it); ``dotnet test|run -e|--environment NAME=VALUE`` (the variable is set for the tests or the program: as
    ``NAME=VALUE cmd``); ``dotnet test -- KEY=VALUE`` RunSettings outside :data:`_RUNSETTINGS_TUNING`. Switches
    after ``--`` are the program's (dotnet run) or RunSettings (dotnet test)."""
    inner = msbuild_properties(base)

    def handler(call: Call) -> None:
        words = call.args
        sub = next((w.value for w in words if w.value is None or not w.value.startswith("-")), None)
        kept: list[Word] = []
        for index, word in enumerate(words):
            value = word.value
            if value == "--":
                if sub == "test":
                    _runsettings(call, words[index + 1 :])
                kept += words[index:]
                break
            if value is None:
                kept.append(word)
                continue
            if value.startswith("@"):
                destructive(call, "runs-program", f"dotnet {show(word)} reads further options from a response file.")
                return
            if sub in ("test", "run") and (value in ("-e", "--environment") or value.startswith(_ENVIRONMENT_FORMS)):
                given = _switch_value(words, index)
                name = None if given is None else given.partition("=")[0]
                risk = "an unknown variable" if name is None else environment_risk(name)
                if risk is not None:
                    destructive(call, "env-hijack", f"dotnet {sub} -e {shorten(given or word.src, 50)}: {risk}")
                    return
            matched = _MSBUILD_COLON.match(value)
            switch = matched.group(1).lower() if matched else ""
            if switch in _MSBUILD_RESTORE_PROPERTY:
                kept.append(Word("-p:" + matched.group(2), word.src))  # type: ignore[union-attr]
                continue
            if sub == "test" and switch in ("l", "logger"):  # dotnet test --logger:trx;LogFileName=FILE
                kept += [Word("--logger", word.src), Word(matched.group(2), word.src)]  # type: ignore[union-attr]
                continue
            if switch in _MSBUILD_LOADS:
                destructive(call, "runs-program", f"dotnet {shorten(value, 50)} loads a logger assembly into MSBuild.")
                return
            if switch in _MSBUILD_WRITES:
                for target in _msbuild_written(switch, matched.group(2)):  # type: ignore[union-attr]
                    call.write(Word(target, target), f"{call.name} -{switch}:")
                continue
            kept.append(word)
        moved = _project_first(call, kept)
        if moved is None:
            return
        call.args = moved
        inner(call)

    handler.__name__ = "dotnet_switches"
    return handler


#: dotnet's commands that take the project or solution before their own command (dotnet-add-package(1): ``dotnet
#: add [<PROJECT>] package <PACKAGE_NAME>``; dotnet-add-reference, dotnet-remove-package, dotnet-list-package,
#: dotnet-list-reference alike; dotnet-sln(1): ``dotnet sln [<SOLUTION_FILE>] add|list|remove|migrate``).
_PROJECT_FIRST = {
    "add": ("package", "reference"),
    "remove": ("package", "reference"),
    "list": ("package", "reference"),
    "sln": ("add", "list", "remove", "migrate"),
}


def _project_first(call: Call, words: list[Word]) -> list[Word] | None:
    """``words`` with the project or solution of a :data:`_PROJECT_FIRST` command left out (``dotnet add
    src/Api package X`` is graded as ``dotnet add package X``): it names the file the command reads or rewrites,
    in the workspace; one outside it (or under ~) is a project FlyBot does not read, whose restore runs its build
    code: destructive (``project-outside-workspace``), and None."""
    positions = [i for i, w in enumerate(words) if w.value is None or not w.value.startswith("-")]
    if len(positions) < 3:
        return words
    first, project, second = (words[i] for i in positions[:3])
    commands = _PROJECT_FIRST.get(first.value or "")
    if commands is None or project.value is None or project.value in commands or second.value not in commands:
        return words
    if project.value.startswith("~") or call.where(project) is not Where.WORKSPACE:
        destructive(
            call,
            "project-outside-workspace",
            f"dotnet {first.value} {shorten(project.src, 60)} {second.value}: a project outside the workspace, "
            "whose build files FlyBot does not read.",
        )
        return None
    return [w for i, w in enumerate(words) if i != positions[1]]


_ENVIRONMENT_FORMS = ("-e:", "-e=", "--environment:", "--environment=")


def _switch_value(words: list[Word], index: int) -> str | None:
    """The value of the option at ``index``: attached after ``:``/``=``, or the next word (None: only known when it
    runs, or missing)."""
    value = words[index].value or ""
    if value not in ("-e", "--environment"):
        return value.split(":", 1)[1] if value.startswith(("-e:", "--environment:")) else value.split("=", 1)[1]
    return words[index + 1].value if index + 1 < len(words) else None


def _msbuild_written(switch: str, value: str) -> list[str]:
    """The files an MSBuild writing switch's value names: ``LogFile=FILE`` parts, and for all but the file logger's
    parameters (whose other parts are flags) a first part without ``=``."""
    found: list[str] = []
    for position, part in enumerate(value.split(";")):
        key, eq, given = part.partition("=")
        if eq and key.strip().lower() == "logfile":
            found.append(given)
        elif not eq and position == 0 and part and not switch.startswith(("flp", "fileloggerparameters")):
            found.append(part)
    return found


def _runsettings(call: Call, words: list[Word]) -> None:
    """``dotnet test -- KEY=VALUE ...``: destructive for a key outside :data:`_RUNSETTINGS_TUNING`."""
    for word in words:
        key = (word.value or "").partition("=")[0].lower()
        if word.value is None or key not in _RUNSETTINGS_TUNING:
            destructive(
                call,
                "runs-program",
                f"dotnet test -- {shorten(word.src, 50)}: a RunSettings value may name test adapters, a host "
                "program or data collectors the test run loads.",
            )
            return


#: Native build tool options after ``cmake --build DIR --`` that only set parallelism, keep-going, load or
#: verbosity (make(1) ``-j``, ``-k``, ``-l``, ``-s``, ``--no-print-directory``, ``VERBOSE=1`` of CMake's Makefiles;
#: the ninja manual ``-j N``, ``-k N``, ``-l N``, ``-v``).
_CMAKE_NATIVE = re.compile(r"-j[0-9]*|-k[0-9]*|-l[0-9.]*|-[sv]|--no-print-directory|--verbose|VERBOSE=1|[0-9.]+")


def cmake_native(base: Handler) -> Handler:
    """cmake(1) "Build a Project": ``--`` "Pass remaining options to the native tool" (make, ninja): ``-f FILE``,
    ``-C DIR``, ``SHELL=PROG`` or a target make reads from another makefile choose a recipe FlyBot does not read, so
    any word there but :data:`_CMAKE_NATIVE` is destructive (``runs-program``)."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args]
        if "--" not in values or not any(v is not None and v.split("=", 1)[0] == "--build" for v in values):
            return
        for word in call.args[values.index("--") + 1 :]:
            if word.value is None or not _CMAKE_NATIVE.fullmatch(word.value):
                destructive(
                    call,
                    "runs-program",
                    f"cmake --build ... -- {show(word)}: an option of the native build tool (make -f, -C, SHELL=) "
                    "may choose a recipe or program FlyBot does not read.",
                )
                return

    handler.__name__ = "cmake_native"
    return handler


def webpack_clean(base: Handler) -> Handler:
    """webpack-cli 5 (webpack.js.org/api/cli; webpack "Output", ``output.clean``): ``--output-clean`` "Clean the
    output directory before emit" (``--output-clean-keep`` too, keeping what it matches), so the directory
    ``--output-path``/``-o`` names is emptied (kit.emptied: a deletion unless it lies below the workspace or a temp
    area and holds no tracked file or repository). Without a path the configuration's ``output.path`` is emptied:
    the configuration is the project's code, graded as the build. ``--output-clean-dry`` only logs what it would
    remove."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        values = [w.value for w in words]
        cleans = any(v == "--output-clean" or (v or "").startswith("--output-clean-keep") for v in values)
        if not cleans or "--output-clean-dry" in values:
            return
        target: Word | None = None
        for index, word in enumerate(words):
            value = word.value or ""
            if value in ("-o", "--output-path") and index + 1 < len(words):
                target = words[index + 1]
            elif value.startswith("--output-path="):
                target = Word(value.partition("=")[2], value.partition("=")[2])
            elif word.value is None and word.src.startswith("--output-path="):
                target = Word(None, word.src.partition("=")[2])
        if target is not None:
            emptied(call, target, "webpack --output-clean")

    return handler


def msbuild_properties(base: Handler) -> Handler:
    """dotnet's MSBuild property switch (``-p:NAME=VALUE;NAME=VALUE``, ``-property:``, ``--property:``, and the
    ``/`` spellings of these and other switches, :data:`_MSBUILD_SLASH`; names are case-insensitive): a property outside :data:`_MSBUILD_TUNING` and :data:`_MSBUILD_OUTPUTS`, or a switch only
    known when it runs, may make MSBuild run a program or import a project file of the caller's choosing:
    destructive (``runs-program``). An output property's value is a write where it lands."""

    def handler(call: Call) -> None:
        call.args = _msbuild_switches(call.args)  # /p:X=Y is -p:X=Y (_MSBUILD_SLASH), not a path
        base(call)
        for word in call.args:
            value = word.value
            if value == "--":
                return
            if value is None:
                continue
            spelled = next((p for p in _MSBUILD_PROPERTY if value.lower().startswith(p)), None)
            if spelled is None:
                continue
            for pair in re.split(r"[;,]", value[len(spelled) :]):
                name, eq, given = pair.partition("=")
                key = name.strip().lower()
                if key in _MSBUILD_OUTPUTS and eq:
                    call.write(Word(given, given), f"{call.name} -p:{name}")
                elif key not in _MSBUILD_TUNING:
                    destructive(
                        call,
                        "runs-program",
                        f"{call.name} {shorten(value, 50)} sets an MSBuild property that may name a program or a "
                        "project file the build runs or imports.",
                    )
                    return

    handler.__name__ = "msbuild_properties"
    return handler


def ktlint_reporter(base: Handler) -> Handler:
    """ktlint command line (pinterest.github.io/ktlint/latest/install/cli: "Using custom reporter jar and overriding
    report location", ``--reporter=csv,artifact=/path/to/reporter/csv.jar,output=my-custom-report.csv``): the value
    is the reporter's name followed by ``KEY=VALUE`` pairs; ``artifact`` is a JAR ktlint loads (code FlyBot does not
    read: destructive, ``runs-program``), ``output`` the file the report is written to (graded as a write there). A
    value only known when it runs may be either: destructive. A plain ``--reporter=json`` keeps the entry's grade.
    The values are those :func:`~bot.risk.options.option_values` finds, an abbreviation (``--rep=``) included:
    reading a word ktlint would refuse as the option only grades higher."""

    def handler(call: Call) -> None:
        base(call)
        for option in option_values(call.args, "--reporter"):
            given = option.value
            if given is None:
                destructive(
                    call,
                    "runs-program",
                    f"ktlint --reporter {shorten(option.src, 50)}: a "
                    "reporter only known when it runs may be a JAR ktlint loads.",
                )
                return
            for pair in given.split(",")[1:]:
                key, _, path = pair.partition("=")
                if key.strip() == "artifact":
                    destructive(
                        call,
                        "runs-program",
                        f"ktlint --reporter {shorten(given, 60)} loads the reporter "
                        f"JAR {shorten(path, 50)}, code FlyBot does not read.",
                    )
                    return
                if key.strip() == "output" and path:
                    call.write(literal_word(path), "ktlint --reporter output= writes")

    handler.__name__ = "ktlint_reporter"
    return handler


#: Files a C-family compiler or preprocessor takes as sources or headers by their extension (gcc(1) "Options
#: Controlling the Kind of Output": ``.c``, ``.i``, ``.ii``, ``.m``, ``.mi``, ``.mm``, ``.M``, ``.h``, ``.cc``, ``.cp``,
#: ``.cxx``, ``.cpp``, ``.CPP``, ``.c++``, ``.C``, ``.hh``, ``.H``, ``.hp``, ``.hxx``, ``.hpp``, ``.HPP``, ``.h++``,
#: ``.tcc``, ``.s``, ``.S``, ``.sx``; ``.inc`` by convention).
_CC_SOURCE = re.compile(r"\.(?:c|i|ii|m|mi|mm|M|h|cc|cp|cxx|cpp|CPP|c\+\+|C|hh|H|hp|hxx|hpp|HPP|h\+\+|tcc|s|S|sx|inc)$")
#: Options of gcc(1) whose next word is an output or a name, never a source read.
_CC_NOT_SOURCE = frozenset({"-o", "-MF", "-MT", "-MQ", "-x", "-D", "-U", "-I", "-L", "-l", "-T", "-u", "-e", "-z"})
# (a secret file ``-include``/``-imacros`` names is a path word the grader reads as such: grader.py ``secrets``)


def cc_includes(base: Handler) -> Handler:
    """A C, C++ or assembly compile or preprocess (gcc, clang, cc, cpp) reads every file its sources include into
    the compile: ``-E`` prints them and a compile error quotes their lines (gcc(1), GCC "The C Preprocessor",
    Include Operation; C23 ``#embed``; GNU as ``.incbin``). A secret file included is a ``secret-read`` (network):
    named by an include directive anywhere in this command's text (a source written earlier in it with printf,
    echo or a here-document, or fed on standard input: sensitive.py ``included_secret``), or by a workspace source
    named here or a header it includes, as the recipe book reports it
    (settings.py ``includes``; a source written earlier in this command is judged by the command's text alone)."""

    def handler(call: Call) -> None:
        base(call)
        found = included_secret(call.g.script_text, computed=True)
        if found is None and call.rec.stdin:
            found = included_secret(call.rec.stdin, computed=True)
        if found is not None:
            name, what = found
            _includes_secret(call, f"{shorten(name, 60)} ({what}), which an include directive in this command names")
            return
        words = call.args
        for index, word in enumerate(words):
            value = word.value
            before = words[index - 1].value if index else None
            if value is None or before in _CC_NOT_SOURCE:
                continue
            if value.startswith("-") or not _CC_SOURCE.search(value):
                continue
            if call.g.recipes is None or _written_earlier(call, value):
                continue
            lines = settings_lines(call, "cc", f"{call.name} {shorten(value, 60)}", CC_INCLUDES + value)
            if lines:
                _includes_secret(
                    call, f"{reveal(lines[0].command, multiline=False)}, which {shorten(value, 60)} includes"
                )
                return

    handler.__name__ = "cc_includes"
    return handler


def _written_earlier(call: Call, value: str) -> bool:
    """True when this command writes the file ``value`` before the program runs (what the adapter read is stale)."""
    targets = call.g.state.targets(value) or frozenset()
    written = call.g.written_before
    return any(t == w or t.startswith(w.rstrip("/") + "/") for t in targets for w in written)


def _includes_secret(call: Call, what: str) -> None:
    call.flag(
        R.NETWORK,
        "secret-read",
        f"{call.name} reads {what} into the compile: its -E output or diagnostics print its lines to the model.",
    )


def cppcheck_project(base: Handler) -> Handler:
    """Cppcheck manual ("Importing a project", "Addons"): a Cppcheck GUI project file (``--project=NAME.cppcheck``)
    names, besides the files to check, the addons cppcheck runs: Python scripts FlyBot does not read, so such a
    project, or one only known when it runs, is destructive (``runs-program``). A compile database
    (``compile_commands.json``), a Visual Studio solution or project keeps the entry's grade. The values are those
    :func:`~bot.risk.options.option_values` finds (``--project FILE`` too, which cppcheck refuses: reading more
    only grades higher)."""

    def handler(call: Call) -> None:
        base(call)
        for option in option_values(call.args, "--project"):
            given = option.value
            if given is None or given.lower().endswith(".cppcheck"):
                destructive(
                    call,
                    "runs-program",
                    f"cppcheck --project {shorten(option.src, 60)}: a Cppcheck project names the addons "
                    "(Python scripts) it runs.",
                )
                return

    handler.__name__ = "cppcheck_project"
    return handler


#: apply-refact's options (refactor --help, apply-refact 0.14) that only choose in-place rewriting of the files hlint
#: names or stepping through the hints; ``-o``/``--output FILE`` writes elsewhere, others are not read here.
_REFACTOR_PLAIN = frozenset({"--inplace", "-i", "--step", "-s"})


def hlint_refactor_options(base: Handler) -> Handler:
    """hlint --help (HLint 3.8): ``--refactor-options=OPTIONS`` are passed to the refactor program (apply-refact),
    whose ``-o``/``--output FILE`` writes the result there: options beyond :data:`_REFACTOR_PLAIN` (the documented
    ``--refactor-options="--inplace"``), or ones only known when they run, are refused as unknown (destructive)."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        for index, word in enumerate(words):
            value = word.value
            if value == "--":
                return
            if value == "--refactor-options":
                given = words[index + 1].value if index + 1 < len(words) else ""
            elif value is not None and value.startswith("--refactor-options="):
                given = value.partition("=")[2]
            else:
                continue
            if given is None or not set(given.split()) <= _REFACTOR_PLAIN:
                destructive(
                    call,
                    "unrecognised-use",
                    f"hlint --refactor-options {shorten(given or word.src, 60)}: options of the refactor program "
                    "FlyBot does not grade (-o writes a file).",
                )
                return

    handler.__name__ = "hlint_refactor_options"
    return handler


def ghc_search_path(base: Handler) -> Handler:
    """GHC's ``-i<dir>[:<dir>]*`` (GHC User's Guide, "The search path": "add <dir>, <dir2>, etc. to the import
    path") is a colon-separated list: a module imported from a directory outside the workspace is code whose
    Template Haskell splices run while compiling, so any such directory (or one under ``~``) is destructive
    (``project-outside-workspace``), as the catalogue's ``-i*=project`` grades a single one."""

    def handler(call: Call) -> None:
        base(call)
        for word in call.args:
            value = word.value
            if value is None or not value.startswith("-i") or ":" not in value:
                continue
            for part in value[2:].split(":"):
                if part and (part.startswith("~") or call.where(literal_word(part)) is not Where.WORKSPACE):
                    destructive(
                        call,
                        "project-outside-workspace",
                        f"{call.name} -i names {shorten(part, 60)}, outside the workspace: modules imported from "
                        "there are compiled, their Template Haskell run, code FlyBot does not read.",
                    )
                    return

    return handler


#: Options of ``turbo run`` (Turborepo 2 "run" reference) that take a value as the next word (or after ``=``).
_TURBO_VALUES = frozenset({
    "--cache", "--cache-dir", "--cache-workers", "--concurrency", "--env-mode", "--filter", "-F", "--global-deps",
    "--log-order", "--log-prefix", "--output-logs", "--profile", "--anon-profile", "--token", "--team", "--ui",
    "--api", "--login", "--verbosity",
})  # fmt: skip


def turbo_tasks(base: Handler) -> Handler:
    """``turbo run TASK... [-- ARGS]`` and ``turbo TASK...`` (Turborepo 2 "run": each package's package.json script
    of the task's name runs, with the tasks turbo.json makes it depend on; ``--`` passes ARGS to them): the catalogue
    grades the use and its options, and the scripts are graded as ``pnpm -r run TASK`` grades them (programs/build.py
    ``_workspace_scripts``), for every task the recipe book lists (settings.py ``turbo_tasks``, question ``tasks
    turbo``: a turbo.json it could not read, or none, is destructive). ``--filter`` and ``--affected`` only narrow
    the packages. A remote cache (turbo.json ``remoteCache``, a linked ``.turbo/config.json``) uploads the outputs:
    network. ``--dry``/``--dry-run`` before the tasks runs nothing (after them the use is graded as a run)."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args]
        words = call.args
        if values[:1] == ["run"]:
            words = words[1:]
        elif not values or values[0] in ("ls", "info", "prune", "--version", "--help", "-h"):
            return
        tasks: list[str] = []
        extra: list[Word] = []
        index = 0
        while index < len(words):
            value = words[index].value
            index += 1
            if value is None:
                destructive(call, "dynamic-argument", "turbo run: a task or option only known when it runs.")
                return
            if value == "--":
                extra = words[index:]
                break
            if value.startswith("-"):
                if not tasks and value.split("=", 1)[0] in ("--dry", "--dry-run"):
                    return  # the catalogue grades it: it prints the tasks (after a task, it is read as run)
                if value in _TURBO_VALUES:
                    index += 1
                continue
            tasks.append(value)
        if not tasks:
            return
        from bot.risk.settings import TASKS

        from .projects import settings_lines

        label = f"turbo run {' '.join(tasks)}"
        lines = settings_lines(call, "npm", label, TASKS + "turbo " + " ".join(tasks), required=True)
        if lines is None:
            return
        manager = next((ln.command.split(" ", 1)[1] for ln in lines if ln.command.startswith("manager ")), "npm")
        if manager not in ("npm", "pnpm"):
            destructive(call, "recipe-unreadable", f"{label}: the package manager {shorten(manager, 20)} is not read.")
            return
        for line in lines:
            kind, _, name = line.command.partition(" ")
            if kind == "remote":
                network(
                    call,
                    f"{label} may use a remote cache ({reveal(line.source, multiline=False)}): it uploads "
                    "the tasks' outputs.",
                )
            elif kind == "task":
                _workspace_scripts(call, manager, name, extra, (label, ("*",)))
            elif kind == "root":
                run_recipe(call, manager, name, extra=extra, label=f"{label} (the root package's {name})")

    handler.__name__ = "turbo_tasks"
    return handler


#: Debugger commands that only print what a program file and a core dump hold (GDB manual "Backtraces",
#: "Information About a Frame", "Examining the Symbol Table", "Source and Machine Code"; LLDB "GDB to LLDB command
#: map"), and display settings; an argument (a symbol, an address, ``*0x401136``) holds no ``$`` or ``(``, so no
#: expression calls a function (gdb's ``$_shell``). ``print``, ``call``, ``run``, ``shell``, ``python``, ``source``, ``pipe``, logging
#: and any other command are not: they evaluate expressions, run the program or a host command, or write files.
_DEBUGGER_PRINTS = re.compile(
    r"(?:bt|backtrace|where)(?: full)?(?: -?\d+)?|thread apply all (?:bt|backtrace)(?: full)?|"
    r"info (?:registers|all-registers|threads|frame|locals|args|sharedlibrary|signals|files|source|target)|"
    r"info (?:symbol|line|address|scope|functions|variables|types) [\w:.*+-]+|"
    r"(?:frame|f|up|down)(?: \d+)?|(?:list|l)(?: [\w:.*+-]+)?|disassemble(?: /[mrs]+)?(?: [\w:.*+-]+)?|"
    r"set (?:pagination|confirm|width|height|print pretty|print elements|style enabled) (?:on|off|\d+)|quit|q|"
    r"thread backtrace(?: all)?|bt all|thread list|frame variable|frame info|frame select \d+|register read|image list|"
    r"image lookup (?:-a|--address|-n|--name|-s|--symbol) [\w:.*+-]+|"
    r"target modules list|settings set (?:auto-confirm|use-color|term-width) (?:true|false|\d+)"
)
#: The options whose value is a command the debugger runs (gdb -ex/-iex, lldb -o/-O/-k).
_DEBUGGER_COMMAND_OPTIONS = frozenset({
    "-ex", "-eval-command", "--eval-command", "-iex", "-init-eval-command", "--init-eval-command", "-o",
    "--one-line", "-O", "--one-line-before-file", "-k", "--one-line-on-crash",
})  # fmt: skip
#: Options of gdb and lldb taking a value as the next word (the catalogue's ``NAME=``).
_DEBUGGER_VALUES = _DEBUGGER_COMMAND_OPTIONS | frozenset({
    "-c", "-core", "--core", "-e", "-exec", "--exec", "-se", "--se", "-s", "-symbols", "--symbols", "-d",
    "-directory", "--directory", "-f", "--file", "-a", "--arch",
})  # fmt: skip


def debugger_commands(base: Handler) -> Handler:
    """gdb and lldb reading a program and its core dump (``gdb -batch -ex bt ./a.out core``, ``lldb --batch -o bt
    ./a.out``): the catalogue grades the options and files; batch mode is required (else commands are read from
    standard input); every command given (``-ex``, ``-o``...) must only print
    (:data:`_DEBUGGER_PRINTS`: a backtrace, frames, registers; not ``run``, ``print``, ``shell``...), a second
    operand of gdb must not be a process id (attaching to a running process), and, unless ``-nx``/``-x`` skips them,
    no init file the debugger may read where it runs may be there (``.gdbinit``, ``.lldbinit``; gdb's auto-load
    scripts ``PROGRAM-gdb.py|.gdb|.scm``): their commands are the workspace's, which the owner's auto-load settings
    may let run (settings question ``present``): destructive otherwise (``runs-program``)."""

    def handler(call: Call) -> None:
        base(call)
        gdb = call.name != "lldb"
        words = call.args
        if [w.value for w in words] in (["--version"], ["-version"], ["-v"], ["--help"], ["-help"], ["-h"]):
            return
        operands: list[str] = []
        index = 0
        skips_init = False
        while index < len(words):
            value = words[index].value
            index += 1
            if value is None:
                destructive(call, "dynamic-argument", f"{call.name}: a word only known when it runs.")
                return
            if value in ("--args", "--"):
                operands += [w.value or "" for w in words[index : index + 1]]
                break
            name, eq, attached = value.partition("=")
            if value.startswith("-") and name in _DEBUGGER_VALUES:
                given = attached if eq else (words[index].value if index < len(words) else "")
                index += 0 if eq else 1
                if name in _DEBUGGER_COMMAND_OPTIONS and (
                    given is None or _DEBUGGER_PRINTS.fullmatch(" ".join(given.split())) is None
                ):
                    destructive(
                        call,
                        "runs-program",
                        f"{call.name} {name} {shorten(given or '?', 60)}: a debugger command that may run the "
                        "program, a host command or an expression, or write a file.",
                    )
                    return
                if name in ("-e", "-exec", "--exec", "-se", "--se", "-f", "--file") and given:
                    operands.insert(0, given)
                continue
            if value in ("-nx", "--nx", "-n", "-x", "--no-lldbinit"):
                skips_init = True
            if not value.startswith("-"):
                operands.append(value)
        batch = ("-batch", "--batch") if gdb else ("-b", "--batch")
        if not any(w.value in batch for w in words[:index]):
            # without batch mode the debugger reads further commands from its standard input (gdb "Mode Options":
            # -batch exits after the -ex commands; lldb(1) --batch)
            destructive(
                call, "runs-program", f"{call.name} without {batch[-1]} reads its commands from standard input."
            )
            return
        if gdb and len(operands) > 1 and operands[1].isdigit():
            destructive(call, "runs-program", f"{call.name} {operands[1]}: attaches to a running process.")
            return
        from .projects import settings_lines

        # -nx / -x skip the init files, not gdb's auto-loaded scripts of the program (GDB manual "Auto-loading")
        names = [] if skips_init else [".gdbinit"] if gdb else [".lldbinit"]
        program = operands[0] if operands else ""
        if gdb and program and not program.startswith("/") and ".." not in program.split("/"):
            names += [f"{program}-gdb.{ext}" for ext in ("py", "gdb", "scm")]
        from bot.risk.recipes import LINK_TOOL
        from bot.risk.settings import PRESENT

        if not names:
            return
        question = PRESENT + " ".join(names)
        if len(SETTINGS + question) > 200 or any(c.isspace() for n in names for c in n):
            destructive(call, "recipe-unreadable", f"{call.name}: its init files could not be asked for.")
            return
        found = settings_lines(call, LINK_TOOL, call.name, question, required=True)
        if found:
            destructive(
                call,
                "runs-program",
                f"{call.name} may read {shorten(found[0].source, 80)} where it runs (its commands, code FlyBot does "
                "not read, run when the owner's auto-load settings allow it).",
            )

    handler.__name__ = "debugger_commands"
    return handler


#: QEMU character device backends (Invocation, "Character device options" and -serial) that only print to the
#: terminal or go nowhere; ``file:PATH`` writes PATH. Sockets, pipes and ptys let another program drive the console
#: or the monitor.
_QEMU_CONSOLES = frozenset({"stdio", "mon:stdio", "none", "null", "vc"})
#: ``-drive`` keys that choose no host file or program (Invocation, "Block device options").
_QEMU_DRIVE_KEYS = frozenset({
    "file", "if", "format", "media", "index", "id", "cache", "readonly", "snapshot", "aio", "discard", "bus", "unit",
    "werror", "rerror", "copy-on-read", "detect-zeroes", "serial", "addr",
})  # fmt: skip
#: Disk image formats (a ``vvfat`` drive is a host directory).
_QEMU_FORMATS = frozenset({"raw", "qcow2", "qcow", "vmdk", "vdi", "vhdx", "qed", "vpc"})
#: ``-device`` drivers that hand the guest a host device, directory or shared memory.
_QEMU_HOST_DEVICES = ("vfio", "usb-host", "vhost", "virtio-9p", "ivshmem", "u2f-passthru", "pci-assign", "vfio-")
#: User-mode network keys that share a host directory or run a host command (Invocation, "-netdev user": smb=,
#: tftp=, bootfile=, guestfwd=...-cmd:COMMAND).
_QEMU_USER_NET_REFUSED = frozenset({"smb", "smbserver", "tftp", "bootfile", "guestfwd"})


def qemu_system(base: Handler) -> Handler:
    """``qemu-system-ARCH`` (QEMU 9.1 Invocation) booting the workspace's kernel or disks: the catalogue grades the
    options (network: the default user-mode network, unless ``-nic none``, ``-net none`` or ``-nodefaults``, when a
    user network given, ``-s`` or ``-gdb`` is network); here the values that reach the host are checked: the
    console and monitor (``-serial``, ``-monitor``, ``-qmp``, ``-parallel``: only the terminal or ``file:PATH``, a
    write; and no standard input fed to ``-nographic``'s monitor, whose ``migrate exec:`` runs host commands), the
    networks (``user`` without smb/tftp/guestfwd, or none: tap and bridge run host scripts), the devices (no host
    device passthrough) and the drives (``file=`` a disk image, written; not a protocol, a host directory as vvfat
    or a key FlyBot does not read): destructive otherwise."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        label = call.name

        def refuse(why: str) -> None:
            destructive(call, "runs-program", f"{label}: {why}")

        if call.rec.fed and not call.rec.null_stdin:
            refuse("its standard input is fed: the monitor reads it (migrate exec: runs host commands).")
            return
        index = 0
        while index < len(words):
            value = words[index].value
            index += 1
            if value is None or not value.startswith("-"):
                continue
            if value in ("-s", "-gdb"):
                network(call, f"{label} {value} listens for a debugger on a host port.")
            if value in ("-serial", "-monitor", "-qmp", "-parallel", "-nic", "-netdev", "-net", "-device", "-drive"):
                given = words[index].value if index < len(words) else ""
                index += 1
            else:
                continue
            if given is None or ",," in given:
                refuse(f"{value} {shorten(words[index - 1].src, 60)} is not a value FlyBot reads.")
                return
            fields = given.split(",")
            pairs = dict(f.partition("=")[::2] for f in fields[1:])
            if value in ("-serial", "-monitor", "-qmp", "-parallel"):
                if given.startswith("file:") and len(given) > 5:
                    call.write(literal_word(given[5:]), f"{label} {value}")
                elif given not in _QEMU_CONSOLES:
                    refuse(f"{value} {shorten(given, 60)}: another program may drive the console or the monitor.")
                    return
            elif value in ("-nic", "-netdev", "-net"):
                kind = fields[0]
                if kind not in ("user", "none", "nic") or _QEMU_USER_NET_REFUSED & set(pairs):
                    refuse(f"{value} {shorten(given, 60)}: a network that runs host scripts or shares host files.")
                    return
                if kind == "user":
                    network(call, f"{label} {value} user gives the guest the host's network.")
            elif value == "-device":
                if fields[0].startswith(_QEMU_HOST_DEVICES):
                    refuse(f"-device {shorten(fields[0], 40)} hands the guest a host device or directory.")
                    return
            else:  # -drive
                drive = dict(f.partition("=")[::2] for f in fields)
                image = drive.get("file", "")
                if set(drive) - _QEMU_DRIVE_KEYS or ":" in image or drive.get("format", "raw") not in _QEMU_FORMATS:
                    refuse(f"-drive {shorten(given, 60)}: a drive FlyBot does not read (a protocol or host directory).")
                    return
                if image:
                    call.write(literal_word(image), f"{label} -drive")

    handler.__name__ = "qemu_system"
    return handler


def flyway_settings(base: Handler) -> Handler:
    """Flyway (catalogue/databases.py): the configuration files it reads (``-configFiles``, else ``flyway.conf`` and
    ``flyway.toml`` where it runs) naming migrations, callbacks or Java code from outside the workspace are
    destructive (``runs-program``), as the recipe book answers settings.py ``outside flyway FILES``
    (``_flyway_outside``): Flyway runs the SQL and scripts it finds there and loads the jars."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args]
        if any(v is None for v in values) or any(v in ("version", "help", "-v", "-?", "--help", "-h") for v in values):
            return  # refused by the catalogue, or it only prints
        files = ""
        for value in values:
            name, eq, given = (value or "").partition("=")
            if name == "-configFiles" and eq:
                files = given
            elif name == "-workingDirectory":
                return  # graded as a project directory by the catalogue; files there are read from it
        if any(c.isspace() for c in files) or len(files) > 150:
            destructive(call, "recipe-unreadable", "flyway -configFiles: files FlyBot does not read.")
            return
        outside_settings(call, "jvm", "flyway", f"{OUTSIDE} flyway {files}".strip())

    handler.__name__ = "flyway_settings"
    return handler


def prisma_settings(base: Handler) -> Handler:
    """Prisma (catalogue/databases.py): a schema (``--schema``, else ``prisma/schema.prisma`` or ``schema.prisma``
    where it runs) whose generator ``provider`` is a program outside the workspace is destructive (``runs-program``),
    as the recipe book answers settings.py ``outside prisma SCHEMA`` (``_prisma_outside``): ``prisma generate`` runs
    it, as do ``migrate dev``, ``migrate reset`` and ``db push`` after changing the database."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args]
        if any(v is None for v in values) or any(v in ("-v", "--version", "-h", "--help") for v in values):
            return
        schema = ""
        for index, value in enumerate(values):
            name, eq, given = (value or "").partition("=")
            if name == "--schema":
                schema = given if eq else (values[index + 1] or "") if index + 1 < len(values) else ""
        if any(c.isspace() for c in schema) or len(schema) > 150:
            destructive(call, "recipe-unreadable", "prisma --schema: a schema FlyBot does not read.")
            return
        outside_settings(call, "npm", "prisma", f"{OUTSIDE} prisma {schema}".strip())

    handler.__name__ = "prisma_settings"
    return handler


#: Alembic commands that use the database (Alembic command reference), with how: ``upgrade``/``stamp`` change it,
#: ``revision --autogenerate``, ``current`` and ``check`` connect to compare or read.
_ALEMBIC_USES = {"upgrade": "change", "stamp": "change", "ensure_version": "change", "current": "read", "check": "read"}


def alembic_database(base: Handler) -> Handler:
    """Alembic (catalogue/databases.py): a command that uses the database is a remote change (``upgrade``,
    ``stamp``: system) or a connection (``revision --autogenerate``, ``current``, ``check``: network) unless the
    recipe book says the configuration's database is an SQLite file in the workspace (settings.py
    ``_alembic_database``, question ``alembic INI SECTION``: the ini file of ``-c``, section ``-n``); ``-x`` arguments
    (read by env.py, which may choose the database from them) and an answer not reported keep it remote."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args]
        if any(v is None for v in values):
            return  # the catalogue refused it
        ini, section, command, autogenerate, extra = "alembic.ini", "alembic", None, False, False
        index = 0
        while index < len(values):
            value = values[index] or ""
            index += 1
            name, eq, attached = value.partition("=")
            if name in ("-c", "--config", "-n", "--name", "-x"):
                given = attached if eq else (values[index] if index < len(values) else "") or ""
                index += 0 if eq else 1
                if name in ("-c", "--config"):
                    ini = given
                elif name in ("-n", "--name"):
                    section = given
                else:
                    extra = True
            elif value == "--autogenerate":
                autogenerate = True
            elif not value.startswith("-") and command is None:
                command = value
        use = _ALEMBIC_USES.get(command or "") or ("read" if command == "revision" and autogenerate else None)
        if use is None:
            return
        from bot.risk.settings import ALEMBIC

        from .projects import settings_lines

        noted = len(call.rec.chosen_by or ())
        question = f"{ALEMBIC}{ini} {section}"
        local = (
            None
            if extra or any(c.isspace() for c in ini + section) or len(question) > 180
            else settings_lines(call, "python", f"alembic {command}", question)
        )
        if local == [] and len(call.rec.chosen_by or ()) == noted:
            return  # the project's own SQLite file: the build's write
        if use == "change":
            call.flag(R.SYSTEM, "remote-control-plane", f"alembic {command} changes the configured database.")
        else:
            network(call, f"alembic {command} connects to the configured database.")

    handler.__name__ = "alembic_database"
    return handler


#: latexmk(1) options that set the command a step runs as (``-pdflatex="pdflatex -shell-escape %O %S"``).
_LATEXMK_COMMANDS = (
    "-pdflatex=",
    "-xelatex=",
    "-lualatex=",
    "-latex=",
    "-dvilualatex=",
    "-pdflualatex=",
    "-pdfxelatex=",
)


def latexmk_commands(base: Handler) -> Handler:
    """latexmk(1) (latexmk 4.8x) "-pdflatex="COMMAND"" (and ``-xelatex=``, ``-lualatex=``, ``-latex=``,
    ``-dvilualatex=``, ``-pdflualatex=``, ``-pdfxelatex=``): the command run in place of the engine, any program
    (runs-program); the same words without ``=`` only choose the engine. The catalogue entry lists the bare
    words as flags, which its option scan also matches with a value given, so this guard reads the ``=`` forms."""

    def handler(call: Call) -> None:
        base(call)
        for word in call.args:
            value = word.value
            if value == "--":
                return
            if value is not None and value.startswith(_LATEXMK_COMMANDS):
                name = value.partition("=")[0]
                destructive(
                    call, "runs-program", f"latexmk {name}=COMMAND runs the command given in the engine's place."
                )
                return

    return handler


#: sphinx-build(1) options that take a value (the following word when not attached).
_SPHINX_VALUES = frozenset(
    "-b --builder -M -d --doctree-dir -j --jobs -c --conf-dir -D --define -A --html-define -t --tag -w "
    "--warning-file".split()
)


def sphinx_source(base: Handler) -> Handler:
    """``sphinx-build [options] SOURCEDIR OUTPUTDIR [FILENAMES...]`` (sphinx-build(1), Sphinx 8; ``-M BUILDER
    SOURCEDIR OUTPUTDIR`` alike): the configuration directory is SOURCEDIR unless ``-c`` names one, and its
    ``conf.py`` is executed ("Configuration": "The configuration file is executed as Python code at build time").
    A SOURCEDIR outside the workspace (or only known when it runs) runs code FlyBot does not read: destructive
    (``project-outside-workspace``)."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        index = 0
        while index < len(words):
            value = words[index].value
            if value is None:
                return  # a word only known when it runs: the catalogue has refused it
            if value == "--":
                index += 1
                break
            if not value.startswith("-") or value == "-":
                break
            index += 2 if value in _SPHINX_VALUES else 1
        if index < len(words):
            runs_outside(call, "sphinx-build", words[index])

    handler.__name__ = "sphinx_source"
    return handler


#: phpcs and phpcbf ("Usage", PHP_CodeSniffer 3.10): ``--bootstrap=FILES`` "A comma separated list of files to run
#: before processing begins"; ``--standard=STANDARDS`` "The name or path of the coding standard to use" (a path is
#: a ruleset.xml or a directory of PHP sniffs, run as code); ``--runtime-set KEY VALUE`` sets a configuration option
#: for the run, ``installed_paths`` the directories standards are loaded from, ``php_path`` the PHP program run by the
#: Generic.PHP.Syntax sniff (Configuration Options wiki).
_PHPCS_RUNTIME_PATHS = frozenset({"installed_paths", "php_path"})


def phpcs_code(base: Handler) -> Handler:
    """Code outside the workspace that phpcs/phpcbf runs (:data:`_PHPCS_RUNTIME_PATHS`): a ``--bootstrap`` file, a
    ``--standard`` given as a path (``/``, ``.``, ``~`` or ``.xml``; a bare name is an installed standard such as
    ``PSR12``), or ``--runtime-set installed_paths|php_path PATHS``: destructive (``project-outside-workspace``) when
    one lies outside the workspace or is only known when it runs."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        for index, word in enumerate(words):
            value = word.value
            if value == "--":
                return
            if value is None:
                continue
            name, eq, given = value.partition("=")
            if name in ("--bootstrap", "--standard") and eq:
                items = given.split(",")
                for item in items:
                    if name == "--standard" and not (
                        item.startswith((".", "~")) or "/" in item or item.endswith(".xml")
                    ):
                        continue
                    if item and runs_outside(call, f"{call.name} {name}", literal_word(item)):
                        return
            elif value == "--runtime-set" and index + 2 < len(words):
                key, paths = words[index + 1].value, words[index + 2].value
                if key is None or key in _PHPCS_RUNTIME_PATHS:
                    targets = [words[index + 2]] if paths is None else [literal_word(i) for i in paths.split(",") if i]
                    for target in targets:
                        if runs_outside(call, f"{call.name} --runtime-set {key or ''}", target):
                            return

    handler.__name__ = "phpcs_code"
    return handler


def rustup_path(base: Handler) -> Handler:
    """``rustup default TOOLCHAIN`` and ``rustup override set TOOLCHAIN`` (the rustup book, "Toolchains": a custom
    toolchain may be named by a path, as in ``cargo +PATH``; "Overrides"): a toolchain given as a path (holding
    ``/``) or only known when it runs is persisted in ~/.rustup/settings.toml, so every later cargo and rustc runs
    the programs there: destructive (``runs-program``). A channel or version (``stable``, ``1.79``) is left to the
    entry (home)."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        plain = [w for w in words if w.value is None or not w.value.startswith("-")]
        names = [w.value for w in plain]
        if names[:1] == ["default"]:
            given = plain[1:2]
        elif names[:1] == ["override"] and names[1:2] in (["set"], ["add"]):
            # override set --path DIR TOOLCHAIN: DIR is the directory overridden, not the toolchain
            at = next((i for i, w in enumerate(words) if w.value == "--path"), None)
            skip = words[at + 1] if at is not None and at + 1 < len(words) else None
            given = [w for w in plain[2:] if w is not skip][:1]
        else:
            return
        if given and (given[0].value is None or "/" in given[0].value):
            destructive(
                call,
                "runs-program",
                f"rustup {names[0]} {show(given[0])} makes the toolchain at a path (or one only known when it runs) "
                "the one every later cargo and rustc runs.",
            )

    handler.__name__ = "rustup_path"
    return handler
