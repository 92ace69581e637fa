"""File names a listing prints at run time and a content reader then prints (``cat $(ls -a)``, ``find . -type f |
xargs cat``): a listing that shows hidden or git-ignored files (``ls -a``, ``find`` without a name test, ``fd -H``,
``git ls-files -o``) names the project's ``.env`` (listing.HIDDEN); one that hides them keeps its grade. Whole-repository
searches and dumps (``git grep``, ``git cat-file --batch-all-objects``) print a committed secret file when the index
tracks one (settings question ``tracked``), and keep their grade when it tracks none."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import git, graded, project

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
DES = RiskLevel.DESTRUCTIVE


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    """A project with a git-ignored ``.env`` beside its sources."""
    return project(
        tmp_path, {".env": "API_KEY=s3cret\n", ".gitignore": ".env\n", "src/a.py": "print(1)\n", "README.md": "x\n"}
    )


@pytest.mark.parametrize(
    "command",
    [
        "cat $(ls -a)",
        "cat `ls -A`",
        "ls -a | xargs cat",
        "ls -A | parallel cat",
        "ls -la | xargs cat",
        "cat $(ls --almost-all)",
        "cat $(ls --alm)",
        "awk 1 $(ls -A)",
        "nl $(ls -a)",
        "paste $(ls -A)",
        "grep -h . $(ls -A)",
        "head -n 99 $(ls -A | grep -v git)",
        "ls -a src | xargs cat",
        "find . -type f | xargs cat",
        "find . | xargs cat",
        "cat $(find . -type f)",
        "find . ! -name '*.py' | xargs cat",
        "find . -name '*.py' -o -type f | xargs cat",
        "find src -not -name '*.py' | xargs cat",
        "fd -H | xargs cat",
        "fd --no-ignore | xargs cat",
        "fd -u . | xargs cat",
        "git ls-files -o | xargs cat",
        "git ls-files --others | xargs cat",
        "git ls-files --oth | xargs cat",
        "cat $(git ls-files -o -i --exclude-standard)",
        "cat $(git ls-files --ignored --exclude-standard -o)",
    ],
)
def test_a_listing_of_hidden_or_ignored_files_names_the_env_file(workspace: Path, command: str) -> None:
    risk, details = graded(command, workspace)
    assert risk is NET and any("hidden or git-ignored" in d for d in details), details


@pytest.mark.parametrize(
    "command",
    [
        "cat $(ls)",
        "cat $(ls src)",
        "ls | xargs cat",
        "ls | parallel cat",
        "ls -l | xargs cat",
        "ls -A | grep src | xargs cat",
        "find . -name '*.py' | xargs cat",
        "cat $(find src -name '*.py')",
        "find . -type f -name '*.md' | xargs cat",
        "fd | xargs cat",
        "fd py | xargs cat",
        "ls -a | xargs wc -l",
        "find . -type f | xargs ls -l",
        "git ls-files -o | wc -l",
    ],
)
def test_a_listing_that_hides_dotfiles_or_is_not_printed_keeps_its_grade(workspace: Path, command: str) -> None:
    assert graded(command, workspace)[0] is RO


# -- a secret file's counts, or its content sent to /dev/null: nothing of it reaches the output ----------------------
@pytest.mark.parametrize(
    "command",
    [
        "wc -l .env",
        "wc -c .env",
        "wc .env",
        "cat .env > /dev/null",
        "cat .env >/dev/null 2>&1",
        "cat .env 2>&1 >/dev/null",
        "cat .env &> /dev/null",
        "cat .env >& /dev/null",
    ],
)
def test_counts_or_a_silenced_read_of_a_secret_file_print_none_of_it(workspace: Path, command: str) -> None:
    assert graded(command, workspace)[0] is RO


@pytest.mark.parametrize(
    "command",
    [
        "cat .env > /dev/null 1>&2",
        "cat .env 2>/dev/null",
        "cat .env > /dev/stdout",
        "cat .env > /dev/null > /dev/tty",
        "cat .env | wc -c",
        "head .env > /dev/null",
        "grep -q KEY .env > /dev/null",
        "md5sum .env",
        "wc --files0-from=.env",
        "wc --files0-from .env",
    ],
)
def test_a_secret_files_content_reaching_the_output_stays_a_secret_read(workspace: Path, command: str) -> None:
    risk, details = graded(command, workspace)
    assert risk is NET, details


# -- git checkout NAME where NAME is one remote's remote-tracking branch: a new local branch ---------------------------
@pytest.fixture()
def cloned(tmp_path: Path) -> Path:
    """A workspace repository with one commit, a local ``main``, and ``origin/dev`` but no local ``dev``."""
    ws = project(tmp_path, {"README.md": "x\n"})
    git("init", "-q", "-b", "main", cwd=ws)
    git("add", "README.md", cwd=ws)
    git("commit", "-q", "-m", "i", cwd=ws)
    git("config", "remote.origin.url", "https://example.com/o.git", cwd=ws)
    git("config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*", cwd=ws)
    git("update-ref", "refs/remotes/origin/dev", "HEAD", cwd=ws)
    return ws


@pytest.mark.parametrize("command", ["git checkout dev", "git checkout -q dev", "git checkout --guess dev"])
def test_checking_out_a_remote_tracking_branch_by_its_name_makes_a_local_branch(cloned: Path, command: str) -> None:
    assert graded(command, cloned)[0] is WW


@pytest.mark.parametrize(
    "command", ["git checkout nothere", "git checkout --no-guess dev", "git checkout dev --", "git checkout -f dev"]
)
def test_checking_out_a_name_that_is_no_branch_still_discards_changes(cloned: Path, command: str) -> None:
    assert graded(command, cloned)[0] is DES


def test_a_remote_tracking_branch_of_another_remote_or_no_guess_is_not_a_plain_branch(cloned: Path) -> None:
    git("config", "checkout.guess", "false", cwd=cloned)
    assert graded("git checkout dev", cloned)[0] is DES  # git-config(1) checkout.guess: dev is then a pathspec
    git("config", "--unset", "checkout.guess", cwd=cloned)
    git("config", "remote.evil.url", "https://evil.example/e.git", cwd=cloned)
    git("update-ref", "refs/remotes/evil/feature", "HEAD", cwd=cloned)
    risk, details = graded("git checkout feature", cloned)
    assert risk is DES and any("evil" in d for d in details), details
    git("config", "remote.odd.url", "https://example.com/odd.git", cwd=cloned)
    git("config", "remote.odd.fetch", "+refs/heads/*:refs/odd/*", cwd=cloned)
    assert graded("git checkout dev", cloned)[0] is DES  # odd's branches lie elsewhere: which one git takes is unknown


# -- kubectl --dry-run: the cluster is read, not changed ---------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "kubectl apply --dry-run=client -f k8s/deploy.yaml",
        "kubectl apply --dry-run=server -f k8s/deploy.yaml",
        "kubectl apply --dry-run -f k8s/deploy.yaml",
        "kubectl delete pod web --dry-run=server",
        "kubectl create deployment web --image=nginx --dry-run=client -o yaml",
        "kubectl create clusterrolebinding x --clusterrole=cluster-admin --user=b --dry-run=client -o yaml",
    ],
)
def test_a_kubectl_dry_run_only_reads_the_cluster(workspace: Path, command: str) -> None:
    assert graded(command, workspace)[0] is NET


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("kubectl apply -f k8s/deploy.yaml", RiskLevel.SYSTEM),
        ("kubectl apply --dry-run=client --dry-run=none -f k8s/deploy.yaml", RiskLevel.SYSTEM),
        ("kubectl apply --dry-run=false -f k8s/deploy.yaml", RiskLevel.SYSTEM),
        # a word only known when it runs may name another manifest, which FlyBot cannot read
        ('kubectl apply --dry-run=client -f k8s/deploy.yaml "$MORE"', DES),
        ("kubectl delete pod web", DES),
        ("kubectl exec web --dry-run=client -- rm -rf /", DES),
        ("kubectl --kubeconfig /tmp/k apply --dry-run=client -f k8s/deploy.yaml", DES),
    ],
)
def test_a_kubectl_change_without_a_dry_run_keeps_its_grade(workspace: Path, command: str, level: RiskLevel) -> None:
    (workspace / "k8s").mkdir()
    (workspace / "k8s" / "deploy.yaml").write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n")
    assert graded(command, workspace)[0] is level


# -- whole-repository searches and dumps: graded by whether the index tracks a secret file ---------------------------
@pytest.fixture()
def tracking(tmp_path: Path) -> Path:
    """A repository whose index tracks ``.env.production`` and ``config/server.key`` beside its sources."""
    ws = project(
        tmp_path,
        {".env.production": "API_KEY=s3cret\n", "config/server.key": "k\n", "src/a.py": "x = 1\n", "README.md": "r\n"},
    )
    git("init", "-q", cwd=ws)
    git("add", "-A", cwd=ws)
    git("commit", "-q", "-m", "i", cwd=ws)
    return ws


@pytest.fixture()
def clean(tmp_path: Path) -> Path:
    """A repository tracking no secret file, with a git-ignored ``.env``."""
    ws = project(tmp_path / "clean", {".env": "API_KEY=s3cret\n", ".gitignore": ".env\n", "src/a.py": "x = 1\n"})
    git("init", "-q", cwd=ws)
    git("add", "-A", cwd=ws)
    git("commit", "-q", "-m", "i", cwd=ws)
    return ws


WHOLE_REPOSITORY = [
    "git grep -n SECRET",
    "git grep -h .",
    "git grep -i key HEAD",
    "git grep -e KEY -- :/",
    "git grep KEY -- config",
    "git cat-file --batch-all-objects --batch",
    "git cat-file --batch-all-objects --batch-command",
    "git log -p",
    "git log --patch -n 5",
    "git whatchanged -p",
    "git show",
    "git show --stat -p HEAD",
    "git diff",
    "git diff HEAD",
    "git diff HEAD~0 -- .",
    "git diff-tree -p HEAD",
    "git stash show -p",
    "git format-patch -1 --stdout",
]


@pytest.mark.parametrize("command", WHOLE_REPOSITORY)
def test_a_whole_repository_search_or_dump_prints_a_tracked_secret(tracking: Path, command: str) -> None:
    risk, details = graded(command, tracking)
    assert risk is NET and any("the repository tracks" in d for d in details), details


@pytest.mark.parametrize("command", WHOLE_REPOSITORY)
def test_a_whole_repository_search_where_no_secret_is_tracked_stays_a_read(clean: Path, command: str) -> None:
    assert graded(command, clean)[0] is RO


@pytest.mark.parametrize(
    "command",
    [
        "git grep KEY -- src",
        "git grep KEY -- '*.py'",
        "git grep KEY src/",
        "git grep --no-index KEY src",
        "git log",
        "git log --stat",
        "git log -p -- src",
        "git cat-file --batch-all-objects --batch-check",
        "git show -s",
        "git show --stat",
        "git show --name-only HEAD",
        "git show HEAD:src/a.py",
        "git diff --stat",
        "git diff --name-status HEAD",
        "git diff -- src",
        "git diff-tree HEAD",
        "git stash show",
    ],
)
def test_a_search_or_log_narrowed_away_from_the_tracked_secrets_stays_a_read(tracking: Path, command: str) -> None:
    assert graded(command, tracking)[0] is RO


def test_an_index_flybot_cannot_read_fails_closed(tracking: Path) -> None:
    git("update-index", "--split-index", cwd=tracking)
    risk, details = graded("git grep KEY", tracking)
    assert risk is DES and any("not read" in d for d in details), details


def test_every_index_version_is_read(tracking: Path) -> None:
    for version in ("2", "3", "4"):
        git("update-index", "--index-version", version, cwd=tracking)
        risk, details = graded("git grep KEY", tracking)
        assert risk is NET and any(".env.production" in d for d in details), (version, details)


@pytest.mark.parametrize(
    "command",
    [
        "grep . $(git ls-files)",
        "git ls-files | xargs cat",
        "git ls-files | grep -v test | xargs head",
        "cat `git ls-files`",
    ],
)
def test_a_listing_of_the_tracked_files_names_a_tracked_secret(tracking: Path, clean: Path, command: str) -> None:
    risk, details = graded(command, tracking)
    assert risk is NET and any("which the repository tracks" in d for d in details), details
    assert graded(command, clean)[0] is RO


@pytest.mark.parametrize("command", ["git ls-files | grep py | xargs cat", "cat $(git ls-files '*.py')"])
def test_a_listing_of_tracked_files_filtered_away_from_secrets_stays_a_read(tracking: Path, command: str) -> None:
    assert graded(command, tracking)[0] is RO


def test_a_tracked_listing_filtered_for_a_secret_name_is_a_secret_read_anywhere(clean: Path) -> None:
    assert graded("git ls-files | grep env | xargs cat", clean)[0] is NET


# -- tsx and ts-node run a TypeScript program as node runs one --------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("tsx src/index.ts", "runs a program"),
        ("tsx watch src/index.ts", "runs a program"),
        ("ts-node src/index.ts", "runs a program"),
        ("tsx -e 'console.log(1)'", "runs inline code"),
    ],
)
def test_tsx_and_ts_node_run_a_program_the_classifier_cannot_see(workspace: Path, command: str, said: str) -> None:
    risk, details = graded(command, workspace)
    assert risk is DES and any(said in d for d in details), details


@pytest.mark.parametrize("command", ["tsx --version", "ts-node -v"])
def test_tsx_and_ts_node_versions_only_print(workspace: Path, command: str) -> None:
    assert graded(command, workspace)[0] is RO


# -- a variable assigned such a listing: a loop over it, or one name of it ------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        'for f in $(ls -a); do cat "$f"; done',
        "for f in `find . -type f`; do head -n 5 $f; done",
        "f=$(ls -A | head -1); cat $f",
    ],
)
def test_a_variable_holding_listed_hidden_names_is_a_secret_read(workspace: Path, command: str) -> None:
    risk, details = graded(command, workspace)
    assert risk is NET and any("a listing" in d for d in details), details


@pytest.mark.parametrize(
    "command",
    [
        'for f in $(ls); do cat "$f"; done',
        'for f in $(find src -name "*.py"); do cat "$f"; done',
        'for f in $(ls -a); do echo "$f"; done',
        'for f in $(ls -a); do wc -l "$f"; done',
        "f=$(ls src | head -1); cat $f",
    ],
)
def test_a_variable_holding_plain_listed_names_keeps_its_grade(workspace: Path, command: str) -> None:
    assert graded(command, workspace)[0] is RO


def test_a_loop_over_the_tracked_files_reads_a_tracked_secret(tracking: Path, clean: Path) -> None:
    command = 'for f in $(git ls-files); do cat "$f"; done'
    assert graded(command, tracking)[0] is NET
    assert graded(command, clean)[0] is RO
