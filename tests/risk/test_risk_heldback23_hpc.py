"""Scientific computing and HPC tools. ``apptainer build IMAGE FILE.def`` (and ``singularity build``) runs the
definition file's ``%setup`` on the host and its ``%post`` at build time (Apptainer "Definition Files"), graded as
``docker build .`` is, and destructive for a definition file outside the workspace; a build from a URI or an image
stays a download. R's ``~/.Renviron`` (``GITHUB_PAT``, usethis), Julia's package server tokens
(``~/.julia/servers/SERVER/auth.toml``) and Nextflow's local secrets (``~/.nextflow/secrets/store.json``) are
secret reads. Each beside the everyday form."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel
_FILES = {
    "containers/solver.def": "Bootstrap: docker\nFrom: alpine:3.20\n\n%post\n    echo built\n",
    "containers/legacy.def": "Bootstrap: docker\nFrom: alpine:3.20\n\n%setup\n    echo setup\n\n%post\n    echo post\n",
    "analysis/fit.R": "print(1)\n",
    "workflows/main.nf": "workflow { }\n",
}


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("apptainer build legacy.sif containers/legacy.def", R.SYSTEM),
        ("singularity build legacy.sif containers/legacy.def", R.SYSTEM),
        ("apptainer build --fakeroot -F legacy.sif containers/legacy.def", R.SYSTEM),
        ("apptainer build out.sif /tmp/x/legacy.def", R.DESTRUCTIVE),
        ("apptainer build --fakeroot out.sif ~/legacy.def", R.DESTRUCTIVE),
        ("singularity build out.sif $DEF", R.DESTRUCTIVE),
        ("cat ~/.Renviron", R.NETWORK),
        ("grep GITHUB_PAT ~/.Renviron", R.NETWORK),
        ("cat /home/me/.Renviron", R.NETWORK),
        ("cat ~/.julia/servers/pkg.julialang.org/auth.toml", R.NETWORK),
        ("grep -r access_token ~/.julia/servers", R.NETWORK),
        ("cat ~/.nextflow/secrets/store.json", R.NETWORK),
        ("cp ~/.nextflow/secrets/store.json workflows/", R.NETWORK),
    ],
)
def test_hostile_form_keeps_a_high_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk >= expected, details


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("apptainer build containers/solver.sif containers/solver.def", R.SYSTEM),
        ("apptainer build solver.sif docker://alpine:3.20", R.NETWORK),
        ("apptainer build tools.sif oras://ghcr.io/org/tools:1", R.NETWORK),
        ("singularity build alpine.sif library://alpine:latest", R.NETWORK),
        ("apptainer build --sandbox sandbox/ containers/solver.sif", R.NETWORK),
        ("apptainer inspect containers/solver.sif", R.READ_ONLY),
        ("Rscript analysis/fit.R", R.DESTRUCTIVE),
        ("cat analysis/fit.R", R.READ_ONLY),
        ("ls ~/.julia/packages", R.READ_ONLY),
        ("cat ~/.julia/config/startup.jl", R.READ_ONLY),
        ("ls ~/.nextflow", R.READ_ONLY),
        ("cat ~/.nextflow/assets/nf-core/rnaseq/main.nf", R.READ_ONLY),
    ],
)
def test_everyday_form_is_not_over_graded(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk == expected, details
