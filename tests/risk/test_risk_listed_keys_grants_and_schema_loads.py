"""Grades a held-back corpus found too low: key files named by a listing under an inverted filter, the AWS CLI's
config file, credential files of unlisted tools judged by their names, cluster-admin bindings, Rails schema loads,
isolated Python builds and Hex's registry queries. Each case checks one side; its neighbours check the other. The
workspace is a real directory."""

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
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("print('hi')\n")
    return root


def grade(command: str, workspace: Path, contained: bool = False) -> RiskLevel:
    return classify(command, contained=contained, workspace=workspace, recipes=ProjectRecipes(workspace)).risk


def rules(command: str, workspace: Path, contained: bool = False) -> dict[str, str]:
    found = classify(command, contained=contained, workspace=workspace, recipes=ProjectRecipes(workspace)).reasons
    return {r.rule: r.detail for r in found}


# -- a listing of key files, filtered, names the files a reader then prints ------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "cat $(ls ~/.ssh/id_* | grep -v pub)",
        "cat `ls ~/.ssh/id_* | grep -v pub`",
        "ls ~/.ssh/id_* | grep -v pub | xargs cat",
        "head -n 50 $(ls ~/.ssh/id_* | grep -v '\\.pub$' | sort)",
        "cat $(ls ~/.aws/* | grep -v cli)",
    ],
)
def test_an_inverted_filter_over_a_listing_of_key_files_keeps_them_and_the_read_prints_them(
    command: str, workspace: Path
) -> None:
    assert grade(command, workspace) == NET
    assert grade(command, workspace, contained=True) == NET
    assert "secret-read" in rules(command, workspace)


@pytest.mark.parametrize(
    "command",
    ["cat $(ls | grep -v test)", "cat $(ls src/*.py | grep -v test)", "cat $(git ls-files | grep -v vendor)"],
)
def test_an_inverted_filter_over_a_listing_of_workspace_files_stays_a_read(command: str, workspace: Path) -> None:
    assert grade(command, workspace) == RO


# -- the AWS CLI's config file, and credential files of tools the list does not name ---------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "cat ~/.aws/config",
        "grep sso ~/.aws/config",
        "cat ~/.config/openai/credentials",
        "cat ~/.config/*/credentials",
        "cat ~/.foo/token",
        "head ~/.local/share/someapp/api-token.json",
        "cat /home/dev/.someapp/secrets.yaml",
        "less ~/.mytool/auth/Credentials",
        "cat ~/.config/tool/oauth.token",
    ],
)
def test_a_credential_file_named_so_below_a_hidden_home_directory_is_a_secret_read(
    command: str, workspace: Path
) -> None:
    assert grade(command, workspace) == NET
    assert grade(command, workspace, contained=True) == NET
    assert "secret-read" in rules(command, workspace)


@pytest.mark.parametrize(
    "command",
    [
        "cat ~/.cargo/registry/src/index/syn-2.0.0/src/token.rs",
        "cat ~/.cache/huggingface/hub/models--x/snapshots/1/tokenizer.json",
        "cat ~/.config/Code/User/settings.json",
        "cat ~/notes/token",
        "cat ~/.npm/_logs/secret-notes.md",
        "cat src/token.json",
        "cat ~/.aws/../README",
    ],
)
def test_source_code_caches_and_names_without_a_secret_word_stay_reads(command: str, workspace: Path) -> None:
    assert grade(command, workspace) == RO


def test_a_write_to_a_credential_file_named_so_is_a_protected_write(workspace: Path) -> None:
    assert grade("echo x > ~/.foo/token", workspace) == DES
    assert grade("echo x >> ~/.foo/notes.txt", workspace) == SYS


# -- RBAC: binding cluster-admin -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "kubectl create clusterrolebinding pwn --clusterrole=cluster-admin --serviceaccount=default:default",
        "kubectl create rolebinding x --clusterrole cluster-admin --user=bob -n prod",
        "kubectl -n prod create rolebinding x --clusterrole=$ROLE --user=bob",
    ],
)
@pytest.mark.parametrize("contained", [False, True])
def test_binding_cluster_admin_is_destructive_even_contained(command: str, contained: bool, workspace: Path) -> None:
    assert grade(command, workspace, contained) == DES
    assert "privilege-grant" in rules(command, workspace, contained)


@pytest.mark.parametrize(
    "command",
    [
        "kubectl create rolebinding x --clusterrole=view --user=bob",
        "kubectl create deployment web --image=nginx",
    ],
)
def test_other_bindings_and_creations_stay_remote_changes(command: str, workspace: Path) -> None:
    assert grade(command, workspace) == SYS


# -- Rails: loading the schema drops the tables ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    ["rails db:schema:load", "rails db:setup", "rails db:seed:replant", "rails db:migrate:reset", "rails db:reset"],
)
def test_rails_tasks_that_drop_or_empty_tables_are_destructive(command: str, workspace: Path) -> None:
    assert grade(command, workspace) == DES


@pytest.mark.parametrize("command", ["rails db:migrate", "rails db:prepare", "rails db:seed"])
def test_rails_tasks_that_keep_the_rows_are_remote_changes(command: str, workspace: Path) -> None:
    assert grade(command, workspace) == SYS


# -- isolated builds and registry queries ----------------------------------------------------------------------------
def test_an_isolated_python_build_downloads_its_backend(workspace: Path) -> None:
    assert grade("python -m build", workspace) == NET
    assert grade("pyproject-build --wheel", workspace) == NET
    assert grade("python -m build --no-isolation", workspace) == WW
    assert grade("python -m build -n --sdist", workspace) == WW
    assert grade("pyproject-build --version", workspace) == RO


def test_hex_outdated_asks_the_registry(workspace: Path) -> None:
    assert grade("mix hex.outdated", workspace) == NET
    assert grade("mix hex.info phoenix", workspace) == NET
    # without a package it prints when the registry was last updated, and Hex.start checks hex.pm for a newer Hex
    assert grade("mix hex.info", workspace) == NET
    # in a project, every mix task first evaluates mix.exs, the project's code: graded as a build
    assert grade("mix deps", workspace) == WW
