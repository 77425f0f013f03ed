"""What every answer of the web layer guards against in a browser and at the door, kept
beside `officegym.web` (which calls `register_guards` once per app):

- ``<int:...>`` URL parts are database ids, so at most 64 bits: a longer number matches
  no route (404) instead of reaching a query that cannot bind it;
- a page's query-string values (searches, filters) are capped (400 beyond);
- a Host name the app was not told to answer is refused (DNS rebinding), and so is a
  page write another site's page made a browser send (`cross_site_reason`, the rule
  every door applies);
- every answer carries a ``Content-Security-Policy`` (scripts only from this site or
  with the page's nonce, no plugins, forms posting only here, no framing),
  ``X-Frame-Options: DENY`` and ``X-Content-Type-Options: nosniff``;
- downloads are named by `attachment`, RFC 5987's ``filename*`` beside an ASCII fallback;
- an answer's headers stay small whatever a form held: a redirect that carries form values
  back drops those a page would refuse as a query, and a message kept for the next page
  (Flask's flash, stored in the session cookie) quotes at most `MAX_FLASH` characters.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from flask import Flask, Response, g, render_template, request, session
from werkzeug.routing import IntegerConverter

from officegym.db import ID_MAX
from officegym.hosts import bare_host
from officegym.inputs import MAX_QUERY_VALUE

__all__ = [
    "CSP",
    "MAX_FLASH",
    "STATE_CHANGING",
    "attachment",
    "cross_site_reason",
    "csp_nonce",
    "origin_of",
    "own_origin",
    "register_converters",
    "register_guards",
]

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
MAX_FLASH = 500  # characters of one message kept for the next page (a cookie holds ~4 KB)

CSP = (
    "default-src 'self'; script-src 'self'{nonce}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)


def attachment(filename: str) -> str:
    """A ``Content-Disposition`` value downloading as `filename`: an ASCII fallback (quotes,
    slashes and controls replaced) and the exact name as RFC 5987's ``filename*``, so no
    name (a quote, a newline, a non-Latin-1 letter) can break the header or the path."""
    safe = "".join(c if c.isascii() and c.isprintable() and c not in '"\\/' else "_"
                   for c in filename) or "download"  # fmt: skip
    exact = quote(filename, safe="", errors="replace")
    return f"attachment; filename=\"{safe}\"; filename*=UTF-8''{exact}"


class DbId(IntegerConverter):
    """``<int:...>`` (every one names a row): a non-negative integer the database can bind
    as a key, at most `ID_MAX`; a larger one matches no route (404), never a DataError."""

    def __init__(self, url_map: Any, fixed_digits: int = 0, min: int | None = None,
                 max: int | None = ID_MAX, signed: bool = False) -> None:  # fmt: skip
        super().__init__(url_map, fixed_digits, min, max, signed)


def register_converters(app: Flask) -> None:
    """Bound ``<int:...>`` to the database's keys (call before any rule is added)."""
    app.url_map.converters["int"] = DbId


def csp_nonce() -> str:
    """This response's script nonce: a page's own inline ``<script nonce=...>`` runs, a
    script injected into the page does not."""
    if "csp_nonce" not in g:
        g.csp_nonce = secrets.token_urlsafe(16)
    return str(g.csp_nonce)


def register_guards(
    app: Flask, token_auth: set[str], *, hosts: Collection[str] | None = None
) -> None:
    """At the door: the Host check (`hosts`: the only names answered; None: any), the
    query cap for pages and the cross-site check for their writes (the `token_auth`
    blueprints, native APIs, check both in their own format); on the way out, the browser
    headers and small headers on every answer."""
    app.add_template_global(csp_nonce)
    if hosts is not None:
        _register_host_check(app, frozenset(hosts))

    @app.before_request
    def check_query() -> tuple[str, int] | None:
        if request.blueprint in token_auth:
            return None
        if any(len(v) > MAX_QUERY_VALUE for _, v in request.args.items(multi=True)):
            message = f"a search or filter value holds at most {MAX_QUERY_VALUE} characters"
            return render_template("error.html", message=message, status=400), 400
        return None

    @app.before_request
    def check_origin() -> tuple[str, int] | None:
        """Refuse state-changing requests another site's page made a browser send (CSRF)."""
        if request.method not in STATE_CHANGING or request.blueprint in token_auth:
            return None  # token APIs refuse cross-site callers in their own format
        reason = cross_site_reason()
        if reason is None:
            return None
        return render_template("error.html", message=reason, status=403), 403

    @app.after_request
    def small_headers(response: Response) -> Response:
        flashes = session.get("_flashes")
        if flashes and any(len(m) > MAX_FLASH for _, m in flashes):
            session["_flashes"] = [(c, _shortened(m)) for c, m in flashes]
        if response.location and len(response.location) > MAX_QUERY_VALUE:
            response.location = _without_long_values(response.location)
        return response

    @app.after_request
    def security_headers(response: Response) -> Response:
        nonce = f" 'nonce-{g.csp_nonce}'" if "csp_nonce" in g else ""
        response.headers.setdefault("Content-Security-Policy", CSP.format(nonce=nonce))
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response


def _shortened(message: str) -> str:
    return message if len(message) <= MAX_FLASH else message[: MAX_FLASH - 1] + "…"


def _without_long_values(url: str) -> str:
    """`url` without the query values a page would refuse (`MAX_QUERY_VALUE`)."""
    parts = urlsplit(url)
    kept = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
            if len(v) <= MAX_QUERY_VALUE]  # fmt: skip
    return urlunsplit(parts._replace(query=urlencode(kept)))


def _register_host_check(app: Flask, hosts: frozenset[str]) -> None:
    """Refuse requests whose Host header the app was not told to answer (DNS rebinding)."""

    @app.before_request
    def check_host() -> tuple[str, int] | None:
        if bare_host(request.headers.get("Host", "")) not in hosts:
            return "unknown Host header (DNS rebinding protection)", 421
        return None


def own_origin() -> str:
    """``scheme://host[:port]`` this request was sent to, lower case."""
    return request.host_url.rstrip("/").lower()


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of an absolute URL, lower case (None if it has none)."""
    parts = urlsplit(url.strip())
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def cross_site_reason() -> str | None:
    """Why the current request comes from another site, if a browser says it does (every
    door's rule: pages here, the Slack and Sheets APIs in their own formats)."""
    origin = request.headers.get("Origin")
    if origin is not None and origin.rstrip("/").lower() != own_origin():
        return f"requests from {origin} are refused"
    referer = request.headers.get("Referer")
    if origin is None and referer and origin_of(referer) != own_origin():
        return "requests from another site's page are refused"
    if request.headers.get("Sec-Fetch-Site", "").lower() == "cross-site":
        return "cross-site requests are refused"
    return None
