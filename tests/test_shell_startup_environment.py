"""Code bash runs from its environment before or in place of the command graded: ``BASH_ENV`` (a file every
non-interactive bash reads first, its value expanded, so ``$(...)`` in it runs), exported functions
(``BASH_FUNC_NAME%%``, which replace the command ``NAME`` in every bash started) and ``SHELLOPTS`` naming ``xtrace``
(``PS4`` expanded before each command). Claude Code's Bash tool and Gemini CLI's shell run commands with the
environment their hooks get, and Gemini CLI loads the project's ``.env`` into it, which a workspace write may
change. Real ``flybot hook`` and ``flybot exec`` processes and the real agent CLIs against a real FlyBot with the
Slack emulation; every command is inert (``echo``), and the planted file only appends a line to a file in the test's
temp directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.harness import OWNER, Harness
from tests.scripted_models import GenerateContentAPI
from tests.test_gemini_cli import finished, install_as_owner, installed, model, start_gemini_as_owner, the_response
from tests.test_hooks import decision, escalations_created, event, start_exec, start_hook

__all__ = ["model"]
pytestmark = pytest.mark.timeout(240)


def planted(tmp: Path) -> tuple[Path, Path]:
    """A script in the workspace that appends to a marker file (never run unless bash reads it), and the marker."""
    ws = tmp / "ws"
    ws.mkdir(exist_ok=True)
    marker = tmp / "startup-ran"
    script = ws / "startup.sh"
    script.write_text(f"echo ran >> {marker}\n")
    return script, marker


def startup_variables(script: Path, marker: Path) -> list[dict[str, str]]:
    """Environments in which bash runs code the command does not show (each appends to ``marker``)."""
    return [
        {"BASH_ENV": str(script)},
        {"BASH_ENV": f"$(echo ran >> {marker})"},
        {"BASH_FUNC_echo%%": f'() {{ builtin echo ran >> {marker}; builtin echo "$@"\n}}'},
        {"SHELLOPTS": "xtrace", "PS4": f"$(echo ran >> {marker})"},
    ]


IDS = ["BASH_ENV file", "BASH_ENV expansion", "exported function", "xtrace PS4"]


@pytest.mark.parametrize("index", range(4), ids=IDS)
async def test_hook_asks_when_bash_would_run_code_from_its_environment(
    harness: Harness, tmp_path: Path, index: int
) -> None:
    """``echo hi`` is read_only, but under these variables the agent's bash runs other code first: the hook asks,
    and the escalation's command shows the variable, so the server grades it ``destructive`` too (no standing
    approval answers it)."""
    token = await harness.add_bot()
    reply = await harness.slash(OWNER, "standing add --bot ci-bot echo --host-ok --max-risk system")
    assert reply.startswith("Saved"), reply
    script, marker = planted(tmp_path)
    variables = startup_variables(script, marker)[index]
    run = await start_hook(
        json.dumps(event("echo hi", script.parent)).encode(),
        script.parent,
        "--wait",
        "2",
        "--on-no-decision",
        "deny",
        HOME=str(tmp_path / "home"),
        FLYBOT_STATE_DIR=str(tmp_path / "agent-state"),
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
        **variables,
    )
    code, out, err = await run.finish()
    assert code == 0, err
    verdict, reason = decision(out)
    assert verdict == "deny", reason
    (escalation_id,) = await escalations_created(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "destructive" and stored.status != "approved", stored
    name = next(iter(variables)).removesuffix("%%")
    assert f"export {name}=" in stored.command and stored.command.endswith("\necho hi"), stored.command
    assert not marker.exists()


async def test_hook_allows_echo_at_once_without_such_variables(harness: Harness, tmp_path: Path) -> None:
    """The everyday form: ``PS4`` alone (xtrace off) and ``ENV`` (read by interactive shells only) run nothing."""
    token = await harness.add_bot()
    script, marker = planted(tmp_path)
    run = await start_hook(
        json.dumps(event("echo hi", script.parent)).encode(),
        script.parent,
        HOME=str(tmp_path / "home"),
        FLYBOT_STATE_DIR=str(tmp_path / "agent-state"),
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
        PS4="+ ${BASH_SOURCE}:${LINENO}: ",
        ENV=str(script),
    )
    code, out, err = await run.finish()
    assert code == 0, err
    verdict, reason = decision(out)
    assert verdict == "allow" and "read_only" in reason, reason
    assert await escalations_created(harness) == []


@pytest.mark.parametrize("index", range(4), ids=IDS)
@pytest.mark.parametrize("command", [["echo hi"], ["bash", "-c", "echo hi"]], ids=["script", "argv"])
async def test_exec_runs_the_command_without_bash_startup_variables(
    harness: Harness, tmp_path: Path, index: int, command: list[str]
) -> None:
    """``flybot exec`` runs what it graded: the variables are dropped from the command's environment (as PATH's
    relative entries are), so ``echo hi`` runs at once and nothing else does."""
    token = await harness.add_bot()
    script, marker = planted(tmp_path)
    variables = startup_variables(script, marker)[index]
    run = await start_exec(
        script.parent, "--", *command, HOME=str(tmp_path), FLYBOT_URL=harness.url, FLYBOT_TOKEN=token, **variables
    )
    code, out, err = await run.finish()
    assert code == 0 and out == "hi\n", (out, err)
    assert not marker.exists()
    assert await escalations_created(harness) == []


async def test_gemini_takes_no_bash_env_from_a_project_env_file(
    harness: Harness, model: GenerateContentAPI, tmp_path: Path
) -> None:
    """Gemini CLI loads the project's ``.env`` (an ordinary workspace write) into the environment it starts its
    hooks and shell commands with: a ``BASH_ENV`` there would run its file before the hook itself, and before every
    command. ``flybot hook install gemini`` excludes it (``advanced.excludedEnvVars``); the ``.env``'s other
    variables still reach the command, which runs at once."""
    token = await harness.add_bot()
    proj, home, _state = installed(tmp_path)
    install_as_owner(home, FLYBOT_URL=harness.url, FLYBOT_TOKEN=token)
    settings = json.loads((home / ".gemini" / "settings.json").read_text())
    assert {"BASH_ENV", "DEBUG"} <= set(settings["advanced"]["excludedEnvVars"])
    marker = tmp_path / "startup-ran"
    (proj / "startup.sh").write_text(f'echo "ran: $BASH_EXECUTION_STRING" >> {marker}\n')
    (proj / ".env").write_text(f"BASH_ENV={proj / 'startup.sh'}\nAPP_MODE=scripted\n")
    model.command = 'echo "mode=$APP_MODE"'
    await finished(await start_gemini_as_owner(proj, home, model))
    assert "mode=scripted" in json.dumps(the_response(model))
    assert not marker.exists(), marker.read_text()
    assert await escalations_created(harness) == []
