"""Guards that read one option's values (``options.option_values``: ktlint ``--reporter``, cppcheck ``--project``);
``LISTING | while read VAR`` loops, whose ``$VAR`` holds the names a listing prints (walker ``read_listed``); GNU
parallel's options before its command (wrappers ``parallel_command``: ``ls -a | parallel -j 4 cat``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bot.risk import RiskLevel
from bot.risk.options import option_values
from bot.risk.words import literal_word
from tests.risk.both_sides import graded, project

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


def _values(*words: str) -> list[str | None]:
    return [w.value for w in option_values([literal_word(w) for w in words], "--reporter")]


def test_option_values_reads_every_spelling_and_both_readings_of_an_option_word_as_value() -> None:
    assert _values("--reporter", "json", "--reporter=plain", "src") == ["json", "plain"]
    assert _values("--rep=csv") == ["csv"]  # a unique prefix, as getopt_long reads it
    assert _values("--reporter") == []
    assert _values("--reporter=json", "--", "--reporter=csv") == ["json"]  # after --, file names
    # an option word as the value: getopt takes it, picocli sees the option again; both count
    assert _values("--reporter", "--reporter", "csv") == ["--reporter", "csv"]
    assert _values("--reporter", "--", "--reporter=csv") == ["--", "csv"]


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("ktlint --reporter=json --relative", RO),
        ("ktlint --reporter json src/**/*.kt", RO),
        ("ktlint --reporter", RO),
        ("ktlint --reporter=json -- --reporter=csv,artifact=/tmp/r.jar", RO),  # after --, a file pattern
        ("ktlint --reporter=checkstyle,output=build/ktlint.xml", WW),
        ("cppcheck --project=build/compile_commands.json", RO),
        ("cppcheck --project=app.sln src", RO),
        ("cppcheck --project-configuration=Release --project=app.sln", RO),
    ],
)
def test_a_plain_reporter_or_project_keeps_its_grade(workspace: Path, command: str, level: RiskLevel) -> None:
    assert graded(command, workspace)[0] is level


@pytest.mark.parametrize(
    "command",
    [
        "ktlint --reporter=csv,artifact=/tmp/r.jar",
        "ktlint --reporter csv,artifact=lib/r.jar",
        "ktlint --rep=csv,artifact=/tmp/r.jar",  # read as the option: only grades higher
        "ktlint --reporter --reporter csv,artifact=/tmp/r.jar",
        "ktlint --reporter -- --reporter=csv,artifact=/tmp/r.jar",
        'ktlint --reporter "$R"',
        "cppcheck --project=x.cppcheck",
        "cppcheck --project x.cppcheck",
        "cppcheck --project --project x.cppcheck",
        "cppcheck --project -- --project=x.cppcheck",
        'cppcheck --project "$P"',
    ],
)
def test_a_reporter_jar_or_cppcheck_project_in_any_spelling_runs_code(workspace: Path, command: str) -> None:
    risk, details = graded(command, workspace)
    assert risk is DES and any("JAR" in d or "addons" in d for d in details), details


# -- LISTING | while read VAR; do READER "$VAR"; done: $VAR may be a name the listing prints ---------------------------
@pytest.mark.parametrize(
    "command",
    [
        'ls -a | while read f; do cat "$f"; done',
        'ls -a | while read -r f; do cat "$f"; done',
        'ls -A | while IFS= read -r f || [ -n "$f" ]; do cat "$f"; done',
        'ls -a | while read; do cat "$REPLY"; done',
        'ls -a | while read -r a b; do cat "$b"; done',
        'ls -A | until ! read f; do cat "$f"; done',
        'find . -type f | while read -r f; do head "$f"; done',
        'fd -H | while read f; do cat "$f"; done',
        'ls -a | while read f; do cat "$f"; done > listing.txt',
        'ls -a | grep env | while read f; do cat "$f"; done',
    ],
)
def test_a_read_loop_fed_a_listing_of_hidden_files_reads_the_env_file(workspace: Path, command: str) -> None:
    risk, details = graded(command, workspace)
    assert risk is NET and any("listing" in d for d in details), details


@pytest.mark.parametrize(
    "command",
    [
        'ls src | while read f; do cat "src/$f"; done',
        'ls | while read f; do cat "$f"; done',
        'find . -name "*.py" | while read f; do cat "$f"; done',
        'ls -a | grep -v "^\\." | while read f; do cat "$f"; done',
        'ls -a | while read f; do echo "$f"; done',
        'ls -a | while read f; do wc -l "$f"; done',
        'ls -a | while read f; do test -f "$f" && echo "$f"; done',
        'git ls-files | while read f; do cat "$f"; done',  # the index tracks no secret file
    ],
)
def test_a_read_loop_fed_names_that_hide_dotfiles_or_printing_names_only_keeps_its_grade(
    workspace: Path, command: str
) -> None:
    assert graded(command, workspace)[0] is RO


def test_a_read_loop_fed_the_tracked_files_reads_a_tracked_secret(workspace: Path) -> None:
    command = 'git ls-files | while read f; do cat "$f"; done'
    subprocess.run(["git", "init", "-q"], cwd=workspace, check=True)
    subprocess.run(["git", "add", "src/a.py"], cwd=workspace, check=True)
    assert graded(command, workspace)[0] is RO
    subprocess.run(["git", "add", "-f", ".env"], cwd=workspace, check=True)
    assert graded(command, workspace)[0] is NET


# -- GNU parallel's value-taking options before the command: the command after them is still the reader -------------
@pytest.mark.parametrize(
    "command",
    [
        "ls -a | parallel -j 4 cat",
        "ls -a | parallel --jobs 4 cat",
        "ls -a | parallel --jobs=4 cat",
        "ls -a | parallel -n 1 -j 2 cat",
        "ls -a | parallel --halt now,fail=1 cat",
        "ls -a | parallel --colsep , cat",
        "ls -a | parallel -k --bar -X -q cat",
        "ls -A | parallel --timeout 10 --retries 2 head -n 5",
        "find . -type f | parallel -j 8 cat",
    ],
)
def test_parallel_options_before_the_command_do_not_hide_a_secret_read(workspace: Path, command: str) -> None:
    risk, details = graded(command, workspace)
    assert risk is NET and any("parallel" in d and "prints the files" in d for d in details), details


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("ls | parallel -j 4 cat", RO),
        ("ls src | parallel --jobs 4 cat", RO),
        ("ls -a | parallel -j 4 wc -l", RO),
        ("find . -name '*.py' | parallel -j 4 cat", RO),
        ("parallel -j 4 gzip ::: src/a.py", WW),
        ("parallel -j 4 rm ::: a b", DES),
        ("ls -a | parallel --foo 4 cat", DES),  # an option parallel(1) does not list: what it takes is unknown
        ("ls -a | parallel -S host -j 4 cat", DES),
        ('ls -a | parallel "$OPT" 4 cat', DES),
    ],
)
def test_parallel_with_options_keeps_its_grade_otherwise(workspace: Path, command: str, level: RiskLevel) -> None:
    assert graded(command, workspace)[0] is level
