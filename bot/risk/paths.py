"""Where a write lands: inside the workspace, in a temp area, nowhere, or outside.

Paths are judged lexically (``posixpath.normpath``): a symlink inside the workspace
that points out is not seen, which is why ``ln`` pointing outside is itself graded
as a write outside. The working directory is tracked through ``cd``/``pushd`` as a
set of candidate directories (a ``cd`` may fail, so the old directory stays a
candidate, except on the right side of the ``&&`` the ``cd`` is the left side of: once
that chain ends, or at its ``||``, the old directory is a candidate again; a ``cd`` in a
child shell, ``bash -c 'cd x'`` or ``(cd x)``, moves that shell only); a path is inside
only if it is inside from every candidate.

Temp areas accepted as workspace-like (the backend's scratch space):
``/tmp``, ``/var/tmp``, ``/private/tmp``, ``/private/var/tmp``, macOS per-user
``$TMPDIR`` trees under ``/var/folders`` and ``/private/var/folders``, and any word
spelled ``$TMPDIR/...`` / ``${TMPDIR}/...``. A write there grades ``workspace_write``, as a write in the
workspace does: Codex's ``workspace-write`` sandbox makes ``/tmp`` and ``$TMPDIR`` writable roots besides the
workspace (Codex CLI docs, "Sandbox & approvals": writable roots of ``workspace-write``), so an agent writes its
scratch files there. Emptying a file there is a deletion like ``rm`` (grader ``empties``), not such a write.

No-write sinks: ``/dev/null``, ``/dev/stdout``, ``/dev/stderr``, ``/dev/tty``,
``/dev/fd/1``, ``/dev/fd/2``. Any other ``/dev`` path is a device: writing it can
destroy a disk, so it grades destructive.

Network sockets: bash opens ``/dev/tcp/HOST/PORT`` and ``/dev/udp/HOST/PORT`` named in a
redirect as a network connection (bash(1), REDIRECTION). :func:`names_socket` finds such a
name in any word (its literal value, or its source text when it is only partly known);
the walker grades every redirect, argument or assigned value naming one as network egress.

Moves: :func:`may_be_in_workspace` says whether a path might name workspace files (or
a directory holding the workspace): it is True for anything not known exactly (an
expansion, ``~``, a relative path from an unknown directory), so that ``mv`` of such a
source out of the workspace grades as the deletion it may be.
"""

from __future__ import annotations

import posixpath
from enum import IntEnum
from functools import lru_cache

from bot.risk.regex import Regex
from bot.risk.sensitive import site_startup
from bot.risk.words import Word
from bot.values import Record

__all__ = [
    "OUTPUT_SINKS",
    "TEMP_PREFIXES",
    "TEMP_ROOTS",
    "WORKSPACE_SENTINEL",
    "CwdState",
    "Where",
    "agent_control",
    "control_parent",
    "locate",
    "may_be_in_workspace",
    "names_socket",
]

#: Stand-in root when the escalation gave no workspace; a NUL can never appear in a shell word.
WORKSPACE_SENTINEL = "/\x00workspace"

_SINKS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"})
#: The sinks whose bytes reach the command's output, and so the model (all but ``/dev/null``).
OUTPUT_SINKS = _SINKS - {"/dev/null"}
_TEMP_ROOTS = ("/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/var/folders", "/private/var/folders")
_GLOB = frozenset("*?[")
_TEMP_PREFIXES = tuple(
    root + "/"
    for root in ("/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/var/folders", "/private/var/folders")
)
#: What every path strictly below a temp area's root starts with.
TEMP_PREFIXES = _TEMP_PREFIXES
#: The temp area's roots themselves (``/tmp``...).
TEMP_ROOTS = _TEMP_ROOTS
_MAX_CANDIDATES = 16
#: Linux PATH_MAX (limits.h): a longer working directory is not tracked.
_PATH_MAX = 4096
# /dev/tcp or /dev/udp as a path component sequence, tolerating ``//`` and ``/./`` (bash(1) REDIRECTION).
_SOCKET = Regex(r"/dev/+(?:\.{1,2}/+)*(?:tcp|udp)(?![\w.-])")


class Where(IntEnum):
    """Where a path lands, ordered by how bad a write there is."""

    NOWHERE = 0
    WORKSPACE = 1
    TEMP = 2
    OUTSIDE = 3
    GIT_CONTROL = 4
    DEVICE = 5


class CwdState(Record):
    """The candidate working directories of the shell at this point of the script.

    Attributes:
        root: the workspace root (absolute, normalised), or :data:`WORKSPACE_SENTINEL`.
        cwds: candidate directories (absolute, normalised); empty means unknown.
        remote: True for a script run on another machine (``ssh host CMD``): nothing is inside.
    """

    __slots__ = ("root", "cwds", "remote")

    def __init__(self, root: str, cwds: frozenset[str], remote: bool = False) -> None:
        self.root = root
        self.cwds = cwds
        self.remote = remote

    @classmethod
    def start(cls, workspace: str | None) -> CwdState:
        """The state at the start of an escalation's script (cwd = the workspace).

        States are never changed in place (every move makes a new one), so the start is shared per workspace.
        """
        return _start(workspace)

    @classmethod
    def remote_state(cls) -> CwdState:
        """The state of a script that runs on another machine: every path is outside."""
        return cls(WORKSPACE_SENTINEL, frozenset(), remote=True)

    def targets(self, value: str) -> frozenset[str] | None:
        """The absolute paths ``value`` may name from here, or None when unknown."""
        if value.startswith("~"):
            return None
        if value.startswith("/"):
            return frozenset({_norm(_deglob(value))})
        if not self.cwds:
            return None
        clean = _deglob(value)
        return frozenset(_norm(posixpath.join(cwd, clean)) for cwd in self.cwds)

    def after_cd(self, value: str | None, certain: bool) -> CwdState:
        """The state after ``cd value``; ``certain`` when the cd is known to have succeeded."""
        found = self.targets(value) if value not in (None, "", "-") else None
        if found is None and value is not None and (value == "~" or value.startswith("~/")):
            found = frozenset({_norm(value)})  # a home directory, kept as written: sensitive.py judges ``~`` paths
        if found is None:
            return CwdState(self.root, frozenset(), self.remote)
        merged = found if certain else found | self.cwds
        if len(merged) > _MAX_CANDIDATES or any(len(path) > _PATH_MAX for path in merged):
            merged = frozenset()  # past PATH_MAX the directory is not tracked (and a long chain stays linear)
        return CwdState(self.root, merged, self.remote)

    def either(self, other: CwdState) -> CwdState:
        """The state when the shell may be in a directory of this state or of ``other`` (unknown when either is)."""
        if not self.cwds or not other.cwds:
            return self.unknown()
        merged = self.cwds | other.cwds
        return CwdState(self.root, merged if len(merged) <= _MAX_CANDIDATES else frozenset(), self.remote)

    def unknown(self) -> CwdState:
        """The state once the directory can no longer be known (``popd``, cd in a loop)."""
        return CwdState(self.root, frozenset(), self.remote)


@lru_cache(maxsize=64)
def _start(workspace: str | None) -> CwdState:
    root = _norm(workspace) if workspace else WORKSPACE_SENTINEL
    return CwdState(root, frozenset({root}))


def locate(word: Word, state: CwdState) -> Where:
    """Where a write to ``word`` lands; unknown words and ``~`` paths are outside."""
    if word.value is None:
        if word.inside and not state.remote:
            return Where.WORKSPACE
        if word.temp_suffix is not None and not state.remote:
            rest = posixpath.normpath("./" + _deglob(word.temp_suffix).lstrip("/"))
            return Where.OUTSIDE if rest == ".." or rest.startswith("../") else Where.TEMP
        return Where.OUTSIDE
    if word.value == "":
        return Where.OUTSIDE
    found = state.targets(word.value)
    if found is None:
        return Where.OUTSIDE
    if len(found) == 1:
        for path in found:
            return _classify(path, state)
    return max(_classify(path, state) for path in found)


def names_socket(word: Word) -> bool:
    """True when ``word`` names a bash network socket (``/dev/tcp/...``, ``/dev/udp/...``).

    A word only partly known (``/dev/tcp/$HOST/80``) is judged on its source text with quotes
    and backslashes removed. Source: bash(1), REDIRECTION ("/dev/tcp/host/port").
    """
    value = word.value
    text = value if value is not None else word.src.replace("'", "").replace('"', "").replace("\\", "")
    if "tcp" not in text and "udp" not in text:
        return False
    return _SOCKET.search(text) is not None


def may_be_in_workspace(word: Word, state: CwdState) -> bool:
    """True unless ``word`` is known to name only paths outside the workspace (and not above it).

    Unknown words, ``~`` paths and relative paths from an unknown directory may name workspace
    files; so may a directory that holds the workspace (``..``, ``/home``): moving it moves the
    workspace. A ``$TMPDIR/...`` word that stays in the temp area does not. Remote scripts have no
    workspace.
    """
    if state.remote:
        return False
    if word.value is None:
        return word.temp_suffix is None or locate(word, state) is not Where.TEMP
    if word.value == "":
        return False
    found = state.targets(word.value)
    if found is None:
        return True
    root = state.root
    for path in found:
        if _classify(path, state) in (Where.WORKSPACE, Where.GIT_CONTROL):
            return True
        if path == "/" or root.startswith(path + "/"):
            return True
    return False


def _classify(path: str, state: CwdState) -> Where:
    if path.startswith("/dev"):
        if path in _SINKS:
            return Where.NOWHERE
        if path == "/dev" or path.startswith("/dev/"):
            return Where.DEVICE
    if state.remote:
        return Where.OUTSIDE
    root = state.root
    if root != "/" and path.startswith(root) and (len(path) == len(root) or path[len(root)] == "/"):
        return _git_control(path[len(root) :])
    folded, folded_root = path.casefold(), root.casefold()
    if (
        root != "/"
        and folded.startswith(folded_root)
        and (len(folded) == len(folded_root) or folded[len(folded_root)] == "/")
        and _git_control(path[len(root) :]) is Where.GIT_CONTROL
    ):  # the workspace spelled in another case: the same directory on a file system that ignores case
        return Where.GIT_CONTROL
    if path in _TEMP_ROOTS or path.startswith(_TEMP_PREFIXES):
        # a repository in the temp area is run as readily as the workspace's (git -C /tmp/r diff)
        return Where.GIT_CONTROL if _git_control(path) is Where.GIT_CONTROL else Where.TEMP
    return Where.OUTSIDE


@lru_cache(maxsize=1024)
def _git_control(rest: str) -> Where:
    """Writes into ``.git`` itself or anything below it but the inert files (:func:`git_internal`: hooks and
    config plant code git runs later; refs, index, objects, ``commondir`` and ``alternates`` are the repository
    itself or point git elsewhere) are control-file writes; so are Mercurial's ``.hg/hgrc`` (hgrc(5): [hooks],
    [extensions]) and Jujutsu's ``.jj/repo/config.toml`` (jj config: ui.pager, ui.diff.tool), which no checkout
    writes. Coding agents' own settings are control files too: Claude Code's ``.claude`` directory (settings,
    hooks, commands, agents, skills) and ``.mcp.json`` (MCP servers it starts), Codex's ``.codex`` directory
    (``config.toml``, ``hooks.json``) and Gemini CLI's ``.gemini`` directory (``settings.json``: its hooks, and the
    switch that turns them off): the agent runs what they name.

    Names are compared case-insensitively (:func:`casefold`), here and in :func:`agent_control` and
    :func:`runs_later`: macOS's default APFS volumes and Windows' NTFS ignore case, so ``.Claude/settings.json`` and
    ``.git/Hooks/pre-commit`` are those files there."""
    rest = casefold(rest)
    if "/.hg/hgrc" in rest or "/.jj/repo/config" in rest:
        return Where.GIT_CONTROL
    if agent_control(rest) or runs_later(rest) is not None:
        return Where.GIT_CONTROL
    if ".git" not in rest:
        return Where.WORKSPACE
    return Where.GIT_CONTROL if git_internal(rest) is not None else Where.WORKSPACE


#: Files in a git directory that git documents as read by nothing that runs or as only choosing what git shows
#: (gitrepository-layout(5)): ``description`` (read by GitWeb only), ``COMMIT_EDITMSG`` (the last commit message),
#: ``info/exclude`` (ignore patterns, gitignore(5)).
_INERT_GIT_FILES = frozenset({"description", "commit_editmsg", "info/exclude"})  # case-folded


def git_internal(path: str) -> str | None:
    """Why a write to ``path`` changes a repository's own files, or None: ``path`` is a ``.git`` (directory or
    ``gitdir:`` file) or lies below one, and is not one of :data:`_INERT_GIT_FILES`. gitrepository-layout(5): git
    reads ``config`` and ``hooks`` (programs it runs), ``commondir`` (the directory whose config and hooks it then
    obeys), ``HEAD``, ``refs``, ``packed-refs``, ``index`` and ``objects`` (the repository's history and staging
    area, which a write replaces), ``objects/info/alternates`` (another directory whose objects it reads) and
    ``info`` (attributes that choose filter drivers, grafts, the sparse-checkout list); a submodule's or worktree's
    git directory (``.git/modules/x``, ``.git/worktrees/a``) holds the same. Names are compared case-insensitively
    (:func:`casefold`)."""
    parts = [casefold(p) for p in path.split("/") if p not in ("", ".")]
    for index, part in enumerate(parts):
        if part != ".git":
            continue
        following = parts[index + 1 :]
        inner = following
        while len(inner) >= 2 and inner[0] in ("modules", "worktrees"):
            inner = inner[2:]  # a submodule's or a worktree's own git directory
        if following and "/".join(inner) in _INERT_GIT_FILES:
            return None
        if not following or any(p == "hooks" or p.startswith("config") for p in following):
            return "git hooks and config make git run programs later"
        return (
            "a repository's own files (refs, index, objects, commondir, alternates, info): git reads its history, "
            "its staging area and where its config and hooks are from them"
        )
    return None


#: Coding agents' project settings directories: Claude Code, Codex, Gemini CLI, Cursor (``.cursor/hooks.json``,
#: ``.cursor/mcp.json``), Cline (``.clinerules/hooks``; Cline 3 also loads every ``.js``/``.ts`` file in
#: ``.cline/plugins`` at each session start and runs the executable files in ``.cline/hooks``), OpenCode
#: (``.opencode/plugins``).
_AGENT_DIRS = frozenset({".claude", ".codex", ".gemini", ".cursor", ".clinerules", ".cline", ".opencode"})

#: Agents' project settings files outside those directories: Claude Code's ``.mcp.json`` (MCP servers it starts) and
#: OpenCode's ``opencode.json``/``opencode.jsonc`` (its ``mcp`` local servers are commands it spawns, ``plugin``
#: loads npm packages, ``permission`` relaxes its own prompts).
_AGENT_FILES = frozenset({".mcp.json", "opencode.json", "opencode.jsonc"})

#: Two-part places in a project that name programs an agent starts: GitHub Copilot's ``.github/hooks`` (its hooks),
#: ``.github/mcp.json`` (MCP servers Copilot CLI starts), ``.github/agents`` (custom agents with their own tools and
#: MCP servers) and ``.vscode/mcp.json`` (MCP servers VS Code's Copilot and Cursor start).
_AGENT_PLACES = ((".github", "hooks"), (".github", "mcp.json"), (".github", "agents"), (".vscode", "mcp.json"))


def casefold(path: str) -> str:
    """``path`` with every character case-folded (str.casefold), for comparing names with control-file names: a
    file system that ignores case (macOS APFS and HFS+ by default, Windows NTFS) opens ``.Claude/settings.json``
    as ``.claude/settings.json``. Only ever used to grade higher, never to place a path in the workspace."""
    return path.casefold()


def agent_control(path: str) -> bool:
    """True when ``path`` is or lies in an agent's settings directory (:data:`_AGENT_DIRS`) or one of
    :data:`_AGENT_PLACES`, or is one of :data:`_AGENT_FILES`: the agent runs what they name, and they can switch
    FlyBot's hook off. Instruction files (``AGENTS.md``, ``CLAUDE.md``, ``.github/copilot-instructions.md``) are
    not: they are text the agent reads, everyday edits that start no program. Names are compared case-insensitively
    (:func:`casefold`)."""
    parts = casefold(path).split("/")
    if not _AGENT_DIRS.isdisjoint(parts) or parts[-1] in _AGENT_FILES:
        return True
    if ".github" not in parts and ".vscode" not in parts:
        return False
    return any((parts[i], parts[i + 1]) in _AGENT_PLACES for i in range(len(parts) - 1))


def runs_later(path: str) -> str | None:
    """What runs the file ``path`` later, when it is a workspace file another tool runs on its own (a control file
    like ``.git/hooks``), or None:

    * ``.husky/*``: husky's git hooks (husky docs: ``husky`` sets ``core.hooksPath`` to ``.husky/_``, whose hooks
      run ``.husky/HOOK``);
    * ``.githooks/*``: the conventional directory a project points ``core.hooksPath`` at (``git config
      core.hooksPath .githooks``, git-config(1)): once set, git runs the hooks there, and a hook may run any file
      beside it;
    * ``.vscode/tasks.json`` (VS Code tasks: ``"runOptions": {"runOn": "folderOpen"}`` runs a task when the folder
      opens) and ``.vscode/settings.json`` (``terminal.integrated.profiles.*``, ``*.path`` settings name programs
      VS Code and its extensions start);
    * ``.vscode/launch.json`` (VS Code "Debugging configuration": a launch configuration names the ``program``,
      ``runtimeExecutable`` and ``preLaunchTask`` VS Code runs when a debug session starts) and ``NAME.code-workspace``
      (VS Code "Multi-root Workspaces": the file holds ``settings``, ``tasks`` and ``launch`` sections as the
      ``.vscode`` files do);
    * JetBrains IDEs' run configurations (IntelliJ IDEA "Run/debug configurations", "Share run configurations":
      ``.idea/runConfigurations/*.xml`` and ``.run/*.run.xml`` when stored as project files, and the ``RunManager``
      component of ``.idea/workspace.xml``): they name programs and "Before launch" tasks the IDE runs;
    * ``.envrc``: direnv(1) runs it on entering the directory;
    * a ``.pth`` file, ``sitecustomize.py`` or ``usercustomize.py`` in a ``site-packages`` directory
      (sensitive.site_startup): Python's ``site`` module runs them at every interpreter start;
    * ``.devcontainer/devcontainer.json``, ``.devcontainer.json``: the Dev Container specification's
      ``initializeCommand`` (on the host), ``onCreateCommand``, ``postCreateCommand``, ``postStartCommand``;
    * ``.pre-commit-config.yaml``: pre-commit runs the hooks it names at every commit once installed.

    Names are compared case-insensitively (:func:`casefold`).

    CI pipeline files (``.github/workflows/*``, ``.gitlab-ci.yml``, ``Jenkinsfile``, ``.circleci/config.yml``) are
    not control files: they run on the CI's machines only after a push, and the push is graded on its own
    (``git push`` is ``network``, approved separately), so writing them stays a workspace write.
    """
    path = casefold(path)
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts:
        return None
    name = parts[-1]
    if ".husky" in parts[:-1]:
        return "husky's git hooks, which git runs at every commit"
    if ".githooks" in parts:  # the directory itself too: cp -r DIR .githooks fills it
        return "a project's git hook directory (core.hooksPath), whose hooks git runs at every commit"
    if parts[-2:] in ([".vscode", "tasks.json"], [".vscode", "settings.json"]):
        return "VS Code's tasks and settings, which run tasks when the folder opens and name the programs it starts"
    if parts[-2:] == [".vscode", "launch.json"] or name.endswith(".code-workspace"):
        return "VS Code's launch configurations and workspace file, which name the programs and tasks it runs"
    if (
        (len(parts) >= 3 and parts[-3:-1] == [".idea", "runconfigurations"] and name.endswith(".xml"))
        or parts[-2:] == [".idea", "workspace.xml"]
        or (len(parts) >= 2 and parts[-2] == ".run" and name.endswith(".run.xml"))
    ):
        return "a JetBrains IDE's run configurations, which name the programs and tasks it runs"
    if name == ".envrc":
        return "direnv runs .envrc on entering the directory"
    if site_startup(path):
        return "Python runs a .pth file's import lines and sitecustomize.py in site-packages at every start"
    if parts[-2:] == [".devcontainer", "devcontainer.json"] or name == ".devcontainer.json":
        return "the dev container's postCreateCommand and other commands run when it is built or started"
    if name == ".pre-commit-config.yaml":
        return "pre-commit runs the hooks it names at every commit"
    return None


#: Directories that hold the control files of :func:`runs_later` and :func:`agent_control` beside everyday ones
#: (``.github/workflows``, ``.vscode/extensions.json``): ``.github`` (Copilot's ``hooks``, ``agents``,
#: ``mcp.json``), ``.vscode``, ``.idea`` and its ``runConfigurations``, ``.run``, ``.devcontainer`` and ``.husky``.
#: Case-folded.
_CONTROL_PARENTS = (
    (".github",), (".vscode",), (".idea",), (".idea", "runconfigurations"), (".run",), (".devcontainer",),
    (".husky",),
)  # fmt: skip


def control_parent(path: str) -> str | None:
    """Why a write of the directory ``path`` as a whole plants control files, or None: ``path`` is one of
    :data:`_CONTROL_PARENTS` (its last components), and a recursive copy or a move onto it, a sync into it, a
    link, clone or worktree made there fills it with files only the source names (cp(1): a directory copied to a
    name that does not exist yet takes that name; ``cp -r /tmp/x .github`` writes ``.github/hooks`` when ``x`` holds
    ``hooks``). Names are compared case-insensitively (:func:`casefold`)."""
    parts = [p for p in casefold(path).split("/") if p not in ("", ".")]
    for key in _CONTROL_PARENTS:
        if tuple(parts[-len(key) :]) == key:
            return (
                f"a directory holding files that run programs later ({'/'.join(key)}: agents' hooks, IDE tasks and "
                "run configurations, git hooks), filled with whatever the source holds"
            )
    return None


def _deglob(value: str) -> str:
    """Replace glob components: one that may match ``..`` (starts with ``.``) becomes ``..``."""
    if "*" not in value and "?" not in value and "[" not in value:
        return value
    parts = value.split("/")
    return "/".join((".." if part.startswith(".") else "g") if _GLOB & set(part) else part for part in parts)


def _norm(path: str) -> str:
    normal = posixpath.normpath(path)
    return "/" + normal.lstrip("/") if normal.startswith("//") else normal
