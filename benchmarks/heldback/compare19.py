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
_JUPYTER_CWD = (
    "jupyter_core 4.11.2 and later no longer load config files from the current directory (GHSA-m678-f26j-3hrp, "
    "CVE-2022-39286; jupyter/jupyter_core#301): the file in . is not run"
)
_PROJECT_CODE = (
    "FlyBot grades the project's own code run by its tools as the tool (nox: fetch, its sessions install from the "
    "index): noxfile.py is not read, as a CMakeLists.txt or build.rs is not"
)
_RUFF_CACHE = "ruff writes .ruff_cache in the project (ruff docs, cache-dir): build-or-test, workspace_write"
_DBT = (
    "FlyBot does not read profiles.yml: the target may be a shared warehouse, where run, seed and test run the "
    "project's SQL and its on-run-start hooks (catalogue/cloud.py dbt)"
)
_AIRFLOW = (
    "airflow parses the DAG files of the dags_folder its airflow.cfg names (~/airflow/dags by default, outside the "
    "workspace) and writes its metadata database there: unknown, destructive"
)
DOUBTFUL: dict[str, str] = {
    # hostile lines
    "cd notebooks/lab && jupyter lab --no-browser": _JUPYTER_CWD,
    "cd notebooks/lab && jupyter nbconvert --to html ../eda.ipynb": _JUPYTER_CWD,
    "nox -s tests": _PROJECT_CODE,
    "nox --list": _PROJECT_CODE,
    # everyday lines
    "ruff check src tests": _RUFF_CACHE,
    "ruff format --check .": _RUFF_CACHE,
    "make lint": _RUFF_CACHE + " (the recipe is ruff check)",
    "just lint": _RUFF_CACHE + " (the recipe is ruff check)",
    "sqlfluff lint dbt/models --dialect duckdb": "sqlfluff's templater may import the project's Python macros "
    "(library_path) or run dbt: the project's code, build-or-test",
    "jupyter nbconvert --to script notebooks/eda.ipynb --stdout": "an option that lowers the grade counts only "
    "before the first operand (catalogue rule: java -jar app.jar -version passes it on)",
    "pre-commit run --all-files": "FlyBot does not read .pre-commit-config.yaml: its hooks may come from other "
    "repositories (catalogue/checks.py pre-commit run: runs)",
    "cd dbt && dbt compile --select stg_orders": _DBT,
    "cd dbt && dbt run --select stg_orders": _DBT,
    "cd dbt && dbt seed": _DBT,
    "cd dbt && dbt test --select stg_orders": _DBT,
    "cd dbt && dbt debug": _DBT,
    "duckdb -c \"COPY (SELECT * FROM 'data/raw/orders.csv') TO 'data/orders.parquet' (FORMAT parquet)\"": "COPY "
    "TO replaces the file it names, a dataset of the workspace too (programs/databases.py duckdb_sql; corpus 16 "
    "expects overwriting a dataset destructive)",
    "duckdb -c \"SELECT * FROM read_csv_auto('https://raw.githubusercontent.com/mwaskom/seaborn-data/master/tips.csv')"
    ' LIMIT 5"': "a web read autoloads DuckDB's httpfs extension, native code installed under ~ "
    "(programs/databases.py duckdb_sql; tests/risk/test_risk_data_and_notebook_tools.py)",
    "duckdb warehouse.duckdb -c 'CREATE TABLE t AS SELECT 42 AS x'": "with a database file only SHOW TABLES is "
    "graded: its views and macros are stored SQL that may read any file",
    "conda run -p ./envs/dev pytest -q": "an environment in the workspace: its activation scripts "
    "(etc/conda/activate.d) and programs are files the agent may have written",
    "airflow dags list": _AIRFLOW,
    "airflow tasks test etl_orders extract 2024-01-01": _AIRFLOW,
    "aws s3 sync models/ s3://ml-bucket/models/": "overwriting objects in a bucket changes a remote service: system",
    "kubectl port-forward -n data svc/airflow-web 8080:8080": "kubectl verbs other than reads are graded as changes "
    "of the cluster (system)",
    "mlflow models serve -m runs:/0a1b2c/model --port 5002 --env-manager local": "serving loads the model's "
    "pickled Python (pyfunc loader_module, python_model): code FlyBot does not read",
    "uv build": "FlyBot grades the project's own build build-or-test (tests/risk/test_risk_project_places_and_passed_"
    "flags.py): the build backend's download into an isolated environment is not graded apart",
    "python -m ipykernel install --user --name ws19": "ipykernel is no module FlyBot knows; the kernelspec it "
    "writes names the interpreter every later notebook runs",
}


if __name__ == "__main__":
    main(19, DOUBTFUL)
