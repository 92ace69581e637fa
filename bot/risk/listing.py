"""File names a command prints, read as the files another program then reads: ``ls .env | xargs cat``,
``cat $(ls -a | grep env)``.

A listing (``ls``, ``find``, ``fd``, ``git ls-files``, ``grep -l``) whose operands or name patterns name a credential
file (sensitive.py: ``.env``, ``*.key``, ``id_rsa``) prints that file's name; a filter (``grep PATTERN`` without
``-v``) over a listing of every name keeps the names its pattern matches, and matches a credential file when it
matches one of :data:`_SECRET_NAMES` (``grep env`` matches ``.env``); any filter, inverted (``-v``) too, over names
that include a credential file may keep it (``ls ~/.ssh/id_* | grep -v pub``). A listing that shows hidden or
git-ignored files (``ls -a``, ``find`` without a name test or with a negated or alternative one, ``fd -H``, ``git
ls-files -o|-i``) names the project's ``.env`` and, below the top, ``.git/config`` (:data:`HIDDEN`): a filter keeps
them unless its pattern matches none of the hidden credential names, or ``-v`` drops them all. ``git ls-files``
without pathspecs lists the tracked files (:data:`TRACKED`): they name a credential file when the repository tracks
one, which the caller asks the recipe book (walker.tracked_names). :func:`stream` follows a pipeline's elements and
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

__all__ = ["ANY_PATH", "EVERY_NAME", "HIDDEN", "TRACKED", "names_secret", "stream", "xargs_program"]

#: The state of a stream that may hold any file's name but a hidden one (``ls``, ``fd``): a filter decides what it
#: keeps.
EVERY_NAME = "\0every name"
#: The state of a stream that holds hidden and git-ignored files' names too (``ls -a``, ``find .``, ``git ls-files
#: -o``): the project's ``.env``, and below the top ``.git/config``, are among them.
HIDDEN = "the project's secrets (a hidden or git-ignored file such as .env, or .git/config)"
#: The state of a stream of the repository's tracked files (``git ls-files``): it names a credential file when the
#: repository tracks one (the caller asks the recipe book: settings question ``tracked``).
TRACKED = "\0tracked names"
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


def _regex_finds_secret(pattern: str | None) -> bool:
    """True when the regular expression ``pattern`` (fd's) finds a match in one of :data:`_SECRET_NAMES` (one that
    does not compile, or is only known when it runs, may: fail closed)."""
    if pattern is None:
        return True
    try:
        return any(re.search(pattern, name) for name in _SECRET_NAMES)
    except re.error:
        return True


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
        if _ls_all(args):
            return HIDDEN  # ls(1) -a/-A: the entries starting with "." too, of each directory named
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
        if name == "find" and (not patterns or _find_unfiltered(args)):
            return HIDDEN  # find(1) lists hidden files as any other: no name test keeps .env out
        if name != "find" and _fd_hidden(args) and (not patterns or any(_regex_finds_secret(p) for p in patterns)):
            return HIDDEN  # fd -H .: its pattern, a regular expression, finds .env
        return None if patterns else EVERY_NAME
    if name == "mdfind":
        return _mdfind(args)
    if name == "git" and "ls-files" in args:
        rest = args[args.index("ls-files") + 1 :]
        specs = [w for w in _operands(rest)]
        for spec in specs:
            what = names_secret(spec or "")
            if what is not None:
                return what
        if _ls_files_untracked(rest):
            return HIDDEN  # git-ls-files(1) -o/-i: untracked or ignored files, the ignored .env among them
        return None if specs else TRACKED
    return None


#: mdfind(1) options that take the next word as their argument.
_MDFIND_VALUED = frozenset({"-onlyin", "-name", "-s", "-attr"})


def _mdfind(args: list[str | None]) -> str | None:
    """mdfind(1) (macOS 14) prints the paths of the files the Spotlight index holds (the home directory among them)
    that match its query: ``-name NAME`` matches file names, a raw query (``kMDItemFSName == "id_rsa"``, or plain
    words, which match contents too: ``mdfind password``) anything. A query naming a credential file names it; any
    other raw query may match a credential file by its contents (:data:`ANY_PATH`); ``-name`` alone names what it
    names."""
    names = [args[i + 1] for i, w in enumerate(args[:-1]) if w == "-name"]
    query = [
        w
        for i, w in enumerate(args)
        if (w is None or not w.startswith("-")) and not (i and args[i - 1] in _MDFIND_VALUED)
    ]
    for text in names + query:
        if text is None:
            return ANY_PATH
        for token in re.findall(r"[^\s\"'=()&|!<>]+", text):
            what = names_secret(token)
            if what is not None:
                return what
    return ANY_PATH if query else None


def _clusters(args: list[str | None]) -> tuple[str, set[str]]:
    """The letters of ``args``' single-dash option clusters and its long options (a word only known when it runs
    counts as ``?``: it may be any option)."""
    letters = "".join(w[1:] for w in args if w is not None and w.startswith("-") and not w.startswith("--"))
    long = {w.split("=", 1)[0] for w in args if w is not None and w.startswith("--")}
    if any(w is None for w in args):
        letters += "?"
    return letters, long


def _abbreviates(given: set[str], names: tuple[str, ...], ambiguous: str) -> bool:
    """True when a long option of ``given`` is one of ``names`` or a prefix of one longer than ``ambiguous`` (getopt_long
    and git's parse-options accept a unique abbreviation: ``--alm``, ``--oth``)."""
    return any(len(w) > len(ambiguous) and any(n.startswith(w) for n in names) for w in given)


def _ls_all(args: list[str | None]) -> bool:
    """ls(1) coreutils 9: ``-a``/``--all`` "do not ignore entries starting with .", ``-A``/``--almost-all`` the
    same but for ``.`` and ``..``; a word only known when it runs may be either."""
    letters, long = _clusters(args)
    return bool(set(letters) & set("aA?")) or _abbreviates(long, ("--all", "--almost-all"), "--al")


def _find_unfiltered(args: list[str | None]) -> bool:
    """True when a find(1) expression with name tests may still print names they do not match: a negated test
    (``!``, ``-not``), an alternative (``-o``, ``-or``, ``,``) or a word only known when it runs."""
    return any(w is None or w in ("!", "-not", "-o", "-or", ",") for w in args)


def _fd_hidden(args: list[str | None]) -> bool:
    """fd(1) 10: hidden and git-ignored files are skipped unless ``-H``/``--hidden``, ``-I``/``--no-ignore`` or
    ``-u``/``--unrestricted`` is given."""
    letters, long = _clusters(args)
    return bool(set(letters) & set("HIu?")) or bool(long & {"--hidden", "--no-ignore", "--unrestricted"})


def _ls_files_untracked(args: list[str | None]) -> bool:
    """git-ls-files(1) 2.45: ``-o``/``--others`` shows untracked files (the ignored ones too, unless
    ``--exclude-standard`` or an exclude pattern hides them, and which are hidden is the repository's choice),
    ``-i``/``--ignored`` only ignored ones; a word only known when it runs may be either."""
    letters, long = _clusters(args)
    return bool(set(letters) & set("oi?")) or _abbreviates(long, ("--others", "--ignored"), "--")


def _removes_hidden_secrets(args: list[str | None], flags: str, long: set[str]) -> bool:
    """True when ``grep -v`` with ``args`` drops every hidden credential name of :data:`_SECRET_NAMES` (``grep -v
    '^\\.'``); a pattern given by ``-e``/``-f`` or only known when it runs is not judged (False)."""
    operands = _operands(args)
    if not operands or operands[0] is None or any(w is None or w in ("-e", "-f", "--regexp", "--file") for w in args):
        return False
    pattern = operands[0]
    fixed, fold = "F" in flags or "--fixed-strings" in long, "i" in flags or "--ignore-case" in long
    for name in (n for n in _SECRET_NAMES if n.startswith(".")):
        subject, needle = (name.lower(), pattern.lower()) if fold else (name, pattern)
        try:
            found = needle in subject if fixed else re.search(needle, subject) is not None
        except re.error:
            return False
        if not found:
            return False
    return True


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
    if before == TRACKED:  # the tracked secret files are only known to the recipe book: a pattern may keep them
        inverted = "v" in flags or "--invert-match" in long
        return TRACKED if inverted else _grep_keeps_secret(args, operands, flags, long, name)
    if before not in (EVERY_NAME, HIDDEN):
        return before  # a filter over names that include a credential file may keep it (-v too: grep -v pub)
    if "v" in flags or "--invert-match" in long:
        if before == HIDDEN and not _removes_hidden_secrets(args, flags, long):
            return HIDDEN  # ls -A | grep -v git: .env passes; grep -v env: .npmrc passes
        return None
    return _grep_keeps_secret(args, operands, flags, long, name)


def _grep_keeps_secret(
    args: list[str | None], operands: list[str | None], flags: str, long: set[str], name: str
) -> str | None:
    """What credential file a grep filter's pattern keeps from a listing of every name (see :func:`_grep`)."""
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
    return None if state == EVERY_NAME else state  # TRACKED: the caller asks (walker.tracked_names)


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
