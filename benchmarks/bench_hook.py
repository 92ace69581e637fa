"""Benchmark of the agent adapters' fast path (issue 12; not a test: it only prints figures).

Run from the repository root::

    python benchmarks/bench_hook.py [--runs 20] [--python /opt/flybot/bin/python]

``flybot hook claude-code`` runs on every Bash call of a Claude Code session. This measures, in the same run and
interleaved (so machine load hits both alike), the wall time of:

* ``python -c pass`` (the baseline: the same interpreter starting and stopping);
* ``python -m bot hook claude-code`` answering a PreToolUse event for ``ls -la`` (allowed locally: no network call);
* ``python -m bot exec -- true`` and ``python -m bot classify -- ls -la`` (the other light commands);
* the hook again without bytecode (``PYTHONDONTWRITEBYTECODE=1`` and an empty cache: every module compiled from
  source, as in an editable install under that setting; ``pip install`` writes the bytecode once at install time).

It prints the median and the best of ``--runs`` runs, the ratio of medians to the baseline (goal: at most 3x), the
median CPU time (user + system) and its ratio, which a busy machine disturbs less than wall time, and
the top of the hook's import-time profile (``python -X importtime``). Bytecode goes to a temporary
``-X pycache_prefix`` so the source tree is left alone.

The interpreter matters to the baseline: in a development venv with an editable install (``pip install -e``), every
start of that interpreter, ``python -c pass`` too, imports the editable install's finder (pathlib, re, urllib ...),
which makes the baseline slower and the ratios smaller. ``--python`` times an installed FlyBot instead, as agents run
it: that interpreter (of a venv where ``pip install`` put flybot) and its ``flybot`` console script next to it, from
an empty working directory, without this source tree on ``PYTHONPATH``; the baseline is ``python -c pass`` with that
same interpreter. ``python -S -c pass`` (no ``site``) is printed for reference.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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


Cases = dict[str, tuple[list[str], dict[str, str], bytes]]


def _source_tree(warm: str, cold: str, env: dict[str, str]) -> Cases:
    """This source tree with the running interpreter (``python -m bot``)."""
    py = sys.executable
    return {
        "python -c pass": ([py, "-X", f"pycache_prefix={warm}", "-c", "pass"], env, b""),
        "python -S -c pass": ([py, "-S", "-c", "pass"], env, b""),
        "flybot hook claude-code (ls -la)": (
            [py, "-X", f"pycache_prefix={warm}", "-m", "bot", "hook", "claude-code"], env, EVENT),
        "flybot exec -- true": ([py, "-X", f"pycache_prefix={warm}", "-m", "bot", "exec", "--", "true"], env, b""),
        "flybot classify -- ls -la": (
            [py, "-X", f"pycache_prefix={warm}", "-m", "bot", "classify", "--", "ls", "-la"], env, b""),
        "hook without bytecode": ([py, "-X", f"pycache_prefix={cold}", "-m", "bot", "hook", "claude-code"],
                                  {**env, "PYTHONDONTWRITEBYTECODE": "1"}, EVENT),
    }


def _script(python: str) -> str:
    """The ``flybot`` console script installed next to ``python``."""
    script = Path(python).parent / "flybot"
    if not script.is_file():
        sys.exit(f"no flybot script next to {python}: install FlyBot in that venv (pip install .)")
    return str(script)


def _installed(python: str, env: dict[str, str]) -> Cases:
    """An installed FlyBot: ``python`` and the ``flybot`` console script next to it."""
    script = _script(python)
    return {
        "python -c pass": ([python, "-c", "pass"], env, b""),
        "python -S -c pass": ([python, "-S", "-c", "pass"], env, b""),
        "flybot hook claude-code (ls -la)": ([script, "hook", "claude-code"], env, EVENT),
        "flybot exec -- true": ([script, "exec", "--", "true"], env, b""),
        "flybot classify -- ls -la": ([script, "classify", "--", "ls", "-la"], env, b""),
    }


def timed(argv: list[str], env: dict[str, str], stdin: bytes = b"", cwd: Path = ROOT) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one run; the run must succeed (a failed run would time the wrong
    thing). CPU time leaves out the time spent waiting for a core, so it moves less with the machine's load; it is
    read as the growth of this process's reaped-children usage (runs are one at a time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, env=env, cwd=cwd, capture_output=True)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--python", help="an installed FlyBot's interpreter (its flybot script is next to it)")
    options = parser.parse_args()
    runs = options.runs
    base_env = {k: v for k, v in os.environ.items()
                if not k.startswith(("FLYBOT_", "SLACK_", "PYTHONDONTWRITE", "PYTHONPATH"))}
    with tempfile.TemporaryDirectory() as warm, tempfile.TemporaryDirectory() as cold, \
            tempfile.TemporaryDirectory() as empty:
        if options.python:
            cases = _installed(options.python, base_env)
            where, profiled = Path(empty), [options.python, "-X", "importtime", _script(options.python), "hook",
                                            "claude-code"]
        else:
            cases = _source_tree(warm, cold, {**base_env, "PYTHONPATH": str(ROOT)})
            where, profiled = ROOT, [sys.executable, "-X", f"pycache_prefix={warm}", "-X", "importtime", "-m", "bot",
                                     "hook", "claude-code"]
        for argv, env, stdin in cases.values():  # warm-up: writes the bytecode (except for the cold case)
            timed(argv, env, stdin, where)
        times: dict[str, list[float]] = {name: [] for name in cases}
        cpu: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(runs):
            for name, (argv, env, stdin) in cases.items():
                wall, used = timed(argv, env, stdin, where)
                times[name].append(wall)
                cpu[name].append(used)
        profile = subprocess.run(profiled, input=EVENT, env=cases["python -c pass"][1], cwd=where,
                                 capture_output=True).stderr.decode()

    baseline = statistics.median(times["python -c pass"])
    cpu_baseline = statistics.median(cpu["python -c pass"])
    print(f"{runs} runs each, interleaved; {'installed: ' + options.python if options.python else 'source tree: ' + sys.executable}"
          f"; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"  {'':<36} {'wall median / best':>22} {'ratio':>6}   {'CPU median':>10} {'ratio':>6}")
    for name, values in times.items():
        median, used = statistics.median(values), statistics.median(cpu[name])
        print(f"  {name:<36} {median * 1000:8.1f} ms / {min(values) * 1000:6.1f} ms {median / baseline:5.2f}x"
              f"   {used * 1000:7.1f} ms {used / cpu_baseline:5.2f}x")
    ratio = statistics.median(times["flybot hook claude-code (ls -la)"]) / baseline
    cpu_ratio = statistics.median(cpu["flybot hook claude-code (ls -la)"]) / cpu_baseline
    print(f"hook fast path: {ratio:.2f}x python -c pass in wall time (goal <= 3x): {'met' if ratio <= 3 else 'NOT met'};"
          f" {cpu_ratio:.2f}x in CPU time")

    rows = []
    for line in profile.splitlines():
        if line.startswith("import time:") and "|" in line and "cumulative" not in line:
            _, cumulative, name = line.removeprefix("import time:").split("|")
            rows.append((int(cumulative), name.rstrip()))
    print("hook import-time profile (-X importtime), top 15 by cumulative microseconds:")
    for micros, name in sorted(rows, reverse=True)[:15]:
        print(f"  {micros:8d} us  {name}")
    heavy = [n.strip() for _, n in rows if n.strip().split(".")[0] in ("sqlalchemy", "alembic", "aiohttp", "pydantic",
                                                                       "structlog", "slack_bolt", "slack_sdk")]
    print(f"heavy modules imported by the hook: {', '.join(heavy) if heavy else 'none'}")


if __name__ == "__main__":
    main()
