"""The workspace's own secret files named through the command substitutions that print where the command runs
(``$(pwd)``, `` `pwd` ``, ``$(pwd -P)``: pwd(1)) or the working tree's top (``$(git rev-parse --show-toplevel)``:
git-rev-parse(1)) are the secret reads they are, as ``$PWD/.env`` is; other files named that way stay reads. And
exiftool's options are whole words: ``-delete_original!`` deletes the originals without asking (exiftool(1)), never
a cluster of letters."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel

W = Path("/home/dev/project")

#: (command, its grade)
CASES = [
    ("cat $(pwd)/.env", RiskLevel.NETWORK),
    ("cat `pwd`/.env", RiskLevel.NETWORK),
    ('cat "$(pwd -P)/.env.production"', RiskLevel.NETWORK),
    ('cat "$(git rev-parse --show-toplevel)/.env"', RiskLevel.NETWORK),
    ("cat `git rev-parse --show-toplevel`/.env", RiskLevel.NETWORK),
    ("cd src && cat $(pwd)/../.env", RiskLevel.NETWORK),
    ("cat $(pwd)/README.md", RiskLevel.READ_ONLY),
    ('cat "$(git rev-parse --show-toplevel)/package.json"', RiskLevel.READ_ONLY),
    ("ls $(pwd)", RiskLevel.READ_ONLY),
    ("exiftool -delete_original! photos", RiskLevel.DESTRUCTIVE),
    ("exiftool -delete_original photos", RiskLevel.DESTRUCTIVE),
    ("exiftool -d %Y-%m photo.jpg", RiskLevel.READ_ONLY),
    ("exiftool -ver", RiskLevel.READ_ONLY),
    ("exiftool -all= photo.jpg", RiskLevel.WORKSPACE_WRITE),
]


@pytest.mark.parametrize(("command", "grade"), CASES)
def test_the_grade_of_each(command: str, grade: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=W).risk is grade, command
