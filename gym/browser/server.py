"""Serving one env's world to its browser: the web clones on 127.0.0.1 at an ephemeral
port, answered by a background thread, one request at a time.

The world is an in-memory SQLite database with a single shared connection, so
requests are serialized by a lock, and the env takes the same lock to reset or
grade the world (`exclusive`): no request is ever in flight while it does. A
request that was waiting while the env started a new episode is refused (503)
rather than served against the new episode's database. Each episode locks the
app's persona policy to the task's persona, so the agent acts only as its
persona at every door (sign-in, the Slack API's tokens).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from officegym.personas import PersonaPolicy
from officegym.web import create_app, persona_policy, set_persona_policy
from officegym.world import World

__all__ = ["AppServer"]

StartResponse = Callable[..., Any]
SAFE = ("GET", "HEAD", "OPTIONS")


class _QuietHandler(WSGIRequestHandler):
    """No access log on stderr: an env serves thousands of pages."""

    def log(self, type: str, message: str, *args: Any) -> None:
        pass


class _Gate:
    """WSGI wrapper: serializes requests and turns away stale ones."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.lock = threading.RLock()  # the env may start an episode while holding it
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
        self._app = create_app(world)
        self._gate = _Gate(self._app)
        self._server: BaseWSGIServer = make_server(
            host, 0, self._gate, threaded=True, request_handler=_QuietHandler
        )
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
        `persona` (a handle of the directory); waiting requests get a 503. The episode's
        `after_write` hook is dropped."""
        with self._gate.lock:
            self._gate.epoch += 1
            self._gate.after_write = None
            if world is not None and world is not self.world:
                self.world, self._app = world, create_app(world)
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
