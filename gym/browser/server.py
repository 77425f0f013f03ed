"""Serving one env's world to its browser: the web clones on 127.0.0.1 at an ephemeral
port, answered by a background thread, one request at a time.

The world is an in-memory SQLite database with a single shared connection, so
requests are serialized by a lock, and the env takes the same lock to reset or
grade the world (`exclusive`): no request is ever in flight while it does. A
request that was waiting while the env started a new episode is refused (503)
rather than served against the new episode's database. Each episode locks the
app's persona policy to the task's persona, so the agent acts only as its
persona at every door (sign-in, the Slack API's tokens).

Isolation from other envs' browsers (one Chromium may serve many envs, all on
127.0.0.1): each episode has a secret `key`; the env's login URL carries it
(``?og_key=...``), the answer sets it as an HttpOnly cookie for this port, and every
other request without that cookie is refused (403; ``/healthz`` aside). A browser
that never opened this episode's login URL, such as another env's, cannot act here,
and a request naming another Host than the loopback names is refused (421, DNS
rebinding), as `officegym serve` does.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qs

from werkzeug.http import dump_cookie, parse_cookie
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from officegym.hosts import host_names
from officegym.personas import PersonaPolicy
from officegym.web import create_app, persona_policy, set_persona_policy
from officegym.world import World

__all__ = ["AppServer"]

StartResponse = Callable[..., Any]
SAFE = ("GET", "HEAD", "OPTIONS")
KEY_PARAM = "og_key"  # the login URL's query parameter carrying the episode's key
OPEN_PATHS = frozenset({"/healthz"})


class _QuietHandler(WSGIRequestHandler):
    """No access log on stderr: an env serves thousands of pages."""

    def log(self, type: str, message: str, *args: Any) -> None:
        pass


class _Gate:
    """WSGI wrapper: serializes requests and turns away stale ones."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.lock = threading.RLock()  # the env may start an episode while holding it
        self.key = secrets.token_urlsafe(24)
        self.cookie = KEY_PARAM  # named per port once the server has one
        self.epoch = 0
        self.waiting = 0
        self.after_write: Callable[[], None] | None = None  # run after each non-GET request

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        arrived = self.epoch
        self.waiting += 1
        with self.lock:
            self.waiting -= 1
            if self.epoch != arrived:
                return _plain(start_response, "503 Service Unavailable", "a new episode started")
            admitted = self._admitted(environ)
            if admitted is None:
                return _plain(start_response, "403 Forbidden", _STRANGER)
            if admitted:  # the login URL: remember the key in this browser
                start_response = self._with_cookie(start_response)
            body = self.app(environ, start_response)
            try:
                data = b"".join(body)
            finally:
                close = getattr(body, "close", None)
                if close is not None:
                    close()
            if self.after_write is not None and environ.get("REQUEST_METHOD") not in SAFE:
                self.after_write()
            return [data]

    def _admitted(self, environ: dict[str, Any]) -> bool | None:
        """None for a request of a browser without this episode's key; True when the
        request carries the key in its URL (the cookie is then set), else False."""
        if environ.get("PATH_INFO", "") in OPEN_PATHS:
            return False
        cookie = parse_cookie(environ).get(self.cookie, "")
        if cookie and hmac.compare_digest(cookie, self.key):
            return False
        given = parse_qs(environ.get("QUERY_STRING", "")).get(KEY_PARAM, [""])[0]
        if given and hmac.compare_digest(given, self.key):
            return True
        return None

    def _with_cookie(self, start_response: StartResponse) -> StartResponse:
        cookie = dump_cookie(self.cookie, self.key, path="/", httponly=True, samesite="Lax")

        def start(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            return start_response(status, [*headers, ("Set-Cookie", cookie)], *args)

        return start


_STRANGER = (
    "this env's world answers only the browser that opened its login URL "
    "(another env's browser, or a stale episode's, is refused)"
)


def _plain(start_response: StartResponse, status: str, text: str) -> list[bytes]:
    body = text.encode()
    start_response(
        status, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))]
    )
    return [body]


class AppServer:
    """The web app over `world`, served on ``http://127.0.0.1:<port>`` until `close`."""

    def __init__(self, world: World, *, host: str = "127.0.0.1") -> None:
        self.world = world
        self._hosts = host_names(host)
        self._app = create_app(world, hosts=self._hosts)
        self._gate = _Gate(self._app)
        self._server: BaseWSGIServer = make_server(
            host, 0, self._gate, threaded=True, request_handler=_QuietHandler
        )
        self._gate.cookie = f"{KEY_PARAM}_{self._server.server_port}"  # cookies ignore ports
        self.url = f"http://{host}:{self._server.server_port}"
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"officegym-web-{self._server.server_port}",
            daemon=True,
        )
        self._thread.start()

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold off every request while the caller uses the world's database."""
        with self._gate.lock:
            yield

    def new_episode(self, persona: str | None, world: World | None = None) -> None:
        """Restore the world (serve `world` from now on, if given) and lock who may act to
        `persona` (a handle of the directory); waiting requests get a 503, and browsers
        holding the last episode's key must sign in again (`login_query`). The episode's
        `after_write` hook is dropped."""
        with self._gate.lock:
            self._gate.epoch += 1
            self._gate.key = secrets.token_urlsafe(24)
            self._gate.after_write = None
            if world is not None and world is not self.world:
                self.world, self._app = world, create_app(world, hosts=self._hosts)
                self._gate.app = self._app
            policy = PersonaPolicy(default=persona, locked=persona is not None)
            set_persona_policy(self._app, policy)
            self.world.reset()

    def after_write(self, hook: Callable[[], None] | None) -> None:
        """Run `hook` after every request that may write (not GET/HEAD/OPTIONS), before
        its response is returned, while requests are held off (the simulated requester
        answering in chat)."""
        self._gate.after_write = hook

    @property
    def login_query(self) -> str:
        """The query parameter that admits a browser to this episode (``og_key=...``): the
        env's login URL carries it."""
        return f"{KEY_PARAM}={self._gate.key}"

    @property
    def persona(self) -> str | None:
        return persona_policy(self._app).default

    @property
    def waiting(self) -> int:
        """How many requests are waiting for their turn (approximate; for tests)."""
        return self._gate.waiting

    def close(self) -> None:
        """Stop serving (idempotent)."""
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join(timeout=5)
        self._server.server_close()
