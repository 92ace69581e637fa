"""What text every store can hold: no U+0000 (PostgreSQL's ``text`` refuses it) and no unpaired surrogate (it has
no UTF-8 form). Used at the edges (the session API's JSON bodies, Slack's payloads) to refuse such input before
anything is stored."""

from __future__ import annotations

import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")


def has_nul(value: Any, *, surrogates: bool = False) -> bool:
    """True when any string (key or value) in the parsed JSON holds U+0000 (PostgreSQL text cannot store it), or
    with ``surrogates`` an unpaired surrogate (``"\\ud800"`` in JSON: no UTF-8 form, so no store can hold it)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item or (surrogates and _SURROGATE.search(item)):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False
