"""FlyBot's settings: one frozen pydantic-settings model, built once in ``main()`` and passed down.

Sources (highest first): keyword arguments, the process environment, and the one settings file the environment
names in ``FLYBOT_ENV_FILE`` (:data:`ENV_FILE_VARIABLE`), if any. FlyBot's own settings use the ``FLYBOT_`` prefix;
Slack's secrets keep Slack's own names (``SLACK_BOT_TOKEN``, ``SLACK_SIGNING_SECRET``, ``SLACK_APP_TOKEN``).

No file is read implicitly: a ``.env`` in the working directory, which an agent working there can write, is
ignored (with a warning when it sets ``FLYBOT_``/``SLACK_`` names, :func:`ignored_dotenv`), since settings decide
who may approve and which Slack signs a click. The named file is refused unless only its owner, this process's
user or root, may write it (:func:`check_private`). Local mode takes no secret from any setting: its signing
secret, bot token, login key and page credential are made in memory at every start (:func:`bot.app.create_app`).
"""

from __future__ import annotations

import logging
import os
import re
import stat
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.state_home import default_database_url, default_state_dir, state_home

ChatBackend = Literal["local", "slack-http", "slack-socket"]

_USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}\Z")

ENV_FILE_VARIABLE = "FLYBOT_ENV_FILE"
"""The environment variable naming FlyBot's one settings file (``KEY=value`` lines, dotenv syntax); unset or empty:
settings come from the environment alone."""

_DOTENV_KEY = re.compile(
    rb"^[ \t]*(?:export[ \t]+)?(?:FLYBOT_|SLACK_)[A-Za-z0-9_]*[ \t]*=", re.MULTILINE | re.IGNORECASE
)
_DOTENV_READ = 64 * 1024
_log = logging.getLogger(__name__)


class ConfigError(Exception):
    """A missing or contradictory setting; ``str()`` is one line naming it."""


class Settings(BaseSettings):
    """All of FlyBot's configuration.

    Attributes:
        database_url: SQLAlchemy async URL; default the SQLite file ``flybot.db`` in the user's state directory,
            ``$XDG_STATE_HOME/flybot/`` (``~/.local/state/flybot/``, :func:`bot.state_home.state_home`), outside any
            agent's workspace. A ``flybot.db`` in the working directory is never used unless named here.
        database_listen_url: PostgreSQL only: where the replica holds its ``LISTEN`` connection (cross-replica
            wake-ups and cache invalidation, :mod:`bot.store.notify`); default ``database_url``. Set it to
            PostgreSQL itself when ``database_url`` goes through a pooler in transaction mode (PgBouncer), which
            cannot hold a ``LISTEN``; a pooled listen connection is detected and FlyBot falls back to polling.
        admins: Slack user IDs allowed to decide any Bot's escalations (``FLYBOT_ADMINS``, comma-separated).
        host, port: where ``flybot serve`` listens (default 127.0.0.1:8080).
        escalation_timeout_s: default and maximum lifetime of an escalation, seconds (default 600 = 10 minutes).
        slack_bot_token / slack_signing_secret / slack_app_token: Slack credentials. With a bot token FlyBot
            talks to Slack (HTTP mode; Socket Mode when the app token is also set); without, it runs the
            embedded local chat, which uses none of them (it makes its own signing secret in memory at start).
        slack_api_url: base URL of the Slack Web API (``https://slack.com/api/``); tests and operators may point
            it at FlyBot's Slack emulation.
        state_dir: where local mode keeps its demo Bot's token (``local.json``) and its chat history (default the same
            ``$XDG_STATE_HOME/flybot/`` as the store; a ``.flybot`` in the working directory is never used unless named
            here); refused at start when group/world-writable or another user's (:func:`check_private_dir`).
        sweep_interval_s: how often pending escalations are checked for expiry, seconds.
        slack_room_interval_s: least time between two messages FlyBot posts into one room, seconds (pacing).
        recheck_s: long-polls re-read the store at least this often, seconds: the safety net under LISTEN/NOTIFY.
        slack_room_burst: messages a quiet room may take at once before the pace applies (token bucket size).
        slack_timeout_s: how long one Slack Web API call may take, seconds.
        delivery_deadline_s: from a chat job's first attempt, how long failed sends are retried, seconds; a card not
            posted by then ends its escalation ``undeliverable``; an overdue notice stops its room's auto-answers.
        delivery_workers: delivery workers per replica (0: one on SQLite, four on PostgreSQL).
        delivery_lease_s: how long a claimed chat job is one worker's before another may take it (after a crash).
        notice_window_s: standing-approval notices of one Bot and room within this window fold into one message.
        log_format: ``console``, ``json``, or ``auto`` (console in local mode, JSON with Slack).
        event_loop: ``flybot serve``'s event loop: ``uvloop`` (libuv's, a dependency on Linux and macOS),
            ``asyncio`` (the standard library's), or ``auto`` (default: uvloop where it is installed). uvloop takes
            less server CPU per request (``benchmarks/bench_auto_answer.py``).
        local_control: local mode also serves the emulation's fault-injection routes (``/local/slack/control/*``);
            for tests only, off by default (``FLYBOT_LOCAL_CONTROL``).
        max_long_polls: long-polls one replica holds at once; beyond, ``503 busy`` with ``Retry-After`` (also bounded
            by the open-file limit, see :func:`bot.limits.long_poll_capacity`).
        max_connections: HTTP connections one replica holds at once (0, the default: the open-file limit minus the
            descriptors kept for the store, Slack and files, :func:`bot.limits.connection_budget`); a lower value
            applies when set. At the budget ``flybot serve`` stops accepting; its last ``1/32`` is kept for
            ``/healthz``, ``/readyz`` and ``/metrics`` (any other request there: ``503 busy``, ``Retry-After``).
        max_connections_per_ip: connections one client may hold at once: one IPv4 address, all of loopback
            together, an IPv6 /64 (:func:`bot.capacity.client_of`). At the cap a new connection takes the place of
            the client's oldest one without a request in progress; with none, it may ask only for ``/healthz``,
            ``/readyz`` or ``/metrics`` (anything else: ``503 busy``, closed), or, for a Bot's token, in that Bot's
            share of the address (half the cap, :mod:`bot.capacity`). 0: no cap (behind a reverse proxy every connection comes from the proxy's address: cap per
            client there, e.g. nginx ``limit_conn``).
        header_timeout_s: a connection must send each request's line and headers within this many seconds (the
            first from its accept, a later one from its first byte), else it is answered ``408`` and closed (slow
            clients holding descriptors, "slowloris").
        body_timeout_s: a request's body must arrive within this many seconds of its headers, else ``408``.
        keepalive_timeout_s: an idle kept-alive connection is closed after this many seconds (aiohttp's
            ``keepalive_timeout``).
        max_open_escalations: pending escalations one Bot may have at once, across replicas (0: no limit).
        rate_per_minute: escalation requests one Bot may make a minute, across replicas (sliding window; 0: no
            limit). Beyond either: ``429 rate_limited`` with ``Retry-After``.
        room_queue_max: messages for Bots (approval cards, blocked reports' DMs and redraws) one room or DM may have
            waiting to be posted, across replicas; beyond, a request that needs one answers ``429 room_busy`` with
            ``Retry-After`` (0: no cap).
        cache_ttl_s: how long the Bot of a token and the live standing approvals are reused from memory, seconds
            (0: never). On PostgreSQL every change reaches each replica at once through NOTIFY; this bounds the
            delay for a change made by another process on SQLite.
        group_cache_s: how long one replica reuses a Slack user group's members (``usergroups.users.list``) when
            deciding who owns a Bot, seconds; a member removed from the group can decide until then.
        remind_at: when a pending escalation's owners are reminded in its card's thread, as a fraction of its
            lifetime (0.5: halfway); 0: never.
        fallback_after_s: seconds without a decision after which a Bot's fallback approvers (``--fallback-owner``,
            ``--fallback-group``; default the admins) get a DM copy of the card and may decide; 0:
            never. Only for escalations that live longer than this.
        two_person: ``destructive-host``: every Bot's destructive commands on the host need two distinct approvers
            (a Bot's own ``--two-person destructive-host`` asks the same for that Bot alone);
            ``off`` (default): only Bots that ask for it.

    Raises (from :func:`load_settings`):
        ConfigError: a missing or contradictory setting, with one line naming it.
    """

    model_config = SettingsConfigDict(
        env_prefix="FLYBOT_", env_file=None, env_file_encoding="utf-8", extra="ignore", frozen=True
    )

    database_url: str = Field(default_factory=default_database_url)
    database_listen_url: str | None = None
    admins: Annotated[tuple[str, ...], NoDecode] = ()
    host: str = "127.0.0.1"
    port: int = Field(8080, ge=0, le=65535)
    escalation_timeout_s: int = Field(600, ge=5, le=86400)
    slack_bot_token: SecretStr | None = Field(None, validation_alias=AliasChoices("SLACK_BOT_TOKEN", "slack_bot_token"))
    slack_signing_secret: SecretStr | None = Field(
        None, validation_alias=AliasChoices("SLACK_SIGNING_SECRET", "slack_signing_secret")
    )
    slack_app_token: SecretStr | None = Field(None, validation_alias=AliasChoices("SLACK_APP_TOKEN", "slack_app_token"))
    slack_api_url: str = "https://slack.com/api/"
    state_dir: str = Field(default_factory=default_state_dir)
    sweep_interval_s: float = Field(1.0, gt=0, le=60)
    slack_room_interval_s: float = Field(1.0, ge=0, le=60)
    recheck_s: float = Field(2.0, gt=0, le=300)
    slack_room_burst: int = Field(3, ge=1, le=50)
    slack_timeout_s: float = Field(10.0, gt=0, le=120)
    delivery_deadline_s: float = Field(120.0, gt=0, le=86400)
    delivery_workers: int = Field(0, ge=0, le=64)
    delivery_lease_s: float = Field(60.0, gt=0, le=3600)
    notice_window_s: float = Field(60.0, gt=0, le=3600)
    log_format: Literal["auto", "console", "json"] = "auto"
    event_loop: Literal["auto", "uvloop", "asyncio"] = "auto"
    local_control: bool = False
    max_long_polls: int = Field(20000, ge=1, le=1_000_000)
    max_connections: int = Field(0, ge=0, le=1_000_000)
    max_connections_per_ip: int = Field(256, ge=0, le=1_000_000)
    header_timeout_s: float = Field(10.0, gt=0, le=300)
    body_timeout_s: float = Field(30.0, gt=0, le=600)
    keepalive_timeout_s: float = Field(75.0, gt=0, le=3600)
    max_open_escalations: int = Field(20, ge=0, le=100_000)
    rate_per_minute: int = Field(120, ge=0, le=10_000_000)
    room_queue_max: int = Field(200, ge=0, le=1_000_000)
    cache_ttl_s: float = Field(2.0, ge=0, le=300)
    two_person: Literal["off", "destructive-host"] = "off"
    group_cache_s: float = Field(30.0, ge=0, le=3600)
    remind_at: float = Field(0.5, ge=0, lt=1)
    fallback_after_s: float = Field(300.0, ge=0, le=86400)

    @field_validator("admins", mode="before")
    @classmethod
    def _split_admins(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("admins")
    @classmethod
    def _check_admins(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for user in value:
            if not _USER_ID.match(user):
                raise ValueError(f"{user!r} is not a Slack user ID (like U0123ABCD)")
        return value

    @field_validator("slack_bot_token", "slack_signing_secret", "slack_app_token", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        """``SLACK_APP_TOKEN=""`` (set but empty, as templates often leave it) means unset."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("database_url")
    @classmethod
    def _check_database_url(cls, value: str) -> str:
        return check_database_url(value)

    @field_validator("database_listen_url")
    @classmethod
    def _check_listen_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        check_database_url(value)
        if not value.strip().lower().startswith(("postgresql+", "postgres+")):
            raise ValueError("LISTEN needs PostgreSQL: give a postgresql+asyncpg:// URL, or leave it unset")
        return value

    @field_validator("slack_api_url")
    @classmethod
    def _check_api_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must be an http(s) URL")
        return value if value.endswith("/") else value + "/"

    @model_validator(mode="after")
    def _check_chat_backend(self) -> Settings:
        bot = self.slack_bot_token.get_secret_value() if self.slack_bot_token else ""
        app = self.slack_app_token.get_secret_value() if self.slack_app_token else ""
        if app and not bot:
            raise ValueError("SLACK_APP_TOKEN is set but SLACK_BOT_TOKEN is not: Socket Mode needs both")
        if bot and not bot.startswith("xoxb-"):
            raise ValueError("SLACK_BOT_TOKEN must be a bot token starting with xoxb-")
        if app and not app.startswith("xapp-"):
            raise ValueError("SLACK_APP_TOKEN must be an app-level token starting with xapp-")
        if bot and not app and not self.slack_signing_secret:
            raise ValueError("SLACK_SIGNING_SECRET is required when SLACK_BOT_TOKEN is set (HTTP mode)")
        return self

    @model_validator(mode="after")
    def _check_listen_backend(self) -> Settings:
        if self.database_listen_url and not self.database_url.strip().lower().startswith(("postgresql+", "postgres+")):
            raise ValueError("FLYBOT_DATABASE_LISTEN_URL is for PostgreSQL stores only; leave it unset with SQLite")
        return self

    @property
    def chat_backend(self) -> ChatBackend:
        """``local`` without Slack credentials, ``slack-socket`` with an app token, else ``slack-http``."""
        if self.slack_bot_token is None:
            return "local"
        return "slack-socket" if self.slack_app_token is not None else "slack-http"


def check_private(path: Path, what: str) -> None:
    """Refuse a file or directory that can grant or sign unless only this process's user (or root) can change it.

    ``path`` is followed through symbolic links. Raises:
        ConfigError: it is missing, belongs to a user other than this process's or root, or group or others may write
            it (``chmod go-w`` is the fix), e.g. ``the settings file (FLYBOT_ENV_FILE) /etc/flybot.env is writable by
            group or others (mode 0666): run chmod go-w /etc/flybot.env``.
    """
    try:
        found = os.stat(path)
    except OSError as exc:
        raise ConfigError(f"{what} {path} cannot be read: {exc.strerror or exc}") from None
    if found.st_uid not in (os.getuid(), 0):
        raise ConfigError(
            f"{what} {path} belongs to another user (uid {found.st_uid}), not to the user running FlyBot "
            f"(uid {os.getuid()}) or root: FlyBot takes settings and secrets only from its own files"
        )
    if found.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise ConfigError(
            f"{what} {path} is writable by group or others (mode {stat.S_IMODE(found.st_mode):04o}): "
            f"run chmod go-w {path}"
        )


def check_private_dir(path: Path, what: str) -> None:
    """:func:`check_private` for a directory that exists and for every entry directly in it; nothing for a
    directory not made yet (FlyBot makes it mode 0700)."""
    if not path.exists():
        return
    check_private(path, what)
    if not path.is_dir():
        raise ConfigError(f"{what} {path} is not a directory")
    for entry in sorted(path.iterdir()):
        check_private(entry, f"a file in {what}")


def check_private_store(path: Path, what: str = "the SQLite store (FLYBOT_DATABASE_URL)") -> None:
    """Refuse a SQLite store that others may change: it holds the decisions, standing approvals and admin token
    hashes, so a user who may write it can approve. :func:`check_private` for the store file and its ``-wal``,
    ``-shm`` and ``-changes`` files that exist (SQLite gives new ``-wal`` and ``-shm`` files the store's mode), and
    for its directory, which group or others may write only with the sticky bit (``/tmp``: no one else may then
    rename or remove FlyBot's files in it; sqlite.org, "Temporary Files Used By SQLite" names the companions).
    Nothing for a store not made yet (FlyBot makes it mode 0600) beyond its directory, if that exists.

    Raises:
        ConfigError: as :func:`check_private`, naming the file.
    """
    directory = path.parent
    try:
        found = os.stat(directory)
    except OSError:
        return  # made by FlyBot, mode 0700
    if found.st_uid not in (os.getuid(), 0):
        raise ConfigError(
            f"the directory of {what} {directory} belongs to another user (uid {found.st_uid}), not to the user "
            f"running FlyBot (uid {os.getuid()}) or root: that user could replace the store"
        )
    if found.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not found.st_mode & stat.S_ISVTX:
        raise ConfigError(
            f"the directory of {what} {directory} is writable by group or others (mode "
            f"{stat.S_IMODE(found.st_mode):04o}): they could replace the store; run chmod go-w {directory}"
        )
    for name in (path, *(path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-changes"))):
        if os.path.lexists(name):
            check_private(name, what if name == path else f"a file of {what}")


_SQLITE_URL = "sqlite+aiosqlite:////var/lib/flybot/flybot.db"
_POSTGRES_URL = "postgresql+asyncpg://USER:PASSWORD@HOST:5432/flybot"
_URL_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://(.*)$", re.DOTALL)


def check_database_url(value: str) -> str:
    """Check ``FLYBOT_DATABASE_URL`` without importing a driver: FlyBot speaks ``sqlite+aiosqlite`` and
    ``postgresql+asyncpg`` only (source: its dependencies; SQLAlchemy's default drivers are not installed).

    Returns the URL unchanged. Raises ValueError with the fix, e.g. ``use postgresql+asyncpg://...`` for a
    ``postgresql://`` URL; the password is never repeated.
    """
    found = _URL_SCHEME.match(value.strip())
    if not found:
        raise ValueError(f"not a database URL; use {_SQLITE_URL} (a file) or {_POSTGRES_URL}")
    scheme, rest = found.group(1).lower(), found.group(2)
    backend, _, driver = scheme.partition("+")
    if backend in ("postgresql", "postgres"):
        if driver != "asyncpg":
            host = rest.rsplit("@", 1)[-1]
            raise ValueError(f"FlyBot's PostgreSQL driver is asyncpg: use postgresql+asyncpg://USER:PASSWORD@{host}")
        if not rest.rsplit("@", 1)[-1].strip("/"):
            raise ValueError(f"give the host and database, like {_POSTGRES_URL}")
        return value
    if backend == "sqlite":
        if driver != "aiosqlite":
            raise ValueError(f"FlyBot's SQLite driver is aiosqlite: use sqlite+aiosqlite://{rest}")
        if not rest.startswith("/"):
            raise ValueError(
                f"a SQLite URL names a file after three slashes (an absolute path: four), like {_SQLITE_URL}"
            )
        return value
    raise ValueError(f"{backend!r} is not a database FlyBot supports; use {_SQLITE_URL} or {_POSTGRES_URL}")


def settings_file() -> Path | None:
    """The settings file the environment names (``FLYBOT_ENV_FILE``), or None when it names none.

    Raises:
        ConfigError: the name is not an absolute path (a relative one would be looked up in the working directory).
    """
    named = os.environ.get(ENV_FILE_VARIABLE, "").strip()
    if not named:
        return None
    if not os.path.isabs(named):
        raise ConfigError(
            f"{ENV_FILE_VARIABLE} must be an absolute path, not {named!r}: a relative one would be read "
            "from whatever directory FlyBot starts in"
        )
    return Path(named)


def ignored_dotenv(where: Path | None = None) -> str | None:
    """The warning for a ``.env`` in ``where`` (default: the working directory) that sets ``FLYBOT_``/``SLACK_``
    names, which FlyBot does not read; None when there is none. Reads at most the first 64 KiB of a regular file
    (a FIFO or device there is skipped without blocking)."""
    path = (where or Path.cwd()) / ".env"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode) or not _DOTENV_KEY.search(os.read(fd, _DOTENV_READ)):
            return None
    except OSError:
        return None
    finally:
        os.close(fd)
    return (
        f"ignoring {path}: FlyBot reads no settings file from the working directory; name one with "
        f"{ENV_FILE_VARIABLE}=/path/outside/any/agent/workspace, or set the variables in the environment"
    )


def load_settings(**overrides: object) -> Settings:
    """Build :class:`Settings` from ``overrides``, the environment and the file ``FLYBOT_ENV_FILE`` names
    (:func:`settings_file`); logs :func:`ignored_dotenv`'s and :func:`ignored_legacy_state`'s warnings (logger
    ``bot.settings``) when they have one.

    Raises:
        ConfigError: one line naming the first bad setting, e.g.
            ``FLYBOT_PORT: Input should be less than or equal to 65535``; or a named settings file that is missing,
            not a regular file, belongs to a user other than this process's or root, or that group or others may write
            (:func:`check_private`), before anything is read from it.
    """
    path = settings_file()
    if path is not None:
        check_private(path, f"the settings file ({ENV_FILE_VARIABLE})")
        if not path.is_file():
            raise ConfigError(f"the settings file ({ENV_FILE_VARIABLE}) {path} is not a regular file")
    warning = ignored_dotenv()
    if warning is not None and not (path is not None and _same_file(path, Path(".env"))):
        _log.warning(warning)
    try:
        settings = Settings(_env_file=path, **overrides)  # type: ignore[arg-type,call-arg]
    except ValidationError as exc:
        raise ConfigError(_one_line(exc)) from None
    legacy = ignored_legacy_state(settings)
    if legacy is not None:
        _log.warning(legacy)
    return settings


def ignored_legacy_state(settings: Settings, where: Path | None = None) -> str | None:
    """The one-line notice for a ``flybot.db`` or ``.flybot`` in ``where`` (default: the working directory) that
    ``settings`` do not use because they take the default store or state directory (:mod:`bot.state_home`); None
    when there is none, or when the operator named the store and the state directory. An agent working in that
    directory can write them, so FlyBot never picks them up by itself; the notice says how to name them."""
    where = where or Path.cwd()
    named = settings.model_fields_set
    found: list[tuple[Path, str]] = []
    store, state = where / "flybot.db", where / ".flybot"
    if "database_url" not in named and store.exists() and not _same_file(store, state_home() / "flybot.db"):
        found.append((store, f"FLYBOT_DATABASE_URL=sqlite+aiosqlite:///{store.resolve()}"))
    if "state_dir" not in named and state.exists():
        found.append((state, f"FLYBOT_STATE_DIR={state.resolve()}"))
    if not found:
        return None
    return (
        f"ignoring {' and '.join(str(path) for path, _ in found)}: FlyBot keeps its state in {state_home()} "
        f"(outside any agent's workspace); to use {'them' if len(found) > 1 else 'it'} anyway, set "
        f"{' and '.join(setting for _, setting in found)} in the environment or in {ENV_FILE_VARIABLE}'s file"
    )


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


_ENV_NAMES = {
    "slack_bot_token": "SLACK_BOT_TOKEN",
    "slack_signing_secret": "SLACK_SIGNING_SECRET",
    "slack_app_token": "SLACK_APP_TOKEN",
}


def _one_line(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = [str(part) for part in err.get("loc", ()) if part != "__root__"]
    msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
    if not loc:
        return msg
    field = loc[0]
    name = _ENV_NAMES.get(field, field if field.isupper() else f"FLYBOT_{field.upper()}")
    return f"{name}: {msg}"
