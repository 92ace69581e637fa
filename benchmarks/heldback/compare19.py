"""Grade held-back corpus 19 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare19.py [--cwd /tmp/ws19] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup19.sh makes (a git repository of a data/ML platform project: a uv/hatchling
Python package, conda environment.yml, notebooks, dvc.yaml, a dbt project on a local DuckDB file, Airflow DAGs, Spark
jobs, an MLproject, docker compose, a Helm chart, Kubernetes manifests, Makefile, justfile, tox.ini, noxfile.py,
pre-commit configs, SQL scripts, .env) and a directory outside it, /tmp/other19.
"""

from __future__ import annotations

from _compare import main

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
DOUBTFUL: dict[str, str] = {}


if __name__ == "__main__":
    main(19, DOUBTFUL)
