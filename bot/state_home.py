"""Where FlyBot keeps its own state by default: the user's state directory, outside any agent's workspace.

Standard library only: the agent adapters (:mod:`bot.hooks.gate`, the classifier) import it on every tool call, so
they use :func:`default_state_dir` (a string, :mod:`os.path`); :mod:`pathlib` (with :mod:`urllib.parse`, a few
milliseconds) is imported only by :func:`state_home`.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing stays unloaded (bot/values.py)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path


def default_state_dir(env: Mapping[str, str] | None = None) -> str:
    """``$XDG_STATE_HOME/flybot``, else ``~/.local/state/flybot``: the default home of the store (``flybot.db``) and
    of local mode's state (``local.json``, ``localchat.json``), and ``FLYBOT_STATE_DIR``'s default.

    Source: the XDG Base Directory Specification 0.8, which names ``$HOME/.local/state`` the default of
    ``XDG_STATE_HOME`` and says a relative value is invalid and ignored. ``env`` defaults to ``os.environ``; without
    ``HOME`` the home directory is ``os.path.expanduser("~")``'s. The directory is not created here (the store and
    local mode make it mode 0700).
    """
    env = os.environ if env is None else env
    base = env.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):
        home = env.get("HOME") or os.path.expanduser("~")
        base = os.path.join(home, ".local", "state")
    return os.path.join(base, "flybot")


def state_home(env: Mapping[str, str] | None = None) -> Path:
    """:func:`default_state_dir` as a :class:`~pathlib.Path`."""
    from pathlib import Path

    return Path(default_state_dir(env))


def default_database_url(env: Mapping[str, str] | None = None) -> str:
    """``FLYBOT_DATABASE_URL``'s default: the SQLite file ``flybot.db`` in :func:`state_home` (an absolute path, so
    four slashes, e.g. ``sqlite+aiosqlite:////home/olivia/.local/state/flybot/flybot.db``)."""
    return f"sqlite+aiosqlite:///{state_home(env) / 'flybot.db'}"
