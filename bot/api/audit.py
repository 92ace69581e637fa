"""``GET /v1/audit`` for admins (admin token): the audit trail, oldest first, a page at a time (issue 15 §5).

Query: ``after`` (the last ``id`` seen; default 0), ``since`` (``24h``, ``7d``...), ``bot`` (a Bot name), ``limit``
(1..500, default 100). Answer: ``{"items": [{id, at, event, escalation_id, actor, detail}], "next": after-or-null}``;
pass ``next`` back as ``after`` until it is null.
"""

from __future__ import annotations

from aiohttp import web

from bot.api.escalations import STORE
from bot.api.standing import _admin
from bot.audit import bot_id_of, entry_to_api, page_size, since_of
from bot.errors import InvalidRequest
from bot.escalations import utcnow


async def list_audit(request: web.Request) -> web.Response:
    """One page of the audit trail."""
    await _admin(request)
    store = request.app[STORE]
    after_text = request.query.get("after", "0")
    if not after_text.isdigit() or len(after_text) > 18:
        raise InvalidRequest("after: the id of the last row seen (a whole number)", field="after")
    limit = page_size(request.query.get("limit"))
    since = since_of(request.query.get("since"), utcnow())
    bot_id = await bot_id_of(store, request.query.get("bot"))
    rows = await store.audit_page(after_id=int(after_text), since=since, bot_id=bot_id, limit=limit)
    return web.json_response({"items": [entry_to_api(r) for r in rows],
                              "next": rows[-1].id if len(rows) == limit else None})


def add_routes(app: web.Application) -> None:
    """Register ``GET /v1/audit``."""
    app.router.add_get("/v1/audit", list_audit)
