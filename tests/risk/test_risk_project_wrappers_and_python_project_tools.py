"""Programs a held-back corpus found unknown: the Gradle and Maven wrappers and Rails' binstubs (graded as the tool,
in the workspace only), Prisma (also through npx), Alembic, Rake, Hatch, PDM, Nox, pre-commit's options and
``python -m http.server``. Each family is checked both ways. The workspace is a real directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "bin").mkdir(parents=True)
    (root / "sub").mkdir()
    (root / "gradlew").write_text('#!/bin/sh\nexec java -jar gradle/wrapper/gradle-wrapper.jar "$@"\n')
    (root / "mvnw").write_text("#!/bin/sh\n")
    (root / "bin" / "rails").write_text("#!/usr/bin/env ruby\n")
    (root / "build.gradle").write_text("plugins { id 'java' }\n")
    return root


def assess(command: str, workspace: Path, contained: bool = False) -> tuple[RiskLevel, set[str]]:
    found = classify(command, contained=contained, workspace=workspace, recipes=ProjectRecipes(workspace))
    return found.risk, {r.rule for r in found.reasons}


def grade(command: str, workspace: Path, contained: bool = False) -> RiskLevel:
    return assess(command, workspace, contained)[0]


# -- wrappers and binstubs -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("./gradlew build", WW),
        ("./gradlew test --tests 'com.example.*'", WW),
        ("./gradlew clean assemble", DES),  # clean deletes, as gradle clean
        ("./gradlew publish", NET),
        ("./mvnw -DskipTests package", WW),
        ("bin/rails db:migrate", SYS),
        ("./bin/rails db:drop", DES),
        ("cd sub && ../gradlew build", DES),  # a path climbing out of sub: not the wrapper form
    ],
)
def test_a_wrapper_in_the_workspace_is_graded_as_its_tool(command: str, level: RiskLevel, workspace: Path) -> None:
    assert grade(command, workspace) == level


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("cd /tmp && ./gradlew build", "program-path"),
        ("/tmp/gradlew build", "program-path"),
        ("../gradlew build", "program-path"),
        ("./scripts/test.sh", "program-path"),
        ("echo 'curl x | sh' > gradlew && ./gradlew build", "config-rewritten"),
        ("printf x > gradle/wrapper/gradle-wrapper.properties; ./gradlew build", "config-rewritten"),
        ("cp /tmp/m .mvn/wrapper/maven-wrapper.jar && ./mvnw package", "config-rewritten"),
    ],
)
def test_a_wrapper_outside_the_workspace_or_written_by_the_command_stays_destructive(
    command: str, rule: str, workspace: Path
) -> None:
    risk, rules = assess(command, workspace)
    assert risk == DES and rule in rules


def test_a_wrapper_that_is_a_link_out_of_the_workspace_is_a_program_path(workspace: Path, tmp_path: Path) -> None:
    (tmp_path / "evil").write_text("#!/bin/sh\n")
    (workspace / "gradlew").unlink()
    (workspace / "gradlew").symlink_to(tmp_path / "evil")
    risk, rules = assess("./gradlew build", workspace)
    assert risk == DES and "program-path" in rules


# -- database migration tools ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("prisma generate", WW),
        ("npx prisma generate", NET),
        ("npx --no-install prisma validate", RO),
        ("npx prisma migrate dev", SYS),
        ("npx prisma migrate status", NET),
        ("npx prisma studio", NET),
        ("npx prisma migrate reset --force", DES),
        ("npx prisma db push --accept-data-loss", DES),
        ("npx prisma db push", SYS),
        ("npx prisma db execute --file x.sql", DES),
        ("npx prisma db seed", DES),
        ("alembic upgrade head", SYS),
        ("alembic revision -m 'add users'", WW),
        ("alembic revision --autogenerate -m 'add users'", NET),
        ("alembic history", WW),
        ("alembic downgrade base", DES),
        ("alembic edit head", DES),
        ("rake", WW),
        ("rake test", WW),
        ("rake db:migrate", SYS),
        ("rake db:schema:load", DES),
        ("rake -e 'system(\"id\")'", DES),
        ("rake deploy:prod", DES),  # a task of the project's own: unknown
    ],
)
def test_migration_tools_both_ways(command: str, level: RiskLevel, workspace: Path) -> None:
    assert grade(command, workspace) == level


# -- Python project tools --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("hatch version", WW),  # builds the metadata: a code version source or metadata hook runs
        ("hatch env show", RO),
        ("hatch version minor", WW),
        ("hatch build", NET),
        ("hatch test", NET),
        ("hatch run test", DES),  # a script of the environment or any command
        ("hatch clean", DES),
        ("hatch config set dirs.env.virtual .venvs", SYS),
        ("pdm list", RO),
        ("pdm install", NET),
        ("pdm add requests", NET),
        ("pdm run pytest", WW),  # as typed, unless [tool.pdm.scripts] defines pytest
        ("pdm run python x.py", DES),
        ("pdm config -g pypi.url https://x", DES),  # the index of every later install, as pip config set
        ("nox -l", WW),
        ("nox -s lint", NET),
        ("nox -R -s tests", WW),
        ("nox -f /opt/other/noxfile.py", DES),
        ("nox --bogus", DES),
        ("pre-commit validate-config", RO),
        ("pre-commit run --all-files", DES),  # the hooks are other repositories' programs
        ("pre-commit install", DES),
    ],
)
def test_python_project_tools_both_ways(command: str, level: RiskLevel, workspace: Path) -> None:
    assert grade(command, workspace) == level


def test_pre_commit_run_is_said_to_run_programs_not_unrecognised(workspace: Path) -> None:
    risk, rules = assess("pre-commit run --all-files", workspace)
    assert risk == DES and "runs-program" in rules and "unrecognised-use" not in rules


# -- python -m http.server -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    ["python -P -m http.server", "python3 -P -m http.server 8000 -b 127.0.0.1", "python -P -m http.server -d dist"],
)
@pytest.mark.parametrize("contained", [False, True])
def test_the_standard_http_server_listens(command: str, contained: bool, workspace: Path) -> None:
    risk, rules = assess(command, workspace, contained)
    assert risk == NET and "listens" in rules


@pytest.mark.parametrize(
    "command",
    [
        "python3 -P -m http.server 8000 --bind 0.0.0.0 --directory ~",
        "python -P -m http.server -d /",
        "python -P -m http.server --directory=/home",
        "python -P -m http.server -d ~/.ssh",
        "python -P -m http.server --cgi",
        'python -P -m http.server -d "$D"',
        "python -m http.server --bogus",
    ],
)
def test_serving_credentials_running_cgi_or_unknown_options_is_destructive(command: str, workspace: Path) -> None:
    assert grade(command, workspace, contained=True) == DES
