"""Reading JSON request bodies at the HTTP edge: one place for every way a body can be bad."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from bot.errors import InvalidRequest


def has_nul(value: Any) -> bool:
    """True when any string (key or value) in the parsed JSON holds U+0000 (PostgreSQL text cannot store it)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


async def read_json_object(request: web.Request) -> dict[str, Any]:
    """The body as a JSON object.

    Raises:
        InvalidRequest: not UTF-8, not JSON, nested too deeply to parse, not an object, or holding a NUL character.
    """
    try:
        body = json.loads(await request.text())
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise InvalidRequest("the body must be a JSON object", field="body") from None
    if not isinstance(body, dict):
        raise InvalidRequest("the body must be a JSON object", field="body")
    if has_nul(body):
        raise InvalidRequest("text may not contain NUL (\\u0000) characters", field="body")
    return body
