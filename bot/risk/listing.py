"""File names a command prints, read as the files another program then reads: ``ls .env | xargs cat``,
``cat $(ls -a | grep env)``.

A listing (``ls``, ``find``, ``fd``, ``git ls-files``, ``grep -l``) whose operands or name patterns name a credential
file (sensitive.py: ``.env``, ``*.key``, ``id_rsa``) prints that file's name; a filter (``grep PATTERN`` without
``-v``) over a listing of every name keeps the names its pattern matches, and matches a credential file when it
matches one of :data:`_SECRET_NAMES` (``grep env`` matches ``.env``); any filter, inverted (``-v``) too, over names
that include a credential file may keep it (``ls ~/.ssh/id_* | grep -v pub``). :func:`stream` follows a pipeline's elements and
says what credential file the names at its end may include; a listing whose patterns name nothing secret (``find .
-name '*.py'``) names none, and neither does any other program's output.
"""

from __future__ import annotations

import posixpath
import re

from bot.risk.sensitive import (
    credential_path,
    env_file,
    glob_names_credential,
    may_name_credential_file,
    named_secret,
)

__all__ = ["ANY_PATH", "EVERY_NAME", "names_secret", "stream", "xargs_program"]

#: The state of a stream that may hold any file's name (``ls -a``, ``find .``): a filter decides what it keeps.
EVERY_NAME = "\0every name"
#: Credential file names a filter's pattern is tried on (sensitive.py's examples, by their last component).
_SECRET_NAMES = (
    ".env", ".env.local", ".env.production", ".envrc", "id_rsa", "id_ed25519", "id_ecdsa", "server.key",
    "private.pem", ".npmrc", ".netrc", ".pypirc", ".pgpass", ".git-credentials", "credentials", "credentials.json",
)  # fmt: skip
#: find's and fd's options whose argument is a name pattern.
_FIND_PATTERNS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex"})
#: Programs that pass the names they are given on, some of them: the stream keeps its state.
_PASSING = frozenset({"head", "tail", "sort", "uniq", "tac", "shuf"})
#: xargs options that take the next word as their argument (xargs(1)).
_XARGS_VALUED = frozenset({"-I", "-i", "-n", "-P", "-d", "-L", "-l", "-s", "-E", "-e", "-a", "--arg-file"})


def names_secret(text: str) -> str | None:
    """What credential file ``text`` (a path or a glob) names by its name, or None."""
    if not text:
        return None
    return env_file(text) or named_secret(text) or credential_path(text) or glob_names_credential(text)


def _pattern_matches_secret(pattern: str, *, fixed: bool, fold: bool) -> str | None:
    """What the first of :data:`_SECRET_NAMES` a grep ``pattern`` matches holds (a regular expression unless
    ``fixed``; a pattern that fails to compile is taken as fixed text). A match must span at least three characters
    (``env``, ``rsa``, ``key``): ``grep py`` matching ``.pypirc`` is no sign of looking for it."""
    for name in _SECRET_NAMES:
        subject, needle = (name.lower(), pattern.lower()) if fold else (name, pattern)
        span = len(needle) if needle in subject else 0
        if not fixed:
            try:
                found = re.search(needle, subject)
            except re.error:
                found = None
            span = max(span, found.end() - found.start() if found is not None else 0)
        if span >= 3:
            return names_secret(name)
    return None


def _operands(words: list[str | None]) -> list[str | None]:
    return [w for w in words if w is None or not w.startswith("-")]


#: The state of a stream of names read from a file (``cat list.txt | xargs cat``): any path at all, outside the
#: workspace too, so a credential file may be among them.
ANY_PATH = "any file the list names, a credential file among them"
#: find's start directories whose tree holds credential files: a home, ``/``, ``/etc`` (or one only known when it
#: runs).
_SECRET_ROOTS = ("~", "/", "/root", "/home", "/Users", "/etc", "/var/lib", "/run", "/var/run", "/proc")


def _find_roots(args: list[str | None]) -> list[str | None]:
    """find's start directories (find(1): the words before the first expression word; none means ``.``)."""
    roots: list[str | None] = []
    for word in args:
        if word is not None and (word.startswith(("-", "(", "!")) or word in (")", ",")):
            break
        roots.append(word)
    return roots


def _secret_root(root: str | None) -> bool:
    if root is None:
        return True
    root = root.rstrip("/") or "/"
    return root == "/" or any(root == r or root.startswith(r.rstrip("/") + "/") for r in _SECRET_ROOTS if r != "/")


def _listing(name: str, args: list[str | None]) -> str | None:
    """What a listing program ``name args`` prints: a credential file it names, :data:`EVERY_NAME`, :data:`ANY_PATH`,
    or None. ``realpath``/``readlink`` print the paths they are given, resolved (realpath(1), readlink(1) ``-f``);
    ``find`` below a home, ``/`` or ``/etc`` prints a credential file's name when a name pattern may match one
    (sensitive.may_name_credential_file: ``-name credentials``, ``-name '*.json'``) or when it has none; ``cat
    FILE`` prints the lines of a file, which may name any path."""
    if name in ("realpath", "readlink", "grealpath", "greadlink"):
        for word in _operands(args):
            what = names_secret(word or "")
            if what is not None:
                return what
        return None
    if name == "cat" and _operands(args) and len(_operands(args)) == len(args):
        return ANY_PATH
    if name == "find" and any(_secret_root(r) for r in _find_roots(args)):
        patterns = [args[i + 1] for i, w in enumerate(args[:-1]) if w in _FIND_PATTERNS]
        if not patterns:
            return "a credential file below the directory it lists"
        for pattern in patterns:
            what = names_secret(pattern or "") or may_name_credential_file(pattern)
            if what is not None:
                return what
    if name == "ls":
        named = _operands(args)
        for word in named:
            what = names_secret(word or "")
            if what is not None:
                return what
        return EVERY_NAME if not named else None
    if name in ("find", "fd", "fdfind"):
        patterns = [args[i + 1] for i, w in enumerate(args[:-1]) if w in _FIND_PATTERNS]
        if name != "find":
            patterns += [w for w in _operands(args)[:1]]  # fd PATTERN [PATH]
        for pattern in patterns:
            what = names_secret(pattern or "") or (
                _pattern_matches_secret(pattern, fixed=False, fold=False) if pattern and "-regex" in args else None
            )
            if what is not None:
                return what
        return None if patterns else EVERY_NAME
    if name == "git" and "ls-files" in args:
        specs = [w for w in _operands(args[args.index("ls-files") + 1 :])]
        for spec in specs:
            what = names_secret(spec or "")
            if what is not None:
                return what
        return None if specs else EVERY_NAME
    return None


def _grep(name: str, args: list[str | None], before: str | None) -> str | None:
    """What ``grep``/``rg`` prints: with ``-l`` the files it names; as a filter, the names of ``before`` its
    pattern keeps."""
    flags = "".join(w[1:] for w in args if w is not None and w.startswith("-") and not w.startswith("--"))
    long = {w for w in args if w is not None and w.startswith("--")}
    operands = _operands(args)
    if "l" in flags or "L" in flags or "--files-with-matches" in long or "--files" in long:
        for word in operands[1:] if "--files" not in long else operands:
            what = names_secret(word or "")
            if what is not None:
                return what
        return None
    if before is None:
        return None
    if before != EVERY_NAME:
        return before  # a filter over names that include a credential file may keep it (-v too: grep -v pub)
    if "v" in flags or "--invert-match" in long:
        return None
    pattern = next((args[i + 1] for i, w in enumerate(args[:-1]) if w in ("-e", "--regexp")), None)
    if pattern is None:
        pattern = operands[0] if operands else None
    if not pattern:
        return None
    fixed = "F" in flags or name == "fgrep" or "--fixed-strings" in long
    return _pattern_matches_secret(pattern, fixed=fixed, fold="i" in flags or "--ignore-case" in long)


def step(words: list[str | None], before: str | None) -> str | None:
    """The state of a stream after the pipeline element ``words`` (its argv) given ``before``'s (see :func:`stream`)."""
    if not words or words[0] is None:
        return None
    name = posixpath.basename(words[0])
    args = words[1:]
    if name in ("grep", "egrep", "fgrep", "rg"):
        return _grep(name, args, before)
    if name in _PASSING and not _operands(args):
        return before
    return _listing(name, args)


def stream(elements: list[list[str | None]]) -> str | None:
    """What credential file the names at the end of a pipeline of ``elements`` (argvs) may include, or None (also
    when they may be any name: ``ls | xargs cat`` keeps its grade)."""
    state: str | None = None
    for words in elements:
        state = step(words, state)
    return None if state == EVERY_NAME else state


def xargs_program(words: list[str | None]) -> str | None:
    """The program ``xargs [options] PROGRAM ...`` runs (``words`` without ``xargs``), or None when unknown."""
    index = 0
    while index < len(words):
        word = words[index]
        if word is None:
            return None
        if word == "--":
            index += 1
            break
        if not word.startswith("-"):
            break
        index += 2 if word in _XARGS_VALUED else 1
    if index >= len(words) or words[index] is None:
        return None
    return posixpath.basename(words[index] or "")
