"""The local chat page in a real browser against a real ``flybot serve`` (local mode) and a real ``flybot ask``.

Covers: the page works only after the login URL ``flybot serve`` printed (without it, no data and a line saying
to open that URL; under ``localhost`` a page naming the printed address; the key is in no file under the working
directory; no cookie is set); the approval card renders (command, "Runs on the host"); the owner's Approve makes ``flybot ask`` exit 0;
a non-owner's Approve is refused with an ephemeral message and changes nothing; the owner's Deny opens the reason
modal, whose reason reaches ``flybot ask`` (exit 1). Needs Debian's chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bot.commands.server import LOGIN_FILE
from bot.state_home import state_home

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OWNER, OTHER = "U0OWNER01", "U0OTHER01"
APPROVALS = "C0APPROVE"
REASON = "use the staging mirror instead, not the host"
LEAD_SCREENSHOT = Path("/tmp/flybot-page.png")

pytestmark = pytest.mark.timeout(180)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_") and k != "FLYBOT_STATE_DIR"}
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _http_json(url: str, token: str | None = None) -> dict[str, Any]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    with urllib.request.urlopen(request, timeout=5) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def _wait_healthy(server: subprocess.Popen[bytes], base: str, log: Path, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            break
        try:
            if _http_json(f"{base}/healthz").get("status") == "ok":
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.2)
    server.terminate()
    try:
        server.wait(timeout=5)
    except subprocess.TimeoutExpired:
        server.kill()
    print(f"flybot serve did not become healthy (exit {server.returncode}); its stderr:\n{log.read_text()}")
    pytest.fail(f"flybot serve did not answer /healthz within {timeout:.0f}s (exit code {server.returncode})")


def _printed_login_url(out: Path, base: str) -> str:
    """The newest ``http://127.0.0.1:PORT/?key=...`` URL ``flybot serve`` gave (printed on a terminal; else in its
    state's :data:`~bot.commands.server.LOGIN_FILE`): the first is given before
    /healthz answers 200 only once the store is open, so by then it is in the file; each login uses its key up and
    the server prints the next one."""
    found = [word for word in out.read_text().split() if word.startswith(f"{base}/?key=")]
    if not found and (state_home() / LOGIN_FILE).exists():  # stdout is no terminal: the URL is in the state
        found = [(state_home() / LOGIN_FILE).read_text().strip()]
    if not found:
        pytest.fail(f"flybot serve printed no login URL; its output:\n{out.read_text()}")
    return found[-1]


def _ask(cwd: Path, out: Path, *command: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "ask", "--timeout", "120", "--", *command],
        cwd=cwd,
        env=_env(),
        stdout=out.open("w"),
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )


def _finish(proc: subprocess.Popen[bytes], out: Path, timeout: float = 20.0) -> tuple[int, str]:
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"flybot ask did not exit within {timeout:.0f}s; output so far:\n{out.read_text()}")
    return code, out.read_text()


def _stop(proc: subprocess.Popen[bytes] | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=15)  # aiohttp's graceful shutdown may wait up to 10 s for a long-poll still in flight
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


def _card(page: Page, command: str) -> Locator:
    """The newest pending card (a message with an Approve button) showing ``command``."""
    card = (
        page.locator("[data-ts]")
        .filter(has=page.locator("[data-action-id=escalation_approve]"))
        .filter(has_text=command)
        .last
    )
    card.wait_for(state="visible", timeout=20_000)
    return card


def test_local_chat_page_approve_refuse_deny(tmp_path: Path) -> None:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must install Debian's chromium (.ci/run): no Chromium at {CHROMIUM}")
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian package `chromium`); the browser test needs it")
    from playwright.sync_api import expect, sync_playwright

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server_log = tmp_path / "serve.log"
    server_out = tmp_path / "serve.out"
    server = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=_env(),
        stdout=server_out.open("w"),
        stderr=server_log.open("w"),
        stdin=subprocess.DEVNULL,
    )
    asks: list[subprocess.Popen[bytes]] = []
    try:
        _wait_healthy(server, base, server_log)
        local = json.loads((state_home() / "local.json").read_text())
        token = local["token"]
        assert token and local["url"] == base
        login = _printed_login_url(server_out, base)
        key = login.split("?key=", 1)[1]
        for path in tmp_path.rglob("*"):  # serve.out is this test's capture of the terminal
            if path.is_file() and path != server_out:
                assert key.encode() not in path.read_bytes(), f"the login key is written to {path}"

        first_out = tmp_path / "ask-approve.txt"
        asks.append(_ask(tmp_path, first_out, "sudo", "apt-get", "install", "-y", "jq"))

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.goto(base + "/")  # the page without the key: no data, and it says how to log in
                expect(page.locator("#conn")).to_contain_text("open the login URL that flybot serve printed")
                # The login URL under another name for the same server (localhost): a page naming the printed
                # address, and the key is not used up
                elsewhere = page.goto(login.replace("127.0.0.1", "localhost", 1))
                assert elsewhere is not None and elsewhere.status == 421
                expect(page.locator("body")).to_contain_text(f"open {base}/")
                page.goto(login)
                expect(page.locator("#viewer")).to_have_value(OWNER)
                page.wait_for_function("!location.search.includes('key=')")  # the key leaves the address bar
                assert page.context.cookies() == [], "no cookie: a cookie would reach every port of 127.0.0.1"
                assert page.evaluate("sessionStorage.getItem('flybot.session')")  # held by this origin only
                page.locator(f"#sidebar [data-channel={APPROVALS}]").click()

                # 1. The card, as the owner sees it; Approve -> `flybot ask` exits 0.
                card = _card(page, "sudo apt-get install -y jq")
                expect(card).to_contain_text("Runs on the host")
                expect(card.locator("pre")).to_have_text("sudo apt-get install -y jq")
                expect(card.locator("[data-action-id=escalation_deny]")).to_have_text("Deny")
                # Compact: each reason names its part of the command (`sudo`, `apt-get`), never the whole command again.
                expect(card).to_contain_text("sudo runs the command as another user")
                expect(card).to_contain_text("apt-get changes the machine")
                assert card.inner_text().count("sudo apt-get install -y jq") == 1, card.inner_text()
                page.screenshot(path=str(tmp_path / "card.png"), full_page=True)
                card.locator("[data-action-id=escalation_approve]").click()
                code, output = _finish(asks[0], first_out)
                assert code == 0, output
                assert "approved" in output
                approved = page.locator("[data-ts]").filter(has_text="sudo apt-get install -y jq").last
                expect(approved.locator("[data-action-id=escalation_approve]")).to_have_count(0, timeout=10_000)
                expect(approved).to_contain_text("(edited)")

                # 2. Oscar (not an owner) clicks Approve: refused, ephemerally; the escalation stays pending.
                second_out = tmp_path / "ask-deny.txt"
                asks.append(_ask(tmp_path, second_out, "sudo", "apt-get", "install", "-y", "ripgrep"))
                page.select_option("#viewer", OTHER)
                card = _card(page, "sudo apt-get install -y ripgrep")
                escalation_id = card.locator("[data-action-id=escalation_approve]").get_attribute("data-value")
                assert escalation_id
                card.locator("[data-action-id=escalation_approve]").click()
                refusal = page.locator("[data-ts].ephemeral").filter(has_text="only the owners")
                expect(refusal).to_be_visible(timeout=10_000)
                expect(refusal).to_contain_text("Only visible to you")
                assert _http_json(f"{base}/v1/escalations/{escalation_id}", token)["status"] == "pending"
                assert asks[1].poll() is None, second_out.read_text()

                # 3. Back to the owner (who does not see Oscar's ephemeral): Deny -> modal -> reason -> exit 1.
                page.select_option("#viewer", OWNER)
                card = _card(page, "sudo apt-get install -y ripgrep")
                expect(page.locator("[data-ts].ephemeral")).to_have_count(0)
                card.locator("[data-action-id=escalation_deny]").click()
                dialog = page.get_by_role("dialog")
                expect(dialog).to_be_visible(timeout=10_000)
                expect(dialog).to_contain_text("Deny escalation")
                expect(dialog.locator("label")).to_contain_text("(optional)")
                dialog.locator("textarea").fill(REASON)
                page.screenshot(path=str(tmp_path / "modal.png"), full_page=True)
                dialog.locator("[data-action-id=view_submit]").click()
                expect(dialog).to_have_count(0, timeout=10_000)
                code, output = _finish(asks[1], second_out)
                assert code == 1, output
                assert "denied" in output and REASON in output, output
                expect(
                    page.locator("[data-ts]")
                    .filter(has_text="ripgrep")
                    .last.locator("[data-action-id=escalation_deny]")
                ).to_have_count(0, timeout=10_000)

                page.screenshot(path=str(tmp_path / "page.png"), full_page=True)
                shutil.copyfile(tmp_path / "card.png", LEAD_SCREENSHOT)
                assert not errors, errors
            finally:
                browser.close()
    finally:
        for proc in asks:
            _stop(proc)
        _stop(server)


def test_the_page_shows_hidden_characters_in_what_people_type_and_in_cards(tmp_path: Path) -> None:
    """Hidden characters on the local page: a message typed with U+202E and a card for such a command both read
    ⟨U+202E⟩ in the browser; the raw character is nowhere in the page's text."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must install Debian's chromium (.ci/run): no Chromium at {CHROMIUM}")
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian package `chromium`); the browser test needs it")
    from playwright.sync_api import expect, sync_playwright

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server_log, server_out = tmp_path / "serve.log", tmp_path / "serve.out"
    server = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=_env(),
        stdout=server_out.open("w"),
        stderr=server_log.open("w"),
        stdin=subprocess.DEVNULL,
    )
    ask: subprocess.Popen[bytes] | None = None
    try:
        _wait_healthy(server, base, server_log)
        ask = _ask(tmp_path, tmp_path / "ask.txt", "ls # \u202e ; rm -rf ~ \u202c")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.goto(_printed_login_url(server_out, base))
                page.locator(f"#sidebar [data-channel={APPROVALS}]").click()
                card = _card(page, "rm -rf ~")
                expect(card).to_contain_text("\u27e8U+202E\u27e9")
                expect(card).to_contain_text("Read this request carefully")
                page.locator("#composer-input").fill("look \u2066here\u2069")
                page.locator("#composer-input").press("Enter")
                expect(page.locator("[data-ts]").filter(has_text="look").last).to_contain_text(
                    "look \u27e8U+2066\u27e9here\u27e8U+2069\u27e9", timeout=10_000
                )
                shown = page.locator("#layout").inner_text()
                assert "\u202e" not in shown and "\u2066" not in shown
            finally:
                browser.close()
    finally:
        _stop(ask)
        _stop(server)


def test_two_person_card_in_the_local_chat_page(tmp_path: Path) -> None:
    """The two-person rule on the local page, with ``FLYBOT_TWO_PERSON=destructive-host``: Olivia's Approve marks the
    card "1 of 2 approvals (by @Olivia (owner))" and ``flybot ask`` keeps waiting; her second Approve is refused; Ada's
    (an admin) decides, and ``flybot ask`` exits 0."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must install Debian's chromium (.ci/run): no Chromium at {CHROMIUM}")
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian package `chromium`); the browser test needs it")
    from playwright.sync_api import expect, sync_playwright

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server_log, server_out = tmp_path / "serve.log", tmp_path / "serve.out"
    env = {**_env(), "FLYBOT_TWO_PERSON": "destructive-host"}
    server = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=server_out.open("w"),
        stderr=server_log.open("w"),
        stdin=subprocess.DEVNULL,
    )
    ask: subprocess.Popen[bytes] | None = None
    try:
        _wait_healthy(server, base, server_log)
        ask_out = tmp_path / "ask.txt"
        ask = _ask(tmp_path, ask_out, "rm", "-rf", "/var/lib/app")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.goto(_printed_login_url(server_out, base))
                expect(page.locator("#viewer")).to_have_value(OWNER)
                page.locator(f"#sidebar [data-channel={APPROVALS}]").click()
                card = _card(page, "rm -rf /var/lib/app")
                expect(card).to_contain_text("0 of 2 approvals")
                card.locator("[data-action-id=escalation_approve]").click()
                expect(card).to_contain_text("1 of 2 approvals (by @Olivia (owner))", timeout=10_000)
                recorded = page.locator("[data-ts].ephemeral").filter(has_text="Your approval is recorded: 1 of 2")
                expect(recorded).to_be_visible(timeout=10_000)
                assert ask.poll() is None, ask_out.read_text()
                page.screenshot(path=str(tmp_path / "two-person.png"), full_page=True)

                card.locator("[data-action-id=escalation_approve]").click()  # Olivia again: refused
                again = page.locator("[data-ts].ephemeral").filter(has_text="already gave the first approval")
                expect(again).to_be_visible(timeout=10_000)
                assert ask.poll() is None, ask_out.read_text()

                page.select_option("#viewer", "U0ADMIN01")
                card = (
                    page.locator("[data-ts]")
                    .filter(has_text="rm -rf /var/lib/app")
                    .filter(has=page.locator("[data-action-id=escalation_approve]"))
                    .last
                )
                card.locator("[data-action-id=escalation_approve]").click()
                code, output = _finish(ask, ask_out)
                assert code == 0 and "approved" in output, output
                decided = page.locator("[data-ts]").filter(has_text="rm -rf /var/lib/app").last
                expect(decided.locator("[data-action-id=escalation_approve]")).to_have_count(0, timeout=10_000)
                expect(decided).to_contain_text("2 of 2 approvals (by @Olivia (owner) and @Ada (admin)")
                page.screenshot(path=str(tmp_path / "two-person-approved.png"), full_page=True)
                assert not errors, errors
            finally:
                browser.close()
    finally:
        _stop(ask)
        _stop(server)
