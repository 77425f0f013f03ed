"""Look-up memos: used only by sessions that opt in, and exact after their own writes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import event, text

from officegym import memo
from officegym.runner import ToolRunner
from officegym.world import World


@pytest.fixture
def statements(world: World) -> Iterator[list[str]]:
    """Every SQL statement the world's engine runs, in order."""
    seen: list[str] = []

    def record(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        seen.append(statement)

    event.listen(world.engine, "before_cursor_execute", record)
    yield seen
    event.remove(world.engine, "before_cursor_execute", record)


def test_a_runner_looks_a_channel_and_membership_up_once(
    world: World, statements: list[str]
) -> None:
    runner = ToolRunner(world, "kturner")
    assert runner.call("slack_post_message", {"channel": "general", "text": "one"}).ok
    statements.clear()
    assert runner.call("slack_post_message", {"channel": "general", "text": "two"}).ok
    lookups = [s for s in statements if s.lstrip().startswith("SELECT")]
    assert not any("slack_channel.name =" in s or "slack_membership" in s for s in lookups)


def test_memos_follow_the_sessions_own_writes(world: World) -> None:
    runner = ToolRunner(world, "kturner")
    assert runner.call("slack_create_channel", {"name": "memo-test"}).ok
    post = {"channel": "memo-test", "text": "still here?"}
    assert runner.call("slack_post_message", post).ok  # memoizes the membership
    assert runner.call("slack_leave_channel", {"channel": "memo-test"}).ok
    assert runner.call("slack_post_message", post).code == "not_in_channel"
    assert runner.call("slack_join_channel", {"channel": "memo-test"}).ok
    assert runner.call("slack_post_message", post).ok
    assert runner.call("slack_create_channel", {"name": "memo-two"}).ok
    assert runner.call("slack_post_message", {"channel": "memo-two", "text": "hi"}).ok


def test_rollback_forgets_everything(world: World) -> None:
    s = world.session()
    memo.enable(s)
    s.execute(text("SELECT 1"))  # a transaction to roll back
    loads: list[int] = []
    assert memo.recall(s, "k", 1, lambda: loads.append(1) or 10) == 10
    assert memo.recall(s, "k", 1, lambda: loads.append(1) or 11) == 10
    s.rollback()
    assert memo.recall(s, "k", 1, lambda: loads.append(1) or 12) == 12
    assert len(loads) == 2


def test_sessions_that_did_not_opt_in_always_load(world: World) -> None:
    s = world.session()
    values = iter([1, 2])
    assert memo.recall(s, "k", "key", lambda: next(values)) == 1
    assert memo.recall(s, "k", "key", lambda: next(values)) == 2


def test_a_restarted_runner_sees_the_reset_world_not_the_last_episode(world: World) -> None:
    runner = ToolRunner(world, "kturner")
    topic = runner.call("slack_get_channel_info", {"channel": "general"}).result["topic"]
    assert runner.call("slack_set_channel_topic", {"channel": "general", "topic": "new"}).ok
    assert runner.call("slack_create_channel", {"name": "restart-test"}).ok
    assert runner.call("slack_leave_channel", {"channel": "restart-test"}).ok
    world.reset()
    runner.restart("kturner")
    assert runner.call("slack_get_channel_info", {"channel": "general"}).result["topic"] == topic
    again = runner.call("slack_post_message", {"channel": "restart-test", "text": "x"})
    assert again.code == "channel_not_found"
    assert runner.call("slack_create_channel", {"name": "restart-test"}).ok
    assert runner.call("slack_post_message", {"channel": "restart-test", "text": "x"}).ok
