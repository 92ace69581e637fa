"""`flybot ask` checks a request before sending it, naming the server's limits; says when it is still
connecting; never caps --timeout silently. Real CLI subprocesses; a real FlyBot against the emulation."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.harness import Harness
from tests.test_cli import _ask, flybot


def test_a_request_flybot_would_refuse_is_refused_before_sending_with_the_limit_named(tmp_path: Path) -> None:
    down = ("--server", "http://127.0.0.1:9", "--token", "fbt_x")  # nothing listens: only a local check can answer
    huge = ["echo"] + ["a" * 999] * 201  # 200,000+ characters in several words
    cases = [
        ((*down, "--", *huge), "FlyBot takes at most 100,000"),
        ((*down, "--timeout", "3", "--", "ls"), "--timeout 3: FlyBot takes 5 to 86400 seconds"),
        ((*down, "--timeout", "100000", "--", "ls"), "FLYBOT_ESCALATION_TIMEOUT_S"),
        ((*down, "--cwd", str(tmp_path / "nonexistent"), "--", "ls"), "no such directory"),
    ]
    for args, expect in cases:
        result = flybot("ask", *args, cwd=tmp_path)
        assert result.returncode == 2, (args[:6], result.stderr[:300])
        (line,) = result.stderr.strip().splitlines()
        assert expect in line and "(nothing was sent)" in line and len(line) < 400, line
        assert "Asking FlyBot" not in result.stderr


def test_ask_says_it_is_still_connecting_when_flybot_does_not_answer(tmp_path: Path) -> None:
    result = flybot("ask", "--server", "http://127.0.0.1:9", "--token", "fbt_x", "--", "ls", cwd=tmp_path)
    assert result.returncode == 3
    lines = result.stderr.strip().splitlines()
    assert any("is not answering yet; trying for up to 10 s" in line for line in lines), lines


async def test_a_timeout_above_the_servers_maximum_is_warned_not_silently_capped(tmp_path: Path) -> None:
    harness = Harness(tmp=tmp_path, settings_overrides={"escalation_timeout_s": 60})
    await harness.start()
    try:
        token = await harness.add_bot()
        proc = await _ask(tmp_path, harness.url, token, "--timeout", "9999", "--", "sudo", "systemctl", "restart", "x")
        assert proc.stderr is not None
        warning = b""
        while b"maximum" not in warning:
            warning = await asyncio.wait_for(proc.stderr.readline(), 30)
            assert warning, "ask ended without a warning"
        assert b"--timeout 9999 is above this FlyBot's maximum of 60 s (FLYBOT_ESCALATION_TIMEOUT_S)" in warning
        proc.terminate()
        await asyncio.wait_for(proc.communicate(), 20)
    finally:
        await harness.close()


def test_exec_refuses_before_sending_what_flybot_would_refuse(tmp_path: Path) -> None:
    down = ("--server", "http://127.0.0.1:9", "--token", "fbt_x")
    timeout = flybot("exec", *down, "--timeout", "100000", "--", "rm", "-rf", "build", cwd=tmp_path)
    assert timeout.returncode == 125 and "FlyBot takes 5 to 86400 seconds" in timeout.stderr, timeout.stderr
    huge = flybot("exec", *down, "--", "rm", "-rf", *["b" * 999] * 120, cwd=tmp_path)
    assert huge.returncode == 126, huge.stderr
    assert "FlyBot takes at most 100,000 (checked before sending)" in huge.stderr
    assert len(huge.stderr) < 2000, "the command was echoed in full"
