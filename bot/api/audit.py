"""``GET /v1/audit`` for admins (admin token): the audit trail, oldest first, a page at a time, or all of it as JSON
Lines for a SIEM.

Query: ``after`` (the last ``id`` seen; default 0), ``since`` and ``until`` (a duration like ``24h``, ``7d``, or an
RFC 3339 time such as ``2026-12-01T09:00:00Z``; rows at or after ``since`` and before ``until``), ``bot`` (a Bot
name), ``limit`` (1..500, default 100), ``format`` (``json``, the default, or ``jsonl``).

- JSON: ``{"items": [{id, at, event, escalation_id, actor, detail}], "next": after-or-null}``; pass ``next`` back
  as ``after`` until it is null.
- JSON Lines (``format=jsonl``, or ``Accept: application/x-ndjson``): every matching row after ``after``, one JSON
  object a line (the same shape as an item), streamed as ``application/x-ndjson`` a page of
  :data:`bot.audit.MAX_PAGE` rows at a time: memory stays one page whatever the trail's length. ``limit`` is
  ignored. A client that stops reading stops the export.

Every string is shown redacted (:func:`bot.audit.entry_to_api`).
"""

from __future__ import annotations

import json

from aiohttp import web

from bot.api.escalations import STORE
from bot.api.standing import _admin
from bot.audit import MAX_PAGE, bot_id_of, entry_to_api, page_size, since_of, until_of
from bot.errors import InvalidRequest
from bot.escalations import utcnow

NDJSON = "application/x-ndjson"


def wants_lines(request: web.Request) -> bool:
    """True for the JSON Lines export (``format=jsonl`` or an ``Accept`` naming ``application/x-ndjson``).

    Raises InvalidRequest for a ``format`` other than ``json`` or ``jsonl``."""
    shape = request.query.get("format")
    if shape is not None and shape not in ("json", "jsonl"):
        raise InvalidRequest("format: json or jsonl", field="format")
    if shape is not None:
        return shape == "jsonl"
    return NDJSON in request.headers.get("Accept", "")


async def list_audit(request: web.Request) -> web.StreamResponse:
    """One page of the audit trail, or (JSON Lines) all of it from ``after``."""
    await _admin(request)
    store = request.app[STORE]
    after_text = request.query.get("after", "0")
    if not after_text.isdigit() or len(after_text) > 18:
        raise InvalidRequest("after: the id of the last row seen (a whole number)", field="after")
    lines = wants_lines(request)
    limit = MAX_PAGE if lines else page_size(request.query.get("limit"))
    now = utcnow()
    since = since_of(request.query.get("since"), now)
    until = until_of(request.query.get("until"), now)
    bot_id = await bot_id_of(store, request.query.get("bot"))
    after = int(after_text)
    rows = await store.audit_page(after_id=after, since=since, until=until, bot_id=bot_id, limit=limit)
    if not lines:
        return web.json_response(
            {"items": [entry_to_api(r) for r in rows], "next": rows[-1].id if len(rows) == limit else None}
        )
    response = web.StreamResponse(headers={"Content-Type": NDJSON, "Cache-Control": "no-store"})
    await response.prepare(request)
    while rows:
        await response.write("".join(json.dumps(entry_to_api(r)) + "\n" for r in rows).encode())
        if len(rows) < limit:
            break
        rows = await store.audit_page(after_id=rows[-1].id, since=since, until=until, bot_id=bot_id, limit=limit)
    await response.write_eof()
    return response


def add_routes(app: web.Application) -> None:
    """Register ``GET /v1/audit``."""
    app.router.add_get("/v1/audit", list_audit)
