"""Held-back corpus 21: the operations tools an SRE agent runs every day (promtool, amtool, systemd-analyze, nginx,
visudo, cloud-init, restic, rclone, borg) are graded by their catalogue entries, and their
uses that delete, run programs or print secrets stay high."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel as R
from tests.risk.both_sides import graded, project

_REPO = "s3:s3.amazonaws.com/ops-backups"
_BORG = "ssh://borg@backup.example.com/./ops"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("promtool check config monitoring/prometheus.yml", R.READ_ONLY),
        ("promtool check rules monitoring/rules/node.yml", R.READ_ONLY),
        ("promtool test rules monitoring/tests/node_test.yml", R.READ_ONLY),
        ("promtool query instant http://localhost:9090 up", R.NETWORK),
        ("promtool tsdb create-blocks-from rules --start 1 x.yml", R.DESTRUCTIVE),
        ("amtool check-config monitoring/alertmanager.yml", R.READ_ONLY),
        ("amtool config routes test --config.file=monitoring/alertmanager.yml severity=critical", R.READ_ONLY),
        ("amtool alert query --alertmanager.url=http://localhost:9093", R.NETWORK),
        ("amtool silence query --alertmanager.url=http://localhost:9093", R.NETWORK),
        ("amtool silence add 'alertname=~.+' --duration=720h --comment=q", R.DESTRUCTIVE),
        ("amtool silence expire $(amtool silence query -q)", R.DESTRUCTIVE),
        ("systemd-analyze verify deploy/app.service", R.READ_ONLY),
        ("systemd-analyze calendar '*-*-* 03:00'", R.READ_ONLY),
        ("systemd-analyze security app.service", R.READ_ONLY),
        ("systemd-analyze log-level", R.READ_ONLY),
        ("systemd-analyze log-level debug", R.SYSTEM),
        ("systemd-analyze verify --generators=yes deploy/app.service", R.DESTRUCTIVE),
        ("nginx -v", R.READ_ONLY),
        ("nginx -V", R.READ_ONLY),
        ("nginx -t", R.WORKSPACE_WRITE),
        ("sudo nginx -t", R.SYSTEM),
        ("nginx -s reload", R.SYSTEM),
        ("nginx -s stop", R.DESTRUCTIVE),
        ("nginx -t -c /tmp/elsewhere/nginx.conf", R.DESTRUCTIVE),
        ("nginx -g 'load_module /tmp/x.so;' -t", R.DESTRUCTIVE),
        ("visudo -cf deploy/sudoers.d/ops", R.READ_ONLY),
        ("visudo -c", R.READ_ONLY),
        ("visudo", R.DESTRUCTIVE),
        ("visudo -f /etc/sudoers.d/ops", R.DESTRUCTIVE),
        ("cloud-init schema --config-file cloud-init/user-data.yaml", R.READ_ONLY),
        ("cloud-init status --long", R.READ_ONLY),
        ("cloud-init schema --system", R.NETWORK),
        ("cloud-init query --all", R.NETWORK),
        ("sudo cloud-init single --name cc_runcmd --file cloud-init/user-data.yaml", R.DESTRUCTIVE),
        ("cloud-init clean --logs", R.DESTRUCTIVE),
    ],
)
def test_monitoring_and_system_tools(tmp_path: Path, command: str, expected: R) -> None:
    assert graded(command, project(tmp_path, {"deploy/app.service": "[Service]\n"}))[0] is expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("restic version", R.READ_ONLY),
        (f"restic -r {_REPO} snapshots", R.NETWORK),
        (f"restic -r {_REPO} check", R.NETWORK),
        (f"restic -r {_REPO} ls latest", R.NETWORK),
        (f"restic -r {_REPO} restore latest --target restored", R.NETWORK),
        (f"restic -r {_REPO} restore latest --target /", R.DESTRUCTIVE),
        (f"restic -r {_REPO} forget --keep-last 1 --prune", R.DESTRUCTIVE),
        (f"restic -r {_REPO} --password-command /tmp/x snapshots", R.DESTRUCTIVE),
        ("restic -r sftp:h:/ops -o sftp.command='/tmp/x' snapshots", R.DESTRUCTIVE),
        (f"RESTIC_PASSWORD_COMMAND=/tmp/x restic -r {_REPO} snapshots", R.DESTRUCTIVE),
        ("rclone version", R.READ_ONLY),
        ("rclone listremotes", R.READ_ONLY),
        ("rclone lsd s3backup:", R.NETWORK),
        ("rclone check backups s3backup:ops-backups", R.NETWORK),
        ("rclone copy backups s3backup:ops-backups --dry-run", R.NETWORK),
        ("rclone copy backups s3backup:ops-backups", R.NETWORK),
        ("rclone copy s3backup:ops-backups/etc /etc/", R.DESTRUCTIVE),
        ("rclone sync backups s3backup:ops-backups", R.DESTRUCTIVE),
        ("rclone purge s3backup:ops-backups/old", R.DESTRUCTIVE),
        ("rclone config show", R.NETWORK),
        ("rclone --config backup/legacy.conf lsd legacy:", R.DESTRUCTIVE),
        ("RCLONE_CONFIG=backup/legacy.conf rclone ls legacy:", R.DESTRUCTIVE),
        ("rclone serve http / --addr :8080", R.DESTRUCTIVE),
        ("borg --version", R.READ_ONLY),
        (f"borg list {_BORG}", R.NETWORK),
        (f"borg info {_BORG}", R.NETWORK),
        (f"borg delete {_BORG}", R.DESTRUCTIVE),
        (f"borg prune --keep-last 1 {_BORG}", R.DESTRUCTIVE),
        (f"borg key export {_BORG} -", R.NETWORK),
        (f"borg --rsh /tmp/x list {_BORG}", R.DESTRUCTIVE),
        (f"BORG_RSH=/tmp/x borg list {_BORG}", R.DESTRUCTIVE),
    ],
)
def test_backup_tools(tmp_path: Path, command: str, expected: R) -> None:
    assert graded(command, project(tmp_path, {"backups/db.sql.gz": "x\n"}))[0] is expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ansible-galaxy install -r requirements.yml", R.SYSTEM),
        ("ansible-galaxy collection install -r requirements.yml -p ./collections", R.NETWORK),
        ("ansible-galaxy collection install community.general", R.SYSTEM),
        ("ansible-galaxy install git+https://git.example.invalid/roles/x.git", R.DESTRUCTIVE),
        ("ansible-galaxy collection install /tmp/elsewhere/x.tar.gz", R.DESTRUCTIVE),
        ("ansible-galaxy role install -p /etc/ansible/roles x.y", R.DESTRUCTIVE),
    ],
)
def test_ansible_galaxy_installs_are_graded_where_they_land(tmp_path: Path, command: str, expected: R) -> None:
    assert graded(command, project(tmp_path, {"requirements.yml": "---\n"}))[0] is expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ssh -G web1.example.com", R.READ_ONLY),
        ("ssh -G web1.example.com uptime", R.READ_ONLY),
        ("ssh -vG web1.example.com", R.READ_ONLY),
        ("ssh -F /tmp/elsewhere/config -G web1.example.com", R.DESTRUCTIVE),
        ("ssh -G -o 'ProxyCommand /tmp/x' web1.example.com", R.DESTRUCTIVE),
        ("ssh -G -o 'Match exec /tmp/x' web1.example.com", R.DESTRUCTIVE),
        ("ssh web1.example.com uptime", R.NETWORK),
    ],
)
def test_ssh_g_prints_its_configuration_without_connecting(tmp_path: Path, command: str, expected: R) -> None:
    assert graded(command, project(tmp_path, {}))[0] is expected
