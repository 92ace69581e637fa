"""System package managers: options that make them run a command of the caller's choosing.

A package manager is a system command (``table.SYSTEM_COMMANDS``; the allowlisted ones are
downgraded contained). Each handler here first looks for the options that run arbitrary
programs, or load configuration that can name programs to run; any of them grades
``destructive`` (a command run that way can delete the workspace, and containment does not
undo deletions). Otherwise the program's usual ``system`` finding applies (``base``).

Sources, per program:

* apt, apt-get, apt-cache: apt.conf(5) (``DPkg::Pre-Invoke``, ``DPkg::Post-Invoke``,
  ``DPkg::Pre-Install-Pkgs``, ``APT::Update::Pre-Invoke``/``Post-Invoke``, ``Dir::Bin::*``,
  ``Acquire::http::Proxy-Auto-Detect`` all name programs apt runs) and apt-get(8) (``-o``,
  ``--option``, ``-c``, ``--config-file``); dpkg(1) (``Dpkg::Options`` reaches dpkg, whose
  ``--pre-invoke``/``--post-invoke``/``--status-logger`` run commands). ``-o`` is accepted only
  for the keys in :data:`APT_SAFE_OPTIONS` (with the listed values where given); any other ``-o``
  and any ``-c`` file is destructive. apt's parser (apt-pkg/contrib/cmndline.cc) also takes
  ``-oKEY=V``, ``-o=KEY=V``, ``--option=KEY=V`` and ``-o`` inside a cluster (``-yo KEY=V``).
* dpkg: dpkg(1) ``--pre-invoke=``, ``--post-invoke=``, ``--status-logger=``.
* dnf, yum: dnf(8) ``-c``/``--config`` (a config file can set ``pluginpath``: Python plugins run)
  and ``--setopt`` (only :data:`DNF_SAFE_SETOPT` keys are accepted).
* pacman: pacman(8) ``--config`` (pacman.conf can set ``XferCommand``, run to download) and
  ``--hookdir`` (alpm-hooks(5): ``Exec =`` runs a command); getopt_long prefixes included.
* brew: brew(1) ``sh``, ``ruby``, ``irb``, ``debugger``, ``bundle``, ``edit``, ``create``,
  ``exec`` and any subcommand not in :data:`BREW_SUBCOMMANDS` (brew runs ``brew-NAME`` external
  commands from PATH) run programs; ``brew install ./x.rb`` runs a local formula's Ruby code.
* snap: snap(8) ``snap run`` runs a snap's program; ``snap try DIR`` installs an unpacked
  directory (its hooks run).

Then what the packages are and what happens to them (checked by :func:`_packages` after the options above):

* **Removal** is ``destructive`` on the host (kit.host_destructive; contained, the usual contained grade): removing
  ``bash``, ``libc6`` or ``openssh-server`` can leave the machine unable to boot or be reached. apt-get(8):
  ``remove``, ``purge``, ``autoremove``, ``autopurge``, a package name with a ``-`` suffix in an install
  ("If a hyphen is appended to the package name ... the identified package will be removed"), ``--purge``,
  ``--auto-remove``/``--autoremove``, ``--allow-remove-essential``; dnf(8) ``remove``/``erase``/``autoremove``,
  ``--allowerasing``; pacman(8) ``-R``; brew(1) ``uninstall``/``remove``/``rm``/``autoremove``; snap(8) ``remove``;
  dpkg(1) ``-r``/``-P``/``--remove``/``--purge``; apk(8) ``del``, and ``add !NAME`` (apk-world(5): a conflict, which
  removes the installed package).
* **Local package files** (``./evil.deb``, ``/tmp/x.rpm``, a URL, ``pacman -U``, ``dpkg -i``, ``snap install
  x.snap``): their maintainer scripts run as root and the classifier cannot see them, so they are ``destructive``
  wherever they run (as a path to a program is).
* **Unsigned packages**: apt-get(8) ``--allow-unauthenticated``, ``--force-yes``, ``--allow-insecure-repositories``;
  dnf(8) ``--nogpgcheck``; snap(8) ``--dangerous``; apk(8) ``--allow-untrusted``; dpkg(1) ``--force-*``
  (``--force-all``, ``--force-remove-essential``, ...): code nobody vouched for runs as root: ``destructive``
  wherever they run.

**Downloads**: a use that fetches packages or package indexes from the repositories talks to another machine:
``network`` (rule ``package-install``), contained too, as ``pip install`` and ``npm install`` are (the sandbox is
discarded, the download still leaves the machine). apt-get(8) ``install``, ``reinstall``, ``update``,
``upgrade``, ``dist-upgrade``, ``full-upgrade``, ``source``, ``download``, ``build-dep``, ``satisfy`` (not with
``-s`` and its aliases, nor an install that only removes, ``bash-``; ``--no-download`` keeps all but ``update``
local); dnf(8) ``install``, ``reinstall``,
``upgrade``, ``update``, ``downgrade``, ``distro-sync``, ``makecache``, ``download``, ``builddep``, ``swap``,
``group|module install|upgrade|update`` (not with ``-C``/``--cacheonly``); pacman(8) ``-S`` but its queries and
``-Sc``; brew(1) ``install``, ``reinstall``, ``upgrade``, ``fetch``, ``update``, ``update-reset``, ``tap``;
snap(8) ``install``, ``refresh``, ``download``; apk(8) ``add``, ``update``, ``upgrade``, ``fetch``. The
host's grade stays ``system`` (above ``network``).

Downgrades, version pins, target releases and held packages change what an install means but not its grade: a
standing approval's pattern does not cover them unless it names them (bot/risk/meaning.py).

Environment variables that do the same (``APT_CONFIG``, ``PIP_CONFIG_FILE``, ``PIP_PYTHON``,
``npm_config_*``, ...) are in ``walker._HIJACK_NAMES``. npm/pnpm/yarn and pip options are in
programs/build.py.
"""

from __future__ import annotations

import re

from bot.risk.grader import Call, Handler
from bot.risk.model import RiskLevel
from bot.risk.options import long_is
from bot.risk.paths import Where
from bot.risk.reasons import shorten
from bot.risk.sensitive import secret_setting
from bot.risk.words import Word, literal_word

from .kit import chosen_source, destructive, host_destructive, local_package_outside, show, tool_plugin

__all__ = [
    "APT_SAFE_OPTIONS",
    "BREW_SUBCOMMANDS",
    "DNF_SAFE_SETOPT",
    "apk",
    "apt",
    "conda_channel",
    "brew",
    "dnf",
    "dpkg",
    "jenv_add",
    "nix_code",
    "uv_requirements",
    "pacman",
    "snap",
]

#: ``apt -o KEY=VALUE`` keys (lower case) accepted as harmless: key -> allowed values (empty: any value).
APT_SAFE_OPTIONS: dict[str, frozenset[str]] = {
    "apt::get::assume-yes": frozenset(), "apt::get::yes": frozenset(), "apt::get::assume-no": frozenset(),
    "apt::install-recommends": frozenset(), "apt::install-suggests": frozenset(),
    "apt::get::install-recommends": frozenset(), "apt::get::fix-missing": frozenset(),
    "apt::get::show-versions": frozenset(), "apt::color": frozenset(), "quiet": frozenset(),
    "acquire::retries": frozenset(), "acquire::forceipv4": frozenset(), "acquire::forceipv6": frozenset(),
    "acquire::http::timeout": frozenset(), "acquire::https::timeout": frozenset(), "acquire::languages": frozenset(),
    "dpkg::use-pty": frozenset(), "dpkg::lock::timeout": frozenset(),
    "dpkg::options::": frozenset({"--force-confdef", "--force-confold", "--force-confnew", "--force-confmiss"}),
}  # fmt: skip
# apt-get(8) short options that take a value (the value ends the cluster).
_APT_SHORT_VALUES = "octa"


def _apt_option_safe(assignment: str | None) -> bool:
    if assignment is None:
        return False
    key, eq, value = assignment.partition("=")
    allowed = APT_SAFE_OPTIONS.get(key.strip().lower())
    if allowed is None or not eq:
        return False
    return not allowed or value.strip() in allowed


def _local_file(value: str, suffixes: tuple[str, ...]) -> bool:
    """True when a package operand names a file or URL rather than a package in a signed repository."""
    return value.startswith((".", "/", "~")) or value.endswith(suffixes) or "://" in value


def _downloads(call: Call, what: str) -> None:
    """A use that downloads packages or package indexes (module docstring, "Downloads"): network, never downgraded."""
    call.flag(
        RiskLevel.NETWORK,
        "package-install",
        f"{what} downloads packages from its repositories: network egress, contained too.",
    )


def _removal(call: Call, what: str) -> None:
    host_destructive(
        call,
        "package-removal",
        f"{what}: removing packages (bash, libc6, openssh-server ...) can leave the machine unable to start or be reached.",
    )


def _unsigned(call: Call, what: str) -> None:
    destructive(call, "unsigned-package", f"{what} installs packages nobody signed; their scripts run as root.")


def _local(call: Call, what: str) -> None:
    destructive(
        call, "runs-program", f"{what} is a local package file or URL: its maintainer scripts run as root, unseen."
    )


_APT_REMOVE_VERBS = frozenset({"remove", "purge", "autoremove", "autopurge"})
_APT_REMOVE_OPTIONS = frozenset({"--purge", "--auto-remove", "--autoremove", "--allow-remove-essential"})
_APT_UNSIGNED = frozenset({"--allow-unauthenticated", "--force-yes", "--allow-insecure-repositories"})
_APT_DOWNLOADS = frozenset({
    "install", "reinstall", "update", "upgrade", "dist-upgrade", "full-upgrade", "source", "download", "build-dep",
    "satisfy",
})  # fmt: skip
_APT_SIMULATE = frozenset({"-s", "--simulate", "--just-print", "--dry-run", "--recon", "--no-act"})
_APT_VALUE_LONG = frozenset(
    {"--target-release", "--default-release", "--host-architecture", "--architecture", "--option", "--config-file"}
)


def _apt_packages(call: Call) -> None:
    """apt/apt-get: removal, local files and unsigned packages (module docstring); ``-s``/``--simulate`` and its
    aliases change nothing (apt-get(8))."""
    if any(w.value in _APT_SIMULATE for w in call.args):
        return
    operands: list[str] = []
    skip = False
    for word in call.args:
        value = word.value
        if skip or value is None:
            skip = False
            continue
        if value == "--":
            continue
        if value.startswith("--"):
            if value in _APT_UNSIGNED:
                _unsigned(call, f"{call.name} {value}")
            elif value in _APT_REMOVE_OPTIONS:
                _removal(call, f"{call.name} {value}")
            skip = value in _APT_VALUE_LONG
        elif value.startswith("-") and len(value) > 1:
            skip = value[-1] in _APT_SHORT_VALUES
        else:
            operands.append(value)
    if not operands:
        return
    verb, packages = operands[0], operands[1:]
    if verb in _APT_REMOVE_VERBS:
        _removal(call, f"{call.name} {verb}")
        return
    removals_only = bool(packages) and all(package.endswith("-") for package in packages)
    if (
        verb in _APT_DOWNLOADS
        and not removals_only
        and (verb == "update" or not any(w.value == "--no-download" for w in call.args))
    ):
        _downloads(call, f"{call.name} {verb}")
    for package in packages:
        if _local_file(package, (".deb",)):
            _local(call, package)
        elif package.endswith("-"):
            _removal(call, f"{call.name} {verb} {package} (the - suffix removes it)")


def apt(base: Handler) -> Handler:
    """apt/apt-get/apt-cache: ``-o`` (unless in :data:`APT_SAFE_OPTIONS`) and ``-c`` are destructive."""

    def handler(call: Call) -> None:
        words = call.args
        index = 0
        while index < len(words):
            word = words[index]
            value = word.value
            index += 1
            if value is None:
                destructive(
                    call, "dynamic-argument", f"{show(word)} may be an {call.name} -o option that runs a program."
                )
                return
            if value == "--":
                break
            taken: str | None = None
            name = ""
            if value.startswith("--"):
                name, eq, attached = value.partition("=")
                if len(name) >= 4 and ("--option".startswith(name) or "--config-file".startswith(name)):
                    name = "-o" if "--option".startswith(name) else "-c"
                    if eq:
                        taken = attached
                    else:
                        taken = words[index].value if index < len(words) else ""
                        index += 1
            elif value.startswith("-"):
                letters = value[1:]
                for position, letter in enumerate(letters):
                    if letter in _APT_SHORT_VALUES:
                        rest = letters[position + 1 :]
                        if letter in "oc":
                            name = "-" + letter
                            if rest:
                                taken = rest[1:] if rest.startswith("=") else rest
                            else:
                                taken = words[index].value if index < len(words) else ""
                        index += 0 if rest else 1
                        break
            if name == "-c":
                destructive(
                    call, "runs-program", f"{call.name} -c loads a configuration file that can make it run programs."
                )
                return
            if name == "-o" and not _apt_option_safe(taken):
                destructive(
                    call,
                    "runs-program",
                    f"{call.name} -o {taken or ''} can make it run programs (apt.conf(5): *::Pre-Invoke, Dir::Bin, ...).".replace(
                        "  ", " "
                    ),
                )
                return
        base(call)
        if call.name != "apt-cache":
            _apt_packages(call)

    handler.__name__ = "apt"
    return handler


_DPKG_RUNS = ("--pre-invoke", "--post-invoke", "--status-logger")


def dpkg(base: Handler) -> Handler:
    """dpkg: ``--pre-invoke``/``--post-invoke``/``--status-logger`` run commands (dpkg(1))."""

    def handler(call: Call) -> None:
        for word in call.args:
            value = word.value
            if value is None:
                destructive(call, "dynamic-argument", f"{show(word)} may be a dpkg option that runs a command.")
                return
            if value == "--":
                break
            if value.startswith("--") and any(long_is(value, option) for option in _DPKG_RUNS):
                destructive(
                    call, "runs-program", f"dpkg {value.split('=', 1)[0]} runs a command of the caller's choosing."
                )
                return
        base(call)
        for word in call.args:
            value = word.value or ""
            if value.startswith("--force"):
                _unsigned(call, f"dpkg {value}")
            elif value in ("-r", "-P", "--remove", "--purge"):
                _removal(call, f"dpkg {value}")
            elif value in ("-i", "--install", "--unpack", "-x", "--extract"):
                _local(call, f"dpkg {value}")

    handler.__name__ = "dpkg"
    return handler


#: ``dnf --setopt=KEY=VALUE`` keys accepted as harmless (dnf.conf(5)); any repo-scoped ``*.KEY`` too.
DNF_SAFE_SETOPT = frozenset({
    "install_weak_deps", "tsflags", "keepcache", "skip_if_unavailable", "max_parallel_downloads", "fastestmirror",
    "assumeyes", "best", "clean_requirements_on_remove", "retries", "timeout", "minrate", "deltarpm",
    "skip_broken", "strict", "multilib_policy", "obsoletes", "metadata_expire",
})  # fmt: skip


_DNF_DOWNLOADS = frozenset({
    "install", "in", "reinstall", "upgrade", "update", "up", "downgrade", "distro-sync", "makecache", "download",
    "builddep", "swap", "upgrade-minimal", "groupinstall", "groupupdate", "group install", "group upgrade",
    "group update", "groups install", "module install", "module update", "module upgrade",
})  # fmt: skip


def dnf(base: Handler) -> Handler:
    """dnf/yum: ``-c``/``--config`` and ``--setopt`` other than :data:`DNF_SAFE_SETOPT` are destructive."""

    def handler(call: Call) -> None:
        words = call.args
        for index, word in enumerate(words):
            value = word.value
            if value is None:
                destructive(call, "dynamic-argument", f"{show(word)} may be a {call.name} option that loads plugins.")
                return
            if value == "--":
                break
            setting: str | None = None
            if (value.startswith("-") and not value.startswith("--") and "c" in value[1:]) or long_is(
                value, "--config"
            ):
                destructive(
                    call, "runs-program", f"{call.name} -c/--config loads a configuration that can load plugins (code)."
                )
                return
            if value.startswith("--") and long_is(value, "--setopt"):
                if "=" in value:
                    setting = value.split("=", 1)[1]
                else:
                    setting = words[index + 1].value if index + 1 < len(words) else None
                key = (setting or "").split("=", 1)[0].strip().lower()
                if setting is None or "=" not in setting or key.rsplit(".", 1)[-1] not in DNF_SAFE_SETOPT:
                    destructive(
                        call,
                        "runs-program",
                        f"{call.name} --setopt={setting or ''} can load plugins (pluginpath) or other code.",
                    )
                    return
        base(call)
        operands = [w.value for w in words if w.value is not None and not w.value.startswith("-")]
        options = [w.value for w in words if w.value is not None and w.value.startswith("--")]
        if "--nogpgcheck" in options or "--no-gpgchecks" in options:
            _unsigned(call, f"{call.name} --nogpgcheck")
        if "--allowerasing" in options:
            _removal(call, f"{call.name} --allowerasing")
        if operands and operands[0] in ("remove", "erase", "autoremove", "rm"):
            _removal(call, f"{call.name} {operands[0]}")
        elif operands and operands[0] in (
            "install",
            "in",
            "localinstall",
            "reinstall",
            "upgrade",
            "update",
            "up",
            "downgrade",
        ):
            for package in operands[1:]:
                if _local_file(package, (".rpm",)):
                    _local(call, package)
        _dnf_sources(call, operands, [w.value for w in words])
        cached = any(v in ("-C", "--cacheonly") for v in options + [w.value for w in words])
        verb = (
            " ".join(operands[:2])
            if operands[:1] in (["group"], ["groups"], ["module"])
            else operands[0]
            if operands
            else ""
        )
        if not cached and verb in _DNF_DOWNLOADS:
            _downloads(call, f"{call.name} {verb}")

    handler.__name__ = "dnf"
    return handler


#: ``dnf config-manager`` words that only print (dnf-plugins-core config-manager: ``--dump``, ``--dump-variables``).
_CONFIG_MANAGER_READS = frozenset({"config-manager", "--dump", "--dump-variables", "--help", "-h", "-q", "--quiet"})


def _dnf_sources(call: Call, operands: list[str], values: list[str | None]) -> None:
    """dnf's repository changes: ``config-manager`` (dnf-plugins-core: ``--add-repo URL``, ``--set-enabled``,
    ``--setopt=REPO.gpgcheck=0 --save``; dnf5 ``addrepo``, ``setopt``, ``setvar``) but ``--dump``, and ``copr enable``
    (a Copr project's repository) change where every later install gets its packages, as a file written to
    ``/etc/yum.repos.d`` does: destructive on the host (``package-source``)."""
    verb = operands[:2]
    if verb[:1] == ["config-manager"]:
        after = values[values.index("config-manager") :] if "config-manager" in values else values
        if all(v in _CONFIG_MANAGER_READS for v in after) and len(after) > 1:
            return
    elif verb != ["copr", "enable"]:
        return
    call.flag(
        RiskLevel.DESTRUCTIVE,
        "package-source",
        f"{call.name} {' '.join(verb)} changes the repositories every later install gets its packages from.",
        contained_level=RiskLevel.WORKSPACE_WRITE,
    )


_PACMAN_RUNS = ("--config", "--hookdir")


def pacman(base: Handler) -> Handler:
    """pacman: ``--config`` (XferCommand) and ``--hookdir`` (hooks' ``Exec``) are destructive."""

    def handler(call: Call) -> None:
        for word in call.args:
            value = word.value
            if value is None:
                destructive(call, "dynamic-argument", f"{show(word)} may be a pacman option that runs a command.")
                return
            if value == "--":
                break
            if value.startswith("--") and any(long_is(value, option) for option in _PACMAN_RUNS):
                destructive(
                    call,
                    "runs-program",
                    f"pacman {value.split('=', 1)[0]} loads configuration or hooks that run commands.",
                )
                return
        base(call)
        from .system import QUERIES

        values = [w.value or "" for w in call.args]
        ops = [v for v in values if v.startswith("-") and not v.startswith("--")]
        syncs = bool(ops) and ops[0].startswith("-S") and set(ops[0][2:]) - {"c"} != set() or "--sync" in values
        if syncs or ops[:1] == ["-S"]:
            if QUERIES["pacman"](values) is None:
                _downloads(call, "pacman -S")
        for word in call.args:
            value = word.value or ""
            if value in ("--remove",) or (value.startswith("-R") and not value.startswith("--")):
                _removal(call, f"pacman {value}")
            elif value in ("--upgrade",) or (value.startswith("-U") and not value.startswith("--")):
                _local(call, f"pacman {value}")
            elif value.startswith("--overwrite"):
                host_destructive(
                    call, "overwrite-outside-workspace", "pacman --overwrite replaces files other packages own."
                )

    handler.__name__ = "pacman"
    return handler


#: brew(1) subcommands that only install, remove, update or inspect packages.
BREW_SUBCOMMANDS = frozenset({
    "install", "reinstall", "upgrade", "uninstall", "remove", "rm", "update", "update-reset", "list", "ls", "info",
    "abv", "search", "outdated", "doctor", "dr", "config", "cleanup", "tap", "untap", "tap-info", "link", "ln",
    "unlink", "pin", "unpin", "services", "deps", "uses", "leaves", "autoremove", "fetch", "missing", "desc",
    "log", "options", "shellenv", "commands", "help", "analytics", "casks", "formulae", "migrate", "--version",
    "-v", "--prefix", "--cellar", "--cache", "--repository", "--repo", "--env", "--config",
})  # fmt: skip


#: The tap user whose taps Homebrew maintains (``homebrew/core``, ``homebrew/cask``...: brew(1) "tap").
_BREW_OWN_TAPS = "homebrew"


def _brew_third_party(value: str) -> bool:
    """True for ``user/repo`` or ``user/repo/formula`` naming a tap Homebrew does not maintain."""
    parts = value.split("/")
    return len(parts) in (2, 3) and all(parts) and parts[0].lower() != _BREW_OWN_TAPS


def brew(base: Handler) -> Handler:
    """brew: subcommands outside :data:`BREW_SUBCOMMANDS` (sh, ruby, bundle, external commands) and
    local ``.rb`` formula files run programs: destructive. brew(1) "tap": ``brew tap user/repo [URL]`` adds a formula
    repository (from GitHub's ``user/homebrew-repo`` without a URL) whose formulae, Ruby code, every later install
    may take: a package source (``package-source``, destructive on the host), but for Homebrew's own ``homebrew/*``
    taps; ``brew tap`` alone lists taps. brew(1) "SPECIFYING FORMULAE" and "install": ``user/repo/formula`` names a
    formula in a tap, tapped first when it is not: ``brew install``/``reinstall`` of one from a tap Homebrew does not
    maintain runs that tap's Ruby code (``chosen-source``, destructive on the host)."""

    def handler(call: Call) -> None:
        words = call.args
        command = next(
            (w for w in words if w.value is None or not w.value.startswith("-") or w.value in BREW_SUBCOMMANDS), None
        )
        if command is not None and command.value is None:
            destructive(call, "dynamic-argument", "The brew command is only known when it runs.")
            return
        if command is not None and command.value not in BREW_SUBCOMMANDS:
            destructive(
                call, "runs-program", f"brew {show(command)} runs programs (a shell, Ruby code or an external command)."
            )
            return
        if command is not None and command.value in ("uninstall", "remove", "rm", "autoremove"):
            base(call)
            _removal(call, f"brew {command.value}")
            return
        if command is not None and command.value == "services":
            _brew_services(call, base, words[words.index(command) + 1 :])
            return
        if command is None or command.value not in ("install", "reinstall", "upgrade", "fetch"):
            base(call)
            if command is not None and command.value in ("update", "update-reset", "tap"):
                _downloads(call, f"brew {command.value}")
            if command is not None and command.value == "tap":
                _brew_tap(call, words[words.index(command) + 1 :])
            return
        for word in words:
            value = word.value
            if value is None or value.endswith(".rb") or "://" in value:
                destructive(call, "runs-program", f"brew {show(word)} may run a formula file's Ruby code.")
                return
        base(call)
        _downloads(call, f"brew {command.value}")
        if command.value in ("install", "reinstall"):
            rest = words[words.index(command) + 1 :]
            named = [w.value for w in rest if w.value and not w.value.startswith("-")]
            tapped = [v for v in named if v.count("/") == 2 and _brew_third_party(v)]
            if tapped:
                chosen_source(call, f"brew {command.value} {shorten(tapped[0], 60)}", listed=True)

    handler.__name__ = "brew"
    return handler


def _brew_tap(call: Call, rest: list[Word]) -> None:
    """``brew tap NAME [URL]``: a tap Homebrew does not maintain, or any tap given a URL, is a new package source."""
    operands = [w for w in rest if w.value is None or not w.value.startswith("-")]
    if not operands:
        return
    name = operands[0].value
    if name is not None and len(operands) == 1 and not _brew_third_party(name):
        return
    call.flag(
        RiskLevel.DESTRUCTIVE,
        "package-source",
        f"brew tap {show(operands[0])} adds a formula repository whose Ruby formulae later installs may run.",
        contained_level=RiskLevel.WORKSPACE_WRITE,
    )


#: brew-services(1) (``brew services --help``, Homebrew 4): ``start`` and ``restart`` start the service and
#: "register it to launch at login (or boot)" (a launchd agent or a systemd --user unit); ``run`` starts it without
#: registering it; ``stop`` and ``kill`` stop it; ``list``, ``info`` print; ``cleanup`` removes unused services.
_BREW_SERVICES_PERSIST = frozenset({"start", "restart"})
_BREW_SERVICES_OTHER = frozenset({"run", "stop", "kill", "list", "info", "cleanup"})


def _brew_services(call: Call, base: Handler, rest: list[Word]) -> None:
    """``brew services SUBCOMMAND``: start/restart register the service to start at every login or boot,
    persistence graded as ``systemctl --user enable`` (destructive on the host); a subcommand not listed or only
    known when it runs is destructive."""
    verb = next((w for w in rest if w.value is None or not w.value.startswith("-")), None)
    if verb is not None and verb.value is None:
        destructive(call, "dynamic-argument", "The brew services command is only known when it runs.")
        return
    if verb is not None and verb.value not in _BREW_SERVICES_PERSIST | _BREW_SERVICES_OTHER:
        destructive(call, "unrecognised-use", f"brew services {show(verb)} is not a brew services command.")
        return
    base(call)
    if verb is not None and verb.value in _BREW_SERVICES_PERSIST:
        host_destructive(
            call,
            "persistence",
            f"brew services {verb.value} registers the service to start at every login or boot (a launchd agent "
            "or systemd --user unit): persistence the owner must see, as systemctl --user enable.",
        )


def snap(base: Handler) -> Handler:
    """snap: ``snap run`` runs a program; ``snap try`` installs an unpacked directory (its hooks run)."""

    def handler(call: Call) -> None:
        command = next((w for w in call.args if w.value is None or not w.value.startswith("-")), None)
        if command is not None and command.value in (None, "run", "try"):
            destructive(call, "runs-program", f"snap {show(command)} runs a program the classifier cannot see.")
            return
        base(call)
        values = [w.value or "" for w in call.args]
        if command is not None and command.value == "remove":
            _removal(call, "snap remove")
        if "--dangerous" in values:
            _unsigned(call, "snap install --dangerous")
        if command is not None and command.value in ("install", "refresh", "download"):
            _downloads(call, f"snap {command.value}")
        if command is not None and command.value == "install":
            for value in values[values.index("install") + 1 :]:
                if not value.startswith("-") and _local_file(value, (".snap",)):
                    _local(call, value)

    handler.__name__ = "snap"
    return handler


def apk(base: Handler) -> Handler:
    """apk(8): ``del`` removes; ``add --allow-untrusted`` installs unsigned packages; a local ``.apk`` file or URL
    runs its scripts unseen."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value or "" for w in call.args]
        operands = [v for v in values if not v.startswith("-")]
        if operands[:1] == ["del"]:
            _removal(call, "apk del")
        if "--allow-untrusted" in values:
            _unsigned(call, "apk --allow-untrusted")
        if operands[:1] in (["add"], ["update"], ["upgrade"], ["fetch"]):
            _downloads(call, f"apk {operands[0]}")
        if operands[:1] == ["add"]:
            for package in operands[1:]:
                if _local_file(package, (".apk",)):
                    _local(call, package)
                elif package.startswith("!"):
                    # apk-world(5): "!name" is a conflict ("Prevents the package from being installed"): added to
                    # the world, it removes the package when it is installed
                    _removal(call, f"apk add {package}")

    handler.__name__ = "apk"
    return handler


def plugin_from_url(base: Handler) -> Handler:
    """asdf ``plugin add NAME URL`` and mise ``plugins install NAME URL`` / ``link NAME DIR`` (asdf "Create a
    Plugin": a plugin is a repository of shell scripts asdf runs for every install, and its ``exec-env`` at every
    call through a shim; mise plugins are asdf's): a plugin from a URL or a directory the caller names, rather than
    the tools' short-name index, is code installed into the tool (tool-plugin, destructive)."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args if w.value is None or not w.value.startswith("-")]
        if values[:1] not in (["plugin"], ["plugins"], ["p"]) or values[1:2] not in (
            ["add"],
            ["install"],
            ["i"],
            ["link"],
            ["update"],
        ):
            return
        if values[1] == "link" or any(
            v is None or "://" in v or v.startswith(("git@", "/", ".", "~")) for v in values[3:]
        ):
            tool_plugin(call, f"{call.name} {values[0]} {values[1]} of a URL or directory")

    handler.__name__ = "plugin_from_url"
    return handler


#: uv pip install|sync|compile and uv add options naming requirements, constraints and overrides files (uv CLI
#: reference, uv 0.8: ``-r/--requirements``, ``-c/--constraints``, ``--overrides``, ``-b/--build-constraints``; the
#: singular spellings are aliases). Their format is pip's ("Requirements File Format").
_UV_FILE_OPTIONS = frozenset({
    "-r", "--requirements", "--requirement", "-c", "--constraints", "--constraint", "--overrides", "--override",
    "-b", "--build-constraints", "--build-constraint", "--with-requirements",
})  # fmt: skip


#: uv's global options taking a value as the next word (uv CLI reference, "Global options").
_UV_GLOBAL_VALUES = frozenset({
    "--cache-dir", "--directory", "--project", "--config-file", "--color", "--python", "-p", "--allow-insecure-host",
})  # fmt: skip


def uv_requirements(base: Handler) -> Handler:
    """uv's requirements files in the workspace (``uv pip install -r requirements.txt``, ``uv pip sync FILE``,
    ``uv add -r FILE``): what their lines include from outside the workspace, or the index they name, is graded as
    for pip (projects.py ``requirements_outside``); a file outside the workspace is the catalogue entry's
    (``project``)."""

    def handler(call: Call) -> None:
        from .projects import requirements_outside

        base(call)
        words = call.args
        values = [w.value for w in words]
        at = 0
        while at < len(values) and (values[at] or "").startswith("-"):
            at += 2 if values[at] in _UV_GLOBAL_VALUES else 1
        if at >= len(values) or values[at] not in ("pip", "add", "run"):
            return
        verb = values[at + 1] if values[at] == "pip" and at + 1 < len(values) else values[at]
        if verb not in ("install", "sync", "compile", "add", "run"):
            return
        files: list[Word] = []
        rest = words[at + 2 :] if values[at] == "pip" else words[at + 1 :]
        for index, word in enumerate(rest):
            value = word.value
            if value is None:
                continue
            if value == "--":
                break
            name, eq, attached = value.partition("=")
            if verb == "run" and name != "--with-requirements":
                if not value.startswith("-") and index > 0 and not (rest[index - 1].value or "").startswith("-"):
                    break  # the command uv runs: its words are its own
                continue
            if name in _UV_FILE_OPTIONS:
                if eq:
                    files.append(Word(attached, attached))
                elif index + 1 < len(rest):
                    files.append(rest[index + 1])
            elif value[:2] in ("-r", "-c", "-b") and len(value) > 2 and not value.startswith("--"):
                files.append(Word(value[2:], value[2:]))
            elif verb == "sync" and not value.startswith("-") and (index == 0 or rest[index - 1].value != "-p"):
                files.append(word)  # uv pip sync SRC_FILE...: requirements files
        inside = [f for f in files if f.value is not None and call.where(f) is Where.WORKSPACE]
        requirements_outside(call, f"{call.name} {values[at]}" + (f" {verb}" if values[at] == "pip" else ""), inside)

    handler.__name__ = "uv_requirements"
    return handler


#: Where operating systems and their package managers install JDKs (Debian/Ubuntu and Fedora ``/usr/lib/jvm``,
#: Oracle's RPMs ``/usr/java``, macOS ``/Library/Java/JavaVirtualMachines``, ``/opt``, the Nix store).
_SYSTEM_JDKS = (
    "/usr/lib/jvm/", "/usr/lib64/jvm/", "/usr/java/", "/Library/Java/JavaVirtualMachines/",
    "/System/Library/Java/", "/opt/", "/nix/store/",
)  # fmt: skip


def jenv_add(base: Handler) -> Handler:
    """``jenv add JAVA_HOME`` (jenv README, "Adding Your Java Environment"): registers the JDK there under
    ``~/.jenv/versions`` (a link), and every later ``java``, ``javac``, ``mvn`` run through jenv's shims where it is
    chosen runs that directory's ``bin/java``. A JDK outside the system's JDK directories (:data:`_SYSTEM_JDKS`: the
    workspace, the temp area, a home, a path only known when it runs) is a program of the caller's choosing that
    later runs: destructive (``runs-program``)."""

    def handler(call: Call) -> None:
        base(call)
        operands = [w for w in call.args if w.value is None or not w.value.startswith("-")]
        if [w.value for w in operands[:1]] != ["add"]:
            return
        for word in operands[1:]:
            value = word.value
            if value is not None and value.startswith("/") and ".." not in value.split("/"):
                if (value.rstrip("/") + "/").startswith(_SYSTEM_JDKS):
                    continue
            destructive(
                call,
                "runs-program",
                f"jenv add {show(word)} registers a JDK from outside the system's JDK directories: later java and "
                "build commands run its programs, which FlyBot does not see.",
            )
            return

    handler.__name__ = "jenv_add"
    return handler


#: Nix builtins that run a program on this machine while evaluating (Nix manual, "Built-in functions":
#: ``builtins.exec`` and ``builtins.importNative`` exist when allow-unsafe-native-code-during-evaluation is set, in
#: nix.conf too).
_NIX_NATIVE = re.compile(r"\b(?:exec|importNative)\b")
#: Nix builtins and paths that read this machine's files or environment during evaluation, whose values nix eval
#: prints (``builtins.readFile``, ``readDir``, ``getEnv``, an absolute or home path, ``fetchGit``/``fetchTree`` of a
#: local repository). A search path (``<nixpkgs>``) is the owner's channels: not a secret.
_NIX_READS = re.compile(r"\b(?:readFile|readDir|readFileType|getEnv|fetchGit|fetchTree)\b|(?:^|[\s(\[=:])~?/[\w.-]")
#: ``import PATH`` / ``callPackage PATH`` of a file path in a Nix expression (Nix manual, "import").
_NIX_IMPORT = re.compile(r"\b(?:import|callPackage|scopedImport)\s+\(?\s*(~?/[^\s;)\]}]*|\.{1,2}/[^\s;)\]}]*)")
#: nix subcommands and programs evaluating a file or expression given by -f/--file or --expr/-E (nix(1)
#: "Installables": ``--file FILE``, ``--expr EXPR``; nix-build(1), nix-shell(1), nix-instantiate(1): ``-E``, a path
#: operand).
_NIX_EVALUATES = frozenset({"eval", "build", "run", "shell", "develop", "repl", "bundle", "path-info", "edit", "log"})


#: nix-build(1) options taking one value, and two (``--arg NAME EXPR``, ``--argstr NAME VALUE``, ``--option``).
_NIX_BUILD_ONE = frozenset({"-A", "--attr", "-o", "--out-link", "-I", "--include", "-j", "--max-jobs", "--cores"})
_NIX_BUILD_TWO = frozenset({"--arg", "--argstr", "--option"})


def _nix_build_files(words: list[Word]) -> list[Word]:
    """The Nix files nix-build(1) evaluates: its operands (``./default.nix`` when none), unless ``-E``/``--expr``
    makes them expressions."""
    files: list[Word] = []
    skip = 0
    for word in words:
        value = word.value
        if skip:
            skip -= 1
        elif value in ("-E", "--expr"):
            return []
        elif value in _NIX_BUILD_ONE:
            skip = 1
        elif value in _NIX_BUILD_TWO:
            skip = 2
        elif value is None or not value.startswith("-"):
            files.append(word)
    return files


#: A flake reference nix resolves through the flake registry (nix(1) "Flake references", indirect:
#: ``nixpkgs#hello``, ``flake:nixpkgs``, ``nixpkgs/nixos-24.05#hello``), the workspace's own flake (``.#app``,
#: ``./sub#app``), or a store path: any other (``github:``, ``gitlab:``, ``git+https://``, ``https://``, ``path:``,
#: an absolute path) names where the package comes from.
_NIX_INDIRECT = re.compile(
    r"^(?:flake:)?[A-Za-z][A-Za-z0-9_-]*(?:/[A-Za-z0-9._-]+)?(?:#\S*)?\Z|^\.(?:/[^#]*)?(?:#\S*)?\Z"
)


def _nix_indirect(value: str) -> bool:
    """True for an installable of :data:`_NIX_INDIRECT` (a local one without a ``..`` step) or a ``/nix/store``
    path."""
    if value.startswith("/nix/store/") and ".." not in value.split("/"):
        return True
    return _NIX_INDIRECT.match(value) is not None and ".." not in value.split("#", 1)[0].split("/")


def nix_code(base: Handler) -> Handler:
    """Nix code a nix command evaluates besides the flake it names (nix(1) "Installables"): a ``-f``/``--file`` file
    outside the workspace (or only known when it runs), and so a nix-build operand, is code FlyBot never read: destructive
    (``project-outside-workspace``); an ``--expr``/``-E`` expression calling ``exec`` or ``importNative`` runs a
    program on this machine: destructive (``runs-program``); one importing a file outside the workspace is as
    ``--file`` there; one reading files or the environment (``readFile``,
    ``getEnv``, an absolute or ``~`` path) prints what it read: ``secret-read`` (network, never downgraded), its
    output goes to the model."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        values = [w.value for w in words]
        operands = [v for v in values if v is not None and not v.startswith("-")]
        if call.name == "nix" and operands[:2] in (["profile", "install"], ["profile", "add"]):
            named = next((v for v in operands[2:] if not _nix_indirect(v)), None)
            if named is not None or any(v is None for v in values):
                chosen_source(call, f"nix profile {operands[1]} {shorten(named or '?', 60)}", listed=True)
            return
        if call.name == "nix" and (not operands or operands[0] not in _NIX_EVALUATES):
            return
        if call.name == "nix-build":
            files = _nix_build_files(words)
            if files:
                words = [*words, *(w for f in files for w in (Word("--file", "--file"), f))]
        for index, word in enumerate(words):
            value = word.value
            name, eq, attached = (value or "").partition("=")
            if name in ("-f", "--file"):
                taken = Word(attached, attached) if eq else (words[index + 1] if index + 1 < len(words) else None)
                if taken is None:
                    continue
                text = taken.value
                if text is None or "://" in text or text.startswith("~") or (call.where(taken) is not Where.WORKSPACE):
                    destructive(
                        call,
                        "project-outside-workspace",
                        f"{call.name} {name} {show(taken)} evaluates a Nix file outside the workspace (or only known "
                        "when it runs): code FlyBot does not read.",
                    )
                    return
            elif name in ("--expr", "-E"):
                taken = Word(attached, attached) if eq else (words[index + 1] if index + 1 < len(words) else None)
                if taken is None:
                    continue
                text = taken.value
                if text is None or _NIX_NATIVE.search(text):
                    destructive(
                        call,
                        "runs-program",
                        f"{call.name} {name} {show(taken)} may run programs on this machine while it evaluates "
                        "(builtins.exec, importNative).",
                    )
                    return
                imported = next(
                    (
                        m.group(1)
                        for m in _NIX_IMPORT.finditer(text)
                        if m.group(1).startswith("~") or call.where(Word(m.group(1), m.group(1))) is not Where.WORKSPACE
                    ),
                    None,
                )
                if imported is not None:
                    destructive(
                        call,
                        "project-outside-workspace",
                        f"{call.name} {name} {show(taken)} imports {imported}, a Nix file outside the workspace: code "
                        "FlyBot does not read.",
                    )
                    return
                if _NIX_READS.search(text):
                    call.flag(
                        RiskLevel.NETWORK,
                        "secret-read",
                        f"{call.name} {name} {show(taken)} reads this machine's files or environment and prints what "
                        "it read: the command's output goes to the model.",
                    )

    handler.__name__ = "nix_code"
    return handler


#: Channels conda, mamba and micromamba users take packages from as a matter of course (conda docs, "Channels":
#: ``defaults``, and the community channels hosted on anaconda.org that the conda, mamba and PyTorch install guides
#: name). Any other name is an anaconda.org account's channel (``channel_alias`` + NAME), open to anyone.
CONDA_CHANNELS = frozenset({
    "defaults", "conda-forge", "bioconda", "pytorch", "pytorch-nightly", "nvidia", "anaconda", "main", "r", "msys2",
    "pkgs/main", "pkgs/r", "pkgs/msys2",
})  # fmt: skip
_CONDA_INSTALLS = frozenset({"install", "create", "update", "upgrade"})


def _conda_config_shown(call: Call, words: list[str | None], keys: list[str | None]) -> None:
    """conda config ``--show [KEY...]`` and ``--get [KEY...]`` (conda command reference, conda config): without a
    key they print every setting, ``proxy_servers`` (a proxy's user and password) among them, as does a key only
    known when it runs or one naming a secret (``proxy_servers``, a token or password): a secret-read. Other keys
    (``channels``) only read."""
    shows = any(w is not None and (long_is(w, "--show") or long_is(w, "--get")) for w in words)
    if not shows or any(w is not None and w != "--show" and long_is(w, "--show-sources") for w in words):
        return  # --show-sources: the catalogue's secret
    if not keys or any(k is None or k.lower().startswith("proxy_servers") or secret_setting(k) for k in keys):
        call.flag(
            RiskLevel.NETWORK,
            "secret-read",
            f"{call.name} config prints settings that may hold a proxy password: its output goes to the model.",
        )


def _conda_environment_file(call: Call, words: list[Word], label: str) -> None:
    """``conda env create|update [-f FILE]`` (conda command reference, "conda env create": ``-f FILE``
    "Environment definition file (default: environment.yml)"): the file's channels, ``CHANNEL::pkg`` dependencies
    and ``pip:`` list choose where packages come from, and the pip lines may name a project outside the workspace;
    a file in the workspace is read by the adapter (settings.py ``environment FILE``) and graded as a requirements
    file is (projects.py ``requirements_outside``); one outside is graded by the catalogue entry (a project there)."""
    from .projects import requirements_outside

    file: Word | None = None
    for index, word in enumerate(words):
        value = word.value or ""
        name, eq, attached = value.partition("=")
        if name in ("-f", "--file"):
            file = Word(attached, attached) if eq else (words[index + 1] if index + 1 < len(words) else None)
        elif value.startswith("-f") and not value.startswith("--") and len(value) > 2:
            file = Word(value[2:], value[2:])
    if file is None:
        file = literal_word("environment.yml")
    if file.value is None or "://" in file.value or call.where(file) is not Where.WORKSPACE:
        return  # the catalogue entry grades a file only known when it runs, or outside, as a project there
    requirements_outside(call, f"{label} -f", [file], environment=True)


#: conda install|create|update options whose value (the next word) is no package spec: ``-n/--name ENV``,
#: ``-p/--prefix PATH`` (conda command reference, "Target Environment Specification"; a prefix is graded as a write
#: by the catalogue entry).
_CONDA_VALUE_OPTIONS = frozenset({"-n", "--name", "-p", "--prefix"})


def conda_channel(base: Handler) -> Handler:
    """conda install|create|update (conda command reference, conda 24; mamba, micromamba alike): ``-c``/``--channel
    CHANNEL`` "Additional channel to search for packages ... You can also use any name and the .condarc
    channel_alias value will be prepended" (any anaconda.org account's channel) or a local directory; a package
    spec ``CHANNEL::NAME`` names its channel too (conda "Package match specifications"). A channel other than the
    well-known ones (:data:`CONDA_CHANNELS`) is a source the command chose (chosen-source; no standing approval
    covers it). A package operand that is a path (``./x.conda``, ``/tmp/x.tar.bz2``) installs that file, its
    link scripts run: from outside the workspace, project-outside-workspace."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        operands = [w.value for w in words if w.value is None or not w.value.startswith("-")]
        if operands and operands[0] == "config":
            _conda_config_shown(call, [w.value for w in words], operands[1:])
            return
        if operands[:2] in (["env", "create"], ["env", "update"]):
            _conda_environment_file(call, words, f"{call.name} env {operands[1]}")
            return
        if not operands or operands[0] not in _CONDA_INSTALLS:
            return
        channels: list[str | None] = []
        specs: list[Word] = []
        index = 0
        while index < len(words):
            word = words[index]
            value = word.value
            index += 1
            if value is None:
                specs.append(word)
                continue
            name, eq, attached = value.partition("=")
            if value.startswith("--") and len(name) >= 4 and "--channel".startswith(name):
                channels.append(attached if eq else (words[index].value if index < len(words) else ""))
                index += 0 if eq else 1
            elif value.startswith("-c") and not value.startswith("--"):
                channels.append(value[2:] if len(value) > 2 else (words[index].value if index < len(words) else ""))
                index += 0 if len(value) > 2 else 1
            elif value in _CONDA_VALUE_OPTIONS:
                index += 1  # an environment's name or prefix
            elif not value.startswith("-"):
                specs.append(word)
                if "::" in value:
                    channels.append(value.split("::", 1)[0])
        for channel in channels:
            if channel is None or channel.strip("/") not in CONDA_CHANNELS:
                chosen_source(call, f"{call.name} from the channel {channel or '?'}", listed=True)
                return
        local_package_outside(call, specs[1:], call.name, bare_path=False)

    handler.__name__ = "conda_channel"
    return handler


#: Composer "Authentication for privately hosted packages and repositories": the settings holding credentials,
#: kept in auth.json and merged into the configuration composer config reads.
_COMPOSER_AUTH = (
    "http-basic", "bearer", "github-oauth", "gitlab-oauth", "gitlab-token", "bitbucket-oauth", "forgejo-token",
)  # fmt: skip


def composer_auth(base: Handler) -> Handler:
    """``composer config -l|--list`` prints every setting, the credentials merged from auth.json among them, and
    ``composer config KEY`` prints KEY's value (Composer CLI docs, "config": "composer config github-oauth.github.com"
    gets the token): a credential's key alone (``http-basic.HOST``, ``github-oauth.HOST``...) or the list is a
    secret read."""

    def handler(call: Call) -> None:
        base(call)
        words = [w.value for w in call.args]
        operands = [v for v in words if v is None or not v.startswith("-")]
        if operands[:1] != ["config"]:
            return
        options = {v for v in words if v is not None and v.startswith("-")}
        keys = operands[1:]
        if options & {"--unset", "-e", "--editor"}:
            return
        prints = bool(options & {"-l", "--list"}) and not keys
        if len(keys) == 1 and (keys[0] is None or keys[0].split(".", 1)[0] in _COMPOSER_AUTH):
            prints = True
        if prints:
            call.flag(
                RiskLevel.NETWORK,
                "secret-read",
                "composer config prints repository credentials (auth.json settings): its output goes to the model.",
            )

    handler.__name__ = "composer_auth"
    return handler


def yt_dlp_update(base: Handler) -> Handler:
    """``yt-dlp --update-to [CHANNEL]@[TAG]`` (yt-dlp README, "General Options": "CHANNEL can be a repository as
    well"): a channel holding ``/`` (``owner/repo``), or one only known when it runs, replaces yt-dlp with a release
    of a repository the command names: ``chosen-source``. A channel (``stable``, ``nightly``, ``master``) or tag is
    left to the entry (install)."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        for index, word in enumerate(words):
            value = word.value
            if value == "--":
                return
            if value == "--update-to":
                given = words[index + 1] if index + 1 < len(words) else None
            elif value is not None and value.startswith("--update-to="):
                given = literal_word(value.partition("=")[2])
            else:
                continue
            if given is not None and (given.value is None or "/" in given.value.partition("@")[0]):
                chosen_source(call, f"{call.name} --update-to {show(given)}", listed=True)
                return

    handler.__name__ = "yt_dlp_update"
    return handler
