"""Data, notebook, playbook and device tools the catalogue grades by their manuals: duckdb and csvsql queries
(programs/databases.py ``duckdb_sql``, ``csvsql_query``), Miller (programs/textproc.py ``mlr_verbs``), csvkit,
Jupyter, papermill, nbstripout, MLflow, TensorBoard, terraform-docs, ansible (programs/cloud.py
``ansible_module``), fastlane, DVC and adb device command lines (programs/cloud.py ``adb_shell``). Everyday uses get
their grade; the forms that write outside, run code, reach the network or read secrets stay high."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE


def _workspace(tmp_path: Path) -> Path:
    return project(
        tmp_path,
        {
            "data/train.csv": "id,label,score\n1,a,0.5\n",
            "data/labels.csv": "id,name\n1,x\n",
            "data/warehouse.duckdb": "",
            "notebooks/eda.ipynb": "{}",
            "site.yml": "- hosts: all\n  tasks: []\n",
            "inventory.ini": "[web]\nhost1\n",
            "main.tf": 'variable "x" {}\n',
            "mobile/fastlane/Fastfile": "lane :test do\nend\n",
            "dvc.yaml": "stages: {}\n",
        },
    )


EVERYDAY = [
    # duckdb: one query of workspace CSV, Parquet or JSON files
    ("duckdb -c \"SELECT count(*) FROM 'data/train.parquet'\"", RO),
    ("duckdb -c \"DESCRIBE SELECT * FROM 'data/train.parquet'\"", RO),
    ("duckdb -c \"SELECT label, avg(score) FROM read_csv_auto('data/train.csv') GROUP BY 1\"", RO),
    ("duckdb -csv -c \"SELECT * FROM 'data/*.parquet' LIMIT 5\"", RO),
    ("duckdb -readonly data/warehouse.duckdb -c 'SHOW TABLES'", RO),
    ("duckdb data/warehouse.duckdb -c 'SHOW TABLES'", WW),  # opened read-write
    ("duckdb -version", RO),
    # csvkit
    ("csvsql --query 'select label, count(*) from train group by label' data/train.csv", RO),
    ("csvsql data/train.csv", RO),
    ("csvjoin -c id data/train.csv data/labels.csv > data/joined.csv", WW),
    ("csvstack data/train.csv data/train.csv", RO),
    ("csvclean data/train.csv", WW),
    ("in2csv data/train.csv", RO),
    # Miller
    ("mlr --icsv --opprint cat data/train.csv", RO),
    ("mlr --icsv --ojson head -n 4 then sort -f label data/train.csv", RO),
    ("mlr --icsv --opprint stats1 -a mean,count -f score -g label data/train.csv", RO),
    ("mlr --c2p filter '$score > 0.1' data/train.csv", WW),  # the workspace's .mlrrc may load DSL files
    ("mlr -I --csv sort -f label data/train.csv", WW),
    # Jupyter, papermill, nbstripout, MLflow, TensorBoard
    ("jupyter nbconvert --to markdown --stdout notebooks/eda.ipynb", RO),
    ("jupyter nbconvert --to html notebooks/eda.ipynb", WW),
    ("jupyter nbconvert --to html --output-dir out notebooks/eda.ipynb", WW),
    ("jupyter lab --no-browser --port 8888", NET),
    ("jupyter notebook list", RO),
    ("papermill --help-notebook notebooks/eda.ipynb", RO),
    ("papermill --prepare-only notebooks/eda.ipynb notebooks/out.ipynb", WW),
    ("nbstripout notebooks/eda.ipynb", WW),
    ("nbstripout --dry-run notebooks/eda.ipynb", RO),
    ("mlflow ui --port 5000", NET),
    ("mlflow experiments search", NET),
    ("mlflow doctor --mask-envs", RO),
    ("tensorboard --logdir runs --port 6006", NET),
    ("tensorboard --inspect --logdir runs", RO),
    # terraform-docs: the module's configuration may choose an output file
    ("terraform-docs markdown .", WW),
    ("terraform-docs markdown table --output-file README.md .", WW),
    ("terraform-docs version", RO),
    # ansible
    ("ansible all -i inventory.ini -m ping", NET),
    ("ansible all --list-hosts", NET),
    ("ansible -i inventory.ini web -m setup -a 'filter=ansible_distribution*'", NET),  # facts hold the environment
    ("ansible-config list", RO),
    ("ansible-config dump --only-changed", NET),  # values from ANSIBLE_* variables: tokens too
    ("ansible-playbook --syntax-check site.yml", WW),
    ("ansible-playbook --list-tasks -i inventory.ini site.yml", WW),
    ("ansible-playbook --version", RO),
    ("ansible-doc -l", WW),
    # fastlane, DVC
    ("cd mobile && fastlane lanes", WW),
    ("fastlane --version", RO),
    ("dvc exp show", RO),
    ("dvc stage list", RO),
    ("dvc plots show", WW),
    # adb: device command lines that only read, and those that change the device
    ("adb shell getprop ro.build.version.sdk", NET),
    ("adb shell pm list packages -3", NET),
    ("adb shell dumpsys battery", NET),
    ("adb -s emulator-5554 shell 'ls -l /sdcard'", NET),
    ("adb exec-out screencap -p > /tmp/screen.png", NET),
    ("adb shell am start -n com.example.app/.MainActivity", SYS),
]


@pytest.mark.parametrize(("command", "risk"), EVERYDAY)
def test_everyday_uses_get_their_grade(tmp_path: Path, command: str, risk: RiskLevel) -> None:
    level, reasons = graded(command, _workspace(tmp_path))
    assert level is risk, (command, reasons)


HIGH = [
    # duckdb: files outside, secrets, the environment, writes, extensions, dot commands, stdin, stored views
    ("duckdb -c \"SELECT * FROM read_csv('/etc/passwd')\"", DES),
    ("duckdb -c \"SELECT * FROM read_csv('../elsewhere/x.csv')\"", DES),
    ("duckdb -c \"SELECT * FROM read_csv('.env')\"", DES),
    ("duckdb -c \"SELECT * FROM read_text('data/train.csv')\"", DES),
    ("duckdb -c \"SELECT getenv('AWS_SECRET_ACCESS_KEY')\"", DES),
    ("duckdb -c \"SELECT * FROM 'https://example.com/x.parquet'\"", DES),
    ("duckdb -c \"SELECT * FROM 'data/x.xlsx'\"", DES),  # autoloads an extension
    ("duckdb -c \"SELECT * FROM read_csv('*')\"", DES),
    ("duckdb -c \"COPY (SELECT * FROM 'data/train.csv') TO '/tmp/x.parquet'\"", DES),
    ("duckdb -c \"SELECT 1; COPY (SELECT 1) TO '/tmp/x.csv'\"", DES),
    ("duckdb -c \"COPY (SELECT * FROM read_csv('/etc/passwd')) TO 'x.csv'\"", DES),
    ("duckdb -c \"COPY (SELECT 1 AS a) TO 'data/train.csv' (HEADER)\"", DES),  # replaces a dataset
    ("duckdb -c \"COPY (SELECT 1) TO '.git/hooks/x.csv'\"", DES),
    ("duckdb -c \"COPY (SELECT 1) TO 'out' (FORMAT parquet, PARTITION_BY (a), OVERWRITE_OR_IGNORE)\"", DES),
    ("duckdb -c \"COPY t FROM 'y.csv'\"", DES),
    ("duckdb -c \"ATTACH '/tmp/x.db'\"", DES),
    ("duckdb -c 'INSTALL httpfs'", DES),
    ("duckdb -c '.shell touch ran'", DES),
    ("duckdb -c \"SELECT * FROM query('SELECT 1')\"", DES),
    ('duckdb -c "$Q"', DES),
    ("duckdb", DES),
    ("duckdb -init x.sql -c 'SELECT 1'", DES),
    ("duckdb -readonly data/warehouse.duckdb -c 'SELECT * FROM t'", DES),  # t may be a view
    ("cd /etc && duckdb -c \"SELECT * FROM 'passwd.csv'\"", DES),
    # csvkit
    ("csvsql --query \"ATTACH '/tmp/x.db' AS y\" data/train.csv", DES),
    ("csvsql --que \"ATTACH '/tmp/x.db' AS y\" data/train.csv", DES),
    ("csvsql --query \"select load_extension('x')\" data/train.csv", DES),
    ("csvsql --db sqlite:///x.db --insert data/train.csv", DES),
    ("csvsql --before-insert \"ATTACH '/tmp/x.db' AS y\" --query 'select 1' data/train.csv", DES),
    ("in2csv --write-sheets - data/book.xlsx", DES),
    ("csvclean /etc/x.csv", DES),
    ("csvlook .env", NET),
    ("csvpy data/train.csv", DES),
    # Miller
    ("mlr -I --csv sort -f a /etc/x.csv", DES),
    ("mlr --icsv tee out.csv then cat data/train.csv", DES),
    ("mlr --icsv split -n 10 data/train.csv", DES),
    ("mlr --c2p put 'tee > \"/tmp/x.csv\", $*' data/train.csv", DES),
    ("mlr --c2p put '$y = system(\"touch ran\")' data/train.csv", DES),
    ("mlr --c2p put '$y = ENV[\"AWS_SECRET_ACCESS_KEY\"]' data/train.csv", DES),
    ("mlr --c2p put -f x.mlr data/train.csv", DES),
    ("mlr --prepipe 'touch ran' cat data/train.csv", DES),
    ("mlr -s args.txt", DES),
    ("mlr repl", DES),
    ("mlr regtest cases", DES),
    ("mlr termcvt -I --crlf2lf data/train.csv", DES),
    ("mlr --icsv cat .env", NET),
    # Jupyter, papermill, nbstripout, MLflow, TensorBoard
    ("jupyter nbconvert --to notebook --execute --inplace notebooks/eda.ipynb", DES),
    ("jupyter nbconvert --to html --ExecutePreprocessor.enabled=True notebooks/eda.ipynb", DES),
    ("jupyter nbconvert --to html /etc/x.ipynb", DES),
    ("jupyter lab --ServerApp.token= --ip 0.0.0.0", DES),
    ("jupyter execute notebooks/eda.ipynb", DES),
    ("papermill notebooks/eda.ipynb /tmp/out.ipynb -p epochs 2", DES),
    ("papermill --prepare-only notebooks/eda.ipynb /etc/out.ipynb", DES),
    ("nbstripout --install", DES),
    ("nbstripout /etc/x.ipynb", DES),
    ("mlflow ui --backend-store-uri sqlite:////etc/x.db", DES),
    ("mlflow server --gunicorn-opts '--config python:x'", DES),
    ("mlflow run .", DES),
    ("mlflow doctor", NET),
    ("tensorboard --logdir ~/.ssh", DES),  # serves the keys it reads: secret-egress,
    # terraform-docs
    ("terraform-docs markdown table --output-file /etc/x.md .", DES),
    ("terraform-docs json /opt/mod", DES),
    ("terraform-docs markdown --header-from ~/.aws/credentials .", NET),
    # ansible
    ("ansible-playbook site.yml", DES),
    ("ansible-playbook --check site.yml", DES),
    ("ansible-playbook -c local site.yml", DES),
    ("ansible-playbook --syntax-check /opt/x/site.yml", DES),
    ("ansible-playbook --syntax-check -e @~/.ssh/id_rsa site.yml", DES),
    ("ansible all -a uptime", DES),
    ("ansible all -m shell -a 'touch ran'", DES),
    ("ansible web -m setup -a 'fact_path=./facts'", DES),  # runs the executable .fact files there
    ('ansible all -m "$M"', DES),
    ("ansible-config view -c ~/.ssh/id_rsa", DES),
    ("ansible all -vm shell", DES),
    ("ansible all -m ping --ssh-common-args='-o ProxyCommand=touch'", DES),
    ("ansible all -m ping -i /etc/ansible/hosts", DES),
    # fastlane, DVC
    ("cd mobile && fastlane test", DES),
    ("cd /tmp && fastlane lanes", DES),
    ("dvc repro", DES),
    ("dvc exp run -S train.lr=0.01", DES),
    ("dvc exp list origin", NET),
    ("dvc plots show -o /etc/x", DES),
    # adb: shell syntax, an interactive shell, commands that act, words only known when it runs
    ("adb shell dumpsys battery set level 5", DES),
    ("adb shell 'getprop; touch ran'", DES),
    ("adb shell getprop '$(touch ran)'", DES),
    ("adb shell", DES),
    ("adb shell rm -rf /sdcard", DES),
    ('adb shell "$CMD"', DES),
    ("adb shell settings put global x 1", DES),
    ("adb shell pm uninstall com.example", DES),
    ("adb exec-out screencap /sdcard/x.png", DES),
]


@pytest.mark.parametrize(("command", "risk"), HIGH)
def test_writes_code_network_and_secrets_stay_high(tmp_path: Path, command: str, risk: RiskLevel) -> None:
    level, reasons = graded(command, _workspace(tmp_path))
    assert level is risk, (command, reasons)
