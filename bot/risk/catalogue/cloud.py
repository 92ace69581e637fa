"""Cloud, platform and secret-store CLIs (aws, gcloud, az, gh, glab: programs/cloud.py; kubectl, helm, terraform:
programs/control.py).

As for those: reads are ``remote`` (network), changes ``change`` (system, never downgraded), deletions ``destroy``.
Deploying changes remote state. Commands that print secrets (``vault read``, ``heroku config``) are ``secret``;
commands that run a program with the platform's credentials or open a shell elsewhere are ``runs``. Logging in and
selecting a target write the tool's configuration under ``~`` (``home``). Entries with ``verbs`` grade a command
by its verb as programs/cloud.py does for gcloud and az (list/get/show read, create/update change, delete destroy;
``verbs`` maps the tool's short aliases to those verbs).
"""

from __future__ import annotations

_REMOTE = {"grade": "remote", "open": True}
_CHANGE = {"grade": "change", "open": True}
_DESTROY = {"grade": "destroy", "open": True}
_HOME = {"grade": "home", "open": True}
_READ = {"grade": "read", "open": True}
#: ansible-galaxy [collection|role] install|download: into ~/.ansible, or the -p directory (graded where it lands);
#: the names are Galaxy names, URLs or local files ("Installing collections": a tarball, a directory, a git URL)
_GALAXY_INSTALL = {
    "grade": "install",
    "open": True,
    "options": "-p=out --collections-path=out --roles-path=out -r=project --requirements-file=project",
    "when": {"-p --collections-path --roles-path": "fetch"},
    # a git URL or tarball URL names the source (chosen); a local tarball or directory outside the workspace is
    # plugins and roles from outside
    "urls": "chosen",
    "operands": "project",
}

CATALOGUE: dict[str, object] = {
    # cdk runs the project's app (cdk.json "app", or --app: any command) to synthesize the templates, looking up
    # context in the account; deploy and watch update the stacks, deleting resources the app no longer declares
    # (as pulumi up); --build is a command run first, --plugin code it loads
    "cdk": {
        # synth, diff, ls, deploy run cdk.json's app ("Configuration (cdk.json)"), graded as the command it is
        "guard": "cloud:cdk_app",
        "source": "AWS CDK Toolkit commands (docs.aws.amazon.com/cdk/v2/guide/ref-cli-cmd.html) (aws-cdk 2)",
        "options": "-a=:unknown --app=:unknown --build=:unknown --plugin=project -p=project -o=out --output=out "
        "--version -h --help",
        "when": {"--version -h --help": "read"},
        "commands": {
            "synth synthesize list ls diff metadata context notices": _REMOTE,
            "deploy watch destroy": _DESTROY,
            "bootstrap import rollback": _CHANGE,
            "init": {"grade": "fetch", "open": True},
            "doctor acknowledge ack": _READ,
            "docs doc": {"grade": "network", "open": True},
        },
    },
    # serverless deploy updates the service's CloudFormation stack (resources no longer declared are deleted);
    # invoke runs the deployed function; invoke local and offline run it here; print resolves the configuration's
    # variables, secrets from SSM and Secrets Manager too
    "serverless sls": {
        "guard": "cloud:project_here",
        "source": "Serverless Framework CLI reference (serverless.com/framework/docs/providers/aws/cli-reference) "
        "(Serverless 3)",
        "options": "--version -v -h --help",
        "when": {"--version -v -h --help": "read"},
        "commands": {
            "deploy remove rollback": _DESTROY,
            "info logs metrics": _REMOTE,
            "invoke": {"grade": "change", "open": True, "commands": {"local": "runs"}},
            "package": {"grade": "remote", "open": True},
            "print": {"grade": "secret", "open": True},
            "create": {"grade": "fetch", "open": True},
            "offline": "runs",
        },
    },
    # firebase deploy publishes the project's hosting, functions and rules (functions no longer in the source are
    # deleted with --force); emulators and serve run the functions here and serve them on ports
    "firebase": {
        "guard": "cloud:project_here",
        "source": "Firebase CLI reference (firebase.google.com/docs/cli) (firebase-tools 13)",
        "options": "-P= --project= --token= --json --non-interactive --debug --version -V -h --help",
        "when": {"--version -V -h --help": "read"},
        "commands": {
            "deploy": {"grade": "change", "open": True, "options": "-f:destroy --force:destroy"},
            "emulators:start serve emulators:exec": "runs",
            "projects:list apps:list functions:log hosting:channel:list use": _REMOTE,
            "functions:delete hosting:disable hosting:channel:delete": _DESTROY,
            "login logout": _HOME,
            "init": {"grade": "write", "open": True},
        },
    },
    # kubeseal encrypts a Secret with the controller's certificate (fetched from the cluster unless --cert names
    # it) and prints the SealedSecret; --recovery-unseal decrypts sealed secrets with the private keys given
    "kubeseal": {
        "source": "kubeseal --help (sealed-secrets 0.27)",
        "grade": "remote",
        "open": True,
        "options": "--cert=in --from-file=in --merge-into=out --kubeconfig=project --recovery-unseal:secret "
        "--recovery-private-key=in --version -h --help",
        "when": {"--version -h --help": "read"},
    },
    # dbt run, build, seed, snapshot, test, show and run-operation run the project's SQL and its on-run-start and
    # on-run-end hooks in the warehouse (run replaces tables and views, --full-refresh rebuilds incremental ones):
    # any change there; compile and docs generate query the warehouse (introspective queries); parse and ls load
    # the project (its macros, packages); debug connects; deps downloads the packages into the project
    "dbt": {
        "guard": "cloud:project_here",
        "source": "dbt command reference (docs.getdbt.com/reference/dbt-commands) (dbt-core 1.8)",
        "options": "--profiles-dir=project --project-dir=project --version -h --help",
        "when": {"--version -h --help": "read"},
        "commands": {
            "run build seed snapshot test show run-operation retry": _DESTROY,
            "compile debug": {
                "grade": "remote",
                "open": True,
                "options": "--profiles-dir=project --project-dir=project",
            },
            "source": {"commands": {"freshness": {"grade": "remote", "open": True}}},
            "docs": {
                "commands": {
                    "generate": {"grade": "remote", "open": True, "options": "--target-path=out"},
                    "serve": {"grade": "network", "open": True},
                }
            },
            "parse ls list": {
                "grade": "build",
                "open": True,
                "options": "--profiles-dir=project --project-dir=project",
            },
            "deps": {"grade": "fetch", "open": True},
            "clean": {"grade": "delete", "open": True},
            "init": {"grade": "home", "open": True},
        },
    },
    "pulumi": {
        "source": "Pulumi CLI commands (pulumi.com/docs/iac/cli/commands) (Pulumi 3)",
        "options": "-h --help --version -v= --verbose= --color= -C=project --cwd=project --non-interactive --logtostderr "
        "--disable-integrity-checking --emoji --logflow --profiling= --tracing=",
        "commands": {
            "refresh import cancel": _CHANGE,
            # pulumi up "creates, updates or deletes resources" (pulumi up docs): those the program no longer declares
            "up update watch destroy": _DESTROY,
            "preview": _REMOTE,
            "whoami about logs org": _REMOTE,
            "version gen-completion help": _READ,
            "new": {"grade": "fetch", "open": True},
            "install": {"grade": "fetch", "open": True},
            "convert": {"grade": "write", "open": True, "options": "--out=out"},
            "login logout": _HOME,
            "console": {"grade": "network", "open": True},
            "config": {
                "grade": "read",
                "open": True,
                "options": "--show-secrets:secret",
                "commands": {
                    "get": "secret",
                    "set set-all rm rm-all refresh cp": {"grade": "write", "open": True},
                    "env": {"commands": {"add init ls rm": {"grade": "write", "open": True}}},
                },
            },
            "stack": {
                "grade": "remote",
                "commands": {
                    "ls history hist output select graph tag": {
                        "grade": "remote",
                        "open": True,
                        "options": "--show-secrets:secret",
                    },
                    "export": {"grade": "remote", "open": True, "options": "--file=out --show-secrets:secret"},
                    "init change-secrets-provider rename unselect": _CHANGE,
                    "import": _CHANGE,
                    "rm": _DESTROY,
                },
            },
            "state": {
                "commands": {
                    "delete": _DESTROY,
                    "edit": "runs",
                    "move rename repair unprotect protect upgrade": _CHANGE,
                }
            },
            "plugin": {
                "commands": {
                    "ls": _READ,
                    "install": {"grade": "install", "open": True},
                    "rm": {"grade": "delete", "open": True},
                }
            },
            "schema": {"commands": {"check": _READ}},
            "policy": {
                "commands": {
                    "ls group validate-config": _REMOTE,
                    "new": {"grade": "fetch", "open": True},
                    "publish enable disable": _CHANGE,
                    "rm": _DESTROY,
                }
            },
            "env": {
                "commands": {
                    "ls get diff version": _REMOTE,
                    "open": "secret",
                    # pulumi env run ENV -- COMMAND: runs the command with the environment's secrets set
                    "run": "runs",
                    "init set clone tag": _CHANGE,
                    "edit": "runs",
                    "rm": _DESTROY,
                }
            },
        },
    },
    "doctl": {
        "source": "doctl reference (docs.digitalocean.com/reference/doctl) (doctl 1.11x); aliases from doctl --help",
        "options": "-h --help -v --version -t= --access-token= --context= -o= --output= --format= --no-header "
        "--trace --interactive -c=:unknown --config=:unknown -u=:unknown --api-url=:unknown",
        "verbs": {"g": "get", "ls": "list", "rm": "delete", "c": "create", "u": "update"},
        "open": True,
        "commands": {
            "auth": {"commands": {"init switch remove": _HOME, "ls list": _READ}},
            "version": "read",
            "compute": {
                "verbs": {"g": "get", "ls": "list", "rm": "delete", "d": "delete", "c": "create", "u": "update"},
                "commands": {"ssh": "runs"},
            },
        },
    },
    "linode-cli": {
        "source": "linode-cli (Linode CLI, techdocs.akamai.com/cloud-computing/docs/getting-started-with-the-linode-cli)",
        "options": "-h --help --version --text --json --pretty --format= --no-headers --all --suppress-warnings",
        "open": True,
        "verbs": {},
        "commands": {
            "configure": _HOME,
            "obj": {
                "commands": {
                    "get": {"grade": "remote", "open": True, "operands": "last-out"},
                    "ls la signurl du info": _REMOTE,
                    "put mb cp setacl": _CHANGE,
                    "rm rb del": _DESTROY,
                }
            },
        },
    },
    "openstack": {
        "source": "OpenStackClient command list (docs.openstack.org/python-openstackclient/latest/cli) (OSC 7)",
        "options": "-h --help --version --os-cloud= --os-auth-url= --os-project-name= --os-username= --os-password= "
        "--os-region-name= --os-identity-api-version= --os-interface= -f= --format= -c= --column=",
        "open": True,
        "verbs": {},
        "commands": {"server": {"verbs": {}, "commands": {"ssh": "runs"}}},
    },
    "exo": {
        "source": "Exoscale CLI reference (community.exoscale.com/documentation/tools/exoscale-command-line-interface)",
        "options": "-h --help --version -O= --output-format= -z= --zone= -A= --use-account=",
        "open": True,
        "verbs": {},
        "commands": {
            "config": _HOME,
            "compute": {"verbs": {}, "commands": {"instance": {"verbs": {}, "commands": {"ssh": "runs"}}}},
            "storage": {
                "commands": {
                    "ls list show": _REMOTE,
                    "get download": {"grade": "remote", "open": True, "operands": "last-out"},
                    "put upload mb metadata headers setacl presign": _CHANGE,
                    "rm rb delete": _DESTROY,
                }
            },
        },
    },
    "ibmcloud ic": {
        "source": "IBM Cloud CLI reference (cloud.ibm.com/docs/cli?topic=cli-ibmcloud_cli) (ibmcloud 2)",
        "options": "-h --help -v --version -q --quiet",
        "open": True,
        "verbs": {"ls": "list", "rm": "delete"},
        "commands": {
            "login logout target api config": _HOME,
            "regions account": _REMOTE,
            "update": {"grade": "install", "open": True},
            "version v help": _READ,
            "plugin": {
                "commands": {
                    "list": _READ,
                    "install update": {"grade": "install", "open": True},
                    "uninstall": {"grade": "delete", "open": True},
                    "repo-plugins": _REMOTE,
                }
            },
        },
    },
    "flyctl fly": {
        "source": "flyctl reference (fly.io/docs/flyctl) (flyctl 0.3; fly is the same program)",
        # "-c, --config string: Path to application configuration file" (fly.toml: the image, build and
        # release command deployed), on the app commands
        "options": "-h --help -t= --access-token= --verbose --debug -c=project --config=project",
        "commands": {
            "docs": _READ,
            # fly version upgrade (also version update) reinstalls flyctl from fly.io's installer
            "version": {
                "grade": "read",
                "open": True,
                "commands": {"upgrade update": {"grade": "install", "open": True}},
            },
            "status logs dashboard open info ips regions releases history checks": _REMOTE,
            "deploy launch scale restart suspend resume": _CHANGE,
            "auth": {"commands": {"login logout signup": _HOME, "whoami": _REMOTE, "token": "secret"}},
            "apps app": {
                "commands": {
                    "list ls open releases": _REMOTE,
                    "create move restart": _CHANGE,
                    "destroy delete": _DESTROY,
                }
            },
            "secrets": {"commands": {"list ls": _REMOTE, "set import deploy": _CHANGE, "unset": _DESTROY}},
            "machine machines m": {
                "commands": {
                    "list ls status": _REMOTE,
                    "run start stop restart update clone cordon uncordon": _CHANGE,
                    "destroy remove rm kill": _DESTROY,
                    "exec": "runs",
                }
            },
            "volumes volume vol": {
                "commands": {"list ls show": _REMOTE, "create extend fork": _CHANGE, "destroy delete rm": _DESTROY}
            },
            "ssh console": "runs",
            "proxy": {"grade": "network", "open": True},
        },
    },
    "heroku": {
        "source": "Heroku CLI commands (devcenter.heroku.com/articles/heroku-cli-commands) (heroku 9)",
        "options": "-h --help -v --version",
        "commands": {
            "apps apps:info info ps logs releases addons domains regions status whoami access pipelines "
            "apps:list stack features": _REMOTE,
            "config config:get": {"grade": "secret", "open": True},
            "login logout git:remote": _HOME,
            "create apps:create config:set ps:scale ps:restart restart addons:create maintenance:on "
            "maintenance:off releases:rollback rollback domains:add ps:type": _CHANGE,
            "destroy apps:destroy addons:destroy domains:remove config:remove config:unset": _DESTROY,
            "run run:detached pg:psql redis:cli local": "runs",
            "git:clone": {"grade": "fetch", "open": True},
            "update": {"grade": "install", "open": True},
        },
    },
    "vercel": {
        "source": "Vercel CLI reference (vercel.com/docs/cli) (vercel 39): vercel [path] deploys",
        "options": "-h --help -v --version -d --debug -t= --token= --scope= -S= --cwd=in -Q= --global-config=:unknown "
        "-A=:unknown --local-config=:unknown -y --yes --prod:change -e= --env= -b= --build-env= "
        "--regions= --prebuilt --force --public --no-wait",
        "grade": "change",
        "else": "change",
        "commands": {
            "deploy redeploy promote rollback scale": _CHANGE,
            # vercel alias [set] DEPLOYMENT DOMAIN, alias ls, alias rm DOMAIN (removes the alias)
            "alias aliases ln": {
                "grade": "change",
                "open": True,
                "else": "change",
                "commands": {"ls list": _REMOTE, "set": _CHANGE, "rm remove": _DESTROY},
            },
            "remove rm": _DESTROY,
            "ls list inspect logs whoami": _REMOTE,
            # vercel certs ls|issue|add|rm, vercel teams list|add|invite|switch (Vercel CLI reference)
            "certs": {"commands": {"ls list": _REMOTE, "issue add": _CHANGE, "rm remove": _DESTROY}},
            "teams": {"commands": {"ls list": _REMOTE, "add invite": _CHANGE, "switch": _HOME}},
            "project projects": {
                "grade": "remote",
                "open": True,
                "commands": {"ls list inspect": _REMOTE, "add": _CHANGE, "rm remove": _DESTROY},
            },
            "init": {"grade": "fetch", "open": True},
            "login logout switch": _HOME,
            "link": {"grade": "write", "open": True},
            "pull": {"grade": "fetch", "open": True},
            # vercel build runs the Build Command of vercel.json or the project's settings (.vercel/project.json),
            # a shell line FlyBot does not read, as vercel dev runs the Development Command
            "dev build": "runs",
            "env": {
                "commands": {
                    "ls list": _REMOTE,
                    # vercel env pull FILE writes the project's variables, secrets included: to standard output
                    # they go to the model
                    "pull": {
                        "grade": "fetch",
                        "open": True,
                        "operands": "out",
                        "words": {"/dev/stdout /dev/fd/1 /dev/stderr /dev/fd/2 /dev/tty": "secret"},
                    },
                    "add": _CHANGE,
                    "rm remove": _DESTROY,
                }
            },
            "domains dns secrets": {
                "commands": {"ls list inspect": _REMOTE, "add buy move transfer-in": _CHANGE, "rm remove": _DESTROY}
            },
        },
    },
    "netlify ntl": {
        "source": "Netlify CLI command reference (cli.netlify.com) (netlify-cli 17)",
        "options": "-h --help --version --debug --auth=",
        "guard": "cloud:netlify_api",  # api METHOD: graded by the method's verb
        "commands": {
            "deploy init link": _CHANGE,
            "login logout switch unlink": _HOME,
            "status open sites:list api logs": _REMOTE,
            # netlify build runs netlify.toml's [build] command and its Build Plugins (Netlify CLI "build"), a
            # shell line and code FlyBot does not read, as netlify dev runs the [dev] command
            "dev serve functions:serve build": "runs",
            "functions:invoke": _CHANGE,
            "env:list env:get": "secret",
            "env:set env:import env:clone": _CHANGE,
            "env:unset sites:delete": _DESTROY,
            "sites:create": _CHANGE,
        },
    },
    "vault": {
        "source": "Vault commands (developer.hashicorp.com/vault/docs/commands) (Vault 1.17)",
        "options": "-h --help -v --version -address= -namespace= -format= -field= -output-curl-string -non-interactive",
        "open": True,
        "commands": {
            "read": "secret",
            "write patch": _CHANGE,
            "delete": _DESTROY,
            "list status version path-help": _REMOTE,
            # vault print token: "prints the value of the Vault token that will be used for commands"
            # (developer.hashicorp.com/vault/docs/commands/print/token)
            "print": "secret",
            "login": _HOME,
            "seal unseal": _CHANGE,
            "server agent proxy ssh": "runs",
            "kv": {
                "commands": {
                    "get": "secret",
                    "put patch rollback undelete enable-versioning": _CHANGE,
                    "list": _REMOTE,
                    "delete destroy": _DESTROY,
                    # vault kv metadata: get reads the key's metadata, put and patch change its settings, delete
                    # "deletes all versions and metadata for the provided key" (developer.hashicorp.com/vault/docs/
                    # commands/kv/metadata)
                    "metadata": {
                        "grade": "remote",
                        "commands": {
                            "get": _REMOTE,
                            "put patch": _CHANGE,
                            "delete": _DESTROY,
                        },
                    },
                }
            },
            "operator": {
                "commands": {
                    "init": "secret",
                    "seal unseal step-down rekey raft members": _CHANGE,
                    "generate-root": "secret",
                }
            },
            "token": {
                "commands": {
                    # vault token lookup: the token's information, its "id" (the token itself) among it
                    # (developer.hashicorp.com/vault/docs/commands/token/lookup)
                    "lookup": "secret",
                    "capabilities": _REMOTE,
                    # vault token create -policy=root: a token with the root policy "can do anything in Vault"
                    # (developer.hashicorp.com/vault/docs/concepts/policies, "Built-in policies")
                    "create": {
                        "grade": "secret",
                        "open": True,
                        "options": "-policy=",
                        "when": {"-policy=root": "grant"},
                    },
                    "renew": _CHANGE,
                    "revoke": _DESTROY,
                }
            },
            "secrets auth audit plugin policy namespace": {
                "commands": {
                    "list read": _REMOTE,
                    "enable write tune move register reload create": _CHANGE,
                    "disable delete deregister": _DESTROY,
                    "fmt": {"grade": "write", "open": True},
                }
            },
        },
    },
    "doppler": {
        "source": "Doppler CLI (docs.doppler.com/docs/cli) (doppler 3)",
        "options": "-h --help -v --version --json -t= --token= -p= --project= -c= --config=",
        "commands": {
            "run": "runs",
            "secrets": {
                "grade": "secret",
                "commands": {"get download": "secret", "set upload": _CHANGE, "delete": _DESTROY},
            },
            "projects configs environments": {
                "grade": "remote",
                "commands": {"get": _REMOTE, "create update": _CHANGE, "delete": _DESTROY},
            },
            "setup login logout": _HOME,
            "open": {"grade": "network", "open": True},
            "me": _REMOTE,
        },
    },
    "argocd": {
        "source": "argocd CLI reference (argo-cd.readthedocs.io/en/stable/user-guide/commands/argocd) (Argo CD 2.12)",
        "options": "-h --help --server= --grpc-web --insecure --plaintext --auth-token=",
        "commands": {
            "login logout context relogin": _HOME,
            # version asks the server for its version too; --client prints only the client's
            "version": {"grade": "remote", "open": True, "options": "--client", "when": {"--client": "read"}},
            "app": {
                "commands": {
                    "list get history diff logs manifests resources wait": _REMOTE,
                    "sync set create rollback patch edit unset terminate-op": _CHANGE,
                    "delete delete-resource": _DESTROY,
                }
            },
            "repo proj cluster account": {
                "commands": {"list get": _REMOTE, "add create set update-password": _CHANGE, "rm delete": _DESTROY}
            },
        },
    },
    "flux": {
        "source": "flux CLI reference (fluxcd.io/flux/cmd) (Flux 2.4)",
        "options": "-h --help -v --version -n= --namespace= --context= --kubeconfig=:runs",
        "commands": {
            "check get logs stats tree version diff events export trace build": _REMOTE,
            "create reconcile suspend resume bootstrap install": _CHANGE,
            "delete uninstall": _DESTROY,
        },
    },
    "tailscale": {
        "source": "Tailscale CLI (tailscale.com/kb/1080/cli) (tailscale 1.7x): up/login/switch join a tailnet, --ssh "
        "runs an SSH server (remote access); tailscale funnel "
        "(tailscale.com/kb/1311/tailscale-funnel): routes traffic from the internet to a local service",
        "options": "-h --help --socket=",
        "guard": "net:tailscale_funnel",
        "commands": {
            "status ip version whois dns exit-node": {"grade": "read", "open": True},
            # netcheck "Print an analysis of local network conditions" (it probes the DERP relays); metrics write
            # PATH "writes metric values to a text file provided as its only argument"
            "netcheck": {"grade": "network", "open": True},
            "metrics": {"commands": {"print": "read", "write": {"grade": "read", "open": True, "operands": "out"}}},
            "ping": {"grade": "network", "open": True},
            "up down set login logout switch serve funnel cert drive lock": {"grade": "system", "open": True},
            "file": {
                "commands": {
                    "cp": {"grade": "publish", "open": True},
                    "get": {"grade": "network", "open": True, "operands": "out"},
                }
            },
            "bugreport": {"grade": "publish", "open": True},
            "ssh nc web": "runs",
        },
    },
    "kaggle": {
        "source": "Kaggle API CLI (github.com/Kaggle/kaggle-api docs) (kaggle 1.6)",
        "options": "-h --help -v --version",
        "commands": {
            "competitions c datasets d kernels k models m": {
                "commands": {
                    "list files leaderboard status output metadata": {
                        "grade": "remote",
                        "open": True,
                        "options": "-p=out --path=out",
                    },
                    "download pull": {"grade": "fetch", "open": True, "options": "-p=out --path=out"},
                    "submit push create version": {"grade": "publish", "open": True},
                    "init": {"grade": "write", "open": True},
                    "delete": {"grade": "destroy", "open": True},
                }
            },
            "config": {"commands": {"view path": "read", "set unset": {"grade": "home", "open": True}}},
        },
    },
    "jira": {
        "source": "jira-cli (github.com/ankitpokhrel/jira-cli) (jira-cli 1.5): issue content writes are forge writes",
        "options": "-h --help -c= --config= -p= --project= --debug",
        "commands": {
            "issue epic sprint": {
                "commands": {
                    "list ls view": {"grade": "remote", "open": True},
                    "create edit assign move comment link unlink clone worklog add": {"grade": "publish", "open": True},
                    "close": {"grade": "change", "open": True},
                    "delete": {"grade": "destroy", "open": True},
                }
            },
            "project board release": {"commands": {"list ls": {"grade": "remote", "open": True}}},
            "open": {"grade": "network", "open": True},
            "me serverinfo version": {"grade": "remote", "open": True},
            "init": {"grade": "home", "open": True},
        },
    },
    "koji": {
        "source": "koji CLI (docs.pagure.org/koji) (koji 1.35)",
        "options": "-h --help -p= --profile= --noauth --authtype= -q --quiet --debug",
        "commands": {
            "buildinfo taginfo list-tags list-builds list-pkgs list-tagged latest-build help version moshimoshi hello "
            "list-hosts list-targets taskinfo watch-task watch-logs": {"grade": "remote", "open": True},
            "build tag-build untag-build resubmit cancel add-pkg block-pkg chain-build image-build": {
                "grade": "change",
                "open": True,
            },
            "download-build download-task download-logs": {"grade": "fetch", "open": True},
            "call": "unknown",
        },
    },
    "eksctl": {
        "source": "eksctl (eksctl.io/usage) (eksctl 0.19x): GROUP VERB",
        "options": "-h --help --version",
        "open": True,
        "verbs": {},
        "commands": {"version": "read", "utils": "unknown", "anywhere": "unknown"},
    },
    "nomad": {
        "source": "Nomad commands (developer.hashicorp.com/nomad/docs/commands) (Nomad 1.9)",
        "options": "-h --help -v --version -address= -region= -namespace=",
        "open": True,
        "commands": {
            "status version": _REMOTE,
            "job": {
                "commands": {
                    "status inspect history plan validate": _REMOTE,
                    "run dispatch revert scale promote": _CHANGE,
                    "stop": _DESTROY,
                }
            },
            "run plan": _CHANGE,
            "node alloc deployment namespace server": {
                "commands": {
                    "status list inspect logs fs": _REMOTE,
                    "exec": "runs",
                    "stop drain eligibility restart": _CHANGE,
                }
            },
            "agent": "runs",
        },
    },
    "helmfile": {
        "source": "helmfile CLI (helmfile.readthedocs.io) (helmfile 0.16x)",
        # the helmfile's exec template calls and hooks run programs (helmfile "Templating", "Hooks")
        "guard": "cloud:helmfile_programs",
        # -f/--file: the helmfile.yaml (or helmfile.d) loaded: its templates' exec function and its hooks run
        # programs; template --output-dir and write-values --output-file-template name where files are written
        "options": "-h --help -v --version -f=project --file=project -e= --environment= -l= --selector= "
        "--kube-context= -n= --namespace= -q --quiet --debug",
        "commands": {
            "sync apply deps repos fetch": _CHANGE,
            "destroy delete": _DESTROY,
            "diff lint list status build": _REMOTE,
            "template write-values": {
                "grade": "remote",
                "open": True,
                "options": "--output-dir=out --output-dir-template=:unknown --output-file-template=:unknown",
            },
            "init": {"grade": "install", "open": True},
        },
    },
    "cli53": {
        "source": "cli53 README (github.com/barnybug/cli53) (cli53 0.8): Route 53 zones and records",
        "options": "-h --help --version --profile= --endpoint-url=",
        "open": True,
        "verbs": {"rrdelete": "delete", "rrcreate": "create", "rrpurge": "purge"},
        "commands": {"export": _REMOTE, "import": _CHANGE},
    },
    "prowler": {
        "source": "Prowler CLI (docs.prowler.com) (Prowler 4): audits a cloud account through its APIs",
        "grade": "remote",
        "open": True,
        # -x/--checks-folder DIR: custom checks (Python) loaded from DIR and run
        "options": "-o=out --output-directory=out -F= --output-filename= --config-file=in -x=project "
        "--checks-folder=project",
    },
    "gcalcli": {
        "source": "gcalcli README (gcalcli 4.5): Google Calendar from the command line",
        "options": "-h --help --version --calendar= --nocolor --config-folder=",
        "commands": {
            "agenda calw calm list search": _REMOTE,
            "add quick import": {"grade": "publish", "open": True},
            "edit": "runs",
            "delete": _DESTROY,
            "init": _HOME,
        },
    },
    "gnmic": {
        "source": "gnmic (gnmic.openconfig.net) (gnmic 0.3x): gNMI get/subscribe read, set changes a device",
        "options": "-a= --address= -u= --username= -p= --password= --insecure --skip-verify -e= --encoding= "
        "--tls-ca= --tls-cert= --tls-key= --config=in -d --debug --timeout=",
        "commands": {"get subscribe capabilities cap listen prompt": _REMOTE, "set": _CHANGE, "version": "read"},
    },
    # restic talks to its repository (a remote one, or a local directory it locks) for every command but version;
    # -o/--option sets backend options that run programs (sftp.command, rclone.program), --password-command runs
    # one; backup uploads (its sources are read: left out, as a credential directory among them is not told apart)
    "restic": {
        "source": "restic manual (restic.readthedocs.io) (restic 0.17): snapshots, ls, stats, check, diff, find "
        "read the repository; forget and prune remove snapshots and data; restore writes --target; version prints",
        "options": "-r= --repo= --repository-file=in -p=in --password-file=in --password-command=:runs "
        "-o=:unknown --option=:unknown --cache-dir=out --no-cache --no-lock --json -q --quiet -v --verbose "
        "--limit-upload= --limit-download= --retry-lock= --key-hint= --cacert=in -h --help",
        "commands": {
            "version": "read",
            "snapshots ls stats check diff find": {
                "grade": "remote",
                "options": "--host= -H= --tag= --path= --latest= --compact -c --group-by= -g= --mode= -l --long "
                "--recursive --read-data --read-data-subset= --with-cache --metadata --human-readable",
            },
            "forget prune": _DESTROY,
            "restore": {
                "grade": "remote",
                "options": "-t=out --target=out -i= --include= -e= --exclude= --iinclude= --iexclude= --host= "
                "-H= --path= --tag= --verify --dry-run",
            },
        },
    },
    # rclone talks to the remotes its configuration names; --config (a file whose sftp remote may name an ssh
    # program, "sftp": ssh) is not read: refused; sync, move, delete, purge and the other removals delete
    "rclone": {
        "source": "rclone commands (rclone.org/commands) (rclone 1.68): ls, lsd, lsl, lsf, lsjson, tree, size, "
        "check and the hash commands list or compare; copy uploads or downloads, deleting nothing; sync, move, "
        "bisync, delete, purge, rmdir, rmdirs, deletefile, dedupe and cleanup delete; listremotes and config file "
        "print names and a path; config show and dump print the remotes' secrets",
        "options": "-v -vv -q --quiet -n --dry-run --max-depth= --fast-list -P --progress --transfers= "
        "--checkers= --exclude= --include= --min-age= --max-age= --min-size= --max-size= --checksum -c "
        "--size-only --stats= --human-readable --one-way --retries= --timeout= -h --help",
        "commands": {
            "version listremotes": "read",
            "ls lsd lsl lsf lsjson tree size check md5sum sha1sum hashsum about": _REMOTE,
            "copy copyto": {"grade": "publish", "operands": "last-out"},
            "sync move moveto bisync delete purge rmdir rmdirs deletefile dedupe cleanup": _DESTROY,
            "config": {"commands": {"file": "read", "show dump": "secret"}},
        },
    },
    # borg talks to the repository (ssh:// runs ssh, --rsh and BORG_RSH another program); create uploads,
    # delete, prune and compact remove archives and space; key export prints the repository key
    "borg": {
        "source": "borg(1) (borgbackup 1.4): list, info, check, diff read; create adds an archive; delete, "
        "prune, compact remove; key export prints the key",
        "options": "-v --verbose --info --debug -q --warning --error --critical --progress --lock-wait= "
        "--show-rc --remote-path=:runs --rsh=:runs -h --help -V --version",
        "when": {"-h --help -V --version": "read"},
        "commands": {
            "list info diff": {
                "grade": "remote",
                "options": "--short --format= --json --json-lines --last= --first= -a= --glob-archives= "
                "--sort-by= --consider-checkpoints",
            },
            "check": {"grade": "remote", "options": "--repository-only --archives-only --verify-data"},
            "delete prune compact": _DESTROY,
            "key": {"commands": {"export": "secret"}},
        },
    },
    "resticprofile": {
        "source": "resticprofile (creativeprojects.github.io/resticprofile) (resticprofile 0.2x): runs restic per "
        "profile, and the configuration's run-before/run-after commands",
        "options": "-n= --name= -c=project --config=project --dry-run -v --verbose -q --quiet -h --help",
        "commands": {
            "backup copy": {"grade": "publish", "open": True},
            "snapshots check cat ls find stats status show profiles version diff": _REMOTE,
            "forget prune": _DESTROY,
            "restore": {"grade": "write", "open": True},
            "init unlock tag": _CHANGE,
            "schedule unschedule": {"grade": "system", "open": True},
            "run-schedule mount": "runs",
            "generate": {"grade": "read", "open": True},
        },
    },
    "wrangler": {
        "source": "Wrangler commands (developers.cloudflare.com/workers/wrangler/commands) (wrangler 4): deploy "
        "uploads the Worker and replaces the one serving (after the build command wrangler.toml names: the "
        "project's code); dev runs the Worker's code locally; tail, whoami and the list commands ask Cloudflare; "
        "secret put and rollback change the account, delete and secret delete remove; login stores a token "
        "under ~",
        "options": "-h --help -v --version -c=project --config=project -e= --env= --cwd=project",
        "commands": {
            # deploy --dry-run: "Compile a project without actually deploying to live servers" (into --outdir)
            "deploy": {
                "grade": "change",
                "open": True,
                "options": "--dry-run --outdir=out",
                "when": {"--dry-run": "build"},
            },
            "rollback": _CHANGE,
            "delete": _DESTROY,
            "dev": "runs",
            "tail whoami": _REMOTE,
            "deployments versions": {"commands": {"list status view": _REMOTE}},
            "secret": {"commands": {"list": _REMOTE, "put bulk": _CHANGE, "delete": _DESTROY}},
            "login logout": _HOME,
            "init": {"grade": "fetch", "open": True},
            "types": {"grade": "build", "open": True},
        },
    },
    "packer": {
        "source": "Packer commands (developer.hashicorp.com/packer/docs/commands) (Packer 1.11): validate, inspect "
        "and console load the template and start the installed plugin binaries (as terraform validate starts the "
        "providers); fmt rewrites the templates (-check only reports); init downloads the plugins the template "
        "requires into ~/.config/packer; build runs the template's provisioners, shell-local ones on this "
        "machine, so it is left unrecognised",
        "options": "-h --help -v --version -machine-readable",
        "commands": {
            "validate inspect console": {
                "grade": "build",
                "options": "-syntax-only -evaluate-datasources -no-warn-undeclared-var -var=* -var-file=project "
                "-except= -only=",
            },
            "fmt": {
                "grade": "build",
                "options": "-check:read -diff -write=* -recursive",
                "when": {"-check": "read"},
            },
            "init": {"grade": "install", "options": "-upgrade"},
            "version": "read",
        },
    },
    # A playbook's tasks change the inventory's machines, and its lookups, local_action and delegate_to: localhost
    # tasks (or -c local) run on this one: a program the classifier cannot see, --check included (it still connects
    # and runs the tasks marked check_mode: false). --syntax-check and the --list-* options load the playbooks, the
    # inventory (an executable inventory file runs) and the project's plugins and run no task: a build, as
    # ansible-lint. -e @FILE reads a variables file anywhere (a YAML error prints its lines); the ssh argument options
    # pass ssh options such as ProxyCommand, a program run here
    "ansible-playbook": {
        "source": "ansible-playbook(1) (ansible-core 2.17)",
        "guard": "cloud:ansible_settings",
        "grade": "runs",
        "operands": "project",
        "options": "-h --help --version -v --verbose -i=project --inventory=project --inventory-file=project -l= "
        "--limit= -e=:unknown --extra-vars=:unknown -t= --tags= --skip-tags= -C --check -D --diff --syntax-check "
        "--list-hosts --list-tasks --list-tags --start-at-task= --step -f= --forks= -M=project --module-path=project "
        "--flush-cache --force-handlers --vault-id=:unknown --vault-password-file=project --vault-pass-file=project "
        "-J --ask-vault-password --ask-vault-pass -k --ask-pass --private-key= --key-file= -u= --user= -c= "
        "--connection= -T= --timeout= --ssh-common-args=:runs --sftp-extra-args=:runs --scp-extra-args=:runs "
        "--ssh-extra-args=:runs -b --become --become-method= --become-user= -K --ask-become-pass "
        "--become-password-file=project --connection-password-file=project",
        "when": {
            "--syntax-check --list-hosts --list-tasks --list-tags": "build",
            "-h --help --version": {"grade": "read", "operands": "none"},
        },
    },
    # ansible HOST-PATTERN runs one module on the matched hosts: the command module by default (-a: its command
    # line), any module -m names (the guard refuses all but ping and setup: programs/cloud.py ansible_module); ping
    # only answers, so it reads the hosts (network); --list-hosts loads the inventory and runs nothing
    "ansible": {
        "source": "ansible(1) (ansible-core 2.17); ansible.builtin.ping module documentation",
        "grade": "remote",
        "options": "-h --help --version -v --verbose -i=project --inventory=project --inventory-file=project "
        "--list-hosts -l= --limit= -m= --module-name= -a= --args= -B= --background= -P= --poll= "
        "-o --one-line -t=out --tree=out -e=:unknown --extra-vars=:unknown --vault-id=:unknown "
        "--vault-password-file=project --vault-pass-file=project -J --ask-vault-password --ask-vault-pass -f= "
        "--forks= -M=project --module-path=project --playbook-dir=project --task-timeout= -C --check -D --diff "
        "-k --ask-pass --private-key= --key-file= -u= --user= -c= --connection= -T= --timeout= "
        "--ssh-common-args=:runs --sftp-extra-args=:runs --scp-extra-args=:runs --ssh-extra-args=:runs -b --become "
        "--become-method= --become-user= -K --ask-become-pass --become-password-file=project "
        "--connection-password-file=project",
        "guard": "cloud:ansible_module",
        "when": {"-h --help --version": "read"},
    },
    # terraform-docs FORMATTER PATH prints the documentation of the module in PATH; the module's (or the current
    # directory's) .terraform-docs.yml may set output.file and output.mode (inject), writing a file there: the
    # project's configuration chooses, graded as a build; --header-from/--footer-from print a file into the output
    "terraform-docs": {
        "source": "terraform-docs CLI reference (terraform-docs.io/reference/terraform-docs) (terraform-docs 0.19)",
        "grade": "build",
        "open": True,
        "operands": "project",
        "options": "-c=project --config=project --output-file=out --output-mode= --output-template= "
        "--header-from=in --footer-from=in --output-values-from=in --recursive-path= --lockfile",
        "commands": {
            "asciidoc adoc markdown md": {
                "grade": "build",
                "else": "build",
                "open": True,
                "operands": "project",
                "commands": {"table tbl document doc": {"grade": "build", "open": True, "operands": "project"}},
            },
            "json pretty toml xml yaml": {"grade": "build", "open": True, "operands": "project"},
            "tfvars": {"commands": {"hcl json": {"grade": "build", "open": True, "operands": "project"}}},
            "version completion": {"grade": "read", "open": True},
        },
    },
    # ansible-config list and init print the settings' definitions; dump prints the values in effect (from
    # ansible.cfg and ANSIBLE_* variables) and view the configuration file, which may hold tokens (Galaxy servers'
    # token=, "Configuring the ansible-galaxy client"): secret reads; -c/--config prints any file (refused)
    "ansible-config": {
        "source": "ansible-config(1) (ansible-core 2.17): list, dump, view, init, validate",
        "options": "-h --help --version -v --verbose",
        "commands": {
            "list init": {"grade": "read", "options": "--format= -f= --disabled -t= --type="},
            "dump": {"grade": "secret", "options": "--only-changed --changed-only --format= -f="},
            "view": {"grade": "secret"},
            "validate": {"grade": "read"},
        },
    },
    "ansible-doc": {
        "source": "ansible-doc(1) (ansible-core 2.17): prints the documentation of modules and plugins, loading "
        "them from the module paths and the project's collections and roles",
        "guard": "cloud:ansible_settings",
        "grade": "build",
        "options": "-h --help --version -v --verbose -l --list -F --list_files -s --snippet -t= --type= -j --json "
        "-M=project --module-path=project --playbook-dir=project -r=project --roles-path=project -e= "
        "--entry-point= --metadata-dump --no-fail-on-errors",
        "when": {"-h --help --version": "read"},
    },
    "ansible-lint": {
        "source": "ansible-lint usage (ansible.readthedocs.io/projects/lint/usage) (ansible-lint 24): it loads the "
        "playbooks, roles and the project's .ansible-lint configuration and custom rules (-r: Python code), and "
        "--fix rewrites the files: a build of the project; a rules directory or configuration outside it is "
        "code from outside",
        "guard": "cloud:ansible_settings",
        "grade": "build",
        "options": "-p --parseable -q --quiet -v --offline --nocolor --force-color --strict --profile= -f= "
        "--format= -c=project --config-file=project -r=project --rules-dir=project -R -x= --skip-list= -w= "
        "--warn-list= --fix --fix=* --project-dir=project --version -h --help",
    },
    "ansible-inventory": {
        "source": "ansible-inventory(1) (ansible-core 2.17): it loads the inventory sources (an executable file is "
        "run as a dynamic inventory script, inventory plugins load) and prints them",
        "guard": "cloud:ansible_settings",
        "grade": "build",
        "options": "-i=project --inventory=project --inventory-file=project --list --graph --host= -y --yaml "
        "--toml --vars --export --output=out -v --verbose --playbook-dir=project --limit= -l= --version -h --help",
    },
    "ansible-galaxy": {
        "source": "ansible-galaxy(1) (ansible-core 2.17): collection and role install download from Galaxy into "
        "~/.ansible (or -p PATH: there, a download into the workspace when it is inside); list prints what is "
        "installed; init writes a skeleton; build packs a collection; publish uploads it; install alone is "
        "role install, which also installs the collections a requirements file names",
        "options": "-h --help --version -v --verbose",
        "commands": {
            "install": _GALAXY_INSTALL,
            "collection role": {
                "commands": {
                    "install download": _GALAXY_INSTALL,
                    "list": {"grade": "read", "open": True},
                    # role search "Search the Galaxy database"; info asks the Galaxy API unless --offline
                    "info search": {
                        "grade": "network",
                        "open": True,
                        "options": "--offline",
                        "when": {"--offline": "read"},
                    },
                    "init": {"grade": "write", "open": True},
                    "build": {"grade": "build", "open": True},
                    "publish import": {"grade": "publish", "open": True},
                    "remove delete": {"grade": "delete", "open": True},
                }
            },
        },
    },
    "ansible-vault": {
        "source": "ansible-vault(1) (ansible-core 2.17): view prints a file decrypted; encrypt, decrypt and rekey "
        "rewrite the files given; create and edit open an editor; a vault password file that is executable is "
        "run to get the password (so one outside the workspace is code from outside)",
        "guard": "cloud:ansible_vault_ids",
        "options": "-h --help --version -v --verbose --vault-id= --vault-password-file=project "
        "--vault-pass-file=project --ask-vault-password --ask-vault-pass -J",
        "commands": {
            "view": {"grade": "secret", "open": True},
            # decrypt writes the plaintext over the files given, or to --output (- is standard output), or reads
            # standard input and prints it when no file is given: the secrets reach the model as view's do
            "decrypt": {
                "grade": "secret",
                "operands": "out",
                "options": "--output=out --encrypt-vault-id= --new-vault-id= --new-vault-password-file=project",
            },
            "encrypt rekey": {
                "grade": "write",
                "operands": "out",
                "options": "--output=out --encrypt-vault-id= --new-vault-id= --new-vault-password-file=project",
            },
            "encrypt_string": {"grade": "read", "open": True},
            "create edit": "runs",
        },
    },
}
