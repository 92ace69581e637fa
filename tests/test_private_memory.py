"""The server's memory (signing secret, tokens) is out of reach of the other processes of its user, and reading
another process's memory is a secret read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl(2) is Linux's")
def test_the_server_process_is_not_dumpable() -> None:
    probe = (
        "import ctypes\n"
        "from bot.commands.server import keep_memory_private\n"
        "libc = ctypes.CDLL(None)\n"
        "before = libc.prctl(3, 0, 0, 0, 0)\n"  # PR_GET_DUMPABLE
        "assert keep_memory_private()\n"
        "print(before, libc.prctl(3, 0, 0, 0, 0))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "0"]


@pytest.mark.parametrize(
    "command",
    ["dd if=/proc/4242/mem bs=4096 skip=10 count=4", "cat /proc/self/mem", "cat /proc/4242/task/4243/mem"],
)
def test_reading_a_process_memory_is_a_secret_read(command: str) -> None:
    graded = classify(command, contained=False, workspace=Path("/home/dev/project"))
    assert graded.risk >= RiskLevel.NETWORK
    assert "secret-read" in {reason.rule for reason in graded.reasons}


@pytest.mark.parametrize("code_point", [0x180B, 0x180C, 0x180D, 0x180F, 0x16FE4])
def test_mongolian_selectors_and_the_khitan_filler_are_hidden_characters(code_point: int) -> None:
    graded = classify(f'echo "abc{chr(code_point)}def"', contained=False, workspace=Path("/home/dev/project"))
    assert "hidden-characters" in {reason.rule for reason in graded.reasons}
