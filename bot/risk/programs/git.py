"""git: graded per subcommand (source: git(1) and the git-<subcommand>(1) manual pages, git 2.4x).

* Global options are parsed: ``-C DIR`` (the repository whose files change),
  ``--work-tree``/``--git-dir`` (same), ``-c KEY=VALUE`` (only keys in
  :data:`SAFE_CONFIG` are accepted: others such as ``core.sshCommand``,
  ``core.fsmonitor`` or ``alias.*`` make git run programs), anything unknown -> destructive.
* Remote subcommands (push, pull, fetch, clone, ls-remote, remote update/show/prune,
  submodule update/add, archive --remote, send-email, lfs fetch/pull/push) are network,
  never downgraded. ``push --force``/``--delete``/``--mirror``/``--prune``/``+ref``/``:ref``
  destroy remote history: destructive. ``fetch``/``pull`` refspecs that force local branches or tags
  (``+main:main``, ``-f origin main:main``, ``--force --tags``, ``--force`` with the configured refspecs),
  ``--prune-tags``, ``--prune`` of a local refspec and ``--update-head-ok`` throw local commits away, as
  ``reset --hard`` does: destructive (:func:`_overwrites_local_refs`). ``--upload-pack``/``--receive-pack``/``-u`` run a
  program (locally for a local repository): destructive.
* Changes to the repository are workspace_write at the repository's location (outside the
  workspace: a write outside). Changes that throw work away are destructive: ``rm`` (unless
  ``--cached``), ``clean`` (unless ``-n``), ``reset --hard|--merge|--keep``, ``checkout``
  other than ``-b``/``-B``/``--orphan`` (it may discard uncommitted changes to a path),
  ``restore`` of the worktree, ``stash drop|clear``, ``branch -d|-D``, ``tag -d``,
  ``update-ref -d``, ``worktree remove|prune``, ``submodule deinit``, ``prune``,
  ``filter-branch``, ``reflog expire|delete``, ``remote remove``.
* Commands git runs are graded as written: ``submodule foreach [--recursive|-q] CMD...`` (only
  foreach's own options are dropped, before the command; one word is a shell script, more words
  are shell text plus quoted arguments, as run-command.c's ``use_shell``), ``rebase --exec``/``-x``
  in every parse-options spelling (``-xCMD``, ``-ix CMD``, ``--ex=CMD``), ``bisect run CMD``.
* Options that run programs: ``--upload-pack``/``--receive-pack``/``--exec``/``--template`` (clone,
  fetch, push, archive, ``init --template`` copies hooks), ``send-email --to-cmd``/``--cc-cmd``/
  ``--header-cmd``/``--sendmail-cmd``/``--smtp-server``, ``help -w``/``--web`` (a browser),
  ``grep -O``, ``difftool``/``mergetool``. ``maintenance start|stop|register|unregister`` change the
  global config and the scheduler: a write outside.
* ``--git-dir`` naming a directory other than a ``.git`` is destructive: git obeys that directory's config and
  runs its hooks, and FlyBot cannot vouch for them. Git directories made elsewhere (``--separate-git-dir``,
  ``init --bare``, ``clone --mirror``) are guarded where they are written: a file named ``HEAD``, ``config`` or a
  hook below ``hooks`` is destructive to write anywhere (grader.py ``git_directory_file``).
* Unknown subcommands (including aliases) are destructive.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from bot.risk.grader import Call
from bot.risk.options import long_is
from bot.risk.paths import Where
from bot.risk.reasons import shorten
from bot.risk.sensitive import secret_setting
from bot.risk.settings import GUESS, LOCAL_BRANCH, TRACKED
from bot.risk.settings import local_url as _local_url
from bot.risk.words import Word, literal_word

from .kit import R, applies_patch, argv_text, deletion, destructive, first_dynamic, network, read_only, refuse, show
from .projects import workspace_settings

__all__ = ["SAFE_CONFIG", "git", "repository_programs"]

#: ``git -c``/``git config`` keys accepted as harmless (they make git run no program).
SAFE_CONFIG = frozenset({
    "user.name", "user.email", "init.defaultbranch", "pull.rebase", "pull.ff", "push.default",
    "push.autosetupremote", "core.autocrlf", "core.filemode", "core.ignorecase", "core.quotepath",
    "core.eol", "core.safecrlf", "merge.conflictstyle", "rebase.autostash", "rebase.autosquash",
    "fetch.prune", "commit.gpgsign", "tag.gpgsign", "log.date", "log.decorate", "diff.renames",
    "diff.colormoved", "status.short", "status.showuntrackedfiles", "column.ui", "gc.auto",
    "protocol.version", "feature.manyfiles", "index.version", "merge.ff",
})  # fmt: skip
_SAFE_CONFIG_PREFIXES = ("color.", "advice.", "i18n.")

_GLOBAL_VALUE = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--attr-source", "--list-cmds", "--super-prefix"}
)
_GLOBAL_FLAGS = frozenset({
    "-p", "--paginate", "-P", "--no-pager", "--no-replace-objects", "--no-lazy-fetch", "--no-optional-locks",
    "--no-advice", "--bare", "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs",
    "--icase-pathspecs", "--html-path", "--man-path", "--info-path", "--exec-path", "--version", "--help",
    "-v", "-h",
})  # fmt: skip
_RUN_PROGRAM_OPTIONS = (
    "--upload-pack", "--receive-pack", "--exec", "--template", "--config-env",
    # git-send-email(1): these run commands (and --smtp-server may name a program, --sendmail-cmd is one).
    "--to-cmd", "--cc-cmd", "--header-cmd", "--sendmail-cmd", "--smtp-server",
)  # fmt: skip
#: Options spelled in full that only look like an abbreviation of one above (git-send-email(1) --to, --cc).
_NAMED_NOT_RUN = frozenset({"--to", "--cc"})

_READ = frozenset({
    "status", "log", "show", "diff", "blame", "annotate", "shortlog", "describe", "rev-parse", "rev-list",
    "ls-files", "ls-tree", "cat-file", "whatchanged", "show-ref", "for-each-ref", "name-rev", "merge-base",
    "cherry", "count-objects", "verify-commit", "verify-tag", "check-ignore", "check-attr", "check-ref-format",
    "var", "help", "version", "diff-tree", "diff-files", "diff-index", "show-branch", "range-diff", "fsck",
    "merge-tree", "get-tar-commit-id", "verify-pack",
})  # fmt: skip
_WRITE = frozenset({
    "add", "commit", "mv", "switch", "merge", "cherry-pick", "revert", "apply", "am", "update-index",
    "commit-tree", "hash-object", "mktag", "mktree", "read-tree", "write-tree", "symbolic-ref",
    "sparse-checkout", "gc", "repack", "pack-refs", "replace", "notes", "unpack-objects", "merge-file",
    "rerere", "maintenance", "init",
})  # fmt: skip
_DESTROY = frozenset({"prune", "filter-branch", "prune-packed"})
_NETWORK = frozenset({"fetch", "ls-remote", "send-email", "fetch-pack", "send-pack"})
# Subcommands none of whose options run a program, discard work or write outside the repository,
# so an argument only known at run time changes nothing; and those whose worst option writes a file.
_DYNAMIC_SAFE = frozenset({
    "add", "commit", "mv", "merge", "cherry-pick", "revert", "apply", "am", "status", "ls-files", "ls-tree",
    "rev-parse", "rev-list", "blame", "annotate", "shortlog", "describe", "cat-file", "show-ref", "for-each-ref",
    "name-rev", "merge-base", "cherry", "check-ignore", "check-attr", "var", "help", "version", "show-branch",
    "init",
})  # fmt: skip
_DYNAMIC_WRITES = frozenset(
    {
        "diff",
        "log",
        "show",
        "whatchanged",
        "range-diff",
        "diff-tree",
        "diff-files",
        "diff-index",
        "format-patch",
        "archive",
    }
)


class _Git:
    """One git invocation: ``repo`` is where it changes files (a Word relative to the cwd)."""

    __slots__ = ("args", "call", "repo", "sub")

    def __init__(self, call: Call, repo: Word, sub: str, args: list[Word]) -> None:
        self.call = call
        self.repo = repo
        self.sub = sub
        self.args = args

    def values(self) -> list[str | None]:
        """The argument values (None for unknown ones)."""
        return [w.value for w in self.args]

    def has(self, *flags: str) -> bool:
        """True when any of ``flags`` is given before ``--`` (short flags also inside clusters; a long flag also as
        an abbreviation: git's parse-options takes any unique prefix, ``--forc`` is ``--force``, gitcli(7))."""
        for word in self.args:
            value = word.value
            if value is None:
                continue
            if value == "--":
                return False
            if value in flags or any(f.startswith("--") and value.startswith(f + "=") for f in flags):
                return True
            if value.startswith("--") and any(f.startswith("--") and long_is(value, f) for f in flags):
                return True
            if value.startswith("-") and not value.startswith("--"):
                if any(len(f) == 2 and f[0] == "-" and f[1] != "-" and f[1] in value[1:] for f in flags):
                    return True
        return False

    def operands(self) -> list[Word]:
        """The arguments that do not start with ``-``."""
        return [w for w in self.args if not (w.value or "x").startswith("-")]

    def write(self, what: str | None = None) -> None:
        """A change to the repository, graded by where the repository is."""
        self.call.write(self.repo, what or f"git {self.sub} changes the repository at", git_repository=True)

    def read(self) -> None:
        """A read-only use."""
        read_only(self.call, f"git {self.sub} only reads.")


def git(call: Call) -> None:
    """Grade a git invocation (see the module docstring)."""
    words = call.args
    dirs: list[Word] = []
    pager: bool | None = None  # -p/--paginate: True; -P/--no-pager: False (git(1))
    index = 0
    while index < len(words):
        word = words[index]
        value = word.value
        if value is None:
            destructive(call, "dynamic-argument", f"The git argument {show(word)} is only known when it runs.")
            return
        if not value.startswith("-"):
            break
        index += 1
        name, eq, attached = value.partition("=")
        if (name == "--exec-path" and eq) or name == "--config-env":
            destructive(call, "runs-program", f"git {name} makes git run programs of the caller's choosing.")
            return
        if name in _GLOBAL_FLAGS:
            pager = True if name in ("-p", "--paginate") else False if name in ("-P", "--no-pager") else pager
            continue
        if name not in _GLOBAL_VALUE:
            refuse(call, f"the global option {name}")
            return
        taken = Word(attached, attached) if eq else (words[index] if index < len(words) else Word(None, ""))
        index += 0 if eq else 1
        if taken.value is None and taken.splits:
            destructive(
                call,
                "dynamic-argument",
                f"{show(taken)} may expand to several words, so the git subcommand is not known.",
            )
            return
        if name == "-c" and not _safe_config(taken.value):
            _note_hooks_path(call, _repo(dirs), taken.value or "")
            destructive(call, "git-config", f"git -c {show(taken)} can make git run programs.")
            return
        if name == "--git-dir" and not _own_git_dir(taken.value):
            destructive(
                call,
                "git-directory",
                f"git --git-dir {show(taken)} uses a git directory other than a .git, "
                "whose config and hooks (core.fsmonitor, hooks/*) git runs: FlyBot cannot vouch for them.",
            )
            return
        if name in ("-C", "--work-tree", "--git-dir"):
            dirs.append(taken)
    sub = (words[index].value or "") if index < len(words) else ""
    if not call.g.state.remote and (dirs or (sub and sub not in _NO_REPOSITORY)) and _elsewhere(call, dirs):
        return
    if not call.g.state.remote and sub and sub not in _NO_REPOSITORY and _nested(call, dirs):
        return
    if not call.g.state.remote and sub and sub not in _NO_REPOSITORY and _configured_programs(call, sub, pager):
        return
    if index >= len(words):
        read_only(call, "git without a subcommand only prints.")
        return
    handler = _SUBCOMMANDS.get(sub)
    if handler is None:
        refuse(call, f"the subcommand {show(words[index])}")
        return
    args = words[index + 1 :]
    dynamic = first_dynamic(args)
    if dynamic is not None and sub not in _DYNAMIC_SAFE:
        if sub not in _DYNAMIC_WRITES:
            destructive(
                call,
                "dynamic-argument",
                f"{show(dynamic)} may be an option of git {sub} that runs a program or discards work.",
            )
            return
        call.write(Word(None, dynamic.src), f"{show(dynamic)} may be git {sub} --output to")
    if sub in _URL_TAKERS and _remote_helper(call, sub, args):
        return
    if sub in _STRATEGY_TAKERS and _custom_strategy(call, sub, args):
        return
    handler(_Git(call, _repo(dirs), sub, args))
    if sub == "add":
        _note_staged(_Git(call, _repo(dirs), sub, args))


#: git-add(1) options that take the next word as their value.
_ADD_VALUES = frozenset({"--chmod", "--pathspec-from-file"})


def _note_staged(g: _Git) -> None:
    """Remember the secret files ``git add`` puts into the index (git-add(1): "adds the current content of new or
    modified files to the index"; ``-f`` adds ignored files too): a pathspec naming one (sensitive.py ``env_file``,
    ``named_secret``: ``-f .env``), one an earlier ``mv`` put a secret in (grader ``moved_secret``), or a directory
    holding one (grader ``secret_files``, ``.git`` aside: ``git add .``, ``-A`` with no pathspec: the whole tree;
    ignored files are not told apart, so it fails closed). A pathspec only known when it runs, or
    ``--pathspec-from-file``, may name any (fail closed). ``-u`` adds only tracked files (the settings question
    ``tracked`` covers them)."""
    from bot.risk.sensitive import env_file, named_secret

    grader = g.call.g
    state = grader.state
    values = g.values()
    found: list[tuple[str, str]] = []
    specs: list[str | None] = []
    skip = ended = False
    for value in values:
        if skip:
            skip = False
        elif value == "--" and not ended:
            ended = True
        elif not ended and value is not None and value.startswith("-"):
            if value.startswith("--pathspec-from-file"):
                specs.append(None)
            skip = value in _ADD_VALUES
        else:
            specs.append(value)
    if not specs and (g.has("-A", "--all") or any(v is not None and long_is(v, "--all") for v in values)):
        specs = [state.root]
    for spec in specs:
        if spec is None:
            found.append(("*", "files only known when it runs, secret files among them"))
            continue
        what = env_file(spec) or named_secret(spec) or grader.moved_secret(spec, state, plain=True)
        if what is not None:
            found.append((spec, what))
            continue
        for below, held in grader.secret_files(spec, state):
            if ".git" not in below.split("/"):
                found.append((posixpath.join(spec, below) if below != "*" else spec, held))
    if found:
        grader.staged_secrets = grader.staged_secrets + tuple(found)


#: Subcommands that take a repository URL among their words (git-clone(1), git-fetch(1), git-pull(1),
#: git-ls-remote(1), git-submodule(1) add, git-archive(1) --remote, git-lfs fetch|pull|clone).
_URL_TAKERS = frozenset({"clone", "fetch", "pull", "ls-remote", "submodule", "archive", "lfs"})
#: ``<transport>::<address>`` (gitremote-helpers(7)): git runs the remote helper ``git-remote-<transport>``.
_HELPER_URL = re.compile(r"[A-Za-z0-9][A-Za-z0-9+.-]*::")


def _remote_helper(call: Call, sub: str, args: list[Word]) -> bool:
    """A ``<transport>::<address>`` URL (also as ``--remote=``'s value) makes git run the remote helper
    ``git-remote-<transport>`` (gitremote-helpers(7)); ``ext::CMD`` runs CMD (git-remote-ext(1); refused unless
    ``protocol.ext.allow`` permits it, which the user's or the repository's configuration may). Destructive, as
    ``git remote add`` or ``git push`` of such a URL is. True when flagged."""
    for word in args:
        value = word.value or ""
        if value == "--":
            continue
        url = value.split("=", 1)[1] if value.startswith("--") and "=" in value else value
        if _HELPER_URL.match(url):
            destructive(
                call,
                "runs-program",
                f"git {sub} {shorten(url, 60)}: a transport::address URL makes git run the remote helper "
                f"git-remote-{url.split('::', 1)[0]} (ext:: runs the command it names).",
            )
            return True
    return False


#: Subcommands that find no repository where they start (git.c: no RUN_SETUP), so read no configuration there.
_NO_REPOSITORY = frozenset({"clone", "init", "version"})


def _elsewhere(call: Call, dirs: list[Word]) -> bool:
    """git run in a repository outside the workspace (the temp area included) or one only known when it runs: by
    ``-C``, ``--git-dir`` or ``--work-tree`` (``dirs``), or from a directory outside it (``cd /opt/x && git diff``).
    git reads that repository's configuration and runs what it names (``core.pager``, ``core.fsmonitor``,
    ``diff.external``, textconv drivers, hooks), which FlyBot does not read: graded as a build tool pointed at a
    project outside the workspace (``project-outside-workspace``: destructive, never covered). True when flagged."""
    for place in (_repo(dirs), *dirs):
        value = place.value
        if value is not None and not value.startswith("~"):
            value = posixpath.normpath(value)
            if posixpath.basename(value) == ".git":  # a .git directory: the repository is where it lies
                value = posixpath.dirname(value) or "."
            if call.where(Word(value, place.src)) is Where.WORKSPACE:
                continue
        where = shorten(place.src, 60) if dirs else "a directory"
        destructive(
            call,
            "project-outside-workspace",
            f"git runs in {where} outside the workspace (or only known when it runs): git reads "
            "that repository's configuration, which can name programs git runs (core.pager, core.fsmonitor, "
            "diff.external, textconv drivers, hooks), and FlyBot does not read it.",
        )
        return True
    return False


def _places(call: Call, dirs: list[Word]) -> list[str]:
    """The absolute directories (normalised) where git looks for its repository: the shell's directories moved by
    ``-C``/``--work-tree``/``--git-dir`` (a ``.git`` named is its parent's repository); [] when one is unknown."""
    found: list[str] = []
    for place in (_repo(dirs), *dirs):
        value = place.value
        if value is None or value.startswith("~"):
            return []
        value = posixpath.normpath(value)
        if posixpath.basename(value) == ".git":
            value = posixpath.dirname(value) or "."
        targets = call.g.state.targets(value)
        if targets is None:
            return []
        found += sorted(targets)
    return list(dict.fromkeys(found))


def _nested(call: Call, dirs: list[Word]) -> bool:
    """git run in a directory of the workspace other than its top (``git -C sub``, ``cd sub && git``,
    ``--git-dir=sub/.git``) reads the repository it finds there (git(1) "GIT_DIR": the directory and its parents are
    searched for ``.git``), and obeys its ``config`` (``core.fsmonitor`` runs at ``git status``, ``core.pager``,
    ``diff.external``, ``core.hooksPath``) and ``hooks``, even for a read. A nested repository other than the
    workspace's own is files the agent could put there with an ordinary write (``cp -r /tmp/x sub``, an unpacked
    archive, ``git init sub`` and a later edit), not control-file writes FlyBot graded: so it is graded as a
    repository outside the workspace is (destructive, never downgraded: the subcommand alone does not make it
    read-only). It is one when this command writes that directory or one above it below the workspace's top before
    git runs, other than with ``mkdir`` (it may copy or make a repository there: fail closed, since FlyBot cannot
    tell a copied repository from a plain directory), or when the recipe book reports a ``.git`` there or between it and the top (settings.py
    ``REPOSITORY``; a submodule's ``.git`` file naming a directory below the workspace's ``.git`` is the workspace's
    own). A directory the book could not read is graded the same (fail closed); one it holds no answer for (an
    older adapter, an API caller) is listed in ``chosen_by``, so no standing approval covers it. True when flagged."""
    g = call.g
    root = g.state.root.rstrip("/")
    places = [p for p in _places(call, dirs) if p.startswith(root + "/")]
    for place in places:
        made = next(
            (w for w in sorted(g.filled) if w.startswith(root + "/") and (place == w or place.startswith(w + "/"))),
            None,
        )
        if made is not None:
            destructive(
                call,
                "nested-repository",
                f"git runs in {shorten(place[len(root) + 1 :], 60)}, which this command writes before git runs "
                f"({shorten(made[len(root) + 1 :], 60)}): a repository copied or made there has a config and hooks "
                "of the command's choosing (core.fsmonitor, core.pager, hooks), which git obeys even for a read.",
            )
            return True
    if g.recipes is None:
        return False
    from bot.risk.recipes import MAX_RECIPES, SETTINGS, UNKNOWN
    from bot.risk.settings import REPOSITORY

    for place in places:
        rel = place[len(root) + 1 :]
        key = ("git", SETTINGS + REPOSITORY, rel, "", ())
        found = next((r for r in g.recipes_used if (r.tool, r.target, r.directory, r.file, r.overrides) == key), None)
        if found is None:
            found = g.recipes.recipe("git", SETTINGS + REPOSITORY, rel)
            if found is not None and len(g.recipes_used) < MAX_RECIPES:
                g.recipes_used.append(found)
            elif found is not None:
                found = None  # not sent, so the server could not know it either
        if found is None:
            rec = call.rec
            what = f"the repository git finds in {shorten(rel, 60)} (not reported by the adapter)"
            rec.chosen_by = [*(rec.chosen_by or []), what]
            call.flag(rec.level, "workspace-settings", f"git reads {what}, so no standing approval covers it.")
            continue
        if found.lines:
            line = found.lines[0]
            why = "could not be read" if line.command == UNKNOWN else line.command
            destructive(
                call,
                "nested-repository",
                f"git runs in {shorten(rel, 60)}, where it finds a repository other than the workspace's "
                f"({shorten(line.source, 60)}: {shorten(why, 80)}): its config and hooks can name programs git runs "
                "(core.fsmonitor, core.pager, hooks), and they are not files FlyBot guards.",
            )
            return True
    return False


#: Subcommands that send their output through the pager by default (git.c ``USE_PAGER``, and ``pager.branch``,
#: ``pager.tag``, ``pager.config``, ``pager.stash`` default to it in list mode: git-config(1)).
_PAGED = frozenset({
    "log", "show", "diff", "whatchanged", "shortlog", "grep", "blame", "annotate", "reflog", "branch", "tag",
    "config", "stash", "range-diff", "cherry", "show-branch", "ls-tree", "format-patch",
})  # fmt: skip
#: Subcommands that make diffs with the porcelain's diff machinery (``diff.external``, ``diff.<driver>.command``).
_DIFFS = frozenset({"diff", "log", "show", "whatchanged", "stash", "range-diff", "difftool", "add", "commit"})
#: Subcommands that talk to a remote (``core.sshCommand``, ``credential.helper``, ``remote.<name>.uploadpack``...).
_REMOTES = frozenset({"fetch", "pull", "push", "ls-remote", "remote", "submodule", "archive", "lfs", "send-pack",
                      "fetch-pack", "maintenance", "gc"})  # fmt: skip
#: Subcommands that may start an editor (``core.editor``, ``sequence.editor``; git-var(1) GIT_EDITOR).
_EDITS = frozenset({
    "commit", "merge", "rebase", "tag", "revert", "cherry-pick", "notes", "config", "am", "pull", "add", "branch",
    "stash", "send-email", "var", "replace", "worktree", "bisect",
})  # fmt: skip
#: Subcommands that sign or verify (``gpg.program``; git-config(1) commit.gpgSign, log.showSignature).
_SIGNS = frozenset({
    "commit", "tag", "merge", "rebase", "cherry-pick", "revert", "am", "pull", "log", "show", "verify-commit",
    "verify-tag", "stash", "push", "whatchanged",
})  # fmt: skip
#: Subcommands that merge files (``merge.<driver>.driver``).
_MERGES = frozenset({"merge", "pull", "rebase", "cherry-pick", "revert", "stash", "checkout", "switch", "am",
                     "merge-file", "merge-tree", "apply"})  # fmt: skip
#: Which subcommands run the program a key of settings.py ``GIT_PROGRAM_KEYS`` names (git-config(1); ``pull.twohead``
#: and ``pull.octopus``, the default strategies, are read by ``git merge`` as by ``git pull``; ``stash.showPatch`` runs
#: nothing: :func:`_stash` reads it); None: any
#: subcommand that finds the repository (``core.fsmonitor`` runs whenever git refreshes the index, filters whenever
#: it compares or checks out working files, hooks at commits, checkouts, merges and pushes; ``include.path`` names a
#: file FlyBot does not read; ``?`` a line it could not read).
_PROGRAM_KEYS: dict[str, frozenset[str] | None] = {
    "core.fsmonitor": None, "filter.*.clean": None, "filter.*.smudge": None, "filter.*.process": None,
    "core.hookspath": None, "include.path": None, "includeif.*.path": None, "?": None,
    "core.pager": _PAGED, "diff.external": _DIFFS, "diff.*.command": _DIFFS,
    "diff.*.textconv": _DIFFS | {"blame", "annotate", "grep", "cat-file", "format-patch"},
    "core.sshcommand": _REMOTES, "core.gitproxy": _REMOTES, "core.askpass": _REMOTES,
    "core.alternaterefscommand": _REMOTES, "credential.helper": _REMOTES, "credential.*.helper": _REMOTES,
    "remote.*.uploadpack": _REMOTES, "remote.*.receivepack": _REMOTES, "remote.*.url": _REMOTES,
    "remote.*.pushurl": _REMOTES, "core.editor": _EDITS, "sequence.editor": frozenset({"rebase"}),
    "gpg.program": _SIGNS, "gpg.*.program": _SIGNS, "merge.*.driver": _MERGES,
    "mergetool.*.cmd": frozenset({"mergetool"}), "difftool.*.cmd": frozenset({"difftool"}),
    "interactive.difffilter": frozenset({"add", "checkout", "reset", "restore", "stash", "commit"}),
    "sendemail.tocmd": frozenset({"send-email"}), "sendemail.cccmd": frozenset({"send-email"}),
    "sendemail.sendmailcmd": frozenset({"send-email"}), "sendemail.smtpserver": frozenset({"send-email"}),
    "pull.twohead": frozenset({"pull", "merge"}), "pull.octopus": frozenset({"pull", "merge"}),
    "stash.showpatch": frozenset(),
}  # fmt: skip
#: Programs whose use as a pager or editor runs nothing else, with the options accepted (letters of single-dash
#: clusters; less(1): ``+CMD``, ``-k`` and ``--lesskey*`` are left out, as they run commands or load key bindings).
_SAFE_VIEWERS = {
    "pager": {"less": "FRSXIiJMmNnqQrsWwcdeEGg~", "more": "dlfpcsu", "cat": "AbeEnstTuv", "most": ""},
    "editor": {"vi": "", "vim": "", "nvim": "", "nano": "", "emacs": "", "true": ""},
}
_BOOLEANS = frozenset({"", "true", "false", "yes", "no", "on", "off", "1", "0"})


def _general_key(key: str) -> str:
    """``diff.pdf.textconv`` -> ``diff.*.textconv``; ``pager.<cmd>`` -> ``pager.*`` (as settings.py reads them)."""
    if key.startswith("pager."):
        return "pager.*"
    parts = key.split(".")
    return f"{parts[0]}.*.{parts[-1]}" if len(parts) > 2 else key


def _known_viewer(value: str, kind: str) -> bool:
    """True when ``value`` (a pager or editor setting, run by the shell) is a program of :data:`_SAFE_VIEWERS`
    (also as ``/usr/bin/NAME`` or ``/bin/NAME``) with only the options listed there and no shell syntax."""
    if not re.fullmatch(r"[A-Za-z0-9 ./_-]+", value):
        return False
    words = value.split()
    if not words:
        return True
    name = words[0].removeprefix("/usr/bin/").removeprefix("/bin/")
    letters = _SAFE_VIEWERS[kind].get(name)
    if letters is None:
        return False
    return (
        all(re.fullmatch(f"-[{re.escape(letters)}]+", w) is not None for w in words[1:]) if letters else not words[1:]
    )


def _harmless_setting(key: str, value: str, root: str) -> bool:
    """True when the configured ``key = value`` runs no program of the configuration's choosing: a boolean
    ``core.fsmonitor`` (git's own daemon) or ``pager.<cmd>``, a known pager or editor, a credential helper git
    ships (``store``, ``cache``... run as ``git credential-NAME``; one starting with ``!`` or naming a path runs it),
    a ``core.hooksPath`` inside the workspace (writes there are control-file writes, as into ``.git/hooks``), a
    ``pull.twohead``/``pull.octopus`` listing only strategies git has (:data:`_BUILTIN_STRATEGIES`)."""
    general = _general_key(key)
    folded = value.strip().lower()
    if general in ("core.fsmonitor", "pager.*") and folded in _BOOLEANS:
        return True
    if general in ("core.pager", "pager.*"):
        return _known_viewer(value, "pager")
    if general in ("core.editor", "sequence.editor"):
        return _known_viewer(value, "editor")
    if general in ("credential.helper", "credential.*.helper"):
        return value == "" or re.fullmatch(r"[A-Za-z0-9-]+(?: --?[A-Za-z-]+(?:=[A-Za-z0-9/_.-]*)?)*", value) is not None
    if general in ("pull.twohead", "pull.octopus"):
        return bool(value.split()) and all(name in _BUILTIN_STRATEGIES for name in value.split())
    if general == "core.hookspath" and value and not value.startswith(("~", "/")):
        parts = posixpath.normpath(value).split("/")
        return ".." not in parts
    if general == "core.hookspath" and value.startswith("/") and root:
        return posixpath.normpath(value).startswith(root.rstrip("/") + "/")
    return False


def repository_programs(call: Call, subs: tuple[str, ...], label: str) -> bool:
    """A program (``label``) that runs ``git SUB`` for each of ``subs`` in the repository git finds where it runs,
    without a pager (``go build`` stamping the version: ``git status``, ``git log``): graded as those git commands
    are for the programs the repository's configuration names (:func:`_configured_programs`). True when flagged."""
    if call.g.state.remote:
        return False
    return any(_configured_programs(call, sub, False, label) for sub in subs)


def _configured_programs(call: Call, sub: str, pager: bool | None, label: str | None = None) -> bool:
    """git run in the workspace's repository runs the programs its configuration names (settings.py ``PROGRAMS``,
    as the recipe book reports them; the key decides which subcommands run it: :data:`_PROGRAM_KEYS`; ``pager.<cmd>``
    and ``core.pager`` apply to the subcommands that page, and to any with ``-p``/``--paginate``, to none with
    ``-P``/``--no-pager``). Graded as running that program: destructive, unless :func:`_harmless_setting`; a line
    of the configuration FlyBot could not read counts as naming one for every subcommand. A place the book could not
    read at all is listed in ``chosen_by`` (no standing approval covers the command); with no book (an API caller
    without recipes) nothing is known. True when flagged."""
    g = call.g
    if g.recipes is None:
        return False
    from bot.risk.recipes import MAX_RECIPES, SETTINGS, is_unreadable
    from bot.risk.settings import PROGRAMS

    key = ("git", SETTINGS + PROGRAMS, "", "", ())
    found = next((r for r in g.recipes_used if (r.tool, r.target, r.directory, r.file, r.overrides) == key), None)
    if found is None:
        found = g.recipes.recipe("git", SETTINGS + PROGRAMS, "")
        if found is None or not found.lines or len(g.recipes_used) >= MAX_RECIPES:
            return False  # none, or not sent to the server, which then finds none either: both sides grade alike
        g.recipes_used.append(found)
    if is_unreadable(found):  # no approval covers it; a line FlyBot could not read in a config it read is "?" below
        rec = call.rec
        what = f"the repository's configuration ({shorten(found.lines[0].source, 80)})"
        rec.chosen_by = [*(rec.chosen_by or []), what]
        call.flag(rec.level, "workspace-settings", f"git reads {what}, so no standing approval covers it.")
        return False
    settings = [(line.source, *line.command.partition("=")[::2]) for line in found.lines]
    off = {k[len("pager.") :] for _, k, v in settings if k.startswith("pager.") and v.strip().lower() in _BOOLEANS}
    for source, name, value in settings:
        general = _general_key(name)
        subs = frozenset({name[len("pager.") :]}) if general == "pager.*" else _PROGRAM_KEYS.get(general)
        if general in ("core.pager", "pager.*") and pager is False:
            continue  # -P/--no-pager: no pager runs
        if general == "core.pager" and pager:
            subs = None  # -p/--paginate: every subcommand pages
        elif general == "core.pager":
            subs = _PAGED | off  # pager.<cmd> = true pages that one too (false too: fail closed)
        if (subs is not None and sub not in subs) or _harmless_setting(name, value, g.state.root):
            continue
        destructive(
            call,
            "runs-program",
            f"{f'{label} runs git {sub}, which' if label else f'git {sub}'} runs what {name} names in the "
            f"repository's configuration ({shorten(source, 60)}: "
            f"{shorten(value, 80)}), a program FlyBot does not know as harmless.",
        )
        return True
    return False


def _note_hooks_path(call: Call, repo: Word, assignment: str) -> None:
    """Remember the directory a ``core.hooksPath`` assignment (``KEY=VALUE``) of this command names, relative to
    the repository's directory (git-config(1): a relative path is taken from where the hooks run, the top of the
    working tree), so that a later write below it is a control-file write (grader ``hook_dirs``)."""
    key, _, value = assignment.partition("=")
    if key.strip().lower() != "core.hookspath" or not value or value.startswith("~") or repo.value is None:
        return
    for cwd in call.g.state.cwds:
        call.g.hook_dirs.add(posixpath.normpath(posixpath.join(cwd, repo.value, value)))


def _own_git_dir(value: str | None) -> bool:
    """True when ``value`` names a ``.git`` directory (``.git``, ``sub/.git``), which FlyBot guards like any
    ``.git`` (paths.py: writes to its config and hooks are destructive)."""
    return value is not None and posixpath.basename(posixpath.normpath(value)) == ".git"


def _repo(dirs: list[Word]) -> Word:
    if not dirs:
        return literal_word(".")
    if any(d.value is None for d in dirs):
        return Word(None, " ".join(d.src for d in dirs))
    joined = posixpath.join(*[d.value or "." for d in dirs])
    return Word(joined, " ".join(d.src for d in dirs))


def _unset_runs_nothing(key: str) -> bool:
    """Removing the git config key ``key`` neither makes git run a program it did not before nor changes where it
    sends commits: not core.hooksPath (without it git runs the hooks in the repository's ``hooks`` directory,
    githooks(5)), and not ``remote.*``, ``branch.*`` or ``url.*`` (without ``remote.NAME.pushurl`` pushes go to
    ``remote.NAME.url``; without ``branch.NAME.pushRemote`` to ``remote.pushDefault``; git-config(1))."""
    folded = key.lower()
    return folded != "core.hookspath" and not folded.startswith(("remote.", "branch.", "url."))


def _safe_config(assignment: str | None) -> bool:
    if assignment is None:
        return False
    key = assignment.split("=", 1)[0].strip().lower()
    return key in SAFE_CONFIG or key.startswith(_SAFE_CONFIG_PREFIXES)


def _runs_program(g: _Git) -> bool:
    for word in g.args:
        value = word.value or ""
        if value == "--":
            break
        if value.split("=", 1)[0] in _NAMED_NOT_RUN:
            continue
        if any(long_is(value, opt) for opt in _RUN_PROGRAM_OPTIONS) or (g.sub == "clone" and value == "-u"):
            destructive(
                g.call, "runs-program", f"git {g.sub} {value.split('=', 1)[0]} runs a program of the caller's choosing."
            )
            return True
    return False


def _read(g: _Git) -> None:
    if g.sub == "grep" and (g.has("-O") or any((w.value or "").startswith("--open-files-in-pager") for w in g.args)):
        destructive(g.call, "runs-program", "git grep -O runs a pager program.")
        return
    if g.sub == "help" and (g.has("-w") or any(long_is(w.value or "", "--web") for w in g.args)):
        destructive(g.call, "runs-program", "git help --web runs a web browser program (web.browser).")
        return
    # git's option parser takes an unambiguous prefix of a long option (gitcli(7)): --outp=FILE is --output=FILE
    outputs: list[Word] = []
    for position, word in enumerate(g.args):
        name, eq, attached = (word.value or "").partition("=")
        if name.startswith("--o") and long_is(name, "--output"):
            if eq:
                outputs.append(Word(attached, word.src))
            elif position + 1 < len(g.args):
                outputs.append(g.args[position + 1])
    for output in outputs:
        g.call.write(output, f"git {g.sub} --output writes")
    if not outputs:
        g.read()
    specs = _pathspecs(g)
    if specs is not None:
        _tracked_secrets(g, specs)
    if g.sub == "diff":
        _staged_diff(g)
    if g.sub == "grep" and any(
        v is not None and (long_is(v, "--no-index") or long_is(v, "--untracked")) for v in g.values()
    ):
        _grep_working_files(g)


def _grep_working_files(g: _Git) -> None:
    """git-grep(1): ``--no-index`` searches the files of the current directory "similar to running the regular
    grep(1) utility with its -r option" (ignored files too, but for ``--exclude-standard``), ``--untracked`` adds the
    untracked files (ignored ones with ``--no-exclude-standard``): a secret file below the directory it runs in (the
    recipe book's ``secrets`` question, as for ``grep -r``; git skips ``.git`` itself) is a ``secret-read``. Each
    pathspec after the pattern is looked below; one only known when it runs, or a glob, counts as the whole directory
    (fail closed)."""
    values = g.values()
    specs: list[str] = []
    pattern = not any(v is not None and (v in ("-e", "-f") or v.startswith(("--file", "-f"))) for v in values)
    skip = after = False
    for value in values:
        if skip:
            skip = False
        elif value == "--":
            after = True
        elif not after and value is not None and value in _GREP_VALUES:
            skip = True
        elif not after and value is not None and value.startswith("-"):
            continue
        elif pattern and not after:
            pattern = False
        else:
            specs.append("." if value is None or any(c in value for c in "*?[") else value)
    found = None
    for spec in specs or ["."]:
        found = g.call.g.secret_files_below(spec, keep=lambda below: below.split("/", 1)[0] != ".git")
        if found is not None:
            break
    if found is not None:
        g.call.flag(
            R.NETWORK,
            "secret-read",
            f"git grep searches the files below the directory it runs in, beyond those git tracks: {found}; the "
            "lines it prints go to the model.",
        )


def _staged_diff(g: _Git) -> None:
    """``git diff --cached`` (``--staged``; git-diff(1): "changes you staged for the next commit relative to the
    named <commit>", HEAD by default) prints the staged content of the files its pathspecs match: a secret file
    ``git add`` staged earlier in this command (grader ``staged_secrets``), or one the index tracks (the settings
    question ``tracked``: its staged changes are printed; whether it has any is not known, so it fails closed) is a
    ``secret-read`` (network). Pathspecs as :func:`_pathspecs` reads them. An option that prints names or counts
    only (:func:`_no_patch_option`, ``--name-only``, ``--stat``), without a patch option, prints no content."""
    values = g.values()
    if not any(v is not None and (long_is(v, "--cached") or long_is(v, "--staged")) for v in values):
        return
    if not any(_patch_option(v) for v in values) and any(v is not None and _no_patch_option(v) for v in values):
        return
    if "--" in values:
        specs = values[values.index("--") + 1 :]
    else:
        specs = [
            v for v in values if v is None or (not v.startswith("-") and ("/" in v or "*" in v or v.startswith(".")))
        ]
    for spec_text, what in g.call.g.staged_secrets:
        if (
            spec_text == "*"
            or not specs
            or any(_spec_matches(spec, spec_text.removeprefix(g.call.g.state.root.rstrip("/") + "/")) for spec in specs)
        ):
            g.call.flag(
                R.NETWORK,
                "secret-read",
                f"git {g.sub} --cached prints the staged {shorten(spec_text, 60)}, {what}, staged earlier in this "
                "command: its output goes to the model.",
            )
            return
    _tracked_secrets(g, specs, "diff --cached")


#: git-grep(1) and git-log(1) options that take the next word as their value.
_GREP_VALUES = frozenset({
    "-e", "-f", "-A", "-B", "-C", "-m", "--max-count", "--max-depth", "--threads", "--context", "-n", "--author",
    "--committer", "--grep", "--since", "--until", "--after", "--before", "-S", "-G",
})  # fmt: skip


def _pathspecs(g: _Git) -> list[str | None] | None:
    """The pathspecs narrowing ``git grep`` (git-grep(1): "Look for specified patterns in the tracked files in the
    work tree"), ``git log -p`` (or ``whatchanged``, ``diff-tree``, ``diff-index``, ``diff-files``, ``stash show``
    given a patch option, :func:`_patch_option`: each commit's diff, every tracked file's content as it was added),
    ``git diff`` and ``git show`` (they print a patch unless an option asks for names or counts only,
    :func:`_no_patch_option`; ``git diff --cached`` is :func:`_staged_diff`'s) or ``git cat-file
    --batch-all-objects --batch|--batch-command`` (git-cat-file(1): every object in the repository, with its
    content), which print the content of every tracked file they match: ``[]`` for the whole tree; None for other
    uses, and for ``git grep --no-index`` and ``git diff --no-index`` (they read the files named: the other rules
    grade that). Without ``--``, a word is a pathspec only when it cannot be a revision (it holds ``/`` or ``*``
    or starts with ``.``); a word only known when it runs is a pathspec matching anything (fail closed)."""
    values = g.values()
    if g.sub == "cat-file":
        content = any(v is not None and v.split("=", 1)[0] in ("--batch", "--batch-command") for v in values)
        return [] if content and g.has("--batch-all-objects") else None
    patch = any(_patch_option(v) for v in values)
    if g.sub in ("log", "whatchanged", "diff-tree", "diff-index", "diff-files") or (
        g.sub == "stash" and next((v for v in values if v is None or not v.startswith("-")), None) in ("show", "list")
    ):
        if not patch:
            return None
    elif g.sub in ("diff", "show"):
        if g.sub == "diff" and (
            g.has("--no-index")
            or any(v is not None and (long_is(v, "--cached") or long_is(v, "--staged")) for v in values)
        ):
            return None  # the files given (the path rules), or the staged changes (_staged_diff)
        if not patch and any(v is not None and _no_patch_option(v) for v in values):
            return None
        named = [v for v in (values[: values.index("--")] if "--" in values else values) if not (v or "-")[0] == "-"]
        if g.sub == "show" and named and all(v is not None and ":" in v for v in named):
            return None  # git-show(1): REV:PATH and :PATH are blobs or trees, printed as such (the path rules)
    elif g.sub != "grep" or g.has("--no-index"):
        return None
    if "--" in values:
        return values[values.index("--") + 1 :]
    pattern = g.sub == "grep" and not any(
        v is not None and (v in ("-e", "-f") or v.startswith(("--file", "-f"))) for v in values
    )
    specs: list[str | None] = []
    skip = False
    for value in values:
        if skip:
            skip = False
        elif value is not None and value in _GREP_VALUES:
            skip = True
        elif value is not None and value.startswith("-"):
            continue
        elif pattern:
            pattern = False
        elif value is None or "/" in value or "*" in value or value.startswith("."):
            specs.append(value)
    return specs


def _patch_option(value: str | None) -> bool:
    """True for an option that makes git print each change's diff, the changed lines' content (git-diff(1),
    git-log(1) "Common diff options": ``-p``/``-u``/``--patch``, ``-U<n>``/``--unified`` ("Implies --patch"),
    ``--patch-with-stat``, ``--patch-with-raw``, ``--binary`` ("Implies --patch"), ``--word-diff``,
    ``--color-words``; git-log(1) "Diff Formatting": ``-c``, ``--cc``, ``--dd``, ``--remerge-diff``)."""
    if value is None or not value.startswith("-"):
        return False
    if value in ("-p", "-u", "-c", "--cc", "--dd") or (value.startswith("-U") and value[2:].isdigit()):
        return True
    name = value.split("=", 1)[0]
    return any(
        long_is(name, option)
        for option in (
            "--patch", "--patch-with-stat", "--patch-with-raw", "--unified", "--binary", "--word-diff",
            "--color-words", "--remerge-diff",
        )
    )  # fmt: skip


def _no_patch_option(value: str) -> bool:
    """True for an option that makes ``git diff``/``git show`` print no diff, only names or counts (git-diff(1)
    "Common diff options": ``-s``/``--no-patch``, ``--stat``, ``--numstat``, ``--shortstat``, ``--dirstat``,
    ``--summary``, ``--name-only``, ``--name-status``, ``--raw``, ``--compact-summary``, ``--quiet``; unless a
    patch option is given too)."""
    if value in ("-s", "-X", "--quiet"):
        return True
    name = value.split("=", 1)[0]
    return any(
        long_is(name, option)
        for option in (
            "--no-patch", "--stat", "--numstat", "--shortstat", "--dirstat", "--dirstat-by-file", "--summary",
            "--name-only", "--name-status", "--raw", "--compact-summary",
        )
    )  # fmt: skip


def _spec_matches(spec: str | None, path: str) -> bool:
    """True when the pathspec ``spec`` may match ``path`` (relative to the repository's top) from any directory
    git runs in (gitglossary(7) "pathspec": a leading directory, or a glob whose ``*`` also matches ``/``); magic
    (``:(...)``, ``:!``) and a word only known when it runs match anything."""
    from fnmatch import fnmatchcase

    if spec is None or spec.startswith(":") or spec in ("", ".", "./"):
        return True
    spec = spec.removeprefix("./").rstrip("/")
    parts = path.split("/")
    for index in range(len(parts)):
        tail = "/".join(parts[index:])
        if tail == spec or tail.startswith(spec + "/") or fnmatchcase(tail, spec):
            return True
    return False


#: What each subcommand of :func:`_pathspecs` prints of the tracked files.
_PRINTS_TRACKED = {
    "grep": "searches every tracked file and prints the lines it finds",
    "diff --cached": "prints the staged changes of every tracked file",
    "diff": "prints the changes of every tracked file",
    "diff-index": "prints the changes of every tracked file",
    "diff-files": "prints the changes of every tracked file",
    "show": "prints a commit's changes, each changed file's lines",
    "stash": "prints the stashed changes of every tracked file",
    "format-patch": "prints or writes each commit's changes, each changed file's lines",
    "archive": "writes every file of the tree, with its content, to standard output",
    "cat-file": "prints every object of the repository, each tracked file's content among them",
}


def _tracked_secrets(g: _Git, specs: list[str | None], use: str | None = None) -> None:
    """The secret files the repository tracks, as the recipe book answers settings.py ``_git_tracked_secrets`` (the
    adapter reads the index), that ``specs`` (:func:`_pathspecs`; ``[]``: all) match: git grep searches them, git
    log -p, git cat-file, git diff and git show print them (when changed: whether they are is not known, so it
    fails closed), so with any such file the use is a ``secret-read`` (network, never covered); with none it stays
    a read. ``use``: the key of :data:`_PRINTS_TRACKED` when not the subcommand."""
    from .projects import configured_options

    lines = configured_options(g.call, "git", f"git {g.sub}", TRACKED)
    if lines and specs:
        lines = [line for line in lines if any(_spec_matches(spec, line.split(": ", 1)[0]) for spec in specs)]
    if not lines:
        return
    named = lines[0].split(": ", 1)[0]
    g.call.flag(
        R.NETWORK,
        "secret-read",
        f"git {g.sub} {_PRINTS_TRACKED.get(use or g.sub, 'prints every commit')}, and the repository tracks "
        f"{shorten(named, 60)}"
        + (f" and {len(lines) - 1} more secret files" if len(lines) > 1 else "")
        + ": its output goes to the model.",
    )


def _write(g: _Git) -> None:
    if g.sub == "init" and _runs_program(g):  # git-init(1) --template copies hooks into the new repository
        return
    if g.sub == "maintenance" and any(v in ("start", "stop", "register", "unregister") for v in g.values()):
        # git-maintenance(1): changes the global config and schedules jobs (cron, launchd, systemd timers).
        action = next(v for v in g.values() if v in ("start", "stop", "register", "unregister"))
        g.call.write(Word(None, "~/.gitconfig"), f"git maintenance {action} changes")
        if action in ("start", "register"):
            # git-maintenance(1) start: "updates the background scheduler to run git maintenance run --scheduled on
            # an hourly basis"; register adds the repository to the repositories that job runs in: git run every
            # hour in this repository, with whatever its config and hooks make git run
            g.call.flag(
                R.DESTRUCTIVE,
                "persistence",
                f"git maintenance {action} schedules git to run in this repository every hour (cron, systemd timer "
                "or launchd): code that runs later, persistence the owner must see.",
                contained_level=R.WORKSPACE_WRITE,  # the sandbox's scheduler and ~/.gitconfig are discarded
            )
        return
    for target in _separate_git_dirs(g):
        g.call.write(target, f"git {g.sub} --separate-git-dir creates the repository's files at", cwd=g.repo)
    if g.sub == "apply" and g.has("--check", "--stat", "--numstat", "--summary") and not g.has("--apply"):
        g.read()  # git-apply(1): these only report on the patch; without --apply nothing is applied
        return
    if g.sub in ("apply", "am"):
        _patch_targets(g)
        if not (g.sub == "am" and g.has("--abort", "--quit", "--show-current-patch")):
            _applied(g)
            return
    if g.sub == "init" and g.operands():
        g.call.write(g.operands()[0], "git init creates a repository at", cwd=g.repo)
        return
    if g.sub == "merge-file":
        _merge_file_target(g)
    g.write()


def _merge_file_target(g: _Git) -> None:
    """git-merge-file(1) ``git merge-file [options] <current> <base> <other>``: "The result ordinarily goes into
    <current-file>", unless ``-p``/``--stdout`` ("Send results to standard output instead of overwriting
    <current-file>") or ``--object-id`` (the operands are blobs; the result is written to the object database):
    a write of <current>, wherever it is. ``-L`` and ``--diff-algorithm`` take the next word."""
    if g.has("-p", "--stdout", "--object-id"):
        return
    words = g.args
    index = 0
    while index < len(words):
        value = words[index].value
        if value is None:
            g.call.write(words[index], "git merge-file writes the merge into", cwd=g.repo)
            return
        if value == "--":
            index += 1
            break
        if value in ("-L", "--diff-algorithm"):
            index += 2
            continue
        if not value.startswith("-"):
            break
        index += 1
    if index < len(words):
        g.call.write(words[index], "git merge-file writes the merge into", cwd=g.repo)


#: Subcommands taking ``-s``/``--strategy`` (git-merge(1), git-pull(1), git-rebase(1), git-cherry-pick(1),
#: git-revert(1)); the strategies git itself has (git-merge(1) "MERGE STRATEGIES"). Any other name makes git run
#: ``git-merge-NAME`` from its exec-path or PATH ("git merge -s <strategy>": "If there is no -s option, a built-in
#: list of strategies is used"; a user strategy is a program git runs).
_STRATEGY_TAKERS = frozenset({"merge", "pull", "rebase", "cherry-pick", "revert"})
_BUILTIN_STRATEGIES = frozenset({"ort", "recursive", "resolve", "octopus", "ours", "subtree"})


def _custom_strategy(call: Call, sub: str, args: list[Word]) -> bool:
    """``git SUB -s NAME`` (``-sNAME``, ``--strategy NAME``, ``--strategy=NAME``, an abbreviation ``--strat``)
    with NAME not a strategy git has: destructive (``runs-program``), and True."""
    for index, word in enumerate(args):
        value = word.value
        if value is None or value == "--":
            break
        name, eq, attached = value.partition("=")
        short = sub in ("merge", "pull", "rebase")  # git-cherry-pick(1), git-revert(1): -s is --signoff
        if (short and value == "-s") or (name.startswith("--st") and long_is(name, "--strategy")):
            if name.startswith("--") and eq:
                chosen: str | None = attached
            else:
                chosen = args[index + 1].value if index + 1 < len(args) else ""
        elif short and value.startswith("-s") and not value.startswith("--"):
            chosen = value[2:]
        else:
            continue
        if chosen is None or chosen not in _BUILTIN_STRATEGIES:
            destructive(
                call,
                "runs-program",
                f"git {sub} --strategy={shorten(chosen or '?', 60)} is no strategy git has: git runs the program "
                f"git-merge-{shorten(chosen or '?', 60)} from its exec-path or PATH.",
            )
            return True
    return False


def _long_prefix(value: str, option: str, shortest: int) -> bool:
    """True when ``value`` (its part before ``=``) is ``option`` or an abbreviation of it at least ``shortest``
    characters long (git's parse-options accepts any unique prefix of a long option, gitcli(7))."""
    name = value.split("=", 1)[0]
    return len(name) >= shortest and option.startswith(name)


def _separate_git_dirs(g: _Git) -> list[Word]:
    """The directories named by ``--separate-git-dir`` (git-init(1), git-clone(1)): git writes the repository
    there."""
    found: list[Word] = []
    for index, word in enumerate(g.args):
        value = word.value or ""
        if _long_prefix(value, "--separate-git-dir", 5):
            if "=" in value:
                path = value.split("=", 1)[1]
                found.append(Word(path, path))
            elif index + 1 < len(g.args):
                found.append(g.args[index + 1])
    return found


def _patch_targets(g: _Git) -> None:
    """git apply/am write the patch's files below ``--directory=ROOT`` (prepended to every path); with
    ``--unsafe-paths`` a patch's paths may leave the work tree, so anywhere (git-apply(1))."""
    if any(_long_prefix(v or "", "--unsafe-paths", 5) for v in g.values()):
        g.call.write(literal_word("/"), f"git {g.sub} --unsafe-paths writes the patch's paths anywhere under")
    for word in g.args:
        value = word.value or ""
        if "=" in value and _long_prefix(value, "--directory", 4):
            path = value.split("=", 1)[1]
            g.call.write(Word(path, path), f"git {g.sub} --directory writes the patch's files under", cwd=g.repo)


def _applied(g: _Git) -> None:
    """git apply/am create and change the files their patch names (git-apply(1): new files too; git refuses a
    ``.git`` path, not ``.claude/settings.json``, ``.github/hooks`` or a nested ``sub/.git`` written by name). The
    patch is the script's literal standard input (a here-document) when no patch file is named: its names are
    graded as writes (kit.applies_patch); a patch file, a pipe, or the rest of a stopped ``git am`` (``--continue``,
    ``--skip``) holds names only known when it runs. ``--directory=ROOT`` puts every name below ROOT."""
    files = [w for w in g.operands() if w.value != "-"]
    resumed = g.sub == "am" and g.has("--continue", "--skip", "--resolved", "-r", "--retry")
    text = None if files or resumed else g.call.rec.stdin
    roots = [v.split("=", 1)[1] for v in g.values() if v and "=" in v and _long_prefix(v, "--directory", 4)]
    dest = Word(roots[-1], roots[-1]) if roots else literal_word(".")  # --directory=ROOT: every name lands below it
    applies_patch(g.call, text, dest, f"git {g.sub} changes files under", label=f"git {g.sub}", cwd=g.repo, git=True)


def _network(g: _Git) -> None:
    if _runs_program(g):
        return
    network(g.call, f"git {g.sub} talks to a remote repository.")


def _fetch_like(g: _Git) -> None:
    if _runs_program(g):
        return
    network(g.call, f"git {g.sub} talks to a remote repository.")
    if g.sub in ("fetch", "pull"):
        overwrites = _overwrites_local_refs(g)
        if overwrites is not None:
            destructive(g.call, "discard-changes", f"git {g.sub} {overwrites}: the commits only they held are lost.")
            return
    g.write()


#: git-fetch(1) and git-pull(1) options whose value may be the next word (parse-options), which is then no operand.
_FETCH_VALUES = (
    "--depth", "--deepen", "--shallow-since", "--shallow-exclude", "--upload-pack", "--jobs", "--server-option",
    "--negotiation-tip", "--filter", "--submodule-prefix", "--recurse-submodules-default", "--strategy",
    "--strategy-option", "--cleanup",
)  # fmt: skip


def _fetch_refspecs(g: _Git) -> tuple[list[str], bool]:
    """The refspecs git fetch or pull is given (the operands after the repository, ``tag NAME`` as
    ``refs/tags/NAME:refs/tags/NAME``, and ``--refmap`` values, git-fetch(1)) and whether any operand is given after
    the repository (without one, the configured ``remote.NAME.fetch`` refspecs apply)."""
    refspecs: list[str] = []
    operands: list[str] = []
    words = g.args
    index = 0
    while index < len(words):
        value = words[index].value
        index += 1
        if value is None:
            continue  # a word only known when it runs: graded as an option by the caller (dynamic-argument)
        if value == "--":
            operands += [w.value for w in words[index:] if w.value is not None]
            break
        name, eq, attached = value.partition("=")
        if name.startswith("--") and len(name) > 4 and "--refmap".startswith(name):
            given = attached if eq else (words[index].value if index < len(words) else None)
            index += 0 if eq else 1
            refspecs.append(given or "")
        elif name.startswith("--") and not eq and any(long_is(name, v) and len(name) > 4 for v in _FETCH_VALUES):
            index += 1
        elif value in ("-j", "-o", "-s", "-X"):
            index += 1
        elif not value.startswith("-"):
            operands.append(value)
    rest = operands[1:]
    position = 0
    while position < len(rest):
        spec = rest[position]
        position += 1
        if spec == "tag" and position < len(rest):
            refspecs.append(f"refs/tags/{rest[position]}:refs/tags/{rest[position]}")
            position += 1
        else:
            refspecs.append(spec)
    return refspecs, bool(rest)


def _overwrites_local_refs(g: _Git) -> str | None:
    """How git fetch or pull overwrites or deletes local branches or tags, or None (git-fetch(1)): a refspec
    ``+SRC:DST`` ("the local ref is updated even if it does not result in a fast-forward update"), or ``-f``/
    ``--force`` with one ("This option overrides that check"), whose DST is not a remote-tracking ref
    (``refs/remotes/``) — ``+main:main``, ``+refs/heads/*:refs/heads/*`` move local branches to the remote's commits,
    as ``git reset --hard`` does; ``--force`` with ``--tags`` (local tags replaced) or with no refspec given (the
    configured ``remote.NAME.fetch`` refspecs, not read, may map into ``refs/heads/``); ``-P``/``--prune-tags``
    ("remove any local tags that no longer exist on the remote"); ``--prune`` with a refspec whose DST pattern is
    not remote-tracking (PRUNING: refs named by an explicit refspec are pruned); ``-u``/``--update-head-ok`` (fetch:
    the current branch's ref moves without its working tree, so the next commit undoes the fetched one's changes)."""
    forced = g.has("-f", "--force")
    refspecs, given = _fetch_refspecs(g)
    values = [w.value for w in g.args if w.value is not None]
    if any(v == "--prune-tags" or (v.startswith("--prune-") and long_is(v, "--prune-tags")) for v in values) or (
        g.has("-P")
    ):
        return "--prune-tags deletes local tags the remote does not have"
    if any(v.startswith("--update-h") and long_is(v, "--update-head-ok") for v in values) or (
        g.sub == "fetch" and g.has("-u")
    ):
        return "--update-head-ok moves the current branch without its working tree"
    pruning = g.has("-p", "--prune")
    for spec in refspecs:
        plus = spec.startswith("+")
        source, colon, dest = spec.removeprefix("+").partition(":")
        if not colon or not dest or dest.startswith("refs/remotes/"):
            continue
        if plus or forced:
            return f"{'' if plus else '--force '}{shorten(spec, 60)} overwrites the local ref {shorten(dest, 40)}"
        if pruning and "*" in dest:
            return f"--prune {shorten(spec, 60)} deletes the local refs under {shorten(dest, 40)} the remote lacks"
    if forced and g.has("-t", "--tags"):
        return "--force --tags replaces local tags with the remote's"
    if forced and not given:
        return "--force with the configured refspecs (not read; they may map into refs/heads/) overwrites local refs"
    return None


def _push(g: _Git) -> None:
    """git-push(1); a repository on this machine (a path, ``file://``, ``transport::address``) as the remote runs
    that repository's hooks (githooks(5): pre-receive, update, post-receive) or the helper here: destructive. A
    remote word that is a name is checked against the repository's configuration where git runs
    (bot/risk/settings.py): a name no remote has is a path too."""
    if _runs_program(g):
        return
    network(g.call, "git push sends commits to a remote repository.")
    forced = g.has(
        "-f", "--force", "--force-with-lease", "--force-if-includes", "-d", "--delete", "--mirror", "--prune"
    )
    operands = g.operands()
    refspecs = [w.value for w in operands[1:] if w.value is not None]
    if forced or any(r.startswith(("+", ":")) for r in refspecs):
        destructive(
            g.call, "remote-history-loss", "git push with force, delete, mirror or prune can destroy remote history."
        )
    remote = operands[0].value if operands else ""
    if remote is None:
        destructive(g.call, "dynamic-argument", f"The git push remote {show(operands[0])} is only known when it runs.")
        return
    if remote in g.call.g.git_remotes:
        destructive(
            g.call,
            "git-config",
            f"git push to {shorten(remote, 60)}, a remote this command adds or points elsewhere first: the approval "
            "card's push names it, not where it sends the commits.",
        )
        return
    if g.has("-u", "--set-upstream") and remote and remote != "origin":
        # git-push(1) -u: sets branch.NAME.remote to this remote, so every later plain git push of the branch goes
        # there, as git config branch.NAME.remote does (graded as git branch --set-upstream-to is).
        destructive(
            g.call,
            "git-config",
            f"git push -u {shorten(remote, 60)} makes it the branch's upstream: every later plain git push of the "
            "branch goes there.",
        )
        return
    question = "push " + remote
    if remote in (".", "..") or "/" in remote or ":" in remote:
        if _local_url(remote):
            destructive(
                g.call,
                "local-remote",
                f"git push to {shorten(remote, 60)}, a repository on this machine: git "
                "runs its hooks (pre-receive, update, post-receive) or the transport's helper here.",
            )
            return
        question = "push "  # a URL: the repository's own hooks and settings still apply
    workspace_settings(g.call, "git", question[:200], directory=g.repo, label="git push")


def _clone(g: _Git) -> None:
    if _runs_program(g):
        return
    values = g.values()
    for index, value in enumerate(values):
        if value in ("-c", "--config") and index + 1 < len(values) and not _safe_config(values[index + 1]):
            destructive(g.call, "git-config", "git clone -c can make git run programs.")
            return
        if value is not None and value.startswith("--config=") and not _safe_config(value[len("--config=") :]):
            destructive(g.call, "git-config", "git clone --config can make git run programs.")
            return
    network(g.call, "git clone copies a remote repository.")
    for separate in _separate_git_dirs(g):
        g.call.write(separate, "git clone --separate-git-dir creates the repository's files at", cwd=g.repo)
    operands = _clone_operands(g.args)
    target = operands[1] if len(operands) >= 2 else literal_word(".")
    g.call.write(target, "git clone creates", cwd=g.repo)


_CLONE_VALUES = frozenset({
    "-o", "--origin", "-b", "--branch", "--reference", "--reference-if-able", "--separate-git-dir", "--depth",
    "--shallow-since", "--shallow-exclude", "-c", "--config", "-j", "--jobs", "--filter", "--bundle-uri",
    "--server-option", "--ref-format",
})  # fmt: skip


def _clone_operands(words: list[Word]) -> list[Word]:
    operands: list[Word] = []
    skip = False
    for word in words:
        value = word.value
        if skip:
            skip = False
        elif value is not None and value.startswith("-") and value != "-":
            skip = value in _CLONE_VALUES
        else:
            operands.append(word)
    return operands


#: git-checkout(1) options that change nothing about which files a branch switch writes.
_CHECKOUT_QUIET = frozenset({"-q", "--quiet", "--progress", "--no-progress"})


def _checkout(g: _Git) -> None:
    """git-checkout(1): ``git checkout BRANCH`` (one operand, no ``--``) switches branches as git-switch(1) does and
    refuses to overwrite local changes ("git checkout <branch>": "Local modifications to the files in the working
    tree are kept"); git's own reading (builtin/checkout.c ``parse_branchname_arg``) takes a lone operand that is a
    revision as the branch and refuses one that also names a file ("ambiguous argument"), but one that is no
    revision becomes a remote-tracking guess or, when it names a path, ``git checkout -- PATH``, which overwrites
    that path's changes. So only a name the recipe book reports as a local branch (settings.py
    ``_git_local_branch``) is graded as git switch, and so is one it reports as exactly one remote's
    remote-tracking branch (settings.py ``_git_guess``: "If <branch> is not found but there does exist a tracking
    branch in exactly one remote (call it <remote>) with a matching name [...], treat as equivalent to ``git
    checkout -b <branch> --track <remote>/<branch>``"; when it also names a file git refuses): a new local branch, a
    remote other than origin its upstream (``git-config``, as :func:`_guessed_upstream`); ``-f``, ``-m``, ``--``,
    ``--no-guess``, paths (``.``) and every other use discard changes (destructive)."""
    if _upstream(g):
        return
    if g.has("-b", "-B", "--orphan") and not g.has(
        "-f", "--force", "-p", "--patch", "--ours", "--theirs", "-m", "--merge"
    ):
        g.write()
        return
    operands = g.operands()
    values = g.values()
    options = [v for v in values if v is not None and v.startswith("-")]
    if (
        len(operands) == 1
        and len(values) == len(options) + 1
        and all(v in _CHECKOUT_QUIET for v in options)
        and operands[0].value is not None
        and _local_branch(g, operands[0].value)
    ):
        _write(g)
        return
    if (
        len(operands) == 1
        and len(values) == len(options) + 1
        and all(v in _CHECKOUT_QUIET or v == "--guess" for v in options)
        and operands[0].value is not None
    ):
        remote = _guessed_remote(g, operands[0].value)
        if remote is not None:
            if remote != "origin" or "origin" in g.call.g.git_remotes:
                destructive(
                    g.call,
                    "git-config",
                    f"git checkout {shorten(operands[0].value, 60)} creates the branch from {shorten(remote, 40)}'s "
                    "branch of that name (git-checkout(1) --guess, the default) and makes it the upstream, on a "
                    "remote other than origin: a later plain git push sends the branch there (as git config "
                    "branch.NAME.remote does).",
                )
            else:
                _write(g)
            return
    destructive(
        g.call,
        "discard-changes",
        "git checkout may overwrite uncommitted changes to paths (use git switch for branches).",
    )


def _restore(g: _Git) -> None:
    if g.has("-S", "--staged") and not g.has("-W", "--worktree"):
        g.write()
        return
    destructive(g.call, "discard-changes", "git restore throws away uncommitted changes in the working tree.")


def _reset(g: _Git) -> None:
    if g.has("--hard", "--merge", "--keep"):
        destructive(g.call, "discard-changes", "git reset --hard/--merge/--keep throws away uncommitted changes.")
        return
    g.write()


def _rm(g: _Git) -> None:
    if g.has("--cached"):
        g.write()
        return
    deletion(g.call, "git rm deletes files from the working tree.")
    for word in g.operands():  # pathspecs, from the repository's directory (-C)
        g.call.g.removes(g.call.rec, g.call.scope, word, "git rm deletes", cwd=g.repo)


def _mv(g: _Git) -> None:
    """git-mv(1) ``SRC... DEST``: a change to the repository that also writes DEST, and each source's name inside
    it when DEST is a directory (``git mv cfg .claude`` makes ``.claude``, ``git mv -f y .cursor/hooks.json``
    replaces Cursor's hooks), graded as ``mv``'s destination by where it lands; a source in a control place
    (``git mv .cursor/hooks.json x``) is removed from there, a write to it."""
    g.write()
    operands: list[Word] = []
    ended = False
    for word in g.args:
        if not ended and word.value == "--":
            ended = True
        elif ended or not (word.value or "x").startswith("-"):
            operands.append(word)
    if len(operands) < 2:
        return
    sources, dest = operands[:-1], operands[-1]
    g.call.write(dest, "git mv writes", cwd=g.repo, replaces=True)
    for source in sources:
        value = source.value
        if value is None:
            continue
        if g.call.where(source, cwd=g.repo) is Where.GIT_CONTROL:
            g.call.write(source, "git mv removes", cwd=g.repo, replaces=True)
        base = posixpath.basename(value.rstrip("/"))
        if dest.value and base not in ("", ".", "..", "HEAD", "config", "config.worktree", "hooks"):
            landed = posixpath.join(dest.value, base)
            g.call.write(Word(landed, landed), "git mv writes", cwd=g.repo, replaces=True)


def _clean(g: _Git) -> None:
    if g.has("-n", "--dry-run") and not g.has("-i", "--interactive"):
        g.read()
        return
    deletion(g.call, "git clean deletes untracked files.")
    if g.call.where(g.repo) is not Where.WORKSPACE:  # a repository elsewhere: its untracked files are deleted there
        g.call.g.removes(g.call.rec, g.call.scope, g.repo, "git clean deletes untracked files in")


def _stash(g: _Git) -> None:
    action = next((v for v in g.values() if v is None or not v.startswith("-")), "push")
    if action in ("list", "show"):
        g.read()
        specs = _pathspecs(g)  # git-stash(1) show -p, list -p: the stashed changes' lines
        if specs is None and action == "show" and _shows_patch(g):
            specs = []
        if specs is not None:
            _tracked_secrets(g, specs)
    elif action in ("drop", "clear"):
        destructive(g.call, "discard-changes", "git stash drop/clear throws stashed changes away.")
    else:
        g.write()


def _shows_patch(g: _Git) -> bool:
    """True when ``git stash show`` given no option choosing what it prints (:func:`_no_patch_option`) prints the
    patch because the repository's configuration sets ``stash.showPatch`` (git-config(1): "If this is set to true,
    the git stash show command without an option will show the stash entry in patch form"), as the recipe book
    reports it (settings.py ``PROGRAMS``); a value that is not one of git's false words counts as true (fail
    closed)."""
    if g.call.g.recipes is None or any(v is not None and _no_patch_option(v) for v in g.values()):
        return False
    from bot.risk.recipes import SETTINGS
    from bot.risk.settings import PROGRAMS

    key = ("git", SETTINGS + PROGRAMS, "", "", ())
    found = next(
        (r for r in g.call.g.recipes_used if (r.tool, r.target, r.directory, r.file, r.overrides) == key), None
    )
    if found is None:
        return False  # not read or not sent: _configured_programs looked it up first, so both sides agree
    values = [line.command.partition("=")[2] for line in found.lines if line.command.startswith("stash.showpatch=")]
    return bool(values) and values[-1].strip().lower() not in ("false", "no", "off", "0", "")


#: The only options of a ``git branch -d`` graded as the safe deletion: git-branch(1) ``-d``/``--delete``: "The
#: branch must be fully merged in its upstream branch, or in HEAD if no upstream was set", so git refuses to drop
#: commits reachable from nothing else. ``-D``, ``-f``/``--force`` (with ``-d``: ``-D``), ``-r``/``--remotes``
#: (remote-tracking branches, deleted unchecked), clusters and abbreviations stay destructive.
_SAFE_BRANCH_DELETE = frozenset({"-d", "--delete", "-q", "--quiet"})


def _safe_branch_delete(g: _Git) -> bool:
    """True for ``git branch -d NAME...`` with only the options of :data:`_SAFE_BRANCH_DELETE` and literal names."""
    values = g.values()
    options = [v for v in values if v is None or v.startswith("-")]
    names = [v for v in values if v is not None and not v.startswith("-")]
    return bool(names) and all(v in _SAFE_BRANCH_DELETE for v in options) and "--" not in values


def _branch_or_tag(g: _Git) -> None:
    if g.sub == "branch" and _upstream(g):
        return
    if g.has("-d", "-D", "--delete"):
        if g.sub == "branch" and _safe_branch_delete(g):
            g.write("git branch -d deletes merged branches only (git-branch(1)), in the repository at")
            return
        destructive(g.call, "discard-changes", f"git {g.sub} -d deletes a {g.sub}.")
        return
    listing = g.has(
        "-l",
        "--list",
        "--contains",
        "--no-contains",
        "--merged",
        "--no-merged",
        "--points-at",
        "--show-current",
        "-v",
        "--verify",
    )
    changing = g.has("-m", "-M", "-c", "-C", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "-f")
    if g.sub == "tag":
        changing = (changing or g.has("-a", "-s")) and not g.has("-l", "--list")
    else:  # git-branch(1): -a/--all and -r/--remotes select what is listed (git-tag(1): -a annotates, -s signs)
        listing = listing or g.has("-a", "--all", "-r", "--remotes")
    if changing or (g.operands() and not listing):
        g.write()
    else:
        g.read()


# Plumbing that builds the index, objects and refs by hand (git-update-index(1), git-read-tree(1), git-mktree(1),
# git-hash-object(1), git-update-ref(1), git-symbolic-ref(1), git-replace(1)). Together (hash-object -w, update-index
# --cacheinfo, write-tree, commit-tree, update-ref) they make a commit whose files never passed through the working
# tree, so no write FlyBot graded put them there; a later git switch, git checkout or git reset --hard writes them
# (a .github/workflows file, a .husky hook, package.json scripts) and a plain git push publishes them. Each is graded
# at least as the porcelain that does the same: a path named is a write there; what the command line does not name
# (paths read from standard input, a tree's entries, the object a ref is moved to) is graded fail closed.

#: The zero object name (SHA-1 and SHA-256): as a new value, git-update-ref(1) deletes the ref.
_ZERO_OID = re.compile(r"^0{40}(?:0{24})?$")


def _update_ref(g: _Git) -> None:
    """git-update-ref(1): ``-d`` deletes a ref, as does a new value of all zeros; ``--stdin`` reads ``update``,
    ``create``, ``delete`` commands: graded as a deletion (destructive, ``discard-changes``, as ``git branch -D``).
    Any other update moves a ref (HEAD, another branch, a tag, a ``refs/replace`` entry that swaps an object for
    every later git command) to any object, with none of the porcelain's checks (no fast-forward check: the commits
    it pointed at drop out of the branch): destructive (``git-plumbing``), fail closed, since the object may be a
    commit built with commit-tree whose files a later ``git switch`` writes and a plain push sends."""
    values = [v or "" for v in g.values()]
    operands = [v for v in values if not v.startswith("-")]
    if g.has("-d", "--stdin") or (len(operands) >= 2 and _ZERO_OID.match(operands[1])):
        destructive(g.call, "discard-changes", "git update-ref -d (or --stdin, or a zero new value) deletes a ref.")
        return
    destructive(
        g.call,
        "git-plumbing",
        f"git update-ref moves {shorten(operands[0], 60) if operands else 'a ref'} to any object without the checks "
        "git branch and git reset make: a hand-built commit there is what a later git switch writes into the working "
        "tree and a plain git push sends.",
    )


def _symbolic_ref(g: _Git) -> None:
    """git-symbolic-ref(1): with one name it prints the branch it points at (a read); ``-d`` deletes it; with two it
    points HEAD (or another symbolic ref) at any ref without touching the index or working tree, so the next commit
    lands on, and a plain git push sends, that branch: destructive (``git-plumbing``), as update-ref of HEAD."""
    operands = [v for v in g.values() if v is None or not v.startswith("-")]
    if g.has("-d", "--delete"):
        destructive(g.call, "discard-changes", "git symbolic-ref -d deletes a symbolic ref.")
    elif len(operands) <= 1:
        g.read()
    else:
        destructive(
            g.call,
            "git-plumbing",
            "git symbolic-ref points HEAD at another ref without checking it out: the next commit lands there and a "
            "plain git push sends it.",
        )


def _update_index(g: _Git) -> None:
    """git-update-index(1): ``--cacheinfo MODE,OID,PATH`` (or ``MODE OID PATH``) records an object at PATH in the
    index: graded as a write to PATH (the next commit records it and a checkout or switch writes it there, so a
    control file such as ``.husky/pre-commit`` is a control-file write). ``--index-info`` reads ``MODE OID<TAB>PATH``
    lines from standard input: paths and contents not on the command line, destructive (``git-plumbing``). Other
    uses stage working-tree files as ``git add`` does: a change to the repository."""
    words = g.args
    for index, word in enumerate(words):
        value = word.value or ""
        if value == "--":
            break
        if long_is(value, "--index-info") and len(value.split("=", 1)[0]) >= len("--index-i"):
            destructive(
                g.call,
                "git-plumbing",
                "git update-index --index-info reads modes, objects and paths from standard input: any content at "
                "any path (control files included) goes into the index without a working-tree write.",
            )
            return
        if len(value) >= len("--cac") and "--cacheinfo".startswith(value.split("=", 1)[0]):
            taken = value.split("=", 1)[1] if "=" in value else None
            if taken is not None:
                fields = taken.split(",", 2)
            elif index + 1 < len(words) and "," in (words[index + 1].value or ""):
                fields = (words[index + 1].value or "").split(",", 2)
            else:
                fields = [w.value or "" for w in words[index + 1 : index + 4]]
                if any(w.value is None for w in words[index + 1 : index + 4]):
                    fields = []
            if len(fields) != 3 or not fields[2]:
                destructive(g.call, "git-plumbing", "The path git update-index --cacheinfo records is not known.")
                return
            g.call.write(literal_word(fields[2]), "git update-index --cacheinfo records content for", cwd=g.repo)
            state = g.call.g.state
            if not state.remote and g.repo.value is not None and not posixpath.isabs(fields[2]):
                # the path is taken from the top of the working tree, not the directory git runs in (update-index.c
                # add_cacheinfo): graded there too when git runs below the workspace's top
                top = posixpath.join(state.root, fields[2])
                g.call.write(Word(top, fields[2]), "git update-index --cacheinfo records content for")
    g.write()


def _read_tree(g: _Git) -> None:
    """git-read-tree(1): replaces the index with a tree's entries (and with ``-u`` writes them into the working tree,
    as ``git checkout`` does, overwriting files); ``--prefix=DIR`` puts a tree under DIR. The paths and contents
    are the tree's, not on the command line, and the tree may be hand-built (mktree, hash-object -t tree): the next
    commit records them and a checkout, switch or stash writes them. Destructive (``-u``: ``discard-changes``, as
    checkout; otherwise ``git-plumbing``), fail closed; ``-n``/``--dry-run`` only checks, and ``git read-tree HEAD``
    resets the index to the checked-out commit's tree, as ``git reset`` does (a change to the repository)."""
    operands = [v for v in g.values() if v is None or not v.startswith("-")]
    if g.has("-n", "--dry-run"):
        g.read()
    elif operands == ["HEAD"] and not g.has("--prefix", "-u", "-m", "--reset"):
        g.write()  # the index reset to the checked-out commit's tree (as git reset): nothing new comes in
    elif g.has("-u"):
        destructive(
            g.call, "discard-changes", "git read-tree -u writes a tree's files into the working tree, as checkout."
        )
    else:
        destructive(
            g.call,
            "git-plumbing",
            "git read-tree puts a tree's paths and contents into the index: the next commit records them and a "
            "checkout, switch or stash writes them into the working tree.",
        )


def _built_objects(g: _Git) -> None:
    """Objects built from standard input or a file rather than the working tree: git-mktree(1) makes a tree from
    ``ls-tree`` lines on standard input (any path, mode and blob); git-hash-object(1) ``-t tree|commit|tag`` or
    ``--literally`` writes such an object from raw bytes; git-unpack-objects(1) and ``git bundle unbundle`` import
    a pack's objects. A later merge, reset, branch or switch of such a tree or commit writes its files into the
    working tree with no write FlyBot graded: destructive (``git-plumbing``), fail closed. ``hash-object`` of a blob
    (the default type) writes content reachable from no path, as ``git add`` does: a change to the repository."""
    if g.sub == "hash-object":
        values = g.values()
        types: list[str | None] = []
        for i, v in enumerate(values):
            if v is None or v == "--":
                break
            following = values[i + 1] if i + 1 < len(values) else None
            if v.startswith("--"):
                if long_is(v, "--type"):
                    types.append(v.split("=", 1)[1] if "=" in v else following)
            elif v.startswith("-") and "t" in v[1:]:  # a cluster (-wt tree, -ttree): -t takes the rest or the next
                rest = v[v.index("t", 1) + 1 :]
                types.append(rest or following)
        if not g.has("--literally") and all(t == "blob" for t in types):
            g.write()
            return
    destructive(
        g.call,
        "git-plumbing",
        f"git {g.sub} builds trees or commits whose paths and contents never passed through the working tree: a "
        "later merge, reset or switch of them writes those files there.",
    )


def _replace(g: _Git) -> None:
    """git-replace(1): ``-l``/``--list`` reads; any other use makes every later git command (checkout, switch, log,
    push of what refers to it) see another object in place of one: destructive (``git-plumbing``), as update-ref
    of a ``refs/replace`` ref; ``-d`` deletes replace refs."""
    if g.has("-l", "--list") or not g.args:
        g.read()
        return
    destructive(
        g.call,
        "git-plumbing",
        "git replace swaps an object for another in every later git command (checkout, switch, log).",
    )


def _worktree(g: _Git) -> None:
    action = next((v for v in g.values() if v is None or not v.startswith("-")), "list")
    if action == "list":
        g.read()
    elif action in ("remove", "prune"):
        deletion(g.call, f"git worktree {action} deletes a working tree.")
        operands = g.operands()
        if action == "remove" and len(operands) >= 2:
            g.call.g.removes(g.call.rec, g.call.scope, operands[1], "git worktree remove deletes", cwd=g.repo)
    elif action == "add":
        if _upstream(g):
            return
        operands = g.operands()
        if len(operands) >= 2:
            g.call.write(operands[1], "git worktree add creates", cwd=g.repo)
        g.write()
    else:
        g.write()


def _reflog(g: _Git) -> None:
    action = next((v for v in g.values() if v is None or not v.startswith("-")), "show")
    if action in ("expire", "delete", None):
        destructive(g.call, "discard-changes", "git reflog expire/delete throws recovery points away.")
        return
    g.read()


#: git config's reading options (git-config(1)); git takes an unambiguous prefix of a long option (gitcli(7)).
_CONFIG_GETS = ("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool")


def _lists(value: str) -> bool:
    """True when the git config word ``value`` is ``--list`` (or a prefix of it: ``--lis``) or a short cluster
    holding ``-l`` before a letter that takes a value (``-zl``, ``-lz``; ``-fl`` is ``-f l``)."""
    if value.startswith("--"):
        return long_is(value, "--list")
    if not value.startswith("-"):
        return False
    for letter in value[1:]:
        if letter == "l":
            return True
        if letter == "f":
            return False
    return False


def _config_dump(words: list[str], operands: list[str], keys: list[str]) -> bool:
    """True when git config prints values of keys its words do not name one by one (git-config(1)): ``--list``,
    ``list``, ``--get-regexp`` or ``get --regexp`` (every key a pattern matches), ``--get-urlmatch SECTION URL`` or
    ``get --url=URL SECTION`` with a section and no key (every key of the section for that URL: ``http.extraHeader``
    among them). ``--name-only`` prints the names only."""
    if any(long_is(v, "--name-only") for v in words if v.startswith("--")):
        return False
    if any(_lists(v) for v in words) or operands[:1] == ["list"]:
        return True
    if any(v.startswith("--get-r") and long_is(v, "--get-regexp") for v in words):
        return True
    if operands[:1] == ["get"] and any(v.startswith("--r") and long_is(v, "--regexp") for v in words):
        return True
    by_url = any(v.startswith("--get-u") and long_is(v, "--get-urlmatch") for v in words) or (
        operands[:1] == ["get"] and any(v.startswith("--url") for v in words)
    )
    return by_url and (not keys or "." not in keys[0])


def _config(g: _Git) -> None:
    values = g.values()
    if any(v is None for v in values):
        destructive(g.call, "git-config", "A git config argument is only known when it runs.")
        return
    words = [v for v in values if v is not None]
    if any(v in ("-e", "--edit", "edit") for v in words):
        destructive(g.call, "runs-program", "git config --edit runs an editor.")
        return
    scope_file: Word | None = None
    operands: list[str] = []
    index = 0
    while index < len(words):
        value = words[index]
        index += 1
        if value in ("-f", "--file", "--blob"):
            if index < len(words):
                scope_file = literal_word(words[index])
            index += 1
        elif value.startswith("--file="):
            scope_file = literal_word(value[len("--file=") :])
        elif value in ("--type", "--default", "--comment", "--value", "--url"):
            index += 1  # git-config(1): these take the next word as their value
        elif value in ("--global", "--system"):
            scope_file = Word(None, value)
        elif value.startswith("-"):
            continue
        else:
            operands.append(value)
    getting = any(v.startswith("--get") and any(long_is(v, name) for name in _CONFIG_GETS) for v in words)
    reading = getting or any(_lists(v) for v in words)
    if operands and operands[0] in ("get", "list"):
        reading = True
    unsetting = any(v.startswith("--unset") for v in words) or operands[:1] == ["unset"]
    if operands and operands[0] in ("set", "unset", "rename-section", "remove-section"):
        operands = operands[1:]
    keys = operands[1:] if operands[:1] == ["get"] else operands[:1]
    getting = reading or (len(operands) == 1 and not unsetting and not any(v.endswith("-section") for v in words))
    if getting and any(k.lower().startswith("remote.") and k.rsplit(".", 1)[-1].lower() in _URL_KEYS for k in keys):
        _prints_remote_url(g, "git config")
        return
    if (reading and _config_dump(words, operands, keys)) or (getting and any(secret_setting(k) for k in keys)):
        # git-config(1): a listing or a credential key (credential.*, http.extraHeader, *.token) prints secrets;
        # "git config NAME" with no action gets the value, and names are case-insensitive
        g.call.flag(R.NETWORK, "secret-read", "git config prints credential settings: its output goes to the model.")
        return
    if reading or (len(operands) <= 1 and not unsetting and not any(v.endswith("-section") for v in words)):
        g.read()
        return
    if unsetting and operands and _unset_runs_nothing(operands[0]):
        # git-config(1) --unset/unset removes the key: git then uses the next scope's value or the default
        pass
    elif not operands or not _safe_config(operands[0]):
        if len(operands) >= 2:  # any scope: --global and -f FILE name hooks for git too
            _note_hooks_path(g.call, g.repo, f"{operands[0]}={operands[1]}")
        destructive(g.call, "git-config", "Setting this git config key can make git run programs.")
        return
    if scope_file is not None:
        g.call.write(scope_file, "git config writes", cwd=g.repo)
    else:
        g.write("git config changes the repository configuration at")


#: A remote's URL keys (git-config(1) ``remote.<name>.url``, ``remote.<name>.pushurl``), printed as stored.
_URL_KEYS = frozenset({"url", "pushurl"})


def _prints_remote_url(g: _Git, what: str) -> None:
    """A read that prints a remote's URL as the configuration stores it (git-remote(1) ``-v``, ``get-url``, ``show``;
    git-config(1) ``remote.NAME.url``; git-ls-remote(1) ``--get-url``): the URL may carry a password or token in its
    user part (git-clone(1) GIT URLS ``https://USER:TOKEN@HOST/...``, as GitLab CI's ``gitlab-ci-token`` clone
    URL does), as reading ``.git/config`` does (sensitive.named_secret): ``secret-read``, network."""
    g.call.flag(
        R.NETWORK,
        "secret-read",
        f"{what} prints a remote's URL as stored, which may carry a token (https://USER:TOKEN@HOST): its output goes "
        "to the model.",
    )


def _remote(g: _Git) -> None:
    operands = [v for v in g.values() if v is None or not v.startswith("-")]
    action = operands[0] if operands else None
    if action is None and g.args:
        action = "" if all((v or "").startswith("-") for v in g.values()) else None
    if action in ("", "get-url") and (action == "get-url" or g.has("-v", "--verbose")):
        _prints_remote_url(g, f"git remote {action or '-v'}")
    elif action == "show":
        _prints_remote_url(g, "git remote show")
        if not g.has("-n"):
            _network(g)
    elif action == "" or not g.args:
        g.read()
    elif action in ("show", "update", "prune"):
        _network(g)
    elif action in ("add", "rename", "set-url", "set-head", "set-branches"):
        named = _remote_name(g, action)
        if named is None and action in ("add", "rename", "set-url"):
            destructive(g.call, "dynamic-argument", f"The name git remote {action} sets is only known when it runs.")
            return
        if named is not None and action in ("add", "rename", "set-url"):
            g.call.g.git_remotes.add(named)
        urls = [w.value for w in _remote_operands(g, action)[2:]]
        if action in ("add", "set-url") and any(url is None or _local_url(url) for url in urls):
            destructive(
                g.call,
                "local-remote",
                f"git remote {action} points a remote at a local repository (a path, "
                "file:// or a transport::address): git push then runs that repository's hooks, or the helper.",
            )
            return
        if action in ("set-url", "rename"):
            # git-remote(1): like ``git config remote.NAME.url``, this changes where an existing remote points, so a
            # later approved ``git push`` or ``git fetch`` talks to another host.
            destructive(
                g.call,
                "git-config",
                f"git remote {action} changes where an existing remote name points (as git config remote.NAME.url "
                "does): a later git push may send commits to another host.",
            )
            return
        if action == "add" and named:
            # git-remote(1) add writes remote.NAME.url (and remote.NAME.fetch), as git config remote.NAME.url does,
            # which is graded destructive: graded the same. ``origin`` is where a plain ``git push`` goes when the
            # branch has no upstream (git-push(1) "REMOTES"; add fails when it exists, so the repository had none),
            # and a later ``git push NAME BRANCH`` is covered by a standing approval for ``git push`` (a remote
            # name is a plain word: bot/risk/meaning.py): either way the URL chosen here is where later approved
            # pushes send commits. Fail closed, though adding a second remote to fetch from is common.
            destructive(
                g.call,
                "git-config",
                f"git remote add {shorten(named, 40)} chooses where later pushes to that name send commits"
                + (" (and a plain git push, when the branch has no upstream)" if named == "origin" else "")
                + ", as git config remote.NAME.url does.",
            )
            return
        if g.has("-f", "--fetch") or (action == "set-head" and g.has("-a", "--auto")):
            network(g.call, f"git remote {action} fetches from the remote.")
        g.write()
    elif action in ("remove", "rm"):
        destructive(g.call, "discard-changes", "git remote remove deletes the remote and its remote-tracking branches.")
    else:
        refuse(g.call, f"git remote {action}")


#: git-remote(1) ``add`` options that take a value (``-t BRANCH``, ``-m MASTER``).
_REMOTE_ADD_VALUES = frozenset({"-t", "--track", "-m", "--master"})


def _remote_operands(g: _Git, action: str) -> list[Word]:
    """The operands of ``git remote ACTION ...`` (the action first), without ``add``'s option values."""
    operands: list[Word] = []
    skip = False
    for word in g.args:
        value = word.value
        if skip:
            skip = False
        elif value is not None and value.startswith("-"):
            skip = action == "add" and value in _REMOTE_ADD_VALUES
        else:
            operands.append(word)
    return operands


def _remote_name(g: _Git, action: str) -> str | None:
    """The remote name ``git remote add NAME URL``, ``set-url NAME URL`` or ``rename OLD NEW`` gives a URL to (for
    rename: NEW); None when it is only known when it runs, "" when it is not given."""
    operands = _remote_operands(g, action)
    index = 2 if action == "rename" else 1
    if len(operands) <= index:
        return ""
    return operands[index].value


def _upstream(g: _Git) -> bool:
    """Where a later plain ``git push`` goes (git-push(1) "REMOTES": the branch's ``branch.NAME.remote``, set by
    git-branch(1) ``-u``/``--set-upstream-to`` and ``--track``/``-t``, git-switch(1) and git-checkout(1)
    ``--track``/``-t``): an upstream on a remote other than ``origin`` (or one this command added or pointed
    elsewhere) redirects every later plain push of the branch, as ``git config branch.NAME.remote`` does: destructive
    (``git-config``), graded as the setting it writes. An upstream that is a local branch (no ``/``) keeps the
    push in this repository; a name holding a ``/`` is taken as a remote's branch unless the recipe book says the
    repository reads it as a local branch (:func:`_local_branch`; fail closed when it cannot tell). True when
    flagged."""
    values = g.values()
    upstream: str | None | bool = False  # False: none set
    for index, value in enumerate(values):
        if value is None or value == "--":
            break
        if g.sub == "branch" and value.startswith("-u") and not value.startswith("--"):
            upstream = value[2:] or (values[index + 1] if index + 1 < len(values) else None)
        elif g.sub == "branch" and long_is(value, "--set-upstream-to") and len(value.split("=", 1)[0]) >= 7:
            upstream = (
                value.split("=", 1)[1] if "=" in value else (values[index + 1] if index + 1 < len(values) else None)
            )
    automatic = False
    if upstream is False and g.has("-t", "--track"):
        operands = [v for v in values if v is None or not v.startswith("-")]
        upstream = operands[-1] if operands else False
    elif upstream is False and not g.has("--no-track"):
        upstream = _start_point(g)
        automatic = upstream is not False
    if upstream is False:
        return False
    if isinstance(upstream, str):
        for local in ("refs/heads/", "heads/", "refs/tags/", "tags/"):
            if upstream.startswith(local):
                return False
        for remote in ("refs/remotes/", "remotes/"):
            if upstream.startswith(remote):
                upstream = upstream[len(remote) :]
                break
        if automatic and any(mark in upstream for mark in ("~", "^", "@{", ":")):
            return False  # a revision expression, not a branch: branch.autoSetupMerge tracks branches only
    if isinstance(upstream, str) and (
        "/" not in upstream or (upstream.startswith("origin/") and "origin" not in g.call.g.git_remotes)
    ):
        return False
    if isinstance(upstream, str) and _local_branch(g, upstream):
        return False
    destructive(
        g.call,
        "git-config",
        f"git {g.sub} sets the branch's upstream to {shorten(str(upstream), 60) if upstream else 'a name only known when it runs'}, "
        "on a remote other than origin: a later plain git push sends the branch there (as git config "
        "branch.NAME.remote does)"
        + (
            "; git sets it without --track when the start point is a remote-tracking branch "
            "(branch.autoSetupMerge, true by default)."
            if automatic
            else "."
        ),
    )
    return True


def _guessed_upstream(g: _Git) -> bool:
    """``git switch NAME`` where NAME is no local branch (git-switch(1) ``--guess``, the default; not with
    ``--no-guess``, ``-c``, ``--orphan`` or ``--detach``) is ``git switch -c NAME --track REMOTE/NAME`` for the
    remote holding NAME (settings.py ``_git_guess``, as the recipe book answers it): graded as that command, so a
    remote other than origin (or an origin this command added) is ``git-config``, as :func:`_upstream` grades it.
    Not reported: the place is listed in ``chosen_by`` (no standing approval covers it) and the grade is kept. True
    when flagged."""
    from bot.risk.recipes import SETTINGS

    from .projects import configured_options

    if g.sub != "switch" or g.has(*_NEW_BRANCH["switch"], "--orphan", "-d", "--detach"):
        return False
    if g.has("--no-guess") and not g.has("--guess"):
        return False
    operands = g.operands()
    if not operands:
        return False
    name = operands[0].value
    if name is None:
        destructive(
            g.call,
            "dynamic-argument",
            "The branch git switch goes to is only known when it runs: a name that is no local branch makes git "
            "create it tracking a remote's branch, which a later plain git push sends to.",
        )
        return True
    if len(SETTINGS + GUESS + name) > 200 or any(ord(c) < 32 or ord(c) == 127 for c in name):
        return False  # not a question a recipe can carry; git-check-ref-format(1) refuses control characters
    lines = configured_options(g.call, "git", "git switch", GUESS + name)
    if lines is None:
        return True
    for line in lines:
        if not line.startswith("remote ") or ": refs/remotes/" not in line:
            continue
        remote = line[len("remote ") : line.index(": refs/remotes/")]
        if remote == "origin" and "origin" not in g.call.g.git_remotes:
            continue
        destructive(
            g.call,
            "git-config",
            f"git switch {shorten(name, 60)} creates the branch from {shorten(remote, 40)}'s branch of that name "
            "(git-switch(1) --guess, the default) and makes it the upstream, on a remote other than origin: a "
            "later plain git push sends the branch there (as git config branch.NAME.remote does).",
        )
        return True
    return False


def _guessed_remote(g: _Git, name: str) -> str | None:
    """The one remote whose remote-tracking branch ``git checkout NAME`` starts the new branch NAME from, as the
    recipe book answers settings.py ``_git_guess`` from every directory the shell may be in; None when it reports
    none, several, one whose refspec it did not read, or cannot be asked (fail closed: NAME may be a path)."""
    from bot.risk.recipes import SETTINGS

    from .projects import configured_options

    if len(SETTINGS + GUESS + name) > 200 or any(ord(c) < 32 or ord(c) == 127 for c in name):
        return None
    lines = configured_options(g.call, "git", "git checkout", GUESS + name)
    if not lines or len(set(lines)) != 1:
        return None
    line = lines[0]
    if not line.startswith("remote ") or not line.endswith(f": refs/remotes/{line[7 : line.find(':')]}/{name}"):
        return None
    return line[len("remote ") : line.index(": refs/remotes/")]


def _local_branch(g: _Git, name: str) -> bool:
    """True when the repository's recipe book says git reads ``name`` as a local branch (settings.py
    ``_git_local_branch``: ``feature/x`` with ``refs/heads/feature/x``), from every directory the shell may be in;
    False when it is not, or not known (fail closed: taken as a remote's branch)."""
    from bot.risk.recipes import SETTINGS

    from .projects import configured_options

    if len(SETTINGS + LOCAL_BRANCH + name) > 200 or any(ord(c) < 32 or ord(c) == 127 for c in name):
        return False  # not a question a recipe can carry (its target is one line of at most 200 characters)
    lines = configured_options(g.call, "git", f"git {g.sub}", LOCAL_BRANCH + name)
    return lines is not None and bool(lines) and all(line.endswith(": a local branch") for line in lines)


#: Options that name the branch a subcommand creates (git-switch(1), git-checkout(1), git-worktree(1) ``add``),
#: and the other options taking a separate value there (``--orphan NEW``, ``--conflict STYLE``,
#: ``--pathspec-from-file FILE``, ``--reason TEXT``).
_NEW_BRANCH = {
    "switch": ("-c", "-C", "--create", "--force-create"),
    "checkout": ("-b", "-B"),
    "worktree": ("-b", "-B"),
}
_START_VALUES = ("--orphan", "--conflict", "--pathspec-from-file", "--reason")
#: git-branch(1) options that leave ``git branch NEW START`` a branch creation.
_BRANCH_CREATE_FLAGS = frozenset({"-f", "--force", "-q", "--quiet", "--create-reflog", "--recurse-submodules"})


def _start_point(g: _Git) -> str | None | bool:
    """The start point of a branch the command creates, which git makes the new branch's upstream when it is a
    remote-tracking branch (git-config(1) ``branch.autoSetupMerge``: "true" by default, "automatic setup is done when
    the starting point is a remote-tracking branch"; git-branch(1), git-switch(1) ``-c``, git-checkout(1) ``-b``,
    git-worktree(1) ``add -b``): the word (None when only known when it runs), False when no branch is created from
    a named start point."""
    values = g.values()
    if g.sub == "branch":
        operands: list[str | None] = []
        for value in values:
            if value is None:
                operands.append(None)
            elif value == "--":
                break
            elif value.startswith("-"):
                if value not in _BRANCH_CREATE_FLAGS and not any(
                    long_is(value, f) for f in _BRANCH_CREATE_FLAGS if f.startswith("--")
                ):
                    return False  # listing, deleting, moving, copying: no start point
            else:
                operands.append(value)
        return operands[1] if len(operands) == 2 else False
    names = _NEW_BRANCH.get(g.sub)
    if names is None:
        return False
    if g.sub == "worktree":
        if not values or values[0] != "add":
            return False
        values = values[1:]
    created = False
    rest: list[str | None] = []
    index = 0
    while index < len(values):
        value = values[index]
        index += 1
        if value is None:
            rest.append(None)
            continue
        if value == "--":
            break
        if not value.startswith("-") or value == "-":
            rest.append(value)
            continue
        if value in names or (value.startswith("--") and any(n.startswith("--") and long_is(value, n) for n in names)):
            created = True
            index += 0 if "=" in value else 1
        elif not value.startswith("--") and any(n[1] in value[1:] for n in names if not n.startswith("--")):
            created = True  # a cluster: the letters after the branch option are its value, or the next word is
            letter = next(i for i, c in enumerate(value) if i and c in "".join(n[1] for n in names if len(n) == 2))
            index += 0 if letter + 1 < len(value) else 1
        elif value.startswith("--") and "=" not in value and any(long_is(value, v) for v in _START_VALUES):
            index += 1
    if not created:
        return False
    if g.sub == "worktree":
        rest = rest[1:]  # the path
    return rest[0] if rest else False


def _submodule(g: _Git) -> None:
    operands = [w for w in g.args if not (w.value or "x").startswith("-")]
    action = operands[0].value if operands else "status"
    if action in ("status", "summary"):
        g.read()
    elif action == "update":
        _fetch_like(g)
    elif action == "add":
        _fetch_like(g)
        g.call.write(_submodule_path(g.args), "git submodule add clones into", cwd=g.repo)
    elif action in ("init", "sync", "set-branch", "set-url", "absorbgitdirs"):
        g.write()
    elif action == "deinit":
        deletion(g.call, "git submodule deinit removes submodule working trees.")
    elif action == "foreach":
        _foreach(g, operands[0])
    else:
        refuse(g.call, f"git submodule {action}")


#: git-submodule(1) add: ``[-b BRANCH] [-f] [--name NAME] [--reference REPO] [--ref-format FMT] [--depth N] [--]
#: REPOSITORY [PATH]``: the options that take a value.
_SUBMODULE_ADD_VALUES = frozenset({"-b", "--branch", "--name", "--reference", "--ref-format", "--depth"})


def _submodule_path(words: list[Word]) -> Word:
    """Where ``git submodule add`` clones (git-submodule(1): PATH, or the "humanish" part of the repository: its
    last component without ``.git``); a word only known when it runs, or an option FlyBot does not list, makes the
    path unknown."""
    operands: list[Word] = []
    skip = False
    after_add = False
    ended = False
    for word in words:
        value = word.value
        if not after_add:
            after_add = value == "add"
            continue
        if skip:
            skip = False
        elif value is None:
            return Word(None, word.src)
        elif not ended and value == "--":
            ended = True
        elif not ended and value.startswith("-"):
            name = value.split("=", 1)[0]
            if name not in _SUBMODULE_ADD_VALUES and name not in ("-f", "--force", "-q", "--quiet"):
                return Word(None, value)
            skip = name in _SUBMODULE_ADD_VALUES and "=" not in value and not (name == "-b" and len(value) > 2)
        else:
            operands.append(word)
    if len(operands) >= 2:
        return operands[1]
    if not operands or operands[0].value is None:
        return Word(None, "<repository>")
    humanish = operands[0].value.rstrip("/").removesuffix("/.git").removesuffix(".git").rstrip("/")
    humanish = humanish.rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return literal_word(humanish) if humanish else Word(None, operands[0].src)


# git-submodule(1): ``git submodule [--quiet] foreach [--recursive] <command>``; foreach's own
# options come before the command and are only these (git-submodule.sh cmd_foreach: any other
# ``-*`` there is a usage error). Everything after them is the command, options included.
_FOREACH_OPTIONS = frozenset({"--recursive", "-q", "--quiet"})


def _foreach(g: _Git, verb: Word) -> None:
    index = next(i for i, w in enumerate(g.args) if w is verb) + 1
    while index < len(g.args) and g.args[index].value in _FOREACH_OPTIONS:
        index += 1
    command = g.args[index:]
    if command and command[0].value is not None and command[0].value.startswith("-"):
        refuse(g.call, f"git submodule foreach {show(command[0])}")
        return
    _shell_command(g, command, "git submodule foreach", _IN_SUBMODULES)


#: Why a project recipe (``make``, ``npm test``) that git runs is not the one FlyBot read: foreach runs the command
#: in each submodule's directory, rebase --exec and bisect run at other commits, whose files FlyBot did not read.
_IN_SUBMODULES = "git submodule foreach runs it in each submodule, whose recipes FlyBot did not read"
_AT_OTHER_COMMITS = "git runs it at other commits, whose recipes FlyBot did not read"


def _shell_command(g: _Git, command: list[Word], wrapper: str, elsewhere: str) -> None:
    """Grade ``command`` as git's run_command with ``use_shell`` runs it (run-command.c, prepare_shell_cmd):
    one word is a shell script; with more, the first word is shell text and the rest are its arguments. It runs
    where FlyBot read no recipe (``elsewhere``: a project recipe run there is destructive)."""
    if not command or command[0].value is None:
        destructive(g.call, "dynamic-script", f"The {wrapper} command is only known when it runs.")
        return
    g.call.script(command[0].value + argv_text(command[1:]), wrapper, repeat=True, elsewhere=elsewhere)


# git-rebase(1) short options taking a value (``-S`` takes an optional attached one).
_REBASE_SHORT_VALUES = "sXCx"


def _rebase(g: _Git) -> None:
    """``--exec``/``-x CMD`` (any spelling parse-options accepts: ``-xCMD``, ``-ix CMD``, ``--ex=CMD``)
    runs CMD with the shell after each commit: it is graded as a script."""
    words = g.args
    index = 0
    while index < len(words):
        value = words[index].value
        index += 1
        command: Word | None = None
        if value is None or value == "--":
            break
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            if len(name) >= 4 and "--exec".startswith(name):
                command = Word(attached, attached) if eq else (words[index] if index < len(words) else Word(None, ""))
                index += 0 if eq else 1
        elif value.startswith("-"):
            letters = value[1:]
            for position, letter in enumerate(letters):
                if letter == "S":
                    break
                if letter in _REBASE_SHORT_VALUES:
                    rest = letters[position + 1 :]
                    taken = Word(rest, rest) if rest else (words[index] if index < len(words) else Word(None, ""))
                    index += 0 if rest else 1
                    if letter == "x":
                        command = taken
                    break
        if command is not None:
            if command.value is None:
                destructive(g.call, "dynamic-script", "The git rebase --exec command is only known when it runs.")
                return
            g.call.script(command.value, "git rebase --exec", repeat=True, elsewhere=_AT_OTHER_COMMITS)
    g.write()


def _bisect(g: _Git) -> None:
    values = g.values()
    if values and values[0] == "run":
        if len(g.args) < 2:
            refuse(g.call, "git bisect run without a command")
            return
        g.call.child(g.args[1:], "git bisect run", elsewhere=_AT_OTHER_COMMITS)
    if values and values[0] in ("log", "visualize", "view", "terms"):
        g.read()
        return
    g.write()


def _archive(g: _Git) -> None:
    if any((v or "").startswith("--remote") for v in g.values()):
        _network(g)
    values = g.values()
    outputs = [w for w in g.args if (w.value or "").startswith("--output=")]
    for flag in ("-o", "--output"):
        if flag in values and values.index(flag) + 1 < len(values):
            outputs.append(g.args[values.index(flag) + 1])
    for output in outputs:
        value = output.value
        target = value[len("--output=") :] if value is not None and value.startswith("--output=") else value
        g.call.write(Word(target, output.src), "git archive writes")
    if not outputs:
        g.read()
        _tracked_secrets(g, _archive_paths(g))


#: git-archive(1) options that take the next word as their value.
_ARCHIVE_VALUES = frozenset(
    {"--format", "--prefix", "--remote", "--exec", "--add-file", "--add-virtual-file", "--mtime"}
)


def _archive_paths(g: _Git) -> list[str | None]:
    """The paths ``git archive TREE-ISH [PATH...]`` writes to standard output (git-archive(1): "Without an optional
    path parameter, all files and subdirectories of the current working directory are included"): ``[]`` for the
    whole tree. A path only known when it runs matches anything."""
    operands: list[str | None] = []
    skip = False
    for value in g.values():
        if skip:
            skip = False
        elif value is not None and value.startswith("-"):
            skip = value in _ARCHIVE_VALUES
        else:
            operands.append(value)
    return operands[1:]


def _format_patch(g: _Git) -> None:
    """git-format-patch(1): each commit's changes as a patch, to standard output (``--stdout``) or files in the
    current or ``-o`` directory; the repository's tracked secret files' lines are in them (:func:`_tracked_secrets`,
    narrowed by the pathspecs after ``--``)."""
    values = g.values()
    _tracked_secrets(g, values[values.index("--") + 1 :] if "--" in values else [])
    if "--stdout" in values:
        g.read()
        return
    for flag in ("-o", "--output-directory"):
        if flag in values and values.index(flag) + 1 < len(values):
            g.call.write(g.args[values.index(flag) + 1], "git format-patch writes into")
            return
    g.call.write(literal_word("."), "git format-patch writes patch files into")


def _bundle(g: _Git) -> None:
    values = g.values()
    if values and values[0] == "unbundle":
        _built_objects(g)
    elif values and values[0] == "create" and len(g.args) >= 2:
        g.call.write(g.args[1], "git bundle create writes")
    elif values and values[0] in ("verify", "list-heads"):
        g.read()
    else:
        g.write()


def _lfs(g: _Git) -> None:
    action = next((v for v in g.values() if v is None or not v.startswith("-")), None)
    if action in ("fetch", "pull", "push", "clone"):
        _fetch_like(g)
    elif action in ("ls-files", "status", "env", "version", None):
        g.read()
    elif action in ("track", "untrack", "checkout", "prune"):
        g.write()
    elif action in ("install", "uninstall"):
        if any(v == "--system" for v in g.values()):
            # git-lfs-install(1): --system writes the system gitconfig, whose filters every user's git runs.
            g.call.write(literal_word("/etc/gitconfig"), f"git lfs {action} --system changes")
        else:
            g.call.write(Word(None, "~/.gitconfig"), f"git lfs {action} changes")
    else:
        refuse(g.call, f"git lfs {action}")


def _pull(g: _Git) -> None:
    _fetch_like(g)


def _difftool(g: _Git) -> None:
    destructive(g.call, "runs-program", f"git {g.sub} runs an external tool program.")


_SUBCOMMANDS: dict[str, Callable[[_Git], None]] = {}
for _name in _READ | {"grep"}:
    _SUBCOMMANDS[_name] = _read
for _name in _WRITE:
    _SUBCOMMANDS[_name] = _write
for _name in _DESTROY:
    _SUBCOMMANDS[_name] = lambda g: destructive(
        g.call, "discard-changes", f"git {g.sub} permanently removes history or objects."
    )
for _name in _NETWORK:
    _SUBCOMMANDS[_name] = _network if _name != "fetch" else _fetch_like


def _ls_remote(g: _Git) -> None:
    """git-ls-remote(1): talks to the remote; ``--get-url`` prints the remote's URL as stored instead."""
    if g.has("--get-url"):
        _prints_remote_url(g, "git ls-remote --get-url")
    _network(g)


_SUBCOMMANDS["ls-remote"] = _ls_remote


def _gc(g: _Git) -> None:
    """git-gc(1): ``--prune=DATE`` drops unreachable objects older than DATE (two weeks by default); any other date
    (``now``, ``all``) can drop objects a reflog-less rescue still needs: destructive."""
    if any((w.value or "--prune=").startswith("--prune=") and w.value != "--prune=2.weeks.ago" for w in g.call.args):
        destructive(
            g.call, "discard-changes", f"git {g.sub} --prune=DATE drops unreachable objects sooner than git would."
        )
        return
    _write(g)


def _switch(g: _Git) -> None:
    """git-switch(1) ``-f``/``--force``/``--discard-changes`` overwrite the working tree, throwing uncommitted
    changes away (as ``git checkout -f``); ``--track``/``-t`` sets the new branch's upstream (:func:`_upstream`), and
    so does ``git switch NAME`` when NAME is no local branch (:func:`_guessed_upstream`)."""
    if _upstream(g) or _guessed_upstream(g):
        return
    if g.sub == "switch" and g.has("-f", "--force", "--discard-changes"):
        destructive(g.call, "discard-changes", f"git {g.sub} may overwrite uncommitted changes in the working tree.")
        return
    _write(g)


def _var(g: _Git) -> None:
    """git-var(1): ``-l`` lists the logical variables and "all the variables of the Git configuration file", a
    credential's (``http.extraHeader``, ``credential.*``) among them, as ``git config --list`` does: a secret read.
    Naming one variable (``git var GIT_EDITOR``) only reads."""
    if any(v is None or _lists(v) for v in g.values()):  # -l, also in a short cluster
        g.call.flag(
            R.NETWORK,
            "secret-read",
            "git var -l prints the git configuration, credential settings too: its output goes to the model.",
        )
        return
    g.read()


_SUBCOMMANDS.update({
    "var": _var,
    "gc": _gc, "switch": _switch,
    "pull": _pull, "push": _push, "clone": _clone, "checkout": _checkout, "restore": _restore, "reset": _reset,
    "rm": _rm, "mv": _mv, "clean": _clean, "stash": _stash, "branch": _branch_or_tag, "tag": _branch_or_tag,
    "update-ref": _update_ref, "symbolic-ref": _symbolic_ref, "update-index": _update_index,
    "read-tree": _read_tree, "mktree": _built_objects, "hash-object": _built_objects,
    "unpack-objects": _built_objects, "replace": _replace, "worktree": _worktree, "reflog": _reflog, "config": _config, "remote": _remote,
    "submodule": _submodule, "rebase": _rebase, "bisect": _bisect, "archive": _archive,
    "format-patch": _format_patch, "bundle": _bundle, "lfs": _lfs, "difftool": _difftool, "mergetool": _difftool,
})  # fmt: skip
