"""Walk a tree-sitter-bash tree and grade every simple command and redirect in it.

Every node kind of tree-sitter-bash 0.25 is listed below in exactly one table; a
kind in none of them grades destructive (a node kind the classifier does not
know). ERROR and MISSING nodes make the whole script destructive, and the walk
still goes on so the reasons and the command list are complete.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from functools import partial

from bot.risk.grader import (
    CONTENT_READERS,
    Grader,
    Rec,
    Scope,
    _decoded_name,
    _decoded_variable,
    inert_environment,
)
from bot.risk.listing import ANY_PATH, TRACKED, stream, xargs_program
from bot.risk.misread import misreadings
from bot.risk.model import RiskLevel
from bot.risk.paths import Where, names_socket
from bot.risk.reasons import shorten
from bot.risk.regex import Regex
from bot.risk.sensitive import secret_expansions, secret_variable
from bot.risk.words import Word, dynamic_word, node_text, resolve_word

TYPE_CHECKING = False  # tree-sitter loads on the first parse; typing never (bot/values.py)
if TYPE_CHECKING:
    import threading

    from tree_sitter import Language, Node, Parser

__all__ = [
    "MAX_DEPTH", "PARSER_CRASH", "UnsafeToParse", "environment_risk", "harmless_value", "has_code", "hijacks_environment",
    "parse",
    "plain_words",
    "walk_nested", "walk_plain", "walk_script",
]  # fmt: skip

R = RiskLevel
MAX_DEPTH = 12

#: Loaded by the first parse (plain commands never need them): tree-sitter-bash, and a threading.local holding one
#: Parser per thread (a tree-sitter Parser must not be shared across threads).
_LANGUAGE: list[Language] = []
_LOCALS: list[threading.local] = []

# Kinds whose children are simply walked.
_CONTAINERS = frozenset({
    "program", "compound_statement", "if_statement", "elif_clause", "else_clause", "case_statement",
    "case_item", "negated_command", "do_group", "heredoc_body", "binary_expression", "unary_expression",
    "postfix_expression", "parenthesized_expression", "ternary_expression", "arithmetic_expansion",
    "expansion", "string", "concatenation", "array", "subscript", "translated_string", "ERROR",
})  # fmt: skip
#: Declaration builtins that print variables and values when given no name (bash(1) SHELL BUILTIN COMMANDS).
_PRINTING_DECLARATIONS = frozenset({"export", "declare", "typeset", "readonly", "local"})
# Kinds that run in a subshell: a cd inside does not carry on.
_SUBSHELLS = frozenset({"subshell", "command_substitution", "process_substitution"})
#: Compound commands whose parts may not run: an assignment in them leaves its name's value unknown after them.
_BRANCHES = frozenset({"if_statement", "case_statement"})
#: Builtins that may assign any shell variable (bash(1) SHELL BUILTIN COMMANDS: ``read``, ``mapfile``,
#: ``printf -v``, ``getopts``, ``let``, ``wait -p``; ``eval`` and ``source`` run code in this shell; ``builtin`` and
#: ``command`` run one of these; ``trap`` runs code between commands): after one, no variable's value is known.
_ASSIGNING_BUILTINS = frozenset({
    "read", "mapfile", "readarray", "printf", "getopts", "let", "wait", "eval", "source", ".", "builtin",
    "command", "trap", "unset", "declare", "typeset", "local", "readonly", "export", "enable", "exec",
})  # fmt: skip
_VARIABLE_NAME = Regex(r"[A-Za-z_][A-Za-z0-9_]*")
_COPY = Regex(r'"?\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))"?')
_LOOPS = frozenset({"while_statement", "for_statement", "c_style_for_statement"})
#: Arithmetic nodes that can assign a variable (bash(1) ARITHMETIC EVALUATION: ``=``, ``op=``, ``++``, ``--``).
_ARITHMETIC = frozenset({"binary_expression", "postfix_expression", "unary_expression"})
_ARITHMETIC_ASSIGNING = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "++", "--"})
#: ``[[ ]]`` operators that evaluate both operands as arithmetic (bash(1) CONDITIONAL EXPRESSIONS).
_ARITHMETIC_COMPARING = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
#: Assignments inside text bash may evaluate as arithmetic (an array subscript ``a[HOME=1]``, a ``[[ x -eq
#: HOME=1 ]]`` operand, the value of a ``declare -i`` variable): ``NAME=``, ``NAME op=``, ``NAME++``, ``--NAME``.
_ARITHMETIC_TEXT = Regex(
    r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\])?\s*(?:(?:<<|>>|[-+*/%&^|])?=(?!=)|\+\+|--)|(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)"
)
#: Leaves of a parameter expansion that tree-sitter-bash 0.25 keeps as text though bash expands them (the word of
#: ``${x:-WORD}``, the pattern of ``${x#PAT}``/``${x/PAT/REP}``): one holding a command or process substitution
#: (:data:`_HIDDEN_SUBSTITUTION`) is parsed again (``_Walk.hidden_substitutions``).
_EXPANSION_TEXT = frozenset({"word", "regex", "raw_string", "extglob_pattern", "number"})
_HIDDEN_SUBSTITUTION = Regex(r"`|\$\(|[<>]\(")
# Kinds with nothing to grade inside.
_LEAVES = frozenset({
    "word", "number", "raw_string", "ansi_c_string", "string_content", "variable_name",
    "special_variable_name", "comment", "file_descriptor", "heredoc_start", "heredoc_content",
    "heredoc_end", "test_operator", "regex", "extglob_pattern", "simple_expansion", "brace_expression",
})  # fmt: skip
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_CASE_TERMINATORS = frozenset({";;", ";&", ";;&"})
_NO_WRITE_OPS = frozenset({"<", "<&", "<&-", ">&-"})
#: Programs sending their standard input to another machine (ssh(1), nc(1), ncat(1), socat(1), telnet(1)).
_INPUT_SENDERS = frozenset({"ssh", "nc", "ncat", "netcat", "socat", "telnet"})
_WRITE_OPS = frozenset({">", ">>", "&>", "&>>", ">|", ">&", "<>"})
#: Redirects that truncate their file first (bash(1) REDIRECTION: "Redirecting Output", "Redirecting Standard
#: Output and Standard Error"); ``>>``, ``&>>`` append and ``<>`` opens without truncating.
_REPLACING_OPS = frozenset({">", ">|", "&>", ">&"})

# Variables that change which program runs or what it runs (bash(1) ENVIRONMENT,
# ld.so(8), git(1) ENVIRONMENT VARIABLES): setting them grades destructive.
_HIJACK_NAMES = frozenset({
    "PATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "CDPATH", "TMPDIR",
    "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXEC_PATH", "GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND", "GIT_DIR", "GIT_WORK_TREE",
    "GIT_TEMPLATE_DIR", "PAGER", "EDITOR", "VISUAL", "MANPAGER", "LESSOPEN", "LESSCLOSE", "PERL5OPT",
    "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB", "NODE_OPTIONS", "PYTHONSTARTUP", "PYTHONHOME",
    # Configuration that names programs to run (see programs/packages.py, build.py and the viewers):
    # apt.conf(5) APT_CONFIG; pip's PIP_CONFIG_FILE and PIP_PYTHON (pip.pypa.io "Configuration");
    # yarn's YARN_YARN_PATH/YARN_RC_FILENAME; man(1) MANOPT/MANROFFOPT/BROWSER; less(1) LESS/LESSKEY*;
    # systemctl(1) SYSTEMD_PAGER/SYSTEMD_LESS/SYSTEMD_EDITOR; tar(1) TAR_OPTIONS; rg(1)
    # RIPGREP_CONFIG_PATH; wget(1) WGETRC; rsync(1) RSYNC_RSH; docker(1) DOCKER_CONFIG (CLI plugins);
    # brew(1) HOMEBREW_*_PATH/EDITOR/BROWSER. npm reads npm_config_* in any case (below).
    "APT_CONFIG", "PIP_CONFIG_FILE", "PIP_PYTHON", "YARN_YARN_PATH", "YARN_RC_FILENAME", "MANOPT", "MANROFFOPT",
    "BROWSER", "LESS", "LESSKEY", "LESSKEYIN", "LESSKEY_CONTENT", "LESSKEY_SRC", "SYSTEMD_PAGER", "SYSTEMD_LESS",
    "SYSTEMD_EDITOR", "TAR_OPTIONS", "RIPGREP_CONFIG_PATH", "WGETRC", "RSYNC_RSH", "DOCKER_CONFIG",
    "HOMEBREW_CURL_PATH", "HOMEBREW_GIT_PATH", "HOMEBREW_EDITOR", "HOMEBREW_BROWSER", "HOMEBREW_SSH_CONFIG_PATH",
    # Database, cloud and forge clients: pagers, editors, browsers and rc files they run or read (psql(1)
    # PSQL_PAGER, PSQL_EDITOR, PSQLRC; aws AWS_PAGER, AWS_CONFIG_FILE (credential_process); gh
    # GH_PAGER/GH_EDITOR/GH_BROWSER; glab GLAB_PAGER; watch/script/su run $SHELL).
    "PSQL_PAGER", "PSQL_EDITOR", "PSQLRC", "AWS_PAGER", "AWS_CONFIG_FILE", "GH_PAGER", "GH_EDITOR", "GH_BROWSER",
    "GLAB_PAGER", "SHELL", "MYSQL_HOME", "CLOUDSDK_CONFIG",
    # Backup tools: the program run to reach the repository or get its password (borg(1) ENVIRONMENT BORG_RSH,
    # BORG_PASSCOMMAND; restic "Environment Variables" RESTIC_PASSWORD_COMMAND; rclone "Configuration"
    # RCLONE_CONFIG (a remote's sftp ssh option runs a program), RCLONE_PASSWORD_COMMAND, RCLONE_SFTP_SSH)
    "BORG_RSH", "BORG_PASSCOMMAND", "BORG_NEW_PASSCOMMAND", "RESTIC_PASSWORD_COMMAND", "RCLONE_CONFIG",
    "RCLONE_PASSWORD_COMMAND", "RCLONE_SFTP_SSH",
    # Homes and configuration directories most programs read their configuration from, which can name programs
    # (git-config(1) FILES: $HOME/.gitconfig, $XDG_CONFIG_HOME/git/config, core.fsmonitor; XDG Base Directory
    # Specification; hgrc(5) HGRCPATH, [hooks]); the JVM's option variables (java(1) JDK_JAVA_OPTIONS,
    # JAVA_TOOL_OPTIONS -javaagent; mvn(1) MAVEN_OPTS; gradle(1) GRADLE_OPTS, JAVA_OPTS); cargo(1) ENVIRONMENT
    # (RUSTC, RUSTC_WRAPPER, RUSTFLAGS -C linker=, CARGO_BUILD_*, CARGO_TARGET_DIR, CARGO_HOME); go help environment
    # (GOFLAGS -toolexec, GOTOOLCHAIN, CC, CXX, GOROOT, GOENV); compilers' and linkers' names read by make, cmake,
    # meson, cargo build scripts and cgo (CC, CXX, LD, AR, CPP, FC); pytest(1) PYTEST_ADDOPTS, PYTEST_PLUGINS;
    # python(1) PYTHONPATH; bundler(1) BUNDLE_GEMFILE; vagrant(1) VAGRANT_CWD, VAGRANT_HOME.
    "HOME", "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "XDG_DATA_HOME", "XDG_DATA_DIRS", "XDG_STATE_HOME",
    "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "HGRCPATH", "HGRCSKIPREPO", "HGPLAIN", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS", "JAVA_OPTS", "JAVA_HOME", "MAVEN_OPTS", "MAVEN_ARGS", "GRADLE_OPTS", "GRADLE_USER_HOME",
    "RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTDOC", "RUSTFLAGS", "RUSTDOCFLAGS", "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN", "CARGO_HOME", "CARGO_TARGET_DIR", "CARGO_ENCODED_RUSTFLAGS", "GOFLAGS", "GOTOOLCHAIN",
    "GOROOT", "GOENV", "GOPATH", "GOBIN", "GOPROXY", "GONOSUMDB", "GONOSUMCHECK", "GOINSECURE", "GOPRIVATE",
    "GOSUMDB", "GOEXPERIMENT", "GOTOOLDIR", "GCCGO", "GOGCCFLAGS", "CGO_CFLAGS", "CGO_CXXFLAGS", "CGO_LDFLAGS", "CGO_FFLAGS",
    "CGO_CPPFLAGS", "CC", "CXX", "LD", "AR", "CPP", "FC", "AS", "NM", "RANLIB", "STRIP", "OBJCOPY",
    "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "PKG_CONFIG", "PKG_CONFIG_PATH", "PYTEST_ADDOPTS",
    "PYTEST_PLUGINS", "PYTHONPATH", "PYTHONUSERBASE", "PYTHONWARNINGS", "BUNDLE_GEMFILE", "BUNDLE_APP_CONFIG",
    "GEM_HOME", "GEM_PATH", "VAGRANT_CWD", "VAGRANT_HOME", "VAGRANT_VAGRANTFILE", "NODE_PATH",
    # bash(1) BASH_CMDS: "Elements added to this array appear in the hash table" (BASH_CMDS[git]=/tmp/x runs
    # /tmp/x for git, as hash -p does); BASH_ALIASES: "Elements added to this array appear in the alias list"
    "BASH_CMDS", "BASH_ALIASES",
    # More configuration chosen by a variable, whose file or directory names code the program runs: git(1)
    # GIT_COMMON_DIR ("non-worktree files that are normally in $GIT_DIR will be taken from this path": its config,
    # core.fsmonitor, and hooks); GNU make manual "The Variable MAKEFILES" (makefiles read first) and "Communicating
    # Options to a Sub-make" (MAKEFLAGS is read from the environment: ``-- SHELL=/tmp/x``, ``--eval=...``); glibc
    # manual "The iconv Implementation in the GNU C Library" (GCONV_PATH: gconv modules, shared objects, loaded by
    # iconv); config(5) OPENSSL_CONF (engines and providers loaded from a ``dynamic_path``/``module``) and
    # openssl-env(7) OPENSSL_ENGINES, OPENSSL_MODULES; zsh(1) STARTUP/SHUTDOWN FILES (ZDOTDIR: every zsh reads
    # $ZDOTDIR/.zshenv); kubectl "Organizing Cluster Access" (KUBECONFIG: a user's ``exec`` credential plugin runs
    # on every request); terraform "CLI Configuration File" (TF_CLI_CONFIG_FILE, TERRAFORM_CONFIG: provider
    # ``dev_overrides`` run providers from a directory; TF_PLUGIN_CACHE_DIR); docker compose COMPOSE_FILE (the
    # project run: its privileges and mounts); pipenv PIPENV_PIPFILE (its [scripts]); direnv(1) DIRENV_CONFIG
    # (direnvrc, sourced before every .envrc, and direnv.toml's whitelist); az "CLI configuration"
    # AZURE_CONFIG_DIR, AZURE_EXTENSION_DIR (extensions are Python code); helm(1) HELM_PLUGINS; gpg-agent(1)
    # GNUPGHOME (gpg-agent.conf ``pinentry-program``).
    "GIT_COMMON_DIR", "MAKEFILES", "MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS", "GCONV_PATH", "OPENSSL_CONF",
    "OPENSSL_ENGINES", "OPENSSL_MODULES", "ZDOTDIR", "KUBECONFIG", "TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG",
    "TF_PLUGIN_CACHE_DIR", "COMPOSE_FILE", "PIPENV_PIPFILE", "DIRENV_CONFIG", "AZURE_CONFIG_DIR",
    "AZURE_EXTENSION_DIR", "HELM_PLUGINS", "GNUPGHOME",
    # sudo(8) SUDO_ASKPASS ("a helper program used to read the password": sudo -A runs it); ansible "Configuration
    # settings" ANSIBLE_CONFIG (plugin paths, an executable vault_password_file, inventory scripts)
    "SUDO_ASKPASS", "ANSIBLE_CONFIG",
    # Credential files whose content can name a program to run: AWS SDKs and Tools Reference Guide "Shared config and
    # credentials files" (AWS_SHARED_CREDENTIALS_FILE; botocore merges its profiles with the config file's) and
    # "Process credential provider" (credential_process runs a program); Google Cloud "Workload identity federation
    # with other providers", "Executable-sourced credentials" (GOOGLE_APPLICATION_CREDENTIALS names an
    # external_account file whose credential_source.executable.command runs when
    # GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES=1)
    "AWS_SHARED_CREDENTIALS_FILE", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES",
    # Recipe runners' and other tools' options and files read from the environment: Composer "Environment
    # variables" (COMPOSER: the composer.json whose scripts run; COMPOSER_HOME: the global plugins and config);
    # rake(1) RAKEOPT (options prepended: -f FILE, -r LIB) and RAKE_SYSTEM (the system rakefiles); curl(1) "Default
    # config file" (CURL_HOME/.curlrc: output, upload-file, url); zip(1) ZIPOPT (default options: -TT runs a
    # command); rsync(1) RSYNC_CONNECT_PROG (the program a daemon connection runs); cvs(1) CVS_RSH; GNU parallel
    # $PARALLEL (default options: -S hosts, --transfer); bat(1) BAT_PAGER, delta DELTA_PAGER (the pager run);
    # node(1) NODE_REPL_EXTERNAL_MODULE (loaded in place of the REPL); fzf(1) FZF_DEFAULT_COMMAND
    "COMPOSER", "COMPOSER_HOME", "RAKEOPT", "RAKE_SYSTEM", "CURL_HOME", "ZIPOPT", "RSYNC_CONNECT_PROG", "CVS_RSH",
    "PARALLEL", "BAT_PAGER", "DELTA_PAGER", "NODE_REPL_EXTERNAL_MODULE", "FZF_DEFAULT_COMMAND",
    # Interpreters and code a package manager loads: uv "Environment variables" UV_PYTHON (the interpreter uv
    # runs), pipx PIPX_DEFAULT_PYTHON; VIRTUAL_ENV (the environment uv uses; pip's "site" configuration is
    # $VIRTUAL_ENV/pip.conf); yarnpkg.com "Settings" YARN_PLUGINS (plugins loaded at every run),
    # YARN_INJECT_ENVIRONMENT_FILES; deno DENO_DIR (the cache of compiled modules it runs)
    "UV_PYTHON", "PIPX_DEFAULT_PYTHON", "VIRTUAL_ENV", "YARN_PLUGINS", "YARN_INJECT_ENVIRONMENT_FILES", "DENO_DIR",
    # Runtimes that load code a variable names before the program's own: .NET "Startup hooks"
    # (DOTNET_STARTUP_HOOKS: assemblies run before Main), "Profiling overview" (CORECLR_PROFILER,
    # CORECLR_PROFILER_PATH*, CORECLR_ENABLE_PROFILING: a native library loaded into every .NET process), the .NET
    # host's DOTNET_ROOT (the runtime run) and DOTNET_ADDITIONAL_DEPS; erl(1) ERL_AFLAGS, ERL_ZFLAGS, ERL_FLAGS
    # ("added to the command line": -eval, -s, -pa) and Elixir's ELIXIR_ERL_OPTIONS; mix(1) MIX_EXS ("the full path
    # to the mix.exs file": another project's code), MIX_HOME (the archives every mix run loads), MIX_PATH (code
    # paths); lua(1) LUA_INIT* ("executes" the chunk or @file before anything else), LUA_PATH*/LUA_CPATH* (where
    # require finds modules, shared libraries included); R "Startup" (R_PROFILE_USER, R_PROFILE: R code run at
    # start; R_ENVIRON_USER, R_ENVIRON name them; R_LIBS*: packages loaded); Julia "Environment Variables"
    # (JULIA_DEPOT_PATH: config/startup.jl runs; JULIA_LOAD_PATH: packages loaded); java(1) CLASSPATH (the class
    # path when -cp is not given), sbt's SBT_OPTS and JAVA_OPTS (-javaagent), ant(1) ANT_OPTS, ANT_ARGS (-lib,
    # -listener classes); GHC User's Guide "Setting RTS options with the GHCRTS environment variable" (-S<file>,
    # -ol<file> write files); cabal CABAL_DIR, stack STACK_ROOT (their config names compilers and programs run),
    # opam OPAMROOT (the switch whose compilers run); Android SDK ANDROID_HOME, ANDROID_SDK_ROOT (the build tools
    # Gradle runs); distcc(1) DISTCC_HOSTS (the machines sources are sent to); version managers' shim roots that
    # choose which program a shim runs (PYENV_ROOT, RBENV_ROOT, VOLTA_HOME, BAZELISK_HOME); perlrun PERL5DB (the
    # debugger code loaded).
    "DOTNET_STARTUP_HOOKS", "CORECLR_PROFILER", "CORECLR_ENABLE_PROFILING", "DOTNET_ROOT", "DOTNET_ADDITIONAL_DEPS",
    "ERL_AFLAGS", "ERL_ZFLAGS", "ERL_FLAGS", "ELIXIR_ERL_OPTIONS", "MIX_EXS", "MIX_HOME", "MIX_PATH",
    "R_PROFILE_USER", "R_PROFILE", "R_ENVIRON_USER", "R_ENVIRON", "JULIA_DEPOT_PATH", "JULIA_LOAD_PATH",
    "CLASSPATH", "SBT_OPTS", "ANT_OPTS", "ANT_ARGS", "GHCRTS", "CABAL_DIR", "STACK_ROOT", "OPAMROOT",
    "ANDROID_HOME", "ANDROID_SDK_ROOT", "DISTCC_HOSTS", "PYENV_ROOT", "RBENV_ROOT", "VOLTA_HOME", "BAZELISK_HOME",
    "PERL5DB",
    # HPC tools' module and configuration search paths: Lmod and Environment Modules (module(1) ENVIRONMENT:
    # MODULEPATH, the directories whose modulefiles, Tcl or Lua, ``module load`` evaluates; MODULERCFILE, the rc
    # files read first; MODULESHOME); Spack (``SPACK_`` below); HDF5 "HDF5 Dynamically Loaded Filters" and "VOL
    # connectors" (HDF5_PLUGIN_PATH, HDF5_VOL_CONNECTOR: shared libraries every HDF5 program loads); Snakemake
    # SNAKEMAKE_PROFILE (the profile whose settings are its options)
    "MODULEPATH", "MODULERCFILE", "MODULESHOME", "HDF5_PLUGIN_PATH", "HDF5_VOL_CONNECTOR", "SNAKEMAKE_PROFILE",
})  # fmt: skip
#: ``FLYBOT_``: FlyBot's own adapters (``flybot exec``, ``flybot ask``, a hook run from the shell) read their URL,
#: token and state directory from ``FLYBOT_URL``, ``FLYBOT_TOKEN``, ``FLYBOT_STATE_DIR``: set, they ask another server.
#: ``JUST_``: just reads its options from ``JUST_<OPTION>`` (``JUST_JUSTFILE``, ``JUST_WORKING_DIRECTORY``,
#: ``JUST_DOTENV_PATH``...: the justfile or environment its recipes run from); ``TOX_``: tox 4 "Set CLI flags via
#: environment variables" (``TOX_OVERRIDE``, ``TOX_CONFIG_FILE``, ``TOX_INSTALLPKG``); ``CARGO_ALIAS_``: cargo
#: "Configuration" ``[alias]`` keys as variables (``CARGO_ALIAS_T`` redefines ``cargo t``).
#: ``CORECLR_PROFILER_PATH``, ``_32``, ``_64``, ``_ARM64`` (.NET "Profiling overview"); ``LUA_INIT``, ``LUA_PATH``,
#: ``LUA_CPATH`` and their ``_5_4``... forms (lua(1)); ``R_LIBS``, ``R_LIBS_USER``, ``R_LIBS_SITE`` (R "Startup");
#: ``CCACHE_``: ccache(1) "Configuration" reads every setting from ``CCACHE_<KEY>`` (``CCACHE_PREFIX`` "a command
#: ... used as a prefix" to the compiler, ``CCACHE_COMPILER``, ``CCACHE_PATH``); ``BUNDLE_``: bundle-config(1)
#: "every configuration key" as ``BUNDLE_<KEY>`` (``BUNDLE_PATH``, ``BUNDLE_BUILD__<GEM>`` build options,
#: ``BUNDLE_MIRROR__<SOURCE>``); ``MISE_``, ``ASDF_``: the version managers' configuration (mise ``[env]`` ``_.source``
#: and hooks, ``MISE_CONFIG_FILE``; ``ASDF_DATA_DIR``: the plugins a shim runs); ``LMOD_``, ``MODULES_``: Lmod's
#: (``LMOD_RC``, ``LMOD_PACKAGE_PATH``: SitePackage.lua runs) and Environment Modules' (``MODULES_SITECONFIG``)
#: configuration; ``SPACK_``: Spack's (``SPACK_ENV``: the environment whose repositories install,
#: ``SPACK_USER_CONFIG_PATH``); ``OMPI_``, ``MPICH_``: the MPI wrappers' compilers (``OMPI_CC``, ``MPICH_CC``) and
#: Open MPI's MCA parameters (``OMPI_MCA_plm_rsh_agent``: the program that starts remote processes).
_HIJACK_PREFIXES = (
    "LD_", "DYLD_", "BASH_FUNC_", "GIT_CONFIG", "CARGO_BUILD_", "CARGO_TARGET_", "CARGO_ALIAS_", "CMAKE_", "FLYBOT_",
    "JUST_", "TOX_", "CORECLR_PROFILER_PATH", "LUA_INIT", "LUA_PATH", "LUA_CPATH", "R_LIBS", "CCACHE_", "BUNDLE_",
    "MISE_", "ASDF_", "LMOD_", "MODULES_", "SPACK_", "OMPI_", "MPICH_",
)  # fmt: skip
#: MSBuild "How to: Use environment variables in a build": "All environment variables ... are available as
#: properties", and property names are case-insensitive: these name files MSBuild imports or tools it runs
#: (MSBuild "Customize your build": ``CustomBeforeMicrosoftCommonTargets``, ``DirectoryBuildPropsPath``...;
#: "Common MSBuild project properties": ``CscToolPath``, ``CscToolExe``, ``MSBuildExtensionsPath``), so exported
#: they make every later ``dotnet build``/``msbuild`` run that code.
_MSBUILD_ENVIRONMENT = frozenset(
    name.lower()
    for name in (
        "CustomBeforeMicrosoftCommonTargets", "CustomAfterMicrosoftCommonTargets", "CustomBeforeMicrosoftCommonProps",
        "CustomAfterMicrosoftCommonProps", "CustomBeforeDirectoryBuildProps", "CustomAfterDirectoryBuildProps",
        "CustomBeforeDirectoryBuildTargets", "CustomAfterDirectoryBuildTargets", "DirectoryBuildPropsPath",
        "DirectoryBuildTargetsPath", "DirectoryPackagesPropsPath", "MSBuildExtensionsPath", "MSBuildExtensionsPath32",
        "MSBuildExtensionsPath64", "MSBuildUserExtensionsPath", "MSBuildSDKsPath", "CscToolPath", "CscToolExe",
        "VbcToolPath", "VbcToolExe", "FscToolPath", "FscToolExe", "DOTNET_HOST_PATH", "DotnetHostPath",
        "VSTestConsolePath", "RunCommand", "RunArguments", "MSBUILDADDITIONALSDKRESOLVERSFOLDER",
    )
)  # fmt: skip


# Variables whose value names a file the program later writes (appends to, or creates): exported, they make
# every later run of the program write there, in this call and, in an agent's persistent shell, in every later
# call. git(1) ENVIRONMENT VARIABLES "Debugging" (GIT_TRACE, GIT_TRACE_PACK_ACCESS, GIT_TRACE_PACKET,
# GIT_TRACE_PERFORMANCE, GIT_TRACE_SETUP, GIT_TRACE_SHALLOW, GIT_TRACE_CURL, GIT_TRACE_REFS, GIT_TRACE_FSMONITOR)
# and api-trace2 (GIT_TRACE2, GIT_TRACE2_EVENT, GIT_TRACE2_PERF: an absolute path is appended to, a directory gets a
# file per process, ``af_unix:[stream:|dgram:]PATH`` is a socket) and git(1) GIT_INDEX_FILE; bash(1) HISTFILE (the
# history is written there when the shell exits); less(1) LESSHISTFILE; node(1) NODE_REPL_HISTORY; python(1)
# PYTHON_HISTORY; psql(1) PSQL_HISTORY; mysql(1) MYSQL_HISTFILE; redis-cli REDISCLI_HISTFILE; sqlite3 SQLITE_HISTORY;
# the TLS key log of curl(1), OpenSSL-based clients and Python's ssl (SSLKEYLOGFILE); pip's options as variables
# (pip.pypa.io "Configuration", "Environment Variables": PIP_TARGET, PIP_PREFIX, PIP_ROOT, PIP_SRC, PIP_LOG,
# PIP_LOG_FILE: where a later ``pip install`` writes).
_WRITE_NAMES = frozenset({
    "GIT_INDEX_FILE", "HISTFILE", "LESSHISTFILE", "NODE_REPL_HISTORY", "PYTHON_HISTORY", "PSQL_HISTORY",
    "MYSQL_HISTFILE", "REDISCLI_HISTFILE", "SQLITE_HISTORY", "SSLKEYLOGFILE", "PIP_TARGET", "PIP_PREFIX", "PIP_ROOT",
    "PIP_SRC", "PIP_LOG", "PIP_LOG_FILE",
})  # fmt: skip
_WRITE_PREFIXES = ("GIT_TRACE",)
#: Values of git's trace variables that name no file (git(1) "Debugging": ``1``, ``2``, ``true`` print to stderr,
#: 3 to 9 are an open file descriptor; ``0``, ``false`` or empty turn tracing off).
_TRACE_NO_FILE = frozenset({"", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "true", "false"})
# Variables that choose where packages come from or whether their downloads can be intercepted (a proxy, a CA
# bundle, TLS checking off): exported, every later install may run another source's code, as a ``config set`` of the
# registry does (programs/build.py ``_NPM_SOURCE_KEYS``/``_PIP_SOURCE_KEYS``). pip.pypa.io "Configuration" (PIP_<OPTION>:
# index-url, extra-index-url, find-links, trusted-host, cert, client-cert, proxy, index, no-index, config-file);
# docs.astral.sh/uv "Environment variables" (UV_INDEX, UV_INDEX_URL, UV_DEFAULT_INDEX, UV_EXTRA_INDEX_URL,
# UV_FIND_LINKS, UV_INSECURE_HOST, UV_CONFIG_FILE, UV_PYTHON_INSTALL_MIRROR, UV_PYPY_INSTALL_MIRROR); yarnpkg.com
# "Settings" (berry reads every setting as YARN_<SETTING>: npmRegistryServer, npmPublishRegistry,
# unsafeHttpWhitelist, httpProxy, httpsProxy, enableStrictSsl, caFilePath, httpsCaFilePath) and yarn v1's
# YARN_REGISTRY; bun BUN_CONFIG_REGISTRY; cargo "Environment Variables" / "Configuration" (CARGO_REGISTRIES_<NAME>_INDEX,
# CARGO_REGISTRY_DEFAULT, CARGO_HTTP_PROXY, CARGO_HTTP_CAINFO, CARGO_HTTP_CHECK_REVOKE); poetry "Configuration"
# (POETRY_REPOSITORIES_*, POETRY_CERTIFICATES_*); pipenv PIPENV_PYPI_MIRROR; bundle-config(1) BUNDLE_MIRROR__*;
# conda "Configuration" (CONDA_CHANNELS, CONDA_CHANNEL_ALIAS, CONDA_DEFAULT_CHANNELS, CONDA_SSL_VERIFY); gem(1) GEMRC;
# mix hex HEX_MIRROR; curl(1)/libcurl, Python requests and Node.js proxies and trust (HTTP_PROXY, HTTPS_PROXY,
# ALL_PROXY, SSL_CERT_FILE, SSL_CERT_DIR, CURL_CA_BUNDLE, REQUESTS_CA_BUNDLE, NODE_EXTRA_CA_CERTS,
# NODE_TLS_REJECT_UNAUTHORIZED), git(1) GIT_SSL_NO_VERIFY, git-config(1) http.sslCAInfo/sslCAPath as
# GIT_SSL_CAINFO/GIT_SSL_CAPATH; PEP 493 PYTHONHTTPSVERIFY. npm's npm_config_* and Go's GOPROXY, GOSUMDB, GOINSECURE are
# in ``_HIJACK_NAMES`` (destructive in any use).
_SOURCE_NAMES = frozenset({
    "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_TRUSTED_HOST", "PIP_CERT", "PIP_CLIENT_CERT",
    "PIP_PROXY", "PIP_INDEX", "PIP_NO_INDEX", "PIP_CONFIG", "UV_INDEX", "UV_INDEX_URL", "UV_DEFAULT_INDEX",
    "UV_EXTRA_INDEX_URL", "UV_FIND_LINKS", "UV_INSECURE_HOST", "UV_CONFIG_FILE", "UV_PYTHON_INSTALL_MIRROR",
    "UV_PYPY_INSTALL_MIRROR", "YARN_NPM_REGISTRY_SERVER", "YARN_NPM_PUBLISH_REGISTRY", "YARN_UNSAFE_HTTP_WHITELIST",
    "YARN_HTTP_PROXY", "YARN_HTTPS_PROXY", "YARN_ENABLE_STRICT_SSL", "YARN_CA_FILE_PATH", "YARN_HTTPS_CA_FILE_PATH",
    "YARN_REGISTRY", "BUN_CONFIG_REGISTRY", "CARGO_REGISTRY_DEFAULT", "PIPENV_PYPI_MIRROR", "CONDA_CHANNELS",
    "CONDA_CHANNEL_ALIAS", "CONDA_DEFAULT_CHANNELS", "CONDA_SSL_VERIFY", "GEMRC", "HEX_MIRROR", "HTTP_PROXY",
    "HTTPS_PROXY", "ALL_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE",
    "NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED", "GIT_SSL_NO_VERIFY", "GIT_SSL_CAINFO", "GIT_SSL_CAPATH",
    "PYTHONHTTPSVERIFY",
    # conda "Using the .condarc conda configuration file" (CONDARC: the file read, its channels; CONDA_PREFIX: the
    # environment's .condarc is in the search path); poetry "Configuration" (POETRY_CONFIG_DIR: config.toml, its
    # repositories); pdm "Configuration" PDM_PYPI_URL; corepack(8) COREPACK_NPM_REGISTRY (where yarn and pnpm
    # themselves come from); nvm NVM_NODEJS_ORG_MIRROR (node builds); brew(1) HOMEBREW_BOTTLE_DOMAIN,
    # HOMEBREW_API_DOMAIN, HOMEBREW_ARTIFACT_DOMAIN (download mirrors)
    "CONDARC", "CONDA_PREFIX", "POETRY_CONFIG_DIR", "PDM_PYPI_URL", "COREPACK_NPM_REGISTRY", "NVM_NODEJS_ORG_MIRROR",
    "HOMEBREW_BOTTLE_DOMAIN", "HOMEBREW_API_DOMAIN", "HOMEBREW_ARTIFACT_DOMAIN",
})  # fmt: skip
#: cargo "Configuration", "Environment variables": every key is read as CARGO_<KEY>: ``source.<name>.replace-with``
#: and the source's ``registry``/``directory``/``local-registry`` (CARGO_SOURCE_*) choose where crates come from.
_SOURCE_PREFIXES = (
    "CARGO_REGISTRIES_",
    "CARGO_HTTP_",
    "CARGO_SOURCE_",
    "POETRY_REPOSITORIES_",
    "POETRY_CERTIFICATES_",
    "BUNDLE_MIRROR__",
)


def written_by_environment(name: str, value: str | None) -> str | None:
    """The file a program writes when ``name`` is in its environment with ``value`` (:data:`_WRITE_NAMES`; for
    git's trace variables not a value naming no file, :data:`_TRACE_NO_FILE`), ``""`` when the value is only known
    when it runs, or None when ``name`` names no file to write."""
    if name not in _WRITE_NAMES and not name.startswith(_WRITE_PREFIXES):
        return None
    if value is None:
        return ""
    if name.startswith(_WRITE_PREFIXES):
        if value.lower() in _TRACE_NO_FILE:
            return None
        for socket in ("af_unix:stream:", "af_unix:dgram:", "af_unix:"):
            if value.startswith(socket):
                return value[len(socket) :]
    return value or None


#: Variables that choose the engine docker or podman talks to, or the client's configuration directory (its
#: ``cli-plugins`` run as docker subcommands): docker(1) "Environment variables" ``DOCKER_HOST``, ``DOCKER_CONTEXT``,
#: ``DOCKER_CONFIG``; podman-remote(1) ``CONTAINER_HOST``, ``CONTAINER_CONNECTION``.
_ENGINE_CHOOSERS = frozenset(
    {"DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG", "CONTAINER_HOST", "CONTAINER_CONNECTION"}
)
#: Variables that send a stored token to the server they name: vault(1) "Environment variables" ``VAULT_ADDR``
#: (the token from ``~/.vault-token`` goes in every request's ``X-Vault-Token``); helm(1) ``HELM_KUBEAPISERVER``,
#: ``HELM_KUBEINSECURE_SKIP_TLS_VERIFY``, ``HELM_KUBECAFILE`` (as kubectl ``--server``, bot/risk/meaning.py);
#: gcloud topic configurations ``CLOUDSDK_API_ENDPOINT_OVERRIDES_*`` (the access token goes to that endpoint).
_TOKEN_DESTINATIONS = frozenset(
    {"VAULT_ADDR", "HELM_KUBEAPISERVER", "HELM_KUBEINSECURE_SKIP_TLS_VERIFY", "HELM_KUBECAFILE"}
)
_TOKEN_DESTINATION_PREFIXES = ("CLOUDSDK_API_ENDPOINT_OVERRIDES_",)
#: Variables that switch the account, profile, project, cluster context or endpoint every later cloud command of
#: this shell acts on (among the owner's own configured ones, or credentials given outright): AWS CLI User Guide
#: "Environment variables to configure the AWS CLI" (``AWS_PROFILE``, ``AWS_DEFAULT_PROFILE``, ``AWS_ACCESS_KEY_ID``,
#: ``AWS_SECRET_ACCESS_KEY``, ``AWS_SESSION_TOKEN``, ``AWS_ROLE_ARN``, ``AWS_WEB_IDENTITY_TOKEN_FILE``,
#: ``AWS_ENDPOINT_URL`` and ``AWS_ENDPOINT_URL_<SERVICE>``, ``AWS_CA_BUNDLE``); gcloud topic configurations
#: (``CLOUDSDK_ACTIVE_CONFIG_NAME``, ``CLOUDSDK_<SECTION>_<PROPERTY>``: ``CLOUDSDK_CORE_ACCOUNT``,
#: ``CLOUDSDK_CORE_PROJECT``, ``CLOUDSDK_AUTH_IMPERSONATE_SERVICE_ACCOUNT``, ``CLOUDSDK_AUTH_ACCESS_TOKEN_FILE``);
#: Azure CLI "CLI configuration" (``AZURE_DEFAULTS_*`` as ``az config``, ``AZURE_CORE_*``); helm(1)
#: ``HELM_KUBECONTEXT``, ``HELM_KUBETOKEN``, ``HELM_KUBEASUSER``, ``HELM_KUBEASGROUPS``; terraform "Environment
#: Variables" ``TF_WORKSPACE``. Exported, they are ``system`` (rule ``account-switch``): a standing approval for a
#: cloud command then acts on another account, so the owner sees the switch. Region variables stay read-only.
_ACCOUNT_SWITCHES = frozenset({
    "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
    "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ENDPOINT_URL", "AWS_CA_BUNDLE", "CLOUDSDK_ACTIVE_CONFIG_NAME",
    "CLOUDSDK_CORE_ACCOUNT", "CLOUDSDK_CORE_PROJECT", "CLOUDSDK_AUTH_IMPERSONATE_SERVICE_ACCOUNT",
    "CLOUDSDK_AUTH_ACCESS_TOKEN_FILE", "HELM_KUBECONTEXT", "HELM_KUBETOKEN", "HELM_KUBEASUSER", "HELM_KUBEASGROUPS",
    "TF_WORKSPACE",
})  # fmt: skip
_ACCOUNT_SWITCH_PREFIXES = ("AWS_ENDPOINT_URL_", "AZURE_DEFAULTS_", "AZURE_CORE_")
#: The engine docker talks to when nothing chooses another (docker(1) ``DOCKER_HOST``).
_DEFAULT_ENGINE = "unix:///var/run/docker.sock"


def chooses_package_source(name: str) -> bool:
    """True when ``name`` in the environment changes where package managers get packages or lets their downloads
    be intercepted (:data:`_SOURCE_NAMES`); proxies are read in either case (curl(1) ENVIRONMENT)."""
    upper = name.upper() if name.lower() in ("http_proxy", "https_proxy", "all_proxy") else name
    return upper in _SOURCE_NAMES or upper.startswith(_SOURCE_PREFIXES)


def _trackable(value: str | None) -> bool:
    """A literal value whose reading is certain: non-empty, without quotes, expansions, backslashes or blanks
    (which word splitting would cut)."""
    return bool(value) and not any(c in (value or "") for c in "\"'$`\\ \t\n")


#: GNU make manual "Options Summary" and "Communicating Options to a Sub-make": make reads MAKEFLAGS (and
#: GNUMAKEFLAGS, MFLAGS) from the environment as options given first. These set only parallelism (``-j [N]``,
#: ``--jobs[=N]``, ``-l [N]``, ``--load-average[=N]``), output (``-s``/``--silent``/``--quiet``, ``--no-silent``,
#: ``-w``/``--print-directory``, ``--no-print-directory``, ``-O[TYPE]``/``--output-sync[=TYPE]``) and whether make
#: goes on after an error (``-k``/``--keep-going``, ``-S``/``--no-keep-going``/``--stop``): they choose no makefile,
#: directory, variable or program (``-f``, ``-C``, ``-I``, ``--eval``, ``-e``, ``NAME=VALUE`` all do).
_MAKE_FLAG_VARIABLES = frozenset({"MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS"})
_HARMLESS_MAKE_FLAG = re.compile(
    r"-[ksSw]*(?:j\d*|l(?:\d+(?:\.\d+)?)?|O(?:line|target|recurse|none)?)?"
    r"|--(?:jobs(?:=\d+)?|load-average(?:=\d+(?:\.\d+)?)?|max-load(?:=\d+(?:\.\d+)?)?|silent|quiet|no-silent"
    r"|print-directory|no-print-directory|output-sync(?:=(?:line|target|recurse|none))?|keep-going|no-keep-going"
    r"|stop)"
)


def harmless_value(name: str, value: str | None) -> bool:
    """True when ``value`` given to ``name`` is known to change nothing that runs: a make flags variable
    (:data:`_MAKE_FLAG_VARIABLES`) holding only options of :data:`_HARMLESS_MAKE_FLAG` (``MAKEFLAGS=-j4``), or
    nothing. A value only known when it runs, a word without a leading ``-`` (make reads a first word of letters as
    options: ``MAKEFLAGS=f/tmp/x`` is ``-f /tmp/x``) or any other option is not."""
    if name not in _MAKE_FLAG_VARIABLES or value is None:
        return False
    words = value.split()
    index = 0
    while index < len(words):
        word = words[index]
        if word == "-" or not _HARMLESS_MAKE_FLAG.fullmatch(word):
            return False
        index += 1
        if word.endswith(("j", "l")) and index < len(words) and re.fullmatch(r"\d+(?:\.\d+)?", words[index]):
            index += 1  # ``-j 4``: the option's number as the next word
    return True


def hijacks_environment(name: str) -> bool:
    """True when assigning ``name`` can change which program runs (see ``_HIJACK_NAMES``)."""
    return (
        name in _HIJACK_NAMES
        or name.startswith(_HIJACK_PREFIXES)
        or name[:11].lower() == "npm_config_"
        or name.lower() in _MSBUILD_ENVIRONMENT
    )


def environment_risk(name: str) -> str | None:
    """Why putting ``name`` in a program's environment (``NAME=v cmd``, ``env NAME=v cmd``, ``export NAME``) is
    destructive, or None for an inert name (:data:`~bot.risk.recipes.INERT_ENVIRONMENT`): programs read their own
    variables (a wrapper, an agent, a configuration home), and only the inert ones are known not to change what runs."""
    if hijacks_environment(name):
        return f"Setting {name} changes which program runs or what it runs."
    if inert_environment(name):
        return None
    return f"{name} is put in a program's environment: only names known to change output, colour, locale or time zone are graded as harmless."


def has_code(value: str) -> bool:
    """True when a literal string holds shell code that a later evaluation would run."""
    return "$(" in value or "`" in value


class UnsafeToParse(ValueError):
    """The text is of a kind that crashes the bash parser (:data:`PARSER_CRASH`); it was not parsed."""


#: Text tree-sitter-bash 0.25.1 must not see: ``{``, optional ASCII digits, optionally ``..``
#: and digits, then a character above U+00FF (UTF-8 lead byte 0xC4 or more). Its scanner (src/scanner.c, the
#: ``brace_start`` label) passes that character to C ``isdigit()``, whose table covers -128..255 only: the read goes
#: out of bounds, and far enough (emoji and other characters beyond U+FFFF) it kills the process with SIGSEGV
#: (tree-sitter/tree-sitter-bash#337; ``{`` U+10FFFF crashes about half of fresh runs). A crashed adapter exits
#: with a signal status that Claude Code treats as a non-blocking error -- the command would run -- and a crashed
#: server drops every request. Matching bytes anywhere (not only where a brace expression may start) is a superset.
PARSER_CRASH = re.compile(rb"\{[0-9]*(?:\.\.[0-9]*)?[\xc4-\xff]")


def parse(src: bytes) -> Node:
    """Parse ``src`` with this thread's reused tree-sitter Parser; returns the root node.

    Raises:
        UnsafeToParse: ``src`` matches :data:`PARSER_CRASH` (it would crash the process); nothing was parsed.
    """
    if b"{" in src and PARSER_CRASH.search(src):
        raise UnsafeToParse("the text would crash the bash parser")
    try:
        parser: Parser = _LOCALS[0].parser
    except (IndexError, AttributeError):
        parser = _new_parser()
    return parser.parse(src).root_node


def _new_parser() -> Parser:
    """A tree-sitter Parser for bash; the grammar is loaded on the first call (the adapters' fast path grades plain
    commands without it: :func:`plain_words`)."""
    import threading

    from tree_sitter import Language, Parser

    if not _LOCALS:  # two threads racing may both append: all use the first
        _LOCALS.append(threading.local())
    if not _LANGUAGE:
        import tree_sitter_bash

        _LANGUAGE.append(Language(tree_sitter_bash.language()))
    parser = _LOCALS[0].parser = Parser(_LANGUAGE[0])
    return parser


# A script of plain words: simple commands whose words need no quote removal or expansion, separated by single
# spaces (no quotes, backslashes, $, backticks, globs, braces, ~, #, redirects), joined by standalone |, && and ||.
# An argument (not a command's first word) may also be one quoted string of printable ASCII standing alone:
# 'fix the parser' (bash takes its text literally, bash(1) QUOTING "Single Quotes"; a `raw_string` node) or
# "fix the parser" without $, `, \ or " inside and not blanks only (nothing in it is special, bash(1) QUOTING
# "Double Quotes"; a `string` node of one `string_content`); its value is the text between the quotes.
# tree-sitter-bash parses such text as pipelines and lists of `command`s of `word`/`number`/string nodes, and
# each word's value is known without the tree, so the parse and the tree walk are skipped (walk_plain does what the
# walk would do).
_WORD = r"[A-Za-z0-9_./:=@%+,-]+"
# Not a double-quoted string of blanks only: tree-sitter-bash 0.25 gives `" "` no `string_content`, so the walk reads
# its value as empty; the walk keeps such strings.
_QUOTED = r"'[ -&(-~]*'" + r'|"(?: *[!#%-\[\]-_a-~][ !#%-\[\]-_a-~]*)?"'
_PLAIN_SCRIPT = re.compile(rf"{_WORD}(?: (?:{_WORD}|{_QUOTED}|\|\||&&|\|))*")
_TOKEN = Regex(rf"{_WORD}|{_QUOTED}|\|\||&&|\|")
_OPERATORS = frozenset({"|", "&&", "||"})
_QUOTES = "'\""
_RESERVED = frozenset({
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do", "done", "in", "function",
    "select", "coproc", "time", "export", "declare", "local", "readonly", "typeset", "unset",
})  # fmt: skip


def plain_words(text: str) -> list[list[tuple[str, list[str]]]] | None:
    """``text`` as pipelines of plain-word commands joined by `` && ``/`` || ``, when it is only that, else None.

    Returns ``[[(operator, words), ...], ...]``: one list per pipeline, each command with the operator before it
    (``""``, ``"|"``, ``"&&"``, ``"||"``); each word as written (a quoted argument keeps its quotes).
    Operators must stand alone between single spaces; the first word of a command must not be quoted, a reserved
    word or an assignment (``NAME=value``): those parse differently.
    """
    if _PLAIN_SCRIPT.fullmatch(text) is None:
        return None
    pipelines: list[list[tuple[str, list[str]]]] = [[]]
    words: list[str] = []
    operator = ""
    for token in text.split(" ") if "'" not in text and '"' not in text else _TOKEN.findall(text):
        if token in _OPERATORS:
            if not words or words[0] in _RESERVED or "=" in words[0] or words[0][0] in _QUOTES:
                return None
            pipelines[-1].append((operator, words))
            if token != "|":
                pipelines.append([])
            words, operator = [], token
        else:
            words.append(token)
    if not words or words[0] in _RESERVED or "=" in words[0] or words[0][0] in _QUOTES:
        return None
    pipelines[-1].append((operator, words))
    if any(len(pipeline) > 2 for pipeline in pipelines[:-1]):
        return None  # tree-sitter-bash 0.25 nests `a | b | c && d` as `a | (b | c && d)`: keep its reading (the walk)
    return pipelines


def walk_plain(g: Grader, scope: Scope, text: str, pipelines: list[list[tuple[str, list[str]]]]) -> None:
    """Grade pipelines of plain words (:func:`plain_words`) exactly as the walk of their parse tree would,
    without parsing them: pipeline elements run in subshells (a ``cd`` there does not carry on, ``echo WORDS |`` feeds
    the next one), and ``cd DIR && next`` makes DIR certain for what follows."""
    for pipeline in pipelines:
        operator = pipeline[0][0]
        if operator == "&&" and g.direct_cd is not None and g.direct_cd[0] == -1:
            g.cd_certain(g.direct_cd[3])
        elif operator != "&&":
            g.cd_chain_ended()
        if len(pipeline) == 1:
            _plain_command(g, scope, pipeline[0][1], None)
            continue
        feed: str | None = None
        elements: list[list[str | None]] = []
        g.concurrent += 1  # every element runs while the others do
        try:
            for _op, tokens in pipeline:
                saved = g.state
                words = _plain_command(
                    g, scope, tokens, feed, stream(elements) if elements else None, piped=bool(elements)
                )
                g.state = saved
                feed = pipe_text([word.value or "" for word in words])
                elements.append([word.value for word in words])
        finally:
            g.concurrent -= 1
        g.direct_cd = None if g.direct_cd is None else (-2, 0, 0, g.direct_cd[3])
    g.cd_chain_ended()


#: How xargs splits its input into items (xargs(1): "blanks and newlines"; ``-0`` NULs, ``-d`` a delimiter, taken as
#: blanks here: splitting more only adds items to check); the most items of a here-string or here-document checked.
_FED_SPLIT = re.compile(r"[\s\0]+")
_FED_ITEMS = 64


def _xargs_options(words: list[Word]) -> list[str | None]:
    """The words of ``xargs OPTIONS PROGRAM ...`` before its program (``words`` with ``xargs`` first)."""
    out: list[str | None] = []
    for word in words[1:]:
        if word.value is None or not word.value.startswith("-"):
            if out and out[-1] in ("-a", "--arg-file"):
                out.append(word.value)
                continue
            break
        out.append(word.value)
    return out


def _runner_program(runner: str, words: list[str | None]) -> str | None:
    """The program ``xargs`` or GNU ``parallel`` (``runner``) runs given its arguments ``words``, past the options
    each one reads (listing.xargs_program; wrappers.parallel_command: ``parallel -j 4 cat``), or None when unknown."""
    if runner != "parallel":
        return xargs_program(words)
    from bot.risk.programs.wrappers import parallel_command

    start = parallel_command(words)
    if start is None or start >= len(words) or words[start] is None:
        return None
    return posixpath.basename(words[start] or "")


def _xargs_reads(g: Grader, rec: Rec, scope: Scope, words: list[Word], names_in: str | None) -> bool:
    """``xargs READER`` (or GNU ``parallel READER``, which also runs it once per input line, parallel(1)) fed names
    that may include a credential file (``names_in``, listing.stream): the reader prints it: ``network``
    (``secret-read``, never covered). True when so flagged."""
    if not words or words[0].value is None or posixpath.basename(words[0].value) not in ("xargs", "parallel"):
        return False
    runner = posixpath.basename(words[0].value)
    if (
        runner == "xargs"
        and names_in is None
        and any(  # xargs(1) -a FILE: the names are a file's lines, any path
            v is not None and (v in ("-a", "--arg-file") or v.startswith(("--arg-file=", "-a")))
            for v in _xargs_options(words)
        )
    ):
        names_in = ANY_PATH
    if names_in is None:
        return False
    reader = _runner_program(runner, [w.value for w in words[1:]])
    if reader not in CONTENT_READERS:
        return False
    names_in = tracked_names(g, rec, scope) if names_in == TRACKED else names_in
    if names_in is None:
        return False
    g.flag(
        rec,
        scope,
        R.NETWORK,
        "secret-read",
        f"{runner} {reader} prints the files named on its input, which may include a file holding {names_in}: "
        "its output goes to the model.",
    )
    return True


def tracked_names(g: Grader, rec: Rec, scope: Scope) -> str | None:
    """What secret file a listing of the repository's tracked files (listing.TRACKED: ``git ls-files``) names: the
    first one the recipe book reports the index tracking (settings question ``tracked``), or None."""
    from bot.risk.grader import Call
    from bot.risk.programs.projects import configured_options
    from bot.risk.settings import TRACKED as QUESTION

    lines = configured_options(Call(g, rec, scope, "git", []), "git", "git ls-files", QUESTION)
    if not lines:
        return None
    path, _, what = lines[0].partition(": ")
    return f"{what} ({shorten(path, 60)}, which the repository tracks)"


def _plain_command(
    g: Grader, scope: Scope, tokens: list[str], feed: str | None, names_in: str | None = None, piped: bool = False
) -> list[Word]:
    words = [Word(token[1:-1], token) if token[0] in _QUOTES else Word(token, token) for token in tokens]
    rec = Rec(words, " ".join(tokens))
    rec.stdin = feed
    rec.null_stdin = feed == ""  # ``true | tee f`` reads nothing
    rec.fed = piped or feed is not None
    g.direct_cd = None
    for word in words[1:]:
        value = word.value or ""
        if ("tcp" in value or "udp" in value) and names_socket(word):
            g.flag(rec, scope, R.NETWORK, "network-socket", _socket_detail(word.src))
    g.last_cd = None
    g.records.append((rec, scope))
    g.dispatch(rec, scope)
    _xargs_reads(g, rec, scope, words, names_in)
    if g.last_cd is not None and words[0].value == "cd" and not rec.wrappers and scope.repeat == 0:
        g.direct_cd = (-1, 0, 0, g.last_cd)  # a cd of a nested script (bash -c 'cd x') moves another shell
    return words


#: Commands that print nothing, so a ``>`` redirect of theirs only empties its file: ``:``, ``true``, ``false``
#: (bash(1) SHELL BUILTIN COMMANDS), ``cat /dev/null``, ``echo -n`` without words, ``printf ''``. ``echo`` alone
#: writes a newline: a write, not an emptying.
_PRINTS_NOTHING = (
    (":",),
    ("true",),
    ("false",),
    ("cat", "/dev/null"),
    ("echo", "-n"),
    ("echo", "-n", ""),
    ("printf", ""),
)


#: Wrappers that run their command with the same standard output: ``sudo``, ``env``, ``command``, ``builtin``,
#: ``nice``, ``nohup``, ``exec`` (no options), ``timeout DURATION``.
_SAME_OUTPUT = {"sudo": 1, "env": 1, "command": 1, "builtin": 1, "nice": 1, "nohup": 1, "exec": 1, "timeout": 2}


def prints_nothing(words: list[Word]) -> bool:
    """True when the simple command ``words`` prints nothing (:data:`_PRINTS_NOTHING`; no words: a redirect
    alone, ``> f``), also through the wrappers of :data:`_SAME_OUTPUT`, so a truncating redirect on it only empties
    its file."""
    values = tuple(w.value for w in words)
    while values and values[0] in _SAME_OUTPUT and len(values) > _SAME_OUTPUT[values[0] or ""]:
        if values[:2] == ("nice", "-n") and len(values) > 3:
            values = values[3:]
            continue
        values = values[_SAME_OUTPUT[values[0] or ""] :]
        while values and values[0] is not None and "=" in values[0] and words[0].value == "env":
            values = values[1:]  # env NAME=VALUE ...
    return not values or values in _PRINTS_NOTHING


def pipe_text(words: list[str]) -> str | None:
    """What the literal command ``words`` writes into a pipe: ``echo`` of literal words (:func:`echo_text`), nothing
    (``""``) for a command that prints nothing (:func:`prints_nothing`: ``true``, ``:``, ``printf ''``), else None
    (unknown)."""
    if words and words[0] == "echo":
        return echo_text(words)
    return "" if words and prints_nothing([Word(w, w) for w in words]) else None


def echo_text(words: list[str]) -> str | None:
    """What ``echo WORDS`` prints when the words are literal and hold no backslash (``xpg_echo`` could
    interpret it) and no ``-e``; None otherwise. Source: bash(1) SHELL BUILTIN COMMANDS, echo."""
    if not words or words[0] != "echo" or any("\\" in word for word in words):
        return None
    args = list(words[1:])
    newline = "\n"
    while args and args[0] in ("-n", "-E", "-nE", "-En"):
        if "n" in args.pop(0):
            newline = ""
    if args and args[0].startswith("-") and set(args[0][1:]) <= set("neE"):
        return None
    return " ".join(args) + newline


def _socket_detail(subject: str) -> str:
    return f"{shorten(subject, 60)} names a bash network socket (/dev/tcp, /dev/udp): a connection to another machine."


def walk_script(g: Grader, parent: Rec | None, scope: Scope, text: str) -> None:
    """Parse ``text`` and grade it into ``g``; findings about the script itself go on ``parent``.

    ``parent`` is None for the escalation's own script. Never raises for bad input:
    syntax errors, empty scripts and too-deep nesting become destructive findings.
    """
    subject = parent.text if parent is not None else text
    if scope.depth > MAX_DEPTH:
        _script_flag(g, parent, scope, subject, "too-deep", "Scripts nested this deep are not graded.")
        return
    src = text.encode("utf-8", "surrogatepass")
    try:
        root = parse(src)
    except UnsafeToParse:
        _script_flag(
            g,
            parent,
            scope,
            subject,
            "unparseable-text",
            "It has { followed by a character beyond U+00FF, which crashes the bash parser FlyBot uses "
            "(tree-sitter-bash #337): not graded, a person must read it.",
        )
        return
    if _is_empty(root):
        _script_flag(
            g, parent, scope, subject, "empty-command", "An empty script (nothing but blanks or comments) is refused."
        )
        return
    gaps = _herestring_gaps(root) if root.has_error else None
    if root.has_error and gaps is None:
        where = _first_error(root)
        detail = "The script does not parse as bash"
        if where is not None:
            detail += f" (near byte {where.start_byte}: {shorten(node_text(where, src), 40)!r})"
        _script_flag(g, parent, scope, subject, "parse-error", detail + ".")
    for why in misreadings(root, src):
        _script_flag(g, parent, scope, subject, "misread", why)
    walk = _Walk(g, src)
    if gaps:
        walk.gaps = gaps
    if parent is None:
        walk.visit(root, scope)
        return
    values = g.values  # a nested script (bash -c, eval, a recipe line) is graded knowing no value
    g.values = {}
    outer, g.cd_fallback = g.cd_fallback, None  # its && chains end in it; the outer one goes on
    try:
        walk.visit(root, scope)
    finally:
        g.cd_fallback = outer
    g.values = values
    walk.forget_all()  # eval and source run it in this shell: it may have assigned any name


def walk_nested(g: Grader, parent: Rec | None, scope: Scope, text: str) -> None:
    """:func:`walk_script` for a nested script (``bash -c '...'``, a recipe line), with the plain-words path.

    A script of plain words (:func:`plain_words`) is graded by :func:`walk_plain`, as the top-level script is;
    anything else is parsed and walked. A plain script's closing ``cd`` is not taken for the outer script's:
    its marker is changed to one that matches nothing, as the walk's own marker (the inner text's id) never
    matches the outer script's commands.
    """
    outer, g.cd_fallback = g.cd_fallback, None  # the nested script's && chains end in it; the outer one goes on
    try:
        _walk_nested(g, parent, scope, text)
    finally:
        g.cd_fallback = outer


def _walk_nested(g: Grader, parent: Rec | None, scope: Scope, text: str) -> None:
    plain = plain_words(text) if scope.depth <= MAX_DEPTH else None
    if plain is None:
        walk_script(g, parent, scope, text)
        return
    walk_plain(g, scope, text, plain)
    if g.direct_cd is not None and g.direct_cd[0] == -1:
        g.direct_cd = (-3, 0, 0, g.direct_cd[3])


def _read_write_redirect(node: Node) -> bool:
    """``node`` is the ERROR tree-sitter-bash 0.25 makes of the ``>`` of a read-write redirect ``[n]<>WORD``
    (bash(1) "Opening File Descriptors for Reading and Writing"): a lone ``>`` right after the ``<`` of a file
    redirect (``3< >f``, with a blank between, is a syntax error and stays one)."""
    before = node.prev_sibling
    parent = node.parent
    return (
        node.child_count == 1
        and node.children[0].type == ">"
        and parent is not None
        and parent.type == "file_redirect"
        and before is not None
        and before.type == "<"
        and before.end_byte == node.start_byte
        and node.next_sibling is not None
    )


def _herestring_gaps(root: Node) -> frozenset[tuple[int, int]] | None:
    """The here-strings tree-sitter-bash 0.25 cannot parse after a file redirect, or None.

    ``cat > file <<< 'x'`` is valid bash (bash(1) "Here Strings": a redirection like any
    other, in any position), but the grammar parses it as an ERROR ``<<`` followed by a
    ``< 'x'`` file redirect. When every error in the tree is exactly that shape, or the ``>`` of a read-write
    redirect ``<>`` (:func:`_read_write_redirect`, graded as ``<>`` by ``_Walk.redirect``), the
    script is graded (the ``<`` redirect counts as the here-string it is, see
    ``_Walk.stdin_of``); returns the (start, end) bytes of those redirects (none for ``<>`` alone). Any other
    error: None (the script stays a parse error, destructive).
    """
    found: set[tuple[int, int]] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            return None
        if node.type == "ERROR" and _read_write_redirect(node):
            continue
        if node.type == "ERROR":
            after = node.next_sibling
            parent = node.parent
            if (
                node.child_count != 1
                or node.children[0].type != "<<"
                or parent is None
                or parent.type != "redirected_statement"
                or after is None
                or after.type != "file_redirect"
                or after.start_byte != node.end_byte
                or after.child_count != 2
                or after.children[0].type != "<"
            ):
                return None
            found.add((after.start_byte, after.end_byte))
            continue
        stack.extend(child for child in node.children if child.has_error or child.is_missing)
    return frozenset(found)


def _is_empty(root: Node) -> bool:
    if root.named_child_count == 0:
        return True
    first = root.named_child(0)
    if first is None or first.type != "comment":
        return False
    return all(child.type == "comment" for child in root.named_children)


def _script_flag(g: Grader, parent: Rec | None, scope: Scope, subject: str, rule: str, detail: str) -> None:
    if parent is None:
        g.orphan(scope, subject, R.DESTRUCTIVE, rule, detail)
    else:
        g.flag(parent, scope, R.DESTRUCTIVE, rule, detail)


def _first_error(node: Node) -> Node | None:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "ERROR" or current.is_missing:
            return current
        stack.extend(reversed([c for c in current.children if c.has_error or c.is_missing]))
    return None


def _rightmost(node: Node) -> Node | None:
    """The last statement of a list or pipeline (the one a trailing redirect belongs to)."""
    current: Node | None = node
    while current is not None and current.type in ("list", "pipeline"):
        named = [c for c in current.children if c.is_named and c.type != "comment"]
        current = named[-1] if named else None
    return current


class _Walk:
    """One script's walk: ``src`` is the UTF-8 text its tree came from."""

    __slots__ = ("g", "src", "attached", "pipe_in", "gaps", "names_in", "piped", "listing_reads")

    def __init__(self, g: Grader, src: bytes) -> None:
        self.g = g
        self.src = src
        self.attached: dict[tuple[int, int], list[Node]] = {}
        self.pipe_in: str | None = None  # what ``echo LITERAL |`` feeds the next pipeline element
        self.piped = False  # the next command is a pipeline element after the first (its input is a pipe)
        self.gaps: frozenset[tuple[int, int]] = frozenset()  # see _herestring_gaps
        self.names_in: str | None = None  # the credential file the names piped into the next element may include
        #: ``read`` commands (by their span) in the condition of a loop fed such names (:meth:`read_listed`)
        self.listing_reads: set[tuple[int, int]] = set()

    def text(self, node: Node) -> str:
        """The source text of ``node``."""
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def visit(self, node: Node, scope: Scope) -> None:
        """Grade ``node`` and everything under it, by kind (see the kind tables above)."""
        kind = node.type
        if kind in ("case_statement", "arithmetic_expansion") or (
            kind == "compound_statement" and node.children and node.children[0].type == "(("
        ):
            self.compared_secrets(node, scope)
        if kind == "command":
            self.command(node, scope, [])
        elif kind in _LEAVES:
            return
        elif kind == "program":
            for child in node.children:
                if child.is_named:
                    self.statement(child, scope)
                elif child.type in _CASE_TERMINATORS:
                    self.children(node, scope)
                    return
        elif kind in _ARITHMETIC:
            self.arithmetic(node, scope)
            self.children(node, scope)
        elif kind == "expansion":
            operator = node.child_by_field_name("operator")
            name = next((c for c in node.children if c.type == "variable_name"), None)
            if operator is not None and operator.type in ("=", ":=") and name is not None:
                rec = Rec(
                    [], self.text(node)
                )  # ${NAME:=value} assigns NAME when unset or empty (bash(1) Parameter Expansion)
                self.assigns(rec, scope, self.text(name), "The expansion")
                self.finish_orphan(rec, scope)
            for child in node.children:
                if child.type in _EXPANSION_TEXT and _HIDDEN_SUBSTITUTION.search(self.text(child)):
                    self.hidden_substitutions(child, scope)
            self.children(node, scope)
        elif kind == "subscript":
            index = node.child_by_field_name("index")
            if index is not None:  # an indexed array's subscript is evaluated as arithmetic
                rec = Rec([], self.text(node))
                self.arithmetic_text(rec, scope, self.text(index))
                self.finish_orphan(rec, scope)
            self.children(node, scope)
        elif kind in _CONTAINERS:
            self.children(node, scope)
        elif kind == "list":
            self.a_list(node, scope)
        elif kind == "pipeline":
            self.g.concurrent += 1  # every element runs while the others do
            try:
                self.pipeline(node, scope)
            finally:
                self.g.concurrent -= 1
        elif kind in _SUBSHELLS:
            saved, values = self.g.state, dict(self.g.values)
            substitution = kind == "process_substitution"  # it runs while the command that names it does
            self.g.concurrent += substitution
            try:
                self.children(node, scope)
            finally:
                self.g.concurrent -= substitution
            self.g.state, self.g.values = saved, values
        elif kind in _BRANCHES:
            self.branch(lambda: self.children(node, scope))
        elif kind in _LOOPS:
            known: tuple[str, tuple[str, ...]] | None = None
            if kind == "for_statement":
                self.loop_values(node, scope)
                variable = node.child_by_field_name("variable")
                if variable is not None:
                    rec = Rec([], self.text(node).split("\n", 1)[0])
                    self.assigns(rec, scope, self.text(variable), "The loop")
                    if any(self.holds_secret(self.text(v)) for v in node.children_by_field_name("value")):
                        self.g.secret_copies.add(self.text(variable))
                    if self.listed_secret(rec, scope, node.children_by_field_name("value")):
                        self.g.decoded.add(self.text(variable))  # for f in $(ls -a): $f may be .env
                    self.finish_orphan(rec, scope)
                    words = [resolve_word(v, self.src).value for v in node.children_by_field_name("value")]
                    if words and all(_trackable(w) for w in words):
                        known = (self.text(variable), tuple(w for w in words if w is not None))
            self.body(known, lambda: self.repeating(scope, lambda body: self.children(node, body)))
        elif kind == "redirected_statement":
            self.redirected(node, scope)
        elif kind == "function_definition":
            self.function(node, scope)
        elif kind in ("declaration_command", "unset_command"):
            self.declaration(node, scope)
        elif kind == "variable_assignments":
            self.children(node, scope)
        elif kind == "variable_assignment":
            self.assignment_statement(node, scope)
        elif kind == "test_command":
            self.test(node, scope)
        elif kind in _REDIRECTS:
            rec = Rec([], self.text(node))
            self.redirect(rec, scope, node, [], [], [])
            self.finish_orphan(rec, scope)
        elif node.is_named and not node.is_missing:
            self.g.orphan(
                scope,
                self.text(node),
                R.DESTRUCTIVE,
                "unknown-syntax",
                f"The shell construct {kind!r} is not known to the classifier.",
            )

    def hidden_substitutions(self, node: Node, scope: Scope) -> None:
        """A leaf of a parameter expansion (``${x:-WORD}``, ``${x#PATTERN}``, ``${x/P/R}``) holding backquotes,
        ``$(`` or ``<(``/``>(``: tree-sitter-bash keeps it as plain text, but bash runs each command substitution and
        process substitution in it (bash(1) "Parameter Expansion": the word "is subject to tilde expansion,
        parameter expansion, command substitution, and arithmetic expansion"; inside double quotes single quotes
        there do not quote). The text is parsed again as the arguments of ``:`` and each substitution found is graded
        as the command it runs; a text that does not parse, or holds no substitution the parser can see, is
        destructive (``hidden-code``): a person must read it."""
        text = self.text(node)
        if node.type == "raw_string":
            text = text[1:-1]  # "${x:-'`cmd`'}": the quotes are literal inside double quotes
        rec = Rec([], self.text(node))
        src = (": " + text).encode("utf-8", "surrogatepass")
        try:
            root = parse(src)
        except UnsafeToParse:
            root = None
        found: list[Node] = []
        if root is not None and not root.has_error:
            stack = [root]
            while stack:
                current = stack.pop()
                if current.type in ("command_substitution", "process_substitution"):
                    found.append(current)
                else:
                    stack.extend(current.children)
        if not found:
            self.g.flag(
                rec,
                scope,
                R.DESTRUCTIVE,
                "hidden-code",
                "A parameter expansion holds a command or process substitution FlyBot cannot read: bash runs it.",
            )
            self.finish_orphan(rec, scope)
            return
        inner = _Walk(self.g, src)
        for each in sorted(found, key=lambda n: n.start_byte):
            inner.visit(each, scope)

    def pipeline(self, node: Node, scope: Scope) -> None:
        """Visit a pipeline's elements in order, each fed what ``echo LITERAL |`` before it writes."""
        feed: str | None = None
        elements: list[list[str | None]] = []
        for child in node.children:
            if child.is_named:
                simple = child.type == "command" or (
                    child.type == "redirected_statement" and child.children[0].type == "command"
                )
                if feed is not None and simple:
                    self.pipe_in = feed
                self.names_in = stream(elements) if simple and elements else None
                if not simple and elements:
                    self.read_listed(child, scope, stream(elements))
                self.piped = bool(elements)
                self.isolated(child, scope)
                self.pipe_in = self.names_in = None
                self.piped = False
                feed = self.echo_feed(child)
                elements.append(self.argv(child))

    def statement(self, node: Node, scope: Scope) -> None:
        """Visit a statement of a list; one ended by ``&`` runs in the background, while the rest of the script
        runs (bash(1) "Lists"): :attr:`~bot.risk.grader.Grader.concurrent` says so while it is graded."""
        following = node.next_sibling
        background = following is not None and following.type == "&"
        self.g.concurrent += background
        try:
            self.visit(node, scope)
        finally:
            self.g.concurrent -= background

    def children(self, node: Node, scope: Scope) -> None:
        """Visit the named children; a case terminator outside a case item is a syntax error."""
        in_case = node.type == "case_item"
        for child in node.children:
            if child.is_named:
                self.statement(child, scope)
            elif not in_case and child.type in _CASE_TERMINATORS:
                self.g.orphan(
                    scope,
                    self.text(node),
                    R.DESTRUCTIVE,
                    "parse-error",
                    f"{child.type!r} outside a case item is a bash syntax error.",
                )

    def isolated(self, node: Node, scope: Scope) -> None:
        """Visit a pipeline element: it runs in a subshell, so its ``cd`` and assignments do not carry on."""
        saved, values = self.g.state, dict(self.g.values)
        self.visit(node, scope)
        self.g.state, self.g.values = saved, values

    # -- known variable values (Grader.values) -------------------------------
    def forget(self, name: str) -> None:
        """``name`` is assigned a value not known here: reads of it are graded as today's unknown expansion."""
        self.g.values.pop(name, None)
        self.g.decoded.discard(name)
        self.g.value_log.append(name)

    def forget_all(self) -> None:
        """Something may have assigned any variable (``read``, ``eval``, a function call): no value is known."""
        self.g.values.clear()
        self.g.decoded.clear()
        self.g.value_log.append("")

    def remember(self, name: str, values: tuple[str, ...]) -> None:
        """``name`` now certainly holds one of ``values`` (literal words)."""
        self.g.values[name] = values
        self.g.value_log.append(name)

    def settle(self, before: dict[str, tuple[str, ...]], start: int) -> None:
        """After a region that may or may not have run (a branch, a loop body): a value stays known only when the
        region did not assign its name, or left it the same."""
        touched = set(self.g.value_log[start:])
        everything = "" in touched
        now = self.g.values
        self.g.values = {
            name: value
            for name, value in before.items()
            if now.get(name) == value or (not everything and name not in touched)
        }

    def branch(self, run: Callable[[], None]) -> None:
        """Walk a part that may not run (``if``/``case``, the right side of ``&&``/``||``) (:meth:`settle`)."""
        before, start = dict(self.g.values), len(self.g.value_log)
        run()
        self.settle(before, start)

    def body(self, known: tuple[str, tuple[str, ...]] | None, run: Callable[[], None]) -> None:
        """Walk a body run any number of times (a loop, a function): it starts knowing no value (an assignment
        late in it runs before its start on the next round), but the loop variable's words (``known``)."""
        before, start = dict(self.g.values), len(self.g.value_log)
        outer = self.g.outer_values
        self.g.outer_values = self.g.read_values()  # what the body's reads may still see (Grader.outer_values)
        self.g.values = {}
        if known is not None:
            self.remember(*known)
        try:
            run()
        finally:
            self.g.outer_values = outer
        self.g.values = before
        self.settle(before, start)

    def a_list(self, node: Node, scope: Scope) -> None:
        """Visit ``a && b`` / ``a || b`` / ``a; b`` in order. tree-sitter-bash nests a chain to the left (``a && b
        || c`` is ``(a && b) || c``): at an ``||`` and at the end of the outermost list, a ``cd`` taken as certain
        on the left of an ``&&`` may have failed (:meth:`Grader.cd_chain_ended`)."""
        children = node.children
        left = children[0] if children else None
        for index, child in enumerate(children):
            if child.is_named:
                if index == 0:
                    self.visit(child, scope)
                else:  # runs only when the left side succeeded (&&) or failed (||)
                    self.branch(partial(self.visit, child, scope))
            elif child.type == "&&" and left is not None and index == 1:
                self.after_and(left)
            elif child.type == "||":
                self.g.cd_chain_ended()
        parent = node.parent
        if parent is None or parent.type != "list":
            self.g.cd_chain_ended()

    def after_and(self, left: Node) -> None:
        """``cd dir && next``: when the left side ended with a plain cd, it succeeded."""
        direct = self.g.direct_cd
        if direct is None:
            return
        tail = left
        while tail.type in ("list", "redirected_statement") and tail.children:
            tail = tail.children[-1] if tail.type == "list" else tail.children[0]
        if (id(self.src), tail.start_byte, tail.end_byte) == direct[:3]:
            self.g.cd_certain(direct[3])

    def repeating(self, scope: Scope, body: Callable[[Scope], None]) -> None:
        """Grade a loop's or function's ``body`` as run again and again (:meth:`Grader.repeating`)."""
        attached = dict(self.attached)

        def rewind() -> None:
            self.attached = dict(attached)

        self.g.repeating(scope, body, rewind)

    def function(self, node: Node, scope: Scope) -> None:
        """A function definition: its body is graded (as a repeated scope, :meth:`repeating`) and its name
        remembered."""
        for child in node.children:
            if child.type == "word":
                name = resolve_word(child, self.src).value
                if name is not None:
                    self.g.functions.add(name)
            elif child.is_named:
                values = dict(self.g.values)
                self.body(None, partial(self.repeating, scope, partial(self.visit, child)))
                self.g.values = values  # defining a function runs nothing

    # -- simple commands ------------------------------------------------------
    def command(self, node: Node, scope: Scope, extra: list[Node]) -> None:
        """Grade one simple command (with redirects hung on it by a ``redirected_statement``)."""
        g = self.g
        if self.attached:
            extra = extra + self.attached.pop((node.start_byte, node.end_byte), [])
        g.direct_cd = None
        feed, self.pipe_in = self.pipe_in, None
        names_in, self.names_in = self.names_in, None
        piped, self.piped = self.piped, False
        src = self.src
        named = False
        assigns: list[Node] = []
        redirects: list[Node] = []
        words: list[Word] = []
        last_arg_end = -1  # where the last argument node ended: a node starting there continues its word
        for child in node.children:
            kind = child.type
            if kind == "word" and named:
                text = src[child.start_byte : child.end_byte].decode("utf-8", "replace")
                plain = "\\" not in text and "*" not in text and "?" not in text and "[" not in text
                word = Word(text, text) if plain else resolve_word(child, src)
                if child.start_byte == last_arg_end and len(words) > 1:
                    words[-1] = _joined(words[-1], word)
                else:
                    words.append(word)
                last_arg_end = child.end_byte
            elif kind == "command_name":
                named = True
                part = child.children[0] if child.children else None
                if part is None:
                    words.append(dynamic_word(self.text(child)))
                    continue
                if part.type not in _LEAVES:
                    self.visit(part, scope)
                words.append(resolve_word(part, src))
            elif kind in _REDIRECTS:
                redirects.append(child)
            elif kind == "variable_assignment" and not named:
                assigns.append(child)
                for part in child.children:
                    if part.is_named and part.type not in _LEAVES:
                        self.visit(part, scope)
            elif kind != "comment":
                if kind not in _LEAVES:
                    self.visit(child, scope)
                word = self.word(child)
                if named and child.start_byte == last_arg_end and len(words) > 1:
                    words[-1] = _joined(words[-1], word)
                else:
                    words.append(word)
                last_arg_end = child.end_byte if named else -1
        if extra:
            redirects.extend(extra)
            end = max([node.end_byte] + [r.end_byte for r in extra if r.type != "heredoc_redirect"])
            rec = Rec(words, src[node.start_byte : end].decode("utf-8", "replace"))
        else:
            rec = Rec(words, self.text(node))
        later: list[Node] = []
        for assign in assigns:
            self.check_assignment(rec, scope, assign, environment=named)
        rec.stdin = self.stdin_of(feed, redirects) if (redirects or feed is not None) else None
        rec.null_stdin = self.reads_null(redirects) or rec.stdin == ""  # ``true | tee f`` reads nothing too
        rec.null_stdout = self.writes_null(redirects)
        rec.fed = piped or feed is not None or any(self.redirects_input(r) for r in redirects)
        if redirects:
            extra_args: list[Node] = []
            for redirect in redirects:
                self.redirect(rec, scope, redirect, later, extra_args, words if named else [])
            words.extend(self.word(a) for a in extra_args)
        if named:
            for word in words[1:]:
                value = word.value  # cheap pre-check on literal words; partly known ones are always checked
                if (value is None or "tcp" in value or "udp" in value) and names_socket(word):
                    self.socket(rec, scope, word.src)
            g.last_cd = None
            g.records.append((rec, scope))
            g.dispatch(rec, scope)
            program = words[0].value if words else None
            self.reads_listed(rec, scope, node, words, names_in or self.names_from_file(words, redirects))
            if program is None or program in _ASSIGNING_BUILTINS or program in g.functions:
                self.forget_all()
                if program == "read" and rec.stdin is not None:
                    self.read_literal(words[1:], rec.stdin)
                if program == "read" and (node.start_byte, node.end_byte) in self.listing_reads:
                    # every identifier among its words is taken as a name it sets (an option's value too, -p
                    # PROMPT: marking more only grades higher)
                    self.g.decoded.add("REPLY")
                    self.g.decoded.update(w.value for w in words[1:] if w.value is not None and w.value.isidentifier())
                if program in ("read", "mapfile", "readarray") and any(
                    self.holds_secret(self.text(r)) for r in redirects
                ):  # read y <<< "$GITHUB_TOKEN": each name read holds the secret
                    for word in words[1:]:
                        if word.value and not word.value.startswith("-") and word.value.isidentifier():
                            self.g.secret_copies.add(word.value)
            if g.last_cd is not None and program == "cd" and not rec.wrappers and scope.repeat == 0:
                g.direct_cd = (id(src), node.start_byte, node.end_byte, g.last_cd)  # not bash -c 'cd x' (above)
        else:
            rec.words = []
            self.finish_orphan(rec, scope)
        for statement in later:
            self.visit(statement, scope)

    def argv(self, node: Node) -> list[str | None]:
        """The literal words of a simple command (``None`` for each word only known when it runs); [] for
        anything else."""
        if node.type == "redirected_statement" and node.children:
            node = node.children[0]
        if node.type != "command":
            return []
        words: list[str | None] = []
        for child in node.children:
            if child.type == "command_name":
                part = child.children[0] if child.children else None
                words.append(resolve_word(part, self.src).value if part is not None else None)
            elif words and child.type not in _REDIRECTS and child.type != "comment" and child.is_named:
                words.append(resolve_word(child, self.src).value)
        return words

    def reads_listed(self, rec: Rec, scope: Scope, node: Node, words: list[Word], names_in: str | None) -> None:
        """A program that prints files' content given names a listing printed: through ``xargs`` from the
        pipe (``names_in``: ``ls .env | xargs cat``) or by a command substitution among its arguments (``cat $(ls -a
        | grep env)``). When the listing may name a credential file (listing.py) it is read: ``network``
        (``secret-read``, never covered)."""
        program = posixpath.basename(words[0].value or "") if words and words[0].value else None
        if program is None or _xargs_reads(self.g, rec, scope, words, names_in) or program not in CONTENT_READERS:
            return
        arguments = [c for c in node.children if c.type not in ("command_name", "comment", "variable_assignment")]
        what = self.listed_names(arguments)
        what = tracked_names(self.g, rec, scope) if what == TRACKED else what
        if what is not None:
            self.g.flag(
                rec,
                scope,
                R.NETWORK,
                "secret-read",
                f"{program} prints the files a command substitution names, which may include a file holding "
                f"{what}: its output goes to the model.",
            )

    def read_listed(self, node: Node, scope: Scope, names_in: str | None) -> None:
        """``LISTING | while read VAR; do ...; done``: bash's ``read`` (bash(1) SHELL BUILTIN COMMANDS) sets each
        name it is given (``REPLY`` when none) from a line of its input, so when the listing before the loop may
        name a credential file (``names_in``, listing.stream: ``ls -a``) so may ``$VAR``, as for ``for VAR in $(ls
        -a)``: a program printing ``"$VAR"`` in the body reads it (:attr:`Grader.decoded`). The condition's ``read``
        commands are noted here (:attr:`listing_reads`) and mark their names when they are graded."""
        loop = node.children[0] if node.type == "redirected_statement" and node.children else node
        if names_in is None or loop.type not in ("while_statement", "until_statement"):
            return
        condition = loop.child_by_field_name("condition")
        if condition is None:
            return
        if names_in == TRACKED:
            rec = Rec([], self.text(loop).split("\n", 1)[0])
            what = tracked_names(self.g, rec, scope)
            self.finish_orphan(rec, scope)
            if what is None:
                return
        pending = [condition]
        while pending:
            current = pending.pop()
            if current.type != "command":
                pending.extend(current.named_children)
                continue
            words = self.argv(current)
            if not words or words[0] != "read":
                continue
            self.listing_reads.add((current.start_byte, current.end_byte))

    def listed_secret(self, rec: Rec | None, scope: Scope | None, nodes: list[Node]) -> bool:
        """True when the command substitutions in ``nodes`` print names that may include a credential file
        (:meth:`listed_names`; the tracked files are asked of the recipe book only when ``rec`` and ``scope`` are
        given, else taken as possibly secret): a variable assigned them names a file only known when it runs."""
        what = self.listed_names(nodes)
        if what == TRACKED and rec is not None and scope is not None:
            what = tracked_names(self.g, rec, scope)
        return what is not None

    def loop_names(self, redirects: list[Node]) -> str | None:
        """What a loop's ``read`` takes names from when its standard input is redirected (``while read f; do cat
        "$f"; done < list.txt``): a file may name any path (listing.ANY_PATH: FlyBot does not see what it holds when
        the command runs), a process substitution what its listing prints (``< <(ls -a)``, listing.stream); None
        for ``< /dev/null``, a here-document or here-string, or no redirect of standard input."""
        names: str | None = None
        for redirect in sorted(redirects, key=lambda r: r.start_byte):
            descriptor = redirect.child_by_field_name("descriptor")
            if descriptor is not None and self.text(descriptor) != "0":
                continue
            operators = [c.type for c in redirect.children if not c.is_named]
            if redirect.type != "file_redirect" or operators not in (["<"], ["<>"]):
                names = None if redirect.type in ("herestring_redirect", "heredoc_redirect") else names
                continue
            dests = redirect.children_by_field_name("destination")
            if dests and dests[0].type == "process_substitution":
                inner = [c for c in dests[0].named_children if c.type != "comment"]
                body = inner[0] if len(inner) == 1 else None
                parts = (
                    [c for c in body.named_children if c.type != "comment"]
                    if body and body.type == "pipeline"
                    else inner
                )
                names = stream([self.argv(part) for part in parts]) if body is not None else ANY_PATH
            else:
                names = None if dests and self.word(dests[0]).value == "/dev/null" else ANY_PATH
        return names

    def names_from_file(self, words: list[Word], redirects: list[Node]) -> str | None:
        """``xargs < FILE`` reading its names from a file: the file may name any path (listing.ANY_PATH), or None
        (``-a FILE``: :func:`_xargs_reads`)."""
        if not words or words[0].value is None or posixpath.basename(words[0].value) != "xargs":
            return None
        for redirect in redirects:
            operators = [c.type for c in redirect.children if not c.is_named]
            if redirect.type == "file_redirect" and operators == ["<"] and "/dev/null" not in self.text(redirect):
                return ANY_PATH
        return None

    def listed_names(self, nodes: list[Node]) -> str | None:
        """The credential file the command substitutions in ``nodes`` (arguments) may print the name of
        (listing.stream: ``$(ls -a | grep env)``), or None."""
        pending = list(nodes)
        while pending:
            node = pending.pop()
            if node.type != "command_substitution":
                pending.extend(node.named_children)
                continue
            inner = [c for c in node.named_children if c.type != "comment"]
            if len(inner) != 1:
                continue
            body = inner[0]
            if body.type == "file_redirect":
                return ANY_PATH  # bash(1) "Command Substitution": $(< file) is $(cat file), the file's names
            parts = [c for c in body.named_children if c.type != "comment"] if body.type == "pipeline" else [body]
            what = stream([self.argv(part) for part in parts])
            if what is not None:
                return what
        return None

    def echo_feed(self, node: Node) -> str | None:
        """What a pipeline element writes when it is ``echo`` of literal words (see :func:`echo_text`), or nothing
        (``""``) when it is a command that prints nothing (:func:`prints_nothing`: ``true``, ``:``, ``printf ''``),
        else None."""
        if node.type != "command":
            return None
        words: list[str] = []
        for child in node.children:
            if child.type == "command_name":
                words.append(self.text(child))
            elif child.type in ("word", "raw_string", "string", "concatenation", "number"):
                value = resolve_word(child, self.src).value
                if value is None:
                    return None
                words.append(value)
            elif child.type != "comment":
                return None
        return pipe_text(words)

    def reads_null(self, redirects: list[Node]) -> bool:
        """True when the last of ``redirects`` that sets standard input is ``< /dev/null`` (literal)."""
        null = False
        for node in sorted(redirects, key=lambda r: r.start_byte):
            descriptor = node.child_by_field_name("descriptor")
            fd = self.text(descriptor) if descriptor is not None else None
            if fd not in (None, "0"):
                continue
            if node.type in ("herestring_redirect", "heredoc_redirect"):
                null = False
            elif node.type == "file_redirect":
                op = next((c.type for c in node.children if not c.is_named), "")
                if op.startswith("<") and not op.startswith("<<"):
                    dests = node.children_by_field_name("destination")
                    null = op == "<" and bool(dests) and self.word(dests[0]).value == "/dev/null"
        return null

    def writes_null(self, redirects: list[Node]) -> bool:
        """True when, after ``redirects`` in order, standard output goes to ``/dev/null`` (literal): ``> /dev/null``,
        ``1> /dev/null``, ``&> /dev/null``, ``>& /dev/null``, or ``1>&2`` after standard error went there (bash(1)
        REDIRECTION: redirections are processed in the order they appear; ``N>&M`` makes N a copy of M). Any other
        redirect of descriptor 1 or 2 sends it elsewhere."""
        null = {"1": False, "2": False}
        for node in sorted(redirects, key=lambda r: r.start_byte):
            if node.type != "file_redirect":
                continue
            descriptor = node.child_by_field_name("descriptor")
            op = next((c.type for c in node.children if not c.is_named), "")
            dests = node.children_by_field_name("destination")
            target = self.word(dests[0]).value if dests else None
            if op.startswith("<") and op != "<>":
                continue
            fd = self.text(descriptor) if descriptor is not None else None
            if op in (">&", "<>") and target is not None and target.isdigit():
                if fd in (None, "1", "2"):
                    null[fd or "1"] = null.get(target, False)
                continue
            into_null = op in (">", ">|", ">>", "&>", "&>>", ">&") and target == "/dev/null"
            if fd is None and op in ("&>", "&>>", ">&"):
                null["1"] = null["2"] = into_null
            elif fd in (None, "1", "2"):
                null[fd or "1"] = into_null
        return null["1"]

    def redirects_input(self, node: Node) -> bool:
        """True for a redirect of standard input: a here-document, a here-string or ``<``/``<>`` on descriptor 0."""
        descriptor = node.child_by_field_name("descriptor")
        fd = self.text(descriptor) if descriptor is not None else None
        if node.type in ("heredoc_redirect", "herestring_redirect"):
            return fd in (None, "0")
        if node.type == "file_redirect":
            op = next((c.type for c in node.children if not c.is_named), "")
            return fd == "0" or (fd is None and op.startswith("<"))
        return False

    def stdin_of(self, feed: str | None, redirects: list[Node]) -> str | None:
        """The literal standard input of a command: the pipe ``feed``, then its input redirects in order (the last wins)."""
        stdin = feed
        for node in sorted(redirects, key=lambda r: r.start_byte):
            kind = node.type
            descriptor = node.child_by_field_name("descriptor")
            fd = self.text(descriptor) if descriptor is not None else None
            if kind == "herestring_redirect" or (node.start_byte, node.end_byte) in self.gaps:
                if fd not in (None, "0"):
                    continue
                value = next((c for c in reversed(node.children) if c.is_named and c.type != "file_descriptor"), None)
                literal = resolve_word(value, self.src).value if value is not None else None
                stdin = None if literal is None else literal + "\n"
            elif kind == "heredoc_redirect":
                if fd in (None, "0"):
                    stdin = self.heredoc_text(node)
                inner = [c for c in node.children if c.type == "file_redirect"]
                if inner:
                    stdin = self.stdin_of(stdin, inner)
            elif kind == "file_redirect":
                op = next((c.type for c in node.children if not c.is_named), "")
                if fd == "0" or (fd is None and op.startswith("<")):
                    stdin = None
        return stdin

    def heredoc_text(self, node: Node) -> str | None:
        """The text a here-document feeds, when it is literal (quoted delimiter, or no expansion and no backslash)."""
        start = next((c for c in node.children if c.type == "heredoc_start"), None)
        body = next((c for c in node.children if c.type == "heredoc_body"), None)
        if start is None:
            return None
        if body is None:
            return ""
        quoted = any(ch in self.text(start) for ch in "'\"\\")
        text = self.text(body)
        if not quoted and (
            "\\" in text or "$" in text or "`" in text or any(c.type != "heredoc_content" for c in body.named_children)
        ):
            return None
        if any(c.type == "<<-" for c in node.children):
            text = "\n".join(line.lstrip("\t") for line in text.split("\n"))
        return text

    def socket(self, rec: Rec, scope: Scope, subject: str, *, redirect: bool = False) -> None:
        """A redirect, argument or assigned value naming ``/dev/tcp``/``/dev/udp``: network egress, never downgraded."""
        self.g.flag(
            rec, scope, R.NETWORK, "network-socket", _socket_detail(subject), subject=subject if redirect else None
        )
        if redirect:  # a connection, not a file in the workspace: a standing approval's pattern does not cover it
            rec.marks = (rec.marks or []) + [subject]

    def loop_values(self, node: Node, scope: Scope) -> None:
        """``for x in WORDS``: a word naming a network socket makes ``$x`` one (``cat < $x``)."""
        for value in node.children_by_field_name("value"):
            word = resolve_word(value, self.src)
            if names_socket(word):
                rec = Rec([], self.text(node).split("\n", 1)[0])
                self.socket(rec, scope, word.src)
                self.finish_orphan(rec, scope)

    def holds_secret(self, text: str) -> bool:
        """True when ``text`` expands a secret variable or a copy of one (:attr:`Grader.secret_copies`)."""
        return bool(secret_expansions(text)) or _decoded_variable(text, self.g.secret_copies) is not None

    def copies_secret(self, name: str, node: Node) -> None:
        """``NAME=VALUE`` (``node``): NAME holds a secret when VALUE expands one; a plain reassignment of a copy
        (not ``+=``, not one element) takes it out (:attr:`Grader.secret_copies`)."""
        value = self.text(node.children[-1]) if len(node.children) >= 3 else ""
        if value and self.holds_secret(value):
            self.g.secret_copies.add(name)
        elif len(node.children) >= 2 and node.children[1].type == "=" and node.children[0].type != "subscript":
            self.g.secret_copies.discard(name)

    def assigns(self, rec: Rec, scope: Scope, name: str, what: str) -> None:
        """``what`` assigns the shell variable ``name`` (a loop variable, an arithmetic assignment): the programs run
        after it may read it (an exported ``HOME`` or ``PATH``, or any name under ``set -a``), so it joins the
        script's assigned names (:attr:`Grader.assigned`); a hijacking name grades destructive."""
        self.g.assigned.add(name)
        self.forget(name)
        if hijacks_environment(name):
            self.g.flag(
                rec,
                scope,
                R.DESTRUCTIVE,
                "env-hijack",
                f"{what} assigns {name}, which changes which program runs or what it runs.",
            )

    def arithmetic(self, node: Node, scope: Scope) -> None:
        """An arithmetic ``NAME = ...``, ``NAME op= ...``, ``NAME++``, ``--NAME`` (``(( HOME=1 ))``, ``$((x++))``,
        ``for ((...))``) assigns NAME (:meth:`assigns`)."""
        operator = node.child_by_field_name("operator")
        if operator is None:
            operator = next((c for c in node.children if not c.is_named), None)
        if (
            operator is not None and self.text(operator) in _ARITHMETIC_COMPARING
        ):  # [[ x -eq HOME=1 ]] evaluates both sides
            rec = Rec([], self.text(node))
            self.arithmetic_text(rec, scope, self.text(node))
            self.finish_orphan(rec, scope)
        if operator is None or operator.type not in _ARITHMETIC_ASSIGNING:
            return
        target = (
            node.child_by_field_name("left")
            if node.type == "binary_expression"
            else next((c for c in node.children if c.is_named), None)
        )
        if target is None:
            return
        if target.type == "subscript":
            target = target.child_by_field_name("name") or target
        if target.type in ("variable_name", "word"):
            rec = Rec([], self.text(node))
            self.assigns(rec, scope, self.text(target), "An arithmetic expression")
            self.finish_orphan(rec, scope)

    def arithmetic_text(self, rec: Rec, scope: Scope, text: str) -> None:
        """Assignments in text bash may evaluate as arithmetic (:data:`_ARITHMETIC_TEXT`) assign their names."""
        if "=" not in text and "++" not in text and "--" not in text:
            return
        for found in _ARITHMETIC_TEXT.finditer(text):
            self.assigns(rec, scope, found.group(1) or found.group(2), "An arithmetic expression")

    def word(self, node: Node) -> Word:
        """The :class:`Word` of an argument node (anonymous tokens are unknown words)."""
        if node.is_named:
            return resolve_word(node, self.src)
        return dynamic_word(self.text(node))

    def finish_orphan(self, rec: Rec, scope: Scope) -> None:
        """List a program-less part (``argv=()``) when it raised the level."""
        if rec.level > R.READ_ONLY:
            self.g.records.append((rec, scope))

    def check_assignment(self, rec: Rec, scope: Scope, node: Node, *, environment: bool = False) -> None:
        """``NAME=value``: hijacking variables and code stored for later evaluation are destructive; so is any name
        but an inert one put in a program's ``environment`` (a prefix of a command, ``export``)."""
        name_node = node.children[0] if node.children else None
        name = self.text(name_node) if name_node is not None else ""
        name = name.split("[", 1)[0]
        self.g.assigned.add(name)
        self.forget(name)
        self.copies_secret(name, node)
        why = (
            environment_risk(name)
            if environment
            else (f"Setting {name} changes which program runs or what it runs." if hijacks_environment(name) else None)
        )
        if self.harmless(node):  # ``MAKEFLAGS=-j4``: the programs run after it read nothing that changes what runs
            why = None
            self.g.assigned.discard(name)
        if why is not None:
            self.g.flag(rec, scope, R.DESTRUCTIVE, "env-hijack", why)
        value = node.children[-1] if len(node.children) >= 3 else None
        if value is not None and value.type in ("raw_string", "string", "ansi_c_string", "concatenation", "word"):
            resolved = resolve_word(value, self.src)
            literal = resolved.value
            if names_socket(resolved):
                self.socket(rec, scope, resolved.src)
            if literal is not None and has_code(literal):
                self.g.flag(
                    rec,
                    scope,
                    R.DESTRUCTIVE,
                    "deferred-code",
                    f"{name} is given shell code that a later evaluation would run.",
                )
            if self.g.integers:  # NAME may have the integer attribute: its value is evaluated as arithmetic
                self.arithmetic_text(rec, scope, self.text(value))

    def harmless(self, node: Node) -> bool:
        """True when the assignment ``node`` gives its name a value known to change nothing that runs
        (:func:`harmless_value`); the name then stays out of the names a later program is graded by."""
        name = self.text(node.children[0]).split("[", 1)[0] if node.children else ""
        if name not in _MAKE_FLAG_VARIABLES:
            return False
        value = resolve_word(node.children[-1], self.src).value if len(node.children) >= 3 else ""
        return harmless_value(name, value)

    def exported_effect(self, rec: Rec, scope: Scope, node: Node) -> None:
        """``export NAME=value`` (or ``declare -x``, or ``NAME=value`` under ``set -a``) puts NAME in the environment
        of every later program of this shell, and an agent's shell lives on across its calls: graded by what the
        variable makes those programs do. A name that makes them write a file (:func:`written_by_environment`:
        ``GIT_TRACE2_EVENT=~/.bashrc``) is a write to that file, graded by where it lands; a name that chooses where
        packages come from (:func:`chooses_package_source`) is a change of the package source (rule
        ``package-source``, destructive on the host; contained, the sandbox's installs only); a name that chooses the
        server a stored token is sent to (:data:`_TOKEN_DESTINATIONS`) is destructive (``remote-control-plane``), and
        one that switches the cloud account or profile (:data:`_ACCOUNT_SWITCHES`) is system (``account-switch``);
        emptied, they go back to the default."""
        name = self.text(node.children[0]).split("[", 1)[0] if node.children else ""
        value_node = node.children[-1] if len(node.children) >= 3 else None
        value = Word("", "") if value_node is None else resolve_word(value_node, self.src)
        if value_node is not None and "+=" in self.text(node)[: len(name) + 2]:
            value = Word(None, value.src)  # appended to a value this script may not know
        written = written_by_environment(name, value.value)
        if written == "":  # only known when it runs: it may be a shell start-up file (a redirect to ``$OUT`` is)
            self.g.flag(
                rec,
                scope,
                R.DESTRUCTIVE,
                "unknown-write-target",
                f"{name} makes every later program that reads it write to {value.src or '$' + name}, a path only "
                "known when it runs: it may be a shell start-up file (~/.bashrc).",
                downgradable=True,
            )
        elif written is not None:
            self.g.write(
                rec, scope, Word(written, value.src), f"{name} makes every later program that reads it write to"
            )
        if name in _ENGINE_CHOOSERS and (value.value is None or value.value not in ("", _DEFAULT_ENGINE)):
            self.g.flag(
                rec,
                scope,
                R.DESTRUCTIVE,
                "remote-control-plane",
                f"Exporting {name} chooses the container engine (or the client configuration and plugins) every "
                "later docker or podman command in this shell uses: they then act on another machine, or run its "
                "plugins.",
            )
        if value.value != "" and (name in _TOKEN_DESTINATIONS or name.startswith(_TOKEN_DESTINATION_PREFIXES)):
            self.g.flag(
                rec,
                scope,
                R.DESTRUCTIVE,
                "remote-control-plane",
                f"Exporting {name} chooses the server every later command of that tool in this shell sends its "
                "stored token to.",
            )
        elif value.value != "" and (name in _ACCOUNT_SWITCHES or name.startswith(_ACCOUNT_SWITCH_PREFIXES)):
            self.g.flag(
                rec,
                scope,
                R.SYSTEM,
                "account-switch",
                f"Exporting {name} switches the account, profile, project or endpoint every later cloud command "
                "in this shell acts on: an approval given for one account then acts on another.",
            )
        if chooses_package_source(name):
            self.g.flag(
                rec,
                scope,
                R.DESTRUCTIVE,
                "package-source",
                f"Exporting {name} changes where every later install in this shell gets its packages (or lets "
                "their downloads be intercepted): they may run another source's code.",
                contained_level=R.WORKSPACE_WRITE,
            )

    def assignment_statement(self, node: Node, scope: Scope) -> None:
        """``NAME=value`` on its own: read-only unless it hijacks or stores code."""
        rec = Rec([], self.text(node))
        for child in node.children:
            if child.is_named:
                self.visit(child, scope)
        self.g.flag(rec, scope, R.READ_ONLY, "assignment", "Sets a shell variable.")
        previous = self.g.values.get(self.text(node.children[0]).split("[", 1)[0]) if node.children else None
        self.check_assignment(rec, scope, node)
        if self.g.all_export and not self.harmless(node):  # after ``set -a`` the assignment is an export
            self.g.exported.add(self.text(node.children[0]).split("[", 1)[0] if node.children else "")
            self.exported_effect(rec, scope, node)
        self.remember_literal(node, previous, rec, scope)
        self.finish_orphan(rec, scope)

    def remember_literal(
        self, node: Node, previous: tuple[str, ...] | None = None, rec: Rec | None = None, scope: Scope | None = None
    ) -> None:
        """``NAME=literal`` (a statement, or ``export``'s): NAME now holds that literal (:func:`_trackable`); NAME
        assigned a command substitution that runs a decoder joins :attr:`Grader.decoded`. ``previous``: NAME's values
        before this assignment, for ``NAME+=`` and ``NAME[N]=``."""
        if len(node.children) < 3 or node.children[1].type not in ("=", "+="):
            return
        if _decoded_name(self.text(node.children[-1])) or self.listed_secret(rec, scope, [node.children[-1]]):
            self.g.decoded.add(self.text(node.children[0]).split("[", 1)[0])  # f=$(ls -a | head -1)
        if self.g.integers:
            return
        name = self.text(node.children[0])
        value = node.children[-1]
        element = node.children[0].type == "subscript"
        if element or node.children[1].type == "+=":
            # NAME+=WORD appends to the value, NAME[N]=WORD sets one element (bash(1) PARAMETERS, "Arrays"): a
            # known value is followed (the joined text; the element among the array's values, since ``$NAME`` and
            # ``${NAME[N]}`` are read as any element), anything else leaves the name's value unknown
            base = name.split("[", 1)[0]
            literal = resolve_word(value, self.src).value if value.type != "array" else None
            before = previous  # check_assignment forgot the name: its value before this assignment
            if not _VARIABLE_NAME.fullmatch(base) or literal is None or not _trackable(literal):
                self.forget(base)
            elif element:
                self.remember(base, (*(before or ()), literal))
            elif before is not None:
                self.remember(base, tuple(v + literal for v in before))
            else:
                self.forget(base)
            return
        if value.type == "array" and _VARIABLE_NAME.fullmatch(name):
            # NAME=(WORD ...): "${NAME[@]}", "${NAME[0]}" and $NAME expand to its elements (bash(1) "Arrays")
            elements = [resolve_word(c, self.src).value for c in value.named_children if c.type != "comment"]
            if elements and all(_trackable(e) for e in elements):
                self.remember(name, tuple(e for e in elements if e is not None))
            return
        if value.type not in (
            "raw_string",
            "string",
            "concatenation",
            "word",
            "number",
            "simple_expansion",
            "expansion",
        ):
            return
        literal = resolve_word(value, self.src).value
        if not _VARIABLE_NAME.fullmatch(name):
            return
        if _trackable(literal) and literal is not None:
            self.remember(name, (literal,))
            return
        copied = _COPY.fullmatch(self.text(value))  # x=$f, x="${f}": a copy of a known value
        source = (copied.group(1) or copied.group(2)) if copied is not None else None
        if source is not None and source in self.g.values:
            self.remember(name, self.g.values[source])

    def read_literal(self, words: list[Word], stdin: str) -> None:
        """``read [-r] NAME... <<< LITERAL``: the names take the words of the input's first line (bash(1) ``read``:
        split at ``IFS``, the last name takes the rest). Each name is remembered as holding the whole line or any
        of its words, which covers every way it may be split; an option other than ``-r`` leaves them unknown."""
        names: list[str] = []
        for word in words:
            if word.value is None or (word.value.startswith("-") and word.value != "-r"):
                return
            if word.value != "-r":
                names.append(word.value)
        if not all(_VARIABLE_NAME.fullmatch(n) for n in names):
            return
        line = stdin.split("\n", 1)[0].strip()
        separators = "".join(self.g.values.get("IFS", ()))
        pieces = line.split() + (re.split("[" + re.escape(separators) + "]", line) if separators else [])
        choices = tuple(dict.fromkeys(p for p in [line, *pieces] if _trackable(p)))
        if choices:
            for name in names or ["REPLY"]:
                self.remember(name, choices)

    def declaration(self, node: Node, scope: Scope) -> None:
        """``export``/``declare``/``local``/``readonly``/``typeset``/``unset``: read-only unless they hijack."""
        self.g.direct_cd = None
        rec = Rec([], self.text(node))
        words: list[Word] = []
        keyword = ""
        exports = False  # export, or declare/typeset/local -x: the names go into the environment
        options = any(
            c.is_named
            and c.type != "variable_assignment"
            and (self.text(c).startswith(("-", "+")) or "$" in self.text(c))
            for c in node.children
        )
        if node.children and node.children[0].type != "export" or options:
            self.forget_all()  # attributes (-i, -l, -n), scopes (local) and unset change what a name holds
        # declare/typeset/readonly NAME=literal outside a function or loop (bash(1): with no attribute options they
        # assign as NAME=literal does; in a function body declare is local, so the outer value comes back)
        plain = (
            bool(node.children)
            and (
                (node.children[0].type in ("declare", "typeset", "readonly") and scope.repeat == 0)
                # local NAME=literal assigns as NAME=literal does, in the function it runs in (outside one it is an
                # error and assigns nothing: following it fails closed); the function's body is walked on its own
                or node.children[0].type == "local"
            )
            and all(
                self.text(c) in ("-r", "-g", "-rg", "-gr")
                for c in node.children
                if c.is_named and c.type != "variable_assignment" and self.text(c).startswith(("-", "+"))
            )
            and not any(c.is_named and c.type != "variable_assignment" and "$" in self.text(c) for c in node.children)
        )
        for child in node.children:
            if not child.is_named:
                keyword = keyword or child.type
                exports = exports or keyword == "export"
                words.append(Word(child.type, child.type))
                continue
            if child.type == "variable_assignment":
                for part in child.children:
                    if part.is_named:
                        self.visit(part, scope)
                self.check_assignment(rec, scope, child)
                if (keyword == "export" and not options) or plain:
                    self.remember_literal(child, None, rec, scope)
                if exports and not self.harmless(child):
                    self.g.exported.add(self.text(child.children[0]).split("[", 1)[0] if child.children else "")
                value = resolve_word(child.children[-1], self.src).value if len(child.children) >= 3 else ""
                name = self.text(child.children[0]) if child.children else ""
                if exports:
                    self.exported_effect(rec, scope, child)
                op = "+=" if "+=" in self.text(child)[: len(name) + 2] else "="
                words.append(Word(None if value is None else f"{name}{op}{value}", self.text(child)))
            else:
                self.visit(child, scope)
                word = resolve_word(child, self.src)
                words.append(word)
                if word.value is not None and not word.value.startswith("-"):
                    self.g.assigned.add(word.value.split("[", 1)[0])  # `export NAME`: now in the environment
                    if exports:
                        self.g.exported.add(word.value.split("[", 1)[0])
                elif (
                    keyword in ("declare", "typeset", "local")
                    and (word.value or "").startswith("-")
                    and "x" in (word.value or "")
                ):
                    exports = True
                if word.value is None and keyword != "unset":
                    self.g.flag(
                        rec,
                        scope,
                        R.DESTRUCTIVE,
                        "env-hijack",
                        f"{keyword} is given a name only known when it runs (it may be PATH).",
                    )
                if word.value is not None and has_code(word.value):
                    self.g.flag(
                        rec,
                        scope,
                        R.DESTRUCTIVE,
                        "deferred-code",
                        "A variable name holding shell code is evaluated by bash.",
                    )
                if (
                    keyword in ("declare", "typeset", "local")
                    and (word.value or "").startswith("-")
                    and "i" in (word.value or "")
                ):
                    self.g.integers = True  # later values of its names are evaluated as arithmetic
                if (
                    keyword in ("declare", "typeset", "local")
                    and (word.value or "").startswith("-")
                    and "n" in (word.value or "")
                ):
                    self.g.flag(
                        rec, scope, R.DESTRUCTIVE, "nameref", "A nameref can assign any variable, including PATH."
                    )
        rec.words = words
        self.g.flag(rec, scope, R.READ_ONLY, "assignment", f"{keyword or 'The builtin'} only changes shell variables.")
        self.declaration_prints(rec, scope, keyword, words[1:])
        self.g.records.append((rec, scope))

    def declaration_prints(self, rec: Rec, scope: Scope, keyword: str, words: list[Word]) -> None:
        """``export``, ``export -p``, ``declare -p``/``-x``, ``typeset -p``, ``readonly``, ``local`` with no name print
        every (exported, read-only, local) variable with its value, and ``declare -p NAME`` prints NAME's value
        (bash(1) SHELL BUILTIN COMMANDS): secrets too, so ``network`` (the output goes to the model), never
        downgraded. ``-f``/``-F`` print functions instead."""
        if keyword not in _PRINTING_DECLARATIONS:
            return
        flags = "".join(w.value[1:] for w in words if w.value is not None and w.value.startswith("-"))
        names = [w for w in words if w.value is None or not w.value.startswith("-")]
        if "f" in flags or "F" in flags:
            return
        if not names:
            detail = f"{' '.join([keyword, *(w.src for w in words)])} prints variables with their values, secrets too: its output goes to the model."
            self.g.flag(rec, scope, R.NETWORK, "secret-read", detail)
        elif "p" in flags:
            for word in names:
                if word.value is None or secret_variable(word.value.split("=", 1)[0]):
                    self.g.flag(
                        rec,
                        scope,
                        R.NETWORK,
                        "secret-read",
                        f"{keyword} -p {word.src} prints a secret: its output goes to the model.",
                    )

    def compared_secrets(self, node: Node, scope: Scope) -> None:
        """A secret variable (:func:`secret_variable`) a test, ``case`` or arithmetic compares or evaluates shows its
        value: ``[[ $T =~ (.*) ]]`` puts it in ``BASH_REMATCH`` (bash(1) CONDITIONAL EXPRESSIONS), ``[[ $T == a* ]]``
        and ``case $T in a*)`` answer a guess of each character (a loop guesses them all), and arithmetic evaluates
        the value as an expression (bash(1) ARITHMETIC EVALUATION: "The value of a variable is evaluated as an
        arithmetic expression when it is referenced"), whose error message prints it (``[ "$T" -eq 1 ]``: "integer
        expression expected"; ``(( T ))``: "syntax error in expression"). A secret-read. Only asking whether it is
        set or names a file (``[[ -n $T ]]``, ``[ -z "$T" ]``, ``[[ $T ]]``, ``[[ -f $T ]]``) and its length (``${#T}``) show nothing of it."""
        names: list[str] = []
        if node.type == "case_statement":
            subject = node.child_by_field_name("value")
            if subject is not None:
                names += secret_expansions(self.text(subject))
        else:
            arithmetic = node.type != "test_command"
            stack = list(node.children)
            while stack:
                child = stack.pop()
                stack.extend(child.children)
                if child.type in ("simple_expansion", "expansion"):
                    found = secret_expansions(self.text(child))
                    if found and (arithmetic or not self._emptiness_test(child)):
                        names += found
                elif (
                    child.type in ("variable_name", "word")
                    and secret_variable(self.text(child))
                    and child.parent is not None
                    and child.parent.type not in ("simple_expansion", "expansion", "subscript")
                    and (arithmetic or self._arithmetic_operand(child))
                ):
                    names.append(self.text(child))
        if names:
            self.g.orphan(
                scope,
                self.text(node),
                R.NETWORK,
                "secret-read",
                f"{shorten(self.text(node), 60)} compares or evaluates the secret ${names[0]}, which shows its value: "
                "the command's output goes to the model.",
            )

    @staticmethod
    def _emptiness_test(expansion: Node) -> bool:
        """True when a test only asks whether ``expansion`` is empty or names a file: the operand of a unary test
        (``-n``, ``-z``, ``-f``...) or the test's sole operand, quoted or not."""
        parent = expansion.parent
        while parent is not None and parent.type == "string":
            parent = parent.parent
        if parent is None:
            return False
        if parent.type == "test_command":
            return True
        return parent.type == "unary_expression"

    @staticmethod
    def _arithmetic_operand(word: Node) -> bool:
        """True when ``word`` is an operand of a test's arithmetic comparison (``[[ T -eq 1 ]]`` evaluates ``T``)."""
        parent = word.parent
        if parent is None or parent.type != "binary_expression":
            return False
        return any(c.text is not None and c.text.decode() in _ARITHMETIC_COMPARING for c in parent.children)

    def test(self, node: Node, scope: Scope) -> None:
        """``[[ ... ]]``/``[ ... ]``: read-only, unless a quoted operand holds code (``-v 'a[$(cmd)]'``) or it
        compares a secret (:meth:`compared_secrets`)."""
        self.compared_secrets(node, scope)
        self.children(node, scope)
        self.g.orphan(scope, self.text(node), R.READ_ONLY, "read-only", "A test only reads.")
        stack = list(node.children)
        while stack:
            child = stack.pop()
            if child.type in ("raw_string", "string", "ansi_c_string", "word", "concatenation"):
                value = resolve_word(child, self.src).value
                if value is not None and has_code(value):
                    self.g.orphan(
                        scope,
                        self.text(node),
                        R.DESTRUCTIVE,
                        "deferred-code",
                        "A test operand holding shell code can be evaluated by bash.",
                    )
                    return
            else:
                stack.extend(child.children)

    # -- redirects ------------------------------------------------------------
    def redirected(self, node: Node, scope: Scope) -> None:
        """A statement with redirects: they belong to its command (or, for a list, its last command)."""
        body: Node | None = None
        redirects: list[Node] = []
        for child in node.children:
            if child.type in _REDIRECTS:
                redirects.append(child)
            elif child.is_named and body is None:
                body = child
            elif child.is_named:
                self.visit(child, scope)
        if body is not None and body.type == "command":
            self.command(body, scope, redirects)
            return
        target = _rightmost(body) if body is not None else None
        if body is not None and target is not None and target.type == "command":
            # tree-sitter-bash hangs `a && b > f` / `a | b > f` redirects on the whole list;
            # bash applies them to the last command (bash(1) REDIRECTION, SHELL GRAMMAR).
            key = (target.start_byte, target.end_byte)
            self.attached[key] = redirects
            self.visit(body, scope)
            if self.attached.pop(key, None) is None:
                return
        elif body is not None:
            if body.type in ("while_statement", "until_statement"):
                self.read_listed(node, scope, self.loop_names(redirects))
            self.visit(body, scope)
        rec = Rec([], self.text(node) if body is None else self.text(node)[len(self.text(body)) :].strip())
        later: list[Node] = []
        extra: list[Node] = []
        for redirect in redirects:
            self.redirect(rec, scope, redirect, later, extra, [] if body is None else None)
        if extra:
            self.g.flag(
                rec,
                scope,
                R.DESTRUCTIVE,
                "parse-error",
                "Words after a redirect of a compound command are a bash syntax error.",
            )
        self.finish_orphan(rec, scope)
        for statement in later:
            self.visit(statement, scope)

    def fed_names(self, rec: Rec, scope: Scope, node: Node, command: list[Word]) -> None:
        """xargs(1) and GNU parallel given their input by a here-string or a literal here-document (``xargs cat <<<
        ~/.netrc``) run their command with the input's items as arguments: each item (split at blanks, quotes
        removed, as xargs splits; at most :data:`_FED_ITEMS`) is checked as an argument of that command for a secret
        read (Grader.secrets), as ``echo ~/.netrc | xargs cat`` is. A here-string only known in part is judged on
        its text (``~``, ``$HOME``)."""
        program = posixpath.basename(command[0].value) if command[0].value else None
        if program not in ("xargs", "parallel"):
            return
        descriptor = node.child_by_field_name("descriptor")
        if descriptor is not None and self.text(descriptor) != "0":
            return
        known = True
        if node.type == "herestring_redirect":
            value = next((c for c in reversed(node.children) if c.is_named and c.type != "file_descriptor"), None)
            if value is None:
                return
            fed = self.word(value)
            text = fed.value if fed.value is not None else fed.src
            known = fed.value is not None
        else:
            heredoc = self.heredoc_text(node)
            if heredoc is None:
                return
            text = heredoc
        items = [item for item in _FED_SPLIT.split(text) if item][:_FED_ITEMS]
        words = [Word(item.strip("'\""), item) if known else Word(None, item) for item in items]
        rest = command[1:]
        reader = _runner_program(program, [w.value for w in rest]) or "<"
        given = next((i for i, w in enumerate(rest) if w.value and posixpath.basename(w.value) == reader), None)
        self.g.secrets(rec, scope, reader, (rest[given + 1 :] if given is not None else []) + words)

    def sent_input(self, rec: Rec, scope: Scope, command: list[Word], target: Word) -> None:
        """``ssh HOST < FILE`` (ssh(1): its standard input goes to the remote command, or the remote shell runs it
        as a script: ``ssh host < script.sh``, ``ssh host bash -s < x``), and ``nc``/``ncat``/``socat``/``telnet``
        fed a file: the file's content leaves this machine. A file outside the workspace and the temp area (or only
        known when it runs) is read as a secret is (``secret-read``, network, never downgraded): what it holds is
        not the project's, and the classifier does not know that it is not a credential."""
        name = posixpath.basename(command[0].value or "")
        if name not in _INPUT_SENDERS:
            return
        where = self.g.where(target) if target.value is not None else Where.OUTSIDE
        if where in (Where.WORKSPACE, Where.TEMP, Where.NOWHERE):
            return
        self.g.flag(
            rec,
            scope,
            R.NETWORK,
            "secret-read",
            f"{name} sends {shorten(target.src, 60)}, outside the workspace (or only known when it runs), to another "
            "machine as its input: what it holds leaves this machine.",
        )

    def redirect(
        self,
        rec: Rec,
        scope: Scope,
        node: Node,
        later: list[Node],
        extra_args: list[Node],
        command: list[Word] | None = None,
    ) -> None:
        """Grade one redirect; statements riding on a here-doc line go to ``later``. ``command``: the words of the
        simple command it belongs to (``[]``: none, a redirect alone), None for a compound command."""
        kind = node.type
        if kind in ("herestring_redirect", "heredoc_redirect") and command:
            self.fed_names(rec, scope, node, command)
        if kind == "herestring_redirect":
            self.children(node, scope)
            return
        if kind == "heredoc_redirect":
            for child in node.children:
                if child.type == "file_redirect":
                    self.redirect(rec, scope, child, later, extra_args, command)
                elif child.type == "heredoc_body":
                    self.visit(child, scope)
                elif child.is_named and child.type not in ("heredoc_start", "heredoc_end"):
                    later.append(child)
            return
        op = ""
        for child in node.children:
            if not child.is_named:
                op = child.type
                after = child.next_sibling
                if op == "<" and after is not None and after.type == "ERROR" and _read_write_redirect(after):
                    op = "<>"
                break
        dests = node.children_by_field_name("destination")
        for dest in dests:
            self.visit(dest, scope)
        extra_args.extend(dests[1:])
        target = self.word(dests[0]) if dests else None
        if target is not None and op not in ("<&-", ">&-") and names_socket(target):
            # bash opens /dev/tcp|udp/HOST/PORT as a connection whatever the operator (bash(1) REDIRECTION).
            self.socket(rec, scope, self.text(node), redirect=True)
            return
        if op in _NO_WRITE_OPS or op not in _WRITE_OPS:
            if op in ("<", "<&") and target is not None:
                self.g.secrets(rec, scope, "<", [target])
                if op == "<" and command:
                    self.sent_input(rec, scope, command, target)
                if self.g.links_made is not None:  # the input may be a link planted earlier in this command
                    self.g.planted_reads(rec, scope, "<", [target])
            if op not in _NO_WRITE_OPS:
                self.g.flag(
                    rec,
                    scope,
                    R.DESTRUCTIVE,
                    "unknown-syntax",
                    f"The redirect operator {op!r} is not known to the classifier.",
                    subject=self.text(node),
                )
            return
        if target is None:
            return
        if op == ">&" and (target.value == "-" or (target.value or "x").isdigit()):
            return
        subject = self.text(node) if len(dests) == 1 else f"{op} {target.src}"
        self.g.write(rec, scope, target, "Redirects output to", subject=subject, replaces=op in _REPLACING_OPS)
        if op in _REPLACING_OPS and command is not None and prints_nothing(command):
            self.g.empties(rec, scope, target, "The redirect empties", subject=subject)


def _joined(first: Word, second: Word) -> Word:
    """One shell word parsed as two adjacent nodes (tree-sitter-bash ends a concatenation at a ``$`` before a name
    followed by a dot: ``$x/$f.py`` gives ``$x/$`` and ``f.py``): bash splits words only at unquoted blanks, so
    text with no gap between is one word, known when both parts are."""
    value = first.value + second.value if first.value is not None and second.value is not None else None
    return Word(value, first.src + second.src, splits=first.splits or second.splits)
