"""Hidden and look-alike characters: find them, make them visible, and say what a word looks like.

Text a person reads before deciding must read as what it is. Two kinds of characters break that:

- **Hidden** characters change how text is shown without showing themselves: bidirectional controls
  (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), zero-width characters (U+200B-U+200D, U+2060, U+FEFF),
  tag characters (U+E0000-U+E007F), C0/C1 controls (ESC, BEL, CR, ...), and more generally every format (Cf),
  control (Cc), private-use (Co), unassigned (Cn) or surrogate (Cs) code point, line/paragraph separators, spaces
  other than U+0020 (bash does not split on them), variation selectors and invisible fillers. :func:`reveal`
  shows each as ``⟨U+202E⟩``; newline and tab are kept in multi-line text.
- **Look-alike** words: a word that mixes ASCII letters with letters of another script that look like ASCII
  (``ѕudo`` with a Cyrillic ``ѕ``), or that is made only of characters that look like ASCII (Cyrillic ``сор``).
  The look-alike table is Unicode's confusables data (UTS #39) as kept by the ``confusable-homoglyphs`` package,
  loaded only when a text has non-ASCII characters (pure-ASCII text costs nothing).

Pure and synchronous; used by the classifier (such a command always needs a person), the cards, the CLI.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from bot.values import Frozen

__all__ = ["Lookalike", "hidden_characters", "lookalikes", "needs_a_person", "plain_warning", "reveal"]

_INVISIBLE_EXTRA = frozenset(
    # CGJ, Hangul/Khmer fillers, Mongolian vowel and free variation selectors, braille blank, Khitan filler
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180E, 0x180F, 0x2800, 0x3164, 0xFFA0, 0x16FE4]
    + list(range(0xFE00, 0xFE0E))  # variation selectors 1-14 (15 and 16 pick text/emoji style: see _is_hidden)
    + list(range(0xE0100, 0xE01F0))  # variation selectors supplement
)
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp", "Zs"})
_STYLE_SELECTORS = frozenset({"\ufe0e", "\ufe0f"})
_WORD = re.compile(r"[^\s;|&()<>'\"`$=/\\,:{}\[\]*?!#~]+")


def _is_hidden(ch: str, previous: str) -> bool:
    """True for a character that changes how text shows without showing itself (module docstring).

    U+FE0E/U+FE0F (text/emoji presentation) count only after an ASCII character or at the start: after a symbol
    they are part of an ordinary emoji such as ``⚠️``.
    """
    if ch.isascii():
        return ch < " " or ch == "\x7f"
    if ch in _STYLE_SELECTORS:
        return previous == "" or previous.isascii()
    return unicodedata.category(ch) in _HIDDEN_CATEGORIES or ord(ch) in _INVISIBLE_EXTRA


_ZWJ = "\u200d"


def _emoji_joiner(previous: str, following: str) -> bool:
    """True for a zero-width joiner inside an emoji sequence: a symbol (or its U+FE0F) before, a symbol after
    (``🧑‍💻``, gitmoji's "technologist"; ``❤️‍🔥``). Between two pictographs it only merges their glyphs, so it
    hides nothing; anywhere else (between letters) it stays hidden."""
    return (previous == "\ufe0f" or (previous != "" and unicodedata.category(previous) == "So")) and (
        following != "" and unicodedata.category(following) == "So"
    )


def _marks(text: str, keep: str) -> list[bool]:
    previous = ""
    marks = []
    for index, ch in enumerate(text):
        hidden = ch not in keep and _is_hidden(ch, previous)
        if hidden and ch == _ZWJ and _emoji_joiner(previous, text[index + 1 : index + 2]):
            hidden = False
        marks.append(hidden)
        previous = ch
    return marks


def reveal(text: str, *, multiline: bool = True) -> str:
    """``text`` with every hidden character replaced by ``⟨U+XXXX⟩`` (4-6 hex digits).

    Newline and tab stay as they are when ``multiline`` (commands, justifications, reasons); in one-line fields
    (session id, working directory, names) they are shown too. Pure ASCII text without controls is returned as is.
    Idempotent (the marks themselves are visible characters).

    >>> reveal("ls # \u202e ; rm -rf ~ \u202c")
    'ls # ⟨U+202E⟩ ; rm -rf ~ ⟨U+202C⟩'
    """
    if text.isascii() and text.isprintable():
        return text
    marks = _marks(text, "\n\t" if multiline else "")
    if not any(marks):
        return text
    return "".join(f"\u27e8U+{ord(ch):04X}\u27e9" if hidden else ch for ch, hidden in zip(text, marks, strict=True))


def hidden_characters(text: str, *, multiline: bool = True) -> tuple[str, ...]:
    """The distinct hidden characters of ``text`` as ``U+XXXX`` codes, in order of first appearance."""
    if text.isascii() and text.isprintable():
        return ()
    marks = _marks(text, "\n\t" if multiline else "")
    return tuple(dict.fromkeys(f"U+{ord(ch):04X}" for ch, hidden in zip(text, marks, strict=True) if hidden))


class Lookalike(Frozen):
    """A word that reads as something else: ``word`` as written, ``looks_like`` its ASCII reading."""

    __slots__ = ("word", "looks_like")
    word: str
    looks_like: str

    def __init__(self, word: str, looks_like: str) -> None:
        self._init(word=word, looks_like=looks_like)


def lookalikes(text: str, *, limit: int = 5) -> tuple[Lookalike, ...]:
    """The look-alike words of ``text`` (at most ``limit``), e.g. ``(Lookalike("ѕudo", "sudo"),)``.

    A word (a run of characters between blanks and shell punctuation) is a look-alike when one of its non-ASCII
    characters has an ASCII confusable (UTS #39) and either the word also has ASCII letters or digits (mixed
    script), or every one of its characters is ASCII or has an ASCII confusable (a whole-script confusable such as
    Cyrillic ``сор``). Ordinary non-Latin words (``исправить``) and accented Latin (``héllo``) are not flagged.
    """
    if text.isascii():
        return ()
    found: dict[str, Lookalike] = {}
    for word in _WORD.findall(text):
        if word.isascii() or word in found:
            continue
        skeleton = "".join(_ascii_twin(ch) or ch for ch in word)
        if skeleton == word:
            continue
        mixed = any(ch.isascii() and ch.isalnum() for ch in word)
        if mixed or skeleton.isascii():
            found[word] = Lookalike(word, skeleton)
            if len(found) >= limit:
                break
    return tuple(found.values())


@lru_cache(maxsize=4096)
def _ascii_twin(ch: str) -> str | None:
    """The ASCII character ``ch`` is confusable with, or None (ASCII itself, or no ASCII twin)."""
    if ch.isascii():
        return None
    from confusable_homoglyphs import confusables  # loaded on first non-ASCII text only

    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=[])
    for entry in found or ():
        for glyph in entry.get("homoglyphs", ()):
            twin = str(glyph.get("c", ""))
            if len(twin) == 1 and twin.isascii() and twin.isprintable() and twin != " ":
                return twin
    folded = unicodedata.normalize("NFKC", ch)
    if len(folded) == 1 and folded.isascii() and folded.isalnum():
        return folded  # fullwidth and mathematical letters: ｓ, 𝐬
    return None


def needs_a_person(text: str) -> str | None:
    """A one-sentence reason why ``text`` must be read by a person (hidden characters, look-alike words), or None.

    Such a command is never answered by a standing approval nor allowed at once by an adapter's ceiling: a person
    must read it.
    """
    parts: list[str] = []
    hidden = hidden_characters(text)
    if hidden:
        parts.append(
            f"hidden or direction-changing characters ({', '.join(hidden[:5])}{', ...' if len(hidden) > 5 else ''})"
        )
    similar = lookalikes(text)
    if similar:
        parts.append(
            "look-alike words (" + ", ".join(f"{reveal(s.word)} looks like `{s.looks_like}`" for s in similar[:3]) + ")"
        )
    if not parts:
        return None
    return "It contains " + " and ".join(parts) + ": it may not be what it appears to be."


def plain_warning(texts: Iterable[str], *, multiline: bool = False) -> str | None:
    """The plain sentence a terminal shows under output that held such characters, or None.

    The CLI's counterpart of the cards' warning block (``cards.hidden``): which hidden characters were shown as
    ``⟨U+XXXX⟩`` (at most five codes) and up to three look-alike words with their ASCII reading, e.g.
    ``warning: hidden or direction-changing characters (U+202E) are shown as ⟨U+…⟩; ѕudo looks like sudo: read
    these lines carefully, they may not be what they appear to be.`` ``texts`` are the raw values shown (before
    :func:`reveal`); ``multiline`` as for :func:`reveal` (False: a newline or tab counts too).
    """
    codes: dict[str, None] = {}
    similar: dict[str, Lookalike] = {}
    for text in texts:
        codes.update(dict.fromkeys(hidden_characters(text, multiline=multiline)))
        for found in lookalikes(text):
            similar.setdefault(found.word, found)
    if not codes and not similar:
        return None
    parts = []
    if codes:
        listed = list(codes)
        parts.append(
            f"hidden or direction-changing characters ({', '.join(listed[:5])}"
            f"{', ...' if len(listed) > 5 else ''}) are shown as \u27e8U+\u2026\u27e9"
        )
    if similar:
        parts.append(
            "; ".join(
                f"{reveal(s.word, multiline=False)} looks like {s.looks_like}" for s in list(similar.values())[:3]
            )
        )
    return "warning: " + "; ".join(parts) + ": read these lines carefully, they may not be what they appear to be."
