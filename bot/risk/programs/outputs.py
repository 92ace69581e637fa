"""Catalogue guards for programs whose output file is named by joining words, or beside an input file.

- csplit(1) (GNU coreutils 9.5): each piece is named PREFIX (``-f``/``--prefix``, default ``xx``) followed by the
  suffix format (``-b``/``--suffix-format``, "use sprintf FORMAT instead of %02d") applied to the piece's number,
  from 0. C's printf prints nothing for ``%.0d`` of 0, so ``-f ~/.bashr -b 'c%.0d'`` names ``~/.bashrc``.
- pngquant(1) (pngquant 3): "The output filename is the same as the input name except that it ends in
  '-fs8.png' or '-or8.png'"; "--ext new.png: File extension (suffix) to use for output files instead"; "-f,
  --force: Overwrite existing output files"; "-o out.png: Writes converted file to the given path".
- dot(1) (Graphviz 12): "-O  Automatically generate an output filename based on the input filename with a .'format'
  appended" (next to the input file).
- yt-dlp README "Verbosity and Simulation Options": "--print-to-file [WHEN:]TEMPLATE FILE  Append given template to
  the file" (two words; optparse takes a unique prefix of a long option).
"""

from __future__ import annotations

import posixpath
import re

from bot.risk.grader import Call, Handler
from bot.risk.words import Word, literal_word

__all__ = ["csplit_pieces", "dot_beside_input", "pngquant_ext", "yt_dlp_print_to_file"]

#: One printf integer conversion: flags, width, precision, conversion (csplit accepts exactly one).
_CONVERSION = re.compile(r"%([-+ #0']*)(\d*)(?:\.(\d*))?([diuoxX])")


def c_integer(spec: re.Match[str], value: int) -> str:
    """``value`` formatted as C's printf formats it by the conversion ``spec`` (:data:`_CONVERSION`): a precision of
    0 prints no digits for 0 (C11 7.21.6.1: "The result of converting a zero value with a precision of zero is no
    characters")."""
    flags, width, precision, conversion = spec.group(1), spec.group(2), spec.group(3), spec.group(4)
    base = {"o": 8, "x": 16, "X": 16}.get(conversion, 10)
    digits = {8: f"{abs(value):o}", 16: f"{abs(value):x}", 10: str(abs(value))}[base]
    if conversion == "X":
        digits = digits.upper()
    if precision is not None:
        wanted = int(precision or "0")
        digits = "" if wanted == 0 and value == 0 else digits.zfill(wanted)
    if "#" in flags and conversion == "o" and not digits.startswith("0"):
        digits = "0" + digits
    elif "#" in flags and conversion in "xX" and value != 0:
        digits = ("0X" if conversion == "X" else "0x") + digits
    sign = "-" if value < 0 else "+" if "+" in flags and conversion in "di" else " " if " " in flags else ""
    size = int(width or "0")
    if "-" in flags:
        return (sign + digits).ljust(size)
    if "0" in flags and precision is None:
        return sign + digits.rjust(size - len(sign), "0")
    return (sign + digits).rjust(size)


def _values(words: list[Word], names: tuple[str, ...], *, short: str = "") -> list[Word]:
    """The values given to the long options ``names`` (``--name=V``, ``--name V``) and the short option ``short``
    (``-xV``, ``-x V``), in order."""
    found: list[Word] = []
    for index, word in enumerate(words):
        value = word.value or ""
        name, eq, rest = value.partition("=")
        if name in names:
            if eq:
                found.append(literal_word(rest))
            elif index + 1 < len(words):
                found.append(words[index + 1])
        elif short and value == short and index + 1 < len(words):
            found.append(words[index + 1])
        elif short and value.startswith(short) and len(value) > len(short) and not value.startswith("--"):
            found.append(literal_word(value[len(short) :]))
    return found


def csplit_pieces(base: Handler) -> Handler:
    """csplit: the pieces' names, the prefix joined with the suffix format's output for the first numbers, are
    graded as the writes they are; a suffix format only known when it runs, or one without a single integer
    conversion, names a place only known when it runs."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        prefixes = _values(words, ("--prefix",), short="-f")
        formats = _values(words, ("--suffix-format",), short="-b")
        if not formats:
            return  # the default %02d: the prefix (graded as the -f write) then two digits
        prefix = prefixes[-1] if prefixes else literal_word("xx")
        fmt = formats[-1]
        if prefix.value is None or fmt.value is None:
            call.write(Word(None, f"{prefix.src}{fmt.src}"), "csplit writes its pieces at")
            return
        found = list(_CONVERSION.finditer(fmt.value))
        if len(found) != 1:
            call.write(Word(None, f"{prefix.src}{fmt.src}"), "csplit writes its pieces at")
            return
        spec = found[0]
        before, after = fmt.value[: spec.start()].replace("%%", "%"), fmt.value[spec.end() :].replace("%%", "%")
        for number in (0, 1, 2):
            piece = prefix.value + before + c_integer(spec, number) + after
            call.write(literal_word(piece), "csplit writes the piece")

    handler.__name__ = "csplit_pieces"
    return handler


#: pngquant(1) options taking a value (the next word).
_PNGQUANT_VALUED = frozenset({"-o", "--output", "--ext", "-s", "--speed", "-Q", "--quality", "--posterize", "--map"})


def pngquant_ext(base: Handler) -> Handler:
    """pngquant: without ``-o``, each input FILE is written beside it as FILE without its ``.png`` and with the
    ``--ext`` suffix (default ``-fs8.png``); ``--force`` overwrites what is there (a replacement); ``-`` is standard
    input and output."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        if any((w.value or "").partition("=")[0] in ("-o", "--output") for w in words):
            return
        exts = _values(words, ("--ext",))
        ext = exts[-1] if exts else literal_word("-fs8.png")
        force = any(w.value in ("-f", "--force") for w in words)
        skip = False
        for word in words:
            value = word.value
            if skip:
                skip = False
                continue
            if value is not None and value.startswith("-") and value != "-":
                skip = "=" not in value and value in _PNGQUANT_VALUED
                continue
            if value == "-" or (value is not None and value.isdigit()):
                continue  # standard input, or the number of colours
            if value is None or ext.value is None:
                call.write(Word(None, f"{word.src}{ext.src}"), "pngquant writes", replaces=force)
                continue
            stem = value[:-4] if value.lower().endswith(".png") else value
            call.write(literal_word(stem + ext.value), "pngquant writes", replaces=force)

    handler.__name__ = "pngquant_ext"
    return handler


def dot_beside_input(base: Handler) -> Handler:
    """dot ``-O``: each input FILE's output is FILE.FORMAT beside it (the format of ``-T``)."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        if not any(w.value == "-O" for w in words):
            return
        formats = [w.value[2:].split(":", 1)[0] for w in words if (w.value or "").startswith("-T") and w.value]
        suffix = "." + (formats[-1] or "dot") if formats else ".dot"
        skip = False
        for word in words:
            value = word.value
            if skip:
                skip = False
                continue
            if value is not None and value.startswith("-"):
                skip = value in ("-o", "-l", "-T", "-K")  # a value given as the next word
                continue
            call.write(
                literal_word(value + suffix) if value is not None else Word(None, word.src),
                "dot -O writes beside its input",
            )

    handler.__name__ = "dot_beside_input"
    return handler


def yt_dlp_print_to_file(base: Handler) -> Handler:
    """yt-dlp ``--print-to-file TEMPLATE FILE`` (also ``--print-to-file=TEMPLATE FILE`` and a unique prefix from
    ``--print-to``): FILE is appended to, graded as the write it is (a directory named by an output template field,
    ``%(title)s/x``, is only known when it runs)."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        for index, word in enumerate(words):
            name, eq, _ = (word.value or "").partition("=")
            if not (len(name) >= len("--print-to") and "--print-to-file".startswith(name)):
                continue
            at = index + 1 if eq else index + 2
            if at >= len(words):
                continue
            target = words[at]
            if target.value is not None and "%(" in posixpath.dirname(target.value):
                target = Word(None, target.src)  # a directory named by the video's fields
            call.write(target, "yt-dlp --print-to-file appends to")

    handler.__name__ = "yt_dlp_print_to_file"
    return handler
