"""Books between the database and the engine: a fork changes nothing of its parent (the
world's cached initial book), so an episode's edits, sorts and inserted rows never leak
into the next episode; a failed call drops the half-changed book."""

from __future__ import annotations

from officegym.runner import ToolRunner
from officegym.world import World
from tests.apps.sheets.book_helpers import Sheets
from tests.apps.sheets.helpers import owner, workbook


def test_a_fork_leaves_its_parent_as_it_was() -> None:
    parent = Sheets()
    parent.fill({"A1": "1", "A2": "2", "A3": "=A1+A2"})
    child = parent.book.fork()
    child.set_input(1, 1, 1, "10")
    child.recalc([(1, 1, 1)])
    child.set_format(1, 2, 1, "0.00")
    assert child.value(1, 3, 1) == 12 and child.cell(1, 2, 1).fmt == "0.00"
    assert parent["A3"] == 3 and parent["A1"] == 1 and parent.book.cell(1, 2, 1).fmt is None


def test_a_parent_changed_after_a_fork_leaves_the_fork_as_it_was() -> None:
    parent = Sheets()
    parent.fill({"A1": "1", "A2": "2", "A3": "=A1+A2"})
    child = parent.book.fork()
    parent.book.set_input(1, 1, 1, "10")
    parent.book.recalc([(1, 1, 1)])
    parent.book.set_format(1, 2, 1, "0.00")
    assert parent["A3"] == 12 and parent.book.cell(1, 2, 1).fmt == "0.00"
    assert child.value(1, 3, 1) == 3 and child.value(1, 1, 1) == 1
    assert child.cell(1, 1, 1).input == "1" and child.cell(1, 2, 1).fmt is None


def test_an_episode_leaves_the_next_one_the_seeded_workbook(world: World) -> None:
    with world.session() as s:
        me, wb = owner(s, "Orders 2025").handle, workbook(s, "Orders 2025").id
    calls = [
        ("sheets_write_range", {"workbook": wb, "range": "A2", "values": [["changed", 1]]}),
        (
            "sheets_sort_range",
            {"workbook": wb, "range": "A1:I201", "by": [{"column": "I"}], "header": True},
        ),
        ("sheets_insert_dimension", {"workbook": wb, "dimension": "rows", "start": 3, "count": 2}),
    ]
    runner = ToolRunner(world, me)
    first = runner.call("sheets_read_range", {"workbook": wb, "range": "A1:I6"}).result
    for name, args in calls:
        assert runner.call(name, args).ok
    assert runner.call("sheets_read_range", {"workbook": wb, "range": "A1:I6"}).result != first
    world.reset()
    runner.restart(me)
    assert runner.call("sheets_read_range", {"workbook": wb, "range": "A1:I6"}).result == first
    bad = runner.call("sheets_write_range", {"workbook": wb, "range": "A2", "values": [["=SUM("]]})
    assert not bad.ok
    assert runner.call("sheets_read_range", {"workbook": wb, "range": "A1:I6"}).result == first
    runner.close()
