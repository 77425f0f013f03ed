"""The declarative checks on real states: rows the episode created found by content
(`NewRowId`), texts judged by `Says`, answers by `AnswerIs`, field values exact or the
same text (`Same`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import pytest

from officegym.changes import diff
from officegym.runner import ToolRunner
from officegym.tasks.checks import (
    Allow,
    AnswerIs,
    FieldEquals,
    GradeContext,
    NewRowId,
    RowAbsent,
    RowExists,
    Same,
    resolve,
)
from officegym.tasks.facts import integer
from officegym.tasks.statements import Says
from officegym.world import World

ME = "kturner"


@pytest.fixture
def context(world: World) -> Iterator[Callable[..., GradeContext]]:
    """Make calls as kturner, then the grade context of the episode (connections closed
    after the test)."""
    with contextlib.ExitStack() as stack:

        def make(*calls: tuple[str, dict], answer: str | None = None) -> GradeContext:
            runner = ToolRunner(world, ME)
            for name, args in calls:
                out = runner.call(name, args)
                assert out.ok, out.error
            runner.close()
            before = stack.enter_context(world.initial_connection())
            after = stack.enter_context(world.engine.connect())
            return GradeContext(before, after, tuple(diff(before, after)), answer)

        yield make


CREATE = ("slack_create_channel", {"name": "zz-new", "topic": "Launch plan"})


def test_a_new_row_id_names_the_row_the_episode_made(context) -> None:
    g = context(CREATE)
    channel = NewRowId("slack_channel", {"name": "zz-new"})
    made = channel.resolve(g)
    assert made is not None and g.rows("slack_channel", {"id": made})[0]["name"] == "zz-new"
    member = RowExists(name="m", table="slack_membership", where={"channel_id": channel})
    assert member.evaluate(g)[0]
    assert NewRowId("slack_channel", {"name": "general"}).resolve(g) is None  # not new


def test_an_unresolved_row_id_matches_nothing(context) -> None:
    g = context()
    ghost = NewRowId("slack_channel", {"name": "never-made"})
    assert resolve({"channel_id": ghost}, g)["channel_id"] == -1
    assert RowAbsent(name="a", table="slack_membership", where={"channel_id": ghost}).evaluate(g)[0]


def test_allowances_resolve_the_rows_the_episode_made(context) -> None:
    g = context(CREATE)
    allow = Allow(
        "slack_membership", where={"channel_id": NewRowId("slack_channel", {"name": "zz-new"})}
    )
    resolved = allow.resolved(g)
    membership = next(c for c in g.changes if c.table == "slack_membership")
    assert resolved.matches(membership) and not allow.matches(membership)


def test_row_exists_judges_text_columns_with_says(context) -> None:
    g = context(CREATE)
    exact = RowExists(name="t", table="slack_channel", where={"name": "zz-new"},
                      says={"topic": Says(exactly="launch plan!")})  # fmt: skip
    wrong = RowExists(name="t", table="slack_channel", where={"name": "zz-new"},
                      says={"topic": Says(exactly="Launch plan B")})  # fmt: skip
    assert exact.evaluate(g)[0] and not wrong.evaluate(g)[0]


def test_field_equals_reads_the_final_value(context) -> None:
    g = context(CREATE)
    made = NewRowId("slack_channel", {"name": "zz-new"}).resolve(g)
    assert made is not None
    ok = FieldEquals(name="f", table="slack_channel", row_id=made, field="kind", value="public")
    no = FieldEquals(name="f", table="slack_channel", row_id=made, field="kind", value="private")
    gone = FieldEquals(name="f", table="slack_channel", row_id=10**9, field="kind", value="x")
    assert ok.evaluate(g)[0] and not no.evaluate(g)[0]
    assert gone.evaluate(g) == (False, "slack_channel 1000000000 no longer exists")


def test_answer_is_reads_the_final_answer(context) -> None:
    check = AnswerIs(name="a", fact=integer(42))
    assert check.evaluate(context(answer="It is 42."))[0]
    assert not check.evaluate(context(answer="42 or 43"))[0]
    assert check.evaluate(context())[1] == "answer no answer"


def test_same_matches_text_up_to_case_and_spacing_but_not_other_words(context) -> None:
    g = context(("slack_set_status", {"text": "Out  Sick TODAY", "emoji": "face_with_thermometer"}))
    where = {"text": Same("out sick today.")}
    assert RowExists(name="s", table="slack_status", where=where, new=True).evaluate(g)[0]
    assert RowExists(name="s", table="slack_status", where=where).evaluate(g)[0]
    other = {"text": Same("out sick today and tomorrow")}
    assert not RowExists(name="s", table="slack_status", where=other).evaluate(g)[0]
    assert Allow("slack_status", kinds=("insert", "update"), where=where).matches(g.changes[0])
