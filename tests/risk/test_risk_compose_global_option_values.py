"""docker compose's own options before its command take a value (Docker's "docker compose" reference: -p/--project-name,
--ansi, --progress, --parallel, --profile, --env-file, --project-directory): the command is the word after them.
``docker compose -p app down -v`` removes the project's volumes as ``docker compose down -v`` does, and ``exec``
after ``-p`` still grades the command run in the container."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel

COMPOSE = {"compose.yaml": "services:\n  db:\n    image: postgres\n"}


@pytest.mark.parametrize(
    "command",
    [
        "docker compose -p app down -v",
        "docker compose --project-name app down --volumes",
        "docker compose -p app rm -fsv",
        "docker compose --ansi never down --volumes",
        "docker compose --progress plain rm -f -v",
        "docker compose -p app exec db rm -rf /var/lib/postgresql/data",
        "docker-compose --ansi never rm -f -v",
        "docker-compose --parallel 2 down -v",
    ],
)
def test_compose_command_after_option_values_is_graded(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, COMPOSE))
    assert risk == R.DESTRUCTIVE, details


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("docker compose -p app ps", R.READ_ONLY),
        ("docker compose ps", R.READ_ONLY),
        ("docker compose -p app logs", R.READ_ONLY),
        ("docker compose -p app stop", R.SYSTEM),
        ("docker-compose -p app ps", R.READ_ONLY),
    ],
)
def test_everyday_compose_commands_with_a_project_name_keep_their_grade(
    tmp_path: Path, command: str, level: RiskLevel
) -> None:
    risk, details = graded(command, project(tmp_path, COMPOSE))
    assert risk == level, details
