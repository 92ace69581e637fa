"""A configuration option the catalogue does not list, given to a program whose entry is ``open``
(bot/risk/programs/catalogue.py ``_configuration_named``): a configuration file outside the workspace names plugins,
hooks or code the tool loads, so it is graded as a project outside (destructive); one in the workspace, and the same
option spelled as a flag before an operand that is no file, keep the use's grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

R = RiskLevel
WORKSPACE = Path("/home/dev/project")


def graded(command: str) -> tuple[RiskLevel, set[str]]:
    result = classify(command, contained=False, workspace=WORKSPACE)
    return result.risk, {r.rule for r in result.reasons}


@pytest.mark.parametrize(
    "command",
    [
        "stylua --config-path /tmp/x.toml src/init.lua",
        "stylua --config-path=/tmp/x.toml src/init.lua",
        "vale --config=/tmp/.vale.ini README.md",
        "vale --config ~/elsewhere/.vale.ini README.md",
        "vale --config ../other/.vale.ini README.md",
        'vale --config "$CFG" README.md',
        "psalm --config /tmp/psalm.xml",
        "phpstan analyse src -c /tmp/phpstan.neon",
        "phan -k /srv/o/config.php",
        "pio run -c /tmp/platformio.ini",
        "pio run -d /tmp/proj",
    ],
)
def test_a_configuration_named_outside_the_workspace_is_a_project_outside(command: str) -> None:
    risk, rules = graded(command)
    assert risk is R.DESTRUCTIVE and rules & {"project-outside-workspace", "dynamic-argument"}, (command, rules)


@pytest.mark.parametrize(
    ("command", "want"),
    [
        ("stylua --config-path stylua.toml src/init.lua", R.WORKSPACE_WRITE),
        ("stylua --config-path=./tools/stylua.toml src/init.lua", R.WORKSPACE_WRITE),
        ("vale --config=.vale.ini README.md", R.READ_ONLY),
        ("vale --config docs/.vale.ini README.md", R.READ_ONLY),
        ("psalm --config psalm.xml", R.WORKSPACE_WRITE),
        ("phpstan analyse src -c phpstan.neon", R.WORKSPACE_WRITE),
        ("pio run -c platformio.ini", R.WORKSPACE_WRITE),
        ("pio run -d firmware", R.WORKSPACE_WRITE),
    ],
)
def test_a_configuration_in_the_workspace_keeps_the_grade(command: str, want: RiskLevel) -> None:
    assert graded(command)[0] is want, command


def test_only_configuration_options_with_a_file_after_them_are_read_as_naming_one() -> None:
    from bot.risk.programs.catalogue import _CONFIGURATION_OPTION

    for name in ("--config", "--config-file", "--global-config", "--rcfile", "--settings", "--plugin-dir", "-config"):
        assert _CONFIGURATION_OPTION.fullmatch(name), name
    for name in ("--no-config", "--dump-config", "--print-config", "--verbose", "--configure", "-c"):
        assert not _CONFIGURATION_OPTION.fullmatch(name), name
    # a flag before an operand that is no file: the option may take no value
    assert graded("vale --no-config /tmp/README.md")[0] is R.READ_ONLY


#: Listed configuration options whose file names code the tool loads or runs (RuboCop's ``require:``, golangci-lint's
#: custom linter plugins, stylelint's and knip's JavaScript configurations, dprint's process plugins, pre-commit's
#: hooks, resticprofile's run-before commands, repomix.config.js).
LOADED = [
    ("rubocop -c {} app", R.WORKSPACE_WRITE),
    ("golangci-lint run -c {}", R.WORKSPACE_WRITE),
    ("stylelint --config {} src/a.css", R.WORKSPACE_WRITE),
    ("dprint fmt --config {}", R.NETWORK),
    ("pre-commit -c {} validate-config", R.READ_ONLY),
    ("knip --config {}", R.WORKSPACE_WRITE),
    ("repomix -c {}", R.WORKSPACE_WRITE),
    ("resticprofile -c {} snapshots", R.NETWORK),
]


@pytest.mark.parametrize(("command", "want"), LOADED)
def test_a_configuration_that_loads_code_is_graded_as_a_project(command: str, want: RiskLevel) -> None:
    risk, rules = graded(command.format("/tmp/cfg.yml"))
    assert risk is R.DESTRUCTIVE and "project-outside-workspace" in rules, (command, rules)
    assert graded(command.format("config/cfg.yml"))[0] is want, command


# The short -c (or -C) where the program's manual makes it the configuration file (catalogue entries: trivy and
# grype, playwright test, cypress run -C, deno, nest build, flyctl, semgrep scan); postcss-cli's -u/--use modules.
@pytest.mark.parametrize(
    "command",
    [
        "trivy fs -c /tmp/trivy.yaml .",
        "grype -c ~/.grype.yaml dir:.",
        "playwright test -c /tmp/pw.config.ts",
        "cypress run -C /tmp/cypress.config.js",
        "deno info -c /tmp/deno.json main.ts",
        "deno fmt -c ../other/deno.json",
        "nest build -c /tmp/nest-cli.json",
        "fly deploy -c /tmp/fly.toml",
        "semgrep scan -c /tmp/rules.yml .",
        "semgrep --config /tmp/rules.yml .",  # no command word: semgrep scan
        "postcss in.css -u /tmp/evil.js -o out.css",
        "postcss in.css -u autoprefixer /tmp/evil.js -o out.css",
    ],
)
def test_a_short_configuration_option_outside_the_workspace_is_a_project_outside(command: str) -> None:
    risk, rules = graded(command)
    assert risk is R.DESTRUCTIVE and "project-outside-workspace" in rules, (command, rules)


@pytest.mark.parametrize(
    ("command", "want"),
    [
        ("trivy fs -c trivy.yaml .", R.NETWORK),
        ("trivy fs .", R.NETWORK),
        ("playwright test -c e2e/playwright.config.ts", R.WORKSPACE_WRITE),
        ("cypress run -C cypress.config.js", R.WORKSPACE_WRITE),
        ("deno check -c deno.json main.ts", R.WORKSPACE_WRITE),
        ("nest build -c nest-cli.json", R.WORKSPACE_WRITE),
        ("fly deploy -c fly.toml", R.SYSTEM),
        ("semgrep scan -c p/python .", R.NETWORK),
        ("semgrep --config rules/python.yml src/", R.NETWORK),  # semgrep scan: the version check and metrics
        ("semgrep --config rules/python.yml --autofix src/", R.NETWORK),
        ("postcss src/in.css -u autoprefixer -o out.css", R.WORKSPACE_WRITE),
    ],
)
def test_a_short_configuration_option_in_the_workspace_keeps_the_grade(command: str, want: RiskLevel) -> None:
    assert graded(command)[0] is want, command
