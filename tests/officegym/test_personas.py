"""The persona policy every door of a served world asks: who acts, and who is refused."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.errors import Forbidden
from officegym.personas import (
    PersonaPolicy,
    bearer_token,
    handle_of_token,
    token_for,
    who_acts,
)
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


def _acts(world: World, policy: PersonaPolicy, token: str | None, **kw: object) -> str:
    """The handle `who_acts` answers, or ``error:<code>``."""
    with world.session() as s:
        try:
            return who_acts(s, policy, token, **kw).handle  # type: ignore[arg-type]
        except Forbidden as exc:
            return f"error:{exc.code}"


def _two(world: World) -> tuple[Person, Person]:
    with world.session() as s:
        me, other = s.scalars(select(Person).order_by(Person.id).limit(2)).all()
        s.expunge_all()
        return me, other


def test_a_locked_policy_admits_only_its_persona(world: World) -> None:
    me, other = _two(world)
    policy = PersonaPolicy(me.handle, locked=True)
    assert _acts(world, policy, None) == _acts(world, policy, token_for(me.handle)) == me.handle
    assert _acts(world, policy, token_for(other.handle)) == "error:persona_locked"
    assert _acts(world, policy, None, signed_in=other.id) == me.handle  # a void sign-in


def test_an_open_policy_lets_a_token_name_anyone_and_falls_back_only_to_its_persona(
    world: World,
) -> None:
    me, other = _two(world)
    assert _acts(world, PersonaPolicy(me.handle), token_for(other.handle)) == other.handle
    assert _acts(world, PersonaPolicy(me.handle), None) == me.handle
    assert _acts(world, PersonaPolicy(), None) == "error:not_authed"
    assert _acts(world, PersonaPolicy(me.handle), None, use_default=False) == "error:not_authed"
    assert _acts(world, PersonaPolicy(me.handle), None, signed_in=other.id) == other.handle


def test_a_token_names_a_person_only_by_the_directory_handle(world: World) -> None:
    """Not by email, full name, '@handle', another prefix or case: one spelling at every
    door, so a door cannot be talked into acting as someone another door would refuse."""
    me, _ = _two(world)
    assert _acts(world, PersonaPolicy(), token_for(me.handle)) == me.handle
    for token in (
        token_for(me.email),
        token_for(me.name),
        token_for(f"@{me.handle}"),
        token_for(me.handle.upper()),
        f"xoxb-{me.handle}",
        me.handle,
        "xoxp-nobody-here",
    ):
        assert _acts(world, PersonaPolicy(me.handle), token) == "error:invalid_auth", token


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
