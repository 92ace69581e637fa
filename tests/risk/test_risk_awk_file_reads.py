"""awk programs that open files themselves: ``getline < file`` and ``ARGV`` assignments (gawk manual "Getline/File",
"Using ARGC and ARGV") print a credential file as ``cat`` of it does, so they are a secret read (network); a name
only known when it runs may be one; an ordinary file keeps awk's read-only grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel

HOSTILE = [
    """awk '{getline < "/etc/shadow"}' notes.txt""",
    """awk 'BEGIN{while((getline l < ".env")>0) print l}'""",
    """awk '{getline $0 < "/etc/shadow"; print}' notes.txt""",
    """gawk 'BEGIN{getline l < "/root/.aws/credentials"; print l}'""",
    """awk 'BEGIN{f="/etc/sha" "dow"; while((getline l < f)>0) print l}'""",
    """awk 'BEGIN{getline x < ("/etc/" "shadow"); print x}'""",
    """awk 'BEGIN{ARGV[1]="/etc/shadow"; ARGC=2} {print}'""",
    """awk 'BEGIN{ARGV[1]="/etc/sha" "dow"; ARGC=2} {print}'""",
]

EVERYDAY = [
    "awk '{print $1}' notes.txt",
    """awk 'BEGIN { while ((getline line < "notes.txt") > 0) n++; print n }'""",
    "awk '{ while ((getline line < FILENAME) > 0) n++ } END { print n }' notes.txt",
    "awk '{getline; print}' notes.txt",
    "awk '{getline x; if (x < 3) print x}' notes.txt",
    "awk 'NR==FNR{a[$1];next} $1 in a' notes.txt notes.txt",
    """awk 'BEGIN{ARGV[1]="notes.txt"; ARGC=2} {print}'""",
    """awk 'ARGV[1] == "x" {print}' notes.txt""",
]


@pytest.mark.parametrize("command", HOSTILE)
def test_awk_reading_a_secret_or_unknown_file_is_a_secret_read(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {"notes.txt": "1\n", ".env": "TOKEN=x\n"})
    risk, details = graded(command, ws)
    assert risk >= R.NETWORK, details
    assert any("reads" in d for d in details), details


@pytest.mark.parametrize("command", EVERYDAY)
def test_awk_reading_ordinary_files_stays_read_only(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {"notes.txt": "1\n"})
    risk, details = graded(command, ws)
    assert risk == R.READ_ONLY, details
