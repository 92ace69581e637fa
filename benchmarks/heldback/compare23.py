"""Grade held-back corpus 23 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare23.py [--cwd /tmp/ws23] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup23.sh makes (a git repository of a scientific computing / HPC project:
Slurm batch scripts, an MPI C program, Fortran with CMake, Apptainer definition files, a Spack environment and
package repository, environment modules, an R package with renv, a Julia package, MATLAB/Octave scripts,
Snakemake and Nextflow workflows, a conda environment and Jupyter notebooks) and a directory outside it,
/tmp/other23.
"""

from __future__ import annotations

from _compare import main

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
DOUBTFUL: dict[str, str] = {}


if __name__ == "__main__":
    main(23, DOUBTFUL)
