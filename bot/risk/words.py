"""Shell words: what bash would pass to a program, when that is certain.

A :class:`Word` carries the literal value of one shell word after quote removal
(``'r'm`` -> ``rm``, ``\\rm`` -> ``rm``, ``$'\\x72m'`` -> ``rm``) or ``None`` when the
value depends on the run (an expansion, a command substitution, a glob-free brace
expansion, a ``$"..."`` translation). Source of the rules: bash(1), sections
QUOTING, EXPANSION ("Brace Expansion", "Tilde Expansion") and "ANSI-C Quoting".
"""

from __future__ import annotations

TYPE_CHECKING = False  # tree-sitter loads on the first parse; typing never (bot/values.py)
if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["Word", "decode_ansi_c", "dynamic_word", "literal_word", "node_text", "resolve_word"]

_TMPDIR_SPELLINGS = frozenset({"$TMPDIR", "${TMPDIR}", "${TMPDIR:-/tmp}", "${TMPDIR-/tmp}"})


class Word:
    """One shell word (treat as immutable; not frozen only because frozen values are slow to build).

    Attributes:
        value: the literal string bash passes, or ``None`` when it is not certain.
        src: the source text as written (for reasons and for ``text``).
        temp_suffix: for a word spelled ``$TMPDIR/rest`` (or ``${TMPDIR}``), the literal
            ``/rest`` part; the path rules treat such a word as inside the temp area.
        operand_only: an unknown value that cannot be an option (find's ``{}`` below literal
            start points): option scanners take it as an operand.
        splits: bash may turn this one word into several (an unquoted expansion, ``"$@"``,
            an unquoted glob or brace expansion): the words after it may shift.
        inside: an unknown value known to name a path inside the workspace (find's ``{}`` below start
            points that are all inside it); the path rules place it there.
    """

    __slots__ = ("value", "src", "temp_suffix", "operand_only", "splits", "inside")

    def __init__(
        self,
        value: str | None,
        src: str,
        temp_suffix: str | None = None,
        operand_only: bool = False,
        splits: bool = False,
        inside: bool = False,
    ) -> None:
        self.value = value
        self.src = src
        self.temp_suffix = temp_suffix
        self.operand_only = operand_only
        self.splits = splits
        self.inside = inside

    def __repr__(self) -> str:
        return (
            f"Word(value={self.value!r}, src={self.src!r}, temp_suffix={self.temp_suffix!r}, "
            f"operand_only={self.operand_only!r}, splits={self.splits!r})"
        )


def literal_word(value: str) -> Word:
    """A word whose value is known (used for synthesised words, e.g. xargs' default ``echo``)."""
    return Word(value, value)


def dynamic_word(src: str) -> Word:
    """A word whose value is unknown until run time (e.g. find's ``{}``)."""
    return Word(None, src)


def node_text(node: Node, src: bytes) -> str:
    """The source text of ``node`` (``src`` is the UTF-8 script the tree was parsed from)."""
    return src[node.start_byte : node.end_byte].decode("utf-8", "replace")


def resolve_word(node: Node, src: bytes) -> Word:
    """Resolve an argument node (``word``, ``string``, ``concatenation``, ...) to a :class:`Word`.

    Never raises; anything not understood yields ``value=None``.
    """
    text = node_text(node, src)
    kind = node.type
    if kind == "word" or kind == "number":
        globs = "*" in text or "?" in text or "[" in text
        if "\\" not in text:
            return Word(text, text, splits=globs)
        return Word(_unescape_unquoted(text), text, splits=globs)
    if kind == "process_substitution":
        # bash(1) "Process Substitution": "the file name is passed as an argument to the current command" (a
        # /dev/fd/N name): unknown, never an option
        return Word(None, text, operand_only=True)
    segments: list[tuple[str, str]] = []
    _segments(node, src, segments)
    return _combine(segments, text)


# Segment kinds: "lit" (literal text), "glob" (unquoted literal text with glob characters),
# "open"/"close" (unquoted brace specials), "dyn" (unknown), "split" (unknown and may become
# several words), "tmp" (a $TMPDIR expansion).
_SPLITTING = frozenset({"simple_expansion", "expansion", "command_substitution", "brace_expression"})


def _segments(node: Node, src: bytes, out: list[tuple[str, str]]) -> None:
    kind = node.type
    text = node_text(node, src)
    if kind in ("word", "number"):
        if node.grammar_name == "_special_character" and text in ("{", "}"):
            out.append(("open" if text == "{" else "close", text))
        else:
            globs = "*" in text or "?" in text or "[" in text
            out.append(("glob" if globs else "lit", _unescape_unquoted(text) if "\\" in text else text))
    elif kind == "raw_string":
        out.append(("lit", text[1:-1]))
    elif kind == "ansi_c_string":
        decoded = decode_ansi_c(text[2:-1])
        out.append(("lit", decoded) if decoded is not None else ("dyn", text))
    elif kind == "string":
        _string_segments(node, src, text, out)
    elif kind == "concatenation":
        for child in node.children:
            _segments(child, src, out)
    elif kind in ("simple_expansion", "expansion") and text in _TMPDIR_SPELLINGS:
        out.append(("tmp", text))
    else:
        out.append(("split" if kind in _SPLITTING else "dyn", text))


def _string_segments(node: Node, src: bytes, text: str, out: list[tuple[str, str]]) -> None:
    for child in node.children:
        ckind = child.type
        if ckind == '"':
            continue
        if ckind == "string_content":
            out.append(("lit", _unescape_double(node_text(child, src))))
        elif ckind in ("simple_expansion", "expansion") and node_text(child, src) in _TMPDIR_SPELLINGS:
            out.append(("tmp", node_text(child, src)))
        else:
            inner = node_text(child, src)
            out.append(("split" if "@" in inner or "*" in inner else "dyn", text))


def _combine(segments: list[tuple[str, str]], text: str) -> Word:
    splits = any(kind in ("split", "glob") for kind, _ in segments)
    if _has_brace_expansion(segments):
        return Word(None, text, splits=True)
    parts: list[str] = []
    temp_at: int | None = None
    for index, (kind, value) in enumerate(segments):
        if kind == "tmp" and index == 0:
            temp_at = 0
        elif kind in ("dyn", "tmp", "split"):
            return Word(None, text, splits=splits)
        else:
            parts.append(value)
    if temp_at is not None:
        return Word(None, text, "".join(parts), splits=splits)
    return Word("".join(parts), text, splits=splits)


def _has_brace_expansion(segments: list[tuple[str, str]]) -> bool:
    """True when an unquoted ``{...}`` holds a ``,`` or ``..`` (bash(1) "Brace Expansion")."""
    depth = 0
    inner: list[str] = []
    for kind, value in segments:
        if kind == "open":
            depth += 1
            inner = []
        elif kind == "close" and depth:
            body = "".join(inner)
            if "," in body or ".." in body:
                return True
            depth -= 1
        elif depth:
            inner.append(value)
    return False


def _unescape_unquoted(text: str) -> str:
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if nxt != "\n":
                out.append(nxt)
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _unescape_double(text: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


_SIMPLE_ESCAPES = {
    "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
    "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
}  # fmt: skip
_HEX = "0123456789abcdefABCDEF"


def decode_ansi_c(body: str) -> str | None:
    """Decode the body of a ``$'...'`` string (bash(1) "ANSI-C Quoting").

    Returns ``None`` where bash's result is not certain to us: ``\\c`` control
    escapes and NUL (bash truncates the word there).
    """
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        esc = body[i + 1]
        i += 2
        if esc in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[esc])
        elif esc in "01234567":
            j = i - 1
            while j < n and j < i + 2 and body[j] in "01234567":
                j += 1
            out.append(chr(int(body[i - 1 : j], 8) & 0xFF))
            i = j
        elif esc in "xuU":
            limit = {"x": 2, "u": 4, "U": 8}[esc]
            j = i
            while j < n and j < i + limit and body[j] in _HEX:
                j += 1
            if j == i:
                out.append("\\" + esc)
                continue
            code = int(body[i:j], 16)
            if code > 0x10FFFF:
                return None
            out.append(chr(code))
            i = j
        elif esc == "c":
            return None
        else:
            out.append("\\" + esc)
    result = "".join(out)
    return None if "\x00" in result else result
