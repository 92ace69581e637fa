"""Uses that were graded higher than they are: check-only tools, syntax checks, ssh options after the destination,
forge writes, partition listings, brace expansions of workspace paths, schedulers in the sandbox. Each is paired
with the neighbour that must keep its high grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

R = RiskLevel
WORKSPACE = Path("/home/dev/project")


def grade(command: str, *, contained: bool = False) -> RiskLevel:
    return classify(command, contained=contained, workspace=WORKSPACE).risk


@pytest.mark.parametrize(
    "command",
    [
        "crontab -e",
        "crontab jobs.cron",
        "(crontab -l; echo '0 * * * * make test') | crontab -",
        "at now -f job.sh",
    ],
)
def test_schedulers_are_contained_safe_and_destructive_on_the_host(command: str) -> None:
    assert grade(command, contained=True) == R.WORKSPACE_WRITE
    assert grade(command) == R.DESTRUCTIVE


def test_a_visible_job_that_deletes_stays_destructive_contained() -> None:
    assert grade("echo '0 * * * * rm -rf ~/project' | crontab -", contained=True) == R.DESTRUCTIVE


@pytest.mark.parametrize(
    "command",
    [
        "black --check .",
        "black --diff src",
        "gofmt -l .",
        "gofmt -d main.go",
        "cargo fmt --check",
        "isort --check-only .",
        "rustfmt --check src/main.rs",
    ],
)
def test_check_only_tools_only_read(command: str) -> None:
    assert grade(command) == R.READ_ONLY


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("black .", R.WORKSPACE_WRITE),
        ("gofmt -w main.go", R.WORKSPACE_WRITE),
        ("cargo fmt", R.WORKSPACE_WRITE),
        ("flake8 --output-file /etc/report", R.DESTRUCTIVE),
        ("gofmt -lw /etc/x.go", R.DESTRUCTIVE),  # -w in a cluster still rewrites the file
        ("prettier --check .", R.WORKSPACE_WRITE),  # prettier.config.js is code it runs
    ],
)
def test_the_writing_forms_of_those_tools_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) == level


@pytest.mark.parametrize(
    "command",
    [
        "ruby -c app.rb",
        "ruby -wc app.rb",
        "php -l index.php",
        "bash -n deploy.sh",
        "sh -n install.sh",
        "bash -n -c 'rm -rf /'",
    ],
)
def test_syntax_checks_only_read(command: str) -> None:
    assert grade(command) == R.READ_ONLY


@pytest.mark.parametrize(
    "command",
    [
        "perl -c app.pl",  # perlrun(1): -c still runs BEGIN/CHECK blocks and use statements
        "ruby -c -r./evil app.rb",
        "php -l -d auto_prepend_file=x.php index.php",
        "bash -ni deploy.sh",
        "bash -n",
        "bash deploy.sh",
        "ruby app.rb",
    ],
)
def test_checks_that_may_run_code_and_plain_runs_stay_destructive(command: str) -> None:
    assert grade(command) == R.DESTRUCTIVE


@pytest.mark.parametrize(
    "command", ["ssh host -D 1080", "ssh host -p 2222", "ssh host -N -L 8080:localhost:80", "ssh host -p 2222 ls -la"]
)
def test_ssh_options_after_the_destination_are_options(command: str) -> None:
    assert grade(command) == R.NETWORK


@pytest.mark.parametrize(
    "command", ["ssh host -o ProxyCommand=evil", "ssh host -p 22 rm -rf /srv", "ssh host -- rm -rf x", "ssh host $OPT"]
)
def test_ssh_options_after_the_destination_are_still_checked(command: str) -> None:
    assert grade(command) == R.DESTRUCTIVE


@pytest.mark.parametrize(
    "command",
    [
        "gh pr create --fill",
        "gh issue comment 12 --body hi",
        "gh pr merge 12 --squash",
        "gh release create v1.0",
        "glab mr create --fill",
    ],
)
def test_forge_writes_that_delete_nothing_are_network(command: str) -> None:
    assert grade(command) == R.NETWORK


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("gh pr merge 12 --delete-branch", R.DESTRUCTIVE),
        ("gh issue delete 12", R.DESTRUCTIVE),
        ("gh release upload v1 a.zip --clobber", R.DESTRUCTIVE),
        ("gh secret set TOKEN", R.SYSTEM),
        ("gh repo edit --visibility private", R.SYSTEM),
        ("gh repo edit --visibility public", R.DESTRUCTIVE),  # publishes the whole repository for good
    ],
)
def test_forge_deletions_and_settings_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) == level


@pytest.mark.parametrize(
    "command",
    [
        "fdisk -l",
        "fdisk -l /dev/sda",
        "sfdisk -d /dev/sda",
        "parted -l",
        "parted /dev/sda print",
        "parted -s /dev/sda unit s print",
    ],
)
def test_partition_listings_only_read(command: str) -> None:
    assert grade(command) == R.READ_ONLY


@pytest.mark.parametrize(
    "command",
    ["fdisk /dev/sda", "sfdisk -Al /dev/sda", "parted /dev/sda mklabel gpt", "parted -l /dev/sda rm 1", "fdisk $DISK"],
)
def test_partitioning_stays_destructive(command: str) -> None:
    assert grade(command) == R.DESTRUCTIVE


@pytest.mark.parametrize("command", ["mkdir -p src/{api,models}", "touch src/{a,b}.py", "mkdir -p src/{a,b/{c,d}}"])
def test_a_brace_expansion_of_workspace_paths_is_a_workspace_write(command: str) -> None:
    assert grade(command) == R.WORKSPACE_WRITE


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("mkdir -p /etc/{a,b}", R.DESTRUCTIVE),
        ("mkdir -p src/{a,../../x}", R.SYSTEM),
        ("mkdir -p {,/etc/}x", R.DESTRUCTIVE),
        ("mkdir {$X,b}", R.SYSTEM),
        ("mkdir ~/{a,b}", R.SYSTEM),
    ],
)
def test_a_brace_expansion_reaching_outside_keeps_its_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) == level
