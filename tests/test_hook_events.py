"""``flybot hook claude-code`` / ``flybot hook codex`` answer PreSkillShellCommand and PermissionRequest as they
answer PreToolUse (grade, ask above the ceiling, answer in the event's own shape, fail closed), and ``flybot hook
install`` merges the hook into the agent's settings. Real hook processes against a real FlyBot and the Slack
emulation; event shapes as Claude Code 2.1.332's and Codex 0.171.0's hook schemas define them."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from cards import APPROVE_ACTION
from tests.harness import OWNER, Harness
from tests.test_hooks import ENTRY, PIPE, ROOT, Run, deny_with, env_for, escalations_created, pending_id


async def start_hook(stdin: bytes, cwd: Path, *args: str, agent: str = "claude-code", **env: str) -> Run:
    """``flybot hook AGENT ARGS`` as the agent starts it, with ``stdin`` as the event."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        *ENTRY,
        "hook",
        agent,
        *args,
        cwd=cwd,
        env=env_for(**env),
        stdin=PIPE,
        stdout=PIPE,
        stderr=PIPE,
    )
    assert proc.stdin is not None
    proc.stdin.write(stdin)
    await proc.stdin.drain()
    proc.stdin.close()
    return Run(proc)


def skill_event(command: str, cwd: Path, *, tool: str = "Bash") -> dict[str, Any]:
    """A PreSkillShellCommand event: `` !`command` `` in the slash command ``/x``'s text."""
    return {
        "session_id": "sess-skill",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "PreSkillShellCommand",
        "tool_name": tool,
        "tool_input": {"command": command},
        "tool_use_id": "skillcmd_01",
        "command_name": "x",
        "command_source": "projectSettings",
        "invoked_by": "user",
    }


def permission_event(command: str, cwd: Path, *, agent: str = "claude-code") -> dict[str, Any]:
    """A PermissionRequest event for Bash (Claude Code's; Codex's adds ``model`` and ``turn_id``)."""
    data: dict[str, Any] = {
        "session_id": "sess-perm",
        "transcript_path": None,
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "PermissionRequest",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "needs the package"},
    }
    if agent == "codex":
        data.update({"model": "gpt-5", "turn_id": "turn-1"})
    else:
        data["permission_suggestions"] = []
    return data


def answer_of(stdout: str, event: str) -> dict[str, Any]:
    data = json.loads(stdout)
    assert set(data) == {"hookSpecificOutput"}, data
    out = data["hookSpecificOutput"]
    assert out["hookEventName"] == event, out
    return dict(out)


# -- PreSkillShellCommand ----------------------------------------------------------------------------------------------
async def test_a_skill_command_above_the_ceiling_waits_for_the_card_and_is_allowed_on_approve(
    harness: Harness, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    run = await start_hook(
        json.dumps(skill_event("rm -rf /srv/build", tmp_path)).encode(),
        tmp_path,
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.command == "rm -rf /srv/build"
    assert stored.justification == "Runs from the text of /x (projectSettings), started by user"
    assert stored.idempotency_key == "claude-code:skillcmd_01"
    assert run.proc.returncode is None, "nothing is answered before the click"
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    code, out, err = await run.finish()
    assert code == 0, err
    out_ = answer_of(out, "PreSkillShellCommand")
    assert out_["permissionDecision"] == "allow" and "approved by @Olivia" in out_["permissionDecisionReason"]


async def test_a_skill_command_denied_answers_deny_with_the_reason(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    run = await start_hook(
        json.dumps(skill_event("rm -rf /srv/build", tmp_path)).encode(),
        tmp_path,
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )
    await deny_with(harness, await pending_id(harness), "keep the build")
    code, out, err = await run.finish()
    out_ = answer_of(out, "PreSkillShellCommand")
    assert out_["permissionDecision"] == "deny" and "keep the build" in out_["permissionDecisionReason"], out_


async def test_a_skill_command_is_never_left_unanswered_since_no_answer_lets_it_run(tmp_path: Path) -> None:
    """No answer runs a skill's command: unreadable input and a PowerShell command are denied, an unreachable
    FlyBot is the no-decision answer (ask, which also keeps it from running)."""
    broken = skill_event("x", tmp_path)
    broken["tool_input"] = {}
    cases = [
        (broken, "deny"),
        (skill_event("Remove-Item -Recurse build", tmp_path, tool="PowerShell"), "deny"),
        (skill_event("rm -rf /srv/build", tmp_path), "ask"),
    ]
    for ev, expected in cases:
        run = await start_hook(
            json.dumps(ev).encode(),
            tmp_path,
            FLYBOT_URL="http://127.0.0.1:9",
            FLYBOT_TOKEN="fbt_x",
            FLYBOT_STATE_DIR=str(tmp_path),
        )
        code, out, err = await run.finish()
        assert code == 0 and answer_of(out, "PreSkillShellCommand")["permissionDecision"] == expected, (ev, out, err)


async def test_a_read_only_skill_command_is_allowed_without_asking(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    run = await start_hook(
        json.dumps(skill_event("git status", tmp_path)).encode(), tmp_path, FLYBOT_URL=harness.url, FLYBOT_TOKEN=token
    )
    code, out, err = await run.finish()
    assert answer_of(out, "PreSkillShellCommand")["permissionDecision"] == "allow", err
    assert await escalations_created(harness) == []


# -- PermissionRequest -------------------------------------------------------------------------------------------------
async def test_a_permission_request_is_a_card_and_approve_answers_behavior_allow(
    harness: Harness, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    run = await start_hook(
        json.dumps(permission_event("sudo apt-get install -y jq", tmp_path)).encode(),
        tmp_path,
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.justification == "needs the package"
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    code, out, err = await run.finish()
    assert code == 0, err
    assert answer_of(out, "PermissionRequest")["decision"] == {"behavior": "allow"}


async def test_codex_permission_request_denied_carries_the_owners_message(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    proc = await start_hook(
        json.dumps(permission_event("sudo apt-get install -y jq", tmp_path, agent="codex")).encode(),
        tmp_path,
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
        agent="codex",
    )
    await deny_with(harness, await pending_id(harness), "not on the shared runner")
    code, out, err = await proc.finish()
    decision = answer_of(out, "PermissionRequest")["decision"]
    assert decision["behavior"] == "deny" and "not on the shared runner" in decision["message"], decision
    assert set(decision) == {"behavior", "message"}  # Codex refuses any other field (additionalProperties: false)


async def test_a_permission_request_without_a_human_decision_leaves_the_agents_own_dialog(tmp_path: Path) -> None:
    run = await start_hook(
        json.dumps(permission_event("sudo apt-get install -y jq", tmp_path)).encode(),
        tmp_path,
        "--wait",
        "1",
        FLYBOT_URL="http://127.0.0.1:9",
        FLYBOT_TOKEN="fbt_x",
    )
    code, out, err = await run.finish()
    assert (code, out) == (0, "") and "unreachable" in err, (out, err)
    denying = await start_hook(
        json.dumps(permission_event("sudo apt-get install -y jq", tmp_path)).encode(),
        tmp_path,
        "--wait",
        "1",
        "--on-no-decision",
        "deny",
        FLYBOT_URL="http://127.0.0.1:9",
        FLYBOT_TOKEN="fbt_x",
    )
    code, out, err = await denying.finish()
    assert answer_of(out, "PermissionRequest")["decision"]["behavior"] == "deny", (out, err)


async def test_codex_pre_tool_use_denies_when_no_one_decides_since_codex_takes_no_ask(tmp_path: Path) -> None:
    from tests.test_hooks import event

    run = await start_hook(
        json.dumps(event("sudo apt-get install -y jq", tmp_path)).encode(),
        tmp_path,
        FLYBOT_URL="http://127.0.0.1:9",
        FLYBOT_TOKEN="fbt_x",
        agent="codex",
    )
    code, out, err = await run.finish()
    answered = answer_of(out, "PreToolUse")
    assert code == 0 and answered["permissionDecision"] == "deny", (out, err)
    assert "cannot ask" in answered["permissionDecisionReason"]


def codex_event(event_name: str, command: str, workdir: str) -> dict[str, Any]:
    """A Codex 0.171 hook event for a shell call the model ran with ``workdir``: Codex gives that directory as the
    event's ``cwd`` and starts the hook in the session's own directory."""
    return {
        "session_id": "01a251b3-codex",
        "turn_id": "01a251b3-turn",
        "transcript_path": "/tmp/rollout.jsonl",
        "cwd": workdir,
        "hook_event_name": event_name,
        "model": "gpt-5.1-codex",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        **({"tool_use_id": "call_0123"} if event_name == "PreToolUse" else {}),
    }


async def test_codex_grades_a_call_in_another_workdir_from_the_session_directory(
    harness: Harness, tmp_path: Path
) -> None:
    """The model chooses a call's ``workdir``; Codex sends it as ``cwd``. A write there is outside the session's
    workspace (the hook's own directory), not inside a workspace of the model's choosing: ``destructive``, so
    PreToolUse asks and, with no decision, denies; PermissionRequest never allows it unasked."""
    token = await harness.add_bot()
    work = tmp_path / "work"
    work.mkdir()
    for event_name in ("PreToolUse", "PermissionRequest"):
        run = await start_hook(
            json.dumps(codex_event(event_name, "echo x > notes.txt", "/srv/app")).encode(),
            work,
            "--wait",
            "2",
            "--on-no-decision",
            "deny",
            agent="codex",
            HOME=str(tmp_path / "home"),
            FLYBOT_STATE_DIR=str(tmp_path / "agent-state"),
            FLYBOT_URL=harness.url,
            FLYBOT_TOKEN=token,
        )
        code, out, err = await run.finish()
        assert code == 0, err
        answered = answer_of(out, event_name)
        assert answered.get("permissionDecision", answered.get("decision", {}).get("behavior")) == "deny", answered
    created = await escalations_created(harness)
    assert len(created) == 2
    for escalation_id in created:
        stored = await harness.runtime.store.get_escalation(escalation_id)
        assert stored is not None and stored.risk == "destructive" and stored.cwd == str(work), stored
        assert stored.command == "cd -- /srv/app || exit 1\necho x > notes.txt", stored.command


async def test_codex_allows_a_write_in_the_session_directory_at_once(harness: Harness, tmp_path: Path) -> None:
    """The everyday form: the call runs in the session's directory (or one below it), a workspace write."""
    token = await harness.add_bot()
    work = tmp_path / "work"
    (work / "src").mkdir(parents=True)
    for workdir in (work, work / "src"):
        run = await start_hook(
            json.dumps(codex_event("PermissionRequest", "echo x > notes.txt", str(workdir))).encode(),
            work,
            agent="codex",
            HOME=str(tmp_path / "home"),
            FLYBOT_STATE_DIR=str(tmp_path / "agent-state"),
            FLYBOT_URL=harness.url,
            FLYBOT_TOKEN=token,
        )
        code, out, err = await run.finish()
        assert code == 0, err
        assert answer_of(out, "PermissionRequest")["decision"] == {"behavior": "allow"}, out
    assert await escalations_created(harness) == []


# -- flybot hook install -----------------------------------------------------------------------------------------------
def install(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = env_for(HOME=str(home))
    env.pop("CLAUDE_CONFIG_DIR", None)
    env.pop("CODEX_HOME", None)
    return subprocess.run(
        [sys.executable, *ENTRY, "hook", "install", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=60
    )


def test_install_merges_with_other_hooks_and_settings_and_is_idempotent(tmp_path: Path) -> None:
    from bot.hooks.install import TOOL_MATCHER

    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    other = {"matcher": "Edit", "hooks": [{"type": "command", "command": "lint-hook"}]}
    old = {
        "matcher": "Bash",
        "hooks": [
            {"type": "command", "command": "/old/venv/bin/flybot hook claude-code"},
            {"type": "command", "command": "audit-log"},
        ],
    }
    settings.write_text(json.dumps({"model": "opus", "hooks": {"PreToolUse": [other, old]}}))
    settings.chmod(0o600)
    for _ in range(2):
        done = install(
            "claude-code",
            "--project",
            str(tmp_path),
            "--contained",
            "--wait",
            "300",
            "--program",
            "/opt/flybot/bin/flybot",
            cwd=tmp_path,
            home=tmp_path,
        )
        assert done.returncode == 0, done.stderr
    data = json.loads(settings.read_text())
    assert data["model"] == "opus"
    handler = [
        {"type": "command", "timeout": 600, "command": "/opt/flybot/bin/flybot hook claude-code --contained --wait 300"}
    ]
    ours = {"matcher": TOOL_MATCHER, "hooks": handler}
    assert data["hooks"]["PreToolUse"] == [other, {"matcher": "Bash", "hooks": [old["hooks"][1]]}, ours]
    assert data["hooks"]["PreSkillShellCommand"] == [{"matcher": "Bash", "hooks": handler}]
    assert data["hooks"]["PermissionRequest"] == [ours]
    assert settings.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in settings.parent.iterdir()] == ["settings.json"], "no temporary file left behind"


def test_install_refuses_settings_it_cannot_read_and_changes_nothing(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    for text in ("{not json", "[1, 2]", '{"hooks": []}', '{"hooks": {"PreToolUse": {"matcher": "Bash"}}}'):
        settings.write_text(text)
        done = install("claude-code", cwd=tmp_path, home=tmp_path)
        assert done.returncode == 2 and "nothing was changed" in done.stderr, (text, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
        assert settings.read_text() == text


def test_install_prints_codex_hooks_json_for_the_user_without_writing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    done = install("codex", "--user", "--print", "--program", "flybot", cwd=tmp_path, home=home)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "hooks": {
            event: [{"matcher": "Bash", "hooks": [{"type": "command", "command": "flybot hook codex", "timeout": 600}]}]
            for event in ("PreToolUse", "PermissionRequest")
        }
    }
    assert not (home / ".codex").exists()
    written = install("codex", "--user", "--program", "flybot", cwd=tmp_path, home=home)
    assert written.returncode == 0 and json.loads((home / ".codex" / "hooks.json").read_text()) == json.loads(
        done.stdout
    )


def test_the_docs_snippet_configures_all_three_events() -> None:
    adapters = (ROOT / "docs" / "adapters.md").read_text()
    for name in ("PreToolUse", "PreSkillShellCommand", "PermissionRequest"):
        assert f'"{name}": [' in adapters, name


def test_install_writes_the_running_flybot_by_its_absolute_path_whatever_the_path(tmp_path: Path) -> None:
    # A bare "flybot" that the agent's PATH does not find exits 127: Claude Code takes that as no decision and runs
    # the call unasked. The hook names the flybot running the install, which the README's venv does not put on PATH.
    env = env_for(HOME=str(tmp_path), PATH="/usr/bin:/bin")
    done = subprocess.run(
        [sys.executable, *ENTRY, "hook", "install", "claude-code", "--project", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    program = shlex.split(data["hooks"]["PreToolUse"][0]["hooks"][0]["command"])[0]
    assert os.path.isabs(program) and os.path.basename(program) == "flybot"
    assert os.access(program, os.X_OK)


# -- the workspace is CLAUDE_PROJECT_DIR, the event's cwd only where the call runs ------------------------------------
def bash_event(command: str, cwd: str) -> dict[str, Any]:
    """A PreToolUse Bash event run from ``cwd`` (the agent's shell stays where an earlier ``cd`` left it)."""
    return {"session_id": "s-cd", "transcript_path": "/dev/null", "cwd": cwd, "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
            "tool_use_id": "toolu_cd"}  # fmt: skip


async def test_a_call_after_a_cd_out_of_the_project_is_graded_there_not_as_the_workspace(
    harness: Harness, tmp_path: Path
) -> None:
    """Claude Code's hooks reference: ``CLAUDE_PROJECT_DIR`` is the project's root; the event's ``cwd`` follows the
    agent's ``cd``. From ``/etc/cron.d`` a relative write is a write there."""
    project = tmp_path / "proj"
    project.mkdir()
    token = await harness.add_bot()
    command = "printf '* * * * * root sh /tmp/x\\n' > flybot-job"
    run = await start_hook(
        json.dumps(bash_event(command, "/etc/cron.d")).encode(),
        project,
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
        CLAUDE_PROJECT_DIR=str(project),
    )
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None
    assert (stored.risk, stored.cwd) == ("destructive", str(project)), (stored.risk, stored.cwd)
    assert stored.command == f"cd -- /etc/cron.d || exit 1\n{command}", stored.command
    await deny_with(harness, escalation_id, "not there")
    code, out, err = await run.finish()
    assert code == 0 and answer_of(out, "PreToolUse")["permissionDecision"] == "deny", (out, err)


async def test_a_call_in_a_project_subdirectory_keeps_everyday_writes_in_the_workspace(
    harness: Harness, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    token = await harness.add_bot()
    for cwd, project_dir in ((project / "src", str(project)), (project / "src", "")):  # "": unset, the cwd is it
        run = await start_hook(
            json.dumps(bash_event("mkdir -p out && echo x > out/x.txt", str(cwd))).encode(),
            project,
            FLYBOT_URL=harness.url,
            FLYBOT_TOKEN=token,
            CLAUDE_PROJECT_DIR=project_dir,
        )
        code, out, err = await run.finish()
        assert code == 0 and answer_of(out, "PreToolUse")["permissionDecision"] == "allow", (project_dir, out, err)
    assert await escalations_created(harness) == []


async def test_a_file_tool_call_is_judged_against_the_project_not_the_drifted_cwd(
    harness: Harness, tmp_path: Path
) -> None:
    """A Write into the directory the agent ``cd``-ed to outside the project is a write outside the workspace; a
    Write in the project is still answered without asking."""
    project, elsewhere = tmp_path / "proj", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    token = await harness.add_bot()

    def write_event(path: Path) -> bytes:
        data = bash_event("x", str(elsewhere))
        data.update(tool_name="Write", tool_input={"file_path": str(path), "content": "x\n"}, tool_use_id="toolu_w")
        return json.dumps(data).encode()

    run = await start_hook(
        write_event(project / "notes.txt"), project, FLYBOT_URL=harness.url, FLYBOT_TOKEN=token,
        CLAUDE_PROJECT_DIR=str(project),
    )  # fmt: skip
    code, out, err = await run.finish()
    assert code == 0 and answer_of(out, "PreToolUse")["permissionDecision"] == "allow", (out, err)
    assert await escalations_created(harness) == []
    run = await start_hook(
        write_event(elsewhere / "notes.txt"), project, FLYBOT_URL=harness.url, FLYBOT_TOKEN=token,
        CLAUDE_PROJECT_DIR=str(project),
    )  # fmt: skip
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.cwd == str(project), stored
    await deny_with(harness, escalation_id, "stay in the project")
    code, out, err = await run.finish()
    assert code == 0 and answer_of(out, "PreToolUse")["permissionDecision"] == "deny", (out, err)


async def test_a_concat_list_the_hook_read_reaches_the_server_with_the_escalation(
    harness: Harness, tmp_path: Path
) -> None:
    """ffmpeg -safe 0: the hook reads the concat list in the workspace and sends what it names (recipe tool
    ``ffmpeg``); the server grades the same secret read, not the destructive grade of a list nobody reported."""
    project = tmp_path / "proj"
    project.mkdir()
    (project / "list.txt").write_text("file 'clip.mp4'\nfile '/root/.ssh/id_rsa'\n")
    token = await harness.add_bot()
    command = "ffmpeg -f concat -safe 0 -i list.txt -c copy out.mp4"
    run = await start_hook(
        json.dumps(bash_event(command, str(project))).encode(),
        project,
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
        CLAUDE_PROJECT_DIR=str(project),
    )
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "network", stored.risk if stored else None
    await deny_with(harness, escalation_id, "no keys")
    code, out, err = await run.finish()
    assert code == 0 and answer_of(out, "PreToolUse")["permissionDecision"] == "deny", (out, err)
