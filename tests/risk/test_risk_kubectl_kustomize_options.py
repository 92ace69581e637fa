"""kubectl kustomize options that run programs or read past the kustomization's root (kubectl-kustomize(1):
``--enable-helm`` with ``--helm-command``, ``--enable-alpha-plugins``, ``-e``/``--env``, ``--mount``,
``--load-restrictor``) grade destructive, as kustomize build's do; ``-o PATH`` writes that path; a plain
``kubectl kustomize DIR`` keeps its grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel

KUSTOMIZATION = {"kustomization.yaml": "resources: [cm.yaml]\n", "cm.yaml": "kind: ConfigMap\n"}

RUNS = [
    "kubectl kustomize --enable-exec .",
    "kubectl kustomize . --enable-alpha-plugins",
    "kubectl kustomize --enable-helm --helm-command=./h.sh .",
    "kubectl kustomize --helm-command ./h.sh --enable-helm .",
    "kubectl kustomize --load-restrictor=LoadRestrictionsNone .",
    "kubectl kustomize --load-restrictor LoadRestrictionsNone .",
    "kubectl kustomize -e X=1 .",
    "kubectl kustomize --mount type=bind,src=/,dst=/h .",
    "kubectl kustomize . -o /etc/k.yaml",
    "kubectl kustomize . --output=/etc/k.yaml",
]


@pytest.mark.parametrize("command", RUNS)
def test_kustomize_options_that_run_programs_or_write_outside_are_destructive(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, KUSTOMIZATION))
    assert risk == R.DESTRUCTIVE, details


def test_kustomize_output_inside_the_workspace_is_a_write_there(tmp_path: Path) -> None:
    ws = project(tmp_path, KUSTOMIZATION)
    risk, details = graded("kubectl kustomize . -o out.yaml", ws)
    assert risk == R.NETWORK, details
    assert any("writes" in d for d in details), details


@pytest.mark.parametrize(
    "command", ["kubectl kustomize .", "kubectl kustomize", "kubectl --context prod kustomize overlays/prod"]
)
def test_plain_kustomize_keeps_its_grade(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, KUSTOMIZATION))
    assert risk == R.NETWORK, details
