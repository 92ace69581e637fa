"""The hook's own settings file (bot/hooks/hook_settings.py): the URL, token and state directory of a hook whose
environment the workspace can fill (Gemini CLI loads the project's ``.env``) come from it, never from that
environment; a file others could have written is refused and the hook denies."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.hooks.gate import DEFAULT_URL
from bot.hooks.hook_settings import SettingsError, apply, load, write
from bot.hooks.rules_cache import RULES_FILE
from tests.test_hooks import ROOT
from tests.test_rules_cache import NO_OWN_STATE

HOSTILE = {
    "FLYBOT_URL": "http://127.0.0.1:9/",
    "FLYBOT_TOKEN": "fbt_decoy",
    "FLYBOT_STATE_DIR": "/ws/.state",
    "XDG_STATE_HOME": "/ws/.xdg",
    "SSL_CERT_FILE": "/ws/ca.pem",
    "https_proxy": "http://127.0.0.1:9",
    "PATH": "/usr/bin",
}


def owned(tmp_path: Path, **values: str) -> Path:
    state = tmp_path / "state"
    path = state / "hook-settings.json"
    write(str(path), values)
    return path


def test_install_records_the_owners_values_privately(tmp_path: Path) -> None:
    path = owned(tmp_path, FLYBOT_URL="http://127.0.0.1:8080", FLYBOT_TOKEN="fbt_x", HOME="/home/o")
    assert json.loads(path.read_text()) == {"url": "http://127.0.0.1:8080", "token": "fbt_x"}
    assert path.stat().st_mode & 0o777 == 0o600 and path.parent.stat().st_mode & 0o777 == 0o700


def test_the_environment_gives_way_to_the_settings(tmp_path: Path) -> None:
    path = owned(tmp_path, FLYBOT_URL="http://127.0.0.1:8080", FLYBOT_TOKEN="fbt_x", SSL_CERT_FILE="/etc/ca.pem")
    environ = dict(HOSTILE)
    assert apply(str(path), environ) == ("http://127.0.0.1:8080", "fbt_x")
    assert environ == {"PATH": "/usr/bin", "FLYBOT_STATE_DIR": str(path.parent), "SSL_CERT_FILE": "/etc/ca.pem"}


def test_local_mode_settings_keep_nothing_of_the_environment(tmp_path: Path) -> None:
    path = owned(tmp_path)
    environ = dict(HOSTILE)
    assert apply(str(path), environ) == (None, None)
    assert environ == {"PATH": "/usr/bin", "FLYBOT_STATE_DIR": str(path.parent)}


@pytest.mark.parametrize(
    ("mode", "folder_mode", "problem"),
    [(0o644, 0o700, "mode 0644"), (0o660, 0o700, "mode 0660"), (0o600, 0o777, "not yours alone")],
)
def test_a_file_others_could_write_or_read_is_refused(
    tmp_path: Path, mode: int, folder_mode: int, problem: str
) -> None:
    path = owned(tmp_path, FLYBOT_URL="http://127.0.0.1:8080")
    path.chmod(mode)
    path.parent.chmod(folder_mode)
    environ = dict(HOSTILE)
    with pytest.raises(SettingsError, match=problem):
        apply(str(path), environ)
    assert environ == HOSTILE


def test_a_link_a_relative_path_and_a_bad_url_are_refused(tmp_path: Path) -> None:
    path = owned(tmp_path)
    link = path.parent / "link.json"
    link.symlink_to(path)
    with pytest.raises(SettingsError, match="not your own file"):
        load(str(link))
    with pytest.raises(SettingsError, match="absolute"):
        load("state/hook-settings.json")
    path.write_text(json.dumps({"url": "file:///etc/passwd"}))
    with pytest.raises(SettingsError, match="not http"):
        load(str(path))
    path.write_text(json.dumps({"url": 8080}))
    with pytest.raises(SettingsError, match="JSON object of strings"):
        load(str(path))


def test_the_hook_denies_when_its_settings_cannot_be_trusted(tmp_path: Path) -> None:
    path = owned(tmp_path)
    path.chmod(0o666)
    event = {
        "session_id": "s1", "cwd": str(tmp_path), "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command", "tool_input": {"command": "ls"},
    }  # fmt: skip
    environ = {k: v for k, v in os.environ.items() if not k.startswith("FLYBOT_")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "hook", "gemini", "--settings", str(path)],
        input=json.dumps(event).encode(), capture_output=True, env={**environ, "PYTHONPATH": str(ROOT)}, timeout=60,
    )  # fmt: skip
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and answer["decision"] == "deny" and "mode 0666" in answer["reason"], answer


def test_the_hook_with_settings_grades_as_before(tmp_path: Path) -> None:
    """An everyday call at or below the ceiling is still allowed without asking (with a fresh copy of the program
    rules in the settings' state directory, as after a recent fetch)."""
    path = owned(tmp_path)
    copy = {"server": DEFAULT_URL, "fetched_at": time.time(), "max_age_s": 3600, "items": [], "own_state": NO_OWN_STATE}
    (path.parent / RULES_FILE).write_text(json.dumps(copy))
    event = {
        "session_id": "s1", "cwd": str(tmp_path), "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command", "tool_input": {"command": "ls"},
    }  # fmt: skip
    environ = {k: v for k, v in os.environ.items() if not k.startswith("FLYBOT_")}
    done = subprocess.run(
        [sys.executable, "-I", "-m", "bot", "hook", "gemini", "--settings", str(path)],
        input=json.dumps(event).encode(), capture_output=True, env={**environ, **HOSTILE, "PATH": os.environ["PATH"]},
        timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0 and json.loads(done.stdout)["decision"] == "allow", done.stderr
