"""Commands that only simulate or print names: helm install/upgrade ``--dry-run`` (client) and ``make -n``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

RO, WW, NET, SYS, DES = (
    RiskLevel.READ_ONLY,
    RiskLevel.WORKSPACE_WRITE,
    RiskLevel.NETWORK,
    RiskLevel.SYSTEM,
    RiskLevel.DESTRUCTIVE,
)

_CHART = {"chart/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n", "chart/values.yaml": "replicas: 2\n"}


@pytest.mark.parametrize(
    "command",
    [
        "helm upgrade --install web ./chart -n app --dry-run",
        "helm install web ./chart --dry-run=client",
        "helm upgrade web ./chart --dry-run=true -f chart/values.yaml",
        "helm upgrade web ./chart --dry-run=server --dry-run",
    ],
)
def test_a_helm_client_dry_run_only_reads_the_cluster(tmp_path: Path, command: str) -> None:
    assert graded(command, project(tmp_path, _CHART))[0] is NET


@pytest.mark.parametrize(
    "command, level",
    [
        ("helm upgrade --install web ./chart -n app", SYS),
        ("helm upgrade web ./chart --dry-run=none", SYS),
        ("helm upgrade web ./chart --dry-run=false", SYS),
        ("helm upgrade web ./chart --dry-run --dry-run=none", SYS),
        ("helm upgrade web ./chart --dry-run=server", SYS),  # lookup reads live Secrets into the output
        # a word only known when it runs, or dependencies fetched from a repository: the chart cannot be read
        # (bot/risk/manifests.py), destructive on the host
        ('helm upgrade web ./chart "$MODE" --dry-run', DES),
        ("helm upgrade web ./chart --dry-run --dependency-update", DES),
        ("helm upgrade web ./chart --dry-run --post-renderer ./x.sh", DES),
        ("helm upgrade web ./chart --dry-run --force", DES),
    ],
)
def test_a_helm_release_that_is_not_a_client_dry_run_keeps_its_grade(
    tmp_path: Path, command: str, level: RiskLevel
) -> None:
    assert graded(command, project(tmp_path, _CHART))[0] is level


_OUT = "curl -s https://example.com"  # network; never run
_MAKEFILE = (
    "SUB = $(MAKE) -f sub.mk\n"
    "build:\n\tmkdir -p build\n\tgo build -o build/app ./...\n\n"
    "plus:\n\t+" + _OUT + "\n\n"
    "recurse:\n\t$(MAKE) -C sub; " + _OUT + "\n\n"
    "braces:\n\t@${MAKE} -C sub && " + _OUT + "\n\n"
    "indirect:\n\t$(SUB) && " + _OUT + "\n\n"
    "shellcall:\n\techo $(shell " + _OUT + ")\n\n"
    "quiet:\n\t@-+" + _OUT + "\n\n"
    "outside:\n\t" + _OUT + "\n"
)


@pytest.mark.parametrize(
    "command",
    [
        "make -n build",
        "make --dry-run build",
        "make -q build",
        "make --just-print outside",
        "make -n outside",
        "make -n",
    ],
)
def test_a_make_dry_run_runs_no_recipe_line(tmp_path: Path, command: str) -> None:
    assert graded(command, project(tmp_path, {"Makefile": _MAKEFILE}))[0] is RO


@pytest.mark.parametrize(
    "command, level",
    [
        ("make -n plus", NET),  # a line starting with + runs under -n
        ("make -n quiet", NET),
        ("make -n recurse", NET),  # a line naming $(MAKE) runs under -n
        ("make -n braces", NET),
        ("make -n indirect", NET),  # through a variable: counted as running (fails closed)
        ("make -n shellcall", NET),  # make expands the line to print it: $(shell) runs
        ("make -nt outside", NET),  # -t touches targets: not a dry run
        ("make outside", NET),
        ("make -n build X=1", DES),  # a variable set on the command line
    ],
)
def test_a_make_dry_run_grades_the_lines_that_still_run(tmp_path: Path, command: str, level: RiskLevel) -> None:
    assert graded(command, project(tmp_path, {"Makefile": _MAKEFILE}))[0] >= level


def test_a_make_dry_run_still_grades_what_runs_on_load_and_remakes_the_makefile(tmp_path: Path) -> None:
    loads = project(tmp_path / "a", {"Makefile": "V := $(shell " + _OUT + ")\nbuild:\n\techo $(V)\n"})
    assert graded("make -n build", loads)[0] is NET  # run when make reads the file; printed, not run, in the line
    remade = "Makefile: Makefile.in\n\t" + _OUT + "\nbuild:\n\techo hi\n"
    assert graded("make -n build", project(tmp_path / "b", {"Makefile": remade, "Makefile.in": ""}))[0] >= NET
