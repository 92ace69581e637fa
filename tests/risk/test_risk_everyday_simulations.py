"""Commands that only simulate or print names: helm install/upgrade ``--dry-run`` (client) and ``make -n``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

RO, WW, NET, SYS, DES = (
    RiskLevel.READ_ONLY,
    RiskLevel.WORKSPACE_WRITE,
    RiskLevel.NETWORK,
    RiskLevel.SYSTEM,
    RiskLevel.DESTRUCTIVE,
)

_CHART = {"chart/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n", "chart/values.yaml": "replicas: 2\n"}


@pytest.mark.parametrize(
    "command",
    [
        "helm upgrade --install web ./chart -n app --dry-run",
        "helm install web ./chart --dry-run=client",
        "helm upgrade web ./chart --dry-run=true -f chart/values.yaml",
        "helm upgrade web ./chart --dry-run=server --dry-run",
    ],
)
def test_a_helm_client_dry_run_only_reads_the_cluster(tmp_path: Path, command: str) -> None:
    assert graded(command, project(tmp_path, _CHART))[0] is NET


@pytest.mark.parametrize(
    "command, level",
    [
        ("helm upgrade --install web ./chart -n app", SYS),
        ("helm upgrade web ./chart --dry-run=none", SYS),
        ("helm upgrade web ./chart --dry-run=false", SYS),
        ("helm upgrade web ./chart --dry-run --dry-run=none", SYS),
        ("helm upgrade web ./chart --dry-run=server", SYS),  # lookup reads live Secrets into the output
        ('helm upgrade web ./chart "$MODE" --dry-run', SYS),
        ("helm upgrade web ./chart --dry-run --dependency-update", SYS),
        ("helm upgrade web ./chart --dry-run --post-renderer ./x.sh", DES),
        ("helm upgrade web ./chart --dry-run --force", DES),
    ],
)
def test_a_helm_release_that_is_not_a_client_dry_run_keeps_its_grade(
    tmp_path: Path, command: str, level: RiskLevel
) -> None:
    assert graded(command, project(tmp_path, _CHART))[0] is level
