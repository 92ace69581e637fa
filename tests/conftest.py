"""Shared fixtures: a real FlyBot against the Slack emulation, each test in its own temporary directory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.harness import Harness
from tests.routing import replicas  # noqa: F401 - two replicas on SQLite or PostgreSQL (issue 16's tests)


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(tmp=tmp_path)
    await h.start()
    try:
        yield h
    finally:
        await h.close()
