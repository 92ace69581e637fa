"""rsync --daemon serves its configuration's modules to other machines and runs the commands rsyncd.conf(5) names
(pre-xfer exec, post-xfer exec, early exec); rsync --read-batch=FILE applies the writes and deletions a batch
recorded (rsync(1)). Both are destructive; a plain sync and a --write-batch keep their grades. ``--mkpath`` is a
flag: the word after it is an operand (the destination), not its value; so are --backup, --checksum, --compress,
--group and --partial, which are not abbreviations of --backup-dir, --checksum-choice, --compress-choice, --groupmap
or --partial-dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel

FILES = {"src/a.txt": "a\n", "rsyncd.conf": "[root]\npath = /\nread only = false\n"}


@pytest.mark.parametrize(
    "command",
    [
        "rsync --daemon",
        "rsync --daemon --config=rsyncd.conf",
        "rsync --daemon --port=8873 --no-detach",
        "rsync -a --read-batch=batch dst/",
        "rsync --read-batch batch dst/",
        "rsync -a --mkpath src/a.txt /etc/cron.d/",
        "rsync -a src/a.txt --mkpath /etc/cron.d/",
        "rsync -a --mkp src/a.txt /etc/cron.d/",
        "rsync -a --compress src/a.txt /etc/cron.d/job",
        "rsync --checksum src/a.txt /etc/cron.d/job",
        "rsync --group src/a.txt /etc/cron.d/job",
        "rsync --backup src/a.txt /etc/cron.d/job",
        "rsync --partial src/a.txt /etc/cron.d/job",
    ],
)
def test_rsync_daemon_and_read_batch_are_destructive(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, FILES))
    assert risk == R.DESTRUCTIVE, details


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("rsync -a src/ dst/", R.WORKSPACE_WRITE),
        ("rsync -a --write-batch=batch src/ dst/", R.WORKSPACE_WRITE),
        ("rsync -a --mkpath src/ dst/new/", R.WORKSPACE_WRITE),
        ("rsync -az --compress src/ dst/", R.WORKSPACE_WRITE),
        ("rsync --compress-level 3 src/ dst/", R.WORKSPACE_WRITE),
        ("rsync -n -a src/ dst/", R.READ_ONLY),
        ("rsync src/a.txt", R.READ_ONLY),
    ],
)
def test_everyday_rsync_keeps_its_grade(tmp_path: Path, command: str, level: RiskLevel) -> None:
    risk, details = graded(command, project(tmp_path, FILES))
    assert risk == level, details
