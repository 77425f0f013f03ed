"""Single-row writes beside the unit of work: the database, the session's objects and
the change log agree, after commit and after rollback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from officegym.apps.slack.models import Channel, Message, Reaction
from officegym.changes import diff
from officegym.db import get
from officegym.world import World
from officegym.writes import delete_row, insert_row, update_row


@pytest.fixture
def s(world: World) -> Iterator[Session]:
    session = world.session()
    yield session
    session.close()


def first_message(s: Session) -> Message:
    return s.scalars(select(Message).where(Message.is_deleted.is_(False))).first()  # type: ignore[return-value]


def test_insert_returns_a_loaded_persistent_object_with_defaults(world: World, s: Session) -> None:
    msg = first_message(s)
    reaction = insert_row(s, Reaction, message_id=msg.id, person_id=msg.user_id, emoji="tada")
    statements: list[str] = []
    event.listen(world.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    assert reaction.id is not None and reaction in s and reaction.emoji == "tada"
    assert get(s, Reaction, reaction.id) is reaction
    assert statements == []  # every column was known: nothing reloaded
    channel = insert_row(s, Channel, name="w-test", kind="public", created_by_id=1,
                         created_at=msg.created_at)  # fmt: skip
    assert channel.is_archived is False and channel.topic == ""  # the models' defaults
    s.commit()
    with world.initial_connection() as before, world.engine.connect() as after:
        inserted = {(c.table, c.row_id) for c in diff(before, after) if c.kind == "insert"}
    assert inserted == {("slack_reaction", reaction.id), ("slack_channel", channel.id)}


def test_update_and_delete_reach_the_database_and_the_objects(world: World, s: Session) -> None:
    msg = first_message(s)
    update_row(s, msg, text="rewritten", is_deleted=True)
    assert msg.text == "rewritten" and msg not in s.dirty
    reaction = insert_row(s, Reaction, message_id=msg.id, person_id=msg.user_id, emoji="x")
    delete_row(s, reaction)
    assert reaction not in s
    s.commit()
    with world.engine.connect() as conn:
        row = conn.execute(select(Message.text, Message.is_deleted).where(Message.id == msg.id))
        assert tuple(row.one()) == ("rewritten", True)
        assert conn.execute(select(Reaction).where(Reaction.id == reaction.id)).first() is None


def test_rollback_undoes_the_writes_in_the_session_too(s: Session) -> None:
    msg = first_message(s)
    original = msg.text
    s.commit()
    update_row(s, msg, text="for a moment")
    reaction = insert_row(s, Reaction, message_id=msg.id, person_id=msg.user_id, emoji="x")
    reaction_id = reaction.id
    s.rollback()
    assert reaction not in s
    assert msg.text == original  # expired by the rollback, reloaded from the database
    again = insert_row(s, Reaction, message_id=msg.id, person_id=msg.user_id, emoji="x")
    assert again.id == reaction_id  # the id is reused without clashing in the session
