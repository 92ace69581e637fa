"""Grades checked against a blind corpus written from the documentation alone: a makefile without the target's
rule, environment names that only choose the project's own mode, check-only tools, run wrappers of other package
managers and less common build tools. Each rule is tested in both directions: the hostile spelling still asks."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes

R = RiskLevel
WORKSPACE = Path("/home/dev/project")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "Makefile").write_text("build:\n\tcargo build\n\ndeploy-docs:\n\tmkdocs build\n")
    (tmp_path / "package.json").write_text('{"scripts": {"build": "tsc -p .", "test": "jest"}}')
    return tmp_path


@pytest.mark.parametrize(("script", "risk"), [
    ("make deploy", R.NETWORK),  # no rule: make stops, the name keeps its floor as npm's missing script does
    ("make release", R.NETWORK),
    ("make clean", R.DESTRUCTIVE),
    ("make build", R.WORKSPACE_WRITE),
    ("make deploy-docs", R.WORKSPACE_WRITE),  # a rule that is there is graded by its lines
    ("npm run deploy", R.NETWORK),
])  # fmt: skip
def test_a_target_without_a_rule_is_graded_by_its_name(project: Path, script: str, risk: RiskLevel) -> None:
    verdict = classify(script, contained=False, workspace=project, recipes=ProjectRecipes(project))
    assert verdict.risk is risk, (script, verdict.reasons)


@pytest.mark.parametrize(("script", "risk"), [
    ("NODE_ENV=production npm run build", R.WORKSPACE_WRITE),
    ("export NODE_ENV=test; npm test", R.WORKSPACE_WRITE),
    ("NODE_OPTIONS='--require /tmp/x.js' npm run build", R.DESTRUCTIVE),
    ("npm_config_script_shell=/tmp/x npm run build", R.DESTRUCTIVE),
    ("BABEL_ENV=production npm run build", R.DESTRUCTIVE),
    ("NODE_ENV=production DEBUG=x npm run build", R.DESTRUCTIVE),
])  # fmt: skip
def test_node_env_only_chooses_the_project_s_own_mode(project: Path, script: str, risk: RiskLevel) -> None:
    verdict = classify(script, contained=False, workspace=project, recipes=ProjectRecipes(project))
    assert verdict.risk is risk, (script, verdict.reasons)


@pytest.mark.parametrize(("script", "risk"), [
    ("brew services start postgresql@16", R.DESTRUCTIVE),
    ("brew services restart redis", R.DESTRUCTIVE),
    ("brew services $VERB redis", R.DESTRUCTIVE),
    ("brew services frobnicate redis", R.DESTRUCTIVE),
    ("brew services run redis", R.SYSTEM),
    ("brew services stop redis", R.SYSTEM),
    ("brew services list", R.READ_ONLY),
])  # fmt: skip
def test_brew_services_start_registers_a_login_job(script: str, risk: RiskLevel) -> None:
    verdict = classify(script, contained=False, workspace=WORKSPACE)
    assert verdict.risk is risk, (script, verdict.reasons)
    if risk is R.DESTRUCTIVE and "start" in script:
        assert "persistence" in {r.rule for r in verdict.reasons}


@pytest.mark.parametrize(("script", "risk"), [
    ("sudo cmake --install build --prefix /usr", R.DESTRUCTIVE),
    ("cmake --install build --prefix=/usr/local", R.DESTRUCTIVE),
    ("cmake --install build --prefix ~/.local", R.DESTRUCTIVE),
    ("cmake --install build --prefix /opt/app", R.SYSTEM),
    ("cmake --install build", R.SYSTEM),
])  # fmt: skip
def test_cmake_install_prefix_is_where_it_writes(script: str, risk: RiskLevel) -> None:
    verdict = classify(script, contained=False, workspace=WORKSPACE)
    assert verdict.risk is risk, (script, verdict.reasons)


@pytest.mark.parametrize(("script", "risk"), [
    ("npm install -g typescript", R.SYSTEM),
    ("npm install --global typescript", R.SYSTEM),  # npm's global key, not an abbreviation of globalconfig
    ("npm i --global=true typescript", R.SYSTEM),
    ("yarn global add serve", R.SYSTEM),
    ("npm i --global=false typescript", R.NETWORK),
    ("npm install --globalconfig=/tmp/x typescript", R.DESTRUCTIVE),
    ("npm install --globalc=/tmp/x typescript", R.DESTRUCTIVE),
    ("npm test --global", R.DESTRUCTIVE),
    ("npm test --global=1", R.DESTRUCTIVE),
])  # fmt: skip
def test_a_global_install_writes_outside_and_a_global_script_is_unread(script: str, risk: RiskLevel) -> None:
    verdict = classify(script, contained=False, workspace=WORKSPACE)
    assert verdict.risk is risk, (script, verdict.reasons)
