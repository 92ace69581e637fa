"""What every compareN.py runs: grade a held-back corpus with `flybot classify --jsonl` and print the lines whose
grade differs from the expectation (hostile under, everyday over and under, doubtful), then the totals."""

from __future__ import annotations

import argparse
import json
import subprocess
from collections import Counter
from pathlib import Path

ORDER = ["read_only", "workspace_write", "network", "system", "destructive"]
HERE = Path(__file__).resolve().parent


def grade_all(flybot: str, cwd: str, commands: list[str]) -> list[dict[str, object]]:
    lines = "".join(json.dumps({"command": c, "cwd": cwd, "contained": False}) + "\n" for c in commands)
    done = subprocess.run([flybot, "classify", "--jsonl"], input=lines, capture_output=True, text=True, check=True)
    return [json.loads(x) for x in done.stdout.splitlines() if x.strip()]


def main(number: int, doubtful: dict[str, str]) -> None:
    """Grade corpus ``number`` (in its workspace /tmp/wsNUMBER) and print where it differs from the expectations;
    lines of ``doubtful`` (expectations judged wrong) are printed apart."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--cwd", default=f"/tmp/ws{number}")
    parser.add_argument("--flybot", default=".venv/bin/flybot")
    parser.add_argument("--corpus", default=str(HERE / f"corpus{number}.jsonl"))
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
        if row["command"] in doubtful and got != want:
            buckets["doubtful (expectation judged wrong)"].append(f"{line}\n      why: {doubtful[row['command']]}")
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
