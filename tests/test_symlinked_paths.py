"""A symbolic link inside the workspace that leads out of it: a path through it is graded as the path it really is,
by the adapter (which resolves it) and by the server (which is told where it leads)."""

from __future__ import annotations

import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.hooks.gate import grade
from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes
from tests.harness import Harness
from tests.pg import migrated_store
from tests.test_hooks import start_exec
from tests.test_rules_cache import hold_fresh_rules
from tests.test_standing import auto
from tests.test_standing_coverage import _approve, asks_then_withdraw, sent


@pytest.fixture(params=["sqlite", "postgresql"])
async def harness(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    """The real server over each store: standing approvals are read from it."""
    async with migrated_store(request.param, tmp_path) as url:
        served = Harness(tmp=tmp_path, settings_overrides={"database_url": url})
        await served.start()
        try:
            yield served
        finally:
            await served.close()


@pytest.fixture
def outside() -> Iterator[Path]:
    """A directory outside the workspace and the temp area (under HOME), removed afterwards."""
    path = Path.home() / f".flybot-test-{uuid.uuid4().hex[:12]}"
    path.mkdir()
    yield path.resolve()
    shutil.rmtree(path, ignore_errors=True)


def linked(tmp_path: Path, outside: Path) -> Path:
    """A workspace holding ``etc2 -> /etc``, ``out -> outside``, ``keys -> outside/.ssh``, a plain ``sub``
    directory and a file ``x``."""
    ws = (tmp_path / "ws").resolve()
    (ws / "sub").mkdir(parents=True)
    (outside / ".ssh").mkdir(parents=True)
    (ws / "x").write_text("x\n")
    (ws / "etc2").symlink_to("/etc")
    (ws / "out").symlink_to(outside)
    (ws / "keys").symlink_to(outside / ".ssh")
    return ws


THROUGH_LINKS = [
    "cp x etc2/passwd",
    "echo x > etc2/hosts",
    "chmod -R 777 etc2/..",
    "ln -sf x etc2/hosts",
    "tee -a etc2/sudoers",
    "mv x etc2/",
    "sed -i s/a/b/ etc2/shadow",
    "chmod 777 etc2/passwd",
    "cd etc2 && chmod 777 ..",
    "chown -R nobody etc2/..",
    "cd etc2 && touch passwd",
]


def test_a_path_through_a_link_out_of_the_workspace_grades_as_the_path_it_leads_to(
    tmp_path: Path, outside: Path
) -> None:
    ws = linked(tmp_path, outside)
    for command in THROUGH_LINKS:
        verdict = classify(command, contained=False, workspace=ws, recipes=ProjectRecipes(ws))
        assert verdict.risk == RiskLevel.DESTRUCTIVE, (command, verdict.reasons)
    verdict = classify("cp x out/y", contained=False, workspace=ws, recipes=ProjectRecipes(ws))
    assert verdict.risk >= RiskLevel.SYSTEM and "through a symbolic link" in verdict.reasons[0].detail, verdict.reasons
    verdict = classify("cat keys/id_rsa", contained=False, workspace=ws, recipes=ProjectRecipes(ws))
    assert verdict.risk == RiskLevel.NETWORK and verdict.reasons[0].rule == "secret-read", verdict.reasons
    for command in ("cp x sub/y", "echo x > sub/z", "touch sub/new", "cat sub/../x"):
        assert (
            classify(command, contained=False, workspace=ws, recipes=ProjectRecipes(ws)).risk
            <= RiskLevel.WORKSPACE_WRITE
        )


async def test_the_server_grades_what_the_adapter_reports_and_a_star_approval_does_not_cover_it(
    harness: Harness, tmp_path: Path, outside: Path
) -> None:
    token = await harness.add_bot()
    await _approve(harness, pattern="*", max_risk="system", host_ok=True)
    ws = linked(tmp_path, outside)
    await auto(harness, token, **sent("cp x sub/y", ws))
    for command in THROUGH_LINKS:
        esc = await asks_then_withdraw(harness, token, **sent(command, ws))
        assert esc["risk"] == "destructive", (command, esc["reasons"])
    esc = await asks_then_withdraw(harness, token, **sent("cat keys/id_rsa", ws))
    assert any(r["rule"] == "secret-read" for r in esc["reasons"]), esc["reasons"]


async def test_flybot_exec_never_writes_through_a_link_out_of_the_workspace_unasked(
    tmp_path: Path, outside: Path
) -> None:
    ws = linked(tmp_path, outside)
    assert grade("cp x out/y", contained=False, cwd=str(ws), ceiling=RiskLevel.WORKSPACE_WRITE).needs_approval
    run = await start_exec(ws, "--", "cp x out/y", FLYBOT_URL="http://127.0.0.1:9", FLYBOT_TOKEN="fbt_x")
    code, _out, err = await run.finish(timeout=30)
    assert code != 0, err
    assert not (outside / "y").exists()
    hold_fresh_rules("http://127.0.0.1:9")  # without a fresh copy of the program rules only read-only runs unasked
    run = await start_exec(ws, "--", "cp x sub/y", FLYBOT_URL="http://127.0.0.1:9", FLYBOT_TOKEN="fbt_x")
    code, _out, err = await run.finish(timeout=30)
    assert code == 0, err
    assert (ws / "sub" / "y").exists()
