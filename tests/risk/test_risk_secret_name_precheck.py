"""The secret-name pre-check (sensitive.may_name_secret) answers as a plain scan of every secret word does."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.risk.sensitive import (
    _CREDENTIAL_PLACES,
    _SECRET_PATH_WORDS,
    _SECRET_VARIABLE_TEXT,
    _SECRET_WORDS_BY_START,
    _SPELT_VARIABLES,
    _TOOL_CREDENTIAL_WORDS,
    _holds_secret_word,
    _words_by_start,
    may_name_secret,
)

SETTINGS = settings(max_examples=1500, deadline=None)
WORDS = (*_SECRET_PATH_WORDS, *_TOOL_CREDENTIAL_WORDS, "$(echo ", "$(printf ")


def reference(text: str) -> bool:
    """The pre-check written the straightforward way: every word searched for in the whole text."""
    return (
        any(word in text for word in _SECRET_PATH_WORDS)
        or ".env" in text.lower()
        or any(word in text for word in _TOOL_CREDENTIAL_WORDS)
        or (any(c in text for c in "*?[{") and any(c in text for c in "~/."))
        or ("$" in text and _SECRET_VARIABLE_TEXT.search(text) is not None)
        or "$(echo " in text
        or "$(printf " in text
        or ("$" in text and any(name in text for name in _SPELT_VARIABLES))
        or ("$" in text and any(name in text for name in _CREDENTIAL_PLACES))
        or (("'" in text or '"' in text) and reference(text.replace("'", "").replace('"', "")))
    )


def _cut(word: str, data: st.DataObject) -> str:
    """A piece of ``word``: all of it, a part of it, or it with a quote put inside."""
    start = data.draw(st.integers(0, len(word)))
    end = data.draw(st.integers(start, len(word)))
    how = data.draw(st.sampled_from(["whole", "part", "quoted", "upper"]))
    if how == "part":
        return word[start:end]
    if how == "quoted":
        return word[:start] + data.draw(st.sampled_from(["'", '"', "''", "\\"])) + word[start:]
    if how == "upper":
        return word.upper()
    return word


ALPHABET = sorted({c for word in WORDS for c in word} | set(" \t\n$'\"*?[{}]~/.-_=;|&()`!#\\0123456789") | {"İ", "K"})
noise = st.text(alphabet=ALPHABET, max_size=12)


@st.composite
def texts(draw: st.DrawFn) -> str:
    """Text made of secret words (whole, cut, quoted or upper-cased), variable names and noise, so that near misses
    and words split across pieces come up often."""
    data = draw(st.data())
    pieces = draw(
        st.lists(
            st.one_of(
                st.sampled_from(WORDS).map(lambda w: _cut(w, data)),
                st.sampled_from([*_CREDENTIAL_PLACES, *_SPELT_VARIABLES, "$", "${", "$HOME", "~/", "*", "ENV"]),
                noise,
            ),
            max_size=8,
        )
    )
    return "".join(pieces)


@SETTINGS
@given(texts())
def test_may_name_secret_matches_the_plain_scan(text: str) -> None:
    assert may_name_secret(text) == reference(text)


@SETTINGS
@given(texts())
def test_secret_word_lookup_matches_the_plain_scan(text: str) -> None:
    assert _holds_secret_word(text) == any(word in text for word in WORDS)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=40))
def test_any_text_matches_the_plain_scan(text: str) -> None:
    assert may_name_secret(text) == reference(text)


def test_every_word_is_indexed_and_found_anywhere() -> None:
    indexed = [word for group in _SECRET_WORDS_BY_START.values() for word in group]
    assert sorted(indexed) == sorted(set(WORDS))
    for word in WORDS:
        for text in (word, f"cat ~/{word}", f"x{word}", f"{word}y", f"ab{word}cd"):
            assert _holds_secret_word(text), text
            assert may_name_secret(text), text


def test_near_misses_are_not_secret_words() -> None:
    for text in ("ls -la", "git status", "npm test", "cd src", "grep -n foo main.py", "ssh", ".ss", "oke", ""):
        assert not _holds_secret_word(text), text
    for text in ("ls -la", "git status", "npm test", "cd src", "make -j4"):
        assert not may_name_secret(text), text
        assert not reference(text), text


def test_a_short_word_is_refused() -> None:
    with pytest.raises(ValueError, match="shorter than three"):
        _words_by_start(("ab",))
