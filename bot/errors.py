"""FlyBot's error hierarchy: each error carries a stable ``code`` and the HTTP status it maps to.

The HTTP edge (``bot/api``) turns these into RFC 9457 ``application/problem+json``; chat surfaces show
``str(error)``. Users never see raw exception text or stack traces.
"""

from __future__ import annotations


class FlyBotError(Exception):
    """Base class. ``code`` is stable (clients branch on it); ``status`` is the HTTP status; ``field`` names the bad input."""

    code = "error"
    status = 400
    title = "Request failed"

    retry_after: int | None = None
    """Seconds after which a retry may succeed (sent as ``Retry-After``); None: a retry will not help."""

    def __init__(self, detail: str, *, field: str | None = None, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.field = field
        if retry_after is not None:
            self.retry_after = max(1, int(retry_after + 0.999))


class InvalidRequest(FlyBotError):
    """The request body or parameters are malformed (400/422)."""

    code = "invalid_request"
    status = 422
    title = "Invalid request"


class UnsupportedMediaType(FlyBotError):
    """The body's media type or charset is not one FlyBot reads (415)."""

    code = "unsupported_media_type"
    status = 415
    title = "Unsupported media type"


class Unauthorized(FlyBotError):
    """Missing or unknown bearer token (401)."""

    code = "unauthorized"
    status = 401
    title = "Unauthorized"


class NotFound(FlyBotError):
    """No such resource visible to this caller (404)."""

    code = "not_found"
    status = 404
    title = "Not found"


class ApprovalsClosed(FlyBotError):
    """The session's approval policy is ``never``: there is no escalation (409)."""

    code = "approvals_closed"
    status = 409
    title = "Approvals are closed"


class NoEscalationNeeded(FlyBotError):
    """The session already runs with ``danger-full-access`` (409)."""

    code = "no_escalation_needed"
    status = 409
    title = "No escalation needed"


class NotAllowed(FlyBotError):
    """The actor may not decide this escalation: only the Bot's owners and admins may (403)."""

    code = "not_allowed"
    status = 403
    title = "Not allowed"


class RoomNotAllowed(FlyBotError):
    """A request named a room that is neither the Bot's own nor one the operator allowed for it
    (``flybot bots add/set --allow-room``) (403); nothing was written."""

    code = "room_not_allowed"
    status = 403
    title = "Room not allowed"


class AlreadyDecided(FlyBotError):
    """The escalation is no longer pending; the first decision stands (409)."""

    code = "already_decided"
    status = 409
    title = "Already decided"


class Conflict(FlyBotError):
    """A name or key is already taken (409)."""

    code = "conflict"
    status = 409
    title = "Conflict"


class ShuttingDown(FlyBotError):
    """This replica is shutting down; retry (another replica, or this one after its restart) (503, Retry-After)."""

    code = "shutting_down"
    status = 503
    title = "Shutting down"
    retry_after = 1


class RateLimited(FlyBotError):
    """The Bot is over one of its limits (open escalations, requests a minute): retry after ``Retry-After`` (429).

    The limits are the admission control per Bot: ``FLYBOT_MAX_OPEN_ESCALATIONS`` and ``FLYBOT_RATE_PER_MINUTE``
    (:mod:`bot.store.admission`), and the blocked-host reports' own. ``reason`` names the limit (the metrics label):
    ``rate``, ``open_escalations`` or ``reports``.
    """

    code = "rate_limited"
    status = 429
    title = "Too many requests"
    retry_after = 1

    def __init__(self, detail: str, *, reason: str, retry_after: float | None = None) -> None:
        super().__init__(detail, retry_after=retry_after)
        self.reason = reason


class RoomBusy(FlyBotError):
    """The room's queue of undelivered approval cards is full, or the Bot holds its share of it
    (``FLYBOT_ROOM_QUEUE_MAX``, :func:`bot.store.admission.admit_card`): retry later (429). ``reason`` is
    ``room_queue``."""

    code = "room_busy"
    status = 429
    title = "Room busy"
    retry_after = 5
    reason = "room_queue"


class Busy(FlyBotError):
    """This replica is at capacity (its long-poll cap, or its store connections are all taken): retry (503)."""

    code = "busy"
    status = 503
    title = "Busy"
    retry_after = 1


_PLAIN_CAUSES = (
    ("ClientConnectorError", "could not connect"),
    ("ServerDisconnectedError", "the connection closed before an answer"),
    ("RemoteDisconnected", "the connection closed before an answer"),
    ("ClientPayloadError", "the answer was cut off"),
    ("IncompleteRead", "the answer was cut off"),
    ("ClientResponseError", "an unexpected answer"),
    ("ContentTypeError", "the answer was not JSON"),
    ("JSONDecodeError", "not valid JSON"),
    ("UnicodeDecodeError", "not UTF-8 text"),
    ("TimeoutError", "no answer in time"),
    ("ConnectionRefusedError", "connection refused"),
    ("ConnectionResetError", "the connection was reset"),
    ("SSLError", "a TLS error"),
    ("ClientError", "a network error"),
    ("HTTPException", "an unexpected answer"),
    ("OSError", "a system error"),
    ("ValueError", "a bad value"),
)


def plain_cause(exc: BaseException) -> str:
    """A few plain words for what ``exc`` means, for messages people read (``could not connect``, ``not valid
    JSON``, ``no answer in time``), never its class name (which stays in the logs). Matched by class name along the
    class's MRO so no network or JSON library is imported here; anything else is ``an unexpected error``."""
    names = [cls.__name__ for cls in type(exc).__mro__]
    for name, words in _PLAIN_CAUSES:
        if name in names:
            return words
    return "an unexpected error"
