"""The adapters and the organisation's program rules: they never allow locally what FlyBot would ask.

The hook and ``flybot exec`` fetch the rules (``GET /v1/program-rules``) into the state home and grade with them
raise-only; without a fresh copy (none yet, or a stale one that cannot be refreshed) nothing runs without asking."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

from bot.hooks.gate import Server, grade, grade_tool_call
from bot.hooks.rules_cache import held_rules, rules_path
from bot.risk import RiskLevel
from bot.risk.sensitive import own_state_digests
from tests.harness import ADMIN, Harness, free_socket
from tests.test_hooks import decision, event, start_exec, start_hook

W = RiskLevel.WORKSPACE_WRITE
NO_OWN_STATE = {"salt": "0" * 32, "sha256": []}


def closed_server(token: str | None = "fbt_x") -> Server:
    closed = free_socket()
    port = closed.getsockname()[1]
    closed.close()
    return Server(f"http://127.0.0.1:{port}", token)


def write_copy(server: Server, items: list[dict[str, object]], *, age_s: float, max_age_s: float = 60) -> None:
    """Leave in the state home a copy of ``server``'s rules fetched ``age_s`` seconds ago."""
    path = rules_path()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        json.dump(
            {
                "server": server.url,
                "fetched_at": time.time() - age_s,
                "max_age_s": max_age_s,
                "items": items,
                "own_state": NO_OWN_STATE,
            },
            file,
        )


def hold_fresh_rules(url: str, items: list[dict[str, object]] | None = None) -> None:
    """An adapter test whose FlyBot is down on purpose: the adapter holds a fresh copy of its (no) rules, as it would
    after a recent fetch, so that what it allows locally is decided by the grade alone."""
    write_copy(Server(url, None), items or [], age_s=0, max_age_s=3600)


RAISE_GIT = {"program": "git", "subcommand": None, "grade": "network", "set_by": ADMIN}
LOWER_RM = {"program": "rm", "subcommand": None, "grade": "read_only", "set_by": ADMIN}
GCC = {"program": "acmecc", "subcommand": None, "grade": "workspace_write", "set_by": ADMIN}


async def test_a_rule_that_raises_a_grade_makes_the_hook_ask(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    server = Server(harness.url, token)
    # grade() is synchronous (its GET blocks): run it off the event loop that serves FlyBot here
    first = await asyncio.to_thread(grade, "git status", contained=True, cwd=str(tmp_path), ceiling=W, server=server)
    assert not first.needs_approval
    assert "`git` is graded network" in await harness.slash(ADMIN, "rule set git network")
    os.unlink(rules_path())  # the copy fetched a moment ago: fresh for max_age_s, so this test starts afresh
    graded = await asyncio.to_thread(grade, "git status", contained=True, cwd=str(tmp_path), ceiling=W, server=server)
    assert graded.needs_approval and graded.risk == RiskLevel.NETWORK and "program rule" in graded.why
    saved = json.loads(Path(rules_path()).read_text())
    assert saved["server"] == harness.url and [i["program"] for i in saved["items"]] == ["git"]
    assert oct(os.stat(rules_path()).st_mode & 0o777) == "0o600"


def test_a_fresh_copy_is_used_without_asking_flybot() -> None:
    server = closed_server()
    write_copy(server, [RAISE_GIT], age_s=1)
    held = held_rules(server)
    assert held.fresh and [r.program for r in held.rules.rules] == ["git"]
    assert grade("git status", contained=True, cwd="/w", ceiling=W, server=server).risk == RiskLevel.NETWORK


def test_a_copy_can_never_lower_a_grade_nor_grade_an_unknown_program() -> None:
    server = closed_server()
    write_copy(server, [LOWER_RM, GCC], age_s=1)  # e.g. written by someone other than FlyBot
    assert grade("rm -rf build", contained=True, cwd="/w", ceiling=W, server=server).needs_approval
    assert grade("acmecc -O2 main.c -o app", contained=True, cwd="/w", ceiling=W, server=server).needs_approval


def test_a_stale_copy_that_cannot_be_refreshed_leaves_nothing_local() -> None:
    server = closed_server()
    write_copy(server, [RAISE_GIT], age_s=600)
    assert not held_rules(server).fresh
    touch = grade("touch notes.txt", contained=True, cwd="/w", ceiling=W, server=server)
    assert touch.needs_approval and touch.unverified and "could not be read" in touch.why
    ls = grade("ls -la", contained=True, cwd="/w", ceiling=W, server=server)
    assert ls.needs_approval and ls.risk == RiskLevel.READ_ONLY and ls.unverified
    git = grade("git status", contained=True, cwd="/w", ceiling=W, server=server)
    assert git.needs_approval and git.risk == RiskLevel.NETWORK  # still raised by the stale copy


def test_without_any_copy_and_flybot_down_nothing_is_local() -> None:
    # a first run: the state home holds no copy, so the adapter knows only the default places of FlyBot's state
    server = closed_server()
    assert not os.path.exists(rules_path())
    for command in ("ls -la", "cat /srv/flybot-state/local.json"):
        graded = grade(command, contained=True, cwd="/w", ceiling=W, server=server)
        assert graded.risk == RiskLevel.READ_ONLY and graded.needs_approval and graded.unverified, command
    for name, call in (("Edit", {"file_path": "/w/a.py", "old_string": "a", "new_string": "b"}),):
        assert grade_tool_call(name, call, cwd="/w", ceiling=W, server=server).needs_approval


async def test_a_first_run_learns_where_the_server_keeps_its_state_and_allows_harmless_reads(
    harness: Harness, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    server = Server(harness.url, token)
    state = harness.settings().state_dir
    assert not os.path.exists(rules_path())
    notes = await asyncio.to_thread(grade, "cat notes.txt", contained=True, cwd=str(tmp_path), ceiling=W, server=server)
    assert not notes.needs_approval and not notes.unverified
    token_read = await asyncio.to_thread(
        grade, f"cat {state}/local.json", contained=True, cwd=str(tmp_path), ceiling=W, server=server
    )
    assert token_read.needs_approval and token_read.risk == RiskLevel.NETWORK and not token_read.unverified


def test_a_copy_from_the_future_or_of_another_server_or_malformed_is_not_fresh() -> None:
    server = closed_server()
    write_copy(server, [RAISE_GIT], age_s=-3600)
    assert not held_rules(server).fresh
    write_copy(Server("http://elsewhere:1", "t"), [], age_s=1)
    assert not held_rules(server).fresh
    write_copy(server, [{"program": "/tmp/git", "grade": "network", "set_by": ADMIN}], age_s=1)
    assert not held_rules(server).fresh
    Path(rules_path()).write_text("{not json")
    assert not held_rules(server).fresh


def test_no_token_means_no_fresh_rules() -> None:
    assert not held_rules(closed_server(token=None)).fresh


async def test_exec_asks_for_a_raised_program_and_says_why(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    await harness.slash(ADMIN, "rule set git network")
    run = await start_exec(tmp_path, "--server", harness.url, "--token", token, "--timeout", "5", "--", "git", "status")
    _code, _out, err = await run.finish(timeout=60)
    assert "network is above the workspace_write ceiling; asking FlyBot" in err, err


async def test_the_hook_allows_nothing_locally_when_the_rules_are_stale_and_flybot_is_down(tmp_path: Path) -> None:
    server = closed_server()
    write_copy(server, [], age_s=600)
    run = await start_hook(
        json.dumps(event("touch notes.txt", tmp_path)).encode(),
        tmp_path,
        "--server",
        server.url,
        "--token",
        "fbt_x",
        "--wait",
        "3",
    )
    _code, out, _err = await run.finish()
    verdict, reason = decision(out)
    assert verdict == "ask" and "unreachable" in reason
    run = await start_hook(
        json.dumps(event("ls -la", tmp_path)).encode(),
        tmp_path,
        "--server",
        server.url,
        "--token",
        "fbt_x",
        "--wait",
        "3",
    )
    _code, out, _err = await run.finish()
    verdict, reason = decision(out)
    assert verdict == "ask" and "unreachable" in reason


async def test_a_first_run_hook_with_flybot_down_does_not_allow_reading_the_servers_state(tmp_path: Path) -> None:
    # no copy of the rules yet: the server's state directory (here /srv/flybot-state) is not known to the hook, so
    # a read of it grades read_only locally; FlyBot is asked, and being down, the hook answers "ask"
    server = closed_server()
    for command in ("cat /srv/flybot-state/local.json", "ls -la"):
        run = await start_hook(
            json.dumps(event(command, tmp_path)).encode(),
            tmp_path,
            "--server",
            server.url,
            "--token",
            "fbt_x",
            "--wait",
            "3",
        )
        _code, out, _err = await run.finish()
        verdict, reason = decision(out)
        assert verdict == "ask" and "unreachable" in reason, (command, out)
    assert not os.path.exists(rules_path())


async def test_exec_grades_the_servers_configured_state_as_flybots_own(harness: Harness, tmp_path: Path) -> None:
    # the server keeps its state in a directory its settings name (the harness's: not the default); flybot exec, run
    # without FLYBOT_STATE_DIR, learns it from the program-rules answer and asks before printing local mode's token
    token = await harness.add_bot()
    state = harness.settings().state_dir
    assert not state.startswith(os.environ["XDG_STATE_HOME"])
    (tmp_path / "notes.txt").write_text("x\n")
    run = await start_exec(
        tmp_path, "--server", harness.url, "--token", token, "--timeout", "5", "--", "cat", f"{state}/local.json"
    )
    _code, _out, err = await run.finish(timeout=60)
    assert "network is above the workspace_write ceiling; asking FlyBot" in err, err
    run = await start_exec(tmp_path, "--server", harness.url, "--token", token, "--", "cat", "notes.txt")
    code, out, err = await run.finish(timeout=60)
    assert code == 0 and out == "x\n" and "asking" not in err, err


async def test_the_hook_grades_its_own_configured_state_directory_as_flybots(tmp_path: Path) -> None:
    # FLYBOT_STATE_DIR names a state directory elsewhere: reading its local.json asks (FlyBot is down: "ask"), reading
    # a file beside it does not
    server = closed_server()
    state = tmp_path / "fb-state"
    state.mkdir()
    (state / "local.json").write_text('{"token": "fbt_secret"}')
    (tmp_path / "notes.txt").write_text("x\n")
    env = {"FLYBOT_STATE_DIR": str(state)}
    with open(state / "program-rules.json", "w", encoding="utf-8") as file:  # a fresh copy of no rules
        json.dump(
            {
                "server": server.url,
                "fetched_at": time.time(),
                "max_age_s": 3600,
                "items": [],
                "own_state": NO_OWN_STATE,
            },
            file,
        )
    for command, expected in ((f"cat {state}/local.json", "ask"), (f"cat {tmp_path}/notes.txt", "allow")):
        run = await start_hook(
            json.dumps(event(command, tmp_path)).encode(),
            tmp_path,
            "--server",
            server.url,
            "--token",
            "fbt_x",
            "--wait",
            "3",
            **env,
        )
        _code, out, _err = await run.finish()
        assert decision(out)[0] == expected, (command, out)


def test_an_answer_without_valid_own_state_digests_is_no_fresh_copy(tmp_path: Path) -> None:
    server = closed_server()
    digest = "a" * 64
    for own in (
        None,
        ["/srv/flybot-state"],  # paths, not digests
        {"salt": "s"},
        {"sha256": [digest]},
        {"salt": "s", "sha256": ["A" * 64]},
        {"salt": "s", "sha256": ["/srv/flybot-state"]},
        {"salt": "s", "sha256": [digest] * 17},
        {"salt": "s\x00", "sha256": []},
    ):
        data: dict[str, object] = {"server": server.url, "fetched_at": time.time(), "max_age_s": 60, "items": []}
        if own is not None:
            data["own_state"] = own
        os.makedirs(os.path.dirname(rules_path()), exist_ok=True)
        Path(rules_path()).write_text(json.dumps(data))
        assert not held_rules(server).fresh, own
    salt = "5a1t"
    data["own_state"] = {"salt": salt, "sha256": own_state_digests(salt, ["/srv/flybot-state", "/srv/store.db"])}
    Path(rules_path()).write_text(json.dumps(data))
    held = held_rules(server)
    assert held.fresh and held.own_state is not None and held.own_state.salt == salt
    # the digests make the adapter grade the server's state as FlyBot's own, and nothing beside it
    read = grade("cat /srv/flybot-state/local.json", contained=True, cwd="/w", ceiling=W, server=server)
    assert read.needs_approval and read.risk == RiskLevel.NETWORK and "FlyBot's own state" in read.why, read.why
    wal = grade("cat /srv/store.db-wal", contained=True, cwd="/w", ceiling=W, server=server)  # a companion
    assert wal.risk == RiskLevel.NETWORK and "FlyBot's own state" in wal.why, wal.why
    beside = grade("cat /srv/flybot-states/x", contained=True, cwd="/w", ceiling=W, server=server)
    assert not beside.needs_approval and beside.risk == RiskLevel.READ_ONLY
