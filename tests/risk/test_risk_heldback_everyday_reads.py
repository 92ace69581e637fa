"""Everyday commands graded by what they do: a find name pattern reads nothing (find(1)), openssl req signs with
its -key without printing it (openssl-req(1)), kill -0 sends no signal (kill(2)), a shell run in a container with
the session's own input is the container's (docker exec, kubectl exec), helm repo update only downloads indexes
(helm repo); each beside the hostile variant that keeps its higher grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel
_FILES = {
    ".env": "API_KEY=x\n",
    ".git/config": "[remote]\n",
    "src/a.py": "",
    "build/key.pem": "-----BEGIN PRIVATE KEY-----\n",
}


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('find . -name "*.py" -not -path "./.git/*"', R.READ_ONLY),
        ('find . -path "./.git/*" -prune -o -type f -print', R.READ_ONLY),
        ("find . -path ./.env", R.READ_ONLY),
        ("openssl req -new -x509 -key build/key.pem -out build/cert.pem -subj /CN=x", R.WORKSPACE_WRITE),
        ("openssl req -new -key build/key.pem -subj /CN=x", R.READ_ONLY),
        ("kill -0 12345", R.READ_ONLY),
        ("kill -s 0 12345", R.READ_ONLY),
        ("docker exec -it web sh", R.SYSTEM),
        ("kubectl exec -it web-0 -- bash", R.SYSTEM),
        ("podman run --rm -it alpine sh", R.SYSTEM),
        ("helm repo update", R.NETWORK),
        ("helm repo add bitnami https://charts.bitnami.com/bitnami", R.SYSTEM),
    ],
)
def test_everyday_use_is_graded_by_what_it_does(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk is expected, details


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('find . -not -path "./.git/*" -type f -exec cat {} +', R.NETWORK),
        ("find . -path ./.env -exec cat {} \\;", R.NETWORK),
        ('find . -name "*.py" -exec cat ./.env \\;', R.NETWORK),
        ("find . -name .env | xargs cat", R.NETWORK),
        ("openssl req -new -key build/key.pem -keyout /dev/stdout", R.NETWORK),
        ("openssl req -new -key build/key.pem -keyout copy.pem", R.NETWORK),
        ("openssl req -new -key ~/.ssh/id_rsa -out c.csr", R.NETWORK),
        ("openssl req -in build/key.pem -text", R.NETWORK),
        ("kill -0 1", R.DESTRUCTIVE),
        ("kill -0 -1", R.DESTRUCTIVE),
        ("kill -0 -- -1", R.DESTRUCTIVE),
        ("kill -0 $PID", R.DESTRUCTIVE),
        ("kill -9 12345", R.SYSTEM),
        ("docker exec -i web sh < script.sh", R.DESTRUCTIVE),
        ("cat script.sh | kubectl exec -i web-0 -- sh", R.DESTRUCTIVE),
        ("docker exec -i web sh <<'EOF'\nrm -rf /\nEOF", R.DESTRUCTIVE),
        ("docker exec -it web sh x.sh", R.DESTRUCTIVE),
        ("helm repo update --repository-cache /etc/helm", R.DESTRUCTIVE),
    ],
)
def test_the_hostile_variant_keeps_its_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, {**_FILES, "script.sh": "rm -rf ~\n"})
    risk, details = graded(command, ws)
    assert risk is expected, details
