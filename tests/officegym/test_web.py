"""The web layer: app factory, persona sign-in, per-request session, error translation."""

from __future__ import annotations

import pytest
from flask import Flask, g, redirect
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse

import officegym.apps
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.errors import Forbidden, Invalid
from officegym.web import create_app, flash_errors, og_id, safe_next, stable_id
from officegym.world import World


def _topic(world: World) -> str:
    with world.session() as s:
        actor = s.scalars(select(Person).where(Person.handle == "kturner")).one()
        return chat.get_channel(s, actor, "engineering").topic


@pytest.fixture
def probe(world: World) -> FlaskClient:
    """A client signed in as @kturner of an app with extra routes that change the topic of
    #engineering, then succeed or fail."""
    app = create_app(world, config={"TESTING": True, "SECRET_KEY": "test"})

    def change(topic: str) -> None:
        chat.set_topic(g.db, g.actor, chat.get_channel(g.db, g.actor, "engineering"), topic)

    @app.post("/probe/ok")
    def probe_ok() -> str:
        change("changed ok")
        return "done"

    @app.post("/probe/forbidden")
    def probe_forbidden() -> str:
        change("changed then forbidden")
        raise Forbidden("probe says no")

    @app.post("/probe/invalid")
    def probe_invalid() -> BaseResponse:
        with flash_errors():
            change("changed then invalid")
            raise Invalid("probe input is wrong")
        return redirect("/slack/people")

    client = app.test_client()
    client.get("/login/kturner")
    return client


def test_healthz_needs_no_sign_in(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.data == b"ok"


def test_home_redirects_to_the_chat(client: FlaskClient) -> None:
    assert client.get("/").location == "/slack/"


def test_unauthenticated_pages_redirect_to_login_with_next(client: FlaskClient) -> None:
    response = client.get("/slack/c/general?before=10")
    assert response.status_code == 302
    assert response.location.startswith("/login?next=")
    assert "slack/c/general" in response.location


def test_login_page_lists_people_with_stable_ids(client: FlaskClient) -> None:
    html = client.get("/login").get_data(as_text=True)
    assert 'id="login-kturner" data-og-id="login-kturner"' in html
    assert 'id="login-query"' in html


def test_login_url_signs_in_and_redirects_to_next(client: FlaskClient) -> None:
    response = client.get("/login/kturner?next=/slack/people")
    assert response.status_code == 302
    assert response.location == "/slack/people"
    html = client.get("/slack/people").get_data(as_text=True)
    assert "Kristen Turner" in html
    assert 'data-og-id="nav-logout"' in html


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:1"])
def test_login_never_redirects_off_site(client: FlaskClient, target: str) -> None:
    response = client.get("/login/kturner", query_string={"next": target})
    assert response.location == "/"


def test_safe_next_keeps_local_paths_only() -> None:
    assert safe_next("/slack/c/general?before=3") == "/slack/c/general?before=3"
    assert safe_next("slack", "/x") == "/x"
    assert safe_next(None, "/x") == "/x"


def test_login_as_unknown_person_is_404_page(client: FlaskClient) -> None:
    response = client.get("/login/nobody-here")
    assert response.status_code == 404
    assert "nobody-here" in response.get_data(as_text=True)


def test_logout_signs_out(client: FlaskClient) -> None:
    client.get("/login/kturner")
    assert client.get("/slack/people").status_code == 200
    assert client.get("/logout").location == "/login"
    assert client.get("/slack/people").status_code == 302


def test_default_persona_is_used_until_sign_out(world: World) -> None:
    app = create_app(world, persona="mchang", config={"SECRET_KEY": "t"})
    client = app.test_client()
    assert "Megan Chang" in client.get("/slack/people").get_data(as_text=True)
    client.get("/logout")
    assert client.get("/slack/people").status_code == 302


def test_signing_in_overrides_default_persona(world: World) -> None:
    client = create_app(world, persona="mchang").test_client()
    client.get("/login/kturner")
    assert "@kturner" in client.get("/slack/people").get_data(as_text=True)


def test_locked_persona_refuses_signing_in_as_anyone_else(world: World) -> None:
    client = create_app(world, persona="mchang", lock_persona=True).test_client()
    refused = client.get("/login/kturner")
    assert refused.status_code == 403
    assert "@mchang" in refused.get_data(as_text=True)
    assert "Megan Chang" in client.get("/slack/people").get_data(as_text=True)
    assert client.get("/login/@mchang").status_code == 302


def test_lock_persona_needs_a_persona(world: World) -> None:
    with pytest.raises(ValueError, match="needs a persona"):
        create_app(world, lock_persona=True)


def test_secret_key_is_random_per_app_unless_configured(world: World) -> None:
    assert create_app(world).secret_key != create_app(world).secret_key
    assert create_app(world, config={"SECRET_KEY": "fixed"}).secret_key == "fixed"


def test_every_app_with_routes_is_mounted_and_in_nav(web_app: Flask, client: FlaskClient) -> None:
    client.get("/login/kturner")
    html = client.get("/slack/people").get_data(as_text=True)
    names = [name for name, _ in officegym.apps.iter_app_modules("routes")]
    assert "slack" in names
    for name in names:
        assert any(rule.rule.startswith(f"/{name}/") for rule in web_app.url_map.iter_rules())
        assert f'data-og-id="nav-{name}"' in html


def test_successful_request_commits(probe: FlaskClient, world: World) -> None:
    assert probe.post("/probe/ok").status_code == 200
    assert _topic(world) == "changed ok"


def test_domain_error_renders_error_page_with_status_and_rolls_back(
    probe: FlaskClient, world: World
) -> None:
    before = _topic(world)
    response = probe.post("/probe/forbidden")
    assert response.status_code == 403
    assert "probe says no" in response.get_data(as_text=True)
    assert 'id="error-title"' in response.get_data(as_text=True)
    assert _topic(world) == before


def test_flash_errors_flashes_bad_input_and_rolls_back(probe: FlaskClient, world: World) -> None:
    before = _topic(world)
    response = probe.post("/probe/invalid", follow_redirects=True)
    assert response.status_code == 200
    assert "probe input is wrong" in response.get_data(as_text=True)
    assert _topic(world) == before


def test_unknown_url_renders_error_page(client: FlaskClient) -> None:
    client.get("/login/kturner")
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert 'id="error-title"' in response.get_data(as_text=True)


def test_wrong_method_is_405_even_when_signed_out(world: World) -> None:
    client = create_app(world, expose_grading=True).test_client()
    assert client.get("/grade").status_code == 405
    assert client.get("/no/such/page").status_code == 404


def test_stable_id_is_derived_from_parts() -> None:
    assert stable_id("msg", 12, "react-select") == "msg-12-react-select"
    assert stable_id("Sidebar Channel", "#Proj Apollo!") == "sidebar-channel-proj-apollo"
    assert str(og_id("msg", 7)) == 'id="msg-7" data-og-id="msg-7"'


def test_og_id_escapes_its_value() -> None:
    assert '"' not in stable_id('a"b')
    assert "<" not in str(og_id("<x>"))


# ---------------------------------------------------------------- forms from other sites


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Referer": "http://evil.example/page"},
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_a_form_post_from_another_site_is_refused(
    probe: FlaskClient, world: World, headers: dict[str, str]
) -> None:
    before = _topic(world)
    response = probe.post("/probe/ok", headers=headers)
    assert response.status_code == 403 and "refused" in response.get_data(as_text=True)
    assert _topic(world) == before


def test_same_origin_forms_keep_working(probe: FlaskClient, world: World) -> None:
    own = {"Origin": "http://localhost", "Referer": "http://localhost/slack/",
           "Sec-Fetch-Site": "same-origin"}  # fmt: skip
    assert probe.post("/probe/ok", headers=own).status_code == 200
    assert _topic(world) == "changed ok"


def test_a_refused_form_post_is_flashed_on_the_page_it_came_from(
    probe: FlaskClient, world: World
) -> None:
    before = _topic(world)
    came_from = "http://localhost/slack/people?q=ann"
    response = probe.post("/probe/forbidden", headers={"Referer": came_from})
    assert (response.status_code, response.location) == (303, "/slack/people?q=ann")
    assert "probe says no" in probe.get("/slack/people").get_data(as_text=True)
    assert _topic(world) == before
