"""Slack Block Kit limits the cards respect, and FlyBot's own (smaller) display budgets.

Sources: Slack Block Kit reference, https://docs.slack.dev/reference/block-kit/ —
"Blocks" (messages hold up to 50 blocks, modals up to 100), "Section block" (``text`` max 3000),
"Header block" (``text`` max 150), "Button element" (``text`` max 75, ``value`` max 2000,
``action_id`` max 255), "Context block" (max 10 elements), "View object" (``title``/``submit``/``close``
max 24, ``private_metadata`` max 3000, ``callback_id`` max 255), "Plain-text input element"
(``max_length`` up to 3000); and ``chat.postMessage`` ("text" is truncated past 40,000 characters; FlyBot
keeps its notification fallback under 4,000). The same numbers appear as validators in
``slack_sdk.models.blocks`` / ``slack_sdk.models.views``.

FlyBot counts lengths in UTF-16 code units (see :func:`cards.text.slack_len`), which is never less than the
code-point count slack-sdk measures, so a text inside a budget here is inside Slack's limit either way.
"""

from __future__ import annotations

# --- Slack's limits -------------------------------------------------------------------------------
MESSAGE_MAX_BLOCKS = 50
MODAL_MAX_BLOCKS = 100
SECTION_TEXT_MAX = 3000
HEADER_TEXT_MAX = 150
BUTTON_TEXT_MAX = 75
BUTTON_VALUE_MAX = 2000
ID_MAX = 255  # action_id, block_id, callback_id
CONTEXT_MAX_ELEMENTS = 10
VIEW_TITLE_MAX = 24
VIEW_BUTTON_MAX = 24  # submit / close
PRIVATE_METADATA_MAX = 3000
PLAIN_TEXT_INPUT_MAX = 3000
FALLBACK_TEXT_MAX = 4000

# --- FlyBot's display budgets (UTF-16 code units) -------------------------------------------------
CARD_COMMAND_MAX = 2500
"""Command text shown on the card before it is cut (full text: the "Show full command" modal)."""
MODAL_CHUNK_MAX = 2900
"""Largest preformatted chunk in the full-command modal."""
CARD_JUSTIFICATION_MAX = 1500
CARD_NOTE_MAX = 1500
"""Deny reason / outcome note shown on a decided card."""
CARD_FIELD_MAX = 200
"""Bot name, session id, room shown in the details block."""
CARD_CWD_MAX = 500
CARD_REASONS_SHOWN = 10
REASON_SUBJECT_MAX = 200
REASON_DETAIL_MAX = 300
REASON_TAG_MAX = 60
"""Rule id / level label inside a reason line."""
HEADER_BOT_NAME_MAX = 60
FALLBACK_COMMAND_PREVIEW = 200
FALLBACK_BOT_NAME_MAX = 80
DENY_REASON_MAX_LENGTH = 2000
"""``max_length`` of the deny-reason input."""
DENY_PREVIEW_MAX = 1000
"""Command preview shown in the deny modal."""
