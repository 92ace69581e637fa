"""Small, pure text helpers: Slack-safe lengths, visible truncation, chunking, UTC times, id checks."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from bot.risk.hidden import reveal

_SURROGATE = re.compile("[\ud800-\udfff]")
_USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}$")
_CHANNEL_ID = re.compile(r"^[CGD][A-Z0-9]{2,}$")


def slack_len(text: str) -> int:
    """Length in UTF-16 code units (astral characters such as most emoji count 2).

    Never smaller than ``len(text)``, which is what slack-sdk's validators count, so budgets measured with it
    hold under either way of counting.
    """
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def clean(text: str, *, multiline: bool = True) -> str:
    """User text made safe to show: lone surrogates become U+FFFD, hidden characters become visible.

    Lone surrogates (possible after ``json.loads`` of ``"\\ud800"``) cannot be encoded as UTF-8, so one would make
    Slack reject the whole message. Hidden and direction-changing characters (bidi controls, zero-width, tags,
    controls) are shown as ``⟨U+202E⟩`` (:func:`bot.risk.hidden.reveal`), so text reads as what it
    is; newline and tab are kept unless ``multiline`` is False (one-line fields: session id, directory, names).
    Idempotent; may lengthen the text (up to 10 characters for one), so cut after cleaning, never before.
    """
    return reveal(_SURROGATE.sub("\ufffd", text), multiline=multiline)


def truncate(text: str, limit: int) -> tuple[str, int]:
    """Cut ``text`` to at most ``limit`` UTF-16 code units; return ``(kept, omitted_characters)``.

    ``omitted_characters`` counts code points (what a person would call characters); 0 means nothing was cut.
    """
    if slack_len(text) <= limit:
        return text, 0
    used = 0
    for index, ch in enumerate(text):
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > limit:
            return text[:index], len(text) - index
    return text, 0  # unreachable: slack_len(text) > limit guarantees an early return


def split_chunks(text: str, limit: int) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` UTF-16 code units; ``"".join(result) == text``.

    A piece ends after the last newline inside its budget when that newline is in the budget's second half,
    so lines are kept whole where that costs little; otherwise it is cut hard.
    """
    chunks: list[str] = []
    rest = text
    while rest:
        piece, omitted = truncate(rest, limit)
        if omitted:
            newline = piece.rfind("\n")
            if newline >= len(piece) // 2:
                piece = piece[: newline + 1]
        chunks.append(piece)
        rest = rest[len(piece) :]
    return chunks


def one_line(text: str) -> str:
    """Collapse all whitespace runs (newlines included) to single spaces, for previews."""
    return " ".join(text.split())


def format_utc(moment: datetime) -> str:
    """``2025-01-31 14:05:09 UTC``; a naive datetime is taken to be UTC already."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def is_slack_user_id(value: str | None) -> bool:
    """True for a plain Slack user id (``^[UW][A-Z0-9]{2,}$``, e.g. ``U0123ABC``): safe to render as a mention."""
    return value is not None and _USER_ID.fullmatch(value) is not None


def is_slack_channel_id(value: str | None) -> bool:
    """True for a plain Slack conversation id (``^[CGD][A-Z0-9]{2,}$``): safe to render as a channel link."""
    return value is not None and _CHANNEL_ID.fullmatch(value) is not None


def reason_part(subject: str, detail: str) -> str:
    """The part of ``subject`` (a simple command) that a reason's ``detail`` is about, so a card names it instead of
    repeating the whole command for each reason.

    The classifier's details start with the words they judge (``"sudo runs ..."``, ``"git push with force ..."``,
    ``"apt-get changes ..."``): the answer is the longest run of subject words, starting at the detail's first word
    (also matched as a path's last part, ``/usr/bin/rm`` for ``rm``), that the detail repeats. Without such a start
    the whole subject is returned. Examples: (``sudo apt-get install -y jq``, ``apt-get changes ...``) ->
    ``apt-get``; (``git push origin main --force``, ``git push with force ...``) -> ``git push``.
    """
    words, said = subject.split(), [w.strip(".,:;()") for w in detail.split()]
    if not words or not said or not said[0]:
        return subject
    for start, word in enumerate(words):
        if said[0] in (word, word.rsplit("/", 1)[-1]):
            length = 1
            while start + length < len(words) and length < len(said) and words[start + length] == said[length]:
                length += 1
            return " ".join(words[start : start + length])
    return subject
