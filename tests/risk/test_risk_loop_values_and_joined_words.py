"""Variables followed into loop bodies for secret reads, too many spellings failing closed, one shell word that the
parser gives as two nodes, and words whose every variable is certain naming exactly their spellings."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel

W = Path("/srv/flybot-test-workspace")


def _graded(command: str) -> tuple[RiskLevel, list[str]]:
    graded = classify(command, contained=False, workspace=W)
    return graded.risk, [reason.rule for reason in graded.reasons]


@pytest.mark.parametrize(
    "command",
    [
        "a=/root/.ne; for b in trc q; do cat $a$b; done",
        "for a in /root/.ne x; do for b in trc; do cat $a$b; done; done",
        "k=~/.ssh; while true; do cat $k/id_rsa; break; done",
        "d=/root; f() { cat $d/.netrc; }; f",
        # more combinations than are followed: a name only known when it runs, graded as reading a secret
        'for a in /root/.ne x y z; do for b in trc q w e r; do for d in "" 1 2 3 4; do cat $a$b$d; done; done; done',
    ],
)
def test_a_body_reads_what_a_variable_held_where_it_began(command: str) -> None:
    risk, rules = _graded(command)
    assert risk >= RiskLevel.NETWORK and "secret-read" in rules, rules  # a function call is also unrecognised


@pytest.mark.parametrize(
    "command",
    [
        "x=src; for f in a b; do cat $x/$f.py; done",
        'd=docs; for f in a b; do cat "$d/$f.md"; done',
        "for f in a b c; do cat src/$f.py; done",
        "x=src; cat $x/a.py",
        "x=src; f=a; cat $x/$f.py",
    ],
)
def test_a_body_or_word_naming_only_workspace_files_stays_a_read(command: str) -> None:
    assert _graded(command)[0] == RiskLevel.READ_ONLY


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("x=/root; f=.netrc; cat $x/$f", RiskLevel.NETWORK),
        ("x=/root/; f=netrc; cat $x.$f.bak", RiskLevel.NETWORK),
        ("x=~/.ssh; f=id_rsa; cat $x/$f.pub $x/$f.key", RiskLevel.NETWORK),
        ("x=src; f=a; cat $x/$f.py b.txt", RiskLevel.READ_ONLY),
    ],
)
def test_text_with_no_blank_between_is_one_word_however_the_parser_splits_it(command: str, grade: RiskLevel) -> None:
    """tree-sitter-bash gives ``$x/$f.py`` as the nodes ``$x/$`` and ``f.py``; bash splits words only at blanks."""
    assert _graded(command)[0] == grade
