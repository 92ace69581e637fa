"""``flybot hook install cursor|copilot|cline|opencode``: write (or print, with ``--print``) the hook for a project
(default: the current directory) or for the user (``--user``).

* Cursor: ``.cursor/hooks.json`` (``~/.cursor/hooks.json``): ``{"version": 1, "hooks": {"beforeShellExecution":
  [{"command": "flybot hook cursor", "timeout": 600, "failClosed": true}]}}``, merged with the file's other hooks.
* Copilot CLI: ``.github/hooks/flybot.json`` (``$COPILOT_HOME/hooks/flybot.json``, default ``~/.copilot/hooks``):
  ``{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "flybot hook copilot", "timeoutSec": 600}]}}``.
* Cline: an executable ``PreToolUse`` file in ``.clinerules/hooks/`` (``~/.cline/hooks/``) that runs
  ``flybot hook cline``; a ``PreToolUse`` file there that FlyBot did not write is refused (Cline runs one file per
  name and directory, and replacing someone's hook would drop it).
* OpenCode: the plugin ``.opencode/plugins/flybot.js`` (``$XDG_CONFIG_HOME/opencode/plugins/flybot.js``, default
  ``~/.config/opencode``), from ``bot/hooks/opencode_plugin.js`` with the command and its deadline filled in.

A FlyBot hook already there is replaced, so running the command twice changes nothing; a settings file that is not
a JSON object is refused with one line and left as it is. Files are written atomically. Credentials stay in the
environment (``FLYBOT_URL``, ``FLYBOT_TOKEN``), never in the files, except for Cline: the Cline CLI (a Bun
executable) loads the project directory's ``.env`` into its environment, which its hooks inherit, so its hook runs as
``PYTHON -I -m bot hook cline --settings FILE`` with FILE the hook's settings in FlyBot's state directory
(:mod:`bot.hooks.hook_settings`, written here with the owner's ``FLYBOT_URL`` and ``FLYBOT_TOKEN``, mode 0600).
Copilot CLI, OpenCode and Cursor do not load a project's ``.env``.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from pathlib import Path
from typing import IO, Any

from bot.hooks.install import InstallError, _is_flybot_hook, read_settings, write_atomically

EXIT_OK, EXIT_USAGE = 0, 2
#: The hook's own timeout in the agents' settings, seconds: above the hook's longest ``--wait`` (590).
HOOK_TIMEOUT_S = 600
#: The first line of the Cline hook file FlyBot writes (how a re-install knows the file is its own).
CLINE_MARK = "# FlyBot: ask FlyBot before Cline runs a shell command (flybot hook install cline)"


def target(agent: str, *, project: str | None, user: bool, env: dict[str, str] | None = None) -> Path:
    """The file ``agent``'s hook goes into (see the module docstring)."""
    environ = os.environ if env is None else env
    home = Path(environ.get("HOME") or Path.home())
    if user:
        if agent == "cursor":
            return home / ".cursor" / "hooks.json"
        if agent == "copilot":
            return Path(environ.get("COPILOT_HOME") or home / ".copilot") / "hooks" / "flybot.json"
        if agent == "cline":
            return home / ".cline" / "hooks" / "PreToolUse"
        return Path(environ.get("XDG_CONFIG_HOME") or home / ".config") / "opencode" / "plugins" / "flybot.js"
    root = Path(project or os.getcwd()).resolve()
    if not root.is_dir():
        raise InstallError(f"--project {project}: not a directory")
    return (
        root
        / {
            "cursor": ".cursor/hooks.json",
            "copilot": ".github/hooks/flybot.json",
            "cline": ".clinerules/hooks/PreToolUse",
            "opencode": ".opencode/plugins/flybot.js",
        }[agent]
    )


def hook_argv(agent: str, program: str | None, options: list[str], *, isolated: bool = False) -> list[str]:
    """The hook's command line: ``program`` (default: the flybot running this command, by its absolute path:
    install.this_flybot) ``hook AGENT OPTIONS``; ``isolated`` (and no ``program``): this Python interpreter as
    ``python -I -m bot`` (install.hook_command). Raises InstallError when no flybot is found."""
    from bot.hooks.install import this_flybot

    if isolated and program is None and sys.executable and os.path.isabs(sys.executable):
        return [sys.executable, "-I", "-m", "bot", "hook", agent, *options]
    flybot = program or this_flybot()
    if flybot is None:
        raise InstallError("no flybot program found to run as the hook: pass --program PATH")
    return [flybot, "hook", agent, *options]


def _merged_hooks(existing: dict[str, Any], event: str, entry: dict[str, Any], command_key: str) -> dict[str, Any]:
    """``existing`` (a ``{"version": 1, "hooks": {EVENT: [...]}}`` file) with ``entry`` as its FlyBot hook for ``event``."""
    settings = {"version": 1, **existing}
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise InstallError('its "hooks" is not a JSON object')
    entries = hooks.get(event, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise InstallError(f"its hooks.{event} is not a list of objects")
    kept = [e for e in entries if not _is_flybot_hook({"type": "command", "command": e.get(command_key, "")})]
    settings["hooks"] = {**hooks, event: [*kept, entry]}
    return settings


def content(agent: str, path: Path, argv: list[str], wait_s: float) -> str:
    """The new text of ``path`` for ``agent``'s hook running ``argv`` (merged with what is there).

    Raises:
        InstallError: the file cannot be merged (not JSON, a hook FlyBot did not write, ...).
    """
    command = shlex.join(argv)
    if agent == "cursor":
        entry = {"command": command, "timeout": HOOK_TIMEOUT_S, "failClosed": True}
        return json.dumps(_merged_hooks(read_settings(path), "beforeShellExecution", entry, "command"), indent=2) + "\n"
    if agent == "copilot":
        entry = {"type": "command", "bash": command, "timeoutSec": HOOK_TIMEOUT_S}
        return json.dumps(_merged_hooks(read_settings(path), "preToolUse", entry, "bash"), indent=2) + "\n"
    if agent == "cline":
        if path.exists() and CLINE_MARK not in path.read_text(encoding="utf-8", errors="replace"):
            raise InstallError("a PreToolUse hook FlyBot did not write is there; merge it by hand or move it")
        return f"#!/bin/sh\n{CLINE_MARK}\nexec {command}\n"
    from importlib.resources import files

    plugin = files("bot.hooks").joinpath("opencode_plugin.js").read_text(encoding="utf-8")
    deadline_ms = int((wait_s + 15) * 1000)  # the hook withdraws and answers before --wait ends
    return plugin.replace("__FLYBOT_COMMAND__", json.dumps(argv)).replace("__FLYBOT_DEADLINE_MS__", str(deadline_ms))


def install(
    agent: str,
    *,
    project: str | None,
    user: bool,
    show: bool,
    program: str | None,
    options: list[str],
    wait_s: float,
    stdout: IO[str],
    stderr: IO[str],
) -> int:
    """The command: 0 written (or printed with ``show``), 2 with one line on ``stderr`` when it cannot write."""
    own = None
    if agent == "cline":  # Cline loads the project's .env into its hooks' environment: its own settings file
        from bot.hooks.hook_settings import settings_file

        own = settings_file()
        options = [*options, "--settings", own]
    try:
        path = target(agent, project=project, user=user)
        text = content(agent, path, hook_argv(agent, program, options, isolated=own is not None), wait_s)
    except (InstallError, OSError) as exc:
        print(f"flybot hook install: {exc}; nothing was changed", file=stderr)
        return EXIT_USAGE
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
        if agent == "cline":
            path.chmod(0o755)
    except OSError as exc:
        print(f"flybot hook install: cannot write {path} ({exc.strerror or exc}); nothing was changed", file=stderr)
        return EXIT_USAGE
    print(f"flybot hook install: {agent} hook written to {path}", file=stdout)
    return EXIT_OK


def main_from_args(args: argparse.Namespace) -> int:
    """``flybot hook install AGENT`` for the agents of :mod:`bot.hooks.agent_hook` (the CLI's entry)."""
    import importlib

    from bot.hooks.agent_hook import AGENTS, parse_wait

    agent = args.target
    if args.on_no_decision is not None:
        print(f"flybot hook install: {agent} has no ask: without a decision its hook refuses", file=sys.stderr)
        return EXIT_USAGE
    protocol = importlib.import_module(AGENTS[agent])
    options = ["--contained"] if args.contained else []
    if args.ceiling is not None:
        options += ["--ceiling", args.ceiling.label]
    wait_s = protocol.DEFAULT_WAIT_S
    if args.wait is not None:
        try:
            wait_s = parse_wait(args.wait, agent=agent, maximum=protocol.MAX_WAIT_S)
        except ValueError as exc:
            print(f"flybot hook install: {exc}", file=sys.stderr)
            return EXIT_USAGE
        options += ["--wait", args.wait]
    return install(
        agent,
        project=args.project,
        user=args.user,
        show=args.show,
        program=args.program,
        options=options,
        wait_s=wait_s,
        stdout=sys.stdout,
        stderr=sys.stderr,
    )
