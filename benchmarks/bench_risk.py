"""Benchmark of the command risk classifier (not a test: it only prints figures).

Run from the repository root::

    python benchmarks/bench_risk.py [--rounds N]

It prints:

* throughput on a mixed corpus of typical escalation commands, on one core: the best and
  the median of ``--rounds`` rounds (each over the corpus ``--passes`` times), measured in
  CPU time of this process (``time.process_time``) so that other load on the machine counts
  less; the best wall-clock round is printed beside it;
* the classify/parse ratio: the time to classify the corpus over the time tree-sitter alone takes to
  parse it, measured back to back in each round of this run (target: at most 4x); also with every command
  walked as a parse tree (commands of plain words skip the parse, see ``walker.plain_words``);
* the cost of long scripts (1 KiB, 10 KiB, 100 KiB) to show how cost grows with length, each round with the
  classifier's caches emptied (target: a 100 KiB script under 1 s).

The classifier keeps no result cache, so every call parses and grades afresh.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.risk import classify  # noqa: E402
from bot.risk.classifier import _classify  # noqa: E402
from bot.risk.walker import parse  # noqa: E402

WORKSPACE = Path("/home/dev/project")

CORPUS: tuple[str, ...] = (
    "git status",
    "git diff --stat",
    "git log --oneline -n 20",
    "git add -A && git commit -m 'Fix the parser'",
    "git -C repo push origin main",
    "git pull --rebase",
    "ls -la",
    "ls -la src && cat README.md | head -20",
    "cat package.json",
    "grep -rn TODO src | wc -l",
    "rg -n 'fn main' src",
    "find . -name '*.py' -not -path './.venv/*' | head -50",
    "find . -name '*.pyc' -delete",
    "sed -n '1,80p' src/app.py",
    "sed -i 's/foo/bar/g' src/app.py",
    "npm test",
    "npm install",
    "npm run build -- --watch=false",
    "pnpm install --frozen-lockfile",
    "pip install -r requirements.txt",
    "python -m pytest -q tests/",
    "pytest -x tests/test_api.py::test_create",
    "cargo build --release",
    "cargo test -- --nocapture",
    "go test ./...",
    "make -j4",
    "make install",
    "mkdir -p build/out && cp dist/app.js build/out/",
    "echo hi > /tmp/x",
    "echo 'export PATH=$HOME/bin:$PATH' >> ~/.bashrc",
    "rm -rf build dist",
    "chmod +x run.sh && ./run.sh",
    "sudo apt-get install -y jq",
    "curl -fsSL https://example.com/install.sh | sh",
    "curl -o /tmp/data.json https://api.example.com/data",
    "wget -q https://example.com/file.tar.gz && tar -xzf file.tar.gz",
    "kubectl get pods -n default",
    "docker ps -a",
    "terraform plan -out=tfplan",
    "cd frontend && npm ci && npm run lint",
    'for f in src/*.py; do python -m py_compile "$f"; done',
    "if [ -f .env ]; then cat .env; fi",
    "timeout 60 npm test 2>&1 | tail -50",
    "env NODE_ENV=production node server.js",
    "xargs -n1 echo < list.txt",
    "bash -c 'ls -la && pwd'",
    "python3 -c 'print(1)'",
    "cat <<'EOF' > notes.md\n# Notes\nSome text\nEOF",
    "jq '.dependencies | keys' package.json",
    "tail -n 100 logs/app.log | grep ERROR",
)

_LINE = 'cd src && grep -n foo *.py | sort > /tmp/out.txt; echo "done $x" >> log.txt\n'


def _script(size: int) -> str:
    text = (_LINE * (size // len(_LINE) + 1))[:size]
    return text[: text.rfind("\n") + 1]


def throughput(rounds: int, passes: int) -> tuple[float, float, float]:
    """Commands per second: (best round in CPU time, median round in CPU time, best round wall clock)."""
    cpu_times: list[float] = []
    wall_times: list[float] = []
    count = len(CORPUS) * passes * 2
    for _ in range(rounds):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for _ in range(passes):
            for command in CORPUS:
                classify(command, contained=False, workspace=WORKSPACE)
                classify(command, contained=True, workspace=WORKSPACE)
        cpu_times.append(time.process_time() - cpu0)
        wall_times.append(time.perf_counter() - wall0)
    return count / min(cpu_times), count / statistics.median(cpu_times), count / min(wall_times)


def parse_only(rounds: int, passes: int) -> float:
    """Bare tree-sitter parses per CPU second on the same corpus (the floor; shows how fast this machine is now)."""
    sources = [command.encode() for command in CORPUS]
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(passes * 2):
            for source in sources:
                parse(source)
        best = min(best, time.process_time() - start)
    return len(sources) * passes * 2 / best


def ratios(rounds: int, passes: int, *, fast: bool = True) -> tuple[float, float]:
    """classify/parse time ratios on the corpus: (median of per-round ratios, ratio of the best rounds).

    Each round times one classify pass and, right after, one parse-only pass of the same commands (CPU time), so both
    see the same load on a shared machine. ``fast=False`` makes every command walk its parse tree (no plain-words path).
    """
    sources = [command.encode() for command in CORPUS]
    per_round: list[float] = []
    best_classify = best_parse = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(passes):
            for command in CORPUS:
                _classify(command, False, WORKSPACE, fast=fast)
        classify_s = time.process_time() - start
        start = time.process_time()
        for _ in range(passes):
            for source in sources:
                parse(source)
        parse_s = time.process_time() - start
        per_round.append(classify_s / parse_s)
        best_classify, best_parse = min(best_classify, classify_s), min(best_parse, parse_s)
    return statistics.median(per_round), best_classify / best_parse


def _empty_caches() -> None:
    """Empty every ``functools`` cache of the classifier's modules, so a round pays for each path it meets."""
    for name, module in list(sys.modules.items()):
        if name == "bot.risk" or name.startswith("bot.risk."):
            for value in vars(module).values():
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


def growth(rounds: int) -> list[tuple[int, float, str, int, int]]:
    """(bytes, best CPU seconds, risk, reasons, simple commands) for 1, 10 and 100 KiB scripts, each round with the
    classifier's caches emptied first (:func:`_empty_caches`)."""
    out: list[tuple[int, float, str, int, int]] = []
    for size in (1024, 10 * 1024, 100 * 1024):
        script = _script(size)
        best = float("inf")
        for _ in range(rounds):
            _empty_caches()
            start = time.process_time()
            assessment = classify(script, contained=False, workspace=WORKSPACE)
            best = min(best, time.process_time() - start)
        out.append(
            (len(script.encode()), best, assessment.risk.label, len(assessment.reasons), len(assessment.commands))
        )
    return out


def main() -> int:
    """Print the figures; returns 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--passes", type=int, default=4)
    args = parser.parse_args()
    classify("warm up", contained=False)
    best, median, wall = throughput(args.rounds, args.passes)
    print(f"corpus: {len(CORPUS)} typical commands, each graded on the host and contained; {args.rounds} rounds")
    print(
        f"throughput (one core): best round {best:,.0f} commands/s, median round {median:,.0f} commands/s (CPU time);"
    )
    print(f"                       best round {wall:,.0f} commands/s wall clock")
    parsed = parse_only(args.rounds, args.passes)
    print(f"for scale: tree-sitter parsing alone, best round {parsed:,.0f} commands/s")
    median_ratio, best_ratio = ratios(args.rounds, args.passes)
    walk_median, walk_best = ratios(args.rounds, args.passes, fast=False)
    print(
        f"classify/parse ratio: {median_ratio:.1f}x (median of rounds; {best_ratio:.1f}x best rounds) -- target: at most 4x"
    )
    print(
        f"  every command walked as a parse tree (no plain-words path): {walk_median:.1f}x ({walk_best:.1f}x best rounds)"
    )
    print("growth with script length (caches emptied before each round; target: 100 KiB under 1 s):")
    for size, seconds, risk, reasons, commands in growth(args.rounds):
        print(
            f"  {size / 1024:6.1f} KiB: {seconds:8.4f} s  ({commands} simple commands, {reasons} reasons, risk {risk})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
