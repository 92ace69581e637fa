"""Network clients: at least ``network`` wherever they run, never downgraded.

Their local writes (``curl -o``, ``wget``'s downloads, ``scp``/``rsync`` to a local
destination) are graded as writes too. Options that make them run a local program
(``ssh -o ProxyCommand|LocalCommand|KnownHostsCommand|Include|PKCS11Provider|
SecurityKeyProvider|XAuthLocation|Match``, ``ssh -F``, ``ssh -I``, ``scp``/``sftp -S``/``-D``,
``rsync -e`` other than ssh or with such ssh options, ``nc -e``, ``curl -K``, ``wget -e``,
``wget --use-askpass``) are destructive (ssh(1), ssh_config(5), scp(1), sftp(1), rsync(1), wget(1)). ``ssh HOST COMMAND`` grades the
remote command as a script on another machine (nothing there is the workspace, and
containment does not apply to it).
"""

from __future__ import annotations

import posixpath
import re
import shlex

from bot.risk.grader import Call, Handler
from bot.risk.options import Opt, long_is, option_values, scan
from bot.risk.reasons import shorten
from bot.risk.sensitive import protected_path
from bot.risk.words import Word, literal_word

from .kit import (
    R,
    as_root,
    deletion,
    destructive,
    host_destructive,
    injected,
    network,
    read_only,
    sets_setid,
    show,
    unpacks,
)

__all__ = [
    "chrome_flags",
    "curl",
    "httpie_auth",
    "netcat",
    "plain_network",
    "remote_deletion",
    "rsync",
    "scp",
    "sftp",
    "ssh",
    "wget",
]


def plain_network(call: Call) -> None:
    """ping(8), dig(1), host(1), nslookup(1), traceroute(8), telnet(1), ftp(1): network egress."""
    network(call, f"{call.name} talks to other machines.")


def remote_deletion(call: Call, what: str) -> None:
    """An HTTP ``DELETE`` request (RFC 9110 section 9.3.5: the origin server removes the target resource):
    destructive (``remote-control-plane``, as ``gh api -X DELETE`` is), never downgraded: the sandbox does not hold the other machine's data."""
    destructive(call, "remote-control-plane", f"{what} asks the other machine to delete what the URL names.")


#: URL paths whose request deletes on the server whatever the method: Elasticsearch's "Delete by query API"
#: (``POST /<target>/_delete_by_query``: "Deletes documents that match the specified query", Elasticsearch 8.15
#: REST APIs) and OpenSearch's of the same name (OpenSearch 2 "Delete by query").
_DELETING_ENDPOINT = re.compile(r"/_delete_by_query(?:[/?#&]|$)", re.IGNORECASE)


def _deleting_endpoint(call: Call, words: list[Word], what: str) -> None:
    """A word naming a deleting endpoint (:data:`_DELETING_ENDPOINT`) is a remote deletion, whatever the method."""
    for word in words:
        if word.value is not None and _DELETING_ENDPOINT.search(word.value):
            remote_deletion(call, f"{what} {shorten(word.value, 60)}")
            return


_CURL_SHORT = "AbcCdDeEFHKmoPQrtTuUwxXyYz"
_CURL_LONG = frozenset({
    "--output", "--output-dir", "--dump-header", "--cookie-jar", "--trace", "--trace-ascii", "--stderr",
    "--libcurl", "--etag-save", "--hsts", "--alt-svc", "--config", "--header", "--data", "--data-binary",
    "--data-raw", "--data-urlencode", "--request", "--user", "--user-agent", "--referer", "--form", "--cookie",
    "--upload-file", "--write-out", "--proxy", "--max-time", "--range", "--cert", "--continue-at", "--url",
    "--connect-timeout", "--retry", "--json", "--cacert", "--key", "--resolve", "--connect-to", "--interface",
})  # fmt: skip
_CURL_WRITES = ("-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar", "--trace", "--trace-ascii",
                "--stderr", "--libcurl", "--etag-save", "--hsts", "--alt-svc")  # fmt: skip


def _not_an_option(word: Word) -> bool:
    """True when a word only known when it runs still cannot be an option: it does not split and its first character
    is written literally (``"Authorization: Bearer $TOKEN"``, ``host/$P``), a letter, a digit or one of ``/._:@``,
    so the word bash passes starts with it, not with ``-``."""
    if word.value is not None or word.splits:
        return False
    src = word.src[1:] if word.src.startswith('"') else word.src
    return bool(src) and (src[0].isalnum() or src[0] in "/._:@")


def curl(call: Call) -> None:
    """curl(1): network; ``-X DELETE`` (``--request``) or a deleting endpoint (``_delete_by_query``) deletes on the
    other machine (:func:`remote_deletion`);
    ``-o``/``-O``/``--output-dir`` and the other file options write; ``-K`` is refused."""
    if [w.value for w in call.args] in (["-V"], ["--version"], ["-h"], ["--help"], ["-M"], ["--manual"]):
        read_only(call, "curl only prints its version or help.")
        return
    network(call, "curl talks to other machines.")
    injected(call, [w for w in call.args if not _not_an_option(w)], runs_programs=False)
    # --head (curl(1) -I, "Fetch the headers only") takes no value: it is not an abbreviation of --header
    found = scan(
        call.args, _CURL_SHORT, _CURL_LONG, long_flags=frozenset({"--remote-name", "--remote-name-all", "--head"})
    )
    if found.has("-K", "--config"):
        destructive(
            call, "script-file", "curl -K reads options (including output files) from a file the classifier cannot see."
        )
        return
    methods = found.values("-X", "--request")
    if methods and (methods[-1].value or "").upper() == "DELETE":
        remote_deletion(call, f"curl -X {show(methods[-1])}")
    else:
        _deleting_endpoint(call, list(call.args), "curl")
    if found.has("-n", "--netrc", "--netrc-optional") and (
        found.has("-v", "--verbose", "--trace", "--trace-ascii")
        or any(v.value == "-" for v in found.values("-D", "--dump-header"))
    ):
        # curl(1) -n, --netrc: "scan the .netrc file in the user's home directory for login name and password";
        # -v shows the request headers (Authorization: Basic, the login encoded), --trace/-D - the exchange
        call.flag(
            R.NETWORK,
            "secret-read",
            "curl -n with -v/--trace/-D - prints the Authorization header built from ~/.netrc: its output goes to "
            "the model.",
        )
    dirs = found.values("--output-dir")
    base = dirs[-1] if dirs else None
    for opt in found.opts:
        if opt.name in _CURL_WRITES and opt.value is not None and opt.value.value != "-":
            call.write(opt.value, f"curl {opt.name} writes", cwd=base if opt.name in ("-o", "--output") else None)
    if found.has("-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name"):
        call.write(literal_word("."), "curl -O writes a file into", cwd=base)
    for fmt in found.values("-w", "--write-out"):
        _write_out(call, fmt)


#: curl(1) ``--write-out``: "``%output{filename}`` From this point on, the --write-out output is written to the
#: filename specified in braces. The filename can be prefixed with ``>>`` to append" (curl 8.3).
_CURL_OUTPUT = re.compile(r"%output\{(?:>>)?([^}]*)\}")


def _write_out(call: Call, fmt: Word) -> None:
    """A ``-w``/``--write-out`` format: each ``%output{FILE}`` is a write to FILE; ``@FILE`` (``@-``: standard
    input) reads the format from a file, so where it writes is only known when it runs."""
    text = fmt.value
    if text is None or text.startswith("@"):
        call.flag(
            R.DESTRUCTIVE,
            "unknown-write-target",
            f"curl -w {show(fmt)}: the format is only known when it runs, and its %output{{}} may write "
            "any file, a protected path among them.",
            downgradable=True,
        )
        return
    for match in _CURL_OUTPUT.finditer(text):
        call.write(literal_word(match.group(1)), "curl -w %output{} writes")


_WGET_SHORT = "OoaPeiBtTwQUlDRAIXn"
_WGET_LONG = frozenset({
    "--output-document", "--output-file", "--append-output", "--directory-prefix", "--execute", "--input-file",
    "--base", "--tries", "--timeout", "--wait", "--quota", "--user-agent", "--level", "--domains", "--reject",
    "--accept", "--include-directories", "--exclude-directories", "--save-cookies", "--load-cookies",
    "--config", "--header", "--post-data", "--post-file", "--user", "--password", "--method", "--body-data",
    "--warc-file", "--warc-tempdir", "--rejected-log", "--hsts-file",
})  # fmt: skip


def wget(call: Call) -> None:
    """wget(1): network; downloads land in the cwd, ``-P DIR`` or ``-O FILE``; ``-e``/``--config`` are refused."""
    network(call, "wget talks to other machines.")
    if injected(call, call.args, runs_programs=True):
        return
    found = scan(call.args, _WGET_SHORT, _WGET_LONG, long_flags=frozenset({"--spider", "--delete-after"}))
    if found.has("-e", "--execute", "--config"):
        destructive(call, "script-file", "wget -e/--config runs wgetrc commands the classifier does not grade.")
        return
    if any(long_is(opt.name, "--use-askpass") for opt in found.opts):
        destructive(call, "runs-program", "wget --use-askpass runs a program of the caller's choosing.")
        return
    methods = found.values("--method")
    if methods and (methods[-1].value or "").upper() == "DELETE":
        remote_deletion(call, f"wget --method={show(methods[-1])}")
    else:
        _deleting_endpoint(call, list(call.args), "wget")
    if found.has("-d", "--debug"):
        # wget(1) reads ~/.netrc for logins by default ("--no-netrc" aside); -d prints the request headers,
        # the Authorization header among them
        call.flag(
            R.NETWORK,
            "secret-read",
            "wget -d prints its requests' headers, the Authorization built from ~/.netrc among them: its output goes "
            "to the model.",
        )
    for log in found.values("-o", "--output-file", "-a", "--append-output", "--save-cookies"):
        call.write(log, "wget writes")
    for opt in found.opts:
        # wget(1): "--warc-file=file  Use file as the destination WARC file" (wget adds .warc.gz, or .warc with
        # --no-warc-compression), "--warc-tempdir=dir  Specify the location for temporary files created by the WARC
        # writer", "--rejected-log=logfile  Logs all URL rejections to logfile", "--hsts-file=file" (the HSTS
        # database it updates)
        if opt.value is None or not opt.name.startswith("--"):
            continue
        if long_is(opt.name, "--warc-file"):
            text = opt.value.value
            if text is None:
                call.write(opt.value, "wget --warc-file writes")
            else:
                suffix = "" if text.endswith((".warc", ".warc.gz")) else ".warc.gz"
                call.write(literal_word(text + suffix), "wget --warc-file writes")
        elif any(long_is(opt.name, name) for name in ("--warc-tempdir", "--rejected-log", "--hsts-file")):
            call.write(opt.value, f"wget {opt.name.split('=', 1)[0]} writes")
    documents = found.values("-O", "--output-document")
    if documents:
        for document in documents:
            if document.value != "-":
                call.write(document, "wget -O writes")
        return
    if found.has("--spider"):
        return
    prefixes = found.values("-P", "--directory-prefix")
    # wget(1) "-nc": "When running Wget with -r or -p, but without -N, -nd, or -nc, re-downloading a file will result
    # in the new copy simply overwriting the old"; with -N a newer remote file replaces the local one; -nc and -nd
    # keep what is there (a second copy is named FILE.1)
    replaces = found.has(
        "-r", "--recursive", "-m", "--mirror", "-p", "--page-requisites", "-N", "--timestamping"
    ) and not (
        found.has("--no-clobber", "--no-directories")
        or any(set(v.value or "c") & {"c", "d"} for v in found.values("-n"))  # -nc, -nd (-n takes the letter)
    )
    call.write(prefixes[-1] if prefixes else literal_word("."), "wget downloads into", replaces=replaces)


_SSH_SHORT = "BbcDEeFIiJLlmOopQRSWw"
# ssh_config(5) keys that run a local program, load a library or read more configuration.
_LOCAL_PROGRAM_KEYS = (
    "proxycommand", "localcommand", "knownhostscommand", "permitlocalcommand", "proxyusefdpass", "match", "include",
    "pkcs11provider", "securitykeyprovider", "xauthlocation",
)  # fmt: skip


#: ssh_config(5) keys that open a listening port on the other machine leading back here (ssh -R).
_REMOTE_FORWARD = frozenset({"remoteforward"})
#: ssh(1) ``-w local_tun[:remote_tun]`` "Requests tunnel device forwarding with the specified tun(4) devices between
#: the client and the server", as ssh_config(5) ``Tunnel`` (other than ``no``) and ``TunnelDevice`` do: a layer-3 or
#: layer-2 link joining this machine's network to the other machine's, over which the other side reaches this one.
_TUNNEL_KEYS = frozenset({"tunnel", "tunneldevice"})


def _ssh_options_run_program(call: Call, opts: list[tuple[str, Word | None]]) -> bool:
    for name, value in opts:
        if name == "-F":
            destructive(call, "script-file", f"{call.name} -F reads a config file that can run local programs.")
            return True
        if name == "-o":
            text = (value.value if value is not None else None) or ""
            key = text.replace("=", " ").split(" ", 1)[0].strip().lower()
            if value is None or value.value is None or key in _LOCAL_PROGRAM_KEYS:
                destructive(
                    call, "runs-program", f"{call.name} -o {show(value) if value else ''} can run a local program."
                )
                return True
        if name == "-S" and call.name in ("scp", "sftp"):
            destructive(call, "runs-program", f"{call.name} -S runs a program of the caller's choosing.")
            return True
        if name == "-D" and call.name in ("scp", "sftp"):
            destructive(
                call, "runs-program", f"{call.name} -D runs a local SFTP server program of the caller's choosing."
            )
            return True
        if name == "-I" and call.name == "ssh":
            destructive(call, "runs-program", "ssh -I loads a PKCS#11 library (code) of the caller's choosing.")
            return True
    return False


def ssh(call: Call) -> None:
    """ssh(1): network; ``ssh HOST COMMAND...`` grades COMMAND as a remote script. OpenSSH reads options after the
    destination too (ssh.c parses again after taking the host, up to the first word that is not an option):
    ``ssh host -D 1080`` and ``ssh host -p 2222 ls`` give options, and the command starts after them."""
    if [w.value for w in call.args] == ["-V"]:
        read_only(call, "ssh -V only prints its version.")
        return
    found = scan(call.args, _SSH_SHORT, frozenset(), stop_at_operand=True)
    after = found.rest[1:]
    more = scan(after, _SSH_SHORT, frozenset(), stop_at_operand=True) if found.rest else found
    options = found.opts + (more.opts if found.rest else [])
    # ssh(1) -G: "print its configuration after evaluating Host and Match blocks and exit": no connection
    printing = any(o.name == "-G" for o in options)
    if not printing:
        network(call, "ssh talks to another machine.")
    if injected(call, call.args[: len(call.args) - len(found.rest) + 1], runs_programs=True):
        return
    if found.rest and injected(
        call, after[: len(after) - len(more.rest) + (1 if more.rest else 0)], runs_programs=True
    ):
        return
    if _ssh_options_run_program(call, [(o.name, o.value) for o in options]):
        return
    if printing:
        read_only(call, "ssh -G prints the configuration it would use and exits without connecting.")
        return
    for option in options:
        if option.name == "-E" and option.value is not None:
            call.write(option.value, "ssh -E writes")
        forward = (option.value.value or "") if option.value is not None else ""
        if option.name == "-R" or (
            option.name == "-o" and forward.replace("=", " ").split(" ", 1)[0].lower() in _REMOTE_FORWARD
        ):
            host_destructive(
                call,
                "inbound-tunnel",
                "ssh -R (RemoteForward) lets the other machine connect to ports on this machine, or through it to "
                "any address it reaches: it opens this machine to the outside.",
            )
        key, _, answer = forward.replace("=", " ").partition(" ")
        if option.name == "-w" or (
            option.name == "-o" and key.lower() in _TUNNEL_KEYS and answer.strip().lower() not in ("no", "")
        ):
            host_destructive(
                call,
                "inbound-tunnel",
                "ssh -w (Tunnel) joins this machine's network to the other machine's through a tun device: the other "
                "side reaches this machine and what it reaches.",
            )
    _ssh_open_forwards(call, options)
    for option in options:
        setting = (option.value.value or "") if option.value is not None else ""
        key, _, answer = setting.replace("=", " ").partition(" ")
        if option.name in ("-A", "-Y") or (
            option.name == "-o"
            and key.lower() in ("forwardagent", "forwardx11trusted")
            and answer.strip().lower() not in ("no", "")
        ):
            # ssh(1) -A: users who can reach the agent's socket on the remote host "can access the local agent ...
            # and use the identities loaded into the agent"; -Y: trusted X11 forwarding skips the X11 SECURITY
            # extension controls (the remote side reads keystrokes and the screen)
            call.flag(
                R.SYSTEM,
                "credential-forwarding",
                f"ssh {option.name} {show(option.value) if option.value is not None else ''}".rstrip()
                + " lets the other machine use this machine's ssh keys (agent) or its display and keyboard.",
            )
            break
    command = more.rest if found.rest else []
    if any(w.value is None for w in command):
        destructive(call, "dynamic-script", "The remote command is only known when it runs.")
        return
    if not command or remote_shell_reading_stdin([w.value or "" for w in command]):
        # ssh(1): without a command the remote login shell runs, reading standard input (as "bash -s" given as the
        # command does); -N runs no command, -n/-f read /dev/null, -G/-Q/-O/-W/-V open no shell
        if not found.rest or call.rec.null_stdin or {o.name for o in options} & _SSH_NO_SHELL:
            return
        if call.rec.stdin is not None:
            call.script(call.rec.stdin, "ssh (its standard input, run by the remote shell)", remote=True)
            return
        if not command and not call.rec.fed:
            return  # an interactive login (the session's own input), graded as before: network
        if not command:
            destructive(
                call,
                "shell-stdin",
                "ssh without a command runs the remote login shell, which reads its script from standard input "
                "(here a file or a pipe): the classifier cannot see it.",
            )
            return
    call.script(" ".join(w.value or "" for w in command), "ssh", remote=True)


#: ssh(1) options after which no remote shell reads standard input: -N (no command), -n and -f (standard input from
#: /dev/null), -G and -Q (print and exit), -O (a control command to the master), -W (standard input forwarded to a
#: host and port), -V (the version).
_SSH_NO_SHELL = frozenset({"-N", "-n", "-f", "-G", "-Q", "-O", "-W", "-V"})
#: Shells given as the remote command that read their script from standard input (bash(1), dash(1): no script
#: operand, or -s), with options that change only how it runs (-e exit on error, -x trace, -u unset is an error,
#: -l a login shell).
_STDIN_SHELLS = frozenset({"sh", "bash", "dash", "zsh"})
_STDIN_SHELL_OPTIONS = frozenset({"-s", "-e", "-x", "-u", "-l", "-ex", "-xe", "-eu", "-ue", "-eux", "-se", "-es"})


def remote_shell_reading_stdin(command: list[str]) -> bool:
    """True for a remote command that is only a shell reading its script from standard input (``bash``,
    ``sh -s``, ``bash -ex``): then the here-document or here-string given to ssh is that script."""
    return bool(command) and command[0] in _STDIN_SHELLS and all(w in _STDIN_SHELL_OPTIONS for w in command[1:])


def open_bind(address: str | None) -> bool:
    """True when a listening address is not this machine's loopback: every interface (``""``, ``*``, ``0.0.0.0``,
    ``::``), another address of this machine, or one only known when it runs (None)."""
    if address is None:
        return True
    address = address.strip("[]").lower()
    return not (address in ("localhost", "::1", "ip6-localhost") or address.startswith("127."))


def _ssh_open_forwards(call: Call, options: list[Opt]) -> None:
    """ssh(1) ``-L [bind_address:]port:host:hostport`` and ``-D [bind_address:]port``: "An empty address or '*'
    indicates that the port should be available from all interfaces" (``-g`` and ``GatewayPorts`` do the same for
    a forward without an address): a forward or SOCKS proxy other machines can use to reach, as this machine, what
    it reaches. A loopback address (the default) keeps the forward on this machine."""
    gateway = any(
        o.name == "-g"
        or (
            o.name == "-o"
            and o.value is not None
            and (o.value.value or "").replace("=", " ").split()[:2]
            in (["GatewayPorts", "yes"], ["gatewayports", "yes"])
        )
        for o in options
    )
    for option in options:
        if option.name not in ("-L", "-D") or option.value is None:
            continue
        spec = option.value.value
        if spec is not None and "/" in spec:
            continue  # a Unix-domain socket
        bound: str | None = ""
        if spec is not None:
            parts = _split_forward(spec)
            wanted = 4 if option.name == "-L" else 2
            if len(parts) < wanted:
                if not gateway:
                    continue
            else:
                bound = parts[0]
        else:
            bound = None
        if open_bind(bound):
            host_destructive(
                call,
                "inbound-tunnel",
                f"ssh {option.name} {show(option.value)} listens on every interface (or an address only known when "
                "it runs): other machines reach, through this one, what it reaches.",
            )
            return


#: HTTPie and xh options taking a value as the next word (HTTPie CLI docs, xh(1)).
_HTTPIE_VALUES = frozenset({
    "-a", "--auth", "-A", "--auth-type", "-p", "--print", "-o", "--output", "--session", "--session-read-only",
    "--proxy", "--verify", "--cert", "--cert-key", "--timeout", "--max-redirects", "--pretty", "-s", "--style",
    "--format-options", "--response-charset", "--response-mime", "--boundary", "--raw", "--default-scheme",
    "--ssl", "--ciphers", "--max-headers", "--chunked", "--unsorted", "-P", "--history-print",
})  # fmt: skip


def httpie_auth(base: Handler) -> Handler:
    """HTTPie and xh printing credentials the command line does not hold. HTTPie CLI docs, "Authentication"/
    ".netrc": without ``-a``/``--auth`` a request is authenticated with the host's login in ``~/.netrc`` (unless
    ``--ignore-netrc``; xh(1) the same); "Sessions": ``--session``/``--session-read-only`` add the headers (an
    ``Authorization`` among them) and cookies stored under ``~/.config/httpie``. "Output options": ``-v``/
    ``--verbose``, ``--all``, ``--offline`` and ``-p``/``--print`` holding ``H`` print the request's headers, so
    that Authorization header goes to the model: ``secret-read`` (network). Credentials given with ``-a user:pass``
    or a header word are the command's own words (their expansions of secret variables are graded as every word
    is); printing them adds nothing.

    "Sessions" (HTTPie's httpie/sessions.py ``get_httpie_session``): a ``--session`` value holding a ``/`` is the
    session file's path (``~`` expanded by HTTPie itself), which it loads and saves back as JSON with the request's
    headers: a write there, graded by where it lands (``--session=~/.bashrc`` is a write to ``~/.bashrc``); a name
    without one is a file under ``~/.config/httpie/sessions`` (the entry's ``:home``). xh(1) ``--session`` takes a
    name or a path the same way. ``--session-read-only`` only reads the file (a credential file there is a secret
    read, as any operand naming one)."""

    def handler(call: Call) -> None:
        base(call)
        for given in option_values(call.args, "--session"):
            if given.value is not None and "/" in given.value:
                call.write(literal_word(given.value), f"{call.name} --session saves its session file")
        words = call.args
        printed = False
        explicit = False
        ignore = False
        session: str | None = None
        index = 0
        while index < len(words):
            value = words[index].value or ""
            index += 1
            name, eq, attached = value.partition("=")
            if not value.startswith("-"):
                continue
            taken = attached if eq else (words[index].value or "?" if index < len(words) else "")
            if name in _HTTPIE_VALUES and not eq:
                index += 1
            if name in ("-v", "--verbose", "--all", "--offline") or (
                not name.startswith("--") and len(name) > 2 and "v" in name[1:] and name[1:].isalpha()
            ):
                printed = True
            elif name in ("-p", "--print") and "H" in taken:
                printed = True
            elif name.startswith("-p") and not name.startswith("--") and len(name) > 2 and "H" in name[2:]:
                printed = True
            elif name in ("-a", "--auth"):
                explicit = True
            elif name == "--ignore-netrc":
                ignore = True
            elif name in ("--session", "--session-read-only"):
                session = taken
        if not printed:
            return
        if session is not None:
            whence = f"the session {shorten(session, 40)} (stored headers and cookies under ~/.config/httpie)"
        elif not explicit and not ignore:
            whence = "~/.netrc (the host's login, used when no -a is given)"
        else:
            return
        call.flag(
            R.NETWORK,
            "secret-read",
            f"{call.name} prints its request's headers, with the Authorization header built from {whence}: its "
            "output goes to the model.",
        )

    handler.__name__ = "httpie_auth"
    return handler


def tailscale_funnel(base: Handler) -> Handler:
    """tailscale funnel (tailscale.com/kb/1311/tailscale-funnel): "route traffic from the broader internet to a
    local service" — a port of this machine opened to everyone (inbound-tunnel), as ``ngrok`` or ``ssh -R``;
    ``funnel status`` only prints, ``funnel reset`` and ``--https=PORT off`` close it. ``up``, ``login``, ``switch``
    (tailscale.com/kb/1080/cli: "Connect to Tailscale", "Log in to a Tailscale account", "Switch to a different
    Tailscale account": the machine joins a tailnet, whose devices reach its services) and ``--ssh`` ("Run an SSH
    server, permitting access per tailnet admin's declared policy") open the host to other machines: destructive on
    the host (remote-access). ``serve`` ("Serve content and local servers on your tailnet") of a machine already on
    the tailnet keeps the system grade."""

    def handler(call: Call) -> None:
        base(call)
        operands = [w.value for w in call.args if w.value is None or not w.value.startswith("-")]
        closing = operands[1:2] in (["status"], ["reset"]) or "off" in operands[1:]
        ssh = any((w.value or "").split("=", 1)[0] == "--ssh" and w.value != "--ssh=false" for w in call.args)
        if operands[:1] in (["up"], ["login"], ["switch"], ["set"]) and (ssh or operands[0] != "set"):
            host_destructive(
                call,
                "remote-access",
                f"tailscale {operands[0]} {'runs Tailscale SSH' if ssh else 'joins this machine to a tailnet'}: "
                "other machines reach its services, it opens the host to remote access.",
            )
            return
        if operands[:1] != ["funnel"] or closing:
            return
        host_destructive(
            call,
            "inbound-tunnel",
            "tailscale funnel routes traffic from the internet to a service of this machine: it opens it to everyone.",
        )

    handler.__name__ = "tailscale_funnel"
    return handler


def _split_forward(spec: str) -> list[str]:
    """A forwarding spec split at its colons, an IPv6 address in brackets kept whole."""
    parts: list[str] = []
    current = ""
    depth = 0
    for char in spec:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        if char == ":" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


def _is_remote(word: Word) -> bool:
    value = word.value
    if value is None:
        return True
    if "://" in value:
        return True
    head = value.split("/", 1)[0]
    return ":" in head


def _remote_lands(call: Call, sources: list[Word], dest: Word, what: str) -> None:
    """A copy to ``dest`` on another machine (``[user@]host:PATH``) writes PATH there, as ``ssh host cp … PATH``
    would (a remote command is graded as if typed there): a path there that changes the system or a login (sensitive.py
    ``protected_path``: ``/etc/sudoers.d/x``, ``~/.ssh/authorized_keys``, ``.bashrc`` in the remote home, a relative
    PATH being in that home; under ``/var`` only the crontabs of ``/var/spool``, as deploys land in ``/var/www``) is
    destructive (``protected-path-write``). A PATH naming a directory (empty, or ending in
    ``/``) receives each source by its name. Other remote paths keep the copy's grade (network)."""
    value = dest.value
    if value is None or "://" in value:
        return
    path = value.partition(":")[2]
    if path.startswith("/") or path.startswith("~"):
        target = path
    else:
        target = "~/" + path if path else "~/"
    targets = [target]
    if target.endswith("/"):
        names = [posixpath.basename((w.value or "").rstrip("/")) for w in sources]
        targets = [target + name for name in names if name] or [target]
    for one in targets:
        one = posixpath.normpath(one) if one.startswith("/") else one
        if one.startswith("/var/") and not one.startswith("/var/spool/"):
            continue  # a site or data directory there (/var/www, /var/lib/app): the deploy stays a copy
        why = protected_path(one)
        if why is not None:
            destructive(call, "protected-path-write", f"{what} {shorten(value, 80)} writes {one} there: {why}.")
            return


def scp(call: Call) -> None:
    """scp(1): network; a local destination is written; a destination on another machine is judged as a write there
    (:func:`_remote_lands`)."""
    network(call, "scp copies to or from another machine.")
    if injected(call, call.args, runs_programs=True):
        return
    found = scan(call.args, "cFiJloPSDX", frozenset())
    if _ssh_options_run_program(call, [(o.name, o.value) for o in found.opts]):
        return
    operands = found.operands
    if len(operands) >= 2 and not _is_remote(operands[-1]):
        call.write(operands[-1], "scp writes")
    elif len(operands) >= 2:
        _remote_lands(call, operands[:-1], operands[-1], "scp to")
    if found.has("-r"):  # scp(1) -r: "Recursively copy entire directories": every file below a local source is read
        for source in operands[:-1]:
            if not _is_remote(source):
                call.g.read_below(call.rec, call.scope, "scp -r", source, None)


def sftp(call: Call) -> None:
    """sftp(1): network; ``-b BATCHFILE``, or a session's commands from standard input, run commands (transfers to
    any path, remote deletions, ``!`` local commands) the classifier cannot see; ``host:FILE [LOCAL]`` retrieves."""
    network(call, "sftp talks to another machine.")
    if injected(call, call.args, runs_programs=True):
        return
    found = scan(call.args, "BbcDFiJloPRSs", frozenset())
    if _ssh_options_run_program(call, [(o.name, o.value) for o in found.opts]):
        return
    if found.has("-b"):
        destructive(call, "script-file", "sftp -b runs a batch file the classifier cannot see.")
        return
    # sftp(1): "sftp [user@]host[:path]" with a file's path retrieves it without a prompt, into the local FILE
    # given after it (sftp.c: "host:file [file2]") or the current directory
    operands = found.operands
    if operands and _remote_path(operands[0]):
        call.write(operands[1] if len(operands) > 1 else literal_word("."), "sftp retrieves into")
    else:
        # a session: its commands come from standard input (get and put of any path, "!" runs a local command)
        destructive(
            call,
            "shell-stdin",
            "sftp without a file to retrieve reads its commands from standard input (get/put of any path, ! runs "
            "a local command), which the classifier cannot see.",
        )


def _remote_path(word: Word) -> bool:
    """True when ``word`` names a path on the other machine (``host:path``, ``sftp://host/path``) or is only known
    when it runs."""
    value = word.value
    if value is None:
        return True
    if "://" in value:
        return "/" in value.split("://", 1)[1].strip("/")
    head, colon, rest = value.partition(":")
    return bool(colon) and "/" not in head and bool(rest)


_RSYNC_SHORT = "efBTM"
_RSYNC_LONG = frozenset({
    "--rsh", "--rsync-path", "--filter", "--exclude", "--include", "--exclude-from", "--include-from",
    "--files-from", "--backup-dir", "--suffix", "--log-file", "--log-file-format", "--temp-dir", "--partial-dir",
    "--compare-dest", "--copy-dest", "--link-dest", "--password-file", "--port", "--address", "--bwlimit",
    "--timeout", "--contimeout", "--max-size", "--min-size", "--max-delete", "--chmod", "--chown", "--usermap",
    "--groupmap", "--out-format", "--write-batch", "--only-write-batch", "--read-batch", "--config",
    "--iconv", "--info", "--debug", "--modify-window", "--block-size", "--checksum-choice", "--compress-choice",
    "--compress-level", "--skip-compress", "--sockopts", "--outbuf", "--protocol", "--remote-option",
    "--stop-after", "--stop-at", "--early-input",
})  # fmt: skip


#: rsync(1) flags named here so that their abbreviations resolve (popt takes a unique prefix of a long option, and
#: a name spelled in full is that option: ``--backup`` is not ``--backup-dir``, ``--compress`` not
#: ``--compress-choice``); none takes a value, so the word after each is an operand (``--mkpath``: "create
#: destination's missing path components").
_RSYNC_FLAGS = frozenset({
    "--dry-run", "--remove-source-files", "--archive", "--perms", "--list-only", "--daemon", "--mkpath", "--backup",
    "--checksum", "--compress", "--group", "--partial",
})  # fmt: skip


def rsync(call: Call) -> None:
    """rsync(1): network when an operand is remote; the destination is written;
    ``--delete*``/``--remove-source-files`` delete; ``-e`` other than ssh runs a program."""
    if injected(call, call.args, runs_programs=True):
        return
    found = scan(call.args, _RSYNC_SHORT, _RSYNC_LONG, long_flags=_RSYNC_FLAGS)
    for shell in found.values("-e", "--rsh", "--rsync-path"):
        first = (shell.value or "").split(" ", 1)[0]
        if shell.value is None or first not in ("ssh", "rsync") or _rsh_runs_program(call, shell.value):
            destructive(call, "runs-program", f"rsync runs the program {show(shell)}.")
            return
    operands = found.operands
    if found.has("--daemon"):
        # rsync(1) --daemon: "This tells rsync that it is to run as a daemon", serving the modules of its config
        # (--config=FILE, /etc/rsyncd.conf) to other machines; rsyncd.conf(5) "pre-xfer exec", "post-xfer exec" and
        # "early exec" are commands it runs, and a module's "path" may be any directory, writable unless "read only"
        destructive(
            call,
            "inbound-tunnel",
            "rsync --daemon serves the modules of its configuration (any directory, writable) to other machines and "
            "runs the commands the configuration names; FlyBot does not read it.",
        )
        return
    if found.has("--read-batch"):
        # rsync(1) --read-batch=FILE: "Apply all of the changes stored in FILE, a file previously generated by
        # --write-batch": the files written, and deleted when the batch was made with --delete, are only known then
        destructive(
            call,
            "deletion",
            f"rsync --read-batch applies the changes recorded in {show(found.values('--read-batch')[-1])} (writes, "
            "and deletions too) to the destination: which files it changes is only known when it runs.",
        )
        for word in operands[-1:]:
            call.write(word, "rsync --read-batch writes")
        return
    if found.has("-n", "--dry-run") and not found.has("--only-write-batch", "--write-batch", "--log-file"):
        # rsync(1) -n/--dry-run: "perform a trial run that doesn't make any changes"; it still connects
        if any(_is_remote(w) for w in operands):
            network(call, "rsync --dry-run lists what it would copy to or from another machine.")
        else:
            read_only(call, "rsync --dry-run only lists what it would copy.")
        return
    for opt in found.opts:
        if opt.name.startswith("--del") or long_is(opt.name, "--remove-source-files"):
            deletion(call, f"rsync {opt.name} deletes files.")
            # --delete* deletes in the destination, --remove-source-files the sources it sent (rsync(1))
            named = operands[-1:] if opt.name.startswith("--del") else operands[:-1]
            for word in named:
                if not _is_remote(word):
                    call.g.removes(call.rec, call.scope, word, f"rsync {opt.name} deletes in")
    for mode in found.values("--chmod"):
        if mode.value is None or sets_setid(mode.value):
            host_destructive(
                call,
                "setuid",
                f"rsync --chmod={show(mode)} may set the setuid/setgid bit: a program then runs as its owner.",
            )
    if as_root(call) and any(o.name in ("-a", "--archive", "-p", "--perms") for o in found.opts):
        host_destructive(
            call,
            "setuid",
            "rsync as root keeping modes (-a, -p) copies setuid/setgid bits and owners: a program then runs as root.",
        )
    if any(o.name in ("-a", "--archive", "-r", "--recursive", "--files-from") for o in found.opts):
        # rsync(1) -r/-a: every file below a local source is read (and copied where the destination says);
        # --files-from=FILE: the files FILE lists, any below the source ("paths relative to the source dir")
        for source in operands[:-1]:
            if not _is_remote(source):
                call.g.read_below(call.rec, call.scope, "rsync -a/-r", source, None)
    for log in found.values("--log-file", "--write-batch", "--only-write-batch"):
        call.write(log, "rsync writes")
    local_dest = operands[-1] if len(operands) >= 2 and not _is_remote(operands[-1]) else None
    for opt in found.opts:
        if opt.name in _RSYNC_DEST_DIRS and opt.value is not None:
            _rsync_dest_dir(call, opt.name, opt.value, local_dest, remote_dest=len(operands) >= 2 and not local_dest)
    if any(_is_remote(w) for w in operands):
        network(call, "rsync copies to or from another machine.")
    if len(operands) >= 2 and _is_remote(operands[-1]):
        _remote_lands(call, operands[:-1], operands[-1], "rsync to")
    if len(operands) >= 2 and not _is_remote(operands[-1]):
        # only a recursive sync (rsync(1) -r, -a; -R and --files-from keep the sources' directories) puts files its
        # sources name into the destination
        fills = found.dynamic or any(opt.name in _RSYNC_RECURSIVE for opt in found.opts)
        call.write(operands[-1], "rsync writes", fills=fills)
        _rsync_lands(call, operands[:-1], operands[-1])
    elif len(operands) < 2 and not any(_is_remote(w) for w in operands):
        read_only(call, "rsync with one local operand only lists it.")


_RSYNC_RECURSIVE = frozenset({"-r", "--recursive", "-a", "--archive", "-R", "--relative", "--files-from"})
#: rsync(1) options naming a directory it writes into on the receiving side: ``--backup-dir=DIR`` ("store all
#: backups in the specified directory": the replaced destination file lands at DIR/NAME), ``-T``/``--temp-dir=DIR``
#: (the scratch copies of received files) and ``--partial-dir=DIR`` (kept partial files). A relative DIR is taken
#: from the destination directory.
_RSYNC_DEST_DIRS = frozenset({"--backup-dir", "--temp-dir", "-T", "--partial-dir"})


def _rsync_dest_dir(call: Call, name: str, value: Word, dest: Word | None, *, remote_dest: bool) -> None:
    """A write into the directory of an :data:`_RSYNC_DEST_DIRS` option: an absolute or ``~`` path where it says;
    a relative one below the local destination (the destination itself when it is a directory, the one holding it
    when it names a file: both are graded); on a remote destination the directory is the other machine's."""
    text = value.value
    if remote_dest and text is not None:
        return
    if text is None or text.startswith(("/", "~")) or dest is None or dest.value is None:
        call.write(value, f"rsync {name} writes into")
        return
    for base in {dest.value, posixpath.dirname(dest.value.rstrip("/")) or "."}:
        landed = posixpath.join(base, text)
        call.write(Word(landed, landed), f"rsync {name} writes into")


def _rsync_lands(call: Call, sources: list[Word], dest: Word) -> None:
    """rsync(1) "USAGE": a source without a trailing slash lands as ``DEST/NAME`` (``rsync -a build/.claude .``
    writes ``./.claude``), graded as a write there; a source's contents (a trailing slash, ``.``, a glob) land as
    files only it names: into the workspace root, they may be git's or an agent's control files (kit.unpacks). A
    remote or unknown source is an extraction into any directory (kit.unpacks: a nested ``.git`` too)."""
    if not dest.value or any(ch in dest.value for ch in "*?["):
        return
    for source in sources:
        value = source.value
        if value is None or _is_remote(source):  # another machine's files (or unknown ones): a nested .git too
            unpacks(call, dest, "rsync copies files its source names into")
            return
        if value.endswith("/") or value in (".", "./") or "*" in value:
            if call.g.at_workspace_root(dest):
                unpacks(call, dest, "rsync copies files its source names into")
                return
            continue
        base = posixpath.basename(value)
        if base and base not in (".", "..", "HEAD", "config", "config.worktree", "hooks"):
            landed = posixpath.join(dest.value, base)
            call.write(Word(landed, landed), "rsync writes")


def _rsh_runs_program(call: Call, command: str) -> bool:
    """``rsync -e 'ssh -o ProxyCommand=...'``: the ssh options of a remote shell command line (shlex-split)."""
    try:
        parts = shlex.split(command)
    except ValueError:
        return True
    if len(parts) == 1:
        return False
    found = scan([literal_word(p) for p in parts[1:]], _SSH_SHORT, frozenset())
    for opt in found.opts:
        if opt.name in ("-F", "-I"):
            return True
        if opt.name == "-o":
            text = (opt.value.value if opt.value is not None else None) or ""
            if text.replace("=", " ").split(" ", 1)[0].strip().lower() in _LOCAL_PROGRAM_KEYS:
                return True
    return False


def netcat(call: Call) -> None:
    """nc(1)/ncat(1): network; ``-e``/``-c``/``--exec``/``--sh-exec``/``--lua-exec`` run a program."""
    network(call, f"{call.name} opens network connections.")
    if injected(call, call.args, runs_programs=True):
        return
    for word in call.args:
        value = word.value or ""
        if value in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") or value.startswith(
            ("--exec=", "--sh-exec=", "--lua-exec=")
        ):
            destructive(call, "runs-program", f"{call.name} {value} connects a program to the network.")
            return
    found = scan(call.args, "opsw", frozenset({"--output"}))
    if call.name == "ncat":
        for output in found.values("-o", "--output"):
            call.write(output, "ncat -o writes")


#: Chrome switches that only choose how the browser shows a page (Chromium "List of Chromium Command Line Switches":
#: --headless runs without a window, --disable-gpu and --disable-dev-shm-usage change where it draws and keeps
#: shared memory, --window-size the viewport): any other (--renderer-cmd-prefix runs a program, --user-data-dir
#: writes a profile, --no-sandbox lifts the renderer's sandbox, --load-extension loads code) is unknown.
_PLAIN_CHROME_FLAGS = re.compile(
    r"--(?:headless(?:=(?:new|old))?|disable-gpu|disable-dev-shm-usage|disable-extensions|no-first-run|"
    r"no-default-browser-check|incognito|mute-audio|hide-scrollbars|window-size=\d+,\d+|lang=[A-Za-z-]+)"
)


def chrome_flags(base: Handler) -> Handler:
    """lighthouse --help (Lighthouse 12): ``--chrome-flags "Custom flags to pass to Chrome (space-delimited)"``, the
    switches of the Chrome it starts. Each switch given must be one of :data:`_PLAIN_CHROME_FLAGS`; any other, or a
    value only known when it runs, is destructive (``unrecognised-use``)."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        for index, word in enumerate(words):
            value = word.value
            if value is None or not value.startswith("--chrome-flags"):
                continue
            if value == "--chrome-flags":
                given = words[index + 1].value if index + 1 < len(words) else ""
            elif value.startswith("--chrome-flags="):
                given = value.partition("=")[2]
            else:
                continue
            try:
                switches = shlex.split(given) if given is not None else None
            except ValueError:
                switches = None
            if switches is None or not all(_PLAIN_CHROME_FLAGS.fullmatch(s) for s in switches):
                destructive(
                    call,
                    "unrecognised-use",
                    f"{call.name} --chrome-flags passes Chrome switches that may run or load programs.",
                )
                return

    return handler
