"""helm's ``-f``/``--values`` may name a URL (helm-template(1): "a YAML file or a URL"), so a local render that
downloads one is network; ``systemctl show`` prints units' ``Environment=`` (systemd.exec(5)) unless ``-p`` picks
other properties; ``helm dependency list`` only reads the chart (helm_dependency_list), and ``update`` writes it (a
chart outside the workspace is a write there); ``docker compose config -q`` only renders the local compose files,
while its ``-o FILE`` is a write there (docker compose config reference); rg's ``-g`` globs and ``-t`` types choose
the files it reads (rg(1)); ``docker inspect --format`` printing only state fields prints no environment (docker
inspect reference). Each beside the other side."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel
_FILES = {
    ".env": "API_KEY=x\n",
    "chart/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
    "chart/values.yaml": "replicas: 2\n",
    "docker-compose.yml": "services:\n  db:\n    image: postgres:16\n",
    "src/main.go": "package main\n",
    "certs/server.key": "-----BEGIN PRIVATE KEY-----\n",
}


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("helm template web ./chart -f https://example.com/values.yaml", R.NETWORK),
        ("helm template web ./chart --values=https://example.com/values.yaml", R.NETWORK),
        ("helm lint ./chart -fhttps://example.com/values.yaml", R.NETWORK),
        ("systemctl show -p Environment app.service", R.NETWORK),
        ("systemctl show --property=MainPID,Environment app.service", R.NETWORK),
        ("systemctl show app.service", R.NETWORK),
        ("helm dependency update /opt/chart", R.SYSTEM),
        ("docker compose config", R.NETWORK),
        ("docker compose --env-file ../secrets.env config -q", R.NETWORK),
        ("docker compose config -q --resolve-image-digests", R.NETWORK),
        ("docker compose config -o ~/.bashrc", R.DESTRUCTIVE),
        ("rg -n KEY", R.NETWORK),
        ("rg -n KEY -g '*.key'", R.NETWORK),
        ("rg -n KEY -g '*.go' -g '*.key'", R.NETWORK),
        ("rg -n KEY -g '!*.go'", R.NETWORK),
        ("rg -n KEY -g 'certs/*'", R.NETWORK),
        ("rg -n KEY -g '*.go' --type-add 'go:*.key'", R.NETWORK),
        ("rg -n KEY --iglob '*.KEY'", R.NETWORK),
        ("rg -n KEY -t sh", R.NETWORK),
        ("docker inspect web", R.NETWORK),
        ("docker inspect --format '{{json .Config.Env}}' web", R.NETWORK),
        ("docker inspect --format '{{.State.Status}}{{.Config.Env}}' web", R.NETWORK),
        ("docker inspect --format '{{range .Config.Env}}{{.}}{{end}}' web", R.NETWORK),
        ("docker inspect -f '{{.State.Status}}' -f '{{json .}}' web", R.NETWORK),
        ("docker inspect -f '{{.Args}}' web", R.NETWORK),
    ],
)
def test_hostile_form_keeps_a_high_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk >= expected, details


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("helm template web ./chart -f chart/values.yaml", R.READ_ONLY),
        ("helm template web ./chart", R.READ_ONLY),
        ("systemctl show -p MainPID app.service", R.READ_ONLY),
        ("systemctl show --property=ActiveState,SubState nginx", R.READ_ONLY),
        ("systemctl status nginx --no-pager", R.READ_ONLY),
        ("helm dependency list ./chart", R.READ_ONLY),
        ("helm dep ls ./chart", R.READ_ONLY),
        ("docker compose config -q", R.READ_ONLY),
        ("docker compose config --services", R.READ_ONLY),
        ("docker compose config -o build/compose.yaml", R.NETWORK),
        ("rg -n 'func main' --type go", R.READ_ONLY),
        ("rg -n 'func main' -tgo", R.READ_ONLY),
        ("rg -nt go 'func main'", R.READ_ONLY),
        ("rg -n 'func main' -g '*.go'", R.READ_ONLY),
        ("rg -n 'func main' src", R.READ_ONLY),
        ("docker inspect --format '{{.State.Status}}' web", R.READ_ONLY),
        ("docker inspect -f '{{.State.Running}} {{.Name}}' web", R.READ_ONLY),
        ("docker inspect --format='{{ json .NetworkSettings.Networks }}' web", R.READ_ONLY),
        ("docker image inspect -f '{{.RepoTags}}' app", R.READ_ONLY),
    ],
)
def test_everyday_form_keeps_its_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk is expected, details
