"""Everyday developer tools: bundlers, documentation builders, binary inspectors, editors, parser and code generators,
load generators, linters and text viewers.

Bundling and documentation builds run the project's configuration (``webpack.config.js``, Sphinx's ``conf.py``) and
write their output: ``build``; their development servers listen for connections: ``network``. Binary inspectors read,
except ``ldd``, which runs the program's loader (ldd(1): "some versions of ldd may attempt to obtain the dependency
information by attempting to directly execute the program ... you should never employ ldd on an untrusted
executable"): ``runs``. Interactive editors write the files they open (``write``, the operands ``out``); options and
``+cmd`` words that run editor commands (vim ``-c``, ``--cmd``, ``-S``, ``-u``, ``-s``, ``-e``; emacs ``--eval``,
``-l``, ``-f``) run code: ``runs``, and ``+`` words are refused for vim (``+cmd`` runs an Ex command, ``:!`` a shell
one). Parser and code generators write their output where they run (``write``). Load generators send requests to
the URL they name: ``network`` (wrk ``-s`` runs a Lua script: ``runs``). Interpreters with a REPL (R, Rscript, lua,
jshell) run code, except when they only print their version.
"""

from __future__ import annotations

_VERSION = "-v --version -V -h --help"

_VIM = {
    "source": "vim(1) (Vim 9.1), nvim(1) (Neovim 0.10): -c, --cmd, -S, -u, -s, -e/-E and +cmd run editor commands",
    "grade": "write",
    "operands": "out",
    "options": "--version -h --help -R -M -m -n -b -d -o* -O* -p* -Z -r -L -N --clean --noplugin -y -A -H -F "
    "-l:runs -x -V*:unknown -T= --not-a-term --ttyfail --headless -D -g -f --nofork -t= -q=in "
    "-c=:runs --cmd=:runs -S*:runs -u=:runs -U=:runs -s=:runs -e:runs -E:runs -es:runs -Es:runs -i=:unknown "
    "-w=out -W=out --listen=:network --servername=:unknown --remote*:unknown --embed:unknown",
    "unsafe": "+",
    "when": {"--version -h --help": "read"},
}

CATALOGUE: dict[str, object] = {
    # -- bundlers
    "webpack webpack-cli": {
        "source": "webpack-cli(1) (webpack.js.org/api/cli) (webpack-cli 5): build is the default command",
        "grade": "build",
        "else": "build",
        "open": True,
        "options": "-c=project --config=project --config-name= --merge --env= --node-env= --mode= --entry=in "
        "-o=out --output-path=out --disable-interpret --analyze:network -w --watch --progress --stats=* --json=out "
        "-j=out -v --version -h --help",
        "guard": "build:webpack_clean",  # --output-clean empties --output-path
        "commands": {
            "build bundle b": {"grade": "build", "open": True},
            "watch w": {"grade": "build", "open": True},
            "serve server s": {"grade": "network", "open": True},
            "configtest t": {"grade": "build", "open": True},
            "info i version v help": {"grade": "read", "open": True},
            "init create new c n loader l plugin p": {"grade": "fetch", "open": True},
        },
    },
    # buf: lint and format print, build writes the image given to -o, format -w rewrites the files; generate runs the
    # plugins buf.gen.yaml names, and a `remote:` plugin runs on the Buf Schema Registry, which receives the
    # workspace's .proto files: network; push uploads the module
    "buf": {
        "source": "buf CLI reference (buf.build/docs/reference/cli/buf) (buf 1.4x): lint, format, build, generate, push",
        "options": "--debug --log-format= --timeout= -h --help --version",
        "commands": {
            "lint": {
                "grade": "read",
                "open": True,
                "options": "--config=project --error-format= --path= --exclude-path= --disable-symlinks",
            },
            "format": {
                "grade": "read",
                "open": True,
                "options": "-w:build --write:build -o=out --output=out -d --diff --exit-code --config=project "
                "--path= --exclude-path= --disable-symlinks",
                "when": {"-w --write": {"operands": "out"}},
            },
            "build": {
                "grade": "build",
                "open": True,
                "options": "-o=out --output=out --config=project --path= "
                "--exclude-path= --disable-symlinks --as-file-descriptor-set --exclude-imports "
                "--exclude-source-info --error-format=",
            },
            "generate": {
                "grade": "network",
                "open": True,
                "options": "--template=project -o=out --output=out "
                "--config=project --path= --exclude-path= --include-imports --include-wkt",
            },
            "push": {"grade": "publish", "open": True},
        },
    },
    # sqlc: compile checks the queries and generate writes code, both running the process plugins sqlc.yaml names as
    # a build does; generate downloads the wasm plugins sqlc.yaml names by URL and its analyzer connects to the
    # database.uri given there, and vet runs its rules' queries against that database: network
    "sqlc": {
        "source": "sqlc docs (docs.sqlc.dev: Configuration, Using plugins, Linting queries) (sqlc 1.27)",
        "options": "-f=project --file=project --no-remote --remote -x --experimental -h --help",
        "commands": {
            "version": "read",
            "compile": {"grade": "build", "open": True},
            "generate vet": {"grade": "network", "open": True},
        },
    },
    "vite": {
        "source": "Vite CLI (vite.dev/guide/cli) (Vite 6): the bare command and dev/serve start the dev server",
        "grade": "network",
        "else": "network",
        "open": True,
        "options": "-c=project --config=project --base= -l= --logLevel= --clearScreen --profile --filter= -m= --mode= "
        "--host* --port= --strictPort --cors --force --open*:runs -v --version -h --help",
        "commands": {
            "dev serve": {"grade": "network", "open": True},
            # vite.dev/config/build-options "build.emptyOutDir": "By default, Vite will empty the outDir on build if
            # it is inside project root"; --emptyOutDir (or the project's vite.config, which runs) empties it elsewhere.
            "build": {
                "grade": "build",
                "open": True,
                "options": "--outDir=emptied --assetsDir= --emptyOutDir -w --watch",
            },
            "preview": {"grade": "network", "open": True, "options": "--outDir=in"},
            "optimize": {"grade": "build", "open": True},
        },
    },
    # Storybook: .storybook/main.js (or the -c directory's) is JavaScript dev and build run; build writes the static
    # Storybook to -o (storybook-static), removing what is there first; init and add install packages and edit the
    # project (as npm install: network); -s/--static-dir serves the directories named
    "storybook": {
        "source": "Storybook CLI options (storybook.js.org/docs/api/cli-options) (Storybook 8)",
        "options": "--help --version",
        "commands": {
            "dev": {
                "grade": "network",
                "open": True,
                "options": "-c=project --config-dir=project -p= --port= -h= --host= --https --ssl-ca=in --ssl-cert=in "
                "--ssl-key=in --ci --no-open --quiet --loglevel= --smoke-test --exact-port --initial-path= "
                "--preview-url= --force-build-preview --docs --disable-telemetry --enable-crash-reports "
                "--debug-webpack --webpack-stats-json=out --stats-json=out --no-version-updates --preview-only "
                "-s=:unknown --static-dir=:unknown",
            },
            "build": {
                "grade": "build",
                "open": True,
                "options": "-c=project --config-dir=project -o=emptied --output-dir=emptied --quiet --loglevel= "
                "--debug --debug-webpack --webpack-stats-json=out --stats-json=out --docs --test --disable-telemetry "
                "--enable-crash-reports --preview-url= --force-build-preview --preview-only -s=:unknown "
                "--static-dir=:unknown",
            },
            "init add": {"grade": "fetch", "open": True},
        },
    },
    # Astro: astro.config.mjs (or --config) is JavaScript every command runs; build empties and writes outDir (dist/);
    # check and sync write generated types (.astro/); add installs integrations and edits the configuration
    "astro": {
        "source": "Astro CLI reference (docs.astro.build/en/reference/cli-reference) (Astro 5)",
        "options": "--root=project --config=project --site= --base= --verbose --silent --help -h --version",
        "when": {"--help -h --version": "read"},
        "commands": {
            "dev preview": {
                "grade": "network",
                "open": True,
                "options": "--port= --host* --allowed-hosts= --force --open*:runs",
            },
            "build": {"grade": "build", "open": True, "options": "--outDir=emptied --devOutput --force"},
            "check": {
                "grade": "build",
                "open": True,
                "options": "--watch --tsconfig=in --minimumFailingSeverity= --minimumSeverity= --noSync",
            },
            "sync": {"grade": "build", "open": True},
            "add": {"grade": "fetch", "open": True},
            "info": {"grade": "read"},
        },
    },
    # svelte-kit sync writes tsconfig.json's base and the generated types under .svelte-kit; svelte.config.js is
    # JavaScript it runs
    "svelte-kit": {
        "source": "SvelteKit CLI (svelte.dev/docs/kit/cli) (SvelteKit 2)",
        "options": "--help -h --version -v",
        "when": {"--help -h --version -v": "read"},
        "commands": {"sync": {"grade": "build", "options": "--mode="}},
    },
    # sv check is svelte-check (build, as that entry); sv create, add and migrate fetch packages and run add-ons from
    # the registry, so stay unrecognised
    "sv": {
        "source": "Svelte CLI (svelte.dev/docs/cli/sv-check) (sv 0.6)",
        "options": "--help -h --version -v",
        "when": {"--help -h --version -v": "read"},
        "commands": {
            "check": {
                "grade": "build",
                "open": True,
                "options": "--workspace=project --output= --watch --preserveWatchOutput --tsconfig=in --no-tsconfig "
                "--ignore= --fail-on-warnings --compiler-warnings= --diagnostic-sources= --threshold=",
            },
        },
    },
    # Tailwind CSS builds the CSS of -i into -o (standard output without one); tailwind.config.js (-c) and the
    # PostCSS configuration are JavaScript it runs; init writes tailwind.config.js (and postcss.config.js with -p)
    "tailwindcss": {
        "source": "Tailwind CSS CLI (tailwindcss.com/docs/installation/tailwind-cli; tailwindcss --help, Tailwind "
        "CSS 3.4 and 4.0)",
        "grade": "build",
        "options": "-i=in --input=in -o=out --output=out -w --watch --poll -m --minify --optimize --map "
        "-c=project --config=project --content= --postcss --no-autoprefixer --cwd=project -h --help -v --version",
        "when": {"-h --help -v --version": "read"},
        "commands": {"init": {"grade": "write", "options": "-p --postcss --full --ts --esm"}},
    },
    "rollup": {
        "source": "rollup command line interface (rollupjs.org/command-line-interface) (Rollup 4)",
        "grade": "build",
        "open": True,
        "options": "-c --config=project -o=out --file=out -d=out --dir=out -i=in --input=in -f= --format= -n= "
        "--name= -m --sourcemap* -e= --external= -g= --globals= -p=project --plugin=project --configPlugin=project "
        "--bundleConfigAsCjs -w --watch --silent --environment= --failAfterWarnings -v --version -h --help",
        # "-c, --config <filename>": the file is optional, so a path after -c is read as an operand here (an input
        # outside the workspace is graded as code loaded from there, as the configuration it may be)
        "operands": "project",
    },
    "parcel": {
        "source": "Parcel CLI (parceljs.org/features/cli) (Parcel 2): the bare command serves the entries",
        "grade": "network",
        "else": "network",
        "open": True,
        "options": "--dist-dir=out --cache-dir=out --config=project --target= --public-url= -p= --port= --host= "
        "--open*:runs --no-cache --no-source-maps --log-level= -V --version -h --help",
        "commands": {
            "serve": {"grade": "network", "open": True},
            "watch build": {"grade": "build", "open": True},
        },
    },
    # -- documentation builders
    "sphinx-build": {
        "source": "sphinx-build(1) (Sphinx 8): sphinx-build [options] SOURCEDIR OUTPUTDIR; conf.py is run",
        "grade": "build",
        "operands": "last-out",
        "options": "-b= --builder= -M= -a -E --fresh-env -d=out --doctree-dir=out -j= --jobs= -c=project "
        "--conf-dir=project -C --isolated -D= --define= -A= --html-define= -t= --tag= -n --nitpicky -N --no-color "
        "--color -v --verbose -q --quiet -Q --silent -w=out --warning-file=out -W --fail-on-warning --keep-going "
        "-T --show-traceback -P --pdb --exception-on-warning --version -h --help",
        # SOURCEDIR's conf.py runs (sphinx "Configuration"): one outside the workspace is refused by the guard
        "guard": "build:sphinx_source",
    },
    "mkdocs": {
        "source": "mkdocs CLI (mkdocs.org/user-guide/cli) (MkDocs 1.6): mkdocs.yml names plugins run while building",
        "options": "-V --version -h --help -q --quiet -v --verbose",
        "commands": {
            "build": {
                "grade": "build",
                # mkdocs build --help: "-c, --clean / --dirty  Remove old files from the site_dir before building
                # (the default)": the site directory is emptied (--dirty too is graded so: mkdocs.yml may say more)
                "options": "-c --clean --dirty -f=project --config-file=project -s --strict -t= --theme= "
                "--use-directory-urls --no-directory-urls -d=emptied --site-dir=emptied",
            },
            "serve": {
                "grade": "network",
                "options": "-a= --dev-addr= --livereload --no-livereload --dirtyreload --watch-theme -w=in "
                "--watch=in -f=project --config-file=project -s --strict -t= --theme= -o --open:runs",
            },
            # pushes the built site to the gh-pages branch (ghp-import); --force rewrites it
            "gh-deploy": {
                "grade": "publish",
                "options": "-c --clean --dirty -m= --message= -b= --remote-branch= -r= --remote-name= "
                "--force:destroy --no-history:destroy --ignore-version --shell -f=project --config-file=project "
                "-d=emptied --site-dir=emptied -s --strict -t= --theme=",
            },
            "new": {"grade": "write", "operands": "out"},
            "get-deps": {"grade": "read", "options": "-f=project --config-file=project -p= --projects-file=in"},
        },
    },
    # -- binary inspectors (GNU binutils 2.43 manual); a cross toolchain's are the same programs under the target
    # triplet's prefix (Arm GNU Toolchain's arm-none-eabi-objdump, Debian's binutils-aarch64-linux-gnu, avr-binutils)
    "nm "
    "arm-none-eabi-nm aarch64-linux-gnu-nm arm-linux-gnueabihf-nm riscv64-unknown-elf-nm riscv64-linux-gnu-nm avr-nm x86_64-w64-mingw32-nm": {
        "source": "nm(1) (GNU binutils 2.43)",
        "grade": "read",
        "open": True,
        "options": "--plugin=:unknown @*:unknown",
    },
    "readelf "
    "arm-none-eabi-readelf aarch64-linux-gnu-readelf arm-linux-gnueabihf-readelf riscv64-unknown-elf-readelf riscv64-linux-gnu-readelf avr-readelf x86_64-w64-mingw32-readelf": {
        "source": "readelf(1) (GNU binutils 2.43)",
        "grade": "read",
        "open": True,
        "options": "@*:unknown",
    },
    "objdump "
    "arm-none-eabi-objdump aarch64-linux-gnu-objdump arm-linux-gnueabihf-objdump riscv64-unknown-elf-objdump riscv64-linux-gnu-objdump avr-objdump x86_64-w64-mingw32-objdump": {
        "source": "objdump(1) (GNU binutils 2.43)",
        "grade": "read",
        "open": True,
        "options": "--plugin=:unknown @*:unknown",
    },
    "size addr2line c++filt "
    "arm-none-eabi-size arm-none-eabi-addr2line arm-none-eabi-c++filt aarch64-linux-gnu-size aarch64-linux-gnu-addr2line aarch64-linux-gnu-c++filt arm-linux-gnueabihf-size arm-linux-gnueabihf-addr2line arm-linux-gnueabihf-c++filt riscv64-unknown-elf-size riscv64-unknown-elf-addr2line riscv64-unknown-elf-c++filt riscv64-linux-gnu-size riscv64-linux-gnu-addr2line riscv64-linux-gnu-c++filt avr-size avr-addr2line avr-c++filt x86_64-w64-mingw32-size x86_64-w64-mingw32-addr2line x86_64-w64-mingw32-c++filt": {
        "source": "size(1), addr2line(1), c++filt(1) (GNU binutils 2.43)",
        "grade": "read",
        "open": True,
        "options": "--plugin=:unknown @*:unknown",
    },
    "strip objcopy "
    "arm-none-eabi-strip arm-none-eabi-objcopy aarch64-linux-gnu-strip aarch64-linux-gnu-objcopy arm-linux-gnueabihf-strip arm-linux-gnueabihf-objcopy riscv64-unknown-elf-strip riscv64-unknown-elf-objcopy riscv64-linux-gnu-strip riscv64-linux-gnu-objcopy avr-strip avr-objcopy x86_64-w64-mingw32-strip x86_64-w64-mingw32-objcopy": {
        "source": "strip(1), objcopy(1) (GNU binutils 2.43): the files named are rewritten in place unless -o/OUT",
        "grade": "write",
        "operands": "out",
        "open": True,
        "options": "-o=out --plugin=:unknown @*:unknown",
    },
    "ldd": {
        "source": "ldd(1) (man-pages 6.9): it may run the program itself; never on an untrusted executable",
        "grade": "runs",
        "options": "--version --help -v --verbose -u --unused -d --data-relocs -r --function-relocs",
        "when": {"--version --help": "read"},
    },
    # -- editors
    "vim nvim vi view ex vimdiff": _VIM,
    "nano pico": {
        "source": "nano(1) (GNU nano 8): an interactive editor; -B/-C write backups",
        "grade": "write",
        "operands": "out",
        "open": True,
        "options": "-C=out --backupdir=out -o=project --operatingdir=project -f=project --rcfile=project "
        "-Y= --syntax= -J= --guidestripe= -T= --tabsize= -r= --fill= -Q= --quotestr= -s=:unknown --speller=:unknown "
        "-V --version -h --help",
        "when": {"-V --version -h --help": "read"},
    },
    "emacs": {
        "source": "emacs(1) (GNU Emacs 29): --eval, -l, -f and --script run Lisp",
        "grade": "write",
        "operands": "out",
        "options": "-nw --no-window-system -q --no-init-file -Q --quick --no-site-file --no-splash -D --basic-display "
        "--batch --version --help --eval=:runs --execute=:runs -l=:runs --load=:runs -f=:runs --funcall=:runs "
        "--script=:runs -x=:runs -u=:runs --user=:runs --init-directory=:runs --daemon*:runs -L=:unknown "
        "--directory=:unknown --insert=in --visit=out --file=out --find-file=out --chdir=project",
        "when": {"--version --help": "read"},
    },
    "micro": {
        "source": "micro (github.com/zyedidia/micro, runtime/help/options.md) (micro 2): -plugin installs plugins",
        "grade": "write",
        "operands": "out",
        "options": "-version -help -clean -debug -profile -config-dir=project -options",
        "when": {"-version -help -options": "read"},
    },
    # -- parser and code generators
    "protoc": {
        "source": "protoc --help (protobuf 28): built-in generators; a --NAME_out outside them runs protoc-gen-NAME",
        "grade": "write",
        "options": "-I*= --proto_path=* --cpp_out=out --csharp_out=out --java_out=out --kotlin_out=out "
        "--objc_out=out --php_out=out --pyi_out=out --python_out=out --ruby_out=out --rust_out=out --upb_out=out "
        "--go_out=out --go_opt=* --descriptor_set_out=out -o*=out --dependency_out=out --include_imports "
        "--include_source_info --retain_options --encode= --decode= --decode_raw --deterministic_output "
        "--error_format=* --fatal_warnings --print_free_field_numbers --experimental_allow_proto3_optional "
        "--plugin=:runs --version -h --help @*:unknown",
        "when": {"--version -h --help": "read"},
    },
    "bison yacc": {
        "source": "bison(1) (GNU Bison 3.8): -S/--skeleton are M4 programs it runs",
        "grade": "write",
        "options": "-d --defines* -H* --header* -o=out --output=out -v --verbose -g* --graph* -x* --html* "
        "-r= --report=* --report-file=out -t --debug -l --no-lines -y --yacc -W* -Werror* -b= --file-prefix= "
        "-p= --name-prefix= -D*= --define=* -F*= --force-define=* -L= --language=* -k --token-table --locations "
        "-u:unknown --update:unknown -f* --feature* --color* --style=* -M=* --file-prefix-map=* "
        "-S=:unknown --skeleton=:unknown -V --version -h --help --print-localedir --print-datadir",
        "when": {"-V --version -h --help": "read"},
    },
    "flex lex": {
        "source": "flex(1) (flex 2.6): writes lex.yy.c or the -o file; --skel is a skeleton file of C text",
        "grade": "write",
        "open": True,
        "options": "-o*=out --outfile=out --header-file=out --tables-file=out -t --stdout -S*=:unknown "
        "--skel=:unknown -V --version -h --help",
        "when": {"-V --version -h --help -t --stdout": "read"},
    },
    "ctags exuberant-ctags universal-ctags": {
        "source": "ctags(1) (Universal Ctags 6.1): writes the tags file (-f/-o)",
        "grade": "write",
        "open": True,
        "options": "-f=out -o=out --output-format=* -L=in --options=project --options-maybe=project "
        "--optlib-dir=project --_interactive*:unknown --pseudo-tags=* --version --help --list-* "
        "--append* -a -e -x --filter*:unknown",
        "when": {"--version --help -x": "read"},
    },
    "cscope": {
        "source": "cscope(1) (cscope 15.9): -b builds cscope.out (-f names it); its interactive mode runs $EDITOR",
        "grade": "runs",
        "options": "-b -R -q -k -C -c -d -u -U -e -T -V -f=out -i=in -I= -s= -p= -P= -F=in -L -l -h",
        "when": {"-b -L -V -h": "write"},
    },
    # -- load generators
    "ab": {
        "source": "ab(1) (Apache HTTP Server 2.4): -e and -g write result files, -p/-u read a body",
        "grade": "network",
        "open": True,
        "options": "-n= -c= -t= -s= -b= -B= -T= -v= -x= -y= -z= -C= -H= -A= -P= -X= -m= -f= -Z= -w -i -l -r -k -q -d -S "
        "-e=out -g=out -p=in -u=in -E=in -h -V",
        "when": {"-V -h": "read"},
    },
    "wrk": {
        "source": "wrk README and --help (wrk 4.2): -s loads a Lua script",
        "grade": "network",
        "open": True,
        "options": "-c= -d= -t= -H= --connections= --duration= --threads= --header= --timeout= --latency "
        "-s=:runs --script=:runs -v --version",
    },
    "hey": {
        "source": "hey --help (github.com/rakyll/hey 0.1.4): -D reads the request body from a file",
        "grade": "network",
        "open": True,
        "options": "-n= -c= -q= -z= -o= -m= -H= -t= -A= -d= -T= -a= -x= -h2 -host= -cpus= -disable-compression "
        "-disable-keepalive -disable-redirects -D=in",
    },
    # -- autotools, coverage and profiling
    "autoreconf autoconf automake aclocal autoheader libtoolize autoupdate": {
        "source": "autoreconf(1), autoconf(1), automake(1), aclocal(1), libtoolize(1) (GNU Autoconf 2.72, Automake 1.17, "
        "Libtool 2.4): they run m4 over the project's configure.ac and write configure and Makefile.in",
        "grade": "build",
        "open": True,
        "options": "-I=project --include=project -B=project --prepend-include=project -o=out --output=out "
        "--version -V --help -h",
        "when": {"--version -V --help -h": "read"},
    },
    "pkg-config pkgconf": {
        "source": "pkg-config(1) (pkgconf 2.3): prints the flags and versions of installed libraries",
        "grade": "read",
        "open": True,
    },
    "gcov": {
        "source": "gcov(1) (GCC 14): writes FILE.gcov reports where it runs; -o names the object directory read",
        "grade": "write",
        "open": True,
        "options": "-o=in --object-directory=in --object-file=in -t --stdout -v --version -h --help",
        "when": {"-t --stdout -v --version -h --help": "read"},
    },
    "lcov": {
        "source": "lcov(1) (LCOV 2.1): -o writes the tracefile, -z deletes the .gcda counters, --gcov-tool runs a program",
        "grade": "read",
        "open": True,
        "options": "-o=out --output-file=out -z:delete --zerocounters:delete --gcov-tool=:runs --rc=* "
        "--config-file=project --version-script=:runs --criteria-script=:runs --annotate-script=:runs "
        "--resolve-script=:runs --context-script=:runs",
    },
    "llvm-cov llvm-profdata": {
        "source": "llvm-cov(1), llvm-profdata(1) (LLVM 18): print or merge coverage; -o/-output-dir name the output",
        "grade": "write",
        "open": True,
        "options": "-o=out --output=out -output=out -output-dir=out --output-dir=out --version -version",
        "when": {"--version -version": "read"},
    },
    "valgrind": {
        "source": "valgrind(1) (Valgrind 3.23): runs the program given after its options under a tool",
        "grade": "wrap",
        "options": "--tool=* --leak-check=* --show-leak-kinds=* --errors-for-leak-kinds=* --track-origins=* "
        "--leak-resolution=* --undef-value-errors=* --num-callers=* --error-exitcode=* --gen-suppressions=* "
        "--suppressions=in --log-file=out --xml=* --xml-file=out --trace-children=* --child-silent-after-fork=* "
        "--track-fds=* --time-stamp=* --read-var-info=* --main-stacksize=* --max-stackframe=* --fair-sched=* "
        "--show-reachable=* --smc-check=* --massif-out-file=out --callgrind-out-file=out --cachegrind-out-file=out "
        "-q --quiet -v --verbose -s --version --help",
    },
    "watchexec": {
        "source": "watchexec(1) (watchexec 2.1): runs the command given after its options when files change",
        "grade": "wrap",
        "options": "-w=in --watch=in -W=in --watch-non-recursive=in -e= --exts= -f= --filter= -i= --ignore= "
        "-r --restart -c --clear -d= --debounce= -p --postpone -n -o= --on-busy-update= -s= --signal= "
        "--stop-signal= --stop-timeout= --project-origin=project --workdir=project -q --quiet -v -h --help "
        "-V --version --shell=:unknown -E=:unknown --env=:unknown",
    },
    # -- more documentation and front-end tools
    "asciidoctor": {
        "source": "asciidoctor(1) (Asciidoctor 2.0): writes the converted file beside the input or at -o/-D; -r loads "
        "Ruby libraries; -S sets the safe mode, unsafe by default, where include:: reads any file",
        "grade": "write",
        "options": "-o=out --out-file=out -D=out --destination-dir=out -b= --backend= -d= --doctype= -a= "
        "--attribute= -S= --safe-mode= -n --section-numbers -s --no-header-footer -q --quiet -w --warnings -v "
        "--verbose -t --timings --trace -B=project --base-dir=project --failure-level= -e --embedded "
        "-r=:runs --require=:runs -T=:unknown --template-dir=:unknown -E=:unknown --template-engine=:unknown "
        "-V --version -h --help",
        "when": {"-V --version -h --help": "read"},
        "guard": "viewers:asciidoctor_includes",  # the unsafe mode's include:: reads any file
    },
    "doxygen": {
        "source": "doxygen(1) (Doxygen 1.12): builds the documentation the configuration file describes; -g writes one",
        "grade": "build",
        "operands": "project",
        "options": "-g:write -s -u:write -x -x_noenv -w= -l=out -b -d= -v --version -h --help",
        "when": {"-v --version -h --help -x -x_noenv": "read"},
    },
    # jekyllrb.com/docs/configuration/options "Destination folders are cleaned on site builds": files in the
    # destination the site does not make are removed (build and serve), so -d/--destination is emptied.
    "jekyll": {
        "source": "jekyll commands (jekyllrb.com/docs/usage) (Jekyll 4.3): plugins in _plugins run while building",
        "options": "-v --version -h --help",
        "commands": {
            "build b": {
                "grade": "build",
                "open": True,
                "options": "-d=emptied --destination=emptied -s=project --source=project --config=project -p=project "
                "--plugins=project",
            },
            "serve s server": {
                "grade": "network",
                "open": True,
                "options": "-d=emptied --destination=emptied -s=project --source=project --config=project "
                "-p=project --plugins=project -o --open-url:runs",
            },
            "new": {"grade": "write", "operands": "out", "open": True},
            "doctor hyde": {"grade": "read", "open": True},
            "clean": {"grade": "delete", "open": True},
        },
    },
    "terser uglifyjs": {
        "source": "terser CLI (terser.org/docs/cli-usage) (terser 5), uglifyjs(1) (UglifyJS 3): print unless -o",
        "grade": "read",
        "open": True,
        "options": "-o=out --output=out --config-file=project --source-map=* --name-cache=out",
    },
    "lessc": {
        "source": "lessc usage (lesscss.org/usage) (Less 4): lessc IN [OUT]; an unlisted --NAME loads less-plugin-NAME",
        "grade": "read",
        "operands": "last-out",
        "options": "-s --silent --strict-imports --verbose -v --version -h --help -M --depends --lint -l --no-color "
        "--include-path=* --source-map* --rootpath=* -ru --relative-urls --rewrite-urls=* -sm=* --strict-math=* "
        "--math=* --global-var=* --modify-var=* --url-args=* -x --compress --js:unknown --plugin=:unknown",
    },
    "figlet toilet": {
        "source": "figlet(6) (FIGlet 2.2.5), toilet(1): print text in large letters",
        "grade": "read",
        "open": True,
    },
    "ag": {
        "source": "ag(1) (the_silver_searcher 2.2): searches and prints; --pager names a program it runs",
        "grade": "read",
        "open": True,
        "options": "--pager=:runs -p=in --path-to-ignore=in",
    },
    "aspell": {
        "source": "aspell(1) (GNU Aspell 0.60.8): check edits the file interactively; list reads standard input",
        "options": "--lang= -l= -d= --master= --encoding= --mode= -H -t -e -x --dont-backup --home-dir=project "
        "--per-conf=project --conf=project -p=out --personal=out -v --version --help -?",
        "commands": {
            "list dump config dicts filter soundslike munch expand -a": {"grade": "read", "open": True},
            "check c -c": {"grade": "write", "operands": "out", "open": True},
            "help": "read",
        },
    },
    "hunspell": {
        "source": "hunspell(1) (Hunspell 1.7): checks files interactively (it may rewrite them); -l, -L, -G, -w print",
        "grade": "write",
        "operands": "out",
        "options": "-l -L -G -w -a -D -v --version -h --help -d= -i= -H -X -O -n -t -m -1 -u -U -u2 -u3 -r -s -P= "
        "-p=out",
        "when": {"-l -L -G -w -D -v --version -h --help": {"grade": "read", "operands": "none"}},
    },
    "vegeta": {
        "source": "vegeta(1) README (vegeta 12.12): attack sends requests; report, plot and encode read results",
        "options": "-version -cpus= -profile=",
        "commands": {
            "attack": {"grade": "network", "open": True, "options": "-output=out -targets=in -body=in -root-certs=in"},
            "report plot encode": {"grade": "read", "open": True, "options": "-output=out"},
        },
    },
    "siege": {
        "source": "siege(1) (Siege 4.1): sends requests; -f reads URLs, -l logs, -R names the resource file",
        "grade": "network",
        "open": True,
        "options": "-f=in --file=in -l*:unknown --log*:unknown -R=project --rc=project -V --version -h --help",
    },
    # -- file and system inspectors
    "locate plocate mlocate": {
        "source": "locate(1) (plocate 1.1): searches the file name database",
        "grade": "read",
        "open": True,
        "options": "-d=in --database=in",
    },
    "lsattr getfacl namei getconf lsar": {
        "source": "lsattr(1) (e2fsprogs 1.47), getfacl(1) (acl 2.3), namei(1) (util-linux 2.40), getconf(1) (POSIX), "
        "lsar(1) (unar 1.10): print only",
        "grade": "read",
        "open": True,
    },
    "envsubst": {
        "source": "envsubst(1) (GNU gettext 0.22): prints its input with the environment's values put in, secrets "
        "too (as printenv does)",
        "grade": "secret",
        "open": True,
        "options": "-v --variables -h --help -V --version",
        "when": {"-v --variables -h --help -V --version": "read"},
    },
    "dust": {
        "source": "dust --help (du-dust 1.1): prints disk usage",
        "grade": "read",
        "open": True,
    },
    "pdfinfo pdffonts": {
        "source": "pdfinfo(1), pdffonts(1) (poppler 24): print a PDF's information",
        "grade": "read",
        "open": True,
    },
    "pdftotext": {
        "source": "pdftotext(1) (poppler 24): writes FILE.txt beside the PDF, or the second operand (- is stdout)",
        "grade": "write",
        "operands": "last-out",
        "open": True,
        "options": "-v -h --help",
        "when": {"-v -h --help": "read"},
    },
    "mediainfo": {
        "source": "mediainfo(1) (MediaInfo 24): prints a media file's information; --LogFile writes it",
        "grade": "read",
        "open": True,
        "options": "--LogFile=out --Logfile=out",
    },
    "zgrep zegrep zfgrep bzgrep xzgrep": {
        "source": "zgrep(1) (GNU gzip 1.13), xzgrep(1) (XZ Utils 5.6): grep over compressed files",
        "grade": "read",
        "open": True,
    },
    "sensors": {
        "source": "sensors(1) (lm-sensors 3.6): prints readings; -s sets limits from the configuration",
        "grade": "read",
        "open": True,
        "options": "-s:system --set:system -c=project --config-file=project",
    },
    "nvidia-smi": {
        "source": "nvidia-smi(1) (NVIDIA driver 550): listed query options only; the others change GPU settings",
        "grade": "read",
        "options": "-L --list-gpus -q --query -x --xml-format -i= --id= -d= --display= --query-gpu=* "
        "--query-compute-apps=* --format=* -l= --loop= -lms= -f=out --filename=out -h --help --version",
    },
    "fuser": {
        "source": "fuser(1) (psmisc 23.7): lists the processes using files or ports; -k kills them; with -m "
        "(--mount) or -M (--ismountpoint) a FILE names its whole mounted filesystem, so -k kills every process using "
        "any file on it (fuser -km /home: every login session), as kill -9 -1 does",
        "grade": "read",
        "options": "-a --all -m --mount -M --ismountpoint -n= --namespace= -s --silent -u --user -v --verbose "
        "-w -4 --ipv4 -6 --ipv6 -l --list-signals -V --version -k:system --kill:system -i --interactive",
        "when": {"-k --kill + -m --mount -M --ismountpoint": "critical"},
        "guard": "hostchanges:fuser",
    },
    "mkfifo": {
        "source": "mkfifo(1) (GNU coreutils 9.5): creates named pipes",
        "grade": "read",
        "operands": "out",
        "open": True,
        "options": "-m= --mode= -Z --context*",
    },
    "ld ld.bfd ld.gold ld.lld": {
        "source": "ld(1) (GNU binutils 2.43): links objects into a.out or the -o file; plugins load code",
        "grade": "write",
        "open": True,
        "options": "-o=out --output=out -Map=out --plugin=:unknown -plugin=:unknown @*:unknown",
    },
    "scons": {
        "source": "scons(1) (SCons 4.8): runs the SConstruct (Python) and builds",
        "grade": "build",
        "open": True,
        "options": "-f=project --file=project --sconstruct=project -C=project --directory=project "
        "-c:delete --clean:delete --remove:delete -I=project --include-dir=project --site-dir=project",
    },
    "javap jps jstack": {
        "source": "javap(1), jps(1), jstack(1) (JDK 21): print class file contents, JVM processes, thread dumps",
        "grade": "read",
        "open": True,
    },
    # -- linters, formatters, viewers
    "dos2unix unix2dos mac2unix unix2mac": {
        "source": "dos2unix(1) (dos2unix 7.5): files are converted in place; -n IN OUT writes OUT",
        "grade": "write",
        "operands": "out",
        "open": True,
        "options": "-V --version -h --help -i --info*",
        "when": {"-V --version -h --help -i --info": "read"},
    },
    "autopep8": {
        "source": "autopep8 --help (autopep8 2.3): -i/--in-place rewrites the files, otherwise prints",
        "grade": "read",
        "open": True,
        "options": "-i --in-place --global-config=project --ignore-local-config -r --recursive",
        "when": {"-i --in-place": {"operands": "out"}},
    },
    "perlcritic": {
        "source": "perlcritic(1) (Perl::Critic 1.152): --profile reads a perlcriticrc",
        "grade": "read",
        "open": True,
        "options": "--profile=project -p=project --include=* --exclude=* --theme=* --program-extensions=*",
    },
    "perltidy": {
        "source": "perltidy(1) (Perl::Tidy 20240903): -b rewrites the files (with a .bak), -o names the output",
        "grade": "write",
        "open": True,
        "options": "-b --backup-and-modify-in-place -o=out --outfile=out -pro=project --profile=project -st "
        "--standard-output -v --version -h --help",
        "when": {"-b --backup-and-modify-in-place": {"operands": "out"}, "-st --standard-output -v --version": "read"},
    },
    "colordiff": {
        "source": "colordiff(1) (colordiff 1.0.21): runs diff and colours its output; --difftest names another diff",
        "grade": "read",
        "open": True,
        "options": "--difftest*:unknown --color-term-output-only --color* -v --version",
    },
    "difft difftastic": {
        "source": "difftastic manual (difftastic.wilfred.me.uk) (difftastic 0.60): prints a structural diff",
        "grade": "read",
        "open": True,
        "options": "--override=* --display=* --color=* --background=* --context=* --width=* --tab-width=*",
    },
    "delta": {
        "source": "delta --help (git-delta 0.18): --pager names the pager it runs",
        "grade": "read",
        "open": True,
        "options": "--pager=:runs --config=project --navigate --hyperlinks --hyperlinks-file-link-format=*",
    },
    "cowsay cowthink": {
        "source": "cowsay(1) (cowsay 3.04): -f loads a cow file, which is Perl code",
        "grade": "read",
        "open": True,
        "options": "-f=:unknown -l -n -b -d -g -p -s -t -w -y -e= -T= -W=",
    },
    "clear": {"source": "clear(1) (ncurses 6.5): writes the terminal's clear sequence", "grade": "read"},
    "apropos whatis": {
        "source": "apropos(1), whatis(1) (man-db 2.13): search the manual page index",
        "grade": "read",
        "open": True,
        "options": "-C=:unknown --config-file=:unknown -M= --manpath=",
    },
    "csvlook csvstat csvcut csvgrep csvsort csvjson csvformat csvstack csvjoin": {
        "source": "csvkit documentation (csvkit.readthedocs.io) (csvkit 2.0): print the converted table",
        "grade": "read",
        "open": True,
    },
    "in2csv": {
        "source": "in2csv(1) (csvkit 2.0): prints the converted table; --write-sheets writes each sheet named to a "
        "file beside the input",
        "grade": "read",
        "open": True,
        "options": "--write-sheets=:unknown",
    },
    "csvclean": {
        "source": "csvclean(1) (csvkit 1.x writes FILE_out.csv and FILE_err.csv beside each input; 2.0 prints)",
        "grade": "read",
        "open": True,
        "operands": "out",
    },
    # --query runs over an in-memory SQLite database made from the files: the guard grades it as sqlite3's SQL
    # (programs/databases.py csvsql_query); --db connects to the database a URL names (a server, or a SQLite file
    # anywhere) and --insert writes into it; --before-insert and --after-insert run SQL around the inserts the
    # query needs (ATTACH writes a file): not graded
    "csvsql": {
        "source": "csvsql(1) (csvkit 2.0): prints CREATE TABLE statements for the files, or the result of --query",
        "grade": "read",
        "open": True,
        "options": "--db=:unknown --query= --before-insert=:unknown --after-insert=:unknown",
        "guard": "databases:csvsql_query",
    },
    "csvpy": {"source": "csvpy(1) (csvkit 2.0): opens a Python shell with the file loaded", "grade": "runs"},
    # the verb chain and its DSL are graded by the guard (programs/textproc.py mlr_verbs); -I rewrites every file
    # operand in place (the operands a verb's flags take are graded as files too: a write in the workspace)
    "mlr": {
        "source": "Miller 6 main flags (miller.readthedocs.io/en/latest/reference-main-flag-list): -I in-place "
        "mode; --prepipe/--prepipex run a command on each input; --load/--mload load DSL files; --files and "
        "--mfrom name the input files; -s reads arguments from a file",
        "grade": "read",
        "open": True,
        "options": "-I --prepipe=:runs --prepipex=:runs --load=:unknown --mload=:unknown --files=:unknown "
        "--mfrom:unknown --from=in --ofmt= --nr-progress-mod= --records-per-batch= --tz=",
        "when": {"-I": {"operands": "out"}},
        "guard": "textproc:mlr_verbs",
    },
    "gron": {
        "source": "gron README (github.com/tomnomnom/gron 0.7): prints assignments; a URL operand is fetched",
        "grade": "read",
        "open": True,
    },
    "depcheck": {
        "source": "depcheck README (github.com/depcheck/depcheck 1.4): reports unused dependencies",
        "grade": "read",
        "open": True,
        "options": "--config=project --specials=* --parsers=* --detectors=*",
    },
    "lychee": {
        "source": "lychee README (lychee 0.15): checks the links it finds; --offline only local ones",
        "grade": "network",
        "open": True,
        "options": "--offline -o=out --output=out --cache --config=project -c=project --dump --dump-inputs",
        "when": {"--offline": "read"},
    },
    "prove": {
        "source": "prove(1) (Test::Harness 3.48): runs the test scripts",
        "grade": "build",
        "open": True,
        # prove(1): the operands are the test files or directories it runs; -I adds a library path its tests load
        # modules from
        "operands": "project",
        "options": "--exec=:runs -e=:runs --rc=project --state=*:build --archive=out -M=:unknown -P=:unknown "
        "--source=:unknown -I*=project",
    },
    "gfortran gfortran-13 gfortran-14": {
        "source": "gfortran(1) (GCC 14), the Fortran front end of gcc (gcc(1) options)",
        "grade": "build",
        "open": True,
        "options": "-o*=out -J=out -Wl,*:unknown -Wa,*:unknown -B*=:unknown -wrapper=:unknown -fplugin*:unknown "
        "-specs*:unknown @*:unknown -fuse-ld=*:unknown",
    },
    "as": {
        "source": "as(1) (GNU binutils 2.43): writes a.out or the -o file",
        "grade": "write",
        "open": True,
        "options": "-o=out -a*=out --MD=out @*:unknown",
    },
    "Rscript lua lua5.4 luajit jshell": {
        "source": "Rscript(1) (R 4.4), lua(1) (Lua 5.4: -v prints the version and goes on), jshell(1) (JDK 21): they run code",
        "grade": "runs",
        "options": "--version --help -h",
        "when": {"--version --help -h": "read"},
    },
    "R": {
        "source": "R(1) (R 4.4): R runs code; 'Writing R Extensions' 1.3 'Checking and building packages' and R CMD "
        "INSTALL --help: R CMD build makes a source tarball of the package directory given (its vignettes run: the "
        "package's code), R CMD check checks a package or tarball (its examples and tests run), R CMD INSTALL "
        "installs it into the user's library (R_LIBS_USER, under ~) running its configure script; --configure-args "
        "and --configure-vars choose programs for that script, so they are refused",
        "grade": "runs",
        "options": "--version --help -h",
        "when": {"--version --help -h": "read"},
        "commands": {
            "CMD": {
                "commands": {
                    "build": {
                        "grade": "build",
                        "operands": "project",
                        "options": "--no-build-vignettes --no-manual --resave-data --resave-data=* --compact-vignettes "
                        "--compact-vignettes=* --md5 --log",
                    },
                    "check": {
                        "grade": "build",
                        "operands": "project",
                        "options": "--as-cran --no-manual --no-build-vignettes --ignore-vignettes --no-examples "
                        "--no-tests --no-vignettes --timings --run-donttest -o=out --output=out",
                    },
                    "INSTALL": {
                        "grade": "install",
                        "operands": "project",
                        "options": "-l=out --library=out --no-test-load --no-docs --no-html --no-multiarch "
                        "--build --preclean --clean",
                    },
                }
            }
        },
    },
    # -- Python web servers: they import the application (the project's code) and listen for connections
    "flask": {
        "source": "Flask 'Command Line Interface' (flask.palletsprojects.com/en/3.0.x/cli) (Flask 3.0): flask --app "
        "APP run runs the development server (the application's code, listening on a port); routes imports the "
        "application and prints its routes; shell starts an interactive Python shell; other commands are the "
        "application's own (extensions add them: flask db upgrade)",
        # --app names the module or file (src/hello.py, hello:create_app()) flask imports: the application's code
        "options": "--app=project -A=project --debug --no-debug -e=in --env-file=in --version:read --help:read",
        "commands": {
            "run": {
                "grade": "network",
                "options": "-h= --host= -p= --port= --reload --no-reload --debugger --no-debugger --with-threads "
                "--without-threads --cert=in --key=in --extra-files= --exclude-patterns=",
            },
            "routes": {"grade": "build", "options": "--sort= -s= --all-methods"},
            "shell": "runs",
        },
    },
    "uvicorn": {
        "source": "uvicorn --help, 'Settings' (www.uvicorn.org/settings) (uvicorn 0.32): uvicorn [OPTIONS] APP; "
        "--app-dir is put on the import path, --log-config may name a logging configuration that builds objects, "
        "--uds creates a socket file",
        "grade": "network",
        "options": "--host= --port= --uds=out --fd= --reload --reload-dir= --reload-include= --reload-exclude= "
        "--reload-delay= --workers= --loop= --http= --ws= --ws-max-size= --ws-max-queue= --ws-ping-interval= "
        "--ws-ping-timeout= --ws-per-message-deflate= --lifespan= --interface= --env-file=in --log-config=project "
        "--log-level= --access-log --no-access-log --use-colors --no-use-colors --proxy-headers --no-proxy-headers "
        "--server-header --no-server-header --date-header --no-date-header --forwarded-allow-ips= --root-path= "
        "--limit-concurrency= --limit-max-requests= --backlog= --timeout-keep-alive= --timeout-graceful-shutdown= "
        "--ssl-keyfile=in --ssl-certfile=in --ssl-keyfile-password= --ssl-version= --ssl-cert-reqs= "
        "--ssl-ca-certs=in --ssl-ciphers= --header= --h11-max-incomplete-event-size= --app-dir=project --factory "
        "--version --help",
    },
    "gunicorn": {
        "source": "gunicorn settings (docs.gunicorn.org/en/stable/settings.html) (gunicorn 23): gunicorn [OPTIONS] "
        "APP_MODULE; -c names a Python configuration file it runs (default ./gunicorn.conf.py); --chdir, "
        "--pythonpath and --paste choose the code loaded; -D detaches into the background; -e sets environment "
        "variables; -u/-g switch the worker user and group",
        "grade": "network",
        "options": "-c=project --config=project -b= --bind= -w= --workers= -k= --worker-class= --threads= "
        "--worker-connections= -t= --timeout= --graceful-timeout= --keep-alive= --max-requests= "
        "--max-requests-jitter= --reload --reload-engine= --reload-extra-file= --spew --check-config --print-config "
        "--preload --no-sendfile --reuse-port --chdir=project --pythonpath=project --paste=project -D:unknown "
        "--daemon:unknown -e=:unknown --env=:unknown -p=out --pid=out --worker-tmp-dir=out -u=:unknown "
        "--user=:unknown -g=:unknown --group=:unknown -m= --umask= --initgroups --forwarded-allow-ips= "
        "--access-logfile=out --access-logformat= --error-logfile=out --log-file=out --log-level= "
        "--capture-output --log-config=project --log-config-json=project --log-syslog --log-syslog-to= "
        "--statsd-host= --statsd-prefix= -n= --name= --proxy-protocol --proxy-allow-from= --keyfile=in "
        "--certfile=in --ca-certs=in --ssl-version= --cert-reqs= --ciphers= --do-handshake-on-connect "
        "--limit-request-line= --limit-request-fields= --limit-request-field_size= --backlog= -v --version -h "
        "--help",
        "when": {"-v --version --check-config --print-config": "read"},
    },
    # -- tracers and interactive tools: only their version is graded (strace and ltrace print the system and library
    # calls of the program they run, its secrets among them; lazygit is an interactive git client)
    # -- debuggers reading a program and its core dump in batch mode: the commands given are checked against a
    # list of ones that only print (programs/build.py debugger_commands), and init files where they run refused
    "gdb gdb-multiarch arm-none-eabi-gdb": {
        "source": "GDB manual (gdb 15), Invoking GDB (-batch, -ex/-iex, -nx, -c, --args), Initialization Files "
        "(the home and the current directory's .gdbinit), Auto-loading (PROGRAM-gdb.py, .gdb, .scm next to the "
        "program); the program is only run by commands such as run or start",
        "grade": "build",
        "clusters": False,
        "options": "-h --help -help --version -version -batch --batch -q -quiet --quiet -silent --silent -nx --nx "
        "-n -nh --nh -ex= -eval-command= --eval-command= -iex= -init-eval-command= --init-eval-command= -c=in "
        "-core=in --core=in -e=in -exec=in --exec=in -se=in --se=in -s=in -symbols=in --symbols=in -d=in "
        "-directory=in --directory=in -readnow --readnow -readnever --readnever -tui --tui -nw --nw --args",
        "when": {"--version -version -h --help -help": "read"},
        "guard": "build:debugger_commands",
    },
    "lldb": {
        "source": "lldb(1) (LLDB 18): -b/--batch, -o/--one-line, -O/--one-line-before-file, -k/--one-line-on-crash, "
        "-c/--core, -f/--file, -x/--no-lldbinit (the home's .lldbinit, and the current directory's when "
        "target.load-cwd-lldbinit is set); the program is only run by commands such as run or process launch",
        "grade": "build",
        "options": "-h --help -v --version -b --batch -o= --one-line= -O= --one-line-before-file= -k= "
        "--one-line-on-crash= -c=in --core=in -f=in --file=in -a= --arch= -x --no-lldbinit -Q --source-quietly "
        "-X --no-use-colors",
        "when": {"-v --version -h --help": "read"},
        "guard": "build:debugger_commands",
    },
    "strace ltrace": {
        "source": "strace(1) (strace 6.x), ltrace(1) (ltrace 0.7): -V prints the version",
        "grade": "unknown",
        "options": "-V --version -h --help",
        "when": {"-V -h": "read"},
    },
    "lazygit": {
        "source": "lazygit --help (lazygit 0.44): -v/--version prints the version; otherwise a terminal interface",
        "grade": "unknown",
        "options": "-v --version -h --help",
        "when": {"-v -h": "read"},
    },
    "hpack": {
        "source": "hpack README (github.com/sol/hpack) (hpack 0.37): writes the .cabal file next to package.yaml "
        "(in the directory or for the file given; - prints it)",
        "grade": "write",
        "options": "--version --numeric-version -h --help -f --force --silent --canonical --hash --no-hash",
        "operands": "out",
    },
    "ccache": {
        "source": "ccache(1) (ccache 4.10): ccache COMPILER ARGS runs the compiler (serving its result from the cache "
        "when it can); when the first word is an option it only prints or changes the cache (-C clears it, "
        "--set-config keys such as compiler_check and prefix_command name programs to run)",
        "grade": "wrap",
        "options": "-s --show-stats -p --show-config -x --show-compression --print-stats -k= --get-config= "
        "-V --version -h --help -v --verbose -z:home --zero-stats:home -C:delete --clear:delete -c:delete "
        "--cleanup:delete --evict-older-than=:delete --evict-namespace=:delete -M=:home --max-size=:home "
        "-F=:home --max-files=:home -X=:home --recompress=:home -o=:unknown --set-config=:unknown -d=:unknown "
        "--dir=:unknown --config-path=:unknown --checksum-file=in --extract-result=in",
        "when": {
            "-s --show-stats -p --show-config -x --show-compression --print-stats -k --get-config -V -z "
            "--zero-stats -C --clear -c --cleanup --evict-older-than --evict-namespace -M --max-size -F --max-files "
            "-X --recompress --checksum-file --extract-result": "read",
        },
    },
    "xsv": {
        "source": "xsv README and xsv COMMAND --help (xsv 0.13): the commands print to standard output or -o; split "
        "and partition write files into a directory, index writes FILE.idx next to the input",
        "options": "-h --help --version",
        "commands": {
            "cat count fixlengths flatten fmt frequency headers input join sample reverse search select slice sort "
            "stats table": {"grade": "read", "open": True, "options": "-o=out --output=out"},
            "split": {"grade": "read", "open": True, "operands": "first-out"},
            "index": {"grade": "read", "open": True, "operands": "out", "options": "-o=out --output=out"},
            "partition": "unknown",
        },
    },
    "procs": {
        "source": "procs README (github.com/dalance/procs) (procs 0.14): lists processes; --load-config reads a "
        "configuration that may name the pager it runs",
        "grade": "read",
        "open": True,
        "options": "--load-config=:unknown --use-config= --gen-config --pager=",
    },
    "jless": {"source": "jless --help (jless 0.9): a read-only JSON viewer", "grade": "read", "open": True},
    "zoxide": {
        "source": "zoxide(1) (zoxide 0.9): query prints directories from its database; add, remove and import change "
        "the database under ~/.local/share/zoxide; init prints shell code; edit is interactive",
        "options": "-h --help -V --version",
        "commands": {
            "query init": {"grade": "read", "open": True},
            "add remove import": {"grade": "home", "open": True},
            "edit": "unknown",
        },
    },
    # -- web and JavaScript project tools -----------------------------------------------------------------------
    # the project's tasks (Gruntfile.js), as make runs a Makefile's
    "grunt": {
        "source": "grunt-cli usage (gruntjs.com/using-the-cli) (grunt-cli 1.4): runs the tasks of the project's "
        "Gruntfile; --gruntfile and --base choose it, --tasks and --npm load further task modules",
        "grade": "build",
        "open": True,
        "options": "--gruntfile=project --base=project -b=project --tasks=project --npm=:unknown --version -V",
        "when": {"--version -V": "read"},
    },
    "nodemon": {
        "source": "nodemon --help (nodemon 3): runs the script (or --exec COMMAND) and restarts it on changes",
        "grade": "runs",
        "options": "-v --version -h --help",
        "when": {"-v --version -h --help": "read"},
    },
    # pm2 start runs a script as a daemon the pm2 process manager keeps running; list shows a table; describe,
    # show, info, env, jlist and prettylist print each process's environment, secrets too
    "pm2": {
        "source": "PM2 CLI reference (pm2.keymetrics.io/docs/usage/quick-start) (PM2 5)",
        "options": "-v --version -h --help",
        "when": {"-v --version -h --help": "read"},
        "commands": {
            "list ls l status ps": {"grade": "read", "open": True},
            "logs": {"grade": "read", "open": True},
            "describe desc show info env jlist prettylist": {"grade": "secret", "open": True},
            "stop restart reload delete del kill": {"grade": "system", "open": True},
            "flush": {"grade": "delete", "open": True},
            "save dump": {"grade": "home", "open": True},
            "startup": {"grade": "persist", "open": True},
            "start": "runs",
        },
    },
    "ember": {
        "guard": "cloud:project_here",
        "source": "ember-cli commands (cli.emberjs.com/release/basic-use/cli-commands) (ember-cli 5)",
        "options": "-v --version -h --help",
        "when": {"-v --version -h --help": "read"},
        "commands": {
            "build b": {"grade": "build", "open": True, "options": "-o=emptied --output-path=emptied"},
            "test t": {"grade": "build", "open": True},
            "serve server s": {"grade": "network", "open": True},
            "new init": {"grade": "fetch", "open": True},
            "install i": {"grade": "fetch", "open": True},
            "generate g": {"grade": "write", "open": True},
            "destroy d": {"grade": "delete", "open": True},
            "version v help h": "read",
        },
    },
    "gatsby": {
        "guard": "cloud:project_here",
        "source": "Gatsby CLI (gatsbyjs.com/docs/reference/gatsby-cli) (gatsby 5)",
        "options": "-v --version -h --help",
        "when": {"-v --version -h --help": "read"},
        "commands": {
            "build": {"grade": "build", "open": True},
            "develop serve": {"grade": "network", "open": True},
            "clean": {"grade": "delete", "open": True},
            "new": {"grade": "fetch", "open": True},
            "info": {"grade": "read", "open": True},
            "repl": "runs",
        },
    },
    "hexo": {
        "guard": "cloud:project_here",
        "source": "Hexo commands (hexo.io/docs/commands) (hexo 7)",
        "options": "-v --version -h --help --config=project --cwd=project",
        "when": {"-v --version -h --help": "read"},
        "commands": {
            "generate g": {"grade": "build", "open": True},
            "server s": {"grade": "network", "open": True},
            "deploy d": {"grade": "publish", "open": True},
            "new n": {"grade": "write", "open": True},
            "clean": {"grade": "delete", "open": True},
            "init": {"grade": "fetch", "open": True},
            "list": {"grade": "build", "open": True},
            "version": "read",
        },
    },
    # web-ext loads web-ext-config.mjs from the directory it runs in (JavaScript): lint reads the extension's
    # files, a build; build packs them into --artifacts-dir; run starts Firefox with them; sign uploads them
    "web-ext": {
        "source": "web-ext command reference (extensionworkshop.com/documentation/develop/web-ext-command-reference) "
        "(web-ext 8)",
        "options": "-s=in --source-dir=in -a=out --artifacts-dir=out -c=project --config=project --no-config-discovery "
        "--verbose -v --version -h --help",
        "when": {"--version -h --help": "read"},
        "commands": {
            "lint": {"grade": "build", "open": True, "options": "-o= --output="},
            "build": {"grade": "build", "open": True},
            "run": "runs",
            "sign": {"grade": "publish", "open": True},
            "docs": {"grade": "network", "open": True},
        },
    },
    # lighthouse audits the URL in a Chrome it starts and writes the report into the directory it runs in
    # (--output-path: there); --chrome-flags are Chrome's (--renderer-cmd-prefix runs a program): programs/net.py
    "lighthouse": {
        "source": "lighthouse --help (Lighthouse 12)",
        "grade": "network",
        "guard": "net:chrome_flags",  # --chrome-flags: only the switches that choose how a page is shown
        "open": True,
        "options": "--output= --output-path=out --chrome-flags= --config-path=project --plugins=project "
        "--cli-flags-path=:unknown --lantern-data-output-path=out --precomputed-lantern-data-path=in "
        "--extra-headers=in --budget-path=in -G=:unknown --gather-mode=:unknown -A=:unknown --audit-mode=:unknown "
        "--version --help",
        "when": {"--version --help": "read"},
    },
    # hurl sends the requests of the .hurl files and checks the answers; files a request sends are read below the
    # file root (the .hurl file's directory by default)
    "hurl": {
        "source": "hurl(1) (Hurl 5)",
        "grade": "network",
        "open": True,
        "options": "-o=out --output=out --report-html=out --report-junit=out --report-tap=out --report-json=out "
        "-c=out --cookie-jar=out -b=in --cookie=in --variables-file=in --file-root=in --netrc-file=in --cacert=in "
        "-E=in --cert=in --key=in --version -V -h --help",
        "when": {"--version -V -h --help": "read"},
    },
    "htmlq": {
        "source": "htmlq --help (htmlq 0.4): prints the nodes of the HTML its input holds that a selector matches",
        "grade": "read",
        "options": "-a= --attribute= -B --detect-base -b= --base= -f=in --filename=in -o=out --output=out -p "
        "--pretty -r= --remove-nodes= -t --text -w --ignore-whitespace -h --help -V --version",
    },
    "tidy-viewer": {
        "source": "tidy-viewer --help (tidy-viewer 1.5): prints a CSV file as a table",
        "grade": "read",
        "open": True,
    },
    # svgo rewrites each input file in place unless -o names the output; it loads svgo.config.js from the directory
    # it runs in (JavaScript): a build
    "svgo": {
        "source": "svgo --help (SVGO 3)",
        "grade": "build",
        "open": True,
        "operands": "out",
        "options": "-i=out --input=out -f=out --folder=out -o=out --output=out --config=project -v --version -h --help",
        "when": {"-v --version -h --help": {"grade": "read", "operands": "none"}},
    },
    # d2 IN OUT renders the diagram to OUT; --watch serves it on a port; fmt rewrites the files given
    "d2": {
        "source": "d2(1) (D2 0.6)",
        "grade": "write",
        "else": "write",
        "open": True,
        "operands": "last-out",
        "options": "-w:network --watch:network -v --version -h --help",
        "when": {"-v --version -h --help": {"grade": "read", "operands": "none"}},
        "commands": {
            "fmt": {"grade": "write", "open": True, "operands": "out"},
            "version layout themes": {"grade": "read", "open": True},
        },
    },
    "2to3": {
        "source": "2to3 --help (Python 3.12 lib2to3): prints the changes as a diff; -w writes them to the files "
        "given (a .bak copy beside each unless -n), -o to another directory",
        "grade": "read",
        "options": "-d --doctests_only -f= --fix= -j= --processes= -x= --nofix= -l --list-fixes -p "
        "--print-function -e --exec-function -v --verbose --no-diffs -w --write -n --nobackups -o=out "
        "--output-dir=out -W --write-unchanged-files --add-suffix= -h --help",
        "when": {"-w --write": {"grade": "write", "operands": "out"}},
    },
    # zizmor audits the GitHub Actions workflows given; its online audits (and an owner/repo operand) call the
    # GitHub API, which --offline turns off; --fix rewrites the workflows
    "zizmor": {
        "source": "zizmor usage (docs.zizmor.sh/usage) (zizmor 1.x)",
        "grade": "network",
        "options": "--offline --no-online-audits --gh-token= --gh-hostname= -p --pedantic --persona= --format= "
        "-o= -v -q --min-severity= --min-confidence= --no-exit-codes --config=project --no-config "
        "--cache-dir=out --collect= --strict-collection --fix:write --fix=*:write -V --version -h --help",
        "when": {"--offline": "read", "-V --version -h --help": "read"},
    },
    # jupytext converts notebooks and writes the result beside each (--output: there), loading the configuration
    # of their directories (.jupytext.py is Python: a build); --execute runs the notebook, --pipe and --check run
    # the command given on it
    "jupytext": {
        "source": "jupytext --help (Jupytext 1.16)",
        "grade": "build",
        "open": True,
        "operands": "out",
        "options": "--to= --from= -o=out --output=out --execute:runs --pipe=:runs --check=:runs --run-path=:unknown "
        "-d --diff -p --paired-paths --test --test-strict --version -h --help",
        "when": {
            "-d --diff -p --paired-paths --test --test-strict": {"operands": "none"},
            "--version -h --help": {"grade": "read", "operands": "none"},
        },
    },
    # marimo edit and run serve notebooks whose cells run in the server's Python; export runs the notebook;
    # convert prints a marimo notebook made from a Jupyter one
    "marimo": {
        "source": "marimo CLI (docs.marimo.io/cli) (marimo 0.9)",
        "options": "--version -h --help -q --quiet -y --yes -d --development-mode",
        "when": {"--version -h --help": "read"},
        "commands": {
            "edit run new tutorial export": "runs",
            "convert": {"grade": "read", "options": "-o=out --output=out -h --help"},
        },
    },
    # quarto render and preview run the documents' code cells (Jupyter, knitr); convert changes the notebook format
    # only
    "quarto": {
        "source": "Quarto CLI (quarto.org/docs/cli) (Quarto 1.5)",
        "options": "-v --version -h --help",
        "when": {"-v --version -h --help": "read"},
        "commands": {
            "render preview publish run": "runs",
            "convert": {"grade": "write", "open": True, "operands": "out", "options": "-o=out --output=out"},
        },
    },
    # gitlint lints the commit messages (its .gitlint configuration and --extra-path user rules are Python code of
    # the project); install-hook writes a commit-msg hook that runs at every later commit
    "gitlint": {
        "source": "gitlint configuration and CLI (jorisroovers.com/gitlint) (gitlint 0.19)",
        "grade": "build",
        "open": True,
        "options": "-C=project --config=project -e=project --extra-path=project --msg-filename=in --target=project "
        "--version -h --help",
        "when": {"--version -h --help": "read"},
        "commands": {
            "lint": {"grade": "build", "open": True},
            "install-hook": {"grade": "plugin", "open": True},
            "uninstall-hook": {"grade": "plugin", "open": True},
            "generate-config": {"grade": "write", "open": True},
            "run-hook": {"grade": "build", "open": True},
        },
    },
    # act runs the repository's GitHub Actions workflows in containers; -l lists their jobs
    "act": {
        "source": "act usage (nektosact.com/usage) (act 0.2)",
        "grade": "runs",
        "else": "runs",
        "open": True,
        "options": "-l --list --version -h --help",
        "when": {"-l --list --version -h --help": "read"},
    },
    "hyperfine locust molecule vhs pwsh": {
        "source": "each tool's --help (hyperfine 1.18: runs the commands given; locust 2: runs the locustfile; "
        "molecule 24: runs the scenario's playbooks; vhs 0.7: runs the tape's commands in a shell; pwsh 7: runs "
        "PowerShell commands or scripts): --version prints the version",
        "grade": "runs",
        "else": "runs",
        "open": True,
        "options": "--version -V -Version",
        "when": {"--version -V -Version": "read"},
    },
    "ipython": {
        "source": "ipython --help (IPython 8): runs Python interactively, or the file given",
        "grade": "runs",
        "else": "runs",
        "open": True,
        "options": "--version -V -h --help",
        "when": {"--version -V -h --help": "read"},
    },
    "irb": {
        "source": "irb(1) (irb 1.14): runs Ruby interactively",
        "grade": "runs",
        "else": "runs",
        "open": True,
        "options": "-v --version -h --help",
        "when": {"-v --version -h --help": "read"},
    },
    # serve serves the directory given (or the current one) over HTTP on every interface (port 3000 by default);
    # one that may hold credentials (~, /) outside the workspace: programs/shells.py served_directory
    "serve": {
        "source": "serve --help (vercel/serve 14)",
        "guard": "shells:served_directory",
        "grade": "network",
        "open": True,
        "options": "-c=in --config=in --ssl-cert=in --ssl-key=in --ssl-pass=in -v --version -h --help",
        "when": {"-v --version -h --help": "read"},
    },
    # tre prints the tree of file names below a directory; -e writes a file of shell aliases (one per file shown)
    # that open an editor
    "tre": {
        "source": "tre --help (tre 0.4)",
        "grade": "read",
        "options": "-a --all -d --directories -j --json -l= --limit= -c= --color= -E= --exclude= -p --portable -s "
        "--simple -e=:unknown --editor=:unknown -h --help -V --version",
    },
    "dlv": {
        "source": "dlv(1) (Delve 1.23): debug, test, exec, attach and core run or attach to a program",
        "options": "-h --help",
        "commands": {"version": "read", "debug test exec attach run trace core replay dap": "runs"},
    },
    # caddy fmt prints the Caddyfile formatted (--overwrite: rewrites it); run, start, file-server and
    # reverse-proxy serve; environ prints the environment; trust installs its root certificate into the system's
    # trust store; adapt and validate load the configuration and the files it imports (any path), printing what
    # they make of them: not graded
    "caddy": {
        "source": "caddy command line (caddyserver.com/docs/command-line) (Caddy 2.8); file-server --root: "
        "programs/hostwide.py caddy_root",
        "guard": "hostwide:caddy_root",
        "options": "-h --help -v --version",
        "when": {"-h --help -v --version": "read"},
        "commands": {
            "fmt": {
                "grade": "read",
                "options": "--overwrite -w --diff",
                "when": {"--overwrite -w": {"grade": "write", "operands": "out"}},
            },
            "run start file-server reverse-proxy": {"grade": "network", "open": True},
            "reload stop": {"grade": "system", "open": True},
            "environ": "secret",
            "hash-password": {"grade": "read", "open": True},
            "version list-modules build-info": "read",
            "trust untrust": {"grade": "critical", "open": True},
            "upgrade add-package remove-package": {"grade": "plugin", "open": True},
        },
    },
    "nextflow": {
        "source": "Nextflow CLI reference (nextflow.io/docs/latest/reference/cli.html) (Nextflow 24)",
        "options": "-C=project -c=project -config=project -log=out -q -quiet -bg -d -h -v -version",
        "clusters": False,
        "when": {"-h -v -version": "read"},
        "commands": {
            "run console kuberun": {"grade": "runs", "open": True},
            "log list view": {"grade": "read", "open": True},
            "info": {"grade": "network", "open": True},  # -d: the project's remote revisions
            "config": {"grade": "build", "open": True},
            "clean": {"grade": "delete", "open": True},
            "pull clone": {"grade": "install", "open": True},
            "drop": {"grade": "delete", "open": True},
            "self-update": {"grade": "install", "open": True},
        },
    },
}
