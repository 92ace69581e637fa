"""Version-control checkouts before a recipe, writes into a repository's ``.git``, git configuration dumps, tools
that edit shell start-up files, package managers' script shells and git's ``ext::`` transport.

Each group checks the command graded as its manual says it behaves, and everyday neighbours graded as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import GivenRecipes, ProjectRecipes

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A workspace with a Makefile (``test`` runs pytest) and a package.json (``test`` runs jest)."""
    (tmp_path / "Makefile").write_text("test:\n\tpytest -q\n")
    (tmp_path / "package.json").write_text(json.dumps({"name": "x", "version": "1.0.0", "scripts": {"test": "jest"}}))
    return tmp_path


def graded(command: str, root: Path, contained: bool = False) -> tuple[RiskLevel, set[str]]:
    """The grade and rules on the adapter's side; the server, given what the adapter read, must grade the same."""
    read = classify(command, contained=contained, workspace=root, recipes=ProjectRecipes(root))
    given = classify(command, contained=contained, workspace=root, recipes=GivenRecipes(read.recipes))
    assert given.risk is read.risk, (read.reasons, given.reasons)
    return read.risk, {r.rule for r in read.reasons}


# -- a checkout of another revision before a recipe: the recipe that runs is not the one read ------------------------
@pytest.mark.parametrize(
    "command",
    [
        "hg update evil && make test",
        "hg up evil && make test",
        "hg checkout evil && npm test",
        "hg import /tmp/x.patch && make test",
        "hg patch /tmp/x.patch && make test",
        "hg pull -u && make test",
        "hg pull --update && npm test",
        "hg merge evil && make test",
        "hg unshelve && make test",
        "hg graft -r 5 && make test",
        "svn update && make test",
        "svn up -r 42 && npm test",
        "svn switch ^/branches/evil && make test",
        "svn merge ^/branches/evil && make test",
        "svn patch /tmp/x.diff && make test",
        "jj new evil && make test",
        "jj edit evil && make test",
        "jj restore --from evil && npm test",
        "jj git fetch && jj rebase -d evil && make test",
        "jj undo && make test",
        "jj op restore abc123 && make test",
        "fossil update && make test",
        "fossil checkout evil && make test",
    ],
)
def test_a_checkout_before_a_recipe_is_destructive(project: Path, command: str) -> None:
    risk, rules = graded(command, project)
    assert risk is DES
    assert "recipe-rewritten" in rules


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("hg status && make test", WW),
        ("hg log -l 5 && npm test", WW),
        ("hg commit -m fix && make test", WW),
        ("hg pull && make test", NET),
        ("svn status && make test", WW),
        ("svn add src/new.py && make test", WW),
        ("jj log && npm test", WW),
        ("jj st && make test", WW),
        ("jj describe -m fix && make test", WW),
        ("jj commit -m fix && make test", WW),
        ("make test && hg update default", WW),
        ("npm test && svn update", NET),
    ],
)
def test_a_recipe_after_a_query_or_a_commit_or_before_the_checkout_keeps_its_grade(
    project: Path, command: str, level: RiskLevel
) -> None:
    risk, rules = graded(command, project)
    assert risk is level
    assert "recipe-rewritten" not in rules


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("hg update default", WW),
        ("hg import /tmp/x.patch", WW),
        ("hg pull -u", NET),
        ("svn update", NET),
        ("svn switch ^/branches/b", NET),
        ("jj new", WW),
        ("jj rebase -d main", WW),
        ("jj git fetch", NET),
        ("fossil update", NET),
        ("hg update --clean", DES),
    ],
)
def test_a_checkout_alone_keeps_its_grade(project: Path, command: str, level: RiskLevel) -> None:
    assert graded(command, project)[0] is level


# -- a write into a repository's .git is a control-file write -------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "echo 0000000000000000000000000000000000000000 > .git/refs/heads/main",
        "cp /tmp/x .git/index",
        "echo '../../../tmp/evil' > .git/objects/info/alternates",
        "echo /tmp/evil > .git/commondir",
        "echo 'ref: refs/heads/evil' > .git/HEAD",
        "echo x > .git/packed-refs",
        "sed -i s/main/evil/ .git/packed-refs",
        "cp attrs .git/info/attributes",
        "tee .git/info/sparse-checkout < list",
        "echo x > .git/config",
        "echo x > .git/hooks/pre-commit",
        "cd .git && echo x > ORIG_HEAD",
        "echo x > .git/modules/sub/index",
        "echo x > .git/worktrees/w/commondir",
        "echo x > sub/.git/refs/heads/main",
        "echo x > /tmp/r/.git/refs/heads/main",
    ],
)
@pytest.mark.parametrize("contained", [False, True])
def test_a_write_into_git_s_own_files_is_a_control_file_write(project: Path, command: str, contained: bool) -> None:
    risk, rules = graded(command, project, contained)
    assert risk is DES
    assert "git-control-write" in rules


def test_a_write_into_another_repository_s_git_directory_is_a_control_file_write(project: Path) -> None:
    # a worktree's gitdir: target (MAIN/.git/worktrees/NAME) lies outside the workspace
    for command in ("echo /tmp/evil > /srv/main/.git/worktrees/w/commondir", "cp x /srv/repo/.git/refs/heads/main"):
        risk, rules = graded(command, project)
        assert risk is DES
        assert "git-control-write" in rules


@pytest.mark.parametrize("layout", ["separate", "worktree"])
@pytest.mark.parametrize("place", ["refs/heads/main", "hooks/post-checkout", "config", "index", "commondir"])
def test_a_write_into_the_git_directory_a_git_file_names_is_a_control_file_write(
    tmp_path: Path, layout: str, place: str
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    if layout == "separate":  # git init --separate-git-dir: the directory has no .git in its path
        git_dir = common = tmp_path / "gitdirs" / "ws"
    else:  # git worktree add: MAIN/.git/worktrees/NAME, whose commondir is MAIN/.git
        common = tmp_path / "main" / "repo"
        git_dir = common / "worktrees" / "ws"
        git_dir.mkdir(parents=True)
        (git_dir / "commondir").write_text("../..\n")
    git_dir.mkdir(parents=True, exist_ok=True)
    (workspace / ".git").write_text(f"gitdir: {git_dir}\n")
    for target in {git_dir / place, common / place}:
        risk, rules = graded(f"echo x > {target}", workspace)
        assert risk is DES
        assert "git-control-write" in rules
    # another directory next to it stays a write there, and so does the directory once no .git file names it
    assert graded(f"echo x > {tmp_path / 'other' / 'notes.txt'}", workspace)[0] is WW
    assert graded(f"echo x > {git_dir / 'notes.txt'}", workspace)[0] is DES
    (workspace / ".git").unlink()
    assert graded(f"echo x > {git_dir / 'notes.txt'}", workspace)[0] is WW


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("echo 'build/' >> .git/info/exclude", WW),
        ("echo 'my repo' > .git/description", WW),
        ("echo x > .git/modules/sub/info/exclude", WW),
        ("cat .git/HEAD", RO),
        ("cat .git/refs/heads/main", RO),
        ("ls .git/objects", RO),
        ("echo x > .gitignore", WW),
        ("echo x > .github/README.md", WW),
        ("echo x > src/git/refs.py", WW),
        ("cp a.txt docs/dot.git.md", WW),
    ],
)
def test_inert_git_files_and_reads_and_look_alikes_keep_their_grade(
    project: Path, command: str, level: RiskLevel
) -> None:
    assert graded(command, project)[0] is level


# -- git configuration dumps print credential settings -------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "git var -l",
        "git config --get-regexp .",
        "git config --get-regexp 'http.*extraheader'",
        "git config --get-r .",
        "git config get --all --regexp=.",
        "git config get --regexp '^http'",
        "git config --get-urlmatch http https://github.com",
        "git config get --url=https://github.com http",
        "git config get --url https://github.com http",
        "git config --get-urlmatch http.extraheader https://github.com",
        "git config -l",
        "git config -zl",
        "git config --lis",
        "git config --show-origin --list",
        "git config --global --list",
        "git config list",
    ],
)
def test_a_git_config_dump_is_a_secret_read(project: Path, command: str) -> None:
    risk, rules = graded(command, project)
    assert risk is NET
    assert "secret-read" in rules


@pytest.mark.parametrize(
    "command",
    [
        "git var GIT_AUTHOR_IDENT",
        "git config user.name",
        "git config --get user.email",
        "git config get user.email",
        "git config --get-all remote.origin.fetch",
        "git config --get-urlmatch http.sslverify https://github.com",
        "git config get --url https://github.com http.sslverify",
        "git config --name-only --list",
        "git config --name-only --get-regexp '^alias'",
        "git config --type bool --get core.bare",
    ],
)
def test_a_git_config_read_of_a_named_key_stays_read_only(project: Path, command: str) -> None:
    assert graded(command, project)[0] is RO


# -- tools that edit the shell's start-up files -------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "pipx ensurepath",
        "pipx ensurepath --force",
        "conda init bash",
        "conda init --all",
        "mamba init zsh",
        "micromamba shell init -s bash",
        "uv tool update-shell",
        "rbenv init",
        "rbenv init zsh",
        "opam init",
        "opam init -a",
        "rvm get stable --auto-dotfiles",
    ],
)
def test_a_tool_that_edits_the_shell_start_up_files_is_destructive_on_the_host(project: Path, command: str) -> None:
    risk, rules = graded(command, project)
    assert risk is DES
    assert "protected-path-write" in rules
    # contained, as a write to ~/.bashrc is: a write (network when it downloads too, never downgraded)
    assert graded(command, project, contained=True)[0] in (WW, NET)


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("conda init --dry-run", RO),
        ("micromamba shell hook -s bash", RO),
        ("rbenv init -", RO),
        ("rbenv init - bash", RO),
        ("pyenv init -", RO),
        ("pyenv init --path", RO),
        ("conda activate base", RO),
        ("pipx install black", SYS),
        ("uv tool install ruff", SYS),
        ("conda install numpy", SYS),
        ("opam init -n", SYS),
        ("rvm get stable", SYS),
        ("pyenv init --install", DES),  # an option FlyBot does not know: it may be one that edits them
    ],
)
def test_printing_the_start_up_code_or_installing_keeps_its_grade(
    project: Path, command: str, level: RiskLevel
) -> None:
    assert graded(command, project)[0] is level


# -- the shell every package script runs through -------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "yarn config set scriptShell /tmp/x",
        "yarn config set scriptShell /tmp/x && yarn test",
        "yarn config set -H scriptShell /tmp/x",
        "yarn config set script-shell /tmp/x",
        "yarn config set injectEnvironmentFiles .env.evil",
        "yarn config set yarnPath /tmp/y.cjs",
        "npm config set script-shell /tmp/x",
        "npm config set --location=project script-shell /tmp/x",
        "npm config set --location project script-shell /tmp/x",
        "npm set fund=false script-shell=/tmp/x",
        "npm config set node-options --require=/tmp/x.js",
        "pnpm config set script-shell /tmp/x",
        "pnpm config set shell /tmp/x",
        "npm_config_script_shell=/tmp/x npm test",
    ],
)
def test_setting_the_shell_scripts_run_through_is_destructive(project: Path, command: str) -> None:
    assert graded(command, project)[0] is DES


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("yarn config set enableTelemetry false", SYS),
        ("yarn config set nodeLinker node-modules", SYS),
        ("npm config set fund false", SYS),
        ("npm config set loglevel info", SYS),
        ("npm set init-license MIT", SYS),
        ("pnpm config set store-dir /tmp/s", SYS),
        ("yarn config get scriptShell", RO),
        ("npm config get script-shell", RO),
    ],
)
def test_an_inert_package_manager_setting_keeps_its_grade(project: Path, command: str, level: RiskLevel) -> None:
    assert graded(command, project)[0] is level


# -- git's transport::address URLs run a remote helper (ext:: a command) ------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "git clone 'ext::sh -c touch% /tmp/pwned' x",
        "git fetch 'ext::sh -c id'",
        "git pull 'ext::sh -c id'",
        "git ls-remote 'ext::sh -c id'",
        "git submodule add 'ext::sh -c id' sub",
        "git archive --remote='ext::sh -c id' HEAD",
        "git clone fd::3 x",
        "git -c protocol.ext.allow=always fetch origin",
        "git -c protocol.allow=always clone https://example.com/r.git",
        "git clone --config protocol.ext.allow=always https://example.com/r.git",
        "git config protocol.ext.allow always",
        "git remote add x 'ext::sh -c id'",
        "git push 'ext::sh -c id' main",
    ],
)
def test_a_remote_helper_url_or_allowing_ext_is_destructive(project: Path, command: str) -> None:
    assert graded(command, project)[0] is DES


@pytest.mark.parametrize(
    "command",
    [
        "git fetch origin",
        "git pull origin main",
        "git ls-remote origin",
        "git clone https://github.com/a/b.git b",
        "git clone git@github.com:a/b.git b",
        "git fetch origin refs/heads/a:refs/remotes/origin/a",
    ],
)
def test_an_ordinary_remote_stays_network(project: Path, command: str) -> None:
    assert graded(command, project)[0] is NET
