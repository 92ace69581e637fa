"""Teaching FlyBot a program from a card, in a real browser against a real ``flybot serve`` (local mode).

An admin grades ``acmecc`` (unknown to FlyBot) from its card's "Grade `acmecc` …" modal; an owner who is no admin is told
to ask one and gets no modal. Then a Bot-wide standing approval (``flybot standing add``) covers
``acmecc -O2 main.c -o app``: ``flybot ask`` is answered without a card and the Claude Code hook allows it; ``flybot
audit`` shows who taught what; ``flybot rules remove acmecc`` makes the same request ask again. Needs Debian's chromium.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_hooks import decision, event
from tests.test_localchat_browser import (
    APPROVALS,
    CHROMIUM,
    CHROMIUM_ARGS,
    OWNER,
    _ask,
    _card,
    _env,
    _finish,
    _free_port,
    _printed_login_url,
    _stop,
    _wait_healthy,
)

ADMIN = "U0ADMIN01"
GCC = ("acmecc", "-O2", "main.c", "-o", "app")
pytestmark = pytest.mark.timeout(240)


def _flybot(cwd: Path, *words: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *words],
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
        input=stdin,
    )


def test_an_admin_grades_gcc_from_its_card_and_a_standing_approval_then_covers_it(tmp_path: Path) -> None:
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
    asks: list[subprocess.Popen[bytes]] = []
    try:
        _wait_healthy(server, base, server_log)
        first_out = tmp_path / "ask-1.txt"
        asks.append(_ask(tmp_path, first_out, *GCC))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.goto(_printed_login_url(server_out, base))
                expect(page.locator("#viewer")).to_have_value(OWNER)
                page.locator(f"#sidebar [data-channel={APPROVALS}]").click()

                # 1. The owner (no admin) reads why, and is told to ask an admin: no modal opens.
                card = _card(page, "acmecc -O2 main.c -o app")
                expect(card).to_contain_text("FlyBot does not know acmecc")
                teach = card.locator("[data-action-id=program_rule_teach]")
                expect(teach).to_have_text("Grade `acmecc` \u2026")
                teach.click()
                told = page.locator("[data-ts].ephemeral").filter(has_text="Only an admin can teach it")
                expect(told).to_be_visible(timeout=10_000)
                expect(page.get_by_role("dialog")).to_have_count(0)

                # 2. The admin grades it from the modal: the grade, for which subcommands, a note.
                page.select_option("#viewer", ADMIN)
                card = _card(page, "acmecc -O2 main.c -o app")
                card.locator("[data-action-id=program_rule_teach]").click()
                dialog = page.get_by_role("dialog")
                expect(dialog).to_be_visible(timeout=10_000)
                expect(dialog).to_contain_text("Grade a program")
                dialog.locator("select").select_option("workspace_write")
                dialog.locator("input, textarea").last.fill("our C compiler")
                page.screenshot(path=str(tmp_path / "teach-modal.png"), full_page=True)
                dialog.locator("[data-action-id=view_submit]").click()
                expect(dialog).to_have_count(0, timeout=10_000)
                saved = page.locator("[data-ts].ephemeral").filter(has_text="Program rule saved")
                expect(saved).to_be_visible(timeout=10_000)
                expect(saved).to_contain_text("graded workspace_write")

                # The card keeps its grade: the admin approves this one request.
                card.locator("[data-action-id=escalation_approve]").click()
                code, output = _finish(asks[0], first_out)
                assert code == 0 and "approved" in output, output
                assert not errors, errors
            finally:
                browser.close()

        listed = _flybot(tmp_path, "rules", "list")
        assert listed.stdout.startswith(f"acmecc\tworkspace_write\tset by {ADMIN}"), listed
        standing = _flybot(tmp_path, "standing", "add", "--bot", "demo", "acmecc", "--host-ok")  # flybot ask: the host
        assert standing.returncode == 0 and "`acmecc` up to workspace_write" in standing.stdout, standing

        # 3. The standing approval answers at once, without a card; the hook allows it.
        second_out = tmp_path / "ask-2.txt"
        asks.append(_ask(tmp_path, second_out, *GCC))
        code, output = _finish(asks[1], second_out)
        assert code == 0 and "standing approval" in output, output
        hook = _flybot(
            tmp_path,
            "hook",
            "claude-code",
            "--contained",
            stdin=json.dumps(event("acmecc -O2 main.c -o app", tmp_path)),
        )
        verdict, reason = decision(hook.stdout)
        assert verdict == "allow" and "standing approval" in reason, (hook.stdout, hook.stderr)

        # 4. The audit says who taught what.
        audit = _flybot(tmp_path, "audit").stdout
        taught = [line for line in audit.splitlines() if "program_rule.set" in line]
        assert len(taught) == 1 and "program=acmecc" in taught[0] and "grade=workspace_write" in taught[0], audit
        assert "@Ada" in taught[0] or ADMIN in taught[0], taught

        # 5. Removing the rule restores the old behaviour: the same request asks (a card), the hook too.
        removed = _flybot(tmp_path, "rules", "remove", "acmecc")
        assert removed.returncode == 0, removed
        third_out = tmp_path / "ask-3.txt"
        asks.append(_ask(tmp_path, third_out, *GCC))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(_printed_login_url(server_out, base))
                page.locator(f"#sidebar [data-channel={APPROVALS}]").click()
                card = _card(page, "acmecc -O2 main.c -o app")
                expect(card).to_contain_text("FlyBot does not know acmecc")
            finally:
                browser.close()
        assert asks[2].poll() is None, third_out.read_text()
    finally:
        for proc in asks:
            _stop(proc)
        _stop(server)
