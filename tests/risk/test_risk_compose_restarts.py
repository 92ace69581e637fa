"""Compose and swarm restart policies are persistence, as ``docker run --restart`` is: ``docker compose up`` of a
service with ``restart: always`` (or any ``deploy.restart_policy``) makes the engine, outside the sandbox, start it
again at every boot. The adapter reads the compose files (bot/risk/settings.py ``_compose_restarts``) and sends what
it found; the server grades the same. A swarm service is started again by the swarm unless its restart condition is
``none``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import GivenRecipes, ProjectRecipes

DES, SYS = RiskLevel.DESTRUCTIVE, RiskLevel.SYSTEM
PLAIN = 'services:\n  web:\n    image: nginx\n    restart: "no"\n'


def _graded(command: str, ws: Path, contained: bool = True) -> tuple[RiskLevel, RiskLevel, set[str]]:
    read = classify(command, contained=contained, workspace=str(ws), recipes=ProjectRecipes(ws))
    given = classify(command, contained=contained, workspace=str(ws), recipes=GivenRecipes(read.recipes))
    return read.risk, given.risk, {r.rule for r in read.reasons}


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    for name, text in files.items():
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).write_text(text)
    return ws.resolve()


@pytest.mark.parametrize(
    ("files", "command"),
    [
        ({"compose.yaml": "services:\n  web:\n    image: nginx\n    restart: always\n"}, "docker compose up -d"),
        ({"compose.yml": "services:\n  w:\n    image: x\n    restart: unless-stopped # keep\n"}, "docker compose up"),
        (
            {"docker-compose.yml": "services:\n  w:\n    image: x\n    restart: 'on-failure:3'\n"},
            "docker-compose up -d",
        ),
        (
            {"compose.yaml": PLAIN, "compose.override.yaml": "services:\n  web:\n    restart: always\n"},
            "docker compose up",
        ),
        ({"ci/c.yml": "services:\n  w:\n    image: x\n    restart: always\n"}, "docker compose -f ci/c.yml up -d"),
        ({"ci/c.yml": "services:\n  w:\n    image: x\n    restart: always\n"}, "docker compose --file=ci/c.yml start"),
        (
            {"compose.yaml": "x-r: &r\n  restart: always\nservices:\n  w:\n    <<: *r\n    image: x\n"},
            "docker compose up",
        ),
        (
            {
                "compose.yaml": "services:\n  w:\n    image: x\n    deploy:\n      restart_policy:\n        condition: any\n"
            },
            "podman compose up -d",
        ),
        ({"compose.yaml": "include:\n  - other.yaml\n"}, "docker compose up -d"),  # not followed: fail closed
        ({"compose.yaml": PLAIN, ".env": "COMPOSE_FILE=evil.yaml\n"}, "docker compose up -d"),
        ({"compose.yaml": PLAIN}, "docker compose --project-directory /srv/x up -d"),
        ({"compose.yaml": PLAIN}, 'docker compose -f "$F" up -d'),
        ({"compose.yaml": PLAIN}, "cat c.yml | docker compose -f - up -d"),
    ],
)
def test_a_compose_restart_policy_is_persistence_contained_too(
    tmp_path: Path, files: dict[str, str], command: str
) -> None:
    adapter, server, rules_found = _graded(command, _project(tmp_path, files))
    assert adapter == server == DES, rules_found
    assert rules_found & {"persistence", "recipe-unreadable"}, rules_found


@pytest.mark.parametrize(
    ("files", "command"),
    [
        ({"compose.yaml": PLAIN}, "docker compose up -d"),
        ({"compose.yaml": "services:\n  web:\n    image: nginx\n"}, "docker compose up -d"),
        ({"compose.yaml": "services:\n  web:\n    image: nginx\n    restart: no\n"}, "docker-compose up"),
        (
            {"compose.yaml": "services:\n  w:\n    image: x\n    restart: always\n", "ci/c.yml": PLAIN},
            "docker compose -f ci/c.yml up",
        ),
        ({"compose.yaml": "services:\n  w:\n    image: x\n    restart: always\n"}, "docker compose ps"),
    ],
)
def test_compose_without_a_restart_policy_keeps_its_grade(tmp_path: Path, files: dict[str, str], command: str) -> None:
    adapter, server, rules_found = _graded(command, _project(tmp_path, files))
    assert "persistence" not in rules_found
    if " up" in command:  # the containers it starts may be privileged or mount /: docker is never downgraded
        assert adapter == server == DES and rules_found == {"container-host-access"}, rules_found
    else:
        assert adapter == server and adapter <= SYS, rules_found


def test_compose_up_is_still_destructive_on_the_host(tmp_path: Path) -> None:
    ws = _project(tmp_path, {"compose.yaml": PLAIN})
    for command in ("docker compose up -d", "docker compose --file compose.yaml up -d", "docker compose -p p up"):
        assert _graded(command, ws, contained=False)[:2] == (DES, DES), command


@pytest.mark.parametrize("contained", [False, True])
def test_a_swarm_service_is_persistence_unless_its_restart_condition_is_none(contained: bool) -> None:
    for command in ("docker service create nginx", "docker stack deploy -c stack.yml app"):
        verdict = classify(command, contained=contained, workspace="/home/dev/project")
        assert verdict.risk == DES and "persistence" in {r.rule for r in verdict.reasons}, command
    calm = classify(
        "docker service create --restart-condition none nginx", contained=contained, workspace="/home/dev/project"
    )
    assert calm.risk == SYS and "persistence" not in {r.rule for r in calm.reasons}
