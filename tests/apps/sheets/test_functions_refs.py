"""INDIRECT, OFFSET, SUBTOTAL, the iterated rates, LET and Google Sheets' own COUNTUNIQUE,
SPLIT, ARRAYFORMULA, checked by hand where LibreOffice 7.4 lacks the function or departs
from Excel (the rest is in the LibreOffice corpus, `corpus_refs.py`); and volatile
references following the cells they point to."""

from __future__ import annotations

import pytest

from officegym.apps.sheets.compiler import compile_formula
from officegym.apps.sheets.parse import FormulaError
from officegym.apps.sheets.values import XlError
from officegym.apps.sheets.xlfn import from_file, to_file
from tests.apps.sheets.book_helpers import Sheets, evaluate

TABLE = {"A1": "apple", "A2": "pear", "A3": "fig", "B1": "3", "B2": "5", "B3": "8"}
NUM, REF, VALUE = XlError("#NUM!"), XlError("#REF!"), XlError("#VALUE!")


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=LET(x,2,y,x*3,x+y)", 8),  # y = 2*3 = 6; 2 + 6
        ("=LET(r,B1:B3,SUM(r)*2)", 32),  # a name bound to a range: (3+5+8)*2
        ("=LET(x,1,LET(x,x+1,x*10))", 20),  # the inner x shadows: (1+1)*10
        ("=LET(total,SUM(B1:B3),n,COUNT(B1:B3),total/n)", 16 / 3),
        ('=LET(x,B2,x&"!")', "5!"),
        ('=COUNTUNIQUE(1,1,2,"a","A","1",TRUE)', 6),  # 1 2 a A "1" TRUE: case counts
        ('=COUNTUNIQUE(B1:B3,A1:A3,3,"pear")', 6),  # 3 5 8 apple pear fig
        ("=COUNTUNIQUE(B1:B9)", 3),  # blanks are not values
        ('=SPLIT("a,b;;3",",;")', "a"),  # no spill: the cell shows the first piece
        ('=COUNTA(SPLIT("a,b;;3",",;"))', 3),  # a, b, 3: the empty piece dropped
        ('=INDEX(SPLIT("a,b;;3",",;"),1,3)', 3.0),  # "3" became a number
        ('=INDEX(SPLIT("a--b-c","--",FALSE),1,2)', "b-c"),  # the whole "--" splits
        ('=COUNTA(SPLIT("a,,b",",",TRUE,FALSE))', 3),  # a, "", b
        ('=SUM(SPLIT("1 2 3.5"," "))', 6.5),
        ('=SPLIT("",",")', VALUE),
        ('=SPLIT("a,b","")', VALUE),
        ("=ARRAYFORMULA(B1:B3*2)", 6),  # {6;10;16}, shown: the first
        ("=SUM(ARRAYFORMULA(B1:B3*2))", 32),  # 6+10+16
        ('=ARRAYFORMULA(A1:A3&"!")', "apple!"),
        ('=HYPERLINK("https://x.test/a","site")', "site"),
        ('=HYPERLINK("https://x.test/a")', "https://x.test/a"),
    ],
)
def test_functions_libreoffice_7_4_lacks(formula: str, expected: object) -> None:
    assert evaluate(formula, TABLE) == expected


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=IRR({-100;110})", pytest.approx(0.1)),  # -100 + 110/(1+r) = 0
        ("=XIRR({-100,110},{45000,45365})", pytest.approx(0.1)),  # 365 days: one year
        ("=RATE(1,0,-100,110)", pytest.approx(0.1)),  # 110 - 100*(1+r) = 0
        ("=IRR(B1:B3)", NUM),  # no payment: LibreOffice says #N/A
        ("=XIRR({100,200},{45000,45100})", NUM),  # no sign change: LibreOffice #VALUE!
        ("=XIRR({-100,200},{45100,45000})", NUM),  # a date before the first
        ("=XIRR({-100,200,5},{45000,45100})", NUM),  # three flows, two dates
        ('=XIRR({-100,200},{45000,"x"})', VALUE),
        ("=RATE(5,100,1000)", NUM),  # 1000(1+r)^5 + 100((1+r)^5-1)/r > 0: no root
        ("=OFFSET(B1,-1,0)", REF),  # off the grid: LibreOffice says #VALUE!
        ("=OFFSET(B1,0,0,0)", REF),
        ('=OFFSET("B1",0,0)', VALUE),
        ("=OFFSET(B1,1,0)*2", 10),
        ('=INDIRECT("B2")*2', 10),
        ('=INDIRECT("R2C2",FALSE)', 5),
        ('=INDIRECT("R[-998]C[-24]",FALSE)', 5),  # typed in Z1000: row 2, column B
        ('=INDIRECT("B1:B3")', 3),
        ('=SUM(INDIRECT("B1:B"&3))', 16),
        ('=INDIRECT("Q")', REF),
        ("=INDIRECT(1/0)", XlError("#DIV/0!")),
    ],
)
def test_rates_and_references_where_libreoffice_differs(formula: str, expected: object) -> None:
    assert evaluate(formula, TABLE) == expected


def test_let_needs_names_and_a_calculation() -> None:
    for bad in ("LET(x,1)", "LET(A1,1,A1)", "LET(x,1,2,3)"):
        with pytest.raises(FormulaError):
            compile_formula(bad, 1, 1)
    assert evaluate("=LET(x,1,y)") == XlError("#NAME?")  # y is bound nowhere


def test_let_in_a_filled_down_column_reads_each_row() -> None:
    book = Sheets()
    book.fill({f"A{r}": str(r) for r in range(1, 4)})
    for r in range(1, 4):
        book.type(f"B{r}", f"=LET(v,A{r},v*v)")
    assert [book[f"B{r}"] for r in range(1, 4)] == [1, 4, 9]


def test_subtotal_skips_the_subtotals_inside_its_range() -> None:
    book = Sheets()
    book.fill(TABLE)
    book.fill({"B4": "=SUBTOTAL(9,B1:B3)", "B5": "=SUBTOTAL(9,B1:B2)*1", "B6": "1"})
    book.fill({"C1": "=SUBTOTAL(9,B1:B6)", "C2": "=SUBTOTAL(9,B4)", "C3": "=SUM(B1:B6)"})
    assert book["B4"] == 16 and book["B5"] == 8  # 3+5+8; (3+5)*1
    assert book["C1"] == 17  # 3+5+8+1: B4 and B5 call SUBTOTAL
    assert book["C2"] == 0  # Excel skips a subtotal even named alone (LibreOffice: 16)
    assert book["C3"] == 16 + 8 + 17  # SUM counts them: 3+5+8 + 16 + 8 + 1
    book.type("B4", "100")  # no longer a subtotal
    assert book["C1"] == 117


def test_indirect_and_offset_follow_an_edit_of_the_cell_they_point_to() -> None:
    book = Sheets("Sheet1", "Other")
    book.fill({"A1": "1", "B1": "=A1*2", "C1": '=INDIRECT("B1")', "D1": "=C1+1"})
    book.fill({"E1": "=SUM(OFFSET(A1,0,1,1,1))", "F1": '=INDIRECT("Other!A1")*3'})
    assert (book["C1"], book["D1"], book["E1"], book["F1"]) == (2, 3, 2, 0)
    book.type("A1", "10")  # B1 = 20, recomputed before the volatile C1 and E1 read it
    assert (book["C1"], book["D1"], book["E1"]) == (20, 21, 20)
    book.type("Other!A1", "7")
    assert book["F1"] == 21


def test_a_formula_is_volatile_only_while_it_calls_indirect_or_offset() -> None:
    book = Sheets()
    book.fill({"A1": "1", "B1": '=INDIRECT("A1")', "C1": "=A1+1"})
    assert set(book.book.volatile) == {(1, 1, 2)}
    assert book.book.fork().volatile == book.book.volatile
    book.type("B1", "=A1")
    assert not book.book.volatile


def test_let_is_stored_in_files_as_excel_writes_it() -> None:
    stored = to_file("LET(x,2,y,x*3,SUM(A1:A3)+x+y)")
    assert stored == "_xlfn.LET(_xlpm.x,2,_xlpm.y,_xlpm.x*3,SUM(A1:A3)+_xlpm.x+_xlpm.y)"
    assert from_file(stored) == "LET(x,2,y,x*3,SUM(A1:A3)+x+y)"
