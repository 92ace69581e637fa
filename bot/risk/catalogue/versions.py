"""Developer tools known only by the query that prints their version (or a listing as harmless).

Each entry grades the spelling the tool's ``--help`` gives for its version (``--version`` and ``--help`` alone read
for every catalogued program; here also ``version``, ``-version``, ``-v`` or ``-V`` where that is the tool's
spelling) and a few listings; every other use is ``unknown`` (refused, destructive): these tools build, deploy,
debug, trace, migrate databases or open terminal interfaces, and what such a use does is not told here.
"""

from __future__ import annotations

_ONLY_VERSION = {"grade": "unknown"}
_VERSION_COMMAND = {"grade": "unknown", "commands": {"version": "read"}}

CATALOGUE: dict[str, object] = {
    "rr perf bpftrace heaptrack py-spy scalene memray pyinstrument": {
        "source": "each debugger's or profiler's --help (rr 5.8, perf 6.x, bpftrace 0.21, "
        "heaptrack 1.5, py-spy 0.3, scalene 1.5, memray 1.14, pyinstrument 5): --version prints the version; "
        "the other uses run or attach to programs",
        **_ONLY_VERSION,
    },
    "btop tig gitui lazydocker dive ranger broot atuin navi mosh": {
        "source": "each terminal tool's --help (btop 1.3, tig 2.5, gitui 0.26, lazydocker 0.23, dive 0.12, "
        "ranger 1.9, broot 1.4, atuin 18, navi 2.23, mosh 1.4): --version prints the version; the other uses "
        "open interactive interfaces that can change files, run commands or connect elsewhere",
        **_ONLY_VERSION,
    },
    "terragrunt infracost grpcurl evans websocat httpie pgcli mycli litecli usql liquibase dbmate goose "
    "drizzle-kit supabase railway cloudflared oci": {
        "source": "each client's --help (terragrunt 0.6x, infracost 0.10, grpcurl 1.9, evans 0.10, websocat 1.13, "
        "httpie 3, pgcli 4, mycli 1.27, litecli 1.12, usql 0.19, liquibase 4.29, dbmate 2, goose 3, "
        "drizzle-kit 0.2x, supabase 1, railway 3, cloudflared 2024, oci 3): "
        "--version prints the version; the other uses reach servers, databases or clouds",
        **_ONLY_VERSION,
    },
    "eslint_d osv-scanner snyk sonar-scanner pmd checkstyle detekt scalafmt scalafix": {
        "source": "each checker's --help (eslint_d 14, osv-scanner 1.9, snyk 1.12xx, sonar-scanner 6, "
        "pmd 7, checkstyle 10, detekt 1.23, scalafmt 3.8, scalafix 0.12): --version prints the version",
        **_ONLY_VERSION,
    },
    "pants premake5 xmake cmake-format include-what-you-use rye cookiecutter copier yeoman "
    "plop lerna semantic-release husky lint-staged": {
        "source": "each build, project or release tool's --help (pants 2.2x, premake5, xmake 2.9, "
        "cmake-format 0.6, include-what-you-use 0.22, rye 0.4x, cookiecutter 2.6, "
        "copier 9, yo 5, plop 4, lerna 8, semantic-release 24, husky 9, lint-staged 15): "
        "--version prints the version; the other uses run the project's or a template's code",
        **_ONLY_VERSION,
    },
    "openocd avrdude picotool st-flash st-info": {
        "source": "each tool's --help (OpenOCD 0.12, avrdude 7.3, picotool 2.0, stlink 1.8): --version "
        "prints the version; the other uses run a program or drive a board",
        **_ONLY_VERSION,
    },
    "nim julia groovy raku solc hardhat": {
        "source": "each language tool's --help (Nim 2, Julia 1.11, Groovy 4, Rakudo 2024, solc 0.8, Hardhat 2): "
        "--version prints the version; the other uses compile or run code",
        **_ONLY_VERSION,
    },
    "git-lfs k9s skaffold tilt syft lefthook odin scw hcloud ngrok dagger": {
        "source": "each tool's help (git-lfs 3, k9s 0.32, skaffold 2, tilt 0.33, syft 1, "
        "lefthook 1.7, Odin dev-2024, scw 2, hcloud 1.4x, ngrok 3, dagger 0.1x): the version subcommand prints the client's "
        "version",
        **_VERSION_COMMAND,
    },
    "ctr": {
        "source": "ctr --help (containerd 1.7): version prints the client's and the local daemon's versions",
        **_VERSION_COMMAND,
    },
    "mill": {
        "source": "mill docs (mill-build.org) (Mill 0.12): --version prints the version; version and every other "
        "command load the build file (build.mill, Scala code it compiles and runs)",
        "grade": "unknown",
        "commands": {"version": "build"},
    },
    "migrate spotbugs ocaml": {
        "source": "golang-migrate CLI (-version), spotbugs (-version), ocaml(1) (-version): single-dash options",
        "grade": "unknown",
        "clusters": False,
        "options": "-version",
        "when": {"-version": "read"},
    },
    "nasm": {
        "source": "nasm(1) (NASM 2.16): -v prints the version",
        "grade": "unknown",
        "options": "-v",
        "when": {"-v": "read"},
    },
    "nnn": {
        "source": "nnn(1) (nnn 5): -V prints the version; otherwise a file manager that can delete and run programs",
        "grade": "unknown",
        "options": "-V",
        "when": {"-V": "read"},
    },
    "istioctl": {
        "source": "istioctl version (istio.io/latest/docs/reference/commands/istioctl) (Istio 1.23): the client's "
        "version, and the control plane's unless --remote=false",
        "grade": "unknown",
        "commands": {
            "version": {
                "grade": "remote",
                "options": "--remote= -s --short -o= --output=",
                "when": {"--remote=false": "read"},
            },
        },
    },
    "linkerd": {
        "source": "linkerd version (linkerd.io/2/reference/cli/version) (Linkerd 2.16): --client prints only the "
        "client's version",
        "grade": "unknown",
        "commands": {
            "version": {
                "grade": "remote",
                "options": "--client --short --proxy -n= --namespace=",
                "when": {"--client": "read"},
            },
        },
    },
    "mkcert": {
        "source": "mkcert README (github.com/FiloSottile/mkcert) (mkcert 1.4): mkcert NAMES writes a certificate and "
        "key for them where it runs (or -cert-file/-key-file/-p12-file), creating its CA under ~ the first time; "
        "-install and -uninstall change the system's and browsers' trust stores; -CAROOT prints the CA's directory",
        "grade": "home",
        "clusters": False,
        "options": "-CAROOT -install:critical -uninstall:critical -cert-file=out -key-file=out -p12-file=out -ecdsa "
        "-client -pkcs12 -csr=in -help -version",
        "when": {"-CAROOT -version -help": "read"},
    },
    "changeset": {
        "source": "changesets CLI (github.com/changesets/changesets, packages/cli) (@changesets/cli 2.27): status "
        "reports; add (the default) and version write changeset files, package.json versions and changelogs; "
        "publish publishes the packages and tags them",
        "grade": "write",
        "options": "-h --help -v --version",
        "commands": {
            "status": {"grade": "read", "options": "--since= --verbose --output=out"},
            "add init": {"grade": "write", "options": "--empty --open:runs --since="},
            "version": {"grade": "write", "options": "--ignore= --snapshot* --snapshot-prerelease-template="},
            "pre": {"commands": {"enter exit": "write"}},
            "tag": "write",
            "publish": {"grade": "publish", "options": "--otp= --tag= --git-tag --no-git-tag"},
        },
    },
    "ncdu": {
        "source": "ncdu(1) (ncdu 2.5): -o FILE exports the scan and exits; without it an interactive browser that "
        "can delete files; -v prints the version",
        "grade": "unknown",
        "options": "-o=out -x --one-file-system -e --extended -q --slow-ui-updates -r -0 -1 -2 --exclude= "
        "--exclude-kernfs --exclude-caches --si -L --follow-symlinks -v -V",
        "when": {"-o -v -V": "read"},
    },
    "glow": {
        "source": "glow README (github.com/charmbracelet/glow) (glow 2): glow FILE|URL renders Markdown; without "
        "operands a terminal interface that opens an editor; config opens an editor",
        "grade": "unknown",
        "else": "read",
        "options": "-s= --style= -w= --width= -a --all -l --local -v --version -h --help -n --line-numbers "
        "--preserve-new-lines --config=:unknown -p:unknown --pager:unknown -t:unknown --tui:unknown",
        "commands": {"config": "runs", "completion help": "read"},
    },
}
