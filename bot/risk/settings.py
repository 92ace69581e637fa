"""Workspace settings that choose code: what a package manager or git reads from the project besides its words.

A standing approval for ``npm install``, ``cargo install`` or ``git push`` covers what its words say. These programs
also read settings from the directory they run in and the ones above, and some settings choose the code that runs:

* npm, pnpm, yarn: ``.npmrc`` (npm-config(7)) ``registry``/``@scope:registry`` (where every package, and so its
  install scripts, comes from), ``use-node-version`` (pnpm downloads and runs that node), and any key outside
  :data:`INERT_NPMRC_KEYS`; ``.yarnrc``/``.yarnrc.yml`` keys outside :data:`INERT_YARNRC_KEYS` (``yarnPath``,
  ``plugins``, ``npmRegistryServer``...; ``.yarnrc.yml`` is read as YAML, flow style and ``? key`` too);
  ``.pnpmfile.cjs`` (pnpm runs it: code by definition); ``bunfig.toml``; ``pnpm-workspace.yaml`` (pnpm's settings
  besides the workspace's packages). The life cycle scripts of workspace and local packages are read as recipes
  (bot/risk/recipes.py).
* cargo (The Cargo Book, "Configuration": files in the current directory and every parent): ``.cargo/config.toml``
  and ``.cargo/config`` (``[build] rustc``, ``rustc-wrapper``, ``[target.X] runner``/``linker``, ``[alias]``,
  ``[source]`` replacement...), and rustup's toolchain files ``rust-toolchain.toml``/``rust-toolchain`` (rustup
  "Overrides": they choose the toolchain whose binaries cargo runs, a local ``path`` one too). Any such file counts,
  in the workspace and in every directory above it up to ``/`` (cargo and rustup search there too). Question
  ``start`` (:data:`CARGO_START`) asks only what makes a use graded read-only run chosen code (an ``[alias]`` table,
  a toolchain ``path``), question ``toolchain`` only the ``path`` (for the rustup proxies ``rustc``, ``rustfmt``):
  these change the grade (programs/projects.py ``settings_start``).
* go (go help toolchain, go help work): ``go.work``, and a ``toolchain`` or ``godebug`` line in ``go.mod`` (with the
  default ``GOTOOLCHAIN=auto`` go downloads and runs the toolchain go.mod names), in the directory go runs in and
  those above, past the workspace up to ``/``.
* Python package tools (uv, poetry, pipenv, pdm; settings tool ``python``): ``uv.toml`` (uv "Configuration files":
  read in the project and the directories above it), ``poetry.toml`` and ``pdm.toml`` (any: repositories, where
  packages come from), a ``pyproject.toml`` whose ``[tool.uv]`` sets a key of :data:`PYTHON_SOURCE_KEYS` (an index,
  ``find-links``, ``sources``: git, path and URL packages, a Python download mirror), or that has
  ``[[tool.poetry.source]]`` or ``[[tool.pdm.source]]``; a ``Pipfile`` ``[[source]]`` other than
  ``https://pypi.org/simple``. Each chooses where every package, and so the code its build runs, comes from.
* dotnet (settings tool ``dotnet``; NuGet "Common NuGet configurations": every ``nuget.config`` from the
  project's directory up to the root): the package sources other than nuget.org (:func:`_nuget_sources`), where
  restore gets packages whose build targets MSBuild imports.
* pip (settings tool ``pip``; pip "Configuration", "Location": the "site" file ``$VIRTUAL_ENV/pip.conf`` is read
  whenever that virtual environment runs pip): a ``pip.conf`` in a virtual environment (a directory holding
  ``pyvenv.cfg``) directly in the directory pip runs in, one above it up to the workspace's top, or the one
  ``VIRTUAL_ENV`` names. Any key counts: ``index-url``, ``find-links``, ``trusted-host`` choose where every package
  comes from, and others pick its build backends. Question :data:`REQUIREMENTS` (``requirements FILE``): what a
  requirements file in the workspace (``pip install -r FILE``, ``uv pip install -r FILE``) and the files it includes
  name from outside it or from another source (:func:`_pip_requirements`); this one changes the grade
  (programs/projects.py ``requirements_outside``). Question :data:`ENVIRONMENT` (``environment FILE``): the same for
  a conda environment file (``conda env create|update -f FILE``): its channels, ``CHANNEL::pkg`` dependencies and
  ``pip:`` list (:func:`_conda_environment`).
* JVM launchers (settings tool ``jvm``, question ``mvn``, ``bazel`` or ``sbt``; programs/catalogue.py
  ``_JVM_STARTS``): files read at every start that choose the JVM, its options or a wrapper to run: Maven's
  ``.mvn/jvm.config``, ``.mvn/maven.config``, ``.mvn/extensions.xml`` (Maven looks for ``.mvn`` in the directory
  it runs in and those above); Bazel's ``.bazelrc`` with a ``startup``, ``import`` or ``try-import`` line, bazelisk's
  ``tools/bazel``, ``.bazeliskrc`` and a ``.bazelversion`` naming a fork (``FORK/VERSION``), in the directory and
  those above up to the workspace's top; sbt's ``.jvmopts`` and ``.sbtopts`` in the directory it runs in. Unlike
  most here, these change a read-only use's grade (``mvn -v`` is graded as a build where they are).
* pytest (settings tool ``pytest``; pytest reference, "Configuration file formats", "rootdir and configfile"):
  ``addopts`` of the configuration file pytest uses where it runs (the first of pytest.ini, .pytest.ini, a
  pyproject.toml with ``[tool.pytest.ini_options]``, a tox.ini with ``[pytest]``, a setup.cfg with ``[tool:pytest]``,
  there or in the nearest directory above, past the workspace up to ``/``), or of the file ``pytest -c FILE`` names
  (question ``file FILE``), and for each path pytest is given (``pytest sub/tests``: pytest looks from the
  arguments' common ancestor, question ``path PATH``, :func:`_pytest_path`) of every such file from its directory
  up. Each line is options pytest adds to its command line. Unlike the others, these change
  the grade: the classifier grades them as given on the command line (programs/build.py ``checker``).
* ffmpeg (settings tool ``ffmpeg``, questions ``concat FILE`` and ``ffconcat FILE``; FFmpeg Formats Documentation,
  "concat"): the concat list an input with ``-safe 0`` reads, in the workspace: each file it names outside the
  workspace, or a secret in it by name, and each entry FlyBot cannot place (:func:`_concat_list`). This one changes
  the grade (programs/viewers.py ``ffmpeg_lists``): a credential is a secret read, a list not read destructive.
* mkdocs (settings tool ``mkdocs``; MkDocs 1.6 "Configuration" ``site_dir``): where ``mkdocs build``/``gh-deploy``
  build the site, which they empty first, from ``mkdocs.yml`` (or ``mkdocs.yaml``, or the file ``-f`` names:
  question ``file FILE``). This one changes the grade: the directory is graded as ``--site-dir`` is
  (programs/catalogue.py).
* coverage.py (settings tool ``python``, question ``coverage SECTION [RCFILE]``; coverage.py "Configuration
  reference"): the files ``[run] data_file``/``debug_file``, ``[html] directory``, ``[xml] output``, ``[json]
  output`` and ``[lcov] output`` name, which the command of that section writes, from ``.coveragerc``,
  ``setup.cfg``/``tox.ini`` ``[coverage:SECTION]`` and ``pyproject.toml`` ``[tool.coverage.SECTION]`` where it runs
  (every one of them, though coverage.py uses the first it finds settings in), or the file ``--rcfile`` names. This
  one changes the grade: each is graded as a write there (programs/catalogue.py ``_coverage_outputs``).
* the rails command (settings tool ``ruby``, question ``rails``; programs/catalogue.py ``_RUBY_STARTS``): a
  ``bin/rails`` or ``script/rails`` in the directory rails runs in or any one above, past the workspace up to ``/``
  (railties ``Rails::AppLoader.exec_app`` execs the first it finds, whatever the command line). This one changes a
  read-only use's grade (``rails --version`` is graded as a build where one is).
* aws (settings tool ``aws``, question ``document KIND FILE``; AWS CLI "Loading parameters from a file"): the policy
  document a ``file://FILE`` option value names, read from where aws runs, inside the workspace; the one line says
  whether it opens a bucket to everyone or allows every action (programs/cloud.py ``aws_document_opens``); for
  ``KIND`` ``template`` (a CloudFormation template deployed with IAM capabilities, ``--template-file`` or
  ``--template-body file://``) why it grants admin-like access (programs/cloud.py ``cloudformation_grants``). This one
  changes the grade: such a document is ``makes-public`` or ``privilege-grant``, and so is one not reported.
* git push (git-config(1), githooks(5)): a ``pre-push`` or ``reference-transaction`` hook, a configuration key
  outside :data:`SAFE_GIT_KEYS` (``core.hooksPath``, ``core.sshCommand``, ``credential.helper``, ``include.path``,
  ``url.X.insteadOf``, ``remote.X.receivepack``...), ``push.default = matching`` (a plain push then pushes every
  branch whose name the remote has, not the one the approval was for), a remote whose URL is a repository on this machine (a path,
  ``file://``, ``transport::address``: git runs that repository's hooks), and a remote word, or a
  ``branch.X.remote``/``branch.X.pushremote``/``remote.pushDefault`` value, that names no configured remote (git
  then pushes to the path or URL it spells).
* git's directories (question :data:`GIT_DIRECTORY`): the git directory and common directory a ``.git`` file names
  when they lie outside the workspace (a worktree, a submodule, ``--separate-git-dir``). This one changes a grade:
  a write there is a control-file write (grader.py ``Grader.workspace_git_directory``).
* git run below the workspace's top (question :data:`REPOSITORY`): a ``.git`` in that directory or one between it
  and the workspace's top, or such a directory that is itself a git directory (``HEAD``, ``objects`` and ``refs``:
  a bare repository), is a nested repository whose ``config`` (``core.fsmonitor``, ``core.pager``,
  ``core.hooksPath``, ``diff.external``) and ``hooks`` git obeys (git(1) "GIT_DIR": git searches the directory and
  its parents for ``.git``); only a ``.git`` file whose ``gitdir:`` lies in the workspace's own ``.git`` (a
  submodule's ``.git/modules/NAME``, gitrepository-layout(5)) is the workspace's repository, whose control files
  FlyBot guards.
* git's programs (question :data:`PROGRAMS`): each key of :data:`GIT_PROGRAM_KEYS` in the configuration of the
  repository git finds from the workspace, with its value (git-config(1): ``core.fsmonitor``, ``core.pager``,
  ``pager.<cmd>``, ``diff.external``, textconv drivers, filters, ``core.sshCommand``, editors... name programs git
  runs; ``include.path`` names a file FlyBot does not read; ``pull.twohead``/``pull.octopus`` name merge strategies,
  one git does not have being a program ``git-merge-NAME`` it runs; ``stash.showPatch`` makes ``git stash show``
  print the stashed changes' lines), and each line FlyBot cannot read (``?``; a
  configuration or ``.git`` file that is there but cannot be read is one such line). This one
  changes a grade: git run there is graded as running that program (programs/git.py ``_configured_programs``).
* a C compile's includes (tool ``cc``, question :data:`CC_INCLUDES` ``includes PATH``): whether the source PATH, or a
  header it includes by a quoted name in the workspace, names a secret file in an include directive (``#include
  "/root/.ssh/id_rsa"``, ``#include <../../.env>``, ``#embed``, ``.incbin``). This one changes a grade: the compile
  reads it and ``-E`` or a diagnostic prints it (programs/build.py ``cc_includes``: ``secret-read``).
* git's tracked secret files (question :data:`TRACKED`): the files the repository's index tracks whose name makes
  them secret files (``.env.production``, ``server.key``; gitformat-index(5) read directly, versions 2 to 4; a split
  or sparse index is not read). This one changes a grade: ``git grep``, ``git log -p`` and ``git cat-file
  --batch-all-objects --batch`` over the whole tree print them (programs/git.py ``_tracked_secrets``).
* git's hook directory (question :data:`HOOKS`): each ``core.hooksPath`` value in the configuration of the
  repository git finds from the workspace (git-config(1) core.hooksPath: git runs its hooks from there instead of
  ``.git/hooks``; a relative path is relative to the top of the working tree). A write there is a control-file write,
  as one into ``.git/hooks`` is.

* Kubernetes manifests and local Helm charts (settings tool ``kubernetes``; bot/risk/manifests.py): the items of
  the files ``kubectl apply|create|replace -f|-k`` and ``helm install|upgrade`` of a local chart send that hand a pod
  the node or give full control of the cluster (Pod Security Standards; RBAC; admission webhooks). This one changes
  the grade: each is ``destructive`` on the host, and so is what cannot be read (programs/control.py
  ``_manifest_items``).
* code from outside the workspace (question :data:`OUTSIDE`): settings between the directory a tool runs in and the
  workspace's top that make a build or test run a program or load code from outside the workspace: cargo's
  ``rustc-wrapper``, ``runner``, ``linker``, ``[env]``, ``[source]`` directories, and Cargo.toml's path
  dependencies, ``[patch]``/``[replace]`` paths, build scripts, targets and members (:func:`_cargo_manifests_outside`,
  path dependencies and members inside followed); ``.mvn/jvm.config``,
  ``.mvn/maven.config``, ``gradle.properties``, sbt's ``.jvmopts``/``.sbtopts`` and ``.bazelrc`` ``startup`` JVM
  options (``-javaagent:``, ``-Dmaven.ext.class.path=``);
  go.mod ``replace`` and go.work ``use`` directories; Mocha's ``require``/``spec``; bunfig's ``preload``;
  pyproject.toml local direct references and ``[tool.uv]`` sources, members, find-links and indexes for uv and pdm,
  and ``[tool.poetry]`` path and local git dependencies and packages for poetry (:func:`_python_outside`); the
  Gemfile's ``path:``/local ``git:`` gems and ``eval_gemfile`` files, and Gemfile.lock's ``PATH``/``GIT`` remotes,
  for bundle (tool ``ruby``, :func:`_bundler_outside`); composer.json ``path``, ``artifact`` and local VCS or
  package repositories for composer (tool ``composer``, :func:`_composer_outside`); CMake presets' toolchain
  files, includes, program cache variables and environment for ``cmake --preset`` and ``ctest --preset`` (tool
  ``cc``, :func:`_cmake_presets_outside`); a ``global.json`` ``sdk.paths`` entry for dotnet (tool ``dotnet``,
  :func:`_dotnet_outside`); pubspec.yaml and pubspec_overrides.yaml path and local git dependencies and workspace
  members for dart and flutter (tool ``dart``, :func:`_pubspec_outside`). Unlike
  most here, these change the grade: destructive (programs/projects.py ``outside_settings``). A cargo ``[alias]``
  (question :data:`CARGO_ALIAS`) is graded as what it expands to.

The adapter, which runs in the session's directory, reads these (:func:`read`, through
:class:`~bot.risk.recipes.ProjectRecipes`) and sends each place it checked as a recipe whose target starts with
``<settings> `` (:data:`~bot.risk.recipes.SETTINGS`) and whose lines are what it found (none: nothing chooses code there). The classifier
(programs/projects.py ``workspace_settings``) lists each finding in the command's
:attr:`~bot.risk.model.SimpleCommand.chosen_by`, as it does a place that was not reported (an older adapter, an API
caller): no standing approval covers such a command, and the card names why. The grade itself does not change
(but for the git directories above).
Nothing here runs anything; files are read up to :data:`~bot.risk.recipes.MAX_FILE_BYTES`.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import tomllib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import configparser

__all__ = [
    "CARGO_ALIAS",
    "FRAMEWORK",
    "WORKSPACES",
    "TASKS",
    "ALEMBIC",
    "COVERAGE",
    "PRESENT",
    "CARGO_START",
    "CONCAT",
    "FFCONCAT",
    "CARGO_TOOLCHAIN",
    "GIT_DIRECTORY",
    "GUESS",
    "NPX_BIN",
    "INERT_NPMRC_KEYS",
    "INERT_YARNRC_KEYS",
    "OUTSIDE",
    "PYTHON_SOURCE_KEYS",
    "REQUIREMENTS",
    "REQUIREMENTS_OUTSIDE",
    "REQUIREMENTS_SOURCE",
    "GIT_PROGRAM_KEYS",
    "HOOKS",
    "PROGRAMS",
    "REPOSITORY",
    "SAFE_GIT_KEYS",
    "TOOLS",
    "TRACKED",
    "jvm_code_options",
    "local_url",
    "read",
    "yaml_keys",
]

#: A settings recipe's target is :data:`~bot.risk.recipes.SETTINGS` and the question asked (``""`` for the tool's
#: settings; ``"push NAME"`` for git push to the remote word NAME, ``"push "`` for none).
#: The tools whose settings are read.
TOOLS = (
    "npm", "pnpm", "yarn", "cargo", "go", "git", "python", "pytest", "mkdocs", "compose", "pip", "jvm", "aws", "ruby",
    "composer", "ffmpeg", "cc", "dotnet", "dart", "ansible", "kubernetes", "iac", "sops",
)  # fmt: skip
#: The git question asking where the workspace's repository keeps its git directory outside the workspace.
GIT_DIRECTORY = "git-directory"

#: ``.npmrc`` keys that choose no code (npm-config(7)): how installs are saved, reported and authenticated.
#: ``registry``, ``@scope:registry`` and ``use-node-version`` are not among them.
INERT_NPMRC_KEYS = frozenset({
    "save", "save-exact", "save-prefix", "save-dev", "save-optional", "save-peer", "save-prod", "package-lock",
    "package-lock-only", "engine-strict", "fund", "audit", "audit-level", "loglevel", "progress", "color",
    "legacy-peer-deps", "strict-peer-deps", "auto-install-peers", "shamefully-hoist", "always-auth",
    "update-notifier", "fetch-retries", "fetch-retry-mintimeout", "fetch-retry-maxtimeout", "fetch-timeout",
    "prefer-offline", "prefer-online", "ignore-scripts", "lockfile-version", "git-tag-version", "sign-git-tag",
    "tag-version-prefix", "message", "init-author-name", "init-author-email", "init-author-url", "init-license",
    "init-version", "email", "username", "_auth", "_authtoken", "_password", "omit", "include", "production",
    "resolution-mode", "unicode", "timing", "logs-max",
})  # fmt: skip
#: ``[tool.uv]`` keys (uv "Settings" reference) that choose where packages or Python come from.
PYTHON_SOURCE_KEYS = frozenset({
    "index", "index-url", "extra-index-url", "find-links", "sources", "no-index", "index-strategy",
    "keyring-provider", "allow-insecure-host", "python-install-mirror", "pypy-install-mirror",
    "python-downloads-json-url", "pip",
})  # fmt: skip
#: ``.yarnrc.yml``/``.yarnrc`` keys that choose no code (yarnpkg.com "Settings"): output, telemetry, linker layout.
INERT_YARNRC_KEYS = frozenset({
    "enabletelemetry", "enableprogressbars", "enablecolors", "enablehyperlinks", "enableglobalcache",
    "enableimmutableinstalls", "enableinlinebuilds", "enablemessagenames", "nodelinker", "compressionlevel",
    "pnpmode", "nmmode", "nmhoistinglimits", "preferinteractive", "defaultsemverrangeprefix", "initscope",
    "initfields", "lockfilefilename", "cachefolder", "globalfolder", "enablescripts", "save-prefix", "no-progress",
    "network-timeout",
})  # fmt: skip
#: git configuration keys that choose no code for git push (git-config(1)); ``remote.X.url``/``pushurl`` are
#: checked for a repository on this machine. ``*`` stands for one subsection.
SAFE_GIT_KEYS = frozenset({
    "core.repositoryformatversion", "core.bare", "core.logallrefupdates", "core.precomposeunicode", "core.symlinks",
    "core.filemode", "core.ignorecase", "core.autocrlf", "core.eol", "core.safecrlf", "core.quotepath",
    "extensions.objectformat", "extensions.worktreeconfig", "extensions.refstorage",
    "remote.*.url", "remote.*.pushurl", "remote.*.fetch", "remote.*.push", "remote.*.tagopt", "remote.*.prune",
    "remote.*.skipdefaultupdate", "remote.*.mirror", "remote.*.promisor", "remote.*.partialclonefilter",
    "branch.*.remote", "branch.*.merge", "branch.*.pushremote", "branch.*.rebase", "branch.*.description",
    "submodule.*.url", "submodule.*.active", "submodule.*.branch", "submodule.*.path",
    "user.name", "user.email", "init.defaultbranch", "pull.rebase", "pull.ff", "push.default", "push.autosetupremote",
    "remote.pushdefault", "merge.conflictstyle", "merge.ff", "rebase.autostash", "rebase.autosquash", "fetch.prune",
    "gc.auto", "index.version", "feature.manyfiles", "protocol.version", "log.date", "diff.renames",
    "status.showuntrackedfiles", "column.ui", "checkout.defaultremote", "lfs.repositoryformatversion",
})  # fmt: skip
_SAFE_GIT_PREFIXES = ("color.", "advice.", "i18n.")
#: Hooks git runs on this machine during a push (githooks(5)).
_PUSH_HOOKS = ("pre-push", "reference-transaction")
_MAX_BYTES = 256 * 1024
#: The git settings question asking whether git run in a directory finds a repository other than the workspace's.
REPOSITORY = "repository"
#: The git settings question asking which directories ``core.hooksPath`` names (the setting is each finding's value).
HOOKS = "hooks"
#: The git settings question asking which configuration keys of the repository name programs git runs.
PROGRAMS = "programs"
#: git configuration keys that name a program git runs, or a file it reads more configuration from (git-config(1)),
#: in the form of :func:`_general` (``*`` stands for one subsection); ``pager.*`` is any ``pager.<cmd>``;
#: ``pull.twohead``/``pull.octopus`` name the merge strategies ``git pull`` and ``git merge`` use (git-config(1);
#: one git does not have runs ``git-merge-NAME``), ``stash.showpatch`` what ``git stash show`` prints.
GIT_PROGRAM_KEYS = frozenset({
    "core.fsmonitor", "core.pager", "pager.*", "diff.external", "diff.*.command", "diff.*.textconv",
    "core.sshcommand", "core.gitproxy", "core.askpass", "core.editor", "sequence.editor", "core.hookspath",
    "core.alternaterefscommand", "filter.*.clean", "filter.*.smudge", "filter.*.process", "credential.helper",
    "credential.*.helper", "include.path", "includeif.*.path", "gpg.program", "gpg.*.program", "merge.*.driver",
    "mergetool.*.cmd", "difftool.*.cmd", "interactive.difffilter", "remote.*.uploadpack", "remote.*.receivepack",
    "remote.*.url", "remote.*.pushurl", "sendemail.tocmd", "sendemail.cccmd", "sendemail.sendmailcmd",
    "sendemail.smtpserver", "pull.twohead", "pull.octopus", "stash.showpatch",
})  # fmt: skip
#: The git question asking whether a branch name is the repository's local branch (:func:`_git_local_branch`).
LOCAL_BRANCH = "local-branch "
#: The git question asking which remote's branch ``git switch NAME`` creates NAME from when NAME is no local branch
#: (:func:`_git_guess`).
GUESS = "guess "
#: The git question asking which files of the repository's index (the tracked files) are secret files by their
#: name (:func:`_git_tracked_secrets`).
TRACKED = "tracked"
#: The git question ``holds PATH`` asking whether the directory PATH (from where the tool runs), which a tool empties
#: before it writes there (pytest ``--basetemp``), holds a repository or files its repository tracks
#: (:func:`_git_holds`).
HOLDS = "holds "
#: The git question ``holds-other PATH`` asking whether the directory PATH, which pytest empties (``--basetemp``), holds
#: anything but the numbered directories pytest makes there (:func:`_pytest_leftovers`).
HOLDS_OTHER = "holds-other "
#: The cc question ``includes PATH`` asking whether the C, C++ or assembly source PATH (from where the compiler runs),
#: or a header it includes by a quoted name, names a secret file in an include directive (:func:`_cc_includes`).
CC_INCLUDES = "includes "
#: The cargo question asking what chooses the code a use graded read-only runs (``cargo fmt --check``, ``cargo -V``):
#: an ``[alias]`` of ``.cargo/config.toml`` or ``.cargo/config`` (it shadows an external subcommand such as ``fmt``;
#: The Cargo Book, "Configuration", ``[alias]``) and a toolchain file's local ``path`` toolchain (:func:`_cargo_starts`).
CARGO_START = "start"
#: The cargo question for the rustup proxies (``rustc``, ``rustfmt``): a toolchain file's local ``path`` toolchain.
CARGO_TOOLCHAIN = "toolchain"
#: The aws question ``document KIND FILE`` asking whether the policy document in FILE (the path after ``file://``,
#: from where aws runs) opens a bucket to everyone or allows every action (:func:`_aws_document`).
AWS_DOCUMENT = "document "
#: The cargo question asking what the ``[alias]`` after it expands to (:func:`_cargo_alias`).
CARGO_ALIAS = "alias "
#: The question asking which settings make a tool run code from outside the workspace, between the directory it
#: runs in and the workspace's top: ``outside`` for cargo (:func:`_cargo_outside`) and go (:func:`_go_outside`),
#: ``outside mvn``/``gradle``/``sbt``/``bazel`` for jvm (:func:`_jvm_outside`), ``outside mocha``/``outside bun`` for npm
#: (:func:`_mocha_outside`, :func:`_bun_outside`), ``outside rspec`` for ruby (:func:`_rspec_outside`), ``outside flyway
#: FILES`` for jvm (:func:`_flyway_outside`), ``outside prisma SCHEMA`` for npm (:func:`_prisma_outside`). Each finding is ``(file, "SETTING: why")``; the classifier
#: grades every one destructive (programs/projects.py ``outside_settings``). Files above the workspace (the owner's
#: own, ``~/.cargo/config.toml``) are not judged.
OUTSIDE = "outside"
#: The question (asked under the recipe tool ``path``) naming, after it, files a tool looks for upward: the first of
#: them found above the workspace when none is in the workspace on the way (:func:`_found_above`).
ABOVE = "above "
#: The python question ``alembic INI SECTION`` asking whether the database an Alembic command run there uses is an
#: SQLite file in the workspace (:func:`_alembic_database`): no finding when it is, one saying why not otherwise.
ALEMBIC = "alembic "
#: The python question ``coverage SECTION [RCFILE]`` asking which files the coverage.py configuration where it runs
#: (or RCFILE) names for the command of SECTION to write (:func:`_coverage_outputs`): ``(source, path)`` findings.
COVERAGE = "coverage "
#: The question (asked under the recipe tool ``path``) naming, after it, files (relative to where a tool runs) that
#: the tool reads as its commands when they are there (a debugger's ``.gdbinit``): those present (:func:`_present_here`).
PRESENT = "present "
#: The python question asking what in the directory ``python -m NAME`` runs in would be imported as ``NAME``
#: (:func:`_module_shadows`).
MODULE = "module "
#: The pip question ``requirements FILE`` asking what the requirements or constraints file FILE (from where pip
#: runs), and the files it includes in the workspace, name from outside the workspace or from another source
#: (:func:`_pip_requirements`).
REQUIREMENTS = "requirements "
#: The first word of a :data:`REQUIREMENTS` finding that is code or a file from outside the workspace; the others
#: start with :data:`REQUIREMENTS_SOURCE` (an index, ``--find-links``, a URL or VCS requirement).
REQUIREMENTS_OUTSIDE = "outside:"
REQUIREMENTS_SOURCE = "source:"
#: The pip question ``environment FILE`` asking what the conda environment file FILE (from where conda runs) names
#: from outside the workspace or from another source (:func:`_conda_environment`), in the findings of
#: :data:`REQUIREMENTS`.
ENVIRONMENT = "environment "
#: The npm question ``bin NAME`` asking whether ``npx NAME`` run there finds the program in the project's
#: ``node_modules/.bin`` (:func:`_npx_bin`).
NPX_BIN = "bin "
#: The python question ``scripts pdm NAME`` or ``scripts pipenv NAME`` asking what ``pdm run NAME``/``pipenv run NAME`` runs besides the
#: program NAME: a project script of that name and the hooks and files those runs load (:func:`_project_scripts`).
SCRIPTS = "scripts "
#: The python question ``framework manage.py PATH`` and the composer question ``framework artisan PATH`` asking whether the
#: file PATH (from where the interpreter runs) is the framework's own dispatcher, the shape of the file the
#: framework's project template writes (:func:`framework_script`): no finding when it is; one finding saying why not
#: otherwise (another shape, a link, no such file).
FRAMEWORK = "framework "
#: The npm, pnpm and yarn question asking which packages the workspace of the directory the tool runs in holds
#: (:func:`js_workspace_packages`): each finding is ``(the package's directory, relative to the workspace, its name)``.
WORKSPACES = "workspaces"
#: The npm question ``tasks turbo TASK...`` asking what ``turbo run TASK...`` run where it is asked runs
#: (:func:`turbo_tasks`): one finding ``(file, "manager TOOL")`` naming the package manager whose workspace turbo
#: runs the scripts of, one ``(file, "task NAME")`` for every task the run may run (those given and those their
#: configuration makes them depend on), ``(file, "root NAME")`` for a task of the root package, and ``(file,
#: "remote")`` when a remote cache may be used.
TASKS = "tasks "


def read(root: str, base: str, tool: str, question: str) -> list[tuple[str, str]]:
    """What chooses code for ``tool`` run in ``base`` (a real directory in the real workspace ``root``), as
    ``(source, setting)`` pairs: where it is written (relative to the workspace, ``.npmrc:2``) and what it sets.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read (the caller makes the whole
            place unreadable: fail closed).
    """
    places = _up_to(base, root)
    found: list[tuple[str, str]] = []
    if question.startswith(PRESENT):
        found += _present_here(root, base, question[len(PRESENT) :].split())
    elif question.startswith(ABOVE):
        found += _found_above(root, places, question[len(ABOVE) :].split())
    elif question.split(" ", 1)[0] == OUTSIDE:
        found += _outside(root, places, tool, question[len(OUTSIDE) :].strip())
    elif tool == "cargo" and question.startswith(CARGO_ALIAS):
        found += _cargo_alias(root, places + _above(root), question[len(CARGO_ALIAS) :])
    elif tool == "npm" and question.startswith(NPX_BIN):
        found += _npx_bin(root, places, question[len(NPX_BIN) :])
    elif tool == "npm" and question.startswith(TASKS + "turbo "):
        found += turbo_tasks(root, base, question[len(TASKS + "turbo ") :].split())
    elif tool in ("npm", "pnpm", "yarn") and question == WORKSPACES:
        found += js_workspace_packages(root, base, tool)
    elif tool in ("npm", "pnpm", "yarn"):
        for place in places:
            found += _js_settings(root, place)
    elif tool == "cargo" and question in (CARGO_START, CARGO_TOOLCHAIN):
        found += _cargo_starts(root, places + _above(root), aliases=question == CARGO_START)
    elif tool == "cargo":
        for place in places + _above(root):
            for name in (".cargo/config.toml", ".cargo/config", "rust-toolchain.toml", "rust-toolchain"):
                if os.path.lexists(os.path.join(place, name)):
                    found.append(
                        (_rel(root, os.path.join(place, name)), "chooses the programs and toolchain cargo runs")
                    )
    elif tool == "go":
        for place in places + _above(root):
            found += _go_settings(root, place)
    elif tool == "python" and question.startswith(ALEMBIC):
        ini, _, section = question[len(ALEMBIC) :].partition(" ")
        found += _alembic_database(root, base, ini, section or "alembic")
    elif tool == "python" and question.startswith(COVERAGE):
        found += _coverage_outputs(root, base, question[len(COVERAGE) :])
    elif tool == "python" and question.startswith(SCRIPTS):
        runner, _, name = question[len(SCRIPTS) :].partition(" ")
        if runner not in ("pdm", "pipenv") or not name:
            raise ValueError(f"no settings are read for {tool} {question[:80]}")
        found += _project_scripts(root, places, runner, name)
    elif tool == "python" and question.startswith(MODULE):
        found += _module_shadows(root, base, question[len(MODULE) :])
    elif tool in ("python", "composer") and question.startswith(FRAMEWORK):
        kind, _, path = question[len(FRAMEWORK) :].partition(" ")
        found += framework_script(root, base, kind, path)
    elif tool == "python":
        for place in places:
            found += _python_settings(root, place)
        project = any(os.path.lexists(os.path.join(p, "pyproject.toml")) for p in places)
        for place in _above(root):
            uv = os.path.join(place, "uv.toml")
            if os.path.lexists(uv):
                found.append((_rel(root, uv), "chooses where uv gets packages and Python"))
            pyproject = os.path.join(place, "pyproject.toml")
            if os.path.lexists(pyproject):
                # uv "Configuration files" and project discovery, poetry and pdm: the nearest pyproject.toml upward
                above = [f for f in _python_settings(root, place) if f[0] == _rel(root, pyproject)]
                if not project:
                    above.append((_rel(root, pyproject), "the project uv, poetry and pdm find above the workspace"))
                found += above
                project = True
    elif tool == "pip" and question.startswith(REQUIREMENTS):
        found += _pip_requirements(root, base, question[len(REQUIREMENTS) :])
    elif tool == "pip" and question.startswith(ENVIRONMENT):
        found += _conda_environment(root, base, question[len(ENVIRONMENT) :])
    elif tool == "pip":
        found += _pip_site_configs(root, places)
    elif tool == "dotnet" and not question:
        found += _nuget_sources(root, places + _above(root))
    elif tool == "jvm" and question in ("mvn", "bazel", "sbt"):
        found += _jvm_starts(root, base, places, question)
    elif tool == "ffmpeg" and question.startswith((CONCAT, FFCONCAT)):
        forced = question.startswith(CONCAT)
        found += _concat_list(root, base, question[len(CONCAT if forced else FFCONCAT) :], forced=forced)
    elif tool == "cc" and question.startswith(CC_INCLUDES):
        found += _cc_includes(root, base, question[len(CC_INCLUDES) :])
    elif tool == "pytest" and question.startswith("file "):
        found += _pytest_file(root, os.path.join(base, question[len("file ") :]))
    elif tool == "pytest" and question.startswith(PYTEST_PATH):
        found += _pytest_path(root, os.path.join(base, question[len(PYTEST_PATH) :]))
    elif tool == "pytest":
        found += _pytest_addopts(root, places + _above(root))
    elif tool == "compose":
        found += _compose_restarts(root, base, question[len("file ") :] if question.startswith("file ") else None)
    elif tool == "mkdocs":
        found += _mkdocs_site_dir(root, base, question[len("file ") :] if question.startswith("file ") else None)
    elif tool == "git" and question.startswith("push "):
        found += _git_push(root, base, question[len("push ") :])
    elif tool == "git" and question.startswith(LOCAL_BRANCH):
        found += _git_local_branch(root, base, question[len(LOCAL_BRANCH) :])
    elif tool == "git" and question.startswith(GUESS):
        found += _git_guess(root, base, question[len(GUESS) :])
    elif tool == "git" and question == TRACKED:
        found += _git_tracked_secrets(root, base)
    elif tool == "git" and question.startswith(HOLDS_OTHER):
        found += _pytest_leftovers(root, os.path.normpath(os.path.join(base, question[len(HOLDS_OTHER) :])))
    elif tool == "git" and question.startswith(HOLDS):
        found += _git_holds(root, os.path.normpath(os.path.join(base, question[len(HOLDS) :])))
    elif tool == "git" and question == GIT_DIRECTORY:
        found += _git_places(root, base)
    elif tool == "git" and question == REPOSITORY:
        found += _git_nested(root, base)
    elif tool == "git" and question == HOOKS:
        found += _git_hooks_paths(root, base)
    elif tool == "ruby" and question == "rails":
        for place in places + _above(root):
            for name in ("bin/rails", "script/rails"):
                if os.path.lexists(os.path.join(place, name)):
                    path = os.path.join(place, name)
                    found.append((_rel(root, path), f"{_rel(root, path)} (the script the rails command runs)"))
    elif tool == "ansible" and not question:
        found += _ansible_cfg(root, base)
    elif tool == "iac" and question.split(" ", 1)[0] in ("terraform", "cdk", "helmfile"):
        found += _iac_programs(root, base, question)
    elif tool == "sops" and not question:
        found += _sops_key_services(root, places + _above(root))
    elif tool == "aws" and question.startswith(AWS_DOCUMENT):
        found += _aws_document(root, base, question[len(AWS_DOCUMENT) :])
    elif tool == "git" and question == PROGRAMS:
        found += _git_programs(root, base)
    elif tool == "kubernetes":
        from bot.risk.manifests import read as manifest_items

        found += manifest_items(root, base, question)
    else:
        raise ValueError(f"no settings are read for {tool} {question}")
    return found


#: The longest setting a settings recipe line carries (bot/risk/recipes.py cuts longer ones).
_MAX_SETTING = 200
#: pytest's configuration files in the order it looks for them in each directory, with the section that makes one
#: count (pytest reference, "Configuration file formats" and "rootdir and configfile": pytest.ini and .pytest.ini
#: count even without a ``[pytest]`` section; None: any).
_PYTEST_FILES = (
    ("pytest.ini", None),
    (".pytest.ini", None),
    ("pyproject.toml", "tool.pytest.ini_options"),
    ("tox.ini", "pytest"),
    ("setup.cfg", "tool:pytest"),
)


#: The settings question for a path pytest is given (``pytest sub/tests``): :func:`_pytest_path`.
PYTEST_PATH = "path "


def _pytest_path(root: str, path: str) -> list[tuple[str, str]]:
    """The ``addopts`` of the configuration file that counts (:data:`_PYTEST_FILES`) in the directory of ``path``
    (a test path pytest is given: the directory itself, or a file's directory) and each one above it, past the
    workspace up to ``/``; none when ``path`` does not exist (pytest ignores such an argument). pytest reference,
    "rootdir and configfile": it looks for the configuration file from the common ancestor of the arguments that
    are existing paths and upwards, and failing that (and a ``setup.py``) from each argument upwards; every file
    either search could take is one of these, so their options together hold the ones pytest adds (fail closed).

    Raises:
        OSError, ValueError, UnicodeDecodeError: ``path`` lies outside the workspace (after symbolic links), or a
            file that is there could not be read or parsed (fail closed).
    """
    if not os.path.lexists(path):
        return []
    real = os.path.realpath(path)
    if real != root and not real.startswith(root.rstrip("/") + "/"):
        raise ValueError(f"{_rel(root, path)} (not read: outside the workspace)")
    start = real if os.path.isdir(real) else os.path.dirname(real)
    found: list[tuple[str, str]] = []
    for place in _up_to(start, root) + _above(root):
        for name, _section in _PYTEST_FILES:
            file = os.path.join(place, name)
            if os.path.lexists(file):
                options = _pytest_options(root, file, name, required=True)
                if options is not None:  # the first file that counts in a directory is the one pytest takes there
                    found += options
                    break
    return found


#: The compose files ``docker compose`` reads by default, in a directory (Docker's "Compose file reference":
#: ``compose.yaml``, then ``compose.yml``, ``docker-compose.yaml``, ``docker-compose.yml``, each with its
#: ``.override`` file merged on top).
_COMPOSE_FILES = (
    "compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml", "compose.override.yaml",
    "compose.override.yml", "docker-compose.override.yaml", "docker-compose.override.yml",
)  # fmt: skip
_COMPOSE_RESTART = re.compile(r"^[ \t]*(?:-[ \t]+)?[\"']?(restart|restart_policy)[\"']?[ \t]*:[ \t]*(.*)$")


def _compose_restarts(root: str, base: str, named: str | None) -> list[tuple[str, str]]:
    """The restart policies of the compose files ``docker compose`` started in ``base`` reads: the file ``-f`` names
    (``named``), else every default file (:data:`_COMPOSE_FILES`) in ``base`` and each directory above it (Compose
    searches the parents when the working directory has none; every one is read: fail closed). A service's
    ``restart:`` other than ``no`` (Compose file reference, services ``restart``: ``always``, ``on-failure``,
    ``unless-stopped``) and any ``deploy.restart_policy`` (its ``condition`` defaults to ``any``) make the engine
    start the container again at every boot; each is one ``(source, setting)``. Read as text, without a YAML parser:
    every line holding such a key counts, wherever it is (an anchor merged elsewhere too).

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file outside the workspace, a file that could not be read, one
            that pulls in other files (``include:``, ``extends:`` with ``file:``), or a ``.env`` in ``base`` that
            sets ``COMPOSE_FILE`` (the files are then others): fail closed.
    """
    if named is not None:
        files = [os.path.join(base, named)]
    else:
        env = os.path.join(base, ".env")
        if os.path.lexists(env) and re.search(r"(?m)^[ \t]*(?:export[ \t]+)?COMPOSE_FILE[ \t]*=", _text(env)):
            raise ValueError(f"{_rel(root, env)} sets COMPOSE_FILE (the compose files are not read)")
        files = [os.path.join(p, n) for p in _up_to(base, root) + _above(root) for n in _COMPOSE_FILES]
        files = [f for f in files if os.path.lexists(f)]
    found: list[tuple[str, str]] = []
    for path in files:
        real = os.path.realpath(path)
        if not real.startswith(root.rstrip("/") + "/") and named is not None:
            raise ValueError(f"{_rel(root, path)} (not read: outside the workspace)")
        if not os.path.isfile(real):
            raise ValueError(f"{_rel(root, path)} (not read: not a regular file)")
        lines = _text(real).splitlines()
        if any(re.match(r"include[ \t]*:", line) for line in lines) or (
            any(re.match(r"[ \t]*extends[ \t]*:", line) for line in lines)
            and any(re.match(r"[ \t]+file[ \t]*:", line) for line in lines)
        ):
            raise ValueError(f"{_rel(root, path)} pulls in other compose files (include, extends: file)")
        for number, line in enumerate(lines, start=1):
            match = _COMPOSE_RESTART.match(line)
            if match is None:
                continue
            value = re.split(r"[ \t]#", match.group(2), maxsplit=1)[0].strip().strip("\"'")
            if match.group(1) == "restart" and value.lower() in ("no", "false"):
                continue
            found.append((f"{_rel(root, path)}:{number}", f"{match.group(1)}: {value[:100] or '(a block)'}"))
    return found


#: A top-level key of a YAML mapping on its own line (``site_dir: build/site``), and its value's text.
_YAML_TOP_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]+(.*))?$")


def _mkdocs_site_dir(root: str, base: str, named: str | None) -> list[tuple[str, str]]:
    """Where ``mkdocs build``/``gh-deploy`` run in ``base`` builds the site, which it empties first (MkDocs 1.6
    "Configuration": ``site_dir``, default ``site``, "relative to the directory containing the configuration file";
    the CLI's ``--clean``, the default, "Remove old files from the site_dir before building"): the configuration file
    is ``mkdocs.yml``, else ``mkdocs.yaml``, in ``base`` (mkdocs/config/base.py ``_open_config_file``), or the file
    ``-f`` names (``named``). One ``(source, path)``: ``site_dir`` joined to the configuration's directory, relative to
    ``base`` (or absolute as written); none when the file sets none (``site`` beside it) or there is no file.

    Read without a YAML parser (the adapter loads none): the top-level ``site_dir:`` line's plain or simply quoted
    value. Anything that could make the value differ from that text fails closed: an ``INHERIT`` key (the
    configuration inherits another file), ``site_dir`` given twice, a tag (``!ENV``), an anchor or alias, a
    block or flow value, an escape in double quotes, a continuation line, a quoted or complex top-level key.

    Raises:
        OSError, ValueError, UnicodeDecodeError: the file is outside the workspace (after symbolic links), could not
            be read, or ``site_dir`` cannot be told from its text (fail closed).
    """
    if named is not None:
        path = os.path.join(base, named)
        real = os.path.realpath(path)
        if not real.startswith(root.rstrip("/") + "/") or not os.path.isfile(real):
            raise ValueError(f"{_rel(root, path)} (not read: outside the workspace, or not a regular file)")
    else:
        path = next(
            (os.path.join(base, n) for n in ("mkdocs.yml", "mkdocs.yaml") if os.path.lexists(os.path.join(base, n))), ""
        )
        if not path:
            return []
        real = os.path.realpath(path)
        if not real.startswith(root.rstrip("/") + "/") or not os.path.isfile(real):
            raise ValueError(f"{_rel(root, path)} (not read: outside the workspace, or not a regular file)")
    lines = _text(real).splitlines()
    values: list[str] = []
    for number, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith("#") or line[0] in " \t" or line.startswith(("---", "...")):
            continue
        match = _YAML_TOP_KEY.match(line.rstrip())
        if match is None:
            if line.startswith(("'", '"', "?", "{", "[", "&", "*", "!", "<<")):
                raise ValueError(f"{_rel(root, path)}:{number + 1}: a top-level key FlyBot cannot read")
            continue
        key, value = match.group(1), (match.group(2) or "").strip()
        if key == "INHERIT":
            raise ValueError(f"{_rel(root, path)}: INHERIT (the site_dir of another file is not read)")
        if key != "site_dir":
            continue
        following = next((n for n in lines[number + 1 :] if n.strip() and not n.lstrip().startswith("#")), "")
        if following[:1] in (" ", "\t"):
            raise ValueError(f"{_rel(root, path)}:{number + 1}: site_dir continues on the next line")
        values.append(_yaml_plain(value, f"{_rel(root, path)}:{number + 1}"))
    if len(values) > 1:
        raise ValueError(f"{_rel(root, path)}: site_dir is given twice")
    if not values:
        return []
    site = values[0]
    here = os.path.dirname(os.path.relpath(path, base))
    target = site if site.startswith("/") else os.path.normpath(os.path.join(here, site))
    return [(f"{_rel(root, path)} site_dir", target)]


#: coverage.py "Configuration reference": the settings of each section that name a file or directory written.
_COVERAGE_WRITES = {
    "run": ("data_file", "debug_file"),
    "html": ("directory",),
    "xml": ("output",),
    "json": ("output",),
    "lcov": ("output",),
}


def _coverage_outputs(root: str, base: str, question: str) -> list[tuple[str, str]]:
    """The files and directories the coverage.py configuration for a command run in ``base`` names for the section
    ``SECTION`` of ``question`` (``SECTION [RCFILE]``) to write (:data:`_COVERAGE_WRITES`), as ``(source, path)``:
    the path as written when absolute or under ``~``, else relative to ``base`` (coverage.py resolves them from where
    it runs). coverage.py "Specifying the configuration file": without ``--rcfile`` it reads ``.coveragerc``
    (sections ``[SECTION]`` or ``[coverage:SECTION]``), ``setup.cfg`` and ``tox.ini`` (``[coverage:SECTION]``) and
    ``pyproject.toml`` (``[tool.coverage.SECTION]``), using the first holding coverage settings; every one is read
    here (a finding in any may be the one used).

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file outside the workspace (after symbolic links), one that cannot
            be parsed, or a value holding an environment variable (coverage.py expands ``$NAME``, ``${NAME}``): only
            known when it runs (fail closed).
    """
    import configparser

    section, _, named = question.partition(" ")
    keys = _COVERAGE_WRITES.get(section)
    if keys is None:
        raise ValueError(f"no coverage section {section[:40]!r}")
    names = [named] if named else [".coveragerc", "setup.cfg", "tox.ini", "pyproject.toml"]
    found: list[tuple[str, str]] = []
    for name in names:
        path = os.path.normpath(os.path.join(base, name))
        if not os.path.lexists(path):
            if named:
                raise ValueError(f"{_rel(root, path)} (not found)")
            continue
        real = os.path.realpath(path)
        if not real.startswith(root.rstrip("/") + "/") or not os.path.isfile(real):
            raise ValueError(f"{_rel(root, path)} (not read: outside the workspace, or not a regular file)")
        values: list[tuple[str, object]] = []
        if name.endswith(".toml"):
            data = _parsed(root, real, "toml")
            table = data.get("tool", {}).get("coverage", {}).get(section, {}) if isinstance(data, dict) else {}
            if not isinstance(table, dict):
                raise ValueError(f"{_rel(root, path)}: [tool.coverage.{section}] is not a table")
            values = [(f"[tool.coverage.{section}] {key}", table[key]) for key in keys if key in table]
        else:
            parser = _parsed(root, real, configparser.RawConfigParser(strict=False))
            for title in (f"coverage:{section}", section) if name != "setup.cfg" else (f"coverage:{section}",):
                if parser.has_section(title):
                    values += [
                        (f"[{title}] {key}", parser.get(title, key)) for key in keys if parser.has_option(title, key)
                    ]
        for where, value in values:
            if not isinstance(value, str) or "$" in value:
                raise ValueError(f"{_rel(root, path)} {where}: a value only known when it runs")
            text = value.strip()
            if text:
                target = text if text.startswith(("/", "~")) else os.path.normpath(text)
                found.append((f"{_rel(root, path)} {where}", target))
    return found


def _yaml_plain(value: str, where: str) -> str:
    """The string a YAML scalar ``value`` (one line) means when it is plain or simply quoted; ValueError otherwise."""
    if value[:1] in ("'", '"'):
        quote = value[0]
        end = value.find(quote, 1)
        rest = value[end + 1 :].strip() if end > 0 else "x"
        inner = value[1:end]
        if (
            end < 0
            or (rest and not rest.startswith("#"))
            or (quote == '"' and "\\" in inner)
            or (quote == "'" and "''" in value)
        ):
            raise ValueError(f"{where}: a quoted site_dir FlyBot cannot read")
        text = inner
    else:
        text = re.split(r"[ \t]#", value, maxsplit=1)[0].strip()
        if not text or text[0] in "!&*|>[{@`%\"'" or text in ("~", "null", "Null", "NULL"):
            raise ValueError(f"{where}: a site_dir FlyBot cannot read ({text[:40] or 'no value on its line'})")
    if not text or "\x00" in text:
        raise ValueError(f"{where}: an empty site_dir")
    return text


#: The ffmpeg questions ``concat FILE`` (the input ``-f concat`` reads as a concat list) and ``ffconcat FILE`` (an
#: input the concat demuxer takes when it starts ``ffconcat version``): what the list names (:func:`_concat_list`).
CONCAT = "concat "
FFCONCAT = "ffconcat "
#: FFmpeg Formats Documentation, "concat" "Syntax": the directives of a concat list other than ``file``, and those
#: whose operands FlyBot does not read (``option``: an option for opening the file, a nested format or protocol).
_CONCAT_DIRECTIVES = frozenset({
    "ffconcat", "duration", "inpoint", "outpoint", "file_packet_meta", "file_packet_metadata", "stream",
    "exact_stream_id", "stream_meta", "stream_codec", "stream_extradata", "chapter",
})  # fmt: skip
_CONCAT_MAX = 32


def _concat_tokens(line: str) -> list[str]:
    """``line`` split as the concat demuxer splits a directive (libavutil ``av_get_token``: blanks separate, a
    backslash escapes the next character, single quotes keep what they hold)."""
    tokens: list[str] = []
    current: list[str] | None = None
    index, quoted = 0, False
    while index < len(line):
        char = line[index]
        index += 1
        if char == "'":
            quoted = not quoted
            current = current if current is not None else []
        elif char == "\\" and not quoted and index < len(line):
            current = (current or []) + [line[index]]
            index += 1
        elif char in " \t" and not quoted:
            if current is not None:
                tokens.append("".join(current))
                current = None
        else:
            current = (current or []) + [char]
    if quoted:
        raise ValueError("an unterminated quote")
    if current is not None:
        tokens.append("".join(current))
    return tokens


def _concat_list(root: str, base: str, name: str, *, forced: bool) -> list[tuple[str, str]]:
    """What the concat list ``name`` (relative to ``base``) makes ffmpeg read with ``-safe 0`` (FFmpeg Formats
    Documentation, "concat": "file path: Path to a file to read; special characters and spaces must be escaped with
    backslash or single quotes"; a relative path is relative to the list's directory; "safe: If set to 0, any file
    name is accepted"): ``("LIST:LINE", "file PATH")`` for each file outside the workspace, and each secret in it
    by its name (sensitive.py ``env_file``, ``named_secret``), with its real path, and
    ``("LIST:LINE", "unknown WHY")`` for an entry FlyBot cannot place (a protocol or URL, an ``option`` directive, a
    directive it does not know), or past :data:`_CONCAT_MAX` of them. ``forced``: the input is read as a concat list
    (``-f concat``); otherwise only a file starting ``ffconcat version`` is one (the demuxer's probe), and another
    file names nothing.

    Raises:
        OSError, ValueError, UnicodeDecodeError: the list is outside the workspace (after symbolic links), not a
            regular file, or could not be read (fail closed).
    """
    path = os.path.join(base, name)
    real = os.path.realpath(path)
    if not real.startswith(root.rstrip("/") + "/") or not os.path.isfile(real):
        raise ValueError(f"{_rel(root, path)} (not read: outside the workspace, or not a regular file)")
    from bot.risk.sensitive import env_file, named_secret

    if not forced:
        with open(real, "rb") as handle:
            if not handle.read(16).startswith(b"ffconcat version"):
                return []
    where, here = _rel(root, path), os.path.dirname(real)
    found: list[tuple[str, str]] = []
    for number, line in _lines(_text(real)):
        tokens = _concat_tokens(line.strip())
        if not tokens or tokens[0].startswith("#"):
            continue
        directive, operand = tokens[0], (tokens[1] if len(tokens) > 1 else "")
        if directive == "file":
            protocol = re.match(r"[A-Za-z][A-Za-z0-9+.,-]*:", operand)
            if protocol and not operand.startswith("file:"):
                found.append((f"{where}:{number}", f"unknown {operand[:120]} (a protocol or URL)"))
                continue
            target = operand[len("file:") :] if operand.startswith("file:") else operand
            full = os.path.realpath(os.path.join(here, target))
            inside = full == root or full.startswith(root.rstrip("/") + "/")
            if not inside or env_file(full) or named_secret(full):  # a workspace secret (.env, a key) counts too
                found.append((f"{where}:{number}", f"file {full[:_MAX_SETTING]}"))
        elif directive not in _CONCAT_DIRECTIVES:
            found.append((f"{where}:{number}", f"unknown {directive[:60]} (a directive FlyBot does not read)"))
        if len(found) > _CONCAT_MAX:
            return found[:_CONCAT_MAX] + [(where, f"unknown (more than {_CONCAT_MAX} entries outside)")]
    return found


def _pytest_file(root: str, path: str) -> list[tuple[str, str]]:
    """The ``addopts`` of the configuration file ``pytest -c PATH`` names (pytest reference, ``-c, --config-file``:
    it is used whatever its name: a ``.toml`` file as pyproject.toml, ``setup.cfg`` by its ``[tool:pytest]``
    section, any other by ``[pytest]``), as :func:`_pytest_addopts` gives them.

    Raises:
        OSError, ValueError, UnicodeDecodeError: the file is outside the workspace (after symbolic links), missing
            or could not be read or parsed (fail closed).
    """
    real = os.path.realpath(path)
    if not real.startswith(root.rstrip("/") + "/") or not os.path.isfile(real):
        raise ValueError(f"{_rel(root, path)} (not read: outside the workspace, or not a regular file)")
    name = os.path.basename(path)
    kind = "pyproject.toml" if name.endswith(".toml") else "setup.cfg" if name == "setup.cfg" else "pytest.ini"
    return _pytest_options(root, path, kind, required=False, real=real) or []


#: pytest ini settings that name paths (pytest reference, "Configuration Options": ``testpaths`` and ``pythonpath``,
#: where tests are collected and modules imported from; ``log_file`` and ``cache_dir``, written).
_PYTEST_PATH_KEYS = ("testpaths", "pythonpath", "log_file", "cache_dir")


def _pytest_options(
    root: str, path: str, kind: str, *, required: bool, real: str | None = None
) -> list[tuple[str, str]] | None:
    """``addopts`` of the pytest configuration file ``path`` (read from ``real`` when given: the same file with its
    symbolic links resolved) taken as a file of ``kind`` (a name of :data:`_PYTEST_FILES`), followed by
    ``-o KEY=VALUE`` for each :data:`_PYTEST_PATH_KEYS` setting it makes: one ``(source, options)`` per line of at most :data:`_MAX_SETTING` characters, none when it sets none, None when
    ``required`` and the file lacks the section that makes pytest use it."""
    import configparser
    import shlex

    section = dict(_PYTEST_FILES)[kind]
    if kind == "pyproject.toml":
        options = _parsed(root, real or path, "toml").get("tool", {}).get("pytest", {})
        if not isinstance(options, dict) or not isinstance(options.get("ini_options"), dict):
            return None if required else []
        ini = options["ini_options"]
        value = ini.get("addopts")
        if isinstance(value, list):
            value = shlex.join(str(v) for v in value)
        paths = {
            key: " ".join(str(v) for v in ini[key]) if isinstance(ini[key], list) else str(ini[key])
            for key in _PYTEST_PATH_KEYS
            if key in ini
        }
    else:
        parser = _parsed(root, real or path, configparser.ConfigParser(interpolation=None, strict=True))
        key = section or "pytest"
        if required and section is not None and not parser.has_section(key):
            return None
        value = parser.get(key, "addopts", fallback=None) if parser.has_section(key) else None
        paths = {
            name: " ".join(parser.get(key, name).split())
            for name in _PYTEST_PATH_KEYS
            if parser.has_section(key) and parser.has_option(key, name)
        }
    # the settings naming where tests are collected, modules imported or files written are sent as the
    # ``-o KEY=VALUE`` that sets them, so the classifier grades them as it grades the command line's
    value = " ".join(
        ([str(value)] if value is not None else []) + [shlex.join(["-o", f"{k}={v}"]) for k, v in paths.items()]
    )
    if not value:
        return []
    # each line is sent as one recipe line of at most 200 characters: the words are split into lines at word
    # boundaries (the classifier splits each line and joins them); a word longer than that cannot be sent
    lines: list[str] = []
    for word in shlex.split(str(value)):
        quoted = shlex.quote(word)
        if len(quoted) > _MAX_SETTING:
            raise ValueError(f"{kind} addopts: an option longer than {_MAX_SETTING} characters")
        if lines and len(lines[-1]) + 1 + len(quoted) <= _MAX_SETTING:
            lines[-1] += " " + quoted
        else:
            lines.append(quoted)
    return [(f"{_rel(root, path)} addopts", line) for line in lines]


def _pytest_addopts(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The ``addopts`` of the configuration file pytest uses when run in ``places[0]``: the first file of
    :data:`_PYTEST_FILES` that counts, in that directory or the nearest one above it (pytest "rootdir and
    configfile": without test paths it searches the current directory and its ancestors). Each ``(source,
    options)`` is ``addopts`` as one shell-quoted line; none when the file sets none. A file above the workspace
    adds the ``conftest.py`` files pytest then imports from above it, each as its path.

    Raises:
        OSError, ValueError, UnicodeDecodeError: the file pytest would use could not be read or parsed (fail closed).
    """
    import shlex

    for place in places:
        for name, _section in _PYTEST_FILES:
            path = os.path.join(place, name)
            if not os.path.lexists(path):
                continue
            found = _pytest_options(root, path, name, required=True)
            if found is not None:
                # above the workspace, that file's directory is the rootdir and confcutdir, so the conftest.py
                # files from there down to the tests are imported too (pytest "Initialization: determining rootdir
                # and configfile", "conftest.py: local per-directory plugins"): each is given as an operand
                # outside the workspace
                above = _above(root)
                if place in above:
                    for directory in above[: above.index(place) + 1]:
                        conftest = os.path.join(directory, "conftest.py")
                        if os.path.lexists(conftest):
                            found.append((conftest, shlex.quote(conftest)))
                return found
    # with no configuration file anywhere, pytest before 8.0 probed for conftest.py files "all the way to the root
    # directory of the filesystem" (pytest 8.0 changelog, #11043: since then the cutoff is the rootdir); which pytest
    # runs is not known, so each conftest.py above the workspace is imported too
    conftests = [os.path.join(directory, "conftest.py") for directory in _above(root)]
    return [(conftest, shlex.quote(conftest)) for conftest in conftests if os.path.lexists(conftest)]


def _present_here(root: str, base: str, names: list[str]) -> list[tuple[str, str]]:
    """``(path, "present")`` for each of ``names`` (paths relative to ``base``, where the tool runs, inside the
    workspace ``root``) that exists there, a link too.

    Raises:
        ValueError: a name that is absolute or climbs out (``..``).
    """
    found = []
    for name in names:
        if not name or name.startswith("/") or ".." in name.split("/"):
            raise ValueError(f"a file named outside where the tool runs: {name[:60]}")
        path = os.path.join(base, name)
        if os.path.lexists(path):
            found.append((_rel(root, path), "present"))
    return found


def _found_above(root: str, places: list[str], names: list[str]) -> list[tuple[str, str]]:
    """The first of ``names`` (file names, or ``fnmatch`` patterns holding ``*``: ``prettier.config.*``) in the
    nearest directory above the workspace ``root`` that holds one, as ``(path, path)``, when none of the ``places``
    (where the tool runs, up to the workspace) holds one; else none."""
    import fnmatch

    def matches(place: str) -> list[str]:
        if not os.path.isdir(place):
            return []
        found = [n for n in names if "*" not in n and os.path.lexists(os.path.join(place, n))]
        patterns = [n for n in names if "*" in n]
        if patterns:
            found += sorted(e for e in os.listdir(place) if any(fnmatch.fnmatchcase(e, p) for p in patterns))
        return found

    if any(matches(place) for place in places):
        return []
    for place in _above(root):
        found = matches(place)
        if found:
            path = os.path.join(place, found[0])
            return [(path, path)]
    return []


def _npx_bin(root: str, places: list[str], name: str) -> list[tuple[str, str]]:
    """One ``(source, "a local program")`` when ``npx NAME`` run in ``places[0]`` runs the project's own program:
    npm-exec(1) runs a command found among the local project's bins ("If any requested packages are not present in
    the local project dependencies, then they are installed to a folder in the npm cache"), the local project being
    the prefix, "the closest parent directory to contain a package.json file or node_modules directory" (npm
    folders(5)), and its bins ``node_modules/.bin`` there. None when that prefix is not in the workspace, the name is
    not a plain program name, or the program there resolves (its links followed) outside the workspace."""
    if not name or name.startswith(".") or any(c in name for c in "/\\@") or any(ord(c) < 33 for c in name):
        return []
    for place in places:
        if os.path.lexists(os.path.join(place, "package.json")) or os.path.lexists(os.path.join(place, "node_modules")):
            program = os.path.join(place, "node_modules", ".bin", name)
            real = os.path.realpath(program)
            if os.path.isfile(real) and real.startswith(root.rstrip("/") + "/"):
                return [(_rel(root, program), "a local program")]
            return []
    return []


def _up_to(base: str, root: str) -> list[str]:
    """``base`` and each directory above it up to the workspace ``root``."""
    out = [base]
    while base != root and base.startswith(root.rstrip("/") + "/"):
        base = os.path.dirname(base)
        out.append(base)
    return out


def _above(root: str) -> list[str]:
    """Each directory above the workspace ``root``, up to ``/``: cargo (its configuration and rustup's toolchain
    files) and go (go.work, the module's go.mod) search them too, so what is there chooses code as the workspace's
    own files do."""
    out: list[str] = []
    here = os.path.dirname(root)
    while here != root:
        out.append(here)
        root, here = here, os.path.dirname(here)
    return out


def _temp_above(root: str) -> list[str]:
    """The directories above the workspace ``root`` that lie in the temp area (``/tmp`` and those below it, as
    paths.py places them): cargo reads ``.cargo/config.toml`` and go ``go.work`` from every directory above where
    they run, and there the agent writes as freely as in the workspace (a write to ``/tmp/.cargo/config.toml`` is
    ``workspace_write``), so what is there is judged as the workspace's own settings are, not as the owner's."""
    from bot.risk.paths import TEMP_PREFIXES, TEMP_ROOTS

    return [here for here in _above(root) if here in TEMP_ROOTS or here.startswith(TEMP_PREFIXES)]


def _rel(root: str, path: str) -> str:
    return os.path.relpath(path, root) if path == root or path.startswith(root.rstrip("/") + "/") else path


def _text(path: str) -> str:
    from bot.risk.reading import read_text

    return read_text(path, _MAX_BYTES)


def _parsed(root: str, path: str, form: str | configparser.RawConfigParser) -> Any:
    """The workspace file ``path`` read by :func:`_text` (a regular file of at most :data:`_MAX_BYTES` bytes,
    UTF-8, its byte order mark dropped) and parsed as ``form``: ``"toml"`` by :func:`tomllib.loads` (a dict),
    ``"json"`` by :func:`json.loads`, ``"yaml"`` by ``yaml.safe_load`` (None for an empty file), or a configparser
    parser, which reads the text as an INI file and is returned.

    Raises:
        OSError, UnicodeDecodeError: the file could not be read.
        ValueError: not a regular file, over the cap, or not parsed as ``form``: tomllib.TOMLDecodeError and
            json.JSONDecodeError (both ValueErrors) as they are; a YAML or INI error as a ValueError naming the
            file (relative to ``root``), the parser's error its cause. A reader that lets these reach
            :func:`read`'s caller makes the whole place unreadable (fail closed).
    """
    import configparser

    if form == "toml":
        return tomllib.loads(_text(path))
    if form == "json":
        return json.loads(_text(path))
    if form == "yaml":
        import yaml

        try:
            return yaml.safe_load(_text(path))
        except yaml.YAMLError as error:
            raise ValueError(f"{_rel(root, path)} (not YAML: {str(error)[:100]})") from error
    if not isinstance(form, configparser.RawConfigParser):
        raise ValueError(f"no reader for {form!r}")
    text = _text(path)
    try:
        form.read_string(text)
    except configparser.Error as error:
        raise ValueError(f"{_rel(root, path)} (not INI: {str(error)[:100]})") from error
    return form


def _lines(text: str) -> list[tuple[int, str]]:
    """Numbered lines that are neither blank nor comments (``#``, ``;``)."""
    out = []
    for number, line in enumerate(text.split("\n"), 1):
        line = line.strip()
        if line and not line.startswith(("#", ";")):
            out.append((number, line))
    return out


def _js_settings(root: str, place: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    npmrc = os.path.join(place, ".npmrc")
    if os.path.lexists(npmrc):
        for number, line in _lines(_text(npmrc)):
            key = line.split("=", 1)[0].strip().strip("\"'").lower()
            if key.startswith("//") and ":" in key[2:]:
                key = key.rsplit(":", 1)[-1]  # //registry.example/:_authToken: a credential, not a choice
            if key.replace("_", "-") not in INERT_NPMRC_KEYS and key not in INERT_NPMRC_KEYS:
                found.append((f"{_rel(root, npmrc)}:{number}", line.split("=", 1)[0].strip()[:100]))
    path = os.path.join(place, ".yarnrc")
    if os.path.lexists(path):
        for number, line in _lines(_text(path)):
            if line[:1] in ("-", " ") or not re.match(r"^[\"']?[A-Za-z@$-]", line):
                continue  # a list item or nested value of a key already judged
            key = re.split(r"[\s:=]", line, maxsplit=1)[0].strip("\"'")
            if key.lower() not in INERT_YARNRC_KEYS:
                found.append((f"{_rel(root, path)}:{number}", key[:100]))
    path = os.path.join(place, ".yarnrc.yml")
    if os.path.lexists(path):
        for number, yaml_key in yaml_keys(_text(path)):
            if yaml_key is None or yaml_key.lower() not in INERT_YARNRC_KEYS:
                found.append((f"{_rel(root, path)}:{number}", (yaml_key or "a key that is not plain text")[:100]))
    for name in (".pnpmfile.cjs", ".pnpmfile.mjs", "bunfig.toml", "pnpm-workspace.yaml"):
        path = os.path.join(place, name)
        if os.path.lexists(path):
            found.append((_rel(root, path), "code or settings the package manager runs"))
    return found


def yaml_keys(text: str) -> list[tuple[int, str | None]]:
    """The top-level keys of a YAML mapping (YAML 1.1 as PyYAML reads it: block and flow style, explicit ``? key``,
    escapes in quoted keys), each with its line; a key that is not a plain string (a merge ``<<``, an alias, a
    nested node) is None. An empty file has none.

    Raises:
        ValueError: the text is not YAML, or not a mapping at its top.
    """
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        raise ValueError(f"not YAML: {str(error)[:100]}") from error
    if node is None:
        return []
    if not isinstance(node, yaml.MappingNode):
        raise ValueError("not a mapping")
    out: list[tuple[int, str | None]] = []
    for key, _value in node.value:
        plain = isinstance(key, yaml.ScalarNode) and key.tag == "tag:yaml.org,2002:str" and key.value != "<<"
        out.append((key.start_mark.line + 1, key.value if plain else None))
    return out


_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_SCP_LIKE = re.compile(r"^[^/:]+:")


def local_url(url: str) -> bool:
    """True when git reads ``url`` as a repository on this machine or through a remote helper (git-clone(1) GIT
    URLS): a path (no ``scheme://`` and no ``[user@]host:`` before any ``/``), a ``file://`` URL, or
    ``<transport>::<address>`` (``ext::`` runs a command)."""
    if "::" in url:
        return True
    if _URL_SCHEME.match(url):
        return url.lower().startswith("file:")
    return _SCP_LIKE.match(url) is None


def _go_settings(root: str, place: str) -> list[tuple[str, str]]:
    """go.work (any: it chooses the modules that build) and a ``toolchain`` line in go.mod (go help toolchain: with
    the default ``GOTOOLCHAIN=auto`` go downloads and runs the toolchain it names)."""
    found: list[tuple[str, str]] = []
    work = os.path.join(place, "go.work")
    if os.path.lexists(work):
        found.append((_rel(root, work), "chooses the modules go builds"))
    mod = os.path.join(place, "go.mod")
    if os.path.lexists(mod):
        for number, line in _lines(_text(mod)):
            if line.split()[0] in ("toolchain", "godebug"):
                found.append((f"{_rel(root, mod)}:{number}", line.split()[0]))
    return found


def _jvm_starts(root: str, base: str, places: list[str], family: str) -> list[tuple[str, str]]:
    """The files that choose what a JVM launcher of ``family`` starts (the module docstring's list).

    Raises:
        OSError, UnicodeDecodeError: a file that is there could not be read.
    """
    found: list[tuple[str, str]] = []

    def note(path: str, what: str) -> None:
        found.append((_rel(root, path), f"{_rel(root, path)} ({what})"))

    if family == "mvn":
        for place in places + _above(root):
            for name in (".mvn/jvm.config", ".mvn/maven.config", ".mvn/extensions.xml"):
                if os.path.lexists(os.path.join(place, name)):
                    note(os.path.join(place, name), "JVM options or extensions Maven starts with")
    elif family == "bazel":
        for place in places:
            bazelrc = os.path.join(place, ".bazelrc")
            if os.path.lexists(bazelrc) and any(
                line.split(maxsplit=1)[0] in ("startup", "import", "try-import")
                for line in _text(bazelrc).splitlines()
                if line.strip() and not line.lstrip().startswith("#")
            ):
                note(bazelrc, "startup options (the JVM Bazel's server runs) or imports")
            for name in ("tools/bazel", ".bazeliskrc"):
                if os.path.lexists(os.path.join(place, name)):
                    note(os.path.join(place, name), "a program or download bazelisk runs instead of Bazel")
            version = os.path.join(place, ".bazelversion")
            if os.path.lexists(version) and "/" in _text(version):
                note(version, "a Bazel fork bazelisk downloads and runs")
    else:
        for name in (".jvmopts", ".sbtopts"):
            if os.path.lexists(os.path.join(base, name)):
                note(os.path.join(base, name), "JVM and launcher options sbt starts with")
    return found


def _cargo_starts(root: str, places: list[str], *, aliases: bool) -> list[tuple[str, str]]:
    """What in ``places`` makes a cargo use graded read-only, or a rustup proxy (``rustc --version``, ``rustfmt
    --check``), run code the workspace chooses: a toolchain file (``rust-toolchain.toml``, or ``rust-toolchain`` in
    TOML or as a bare channel name) whose ``[toolchain] path`` names a local toolchain (rustup "Overrides", "The
    toolchain file": the proxy execs that directory's ``bin/rustc``), and with ``aliases`` the ``[alias]`` table of
    ``.cargo/config.toml`` or ``.cargo/config`` (cargo runs an alias in place of an external subcommand:
    ``fmt = ["run"]`` makes ``cargo fmt --check`` build and run the project). A channel name alone chooses rustup's
    own binaries and adds nothing.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or parsed.
    """
    found: list[tuple[str, str]] = []
    for place in places:
        for name in ("rust-toolchain.toml", "rust-toolchain"):
            path = os.path.join(place, name)
            if not os.path.lexists(path):
                continue
            text = _text(path)
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError:
                if name == "rust-toolchain" and re.fullmatch(r"\s*[A-Za-z0-9._-]+\s*", text):
                    continue  # the legacy form: a channel name only
                raise
            toolchain = data.get("toolchain")
            if not isinstance(toolchain, dict):
                raise ValueError(f"{_rel(root, path)} has no [toolchain] table")
            if "path" in toolchain:
                found.append(
                    (_rel(root, path), f"path = {str(toolchain['path'])[:_MAX_SETTING]} (a local toolchain runs)")
                )
        if not aliases:
            continue
        for name in (".cargo/config.toml", ".cargo/config"):
            path = os.path.join(place, name)
            if not os.path.lexists(path):
                continue
            table = _parsed(root, path, "toml").get("alias")
            if table:
                shown = ", ".join(sorted(str(key) for key in table)) if isinstance(table, dict) else "?"
                found.append((_rel(root, path), f"[alias] {shown[:_MAX_SETTING]}"))
    return found


def _pip_site_configs(root: str, places: list[str]) -> list[tuple[str, str]]:
    """Each ``pip.conf`` of a virtual environment directly in one of ``places`` or named by ``VIRTUAL_ENV`` (the
    module docstring's list).

    Raises:
        OSError: a directory that is there could not be listed (fail closed).
    """
    venvs: list[str] = []
    for place in places:
        with os.scandir(place) as entries:
            venvs += sorted(e.path for e in entries if os.path.lexists(os.path.join(e.path, "pyvenv.cfg")))
    active = os.environ.get("VIRTUAL_ENV")
    if active and os.path.isabs(active):
        venvs.append(os.path.normpath(active))
    found: list[tuple[str, str]] = []
    for venv in dict.fromkeys(venvs):
        conf = os.path.join(venv, "pip.conf")
        if os.path.lexists(conf):
            found.append((_rel(root, conf), "a virtual environment's pip settings: where pip gets packages"))
    return found


#: pip "Requirements File Format" (pip 24): options a requirements file may hold that name another file
#: (``-r``/``--requirement``, ``-c``/``--constraint``), a local project (``-e``/``--editable``), or where packages come
#: from (``-i``/``--index-url``, ``--extra-index-url``, ``-f``/``--find-links``, ``--trusted-host``).
_REQ_INCLUDES = ("-r", "--requirement", "-c", "--constraint")
_REQ_EDITABLE = ("-e", "--editable")
_REQ_SOURCES = ("-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--trusted-host")
_REQ_OPTION = re.compile(r"^(-[A-Za-z]|--[A-Za-z0-9-]+)[ \t]*=?[ \t]*(.*)$")
#: pip expands ``${NAME}`` in a requirements file from the environment ("Using Environment Variables").
_REQ_VARIABLE = re.compile(r"\$\{[A-Za-z0-9_]+\}")
_REQ_VCS = re.compile(r"(?:^|@\s*)(?:git|hg|svn|bzr)\+", re.IGNORECASE)
#: The most requirements files followed through ``-r``/``-c`` from one file (more is read as unreadable).
_REQ_MAX_FILES = 32


def _requirement_lines(text: str) -> list[tuple[int, str]]:
    """The logical lines of a requirements file (pip "Requirements File Format": a line ending in ``\\`` goes on
    with the next; ``#`` at the start or after whitespace starts a comment), numbered by their first line."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, raw in enumerate(text.split("\n"), 1):
        start, line = pending if pending is not None else (number, "")
        line += raw.rstrip("\r")
        if line.endswith("\\"):
            pending = (start, line[:-1])
            continue
        pending = None
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        if line:
            out.append((start, line))
    if pending is not None and pending[1].strip():
        out.append((pending[0], pending[1].strip()))
    return out


def _pip_requirements(root: str, base: str, name: str) -> list[tuple[str, str]]:
    """What the requirements or constraints file ``name`` (from ``base``, where pip runs) and the files it includes
    in the workspace name from outside it: ``(FILE:LINE, "outside: LINE")`` for an included file outside the
    workspace or a URL, a local project outside it (``-e /tmp/pkg``, ``/tmp/pkg``, ``file:///tmp/pkg``: pip builds
    it, running its build backend or setup.py) and a line holding ``${NAME}`` (pip fills it in from the environment);
    ``(FILE:LINE, "source: LINE")`` for an index, ``--find-links``, ``--trusted-host`` or a URL or VCS requirement
    (pip builds what it gets there). pip reads a nested ``-r``/``-c`` path relative to the file naming it, a local
    project relative to where it runs (pip ``req_file.py``, ``handle_requirement_line``). Nothing: the file names
    only packages from the configured index. A file that is not there adds nothing: pip stops before it installs.

    Raises:
        OSError, ValueError, UnicodeDecodeError: the file (or one it includes) is outside the workspace after
            symbolic links, not a regular file, too many, or could not be read (fail closed).
    """
    found: list[tuple[str, str]] = []
    _requirements_walk(root, base, [os.path.join(base, name)], found)
    return found


def _requirements_walk(root: str, base: str, todo: list[str], found: list[tuple[str, str]]) -> None:
    """Read the requirements files ``todo`` (pip running in ``base``) and those they include in the workspace, adding
    what they name from outside it or from another source to ``found`` (:func:`_pip_requirements`)."""
    inside = root.rstrip("/") + "/"
    seen: set[str] = set()
    while todo:
        path = todo.pop(0)
        real = os.path.realpath(path)
        if not real.startswith(inside):
            raise ValueError(f"{_rel(root, path)} (not read: outside the workspace)")
        if real in seen:
            continue
        seen.add(real)
        if len(seen) > _REQ_MAX_FILES:
            raise ValueError(f"{_rel(root, path)} (not read: too many requirements files)")
        if not os.path.lexists(real):
            continue  # pip stops ("Could not open requirements file") before it installs anything
        if not os.path.isfile(real):
            raise ValueError(f"{_rel(root, path)} (not read: not a regular file)")
        for number, line in _requirement_lines(_text(real)):
            finding = _requirement_finding(root, base, real, line, todo)
            if finding is not None:
                found.append((f"{_rel(root, real)}:{number}", finding))


def _requirement_finding(root: str, base: str, real: str, line: str, todo: list[str]) -> str | None:
    """What one logical line of the requirements file ``real`` names from outside the workspace
    (:data:`REQUIREMENTS_OUTSIDE`) or from another source (:data:`REQUIREMENTS_SOURCE`), or None; a file it includes
    in the workspace is added to ``todo``. A local project is read from ``base``, where pip runs."""
    from bot.risk.programs.kit import local_package

    inside = root.rstrip("/") + "/"
    shown = _short(line)
    if _REQ_VARIABLE.search(line):
        return f"{REQUIREMENTS_OUTSIDE} {shown}"
    option = _REQ_OPTION.match(line) if line.startswith("-") else None
    flag, value = (option.group(1), option.group(2).strip()) if option else ("", line)
    if line.startswith("-") and option is None:
        return f"{REQUIREMENTS_OUTSIDE} {shown}"  # an option pip reads some other way
    if flag in _REQ_INCLUDES:
        if "://" in value or value.startswith("~") or not value:
            return f"{REQUIREMENTS_OUTSIDE} {shown}"
        nested = os.path.join(os.path.dirname(real), value)
        if not os.path.realpath(nested).startswith(inside):
            return f"{REQUIREMENTS_OUTSIDE} {shown}"
        todo.append(nested)
        return None
    if flag in _REQ_SOURCES:
        return f"{REQUIREMENTS_SOURCE} {shown}"
    if flag and flag not in _REQ_EDITABLE:
        return None  # --hash, --pre, --no-binary...: no file, project or source
    local = local_package(value.split(";", 1)[0].strip(), bare_path=True)
    if local is not None:
        target = os.path.realpath(os.path.join(base, os.path.expanduser(local)))
        if local.startswith("~") or not (target + "/").startswith(inside):
            return f"{REQUIREMENTS_OUTSIDE} {shown}"
    elif "://" in value or _REQ_VCS.search(value):
        return f"{REQUIREMENTS_SOURCE} {shown}"
    return None


#: The keys of a conda environment file (conda "Managing environments", "Creating an environment file manually";
#: conda env's ``EnvironmentYaml``): any other is read as unreadable.
_CONDA_ENV_KEYS = frozenset({"name", "channels", "dependencies", "prefix", "variables"})


def _conda_environment(root: str, base: str, name: str) -> list[tuple[str, str]]:
    """What the conda environment file ``name`` (from ``base``, where conda runs) names from outside the workspace or
    from another source, as :func:`_pip_requirements` answers (conda "Managing environments": "Creating an
    environment file manually"): a channel other than the well-known ones (programs/packages.py
    ``CONDA_CHANNELS``: any anaconda.org account's, a URL, a directory) and a ``CHANNEL::pkg`` dependency naming one
    are another source; a dependency given as a URL or path is a package file from there; ``variables`` (set in
    every later activation of the environment: ``LD_PRELOAD``, ``PYTHONPATH``...) and a ``prefix`` outside the
    workspace are from outside; the ``pip:`` list is handed to pip as a requirements file written beside the
    environment file and run from its directory (conda's pip installer: ``pip install -U -r FILE``), so its lines
    are read as such a file's (:func:`_requirement_finding`: ``-e /tmp/pkg``, ``git+https://…``,
    ``--index-url``). A file that is not there adds nothing (conda stops).

    Raises:
        OSError, ValueError, UnicodeDecodeError: the file is outside the workspace after symbolic links, not a
            regular file, not YAML, not of the shape conda reads, or could not be read (fail closed).
    """
    from bot.risk.programs.packages import CONDA_CHANNELS

    inside = root.rstrip("/") + "/"
    path = os.path.join(base, name)
    real = os.path.realpath(path)
    if not real.startswith(inside):
        raise ValueError(f"{_rel(root, path)} (not read: outside the workspace)")
    if not os.path.lexists(real):
        return []
    if not os.path.isfile(real):
        raise ValueError(f"{_rel(root, path)} (not read: not a regular file)")
    rel = _rel(root, real)
    data = _parsed(root, real, "yaml")
    if data is None:
        return []
    if not isinstance(data, dict) or set(data) - _CONDA_ENV_KEYS:
        raise ValueError(f"{rel} (not read: not an environment file of the shape conda reads)")
    channels = data.get("channels") or []
    dependencies = data.get("dependencies") or []
    if not isinstance(channels, list) or not isinstance(dependencies, list):
        raise ValueError(f"{rel} (not read: channels or dependencies is not a list)")
    found: list[tuple[str, str]] = []
    for channel in channels:
        if not isinstance(channel, str) or channel.strip().strip("/") not in CONDA_CHANNELS:
            found.append((f"{rel} channels", f"{REQUIREMENTS_SOURCE} channel {_short(str(channel))}"))
    if data.get("variables"):
        found.append((f"{rel} variables", f"{REQUIREMENTS_OUTSIDE} variables set in every activation"))
    prefix = data.get("prefix")
    if prefix is not None:
        target = os.path.realpath(os.path.join(base, os.path.expanduser(str(prefix))))
        if str(prefix).startswith("~") or not (target + "/").startswith(inside):
            found.append((f"{rel} prefix", f"{REQUIREMENTS_OUTSIDE} prefix {_short(str(prefix))}"))
    pip_lines: list[str] = []
    for dependency in dependencies:
        if isinstance(dependency, dict) and set(dependency) == {"pip"} and isinstance(dependency["pip"], list):
            pip_lines += [str(line) for line in dependency["pip"]]
            continue
        if not isinstance(dependency, str):
            raise ValueError(f"{rel} (not read: a dependency of another shape)")
        spec = dependency.strip()
        if "::" in spec and spec.split("::", 1)[0].strip("/") not in CONDA_CHANNELS:
            found.append((f"{rel} dependencies", f"{REQUIREMENTS_SOURCE} {_short(spec)}"))
        elif "://" in spec or spec.startswith(("/", ".", "~")):
            found.append((f"{rel} dependencies", f"{REQUIREMENTS_OUTSIDE} {_short(spec)}"))
    here = os.path.dirname(real)
    todo: list[str] = []
    for line in pip_lines:
        finding = _requirement_finding(root, here, real, line.strip(), todo)
        if finding is not None:
            found.append((f"{rel} pip", finding))
    _requirements_walk(root, here, todo, found)
    return found


def _project_scripts(root: str, places: list[str], tool: str, name: str) -> list[tuple[str, str]]:
    """What ``pdm run NAME`` or ``pipenv run NAME`` run in ``places[0]`` takes from the project instead of, or
    besides, the program NAME, in the directory and each one above it up to the workspace's top (both tools find the
    project upward):

    * pdm (PDM docs, "PDM Scripts"): a ``[tool.pdm.scripts]`` entry NAME of ``pyproject.toml`` ("If there is a
      script with the same name as a command, PDM will run the script"; a shell command, a call or a composite),
      the hooks ``pre_NAME``, ``post_NAME``, ``pre_run`` and ``post_run``, the shared options ``_`` (an
      ``env_file``, an ``env``), and a ``.pdm-python`` naming an interpreter outside the workspace but for the
      system's own in ``/usr/bin`` or ``/bin`` (its environment's programs run);
    * pipenv (Pipenv docs, "Custom Script Shortcuts", "Automatic Loading of .env"): a ``[scripts]`` entry NAME of
      ``Pipfile``, a ``.env`` file, which ``pipenv run`` loads into the environment of what it runs
      (``PYTHONPATH``, ``LD_PRELOAD``... may then bring code from anywhere), and a ``.venv`` that is a file (it
      names the virtualenv whose programs run, anywhere).

    Each is ``(file, what)``.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or parsed (fail closed).
    """
    found: list[tuple[str, str]] = []
    real_root = os.path.realpath(root)
    for place in places:
        if tool == "pdm":
            # PDM docs, "Working with virtual environments": the interpreter chosen for the project is stored in
            # .pdm-python, and pdm run runs with that environment's programs first on PATH
            chosen = os.path.join(place, ".pdm-python")
            if os.path.lexists(chosen):
                where = os.path.realpath(os.path.join(place, _text(chosen).strip()))
                system = os.path.dirname(where) in ("/usr/bin", "/bin")  # the system's own interpreter
                if not system and not where.startswith(real_root.rstrip("/") + "/"):
                    found.append((_rel(root, chosen), f".pdm-python: {where[:120]}, outside the workspace"))
            path = os.path.join(place, "pyproject.toml")
            if not os.path.lexists(path):
                continue
            scripts = _parsed(root, path, "toml").get("tool", {}).get("pdm", {}).get("scripts", {})
            if not isinstance(scripts, dict):
                raise ValueError(f"{_rel(root, path)}: [tool.pdm.scripts] is not a table")
            for key in (name, f"pre_{name}", f"post_{name}", "pre_run", "post_run", "_"):
                if key in scripts:
                    found.append((_rel(root, path), f"[tool.pdm.scripts] {key}"[:_MAX_SETTING]))
        else:
            path = os.path.join(place, "Pipfile")
            if os.path.lexists(path):
                scripts = _parsed(root, path, "toml").get("scripts", {})
                if not isinstance(scripts, dict):
                    raise ValueError(f"{_rel(root, path)}: [scripts] is not a table")
                if name in scripts:
                    found.append((_rel(root, path), f"[scripts] {name}"[:_MAX_SETTING]))
            env = os.path.join(place, ".env")
            if os.path.lexists(env):
                found.append((_rel(root, env), ".env: pipenv run loads it into the environment"))
            # Pipenv docs, "Virtualenv location": a .venv that is a file names the virtualenv (a path or a name)
            venv = os.path.join(place, ".venv")
            if os.path.lexists(venv) and not os.path.isdir(venv):
                found.append((_rel(root, venv), ".venv: a file naming the virtualenv pipenv run uses"))
    return found


def _module_shadows(root: str, base: str, name: str) -> list[tuple[str, str]]:
    """The entries of ``base`` that ``python -m NAME`` run there would import as the top-level module ``NAME``
    instead of the installed one: python(1) ``-m`` puts the current directory first on ``sys.path``, and the
    import system (Python "The import system", path entry finders) takes a package ``NAME/``, a module ``NAME.py``
    or a compiled or extension module ``NAME.<suffix>`` found there first. Every entry named ``NAME`` or
    ``NAME.<anything>`` counts (compared case-insensitively, as a case-insensitive file system finds them); each is
    given as ``(path, path)``, the path relative to the workspace.

    Raises:
        ValueError: ``name`` is not a module name (the caller makes the place unreadable: fail closed).
    """
    if not name.isidentifier():
        raise ValueError(f"not a module name: {name[:80]!r}")
    wanted = name.casefold()
    listing = sorted(os.listdir(base))
    entries = [_rel(root, os.path.join(base, e)) for e in listing if e.casefold() == wanted]
    entries += [_rel(root, os.path.join(base, e)) for e in listing if e.casefold().startswith(wanted + ".")]
    entries += [_rel(root, os.path.join(base, e)) for e in listing if _shadows_standard_module(base, e, wanted)]
    return [(entry, entry) for entry in entries]


def _shadows_standard_module(base: str, entry: str, wanted: str) -> bool:
    """True when ``entry`` of ``base`` would be imported instead of a standard module (``sys.stdlib_module_names``,
    but for the modules built into the interpreter, which are never looked up on ``sys.path``) by whatever module
    ``python -m`` runs there: a source, byte code or extension module file ``json.py``, ``json.cpython-312.so``,
    or a regular package, a directory holding ``__init__`` (a directory without one is a namespace portion, which a
    module found later on ``sys.path`` wins over; Python "The import system", "Namespace packages")."""
    import importlib.machinery

    stem, dot, suffix = entry.partition(".")
    folded = stem.casefold()
    if folded == wanted or folded not in _standard_modules():
        return False
    path = os.path.join(base, entry)
    if not dot:
        return os.path.isdir(path) and any(e.startswith("__init__.") for e in os.listdir(path))
    return any(entry.endswith(s) for s in importlib.machinery.all_suffixes())


#: Standard packages no module outside CPython's own test suite and demos imports (``test``: "the regression tests
#: package ... for internal use by Python only", Python docs "test"): a workspace ``test.py`` shadowing it changes
#: nothing ``python -m pytest`` and the like run.
_UNIMPORTED_STANDARD = frozenset({"test", "idlelib", "turtledemo", "this", "antigravity", "__hello__", "__phello__"})


def _standard_modules() -> frozenset[str]:
    import sys

    builtin = {n.casefold() for n in sys.builtin_module_names}
    return frozenset(n.casefold() for n in sys.stdlib_module_names) - builtin - _UNIMPORTED_STANDARD


def _python_settings(root: str, place: str) -> list[tuple[str, str]]:
    """What in ``place`` chooses where uv, poetry, pipenv or pdm get packages (the module docstring's list).

    Raises:
        ValueError: a ``pyproject.toml`` or ``Pipfile`` that is not TOML (tomllib's error is a ValueError).
    """
    found: list[tuple[str, str]] = []
    for name in ("uv.toml", "poetry.toml", "pdm.toml"):
        if os.path.lexists(os.path.join(place, name)):
            found.append((_rel(root, os.path.join(place, name)), f"chooses where {name[:-5]} gets packages"))
    pyproject = os.path.join(place, "pyproject.toml")
    if os.path.lexists(pyproject):
        tools = _parsed(root, pyproject, "toml").get("tool", {})
        uv = tools.get("uv", {}) if isinstance(tools, dict) else {}
        for key in sorted(set(uv) & PYTHON_SOURCE_KEYS if isinstance(uv, dict) else ()):
            found.append((_rel(root, pyproject), f"[tool.uv] {key}"))
        for owner in ("poetry", "pdm"):
            table = tools.get(owner, {}) if isinstance(tools, dict) else {}
            if isinstance(table, dict) and "source" in table:
                found.append((_rel(root, pyproject), f"[[tool.{owner}.source]]"))
    pipfile = os.path.join(place, "Pipfile")
    if os.path.lexists(pipfile):
        sources = _parsed(root, pipfile, "toml").get("source", [])
        for source in sources if isinstance(sources, list) else [sources]:
            url = source.get("url") if isinstance(source, dict) else None
            if not isinstance(url, str) or url.rstrip("/") != "https://pypi.org/simple":
                found.append((_rel(root, pipfile), f"[[source]] {str(url)[:80]}"))
    return found


# -- git push --------------------------------------------------------------------------------------------------------
def _git_dirs(base: str) -> tuple[str, str] | None:
    """``(git_dir, common_dir)`` of the repository git finds from ``base`` (its ``.git`` directory, the one a
    ``.git`` file names, or the directory itself when it holds ``HEAD``, ``objects`` and ``refs``: a bare repository,
    gitrepository-layout(5)), searching the directories above; None when there is none."""
    here = base
    while True:
        dot = os.path.join(here, ".git")
        _present(dot)
        if os.path.isdir(dot):
            git_dir = dot
            break
        if os.path.isfile(dot):
            text = _text(dot).strip()
            if not text.startswith("gitdir:"):
                raise ValueError(f"{dot} is not a gitdir file")
            git_dir = os.path.normpath(os.path.join(here, text[len("gitdir:") :].strip()))
            break
        if all(os.path.lexists(os.path.join(here, name)) for name in ("HEAD", "objects", "refs")):
            git_dir = here  # a bare repository: git(1) "GIT_DIR" discovery tries the directory itself after .git
            break
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent
    common = git_dir
    commondir = os.path.join(git_dir, "commondir")
    if _present(commondir):
        common = os.path.normpath(os.path.join(git_dir, _text(commondir).strip()))
    return git_dir, common


def _present(path: str) -> bool:
    """True when ``path`` exists (a link counts, followed or not); False when it does not.

    Raises:
        OSError: whether it exists cannot be told (a directory above it cannot be searched): fail closed.
    """
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    return True


def _git_local_branch(root: str, base: str, name: str) -> list[tuple[str, str]]:
    """One ``(source, "a local branch")`` when git, run in ``base``, reads the start point ``name`` as the local branch
    ``refs/heads/NAME`` (gitrevisions(7) "<refname>": ``$GIT_DIR/NAME``, ``refs/NAME``, ``refs/tags/NAME`` are
    tried before ``refs/heads/NAME``, so none of them may exist), from the loose ref or ``packed-refs``
    (gitrepository-layout(5)); none otherwise: no repository, a name git-check-ref-format(1) refuses, a repository
    keeping its refs in ``reftable`` (not read), or another ref that wins. A new branch started from a local branch
    gets no remote upstream (git-config(1) ``branch.autoSetupMerge``)."""
    parts = name.split("/")
    if (
        not name
        or name.startswith(("-", "/"))
        or name.endswith(("/", ".lock", "."))
        or ".." in name
        or "@{" in name
        or any(not p or p.startswith(".") for p in parts)
        or any(c in name for c in " ~^:?*[\\\x7f")
        or any(ord(c) < 32 for c in name)
    ):
        return []
    dirs = _git_dirs(base)
    if dirs is None:
        return []
    git_dir, common = dirs
    if os.path.lexists(os.path.join(common, "reftable")):
        return []
    packed_path = os.path.join(common, "packed-refs")
    packed = set()
    if os.path.isfile(packed_path):
        for line in _text(packed_path).splitlines():
            fields = line.split()
            if len(fields) == 2 and not line.startswith(("#", "^")):
                packed.add(fields[1])

    def exists(ref: str) -> bool:
        return os.path.lexists(os.path.join(common, ref)) or ref in packed

    if os.path.lexists(os.path.join(git_dir, name)) or exists(f"refs/{name}") or exists(f"refs/tags/{name}"):
        return []
    if not exists(f"refs/heads/{name}"):
        return []
    return [(_rel(root, common), f"refs/heads/{name[:150]}: a local branch")]


#: ansible.cfg keys naming a file Ansible runs when it is executable, a vault password script among them (Ansible
#: "Managing vault passwords": "If the password file is executable, Ansible runs it"): outside the workspace
#: anywhere, ``~`` too.
_ANSIBLE_PROGRAM_KEYS = frozenset({
    "vault_password_file", "vault_identity_list", "become_password_file", "connection_password_file",
})  # fmt: skip
#: ansible.cfg keys naming places Ansible loads code or inventory from (Ansible Configuration Settings: the
#: ``*_plugins`` paths, ``library``, ``module_utils``, ``roles_path``, ``collections_path``, ``inventory``: an
#: executable inventory file runs as a script), besides those ending in ``_plugins``.
_ANSIBLE_PATH_KEYS = frozenset({
    "inventory", "hostfile", "library", "module_utils", "roles_path", "collections_path", "collections_paths",
    "playbook_dir", "doc_fragment_plugins",
})  # fmt: skip
#: Where Ansible's own defaults put those (``~/.ansible/plugins/…``, ``/usr/share/ansible/…``, ``/etc/ansible/hosts``):
#: what ansible-galaxy installs there is graded where it is installed.
_ANSIBLE_DEFAULT_PLACES = ("~/.ansible/", "/usr/share/ansible/", "/etc/ansible/")
#: ansible.cfg ssh options passed to the ssh this machine runs ([ssh_connection]); one of these options runs a
#: program here or reads another configuration (ssh_config(5): ProxyCommand, LocalCommand, KnownHostsCommand,
#: Match exec, PKCS11Provider, SecurityKeyProvider, Include; ssh(1) -F).
_ANSIBLE_SSH_KEYS = frozenset({"ssh_args", "ssh_common_args", "ssh_extra_args", "scp_extra_args", "sftp_extra_args"})
_SSH_RUNS = re.compile(
    r"(?i)proxycommand|localcommand|knownhostscommand|match|pkcs11provider|securitykeyprovider|include|(?:^|\s)-[A-Za-z]*[FIP]"
)
_INI_KEY = re.compile(r"^([A-Za-z0-9_.-]+)[ \t]*[=:][ \t]*(.*)$")


#: .sops.yaml creation-rule keys naming a key service that encrypting sends the data key to (SOPS README, "Using
#: .sops.yaml conf to select KMS, PGP and age for new files": ``kms``, ``gcp_kms``, ``azure_keyvault``,
#: ``hc_vault_transit_uri``; ``key_groups`` hold the same keys).
_SOPS_KEY_SERVICE = re.compile(r"^[\s-]*(kms|gcp_kms|azure_keyvault|hc_vault_transit_uri|hc_vault)\s*:\s*(.*)$")


def _sops_key_services(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The key services named by the ``.sops.yaml`` sops uses in the first of ``places`` (the directory it runs in,
    then each above it: SOPS README, "Using .sops.yaml conf": "sops will look for a .sops.yaml file in the current
    directory and its parents"; the nearest one is used): one ``(source, setting)`` per key of
    :data:`_SOPS_KEY_SERVICE` with a value. Encrypting or rotating sends the new data key to each of them.

    Raises:
        OSError, ValueError, UnicodeDecodeError: the file could not be read.
    """
    for place in places:
        path = os.path.join(place, ".sops.yaml")
        if not os.path.lexists(path):
            continue
        found: list[tuple[str, str]] = []
        for number, line in enumerate(_text(path).splitlines()):
            match = _SOPS_KEY_SERVICE.match(line)
            if match is not None and match.group(2).strip():
                found.append((f"{_rel(root, path)}:{number + 1}", f"{match.group(1)}: {match.group(2).strip()[:120]}"))
        return found
    return []


def _ansible_cfg(root: str, base: str) -> list[tuple[str, str]]:
    """What the ``ansible.cfg`` of ``base`` (Ansible Configuration Settings, "The configuration file": after
    ``ANSIBLE_CONFIG``, ``ansible.cfg`` in the current directory is the one read; the directories above are not
    searched) names from outside the workspace that Ansible runs or loads code from: a vault password file or script
    (:data:`_ANSIBLE_PROGRAM_KEYS`), a plugin, module, role, collection or inventory path (:data:`_ANSIBLE_PATH_KEYS`,
    ``*_plugins``) outside the workspace but for Ansible's defaults, ssh options that run a program here
    (:data:`_ANSIBLE_SSH_KEYS`), and ``ssh_executable`` other than ``ssh``. Values are read as Ansible reads them:
    paths relative to the file's directory, ``~`` and ``$VAR`` expanded (an expansion, ``%(…)s`` interpolation or a
    continuation line: not known, reported); a list split at ``,`` and ``:``. One ``(source, setting)`` per finding.

    Raises:
        OSError, ValueError, UnicodeDecodeError: the file is a link out of the workspace or could not be read.
    """
    path = os.path.join(base, "ansible.cfg")
    if not os.path.lexists(path):
        return []
    real = os.path.realpath(path)
    inside = root.rstrip("/") + "/"
    if not real.startswith(inside) or not os.path.isfile(real):
        raise ValueError(f"{_rel(root, path)} (not read: outside the workspace, or not a regular file)")
    found: list[tuple[str, str]] = []
    here = os.path.dirname(real)
    lines = _text(real).splitlines()
    for number, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", ";", "[")):
            continue
        match = _INI_KEY.match(stripped)
        if match is None:
            continue
        key, value = match.group(1).lower(), match.group(2).split(" ;", 1)[0].strip()
        following = lines[number + 1] if number + 1 < len(lines) else ""
        where = f"{_rel(root, path)}:{number + 1}"
        continued = following[:1] in (" ", "\t") and following.strip() != ""
        if key in _ANSIBLE_SSH_KEYS:
            if continued or _SSH_RUNS.search(value):
                found.append((where, f"{key} = {value[:120]} (ssh options that run a program here)"))
            continue
        if key == "ssh_executable":
            if value not in ("ssh", "/usr/bin/ssh"):
                found.append((where, f"ssh_executable = {value[:120]} (the program run for every connection)"))
            continue
        program = key in _ANSIBLE_PROGRAM_KEYS
        if not program and key not in _ANSIBLE_PATH_KEYS and not key.endswith("_plugins"):
            continue
        if continued:
            found.append((where, f"{key} continues on the next line (not read)"))
            continue
        for part in re.split(r"[,:]", value):
            part = part.strip().rpartition("@")[2] if key == "vault_identity_list" else part.strip()
            if not part or part == "prompt" or (key == "inventory" and "/" not in part and not program):
                continue  # inventory = host1,host2 (a host list), a label@prompt vault id
            if "$" in part or "%(" in part or part.startswith("~") and not part.startswith("~/"):
                found.append((where, f"{key} = {value[:120]} (a path only known when it runs)"))
                break
            if not program and part.startswith(_ANSIBLE_DEFAULT_PLACES):
                continue
            if part.startswith("~"):
                found.append((where, f"{key} = {value[:120]} (outside the workspace)"))
                break
            target = os.path.realpath(os.path.join(here, part))
            if not target.startswith(inside) and target != root.rstrip("/"):
                found.append((where, f"{key} = {value[:120]} (outside the workspace)"))
                break
    return found


def _aws_document(root: str, base: str, question: str) -> list[tuple[str, str]]:
    """One ``(FILE, what)`` for the policy document ``KIND FILE`` names (AWS CLI "Loading parameters from a file":
    ``file://PATH`` is read from the directory aws runs in, ``base``): ``KIND: opens to everyone`` when it opens a
    bucket or objects to everyone, turns a public access block off or allows every action
    (programs/cloud.py ``aws_document_opens``), else ``AWS_CLOSED``.

    Raises:
        OSError, ValueError, UnicodeDecodeError: an unknown KIND, a file outside the workspace (after symbolic
            links), not a regular file, or one that could not be read (fail closed).
    """
    from bot.risk.programs.cloud import AWS_CLOSED, AWS_DOCUMENTS, aws_document_opens, cloudformation_grants

    kind, _, name = question.partition(" ")
    if kind not in AWS_DOCUMENTS or not name:
        raise ValueError(f"no aws document {question[:100]}")
    path = os.path.join(base, name)
    real = os.path.realpath(path)
    if not real.startswith(root.rstrip("/") + "/"):
        raise ValueError(f"{_rel(root, path)} (not read: outside the workspace)")
    if not os.path.isfile(real):
        raise ValueError(f"{_rel(root, path)} (not read: not a regular file)")
    text = _text(real)
    if kind == "template":
        grants = cloudformation_grants(text)
        return [(_rel(root, real), f"template {grants[:150]}" if grants else AWS_CLOSED)]
    opens = aws_document_opens(kind, text)
    return [(_rel(root, real), f"{kind}: opens to everyone" if opens else AWS_CLOSED)]


def _git_guess(root: str, base: str, name: str) -> list[tuple[str, str]]:
    """What ``git switch NAME`` (git-switch(1) ``--guess``, the default) switches to, run in ``base``: the local
    branch's line of :func:`_git_local_branch` when NAME is one; else one ``(source, "remote R: refs/remotes/R/NAME")``
    for the remote whose remote-tracking branch git creates NAME from, with that branch as its upstream ("If <branch>
    is not found but there does exist a tracking branch in exactly one remote (call it <remote>) with a matching
    name"; with several, the one ``checkout.defaultRemote`` names, git-config(1)). Where git would refuse (several
    remotes and no default), or a remote fetches with a refspec other than ``+refs/heads/*:refs/remotes/R/*`` (its
    remote-tracking branches lie elsewhere), every such remote is listed (fail closed). None: no repository, or no
    remote holds NAME, or ``checkout.guess`` is false there (git-config(1): no remote-tracking branch is guessed).
    A remote listed for its refspec ends in ``(refspec not read)``.

    Raises:
        ValueError: the repository keeps its refs in ``reftable`` (not read: fail closed).
    """
    local = _git_local_branch(root, base, name)
    if local or not name or any(ord(c) < 32 or ord(c) == 127 for c in name):
        return local
    dirs = _git_dirs(base)
    if dirs is None:
        return []
    git_dir, common = dirs
    if os.path.lexists(os.path.join(common, "reftable")):
        raise ValueError(f"{_rel(root, common)} keeps its refs in reftable (not read)")
    packed: set[str] = set()
    packed_path = os.path.join(common, "packed-refs")
    if os.path.isfile(packed_path):
        for line in _text(packed_path).splitlines():
            fields = line.split()
            if len(fields) == 2 and not line.startswith(("#", "^")):
                packed.add(fields[1])
    remotes: dict[str, bool] = {}  # name -> fetches with a refspec other than the default
    default = ""
    guess = True
    for path in dict.fromkeys((os.path.join(common, "config"), os.path.join(git_dir, "config.worktree"))):
        if not os.path.isfile(path):
            continue
        for _number, key, value in _git_config(_text(path)):
            if key == "checkout.guess":
                guess = value.lower() not in ("false", "no", "off", "0")
            if key == "checkout.defaultremote":
                default = value
            elif key.startswith("remote.") and key.count(".") >= 2:
                remote = key[len("remote.") : key.rindex(".")]
                odd = key.endswith(".fetch") and value.lstrip("+") != f"refs/heads/*:refs/remotes/{remote}/*"
                remotes[remote] = remotes.get(remote, False) or odd
    holding = [
        remote
        for remote, odd in remotes.items()
        if odd
        or os.path.lexists(os.path.join(common, "refs", "remotes", remote, name))
        or f"refs/remotes/{remote}/{name}" in packed
    ]
    if not guess:
        return []
    if default in holding and not remotes[default]:
        holding = [default]
    return [
        (
            _rel(root, common),
            f"remote {remote[:40]}: refs/remotes/{remote[:40]}/{name[:100]}" + (" (refspec not read)" if odd else ""),
        )
        for remote, odd in ((r, remotes[r]) for r in holding)
    ]


#: The largest index read (gitformat-index(5)); a larger one is not read (fail closed).
_MAX_INDEX_BYTES = 64 * 1024 * 1024
#: The most tracked secret files reported.
_MAX_TRACKED = 20


def _git_tracked_secrets(root: str, base: str) -> list[tuple[str, str]]:
    """The files the index of the repository git finds from ``base`` tracks whose name makes them secret files
    (sensitive.py ``env_file``, ``named_secret``: ``.env.production``, ``config/server.key``), as ``(index, "PATH:
    what")`` with PATH relative to the repository's top; none when there is no repository or index. These are what
    ``git grep`` searches and what ``git log -p`` and ``git cat-file --batch-all-objects`` print.

    Raises:
        ValueError: an index FlyBot does not read (:func:`_index_paths`).
    """
    from bot.risk.sensitive import env_file, named_secret

    found: list[tuple[str, str]] = []
    for where, text in _index_paths(root, base):
        what = env_file(text) or named_secret(text)
        if what is not None and len(found) < _MAX_TRACKED:
            found.append((where, f"{text[:150]}: {what}"))
    return found


def _git_holds(root: str, directory: str) -> list[tuple[str, str]]:
    """What the directory ``directory`` holds that a tool emptying it (pytest ``--basetemp``: "The contents of mydir
    will be completely removed", pytest docs "How to use temporary directories") would lose beyond its own output,
    as one finding: a ``.git`` (a repository, gitrepository-layout(5)), or files the index of the repository git finds
    from it tracks (the project's sources); none when it does not exist or holds neither. Something else in its
    place (a file, a link) is a finding too: FlyBot does not judge what emptying it does.

    Raises:
        ValueError: an index FlyBot does not read (:func:`_index_paths`).
    """
    where = _rel(root, directory)
    if not _present(directory):
        return []
    if os.path.islink(directory) or not os.path.isdir(directory):
        return [(where, "not a directory: a link or a file in its place")]
    if _present(os.path.join(directory, ".git")):
        return [(where, "a repository (its .git)")]
    top = directory
    while not _present(os.path.join(top, ".git")):
        parent = os.path.dirname(top)
        if parent == top:
            return []
        top = parent
    prefix = "" if top == directory else os.path.relpath(directory, top) + "/"
    for _index, name in _index_paths(root, directory):
        if name.startswith(prefix):
            return [(where, f"files the repository tracks ({name[:150]})")]
    return []


#: The most files :func:`_cc_includes` reads for one source, and the most bytes of each.
_CC_FILES = 200
_CC_BYTES = 16 * 1024 * 1024
#: A quoted include, the header looked for first beside the file that includes it (GCC "Search Path").
_QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*(?:include(?:_next)?|import)[ \t]*"([^"\n]+)"', re.MULTILINE)


def _cc_includes(root: str, base: str, name: str) -> list[tuple[str, str]]:
    """One ``(FILE, "NAME: what")`` when the source ``name`` (from ``base``) or a header it includes by a quoted name
    found beside the including file names a secret file in an include directive (sensitive.py
    ``included_secret``: ``#include "/root/.ssh/id_rsa"``, ``#include <../../.env>``, ``#embed``, ``.incbin``), or
    a quoted include is a link to one outside the workspace: the compiler reads it into the compile, and its ``-E``
    output and diagnostics print its lines. Files outside the workspace are not read; a missing source finds
    nothing (the compiler fails). Up to :data:`_CC_FILES` files are read, up to :data:`_CC_BYTES` each, decoded
    leniently (a source need not be UTF-8).

    Raises:
        ValueError: a file too big to read (fail closed).
        OSError: a file that is there but cannot be read.
    """
    from bot.risk.sensitive import credential_path, env_file, included_secret, named_secret

    inside = root.rstrip("/") + "/"
    queue = [os.path.normpath(os.path.join(base, name))]
    seen: set[str] = set()
    while queue and len(seen) < _CC_FILES:
        path = queue.pop(0)
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        if not real.startswith(inside):
            what = credential_path(real) or env_file(real) or named_secret(real)
            if what is not None and len(seen) > 1:  # a header that is a link to a secret file outside
                return [(_rel(root, path), f"{_rel(root, path)[:100]} (a link to {real[:100]}): {what}")]
            continue
        if not os.path.isfile(real):
            continue
        if os.path.getsize(real) > _CC_BYTES:
            raise ValueError(f"{_rel(root, real)} is too big to read")
        with open(real, "rb") as handle:
            text = handle.read(_CC_BYTES).decode("utf-8", "replace")
        found = included_secret(text, computed=True)
        if found is not None:
            return [(_rel(root, real), f"{found[0][:100]}: {found[1]}")]
        queue += [os.path.join(os.path.dirname(path), m.group(1)) for m in _QUOTED_INCLUDE.finditer(text)]
    return []


def _pytest_leftovers(root: str, directory: str) -> list[tuple[str, str]]:
    """What the directory ``directory`` holds beyond what pytest itself makes in its ``--basetemp``, as one finding:
    pytest removes the directory's whole content at the start of a run (pytest docs "How to use temporary
    directories": "The contents of mydir will be completely removed") and then makes only numbered directories
    there, a test's name with ``[\\W]`` replaced by ``_`` and a number (``_pytest/tmpdir.py`` ``mktemp``,
    ``make_numbered_dir``, with a link ``PREFIXcurrent`` to the newest; pytest-xdist's ``popen-gw0``). A file,
    another link, or a directory not so named is something the run loses; so is something else in the directory's
    place, or a directory FlyBot cannot list. None when it does not exist or is empty."""
    where = _rel(root, directory)
    if not _present(directory):
        return []
    if os.path.islink(directory) or not os.path.isdir(directory):
        return [(where, "not a directory: a link or a file in its place")]
    try:
        names = sorted(os.listdir(directory))
    except OSError as error:
        return [(where, f"entries FlyBot could not list ({type(error).__name__})")]
    numbered = re.compile(r"[-\w]*\d")
    for name in names:
        path = os.path.join(directory, name)
        if os.path.islink(path) and name.endswith("current"):
            # make_numbered_dir's link PREFIXcurrent to the newest PREFIXN beside it
            target = os.path.normpath(os.path.join(directory, os.readlink(path)))
            if os.path.dirname(target) == os.path.normpath(directory) and numbered.fullmatch(os.path.basename(target)):
                continue
        elif not os.path.islink(path) and os.path.isdir(path) and numbered.fullmatch(name):
            continue
        return [(where, f"files pytest did not make there ({name[:150]})")]
    return []


def _index_paths(root: str, base: str) -> Iterator[tuple[str, str]]:
    """``(index, PATH)`` for each file the index of the repository git finds from ``base`` tracks, PATH relative to
    the repository's top and ``index`` the index file as reasons name it; nothing when there is no repository or
    index.

    gitformat-index(5): a 12-byte header (``DIRC``, version 2, 3 or 4, the number of entries), then the entries:
    40 bytes of stat data, the object name (20 bytes, 32 with ``extensions.objectFormat = sha256``), 2 bytes of
    flags (``0x4000``: 2 more bytes of extended flags, version 3 and later), the path NUL-terminated and padded with
    NULs to a multiple of 8 bytes (version 4: no padding, and the path is the previous one less N trailing bytes,
    N an offset-encoded integer, then the bytes given).

    Raises:
        ValueError: an index FlyBot does not read: another signature or version, a split index (``link``) or a
            sparse one (``sdir``, or a directory entry), one too large or cut short (fail closed).
    """
    dirs = _git_dirs(base)
    if dirs is None:
        return
    git_dir, common = dirs
    path = os.path.join(git_dir, "index")
    if not os.path.isfile(path):
        return
    size = os.path.getsize(path)
    if size > _MAX_INDEX_BYTES:
        raise ValueError(f"{_rel(root, path)} (not read: more than {_MAX_INDEX_BYTES} bytes)")
    with open(path, "rb") as handle:
        data = handle.read(_MAX_INDEX_BYTES + 1)
    hash_size = 20
    config = os.path.join(common, "config")
    if os.path.isfile(config):
        for _number, key, value in _git_config(_text(config)):
            if key == "extensions.objectformat" and value.lower() == "sha256":
                hash_size = 32
    where = _rel(root, path)
    if len(data) < 12 or data[:4] != b"DIRC":
        raise ValueError(f"{where} (not read: not an index)")
    version = int.from_bytes(data[4:8], "big")
    count = int.from_bytes(data[8:12], "big")
    if version not in (2, 3, 4):
        raise ValueError(f"{where} (not read: index version {version})")
    offset, previous = 12, b""
    for _ in range(count):
        start = offset
        fixed = start + 40 + hash_size + 2
        if fixed > len(data):
            raise ValueError(f"{where} (not read: cut short)")
        mode = int.from_bytes(data[start + 24 : start + 28], "big")
        flags = int.from_bytes(data[fixed - 2 : fixed], "big")
        offset = fixed + (2 if version >= 3 and flags & 0x4000 else 0)
        if version == 4:
            strip, offset = _index_varint(data, offset, where)
            end = data.find(b"\0", offset)
            if end < 0 or strip > len(previous):
                raise ValueError(f"{where} (not read: cut short)")
            name = previous[: len(previous) - strip] + data[offset:end]
            offset = end + 1
        else:
            end = data.find(b"\0", offset)
            if end < 0:
                raise ValueError(f"{where} (not read: cut short)")
            name = data[offset:end]
            offset = start + ((end - start) // 8 + 1) * 8
        previous = name
        if mode & 0o170000 == 0o040000:
            raise ValueError(f"{where} (not read: a sparse index)")
        yield where, name.decode("utf-8", "replace")
    while offset + 8 <= len(data) - hash_size:  # extensions: a 4-byte signature and a 4-byte size each
        signature = data[offset : offset + 4]
        if signature in (b"link", b"sdir"):
            raise ValueError(f"{where} (not read: a split or sparse index)")
        offset += 8 + int.from_bytes(data[offset + 4 : offset + 8], "big")


def _index_varint(data: bytes, offset: int, where: str) -> tuple[int, int]:
    """gitformat-index(5) version 4's offset-encoded integer at ``offset`` (varint.c ``decode_varint``): its value
    and the offset after it."""
    if offset >= len(data):
        raise ValueError(f"{where} (not read: cut short)")
    byte = data[offset]
    offset += 1
    value = byte & 127
    while byte & 128:
        if offset >= len(data) or value > 1 << 32:
            raise ValueError(f"{where} (not read: cut short)")
        byte = data[offset]
        offset += 1
        value = ((value + 1) << 7) | (byte & 127)
    return value, offset


def _git_places(root: str, base: str) -> list[tuple[str, str]]:
    """The git directory and common directory of the repository git finds from ``base`` when they lie outside the
    workspace ``root`` (a worktree's or submodule's ``.git`` file names them, gitrepository-layout(5)): a write
    there changes the workspace's repository (its config, hooks, refs, index, objects) as a write into ``.git``
    does. ``(what names it, the absolute directory)`` pairs; none when the repository's directories are inside."""
    dirs = _git_dirs(base)
    if dirs is None:
        return []
    found: list[tuple[str, str]] = []
    for what, place in (("the .git file's gitdir", dirs[0]), ("the git directory's commondir", dirs[1])):
        real = os.path.realpath(place)
        if real != root and not real.startswith(root.rstrip("/") + "/") and (what, real) not in found:
            found.append((what, real))
    return found


def _git_nested(root: str, base: str) -> list[tuple[str, str]]:
    """A nested repository git finds from ``base`` before the workspace's top ``root`` (see the module docstring),
    as one finding; none when git finds the workspace's own (or a submodule's under its ``.git``)."""
    own = os.path.join(root, ".git") + os.sep
    for place in _up_to(base, root):
        if place == root:
            return []
        dot = os.path.join(place, ".git")
        if os.path.isfile(dot) and not os.path.islink(dot):
            text = _text(dot).strip()
            if text.startswith("gitdir:"):
                target = os.path.normpath(os.path.join(place, text[len("gitdir:") :].strip()))
                if (target + os.sep).startswith(own) and os.path.realpath(target) == target:
                    return []  # a submodule's git directory, below the workspace's own .git
            return [(_rel(root, dot), "a .git file naming a git directory outside the workspace's .git")]
        if os.path.lexists(dot):
            return [(_rel(root, dot), "a nested repository: git obeys its config and runs its hooks")]
        if all(os.path.lexists(os.path.join(place, name)) for name in ("HEAD", "objects", "refs")):
            # gitrepository-layout(5), git(1) "GIT_DIR": a directory holding HEAD, objects and refs is a git
            # directory itself (a bare repository); git run in it uses it (safe.bareRepository defaults to "all")
            return [(_rel(root, place), "a bare repository: git obeys its config and runs its hooks")]
    return []


def _git_hooks_paths(root: str, base: str) -> list[tuple[str, str]]:
    """``(source, value)`` of each ``core.hooksPath`` in the configuration of the repository git finds from
    ``base`` (its common ``config`` and the worktree's ``config.worktree``)."""
    return [(source, value) for source, key, value in _repo_config(root, base) if key == "core.hookspath"]


def _repo_config(root: str, base: str) -> list[tuple[str, str, str]]:
    """``(source, key, value)`` of each line of the configuration of the repository git finds from ``base`` (its
    common ``config``, then the worktree's ``config.worktree``), as :func:`_git_config` reads them; ``source`` is
    ``FILE:LINE`` relative to ``root``."""
    dirs = _git_dirs(base)
    if dirs is None:
        return []
    git_dir, common = dirs
    return [
        (f"{_rel(root, path)}:{number}", key, value)
        for path in dict.fromkeys((os.path.join(common, "config"), os.path.join(git_dir, "config.worktree")))
        if _present(path)
        for number, key, value in _git_config(_text(path))
    ]


def _git_programs(root: str, base: str) -> list[tuple[str, str]]:
    """``(source, "KEY=VALUE")`` of each key of :data:`GIT_PROGRAM_KEYS` (the key lower-cased as :func:`_git_config`
    gives it; ``remote.*.url``/``pushurl`` only for a ``transport::address`` URL, whose helper git runs,
    gitremote-helpers(7)) and ``?=LINE`` for each line FlyBot cannot read, in the configuration of the repository git
    finds from ``base`` (its common ``config`` and the worktree's ``config.worktree``)."""
    found: list[tuple[str, str]] = []
    try:
        entries = _repo_config(root, base)
    except (OSError, ValueError, UnicodeDecodeError) as error:
        # a configuration that is there but cannot be read may name any program (fail closed)
        return [("its git directory or configuration", f"?=(not read: {type(error).__name__})")]
    for source, key, value in entries:
        general = "pager.*" if key.startswith("pager.") else _general(key)
        if general in ("remote.*.url", "remote.*.pushurl") and not re.match(r"[A-Za-z0-9][A-Za-z0-9+.-]*::", value):
            continue
        if key == "?" or general in GIT_PROGRAM_KEYS:
            found.append((source, f"{key}={value}"))
    return found


def _git_config(text: str) -> list[tuple[int, str, str]]:
    """``(line, key, value)`` of a git config file: keys as ``section.key`` or ``section.sub.key``, the section and
    key lower-cased (git-config(1) "Syntax"); a line FlyBot cannot read gives the key ``?``."""
    out: list[tuple[int, str, str]] = []
    section = ""
    for number, line in _lines(text):
        header = re.match(r'^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$', line)
        if header:
            name, sub, rest = header.group(1), header.group(2), header.group(3)
            section = name.lower() if sub is None else f"{name.lower()}.{sub}"
            if "." in name and sub is None:  # [section.sub] (deprecated form): the subsection is lower-cased
                head, _, tail = name.partition(".")
                section = f"{head.lower()}.{tail.lower()}"
            line = rest.strip()
            if not line or line.startswith(("#", ";")):
                continue
        key, eq, value = line.partition("=")
        key = key.strip()
        if not section or not re.match(r"^[A-Za-z][A-Za-z0-9-]*$", key):
            out.append((number, "?", line))
            continue
        out.append((number, f"{section}.{key.lower()}", value.strip().strip('"') if eq else "true"))
    return out


def _general(key: str) -> str:
    """``remote.origin.url`` -> ``remote.*.url`` (the subsection replaced), for :data:`SAFE_GIT_KEYS`."""
    parts = key.split(".")
    return f"{parts[0]}.*.{parts[-1]}" if len(parts) > 2 else key


def _git_push(root: str, base: str, remote: str) -> list[tuple[str, str]]:
    dirs = _git_dirs(base)
    if dirs is None:
        return [] if not remote else [(remote, "names no configured remote: git pushes to the path or URL it spells")]
    git_dir, common = dirs
    found: list[tuple[str, str]] = []
    entries: list[tuple[str, int, str, str]] = []
    for path in dict.fromkeys((os.path.join(common, "config"), os.path.join(git_dir, "config.worktree"))):
        if os.path.isfile(path):
            entries += [(_rel(root, path), *entry) for entry in _git_config(_text(path))]
    urls: dict[str, list[str]] = {}
    for source, number, key, value in entries:
        general = _general(key)
        if general in ("remote.*.url", "remote.*.pushurl"):
            urls.setdefault(key[len("remote.") : key.rindex(".")], []).append(value)  # a remote's name may hold dots
            if local_url(value):
                found.append((f"{source}:{number}", f"{key}: a repository on this machine (git runs its hooks)"))
        elif general == "push.default" and value.lower() == "matching":
            # git-config(1) push.default: "matching - push all branches having the same name on both ends"
            found.append((f"{source}:{number}", "push.default = matching: git push pushes every matching branch"))
        elif general not in SAFE_GIT_KEYS and not key.startswith(_SAFE_GIT_PREFIXES):
            found.append((f"{source}:{number}", f"{key[:100]}: a setting FlyBot does not know as choosing no code"))
    for source, number, key, value in entries:
        if _general(key) in ("branch.*.remote", "branch.*.pushremote", "remote.pushdefault") and value not in urls:
            # git push with no remote word pushes to this value; one that names no configured remote is read as a
            # path or URL (git-push(1) "REMOTES"): a repository on this machine runs its hooks, ext:: runs a command
            found.append((f"{source}:{number}", f"{key[:100]}: names no configured remote (git pushes to it)"))
    if remote and remote not in urls:
        found.append((remote, "names no configured remote: git pushes to the path or URL it spells"))
    for hook in _PUSH_HOOKS:
        path = os.path.join(common, "hooks", hook)
        if os.path.lexists(path):
            found.append((_rel(root, path), "a hook git runs on push"))
    return found


# -- settings that run code from outside the workspace ---------------------------------------------------------------
#: Directories of installed programs and runtimes, which only an administrator writes: a program found there is
#: judged by its name, as one found on ``PATH`` is.
_INSTALLED = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/opt/", "/nix/store/", "/Library/", "/System/")
#: Programs a cargo setting may name without running code FlyBot does not know, by the kind of setting (The Cargo
#: Book, "Configuration": ``build.rustc``, ``build.rustdoc``, ``build.rustc-wrapper``, ``target.X.linker``,
#: ``target.X.runner``): the toolchain's own binaries, sccache, C compilers and linkers, emulators and flashers that
#: run the program built.
_SAFE_PROGRAMS: dict[str, re.Pattern[str]] = {
    "rustc": re.compile(r"rustc|clippy-driver"),
    "rustdoc": re.compile(r"rustdoc"),
    "wrapper": re.compile(r"sccache|cachepot"),
    "linker": re.compile(
        r"(?:[\w.+-]+-)?(?:cc|gcc|g\+\+|c\+\+|clang|clang\+\+|ld|lld|ld\.lld|ld\.gold|ld\.bfd|ld\.mold|mold|rust-lld"
        r"|ld64\.lld|wasm-ld|lld-link|link\.exe|emcc)(?:-\d+(?:\.\d+)*)?"
    ),
    "runner": re.compile(
        r"qemu-[\w.-]+|wasmtime|wasmer|wasm-bindgen-test-runner|wasm-server-runner|valgrind|probe-rs|espflash"
        r"|elf2uf2-rs|cargo-embed|wine|wine64|node"
    ),
}
#: cargo's built-in credential providers that run no program (The Cargo Book, "Registry Authentication";
#: ``cargo:token-from-stdout`` runs the program after it).
_CARGO_PROVIDERS = frozenset({"cargo:token", "cargo:wincred", "cargo:macos-keychain", "cargo:libsecret"})


def _short(text: str) -> str:
    return text if len(text) <= 120 else text[:119] + "…"


def _pathlike(word: str) -> bool:
    return "/" in word or word.startswith("~") or word == ".."


def _outside_path(root: str, here: str, path: str) -> str | None:
    """``path`` (as a setting in the directory ``here`` names it) resolved through symbolic links, when it lies outside
    the workspace ``root`` and outside the directories of installed programs (:data:`_INSTALLED`); None otherwise."""
    full = os.path.realpath(os.path.join(here, os.path.expanduser(path)))
    if full == root or full.startswith(root.rstrip("/") + "/") or (full + "/").startswith(_INSTALLED):
        return None
    return full


def _outside_program(root: str, here: str, words: list[str], kind: str) -> str | None:
    """Why running ``words`` (a program and its arguments, as a setting in ``here`` gives them) runs code FlyBot does
    not see, or None: the program or a path among its arguments lies outside the workspace (:func:`_outside_path`), or
    the program is not one of the known ones for ``kind`` (:data:`_SAFE_PROGRAMS`; a program in the workspace is the
    project's code, as its build script is)."""
    if not words:
        return None
    program = words[0]
    if _pathlike(program):
        outside = _outside_path(root, here, program)
        if outside is not None:
            return f"{outside[:120]} is outside the workspace"
        real = os.path.realpath(os.path.join(here, os.path.expanduser(program)))
        inside = real == root or real.startswith(root.rstrip("/") + "/")
        if not inside and not _SAFE_PROGRAMS[kind].fullmatch(os.path.basename(real)):
            return f"{program[:120]} is not a program FlyBot knows for this setting"
    elif not _SAFE_PROGRAMS[kind].fullmatch(program):
        return f"{program[:120]} is a program FlyBot does not know for this setting"
    for word in words[1:]:
        for part in word.split("="):
            if _pathlike(part) and _outside_path(root, here, part) is not None:
                return f"{part[:120]} is outside the workspace"
    return None


def _program_words(value: object) -> list[str] | None:
    """A cargo program setting's words (The Cargo Book, "Executable paths with arguments": a string split at
    whitespace, or an array of strings); None when it is neither."""
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    return None


def _flag_paths(root: str, here: str, words: list[str]) -> str | None:
    """The first path among ``words`` (whole, or after ``=``/``:``) that lies outside the workspace, resolved; None."""
    for word in words:
        for part in re.split(r"[=:,]", word):
            if _pathlike(part):
                outside = _outside_path(root, here, part)
                if outside is not None:
                    return outside
    return None


def _cargo_outside(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The settings of ``.cargo/config.toml`` and ``.cargo/config`` in ``places`` (the directory cargo runs in and
    those above it up to the workspace's top; The Cargo Book, "Configuration", "Hierarchical structure") that make a
    build run a program or compile code from outside the workspace: ``build.rustc``, ``build.rustdoc``,
    ``build.rustc-wrapper``, ``build.rustc-workspace-wrapper``, ``target.X.runner``/``linker`` (a triple or a
    ``cfg(...)``), ``host.runner``/``linker``, ``-C linker=`` and paths in ``rustflags``, a credential provider
    running a program, ``[source.X] directory``/``local-registry``, ``[patch] path``, ``paths``, and ``[env]`` entries
    that change which program runs (``RUSTC_WRAPPER``, ``LD_PRELOAD``, ``PATH``, ``CC``: walker.py
    ``hijacks_environment``) unless they name a known program. A relative program or path is relative to the
    directory holding ``.cargo`` ("Executable paths with arguments"; ``[env]`` values only with ``relative = true``).

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or parsed (fail closed).
    """
    from bot.risk.walker import hijacks_environment

    found: list[tuple[str, str]] = []
    for place in places:
        for name in (".cargo/config.toml", ".cargo/config"):
            path = os.path.join(place, name)
            if not os.path.lexists(path):
                continue
            data = _parsed(root, path, "toml")
            source = _rel(root, path)

            def note(key: str, why: str | None, source: str = source) -> None:
                if why is not None:
                    found.append((source, f"{key[:80]}: {why}"))

            def program(key: str, value: object, kind: str, place: str = place) -> None:
                words = _program_words(value)
                note(key, "a value FlyBot cannot read" if words is None else _outside_program(root, place, words, kind))

            def flags(key: str, value: object, place: str = place) -> None:
                words = _program_words(value)
                if words is None:
                    note(key, "a value FlyBot cannot read")
                    return
                for index, word in enumerate(words):
                    glued = word[2:] if word.startswith("-C") and len(word) > 2 else None
                    option = (
                        glued
                        if glued is not None
                        else words[index + 1]
                        if word == "-C" and index + 1 < len(words)
                        else ""
                    )
                    if option.startswith("linker="):
                        note(key, _outside_program(root, place, [option[len("linker=") :]], "linker"))
                outside = _flag_paths(root, place, words)
                note(key, None if outside is None else f"{outside[:120]} is outside the workspace")

            build = data.get("build", {})
            if isinstance(build, dict):
                for key, kind in (
                    ("rustc", "rustc"),
                    ("rustdoc", "rustdoc"),
                    ("rustc-wrapper", "wrapper"),
                    ("rustc-workspace-wrapper", "wrapper"),
                ):
                    if key in build:
                        program(f"build.{key}", build[key], kind)
                for key in ("rustflags", "rustdocflags"):
                    if key in build:
                        flags(f"build.{key}", build[key])
            for table in ("target", "host"):
                entries = data.get(table, {})
                if not isinstance(entries, dict):
                    continue
                nested = entries.items() if table == "target" else [("", entries)]
                for triple, settings in nested:
                    if not isinstance(settings, dict):
                        continue
                    prefix = f"{table}.{triple}." if triple else f"{table}."
                    for key in ("runner", "linker"):
                        if key in settings:
                            program(prefix + key, settings[key], key)
                    for key in ("rustflags", "rustdocflags"):
                        if key in settings:
                            flags(prefix + key, settings[key])
            env = data.get("env", {})
            for key, value in env.items() if isinstance(env, dict) else ():
                text = value.get("value") if isinstance(value, dict) else value
                if not hijacks_environment(str(key)):
                    continue
                words = str(text).split()
                known = len(words) == 1 and any(p.fullmatch(words[0]) for p in _SAFE_PROGRAMS.values())
                note(f"env.{key}", None if known else "it changes which program the build runs")
            registry = data.get("registry", {})
            providers: list[tuple[str, object]] = []
            if isinstance(registry, dict):
                providers += [("registry.credential-provider", registry.get("credential-provider"))]
                providers += [
                    ("registry.global-credential-providers", p)
                    for p in registry.get("global-credential-providers") or []
                ]
            registries = data.get("registries", {})
            for label, entry in registries.items() if isinstance(registries, dict) else ():
                if isinstance(entry, dict):
                    providers.append((f"registries.{label}.credential-provider", entry.get("credential-provider")))
            for key, value in providers:
                provider = _program_words(value) if value is not None else []
                if provider is None:
                    note(key, "a value FlyBot cannot read")
                elif provider and provider[0] not in _CARGO_PROVIDERS:
                    note(key, f"{_short(' '.join(provider))}: it runs a credential provider program")
            sources = data.get("source", {})
            for label, entry in sources.items() if isinstance(sources, dict) else ():
                for key in ("directory", "local-registry"):
                    value = entry.get(key) if isinstance(entry, dict) else None
                    if isinstance(value, str) and _outside_path(root, place, value) is not None:
                        note(f"source.{label}.{key}", f"{value[:120]} is outside the workspace")
            patches = data.get("patch", {})
            for registry_name, crates in patches.items() if isinstance(patches, dict) else ():
                for crate, spec in crates.items() if isinstance(crates, dict) else ():
                    value = spec.get("path") if isinstance(spec, dict) else None
                    if isinstance(value, str) and _outside_path(root, place, value) is not None:
                        note(f"patch.{registry_name}.{crate}.path", f"{value[:120]} is outside the workspace")
            overrides = data.get("paths", [])
            for value in overrides if isinstance(overrides, list) else [overrides]:
                if not isinstance(value, str) or _outside_path(root, place, value) is not None:
                    note("paths", f"{str(value)[:120]} is outside the workspace")
    return found + _cargo_manifests_outside(root, places)


#: The most manifests :func:`_cargo_manifests_outside` reads (path dependencies and members followed); more: unread.
_MAX_MANIFESTS = 1000
#: Cargo.toml tables of dependencies (The Cargo Book, "Specifying Dependencies"; also under ``[target.X]`` and, for
#: ``[workspace.dependencies]``, under ``[workspace]``).
_CARGO_DEPENDENCY_TABLES = (
    "dependencies",
    "dev-dependencies",
    "build-dependencies",
    "dev_dependencies",
    "build_dependencies",
)
#: Cargo.toml target tables whose ``path`` is the source file cargo compiles (The Cargo Book, "Cargo Targets").
_CARGO_TARGET_TABLES = ("lib", "bin", "test", "bench", "example")


def _cargo_manifests_outside(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The paths in the ``Cargo.toml`` manifests cargo reads from ``places`` (the directory it runs in and those
    above it up to the workspace's top) that lie outside the workspace: a dependency's ``path`` (cargo compiles it
    and runs its ``build.rs`` and proc macros; The Cargo Book, "Specifying Dependencies"), a ``git`` source on this
    machine (``file://``, a path), ``[patch.X]``/``[replace]`` paths ("Overriding Dependencies"), ``package.build``,
    ``package.workspace`` (the workspace root whose ``[patch]`` applies), a target's ``path`` (``[lib]``,
    ``[[bin]]``...), ``[workspace] members``/``default-members``. A path dependency or member inside the workspace is
    followed to its own manifest. Relative paths are relative to the manifest's directory.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a manifest that is there (or one a path inside names) could not be
            read or parsed, or more than :data:`_MAX_MANIFESTS` are named (fail closed).
    """
    import glob

    found: list[tuple[str, str]] = []
    queue = [os.path.join(place, "Cargo.toml") for place in places]
    seen: set[str] = set()
    while queue:
        manifest = queue.pop(0)
        if manifest in seen or not os.path.lexists(manifest):
            continue
        seen.add(manifest)
        if len(seen) > _MAX_MANIFESTS:
            raise ValueError(f"more than {_MAX_MANIFESTS} Cargo.toml manifests (not read)")
        here = os.path.dirname(manifest)
        if os.path.realpath(manifest) != manifest and _outside_path(root, here, os.path.realpath(manifest)):
            raise ValueError(f"{_rel(root, manifest)} (not read: a link out of the workspace)")
        data = _parsed(root, manifest, "toml")
        source = _rel(root, manifest)

        def judge(key: str, value: object, *, follow: bool, here: str = here, source: str = source) -> None:
            if not isinstance(value, str):
                found.append((source, f"{key[:80]}: a value FlyBot cannot read"))
                return
            outside = _outside_path(root, here, value)
            if outside is not None:
                found.append((source, f"{key[:80]} = {_short(value)}: outside the workspace"))
            elif follow:
                queue.append(os.path.join(os.path.realpath(os.path.join(here, value)), "Cargo.toml"))

        def dependencies(prefix: str, table: object, source: str = source) -> None:
            for crate, spec in table.items() if isinstance(table, dict) else ():
                if not isinstance(spec, dict):
                    continue
                if "path" in spec:
                    judge(f"{prefix}.{crate}.path", spec["path"], follow=True)
                git = spec.get("git")
                if git is not None and (not isinstance(git, str) or local_url(git)):
                    found.append((source, f"{prefix}.{crate}.git = {_short(str(git))}: a repository on this machine"))

        tables: list[tuple[str, object]] = [(name, data.get(name)) for name in _CARGO_DEPENDENCY_TABLES]
        targets = data.get("target", {})
        for triple, entry in targets.items() if isinstance(targets, dict) else ():
            if isinstance(entry, dict):
                tables += [(f"target.{triple}.{name}", entry.get(name)) for name in _CARGO_DEPENDENCY_TABLES]
        workspace = data.get("workspace", {})
        if isinstance(workspace, dict):
            tables.append(("workspace.dependencies", workspace.get("dependencies")))
        patches = data.get("patch", {})
        for registry_name, crates in patches.items() if isinstance(patches, dict) else ():
            tables.append((f"patch.{registry_name}", crates))
        tables.append(("replace", data.get("replace")))
        for prefix, table in tables:
            dependencies(prefix, table)
        package = data.get("package", data.get("project", {}))
        if isinstance(package, dict):
            if isinstance(package.get("build"), str):
                judge("package.build", package["build"], follow=False)
            if "workspace" in package:
                judge("package.workspace", package["workspace"], follow=True)
        for name in _CARGO_TARGET_TABLES:
            entries = data.get(name)
            for entry in entries if isinstance(entries, list) else [entries]:
                if isinstance(entry, dict) and "path" in entry:
                    judge(f"{name}.path", entry["path"], follow=False)
        if isinstance(workspace, dict):
            for key in ("members", "default-members"):
                members = workspace.get(key, [])
                for member in members if isinstance(members, list) else [members]:
                    if (
                        not isinstance(member, str)
                        or _outside_path(root, here, member.split("*")[0] or ".") is not None
                    ):
                        found.append((source, f"workspace.{key} {_short(str(member))}: outside the workspace"))
                        continue
                    for match in sorted(glob.glob(os.path.join(here, member)))[: _MAX_MANIFESTS + 1]:
                        judge(f"workspace.{key}", match, follow=True)
    return found


def _cargo_alias(root: str, places: list[str], name: str) -> list[tuple[str, str]]:
    """What the ``[alias]`` ``name`` of the nearest ``.cargo/config.toml`` or ``.cargo/config`` in ``places`` that
    defines it expands to (The Cargo Book, "Configuration", ``[alias]``: a string split at whitespace or an array of
    strings; a deeper file's value wins), as one ``(source, words)``, the words shell-quoted; none when no file
    defines it.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or parsed, or the alias is
            neither a string nor an array of strings (fail closed).
    """
    import shlex

    for place in places:
        for file in (".cargo/config.toml", ".cargo/config"):
            path = os.path.join(place, file)
            if not os.path.lexists(path):
                continue
            table = _parsed(root, path, "toml").get("alias", {})
            if not isinstance(table, dict) or name not in table:
                continue
            words = _program_words(table[name])
            if words is None:
                raise ValueError(f"{_rel(root, path)}: [alias] {name[:60]} is not a string or an array of strings")
            return [(f"{_rel(root, path)} [alias] {name[:60]}", shlex.join(words))]
    return []


#: JVM options that load code from a path (java(1): ``-javaagent:JAR[=OPTIONS]``, ``-agentpath:LIB[=OPTIONS]``,
#: ``-Xbootclasspath/a:PATHS``), and system properties naming code a launcher loads (Maven "Configuring Maven"
#: ``maven.ext.class.path``, core extensions; ``maven.repo.local``, the repository its plugins come from; Gradle
#: "Build Environment" ``org.gradle.java.home``, the JDK it runs, and ``gradle.user.home``, whose ``init.d`` scripts run
#: before every build, as ``--gradle-user-home``; Maven 4 "Configuring Maven" ``maven.user.settings``,
#: ``maven.installation.settings``, ``maven.user.conf``, ``maven.installation.conf`` and ``maven.conf``, the settings
#: and extensions it loads, as ``-s``/``-gs``).
_JVM_PATH_OPTIONS = ("-javaagent:", "-agentpath:", "-Xbootclasspath/a:", "-Xbootclasspath/p:", "-Xbootclasspath:")
_JVM_PATH_PROPERTIES = frozenset({
    "maven.ext.class.path", "maven.repo.local", "org.gradle.java.home", "org.gradle.java.installations.paths",
    "java.library.path", "java.ext.dirs", "java.endorsed.dirs", "gradle.user.home", "maven.user.settings",
    "maven.installation.settings", "maven.user.conf", "maven.installation.conf", "maven.conf", "user.home",
})  # fmt: skip
#: Maven plugin user properties whose value is options of a JVM the plugin forks, read as JVM options in turn:
#: maven-surefire-plugin and maven-failsafe-plugin ``debugForkedProcess`` (user properties ``maven.surefire.debug``,
#: ``maven.failsafe.debug``: "If set to some other string, that string will be appended to the argLine"),
#: spring-boot-maven-plugin ``run`` ``jvmArguments`` (``spring-boot.run.jvmArguments``: "JVM arguments that should be
#: associated with the forked process"), and any property whose last part is named as such a parameter (``argLine``,
#: ``jvmArguments``, ``jvmArgs``: surefire ``argLine``, exec-maven-plugin, jetty/quarkus ``jvmArgs``).
_JVM_OPTIONS_PROPERTIES = frozenset({"maven.surefire.debug", "maven.failsafe.debug"})
_JVM_OPTIONS_NAMES = frozenset({"argline", "jvmarguments", "jvmargs", "jvmargline", "jvmoptions", "jvmflags"})
#: The last part of a Maven plugin user property naming a program or agent the plugin runs: maven-compiler-plugin
#: ``executable`` (``maven.compiler.executable``: "Sets the executable of the compiler to use when fork is true"),
#: spring-boot-maven-plugin ``run`` ``agents`` (``spring-boot.run.agents``: "Path to agent jars"), surefire ``jvm``
#: ("the jvm (or path to the java executable) to use with the forking options"), and ``javaagent``. A value with no
#: ``/`` is a program looked up on the PATH (None: judged as running code whatever it is).
_PROGRAM_PROPERTY_NAMES = frozenset({"executable", "javaagent", "agents", "agent", "jvm"})
#: Maven options naming a file it reads settings or a project from (maven.apache.org "CLI options").
_MAVEN_FILE_OPTIONS = frozenset({
    "-s", "--settings", "-gs", "--global-settings", "-t", "--toolchains", "-gt", "--global-toolchains", "-f", "--file",
})  # fmt: skip


def jvm_code_options(words: list[str], *, maven: bool = False) -> list[tuple[str, str | None]]:
    """The JVM and Maven options among ``words`` that load code from a path, as ``(option, path)``: each path of a
    ``-javaagent:``, ``-agentpath:``, ``-Xbootclasspath``, a property of :data:`_JVM_PATH_PROPERTIES`, an argument
    file ``@FILE``, with ``maven`` a Maven file option (:data:`_MAVEN_FILE_OPTIONS`), and Gradle's ``org.gradle.jvmargs`` given as a
    property (its options read in turn), with ``maven`` a plugin property holding JVM options
    (:data:`_JVM_OPTIONS_PROPERTIES`, read in turn) or naming a program (:data:`_PROGRAM_PROPERTY_NAMES`); the path is None where the option runs code whatever its value
    (``-XX:OnError=CMD``, ``-XX:OnOutOfMemoryError=CMD``: java(1) runs the command; ``-agentlib:NAME``, a native
    library by name, but for the debugger ``jdwp``). The caller judges where each path lies."""
    import shlex

    out: list[tuple[str, str | None]] = []
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        name, eq, value = word.partition("=")
        if name in ("-XX:OnError", "-XX:OnOutOfMemoryError"):
            out.append((name, None))
        elif word.startswith("-agentlib:") and not word.startswith("-agentlib:jdwp"):
            out.append(("-agentlib", None))
        elif word.startswith("@") and len(word) > 1:
            out.append(("@", word[1:]))
        elif maven and name in _MAVEN_FILE_OPTIONS:
            given = value if eq else words[index] if index < len(words) else ""
            index += 0 if eq else 1
            out.append((name, given))
        for prefix in _JVM_PATH_OPTIONS:
            if word.startswith(prefix):
                paths = word[len(prefix) :]
                if prefix in ("-javaagent:", "-agentpath:"):
                    paths = paths.split("=", 1)[0]
                out += [(prefix.rstrip(":"), path) for path in paths.split(":") if path]
        if word == "-D" and index < len(words):
            word = "-D" + words[index]
            index += 1
            name, eq, value = word.partition("=")
        last = name[2:].rsplit(".", 1)[-1].lower() if name.startswith("-D") else ""
        if name.startswith("-D") and name[2:] in _JVM_PATH_PROPERTIES:
            out += [(name, path) for path in re.split(r"[:,]", value) if path]
        elif maven and eq and (name[2:] in _JVM_OPTIONS_PROPERTIES or last in _JVM_OPTIONS_NAMES):
            try:
                out += jvm_code_options(shlex.split(value))
            except ValueError:
                out.append((name, None))
        elif maven and eq and last in _PROGRAM_PROPERTY_NAMES:
            out += [(name, path if "/" in path else None) for path in re.split(r"[:,]", value) if path]
        elif name == "-Dorg.gradle.jvmargs":
            try:
                out += jvm_code_options(shlex.split(value))
            except ValueError:
                out.append((name, None))
    return out


def _properties(text: str) -> list[tuple[int, str, str]]:
    """``(line, key, value)`` of a Java properties file (java.util.Properties ``load``: ``key=value``, ``key:
    value`` or ``key value``, ``#``/``!`` comments, a trailing ``\\`` continues the line)."""
    out: list[tuple[int, str, str]] = []
    pending = ""
    start = 0
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip() if not pending else raw.lstrip()
        if not pending and (not line or line.startswith(("#", "!"))):
            continue
        if not pending:
            start = number
        if line.endswith("\\") and not line.endswith("\\\\"):
            pending += line[:-1]
            continue
        line, pending = pending + line, ""
        match = re.match(r"((?:[^\s=:\\]|\\.)*)\s*[=:\s]?\s*(.*)$", line)
        if match:
            out.append((start, match.group(1).replace("\\", ""), match.group(2)))
    return out


def _jvm_outside(root: str, places: list[str], family: str) -> list[tuple[str, str]]:
    """The settings that make a JVM launcher of ``family`` (``mvn``, ``gradle``, ``sbt``, ``bazel``) run in
    ``places[0]`` load code from outside the workspace: for sbt, ``.jvmopts`` and ``.sbtopts`` there; for Bazel,
    ``.bazelrc`` ``startup`` options (``--host_jvm_args``, ``--server_javabase``, ``--install_base``) and imports
    in the directory and those above; for Maven, ``.mvn/jvm.config`` (JVM options) and ``.mvn/maven.config`` (command-line
    options) in the directory and those above up to the workspace's top (Maven finds ``.mvn`` there); for Gradle,
    ``gradle.properties`` there (Gradle "Build Environment": ``org.gradle.jvmargs``, JVM options of the daemon that
    runs the build, and ``org.gradle.java.home``/``org.gradle.java.installations.paths``, the JDK it runs), each
    option as :func:`jvm_code_options` finds it, its path relative to the project directory.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read (fail closed).
    """
    import shlex

    found: list[tuple[str, str]] = []

    def judge(source: str, here: str, options: list[tuple[str, str | None]]) -> None:
        for option, path in options:
            if path is None:
                found.append((source, f"{option}: it runs code FlyBot does not see"))
            elif _outside_path(root, here, path) is not None:
                found.append((source, f"{option} {path[:120]}: outside the workspace"))

    if family == "mvn":
        for place in places:
            for name in (".mvn/jvm.config", ".mvn/maven.config"):
                path = os.path.join(place, name)
                if os.path.lexists(path):
                    words = shlex.split(_text(path), comments=True)
                    judge(_rel(root, path), place, jvm_code_options(words, maven=name.endswith("maven.config")))
    elif family == "sbt":  # sbt "Command line reference": .jvmopts (JVM options), .sbtopts (-J passes JVM options)
        for name in (".jvmopts", ".sbtopts"):
            path = os.path.join(places[0], name)
            if os.path.lexists(path):
                words = shlex.split(_text(path), comments=True)
                words = [w[2:] if name == ".sbtopts" and w.startswith("-J") else w for w in words]
                judge(_rel(root, path), places[0], jvm_code_options(words))
    elif family == "bazel":  # bazel.build "Write bazelrc configuration files": startup options, imports
        for place in places:
            path = os.path.join(place, ".bazelrc")
            if not os.path.lexists(path):
                continue
            for number, line in _lines(_text(path)):
                words = shlex.split(line, comments=True)
                source = f"{_rel(root, path)}:{number}"
                if words[:1] in (["import"], ["try-import"]) and len(words) > 1:
                    target = words[1].replace("%workspace%", place)
                    judge(source, place, [(words[0], target)])
                elif words[:1] == ["startup"]:
                    options: list[tuple[str, str | None]] = []
                    for index, word in enumerate(words[1:], start=1):
                        name, eq, value = word.partition("=")
                        value = value if eq else words[index + 1] if index + 1 < len(words) else ""
                        if name == "--host_jvm_args":
                            options += jvm_code_options(value.split())
                        elif name in ("--server_javabase", "--install_base"):
                            options.append((name, value))
                    judge(source, place, options)
    else:
        for place in places:
            path = os.path.join(place, "gradle.properties")
            if not os.path.lexists(path):
                continue
            for number, key, value in _properties(_text(path)):
                source = f"{_rel(root, path)}:{number}"
                if key == "org.gradle.jvmargs":
                    try:
                        options = jvm_code_options(shlex.split(value))
                        judge(source, place, [(f"{key} {option}", path) for option, path in options])
                    except ValueError:
                        found.append((source, f"{key}: a value FlyBot cannot read"))
                elif key in ("org.gradle.java.home", "org.gradle.java.installations.paths"):
                    judge(source, place, [(key, item.strip()) for item in value.split(",") if item.strip()])
    return found


def _go_directives(text: str, verbs: tuple[str, ...]) -> list[tuple[int, str, list[str]]]:
    """``(line, verb, words)`` of the ``verbs`` directives of a go.mod or go.work file, single or in a block
    (go.dev/ref/mod "go.mod files", "go.work files"); ``//`` comments removed, quoted words unquoted."""
    out: list[tuple[int, str, list[str]]] = []
    block = None
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        if block is not None:
            if line == ")":
                block = None
            else:
                out.append((number, block, [w.strip('"`') for w in line.split()]))
            continue
        words = line.split()
        if words[0] in verbs:
            if words[1:] == ["("]:
                block = words[0]
            else:
                out.append((number, words[0], [w.strip('"`') for w in words[1:]]))
    return out


def _go_outside(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The directories outside the workspace whose code go builds, in the nearest ``go.work`` and ``go.mod`` of
    ``places`` (the directory go runs in and those above it up to the workspace's top; go.dev/ref/mod: ``replace``
    with a local path, "beginning with ./ or ../" or absolute, relative to the file's directory; ``go.work`` ``use``
    directories). A replacement by a module version is a download, graded as such.

    Raises:
        OSError, UnicodeDecodeError: a file that is there could not be read (fail closed).
    """
    found: list[tuple[str, str]] = []
    for name, verbs in (("go.work", ("use", "replace")), ("go.mod", ("replace",))):
        place = next((p for p in places if os.path.lexists(os.path.join(p, name))), None)
        if place is None:
            continue
        path = os.path.join(place, name)
        for number, verb, words in _go_directives(_text(path), verbs):
            target = words[-1] if verb == "use" else (words[words.index("=>") + 1] if "=>" in words[:-1] else "")
            if verb == "replace" and "=>" in words and words.index("=>") + 2 < len(words):
                continue  # => module version: a download
            local = target.startswith(("./", "../", "/")) or target in (".", "..")
            if local and _outside_path(root, place, target) is not None:
                found.append((f"{_rel(root, path)}:{number}", f"{verb} {target[:120]}: outside the workspace"))
    return found


#: Mocha's configuration files (mochajs.org "Configuring Mocha": ``.mocharc.js``/``.cjs`` are code, run as the
#: project's own, as a Jest configuration is), and the keys naming a module or file it loads (``require``, ``file``,
#: ``spec``, ``ui``, ``reporter``, ``import``, ``config``, ``package``) or options for node (``node-option``).
_MOCHA_FILES = (".mocharc.yml", ".mocharc.yaml", ".mocharc.json", ".mocharc.jsonc")
_MOCHA_KEYS = frozenset({"require", "r", "file", "spec", "ui", "u", "reporter", "R", "import", "config", "package"})


def _mocha_outside(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The modules and files outside the workspace that Mocha's configuration in ``places`` (the directory it runs in
    and those above it up to the workspace's top) makes it load: each value of :data:`_MOCHA_KEYS` and each
    ``node-option`` value that is a path (absolute, under ``~``, or climbing with ``..``: a module name is resolved
    in the project's ``node_modules``), from the files of :data:`_MOCHA_FILES` and ``package.json``'s ``mocha`` key.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or parsed (fail closed).
    """
    import json

    found: list[tuple[str, str]] = []
    for place in places:
        configs: list[tuple[str, object]] = []
        for name in _MOCHA_FILES:
            path = os.path.join(place, name)
            if not os.path.lexists(path):
                continue
            if name.endswith((".yml", ".yaml")):
                data = _parsed(root, path, "yaml")
            else:
                try:
                    data = json.loads(re.sub(r"(?m)^\s*//.*$", "", _text(path)))  # a line comment is allowed
                except json.JSONDecodeError as error:
                    raise ValueError(f"{_rel(root, path)}: {str(error)[:80]}") from error
            configs.append((_rel(root, path), data))
        package = os.path.join(place, "package.json")
        if os.path.lexists(package):
            data = _parsed(root, package, "json")
            if isinstance(data, dict) and "mocha" in data:
                configs.append((f"{_rel(root, package)} mocha", data["mocha"]))
        for source, data in configs:
            if data is None:
                continue
            if not isinstance(data, dict):
                raise ValueError(f"{source}: not a mapping")
            for key, value in data.items():
                key = str(key)
                if key not in _MOCHA_KEYS and key not in ("node-option", "n"):
                    continue
                for item in value if isinstance(value, list) else [value]:
                    for part in str(item).split("="):
                        if _pathlike(part) and _outside_path(root, place, part) is not None:
                            found.append((source, f"{key} {str(item)[:120]}: outside the workspace"))
    return found


#: RSpec's project options files (rspec-core "Configuring RSpec: Command line options" and ``rspec --help``:
#: ``./.rspec`` and ``./.rspec-local`` in the directory it runs in, read as command-line options after ERB), and its
#: options whose value is a file or directory it loads code from or writes: ``-r``/``--require PATH`` ("Require a
#: file"), ``-I PATH`` ("Specify PATH to add to $LOAD_PATH"), ``--default-path PATH`` (the spec files it loads),
#: ``-o``/``--out FILE`` (a formatter's output).
_RSPEC_FILES = (".rspec", ".rspec-local")
_RSPEC_VALUES = ("-r", "--require", "-I", "--default-path", "-o", "--out")


def _rspec_outside(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The files and directories outside the workspace that ``.rspec`` or ``.rspec-local`` where RSpec runs
    (``places[0]``) name (:data:`_RSPEC_VALUES`, attached or as the next word): RSpec requires them, loads specs
    from them or writes there. A file holding ERB (``<%``) is Ruby whose output FlyBot cannot read: reported whole.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or split (fail closed).
    """
    import shlex

    from bot.risk.paths import TEMP_PREFIXES

    found: list[tuple[str, str]] = []
    for name in _RSPEC_FILES:
        path = os.path.join(places[0], name) if places else ""
        if not path or not os.path.lexists(path):
            continue
        text = _text(path)
        if "<%" in text:
            found.append((_rel(root, path), "ERB: options only known when RSpec runs"))
            continue
        words = shlex.split(text, comments=False)
        for index, word in enumerate(words):
            option, value = word, None
            if word.startswith("--") and "=" in word:
                option, _, value = word.partition("=")
            elif word[:2] in ("-r", "-I", "-o") and len(word) > 2:
                option, value = word[:2], word[2:]
            if option not in _RSPEC_VALUES:
                continue
            if value is None:
                value = words[index + 1] if index + 1 < len(words) else ""
            if option in ("-o", "--out") and value.startswith(TEMP_PREFIXES):
                continue  # a report written in the temp area
            if "$" in value or "`" in value or (_pathlike(value) and _outside_path(root, places[0], value)):
                found.append((_rel(root, path), f"{option} {value[:120]}: outside the workspace"))
    return found


def _bun_outside(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The files outside the workspace a ``bunfig.toml`` in ``places`` makes bun load before the code it runs (Bun
    "bunfig.toml": ``preload`` at the top and in ``[test]``/``[run]``, ``plugins`` of ``[serve.static]``): each value,
    in any table, that is a path outside (a package name is resolved in the project's ``node_modules``).

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or parsed (fail closed).
    """
    found: list[tuple[str, str]] = []

    def walk(table: dict[str, object], prefix: str, source: str, place: str) -> None:
        for key, value in table.items():
            if isinstance(value, dict):
                walk(value, f"{prefix}{key}.", source, place)
            elif key in ("preload", "plugins"):
                for item in value if isinstance(value, list) else [value]:
                    if not isinstance(item, str):
                        found.append((source, f"{prefix}{key}: a value FlyBot cannot read"))
                    elif _pathlike(item) and _outside_path(root, place, item) is not None:
                        found.append((source, f"{prefix}{key} {item[:120]}: outside the workspace"))

    for place in places:
        path = os.path.join(place, "bunfig.toml")
        if os.path.lexists(path):
            walk(_parsed(root, path, "toml"), "", _rel(root, path), place)
    return found


#: mypy's configuration files (mypy "The mypy configuration file": ``mypy.ini``, ``.mypy.ini``, ``pyproject.toml``
#: ``[tool.mypy]``, ``setup.cfg`` ``[mypy]``), and the keys naming code it runs: ``plugins`` (mypy "Extending mypy
#: using plugins": a module name or the path of a Python file, ``PATH:ENTRY``, relative to the configuration file;
#: each is imported) and ``python_executable`` (the interpreter mypy runs to find installed packages).
_MYPY_FILES = ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg")
_MYPY_KEYS = ("plugins", "python_executable")


#: flake8's configuration files ("Configuring Flake8": ``setup.cfg``, ``tox.ini``, ``.flake8``, the first holding a
#: ``[flake8]`` or ``[flake8:local-plugins]`` section, looked for from the directory it runs in upward) and
#: "Using Local Plugins": ``[flake8:local-plugins] paths`` are directories put on ``sys.path``, relative to the
#: configuration file, from which the ``extension`` and ``report`` entry points are imported.
_FLAKE8_FILES = (".flake8", "setup.cfg", "tox.ini")


def _flake8_outside(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The ``[flake8:local-plugins] paths`` outside the workspace that flake8's configuration in ``places`` (the
    directory it runs in and those above it up to the workspace's top) puts on ``sys.path`` to import its local
    plugins from (:data:`_FLAKE8_FILES`). A file that does not parse is skipped, as flake8 skips it.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or parsed (fail closed).
    """
    import configparser

    found: list[tuple[str, str]] = []
    for place in places:
        for name in _FLAKE8_FILES:
            path = os.path.join(place, name)
            if not os.path.lexists(path):
                continue
            try:
                parser = _parsed(root, path, configparser.RawConfigParser(strict=False))
            except (UnicodeDecodeError, ValueError) as error:
                # flake8 options/config.py _find_config_file: a file that does not parse as INI (or UTF-8) is
                # ignored ("ignoring unparseable config"); other failures to read stay fail closed
                if isinstance(error, UnicodeDecodeError) or isinstance(error.__cause__, configparser.Error):
                    continue
                raise
            if not parser.has_section("flake8:local-plugins"):
                continue
            value = parser.get("flake8:local-plugins", "paths", fallback="")
            for item in re.split(r"[,\s]+", value):
                if item and _outside_path(root, place, item) is not None:
                    found.append(
                        (_rel(root, path), f"[flake8:local-plugins] paths {item[:120]}: outside the workspace")
                    )
    return found


def _mypy_outside(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The plugins and interpreter outside the workspace that mypy's configuration in ``places`` (the directory it
    runs in and those above it up to the workspace's top) makes it import or run (:data:`_MYPY_KEYS`): a value that
    is a path (a ``/``, ``~``, or a ``.py`` file) outside the workspace; module names are imported from the
    environment, as the project's own code is.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or parsed (fail closed).
    """
    import configparser

    found: list[tuple[str, str]] = []
    for place in places:
        for name in _MYPY_FILES:
            path = os.path.join(place, name)
            if not os.path.lexists(path):
                continue
            values: dict[str, object] = {}
            if name == "pyproject.toml":
                tool = _parsed(root, path, "toml").get("tool", {})
                section = tool.get("mypy", {}) if isinstance(tool, dict) else {}
                values = section if isinstance(section, dict) else {"plugins": section}
            else:
                parser = _parsed(root, path, configparser.RawConfigParser(strict=False))
                if parser.has_section("mypy"):
                    values = dict(parser.items("mypy"))
            for key in _MYPY_KEYS:
                value = values.get(key)
                if value is None:
                    continue
                items = value if isinstance(value, list) else str(value).split(",")
                for item in items:
                    if not isinstance(item, str):
                        found.append((_rel(root, path), f"{key}: a value FlyBot cannot read"))
                        continue
                    entry = item.strip()
                    target = entry.rsplit(":", 1)[0] if entry.count(":") and ".py:" in entry else entry
                    pathlike = _pathlike(target) or target.endswith(".py") or key == "python_executable"
                    if target and pathlike and _outside_path(root, place, target) is not None:
                        found.append((_rel(root, path), f"{key} {entry[:120]}: outside the workspace"))
    return found


#: CMake's preset files (cmake-presets(7): ``CMakePresets.json`` and ``CMakeUserPresets.json`` in the project's
#: source directory, and the files their ``include`` lists name) and the macros a value may hold that FlyBot can
#: expand: ``${sourceDir}``, ``${sourceParentDir}``, ``${fileDir}`` are directories; the others only change a name.
_CMAKE_PRESET_FILES = ("CMakePresets.json", "CMakeUserPresets.json")
_CMAKE_NAME_MACROS = re.compile(r"\$\{(?:presetName|generator|hostSystemName|sourceDirName|dollar|pathListSep)\}")
#: A macro FlyBot cannot expand (``$env{NAME}``, ``$penv{NAME}``, ``$vendor{...}``, an unknown ``${...}``).
_CMAKE_UNKNOWN_MACRO = re.compile(r"\$(?:env|penv|vendor)?\{")
#: Preset keys whose value CMake runs or loads (cmake-presets(7) "Configure Preset": ``toolchainFile``, a CMake
#: script run before the project's; ``cmakeExecutable``), and cache variables that name a program or CMake code
#: (cmake-variables(7), as the cmake catalogue entry's ``unsafe`` words).
_CMAKE_PRESET_CODE_KEYS = ("toolchainFile", "cmakeExecutable")
_CMAKE_CODE_VARIABLES = re.compile(
    r"CMAKE_(?:TOOLCHAIN_FILE|PROJECT_\w*INCLUDE\w*|\w+_COMPILER\w*|\w+_LAUNCHER|\w+_CLANG_TIDY|\w+_CPPCHECK"
    r"|\w+_CPPLINT|\w+_INCLUDE_WHAT_YOU_USE|MAKE_PROGRAM|LINKER|AR|RANLIB|NM|OBJCOPY|OBJDUMP|STRIP|ADDR2LINE"
    r"|READELF|CROSSCOMPILING_EMULATOR|USER_MAKE_RULES_OVERRIDE\w*|MODULE_PATH|PREFIX_PATH)"
)


def _cmake_presets_outside(root: str, places: list[str], chosen: str | None = None) -> list[tuple[str, str]]:
    """What the CMake presets in ``places`` (the directory cmake runs in and those above it up to the workspace's top)
    make ``cmake --preset``, ``cmake --build --preset``, ``ctest --preset`` and ``cmake --workflow`` run from outside
    the workspace (cmake-presets(7)): a ``toolchainFile``, ``cmakeExecutable``, an ``include`` file or a code or
    program cache variable (:data:`_CMAKE_CODE_VARIABLES`) whose value is a path outside, or holds a macro FlyBot
    cannot expand (``$env{...}``); an ``environment`` entry that changes which program runs (``PATH``, ``CC``,
    ``LD_PRELOAD``: walker.py ``hijacks_environment``) whatever its value. Included files inside are read the same
    way. With ``chosen`` (the preset's name) only the presets it uses are looked at: those of that name, what they
    inherit (``inherits``), their ``configurePreset`` and a workflow's steps; includes always.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or parsed (fail closed).
    """
    from bot.risk.walker import hijacks_environment

    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    presets: list[tuple[str, str, dict[str, object], str, str]] = []  # kind, name, preset, file, its directory
    sources: dict[str, str] = {}  # each file read -> the source directory (${sourceDir}) of the file including it

    def expand(value: str, here: str, source_dir: str) -> str | None:
        text = _CMAKE_NAME_MACROS.sub("x", value)
        text = text.replace("${sourceDir}", source_dir).replace("${fileDir}", here)
        text = text.replace("${sourceParentDir}", os.path.dirname(source_dir))
        return None if _CMAKE_UNKNOWN_MACRO.search(text) else text

    def check(source: str, key: str, value: object, here: str, source_dir: str) -> None:
        if not isinstance(value, str):
            found.append((source, f"{key[:80]}: a value FlyBot cannot read"))
            return
        text = expand(value, here, source_dir)
        if text is None:
            found.append((source, f"{key[:80]} {_short(value)}: a macro FlyBot cannot expand"))
        elif text and _outside_path(root, here, text) is not None:
            found.append((source, f"{key[:80]} {_short(value)}: outside the workspace"))

    def walk(path: str, source_dir: str) -> None:
        real = os.path.realpath(path)
        if real in seen or not os.path.lexists(path):
            return
        seen.add(real)
        sources[path] = source_dir
        source = _rel(root, path)
        data = _parsed(root, path, "json")
        if not isinstance(data, dict):
            raise ValueError(f"{source}: not a JSON object")
        here = os.path.dirname(path)
        for index, included in enumerate(data.get("include") or []):
            check(source, f"include[{index}]", included, here, source_dir)
            if isinstance(included, str):
                text = expand(included, here, source_dir)
                if text is not None and _outside_path(root, here, text) is None:
                    walk(os.path.join(here, text), source_dir)
        for kind in ("configurePresets", "buildPresets", "testPresets", "packagePresets", "workflowPresets"):
            for preset in data.get(kind) or []:
                if isinstance(preset, dict):
                    presets.append((kind, str(preset.get("name", "")), preset, path, here))

    def used(kind: str, name: str, preset: dict[str, object]) -> list[tuple[str, str]]:
        inherits = preset.get("inherits") or []
        parents = [inherits] if isinstance(inherits, str) else inherits if isinstance(inherits, list) else []
        names = [(kind, str(n)) for n in parents]
        if "configurePreset" in preset:
            names.append(("configurePresets", str(preset["configurePreset"])))
        steps = preset.get("steps") or []
        for step in steps if isinstance(steps, list) else ():
            if isinstance(step, dict):
                names.append((f"{step.get('type', '')}Presets", str(step.get("name", ""))))
        return names

    for place in places:
        for name in _CMAKE_PRESET_FILES:
            walk(os.path.join(place, name), place)
    wanted = {(kind, name) for kind, name, _, _, _ in presets if chosen is None or name == chosen}
    while True:
        more = {n for kind, name, preset, _, _ in presets if (kind, name) in wanted for n in used(kind, name, preset)}
        if more <= wanted:
            break
        wanted |= more
    for kind, label, preset, path, here in presets:
        if (kind, label) not in wanted:
            continue
        source, source_dir, name = _rel(root, path), sources[path], f"{kind}.{label[:40]}"
        for key in _CMAKE_PRESET_CODE_KEYS:
            if key in preset:
                check(source, f"{name}.{key}", preset[key], here, source_dir)
        binary = preset.get("binaryDir")
        toolchain = preset.get("toolchainFile")
        if isinstance(toolchain, str) and isinstance(binary, str):
            # cmake-presets(7) toolchainFile: a relative path is taken from the build directory first
            build_dir = expand(binary, here, source_dir)
            if build_dir is None:
                found.append((source, f"{name}.binaryDir {_short(binary)}: a macro FlyBot cannot expand"))
            else:
                check(source, f"{name}.toolchainFile", toolchain, os.path.join(source_dir, build_dir), source_dir)
        variables = preset.get("cacheVariables") or {}
        for variable, value in variables.items() if isinstance(variables, dict) else ():
            if _CMAKE_CODE_VARIABLES.fullmatch(str(variable)):
                shown = value.get("value") if isinstance(value, dict) else value
                check(source, f"{name}.cacheVariables.{variable}", shown, here, source_dir)
        environment = preset.get("environment") or {}
        for variable in environment if isinstance(environment, dict) else ():
            if hijacks_environment(str(variable)):
                found.append((source, f"{name}.environment.{str(variable)[:40]}: it changes which program runs"))
    return found


#: A PEP 508 direct reference to a local file or directory (``name @ file:///path``, ``name @ ../path``).
_DIRECT_REFERENCE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\])?\s*@\s*(\S+)")


def _local_reference(value: str) -> str | None:
    """The path a dependency URL or path names on this machine (``file:///x`` -> ``/x``, ``../x``), or None for a
    remote URL (``https://``, ``git+https://``)."""
    value = value.removeprefix("git+")
    if value.startswith("file:"):  # file:///x, file://localhost/x, file:../x
        rest = value[len("file:") :].split("#", 1)[0]
        if rest.startswith("//"):
            rest = "/" + rest[2:].partition("/")[2]
        return rest or "/"
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", value):
        return None
    return value.split("#", 1)[0]


def _python_outside(root: str, places: list[str], *, family: str) -> list[tuple[str, str]]:
    """The code from outside the workspace that the ``pyproject.toml`` files in ``places`` (the directory a Python
    project tool runs in and those above it up to the workspace's top) make uv or pdm build and install, whose build
    backend or ``setup.py`` then runs: a PEP 508 direct reference to a local path (``x @ file:///tmp/x`` in
    ``[project] dependencies``, ``optional-dependencies``, ``[dependency-groups]``; PEP 440 "Direct references"), a
    ``[tool.uv.sources]`` ``path`` or a ``git`` repository on this machine (uv "Dependency sources"), a
    ``[tool.uv.workspace] members`` entry (uv "Workspaces") and a ``[tool.uv] find-links`` or ``[[tool.uv.index]]``
    directory outside (the ``[tool.uv]`` ones only for uv); for poetry, a ``path`` or local ``git`` dependency in
    ``[tool.poetry.dependencies]``, ``[tool.poetry.dev-dependencies]`` or ``[tool.poetry.group.NAME.dependencies]``
    (poetry "Dependency specification": path dependencies, git dependencies) and a ``packages`` entry's ``from``
    outside (poetry "The pyproject.toml file": ``packages``). Relative paths are relative to the file's directory.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or parsed (fail closed).
    """
    found: list[tuple[str, str]] = []
    for place in places:
        path = os.path.join(place, "pyproject.toml")
        if not os.path.lexists(path):
            continue
        data = _parsed(root, path, "toml")
        source = _rel(root, path)

        def judge(key: str, value: object, place: str = place, source: str = source) -> None:
            local = _local_reference(value) if isinstance(value, str) else None
            if not isinstance(value, str):
                found.append((source, f"{key[:80]}: a value FlyBot cannot read"))
            elif local is not None and _outside_path(root, place, local) is not None:
                found.append((source, f"{key[:80]} = {_short(value)}: outside the workspace"))

        project = data.get("project", {})
        lists: list[tuple[str, object]] = []
        if isinstance(project, dict):
            lists.append(("project.dependencies", project.get("dependencies")))
            extras = project.get("optional-dependencies", {})
            for extra, items in extras.items() if isinstance(extras, dict) else ():
                lists.append((f"project.optional-dependencies.{extra}", items))
        groups = data.get("dependency-groups", {})
        for group, items in groups.items() if isinstance(groups, dict) else ():
            lists.append((f"dependency-groups.{group}", items))
        for key, items in lists:
            for item in items if isinstance(items, list) else ():
                match = _DIRECT_REFERENCE.match(item) if isinstance(item, str) else None
                if match is not None:
                    judge(key, match.group(1).rstrip(";,"))
        tool = data.get("tool", {})
        if family == "poetry" and isinstance(tool, dict):
            found.extend(_poetry_outside(root, place, source, tool.get("poetry", {}), judge))
        settings = tool.get("uv", {}) if isinstance(tool, dict) and family == "uv" else {}
        if not isinstance(settings, dict):
            continue
        sources = settings.get("sources", {})
        for name, spec in sources.items() if isinstance(sources, dict) else ():
            for entry in spec if isinstance(spec, list) else [spec]:
                if not isinstance(entry, dict):
                    continue
                if "path" in entry:
                    judge(f"tool.uv.sources.{name}.path", entry["path"])
                git = entry.get("git")
                if git is not None and (not isinstance(git, str) or local_url(git.removeprefix("git+"))):
                    found.append(
                        (source, f"tool.uv.sources.{name}.git = {_short(str(git))}: a repository on this machine")
                    )
        workspace = settings.get("workspace", {})
        members = workspace.get("members", []) if isinstance(workspace, dict) else []
        for member in members if isinstance(members, list) else [members]:
            judge("tool.uv.workspace.members", member.split("*")[0] or "." if isinstance(member, str) else member)
        links = settings.get("find-links", [])
        for link in links if isinstance(links, list) else [links]:
            judge("tool.uv.find-links", link)
        indexes = settings.get("index", [])
        for index in indexes if isinstance(indexes, list) else []:
            if isinstance(index, dict) and "url" in index:
                judge("tool.uv.index.url", index["url"])
    return found


def _poetry_outside(
    root: str, place: str, source: str, poetry: object, judge: Callable[[str, object], None]
) -> list[tuple[str, str]]:
    """The ``[tool.poetry]`` table's dependencies and packages outside the workspace (:func:`_python_outside`): each
    ``path`` is given to ``judge``; a ``git`` dependency on this machine is returned as a finding."""
    found: list[tuple[str, str]] = []
    if not isinstance(poetry, dict):
        return found
    tables: list[tuple[str, object]] = [
        ("tool.poetry.dependencies", poetry.get("dependencies")),
        ("tool.poetry.dev-dependencies", poetry.get("dev-dependencies")),
    ]
    groups = poetry.get("group", {})
    for group, table in groups.items() if isinstance(groups, dict) else ():
        tables.append(
            (f"tool.poetry.group.{group}.dependencies", table.get("dependencies") if isinstance(table, dict) else None)
        )
    for key, table in tables:
        for name, spec in table.items() if isinstance(table, dict) else ():
            for entry in spec if isinstance(spec, list) else [spec]:  # multiple constraints: a list of tables
                if not isinstance(entry, dict):
                    continue
                if "path" in entry:
                    judge(f"{key}.{name}.path", entry["path"])
                git = entry.get("git")
                if git is not None and (not isinstance(git, str) or local_url(git.removeprefix("git+"))):
                    found.append((source, f"{key}.{name}.git = {_short(str(git))}: a repository on this machine"))
    packages = poetry.get("packages", [])
    for package in packages if isinstance(packages, list) else ():
        if isinstance(package, dict) and "from" in package:
            judge("tool.poetry.packages.from", package["from"])
    return found


#: Gemfile options naming a gem's local source (bundle-gemfile(5) "PATH", "GIT": ``path:``/``:path =>``,
#: ``git:``/``:git =>``), the block forms ``path "DIR" do`` and ``git "URL" do``, ``gemspec path:``, and
#: ``eval_gemfile PATH`` (Bundler's Dsl: another Gemfile evaluated in place). Group 1 is the option, group 2 the rest.
_GEMFILE_SOURCE = re.compile(r"(?:\b(path|git)\s*:(?!:)|:(path|git)\s*=>|^\s*(path|git|eval_gemfile)\b\s*\(?)\s*(.*)$")
_RUBY_STRING = re.compile(r"""^(['"])((?:(?!\1)[^\\#])*)\1""")


def _bundler_outside(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The gems from outside the workspace that the Gemfile (or gems.rb) in ``places`` makes Bundler load, whose
    gemspec (Ruby) it evaluates and whose code ``bundle exec`` runs (bundle-gemfile(5) "PATH": "the gem is
    available at a local path"; "GIT": a repository on this machine; Bundler's ``eval_gemfile``): a ``path:`` option,
    a ``path "DIR" do`` block, a ``git:`` source that is a local path or ``file://`` URL, or an ``eval_gemfile``
    file, outside the workspace; and a value that is not a plain string literal (``path: File.expand_path(...)``,
    ``"#{ENV['X']}"``), which FlyBot cannot read. The Gemfile is Ruby, so this reads its usual shapes only; the
    ``PATH`` and ``GIT`` sections of Gemfile.lock (``remote:``) are judged the same way. Relative paths are relative
    to the Gemfile's directory.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read (fail closed).
    """
    found: list[tuple[str, str]] = []
    for place in places:
        for name in ("Gemfile", "gems.rb"):
            path = os.path.join(place, name)
            if not os.path.lexists(path):
                continue
            source = _rel(root, path)
            for number, line in enumerate(_text(path).splitlines(), start=1):
                if line.lstrip().startswith("#"):
                    continue
                for match in _GEMFILE_SOURCE.finditer(line):
                    option = match.group(1) or match.group(2) or match.group(3)
                    rest = match.group(4)
                    if match.group(3) and re.match(r"=(?!=)|\.", rest):
                        continue  # a local variable named path (path = ...), a method call (path.join)
                    literal = _RUBY_STRING.match(rest)
                    where = f"{source}:{number}"
                    if literal is None:
                        found.append((where, f"{option} {_short(rest.strip())}: a value FlyBot cannot read"))
                        continue
                    value = literal.group(2)
                    local = value if option in ("path", "eval_gemfile") else _local_reference(value)
                    if option == "git" and local is not None and not local_url(value):
                        local = None  # user@host:repo
                    if local is not None and _outside_path(root, place, local) is not None:
                        found.append((where, f"{option} {_short(value)}: outside the workspace"))
        lock = os.path.join(place, "Gemfile.lock")
        if os.path.lexists(lock):
            section = ""
            for number, line in enumerate(_text(lock).splitlines(), start=1):
                if line and not line.startswith(" "):
                    section = line.strip()
                elif section in ("PATH", "GIT") and line.strip().startswith("remote:"):
                    value = line.strip()[len("remote:") :].strip()
                    local = value if section == "PATH" else _local_reference(value)
                    if section == "GIT" and not local_url(value):
                        local = None
                    if local is not None and _outside_path(root, place, local) is not None:
                        found.append(
                            (f"{_rel(root, lock)}:{number}", f"{section} remote {_short(value)}: outside the workspace")
                        )
    return found


#: composer.json repository types whose ``url`` is read from this machine (getcomposer.org "Repositories": ``path``,
#: ``artifact`` (a directory of zip files), ``vcs``/``git``/``hg``/``svn``/``fossil`` with a local path, ``composer``
#: with a ``file://`` URL).
_COMPOSER_LOCAL_TYPES = frozenset({"path", "artifact", "vcs", "git", "hg", "svn", "fossil", "composer", "package"})


def _composer_outside(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The packages from outside the workspace that composer.json in ``places`` makes Composer install, whose
    plugins and scripts then run and whose code the project autoloads (getcomposer.org "Repositories": a ``path``
    repository's ``url`` is a local directory, globs allowed; ``artifact`` a directory of zips; a VCS or
    ``composer`` repository given a local path or ``file://`` URL; a ``package`` repository's ``dist``/``source``
    ``url`` likewise): each such url outside the workspace, and a repository entry FlyBot cannot read.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or parsed (fail closed).
    """
    found: list[tuple[str, str]] = []
    for place in places:
        path = os.path.join(place, "composer.json")
        if not os.path.lexists(path):
            continue
        data = _parsed(root, path, "json")
        if not isinstance(data, dict):
            raise ValueError(f"{_rel(root, path)}: not an object")
        source = _rel(root, path)
        repositories = data.get("repositories", [])
        entries = repositories.values() if isinstance(repositories, dict) else repositories
        if not isinstance(entries, (list, type({}.values()))):
            found.append((source, "repositories: a value FlyBot cannot read"))
            continue
        for entry in entries:
            if entry is False or (isinstance(entry, dict) and set(entry) <= {"packagist", "packagist.org"}):
                continue  # {"packagist.org": false} turns the default repository off
            if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
                found.append((source, f"repositories: an entry FlyBot cannot read ({_short(str(entry))})"))
                continue
            kind = entry["type"]
            urls: list[object] = [entry.get("url")]
            if kind == "package":
                packages = entry.get("package")
                for package in packages if isinstance(packages, list) else [packages]:
                    for part in ("dist", "source"):
                        inner = package.get(part) if isinstance(package, dict) else None
                        if isinstance(inner, dict):
                            urls.append(inner.get("url"))
                urls = urls[1:]
            elif kind not in _COMPOSER_LOCAL_TYPES:
                continue
            for url in urls:
                if not isinstance(url, str):
                    if url is not None or kind != "package":
                        found.append((source, f"repositories ({kind}): a url FlyBot cannot read"))
                    continue
                local = url if kind in ("path", "artifact") else _local_reference(url)
                if kind not in ("path", "artifact") and local is not None and not local_url(url.removeprefix("git+")):
                    local = None
                if local is None:
                    continue
                local = local.split("*", 1)[0].split("{", 1)[0] or "."
                if _outside_path(root, place, local) is not None:
                    found.append((source, f"repositories ({kind}) url {_short(url)}: outside the workspace"))
    return found


def _dotnet_outside(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The SDKs from outside the workspace that a ``global.json`` in ``places`` makes the dotnet host run (.NET
    "global.json overview", .NET 10: ``sdk.paths``, "the locations that should be considered when searching for a
    compatible .NET SDK", relative to the file; ``$host$`` is the running host's own location): a path outside the
    workspace, or a value that is not a list of strings. Every dotnet command that resolves an SDK reads it,
    ``dotnet --version`` included.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or parsed (fail closed).
    """
    found: list[tuple[str, str]] = []
    for place in places:
        path = os.path.join(place, "global.json")
        if not os.path.lexists(path):
            continue
        source = _rel(root, path)
        text = _text(path)
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            # the host's reader takes // and /* */ comments and trailing commas (System.Text.Json, "global.json
            # overview": comments are supported); a file that still does not parse is not read
            data = json.loads(_json_without_comments(text))
        sdk = data.get("sdk") if isinstance(data, dict) else None
        paths = sdk.get("paths") if isinstance(sdk, dict) else None
        if paths is None:
            continue
        if not isinstance(paths, list) or not all(isinstance(item, str) for item in paths):
            found.append((source, "sdk.paths: a value FlyBot cannot read"))
            continue
        for item in paths:
            if item != "$host$" and _outside_path(root, place, item) is not None:
                found.append((source, f"sdk.paths {_short(item)}: an SDK outside the workspace"))
    return found


#: NuGet's own package source ("nuget.config reference": the default ``nuget.org`` source).
_NUGET_ORG = "https://api.nuget.org/v3/index.json"
#: A ``<packageSources>`` section and an ``<add ... value="...">`` entry in it.
_NUGET_SOURCES = re.compile(r"<packageSources\b[^>]*>(.*?)</packageSources\s*>", re.DOTALL | re.IGNORECASE)
_NUGET_ADD = re.compile(r"<add\b[^>]*?\bvalue\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.IGNORECASE)


def _nuget_sources(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The package sources other than nuget.org that a ``nuget.config`` (any case) in ``places`` adds (NuGet "Common
    NuGet configurations": restore reads every nuget.config from the project's directory up to the root of the
    drive): where ``dotnet restore`` (and the restore of build, test, run, pack and publish) gets packages, whose
    build targets MSBuild imports.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a directory or file that is there could not be read (fail closed).
    """
    found: list[tuple[str, str]] = []
    for place in places:
        try:
            with os.scandir(place) as entries:
                names = sorted(e.name for e in entries if e.name.lower() == "nuget.config")
        except (FileNotFoundError, NotADirectoryError):
            continue
        for name in names:
            path = os.path.join(place, name)
            text = _text(path)
            for section in _NUGET_SOURCES.findall(text):
                for quoted in _NUGET_ADD.findall(section):
                    value = quoted[0] or quoted[1]
                    if value.rstrip("/") != _NUGET_ORG:
                        found.append((_rel(root, path), f"package source {_short(value)}"))
    return found


#: A JSON string, or a ``//`` or ``/* */`` comment (kept, dropped: :func:`_json_without_comments`).
_JSON_COMMENT = re.compile(r'("(?:\\.|[^"\\\n])*")|//[^\n]*|/\*.*?\*/', re.DOTALL)


def _json_without_comments(text: str) -> str:
    """``text`` without its comments and the commas before a closing bracket (JSON as .NET's reader takes it)."""
    bare = _JSON_COMMENT.sub(lambda m: m.group(1) or "", text)
    return re.sub(r",(\s*[}\]])", r"\1", bare)


#: The pubspec keys whose entries are dependencies (pub "Dependencies", "Overriding dependencies locally").
_PUB_DEPENDENCY_KEYS = ("dependencies", "dev_dependencies", "dependency_overrides")


def _pubspec_outside(root: str, places: list[str]) -> list[tuple[str, str]]:
    """The packages from outside the workspace that ``pubspec.yaml`` or ``pubspec_overrides.yaml`` in ``places``
    make pub resolve, whose code (and build hooks) ``dart``/``flutter`` compile and run (pub "Package dependencies":
    a ``path`` dependency, a ``git`` dependency whose URL is a path or ``file://`` URL; "Workspaces": ``workspace``
    members), outside the workspace; and a dependency of a shape FlyBot cannot read. Relative paths are relative to
    the file's directory.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read or is not YAML (fail closed).
    """
    found: list[tuple[str, str]] = []
    for place in places:
        for name in ("pubspec.yaml", "pubspec_overrides.yaml"):
            path = os.path.join(place, name)
            if not os.path.lexists(path):
                continue
            source = _rel(root, path)
            data = _parsed(root, path, "yaml")
            if not isinstance(data, dict):
                continue
            locals_: list[tuple[str, object]] = []
            for key in _PUB_DEPENDENCY_KEYS:
                entries = data.get(key)
                if entries is None:
                    continue
                if not isinstance(entries, dict):
                    found.append((source, f"{key}: a value FlyBot cannot read"))
                    continue
                for package, spec in entries.items():
                    if not isinstance(spec, dict):
                        continue  # a version constraint (or none): a package from the configured server
                    if "path" in spec:
                        locals_.append((f"{key} {package} path", spec["path"]))
                    git = spec.get("git")
                    url = git.get("url") if isinstance(git, dict) else git
                    if git is not None:
                        if not isinstance(url, str):
                            found.append((source, f"{key} {package} git: a value FlyBot cannot read"))
                        elif local_url(url):
                            locals_.append((f"{key} {package} git", _local_reference(url) or url))
            members = data.get("workspace")
            if isinstance(members, list):
                locals_ += [("workspace", member) for member in members]
            for what, value in locals_:
                if not isinstance(value, str):
                    found.append((source, f"{what}: a value FlyBot cannot read"))
                elif _outside_path(root, place, value) is not None:
                    found.append((source, f"{what} {_short(value)}: outside the workspace"))
    return found


def _outside(root: str, places: list[str], tool: str, family: str) -> list[tuple[str, str]]:
    """The answer to :data:`OUTSIDE` for ``tool`` (and ``family``, the program of the jvm and npm tools)."""
    if tool == "cargo" and not family:
        return _cargo_outside(root, places + _temp_above(root))
    if tool == "go" and not family:
        return _go_outside(root, places + _temp_above(root))
    if tool == "jvm" and family in ("mvn", "gradle", "sbt", "bazel"):
        return _jvm_outside(root, places, family)
    if tool == "npm" and family == "mocha":
        return _mocha_outside(root, places)
    if tool == "npm" and family == "bun":
        return _bun_outside(root, places)
    if tool == "python" and family in ("uv", "pdm", "poetry"):
        return _python_outside(root, places, family=family)
    if tool == "python" and family == "mypy":
        return _mypy_outside(root, places)
    if tool == "python" and family == "flake8":
        return _flake8_outside(root, places)
    if tool == "jvm" and family.split(" ", 1)[0] == "flyway":
        return _flyway_outside(root, places[0], family.split(" ", 1)[1] if " " in family else "")
    if tool == "npm" and family.split(" ", 1)[0] == "prisma":
        return _prisma_outside(root, places[0], family.split(" ", 1)[1] if " " in family else "")
    if tool == "cc" and family.split(" ", 1)[0] == "cmake":
        return _cmake_presets_outside(root, places, family.split(" ", 1)[1] if " " in family else None)
    if tool == "ruby" and family == "bundle":
        return _bundler_outside(root, places)
    if tool == "ruby" and family == "rspec":
        return _rspec_outside(root, places)
    if tool == "composer" and family == "composer":
        return _composer_outside(root, places)
    if tool == "dotnet" and family == "dotnet":
        return _dotnet_outside(root, places)
    if tool == "dart" and family in ("dart", "flutter"):
        return _pubspec_outside(root, places)
    raise ValueError(f"no settings are read for {tool} {OUTSIDE} {family}")


#: Flyway settings naming where its migrations, callbacks and Java code come from (Flyway "Configuration":
#: ``flyway.locations`` "Comma-separated list of locations to scan recursively for migrations" (SQL and script
#: migrations, callbacks), ``flyway.callbackLocations``, ``flyway.jarDirs`` (Java migrations and callbacks loaded
#: into Flyway), in the ``.conf`` form ``flyway.KEY=VALUE`` or the TOML form ``KEY = [...]``).
_FLYWAY_CODE = re.compile(r"^(?:flyway\.)?(locations|callbackLocations|jarDirs)\s*=\s*(.*)$")
#: The configuration files Flyway reads from the directory it runs in when ``-configFiles`` names none (Flyway
#: "Configuration": ``flyway.conf`` and ``flyway.toml`` in the working directory; the user's own under ``~`` and the
#: installation's ``conf/`` are not the workspace's).
_FLYWAY_FILES = ("flyway.conf", "flyway.toml")


def _flyway_outside(root: str, base: str, files: str) -> list[tuple[str, str]]:
    """The migrations, callbacks and Java code from outside the workspace that Flyway run in ``base`` with the
    configuration files ``files`` (``-configFiles``, comma-separated; empty: :data:`_FLYWAY_FILES`) loads
    (:data:`_FLYWAY_CODE`): a ``filesystem:`` (or plain) location outside the workspace, one on another machine
    (``s3:``, ``gcs:``) or one holding a placeholder or variable (only known when it runs); ``classpath:`` locations
    are inside Flyway's own and the configured jars. A named file missing is left to Flyway (it stops).

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read (fail closed).
    """
    found: list[tuple[str, str]] = []
    for name in [f.strip() for f in files.split(",") if f.strip()] or list(_FLYWAY_FILES):
        path = os.path.normpath(os.path.join(base, name))
        if not os.path.lexists(path):
            continue
        rel = _rel(root, path)
        if rel == path or rel.startswith("../") or os.path.islink(path):
            found.append((name, f"{name} is not a file of the workspace"))
            continue
        for number, line in _lines(_text(path)):
            match = _FLYWAY_CODE.match(line)
            if match is None:
                continue
            for value in re.split(r"[,\[\]]", match.group(2)):
                value = value.strip().strip("\"'").strip()
                why = _flyway_location(root, base, value)
                if why is not None:
                    found.append((f"{rel}:{number}", f"{match.group(1)} {value[:120]}: {why}"))
    return found


def _flyway_location(root: str, base: str, value: str) -> str | None:
    """Why the Flyway location ``value`` is code from outside the workspace, or None."""
    if not value or value.startswith("classpath:"):
        return None
    if "$" in value:
        return "a value only known when it runs"
    if re.match(r"[a-z0-9]+:(?!/)", value) and not value.startswith("filesystem:"):
        return "a location on another machine"
    if "://" in value:
        return "a location on another machine"
    path = value[len("filesystem:") :] if value.startswith("filesystem:") else value
    outside = _outside_path(root, base, path)
    return None if outside is None else f"{outside[:120]} is outside the workspace"


#: A Prisma schema's generator ``provider`` (Prisma schema reference, "generator": "a path to a generator", "an npm
#: package" or a command, which ``prisma generate`` runs).
_PRISMA_PROVIDER = re.compile(r"^provider\s*=\s*\"([^\"]*)\"")
#: The schema files Prisma reads when ``--schema`` names none (Prisma CLI reference, "Schema location": ``./prisma/
#: schema.prisma``, then ``./schema.prisma``).
_PRISMA_FILES = ("prisma/schema.prisma", "schema.prisma")


def _prisma_outside(root: str, base: str, schema: str) -> list[tuple[str, str]]:
    """The generators from outside the workspace that the Prisma schema ``schema`` (``--schema``, from ``base``; empty:
    :data:`_PRISMA_FILES`) names: a ``generator`` block's ``provider`` holding a path outside the workspace or a
    variable (``env()`` is not allowed there). An npm package's name is the project's installed code, as its build's.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read (fail closed).
    """
    found: list[tuple[str, str]] = []
    for name in [schema] if schema else list(_PRISMA_FILES):
        path = os.path.normpath(os.path.join(base, name))
        if not os.path.lexists(path):
            continue
        rel = _rel(root, path)
        if rel == path or rel.startswith("../") or os.path.islink(path):
            found.append((name, f"{name} is not a file of the workspace"))
            continue
        generator = False
        for number, line in _lines(_text(path)):
            if re.match(r"(generator|datasource|model|enum|view|type)\s", line):
                generator = line.startswith("generator")
                continue
            match = _PRISMA_PROVIDER.match(line) if generator else None
            if match is None:
                continue
            words = match.group(1).split()
            outside = _flag_paths(root, os.path.dirname(path), words)
            if "$" in match.group(1):
                found.append((f"{rel}:{number}", f"provider {match.group(1)[:120]}: a value only known when it runs"))
            elif outside is not None:
                found.append((f"{rel}:{number}", f"provider {match.group(1)[:120]}: {outside[:120]} is outside"))
        if not schema:
            break
    return found


#: The statements of Django's ``manage.py`` (the project template django/conf/project_template/manage.py-tpl, Django
#: 2.0 to 5.x, and the older one-block form): each line of the file, stripped, must be one of these (or blank, a
#: comment, a one-line docstring, a line of the ImportError message). Nothing here runs code but the import of
#: Django's management module, the settings module set as a default, and the dispatch to Django's commands.
_MANAGE_LINES = tuple(
    re.compile(pattern)
    for pattern in (
        r"import os",
        r"import sys",
        r"def main\(\):",
        r"""os\.environ\.setdefault\((['"])DJANGO_SETTINGS_MODULE\1, *(['"])([A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*)\2\)""",
        r"try:",
        r"from django\.core\.management import execute_from_command_line",
        r"except ImportError( as exc)?:",
        r"raise ImportError\(",
        r"raise",
        r"\) from exc",
        r"\)",
        r"execute_from_command_line\(sys\.argv\)",
        r"""if __name__ == (['"])__main__\1:""",
        r"main\(\)",
        r'"[^"\\{}%]*"',
        r"'[^'\\{}%]*'",
        r'"""[^"\\]*"""',
    )
)
#: The statements of Laravel's ``artisan`` (laravel/laravel's artisan: Laravel 11's ``handleCommand`` form and the
#: older console-kernel form), with comments removed and every space taken out, and ``"`` read as ``'``: the file
#: must be ``<?php`` (after an optional ``#!/usr/bin/env php`` line) and then only these, each ending in ``;``.
_ARTISAN_STATEMENTS = frozenset({
    r"useSymfony\Component\Console\Input\ArgvInput",
    "define('LARAVEL_START',microtime(true))",
    "require__DIR__.'/vendor/autoload.php'",
    "$status=(require_once__DIR__.'/bootstrap/app.php')->handleCommand(newArgvInput)",
    "$app=require_once__DIR__.'/bootstrap/app.php'",
    r"$kernel=$app->make(Illuminate\Contracts\Console\Kernel::class)",
    r"$status=$kernel->handle($input=newSymfony\Component\Console\Input\ArgvInput,"
    r"newSymfony\Component\Console\Output\ConsoleOutput)",
    "$kernel->terminate($input,$status)",
    "exit($status)",
})  # fmt: skip
_PLAIN_TEXT = re.compile(r"[\t\n\x20-\x7e]*")


def framework_script(root: str, base: str, kind: str, path: str) -> list[tuple[str, str]]:
    """Whether ``path`` (from ``base``) is the framework's own dispatcher ``kind`` (``manage.py``: Django's, run by
    python; ``artisan``: Laravel's, run by php): a regular file in the workspace, plain ASCII text (no encoding
    declaration, form feed or carriage return that could make python or php read it otherwise), with only the
    statements of the template (:data:`_MANAGE_LINES`, :data:`_ARTISAN_STATEMENTS`); for manage.py, the settings module
    it names must be a file of the workspace next to it (Django imports it from there, the script's directory being
    first on ``sys.path``), not an installed module whose import may run anything. No finding when all hold; one
    ``(path, why not)`` otherwise. The framework's commands then run the project's own code (settings, apps, Laravel's
    bootstrap/app.php), as a build does."""
    if kind == "manage.py-database" and path and "\x00" not in path:
        return _django_database(root, base, path)
    if kind not in ("manage.py", "artisan") or not path or "\x00" in path:
        raise ValueError(f"no framework script question: {kind[:40]} {path[:80]!r}")
    full = os.path.normpath(os.path.join(base, path))
    rel = _rel(root, full)
    if rel == full or rel.startswith("../") or os.path.realpath(full) != full or not os.path.isfile(full):
        return [(path, f"{path} is not a regular file in the workspace")]
    if os.path.getsize(full) > 16 * 1024:
        return [(rel, f"{rel} is larger than the framework's {kind}")]
    with open(full, "rb") as handle:
        raw = handle.read()
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        return [(rel, f"{rel} is not plain ASCII text, as the framework's {kind} is")]
    if _PLAIN_TEXT.fullmatch(text) is None:
        return [(rel, f"{rel} holds control characters the framework's {kind} does not")]
    why = _manage_py_shape(text, os.path.dirname(full)) if kind == "manage.py" else _artisan_shape(text)
    return [] if why is None else [(rel, f"{rel} is not the framework's {kind}: {why}")]


def _manage_py_shape(text: str, here: str) -> str | None:
    """Why ``text`` is not Django's manage.py (:data:`_MANAGE_LINES`), or None."""
    if "\\" in text:
        return "a backslash"
    lines = text.split("\n")
    if lines and lines[0].startswith("#!"):
        if re.fullmatch(r"#!(/usr/bin/env |/usr/bin/|/usr/local/bin/)python[0-9.]*", lines[0].rstrip()) is None:
            return "its first line runs another program"
        lines = lines[1:]
    settings: list[str] = []
    for number, line in enumerate(lines, start=2):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            if re.search(r"coding[:=]", stripped):
                return f"line {number} declares an encoding"
            continue
        match = next((m for m in (p.fullmatch(stripped) for p in _MANAGE_LINES) if m is not None), None)
        if match is None:
            return f"line {number} is not one of its statements"
        if stripped.startswith("os.environ"):
            settings.append(match.group(3))
    if len(settings) != 1:
        return "it does not name one settings module"
    parts = settings[0].split(".")
    module = os.path.join(here, *parts)
    if not (os.path.isfile(module + ".py") or os.path.isfile(os.path.join(module, "__init__.py"))):
        return f"its settings module {settings[0]} is not a file next to it"
    return None


def _artisan_shape(text: str) -> str | None:
    """Why ``text`` is not Laravel's artisan (:data:`_ARTISAN_STATEMENTS`), or None."""
    if text.startswith("#!"):
        first, _, text = text.partition("\n")
        if re.fullmatch(r"#!(/usr/bin/env |/usr/bin/|/usr/local/bin/)php[0-9.]*", first.rstrip()) is None:
            return "its first line runs another program"
    if not text.startswith("<?php") or "?>" in text:
        return "it is not one block of PHP"
    code = text[len("<?php") :]
    out: list[str] = []
    index = 0
    while index < len(code):
        char = code[index]
        if code.startswith("/*", index):
            end = code.find("*/", index + 2)
            if end < 0:
                return "a comment that does not end"
            index = end + 2
        elif code.startswith("//", index):
            end = code.find("\n", index)
            index = len(code) if end < 0 else end
        elif char == "#":
            return "a # comment or attribute"
        elif char in "'\"":
            end = code.find(char, index + 1)
            literal = code[index : end + 1]
            if end < 0 or any(c in literal for c in "\\${} \t\n"):
                return "a string that is not one of its own"
            out.append("'" + literal[1:-1] + "'")
            index = end + 1
        else:
            if not char.isspace():
                out.append(char)
            index += 1
    joined = "".join(out)
    if joined and not joined.endswith(";"):
        return "a statement that does not end"
    for statement in joined.split(";")[:-1]:
        if statement not in _ARTISAN_STATEMENTS:
            return f"a statement that is not one of its own ({statement[:60]})"
    return None


#: The most package directories :func:`js_workspace_packages` lists, and the most directory entries it looks at.
_MAX_WORKSPACE_PACKAGES = 200
_MAX_WORKSPACE_ENTRIES = 5000


def js_workspace_packages(root: str, base: str, tool: str) -> list[tuple[str, str]]:
    """The packages of the workspace whose manifest is in ``base`` (where the tool runs): for pnpm the ``packages``
    globs of ``pnpm-workspace.yaml`` (pnpm.io "pnpm-workspace.yaml"), for npm and yarn the ``workspaces`` globs of
    ``package.json`` (npm-workspaces(7); yarn classic's ``{"packages": [...]}`` too). Each directory the globs match
    that holds a ``package.json`` is one ``(directory relative to the workspace, the package's name)``; a ``*`` is
    matched across ``/``, ``!`` exclusions are not applied and dot directories are looked in (more packages, never
    fewer); ``node_modules`` is left out, as npm and pnpm leave it out. A symbolic link to a directory on the way
    makes the answer unknown.

    Raises:
        ValueError, OSError: no manifest in ``base``, a glob that climbs out (``..``, ``/``), a settings file that
            may name a program (``.npmrc`` key that is not inert, ``.yarnrc`` program), or more packages or
            entries than FlyBot looks through (the caller makes the place unreadable: fail closed).
    """
    import fnmatch

    from bot.risk.recipes import _config_runs_program, _npmrc_key_not_inert, _pnpm_workspace_setting

    npmrc = os.path.join(base, ".npmrc")
    if os.path.lexists(npmrc) and _npmrc_key_not_inert(_text(npmrc)) is not None:
        raise ValueError(".npmrc holds a key that may name a program")
    for config in (".yarnrc", ".yarnrc.yml"):
        path = os.path.join(base, config)
        if os.path.lexists(path) and _config_runs_program(_text(path), yaml=config.endswith(".yml")):
            raise ValueError(f"{config} names a program")
    if tool == "pnpm":
        if _pnpm_workspace_setting(root, _rel(root, base) if base != root else "") is not None:
            raise ValueError("pnpm-workspace.yaml sets a key that may name a program")
        manifest = os.path.join(base, "pnpm-workspace.yaml")
        if not os.path.isfile(manifest) or os.path.islink(manifest):
            raise ValueError("no pnpm-workspace.yaml where pnpm runs")
        patterns: list[str] = []
        inside = False
        for line in _text(manifest).splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if not line.startswith((" ", "-")):
                inside = line.rstrip() == "packages:"
                continue
            if inside:
                item = line.strip()
                if not item.startswith("- "):
                    raise ValueError("a packages entry FlyBot does not read")
                patterns.append(item[2:].strip().strip("\"'"))
    else:
        manifest = os.path.join(base, "package.json")
        if not os.path.isfile(manifest) or os.path.islink(manifest):
            raise ValueError("no package.json where the tool runs")
        data = _parsed(root, manifest, "json")
        listed = data.get("workspaces") if isinstance(data, dict) else None
        if isinstance(listed, dict):
            listed = listed.get("packages")
        if not isinstance(listed, list) or not all(isinstance(p, str) for p in listed):
            raise ValueError("package.json has no list of workspaces")
        patterns = list(listed)
    wanted = []
    for pattern in patterns:
        if pattern.startswith("!"):
            continue
        pattern = posixpath.normpath(pattern.removeprefix("./"))
        if pattern.startswith(("/", "..")) or "/../" in f"/{pattern}/":
            raise ValueError(f"a workspace glob outside the workspace: {pattern[:60]}")
        wanted.append(pattern)
    found: list[tuple[str, str]] = []
    starts: set[str] = set()
    for pattern in wanted:
        parts = pattern.split("/")
        literal = next((i for i, part in enumerate(parts) if any(c in part for c in "*?[{")), len(parts))
        starts.add("/".join(parts[:literal]) if literal else ".")
    seen = 0
    done: set[str] = set()
    for start in sorted(starts):
        top = os.path.normpath(os.path.join(base, start))
        if os.path.realpath(top) != top or not os.path.isdir(top):
            continue  # a link, or no such directory: no package there (a link is never followed)
        for directory, subdirs, files in os.walk(top):
            seen += len(subdirs) + len(files)
            if seen > _MAX_WORKSPACE_ENTRIES or len(found) > _MAX_WORKSPACE_PACKAGES:
                raise ValueError("too many entries to look through")
            subdirs[:] = sorted(d for d in subdirs if d != "node_modules")  # npm and pnpm leave them out
            if any(os.path.islink(os.path.join(directory, d)) for d in subdirs):
                raise ValueError(f"a symbolic link below {_rel(root, directory)} (the tools follow it)")
            here = os.path.relpath(directory, base)
            if here == "." or here in done or "package.json" not in files:
                continue
            if not any(fnmatch.fnmatchcase(here, p) for p in wanted):
                continue
            package = os.path.join(directory, "package.json")
            if os.path.islink(package):
                raise ValueError(f"{here}/package.json is a symbolic link")
            done.add(here)
            data = _parsed(root, package, "json")
            name = data.get("name") if isinstance(data, dict) else None
            # a package without a name is still listed (a recipe line's command is never empty)
            # a directory name with a control character is sent with ``?`` for it: that directory is then not found
            # where the script would be read, which is unreadable (fail closed)
            shown = re.sub(r"[\x00-\x1f\x7f]", "?", _rel(root, directory))
            found.append((shown, name if isinstance(name, str) and name.strip() else "<no name>"))
    return found


#: The top-level keys of turbo.json (turbo.build/repo/docs/reference/configuration, Turborepo 2; ``pipeline`` is
#: Turborepo 1's name for ``tasks``) that choose no code and no place: the others (``cacheDir``, ``remoteCache``,
#: ``extends``, keys of later versions) make the answer unknown, but for ``remoteCache``, read as a remote cache.
_TURBO_KEYS = frozenset({
    "$schema", "tasks", "pipeline", "globalDependencies", "globalEnv", "globalPassThroughEnv", "ui", "daemon",
    "envMode", "dangerouslyDisablePackageManagerCheck", "noUpdateNotifier", "concurrency", "futureFlags",
    "remoteCache", "globalDotEnv", "experimentalUI",
})  # fmt: skip
#: The keys of a task's configuration that name other tasks (``dependsOn``; Turborepo 2.1's ``with``: tasks run
#: alongside it); the other keys (``outputs``, ``inputs``, ``cache``, ``env``, ``persistent``...) choose no code.
_TURBO_TASK_LINKS = ("dependsOn", "with")


def turbo_tasks(root: str, base: str, wanted: list[str]) -> list[tuple[str, str]]:
    """What ``turbo run WANTED`` run in ``base`` runs (Turborepo 2 "Configuring tasks" and turbo.json reference):
    the package.json scripts of the workspace's packages named by the tasks given and by every task their
    ``dependsOn`` and ``with`` name, transitively (``^build``: the dependencies' ``build``; ``web#build``: that
    package's; ``//#lint``: the root package's script, which turbo runs only as such a task). The workspace is
    pnpm's when ``pnpm-workspace.yaml`` is beside turbo.json, otherwise the ``workspaces`` of package.json (npm, yarn,
    bun). A task name may stand for a task of any package (more scripts, never fewer).

    Raises:
        ValueError, OSError: no turbo.json in ``base`` (turbo looks for it upward), one that is not plain JSON or
            holds a key FlyBot does not read, a package's own turbo.json (Turborepo "Package Configurations": it
            adds dependencies), a task name holding a character turbo does not give it meaning for, or more tasks
            than FlyBot follows.
    """
    path = os.path.join(base, "turbo.json")
    if not os.path.isfile(path) or os.path.islink(path):
        raise ValueError("no turbo.json where turbo runs (turbo looks for it in the directories above)")
    source = _rel(root, path)
    data = _parsed(root, path, "json")
    if not isinstance(data, dict):
        raise ValueError("turbo.json is not a JSON object")
    unknown = sorted(set(data) - _TURBO_KEYS)
    if unknown:
        raise ValueError(f"turbo.json sets {unknown[0][:40]}, which FlyBot does not read")
    tasks = data.get("tasks", data.get("pipeline", {}))
    if not isinstance(tasks, dict):
        raise ValueError("turbo.json tasks is not an object")
    manager = "pnpm" if os.path.isfile(os.path.join(base, "pnpm-workspace.yaml")) else "npm"
    for directory, _ in js_workspace_packages(root, base, manager):
        if os.path.lexists(os.path.join(root, directory, "turbo.json")):
            raise ValueError(f"{directory}/turbo.json configures that package's tasks (not read)")
    found: list[tuple[str, str]] = [(source, f"manager {manager}")]
    remote = data.get("remoteCache")
    if remote is not None and (not isinstance(remote, dict) or remote.get("enabled", True) is not False):
        found.append((source, "remote"))
    if os.path.lexists(os.path.join(base, ".turbo", "config.json")):
        found.append((_rel(root, os.path.join(base, ".turbo", "config.json")), "remote"))
    seen: list[str] = []
    todo = list(wanted)
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        if not re.fullmatch(r"[A-Za-z0-9_.:@/-]+", name) or len(seen) > 64:
            raise ValueError(f"a task FlyBot does not follow: {name[:40]}")
        seen.append(name)
        found.append((source, f"task {name}"))
        for key, config in tasks.items():
            if not isinstance(key, str) or (key != name and not key.endswith("#" + name)):
                continue
            where = f"{source} tasks.{key}"
            if key == "//#" + name:
                found.append((where, f"root {name}"))
            if not isinstance(config, dict):
                raise ValueError(f"{where} is not an object")
            for link in _TURBO_TASK_LINKS:
                named = config.get(link, [])
                if not isinstance(named, list) or not all(isinstance(n, str) for n in named):
                    raise ValueError(f"{where}.{link} is not a list of tasks")
                for other in named:
                    if other.startswith("$"):
                        continue  # Turborepo 1: an environment variable the task's hash depends on
                    package, _, task = other.removeprefix("^").rpartition("#")
                    if package == "//":
                        found.append((f"{where}.{link}", f"root {task}"))
                    todo.append(task)
    return found


#: The spellings of a Django project's ``BASE_DIR`` in its settings template (django/conf/project_template
#: settings.py-tpl: ``Path(__file__).resolve().parent.parent`` since Django 3.1, the os.path form before).
_DJANGO_BASE_DIRS = frozenset({
    "Path(__file__).resolve().parent.parent",
    "os.path.dirname(os.path.dirname(os.path.abspath(__file__)))",
})  # fmt: skip


def _django_database(root: str, base: str, path: str) -> list[tuple[str, str]]:
    """Whether every database of the Django project whose manage.py is ``path`` (from ``base``; it must be the
    template's, :func:`framework_script`) is an SQLite file in the workspace, as the project template's settings
    write it (Django "Settings": DATABASES; settings.py-tpl: ``'ENGINE': 'django.db.backends.sqlite3', 'NAME':
    BASE_DIR / 'db.sqlite3'``): no finding when so, one ``(file, why not)`` otherwise. The settings module must be a
    plain module (not a package) whose one top-level ``DATABASES = {...}`` is a literal mapping of entries holding
    only ``ENGINE`` (SQLite's) and ``NAME`` (a relative path without ``..``, or ``BASE_DIR / 'NAME'``, BASE_DIR being the
    template's), with no other use of the name and no ``import *`` that could replace it (a ``local_settings``
    override). ``migrate``, ``loaddata`` and the others then change that file, not a server."""
    import ast

    found = framework_script(root, base, "manage.py", path)
    if found:
        return found
    full = os.path.normpath(os.path.join(base, path))
    match = re.search(r"DJANGO_SETTINGS_MODULE['\"], *['\"]([A-Za-z0-9_.]+)['\"]", _text(full))
    if match is None:
        return [(path, "no settings module named")]
    settings = os.path.join(os.path.dirname(full), *match.group(1).split(".")) + ".py"
    rel = _rel(root, settings)
    if not os.path.isfile(settings) or os.path.islink(settings):
        return [(rel, f"{rel} is not a plain settings module (a package's settings are not read)")]
    try:
        tree = ast.parse(_text(settings))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return [(rel, f"{rel} is not Python FlyBot reads")]
    base_dirs = [
        n
        for n in tree.body
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "BASE_DIR" for t in n.targets)
    ]
    databases = [
        n
        for n in tree.body
        if isinstance(n, ast.Assign) and [getattr(t, "id", None) for t in n.targets] == ["DATABASES"]
    ]
    uses = sum(
        1
        for n in ast.walk(tree)
        if (isinstance(n, ast.Name) and n.id == "DATABASES")
        or (isinstance(n, ast.Attribute) and n.attr == "DATABASES")
        or (isinstance(n, ast.Constant) and n.value == "DATABASES")
    )
    if any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) for n in ast.walk(tree)):
        return [(rel, f"{rel} imports * (it may replace DATABASES)")]
    if len(databases) != 1 or uses != 1 or not isinstance(databases[0].value, ast.Dict):
        return [(rel, f"{rel} does not set DATABASES once as a literal mapping")]
    template_base = len(base_dirs) == 1 and ast.unparse(base_dirs[0].value) in _DJANGO_BASE_DIRS
    for alias, entry in zip(databases[0].value.keys, databases[0].value.values, strict=True):
        if not isinstance(alias, ast.Constant) or not isinstance(entry, ast.Dict):
            return [(rel, f"{rel}: a database that is not a literal mapping")]
        fields: dict[str, ast.expr] = {}
        for key, value in zip(entry.keys, entry.values, strict=True):
            if not isinstance(key, ast.Constant) or key.value not in ("ENGINE", "NAME"):
                return [(rel, f"{rel}: database {alias.value!s:.40} sets more than ENGINE and NAME")]
            fields[key.value] = value
        engine, name = fields.get("ENGINE"), fields.get("NAME")
        if not (isinstance(engine, ast.Constant) and engine.value == "django.db.backends.sqlite3"):
            return [(rel, f"{rel}: database {alias.value!s:.40} is not SQLite")]
        if isinstance(name, ast.BinOp) and isinstance(name.op, ast.Div) and template_base:
            if not (isinstance(name.left, ast.Name) and name.left.id == "BASE_DIR"):
                return [(rel, f"{rel}: database {alias.value!s:.40} is not a file below BASE_DIR")]
            name = name.right
        if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
            return [(rel, f"{rel}: database {alias.value!s:.40} names no file FlyBot reads")]
        file = name.value
        if not file or file.startswith(("/", "~", "file:")) or ".." in file.split("/") or "$" in file or ":" in file:
            return [(rel, f"{rel}: database {alias.value!s:.40} is not a file in the workspace")]
    return []


#: Words of an Alembic env.py that choose the database another way than the ini file's ``sqlalchemy.url`` (an
#: environment variable, a settings module, an engine of its own).
_ALEMBIC_OVERRIDES = re.compile(
    r"set_main_option|set_section_option|create_engine|create_async_engine|environ|getenv|dotenv|DATABASE_URL|"
    r"get_x_argument|settings|import \*"
)


def _alembic_database(root: str, base: str, ini: str, section: str) -> list[tuple[str, str]]:
    """Whether the Alembic configuration ``ini`` (from ``base``) section ``section`` uses an SQLite file in the
    workspace (Alembic tutorial "Editing the .ini File": ``sqlalchemy.url``, ``script_location``, ``%(here)s``; the
    generic env.py template builds its engine from that URL with ``engine_from_config``): the URL is
    ``sqlite:///PATH`` with PATH relative (from where alembic runs) or ``%(here)s/...``, inside the workspace, and the
    env.py of ``script_location`` builds its engine from the configuration without reading the URL elsewhere
    (:data:`_ALEMBIC_OVERRIDES`). No finding when so; one ``(file, why not)`` otherwise. The migration scripts and
    env.py are the project's code, run as a build runs it."""
    import configparser

    full = os.path.normpath(os.path.join(base, ini))
    rel = _rel(root, full)
    if rel == full or rel.startswith("../") or not os.path.isfile(full) or os.path.islink(full):
        return [(ini, f"{ini} is not a file of the workspace")]
    try:
        parser = _parsed(root, full, configparser.ConfigParser(defaults={"here": os.path.dirname(full)}))
        url = parser.get(section, "sqlalchemy.url")
        location = parser.get(section, "script_location")
    except (configparser.Error, ValueError) as error:
        # named by the parser's own error, which _parsed raises as the cause of its ValueError
        return [(rel, f"{rel}: {type(error.__cause__ or error).__name__}")]
    if not url.startswith("sqlite:///") or "?" in url:
        return [(rel, f"{rel}: sqlalchemy.url is not an SQLite file")]
    database = os.path.normpath(os.path.join(base, url[len("sqlite:///") :]))
    if _rel(root, database) == database or _rel(root, database).startswith(".."):
        return [(rel, f"{rel}: the SQLite file is outside the workspace")]
    env = os.path.normpath(os.path.join(base, location, "env.py"))
    env_rel = _rel(root, env)
    if ":" in location or env_rel == env or env_rel.startswith("../") or not os.path.isfile(env):
        return [(rel, f"{rel}: script_location is not a directory of the workspace")]
    text = _text(env)
    if "engine_from_config(" not in text or _ALEMBIC_OVERRIDES.search(text):
        return [(env_rel, f"{env_rel} may choose another database than {rel}'s")]
    return []


#: The ``iac`` questions ``terraform [DIR]``, ``cdk`` and ``helmfile [FILE]``: the programs an infrastructure tool run
#: in ``base`` starts because its configuration names them (:func:`_iac_programs`).
#: Terraform "external Data Source": ``data "external"`` runs its ``program`` list while planning (data sources are
#: read during plan, refresh and console), and a ``module`` whose ``source`` is a local path outside the module is
#: configuration FlyBot does not read. AWS CDK Toolkit ("Configuration (cdk.json)"): ``app`` is the command synth,
#: diff, ls and deploy run. helmfile ("Templating": the ``exec`` template function; "Hooks": ``command``): a helmfile
#: with either runs programs.
_TF_EXTERNAL = re.compile(r'data\s+"external"|"external"\s*:')
_TF_PROGRAM = re.compile(r"program\s*=\s*(\[[^\]]*\])")
_TF_MODULE_SOURCE = re.compile(r'source\s*=\s*"((?:\.\./|/|~)[^"]*)"')
_HELMFILE_RUNS = re.compile(r"\bexec\b|\bhooks\s*:|\bcommand\s*:")
_IAC_MAX_FILES = 500


def _iac_programs(root: str, base: str, question: str) -> list[tuple[str, str]]:
    """The answer to an ``iac`` question: ``(file, "program ARGV-JSON")`` for each program a configuration names
    (``"program -"`` when its words could not be read, graded destructive), ``(file, "outside SOURCE")`` for a
    local module outside the workspace, ``(file, "exec, hooks or command ...")`` for a helmfile that may run programs.

    Raises:
        OSError, ValueError, UnicodeDecodeError: a file that is there could not be read (fail closed).
    """
    kind, _, given = question.partition(" ")
    if given and (given.startswith(("/", "~")) or ".." in given.split("/")):
        raise ValueError(f"{kind}: {given[:80]} is not a directory below where it runs")
    found: list[tuple[str, str]] = []
    if kind == "cdk":
        path = os.path.join(base, "cdk.json")
        if os.path.lexists(path):
            app = _parsed(root, path, "json")
            app = app.get("app") if isinstance(app, dict) else None
            if app is not None:
                found.append((_rel(root, path), f"command {app}" if isinstance(app, str) else "program -"))
        return found
    if kind == "helmfile":
        names = [given] if given else ["helmfile.yaml", "helmfile.yaml.gotmpl", "helmfile.yml", "helmfile.d"]
        for name in names:
            path = os.path.join(base, name)
            if not os.path.lexists(path):
                continue
            files = sorted(os.path.join(path, f) for f in os.listdir(path)) if os.path.isdir(path) else [path]
            for file in files[:_IAC_MAX_FILES]:
                if _HELMFILE_RUNS.search(_text(file)):
                    found.append((_rel(root, file), "exec, hooks or command (programs it runs)"))
        return found
    top = os.path.join(base, given) if given else base
    count = 0
    for here, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith((".tf", ".tf.json")):
                continue
            count += 1
            if count > _IAC_MAX_FILES:
                raise ValueError(f"terraform: more than {_IAC_MAX_FILES} configuration files")
            path = os.path.join(here, name)
            text = _text(path)
            for source in _TF_MODULE_SOURCE.findall(text):
                if _outside_path(root, here, source) is not None:
                    found.append((_rel(root, path), f"outside {source[:120]}"))
            if not _TF_EXTERNAL.search(text):
                continue
            programs = _TF_PROGRAM.findall(text)
            if not programs:
                found.append((_rel(root, path), "program -"))
            for listed in programs:
                module = os.path.relpath(here, top)
                text_list = listed.replace("${path.module}", module).replace("${path.root}", ".")
                try:
                    argv = json.loads(re.sub(r",\s*\]$", "]", text_list))
                except ValueError:
                    argv = None
                ok = isinstance(argv, list) and argv and all(isinstance(a, str) and "${" not in a for a in argv)
                found.append((_rel(root, path), f"program {json.dumps(argv)}" if ok else "program -"))
    return found
