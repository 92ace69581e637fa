"""No adapter ceiling allows a secret read at once, as no standing approval answers one: ``flybot exec --ceiling
system -- cat .env`` asks FlyBot (a card; denied, nothing runs), while a plain ``network`` command under that
ceiling runs without asking. Real ``flybot exec`` processes against the real server."""

from __future__ import annotations

from pathlib import Path

from tests.harness import Harness
from tests.test_hooks import deny_with, pending_id, start_exec
from tests.test_standing import cards_posted


async def test_a_secret_read_asks_under_any_ceiling_and_plain_egress_does_not(harness: Harness, tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("API_TOKEN=s3cr3t-value\n")
    token = await harness.add_bot()
    server = ("--server", harness.url, "--token", token, "--ceiling", "system", "--")
    state = {"XDG_STATE_HOME": str(tmp_path / "state")}

    run = await start_exec(workspace, *server, "curl -s --max-time 2 http://127.0.0.1:9/", **state)
    code, out, err = await run.finish()
    assert code == 7, (code, out, err)  # curl ran (connection refused), asking no one
    assert cards_posted(harness) == 0

    run = await start_exec(workspace, *server, "cat .env", **state)
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "network"
    assert any(r["rule"] == "secret-read" for r in stored.reasons), stored.reasons
    await deny_with(harness, escalation_id, "no reading secrets")
    code, out, err = await run.finish()
    assert code == 126, (code, out, err)
    assert "s3cr3t" not in out and "no ceiling allows" in err, err


def test_the_adapters_always_ask_what_no_standing_approval_answers() -> None:
    from bot.hooks.gate import ALWAYS_ASKED
    from bot.standing import NEVER_COVERED_RULES

    assert ALWAYS_ASKED == NEVER_COVERED_RULES
