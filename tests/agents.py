"""Where the real agent CLIs are for the end-to-end tests: ``$FLYBOT_TEST_AGENT_TOOLS/node_modules/.bin`` when set
(``.ci/run``'s run against the newest published versions), else ``.tools/`` (what ``.ci/run`` installs with npm,
pinned), else ``PATH``. Missing outside CI: the test is skipped; missing under CI (``CI=true``): the test fails."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOLS = Path(os.environ.get("FLYBOT_TEST_AGENT_TOOLS") or ROOT / ".tools") / "node_modules" / ".bin"


def agent_binary(name: str) -> str:
    """The path of the agent CLI ``name`` (``claude``, ``codex``); skips (or fails under CI) when it is missing."""
    local = TOOLS / name
    found = str(local) if local.exists() else shutil.which(name)
    if found is None:
        message = f"{name} is not installed (run .ci/run, or npm install --prefix .tools as it does)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found
