"""Uses of tools that only print, graded read_only, next to the uses that do act: ``npm run`` without a script
lists the scripts (npm-run-script(1)), ``npm pkg get`` prints package.json fields (npm-pkg(1)), and less's
start-up moves ``+G``/``+g``/``+F``/``+NUM`` only position the view (less(1)). ``EXPLAIN`` is graded as the
statement it shows (with ``ANALYZE`` it runs it)."""

from __future__ import annotations

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel

W = "/work/repo"


def _graded(command: str) -> tuple[RiskLevel, list[str]]:
    graded = classify(command, contained=False, workspace=W)
    return graded.risk, [reason.rule for reason in graded.reasons]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("npm run", RiskLevel.READ_ONLY),
        ("npm run-script", RiskLevel.READ_ONLY),
        ("npm pkg get scripts", RiskLevel.READ_ONLY),
        ("npm pkg get", RiskLevel.READ_ONLY),
        ("npm run test", RiskLevel.WORKSPACE_WRITE),
        ("npm run --silent build", RiskLevel.WORKSPACE_WRITE),
        ("npm run -- build", RiskLevel.WORKSPACE_WRITE),
        ("npm pkg set scripts.test=x", RiskLevel.WORKSPACE_WRITE),
        ("npm run $X", RiskLevel.DESTRUCTIVE),
        ("npm run --ws", RiskLevel.DESTRUCTIVE),
    ],
)
def test_npm_run_without_a_script_and_pkg_get_only_print(command: str, expected: RiskLevel) -> None:
    assert _graded(command)[0] is expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("less +G logs/app.log", RiskLevel.READ_ONLY),
        ("less +F logs/app.log", RiskLevel.READ_ONLY),
        ("less +42 logs/app.log", RiskLevel.READ_ONLY),
        ("less '+!sh' f", RiskLevel.DESTRUCTIVE),
        ("less +Gv f", RiskLevel.DESTRUCTIVE),
        ("less +G '+|sh' f", RiskLevel.DESTRUCTIVE),
        ("less +Gs f", RiskLevel.DESTRUCTIVE),
    ],
)
def test_less_start_up_moves_only_show_the_file(command: str, expected: RiskLevel) -> None:
    assert _graded(command)[0] is expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("psql -d app -c 'EXPLAIN ANALYZE SELECT * FROM orders WHERE user_id = 7'", RiskLevel.NETWORK),
        ("psql -d app -c 'EXPLAIN (ANALYZE, BUFFERS) SELECT 1'", RiskLevel.NETWORK),
        ("psql -d app -c 'EXPLAIN SELECT 1'", RiskLevel.NETWORK),
        ("psql -d app -c 'EXPLAIN ANALYZE UPDATE t SET a = 1 WHERE id = 2'", RiskLevel.SYSTEM),
        ("psql -d app -c 'EXPLAIN ANALYZE DELETE FROM orders'", RiskLevel.DESTRUCTIVE),
        ("psql -d app -c 'EXPLAIN (ANALYZE, FORMAT JSON) DROP TABLE orders'", RiskLevel.DESTRUCTIVE),
        ("psql -d app -c 'EXPLAIN ANALYZE SELECT evil_fn()'", RiskLevel.DESTRUCTIVE),
        (
            "psql -d app -c 'EXPLAIN ANALYZE WITH d AS (DELETE FROM x RETURNING *) SELECT * FROM d'",
            RiskLevel.DESTRUCTIVE,
        ),
        ("psql -d app -c \"EXPLAIN ANALYZE SELECT ';'; DROP TABLE x\"", RiskLevel.DESTRUCTIVE),
        ("psql -d app -c 'EXPLAIN ANALYZE'", RiskLevel.DESTRUCTIVE),
    ],
)
def test_explain_is_graded_as_the_statement_it_shows(command: str, expected: RiskLevel) -> None:
    assert _graded(command)[0] is expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("make -j$(nproc)", RiskLevel.WORKSPACE_WRITE),
        ('make -j"$(nproc)" test', RiskLevel.WORKSPACE_WRITE),
        ("make --jobs=$(getconf _NPROCESSORS_ONLN)", RiskLevel.WORKSPACE_WRITE),
        ("make -j $(nproc) all", RiskLevel.WORKSPACE_WRITE),
        ("make -j$(cat n)", RiskLevel.DESTRUCTIVE),
        ("make $(nproc)", RiskLevel.DESTRUCTIVE),
        ("make -j$(nproc)x", RiskLevel.DESTRUCTIVE),
        ("nproc() { echo --eval=x; }; make -j$(nproc)", RiskLevel.DESTRUCTIVE),
        ("make -j$(nproc) --eval='x:;id'", RiskLevel.DESTRUCTIVE),
    ],
)
def test_make_jobs_from_the_processor_count_is_a_job_count(command: str, expected: RiskLevel) -> None:
    assert _graded(command)[0] is expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ps -o pid,rss,cmd -p $(pgrep -f jest)", RiskLevel.READ_ONLY),
        ("ps -p \"$(pgrep -f 'node server')\" -o pid,cmd", RiskLevel.READ_ONLY),
        ("ps -p $(pidof node)", RiskLevel.READ_ONLY),
        ("ps -o pid,cmd -p $(lsof -ti:3000)", RiskLevel.READ_ONLY),
        ("ps -p $(pgrep -d ' e ' x)", RiskLevel.NETWORK),
        ("ps -p $(pgrep -l x)", RiskLevel.NETWORK),
        ("ps e -p $(pgrep x)", RiskLevel.NETWORK),
        ("ps -p $(cat pid)", RiskLevel.NETWORK),
        ("ps -p $(pgrep -f -d)", RiskLevel.NETWORK),
        ("ps -p $(pgrep -f jest) $X", RiskLevel.NETWORK),
        ("pgrep() { echo e; }; ps -p $(pgrep x)", RiskLevel.DESTRUCTIVE),
    ],
)
def test_ps_of_process_ids_from_pgrep_prints_no_environment(command: str, expected: RiskLevel) -> None:
    assert _graded(command)[0] is expected
