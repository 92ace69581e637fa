"""Each program's options are read as the program reads them: a flag spelled in full is that flag, never an
abbreviation of a longer option taking a value (getopt_long, optparse: an exact name wins), a short flag takes no
value, an option with an optional argument takes only an attached one, and an option the program gives a value
takes its value. Otherwise the word after it is swallowed and an output, a local source or the real command is
missed (pip ``install --upgrade``/``--pre``, ``install --strip``, shuf ``-e``, watch ``-d``, tree ``--fromfile``,
yq ``-P``, sudo ``-a``/``-c``, env ``-a``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel


@pytest.mark.parametrize(
    ("command", "least"),
    [
        # pip(1) install: -U/--upgrade and --pre are flags, not --upgrade-strategy/--prefix
        ("pip install --upgrade ../outside-pkg", R.DESTRUCTIVE),
        ("pip install --pre ../outside-pkg", R.DESTRUCTIVE),
        ("pip install --upgrade --log /etc/cron.d/job requests", R.DESTRUCTIVE),
        # shuf(1): -e/--echo takes no value, so -o FILE after it is still the output
        ("shuf -e -o /etc/cron.d/job a b", R.DESTRUCTIVE),
        ("shuf --echo -o /etc/cron.d/job a b", R.DESTRUCTIVE),
        # watch(1): -d/--differences[=permanent] takes only an attached value; the next word is the command
        ("watch -d dd if=/dev/zero of=/dev/sda", R.DESTRUCTIVE),
        ("watch --differences dd if=/dev/zero of=/dev/sda", R.DESTRUCTIVE),
        # tree(1): --fromfile takes no value
        ("tree --fromfile -o /etc/cron.d/job list.txt", R.DESTRUCTIVE),
        # yq: -P/--prettyPrint takes no value, so -i after it still rewrites the file
        ("yq -P -i .a=1 /etc/cron.d/job", R.DESTRUCTIVE),
        ("yq --prettyPrint -i .a=1 /etc/cron.d/job", R.DESTRUCTIVE),
        # sudo(8): -a TYPE and -c CLASS take a value; the command after them runs
        ("sudo -a ls rm -rf /tmp/flybot-optaudit-decoy", R.DESTRUCTIVE),
        ("sudo -c ls touch /etc/cron.d/job", R.DESTRUCTIVE),
        ("sudo --auth-type=ls rm -rf /tmp/flybot-optaudit-decoy", R.DESTRUCTIVE),
        ("sudo --login-class ls rm -rf /tmp/flybot-optaudit-decoy", R.DESTRUCTIVE),
        # env(1): -a/--argv0 ARG takes a value; the command after it runs
        ("env -a ls rm -rf /tmp/flybot-optaudit-decoy", R.DESTRUCTIVE),
        ("env --argv0 ls touch /etc/cron.d/job", R.DESTRUCTIVE),
        ("env -i -als rm -rf /tmp/flybot-optaudit-decoy", R.DESTRUCTIVE),
        # install(1): --strip-program still runs a program (spelled in full or abbreviated past --strip)
        ("install --strip-program=./x a bin/a", R.DESTRUCTIVE),
        ("install --strip-p ./x a bin/a", R.DESTRUCTIVE),
    ],
)
def test_the_word_after_a_flag_is_still_read(tmp_path: Path, command: str, least: RiskLevel) -> None:
    risk, details = graded(command, project(tmp_path, {"list.txt": "a\n"}))
    assert risk >= least, details


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("pip install --upgrade requests", R.NETWORK),
        ("pip install --pre requests", R.NETWORK),
        ("pip install -U requests", R.NETWORK),
        ("shuf -e a b c", R.READ_ONLY),
        ("shuf -e -n 1 a b c", R.READ_ONLY),
        ("watch -d ls", R.READ_ONLY),
        ("watch -n 5 -d ls -l", R.READ_ONLY),
        ("watch --differences=permanent ls", R.READ_ONLY),
        ("tree --fromfile list.txt", R.READ_ONLY),
        ("tree -L 2", R.READ_ONLY),
        ("yq -P .a list.txt", R.READ_ONLY),
        ("yq -P -o json .a list.txt", R.READ_ONLY),
        ("install --strip a bin/a", R.WORKSPACE_WRITE),
        ("install -s a bin/a", R.WORKSPACE_WRITE),
        ("sudo -c default ls", R.SYSTEM),
        ("env -a mytool ls", R.READ_ONLY),
        ("env -i ls", R.READ_ONLY),
    ],
)
def test_everyday_forms_keep_their_grade(tmp_path: Path, command: str, grade: RiskLevel) -> None:
    risk, details = graded(command, project(tmp_path, {"list.txt": "a\n", "a": "x\n"}))
    assert risk == grade, details
