"""Grade held-back corpus 18 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare18.py [--cwd /tmp/ws18] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup18.sh makes (a git repository of a C/C++/Rust/Zig/Go embedded and game
project: CMakeLists.txt and presets, Makefile, kmod/, Cargo workspace, build.zig, go.mod, meson.build, conanfile.py,
firmware/platformio.ini, esp/, a Zephyr app/, game/ and unity/, .gdbinit, .lldbinit, .env, and build/ outputs) and a
directory outside it, /tmp/other18.
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
DOUBTFUL: dict[str, str] = {}


def grade_all(flybot: str, cwd: str, commands: list[str]) -> list[dict[str, object]]:
    lines = "".join(json.dumps({"command": c, "cwd": cwd, "contained": False}) + "\n" for c in commands)
    done = subprocess.run([flybot, "classify", "--jsonl"], input=lines, capture_output=True, text=True, check=True)
    return [json.loads(x) for x in done.stdout.splitlines() if x.strip()]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cwd", default="/tmp/ws18")
    parser.add_argument("--flybot", default=".venv/bin/flybot")
    parser.add_argument("--corpus", default=str(HERE / "corpus18.jsonl"))
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
