"""Formulas follow the cells they name: copy and fill move relative references, row and
column insertions and deletions shift or break them, renamed sheets are renamed in
formulas; .xlsx files prefix newer functions."""

from __future__ import annotations

import pytest

from officegym.apps.sheets.moves import shift_text, translate
from officegym.apps.sheets.parse import lex
from officegym.apps.sheets.xlfn import from_file, to_file


@pytest.mark.parametrize(
    ("formula", "rows", "cols", "moved"),
    [
        ("SUM(A1:A9)*$B$1+B$2+$C3", 2, 1, "SUM(B3:B11)*$B$1+C$2+$C5"),
        ("'Q1 data'!A1+Data!$A1", 1, 0, "'Q1 data'!A2+Data!$A2"),
        ("A1+1", -1, 0, "#REF!+1"),
        ("SUM(C:C)+Revenue", 5, 1, "SUM(D:D)+Revenue"),
        ('IF(A1="A1",1,2)', 1, 0, 'IF(A2="A1",1,2)'),
    ],
)
def test_copying_moves_relative_references(formula: str, rows: int, cols: int, moved: str) -> None:
    assert translate(formula, rows, cols) == moved


@pytest.mark.parametrize(
    ("formula", "axis", "at", "count", "after"),
    [
        ("SUM(A2:A10)+A1+A12", "row", 5, 2, "SUM(A2:A12)+A1+A14"),
        ("SUM(A2:A10)+A1+A12", "row", 2, -3, "SUM(A2:A7)+A1+A9"),
        ("A3*2", "row", 2, -3, "#REF!*2"),
        ("SUM(B1:D1)+E1", "col", 3, 1, "SUM(B1:E1)+F1"),
        ("Data!A5+A5", "row", 1, 1, "Data!A5+A6"),
        ("SUM(A:A)", "row", 1, 3, "SUM(A:A)"),
    ],
)
def test_lines_inserted_or_deleted_move_references(
    formula: str, axis: str, at: int, count: int, after: str
) -> None:
    assert shift_text(formula, "Main", "Main", axis, at, count) == after


def test_relative_form_is_the_same_down_a_column() -> None:
    assert lex("A1*2+$B$1", 1, 3).key == lex("A7*2+$B$1", 7, 3).key
    assert lex("A1*2", 1, 3).key != lex("A1*2", 2, 3).key


def test_xlsx_prefixes_round_trip() -> None:
    stored = to_file("XLOOKUP(1,A:A,B:B)+SUM(A1)+COUNTA(SORT(C1:C3))+IFS(A1>0,1)")
    assert (
        stored
        == "_xlfn.XLOOKUP(1,A:A,B:B)+SUM(A1)+COUNTA(_xlfn._xlws.SORT(C1:C3))+_xlfn.IFS(A1>0,1)"
    )
    assert from_file(stored) == "XLOOKUP(1,A:A,B:B)+SUM(A1)+COUNTA(SORT(C1:C3))+IFS(A1>0,1)"
