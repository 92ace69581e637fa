"""``/v1/escalations``: create, long-poll and withdraw (bearer token of the Bot)."""

from __future__ import annotations

import json

from aiohttp import web

from bot.api.body import header_text, path_id, read_json_object
from bot.api.models import EscalationIn
from bot.bots import authenticate
from bot.errors import InvalidRequest
from bot.escalations import EscalationRequest, EscalationService, ToolCall
from bot.risk.recipes import Recipe, RecipeLine
from bot.slack.directory import Names
from bot.store import Escalation, Store
from bot.wire import escalation_to_api

SERVICE = web.AppKey("escalation_service", EscalationService)
STORE = web.AppKey("store", Store)
NAMES = web.AppKey("names", Names)
PEOPLE_SOURCES = frozenset({"owner", "admin", "fallback", "standing_approval"})
"""Decision sources whose ``decided_by`` is a person (or an operator): the ones ``decided_by_name`` names."""
MAX_WAIT_S = 60
IDEMPOTENCY_KEY_MAX = 200


async def create(request: web.Request) -> web.Response:
    """``POST /v1/escalations`` -> 201 with the escalation; a repeated ``Idempotency-Key`` answers the same one (no second card)."""
    bot = await authenticate(request.app[STORE], request.headers.get("Authorization"))
    data = EscalationIn.model_validate(await read_json_object(request))
    key = header_text(request, "Idempotency-Key", max_length=IDEMPOTENCY_KEY_MAX)
    recipes = (
        tuple(
            Recipe(
                r.tool,
                r.target,
                tuple(RecipeLine(x.source, x.command) for x in r.lines),
                r.directory,
                r.file,
                tuple(sorted(r.overrides)),
            )
            for r in data.recipes
        )
        if data.recipes
        else ()
    )
    asked = EscalationRequest(  # every field of EscalationIn (tests/test_session_api.py checks none is left out)
        session_id=data.session_id,
        command=data.command,
        cwd=data.cwd,
        file_policy=data.file_policy,
        approval_policy=data.approval_policy,
        contained=data.contained,
        justification=data.justification,
        room=data.room,
        timeout_s=data.timeout_s,
        recipes=recipes,
        tool=ToolCall(data.tool.name, data.tool.input, data.tool.resolved_path) if data.tool is not None else None,
        state_paths=tuple(data.state_paths or ()),
    )
    escalation = await request.app[SERVICE].escalate(bot, asked, key)
    body = json.dumps(await shown(request, escalation)).encode()
    return web.Response(body=body, status=201, content_type="application/json", charset="utf-8")


async def get(request: web.Request) -> web.Response:
    """``GET /v1/escalations/{id}?wait=SECONDS`` (0..60): answers at once when decided, else when the wait ends."""
    bot = await authenticate(request.app[STORE], request.headers.get("Authorization"))
    raw = request.query.get("wait", "0")
    try:
        wait = float(raw)
    except ValueError:
        raise InvalidRequest("wait must be a number of seconds from 0 to 60", field="wait") from None
    if not 0 <= wait <= MAX_WAIT_S:
        raise InvalidRequest("wait must be a number of seconds from 0 to 60", field="wait")
    escalation = await request.app[SERVICE].wait(bot, path_id(request, "escalation"), wait)
    name = await decider_name(request, escalation)
    return web.Response(body=_BODIES.body(escalation, name), content_type="application/json", charset="utf-8")


async def withdraw(request: web.Request) -> web.Response:
    """``POST /v1/escalations/{id}/withdraw``: the session no longer needs it (409 if already decided)."""
    bot = await authenticate(request.app[STORE], request.headers.get("Authorization"))
    escalation = await request.app[SERVICE].withdraw(bot, path_id(request, "escalation"))
    return web.json_response(await shown(request, escalation))


async def shown(request: web.Request, escalation: Escalation) -> dict[str, object]:
    """``escalation_to_api(escalation)`` plus ``decided_by_name`` (:func:`decider_name`)."""
    body = escalation_to_api(escalation)  # a new dict: the name is added last
    body["decided_by_name"] = await decider_name(request, escalation)
    return body


async def decider_name(request: web.Request, escalation: Escalation) -> str | None:
    """Who decided as people read it (``@Olivia``; the standing approval's author for ``standing_approval``;
    ``operator:alice`` as is; the id itself when chat cannot name it), None when no person decided (pending, timeout,
    the session, a delivery failure: no lookup at all). An approval given by two people (the two-person rule) names
    both, in the order they approved: ``@Olivia and @Otto``. Looked up once per person and cached
    (:class:`bot.slack.directory.Names`), at most a second when chat is slow."""
    who = escalation.decided_by
    if not who or escalation.decision_source not in PEOPLE_SOURCES:
        return None
    people = [who]
    if escalation.status == "approved" and escalation.decision_source != "standing_approval":
        approvers = [a for a in escalation.approvers if a]
        if len(approvers) > 1 and who in approvers:
            people = approvers
    names = request.app.get(NAMES)
    shown = [await names.person(p) for p in people] if names is not None else people
    return " and ".join(shown) if len(shown) <= 2 else f"{', '.join(shown[:-1])} and {shown[-1]}"


class _Bodies:
    """The JSON body of an escalation object, encoded once: long-polls answered from one store read (or one
    snapshot, :meth:`bot.waiters.WaiterHub.read_through`) share the same object, so 10,000 of them answering at
    the end of their wait encode it once, not 10,000 times. Keyed by id, valid only for the very same object.

    Bodies longer than ``max_bytes`` are encoded each time and not kept: a 100,000-character command is up to 600 KB
    of JSON (``\\u00e9`` escapes), and 4096 of them, with their escalations, would pin gigabytes for one Bot that
    made and polled many. An ordinary body is 1-2 KB.
    """

    def __init__(self, size: int = 4096, max_bytes: int = 16_384) -> None:
        self._size = size
        self._max_bytes = max_bytes
        self._bodies: dict[str, tuple[Escalation, str | None, bytes]] = {}

    def body(self, escalation: Escalation, decided_by_name: str | None) -> bytes:
        """``json.dumps({**escalation_to_api(escalation), "decided_by_name": ...})`` as UTF-8 bytes (:func:`decider_name`)."""
        found = self._bodies.get(escalation.id)
        if found is not None and found[0] is escalation and found[1] == decided_by_name:
            return found[2]
        if len(self._bodies) >= self._size:
            self._bodies.clear()
        body = json.dumps({**escalation_to_api(escalation), "decided_by_name": decided_by_name}).encode()
        if len(body) <= self._max_bytes:
            self._bodies[escalation.id] = (escalation, decided_by_name, body)
        return body


_BODIES = _Bodies()


def add_routes(app: web.Application) -> None:
    """Register the escalation routes."""
    app.router.add_post("/v1/escalations", create)
    app.router.add_get("/v1/escalations/{id}", get)
    app.router.add_post("/v1/escalations/{id}/withdraw", withdraw)
