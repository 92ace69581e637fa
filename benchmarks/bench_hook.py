"""Benchmark of the agent adapters' fast path (issue 12; not a test: it only prints figures).

Run from the repository root::

    python benchmarks/bench_hook.py [--runs 20]

``flybot hook claude-code`` runs on every Bash call of a Claude Code session. This measures, in the same run and
interleaved (so machine load hits both alike), the wall time of:

* ``python -c pass`` (the baseline: the same interpreter starting and stopping);
* ``python -m bot hook claude-code`` answering a PreToolUse event for ``ls -la`` (allowed locally: no network call);
* ``python -m bot exec -- true`` and ``python -m bot classify -- ls -la`` (the other light commands);
* the hook again without bytecode (``PYTHONDONTWRITEBYTECODE=1`` and an empty cache: every module compiled from
  source, as in an editable install under that setting; ``pip install`` writes the bytecode once at install time).

It prints the median and the best of ``--runs`` runs, the ratio of medians to the baseline (goal: at most 3x), and
the top of the hook's import-time profile (``python -X importtime``). Bytecode goes to a temporary
``-X pycache_prefix`` so the source tree is left alone.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVENT = json.dumps({
    "session_id": "bench", "cwd": str(ROOT), "permission_mode": "default", "hook_event_name": "PreToolUse",
    "tool_name": "Bash", "tool_input": {"command": "ls -la", "description": "list"}, "tool_use_id": "toolu_bench",
}).encode()


def timed(argv: list[str], env: dict[str, str], stdin: bytes = b"") -> float:
    """Wall seconds of one run; the run must succeed (a failed run would time the wrong thing)."""
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, env=env, cwd=ROOT, capture_output=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    py = sys.executable
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("FLYBOT_", "SLACK_", "PYTHONDONTWRITE"))}
    base_env["PYTHONPATH"] = str(ROOT)
    with tempfile.TemporaryDirectory() as warm, tempfile.TemporaryDirectory() as cold:
        cases: dict[str, tuple[list[str], dict[str, str], bytes]] = {
            "python -c pass": ([py, "-X", f"pycache_prefix={warm}", "-c", "pass"], base_env, b""),
            "flybot hook claude-code (ls -la)": (
                [py, "-X", f"pycache_prefix={warm}", "-m", "bot", "hook", "claude-code"], base_env, EVENT),
            "flybot exec -- true": ([py, "-X", f"pycache_prefix={warm}", "-m", "bot", "exec", "--", "true"], base_env, b""),
            "flybot classify -- ls -la": (
                [py, "-X", f"pycache_prefix={warm}", "-m", "bot", "classify", "--", "ls", "-la"], base_env, b""),
            "hook without bytecode": ([py, "-X", f"pycache_prefix={cold}", "-m", "bot", "hook", "claude-code"],
                                      {**base_env, "PYTHONDONTWRITEBYTECODE": "1"}, EVENT),
        }
        for argv, env, stdin in cases.values():  # warm-up: writes the bytecode (except for the cold case)
            timed(argv, env, stdin)
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(runs):
            for name, (argv, env, stdin) in cases.items():
                times[name].append(timed(argv, env, stdin))
        profile = subprocess.run(
            [py, "-X", f"pycache_prefix={warm}", "-X", "importtime", "-m", "bot", "hook", "claude-code"],
            input=EVENT, env=base_env, cwd=ROOT, capture_output=True,
        ).stderr.decode()

    baseline = statistics.median(times["python -c pass"])
    print(f"{runs} runs each, interleaved; wall seconds (median / best); ratio of medians to python -c pass")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:<36} {median * 1000:7.1f} ms / {min(values) * 1000:7.1f} ms   {median / baseline:5.2f}x")
    ratio = statistics.median(times["flybot hook claude-code (ls -la)"]) / baseline
    print(f"hook fast path: {ratio:.2f}x python -c pass (goal <= 3x): {'met' if ratio <= 3 else 'NOT met'}")

    rows = []
    for line in profile.splitlines():
        if line.startswith("import time:") and "|" in line and "cumulative" not in line:
            _, cumulative, name = line.removeprefix("import time:").split("|")
            rows.append((int(cumulative), name.rstrip()))
    print("hook import-time profile (-X importtime), top 15 by cumulative microseconds:")
    for cumulative, name in sorted(rows, reverse=True)[:15]:
        print(f"  {cumulative:8d} us  {name}")
    heavy = [n.strip() for _, n in rows if n.strip().split(".")[0] in ("sqlalchemy", "alembic", "aiohttp", "pydantic",
                                                                       "structlog", "slack_bolt", "slack_sdk")]
    print(f"heavy modules imported by the hook: {', '.join(heavy) if heavy else 'none'}")


if __name__ == "__main__":
    main()
