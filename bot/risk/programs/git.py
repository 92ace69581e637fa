"""git: graded per subcommand (source: git(1) and the git-<subcommand>(1) manual pages, git 2.4x).

* Global options are parsed: ``-C DIR`` (the repository whose files change),
  ``--work-tree``/``--git-dir`` (same), ``-c KEY=VALUE`` (only keys in
  :data:`SAFE_CONFIG` are accepted: others such as ``core.sshCommand``,
  ``core.fsmonitor`` or ``alias.*`` make git run programs), anything unknown -> destructive.
* Remote subcommands (push, pull, fetch, clone, ls-remote, remote update/show/prune,
  submodule update/add, archive --remote, send-email, lfs fetch/pull/push) are network,
  never downgraded. ``push --force``/``--delete``/``--mirror``/``--prune``/``+ref``/``:ref``
  destroy remote history: destructive. ``--upload-pack``/``--receive-pack``/``-u`` run a
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
from collections.abc import Callable

from bot.risk.grader import Call
from bot.risk.options import long_is
from bot.risk.paths import Where
from bot.risk.reasons import shorten
from bot.risk.sensitive import secret_setting
from bot.risk.settings import local_url as _local_url
from bot.risk.words import Word, literal_word

from .kit import R, applies_patch, argv_text, deletion, destructive, first_dynamic, network, read_only, refuse, show
from .projects import workspace_settings

__all__ = ["SAFE_CONFIG", "git"]

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
    "hash-object", "update-index", "init",
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
        self.call.write(self.repo, what or f"git {self.sub} changes the repository at")

    def read(self) -> None:
        """A read-only use."""
        read_only(self.call, f"git {self.sub} only reads.")


def git(call: Call) -> None:
    """Grade a git invocation (see the module docstring)."""
    words = call.args
    dirs: list[Word] = []
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
    handler(_Git(call, _repo(dirs), sub, args))


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


def _write(g: _Git) -> None:
    if g.sub == "init" and _runs_program(g):  # git-init(1) --template copies hooks into the new repository
        return
    if g.sub == "maintenance" and any(v in ("start", "stop", "register", "unregister") for v in g.values()):
        # git-maintenance(1): changes the global config and schedules jobs (cron, launchd, systemd timers).
        g.call.write(
            Word(None, "~/.gitconfig"),
            f"git maintenance {next(v for v in g.values() if v in ('start', 'stop', 'register', 'unregister'))} changes",
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
    g.write()


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
    g.write()


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


def _checkout(g: _Git) -> None:
    if g.has("-b", "-B", "--orphan") and not g.has(
        "-f", "--force", "-p", "--patch", "--ours", "--theirs", "-m", "--merge"
    ):
        g.write()
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


def _stash(g: _Git) -> None:
    action = next((v for v in g.values() if v is None or not v.startswith("-")), "push")
    if action in ("list", "show"):
        g.read()
    elif action in ("drop", "clear"):
        destructive(g.call, "discard-changes", "git stash drop/clear throws stashed changes away.")
    else:
        g.write()


def _branch_or_tag(g: _Git) -> None:
    if g.has("-d", "-D", "--delete"):
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


def _update_ref(g: _Git) -> None:
    if g.has("-d"):
        destructive(g.call, "discard-changes", "git update-ref -d deletes a ref.")
        return
    g.write()


def _worktree(g: _Git) -> None:
    action = next((v for v in g.values() if v is None or not v.startswith("-")), "list")
    if action == "list":
        g.read()
    elif action in ("remove", "prune"):
        deletion(g.call, f"git worktree {action} deletes a working tree.")
    elif action == "add":
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
        elif value in ("--global", "--system"):
            scope_file = Word(None, value)
        elif value.startswith("-"):
            continue
        else:
            operands.append(value)
    reading = any(
        v in ("--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--get-color", "--get-colorbool")
        for v in words
    )
    if operands and operands[0] in ("get", "list"):
        reading = True
    if operands and operands[0] in ("set", "unset", "rename-section", "remove-section"):
        operands = operands[1:]
    listing = any(v in ("-l", "--list") for v in words) or operands[:1] == ["list"]
    keys = operands[1:] if operands[:1] == ["get"] else operands[:1]
    if reading and (listing or any(secret_setting(k) for k in keys)):
        # git-config(1): a listing or a credential key (credential.*, http.extraHeader, *.token) prints secrets.
        g.call.flag(R.NETWORK, "secret-read", "git config prints credential settings: its output goes to the model.")
        return
    if reading or (len(operands) <= 1 and not any(v.startswith("--unset") or v.endswith("-section") for v in words)):
        g.read()
        return
    if not operands or not _safe_config(operands[0]):
        destructive(g.call, "git-config", "Setting this git config key can make git run programs.")
        return
    if scope_file is not None:
        g.call.write(scope_file, "git config writes", cwd=g.repo)
    else:
        g.write("git config changes the repository configuration at")


def _remote(g: _Git) -> None:
    operands = [v for v in g.values() if v is None or not v.startswith("-")]
    action = operands[0] if operands else None
    if action is None and g.args:
        action = "" if all((v or "").startswith("-") for v in g.values()) else None
    if action in ("", "get-url") or not g.args or (action == "show" and g.has("-n")):
        g.read()
    elif action in ("show", "update", "prune"):
        _network(g)
    elif action in ("add", "rename", "set-url", "set-head", "set-branches"):
        if action in ("add", "set-url") and any(url is None or _local_url(url) for url in operands[2:]):
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
        if g.has("-f", "--fetch") or (action == "set-head" and g.has("-a", "--auto")):
            network(g.call, f"git remote {action} fetches from the remote.")
        g.write()
    elif action in ("remove", "rm"):
        destructive(g.call, "discard-changes", "git remote remove deletes the remote and its remote-tracking branches.")
    else:
        refuse(g.call, f"git remote {action}")


def _submodule(g: _Git) -> None:
    operands = [w for w in g.args if not (w.value or "x").startswith("-")]
    action = operands[0].value if operands else "status"
    if action in ("status", "summary"):
        g.read()
    elif action in ("update", "add"):
        _fetch_like(g)
    elif action in ("init", "sync", "set-branch", "set-url", "absorbgitdirs"):
        g.write()
    elif action == "deinit":
        deletion(g.call, "git submodule deinit removes submodule working trees.")
    elif action == "foreach":
        _foreach(g, operands[0])
    else:
        refuse(g.call, f"git submodule {action}")


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
    _shell_command(g, command, "git submodule foreach")


def _shell_command(g: _Git, command: list[Word], wrapper: str) -> None:
    """Grade ``command`` as git's run_command with ``use_shell`` runs it (run-command.c, prepare_shell_cmd):
    one word is a shell script; with more, the first word is shell text and the rest are its arguments."""
    if not command or command[0].value is None:
        destructive(g.call, "dynamic-script", f"The {wrapper} command is only known when it runs.")
        return
    g.call.script(command[0].value + argv_text(command[1:]), wrapper, repeat=True)


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
            g.call.script(command.value, "git rebase --exec", repeat=True)
    g.write()


def _bisect(g: _Git) -> None:
    values = g.values()
    if values and values[0] == "run":
        if len(g.args) < 2:
            refuse(g.call, "git bisect run without a command")
            return
        g.call.child(g.args[1:], "git bisect run")
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


def _format_patch(g: _Git) -> None:
    values = g.values()
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
    if values and values[0] == "create" and len(g.args) >= 2:
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


def _gc(g: _Git) -> None:
    """git-gc(1): ``--prune=DATE`` drops unreachable objects older than DATE (two weeks by default); any other date
    (``now``, ``all``) can drop objects a reflog-less rescue still needs: destructive."""
    if any((w.value or "--prune=").startswith("--prune=") and w.value != "--prune=2.weeks.ago" for w in g.call.args):
        destructive(
            g.call, "discard-changes", f"git {g.sub} --prune=DATE drops unreachable objects sooner than git would."
        )
        return
    _write(g)


def _switch_or_read_tree(g: _Git) -> None:
    """git-switch(1) ``-f``/``--force``/``--discard-changes`` and git-read-tree(1) ``--reset -u`` overwrite the
    working tree, throwing uncommitted changes away (as ``git checkout -f``)."""
    if (g.sub == "switch" and g.has("-f", "--force", "--discard-changes")) or (
        g.sub == "read-tree" and g.has("--reset") and g.has("-u")
    ):
        destructive(g.call, "discard-changes", f"git {g.sub} may overwrite uncommitted changes in the working tree.")
        return
    _write(g)


def _var(g: _Git) -> None:
    """git-var(1): ``-l`` lists the logical variables and "all the variables of the Git configuration file", a
    credential's (``http.extraHeader``, ``credential.*``) among them, as ``git config --list`` does: a secret read.
    Naming one variable (``git var GIT_EDITOR``) only reads."""
    if any(v is None or v == "-l" for v in g.values()):
        g.call.flag(
            R.NETWORK,
            "secret-read",
            "git var -l prints the git configuration, credential settings too: its output goes to the model.",
        )
        return
    g.read()


_SUBCOMMANDS.update({
    "var": _var,
    "gc": _gc, "switch": _switch_or_read_tree, "read-tree": _switch_or_read_tree,
    "pull": _pull, "push": _push, "clone": _clone, "checkout": _checkout, "restore": _restore, "reset": _reset,
    "rm": _rm, "mv": _mv, "clean": _clean, "stash": _stash, "branch": _branch_or_tag, "tag": _branch_or_tag,
    "update-ref": _update_ref, "worktree": _worktree, "reflog": _reflog, "config": _config, "remote": _remote,
    "submodule": _submodule, "rebase": _rebase, "bisect": _bisect, "archive": _archive,
    "format-patch": _format_patch, "bundle": _bundle, "lfs": _lfs, "difftool": _difftool, "mergetool": _difftool,
})  # fmt: skip
