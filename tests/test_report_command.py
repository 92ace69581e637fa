"""``flybot report`` and the Claude Code ``SessionStart`` hook, as real processes against a real FlyBot and
the Slack emulation. The host's outcome is forced only through what the real probes look at (an empty PATH, the
documented Landlock override, an os-release file).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from tests.harness import OWNER, ROOM, Harness, block_text
from tests.test_hooks import ENTRY, PIPE, Run, env_for, start_hook
from tests.test_reports import BOT_USER, add_bot, dms

UBUNTU = 'NAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\nID_LIKE=debian\n'


def host_env(tmp_path: Path, landlock: str, **extra: str) -> dict[str, str]:
    """A host without bwrap whose kernel answers ``landlock`` (``absent``: blocked; ``7``: usable)."""
    (tmp_path / "bin").mkdir(exist_ok=True)
    (tmp_path / "root").mkdir(exist_ok=True)
    (tmp_path / "os-release").write_text(UBUNTU)
    return {
        "PATH": str(tmp_path / "bin"),
        "FLYBOT_PREFLIGHT_LANDLOCK": landlock,
        "FLYBOT_PREFLIGHT_ROOT": str(tmp_path / "root"),
        "FLYBOT_PREFLIGHT_OS_RELEASE_FILE": str(tmp_path / "os-release"),
        **extra,
    }


async def flybot_report(tmp_path: Path, env: dict[str, str], *args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        *ENTRY,
        "report",
        *args,
        cwd=tmp_path,
        env=env_for(**env),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=PIPE,
        stderr=PIPE,
    )
    return await Run(proc).finish()


async def open_reports(harness: Harness, name: str = "ci-bot") -> list[Any]:
    bot = await harness.runtime.store.bot_by_name(name)
    assert bot is not None
    return await harness.runtime.deps.store.open_reports(bot.id)


async def test_flybot_report_sends_a_blocked_report_end_to_end_and_prints_the_line(
    harness: Harness, tmp_path: Path
) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    env = host_env(tmp_path, "absent")
    code, out, err = await flybot_report(
        tmp_path,
        env,
        "--mode",
        "workspace-write",
        "--session",
        "s-42",
        "--host",
        "ci-7",
        "--server",
        harness.url,
        "--token",
        token,
    )
    assert code == 3, err
    [line] = out.splitlines()
    [report] = await open_reports(harness)
    assert line.startswith(
        "blocked: no usable sandbox backend bot=ci-bot host=ci-7 session=s-42 "
        "mode=workspace-write | sandbox-preflight: workspace-write is UNAVAILABLE: no usable "
        "sandbox backend (bubblewrap not installed; Landlock not built into the kernel)."
    )
    assert report.id in err and "do not retry" in err and "FlyBot tells the Bot's owners" in err
    assert [(f.backend, f.cause) for f in report.findings] == [
        ("bubblewrap", "not-installed"),
        ("landlock", "not-built"),
    ]
    assert report.host_os == "ubuntu"
    # The owner's DM is an outbox job: it follows the report, at the room's pace.
    await harness.eventually(lambda: dms(harness, OWNER, report.id), timeout=20)
    [dm] = dms(harness, OWNER, report.id)
    text = block_text(dm.blocks)
    assert "sudo apt-get install -y bubblewrap" in text and "not built into the kernel (ENOSYS)" in text
    # The printed line is itself a valid report: posted in the room by the Bot's chat user it folds into the report.
    async with harness.http.post(
        f"{harness.emu_url}/page/message", json={"user": BOT_USER, "channel": ROOM, "text": line}
    ) as response:
        assert (await response.json())["ok"]

    async def folded() -> bool:
        return [r.count for r in await open_reports(harness)] == [2]

    deadline = asyncio.get_running_loop().time() + 5
    while not await folded():
        assert asyncio.get_running_loop().time() < deadline, "the printed line is accepted as a chat report"
        await asyncio.sleep(0.05)
    # Sent again, the report folds: the command says so instead of claiming another DM.
    code, _, err = await flybot_report(
        tmp_path,
        env,
        "--mode",
        "workspace-write",
        "--session",
        "s-42",
        "--host",
        "ci-7",
        "--server",
        harness.url,
        "--token",
        token,
    )
    assert code == 3 and f"folded into the open report {report.id} (reported 3 times" in err, err
    assert len(dms(harness, OWNER, report.id)) == 1


async def test_flybot_report_on_a_usable_host_prints_nothing_and_resolves_the_open_report(
    harness: Harness, tmp_path: Path
) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    server = ("--server", harness.url, "--token", token, "--host", "ci-7", "--mode", "read-only")
    code, _, err = await flybot_report(tmp_path, host_env(tmp_path, "absent"), *server)
    assert code == 3, err
    [report] = await open_reports(harness)
    code, out, err = await flybot_report(tmp_path, host_env(tmp_path, "7"), *server)
    assert (code, out, err) == (0, "", "")
    assert await open_reports(harness) == []
    decided = await harness.runtime.deps.store.get_report(report.id)
    assert decided is not None and (decided.status, decided.decision_source) == ("resolved", "host")
    await harness.eventually(
        lambda: "Resolved: the host now has a usable backend" in block_text(dms(harness, OWNER, report.id)[0].blocks)
    )


async def test_flybot_report_that_cannot_tell_prints_nothing_and_sends_nothing(
    harness: Harness, tmp_path: Path
) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    env = host_env(tmp_path, "absent", FLYBOT_PREFLIGHT_LSM_FILE=str(tmp_path / "no-such-lsm"))
    code, out, err = await flybot_report(
        tmp_path, env, "--mode", "workspace-write", "--server", harness.url, "--token", token
    )
    assert (code, out, err) == (4, "", "")
    assert await open_reports(harness) == []


async def test_flybot_report_without_a_token_still_prints_the_line_and_says_it_was_not_sent(tmp_path: Path) -> None:
    env = host_env(tmp_path, "absent", FLYBOT_STATE_DIR=str(tmp_path / "none"))
    code, out, err = await flybot_report(tmp_path, env, "--mode", "read-only", "--host", "ci-7", "--session", "s-1")
    assert code == 3
    assert out.startswith("blocked: no usable sandbox backend host=ci-7 session=s-1 mode=read-only | ")
    assert "not sent" in err


async def test_flybot_report_refuses_a_bad_mode_or_host_with_exit_2(tmp_path: Path) -> None:
    env = host_env(tmp_path, "absent")
    code, out, err = await flybot_report(tmp_path, env, "--mode", "sideways")
    assert (code, out) == (2, "") and "invalid sandbox mode" in err
    code, out, err = await flybot_report(tmp_path, env, "--mode", "read-only", "--host", "a b")
    assert (code, out) == (2, "") and "--host" in err


def session_start_event(session_id: str = "5e55-10n") -> bytes:
    """A SessionStart event as Claude Code sends it (plus a field this hook does not know)."""
    return json.dumps(
        {
            "session_id": session_id,
            "transcript_path": f"/home/dev/.claude/{session_id}.jsonl",
            "cwd": "/work/repo",
            "hook_event_name": "SessionStart",
            "source": "startup",
            "model": "claude-x",
        }
    ).encode()


async def test_session_start_runs_the_preflight_once_and_reports_a_blocked_host(
    harness: Harness, tmp_path: Path
) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    env = host_env(tmp_path, "absent", FLYBOT_URL=harness.url, FLYBOT_TOKEN=token)
    run = await start_hook(session_start_event(), tmp_path, "--mode", "workspace-write", **env)
    code, out, err = await run.finish()
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"hookSpecificOutput"}
    assert data["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = data["hookSpecificOutput"]["additionalContext"]
    assert "session=5e55-10n mode=workspace-write | sandbox-preflight: workspace-write is UNAVAILABLE" in context
    assert "Do not retry shell calls" in context and "FlyBot has told the Bot's owners" in context
    [report] = await open_reports(harness)
    assert report.session_id == "5e55-10n"
    await harness.eventually(lambda: dms(harness, OWNER, report.id), timeout=20)  # an outbox job, sent after
    assert len(dms(harness, OWNER, report.id)) == 1


async def test_session_start_on_a_usable_host_says_nothing_and_resolves_the_hosts_report(
    harness: Harness, tmp_path: Path
) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    blocked = host_env(tmp_path, "absent", FLYBOT_URL=harness.url, FLYBOT_TOKEN=token)
    code, _, _ = await (
        await start_hook(session_start_event("s-1"), tmp_path, "--mode", "read-only", **blocked)
    ).finish()
    assert code == 0 and len(await open_reports(harness)) == 1
    usable = host_env(tmp_path, "7", FLYBOT_URL=harness.url, FLYBOT_TOKEN=token)
    code, out, err = await (
        await start_hook(session_start_event("s-2"), tmp_path, "--mode", "read-only", **usable)
    ).finish()
    assert (code, out) == (0, ""), err
    assert await open_reports(harness) == []
