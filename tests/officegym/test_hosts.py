"""Which Host headers a served world answers: loopback binds answer local names only, a
wildcard bind this machine's names too, and the web app refuses every other Host."""

from __future__ import annotations

import pytest

from officegym.hosts import bare_host, host_names, is_loopback
from officegym.web import create_app
from officegym.world import World


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        *[(h, True) for h in ("127.0.0.1", "127.0.0.2", "::1", "localhost")],
        *[(h, False) for h in ("0.0.0.0", "::", "192.168.1.5", "office.example")],
    ],
)
def test_is_loopback_tells_this_machine_from_the_network(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize(
    ("header", "host"),
    [("127.0.0.1:8000", "127.0.0.1"), ("LocalHost", "localhost"), ("[::1]:80", "[::1]")],
)
def test_bare_host_drops_the_port_and_case(header: str, host: str) -> None:
    assert bare_host(header) == host


def test_a_loopback_bind_answers_local_names_and_the_allowed_ones_only() -> None:
    names = host_names("127.0.0.1", ["Office.Example"])
    assert set(names) == {"127.0.0.1", "localhost", "[::1]", "office.example"}


def test_the_web_app_refuses_hosts_it_was_not_told_to_answer(world: World) -> None:
    client = create_app(world, persona="kturner", hosts=host_names("127.0.0.1")).test_client()
    for path in ("/slack/", "/api/auth.test?token=xoxp-kturner", "/login"):
        assert client.get(path, headers={"Host": "rebound.example"}).status_code == 421
        assert client.get(path, headers={"Host": "127.0.0.1:8000"}).status_code in (200, 302)
        assert client.get(path, headers={"Host": "[::1]:8000"}).status_code in (200, 302)


def test_an_app_without_a_host_list_answers_any_host(world: World) -> None:
    client = create_app(world, persona="kturner").test_client()
    assert client.get("/slack/people", headers={"Host": "anything.example"}).status_code == 200
