"""Grade held-back corpus 15 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare15.py [--cwd /tmp/ws15] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup15.sh makes (a git repository with a Makefile,
package.json, pyproject.toml, go.mod, Cargo.toml, infra/, k8s/, chart/, src/, tests/ and .env) and a directory outside it, /tmp/other15.
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
DOUBTFUL = {
    "terraform -chdir=infra force-unlock -force 1234": "terraform force-unlock 'will not modify your infrastructure': "
    "it removes the backend's lock record (system)",
    "ip netns exec blue sh -c 'touch /tmp/other15/marker'": "the wrapped command is graded (a touch in /tmp); "
    "entering a namespace is the system grade",
    "sudo pip install requests": "a system install that pip uninstall reverses, as sudo apt-get install (system)",
    "terraform -chdir=infra providers": "it also prints the providers 'required by state', read from the backend",
    "terraform -chdir=infra graph": "it starts the installed provider binaries (workspace code)",
    "kubectl apply -f k8s/ --dry-run=client -o yaml": "client dry runs still ask the API server to map kinds",
    "kubectl apply -f k8s/deployment.yaml": "FlyBot grades changes to remote state system (programs/control.py)",
    "docker build -t app:dev .": "the image is stored in the host's engine: a change outside the workspace",
    "docker build -f Dockerfile -t app:test --target test .": "as docker build",
    "docker compose build api": "as docker build",
    "docker compose pull": "images stored in the host's engine",
    "docker pull postgres:16": "images stored in the host's engine",
    "docker run --rm alpine:3.19 uname -a": "pulls into the host's engine",
    "git diff": "the workspace tracks certs/server.key: a diff may print it",
    "git format-patch -3 -o /tmp/ws15/patches": "patches may hold the tracked key",
    "git remote -v": "remote URLs may carry tokens (https://user:token@host)",
    "git config --get remote.origin.url": "remote URLs may carry tokens",
    "npx tsc --noEmit": "the fixture has no node_modules: npx downloads the package",
    "npx eslint src": "as npx tsc",
    "npx prettier --check src": "as npx tsc",
    "cargo tree": "cargo resolves the graph and may write Cargo.lock or fetch the index",
    "cargo metadata --format-version 1 --no-deps": "as cargo tree",
    "go list -m all": "go may download module information to list the build list",
}


def grade_all(flybot: str, cwd: str, commands: list[str]) -> list[dict[str, object]]:
    lines = "".join(json.dumps({"command": c, "cwd": cwd, "contained": False}) + "\n" for c in commands)
    done = subprocess.run([flybot, "classify", "--jsonl"], input=lines, capture_output=True, text=True, check=True)
    return [json.loads(x) for x in done.stdout.splitlines() if x.strip()]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cwd", default="/tmp/ws15")
    parser.add_argument("--flybot", default=".venv/bin/flybot")
    parser.add_argument("--corpus", default=str(HERE / "corpus15.jsonl"))
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
