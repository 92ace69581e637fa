"""Small helpers shared by the program handlers: one finding per call, worded alike."""

from __future__ import annotations

import re
import shlex

from bot.risk.grader import Call, Handler
from bot.risk.hidden import reveal
from bot.risk.model import RiskLevel
from bot.risk.paths import TEMP_PREFIXES, Where
from bot.risk.reasons import shorten
from bot.risk.regex import Regex
from bot.risk.words import Word

__all__ = [
    "local_package",
    "local_package_outside",
    "R",
    "argv_text",
    "build_or_test",
    "chosen_source",
    "const",
    "deletion",
    "destructive",
    "emptied",
    "first_dynamic",
    "first_value",
    "as_root",
    "host_destructive",
    "sets_setid",
    "tool_plugin",
    "injected",
    "network",
    "read_only",
    "refuse",
    "shifted",
    "show",
    "system",
    "unpacks",
    "workspace_write",
]  # fmt: skip

R = RiskLevel


def show(word: Word) -> str:
    """A word as written, shortened for a reason's detail."""
    return shorten(word.src, 60)


def first_value(words: list[Word]) -> str | None:
    """The literal value of the first word, or None (absent or not literal)."""
    return words[0].value if words else None


def read_only(call: Call, detail: str | None = None) -> None:
    """``call`` only reads (rule ``read-only``)."""
    call.flag(R.READ_ONLY, "read-only", detail or f"{call.name} only reads.")


def workspace_write(call: Call, detail: str, rule: str = "write-in-workspace") -> None:
    """``call`` changes files in the workspace."""
    call.flag(R.WORKSPACE_WRITE, rule, detail)


def build_or_test(call: Call, what: str) -> None:
    """A build or test tool: it runs the project's own code and writes build output in the workspace.

    The tools find their project from the directory they start in (cargo, go, mix, gradle, sbt, dotnet, swift,
    bundler and the rest look for their manifest there or above), so run from a directory outside the workspace
    (``cd ../other && cargo build``) or from one only known when it runs (``cd "$D"``, ``cd -``), the project is one
    FlyBot does not read: destructive (``project-outside-workspace``). A script run on another machine is graded
    by name.
    """
    state = call.g.state
    if not state.remote:
        inside = state.root.rstrip("/") + "/"
        outside = sorted(cwd for cwd in state.cwds if cwd != state.root and not cwd.startswith(inside))
        if not state.cwds or outside:
            where = (
                f"in {shorten(outside[0], 60)}, outside the workspace"
                if outside
                else "in a directory only known when it runs"
            )
            destructive(
                call,
                "project-outside-workspace",
                f"{what} runs {where}: it builds and runs the project there, code FlyBot does not read.",
            )
            return
    call.flag(R.WORKSPACE_WRITE, "build-or-test", f"{what} builds or tests the project in the workspace.")


def network(call: Call, detail: str, rule: str = "network-egress") -> None:
    """``call`` talks to another machine; never downgraded."""
    call.flag(R.NETWORK, rule, detail)


def system(call: Call, detail: str, *, downgradable: bool, rule: str = "system-command") -> None:
    """``call`` changes the machine outside the workspace."""
    call.flag(R.SYSTEM, rule, detail, downgradable=downgradable)


def deletion(call: Call, detail: str | None = None) -> None:
    """``call`` deletes; destructive wherever it runs (the workspace sync carries deletions home)."""
    call.flag(R.DESTRUCTIVE, "deletion", detail or f"{call.name} deletes files.")


def emptied(call: Call, target: Word | None, what: str, *, numbered: bool = False) -> None:
    """``what`` empties the directory ``target`` before it writes into it (pytest ``--basetemp``, vite build
    ``--outDir``, mkdocs build ``--site-dir``): a write there, and a deletion (destructive) unless the directory is
    known to lie below the workspace's root or below a temp area's root (written as the workspace is) and the recipe
    book reports it holding no repository and no file its repository tracks (settings.py ``holds``: ``--basetemp=src``
    would empty the project's sources, ``--basetemp=/tmp/other-checkout`` another repository). Elsewhere outside the
    workspace, the workspace itself or a directory holding it, a temp area's root, or a path only known when the
    command runs, what the directory held is lost. ``numbered``: the tool makes only numbered directories there
    (pytest), so anything else the directory holds, untracked files too, is lost (settings.py ``holds-other``)."""
    if target is None:
        call.flag(R.DESTRUCTIVE, "deletion", f"{what} empties a directory it is not given a name for.")
        return
    call.write(target, f"{what} writes")
    state = call.g.state
    found = state.targets(target.value) if target.value else None
    inside = state.root.rstrip("/") + "/"
    if (
        found
        and call.where(target) in (Where.WORKSPACE, Where.TEMP)
        and all(
            (path.startswith(inside) or path.startswith(TEMP_PREFIXES)) and not inside.startswith(path + "/")
            for path in found
        )
    ):
        held = _holds(call, target, what)
        if held is None and numbered:
            held = _holds(call, target, what, other=True)
        if held is None:
            return
        call.flag(
            R.DESTRUCTIVE,
            "deletion",
            f"{what} empties {shorten(target.src, 80)} before it writes there, and it holds {held}: what the "
            "directory held is lost.",
        )
        return
    call.flag(
        R.DESTRUCTIVE,
        "deletion",
        f"{what} empties {shorten(target.src, 80)} before it writes there, and it is not known to lie below the "
        "workspace or a temp area: what the directory held is lost.",
    )


def _holds(call: Call, target: Word, what: str, *, other: bool = False) -> str | None:
    """What the recipe book reports the directory ``target`` holding that emptying it loses (settings.py
    ``holds``: a repository, files its repository tracks; ``other``: ``holds-other``, anything but pytest's numbered
    directories), or None. A place that could not be read is destructive
    (``recipe-unreadable``, with None); a directory not reported adds nothing, as for any setting the adapter did
    not send (programs/projects.py ``settings_lines``)."""
    from bot.risk.recipes import SETTINGS
    from bot.risk.settings import HOLDS, HOLDS_OTHER

    from .projects import settings_lines

    question = (HOLDS_OTHER if other else HOLDS) + (target.value or "")
    if len(SETTINGS + question) > 200:  # the longest recipe target the server takes (bot/api/models.py)
        return f"{shorten(target.src, 40)} (a name too long to look at)"
    lines = settings_lines(call, "git", what, question)
    if not lines:
        return None
    return reveal(lines[0].command, multiline=False)


def destructive(call: Call, rule: str, detail: str) -> None:
    """A destructive finding under ``rule``."""
    call.flag(R.DESTRUCTIVE, rule, detail)


def unpacks(call: Call, dest: Word, what: str, *, cwd: Word | None = None) -> None:
    """An extraction (an archive, a patch) into the directory ``dest`` of files only its input names: a write there,
    and ``destructive`` wherever it lands (rule ``git-control-write``). At the workspace root a member may be
    ``.git/hooks/*``, ``.git/config`` or a coding agent's settings (``.claude``, ``.codex``, ``.gemini``,
    ``.mcp.json``), which make programs run later in the owner's own git or agent. In any other directory a member
    may be a nested ``.git`` (``sub/.git/config``), and git run there later (``git -C sub status``, ``cd sub && git
    diff``, a prompt's git status line) obeys its ``core.fsmonitor``, ``core.sshCommand`` or ``core.hooksPath``
    (git-config(1); gitrepository-layout(5): git uses the nearest ``.git`` above the directory it runs in). Grading
    the extraction, not every later git command below the workspace root, asks once per archive. Outside the
    workspace the write's own grade stands (the home directory is ``destructive`` on the host). Into a
    virtualenv, ``node_modules`` or ``vendor`` it may also plant programs on the PATH (grader.path_directory). Not
    downgraded when contained (the workspace is the host's directory). Extraction of members named one by one is
    graded by the caller as writes of those names."""
    call.write(dest, what, cwd=cwd)
    for below in ("bin", ".bin"):  # into a virtualenv or node_modules: its bin is on the PATH (grader.path_directory)
        if dest.value and not dest.value.startswith("-"):
            inner = Word(f"{dest.value.rstrip('/')}/{below}", dest.src)
            why = call.g.path_program(inner, cwd)
            if why is not None:
                call.flag(R.DESTRUCTIVE, "protected-path-write", f"{what} {show(dest)}: {why}.")
                break
    if call.g.at_workspace_root(dest, cwd):
        call.flag(
            R.DESTRUCTIVE,
            "git-control-write",
            f"{what} {show(dest)}, the workspace root: its files are only known when it runs, and may be git hooks or "
            "config or coding agents' settings (.git/hooks, .git/config, .claude, .codex, .gemini, .mcp.json), "
            "which make programs run later.",
        )
    elif call.where(dest, cwd=cwd) is Where.WORKSPACE:
        call.flag(
            R.DESTRUCTIVE,
            "git-control-write",
            f"{what} {show(dest)}: its files are only known when it runs, and may be a nested repository's .git "
            "whose config (core.fsmonitor, core.sshCommand, core.hooksPath) runs programs when git is later run in "
            "that directory (git -C DIR status).",
        )


def chosen_source(call: Call, what: str, *, listed: bool = False) -> None:
    """An install from a source the command names rather than the configured registry (an index URL, a package URL
    or archive, a git repository: ``pip install git+https://...``, ``pip install -i URL``, ``cargo install --git URL``,
    ``npm install github:user/repo``): the package's build code (setup.py or a PEP 517 backend, build.rs, npm's
    install and prepare scripts) runs here, from a source no configured registry vouches for. ``destructive`` on the
    host (rule ``chosen-source``); contained, the download's ``network`` grade stands (the sandbox is discarded).
    A standing approval for the plain install does not cover it: for pip, npm, pnpm, yarn and cargo the pattern must
    spell the source out (bot/risk/meaning.py); for the others (``listed``) the source is put in the command's
    ``chosen_by``, so none covers it."""
    if listed:
        call.rec.chosen_by = [*(call.rec.chosen_by or []), f"{what}: packages from a source the command names"]
    call.flag(R.NETWORK, "package-install", f"{what} downloads packages from another machine.")
    call.flag(
        R.DESTRUCTIVE,
        "chosen-source",
        f"{what} runs build code from a source the command chose (an index, URL or repository, not the configured "
        "registry), code FlyBot does not read.",
        contained_level=R.NETWORK,
    )


def host_destructive(call: Call, rule: str, detail: str) -> None:
    """An irreversible or security-critical change to the machine: ``destructive`` on the host. Contained, the
    program keeps its contained grade (the sandbox is discarded): ``workspace_write`` for the containment allowlist
    (``table.CONTAINED_DOWNGRADE``), ``system`` for the other system commands."""
    from bot.risk.table import CONTAINED_DOWNGRADE

    contained = R.WORKSPACE_WRITE if call.name in CONTAINED_DOWNGRADE else R.SYSTEM
    call.flag(R.DESTRUCTIVE, rule, detail, contained_level=contained)


def tool_plugin(call: Call, what: str) -> None:
    """Code installed into a tool that the tool loads on every later run (poetry self add, pipx inject, yarn plugin
    import, a replaced pnpm or yarn): ``destructive`` (tool-plugin); contained, ``system`` (the sandbox is
    discarded)."""
    call.flag(
        R.DESTRUCTIVE,
        "tool-plugin",
        f"{what} installs code into the tool itself: it runs in every later run of the tool (also the owner's).",
        contained_level=R.SYSTEM,
    )


_SYMBOLIC_SETID = Regex(r"(?:^|,)[DF]?[ugoa]*[+=][rwxXt]*s")


def sets_setid(mode: str) -> bool:
    """True when the mode ``mode`` sets the setuid or setgid bit (chmod(1) "SETUID AND SETGID BITS": octal with a
    4000 or 2000 bit, also after ``=`` or ``+`` (``=4755``, ``+6000``), symbolic ``u+s``, ``g=s``, ``+s``; rsync's
    ``--chmod`` items may start with ``D``/``F``)."""
    if mode.isdigit():
        return len(mode) >= 4 and int(mode[-4]) & 6 != 0
    return (
        any(
            item.lstrip("DF").lstrip("=+").isdigit() and sets_setid(item.lstrip("DF").lstrip("=+"))
            for item in mode.split(",")
        )
        or _SYMBOLIC_SETID.search(mode) is not None
    )


_ROOT_WRAPPERS = ("sudo", "doas", "run0", "pkexec", "su ")


def as_root(call: Call) -> bool:
    """True when the command runs through sudo, doas, run0, pkexec or su (as root, unless the wrapper says
    another user: counted as root all the same, since ``-u`` may name root)."""
    return any(
        w == name.strip() or w.startswith(name.rstrip() + " ") for w in call.rec.wrappers for name in _ROOT_WRAPPERS
    )


def refuse(call: Call, what: str) -> None:
    """A use of a recognised program whose effect the classifier cannot bound (fail closed)."""
    call.flag(R.DESTRUCTIVE, "unrecognised-use", f"{call.name}: {what} is not recognised.")


def first_dynamic(words: list[Word]) -> Word | None:
    """The first word before ``--`` whose value is unknown and could be an option, or None."""
    for word in words:
        if word.value == "--":
            return None
        if word.value is None and not word.operand_only:
            return word
    return None


def injected(call: Call, words: list[Word], *, runs_programs: bool) -> bool:
    """Fail closed on an unknown word where an option could be (``ssh "$HOST"`` may be ``-oProxyCommand=...``).

    ``runs_programs``: the program has options that run programs (destructive); otherwise
    its options can only write files (a write to an unknown place). Returns True when found.
    """
    word = first_dynamic(words)
    if word is None:
        return False
    if runs_programs:
        call.flag(
            R.DESTRUCTIVE, "dynamic-argument", f"{show(word)} may be an option of {call.name} that runs a program."
        )
    else:
        call.write(Word(None, word.src), f"{show(word)} may be an option of {call.name} that writes to")
    return True


def shifted(call: Call, before: list[Word]) -> bool:
    """Fail closed when a word before a wrapped command may split into several (the command would shift)."""
    for word in before:
        if word.splits:
            call.flag(
                R.DESTRUCTIVE,
                "dynamic-argument",
                f"{show(word)} may expand to several words, so the command {call.name} runs is not known.",
            )
            return True
    return False


#: Stands for an argument only known when it runs, in a script rebuilt from an argv (quoted: one word).
UNKNOWN_ARGUMENT = '"$UNKNOWN_ARGUMENT"'


def argv_text(words: list[Word]) -> str:
    """Shell text that passes ``words`` as arguments: each literal word quoted, each unknown one as
    ``"$UNKNOWN_ARGUMENT"`` (one word, value unknown; unquoted when it may split), with a leading space.

    Used to grade an argv another program runs (``docker exec c CMD...``) as a script: the unknown
    word keeps its "may be an option" meaning, and nothing in a literal word is re-parsed as code.
    """
    out: list[str] = []
    for word in words:
        if word.value is not None:
            out.append(shlex.quote(word.value))
        else:
            out.append(UNKNOWN_ARGUMENT.strip('"') if word.splits else UNKNOWN_ARGUMENT)
    return "".join(" " + part for part in out)


def const(level: RiskLevel, rule: str, detail: str, *, downgradable: bool = False) -> Handler:
    """A handler that gives every use of the program the same finding (``{name}`` in detail is filled)."""

    details: dict[str, str] = {}

    def handler(call: Call) -> None:
        name = call.name
        text = details.get(name)
        if text is None:
            text = details[name] = detail.format(name=name)
        call.flag(level, rule, text, downgradable=downgradable)

    return handler


#: The header lines of a patch that name a file (GNU patch(1) "NOTES": unified, context and ``Index:`` headers;
#: git-apply(1) and git-diff(1) "generating patch text": ``diff --git``, ``rename``/``copy`` ``from``/``to``).
_PATCH_HEADERS = ("--- ", "+++ ", "*** ", "Index: ", "Prereq: ", "rename from ", "rename to ", "copy from ", "copy to ")


def patch_names(text: str) -> list[str] | None:
    """Every file name a patch's headers name (both sides, each as its first word and as the whole rest of the line
    before a tab, since patch and git apply read names with spaces differently), or None when a name is quoted
    (C escapes: ``"a/\\056git/config"``) or no header names a file. Lines inside hunks that look like headers count
    too: more names than the tools read, never fewer."""
    names: list[str] = []
    for line in text.splitlines():
        line = line.lstrip(" \t")  # GNU patch reads a patch indented as a whole (as mailed) too
        if line.startswith("diff --git "):
            rests = line[len("diff --git ") :].split()
        else:
            prefix = next((p for p in _PATCH_HEADERS if line.startswith(p)), None)
            if prefix is None:
                continue
            rest = line[len(prefix) :].split("\t", 1)[0].strip()
            rests = [rest, *rest.split()[:1]]
        for rest in rests:
            if not rest or rest in ("/dev/null", "***", "---"):
                continue
            if '"' in rest or "\\" in rest:
                return None
            names.append(rest)
    return names or None


def applies_patch(
    call: Call, text: str | None, dest: Word, what: str, *, label: str, cwd: Word | None = None, git: bool = False
) -> None:
    """A patch applied below the directory ``dest``: ``text`` is the patch when the command line holds it (a literal
    here-document), None when it is read from a file or a pipe. Files a patch names are created as well as changed,
    so a patch can plant git's or a coding agent's control files (``.git/hooks``, a nested ``sub/.git``,
    ``.claude/settings.json``): a patch whose names are known is a write of each name (graded by where it lands,
    control files ``destructive``), one whose names are not known is an extraction of unknown files (:func:`unpacks`).
    ``label``: the program as the card names it; ``git``: git apply/am, whose names carry the ``a/``/``b/``
    prefix."""
    names = patch_names(text) if text is not None else None
    if names is None:
        unpacks(call, dest, what, cwd=cwd)
        return
    call.write(dest, what, cwd=cwd)
    base = dest.value if dest.value and dest.value != "." else None
    for name in dict.fromkeys(names):
        if git and name[:2] in ("a/", "b/") and len(name) > 2:
            name = name[2:]
        path = name if base is None or name.startswith("/") else f"{base.rstrip('/')}/{name}"
        call.write(Word(path, path), f"{label} writes", cwd=cwd)


#: ``NAME @ URL`` (PEP 508 direct reference, given as one word) and the URL forms that name a directory or archive
#: on this machine: ``file://``, ``git+file://`` (pip, uv), npm's ``file:``, yarn's ``link:``/``portal:``.
_NAMED_URL = r"^[A-Za-z0-9][A-Za-z0-9._\-]*(?:\[[^\]]*\])?\s*@\s*(\S.*)$"
_LOCAL_PREFIXES = ("git+file://", "file://", "file:", "link:", "portal:")


def local_package(value: str, *, bare_path: bool) -> str | None:
    """The local path a package spec names (``/tmp/x``, ``../x``, ``~/x``, ``file:../x``, ``file:///tmp/x``,
    ``git+file:///tmp/x#egg=x``, ``x @ file:///tmp/x``, ``link:../x``), without extras and fragment, or None for a
    name, a version or a remote URL. ``bare_path``: a spec holding ``/`` is a path too (pip: "a local directory or
    archive"; npm reads ``user/repo`` as a GitHub repository instead)."""
    spec = value.strip()
    named = re.match(_NAMED_URL, spec)
    if named is not None:
        spec = named.group(1).strip()
    for prefix in _LOCAL_PREFIXES:
        if spec.lower().startswith(prefix):
            rest = spec[len(prefix) :].split("#", 1)[0]
            return (rest.split("?", 1)[0] or "/") if prefix.endswith("//") else (rest or ".")
    if "://" in spec or spec.startswith(("git+", "git@")):
        return None
    if spec.startswith((".", "/", "~")) or (bare_path and "/" in spec.split("[", 1)[0] and named is None):
        return spec.split("[", 1)[0].split("#", 1)[0] or "."
    return None


def local_package_outside(call: Call, specs: list[Word], what: str, *, bare_path: bool = True) -> bool:
    """A package spec of ``specs`` naming a local project directory or archive outside the workspace
    (:func:`local_package`): building or installing it runs its build backend, ``setup.py`` or life cycle scripts,
    code FlyBot does not read: destructive (``project-outside-workspace``), and True."""
    for spec in specs:
        if spec.value is None:
            continue  # an expansion: graded as a dynamic argument by the caller's rules
        path = local_package(spec.value, bare_path=bare_path)
        if path is None or call.where(Word(path, path)) is Where.WORKSPACE:
            continue
        destructive(
            call,
            "project-outside-workspace",
            f"{what} {shorten(spec.src, 60)} takes a local project or archive from outside the workspace: building "
            "or installing it runs its build backend, setup.py or scripts, code FlyBot does not read.",
        )
        return True
    return False
