#!/bin/sh
# Make the workspace (/tmp/ws14) and the directory outside it (/tmp/other14) that corpus14.jsonl was graded in.
# Nothing here is run, and nothing here would do harm if it were: the classifier only reads these files.
set -e
WS=${1:-/tmp/ws14}
OTHER=${2:-/tmp/other14}
rm -rf "$WS" "$OTHER"
mkdir -p "$WS"/src "$WS"/tests "$WS"/docs "$WS"/data "$WS"/scripts "$WS"/dist "$WS"/media "$WS"/certs \
    "$WS"/logs "$WS"/assets "$OTHER"/tests
cd "$WS"
printf 'PYTHON ?= python3\nCC ?= cc\n\nall: build\n\nbuild:\n\tmkdir -p build\n\t$(CC) -O2 -o build/app src/main.c\n\ntest:\n\t$(PYTHON) -m pytest -q tests\n\nlint:\n\truff check src tests\n\nfmt:\n\truff format src tests\n\nclean:\n\trm -rf build\n\n.PHONY: all build test lint fmt clean\n' > Makefile
printf '{\n  "name": "ws14",\n  "version": "0.1.0",\n  "private": true,\n  "scripts": {"test": "jest", "build": "tsc -p tsconfig.json", "lint": "eslint src"},\n  "dependencies": {"lodash": "^4.17.21"},\n  "devDependencies": {"jest": "^29.7.0", "typescript": "^5.4.0", "eslint": "^8.57.0"}\n}\n' > package.json
printf '[project]\nname = "ws14"\nversion = "0.1.0"\nrequires-python = ">=3.10"\ndependencies = ["requests>=2.31"]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n' > pyproject.toml
printf 'test:\n    pytest -q\n\nbuild:\n    mkdir -p build && cc -o build/app src/main.c\n\nfmt:\n    black src tests\n\nlint:\n    ruff check src\n' > justfile
printf 'API_KEY=sk-test-1234567890\nDATABASE_URL=postgres://app:hunter2@db.internal/app\n' > .env
printf '.env\nbuild/\nnode_modules/\n.venv/\n' > .gitignore
printf '{"compilerOptions":{"outDir":"dist/js","strict":true},"include":["src"]}\n' > tsconfig.json
printf '#include <stdio.h>\nint main(void){puts("hi");return 0;}\n' > src/main.c
printf 'def main():\n    print("hi")\n\n\nif __name__ == "__main__":\n    main()\n' > src/app.py
printf 'def add(a, b):\n    return a + b\n' > src/util.py
printf 'export const x: number = 1;\n' > src/index.ts
printf 'console.log("hi");\n' > src/index.js
printf 'from src.util import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n' > tests/test_app.py
printf '# ws14\n' > README.md
printf '# notes\n' > docs/notes.md
printf 'a,1\nb,2\n' > data/sample.csv
printf '#!/bin/sh\nmake build\n' > scripts/build.sh
python3 -c 'import sqlite3; sqlite3.connect("data/app.db").execute("CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT)")'
mkdir -p "$HOME/.corpus14-home-decoy"
ln -s "$HOME/.corpus14-home-decoy" assets/shared  # a directory in the home, never the home itself
git init -q && git add -A && git -c user.email=a@b -c user.name=t commit -qm init
cd "$OTHER"
# Inert stand-ins: the classifier only reads these files (they are outside the workspace, so any recipe, script,
# configuration or test here is graded by where it is); each would only print and fail if something ran it.
printf 'test:\n\t@echo "corpus14 fixture: never run"; exit 1\n\nbuild:\n\t@echo "corpus14 fixture: never run"; exit 1\n' > Makefile
printf '{"name":"o","scripts":{"test":"echo corpus14 fixture; exit 1","build":"echo corpus14 fixture; exit 1"}}\n' > package.json
printf 'test:\n    @echo "corpus14 fixture: never run"; exit 1\n' > justfile
printf 'raise SystemExit("corpus14 fixture: never run")\n' > tests/conftest.py
cp tests/conftest.py sitecustomize.py
printf '#!/bin/sh\necho "corpus14 fixture: never run"; exit 1\n' > evil.sh
printf 'throw new Error("corpus14 fixture: never run")\n' > evil.js
printf '[core]\n\tpager = false\n' > gitconfig
printf '[pytest]\naddopts = -p corpus14_absent_plugin\n' > pytest.ini
printf '%s\n' '-e /tmp/other14' > requirements.txt
printf '[package]\nname="o"\nversion="0.1.0"\nbuild="build.rs"\n' > Cargo.toml
git init -q && git config core.pager false
