"""The chat service called directly, as routes, tools, the API and seeders call it: history
windows, search limits, conversations found or opened once, and the all-or-nothing rules
of invitations."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from sqlalchemy.orm import Session

from officegym.apps.org import service as org
from officegym.apps.slack import service as chat
from officegym.errors import Conflict, Invalid
from officegym.world import World


@pytest.fixture
def s(world: World) -> Iterator[Session]:
    with world.session() as session:
        yield session


def me(s: Session, handle: str = "kturner"):
    return org.find_person(s, handle)


def test_history_windows_keep_only_messages_strictly_between_two_points(s: Session) -> None:
    actor = me(s)
    general = chat.get_channel(s, actor, "general")
    newest = chat.history(s, actor, general, limit=10, mark_read=False)
    lo, hi = newest[7], newest[2]  # newest first
    window = chat.history(
        s,
        actor,
        general,
        limit=100,
        mark_read=False,
        newer_than=(lo.created_at, lo.id),
        older_than=(hi.created_at, hi.id),
    )
    assert [m.id for m in window] == [m.id for m in newest[3:7]]
    later = chat.history(
        s, actor, general, limit=100, mark_read=False, newer_than=(hi.created_at, hi.id)
    )
    assert [m.id for m in later] == [m.id for m in newest[:2]]


def test_search_refuses_queries_it_cannot_run_cheaply(s: Session) -> None:
    actor = me(s)
    with pytest.raises(Invalid, match="empty"):
        chat.search_messages(s, actor, query="   ")
    with pytest.raises(Invalid, match="more than 20 words"):
        chat.search_messages(s, actor, query=" ".join(["w"] * 21))
    with pytest.raises(Invalid, match="longer than 500"):
        chat.search_messages(s, actor, query="x" * 501)


def test_search_matches_literal_wildcards(s: Session) -> None:
    actor = me(s)
    general = chat.get_channel(s, actor, "general")
    hit = chat.post_message(s, actor, general, "discount is 100% off_peak")
    other = chat.post_message(s, actor, general, "discount is 1000 offXpeak")
    found = {m.id for m in chat.search_messages(s, actor, query="100% off_peak")}
    assert hit.id in found and other.id not in found


def test_a_conversation_is_opened_once_and_found_after(s: Session) -> None:
    actor, other = me(s), me(s, "mchang")
    first = chat.open_dm(s, actor, [other])
    again = chat.open_dm(s, other, [actor])
    assert first.id == again.id == chat.find_dm(s, actor, [other]).id
    with pytest.raises(Invalid, match="at least one other person"):
        chat.open_dm(s, actor, [actor])


def test_inviting_only_members_is_a_conflict_and_adds_nobody(s: Session) -> None:
    actor = me(s)
    general = chat.get_channel(s, actor, "general")
    members = chat.members(s, actor, general)[:3]
    with pytest.raises(Conflict) as exc:
        chat.invite(s, actor, general, members)
    assert exc.value.code == "already_in_channel"


def test_an_edit_keeps_the_row_and_records_when(s: Session) -> None:
    actor = me(s)
    general = chat.get_channel(s, actor, "general")
    msg = chat.post_message(s, actor, general, "see you Monday")
    posted_at = msg.created_at
    chat.edit_message(s, actor, msg, "see you Tuesday")
    assert (msg.text, msg.created_at) == ("see you Tuesday", posted_at)
    assert isinstance(msg.edited_at, dt.datetime)
