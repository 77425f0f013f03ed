"""The persona policy every door of a served world asks: who acts, and who is refused."""

from __future__ import annotations

import pytest

from officegym.errors import Forbidden
from officegym.personas import PersonaPolicy, bearer_token, handle_of_token, token_for
from officegym.web import create_app, persona_policy, set_persona_policy
from officegym.world import World


def test_a_token_names_a_handle_and_back() -> None:
    assert handle_of_token(token_for("kturner")) == "kturner"
    for foreign in ("xoxb-kturner", "kturner", "xoxp-", ""):
        assert handle_of_token(foreign) is None


@pytest.mark.parametrize(
    ("header", "token"),
    [
        ("Bearer xoxp-a", "xoxp-a"),
        ("bearer   xoxp-a ", "xoxp-a"),
        ("Basic xoxp-a", None),
        ("Bearer", None),
        ("", None),
        (None, None),
    ],
)
def test_bearer_token_reads_only_bearer_headers(header: str | None, token: str | None) -> None:
    assert bearer_token(header) == token


def test_a_locked_policy_admits_only_its_persona() -> None:
    policy = PersonaPolicy("me", locked=True)
    assert policy.acting(None) == policy.acting("me") == "me"
    with pytest.raises(Forbidden) as refused:
        policy.acting("you")
    assert refused.value.code == "persona_locked" and "@me" in refused.value.message


def test_an_open_policy_lets_a_request_name_anyone_and_falls_back_to_its_default() -> None:
    assert PersonaPolicy("me").acting("you") == "you"
    assert PersonaPolicy("me").acting(None) == "me"
    with pytest.raises(Forbidden) as nobody:
        PersonaPolicy().acting(None)
    assert nobody.value.code == "not_authed"


def test_a_locked_policy_needs_a_persona() -> None:
    with pytest.raises(ValueError, match="needs a default persona"):
        PersonaPolicy(locked=True)


def test_the_app_keeps_the_directory_spelling_of_its_persona(world: World) -> None:
    app = create_app(world, persona="@mchang", lock_persona=True)
    assert persona_policy(app) == PersonaPolicy("mchang", locked=True)


def test_a_sign_in_the_policy_no_longer_admits_is_dropped(world: World) -> None:
    """A browser env relocks its app at every episode: last episode's cookie is void."""
    app = create_app(world)
    client = app.test_client()
    assert client.get("/login/kturner").status_code == 302
    set_persona_policy(app, PersonaPolicy("mchang", locked=True))
    page = client.get("/slack/people").get_data(as_text=True)
    assert "(@mchang)" in page and "(@kturner)" not in page
