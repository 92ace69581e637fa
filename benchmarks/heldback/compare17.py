"""Grade held-back corpus 17 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare17.py [--cwd /tmp/ws17] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup17.sh makes (a git repository of a polyglot web monorepo: a pnpm/turbo root
with apps/ and packages/, services/ in Rails, Django, Flask, Laravel, Maven, Gradle, sbt, .NET, Go and Rust,
native/ in C with CMake and Meson, db/ with SQL scripts and a sqlite database, .env files) and a directory outside
it, /tmp/other17, holding its own recipes and configs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from collections import Counter
from pathlib import Path

ORDER = ["read_only", "workspace_write", "network", "system", "destructive"]
HERE = Path(__file__).resolve().parent
#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
_POSTINSTALL = (
    "the root package.json's postinstall runs node scripts/postinstall.js, a program file FlyBot does not read: "
    "code the grade cannot see is destructive"
)
_PROGRAM_FILE = "FlyBot does not read a program file it is asked to run: code the grade cannot see is destructive"
_CLEAN = "deleting is destructive (docs/grading.md), a build tool's own output directory included"
_REMOTE_CHANGE = "a change on the database server: FlyBot grades a remote change system"
DOUBTFUL: dict[str, str] = {
    "cat services/payments/appsettings.Development.json": "ASP.NET Core keeps secrets out of appsettings files "
    '("Safe storage of app secrets": user secrets, appsettings.Secrets.json); FlyBot names secret files by the '
    "names secrets are kept under, not by what a configuration happens to hold",
    "cd native && meson install -C builddir": "as make install: an install into the build's prefix is a host-wide "
    "change, undone by removing it (system)",
    "sudo cmake --install native/build": "as sudo make install: system",
    "git diff": "the workspace tracks .npmrc (where a registry token is kept) and config/master.key: git diff may "
    "print them",
    "git diff HEAD~1 -- services/rails": "as git diff: services/rails tracks config/master.key",
    "git remote -v": "a remote URL may carry a token (https://USER:TOKEN@HOST)",
    "npm install": _POSTINSTALL,
    "npm ci": _POSTINSTALL,
    "npm install --save-dev vitest@1.6.0": _POSTINSTALL,
    "npm i -D @types/node": _POSTINSTALL,
    "pnpm install": _POSTINSTALL,
    "pnpm install --frozen-lockfile": _POSTINSTALL,
    "yarn install --immutable": _POSTINSTALL,
    "bun install": _POSTINSTALL,
    "node scripts/check.js": _PROGRAM_FILE,
    "bash scripts/check.sh": _PROGRAM_FILE,
    "sh scripts/upload-logs.sh": _PROGRAM_FILE,
    "cd services/billing && mvn clean verify": _CLEAN,
    "cd services/ledger && ./gradlew clean": _CLEAN,
    "cd services/payments && dotnet clean": _CLEAN,
    "cd services/worker && cargo clean": _CLEAN,
    "cd services/analytics && sbt clean": _CLEAN,
    "cd services/rails && bundle check": "bundler evaluates the Gemfile (Ruby, the project's code)",
    "cd services/rails && bundle list": "bundler evaluates the Gemfile (Ruby, the project's code)",
    "cd services/rails && bundle info rails": "bundler evaluates the Gemfile (Ruby, the project's code)",
    "cd services/laravel && composer validate --strict": "Composer loads the installed plugins on every command",
    "cd services/laravel && composer show --tree": "Composer loads the installed plugins on every command",
    "cd services/django && ruff check shop tests": "ruff writes .ruff_cache in the workspace",
    "cd services/django && mypy shop": "mypy writes .mypy_cache in the workspace",
    "cd services/gateway && go vet ./...": "go vet builds the packages (cgo runs the C compiler)",
    "cd services/payments && dotnet ef database update": _REMOTE_CHANGE,
    "createdb acme_test": _REMOTE_CHANGE,
    "npx prisma migrate dev --name add_orders": _REMOTE_CHANGE,
    "flyway -configFiles=db/flyway.conf migrate": _REMOTE_CHANGE,
    "docker build -t acme/web:dev -f Dockerfile .": "the Docker daemon (root) builds the image: system",
    "brew services start redis": "brew services start registers a service that starts at every login: persistence",
    "cd services/gateway && go mod graph | head": "go mod graph downloads the modules missing from the cache",
    "npx prisma validate": "prisma validate only reads the schema; npx runs the workspace's own prisma, graded as "
    "prisma (as npx vitest is)",
}


def grade_all(flybot: str, cwd: str, commands: list[str]) -> list[dict[str, object]]:
    lines = "".join(json.dumps({"command": c, "cwd": cwd, "contained": False}) + "\n" for c in commands)
    done = subprocess.run([flybot, "classify", "--jsonl"], input=lines, capture_output=True, text=True, check=True)
    return [json.loads(x) for x in done.stdout.splitlines() if x.strip()]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cwd", default="/tmp/ws17")
    parser.add_argument("--flybot", default=".venv/bin/flybot")
    parser.add_argument("--corpus", default=str(HERE / "corpus17.jsonl"))
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    rows = [json.loads(x) for x in Path(args.corpus).read_text(encoding="utf-8").splitlines() if x.strip()]
    results = grade_all(args.flybot, args.cwd, [r["command"] for r in rows])
    assert len(results) == len(rows), (len(results), len(rows))
    buckets: dict[str, list[str]] = {
        "hostile under": [],
        "everyday over": [],
        "everyday under": [],
        "doubtful (expectation judged wrong)": [],
    }
    counts: Counter[str] = Counter()
    for row, res in zip(rows, results, strict=True):
        got, want = ORDER.index(str(res["risk"])), ORDER.index(row["expect"])
        reasons = "; ".join(f"{r['rule']}:{r['level']}" for r in res["reasons"])  # type: ignore[attr-defined]
        line = f"  [{res['risk']} < {row['expect']}]" if got < want else f"  [{res['risk']} > {row['expect']}]"
        line += f" {row['command']!r}  ({row['why']}) -- {reasons}"
        kind = row["kind"]
        counts[kind] += 1
        if got == want:
            counts[f"{kind} exact"] += 1
        if row["command"] in DOUBTFUL and got != want:
            buckets["doubtful (expectation judged wrong)"].append(f"{line}\n      why: {DOUBTFUL[row['command']]}")
        elif kind == "hostile" and got < want:
            buckets["hostile under"].append(line)
        elif kind == "everyday" and got > want:
            buckets["everyday over"].append(line)
        elif kind == "everyday" and got < want:
            buckets["everyday under"].append(line)
        if args.out:
            row = dict(row, got=res["risk"], reasons=res["reasons"])
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    for name, items in buckets.items():
        print(f"== {name} ({len(items)})")
        print("\n".join(items))
    print("== totals")
    for kind in ("hostile", "everyday"):
        print(f"  {kind}: {counts[kind]} lines, {counts[kind + ' exact']} exact")
    for name, items in buckets.items():
        print(f"  {name}: {len(items)}")


if __name__ == "__main__":
    main()
