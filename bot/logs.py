"""structlog set-up: console lines in local mode, JSON lines in production; context vars carry request ids.

Console lines, and the stdlib loggers' plain lines in the console format, show every hidden or control character of
logged data as ``⟨U+001B⟩`` (:func:`console_safe`, :func:`shown`): a command holding ``ESC[...`` sequences or bidi
controls cannot drive the terminal or disguise a line. JSON lines escape them already (``json.dumps``). In the JSON
format every line is JSON, the stdlib loggers' records too (:class:`_JsonRecordFormatter`).

No log line carries a secret:
- exceptions are rendered without local variables (a frame's locals held the bearer token in clear);
- fields whose name says secret (``token``, ``authorization``, ``secret``, ``password``, ``signature``, ``cookie``,
  ``key``) are replaced by ``[redacted]``;
- in every rendered string (event fields, tracebacks, and the stdlib loggers' lines: aiohttp, slack_sdk, asyncio),
  FlyBot's token shapes (``fbt_...``), Slack's (``xoxb-``, ``xoxp-``, ``xapp-``, ...), ``Bearer ...`` values and the
  configured secrets themselves are replaced by ``[redacted]``, and so is the password of any URL written
  ``scheme://user:password@host`` (the database URL's).
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Iterable, MutableMapping
from datetime import UTC, datetime
from typing import Any

import structlog
from structlog.tracebacks import ExceptionDictTransformer

REDACTED = "[redacted]"
_SECRET_FIELD = re.compile(r"token|authorization|secret|password|passwd|signature|cookie|(^|_)key$|api_?key", re.I)
_SECRET_SHAPES = [
    r"fbt_[A-Za-z0-9_\-]{8,}",
    r"xox[abposre]-[A-Za-z0-9\-]{6,}",
    r"xapp-[A-Za-z0-9\-]{6,}",
    r"(?<=[Bb][Ee][Aa][Rr][Ee][Rr][ \t])[ \t]*[^\s'\",}\]]+",
    r"v0=[0-9a-f]{16,}",
]
"""The token shapes. No ``\\b`` before them: a token after a word character is still a token, and escaping
or encoding puts one there: ``repr()`` or JSON of a text with the token after a newline or a tab (``\\nfbt_...``),
a URL-encoded ``Bearer%20fbt_...`` or ``a%3Dfbt_...``. Likewise ``Bearer`` followed by a tab or by more than one
blank."""
_SHAPE_LITERALS = ("fbt_", "xox", "xapp-", "r ", "R ", "\t", "v0=")
"""Text each of :data:`_SECRET_SHAPES` needs to match, in order (``Bearer``'s: an ``r`` or ``R`` and a blank, or a tab):
a string holding none of these, no configured secret and no ``://`` with an ``@`` (:data:`_URL_PASSWORD`) cannot
match, and is not searched (:meth:`Redactor.text`). Keep it in step with the shapes."""

_URL_PASSWORD = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*:)[^\s/@]+@")


_CONFIGURED: Redactor | None = None
"""The redactor of :func:`configure_logging`, for :func:`also_redact`."""


class Redactor:
    """Replaces secrets in strings: known token shapes and the exact ``secrets`` given (each at least 6 chars).

    Strings found clean (no secret shape, no configured secret, no URL password) are remembered, at most
    :data:`CLEAN_MAX` of them and each at most :data:`CLEAN_MAX_CHARS` long: a log line's repeated values (event
    names, ids, levels) then cost one set lookup instead of two regex passes.
    :meth:`add` starts a fresh set, so a string remembered clean is never printed after it became a secret.
    Thread-safe: the patterns and their set are replaced together (a thread still holding the old ones adds to a set
    nobody reads any more).
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets: set[str] = set()
        self._state: tuple[re.Pattern[str], re.Pattern[str], set[str], tuple[str, ...]]
        self.add(secrets)

    def add(self, secrets: Iterable[str]) -> None:
        """Also replace these exact values (each at least 6 characters) from now on."""
        self._secrets |= {s for s in secrets if s and len(s) >= 6}
        exact = sorted((re.escape(s) for s in self._secrets), key=len, reverse=True)
        pattern = re.compile("|".join([*exact, *_SECRET_SHAPES]))
        # One search that finds anything either substitution of text() would change.
        anything = re.compile(f"{pattern.pattern}|{_URL_PASSWORD.pattern}")
        self._state = (pattern, anything, set(), (*_SHAPE_LITERALS, *self._secrets))

    def text(self, value: str) -> str:
        """``value`` with every secret replaced by ``[redacted]``, and a URL's password (``scheme://user:PASSWORD@``,
        e.g. a ``FLYBOT_DATABASE_URL``) too.

        A string holding none of the texts a secret needs (:data:`_SHAPE_LITERALS`, the configured secrets, ``://``
        and ``@``) is returned without a search: each request's new ids (an escalation's) cost a few substring tests
        instead of the pattern's search.
        It is remembered clean too, so that the values a line repeats (its event name, a Bot's id, a risk) cost one
        set lookup instead of ten substring tests each; the new ids fill the memory, which then starts afresh
        every :data:`CLEAN_MAX` lines or so."""
        pattern, anything, clean, needles = self._state
        if value in clean:
            return value
        for needle in needles:
            if needle in value:
                break
        else:
            if "://" not in value or "@" not in value:
                return self._clean(value, clean)
        if anything.search(value) is None:
            return self._clean(value, clean)
        return _URL_PASSWORD.sub(rf"\1{REDACTED}@", pattern.sub(REDACTED, value))

    @staticmethod
    def _clean(value: str, clean: set[str]) -> str:
        """Remember ``value`` clean (when at most :data:`CLEAN_MAX_CHARS` long; the memory starts afresh when full)."""
        if len(value) <= CLEAN_MAX_CHARS:
            if len(clean) >= CLEAN_MAX:
                clean.clear()
            clean.add(value)
        return value

    def value(self, value: Any) -> Any:
        """Strings redacted; dicts (their keys too), lists and tuples walked; numbers, booleans and None as they are;
        anything else (bytes, an exception, a datetime, any object) as the text the renderers write for it
        (``__structlog__()``, else ``repr()``), redacted: it is rendered after this processor, so a token in an
        exception's message or in bytes given as a field, or in a dict key, would otherwise be printed whole."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {
                (self.text(k) if isinstance(k, str) else k): REDACTED
                if isinstance(k, str) and secret_field(k)
                else self.value(v)
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, tuple):
            return tuple(self.value(v) for v in value)
        if value is None or isinstance(value, int | float):
            return value
        shown = _json_fallback(value)
        if isinstance(shown, str):
            return self.text(shown)
        if shown is None or isinstance(shown, dict | list | tuple | int | float):
            return self.value(shown)
        return self.text(repr(shown))

    def __call__(self, _logger: Any, _name: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
        """A structlog processor: secret-named fields redacted, secrets in every other value redacted."""
        clean = self._state[2]
        known = _SECRET_FIELDS
        for key, value in event.items():
            secret = known.get(key)
            if secret is None:
                secret = secret_field(key)
            if secret:
                event[key] = REDACTED
            elif value.__class__ is str:
                if value not in clean:  # (a string remembered clean is its own redaction)
                    event[key] = self.text(value)
            elif value.__class__ is list and all(item.__class__ is str and self.text(item) is item for item in value):
                pass  # a list of clean strings (ids) is its own redaction: not copied
            elif value is not None and value.__class__ not in _PLAIN:
                event[key] = self.value(value)
        return event


_PLAIN = frozenset({bool, int, float})
"""Types whose values hold no text, so no secret."""


CLEAN_MAX = 4096
"""At most this many strings are remembered clean by a :class:`Redactor` (then it starts afresh)."""
CLEAN_MAX_CHARS = 256
"""Longer strings (tracebacks, messages) are searched each time, never remembered."""
_SECRET_FIELDS: dict[str, bool] = {}


def secret_field(name: str) -> bool:
    """True when a field's name says it holds a secret (:data:`_SECRET_FIELD`), remembered per name (bounded)."""
    found = _SECRET_FIELDS.get(name)
    if found is None:
        found = _SECRET_FIELD.search(name) is not None
        if len(_SECRET_FIELDS) >= CLEAN_MAX:
            _SECRET_FIELDS.clear()
        _SECRET_FIELDS[name] = found
    return found


def shown(text: str, *, multiline: bool = False) -> str:
    """``text`` as a console line may show it: every hidden or control character (ESC, BEL, CR, bidi controls,
    zero-width characters, ...) as ``⟨U+001B⟩`` (:func:`bot.risk.hidden.reveal`), so logged data can neither send
    a terminal an escape sequence nor reorder, hide or fake a line. Newline and tab stay when ``multiline`` (a
    traceback). Printable ASCII is returned as is without loading :mod:`bot.risk` (tens of milliseconds)."""
    if text.isascii() and text.isprintable():
        return text
    from bot.risk.hidden import reveal

    return reveal(text, multiline=multiline)


_MULTILINE_FIELDS = frozenset({"exception", "stack"})
"""Console fields whose line breaks are the renderer's own layout (a traceback, a stack)."""


def console_safe(_logger: Any, _name: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """The console format's processor, after the :class:`Redactor`: every string field (the event's message too)
    through :func:`shown`. The renderer writes other values with ``repr()``, which escapes the same characters
    (``str.isprintable``); the Redactor has already turned any other object into a string."""
    for key, value in event.items():
        if value.__class__ is str and not (value.isascii() and value.isprintable()):
            event[key] = shown(value, multiline=key in _MULTILINE_FIELDS)
    return event


class _RedactingFormatter(logging.Formatter):
    """The stdlib loggers' formatter (aiohttp, slack_sdk, asyncio) in the console format (its lines are plain text): the
    message and the traceback are shown with :func:`shown` (the traceback keeps its line breaks), then the whole
    line passes through the :class:`Redactor`; stdlib tracebacks never include local variables."""

    def __init__(self, redactor: Redactor, fmt: str) -> None:
        super().__init__(fmt)
        self._redactor = redactor

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 - logging.Formatter's name
        return shown(super().formatMessage(record))

    def formatException(self, ei: Any) -> str:  # noqa: N802 - logging.Formatter's name
        return shown(super().formatException(ei), multiline=True)

    def formatStack(self, stack_info: str) -> str:  # noqa: N802 - logging.Formatter's name
        return shown(super().formatStack(stack_info), multiline=True)

    def format(self, record: logging.LogRecord) -> str:
        return self._redactor.text(super().format(record))


class _JsonRecordFormatter(logging.Formatter):
    """The stdlib loggers' formatter in the JSON format (aiohttp, slack_sdk, slack_bolt's ``flybot.bolt``, asyncio,
    ``bot.settings``): each record is one JSON line as structlog's are, ``{"event": message, "logger": name,
    "level", "timestamp"}`` and ``"exception"`` (the traceback's text, without local variables) when the record
    carries one, every value through the :class:`Redactor` first. A log shipper that parses JSON then reads every
    line the process writes."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self._redactor = redactor
        self._line = JsonLine()

    def format(self, record: logging.LogRecord) -> str:
        event: dict[str, Any] = {"event": record.getMessage(), "logger": record.name}
        if record.exc_info:
            event["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            event["stack"] = self.formatStack(record.stack_info)
        return self._line(None, record.levelname.lower(), self._redactor(None, "", event))


_LEVELS = {"warn": "warning", "exception": "error"}
"""structlog's ``add_log_level`` names: the method's name, but these two."""


def _json_fallback(value: Any) -> Any:
    """What structlog's JSON renderer writes for a value JSON has no form for: its ``__structlog__()``, else ``repr``."""
    try:
        return value.__structlog__()
    except AttributeError:
        return repr(value)


class JsonLine:
    """The JSON format's last processor: adds ``level`` and ``timestamp`` (ISO 8601 UTC, ``Z``) as structlog's
    ``add_log_level`` and ``TimeStamper(fmt="iso", utc=True)`` do, and renders the line as its ``JSONRenderer`` does
    (``json.dumps``: ASCII only, so a hidden character shows as an escape), in one step with one encoder (not
    three processors and a new encoder per line). Runs after the :class:`Redactor`: the level and the time are
    FlyBot's own values (they replace any given), never a secret."""

    def __init__(self) -> None:
        self._encode = json.JSONEncoder(default=_json_fallback).encode

    def __call__(self, _logger: Any, name: str, event: MutableMapping[str, Any]) -> str:
        event["level"] = _LEVELS.get(name, name)
        event["timestamp"] = datetime.now(UTC).isoformat().replace("+00:00", "Z")
        return self._encode(event)


def configure_logging(fmt: str, *, level: int = logging.INFO, secrets: Iterable[str] = ()) -> None:
    """Configure structlog and the stdlib root logger once.

    Args:
        fmt: ``console`` (human lines) or ``json`` (one JSON object a line).
        level: the minimum level (``logging.INFO`` by default).
        secrets: values never to print (the Slack bot token, signing secret, app token), besides the known shapes.
    """
    global _CONFIGURED
    redactor = _CONFIGURED = Redactor(secrets)
    exceptions: structlog.typing.Processor = (
        structlog.processors.ExceptionRenderer(ExceptionDictTransformer(show_locals=False))
        if fmt == "json"
        else structlog.processors.format_exc_info
    )
    # After the redactor: the level and the time are FlyBot's own values (they replace any given), never a secret,
    # and the time is new on every line (nothing to remember).
    last: list[structlog.typing.Processor] = (
        [JsonLine()]
        if fmt == "json"
        else [
            console_safe,  # JSON needs none: json.dumps writes every control and non-ASCII character as an escape
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.dev.ConsoleRenderer(colors=False, exception_formatter=structlog.dev.plain_traceback),
        ]
    )
    structlog.configure(
        processors=[structlog.contextvars.merge_contextvars, exceptions, redactor, *last],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        # WriteLogger: the line and its newline in one write (print() makes two system calls a line).
        logger_factory=structlog.WriteLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        _JsonRecordFormatter(redactor)
        if fmt == "json"
        else _RedactingFormatter(redactor, "%(levelname)s %(name)s: %(message)s")
    )
    logging.basicConfig(level=logging.WARNING, handlers=[handler])  # no-op if the root logger already has handlers
    from bot.refusals import ParserErrorFilter

    server_log = logging.getLogger("aiohttp.server")  # unparsable HTTP: one JSON line per connection, no traceback
    if not any(isinstance(f, ParserErrorFilter) for f in server_log.filters):
        server_log.addFilter(ParserErrorFilter())


_CREDENTIAL_HEADER = re.compile(
    r"(?i)((?<![A-Za-z0-9_-])[A-Za-z0-9_-]*"
    r"(?:auth|cookie|session|token|secret|signature|passw|credential|key)"
    r"[A-Za-z0-9_-]*[^:\n]{0,64}:)[^\n]+"
)
"""A header line whose name says it carries a credential (``Authorization`` and ``Proxy-Authorization`` of any
scheme, ``Cookie``, ``Set-Cookie``, ``X-FlyBot-Session``, ``X-Slack-Signature``, ``X-Api-Key``, any ``...Token``),
up to its colon (control characters or their escapes before the colon too), and the rest of its line: the value,
and whatever follows it on that line."""


def redact_header_values(text: str) -> str:
    """``text`` (an HTTP parser's message quoting raw header lines, ``b'Cookie: a=b\\x01'``) with the value of
    every credential-bearing header (:data:`_CREDENTIAL_HEADER`) replaced by ``[redacted]``: the name stays, and
    everything after it on the same line goes (fail closed: a value holding a quote cannot end the redaction early).
    The log's :class:`Redactor` runs on the result too."""
    return _CREDENTIAL_HEADER.sub(rf"\1 {REDACTED}", text)


class HeldRecords(logging.Handler):
    """Holds the records of one stdlib logger (``bot.settings``: its warnings while the settings are read, before
    the log format is known) until :meth:`replay` logs them again, through the handler :func:`configure_logging`
    set up by then: in the JSON format they are JSON lines like every other. Replayed before logging is configured
    (an early exit), they are written as Python writes any record then.

    Args:
        name: the logger's name.
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []
        self._logger: logging.Logger | None = logging.getLogger(name)
        self._propagate = self._logger.propagate
        self._logger.addHandler(self)
        self._logger.propagate = False

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def replay(self) -> None:
        """Stop holding and log the held records again (in order); later calls do nothing."""
        logger, self._logger = self._logger, None
        if logger is None:
            return
        logger.removeHandler(self)
        logger.propagate = self._propagate
        records, self.records = self.records, []
        for record in records:
            logger.handle(record)


def also_redact(*secrets: str) -> None:
    """Secrets made after start-up (local mode's login key and page credential): never printed from now on.

    A no-op before :func:`configure_logging` (tests that build the app themselves log through their own set-up).
    """
    if _CONFIGURED is not None:
        _CONFIGURED.add(secrets)


_ASSIGNED_SECRET = re.compile(
    r"(?i)(\b[A-Za-z0-9_]*(?:token|secret|password|passwd|api_?key|access_?key|private_?key)[A-Za-z0-9_]*"
    r"[ \t]*[=:][ \t]*|--(?:[A-Za-z0-9-]*-)?(?:token|secret|password|passwd|api-?key)(?:=|[ \t]+))"
    r"(?!\[redacted\])(\"[^\"]*\"|'[^']*'|[^\s\"',;&|]+)"
)
"""A value assigned to a secret-named variable or option in a command's text (``AWS_SECRET_ACCESS_KEY=...``,
``DB_PASSWORD: ...``, ``--password=...``, ``--api-key ...``): the value goes, the name stays."""


def redact_text(text: str) -> str:
    """``text`` as FlyBot shows a record of it (audit output): what log lines redact (:class:`Redactor`: token shapes,
    the configured secrets, a URL's password) and, since a command's text is no field name, a value assigned to a
    secret-named variable or option (:data:`_ASSIGNED_SECRET`), each replaced by ``[redacted]``."""
    redactor = _CONFIGURED if _CONFIGURED is not None else _shapes()
    return _ASSIGNED_SECRET.sub(rf"\1{REDACTED}", redactor.text(text))


_SHAPES: list[Redactor] = []


def _shapes() -> Redactor:
    """A redactor of the token shapes only (before :func:`configure_logging`: an operator command's)."""
    if not _SHAPES:
        _SHAPES.append(Redactor())
    return _SHAPES[0]
