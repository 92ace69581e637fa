"""Catalogue guards for programs that run a command, reconfigure the whole host or open it to other machines.

- trace-cmd(1) (trace-cmd 3.3, tracecmd/trace-record.c ``parse_record_options``): ``record``, ``start``,
  ``stream``, ``profile`` (and ``set``) take ``[OPTIONS] [command]`` and run the command while tracing; the
  command is graded as the wrapper's (``timeout CMD``), on top of the subcommand's own ``system``; ``-o FILE`` is written.
- puppet-resource(8), puppet-config(8) (Puppet 8): ``attribute=value`` pairs change the resource through Puppet's
  providers; listing a user prints its password hash; ``config set``/``delete`` rewrite puppet.conf.
- adb (developer.android.com/tools/adb, "Forward and reverse ports" / ``adb reverse``): the device connects to the
  host's port, as ``ssh -R`` lets the other machine in.
- caddy file-server (caddyserver.com/docs/command-line): ``-r/--root`` is the directory served on ``:80``.
- aria2c(1) (aria2 1.37) ``--rpc-listen-all``: the JSON-RPC/XML-RPC server on every interface, whose methods
  (``aria2.addUri`` with ``dir``/``out``, ``aria2.changeGlobalOption`` ``log``/``save-session``) write any file the
  user may.
"""

from __future__ import annotations

from bot.risk.grader import Call, Handler
from bot.risk.reasons import shorten
from bot.risk.words import Word

from .kit import R, destructive, host_destructive, show

__all__ = ["adb_reverse", "aria2c_rpc", "caddy_root", "puppet", "trace_cmd"]

#: trace-record.c's optstring ``+hae:f:FA:p:cC:dDGo:O:s:r:V:vg:l:n:P:N:tb:R:B:kKsSiTm:M:H:q``: the letters that
#: take a value, and those that do not. ``+``: the options end at the first word that is not one (the command).
_TRACE_VALUED = frozenset("efApCoOsrVglnPNbRBmMH")
_TRACE_FLAGS = frozenset("haFcdDGvtkKSiTq")
#: trace-record.c ``long_options``: required_argument ones, and the rest (no_argument; ``--verbose`` takes an
#: optional one, attached with ``=`` only). getopt_long also takes a unique prefix of one.
_TRACE_LONG_VALUED = frozenset({
    "--ts-offset", "--max-graph-depth", "--cmdlines-size", "--user", "--module", "--tsync-interval", "--name",
    "--compression", "--file-version", "--proxy", "--temp", "--subbuf-size",
})  # fmt: skip
_TRACE_LONG_FLAGS = frozenset({
    "--date", "--func-stack", "--nosplice", "--nofifos", "--profile", "--stderr", "--by-comm", "--no-filter",
    "--debug", "--notimeout", "--quiet", "--help", "--proc-map", "--fork", "--tsc2nsec", "--poll", "--daemonize",
    "--verbose",
})  # fmt: skip
#: The subcommands that parse_record_options reads and whose trailing words record_trace runs (run_cmd).
_TRACE_RUNS = frozenset({"record", "start", "stream", "profile", "set"})


def _trace_long(name: str) -> str | None:
    """The long option ``name`` stands for (itself, or the one option it is a prefix of); None when unknown or
    ambiguous."""
    every = _TRACE_LONG_VALUED | _TRACE_LONG_FLAGS
    if name in every:
        return name
    matches = [option for option in every if option.startswith(name)]
    return matches[0] if len(matches) == 1 else None


def _trace_command(call: Call, sub: str, words: list[Word]) -> list[Word] | None:
    """The command after trace-cmd SUB's options (empty when none is given); None when it graded the use
    (an option it does not know, or a word only known when it runs, where the command may start)."""
    index = 0
    while index < len(words):
        value = words[index].value
        if value is None:
            destructive(
                call,
                "dynamic-argument",
                f"{shorten(words[index].src, 60)} is only known when it runs: it may be an option of trace-cmd {sub} "
                "or the command it runs.",
            )
            return None
        if value == "--":
            return words[index + 1 :]
        if not value.startswith("-") or value == "-":
            return words[index:]
        index += 1
        if value.startswith("--"):
            name, eq, _ = value.partition("=")
            option = _trace_long(name)
            if option is None or (eq and option in _TRACE_LONG_FLAGS and option != "--verbose"):
                destructive(
                    call, "unrecognised-use", f"trace-cmd {sub} {show(words[index - 1])} is not a known option."
                )
                return None
            if option in _TRACE_LONG_VALUED and not eq:
                index += 1
            continue
        for position, letter in enumerate(value[1:], start=1):
            if letter in _TRACE_VALUED:
                taken = Word(value[position + 1 :], value[position + 1 :])
                if position == len(value) - 1:  # the value is the next word
                    taken = words[index] if index < len(words) else Word("", "")
                    index += 1
                if letter == "o":  # -o output-file: the trace.dat written
                    call.write(taken, f"trace-cmd {sub} -o writes")
                break
            if letter not in _TRACE_FLAGS:
                destructive(
                    call, "unrecognised-use", f"trace-cmd {sub} {show(words[index - 1])} is not a known option."
                )
                return None
    return []


def trace_cmd(base: Handler) -> Handler:
    """trace-cmd-record(1): "record the specified plugins or events that happen while the 'command' executes";
    trace-cmd-stream(1) and trace-cmd-profile(1) likewise take ``[OPTIONS] [command]``, and trace-record.c runs a
    command given to ``start`` and ``set`` too. The command is graded as a wrapper's (``trace-cmd record rm -rf ~``
    is ``rm -rf ~``), named ``trace-cmd SUB`` in its wrappers; an option outside trace-record.c's tables, or a word
    only known when it runs, hides where the command starts: destructive."""

    def handler(call: Call) -> None:
        base(call)
        args = call.args
        sub = args[0].value if args else None
        if sub not in _TRACE_RUNS:
            return
        command = _trace_command(call, sub, args[1:])
        if command:
            call.run(command, f"trace-cmd {sub}")

    handler.__name__ = "trace_cmd"
    return handler


#: Core resource types whose listing prints no secret (puppet.com/docs/puppet/8/type.html): a package's version, a
#: service's state, a group's members, a host entry, a mount, a yum repository, an SELinux boolean or module, a
#: known host key or an authorized public key. A user's listing holds its password hash (the useradd provider reads
#: /etc/shadow as root: ``puppet resource user root`` prints ``password => '$6$...'``), a file's the checksum of its
#: content (``content => '{md5}...'``); other types, custom ones from modules included, may hold either.
_PUPPET_PLAIN_TYPES = frozenset({
    "package", "service", "group", "host", "mount", "yumrepo", "selboolean", "selmodule", "sshkey",
    "ssh_authorized_key",
})  # fmt: skip
#: puppet-resource(8) options that take a value.
_PUPPET_RESOURCE_VALUED = frozenset({"-p", "--param", "-H", "--host"})


def puppet(base: Handler) -> Handler:
    """puppet-resource(8): "If given a type, a name, and a series of attribute=value pairs, puppet resource will
    modify the state of the specified resource" through its provider, as the user (root: accounts, services, files,
    packages; an ``exec`` runs its command): destructive on the host (runs-program for ``exec``). Without pairs it
    lists; a listing of a type that may hold secrets (:data:`_PUPPET_PLAIN_TYPES` aside) is a secret read.
    puppet-config(8) ``set``/``delete`` rewrite puppet.conf, which every later Puppet run reads as its settings
    (``server``: where the agent gets the catalog it applies as root; ``modulepath``, ``factpath``,
    ``prerun_command``, ``postrun_command``: code it loads or runs): destructive on the host (persistence)."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args]
        if values[:1] == ["resource"]:
            _puppet_resource(call, values[1:])
        elif values[:1] == ["config"] and values[1:2] in (["set"], ["delete"]):
            key = next((v for v in values[2:] if v is not None and not v.startswith("-")), None)
            host_destructive(
                call,
                "persistence",
                f"puppet config {values[1]} {shorten(key or '', 40)} rewrites puppet.conf: every later Puppet run "
                "(the agent's, as root) takes its settings, which choose the server whose catalog it applies and "
                "the code it loads and runs.",
            )

    handler.__name__ = "puppet"
    return handler


def _puppet_resource(call: Call, values: list[str | None]) -> None:
    operands: list[str] = []
    index = 0
    while index < len(values):
        value = values[index] or ""
        index += 1
        if value.startswith("-"):
            if value in _PUPPET_RESOURCE_VALUED:
                index += 1
            continue
        operands.append(value)
    if not operands:
        return
    kind = operands[0].lower()
    pairs = [o for o in operands[2:] if "=" in o]
    if pairs and kind == "exec":
        destructive(call, "runs-program", f"puppet resource exec {shorten(pairs[0], 40)} runs the command it names.")
    elif pairs:
        host_destructive(
            call,
            "host-critical",
            f"puppet resource {shorten(kind, 30)} {shorten(pairs[0], 40)} changes the machine through Puppet's "
            "provider (as root: accounts, services, files, packages).",
        )
    elif kind not in _PUPPET_PLAIN_TYPES:
        call.flag(
            R.NETWORK,
            "secret-read",
            f"puppet resource {shorten(kind, 30)} prints the resources' attributes (a user's password hash, a file's "
            "content checksum): its output goes to the model.",
        )


#: adb's global options that take a value (adb --help: -s SERIAL, -t ID, -H host, -P port, -L SOCKET).
_ADB_VALUED = frozenset({"-s", "-t", "-H", "-P", "-L"})


def adb_reverse(base: Handler) -> Handler:
    """adb ``reverse REMOTE LOCAL`` ("reverse socket connection": the device's REMOTE socket leads to LOCAL on this
    machine, ``tcp:PORT`` a port of its loopback) lets the device connect to this machine's services, as
    ``ssh -R`` lets the other machine in: destructive on the host (inbound-tunnel). ``--list``, ``--remove`` and
    ``--remove-all`` open nothing. ``base`` is the adb entry's device-shell guard (programs/cloud.py)."""
    from .cloud import adb_shell

    inner = adb_shell(base)

    def handler(call: Call) -> None:
        inner(call)
        values = [w.value for w in call.args]
        index = 0
        while index < len(values) and (values[index] or "").startswith("-"):
            index += 2 if values[index] in _ADB_VALUED else 1
        if values[index : index + 1] != ["reverse"]:
            return
        rest = values[index + 1 :]
        if any(v in ("--list", "--remove", "--remove-all") for v in rest):
            return
        if not [v for v in rest if v is None or not v.startswith("-")]:
            return
        host_destructive(
            call,
            "inbound-tunnel",
            "adb reverse lets the device connect to ports on this machine: it opens this machine's services (bound "
            "to its loopback too) to the device and what runs there.",
        )

    handler.__name__ = "adb_reverse"
    return handler


#: caddy file-server's flags (caddyserver.com/docs/command-line; cobra/pflag shorthands may be clustered: ``-br``):
#: the shorthands that take a value.
_CADDY_VALUED = frozenset("rdp")


def _caddy_root(words: list[Word]) -> tuple[bool, str | None]:
    """Whether ``-r/--root`` is given and its value (None when only known when it runs)."""
    found: tuple[bool, str | None] = (False, None)
    index = 0
    while index < len(words):
        value = words[index].value
        index += 1
        if value is None or not value.startswith("-") or value == "--":
            continue
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            if name == "--root":
                if eq:
                    found = (True, attached)
                else:
                    found = (True, words[index].value if index < len(words) else "")
                    index += 1
            continue
        for position, letter in enumerate(value[1:], start=1):
            if letter in _CADDY_VALUED:
                taken: str | None = value[position + 1 :].removeprefix("=")
                if not taken:
                    taken = words[index].value if index < len(words) else ""
                    index += 1
                if letter == "r":
                    found = (True, taken)
                break
    return found


def caddy_root(base: Handler) -> Handler:
    """caddy file-server: "--root specifies the root file path. Default is the current working directory", served
    to every machine that reaches ``--listen`` (``:80`` by default). A root that may hold credentials (``~``, ``/``,
    ``~/.ssh``, ``/etc``) outside the workspace is destructive (serves-secrets), as ``python3 -m http.server -d ~``
    is (programs/shells.py)."""
    from .shells import _serves_secrets

    def handler(call: Call) -> None:
        base(call)
        args = call.args
        if not args or args[0].value != "file-server":
            return
        given, root = _caddy_root(args[1:])
        if given:
            _serves_secrets(call, "caddy file-server", root)

    handler.__name__ = "caddy_root"
    return handler


_RPC_LISTEN_ALL = "--rpc-listen-all"


def aria2c_rpc(base: Handler) -> Handler:
    """aria2c(1) "RPC Options": ``--rpc-listen-all[=true|false]`` "Listen incoming JSON-RPC/XML-RPC requests on all
    network interfaces" (with ``--enable-rpc``, or ``enable-rpc`` of its configuration). Whoever reaches the port
    drives the downloads: ``aria2.addUri`` with ``dir``/``out`` writes any file the user may, ``changeGlobalOption``
    ``log``/``save-session`` too (``--rpc-secret`` is a token this command chose): destructive on the host, as
    ``ssh -R``. A unique prefix (getopt_long: ``--rpc-listen-a``) counts; ``=false`` listens on the loopback only."""

    def handler(call: Call) -> None:
        base(call)
        for word in call.args:
            name, _, answer = (word.value or "").partition("=")
            if len(name) > len("--rpc-listen-") and _RPC_LISTEN_ALL.startswith(name) and answer != "false":
                host_destructive(
                    call,
                    "inbound-tunnel",
                    f"aria2c {show(word)} serves its RPC interface on every network interface: whoever reaches it "
                    "writes any file this user may (aria2.addUri dir/out).",
                )
                return

    handler.__name__ = "aria2c_rpc"
    return handler
