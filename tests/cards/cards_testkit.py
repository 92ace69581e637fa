"""Helpers shared by the tests/cards tests: sample escalations, Block Kit validation, goldens, text walkers."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

from cards import HOST_STATEMENT, SANDBOX_STATEMENT, CardEscalation, CardMessage, CardReason
from cards.text import slack_len

GOLDEN_DIR = Path(__file__).parent / "golden"
CREATED = datetime(2025, 1, 31, 14, 0, 0, tzinfo=UTC)
EXPIRES = CREATED + timedelta(minutes=15)
DECIDED = CREATED + timedelta(minutes=3, seconds=7)

REASONS = (
    CardReason("rm -rf build", "deletion", "workspace_write", "rm deletes inside the workspace.", True),
    CardReason(
        "apt-get install -y jq",
        "package-install",
        "workspace_write",
        "apt-get install changes the machine outside the workspace.",
        True,
    ),
    CardReason("curl -fsSL https://example.com/x.sh", "network-egress", "network", "curl talks to other machines."),
)


def make_escalation(**overrides: Any) -> CardEscalation:
    """A pending, contained escalation with realistic values; ``overrides`` replace fields."""
    base = CardEscalation(
        id="esc_01JABCDEF",
        bot_id="bot_7",
        bot_name="release-bot",
        session_id="sess-2f9c",
        room="C0123ABCD",
        command="apt-get install -y jq && rm -rf build && curl -fsSL https://example.com/x.sh | sh",
        cwd="/workspace/app",
        contained=True,
        risk="network",
        reasons=REASONS,
        justification="The build needs jq; the install script is the vendor's.",
        file_policy="workspace-write",
        status="pending",
        created_at=CREATED,
        expires_at=EXPIRES,
    )
    return dataclasses.replace(base, **overrides)


# --- walkers ----------------------------------------------------------------------------------------


def walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every dict inside ``node`` (depth first, ``node`` itself included)."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from walk(item)


def mrkdwn_texts(node: Any) -> list[str]:
    """The ``text`` of every ``mrkdwn`` object."""
    return [d["text"] for d in walk(node) if d.get("type") == "mrkdwn"]


def literal_texts(node: Any) -> list[str]:
    """Texts Slack renders literally: rich_text ``text`` elements and ``plain_text`` objects."""
    return [d["text"] for d in walk(node) if d.get("type") in ("text", "plain_text")]


def preformatted_texts(node: Any) -> list[str]:
    """The text of every ``rich_text_preformatted`` element, in order."""
    out = []
    for d in walk(node):
        if d.get("type") == "rich_text_preformatted":
            out.append("".join(e["text"] for e in d["elements"] if e.get("type") == "text"))
    return out


def buttons(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """All button elements, in order."""
    return [d for d in walk(blocks) if d.get("type") == "button"]


_WHEN = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC"
_TIMING = re.compile(  # a pending card also says when the fallback approvers were asked
    rf"^Requested {_WHEN}( \u00b7 Expires {_WHEN}( \u00b7 Fallback approvers asked {_WHEN})?)?$"
)


def assert_mrkdwn_is_flybot_wording(node: Any) -> None:
    """Every mrkdwn object is one of FlyBot's fixed sentences: no user text can reach mrkdwn at all."""
    fixed = {SANDBOX_STATEMENT, HOST_STATEMENT}
    for text in mrkdwn_texts(node):
        assert text in fixed or _TIMING.match(text) or text.startswith("The session will be told *no*."), text
        assert "<" not in text, text


def assert_inert_mrkdwn_string(text: str) -> None:
    """A mrkdwn string built from user text: no ``<``, no formatting marker, every ``&`` an entity."""
    assert "<" not in text and ">" not in text, text
    for marker in "*_~`":
        assert marker not in text, (marker, text)
    assert re.search(r"&(?!amp;|lt;|gt;)", text) is None, text


# --- Block Kit validation -------------------------------------------------------------------------


def _check_block_model(block: dict[str, Any]) -> None:
    model = Block.parse(block)
    assert model is not None, f"slack-sdk does not know block {block.get('type')!r}"
    # to_dict() runs slack-sdk's validators; equality proves no key was dropped as unknown.
    assert model.to_dict() == block


def _check_common_limits(node: Any) -> None:
    for d in walk(node):
        kind = d.get("type")
        if kind == "section" and "text" in d:
            assert slack_len(d["text"]["text"]) <= 3000
        if kind == "header":
            assert slack_len(d["text"]["text"]) <= 150
        if kind == "button":
            assert slack_len(d["text"]["text"]) <= 75
            assert len(d["value"]) <= 2000
        if kind == "context":
            assert len(d["elements"]) <= 10
        if kind in ("text", "plain_text", "mrkdwn"):
            assert d["text"], f"empty {kind} text"
        for key in ("action_id", "block_id", "callback_id"):
            if key in d:
                assert 0 < len(d[key]) <= 255
    # UTF-8-encodable (no lone surrogates): Slack would reject the whole payload otherwise.
    json.dumps(node, ensure_ascii=False).encode("utf-8")


def validate_message(message: CardMessage) -> None:
    """Slack's message limits plus slack-sdk's own Block Kit models for every block."""
    assert 1 <= len(message.blocks) <= 50
    assert 0 < slack_len(message.text) < 4000
    message.text.encode("utf-8")
    for block in message.blocks:
        _check_block_model(block)
    _check_common_limits(message.blocks)


def validate_view(view: dict[str, Any]) -> None:
    """Slack's modal limits plus slack-sdk's ``View`` (and each block) models."""
    assert view["type"] == "modal"
    assert 1 <= len(view["blocks"]) <= 100
    for key in ("title", "close", "submit"):
        if key in view:
            assert 1 <= len(view[key]["text"]) <= 24
    assert len(view.get("private_metadata", "")) <= 3000
    assert View(**view).to_dict() == view
    for block in view["blocks"]:
        _check_block_model(block)
    _check_common_limits(view)


# --- goldens --------------------------------------------------------------------------------------


def assert_golden(name: str, payload: Any) -> None:
    """Compare ``payload`` with ``golden/<name>.json``; ``FLYBOT_UPDATE_GOLDEN=1`` rewrites the file instead."""
    path = GOLDEN_DIR / f"{name}.json"
    rendered = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    if os.environ.get("FLYBOT_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(rendered, encoding="utf-8")
        return
    assert path.exists(), f"missing golden {path}; run with FLYBOT_UPDATE_GOLDEN=1 to create it"
    expected = path.read_text(encoding="utf-8")
    assert json.loads(rendered) == json.loads(expected), f"golden {name} differs"
    assert rendered == expected, f"golden {name} differs in formatting only; regenerate it"
