"""Irreversible or security-critical changes to the machine made by system commands.

Each guard wraps a system command's usual grade (``system``; its queries ``read_only``, programs/system.py) and adds a
``destructive`` finding on the host for the uses below (kit.host_destructive: contained, the program keeps its
contained grade, since the sandbox is discarded). Sources, per program:

* chmod(1), chown(1), chgrp(1) (GNU coreutils): ``-R``/``--recursive`` on a path outside the workspace (or one only
  known when it runs); any change to a protected path (sensitive.py: system trees, login and credential files);
  ``--no-preserve-root``; chmod's setuid/setgid bits (symbolic ``u+s``, ``g=s``, ``+s``; octal with a 4000 or 2000
  bit, chmod(1) "SETUID AND SETGID BITS"), which make a program run as its owner. With ``-R`` and ``-L`` ("traverse
  every symbolic link to a directory"; chown(1), chgrp(1), BSD chmod(1)) the change reaches wherever a link below a
  workspace operand leads: each such link's real path is graded as a recursive change there (the adapter lists them,
  grader ``links_below``); ``-P`` (the default) and ``-h`` do not traverse, ``-H`` only the operands themselves.
* passwd(1): any change (``-d`` deletes the password, ``-u``, ``-l``, a new password, ``-e``, ...); ``-S`` only shows.
* useradd(8), groupadd(8), adduser(8), addgroup(8) (Debian adduser), chpasswd(8), chgpasswd(8), newusers(8),
  gpasswd(1), groupmod(8): every use but ``--help``/``--version`` (and ``useradd -D`` alone, which prints the
  defaults): a new account, group, password or membership is a way back into the machine that outlives the task.
  usermod(8): ``-a``/``--append``, ``-G``/``--groups`` (group membership), and, as for useradd, UID or GID 0
  (``-u 0``, ``-g 0``, ``-g root``), ``-o``/``--non-unique`` (a second account with an existing UID),
  ``-p``/``--password``; ``-L``/``-U`` (as ``passwd -l|-u``), ``-e`` (as ``chage -E``), any change to root's
  account, and a login shell outside ``/bin``, ``/usr/bin``, ``/sbin``, ``/usr/sbin``; its other changes (a
  comment, a system login shell) keep the system grade. userdel(8), deluser(8), groupdel(8), delgroup(8) delete
  (table.py: destructive everywhere).
* kill(1) (procps-ng, util-linux, bash builtin): signalling PID 1 (init), ``-1`` (every process the caller may
  signal) or any other negative PID (a whole process group), in any spelling bash reads as that number (``01``,
  ``+1``); util-linux kill's process names as pkill's exact names; pkill(1), killall(1): a pattern naming ``init``,
  ``systemd``, ``sshd`` or another process that keeps the machine running or reachable (macOS: ``launchd``,
  ``loginwindow``, ``WindowServer``), selecting root's processes
  (``-u root``, ``--euid 0``, ``-G root``), init's children (``-P 1``: every service), init's process group or
  session, or a selection only known when it runs with no pattern; pkill's ``--inverse``. pkill's pattern is an
  extended regular expression searched in the process name (pgrep(1)): one with regular-expression operators
  (``^$*+?[](){}|\\``), or whose ``.`` wildcards may find such a name (``pkill .``, ``pkill ssh``, ``-i`` folding
  case), is destructive; with ``-f``/``--full`` (killall's ``-r``/``--regexp``) a broad pattern is: one with
  regular-expression operators, fewer than 4 characters other than ``.``, or naming part of such a process
  (``pkill -9 -f .`` matches every process). Long options are matched with their getopt abbreviations
  (``--par=1``). A literal ``-f`` pattern of 4 or more characters (``pkill -f my-dev-server``) and a plain name
  (``pkill node``) keep the system grade.
* iptables(8): ``-F``/``--flush``, ``-X``/``--delete-chain``, ``-P``/``--policy`` (flushing or opening the firewall);
  a rule appended, inserted or replaced whose target (``-j``/``-g``, iptables-extensions(8)) drops, rejects or
  redirects traffic (``DROP``, ``REJECT``, ``DNAT``, ``REDIRECT``...).
* ufw(8): ``disable``, ``reset``, ``default allow``; ``enable``, ``deny``, ``reject`` (cutting traffic off).
* ifconfig(8): ``down``, ``del``; route(8): ``del``, ``flush``, ``add``/``change`` of the default route.
* setfacl(1) (acl): ``-R``/``--recursive`` outside the workspace, any protected path, ``--restore`` (paths named
  in a file); chcon(1) (coreutils): ``-R`` outside the workspace, any protected path (its SELinux context decides
  which confined programs may read or run it). chattr(1) (e2fsprogs): any change of the immutable or append-only attribute (``i``, ``a``), ``-R``
  outside the workspace, any protected path.
* mount(8), umount(8) (util-linux): every use but listing (programs/system.py): a mount over a system directory,
  a remount read-write, a lazy unmount of ``/`` change what every program on the host sees.
* sysctl(8) (procps-ng): ``-w``, ``NAME=VALUE``, ``-p``/``--load``, ``--system`` set kernel parameters (ASLR,
  ptrace scope, forwarding).
* modprobe(8) (kmod): loading or removing a kernel module; ``-n``/``--dry-run``, ``--show-depends``,
  ``-c``/``--showconfig``, ``-D`` only print. ldconfig(8): a directory operand, ``-f``/``-C``/``-r`` (a library
  search path or cache of the caller's choosing); plain ``ldconfig`` keeps the system grade.
* update-alternatives(1): ``--install``, ``--set``, ``--config``, ``--remove``, ``--remove-all``, ``--auto``,
  ``--all``, ``--set-selections`` repoint system commands (``/usr/bin/editor``, ``/usr/bin/sudo``).
* systemctl(1): ``mask``, ``stop``, ``disable``, ``kill``, ``isolate``, ``poweroff``, ``reboot``, ``halt``,
  ``kexec``, ``suspend``, ``hibernate``, ``hybrid-sleep``, ``suspend-then-hibernate``, ``soft-reboot``, ``rescue``,
  ``emergency``, ``default``, ``exit``, ``switch-root``, ``daemon-reexec``, ``set-default``, ``freeze``, ``clean``
  (stopping or masking a unit may cut off sshd or the firewall); ``restart``, ``try-restart``,
  ``reload-or-restart``... of a ``.slice`` or ``.scope`` (it stops every unit in it: ``user.slice`` every login
  session, ``system.slice`` every service); ``--job-mode=isolate`` (``-i``); any unit that is
  a special target (systemd.special(7): ``poweroff.target``, ``reboot.target``, ``halt.target``, ``kexec.target``,
  ``rescue.target``, ``emergency.target``, ``shutdown.target``, ``sleep.target``, ``suspend.target``,
  ``hibernate.target``, ``final.target``, ``exit.target``, ``soft-reboot.target``, ``runlevel0.target``,
  ``runlevel1.target``, ``runlevel6.target``, ``umount.target``, ``factory-reset.target``) or a glob; any use but a
  stop of ``debug-shell.service`` (a root shell on a console with no login: systemd-debug-generator(8)); a verb or unit only known
  when it runs; ``set-environment``, ``unset-environment``, ``import-environment`` (the environment of every unit
  started later); ``enable``, ``reenable``, ``link``, ``preset``, ``preset-all``, ``add-wants``, ``add-requires``
  (with ``--user`` too: code that runs at every boot or login, persistence); ``edit`` (a drop-in or unit file the
  unit runs at its next start: persistence), ``revert``, ``set-property``, ``bind``, ``mount-image``
  (:data:`_SYSTEMCTL_REWRITES`); ``log-target``, ``log-level``, ``service-watchdogs``, ``service-log-target``,
  ``service-log-level`` given a value (:data:`_SYSTEMCTL_LOGGING`); ``restart``, ``try-restart``,
  ``reload-or-restart``... of a unit that guards the machine (:data:`SECURITY_UNITS`: ``ufw``, ``firewalld``,
  ``auditd``, ``systemd-journald``, ``sshd``, ``dbus``, ``systemd-logind``, ``NetworkManager``, ``user@UID``...:
  the restart stops it first, so rules, records, sessions or the network are gone until it is back, or for good when it fails to
  start again), or of the Docker daemon (``docker``, ``docker.socket``: its stop shuts down every running container,
  Docker docs "Live restore"; not ``containerd``, whose containers outlive it under their shims); ``start`` or a
  restart of a unit that opens the machine to other machines (:data:`REMOTE_ACCESS_UNITS`: ``sshd``, ``xrdp``,
  ``vncserver@:1``, ``smbd``, ``nfs-server``, ``cockpit``..., rule ``remote-access``). service(8): graded as the systemctl use it makes (``service ufw stop``, ``service auditd restart``, ``service smbd start``).
  loginctl(1) ``enable-linger`` is
  persistence too (catalogue/monitors.py).
* reboot(8), shutdown(8), poweroff(8), halt(8): every use but ``shutdown -c`` (cancel), ``--help``, ``--version``.
  swapoff(8): every use but ``--help``/``--version`` (it can push the host out of memory). ``init``/``telinit``
  are not in the table (unrecognised, destructive).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from bot.risk.grader import Call, Handler
from bot.risk.options import Scan, scan
from bot.risk.paths import TEMP_ROOTS, Where
from bot.risk.reasons import shorten
from bot.risk.recipes import UNKNOWN
from bot.risk.sensitive import path_text, protected_path
from bot.risk.words import Word

from .kit import host_destructive, sets_setid, show, system

__all__ = [
    "account", "alternatives", "chattr", "chcon", "chmod", "chown", "codesign", "ifconfig", "iptables", "kill", "launchctl", "ldconfig", "modprobe", "mount", "passwd", "pkill",
    "power", "route", "security_unit", "service", "setfacl", "swapoff", "sysctl", "systemctl", "ufw", "useradd",
]  # fmt: skip

_OWN_LONG = frozenset({"--reference", "--from"})
_MODE = re.compile(r"^[ugoa]*(?:[-+=][rwxXst]*|[-+=][ugo])+(?:,[ugoa]*(?:[-+=][rwxXst]*|[-+=][ugo])+)*$|^[0-7]{1,5}$")
_ROOT_GROUPS = frozenset({"root", "sudo", "wheel", "admin", "adm", "docker", "lxd", "disk", "shadow", "0"})


def _guard(check: Callable[[Call], None]) -> Callable[[Handler], Handler]:
    """A guard over a program's base handler: ``check`` runs on the same call after ``base`` (its docstring and
    name are the guard's)."""

    def wrap(base: Handler) -> Handler:
        def handler(call: Call) -> None:
            base(call)
            check(call)

        handler.__name__ = check.__name__
        return handler

    wrap.__name__ = check.__name__
    wrap.__doc__ = check.__doc__
    return wrap


def _ownership(call: Call, *, modes: bool) -> None:
    words = call.args
    recursive = False
    traverses = False  # -L: every symbolic link to a directory met below an operand is followed (the last of H/L/P)
    operands_only = False  # -H: the operands that are links are followed
    no_dereference = False  # -h, --no-dereference: a link is changed itself
    operands: list[Word] = []
    mode: str | None = None
    reference = False
    ended = False
    for word in words:
        value = word.value
        if ended or value is None or not value.startswith("-") or value == "-":
            operands.append(word)
            continue
        if not value.startswith("--") and not (modes and _MODE.match(value)):
            for letter in value[1:]:
                if letter in "HLP":
                    traverses, operands_only = letter == "L", letter == "H"
            no_dereference = no_dereference or "h" in value[1:]
        no_dereference = no_dereference or value == "--no-dereference"
        if value == "--":
            ended = True
        elif value in ("-R", "--recursive") or (
            not value.startswith("--") and "R" in value[1:] and not (modes and _MODE.match(value))
        ):
            recursive = True
        elif value == "--no-preserve-root":
            host_destructive(
                call, "system-permissions", f"{call.name} --no-preserve-root lets a recursive change reach /."
            )
        elif value.startswith("--reference"):
            reference = True
            if modes:
                host_destructive(
                    call, "setuid", "chmod --reference copies another file's mode, setuid and setgid bits included."
                )
        elif modes and _MODE.match(value):
            operands.append(word)  # chmod -w FILE: a mode, not an option
    if not reference and operands:
        first = operands.pop(0)
        mode = first.value if modes else None
        if modes and first.value is None:
            host_destructive(call, "setuid", f"The mode {show(first)} is only known when it runs (it may set setuid).")
    if mode is not None and sets_setid(mode):
        host_destructive(
            call, "setuid", f"chmod {mode} sets the setuid/setgid bit: the program then runs as its owner."
        )
    what = f"{call.name} changes the {'mode' if modes else 'owner or group'} of"
    for target in operands:
        call.write(target, what)
    if not operands:
        system(call, f"{call.name} changes files it names only when it runs.", downgradable=True)
    # chmod(1): "for each symbolic link listed on the command line, chmod changes the permissions of the pointed-to
    # file"; chown(1) likewise (--dereference, the default) but -h, and with -R only under -H or -L
    follows_named = modes or (not recursive and not no_dereference) or (recursive and (traverses or operands_only))
    for target in operands:
        if target.value is None or call.where(target) is not Where.WORKSPACE:
            continue
        value = target.value
        glob = re.search(r"[*?\[]", value) if target.splits else None
        if glob is None and not (recursive and traverses):
            continue  # a literal operand: call.write above looks through a link it names
        head, _, pattern = value.rstrip("/").rpartition("/")
        if glob is not None:
            value = posixpath.dirname(value[: glob.start()]) or "."
        named = glob is not None and follows_named and not re.search(r"[*?\[]", head)
        for link, real in call.g.links_below(value):
            if real == UNKNOWN:
                if recursive and traverses:
                    host_destructive(
                        call,
                        "system-permissions",
                        f"{call.name} -RL follows the symbolic links below {show(target)}, which FlyBot did not "
                        f"look through ({shorten(link, 60)}): the change may reach outside the workspace.",
                    )
                break
            if not (recursive and traverses) and not (named and _names_entry(call, head or ".", pattern, link)):
                continue
            call.write(Word(real, real), f"{call.name}, through the symbolic link {shorten(link, 60)}, changes")
            if recursive and call.where(Word(real, real)) not in (Where.WORKSPACE, Where.TEMP, Where.NOWHERE):
                host_destructive(
                    call,
                    "system-permissions",
                    f"{call.name} -R follows the symbolic link {shorten(link, 60)} and changes everything under "
                    f"{shorten(real, 60)}, outside the workspace.",
                )
    for target in map(call.real, operands):
        if _temp_root(call, target):
            host_destructive(
                call,
                "system-permissions",
                f"{call.name} changes {show(target)}, the temp area every user and service shares: its mode 1777 "
                "(the sticky bit) and root's ownership keep one user from deleting or replacing another's files there.",
            )
            continue
        if protected_path(path_text(target.value, target.src)) is not None:
            continue  # graded by call.write above
        if recursive and call.where(target) not in (Where.WORKSPACE, Where.TEMP, Where.NOWHERE):
            host_destructive(
                call,
                "system-permissions",
                f"{call.name} -R changes everything under {show(target)}, outside the workspace.",
            )


def _temp_root(call: Call, target: Word) -> bool:
    """True when ``target`` may name a temp area's root itself (``/tmp``, ``/var/tmp``, ``/private/tmp``..., also
    spelled ``/tmp/.`` or ``.`` after ``cd /tmp``), not a file below it. Its mode is 1777 (FHS 3.0 "/tmp", systemd
    tmpfiles.d ``tmp.conf``: ``D /tmp 1777 root root``): chmod(1) "RESTRICTED DELETION FLAG OR STICKY BIT" -- "it
    prevents unprivileged users from removing or renaming a file in the directory unless they own the file or the
    directory"; a new mode or owner takes that away from every user of the machine, and ``-R`` changes their files."""
    if target.value is None:
        return False
    found = call.g.state.targets(target.value)
    return found is not None and any(path in TEMP_ROOTS for path in found)


def _names_entry(call: Call, directory: str, pattern: str, link: str) -> bool:
    """True when the link ``link`` (relative to the workspace) is an entry of ``directory`` (from the shell's
    directory) that the one-component glob ``pattern`` names (bash(1) "Pathname Expansion": a leading dot only when
    the pattern starts with one)."""
    from fnmatch import fnmatchcase

    state = call.g.state
    root = state.root.rstrip("/")
    name = posixpath.basename(link)
    if name.startswith(".") and not pattern.startswith("."):
        return False
    for cwd in state.cwds:
        where = posixpath.normpath(posixpath.join(cwd, directory))
        rel = "" if where == root else where[len(root) + 1 :] if where.startswith(root + "/") else None
        if rel is not None and posixpath.dirname(link) == rel and fnmatchcase(name, pattern):
            return True
    return False


def chmod(call: Call) -> None:
    """chmod(1): each FILE is graded as a write where it lands; see the module docstring."""
    _ownership(call, modes=True)


def chown(call: Call) -> None:
    """chown(1), chgrp(1): each FILE is graded as a write where it lands; see the module docstring."""
    _ownership(call, modes=False)


@_guard
def passwd(call: Call) -> None:
    """passwd(1): every use but ``-S``/``--status`` changes an account's credentials."""
    values = [w.value for w in call.args]
    if not any(v in ("-S", "--status", "--help", "-h") for v in values):
        host_destructive(call, "account-change", "passwd changes an account's password or lock.")


@_guard
def useradd(call: Call) -> None:
    """useradd(8), usermod(8), groupadd(8): UID/GID 0, non-unique ids, passwords, root-equivalent groups."""
    found = scan(
        call.args,
        "ugGpcdesfk",
        frozenset(
            {
                "--uid",
                "--gid",
                "--groups",
                "--password",
                "--comment",
                "--home-dir",
                "--expiredate",
                "--shell",
                "--inactive",
                "--skel",
                "--key",
            }
        ),
    )
    why: str | None = None
    if any(w.value is None for w in call.args):
        why = "an argument is only known when it runs"
    elif found.has("-o", "--non-unique"):
        why = "-o gives the account an id another account (root) already has"
    elif found.has("-p", "--password"):
        why = "-p sets a password"
    for word in found.values("-u", "--uid") + found.values("-g", "--gid"):
        if word.value in (None, "0", "root"):
            why = f"{show(word)} is the root id"
    for word in found.values("-G", "--groups"):
        if word.value is None or set(word.value.split(",")) & _ROOT_GROUPS:
            why = f"the groups {show(word)} give root's powers"
    if call.name == "usermod":
        why = _usermod(found) or why
        if why is None and (found.has("-a", "--append") or found.values("-G", "--groups")):
            why = "it changes the account's group membership"
    elif why is None and not _account_query(call):
        why = "it creates or changes an account or group on the machine"
    if why is not None:
        host_destructive(call, "account-change", f"{call.name}: {why}.")


def _account_query(call: Call) -> bool:
    """True when an account tool's words only print: ``--help``, ``-h``, ``--version``, ``useradd -D`` alone."""
    values = [w.value for w in call.args]
    return values in (["--help"], ["-h"], ["--version"], ["-V"]) or (call.name == "useradd" and values == ["-D"])


@_guard
def account(call: Call) -> None:
    """adduser(8), addgroup(8), chpasswd(8), chgpasswd(8), newusers(8), gpasswd(1), groupmod(8): every use but help
    and version creates or changes accounts, groups or passwords."""
    if not _account_query(call):
        host_destructive(
            call, "account-change", f"{call.name} creates or changes accounts, groups or passwords on the machine."
        )


#: Login shells usermod may set for an account other than root (shells(5): the system's programs).
_SYSTEM_SHELL_DIRS = ("/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/")


def _usermod(found: Scan) -> str | None:
    """Why a usermod(8) call is as bad as passwd or chage changing credentials: ``-L``/``--lock`` and
    ``-U``/``--unlock`` (= ``passwd -l|-u``), ``-e``/``--expiredate`` (= ``chage -E``), any change to root's account
    (its shell, home, name), a login shell outside the system's program directories."""
    account = found.operands[-1].value if found.operands else ""
    if found.has("-L", "--lock") or found.has("-U", "--unlock"):
        return "-L/-U locks or unlocks an account's password"
    if found.values("-e", "--expiredate"):
        return "-e changes when an account expires"
    if account in (None, "root", "0") and (found.opts or len(found.operands) > 1):
        return f"it changes root's account ({' '.join(o.name for o in found.opts)[:60]})"
    for word in found.values("-s", "--shell"):
        if word.value is None or not word.value.startswith(_SYSTEM_SHELL_DIRS) or ".." in word.value:
            return f"the login shell {show(word)} is a program outside the system's directories"
    return None


#: Processes that keep the host running or reachable: a pattern that may match one of these names (or a
#: full-command-line pattern holding one) may signal it.
_CRITICAL = ("init", "systemd", "sshd", "dbus-daemon", "containerd", "dockerd", "agetty", "NetworkManager", "flybot")
#: macOS's: launchd(8) ("the first process", PID 1, which starts every other), loginwindow (it owns the user's
#: login session: killing it logs the user out, quitting every application without saving) and WindowServer (the
#: display server every application draws through). Matched by a pattern that may match the name, or a full
#: command-line pattern holding it, not by every pattern found in it (``pkill -f server`` keeps its grade).
_CRITICAL_MACOS = ("launchd", "loginwindow", "WindowServer")
_REGEX_CHARS = frozenset("^$*+?[](){}|\\")
_PID = re.compile(r"^\s*([-+]?)([0-9]+)\s*$")
#: A signal word after ``-`` (signal(7) names, with or without ``SIG``, real-time ``RTMIN+N``, or a number).
_SIGNAL = re.compile(
    r"^(?:[0-9]+|(?:SIG)?(?:HUP|INT|QUIT|ILL|TRAP|ABRT|IOT|BUS|FPE|KILL|USR1|SEGV|USR2|PIPE|ALRM|TERM|STKFLT|CHLD"
    r"|CLD|CONT|STOP|TSTP|TTIN|TTOU|URG|XCPU|XFSZ|VTALRM|PROF|WINCH|IO|POLL|PWR|SYS|UNUSED|EMT|INFO|LOST"
    r"|RTMIN(?:\+[0-9]+)?|RTMAX(?:-[0-9]+)?))$"
)


def _pid(value: str) -> int | None:
    """The number bash's kill builtin reads from a PID word (``legal_number``: strtoimax base 10, blanks around it
    and a sign allowed: ``01``, ``+1`` and `` 1`` are PID 1), or None."""
    found = _PID.match(value)
    return None if found is None else int(found.group(1) + found.group(2))


@_guard
def kill(call: Call) -> None:
    """kill(1) (bash builtin, procps-ng, util-linux): signalling PID 1 (init), -1 (every process) or any other
    negative PID (a whole process group), a PID spelled as bash reads it (``01``, ``+1``); util-linux kill also
    takes process names ("all processes invoked using this name will be signaled"): a name of a process the host
    needs. The first word is the signal when it starts with ``-`` (``-9``, ``-KILL``, ``-s SIG``, ``-n NUM``); the
    words after it are process ids (``kill -9 -1``)."""
    values = [w.value for w in call.args]
    index = 0
    if values[:1] and values[0] in ("-s", "-n", "--signal"):
        index = 2
    elif values[:1] and values[0] is not None and values[0].startswith("-") and values[0] != "--":
        index = 1
    targets = values[index:]
    if targets[:1] == ["--"]:
        targets = targets[1:]
    for value in targets:
        if value is None:
            host_destructive(call, "signal-init", "A process id only known when it runs may be 1 or -1.")
            return
        number = _pid(value)
        if number in (1, -1):
            what = "init (PID 1)" if number == 1 else "every process (-1)"
            host_destructive(call, "signal-init", f"kill {_shown(value)} signals {what}.")
            return
        if number is not None and number < 0:
            host_destructive(call, "signal-init", f"kill {value.strip()} signals the whole process group {-number}.")
            return
        if number is None and not value.startswith(("-", "%")) and _names_critical(value, exact=True, fold=False):
            host_destructive(
                call, "signal-init", f"kill {_shown(value)} signals every process named so (util-linux kill)."
            )
            return


def _shown(value: str) -> str:
    """A PID word as written, quoted when blanks are part of it."""
    return repr(value) if value != value.strip() or not value else value


#: procps-ng pkill(1) 4.0 and psmisc killall(1) 23.7 long options (getopt_long takes any unambiguous prefix:
#: ``--par=1`` is ``--parent=1``), those taking a value marked ``=``.
_PKILL_LONG = (
    "--signal=", "--echo", "--queue=", "--count", "--list-name", "--list-full", "--inverse", "--lightweight",
    "--full", "--pgroup=", "--group=", "--ignore-case", "--newest", "--oldest", "--older=", "--parent=",
    "--session=", "--terminal=", "--euid=", "--uid=", "--exact", "--pidfile=", "--logpidfile", "--runstates=",
    "--ignore-ancestors", "--cgroup=", "--ns=", "--nslist=", "--env=", "--require-handler", "--help", "--version",
)  # fmt: skip
_KILLALL_LONG = (
    "--exact", "--ignore-case", "--process-group", "--younger-than=", "--older-than=", "--interactive", "--quiet",
    "--regexp", "--signal=", "--user=", "--verbose", "--version", "--wait", "--ns=", "--context=", "--list", "--help",
)  # fmt: skip
#: Short options taking a value (pkill: -g -G -P -s -t -u -U -F -q -O -r; killall: -s -u -o -y -n -Z).
_PKILL_SHORT = frozenset("gGPstuUFqOr")
_KILLALL_SHORT = frozenset("suoynZ")
#: Which long option each short one is (for the checks below).
_PKILL_NAMES = {
    "-g": "--pgroup", "-G": "--group", "-P": "--parent", "-s": "--session", "-t": "--terminal", "-u": "--euid",
    "-U": "--uid", "-F": "--pidfile", "-q": "--queue", "-O": "--older", "-r": "--runstates", "-f": "--full",
    "-i": "--ignore-case", "-x": "--exact",
}  # fmt: skip
_KILLALL_NAMES = {
    "-s": "--signal", "-u": "--user", "-o": "--older-than", "-y": "--younger-than", "-n": "--ns", "-Z": "--context",
    "-r": "--regexp", "-I": "--ignore-case", "-e": "--exact",
}  # fmt: skip


def _long(name: str, known: tuple[str, ...]) -> tuple[str, bool] | None:
    """The long option ``name`` (``--par``) stands for, and whether it takes a value; None when unknown or ambiguous."""
    exact = [k for k in known if k.rstrip("=") == name]
    found = exact or [k for k in known if k.startswith(name)]
    if len(found) != 1:
        return None
    return found[0].rstrip("="), found[0].endswith("=")


def _names_critical(pattern: str, *, exact: bool, fold: bool) -> bool:
    """True when the process-name ``pattern`` (a literal but for ``.``, which matches any character) may match a
    process the host needs: equal to one's name (``exact``) or found in it; ``fold``: case ignored."""
    compiled = re.compile(".".join(re.escape(part) for part in pattern.split(".")), re.IGNORECASE if fold else 0)
    test = compiled.fullmatch if exact else compiled.search
    return any(test(name) for name in _CRITICAL + _CRITICAL_MACOS)


def _broad(pattern: str) -> str | None:
    """Why a full-command-line pattern may match processes the host needs, or None."""
    if len(pattern.replace(".", "")) < 4:
        return "has fewer than 4 literal characters"
    if set(pattern) & _REGEX_CHARS:
        return "holds regular-expression operators"
    lowered = pattern.lower()
    for name in _CRITICAL:
        if lowered in name.lower() or name.lower() in lowered:
            return f"matches {name}"
    for name in _CRITICAL_MACOS:
        if name.lower() in lowered:
            return f"matches {name}"
    return None


def _taken(words: list[Word], index: int) -> str | None:
    """The value of an option given as the word at ``index`` (``$$``, the agent's own shell, kept as written)."""
    if index >= len(words):
        return ""
    return "$$" if words[index].src in ("$$", '"$$"') else words[index].value


def _selects_host_processes(option: str, value: str | None) -> str | None:
    """Why a pkill/killall selection option with ``value`` (None: only known when it runs) picks processes the host
    needs, or None."""
    if value is None:
        return "is only known when it runs"
    items = [item.strip() for item in value.split(",")]
    if option in ("--euid", "--uid", "--user", "--group") and any(i in ("root", "0") for i in items):
        return "selects root's processes"
    if option == "--parent" and any(_pid(i) in (0, 1) for i in items):
        return "selects init or every process it started (the host's services)"
    if option in ("--pgroup", "--session") and any(_pid(i) == 1 for i in items):
        return "selects init's process group or session"
    return None


@_guard
def pkill(call: Call) -> None:
    """pkill(1) (procps-ng 4.0), killall(1) (psmisc 23.7): a pattern that may match init, systemd, sshd or another
    process the host needs, processes selected by root's user or group, by init as parent (``-P 1``: every
    service), or by init's process group or session, and pkill's ``--inverse`` (every process but those matching).
    pkill's pattern is an extended regular expression searched in the process name (pgrep(1) "OPERANDS"), so one
    holding regular-expression operators, or one whose ``.`` wildcards may find a needed name (``pkill .``,
    ``pkill ssh``), may signal them, case folded with ``-i``; with ``-f``/``--full`` it is searched in the whole
    command line (see the module docstring). killall's names are exact (``-I`` folds case) unless ``-r``/``--regexp``
    makes them regular expressions over the name. Long options are matched with their abbreviations."""
    tool = call.name
    known, short_values, names = (
        (_PKILL_LONG, _PKILL_SHORT, _PKILL_NAMES)
        if tool == "pkill"
        else (_KILLALL_LONG, _KILLALL_SHORT, _KILLALL_NAMES)
    )
    given: set[str] = set()
    patterns: list[Word] = []
    words = call.args
    index = 0
    operands_only = False
    unknown: list[str] = []  # selections by a value only known when it runs: they matter without a pattern

    def finding(why: str) -> None:
        host_destructive(call, "signal-init", f"{tool} {why}, which keeps the machine running or reachable.")

    while index < len(words):
        word = words[index]
        value = word.value
        index += 1
        if value is None or operands_only or not value.startswith("-") or value == "-":
            patterns.append(word)
            continue
        if value == "--":
            operands_only = True
            continue
        taken: str | None
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            resolved = _long(name, known)
            if resolved is None:
                continue  # getopt refuses an unknown or ambiguous option: nothing is signalled
            option, takes = resolved
            if not takes:
                given.add(option)
                continue
            taken = attached if eq else _taken(words, index)
            index += 0 if eq else 1
            options = [(option, taken)]
        else:
            letters = value[1:]
            if _SIGNAL.match(letters):
                continue  # -9, -KILL, -SIGTERM: the signal
            options = []
            for at, letter in enumerate(letters):
                long_name = names.get(f"-{letter}", f"-{letter}")
                if letter not in short_values:
                    given.add(long_name)
                    continue
                rest = letters[at + 1 :]
                taken = rest if rest else _taken(words, index)
                index += 0 if rest else 1
                options.append((long_name, taken))
                break
        for option, taken in options:
            given.add(option)
            why = _selects_host_processes(option, taken)
            if why is None:
                continue
            if taken is None:
                unknown.append(f"{option} ?: it {why}")
            else:
                finding(f"{option} {taken}: it {why}")
                return
    if "--inverse" in given:
        finding("--inverse signals every process its pattern does not match")
        return
    if unknown and not patterns:
        finding(unknown[0])
        return
    fold = "--ignore-case" in given
    full = tool == "pkill" and "--full" in given
    regex = tool == "pkill" or "--regexp" in given
    for word in patterns:
        pattern = word.value
        if pattern is None:
            finding(f"{show(word)}: the pattern is only known when it runs, so it may name a process the host needs")
            return
        if pattern in _CRITICAL or pattern == "1":
            finding(f"signals {pattern}")
            return
        if full or (tool == "killall" and regex):
            why = _broad(pattern)
            if why is not None:
                finding(f"{show(word)}: the pattern {why}, so it may signal processes the host needs")
                return
            continue
        exact = tool == "killall" or "--exact" in given
        if (regex and set(pattern) & _REGEX_CHARS) or _names_critical(pattern, exact=exact, fold=fold):
            finding(f"{show(word)}: the pattern may match the name of a process the host needs")
            return


#: fuser(1) options taking a value, and the letters of its flags (psmisc 23.7); ``-SIGNAL`` names the signal.
_FUSER_VALUES = frozenset({"-n", "--namespace"})
_FUSER_FLAGS = frozenset("amMsuvw46lVki")
#: Directories whose files the host's own services run from or hold open (a ``fuser -k`` there kills them).
_FUSER_HOST_TREES = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/dev", "/proc", "/sys", "/boot", "/run",
                     "/var", "/opt", "/srv", "/home", "/root", "/snap", "/nix")  # fmt: skip
_FUSER_PORT = re.compile(r"(\d*)(?:,[^/]*)?(?:,[^/]*)?(?:/(tcp|udp))?")


@_guard
def fuser(call: Call) -> None:
    """fuser(1) ``-k`` (psmisc 23.7): "Kill processes accessing the file" with SIGKILL. Every process has ``/`` as
    its root directory, so ``fuser -k /`` kills them all, init too (as ``kill -9 -1``); a file under a system tree
    or a home (``/usr/sbin/sshd``, ``/dev/pts/0``, ``/home``) is held by the host's services and sessions, and a
    port below 1024 (``22/tcp``, ``-n tcp 22``) is a system service's: signal-init. A file in the workspace or the
    temp area, or an unprivileged port (``fuser -k 8080/tcp``: a development server), keeps the catalogue's grade."""
    words = call.args
    kills = False
    namespace: str | None = "file"
    operands: list[Word] = []
    index = 0
    while index < len(words):
        value = words[index].value
        index += 1
        if value is None:
            operands.append(words[index - 1])
        elif value in _FUSER_VALUES:
            namespace = words[index].value if index < len(words) else None
            index += 1
        elif value.startswith("--namespace="):
            namespace = value.partition("=")[2]
        elif value in ("--kill", "-k") or (
            value.startswith("-") and not value.startswith("--") and "k" in value and set(value[1:]) <= _FUSER_FLAGS
        ):
            kills = True
        elif not value.startswith("-") or value == "-":
            operands.append(words[index - 1])
    if not kills:
        return
    for word in operands:
        value = word.value
        why: str | None = None
        if value is None:
            why = "names a file or port only known when it runs"
        elif namespace in ("tcp", "udp") or (value[:1].isdigit() and "/" in value):
            match = _FUSER_PORT.fullmatch(value)
            if match is None or not match.group(1) or int(match.group(1)) < 1024:
                why = "is a system service's port (below 1024)"
        elif namespace is None:
            why = "names a namespace only known when it runs"
        else:
            targets = call.g.state.targets(value)
            root = call.g.state.root.rstrip("/") + "/"
            if targets is None:
                why = "is a path only known when it runs"
            elif any(
                path == "/" or path.startswith(tuple(t + "/" for t in _FUSER_HOST_TREES)) or path in _FUSER_HOST_TREES
                for path in (posixpath.normpath(t) for t in targets)
                if not (path + "/").startswith(root)
            ):
                why = "is used by the host's own services or sessions (every process has / as its root)"
        if why is not None:
            host_destructive(
                call, "signal-init", f"fuser -k {show(word)}: it {why}, so it kills processes the host needs."
            )
            return


_IPTABLES_OFF = frozenset({"-F", "--flush", "-X", "--delete-chain", "-P", "--policy"})
#: iptables-extensions(8) targets that drop traffic or send it elsewhere (NAT, redirection, queueing to a program).
_IPTABLES_CUTS = frozenset(
    {"DROP", "REJECT", "DNAT", "SNAT", "REDIRECT", "MASQUERADE", "NETMAP", "TPROXY", "NFQUEUE", "QUEUE", "TEE"}
)


@_guard
def iptables(call: Call) -> None:
    """iptables(8): flushing, deleting chains or setting a chain's policy; a rule added, inserted or replaced whose
    target drops, rejects or redirects traffic (``-j DROP``, ``-j DNAT``: it can cut the host off or hijack its
    connections, as a DROP policy does)."""
    values = [w.value for w in call.args]
    for value in values:
        if value in _IPTABLES_OFF or (
            value is not None and value.startswith("-") and not value.startswith("--") and set(value[1:]) & set("FXP")
        ):
            host_destructive(call, "firewall-off", f"iptables {value} flushes or opens the firewall.")
            return
    adds = any(
        v is None or v in ("-A", "--append", "-I", "--insert", "-R", "--replace") or (v[:2] in ("-A", "-I", "-R"))
        for v in values
    )
    for index, value in enumerate(values):
        target: str | None = "?"
        if value in ("-j", "--jump", "-g", "--goto"):
            target = values[index + 1] if index + 1 < len(values) else "?"
        elif value is not None and value.startswith(("--jump=", "--goto=")):
            target = value.split("=", 1)[1]
        elif value is not None and value.startswith("-j") and len(value) > 2:
            target = value[2:]
        else:
            continue
        if adds and (target is None or target.upper() in _IPTABLES_CUTS or target == "?"):
            host_destructive(
                call,
                "firewall-off",
                f"iptables -j {target or '(only known when it runs)'} drops or redirects the host's traffic: it can "
                "cut the machine off the network or hijack its connections.",
            )
            return
        if (
            adds
            and target is not None
            and target.upper() == "ACCEPT"
            and "OUTPUT" not in values
            and _unconditional(values)
        ):
            host_destructive(
                call,
                "firewall-off",
                "iptables -j ACCEPT with no match before it accepts every packet of the chain: rules are matched in "
                "order and the first ACCEPT ends the traversal, so the firewall is open, as with a policy ACCEPT.",
            )
            return
    table = next((values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-t", "--table")), "filter")
    for value in values:
        if (
            table == "filter"
            and value is not None
            and (value in ("-D", "--delete", "-R", "--replace") or (value[:2] in ("-D", "-R") and value[2:3].isalpha()))
        ):
            host_destructive(
                call,
                "firewall-off",
                f"iptables {value} deletes or replaces a firewall rule, which may be the one that keeps traffic out.",
            )
            return


#: iptables(8) words that are not a match: the command and its chain, rule number, table, target, waiting.
_IPTABLES_NOT_MATCHES = frozenset({"-A", "--append", "-I", "--insert", "-R", "--replace", "-t", "--table", "-j",
                                   "--jump", "-w", "--wait", "-W", "--wait-interval", "-v", "--verbose"})  # fmt: skip
_ANY_ADDRESS = frozenset({"0.0.0.0/0", "0/0", "::/0", "0.0.0.0", "::", "any"})


def _unconditional(values: list[str | None]) -> bool:
    """True when an iptables rule has no match narrower than every packet: only its command, chain, rule number,
    table and target, or ``-s``/``-d`` of any address (iptables(8) PARAMETERS: ``0.0.0.0/0`` matches all)."""
    index = 0
    while index < len(values):
        value = values[index]
        if value is None:
            return True
        if value in ("-s", "--source", "--src", "-d", "--destination", "--dst"):
            following = values[index + 1] if index + 1 < len(values) else None
            if following not in _ANY_ADDRESS:
                return False
            index += 2
            continue
        name = value.partition("=")[0]
        if (
            name.startswith("-")
            and name not in _IPTABLES_NOT_MATCHES
            and not (name[:2] in ("-A", "-I", "-R", "-t", "-j") and not name.startswith("--"))
        ):
            return False
        index += 1
    return True


@_guard
def ufw(call: Call) -> None:
    """ufw(8): ``disable``, ``reset`` and ``default allow`` turn the firewall off or open it; ``enable`` (with the
    default incoming policy ``deny`` it cuts off any connection not allowed yet, ssh too), ``deny``, ``reject``
    and ``default deny|reject`` cut traffic off."""
    operands = [w.value for w in call.args if w.value is None or not w.value.startswith("-")]
    if (
        operands[:1] in (["disable"], ["reset"], ["enable"])
        or (operands[:1] == ["default"] and "allow" in operands)
        or any(v is None or v in ("deny", "reject") for v in operands)
    ):
        host_destructive(
            call,
            "firewall-off",
            f"ufw {' '.join(v or '?' for v in operands[:3])} turns the firewall off, opens it or cuts traffic off.",
        )
        return
    if operands[:1] == ["delete"] or (
        operands[:1] == ["allow"]
        and operands[1:3] in (["from", "any"], ["from", "0.0.0.0/0"], ["from", "::/0"])
        and not any(v in ("port", "proto", "app") for v in operands)
    ):
        # ufw(8): "allow from any" with no port opens every port; "delete" removes a rule, which may be the one
        # keeping traffic out or letting ssh in
        host_destructive(
            call,
            "firewall-off",
            f"ufw {' '.join(v or '?' for v in operands[:3])} opens every port or removes a firewall rule.",
        )


@_guard
def ifconfig(call: Call) -> None:
    """ifconfig(8): ``down`` (the interface stops), ``del`` (an address removed): it can cut the host off the
    network, as ``ip link set IF down`` does."""
    for word in call.args:
        if word.value is None or word.value in ("down", "del", "-alias", "delete"):
            host_destructive(
                call, "host-change", f"ifconfig {show(word)} takes an interface down or removes an address."
            )
            return


@_guard
def route(call: Call) -> None:
    """route(8): ``del``/``delete``/``flush`` remove routes; ``add``/``change`` of the default route send every
    connection through a gateway of the caller's choosing (as ``ip route del|replace default``)."""
    values = [w.value for w in call.args]
    operands = [v for v in values if v is None or not v.startswith("-")]
    verb = operands[0] if operands else None
    if verb is None and operands:
        why = "a route command only known when it runs"
    elif verb in ("del", "delete", "flush"):
        why = f"route {verb} removes routes: it can cut the machine off the network"
    elif verb in ("add", "change", "replace") and any(
        v is None or v in ("default", "0.0.0.0", "0.0.0.0/0", "::/0", "-net") for v in values
    ):
        why = f"route {verb} changes where the machine's traffic goes"
    else:
        return
    host_destructive(call, "host-change", f"{why}.")


# -- programs whose changing uses are all irreversible on the host -------------------------------------------
def _query(call: Call) -> bool:
    """True when programs/system.py grades this use as a query (it only reads)."""
    from .system import QUERIES

    decide = QUERIES.get(call.name)
    values = [w.value for w in call.args]
    if decide is None or any(v is None for v in values):
        return False
    return decide([v for v in values if v is not None]) is not None


def _targets(call: Call, targets: list[Word], *, recursive: bool) -> None:
    """A protected path, or ``-R`` outside the workspace, among ``targets``: destructive on the host."""
    for target in map(call.real, targets):
        why = protected_path(path_text(target.value, target.src))
        if why is not None:
            host_destructive(call, "system-permissions", f"{call.name} changes {show(target)}: {why}.")
            return
        if recursive and call.where(target) not in (Where.WORKSPACE, Where.TEMP, Where.NOWHERE):
            host_destructive(
                call,
                "system-permissions",
                f"{call.name} -R changes everything under {show(target)}, outside the workspace.",
            )
            return


_SETFACL_VALUES = frozenset(
    {"-m", "-M", "-x", "-X", "--modify", "--modify-file", "--remove", "--remove-file", "--set", "--set-file"}
)


@_guard
def setfacl(call: Call) -> None:
    """setfacl(1): see the module docstring."""
    found = scan(call.args, "mMxX", _SETFACL_VALUES | frozenset({"--restore"}))
    if any(opt.name.startswith("--restore") for opt in found.opts):
        host_destructive(
            call, "system-permissions", "setfacl --restore applies the permissions a file lists, to the paths it names."
        )
        return
    recursive = any(opt.name in ("-R", "--recursive") for opt in found.opts)
    _targets(call, found.operands, recursive=recursive)


#: chcon(1) (GNU coreutils) options taking a value; given one (or ``--reference``), no operand is the CONTEXT.
_CHCON_VALUES = frozenset({"-u", "-r", "-t", "-l", "--user", "--role", "--type", "--range"})


@_guard
def chcon(call: Call) -> None:
    """chcon(1): the SELinux security context of a protected path (``chcon -t bin_t /etc/shadow``: which confined
    programs may read or run it), or ``-R`` outside the workspace, as setfacl's."""
    found = scan(call.args, "urtl", _CHCON_VALUES | frozenset({"--reference"}))
    recursive = any(opt.name in ("-R", "--recursive") for opt in found.opts)
    named = any(opt.name in _CHCON_VALUES or opt.name.startswith("--reference") for opt in found.opts)
    _targets(call, found.operands if named else found.operands[1:], recursive=recursive)


_CHATTR_MODE = re.compile(r"^[-+=][aAcCdDeFijmPsStTux]+$")


@_guard
def chattr(call: Call) -> None:
    """chattr(1): see the module docstring."""
    recursive = False
    targets: list[Word] = []
    skip = False
    for word in call.args:
        value = word.value
        if skip:
            skip = False
            continue
        if value is None:
            targets.append(word)
        elif value in ("-v", "-p"):
            skip = True
        elif _CHATTR_MODE.match(value):
            if "i" in value or "a" in value:
                host_destructive(
                    call, "system-permissions", f"chattr {value} changes the immutable or append-only attribute."
                )
                return
        elif value.startswith("-") and set(value[1:]) <= set("RVf"):
            recursive = recursive or "R" in value
        else:
            targets.append(word)
    _targets(call, targets, recursive=recursive)


def _every_change(what: str, rule: str = "host-change") -> Callable[[Handler], Handler]:
    """A guard making every use that is not a query (programs/system.py) destructive on the host."""

    def guard(base: Handler) -> Handler:
        def handler(call: Call) -> None:
            base(call)
            if not _query(call):
                host_destructive(call, rule, f"{call.name} {what}.")

        handler.__name__ = base.__name__
        return handler

    return guard


mount = _every_change("changes what every program on the host sees (a mount over a system directory, a remount)")
sysctl = _every_change("sets a kernel parameter (such as ASLR or ptrace scope)")
swapoff = _every_change("turns swap off, which can push the host out of memory")
alternatives = _every_change("repoints a system command to a program of the caller's choosing")


@_guard
def modprobe(call: Call) -> None:
    """modprobe(8): loading or removing a kernel module; its printing options only read."""
    values = [w.value for w in call.args]
    if any(
        v
        in (
            "-n",
            "--dry-run",
            "--show",
            "--show-depends",
            "-c",
            "--showconfig",
            "--show-config",
            "-D",
            "--help",
            "-h",
            "-V",
            "--version",
        )
        for v in values
    ):
        return
    host_destructive(call, "kernel-module", "modprobe loads or removes kernel code.")


@_guard
def ldconfig(call: Call) -> None:
    """ldconfig(8): a directory operand, ``-f``, ``-C`` or ``-r`` names the libraries every program loads."""
    for word in call.args:
        value = word.value
        if (
            value is None
            or not value.startswith("-")
            or value in ("-f", "-C", "-r")
            or value.startswith(("-f", "-C", "-r"))
        ):
            host_destructive(
                call, "library-path", f"ldconfig {show(word)} changes which libraries every program loads."
            )
            return


_SYSTEMCTL_HARMFUL = frozenset({
    "mask", "stop", "disable", "kill", "isolate", "poweroff", "reboot", "halt", "kexec", "suspend", "hibernate",
    "hybrid-sleep", "suspend-then-hibernate", "soft-reboot", "rescue", "emergency", "default", "exit", "switch-root",
    "daemon-reexec", "set-default", "freeze", "clean", "sleep",
})  # fmt: skip
#: systemctl(1) "Unit File Commands" that make a unit start by itself at boot (system manager) or at each login
#: (``--user``): ``enable`` ("creates a set of symlinks, as encoded in the [Install] sections"), ``reenable``,
#: ``link`` (puts a unit file outside the search path in it), ``preset``/``preset-all`` (enable as the preset
#: policy says), ``add-wants``/``add-requires`` (a dependency of a target). Persistence: destructive on the host, as
#: an irreversible-looking change the owner must see; contained, the program's contained grade.
_SYSTEMCTL_PERSIST = frozenset({"enable", "reenable", "link", "preset", "preset-all", "add-wants", "add-requires"})
#: systemctl(1) commands that rewrite a unit's configuration or what it sees, kept across restarts or boots:
#: ``edit`` ("Edit a drop-in snippet or a whole replacement file ... to extend or override the specified unit", from
#: the editor it runs or, systemd 256's ``--stdin``, from standard input: an ``ExecStartPre=`` of the caller's runs
#: as the unit's user at its next start), ``revert`` ("removes drop-in configuration files ... as well as any
#: user-configured unit file that overrides a matching vendor supplied unit file", and unmasks it: the owner's
#: overrides are gone), ``set-property`` ("applied immediately, and stored on disk for future boots": a unit's
#: ``IPAddressDeny=``, ``DeviceAllow=``, ``MemoryMax=``, systemd.resource-control(5), cut sshd off or kill every
#: session of ``user.slice``), ``bind`` and ``mount-image`` ("Bind-mounts a file or directory from the host into the
#: specified unit's mount namespace": the running service reads the caller's file in place of its own, an
#: ``sshd_config`` or ``authorized_keys``).
#: systemctl(1) "Manager State Commands"/"Unit Commands" that print a setting alone and change it given a value:
#: ``log-target [TARGET]``, ``log-level [LEVEL]``, ``service-watchdogs [yes|no]`` (the manager's: ``log-target
#: null`` drops its records, ``service-watchdogs no`` stops every service's watchdog), ``service-log-target SERVICE
#: [TARGET]``, ``service-log-level SERVICE [LEVEL]`` (``service-log-target auditd null``). The value is how many
#: operands (the verb counted) print only.
_SYSTEMCTL_LOGGING = {
    "log-target": 1,
    "log-level": 1,
    "service-watchdogs": 1,
    "service-log-target": 2,
    "service-log-level": 2,
}
_SYSTEMCTL_REWRITES = {
    "edit": ("persistence", "writes a drop-in or a whole unit file the unit runs at its next start (ExecStartPre=)"),
    "revert": ("host-change", "removes the unit's drop-ins and the owner's overriding unit file, and unmasks it"),
    "set-property": (
        "host-change",
        "changes a running unit's limits and network or device access (IPAddressDeny=, MemoryMax=), kept on disk",
    ),
    "bind": ("host-change", "bind-mounts a host file over one a running service reads (sshd_config)"),
    "mount-image": ("host-change", "mounts an image of the caller's choosing in a running service"),
}
#: systemctl(1) verbs that restart a unit. A slice or scope restarted stops every unit in it: systemd.unit(5)
#: ``Requires=`` ("If one of the other units ... is explicitly stopped (or restarted), this unit will be stopped (or
#: restarted) too"), and units in a slice require it (systemd.slice(5)); scopes cannot be started again.
_SYSTEMCTL_RESTART = frozenset({
    "restart", "try-restart", "reload-or-restart", "try-reload-or-restart", "condrestart", "force-reload",
})  # fmt: skip
#: Units that guard the machine, stopped for a while by a restart (the stop runs first: systemctl(1) "restart: Stop
#: and then start one or more units"), with the unit's own source for what stopping it does:
#:
#: * firewalls and bans: ``ufw`` (ufw-framework(8): the unit's stop runs ``ufw-init stop``, which flushes the rules),
#:   ``firewalld`` (firewalld(1)), ``nftables`` (Debian's nftables.service: ``ExecStop=/usr/sbin/nft flush
#:   ruleset``), ``netfilter-persistent``, ``iptables``, ``ip6tables``, ``ebtables``, ``fail2ban``, ``crowdsec``;
#: * mandatory access control: ``apparmor`` (apparmor(7): its stop may unload the profiles);
#: * audit and logs: ``auditd`` (auditd(8): no audit records while it is down), ``systemd-journald``
#:   (systemd-journald.service(8)), ``rsyslog``, ``syslog-ng``, ``syslog``;
#: * logins and sessions: ``ssh``/``sshd`` (sshd(8): a configuration it cannot load leaves no listener after the
#:   restart), ``dbus``/``dbus-broker`` (dbus-daemon(1): every client loses the system bus),
#:   ``systemd-logind`` (systemd-logind.service(8): sessions, seats and inhibitors), ``polkit``, the display
#:   managers (``display-manager``, ``gdm``, ``gdm3``, ``lightdm``, ``sddm``: every graphical session ends);
#: * the network: ``NetworkManager``, ``networking`` (interfaces(5) ``ifdown -a``), ``network`` (Red Hat's
#:   initscripts network.service: ``ifdown`` of every interface), ``systemd-networkd``, ``systemd-resolved``, and
#:   the tunnels the owner may reach the machine through: ``tailscaled`` (tailscaled(8)), ``wg-quick@IF``
#:   (wg-quick(8): its stop runs ``wg-quick down``), ``openvpn``, ``openvpn-client@``, ``openvpn-server@``,
#:   ``zerotier-one``, ``cloudflared`` (a Cloudflare Tunnel), ``teleport``;
#: * account lookups: ``sssd`` (sssd(8)), ``nslcd``, ``winbind``: no directory logins while it is down;
#: * FlyBot itself (``flybot``): no escalation can be answered while it is down, or after a start that fails;
#: * one user's whole login: ``user@UID`` (user@.service(5): the user's service manager; its stop ends every
#:   process of that user's units, their desktop and ``--user`` services), ``user-runtime-dir@UID`` (its stop
#:   removes ``/run/user/UID``, every socket and key agent in it), the consoles' logins ``getty@``,
#:   ``serial-getty@``, ``console-getty``, ``container-getty@``, ``autovt@`` (systemd-getty-generator(8): the stop
#:   ends the login on that terminal), and ``systemd-user-sessions`` (systemd-user-sessions.service(8): its stop
#:   writes ``/run/nologin``, which refuses every login but root's).
#:
#: Matched on the name before ``@`` and a ``.service``/``.socket`` suffix (``sshd.socket``, ``auditd.service``).
SECURITY_UNITS = frozenset({
    "ufw", "firewalld", "nftables", "netfilter-persistent", "iptables", "ip6tables", "ebtables", "fail2ban",
    "crowdsec", "apparmor", "auditd", "systemd-journald", "rsyslog", "syslog-ng", "syslog", "ssh", "sshd", "dbus",
    "dbus-broker", "systemd-logind", "polkit", "display-manager", "gdm", "gdm3", "lightdm", "sddm", "NetworkManager",
    "networking", "systemd-networkd", "systemd-resolved", "user", "user-runtime-dir", "getty", "serial-getty",
    "console-getty", "container-getty", "autovt", "systemd-user-sessions", "network", "tailscaled", "wg-quick",
    "openvpn", "openvpn-client", "openvpn-server", "zerotier-one", "cloudflared", "teleport", "sssd", "nslcd",
    "winbind", "flybot",
})  # fmt: skip


#: The D-Bus activation names systemd and firewalld install as aliases of their units (``Alias=`` in
#: systemd-logind.service, systemd-networkd.service, systemd-resolved.service, firewalld.service): a restart by
#: that name restarts the unit.
_UNIT_ALIASES = {
    "dbus-org.freedesktop.login1": "systemd-logind",
    "dbus-org.freedesktop.network1": "systemd-networkd",
    "dbus-org.freedesktop.resolve1": "systemd-resolved",
    "dbus-org.fedoraproject.FirewallD1": "firewalld",
}


def security_unit(name: str) -> bool:
    """True when ``name`` (``auditd``, ``sshd.socket``, ``ssh@1.service``, an alias of :data:`_UNIT_ALIASES`) is
    one of :data:`SECURITY_UNITS`."""
    base = name.removesuffix(".service")
    if base in _UNIT_ALIASES:
        return True
    return _unit_in(name, SECURITY_UNITS)


def _unit_in(name: str, units: frozenset[str]) -> bool:
    """True when the unit ``name``, before ``@`` and a ``.service``/``.socket`` suffix, is one of ``units``."""
    stem, dot, suffix = name.partition(".")
    if dot and suffix not in ("service", "socket"):
        return False
    return stem.partition("@")[0] in units


#: Container runtimes whose restart stops every running container (its stop runs first). Docker Engine docs,
#: "Live restore": "By default, when the Docker daemon terminates, it shuts down running containers" (unless
#: ``live-restore`` is set in daemon.json, which FlyBot does not read); ``docker.socket`` too, as docker.service
#: requires it (moby contrib/init/systemd/docker.service ``Requires=docker.socket``). Not containerd, cri-o or
#: podman: their containers run under a shim or conmon that outlives a restart of the daemon.
_CONTAINER_DAEMONS = frozenset({"docker", "dockerd"})


def _stops_containers(what: str) -> str:
    return (
        f'{what} stops the Docker daemon, which shuts down every running container (Docker docs, "Live restore"); '
        "they start again only if their restart policy says so, and what they held in memory is lost."
    )


#: systemctl(1) "Environment Commands": the manager's environment, passed to every unit it starts.
_SYSTEMCTL_ENVIRONMENT = frozenset({"set-environment", "unset-environment", "import-environment"})
#: systemd.special(7): the targets that stop, sleep or isolate the machine, with ``runlevel0.target`` ("an alias
#: for" ``poweroff.target``), ``runlevel1.target`` (``rescue.target``), ``runlevel6.target`` (``reboot.target``),
#: ``umount.target`` ("unmounts all mount and automount points": every mount unit conflicts with it) and
#: ``factory-reset.target`` ("to trigger a factory reset").
_SPECIAL_TARGETS = frozenset({
    "poweroff", "reboot", "halt", "kexec", "rescue", "emergency", "shutdown", "sleep", "suspend", "hibernate",
    "hybrid-sleep", "suspend-then-hibernate", "final", "exit", "soft-reboot", "ctrl-alt-del", "system-update",
    "runlevel0", "runlevel1", "runlevel6", "umount", "factory-reset",
})  # fmt: skip
#: Units whose start opens the machine to logins, desktops or file shares from other machines (remote-access), each
#: with its manual: ``ssh``/``sshd`` (sshd(8): "the daemon program for ssh(1)", logins on port 22), ``xrdp``,
#: ``xrdp-sesman`` (xrdp(8): "a Remote Desktop Protocol (RDP) server"), ``vncserver`` (vncserver@.service of
#: TigerVNC, vncserver(1): "start a VNC server"), ``x11vnc`` (x11vnc(1): "allow VNC connections to real X11
#: displays"), ``gnome-remote-desktop`` (RDP and VNC of the desktop), ``smbd``, ``nmbd``, ``samba``, ``samba-ad-dc``
#: (smbd(8): "server to provide SMB/CIFS services to clients", the shares of smb.conf; nmbd(8): "NetBIOS name
#: server"), ``nfs-server``, ``nfs-kernel-server`` (exportfs(8): the directories of /etc/exports), ``vsftpd``,
#: ``proftpd``, ``pure-ftpd`` (FTP servers), ``rsync`` (rsyncd.conf(5): the modules of the rsync daemon),
#: ``inetd``, ``xinetd``, ``openbsd-inetd`` (inetd(8): starts the servers of inetd.conf, telnetd among them),
#: ``telnet``, ``cockpit`` (cockpit.socket: "a web-based graphical interface for servers", logins with a shell
#: and a terminal), ``webmin``, ``teamviewerd``, ``anydesk``, ``rustdesk`` (remote desktop services),
#: ``tailscaled`` (tailscaled(8): the node joins its tailnet again), ``cloudflared`` (cloudflared "Run as a
#: service": the tunnel's routes to local services), ``ngrok`` (ngrok "Background service": its tunnels). Matched as
#: :func:`security_unit` matches (``sshd.socket``, ``vncserver@:1``).
REMOTE_ACCESS_UNITS = frozenset({
    "ssh", "sshd", "xrdp", "xrdp-sesman", "vncserver", "x11vnc", "gnome-remote-desktop", "smbd", "nmbd", "samba",
    "samba-ad-dc", "nfs-server", "nfs-kernel-server", "vsftpd", "proftpd", "pure-ftpd", "rsync", "inetd", "xinetd",
    "openbsd-inetd", "telnet", "cockpit", "webmin", "teamviewerd", "anydesk", "rustdesk", "tailscaled", "cloudflared",
    "ngrok",
})  # fmt: skip
#: systemctl(1) verbs that start a unit that is not running ("start", the restarts) and service(8) commands that
#: do (``start``, the restarts).
_STARTS = frozenset({"start"}) | _SYSTEMCTL_RESTART | {"--full-restart"}


def _opens_remote_access(what: str) -> str:
    return (
        f"{what} starts a service other machines log in, share files or see the desktop through: it opens the host to "
        "remote access."
    )


#: Units that open the machine to whoever reaches a console: ``debug-shell.service`` ("Early root shell on
#: /dev/tty9 FOR DEBUGGING ONLY", systemd-debug-generator(8): ``ExecStart=/bin/bash`` as root, no login).
_OPENING_UNITS = frozenset({"debug-shell"})
_SYSTEMCTL_VALUES = frozenset(
    {
        "-t",
        "--type",
        "-p",
        "--property",
        "-s",
        "--signal",
        "--kill-whom",
        "--kill-value",
        "--job-mode",
        "-H",
        "--host",
        "-M",
        "--machine",
        "-n",
        "--lines",
        "-o",
        "--output",
        "--root",
        "--image",
        "--state",
        "--what",
        "--boot-loader-entry",
        "--timestamp",
        "--reboot-argument",
        "--message",
        "--when",
        "--preset-mode",
        "--drop-in",
    }
)


#: launchctl(1) subcommands that only start or enable a service already installed (the rest load a job file, run
#: a program, set every job's environment, or stop, unload or remove services).
_LAUNCHCTL_SYSTEM = frozenset({"start", "kickstart", "enable"})


@_guard
def launchctl(call: Call) -> None:
    """launchctl(1) (macOS): ``load``/``bootstrap`` hand launchd a job file it then runs (at login or boot: a file
    the Bot could write), ``submit`` and ``asuser`` run a program, ``setenv`` sets the environment of every job
    (``DYLD_INSERT_LIBRARIES``), ``unload``/``bootout``/``remove``/``stop``/``disable``/``kill``/``reboot`` stop
    services or the machine; ``start``, ``kickstart`` and ``enable`` keep the system grade."""
    if _query(call):
        return
    verb = next((w for w in call.args if w.value is None or not w.value.startswith("-")), None)
    if verb is not None and verb.value in _LAUNCHCTL_SYSTEM:
        return
    what = f"launchctl {show(verb)}" if verb is not None else "launchctl alone (it reads subcommands from stdin)"
    host_destructive(
        call, "host-change", f"{what} loads a job file, runs a program, sets every job's environment or stops services."
    )


#: systemctl(1) verbs that take a unit file's path and link or enable it ("link", "enable" with a path).
_SYSTEMCTL_FILE_VERBS = frozenset(
    {"link", "enable", "reenable", "preset", "add-wants", "add-requires", "start", "restart"}
)


def _special_unit(name: str) -> bool:
    """True for a special target (systemd.special(7)) or a service behind one: ``systemd-poweroff.service``,
    ``systemd-reboot`` (systemctl adds ``.service``), ``systemd-kexec``, ``emergency.service``, ``rescue.service``
    (Debian 12's unit files: ``SuccessAction=poweroff-force``, ``ExecStart=systemctl --force kexec``, sulogin)."""
    stem, dot, suffix = name.partition(".")
    if dot and suffix not in ("target", "service"):
        return False
    return stem in _SPECIAL_TARGETS or (
        suffix != "target" and stem.startswith("systemd-") and stem[len("systemd-") :] in _SPECIAL_TARGETS
    )


@_guard
def systemctl(call: Call) -> None:
    """systemctl(1): see the module docstring."""
    if _query(call):
        return
    found = scan(call.args, "tpsHMno", _SYSTEMCTL_VALUES)
    for opt in found.opts:
        if opt.name in ("-i", "--job-mode") and (
            opt.name == "-i"
            or (opt.value is not None and opt.value.value in (None, "isolate", "replace-irreversibly", "flush"))
        ):
            host_destructive(
                call, "host-change", "systemctl --job-mode=isolate stops every unit the target does not need."
            )
            return
    operands = found.operands
    if not operands:
        return
    verb = operands[0]
    if verb.value in _SYSTEMCTL_ENVIRONMENT:
        host_destructive(
            call,
            "host-change",
            f"systemctl {verb.value} changes the environment of every unit started later "
            "(LD_PRELOAD, PATH): code of the caller's choosing runs in system services.",
        )
        return
    changing = _SYSTEMCTL_LOGGING.get(verb.value or "")
    if changing is not None and len(operands) > changing:
        host_destructive(
            call,
            "host-change",
            f"systemctl {verb.value} with a value changes where the manager or a service logs, or its watchdogs "
            "(null: no records until someone changes it back).",
        )
        return
    rewrite = _SYSTEMCTL_REWRITES.get(verb.value or "")
    if rewrite is not None:
        host_destructive(call, rewrite[0], f"systemctl {verb.value} {rewrite[1]}: an irreversible-looking change.")
        return
    if verb.value is None or verb.value in _SYSTEMCTL_HARMFUL:
        host_destructive(
            call,
            "host-change",
            f"systemctl {show(verb)} stops, masks or disables units or the machine (sshd, the firewall).",
        )
        return
    for unit in operands[1:]:
        name = unit.value
        if name is not None and "/" in name and verb.value in _SYSTEMCTL_FILE_VERBS:
            host_destructive(
                call,
                "host-change",
                f"systemctl {verb.value} {show(unit)} hands systemd a unit file it then runs "
                "(at boot or login): a file the Bot could write.",
            )
            return
        if name is None or set(name) & set("*?["):
            host_destructive(
                call,
                "host-change",
                f"systemctl {verb.value} {show(unit)}: the unit may be any unit, a special target too.",
            )
            return
        if verb.value in _SYSTEMCTL_RESTART and name.endswith((".slice", ".scope")):
            host_destructive(
                call,
                "host-change",
                f"systemctl {verb.value} {name} stops every unit in it (systemd.unit(5) Requires=): every service "
                "or login session below it.",
            )
            return
        if _special_unit(name):
            host_destructive(
                call,
                "host-change",
                f"systemctl {verb.value} {name} powers off, reboots or isolates the machine (systemd.special(7)).",
            )
            return
        if verb.value not in ("stop", "reload") and name.removesuffix(".service") in _OPENING_UNITS:
            host_destructive(
                call,
                "host-change",
                f"systemctl {verb.value} {name} starts a root shell on a console with no login "
                "(systemd-debug-generator(8)).",
            )
            return
        if verb.value in _SYSTEMCTL_RESTART and security_unit(name):
            host_destructive(call, "host-change", _security_restart(f"systemctl {verb.value} {name}"))
            return
        if verb.value in _STARTS and _unit_in(name, REMOTE_ACCESS_UNITS):
            host_destructive(call, "remote-access", _opens_remote_access(f"systemctl {verb.value} {name}"))
            return
        if verb.value in _SYSTEMCTL_RESTART and _unit_in(name, _CONTAINER_DAEMONS):
            host_destructive(call, "host-change", _stops_containers(f"systemctl {verb.value} {name}"))
            return
    if verb.value in _SYSTEMCTL_PERSIST:
        host_destructive(
            call,
            "persistence",
            f"systemctl {verb.value} makes units start by themselves: code that runs at every boot/login "
            "(--user: at each login), persistence the owner must see.",
        )


def _security_restart(what: str) -> str:
    return (
        f"{what} stops a unit that guards the machine (firewall, audit, logs, logins or the network) "
        "until it comes back, and it may not come back: sessions, rules or records are lost."
    )


#: service(8) commands that restart the script's service (its stop runs first).
_SERVICE_RESTART = _SYSTEMCTL_RESTART | {"--full-restart", "reload-or-restart"}


@_guard
def service(call: Call) -> None:
    """service(8) (Debian init-system-helpers): ``service SCRIPT COMMAND`` runs ``/etc/init.d/SCRIPT COMMAND`` or,
    under systemd, ``systemctl COMMAND SCRIPT``; graded as that systemctl use. A stop (``stop``, ``kill``...,
    :data:`_SYSTEMCTL_HARMFUL`) of any service, a restart (``restart``, ``force-reload``, ``try-restart``,
    ``--full-restart``...) of a :data:`SECURITY_UNITS` service or of a special target, and a script or command only
    known when it runs, and a start of :data:`_OPENING_UNITS` are destructive on the host; the other uses keep the
    system grade (``service nginx restart``)."""
    if _query(call) or len(call.args) < 2:
        return
    script, command = call.args[0], call.args[1]
    if script.value is None or command.value is None:
        host_destructive(
            call,
            "host-change",
            f"service {show(script)} {show(command)}: the service or command is only known when it runs.",
        )
        return
    if (
        command.value in _SYSTEMCTL_HARMFUL
        or _special_unit(script.value)
        or (script.value.removesuffix(".service") in _OPENING_UNITS and command.value not in ("status", "reload"))
    ):
        host_destructive(
            call,
            "host-change",
            f"service {script.value} {command.value} stops the service or the machine (sshd, the firewall).",
        )
    elif command.value in _SERVICE_RESTART and security_unit(script.value):
        host_destructive(call, "host-change", _security_restart(f"service {script.value} {command.value}"))
    elif command.value in _STARTS and _unit_in(script.value, REMOTE_ACCESS_UNITS):
        host_destructive(call, "remote-access", _opens_remote_access(f"service {script.value} {command.value}"))
    elif command.value in _SERVICE_RESTART and _unit_in(script.value, _CONTAINER_DAEMONS):
        host_destructive(call, "host-change", _stops_containers(f"service {script.value} {command.value}"))


@_guard
def power(call: Call) -> None:
    """reboot(8), shutdown(8), poweroff(8), halt(8): every use but cancelling or printing help."""
    values = [w.value for w in call.args]
    if (
        values
        and all(v in ("-c", "--help", "--version", "-h") for v in values)
        and (call.name == "shutdown" or "-c" not in values)
    ):
        return
    host_destructive(call, "power-off", f"{call.name} stops or restarts the machine.")


#: dconf directories whose keys run programs or guard the session (GNOME's settings schemas): media-keys custom
#: keybindings name a command run at a key press; the screensaver, lockdown, session, privacy and login-screen keys
#: switch the lock screen and its delays; media-handling ``autorun-never`` runs a medium's autorun program.
_DCONF_CRITICAL = (
    "/org/gnome/settings-daemon/plugins/media-keys/",
    "/org/gnome/desktop/screensaver/",
    "/org/gnome/desktop/lockdown/",
    "/org/gnome/desktop/session/",
    "/org/gnome/desktop/privacy/",
    "/org/gnome/desktop/media-handling/",
    "/org/gnome/login-screen/",
)


def dconf_keys(base: Handler) -> Handler:
    """dconf(1): ``load DIR`` writes every key its standard input holds (unseen here); ``write KEY VALUE`` and
    ``reset [-f] KEY|DIR`` change one key or a directory of them. A key under :data:`_DCONF_CRITICAL` (or a
    directory holding one, ``/`` included), a key only known when it runs, and any ``load`` are security-critical or
    run a program later: destructive on the host (:func:`~bot.risk.programs.kit.host_destructive`). Other keys keep
    the catalogue's grade (a change under ~)."""

    def handler(call: Call) -> None:
        base(call)
        operands = [w for w in call.args if w.value is None or not w.value.startswith("-")]
        if not operands:
            return
        command = operands[0].value
        if command == "load":
            host_destructive(
                call,
                "persistence",
                "dconf load writes the keys its input holds, unseen: a keybinding's command, the lock screen.",
            )
            return
        if command not in ("write", "reset") or len(operands) < 2:
            return
        key = operands[1].value
        if key is None or any(key.startswith(d) or d.startswith(key) for d in _DCONF_CRITICAL):
            host_destructive(
                call,
                "persistence",
                f"dconf {command} {shorten(operands[1].src, 60)} sets a command run later or the lock screen.",
            )

    return handler


#: codesign(1) options that take the next word as their value (macOS 14).
_CODESIGN_VALUED = frozenset({
    "-s", "--sign", "-R", "--test-requirement", "-r", "--requirements", "-a", "--architecture", "-o", "--options",
    "-i", "--identifier", "--keychain", "--prefix", "--entitlements", "--file-list",
})  # fmt: skip


@_guard
def codesign(call: Call) -> None:
    """codesign(1) (macOS 14) ``-s IDENTITY`` and ``--remove-signature`` replace the signature of the code given in
    place: the vendor's signature of an application or tool outside the workspace (``/Applications/Xcode.app``,
    ``~/bin/tool``) cannot be put back, and what Gatekeeper and the keychain trusted it for changes (host-critical);
    code in the workspace or the temp area keeps the catalogue's grade (a write there)."""
    words = call.args
    signs = False
    operands: list[Word] = []
    index = 0
    while index < len(words):
        value = words[index].value
        index += 1
        if value is None:
            operands.append(words[index - 1])
        elif value in ("-s", "--sign", "--remove-signature") or value.startswith("--sign="):
            signs = True
            index += 1 if value in ("-s", "--sign") else 0
        elif value in _CODESIGN_VALUED:
            index += 1
        elif value == "--":
            operands.extend(words[index:])
            break
        elif not value.startswith("-"):
            operands.append(words[index - 1])
    if not signs:
        return
    for word in operands:
        if word.value is None or call.where(word) not in (Where.WORKSPACE, Where.TEMP):
            host_destructive(
                call,
                "host-critical",
                f"codesign replaces the signature of {show(word)}, code outside the workspace: its vendor's "
                "signature cannot be put back.",
            )
            return
