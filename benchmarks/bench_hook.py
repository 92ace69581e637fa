"""Benchmark of the agent adapters' start-up (not a test: it only prints figures).

Run from the repository root::

    python benchmarks/bench_hook.py [--runs 20] [--flybot VENV/bin/flybot]

``flybot hook claude-code`` runs on every tool call of a Claude Code session. This measures, in the same run and
interleaved (so machine load hits every case alike), the wall time of:

* ``python -c pass`` (the baseline: the same interpreter starting and stopping);
* ``flybot hook claude-code`` answering a PreToolUse event for ``ls -la`` (allowed locally: no network call);
* ``flybot exec -- true`` and ``flybot classify -- ls -la`` (the other light commands);
* ``flybot hook claude-code --contained --ceiling read_only`` answering ``apt-get install -y jq`` (above the
  ceiling), covered by a standing approval: an auto-answered escalation (one POST to a ``flybot serve`` started for
  the run, local mode on a fresh SQLite database, answered ``approved`` at once), checked to be answered by the
  standing approval;

each for two installations of the current tree:

* **editable**: this source tree with the running interpreter (``python -m bot``; in the development venv, an
  editable install, whose finder every start of that interpreter imports, ``python -c pass`` too, which makes the
  baseline slower and the ratios smaller); plus the hook without bytecode (``PYTHONDONTWRITEBYTECODE=1`` and an
  empty cache: every module compiled from source). Bytecode goes to a temporary ``-X pycache_prefix`` so the source
  tree is left alone;
* **installed**, as agents run it: a normal ``pip install`` of this tree into a throwaway venv built for the run
  (or the ``flybot`` console script given with ``--flybot``, with the interpreter its first line names), started
  from an empty working directory without this tree on ``PYTHONPATH``.

Each installation is compared with its own interpreter's ``python -c pass``. It prints the median and the best of
``--runs`` runs, the ratio of medians to the baseline, the median CPU time (user + system) and its ratio, which a
busy machine disturbs less than wall time; the instructions executed by the baseline, the fast path and the
auto-answered escalation, counted by valgrind (``--tool=callgrind``, one run each; ``--no-valgrind`` skips them),
which the machine's load does not change: the goal, at most 3x ``python -c pass`` for the fast path and the
auto-answered escalation, is judged on these; and the top of the installed hook's import-time profiles
(``python -X importtime``). The adapters keep their state
(the program rules' copy) in a temporary directory.
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
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _servers import add_bot, database, flybot_server  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator


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


def _interpreter(script: str) -> str:
    """The interpreter a ``flybot`` console script runs with (its ``#!`` line)."""
    try:
        first = Path(script).read_text().splitlines()[0]
    except (OSError, UnicodeDecodeError, IndexError):
        sys.exit(f"{script} is not a flybot console script")
    if not first.startswith("#!") or not Path(first[2:].strip()).is_file():
        sys.exit(f"{script} does not name its interpreter on its first line")
    return first[2:].strip()


@contextmanager
def _installation(flybot: str | None) -> Iterator[str]:
    """The ``flybot`` console script to time: ``flybot``, else one ``pip install`` puts into a throwaway venv."""
    if flybot:
        yield flybot
        return
    with tempfile.TemporaryDirectory() as where:
        venv = Path(where) / "venv"
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        done = subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(ROOT)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            sys.exit(f"pip install {ROOT} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
        print(f"installed this tree into a throwaway venv ({time.monotonic() - started:.0f} s)", flush=True)
        yield str(venv / "bin" / "flybot")


def _installed(script: str, env: dict[str, str]) -> Cases:
    """An installed FlyBot: its ``flybot`` console script and the interpreter that script runs with."""
    python = _interpreter(script)
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


def instructions(argv: list[str], env: dict[str, str], stdin: bytes, cwd: Path, expect: bytes = b"") -> int:
    """Instructions one run of ``argv`` executes, counted by valgrind (``--tool=callgrind``): the same from run to
    run within a few per cent, whatever the machine's load. The run must succeed. A console script is started
    through its interpreter (``python SCRIPT ...``: what its ``#!`` line does)."""
    if not Path(argv[0]).name.startswith("python"):
        argv = [_interpreter(argv[0]), *argv]
    with tempfile.TemporaryDirectory() as where:
        out = Path(where) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv],
            input=stdin,
            env=env,
            cwd=cwd,
            capture_output=True,
        )
        err = done.stderr.decode(errors="replace")
        if done.returncode != 0 or expect not in done.stdout:
            sys.exit(
                f"valgrind {' '.join(argv)} failed ({done.returncode}): {done.stdout.decode()[-500:]}{err[-1500:]}"
            )
        for line in err.splitlines():
            if "Collected :" in line:
                return int(line.rsplit(":", 1)[1].split()[0].replace(",", ""))
    sys.exit(f"valgrind printed no instruction count for {' '.join(argv)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument(
        "--no-valgrind", action="store_true", help="skip the instruction counts (valgrind's callgrind, ~1 minute)"
    )
    parser.add_argument(
        "--flybot", help="an installed flybot console script to time (default: pip install this tree into a venv)"
    )
    asyncio.run(_main(parser.parse_args()))


EDITABLE, INSTALLED = "editable", "installed"


async def _main(options: argparse.Namespace) -> None:
    """Install (unless given), start FlyBot (for the auto-answered escalation), then time every case of both
    installations, interleaved; the timing itself is synchronous (FlyBot runs in its own process)."""
    runs = options.runs
    base_env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("FLYBOT_", "SLACK_", "PYTHONDONTWRITE", "PYTHONPATH", "XDG_STATE_HOME"))
    }
    with (
        _installation(options.flybot) as script,
        tempfile.TemporaryDirectory() as warm,
        tempfile.TemporaryDirectory() as cold,
        tempfile.TemporaryDirectory() as empty,
        tempfile.TemporaryDirectory() as state,
        tempfile.TemporaryDirectory() as adapter_state,
    ):
        async with database("sqlite") as url:
            token = await add_bot(url, standing_pattern="apt-get install")
            async with flybot_server(url, Path(state), rate_per_minute="1000000") as server:
                base_env.update({"FLYBOT_URL": server.url, "FLYBOT_TOKEN": token, "FLYBOT_STATE_DIR": adapter_state})
                installations = {
                    EDITABLE: (_source_tree(warm, cold, {**base_env, "PYTHONPATH": str(ROOT)}), ROOT),
                    INSTALLED: (_installed(script, base_env), Path(empty)),
                }
                times, cpu = _measure(installations, runs)
                counted = {} if options.no_valgrind else _count(installations)
                python = _interpreter(script)
                profiles = {
                    name: _profile(python, *installations[INSTALLED][0][name], Path(empty)) for name in (FAST, AUTO)
                }

    print(
        f"{runs} runs each, interleaved; editable: {sys.executable}; installed: {script}"
        f"; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    for kind in (EDITABLE, INSTALLED):
        baseline = statistics.median(times[kind, "python -c pass"])
        cpu_baseline = statistics.median(cpu[kind, "python -c pass"])
        print(f"{kind}:")
        print(f"  {'':<36} {'wall median / best':>22} {'ratio':>6}   {'CPU median':>10} {'ratio':>6}")
        for name in installations[kind][0]:
            values, used = times[kind, name], statistics.median(cpu[kind, name])
            median = statistics.median(values)
            print(
                f"  {name:<36} {median * 1000:8.1f} ms / {min(values) * 1000:6.1f} ms {median / baseline:5.2f}x"
                f"   {used * 1000:7.1f} ms {used / cpu_baseline:5.2f}x"
            )
    for kind in (EDITABLE, INSTALLED):
        baseline = statistics.median(times[kind, "python -c pass"])
        cpu_baseline = statistics.median(cpu[kind, "python -c pass"])
        for label, name in (("hook fast path", FAST), ("auto-answered escalation", AUTO)):
            ratio = statistics.median(times[kind, name]) / baseline
            cpu_ratio = statistics.median(cpu[kind, name]) / cpu_baseline
            print(
                f"{kind}, {label}: {ratio:.2f}x python -c pass in wall time, {cpu_ratio:.2f}x in CPU time"
                " (the goal is judged on instructions)"
            )

    if counted:
        print("instructions (valgrind --tool=callgrind, one run each; load does not change them):")
        for kind in (EDITABLE, INSTALLED):
            baseline_count = counted[kind, "python -c pass"]
            for name in ("python -c pass", FAST, AUTO):
                ratio = counted[kind, name] / baseline_count
                goal = "" if name == "python -c pass" else f" (goal <= 3x): {'met' if ratio <= 3 else 'NOT met'}"
                print(f"  {kind:<9} {name:<36} {counted[kind, name] / 1e6:7.1f} M {ratio:5.2f}x{goal}")

    for name, rows in profiles.items():
        print(f"installed, {name}: import-time profile (-X importtime), top 12 by cumulative microseconds:")
        for micros, module in sorted(rows, reverse=True)[:12]:
            print(f"  {micros:8d} us  {module}")
        heavy = [
            n.strip()
            for _, n in rows
            if n.strip().split(".")[0]
            in ("sqlalchemy", "alembic", "aiohttp", "asyncio", "pydantic", "structlog", "slack_bolt", "slack_sdk")
        ]
        print(f"  heavy modules imported: {', '.join(heavy) if heavy else 'none'}")


def _count(installations: dict[str, tuple[Cases, Path]]) -> dict[tuple[str, str], int]:
    """Instructions of the baseline, the hook's fast path and the auto-answered escalation, for every installation
    (after :func:`_measure`'s warm-up: bytecode written)."""
    expect = {AUTO: b"approved by standing approval"}
    return {
        (kind, name): instructions(*cases[name], where, expect.get(name, b""))
        for kind, (cases, where) in installations.items()
        for name in ("python -c pass", FAST, AUTO)
    }


def _measure(
    installations: dict[str, tuple[Cases, Path]], runs: int
) -> tuple[dict[tuple[str, str], list[float]], dict[tuple[str, str], list[float]]]:
    """Warm up, then time every case of every installation ``runs`` times, interleaved."""
    expect = {AUTO: b"approved by standing approval"}
    every = [
        (kind, name, *case, where) for kind, (cases, where) in installations.items() for name, case in cases.items()
    ]
    for _kind, name, argv, env, stdin, where in every:  # warm-up: writes the bytecode (except for the cold case)
        timed(argv, env, stdin, where, expect.get(name, b""))
    times: dict[tuple[str, str], list[float]] = {(kind, name): [] for kind, name, *_ in every}
    cpu: dict[tuple[str, str], list[float]] = {(kind, name): [] for kind, name, *_ in every}
    for _ in range(runs):
        for kind, name, argv, env, stdin, where in every:
            wall, used = timed(argv, env, stdin, where, expect.get(name, b""))
            times[kind, name].append(wall)
            cpu[kind, name].append(used)
    return times, cpu


if __name__ == "__main__":
    main()
