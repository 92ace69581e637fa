"""Console log lines never hand a terminal a control or hidden character from logged data.

A command holding ``ESC[...`` sequences (clear the screen, set the window title, colour), BEL, CR, or bidi controls
(U+202E) is data: in the console format each such character is written ``⟨U+001B⟩`` (bot.logs.console_safe), in
structlog's fields without spaces, in the event's message, in an exception's message and in the stdlib loggers'
lines (aiohttp's). In the JSON format every line is JSON, the stdlib loggers' too. Run in a real process with FlyBot's
own logging set-up, its stderr read as bytes.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.test_cli import clean_env

HOSTILE = "ls\x1b]0;owned\x07\x1b[2J\x1b[31m\u202e;rm\u2066-rf\u2069~\r\x9b"
"""Set the title, clear the screen, red, bidi override and isolates, a carriage return, and the C1 CSI."""

SCRIPT = f"""
import logging, structlog, sys
from bot.logs import configure_logging
configure_logging(sys.argv[1])
log = structlog.get_logger("flybot.test")
log.info("escalation.created", command={HOSTILE!r}, session_id="s-1", n=3)
log.info({HOSTILE!r})
logging.getLogger("aiohttp.server").warning("bad request line %s", {HOSTILE!r})
try:
    raise ValueError({HOSTILE!r})
except ValueError:
    log.exception("request.failed")
"""

RAW = ("\x1b", "\x07", "\r", "\x9b", "\u202e", "\u2066", "\u2069")


def _run(fmt: str, tmp: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, fmt], cwd=tmp, env=clean_env(), capture_output=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stderr.decode("utf-8")


def test_the_console_log_shows_control_and_hidden_characters_as_codes(tmp_path: Path) -> None:
    text = _run("console", tmp_path)
    for raw in RAW:
        assert raw not in text, (raw, text)
    lines = text.splitlines()
    created = next(line for line in lines if "escalation.created" in line)
    assert "ls⟨U+001B⟩]0;owned⟨U+0007⟩⟨U+001B⟩[2J⟨U+001B⟩[31m⟨U+202E⟩;rm⟨U+2066⟩-rf⟨U+2069⟩~⟨U+000D⟩⟨U+009B⟩" in created
    assert "session_id=s-1" in created and "n=3" in created  # plain values are written as before
    assert sum("ls⟨U+001B⟩]0;owned" in line for line in lines) == 4, text  # field, message, aiohttp, exception
    assert any(line.startswith("WARNING aiohttp.server: bad request line ls⟨U+001B⟩") for line in lines), text
    assert any(line.startswith("ValueError: ls⟨U+001B⟩") for line in lines), text
    assert "Traceback (most recent call last):" in lines, text  # a traceback keeps its line breaks


def test_json_lines_escape_them_already_and_keep_the_exact_text(tmp_path: Path) -> None:
    text = _run("json", tmp_path)
    for raw in RAW:
        assert raw not in text, (raw, text)
    created = next(json.loads(line) for line in text.splitlines() if "escalation.created" in line)
    assert created["command"] == HOSTILE  # the JSON value is the exact text, escaped on the wire
    records = [json.loads(line) for line in text.splitlines()]  # every line is JSON, the stdlib loggers' too
    stdlib = next(r for r in records if r.get("logger") == "aiohttp.server")
    assert stdlib["event"] == f"bad request line {HOSTILE}" and stdlib["level"] == "warning", stdlib
    assert stdlib["timestamp"].endswith("Z")


def test_a_slack_mode_servers_every_log_line_is_json_slack_bolts_warning_too(tmp_path: Path) -> None:
    """Slack mode with ``SLACK_BOT_TOKEN`` in the environment: slack_bolt warns that the token is unused (FlyBot
    hands it a client); that warning is a JSON line like every other one, and so is the settings' warning about a
    ``.env`` in the working directory (logged while the settings are read, before the log format is set up)."""
    (tmp_path / ".env").write_text("FLYBOT_ADMINS=U0EVIL01\n")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = clean_env(
        SLACK_BOT_TOKEN="xoxb-1234-5678-" + "z" * 24,
        SLACK_SIGNING_SECRET="s3cr3t-signing-" + "q" * 20,
        SLACK_API_URL="http://127.0.0.1:9/api/",  # never answers: nothing here needs Slack
        FLYBOT_LOG_FORMAT="json",
    )
    err = tmp_path / "serve.err"
    with err.open("wb") as stderr:
        server = subprocess.Popen(
            [sys.executable, "-m", "bot", "serve", "--port", str(port)],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=stderr,
            stdin=subprocess.DEVNULL,
        )
    try:
        assert server.stdout is not None
        assert b"FlyBot listening on" in server.stdout.readline(), err.read_text()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)
        if server.stdout is not None:
            server.stdout.close()
    lines = err.read_text().splitlines()
    records = [json.loads(line) for line in lines]  # every line is JSON
    bolt = [r for r in records if r.get("logger") == "flybot.bolt"]
    assert bolt and "token" in bolt[0]["event"] and bolt[0]["level"] == "warning", lines
    assert any(r["event"] == "flybot.started" for r in records), lines
    settings = [r for r in records if r.get("logger") == "bot.settings"]
    assert len(settings) == 1 and settings[0]["event"].startswith(f"ignoring {tmp_path}/.env"), lines
