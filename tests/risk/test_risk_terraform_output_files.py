"""terraform options that write a file (terraform CLI docs: plan ``-out``/``-generate-config-out``, ``-state-out``,
``-backup``, test ``-junit-xml``, ``providers mirror TARGET_DIR``) are graded as writes of their path: a plan file
over a system file or a login file is destructive, while ``-out=tfplan`` in the workspace keeps plan's grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel

FILES = {"main.tf": "terraform {}\n", "infra/main.tf": "terraform {}\n"}

OUTSIDE = [
    "terraform plan -out=/etc/cron.d/job",
    "terraform plan -out /root/.bashrc",
    "terraform plan --out=/etc/cron.d/job",
    "tofu plan -out=/etc/cron.d/job",
    "terraform plan -generate-config-out=/etc/x.tf",
    "terraform refresh -state-out=/etc/x",
    "terraform import -backup=/etc/x a.b id",
    "terraform providers mirror /usr/local/bin",
    "terraform test -junit-xml=/etc/x",
]


@pytest.mark.parametrize("command", OUTSIDE)
def test_terraform_writing_a_protected_path_is_destructive(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, FILES))
    assert risk == R.DESTRUCTIVE, details
    assert any("writes" in d or "copies" in d for d in details), details


@pytest.mark.parametrize(
    "command",
    [
        "terraform plan",
        "terraform plan -out=tfplan",
        "terraform plan -out tfplan",
        "terraform -chdir=infra plan -out=tfplan",
        "terraform providers mirror ./mirror",
        "terraform providers lock",
    ],
)
def test_terraform_writing_in_the_workspace_keeps_its_grade(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, FILES))
    assert risk == R.NETWORK, details


def test_a_relative_output_follows_chdir(tmp_path: Path) -> None:
    ws = project(tmp_path, FILES)
    _, details = graded("terraform -chdir=infra plan -out=tfplan", ws)
    assert any("infra/tfplan" in d for d in details), details
