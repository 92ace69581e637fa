"""The hook's own settings file: where a hook an agent runs gets FlyBot's URL, token and state directory when the
agent hands it an environment the workspace can change.

Gemini CLI loads the project's ``.env`` (the working directory's, else a parent's up to the repository root) into its
own environment in a trusted folder, every variable but ``DEBUG`` and ``DEBUG_MODE``, when the variable is not set
already (Gemini CLI's configuration reference, "Environment variables and ``.env`` files"; 0.61.0's
``loadEnvironment``), and its hooks inherit that environment (its hooks reference, "Environment variables"). A
``.env`` is a file the agent writes like any other, so nothing such a hook reads from the environment is
configuration: ``FLYBOT_URL``/``FLYBOT_TOKEN`` would send the escalation to another server, ``FLYBOT_STATE_DIR`` or
``XDG_STATE_HOME`` would read local mode's ``local.json`` and the program rules' copy from the workspace,
``SSL_CERT_FILE``/``SSL_CERT_DIR`` would trust another CA for an ``https://`` FlyBot, and ``PYTHONPATH`` would import
the workspace's code in place of FlyBot's.

So ``flybot hook install gemini`` writes ``hook-settings.json`` in FlyBot's state directory (the owner's
``FLYBOT_STATE_DIR``, else :func:`bot.state_home.default_state_dir`, when they install), mode 0600 in a directory
made 0700, and the hook command it writes names that file by its absolute path (``--settings PATH``) and runs Python
isolated (``python -I -m bot``: no ``PYTHON*`` variable, no user site-packages, no working directory on
``sys.path``). The file is ``{"url": ..., "token": ..., "ssl_cert_file": ..., "ssl_cert_dir": ...}``, each key
optional: the URL and token the owner's environment held at install (``FLYBOT_URL``, ``FLYBOT_TOKEN``), and their
``SSL_CERT_FILE``/``SSL_CERT_DIR``. Given ``--settings``, the hook (:func:`apply`) drops the variables above from its
own environment, puts back the recorded certificate locations, and takes the state directory from the file's
directory (local mode's ``local.json`` and the program rules' copy are read there). A settings file that is not the
user's own regular file, readable or writable by others, in a directory others can write, or not such a JSON object
is refused (:class:`SettingsError`): the hook then denies, saying why.

The session client (:mod:`bot.client`) opens its own sockets and reads no proxy variable; they are dropped all the
same. Standard library only: the hook runs on every tool call.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile

TYPE_CHECKING = False  # typing stays unloaded: the hook runs on every tool call (bot/values.py)
if TYPE_CHECKING:
    from collections.abc import Mapping, MutableMapping

SETTINGS_FILE = "hook-settings.json"
#: Variables the hook drops from its environment when it runs from its settings file: FlyBot's own, the state home's,
#: the TLS trust store's (OpenSSL's ``SSL_CERT_FILE``/``SSL_CERT_DIR``, which Python's default context reads) and
#: the proxies' (curl(1) ENVIRONMENT spellings), whatever their case.
DROPPED = (
    "FLYBOT_URL", "FLYBOT_TOKEN", "FLYBOT_STATE_DIR", "XDG_STATE_HOME", "SSL_CERT_FILE", "SSL_CERT_DIR",
    "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
)  # fmt: skip
_KEYS = ("url", "token", "ssl_cert_file", "ssl_cert_dir")
MAX_BYTES = 64 * 1024


class SettingsError(ValueError):
    """The settings file cannot be trusted or read (one line naming the file and why)."""


def load(path: str) -> dict[str, str]:
    """The settings in ``path`` (only the keys present, each a non-empty string).

    Raises:
        SettingsError: ``path`` is not absolute; it or its directory is not the user's own (a symbolic link, another
            owner, a file others may read or write, a directory others may write); it is larger than
            :data:`MAX_BYTES`; it is not a JSON object of strings; its ``url`` is not ``http://`` or ``https://``.
    """
    if not os.path.isabs(path):
        raise SettingsError(f"the hook settings {path!r} are not named by an absolute path")
    uid = os.geteuid()
    try:
        folder = os.lstat(os.path.dirname(path))
        info = os.lstat(path)
    except OSError as exc:
        raise SettingsError(f"cannot read the hook settings {path} ({exc.strerror or exc})") from None
    if not stat.S_ISDIR(folder.st_mode) or folder.st_uid != uid or folder.st_mode & 0o022:
        raise SettingsError(f"the directory of the hook settings {path} is not yours alone (owner, mode)")
    if not stat.S_ISREG(info.st_mode) or info.st_uid != uid or info.st_mode & 0o077:
        raise SettingsError(
            f"the hook settings {path} are not your own file of mode 0600 (mode {stat.S_IMODE(info.st_mode):04o})"
        )
    if info.st_size > MAX_BYTES:
        raise SettingsError(f"the hook settings {path} are over {MAX_BYTES} bytes")
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError) as exc:
        raise SettingsError(f"cannot read the hook settings {path} ({exc})") from None
    if not isinstance(data, dict) or any(k in data and not isinstance(data[k], str) for k in _KEYS):
        raise SettingsError(f"the hook settings {path} are not a JSON object of strings")
    settings = {k: data[k] for k in _KEYS if data.get(k)}
    if "url" in settings and not settings["url"].startswith(("http://", "https://")):
        raise SettingsError(f"the hook settings {path} name a URL that is not http:// or https://")
    return settings


def apply(path: str, environ: MutableMapping[str, str] | None = None) -> tuple[str | None, str | None]:
    """Load ``path`` (:func:`load`) and make ``environ`` (default ``os.environ``, this process's) hold only what the
    settings say: :data:`DROPPED` removed (any case), ``FLYBOT_STATE_DIR`` the settings' directory, the recorded
    ``SSL_CERT_FILE``/``SSL_CERT_DIR`` put back. Returns the settings' URL and token (None where absent: the state
    directory's ``local.json``, then the default URL, as :func:`bot.hooks.gate.find_server` resolves them).

    Raises:
        SettingsError: as :func:`load`; ``environ`` is then unchanged.
    """
    settings = load(path)
    environ = os.environ if environ is None else environ
    dropped = {name.upper() for name in DROPPED}
    for name in [n for n in environ if n.upper() in dropped]:
        del environ[name]
    environ["FLYBOT_STATE_DIR"] = os.path.dirname(path)
    for key in ("ssl_cert_file", "ssl_cert_dir"):
        if key in settings:
            environ[key.upper()] = settings[key]
    return settings.get("url"), settings.get("token")


def settings_file(env: Mapping[str, str] | None = None) -> str:
    """Where ``flybot hook install`` keeps the settings: ``hook-settings.json`` in ``FLYBOT_STATE_DIR`` (absolute),
    else in :func:`bot.state_home.default_state_dir`."""
    from bot.state_home import default_state_dir

    env = os.environ if env is None else env
    return os.path.abspath(os.path.join(env.get("FLYBOT_STATE_DIR") or default_state_dir(env), SETTINGS_FILE))


def write(path: str, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """Record the owner's ``FLYBOT_URL``, ``FLYBOT_TOKEN``, ``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` (``env``, default
    ``os.environ``; absent ones are left out) in ``path``, mode 0600, replaced in one rename; its directory is made
    (mode 0700) when missing. Returns what was written. Raises :class:`OSError` when it cannot be written."""
    env = os.environ if env is None else env
    names = {
        "url": "FLYBOT_URL",
        "token": "FLYBOT_TOKEN",
        "ssl_cert_file": "SSL_CERT_FILE",
        "ssl_cert_dir": "SSL_CERT_DIR",
    }
    settings = {key: env[name] for key, name in names.items() if env.get(name)}
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{SETTINGS_FILE}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(settings, file, indent=2)
            file.write("\n")
            file.flush()
            os.fsync(file.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return settings
