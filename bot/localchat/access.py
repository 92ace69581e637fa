"""Who may use the local chat page: a login key printed once by ``flybot serve``, exchanged for a page credential
that only the page's own origin holds.

In local mode the page's API takes a person's clicks (Approve, Deny, slash commands) and acts as whichever user
the page picks. Without a credential any local process -- the agent under review included -- could approve its own
escalation. So the page's API answers only a request carrying this server's page credential, and the only way to
get that credential is the login URL (``http://127.0.0.1:8080/?key=...``), printed to the terminal that started
the server (the same scheme as notebook servers' token URLs); when its output is no terminal it goes to no log but
to a 0600 file in FlyBot's state directory (:func:`bot.commands.server.show_login`).

The login key is single-use: the first login that presents it consumes it, and the server prints the next login URL
to its terminal (for another browser or tab). A browser keeps every URL it opened in its history file
(``~/.config/chromium/Default/History``), which any local process of the owner may read; a used key found there
gets nothing.

The credential is bound to the page's origin (scheme, host and port), never to the host alone:

- It is never a cookie. Cookies are scoped by host name, not by port (RFC 6265 §8.5), so every web server on
  127.0.0.1 -- one the agent starts included -- would receive it when the owner opens that server's page.
- The page keeps it in ``sessionStorage``, which belongs to one origin (the HTML Standard's storage is keyed by
  origin, port included), and sends it in the ``X-FlyBot-Session`` header. A page of another origin can neither
  read it nor make the browser send it: a form post, an image or a frame carries no custom header, and a
  cross-origin ``fetch()`` with one needs a CORS preflight that this server never grants.
- Every state change (``POST``, ``PUT``, ``PATCH``, ``DELETE``) must carry an ``Origin`` header naming this server
  (:func:`same_origin`); a missing or foreign ``Origin`` is refused with 403, whatever credential comes with it.
- A request whose ``Host`` is not the one ``flybot serve`` printed (:func:`served_hosts`: ``127.0.0.1:8080`` in
  ``http://127.0.0.1:8080/?key=...``, or the address the connection came to, with this server's port) is refused
  with 421 (RFC 9110 §15.5.20), the page itself with an HTML page naming the printed address. A page on another
  name that resolves to 127.0.0.1 (DNS rebinding) is another origin, and neither its ``Host`` nor its ``Origin``
  is trusted. ``localhost`` and ``[::1]`` are other names too: the server listens on one address only, so
  ``localhost:8080`` may reach another program listening on ``[::1]:8080`` (browsers try both), and a person
  used to typing it could hand that program the login key.
- The page may not be framed (``frame-ancestors 'none'``, :data:`PAGE_HEADERS`): no page of another origin can
  show it under a decoy and take the owner's click.

Both secrets live in this process's memory only and are new on every start; the key is new after every login.
"""

from __future__ import annotations

import hmac
import html
import secrets
from collections.abc import Callable
from urllib.parse import urlsplit

from aiohttp import web

from bot.logs import also_redact

HEADER = "X-FlyBot-Session"
"""The request header that carries the page credential."""

STATE_CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})

PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
}
"""Headers on the chat page and its login answer: never cached, never framed, no ``Referer`` with the key."""


class PageAccess:
    """The login key and the page credential of one local chat server.

    Attributes:
        key: the secret in the login URL (``?key=...``), 32 URL-safe characters; print it to a terminal, never to a log.
            Single-use: :meth:`use_key` replaces it.
        on_new_key: called with the new key each time a login consumed the old one (``flybot serve`` prints the
            next login URL); None: nothing is told.
    """

    def __init__(self, key: str | None = None, session: str | None = None) -> None:
        self.key = key or secrets.token_urlsafe(24)
        self._session = session or secrets.token_urlsafe(32)
        self.on_new_key: Callable[[str], None] | None = None
        also_redact(self.key, self._session)  # no log line prints them

    def use_key(self, candidate: str | None) -> bool:
        """True when ``candidate`` is the login key (constant-time comparison); the key is then consumed: a new one
        replaces it and :attr:`on_new_key` is told. False changes nothing."""
        if not (
            candidate is not None and candidate.isascii() and hmac.compare_digest(candidate.encode(), self.key.encode())
        ):
            return False
        self.key = secrets.token_urlsafe(24)
        also_redact(self.key)
        if self.on_new_key is not None:
            self.on_new_key(self.key)
        return True

    def allowed(self, request: web.Request) -> bool:
        """True when ``request`` carries this server's page credential in the ``X-FlyBot-Session`` header.

        Cookies are not looked at: a cookie reaches every port of the host."""
        credential = request.headers.get(HEADER)  # undecodable bytes arrive as surrogates: not ASCII, refused
        return (
            credential is not None
            and credential.isascii()
            and hmac.compare_digest(credential.encode(), self._session.encode())
        )

    def credential(self) -> str:
        """The page credential, for the page that presented the login key (see ``POST login``)."""
        return self._session

    def login_url(self, base_url: str) -> str:
        """``{base_url}/?key={key}`` with the current key: what ``flybot serve`` prints."""
        return f"{base_url.rstrip('/')}/?key={self.key}"


def printed_host(base_url: str) -> str:
    """The ``Host`` of the origin ``flybot serve`` printed: ``127.0.0.1:8080`` for ``http://127.0.0.1:8080/local``
    (lower case; empty when ``base_url`` names no host)."""
    return urlsplit(base_url).netloc.lower()


def served_hosts(request: web.Request, printed: str) -> frozenset[str]:
    """The ``Host`` values naming this server: ``printed`` (:func:`printed_host`) and the local address of the
    connection, from its socket (never from its headers), with the connection's port (``127.0.0.1:8080``,
    ``[::1]:8080``); on port 80 the address also without it. The address connected to is what a browser was
    given when the server listens on every address (``--host 0.0.0.0 --allow-remote``); on a loopback address it
    is the printed one. No other name: not ``localhost``, not ``[::1]`` on an IPv4 server."""
    names = {printed} if printed else set()
    sockname = request.transport.get_extra_info("sockname") if request.transport is not None else None
    if isinstance(sockname, tuple) and len(sockname) >= 2:
        address, port = str(sockname[0]), int(sockname[1])
        address = f"[{address}]" if ":" in address else address
        names.add(f"{address}:{port}")
        if port == 80:
            names.add(address)
    return frozenset(names)


def own_host(request: web.Request, printed: str) -> bool:
    """True when the request's ``Host`` header is one of :func:`served_hosts` (compared without case)."""
    host = request.headers.get("Host")
    return host is not None and host.lower() in served_hosts(request, printed)


def same_origin(request: web.Request, printed: str) -> bool:
    """True when the request's ``Origin`` header names this server: its ``Host`` is one of this server's own
    (:func:`own_host`) and the ``Origin`` is that host's origin (``http://127.0.0.1:8080`` for a request to
    ``127.0.0.1:8080``), compared exactly.

    A missing ``Origin`` is not the same origin: browsers send it on every ``POST`` (the Fetch Standard), so only
    a non-browser client or an old browser omits it, and neither may change state. ``Origin: null`` (a sandboxed
    frame, a ``data:`` page) is refused too.
    """
    origin = request.headers.get("Origin")
    return (
        own_host(request, printed) and origin is not None and origin == f"{request.scheme}://{request.headers['Host']}"
    )


def refused() -> web.Response:
    """The 401 every page or control route answers without the page credential (nothing is done)."""
    return web.json_response(
        {
            "ok": False,
            "error": "not logged in: open the login URL that flybot serve printed last (each one works once)",
        },
        status=401,
    )


def misdirected(printed: str) -> web.Response:
    """The 421 a page route answers when its ``Host`` is not one of this server's names (nothing is done)."""
    return web.json_response({"ok": False, "error": _misdirected_text(printed)}, status=421)


def misdirected_page(printed: str) -> web.Response:
    """The 421 HTML page the chat page's address answers under a ``Host`` that is not one of this server's names:
    what to open instead. The login key in the address is not used (it still works at the printed address)."""
    text = html.escape(_misdirected_text(printed))
    body = (
        "<!doctype html><html><head><meta charset=utf-8><title>FlyBot: wrong address</title></head>"
        f"<body><h1>Wrong address</h1><p>{text}</p></body></html>"
    )
    return web.Response(text=body, status=421, content_type="text/html", headers=PAGE_HEADERS)


def _misdirected_text(printed: str) -> str:
    where = f"http://{printed}/" if printed else "the address flybot serve printed"
    return (
        f"this server does not serve that host name: open {where} (the login URL flybot serve printed; "
        "localhost or another name for it is another page)"
    )


def foreign_origin() -> web.Response:
    """The 403 a state change answers without an ``Origin`` naming this server (nothing is done)."""
    return web.json_response({"ok": False, "error": "cross-origin request refused"}, status=403)
