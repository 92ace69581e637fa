"""Make user text inert in Slack ``mrkdwn``.

FlyBot prefers not to put user text in mrkdwn at all: the cards render it in ``rich_text`` ``text``
elements and ``plain_text`` objects, which Slack displays literally. :func:`mrkdwn_escape` is for the places
that only take mrkdwn (the message's notification ``text`` fallback, ephemeral replies).

Source: Slack, "Formatting text for app surfaces" (https://docs.slack.dev/messaging/formatting-message-text),
section "Escaping text": only ``&``, ``<`` and ``>`` are to be replaced, by ``&amp;``, ``&lt;`` and ``&gt;``;
do not HTML-encode anything else. With those three escaped, ``<!channel>``, ``<@U123>``, ``<#C123>`` and
``<https://x|y>`` are shown as text and cannot mention anyone or hide a link.

Slack documents no escape for the formatting markers asterisk (bold), underscore (italic), tilde (strike) and
backtick (code). Zero-width characters were rejected as a fix because whether Slack's parser treats them
as word boundaries is undocumented. FlyBot swaps each marker for a visually similar character that no mrkdwn
rule matches:

* asterisk -> U+2217 ASTERISK OPERATOR (∗)
* underscore -> U+02CD MODIFIER LETTER LOW MACRON (ˍ)
* tilde -> U+223C TILDE OPERATOR (∼)
* backtick -> U+02CB MODIFIER LETTER GRAVE ACCENT (ˋ)

So escaped text reads the same but is not byte-exact. Never show a command through this function when the
exact bytes matter; the cards show the exact command in ``rich_text_preformatted``. What still works: a line
that starts with ``&gt;`` may show as a block quote, and a bare ``https://…`` may auto-link unless the text
object is sent with ``verbatim: true`` (and ``chat.postMessage`` is called without ``link_names``). These change
how text looks, but they cannot mention anyone or hide a link target.
"""

from __future__ import annotations

from cards.text import clean

_ENTITIES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"))  # "&" first, or "&lt;" would become "&amp;lt;"
_LOOKALIKES = str.maketrans({"*": "\u2217", "_": "\u02cd", "~": "\u223c", "`": "\u02cb"})


def mrkdwn_escape(text: str) -> str:
    """Return ``text`` safe to embed in a mrkdwn string: no mentions, links or formatting can come from it.

    ``&``/``<``/``>`` become ``&amp;``/``&lt;``/``&gt;`` (Slack's documented escape), and the markers ``*``, ``_``, ``~`` and the backtick
    become the lookalikes ``∗ ˍ ∼ ˋ`` (see the module docstring). Lone surrogates become U+FFFD. Escaping can make the
    text up to 5 times longer (``&`` -> ``&amp;``): truncate before escaping, never after.

    >>> mrkdwn_escape("<!channel> *hi* & bye")
    '&lt;!channel&gt; ∗hi∗ &amp; bye'
    """
    text = clean(text)
    for raw, entity in _ENTITIES:
        text = text.replace(raw, entity)
    return text.translate(_LOOKALIKES)
