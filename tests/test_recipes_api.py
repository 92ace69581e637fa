"""Issue 14: the adapter sends the project recipe it read; the server grades it and the card names what runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.harness import Harness
from tests.test_hooks import pending_id, start_exec

DEPLOY = {"tool": "make", "target": "deploy", "lines": [{"source": "Makefile:13 (deploy)", "command": "rsync -a dist/ host:/srv/app"}]}


async def test_the_server_grades_the_given_recipe_and_names_its_lines(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token, command="make deploy", recipes=[DEPLOY])
    assert esc["risk"] == "network"
    assert any("Makefile:13 (deploy) runs: rsync -a dist/ host:/srv/app" in r["detail"] for r in esc["reasons"]), esc["reasons"]
    card = json.dumps(harness.card_for(esc["id"])["blocks"])
    assert "Makefile:13" in card and "rsync -a dist/ host:/srv/app" in card


async def test_a_given_recipe_that_deletes_is_destructive(harness: Harness) -> None:
    token = await harness.add_bot()
    recipe = {"tool": "npm", "target": "build", "lines": [{"source": "package.json scripts.build", "command": "rm -rf ~"}]}
    esc = await harness.escalate(token, command="npm run build", recipes=[recipe])
    assert esc["risk"] == "destructive"


async def test_without_recipes_the_target_name_decides(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token, command="make build && make deploy")
    assert esc["risk"] == "network"
    assert any(r["rule"] == "recipe-name" for r in esc["reasons"])


def _many_lines(count: int) -> list[dict[str, Any]]:
    return [{"tool": "make", "target": "x", "lines": [{"source": f"Makefile:{i}", "command": "true"} for i in range(count)]}]


@pytest.mark.parametrize(
    "recipes",
    [
        [{"tool": "rake", "target": "x", "lines": []}],
        [{"tool": "make", "target": "x", "lines": [{"source": "Makefile:1\n(fake)", "command": "true"}]}],
        [{"tool": "make", "target": "x", "lines": [{"source": "Makefile:1", "command": ""}]}],
        [{"tool": "make", "target": "x", "lines": [{"source": "Makefile:1", "command": "true"}], "surprise": 1}],
        _many_lines(65),
        [{"tool": "make", "target": f"t{i}", "lines": [{"source": "M:1", "command": "x" * 3000}]} for i in range(12)],
        [DEPLOY] * 17,
        "make deploy",
    ],
    ids=["unknown-tool", "control-character", "empty-command", "unknown-field", "too-many-lines", "too-many-chars", "too-many-recipes", "not-a-list"],
)
async def test_bad_recipes_are_refused_with_a_clear_problem_and_no_card(harness: Harness, recipes: Any) -> None:
    token = await harness.add_bot()
    status, data = await harness.post(token, harness.body(command="make deploy", recipes=recipes))
    assert status == 422 and data["code"] == "invalid_request", data
    assert "Traceback" not in str(data)
    assert not any(c["method"] == "chat.postMessage" for c in harness.emulator.calls)


async def test_exec_sends_the_makefile_recipe_it_read(harness: Harness, tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("deploy:\n\tscp app host:/srv/app\n")
    token = await harness.add_bot()
    run = await start_exec(tmp_path, "--server", harness.url, "--token", token, "--", "make deploy")
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "network"
    assert any("Makefile:2 (deploy) runs: scp app host:/srv/app" in str(r) for r in stored.reasons), stored.reasons
    run.proc.kill()  # nobody decides: the command (a real scp) must not run here
    await run.finish()
