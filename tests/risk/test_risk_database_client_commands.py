"""Database clients' commands that write files or run programs (PostgreSQL "COPY": a file name is written by the
server as its own user, ``PROGRAM`` runs a shell command on the server; psql(1) meta-commands ``\\!`` run a shell,
``\\o``/``\\g``/``\\w``/``\\copy`` write files, ``\\i`` reads one; sqlite3 "Command Line Shell": ``.shell``,
``.system``, ``.output``, ``.once``, ``.read``, ``.load``): at least system for a server-side COPY to a file,
destructive for the rest; a script file or standard input the classifier cannot see is destructive. Plain queries
keep their grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("psql -c \"COPY t TO '/etc/x'\"", R.SYSTEM),
        ("psql --command=\"copy (select 1) to '/tmp/x.csv'\"", R.SYSTEM),
        ("psql -c \"COPY t TO PROGRAM 'touch ran'\"", R.DESTRUCTIVE),
        ("psql -c \"copy t from program 'id'\"", R.DESTRUCTIVE),
        ("psql -c \"\\copy t to '/tmp/outside'\"", R.DESTRUCTIVE),
        ("psql -c '\\! touch ran'", R.DESTRUCTIVE),
        ("psql -c '\\o /tmp/out'", R.DESTRUCTIVE),
        ("psql -c 'select 1 \\g /tmp/out'", R.DESTRUCTIVE),
        ("psql -f q.sql", R.DESTRUCTIVE),
        ("psql < q.sql", R.DESTRUCTIVE),
        ("sqlite3 db '.shell touch ran'", R.DESTRUCTIVE),
        ("sqlite3 db '.system touch ran'", R.DESTRUCTIVE),
        ("sqlite3 db '.output /tmp/x'", R.DESTRUCTIVE),
        ("sqlite3 -cmd '.shell touch ran' db", R.DESTRUCTIVE),
        ("sqlite3 db < q.sql", R.DESTRUCTIVE),
    ],
)
def test_client_commands_writing_files_or_running_programs(tmp_path: Path, command: str, level: RiskLevel) -> None:
    ws = project(tmp_path, {"q.sql": "\\! touch ran\\n"})
    assert graded(command, ws)[0] >= level


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("psql -c 'select 1'", R.NETWORK),
        ("psql -X -c 'select * from t'", R.NETWORK),
        ("sqlite3 db 'select 1'", R.READ_ONLY),
        ("sqlite3 db .tables", R.READ_ONLY),
    ],
)
def test_plain_queries_keep_their_grade(tmp_path: Path, command: str, level: RiskLevel) -> None:
    assert graded(command, project(tmp_path, {}))[0] is level
