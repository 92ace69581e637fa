"""Cloud and chart commands that save what they fetch into a file they name (aws ``outfile`` operands and eks
update-kubeconfig ``--kubeconfig``, gcloud storage cp/rsync/mv to a local destination and service-account key
files, az storage download ``-f``/``-d`` and aks get-credentials ``-f``, helm pull ``-d``/``--untardir``) are
graded as writes of that file: over a system file, destructive; in the workspace, the command keeps its grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel

OUTSIDE = [
    "aws lambda invoke --function-name f /etc/cron.d/job",
    "aws lambda invoke --function-name f /root/.bashrc",
    "aws s3api get-object-torrent --bucket b --key k /etc/cron.d/job",
    "aws polly synthesize-speech --text hi --voice-id Joanna --output-format mp3 /etc/x",
    "aws eks update-kubeconfig --name c --kubeconfig /etc/x",
    "aws eks update-kubeconfig --name c --kubeconfig=/etc/x",
    "gcloud storage cp gs://b/x /etc/cron.d/job",
    "gcloud storage rsync gs://b /usr/local/bin",
    "gcloud iam service-accounts keys create /root/.ssh/authorized_keys --iam-account x",
    "az storage blob download -c c -n n -f /etc/cron.d/job",
    "az storage file download --share-name s --path p --dest /etc/cron.d/job",
    "az aks get-credentials -n c -g g -f /etc/x",
    "helm pull x -d /usr/local/bin",
    "helm pull x --untar --untardir /etc",
    "helm pull x --destination=/etc",
]


@pytest.mark.parametrize("command", OUTSIDE)
def test_a_download_over_a_protected_path_is_destructive(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, {}))
    assert risk == R.DESTRUCTIVE, details
    assert any("writes" in d for d in details), details


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("aws lambda invoke --function-name f out.json", R.SYSTEM),
        ("aws s3api get-object --bucket b --key k out.bin", R.NETWORK),
        ("aws eks update-kubeconfig --name c", R.SYSTEM),
        ("gcloud storage cp gs://b/x out.bin", R.SYSTEM),
        ("gcloud storage cp out.bin gs://b/x", R.SYSTEM),
        ("gcloud iam service-accounts keys create key.json --iam-account x", R.SYSTEM),
        ("az storage blob download -c c -n n -f out.bin", R.SYSTEM),
        ("az aks get-credentials -n c -g g", R.SYSTEM),
        ("helm pull x -d charts", R.SYSTEM),
        ("helm pull x", R.SYSTEM),
    ],
)
def test_a_download_into_the_workspace_keeps_its_grade(tmp_path: Path, command: str, level: RiskLevel) -> None:
    risk, details = graded(command, project(tmp_path, {}))
    assert risk == level, details
