"""Fixtures of the Slack API tests: one world served over real HTTP per test module, and
clients holding people's tokens. Tests add rows in places of their own (new channels,
new posts), so they can share the world."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from sqlalchemy import select
from werkzeug.serving import WSGIRequestHandler, make_server

from officegym.apps.org.models import Person
from officegym.web import create_app
from officegym.world import World, world_image


class Quiet(WSGIRequestHandler):
    def log_request(self, *args: object, **kwargs: object) -> None:
        """No access log in test output."""


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """`app` on 127.0.0.1, an ephemeral port, in threads; its API base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/api/"
    server.shutdown()
    thread.join(5)


@pytest.fixture(scope="module")
def api_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """A world in a SQLite file (the served threads each open their own connection)."""
    path = tmp_path_factory.mktemp("api") / "world.sqlite"
    w = World(world_image("default", 0), url=f"sqlite:///{path}")
    yield w
    w.close()


@pytest.fixture(scope="module")
def api_url(api_world: World) -> Iterator[str]:
    with serving(create_app(api_world)) as url:
        yield url


@pytest.fixture(scope="module")
def client_of(api_url: str) -> Callable[[str], WebClient]:
    """A WebClient with the token of a person of the world."""
    return lambda handle: WebClient(token=f"xoxp-{handle}", base_url=api_url)


def uid_of(world: World, handle: str) -> str:
    with world.session() as s:
        return f"U{s.scalars(select(Person.id).where(Person.handle == handle)).one():07d}"


def error_of(call: Callable[[], object]) -> str:
    """The Slack error code `call` fails with (it must fail)."""
    with pytest.raises(SlackApiError) as info:
        call()
    return info.value.response["error"]
