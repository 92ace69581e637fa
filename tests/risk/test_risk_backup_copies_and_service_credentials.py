"""Host credential files by other names: an editor's backup, swap or auto-save copy of a secret file (``.netrc~``,
``..netrc.swp``, ``id_rsa.bak``), systemd's service credentials (``/run/credentials/UNIT/NAME``), and FlyBot's
own state where ``FLYBOT_STATE_DIR`` puts it, graded by ``flybot classify`` as the hook grades it. Each case has
a neighbour that stays a plain read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.sensitive import backed_up
from tests.test_cli import clean_env

RO = RiskLevel.READ_ONLY
NET = RiskLevel.NETWORK


def assess(command: str, workspace: Path) -> tuple[RiskLevel, set[str]]:
    found = classify(command, contained=False, workspace=workspace)
    return found.risk, {r.rule for r in found.reasons}


@pytest.mark.parametrize(
    ("command", "neighbour"),
    [
        ("cat /root/.netrc~", "cat /root/notes.txt~"),
        ("cat ~/.netrc.bak", "cat ~/.vimrc.bak"),
        ("cat /root/..netrc.swp", "cat /root/.vimrc.swp"),
        ("cat '/root/#.netrc#'", "cat '/root/#notes.txt#'"),
        ("cat ~/.ssh/id_rsa.orig", "cat ~/.ssh/known_hosts.old"),
        ("cat ~/.aws/credentials.old", "cat ~/.vimrc.old"),
        ("cat ~/.gitconfig.old", "cat ~/.gitignore.old"),
        ("cat /etc/shadow.dpkg-old", "cat /etc/hosts.dpkg-old"),
        ("cat ~/.pgpass.save", "cat ~/.inputrc.save"),
        ("cat deploy/id_ed25519.bak", "cat deploy/README.md.bak"),
        ("cat /run/credentials/nginx.service/tls-key", "cat /run/systemd/resolve/resolv.conf"),
        ("cat /var/run/credentials/app.service/db-password", "cat /var/run/utmp"),
        ("cp /run/credentials/app.service/token ./t", "cp /run/motd.dynamic ./m"),
    ],
)
def test_backup_copies_and_service_credentials_are_secret_reads(tmp_path: Path, command: str, neighbour: str) -> None:
    level, rules = assess(command, tmp_path)
    assert level >= NET and "secret-read" in rules, (command, rules)
    assert "secret-read" not in assess(neighbour, tmp_path)[1], neighbour


def test_a_backup_name_is_read_back_to_the_file_it_copies() -> None:
    assert backed_up("/root/.netrc~") == "/root/.netrc"
    assert backed_up("/root/..netrc.swp") == "/root/.netrc"
    assert backed_up("~/.ssh/#id_rsa#") == "~/.ssh/id_rsa"
    assert backed_up("id_rsa.bak") == "id_rsa"
    assert backed_up("/root/.netrc") is None
    assert backed_up("/root/~") is None


def _classify_cli(command: str, cwd: Path, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "classify", "--json", "--", command],
        cwd=cwd,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["risk"])


def test_flybot_classify_knows_the_state_directory_its_environment_names(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "local.json").write_text("{}")
    command = f"cat {state}/local.json"
    assert _classify_cli(command, tmp_path, FLYBOT_STATE_DIR=str(state)) == "network"
    # another directory's local.json is not FlyBot's state
    assert _classify_cli(f"cat {tmp_path}/local.json", tmp_path, FLYBOT_STATE_DIR=str(state)) == "read_only"
