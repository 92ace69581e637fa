"""``flybot codex`` drives the real Codex CLI (npm ``@openai/codex``, pinned in .ci/run) through
``codex app-server`` against a scripted Responses API on loopback (tests/scripted_models.py), a real FlyBot and the
Slack emulation. Every JSON-RPC message ``flybot codex`` sent and received (its ``--transcript``) is validated
against the JSON Schema the same binary writes (``codex app-server generate-json-schema``).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator

from cards import APPROVE_ACTION, REVIEW_APPROVE_ACTION, SHOW_JUSTIFICATION_ACTION
from tests.agents import agent_binary
from tests.harness import OWNER, Harness, free_socket
from tests.scripted_models import ResponsesAPI
from tests.test_hooks import ROOT, deny_with, escalations_created, pending_id

pytestmark = pytest.mark.timeout(240)

#: Answers FlyBot sends to server requests, by the request's method: the schema file of the answer.
ANSWER_SCHEMAS = {
    "item/commandExecution/requestApproval": "CommandExecutionRequestApprovalResponse.json",
    "execCommandApproval": "ExecCommandApprovalResponse.json",
    "item/fileChange/requestApproval": "FileChangeRequestApprovalResponse.json",
    "applyPatchApproval": "ApplyPatchApprovalResponse.json",
    "item/permissions/requestApproval": "PermissionsRequestApprovalResponse.json",
}
#: Results Codex returns to FlyBot's requests, by method.
RESULT_SCHEMAS = {
    "initialize": "v1/InitializeResponse.json",
    "thread/start": "v2/ThreadStartResponse.json",
    "turn/start": "v2/TurnStartResponse.json",
    "turn/interrupt": "v2/TurnInterruptResponse.json",
    "turn/steer": "v2/TurnSteerResponse.json",
}


@pytest.fixture(scope="module")
def codex_schema(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("codex-schema")
    subprocess.run(
        [agent_binary("codex"), "app-server", "generate-json-schema", "--out", str(out)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return out


@pytest.fixture
async def model() -> AsyncIterator[ResponsesAPI]:
    api = ResponsesAPI()
    await api.start()
    try:
        yield api
    finally:
        await api.close()


def validate_transcript(schema_dir: Path, transcript: Path) -> list[dict[str, Any]]:
    """Validate every message against Codex's schema; check one answer per server request. Returns the messages."""
    validators: dict[str, Draft7Validator] = {}

    def check(name: str, instance: Any, where: str) -> None:
        if name not in validators:
            validators[name] = Draft7Validator(json.loads((schema_dir / name).read_text()))
        errors = sorted(validators[name].iter_errors(instance), key=str)
        assert not errors, f"{where} does not match {name}: {errors[0].message[:500]}"

    ours: dict[Any, str] = {}
    theirs: dict[str, str] = {}
    answers: dict[str, int] = {}
    resolved: set[str] = set()
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert records, "empty transcript"
    for record in records:
        message, direction = record["message"], record["dir"]
        where = f"{direction} {json.dumps(message)[:300]}"
        assert "jsonrpc" not in message, where
        if direction == "sent":
            if "method" in message and "id" in message:
                ours[message["id"]] = message["method"]
                check("ClientRequest.json", message, where)
            elif "method" in message:
                check("ClientNotification.json", message, where)
            else:
                key = json.dumps(message["id"])
                answers[key] = answers.get(key, 0) + 1
                if "error" in message:
                    check("JSONRPCError.json", message, where)
                else:
                    check(ANSWER_SCHEMAS[theirs[key]], message["result"], where)
        else:
            if "method" in message and "id" in message:
                theirs[json.dumps(message["id"])] = message["method"]
                check("ServerRequest.json", message, where)
            elif "method" in message:
                check("ServerNotification.json", message, where)
                if message["method"] == "serverRequest/resolved":
                    resolved.add(json.dumps(message["params"]["requestId"]))
            elif "error" in message:  # e.g. turn/interrupt after the turn ended
                check("JSONRPCError.json", message, where)
            else:
                check(RESULT_SCHEMAS[ours[message["id"]]], message["result"], where)
    for key in theirs:
        assert answers.get(key, 0) == 1 or (key in resolved and answers.get(key, 0) == 0), (key, answers)
    return [r["message"] for r in records]


def decisions(messages: list[dict[str, Any]]) -> list[str]:
    return [m["result"]["decision"] for m in messages if "result" in m and "decision" in (m.get("result") or {})]


async def start_codex(
    tmp: Path, model: ResponsesAPI, flybot_url: str, token: str, *args: str
) -> asyncio.subprocess.Process:
    home = tmp / "codex-home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLYBOT_", "SLACK_", "OPENAI", "CODEX"))}
    # Codex's own temporary directory is private to the test and holds neither CODEX_HOME nor the workspace: Codex
    # refuses to put its sandbox helper (codex-linux-sandbox, in CODEX_HOME) under the temporary directory, and
    # without it every sandboxed command fails.
    (tmp / "codex-tmp").mkdir(exist_ok=True)
    env.update(
        HOME=str(tmp / "home"),
        CODEX_HOME=str(home),
        TMPDIR=str(tmp / "codex-tmp"),
        PYTHONPATH=str(ROOT),
        FLYBOT_URL=flybot_url,
        FLYBOT_TOKEN=token,
    )
    provider = f'model_providers.scripted={{name="scripted", base_url="{model.url}", wire_api="responses"}}'
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "codex",
        "--codex",
        agent_binary("codex"),
        "-c",
        "model_provider=scripted",
        "-c",
        provider,
        "--model",
        "gpt-5.1-codex",
        "--cwd",
        str(tmp / "work"),
        "--transcript",
        str(tmp / "t.jsonl"),
        *args,
        "--",
        "Run the scripted step.",
        cwd=tmp,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def finish(proc: asyncio.subprocess.Process) -> tuple[int, str, str]:
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 180)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def work(tmp: Path) -> Path:
    """The workspace ``tmp/work`` and a file in the session's home (``tmp/home``, outside it), named ``~/keep.txt``
    by the scripted commands: changing it is a system command on the host, above the default ceiling."""
    (tmp / "work").mkdir()
    target = tmp / "home" / "keep.txt"
    target.parent.mkdir()
    target.write_text("still here\n")
    target.chmod(0o644)
    return target


async def test_codex_runs_the_command_after_the_owner_approves_it_in_chat(
    harness: Harness, model: ResponsesAPI, codex_schema: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    target = work(tmp_path)
    model.command = "chmod 600 ~/keep.txt"  # a system command on the host: above the default ceiling
    proc = await start_codex(tmp_path, model, harness.url, token)
    escalation_id = await pending_id(harness)
    card = json.dumps(harness.card_for(escalation_id)["blocks"])
    assert "chmod 600" in card and model.justification in card  # Codex's own reason is on the card
    assert target.stat().st_mode & 0o777 == 0o644
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    code, _out, err = await finish(proc)
    assert code == 0, err
    assert target.stat().st_mode & 0o777 == 0o600
    messages = validate_transcript(codex_schema, tmp_path / "t.jsonl")
    assert decisions(messages) == ["accept"]
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.status == "approved" and not stored.contained


async def test_codex_does_not_run_the_command_the_owner_denies(
    harness: Harness, model: ResponsesAPI, codex_schema: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    target = work(tmp_path)
    model.command = "chmod 600 ~/keep.txt"
    proc = await start_codex(tmp_path, model, harness.url, token)
    escalation_id = await pending_id(harness)
    await deny_with(harness, escalation_id, "leave the permissions alone")
    code, _out, err = await finish(proc)
    assert code == 0, err  # declined: the turn goes on and completes
    assert target.stat().st_mode & 0o777 == 0o644
    messages = validate_transcript(codex_schema, tmp_path / "t.jsonl")
    assert decisions(messages) == ["decline"]
    assert len(model.outputs()) == 1  # Codex told the model the command was not run
    after = json.dumps(model.requests[-1]["input"])  # the model's next request holds the owner's reason
    assert "leave the permissions alone" in after, after[-3000:]


async def test_interrupting_flybot_codex_withdraws_the_card_cancels_and_interrupts_the_turn(
    harness: Harness, model: ResponsesAPI, codex_schema: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    target = work(tmp_path)
    model.command = "chmod 600 ~/keep.txt"
    proc = await start_codex(tmp_path, model, harness.url, token)
    escalation_id = await pending_id(harness)
    proc.send_signal(signal.SIGINT)
    code, _out, err = await finish(proc)
    assert code == 128 + signal.SIGINT.value, err
    assert "interrupted by SIGINT" in err
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.status == "withdrawn"
    assert target.stat().st_mode & 0o777 == 0o644
    messages = validate_transcript(codex_schema, tmp_path / "t.jsonl")
    # The turn is interrupted first; Codex then settles its pending request itself (serverRequest/resolved) unless
    # FlyBot's "cancel" got there first: either way exactly one settlement (checked in validate_transcript).
    assert any(m.get("method") == "turn/interrupt" for m in messages)
    assert decisions(messages) in (["cancel"], [])


async def test_codex_cancels_when_flybot_is_unreachable(
    model: ResponsesAPI, codex_schema: Path, tmp_path: Path
) -> None:
    target = work(tmp_path)
    model.command = "chmod 600 ~/keep.txt"
    closed = free_socket()
    try:
        proc = await start_codex(
            tmp_path, model, f"http://127.0.0.1:{closed.getsockname()[1]}", "fbt_whatever", "--timeout", "5"
        )
        code, _out, err = await finish(proc)
    finally:
        closed.close()
    assert code == 1 and "unreachable" in err, err  # cancel interrupts the turn
    assert target.stat().st_mode & 0o777 == 0o644
    assert decisions(validate_transcript(codex_schema, tmp_path / "t.jsonl")) == ["cancel"]


async def test_a_file_change_card_lists_the_files_and_the_diff_and_approval_writes_them(
    harness: Harness, model: ResponsesAPI, codex_schema: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    work(tmp_path)
    # Codex turns an apply_patch heredoc into a file change; in a read-only sandbox every file change asks.
    model.escalate = False
    lines = [f"line {i:03d} written by the scripted model" for i in range(60)]  # ~2500 characters of diff
    model.command = (
        "apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: notes.txt\n"
        + "".join(f"+{line}\n" for line in lines)
        + "*** End Patch\nPATCH"
    )
    proc = await start_codex(tmp_path, model, harness.url, token, "--sandbox", "read-only")
    escalation_id = await pending_id(harness)
    card = json.dumps(harness.card_for(escalation_id)["blocks"])
    assert "notes.txt" in card and lines[0] in card and lines[-1] not in card  # the card shows the diff's start
    # The card cuts the diff, so it has no one-click Approve: Review and approve shows it whole, with Approve.
    card_actions = [
        e.get("action_id")
        for b in harness.card_for(escalation_id)["blocks"]
        if b.get("type") == "actions"
        for e in b["elements"]
    ]
    assert APPROVE_ACTION not in card_actions and REVIEW_APPROVE_ACTION in card_actions
    assert SHOW_JUSTIFICATION_ACTION in card_actions  # "Show full justification" (read-only) is offered too
    await harness.click(OWNER, escalation_id, REVIEW_APPROVE_ACTION)
    await harness.eventually(lambda: harness.open_modal(OWNER))
    review = harness.open_modal(OWNER)
    assert review is not None and review["view"]["submit"]["text"] == "Approve"
    whole = "".join(
        el["elements"][0]["text"]
        for b in review["view"]["blocks"]
        if b.get("type") == "rich_text"
        for el in b["elements"]
        if el.get("type") == "rich_text_preformatted"
    )
    assert all(line in whole for line in lines), whole[-300:]
    assert (await harness.submit_modal(OWNER, review["id"], {}))["status"] == 200
    code, _out, err = await finish(proc)
    assert code == 0, err
    assert (tmp_path / "work" / "notes.txt").read_text() == "".join(f"{line}\n" for line in lines)
    messages = validate_transcript(codex_schema, tmp_path / "t.jsonl")
    assert any(m.get("method") == "item/fileChange/requestApproval" for m in messages)
    assert decisions(messages) == ["accept"]


def test_flybot_codex_usage_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLYBOT_", "CODEX"))}
    env["PYTHONPATH"] = str(ROOT)
    for args in (
        ["--codex", sys.executable],
        ["--codex", str(tmp_path / "no-such-codex"), "--", "hi"],
        ["--codex", sys.executable, "--cwd", str(tmp_path / "missing"), "--", "hi"],
        ["--codex", sys.executable, "--transcript", str(tmp_path / "no" / "dir" / "t.jsonl"), "--", "hi"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "bot", "codex", *args],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=60,
        )
        assert done.returncode == 2 and done.stdout == "", (args, done)
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr


def test_every_decision_flybot_can_send_matches_the_codex_schema(codex_schema: Path) -> None:
    """Also the older requests' answers, which the scripted turns above do not reach (Codex 0.171.0 sends the v2
    requests): each verdict's decision is validated against the CLI's own response schemas."""
    from bot.hooks.codex import decision_for, permissions_result
    from bot.hooks.gate import Grade, Verdict
    from bot.risk.model import RiskLevel

    graded = Grade("chmod 600 x", RiskLevel.SYSTEM, RiskLevel.WORKSPACE_WRITE)
    verdicts = [
        Verdict(outcome, graded, {"id": "esc_1", "status": outcome, "decided_by": "U0OWNER", "reason": "no"})
        for outcome in (
            "local",
            "approved",
            "denied",
            "expired",
            "withdrawn",
            "undeliverable",
            "timeout",
            "unreachable",
            "refused",
            "unconfigured",
            "interrupted",
        )
    ]
    schemas = {name: Draft7Validator(json.loads((codex_schema / name).read_text())) for name in ANSWER_SCHEMAS.values()}
    for method, name in ANSWER_SCHEMAS.items():
        legacy = method in ("execCommandApproval", "applyPatchApproval")
        for verdict in verdicts:
            answer = {"decision": decision_for(verdict, legacy=legacy)}
            if method == "item/permissions/requestApproval":
                answer = permissions_result(
                    verdict, {"fileSystem": {"write": ["/srv/x"]}, "network": {"enabled": True}}
                )
            errors = list(schemas[name].iter_errors(answer))
            assert not errors, (method, verdict.outcome, answer, errors[0].message)


# -- the PermissionRequest hook in a Codex session (hooks.json) -------------------------------------------------------
async def trust_hooks(home: Path, cwd: Path) -> list[str]:
    """Trust every hook in ``home/hooks.json`` as Codex's own hook review does: ask ``codex app-server`` for the
    hooks (``hooks/list``: each one's ``key`` and ``currentHash``) and record ``[hooks.state."KEY"] trusted_hash =
    "HASH"`` in ``home/config.toml``; Codex runs an untrusted hook only with ``--dangerously-bypass-hook-trust``.
    Returns the keys trusted."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "CODEX"))}
    env["CODEX_HOME"] = str(home)
    proc = await asyncio.create_subprocess_exec(
        agent_binary("codex"),
        "app-server",
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None

    async def call(request_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write((json.dumps({"id": request_id, "method": method, "params": params}) + "\n").encode())
        await proc.stdin.drain()
        while True:
            message = json.loads(await asyncio.wait_for(proc.stdout.readline(), 60))
            if message.get("id") == request_id:
                return dict(message["result"])

    try:
        await call(1, "initialize", {"clientInfo": {"name": "flybot-tests", "title": "tests", "version": "0"}})
        proc.stdin.write(b'{"method": "initialized"}\n')
        listed = await call(2, "hooks/list", {"cwds": [str(cwd)]})
    finally:
        proc.stdin.close()  # the app-server (run by the npm wrapper, which passes its pipes on) ends at EOF
        try:
            await asyncio.wait_for(proc.wait(), 30)
        except TimeoutError:
            proc.kill()
            raise
    hooks = [h for entry in listed["data"] for h in entry["hooks"] if h["source"] == "user"]
    with (home / "config.toml").open("a") as config:
        for hook in hooks:
            config.write(f"[hooks.state.{json.dumps(hook['key'])}]\ntrusted_hash = {json.dumps(hook['currentHash'])}\n")
    return [h["key"] for h in hooks]


async def codex_with_the_hook(tmp: Path) -> Path:
    """``$CODEX_HOME/hooks.json`` as ``flybot hook install codex --user`` writes it, trusted."""
    from bot.hooks.install import merged

    home = tmp / "codex-home"
    home.mkdir()
    hook = " ".join([sys.executable, "-m", "bot", "hook", "codex"])
    (home / "hooks.json").write_text(json.dumps(merged({}, "codex", hook)))
    keys = await trust_hooks(home, tmp / "work")
    assert sorted(keys) == [f"{home / 'hooks.json'}:{event}:0:0" for event in ("permission_request", "pre_tool_use")]
    return home


async def second_card(harness: Harness, first: str) -> str:
    """The id of the first escalation created after ``first``, once its card is posted (the card is an outbox job
    that follows the escalation's creation; waits up to the test's timeout)."""
    while True:
        later = [e for e in await escalations_created(harness) if e != first]
        if later:
            break
        await asyncio.sleep(0.05)

    def posted() -> bool:
        try:
            harness.card_for(later[0])
        except AssertionError:
            return False
        return True

    await harness.eventually(posted, timeout=30)
    return later[0]


async def test_the_permission_request_hook_answers_codex_before_its_own_approval_request(
    harness: Harness, model: ResponsesAPI, codex_schema: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    target = work(tmp_path)
    await codex_with_the_hook(tmp_path)
    model.command = "chmod 600 ~/keep.txt"
    proc = await start_codex(tmp_path, model, harness.url, token)
    # PreToolUse asks first (it cannot tell that Codex will ask for this command again): approved, Codex goes on
    first = await pending_id(harness)
    await harness.click(OWNER, first, APPROVE_ACTION)
    escalation_id = await second_card(harness, first)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.session_id != "" and stored.justification == model.justification
    assert target.stat().st_mode & 0o777 == 0o644
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    code, _out, err = await finish(proc)
    assert code == 0, err
    assert target.stat().st_mode & 0o777 == 0o600
    messages = validate_transcript(codex_schema, tmp_path / "t.jsonl")
    assert decisions(messages) == [], "the hook answered: Codex asked flybot codex nothing"
    assert len(await escalations_created(harness)) == 2


async def test_the_permission_request_hooks_deny_keeps_the_command_from_running(
    harness: Harness, model: ResponsesAPI, codex_schema: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    target = work(tmp_path)
    await codex_with_the_hook(tmp_path)
    model.command = "chmod 600 ~/keep.txt"
    proc = await start_codex(tmp_path, model, harness.url, token)
    await deny_with(harness, await pending_id(harness), "leave the permissions alone")
    code, _out, err = await finish(proc)
    assert code == 0, err
    assert target.stat().st_mode & 0o777 == 0o644
    messages = validate_transcript(codex_schema, tmp_path / "t.jsonl")
    assert decisions(messages) == [], "the hook answered: Codex asked flybot codex nothing"
    assert len(await escalations_created(harness)) == 1
    (output,) = model.outputs()
    assert "denied by @Olivia: leave the permissions alone" in output, output  # the hook's message reaches the model


KEY = "PRIVATE-KEY-sk-live-secret"


def a_key_in_home(tmp: Path) -> None:
    """``~/.ssh/id_rsa`` (a fake key) in the session's home, outside the workspace."""
    ssh = tmp / "home" / ".ssh"
    ssh.mkdir(parents=True)
    (ssh / "id_rsa").write_text(KEY + "\n")
    (ssh / "id_rsa").chmod(0o600)


async def test_a_secret_read_in_codexs_sandbox_is_a_card_and_denied_the_key_never_reaches_the_model(
    harness: Harness, model: ResponsesAPI, codex_schema: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    work(tmp_path)
    a_key_in_home(tmp_path)
    await codex_with_the_hook(tmp_path)
    model.command, model.escalate = "cat ~/.ssh/id_rsa", False  # runs in Codex's sandbox: Codex itself asks nothing
    proc = await start_codex(tmp_path, model, harness.url, token)  # --sandbox workspace-write
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.command == "cat ~/.ssh/id_rsa" and stored.risk == "network", stored
    await deny_with(harness, escalation_id, "no keys for the model")
    code, _out, err = await finish(proc)
    assert code == 0, err
    messages = validate_transcript(codex_schema, tmp_path / "t.jsonl")
    assert decisions(messages) == [], "Codex asked flybot codex nothing: the hook decided"
    sent = json.dumps(model.requests)
    assert KEY not in sent
    (output,) = model.outputs()
    assert "no keys for the model" in output, output  # the owner's reason reaches the model
    assert len(await escalations_created(harness)) == 1


async def test_an_ordinary_command_in_codexs_sandbox_runs_with_no_card(
    harness: Harness, model: ResponsesAPI, codex_schema: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    work(tmp_path)
    a_key_in_home(tmp_path)
    (tmp_path / "work" / "app.py").write_text("print('hi')\n")
    await codex_with_the_hook(tmp_path)
    model.command, model.escalate = "ls", False
    proc = await start_codex(tmp_path, model, harness.url, token)
    code, _out, err = await finish(proc)
    assert code == 0, err
    (output,) = model.outputs()
    assert "app.py" in output, output
    assert await escalations_created(harness) == []
    assert decisions(validate_transcript(codex_schema, tmp_path / "t.jsonl")) == []


def permissions_request(tmp: Path, model: ResponsesAPI) -> Path:
    """The scripted model asks (Codex's ``request_permissions`` tool) to write a directory outside the workspace,
    then runs a command writing ``notes.txt`` there, in Codex's sandbox (workspace-write, no escalation asked: only
    the grant can let it write outside the workspace)."""
    outside = tmp / "outside"
    outside.mkdir()
    model.call = (
        "request_permissions",
        {"permissions": {"file_system": {"write": [str(outside)]}}, "reason": "write the release notes next door"},
    )
    model.then = ("exec_command", {"cmd": f"printf 'release notes\\n' > {outside / 'notes.txt'}"})
    return outside


#: ``flybot codex`` options for the permissions tests: the request_permissions tool on, and a workspace-write sandbox
#: whose writable places are the workspace alone (by default Codex adds /tmp and $TMPDIR, where the test's
#: directories are).
PERMISSIONS = (
    "-c",
    "features.request_permissions_tool=true",
    "-c",
    "sandbox_workspace_write.exclude_slash_tmp=true",
    "-c",
    "sandbox_workspace_write.exclude_tmpdir_env_var=true",
    "--sandbox",
    "workspace-write",
)


async def test_a_permissions_request_is_a_card_and_approval_grants_exactly_that_access_for_the_turn(
    harness: Harness, model: ResponsesAPI, codex_schema: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    work(tmp_path)
    outside = permissions_request(tmp_path, model)
    proc = await start_codex(tmp_path, model, harness.url, token, *PERMISSIONS)
    escalation_id = await pending_id(harness)
    card = json.dumps(harness.card_for(escalation_id)["blocks"])
    assert f"write {outside}" in card and "write the release notes next door" in card
    assert not (outside / "notes.txt").exists()
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    code, _out, err = await finish(proc)
    assert code == 0, err
    messages = validate_transcript(codex_schema, tmp_path / "t.jsonl")
    (granted,) = [m["result"] for m in messages if "result" in m and "permissions" in (m.get("result") or {})]
    assert granted["scope"] == "turn" and granted["permissions"]["fileSystem"]["write"] == [str(outside)]
    told, ran = model.outputs()  # what Codex told the model it was granted, then the sandboxed command's output
    assert str(outside) in told, told
    # the sandboxed command wrote outside the workspace: the grant reached Codex's sandbox
    assert (outside / "notes.txt").exists(), ran
    assert (outside / "notes.txt").read_text() == "release notes\n"
    assert len(await escalations_created(harness)) == 1  # the write itself asked no one


async def test_a_denied_permissions_request_grants_nothing_and_the_model_reads_why(
    harness: Harness, model: ResponsesAPI, codex_schema: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    work(tmp_path)
    outside = permissions_request(tmp_path, model)
    proc = await start_codex(tmp_path, model, harness.url, token, *PERMISSIONS)
    await deny_with(harness, await pending_id(harness), "stay inside the workspace")
    code, _out, err = await finish(proc)
    assert code == 0, err
    messages = validate_transcript(codex_schema, tmp_path / "t.jsonl")
    (granted,) = [m["result"] for m in messages if "result" in m and "permissions" in (m.get("result") or {})]
    assert granted["permissions"] == {}
    told, ran = model.outputs()
    assert str(outside) not in told, told
    assert "stay inside the workspace" in json.dumps(model.requests[-1]["input"])
    # the same write, in the same sandbox, fails without the grant
    assert not (outside / "notes.txt").exists(), ran
    assert "Read-only file system" in ran, ran
    assert len(await escalations_created(harness)) == 1  # the sandbox's refusal was not escalated


def test_command_approvals_say_what_is_typed_and_when_a_fresh_human_decision_is_required() -> None:
    from bot.hooks.codex import command_ask

    base = {"threadId": "t", "turnId": "u", "itemId": "i", "startedAtMs": 1, "cwd": "/w"}
    typed = command_ask(
        "item/commandExecution/requestApproval", {**base, "kind": "writeStdin", "command": "y\n"}, cwd="/w"
    )
    assert typed.typed and typed.command == "(typed into a running terminal) y\n"
    assert "TYPE the text" in typed.justification
    human = command_ask(
        "item/commandExecution/requestApproval",
        {**base, "kind": "humanCommand", "command": "terraform apply"},
        cwd="/w",
    )
    assert human.human and human.command == "terraform apply" and "fresh human decision" in human.justification
    plain = command_ask("item/commandExecution/requestApproval", {**base, "command": "ls"}, cwd="/w")
    assert not plain.human and not plain.typed and plain.justification == ""


async def test_a_command_codex_runs_in_another_directory_is_graded_there_not_as_the_workspace(
    harness: Harness, model: ResponsesAPI, tmp_path: Path
) -> None:
    # the shell tool's workdir is the model's choice for one call: the thread's --cwd stays the workspace. The
    # directory is outside the temporary area (a write anywhere below it is a temporary write): the denied command
    # writes nothing there, and a probe left by a failing run is removed.
    token = await harness.add_bot()
    work(tmp_path)
    elsewhere, probe = Path("/etc/cron.d"), Path("/etc/cron.d/flybot-codex-probe")
    model.call = ("exec_command", {"cmd": f"echo x > {probe.name}", "workdir": str(elsewhere),
                                   "sandbox_permissions": "require_escalated", "justification": "write it"})  # fmt: skip
    proc = await start_codex(tmp_path, model, harness.url, token)
    try:
        escalation_id = await pending_id(harness)
        stored = await harness.runtime.store.get_escalation(escalation_id)
        assert stored is not None
        assert stored.risk == "destructive" and stored.cwd == str(tmp_path / "work"), (stored.risk, stored.cwd)
        assert stored.command.startswith(f"cd -- {elsewhere} || exit 1\n"), stored.command
        await deny_with(harness, escalation_id, "not there")
        code, _out, err = await finish(proc)
        assert code == 0, err
        assert not probe.exists()
    finally:
        probe.unlink(missing_ok=True)
