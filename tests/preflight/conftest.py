"""Fixtures for the preflight tests (helpers live in ``preflight_support``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# Until the project's pytest config sets ``pythonpath = ["."]`` (or flybot is installed in the venv), the bare
# ``pytest`` script cannot import ``bot``: put the repository root first on sys.path for these tests.
_REPO = str(Path(__file__).resolve().parents[2])
if _REPO not in sys.path:
    sys.path.insert(0, _REPO)

from preflight_support import FakeHost  # noqa: E402


@pytest.fixture
def host(tmp_path: Path) -> FakeHost:
    """A Linux host with no bwrap on PATH and an lsm file without landlock (i.e. blocked)."""
    return FakeHost(tmp_path).lsm("lockdown,capability,yama,apparmor")
