"""The change log (triggers) and the full row-by-row diff agree, and ignore
ephemeral columns."""

from __future__ import annotations

from officegym.changes import diff, earlier_texts, full_diff, write_order
from officegym.runner import CallOutcome, ToolRunner
from officegym.world import World


def act(runner: ToolRunner, tool: str, **arguments: object) -> CallOutcome:
    return runner.call(tool, arguments)


def _changes(world: World) -> tuple[list, list]:
    with world.initial_connection() as before, world.engine.connect() as after:
        return diff(before, after), full_diff(before, after)


def test_untouched_world_has_no_changes(world: World) -> None:
    logged, full = _changes(world)
    assert logged == [] and full == []


def test_log_and_full_diff_agree_on_inserts_updates_and_deletes(world: World) -> None:
    runner = ToolRunner(world, "kturner")
    posted = act(runner, "slack_post_message", channel="general", text="hello @kturner")
    assert posted.ok, posted.error
    mid = posted.result["message_id"]
    assert act(runner, "slack_edit_message", message_id=mid, text="hello again").ok
    assert act(runner, "slack_add_reaction", message_id=mid, emoji="tada").ok
    assert act(runner, "slack_remove_reaction", message_id=mid, emoji="tada").ok
    assert act(runner, "slack_set_status", text="Heads down", emoji="headphones").ok
    logged, full = _changes(world)
    assert logged == full
    kinds = {(c.table, c.kind) for c in logged}
    assert ("slack_message", "insert") in kinds
    # the mention was inserted by the post and deleted by the edit: no net change
    assert not any(c.table == "slack_mention" for c in logged)
    # a reaction added then removed leaves nothing behind
    assert not any(c.table == "slack_reaction" for c in logged)


def test_updates_report_changed_fields(world: World) -> None:
    runner = ToolRunner(world, "kturner")
    assert act(runner, "slack_set_channel_topic", channel="general", topic="New topic").ok
    logged, _ = _changes(world)
    (change,) = logged
    assert change.kind == "update" and change.fields == {"topic"}
    assert change.before["topic"] != change.after["topic"] == "New topic"


def test_reading_moves_only_ephemeral_read_markers(world: World) -> None:
    runner = ToolRunner(world, "kturner")
    assert act(runner, "slack_read_channel", channel="general").ok
    with world.engine.connect() as conn:
        touched = conn.exec_driver_sql("SELECT count(*) FROM og_change").scalar()
    logged, full = _changes(world)
    assert touched >= 1  # the read marker row was written...
    assert logged == full == []  # ...but it is not a change a grader counts


def test_the_write_log_keeps_the_order_of_first_and_last_writes(world: World) -> None:
    """`write_order` gives each written row its first and last place among the writes:
    a row written, then another, then the first again ends last."""
    runner = ToolRunner(world, "kturner")
    posted = act(runner, "slack_post_message", channel="general", text="first")
    assert posted.ok, posted.error
    assert act(runner, "slack_set_channel_topic", channel="general", topic="Later").ok
    mid = posted.result["message_id"]
    assert act(runner, "slack_edit_message", message_id=mid, text="edited").ok
    with world.engine.connect() as conn:
        order = write_order(conn)
        channel = conn.exec_driver_sql("SELECT id FROM slack_channel WHERE name='general'")
        cid = channel.scalar()
    assert order is not None
    sent, topic = order[("slack_message", mid)], order[("slack_channel", cid)]
    assert sent[0] < topic[0] <= topic[1] < sent[1]
    world.reset()
    with world.engine.connect() as conn:
        assert write_order(conn) == {}


def test_earlier_texts_keep_what_edits_replaced_and_deletes_removed(world: World) -> None:
    """What was said stays said: every text a row held before an update or a delete."""
    runner = ToolRunner(world, "kturner")
    posted = act(runner, "slack_post_message", channel="general", text="first words")
    mid = posted.result["message_id"]
    assert act(runner, "slack_edit_message", message_id=mid, text="second words").ok
    assert act(runner, "slack_edit_message", message_id=mid, text="final words").ok
    assert act(runner, "slack_add_reaction", message_id=mid, emoji="tada").ok
    assert act(runner, "slack_remove_reaction", message_id=mid, emoji="tada").ok
    with world.engine.connect() as conn:
        earlier = earlier_texts(conn)
    assert earlier[("slack_message", mid)] == [("text", "first words"), ("text", "second words")]
    gone = [texts for (table, _), texts in earlier.items() if table == "slack_reaction"]
    assert gone == [[("emoji", "tada")]]


def test_a_reset_forgets_the_earlier_texts(world: World) -> None:
    runner = ToolRunner(world, "kturner")
    mid = act(runner, "slack_post_message", channel="general", text="one").result["message_id"]
    assert act(runner, "slack_edit_message", message_id=mid, text="two").ok
    world.reset()
    with world.engine.connect() as conn:
        assert earlier_texts(conn) == {}
