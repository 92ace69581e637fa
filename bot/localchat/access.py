"""Who may use the local chat page: a login key printed once by ``flybot serve``, exchanged for a session cookie.

In local mode the page's API takes a person's clicks (Approve, Deny, slash commands) and acts as whichever user
the page picks. Without a credential any local process -- the agent under review included -- could approve its own
escalation. So the page and its API answer only a browser holding this server's session cookie, and the only way
to get that cookie is the login URL (``http://127.0.0.1:8080/?key=...``), printed to the terminal that started
the server and written to no file (source: issue 11 §1; the same scheme as notebook servers' token URLs).

Both secrets live in this process's memory only and are new on every start.
"""

from __future__ import annotations

import hmac
import secrets

from aiohttp import web

from bot.logs import also_redact

COOKIE_NAME = "flybot_local_session"


class PageAccess:
    """The login key and the session cookie of one local chat server.

    Attributes:
        key: the secret in the login URL (``?key=...``), 32 URL-safe characters; print it, never write it to a file.
        cookie_name: the cookie's name (``flybot_local_session``).
    """

    def __init__(self, key: str | None = None, session: str | None = None) -> None:
        self.key = key or secrets.token_urlsafe(24)
        self._session = session or secrets.token_urlsafe(32)
        self.cookie_name = COOKIE_NAME
        also_redact(self.key, self._session)  # no log line prints them (issue 11 §8)

    def key_matches(self, candidate: str | None) -> bool:
        """True when ``candidate`` is the login key (constant-time comparison)."""
        return candidate is not None and candidate.isascii() and hmac.compare_digest(candidate.encode(), self.key.encode())

    def allowed(self, request: web.Request) -> bool:
        """True when ``request`` carries this server's session cookie."""
        cookie = request.cookies.get(self.cookie_name)  # undecodable bytes arrive as surrogates: not ASCII, refused
        return cookie is not None and cookie.isascii() and hmac.compare_digest(cookie.encode(), self._session.encode())

    def grant(self, response: web.StreamResponse) -> None:
        """Set the session cookie on ``response``: HttpOnly (no script reads it), SameSite=Strict (no other site's
        page sends it), for the whole server (path ``/``), for this browser session only."""
        response.set_cookie(self.cookie_name, self._session, path="/", httponly=True, samesite="Strict")

    def login_url(self, base_url: str) -> str:
        """``{base_url}/?key={key}``: what ``flybot serve`` prints."""
        return f"{base_url.rstrip('/')}/?key={self.key}"


def refused() -> web.Response:
    """The 401 every page or control route answers without the session cookie (nothing is done)."""
    return web.json_response(
        {"ok": False, "error": "not logged in: open the login URL that flybot serve printed"}, status=401
    )
