"""FlyBot's own state where its settings put it (``FLYBOT_STATE_DIR``, the SQLite file of ``FLYBOT_DATABASE_URL``,
in the temp area here): reading it is a secret read and writing it destructive, wherever it is."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import GivenRecipes
from bot.risk.sensitive import own_state, set_own_state
from tests.harness import Harness
from tests.test_standing import _admin_token, asks, auto

R = RiskLevel


@pytest.fixture
def own(tmp_path: Path) -> Iterator[Path]:
    set_own_state((str(tmp_path / "state"), str(tmp_path / "store.sqlite")))
    yield tmp_path
    set_own_state(())


def grade(command: str) -> RiskLevel:
    return classify(command, contained=False, workspace="/srv/work", recipes=GivenRecipes(())).risk


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat {t}/state/local.json", R.NETWORK),
        ("cat {t}/store.sqlite", R.NETWORK),
        ("head -c 100 {t}/store.sqlite-wal", R.NETWORK),
        ("sqlite3 {t}/store.sqlite .dump", R.NETWORK),
        ("cd {t}/state && cat localchat.json", R.NETWORK),
        ("cp {t}/state/local.json copy.json", R.NETWORK),
        ("cp x {t}/store.sqlite", R.DESTRUCTIVE),
        ("echo '{{}}' > {t}/state/local.json", R.DESTRUCTIVE),
        ("cat {t}/notes.txt", R.READ_ONLY),
        ("cat {t}/store.sqlite.txt", R.READ_ONLY),
    ],
)
def test_the_configured_state_and_store_are_flybots_state(own: Path, command: str, expected: RiskLevel) -> None:
    assert grade(command.format(t=own)) == expected


def test_without_settings_the_same_paths_in_the_temp_area_are_ordinary(tmp_path: Path) -> None:
    set_own_state(())
    assert not own_state(str(tmp_path / "store.sqlite"))
    assert grade(f"cat {tmp_path}/state/local.json") == R.READ_ONLY


@pytest.fixture
async def harness_store(tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(
        tmp=tmp_path,
        settings_overrides={
            "database_url": f"sqlite+aiosqlite:///{tmp_path / 'store.sqlite'}",
            "state_dir": str(tmp_path / "state"),
        },
    )
    await h.start()
    try:
        yield h
    finally:
        await h.close()
        set_own_state(())


async def test_the_server_grades_reads_of_its_own_store_and_state_as_secret_reads(
    harness_store: Harness, tmp_path: Path
) -> None:
    harness = harness_store
    bot_token = await harness.add_bot()
    admin = await _admin_token(harness)
    body = {"scope": "bot", "bot": "ci-bot", "pattern": "cat", "max_risk": "read_only", "host_ok": True}
    async with harness.http.post(
        f"{harness.url}/v1/standing-approvals", json=body, headers={"Authorization": f"Bearer {admin}"}
    ) as r:
        assert r.status == 201, await r.text()
    await auto(harness, bot_token, command=f"cat {tmp_path}/notes.txt", cwd="/srv/work")
    for path in (tmp_path / "store.sqlite", tmp_path / "state" / "local.json"):
        esc = await asks(harness, bot_token, command=f"cat {path}", cwd="/srv/work")
        assert esc["risk"] == "network" and "secret-read" in str(esc["reasons"]), esc["reasons"]
