"""mrkdwn_escape: Slack's three entities plus lookalikes for the formatting markers."""

from __future__ import annotations

import pytest
from cards_testkit import assert_inert_mrkdwn_string

from cards import mrkdwn_escape


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("a & b", "a &amp; b"),
        ("<!channel>", "&lt;!channel&gt;"),
        ("<@U123>", "&lt;@U123&gt;"),
        ("<https://evil|click>", "&lt;https://evil|click&gt;"),
        ("&amp;", "&amp;amp;"),
        ("*b* _i_ ~s~ `c`", "\u2217b\u2217 \u02cdi\u02cd \u223cs\u223c \u02cbc\u02cb"),
        ("plain text", "plain text"),
        ("", ""),
    ],
)
def test_mrkdwn_escape_examples(raw: str, escaped: str) -> None:
    assert mrkdwn_escape(raw) == escaped


def test_mrkdwn_escape_hostile_command_is_inert() -> None:
    out = mrkdwn_escape("<!channel> <@U123> <https://evil|click> *bold* _it_ ~s~ `code` &amp;")
    assert_inert_mrkdwn_string(out)
    assert "&lt;!channel&gt;" in out and "&lt;@U123&gt;" in out


def test_mrkdwn_escape_replaces_lone_surrogates() -> None:
    assert mrkdwn_escape("a\ud800b") == "a\ufffdb"
