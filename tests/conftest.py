"""Shared fixtures: a real FlyBot against the Slack emulation, each test in its own temporary directory."""

from __future__ import annotations

import gc
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.harness import Harness
from tests.routing import replicas  # noqa: F401 - two replicas on SQLite or PostgreSQL (routing tests)

FREEZE_EVERY = 100
"""Tests between two moves of everything still alive into the collector's permanent generation (:func:`gc.freeze`).
A full run holds several hundred MB of long-lived objects (caches, module-scoped servers); a full collection over
them takes seconds on a loaded 2-core runner, and one landing inside a test stalls its event loop past deadlines it
tests (Slack's 3 s acknowledgement). Frozen objects are not scanned again, so collections stay short."""

_run: dict[str, Any] = {"tests": 0, "pauses": [], "started": 0.0}


def _timed_collection(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _run["started"] = time.perf_counter()
    elif info.get("generation") == 2:
        _run["pauses"].append(time.perf_counter() - _run["started"])


gc.callbacks.append(_timed_collection)


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
    _run["tests"] += 1
    if _run["tests"] % FREEZE_EVERY == 0:
        gc.collect()
        gc.freeze()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    pauses = _run["pauses"]
    if pauses:
        terminalreporter.write_line(
            f"full garbage collections: {len(pauses)}, longest {max(pauses):.2f} s, total {sum(pauses):.1f} s"
        )


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
