"""Tiny builders for the Block Kit dicts the cards use (internal; shapes per https://docs.slack.dev/reference/block-kit/).

User text only ever goes into :func:`text` / :func:`plain` (rendered literally by Slack); :func:`mrkdwn` is for
FlyBot's own wording. Every user string passes through :func:`cards.text.clean` here, and an empty one is
shown as a placeholder because Slack rejects empty text elements.
"""

from __future__ import annotations

from typing import Any

from cards.text import clean

Block = dict[str, Any]
Element = dict[str, Any]


def text(value: str, *, bold: bool = False, italic: bool = False, code: bool = False) -> Element:
    """A rich_text ``text`` element: literal (no mentions, links or mrkdwn), optionally styled."""
    element: Element = {"type": "text", "text": clean(value)}
    style = {name: True for name, on in (("bold", bold), ("italic", italic), ("code", code)) if on}
    if style:
        element["style"] = style
    return element


def value_text(value: str, *, code: bool = False, placeholder: str = "(empty)") -> Element:
    """A literal user value; an empty/blank one becomes an italic placeholder."""
    if not value.strip():
        return text(placeholder, italic=True)
    return text(value, code=code)


def user(user_id: str) -> Element:
    """A rich_text user mention; call only with an id that passed :func:`cards.text.is_slack_user_id`."""
    return {"type": "user", "user_id": user_id}


def channel(channel_id: str) -> Element:
    """A rich_text channel link; call only with an id that passed :func:`cards.text.is_slack_channel_id`."""
    return {"type": "channel", "channel_id": channel_id}


def section(*elements: Element) -> Element:
    """``rich_text_section`` holding inline elements."""
    return {"type": "rich_text_section", "elements": list(elements)}


def preformatted(value: str) -> Element:
    """``rich_text_preformatted``: a literal, monospace block."""
    return {"type": "rich_text_preformatted", "elements": [text(value)]}


def quote(value: str) -> Element:
    """``rich_text_quote`` with literal text."""
    return {"type": "rich_text_quote", "elements": [text(value)]}


def bullets(items: list[Element]) -> Element:
    """``rich_text_list`` (bullet style) of ``rich_text_section`` items; ``items`` must not be empty."""
    return {"type": "rich_text_list", "style": "bullet", "elements": items}


def rich_text(*elements: Element) -> Block:
    """A ``rich_text`` block."""
    return {"type": "rich_text", "elements": list(elements)}


def plain(value: str) -> Element:
    """A ``plain_text`` object (literal); a blank value becomes ``(empty)`` since Slack rejects empty text."""
    return {"type": "plain_text", "text": clean(value) if value.strip() else "(empty)"}


def mrkdwn(value: str) -> Element:
    """A ``mrkdwn`` object: FlyBot's own wording only, never user text."""
    return {"type": "mrkdwn", "text": value}


def header(value: str) -> Block:
    """A ``header`` block (plain_text, max 150 chars: the caller keeps it short)."""
    return {"type": "header", "text": plain(value)}


def mrkdwn_section(value: str) -> Block:
    """A ``section`` block with FlyBot-worded mrkdwn (max 3000 chars)."""
    return {"type": "section", "text": mrkdwn(value)}


def context(*elements: Element) -> Block:
    """A ``context`` block (max 10 elements)."""
    return {"type": "context", "elements": list(elements)}


def button(label: str, action_id: str, value: str, *, style: str | None = None) -> Element:
    """A ``button`` element (text max 75, value max 2000, action_id max 255); ``style`` ``primary``/``danger``."""
    element: Element = {"type": "button", "text": plain(label), "action_id": action_id, "value": value}
    if style:
        element["style"] = style
    return element
