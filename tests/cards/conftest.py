"""Test setup for tests/cards: make the repository root importable when flybot is not pip-installed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parents[2]
if importlib.util.find_spec("cards") is None:  # pragma: no cover - depends on how pytest is started
    sys.path.insert(0, str(_REPO_ROOT))
