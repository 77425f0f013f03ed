"""Races end cleanly: two sessions that both find a row absent and then both insert it
(two tabs creating the same channel, a double-clicked reaction) give one success and
one clear domain error, or the same row twice where the operation is idempotent (a DM,
a join), never an IntegrityError. On PostgreSQL both threads are held just before their
INSERT until both got there, so the race happens on every run; on a SQLite file every
transaction takes the write lock when it begins (``BEGIN IMMEDIATE``), so the threads,
started together, queue and the second sees what the first wrote.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event, func, select

from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, Membership, Reaction
from officegym.runner import CallOutcome, ToolRunner
from officegym.world import World, world_image
from tests.postgres import postgres_world

ME, OTHER = "kturner", "mchang"


@pytest.fixture(scope="module", params=["sqlite-file", "postgresql"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    """A world both threads write through sessions of their own."""
    if request.param == "sqlite-file":
        w = World(world_image("default", 0), url=f"sqlite:///{tmp_path_factory.mktemp('r')}/w.db")
        yield w
        w.close()
        return
    with postgres_world("og_race") as w:
        yield w


def race(world: World, table: str, calls: list[tuple[str, str, dict[str, Any]]]) -> list:
    """Run each (persona, tool, arguments) in a thread of its own; on PostgreSQL each waits
    before its first INSERT into `table` until every thread reached that point (on SQLite
    the write lock taken at BEGIN lets only one get there at a time). Outcomes in order."""
    hold_inserts = world.engine.dialect.name != "sqlite"
    barrier = threading.Barrier(len(calls), timeout=20)
    held: set[int] = set()

    def hold(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.startswith(f"INSERT INTO {table} ") and threading.get_ident() not in held:
            held.add(threading.get_ident())
            barrier.wait()

    outcomes: list[CallOutcome | None] = [None] * len(calls)

    def run(i: int, persona: str, name: str, arguments: dict[str, Any]) -> None:
        runner = ToolRunner(world, persona)
        try:
            outcomes[i] = runner.call(name, arguments)
        finally:
            runner.close()

    if hold_inserts:
        event.listen(world.engine, "before_cursor_execute", hold)
    try:
        threads = [threading.Thread(target=run, args=(i, *c)) for i, c in enumerate(calls)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    finally:
        if hold_inserts:
            event.remove(world.engine, "before_cursor_execute", hold)
    assert not hold_inserts or len(held) == len(calls), "every thread reached its INSERT"
    return outcomes


def one_winner(outcomes: list[CallOutcome], code: str) -> None:
    assert sorted(o.ok for o in outcomes) == [False, True], outcomes
    loser = next(o for o in outcomes if not o.ok)
    assert loser.code == code and "internal" not in (loser.error or ""), loser


def count(world: World, stmt: Any) -> int:
    with world.session() as s:
        return s.scalar(stmt)


def test_creating_the_same_channel_twice_at_once_is_name_taken(world: World) -> None:
    name = f"race-{uuid.uuid4().hex[:6]}"
    args = {"name": name}
    one_winner(race(world, "slack_channel", [(ME, "slack_create_channel", args)] * 2), "name_taken")
    assert count(world, select(func.count()).where(Channel.name == name)) == 1


def test_the_same_reaction_twice_at_once_is_already_reacted(world: World) -> None:
    runner = ToolRunner(world, ME)
    posted = runner.call("slack_post_message", {"channel": "general", "text": "race me"})
    runner.close()
    args = {"message_id": posted.result["message_id"], "emoji": "tada"}
    calls = [(ME, "slack_add_reaction", args)] * 2
    one_winner(race(world, "slack_reaction", calls), "already_reacted")
    on_message = Reaction.message_id == args["message_id"]
    assert count(world, select(func.count()).where(on_message)) == 1


def test_pinning_one_message_twice_at_once_is_already_pinned(world: World) -> None:
    runner = ToolRunner(world, ME)
    posted = runner.call("slack_post_message", {"channel": "general", "text": "pin race"})
    runner.close()
    args = {"message_id": posted.result["message_id"]}
    calls = [(ME, "slack_pin_message", args), (OTHER, "slack_pin_message", args)]
    one_winner(race(world, "slack_pin", calls), "already_pinned")


def test_two_people_opening_their_dm_at_once_get_one_conversation(world: World) -> None:
    """Opening a DM is idempotent: both messages land in the one DM the winner opened."""
    a, b = strangers(world)
    calls = [
        (a, "slack_send_dm", {"people": [b], "text": "hi from A"}),
        (b, "slack_send_dm", {"people": [a], "text": "hi from B"}),
    ]
    before = count(world, select(func.count()).where(Channel.kind == "dm"))
    outcomes = race(world, "slack_channel", calls)
    assert all(o.ok for o in outcomes), outcomes
    assert count(world, select(func.count()).where(Channel.kind == "dm")) == before + 1


def strangers(world: World) -> tuple[str, str]:
    """Two people who have no DM yet."""
    with world.session() as s:
        people = s.scalars(select(Person).order_by(Person.id)).all()
        for other in people[1:]:
            if chat.find_dm(s, people[0], [other]) is None:
                return people[0].handle, other.handle
    raise LookupError("everyone has a DM with the first person")


def test_joining_a_channel_twice_at_once_joins_once(world: World) -> None:
    runner = ToolRunner(world, OTHER)
    name = f"race-join-{uuid.uuid4().hex[:6]}"
    assert runner.call("slack_create_channel", {"name": name}).ok
    runner.close()
    outcomes = race(world, "slack_membership", [(ME, "slack_join_channel", {"channel": name})] * 2)
    assert all(o.ok for o in outcomes), outcomes
    with world.session() as s:
        cid = s.scalar(select(Channel.id).where(Channel.name == name))
    assert count(world, select(func.count()).where(Membership.channel_id == cid)) == 2


def test_two_reps_creating_one_account_at_once_is_duplicate_account(world: World) -> None:
    name = f"Race Holdings {uuid.uuid4().hex[:6]}"
    calls = [("asmith", "crm_create_account", {"name": name})] * 2
    one_winner(race(world, "crm_account", calls), "duplicate_account")


def test_two_cases_created_at_once_never_share_a_number(world: World) -> None:
    """Both get a number of their own where the sessions queue (SQLite); where they truly
    race (PostgreSQL) the loser gets a clear Conflict, never an IntegrityError."""
    from officegym.apps.crm.models import Case

    subjects = [f"Race case {uuid.uuid4().hex[:6]}" for _ in (1, 2)]
    calls = [("asmith", "crm_create_case", {"subject": s}) for s in subjects]
    outcomes = race(world, "crm_case", calls)
    assert all(o.ok or o.code == "conflict" for o in outcomes), outcomes
    assert any(o.ok for o in outcomes), outcomes
    with world.session() as s:
        numbers = s.scalars(select(Case.number).where(Case.subject.in_(subjects))).all()
    assert len(numbers) == sum(o.ok for o in outcomes) == len(set(numbers))
