"""Secret files a command prints without naming them: a recursive read of a workspace directory holding a secret file
by its name (``grep -r x sub`` with ``sub/.env``: the recipe book's secrets question, the adapter walking the tree),
``git diff --cached`` of a secret file staged earlier in the command or tracked by the index, and ``git archive``
to standard output of a repository tracking one. Each rule is checked both ways: the hostile command is a
``secret-read`` and the everyday neighbour keeps its grade, on both sides of the wire (``both_sides.graded``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.risk import RiskLevel
from bot.risk import recipes as recipe_module
from bot.risk.recipes import GivenRecipes, ProjectRecipes
from bot.risk.sensitive import env_file, named_secret
from tests.risk.both_sides import git, graded, project

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    """``sub`` holds a hidden ``.env``, ``keys`` a visible ``deploy/server.key``, ``src`` only sources."""
    return project(
        tmp_path,
        {
            "sub/.env": "S=1\n",
            "sub/notes.md": "n\n",
            "keys/deploy/server.key": "k\n",
            "keys/README.md": "r\n",
            "src/a.py": "x = 1\n",
            "src/lib/b.py": "y = 2\n",
            "docs/.env.example": "S=\n",
        },
    )


# -- 1. recursive reads below a directory holding a secret file ------------------------------------------------------
SECRET_BELOW = [
    "grep -r SECRET sub",
    "grep -R SECRET sub/",
    "grep -rn x ./sub",
    "egrep -r x sub",
    "cd sub && grep -r x",
    "cd sub && grep -r x .",
    "grep -r --include='*.py' --include='.env*' x sub",
    "grep -r --exclude='*.md' x sub",
    "find sub -type f -exec cat {} +",
    "find sub -exec head {} \\;",
    "find sub -name '.env*' -exec cat {} +",
    "find sub ! -name '*.md' -exec cat {} +",
    "rg --hidden x sub",
    "rg -uu x sub",
    "rg -. x sub",
    "ag --hidden x sub",
    "tar cf - sub",
    "tar -czf - sub",
    "zip -r - sub",
    "rg x keys",
    "rg x",
    "ag x keys",
    "grep -r x keys",
    "find keys -name 'server*' -exec cat {} +",
    "tar cf - keys",
    "fd . keys -x cat",
    "fd -H . sub -X cat",
]


@pytest.mark.parametrize("command", SECRET_BELOW)
def test_a_recursive_read_of_a_directory_holding_a_secret_file_is_a_secret_read(workspace: Path, command: str) -> None:
    risk, details = graded(command, workspace)
    assert risk is NET and any(".env" in d or "server.key" in d for d in details), details


@pytest.mark.parametrize(
    "command, level",
    [
        ("grep -r SECRET src", RO),
        ("grep -r x docs", RO),  # a template (.env.example) holds no secret
        ("find src -type f -exec cat {} +", RO),
        ("rg x sub", RO),  # rg(1) skips hidden files without --hidden
        ("rg --hidden --no-hidden x sub", RO),
        ("ag x sub", RO),
        ("rg x src", RO),
        ("tar cf - src", RO),
        ("grep -r --include='*.py' x sub", RO),
        ("grep -r --exclude='.e*' x sub", RO),
        ("grep -r --exclude-dir=deploy x keys", RO),
        ("find sub -name '*.md' -exec cat {} +", RO),
        ("find keys -name '*.md' -exec cat {} +", RO),
        ("find sub -type f -exec ls -l {} +", RO),
        ("fd . sub -x cat", RO),  # fd(1) skips hidden files without -H
        ("fd . keys -x ls", RO),
        ("grep -rl x sub", NET),  # grep -l prints names only, but the rule does not tell (fail closed)
        ("tar cf out.tar sub", WW),
        ("grep x sub/notes.md", RO),
    ],
)
def test_a_recursive_read_reaching_no_secret_file_keeps_its_grade(
    workspace: Path, command: str, level: RiskLevel
) -> None:
    assert graded(command, workspace)[0] is level


def test_a_tree_too_large_to_look_through_fails_closed(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recipe_module, "MAX_SECRET_ENTRIES", 2)
    risk, details = graded("grep -r x src", workspace)
    assert risk is NET and any("did not look through" in d for d in details), details


def test_an_unreadable_directory_fails_closed(workspace: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every directory")
    locked = workspace / "src" / "lib"
    locked.chmod(0)
    try:
        assert graded("grep -r x src", workspace)[0] is NET
    finally:
        locked.chmod(0o755)


def test_the_server_without_the_adapters_answer_grades_no_lower_than_the_adapter(workspace: Path) -> None:
    from bot.risk import classify

    read = classify("grep -r x sub", contained=False, workspace=str(workspace), recipes=ProjectRecipes(workspace))
    assert read.risk is NET and any(r.tool == "path" and r.target.startswith("<secrets> ") for r in read.recipes)
    sent = classify("grep -r x sub", contained=False, workspace=str(workspace), recipes=GivenRecipes(read.recipes))
    assert sent.risk is NET
    hidden = classify("rg x keys", contained=False, workspace=str(workspace), recipes=ProjectRecipes(workspace))
    assert any(r.target.startswith("<visible> ") for r in hidden.recipes)


def test_a_directory_name_changes_no_answer_where_the_walk_keeps_answers_by_name() -> None:
    """The walk keeps ``named_secret``'s answer by file name below plain directories (recipes._plain_part): the
    answer must be the same whatever plain directories the file lies in."""
    names = [
        ".env", ".env.production", "prod.env", ".envrc", "id_rsa", "id_ed25519", "server.key", "a.p12", "key.pem",
        "cert.pem", "terraform.tfstate", "kubeconfig", "credentials.json", "auth.json", "secrets.yml", "config",
        "credentials", "settings.xml", ".npmrc", ".netrc", "_netrc", ".git-credentials", "token", "a.py", "id_rsa.bak",
        ".env~", "config.json", "hosts.yml", "wallet.dat", "accounts.xml", "profiles.yml", "secrets.toml",
    ]  # fmt: skip
    for directory in ("src", "a/b/c", "node_modules/x", "Library", "chromium/Default", "gcloud", "keyrings"):
        assert recipe_module._plain_part(directory.split("/")[0])
        for name in names:
            whole = env_file(f"{directory}/{name}") or named_secret(f"{directory}/{name}")
            alone = env_file(name) or named_secret(name)
            assert whole == alone, (directory, name)


# -- 2. git diff --cached of a staged or tracked secret --------------------------------------------------------------
@pytest.fixture()
def repository(tmp_path: Path) -> Path:
    """A repository tracking no secret file, with a git-ignored ``.env``."""
    ws = project(tmp_path / "r", {".env": "API_KEY=s3cret\n", ".gitignore": ".env\n", "src/a.py": "x = 1\n"})
    git("init", "-q", cwd=ws)
    git("add", "-A", cwd=ws)
    git("commit", "-q", "-m", "i", cwd=ws)
    return ws


@pytest.fixture()
def tracking(tmp_path: Path) -> Path:
    """A repository whose index tracks ``.env.production``."""
    ws = project(tmp_path / "t", {".env.production": "API_KEY=s3cret\n", "src/a.py": "x = 1\n"})
    git("init", "-q", cwd=ws)
    git("add", "-A", cwd=ws)
    git("commit", "-q", "-m", "i", cwd=ws)
    return ws


@pytest.mark.parametrize(
    "command",
    [
        "git add -f .env && git diff --cached",
        "git add -f .env; git diff --staged",
        "git add --force -- .env && git diff --cach",
        "mv .env notes.txt && git add notes.txt && git diff --cached",
        "git add -f . && git diff --cached",
        "git add -A && git diff --cached --stat -p",
    ],
)
def test_a_diff_of_a_secret_staged_earlier_is_a_secret_read(repository: Path, command: str) -> None:
    risk, details = graded(command, repository)
    assert risk is NET and any("staged" in d for d in details), details


@pytest.mark.parametrize(
    "command, level",
    [
        ("git add src/a.py && git diff --cached", WW),
        ("git diff --cached", RO),
        ("git diff --staged src", RO),
        ("git add -f .env && git diff --cached -- src", WW),
        ("git add -f .env && git diff", WW),  # the worktree against the index: .env is the same in both
        ("git diff --cached; git add src/a.py", WW),
    ],
)
def test_a_diff_of_staged_files_that_are_not_secrets_keeps_its_grade(
    repository: Path, command: str, level: RiskLevel
) -> None:
    assert graded(command, repository)[0] is level


def test_a_diff_of_the_index_of_a_repository_tracking_a_secret_is_a_secret_read(
    tracking: Path, repository: Path
) -> None:
    risk, details = graded("git diff --cached", tracking)
    assert risk is NET and any(".env.production" in d for d in details), details
    assert graded("git diff --cached -- src", tracking)[0] is RO
    assert graded("git diff --cached", repository)[0] is RO


@pytest.mark.parametrize(
    "command",
    [
        "git diff --cached --name-only",
        "git diff --staged --name-status",
        "git diff --cached --stat",
        "git add -f .env && git diff --cached --name-only",
    ],
)
def test_a_diff_of_the_index_printing_names_or_counts_only_keeps_its_grade(tracking: Path, command: str) -> None:
    assert graded(command, tracking)[0] in (RO, WW)


@pytest.mark.parametrize(
    "command",
    ["git diff --cached --name-only -p", "git diff --cached --stat --patch", "git diff --staged --name-status -U3"],
)
def test_a_diff_of_the_index_asking_for_a_patch_too_is_a_secret_read(tracking: Path, command: str) -> None:
    assert graded(command, tracking)[0] is NET


@pytest.mark.parametrize("command", ["git show :.env", "git show HEAD:.env.production", "git show :0:.env"])
def test_showing_a_staged_or_committed_secret_by_its_path_is_a_secret_read(tracking: Path, command: str) -> None:
    assert graded(command, tracking)[0] is NET
    assert graded(command.replace(".env.production", "src/a.py").replace(".env", "src/a.py"), tracking)[0] is RO


# -- 3. git archive to standard output ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command", ["git archive HEAD", "git archive --format=tar HEAD", "git archive HEAD .env.production"]
)
def test_an_archive_to_standard_output_of_a_repository_tracking_a_secret_is_a_secret_read(
    tracking: Path, command: str
) -> None:
    risk, details = graded(command, tracking)
    assert risk is NET and any("the repository tracks" in d for d in details), details


@pytest.mark.parametrize(
    "command, level, where",
    [
        ("git archive HEAD", RO, "repository"),
        ("git archive HEAD src", RO, "tracking"),
        ("git archive --prefix=p/ HEAD src/a.py", RO, "tracking"),
        ("git archive -o out.tar HEAD", WW, "tracking"),
        ("git archive --output=out.tar HEAD", WW, "tracking"),
    ],
)
def test_an_archive_written_to_a_file_or_of_no_secret_keeps_its_grade(
    tracking: Path, repository: Path, command: str, level: RiskLevel, where: str
) -> None:
    assert graded(command, tracking if where == "tracking" else repository)[0] is level


def test_a_secret_file_whose_name_breaks_a_line_is_sent_as_the_server_takes_it(workspace: Path) -> None:
    """The adapter's answer goes to the server as a recipe (bot/api/models.py ``RecipeIn``): a file name holding a
    newline or bytes that are not UTF-8 must not make the escalation unsendable."""
    from bot.api.models import RecipeIn
    from bot.risk import classify
    from bot.risk.serialize import assessment_to_dict

    odd = os.path.join(os.fsencode(workspace / "src"), b"x\n\xff.env")
    with open(odd, "wb") as handle:
        handle.write(b"S=1\n")
    read = classify("grep -r x src", contained=False, workspace=str(workspace), recipes=ProjectRecipes(workspace))
    assert read.risk is NET
    sent = assessment_to_dict(read)["recipes"]
    for recipe in sent:
        RecipeIn.model_validate(recipe)
    assert graded("grep -r x src", workspace)[0] is NET


@pytest.mark.parametrize(
    "command, level",
    [
        ("grep -r x su?", NET),
        ("grep -r x s*", NET),
        ("tar cf - su*", NET),
        ("grep -r x k*/*", NET),  # a glob of several components keeps every file below its directory
        ("rg x ke*", NET),
        ("grep -r TODO *.py", RO),
        ("grep -r x sr?", RO),
        ("grep -r x src/*.py", RO),
        ("rg x s*", RO),  # sub/.env is hidden from rg
    ],
)
def test_a_glob_reads_below_the_entries_it_names(workspace: Path, command: str, level: RiskLevel) -> None:
    (workspace / "top.py").write_text("x = 1\n")
    assert graded(command, workspace)[0] is level


def test_a_directory_spelled_from_the_home_directory_is_looked_through(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(workspace.parent))
    for command in ("grep -r x ~/ws/sub", "grep -r x $HOME/ws/sub", "find ~/ws/keys -path '*' -exec cat {} +"):
        risk, details = graded(command, workspace)
        assert risk is NET and any(".env" in d or "server.key" in d for d in details), (command, details)
    assert graded("grep -r x ~/ws/src", workspace)[0] is RO


def test_the_adapter_answers_even_when_it_finds_none_and_the_server_fails_closed_without_it(workspace: Path) -> None:
    from bot.api.models import RecipeIn
    from bot.risk import classify
    from bot.risk.serialize import assessment_to_dict

    read = classify("grep -r x src", contained=False, workspace=str(workspace), recipes=ProjectRecipes(workspace))
    assert read.risk is RO
    answers = [r for r in read.recipes if r.target.startswith("<secrets> ")]
    assert len(answers) == 1 and answers[0].lines == ()
    for recipe in assessment_to_dict(read)["recipes"]:
        RecipeIn.model_validate(recipe)
    command = "make -n; grep -r x src"
    (workspace / "Makefile").write_text("all:\n\techo hi\n")
    read = classify(command, contained=False, workspace=str(workspace), recipes=ProjectRecipes(workspace))
    others = [r for r in read.recipes if not r.target.startswith("<secrets> ")]
    assert others, read.recipes
    sent = classify(command, contained=False, workspace=str(workspace), recipes=GivenRecipes(others))
    assert sent.risk >= NET and any("not reported by the adapter" in r.detail for r in sent.reasons), sent.reasons
