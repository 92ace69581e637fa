"""A bad setting or an unreachable store is one line naming the setting and the fix, in every command;
operator commands never create a store (``flybot serve`` does). Real subprocesses, real SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bot.state_home import state_home
from tests.pg import throwaway_database
from tests.test_cli import flybot, new_store

OPERATOR_COMMANDS = [
    ("db", "current"),
    ("bots", "list"),
    ("bots", "add", "builder", "--owner", "U0123ABCD"),
    ("standing", "list"),
    ("admin-tokens", "add", "--user", "U0ADMIN01"),
]
ALL_STORE_COMMANDS = [("serve", "--port", "0"), *OPERATOR_COMMANDS]


def assert_one_line(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    stderr = result.stderr
    lines = stderr.strip().splitlines()
    assert result.returncode == 2, (result.args, stderr)
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


BAD_URLS = [
    ("postgresql://flybot@127.0.0.1:5432/flybot", "use postgresql+asyncpg://"),
    ("sqlite:///flybot.db", "use sqlite+aiosqlite:///flybot.db"),
    ("foo", "not a database URL; use sqlite+aiosqlite:///"),
]


@pytest.mark.parametrize("args", ALL_STORE_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_bad_database_url_is_one_line_naming_the_setting_and_the_fix_in_every_command(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    for url, fix in BAD_URLS:
        result = flybot(*args, cwd=tmp_path, timeout=30, FLYBOT_DATABASE_URL=url)
        assert_one_line(result, "FLYBOT_DATABASE_URL", fix)
    assert list(tmp_path.iterdir()) == []


def test_other_unsupported_database_urls_name_the_supported_ones(tmp_path: Path) -> None:
    for url, fix in [
        ("postgres://flybot@127.0.0.1/flybot", "use postgresql+asyncpg://"),
        ("mysql+aiomysql://u@h/db", "use sqlite+aiosqlite:///"),
    ]:
        assert_one_line(flybot("bots", "list", cwd=tmp_path, FLYBOT_DATABASE_URL=url), "FLYBOT_DATABASE_URL", fix)


def test_a_password_in_a_bad_database_url_is_never_repeated(tmp_path: Path) -> None:
    result = flybot("bots", "list", cwd=tmp_path, FLYBOT_DATABASE_URL="postgresql://u:s3cr3t-pw@db.example:5432/x")
    assert_one_line(result, "FLYBOT_DATABASE_URL", "postgresql+asyncpg://USER:PASSWORD@db.example:5432/x")
    assert "s3cr3t-pw" not in result.stderr


def test_an_unreachable_postgresql_is_one_line_naming_the_setting_in_every_command(tmp_path: Path) -> None:
    url = "postgresql+asyncpg://flybot:pw-not-shown@127.0.0.1:9/flybot"  # port 9 (discard): nothing listens
    for args in ALL_STORE_COMMANDS:
        result = flybot(*args, cwd=tmp_path, timeout=30, FLYBOT_DATABASE_URL=url)
        assert_one_line(result, "FLYBOT_DATABASE_URL", "cannot open the store", "127.0.0.1:9")
        assert "pw-not-shown" not in result.stderr


def test_a_database_url_option_the_driver_refuses_is_one_line_not_an_unexpected_error(tmp_path: Path) -> None:
    url = "postgresql+asyncpg://flybot:pw-not-shown@127.0.0.1:5432/flybot?sslmode=require"
    for args in (("bots", "list"), ("serve", "--port", "0")):
        result = flybot(*args, cwd=tmp_path, timeout=30, FLYBOT_DATABASE_URL=url)
        assert_one_line(result, "FLYBOT_DATABASE_URL", "cannot open the store", "sslmode")
        assert "pw-not-shown" not in result.stderr and "unexpected error" not in result.stderr


async def test_a_missing_postgresql_database_is_one_line_naming_it(tmp_path: Path) -> None:
    async with throwaway_database() as url:
        missing = url.rsplit("/", 1)[0] + "/flybot_no_such_database"
    for args in (("serve", "--port", "0"), ("bots", "list")):
        result = flybot(*args, cwd=tmp_path, timeout=30, FLYBOT_DATABASE_URL=missing)
        assert_one_line(result, "FLYBOT_DATABASE_URL", 'database "flybot_no_such_database" does not exist')


def test_an_unwritable_sqlite_directory_stops_serve_with_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    result = flybot(
        "serve", "--port", "0", cwd=tmp_path, timeout=30, FLYBOT_DATABASE_URL=f"sqlite+aiosqlite:///{blocker}/flybot.db"
    )
    assert_one_line(result, "FLYBOT_DATABASE_URL", "cannot open the store")


def test_operator_commands_never_create_a_store_and_say_where_they_looked(tmp_path: Path) -> None:
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    for args in OPERATOR_COMMANDS:
        result = flybot(*args, cwd=elsewhere)
        assert_one_line(
            result,
            f"no FlyBot store at {state_home() / 'flybot.db'}",
            "FLYBOT_DATABASE_URL",
            "the settings `flybot serve` runs with",
        )
    assert list(elsewhere.iterdir()) == [] and not state_home().exists()


def test_operator_commands_find_the_servers_store_from_any_directory_or_through_the_setting(tmp_path: Path) -> None:
    server_dir, elsewhere = tmp_path / "server", tmp_path / "home"
    server_dir.mkdir()
    elsewhere.mkdir()
    new_store(server_dir)  # the default store: in the user's state directory, whatever the working directory
    added = flybot("bots", "add", "builder", "--owner", "U0123ABCD", cwd=elsewhere)
    assert added.returncode == 0, added.stderr
    url = f"sqlite+aiosqlite:///{tmp_path / 'var' / 'flybot.db'}"
    assert flybot("db", "upgrade", cwd=server_dir, FLYBOT_DATABASE_URL=url).returncode == 0
    added = flybot("bots", "add", "tester", "--owner", "U0123ABCD", cwd=elsewhere, FLYBOT_DATABASE_URL=url)
    assert added.returncode == 0, added.stderr
    named = flybot("bots", "list", cwd=server_dir, FLYBOT_DATABASE_URL=url).stdout
    assert "tester" in named and "builder" not in named, named
    assert "builder" in flybot("bots", "list", cwd=server_dir).stdout
    assert list(elsewhere.iterdir()) == [] and list(server_dir.iterdir()) == []


async def test_db_current_on_an_empty_postgresql_exits_1_naming_the_store_and_the_fix(tmp_path: Path) -> None:
    """The README's db-command exit codes: 1 = the store was read and its schema is behind or empty (with where it
    looked and ``flybot db upgrade`` on stderr), 0 = at head, 2 = no store at all (tests above)."""
    async with throwaway_database() as url:
        empty = flybot("db", "current", cwd=tmp_path, timeout=30, FLYBOT_DATABASE_URL=url)
        assert empty.returncode == 1, empty.stderr
        assert empty.stdout.startswith("empty (this FlyBot needs "), empty.stdout
        lines = empty.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in empty.stderr, empty.stderr
        assert url.rsplit("/", 1)[1] in lines[0] and "no FlyBot schema" in lines[0], lines[0]
        assert "flybot db upgrade" in lines[0], lines[0]
        upgraded = flybot("db", "upgrade", cwd=tmp_path, timeout=60, FLYBOT_DATABASE_URL=url)
        assert upgraded.returncode == 0, upgraded.stderr
        current = flybot("db", "current", cwd=tmp_path, timeout=30, FLYBOT_DATABASE_URL=url)
        assert current.returncode == 0 and current.stderr == "", current.stderr
        assert "needs" in current.stdout and not current.stdout.startswith("empty"), current.stdout


def test_a_port_in_use_is_one_line_naming_the_fix(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = flybot("serve", "--port", str(port), cwd=tmp_path, timeout=30)
        assert_one_line(
            result, f"cannot listen on 127.0.0.1:{port}", "Address already in use", "--port N", "FLYBOT_PORT"
        )
