"""``flybot serve``'s event loop (``FLYBOT_EVENT_LOOP``, for the CPU per request): uvloop where installed, the
standard library's on request, and one clear line when uvloop is asked for but missing. Real ``flybot serve``
processes on loopback; which loop a process runs is read from its memory map (uvloop is imported only when used)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import uvloop

from bot.commands.server import event_loop
from bot.state_home import state_home
from tests.test_cli import clean_env


def test_auto_and_uvloop_give_uvloop_loop_and_asyncio_the_standard_one() -> None:
    for choice, expected in (("auto", uvloop.Loop), ("uvloop", uvloop.Loop)):
        loop = event_loop(choice)
        try:
            assert isinstance(loop, expected), (choice, type(loop))
        finally:
            assert loop is not None
            loop.close()
    plain = event_loop("asyncio")
    try:
        assert isinstance(plain, asyncio.BaseEventLoop) and not isinstance(plain, uvloop.Loop)
    finally:
        assert plain is not None
        plain.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve(tmp_path: Path, choice: str | None) -> tuple[bool, int]:
    """Run ``flybot serve`` until /healthz answers; returns (uvloop's library is mapped in it, its exit code after
    SIGTERM)."""
    port = _free_port()
    env = clean_env(FLYBOT_PORT=str(port), **({"FLYBOT_EVENT_LOOP": choice} if choice else {}))
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, process.communicate()[1]
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                    assert answer.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline, "flybot serve did not come up"
                time.sleep(0.2)
        mapped = "uvloop" in Path(f"/proc/{process.pid}/maps").read_text()
    finally:
        process.terminate()
        process.wait(30)
    return mapped, process.returncode


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/<pid>/maps (Linux)")
@pytest.mark.parametrize(("choice", "uses_uvloop"), [(None, True), ("uvloop", True), ("asyncio", False)])
def test_flybot_serve_runs_on_the_chosen_loop_and_stops_cleanly(
    tmp_path: Path, choice: str | None, uses_uvloop: bool
) -> None:
    mapped, code = _serve(tmp_path, choice)
    assert mapped is uses_uvloop
    assert code == 0


def test_uvloop_asked_for_but_missing_is_one_line_naming_the_setting(tmp_path: Path) -> None:
    # The interpreter is told uvloop cannot be imported (as on a system without it); FlyBot itself is not touched.
    script = "import sys; sys.modules['uvloop'] = None; from bot.cli import run; sys.argv[1:] = ['serve']; run()"
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=clean_env(FLYBOT_EVENT_LOOP="uvloop", FLYBOT_PORT=str(_free_port())),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "FLYBOT_EVENT_LOOP=uvloop" in lines[0] and "FLYBOT_EVENT_LOOP=asyncio" in lines[0], lines[0]
    assert not (tmp_path / "flybot.db").exists() and not state_home().exists()  # nothing was started


def test_a_bad_event_loop_setting_is_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "serve"],
        cwd=tmp_path,
        env=clean_env(FLYBOT_EVENT_LOOP="tokio"),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2, result.stderr
    assert "event_loop" in result.stderr.lower() and "Traceback" not in result.stderr, result.stderr
