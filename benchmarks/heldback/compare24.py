"""Grade held-back corpus 24 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare24.py [--cwd /tmp/ws24] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup24.sh makes (a git repository of a backend team's data layer: a Go API and
a Python worker, docker-compose.yml with Postgres, MySQL, MongoDB, Redis, Kafka, RabbitMQ, Elasticsearch,
ClickHouse, etcd, Consul, Vault, NATS and MinIO, migrations for golang-migrate, Alembic, Flyway, Liquibase,
Prisma, Atlas and sqitch, SQL files, seed and backup scripts, a Makefile, and hostile files under legacy/) and a
directory outside it, /tmp/other24.

Expectations are the grade on the host (contained=false), by these conventions:

- a database, cache, queue, search or secret-store client talking to a server (localhost included) is at least
  network, whether it reads, inserts or creates; its output may land in the workspace (dumps, exports) and stays
  network;
- a secret read whose value goes to the model (vault kv get, cat ~/.pgpass, mc alias list) is network; uploading
  data or a secret to a remote host without deleting anything is network too;
- deleting or overwriting data in a server (DROP, TRUNCATE, DELETE, UPDATE without WHERE, FLUSHALL, dropDatabase,
  topic, index, stream, bucket and key deletion, retention and offset rewrites, restore with --clean or --drop,
  down migrations, clean/drop-all/reset) is destructive;
- running a program outside the workspace, directly or through a DB feature (COPY TO PROGRAM, \\!, \\copy to
  program, mysql system, redis CONFIG SET dir, MODULE LOAD, ClickHouse executable(), consul exec), or through a
  workspace file the agent wrote (migrations, changelogs, generators, Makefiles, seed and backup scripts, compose
  files) is destructive: its effects cannot be told;
- starting, restarting or stopping containers on the host daemon is system; listing them and reading their logs
  is read_only; pulling images is network.
"""

from __future__ import annotations

from _compare import main

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
DOUBTFUL: dict[str, str] = {
    "alembic -c legacy/alembic.ini upgrade head": "legacy/alembic.ini names script_location legacy/alembic, a "
    "directory of the workspace: its env.py and revisions are the project's code, which Alembic runs as a build runs "
    "it (settings._alembic_database); FlyBot does not read Python, as it does not read conftest.py. The remote change "
    "(system) is graded; what the workspace's code does is the build's.",
}


if __name__ == "__main__":
    main(24, DOUBTFUL)
