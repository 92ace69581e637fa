"""Linters, formatters and test runners (pytest, mypy, ruff, black, eslint, prettier...: programs/build.py checker).

A linter that only reports reads; a formatter or fixer writes the files it is given when told to (``-i``, ``-w``,
``--fix``, ``--write``), graded by where they are; a test runner runs the project's code (``build``). Hook managers
run programs fetched from elsewhere (``runs``), and installing hooks writes ``.git/hooks`` (``runs``: git will run
them later).
"""

from __future__ import annotations

_REPORT = {"grade": "read", "open": True}
#: golangci-lint run --help (v2): every ``--output.FORMAT.path`` ("Output path can be either `stdout`, `stderr` or
#: path to the file to write to") and the profile files.
_GOLANGCI_OUTPUTS = (
    " ".join(
        f"--output.{fmt}.path=out"
        for fmt in ("text", "json", "tab", "html", "checkstyle", "code-climate", "junit-xml", "teamcity", "sarif")
    )
    + " --cpu-profile-path=out --mem-profile-path=out --trace-path=out"
)
#: phpcs --help (PHP_CodeSniffer 3.10): ``--report-file=<reportFile>`` and ``--report-<report>=<reportFile>`` write
#: the report to a file (phpcbf takes the same); ``--cache=<cacheFile>`` writes its cache file.
_PHPCS_REPORTS = "--report-file=out --cache=*:out " + " ".join(
    f"--report-{fmt}=out"
    for fmt in (
        "full", "xml", "checkstyle", "csv", "json", "junit", "emacs", "source", "summary", "svnblame", "gitblame",
        "hgblame", "notifysend", "info", "diff", "code", "performance",
    )
)  # fmt: skip

CATALOGUE: dict[str, object] = {
    "shellcheck": {
        "source": "shellcheck(1) (ShellCheck 0.10): checks scripts, never runs them",
        "grade": "read",
        "open": True,
        "options": "--rcfile=in -f= --format= -s= --shell= -e= --exclude= -i= --include= -o= --enable= -S= "
        "--severity= -x --external-sources -P= --source-path= -a --check-sourced -C* --color* -W= "
        "--wiki-link-count= --list-optional --norc -V --version",
    },
    "clang-format clang-format-17 clang-format-18 clang-format-19": {
        "source": "ClangFormat docs (clang.llvm.org/docs/ClangFormat.html) (clang-format 18): -i edits files in place, also "
        "each file --files names (a list FlyBot does not read)",
        "grade": "read",
        "open": True,
        "options": "-i --style=* -style=* --dump-config --dry-run -n --Werror --assume-filename=* --lines=* "
        "--offset=* --length=* --fallback-style=* --sort-includes --verbose --files=in -files=in",
        # -i writes each file through llvm::writeToOutput (llvm/lib/Support/raw_ostream.cpp): a temporary file
        # renamed over the path, so a symbolic link named there is replaced, not followed
        "when": {"-i": {"operands": "replaced"}, "-i + --files -files": "unknown"},
    },
    "ocamlformat": {
        "source": "ocamlformat(1) (OCamlFormat 0.26): prints the formatted file, --check only reports, -i (--inplace) "
        "rewrites the files given and -o (--output) writes FILE; the .ocamlformat files it reads are options, not code",
        "grade": "read",
        "open": True,
        "options": "--check -i --inplace -o=out --output=out --enable-outside-detected-project --name=* --impl --intf "
        "--root=* --profile=* --print-config",
        "when": {"-i --inplace": {"grade": "write", "operands": "replaced"}},
    },
    "clang-tidy clang-tidy-17 clang-tidy-18": {
        "source": "clang-tidy docs (clang.llvm.org/extra/clang-tidy) (clang-tidy 18): --fix rewrites sources; -p names the "
        "build path of the compile command database, whose commands give the compiler options it parses with "
        "(-Xclang -load, -fplugin: refused here on the command line), so one outside the workspace is a project there; "
        "without -p it looks for compile_commands.json in the parent directories of the first source",
        "above": "compile_commands.json",
        "grade": "read",
        "open": True,
        "options": "--fix --fix-errors --fix-notes -p=project --checks=* -checks=* --export-fixes=out "
        "--load=:unknown -load=:unknown --config-file=project --extra-arg=* --extra-arg-before=*",
        "unsafe": "-fplugin -fpass-plugin -Xclang -load -B --extra-arg=-fplugin --extra-arg=-fpass-plugin "
        "--extra-arg=-Xclang --extra-arg=-B --extra-arg-before=-fplugin --extra-arg-before=-fpass-plugin "
        "--extra-arg-before=-Xclang --extra-arg-before=-B",
        "when": {"--fix --fix-errors --fix-notes": {"operands": "out"}},
    },
    "cppcheck": {
        "source": "cppcheck(1) and the Cppcheck manual (Cppcheck 2.15): --addon and --addon-python run Python "
        "scripts; --project names the project whose files, include paths and defines it uses, and a Cppcheck GUI "
        "project (.cppcheck) also the addons it runs; --dump writes a .dump file beside each source analysed, "
        "--plist-output a plist file per source into the directory named",
        "grade": "read",
        "open": True,
        "options": "--output-file=out --cppcheck-build-dir=out --addon=:unknown --addon-python=interpreter "
        "--rule-file=in --project=project --plist-output=out --dump",
        "when": {"--dump": {"operands": "out"}},
        "guard": "build:cppcheck_project",  # --project=NAME.cppcheck: its <addons> run
    },
    "actionlint": {
        "source": "actionlint(1) usage (actionlint 1.7): -shellcheck/-pyflakes name the command or file path of the "
        "external program run for every run: script of the workflows",
        "grade": "read",
        "open": True,
        "options": "-shellcheck=interpreter -pyflakes=interpreter -config-file=project -format= -ignore= -color "
        "-oneline -no-color -verbose -debug -version -init-config:write -stdin-filename=",
    },
    "checkov": {
        "source": "checkov CLI reference (checkov 3): --external-checks-dir loads the custom checks (Python modules) "
        "of a directory, also when the .checkov.yaml it reads from the directory it runs in names one; "
        "--external-checks-git clones and loads them",
        "grade": "build",
        "open": True,
        "options": "--external-checks-dir=project --external-checks-git=:unknown --config-file=project "
        "-o= --output= --output-file-path=out -d=in --directory=in -f=in --file=in",
    },
    "tflint": {
        "source": "tflint docs (tflint 0.5x): the configuration (.tflint.hcl, --config) names plugins, executables "
        "tflint starts, and plugin_dir where they are found; --init downloads them",
        "grade": "build",
        "open": True,
        "options": "-c=project --config=project --init:network --chdir=project -f= --format= --fix:build",
    },
    "hadolint yamllint cpplint pycodestyle pyflakes pydocstyle bandit codespell typos "
    "revive htmlhint "
    "editorconfig-checker": {
        "source": "each linter's CLI docs (hadolint, yamllint 1.35, cpplint, pycodestyle, pyflakes, "
        "bandit 1.7, vale 3, codespell 2.3 -w, typos -w, revive, "
        "htmlhint): they report; the named options rewrite the files given",
        "grade": "read",
        "open": True,
        "options": "-w:build --write-changes:build --write:build --fix:build --refactor:build -o=out --output=out "
        "--output-file=out -f= --format= -c=in --config=in --init:install --download-external-modules:network "
        # htmlhint -R/--rulesdir FILE|DIR: "load custom rules from file or folder" (JavaScript it runs)
        "-R=project --rulesdir=project",
        "when": {"-w --write-changes --write --fix --refactor": {"operands": "out"}},
    },
    "staticcheck": {
        "source": "staticcheck -help (staticcheck 2024.1, Go flag syntax: -name=value, -name value, --name): it "
        "reports; -debug.cpuprofile, -debug.memprofile, -debug.trace, -debug.measure-analyzers and "
        "-debug.unused-graph write the file named",
        "grade": "read",
        "open": True,
        "options": "-debug.cpuprofile=out --debug.cpuprofile=out -debug.memprofile=out --debug.memprofile=out "
        "-debug.trace=out --debug.trace=out -debug.measure-analyzers=out --debug.measure-analyzers=out "
        "-debug.unused-graph=out --debug.unused-graph=out -checks= -f= -fail= -go= -tags= -explain= -matrix "
        "-merge -tests -show-ignored -list-checks -version",
    },
    "hlint": {
        "source": "hlint --help (HLint 3.8, cmdargs: a long option may be abbreviated): it reports; --report[=FILE] "
        "writes an HTML report (report.html), --generate-summary[=FILE] a Markdown summary (hints.md), --refactor "
        "rewrites the files given by running the refactor program, which --with-refactor names",
        "grade": "read",
        "open": True,
        "options": "--report=out --generate-summary=out --generate-mdsummary=out --generate-jsonsummary=out "
        "--generate-exts-yaml=out --refactor:build --refactor-options= --with-refactor=interpreter "
        "-h= --hint= -w= --with-group= -X= --cpp-define= --cpp-include=in --datadir=in -j= --threads=",
        "when": {"--refactor": {"operands": "out"}},
        "guard": "build:hlint_refactor_options",  # the options hlint passes to refactor (-o FILE writes)
    },
    "jsonlint": {
        "source": "jsonlint --help (zaach/jsonlint 1.6): it validates and prints; -i/--in-place overwrites the file "
        "given",
        "grade": "read",
        "open": True,
        "options": "-i --in-place -s --sort-keys -t= --indent= -V=in --validate=in -e= --environment= -c --compact "
        "-q --quiet -p --pretty-print",
        "when": {"-i --in-place": {"operands": "out", "grade": "build"}},
    },
    "commitlint": {
        "source": "commitlint reference (commitlint.js.org: CLI, Configuration, API load) (commitlint 19): every run "
        "loads the configuration it finds (commitlint.config.js/.ts/.mjs, .commitlintrc.*, package.json), whose "
        "function rules are executed during config lookup, and the extends, parserPreset, formatter and plugins "
        "modules it names: workspace code, as a build runs",
        "grade": "build",
        "open": True,
        "options": "-g=project --config=project -x=project --extends=project -p=project --parser-preset=project "
        "-o=project --format=project --cwd=project -d=project",
    },
    "markdownlint markdownlint-cli2": {
        "source": "markdownlint-cli README (0.41): -r/--rules loads custom rules (JavaScript) and a .markdownlint.cjs "
        "or .markdownlint.js configuration is JavaScript it runs; markdownlint-cli2 README (0.14): "
        ".markdownlint-cli2.cjs/.mjs configurations and their customRules are JavaScript; --fix rewrites the files",
        "grade": "build",
        "open": True,
        "options": "--fix:build -o=out --output=out -c=project --config=project -r=project --rules=project",
        "when": {"--fix": {"operands": "out"}},
    },
    "taplo": {
        "source": "Taplo CLI docs (taplo.tamasfe.dev/cli, taplo-cli 0.10): format|fmt rewrites the TOML files given in "
        "place (without files, every TOML file its configuration includes) unless --check; lint|check and get read, "
        "fetching schemas only from the URLs or catalogs named",
        "options": "-c=in --config=in --cache-path=out --colors= --verbose --log-spans --no-auto-config -h --help "
        "-V --version",
        "commands": {
            "format fmt": {
                "grade": "build",
                "operands": "replaced",
                "options": "-o= --option= -f --force --check --diff --stdin-filepath=",
                "when": {"--check": {"grade": "read", "operands": "none"}},
            },
            "lint check": {
                "grade": "read",
                "options": "--schema=:network --schema-catalog=:network --default-schema-catalogs:network --no-schema",
            },
            "get": {
                "grade": "read",
                "options": "-f= --file-path= -o= --output-format= -s --strip-newline --separator=",
            },
            "help": "read",
        },
    },
    "ktlint": {
        "source": "ktlint command line (pinterest.github.io/ktlint/latest/install/cli; ktlint 1.x, 0.50): it reports "
        "unless -F/--format rewrites the files; -R/--ruleset loads the rule-set JAR named, --reporter "
        "NAME,artifact=JAR,output=FILE loads a reporter JAR and writes its report to FILE, --baseline is created when "
        "it does not exist; the installGitPreCommitHook and installGitPrePushHook commands (0.x "
        "--install-git-pre-commit-hook, --install-git-pre-push-hook) write a hook git runs later; 0.x "
        "--apply-to-idea rewrites IntelliJ IDEA's settings under ~, --apply-to-idea-project the project's .idea",
        "grade": "read",
        "open": True,
        "options": "-F --format -R=project --ruleset=project --reporter= --baseline=out --editorconfig=in "
        "--install-git-pre-commit-hook:runs --install-git-pre-push-hook:runs --apply-to-idea:home "
        "--apply-to-idea-project:write --code-style= --color-name= --limit= --log-level= -l= --disabled_rules=",
        "when": {"-F --format": {"operands": "out", "grade": "build"}, "-R --ruleset": "build"},
        "words": {"installGitPreCommitHook installGitPrePushHook": "runs"},
        "guard": "build:ktlint_reporter",  # --reporter NAME,artifact=JAR,output=FILE
    },
    "shfmt gofumpt goimports stylish-haskell": {
        "source": "each formatter's CLI docs (shfmt 3 -w/-l/-d, gofumpt -w, goimports -w, "
        "stylish-haskell -i): they print the formatted text or report unless told to write",
        "grade": "read",
        "open": True,
        "options": "-w --write -i --inplace -F --format -l -d --check --lint --diff",
        "when": {"-w --write -i --inplace -F --format": {"operands": "out", "grade": "build"}},
    },
    # not open: an option left out might be -m/--mode spelled another way (optparse-applicative takes a long
    # option's unambiguous prefix, so --mo is refused as unknown)
    "ormolu fourmolu": {
        "source": "ormolu --help (ormolu 0.7), fourmolu --help (fourmolu 0.16): -m/--mode MODE is stdout (the default: "
        "prints the formatted text), check (reports) or inplace (rewrites the files given); -i is --mode inplace",
        "grade": "read",
        "options": "-i -m= --mode= -c --check-idempotence -u --unsafe -d --debug -t --tolerate-cpp -q --quiet "
        "--no-cabal --cabal-default-extensions --stdin-input-file= -o= --ghc-opt= -p= --package= -f= --fixity= "
        "--start-line= --end-line= --source-type= --color= --config= --indentation= --column-limit= "
        "--function-arrows= --comma-style= --import-export-style= --indent-wheres= --record-brace-space= "
        "--newlines-between-decls= --haddock-style= --haddock-style-module= --let-style= --in-style= "
        "--single-constraint-parens= --single-deriving-parens= --sort-constraints= --sort-derived-classes= "
        "--sort-deriving-clauses= --trailing-section-operators= --unicode= --respectful= --import-grouping= "
        "--version --numeric-version --manual-exts -h --help",
        "when": {"-i -m=inplace --mode=inplace": {"operands": "out", "grade": "build"}},
    },
    "rubocop standardrb": {
        "source": "RuboCop docs (docs.rubocop.org) (RuboCop 1.66): -a/-A autocorrect the files inspected; require: in "
        ".rubocop.yml (or the --config file) loads the Ruby code it names; it looks for .rubocop.yml from the "
        "inspected file's directory up to the root (Configuration: config file locations)",
        "above": ".rubocop.yml .standard.yml",
        "grade": "build",
        "open": True,
        "options": "-a -A --autocorrect --autocorrect-all -x --fix-layout -o=out --out=out -r=:runs --require=:runs "
        "-c=project --config=project --cache-root=out",
        "when": {"-a -A --autocorrect --autocorrect-all -x --fix-layout": {"grade": "build", "operands": "out"}},
    },
    "golangci-lint": {
        # golangci-lint.run "Configuration File": searched from the working directory up to the root
        "above": ".golangci.yml .golangci.yaml .golangci.toml .golangci.json",
        "source": 'golangci-lint run --help (golangci-lint 1.61); golangci-lint.run "New linters": the configuration\'s '
        "custom linters (linters-settings.custom.NAME.path) are Go plugins it loads",
        "options": "-h --help --version -v --verbose -c=project --config=project --color=*",
        "commands": {
            # golangci-lint run --help (v2): --output.FORMAT.path "Output path can be either `stdout`, `stderr` or
            # path to the file to write to"; --cpu-profile-path, --mem-profile-path, --trace-path write profiles
            "run": {"grade": "build", "open": True, "options": "--fix " + _GOLANGCI_OUTPUTS},
            "linters help version": _REPORT,
            "cache": {"commands": {"clean": "delete", "status": "read"}},
            "fmt": {"grade": "build", "open": True},
            "config": _REPORT,
        },
    },
    "phpstan psalm phan": {
        "source": "PHPStan, Psalm, Phan CLI docs: analyse the project's code; the configuration (phpstan -c, psalm -c, "
        "phan -k) and autoload files (phpstan -a) name PHP files they load",
        "grade": "build",
        "open": True,
        "options": "--alter:build --generate-baseline* -c=project --configuration=project -a=project "
        "--autoload-file=project -k=project --config=project --config-file=project",
    },
    "phpcs": {
        "source": "PHP_CodeSniffer phpcs (3.10): a standard may be the project's PHP sniffs",
        "grade": "build",
        "open": True,
        "options": _PHPCS_REPORTS,
        "guard": "build:phpcs_code",  # --bootstrap, --standard PATH, --runtime-set installed_paths outside
    },
    "pint": {
        "source": "Laravel Pint (laravel.com/docs/11.x/pint) (Pint 1.18): fixes the code style of the files or "
        "directories given (the project without), --test only reports them, --config names a pint.json, "
        "--output-to-file writes the report; it is the project's Composer package, PHP run from vendor",
        "grade": "build",
        "open": True,
        "operands": "out",
        "options": "--test --config=project --output-to-file=out --cache-file=out",
        "when": {"--test": {"operands": "none"}},
    },
    "phpcbf": {
        "source": "PHP_CodeSniffer phpcbf (3.10): fixes the files given; phpcbf --help lists the report options "
        "of phpcs (--report-file, --report-FORMAT=FILE)",
        "grade": "build",
        "open": True,
        "operands": "out",
        "options": _PHPCS_REPORTS,
        "guard": "build:phpcs_code",
    },
    "mocha": {
        "source": "Mocha 10 command line (mochajs.org, Command-Line Usage): --reporter-option/-O KEY=VALUE,... "
        "(the xunit reporter writes its report to output=FILE; other reporters take other keys); --require/-r, "
        "--reporter/-R and --ui/-u load a module or file, --config and --package name the configuration, --file a "
        "test file (each a path outside the workspace: code FlyBot does not read); -n/--node-option passes node flags "
        "(require=, import=, loader=: modules node loads) and node's own flags (--loader, --import) are accepted",
        "grade": "build",
        "open": True,
        "options": "-O=pairs --reporter-option=pairs --reporter-options=pairs -o=out --out=out --output=out "
        "-r=project --require=project -R=project --reporter=project -u=project --ui=project --config=project "
        "--package=project --file=project -c=project --configuration=project --bootstrap=project "
        "-n=:unknown --node-option=:unknown --loader=project --experimental-loader=project --import=project",
        "operands": "project",
    },
    "rspec phpunit pest ava karma behave cucumber nosetests nose2 ctest-runner busted bats": {
        "source": "each test runner's CLI docs (RSpec 3, PHPUnit 11, Mocha 10, AVA, Karma, behave, Cucumber, nose2, "
        "busted, bats): they run the project's tests; --require/-r loads a file or library (outside the "
        "workspace: code FlyBot does not read)",
        "grade": "build",
        "open": True,
        "options": "-o=out --out=out --output=out --log-junit=out --coverage-html=out --coverage-clover=out "
        "-r=project --require=project -c=project --configuration=project --bootstrap=project",
        "operands": "project",
        "guard": "build:php_ini_settings",  # phpunit/pest -d KEY=VALUE: php.ini directives
    },
    "cypress": {
        "source": "Cypress command line (docs.cypress.io/app/references/command-line) (Cypress 13)",
        "commands": {
            # cypress run --help: "-C, --config-file <config-file>  path to script file where configuration values
            # are set" (cypress.config.js: code); "-P, --project <project-path>  path to your Cypress project" (its
            # configuration and support files run)
            "run": {
                "grade": "build",
                "open": True,
                "options": "-C=project --config-file=project -P=project --project=project",
            },
            "open": "runs",
            "install": {"grade": "install", "open": True},
            "verify version info": _REPORT,
            "cache": {"commands": {"path list": "read", "clear prune": "delete"}},
        },
    },
    "playwright": {
        "source": "Playwright CLI (playwright.dev/docs/test-cli) (Playwright 1.48)",
        "commands": {
            # playwright test: "-c <file> or --config <file>: Configuration file" (playwright.config.ts: code)
            # playwright test: "--output <dir>: Directory for output files"; TestConfig.outputDir (the same
            # setting): "This directory is cleaned at the start"
            "test": {
                "grade": "build",
                "open": True,
                "options": "-c=project --config=project --output=emptied",
            },
            "install": {"grade": "install", "open": True, "options": "--with-deps:system"},
            "show-report show-trace codegen open cr ff wk": "runs",
            "--version": "read",
            "screenshot pdf": {"grade": "network", "open": True, "operands": "last-out"},
        },
    },
    "pre-commit": {
        "source": "pre-commit docs: CLI (pre-commit.com/#cli) (pre-commit 4): hooks are programs from other repositories, "
        "named by the configuration (-c)",
        "options": "-h --help -V --version -c=project --config=project --color=",
        "commands": {
            # run: the hooks' code comes from the repositories the configuration names, or is a local entry
            "run": {
                "grade": "runs",
                "options": "-a --all-files --files* --hook-stage= --from-ref= --to-ref= -s= --source= -o= "
                "--origin= --show-diff-on-failure -v --verbose --skip=",
            },
            "try-repo hook-impl": "runs",
            "install install-hooks uninstall init-templatedir": "runs",
            "autoupdate": {"grade": "fetch", "open": True},
            "clean gc": {"grade": "delete", "open": True},
            "validate-config validate-manifest sample-config help": _REPORT,
            "migrate-config": {"grade": "write", "open": True},
        },
    },
    "biome": {
        "source": "Biome CLI reference (biomejs.dev/reference/cli) (Biome 1.9): --write/--fix apply changes",
        "options": "-h --help -V --version --colors= --config-path=in --verbose",
        "commands": {
            "check lint format ci": {
                "grade": "read",
                "open": True,
                "options": "--write --fix --apply --apply-unsafe --unsafe",
                "when": {"--write --fix --apply --apply-unsafe": {"grade": "build", "operands": "out"}},
            },
            "init migrate": {"grade": "write", "open": True},
            "explain rage version": _REPORT,
            "start stop lsp-proxy": "runs",
        },
    },
    "trivy grype": {
        "source": "Trivy CLI (aquasecurity.github.io/trivy) (Trivy 0.56); Grype: they download vulnerability databases",
        "grade": "network",
        "open": True,
        "else": "network",
        "commands": {"plugin module": "runs", "clean": "delete", "version": "read"},
        # trivy global flags: "-c, --config string  config path (default "trivy.yaml")" (its module.dir and
        # enable-modules load WebAssembly modules); grype README "Configuration": "-c, --config"
        "options": "-o=out --output=out --cache-dir=out -c=project --config=project",
    },
    "semgrep": {
        "source": "semgrep CLI reference (semgrep.dev/docs/cli-reference) (Semgrep 1.9): fetches rules from the registry; "
        "semgrep with options and no command runs scan",
        # `semgrep --config RULES PATH` (no command word) is `semgrep scan`: the same options
        "grade": "network",
        "open": True,
        "options": "-h --help --version --autofix:build -o=out --output=out -c=project --config=project",
        "else": "network",
        "commands": {
            # semgrep scan: "-c, --config=VAL  YAML configuration file, directory of YAML files ending in .yml|.yaml,
            # URL of a configuration file, or Semgrep registry entry name" (the rules, which --autofix applies)
            "scan ci": {
                "grade": "network",
                "open": True,
                # "-a, --autofix: Apply autofix patches" to the files of the TARGETS scanned (default .)
                "options": "--autofix:build -a:build -o=out --output=out -c=project --config=project",
                "when": {"--autofix -a": {"operands": "out"}},
            },
            "login logout": "home",
            "publish": "publish",
            "install-semgrep-pro": "install",
            "lsp": "runs",
        },
    },
    "conftest": {
        "source": "conftest usage (conftest.dev) (conftest 0.56): test and verify run Rego policies (--policy, "
        "default ./policy), whose http.send reaches other machines; --update and pull download policies; fmt rewrites "
        "policy files",
        "options": "-h --help -v --version",
        "commands": {
            "test verify": {
                "grade": "build",
                "open": True,
                "options": "-p=project --policy=project -d=project --data=project --update=:runs",
            },
            "parse": {"grade": "read", "open": True},
            "fmt": {"grade": "build", "open": True, "operands": "out"},
            "pull": {"grade": "fetch", "open": True, "options": "-p=out --policy=out"},
            "push": "publish",
            "plugin": "unknown",
        },
    },
    "opa": {
        "source": "OPA CLI reference (openpolicyagent.org/docs/cli) (OPA 0.68): eval and test run Rego loaded from "
        "-d/--data, -b/--bundle (test: its operands), whose http.send reaches other machines and opa.runtime() reads "
        "the environment; check and parse only parse; fmt -w rewrites files; run, exec and server serve or load code",
        "options": "-h --help",
        "commands": {
            "eval bench": {
                "grade": "build",
                "open": True,
                "options": "-d=project --data=project -b=project --bundle=project -i= --input=",
            },
            "test": {
                "grade": "build",
                "open": True,
                "operands": "project",
                "options": "-b=project --bundle=project",
            },
            "check parse inspect deps capabilities": {"grade": "read", "open": True},
            "fmt": {
                "grade": "read",
                "open": True,
                "options": "-w --write",
                "when": {"-w --write": {"operands": "out"}},
            },
            "build": {"grade": "build", "open": True, "options": "-o=out --output=out"},
            "version": "read",
            "run exec server sign": "runs",
        },
    },
    "kube-linter": {
        "source": "kube-linter (docs.kubelinter.io) (kube-linter 0.6): lint reads manifests and Helm charts",
        "options": "-h --help",
        "commands": {
            "lint": {"grade": "read", "open": True},
            "checks templates": {"grade": "read", "open": True},
            "version": "read",
        },
    },
    "gitleaks": {
        "source": "gitleaks README (github.com/gitleaks/gitleaks) (gitleaks 8.21): detect, protect, git, dir and stdin "
        "scan for secrets and print them (--redact hides them); -r/--report-path writes a report; -c/--config names "
        "the rules",
        "options": "-h --help -v --version",
        "commands": {
            # the findings printed hold each secret found in the clear: a secret read, unless --redact hides them
            "detect protect git dir directory files stdin": {
                "grade": "secret",
                "open": True,
                "operands": "project",
                "options": "-s=project --source=project -r=out --report-path=out -c=project --config=project --redact",
                "when": {"--redact": "read"},
            },
            "version": "read",
        },
    },
    "trufflehog": {
        "source": "trufflehog README (github.com/trufflesecurity/trufflehog) (trufflehog 3.8x): filesystem, git, "
        "github and the other sources scan for secrets, print them (in the clear: a secret read) and verify each "
        "against its service unless --no-verification is given; git and github fetch repositories",
        "options": "-h --help --version",
        "commands": {
            # the findings printed hold each secret found in the clear: a secret read either way
            "filesystem": {"grade": "secret", "open": True, "operands": "project"},
            "git github gitlab s3 gcs docker postman jenkins huggingface circleci travisci elasticsearch": {
                "grade": "network",
                "open": True,
            },
        },
    },
    "gosec": {
        "source": "gosec README (github.com/securego/gosec) (gosec 2.21)",
        "grade": "read",
        "open": True,
        "options": "-out=out -fmt=",
    },
    "php-cs-fixer": {
        "source": "PHP CS Fixer usage (cs.symfony.com/doc/usage.html) (php-cs-fixer 3.6x): fix rewrites, --dry-run reports; "
        "its configuration (.php-cs-fixer.php, .php-cs-fixer.dist.php) is PHP it runs",
        "options": "-h --help -V --version",
        "commands": {
            "fix": {
                "grade": "build",
                "open": True,
                "operands": "out",
                "options": "--dry-run",
                "when": {"--dry-run": {"operands": "none"}},
            },
            "check list-files": {"grade": "build", "open": True},
            "list-sets describe help": {"grade": "read", "open": True},
            "self-update selfupdate": {"grade": "system", "open": True},
        },
    },
    "clamscan clamdscan": {
        "source": "clamscan(1), clamdscan(1) (ClamAV 1.4)",
        "grade": "read",
        "open": True,
        "options": "-l=out --log=out --remove:delete --remove=*:delete --move=:delete --copy=out -d=in --database=in",
    },
    "stylua alejandra nixfmt swiftformat elm-format": {
        "source": "stylua (--check), alejandra (--check), nixfmt (--check), swiftformat (--lint), elm-format "
        "(--validate): they rewrite the files given in place unless told to check",
        "grade": "build",
        "open": True,
        "operands": "out",
        "options": "--check -c --lint --validate --stdin",
        "when": {"--check -c --lint --validate": {"grade": "read", "operands": "none"}},
    },
    "dprint": {
        "source": 'dprint CLI (dprint.dev/cli) (dprint 0.47); dprint.dev/config "plugins": the configuration names '
        "plugins, process plugins are executables it runs",
        "options": "-h --help -V --version -c=project --config=project",
        "commands": {
            # fmt and check download the plugins the configuration names by URL (to the cache) before running them
            # (process plugins are executables)
            "fmt": {"grade": "fetch", "open": True, "operands": "out"},
            "check output-file-paths output-resolved-config license": {"grade": "fetch", "open": True},
            "init config": {"grade": "write", "open": True},
            "upgrade": "install",
            "clear-cache": "delete",
        },
    },
    "cljfmt": {
        "source": "cljfmt README (github.com/weavejester/cljfmt) (cljfmt 0.13)",
        "commands": {
            "fix": {"grade": "build", "open": True, "operands": "out"},
            "check": {"grade": "read", "open": True},
        },
    },
    "vale": {
        "source": "Vale CLI (vale.sh/docs/cli) (Vale 3): vale sync downloads styles",
        "grade": "read",
        "open": True,
        "else": "read",
        "commands": {"sync": {"grade": "fetch", "open": True}, "ls-config ls-dirs ls-metrics ls-vars": "read"},
    },
    "vulture": {
        "source": "vulture README (github.com/jendrikseipp/vulture) (vulture 2.13): reports unused code",
        "grade": "read",
        "open": True,
        "options": "--config=in",
    },
    "radon": {
        "source": "radon docs (radon.readthedocs.io/en/latest/commandline.html) (radon 6): cc, raw, mi, hal report",
        "grade": "read",
        "options": "-h --help --version",
        "commands": {"cc raw mi hal": {"grade": "read", "open": True, "options": "-O=out --output-file=out"}},
    },
    "pyright basedpyright": {
        "source": "pyright command-line docs (microsoft.github.io/pyright/#/command-line) (pyright 1.1): type checks; "
        '--createstub writes stubs into typings/; --pythonpath FILE is "Path to the Python interpreter", which '
        "pyright runs to find its search paths",
        "grade": "read",
        "open": True,
        "options": "--createstub=:build --writebaseline:build -p=in --project=in --pythonpath=interpreter "
        "--venvpath=in",
    },
    "twine": {
        "source": "twine docs (twine.readthedocs.io) (twine 6): check reads the distributions, upload publishes them",
        "options": "-h --help -v --version --no-color",
        "commands": {"check": {"grade": "read", "open": True}, "upload register": {"grade": "publish", "open": True}},
    },
    "pyproject-build": {
        "source": "build docs (build.pypa.io/en/stable, 'Usage') (build 1.2): builds the sdist and wheel of the "
        "project in SRCDIR (default .) into dist/ (-o/--outdir), installing the build dependencies into a temporary "
        "environment; SRCDIR names the project whose build backend runs. The isolated environment is filled from "
        "the package index ('build will ... install the build dependencies ... in an isolated environment'): a "
        "download, unless -n/--no-isolation builds in the current environment",
        "grade": "fetch",
        "options": "-h --help -V --version -v --verbose -q --quiet -s --sdist -w --wheel -n --no-isolation "
        "-x --skip-dependency-check -o=out --outdir=out -C= --config-setting= --installer=",
        "when": {"-n --no-isolation": "build", "-h --help -V --version": "read"},
        "operands": "project",
    },
    "coverage": {
        "source": "coverage.py command line (coverage.readthedocs.io/en/latest/cmd.html) (coverage 7): report "
        "prints, html/xml/json/lcov/annotate write reports, erase deletes the data file; run runs the program as "
        "python runs it ('coverage run' replaces 'python' on the command line; -m: a module); every command reads "
        "the configuration (.coveragerc, setup.cfg, tox.ini, pyproject.toml, or --rcfile), whose [run] plugins "
        "imports the project's Python modules (coverage 'Plug-ins'): report and debug run the project's code",
        "options": "-h --help --version --rcfile=project",
        "commands": {
            "run": {
                "grade": "python",
                "options": "-a --append --branch --concurrency= --context= --data-file=out -m --module -L --pylib "
                "-p --parallel-mode --source= --timid --include= --omit= --debug= --save-signal= --rcfile=project",
            },
            "report debug": {"grade": "build", "open": True, "options": "--data-file=in"},
            "html": {"grade": "write", "open": True, "options": "-d=out --directory=out --data-file=in"},
            "xml json lcov": {"grade": "write", "open": True, "options": "-o=out --data-file=in"},
            "annotate": {"grade": "write", "open": True, "options": "-d=out --directory=out --data-file=in"},
            "combine": {"grade": "write", "open": True, "options": "--data-file=out"},
            "erase": {"grade": "delete", "open": True},
        },
    },
    "stylelint": {
        "source": "stylelint CLI (stylelint.io/user-guide/cli) (stylelint 16): its configuration is JavaScript it "
        "runs; --fix rewrites the files given",
        "grade": "build",
        "open": True,
        "options": "--fix --output-file=out -o=out --config=project -c=project --custom-formatter=:runs "
        "--custom-syntax=:runs",
        "when": {"--fix": {"operands": "out"}},
    },
    # Go's flag package: one or two dashes, values attached with = or as the next word, no clusters
    "govulncheck": {
        "source": "govulncheck -h (golang.org/x/vuln/cmd/govulncheck) (govulncheck 1.1): it loads the packages with "
        "the go command (which may fetch modules) and queries the vulnerability database (-db, default "
        "https://vuln.go.dev); -mode binary reads a compiled binary; -C runs in another directory",
        "grade": "network",
        "clusters": False,
        "options": "-C=project --C=project -db= --db= -format= --format= -json --json -mode= --mode= -scan= --scan= "
        "-show= --show= -tags= --tags= -test --test -version --version -h -help --help",
    },
    "swiftlint": {
        "source": "SwiftLint README and swiftlint help (SwiftLint 0.57): lint is the default command; --fix "
        "(--autocorrect) rewrites the files linted; a configuration's parent_config/child_config may be a URL it "
        "fetches (remote configs), so a lint of the workspace's configuration talks to the network",
        "grade": "network",
        "options": "-h --help --version --config=in --use-stdin --strict --lenient --force-exclude "
        "--use-alternative-excluding --use-script-input-files --use-script-input-file-lists --benchmark --reporter= "
        "--baseline=in --write-baseline=out --output=out --progress --quiet --silence-deprecation-warnings "
        "--cache-path=out --no-cache --enable-all-rules --only-rule= --working-directory=project "
        "--in-process-sourcekit --fix:build --autocorrect:build --format:build --compiler-log-path=in "
        "--compile-commands=in --check-for-updates",
        "when": {"--fix --autocorrect --format": {"operands": "out"}},
        "else": "network",
        "commands": {
            "lint analyze": "network",
            "rules reporters version": {"grade": "read", "open": True},
            "baseline": {"commands": {"report compare": {"grade": "read", "open": True}}},
            "generate-docs": {"grade": "read", "options": "--path=out"},
            "docs": "runs",
        },
    },
    "tfsec": {
        "source": "tfsec CLI (aquasecurity.github.io/tfsec, 'Usage') (tfsec 1.28): it scans a Terraform directory and "
        "downloads the remote modules it uses unless --no-module-downloads; --out writes the results; --update "
        "replaces tfsec itself",
        "grade": "network",
        "options": "-h --help -v --version --config-file=in --custom-check-dir=in --rego-policy-dir=:unknown -f= "
        "--format= --out=out -O=out --soft-fail -s --no-color --tfvars-file=in -e= --exclude= -m= "
        "--minimum-severity= --update:install --run-statistics --exclude-downloaded-modules --force-all-dirs "
        "--include-passed --include-ignored --concise-output --debug --verbose --no-module-downloads -p "
        "--exclude-path= --filter-results= --workspace= --disable-grouping --print-rego-input --code-theme= "
        "--no-code --ignore-hcl-errors --allow-checks-to-panic",
    },
    "pip-audit": {
        "source": "pip-audit README (github.com/pypa/pip-audit) (pip-audit 2.7): audits the environment or the "
        "requirements given (installed into a temporary environment) against PyPI's or OSV's vulnerability data; "
        "--fix upgrades the vulnerable packages in the environment",
        "grade": "network",
        "options": "-h --help -V --version -l --local -r=in --requirement=in -f= --format= -s= "
        "--vulnerability-service= -d --dry-run -S --strict --desc= --aliases= --cache-dir=out --progress-spinner= "
        "--timeout= --path=in -v --verbose --fix:install --require-hashes --index-url= --extra-index-url= "
        "--skip-editable --no-deps --ignore-vuln= -o=out --output=out --disable-pip --osv-url=",
    },
    "interrogate": {
        "source": "interrogate docs (interrogate.readthedocs.io) (interrogate 1.7): reports docstring coverage; "
        "-g writes a badge; -o writes the report",
        "grade": "read",
        "open": True,
        "options": "-g=out --generate-badge=out -o=out --output=out -c=in --config=in",
    },
    "license-checker": {
        "source": "license-checker README (github.com/davglass/license-checker) (license-checker 25): reads "
        "node_modules; --out writes the report, --files copies the license files into a directory",
        "grade": "read",
        "open": True,
        "options": "--out=out --files=out --start=in --customPath=in",
    },
    "sqlfluff": {
        "source": "sqlfluff CLI reference (docs.sqlfluff.com/en/stable/reference/cli.html) (sqlfluff 3): fix and "
        "format rewrite the files given; the templater (jinja's library_path, python, dbt) loads the project's code",
        "options": "-h --help --version",
        "commands": {
            "lint parse render": {"grade": "build", "open": True, "options": "--write-output=out"},
            "fix format": {"grade": "build", "open": True, "operands": "out"},
            "dialects rules version": {"grade": "read", "open": True},
        },
    },
    # linters whose configuration is JavaScript they run (svelte.config.js, knip.ts, vue plugins in tsconfig,
    # oxlint's jsPlugins): build, as stylelint
    "svelte-check vue-tsc knip oxlint": {
        "source": "svelte-check (svelte.dev/docs/cli/sv-check), vue-tsc (github.com/vuejs/language-tools), knip "
        "(knip.dev/reference/cli), oxlint (oxc.rs/docs/guide/usage/linter/cli) docs: they report; --fix (knip, "
        "oxlint) rewrites files; a knip.js/knip.ts configuration and oxlint's jsPlugins are JavaScript they run",
        "grade": "build",
        "open": True,
        "options": "--fix --fix-type= --allow-remove-files:delete --fix-suggestions --fix-dangerously "
        "-o=out --output-file=out --outDir=out --tsconfig=in -p=in --project=in -c=project --config=project",
        "when": {"--fix --fix-suggestions --fix-dangerously": {"operands": "out"}},
    },
    "madge": {
        "source": "madge README (github.com/pahen/madge) (madge 8): reports module dependencies; --image writes a "
        "graph (through Graphviz), --webpack-config and --require-config load JavaScript configuration",
        "grade": "read",
        "open": True,
        "options": "--image=out --webpack-config=project --require-config=project --ts-config=in -b= --basedir=in",
    },
    "swift-format": {
        "source": "swift-format README (github.com/swiftlang/swift-format) (swift-format 600): format (the default) "
        "prints the formatted source unless -i/--in-place rewrites the files given; lint reports",
        "grade": "read",
        "else": "read",
        "options": "-h --help --version -i --in-place -r --recursive --configuration=in -p --parallel "
        "--ignore-unparsable-files --color-diagnostics --no-color-diagnostics --assume-filename= --offsets= "
        "--lines= --follow-symlinks --enable-experimental-feature= -s --strict",
        "when": {"-i --in-place": {"operands": "out", "grade": "build"}},
        "commands": {"format lint dump-configuration": "read"},
    },
    "nox": {
        "source": "Nox usage (nox.thea.codes/en/stable/usage.html) (Nox 2024): runs the sessions of noxfile.py, the "
        "project's Python code, each in a virtualenv it creates and installs packages into from the index "
        "(--no-install, -R: reuse without installing); -l/--list loads noxfile.py and prints the sessions; "
        "-f/--noxfile names the file, --envdir where the environments go, --report a JSON report",
        "grade": "fetch",
        "options": "-s= --session= --sessions= -e= -p= --python= --force-python= -t= --tags= -k= -l --list "
        "--json -r --reuse-existing-virtualenvs -R --no-install --install-only -x --stop-on-first-error "
        "--no-venv --no-error-on-missing-interpreters --error-on-missing-interpreters -db= "
        "--default-venv-backend= -fb= --force-venv-backend= --non-interactive --forcecolor --nocolor -v "
        "--verbose --add-timestamp --version:read -h --help:read -f=project --noxfile=project --envdir=out "
        "--report=out",
        "when": {"-l --list": "build", "-R --no-install": "build"},
    },
}
