"""The people picker of a new DM and of a channel's invitations: people are typed, as in
Slack's "To:" field, by @handle, email, full name or part of a name only one person has;
a part several people share is refused naming them, and nothing changes."""

from __future__ import annotations

from collections import Counter

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel

ACTOR = "kturner"


@pytest.fixture
def me(client: FlaskClient, db: Session) -> Person:
    assert client.get(f"/login/{ACTOR}").status_code == 302
    return org.find_person(db, ACTOR)


def _people(db: Session, me: Person) -> list[Person]:
    return [p for p in org.list_people(db, limit=1000) if p.id != me.id]


def _unique_part(db: Session, person: Person) -> str:
    """A piece of the person's name no one else's name or handle holds."""
    everyone = [f"{p.name} {p.handle}".casefold() for p in org.list_people(db, limit=1000)]
    for size in range(3, len(person.name) + 1):
        for start in range(len(person.name) - size + 1):
            part = person.name[start : start + size]
            if part.strip() == part and sum(part.casefold() in e for e in everyone) == 1:
                return part
    raise AssertionError(f"{person.name} has no part of their own")


def test_a_dm_opens_with_people_typed_by_handle_email_and_part_of_a_name(
    client: FlaskClient, db: Session, me: Person
) -> None:
    a, b, c = _people(db, me)[:3]
    typed = f"@{a.handle}, {b.email}; {_unique_part(db, c)}"
    response = client.post("/slack/dm/new", data={"people": typed})
    dm = chat.get_channel(db, me, response.location.rsplit("/", 1)[1])
    assert {p.handle for p in chat.members(db, me, dm)} == {ACTOR, a.handle, b.handle, c.handle}


def test_a_part_several_people_share_is_refused_naming_them(
    client: FlaskClient, db: Session, me: Person
) -> None:
    firsts = Counter(p.name.split()[0] for p in _people(db, me))
    shared = next(n for n, k in firsts.most_common() if 2 <= k <= 8)  # all named
    channels_before = db.scalar(select(func.count()).select_from(Channel))
    page = client.post("/slack/dm/new", data={"people": shared}, follow_redirects=True)
    text = page.get_data(as_text=True)
    assert f"fits {firsts[shared]} people" in text
    named = [p for p in _people(db, me) if p.name.split()[0] == shared]
    assert all(f"@{p.handle}" in text for p in named[:8])
    db.expire_all()
    assert db.scalar(select(func.count()).select_from(Channel)) == channels_before


def test_no_one_matching_is_refused(client: FlaskClient, me: Person) -> None:
    page = client.post("/slack/dm/new", data={"people": "Zyxwv Qqq"}, follow_redirects=True)
    assert "matches &#39;Zyxwv Qqq&#39;" in page.get_data(as_text=True)


def test_invitations_take_names_separated_by_commas(
    client: FlaskClient, db: Session, me: Person
) -> None:
    members = {p.id for p in chat.members(db, me, chat.get_channel(db, me, "engineering"))}
    outside = [p for p in _people(db, me) if p.id not in members][:2]
    typed = ", ".join(p.name for p in outside)
    client.post("/slack/c/engineering/invite", data={"people": typed})
    db.expire_all()
    now = {p.id for p in chat.members(db, me, chat.get_channel(db, me, "engineering"))}
    assert now == members | {p.id for p in outside}


def test_the_picker_suggests_people_without_adding_to_the_page_text(
    client: FlaskClient, db: Session, me: Person
) -> None:
    html = client.get("/slack/dm/new").get_data(as_text=True)
    assert 'list="new-dm-choices"' in html and '<datalist id="new-dm-choices">' in html
    assert all(f'value="@{p.handle}"' in html for p in _people(db, me))
    assert "<select" not in html
