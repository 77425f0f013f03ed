"""Dynamic arrays spill as in Google Sheets: the anchor shows the first value and the
cells right of and below it the rest; data in the way makes the anchor #REF! with
Sheets' note; spilled cells are values that feed formulas, typed over they block the
anchor, and they go when the anchor does. Expectations are computed by hand
(LibreOffice 7.4 does not spill dynamic arrays)."""

from __future__ import annotations

import io

from openpyxl import load_workbook
from sqlalchemy import select

from officegym.apps.sheets import budget, spill, store
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Cell
from officegym.apps.sheets.values import NUM, REF
from officegym.runner import ToolRunner
from officegym.world import World
from tests.apps.sheets.book_helpers import Sheets
from tests.apps.sheets.helpers import owner, workbook


def column(book: Sheets, col: str, rows: range) -> list[object]:
    return [book[f"{col}{r}"] for r in rows]


def names() -> Sheets:
    book = Sheets()
    book.fill({f"A{i}": v for i, v in enumerate(["b", "a", "b", "c"], start=1)})
    book.fill({f"B{i}": str(n) for i, n in enumerate([30, 10, 20, 40], start=1)})
    return book


def test_array_functions_fill_the_cells_right_and_below() -> None:
    book = names()
    book.fill(
        {
            "D1": "=UNIQUE(A1:A4)",
            "E1": '=FILTER(B1:B4,A1:A4="b")',
            "F1": "=SORT(B1:B4,1,FALSE)",
            "G1": "=SORTBY(A1:A4,B1:B4,1)",
            "H1": "=TRANSPOSE(B1:B2)",
            "D6": "=SEQUENCE(2,3,10,5)",
            "D9": '=SPLIT("x,y,z",",")',
            "D11": "=ARRAYFORMULA(B1:B4*2)",
            "E11": "=A1:A4",
            "F11": "={1,2;3,4}+B1:B2",
        }
    )
    assert column(book, "D", range(1, 5)) == ["b", "a", "c", None]
    assert column(book, "E", range(1, 4)) == [30, 20, None]
    assert column(book, "F", range(1, 5)) == [40, 30, 20, 10]
    assert column(book, "G", range(1, 5)) == ["a", "b", "b", "c"]
    assert (book["H1"], book["I1"], book["H2"]) == (30, 10, None)
    assert [[book[f"{c}{r}"] for c in "DEF"] for r in (6, 7)] == [[10, 15, 20], [25, 30, 35]]
    assert [book[f"{c}9"] for c in "DEFG"] == ["x", "y", "z", None]
    assert column(book, "D", range(11, 15)) == [60, 20, 40, 80]
    assert column(book, "E", range(11, 15)) == ["b", "a", "b", "c"]
    assert [[book[f"{c}{r}"] for c in "FG"] for r in (11, 12)] == [[31, 32], [13, 14]]


def test_data_in_the_way_shows_ref_with_sheets_note_until_it_goes() -> None:
    book = names()
    book.type("D3", "in the way")
    book.type("D1", "=UNIQUE(A1:A4)")
    assert book["D1"] == REF and book["D2"] is None and book["D3"] == "in the way"
    note = spill.message(book.book, (1, 1, 4))
    assert note == "Array result was not expanded because it would overwrite data in D3."
    book.type("D3", None)
    assert column(book, "D", range(1, 4)) == ["b", "a", "c"]
    assert spill.message(book.book, (1, 1, 4)) is None


def test_typing_into_a_spilled_cell_blocks_the_anchor_and_clearing_it_restores() -> None:
    book = names()
    book.fill({"D1": "=SORT(B1:B4)", "E1": "=D2*100", "E2": "=SUM(D1:D4)"})
    assert (book["E1"], book["E2"]) == (2000, 100)
    book.type("D2", "5")
    assert (book["D1"], book["D2"], book["D3"], book["D4"]) == (REF, 5, None, None)
    assert book["E1"] == 500 and book["E2"] == REF
    book.type("D2", None)
    assert column(book, "D", range(1, 5)) == [10, 20, 30, 40] and book["E1"] == 2000
    book.type("D3", None)  # clearing a spilled value changes nothing, as in Sheets
    assert book["D3"] == 30 and book["D1"] == 10


def test_readers_of_spilled_cells_follow_the_source_and_a_shrinking_spill() -> None:
    book = names()
    book.fill({"D1": '=FILTER(B1:B4,A1:A4="b")', "F1": "=D2+1", "F2": "=COUNT(D1:D9)"})
    assert (book["F1"], book["F2"]) == (21, 2)
    book.type("A4", "b")  # a third match grows the spill
    assert column(book, "D", range(1, 4)) == [30, 20, 40] and book["F2"] == 3
    book.type("A3", "z")  # fewer matches: D2 now 40, D3 empties
    assert column(book, "D", range(1, 4)) == [30, 40, None]
    assert (book["F1"], book["F2"]) == (41, 2)


def test_deleting_the_anchor_clears_its_spill_and_frees_a_blocked_one() -> None:
    book = names()
    book.fill({"D1": "=SEQUENCE(3)", "C3": "=SEQUENCE(1,2)", "H1": "=D3"})
    assert book["C3"] == REF and book["H1"] == 3  # C3:D3 would overwrite D3
    book.type("D1", None)
    assert column(book, "D", range(1, 4)) == [None, None, 2]  # C3 spills now
    assert book["C3"] == 1 and book["H1"] == 2
    book.type("C3", "text")
    assert book["D3"] is None and book["H1"] == 0


def test_a_spill_that_reads_its_own_cells_is_circular() -> None:
    book = Sheets()
    book.type("A1", "=SEQUENCE(COUNT(A2:A5)+2)")
    assert book["A1"] == REF and book["A2"] is None


def test_a_spill_larger_than_the_spill_budget_shows_the_budget_error() -> None:
    book = Sheets()
    with budget.limits(budget.Limits(spill=50)):
        book.type("A1", "=SEQUENCE(10,10)")
        assert book["A1"] == NUM and book["B2"] is None
        assert "spilled array of 100 cells" in book.book.over_budget[(1, 1, 1)]
        book.type("A1", "=SEQUENCE(5,10)")
    assert book["A1"] == 1 and book["J5"] == 50 and not book.book.over_budget


def test_a_typed_formula_spilling_past_the_budget_is_refused(world: World) -> None:
    with world.session() as s:
        me, wb = owner(s, "Orders 2025").handle, workbook(s, "Orders 2025").id
    runner = ToolRunner(world, me)
    big = {"workbook": wb, "range": "K1", "values": [[f"=SEQUENCE({budget.LIMITS.spill + 1})"]]}
    refused = runner.call("sheets_write_range", big)
    assert not refused.ok and refused.code == "over_budget" and "spilled array" in refused.error
    got = runner.call("sheets_read_range", {"workbook": wb, "range": "K1:K3"}).result
    assert got["values"] == [[""], [""], [""]]  # nothing was written
    runner.close()


def test_a_fork_spills_without_touching_its_parent() -> None:
    parent = names()
    parent.type("D1", "=UNIQUE(A1:A4)")
    child = parent.book.fork()
    child.set_input(1, 3, 1, "d")  # b, a, d, c: four distinct
    child.recalc([(1, 3, 1)])
    assert child.value(1, 4, 4) == "c" and parent["D4"] is None
    assert parent.book.spills.anchors[1][(1, 4)] == (3, 1, False)
    assert child.spills.anchors[1][(1, 4)] == (4, 1, False)


def test_spilled_values_are_stored_as_values_and_known_after_a_reload(world: World) -> None:
    with world.session() as s:
        me, wb = owner(s, "Orders 2025").handle, workbook(s, "Orders 2025").id
    runner = ToolRunner(world, me)
    write = runner.call(
        "sheets_write_range", {"workbook": wb, "range": "K1", "values": [["=SEQUENCE(3,2)"]]}
    )
    assert write.ok and write.result["spills"] == {"K1": "Orders!K1:L3"}
    got = runner.call(
        "sheets_read_range", {"workbook": wb, "range": "K1:L3", "mode": "formulas"}
    ).result
    assert got["values"] == [["=SEQUENCE(3,2)", 2], [3, 4], [5, 6]]
    with world.session() as s:
        rows = s.execute(select(Cell.row, Cell.col, Cell.input, Cell.num, Cell.spill)).all()
        stored = {(r, c): (i, n, sp) for r, c, i, n, sp in rows if c in (11, 12) and r <= 3}
        assert stored[(1, 11)] == ("=SEQUENCE(3,2)", 1.0, "3x2")
        assert stored[(3, 12)] == (None, 6.0, None)
        store.forget(s)
        book = store.book(s, wb)
        assert book.spills.anchors[book.sheet_id("Orders")][(1, 11)] == (3, 2, False)
    typed = runner.call("sheets_write_range", {"workbook": wb, "range": "L2", "values": [["x"]]})
    assert typed.ok
    got = runner.call("sheets_read_range", {"workbook": wb, "range": "K1:L3"}).result
    assert got["values"] == [["#REF!", ""], ["", "x"], ["", ""]]
    blocked = runner.call(
        "sheets_write_range", {"workbook": wb, "range": "K1", "values": [["=SEQUENCE(3,2)"]]}
    ).result
    assert blocked["notes"] == [
        "K1: Array result was not expanded because it would overwrite data in L2."
    ]
    runner.close()


def test_a_sorted_anchor_spills_from_its_new_row(world: World) -> None:
    with world.session() as s:
        me, wb = owner(s, "Orders 2025").handle, workbook(s, "Orders 2025").id
    runner = ToolRunner(world, me)
    assert runner.call("sheets_create_sheet", {"workbook": wb, "name": "S"}).ok
    rows = [["=SEQUENCE(2)", "z"], ["", "y"], ["", "x"]]
    assert runner.call("sheets_write_range", {"workbook": wb, "range": "S!A1", "values": rows}).ok
    by_b = {"workbook": wb, "range": "S!A1:B3", "by": [{"column": "B"}]}
    assert runner.call("sheets_sort_range", by_b).ok
    got = runner.call("sheets_read_range", {"workbook": wb, "range": "S!A1:B4"}).result
    assert got["values"] == [["", "x"], ["", "y"], [1, "z"], [2, ""]]
    runner.close()


def test_an_exported_spill_reads_as_values_and_imports_as_a_spill(world: World) -> None:
    with world.session() as s:
        wb, me = workbook(s, "Orders 2025"), owner(s, "Orders 2025")
        sheets.write_range(s, me, wb, "Orders!K1", [["=SEQUENCE(3,2)"]])
        data = sheets.export_xlsx(s, me, wb)
        raw = load_workbook(io.BytesIO(data), data_only=True)["Orders"]
        assert [[raw.cell(r, c).value for c in (11, 12)] for r in (1, 2, 3)] == [
            [1, 2],
            [3, 4],
            [5, 6],
        ]
        copy = sheets.import_xlsx(s, me, "copy.xlsx", data)
        got = sheets.read_range(s, me, copy, "Orders!K1:L3", mode="formulas").rows
        assert got == [["=SEQUENCE(3,2)", 2], [3, 4], [5, 6]]
        book = store.book(s, copy.id)
        sid = book.sheet_id("Orders")
        assert book.cell(sid, 3, 12).input is None and book.spills.anchors[sid][(1, 11)][2] is False
