"""Recipes rewritten in the same command, and dependency specs that lead out of the workspace.

A command that writes a tool's recipe (package.json, Makefile, justfile, tox.ini...) and runs that tool runs a recipe
FlyBot did not read: ``npm pkg set``/``npm set-script``/``pnpm pkg set`` write package.json (npm-pkg(1)), ``yarn
config set`` the project's .yarnrc.yml and ``npm config set --location=project`` its .npmrc, and a write
that comes after the tool in the text may land while it still runs (``&``, a pipeline, a loop). An install reads
``overrides``, ``resolutions``, ``pnpm.overrides`` and ``peerDependencies`` as it reads ``dependencies``
(package.json(5)): a local package outside the workspace there is as unreadable as in ``dependencies``. Each case in
both directions, read by the adapter's reader and by the server from what the adapter sent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import GivenRecipes, ProjectRecipes

WW, NET, SYS, DES = RiskLevel.WORKSPACE_WRITE, RiskLevel.NETWORK, RiskLevel.SYSTEM, RiskLevel.DESTRUCTIVE


def graded(command: str, root: Path) -> tuple[RiskLevel, list[str]]:
    """The grade and rules on the adapter's side; the server, given what the adapter read, must grade the same."""
    read = classify(command, contained=False, workspace=root, recipes=ProjectRecipes(root))
    given = classify(command, contained=False, workspace=root, recipes=GivenRecipes(read.recipes))
    assert given.risk is read.risk, (read.reasons, given.reasons)
    return read.risk, [r.rule for r in read.reasons]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with a Makefile, a justfile, a tox.ini and a package.json whose scripts only test."""
    (tmp_path / "Makefile").write_text("test:\n\tpytest -q\n")
    (tmp_path / "justfile").write_text("test:\n    pytest -q\n")
    (tmp_path / "tox.ini").write_text("[tox]\nenv_list = py\n[testenv]\ncommands = pytest -q\n")
    (tmp_path / "package.json").write_text(json.dumps({"name": "x", "version": "1.0.0", "scripts": {"test": "jest"}}))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "package.json").write_text(json.dumps({"name": "y", "scripts": {"test": "jest"}}))
    return tmp_path.resolve()


# -- package.json written by the package manager before a script of it runs ------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "npm pkg set scripts.pretest='rm -rf ~'; npm test",
        "npm pkg set scripts.test=evil && npm run test",
        "npm pkg delete scripts.pretest && npm test",
        "npm pkg fix && npm test",
        "npm set-script test 'rm -rf ~' && npm test",
        "pnpm pkg set scripts.test=evil && pnpm test",
        "pnpm pkg delete scripts.pretest && pnpm run test",
        "npm pkg set scripts.test=evil && yarn test",
        "npm pkg set scripts.postinstall=evil && npm install",
        "npm --prefix sub pkg set scripts.test=evil && npm --prefix sub test",
        "cd sub && npm pkg set scripts.test=evil && npm test",
        "yarn config set enableScripts true && yarn test",  # yarn berry: the project's .yarnrc.yml
        "npm config set --location=project foo=bar && npm test",
        "npm config set --location project foo=bar && npm test",
        "taplo fmt pyproject.toml && make test",  # taplo format rewrites the TOML files given
    ],
)
def test_the_package_manager_rewriting_package_json_before_a_script_runs_is_destructive(
    project: Path, command: str
) -> None:
    risk, rules = graded(command, project)
    assert risk is DES and "recipe-rewritten" in rules, rules


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("npm pkg set scripts.test=x", WW),
        ("npm pkg delete scripts.test", WW),
        ("npm set-script test jest", WW),
        ("pnpm pkg set version=2.0.0", WW),
        ("npm pkg get scripts && npm test", WW),
        ("npm --prefix sub pkg set scripts.test=x && npm test", WW),
        ("npm install && npm test", NET),
        ("yarn config set -H enableScripts true && yarn test", SYS),
        ("npm config set foo=bar && npm test", SYS),
        ("taplo fmt --check pyproject.toml && make test", WW),
        ("taplo fmt pyproject.toml", WW),
        ("taplo lint pyproject.toml && make test", WW),
    ],
)
def test_package_json_edits_without_a_later_script_or_elsewhere_keep_their_grade(
    project: Path, command: str, grade: RiskLevel
) -> None:
    assert graded(command, project)[0] is grade


# -- a recipe written after the tool starts (in the background, a pipeline, a loop) ----------------------------
@pytest.mark.parametrize(
    "command",
    [
        'npm test & sleep 0.1; echo \'{"scripts":{"test":"evil"}}\' > package.json',
        "make test & echo 'test:; evil' > Makefile",
        "make test | tee Makefile",
        "just test & cp /tmp/j justfile",
        "tox & sleep 1; echo x > tox.ini",
        "(make test) & sed -i s/pytest/evil/ Makefile",
        "{ npm test; } & npm pkg set scripts.test=evil",
        "while true; do make test; echo 'test:; evil' > Makefile; done",
        "npm test; echo x > .npmrc",
        "make test && cp other.mk Makefile",
    ],
)
def test_a_recipe_written_after_its_tool_starts_is_destructive(project: Path, command: str) -> None:
    risk, rules = graded(command, project)
    assert risk is DES and "recipe-rewritten" in rules, rules


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("make test > test.log", WW),
        ("npm test && echo done > out.txt", WW),
        ("make test && git add -A", WW),
        ("make test && git commit -qam wip", WW),
        ("npm test & echo x > sub/package.json", WW),  # not the package npm test reads
        ("make test; mkdir -p build && touch build/Makefile.txt", WW),
    ],
)
def test_writes_after_a_recipe_that_cannot_change_it_keep_the_grade(
    project: Path, command: str, grade: RiskLevel
) -> None:
    assert graded(command, project)[0] is grade


@pytest.mark.parametrize(
    "command",
    [
        "make test & git switch other",
        "npm test & git merge feature",
        "make test | git stash pop",
        "{ npm test; } & sleep 1; git checkout-index -a -f",
        "cat <(make test); git switch other",
        "while true; do npm test; git stash pop; done",
        "npm test & tar -xf x.tar",
    ],
)
def test_a_tree_written_while_a_recipe_may_still_run_is_destructive(project: Path, command: str) -> None:
    risk, rules = graded(command, project)
    assert risk is DES and "recipe-rewritten" in rules, rules


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("make test && git switch other", WW),
        ("make test & git commit -qam wip", WW),
        ("npm run build && git stash pop", WW),
        ("npm run dev & sleep 5; curl -s localhost:3000", NET),
    ],
)
def test_a_tree_written_after_a_recipe_finished_keeps_the_grade(project: Path, command: str, grade: RiskLevel) -> None:
    assert graded(command, project)[0] is grade


def test_a_recipe_s_own_lines_writing_a_makefile_fragment_do_not_count_as_rewriting_it(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("test:\n\techo X=1 > config.mk\n")
    assert graded("make test", tmp_path.resolve())[0] is WW


# -- dependency specs in overrides, resolutions, pnpm.overrides and peerDependencies ---------------------------
@pytest.mark.parametrize(
    "fields",
    [
        {"overrides": {"lodash": "file:/tmp/evilpkg"}},
        {"overrides": {"x": {"lodash": "file:/tmp/evilpkg"}}},
        {"overrides": {"x": {".": "1.0.0", "y": {"lodash": "link:~/evil"}}}},
        {"overrides": {"lodash": "file:../../outside"}},
        {"resolutions": {"**/lodash": "portal:/tmp/evilpkg"}},
        {"resolutions": {"lodash": "git+file:///tmp/repo"}},
        {"pnpm": {"overrides": {"lodash": "link:/tmp/evilpkg"}}},
        {"peerDependencies": {"lodash": "file:/tmp/evilpkg"}},
        {"pnpm": {"packageExtensions": {"react-redux@1": {"dependencies": {"x": "link:/tmp/evilpkg"}}}}},
        {"pnpm": {"packageExtensions": {"react-redux@1": "x"}}},
        {"dependencies": {"lodash": "file:~/evil"}},
        {"dependencies": {"lodash": "exec:./gen.js"}},
        {"overrides": ["lodash"]},
        {"overrides": {"lodash": 4}},
        {"pnpm": "overrides"},
    ],
)
@pytest.mark.parametrize("command", ["npm install", "npm ci", "pnpm install", "yarn install"])
def test_an_override_or_peer_outside_the_workspace_makes_the_install_unreadable(
    tmp_path: Path, fields: dict[str, object], command: str
) -> None:
    (tmp_path / "package.json").write_text(json.dumps({"name": "a", "version": "1.0.0", **fields}))
    risk, rules = graded(command, tmp_path.resolve())
    assert risk is DES and "recipe-unreadable" in rules, rules


def test_a_pnpm_workspace_override_outside_the_workspace_makes_the_install_unreadable(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"name": "a"}')
    (tmp_path / "pnpm-workspace.yaml").write_text("packages: []\noverrides:\n  lodash: link:/tmp/evilpkg\n")
    assert "recipe-unreadable" in graded("pnpm install", tmp_path.resolve())[1]
    (tmp_path / "pnpm-workspace.yaml").write_text(
        "packageExtensions:\n  a@1:\n    peerDependencies:\n      lodash: file:/tmp/evilpkg\n"
    )
    assert "recipe-unreadable" in graded("pnpm install", tmp_path.resolve())[1]


def test_an_override_to_a_local_package_in_the_workspace_reads_its_scripts(tmp_path: Path) -> None:
    (tmp_path / "vendor" / "x").mkdir(parents=True)
    (tmp_path / "vendor" / "x" / "package.json").write_text(json.dumps({"scripts": {"install": "rm -rf ~"}}))
    (tmp_path / "package.json").write_text(json.dumps({"name": "a", "overrides": {"x": "file:./vendor/x"}}))
    risk, rules = graded("npm install", tmp_path.resolve())
    assert risk is DES and "recipe-line" in rules, rules


@pytest.mark.parametrize(
    "fields",
    [
        {"overrides": {"lodash": "4.17.21", "x": {".": "1.0.0", "y": "$lodash"}}},
        {"resolutions": {"**/lodash": "^4.17.21"}},
        {"pnpm": {"overrides": {"lodash@<4": "^4"}}},
        {"peerDependencies": {"react": ">=17"}, "peerDependenciesMeta": {"react": {"optional": True}}},
        {"dependencies": {"g": "github:a/b", "t": "https://example.com/t.tgz"}},
        {"pnpm": {"packageExtensions": {"a@1": {"dependencies": {"lodash": "^4"}}, "b": {"peerDependenciesMeta": {}}}}},
    ],
)
def test_overrides_and_peers_from_the_registry_keep_the_install_grade(
    tmp_path: Path, fields: dict[str, object]
) -> None:
    (tmp_path / "package.json").write_text(json.dumps({"name": "a", "version": "1.0.0", **fields}))
    assert graded("npm install", tmp_path.resolve()) == (NET, ["package-install", "write-in-workspace"])
