"""File tools whose arguments name what they write (GNU coreutils and friends).

Every write target goes through :meth:`Call.write`, so the location rules of
``paths.py`` apply alike to redirects and to ``cp``/``tee``/``touch``/... operands.
"""

from __future__ import annotations

import posixpath
import re

from bot.risk.grader import Call
from bot.risk.options import long_is, scan
from bot.risk.paths import OUTPUT_SINKS, Where, may_be_in_workspace
from bot.risk.words import Word, literal_word

from .kit import (
    R,
    applies_patch,
    as_root,
    deletion,
    destructive,
    first_dynamic,
    host_destructive,
    injected,
    read_only,
    refuse,
    sets_setid,
    show,
    unpacks,
)

__all__ = [
    "compressor",
    "cp",
    "dd",
    "fd",
    "install",
    "ln",
    "mkdir",
    "mktemp",
    "mv",
    "patch",
    "remove",
    "rg",
    "sort",
    "sponge",
    "tee",
    "touch",
    "tree",
    "truncate",
    "uniq",
    "unzip",
    "xxd",
    "yq",
    "zip_",
]  # fmt: skip


def _write_all(call: Call, words: list[Word], what: str, *, replaces: bool = False) -> None:
    if not words:
        read_only(call, f"{call.name} without operands writes nothing.")
    for word in words:
        call.write(word, what, replaces=replaces)


def touch(call: Call) -> None:
    """touch(1): every FILE operand is created or changed."""
    found = scan(call.args, "drt", frozenset({"--date", "--reference", "--time"}))
    _write_all(call, found.operands, "touch changes")


def mkdir(call: Call) -> None:
    """mkdir(1): every DIRECTORY operand is created."""
    found = scan(call.args, "m", frozenset({"--mode"}))
    _write_all(call, found.operands, "mkdir creates")


#: Options that take a value, by program (rm(1) and unlink(1) have none; shred(1): ``-n N``, ``-s N``,
#: ``--random-source FILE``; rimraf's CLI: none).
_REMOVE_VALUES = {"shred": ("ns", frozenset({"--iterations", "--size", "--random-source"}))}


def remove(call: Call) -> None:
    """rm(1), unlink(1), shred(1) (which overwrites each FILE, and with ``-u`` deletes it) and rimraf (npm's
    ``rm -rf``): deletes, ``destructive`` wherever it runs (rule ``deletion``; the workspace sync carries deletions
    home), and each operand is graded by where it lands (Grader.removes), findings a program rule's override
    keeps. Without operands nothing is deleted, but the grade stays (fail closed)."""
    deletion(call, f"{call.name} deletes.")
    short, long = _REMOVE_VALUES.get(call.name, ("", frozenset()))
    for word in scan(call.args, short, long).operands:
        call.g.removes(call.rec, call.scope, word, f"{call.name} deletes")


def rmdir(call: Call) -> None:
    """rmdir(1): removes only empty directories (nothing is lost), so it is a write where each operand is;
    ``-p`` also removes the empty parents named in the operand."""
    found = scan(
        call.args, "", frozenset(), long_flags=frozenset({"--parents", "--ignore-fail-on-non-empty", "--verbose"})
    )
    _write_all(call, found.operands, "rmdir removes the empty directory")


_CP_LONG = frozenset({"--target-directory", "--suffix", "--sparse"})


def _copy_dest(call: Call, short: str = "tS", long: frozenset[str] = _CP_LONG) -> tuple[list[Word], Word | None]:
    found = scan(call.args, short, long)
    targets = found.values("-t", "--target-directory")
    if targets:
        return found.operands, targets[-1]
    if len(found.operands) >= 2:
        return found.operands[:-1], found.operands[-1]
    return found.operands, None


def cp(call: Call) -> None:
    """cp(1): the destination (last operand or ``-t DIR``) is written."""
    injected(call, call.args, runs_programs=False)
    _, dest = _copy_dest(call)
    if dest is None:
        read_only(call, "cp without a destination writes nothing.")
        return
    if as_root(call) and _preserves_modes(call.args):
        host_destructive(
            call,
            "setuid",
            "cp as root keeping modes (-p, -a, --preserve) copies setuid/setgid bits: a program then runs as its owner.",
        )
    # only a recursive copy puts files its source names into the destination (cp(1) -R, -r, -a: a directory)
    call.write(dest, "cp writes", replaces=True, fills=_recursive_copy(call.args))
    sources = _copy_dest(call)[0]
    if [w.value for w in sources] == ["/dev/null"]:
        call.g.empties(call.rec, call.scope, dest, "cp /dev/null empties")  # cp(1) copies its empty content
    _copied_names(call, sources, dest, "cp")
    if _recursive_copy(call.args) and not _makes_links(call.args):
        # a recursive copy reads every file below its sources: a home, / or ~/.config holds credentials, which then
        # lie in the destination for any later read (grader.read_below)
        for source in sources:
            call.g.read_below(call.rec, call.scope, "cp -r", source, None)
    if _makes_links(call.args):
        # cp(1) -s, --symbolic-link: "make symbolic links instead of copying"; -l, --link: "hard link files instead of
        # copying": as ln, a later write through the link lands in the source
        for source in sources:
            if call.where(source) not in (Where.WORKSPACE, Where.TEMP, Where.NOWHERE):
                call.write(source, "cp -s/-l makes a link that later writes follow to")


def _makes_links(words: list[Word]) -> bool:
    """cp(1): ``-s``/``--symbolic-link`` or ``-l``/``--link`` (in a cluster of short options too)."""
    for word in words:
        value = word.value or ""
        if value == "--":
            break
        if value in ("--symbolic-link", "--link"):
            return True
        if value.startswith("-") and not value.startswith("--"):
            for letter in value[1:]:
                if letter in "St":  # the rest is the option's value
                    break
                if letter in "sl":
                    return True
    return False


def _copied_names(call: Call, sources: list[Word], dest: Word, name: str) -> None:
    """cp(1)/mv(1) into a directory: each source lands as ``DEST/NAME`` (``cp -r build/.claude .`` writes
    ``./.claude``), graded as a write there (a source only known when it runs is not judged by its name); a source
    that is a directory's contents (``build/.``, ``-T``, a glob) lands as files only it names: into the workspace root, they may be git's or an agent's control files
    (kit.unpacks)."""
    if not dest.value or dest.value.startswith("-") or any(ch in dest.value for ch in "*?["):
        return
    if call.where(dest) is Where.NOWHERE:
        return  # a sink (/dev/null, /dev/stdout) is a character device, no directory: nothing lands below it
    contents = any(
        (w.value or "").startswith("-")
        and not (w.value or "").startswith("--")
        and "T" in (w.value or "")
        or w.value == "--no-target-directory"
        for w in call.args
    )
    for source in sources:
        value = source.value
        if value is None:
            continue  # a word only known when it runs (find's {}, "$F"): its name is not known here
        if contents or value.rstrip("/").endswith("/.") or value in (".", "./") or "*" in value:
            if call.g.at_workspace_root(dest):
                unpacks(call, dest, f"{name} copies files its source names into")
                return
            continue
        base = posixpath.basename(value.rstrip("/"))
        # a file or a directory (``cp -r config dist/``) named as git's own files is judged by where it lands only
        if base and base not in (".", "..", "HEAD", "config", "config.worktree", "hooks"):
            landed = posixpath.join(dest.value, base)
            call.write(Word(landed, landed), f"{name} writes", replaces=True)


def _recursive_copy(words: list[Word]) -> bool:
    """cp(1): ``-R``, ``-r``, ``--recursive``, ``-a``/``--archive`` copy directories (a word only known when it runs
    may be one of them)."""
    for word in words:
        value = word.value
        if value is None:
            return True
        if value == "--":
            break
        if value in ("--recursive", "--archive") or (
            value.startswith("-") and not value.startswith("--") and any(ch in value[1:] for ch in "rRa")
        ):
            return True
    return False


def _preserves_modes(words: list[Word]) -> bool:
    """cp(1): ``-p``, ``-a``/``--archive``, ``--preserve`` (mode by default) keep the source's mode bits."""
    for word in words:
        value = word.value or ""
        if value == "--":
            break
        if (
            value in ("--archive",)
            or value.startswith("--preserve")
            and not value.startswith("--preserve=")
            or value.startswith("--preserve=")
            and ("mode" in value or "all" in value)
        ):
            return True
        if value.startswith("-") and not value.startswith("--") and ("p" in value[1:] or "a" in value[1:]):
            return True
    return False


def mv(call: Call) -> None:
    """mv(1): the destination is written; moving a workspace file out of the workspace deletes it there.

    A source that may name workspace files (an expansion, a glob, ``~``, a path from an unknown
    directory, a directory holding the workspace) moved anywhere but a known place inside the
    workspace is a deletion: ``mv "$f" /tmp``, ``mv $A $B``, ``xargs mv -t /tmp``. The destination
    is unknown when it is only known at run time, when an unknown word stands where ``-t DIR``
    could (bot/risk/README.md's "worst option" rule: ``mv "$f" b`` may be ``mv -t.. b``; ``mv -- "$f" b``
    is not), and when the operands may be several words (``xargs mv``).
    """
    injected(call, call.args, runs_programs=False)
    found = scan(call.args, "tS", _CP_LONG)
    operands = found.operands
    targets = found.values("-t", "--target-directory")
    option_unknown = first_dynamic(call.args) is not None
    dest: Word | None
    if targets:
        sources, dest = operands, targets[-1]
    elif len(operands) >= 2:
        sources, dest = operands[:-1], operands[-1]
    else:
        sources, dest = operands, None
    if option_unknown:
        sources = operands
    if dest is None and not option_unknown and all(w.value is not None for w in operands):
        read_only(call, "mv without a destination writes nothing.")
        return
    if dest is not None:
        call.write(dest, "mv writes", replaces=True)
        if not option_unknown:
            _copied_names(call, sources, dest, "mv")
    dest_inside = dest is not None and not option_unknown and call.where(dest) is Where.WORKSPACE
    state = call.g.state
    for source in sources:
        if not dest_inside and may_be_in_workspace(source, state):
            where = "an unknown place" if dest is None or option_unknown else show(dest)
            deletion(call, f"mv may take {show(source)} out of the workspace to {where} (a deletion there).")
        elif call.where(source) in (Where.OUTSIDE, Where.GIT_CONTROL, Where.DEVICE):
            call.write(source, "mv removes", replaces=True)


def install(call: Call) -> None:
    """install(1): the destination is written; ``-d`` creates every operand; ``--strip-program`` runs a program.
    ``-s``/``--strip`` ("strip symbol tables") takes no value and is not an abbreviation of ``--strip-program``."""
    found = scan(
        call.args,
        "tmogS",
        frozenset({"--target-directory", "--mode", "--owner", "--group", "--suffix", "--strip-program"}),
        long_flags=frozenset({"--strip"}),
    )
    if injected(call, call.args, runs_programs=True):
        return
    if found.has("--strip-program"):
        destructive(call, "runs-program", "install --strip-program runs a program of the caller's choosing.")
        return
    for mode in found.values("-m", "--mode"):
        if mode.value is None or sets_setid(mode.value):
            host_destructive(
                call,
                "setuid",
                f"install -m {show(mode)} may set the setuid/setgid bit: the program then runs as its owner.",
            )
    if found.has("-d", "--directory"):
        _write_all(call, found.operands, "install -d creates")
        return
    cp_like = found.values("-t", "--target-directory")
    dest = cp_like[-1] if cp_like else (found.operands[-1] if len(found.operands) >= 2 else None)
    if dest is None:
        read_only(call, "install without a destination writes nothing.")
        return
    call.write(dest, "install writes", replaces=True)
    if not cp_like and [w.value for w in found.operands[:-1]] == ["/dev/null"]:
        call.g.empties(call.rec, call.scope, dest, "install /dev/null empties")  # as cp /dev/null does


def ln(call: Call) -> None:
    """ln(1): the link is written; a link pointing outside the workspace is a write outside
    (later writes through it land there, and lexical path checks cannot see that). ``ln -f /dev/null FILE``
    replaces FILE by a link that reads as empty: its content is lost (grader.empties)."""
    found = scan(call.args, "tS", frozenset({"--target-directory", "--suffix"}))
    injected(call, call.args, runs_programs=False)
    targets = found.values("-t", "--target-directory")
    operands = found.operands
    force = found.has("-f", "--force")  # ln(1): -f removes existing destination files
    if targets:
        link_dir: Word | None = targets[-1]
        pointed = operands
        call.write(targets[-1], "ln creates links in", replaces=force)
    elif len(operands) >= 2:
        link_dir = None
        pointed = operands[:-1]
        call.write(operands[-1], "ln creates", replaces=force)
        if force and [w.value for w in pointed] == ["/dev/null"]:
            call.g.empties(call.rec, call.scope, operands[-1], "ln -sf /dev/null replaces")  # reads as empty after
    elif operands:
        link_dir = None
        pointed = operands
        name = posixpath.basename(operands[0].value.rstrip("/")) if operands[0].value else None
        call.write(literal_word(name) if name else operands[0], "ln creates", replaces=force)
    else:
        read_only(call, "ln without operands writes nothing.")
        return
    for target in pointed:
        base = link_dir
        if base is None and len(operands) >= 2 and operands[-1].value is not None:
            base = literal_word(posixpath.dirname(operands[-1].value) or ".")
        if call.where(target, cwd=base) not in (Where.WORKSPACE, Where.TEMP, Where.NOWHERE):
            # making the link changes nothing there; a later write through it does, and a tool's own output
            # (a build writing dist/ or target/) goes through it unseen
            call.write(target, "ln makes a link that later writes (a build's output too) follow to")


#: Devices whose content replaces a file's: zeros or random bytes (null(4), random(4)).
_DD_FILLERS = frozenset({"/dev/zero", "/dev/urandom", "/dev/random"})


def _dd_filler(args: list[Word]) -> str | None:
    """The input of ``dd args...`` when it only destroys ``of=``'s content: zeros or random bytes
    (:data:`_DD_FILLERS`), even with ``conv=notrunc``, or ``/dev/null`` without it (dd(1): the output is truncated,
    nothing copied); None otherwise."""
    values = [w.value for w in args if w.value is not None]
    inputs = [v[3:] for v in values if v.startswith("if=")]
    if not inputs:
        return None
    if inputs[-1] in _DD_FILLERS:
        return inputs[-1]
    notrunc = any(v.startswith("conv=") and "notrunc" in v[5:].split(",") for v in values)
    return inputs[-1] if inputs[-1] == "/dev/null" and not notrunc else None


def dd(call: Call) -> None:
    """dd(1): ``of=FILE`` is written; a dynamic operand might be one. Zeros, random bytes or nothing copied over
    it (:func:`_dd_filler`) lose its content (grader.empties)."""
    wrote = False
    for word in call.args:
        value = word.value
        if value is None:
            call.write(word, "dd may write")
            wrote = True
        elif value.startswith("of="):
            target = value[3:]
            call.write(Word(target, target), "dd writes", replaces=True)
            source = _dd_filler(call.args)
            if source is not None:
                call.g.empties(call.rec, call.scope, Word(target, target), f"dd if={source} overwrites")
            wrote = True
    if not wrote:
        read_only(call, "dd without of= writes to standard output.")


def tee(call: Call) -> None:
    """tee(1): every FILE operand is written (replaced, unless ``-a``/``--append``); reading nothing (``/dev/null``
    on its standard input, or a pipe from a command that prints nothing: ``true | tee f``) each is emptied
    (grader.empties)."""
    found = scan(call.args, "", frozenset())
    append = found.has("-a", "--append")
    _write_all(call, found.operands, "tee writes", replaces=not append)
    if call.rec.null_stdin and not append:
        for word in found.operands:
            call.g.empties(call.rec, call.scope, word, "tee reading nothing empties")


def sponge(call: Call) -> None:
    """sponge(1) (moreutils 0.69): "reads standard input and writes it out to the specified file" (replaced, unless
    ``-a`` appends), after it has read all of it; without a file it prints. Reading nothing (``/dev/null`` on its
    standard input, ``true | sponge f``) the file is emptied (grader.empties), as ``tee < /dev/null`` empties it."""
    found = scan(call.args, "", frozenset())
    append = found.has("-a")
    if not found.operands:
        read_only(call, "sponge without a file prints its input.")
        return
    _write_all(call, found.operands, "sponge writes", replaces=not append)
    if call.rec.null_stdin and not append:
        for word in found.operands:
            call.g.empties(call.rec, call.scope, word, "sponge reading nothing empties")


#: truncate(1) SIZE values meaning 0 bytes: an absolute 0 (or "<0", at most 0) with an optional unit suffix.
_ZERO_SIZE = re.compile(r"<?0+(?:[KMGTPEZYRQ](?:iB|B)?|kB|B)?")


def truncate(call: Call) -> None:
    """truncate(1): every FILE operand is changed; a size of 0 (``-s 0``, ``--size=0``, ``-s 0K``, ``-s '<0'``:
    "at most 0") empties them, a deletion of their content (grader.empties)."""
    found = scan(call.args, "sr", frozenset({"--size", "--reference"}))
    _write_all(call, found.operands, "truncate changes", replaces=True)
    sizes = found.values("-s", "--size")
    if sizes and _ZERO_SIZE.fullmatch(sizes[-1].value or "x") is not None:
        for word in found.operands:
            call.g.empties(call.rec, call.scope, word, "truncate -s 0 empties")


def mktemp(call: Call) -> None:
    """mktemp(1): creates a file in ``-p DIR``/``--tmpdir=DIR``, in the template's directory, or in $TMPDIR."""
    found = scan(call.args, "p", frozenset({"--suffix"}))
    if found.has("-u", "--dry-run"):
        read_only(call, "mktemp -u creates nothing.")
        return
    dirs = found.values("-p", "--tmpdir")
    template = found.operands[0] if found.operands else None
    if dirs:
        call.write(dirs[-1], "mktemp creates a file in")
    elif template is not None and (template.value is None or "/" in template.value) and not found.has("-t"):
        call.write(template, "mktemp creates")
    else:
        call.write(Word(None, "$TMPDIR", ""), "mktemp creates a file in")


def _reads_nothing(call: Call, inputs: list[Word]) -> bool:
    """True when a filter's ``inputs`` (its file operands; none or ``-``: standard input) are all ``/dev/null``
    or standard input that is ``/dev/null``: its output file is left empty."""
    if not inputs:
        return call.rec.null_stdin
    return all(w.value == "/dev/null" or (w.value == "-" and call.rec.null_stdin) for w in inputs)


def sort(call: Call) -> None:
    """sort(1): ``-o FILE`` is written, emptied when sort reads nothing (:func:`_reads_nothing`);
    ``--compress-program`` runs a program."""
    found = scan(
        call.args, "kStTo",
        frozenset({"--key", "--field-separator", "--buffer-size", "--temporary-directory", "--output",
                   "--files0-from", "--batch-size", "--parallel", "--random-source", "--compress-program", "--sort"}),
    )  # fmt: skip
    if injected(call, call.args, runs_programs=True):
        return
    if found.has("--compress-program"):
        destructive(call, "runs-program", "sort --compress-program runs a program of the caller's choosing.")
        return
    outputs = found.values("-o", "--output")
    if not outputs:
        read_only(call, "sort only prints.")
    for output in outputs:
        call.write(output, "sort -o writes", replaces=True)
        if _reads_nothing(call, found.operands):
            call.g.empties(call.rec, call.scope, output, "sort -o of nothing empties")


def uniq(call: Call) -> None:
    """uniq(1): a second operand is the OUTPUT file, emptied when the input is ``/dev/null`` (or ``-`` with
    ``/dev/null`` on standard input)."""
    found = scan(call.args, "fsw", frozenset({"--skip-fields", "--skip-chars", "--check-chars"}))
    if injected(call, call.args, runs_programs=False):
        return
    if len(found.operands) >= 2:
        call.write(found.operands[1], "uniq writes")
        if _reads_nothing(call, found.operands[:1]):
            call.g.empties(call.rec, call.scope, found.operands[1], "uniq of nothing empties")
    else:
        read_only(call, "uniq only prints.")


_XXD_VALUES = frozenset(
    {"-c", "-cols", "-g", "-groupsize", "-l", "-len", "-o", "-offset", "-s", "-seek", "-n", "-name", "-R"}
)


def xxd(call: Call) -> None:
    """xxd(1): ``xxd [options] [infile [outfile]]``: the outfile is written."""
    if injected(call, call.args, runs_programs=False):
        return
    operands: list[Word] = []
    skip = False
    for word in call.args:
        if skip:
            skip = False
        elif word.value is not None and word.value.startswith("-") and word.value != "-":
            skip = word.value in _XXD_VALUES
        else:
            operands.append(word)
    if len(operands) >= 2:
        call.write(operands[1], "xxd writes")
    else:
        read_only(call, "xxd only prints.")


def base64(call: Call) -> None:
    """base64(1) of macOS (BSD): ``-o output_file``/``--output=output_file`` is written (``-i input_file``,
    ``-b count`` take values; getopt_long accepts a unique prefix of a long option); GNU coreutils base64 has no
    ``-o`` (it fails there) and takes one FILE operand, so a second operand is graded as an output too."""
    if injected(call, call.args, runs_programs=False):
        return
    found = scan(
        call.args,
        "biow",
        frozenset({"--break", "--input", "--output", "--wrap"}),
        long_flags=frozenset({"--decode", "--ignore-garbage", "--help", "--version"}),
    )
    outputs = [value for value in found.values("-o", "--output") if value is not None]
    outputs += found.operands[1:]
    for output in outputs:
        if output.value != "-":
            call.write(output, "base64 writes its output to")
    if not outputs:
        read_only(call, "base64 only prints.")


def unzip(call: Call) -> None:
    """unzip(1): extracts into ``-d DIR`` or the cwd; ``-l``/``-t``/``-v``/``-Z``/``-p``/``-c`` only read; ``-:``
    lets member names escape with ``../`` (a write anywhere under ``/``); ``-K`` keeps setuid bits."""
    if injected(call, call.args, runs_programs=False):
        return
    dest: Word | None = None
    listing = False
    words = call.args
    for index, word in enumerate(words):
        value = word.value or ""
        if value.startswith("-") and not value.startswith("--"):
            letters = value[1:]
            if letters.startswith("Z") or (any(ch in letters for ch in "ltvpc") and "d" not in letters):
                listing = True
            if "d" in letters:
                attached = letters.split("d", 1)[1]
                dest = Word(attached, attached) if attached else (words[index + 1] if index + 1 < len(words) else None)
    if listing:
        read_only(call, "unzip only lists or prints.")
        return
    if any((w.value or "").startswith("-") and not (w.value or "").startswith("--") and "K" in (w.value or "")
           for w in words):  # fmt: skip
        # unzip(1) -K: keeps the members' setuid, setgid and sticky bits (stripped by default)
        host_destructive(
            call,
            "setuid",
            "unzip -K keeps the setuid and setgid bits: a member can be a program that runs as its owner.",
        )
    if any((w.value or "").startswith("-") and ":" in (w.value or "") for w in words):
        # unzip(1) -: keeps "../" in member names, so they escape the extraction directory (as tar -P)
        call.write(literal_word("/"), "unzip -: lets member names with ../ extract anywhere under")
    unpacks(call, dest or literal_word("."), "unzip extracts into")


def zip_(call: Call) -> None:
    """zip(1): the zipfile (first operand) is written; ``-m`` deletes the originals; ``-TT``/``--unzip-command``
    runs a program (also inside a cluster or attached, ``-qTTcmd``); ``-O``/``--output-file`` writes there. A
    zipfile ``-`` ("zip -r - . ... the zip file is written to standard output", zip(1) "USE": streaming) or an
    output sink (``/dev/stdout``) sends every file added to the model: a tree added with ``-r`` is graded as
    ``tar cf - DIR`` is (Grader.read_below ``printed``)."""
    if injected(call, call.args[1:], runs_programs=True):
        return
    zipfile: Word | None = None
    added: list[Word] = []  # the files it adds after the zipfile (and -x/-i patterns: judged alike)
    moves = False
    for word in call.args:
        value = word.value
        if value is None and zipfile is None:
            zipfile = word
        elif value is None:
            continue
        elif ("TT" in value and value.startswith("-") and not value.startswith("--")) or (
            value.startswith("--") and long_is(value, "--unzip-command")
        ):
            destructive(call, "runs-program", "zip -TT runs a program of the caller's choosing.")
            return
        elif value in ("-O", "--output-file") or value.startswith("--output-file="):
            position = call.args.index(word)
            target = (
                Word(value.split("=", 1)[1], value.split("=", 1)[1])
                if "=" in value
                else (call.args[position + 1] if position + 1 < len(call.args) else None)
            )
            if target is not None:
                call.write(target, "zip -O writes")
        elif value == "--move" or (value.startswith("-") and not value.startswith("--") and "m" in value):
            deletion(call, "zip -m deletes the files it adds.")
            moves = True
        elif (not value.startswith("-") or value == "-") and zipfile is None:
            zipfile = word
        elif not value.startswith("-"):
            added.append(word)
    if moves:
        for word in added:
            call.g.removes(call.rec, call.scope, word, "zip -m deletes")
    if any(
        w.value == "--names-stdin"
        or ((w.value or "").startswith("-") and not (w.value or "").startswith("--") and "@" in (w.value or ""))
        for w in call.args
    ):  # zip(1) -@: "Take the list of input files from standard input": any path, credential files too
        call.g.flag(
            call.rec, call.scope, R.NETWORK, "secret-read",
            "zip -@ adds the files its input names, which may be credential files: the content goes to the model.",
        )  # fmt: skip
    if zipfile is None:
        read_only(call, "zip without a zipfile writes to standard output.")
        return
    printed = zipfile.value == "-" or zipfile.value in OUTPUT_SINKS
    if printed:
        read_only(call, "zip writes the zip file to standard output.")
    else:
        call.write(zipfile, "zip writes")
    if printed or any(
        w.value in ("--recurse-paths", "--recurse-patterns")
        or ((w.value or "").startswith("-") and not (w.value or "").startswith("--") and set(w.value or "") & set("rR"))
        for w in call.args
    ):  # zip(1) -r: "Travel the directory structure recursively": every file below an added directory is read (to
        # standard output, a file it names, a glob among them, is printed: judged as a tree, fail closed)
        for word in added:
            call.g.read_below(call.rec, call.scope, "zip -r" if not printed else "zip", word, None, printed=printed)


_STDOUT_FLAGS = frozenset({"-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test"})


def compressor(call: Call) -> None:
    """gzip(1)/bzip2(1)/xz(1)/zstd(1): replace each FILE operand unless writing to stdout; ``--rm`` deletes."""
    if call.name.endswith("cat"):
        read_only(call, f"{call.name} only prints.")
        return
    found = scan(
        call.args, "So" if call.name.startswith(("zstd", "unzstd")) else "S", frozenset({"--suffix", "--output"})
    )
    if injected(call, call.args, runs_programs=False):
        return
    if found.has("--rm"):
        deletion(call, f"{call.name} --rm deletes the source files.")
        for word in found.operands:
            call.g.removes(call.rec, call.scope, word, f"{call.name} --rm deletes")
    outputs = found.values("-o", "--output")
    if outputs:
        for output in outputs:
            call.write(output, f"{call.name} writes")
        return
    if any(opt.name in _STDOUT_FLAGS for opt in found.opts) or not found.operands:
        read_only(call, f"{call.name} writes to standard output only.")
        return
    decompress = call.name in ("gunzip", "bunzip2", "unxz", "unzstd") or found.has("-d", "--decompress", "--uncompress")
    if decompress and found.has("-N", "--name"):
        # gzip(1) -N: the output file's name is the one stored in the compressed file (config, HEAD, .mcp.json)
        destructive(
            call, "git-control-write", f"{call.name} -N names its output files from their content: they may be git's or "
            "a coding agent's control files (config, HEAD, .mcp.json), which make programs run later.",
        )  # fmt: skip
    for word in found.operands:
        call.write(word, f"{call.name} replaces")
        written = _decompressed(word, found.values("-S", "--suffix")) if decompress else None
        if written is not None:
            call.write(written, f"{call.name} writes")


#: The suffixes each decompressor takes off (gzip(1), bzip2(1), xz(1), zstd(1)): ``x.tgz`` becomes ``x.tar``.
_SUFFIXES = (
    (".tgz", ".tar"), (".taz", ".tar"), (".tbz2", ".tar"), (".tbz", ".tar"), (".txz", ".tar"), (".tzst", ".tar"),
    (".gz", ""), (".z", ""), (".Z", ""), ("-gz", ""), ("-z", ""), ("_z", ""), (".bz2", ""), (".bz", ""),
    (".xz", ""), (".lzma", ""), (".lz", ""), (".zst", ""),
)  # fmt: skip


def _decompressed(word: Word, suffixes: list[Word]) -> Word | None:
    """The file a decompressor writes for the operand ``word`` (its name without the suffix, ``-S SUF`` too), or
    None when it is not known: it is graded as a write (``gunzip sub/config.gz`` writes ``sub/config``)."""
    value = word.value
    if not value or value == "-":
        return None
    pairs = [(w.value, "") for w in suffixes if w.value] + list(_SUFFIXES)
    for suffix, replacement in pairs:
        if value.endswith(suffix) and len(value) > len(suffix):
            out = value[: -len(suffix)] + replacement
            return Word(out, out)
    return None


def patch(call: Call) -> None:
    """patch(1): writes the files named by the diff, under ``-d DIR`` or the cwd; ``-E`` deletes emptied files."""
    found = scan(
        call.args, "BDdFgiopVYrz",
        frozenset({"--prefix", "--ifdef", "--directory", "--fuzz", "--get", "--input", "--output", "--strip",
                   "--version-control", "--basename-prefix", "--reject-file", "--suffix", "--quoting-style", "--reject-format"}),
        long_flags=frozenset({"--remove-empty-files", "--dry-run"}),
    )  # fmt: skip
    if injected(call, call.args, runs_programs=False):
        return
    if found.has("--dry-run"):
        read_only(call, "patch --dry-run changes nothing.")
        return
    if found.has("-E", "--remove-empty-files"):
        deletion(call, "patch -E deletes files the patch empties.")
    outputs = found.values("-o", "--output")
    dirs = found.values("-d", "--directory")
    base = dirs[-1] if dirs else None
    if outputs:
        call.write(outputs[-1], "patch writes", cwd=base)
    elif found.operands:
        call.write(found.operands[0], "patch changes", cwd=base)
    else:
        text = None if found.values("-i", "--input") else call.rec.stdin  # the patch, when the script holds it
        applies_patch(call, text, literal_word("."), "patch changes files under", label="patch", cwd=base)


def rg(call: Call) -> None:
    """rg(1) (ripgrep): read-only, except ``--pre COMMAND`` which runs a program per file."""
    if injected(call, call.args, runs_programs=True):
        return
    for word in call.args:
        if word.value is not None and long_is(word.value, "--pre") and not word.value.startswith("--pre-glob"):
            destructive(call, "runs-program", "rg --pre runs a program of the caller's choosing.")
            return
        if word.value == "--":
            break
    read_only(call, "rg only searches.")


# fd(1) short options that take a value (the value ends a cluster such as ``-tf``).
_FD_SHORT_VALUES = "dEteScjo"


def _fd_exec(value: str | None) -> str | None:
    """The attached command text when ``value`` is (or ends a cluster with) ``-x``/``-X``/``--exec*``, else None."""
    if value is None:
        return None
    if value.startswith("--"):
        name, _, attached = value.partition("=")
        return attached if name in ("--exec", "--exec-batch") else None
    if not value.startswith("-"):
        return None
    for position, letter in enumerate(value[1:]):
        if letter in "xX":
            return value[position + 2 :]
        if letter in _FD_SHORT_VALUES:
            return None
    return None


#: fd(1) long options that take a value (the next word unless attached with ``=``); ``--search-path`` and
#: ``--base-directory`` name where it searches.
_FD_LONG_VALUES = frozenset({
    "--extension", "--type", "--max-depth", "--min-depth", "--exact-depth", "--exclude", "--threads", "--size",
    "--changed-within", "--changed-before", "--change-newer-than", "--change-older-than", "--newer", "--older",
    "--owner", "--color", "--max-results", "--search-path", "--base-directory", "--path-separator", "--ignore-file",
    "--format", "--batch-size", "--max-buffer-time", "--and",
})  # fmt: skip


def _fd_roots(words: list[Word]) -> list[Word]:
    """Where fd(1) searches, from its words before ``-x``/``-X``: ``fd [OPTIONS] [PATTERN] [PATH...]``, the paths
    and each ``--search-path``/``--base-directory``; the current directory when none is given."""
    operands: list[Word] = []
    roots: list[Word] = []
    index = 0
    while index < len(words):
        word = words[index]
        value = word.value
        index += 1
        if value is None or not value.startswith("-") or value == "-":
            operands.append(word)
            continue
        if _fd_exec(value) is not None:
            break
        if value == "--":
            operands.extend(w for w in words[index:] if _fd_exec(w.value) is None)
            break
        if value.startswith("--"):
            name, equals, attached = value.partition("=")
            given = literal_word(attached) if equals else (words[index] if index < len(words) else None)
            if name in _FD_LONG_VALUES and not equals:
                index += 1
            if name in ("--search-path", "--base-directory") and given is not None:
                roots.append(given)
            continue
        for position, letter in enumerate(value[1:], start=2):
            if letter in _FD_SHORT_VALUES:
                index += 0 if position < len(value) else 1
                break
    return roots + operands[1:] or [literal_word(".")]


def fd(call: Call) -> None:
    """fd(1): read-only, except ``-x``/``-X``/``--exec``/``--exec-batch`` (also in a cluster, ``-Hx``)
    whose command is graded, and, as ``find -exec`` (Grader.reads_below), a secret read when it runs a program that
    prints files on every file below a directory that may hold a credential file (``fd . ~ -X cat``)."""
    words = call.args
    for index, word in enumerate(words):
        attached = _fd_exec(word.value)
        if attached is not None:
            command = ([Word(attached, attached)] if attached else []) + words[index + 1 :]
            if any(w.value == ";" for w in command):
                command = command[: [w.value for w in command].index(";")]
            if not command:
                refuse(call, "an empty --exec command")
                return
            call.child(command + [Word(None, "{}")], call.name)
            roots = _fd_roots(words[:index])
            # fd(1) skips hidden files and directories unless -H/--hidden or -u/--unrestricted: then it enters .git
            hidden = any(
                w.value in ("--hidden", "--unrestricted")
                or (
                    w.value is not None
                    and w.value.startswith("-")
                    and not w.value.startswith("--")
                    and ("H" in w.value or "u" in w.value)
                )
                for w in words[:index]
            )
            # fd(1) matches its pattern against each name and honours .gitignore: neither is followed (fail closed)
            secret = call.g.reads_below(roots, command, git_directory=hidden, hidden=hidden)
            if secret is not None:
                call.flag(
                    R.NETWORK,
                    "secret-read",
                    f"{call.name} runs {show(command[0])} on every file below {', '.join(show(w) for w in roots)}, "
                    f"which may hold {secret}: the command's output goes to the model.",
                )
            return
    read_only(call, f"{call.name} only searches.")


def tree(call: Call) -> None:
    """tree(1): read-only, except ``-o FILE`` which writes the listing. ``--fromfile`` takes no value (tree(1):
    "Reads paths from files"; the operands are those files), so the word after it is still read as an option."""
    found = scan(
        call.args,
        "oLPIH",
        frozenset({"--filelimit", "--timefmt", "--charset", "--sort"}),
        long_flags=frozenset({"--fromfile"}),
    )
    if injected(call, call.args, runs_programs=False):
        return
    outputs = found.values("-o")
    if not outputs:
        read_only(call, "tree only prints.")
    for output in outputs:
        call.write(output, "tree -o writes")


def yq(call: Call) -> None:
    """yq (mikefarah/yq docs): read-only, except ``-i``/``--inplace`` which rewrites the file operands.
    ``-P``/``--prettyPrint`` takes no value (yq's flags: "pretty print"), so a ``-i`` after it is still seen."""
    found = scan(
        call.args,
        "Imop",
        frozenset({"--indent", "--output-format", "--input-format", "--expression"}),
        long_flags=frozenset({"--prettyPrint", "--inplace"}),
    )
    if injected(call, call.args, runs_programs=False):
        return
    if found.has("-i", "--inplace"):
        _write_all(call, found.operands[1:] if len(found.operands) > 1 else found.operands, "yq -i rewrites")
        return
    if found.has("-s", "--split-exp") or any(o.name.startswith("--split-exp") for o in found.opts):
        call.write(Word(None, "--split-exp"), "yq --split-exp writes files named by the data to")
        return
    read_only(call, "yq only prints.")
