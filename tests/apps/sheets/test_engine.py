"""The engine: recalculation of exactly the dependents of an edit, the compile cache
keyed by relative form, cycles, bad formulas, off-grid references, huge ranges."""

from __future__ import annotations

import pytest

from officegym.apps.sheets.compiler import cache_size, compile_formula
from officegym.apps.sheets.parse import FormulaError
from officegym.apps.sheets.values import XlError
from tests.apps.sheets.book_helpers import Sheets


def test_an_edit_recalculates_its_dependents_and_nothing_else() -> None:
    book = Sheets()
    for r in range(1, 101):
        book.type(f"A{r}", str(r))
        book.type(f"B{r}", f"=A{r}*2")
    book.type("C1", "=SUM(B1:B100)")
    evaluated = book.type("A7", "1000")
    assert evaluated == 2  # B7 and C1, not the other 99 formulas
    assert book["B7"] == 2000 and book["C1"] == sum(2 * r for r in range(1, 101)) - 14 + 2000


def test_chains_recalculate_in_dependency_order() -> None:
    book = Sheets()
    book.fill({"A1": "1", "A4": "=A3+A2", "A3": "=A2*10", "A2": "=A1+1"})
    assert book["A4"] == 22
    book.type("A1", "5")
    assert (book["A2"], book["A3"], book["A4"]) == (6, 60, 66)


def test_a_filled_down_column_compiles_once() -> None:
    compile_formula("A1*3+$B$1", 1, 3)
    before = cache_size()
    for r in range(2, 300):
        compile_formula(f"A{r}*3+$B$1", r, 3)
    assert cache_size() == before
    compile_formula("A5*3+$B$1", 9, 3)  # a different relative form
    assert cache_size() == before + 1


def test_a_cycle_shows_an_error_and_breaking_it_recovers() -> None:
    book = Sheets()
    book.fill({"A1": "=B1+1", "B1": "=A1+1", "C1": "=A1*2"})
    assert book["A1"] == XlError("#REF!") and book["B1"] == XlError("#REF!")
    assert book.book.circular
    book.type("B1", "10")
    assert (book["A1"], book["C1"]) == (11, 22)
    assert not book.book.circular
    book.type("D1", "=D1")
    assert book["D1"] == XlError("#REF!")


def test_a_malformed_formula_is_refused_and_changes_nothing() -> None:
    book = Sheets()
    book.type("A1", "=1+2")
    for bad in ("=SUM(A1", "=1+", "=IF(1,2,3,4)", "=ROUND()", "=A1 +* 2", "={1,2;3}"):
        with pytest.raises(FormulaError):
            book.type("A1", bad)
        assert book["A1"] == 3 and book.book.cell(1, 1, 1).input == "=1+2"


def test_unknown_functions_and_names_show_name_errors() -> None:
    book = Sheets()
    book.fill({"A1": "=NOSUCHFN(1)", "A2": "=Revenue*2", "A3": "=A1048577"})
    assert {book["A1"], book["A2"], book["A3"]} == {XlError("#NAME?")}


def test_references_to_missing_sheets_and_off_the_grid_are_ref_errors() -> None:
    book = Sheets("Main", "Data")
    book.fill({"Data!A1": "5", "Main!A1": "=Data!A1+1", "Main!A2": "=Gone!A1"})
    assert book["Main!A1"] == 6 and book["Main!A2"] == XlError("#REF!")
    book.type("Data!A1", "7")
    assert book["Main!A1"] == 8


def test_a_ten_million_cell_range_costs_only_what_it_holds() -> None:
    book = Sheets()
    book.fill({"A1": "1", "J999999": "2", "Z5": "3"})
    book.type("AA1", "=SUM(A1:Z1000000)")
    book.type("AA2", "=COUNTA(A:Z)")
    assert (book["AA1"], book["AA2"]) == (6, 3)
    book.type("C500000", "10")
    assert (book["AA1"], book["AA2"]) == (16, 4)


def test_whole_column_references_follow_new_rows() -> None:
    book = Sheets()
    book.fill({"A1": "3", "B1": "=SUM(A:A)", "B2": "=MAX(A:A)"})
    book.type("A900", "40")
    assert (book["B1"], book["B2"]) == (43, 40)


def test_errors_flow_until_handled() -> None:
    book = Sheets()
    book.fill({"A1": "=1/0", "A2": "=A1+1", "A3": "=IFERROR(A2,0)", "A4": "=SUM(A1:A3)"})
    assert book["A2"] == XlError("#DIV/0!") and book["A3"] == 0
    assert book["A4"] == XlError("#DIV/0!")
    book.type("A1", "4")
    assert (book["A2"], book["A3"], book["A4"]) == (5, 5, 14)


def test_dynamic_arrays_feed_aggregates_and_spill_from_their_first_value() -> None:
    book = Sheets()
    book.fill({f"A{i}": v for i, v in enumerate(["b", "a", "b", "c", "a"], start=1)})
    book.fill({f"B{i}": str(i) for i in range(1, 6)})
    book.fill(
        {
            "C1": "=COUNTA(UNIQUE(A1:A5))",
            "C2": '=SUM(FILTER(B1:B5,A1:A5="b"))',
            "D1": "=SORT(A1:A5)",
            "E1": "=ROUND(B1:B5/3,1)",
        }
    )
    assert (book["C1"], book["C2"], book["D1"], book["E1"]) == (3, 4, "a", 0.3)
    assert [book[f"D{r}"] for r in range(1, 6)] == ["a", "a", "b", "b", "c"]
    assert [book[f"E{r}"] for r in range(1, 6)] == [0.3, 0.7, 1.0, 1.3, 1.7]


def test_typed_text_becomes_numbers_dates_and_formats() -> None:
    book = Sheets()
    book.fill({"A1": "$1,200", "A2": "12%", "A3": "2024-03-01", "A4": "'00123", "A5": "TRUE"})
    cells = [book.book.cell(1, r, 1) for r in range(1, 6)]
    assert [c.value for c in cells] == [1200, 0.12, 45352, "00123", True]
    assert [c.fmt for c in cells[:3]] == ["$#,##0", "0%", "yyyy-mm-dd"]


def test_column_reads_pooled_in_a_pass_see_every_cell_their_formula_depends_on() -> None:
    """A column is read once per pass for the formulas that reference it; a reference
    INDIRECT makes at run time is read afresh (it may run before the column is final)."""
    book = Sheets()
    book.fill({"A1": "1", "A2": "=A1*10", "A3": "=A2+1", "B1": "A9:A9"})
    book.fill({"D1": '=SUMIF(INDIRECT(B1),">0")', "E1": '=SUMIF(A1:A3,">0")'})
    book.fill({"F1": '=COUNTIF(A1:A3,">5")', "G1": "=MATCH(51,A1:A3,0)"})
    for text, ref in (("5", "A1"), ("A1:A3", "B1")):  # one pass, as a pasted block is
        book.book.set_input(*book._at(ref), text)
    book.book.recalc([book._at("A1"), book._at("B1")])
    assert (book["A2"], book["A3"]) == (50, 51)
    assert book["D1"] == book["E1"] == 106
    assert (book["F1"], book["G1"]) == (2, 3)
