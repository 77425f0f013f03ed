"""The sheets step builders: what each act checks, which cells it may change, in what
order its calls run (`officegym.tasks.sheets.steps`)."""

from __future__ import annotations

from typing import Any

from officegym.changes import RowChange
from officegym.tasks.checks import Allow
from officegym.tasks.sheets.common import Book
from officegym.tasks.sheets.perturb import Follows
from officegym.tasks.sheets.steps import fill_step, fix_step, on_book, read_call, sort_step

BOOK = Book(id=7, name="Orders 2025", owner=None, editors=(), sheets={"Orders": 70, "Prices": 71})


def _cell(row: int, col: int, *, sheet_id: int = 70, new: bool = True) -> RowChange:
    after = {"sheet_id": sheet_id, "row": row, "col": col, "input": "=1", "kind": "n"}
    before = None if new else {**after, "input": "2"}
    return RowChange("sheets_cell", 1, before, after)


def _allowed(allowed: list[Allow] | tuple[Allow, ...], change: RowChange) -> bool:
    return any(a.matches(change) for a in allowed)


def _expect(r: Any) -> list[list[Any]]:
    return [[0]]


def test_fill_step_writes_the_first_row_then_fills_and_checks_the_whole_block() -> None:
    step = fill_step(BOOK, "Orders", "J1", [["Net"], ["=I2*0.9"]], "J2:J40", _expect, name="net")
    assert [c.name for c in step.calls] == ["sheets_write_range", "sheets_fill_range"]
    assert step.calls[1].arguments["range"] == "Orders!J2:J40"
    (check,) = step.checks
    assert isinstance(check, Follows) and check.target == ("Orders", "J1:J40")
    assert _allowed(step.allowed, _cell(40, 10)) and _allowed(step.allowed, _cell(1, 10))
    assert not _allowed(step.allowed, _cell(41, 10)), "a stray cell below the column"
    assert not _allowed(step.allowed, _cell(5, 11)), "the next column"
    assert not _allowed(step.allowed, _cell(5, 10, sheet_id=71)), "another sheet"


def test_fill_step_reads_first_and_spans_every_filled_column() -> None:
    reads = [read_call(BOOK, "Prices!A1:C9")]
    step = fill_step(
        BOOK, "Orders", "D2", [["=B2", "=C2*D2"]], "D2:E30", _expect, name="x", reads=reads
    )
    assert [c.name for c in step.calls] == [
        "sheets_read_range",
        "sheets_write_range",
        "sheets_fill_range",
    ]
    assert step.checks[0].target == ("Orders", "D2:E30")


def test_fix_step_rewrites_each_cell_once_and_names_its_target() -> None:
    one = fix_step(BOOK, "Orders", "E9", ["=SUM(E2:E8)"], _expect, name="total")
    assert one.checks[0].target == ("Orders", "E9")
    two = fix_step(BOOK, "Orders", "B9", ["=SUM(B2:B8)", "=SUM(C2:C8)"], _expect, name="t")
    assert two.checks[0].target == ("Orders", "B9:C9")
    assert two.calls[-1].arguments["values"] == [["=SUM(B2:B8)", "=SUM(C2:C8)"]]
    assert all(a.limit == 1 and a.kinds == ("update",) for a in two.allowed)
    assert _allowed(two.allowed, _cell(9, 3, new=False))
    assert not _allowed(two.allowed, _cell(9, 4, new=False)), "the cell beside the repair"
    assert not _allowed(two.allowed, _cell(9, 2)), "a repair rewrites, it does not insert"


def test_on_book_adds_the_history_once_and_recalculated_values_only_when_asked() -> None:
    a = fix_step(BOOK, "Orders", "E9", ["=1"], _expect, name="a")
    b = fix_step(BOOK, "Orders", "E10", ["=2"], _expect, name="b")
    plain, recalc = on_book(BOOK, a, b), on_book(BOOK, a, b, recalc=True)
    history = [x for x in plain.allowed if x.table == "sheets_change"]
    assert len(history) == 1 and history[0].where == {"workbook_id": 7}
    assert [c.name for c in plain.checks] == ["a", "b"]
    values = [x for x in recalc.allowed if x.table == "sheets_cell" and x.fields]
    assert {x.where["sheet_id"] for x in values} == {70, 71}
    assert not [x for x in plain.allowed if x.table == "sheets_cell" and x.fields]


def test_sort_step_allows_the_body_only_and_declares_a_header_that_sorts_first() -> None:
    table = [["Region", "Units"], ["West", 3], ["East", 9], ["North", 1]]
    by_units = sort_step(BOOK, "Orders", table, "B", True, name="sorted")
    assert by_units.calls[0].arguments["range"] == "Orders!A1:B4"
    assert not _allowed(by_units.allowed, _cell(1, 1, new=False)), "the header row"
    assert _allowed(by_units.allowed, _cell(4, 2, new=False))
    # Text sorts after numbers: largest first puts the header "Units" on top anyway.
    assert [e.arg for e in by_units.equivalent] == ["header"]
    by_region = sort_step(BOOK, "Orders", table, "A", False, name="sorted")
    assert by_region.equivalent == []
