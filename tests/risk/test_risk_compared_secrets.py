"""A secret variable compared or evaluated by a test, ``case`` or arithmetic shows its value (bot/risk/walker.py
``compared_secrets``, bash(1) CONDITIONAL EXPRESSIONS and ARITHMETIC EVALUATION): ``BASH_REMATCH`` holds it, a loop
of pattern guesses spells it, an arithmetic error message prints it. A secret-read (network); asking whether it is
set, whether it names a file, or its length stays read-only."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
NET = RiskLevel.NETWORK
TOKEN = "wJalrXUtnFEMI/K7MDENG+bPxRfiCY"


@pytest.mark.parametrize(
    "command",
    [
        "[[ $GITHUB_TOKEN =~ ^(.*)$ ]] && echo ${BASH_REMATCH[1]}",
        "for c in a b c; do [[ $GITHUB_TOKEN == *$c* ]] && echo $c; done",
        "for c in {a..z}; do case $GITHUB_TOKEN in $c*) echo $c;; esac; done",
        '[ "$AWS_SECRET_ACCESS_KEY" -eq 1 ]',
        "[[ AWS_SECRET_ACCESS_KEY -eq 1 ]]",
        "(( AWS_SECRET_ACCESS_KEY == 3 ))",
        "echo $(( AWS_SECRET_ACCESS_KEY ))",
        '[ "$GITHUB_TOKEN" = abc ] && echo yes',
        '[[ "${GITHUB_TOKEN:0:1}" == g ]]',
        "[[ -n $PASSWORD && $PASSWORD == a* ]]",
    ],
)
def test_compared_secrets_are_secret_reads(command: str) -> None:
    assessment = classify(command, contained=False)
    assert assessment.risk >= NET, assessment.reasons
    assert any(r.rule == "secret-read" for r in assessment.reasons)


@pytest.mark.parametrize(
    "command",
    [
        "[[ -n $GITHUB_TOKEN ]]",
        '[ -n "$GITHUB_TOKEN" ] && echo set',
        '[[ -z "${GITHUB_TOKEN}" ]] || echo set',
        "[[ $GITHUB_TOKEN ]]",
        "[[ -f $GOOGLE_APPLICATION_CREDENTIALS ]]",
        "echo ${#GITHUB_TOKEN}",
        "(( ${#GITHUB_TOKEN} > 3 ))",
        "[[ $x == y ]] && echo ok",
        "(( COUNT > 3 ))",
        "case $1 in a) echo a;; esac",
    ],
)
def test_asking_whether_it_is_set_stays_read_only(command: str) -> None:
    assert classify(command, contained=False).risk == RO


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(
    "command",
    [
        "[[ $AWS_SECRET_ACCESS_KEY =~ ^(.*)$ ]] && echo ${BASH_REMATCH[1]}",
        '[ "$AWS_SECRET_ACCESS_KEY" -eq 1 ]',
        "(( AWS_SECRET_ACCESS_KEY == 3 ))",
    ],
)
def test_bash_shows_the_value(command: str) -> None:
    """Real bash prints the value, on its output or in its error message."""
    env = {**os.environ, "AWS_SECRET_ACCESS_KEY": TOKEN}
    run = subprocess.run(["bash", "-c", command], env=env, capture_output=True, text=True, check=False)
    assert TOKEN.split("/")[0] in run.stdout + run.stderr, (run.stdout, run.stderr)
    assert classify(command, contained=False).risk >= NET
