"""Database clients: ``psql``, ``mysql``/``mariadb``, ``sqlite3``, ``redis-cli``, ``mongosh``, ``clickhouse-client``.

The statements they run are graded, not the client: SQL is parsed with sqlglot (a maintained
SQL parser, dialects postgres/mysql/sqlite), never matched by regex. Reading statements
(``SELECT``, ``SHOW``, ``DESCRIBE``, ``EXPLAIN`` without ``ANALYZE``...) are ``network`` for a
server client (a database on another machine, or one the workspace does not hold) and
``read_only`` for sqlite3; statements that add or change data or schema (``INSERT``,
``CREATE``, ``ALTER``, ``UPDATE ... WHERE``, ``GRANT``) are ``system`` (sqlite3: a write to the
database file); ``DELETE``, ``DROP``, ``TRUNCATE``, ``MERGE``, ``UPDATE`` without ``WHERE``,
``ALTER ... DROP`` and anything the parser only keeps as an opaque command (``VACUUM INTO``,
``EXPLAIN ANALYZE``...) are destructive; a plain ``VACUUM`` (alone or with a name) is a write. A function call the parser does not know
(``pg_terminate_backend``, sqlite's ``writefile``/``load_extension``) is destructive unless it is
in :data:`KNOWN_READ_FUNCTIONS`: a function can change data. Statements the classifier cannot
see (``-f FILE``, standard input that is not literal) are destructive.

Client commands: psql backslash commands other than the describe/list family (``\\!``, ``\\o``,
``\\copy``, ``\\i``, ``\\set``...) and mysql's ``system``/``source``/``pager``/``tee``/``edit`` are
destructive (they run programs or touch files); sqlite3 dot-commands other than
:data:`SQLITE_READ_DOTS` likewise. Options that run programs or load configuration
(``mysql --pager``, ``--defaults-file``, ``--plugin-dir``, ``sqlite3 -init``...) are destructive;
an option the classifier does not know is refused.

redis-cli commands are graded from the Redis command reference (redis.io/commands): reads
network, writes system, ``DEL``/``FLUSHALL``/``FLUSHDB``/``UNLINK``... destructive, and
``EVAL``/``CONFIG SET``/``MODULE``/``DEBUG``/``SHUTDOWN``/``REPLICAOF`` destructive (they run code
or hand the server elsewhere). mongosh ``--eval`` text is accepted only in the shape
``db.COLLECTION.METHOD(JSON-like arguments)...`` or ``show dbs|collections``: read methods
network, insert/update system, delete/drop and an update of every document (``updateMany({}, ...)``)
destructive; anything else is JavaScript the classifier cannot see (destructive).

Sources: psql(1) (PostgreSQL 17: -c, -f, -o, -L, -l, backslash commands); mysql(1) (MySQL 8.4
client options and commands); sqlite3 CLI docs (sqlite.org/cli.html: dot-commands, -init, -cmd);
redis-cli docs and redis.io/commands; mongosh docs (--eval, --file); sqlglot 30 expression types.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.risk.grader import Call, Handler
from bot.risk.paths import Where
from bot.risk.reasons import shorten
from bot.risk.regex import Regex
from bot.risk.sensitive import env_file, named_secret
from bot.risk.words import Word

from .kit import R, destructive, read_only, refuse, show

__all__ = [
    "KNOWN_READ_FUNCTIONS",
    "SQLITE_READ_DOTS",
    "clickhouse_client",
    "csvsql_query",
    "duckdb_sql",
    "grade_sql",
    "mongosh",
    "mysql",
    "psql",
    "redis_cli",
    "sqlite3",
]

READ, WRITE, DELETE, GRANT = "read", "write", "delete", "grant"
_ORDER = {READ: 0, WRITE: 1, DELETE: 2, GRANT: 2}

#: Functions sqlglot does not model that only read (lower case): source, each database's manual.
KNOWN_READ_FUNCTIONS = frozenset({
    "version", "pg_size_pretty", "pg_database_size", "pg_relation_size", "pg_total_relation_size", "pg_table_size",
    "pg_indexes_size", "current_database", "current_schema", "current_schemas", "pg_backend_pid", "pg_typeof",
    "pg_postmaster_start_time", "pg_get_viewdef", "pg_get_indexdef", "pg_get_constraintdef", "pg_get_functiondef",
    "obj_description", "col_description", "has_table_privilege", "has_schema_privilege", "format_type",
    "pg_is_in_recovery", "inet_server_addr", "jsonb_pretty", "row_to_json", "to_json", "to_jsonb", "json_agg",
    "jsonb_agg", "json_build_object", "jsonb_build_object", "sqlite_version", "typeof", "database", "schema",
    "connection_id", "found_rows", "last_insert_id", "row_count", "date_format", "now", "age", "format",
    "quote_ident", "quote_literal", "current_setting", "pg_encoding_to_char", "txid_current_snapshot",
})  # fmt: skip


def grade_sql(text: str, dialect: str) -> tuple[str, str]:
    """Grade SQL text: ``(READ|WRITE|DELETE, why)`` for the worst statement in it.

    Parsed with sqlglot (``dialect``: postgres, mysql, sqlite); a parse error or an opaque
    statement is DELETE (fail closed). Never raises.
    """
    try:
        import logging  # with sqlglot: every hook start would pay for logging otherwise

        import sqlglot  # a large import, needed only when a client runs SQL
        from sqlglot import exp
    except ImportError:  # pragma: no cover - sqlglot is a dependency
        return DELETE, "SQL cannot be parsed here"
    logging.getLogger("sqlglot").setLevel(logging.ERROR)
    try:
        statements = sqlglot.parse(text, read=dialect)
    except Exception:
        return DELETE, "the SQL does not parse"
    worst = (READ, "reads")
    for statement in statements:
        if statement is None:
            continue
        explained = _explained(statement, exp)
        if explained is not None:
            inner = grade_sql(explained, dialect)
            found = (
                inner[0],
                f"EXPLAIN ANALYZE runs the statement it shows: {inner[1]}" if inner[0] != READ else "reads",
            )
        else:
            found = _statement(statement, exp)
        if _ORDER[found[0]] > _ORDER[worst[0]]:
            worst = found
        if worst[0] == DELETE:
            break
    return worst


#: The words ``EXPLAIN`` may take before its statement: PostgreSQL "EXPLAIN [ ( option [, ...] ) ] statement" and
#: "EXPLAIN [ ANALYZE ] [ VERBOSE ] statement"; SQLite "EXPLAIN [QUERY PLAN] statement". The parenthesised list
#: holds only option names and their values (``ANALYZE``, ``BUFFERS true``, ``FORMAT JSON``).
_EXPLAIN_OPTIONS = Regex(
    r"\s*(?:\(\s*[A-Za-z_]+(?:\s+[A-Za-z0-9_]+)?(?:\s*,\s*[A-Za-z_]+(?:\s+[A-Za-z0-9_]+)?)*\s*\)|ANALYZE\b|ANALYSE\b|VERBOSE\b|QUERY\s+PLAN\b)",
    re.IGNORECASE,
)


def _explained(statement: Any, exp: Any) -> str | None:
    """The statement an ``EXPLAIN`` the parser keeps opaque shows the plan of, without EXPLAIN's own options
    (:data:`_EXPLAIN_OPTIONS`), or None for any other statement. ``EXPLAIN ANALYZE`` runs that statement
    (PostgreSQL "EXPLAIN": "the statement is actually executed"), so it is graded as that statement."""
    if not isinstance(statement, exp.Command) or str(statement.this).upper() != "EXPLAIN":
        return None
    rest = statement.args.get("expression")
    text = str(rest.this) if rest is not None else ""
    while True:
        match = _EXPLAIN_OPTIONS.match(text)
        if match is None or not match.group(0):
            break
        text = text[match.end() :]
    return text.strip() or None


def _plain_vacuum(node: Any) -> bool:
    """True for ``VACUUM`` alone or with a schema or table name (SQLite "VACUUM": it rebuilds the database file in
    place; PostgreSQL "VACUUM": it reclaims space): a write that loses nothing. ``VACUUM INTO 'file'`` (a copy
    written anywhere) and options stay opaque."""
    if str(node.this).upper() != "VACUUM":
        return False
    rest = node.args.get("expression")
    return rest is None or bool(_SQL_NAME.fullmatch(str(rest.this).strip()))


_SQL_NAME = Regex(r"[A-Za-z_][A-Za-z0-9_]*")


#: Functions whose body is native or unrestricted code the server runs as its OS user: PostgreSQL "CREATE FUNCTION"
#: ``LANGUAGE c`` (``AS 'obj_file'``) and ``internal``, the untrusted PL languages (PL/Python ``plpython3u``: "can
#: access the file system and run programs", ``plperlu``, ``pltclu``, ``plsh``); MySQL "CREATE FUNCTION ... SONAME"
#: (a loadable function from a shared library).
_NATIVE_CODE = Regex(
    r"\bLANGUAGE\s+['\"]?(?:c|internal|plpython[23]?u|plperlu|pltclu|plsh)['\"]?(?:\s|$|;|\))|\bSONAME\b",
    re.IGNORECASE,
)


def _statement(statement: Any, exp: Any) -> tuple[str, str]:
    name = type(statement).__name__.upper()
    for node in statement.walk():
        if isinstance(node, (exp.Delete, exp.Drop, exp.TruncateTable, exp.Merge, exp.Command)):
            if isinstance(node, exp.Command):
                if _plain_vacuum(node):
                    return WRITE, "VACUUM rebuilds the database, keeping its data"
                return DELETE, f"{str(node.this)[:30].upper()} is a statement the parser keeps opaque"
            return DELETE, f"{type(node).__name__.upper().replace('TABLE', ' TABLE').strip()} deletes data"
        if isinstance(node, exp.Update) and node.args.get("where") is None:
            return DELETE, "UPDATE without WHERE overwrites every row"
        if isinstance(node, exp.Anonymous) and str(node.this).lower() not in KNOWN_READ_FUNCTIONS:
            return DELETE, f"calls {str(node.this)[:40]}(), a function that may change data"
        if isinstance(node, exp.Copy):
            sql = statement.sql().upper()
            if "PROGRAM" in sql:
                return DELETE, "COPY ... PROGRAM runs a program on the server"
            if "STDOUT" not in sql:
                return WRITE, "COPY reads or writes files on the server"
    if isinstance(statement, exp.Create) and _NATIVE_CODE.search(statement.sql()):
        return (
            DELETE,
            "CREATE FUNCTION in C, internal or an untrusted language (or SONAME) runs code on the server's host",
        )
    if isinstance(
        statement, (exp.Insert, exp.Update, exp.Create, exp.Alter, exp.Grant, exp.Revoke, exp.Comment, exp.Copy)
    ):
        return WRITE, f"{name} changes data or schema"
    if isinstance(statement, exp.Select) and statement.args.get("into") is not None:
        return WRITE, "SELECT INTO creates a table"
    if isinstance(statement, exp.Pragma) and any(isinstance(n, exp.EQ) for n in statement.walk()):
        return WRITE, "PRAGMA NAME = VALUE changes the database"
    if isinstance(
        statement,
        (
            exp.Query,
            exp.Show,
            exp.Describe,
            exp.Pragma,
            exp.Transaction,
            exp.Commit,
            exp.Rollback,
            exp.Set,
            exp.Use,
            exp.Values,
        ),
    ):
        return READ, f"{name} reads"
    return DELETE, f"{name} is a statement the classifier does not know"


def _grade(call: Call, verdict: tuple[str, str], what: str, *, server: bool, db_file: Word | None = None) -> None:
    level, why = verdict
    if level == GRANT:
        call.flag(R.DESTRUCTIVE, "privilege-grant", f"{what}: {why}: full control of the database server.")
    elif level == DELETE:
        call.flag(R.DESTRUCTIVE, "database-change", f"{what}: {why}.")
    elif level == WRITE:
        if server:
            call.flag(R.SYSTEM, "database-change", f"{what}: {why} in a database outside the workspace.")
        else:
            call.write(db_file if db_file is not None else Word(None, "?"), f"{what}: {why} in")
    elif server:
        call.flag(R.NETWORK, "database-read", f"{what} reads a database server.")
    else:
        read_only(call, f"{what} only reads.")


class _Client:
    """One client's options: ``values`` take an argument; ``flags`` do not; ``programs`` run programs; ``attached``
    short options whose value, when there is one, is attached to them (mysql's ``-pPASSWORD``)."""

    def __init__(self, values: str, flags: str, programs: str = "", attached: str = "") -> None:
        self.values = frozenset(values.split())
        self.flags = frozenset(flags.split())
        self.programs = frozenset(programs.split())
        self.attached = frozenset(attached.split())


def _options(call: Call, client: _Client) -> tuple[list[tuple[str, Word | None]], list[Word]] | None:
    """Split arguments into (option, value) pairs and operands; None (already graded) when refused."""
    words = call.args
    opts: list[tuple[str, Word | None]] = []
    operands: list[Word] = []
    index = 0
    while index < len(words):
        word = words[index]
        value = word.value
        index += 1
        if value is None:
            if operands or word.operand_only:
                operands.append(word)
                continue
            destructive(call, "dynamic-argument", f"{show(word)} may be an option of {call.name} that runs a program.")
            return None
        if value == "--":
            operands.extend(words[index:])
            break
        if not value.startswith("-") or value == "-":
            operands.append(word)
            continue
        if value[:2] in client.attached and len(value) > 2 and not value.startswith("--"):
            opts.append((value[:2], Word(value[2:], value)))
            continue
        name, eq, attached = value.partition("=")
        short_attached = None
        if not name.startswith("--") and len(name) > 2 and name[:2] in client.values:
            name, short_attached = name[:2], value[2:]
        if name in client.programs:
            destructive(
                call,
                "runs-program",
                f"{call.name} {name} runs a program or loads configuration of the caller's choosing.",
            )
            return None
        if name in client.values:
            if eq or short_attached is not None:
                opts.append((name, Word(attached if eq else short_attached, value)))
            elif index < len(words):
                opts.append((name, words[index]))
                index += 1
            else:
                opts.append((name, None))
        elif name in client.flags or (not name.startswith("--") and all(f"-{c}" in client.flags for c in name[1:])):
            opts.append((name, None))
        else:
            refuse(call, f"the option {name}")
            return None
    return opts, operands


def _values(opts: list[tuple[str, Word | None]], *names: str) -> list[Word | None]:
    return [value for name, value in opts if name in names]


def _run_texts(call: Call, texts: list[Word | None], grade: Callable[[str], None], what: str) -> bool:
    """Grade each given text; a text only known at run time is destructive. Returns False when refused."""
    for text in texts:
        if text is None or text.value is None:
            destructive(call, "dynamic-script", f"The {what} text is only known when it runs.")
            return False
        grade(text.value)
    return True


def _stdin(call: Call, grade: Callable[[str], None], what: str) -> None:
    text = call.rec.stdin
    if text is None:
        destructive(
            call, "shell-stdin", f"{what} reads statements from standard input, which the classifier cannot see."
        )
    else:
        grade(text)


# -- psql ---------------------------------------------------------------------------------------
_PSQL = _Client(
    "-c --command -d --dbname -f --file -h --host -p --port -U --username -v --set --variable -o --output -L --log-file "
    "-F --field-separator -R --record-separator -P --pset -T --table-attr",
    "-A --no-align -t --tuples-only -q --quiet -X --no-psqlrc -w --no-password -W --password -x --expanded "
    "-e --echo-queries -E --echo-hidden -b --echo-errors -a --echo-all -n --no-readline -s --single-step "
    "-S --single-line -1 --single-transaction --csv -H --html -z --field-separator-zero -0 --record-separator-zero "
    "-l --list -V --version -? --help",
)
_PSQL_READ_META = re.compile(
    r"\\(d[a-zA-Z]*\+?|l\+?|list\+?|conninfo|encoding|x|timing|pset|echo|sf\+?|sv\+?|z|dp)(\s+[\w.*\"+ -]*)?"
)


def psql(call: Call) -> None:
    """psql(1): ``-c SQL`` (or a backslash command) graded; ``-f FILE`` destructive; ``-l`` lists databases."""
    parsed = _options(call, _PSQL)
    if parsed is None:
        return
    opts, _operands = parsed
    names = {name for name, _ in opts}
    if names & {"-V", "--version", "-?", "--help"}:
        read_only(call, "psql --version only prints.")
        return
    for target in _values(opts, "-o", "--output", "-L", "--log-file"):
        call.write(target if target is not None else Word(None, "?"), "psql writes")
    if _values(opts, "-v", "--set", "--variable"):
        pass  # variables are only interpolated where the SQL says :name, which then does not parse: destructive
    files = [f for f in _values(opts, "-f", "--file") if f is None or f.value != "-"]
    if files:
        destructive(call, "script-file", "psql -f runs a file of statements the classifier cannot see.")
        return
    grade = _psql_script(call)
    commands = _values(opts, "-c", "--command")
    if commands:
        _run_texts(call, commands, grade, "psql -c")
    elif names & {"-l", "--list"}:
        call.flag(R.NETWORK, "database-read", "psql -l lists the server's databases.")
    else:
        _stdin(call, grade, "psql")


def _psql_script(call: Call) -> Callable[[str], None]:
    def grade(text: str) -> None:
        sql: list[str] = []
        for line in text.split("\n"):
            stripped = line.strip()
            if stripped.startswith("\\"):
                if not _PSQL_READ_META.fullmatch(stripped):
                    destructive(
                        call,
                        "runs-program",
                        f"psql {stripped.split()[0][:20]} is a client command that can run programs or touch files.",
                    )
                    return
                call.flag(R.NETWORK, "database-read", f"psql {stripped.split()[0]} describes the database.")
            else:
                sql.append(line)
        body = "\n".join(sql)
        if body.strip():
            _grade(call, grade_sql(body, "postgres"), "psql", server=True)
        elif not any(line.strip() for line in sql) and not text.strip():
            refuse(call, "psql with an empty command")

    return grade


# -- mysql --------------------------------------------------------------------------------------
_MYSQL = _Client(
    "-e --execute -D --database -h --host -P --port -u --user -S --socket --protocol --default-character-set "
    "--connect-timeout --ssl-mode --ssl-ca --ssl-cert --ssl-key --max-allowed-packet --net-buffer-length --tee "
    "--init-command --login-path",
    "-B --batch -N --skip-column-names -s --silent -t --table -v --verbose -V --version -X --xml --html -E --vertical "
    "-r --raw -n --unbuffered --compress -C -f --force -q --quick --no-auto-rehash -A --auto-rehash --safe-updates "
    "--i-am-a-dummy -U --no-defaults --column-names --binary-as-hex --skip-pager --no-pager --help -? -p --password "
    "--show-warnings",
    "--pager --defaults-file --defaults-extra-file --defaults-group-suffix --plugin-dir --default-auth --plugin-load "
    "--load-data-local-dir --local-infile --system-command --commands",
    # mysql(1): "--password[=password], -p[password]": the password, if given, is attached to -p
    "-p",
)
_MYSQL_CLIENT_WORDS = frozenset(
    {
        "system",
        "source",
        "pager",
        "tee",
        "edit",
        "connect",
        "delimiter",
        "charset",
        "nopager",
        "notee",
        "prompt",
        "rehash",
        "ego",
    }
)


def mysql(call: Call) -> None:
    """mysql(1)/mariadb: ``-e SQL`` graded; standard input when literal; ``--pager``, option files and plugins run programs."""
    parsed = _options(call, _MYSQL)
    if parsed is None:
        return
    opts, _operands = parsed
    names = {name for name, _ in opts}
    if names & {"-V", "--version", "--help", "-?"}:
        read_only(call, f"{call.name} --version only prints.")
        return
    for target in _values(opts, "--tee"):
        call.write(target if target is not None else Word(None, "?"), f"{call.name} --tee writes")
    grade = _mysql_script(call)
    if not _run_texts(call, _values(opts, "--init-command"), grade, f"{call.name} --init-command"):
        return
    commands = _values(opts, "-e", "--execute")
    if commands:
        _run_texts(call, commands, grade, f"{call.name} -e")
    else:
        _stdin(call, grade, call.name)


# -- clickhouse-client ---------------------------------------------------------------------------
_CLICKHOUSE = _Client(
    "-q --query -h --host --port -u --user --password -d --database -f --format --query_id --query-id",
    "-n --multiquery -m --multiline -t --time -s --secure --stacktrace -V --version --help -E --vertical --echo "
    "--progress --no-warnings --ignore-error",
    # clickhouse-client(1) ("ClickHouse Client", 24.8): -C/--config-file names its configuration (it may name
    # other hosts, credentials and a prompt); --queries-file runs files of statements the classifier does not read
    "-C --config-file --config --queries-file --history_file",
)
#: ClickHouse clauses the client carries out on this machine (ClickHouse SQL reference, "INTO OUTFILE Clause": the
#: client writes the result to a file; "FROM INFILE": it reads one): a file the classifier does not place.
_CLICKHOUSE_LOCAL_FILE = re.compile(r"\b(?:INTO\s+OUTFILE|FROM\s+INFILE)\b", re.IGNORECASE)


def clickhouse_client(call: Call) -> None:
    """clickhouse-client: ``-q SQL`` (or literal standard input) graded with sqlglot's ClickHouse dialect: reads
    network, writes system; DROP, TRUNCATE, ``ALTER ... DELETE``, ``SYSTEM`` and functions the parser does not know
    (``executable()``, ``url()``, ``file()``...) destructive; ``INTO OUTFILE``/``FROM INFILE`` destructive."""
    parsed = _options(call, _CLICKHOUSE)
    if parsed is None:
        return
    opts, operands = parsed
    names = {name for name, _ in opts}
    if names & {"-V", "--version", "--help"}:
        read_only(call, "clickhouse-client --version only prints.")
        return
    if operands:
        refuse(call, f"the operand {show(operands[0])}")
        return

    def grade(text: str) -> None:
        if _CLICKHOUSE_LOCAL_FILE.search(text):
            destructive(call, "database-change", "clickhouse-client INTO OUTFILE/FROM INFILE touches a local file.")
            return
        _grade(call, grade_sql(text, "clickhouse"), "clickhouse-client", server=True)

    queries = _values(opts, "-q", "--query")
    if queries:
        _run_texts(call, queries, grade, "clickhouse-client -q")
    else:
        _stdin(call, grade, "clickhouse-client")


def _mysql_script(call: Call) -> Callable[[str], None]:
    def grade(text: str) -> None:
        for line in text.split("\n"):
            stripped = line.strip()
            first = stripped.split(None, 1)[0].lower().rstrip(";") if stripped else ""
            if stripped.startswith("\\") or first in _MYSQL_CLIENT_WORDS:
                destructive(
                    call,
                    "runs-program",
                    f"{call.name} {first[:20]} is a client command that can run programs or touch files.",
                )
                return
        _grade(call, grade_sql(text, "mysql"), call.name, server=True)

    return grade


# -- sqlite3 ------------------------------------------------------------------------------------
_SQLITE = _Client(
    "-cmd -separator -newline -nullvalue -escape -vfs -mmap -pagecache -lookaside -heap -maxsize -A -archive",
    "-readonly -bail -batch -interactive -csv -json -html -line -list -column -box -table -markdown -quote -tabs "
    "-header -noheader -echo -stats -safe -nofollow -memtrace -version -help -ascii -deserialize -append -zip "
    "-nonce -no-rowid-in-view -utf8",
    "-init",
)
#: sqlite3 dot-commands that only read or set output formatting (sqlite.org/cli.html).
SQLITE_READ_DOTS = frozenset({
    ".tables", ".table", ".schema", ".indexes", ".indices", ".headers", ".header", ".mode", ".dump", ".databases",
    ".show", ".help", ".width", ".nullvalue", ".separator", ".timer", ".eqp", ".quit", ".exit", ".stats",
    ".fullschema", ".dbinfo", ".print", ".echo", ".bail", ".changes", ".lint", ".expert", ".dbconfig",
})  # fmt: skip


def sqlite3(call: Call) -> None:
    """sqlite3 CLI: ``sqlite3 [OPTIONS] FILE [SQL...]``; reads are read-only, changes write FILE; ``-init`` and
    dot-commands that run programs or touch files (``.shell``, ``.output``, ``.read``, ``.load``...) destructive."""
    parsed = _options(call, _SQLITE)
    if parsed is None:
        return
    opts, operands = parsed
    names = {name for name, _ in opts}
    if names & {"-version", "-help"}:
        read_only(call, "sqlite3 -version only prints.")
        return
    db_file = operands[0] if operands else None
    if db_file is not None and db_file.value is None:
        destructive(call, "dynamic-argument", "The sqlite3 database file is only known when it runs.")
        return
    readonly = "-readonly" in names
    grade = _sqlite_script(call, db_file, readonly)
    if not _run_texts(call, _values(opts, "-cmd"), grade, "sqlite3 -cmd"):
        return
    if len(operands) > 1:
        _run_texts(call, list(operands[1:]), grade, "sqlite3")
    else:
        _stdin(call, grade, "sqlite3")


def _sqlite_script(call: Call, db_file: Word | None, readonly: bool) -> Callable[[str], None]:
    def grade(text: str) -> None:
        sql: list[str] = []
        for line in text.split("\n"):
            stripped = line.strip()
            if stripped.startswith("."):
                dot = stripped.split(None, 1)[0]
                if dot not in SQLITE_READ_DOTS or (
                    dot == ".mode" and " " in stripped and stripped.split()[-1].startswith("--")
                ):
                    destructive(call, "runs-program", f"sqlite3 {dot[:20]} runs a program or touches files.")
                    return
            else:
                sql.append(line)
        body = "\n".join(sql)
        if body.strip():
            verdict = grade_sql(body, "sqlite")
            if readonly and verdict[0] == WRITE:
                verdict = (READ, "reads (the database is opened -readonly)")
            _grade(call, verdict, "sqlite3", server=False, db_file=db_file)
        else:
            read_only(call, "sqlite3 only prints.")

    return grade


# -- redis-cli ----------------------------------------------------------------------------------
_REDIS = _Client(
    "-h -p -a -n -u -s -r -i -d -D --user --pass --askpass --cacert --cacertdir --cert --key --sni --tls-ciphers "
    "--pattern --count --quoted-pattern --memkeys-samples --intrinsic-latency --resp2 --resp3 --lru-test --functions-rdb",
    "--tls --insecure --raw --no-raw --csv --json --quoted-json -c -e -x --no-auth-warning --bigkeys --memkeys "
    "--hotkeys --stat --latency --latency-history --latency-dist --scan --verbose --version --help -3 -2 --show-pushes",
    "--eval --pipe --rdb --replica --slave --ldb --ldb-sync-mode",
)
_REDIS_READ = frozenset(
    "get mget exists type ttl pttl strlen getrange keys scan sscan hscan zscan randomkey dbsize info ping echo time "
    "hget hgetall hmget hkeys hvals hlen hexists hstrlen lrange llen lindex lpos smembers sismember smismember scard "
    "srandmember sinter sunion sdiff zrange zrangebyscore zrevrange zrevrangebyscore zscore zrank zrevrank zcard "
    "zcount zlexcount xrange xrevrange xlen xinfo xpending memory object client role lastsave command hello auth "
    "select pubsub bitcount bitpos getbit geopos geodist georadius_ro geosearch pfcount dump lolwut slowlog latency "
    "cluster monitor subscribe psubscribe ssubscribe wait".split()
)
_REDIS_DELETE = frozenset(
    "del unlink flushall flushdb getdel hdel srem zrem lrem lpop rpop spop zpopmin zpopmax blpop brpop bzpopmin "
    "bzpopmax lmpop zmpop xdel xtrim ltrim zremrangebyscore zremrangebyrank zremrangebylex expire pexpire expireat "
    "pexpireat rename renamenx move migrate restore swapdb eval evalsha eval_ro evalsha_ro fcall fcall_ro function "
    "script module debug shutdown replicaof slaveof failover config acl sync psync save bgsave bgrewriteaof".split()
)
_REDIS_WRITE = frozenset(
    "set setnx setex psetex mset msetnx getset append incr incrby incrbyfloat decr decrby setrange hset hsetnx hmset "
    "hincrby hincrbyfloat lpush rpush lpushx rpushx linsert lset lmove blmove rpoplpush sadd smove sinterstore "
    "sunionstore sdiffstore zadd zincrby zunionstore zinterstore xadd xgroup xack xclaim xautoclaim persist publish "
    "spublish pfadd pfmerge geoadd setbit bitop copy sort touch readonly readwrite multi exec discard watch unwatch".split()
)


def redis_cli(call: Call) -> None:
    """redis-cli: the command after the options is graded (reads network, writes system, deletions and code destructive)."""
    parsed = _options(call, _REDIS)
    if parsed is None:
        return
    opts, operands = parsed
    names = {name for name, _ in opts}
    if names & {"--version", "--help"}:
        read_only(call, "redis-cli --version only prints.")
        return
    if names & {
        "--bigkeys",
        "--memkeys",
        "--hotkeys",
        "--stat",
        "--latency",
        "--latency-history",
        "--latency-dist",
        "--scan",
    }:
        call.flag(R.NETWORK, "database-read", "redis-cli samples the server's keys or latency.")
        return
    if not operands:
        _stdin(call, lambda text: _redis_lines(call, text), "redis-cli")
        return
    if operands[0].value is None:
        destructive(call, "dynamic-argument", "The redis command is only known when it runs.")
        return
    _redis_command(call, [w.value for w in operands])


def _redis_lines(call: Call, text: str) -> None:
    import shlex

    for line in text.split("\n"):
        if line.strip():
            try:
                _redis_command(call, list(shlex.split(line)))
            except ValueError:
                destructive(call, "unrecognised-use", "A redis-cli input line does not split into words.")


def _redis_command(call: Call, words: list[str | None]) -> None:
    name = (words[0] or "").lower()
    sub = (words[1] or "").lower() if len(words) > 1 else ""
    what = f"redis {name.upper()}" + (
        f" {sub.upper()}"
        if name in ("config", "client", "script", "function", "acl", "memory", "object", "cluster") and sub
        else ""
    )
    if name in ("config", "acl", "function", "script") and sub in (
        "get",
        "list",
        "whoami",
        "cat",
        "users",
        "getuser",
        "exists",
        "stats",
        "dump",
        "log",
    ):
        call.flag(R.NETWORK, "database-read", f"{what} reads the server.")
    elif name == "client" and sub == "kill":
        call.flag(R.DESTRUCTIVE, "database-change", f"{what} disconnects other clients.")
    elif name in _REDIS_DELETE:
        call.flag(
            R.DESTRUCTIVE,
            "database-change",
            f"{what} deletes data, runs code on the server or changes where it stores data.",
        )
    elif name in _REDIS_READ:
        call.flag(R.NETWORK, "database-read", f"{what} reads the server.")
    elif name in _REDIS_WRITE:
        call.flag(R.SYSTEM, "database-change", f"{what} changes data in a server outside the workspace.")
    else:
        refuse(call, f"the redis command {name.upper()[:30]}")


# -- mongosh ------------------------------------------------------------------------------------
_MONGOSH = _Client(
    "--eval --host --port -u --username -p --password --authenticationDatabase --authenticationMechanism --tlsCAFile "
    "--tlsCertificateKeyFile --apiVersion --json",
    "--quiet --norc --nodb --tls --version --help --retryWrites --apiStrict --apiDeprecationErrors --verbose",
    "-f --file --shell",
)
_MONGO_READ = frozenset({
    "find", "findOne", "countDocuments", "estimatedDocumentCount", "count", "distinct", "aggregate", "getIndexes",
    "stats", "explain", "limit", "skip", "sort", "pretty", "toArray", "projection", "hint", "getCollectionNames",
    "getCollectionInfos", "getName", "version", "serverStatus", "hostInfo", "isMaster", "hello", "getUsers",
    "dataSize", "storageSize", "totalIndexSize", "listCollections", "itcount", "size", "batchSize", "getSiblingDB",
    "getCollection", "runCommand",
})  # fmt: skip
_MONGO_WRITE = frozenset(
    {
        "insertOne",
        "insertMany",
        "insert",
        "updateOne",
        "updateMany",
        "update",
        "createIndex",
        "createIndexes",
        "createCollection",
        "createUser",
        "bulkWrite",
        "replaceOne",
        "findOneAndUpdate",
        "renameCollection",
    }
)
_MONGO_DELETE = frozenset(
    {
        "deleteOne",
        "deleteMany",
        "remove",
        "drop",
        "dropDatabase",
        "dropIndex",
        "dropIndexes",
        "findOneAndDelete",
        "findOneAndReplace",
        "dropUser",
        "dropAllUsers",
    }
)
#: Built-in roles that give every privilege or the power to grant any (MongoDB manual, "Built-In Roles": root,
#: __system; userAdminAnyDatabase and userAdmin on admin "can grant any user any privilege"), named in a user's roles.
_MONGO_SUPERUSER_ROLES = frozenset({"root", "__system", "userAdminAnyDatabase", "userAdmin", "dbOwner"})
_MONGO_USER_METHODS = frozenset({"createUser", "updateUser", "grantRolesToUser"})
_MONGO_TOKEN = re.compile(
    r"""\s*(?:(?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(?P<num>-?\d+(?:\.\d+)?)|(?P<name>[$A-Za-z_][\w$]*)|(?P<punct>[.(){}\[\]:,;]))"""
)
_MONGO_CODE_KEYS = frozenset({"$where", "$function", "$accumulator", "$out", "$merge"})


def mongosh(call: Call) -> None:
    """mongosh: ``--eval`` graded in the shape ``db.C.METHOD(args)...``; script files and other JavaScript destructive."""
    parsed = _options(call, _MONGOSH)
    if parsed is None:
        return
    opts, operands = parsed
    names = {name for name, _ in opts}
    if names & {"--version", "--help"}:
        read_only(call, "mongosh --version only prints.")
        return
    if any(w.value is None or (w.value or "").endswith(".js") for w in operands):
        destructive(call, "script-file", "mongosh runs a script file the classifier cannot see.")
        return
    evals = _values(opts, "--eval")
    grade = _mongo_grader(call)
    if evals:
        _run_texts(call, evals, grade, "mongosh --eval")
    else:
        _stdin(call, grade, "mongosh")


def _mongo_grader(call: Call) -> Callable[[str], None]:
    def grade(text: str) -> None:
        verdict = _mongo_verdict(text)
        if verdict is None:
            destructive(call, "inline-code", "mongosh runs JavaScript the classifier cannot read.")
        else:
            _grade(call, verdict, "mongosh", server=True)

    return grade


def _mongo_verdict(text: str) -> tuple[str, str] | None:
    """Read ``show dbs`` and ``db.C.METHOD(args)(.METHOD(args))*`` statements; None for anything else."""
    worst = (READ, "reads")
    for statement in re.split(r"[;\n]", text):
        statement = statement.strip()
        if not statement:
            continue
        if re.fullmatch(r"show\s+(dbs|databases|collections|tables|users|roles|profile)", statement):
            continue
        tokens = _mongo_tokens(statement)
        if tokens is None or tokens[:1] != ["db"]:
            return None
        methods = _mongo_methods(tokens)
        if methods is None:
            return None
        if _mongo_updates_all(tokens):
            return DELETE, "updateMany({}) overwrites every document"
        for method in methods:
            if method in _MONGO_USER_METHODS and any(t.strip("\"'") in _MONGO_SUPERUSER_ROLES for t in tokens):
                return GRANT, f"{method}() grants a superuser role"
            if method in _MONGO_DELETE:
                return DELETE, f"{method}() deletes"
            if method in _MONGO_WRITE and _ORDER[worst[0]] < _ORDER[WRITE]:
                worst = (WRITE, f"{method}() changes data")
            elif method not in _MONGO_READ and method not in _MONGO_WRITE:
                return None
    return worst


#: Update methods whose empty filter ``{}`` selects every document of the collection (MongoDB manual,
#: db.collection.updateMany(): "Specify an empty document { } to update all documents in the collection";
#: db.collection.update() with ``{multi: true}``): as SQL's UPDATE without WHERE, every document is overwritten.
_MONGO_UPDATE_ALL = frozenset({"updateMany", "update"})


def _mongo_updates_all(tokens: list[str]) -> bool:
    """True when an update method of :data:`_MONGO_UPDATE_ALL` is called with the empty filter ``{}`` (``update``
    only with ``multi`` among its arguments, as it changes one document otherwise)."""
    for index, token in enumerate(tokens):
        if token in _MONGO_UPDATE_ALL and tokens[index - 1 : index] == ["."]:
            if tokens[index + 1 : index + 4] == ["(", "{", "}"] and (token != "update" or "multi" in tokens[index:]):
                return True
    return False


def _mongo_tokens(text: str) -> list[str] | None:
    tokens: list[str] = []
    index = 0
    while index < len(text):
        match = _MONGO_TOKEN.match(text, index)
        if match is None or match.end() == index:
            return None if text[index:].strip() else tokens
        token = match.group(match.lastgroup or "punct")
        if match.lastgroup == "str" and token[1:-1] in _MONGO_CODE_KEYS:
            return None
        if match.lastgroup == "name" and token in _MONGO_CODE_KEYS:
            return None
        tokens.append(token)
        index = match.end()
    return tokens


def _mongo_methods(tokens: list[str]) -> list[str] | None:
    """Method names called in ``db . NAME . M ( ... ) . M ( ... )``; arguments may hold no call."""
    methods: list[str] = []
    index = 1
    depth = 0
    expect_call = False
    while index < len(tokens):
        token = tokens[index]
        if depth == 0:
            if token == "." and index + 1 < len(tokens):
                name = tokens[index + 1]
                index += 2
                if index < len(tokens) and tokens[index] == "(":
                    methods.append(name)
                    depth = 1
                    index += 1
                    expect_call = True
                continue
            return None
        if token in "({[":
            if token == "(":
                return None  # a call inside the arguments: not plain data
            depth += 1
        elif token in ")}]":
            depth -= 1
        index += 1
    if depth != 0 or not expect_call:
        return None if depth != 0 else methods
    return methods


# -- DuckDB's CLI and csvkit's csvsql: queries over files ------------------------------------------------------------

#: DuckDB's table functions that read the files their string arguments name ("Data Import": CSV, Parquet and JSON
#: readers, built into the CLI): their literals are checked as paths.
_DUCKDB_READERS = frozenset({
    "read_csv", "read_csv_auto", "read_parquet", "parquet_scan", "parquet_metadata", "parquet_schema",
    "read_json", "read_json_auto", "read_ndjson", "read_ndjson_auto", "read_json_objects",
})  # fmt: skip

#: DuckDB scalar functions sqlglot does not model that compute from their arguments only (DuckDB "Functions").
_DUCKDB_PURE = frozenset({
    "now", "today", "list_value", "struct_pack", "list_sort", "list_distinct", "list_unique", "list_aggregate",
    "histogram", "mode", "entropy", "kurtosis", "skewness", "string_split", "regexp_extract", "regexp_replace",
    "date_part", "datediff", "epoch", "epoch_ms", "make_date", "try_cast", "hash", "md5", "sha256", "typeof",
    "round_even", "arg_max", "arg_min", "any_value", "first", "last", "list", "unnest", "range", "generate_series",
    "starts_with", "ends_with", "contains", "strip_accents", "levenshtein", "format", "printf", "median",
})  # fmt: skip

#: The file names a DuckDB query reads by name in its FROM clause (a "replacement scan") without loading an
#: extension: CSV, TSV, Parquet, JSON and NDJSON, compressed or not (DuckDB "Data Import"; other extensions, such
#: as .xlsx or .sqlite, autoload an extension downloaded from the network).
_DUCKDB_DATA_FILE = Regex(r".*\.(?:csv|tsv|parquet|json|jsonl|ndjson)(?:\.gz|\.zst)?", re.IGNORECASE)


def _query_path(call: Call, text: str, *, scanned: bool) -> str | None:
    """Why the file ``text`` a query reads is refused, or None: a path that may leave the workspace (absolute, from
    ``~``, through ``..``, a URL or ``s3:``-style name, a variable), a credential by its name (sensitive.py), a glob
    or (``scanned``: named in FROM) a file that is not CSV, Parquet or JSON, or any read from a directory outside
    the workspace."""
    if text.startswith(("/", "~", "$")) or ":" in text or "\\" in text or ".." in text.split("/"):
        return f"{shorten(text, 60)} may name a file outside the workspace"
    secret = named_secret(text) or env_file(text)
    if secret is not None:
        return f"{shorten(text, 60)} names {secret}"
    if (scanned or any(c in text for c in "*?[{")) and _DUCKDB_DATA_FILE.fullmatch(text) is None:
        return f"{shorten(text, 60)} is not a CSV, Parquet or JSON file"
    word = call.real(Word(text, text))
    if call.where(word) is not Where.WORKSPACE:
        return f"{shorten(text, 60)} is read from outside the workspace"
    return None


def _duckdb_query(call: Call, text: str) -> str | None:
    """Why the DuckDB statement ``text`` is refused, or None for one query that only reads workspace files."""
    try:
        import logging

        import sqlglot
        from sqlglot import exp
    except ImportError:  # pragma: no cover - sqlglot is a dependency
        return "SQL cannot be parsed here"
    logging.getLogger("sqlglot").setLevel(logging.ERROR)
    if text.lstrip().startswith("."):
        return "a dot command of the shell (.shell, .output, .read... run programs or touch files)"
    try:
        statements = [s for s in sqlglot.parse(text, read="duckdb") if s is not None]
    except Exception:
        return "the SQL does not parse"
    if len(statements) != 1:
        return "more than one statement"
    statement = statements[0]
    if not isinstance(statement, (exp.Query, exp.Describe, exp.Summarize, exp.Show)):
        return f"{type(statement).__name__.upper()} is not a query"
    for node in statement.walk():
        if isinstance(node, exp.Command):
            return f"{str(node.this)[:30].upper()} is a statement the parser keeps opaque"
        if isinstance(node, exp.Table) and isinstance(node.this, exp.Identifier) and node.this.args.get("quoted"):
            why = _query_path(call, str(node.this.this), scanned=True)
            if why is not None:
                return why
        if isinstance(node, exp.Literal) and node.is_string:
            secret = named_secret(str(node.this)) or env_file(str(node.this))
            if secret is not None:
                return f"{shorten(str(node.this), 60)} names {secret}"
        if not isinstance(node, exp.Func):
            continue
        name = (str(node.this) if isinstance(node, exp.Anonymous) else node.sql_name()).lower()
        if name in _DUCKDB_READERS:
            for literal in node.find_all(exp.Literal):
                if literal.is_string:
                    why = _query_path(call, str(literal.this), scanned=False)
                    if why is not None:
                        return why
            if any(not isinstance(arg, (exp.Literal, exp.Array, exp.Identifier)) for arg in node.expressions[:1]):
                return f"{name} reads files named by an expression"
        elif name.startswith("read_") or (
            isinstance(node, exp.Anonymous) and name not in _DUCKDB_PURE and name not in KNOWN_READ_FUNCTIONS
        ):
            return f"{name}() is a function the classifier does not know (it may read files, the environment or load an extension)"
    return None


def duckdb_sql(base: Handler) -> Handler:
    """DuckDB CLI (duckdb.org/docs/clients/cli/arguments, DuckDB 1.2): ``duckdb [OPTIONS] [FILE] [SQL...]`` runs
    the ``-c``/``-s`` statements (and operands after the database file) and exits; with none it reads statements
    from standard input. DuckDB SQL reads any file (``FROM 'path'``, ``read_csv``, ``read_text``), the environment
    (``getenv``), writes files (``COPY ... TO``, ``ATTACH``, ``EXPORT``), downloads extensions (``INSTALL``, or
    autoloaded by a function or file type), and a dot command runs programs (``.shell``): one query (SELECT,
    DESCRIBE, SUMMARIZE, SHOW) naming only CSV, Parquet or JSON files in the workspace and functions of
    :data:`_DUCKDB_PURE` or that sqlglot models keeps the catalogue's grade; anything else is refused, ``COPY ...
    TO`` too (it replaces the file it names, a dataset of the workspace as well). Tables and
    views of a database file may run any such query when read (a view is stored SQL), so with a database file only
    ``SHOW TABLES`` (``SHOW ALL TABLES``) is graded."""

    def handler(call: Call) -> None:
        base(call)
        texts: list[str | None] = []
        operands: list[Word] = []
        args = call.args
        index = 0
        while index < len(args):
            value = args[index].value
            index += 1
            if value in ("-c", "-s") and index < len(args):
                texts.append(args[index].value)
                index += 1
            elif value in ("-separator", "-newline", "-nullvalue"):
                index += 1
            elif value in ("-version", "-help"):
                return
            elif value is None or not value.startswith("-"):
                operands.append(args[index - 1])
        texts.extend(w.value for w in operands[1:])
        database = operands[0].value if operands else ":memory:"
        if not texts:
            refuse(call, "duckdb reading its statements from standard input")
            return
        for text in texts:
            if text is None:
                refuse(call, "duckdb running statements only known when it runs")
                return
            if database != ":memory:":
                if " ".join(text.split()).rstrip(";").strip().upper() not in ("SHOW TABLES", "SHOW ALL TABLES"):
                    refuse(call, f"duckdb {shorten(text, 60)} over a database file (its views are stored queries)")
                    return
                continue
            why = _duckdb_query(call, text)
            if why is not None:
                refuse(call, f"duckdb -c {shorten(text, 60)} ({why})")
                return

    handler.__name__ = "duckdb_sql"
    return handler


def csvsql_query(base: Handler) -> Handler:
    """csvsql(1) (csvkit 2.0): ``--query`` runs SQL over tables made from the CSV files in an in-memory SQLite
    database (without ``--db``, which the catalogue refuses); a query that is not a file name is graded as sqlite3's
    (:func:`grade_sql`): only reads keep the catalogue's grade (``ATTACH`` writes a file, an unknown function may be
    ``load_extension``). argparse takes a unique prefix of ``--query`` (``--que``)."""

    def handler(call: Call) -> None:
        base(call)
        args = call.args
        for index, word in enumerate(args):
            value = word.value
            if value is None or not value.startswith("--q"):
                continue
            name, equals, attached = value.partition("=")
            if not "--query".startswith(name):
                continue
            text = attached if equals else (args[index + 1].value if index + 1 < len(args) else None)
            if text is None:
                refuse(call, "csvsql --query only known when it runs")
                return
            level, why = grade_sql(text, "sqlite")
            if level != READ or ";" in text.strip().rstrip(";"):
                refuse(call, f"csvsql --query {shorten(text, 60)} ({why})")
                return

    handler.__name__ = "csvsql_query"
    return handler
