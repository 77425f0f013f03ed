"""The env's web server: one request at a time, none while the env uses the database,
none left over from a previous episode, and sign-in only as the persona."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request

import pytest
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.gym.browser.server import AppServer


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


def queue_a_fetch(server: AppServer) -> tuple[threading.Thread, list[int]]:
    """Fetch /healthz in a thread and block until it is queued behind the env's lock: the
    thread, and the list its status will be appended to."""
    out: list[int] = []
    thread = threading.Thread(target=fetch, args=(server.url + "/healthz", out), daemon=True)
    thread.start()
    while server.waiting < 1:
        threading.Event().wait(0.005)
    return thread, out


def test_serves_the_clones_on_a_loopback_port(server: AppServer) -> None:
    assert server.url.startswith("http://127.0.0.1:")
    out: list[int] = []
    fetch(server.url + "/healthz", out)
    assert out == [200]


def test_no_request_runs_while_the_env_holds_the_database(server: AppServer) -> None:
    with server.exclusive():
        thread, out = queue_a_fetch(server)
        thread.join(timeout=0.3)
        assert thread.is_alive() and out == []
    thread.join(timeout=30)
    assert out == [200]


def test_a_request_waiting_across_a_new_episode_is_refused(server: AppServer) -> None:
    with server.exclusive():
        thread, out = queue_a_fetch(server)
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
    fetch(f"{server.url}/login/{other}?next=/slack/&{server.login_query}", out)
    fetch(f"{server.url}/login/{me}?next=/slack/&{server.login_query}", out)
    assert out == [403, 302]


def open_with(url: str, headers: dict[str, str] | None = None) -> tuple[int, list[str]]:
    """GET `url` (no redirects followed): the status and the cookies the answer sets."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=30) as answer:
            return answer.status, answer.headers.get_all("Set-Cookie") or []
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get_all("Set-Cookie") or []


def test_a_browser_without_the_episodes_key_is_refused(server: AppServer) -> None:
    """Another env's browser knows the URL but not the key: every page refuses it."""
    server.new_episode("kturner")
    assert open_with(f"{server.url}/slack/")[0] == 403
    assert open_with(f"{server.url}/login/kturner?next=/slack/")[0] == 403
    assert open_with(f"{server.url}/slack/?og_key=guess")[0] == 403


def test_the_login_url_sets_the_key_and_the_next_episode_changes_it(server: AppServer) -> None:
    server.new_episode("kturner")
    status, cookies = open_with(f"{server.url}/login/kturner?next=/slack/&{server.login_query}")
    assert status == 302
    name = f"og_key_{server.url.rsplit(':', 1)[1]}"  # browsers share cookies across ports
    [set_key] = [c for c in cookies if c.startswith(f"{name}=")]
    assert "HttpOnly" in set_key and "SameSite=Lax" in set_key
    cookie = set_key.split(";")[0]
    assert open_with(f"{server.url}/slack/people", {"Cookie": cookie})[0] == 200
    server.new_episode("kturner")
    assert open_with(f"{server.url}/slack/people", {"Cookie": cookie})[0] == 403


def test_another_host_name_is_refused(server: AppServer) -> None:
    """DNS rebinding: a page of evil.example resolving to 127.0.0.1 is not answered."""
    server.new_episode("kturner")
    url = f"{server.url}/slack/people?{server.login_query}"
    assert open_with(url, {"Host": "evil.example"})[0] == 421
    assert open_with(url)[0] == 200


def test_close_stops_serving_and_is_idempotent(server: AppServer) -> None:
    server.close()
    server.close()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(server.url + "/healthz", timeout=5)
