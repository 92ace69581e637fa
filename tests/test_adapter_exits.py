"""The adapters' fast path (what they import), withdrawal on every way out (real signals to real
processes against a real FlyBot and the Slack emulation), ``--wait`` bounds, and the fail-closed choices
(``--on-no-decision``, permission modes in which ``ask`` is not enforced)."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.hooks.gate import DEFAULT_URL as DEFAULT_SERVER
from tests.harness import Harness, free_socket
from tests.test_hooks import ROOT, decision, env_for, event, no_traceback, pending_id, start_exec, start_hook
from tests.test_rules_cache import hold_fresh_rules

HEAVY = (
    "sqlalchemy",
    "alembic",
    "aiohttp",
    "pydantic",
    "pydantic_settings",
    "structlog",
    "slack_bolt",
    "slack_sdk",
    "asyncpg",
    "aiosqlite",
    "prometheus_client",
    "bot.store",
    "bot.app",
    "bot.settings",
    "bot.escalations",
    "bot.slack",
    "bot.preflight",
    "asyncio",
)


def modules_loaded(tmp: Path, argv: list[str], stdin: bytes = b"", exit_code: int = 0) -> set[str]:
    """The modules in ``sys.modules`` after ``flybot ARGV`` ran in a fresh interpreter (its exit code must be
    ``exit_code``)."""
    out = tmp / "modules.json"
    code = (
        "import json, sys\n"
        "from bot.cli import main\n"
        f"code = main({argv!r})\n"
        f"open({str(out)!r}, 'w').write(json.dumps(sorted(sys.modules)))\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=stdin, capture_output=True, cwd=tmp, env=env_for(), timeout=60
    )
    assert done.returncode == exit_code, done.stderr.decode()
    return set(json.loads(out.read_text()))


def heavy_in(modules: set[str], heavy: tuple[str, ...] = HEAVY) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in heavy))


# -- fast path ---------------------------------------------------------------------------------------------------------
def test_hook_exec_and_classify_fast_paths_load_no_server_store_or_client_modules(tmp_path: Path) -> None:
    hold_fresh_rules(DEFAULT_SERVER)  # a fresh copy of the rules (without one the adapters ask FlyBot)
    hook = modules_loaded(tmp_path, ["hook", "claude-code"], json.dumps(event("ls -la", tmp_path)).encode())
    assert "bot.risk.classifier" in hook and heavy_in(hook) == []
    exec_ = modules_loaded(tmp_path, ["exec", "--", "true"])
    assert "bot.risk.classifier" in exec_ and heavy_in(exec_) == []
    classify = modules_loaded(tmp_path, ["classify", "--", "ls", "-la"])
    assert "bot.risk.classifier" in classify and heavy_in(classify) == []
    # A plain command needs neither the bash grammar nor any program's rules but the shared kit (bot/risk/table.py);
    # typing, dataclasses (with inspect) and shutil cost milliseconds at start-up and are not needed (bot/values.py).
    for loaded in (hook, exec_, classify):
        assert heavy_in(loaded, ("tree_sitter", "tree_sitter_bash", "dataclasses", "inspect", "typing")) == []
        assert sorted(m for m in loaded if m.startswith("bot.risk.programs.")) == ["bot.risk.programs.kit"]
    assert "shutil" not in hook and "shutil" not in classify  # exec uses shutil.which to find the program
    assert "argparse" not in hook  # the hook's usual command line is read without it


HOOK_LINES = [
    [],
    ["--contained", "--ceiling", "read_only"],
    ["--ceiling=network", "--wait", "30", "--on-no-decision=deny", "--block-on-error"],
    ["--server", "http://127.0.0.1:1", "--token=fbt_x", "--room", "C0ROOM", "--mode", "workspace-write"],
    ["--tools", "Bash", "--tools=Bash,mcp", "--contained", "--contained", "--wait=", "--token", ""],
    ["--ceiling", "SYSTEM"],
]
#: Command lines only argparse answers (help, usage errors, abbreviations it expands, values it refuses).
ARGPARSE_LINES = [
    ["--help"],
    ["-h"],
    ["--cont"],
    ["--ceiling", "destructive"],
    ["--ceiling", "nonsense"],
    ["--on-no-decision", "allow"],
    ["--wait"],
    ["--wait", "-5"],
    ["--contained=yes"],
    ["extra"],
    ["--", "--contained"],
]


@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_the_hooks_command_line_read_without_argparse_is_what_argparse_reads(agent: str) -> None:
    from bot.cli_parser import build_parser
    from bot.hooks.cli import hook_args

    for words in HOOK_LINES:
        quick = hook_args(agent, words)
        assert quick is not None, words
        parsed = build_parser("hook", agent).parse_args(["hook", agent, *words])
        assert vars(quick) == vars(parsed), words
    for words in ARGPARSE_LINES:
        assert hook_args(agent, words) is None, words


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--ceiling", "destructive"], "a ceiling of destructive would let every command through unasked"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--on-no-decision", "allow"], "invalid choice: 'allow'"),
        (["--wait"], "argument --wait: expected one argument"),
    ],
)
def test_a_bad_hook_command_line_gets_argparses_usage_error(tmp_path: Path, words: list[str], said: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "hook", "claude-code", *words],
        input=b"{}",
        capture_output=True,
        cwd=tmp_path,
        env=env_for(),
        timeout=60,
    )
    err = done.stderr.decode()
    assert done.returncode == 2 and err.startswith("usage: flybot hook claude-code") and said in err, err
    assert done.stdout == b""


def test_a_hook_or_exec_that_escalates_loads_the_light_http_client_and_no_event_loop(tmp_path: Path) -> None:
    closed = free_socket()
    try:
        server = ["--server", f"http://127.0.0.1:{closed.getsockname()[1]}", "--token", "fbt_x"]
        hook = modules_loaded(
            tmp_path,
            ["hook", "claude-code", "--wait", "1", *server],
            json.dumps(event("sudo apt-get install -y jq", tmp_path)).encode(),
        )
        exec_ = modules_loaded(tmp_path, ["exec", "--timeout", "5", *server, "--", "git push"], exit_code=126)
    finally:
        closed.close()
    for loaded in (hook, exec_):
        assert "bot.client" in loaded and "_socket" in loaded
        # http.client loads the email package; ssl is for https:// only; uuid loads platform
        assert heavy_in(loaded, (*HEAVY, "concurrent", "http", "email", "ssl", "uuid")) == []
    assert "threading" not in hook  # exec's subprocess loads it; the hook has no thread
    # http:// goes through _socket: the socket module's enums are not built; nor is an argument parser
    assert "socket" not in hook and "argparse" not in hook


def test_flybot_help_still_lists_every_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--help"], capture_output=True, text=True, cwd=ROOT, env=env_for(), timeout=60
    )
    assert done.returncode == 0
    for command in (
        "serve",
        "ask",
        "db",
        "bots",
        "standing",
        "admin-tokens",
        "classify",
        "preflight",
        "hook",
        "exec",
        "codex",
    ):
        assert f"    {command}" in done.stdout, command


# -- --wait bounds -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("wait", ["inf", "nan", "900", "591", "0", "0.5", "-3", "soon"])
async def test_hook_refuses_a_wait_outside_1_to_590_seconds_with_one_line(tmp_path: Path, wait: str) -> None:
    run = await start_hook(
        json.dumps(event("sudo apt-get install -y jq", tmp_path)).encode(),
        tmp_path,
        "--wait",
        wait,
        FLYBOT_URL="http://127.0.0.1:9",
        FLYBOT_TOKEN="fbt_x",
    )
    code, out, err = await run.finish()
    assert code == 2 and out == "", (wait, code, out, err)  # exit 2: Claude Code blocks the call, shows the line
    assert len(err.strip().splitlines()) == 1 and "--wait" in err and "590" in err, err
    no_traceback(err)


# -- fail-closed choices -----------------------------------------------------------------------------------------------
async def _hook_unreachable(tmp: Path, mode: str | None, *args: str) -> tuple[str, str]:
    closed = free_socket()
    ev = event("sudo apt-get install -y jq", tmp)
    if mode is None:
        del ev["permission_mode"]
    else:
        ev["permission_mode"] = mode
    try:
        run = await start_hook(
            json.dumps(ev).encode(),
            tmp,
            "--wait",
            "2",
            *args,
            FLYBOT_URL=f"http://127.0.0.1:{closed.getsockname()[1]}",
            FLYBOT_TOKEN="fbt_x",
        )
        code, out, err = await run.finish()
    finally:
        closed.close()
    assert code == 0, err
    return decision(out)


async def test_on_no_decision_deny_denies_when_flybot_is_unreachable(tmp_path: Path) -> None:
    verdict, reason = await _hook_unreachable(tmp_path, "default", "--on-no-decision", "deny")
    assert verdict == "deny" and "unreachable" in reason and "--on-no-decision deny" in reason
    verdict, reason = await _hook_unreachable(tmp_path, "default")
    assert verdict == "ask" and "unreachable" in reason


@pytest.mark.parametrize("mode", ["bypassPermissions", "auto", "someFutureMode"])
async def test_hook_denies_instead_of_ask_where_the_permission_mode_would_not_enforce_ask(
    tmp_path: Path, mode: str
) -> None:
    verdict, reason = await _hook_unreachable(tmp_path, mode)
    assert verdict == "deny" and f"permission mode {mode}" in reason and "unreachable" in reason


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "plan", "dontAsk", None])
async def test_hook_keeps_ask_where_the_permission_mode_enforces_it(tmp_path: Path, mode: str | None) -> None:
    verdict, _reason = await _hook_unreachable(tmp_path, mode)
    assert verdict == "ask"


async def test_on_no_decision_deny_after_the_wait_runs_out_withdraws_and_denies(
    harness: Harness, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    run = await start_hook(
        json.dumps(event("sudo systemctl restart nginx", tmp_path)).encode(),
        tmp_path,
        "--wait",
        "2",
        "--on-no-decision",
        "deny",
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )
    escalation_id = await pending_id(harness)
    code, out, err = await run.finish()
    assert code == 0, err
    verdict, reason = decision(out)
    assert verdict == "deny" and "no decision within" in reason and escalation_id in reason
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.status == "withdrawn"


async def test_the_hook_says_how_long_it_really_waited_when_nobody_decides(harness: Harness, tmp_path: Path) -> None:
    """``--wait 8`` gives up about 2 s early (time kept for the withdraw): the reason names the time really waited,
    not the 8 s budget (a newcomer read "no decision within 8s" after 6.2 s)."""
    token = await harness.add_bot()
    started = time.monotonic()
    run = await start_hook(
        json.dumps(event("sudo systemctl restart nginx", tmp_path)).encode(),
        tmp_path,
        "--wait",
        "8",
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )
    await pending_id(harness)
    code, out, err = await run.finish()
    elapsed = time.monotonic() - started  # the whole hook process, start-up included
    assert code == 0, err
    verdict, reason = decision(out)
    claimed = re.search(r"no decision within ([0-9.]+)s", reason)
    assert verdict == "ask" and claimed is not None, reason
    assert float(claimed.group(1)) <= elapsed + 0.1, (reason, elapsed)
    assert float(claimed.group(1)) >= 4.0, reason  # it did wait most of the budget
    # the wait left once the hook had started (8 s less its start-up, which a loaded machine makes longer)
    budget = re.search(r"before the ([0-9.]+)s wait ran out", reason)
    assert budget is not None and 7.0 <= float(budget.group(1)) <= 8.0, reason


# -- withdraw on every way out -----------------------------------------------------------------------------------------
async def _card_is_closed(harness: Harness, escalation_id: str) -> None:
    """The card for ``escalation_id`` no longer offers buttons (the withdrawal reached chat)."""

    def closed() -> bool:
        card = harness.card_for(escalation_id)
        return not any(b.get("type") == "actions" for b in card["blocks"])

    await harness.eventually(closed, timeout=20)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
async def test_a_signalled_hook_withdraws_its_escalation_and_answers_before_exiting(
    harness: Harness, tmp_path: Path, sig: signal.Signals
) -> None:
    token = await harness.add_bot()
    run = await start_hook(
        json.dumps(event("sudo systemctl restart nginx", tmp_path)).encode(),
        tmp_path,
        "--wait",
        "120",
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )
    escalation_id = await pending_id(harness)
    run.proc.send_signal(sig)
    code, out, err = await run.finish()
    assert code == 0, err
    verdict, reason = decision(out)
    assert verdict == "ask" and f"interrupted by {sig.name}" in reason and "withdrawn" in reason, reason
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.status == "withdrawn"
    await _card_is_closed(harness, escalation_id)
    no_traceback(err)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
async def test_a_signalled_exec_withdraws_its_escalation_and_never_runs_the_command(
    harness: Harness, tmp_path: Path, sig: signal.Signals
) -> None:
    token = await harness.add_bot()
    marker = tmp_path / "ran"
    run = await start_exec(tmp_path, "--", f"sudo touch {marker}", FLYBOT_URL=harness.url, FLYBOT_TOKEN=token)
    escalation_id = await pending_id(harness)
    run.proc.send_signal(sig)
    code, _out, err = await run.finish()
    assert code == 128 + sig.value, err
    assert f"interrupted by {sig.name}" in err and "withdrawn" in err
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.status == "withdrawn"
    await _card_is_closed(harness, escalation_id)
    assert not marker.exists()
    no_traceback(err)


async def test_a_hook_signalled_while_creating_its_escalation_still_withdraws_it(
    harness: Harness, tmp_path: Path
) -> None:
    """Signalled as soon as the escalation exists, whether or not the hook has read FlyBot's answer yet: exactly one
    escalation, withdrawn (if the answer was not read, the same Idempotency-Key finds it without a second card)."""
    token = await harness.add_bot()
    run = await start_hook(
        json.dumps(event("sudo systemctl restart nginx", tmp_path)).encode(),
        tmp_path,
        "--wait",
        "120",
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )

    async def created() -> bool:
        return any(e.event == "escalation.created" for e in await harness.runtime.store.audit_log())

    while not await created():
        await asyncio.sleep(0.02)
    run.proc.send_signal(signal.SIGTERM)
    code, out, err = await run.finish()
    assert code == 0, err
    verdict, reason = decision(out)
    assert verdict == "ask" and "interrupted by SIGTERM" in reason
    ids = [e.escalation_id for e in await harness.runtime.store.audit_log() if e.event == "escalation.created"]
    assert len(ids) == 1 and ids[0] is not None
    stored = await harness.runtime.store.get_escalation(ids[0])
    assert stored is not None and stored.status == "withdrawn"


# -- inputs that crash the bash parser ---------------------------------------------------------------------------------
#: `{` (after optional digits, or `{N..`) then a character above U+00FF: tree-sitter-bash 0.25.1's scanner passes it to
#: C isdigit(), which reads its table out of bounds (tree-sitter/tree-sitter-bash#337); code points far above U+FFFF
#: crash the process with SIGSEGV in many runs ({U+10FFFF in about 4 of 10 fresh parses, a{U+10FFFF 7 of 10).
PARSER_CRASHERS = ["{\U0010ffff", "echo a{\U0010ffff", "echo {1..\U000e0001}", "{\U00100000 ls"]


@pytest.mark.parametrize("command", PARSER_CRASHERS)
async def test_hook_answers_a_command_that_crashes_the_bash_parser_instead_of_crashing(
    tmp_path: Path, command: str
) -> None:
    """A hook killed by SIGSEGV exits with a signal status, which Claude Code treats as a non-blocking error: the call
    would run. Each command runs through the real hook three times (a crash is likely but not certain in one run)."""
    for _ in range(3):
        run = await start_hook(json.dumps(event(command, tmp_path)).encode(), tmp_path)  # no FlyBot configured
        code, out, err = await run.finish()
        assert code == 0, (code, err)
        verdict, reason = decision(out)
        assert verdict == "ask" and "not configured" in reason, reason
        no_traceback(err)


async def test_a_command_that_crashes_the_bash_parser_goes_to_a_person_as_destructive(
    harness: Harness, tmp_path: Path
) -> None:
    """FlyBot grades the same text again on arrival: the server must not crash either, and the card says why."""
    token = await harness.add_bot()
    command = "echo a{\U0010ffff}"
    run = await start_hook(
        json.dumps(event(command, tmp_path)).encode(),
        tmp_path,
        "--wait",
        "2",
        "--on-no-decision",
        "deny",
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )
    escalation_id = await pending_id(harness)
    code, out, err = await run.finish()
    assert code == 0, (code, err)
    verdict, reason = decision(out)
    assert verdict == "deny" and escalation_id in reason
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "destructive"
    assert "crashes the bash parser" in json.dumps(harness.card_for(escalation_id), ensure_ascii=False)
