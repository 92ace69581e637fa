"""Names a script assigns reach the grade of what runs after them: loop variables (``for``/``select``), ``${X:=v}``,
arithmetic assignments (``(( HOME=1 ))``, ``$((x++))``, ``let``, an array subscript, a ``[[ -eq ]]`` operand) join the command's
``environment`` (bot/standing.py then covers no command that runs with a name that is not inert), and a hijacking
name (``PATH``, ``GIT_DIR``) grades destructive however it is assigned."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

WORKSPACE = Path("/home/dev/project")


@pytest.mark.parametrize(("script", "name"), [
    ("for HOME in /ws/h; do git push origin main; done", "HOME"),
    ("select HOME in /ws/h; do git push origin main; done", "HOME"),
    ("for HOME; do git push origin main; done", "HOME"),
    ("(( HOME=1 )); git push origin main", "HOME"),
    ("(( HOME += 1 )); git push origin main", "HOME"),
    ("(( HOME++ )); git push origin main", "HOME"),
    ("(( --HOME )); git push origin main", "HOME"),
    ("echo $(( HOME = 3 )); git push origin main", "HOME"),
    ("let HOME=1; git push origin main", "HOME"),
    ("for ((HOME=0; HOME<1; HOME++)); do git push origin main; done", "HOME"),
    ("a[HOME=1]=x; git push origin main", "HOME"),
    ("[[ 1 -eq HOME=1 ]]; git push origin main", "HOME"),
    ("declare -i x=5; x=HOME=1; git push origin main", "HOME"),
    ("for i in 1 2; do apt-get install -y jq; done", "i"),
    (': "${HOME:=/tmp/evil}"; git push origin main', "HOME"),
    ("echo ${HOME=/tmp/evil}; git push origin main", "HOME"),
])  # fmt: skip
def test_loop_and_arithmetic_assignments_join_the_environment_of_what_runs_after(script: str, name: str) -> None:
    verdict = classify(script, contained=False, workspace=WORKSPACE)
    last = verdict.commands[-1]
    assert name in last.environment, (script, last)


@pytest.mark.parametrize("script", [
    "for PATH in /ws/bin; do git push origin main; done",
    "set -a; for GIT_DIR in ./b; do git push origin main; done",
    "select PATH in /ws/bin; do ls; done",
    "(( LD_PRELOAD=1 )); ls",
    "echo $(( PATH++ ))",
    ": ${GIT_DIR:=/tmp/evil}; git push origin main",
])  # fmt: skip
def test_a_hijacking_name_assigned_by_a_loop_or_arithmetic_is_destructive(script: str) -> None:
    verdict = classify(script, contained=False, workspace=WORKSPACE)
    assert verdict.risk is RiskLevel.DESTRUCTIVE, script
    assert any(r.rule == "env-hijack" for r in verdict.reasons), verdict.reasons


@pytest.mark.parametrize(("script", "risk"), [
    ('for f in *.txt; do wc -l "$f"; done', RiskLevel.READ_ONLY),
    ("(( 1 + 2 )); git push origin main", RiskLevel.NETWORK),
    ("[[ $a == --help ]] && git push origin main", RiskLevel.NETWORK),
    ("while true; do git push origin main; done", RiskLevel.NETWORK),
    ("echo ${X:-y} ${X:+y} ${#X}; git push origin main", RiskLevel.NETWORK),
])  # fmt: skip
def test_loops_and_arithmetic_that_assign_nothing_keep_their_grade_and_an_empty_environment(
    script: str, risk: RiskLevel
) -> None:
    verdict = classify(script, contained=False, workspace=WORKSPACE)
    assert verdict.risk is risk
    if "for f" in script:
        assert verdict.commands[-1].environment == ("f",)
    else:
        assert verdict.commands[-1].environment == ()
