"""Hidden, direction-changing and look-alike characters are made visible on every surface, flagged
near the top of the card, and such a command always needs a person (no standing approval, no adapter ceiling).

Real FlyBot against the Slack emulation; real ``flybot`` processes for the CLI and the hook.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.hidden import Lookalike, hidden_characters, lookalikes, needs_a_person, reveal
from cards import APPROVE_ACTION, CardEscalation, approval_card, full_command_modal, report_dm
from tests.harness import OWNER, ROOM, Harness, block_text
from tests.test_cli import clean_env
from tests.test_hooks import decision, start_hook
from tests.test_hooks import event as hook_event
from tests.test_rules_cache import hold_fresh_rules

RLO_TRICK = "ls # \u202e ; rm -rf ~ \u202c"
HIDDEN_SIBLINGS = [
    "ls\u200b",
    "ls \u200d-la",
    "echo \u2066hi\u2069",
    "cat a\u200e.txt",
    "echo \u061c",
    "ls\u2060",
    "\ufeffls",
    "echo \U000e0041\U000e0042",
    "echo \x1b[2Jok",
    "echo \x07",
    "echo a\rb",
    "rm\u00a0-rf /tmp/x",
    "echo \u2028x",
    "ls\ufe0f",
    "echo \u3164",
]
LOOKALIKE_SIBLINGS = [
    ("\u0455udo apt-get install jq", "sudo"),
    ("echo \u0441\u043e\u0440", "cop"),
    ("curl https://g\u043e\u043egle.com", "google.com"),
    ("\uff53\uff55\uff44\uff4f ls", "sudo"),
]


# -- the pure check --------------------------------------------------------------------------------------------------
def test_reveal_shows_every_hidden_character_and_keeps_newlines_and_tabs_in_multiline_text() -> None:
    assert reveal(RLO_TRICK) == "ls # \u27e8U+202E\u27e9 ; rm -rf ~ \u27e8U+202C\u27e9"
    for command in HIDDEN_SIBLINGS:
        shown = reveal(command)
        assert hidden_characters(shown) == (), (command, shown)
        assert "\u27e8U+" in shown, command
    assert reveal("printf 'a\tb\nc'") == "printf 'a\tb\nc'"
    assert reveal("s-1\nRoom: x", multiline=False) == "s-1\u27e8U+000A\u27e9Room: x"
    assert reveal(reveal(RLO_TRICK)) == reveal(RLO_TRICK)
    assert reveal("\u26a0\ufe0f done") == "\u26a0\ufe0f done", "an emoji's presentation selector is not hidden"


def test_lookalike_words_name_what_they_look_like_and_ordinary_non_latin_words_pass() -> None:
    for command, looks_like in LOOKALIKE_SIBLINGS:
        found = lookalikes(command)
        assert found and found[0].looks_like == looks_like, (command, found)
    assert lookalikes("\u0455udo ls") == (Lookalike("\u0455udo", "sudo"),)
    for ordinary in (
        "git commit -m '\u0438\u0441\u043f\u0440\u0430\u0432\u0438\u0442\u044c \u043e\u0448\u0438\u0431\u043a\u0443'",
        "echo h\u00e9llo w\u00f6rld",
        "echo \u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8",
        "ls -la",
    ):
        assert lookalikes(ordinary) == () and needs_a_person(ordinary) is None, ordinary


def test_a_zero_width_joiner_inside_an_emoji_is_not_hidden_but_between_letters_it_is() -> None:
    technologist = "\U0001f9d1\u200d\U0001f4bb"  # gitmoji's :technologist:
    for text in (f'git commit -m "{technologist} improve dx"', "echo \u2764\ufe0f\u200d\U0001f525"):
        assert reveal(text) == text and needs_a_person(text) is None, text
        assert classify(text, contained=True).risk < RiskLevel.DESTRUCTIVE, text
    for text in ("l\u200ds", "echo \U0001f9d1\u200d", "echo \u200d\U0001f4bb", "echo a\u200d\U0001f4bb"):
        assert "\u27e8U+200D\u27e9" in reveal(text), text
        assert classify(text, contained=True).risk == RiskLevel.DESTRUCTIVE, text


@pytest.mark.parametrize("command", [RLO_TRICK, *HIDDEN_SIBLINGS, *(c for c, _ in LOOKALIKE_SIBLINGS)])
@pytest.mark.parametrize("contained", [True, False])
def test_such_a_command_grades_destructive_with_a_reason_that_says_why(command: str, contained: bool) -> None:
    assessment = classify(command, contained=contained)
    assert assessment.risk == RiskLevel.DESTRUCTIVE
    reasons = [r for r in assessment.reasons if r.rule in ("hidden-characters", "look-alike")]
    assert reasons and "may not be what it appears" in reasons[0].detail
    assert not reasons[0].downgraded


# -- the card, its modal, App Home -----------------------------------------------------------------------------------
async def test_the_card_shows_hidden_characters_and_warns_near_the_top(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(
        token,
        command=RLO_TRICK,
        session_id="s\u200b-1",
        cwd="/work/\u202erepo",
        justification="just \u2066listing\u2069",
    )
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    card = harness.card_for(esc["id"])
    text = block_text(card["blocks"])
    assert "ls # \u27e8U+202E\u27e9 ; rm -rf ~ \u27e8U+202C\u27e9" in text
    assert "s\u27e8U+200B\u27e9-1" in text and "/work/\u27e8U+202E\u27e9repo" in text
    warning = block_text(card["blocks"][2:3])
    assert "Read this request carefully" in warning
    assert "command" in warning and "justification" in warning and "session id" in warning
    assert "working directory" in warning
    everything = json.dumps(
        [m.blocks for m in harness.emulator.messages] + [m.text for m in harness.emulator.messages], ensure_ascii=False
    )
    for raw in ("\u202e", "\u202c", "\u200b", "\u2066", "\u2069"):
        assert raw not in everything, f"U+{ord(raw):04X} reached chat raw"


async def test_the_card_flags_a_lookalike_word_with_what_it_looks_like(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await harness.escalate(token, command="\u0455udo apt-get install -y jq")
    await harness.eventually(lambda: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
    warning = block_text(harness.card_for(esc["id"])["blocks"][2:3])
    assert "Look-alike" in warning and "\u0455udo" in warning and "sudo" in warning
    assert esc["risk"] == "destructive"


def test_the_full_command_modal_and_the_fallback_text_show_hidden_characters() -> None:
    from datetime import UTC, datetime

    esc = CardEscalation(
        id="esc_1",
        bot_id="bot_1",
        bot_name="b\u202eot",
        session_id="s",
        room="C0APPROVE",
        command=RLO_TRICK * 400,
        cwd="/w",
        contained=False,
        risk="destructive",
        reasons=(),
        justification=None,
        file_policy="workspace-write",
        status="pending",
        created_at=datetime.now(UTC),
        expires_at=datetime.now(UTC),
    )
    card = approval_card(esc)
    modal = full_command_modal(esc)
    for rendered in (json.dumps(card.blocks, ensure_ascii=False), card.text, json.dumps(modal, ensure_ascii=False)):
        assert "\u202e" not in rendered and "\u27e8U+202E\u27e9" in rendered


async def test_app_home_shows_hidden_characters_warns_and_approves_only_through_the_review(harness: Harness) -> None:
    from cards import REVIEW_APPROVE_ACTION

    token = await harness.add_bot()
    esc = await harness.escalate(token, command=RLO_TRICK)
    plain = await harness.escalate(token, command="sudo apt-get install -y jq", justification=None)
    view = await harness.open_home(OWNER)
    rendered = json.dumps(view, ensure_ascii=False)
    assert "\u202e" not in rendered and "\u27e8U+202E\u27e9" in rendered
    assert rendered.count("carefully") == 1, "one warning: for the hidden one, not the plain one"
    buttons = {
        e["value"]: e["action_id"]
        for b in view["blocks"]
        if b.get("type") == "actions"
        for e in b["elements"]
        if e["action_id"] != "escalation_deny"
    }
    assert buttons == {esc["id"]: REVIEW_APPROVE_ACTION, plain["id"]: APPROVE_ACTION}
    await harness.click_in_view(OWNER, f"VH{OWNER}", REVIEW_APPROVE_ACTION, esc["id"])
    await harness.eventually(lambda: harness.open_modal(OWNER) is not None)
    modal = harness.open_modal(OWNER)
    assert modal is not None and modal["view"]["submit"]["text"] == "Approve"
    review = json.dumps(modal["view"], ensure_ascii=False)
    assert "\u202e" not in review and "Read this request carefully" in review, "the modal with Approve warns too"


def test_every_modal_that_shows_the_command_warns_and_shows_hidden_characters() -> None:
    from datetime import UTC, datetime

    from cards import deny_reason_modal, full_justification_modal
    from cards.standing import standing_modal

    esc = CardEscalation(
        id="esc_1",
        bot_id="bot_1",
        bot_name="bot",
        session_id="s",
        room="C0APPROVE",
        command=RLO_TRICK,
        cwd="/w",
        contained=True,
        risk="destructive",
        reasons=(),
        justification="why \u2066not\u2069",
        file_policy="workspace-write",
        status="pending",
        created_at=datetime.now(UTC),
        expires_at=datetime.now(UTC),
    )
    for view in (
        full_command_modal(esc),
        full_command_modal(esc, approve=True),
        full_justification_modal(esc),
        deny_reason_modal(esc.id, esc.command),
        standing_modal(
            escalation_id=esc.id,
            scope="bot",
            pattern="ls",
            max_risk="read_only",
            command_preview=esc.command,
            contained=True,
        ),
    ):
        rendered = json.dumps(view, ensure_ascii=False)
        assert "\u202e" not in rendered and "\u2066" not in rendered, view["title"]
        assert "Read this request carefully" in rendered, view["title"]


# -- never answered without a person ---------------------------------------------------------------------------------
async def test_a_standing_approval_for_any_command_does_not_answer_such_a_command(harness: Harness) -> None:
    token = await harness.add_bot()
    reply = await harness.slash(OWNER, "standing add --bot ci-bot * --max-risk system --host-ok")
    assert reply.startswith("Saved"), reply
    plain = await harness.escalate(token, command="ls -la", contained=True)
    assert plain["status"] == "approved"
    for command in (RLO_TRICK, "ls\u200b", "\u0455udo ls", "echo \u0441\u043e\u0440"):
        esc = await harness.escalate(token, command=command, contained=True)
        assert esc["status"] == "pending", command
        assert esc["decision_source"] is None


async def test_the_hook_never_allows_such_a_command_at_once_whatever_the_ceiling(tmp_path: Path) -> None:
    for command in (RLO_TRICK, "ls\u200b", "\u0455udo ls"):
        run = await start_hook(
            json.dumps(hook_event(command, tmp_path)).encode(),
            tmp_path,
            "--contained",
            "--ceiling",
            "system",
            FLYBOT_URL="http://127.0.0.1:9",
            FLYBOT_TOKEN="fbt_x",
        )
        code, out, err = await run.finish()
        assert code == 0, err
        verdict, _reason = decision(out)
        assert verdict == "ask", (command, out)  # FlyBot unreachable: the local prompt, never allow
    hold_fresh_rules("http://127.0.0.1:9")  # with a fresh copy of the rules a plain read is allowed at once
    plain = await start_hook(
        json.dumps(hook_event("ls -la", tmp_path)).encode(),
        tmp_path,
        "--contained",
        FLYBOT_URL="http://127.0.0.1:9",
        FLYBOT_TOKEN="fbt_x",
    )
    code, out, _ = await plain.finish()
    assert decision(out)[0] == "allow"


# -- CLI output ------------------------------------------------------------------------------------------------------
def test_flybot_classify_prints_hidden_characters_made_visible(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "classify", "--", RLO_TRICK],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "\u202e" not in result.stdout and "\u27e8U+202E\u27e9" in result.stdout
    assert result.stdout.startswith("risk: destructive")


async def test_flybot_ask_prints_the_command_and_a_deny_reason_made_visible(harness: Harness, tmp_path: Path) -> None:
    from cards import DENY_ACTION, DENY_REASON_BLOCK, DENY_REASON_INPUT

    token = await harness.add_bot()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "ask",
        "--server",
        harness.url,
        "--token",
        token,
        "--",
        RLO_TRICK,
        cwd=tmp_path,
        env=clean_env(),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    await harness.eventually(
        lambda: any(
            e.get("action_id") == APPROVE_ACTION
            for m in harness.emulator.messages
            for b in m.blocks
            if b.get("type") == "actions"
            for e in b["elements"]
        ),
        timeout=20,
    )
    (pending,) = await harness.runtime.store.pending_escalations()
    await harness.click(OWNER, pending.id, DENY_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER))
    modal = harness.open_modal(OWNER)
    assert modal is not None
    await harness.submit_modal(OWNER, modal["id"], {DENY_REASON_BLOCK: {DENY_REASON_INPUT: "no \u202ethanks"}})
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 1
    for stream in (out.decode(), err.decode()):
        assert "\u202e" not in stream
    assert "\u27e8U+202E\u27e9" in err.decode() and "no \u27e8U+202E\u27e9thanks" in out.decode()
    assert "warning: hidden or direction-changing characters (U+202E, U+202C)" in err.decode(), err.decode()


# -- the blocked-host report DM --------------------------------------------------------------------------------------
async def test_a_report_dm_shows_hidden_characters_and_warns_near_the_top(harness: Harness) -> None:
    from tests.test_reports import BOT_USER, add_bot, dms, post_report
    from tests.test_reports_causes import preflight_doc

    token = await add_bot(harness, owners=(OWNER,))
    unlock = [{"id": "other", "text": "run \u202efixer\u202c please"}, {"id": "approve-turn", "text": "approve"}]
    doc = preflight_doc(error="exit 1: bwrap\u200b: denied", unlock=unlock)
    status, data = await post_report(
        harness, token, {"preflight": doc, "host": "ci-\u202e7", "session_id": "s\u2066-1"}
    )
    assert status == 201, data
    [dm] = dms(harness, OWNER, data["id"])
    rendered = json.dumps([dm.blocks, dm.text], ensure_ascii=False)
    for raw in ("\u202e", "\u202c", "\u200b", "\u2066"):
        assert raw not in rendered, f"U+{ord(raw):04X} reached the DM raw"
    text = block_text(dm.blocks)
    assert "ci-\u27e8U+202E\u27e97" in text and "s\u27e8U+2066\u27e9-1" in text and "\u27e8U+200B\u27e9" in text
    warning = block_text(dm.blocks[1:2])
    assert "Read this report carefully" in warning, "the warning is the block after the header"
    for field in ("host", "session id", "error text", "Bot's own words"):
        assert field in warning, field
    # A look-alike in a chat report from the Bot's own chat user (the other way a report arrives).
    line = "blocked: no usable sandbox backend bot=ci-bot host=\u0441i-8 session=s-2 mode=read-only"
    async with harness.http.post(
        f"{harness.emu_url}/page/message", json={"user": BOT_USER, "channel": ROOM, "text": line}
    ) as response:
        assert (await response.json())["ok"]
    await harness.eventually(lambda: len(dms(harness, OWNER)) == 2)
    chat_dm = next(m for m in dms(harness, OWNER) if "8" in block_text(m.blocks) and m is not dm)
    warning = block_text(chat_dm.blocks[1:2])
    assert "Read this report carefully" in warning and "Look-alike" in warning and "ci-8" in warning


def test_a_report_dm_without_such_characters_has_no_warning() -> None:
    from tests.test_reports import _card

    assert not any("carefully" in block_text([b]) for b in report_dm(_card()).blocks)


async def test_flybot_escalations_audit_and_standing_list_show_hidden_characters_and_warn(harness: Harness) -> None:
    from bot.standing import StandingSpec
    from tests.test_bot_lifecycle import operator
    from tests.test_reports import add_bot, post_report

    token = await add_bot(harness, owners=(OWNER,))
    await harness.escalate(token, command=RLO_TRICK)
    await harness.escalate(token, command="echo \x1b[2Jok", session_id="s\u2066-9")
    status, _ = await post_report(
        harness,
        token,
        {"line": "blocked: no usable sandbox backend bot=ci-bot host=ci-\u202e7 session=s-1 mode=read-only"},
    )
    assert status == 201
    bot = await harness.runtime.store.bot_by_name("ci-bot")
    assert bot is not None
    await harness.runtime.standing.create(
        OWNER,
        StandingSpec(
            scope="session",
            subject="s\u2066-9",
            bot_id=bot.id,
            pattern="npm test",
            max_risk="workspace_write",
            contained_only=True,
        ),
    )
    for args, shown in (
        (("escalations",), "\u27e8U+202E\u27e9"),
        (("escalations",), "\u27e8U+001B\u27e9[2Jok"),
        (("audit",), "ci-\u27e8U+202E\u27e97"),
        (("standing", "list"), "s\u27e8U+2066\u27e9-9"),
    ):
        result = await operator(harness, *args)
        assert result.returncode == 0, result.stderr
        for raw in ("\u202e", "\x1b", "\u2066"):
            assert raw not in result.stdout and raw not in result.stderr, (args, f"U+{ord(raw):04X}")
        assert shown in result.stdout, (args, result.stdout)
        assert "warning: hidden or direction-changing characters" in result.stderr, (args, result.stderr)
    plain = await operator(harness, "bots", "list")
    assert "warning" not in plain.stderr


async def test_slash_replies_and_app_homes_approvals_show_hidden_characters_and_warn(harness: Harness) -> None:
    from bot.standing import StandingSpec

    token = await harness.add_bot()
    esc = await harness.escalate(token, command="npm test", session_id="s\u2066-9")
    assert esc["status"] == "pending"
    bot = await harness.runtime.store.bot_by_name("ci-bot")
    assert bot is not None
    await harness.runtime.standing.create(
        OWNER,
        StandingSpec(
            scope="session",
            subject="s\u2066-9",
            bot_id=bot.id,
            pattern="npm test",
            max_risk="workspace_write",
            contained_only=True,
        ),
    )
    home = json.dumps(await harness.open_home(OWNER), ensure_ascii=False)
    assert "\u2066" not in home and "s\u27e8U+2066\u27e9-9" in home and "Read this list carefully" in home
    listed = await harness.slash(OWNER, "standing list")
    assert "\u2066" not in listed and "s\u27e8U+2066\u27e9-9" in listed, listed
    assert "hidden or direction-changing characters (U+2066)" in listed, listed
    refused = await harness.slash(OWNER, "standing add --bot ci-bot \u0455udo")
    assert "looks like sudo" in refused, refused
    plain = await harness.slash(OWNER, "standing list --bot ci-bot")
    assert "warning" not in plain


async def test_a_recipe_line_with_such_characters_makes_the_card_warn(harness: Harness) -> None:
    token = await harness.add_bot()
    for line in ("c\u0443rl -s https://x.example/i | tee out", "echo ok \u202e ; curl x.example \u202c"):
        recipe = {"tool": "make", "target": "build", "lines": [{"source": "Makefile:3 (build)", "command": line}]}
        esc = await harness.escalate(token, command="make build", contained=True, recipes=[recipe])
        assert esc["status"] == "pending" and esc["risk"] == "destructive", (line, esc["risk"])
        await harness.eventually(lambda esc=esc: any(esc["id"] in str(m.blocks) for m in harness.emulator.messages))
        card = harness.card_for(esc["id"])
        warning = block_text(card["blocks"][2:3])
        assert "Read this request carefully" in warning, warning
        assert ("c\u0443rl" in warning) if "\u0443" in line else ("reasons" in warning), warning
        assert "\u202e" not in json.dumps(card["blocks"], ensure_ascii=False)


async def test_the_hook_never_allows_at_once_a_recipe_whose_lines_hold_such_characters(tmp_path: Path) -> None:
    from tests.test_rules_cache import hold_fresh_rules

    hold_fresh_rules("http://127.0.0.1:9")  # FlyBot is down; its program rules were read a moment ago
    for line in (
        "c\u0443rl -s https://x.example/i | tee out",
        "echo ok \u202e ; go build -o app . \u202c",
        "go build -o app .",
    ):
        (tmp_path / "Makefile").write_text(f"build:\n\t{line}\n", encoding="utf-8")
        run = await start_hook(
            json.dumps(hook_event("make build", tmp_path)).encode(),
            tmp_path,
            "--contained",
            "--ceiling",
            "system",
            FLYBOT_URL="http://127.0.0.1:9",
            FLYBOT_TOKEN="fbt_x",
        )
        code, out, err = await run.finish()
        assert code == 0, err
        verdict, _reason = decision(out)
        assert verdict == ("allow" if line.isascii() else "ask"), (line, out)


async def test_flybot_exec_prints_the_owners_reason_with_hidden_characters_made_visible(
    harness: Harness, tmp_path: Path
) -> None:
    from tests.test_hooks import deny_with, pending_id, start_exec

    token = await harness.add_bot()
    run = await start_exec(
        tmp_path, "--", sys.executable, "-c", "print('ran')", FLYBOT_URL=harness.url, FLYBOT_TOKEN=token
    )
    await deny_with(harness, await pending_id(harness), "no \u202ethanks\x1b[2J")
    code, out, err = await run.finish()
    assert code == 126 and out == ""
    assert "\u202e" not in err and "\x1b" not in err
    assert "no \u27e8U+202E\u27e9thanks\u27e8U+001B\u27e9[2J" in err, err
