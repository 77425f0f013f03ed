"""`officegym.tasks.writings`: every text an episode wrote, in every version, anywhere,
by its author — and not what the world held before."""

from __future__ import annotations

from officegym.changes import diff
from officegym.runner import ToolRunner
from officegym.tasks.checks import GradeContext
from officegym.tasks.writings import writings
from officegym.world import World


def _context(world: World) -> GradeContext:
    initial = world.initial_connection()
    final = world.engine.connect()
    return GradeContext(initial, final, tuple(diff(initial, final)), None)


def _person_id(world: World, handle: str) -> int:
    with world.engine.connect() as conn:
        return conn.exec_driver_sql(
            "SELECT id FROM org_person WHERE handle = ?", (handle,)
        ).scalar()


def test_every_version_and_every_place_is_written(world: World) -> None:
    me = ToolRunner(world, "kturner")
    mid = me.call("slack_post_message", {"channel": "general", "text": "v1"}).result["message_id"]
    assert me.call("slack_edit_message", {"message_id": mid, "text": "v2"}).ok
    assert me.call("slack_delete_message", {"message_id": mid}).ok
    assert me.call("slack_set_status", {"text": "away now"}).ok
    assert me.call("slack_set_status", {"text": ""}).ok
    topic = {"channel": "general", "topic": "new topic"}
    assert me.call("slack_set_channel_topic", topic).ok
    texts = {(w.table, w.text) for w in writings(_context(world), _person_id(world, "kturner"))}
    assert {("slack_message", "v1"), ("slack_message", "v2")} <= texts
    assert ("slack_status", "away now") in texts  # set, then cleared: said all the same
    assert ("slack_channel", "new topic") in texts
    assert not any(t == "general" for _, t in texts)  # the channel's name was not written


def test_another_author_s_messages_are_not_the_persona_s(world: World) -> None:
    me, other = ToolRunner(world, "kturner"), ToolRunner(world, "mchang")
    assert me.call("slack_post_message", {"channel": "general", "text": "mine"}).ok
    assert other.call("slack_post_message", {"channel": "general", "text": "theirs"}).ok
    texts = {w.text for w in writings(_context(world), _person_id(world, "kturner"))}
    assert "mine" in texts and "theirs" not in texts
