"""THE TABLE: every program the classifier recognises, with the source of its rules.

Anything not listed here grades ``destructive`` (DESIGN.md: "Unrecognised => destructive").
A program is recognised only by its literal name, or as ``/usr/bin/NAME`` or
``/bin/NAME`` (those two directories hold the system's own programs on the Linux
images the backends use); any other path to a program (``./cat``, ``/tmp/x/cat``)
is destructive.

Containment: :data:`CONTAINED_DOWNGRADE` is the allowlist of system commands that
grade ``workspace_write`` instead of ``system`` when the escalation runs contained in
the sandbox. It is separate from :data:`SYSTEM_COMMANDS`: a program added
there later is contained-unsafe until it is also added to the allowlist.

Sections (each entry: name -> handler, source of truth):

* read-only tools (``READ_ONLY``): no option of theirs writes a file or runs a program.
* viewers and readers with such an option (``man -P``, ``less +!cmd``, ``shuf -o``, ``jobs -x``, ...):
  programs/viewers.py.
* package managers' options that run programs (``apt-get -o DPkg::Pre-Invoke=...``), package removal, local
  package files and unsigned packages: programs/packages.py.
* irreversible or security-critical host changes by system commands (``chmod -R``/``chown`` of system paths,
  setuid bits, ``passwd``, new accounts and groups (``useradd``, ``adduser``, ``chpasswd``, ``usermod -aG``), ``kill 1``, firewall flushes, ``setfacl``/``chattr``, mounts,
  ``sysctl -w``, ``modprobe``, ``ldconfig DIR``, ``update-alternatives``, ``systemctl stop|mask|poweroff``, ``systemctl restart sshd``, ``service ufw stop``,
  ``reboot``, ``swapoff``, broad ``pkill -f``): programs/hostchanges.py.
* shell builtins with effects on the shell (``cd``, ``eval``, ``trap``, ...).
* file writers (``cp``, ``mv``, ``tee``, ``sed -i``, ...): see programs/files.py, programs/textproc.py.
* deletion (``rm``, ``rmdir``, ``unlink``, ``shred``): destructive everywhere.
* system commands (``SYSTEM_COMMANDS``): system on the host; downgraded only via the allowlist.
* wrappers (``env``, ``sudo``, ``xargs``, ``find``, ...): programs/wrappers.py.
* shells and interpreters: programs/shells.py.
* git: programs/git.py. Network clients: programs/net.py. Build/test/package tools:
  programs/build.py. Remote control planes (kubectl, docker, helm, terraform): programs/control.py.
* the catalogue (bot/risk/catalogue/, one module per family; handler programs/catalogue.py): programs whose
  rules are a table of subcommands and options, described as data. A name in this table wins over the catalogue.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping

from bot.risk.grader import Handler, Program
from bot.risk.model import RiskLevel

__all__ = ["CONTAINED_DOWNGRADE", "PROGRAMS", "READ_ONLY", "SYSTEM_COMMANDS", "ProgramTable", "table_rows"]

R = RiskLevel
_COREUTILS = "GNU coreutils manual (coreutils 9.x), the program's invocation section"
_BASH = "bash(1), SHELL BUILTIN COMMANDS (bash 5.2)"

#: Programs whose every use only reads (or prints): name -> source.
READ_ONLY: dict[str, str] = {
    **{
        name: _COREUTILS
        for name in (
            "cat",
            "echo",
            "pwd",
            "true",
            "false",
            "head",
            "tail",
            "wc",
            "ls",
            "dir",
            "stat",
            "du",
            "df",
            "whoami",
            "id",
            "groups",
            "uname",
            "basename",
            "dirname",
            "realpath",
            "readlink",
            "cut",
            "tr",
            "comm",
            "nl",
            "fold",
            "paste",
            "join",
            "tac",
            "seq",
            "sleep",
            "expr",
            "printenv",
            "md5sum",
            "sha1sum",
            "sha224sum",
            "sha256sum",
            "sha384sum",
            "sha512sum",
            "b2sum",
            "cksum",
            "sum",
            "base32",
            "basenc",
            "od",
            "nproc",
            "fmt",
            "pr",
            "expand",
            "unexpand",
            "numfmt",
            "factor",
            "tsort",
            "users",
            "who",
            "logname",
            "tty",
            "yes",
            "pathchk",
        )
    },
    **{
        name: _BASH
        for name in (
            ":",
            "set",
            "shopt",
            "exit",
            "return",
            "shift",
            "break",
            "continue",
            "times",
            "type",
            "help",
            "caller",
            "dirs",
            "disown",
            "suspend",
            "false",
            "true",
            "echo",
            "pwd",
            "ulimit",
        )
    },
    "grep": "GNU grep manual (grep 3.x): no option writes or runs programs",
    "egrep": "GNU grep manual",
    "fgrep": "GNU grep manual",
    "diff": "GNU diffutils manual: diff",
    "cmp": "GNU diffutils manual: cmp",
    "which": "which(1)",
    "whereis": "whereis(1)",
    "column": "column(1) (util-linux)",
    "rev": "rev(1) (util-linux)",
    "hexdump": "hexdump(1) (util-linux)",
    "strings": "strings(1) (binutils)",
    "ps": "ps(1) (procps-ng)",
    "pgrep": "pgrep(1) (procps-ng)",
    "free": "free(1) (procps-ng)",
    "uptime": "uptime(1) (procps-ng)",
    "locale": "locale(1)",
    "lsof": "lsof(8)",
    "netstat": "netstat(8)",
    "jq": "jq 1.7 manual: jq has no file-writing or program-running feature",
    "apt-cache": "apt-cache(8): queries the package cache only",
    "dpkg-query": "dpkg-query(1)",
    "lsb_release": "lsb_release(1)",
}

#: System commands: ``system`` on the host. Name -> source.
SYSTEM_COMMANDS: dict[str, str] = {
    "chmod": _COREUTILS,
    "chown": _COREUTILS,
    "chgrp": _COREUTILS,
    "systemctl": "systemctl(1)",
    "launchctl": "launchctl(1) (macOS)",
    "service": "service(8)",
    "mount": "mount(8)",
    "umount": "umount(8)",
    "apt": "apt(8)",
    "apt-get": "apt-get(8)",
    "brew": "brew(1)",
    "dnf": "dnf(8)",
    "pacman": "pacman(8)",
    "snap": "snap(8)",
    "ifconfig": "ifconfig(8)",
    "route": "route(8)",
    "iptables": "iptables(8)",
    "reboot": "reboot(8)",
    "shutdown": "shutdown(8)",
    "crontab": "crontab(1)",
    "at": "at(1)",
    # Not in the containment allowlist: system even contained.
    "kill": "kill(1)",
    "pkill": "pkill(1)",
    "killall": "killall(1)",
    "useradd": "useradd(8)",
    "usermod": "usermod(8)",
    "groupadd": "groupadd(8)",
    "passwd": "passwd(1)",
    "adduser": "adduser(8) (Debian adduser 3.13)",
    "addgroup": "addgroup(8) (Debian adduser 3.13)",
    "chpasswd": "chpasswd(8) (shadow-utils 4.16)",
    "chgpasswd": "chgpasswd(8) (shadow-utils 4.16)",
    "newusers": "newusers(8) (shadow-utils 4.16)",
    "gpasswd": "gpasswd(1) (shadow-utils 4.16)",
    "groupmod": "groupmod(8) (shadow-utils 4.16)",
    "sysctl": "sysctl(8)",
    "modprobe": "modprobe(8)",
    "ldconfig": "ldconfig(8)",
    "update-alternatives": "update-alternatives(1)",
    "hostnamectl": "hostnamectl(1)",
    "timedatectl": "timedatectl(1)",
    "ufw": "ufw(8)",
    "swapon": "swapon(8)",
    "swapoff": "swapoff(8)",
    "halt": "halt(8)",
    "poweroff": "poweroff(8)",
    "dpkg": "dpkg(1)",
    "chattr": "chattr(1)",
    "setfacl": "setfacl(1)",
    "yum": "yum(8)",
    "apk": "apk(8)",
}

#: The containment allowlist: these system commands grade workspace_write when contained.
CONTAINED_DOWNGRADE = frozenset({
    "chmod", "chown", "chgrp", "systemctl", "launchctl", "service", "mount", "umount", "apt", "apt-get", "brew",
    "dnf", "yum", "apk", "pacman", "snap", "ifconfig", "route", "iptables", "reboot", "shutdown", "crontab", "at",
})  # fmt: skip

#: Programs whose option parser handles a lone ``--help`` or ``--version`` first, printing and exiting without doing
#: anything else: GNU coreutils ("Common options": "--help Print a usage message ... and exit successfully",
#: "--version Print the version number ... and exit successfully"), findutils, diffutils, tar, gzip, grep, sed,
#: gawk, wget(1), curl(1), rsync(1), zstd, xz, bzip2. ``PROGRAM --help`` and ``PROGRAM --version`` (those two words
#: exactly, the program by its bare name) are read-only (grader ``Grader.dispatch``).
PRINTS_AND_EXITS = frozenset({
    "rm", "cp", "mv", "ln", "mkdir", "rmdir", "touch", "chmod", "chown", "chgrp", "dd", "shred", "truncate",
    "install", "tee", "cat", "ls", "head", "tail", "wc", "sort", "uniq", "cut", "paste", "tr", "split", "csplit",
    "join", "comm", "od", "base64", "basename", "dirname", "realpath", "readlink", "stat", "du", "df", "date",
    "env", "nice", "nohup", "timeout", "stdbuf", "chroot", "sync", "mktemp", "mkfifo", "mknod", "link", "unlink",
    "tac", "nl", "fold", "fmt", "pr", "expand", "unexpand", "seq", "shuf", "md5sum", "sha1sum", "sha256sum",
    "sha512sum", "b2sum", "cksum", "id", "whoami", "groups", "uname", "tty", "numfmt", "tsort", "nproc", "vdir",
    "dir", "dircolors", "pathchk", "runcon", "chcon", "sleep",
    "find", "xargs", "diff", "cmp", "sdiff", "diff3", "tar", "gzip", "gunzip", "zcat", "grep", "egrep", "fgrep",
    "sed", "gawk", "wget", "curl", "rsync", "zstd", "xz", "unxz", "bzip2", "bunzip2",
})  # fmt: skip

_DELETION = {
    "rm": _COREUTILS,
    "unlink": _COREUTILS,
    "shred": _COREUTILS,
    "userdel": "userdel(8)",
    "groupdel": "groupdel(8)",
    "deluser": "deluser(8) (Debian adduser 3.13)",
    "delgroup": "delgroup(8) (Debian adduser 3.13)",
    "rimraf": "rimraf (npm package): rm -rf",
}
#: Deleters of the files their operands name, each operand graded by where it lands (programs/files.py remove).
_REMOVERS = frozenset({"rm", "unlink", "shred", "rimraf"})
_DISK = {
    "mkfs": "mkfs(8)",
    "fdisk": "fdisk(8)",
    "sfdisk": "sfdisk(8)",
    "parted": "parted(8)",
    "wipefs": "wipefs(8)",
    "sgdisk": "sgdisk(8)",
}


#: An entry of the table before it is needed: builds the :class:`Program` (importing its handler's module) when
#: the program is first looked up.
Entry = Callable[[], Program]


def _const(level: RiskLevel, rule: str, detail: str, source: str, *, downgradable: bool = False) -> Entry:
    """An entry giving every use of the program the same finding (programs/kit.py ``const``)."""

    def load() -> Program:
        from .programs.kit import const

        return Program(const(level, rule, detail, downgradable=downgradable), source)

    return load


def _handler(target: str, source: str) -> Entry:
    """An entry for the handler ``"module:function"`` of :mod:`bot.risk.programs`, imported on first lookup."""
    module, _, function = target.partition(":")

    def load() -> Program:
        return Program(getattr(importlib.import_module(f"bot.risk.programs.{module}"), function), source)

    return load


def _system(name: str, source: str) -> Entry:
    """A system command: ``system`` (downgraded when contained and allowlisted), its queries read-only
    (programs/system.py ``QUERIES``)."""
    base = _const(
        R.SYSTEM,
        "system-command",
        "{name} changes the machine outside the workspace.",
        source,
        downgradable=name in CONTAINED_DOWNGRADE,
    )

    def load() -> Program:
        from .programs import system

        program = base()
        if name not in system.QUERIES:
            return program
        return Program(system.query(name, program.handler), source + "; queries: programs/system.py")

    return load


def _disk(name: str, source: str) -> Entry:
    """A disk partitioner or formatter: destructive, its listing uses read-only (programs/system.py ``QUERIES``:
    ``fdisk -l``, ``parted -l``)."""
    base = _const(R.DESTRUCTIVE, "disk-format", "{name} rewrites disks or partitions.", source)

    def load() -> Program:
        from .programs import system

        program = base()
        if name not in system.QUERIES:
            return program
        return Program(system.query(name, program.handler), source + "; listing: programs/system.py")

    return load


def _guarded(guard: str, entry: Entry) -> Entry:
    """``entry`` behind a package manager's guard (``"packages:apt"``): options that run programs come first."""
    module, _, function = guard.partition(":")

    def load() -> Program:
        wrap: Callable[[Handler], Handler] = getattr(importlib.import_module(f"bot.risk.programs.{module}"), function)
        program = entry()
        return Program(wrap(program.handler), program.source + f"; programs/{module}.py")

    return load


def _build() -> dict[str, Entry]:
    """Every recognised program's entry; a later line overrides an earlier one for the same name."""
    table: dict[str, Entry] = {}

    def add(names: str, target: str, source: str) -> None:
        for name in names.split():
            table[name] = _handler(target, source)

    for name, source in READ_ONLY.items():
        table[name] = _const(R.READ_ONLY, "read-only", "{name} only reads.", source)
    for name, source in SYSTEM_COMMANDS.items():
        table[name] = _system(name, source)
    # Package managers: options that run programs (programs/packages.py) before the usual grade.
    for name, guard in (
        ("apt", "apt"), ("apt-get", "apt"), ("apt-cache", "apt"), ("dpkg", "dpkg"), ("dnf", "dnf"), ("yum", "dnf"),
        ("pacman", "pacman"), ("brew", "brew"), ("snap", "snap"), ("apk", "apk"),
    ):  # fmt: skip
        table[name] = _guarded(f"packages:{guard}", table[name])
    # Irreversible or security-critical host changes (programs/hostchanges.py) on top of the usual grade.
    for name, guard in (
        ("passwd", "passwd"), ("useradd", "useradd"),
        ("usermod", "useradd"), ("groupadd", "useradd"), ("adduser", "account"), ("addgroup", "account"),
        ("chpasswd", "account"), ("chgpasswd", "account"), ("newusers", "account"), ("gpasswd", "account"),
        ("groupmod", "account"), ("kill", "kill"), ("pkill", "pkill"), ("killall", "pkill"),
        ("iptables", "iptables"), ("ufw", "ufw"), ("setfacl", "setfacl"), ("chattr", "chattr"), ("mount", "mount"),
        ("umount", "mount"), ("sysctl", "sysctl"), ("swapoff", "swapoff"), ("update-alternatives", "alternatives"),
        ("modprobe", "modprobe"), ("ldconfig", "ldconfig"), ("systemctl", "systemctl"), ("reboot", "power"),
        ("shutdown", "power"), ("poweroff", "power"), ("halt", "power"), ("launchctl", "launchctl"), ("service", "service"),
        ("ifconfig", "ifconfig"), ("route", "route"),
    ):  # fmt: skip
        table[name] = _guarded(f"hostchanges:{guard}", table[name])
    # chmod, chown, chgrp: each FILE graded as a write where it lands, plus the host changes above.
    for name, function in (("chmod", "chmod"), ("chown", "chown"), ("chgrp", "chown")):
        table[name] = _handler(f"hostchanges:{function}", SYSTEM_COMMANDS[name] + "; programs/hostchanges.py")
    for name, source in _DELETION.items():
        if name in _REMOVERS:
            table[name] = _handler("files:remove", source + "; programs/files.py remove")
        else:
            table[name] = _const(R.DESTRUCTIVE, "deletion", "{name} deletes.", source)
    for name, source in _DISK.items():
        table[name] = _disk(name, source)
    for suffix in ("ext2", "ext3", "ext4", "xfs", "btrfs", "vfat", "fat", "ntfs", "exfat"):
        table[f"mkfs.{suffix}"] = _const(
            R.DESTRUCTIVE, "disk-format", "{name} rewrites disks or partitions.", "mkfs(8)"
        )

    # Shell builtins with effects on the shell.
    add("cd", "basic:cd", _BASH + ": cd")
    add("pushd", "basic:pushd", _BASH + ": pushd")
    add("popd", "basic:popd", _BASH + ": popd")
    add("test [ let wait", "basic:evaluating_builtin", _BASH + "; ARITHMETIC EVALUATION")
    add("read mapfile readarray getopts", "basic:assigning_builtin", _BASH + ": read, mapfile, getopts")
    add("printf", "basic:printf", _BASH + ": printf")
    add("date", "basic:date", _COREUTILS + ": date --set")
    add("hostname", "basic:hostname", "hostname(1)")
    add("eval", "shells:eval_", _BASH + ": eval")
    add("source .", "shells:source", _BASH + ": source")
    add("trap", "shells:trap", _BASH + ": trap")
    add("umask", "shells:umask", _BASH + ": umask")

    # Schedulers: the scheduled code is graded like `... | sh` (programs/schedule.py).
    add("at batch", "schedule:at", "at(1) (at 3.2): -f, -l, -r/-d, -c; jobs run with /bin/sh in this directory")
    add("atq", "schedule:atq", "atq(1)")
    add("atrm", "schedule:atrm", "atrm(1)")
    add("crontab", "schedule:crontab", "crontab(1), crontab(5) (cronie 1.7): -l, -r, -e, -T, FILE, -")

    # Viewers and readers with an option that runs a program or writes (programs/viewers.py).
    add("man", "viewers:man", "man(1) (man-db): -P/--pager, -H/--html, -X, -C/--config-file, -r/--prompt")
    add("less", "viewers:less", "less(1): +cmd, -+, -k/--lesskey-*, -o/-O/--log-file")
    add("more", "viewers:more", "more(1) (util-linux): +NUM; macOS/BusyBox more is less")
    add("shuf", "viewers:shuf", _COREUTILS + ": shuf -o")
    add("ptx", "viewers:ptx", _COREUTILS + ": ptx -G INPUT OUTPUT")
    add("diff3", "viewers:diff3", "GNU diffutils manual: diff3 --diff-program")
    add("ss", "viewers:ss", "ss(8) (iproute2): -K/--kill, -D/--diag")
    add("file", "viewers:file_", "file(1): -C/--compile")
    add("history", "viewers:history", _BASH + ": history -a/-w")
    add("jobs", "viewers:jobs", _BASH + ": jobs -x")

    # Shells and interpreters.
    add("bash sh zsh dash", "shells:shell", "bash(1) INVOCATION; zsh(1); dash(1)")
    add(
        "python python3 python2 " + " ".join(f"python3.{minor}" for minor in range(6, 15)),
        "shells:python",
        "python(1), Command line and environment",
    )
    add("node nodejs", "shells:node", "node(1) (Node.js CLI docs)")
    add("perl ruby php", "shells:other_interpreter", "perl(1) perlrun; ruby(1); php(1)")
    # tsx (tsx.is "Node.js CLI", 4.x: ``tsx FILE`` runs a TypeScript program as node runs one, ``-e``/``--eval``,
    # ``-v``/``--version``); ts-node (README, 10.x: ``ts-node FILE``, ``-e``/``--eval``, ``-v``/``--version``)
    add("tsx ts-node", "shells:other_interpreter", "tsx (tsx.is, 4.x); ts-node README (10.x)")

    # Wrappers.
    add("env", "wrappers:env", _COREUTILS + ": env")
    add("timeout", "wrappers:timeout", _COREUTILS + ": timeout")
    add("nice", "wrappers:nice", _COREUTILS + ": nice")
    add("arch", "wrappers:arch", _COREUTILS + ": arch; macOS arch(1) (runs a program under an architecture)")
    add("nohup", "wrappers:nohup", _COREUTILS + ": nohup")
    add("stdbuf", "wrappers:stdbuf", _COREUTILS + ": stdbuf")
    add("time", "wrappers:time_", "bash(1) Pipelines (time); GNU time(1)")
    add("ionice", "wrappers:ionice", "ionice(1) (util-linux)")
    add("setsid", "wrappers:setsid", "setsid(1) (util-linux)")
    add("command", "wrappers:command", _BASH + ": command")
    add("builtin", "wrappers:builtin", _BASH + ": builtin")
    add("exec", "wrappers:exec_", _BASH + ": exec")
    add("xargs", "wrappers:xargs", "GNU findutils manual: xargs")
    add("find", "wrappers:find", "GNU findutils manual: find (4.9)")
    add("sudo", "wrappers:sudo", "sudo(8)")
    add("sudoedit", "wrappers:sudoedit", "sudoedit(8)")
    add("watch", "wrappers:watch", "watch(1) (procps-ng): sh -c of the joined words unless -x")
    add("parallel", "wrappers:parallel", "GNU parallel(1): command template, ::: inputs, -S remote")
    add("su", "wrappers:su", "su(1) (util-linux): -c, -s, -l")
    add("script", "wrappers:script", "script(1) (util-linux): -c, FILE")

    # File writers and filters.
    add("touch", "files:touch", _COREUTILS + ": touch")
    add("mkdir", "files:mkdir", _COREUTILS + ": mkdir")
    add("rmdir", "files:rmdir", _COREUTILS + ": rmdir (removes only empty directories)")
    add("cp", "files:cp", _COREUTILS + ": cp")
    add("mv", "files:mv", _COREUTILS + ": mv")
    add("install", "files:install", _COREUTILS + ": install")
    add("ln", "files:ln", _COREUTILS + ": ln")
    add("dd", "files:dd", _COREUTILS + ": dd")
    add("tee", "files:tee", _COREUTILS + ": tee")
    add("sponge", "files:sponge", "sponge(1) (moreutils 0.69)")
    add("truncate", "files:truncate", _COREUTILS + ": truncate")
    add("mktemp", "files:mktemp", _COREUTILS + ": mktemp")
    add("sort", "files:sort", _COREUTILS + ": sort")
    add("uniq", "files:uniq", _COREUTILS + ": uniq")
    add("xxd", "files:xxd", "xxd(1)")
    add("base64", "files:base64", "base64(1) (macOS: -o/--output; GNU coreutils: one FILE)")
    add("unzip", "files:unzip", "unzip(1) (Info-ZIP)")
    add("zip", "files:zip_", "zip(1) (Info-ZIP)")
    add(
        "gzip gunzip zcat bzip2 bunzip2 bzcat xz unxz xzcat zstd unzstd zstdcat",
        "files:compressor",
        "gzip(1), bzip2(1), xz(1), zstd(1)",
    )
    add("patch", "files:patch", "GNU patch(1)")
    add("rg", "files:rg", "rg(1) (ripgrep): --pre")
    add("fd fdfind", "files:fd", "fd(1): --exec")
    add("tree", "files:tree", "tree(1): -o")
    add("yq", "files:yq", "yq docs (mikefarah): --inplace")
    add("sed", "textproc:sed", "GNU sed manual: Invocation, sed scripts, the s command")
    add("awk gawk mawk nawk", "textproc:awk", "POSIX awk; GNU awk manual: Redirection, Built-in Functions")
    add("tar", "archive:tar", "GNU tar manual: Operations and Options")

    # git, network, build and control planes.
    add("git", "git:git", "git(1) and git-<subcommand>(1) (git 2.4x)")
    add("curl", "net:curl", "curl(1)")
    add("wget", "net:wget", "wget(1)")
    add("ssh", "net:ssh", "ssh(1), ssh_config(5)")
    add("scp", "net:scp", "scp(1)")
    add("sftp", "net:sftp", "sftp(1)")
    add("rsync", "net:rsync", "rsync(1)")
    add("nc netcat ncat", "net:netcat", "nc(1) (OpenBSD netcat); ncat(1)")
    add(
        "ping ping6 dig host nslookup traceroute telnet ftp whois",
        "net:plain_network",
        "ping(8), dig(1), host(1), telnet(1)",
    )
    add("make gmake", "build:make", "GNU make manual: Options Summary; Standard Targets")
    add("npm pnpm yarn", "build:js_package_manager", "npm CLI commands (docs.npmjs.com/cli/v10); pnpm CLI; yarn CLI")
    add("npx", "build:npx", "npm exec / npx (docs.npmjs.com/cli/v10/commands/npx): known build/check tools only")
    add("just", "projects:just", "just manual (just.systems/man): recipes, dependencies, set shell")
    add("tox", "projects:tox", "tox docs (tox.wiki): -e, [testenv] commands")
    add("poetry", "projects:poetry", "poetry CLI docs (python-poetry.org/docs/cli)")
    add("pip pip3", "build:pip", "pip.pypa.io: Commands")
    add("cargo", "build:cargo", "The Cargo Book: Commands")
    add("go", "build:go", "go command docs (pkg.go.dev/cmd/go)")
    add("bun", "build:bun", "Bun CLI docs (bun.sh/docs/cli) (Bun 1.2); Lifecycle scripts")
    add("dune", "build:dune", "dune docs: command-line interface (dune.readthedocs.io/en/stable/usage.html)")
    add(
        "pytest py.test mypy ruff black isort flake8 pylint eslint prettier tsc jest vitest rustfmt gofmt",
        "build:checker", "each tool's CLI docs: they run the project's code or rewrite its sources in the workspace",
    )  # fmt: skip
    add("kubectl", "control:kubectl", "kubectl reference (kubernetes.io)")
    add(
        "docker podman nerdctl",
        "control:docker",
        "docker CLI reference (docs.docker.com); nerdctl: the same commands (github.com/containerd/nerdctl)",
    )
    add(
        "docker-compose podman-compose",
        "control:docker_compose",
        "docker compose reference (docs.docker.com); podman-compose takes the same commands",
    )
    add("helm", "control:helm", "helm docs (helm.sh/docs/helm)")
    add("terraform tofu", "control:terraform", "terraform CLI docs (developer.hashicorp.com)")
    for name in ("aws", "gcloud", "az", "gsutil", "gh", "glab"):
        add(name, f"cloud:{name}", _CLOUD_SOURCES[name])
    add("ip", "system:ip", "ip(8) (iproute2): OBJECT [show|list|get]; -batch; netns exec")
    add("nft", "system:nft", "nft(8): list, describe, monitor, -c/--check; -f/-i")
    add("psql", "databases:psql", "psql(1) (PostgreSQL 17); SQL parsed with sqlglot (postgres)")
    add("mysql mariadb", "databases:mysql", "mysql(1) (MySQL 8.4 client); SQL parsed with sqlglot (mysql)")
    add("sqlite3", "databases:sqlite3", "sqlite3 CLI (sqlite.org/cli.html); SQL parsed with sqlglot (sqlite)")
    add("redis-cli", "databases:redis_cli", "redis-cli docs; redis.io/commands")
    add("mongosh", "databases:mongosh", "mongosh docs (--eval, --file); db.C.METHOD shapes only")
    add(
        "clickhouse-client",
        "databases:clickhouse_client",
        "clickhouse-client (ClickHouse 24.8); SQL parsed with sqlglot (clickhouse)",
    )
    # A bare glob that may expand to an option of a program whose options run programs (programs/optionglobs.py).
    for name in ("tar", "rsync", "zip", "scp"):
        table[name] = _guarded("optionglobs:option_globs", table[name])
    table["find"] = _guarded("optionglobs:find_globs", table["find"])
    return table


_CLOUD_SOURCES = {
    "aws": "AWS CLI v2 command reference; operations by verb (describe-/list-/get- read, delete-/terminate- delete)",
    "gcloud": "gcloud reference (cloud.google.com/sdk/gcloud/reference): GROUP... VERB",
    "az": "az reference (learn.microsoft.com/cli/azure/reference-index): GROUP... VERB",
    "gsutil": "gsutil commands (cloud.google.com/storage/docs/gsutil)",
    "gh": "GitHub CLI manual (cli.github.com/manual): GROUP VERB, gh api -X",
    "glab": "glab docs (gitlab.com/gitlab-org/cli docs): GROUP VERB, glab api -X",
}


def _catalogued(family: str, key: str) -> Entry:
    """An entry of the catalogue (bot/risk/catalogue/): compiled by programs/catalogue.py on first lookup."""

    def load() -> Program:
        from .catalogue import family as catalogue_family
        from .programs.catalogue import compile_entry

        spec = catalogue_family(family)[key]
        return Program(compile_entry(key.split()[0], spec), str(spec.get("source", "")) + f"; catalogue/{family}.py")

    return load


def _catalogue() -> dict[str, Entry]:
    """Every catalogued program's entry (reads the catalogue's family modules, compiles nothing)."""
    from .catalogue import index

    return {name: _catalogued(family, key) for name, (family, key) in index().items()}


class ProgramTable(Mapping[str, Program]):
    """The table as a read-only mapping ``name -> Program`` that loads each program's rules when it is first looked
    up: grading ``ls -la`` imports none of the handler modules of git, docker, psql ... (the agent adapters start on
    every tool call). ``more`` gives further entries (the catalogue), read once, on the first lookup of a name the
    core entries do not hold; on a name in both the core entry wins. Membership (``in``), ``len`` and iteration load
    no handler; ``table[name]`` and ``get`` load that one program (thread-safe: a program loaded twice at once gives
    equal handlers).
    """

    __slots__ = ("_entries", "_loaded", "_more", "_more_entries")

    def __init__(self, entries: Mapping[str, Entry], more: Callable[[], Mapping[str, Entry]] | None = None) -> None:
        self._entries = dict(entries)
        self._loaded: dict[str, Program] = {}
        self._more = more
        self._more_entries: Mapping[str, Entry] | None = None

    def _entry(self, name: str) -> Entry | None:
        entry = self._entries.get(name)
        if entry is not None or self._more is None:
            return entry
        if self._more_entries is None:
            self._more_entries = self._more()
        return self._more_entries.get(name)

    def _names(self) -> dict[str, None]:
        names = dict.fromkeys(self._entries)
        if self._more is not None:
            if self._more_entries is None:
                self._more_entries = self._more()
            names.update(dict.fromkeys(self._more_entries))
        return names

    def __getitem__(self, name: str) -> Program:
        program = self._loaded.get(name)
        if program is None:
            entry = self._entry(name)
            if entry is None:
                raise KeyError(name)  # not a recognised program
            program = self._loaded[name] = entry()
        return program

    def get(self, name: str, default: Program | None = None) -> Program | None:  # type: ignore[override]
        """The program named ``name`` (loaded now if needed), or ``default``."""
        program = self._loaded.get(name)
        if program is not None:
            return program
        return self[name] if self._entry(name) is not None else default

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._entry(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


#: The table, by program name (read-only; each program's handler module is imported on its first lookup).
PROGRAMS = ProgramTable(_build(), _catalogue)


def table_rows() -> list[tuple[str, str, str]]:
    """(name, handler, source) for every recognised program, sorted: for docs and the CLI (loads every program)."""
    return sorted((name, p.handler.__name__, p.source) for name, p in PROGRAMS.items())
