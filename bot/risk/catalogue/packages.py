"""Package and version managers of the mainstream languages (npm, pip, cargo, go, poetry: programs/build.py, projects.py).

Resolving and installing into the project is ``fetch``; installing for the user (tools, interpreters, toolchains) is
``install``; removing installed packages or versions deletes (as ``pip uninstall``); running a package's program is
``runs`` (its code is not known), or ``wrap`` where the command run is given and graded as written.
"""

from __future__ import annotations

_UV_GLOBAL = (
    "-q --quiet -v --verbose --offline --no-cache -n --cache-dir=out --directory=project --project=project "
    "--config-file=:unknown --no-config --color= --native-tls --python=:interpreter -p=:interpreter --preview --no-progress "
    "--managed-python --no-managed-python --no-python-downloads -h --help -V --version "
    # --allow-insecure-host (alias --trusted-host) "Allow insecure connections to a host ... bypass SSL
    # verification": anyone on the way may serve the packages, as pip's --trusted-host (chosen-source)
    "--allow-insecure-host=:chosen --trusted-host=:chosen"
)
_UV_RUN = (
    "--with=package -w=package --with-editable=package --with-requirements=:fetch --isolated --no-project --no-sync --locked --frozen "
    "--package= --all-packages -m=:runs --module=:runs --script -s --no-dev --dev --group= --only-group= "
    "--no-group= --extra= --all-extras --no-extra= --env-file=in --no-env-file --active --exact --gui-script"
)
#: uv's index options (uv CLI reference, "Index options": ``--index``, ``--default-index``, ``--index-url``,
#: ``--extra-index-url``, each a URL or a local directory in the simple repository layout): packages from a source
#: the command names, as pip's ``-i`` (chosen-source); a URL among the words is that already (the entry's ``urls``),
#: a directory is too.
_UV_INDEX = "--index=:chosen --index-url=:chosen --default-index=:chosen --extra-index-url=:chosen"

#: uv's -f/--find-links URL|DIRECTORY (uv CLI reference, "Index options": "Locations to search for candidate
#: distributions ... If a path, the target must be a directory that contains packages as wheel files or source
#: distributions"): a directory's source distributions are built, as a local project is (package role).
_UV_FIND_LINKS = "-f=package --find-links=package " + _UV_INDEX

#: uv pip install|sync options naming requirements, constraints and overrides files (uv CLI reference).
_UV_REQUIREMENTS = (
    "-r=project --requirements=project --requirement=project -c=project --constraints=project "
    "--constraint=project --overrides=project --override=project -b=project --build-constraints=project "
    "--build-constraint=project"
)


#: nix.conf(5) settings given as flags that run native code or programs, take the build sandbox away or accept
#: store paths nobody signed: allow-unsafe-native-code-during-evaluation (builtins.exec), sandbox, post-build-hook,
#: substituters, trusted-public-keys, require-sigs, builders, build-hook, diff-hook, pre-build-hook.
_NIX_SETTING_FLAGS = " " + " ".join(
    [
        "--allow-unsafe-native-code-during-evaluation:unknown", "--no-sandbox:unknown", "--no-require-sigs:unknown",
        "--sandbox-fallback:unknown",
    ]
    + [
        f"--{prefix}{name}=:unknown"
        for name in (
            "post-build-hook", "pre-build-hook", "build-hook", "diff-hook", "substituters", "trusted-substituters",
            "trusted-public-keys", "builders",
        )
        for prefix in ("", "extra-")
    ]
)  # fmt: skip

CATALOGUE: dict[str, object] = {
    "uv": {
        "urls": "chosen",
        "source": "uv CLI reference (docs.astral.sh/uv/reference/cli) (uv 0.8)",
        "options": _UV_GLOBAL,
        "settings": "python",
        "guard": "packages:uv_requirements",
        "commands": {
            # uv's project commands discover the project upward (uv docs, "Projects"): one above the workspace is
            # outside it
            "add": {
                "grade": "fetch",
                "open": True,
                "operands": "package",
                "options": "--editable=package " + _UV_FIND_LINKS,
                "above": "pyproject.toml",
            },
            "remove sync lock": {"grade": "fetch", "open": True, "options": _UV_FIND_LINKS, "above": "pyproject.toml"},
            "run": {"grade": "wrap", "options": _UV_RUN + " " + _UV_FIND_LINKS, "above": "pyproject.toml"},
            "init": {"grade": "write", "open": True, "operands": "out"},
            # uv build [SRC]: "the directory from which distributions should be built", with its build backend
            "build": {
                "grade": "build",
                "open": True,
                "options": "-o=out --out-dir=out " + _UV_FIND_LINKS,
                "operands": "project",
            },
            # uv export locks the project first unless --frozen ("the lockfile will be updated ... if it is missing or
            # outdated"), building it to read dynamic metadata: as uv lock
            "export": {
                "grade": "fetch",
                "open": True,
                "options": "-o=out --output-file=out --frozen " + _UV_FIND_LINKS,
                "when": {"--frozen": "read"},
            },
            "tree": {"grade": "fetch", "open": True, "options": _UV_FIND_LINKS},
            # uv venv [PATH] (default .venv): -c/--clear "Remove any existing files or directories at the target
            # path"; the uv releases in use remove a directory that is no virtual environment too (`uv venv -c .`
            # empties the project): a deletion, as rm -rf PATH
            "venv": {
                "grade": "write",
                "open": True,
                "operands": "out",
                "options": "-c:delete --clear:delete",
            },
            "publish": {"grade": "publish", "open": True},
            # uv format runs Ruff, downloaded from GitHub into the cache on first use (uv CLI reference, "uv format":
            # --version "The version of Ruff to use for formatting")
            "format": {"grade": "fetch", "open": True, "options": "--check --diff"},
            "version": {"grade": "write", "open": True},
            "help": "read",
            "cache": {"commands": {"dir": "read", "clean prune": {"grade": "delete", "open": True}}},
            "python": {
                "commands": {
                    "list find dir": {"grade": "read", "open": True},
                    "install upgrade": {"grade": "install", "open": True},
                    "uninstall": {"grade": "delete", "open": True},
                    # uv python pin REQUEST writes .python-version; a path there is the program later uv runs run
                    "pin": {"grade": "write", "open": True, "operands": "interpreter"},
                }
            },
            "pip": {
                "commands": {
                    # -r/-c/--overrides name requirements files whose lines may name any requirement or option
                    # (-e /tmp/pkg, an index), -e a local project uv builds: each a project read where it is
                    "install": {
                        "grade": "fetch",
                        "open": True,
                        "options": "--system:system --target=out --prefix=out -t=out --break-system-packages:system "
                        + _UV_REQUIREMENTS
                        + " -e=package --editable=package "
                        + _UV_FIND_LINKS,
                        "operands": "package",
                    },
                    "sync": {
                        "grade": "fetch",
                        "open": True,
                        "operands": "project",
                        "options": "--system:system --target=out --prefix=out -t=out --break-system-packages:system "
                        + _UV_REQUIREMENTS
                        + " "
                        + _UV_FIND_LINKS,
                    },
                    "uninstall": {"grade": "delete", "open": True},
                    "compile": {
                        "grade": "fetch",
                        "open": True,
                        "options": "-o=out --output-file=out " + _UV_FIND_LINKS,
                    },
                    # uv pip list|tree --outdated: "List outdated packages. The latest version of each package will
                    # be shown alongside the installed version" (asked of the index)
                    "list show freeze tree check": {
                        "grade": "read",
                        "open": True,
                        "options": "--outdated:network",
                    },
                }
            },
            "tool": {
                "commands": {
                    "install upgrade": {
                        "grade": "install",
                        "open": True,
                        "operands": "package",
                        "options": "--with=package --with-editable=package -e=package --editable=package "
                        + _UV_FIND_LINKS,
                    },
                    "uninstall": {"grade": "delete", "open": True},
                    "list dir": {"grade": "read", "open": True},
                    "run": "runs",
                    # uv tool update-shell: adds the tool directory to PATH in the shell's start-up files
                    "update-shell": "profile",
                }
            },
            "self": {"commands": {"update": {"grade": "install", "open": True}, "version": "read"}},
        },
    },
    "uvx": {
        "source": "uv CLI reference: uvx (uv tool run) fetches a package and runs its program",
        "grade": "runs",
        "open": True,
    },
    "pipx": {
        "urls": "chosen",
        "source": "pipx docs: pipx --help (pipx.pypa.io/stable/docs) (pipx 1.7)",
        "options": "-h --help --version -v --verbose -q --quiet --global:system",
        "commands": {
            "install install-all upgrade upgrade-all upgrade-shared reinstall reinstall-all": {
                "grade": "install",
                "open": True,
                "operands": "package",
            },
            "inject": {"grade": "plugin", "open": True},
            "uninstall uninstall-all uninject": {"grade": "delete", "open": True},
            "list environment completions": {"grade": "read", "open": True},
            "run": "runs",
            "runpip": "unknown",
            # pipx ensurepath: adds pipx's bin directory to PATH in the shell's start-up files
            "ensurepath": {"grade": "profile", "open": True},
            "pin unpin": {"grade": "home", "open": True},
            "interpreter": {"commands": {"list": "read", "prune": "delete", "upgrade": "install"}},
        },
    },
    "conda mamba micromamba": {
        "urls": "chosen",
        "guard": "packages:conda_channel",
        "source": "conda command reference (docs.conda.io/projects/conda/en/stable/commands) (conda 24); mamba docs",
        "options": "-h --help -V --version -v --verbose -q --quiet --json",
        "commands": {
            # -p/--prefix PATH "Full path to environment location (i.e. prefix)": the packages land there, not in
            # an environment under ~ (-n NAME, or the active one): a download and a write where PATH is
            # -k/--insecure "Allow conda to perform 'insecure' SSL connections and transfers. Equivalent to setting
            # 'ssl_verify' to 'false'" (micromamba: --ssl-verify, --cacert-path): anyone on the way may serve the
            # packages, as pip's --trusted-host (chosen-source)
            "create install update upgrade": {
                "grade": "install",
                "open": True,
                "options": "-p=out --prefix=out -k:chosen --insecure:chosen --ssl-verify=:chosen --cacert-path=:chosen",
                "when": {"-p --prefix": "fetch"},
            },
            "remove uninstall": {"grade": "delete", "open": True},
            "list info compare doctor": {"grade": "read", "open": True},
            # conda search "Search for packages" in the channels, notices "Retrieve latest channel notifications",
            # mamba repoquery queries the channels' repodata: they ask the channels
            "search notices repoquery": {"grade": "network", "open": True},
            "activate deactivate": {"grade": "read", "open": True},
            "clean": {"grade": "delete", "open": True},
            # conda init (mamba init): writes the conda block into ~/.bashrc, ~/.zshrc... (all shells with --all,
            # the system's with --system); --dry-run only prints the changes
            "init": {
                "grade": "profile",
                "open": True,
                "options": "-d --dry-run",
                "when": {"-d --dry-run": "read"},
            },
            # micromamba/mamba 2 shell init|deinit|reinit edit the shell's start-up files; hook and activate print
            "shell": {
                "commands": {
                    "init deinit reinit": {
                        "grade": "profile",
                        "open": True,
                        "options": "-d --dry-run",
                        "when": {"-d --dry-run": "read"},
                    },
                    "hook activate deactivate reactivate": {"grade": "read", "open": True},
                }
            },
            # conda run [-n NAME] COMMAND "Run an executable in a conda environment": the command is graded as
            # typed (as uv run's); -p/--prefix names an environment by its path, whose activation scripts
            # (etc/conda/activate.d) and programs are files of that directory, in the workspace ones the agent may
            # have written: refused, as --cwd (the command then runs elsewhere)
            "run": {
                "grade": "wrap",
                "options": "-n= --name= -p=:runs --prefix=:runs --cwd=:unknown --no-capture-output --live-stream "
                "-v --verbose --dev --debug-wrapper-scripts",
            },
            "rename": {"grade": "home", "open": True},
            "export": {"grade": "read", "open": True, "options": "-f=out --file=out"},
            "package": "unknown",
            "build": {"grade": "build", "open": True},
            # conda config --show-sources prints every setting (proxy_servers' user and password among them);
            # --show and --get without keys do too (packages.conda_channel grades those)
            "config": {
                "grade": "home",
                "open": True,
                "options": "--show --show-sources --describe --get --validate",
                "when": {"--show-sources": "secret", "--show --describe --get --validate": "read"},
                "sources": "channels channel_alias default_channels custom_channels custom_multichannels "
                "proxy_servers ssl_verify",
            },
            "env": {
                "commands": {
                    # conda env create --help: "-f FILE, --file FILE: environment definition file": its pip section
                    # is handed to pip as requirements (-e ../pkg, --index-url), so one outside the workspace is a
                    # project there, as conda create --file is
                    "create update": {
                        "grade": "install",
                        "open": True,
                        "options": "-f=project --file=project -p=out --prefix=out",
                        "when": {"-p --prefix": "fetch"},
                    },
                    "remove": {"grade": "delete", "open": True},
                    "list": {"grade": "read", "open": True},
                    "export": {"grade": "read", "open": True, "options": "-f=out --file=out"},
                    "config": {"grade": "home", "open": True},
                }
            },
        },
    },
    "pyenv": {
        "source": "pyenv Command Reference (github.com/pyenv/pyenv COMMANDS.md) (pyenv 2.4); pyenv-virtualenv README",
        "options": "-h --help -v --version",
        "commands": {
            "install": {"grade": "install", "open": True},
            "uninstall": {"grade": "delete", "open": True},
            "versions version version-name which whence root prefix commands help shims completions --version": {
                "grade": "read",
                "open": True,
            },
            # pyenv init [-] [SHELL]: prints the script (or instructions); an option not listed may be one that edits
            "init": {"grade": "read", "options": "--path --no-rehash --no-push-path --detect-shell"},
            "global": {"grade": "home", "open": True},
            "local": {"grade": "write", "open": True},
            "shell activate deactivate": {"grade": "read", "open": True},
            "rehash": "home",
            "exec": "runs",
            "update": "install",
            "virtualenv": {"grade": "install", "open": True},
            "virtualenvs": {"grade": "read", "open": True},
            "virtualenv-delete": {"grade": "delete", "open": True},
        },
    },
    "bundle bundler": {
        "urls": "chosen",
        "source": "bundle(1) and bundle-COMMAND(1) (Bundler 2.5, bundler.io/man)",
        # Bundler finds the Gemfile (Ruby it evaluates) by searching up from the current directory
        "above": "Gemfile gems.rb",
        "options": "-h --help -v --version -V --verbose --no-color -r= --retry=",
        "when": {"-v --version": "read"},
        "grade": "install",
        "commands": {
            # bundle-install(1) --gemfile=GEMFILE: "The location of the Gemfile(5)": Ruby that Bundler evaluates
            "install": {
                "grade": "install",
                "open": True,
                "options": "--clean:delete --system:system --gemfile=project",
            },
            "update": {"grade": "install", "open": True, "options": "--gemfile=project"},
            "add": {"grade": "install", "open": True},
            "remove": {"grade": "write", "open": True},
            "exec": {"grade": "wrap", "options": "--keep-file-descriptors --gemfile=project"},
            "check list show info platform env doctor licenses": {
                "grade": "build",
                "open": True,
                "options": "--gemfile=project",
            },
            "version": {"grade": "read", "open": True},
            "outdated": {"grade": "network", "open": True},
            "lock cache package": {"grade": "fetch", "open": True},
            # bundle-init(1) --gemspec=GEMSPEC: the Gemfile is made from that gemspec, which Bundler evaluates (Ruby);
            # bundle-binstubs(1) --path: "The location to install the specified binstubs to"; bundle-gem(1)
            # --edit=EDITOR opens the new gemspec in that editor
            "init": {"grade": "write", "open": True, "options": "--gemspec=project"},
            "gem": {"grade": "write", "open": True, "options": "-e=:runs --edit=:runs"},
            "binstubs": {"grade": "write", "open": True, "options": "--path=out"},
            "clean pristine": {"grade": "delete", "open": True},
            "open console": "runs",
            # bundle-config(1): "bundle config" with no arguments lists every setting, as list does, and get prints
            # one; a gem server's credentials are settings (bundle config set gems.example.com user:password)
            "config": {
                "grade": "secret",
                "open": True,
                "commands": {
                    "list get": "secret",
                    # --local writes the application's .bundle/config, not ~/.bundle/config (bundle-config(1))
                    "set": {
                        "grade": "home",
                        "options": "--local:write --global",
                        "when": {"--local": "write"},
                        "sources": "mirror ssl_verify_mode ssl_ca_cert",
                    },
                    "unset": "home",
                },
            },
        },
    },
    "gem": {
        "urls": "chosen",
        "source": "gem(1) command reference (guides.rubygems.org/command-reference) (RubyGems 3.5): unpack extracts "
        "the files the gem names into NAME-VERSION/ below the current directory or --target",
        "options": "-h --help -v --version -V --verbose -q --quiet",
        "commands": {
            # gem install: a GEMNAME that is a path to a .gem file installs that file, its extensions built (their
            # extconf.rb or Rakefile runs); -g/--file FILE reads a gem dependencies file (a Gemfile, Ruby that
            # RubyGems evaluates; -g takes it when the next word is no option, so it is an operand here): both are
            # code, destructive from outside the workspace
            "install": {
                "grade": "install",
                "open": True,
                "operands": "project",
                "options": "-i=out --install-dir=out -n=out --bindir=out --build-root=out --file=project -v= --version=",
            },
            "update pristine rdoc": {
                "grade": "install",
                "open": True,
                "options": "-i=out --install-dir=out -n=out --bindir=out",
            },
            "uninstall cleanup": {"grade": "delete", "open": True},
            # gem list|query|info|dependency|specification -r/--remote, -b/--both ask the gem server; gem check
            # --doctor "Clean up uninstalled gems and broken specifications" (gem(1) command reference)
            "list query contents dependency environment env help which info specification check stale": {
                "grade": "read",
                "open": True,
                "options": "-r:network --remote:network -b:network --both:network --doctor:delete",
            },
            "search outdated": {"grade": "network", "open": True},
            "fetch": {"grade": "fetch", "open": True},
            # gem build GEMSPEC: the gemspec is Ruby that RubyGems evaluates: code, destructive from outside
            "build": {"grade": "build", "open": True, "operands": "project"},
            "push": {"grade": "publish", "open": True},
            "yank": {"grade": "destroy", "open": True},
            "owner": {"grade": "change", "open": True},
            "signin signout": "home",
            "sources": {
                "grade": "read",
                "options": "-a=:source --add=:source -r=:home --remove=:home -c:delete "
                "--clear-all:delete -u:home --update:home -l --list",
            },
            "open exec server": "runs",
            "unpack": {"grade": "unpack", "open": True, "options": "--target=out"},
        },
    },
    "composer": {
        "urls": "chosen",
        "source": 'Composer CLI docs (getcomposer.org/doc/03-cli.md); "Setting up and using plugins" '
        "(getcomposer.org/doc/articles/plugins.md: the plugins installed in vendor/ that allow-plugins permits are "
        "loaded and run on every command, unless --no-plugins) (Composer 2.8)",
        "options": "-h --help -q --quiet -V --version -n --no-interaction -v -vv -vvv --verbose --ansi --no-ansi "
        "--profile --no-plugins --no-scripts --no-cache -d=project --working-dir=project",
        "guard": "packages:composer_auth",  # config --list or a credential's key prints it
        "commands": {
            "install i update u upgrade require r remove rm reinstall create-project": {"grade": "fetch", "open": True},
            # dump-autoload: "--no-scripts: Skips the execution of all scripts defined in composer.json" (its
            # pre-/post-autoload-dump scripts, graded as recipes) and the plugins: it runs workspace code
            "dump-autoload dumpautoload": {"grade": "build", "open": True},
            "init bump archive": {"grade": "write", "open": True},
            "validate licenses depends why prohibits why-not check-platform-reqs list help status fund suggests": {
                "grade": "build",
                "open": True,
                "when": {"--no-plugins": "read"},
            },
            # show -l/--latest, -o/--outdated, -a/--available and outdated ask the repositories for the latest
            # versions; diagnose checks the connection to Packagist and GitHub (Composer CLI docs)
            "show info": {
                "grade": "build",
                "open": True,
                "when": {"--no-plugins": "read"},
                "options": "-l:network --latest:network -o:network --outdated:network -a:network --available:network "
                "--all:network",
            },
            "outdated diagnose": {"grade": "network", "open": True},
            "config": {
                "grade": "read",
                "else": "write",
                "open": True,
                "options": "-g:home --global:home --unset:write -e:runs --editor:runs -f=out --file=out "
                "-a:home --auth:home",
                "sources": "repositories repos secure-http disable-tls cafile",
            },
            "audit search browse home": {"grade": "network", "open": True},
            # composer run-script NAME: the script NAME of composer.json, graded as a recipe (programs/catalogue.py)
            # run-script --list reads the scripts from the project Composer loads, with its plugins (code in
            # vendor/): a build's grade, as validate or show
            "run-script run": {"grade": "build", "open": True, "options": "-l --list"},
            "exec": "runs",
            "global": "unknown",
            "self-update selfupdate": {"grade": "system", "open": True},
            "clear-cache clearcache cc": {"grade": "delete", "open": True},
        },
    },
    "deno": {
        "source": "Deno CLI reference (docs.deno.com/runtime/reference/cli) (Deno 2)",
        # "-c, --config <FILE>: configure different aspects of deno including TypeScript, linting, and code
        # formatting" (deno.json: its imports map every module the command loads), on every subcommand that reads one
        "options": "-h --help -V --version -q --quiet -c=project --config=project",
        "else": "runs",
        "commands": {
            "run task eval repl serve jupyter lsp x": "runs",
            "test bench check compile coverage doc": {
                "grade": "build",
                "open": True,
                "operands": "project",
                # deno test --help: "--import-map <FILE> Load import map file from local file or remote URL";
                # "--junit-path <PATH>  Write a JUnit XML test report to PATH"; "--coverage[=<DIR>]  Collect
                # coverage profile data into DIR"
                "options": "-o=out --output=out -c=project --config=project --import-map=project --junit-path=out "
                "--coverage=*:out",
            },
            # deno lint loads the lint plugins deno.json names; deno fmt has no plugins and with --check "Check if
            # the source files are formatted" without writing them
            "lint": {
                "grade": "build",
                "open": True,
                "operands": "project",
                "options": "-c=project --config=project",
            },
            "fmt": {
                "grade": "build",
                "open": True,
                "operands": "project",
                "options": "-c=project --config=project --check",
                "when": {"--check": "read"},
            },
            "types completions": {"grade": "read", "open": True},
            # deno info MODULE: "Show information about a module": the module and its dependencies are fetched
            # (npm:, jsr:, remote imports) to build the tree; without one it prints the cache's locations
            "info": {"grade": "read", "else": "network", "open": True},
            "install i add remove rm outdated cache": {
                "grade": "fetch",
                "open": True,
                "options": "-g:install --global:install",
            },
            "uninstall": {"grade": "delete", "open": True},
            "init": {"grade": "write", "open": True},
            "publish": {"grade": "publish", "open": True},
            "upgrade": {"grade": "install", "open": True},
            "clean": "delete",
        },
    },
    "nvm": {
        "source": "nvm README, Usage (github.com/nvm-sh/nvm) (nvm 0.40)",
        "options": "-h --help --version",
        "commands": {
            "install install-latest-npm reinstall-packages": {"grade": "install", "open": True},
            "uninstall": {"grade": "delete", "open": True},
            "use deactivate current ls list which version": {"grade": "read", "open": True},
            "ls-remote list-remote version-remote": {"grade": "network", "open": True},
            "alias unalias": "home",
            "run exec": "runs",
            "cache": {"commands": {"dir": "read", "clear": "delete"}},
        },
    },
    "rustup": {
        "source": "The rustup book: command reference (rust-lang.github.io/rustup) (rustup 1.27)",
        "options": "-h --help -V --version -v --verbose -q --quiet",
        "guard": "build:rustup_path",  # default / override set with a toolchain at a path
        "commands": {
            "show which help completions man": {"grade": "read", "open": True},
            "doc": {"grade": "read", "open": True},
            "check": {"grade": "network", "open": True},
            "update install": {"grade": "install", "open": True},
            "default set": {"grade": "home", "open": True},
            "uninstall": {"grade": "delete", "open": True},
            "run": "runs",
            "toolchain": {
                "commands": {
                    "list": "read",
                    "install update": {"grade": "install", "open": True},
                    "link": {"grade": "runs", "open": True},  # `cargo +NAME` then runs that path
                    "uninstall": {"grade": "delete", "open": True},
                }
            },
            "target component": {
                "commands": {
                    "list": {"grade": "read", "open": True},
                    "add": {"grade": "install", "open": True},
                    "remove": {"grade": "delete", "open": True},
                }
            },
            "override": {
                "commands": {
                    "list": "read",
                    # rustup_mode.rs OverrideSubcmd: set (alias add), unset (aliases remove, rm, delete, del) write
                    # ~/.rustup/settings.toml
                    "set add": {"grade": "home", "open": True},
                    "unset remove rm delete del": {"grade": "home", "open": True},
                }
            },
            "self": {"commands": {"update": "install", "uninstall": "delete", "upgrade-data": "home"}},
        },
    },
    "sdk": {
        "source": "SDKMAN! usage (sdkman.io/usage) (SDKMAN 5)",
        "commands": {
            "install i upgrade ug selfupdate": {"grade": "install", "open": True},
            "uninstall rm flush": {"grade": "delete", "open": True},
            "list ls broadcast b update": {"grade": "network", "open": True},
            "use u current c version v help home": {"grade": "read", "open": True},
            "default d offline config": {"grade": "home", "open": True},
            "env e": {"grade": "read", "commands": {"init": "write", "install": "install", "clear": "read"}},
        },
    },
    "asdf": {
        "source": "asdf CLI reference (asdf-vm.com/manage/commands.html) (asdf 0.16)",
        "guard": "packages:plugin_from_url",
        "commands": {
            "install": {"grade": "install", "open": True},
            "uninstall": {"grade": "delete", "open": True},
            # asdf latest NAME asks the plugin's list of versions (its source's releases)
            "latest": {"grade": "network", "open": True},
            "list current which where help version info": {
                "grade": "read",
                "open": True,
                "commands": {"all": "network"},
                "else": "read",
            },
            "set local": {"grade": "write", "open": True, "options": "-u:home --home:home -p:write"},
            "global": {"grade": "home", "open": True},
            "reshim": "home",
            "exec env shell": "runs",
            "plugin": {
                "commands": {
                    "add update": {"grade": "install", "open": True},
                    "remove": "delete",
                    "list": {"grade": "read", "open": True, "commands": {"all": "network"}},
                }
            },
        },
    },
    "mise rtx": {
        "source": "mise CLI reference (mise.jdx.dev/cli) (mise 2025)",
        "guard": "packages:plugin_from_url",
        "options": "-h --help -V --version -v --verbose -q --quiet -y --yes -C=in --cd=in",
        "commands": {
            "install i upgrade up self-update": {"grade": "install", "open": True},
            "use u": {"grade": "install", "open": True},
            "uninstall rm prune": {"grade": "delete", "open": True},
            "ls list current which where doctor version activate completion help bin-paths": {
                "grade": "read",
                "open": True,
            },
            # mise latest asks the tool's backend for its versions; reshim writes the shims under ~; settings
            # set|add|unset write the global config (~/.config/mise/config.toml); config set writes mise.toml
            # (or --file), config generate -o a file (mise CLI reference)
            "latest": {"grade": "network", "open": True},
            "reshim": {"grade": "home", "open": True},
            "settings": {
                "grade": "read",
                "open": True,
                "else": "home",
                "commands": {
                    "ls list get": {"grade": "read", "open": True},
                    "set add unset": {"grade": "home", "open": True},
                },
            },
            "config cfg": {
                "grade": "read",
                "open": True,
                "commands": {
                    "ls list get": {"grade": "read", "open": True},
                    "set": {"grade": "write", "open": True, "options": "-f=out --file=out"},
                    "generate g": {"grade": "read", "open": True, "options": "-o=out --output=out"},
                },
            },
            "ls-remote": {"grade": "network", "open": True},
            "exec x run r watch w tasks shell": "runs",
            # mise trust: the config's env, hooks and templates (which run programs) then run on every cd
            "trust": {
                "grade": "runs",
                "options": "-a --all --untrust --ignore --show",
                "when": {"--show": "read", "--untrust --ignore": "home"},
            },
            "env": "secret",
            "set unset unuse": {"grade": "write", "open": True},
            "plugins plugin p": {
                "commands": {
                    "ls list": {"grade": "read", "open": True},
                    "ls-remote": "network",
                    "install i update link": {"grade": "install", "open": True},
                    "uninstall remove rm": "delete",
                }
            },
            "cache": {"commands": {"clear c prune": "delete", "dir path": "read"}},
        },
    },
    "pixi": {
        "urls": "chosen",
        "source": "pixi CLI reference (pixi.sh/latest/reference/cli) (pixi 0.40)",
        "options": "-h --help -V --version -v --verbose -q --quiet --manifest-path=in",
        "commands": {
            "init": {"grade": "write", "open": True, "operands": "out"},
            "add a remove rm install i update upgrade lock": {"grade": "fetch", "open": True},
            "run r exec x shell shell-hook": "runs",
            "info": {"grade": "read", "open": True},
            # pixi list|tree update the lock file (solving against the channels, installing the environment for
            # PyPI solving unless --no-install); search asks the channels (pixi CLI reference)
            "list ls tree t search": {"grade": "network", "open": True},
            "clean": {"grade": "delete", "open": True},
            "upload": {"grade": "publish", "open": True},
            "build": {"grade": "build", "open": True},
            "self-update": "install",
            "task": {"commands": {"list ls": "read", "add alias remove rm": "write"}},
            "global g": {
                "commands": {
                    "install i add update upgrade sync": {"grade": "install", "open": True},
                    "uninstall remove rm": "delete",
                    "list ls": "read",
                    "expose": "home",
                }
            },
            "config": {
                "commands": {
                    "list ls": "read",
                    "edit": "runs",  # opens the configuration in the editor
                    "set append prepend unset": {"grade": "home", "open": True},
                }
            },
            "project workspace": {
                "commands": {
                    "channel platform version environment feature description": {
                        "commands": {"list ls get": "read", "add set remove rm bump": "write"}
                    }
                }
            },
        },
    },
    "nix": {
        "source": "Nix reference manual: nix command (nix.dev/manual/nix/2.24/command-ref/new-cli/nix): an "
        "installable (nixpkgs#hello, github:owner/repo, a flake's inputs) is fetched before it is evaluated "
        '("Flake references", "Installables"), so the commands that evaluate one talk to another machine; run, '
        "shell -c, develop -c, repl, fmt, bundle run the program the flake names",
        # nix(1) "Common options": every nix.conf setting is also a flag (--NAME VALUE, --NAME/--no-NAME): those that
        # run native code or programs, turn the build sandbox off or accept unsigned store paths are --option's
        "options": "-h --help --version -v --verbose -L --print-build-logs --impure --offline --refresh "
        "--extra-experimental-features= --experimental-features= --option=:unknown" + _NIX_SETTING_FLAGS,
        "guard": "packages:nix_code",
        "commands": {
            "build": {"grade": "fetch", "open": True, "options": "-o=out --out-link=out"},
            "run develop shell repl edit fmt bundle": {"grade": "runs", "open": True},
            "search why-depends path-info log derivation": {"grade": "network", "open": True},
            "hash": {"grade": "read", "open": True},
            "eval": {"grade": "network", "open": True, "options": "--write-to=out"},
            "copy": {"grade": "publish", "open": True},
            "upgrade-nix": "system",
            "help": "read",
            "flake": {
                "commands": {
                    "init new": {"grade": "fetch", "open": True},  # the template comes from a flake (templates#)
                    "update lock": {"grade": "fetch", "open": True},
                    "show metadata info check archive prefetch": {"grade": "fetch", "open": True},
                    "clone": {"grade": "fetch", "open": True, "options": "--dest=out"},
                }
            },
            "profile": {
                "commands": {
                    "install add upgrade rollback": {"grade": "install", "open": True},
                    "remove wipe-history": {"grade": "delete", "open": True},
                    "list history diff-closures": {"grade": "read", "open": True},
                }
            },
            "registry": {"commands": {"list": "read", "add pin remove": "home"}},
            "store": {
                "commands": {
                    # nix3-store-gc(1): --dry-run shows what would be deleted, deleting nothing
                    "gc": {"grade": "delete", "open": True, "options": "--dry-run", "when": {"--dry-run": "read"}},
                    "delete optimise repair": {"grade": "delete", "open": True},
                    "ls cat dump-path diff-closures info ping verify path-from-hash-part": {
                        "grade": "read",
                        "open": True,
                    },
                    "prefetch-file": {"grade": "network", "open": True},
                }
            },
        },
    },
    "nix-env": {
        "source": "nix-env(1) (Nix 2.24)",
        # -f/--file PATH|URL: the Nix expression nix-env evaluates and installs from (nix_code: a URL or a file
        # outside the workspace is code FlyBot never read)
        "guard": "packages:nix_code",
        "grade": "read",
        "options": "-q --query:read -i=:install --install=:install -e=:delete --uninstall=:delete -u:install "
        "--upgrade:install --rollback:home --list-generations --delete-generations=:delete "
        "--switch-generation=:home -G=:home -A --attr -f=in --file=in -a -s -c --status --compare-versions "
        "-P --preserve-installed -b --dry-run -p=:home --profile=:home --description",
    },
    "nix-collect-garbage": {"source": "nix-collect-garbage(1) (Nix 2.24)", "grade": "delete", "open": True},
    # nix-store(1) --query (-q) prints store paths' references, closures, derivers, hashes and sizes; --read-log (-l)
    # may fetch the log from a binary cache; every other operation (--realise, --gc, --delete, --add, --import,
    # --restore, --optimise, --repair-path, --serve) builds, fetches, deletes or writes the store: left unlisted
    "nix-store": {
        "source": "nix-store(1) (Nix 2.24): --query prints; --read-log prints a build log",
        "grade": "read",
        "options": "-q --query -R --requisites --references --referrers --referrers-closure --tree --graph "
        "--graphml -d --deriver --outputs --hash --size --roots --valid --include-outputs --binding= -b= "
        "--print-env --resolve -l:network --read-log:network",
    },
    # ghcup(1) (ghcup 0.1.30, "User Guide"): list fetches the metadata file of available tools; install, set,
    # upgrade and compile put tools under ~/.ghcup; rm and nuke remove them
    "ghcup": {
        "source": "ghcup user guide (www.haskell.org/ghcup/guide) (ghcup 0.1.30)",
        "options": "-h --help -v --verbose --version --numeric-version --offline --no-verify",
        "commands": {
            "list tui": {"grade": "network", "open": True},
            # install -u/--url installs a bindist from the URL given, -i/--isolate into the directory given
            "install set upgrade": {
                "grade": "install",
                "open": True,
                "options": "-u=:chosen --url=:chosen -i=out --isolate=out",
            },
            "rm nuke gc": {"grade": "delete", "open": True},
            "whereis debug-info": {"grade": "read", "open": True},
        },
    },
    # guix describe prints the channels and commit of the Guix in use (Guix manual, "Invoking guix describe");
    # guix pull fetches and builds the default channels' code for the user ("Invoking guix pull": -C/--channels
    # FILE and --url name other channels, whose code runs: unknown); guix install PACKAGE installs into the user's
    # profile ("Invoking guix package"); the other commands (shell, gc, system, package's -f/-e...) are left unlisted
    "guix": {
        "source": "GNU Guix reference manual (guix.gnu.org/manual) (Guix 1.4)",
        "options": "-h --help -V --version",
        "commands": {
            "describe": {"grade": "read", "options": "-f= --format= -p= --profile= -l --list-formats"},
            "pull": {
                "grade": "install",
                "options": "-C=:unknown --channels=:unknown --url=:unknown --commit=:unknown --branch=:unknown "
                "-v= --verbosity= -l --list-generations --news -N",
            },
            "install": {"grade": "install", "options": "-v= --verbosity="},
        },
    },
    "nix-shell": {"source": "nix-shell(1) (Nix 2.24): runs a shell or --run/--command", "grade": "runs", "open": True},
    "nix-build": {
        "source": "nix-build(1) (Nix 2.24)",
        "guard": "packages:nix_code",
        "grade": "fetch",
        "open": True,
        "options": "-o=out --out-link=out --option=:unknown" + _NIX_SETTING_FLAGS,
    },
    "nix-channel": {
        "source": "nix-channel(1) (Nix 2.24)",
        "grade": "read",
        "options": "--list --add=:home --remove=:home --update:install --rollback:home --list-generations",
    },
    "corepack": {
        # corepack README, "Known Good Releases"/"packageManager": a package manager given by URL
        # (yarn@https://…/x.tgz) is downloaded from there and becomes every later yarn or pnpm: a chosen source
        "urls": "chosen",
        "source": "corepack README (github.com/nodejs/corepack) (corepack 0.30)",
        "commands": {
            "enable disable": {"grade": "home", "open": True},
            "install prepare pack up use": {"grade": "install", "open": True},
            "cache": {"commands": {"clean clear": "delete"}},
        },
        "else": "runs",
    },
    "tlmgr": {
        "source": "tlmgr(1) (TeX Live 2024): the TeX Live tree is the system's (--usermode: the user's tree)",
        "options": "--usermode --usertree= --repository= --location= --gui --debug-translation --machine-readable "
        "--no-execute-actions --package-logfile=out --pause --persistent-downloads --pin-file= --verify-repo= "
        "-q -v --version -h --help",
        "commands": {
            "install update backup restore generate recreate-tlpdb postaction": {
                "grade": "system",
                "open": True,
                "options": "--clean:delete",
            },
            "remove": {"grade": "delete", "open": True},
            "info search list check candidates dump-tlpdb platform print-platform print-platform-info": {
                "grade": "read",
                "open": True,
            },
            "arch": {"commands": {"list": "read", "add remove set": "system"}},
            "repository": {"commands": {"list status": "read", "add remove set": "system"}},
            "pinning": {"commands": {"show check": "read", "add remove": "system"}},
            "key": {"commands": {"list": "read", "add remove": "system"}},
            "option conf paper pdftex dvips dvipdfmx xdvi context": {"grade": "read", "else": "system", "open": True},
            "path": {"grade": "system", "open": True},
            "gui shell init-usertree": "runs",
        },
    },
    "cs coursier": {
        "source": "Coursier CLI (get-coursier.io/docs/cli-overview) (coursier 2.1)",
        "options": "-h --help --version",
        "commands": {
            "resolve fetch complete complete-dep": {"grade": "fetch", "open": True},
            "launch java java-home": "runs",
            "install setup update": {"grade": "install", "open": True},
            "uninstall": {"grade": "delete", "open": True},
            "list search version": {"grade": "read", "open": True},
            "bootstrap": {"grade": "fetch", "open": True, "options": "-o=out --output=out"},
        },
    },
    "pipenv": {
        "urls": "chosen",
        "source": "pipenv CLI (pipenv.pypa.io/en/latest/cli.html) (pipenv 2024)",
        # pipenv searches the directories above for a Pipfile (PIPENV_MAX_DEPTH)
        "above": "Pipfile",
        "settings": "python",
        # --python VERSION|PATH: pipenv makes the project's virtualenv (under ~ by default) with that interpreter
        "options": "-h --help --version --venv --where --py --envs --support -v --verbose -q --quiet "
        "--python=:interpreter-home --three:home --rm:delete --clear:delete",
        "grade": "read",
        "commands": {
            # pipenv install -e/--editable PATH: a local project is built there (project-outside-workspace outside)
            "install": {"grade": "fetch", "open": True, "options": "-e=package --editable=package"},
            "update upgrade lock sync": {"grade": "fetch", "open": True},
            "uninstall clean": {"grade": "delete", "open": True},
            # pipenv run CMD: CMD in the project's virtualenv, graded as typed; a Pipfile [scripts] entry of that
            # name and a .env it loads are found by the guard (projects.py python_run_scripts)
            "run": {"grade": "wrap"},
            "shell open scripts": "runs",
            "graph check requirements verify audit": {"grade": "read", "open": True},
        },
        "guard": "projects:python_run_scripts",
    },
    "opam": {
        # opam pin add NAME URL, opam install URL: the package's build and install instructions come from where the
        # URL says (opam manual, "opam pin"): a chosen source
        "urls": "chosen",
        "source": "opam manual: commands (opam.ocaml.org/doc/Manual.html) (opam 2.2)",
        "options": "-h --help --version -y --yes -q --quiet -v --verbose",
        "commands": {
            "install upgrade reinstall pin": {"grade": "install", "open": True},
            # opam init: -a/--auto-setup, --shell-setup or a yes to its question add opam's line to the shell's
            # start-up files; -n/--no-setup leaves them alone
            "init": {
                "grade": "profile",
                "open": True,
                "options": "-n --no-setup -a --auto-setup --shell-setup",
                "when": {"-n --no-setup": "install"},
            },
            "update": {"grade": "install", "open": True},
            "remove uninstall": {"grade": "delete", "open": True},
            "list show info search config env var help source": {"grade": "read", "open": True},
            "switch": {
                "grade": "read",
                "open": True,
                "commands": {"list": "read", "create install set": "install", "remove": "delete"},
                "else": "home",
            },
            "exec": "runs",
        },
    },
    "flatpak": {
        "source": "flatpak(1) command reference (docs.flatpak.org/en/latest/flatpak-command-reference.html) (Flatpak 1.14)",
        "options": "-h --help --version -v --verbose --user --system --installation=",
        "commands": {
            "list info history remotes remote-info remote-ls search ps documents permissions permission-show": {
                "grade": "read",
                "open": True,
            },
            "install update remote-add remote-modify mask pin override make-current permission-set": {
                "grade": "install",
                "open": True,
            },
            "remove uninstall remote-delete repair permission-remove permission-reset": {
                "grade": "delete",
                "open": True,
            },
            "run enter kill": "runs",
        },
    },
    "ollama": {
        "source": "ollama CLI (github.com/ollama/ollama README, ollama --help) (ollama 0.4)",
        "options": "-h --help -v --version",
        "commands": {
            "list ls ps show": {"grade": "read", "open": True},
            "pull run": {"grade": "install", "open": True},
            "push": {"grade": "publish", "open": True},
            "rm": {"grade": "delete", "open": True},
            "create cp": {"grade": "home", "open": True},
            "serve": "runs",
            "stop": "system",
        },
    },
    "perlbrew": {
        "source": "perlbrew(1) (perlbrew 0.98)",
        "commands": {
            "install install-cpanm install-patchperl self-upgrade": {"grade": "install", "open": True},
            "uninstall clean": {"grade": "delete", "open": True},
            "list available version info help": {"grade": "read", "open": True},
            "switch use off": {"grade": "home", "open": True},
            "exec": "runs",
        },
    },
    "ghq": {
        "source": "ghq (github.com/x-motemen/ghq README) (ghq 1.6): repositories under its root (~/ghq)",
        "options": "-h --help -v --version",
        "commands": {
            "get clone": {"grade": "install", "open": True},
            "list root": {"grade": "read", "open": True},
            "rm": {"grade": "delete", "open": True},
            "create": {"grade": "home", "open": True},
        },
    },
    "pecl": {
        "source": "pecl (PEAR/PECL installer, pear.php.net/manual): installs PHP extensions into the system",
        "commands": {
            "install upgrade upgrade-all channel-update update-channels": {"grade": "system", "open": True},
            "uninstall": {"grade": "delete", "open": True},
            "list info list-all search remote-info config-show help version": {"grade": "read", "open": True},
            "download": {"grade": "fetch", "open": True},
            "build package": {"grade": "build", "open": True},
        },
    },
    "phive": {
        "source": "PHIVE (phar.io) (phive 0.15)",
        "commands": {
            "install update selfupdate": {"grade": "fetch", "open": True},
            "remove purge": {"grade": "delete", "open": True},
            "list status version help": {"grade": "read", "open": True},
            "skel": {"grade": "write", "open": True},
        },
    },
    "ncu npm-check-updates": {
        "source": "npm-check-updates README (github.com/raineorshine/npm-check-updates) (ncu 17): -u rewrites package.json",
        "grade": "network",
        "open": True,
        "options": "-u --upgrade --interactive -i --doctor:runs --packageFile=in --deep",
        "when": {"-u --upgrade -i --interactive": "fetch"},
    },
    "chezmoi": {
        "source": "chezmoi command reference (chezmoi.io/reference/commands) (chezmoi 2.5): manages files under ~; "
        "rendering templates (diff, status, cat, apply...) runs their output/exec functions and run_ scripts",
        "options": "-h --help --version -S= --source= -D= --destination= -c=:unknown --config=:unknown -v --verbose "
        "-n --dry-run",
        "commands": {
            "managed unmanaged data cat-config source-path target-path doctor ignored help": {
                "grade": "read",
                "open": True,
            },
            "chattr forget": {"grade": "home", "open": True},
            "diff status cat dump verify execute-template apply add re-add update init import merge merge-all edit "
            "edit-config cd git": "runs",
            "destroy purge remove rm": {"grade": "delete", "open": True},
        },
    },
    "rbenv nodenv goenv": {
        "source": "rbenv README: command reference (github.com/rbenv/rbenv) (rbenv 1.3); ruby-build: rbenv install; "
        "nodenv (github.com/nodenv/nodenv) and goenv (github.com/go-nv/goenv) follow rbenv's commands",
        "commands": {
            "install": {"grade": "install", "open": True, "options": "-l:read --list:read -L:read --list-all:read"},
            "uninstall": {"grade": "delete", "open": True},
            "versions version version-name which whence root prefix commands help shims completions": {
                "grade": "read",
                "open": True,
            },
            # rbenv 1.3 init [SHELL...] adds rbenv init to the shell's start-up files; rbenv init - prints the script
            "init": {
                "grade": "profile",
                "else": "profile",
                "options": "--no-rehash --detect-shell",
                "when": {"--detect-shell": "read"},
                "commands": {"-": {"grade": "read", "options": "--no-rehash"}},
            },
            "global": {"grade": "home", "open": True},
            "local": {"grade": "write", "open": True},
            "shell": {"grade": "read", "open": True},
            "rehash": "home",
            "exec": "runs",
        },
    },
    "rvm": {
        "source": "RVM documentation (rvm.io/rvm/cli) (RVM 1.29)",
        "commands": {
            # rvm get --auto-dotfiles rewrites the rvm lines of the shell's start-up files
            "install reinstall upgrade get requirements": {
                "grade": "install",
                "open": True,
                "options": "--auto-dotfiles:profile",
            },
            "remove uninstall implode": {"grade": "delete", "open": True},
            "list ls info current version help": {"grade": "read", "open": True},
            "use": {"grade": "read", "open": True, "options": "--default:home"},
            "alias gemset": {"grade": "home", "open": True},
            "do exec": "runs",
        },
    },
    "pip-compile": {
        # an index or find-links URL (also inside --pip-args): the sdists resolved there are built to read their
        # metadata, their setup.py or build backend run (pip-tools "pip-compile": it runs pip's resolver)
        "urls": "chosen",
        "source": "pip-tools docs (pip-tools.readthedocs.io/en/latest/cli/pip-compile) (pip-tools 7): resolves "
        "requirements against the index and writes the pinned file",
        "grade": "fetch",
        "open": True,
        # -f/--find-links URL|DIRECTORY (pip-tools "pip-compile"; pip's option): a directory's archives are built
        # as local projects are
        "options": "-o=out --output-file=out --cache-dir=out -f=package --find-links=package",
    },
    "jenv": {
        "source": "jenv README (github.com/jenv/jenv) (jenv 0.5): add registers a JDK, global/local/shell choose one, "
        "enable-plugin links a plugin that runs in every shell and build",
        "guard": "packages:jenv_add",
        "commands": {
            "versions version version-name which whence root prefix commands help doctor shims completions "
            "init plugins": {"grade": "read", "open": True},
            "add remove rehash global": {"grade": "home", "open": True},
            "local": {"grade": "write", "open": True},
            "shell": {"grade": "read", "open": True},
            "enable-plugin disable-plugin exec": "runs",
        },
    },
    "fnm": {
        "source": "fnm command reference (github.com/Schniz/fnm docs/commands.md) (fnm 1.37)",
        "options": "-h --help -V --version --node-dist-mirror=:unknown --fnm-dir=:unknown --log-level= "
        "--arch= --version-file-strategy= --corepack-enabled --resolve-engines",
        "commands": {
            "list ls current env completions": {"grade": "read", "open": True},
            "list-remote ls-remote": {"grade": "network", "open": True},
            "install": {"grade": "install", "open": True},
            "use": {
                "grade": "home",
                "open": True,
                "options": "--install-if-missing:install",
            },  # a link under ~ or the run dir
            "default alias unalias": {"grade": "home", "open": True},
            "uninstall": {"grade": "delete", "open": True},
            "exec": "runs",
        },
    },
    "volta": {
        "source": "Volta command reference (docs.volta.sh/reference) (Volta 2): install and fetch download tools into "
        "~/.volta, pin writes package.json, setup edits the shell's start-up files",
        "options": "-h --help -v --version --verbose --quiet",
        "commands": {
            "install fetch": {"grade": "install", "open": True},
            "uninstall": {"grade": "delete", "open": True},
            "pin": {"grade": "fetch", "open": True},
            "list ls which completions help": {"grade": "read", "open": True},
            "run setup": "runs",
        },
    },
    "hatch": {
        "urls": "chosen",
        "source": "Hatch CLI reference (hatch.pypa.io/latest/cli/reference) (Hatch 1.13): environments are created "
        "and their dependencies installed from the package index on first use (env create, run, test, fmt, "
        "shell); run runs a script of the environment or the command given; build builds in an isolated "
        "environment; version prints the version, or with a part sets it in the project (the project's metadata "
        "is built: a code version source loads the Python file it names, a metadata hook runs hatch_build.py, so "
        'version, status and dep run workspace code as a build does; Hatch "Code version source"); publish '
        "uploads; clean "
        "and env remove/prune delete; config set and python install write under the home directory",
        "options": "-h --help --version -e= --env= -p=project --project=project -v --verbose -q --quiet --color "
        "--no-color --interactive --no-interactive --data-dir=:unknown --cache-dir=:unknown --config=:unknown",
        "commands": {
            "build": {"grade": "fetch", "open": True},
            "test fmt": {"grade": "fetch", "open": True},
            "run shell": "runs",
            "env": {
                "commands": {
                    "create": {"grade": "fetch", "open": True},
                    "show find": {"grade": "read", "open": True},
                    "remove prune": {"grade": "delete", "open": True},
                    "run": "runs",
                }
            },
            "version": {"grade": "build", "else": "write", "open": True},
            "status": {"grade": "build", "open": True},
            "dep": {"commands": {"show hash": {"grade": "build", "open": True}}},
            "project": {"commands": {"metadata": {"grade": "build", "open": True}}},
            "new": {"grade": "write", "open": True},
            "clean": {"grade": "delete", "open": True},
            "publish": {"grade": "publish", "open": True},
            "config": {
                "commands": {
                    "show find explore": {"grade": "read", "open": True},
                    "set update restore": {"grade": "home", "open": True},
                }
            },
            "python": {
                "commands": {
                    "show find": {"grade": "read", "open": True},
                    "install update": {"grade": "install", "open": True},
                    "remove": {"grade": "delete", "open": True},
                }
            },
        },
    },
    "pdm": {
        "urls": "chosen",
        "source": "PDM CLI reference (pdm-project.org/latest/reference/cli) (PDM 2.2x): add, remove, install, "
        "sync, update and lock resolve against the package index and install into the project's environment; "
        "outdated and search ask the index; run runs a script of pyproject.toml or the command given; build "
        "builds in an isolated environment; list, info, show and config print; config KEY VALUE writes "
        "pdm.toml (-g: the home directory's); self and python install write under the home directory",
        "options": "-h --help -V --version -v --verbose -q --quiet -I --ignore-python --pep582= -c=:unknown "
        "--config=:unknown -p=project --project=project",
        "commands": {
            # pdm add -e/--editable PATH|URL: a local project is built there (project-outside-workspace outside)
            "add": {"grade": "fetch", "open": True, "options": "-e=package --editable=package"},
            "remove install sync update lock outdated search": {"grade": "fetch", "open": True},
            "build": {"grade": "fetch", "open": True},
            # pdm run CMD: CMD in the project's environment, graded as typed; a [tool.pdm.scripts] entry of that
            # name and the run hooks are found by the guard (projects.py python_run_scripts)
            "run": {"grade": "wrap", "options": "-s --site-packages --recreate -r --reuse-env --skip= --venv="},
            "list info": {"grade": "read", "open": True},
            "show": {"grade": "network", "open": True},
            "export": {"grade": "read", "open": True, "options": "-o=out --output=out"},
            "init": {"grade": "write", "open": True},
            "publish": {"grade": "publish", "open": True},
            # pdm config (PDM "Configure the project"): pypi.url, pypi.NAME.url, pypi.verify_ssl, pypi.ca_certs
            # choose the index every later install reads
            "config": {
                "grade": "read",
                "else": "write",
                "open": True,
                "options": "-g:home --global:home -l --local -d --delete -e --edit:runs",
                "sources": "pypi",
            },
            "venv": {
                "commands": {
                    "create": {
                        "grade": "fetch",
                        "open": True,
                        "operands": "interpreter",
                        "options": "-n= --name= -w= --with= -p= --project=project",
                    },
                    "list": {"grade": "read", "open": True},
                    "remove": {"grade": "delete", "open": True},
                }
            },
            "cache": {"commands": {"clear remove": {"grade": "delete", "open": True}, "info list": "read"}},
            # pdm self add: "Install packages to the PDM's environment", which PDM loads as plugins on every
            # later run (PDM "Write a plugin": entry points of pdm's own environment), as poetry self add
            "self": {
                "commands": {
                    "list": "read",
                    "add": {"grade": "plugin", "open": True},
                    "remove update": {"grade": "install", "open": True},
                }
            },
            # pdm use PYTHON / pdm venv create PYTHON: the interpreter pdm runs (to read its version) and the
            # project then runs under: a path is a program of the caller's choosing, a version adds nothing
            "use": {"grade": "write", "open": True, "operands": "interpreter"},
        },
        "guard": "projects:python_run_scripts",
    },
}
