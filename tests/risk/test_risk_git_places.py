"""Where git finds the repository whose hooks run: a remote pointed at a local repository and writes to hooks or
config anywhere under ``.git`` are destructive; git after any ``cd`` is marked ``outside`` (its directory may hold
another repository); git run with ``-C``, ``--git-dir`` or ``--work-tree`` outside the workspace, or from a
directory outside it, reads that repository's configuration, which can run programs: destructive."""

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
    ("git remote add upstream git@github.com:x/y.git", RiskLevel.DESTRUCTIVE),
    ("git remote add origin https://github.com/x/y.git", RiskLevel.DESTRUCTIVE),
    ("git remote set-url origin ssh://git@github.com/x/y.git", RiskLevel.DESTRUCTIVE),
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


@pytest.mark.parametrize("script", [
    "git -C /opt/other diff",
    "git -C /opt/other log -p",
    "git -C /opt/other status",
    "git --git-dir=/opt/other/.git log",
    "git --git-dir /opt/other/.git show HEAD",
    "git --work-tree /opt/other status",
    "git --work-tree=/opt/other diff",
    "git -C /tmp/clone diff",
    "git -C ~ diff",
    "git -C ~/other grep x",
    "git -C .. status",
    "git -C sub/../.. log",
    "git -C /opt -C other log",
    "git -C \"$D\" diff",
    "cd /opt && git -C other diff",
    "git -C /opt/other push origin main",
    "cd /opt/other && git diff",
    "cd /tmp/clone && git log -p",
    "cd \"$D\"; git status",
    "pushd ~/other; git show",
])  # fmt: skip
def test_git_run_in_a_repository_outside_the_workspace_is_a_project_outside_the_workspace(script: str) -> None:
    for contained in (False, True):  # never downgraded: the configuration is read wherever git runs
        graded = classify(script, contained=contained, workspace=WORKSPACE)
        assert graded.risk is RiskLevel.DESTRUCTIVE, graded.reasons
        assert "project-outside-workspace" in [r.rule for r in graded.reasons], graded.reasons


@pytest.mark.parametrize("script", [
    "git -C sub status",
    "git -C . diff",
    "git -C sub/.. log",
    "git --git-dir=.git status",
    "git -C sub --git-dir=sub/.git log",
    "git --work-tree=sub diff",
    "cd sub && git status",
    "cd /tmp && git clone -q https://github.com/x/y.git y",
    "ssh host 'cd /srv/app && git log'",
])  # fmt: skip
def test_git_run_in_the_workspace_with_c_git_dir_or_work_tree_stays_as_graded(script: str) -> None:
    graded = classify(script, contained=False, workspace=WORKSPACE)
    assert "project-outside-workspace" not in [r.rule for r in graded.reasons], graded.reasons
    assert graded.risk <= RiskLevel.NETWORK, graded.reasons


@pytest.mark.parametrize(
    "script",
    [
        "git mv -f y .cursor/hooks.json",
        "git mv cfg .claude",
        "git mv x .claude/settings.json",
        "git mv x .mcp.json",
        "git mv -- x .mcp.json",
        "git mv x .clinerules/hooks/PreToolUse",
        "git mv x .github/hooks/x.json",
        "git mv x .git/config",
        "git mv build/.claude .",
        "git mv .cursor/hooks.json x",
        "git -C sub mv x .claude",
    ],
)
def test_git_mv_onto_or_off_control_files_is_a_control_write(script: str) -> None:
    graded = classify(script, contained=False, workspace=WORKSPACE)
    assert (graded.risk, graded.reasons[0].rule) == (RiskLevel.DESTRUCTIVE, "git-control-write")


@pytest.mark.parametrize(
    "script", ["git mv a.py b.py", "git mv a.py b.py src/", "git mv -f -k a.py src/b.py", "git mv src lib"]
)
def test_git_mv_of_ordinary_files_stays_a_workspace_write(script: str) -> None:
    assert classify(script, contained=False, workspace=WORKSPACE).risk is RiskLevel.WORKSPACE_WRITE
