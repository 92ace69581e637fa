#!/bin/sh
# Make the workspace (/tmp/ws15) and the directory outside it (/tmp/other15) that corpus15.jsonl was graded in.
# Nothing here is run, and nothing here would do harm if it were: the classifier only reads these files.
set -e
WS=${1:-/tmp/ws15}
OTHER=${2:-/tmp/other15}
rm -rf "$WS" "$OTHER"
mkdir -p "$WS"/src "$WS"/tests "$WS"/infra "$WS"/k8s "$WS"/chart/templates "$WS"/logs "$WS"/data "$WS"/certs \
    "$WS"/scripts "$WS"/queries "$WS"/dist "$WS"/build "$WS"/group_vars/all "$OTHER"/hooks "$OTHER"/plugins \
    "$OTHER"/cb "$OTHER"/chart
cd "$WS"
printf 'PYTHON ?= python3\n\nall: build\n\nbuild:\n\tmkdir -p build\n\tgo build -o build/app ./...\n\ntest:\n\t$(PYTHON) -m pytest -q tests\n\nlint:\n\truff check src tests\n\nfmt:\n\truff format src tests\n\n.PHONY: all build test lint fmt\n' > Makefile
printf '{\n  "name": "ws15",\n  "version": "0.1.0",\n  "private": true,\n  "scripts": {"test": "jest", "build": "tsc -p tsconfig.json", "lint": "eslint src"},\n  "devDependencies": {"jest": "^29.7.0", "typescript": "^5.4.0", "eslint": "^8.57.0", "prettier": "^3.2.0"}\n}\n' > package.json
printf '[project]\nname = "ws15"\nversion = "0.1.0"\nrequires-python = ">=3.10"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n' > pyproject.toml
printf '[package]\nname = "ws15"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' > Cargo.toml
printf 'module example.com/ws15\n\ngo 1.22\n' > go.mod
printf 'API_KEY=sk-test-1234567890\nDATABASE_URL=postgres://app:hunter2@db.internal/app\n' > .env
printf '.env\nbuild/\nnode_modules/\n.venv/\ntarget/\n' > .gitignore
printf '{"compilerOptions":{"outDir":"dist/js","strict":true},"include":["src"]}\n' > tsconfig.json
printf 'services:\n  api:\n    build: .\n    env_file: .env\n    ports: ["8080:8080"]\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: ${DB_PASSWORD}\n' > docker-compose.yml
printf 'FROM python:3.12-slim AS test\nCOPY . /app\nRUN pip install /app\n' > Dockerfile
printf 'terraform {\n  required_providers {\n    aws = { source = "hashicorp/aws" }\n  }\n}\n\nresource "aws_s3_bucket" "b" {\n  bucket = "ws15-bucket"\n}\n\noutput "db_password" {\n  value     = "x"\n  sensitive = true\n}\n' > infra/main.tf
printf 'region = "eu-west-1"\n' > infra/prod.tfvars
printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n' > k8s/deployment.yaml
printf 'resources:\n  - deployment.yaml\n' > k8s/kustomization.yaml
printf 'apiVersion: v2\nname: web\nversion: 0.1.0\n' > chart/Chart.yaml
printf 'replicas: 2\nimage: nginx:1.25\n' > chart/values.yaml
printf 'replicas: 4\n' > chart/values-prod.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  replicas: "{{ .Values.replicas }}"\n' > chart/templates/cm.yaml
printf -- '- hosts: web\n  tasks:\n    - name: ping\n      ansible.builtin.ping:\n' > site.yml
printf '[web]\nweb1.internal\n' > inventory.ini
printf -- '- name: geerlingguy.nginx\n' > requirements.yml
printf '$ANSIBLE_VAULT;1.1;AES256\n6162636465\n' > group_vars/all/vault.yml
printf 'name,amount,status\na,1,ok\nb,2,failed\n' > data.csv
printf '{"items":[{"a":1}]}\n' > data.json
printf '{"level":"error","size":1}\n' > logs/app.json
printf 'INFO start\nERROR boom\n' > logs/app.log
printf -- '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' > certs/server.crt
cp certs/server.crt certs/ca.crt
printf -- '-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n' > certs/server.csr
printf -- '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n' > certs/server.key
printf 'select count(*) from users;\n' > queries/report.sql
printf '#!/bin/sh\nkubectl apply -f k8s/\n' > scripts/deploy.sh
printf 'import os\n\nDEBUG = True\n' > src/settings.py
printf 'def main():\n    print("hi")\n\n\nif __name__ == "__main__":\n    main()\n' > src/main.py
printf 'x = 1\n' > src/a.py
printf 'x = 2\n' > src/b.py
printf 'console.log("hi");\n' > src/index.js
printf 'package main\n\nfunc main() {}\n' > src/main.go
printf 'def test_login():\n    assert True\n' > tests/test_api.py
printf '# ws15\n' > README.md
printf 'not a real archive\n' > dist/app.tar.gz
python3 -c 'import sqlite3; sqlite3.connect("data.db").execute("CREATE TABLE events(id INTEGER PRIMARY KEY, name TEXT)")'
git init -q && git add -A && git -c user.email=a@b -c user.name=t commit -qm init
cd "$OTHER"
# Inert stand-ins: the classifier only reads these files (they are outside the workspace, so any recipe, script,
# configuration or plugin here is graded by where it is); each would only print and fail if something ran it.
printf '#!/bin/sh\necho "corpus15 fixture: never run"; exit 1\n' > x
for f in pr.sh vp.sh sh w fs cc inv.py x.sh env.sh hooks/pre-commit pre-commit; do cp x "$f"; done
chmod +x x pr.sh vp.sh sh w fs cc inv.py x.sh
printf 'test:\n\t@echo "corpus15 fixture: never run"; exit 1\n\nbuild:\n\t@echo "corpus15 fixture: never run"; exit 1\n' > Makefile
printf '{"name":"o","scripts":{"test":"echo corpus15 fixture; exit 1","build":"echo corpus15 fixture; exit 1"}}\n' > package.json
printf 'apiVersion: v1\nkind: Config\nusers:\n  - name: u\n    user:\n      exec:\n        apiVersion: client.authentication.k8s.io/v1\n        command: /tmp/other15/x\n' > kubeconfig
printf '[default]\ncredential_process = /tmp/other15/x\n' > aws.cfg
printf 'provider_installation {\n  dev_overrides { "hashicorp/aws" = "/tmp/other15/plugins" }\n  direct {}\n}\n' > terraform.rc
printf 'data "external" "x" {\n  program = ["/tmp/other15/x"]\n}\n' > main.tf
printf '[defaults]\ncallback_plugins = /tmp/other15/cb\n' > ansible.cfg
printf -- '- hosts: localhost\n  tasks:\n    - command: /tmp/other15/x\n      check_mode: false\n' > play.yml
printf 'openssl_conf = init\n[init]\nproviders = p\n[p]\nevil = evil_sect\n[evil_sect]\nmodule = /tmp/other15/x\n' > openssl.cnf
printf '[pytest]\naddopts = -p corpus15_absent_plugin\n' > pytest.ini
printf '[mypy]\nplugins = /tmp/other15/x.py\n' > mypy.ini
printf 'raise SystemExit("corpus15 fixture: never run")\n' > x.py
cp x.py test_x.py
printf 'throw new Error("corpus15 fixture: never run")\n' > x.js
cp x.js hook.js
printf 'package main\n\nfunc main() { panic("corpus15 fixture: never run") }\n' > main.go
printf '[package]\nname="o"\nversion="0.1.0"\nbuild="build.rs"\n' > Cargo.toml
printf '.shell echo corpus15 fixture\n' > script.sql
cp script.sql q.sql
cp script.sql init.sql
printf 'script-shell=/tmp/other15/sh\n' > npmrc
printf 'repos: []\n' > pc.yaml
printf 'services:\n  x:\n    image: alpine\n    privileged: true\n' > compose.yml
printf '{}\n' > dockercfg
printf 'FROM alpine\n' > Dockerfile
printf 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n' > job.yaml
printf 'bucket = "b"\n' > backend.hcl
printf 'example.com\n' > names
printf 'link set lo up\n' > ip.cmds
printf 'x.tmp\n' > list
printf '[core]\n\tpager = false\n' > gitconfig
printf '{}\n' > settings.json
printf '127.0.0.1 localhost\n' > hosts
printf '* * * * * echo corpus15 fixture\n' > cron
cp cron job
printf 'return 1\n' > x.lua
printf -- '-e /tmp/other15\n' > req.txt
printf '[client]\npager = /tmp/other15/x\n' > my.cnf
printf '[Unit]\nDescription=fixture\n[Service]\nExecStart=/tmp/other15/x\n' > x.service
printf '\\set QUIET 1\n' > psqlrc
git init -q && git config core.fsmonitor /tmp/other15/fs
