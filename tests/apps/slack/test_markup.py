"""Slack's markup read and written: what is stored is what people read, what the API
returns is what Slack returns, and the round trip keeps the text."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy.orm import Session

from officegym.apps.org import service as org
from officegym.apps.slack.markup import from_wire, to_stored, to_wire
from officegym.world import World


@pytest.fixture
def s(world: World) -> Iterator[Session]:
    with world.session() as session:
        yield session


def uid(s: Session, handle: str) -> str:
    return f"U{org.find_person_id(s, handle):07d}"


def test_tokens_are_stored_as_people_write_them(s: Session) -> None:
    me = uid(s, "kturner")
    assert to_stored(s, f"hi <@{me}> and <@{me}|kristen>") == "hi @kturner and @kturner"
    assert to_stored(s, "<#C0000001> <#C0000001|general> <!here> <!channel|channel>") == (
        "#general #general @here @channel"
    )
    assert to_stored(s, "<https://x.test/a|the doc> <https://x.test/b>") == (
        "the doc (https://x.test/a) https://x.test/b"
    )
    assert to_stored(s, "<@U9999999> <nonsense> a < b") == "<@U9999999> <nonsense> a < b"


def test_the_wire_form_escapes_and_links(s: Session) -> None:
    me = uid(s, "kturner")
    stored = "Ask @kturner. in #general & <b>, email a@kturner.test, @here"
    wire = to_wire(s, stored)
    assert wire == (
        f"Ask <@{me}>. in <#C0000001|general> &amp; &lt;b&gt;, email a@kturner.test, <!here>"
    )
    assert from_wire(s, wire) == stored


def test_escaped_markup_from_a_client_stays_text(s: Session) -> None:
    assert from_wire(s, "&lt;@U0000001&gt; &amp;lt;") == "<@U0000001> &lt;"
