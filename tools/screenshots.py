"""The docs' screenshots, made with the real browser against a real ``flybot serve`` in local mode.

``python tools/screenshots.py [--out docs/img]`` starts ``flybot serve`` on a free loopback port with a fresh
state directory and store (in a temporary directory, so your own local mode is untouched), sends one escalation
with ``flybot ask``, opens the printed login URL in headless chromium (Debian's ``/usr/bin/chromium``, driven by
Playwright, a test dependency) and saves the approval card as ``card.png``. It then withdraws the escalation
(``flybot ask`` is interrupted) and stops the server. Exit 0 when the picture is written, 1 otherwise, with the
server's log.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOM = "C0APPROVE"
COMMAND = ["sudo", "apt-get", "install", "-y", "jq"]
JUSTIFICATION = "the release script parses the API's JSON answers with jq"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(state: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "FLYBOT_"))}
    env.update(
        {
            "PYTHONUNBUFFERED": "1",
            "XDG_STATE_HOME": str(state),
            "FLYBOT_STATE_DIR": str(state / "flybot"),
            "FLYBOT_DATABASE_URL": f"sqlite+aiosqlite:///{state / 'flybot.db'}",
        }
    )
    return env


def _wait_healthy(server: subprocess.Popen[bytes], base: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
                if json.loads(response.read()).get("status") == "ok":
                    return
        except (OSError, ValueError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"flybot serve did not answer {base}/healthz within {timeout:.0f} s")


def _login_url(out: Path, base: str, state_dir: Path) -> str:
    """The login URL ``flybot serve`` printed to ``out``, or (its output being no terminal) wrote to its state."""
    for word in out.read_text().split():
        if word.startswith(f"{base}/?key="):
            return word
    written = state_dir / "login-url"
    if written.exists():
        return written.read_text().strip()
    raise RuntimeError("flybot serve gave no login URL")


def _stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def shoot(out_dir: Path) -> Path:
    """Write ``out_dir/card.png``: the pending approval card of :data:`COMMAND`, as its owner sees it."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"no Chromium at {CHROMIUM} (Debian package `chromium`)")
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="flybot-screenshots-") as tmp:
        work = Path(tmp)
        state = work / "state"
        state.mkdir(mode=0o700)
        env = _env(state)
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        serve_out, serve_log = work / "serve.out", work / "serve.log"
        server = subprocess.Popen(
            [sys.executable, "-m", "bot", "serve", "--port", str(port)],
            cwd=work,
            env=env,
            stdout=serve_out.open("w"),
            stderr=serve_log.open("w"),
            stdin=subprocess.DEVNULL,
        )
        ask = None
        try:
            try:
                _wait_healthy(server, base)
                login = _login_url(serve_out, base, state / "flybot")
            except RuntimeError:
                sys.stderr.write(serve_log.read_text())
                raise
            ask = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "bot",
                    "ask",
                    "--timeout",
                    "300",
                    "--session",
                    "s1",
                    "--justification",
                    JUSTIFICATION,
                    "--",
                    *COMMAND,
                ],
                cwd=work,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                stdin=subprocess.DEVNULL,
            )
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                try:
                    page = browser.new_page(viewport={"width": 1100, "height": 900}, device_scale_factor=1)
                    page.goto(login)
                    page.wait_for_function("!location.search.includes('key=')")
                    page.locator(f"#sidebar [data-channel={ROOM}]").click()
                    card = (
                        page.locator("[data-ts]")
                        .filter(has=page.locator("[data-action-id=escalation_approve]"))
                        .filter(has_text=" ".join(COMMAND))
                        .last
                    )
                    card.wait_for(state="visible", timeout=30_000)
                    target = out_dir / "card.png"
                    card.screenshot(path=str(target))
                finally:
                    browser.close()
            return target
        finally:
            if ask is not None:
                _stop(ask, signal.SIGINT)  # flybot ask withdraws its escalation when interrupted
            _stop(server)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="directory for card.png")
    args = parser.parse_args(argv)
    try:
        target = shoot(args.out)
    except RuntimeError as exc:
        print(f"screenshots: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
