"""Pagers, viewers and reading tools with an option that runs a program or writes a file.

They are read-only otherwise. Each rule names its manual page:

* man (man-db man(1)): ``-P``/``--pager`` and ``-H``/``--html[=BROWSER]`` run a program of the
  caller's choosing, ``-X``/``--gxditview`` runs a viewer, ``-C``/``--config-file`` loads a man-db
  configuration (it defines the pager and formatters), ``-r``/``--prompt`` is copied into the
  pager's ``LESS`` options: destructive.
* less (less(1), OPTIONS and COMMANDS): a ``+cmd`` argument runs less commands at start-up
  (``!cmd`` runs a shell command, ``|``, ``v``, ``s``...) and ``-+`` resets options: destructive, except the
  moves ``+G``, ``+g``, ``+F`` and ``+NUM`` (with ``g``/``G``);
  so is ``-k``/``--lesskey-file``/``--lesskey-src``/``--lesskey-content`` (a lesskey file's ``#env``
  section sets ``LESSOPEN``). ``-o``/``-O``/``--log-file``/``--LOG-FILE`` write the log file.
* more (util-linux more(1)): ``+NUM`` is a line number; any other ``+`` argument is refused (macOS
  and BusyBox ``more`` are less, where ``+cmd`` runs commands).
* shuf (coreutils): ``-o``/``--output`` writes. ptx (coreutils): with ``-G``, a second operand is the
  OUTPUT file. diff3 (GNU diffutils): ``--diff-program`` runs a program. ss (iproute2 ss(8)):
  ``-K``/``--kill`` closes other processes' sockets (system), ``-D``/``--diag=FILE`` writes.
  file(1): ``-C``/``--compile`` writes ``MAGIC.mgc`` into the current directory.
* bash builtins (bash(1) SHELL BUILTIN COMMANDS): ``history -a|-w [FILE]`` writes FILE (else
  ``$HISTFILE``); ``jobs -x COMMAND`` runs COMMAND.

* ffmpeg, ffprobe, ffplay (FFmpeg Formats Documentation, "Demuxers"): the concat demuxer's ``-safe 0`` lets the
  list file (``-f concat -i list.txt``, a file the agent can write) name any path, absolute or with ``..`` ("If set
  to 1, reject unsafe file paths ... relative and all components only contain characters from the portable
  character set"), so ``~/.ssh/id_rsa`` too: the list is read where it lies in the workspace (settings.py
  ``concat``), a file it names outside the workspace is read there, a credential's content a ``secret-read``
  (network), and a list FlyBot cannot read (outside the workspace, only known when it runs) or an entry it cannot
  place (a protocol, an ``option`` directive) is destructive, and so is a list the command writes (or links it
  makes) before ffmpeg runs. The hls demuxer's ``-allowed_extensions`` with an
  extension outside its default media list (``ALL``) lets a playlist (``.m3u8``) name any file: ``secret-read``
  (network), since what the playlist names is only known when it runs. ``-protocol_whitelist`` naming a protocol other than
  ``file``, ``crypto``, ``data`` or ``pipe`` lets the list's entries fetch URLs: network. The defaults (``-safe 1``,
  the hls media extensions) keep the program's grade.

A word only known at run time where an option could stand is that program's worst option.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from bot.risk.grader import Call, Handler
from bot.risk.model import RiskLevel
from bot.risk.options import long_is, scan
from bot.risk.words import Word, literal_word

from .kit import destructive, first_dynamic, injected, network, read_only, show

__all__ = [
    "diff3", "asciidoctor_includes", "ffmpeg_lists", "file_", "groff_includes", "history", "jobs", "less", "man", "more", "pandoc_includes",
    "ptx", "shuf", "ss",
]  # fmt: skip

R = RiskLevel

# man(1) short options taking a value; the ones whose value (or use) runs a program.
_MAN_SHORT_VALUES = "CRLmMSsepPrE"
_MAN_RUNS_SHORT = "PCHXr"
_MAN_RUNS_LONG = ("--pager", "--config-file", "--html", "--gxditview", "--prompt")


def man(call: Call) -> None:
    """man(1): see the module docstring."""
    if injected(call, call.args, runs_programs=True):
        return
    for word in call.args:
        value = word.value or ""
        if value == "--":
            break
        if value.startswith("--"):
            name = value.split("=", 1)[0]
            if any(long_is(name, option) for option in _MAN_RUNS_LONG):
                destructive(
                    call,
                    "runs-program",
                    f"man {name} runs a program of the caller's choosing (pager, browser or config).",
                )
                return
        elif value.startswith("-"):
            for letter in value[1:]:
                if letter in _MAN_RUNS_SHORT:
                    destructive(
                        call,
                        "runs-program",
                        f"man -{letter} runs a program of the caller's choosing (pager, browser or config).",
                    )
                    return
                if letter in _MAN_SHORT_VALUES or letter in "TZ":
                    break
    if _man_local_file(call):
        call.g.flag(
            call.rec, call.scope, R.NETWORK, "secret-read",
            "man formats a local page file, whose .so requests may name any file (~/.ssh/id_rsa): its contents end "
            "in the output the model sees (groff(7)).",
        )  # fmt: skip
        return
    read_only(call, "man only shows manual pages.")


def _man_local_file(call: Call) -> bool:
    """man(1) (man-db 2.12) ``-l``/``--local-file`` ("interpret PAGE argument(s) as local filename(s)"), and "a
    name containing a slash is taken as a file name": a page the caller wrote, which groff formats with its ``.so``
    requests (:func:`groff_includes`). A page name only known when it runs may be such a file. So is a page found
    in the manual path ``-M``/``--manpath`` names ("Specify an alternate manpath to use"): any directory, the
    workspace's included, where the caller may have written it."""
    skip = False
    for word in call.args:
        value = word.value
        if skip:
            skip = False
            continue
        if value is None:
            return True
        if value == "--":
            continue
        if value.startswith("--"):
            if long_is(value.split("=", 1)[0], "--local-file") or long_is(value.split("=", 1)[0], "--manpath"):
                return True
            continue
        if value.startswith("-") and value != "-":
            for at, letter in enumerate(value[1:], 1):
                if letter in "lM":
                    return True
                if letter in _MAN_SHORT_VALUES:
                    skip = at == len(value) - 1
                    break
            continue
        if "/" in value:
            return True
    return False


_LESS_SHORT_VALUES = 'bhjkoOpPtTxyz"#'
_LESS_KEYFILES = ("--lesskey-file", "--lesskey-src", "--lesskey-content")
_LESS_LOGS = ("--log-file", "--LOG-FILE")


#: less(1) start-up commands that only move in the file: ``+G`` (the end), ``+g`` (the start), ``+F`` (follow,
#: as ``tail -f``), each with an optional line number (``+100g``), and ``+<number>`` ("acts like +<number>g").
_LESS_MOVES = re.compile(r"\+[0-9]*[GgF]|\+[0-9]+")


def less(call: Call) -> None:
    """less(1): ``+cmd`` other than a move (:data:`_LESS_MOVES`), ``-+`` and lesskey files are destructive; log
    files are writes."""
    _pager(call, allow=lambda text: _LESS_MOVES.fullmatch(text) is not None)


def more(call: Call) -> None:
    """more(1): ``+NUM`` only; other ``+`` arguments as for less."""
    _pager(call, allow=lambda text: text[1:].isdigit())


def _pager(call: Call, allow: Callable[[str], bool]) -> None:
    if injected(call, call.args, runs_programs=True):
        return
    words = call.args
    index = 0
    wrote = False
    while index < len(words):
        value = words[index].value or ""
        index += 1
        if value == "--":
            break
        if value.startswith("+") and not allow(value):
            destructive(
                call,
                "runs-program",
                f"{call.name} {show(words[index - 1])} runs {call.name} commands at start-up (! runs a shell command).",
            )
            return
        if value.startswith("-+"):
            destructive(call, "runs-program", f"{call.name} -+ changes options the way a start-up command does.")
            return
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            if any(long_is(name, option) for option in _LESS_KEYFILES):
                destructive(
                    call,
                    "runs-program",
                    f"{call.name} {name} loads key bindings and environment (LESSOPEN) from a file.",
                )
                return
            if name in _LESS_LOGS or any(long_is(name, option) for option in _LESS_LOGS):
                target = Word(attached, attached) if eq else (words[index] if index < len(words) else None)
                index += 0 if eq else 1
                if target is not None:
                    call.write(target, f"{call.name} {name} writes")
                    wrote = True
            continue
        if value.startswith("-"):
            letters = value[1:]
            for position, letter in enumerate(letters):
                if letter not in _LESS_SHORT_VALUES:
                    continue
                rest = letters[position + 1 :]
                target = Word(rest, rest) if rest else (words[index] if index < len(words) else None)
                index += 0 if rest else 1
                if letter == "k":
                    destructive(
                        call,
                        "runs-program",
                        f"{call.name} -k loads key bindings and environment (LESSOPEN) from a file.",
                    )
                    return
                if letter in "oO" and target is not None:
                    call.write(target, f"{call.name} -{letter} writes")
                    wrote = True
                break
    if not wrote:
        read_only(call, f"{call.name} only shows files.")


def shuf(call: Call) -> None:
    """shuf(1): ``-o``/``--output FILE`` writes FILE. ``-e``/``--echo`` ("treat each ARG as an input line") takes
    no value: the word after it is still read as an option (``shuf -e -o FILE ARG``)."""
    if injected(call, call.args, runs_programs=False):
        return
    found = scan(
        call.args,
        "ino",
        frozenset({"--output", "--head-count", "--input-range", "--random-source"}),
        long_flags=frozenset({"--echo", "--repeat", "--zero-terminated", "--help", "--version"}),
    )
    outputs = found.values("-o", "--output")
    for output in outputs:
        call.write(output, "shuf -o writes")
        if call.rec.null_stdin and not found.operands and not found.has("-e", "--echo", "-i", "--input-range"):
            call.g.empties(call.rec, call.scope, output, "shuf -o of nothing empties")
    if not outputs:
        read_only(call, "shuf only prints.")


def ptx(call: Call) -> None:
    """ptx(1): with ``-G``/``--traditional`` the second operand is the OUTPUT file."""
    if injected(call, call.args, runs_programs=False):
        return
    found = scan(
        call.args, "bFgioSwWM",
        frozenset({"--break-file", "--flag-truncation", "--gap-size", "--ignore-file", "--only-file", "--sentence-regexp",
                   "--width", "--word-regexp", "--macro-name"}),
        long_flags=frozenset({"--traditional"}),
    )  # fmt: skip
    if found.has("-G", "--traditional") and len(found.operands) >= 2:
        call.write(found.operands[1], "ptx -G writes")
        return
    read_only(call, "ptx only prints.")


def diff3(call: Call) -> None:
    """diff3(1): ``--diff-program=PROGRAM`` runs PROGRAM."""
    if injected(call, call.args, runs_programs=True):
        return
    for word in call.args:
        value = word.value or ""
        if value == "--":
            break
        if value.startswith("--") and long_is(value, "--diff-program"):
            destructive(call, "runs-program", "diff3 --diff-program runs a program of the caller's choosing.")
            return
    read_only(call, "diff3 only compares.")


def ss(call: Call) -> None:
    """ss(8): ``-K``/``--kill`` closes sockets of other processes; ``-D``/``--diag FILE`` writes FILE."""
    if injected(call, call.args, runs_programs=False):
        return
    found = scan(
        call.args,
        "DFNAf",
        frozenset({"--diag", "--filter", "--net", "--query", "--family"}),
        long_flags=frozenset({"--kill"}),
    )
    if found.has("-K", "--kill"):
        call.flag(R.SYSTEM, "system-command", "ss -K closes other processes' sockets.")
    for target in found.values("-D", "--diag"):
        call.write(target, "ss -D writes")
    if not found.has("-K", "--kill", "-D", "--diag"):
        read_only(call, "ss only lists sockets.")


def file_(call: Call) -> None:
    """file(1): ``-C``/``--compile`` writes the compiled magic file into the current directory."""
    if injected(call, call.args, runs_programs=False):
        return
    found = scan(
        call.args, "efFmP", frozenset({"--exclude", "--files-from", "--separator", "--magic-file", "--parameter"})
    )
    if found.has("-C", "--compile"):
        call.write(literal_word("."), "file -C writes a .mgc file into")
        return
    read_only(call, "file only reads.")


def history(call: Call) -> None:
    """bash ``history``: ``-a``/``-w [FILE]`` write FILE (or ``$HISTFILE``, outside the workspace); ``-r``/``-n``
    read it into the list, which ``history`` then prints. bash(1) ``history``: with no FILE "the value of HISTFILE
    is used", so a ``HISTFILE`` the script assigned is the file written (``-w`` overwrites it) or read."""
    words = call.args
    options = [w.value or "" for w in words if (w.value or "").startswith("-") and w.value != "-"]
    operands = [w for w in words if not (w.value or "").startswith("-") and w.value is not None]
    histfiles = _assigned_histfile(call) if not operands else None
    if first_dynamic(words) is not None or any(("a" in o or "w" in o) for o in options):
        if histfiles is not None:
            for histfile in histfiles:
                if histfile.value is None:
                    call.flag(
                        RiskLevel.DESTRUCTIVE,
                        "unknown-write-target",
                        "history -a/-w writes $HISTFILE, which the script set to a path only known when it runs.",
                        downgradable=True,
                    )
                    continue
                call.write(histfile, "history -a/-w writes", replaces=any("w" in o for o in options))
            return
        call.write(operands[0] if operands else Word(None, "$HISTFILE"), "history -a/-w writes")
        return
    if histfiles is not None and any(("r" in o or "n" in o) for o in options):
        from bot.risk.sensitive import credential_path

        for histfile in histfiles:
            what = credential_path(histfile.value) if histfile.value is not None else "a file only known when it runs"
            if what is not None:
                call.flag(
                    RiskLevel.NETWORK,
                    "secret-read",
                    f"history -r reads $HISTFILE ({show(histfile)}), which holds {what}, into the list it prints.",
                )
                return
    read_only(call, "history only lists or edits the shell's history list.")


def _assigned_histfile(call: Call) -> list[Word] | None:
    """The files ``HISTFILE`` may name when the script assigned it (a word only known when it runs if its value is
    not), or None when the script did not assign it (the shell's own, outside the workspace)."""
    if "HISTFILE" not in call.g.assigned:
        return None
    known = call.g.read_values().get("HISTFILE")
    if not known:
        return [Word(None, "$HISTFILE")]
    return [Word(value, value) for value in known]


def jobs(call: Call) -> None:
    """bash ``jobs``: ``jobs -x COMMAND [ARGS]`` runs COMMAND (jobspecs replaced by process group IDs)."""
    words = call.args
    index = 0
    execute = False
    while index < len(words):
        value = words[index].value
        if value is None or not value.startswith("-") or value == "-":
            break
        index += 1
        if value == "--":
            break
        execute = execute or "x" in value
    if index < len(words) and words[index].value is None and not execute:
        destructive(call, "dynamic-argument", "A jobs option only known when it runs may be -x, which runs a command.")
        return
    if execute:
        rest = words[index:]
        if rest:
            call.run(rest, "jobs -x", child_process=False)
        else:
            read_only(call, "jobs -x without a command runs nothing.")
        return
    read_only(call, "jobs only lists jobs.")


#: The hls demuxer's default ``allowed_extensions`` (FFmpeg Formats Documentation, "hls"; libavformat/hls.c).
_HLS_EXTENSIONS = frozenset(
    "3gp aac avi ac3 eac3 flac mkv m3u8 m4a m4s m4v mpg mov mp2 mp3 mp4 mpeg mpegts ogg ogv oga ts vob wav".split()
)
#: Protocols that only read this machine's files or inline data (FFmpeg Protocols Documentation).
_LOCAL_PROTOCOLS = frozenset({"file", "crypto", "data", "pipe"})


def _inputs(call: Call) -> list[tuple[Word, bool]]:
    """The inputs of an ffmpeg, ffprobe or ffplay call, each with whether ``-f concat`` reads it as a concat list
    (ffmpeg(1): "-f fmt (input/output) Force input or output file format", for the next ``-i``); ffprobe and ffplay
    also take their input as the last operand."""
    words = call.args
    found: list[tuple[Word, bool]] = []
    form: str | None = None
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else None
        if word.value == "-f" and following is not None:
            form = following.value
        elif word.value == "-i" and following is not None:
            found.append((following, form == "concat"))
            form = None
    if not found and call.name in ("ffprobe", "ffplay") and words:
        last, before = words[-1], words[-2].value if len(words) > 1 else None
        if (last.value is None or not last.value.startswith("-")) and before not in ("-f", "-safe"):
            found.append((last, form == "concat"))
    return found


def _unsafe_lists(call: Call, value: str | None) -> None:
    """``-safe`` other than 1 (FFmpeg Formats Documentation, "concat": "safe: If set to 0, any file name is
    accepted"): each input that is a concat list (``-f concat``, or a file starting ``ffconcat version``, which the
    demuxer probes) is read where it lies in the workspace, as the recipe book answers it (settings.py ``concat``,
    ``ffconcat``: the adapter reads it and sends what it names): a file named outside the workspace is read there,
    a credential's content too (secret-read: the output reaches the model); an entry FlyBot cannot place, or a list
    it cannot read (outside the workspace, only known when it runs, standard input), is destructive."""
    from bot.risk.sensitive import credential_path, env_file, may_hold_credential, named_secret
    from bot.risk.settings import CONCAT, FFCONCAT

    from .projects import settings_lines

    label = f"{call.name} -safe {value if value is not None else '?'}"
    if value is None:  # only known when it runs: it may be 0, and more words (another input) too
        destructive(call, "dynamic-argument", f"{label}: the value is only known when it runs.")
        return
    inputs = _inputs(call)
    if not inputs:
        destructive(call, "dynamic-argument", f"{label}: the concat list it reads could not be told from its words.")
        return
    for word, forced in inputs:
        path = word.value
        if path is None or path == "-" or re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", path) or len(path) > 180:
            destructive(
                call,
                "dynamic-argument",
                f"{label}: the list {show(word)} is only known when it runs (or is not a file FlyBot reads); it may "
                "name any file (~/.ssh/id_rsa).",
            )
            return
        written = sorted(
            w
            for cwd in call.g.state.cwds
            for w in call.g.written_before
            if (full := posixpath.normpath(posixpath.join(cwd, path))) == w or full.startswith(w.rstrip("/") + "/")
        )
        if written or call.g.links_made:  # the list FlyBot would read is not the one ffmpeg reads
            destructive(
                call,
                "recipe-rewritten",
                f"{label}: this command writes {show(word)} (or makes links) before it runs, so the list it reads "
                "is not the one FlyBot read.",
            )
            return
        lines = settings_lines(call, "ffmpeg", label, (CONCAT if forced else FFCONCAT) + path, required=True)
        if lines is None:
            return  # could not be read: destructive (recipe-unreadable)
        for line in lines:
            entry = line.command
            if not entry.startswith("file "):
                destructive(call, "dynamic-argument", f"{label}: {line.source} names {entry[len('unknown ') :]}.")
                return
            named = entry[len("file ") :]
            what = credential_path(named) or may_hold_credential(named) or env_file(named) or named_secret(named)
            if what is not None:
                call.g.flag(
                    call.rec, call.scope, R.NETWORK, "secret-read",
                    f"{label}: {line.source} names {named}, which holds {what}; {call.name} reads it into output the "
                    "model sees.",
                )  # fmt: skip
            else:
                call.g.flag(
                    call.rec, call.scope, R.READ_ONLY, "read-only",
                    f"{label}: {line.source} names {named}, outside the workspace; {call.name} reads it.",
                )  # fmt: skip


#: ffmpeg-filters(1): filter options naming a file the filter writes: metadata/ametadata ``file`` ("Set file to
#: print metadata to"), psnr/ssim/xpsnr ``stats_file`` (``f``), libvmaf ``log_path``, signature ``filename``,
#: vidstabdetect ``result``; and filters loading a shared library: ladspa ``file`` ("Specifies the name of LADSPA
#: plugin library to load"; a name with "/" is that path), frei0r ``filter_name`` (likewise).
_FILTER_WRITES = re.compile(r"(?:^|[:,;=\[\]\s'\"])(file|stats_file|log_path|filename|result)\s*=\s*([^:,;\[\]'\"\s]+)")
_FILTER_STATS = re.compile(r"\b(?:psnr|ssim|xpsnr)\s*=\s*(?:[^,;\[\]]*:)?f\s*=\s*([^:,;\[\]'\"\s]+)")
_FILTER_LIBRARY = re.compile(r"\b(?:ladspa|frei0r|lv2)\b")
#: ffmpeg options whose value is a filtergraph (ffmpeg(1) "Filtering": -vf, -af, -filter[:stream], -filter_complex,
#: -lavfi).
_FFMPEG_FILTERS = ("-vf", "-af", "-filter", "-filter_complex", "-lavfi")


def _ffmpeg_filters(call: Call, words: list[Word]) -> None:
    """Files a filtergraph writes (graded where they land) and libraries it loads (destructive)."""
    lavfi = any(
        word.value == "-f" and index + 1 < len(words) and words[index + 1].value == "lavfi"
        for index, word in enumerate(words)
    )
    for index, word in enumerate(words[:-1]):
        name = word.value or ""
        # ffmpeg-devices(1) "lavfi": with -f lavfi an input is a filtergraph too
        if not (name in _FFMPEG_FILTERS or name.startswith("-filter:") or (lavfi and name == "-i")):
            continue
        graph = words[index + 1].value
        if graph is None:
            destructive(call, "dynamic-argument", f"{call.name} {name}: the filtergraph is only known when it runs.")
            return
        if _FILTER_LIBRARY.search(graph):
            destructive(
                call,
                "runs-program",
                f"{call.name} {name}: the filtergraph loads a plugin library (ladspa, frei0r, lv2): code FlyBot "
                "does not see.",
            )
            return
        targets = [m.group(2) for m in _FILTER_WRITES.finditer(graph)]
        targets += [m.group(1) for m in _FILTER_STATS.finditer(graph)]
        for target in targets:
            call.write(literal_word(target), f"{call.name} {name} writes")


def ffmpeg_lists(base: Handler) -> Handler:
    """ffmpeg, ffprobe, ffplay: inputs that read what a list or playlist names (the module docstring), and files a
    filtergraph writes or libraries it loads (:func:`_ffmpeg_filters`)."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        _ffmpeg_filters(call, words)
        for index, word in enumerate(words):
            if word.value not in ("-safe", "-allowed_extensions", "-protocol_whitelist"):
                continue
            value = words[index + 1].value if index + 1 < len(words) else None
            if word.value == "-safe" and value not in ("1", "true"):
                _unsafe_lists(call, value)
                return
            if word.value == "-allowed_extensions" and (
                value is None or not set(value.lower().split(",")) <= _HLS_EXTENSIONS
            ):
                call.g.flag(
                    call.rec, call.scope, R.NETWORK, "secret-read",
                    f"{call.name} -allowed_extensions {value if value is not None else '?'}: the playlist may name "
                    "any file (~/.ssh/id_rsa), read into the output the model sees.",
                )  # fmt: skip
                return
            if word.value == "-protocol_whitelist" and (value is None or not set(value.split(",")) <= _LOCAL_PROTOCOLS):
                network(call, f"{call.name} -protocol_whitelist lets the list or playlist fetch URLs it names.")

    handler.__name__ = "ffmpeg_lists"
    return handler


#: pandoc(1) "A note on security" (pandoc 3.5), 2: "Several input formats (including LaTeX, Org, RST, and Typst)
#: support include directives that allow the contents of a file to be included in the output", and 4: reading HTML,
#: "pandoc will attempt to include the contents of iframe elements by fetching content from the local file"; 3:
#: "Several output formats (including RTF, FB2, HTML with --self-contained, EPUB, Docx, and ODT) will embed encoded
#: or raw images into the output file ... to view the contents of non-image files". ``--sandbox`` protects against
#: both ("limiting IO operations in readers and writers to reading the files specified on the command line"), but
#: "does not limit IO operations ... in the production of PDF documents" (the LaTeX engine reads what ``\input``
#: names).
_PANDOC_INCLUDING = frozenset({"latex", "org", "rst", "typst", "html", "html4", "html5"})
_PANDOC_INCLUDING_EXT = {".tex": "latex", ".latex": "latex", ".ltx": "latex", ".org": "org", ".rst": "rst",
                         ".typ": "typst", ".html": "html", ".htm": "html", ".xhtml": "html"}  # fmt: skip
_PANDOC_EMBEDDING = frozenset({"rtf", "fb2", "epub", "epub2", "epub3", "docx", "odt", "pptx"})
_PANDOC_EXT = {".rtf": "rtf", ".fb2": "fb2", ".epub": "epub", ".docx": "docx", ".odt": "odt", ".pptx": "pptx",
               ".pdf": "pdf", ".html": "html", ".htm": "html"}  # fmt: skip
#: pandoc's options taking a value (pandoc(1), the catalogue entry), so the value is not read as an input file.
_PANDOC_VALUES = frozenset(
    "-o --output -f --from -r --read -t --to -w --write --template --extract-media --filter -F --lua-filter -L "
    "--pdf-engine --pdf-engine-opt -d --defaults --data-dir --resource-path -M --metadata -V --variable --css -c "
    "--reference-doc --bibliography --log --print-default-data-file --print-default-template "
    "--shift-heading-level-by --wrap --columns --highlight-style --syntax-definition --include-in-header -H "
    "--include-before-body -B --include-after-body -A --request-header".split()
)


def _format(value: str | None) -> str | None:
    """A pandoc format name without its extensions (``markdown+smart`` -> ``markdown``); None stays None."""
    return None if value is None else re.split(r"[+-]", value.lower(), maxsplit=1)[0]


def pandoc_includes(base: Handler) -> Handler:
    """pandoc reading or writing a format through which a document shows other files' contents
    (:data:`_PANDOC_INCLUDING`, :data:`_PANDOC_EMBEDDING`): the document may name ``~/.ssh/id_rsa`` or
    ``~/.aws/credentials``, read into the output the model sees, so without ``--sandbox`` such a use is a
    ``secret-read`` (network), as a format or output only known when it runs is; PDF output is one with
    ``--sandbox`` too. Markdown to HTML, plain text or LaTeX (the everyday uses) keep the entry's grade."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        inputs: list[str | None] = []
        outputs: list[str | None] = []
        forced: list[str | None] = []  # -f: the input format of every file
        sandbox = embed = False
        index = 0
        while index < len(words):
            value = words[index].value
            index += 1
            if value is None:
                inputs.append(None)
                continue
            name, eq, attached = value.partition("=") if value.startswith("--") else (value[:2], "", value[2:])
            if value == "--sandbox" or (value.startswith("--sandbox=") and attached.lower() != "false"):
                sandbox = True
                continue
            if value in ("--self-contained", "--embed-resources") or (
                value.startswith(("--self-contained=", "--embed-resources=")) and attached.lower() != "false"
            ):
                embed = True
                continue
            if not value.startswith("-") or value == "-":
                ext = posixpath.splitext(value)[1].lower()
                inputs.append(_PANDOC_INCLUDING_EXT.get(ext, "other"))
                continue
            if name not in _PANDOC_VALUES:
                continue
            given: str | None
            if eq or (attached and not value.startswith("--")):
                given = attached
            else:
                given = words[index].value if index < len(words) else ""
                index += 1
            if name in ("-f", "--from", "-r", "--read"):
                forced.append(_format(given))
            elif name in ("-t", "--to", "-w", "--write"):
                outputs.append(_format(given))
            elif name in ("-o", "--output"):
                outputs.append(
                    None if given is None else _PANDOC_EXT.get(posixpath.splitext(given)[1].lower(), "other")
                )
        if forced:
            inputs = forced
        html = not outputs or any(f in ("html", "html4", "html5", "other") for f in outputs)
        shows: str | None = None
        if "pdf" in outputs or None in outputs:
            shows = "PDF output (the LaTeX engine reads the files the document names)"
        elif sandbox:
            return
        elif None in inputs or any(f in _PANDOC_INCLUDING for f in inputs):
            shows = "an input format with include directives (LaTeX, Org, RST, Typst, HTML iframes)"
        elif any(f in _PANDOC_EMBEDDING for f in outputs) or (embed and html):
            shows = "an output format that embeds the files the document names as images"
        if shows is not None:
            call.g.flag(
                call.rec, call.scope, R.NETWORK, "secret-read",
                f"pandoc {shows}: the document may name any file (~/.ssh/id_rsa), whose contents end in the output "
                "the model sees (pandoc(1), A note on security; --sandbox prevents it).",
            )  # fmt: skip

    handler.__name__ = "pandoc_includes"
    return handler


def groff_includes(base: Handler) -> Handler:
    """groff(7) (groff 1.23): the requests ``.so FILE`` ("Replace the .so request's control line with the contents
    of the file"), ``.mso`` and ``.cf``/``.trf`` (copy a file to the output) read any file the document names, and
    safer mode (the default, groff(1) ``-S``) does not forbid them: formatting a document, a file or standard input,
    may print ``~/.ssh/id_rsa`` to the model (``secret-read``, network). Only ``-v``/``--version`` and
    ``-h``/``--help`` keep the entry's grade."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args]
        if values and all(v in ("-v", "--version", "-h", "--help") for v in values):
            return
        call.g.flag(
            call.rec, call.scope, R.NETWORK, "secret-read",
            f"{call.name} formats a document whose .so/.mso/.cf requests may name any file (~/.ssh/id_rsa): its "
            "contents end in the output the model sees.",
        )  # fmt: skip

    handler.__name__ = "groff_includes"
    return handler


def asciidoctor_includes(base: Handler) -> Handler:
    """asciidoctor(1) (Asciidoctor 2.0) ``-S, --safe-mode``: "The default for the CLI is unsafe", the mode in which
    the ``include::`` directive reads any file, an absolute path included (Asciidoctor "Safe modes": from ``safe``
    up, includes are kept inside the base directory). A document may so copy ``~/.ssh/id_rsa`` into the output the
    model reads: without ``-S safe|server|secure`` a conversion is a ``secret-read`` (network), as a mode only known
    when it runs is. The help and version keep the entry's grade."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        mode: str | None = "unsafe"
        index = 0
        while index < len(words):
            value = words[index].value
            index += 1
            if value in ("-V", "--version", "-h", "--help"):
                return
            if value in ("-S", "--safe-mode"):
                mode = words[index].value if index < len(words) else ""
                index += 1
            elif value is not None and value.startswith("--safe-mode="):
                mode = value.partition("=")[2]
            elif value is not None and value.startswith("-S") and len(value) > 2:
                mode = value[2:]
        if mode is not None and mode.lower() in ("safe", "server", "secure"):
            return
        call.g.flag(
            call.rec, call.scope, R.NETWORK, "secret-read",
            "asciidoctor converts in the unsafe mode (the CLI's default, or a mode only known when it runs): an "
            "include:: directive may name any file (~/.ssh/id_rsa), copied into the output; -S safe keeps includes in "
            "the base directory.",
        )  # fmt: skip

    handler.__name__ = "asciidoctor_includes"
    return handler


#: cloc(1) --vcs=VCS: "If <VCS> is 'git' ... 'svn' ... 'auto' ...; otherwise the value is taken as a command whose
#: output is the list of files" (a command it runs); --extract-with=CMD "Use <cmd> to extract binary archive files".
_CLOC_VCS = frozenset({"git", "svn", "auto"})


def line_counters(base: Handler) -> Handler:
    """cloc's ``--extract-with=CMD`` and ``--vcs=CMD`` (other than git, svn, auto) run CMD; scc's ``--format-multi
    FORMAT:FILE,...`` (scc README: "have multiple format output overriding --format [e.g. tabular:stdout,csv:file.csv,
    json:file.json]") writes each FILE but stdout and stderr."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        for index, word in enumerate(words):
            name, eq, attached = (word.value or "").partition("=")
            if not name.startswith("--"):
                continue
            value = attached if eq else (words[index + 1].value if index + 1 < len(words) else "")
            if call.name == "cloc" and (
                name == "--extract-with" or (name == "--vcs" and (value is None or value not in _CLOC_VCS))
            ):
                destructive(call, "runs-program", f"cloc {name} runs the command it names, which FlyBot does not see.")
                return
            if call.name == "scc" and name == "--format-multi":
                if value is None:
                    destructive(call, "dynamic-argument", "scc --format-multi: its files are only known when it runs.")
                    return
                for part in value.split(","):
                    _, colon, target = part.partition(":")
                    if colon and target not in ("stdout", "stderr", ""):
                        call.write(literal_word(target), "scc --format-multi writes")

    handler.__name__ = "line_counters"
    return handler
