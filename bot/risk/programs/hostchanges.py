"""Irreversible or security-critical changes to the machine made by system commands.

Each guard wraps a system command's usual grade (``system``; its queries ``read_only``, programs/system.py) and adds a
``destructive`` finding on the host for the uses below (kit.host_destructive: contained, the program keeps its
contained grade, since the VM is discarded). Sources, per program:

* chmod(1), chown(1), chgrp(1) (GNU coreutils): ``-R``/``--recursive`` on a path outside the workspace (or one only
  known when it runs); any change to a protected path (sensitive.py: system trees, login and credential files);
  ``--no-preserve-root``; chmod's setuid/setgid bits (symbolic ``u+s``, ``g=s``, ``+s``; octal with a 4000 or 2000
  bit, chmod(1) "SETUID AND SETGID BITS"), which make a program run as its owner.
* passwd(1): any change (``-d`` deletes the password, ``-u``, ``-l``, a new password, ``-e``, ...); ``-S`` only shows.
* useradd(8), usermod(8), groupadd(8): UID or GID 0 (``-u 0``, ``-g 0``, ``-g root``), ``-o``/``--non-unique``
  (a second account with an existing UID), ``-p``/``--password``, and membership of groups that are root
  equivalents (``root``, ``sudo``, ``wheel``, ``admin``, ``adm``, ``docker``, ``lxd``, ``disk``, ``shadow``).
* kill(1) (procps-ng, bash builtin): signalling PID 1 (init) or ``-1`` (every process the caller may signal);
  pkill(1), killall(1): a pattern naming ``init``, ``systemd`` or ``sshd``, or ``-u root``/``--user root``.
* iptables(8): ``-F``/``--flush``, ``-X``/``--delete-chain``, ``-P``/``--policy`` (flushing or opening the firewall).
* ufw(8): ``disable``, ``reset``, ``default allow``.
"""

from __future__ import annotations

import re

from bot.risk.grader import Call, Handler
from bot.risk.options import scan
from bot.risk.paths import Where
from bot.risk.sensitive import path_text, protected_path
from bot.risk.words import Word

from .kit import host_destructive, show

__all__ = ["chmod", "chown", "iptables", "kill", "passwd", "pkill", "ufw", "useradd"]

_OWN_LONG = frozenset({"--reference", "--from"})
_MODE = re.compile(r"^[ugoa]*(?:[-+=][rwxXst]*|[-+=][ugo])+(?:,[ugoa]*(?:[-+=][rwxXst]*|[-+=][ugo])+)*$|^[0-7]{1,5}$")
_SYMBOLIC_SETID = re.compile(r"(?:^|,)[ugoa]*[+=][rwxXt]*s")
_ROOT_GROUPS = frozenset({"root", "sudo", "wheel", "admin", "adm", "docker", "lxd", "disk", "shadow", "0"})


def _setid(mode: str) -> bool:
    """True when ``mode`` sets the setuid or setgid bit (chmod(1))."""
    if mode.isdigit():
        return len(mode) >= 4 and int(mode[-4]) & 6 != 0
    return _SYMBOLIC_SETID.search(mode) is not None


def _ownership(call: Call, *, modes: bool) -> None:
    words = call.args
    recursive = False
    operands: list[Word] = []
    mode: str | None = None
    reference = False
    ended = False
    for word in words:
        value = word.value
        if ended or value is None or not value.startswith("-") or value == "-":
            operands.append(word)
            continue
        if value == "--":
            ended = True
        elif value in ("-R", "--recursive") or (not value.startswith("--") and "R" in value[1:] and not (modes and _MODE.match(value))):
            recursive = True
        elif value == "--no-preserve-root":
            host_destructive(call, "system-permissions", f"{call.name} --no-preserve-root lets a recursive change reach /.")
        elif value.startswith("--reference"):
            reference = True
        elif modes and _MODE.match(value):
            operands.append(word)  # chmod -w FILE: a mode, not an option
    if not reference and operands:
        first = operands.pop(0)
        mode = first.value if modes else None
        if modes and first.value is None:
            host_destructive(call, "setuid", f"The mode {show(first)} is only known when it runs (it may set setuid).")
    if mode is not None and _setid(mode):
        host_destructive(call, "setuid", f"chmod {mode} sets the setuid/setgid bit: the program then runs as its owner.")
    for target in operands:
        why = protected_path(path_text(target.value, target.src))
        if why is not None:
            host_destructive(call, "system-permissions", f"{call.name} changes {show(target)}: {why}.")
        elif recursive and call.where(target) not in (Where.WORKSPACE, Where.TEMP, Where.NOWHERE):
            host_destructive(call, "system-permissions", f"{call.name} -R changes everything under {show(target)}, outside the workspace.")


def chmod(base: Handler) -> Handler:
    """chmod(1): see the module docstring."""

    def handler(call: Call) -> None:
        base(call)
        _ownership(call, modes=True)

    handler.__name__ = "chmod"
    return handler


def chown(base: Handler) -> Handler:
    """chown(1), chgrp(1): see the module docstring."""

    def handler(call: Call) -> None:
        base(call)
        _ownership(call, modes=False)

    handler.__name__ = "chown"
    return handler


def passwd(base: Handler) -> Handler:
    """passwd(1): every use but ``-S``/``--status`` changes an account's credentials."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args]
        if not any(v in ("-S", "--status", "--help", "-h") for v in values):
            host_destructive(call, "account-change", "passwd changes an account's password or lock.")

    handler.__name__ = "passwd"
    return handler


def useradd(base: Handler) -> Handler:
    """useradd(8), usermod(8), groupadd(8): UID/GID 0, non-unique ids, passwords, root-equivalent groups."""

    def handler(call: Call) -> None:
        base(call)
        found = scan(call.args, "ugGpcdesfk", frozenset({"--uid", "--gid", "--groups", "--password", "--comment", "--home-dir", "--expiredate", "--shell", "--inactive", "--skel", "--key"}))
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
        if why is not None:
            host_destructive(call, "account-change", f"{call.name}: {why}.")

    handler.__name__ = "useradd"
    return handler


_INIT_NAMES = frozenset({"init", "systemd", "sshd", "1"})


def kill(base: Handler) -> Handler:
    """kill(1): signalling PID 1 or -1 (every process). The first word is the signal when it starts with ``-``
    (``-9``, ``-KILL``, ``-s SIG``, ``-n NUM``); the words after it are process ids (``kill -9 -1``)."""

    def handler(call: Call) -> None:
        base(call)
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
            if value in ("1", "-1"):
                what = "init (PID 1)" if value == "1" else "every process (-1)"
                host_destructive(call, "signal-init", f"kill {value} signals {what}.")
                return

    handler.__name__ = "kill"
    return handler


def pkill(base: Handler) -> Handler:
    """pkill(1), killall(1): a pattern naming init, systemd or sshd, or every process of root."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args]
        for index, value in enumerate(values):
            following = values[index + 1] if index + 1 < len(values) else None
            if value in _INIT_NAMES or (value in ("-u", "--user", "-U") and following in ("root", "0")) or value in ("--user=root", "-u0"):
                host_destructive(call, "signal-init", f"{call.name} signals {following if value in ('-u', '--user', '-U') else value}, which keeps the machine running or reachable.")
                return

    handler.__name__ = "pkill"
    return handler


_IPTABLES_OFF = frozenset({"-F", "--flush", "-X", "--delete-chain", "-P", "--policy"})


def iptables(base: Handler) -> Handler:
    """iptables(8): flushing, deleting chains or setting a chain's policy."""

    def handler(call: Call) -> None:
        base(call)
        for word in call.args:
            value = word.value
            if value in _IPTABLES_OFF or (value is not None and value.startswith("-") and not value.startswith("--") and set(value[1:]) & set("FXP")):
                host_destructive(call, "firewall-off", f"iptables {value} flushes or opens the firewall.")
                return

    handler.__name__ = "iptables"
    return handler


def ufw(base: Handler) -> Handler:
    """ufw(8): ``disable``, ``reset`` and ``default allow`` turn the firewall off or open it."""

    def handler(call: Call) -> None:
        base(call)
        operands = [w.value for w in call.args if w.value is None or not w.value.startswith("-")]
        if operands[:1] in (["disable"], ["reset"]) or (operands[:1] == ["default"] and "allow" in operands):
            host_destructive(call, "firewall-off", f"ufw {' '.join(v or '?' for v in operands[:3])} turns the firewall off or opens it.")

    handler.__name__ = "ufw"
    return handler
