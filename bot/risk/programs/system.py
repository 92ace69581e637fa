"""Queries of system tools, and the network administration tools ``ip`` and ``nft``.

A system command (``table.SYSTEM_COMMANDS``) grades ``system``; its queries only read and grade
``read_only`` (``systemctl status``, ``apt list``, ``dnf info``, ``brew list`` and their
kin). :func:`query` decides from the words whether a use is a query; anything else keeps the
system grade. A query that talks to a remote index (``apt-get changelog``, ``brew search``,
``snap find``) is ``network``. Options that run programs are checked before (programs/packages.py).

Sources, per program: systemctl(1) ("Unit Commands": list-units, status, show, cat, is-active...;
``-H``/``--host`` reaches another machine over ssh); apt(8), apt-get(8) (``-s``/``--simulate``,
``changelog``); dnf(8) (info, list, search, provides, repoquery, repolist, history list|info,
check-update, deplist); yum(8); pacman(8) (``-Q``, ``-Si``/``-Ss``, ``-F`` without ``-y``); brew(1)
(list, info, deps, uses, leaves, outdated, config, doctor, search); snap(8) (list, info, find,
version, connections, services, changes); dpkg(1) (``-l``, ``-L``, ``-s``, ``-S``, ``-p``,
``--get-selections``, ``--print-architecture``); apk(8) (info, list, search, policy);
launchctl(1) (list, print, blame); service(8) (``--status-all``, ``NAME status``); mount(8)/swapon(8)
without arguments or with ``--show``; ifconfig(8) and route(8) without changes; iptables(8)
(``-L``, ``-S``, ``--list``; ``-C`` checks); ufw(8) status; sysctl(8) reads without ``-w``/``NAME=V``;
hostnamectl(1)/timedatectl(1) status and list-*; update-alternatives(1) ``--display|--query|--list``;
kill(1) ``-l``; passwd(1) ``-S``; ip(8) (iproute2: ``OBJECT [show|list|get]``, ``ip netns exec``,
``-batch``); nft(8) (``list``, ``describe``, ``monitor``, ``-c``/``--check``; ``flush|delete ruleset|table|chain``
removes firewall rules: destructive on the host).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.risk.grader import Call, Handler
from bot.risk.paths import Where
from bot.risk.words import Word

from .kit import R, destructive, network, read_only, refuse, show

__all__ = ["QUERIES", "ip", "nft", "query", "slurm_step"]


def _operands(values: list[str]) -> list[str]:
    return [v for v in values if not v.startswith("-")]


def _first(values: list[str]) -> str | None:
    found = _operands(values)
    return found[0] if found else None


_SYSTEMCTL_READ = frozenset({
    "status", "show", "cat", "list-units", "list-unit-files", "list-timers", "list-sockets", "list-dependencies",
    "list-jobs", "list-machines", "list-paths", "list-automounts", "is-active", "is-enabled", "is-failed",
    "is-system-running", "get-default", "show-environment", "help",
})  # fmt: skip
_APT_READ = frozenset(
    {
        "list",
        "show",
        "search",
        "policy",
        "depends",
        "rdepends",
        "showsrc",
        "madison",
        "pkgnames",
        "showpkg",
        "stats",
        "dump",
        "dumpavail",
        "check",
        "moo",
        "help",
        "showhold",
    }
)
_DNF_READ = frozenset(
    {
        "info",
        "list",
        "search",
        "provides",
        "whatprovides",
        "repoquery",
        "repolist",
        "repoinfo",
        "deplist",
        "help",
        "check",
        "updateinfo",
        "alias",
        "leaves",
    }
)
_BREW_READ = frozenset({
    "list", "ls", "info", "abv", "deps", "uses", "leaves", "outdated", "config", "doctor", "dr", "desc", "options",
    "missing", "tap-info", "commands", "home", "homepage", "log", "--version", "-v", "--prefix", "--cellar",
    "--repository", "--repo", "--cache", "--env", "--config", "shellenv", "formulae", "casks", "help",
})  # fmt: skip
_SNAP_READ = frozenset(
    {
        "list",
        "info",
        "find",
        "search",
        "version",
        "connections",
        "services",
        "changes",
        "change",
        "tasks",
        "interfaces",
        "aliases",
        "help",
        "known",
        "get",
        "warnings",
    }
)
_APK_READ = frozenset({"info", "list", "search", "policy", "dot", "stats", "version", "--version", "-V"})
_NETWORK_QUERIES = frozenset({"search", "find", "changelog", "check-update", "outdated", "info"})


def _systemctl(values: list[str]) -> str | None:
    if any(v in ("-H", "--host", "-M", "--machine") or v.startswith(("--host=", "--machine=")) for v in values):
        return None
    verb = _first(values)
    if verb is None or verb in _SYSTEMCTL_READ or values in (["--version"], ["--help"], ["-h"]):
        return "only reports the state of units"
    return None


def _apt(values: list[str]) -> str | None:
    verb = _first(values)
    if verb in _APT_READ or any(
        v in ("-s", "--simulate", "--dry-run", "--just-print", "--no-act", "--recon") for v in values
    ):
        return "only queries the package cache"
    if values in (["--version"], ["-v"], ["--help"], ["-h"]):
        return "only prints"
    return None


def _dnf(values: list[str]) -> str | None:
    verb = _first(values)
    operands = _operands(values)
    if verb in _DNF_READ or (verb == "history" and (len(operands) < 2 or operands[1] in ("list", "info", "summary"))):
        return "only queries packages and repositories"
    if verb in ("group", "module", "groups") and len(operands) > 1 and operands[1] in ("list", "info", "summary"):
        return "only queries packages and repositories"
    if values in (["--version"], ["--help"], ["-h"]):
        return "only prints"
    return None


def _pacman(values: list[str]) -> str | None:
    ops = [v for v in values if v.startswith("-") and not v.startswith("--")]
    if not ops:
        return "only prints" if values in (["--version"], ["-V"], ["--help"], ["-h"]) else None
    letters = ops[0][1:]
    if letters.startswith("Q") or letters.startswith("F") and "y" not in letters:
        return "only queries the package database"
    if letters.startswith("S") and set(letters[1:]) <= set("islgq") and len(letters) > 1:
        return "only queries the sync database"
    return None


def _brew(values: list[str]) -> str | None:
    verb = next((v for v in values if not v.startswith("-") or v in _BREW_READ), None)
    if verb in _BREW_READ:
        return "only queries installed or available packages"
    if verb == "search":
        return "only queries available packages"
    if verb in ("services",) and len(_operands(values)) > 1 and _operands(values)[1] in ("list", "info"):
        return "only lists services"
    return None


def _dpkg(values: list[str]) -> str | None:
    if (
        values
        and all(
            v
            in (
                "-l",
                "-L",
                "-s",
                "-S",
                "-p",
                "--list",
                "--listfiles",
                "--status",
                "--search",
                "--print-avail",
                "--get-selections",
                "--print-architecture",
                "--print-foreign-architectures",
                "--version",
                "--help",
                "-C",
                "--audit",
                "--compare-versions",
            )
            or not v.startswith("-")
            for v in values
        )
        and values[0].startswith("-")
        and values[0] not in ("-i", "-r", "-P")
    ):
        return "only queries the package database"
    return None


def _snap(values: list[str]) -> str | None:
    return "only queries snaps" if _first(values) in _SNAP_READ or values in (["--version"], ["--help"]) else None


def _apk(values: list[str]) -> str | None:
    return "only queries packages" if _first(values) in _APK_READ or values in (["--version"], ["-V"]) else None


def _launchctl(values: list[str]) -> str | None:
    return (
        "only lists services"
        if _first(values) in ("list", "print", "blame", "print-disabled", "procinfo", "version", "help", "dumpstate")
        else None
    )


def _service(values: list[str]) -> str | None:
    if values in (["--status-all"], ["--help"], ["--version"]) or (len(values) == 2 and values[1] == "status"):
        return "only reports services' state"
    return None


def _mount(values: list[str]) -> str | None:
    if not values or values in (["-l"], ["--show"], ["--version"], ["-V"], ["--help"]):
        return "only lists mounts"
    return None


def _ifconfig(values: list[str]) -> str | None:
    if not values or values in (["-a"], ["-s"], ["-l"]) or (len(values) == 1 and not values[0].startswith("-")):
        return "only shows interfaces"
    return None


def _route(values: list[str]) -> str | None:
    if (
        all(v.startswith("-") and set(v[1:]) <= set("neCFv46") for v in values)
        or values[:1] in (["print"], ["get"], ["show"])
        or values[:2] == ["-n", "get"]
    ):
        return "only shows the routing table"
    return None


def _iptables(values: list[str]) -> str | None:
    changing = {
        "-A",
        "--append",
        "-D",
        "--delete",
        "-I",
        "--insert",
        "-R",
        "--replace",
        "-F",
        "--flush",
        "-Z",
        "--zero",
        "-N",
        "--new-chain",
        "-X",
        "--delete-chain",
        "-P",
        "--policy",
        "-E",
        "--rename-chain",
    }
    if any(v in changing for v in values):
        return None
    if any(
        v in ("-L", "--list", "-S", "--list-rules", "-C", "--check", "--version", "-V", "--help", "-h")
        or (v.startswith("-") and not v.startswith("--") and ("L" in v or "S" in v) and set(v[1:]) <= set("LSnvx"))
        for v in values
    ):
        return "only lists or checks rules"
    return None


def _ufw(values: list[str]) -> str | None:
    return (
        "only reports the firewall's state"
        if _first(values) in ("status", "show", "version", "help", "app") and "update" not in values
        else None
    )


def _sysctl(values: list[str]) -> str | None:
    if any(v in ("-w", "--write", "-p", "--load", "--system") or v.startswith("-p") or "=" in v for v in values):
        return None
    return "only reads kernel parameters"


def _ldconfig(values: list[str]) -> str | None:
    """ldconfig(8) (glibc 2.39): ``-p``/``--print-cache`` "Print the lists of directories and candidate libraries
    stored in the current cache", with ``-v``/``--verbose`` only louder; ``-V``/``--version``, ``-?``/``--help``,
    ``--usage`` print and exit. Any other word (a directory, ``-f``, ``-C``, ``-r``, ``-n``, ``-X``) rebuilds or
    moves the cache: the system grade stays."""
    words = set(values)
    if words & {"-p", "--print-cache"} and words <= {"-p", "--print-cache", "-v", "--verbose"}:
        return "only prints the library cache"
    if values in (["-V"], ["--version"], ["-?"], ["--help"], ["--usage"]):
        return "only prints"
    return None


def _status_or_list(values: list[str]) -> str | None:
    verb = _first(values)
    return (
        "only reports status"
        if verb is None
        or verb == "status"
        or verb.startswith(("list-", "show"))
        or values in (["--version"], ["--help"])
        else None
    )


def _swapon(values: list[str]) -> str | None:
    return (
        "only lists swap areas"
        if not values or values[0] in ("--show", "-s", "--summary") or values[0].startswith("--show=")
        else None
    )


def _alternatives(values: list[str]) -> str | None:
    return (
        "only shows alternatives"
        if values[:1] in (["--display"], ["--query"], ["--list"], ["--get-selections"])
        else None
    )


def _kill(values: list[str]) -> str | None:
    """kill(1) ``-l``/``-L``/``--list``/``--table`` list signal names; signal 0 (``-0``, ``-s 0``, ``-n 0``,
    ``--signal 0``) sends nothing: kill(2) "If sig is 0, then no signal is sent, but existence and permission checks
    are still performed" (bash "kill", procps-ng and util-linux kill(1) pass it on). PID 1, -1 and process groups
    stay graded by the kill guard (programs/hostchanges.py)."""
    if values[:1] in (["-l"], ["-L"], ["--list"], ["--table"]):
        return "only lists signal names"
    if len(values) > 1 and (values[0] == "-0" or values[0] in ("-s", "-n", "--signal") and values[1] == "0"):
        return "sends no signal (signal 0 only checks that the process exists)"
    return None


def _passwd(values: list[str]) -> str | None:
    return "only shows account status" if any(v in ("-S", "--status") for v in values) else None


#: Program name -> a function of its literal argument values returning why the use is a query, or None.
def _fdisk(values: list[str]) -> str | None:
    """fdisk(8) ``-l``/``--list``, ``-x``/``--list-details`` list partition tables and exit (util-linux 2.40); sfdisk(8)
    ``-l``, ``-d``/``--dump``, ``-J``/``--json``, ``-s``/``--show-size``, ``-V``/``--verify`` only print. Other options
    of those runs only choose what is printed."""
    lists = ("--list", "--list-details", "--dump", "--json", "--show-size", "--verify", "--version", "--help")
    changes = (
        "-A",
        "--activate",
        "--delete",
        "-N",
        "--partno",
        "--part-type",
        "--part-uuid",
        "--part-label",
        "--part-attrs",
        "--disk-id",
        "--relocate",
        "--move-data",
        "-r",
        "--reorder",
        "-a",
        "--append",
        "-f",
        "--force",
        "-w",
        "--wipe",
        "-W",
        "--wipe-partitions",
        "-t",
        "--type",
    )
    if any(v.split("=", 1)[0] in changes for v in values):
        return None
    for value in values:
        if value in lists or (
            value.startswith("-") and not value.startswith("--") and set(value[1:]) <= set("lxdJsVhu")
        ):
            return "only lists partition tables"
    return None


def _parted(values: list[str]) -> str | None:
    """parted(8) (GNU parted 3.6): ``-l``/``--list`` lists every device's partitions; ``parted [-s|-m] DEVICE print``
    (optionally after ``unit UNIT``) prints one; any other command changes the disk."""
    options = [v for v in values if v.startswith("-")]
    rest = [v for v in values if not v.startswith("-")]
    if not set(options) <= {
        "-l",
        "--list",
        "-s",
        "--script",
        "-m",
        "--machine",
        "-j",
        "--json",
        "-v",
        "--version",
        "-h",
        "--help",
    }:
        return None
    if not rest and set(options) & {"-l", "--list", "-v", "--version", "-h", "--help"}:
        return "only lists partition tables"
    commands = rest[1:]
    if commands[:1] == ["unit"] and len(commands) >= 2:
        commands = commands[2:]
    return "only prints a partition table" if commands == ["print"] else None


QUERIES: dict[str, Callable[[list[str]], str | None]] = {
    "fdisk": _fdisk, "sfdisk": _fdisk, "parted": _parted,
    "systemctl": _systemctl, "apt": _apt, "apt-get": _apt, "dnf": _dnf, "yum": _dnf, "pacman": _pacman,
    "brew": _brew, "dpkg": _dpkg, "snap": _snap, "apk": _apk, "launchctl": _launchctl, "service": _service,
    "mount": _mount, "umount": lambda v: "only prints" if v in (["--version"], ["--help"]) else None,
    "ifconfig": _ifconfig, "route": _route, "iptables": _iptables, "ufw": _ufw, "sysctl": _sysctl,
    "hostnamectl": _status_or_list, "timedatectl": _status_or_list, "swapon": _swapon,
    "update-alternatives": _alternatives, "kill": _kill, "passwd": _passwd, "ldconfig": _ldconfig,
}  # fmt: skip


def _shows_environment(values: list[str]) -> bool:
    """True when ``systemctl show`` prints the ``Environment`` property: with no ``-p``/``-P``/``--property``
    (systemctl(1): every property) or with one naming it (systemd.exec(5) Environment=, set in unit files, drop-ins
    and by ``systemctl set-environment``: tokens and passwords are often found there)."""
    named: list[str] = []
    for index, value in enumerate(values):
        for option in ("-p", "-P", "--property"):
            if value == option and index + 1 < len(values):
                named.extend(values[index + 1].split(","))
            elif value.startswith("--property=") and option == "--property":
                named.extend(value.partition("=")[2].split(","))
            elif option in ("-p", "-P") and value.startswith(option) and len(value) > 2:
                named.extend(value[2:].split(","))
    return not named or any(n.strip() == "Environment" for n in named)


def query(name: str, base: Handler) -> Handler:
    """Wrap the system grade ``base`` of ``name``: a use that :data:`QUERIES` recognises is read-only
    (``network`` when it reaches a remote index); any word only known at run time keeps ``base``."""
    decide = QUERIES[name]

    def handler(call: Call) -> None:
        values = [w.value for w in call.args]
        if all(v is not None for v in values):
            literal = [v for v in values if v is not None]
            why = decide(literal)
            if why is not None:
                verb = _first(literal)
                if name == "systemctl" and verb == "show" and _shows_environment(literal):
                    call.flag(
                        R.NETWORK,
                        "secret-read",
                        "systemctl show prints the units' Environment= (systemd.exec(5): exposed to any client, so "
                        "not for secrets, yet used for them): its output goes to the model.",
                    )
                    return
                if (
                    name in ("apt-get", "brew", "snap", "dnf", "yum")
                    and verb in _NETWORK_QUERIES
                    and not (name in ("brew", "dnf", "yum") and verb in ("info", "outdated"))
                ):
                    call.flag(R.NETWORK, "network-egress", f"{name} {verb} queries a remote package index.")
                else:
                    read_only(call, f"{name} {why}.")
                return
        base(call)

    handler.__name__ = base.__name__
    return handler


# -- ip, nft ------------------------------------------------------------------------------------
_IP_OBJECTS = (
    "address", "addrlabel", "link", "route", "rule", "neighbour", "neighbor", "ntable", "tunnel", "tuntap", "maddress",
    "mroute", "mrule", "monitor", "xfrm", "netns", "l2tp", "tcp_metrics", "token", "netconf", "ila", "vrf", "sr",
    "nexthop", "mptcp", "ioam", "stats", "fou", "macsec", "help",
)  # fmt: skip
_IP_READ_VERBS = ("show", "list", "lst", "get")
_IP_VALUES = frozenset({"-n", "-netns", "-f", "-family", "-l", "-loops", "-rc", "-rcvbuf"})


def ip(call: Call) -> None:
    """ip(8): ``ip [OPTIONS] OBJECT [COMMAND]``; no command, show/list/get and ``monitor`` read; others change
    the network (system); ``-batch FILE`` and ``-force`` are refused; ``ip netns exec NS CMD`` grades CMD."""
    words = call.args
    index = 0
    while index < len(words) and (words[index].value or "").startswith("-"):
        value = words[index].value or ""
        name = "-" + value.lstrip("-")  # ip.c matches options by prefix, -batch before -brief, -family before -force
        if (len(name) >= 2 and "-batch".startswith(name)) or (len(name) >= 3 and "-force".startswith(name)):
            destructive(call, "script-file", "ip -batch runs commands from a file the classifier cannot see.")
            return
        index += 2 if value in _IP_VALUES else 1
    if index < len(words) and words[index].value is None:
        destructive(call, "dynamic-argument", f"{show(words[index])} is an ip object only known when it runs.")
        return
    rest = [w.value for w in words[index:]]
    if not rest:
        read_only(call, "ip without an object prints help.")
        return
    obj = _prefix(rest[0] or "", _IP_OBJECTS)
    if obj is None:
        refuse(call, f"the object {rest[0]}")
        return
    verb = rest[1] if len(rest) > 1 else None
    if obj in ("netns", "vrf") and verb and "exec".startswith(verb):
        # ip-netns(8) "ip netns exec NAME cmd ...", ip-vrf(8) "ip vrf exec [NAME] cmd ...": run cmd there; iproute2
        # takes any prefix of a command word (matches()), and no other netns or vrf command starts with "e"
        where = "network namespace" if obj == "netns" else "VRF"
        call.flag(R.SYSTEM, "system-command", f"ip {obj} exec runs a command in another {where}.", downgradable=True)
        if len(words) > index + 3:
            call.run(words[index + 3 :], f"ip {obj} exec")
        return
    if (
        obj in ("monitor", "help")
        or verb is None
        or verb in ("list", "lst", "get", "help")
        or (len(verb) >= 2 and "show".startswith(verb))
    ):
        read_only(call, f"ip {obj} only shows the network configuration.")
        return
    if _ip_cuts_off(obj, verb, rest[2:]):
        call.flag(
            R.DESTRUCTIVE,
            "host-change",
            f"ip {obj} {verb} removes the machine's addresses, routes or links: it can cut it off the network.",
            downgradable=True,
        )
        return
    call.flag(R.SYSTEM, "system-command", f"ip {obj} {verb} changes the network configuration.", downgradable=True)


#: ip(8) objects whose flush or delete takes the machine off the network (ip-address(8), ip-route(8), ip-link(8),
#: ip-rule(8)).
_IP_CONNECTIVITY = frozenset({"address", "route", "link", "rule"})


def _ip_cuts_off(obj: str, verb: str, rest: list[str | None]) -> bool:
    """True for ``ip address|route|link|rule flush|del|delete``, ``ip link set|change ... down`` and
    ``ip route add|replace|change|append default`` (every connection through a gateway of the caller's choosing),
    or an argument only known when it runs there."""
    if obj not in _IP_CONNECTIVITY:
        return False
    verb = _prefix(verb, _IP_VERBS[obj]) or verb
    if "flush".startswith(verb) or verb in ("del", "delete"):
        return True
    if obj == "route" and verb in ("add", "replace", "change", "append", "prepend"):
        return any(v is None or v in ("default", "0.0.0.0/0", "::/0", "0/0") for v in rest)
    return obj == "link" and verb in ("set", "change") and any(v is None or v == "down" for v in rest)


#: The commands of each connectivity object in the order iproute2 tries them (ip/iproute.c, ipaddress.c, iplink.c,
#: iprule.c: the first one the word is a prefix of wins): ``ip r d`` is route delete, ``ip l s`` link set.
_IP_VERBS: dict[str, tuple[str, ...]] = {
    "route": ("add", "change", "replace", "prepend", "append", "test", "delete", "list", "show", "lst", "get",
              "flush", "save", "restore", "showdump"),
    "address": ("add", "change", "replace", "delete", "list", "show", "lst", "flush", "save", "showdump", "restore"),
    "link": ("add", "set", "change", "replace", "delete", "show", "list", "lst", "xstats", "afstats", "property"),
    "rule": ("list", "show", "lst", "add", "delete", "flush", "save", "restore"),
}  # fmt: skip


def _prefix(word: str, names: tuple[str, ...]) -> str | None:
    """The first name ``word`` abbreviates (iproute2 accepts any prefix: ``ip a``, ``ip r s``), else None."""
    if not word:
        return None
    return next((name for name in names if name.startswith(word)), None)


#: nft(8) verdicts and statements that drop, reject or redirect traffic (and a chain ``policy drop``).
_NFT_CUTS = frozenset({"drop", "reject", "dnat", "snat", "redirect", "masquerade", "tproxy", "queue", "dup", "fwd"})


def nft(call: Call) -> None:
    """nft(8): ``list``, ``describe``, ``monitor`` and ``-c``/``--check`` read; other commands change the firewall;
    ``-f FILE`` and ``-i`` take commands the classifier cannot see."""
    values = [w.value for w in call.args]
    if any(v is None for v in values):
        destructive(call, "dynamic-argument", "An nft argument is only known when it runs.")
        return
    literal = [v for v in values if v is not None]
    if any(
        v in ("-f", "--file", "-i", "--interactive")
        or v.startswith("--file=")
        or (v.startswith("-") and not v.startswith("--") and ("f" in v or "i" in v))
        for v in literal
    ):
        if any(v in ("-c", "--check") for v in literal):
            read_only(call, "nft --check only checks the rules.")
        elif _nft_file_in_workspace(call):
            call.flag(
                R.SYSTEM,
                "system-command",
                "nft -f loads firewall rules from a workspace file the classifier does not read.",
                downgradable=True,
            )
        else:
            # nft(8) -f/-i: a ruleset from outside the workspace, standard input or typed commands, which may flush
            # the ruleset or accept every packet
            call.flag(
                R.DESTRUCTIVE,
                "firewall-off",
                "nft -f/-i loads firewall rules the classifier cannot see: they may flush the ruleset or accept "
                "every packet.",
                downgradable=True,
            )
        return
    verb = next((v for v in literal if not v.startswith("-")), None)
    if verb in (None, "list", "describe", "monitor", "help") or any(
        v in ("-c", "--check", "-v", "--version", "-h", "--help") for v in literal
    ):
        read_only(call, "nft only lists or checks the firewall rules.")
        return
    operands = [v for v in literal if not v.startswith("-")]
    if verb in ("flush", "delete", "destroy") and len(operands) > 1 and operands[1] in ("ruleset", "table", "chain"):
        # nft(8) RULESET, TABLES, CHAINS: flush/delete drop every rule of the ruleset, table or chain.
        call.flag(R.DESTRUCTIVE, "firewall-off", f"nft {verb} {operands[1]} removes firewall rules.", downgradable=True)
        return
    cuts = sorted({t for v in operands for t in re.split(r"[\s;{}]+", v.lower()) if t in _NFT_CUTS})
    if cuts:
        # nft(8) VERDICT STATEMENT, NAT STATEMENTS, chain policy: a rule or chain that drops, rejects or redirects
        call.flag(
            R.DESTRUCTIVE,
            "firewall-off",
            f"nft {' '.join(operands)[:80]} ({'/'.join(cuts)}) drops or redirects the host's traffic: it can cut "
            "the machine off the network or hijack its connections.",
            downgradable=True,
        )
        return
    if (
        len(operands) > 1
        and operands[1] == "rule"
        and (verb in ("delete", "destroy", "replace") or (verb in ("add", "insert") and _accepts_all(operands[2:])))
    ):
        # nft(8) RULES: a deleted or replaced rule may be the one keeping traffic out; a rule whose only
        # statement is the verdict accept (counter/log aside) accepts every packet reaching it
        call.flag(
            R.DESTRUCTIVE,
            "firewall-off",
            f"nft {' '.join(operands)[:80]} deletes, replaces or opens a firewall rule: it may let every packet in.",
            downgradable=True,
        )
        return
    call.flag(R.SYSTEM, "system-command", f"nft {verb} changes the firewall.", downgradable=True)


def _nft_file_in_workspace(call: Call) -> bool:
    """True when ``nft -f FILE`` names a file in the workspace (not ``-``, not ``-i``)."""
    words = call.args
    for index, word in enumerate(words):
        value = word.value or ""
        if value in ("-i", "--interactive") or (value.startswith("-") and not value.startswith("--") and "i" in value):
            return False
        if value in ("-f", "--file") or (value.startswith("-") and not value.startswith("--") and value.endswith("f")):
            target = words[index + 1] if index + 1 < len(words) else None
            return target is not None and target.value not in (None, "-") and call.where(target) is Where.WORKSPACE
        if value.startswith("--file="):
            place = value.partition("=")[2]
            return place != "-" and call.where(Word(place, place)) is Where.WORKSPACE
    return False


_NFT_FAMILIES = frozenset({"ip", "ip6", "inet", "arp", "bridge", "netdev"})


def _accepts_all(words: list[str]) -> bool:
    """True for ``[FAMILY] TABLE CHAIN [position|handle|index N] STATEMENT`` (nft(8) RULES) whose statement is only
    ``accept``, with ``counter`` or ``log`` beside it: no match, so every packet is accepted."""
    tokens = [t for w in words for t in w.split()]
    if tokens[:1] and tokens[0] in _NFT_FAMILIES:
        tokens = tokens[1:]
    tokens = tokens[2:]
    if tokens[:1] and tokens[0] in ("position", "handle", "index"):
        tokens = tokens[2:]
    return "accept" in tokens and set(tokens) <= {"accept", "counter", "log"}


def slurm_step(base: Handler) -> Handler:
    """srun(1) (Slurm 24.05): "Run a parallel job on cluster managed by Slurm": it asks the controller (slurmctld,
    usually another host) for an allocation and starts the program given on its nodes. The program is graded by the
    catalogue entry (``wrap``); the request to the controller adds ``network``."""

    def handler(call: Call) -> None:
        base(call)
        network(call, f"{call.name} asks the Slurm controller for an allocation and starts the job step there.")

    return handler
