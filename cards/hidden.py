"""The plain warning a card shows near its top when user text holds hidden or look-alike characters.

Every surface already shows such characters made visible (``⟨U+202E⟩``, :func:`cards.text.clean`); this block
says so in words, so that a reader does not have to notice them: which fields, and which words look like
something else (``ѕudo`` looks like ``sudo``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.risk.hidden import hidden_characters, lookalikes
from cards import blocks as bk

Block = dict[str, Any]
_MAX_LOOKALIKES = 3


def hidden_text_warning(
    multiline: Mapping[str, str], single_line: Mapping[str, str] | None = None, *, subject: str = "request"
) -> Block | None:
    """A ``rich_text`` warning block, or None when every field reads as what it is.

    Args:
        multiline: field name -> text where newline and tab are ordinary (command, justification, reason).
        single_line: field name -> text that should be one line (session id, directory, names): a newline or tab
            there counts as hidden too.
        subject: what the reader is reading, for the first sentence: ``request`` (cards, modals), ``report`` (the
            blocked-host DM), ``notice``, ``list`` (App Home).

    The block names the fields with hidden characters and up to three look-alike words with their ASCII reading;
    all user text in it is in literal ``text`` elements (no mentions, links or formatting can come from it).
    """
    fields = [name for name, text in multiline.items() if text and hidden_characters(text)]
    fields += [name for name, text in (single_line or {}).items() if text and hidden_characters(text, multiline=False)]
    similar = []
    for text in [*multiline.values(), *(single_line or {}).values()]:
        for found in lookalikes(text):
            if found not in similar:
                similar.append(found)
    if not fields and not similar:
        return None
    lines = [bk.text(f"\u26a0\ufe0f Read this {subject} carefully: it is not what it may appear to be.", bold=True)]
    if fields:
        lines.append(
            bk.text(
                f"\nHidden or direction-changing characters in the {', '.join(fields)}; they are shown as \u27e8U+\u2026\u27e9."
            )
        )
    for found in similar[:_MAX_LOOKALIKES]:
        lines += [
            bk.text("\nLook-alike: "),
            bk.text(found.word, code=True),
            bk.text(" looks like "),
            bk.text(found.looks_like, code=True),
            bk.text(" but is not."),
        ]
    if len(similar) > _MAX_LOOKALIKES:
        lines.append(bk.text(f"\n\u2026 and {len(similar) - _MAX_LOOKALIKES} more look-alike words."))
    return bk.rich_text(bk.section(*lines))
