"""Where git finds the repository whose hooks run: a remote pointed at a local repository and writes to hooks or
config anywhere under ``.git`` are destructive; git after any ``cd`` is marked ``outside`` (its directory may hold
another repository)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

WORKSPACE = Path("/home/dev/project")


@pytest.mark.parametrize(("script", "risk"), [
    ("git remote set-url --push origin ./b", RiskLevel.DESTRUCTIVE),
    ("git remote add evil ./b", RiskLevel.DESTRUCTIVE),
    ("git remote add evil b", RiskLevel.DESTRUCTIVE),
    ("git remote add evil /tmp/b", RiskLevel.DESTRUCTIVE),
    ("git remote add evil file:///tmp/b", RiskLevel.DESTRUCTIVE),
    ("git remote set-url origin 'ext::sh -c id'", RiskLevel.DESTRUCTIVE),
    ('git remote add evil "$URL"', RiskLevel.DESTRUCTIVE),
    ("echo x > .git/modules/m/hooks/pre-push", RiskLevel.DESTRUCTIVE),
    ("echo x > .git/worktrees/a/config", RiskLevel.DESTRUCTIVE),
    ("echo x > .git/config.worktree", RiskLevel.DESTRUCTIVE),
    ("git remote add origin git@github.com:x/y.git", RiskLevel.WORKSPACE_WRITE),
    ("git remote add origin https://github.com/x/y.git", RiskLevel.WORKSPACE_WRITE),
    ("git remote set-url origin ssh://git@github.com/x/y.git", RiskLevel.WORKSPACE_WRITE),
    ("echo x > .git/info/exclude", RiskLevel.WORKSPACE_WRITE),
])  # fmt: skip
def test_local_remotes_and_nested_git_hooks_and_config(script: str, risk: RiskLevel) -> None:
    assert classify(script, contained=False, workspace=WORKSPACE).risk is risk


@pytest.mark.parametrize(("script", "outside"), [
    ("cd sub && git push origin main", True),
    ("pushd sub; git push origin main", True),
    ("cd . && git push origin main", True),
    ("git push origin main", False),
    ("cd sub && npm install lodash", False),
])  # fmt: skip
def test_git_after_any_cd_is_outside(script: str, outside: bool) -> None:
    assert classify(script, contained=False, workspace=WORKSPACE).commands[-1].outside is outside
