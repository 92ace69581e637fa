"""Words that change what a command's subcommand means, for standing approvals.

A standing approval's pattern (``apt-get install``, ``pip install``, ``git push``) covers the subcommand as its plain
words mean it. :func:`changing_words` returns the positions in an argv of the words that make it mean something
else: a pattern covers a command only when every such word lies within the words the pattern spells out
(bot/standing.py ``covers_command``), so ``apt-get install`` covers ``apt-get install -y jq`` but not
``apt-get install --reinstall jq``, while a pattern ``apt-get install --reinstall`` covers
``apt-get install --reinstall jq``.

The rule is an allowlist, per program and subcommand (:data:`_TABLES`): an option word is plain only when it is
one of the listed options written exactly (``--quiet``), or a short cluster of listed one-letter options
(``-yq``); any other option word -- an abbreviation (``--forc``), a cluster holding an unlisted letter
(``-gf``), ``--name=value``, ``--`` -- changes the meaning. An operand is plain only when it has the shape of a
plain name for that program (:data:`_TABLES`' patterns: no version, release, architecture, path, URL, alias, glob
or removal suffix); any other operand changes the meaning. The worst of these also grade ``destructive`` (the
program handlers), which no standing approval covers; the rest keep their grade and only need naming.

Plain options and operands, per program (the manual pages say what each option does):

* apt, apt-get (apt-get(8), any subcommand): ``-y``/``--yes``/``--assume-yes``, ``-q``/``-qq``/``--quiet``,
  ``--no-install-recommends``, ``--no-install-suggests``; packages named ``[a-z0-9][a-z0-9+.-]*[a-z0-9+.]``
  (Debian Policy 5.6.1), so no ``pkg-`` suffix, no ``pkg=version``, ``pkg/release``, ``pkg:arch``, ``.deb`` file,
  glob or regular expression, and no ``.`` or ``+`` at all: apt reads a name holding one that no package has as a
  regular expression (``python3.1``, ``lib.``, ``g+``), and only the machine's apt cache knows which names exist
  (``_apt_name``).
* dnf, yum (dnf(8), any subcommand): ``-y``/``--assumeyes``, ``-q``/``--quiet``; package names without a path,
  URL, ``.rpm`` file, glob or version (``openssl-1.0.2k``: dnf installs that version over a newer one,
  :data:`_DNF_VERSION`).
* pacman (pacman(8)): the operations ``-S``, ``-Sy``, ``-Su``, ``-Syu``, ``-Q`` (any other, such as ``-Sdd`` or
  ``-Rns``, changes the meaning), then ``--noconfirm``, ``--needed``, ``-q``/``--quiet``; plain package names.
* brew (brew(1), any subcommand): ``-q``/``--quiet``, ``-v``/``--verbose``, ``--formula``; formula names without a
  tap (``user/tap/name``), path, URL or ``.rb`` file.
* snap (snap(8), any subcommand): no option; snap names.
* apk (apk(8), apk-add(8), any subcommand): ``-q``/``--quiet``, ``-v``/``--verbose``, ``-U``/``--update-cache``,
  ``--no-cache``, ``--no-progress``; package names without a version constraint (``jq=1.5-r0``, ``jq<1.6``,
  ``jq~1.5``: a downgrade), a repository tag (``jq@edge``: another repository's packages), a ``!`` (apk-world(5):
  ``!name`` is a conflict, so ``apk add '!busybox'`` removes an installed package), a path or a ``.apk`` file.
  ``--allow-untrusted``, ``--force-*``, ``--keys-dir``, ``--repository`` and the like change the meaning.
* gem install (gem-install(1), ``gem help install``): ``-N``/``--no-document``, ``--user-install``,
  ``--conservative``, ``-q``/``--quiet``, ``-V``/``--verbose``; gem names without a version (``rails:7.0``), path or
  ``.gem`` file (a local gem: its extension's build script runs); ``-v``, ``--force``, ``--local``, ``-g``/``--file``,
  ``--ignore-dependencies``, ``-P`` and the rest change the meaning.
* pipx install (pipx(1)), uv tool install and uv pip install (uv docs, "uv tool install", "uv pip install"):
  ``-q``/``--quiet``, ``-v``/``--verbose``; requirements as for pip (a project name alone). pipx's ``--global``
  (every user's PATH), ``--force``, ``--pip-args``, ``--editable``, uv's ``--with``, ``--from``, ``--python``,
  ``--index`` and the rest change the meaning.
* pip, pip3 (pip install, download, wheel): ``-q``/``--quiet``, ``-v``/``--verbose``, ``-U``/``--upgrade``,
  ``--no-input``, ``--no-cache-dir``, ``--disable-pip-version-check``; requirements that are a project name alone
  (no version specifier, extras, path, URL, VCS link, or archive name such as ``x.whl``, ``x.zip``, ``x.tar.gz``:
  pip installs a local file of that name).
* npm, pnpm, yarn (install, i, add, ci, update): ``-D``/``--save-dev``, ``-P``/``--save-prod``,
  ``-O``/``--save-optional``, ``-E``/``--save-exact``, ``-S``/``--save``, ``--no-save``, ``--dev``, ``--exact``,
  ``--no-audit``, ``--no-fund``, ``--ignore-scripts``, ``--prefer-offline``, ``--frozen-lockfile``,
  ``--legacy-peer-deps``, ``-q``/``--silent``; registry package names (``name``, ``@scope/name``) with an
  optional version or tag (``lodash@4.17.21``, ``lodash@latest``), never an ``npm:`` alias, path, tarball
  (``x.tgz``), URL or git link.
* cargo install (cargo-install(1)): ``--locked``, ``-q``/``--quiet``, ``-v``/``--verbose``; crate names with an
  optional ``@version``.
* go install, get, run (go help install, go help get): ``-v``, and for get ``-u``, ``-t``, ``-d``; module paths
  (``example.com/x/cmd@latest``) that are not a local path and hold no ``...`` pattern.
* systemctl (systemctl(1), any command): ``-q``/``--quiet``, ``--no-block``, ``--no-pager``; unit names that are
  not a ``.target`` (``poweroff.target``, ``rescue.target``... change the whole system's state), ``.slice`` or
  ``.scope`` (systemd.unit(5) ``Requires=``: every unit in a slice is stopped or restarted with it, every login
  session with ``user.slice``), ``.mount``, ``.automount`` or ``.swap`` (a filesystem or swap area every program
  uses; systemd.automount(5): an automount unit's mount point), and hold no
  glob.
* git push (git-push(1)): ``-u``/``--set-upstream``, ``-q``/``--quiet``, ``-v``/``--verbose``, ``-n``/``--dry-run``;
  a remote name, then branch names (``main``, ``HEAD``, ``feature/x``): no URL, no ``+`` (force), no ``:``
  (``src:dst``, deletion), no revision syntax (``main~5``, ``main^``, ``@``). ``--tags`` and ``--follow-tags``
  push other refs than the named ones: they change the meaning.
* Options written before the subcommand (:func:`_globals`) for npm, pnpm, yarn, pip, cargo, git, docker, podman
  and nerdctl: any option but the few listed as plain (npm's the install table's and ``-s``; git ``--no-pager``,
  ``-P``, ``-p``, ``--no-optional-locks``; docker ``-D``/``--debug``) changes the meaning of whatever subcommand
  follows, so the pattern must spell out the options, their values and the subcommand. ``npm -g install``,
  ``npm --unsafe-perm ci``, ``npm --@acme:registry=URL install``, ``pnpm -g add`` mean what ``npm install -g`` does
  (npm-config(7): a config option may be given anywhere on the line); git(1) ``-c push.default=matching``,
  ``-c core.sshCommand=...``, ``-C``, ``--git-dir``; docker(1) ``-H``/``--host``, ``-c``/``--context`` and podman's
  ``--remote``/``--url`` point the CLI at another engine, which receives the registry credentials of a push, pull or
  run (Docker Engine API ``X-Registry-Auth``), as kubectl's ``--server`` receives the token. yarn classic's
  ``global`` (``yarn global add``) is ``-g``. cargo's ``+toolchain`` is plain only for a release channel
  (``+nightly``, ``+1.75.0``, rustup book "Toolchains"): a custom name is ``rustup toolchain link``'s, any
  directory.
* kubectl, helm (any subcommand): every word is plain but the options choosing the cluster or the identity used
  (:data:`_CLUSTER_CHOOSERS`: ``--server``/``-s``, ``--as``, ``--as-group``, ``--context``, ``--user``,
  ``--insecure-skip-tls-verify``, helm's ``--kube-*``...): ``kubectl get pods --server=https://other`` sends the
  token to another host.

* docker, podman build (docker-build(1), also ``image build``, ``buildx build``, ``builder build``) and run/create
  (docker-run(1), also ``container run``/``create``): a denylist, as their options are many. ``--security-opt``
  (any value: ``seccomp=unconfined`` lifts the confinement), a namespace option (``--network``/``--net``,
  ``--pid``, ``--ipc``, ``--uts``, ``--userns``, ``--cgroupns``) with ``host`` or ``container:NAME`` (build: any
  ``--network`` but ``default``, ``none`` or ``bridge``), a Dockerfile (``-f``/``--file``) or build context that is
  absolute, under ``~``, above the directory (``..``), a URL or a git repository (``https://``, ``git@``), or
  standard input (``-``); for run also ``--privileged``, ``--cap-add``, ``--device``, ``--gpus`` and a bind-mount
  source (``-v``/``--volume``, ``--mount src=``; podman build's ``-v`` too) outside the directory. A separate value
  is part of the word: the pattern ``docker build -f /tmp/Dockerfile`` covers that file only. The separate value of
  another build option that takes one (docker-buildx-build(1): every long option but the flags, and ``-t``, ``-o``,
  ``-m``...) is no build context: it changes the meaning, with its option, when it or a ``KEY=`` field of it looks
  like a path outside or a URL (``--build-context x=../o``, ``--cache-from type=local,src=/srv/c``,
  ``--build-arg A=https://x``), but for the files the build writes (``--iidfile``,
  ``--metadata-file``, ``-o``/``--output``) a path in the temp area (``--iidfile /tmp/iid``) is plain, as the
  write is graded where it lands.
* gh (gh-api(1), gh(1) ``--repo``): ``--hostname`` and a ``-R``/``--repo`` naming a host (``evil.example/o/r``)
  send gh's token for that host there: they change the meaning of any subcommand.
* aws, gcloud, az (aws(1), gcloud(1), az(1) global options): the identity or endpoint choosers ``--profile``,
  ``--endpoint-url``, ``--no-verify-ssl``, ``--ca-bundle``; ``--account``, ``--impersonate-service-account``,
  ``--access-token-file``, ``--project``, ``--configuration``; ``--subscription`` (as kubectl's ``--context``).
* terraform, tofu (Terraform CLI "Command: init", "Command: plan"): ``-backend-config``, ``-migrate-state``,
  ``-force-copy`` (the state, every managed secret in clear, copied to a backend the command names),
  ``-from-module``, ``-state``, ``-state-out``, and a ``-var-file`` outside the directory.
* git fetch, pull (git-fetch(1), git-pull(1)): the repository operand must be a remote's name (no URL, path,
  ``host:path`` or ``transport::address``: ``git fetch https://other/x`` fetches from anywhere), and no later
  operand may be a URL or path (``--multiple`` takes several repositories); git clone (git-clone(1)): the
  repository operand always changes the meaning, so ``git clone URL`` covers that URL only.

Programs without a table here have no such words: a pattern prefixing the argv covers them.

A pattern that names operands of one of these subcommands (``apt-get install -y jq``, ``systemctl restart nginx``,
``git push origin main``), or a URL for ``curl``, ``wget``, HTTPie or ``xh``, covers exactly those operands:
:func:`extra_operands` says when a command it prefixes holds a further operand, URL or transfer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

__all__ = ["changing_words", "extra_operands", "names_operands"]


class _Table:
    """The plain words of one program's subcommands: ``longs`` (exact option words), ``shorts`` (one-letter options
    that take no value, alone or clustered), and ``operand`` (a plain operand's shape; ``None``: no operand is
    plain)."""

    __slots__ = ("longs", "shorts", "operand")

    def __init__(self, longs: frozenset[str], shorts: str, operand: re.Pattern[str] | None) -> None:
        self.longs = longs
        self.shorts = shorts
        self.operand = operand


def _plain_option(word: str, table: _Table) -> bool:
    if word in table.longs:
        return True
    if word.startswith("--") or len(word) < 2:
        return False
    return all(letter in table.shorts for letter in word[1:])


def _check(
    argv: tuple[str, ...], start: int, table: _Table, operand: Callable[[int, str], bool] | None = None
) -> list[int]:
    """Positions from ``start`` of the words ``table`` does not call plain; ``operand(n, word)`` checks the n-th
    operand instead of ``table.operand`` when given. ``--`` itself changes the meaning (what follows is taken as
    operands, whatever it looks like), and so does every word after it."""
    found: list[int] = []
    count = 0
    for index in range(start, len(argv)):
        word = argv[index]
        if word == "--":
            return found + list(range(index, len(argv)))
        if word.startswith("-") and word != "-":
            if not _plain_option(word, table):
                found.append(index)
            continue
        plain = (
            operand(count, word)
            if operand is not None
            else (table.operand is not None and table.operand.match(word) is not None)
        )
        count += 1
        if not plain:
            found.append(index)
    return found


def _subcommand(argv: tuple[str, ...]) -> int | None:
    """The position of the first word after the program that is not an option, or None."""
    for index in range(1, len(argv)):
        if not argv[index].startswith("-"):
            return index
    return None


#: Options that print the program's version or help (``--version``, ``--help``): plain before any subcommand.
_INFO = frozenset({"--version", "--help"})


def _globals(
    argv: tuple[str, ...], start: int, plain: _Table, values: frozenset[str] = frozenset()
) -> tuple[list[int], int | None]:
    """The options written before the subcommand, from ``start``: the positions that change the meaning, and the
    subcommand's position (None when there is none). An option ``plain`` does not list (:func:`_plain_option`)
    changes the meaning of whatever subcommand follows, so then every word from it through the subcommand does: a
    pattern covers such a command only when it spells out the options, their values and the subcommand
    (``npm -g install``, ``git -c push.default=matching push``, ``docker -H tcp://other ps``). An option in
    ``values`` takes the next word as its value; any other option is read as taking none, so an unlisted option's
    separate value is read as the subcommand, which the pattern must spell out too (fail closed). ``--`` and every
    word after it change the meaning."""
    first: int | None = None
    index = start
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return list(range(first if first is not None else index, len(argv))), None
        if not word.startswith("-") or word == "-":
            return (list(range(first, index + 1)) if first is not None else []), index
        if first is None and not _plain_option(word, plain):
            first = index
        index += 2 if word in values else 1
    return (list(range(first, len(argv))) if first is not None else []), None


_APT = _Table(
    frozenset({"--yes", "--assume-yes", "--quiet", "--no-install-recommends", "--no-install-suggests"}),
    "yq",
    re.compile(r"^[a-z0-9][a-z0-9+.-]*[a-z0-9+.]\Z"),
)
_DNF = _Table(frozenset({"--assumeyes", "--quiet"}), "yq", re.compile(r"^[A-Za-z0-9][A-Za-z0-9+._-]*\Z"))
_PACMAN = _Table(frozenset({"--noconfirm", "--needed", "--quiet"}), "q", re.compile(r"^[a-z0-9@_+][a-z0-9@._+-]*\Z"))
_BREW = _Table(frozenset({"--quiet", "--verbose", "--formula"}), "qv", re.compile(r"^[a-z0-9][a-z0-9@+._-]*\Z"))
_SNAP = _Table(frozenset(), "", re.compile(r"^[a-z0-9][a-z0-9-]*\Z"))
_PIP = _Table(
    frozenset({"--quiet", "--verbose", "--upgrade", "--no-input", "--no-cache-dir", "--disable-pip-version-check"}),
    "qvU",
    re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?\Z"),
)
_JS = _Table(frozenset({
    "--save-dev", "--save-prod", "--save-optional", "--save-exact", "--save", "--no-save", "--dev", "--exact",
    "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", "--frozen-lockfile", "--legacy-peer-deps",
    "--silent",
}), "DPOESq", re.compile(r"^(?:@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*(?:@[A-Za-z0-9][A-Za-z0-9.^~+-]*)?\Z"))  # fmt: skip
_CARGO = _Table(
    frozenset({"--locked", "--quiet", "--verbose"}),
    "qv",
    re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*(?:@[A-Za-z0-9^~=<>.+-]+)?\Z"),
)
_GO_MODULE = re.compile(
    r"^[A-Za-z0-9][A-Za-z0-9.-]*(?:/[A-Za-z0-9_~+-][A-Za-z0-9._~+-]*)*(?:@[A-Za-z0-9][A-Za-z0-9._+-]*)?\Z"
)
_GO_INSTALL = _Table(frozenset(), "v", _GO_MODULE)
_GO_GET = _Table(frozenset(), "vutd", _GO_MODULE)
_SYSTEMCTL = _Table(frozenset({"--quiet", "--no-block", "--no-pager"}), "q", re.compile(r"^[A-Za-z0-9:_.\\@-]+\Z"))
_PUSH = _Table(frozenset({"--set-upstream", "--quiet", "--verbose", "--dry-run"}), "uqvn", None)
_REMOTE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\Z")
_BRANCH = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._/-]*\Z")


def _apt_name(word: str) -> bool:
    """A plain apt package name: Debian Policy 5.6.1's shape without ``.`` or ``+``. apt-get(8): "If no package
    matches the given expression and the expression contains one of '.', '?' or '*' then it is assumed to be a POSIX
    regular expression" (apt's cacheset.cc also counts ``+``, ``|``, ``[``, ``^``, ``$``), applied unanchored to every
    package name, so a name with a ``.`` or ``+`` that no package has selects others: ``lib.``, ``x.+``, ``g+``, and
    ``python3.1`` (``python3.10``, ``python3.11``, ``libpython3.12``...). Whether a package has the name is known
    only to the machine's apt cache, so every such name (``g++``, ``python3.11`` too) must be spelled out in the
    pattern."""
    if _APT.operand.match(word) is None or word.endswith(".deb"):  # type: ignore[union-attr]
        return False
    return "." not in word and "+" not in word


def _apt(argv: tuple[str, ...]) -> list[int]:
    return _check(argv, 1, _APT, lambda n, word: n == 0 or _apt_name(word))


#: A dnf package spec naming a version (dnf(8) "Specifying Packages": ``name-[epoch:]version[-release][.arch]``): its
#: last ``-`` part starts with a digit (``openssl-1.0.2k``, ``jq-1.6-3.fc38``). dnf5-install(8): "When
#: package-spec-NPFB to specify the exact version of the package is given, DNF will install the desired version, no
#: matter which version of the package is already installed. The former version of the package will be removed": a
#: downgrade.
_DNF_VERSION = re.compile(r"-\d[^-]*\Z")


def _dnf(argv: tuple[str, ...]) -> list[int]:
    return _check(
        argv,
        1,
        _DNF,
        lambda n, word: (
            n == 0
            or (
                _DNF.operand.match(word) is not None  # type: ignore[union-attr]
                and not word.endswith(".rpm")
                and _DNF_VERSION.search(word) is None
            )
        ),
    )


_PACMAN_OPERATIONS = frozenset({"-S", "-Sy", "-Su", "-Syu", "-Q"})


def _pacman(argv: tuple[str, ...]) -> list[int]:
    if len(argv) < 2:
        return []
    return ([] if argv[1] in _PACMAN_OPERATIONS else [1]) + _check(argv, 2, _PACMAN)


def _brew(argv: tuple[str, ...]) -> list[int]:
    return _check(
        argv,
        1,
        _BREW,
        lambda n, word: n == 0 or (_BREW.operand.match(word) is not None and not word.endswith(".rb")),  # type: ignore[union-attr]
    )


def _snap(argv: tuple[str, ...]) -> list[int]:
    return _check(argv, 1, _SNAP, lambda n, word: n == 0 or _SNAP.operand.match(word) is not None)  # type: ignore[union-attr]


_PIP_INSTALLS = frozenset({"install", "download", "wheel"})


#: Archive names pip installs from a local file of that name (pip's ``ARCHIVE_EXTENSIONS``), and npm's tarball
#: files (npm-install(1) "a <tarball file>").
_PIP_ARCHIVES = (
    ".whl",
    ".zip",
    ".tar.gz",
    ".tgz",
    ".tar",
    ".tar.bz2",
    ".tbz",
    ".tar.xz",
    ".txz",
    ".tlz",
    ".tar.lz",
    ".tar.lzma",
)
_JS_TARBALLS = (".tgz", ".tar.gz", ".tar")


_APK = _Table(
    frozenset({"--quiet", "--verbose", "--update-cache", "--no-cache", "--no-progress"}),
    "qvU",
    re.compile(r"^[a-z0-9][a-z0-9._+-]*\Z"),
)
_GEM = _Table(
    frozenset({"--no-document", "--user-install", "--conservative", "--quiet", "--verbose"}),
    "NqV",
    re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\Z"),
)
_PYTHON_TOOL = _Table(frozenset({"--quiet", "--verbose"}), "qv", None)


def _apk(argv: tuple[str, ...]) -> list[int]:
    return _check(
        argv,
        1,
        _APK,
        lambda n, word: n == 0 or (_APK.operand.match(word) is not None and not word.endswith(".apk")),  # type: ignore[union-attr]
    )


def _gem(argv: tuple[str, ...]) -> list[int]:
    sub = _subcommand(argv)
    if sub is None or argv[sub] not in ("install", "i"):
        return []
    return _check(
        argv,
        sub + 1,
        _GEM,
        lambda n, word: _GEM.operand.match(word) is not None and not word.endswith(".gem"),  # type: ignore[union-attr]
    )


def _python_requirement(n: int, word: str) -> bool:
    """A requirement pip, pipx and uv read as a project name alone (:data:`_PIP`'s shape, no archive name)."""
    return _PIP.operand.match(word) is not None and not word.lower().endswith(_PIP_ARCHIVES)  # type: ignore[union-attr]


def _pipx(argv: tuple[str, ...]) -> list[int]:
    sub = _subcommand(argv)
    if sub is None or argv[sub] != "install":
        return []
    return _check(argv, sub + 1, _PYTHON_TOOL, _python_requirement)


def _uv(argv: tuple[str, ...]) -> list[int]:
    if argv[1:3] not in (("tool", "install"), ("pip", "install")):
        return []
    return _check(argv, 3, _PYTHON_TOOL, _python_requirement)


#: pip's options before the command that change nothing it means: :data:`_PIP`'s and the version and help.
_PIP_GLOBAL = _Table(_PIP.longs | _INFO, _PIP.shorts + "Vh", None)
#: pip's general options taking the next word as their value (pip "General Options").
_PIP_VALUES = frozenset({
    "--proxy", "--cert", "--client-cert", "--keyring-provider", "--exists-action", "--log", "--cache-dir",
    "--timeout", "--retries", "--trusted-host", "--python", "--use-feature", "--use-deprecated", "--progress-bar",
})  # fmt: skip


def _pip(argv: tuple[str, ...]) -> list[int]:
    """pip: general options before the command (:func:`_globals`: ``pip --keyring-provider subprocess install``),
    then an install's words."""
    found, sub = _globals(argv, 1, _PIP_GLOBAL, _PIP_VALUES)
    if sub is None or argv[sub] not in _PIP_INSTALLS:
        return found
    return found + _check(
        argv,
        sub + 1,
        _PIP,
        lambda n, word: _PIP.operand.match(word) is not None and not word.lower().endswith(_PIP_ARCHIVES),  # type: ignore[union-attr]
    )


_JS_INSTALLS = frozenset(
    {
        "install",
        "i",
        "add",
        "ci",
        "update",
        "up",
        "upgrade",
        "isntall",
        "in",
        "ins",
        "inst",
        "insta",
        "instal",
        "isnt",
        "isnta",
        "isntal",
    }
)


#: Options npm, pnpm and yarn take before the command that change nothing it means: :data:`_JS`'s, and ``-s``
#: (npm-config(7) ``--loglevel silent``), ``--quiet``, ``--verbose``, ``--no-color``, ``--no-progress``.
_JS_GLOBAL = _Table(
    _JS.longs | frozenset({"--quiet", "--verbose", "--no-color", "--no-progress"}) | _INFO, _JS.shorts + "svh", None
)
#: npm, pnpm and yarn options taking the next word as their value (npm-config(7) ``prefix``, ``registry``, ``cache``,
#: ``workspace``, ``location``, ``proxy``, ``https-proxy``, ``cafile``...; pnpm ``-C``/``--dir``, ``--filter``;
#: yarn ``--cwd``).
_JS_VALUES = frozenset({
    "--prefix", "--registry", "--cache", "--loglevel", "-w", "--workspace", "--tag", "--otp", "--location", "--omit",
    "--include", "--proxy", "--https-proxy", "--cafile", "--ca", "--userconfig", "--globalconfig", "-C", "--dir",
    "--filter", "-F", "--cwd",
})  # fmt: skip


def _js(argv: tuple[str, ...]) -> list[int]:
    """npm, pnpm, yarn: options before the command (:func:`_globals`: ``npm -g install``, ``npm --unsafe-perm ci``,
    ``npm --@acme:registry=URL install``, ``pnpm -g add`` mean what ``npm install -g`` does); yarn classic's
    ``global`` (``yarn global add``: an install into every shell's PATH, as ``-g``); then an install's words."""
    found, sub = _globals(argv, 1, _JS_GLOBAL, _JS_VALUES)
    if sub is None:
        return found
    if argv[0] == "yarn" and argv[sub] == "global" and argv[sub + 1 : sub + 2] not in (("list",), ("bin",), ("dir",)):
        found += list(range(sub, min(sub + 2, len(argv))))
        sub += 1
        if sub >= len(argv):
            return found
    if argv[sub] not in _JS_INSTALLS:
        return found
    found += _check(
        argv,
        sub + 1,
        _JS,
        lambda n, word: _JS.operand.match(word) is not None and not word.lower().endswith(_JS_TARBALLS),  # type: ignore[union-attr]
    )
    found += [i for i in range(sub + 1, len(argv)) if "@npm:" in argv[i] or argv[i].startswith("npm:")]
    return found


#: A rustup toolchain named by release channel (rustup book, "Toolchains": ``<channel>[-<date>][-<host>]``, the
#: channel ``stable``, ``beta``, ``nightly`` or a version number): rustup installs these from its own distribution
#: server. Any other name (``cargo +evil``) is a custom toolchain, which ``rustup toolchain link NAME PATH`` points at
#: any directory, so its cargo and rustc are programs of anyone's choosing.
_RUST_CHANNEL = re.compile(
    r"^\+(?:stable|beta|nightly|\d+\.\d+(?:\.\d+)?)(?:-\d{4}-\d{2}-\d{2})?(?:-[a-z0-9_]+(?:-[a-z0-9_.]+){1,3})?\Z"
)
#: cargo(1) options before the command that change nothing it means: :data:`_CARGO`'s and ``--frozen``,
#: ``--offline``.
_CARGO_GLOBAL = _Table(_CARGO.longs | frozenset({"--frozen", "--offline"}) | _INFO, _CARGO.shorts + "Vh", None)
#: cargo(1) options before the command taking the next word as their value.
_CARGO_VALUES = frozenset({"--config", "-C", "-Z", "--color", "--manifest-path"})


def _cargo(argv: tuple[str, ...]) -> list[int]:
    """cargo: a ``+toolchain`` that is no release channel (:data:`_RUST_CHANNEL`), options before the command
    (:func:`_globals`), then cargo install's words."""
    found: list[int] = []
    start = 1
    if len(argv) > 1 and argv[1].startswith("+"):
        start = 2
        if _RUST_CHANNEL.match(argv[1]) is None:
            found.append(1)
    before, sub = _globals(argv, start, _CARGO_GLOBAL, _CARGO_VALUES)
    found += before
    if sub is None or argv[sub] != "install":
        return found
    return found + _check(argv, sub + 1, _CARGO)


def _go(argv: tuple[str, ...]) -> list[int]:
    sub = _subcommand(argv)
    if sub is None or argv[sub] not in ("install", "get", "run"):
        return []
    table = _GO_GET if argv[sub] == "get" else _GO_INSTALL
    return _check(
        argv,
        sub + 1,
        table,
        lambda n, word: table.operand.match(word) is not None and "..." not in word and "/." not in word,  # type: ignore[union-attr]
    )


#: systemd unit types that are not one service (the module docstring): a plain ``systemctl restart NAME`` pattern
#: does not cover them.
_WHOLE_UNITS = (".target", ".slice", ".scope", ".mount", ".automount", ".swap")


def _systemctl(argv: tuple[str, ...]) -> list[int]:
    def unit(n: int, word: str) -> bool:
        return n == 0 or (_SYSTEMCTL.operand.match(word) is not None and not word.endswith(_WHOLE_UNITS))  # type: ignore[union-attr]

    return _check(argv, 1, _SYSTEMCTL, unit)


#: git-fetch(1), git-pull(1) and git-clone(1) options that take a separate value (``--depth 1``), so that the value
#: is not read as the repository.
_FETCH_VALUES = frozenset({
    "--depth", "--deepen", "--shallow-since", "--shallow-exclude", "-j", "--jobs", "--negotiation-tip", "--refmap",
    "--upload-pack", "-o", "--server-option", "-s", "--strategy", "-X", "--strategy-option",
})  # fmt: skip
_CLONE_VALUES = frozenset({
    "-o", "--origin", "-b", "--branch", "--reference", "--reference-if-able", "--separate-git-dir", "--depth",
    "--shallow-since", "--shallow-exclude", "-c", "--config", "-j", "--jobs", "--filter", "--bundle-uri",
    "--server-option", "--ref-format", "-u", "--upload-pack", "--template",
})  # fmt: skip


def _repository_like(word: str) -> bool:
    """True when ``word`` names a repository by place (git-fetch(1) GIT URLS): a URL (``https://``, ``file://``),
    ``transport::address``, ``user@host:path``, or a path (``/``, ``~``, ``.``)."""
    return "://" in word or "::" in word or word.startswith(("/", "~", ".")) or ("@" in word and ":" in word)


def _fetching(argv: tuple[str, ...]) -> list[int]:
    """git fetch/pull/clone (the module docstring): the repository operand, and any later URL or path operand."""
    values = _CLONE_VALUES if argv[1] == "clone" else _FETCH_VALUES
    found: list[int] = []
    operands = 0
    index = 2
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return found + list(range(index, len(argv)))
        if word.startswith("-") and word != "-":
            index += 2 if word in values else 1
            continue
        first = operands == 0
        operands += 1
        if argv[1] == "clone":
            if first:
                found.append(index)
        elif (first and _REMOTE.match(word) is None) or _repository_like(word):
            found.append(index)
        index += 1
    return found


#: git(1) options before the command that change nothing it means: ``--no-pager``/``-P``, ``--paginate``/``-p``,
#: ``--no-optional-locks``, ``--no-advice``, ``--literal-pathspecs``. Any other (``-c``, ``-C``, ``--git-dir``,
#: ``--work-tree``, ``--exec-path=``, ``--config-env``, ``--namespace``, ``--bare``...) changes what the command
#: means: ``git -c push.default=matching push`` pushes every matching branch, ``git -c core.sshCommand=...`` runs a
#: program.
_GIT_GLOBAL = _Table(
    frozenset({"--no-pager", "--paginate", "--no-optional-locks", "--no-advice", "--literal-pathspecs"}) | _INFO,
    "Pph",
    None,
)
#: git(1) options before the command taking the next word as their value.
_GIT_VALUES = frozenset({
    "-c", "-C", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix", "--attr-source",
    "--list-cmds",
})  # fmt: skip


def _git(argv: tuple[str, ...]) -> list[int]:
    """git: options before the command (:func:`_globals`), then the command's own words (push, fetch, pull,
    clone)."""
    found, sub = _globals(argv, 1, _GIT_GLOBAL, _GIT_VALUES)
    if sub is None or sub == 1:
        return found + _git_command(argv)
    return found + [sub - 1 + p for p in _git_command(argv[:1] + argv[sub:])]


def _git_command(argv: tuple[str, ...]) -> list[int]:
    """The words of git push, fetch, pull and clone, with the command at position 1."""
    if len(argv) >= 2 and argv[1] in ("fetch", "pull", "clone"):
        return _fetching(argv)
    if len(argv) < 2 or argv[1] != "push":
        return []
    return _check(
        argv,
        2,
        _PUSH,
        lambda n, word: (
            (_REMOTE if n == 0 else _BRANCH).match(word) is not None
            and ".." not in word
            and not word.endswith((".lock", "/"))
        ),
    )


#: kubectl(1) global options (kubectl options) and helm(1)'s ``--kube-*`` flags that choose which cluster is reached
#: or whose identity is used: ``--server`` sends the kubeconfig user's token to that host, ``--as``/``--as-group``
#: act as another user or group (``system:masters``), ``--context``/``--cluster``/``--user`` pick other entries of the
#: kubeconfig, ``--insecure-skip-tls-verify`` and ``--certificate-authority`` change whom the token is sent to.
_CLUSTER_CHOOSERS = frozenset({
    "--server", "--as", "--as-group", "--as-uid", "--context", "--cluster", "--user", "--token", "--username",
    "--password", "--insecure-skip-tls-verify", "--certificate-authority", "--client-certificate", "--client-key",
    "--tls-server-name", "--kubeconfig", "--kube-context", "--kube-apiserver", "--kube-as-user", "--kube-as-group",
    "--kube-token", "--kube-insecure-skip-tls-verify", "--kube-ca-file", "--kube-tls-server-name",
})  # fmt: skip


def _cluster(argv: tuple[str, ...]) -> list[int]:
    """Positions of the :data:`_CLUSTER_CHOOSERS` options (``--server URL``, ``--server=URL``), and for kubectl of
    ``-s`` (its short ``--server``, also attached or at the end of a cluster), before any ``--``."""
    found: list[int] = []
    for index, word in enumerate(argv[1:], start=1):
        if word == "--":
            break
        if word.split("=", 1)[0] in _CLUSTER_CHOOSERS or (
            argv[0] == "kubectl" and word.startswith("-") and not word.startswith("--") and "s" in word[1:2]
        ):
            found.append(index)
    return found


def _outside(value: str) -> bool:
    """True when a path or build context ``value`` is not a plain relative path inside the working directory: an
    absolute path, a ``~`` path, a ``..`` step, standard input (``-``), a URL (``https://``, ``git://``,
    ``git@host:``, ``github.com/...``: docker-build(1) "URL" contexts), or empty."""
    if not value or value == "-" or value.startswith(("/", "~", "git@", "github.com/")) or "://" in value:
        return True
    return ".." in value.replace("\\", "/").split("/")


#: docker(1) subcommands that build an image, and those that start a container (docker-build(1), docker-run(1),
#: docker-create(1), their ``docker image``/``container``/``buildx``/``builder`` spellings).
_DOCKER_BUILDS = (("build",), ("image", "build"), ("buildx", "build"), ("builder", "build"))
_DOCKER_RUNS = (("run",), ("create",), ("container", "run"), ("container", "create"))
#: Options of docker build/run whose every value changes what runs or what it reaches: ``--security-opt``
#: (``seccomp=unconfined``, ``apparmor=unconfined``, ``label=disable``: the build's or container's confinement),
#: and for run ``--privileged``, ``--cap-add``, ``--device``, ``--gpus`` (host devices and privileges).
_DOCKER_ALWAYS = frozenset({"--security-opt"})
_DOCKER_RUN_ALWAYS = frozenset({"--privileged", "--cap-add", "--device", "--device-cgroup-rule", "--gpus"})
#: Namespace options: the value ``host`` (docker-run(1) ``--network=host``: the host's network stack, its loopback
#: services and interfaces; ``--pid``, ``--ipc``, ``--uts``, ``--userns``, ``--cgroupns`` likewise) or
#: ``container:NAME`` (another container's) changes the meaning; for build, docker-build(1) ``--network`` takes
#: ``default``, ``none`` or ``host``, and only the first two are plain.
_DOCKER_NAMESPACES = frozenset({"--network", "--net", "--pid", "--ipc", "--uts", "--userns", "--cgroupns"})


#: docker(1), podman(1) and nerdctl options before the command that change nothing it means: ``-D``/``--debug``.
#: Any other changes which engine it talks to or how (docker ``-H``/``--host``, ``-c``/``--context``, ``--config``,
#: ``--tls*``; podman ``--remote``/``-r``, ``--url``, ``--connection``, ``--root``; nerdctl ``-H``/``--address``,
#: ``-n``/``--namespace``): for a push, pull or run of a registry image the CLI sends the registry credentials of
#: ``~/.docker/config.json`` to the daemon it talks to (Docker Engine API ``X-Registry-Auth``), as kubectl's
#: ``--server`` sends its token.
_DOCKER_GLOBAL = _Table(frozenset({"--debug"}) | _INFO, "Dvh", None)
#: Their options taking the next word as their value.
_DOCKER_VALUES = frozenset({
    "-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey",
    "--url", "--connection", "--identity", "--root", "--runroot", "--storage-driver", "-n", "--namespace", "-a",
    "--address", "--cgroup-manager", "--data-root",
})  # fmt: skip


def _docker(argv: tuple[str, ...]) -> list[int]:
    """docker, podman, nerdctl: options before the command (:func:`_globals`), then build and run's words
    (:func:`_docker_command`)."""
    found, sub = _globals(argv, 1, _DOCKER_GLOBAL, _DOCKER_VALUES)
    if sub is None or sub == 1:
        return found + _docker_command(argv)
    return found + [sub - 1 + p for p in _docker_command(argv[:1] + argv[sub:])]


def _docker_command(argv: tuple[str, ...]) -> list[int]:
    """docker build and docker run/create (the module docstring): positions of the option words that share the
    host's namespaces or lift the confinement (:data:`_DOCKER_ALWAYS`, :data:`_DOCKER_RUN_ALWAYS`,
    :data:`_DOCKER_NAMESPACES`), of a Dockerfile (``-f``/``--file``) or a bind-mount source (``-v``/``--volume``,
    ``--mount src=``) that is not a relative path inside the working directory (:func:`_outside`), and for build of
    any other word that looks like such a path or a URL: a build context outside (``../other``, ``/``, ``~``),
    remote (a git repository or a tarball URL) or on standard input (``-``). The scan does not stop at run's image,
    so a word of the container's own command that looks like one of these options asks too (fail closed)."""
    spelled = next((len(s) for s in _DOCKER_BUILDS + _DOCKER_RUNS if argv[1 : 1 + len(s)] == s), 0)
    if not spelled:
        return []
    build = tuple(argv[1 : 1 + spelled]) in _DOCKER_BUILDS
    found: list[int] = []
    index = 1 + spelled
    while index < len(argv):
        word = argv[index]
        position = index
        index += 1
        if word == "--":
            return found + list(range(position, len(argv)))
        if not word.startswith("-") or word == "-":
            if build and _outside(word):
                found.append(position)
            continue
        name, eq, attached = word.partition("=")
        value: str | None = attached if eq else None
        if not eq and not name.startswith("--") and len(name) > 2:
            name, value = name[:2], name[2:]  # -f/tmp/Dockerfile, -v/:/host
        takes = name in _DOCKER_NAMESPACES or name in ("-f", "--file", "-v", "--volume", "--mount")
        if build and not takes and name not in _DOCKER_ALWAYS | _DOCKER_NAMESPACES and _docker_build_value(name):
            separate = value is None
            if separate:
                value = argv[index] if index < len(argv) else ""
                index += 1
            places = [value or ""] + [part.partition("=")[2] for part in (value or "").split(",") if "=" in part]
            if any(_outside(p) and not (name in _DOCKER_BUILD_WRITES and _in_temp(p)) for p in places if p):
                found.extend((position, index - 1) if separate else (position,))
            continue
        if value is None and takes:
            value = argv[index] if index < len(argv) else ""
            index += 1
            if index - 1 < len(argv):
                found.append(index - 1)  # the pattern spells out the value too (-f /tmp/Dockerfile), if it changes
        if name in _DOCKER_ALWAYS or (not build and name in _DOCKER_RUN_ALWAYS):
            found.append(position)
        elif name in _DOCKER_NAMESPACES:
            if (value not in ("default", "none", "bridge")) if build else (value == "host" or ":" in (value or "")):
                found.append(position)
        elif name in ("-f", "--file") and build:
            if _outside(value or ""):
                found.append(position)
        elif name in ("-v", "--volume") or (name == "--mount" and not build):
            if name == "--mount":
                keys = dict(part.partition("=")[::2] for part in (value or "").split(","))
                source = keys.get("source", keys.get("src", ""))
            else:
                source = (value or "").split(":", 1)[0]
            if source.startswith(("/", "~")) or ".." in source.split("/"):
                found.append(position)
    # a separate value counts only with its option: keep value positions whose option is found
    return [p for p in found if p - 1 in found or not _docker_value(argv, p)]


#: docker build options whose value is a file the build writes (docker-buildx-build(1) ``--iidfile``,
#: ``--metadata-file``, ``-o``/``--output``): the classifier grades the write where it lands.
_DOCKER_BUILD_WRITES = frozenset({"--iidfile", "--metadata-file", "-o", "--output"})


def _docker_build_value(name: str) -> bool:
    """True when the docker build option ``name`` takes a value (programs/control.py's table of docker-build(1) and
    docker-buildx-build(1) options: every long option but the flags, and the listed short ones)."""
    from bot.risk.programs.control import _BUILD_FLAGS, _BUILD_SHORT_VALUES

    if name.startswith("--"):
        return name not in _BUILD_FLAGS
    return len(name) == 2 and name[1] in _BUILD_SHORT_VALUES


def _in_temp(value: str) -> bool:
    """True when ``value`` is a path strictly below a temp area's root (bot/risk/paths.py), without a ``..`` step."""
    from bot.risk.paths import TEMP_PREFIXES

    return value.startswith(TEMP_PREFIXES) and ".." not in value.split("/")


def _docker_value(argv: tuple[str, ...], position: int) -> bool:
    """True when ``argv[position]`` is the separate value of the option before it (``-f /tmp/Dockerfile``)."""
    option = argv[position - 1]
    return option in _DOCKER_NAMESPACES or option in ("-f", "--file", "-v", "--volume", "--mount")


def _gh(argv: tuple[str, ...]) -> list[int]:
    """gh-api(1) ``--hostname HOST`` sends the request, with the token gh holds for that host
    (``GH_ENTERPRISE_TOKEN``/``GITHUB_ENTERPRISE_TOKEN`` for any host but github.com: gh-environment(1)), to HOST;
    gh(1) ``-R``/``--repo [HOST/]OWNER/REPO`` with a host does the same. Their positions (and a separate value's),
    before any ``--``."""
    found: list[int] = []
    for index, word in enumerate(argv[1:], start=1):
        if word == "--":
            break
        name, equals, value = word.partition("=")
        if name == "--hostname":
            found.extend((index,) if equals or index + 1 >= len(argv) else (index, index + 1))
        elif word in ("-R", "--repo") and index + 1 < len(argv) and argv[index + 1].count("/") >= 2:
            found.extend((index, index + 1))
        elif (name == "--repo" and equals and value.count("/") >= 2) or (
            word.startswith("-R") and len(word) > 2 and word[2:].count("/") >= 2
        ):
            found.append(index)
    return found


#: Terraform CLI "Command: init": ``-backend-config`` (a file or ``KEY=VALUE`` choosing where the state, which holds
#: every managed secret in clear, is kept), ``-migrate-state`` and ``-force-copy`` (copy the existing state there
#: without asking), ``-from-module`` (copy a module from any source into the directory first); "Command: plan"
#: (also apply, refresh, import, console): ``-state``/``-state-out`` (a state file elsewhere) and a ``-var-file``
#: outside the directory (variables may choose a provider's endpoint, the one its credentials go to).
_TERRAFORM_CHANGING = ("-backend-config", "-migrate-state", "-force-copy", "-from-module", "-state", "-state-out")


def _terraform(argv: tuple[str, ...]) -> list[int]:
    """Positions of :data:`_TERRAFORM_CHANGING` options (and a separate value's) and of a ``-var-file`` outside the
    directory, before any ``--``."""
    found: list[int] = []
    for index, word in enumerate(argv[1:], start=1):
        if word == "--":
            break
        name, equals, value = word.lstrip("-").partition("=")
        separate = not equals and index + 1 < len(argv) and not argv[index + 1].startswith("-")
        if f"-{name}" in _TERRAFORM_CHANGING:
            takes_value = name not in ("migrate-state", "force-copy")
            found.extend((index, index + 1) if takes_value and separate else (index,))
        elif name == "var-file" and (_outside(value) if equals else not separate or _outside(argv[index + 1])):
            found.extend((index, index + 1) if separate else (index,))
    return found


#: Options of the cloud CLIs choosing the identity used or the host the signed request goes to, as kubectl's
#: :data:`_CLUSTER_CHOOSERS` do: aws(1) global options ``--profile`` (another credentials profile),
#: ``--endpoint-url`` (another host), ``--no-verify-ssl``, ``--ca-bundle``; gcloud(1) global flags ``--account``,
#: ``--impersonate-service-account``, ``--access-token-file``, ``--project``, ``--configuration``; az(1)
#: ``--subscription``.
_CLOUD_CHOOSERS: dict[str, frozenset[str]] = {
    "aws": frozenset({"--profile", "--endpoint-url", "--no-verify-ssl", "--ca-bundle"}),
    "gcloud": frozenset({
        "--account", "--impersonate-service-account", "--access-token-file", "--project", "--configuration",
    }),
    "az": frozenset({"--subscription"}),
}  # fmt: skip
_CLOUD_FLAGS = frozenset({"--no-verify-ssl"})


def _cloud(argv: tuple[str, ...]) -> list[int]:
    """Positions of :data:`_CLOUD_CHOOSERS` options and of their separate values, before any ``--``."""
    choosers = _CLOUD_CHOOSERS[argv[0]]
    found: list[int] = []
    for index, word in enumerate(argv[1:], start=1):
        if word == "--":
            break
        name, equals, _ = word.partition("=")
        if name in choosers:
            separate = not equals and name not in _CLOUD_FLAGS and index + 1 < len(argv)
            found.extend((index, index + 1) if separate else (index,))
    return found


_RULES: dict[str, Callable[[tuple[str, ...]], list[int]]] = {
    "apt": _apt, "apt-get": _apt, "dnf": _dnf, "yum": _dnf, "pacman": _pacman, "brew": _brew, "snap": _snap,
    "pip": _pip, "pip3": _pip, "npm": _js, "pnpm": _js, "yarn": _js, "cargo": _cargo, "go": _go,
    "systemctl": _systemctl, "git": _git, "kubectl": _cluster, "helm": _cluster, "docker": _docker,
    "podman": _docker, "nerdctl": _docker, "apk": _apk, "gem": _gem, "pipx": _pipx, "uv": _uv, "gh": _gh, "terraform": _terraform,
    "tofu": _terraform, "aws": _cloud, "gcloud": _cloud, "az": _cloud,
}  # fmt: skip


@lru_cache(maxsize=4096)
def changing_words(argv: tuple[str, ...]) -> tuple[int, ...]:
    """Positions in ``argv`` of the words that change what its subcommand means (see the module docstring), sorted;
    ``()`` for a program without such rules. Pure; never raises."""
    rule = _RULES.get(argv[0]) if argv else None
    if rule is None:
        return ()
    return tuple(sorted(set(rule(argv))))


#: Programs whose operands are the URLs they talk to (curl(1), wget(1), HTTPie, xh): a pattern naming a URL covers
#: that URL only.
_URL_PROGRAMS = frozenset({"curl", "wget", "http", "https", "xh", "xhs"})
URL_PROGRAMS = _URL_PROGRAMS
#: Options of those programs that start another transfer or read more URLs or options from elsewhere (curl(1)
#: ``-:``/``--next``, ``--url``, ``-K``/``--config``; wget(1) ``-i``/``--input-file``, ``-e``/``--execute``,
#: ``--config``): a command holding one goes beyond the URL its pattern names.
_MORE_URLS = ("--next", "--url", "--config", "--input-file", "--execute")
_MORE_URLS_SHORT = {"curl": ":K", "wget": "ie"}


def _operand_start(argv: tuple[str, ...]) -> int | None:
    """Where the operands of ``argv`` start when its program has a table here and the subcommand is one whose
    operands it checks (packages, units, a remote and branches), 1 for a URL program; None otherwise."""
    name = argv[0] if argv else ""
    if name in _URL_PROGRAMS:
        return 1
    if name == "pacman":
        return 2
    if name == "git":
        return 2 if argv[1:2] == ("push",) else None
    if name == "uv":
        return 3 if argv[1:3] in (("tool", "install"), ("pip", "install")) else None
    if name not in _RULES or name in ("docker", "podman", "nerdctl", "gh", "terraform", "tofu", "aws", "gcloud", "az"):
        return None
    sub = _subcommand(argv)
    if sub is None:
        return None
    if (
        (name in ("pip", "pip3") and argv[sub] not in _PIP_INSTALLS)
        or (name in ("npm", "pnpm", "yarn") and argv[sub] not in _JS_INSTALLS)
        or (name == "cargo" and argv[sub] != "install")
        or (name == "gem" and argv[sub] not in ("install", "i"))
        or (name == "pipx" and argv[sub] != "install")
        or (name == "go" and argv[sub] not in ("install", "get", "run"))
    ):
        return None
    return sub + 1


def names_operands(pattern: tuple[str, ...]) -> bool:
    """True when a standing approval's ``pattern`` names an operand of its subcommand (``apt-get install jq``,
    ``systemctl restart nginx``, ``git push origin main``, ``curl https://api.example.com/health``): a word at or
    after where the operands start that is not an option nor (for a table program) the value of an option that is
    not plain. ``apt-get install``, ``pip install -i https://x`` and ``curl`` name none."""
    start = _operand_start(pattern)
    if start is None:
        return False
    if pattern[0] in _URL_PROGRAMS:
        return any("://" in word or not word.startswith("-") for word in pattern[start:])
    changing = set(changing_words(pattern))
    for index in range(start, len(pattern)):
        word = pattern[index]
        if word.startswith("-"):
            continue
        previous = pattern[index - 1]
        if previous.startswith("-") and previous != "--" and index - 1 in changing:
            continue  # the value of an option the table does not call plain (pip install -i URL)
        return True
    return False


def extra_operands(pattern: tuple[str, ...], argv: tuple[str, ...]) -> bool:
    """True when ``pattern`` names an operand (:func:`names_operands`) and ``argv``, which it prefixes, holds a
    further operand after the pattern's words (``apt-get install jq evil``, ``systemctl restart nginx sshd``), or,
    for a URL program, a further URL or an option that starts another transfer or reads URLs from elsewhere
    (``curl URL -F f=@a https://other``, ``curl URL --next …``): the pattern covers exactly the operands it names."""
    if not names_operands(pattern):
        return False
    rest = argv[len(pattern) :]
    if pattern[0] in _URL_PROGRAMS:
        shorts = _MORE_URLS_SHORT.get(pattern[0], "")
        return any(
            "://" in word
            or not word.startswith("-")
            or word.split("=", 1)[0] in _MORE_URLS
            or (not word.startswith("--") and any(letter in shorts for letter in word[1:]))
            for word in rest
        )
    return any(word == "--" or not word.startswith("-") for word in rest)
