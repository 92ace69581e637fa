"""tar (GNU tar manual, "Operations" and "All Options").

``-t``/``-d`` only read; ``-c``/``-r``/``-u``/``-A``/``--delete`` write the archive
(``-f``; none or ``-`` is standard output); ``-x`` writes into ``-C DIR`` or the cwd
(``-P`` lets member names escape it: a write outside). ``--to-command``,
``-I``/``--use-compress-program``, ``-F``/``--info-script``, ``--checkpoint-action``
and ``--rsh-command`` run programs: destructive. ``--remove-files`` deletes. An archive
name with a colon before any slash is a remote archive reached through rsh/ssh (GNU tar
manual "Remote Tape Server"; ``--force-local`` turns that off): network egress.
``-g``/``--listed-incremental``, ``--index-file`` and ``--volno-file`` write their file. Long options may be
abbreviated (getopt_long); one tar does not have, or an ambiguous prefix, is refused.
"""

from __future__ import annotations

import posixpath

from bot.risk.grader import Call, Handler
from bot.risk.model import RiskLevel as R
from bot.risk.options import long_is
from bot.risk.paths import OUTPUT_SINKS
from bot.risk.reasons import shorten
from bot.risk.words import Word, literal_word

from .kit import as_root, deletion, destructive, host_destructive, network, read_only, refuse, unpacks
from .optionglobs import check as check_option_globs

__all__ = ["seven_reads", "tar"]

_VALUE_LETTERS = "fCbgHIKLNTVXF"
_MODE_LETTERS = "cxtruAd"
_LONG_VALUES = (
    "--file", "--directory", "--blocking-factor", "--listed-incremental", "--format", "--use-compress-program",
    "--starting-file", "--tape-length", "--newer", "--after-date", "--files-from", "--label", "--exclude-from",
    "--info-script", "--new-volume-script", "--to-command", "--checkpoint-action", "--exclude", "--transform",
    "--xform", "--owner", "--group", "--mode", "--mtime", "--suffix", "--strip-components", "--index-file",
    "--rsh-command", "--rmt-command", "--volno-file", "--record-size", "--level", "--quoting-style",
    "--sparse-version", "--warning", "--sort", "--pax-option", "--exclude-tag", "--exclude-tag-all",
    "--exclude-tag-under", "--group-map", "--owner-map", "--hole-detection", "--xattrs-include", "--xattrs-exclude",
    "--add-file", "--exclude-ignore", "--exclude-ignore-recursive",
)  # fmt: skip
#: GNU tar 1.35's long options that take no value, or only an attached one (``--backup[=CONTROL]``), from
#: "All Options": with the two lists above, every long option tar accepts. getopt_long takes an unambiguous prefix
#: of any of them (``--remove-f``); a long option that is none of them, or an ambiguous prefix, is refused.
_LONG_FLAGS = (
    "--absolute-names", "--acls", "--no-acls", "--atime-preserve", "--auto-compress", "--no-auto-compress",
    "--backup", "--bzip2", "--check-device", "--no-check-device", "--check-links", "--compress", "--uncompress",
    "--delay-directory-restore", "--no-delay-directory-restore", "--dereference", "--exclude-backups",
    "--exclude-caches", "--exclude-caches-all", "--exclude-caches-under", "--exclude-vcs", "--exclude-vcs-ignores",
    "--force-local", "--full-time", "--gunzip", "--gzip", "--ungzip", "--hard-dereference", "--help", "--usage",
    "--version", "--ignore-case", "--no-ignore-case", "--ignore-command-error", "--no-ignore-command-error",
    "--ignore-failed-read", "--ignore-zeros", "--incremental", "--interactive", "--confirmation",
    "--keep-directory-symlink", "--keep-newer-files", "--keep-old-files", "--skip-old-files", "--lzip", "--lzop",
    "--multi-volume", "--no-null", "--null", "--no-overwrite-dir", "--overwrite", "--overwrite-dir",
    "--no-recursion", "--recursion", "--no-same-owner", "--same-owner", "--no-same-permissions",
    "--same-permissions", "--preserve-permissions", "--preserve", "--preserve-order", "--same-order", "--no-seek",
    "--seek", "--no-selinux", "--selinux", "--no-unquote", "--unquote", "--no-wildcards", "--wildcards",
    "--no-wildcards-match-slash", "--wildcards-match-slash", "--no-xattrs", "--xattrs", "--numeric-owner",
    "--one-file-system", "--one-top-level", "--posix", "--read-full-records", "--recursive-unlink",
    "--remove-files", "--restrict", "--show-defaults", "--show-omitted-dirs", "--show-snapshot-field-ranges",
    "--show-stored-names", "--show-transformed-names", "--sparse", "--to-stdout", "--totals", "--touch",
    "--unlink-first", "--utc", "--verbose", "--verify", "--xz", "--zstd", "--anchored", "--no-anchored",
    "--block-number", "--checkpoint", "--occurrence", "--clamp-mtime", "--old-archive", "--portability",
    "--no-quote-chars", "--quote-chars", "--lzma",
)  # fmt: skip
_LONG_MODES = {
    "--create": "c", "--extract": "x", "--get": "x", "--list": "t", "--append": "r", "--update": "u",
    "--catenate": "A", "--concatenate": "A", "--diff": "d", "--compare": "d", "--delete": "D", "--test-label": "t",
}  # fmt: skip
_RUNS = (
    "--to-command",
    "--use-compress-program",
    "--info-script",
    "--new-volume-script",
    "--checkpoint-action",
    "--rsh-command",
    "--rmt-command",
)


def _resolve(name: str) -> str:
    """The long option ``name`` is or abbreviates (getopt_long); ``?name`` when it is none or ambiguous."""
    known = (*_LONG_VALUES, *_LONG_MODES, *_LONG_FLAGS)
    if name in known:
        return name
    found = {f for f in known if long_is(name, f)}
    return found.pop() if len(found) == 1 else "?" + name


def _parse(
    words: list[Word], operands: list[tuple[Word, Word | None]] | None = None
) -> tuple[list[tuple[str, Word | None]], set[str], bool]:
    """(options with values, mode letters, saw a dynamic word). ``operands`` gets each file or member operand with
    the ``-C``/``--directory`` given before it (GNU tar manual, "Changing the Working Directory": ``-C`` applies to
    the operands after it), or None."""
    opts: list[tuple[str, Word | None]] = []
    found: list[tuple[Word, Word | None]] = [] if operands is None else operands
    modes: set[str] = set()
    dynamic = False
    queue = list(words)
    if queue and queue[0].value is not None and not queue[0].value.startswith("-"):
        first = queue.pop(0).value or ""
        for letter in first:
            opts.append(("-" + letter, queue.pop(0) if letter in _VALUE_LETTERS and queue else None))
    while queue:
        word = queue.pop(0)
        value = word.value
        if value is None:
            dynamic = True
            continue
        if value == "--":
            found.extend((rest, _last_dir(opts)) for rest in queue)
            break
        if not value.startswith("-") or value == "-":
            found.append((word, _last_dir(opts)))
            continue
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            full = _resolve(name)
            taken = Word(attached, attached) if eq else (queue.pop(0) if full in _LONG_VALUES and queue else None)
            opts.append((full, taken))
        else:
            letters = value[1:]
            for position, letter in enumerate(letters):
                if letter in _VALUE_LETTERS:
                    rest = letters[position + 1 :]
                    opts.append(("-" + letter, Word(rest, rest) if rest else (queue.pop(0) if queue else None)))
                    break
                opts.append(("-" + letter, None))
    for name, _ in opts:
        if name in _LONG_MODES:
            modes.add(_LONG_MODES[name])
        elif len(name) == 2 and name[1] in _MODE_LETTERS:
            modes.add(name[1])
    return opts, modes, dynamic


#: GNU tar's spellings of --same-permissions ("Options Controlling Extraction").
_KEEPS_MODES = frozenset({"-p", "--same-permissions", "--preserve-permissions", "--preserve"})


def _last_dir(opts: list[tuple[str, Word | None]]) -> Word | None:
    """The directory of the last ``-C``/``--directory`` among ``opts``, or None."""
    return next((value for name, value in reversed(opts) if name in ("-C", "--directory")), None)


#: Options that change member names on extraction (GNU tar manual, "Modifying File and Member Names"), those that
#: make member operands patterns (``--wildcards``; ``--no-anchored`` matches a name after any ``/``, at any depth;
#: ``--ignore-case``) and those that read more member names from a file (``-T``/``--files-from``): the members
#: written are then not the operands as written.
_RENAMES = frozenset(
    {
        "--transform",
        "--xform",
        "--strip-components",
        "--wildcards",
        "--no-anchored",
        "--ignore-case",
        "-T",
        "--files-from",
    }
)


def _file_member(value: str) -> bool:
    """True when the member operand ``value`` names a file: its last part has an extension (``src/main.c``,
    ``settings.json``). tar extracts a member that is a directory with everything below it, and only the archive
    knows whether ``src``, ``./src``, ``src/``, ``.`` or ``Makefile`` is one, so those are not file members."""
    if value.endswith("/"):
        return False
    stem, extension = posixpath.splitext(posixpath.basename(value))
    return bool(stem) and len(extension) > 1 and stem not in (".", "..")


def _members(call: Call, operands: list[tuple[Word, Word | None]], dest: Word, names: set[str]) -> None:
    """Extraction: into the workspace root with members only known when it runs (no member operands, globs, or
    renaming or matching options) may plant git's or an agent's control files (kit.unpacks); a member that may be
    a directory (:func:`_file_member`) is such an extraction into that directory (``tar -xf x.tar .``, ``./src``:
    its subtree may hold ``.git/hooks``, ``.claude`` or ``src/.git/config``); named file members are writes of those
    names in their directory."""
    plain = [
        (word, where)
        for word, where in operands
        if word.value and not any(ch in word.value for ch in "*?[") and not word.value.startswith("/")
    ]
    if not operands or len(plain) < len(operands) or names & _RENAMES:
        unpacks(call, dest, "tar extracts into")
        return
    call.write(dest, "tar extracts into")
    for word, where in plain:
        if _file_member(word.value or ""):
            call.write(word, "tar extracts", cwd=where or dest)
        else:
            unpacks(call, word, "tar extracts the member, which may be a directory, into", cwd=where or dest)


def _reads_below(call: Call, operands: list[tuple[Word, Word | None]], *, printed: bool) -> None:
    """Create, append, update: each file operand is read from the directory of the ``-C`` before it (``tar -C ~
    -cf - .ssh`` reads ``~/.ssh``), recursively: graded as a read of every file below it, ``printed`` when the
    archive goes to standard output (Grader.read_below)."""
    for word, where in operands:
        call.g.read_below(call.rec, call.scope, "tar", word, where, printed=printed)


def tar(call: Call) -> None:
    """Grade ``tar`` (see the module docstring)."""
    operands: list[tuple[Word, Word | None]] = []
    opts, modes, dynamic = _parse(call.args, operands)
    names = {name for name, _ in opts}
    if dynamic:
        destructive(call, "dynamic-argument", "A tar argument is only known when it runs.")
        return
    unknown = sorted(name[1:] for name in names if name.startswith("?"))
    if unknown:
        refuse(call, f"tar {unknown[0]} (a long option GNU tar does not have, or an ambiguous abbreviation)")
        return
    if names & {"-I", "-F", *_RUNS}:
        destructive(call, "runs-program", "This tar option runs a program of the caller's choosing.")
        return
    if names & {"--remove-files", "--recursive-unlink"}:
        deletion(call, "tar --remove-files/--recursive-unlink deletes files.")
        if "--remove-files" in names:  # the files it adds (GNU tar manual, "--remove-files")
            for word, where in operands:
                call.g.removes(call.rec, call.scope, word, "tar --remove-files deletes", cwd=where)
    archives = [value for name, value in opts if name in ("-f", "--file") and value is not None]
    if "--force-local" not in names and any(":" in (a.value or "").split("/", 1)[0] for a in archives):
        network(call, "tar reaches a remote archive (HOST:FILE) through rsh/ssh.")
    for name, value in opts:
        if name in ("-g", "--listed-incremental", "--index-file", "--volno-file") and value is not None:
            call.write(value, f"tar {name} writes")
    dirs = [value for name, value in opts if name in ("-C", "--directory") and value is not None]
    if len(modes) != 1:
        refuse(call, "an invocation without exactly one operation")
        return
    mode = next(iter(modes))
    if mode in "td":
        read_only(call, "tar only lists or compares.")
    elif mode == "x":
        if as_root(call) and "--no-same-permissions" not in names:
            # GNU tar manual, "Options Controlling Extraction": as root, tar keeps the archive's owners
            # (--same-owner; with --no-same-owner root owns them) and modes (--same-permissions), so a member can be
            # a setuid-root program.
            host_destructive(
                call,
                "setuid",
                "tar -x as root keeps the archive's setuid bits: a member can be a program that runs as root.",
            )
        elif names & _KEEPS_MODES and "--no-same-permissions" not in names:
            # -p for an ordinary user keeps the setuid and setgid bits too: a program that runs as this user
            host_destructive(
                call,
                "setuid",
                "tar -x -p keeps the archive's setuid and setgid bits: a member can be a program that runs as "
                "its owner, whoever starts it.",
            )
        _members(call, operands, dirs[-1] if dirs else literal_word("."), names)
        if names & {"-P", "--absolute-names"}:
            # GNU tar manual, "Absolute File Names": members keep their leading "/", so they land anywhere.
            call.write(literal_word("/"), "tar -P extracts absolute member names anywhere under")
    else:
        # GNU tar manual, "--file": "If this option is not given ... tar will use the default archive", standard
        # output on the usual builds, as "-f -" is; /dev/stdout and the like are the same output: the archive,
        # and every file's content in it, goes to the model
        printed = not archives or any(a.value == "-" or a.value in OUTPUT_SINKS for a in archives)
        _reads_below(call, operands, printed=printed)
        lists = [value for name, value in opts if name in ("-T", "--files-from") and value is not None]
        if any(value.value != "/dev/null" for value in lists):
            # GNU tar manual, "Reading Names from a File": -T FILE adds the files FILE names, any path (a list the
            # agent wrote may name ~/.ssh/id_rsa); what is in it is only known when it runs
            call.g.flag(
                call.rec, call.scope, R.NETWORK, "secret-read",
                f"tar -T {shorten(lists[0].src, 40)} adds the files that list names, which may be credential files: "
                "the content goes to the model.",
            )  # fmt: skip
        targets = [a for a in archives if a.value != "-"]
        if not archives:
            read_only(call, "tar writes the archive to standard output.")
        for target in targets:
            call.write(target, "tar writes the archive", cwd=None)


def seven_reads(base: Handler) -> Handler:
    """7z(1) (7-Zip 24) ``a`` and ``u`` add files: each file operand after the archive is read with everything below
    it (7-Zip recurses into a named directory: "7z a archive.7z dir" stores the whole tree, as ``tar -c``; with
    ``-so`` the archive goes to standard output, as ``tar cf -``), and a
    ``@listfile`` operand or an ``-i@listfile``/``-ir@listfile`` switch adds the files that list names, any path:
    graded as ``tar -c`` is (:func:`_reads_below`; a list only known when it runs may name credential files)."""

    def handler(call: Call) -> None:
        base(call)
        check_option_globs(call)  # 7z reads switches anywhere before ``--`` (``-sdel`` deletes): optionglobs.py
        operands = [w for w in call.args if w.value is None or not w.value.startswith("-")]
        if not operands or operands[0].value not in ("a", "u"):
            return
        printed = any(w.value == "-so" for w in call.args)  # -so: "write data to stdout"
        for word in operands[2:]:
            if word.value is not None and word.value.startswith("@"):
                _listed(call, word)
                return
            call.g.read_below(call.rec, call.scope, "7z", word, None, printed=printed)
        for word in call.args:
            value = word.value or ""
            if value.startswith("-i") and "@" in value:
                _listed(call, word)
                return
            # -i[r[-|0]]!WILDCARD: "Include filenames" (7z(1) -i switch): the files the wildcard names, any path
            if value.startswith("-i") and "!" in value:
                wildcard = value.split("!", 1)[1]
                call.g.read_below(call.rec, call.scope, "7z", literal_word(wildcard), None, printed=printed)

    handler.__name__ = "seven_reads"
    return handler


def _listed(call: Call, word: Word) -> None:
    """A secret read: the archiver adds the files the list ``word`` names, only known when it runs."""
    call.g.flag(
        call.rec, call.scope, R.NETWORK, "secret-read",
        f"7z {shorten(word.src, 40)} adds the files that list names, which may be credential files: the content "
        "goes to the model.",
    )  # fmt: skip
