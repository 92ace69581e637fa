"""Words that change what a command's subcommand means, for standing approvals.

A standing approval's pattern (``apt-get install``, ``pip install``, ``git push``) covers the subcommand as its plain
words mean it. :func:`changing_words` returns the positions in an argv of the words that make it mean something
else: a pattern covers a command only when every such word lies within the words the pattern spells out
(bot/standing.py ``covers_command``), so ``apt-get install`` covers ``apt-get install -y jq`` but not
``apt-get install jq=1.0-old``, while a pattern ``apt-get install --allow-downgrades`` covers
``apt-get install --allow-downgrades jq``. Options written ``--name=value`` count by their name. The worst of these
(package removal, local package files, unsigned packages, protected writes) also grade ``destructive`` (the program
handlers), which no standing approval covers; the rest keep their grade and only need naming.

Sources, per program (the words that change the meaning):

* apt, apt-get (apt-get(8)): a package with a ``-`` suffix (removal) or ``+`` suffix, ``pkg=version`` and
  ``pkg/release`` (a chosen version or release: a downgrade), a local file (``./x.deb``, a path, a ``.deb``),
  ``-t``/``--target-release``/``--default-release``, ``--allow-downgrades``, ``--allow-change-held-packages``,
  ``--ignore-hold``, ``--allow-unauthenticated``, ``--force-yes``, ``--allow-insecure-repositories``,
  ``--allow-remove-essential``, ``--purge``, ``--auto-remove``/``--autoremove``, ``-o``/``-c``.
* dnf, yum (dnf(8)): a local file or URL, ``--nogpgcheck``, ``--allowerasing``, ``--repofrompath``, ``--repo``,
  ``--repoid``, ``--enablerepo``, ``--disablerepo``, ``--setopt``, ``-c``/``--config``, ``--releasever``.
* pacman (pacman(8)): ``--overwrite``, ``-d``/``--nodeps``, ``--dbpath``, ``--root``, ``--config``, ``--hookdir``.
* brew (brew(1)): a path, URL or ``.rb`` file, ``--HEAD``, ``-s``/``--build-from-source``, ``-f``/``--force``,
  ``--cask``, ``--no-quarantine``, ``--ignore-dependencies``.
* snap (snap(8)): a local ``.snap`` file or path, ``--dangerous``, ``--devmode``, ``--classic``, ``--jailmode``.
* pip, pip3 (pip install, download, wheel: "Requirement Specifiers", "VCS Support", "Options"): a requirement that
  is a path, URL, archive or VCS link (``./dir``, ``git+https://...``, ``x.whl``), ``-e``/``--editable``,
  ``-i``/``--index-url``, ``--extra-index-url``, ``-f``/``--find-links``, ``--trusted-host``,
  ``--break-system-packages``, ``-r``/``--requirement`` and ``-c``/``--constraint`` (a file can name other indexes
  and links), ``--no-index``, ``--force-reinstall``, ``--target``, ``--prefix``, ``--root``, ``--user``.
* npm, pnpm, yarn (install, i, add, ci, update: npm-install(1) "a <folder>", "a <tarball file>", "<git remote url>",
  "<githubname>/<githubrepo>"): a path, tarball, URL, git link, ``file:`` or ``github:`` spec or a
  ``user/repo`` shorthand, ``--registry``, ``-f``/``--force``, ``--unsafe-perm``, ``-g``/``--global``,
  ``--location``, ``--prefix``.
* cargo (install: The Cargo Book, cargo-install(1)): ``--git``, ``--path``, ``--registry``, ``--index``,
  ``--branch``, ``--tag``, ``--rev``, ``-f``/``--force``, ``--root``, ``--config``.
* go (install, get, run: go help install, go help get, go help build): a package named by a path (``.``,
  ``./cmd/x``, ``../x``, ``/abs``), ``-toolexec``, ``-exec``, ``-overlay``, ``-modfile``, ``-ldflags`` and
  ``-gcflags``/``-asmflags`` (arguments to the toolchain).
* systemctl (systemctl(1)): ``--now`` (``disable --now`` also stops), ``-f``/``--force``, ``-H``/``--host``,
  ``-M``/``--machine`` (another machine), ``--root``, ``--global``, ``--runtime``.
* git push (git-push(1)): ``-f``/``--force``, ``--force-with-lease``, ``--force-if-includes``, ``--mirror``,
  ``-d``/``--delete``, ``--prune``, ``--all``/``--branches``, ``--tags``, ``--no-verify``, ``--receive-pack``,
  ``--exec``, ``-o``/``--push-option``, a refspec starting with ``+`` (force) or ``:`` (delete) or holding a ``:``.
* git generally: ``-c``, ``--exec-path``, ``--git-dir``, ``--work-tree``, ``-C`` before the subcommand (a pattern
  starting ``git push`` does not match them anyway: it prefixes the argv).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

__all__ = ["changing_words"]


def _option_name(word: str) -> str:
    return word.split("=", 1)[0] if word.startswith("--") else word


def _flags(argv: tuple[str, ...], names: frozenset[str], start: int = 1, *, shorts: str = "") -> list[int]:
    """Positions of options in ``names`` (``--name`` or ``--name=value``), and of short clusters holding a letter of
    ``shorts`` (``-yf``), before ``--``."""
    found: list[int] = []
    for index in range(start, len(argv)):
        word = argv[index]
        if word == "--":
            break
        if _option_name(word) in names:
            found.append(index)
        elif shorts and word.startswith("-") and not word.startswith("--") and set(word[1:]) & set(shorts):
            found.append(index)
    return found


def _operands(argv: tuple[str, ...], start: int) -> list[int]:
    """Positions of the words from ``start`` that do not start with ``-`` (after ``--``: all)."""
    found: list[int] = []
    ended = False
    for index in range(start, len(argv)):
        word = argv[index]
        if word == "--" and not ended:
            ended = True
        elif ended or not word.startswith("-") or word == "-":
            found.append(index)
    return found


def _subcommand(argv: tuple[str, ...]) -> int | None:
    """The position of the first word after the program that is not an option, or None."""
    for index in range(1, len(argv)):
        if not argv[index].startswith("-"):
            return index
    return None


def _path_like(word: str) -> bool:
    return word.startswith((".", "/", "~")) or "://" in word or word.startswith(("file:", "git+", "git:", "github:", "http:", "https:"))


_APT_OPTIONS = frozenset({
    "-t", "--target-release", "--default-release", "--allow-downgrades", "--allow-change-held-packages",
    "--ignore-hold", "--allow-unauthenticated", "--force-yes", "--allow-insecure-repositories",
    "--allow-remove-essential", "--purge", "--auto-remove", "--autoremove", "-o", "--option", "-c", "--config-file",
})  # fmt: skip


def _apt(argv: tuple[str, ...]) -> list[int]:
    found = _flags(argv, _APT_OPTIONS, shorts="oct")
    for index in _operands(argv, 1)[1:]:
        word = argv[index]
        if word.endswith(("-", "+")) or "=" in word or "/" in word or word.endswith(".deb") or _path_like(word):
            found.append(index)
    return found


_DNF_OPTIONS = frozenset({
    "--nogpgcheck", "--no-gpgchecks", "--allowerasing", "--repofrompath", "--repo", "--repoid", "--enablerepo",
    "--disablerepo", "--setopt", "-c", "--config", "--releasever",
})  # fmt: skip


def _dnf(argv: tuple[str, ...]) -> list[int]:
    found = _flags(argv, _DNF_OPTIONS)
    found += [i for i in _operands(argv, 1)[1:] if _path_like(argv[i]) or argv[i].endswith(".rpm")]
    return found


def _pacman(argv: tuple[str, ...]) -> list[int]:
    return _flags(argv, frozenset({"--overwrite", "-d", "--nodeps", "--dbpath", "--root", "--config", "--hookdir", "-b", "-r"}))


def _brew(argv: tuple[str, ...]) -> list[int]:
    found = _flags(argv, frozenset({"--HEAD", "-s", "--build-from-source", "-f", "--force", "--cask", "--no-quarantine", "--ignore-dependencies"}))
    found += [i for i in _operands(argv, 1)[1:] if _path_like(argv[i]) or argv[i].endswith(".rb")]
    return found


def _snap(argv: tuple[str, ...]) -> list[int]:
    found = _flags(argv, frozenset({"--dangerous", "--devmode", "--classic", "--jailmode"}))
    found += [i for i in _operands(argv, 1)[1:] if _path_like(argv[i]) or argv[i].endswith(".snap")]
    return found


_PIP_INSTALLS = frozenset({"install", "download", "wheel"})
_PIP_OPTIONS = frozenset({
    "-e", "--editable", "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--trusted-host",
    "--break-system-packages", "-r", "--requirement", "-c", "--constraint", "--no-index", "--force-reinstall",
    "--target", "-t", "--prefix", "--root", "--user",
})  # fmt: skip


def _pip(argv: tuple[str, ...]) -> list[int]:
    sub = _subcommand(argv)
    if sub is None or argv[sub] not in _PIP_INSTALLS:
        return []
    found = _flags(argv, _PIP_OPTIONS, sub + 1, shorts="eifrct")
    archive = (".whl", ".tar.gz", ".zip", ".tgz", ".tar.bz2")
    found += [i for i in _operands(argv, sub + 1) if _path_like(argv[i]) or "/" in argv[i] or argv[i].endswith(archive) or "@" in argv[i]]
    return found


_JS_INSTALLS = frozenset({"install", "i", "add", "ci", "update", "up", "upgrade", "isntall", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal"})
_JS_OPTIONS = frozenset({"--registry", "-f", "--force", "--unsafe-perm", "-g", "--global", "--location", "--prefix"})


def _js(argv: tuple[str, ...]) -> list[int]:
    sub = _subcommand(argv)
    if sub is None or argv[sub] not in _JS_INSTALLS:
        return []
    found = _flags(argv, _JS_OPTIONS, sub + 1)
    for index in _operands(argv, sub + 1):
        word = argv[index]
        scoped = word.startswith("@")  # @scope/name[@version]: a registry package
        shorthand = word.count("/") > (1 if scoped else 0)  # user/repo: a GitHub repository
        if _path_like(word) or word.endswith((".tgz", ".tar.gz", ".tar")) or shorthand or "#" in word:
            found.append(index)
    return found


def _cargo(argv: tuple[str, ...]) -> list[int]:
    sub = _subcommand(argv)
    if sub is None or argv[sub] != "install":
        return []
    return _flags(argv, frozenset({"--git", "--path", "--registry", "--index", "--branch", "--tag", "--rev", "-f", "--force", "--root", "--config"}), sub + 1)


_GO_OPTIONS = frozenset({"-toolexec", "--toolexec", "-exec", "--exec", "-overlay", "--overlay", "-modfile", "--modfile", "-ldflags", "--ldflags", "-gcflags", "--gcflags", "-asmflags", "--asmflags"})


def _go(argv: tuple[str, ...]) -> list[int]:
    sub = _subcommand(argv)
    if sub is None or argv[sub] not in ("install", "get", "run"):
        return []
    found = _flags(argv, _GO_OPTIONS, sub + 1)
    found += [i for i in _operands(argv, sub + 1) if argv[i] in (".", "..") or argv[i].startswith(("./", "../", "/", "~"))]
    return found


def _systemctl(argv: tuple[str, ...]) -> list[int]:
    return _flags(argv, frozenset({"--now", "-f", "--force", "-H", "--host", "-M", "--machine", "--root", "--global", "--runtime"}))


_PUSH_OPTIONS = frozenset({
    "-f", "--force", "--force-with-lease", "--force-if-includes", "--mirror", "-d", "--delete", "--prune", "--all",
    "--branches", "--tags", "--no-verify", "--receive-pack", "--exec", "-o", "--push-option",
})  # fmt: skip


def _git(argv: tuple[str, ...]) -> list[int]:
    if len(argv) < 2 or argv[1] != "push":
        return []
    found = _flags(argv, _PUSH_OPTIONS, 2, shorts="fdo")
    found += [i for i in _operands(argv, 2)[1:] if argv[i].startswith(("+", ":")) or ":" in argv[i]]
    return found


_RULES: dict[str, Callable[[tuple[str, ...]], list[int]]] = {
    "apt": _apt, "apt-get": _apt, "dnf": _dnf, "yum": _dnf, "pacman": _pacman, "brew": _brew, "snap": _snap,
    "pip": _pip, "pip3": _pip, "npm": _js, "pnpm": _js, "yarn": _js, "cargo": _cargo, "go": _go,
    "systemctl": _systemctl, "git": _git,
}  # fmt: skip


@lru_cache(maxsize=4096)
def changing_words(argv: tuple[str, ...]) -> tuple[int, ...]:
    """Positions in ``argv`` of the words that change what its subcommand means (see the module docstring), sorted;
    ``()`` for a program without such rules. Pure; never raises."""
    rule = _RULES.get(argv[0]) if argv else None
    if rule is None:
        return ()
    return tuple(sorted(set(rule(argv))))
