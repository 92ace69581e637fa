"""No token, signing secret or Authorization header in any log line, traceback or metric label.

A real ``flybot serve`` (JSON logs, then console logs) whose store is broken under it, so that authentication
itself fails with an exception; everything the process wrote is then searched for the secrets.
"""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.state_home import state_home
from tests.test_cli import clean_env

SIGNING_SECRET = "s3cr3t-signing-" + "q" * 20
SLACK_TOKEN = "xoxb-1234-5678-" + "z" * 24


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _request(url: str, token: str, body: dict[str, object] | None = None) -> int:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url,
        data=data,
        method="POST" if data else "GET",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def _wait_ready(server: subprocess.Popen[bytes], base: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"flybot serve did not start (exit {server.poll()})")


@pytest.mark.parametrize("log_format", ["json", "console"])
def test_an_error_inside_authentication_logs_no_token(tmp_path: Path, log_format: str) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    err = tmp_path / "serve.err"
    out = tmp_path / "serve.out"
    env = clean_env(FLYBOT_LOG_FORMAT=log_format, SLACK_SIGNING_SECRET=SIGNING_SECRET)
    server = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=out.open("w"),
        stderr=err.open("w"),
        stdin=subprocess.DEVNULL,
    )
    try:
        _wait_ready(server, base)
        token = json.loads((state_home() / "local.json").read_text())["token"]
        assert _request(f"{base}/v1/escalations/esc_1", token) == 404  # the token works
        with sqlite3.connect(state_home() / "flybot.db") as db:  # break authentication's own query
            db.execute("ALTER TABLE bots RENAME TO bots_gone")
        # The token that worked is now remembered in memory (FLYBOT_CACHE_TTL_S); a token not seen before makes
        # authentication query the broken table.
        unseen = token[:-6] + ("aaaaaa" if not token.endswith("aaaaaa") else "bbbbbb")
        for path, body in (
            ("/v1/escalations", {"command": "ls"}),
            ("/v1/escalations/esc_1", None),
            ("/v1/reports/rep_1", None),
        ):
            assert _request(f"{base}{path}", unseen, body) == 500
    finally:
        server.terminate()
        server.wait(timeout=20)
    logged = err.read_text() + out.read_text()
    assert "api.unhandled" in logged and ("Traceback" in logged or '"exc_type"' in logged), logged[-3000:]
    assert "bots" in logged  # the error itself is there, to be debugged
    for secret in (token, token[4:], unseen, unseen[4:], SIGNING_SECRET, f"Bearer {token}", f"Bearer {unseen}"):
        assert secret not in logged, f"{secret[:8]}... was logged"


def test_the_redactor_covers_secret_fields_and_token_shapes() -> None:
    from bot.logs import REDACTED, Redactor

    redactor = Redactor([SIGNING_SECRET])
    event = {
        "event": "x",
        "authorization": "Bearer abc",
        "bot_token": "fbt_whatever",
        "slack_signature": "v0=ab",
        "detail": f"with fbt_{'a' * 43} and {SLACK_TOKEN} and xapp-1-A0-123456 and {SIGNING_SECRET}",
        "nested": [{"cookie": "flybot_local_session=abc"}, "Authorization: Bearer tok-123456"],
    }
    cleaned = redactor(None, "info", dict(event))
    assert cleaned["authorization"] == cleaned["bot_token"] == cleaned["slack_signature"] == REDACTED
    assert cleaned["detail"] == f"with {REDACTED} and {REDACTED} and {REDACTED} and {REDACTED}"
    assert cleaned["nested"] == [{"cookie": REDACTED}, f"Authorization: Bearer {REDACTED}"]
    assert cleaned["event"] == "x"


def test_the_redactor_hides_a_urls_password_and_serve_passes_the_database_password() -> None:
    from bot.commands.server import _database_password
    from bot.logs import REDACTED, Redactor

    url = "postgresql+asyncpg://flybot:S3cr-et%21pw@db.internal:5432/flybot"
    line = Redactor().text(f"store unreachable at {url} (timeout)")
    assert "S3cr-et" not in line and f"postgresql+asyncpg://flybot:{REDACTED}@db.internal:5432/flybot" in line
    assert (
        Redactor().text("https://example.com/a@b and http://host:8080/x")
        == "https://example.com/a@b and http://host:8080/x"
    )
    assert _database_password(url) == ["S3cr-et!pw"] and _database_password("sqlite+aiosqlite:///./flybot.db") == []
    assert "S3cr-et!pw" not in Redactor(_database_password(url)).text("auth failed with password S3cr-et!pw")


def test_local_modes_login_key_and_session_cookie_are_never_logged(tmp_path: Path) -> None:
    script = (
        "import logging, structlog\n"
        "from bot.logs import configure_logging\n"
        "from bot.localchat.access import PageAccess\n"
        "configure_logging('json')\n"
        "access = PageAccess()\n"
        "print('KEY', access.key, access._session, flush=True)\n"
        "structlog.get_logger('t').warning('page.failed', url=access.login_url('http://127.0.0.1:8080'),\n"
        "                                  header='flybot_local_session=' + access._session)\n"
        "logging.getLogger('aiohttp.server').error('bad request line GET /?key=%s', access.key)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    _, key, session = result.stdout.split()
    assert "page.failed" in result.stderr and "bad request line" in result.stderr
    assert key not in result.stderr and session not in result.stderr, result.stderr


def test_a_token_after_an_escape_or_an_encoding_is_redacted_in_a_log_line(tmp_path: Path) -> None:
    """A token right after a word character is redacted, and escaping or encoding puts one there: a text with the
    token on its own line, shown with ``repr()`` or as JSON (``\\nfbt_...``), a URL-encoded ``Bearer%20fbt_...``;
    and so is a token after ``Bearer`` then a tab or two blanks."""
    from bot.logs import REDACTED, Redactor

    token = "fbt_" + "A1b2C3d4E5f6G7h8" * 2
    shown = {
        "repr": repr(f"token:\n{token}"),
        "json": json.dumps({"body": f"first line\n{token}"}),
        "slack": json.dumps(f"x\t{SLACK_TOKEN}"),
        "url": f"GET /hook?auth=Bearer%20{token}&x=a%3D{token}",
        "glued": f"MY_{token}",
        "tab": "Authorization: Bearer\tsome-token-123",
        "blanks": "Bearer  some-token-123",
    }
    cleaned = Redactor()(None, "info", dict(shown))
    for name, value in cleaned.items():
        assert token not in value and SLACK_TOKEN not in value and "some-token-123" not in value, (name, value)
        assert REDACTED in value
    assert cleaned["tab"] == f"Authorization: Bearer\t{REDACTED}" and cleaned["blanks"] == f"Bearer {REDACTED}"
    script = (  # and in the lines a configured FlyBot writes (structlog's and the stdlib loggers')
        "import json, logging, structlog\n"
        "from bot.logs import configure_logging\n"
        "configure_logging('json')\n"
        f"structlog.get_logger('t').warning('hook.failed', body=repr('token:\\n{token}'))\n"
        f"logging.getLogger('aiohttp.server').error('bad request line GET /?auth=Bearer%20{token}')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "hook.failed" in result.stderr and "bad request line" in result.stderr
    assert token not in result.stderr and token[4:20] not in result.stderr, result.stderr


def test_a_token_in_an_exception_bytes_an_object_or_a_dict_key_given_as_a_field_is_redacted(tmp_path: Path) -> None:
    """Values that are not text (an exception, bytes, any object) are redacted as the text the renderers write for
    them (``repr()``, ``__structlog__()``), and so are a dict's keys: a token in an exception's message, in bytes or
    in a key is redacted."""
    token = "fbt_" + "Q9w8E7r6T5y4U3i2" * 2
    script = (
        "import structlog\n"
        "from bot.logs import configure_logging\n"
        "import sys\n"
        "configure_logging(sys.argv[1])\n"
        "class Request:\n"
        '    def __repr__(self): return \'Request(headers={"Authorization": "Bearer %s"})\' % sys.argv[2]\n'
        "structlog.get_logger('t').warning('x.failed', error=ValueError('bad token ' + sys.argv[2]),\n"
        "    raw=sys.argv[2].encode(), request=Request(), seen={sys.argv[2]: 1}, items=(1, [b'x' + sys.argv[2].encode()]),\n"
        "    n=3, ok=True, none=None)\n"
    )
    for log_format in ("json", "console"):
        result = subprocess.run(
            [sys.executable, "-c", script, log_format, token],
            cwd=tmp_path,
            env=clean_env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
        assert "x.failed" in result.stderr and "ValueError" in result.stderr and "Request(" in result.stderr
        assert token not in result.stderr and token[4:20] not in result.stderr, result.stderr
        if log_format == "json":
            line = json.loads(result.stderr.strip().splitlines()[-1])
            assert (line["n"], line["ok"], line["none"]) == (3, True, None)


def _reference_redaction(secrets: list[str], value: str) -> str:
    """The redaction rule without the clean-string memory (what :meth:`Redactor.text` did before it remembered)."""
    import re

    from bot.logs import _SECRET_SHAPES, _URL_PASSWORD, REDACTED

    exact = sorted((re.escape(s) for s in secrets if len(s) >= 6), key=len, reverse=True)
    pattern = re.compile("|".join([*exact, *_SECRET_SHAPES]))
    return _URL_PASSWORD.sub(rf"\1{REDACTED}@", pattern.sub(REDACTED, value))


_PIECES = [
    "fbt_",
    "xoxb-",
    "xapp-",
    "Bearer ",
    "bearer ",
    "BEARER\t",
    "v0=",
    "://",
    "u:",
    "@",
    "a" * 8,
    "0123456789abcdef",
    " ",
    "\t",
    "\\n",
    "%20",
    "-",
    "_",
    "'",
    SIGNING_SECRET[:10],
    SIGNING_SECRET,
    "postgresql://flybot:pw@db/x",
    "esc_",
    "é",
]


@given(st.lists(st.lists(st.sampled_from(_PIECES) | st.text(max_size=6), max_size=12).map("".join), max_size=6))
@settings(max_examples=300, deadline=None)
def test_the_redactors_memory_of_clean_strings_changes_no_answer(values: list[str]) -> None:
    from bot.logs import Redactor

    redactor = Redactor([SIGNING_SECRET])
    for value in [*values, *values]:  # the second time from memory
        expected = _reference_redaction([SIGNING_SECRET], value)
        assert redactor.text(value) == expected
        event = redactor(None, "info", {"detail": value, "items": [value], "n": 1})  # as a log line's fields
        assert event == {"detail": expected, "items": [expected], "n": 1}


def test_a_string_remembered_clean_is_redacted_once_it_becomes_a_secret() -> None:
    from bot.logs import REDACTED, Redactor

    redactor = Redactor()
    value = "login key kq84hv2ax9"
    assert redactor.text(value) == value
    assert redactor.text(value) == value  # remembered clean
    redactor.add(["kq84hv2ax9"])  # like also_redact() with local mode's login key
    assert redactor.text(value) == f"login key {REDACTED}"
    assert redactor(None, "info", {"event": "x", "url": value})["url"] == f"login key {REDACTED}"


class _Shown:
    def __structlog__(self) -> str:
        return "shown"


def test_the_json_line_is_the_line_structlogs_own_processors_wrote() -> None:
    import re
    from datetime import UTC, datetime

    import structlog

    from bot.logs import JsonLine

    for method in ("info", "warn", "warning", "exception", "error"):
        event = {
            "escalation_id": "esc_1",
            "n": 3,
            "ok": True,
            "none": None,
            "ids": ["sa_1", "sa_2"],
            "nested": {"k": [1, 2.5]},
            "hidden": "ls\u202e\u2028x",
            "when": datetime(2026, 1, 2, tzinfo=UTC),
            "custom": _Shown(),
            "level": "given",
            "timestamp": "given",
            "event": "escalation.approved",
        }
        ours = JsonLine()(None, method, dict(event))
        theirs = structlog.processors.JSONRenderer()(
            None,
            method,
            structlog.processors.TimeStamper(fmt="iso", utc=True)(
                None, method, structlog.processors.add_log_level(None, method, dict(event))
            ),
        )
        stamp = re.compile(r'"timestamp": "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"')
        assert isinstance(ours, str) and isinstance(theirs, str)
        assert stamp.search(ours) and stamp.search(theirs), ours
        assert stamp.sub("T", ours) == stamp.sub("T", theirs), method
        assert ours.isascii()  # hidden characters stay escapes in the log


def test_each_json_log_line_is_one_write(tmp_path: Path) -> None:
    """A line and its newline go out in one write (one system call a line, where print() makes two),
    so lines of concurrent writers never interleave mid-line either."""
    script = (
        "import io, json, sys\n"
        "class Counting(io.TextIOBase):\n"
        "    def __init__(self): self.writes = []\n"
        "    def write(self, text): self.writes.append(text); return len(text)\n"
        "    def flush(self): pass\n"
        "sys.stderr = counting = Counting()\n"
        "import structlog\n"
        "from bot.logs import configure_logging\n"
        "configure_logging('json')\n"
        "log = structlog.get_logger('t')\n"
        "for i in range(3): log.info('escalation.approved', n=i)\n"
        "print(json.dumps(counting.writes))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    writes = json.loads(result.stdout)
    assert len(writes) == 3, writes
    assert all(w.endswith("\n") and w.count("\n") == 1 and json.loads(w)["n"] == i for i, w in enumerate(writes))


async def test_a_malformed_header_line_is_logged_without_any_credential_header_value(tmp_path: Path) -> None:
    """aiohttp's ``400`` for a header line holding a control character quotes the line; FlyBot logs it as the
    ``detail`` of ``http.bad_request``. The value of every credential-bearing header is left out of it, whatever its
    scheme: each case comes from its own loopback address, so each is the first of its kind and logged."""
    import base64

    from tests.served import exchange, serve

    async with serve(tmp_path) as served:
        basic = base64.b64encode(f"user:{served.token}".encode()).decode()
        cases = {
            "Cookie": "session=SECRETCOOKIE123",
            "Proxy-Authorization": "Basic c2VjcmV0OnBhc3M=",
            "Authorization": f"Basic {basic}",
            "authorization": "Digest username=u, response=SECRETDIGEST1",
            "X-FlyBot-Session": "SECRETPAGECREDENTIAL",
            "X-Slack-Signature": "v0=SECRETSIGNATURE",
            "Set-Cookie": "a=SECRETSETCOOKIE",
            "Cookie\x01": "b=SECRETNAMEDCTRL",
        }
        for n, (name, value) in enumerate(cases.items(), start=2):
            head = f"GET /healthz HTTP/1.1\r\nHost: flybot\r\n{name}: {value}\x01\r\n\r\n"
            status, _headers, _body = await exchange(served, head, source=f"127.0.0.{n}")
            assert status == 400, name
        plain = "GET /healthz HTTP/1.1\r\nHost: flybot\r\nAccept: text/x-plain-kept\x01\r\n\r\n"
        assert (await exchange(served, plain, source="127.0.0.99"))[0] == 400
        await served.logged('"who": "127.0.0.99"')
        served.stop()
        lines = served.lines()
    records = [json.loads(line) for line in lines]  # every line is JSON
    bad = [r for r in records if r["event"] == "http.bad_request"]
    assert len(bad) == len(cases) + 1, lines
    assert any("Accept: text/x-plain-kept" in r["detail"] for r in bad), bad  # other headers are quoted as they are
    logged = "\n".join(lines)
    for value in cases.values():
        for secret in (value, value.split()[-1], value.split("=", 1)[-1]):
            assert len(secret) < 6 or secret not in logged, (secret, logged)
    for secret in ("SECRET", basic, served.token, served.token[4:]):
        assert secret not in logged, (secret, logged)
    assert all("[redacted]" in r["detail"] for r in bad if r["who"] != "127.0.0.99"), bad
    assert any("Cookie" in r["detail"] for r in bad), bad  # the header's name stays, to be debugged
