"""What the person who decided is told when Slack would not redraw the message they clicked.

A decision is stored, and the session answered, before chat is touched; the card (or the blocked report's DM) is
redrawn by an outbox job that retries until its delivery deadline. When it gives up, the message may still show
live buttons: the person who decided hears it, in one ephemeral line (or a DM). Pure functions, no I/O.
"""

from __future__ import annotations

from cards.escape import mrkdwn_escape
from cards.text import clean, is_slack_channel_id, one_line, truncate

STALE_COMMAND_MAX = 120
"""The command is quoted on one line, cut to this many characters."""

_DECIDED = {"approved": "approved", "denied": "denied"}
_REPORT_DECIDED = {
    "approved_turn": "approved danger-full-access for one turn",
    "approved_bot": "approved danger-full-access for the Bot",
    "resolved": "marked it resolved",
}


def stale_card_text(
    *, status: str, bot_name: str, command: str, escalation_id: str, channel: str | None, error: str
) -> str:
    """E.g. "You approved builder's request `sudo apt-get install -y jq` (esc_…), and the session has its answer,
    but Slack did not update the card in <#C0123> (message_not_found): it may still show buttons. A click on them
    changes nothing." User text (Bot name, command, error) is escaped; the command is cut to one line."""
    shown, cut = truncate(one_line(clean(command)), STALE_COMMAND_MAX)
    what = _DECIDED.get(status, "decided")
    where = f" in <#{channel}>" if is_slack_channel_id(channel) else ""
    return (
        f"You {what} {_name(bot_name)}'s request {_code(shown + ('…' if cut else ''))} "
        f"({_code(escalation_id)}), and the session has its answer, but Slack did not update the "
        f"card{where} ({_code(error)}): it may still show buttons. A click on them changes nothing."
    )


def stale_report_text(*, status: str, bot_name: str, report_id: str, error: str) -> str:
    """E.g. "You approved danger-full-access for one turn on builder's blocked report (rep_…), but Slack did not
    update the report message (ratelimited): it may still show buttons. A click on them changes nothing."."""
    what = _REPORT_DECIDED.get(status, "decided")
    return (
        f"You {what} on {_name(bot_name)}'s blocked report ({_code(report_id)}), but "
        f"Slack did not update the report message ({_code(error)}): it may still show "
        "buttons. A click on them changes nothing."
    )


def _name(bot_name: str) -> str:
    return mrkdwn_escape(one_line(clean(bot_name, multiline=False)))


def _code(text: str) -> str:
    """``text`` as one inline code span: one line, hidden characters visible, ``&<>`` escaped (no mention or link
    can come from it) and backticks replaced, so the span cannot be closed early."""
    inert = one_line(clean(text, multiline=False)).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f"`{inert.replace('`', chr(0x2035))}`"
