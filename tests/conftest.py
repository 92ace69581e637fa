"""Shared fixtures: a real FlyBot against the Slack emulation, each test in its own temporary directory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.harness import Harness
from tests.routing import replicas  # noqa: F401 - two replicas on SQLite or PostgreSQL (routing tests)


@pytest.fixture(autouse=True)
def _xdg_state_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test's user state directory (``XDG_STATE_HOME``): a fresh one outside the test's ``tmp_path`` (where
    tests start ``flybot`` as a workspace would), never the real ``~/.local/state``. Returns FlyBot's default home
    in it, ``$XDG_STATE_HOME/flybot`` (not created)."""
    base = tmp_path_factory.mktemp("xdg-state")
    monkeypatch.setenv("XDG_STATE_HOME", str(base))
    return base / "flybot"


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(tmp=tmp_path)
    await h.start()
    try:
        yield h
    finally:
        await h.close()
