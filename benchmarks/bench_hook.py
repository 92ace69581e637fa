"""Benchmark of the agent adapters' fast path (issue 12; not a test: it only prints figures).

Run from the repository root::

    python benchmarks/bench_hook.py [--runs 20] [--python /opt/flybot/bin/python]

``flybot hook claude-code`` runs on every Bash call of a Claude Code session. This measures, in the same run and
interleaved (so machine load hits both alike), the wall time of:

* ``python -c pass`` (the baseline: the same interpreter starting and stopping);
* ``python -m bot hook claude-code`` answering a PreToolUse event for ``ls -la`` (allowed locally: no network call);
* ``python -m bot exec -- true`` and ``python -m bot classify -- ls -la`` (the other light commands);
* ``python -m bot hook claude-code --contained --ceiling read_only`` answering ``apt-get install -y jq`` (above the
  ceiling), covered by
  a standing approval: an auto-answered escalation (one POST to a ``flybot serve`` started for the run, local mode
  on a fresh SQLite database, answered ``approved`` at once), checked to be answered by the standing approval;
* the hook again without bytecode (``PYTHONDONTWRITEBYTECODE=1`` and an empty cache: every module compiled from
  source, as in an editable install under that setting; ``pip install`` writes the bytecode once at install time).

It prints the median and the best of ``--runs`` runs, the ratio of medians to the baseline (goal: at most 3x for
the fast path and for the auto-answered escalation), the
median CPU time (user + system) and its ratio, which a busy machine disturbs less than wall time, and
the top of the import-time profiles (``python -X importtime``) of the fast path and of the escalation. Bytecode goes to a temporary
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
import asyncio
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import add_bot, database, flybot_server  # noqa: E402


def _event(command: str, tool_use_id: str | None) -> bytes:
    event = {
        "session_id": "bench",
        "cwd": str(ROOT),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "bench"},
    }
    return json.dumps({**event, "tool_use_id": tool_use_id} if tool_use_id else event).encode()


EVENT = _event("ls -la", "toolu_bench")
#: Contained, above the ``read_only`` ceiling, covered by the run's standing approval (``apt-get install``). No
#: ``tool_use_id``: every run's escalation gets a fresh Idempotency-Key, so each one is a new escalation.
COVERED = _event("apt-get install -y jq", None)
FAST, AUTO = "flybot hook claude-code (ls -la)", "hook, auto-answered escalation"


Cases = dict[str, tuple[list[str], dict[str, str], bytes]]


def _source_tree(warm: str, cold: str, env: dict[str, str]) -> Cases:
    """This source tree with the running interpreter (``python -m bot``)."""
    py = sys.executable
    return {
        "python -c pass": ([py, "-X", f"pycache_prefix={warm}", "-c", "pass"], env, b""),
        "python -S -c pass": ([py, "-S", "-c", "pass"], env, b""),
        "flybot hook claude-code (ls -la)": (
            [py, "-X", f"pycache_prefix={warm}", "-m", "bot", "hook", "claude-code"],
            env,
            EVENT,
        ),
        "flybot exec -- true": ([py, "-X", f"pycache_prefix={warm}", "-m", "bot", "exec", "--", "true"], env, b""),
        "flybot classify -- ls -la": (
            [py, "-X", f"pycache_prefix={warm}", "-m", "bot", "classify", "--", "ls", "-la"],
            env,
            b"",
        ),
        "hook without bytecode": (
            [py, "-X", f"pycache_prefix={cold}", "-m", "bot", "hook", "claude-code"],
            {**env, "PYTHONDONTWRITEBYTECODE": "1"},
            EVENT,
        ),
        AUTO: (
            [
                py,
                "-X",
                f"pycache_prefix={warm}",
                "-m",
                "bot",
                "hook",
                "claude-code",
                "--contained",
                "--ceiling",
                "read_only",
            ],
            env,
            COVERED,
        ),
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
        AUTO: ([script, "hook", "claude-code", "--contained", "--ceiling", "read_only"], env, COVERED),
    }


def timed(
    argv: list[str], env: dict[str, str], stdin: bytes = b"", cwd: Path = ROOT, expect: bytes = b""
) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one run; the run must succeed (a failed run would time the wrong
    thing). CPU time leaves out the time spent waiting for a core, so it moves less with the machine's load; it is
    read as the growth of this process's reaped-children usage (runs are one at a time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, env=env, cwd=cwd, capture_output=True)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or expect not in done.stdout:
        sys.exit(
            f"{' '.join(argv)} failed ({done.returncode}): {done.stdout.decode()[-500:]}{done.stderr.decode()[-500:]}"
        )
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _profile(python: str, argv: list[str], env: dict[str, str], stdin: bytes, where: Path) -> list[tuple[int, str]]:
    """``(cumulative microseconds, module)`` of every import of one run of ``argv`` (``python ...`` or a console
    script of ``python``) under ``-X importtime``."""
    command = [python, "-X", "importtime", *(argv[1:] if argv[0] == python else argv)]
    err = subprocess.run(command, input=stdin, env=env, cwd=where, capture_output=True).stderr.decode()
    rows = []
    for line in err.splitlines():
        if line.startswith("import time:") and "|" in line and "cumulative" not in line:
            _, cumulative, name = line.removeprefix("import time:").split("|")
            rows.append((int(cumulative), name.rstrip()))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--python", help="an installed FlyBot's interpreter (its flybot script is next to it)")
    asyncio.run(_main(parser.parse_args()))


async def _main(options: argparse.Namespace) -> None:
    """Start FlyBot (for the auto-answered escalation), then time every case; the timing itself is synchronous
    (FlyBot runs in its own process)."""
    runs = options.runs
    base_env = {
        k: v for k, v in os.environ.items() if not k.startswith(("FLYBOT_", "SLACK_", "PYTHONDONTWRITE", "PYTHONPATH"))
    }
    with (
        tempfile.TemporaryDirectory() as warm,
        tempfile.TemporaryDirectory() as cold,
        tempfile.TemporaryDirectory() as empty,
        tempfile.TemporaryDirectory() as state,
    ):
        async with database("sqlite") as url:
            token = await add_bot(url, standing_pattern="apt-get install")
            async with flybot_server(url, Path(state), rate_per_minute="1000000") as server:
                base_env.update({"FLYBOT_URL": server.url, "FLYBOT_TOKEN": token})
                if options.python:
                    cases = _installed(options.python, base_env)
                    where = Path(empty)
                else:
                    cases = _source_tree(warm, cold, {**base_env, "PYTHONPATH": str(ROOT)})
                    where = ROOT
                times, cpu, profiles = _measure(cases, runs, where, options.python or sys.executable)

    baseline = statistics.median(times["python -c pass"])
    cpu_baseline = statistics.median(cpu["python -c pass"])
    print(
        f"{runs} runs each, interleaved; {'installed: ' + options.python if options.python else 'source tree: ' + sys.executable}"
        f"; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(f"  {'':<36} {'wall median / best':>22} {'ratio':>6}   {'CPU median':>10} {'ratio':>6}")
    for name, values in times.items():
        median, used = statistics.median(values), statistics.median(cpu[name])
        print(
            f"  {name:<36} {median * 1000:8.1f} ms / {min(values) * 1000:6.1f} ms {median / baseline:5.2f}x"
            f"   {used * 1000:7.1f} ms {used / cpu_baseline:5.2f}x"
        )
    for label, name in (("hook fast path", FAST), ("auto-answered escalation", AUTO)):
        ratio = statistics.median(times[name]) / baseline
        cpu_ratio = statistics.median(cpu[name]) / cpu_baseline
        print(
            f"{label}: {ratio:.2f}x python -c pass in wall time (goal <= 3x): {'met' if ratio <= 3 else 'NOT met'};"
            f" {cpu_ratio:.2f}x in CPU time"
        )

    for name, rows in profiles.items():
        print(f"{name}: import-time profile (-X importtime), top 12 by cumulative microseconds:")
        for micros, module in sorted(rows, reverse=True)[:12]:
            print(f"  {micros:8d} us  {module}")
        heavy = [
            n.strip()
            for _, n in rows
            if n.strip().split(".")[0]
            in ("sqlalchemy", "alembic", "aiohttp", "asyncio", "pydantic", "structlog", "slack_bolt", "slack_sdk")
        ]
        print(f"  heavy modules imported: {', '.join(heavy) if heavy else 'none'}")


def _measure(
    cases: Cases, runs: int, where: Path, python: str
) -> tuple[dict[str, list[float]], dict[str, list[float]], dict[str, list[tuple[int, str]]]]:
    """Warm up, then time every case ``runs`` times, interleaved; and profile the two hook cases' imports."""
    expect = {AUTO: b"approved by standing approval"}
    for name, (argv, env, stdin) in cases.items():  # warm-up: writes the bytecode (except for the cold case)
        timed(argv, env, stdin, where, expect.get(name, b""))
    times: dict[str, list[float]] = {name: [] for name in cases}
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, (argv, env, stdin) in cases.items():
            wall, used = timed(argv, env, stdin, where, expect.get(name, b""))
            times[name].append(wall)
            cpu[name].append(used)
    profiles = {name: _profile(python, *cases[name], where) for name in (FAST, AUTO)}
    return times, cpu, profiles


if __name__ == "__main__":
    main()
