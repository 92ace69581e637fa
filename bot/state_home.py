"""Where FlyBot keeps its own state by default: the user's state directory, outside any agent's workspace.

Standard library only: the agent adapters (:mod:`bot.hooks.gate`) import it on every tool call.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def state_home(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/flybot``, else ``~/.local/state/flybot``: the default home of the store (``flybot.db``) and
    of local mode's state (``local.json``, ``localchat.json``).

    Source: the XDG Base Directory Specification 0.8, which names ``$HOME/.local/state`` the default of
    ``XDG_STATE_HOME`` and says a relative value is invalid and ignored. ``env`` defaults to ``os.environ``; the
    directory is not created here (the store and local mode make it mode 0700).
    """
    env = os.environ if env is None else env
    base = env.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):
        home = env.get("HOME") or str(Path.home())
        base = os.path.join(home, ".local", "state")
    return Path(base) / "flybot"


def default_database_url(env: Mapping[str, str] | None = None) -> str:
    """``FLYBOT_DATABASE_URL``'s default: the SQLite file ``flybot.db`` in :func:`state_home` (an absolute path, so
    four slashes, e.g. ``sqlite+aiosqlite:////home/olivia/.local/state/flybot/flybot.db``)."""
    return f"sqlite+aiosqlite:///{state_home(env) / 'flybot.db'}"


def default_state_dir(env: Mapping[str, str] | None = None) -> str:
    """``FLYBOT_STATE_DIR``'s default: :func:`state_home` itself."""
    return str(state_home(env))
