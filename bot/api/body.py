"""Reading JSON request bodies at the HTTP edge: one place for every way a body can be bad."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from aiohttp import web

from bot.errors import InvalidRequest, NotFound, UnsupportedMediaType
from bot.storable import has_nul

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_PATH_ID = re.compile(r"[A-Za-z0-9_.-]{1,100}")
_HEADER_TEXT = re.compile(r"[\x20-\x7e]*")
_UTF8 = frozenset({"utf-8", "utf8"})


def control_character(value: str) -> str | None:
    """The first control character in ``value`` as ``U+000A``, or None.

    Control characters: C0 (U+0000-U+001F, newline and tab included), DEL and C1 (U+007F-U+009F), and the
    Unicode line and paragraph separators (U+2028, U+2029): each can break a one-line field into fake lines.
    """
    found = _CONTROL.search(value)
    return f"U+{ord(found.group()):04X}" if found else None


def single_line(value: str, field: str) -> str:
    """``value`` unchanged when it holds no control character (see :func:`control_character`).

    Raises:
        ValueError: naming the character, for pydantic validators (which add the field's name).
    """
    bad = control_character(value)
    if bad is not None:
        raise ValueError(f"{field} must be one line of text: control character {bad} is not allowed")
    return value


def path_id(request: web.Request, what: str) -> str:
    """The ``{id}`` path segment, when it can be an id (1-100 letters, digits, ``_ . -``).

    Anything else (a NUL, a control character, non-ASCII) cannot name a record, so it is a 404 here, before the
    store sees it (PostgreSQL refuses NUL in text with an error of its own).

    Raises:
        NotFound: ``no {what} {id!r}``.
    """
    value = request.match_info["id"]
    if _PATH_ID.fullmatch(value) is None:
        raise NotFound(f"no {what} with that id")
    return value


def header_text(request: web.Request, name: str, *, max_length: int) -> str | None:
    """A header's value when it is 1-``max_length`` printable ASCII characters; None when absent.

    Raises:
        InvalidRequest: naming the header, for anything else (non-ASCII or undecodable bytes, control characters,
            empty, too long).
    """
    value = request.headers.get(name)
    if value is None:
        return None
    if not (1 <= len(value) <= max_length) or _HEADER_TEXT.fullmatch(value) is None:
        raise InvalidRequest(f"{name} must be 1-{max_length} printable ASCII characters", field=name)
    return value


async def read_json_object(request: web.Request) -> dict[str, Any]:
    """The body as a JSON object.

    Raises:
        UnsupportedMediaType: a ``charset`` other than UTF-8 (JSON is UTF-8, RFC 8259 §8.1).
        InvalidRequest: not UTF-8, not JSON, nested too deeply to parse, not an object, an object naming a member
            twice, or holding a NUL character.
    """
    charset = request.charset
    if charset is not None and charset.lower() not in _UTF8:
        raise UnsupportedMediaType("send the JSON body as UTF-8 (charset=utf-8, or no charset)", field="Content-Type")
    raw = await request.read()
    try:
        body = json.loads(
            raw.decode("utf-8"), parse_constant=_not_json, parse_float=_finite, object_pairs_hook=_unique_names
        )
    except _NameTwice as exc:
        raise InvalidRequest(f"the body names {exc.name!r} twice in one object", field="body") from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise InvalidRequest("the body must be a JSON object", field="body") from None
    if not isinstance(body, dict):
        raise InvalidRequest("the body must be a JSON object", field="body")
    # JSON can only carry a NUL as the escape \u0000 (a raw control character in a string is not JSON): without
    # those six bytes no string holds one, and the walk is skipped.
    if b"\\u0000" in raw and has_nul(body):
        raise InvalidRequest("text may not contain NUL (\\u0000) characters", field="body")
    # An unpaired surrogate can only come as an escape (\ud800 ... \udfff; UTF-8 has no form for one): it has no
    # UTF-8 form, so neither a store's text nor a chat message can carry it.
    if _SURROGATE_ESCAPE.search(raw) is not None and has_nul(body, surrogates=True):
        raise InvalidRequest("text may not contain unpaired surrogates (\\ud800-\\udfff)", field="body")
    return body


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class _NameTwice(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name[:100]


def _unique_names(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members as a dict; a name given twice is refused. RFC 8259 §4 leaves the meaning of such an
    object to each parser (Python's keeps the last, others the first), so a body that says two things is not
    taken."""
    members = dict(pairs)
    if len(members) != len(pairs):
        seen: set[str] = set()
        for name, _value in pairs:
            if name in seen:
                raise _NameTwice(name)
            seen.add(name)
    return members


def _not_json(constant: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity``, which Python's json module reads but JSON (RFC 8259 §6) has not: a
    store's JSON column (PostgreSQL's ``json``) refuses them."""
    raise ValueError(f"{constant} is not a JSON number")


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent as a float; one beyond a float's range (``1e400``, which Python reads
    as infinity) is refused, as :func:`_not_json`."""
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"{text} is beyond a float's range")
    return value
