"""wget options that write a file beside the download (wget(1): ``--warc-file=FILE`` writes FILE.warc.gz,
``--warc-tempdir``, ``--rejected-log``, ``--hsts-file``) are graded as writes of that path; in the workspace wget
keeps its network grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel


@pytest.mark.parametrize(
    "command",
    [
        "wget --warc-file=/etc/cron.d/job https://example.com",
        "wget --warc-file /etc/cron.d/job https://example.com",
        "wget --rejected-log=/etc/x https://example.com",
        "wget --hsts-file=/etc/x https://example.com",
        "wget --warc-tempdir=/usr/local/bin https://example.com",
    ],
)
def test_wget_side_file_over_a_protected_path_is_destructive(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, {}))
    assert risk == R.DESTRUCTIVE, details


@pytest.mark.parametrize(
    "command",
    [
        "wget https://example.com",
        "wget --warc-file=archive https://example.com",
        "wget --rejected-log=rejected.log https://example.com",
    ],
)
def test_wget_side_file_in_the_workspace_keeps_network(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, {}))
    assert risk == R.NETWORK, details


def test_warc_file_names_the_archive_wget_writes(tmp_path: Path) -> None:
    _, details = graded("wget --warc-file=archive https://example.com", project(tmp_path, {}))
    assert any("archive.warc.gz" in d for d in details), details
