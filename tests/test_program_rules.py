"""Program rules through chat, the admin API and the CLI: admins teach FlyBot programs it does not know; every
replica-facing grade uses them; each change is audited; bad input changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.api.openapi import build_openapi
from bot.escalations import utcnow
from bot.store import ProgramRule
from tests.harness import ADMIN, OWNER, Harness, block_text
from tests.test_cli import clean_env
from tests.test_standing import _admin_token, asks, auto

GCC = "acmecc -O2 main.c -o app"


async def test_an_admin_teaches_gcc_in_chat_and_a_standing_approval_then_covers_it(harness: Harness) -> None:
    token = await harness.add_bot()
    before = await harness.escalate(token, command=GCC, contained=True)
    assert before["risk"] == "destructive" and "not a recognised program" in str(before["reasons"])
    refused = await harness.slash(OWNER, "standing add --bot ci-bot acmecc")
    assert "could never match" in refused
    reply = await harness.slash(ADMIN, "rule set acmecc workspace_write our C compiler")
    assert reply == "Program rule saved: `acmecc` is graded workspace_write."
    assert (await harness.slash(OWNER, "standing add --bot ci-bot acmecc")).startswith("Saved")
    esc = await auto(harness, token, command=GCC, contained=True)
    assert esc["risk"] == "workspace_write"
    assert "program rule" in str(esc["reasons"]) and ADMIN in str(esc["reasons"])
    await harness.outbox_drained()
    [notice] = harness.notices()  # the room sees that a taught grade let the standing approval answer
    assert f"acmecc is graded workspace_write by @{ADMIN}'s program rule (acmecc)." in json.dumps(notice.blocks)
    await asks(harness, token, command=f"{GCC} && rm -rf build", contained=True)  # still destructive for the rm
    await asks(harness, token, command="./acmecc main.c", contained=True)  # a path: no rule
    listed = await harness.slash(OWNER, "rule list")
    assert "`acmecc` workspace_write" in listed and "our C compiler" in listed
    assert (await harness.slash(ADMIN, "rule remove acmecc")).startswith("Removed the program rule on `acmecc`")
    again = await asks(harness, token, command=GCC, contained=True)
    assert again["risk"] == "destructive"
    events = [
        (e.event, e.actor, e.detail.get("program"), e.detail.get("grade"))
        for e in await harness.runtime.store.audit_log()
        if e.event.startswith("program_rule.")
    ]
    assert events == [
        ("program_rule.set", ADMIN, "acmecc", "workspace_write"),
        ("program_rule.removed", ADMIN, "acmecc", "workspace_write"),
    ]


async def test_only_admins_set_or_remove_rules_in_chat_and_a_refusal_is_audited(harness: Harness) -> None:
    reply = await harness.slash(OWNER, "rule set acmecc workspace_write")
    assert "only admins" in reply
    await harness.slash(ADMIN, "rule set acmecc workspace_write")
    assert "only admins" in await harness.slash(OWNER, "rule remove acmecc")
    assert [r.program for r in await harness.runtime.store.program_rules()] == ["acmecc"]
    refused = [e for e in await harness.runtime.store.audit_log() if e.event == "program_rule.refused"]
    assert [(e.actor, e.detail["action"]) for e in refused] == [(OWNER, "set"), (OWNER, "remove")]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("rule set ./acmecc workspace_write", "plain name"),
        ("rule set /usr/bin/acmecc workspace_write", "plain name"),
        ("rule set acme\u0441c workspace_write", "plain name"),
        ("rule set acmecc\u200b workspace_write", "plain name"),
        ("rule set sudo workspace_write", "runs another command"),
        ("rule set bash read_only", "runs another command"),
        ("rule set acmecc harmless", "give a grade"),
        ("rule set acmecc", "Usage"),
        ("rule set mytool --force network", "subcommand"),
        ("rule frobnicate", "Usage"),
        ("rule remove acmecc", "no program rule"),
    ],
)
async def test_bad_rule_input_gets_a_clear_answer_and_changes_nothing(harness: Harness, text: str, says: str) -> None:
    reply = await harness.slash(ADMIN, text)
    assert says in reply, reply
    assert await harness.runtime.store.program_rules() == []


async def test_a_subcommand_rule_grades_only_that_subcommand(harness: Harness) -> None:
    token = await harness.add_bot()
    assert "`mytool deploy` is graded network" in await harness.slash(ADMIN, "rule set mytool deploy network")
    assert (await harness.escalate(token, command="mytool deploy prod", contained=True))["risk"] == "network"
    assert (await harness.escalate(token, command="mytool rollback", contained=True))["risk"] == "destructive"


async def test_the_admin_api_sets_lists_and_removes_rules(harness: Harness) -> None:
    bot_token = await harness.add_bot()
    admin = await _admin_token(harness)
    auth = {"Authorization": f"Bearer {admin}"}
    url = f"{harness.url}/v1/program-rules"
    async with harness.http.put(
        f"{url}/bazel/build", json={"grade": "workspace_write", "note": "hermetic"}, headers=auth
    ) as r:
        assert r.status == 200, await r.text()
        rule = await r.json()
    assert rule["program"] == "bazel" and rule["subcommand"] == "build" and rule["set_by"] == ADMIN
    async with harness.http.get(url, headers={"Authorization": f"Bearer {bot_token}"}) as r:  # the adapters read
        listed = await r.json()
    assert [i["program"] for i in listed["items"]] == ["bazel"] and listed["max_age_s"] > 0
    async with harness.http.put(
        f"{url}/bazel/build", json={"grade": "read_only"}, headers={"Authorization": f"Bearer {bot_token}"}
    ) as r:
        assert r.status == 401  # a Bot's token never sets a rule
    async with harness.http.delete(f"{url}/bazel/build", headers=auth) as r:
        assert r.status == 200 and (await r.json())["grade"] == "workspace_write"
    async with harness.http.delete(f"{url}/bazel/build", headers=auth) as r:
        problem = await r.json(content_type=None)
        assert r.status == 404 and r.content_type == "application/problem+json" and problem["code"] == "not_found"
    async with harness.http.get(url) as r:
        assert r.status == 401


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("g%D1%81c", {"grade": "read_only"}, "program"),
        ("..", {"grade": "read_only"}, "program"),
        ("acmecc", {"grade": "safe"}, "grade"),
        ("acmecc", {"grade": "read_only", "surprise": 1}, "surprise"),
        ("acmecc/-rf", {"grade": "read_only"}, "subcommand"),
        ("acmecc", {"grade": "read_only", "note": "a\nb"}, "note"),
    ],
)
async def test_the_admin_api_refuses_bad_rules_with_problems(
    harness: Harness,
    path: str,
    body: dict[str, object],
    field: str,
) -> None:
    admin = await _admin_token(harness)
    async with harness.http.put(
        f"{harness.url}/v1/program-rules/{path}", json=body, headers={"Authorization": f"Bearer {admin}"}
    ) as r:
        problem = await r.json(content_type=None)
    assert r.status in (404, 422) and r.content_type == "application/problem+json", problem
    if r.status == 422:
        assert problem["errors"][0]["field"] == field, problem
    assert await harness.runtime.store.program_rules() == []


@pytest.mark.parametrize(
    ("program", "command"),
    [
        ("fish", "fish -c 'touch ran'"),
        ("pwsh", "pwsh -Command 'New-Item ran'"),
        ("ruby3.2", "ruby3.2 -e 'system(%q(touch ran))'"),
        ("busybox", "busybox sh -c 'touch ran'"),
        ("strace", "strace -f touch ran"),
    ],
)
async def test_a_shell_interpreter_or_runner_takes_no_rule_on_any_surface(
    harness: Harness, program: str, command: str
) -> None:
    """Shells, interpreters named with their version and programs that run a command they are given take no rule
    (chat, the admin API), and one stored before they were refused is not applied: the command they run is graded."""
    token = await harness.add_bot()
    assert "runs another command" in await harness.slash(ADMIN, f"rule set {program} read_only")
    admin = await _admin_token(harness)
    async with harness.http.put(
        f"{harness.url}/v1/program-rules/{program}",
        json={"grade": "read_only"},
        headers={"Authorization": f"Bearer {admin}"},
    ) as r:
        problem = await r.json(content_type=None)
    assert r.status == 422 and problem["errors"][0]["field"] == "program", problem
    assert await harness.runtime.store.program_rules() == []
    async with harness.runtime.store.transaction() as tx:  # a rule stored before the name was refused
        await tx.set_program_rule(
            ProgramRule(program=program, subcommand=None, grade="read_only", set_by=ADMIN, set_at=utcnow(), note=None)
        )
    assert (await harness.escalate(token, command=command, contained=True))["risk"] == "destructive"
    assert "`acmecc` is graded read_only" in await harness.slash(ADMIN, "rule set acmecc read_only")
    assert (await harness.escalate(token, command="acmecc main.c", contained=True))["risk"] == "read_only"


@pytest.mark.parametrize("contained", [False, True])
async def test_a_lowering_rule_is_on_the_card_however_many_reasons_come_before_it(
    harness: Harness, contained: bool
) -> None:
    """The card lists ten reasons, then "and N more not shown": a program rule's override is listed first, so a
    command that puts a dozen ordinary findings before a download an admin's rule lowered still shows the rule."""
    token = await harness.add_bot()
    assert (await harness.slash(ADMIN, "rule set curl read_only")).startswith("Program rule saved")
    command = "; ".join(f"mkdir d{i}" for i in range(12)) + "; curl -fsSL https://example.com/x -o out"
    esc = await harness.escalate(token, command=command, contained=contained)
    assert esc["status"] == "pending" and esc["risk"] == "workspace_write", esc["reasons"]
    assert esc["reasons"][-1]["rule"] == "program-rule-override"  # the grader lists it last
    await harness.card_settled(token, esc)
    shown = block_text(harness.card_for(esc["id"])["blocks"])
    assert "override; built in: network" in shown and "more not shown" in shown, shown
    # The everyday form: fewer reasons than the card shows keep their order.
    few = await harness.escalate(token, command="mkdir d0; mkdir d1", contained=contained)
    await harness.card_settled(token, few)
    text = block_text(harness.card_for(few["id"])["blocks"])
    assert text.index("creates d0") < text.index("creates d1") and "not shown" not in text, text


def test_the_openapi_document_lists_the_program_rule_routes() -> None:
    paths = build_openapi()["paths"]
    assert set(paths["/v1/program-rules/{program}"]) == {"put", "delete"}
    assert "get" in paths["/v1/program-rules"]
    assert "ProgramRuleIn" in build_openapi()["components"]["schemas"]


def test_the_cli_sets_lists_and_removes_rules(tmp_path: Path) -> None:
    env = clean_env(FLYBOT_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'f.db'}")

    def flybot(*words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", *words], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
        )

    assert flybot("db", "upgrade").returncode == 0
    done = flybot("rules", "set", "acmecc", "workspace_write", "--note", "our compiler")
    assert done.returncode == 0 and "`acmecc` is graded workspace_write" in done.stdout, done.stderr
    listed = flybot("rules", "list")
    assert listed.stdout.startswith("acmecc\tworkspace_write\tset by operator:") and "our compiler" in listed.stdout
    bad = flybot("rules", "set", "/tmp/acmecc", "read_only")
    assert bad.returncode == 2 and "plain name" in bad.stderr and "Traceback" not in bad.stderr
    assert flybot("rules", "remove", "acmecc").returncode == 0
    gone = flybot("rules", "remove", "acmecc")
    assert gone.returncode == 2 and "no program rule on acmecc" in gone.stderr
    assert flybot("rules", "list", "--json").stdout.strip() == "[]"


# -- teaching from the card -----------------------------------------------------------------------------------------
async def _click_teach(harness: Harness, user: str, escalation_id: str, program: str, value: str | None = None) -> None:
    """Click the Grade button on ``escalation_id``'s card, its value ``ESCALATION_ID PROGRAM`` (or ``value``)."""
    from cards import TEACH_ACTION

    card = harness.card_for(escalation_id)
    block_id = next(b["block_id"] for b in card["blocks"] if b.get("type") == "actions")
    async with harness.http.post(
        f"{harness.emu_url}/page/click",
        json={
            "user": user,
            "channel": card["channel"],
            "ts": card["ts"],
            "action_id": TEACH_ACTION,
            "block_id": block_id,
            "value": value if value is not None else f"{escalation_id} {program}",
        },
    ) as response:
        assert response.status == 200


def _teach_buttons(harness: Harness, escalation_id: str) -> list[str]:
    from cards import TEACH_ACTION

    card = harness.card_for(escalation_id)
    return [
        e["text"]["text"]
        for b in card["blocks"]
        if b.get("type") == "actions"
        for e in b["elements"]
        if e["action_id"] == TEACH_ACTION
    ]


async def test_a_card_names_the_unknown_program_and_an_admin_grades_it_from_the_modal(harness: Harness) -> None:
    from cards import TEACH_GRADE_BLOCK, TEACH_GRADE_INPUT, TEACH_NOTE_BLOCK, TEACH_NOTE_INPUT
    from tests.harness import block_text
    from tests.test_standing import modal_values

    token = await harness.add_bot()
    esc = await asks(harness, token, command=GCC, contained=True)
    await harness.outbox_drained()
    text = block_text(harness.card_for(esc["id"])["blocks"])
    assert "FlyBot does not know `acmecc`" in text
    assert _teach_buttons(harness, esc["id"]) == ["Grade `acmecc` \u2026"]
    await _click_teach(harness, ADMIN, esc["id"], "acmecc")
    await harness.eventually(lambda: harness.open_modal(ADMIN))
    modal = harness.open_modal(ADMIN)
    assert modal is not None
    values = modal_values(modal["view"])
    assert values[TEACH_GRADE_BLOCK][TEACH_GRADE_INPUT]["selected_option"]["value"] == "workspace_write"
    values[TEACH_NOTE_BLOCK] = {TEACH_NOTE_INPUT: "our C compiler"}
    assert (await harness.submit_modal(ADMIN, modal["id"], values))["status"] == 200
    (rule,) = await harness.runtime.store.program_rules()
    assert (rule.program, rule.subcommand, rule.grade, rule.set_by, rule.note) == (
        "acmecc",
        None,
        "workspace_write",
        ADMIN,
        "our C compiler",
    )
    assert any("Program rule saved: `acmecc` is graded workspace_write" in m for m in harness.ephemerals(ADMIN))
    assert (await harness.escalate(token, command=GCC, contained=True))["risk"] == "workspace_write"


@pytest.mark.parametrize("program", ["curl", "rm", "other"])
async def test_a_grade_button_naming_a_program_the_card_does_not_offer_opens_nothing(
    harness: Harness, program: str
) -> None:
    """A click whose value names another program than the card offers (a copy of the card in a restored local
    chat history, forged) opens no modal, even for an admin; the card's own button still does."""
    token = await harness.add_bot()
    esc = await asks(harness, token, command=GCC, contained=True)
    await harness.outbox_drained()
    await _click_teach(harness, ADMIN, esc["id"], program)
    await harness.eventually(lambda: any("does not offer to grade" in m for m in harness.ephemerals(ADMIN)))
    assert harness.open_modal(ADMIN) is None
    await _click_teach(harness, ADMIN, esc["id"], "acmecc", value="esc_00000000000000000000000000000000 acmecc")
    await harness.eventually(
        lambda: sum("does not offer to grade `acmecc`" in m for m in harness.ephemerals(ADMIN)) == 1
    )
    assert harness.open_modal(ADMIN) is None
    await _click_teach(harness, ADMIN, esc["id"], "acmecc")
    await harness.eventually(lambda: harness.open_modal(ADMIN))
    assert await harness.runtime.store.program_rules() == []


async def test_a_non_admin_owner_gets_the_suggestion_and_no_modal(harness: Harness) -> None:
    token = await harness.add_bot()
    esc = await asks(harness, token, command=GCC, contained=True)
    await harness.outbox_drained()
    await _click_teach(harness, OWNER, esc["id"], "acmecc")
    await harness.eventually(lambda: any("Only an admin can teach it" in m for m in harness.ephemerals(OWNER)))
    assert harness.open_modal(OWNER) is None
    assert await harness.runtime.store.program_rules() == []


async def test_the_modal_refuses_a_bad_subcommand_inline_and_saves_nothing(harness: Harness) -> None:
    from cards import TEACH_SUBCOMMANDS_BLOCK, TEACH_SUBCOMMANDS_INPUT
    from tests.test_standing import modal_values

    token = await harness.add_bot()
    esc = await asks(harness, token, command="mytool deploy prod", contained=True)
    await harness.outbox_drained()
    await _click_teach(harness, ADMIN, esc["id"], "mytool")
    await harness.eventually(lambda: harness.open_modal(ADMIN))
    modal = harness.open_modal(ADMIN)
    assert modal is not None
    values = modal_values(modal["view"])
    values[TEACH_SUBCOMMANDS_BLOCK] = {TEACH_SUBCOMMANDS_INPUT: "deploy --force"}
    await harness.submit_modal(ADMIN, modal["id"], values)
    still_open = harness.open_modal(ADMIN)
    assert still_open is not None and TEACH_SUBCOMMANDS_BLOCK in still_open["errors"]
    assert await harness.runtime.store.program_rules() == []
    values[TEACH_SUBCOMMANDS_BLOCK] = {TEACH_SUBCOMMANDS_INPUT: "deploy, release"}
    await harness.submit_modal(ADMIN, modal["id"], values)
    assert [r.words for r in await harness.runtime.store.program_rules()] == ["mytool deploy", "mytool release"]


async def test_the_modal_sets_at_most_twenty_subcommands_all_or_none(harness: Harness) -> None:
    from bot.program_rules import MAX_RULES_AT_ONCE
    from cards import TEACH_SUBCOMMANDS_BLOCK, TEACH_SUBCOMMANDS_INPUT
    from tests.test_standing import modal_values

    token = await harness.add_bot()
    esc = await asks(harness, token, command="mytool deploy prod", contained=True)
    await harness.outbox_drained()
    await _click_teach(harness, ADMIN, esc["id"], "mytool")
    await harness.eventually(lambda: harness.open_modal(ADMIN))
    modal = harness.open_modal(ADMIN)
    assert modal is not None
    values = modal_values(modal["view"])
    many = " ".join(f"s{n}" for n in range(MAX_RULES_AT_ONCE + 1))
    values[TEACH_SUBCOMMANDS_BLOCK] = {TEACH_SUBCOMMANDS_INPUT: many}
    await harness.submit_modal(ADMIN, modal["id"], values)
    still_open = harness.open_modal(ADMIN)
    assert still_open is not None
    assert f"at most {MAX_RULES_AT_ONCE} subcommands" in still_open["errors"][TEACH_SUBCOMMANDS_BLOCK]
    assert await harness.runtime.store.program_rules() == []
    # a bad word last: the good ones before it are not saved either
    values[TEACH_SUBCOMMANDS_BLOCK] = {TEACH_SUBCOMMANDS_INPUT: "deploy release --force"}
    await harness.submit_modal(ADMIN, modal["id"], values)
    assert await harness.runtime.store.program_rules() == []
    values[TEACH_SUBCOMMANDS_BLOCK] = {TEACH_SUBCOMMANDS_INPUT: "deploy deploy, release"}
    await harness.submit_modal(ADMIN, modal["id"], values)
    assert [r.words for r in await harness.runtime.store.program_rules()] == ["mytool deploy", "mytool release"]


@pytest.mark.parametrize("command", [f"{GCC} && rm -rf build", "./acmecc main.c", "acme\u0441c main.c"])
async def test_no_teaching_is_offered_when_something_else_is_destructive(harness: Harness, command: str) -> None:
    from tests.harness import block_text

    token = await harness.add_bot()
    esc = await asks(harness, token, command=command, contained=True)
    await harness.outbox_drained()
    assert _teach_buttons(harness, esc["id"]) == []
    assert "does not know" not in block_text(harness.card_for(esc["id"])["blocks"])


async def test_an_rm_rule_and_a_standing_approval_never_cover_deleting_outside_the_workspace(harness: Harness) -> None:
    """An admin grades rm workspace_write and an owner's standing approval covers rm on the host: deleting build
    output in the workspace is answered, deleting a system directory, a directory outside the workspace, a home's
    credential file or FlyBot's state is asked."""
    bot_token = await harness.add_bot()
    admin = await _admin_token(harness)
    auth = {"Authorization": f"Bearer {admin}"}
    async with harness.http.put(
        f"{harness.url}/v1/program-rules/rm", json={"grade": "workspace_write", "note": "build output"}, headers=auth
    ) as r:
        assert r.status == 200, await r.text()
    body = {"scope": "bot", "bot": "ci-bot", "pattern": "rm", "max_risk": "workspace_write", "host_ok": True}
    async with harness.http.post(f"{harness.url}/v1/standing-approvals", json=body, headers=auth) as r:
        assert r.status == 201, await r.text()
    answered = await auto(harness, bot_token, command="rm -rf build", cwd="/work/repo")
    assert answered["risk"] == "workspace_write"
    for command in (
        "rm -rf /etc",
        "rm -rf /work/other-project",
        "rm -rf ../other-project",
        "rm -rf /tmp/scratch",
        "rm -f ~/.ssh/id_rsa",
        "rm -rf ~/.local/state/flybot",
        "rm -rf .git",
        "rm -rf .",
    ):
        esc = await asks(harness, bot_token, command=command, cwd="/work/repo")
        assert esc["risk"] == "destructive", (command, esc["reasons"])


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_the_rules_answer_gives_the_state_paths_as_digests_and_no_credential(
    backend: str, tmp_path: Path
) -> None:
    from bot.app import own_state_paths
    from bot.risk.sensitive import own_state_digests
    from tests.harness import BOT_TOKEN, SIGNING_SECRET
    from tests.pg import migrated_store

    password = "pw-Zq8vR2kT"
    async with migrated_store(backend, tmp_path) as url:
        if backend == "postgresql":  # trust authentication here: the password is sent and not checked
            url = url.replace("postgres@", f"postgres:{password}@", 1)
            assert password in url
        harness = Harness(tmp=tmp_path, settings_overrides={"database_url": url})
        await harness.start()
        try:
            token = await harness.add_bot()
            async with harness.http.get(
                f"{harness.url}/v1/program-rules", headers={"Authorization": f"Bearer {token}"}
            ) as r:
                assert r.status == 200
                text = await r.text()
                answer = await r.json()
            settings = harness.settings()
            paths = own_state_paths(settings)
            assert len(paths) == (4 if backend == "sqlite" else 2), paths
            own = answer["own_state"]
            assert set(own) == {"salt", "sha256"} and own["sha256"] == own_state_digests(own["salt"], paths)
            named = [*paths, settings.state_dir, "flybot.db", url, password, "asyncpg", "127.0.0.1:5432"]
            for secret in (*named, token, BOT_TOKEN, SIGNING_SECRET):
                assert secret not in text, secret
        finally:
            await harness.close()


@pytest.mark.parametrize(
    ("command", "kept"),
    [
        ("curl -fsSL https://example.com/x > /etc/x", "/etc is a system directory"),  # a place finding stays
        ("curl -fsSL https://example.com/x && touch x", "touch changes x"),  # another command's finding
    ],
)
async def test_a_rule_that_lowers_a_grade_is_named_on_the_card_when_another_finding_sets_the_grade(
    harness: Harness, command: str, kept: str
) -> None:
    """An admin grades curl read_only: the download is no longer network, and what sets the grade is a finding
    above read_only. The card and the answer still name the rule, or the owner would approve a download without
    being told a rule lowered it."""
    token = await harness.add_bot()
    before = await harness.escalate(token, command=command, contained=True)
    assert before["risk"] == "network", before["reasons"]
    assert (await harness.slash(ADMIN, "rule set curl read_only")).startswith("Program rule saved")
    esc = await harness.escalate(token, command=command, contained=True)
    assert esc["status"] == "pending" and esc["risk"] == "workspace_write", esc["reasons"]
    details = [reason["detail"] for reason in esc["reasons"]]
    assert any(kept in detail for detail in details), details
    assert any("program rule (curl) (override; built in: network)" in detail for detail in details), details
    await harness.card_settled(token, esc)
    shown = block_text(harness.card_for(esc["id"])["blocks"])
    assert "override; built in: network" in shown, shown
    # The everyday form: a command the rule alone grades still shows the rule once, as before.
    alone = await harness.escalate(token, command="curl -fsSL https://example.com/x", contained=True)
    assert alone["risk"] == "read_only"
    assert [r["rule"] for r in alone["reasons"]] == ["program-rule-override"], alone["reasons"]
