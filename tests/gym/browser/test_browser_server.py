"""The env's web server: one request at a time, none while the env uses the database,
none left over from a previous episode, and sign-in only as the persona."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.gym.browser.server import AppServer
from officegym.world import World, world_image


@pytest.fixture
def server() -> Iterator[AppServer]:
    world = World(world_image("default", 0))
    srv = AppServer(world)
    yield srv
    srv.close()
    world.close()


def fetch(url: str, out: list[int]) -> None:
    """GET `url` without following redirects; append the status to `out`."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(url, timeout=30) as response:
            out.append(response.status)
    except urllib.error.HTTPError as exc:
        out.append(exc.code)


def start_fetch(url: str, out: list[int]) -> threading.Thread:
    thread = threading.Thread(target=fetch, args=(url, out), daemon=True)
    thread.start()
    return thread


def wait_until_waiting(server: AppServer) -> None:
    """Block until one request is queued behind the lock."""
    while server.waiting < 1:
        threading.Event().wait(0.005)


def test_serves_the_clones_on_a_loopback_port(server: AppServer) -> None:
    assert server.url.startswith("http://127.0.0.1:")
    out: list[int] = []
    fetch(server.url + "/healthz", out)
    assert out == [200]


def test_no_request_runs_while_the_env_holds_the_database(server: AppServer) -> None:
    out: list[int] = []
    with server.exclusive():
        thread = start_fetch(server.url + "/healthz", out)
        wait_until_waiting(server)
        thread.join(timeout=0.3)
        assert thread.is_alive() and out == []
    thread.join(timeout=30)
    assert out == [200]


def test_a_request_waiting_across_a_new_episode_is_refused(server: AppServer) -> None:
    out: list[int] = []
    with server.exclusive():
        thread = start_fetch(server.url + "/healthz", out)
        wait_until_waiting(server)
        server.new_episode(None)
    thread.join(timeout=30)
    assert out == [503]
    fetch(server.url + "/healthz", out)
    assert out == [503, 200]


def test_sign_in_is_locked_to_the_persona(server: AppServer) -> None:
    with server.world.session() as s:
        me, other = s.scalars(select(Person.handle).order_by(Person.id).limit(2)).all()
    server.new_episode(me)
    out: list[int] = []
    fetch(f"{server.url}/login/{other}?next=/slack/", out)
    fetch(f"{server.url}/login/{me}?next=/slack/", out)
    assert out == [403, 302]


def test_close_stops_serving_and_is_idempotent(server: AppServer) -> None:
    server.close()
    server.close()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(server.url + "/healthz", timeout=5)
