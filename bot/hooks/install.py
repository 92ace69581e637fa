"""``flybot hook install claude-code|codex|gemini``: write (or print) the agent's hook settings, merged with what is there.

Where (``--project DIR``, default the current directory; ``--user`` for the home directory):

* Claude Code: ``DIR/.claude/settings.json`` or ``~/.claude/settings.json`` (``$CLAUDE_CONFIG_DIR/settings.json``
  when set). Events ``PreToolUse`` and ``PermissionRequest`` with the matcher :data:`TOOL_MATCHER` (Bash, the file
  tools, the web tools, Monitor, MCP resource reads and every MCP tool) and ``PreSkillShellCommand`` with the matcher ``Bash`` run
  ``flybot hook claude-code`` (:mod:`bot.hooks.claude_code`; its ``--tools`` chooses which of them FlyBot grades).
* Gemini CLI: ``DIR/.gemini/settings.json`` or ``~/.gemini/settings.json``. The event ``BeforeTool`` with the
  matcher :data:`bot.hooks.gemini.MATCHER` runs ``flybot hook gemini`` with a ``timeout`` of 600000 (milliseconds:
  Gemini CLI runs the call when a hook times out, so it stays above the hook's ``--wait 590``), and
  ``advanced.excludedEnvVars`` gains :data:`GEMINI_EXCLUDED_ENV_VARS` (no ``BASH_ENV`` from a project's ``.env``). Gemini CLI loads the
  project's ``.env`` into the environment its hooks inherit, so the hook is run as ``PYTHON -I -m bot hook gemini
  --settings FILE`` (unless ``--program`` is given): FILE is the hook's settings in FlyBot's state directory
  (:mod:`bot.hooks.hook_settings`, written here with the owner's ``FLYBOT_URL``, ``FLYBOT_TOKEN``,
  ``SSL_CERT_FILE``, ``SSL_CERT_DIR``, mode 0600), and ``-I`` keeps ``PYTHON*`` variables out.
* Codex: ``DIR/.codex/hooks.json`` or ``~/.codex/hooks.json`` (``$CODEX_HOME/hooks.json`` when set). The events
  ``PreToolUse`` (every shell call, also those Codex runs in its sandbox unasked; Codex takes only ``deny`` there)
  and ``PermissionRequest`` with the matcher ``Bash`` run ``flybot hook codex``.

Both files have the shape ``{"hooks": {EVENT: [{"matcher": ..., "hooks": [{"type": "command", "command": ...,
"timeout": SECONDS}]}]}}``. Merging keeps every other key and every other hook; a FlyBot hook already configured
for an event (a command that runs ``flybot hook``) is replaced, so running the command twice changes nothing. An
existing file that is not a JSON object (or whose ``hooks`` is not an object of lists) is refused with one line and
left as it is. The file is written atomically (a temporary file in the same directory, then renamed), keeping its
permission bits.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

#: Events each agent's settings configure for the hook.
EVENTS = {
    "claude-code": ("PreToolUse", "PreSkillShellCommand", "PermissionRequest"),
    "codex": ("PreToolUse", "PermissionRequest"),
    "gemini": ("BeforeTool",),
}
#: The hook's ``timeout`` in the settings, seconds: above the hook's default ``--wait`` of 590 s.
HOOK_TIMEOUT_S = 600
EXIT_OK, EXIT_USAGE = 0, 2


class InstallError(Exception):
    """The settings cannot be merged (one line for the user); nothing was written."""


def settings_path(agent: str, *, project: str | None, user: bool, env: dict[str, str] | None = None) -> Path:
    """The settings file for ``agent`` in the project ``project`` (default: the current directory) or the user's."""
    environ = os.environ if env is None else env
    if user:
        if agent == "gemini":
            return Path.home() / ".gemini" / "settings.json"
        if agent == "codex":
            home = environ.get("CODEX_HOME")
            return Path(home) / "hooks.json" if home else Path.home() / ".codex" / "hooks.json"
        config = environ.get("CLAUDE_CONFIG_DIR")
        return Path(config) / "settings.json" if config else Path.home() / ".claude" / "settings.json"
    root = Path(project or os.getcwd()).resolve()
    if not root.is_dir():
        raise InstallError(f"--project {project}: not a directory")
    if agent == "gemini":
        return root / ".gemini" / "settings.json"
    return root / (".codex/hooks.json" if agent == "codex" else ".claude/settings.json")


def this_flybot() -> str | None:
    """The absolute path of the ``flybot`` program running now (``.venv/bin/flybot hook install``: the script itself;
    ``python -m bot``: the ``flybot`` script beside the interpreter), else ``flybot`` as found on ``PATH``, else None."""
    candidates = [sys.argv[0] if os.path.basename(sys.argv[0]) == "flybot" else None]
    candidates.append(os.path.join(os.path.dirname(sys.executable), "flybot"))
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    return shutil.which("flybot")


def hook_command(agent: str, program: str | None, options: list[str], *, isolated: bool = False) -> str:
    """The shell command the agent runs: ``program`` (default: :func:`this_flybot`, by its absolute path, so the hook
    runs whatever the agent's PATH is) ``hook AGENT`` and ``options``, shell-quoted. ``isolated`` (and no
    ``program``): this Python interpreter by its absolute path as ``python -I -m bot`` instead, so no ``PYTHON*``
    variable of the agent's environment (``PYTHONPATH`` from a project's ``.env``) changes what runs (python(1)
    ``-I``: isolated mode, also ``-E``, ``-s`` and ``-P``).

    Raises:
        InstallError: no ``flybot`` program is found: a hook the agent cannot start would not ask at all.
    """
    if isolated and program is None and sys.executable and os.path.isabs(sys.executable):
        return shlex.join([sys.executable, "-I", "-m", "bot", "hook", agent, *options])
    flybot = program or this_flybot()
    if flybot is None:
        raise InstallError("no flybot program found to run as the hook: pass --program PATH")
    return shlex.join([flybot, "hook", agent, *options])


def _is_flybot_hook(handler: object) -> bool:
    """A handler this command wrote (or one like it): a command hook whose command runs ``flybot hook``."""
    if not isinstance(handler, dict) or handler.get("type") != "command":
        return False
    try:
        words = shlex.split(str(handler.get("command", "")))
    except ValueError:
        return False
    return any(
        (os.path.basename(w) == "flybot" and words[i + 1 : i + 2] == ["hook"])
        or (w == "-m" and words[i + 1 : i + 3] == ["bot", "hook"])
        for i, w in enumerate(words)
    )


def merged(existing: dict[str, Any], agent: str, command: str) -> dict[str, Any]:
    """``existing`` settings with the FlyBot hook for each of ``agent``'s events (see the module docstring).

    Raises:
        InstallError: ``hooks`` is not an object, or an event's entry is not a list of objects.
    """
    settings = dict(existing)
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise InstallError('its "hooks" is not a JSON object')
    hooks = dict(hooks)
    for event in EVENTS[agent]:
        groups = hooks.get(event, [])
        if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
            raise InstallError(f"its hooks.{event} is not a list of objects")
        kept = []
        for group in groups:
            handlers = group.get("hooks", [])
            if not isinstance(handlers, list):
                raise InstallError(f'a hooks.{event} entry\'s "hooks" is not a list')
            others = [h for h in handlers if not _is_flybot_hook(h)]
            if others or not handlers:
                kept.append({**group, "hooks": others} if len(others) != len(handlers) else group)
        matcher = TOOL_MATCHER if agent == "claude-code" and event != "PreSkillShellCommand" else "Bash"
        timeout = HOOK_TIMEOUT_S
        if agent == "gemini":  # a regular expression on Gemini CLI's tool names; its timeout is in milliseconds
            from bot.hooks.gemini import INSTALL_TIMEOUT_MS, MATCHER

            matcher, timeout = MATCHER, INSTALL_TIMEOUT_MS
        kept.append({"matcher": matcher, "hooks": [{"type": "command", "command": command, "timeout": timeout}]})
        hooks[event] = kept
    settings["hooks"] = hooks
    if agent == "gemini":
        settings["advanced"] = _gemini_advanced(settings.get("advanced", {}))
    return settings


def _gemini_advanced(advanced: object) -> dict[str, Any]:
    """Gemini CLI's ``advanced`` settings with :data:`GEMINI_EXCLUDED_ENV_VARS` added to ``excludedEnvVars``
    (Gemini CLI's own default, :data:`GEMINI_DEFAULT_EXCLUDED`, when there is none: the list replaces it).

    Raises:
        InstallError: ``advanced`` is not an object, or its ``excludedEnvVars`` not a list of strings.
    """
    if not isinstance(advanced, dict):
        raise InstallError('its "advanced" is not a JSON object')
    names = advanced.get("excludedEnvVars", list(GEMINI_DEFAULT_EXCLUDED))
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise InstallError("its advanced.excludedEnvVars is not a list of strings")
    return {**advanced, "excludedEnvVars": list(dict.fromkeys([*names, *GEMINI_EXCLUDED_ENV_VARS]))}


#: Gemini CLI's default ``advanced.excludedEnvVars`` (0.61.0 ``DEFAULT_EXCLUDED_ENV_VARS``).
GEMINI_DEFAULT_EXCLUDED = (
    "DEBUG", "DEBUG_MODE", "GEMINI_CLI_IDE_SERVER_STDIO_COMMAND", "GEMINI_CLI_IDE_SERVER_STDIO_ARGS",
)  # fmt: skip
#: Variables Gemini CLI is told not to take from a project's ``.env`` (``advanced.excludedEnvVars``; Gemini CLI
#: loads the first ``.env`` found from the workspace up to the home directory, an ordinary workspace write, into
#: the environment its shell commands and hooks run with). Each makes a program run code the command does not show:
#: bash's startup (``BASH_ENV`` runs a file before every command and before the hook itself starts; ``SHELLOPTS``
#: with ``PS4``), the dynamic loader's, the interpreters' and git's. Gemini CLI unions this list across its
#: settings files, so a project's settings cannot take a name out of it.
GEMINI_EXCLUDED_ENV_VARS = (
    "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT",
    "NODE_OPTIONS", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PERL5OPT", "PERL5LIB", "RUBYOPT", "RUBYLIB",
    "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_COUNT", "GIT_SSH_COMMAND", "GIT_EXEC_PATH", "GIT_DIR",
)  # fmt: skip

#: Claude Code's matcher for the tools the hook can gate (bot/hooks/claude_code.py ``--tools`` chooses among them).
TOOL_MATCHER = (
    "Bash|Read|Grep|Glob|Edit|Write|MultiEdit|NotebookEdit|WebFetch|WebSearch|Monitor|ReadMcpResourceTool|mcp__.*"
)


def read_settings(path: Path) -> dict[str, Any]:
    """The JSON object in ``path`` (``{}`` when there is no file). Raises :class:`InstallError` for anything else."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InstallError(f"not valid JSON ({exc}); fix or move it, then run this again") from None
    if not isinstance(data, dict):
        raise InstallError("not a JSON object")
    return data


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one rename (same directory), keeping the old file's permission bits."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def install(
    agent: str,
    *,
    project: str | None,
    user: bool,
    show: bool,
    program: str | None,
    options: list[str],
    stdout: IO[str],
    stderr: IO[str],
) -> int:
    """The command: 0 written (or printed with ``show``), 2 with one line on ``stderr`` when it cannot merge."""
    try:
        path = settings_path(agent, project=project, user=user)
    except InstallError as exc:
        print(f"flybot hook install: {exc}; nothing was changed", file=stderr)
        return EXIT_USAGE
    own = None
    if agent == "gemini":  # Gemini CLI hands its hooks the project's .env: the hook reads its own settings file
        from bot.hooks.hook_settings import settings_file

        own = settings_file()
        options = [*options, "--settings", own]
    try:
        settings = merged(read_settings(path), agent, hook_command(agent, program, options, isolated=own is not None))
    except InstallError as exc:
        print(f"flybot hook install: {path}: {exc}; nothing was changed", file=stderr)
        return EXIT_USAGE
    text = json.dumps(settings, indent=2) + "\n"
    if show:
        stdout.write(text)
        return EXIT_OK
    try:
        if own is not None:
            from bot.hooks.hook_settings import write

            recorded = write(own)
            print(
                f"flybot hook install: the hook's settings ({', '.join(sorted(recorded)) or 'none: local mode'}) "
                f"written to {own}, mode 0600",
                file=stdout,
            )
        write_atomically(path, text)
    except OSError as exc:
        print(f"flybot hook install: cannot write {path} ({exc.strerror or exc}); nothing was changed", file=stderr)
        return EXIT_USAGE
    print(f"flybot hook install: {agent} hooks for {', '.join(EVENTS[agent])} written to {path}", file=stdout)
    return EXIT_OK


def main_from_args(
    agent: str, project: str | None, user: bool, show: bool, program: str | None, options: list[str]
) -> int:
    """Run against the process's real stdout and stderr (the CLI's entry)."""
    return install(
        agent,
        project=project,
        user=user,
        show=show,
        program=program,
        options=options,
        stdout=sys.stdout,
        stderr=sys.stderr,
    )
