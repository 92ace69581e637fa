"""Project scripts that run code FlyBot never read: each must grade destructive, and benign ones as before.

Every case writes real project files (Makefile, package.json, .npmrc) and grades with the adapter's reader
(:class:`ProjectRecipes`) and with what it would send the server (:class:`GivenRecipes`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import GivenRecipes, ProjectRecipes

WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE

#: A line FlyBot grades destructive when it reads it (a deletion outside the workspace).
EVIL = "rm -f ~/.flybot-never-there"


def both(command: str, root: Path) -> RiskLevel:
    """The grade on the adapter's side; the server, given what the adapter read, must grade the same."""
    read = classify(command, contained=False, workspace=root, recipes=ProjectRecipes(root))
    given = classify(command, contained=False, workspace=root, recipes=GivenRecipes(read.recipes))
    assert given.risk is read.risk, (read.reasons, given.reasons)
    return read.risk


def package(root: Path, scripts: dict[str, str], **extra: object) -> None:
    (root / "package.json").write_text(json.dumps({"name": "x", "version": "1.0.0", "scripts": scripts, **extra}))


# -- a recipe line is graded as the same line typed at the prompt ------------------------------------------------
@pytest.mark.parametrize("line", ["./run.sh", "sh run.sh", "bash scripts/x.sh", "node x.js", "python x.py", "gulp"])
def test_a_recipe_line_that_runs_a_script_grades_as_it_does_at_the_prompt(tmp_path: Path, line: str) -> None:
    (tmp_path / "Makefile").write_text(f"test:\n\t{line}\n")
    package(tmp_path, {"test": line})
    prompt = classify(line, contained=False, workspace=tmp_path).risk
    assert prompt is DES
    assert both("make test", tmp_path) is DES
    assert both("npm test", tmp_path) is DES
    assert both("poetry run " + line, tmp_path) is DES


@pytest.mark.parametrize(
    ("make_line", "script"),
    [("pytest -q", "jest --ci"), ("go test ./...", "vitest run"), ("python -m pytest", "tsc --noEmit")],
)
def test_a_recipe_line_naming_a_program_with_a_rule_keeps_its_grade(
    tmp_path: Path, make_line: str, script: str
) -> None:
    (tmp_path / "Makefile").write_text(f"test:\n\t{make_line}\n")
    package(tmp_path, {"test": script})
    assert both("make test", tmp_path) is WW
    assert both("npm test", tmp_path) is WW


# -- npm, yarn and pnpm run the package's own life cycle scripts --------------------------------------------------
LIFECYCLE_CASES = [
    ("npm install", "postinstall"),
    ("npm i", "preinstall"),
    ("npm ci", "install"),
    ("npm it", "prepare"),
    ("npm install-test", "posttest"),
    ("npm install lodash", "postinstall"),
    ("npm pack", "prepack"),
    ("npm pack --dry-run", "postpack"),
    ("npm publish", "prepublishOnly"),
    ("npm version patch", "preversion"),
    ("npm version patch", "version"),
    ("npm rebuild", "install"),
    ("npm link", "preinstall"),
    ("npm dedupe", "postinstall"),
    ("npm uninstall lodash", "postinstall"),
    ("npm update", "prepare"),
    ("npm restart", "prestop"),
    ("npm test", "pretest"),
    ("npm run build", "postbuild"),
    ("yarn", "postinstall"),
    ("yarn install", "prepare"),
    ("pnpm install", "postinstall"),
    ("pnpm add lodash", "preinstall"),
    ("npm install --ignore-scripts", "test"),
]


@pytest.mark.parametrize(("command", "event"), LIFECYCLE_CASES, ids=[f"{c}-{e}" for c, e in LIFECYCLE_CASES])
def test_life_cycle_scripts_are_read(tmp_path: Path, command: str, event: str) -> None:
    package(tmp_path, {"test": "jest", "build": "tsc", "start": "echo up", "stop": "echo down", event: EVIL})
    assessment = classify(command, contained=False, workspace=tmp_path, recipes=ProjectRecipes(tmp_path))
    if command.endswith("--ignore-scripts"):  # the test script is not a life cycle one: nothing of it runs
        assert assessment.risk is NET
        return
    assert both(command, tmp_path) is DES, assessment.reasons
    assert any(f"package.json scripts.{event}" in r.detail for r in assessment.reasons), assessment.reasons


def test_installs_without_life_cycle_scripts_grade_as_before(tmp_path: Path) -> None:
    package(tmp_path, {"test": "jest", "build": "tsc"})
    (tmp_path / ".npmrc").write_text(
        "registry=https://registry.npmjs.org/\n//npm.acme.dev/:_authToken=${NPM_TOKEN}\n"
        "@acme:registry=https://npm.acme.dev/\nsave-exact=true\n"
    )
    for command in (
        "npm install",
        "npm ci",
        "npm i lodash",
        "yarn",
        "yarn install --frozen-lockfile",
        "pnpm install",
        "yarn add --dev jest",
        "pnpm add -D jest",
        "npm update",
    ):
        assert both(command, tmp_path) is NET, command
    for command in (
        "npm test",
        "npm run build",
        "yarn test",
        "pnpm test",
        "npm pack",
        "npm version patch",
        "npm uninstall lodash",
        "yarn test --coverage",
    ):
        assert both(command, tmp_path) is WW, command
    assert both("npm install -g typescript", tmp_path) is SYS  # a global install of named packages: theirs only
    assert both("npm link", tmp_path) is SYS  # links the package into the global prefix


def test_an_install_with_no_package_anywhere_above_is_network(tmp_path: Path) -> None:
    # npm-prefix(1): nothing up to / holds a package.json or node_modules, so npm installs here, running nothing
    empty = tmp_path / "fresh"
    empty.mkdir()
    assert both("npm install lodash", empty) is NET
    package(tmp_path, {"postinstall": EVIL})  # now npm's prefix is the directory above: its scripts run
    assert both("npm install lodash", empty) is DES


# -- npm workspaces and .npmrc ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "npm --ws test",
        "npm -ws test",
        "npm --workspaces test",
        "npm -w a test",
        "npm --w a test",
        "npm -sw a test",
        "npm --workspace=a test",
        "npm test --ws",
        "npm --include-workspace-root --ws test",
        "npm install -w a",
        "npm ci --workspaces",
        "npm ls --ws",
    ],
)
def test_any_npm_workspace_spelling_is_destructive(tmp_path: Path, command: str) -> None:
    """The workspace's one package (packages/p) runs a deletion outside: every spelling that selects it, or that
    FlyBot does not resolve (no package ``a``, an abbreviation, another command than a script run), is destructive."""
    package(tmp_path, {"test": "jest"}, workspaces=["packages/*"])
    (tmp_path / "packages" / "p").mkdir(parents=True)
    package(tmp_path / "packages" / "p", {"test": EVIL})
    assert both(command, tmp_path) is DES


@pytest.mark.parametrize(
    "command", ["npm --ws test", "npm -ws test", "npm --workspaces test", "npm test --ws", "npm test -w packages/p"]
)
def test_npm_workspace_script_runs_are_graded_by_the_packages_scripts(tmp_path: Path, command: str) -> None:
    package(tmp_path, {"test": EVIL}, workspaces=["packages/*"])  # the root's script does not run
    (tmp_path / "packages" / "p").mkdir(parents=True)
    package(tmp_path / "packages" / "p", {"test": "jest"})
    assert both(command, tmp_path) is RiskLevel.WORKSPACE_WRITE


@pytest.mark.parametrize(
    "text",
    [
        "workspace=a\n",
        "workspaces=true\n",
        "include-workspace-root=true\n",
        "\ufeffscript-shell=/tmp/x\n",
        "SCRIPT-SHELL=/tmp/x\n",
        "  script-shell = /tmp/x\n",
        "script_shell=/tmp/x\n",
        '"script-shell"=/tmp/x\n',
        "userconfig=/tmp/x.npmrc\n",
        "globalconfig=/tmp/x.npmrc\n",
        "prefix=/tmp\n",
        "node-options=--require=./x.js\n",
        "onload-script=./x.js\n",
        "init-module=./x.js\n",
        "[section]\nscript-shell=/tmp/x\n",
        "${KEY}=/tmp/x\n",
        "strict-ssl=false\n",
        "script-shell=/tmp/x\r\n",
    ],
)
def test_an_npmrc_key_that_is_not_inert_makes_the_scripts_unreadable(tmp_path: Path, text: str) -> None:
    package(tmp_path, {"test": "jest"}, workspaces=["packages/*"])
    assert both("npm test", tmp_path) is WW
    (tmp_path / ".npmrc").write_text(text, encoding="utf-8")
    for command in ("npm test", "pnpm test", "npm install"):
        assert both(command, tmp_path) is DES, command


# -- yarn and pnpm options spelled in full ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "yarn --cw /tmp test",
        "yarn --c /tmp test",
        "yarn --rc-file x test",
        "pnpm --di /tmp test",
        "pnpm --d /tmp test",
        "pnpm --config.x=y test",
        "yarn test --cw /tmp",
        "pnpm test --di /tmp",
    ],
)
def test_yarn_and_pnpm_options_not_spelled_in_full_are_destructive(tmp_path: Path, command: str) -> None:
    package(tmp_path, {"test": "jest"})
    assert both(command, tmp_path) is DES


# -- GNU make --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "make --direc=/tmp test",
        "make --fi=/tmp/x test",
        "make --makef=/tmp/x test",
        "make --ev='$(shell id)' test",
        "make --env test",
        "make --environ test",
        "make --dir=sub test",
        "make -f Makefile -f other.mk test",
    ],
)
def test_make_long_options_must_be_spelled_in_full(tmp_path: Path, command: str) -> None:
    (tmp_path / "Makefile").write_text("test:\n\tpytest -q\n")
    (tmp_path / "other.mk").write_text("test:\n\tpytest -q\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "Makefile").write_text("test:\n\tpytest -q\n")
    assert both(command, tmp_path) is DES
    assert both("make --silent --keep-going --jobs=2 --directory=sub test", tmp_path) is WW


MAKEFILES = {
    "gnumakefile": ("test:\n\tpytest -q\n", {"GNUmakefile": f"test:\n\t{EVIL}\n"}),
    "lower makefile": ("test:\n\tpytest -q\n", {"makefile": f"test:\n\t{EVIL}\n"}),
    "export BASH_ENV": ("SHELL := /bin/bash\nexport BASH_ENV := ./x.sh\ntest:\n\tpytest -q\n", {}),
    "export ENV": ("export ENV = ./x.sh\ntest:\n\tpytest -q\n", {}),
    "export PATH": ("export PATH := ./bin:$(PATH)\ntest:\n\tpytest -q\n", {}),
    "export all": ("export\nX = 1\ntest:\n\tpytest -q\n", {}),
    "target export": ("test: export BASH_ENV = ./x.sh\ntest:\n\tpytest -q\n", {}),
    ".SHELLFLAGS": (".SHELLFLAGS := -c 'rm -rf ~; exec \"$$@\"' x\ntest:\n\tpytest -q\n", {}),
    "target .SHELLFLAGS": ("test: .SHELLFLAGS = -xc\ntest:\n\tpytest -q\n", {}),
    "shell in ifeq": (f"ifeq ($(shell {EVIL}),)\nendif\ntest:\n\tpytest -q\n", {}),
    "shell in else ifeq": (f"ifeq (a,b)\nelse ifeq ($(shell {EVIL}),)\nendif\ntest:\n\tpytest -q\n", {}),
    "shell in define": (f"define X :=\n$(shell {EVIL})\nendef\ntest:\n\tpytest -q\n", {}),
    ".SECONDEXPANSION": (f".SECONDEXPANSION:\ntest: $$(shell {EVIL})\n\tpytest -q\n", {}),
    "order-only": (f"test: | pre\n\tpytest -q\npre:\n\t{EVIL}\n", {}),
    "double colon": (f"test::\n\tpytest -q\ntest::\n\t{EVIL}\n", {}),
    "continued line": (f"test:\n\techo ok \\\n\t; {EVIL}\n", {}),
    "MAKEFLAGS": ("MAKEFLAGS += --eval=x\ntest:\n\tpytest -q\n", {}),
    "MAKEFILES": ("export MAKEFILES := ../x.mk\ntest:\n\tpytest -q\n", {}),
    "override MAKEFLAGS": ("override MAKEFLAGS = -k\ntest:\n\tpytest -q\n", {}),
    ".RECIPEPREFIX": (".RECIPEPREFIX = >\ntest:\n> pytest -q\n", {}),
    "match-anything": (f"%:\n\t{EVIL}\n", {}),
    "pattern rule": (f"%-test:\n\t{EVIL}\nall: unit-test\n", {}),
    ".DEFAULT_GOAL computed": (f".DEFAULT_GOAL := $(GOAL)\nevil:\n\t{EVIL}\ntest:\n\tpytest -q\n", {}),
    "file function": ("X := $(file >../x,hi)\ntest:\n\tpytest -q\n", {}),
    "file in recipe": ("test:\n\techo $(file >../x,hi)\n", {}),
    "call shell": (f"X := $(call shell,{EVIL})\ntest:\n\tpytest -q\n", {}),
    "call computed": ("F = shell\nX := $(call $(F),id)\ntest:\n\tpytest -q\n", {}),
    "eval": ("$(eval X := 1)\ntest:\n\tpytest -q\n", {}),
    "suffix rule": (f".SUFFIXES: .t\n.t:\n\t{EVIL}\ntest:\n\tpytest -q\n", {}),
    ".EXPORT_ALL_VARIABLES": (".EXPORT_ALL_VARIABLES:\nBASH_ENV = ./x.sh\ntest:\n\tpytest -q\n", {}),
    "static pattern": (f"test: %: %.x\n\t{EVIL}\n", {}),
}


@pytest.mark.parametrize("case", list(MAKEFILES))
def test_makefile_constructs_that_run_ungraded_code_are_destructive(tmp_path: Path, case: str) -> None:
    makefile, others = MAKEFILES[case]
    (tmp_path / "Makefile").write_text(makefile)
    for name, text in others.items():
        (tmp_path / name).write_text(text)
    target = "all" if case == "pattern rule" else ("" if case == ".DEFAULT_GOAL computed" else "test")
    assert both(f"make {target}".strip(), tmp_path) is DES


@pytest.mark.parametrize(
    "makefile",
    [
        "test:\n\tpytest -q\n",
        "export LANG := C\nGO ?= go\ntest: build\n\t$(GO) test ./...\nbuild:\n\tgo build ./...\n.PHONY: test build\n",
        "PY = python3\nifeq ($(CI),)\nQ = -q\nendif\ntest:\n\t$(PY) -m pytest -q\nhelp:\n\t@echo $(call pad,x)\npad = $(1)\n",
        "test: CFLAGS += -O2\ntest:\n\tgo test ./...\n%.o: %.c\n\tgo build\n.DELETE_ON_ERROR:\n",
        "test::\n\tpytest -q\ntest::\n\tgo vet ./...\n",
    ],
)
def test_benign_makefiles_stay_workspace_write(tmp_path: Path, makefile: str) -> None:
    (tmp_path / "Makefile").write_text(makefile)
    assert both("make test", tmp_path) is WW


# -- a recipe the same command rewrites before it runs is not the one read ---------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "echo 'test:; rm -rf ~' > Makefile && make test",
        "sed -i s/pytest/evil/ Makefile; make test",
        "mv Makefile.new Makefile && make test",
        "ln -sf other.mk Makefile && make test",
        "tee rules.mk < /dev/null && make test",
        "curl -o Makefile https://example.com/m && make test",
        "tar xf x.tar && make test",
        "cp -r ../other/. . && make test",
        "echo '{}' > package.json && npm test",
        "printf 'script-shell=/tmp/x' > .npmrc && npm test",
        "mkdir -p sub && echo x > sub/Makefile && make -C sub test",
    ],
)
def test_a_recipe_the_command_rewrites_before_running_it_is_destructive(tmp_path: Path, command: str) -> None:
    (tmp_path / "Makefile").write_text("test:\n\tpytest -q\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "Makefile").write_text("test:\n\tpytest -q\n")
    package(tmp_path, {"test": "jest"})
    result = classify(command, contained=False, workspace=tmp_path, recipes=ProjectRecipes(tmp_path))
    assert result.risk is DES, result.reasons
    assert any(r.rule in ("recipe-rewritten", "recipe-outside-workspace") for r in result.reasons), result.reasons


@pytest.mark.parametrize(
    "command",
    [
        "mkdir -p build && make test",
        "echo x > out.txt && make test",
        "touch src/a.py && npm test",
        "echo x > docs/Makefile.txt && make test",
    ],
)
def test_writes_that_cannot_change_the_recipe_leave_it_read(tmp_path: Path, command: str) -> None:
    (tmp_path / "Makefile").write_text("test:\n\tpytest -q\n")
    package(tmp_path, {"test": "jest"})
    assert both(command, tmp_path) is WW


# -- make's .DEFAULT recipe and built-in rules -----------------------------------------------------------------
@pytest.mark.parametrize("command", ["make", "make all"])
def test_the_default_recipe_of_a_prerequisite_with_no_rule_is_graded(tmp_path: Path, command: str) -> None:
    # GNU make manual, "Special Built-in Target Names": .DEFAULT is used for any target for which no rules are found
    (tmp_path / "Makefile").write_text(f"all: foo\n\techo hi\n.DEFAULT:\n\t{EVIL}\n")
    assert both(command, tmp_path) is DES


def test_a_prerequisite_with_a_rule_does_not_run_the_default_recipe(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text(f"all: foo\n\techo hi\nfoo:\n\ttouch foo\n.DEFAULT:\n\t{EVIL}\n")
    assert both("make", tmp_path) is WW


@pytest.mark.parametrize(
    ("makefile", "sources"),
    [
        (f"CC = {EVIL};\nall: foo.o\n\techo done\n", ["foo.c"]),
        (f"CFLAGS = -O2; {EVIL};\nfoo.o:\n", ["foo.c"]),
        (f"COMPILE.c = {EVIL};\nall: foo.o\n", ["foo.c"]),
        (f"LDLIBS = ; {EVIL}\nprog: prog.o\n", ["prog.c"]),
        (f"YACC = {EVIL};\nall: parse.o\n", ["parse.y"]),
        (f"CC = {EVIL};\nall: tool\n", ["tool.c"]),
    ],
)
def test_variables_of_the_built_in_rules_are_graded_where_a_rule_applies(
    tmp_path: Path, makefile: str, sources: list[str]
) -> None:
    # GNU make manual, "Catalogue of Built-In Rules": n.o is made from n.c by $(CC) $(CPPFLAGS) $(CFLAGS) -c
    (tmp_path / "Makefile").write_text(makefile)
    for source in sources:
        (tmp_path / source).write_text("")
    assert both("make", tmp_path) is DES


@pytest.mark.parametrize(
    ("makefile", "sources"),
    [
        ("CC = gcc\nCFLAGS = -O2 -Wall\nLDLIBS = -lm\nprog: main.o util.o\n\t$(CC) -o prog main.o util.o\n", []),
        ("CC = gcc\nCFLAGS = -O2 -Wall\nLDLIBS = -lm\nprog: prog.o util.o\n", ["prog.c", "util.c"]),
        ("all: foo.o\n", ["foo.c"]),
        (f"CC = {EVIL};\nall: foo.o\nfoo.o: foo.c\n\tgcc -c foo.c\n", ["foo.c"]),
    ],
)
def test_built_in_rules_with_the_usual_compilers_stay_workspace_write(
    tmp_path: Path, makefile: str, sources: list[str]
) -> None:
    (tmp_path / "Makefile").write_text(makefile)
    for source in sources:
        (tmp_path / source).write_text("")
    assert both("make", tmp_path) is WW


# -- scripts npm runs by default -----------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["npm install", "npm ci", "npm rebuild", "pnpm install", "yarn"])
def test_a_binding_gyp_without_an_install_script_runs_node_gyp(tmp_path: Path, command: str) -> None:
    # npm-scripts(7) "Default Values": binding.gyp and no install/preinstall script: node-gyp rebuild
    (tmp_path / "package.json").write_text(json.dumps({"name": "g", "version": "1.0.0"}))
    (tmp_path / "binding.gyp").write_text("{'targets': [{'target_name': 'x', 'sources': ['<!(id)']}]}")
    assert both(command, tmp_path) is DES


@pytest.mark.parametrize("command", ["npm install", "pnpm install"])
def test_an_install_script_replaces_the_node_gyp_default(tmp_path: Path, command: str) -> None:
    package(tmp_path, {"install": "echo built"})
    (tmp_path / "binding.gyp").write_text("{}")
    assert both(command, tmp_path) is NET
    (tmp_path / "binding.gyp").unlink()
    package(tmp_path, {})
    assert both(command, tmp_path) is NET


@pytest.mark.parametrize("command", ["npm restart", "npm run restart"])
def test_npm_restart_without_a_restart_script_runs_stop_and_start(tmp_path: Path, command: str) -> None:
    # npm-restart(1): "npm stop --if-present && npm start"; npm-start(1): no start script runs node server.js
    package(tmp_path, {})
    (tmp_path / "server.js").write_text("")
    assert both(command, tmp_path) is DES
    package(tmp_path, {"start": EVIL})
    assert both(command, tmp_path) is DES


def test_npm_restart_with_its_own_scripts_grades_them(tmp_path: Path) -> None:
    package(tmp_path, {"restart": "echo restarting", "start": "echo started", "stop": "echo stopped"})
    assert both("npm restart", tmp_path) is WW
    package(tmp_path, {"start": "echo started", "stop": "echo stopped"})
    assert both("npm restart", tmp_path) is WW


# -- justfile lines that run on load or in a recipe header -----------------------------------------------------
@pytest.mark.parametrize(
    "justfile",
    [
        f"x := `echo '#'; {EVIL}`\ndefault:\n    echo hi\n",
        f'x := "#" + `{EVIL}`\ndefault:\n    echo hi\n',
        f"x := (\n  `{EVIL}`\n)\ndefault:\n    echo hi\n",
        f"x := ```\n  {EVIL}\n```\ndefault:\n    echo hi\n",
        f"default: (build `{EVIL}`)\nbuild arg:\n    echo {{{{arg}}}}\n",
        f"default arg=`{EVIL}`:\n    echo hi\n",
        'x := "open\ndefault:\n    echo hi\n',
    ],
)
def test_justfile_backticks_the_parser_could_miss_are_graded_or_unreadable(tmp_path: Path, justfile: str) -> None:
    # just manual: backticks in assignments run when just loads the file; dependency arguments and parameter
    # defaults are evaluated before the recipe; indented backticks and parenthesised expressions span lines
    (tmp_path / "justfile").write_text(justfile)
    assert both("just", tmp_path) is DES


@pytest.mark.parametrize(
    "justfile",
    [
        "#!/usr/bin/env just --justfile\n# don't run this on CI\nx := 'a#b' # a comment's quote\ndefault:\n    echo {{x}}\n",
        'msg := "say \\"hi\\" # not a comment"\ndefault: build # builds first\n    echo {{msg}}\nbuild:\n    echo ok\n',
        "default: (build 'release')\nbuild mode='debug':\n    echo {{mode}}\n",
    ],
)
def test_justfile_comments_and_quotes_are_read(tmp_path: Path, justfile: str) -> None:
    (tmp_path / "justfile").write_text(justfile)
    assert both("just", tmp_path) is WW


# -- tox environments chosen by the file: env_list, generative names, labels, factors, ALL, base -----------------
TOX_CASES = {
    "generative": ("[testenv]\ncommands = python -V\n[testenv:py3-{lint,x}]\ncommands = EVIL\n", "tox -e py3-lint"),
    "generative alone": ("[testenv]\ncommands = python -V\n[testenv:{a,b}]\ncommands = EVIL\n", "tox -e a"),
    "range": ("[testenv]\ncommands = python -V\n[testenv:py3{10-12}]\ncommands = EVIL\n", "tox -e py311"),
    "env_list": ("[tox]\nenv_list = lint\n[testenv]\ncommands = python -V\n[testenv:lint]\ncommands = EVIL\n", "tox"),
    "envlist run": (
        "[tox]\nenvlist = py3,lint\n[testenv]\ncommands = python -V\n[testenv:lint]\ncommands = EVIL\n",
        "tox run -p",
    ),  # fmt: skip
    "env_list generative": (
        "[tox]\nenv_list = py3-{lint,x}\n[testenv]\ncommands = python -V\n[testenv:py3-lint]\ncommands = EVIL\n",
        "tox",
    ),  # fmt: skip
    "label": (
        "[tox]\nlabels =\n    l = lint\n[testenv]\ncommands = python -V\n[testenv:lint]\ncommands = EVIL\n",
        "tox -m l",
    ),  # fmt: skip
    "factor": (
        "[tox]\nenv_list = py3-lint\n[testenv]\ncommands = python -V\n[testenv:py3-lint]\ncommands = EVIL\n",
        "tox -f lint",
    ),  # fmt: skip
    "ALL": ("[testenv]\ncommands = python -V\n[testenv:lint]\ncommands = EVIL\n", "tox -e ALL"),
    "spaced": ("[testenv]\ncommands = python -V\n[testenv:lint]\ncommands = EVIL\n", "tox -e 'py3 , lint'"),
    "base": ("[testenv]\ncommands = python -V\n[testenv:a]\nbase = evil\n[evil]\ncommands = EVIL\n", "tox -e a"),
    "nested braces": ("[testenv]\ncommands = python -V\n[testenv:py{3{10,11}}]\ncommands = pytest\n", "tox -e x"),
}


@pytest.mark.parametrize("case", list(TOX_CASES))
def test_tox_environments_the_file_chooses_are_read(tmp_path: Path, case: str) -> None:
    # tox "Generative section names", "env_list", "labels", -f factors, ALL, base
    text, command = TOX_CASES[case]
    (tmp_path / "tox.ini").write_text(text.replace("EVIL", EVIL))
    assert both(command, tmp_path) is DES


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("[tox]\nenv_list = py3\n[testenv]\ncommands = pytest\n[testenv:clean]\ncommands = EVIL\n", "tox"),
        ("[testenv]\ncommands = pytest\n[testenv:py3-{lint,x}]\ncommands = EVIL\n", "tox -e py3"),
        ("[testenv]\ncommands = pytest\n[testenv:clean]\ncommands = EVIL\n", "tox"),
        (
            "[tox]\nenv_list = py3{10,11}\n[testenv]\ncommands = pytest\n[testenv:lint]\ncommands = ruff check .\n",
            "tox -m all",
        ),  # fmt: skip
    ],
)
def test_tox_environments_not_run_are_not_graded(tmp_path: Path, text: str, command: str) -> None:
    (tmp_path / "tox.ini").write_text(text.replace("EVIL", EVIL))
    assert both(command, tmp_path) is NET


BUN_CASES = [
    ("bun install", "preinstall"),
    ("bun i", "postinstall"),
    ("bun add lodash", "prepare"),
    ("bun update", "postinstall"),
    ("bun remove lodash", "preinstall"),
    ("bun pm pack", "prepack"),
    ("bun publish", "prepublishOnly"),
    ("bun --cwd sub install", "postinstall"),
]


@pytest.mark.parametrize(("command", "event"), BUN_CASES, ids=[f"{c}-{e}" for c, e in BUN_CASES])
def test_bun_runs_the_packages_own_life_cycle_scripts(tmp_path: Path, command: str, event: str) -> None:
    # Bun docs, "Lifecycle scripts": the root package's scripts run (not untrusted dependencies')
    (tmp_path / "sub").mkdir()
    for where in (tmp_path, tmp_path / "sub"):
        package(where, {"test": "jest", event: EVIL})
    assert both(command, tmp_path) is DES


def test_bun_without_life_cycle_scripts_or_ignoring_them_keeps_its_grade(tmp_path: Path) -> None:
    package(tmp_path, {"test": "jest", "prepare": EVIL})
    assert both("bun install --ignore-scripts", tmp_path) is NET
    package(tmp_path, {"test": "jest", "build": "tsc"})
    for command in ("bun install", "bun add lodash", "bun update", "bun remove lodash", "bun publish"):
        assert both(command, tmp_path) is NET, command
    assert both("bun pm pack", tmp_path) is WW
    assert both("bun test", tmp_path) is WW
    assert both("bun pm ls", tmp_path) is RiskLevel.READ_ONLY


@pytest.mark.parametrize(
    "makefile",
    [
        f"all:\n\techo hi\nMakefile: gen.txt\n\t{EVIL}; touch Makefile\n",
        f"all:\n\techo hi\n%: %.in\n\t{EVIL}\n",
    ],
)
def test_a_rule_that_remakes_the_makefile_runs_first(tmp_path: Path, makefile: str) -> None:
    # GNU make manual, "How Makefiles Are Remade": make updates the makefile itself before the goal
    (tmp_path / "Makefile").write_text(makefile)
    assert both("make", tmp_path) is DES
    assert both("make all", tmp_path) is DES


def test_rules_that_do_not_make_the_makefile_leave_it_read(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("all:\n\techo hi\n%.o: %.c\n\tgcc -c $<\n%:\n\t@:\n")
    assert both("make", tmp_path) is WW


@pytest.mark.parametrize("command", ["yarn run env", "yarn env", "npm run env"])
def test_the_run_env_built_in_prints_the_environment(tmp_path: Path, command: str) -> None:
    # yarn run: "yarn run env: ... list environment variables available to the scripts at runtime"
    package(tmp_path, {"test": "jest"})
    result = classify(command, contained=False, workspace=tmp_path, recipes=ProjectRecipes(tmp_path))
    assert result.risk is NET and any(r.rule == "secret-read" for r in result.reasons), result.reasons
    package(tmp_path, {"env": "echo hi"})
    assert both(command, tmp_path) is WW
