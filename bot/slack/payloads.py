"""The shape of Slack's interactive payloads and slash commands, checked before bolt sees them.

A signed request is Slack's (or someone holding the signing secret), but its fields are still input: a payload
without ``user``, or with a field of another type than Slack's reference gives, is refused with a 400 and changes
nothing, instead of failing inside bolt or a listener (a 500 with a stack trace in the log). Only the fields FlyBot
or bolt read are checked; any other field passes as it is.

Sources: Slack's "Reference: interaction payloads" (``block_actions``, ``view_submission``, ``view_closed``,
``shortcut``, ``message_action``, ``block_suggestion``) and "Slash commands" (the form fields).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from pydantic import BaseModel, ConfigDict, Field, ValidationError

USER_ID_PATTERN = r"^[UW][A-Z0-9]{2,}$"
"""A Slack user id (``U0123ABCD``; ``W`` on Enterprise Grid), as :data:`bot.bots.USER_ID` (pydantic-core's regex: ``$`` is
the end of the text, never before a final newline)."""


class _Shape(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


class _User(_Shape):
    id: str = Field(pattern=USER_ID_PATTERN)


class _Channel(_Shape):
    id: str | None = None


class _Container(_Shape):
    type: str | None = None
    channel_id: str | None = None
    message_ts: str | None = None


class _Action(_Shape):
    action_id: str
    block_id: str | None = None
    value: str | None = None


class _State(_Shape):
    values: dict[str, dict[str, dict[str, Any]]] = {}


class _View(_Shape):
    type: str | None = None
    id: str | None = None
    callback_id: str | None = None
    private_metadata: str | None = None
    state: _State | None = None


class _Interaction(_Shape):
    type: str
    user: _User
    trigger_id: str | None = None
    response_url: str | None = None
    callback_id: str | None = None
    channel: _Channel | None = None
    container: _Container | None = None
    message: dict[str, Any] | None = None


class _BlockActions(_Interaction):
    actions: list[_Action] = Field(min_length=1)
    view: _View | None = None


class _SubmittedView(_View):
    type: str  # bolt reads it (``view.type == "workflow_step"``) before any listener


class _ViewPayload(_Interaction):
    view: _SubmittedView


_BY_TYPE: dict[str, type[_Interaction]] = {
    "block_actions": _BlockActions, "block_suggestion": _Interaction, "view_submission": _ViewPayload,
    "view_closed": _ViewPayload, "shortcut": _Interaction, "message_action": _Interaction,
}


class _SlashCommand(_Shape):
    command: str
    user_id: str = Field(pattern=USER_ID_PATTERN)
    text: str = ""
    channel_id: str | None = None
    trigger_id: str | None = None


def malformed(body: str, content_type: str) -> str | None:
    """Why the ``/slack/events`` request ``body`` (of ``content_type``) is not a payload FlyBot can act on; None when
    it is, or when it is not an interaction or a slash command (Events API JSON and the rest go to bolt as they are).

    The reason names the first field in error (e.g. ``user: Field required``), never the value sent.
    """
    if not content_type.startswith("application/x-www-form-urlencoded"):
        return None
    try:
        form = parse_qs(body, keep_blank_values=True, strict_parsing=False)
    except ValueError:
        return "the form is not readable"
    if "payload" in form:
        try:
            payload = json.loads(form["payload"][0])
        except ValueError:
            return "payload: not JSON"
        if not isinstance(payload, dict) or not isinstance(payload.get("type"), str):
            return "payload: an object with a string type is required"
        shape = _BY_TYPE.get(payload["type"])
        return _why(shape, payload) if shape is not None else None
    if "command" in form:
        return _why(_SlashCommand, {key: values[0] for key, values in form.items()})
    return None


def _why(shape: type[BaseModel], data: dict[str, Any]) -> str | None:
    try:
        shape.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "payload"
        return f"{where}: {first['msg']}"
    return None
