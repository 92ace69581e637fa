"""mobile"""

from __future__ import annotations

CATALOGUE: dict[str, object] = {}
