"""A repository's configuration is a credential file: a CI clone keeps its job token in the remote URL
(``https://gitlab-ci-token:TOKEN@host/...``) or in ``http.extraHeader``, so printing ``.git/config``, or a
remote's URL through git, sends it to the model (``secret-read``, network), as printing ``.git-credentials`` does.
A recursive search from the workspace's top, or a directory above it, reads ``.git/config`` too when the tool
descends into hidden directories (grep -r does; rg and ag skip them by default; git grep searches tracked files).
Other files below ``.git`` and files named ``config`` elsewhere stay reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

WORKSPACE = Path("/home/dev/project")
RO, NET = RiskLevel.READ_ONLY, RiskLevel.NETWORK


def _graded(script: str, contained: bool = False):  # type: ignore[no-untyped-def]
    return classify(script, contained=contained, workspace=WORKSPACE)


@pytest.mark.parametrize("script", [
    "cat .git/config",
    "cat ./.git/config",
    "cat /home/dev/project/.git/config",
    "cat ../other/.git/config",
    "head -c 400 .git/config",
    "grep url .git/config",
    "sed -n 1,20p .git/config",
    "less .git/config",
    "cat < .git/config",
    "base64 .git/config",
    "cat .git/config.worktree",
    "cat .git/worktrees/w/config.worktree",
    "cat .git/modules/lib/config",
    "cat .git/*",
    "cat .g*/conf*",
    "cd .git && cat config",
    "cd .git/modules/lib && head config",
    "git config --get remote.origin.url",
    "git config remote.origin.url",
    "git config get remote.origin.pushurl",
    "git config --get remote.upstream.URL",
    "git remote -v",
    "git remote --verbose",
    "git remote get-url origin",
    "git remote get-url --push origin",
    "git remote show -n origin",
    "git remote show origin",
    "git ls-remote --get-url",
    "git config --list --show-origin",
    "grep -r token .git",
    "grep -rn url .git/",
    "rg -uu token .git",
    "cd .git && grep -r url .",
    "grep -r url .git/modules",
    "grep -r token .",
    "grep -rn token",
    "grep -R -i token ./",
    "grep --recursive token /home/dev/project",
    "cd src && grep -r token ..",
    "egrep -r 'token|password' .",
    "grep -r token --include=config .",
    "grep -r token --exclude-dir=node_modules .",
    "rg --hidden token",
    "rg -. token .",
    "rg -uu token",
    "rg -u -u token",
    "rg --hidden -g '!.git/objects' token",
    "rg --hidden -e a -e b",
    "grep -r --exclude-dir .github token",
    "grep -rie token",
    "ag --hidden token .",
    "ag -u token",
    "ag --unrestricted token",
])  # fmt: skip
def test_printing_the_repository_configuration_or_a_remote_url_is_a_secret_read(script: str) -> None:
    for contained in (False, True):
        graded = _graded(script, contained)
        assert graded.risk is NET, graded.reasons
        assert "secret-read" in {r.rule for r in graded.reasons}, graded.reasons


@pytest.mark.parametrize(("script", "risk"), [
    ("cat .git/HEAD", RO),
    ("cat .git/info/exclude", RO),
    ("cd .git && cat HEAD", RO),
    ("cat config", RO),
    ("cat src/config", RO),
    ("cat .github/config", RO),
    ("cat src/*.py", RO),
    ("ls .git", RO),
    ("stat .git/config", RO),
    ("git remote", RO),
    ("git config --get user.name", RO),
    ("git config remote.origin.fetch", RO),
    ("git log --oneline -5", RO),
    ("grep -r x .git/objects", RO),
    ("grep -r TODO src", RO),
    ("grep -r token src/", RO),
    ("grep token .", RO),
    ("grep -r token --exclude-dir=.git .", RO),
    ("grep -r token --exclude-dir='.*' .", RO),
    ("grep -r token --include='*.py' .", RO),
    ("grep -r token --exclude=config .", RO),
    ("grep -r token --exclude-dir .git .", RO),
    ("rg token", RO),
    ("rg token .", RO),
    ("rg -u token", RO),
    ("rg --no-ignore token .", RO),
    ("rg --hidden --no-hidden token", RO),
    ("rg --hidden -g '!.git' token", RO),
    ("rg -uu --glob='!.git/' token", RO),
    ("ag token .", RO),
    ("ag --hidden --ignore-dir .git token", RO),
    ("git grep token", RO),
])  # fmt: skip
def test_other_repository_files_and_config_keys_stay_reads(script: str, risk: RiskLevel) -> None:
    graded = _graded(script)
    assert graded.risk is risk, graded.reasons


def test_a_write_to_the_repository_configuration_stays_destructive() -> None:
    assert _graded('echo "[core]" >> .git/config').risk is RiskLevel.DESTRUCTIVE
    assert _graded("git config remote.origin.url https://evil.example/x").risk is RiskLevel.DESTRUCTIVE
