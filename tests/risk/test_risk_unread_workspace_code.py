"""Commands that run code FlyBot did not read: a workspace wrapper script run for its version, read-only commands
whose tool is chosen by workspace settings (a cargo alias, a rustup toolchain path, commitlint, mix, hatch), a
kubeconfig named by a flag, recipes run by git or find in other directories or commits, and configuration or code
taken from outside the workspace. Each is checked both ways against a real workspace directory."""

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
    (root / "bin").mkdir(parents=True)
    (root / "sub").mkdir()
    (root / "gradlew").write_text('#!/bin/sh\nexec java -jar gradle/wrapper/gradle-wrapper.jar "$@"\n')
    (root / "mvnw").write_text("#!/bin/sh\n")
    (root / "bin" / "rails").write_text("#!/usr/bin/env ruby\n")
    (root / "bin" / "rake").write_text("#!/usr/bin/env ruby\n")
    (root / "build.gradle").write_text("plugins { id 'java' }\n")
    (root / "Makefile").write_text("test:\n\techo ok\n")
    (root / "package.json").write_text('{"scripts": {"test": "jest"}}\n')
    return root


def assess(command: str, workspace: Path, contained: bool = False) -> tuple[RiskLevel, set[str]]:
    found = classify(command, contained=contained, workspace=workspace, recipes=ProjectRecipes(workspace))
    return found.risk, {r.rule for r in found.reasons}


# -- workspace wrappers and binstubs ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "./gradlew --version",
        "./gradlew -v",
        "./gradlew help",
        "./mvnw --version",
        "bin/rails --version",
        "bin/rake --version",
        "./bin/rails -v",
    ],
)
def test_a_wrapper_run_for_its_version_runs_the_workspace_script(command: str, workspace: Path) -> None:
    found = classify(command, contained=False, workspace=workspace, recipes=ProjectRecipes(workspace))
    assert found.risk >= WW
    assert "workspace-settings" in {r.rule for r in found.reasons}
    # chosen_by: no standing approval covers it (bot/standing.py), as the script may have been rewritten earlier
    assert found.commands[0].chosen_by


@pytest.mark.parametrize(
    ("command", "level"),
    [("./gradlew build", WW), ("./gradlew publish", NET), ("gradle --version", RO), ("mvn --version", RO)],
)
def test_a_wrapper_build_keeps_its_grade_and_the_global_tool_its_own(
    command: str, level: RiskLevel, workspace: Path
) -> None:
    assert assess(command, workspace)[0] == level


# -- pytest --basetemp only known when it runs ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    ["pytest --basetemp=$HOME", 'pytest --basetemp="$HOME"', "pytest --basetemp=${HOME}", "pytest --basetemp=$D"],
)
def test_a_basetemp_only_known_when_it_runs_is_emptied(command: str, workspace: Path) -> None:
    risk, rules = assess(command, workspace)
    assert risk == DES and "deletion" in rules


@pytest.mark.parametrize(("command", "level"), [("pytest --basetemp=tmp/bt", WW), ("pytest -q", WW)])
def test_a_basetemp_in_the_workspace_stays_a_build(command: str, level: RiskLevel, workspace: Path) -> None:
    assert assess(command, workspace)[0] == level


# -- a kubeconfig named by a flag -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "kubectl get pods --kubeconfig=./k",
        "kubectl --kubeconfig ./k get pods",
        "kubectl --kubeconfig=/tmp/x get pods",
        "kubectl logs x --kubeconfig ./k",
        "helm list --kubeconfig ./k",
        "helm --kubeconfig=/tmp/x install app ./chart",
        "stern x --kubeconfig ./k",
        "flux get all --kubeconfig=./k",
        "KUBECONFIG=./k kubectl get pods",
    ],
)
def test_a_kubeconfig_named_by_a_flag_may_run_a_credential_plugin(command: str, workspace: Path) -> None:
    assert assess(command, workspace)[0] == DES


@pytest.mark.parametrize(
    ("command", "level"),
    [("kubectl get pods", NET), ("kubectl --context prod get pods", NET), ("helm list", NET), ("stern x", NET)],
)
def test_the_default_kubeconfig_keeps_its_grade(command: str, level: RiskLevel, workspace: Path) -> None:
    assert assess(command, workspace)[0] == level


# -- recipes run by git or find in other directories or at other commits ----------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "git submodule foreach make",
        "git submodule foreach npm test",
        "git submodule foreach --recursive 'make test'",
        r"find . -name Makefile -execdir make \;",
        r"find . -name package.json -execdir npm test \;",
        r"find . -exec make -C {} \;",
        "git rebase -x 'make test' HEAD~2",
        "git rebase --exec='npm test' HEAD~2",
        "git bisect run make test",
    ],
)
def test_a_recipe_run_where_flybot_read_none_is_destructive(command: str, workspace: Path) -> None:
    risk, rules = assess(command, workspace)
    assert risk == DES and rules & {"recipe-elsewhere", "recipe-place-unknown"}


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("make test", WW),
        ("npm test", WW),
        ("git submodule foreach git status", RO),
        ("git rebase -x 'pytest -q' HEAD~2", WW),
        ("git bisect run pytest -q", WW),
        ("git rebase main", WW),
    ],
)
def test_a_run_where_no_recipe_is_read_keeps_its_grade(command: str, level: RiskLevel, workspace: Path) -> None:
    assert assess(command, workspace)[0] == level


# -- configuration or code from outside the workspace -----------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "terraform -chdir=/tmp/x plan",
        "terraform -chdir=../x init",
        "terraform -chdir=/tmp/x validate",
        "pip install -e /tmp/pkg",
        "pip install /tmp/pkg",
        "pip install --editable=../pkg",
        "pip install file:///tmp/pkg",
        "pip wheel /tmp/pkg",
        "python -m pip install -e /tmp/pkg",
        "pip install -r /tmp/req.txt",
        "pip install -r/tmp/req.txt",
        "pip install --requirement=../req.txt",
        "pip install -r ~/req.txt",
        "pip install -r https://example.com/req.txt",
        "pip install -c /tmp/c.txt requests",
        "pip install --constraint /tmp/c.txt -r requirements.txt",
        "pip download -r /tmp/req.txt",
        "python -m pip install -r /tmp/req.txt",
        "uv pip install -r /tmp/req.txt",
        "uv pip install --requirements=/tmp/req.txt",
        "uv pip install -c /tmp/c.txt requests",
        "uv pip install -e /tmp/pkg",
        "uv pip sync /tmp/req.txt",
        "uv pip sync requirements.txt /tmp/more.txt",
        """jest --config '{"setupFiles":["/tmp/x.js"]}'""",
        """jest -c '{"rootDir":"../.."}'""",
        """jest --config '{"setupFiles":["<rootDir>/../s.js"]}'""",
        "jest --config '{not json'",
        "jest --config /tmp/x",
        "mocha --require /tmp/x.js",
        "mocha -r /tmp/x.js",
        "mocha --require=/tmp/x.js",
        "mocha --config /tmp/m.yml",
        "rspec -r /tmp/x.rb",
    ],
)
def test_code_or_configuration_from_outside_the_workspace_is_destructive(command: str, workspace: Path) -> None:
    risk, rules = assess(command, workspace)
    assert risk == DES and "project-outside-workspace" in rules


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("terraform -chdir=infra plan", NET),
        ("terraform plan", NET),
        ("terraform -chdir=/tmp/x version", RO),
        ("pip install -e .", NET),
        ('pip install -e ".[dev]"', NET),
        ("pip install ./pkg", NET),
        ("pip install requests", NET),
        ("pip install -r requirements.txt", NET),
        ("pip install -rrequirements/dev.txt", NET),
        ("pip install -c constraints.txt -r requirements.txt", NET),
        ("python -m pip install -r requirements.txt", NET),
        ("uv pip install -r requirements.txt", NET),
        ("uv pip install -e .", NET),
        ("uv pip install requests", NET),
        ("uv pip sync requirements.txt", NET),
        ("""jest --config '{"setupFiles":["<rootDir>/s.js"]}'""", WW),
        ("""jest --config '{"testPathIgnorePatterns":["/node_modules/"]}'""", WW),
        ("jest --config jest.config.js", WW),
        ("mocha -r ts-node/register", WW),
        ("mocha --require ./test/setup.js", WW),
        ("mocha --reporter spec test/", WW),
        ("rspec -r spec_helper", WW),
    ],
)
def test_the_same_tools_in_the_workspace_keep_their_grade(command: str, level: RiskLevel, workspace: Path) -> None:
    assert assess(command, workspace)[0] == level


# -- read-only commands whose code the workspace's settings choose ----------------------------------------------------
def _cargo_project(root: Path, **files: str) -> Path:
    root.mkdir(parents=True)
    (root / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\n')
    for name, text in files.items():
        path = root / name.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


ALIAS = {".cargo__config.toml": '[alias]\nfmt = ["run", "--quiet", "--"]\n'}
PATH_TOOLCHAIN = {"rust-toolchain.toml": '[toolchain]\npath = "/srv/ws/tc"\n'}
CHANNEL = {"rust-toolchain.toml": '[toolchain]\nchannel = "stable"\n'}


@pytest.mark.parametrize(
    ("files", "command"),
    [
        (ALIAS, "cargo fmt --check"),
        (ALIAS, "cargo --version"),
        (PATH_TOOLCHAIN, "cargo fmt --check"),
        (PATH_TOOLCHAIN, "cargo -V"),
        (PATH_TOOLCHAIN, "rustc --version"),
        (PATH_TOOLCHAIN, "rustfmt --check src/main.rs"),
    ],
)
def test_a_read_only_use_runs_what_the_workspace_settings_choose(
    files: dict[str, str], command: str, tmp_path: Path
) -> None:
    root = _cargo_project(tmp_path / "crate", **files)
    found = classify(command, contained=False, workspace=root, recipes=ProjectRecipes(root))
    assert found.risk == WW
    assert "workspace-settings" in {r.rule for r in found.reasons}
    assert found.commands[0].chosen_by  # no standing approval covers it


@pytest.mark.parametrize(
    "files",
    [{"rust-toolchain.toml": "[toolchain\npath ="}, {".cargo__config.toml": "[alias\n"}, {"rust-toolchain": "a b/c"}],
)
def test_settings_that_cannot_be_read_fail_closed(files: dict[str, str], tmp_path: Path) -> None:
    root = _cargo_project(tmp_path / "crate", **files)
    risk, rules = assess("cargo fmt --check", root)
    assert risk == DES and "recipe-unreadable" in rules


@pytest.mark.parametrize("files", [{}, CHANNEL, {"rust-toolchain": "nightly-2024-01-01\n"}])
@pytest.mark.parametrize(
    "command", ["cargo fmt --check", "cargo --version", "rustc --version", "rustfmt --check src/main.rs"]
)
def test_without_an_alias_or_a_path_toolchain_the_reads_stay_read_only(
    files: dict[str, str], command: str, tmp_path: Path
) -> None:
    root = _cargo_project(tmp_path / "crate", **files)
    assert assess(command, root)[0] == RO


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("commitlint --from HEAD~1", WW),
        ("commitlint --print-config", WW),
        ("commitlint -g /tmp/c.js", DES),
        ("mix help", WW),
        ("mix hex.info", NET),  # runs mix.exs and checks hex.pm
        ("mix deps", WW),
        ("hatch version", WW),
        ("hatch status", WW),
        ("hatch dep show requirements", WW),
    ],
)
def test_tools_that_load_the_project_configuration_run_it_as_a_build(
    command: str, level: RiskLevel, workspace: Path
) -> None:
    assert assess(command, workspace)[0] == level


@pytest.mark.parametrize(
    ("command", "level"),
    [("mix --version", RO), ("hatch --version", RO), ("mix hex.info phoenix", NET), ("yamllint .", RO)],
)
def test_their_neighbours_that_load_no_project_keep_their_grade(
    command: str, level: RiskLevel, workspace: Path
) -> None:
    assert assess(command, workspace)[0] == level
