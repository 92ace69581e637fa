"""Databases' dump, restore and admin tools (psql, mysql, sqlite3, redis-cli, mongosh: programs/databases.py).

As there, reading a database server is ``remote`` (network), changing it ``change`` (system) and dropping or
cleaning it ``destroy``; a dump names its output with ``-f``/``--file``/``--result-file``/``-o``/``--out``.
Options that read client configuration or plugins (``--defaults-file``, ``--plugin-dir``) are ``unknown``.
"""

from __future__ import annotations

_PG = (
    "-h= --host= -p= --port= -U= --username= -d= --dbname= -w --no-password -W --password --role= -v --verbose "
    "-V --version -? --help -j= --jobs= -n= --schema= -N= --exclude-schema= -t= --table= -T= --exclude-table= "
    "-F= --format= -Z= --compress= -a --data-only -s --schema-only -O --no-owner -x --no-privileges "
    "--no-acl -E= --encoding= --if-exists --no-comments --inserts --column-inserts --lock-wait-timeout= "
    "--section= --exclude-table-data= --quote-all-identifiers --serializable-deferrable --snapshot= --strict-names "
    "--use-set-session-authorization --disable-triggers --no-tablespaces --no-publications --no-subscriptions "
    "--no-security-labels -b --blobs -B --no-blobs --large-objects --no-large-objects --exclude-extension= "
    "--extension= --filter=in --rows-per-insert= --on-conflict-do-nothing --load-via-partition-root "
    "--include-foreign-data= --no-sync --no-toast-compression --no-unlogged-table-data -f=out --file=out"
)
_MYSQL = (
    "-u= --user= -p -p* --password --password=* -h= --host= -P= --port= -S= --socket= --protocol= --ssl-mode= "
    "-r=out --result-file=out --all-databases -A --databases -B --single-transaction --quick -q --routines -R "
    "--triggers --events -E --no-data -d --no-create-info -t --add-drop-table --add-drop-database --lock-tables "
    "--skip-lock-tables --compact --complete-insert -c --extended-insert --hex-blob --where= -w= --tables "
    "--ignore-table= --set-gtid-purged= --column-statistics=* --default-character-set= -v --verbose -V --version "
    "--help -? --compress -C --defaults-file=:unknown --defaults-extra-file=:unknown --plugin-dir=:unknown "
    "--default-auth=:unknown --tab=out -T=out --xml -X --no-tablespaces --master-data* --source-data* "
    "--flush-logs:change -F:change --flush-privileges:change --delete-master-logs:destroy "
    "--delete-source-logs:destroy"
)

_HTS_OPTIONS = "-o=out --output=out -O= --output-type= -@= --threads="
_HTS_OUT = "-o=out --output=out -p=out --prefix=out"
_HTS_READS = "idxstats flagstat split isec filter concat annotate stats depth query norm mpileup call head tview"
_HTS_READ = {"grade": "read", "open": True, "options": _HTS_OUT}

CATALOGUE: dict[str, object] = {
    "pg_dump pg_dumpall": {
        "source": "pg_dump(1), pg_dumpall(1) (PostgreSQL 17)",
        "grade": "remote",
        "options": _PG + " -g --globals-only -r --roles-only -l= --database= -c:read --clean:read",
    },
    "pg_restore": {
        "source": "pg_restore(1) (PostgreSQL 17): with -d it restores into the database, else it writes a script",
        "grade": "read",
        "options": _PG + " -d=:change --dbname=:change -l:read --list:read -L=in --use-list=in -c:destroy "
        "--clean:destroy -C:change --create:change -1 --single-transaction -e --exit-on-error "
        "-I= --index= -P= --function= -S= --superuser=",
    },
    "pg_isready": {
        "source": "pg_isready(1) (PostgreSQL 17)",
        "grade": "remote",
        "options": "-h= --host= -p= --port= -d= --dbname= -U= --username= -t= --timeout= -q --quiet -V --version -? --help",
    },
    "createdb createuser": {"source": "createdb(1), createuser(1) (PostgreSQL 17)", "grade": "change", "open": True},
    "dropdb dropuser": {"source": "dropdb(1), dropuser(1) (PostgreSQL 17)", "grade": "destroy", "open": True},
    "vacuumdb reindexdb clusterdb": {
        "source": "vacuumdb(1), reindexdb(1), clusterdb(1) (PostgreSQL 17)",
        "grade": "change",
        "open": True,
    },
    "pg_basebackup": {
        "source": "pg_basebackup(1) (PostgreSQL 17): --waldir names where the WAL files are written, "
        "-T/--tablespace-mapping OLDDIR=NEWDIR where a tablespace is written",
        "grade": "remote",
        "open": True,
        "options": "-D=out --pgdata=out --waldir=out -T=pairs --tablespace-mapping=pairs",
    },
    "initdb": {
        "source": "initdb(1) (PostgreSQL 17)",
        "grade": "write",
        "open": True,
        "options": "-D=out --pgdata=out -X=out --waldir=out",
        "operands": "out",
    },
    "pg_ctl": {
        "source": "pg_ctl(1) (PostgreSQL 17)",
        "options": "-D=in --pgdata=in -l=out --log=out -o=:unknown -p=:unknown -w -W -t= -s -m= --mode= -V -? --help",
        "commands": {
            "status": "read",
            "start restart reload promote logrotate": "system",
            "stop kill": "critical",  # stops the server (as systemctl stop, programs/hostchanges.py)
            "init initdb": {"grade": "write", "options": "-D=out --pgdata=out"},
        },
    },
    "mysqldump mariadb-dump": {"source": "mysqldump(1) (MySQL 8.4)", "grade": "remote", "options": _MYSQL},
    "mysqladmin mariadb-admin": {
        "source": "mysqladmin(1) (MySQL 8.4)",
        "options": _MYSQL,
        "many": True,
        "commands": {
            "status extended-status ping processlist variables version": "remote",
            "create flush-hosts flush-logs flush-privileges flush-status flush-tables flush-threads password "
            "refresh reload start-replica stop-replica": "change",
            "drop kill shutdown": "destroy",
        },
    },
    "mongodump": {
        "source": "mongodump (MongoDB Database Tools 100.10)",
        "grade": "remote",
        "open": True,
        # --archive=FILE writes the archive to FILE (without a value, to standard output)
        "options": "-o=out --out=out --archive=*:out",
    },
    "mongoexport": {
        "source": "mongoexport (MongoDB Database Tools 100.10)",
        "grade": "remote",
        "open": True,
        "options": "-o=out --out=out",
    },
    "mongorestore mongoimport": {
        "source": "mongorestore, mongoimport (MongoDB Database Tools 100.10)",
        "grade": "change",
        "open": True,
        "options": "--drop:destroy --mode=:destroy",
    },
    "redis-benchmark": {
        "source": "redis-benchmark (redis.io/docs/management/optimization/benchmarks): writes keys",
        "grade": "change",
        "open": True,
    },
    "rabbitmqctl": {
        "source": "rabbitmqctl(8) (RabbitMQ 3.13)",
        "options": "-n= --node= -q --quiet -s --silent -t= --timeout= -l --longnames --formatter= -p= --vhost= "
        "--help --version",
        "commands": {
            "status cluster_status environment report list_vhosts list_users list_queues list_exchanges "
            "list_bindings list_connections list_channels list_consumers list_permissions list_user_permissions "
            "list_policies list_parameters node_health_check ping help version await_startup list_user_limits "
            "list_vhost_limits authenticate_user": {"grade": "remote", "open": True},
            "add_user add_vhost set_permissions set_user_tags change_password clear_permissions join_cluster "
            "set_policy clear_policy set_parameter clear_parameter set_vhost_limits start_app stop_app "
            "set_cluster_name rotate_logs close_connection close_all_connections": {"grade": "change", "open": True},
            "delete_user delete_vhost reset force_reset forget_cluster_node purge_queue delete_queue stop shutdown": {
                "grade": "destroy",
                "open": True,
            },
            "eval": "runs",
        },
    },
    "rabbitmqadmin": {
        "source": "rabbitmqadmin (RabbitMQ 3.13 Management Command Line Tool, rabbitmq.com/docs/management-cli): "
        "list and show read; declare and import change; publish sends a message; delete, purge and close delete or "
        "end; export writes the definitions (users' password hashes among them) to the file named; -c names its "
        "configuration file",
        "options": "-c=project --config=project -N= --node= -H= --host= -P= --port= -V= --vhost= -u= --username= "
        "-p= --password= -U= --base-uri= -f= --format= -S= --sort= -R --sort-reverse -d= --depth= -s --ssl "
        "--ssl-key-file=in --ssl-cert-file=in --ssl-ca-cert-file=in -k --ssl-insecure -q --quiet --help --version",
        "commands": {
            "list show help": {"grade": "remote", "open": True},
            "declare import": {"grade": "change", "open": True},
            "publish": {"grade": "publish", "open": True},
            "delete purge close": {"grade": "destroy", "open": True},
            "export": {"grade": "secret", "open": True, "operands": "out"},
        },
    },
    "etcdctl": {
        "source": "etcdctl README (etcd.io/docs/v3.5/dev-guide/interacting_v3) (etcd 3.5)",
        "options": "--endpoints= --user=* --password=* --cacert= --cert= --key= -w= --write-out= --dial-timeout= "
        "--command-timeout= --insecure-skip-tls-verify -h --help --debug",
        "commands": {
            # Kubernetes keeps its Secrets under /registry/secrets (unencrypted unless encryption at rest is set up:
            # Kubernetes "Encrypting Confidential Data at Rest"): a get of that prefix, or of the whole store, prints them
            "get watch": {
                "grade": "remote",
                "open": True,
                "words": {"/ /registry /registry/ /registry/secrets /registry/secrets/": "secret"},
            },
            "endpoint member version check alarm": {"grade": "remote", "open": True},
            "put txn lease lock elect move-leader defrag compaction auth user role": {"grade": "change", "open": True},
            "del": {"grade": "destroy", "open": True},
            "snapshot": {
                "commands": {
                    "save": {"grade": "secret", "open": True, "operands": "out"},  # the whole store, Secrets too
                    "status": "read",
                    # snapshot restore --data-dir/--wal-dir: the member's directories written (default NAME.etcd)
                    "restore": {"grade": "write", "open": True, "options": "--data-dir=out --wal-dir=out"},
                }
            },
            "make-mirror": {"grade": "change", "open": True},
        },
    },
    "kcat kafkacat": {
        "source": "kcat README (github.com/edenhill/kcat) (kcat 1.7): -P produces, -C consumes, -L lists metadata",
        "grade": "remote",
        "open": True,
        "options": "-P:publish -C -L -Q -b= -t= -p= -o= -e -F=in -X=:unknown",
    },
    # Apache Kafka's command-line tools (kafka.apache.org/documentation, "Basic Kafka Operations", and each tool's
    # --help, Kafka 3.8): the action is an option; --command-config and the .config options name a client properties
    # file (its SASL and interceptor settings load classes): a project file
    "kafka-topics kafka-topics.sh": {
        "source": "kafka-topics.sh --help (Apache Kafka 3.8): --list and --describe read, --create and --alter "
        "change, --delete deletes the topics and their records",
        "grade": "remote",
        "options": "--bootstrap-server= --command-config=project --topic= --topic-id= --list --describe --create "
        "--alter --delete --partitions= --replication-factor= --replica-assignment= --config= --if-exists "
        "--if-not-exists --exclude-internal --under-replicated-partitions --under-min-isr-partitions "
        "--at-min-isr-partitions --unavailable-partitions --help --version",
        "when": {"--create --alter": "change", "--delete": "destroy"},
    },
    "kafka-consumer-groups kafka-consumer-groups.sh": {
        "source": "kafka-consumer-groups.sh --help (Apache Kafka 3.8): --list and --describe read; --reset-offsets "
        "only prints the plan unless --execute is given (then the group skips or rereads records); --delete and "
        "--delete-offsets delete the group's committed offsets",
        "grade": "remote",
        "options": "--bootstrap-server= --command-config=project --group= --all-groups --topic= --all-topics --list "
        "--describe --members --offsets --state= --verbose --reset-offsets --dry-run --execute --export "
        "--to-earliest --to-latest --to-current --to-offset= --to-datetime= --by-duration= --shift-by= "
        "--from-file=in --delete --delete-offsets --timeout= --help --version",
        "when": {"--reset-offsets + --execute": "destroy", "--delete --delete-offsets": "destroy"},
    },
    "kafka-console-consumer kafka-console-consumer.sh": {
        "source": "kafka-console-consumer.sh --help (Apache Kafka 3.8): prints records; --formatter and the "
        "deserializer options load classes (not listed)",
        "grade": "remote",
        "options": "--bootstrap-server= --consumer.config=project --consumer-config=project --topic= --include= "
        "--group= --partition= --offset= --from-beginning --max-messages= --timeout-ms= --property= "
        "--consumer-property= --isolation-level= --skip-message-on-error --help --version",
    },
    "kafka-console-producer kafka-console-producer.sh": {
        "source": "kafka-console-producer.sh --help (Apache Kafka 3.8): sends standard input's lines as records",
        "grade": "publish",
        "options": "--bootstrap-server= --producer.config=project --producer-config=project --topic= --property= "
        "--producer-property= --sync --compression-codec=* --request-required-acks= --batch-size= --timeout= "
        "--max-block-ms= --help --version",
    },
    "kafka-configs kafka-configs.sh": {
        "source": "kafka-configs.sh --help (Apache Kafka 3.8): --describe reads; --alter changes configurations, "
        "and a topic's retention.ms, retention.bytes or cleanup.policy makes the broker delete its records (Kafka "
        '"Topic Configs"): which one the words give is not told apart, so --alter destroys',
        "grade": "remote",
        "options": "--bootstrap-server= --command-config=project --entity-type= --entity-name= --entity-default "
        "--topic= --broker= --broker-logger= --user= --client= --describe --all --alter --add-config= "
        "--add-config-file=in --delete-config= --help --version",
        "when": {"--alter": "destroy"},
    },
    "kafka-delete-records kafka-delete-records.sh": {
        "source": "kafka-delete-records.sh --help (Apache Kafka 3.8): deletes the records of the partitions the "
        "JSON file names up to the offsets given",
        "grade": "destroy",
        "options": "--bootstrap-server= --command-config=project --offset-json-file=in --help --version",
    },
    # NATS CLI (docs.nats.io/using-nats/nats-tools/nats_cli, natscli 0.1): stream, consumer, kv and object store
    # subcommands; reply --command runs a program for each request; sub --dump writes each message to a directory
    "nats": {
        "source": "NATS CLI reference (docs.nats.io/using-nats/nats-tools/nats_cli) (natscli 0.1)",
        "options": "-s= --server= --user= --password= --creds=in --nkey=in --tlscert=in --tlskey=in --tlsca=in "
        "--context= --timeout= -j --json --trace --no-context --help --version",
        "commands": {
            "pub publish": {"grade": "publish", "open": True},
            "sub subscribe": {"grade": "remote", "open": True, "options": "--dump=out"},
            "request req": {"grade": "publish", "open": True},
            "reply": "runs",
            "stream str": {
                "commands": {
                    "ls list info report view get subjects find": {"grade": "remote", "open": True},
                    "add create edit update copy cp seal": {"grade": "change", "open": True},
                    "rm delete purge rmm": {"grade": "destroy", "open": True},
                }
            },
            "consumer con": {
                "commands": {
                    "ls list info report next sub": {"grade": "remote", "open": True},
                    "add create edit update copy cp pause resume": {"grade": "change", "open": True},
                    "rm delete": {"grade": "destroy", "open": True},
                }
            },
            "kv": {
                "commands": {
                    "ls list get history status info watch keys": {"grade": "remote", "open": True},
                    "put create update add": {"grade": "change", "open": True},
                    "del rm purge": {"grade": "destroy", "open": True},
                }
            },
        },
    },
    # Consul CLI (developer.hashicorp.com/consul/commands, Consul 1.19): single-dash options
    "consul": {
        "source": "Consul commands (developer.hashicorp.com/consul/commands) (Consul 1.19): kv get reads, put and "
        "import write, delete deletes; exec runs a command on the cluster's nodes; snapshot save writes the state "
        "(ACL tokens among it), restore replaces it; watch and lock run a handler or command",
        "clusters": False,
        "options": "-http-addr= -token= -token-file=in -ca-file=in -client-cert=in -client-key=in -datacenter= "
        "-namespace= -partition= -stale -help -h --help -version --version",
        "commands": {
            "members info version catalog": {"grade": "remote", "open": True},
            "kv": {
                "commands": {
                    "get export": {"grade": "remote", "open": True},
                    "put import": {"grade": "change", "open": True},
                    "delete": {"grade": "destroy", "open": True},
                }
            },
            "snapshot": {
                "commands": {
                    "save": {"grade": "secret", "open": True, "operands": "out"},
                    "inspect": {"grade": "read", "open": True},
                    "restore": {"grade": "destroy", "open": True},
                }
            },
            "exec watch lock agent": "runs",
        },
    },
    # MinIO Client (min.io/docs/minio/linux/reference/minio-mc.html, mc RELEASE.2024): ALIAS/BUCKET/OBJECT paths;
    # a target that is a local path is written there; alias list prints each alias's access and secret keys
    "mc": {
        "source": "MinIO Client reference (min.io/docs/minio/linux/reference/minio-mc.html) (mc 2024): ls, cat, "
        "head, stat, du, tree, diff read; cp and mirror copy (mirror --remove deletes what the source lacks, "
        "--overwrite replaces); find --exec runs a command; mb makes a bucket; rm, rb and mv delete",
        "options": "-C=project --config-dir=project --json --quiet -q --no-color --debug --insecure "
        "--disable-pager --dp --limit-upload= --limit-download= --resolve= -h --help -v --version",
        "commands": {
            "ls cat head stat du tree diff ping ready": {"grade": "remote", "open": True},
            "cp": {"grade": "publish", "open": True, "operands": "last-out"},
            "mirror": {
                "grade": "publish",
                "open": True,
                "operands": "last-out",
                "options": "--remove --overwrite --watch -w",
                "when": {"--remove --overwrite": "destroy"},
            },
            "find": {"grade": "remote", "open": True, "options": "--exec=:runs --watch"},
            "mb": {"grade": "change", "open": True},
            "rm rb mv": {"grade": "destroy", "open": True},
            "alias": {
                "commands": {
                    "list ls": {"grade": "secret", "open": True},
                    "set add remove rm import": {"grade": "home", "open": True},
                }
            },
        },
    },
    "ldapsearch": {
        "source": "ldapsearch(1) (OpenLDAP 2.6)",
        "grade": "remote",
        "open": True,
        "options": "-y=in -f=in -T=out",
    },
    "ldapadd ldapmodify": {"source": "ldapmodify(1) (OpenLDAP 2.6)", "grade": "change", "open": True},
    "ldapdelete": {"source": "ldapdelete(1) (OpenLDAP 2.6)", "grade": "destroy", "open": True},
    "pg_waldump": {"source": "pg_waldump(1) (PostgreSQL 17)", "grade": "read", "open": True},
    "pg_receivewal pg_combinebackup": {
        "source": "pg_receivewal(1), pg_combinebackup(1) (PostgreSQL 17)",
        "grade": "remote",
        "open": True,
        "options": "-D=out --directory=out -o=out --output=out",
    },
    "parquet-tools": {
        "source": "parquet-tools (Apache Parquet CLI 1.x): inspect files; merge writes the last named",
        "commands": {
            "schema rowcount meta head dump cat column-index size inspect": {"grade": "read", "open": True},
            "merge": {"grade": "read", "open": True, "operands": "last-out"},
        },
    },
    "rpk": {
        "source": "rpk reference (docs.redpanda.com/current/reference/rpk) (rpk 24)",
        "options": "-h --help -v --verbose -X=:unknown --profile=",
        "commands": {
            "version": "read",
            "topic group cluster acl": {
                "commands": {
                    "list describe consume info status health": {"grade": "remote", "open": True},
                    "produce": {"grade": "publish", "open": True},
                    "create alter-config add-partitions seek config": {"grade": "change", "open": True},
                    "delete trim-prefix": {"grade": "destroy", "open": True},
                }
            },
        },
    },
    # samtools(1), bcftools(1) (htslib 1.21): they read alignment/variant files; -o names the output; index and
    # faidx write the index beside the file or to the file named second (samtools-index(1): "samtools index
    # aln.bam [out.index]"); samtools merge writes the file named first unless -o names it; samtools view -U
    # writes the alignments not selected; sort -T names the temporary files' prefix (bcftools sort: directory)
    "samtools": {
        "source": "samtools(1), samtools-index(1), samtools-merge(1), samtools-view(1), samtools-sort(1) "
        "(samtools 1.21)",
        "options": _HTS_OPTIONS,
        "commands": {
            _HTS_READS: _HTS_READ,
            "view": {"grade": "read", "open": True, "options": _HTS_OUT + " -U=out --unoutput=out"},
            "sort": {"grade": "read", "open": True, "options": _HTS_OUT + " -T=out"},
            "index faidx": {"grade": "write", "open": True, "operands": "out", "options": _HTS_OUT},
            "merge": {"grade": "read", "open": True, "operands": "first-out", "options": _HTS_OUT},
        },
    },
    "bcftools": {
        "source": "bcftools(1) (bcftools 1.21): index writes FILE.csi (or .tbi) beside the file unless -o names it; "
        "sort -T names the temporary directory",
        "options": _HTS_OPTIONS,
        "commands": {
            _HTS_READS + " view merge": _HTS_READ,
            "sort": {"grade": "read", "open": True, "options": _HTS_OUT + " -T=out --temp-dir=out"},
            "index": {"grade": "write", "open": True, "operands": "out", "options": _HTS_OUT},
        },
    },
    "prisma": {
        "source": "Prisma CLI reference (prisma.io/docs/orm/reference/prisma-cli-reference) (Prisma 5): generate "
        "writes the client into node_modules; migrate dev creates and applies migrations to the development "
        "database, migrate deploy applies them, migrate reset drops the database; db push changes the schema "
        "(--accept-data-loss and --force-reset drop data), db pull rewrites schema.prisma from the database, db "
        "execute runs SQL, db seed runs the project's seed command; studio serves a browser interface; format "
        "rewrites the schema; validate, version and debug print",
        # --schema names the schema whose generator blocks name the programs generate runs (Prisma schema
        # reference "generator": provider may be "a path to a generator" or a command), and which migrate and db
        # push run after changing the database: outside the workspace, code FlyBot does not read
        "options": "-h --help -v --version --schema=project",
        # a generator provider outside the workspace (programs/build.py prisma_settings) runs code FlyBot does not read
        "guard": "build:prisma_settings",
        "commands": {
            "generate": {"grade": "build", "open": True},
            "init": {"grade": "write", "open": True},
            "format": {"grade": "write", "open": True, "options": "--check"},
            "validate debug version -v": {"grade": "read", "open": True},
            "studio": {"grade": "network", "open": True},
            "migrate": {
                "commands": {
                    "dev deploy resolve": {"grade": "change", "open": True},
                    "status diff": {"grade": "network", "open": True},
                    "reset": {"grade": "destroy", "open": True},
                }
            },
            "db": {
                "commands": {
                    "push": {
                        "grade": "change",
                        "open": True,
                        "options": "--accept-data-loss --force-reset",
                        "when": {"--accept-data-loss --force-reset": "destroy"},
                    },
                    "pull": {"grade": "fetch", "open": True},
                    "execute": {"grade": "destroy", "open": True},
                    "seed": "runs",
                }
            },
        },
    },
    "alembic": {
        "source": "Alembic command reference (alembic.sqlalchemy.org/en/latest/api/commands.html) (Alembic 1.13): "
        "every command but init and list_templates loads the project's env.py; upgrade and stamp change the "
        "database, downgrade reverts migrations (their tables' data is lost), revision and merge write migration "
        "scripts (revision --autogenerate compares with the database), current and check read the database, "
        "history, heads, branches and show read the scripts, edit opens an editor",
        "options": "-h --help --version -c=project --config=project -n= --name= -x= --raiseerr -q --quiet",
        # upgrade, stamp, revision --autogenerate, current and check use the database: a build here, and the guard
        # (programs/build.py alembic_database) adds the remote change or connection unless the configuration's
        # database is an SQLite file in the workspace
        "guard": "build:alembic_database",
        "commands": {
            "upgrade stamp ensure_version": {"grade": "build", "open": True},
            "downgrade": {"grade": "destroy", "open": True},
            "revision": {
                "grade": "write",
                "open": True,
                "when": {"--autogenerate": "build"},
                "options": "--autogenerate",
            },
            "merge": {"grade": "write", "open": True},
            "init": {"grade": "write", "open": True},
            "current check": {"grade": "build", "open": True},
            "history heads branches show list_templates": {"grade": "build", "open": True},
            "edit": "runs",
        },
    },
    "flyway": {
        "source": "Flyway CLI and command reference (documentation.red-gate.com/fd/commands) (Flyway 10): migrate, "
        "baseline, repair and undo change the database, clean drops every object in its schemas, info, validate "
        'and check read it; settings are -KEY=VALUE words (Flyway "Configuration"): -configFiles names '
        "configuration files, -jarDirs and -locations name the Java migrations and callbacks (code) and the script "
        "migrations and callbacks it runs",
        "clusters": False,
        "options": "-configFiles=project -workingDirectory=project -jarDirs=project -locations=:unknown "
        "-callbacks=:unknown -url= -user= -password= -schemas= -defaultSchema= -table= -target= -environment= "
        "-cleanDisabled= -baselineOnMigrate= -baselineVersion= -outOfOrder= -validateOnMigrate= -connectRetries= "
        "-outputType= -outputFile=out -reportFilename=out -X -q -n -v -? --help -h",
        # locations, callbacks and jars outside the workspace named by the configuration files it reads
        # (programs/build.py flyway_settings) are code FlyBot does not read
        "guard": "build:flyway_settings",
        "commands": {
            "migrate baseline repair undo": "change",
            "clean": "destroy",
            "info validate check": "network",
            "version help": "read",
        },
    },
    # the statements are graded by the guard (programs/databases.py duckdb_sql): one query of workspace CSV, Parquet
    # or JSON files reads; a database file operand is opened read-write (created when missing) unless -readonly
    "duckdb": {
        "source": "DuckDB CLI arguments (duckdb.org/docs/clients/cli/arguments) (DuckDB 1.2): -c/-s run a command "
        "and exit, -readonly opens the database file read-only, -init/-cmd/-f run further commands, -unsigned "
        "loads unsigned extensions, -ui starts a web server",
        "grade": "read",
        "clusters": False,
        "operands": "first-out",
        "options": "-c= -s= -readonly -csv -json -line -list -markdown -box -table -column -html -ascii -quote "
        "-header -noheader -separator= -newline= -nullvalue= -batch -bail -echo -no-stdin -stats -safe -version "
        "-help",
        "when": {"-readonly": {"operands": "none"}},
        "guard": "databases:duckdb_sql",
    },
}
