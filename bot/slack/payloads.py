"""The shape of Slack's interactive payloads, slash commands and Events API callbacks, checked before bolt sees them.

A signed request is Slack's (or someone holding the signing secret), but its fields are still input: a payload
without ``user``, or with a field of another type than Slack's reference gives, is refused with a 400 and changes
nothing, instead of failing inside bolt or a listener (a 500 with a stack trace in the log). Only the fields FlyBot
or bolt read are checked; any other field passes as it is.

A submission of one of FlyBot's own modals (the deny reason, review and approve) may hold only that modal's inputs,
each of its element's shape: a state value of another type, a selected option where the modal has none, or an
input the modal does not have is refused.

Sources: Slack's "Reference: interaction payloads" (``block_actions``, ``view_submission``, ``view_closed``,
``shortcut``, ``message_action``, ``block_suggestion``), "Reference: view payloads" (``state.values``: per block id,
per action id, the element's ``type`` and its ``value``, ``selected_option`` or ``selected_options``), "Slash
commands" (the form fields) and "Events API: event types" (the ``event_callback`` envelope; ``message`` and
``app_home_opened``, the events FlyBot listens to).
"""

from __future__ import annotations

import json
from typing import Any, Literal
from urllib.parse import parse_qs

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cards import DENY_MODAL_CALLBACK, DENY_REASON_BLOCK, DENY_REASON_INPUT, REVIEW_MODAL_CALLBACK

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


class _Option(_Shape):
    value: str | None = None


class _Input(_Shape):
    """One input's state: its element's ``type`` and what was entered or picked."""

    type: str | None = None
    value: str | None = None
    selected_option: _Option | None = None
    selected_options: list[_Option] | None = None


class _State(_Shape):
    values: dict[str, dict[str, _Input]] = {}


class _View(_Shape):
    type: str | None = None
    id: str | None = None
    hash: str | None = None
    callback_id: str | None = None
    private_metadata: str | None = None
    state: _State | None = None


class _TextInput(BaseModel):
    """A ``plain_text_input``'s state: its type and the text (null when left empty), nothing else."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["plain_text_input"]
    value: str | None = None


_MODAL_INPUTS: dict[str, frozenset[tuple[str, str]]] = {
    DENY_MODAL_CALLBACK: frozenset({(DENY_REASON_BLOCK, DENY_REASON_INPUT)}),
    REVIEW_MODAL_CALLBACK: frozenset(),
}
"""The ``plain_text_input``s (block id, action id) each of FlyBot's own modals has, by ``callback_id``: the deny
modal's reason; none for review and approve."""


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
    "block_actions": _BlockActions,
    "block_suggestion": _Interaction,
    "view_submission": _ViewPayload,
    "view_closed": _ViewPayload,
    "shortcut": _Interaction,
    "message_action": _Interaction,
}


class _SlashCommand(_Shape):
    command: str
    user_id: str = Field(pattern=USER_ID_PATTERN)
    text: str = ""
    channel_id: str | None = None
    trigger_id: str | None = None


class _Event(_Shape):
    type: str
    subtype: str | None = None


class _MessageEvent(_Event):
    user: str | None = None
    bot_id: str | None = None
    channel: str | None = None
    channel_type: str | None = None
    text: str | None = None
    ts: str | None = None
    thread_ts: str | None = None
    message: dict[str, Any] | None = None


class _HomeOpenedEvent(_Event):
    user: str
    channel: str | None = None
    tab: str | None = None


class _EventCallback(_Shape):
    type: Literal["event_callback"]
    event: _Event
    event_id: str | None = None
    team_id: str | None = None
    api_app_id: str | None = None
    enterprise_id: str | None = None
    authorizations: list[dict[str, Any]] | None = None


class _UrlVerification(_Shape):
    type: Literal["url_verification"]
    challenge: str


_EVENT_BY_TYPE: dict[str, type[_Event]] = {"message": _MessageEvent, "app_home_opened": _HomeOpenedEvent}


def malformed(body: str, content_type: str) -> str | None:
    """Why the ``/slack/events`` request ``body`` (of ``content_type``) is not a payload FlyBot can act on; None when
    it is, or when it is none of the kinds checked here (it goes to bolt as it is).

    The reason names the first field in error (e.g. ``user: Field required``), never the value sent.
    """
    try:
        return _malformed(body, content_type)
    except RecursionError:  # JSON nested deeper than Python's parser or the checks can follow
        return "the payload is nested too deeply"


def _malformed(body: str, content_type: str) -> str | None:
    if content_type.startswith("application/json"):
        return _event_why(body)
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
        if shape is None:
            return None
        return _why(shape, payload) or (_modal_why(payload["view"]) if shape is _ViewPayload else None)
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


def _modal_why(view: dict[str, Any]) -> str | None:
    """Why a submission of one of FlyBot's own modals holds other inputs than the modal has (None: it does not)."""
    inputs = _MODAL_INPUTS.get(str(view.get("callback_id")))
    if inputs is None:
        return None
    for block, entered in ((view.get("state") or {}).get("values") or {}).items():
        for action, state in entered.items():
            if (block, action) not in inputs:
                return "view.state.values: an input this modal does not have"
            why = _why(_TextInput, state)
            if why is not None:
                return f"view.state.values.{block}.{action}.{why}"
    return None


def _event_why(body: str) -> str | None:
    """Why an Events API body is not of Slack's shape: an ``event_callback`` whose ``event`` is not an object with a
    string ``type`` (and, for the events FlyBot listens to, their fields' types), a ``url_verification`` without its
    ``challenge``. Other types go to bolt as they are."""
    try:
        payload = json.loads(body)
    except ValueError:
        return "body: not JSON"
    if not isinstance(payload, dict):
        return "body: a JSON object is required"
    if payload.get("type") == "url_verification":
        return _why(_UrlVerification, payload)
    if payload.get("type") != "event_callback":
        return None
    why = _why(_EventCallback, payload)
    if why is not None:
        return why
    shape = _EVENT_BY_TYPE.get(payload["event"]["type"])
    why = _why(shape, payload["event"]) if shape is not None else None
    return f"event.{why}" if why is not None else None
