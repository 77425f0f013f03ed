"""Functions where Excel and LibreOffice part ways (Excel's documented result wins),
and those LibreOffice 7.4 lacks, checked by what they must give on small data."""

from __future__ import annotations

import pytest

from officegym.apps.sheets.formats import format_value
from officegym.apps.sheets.functions import FUNCTIONS
from officegym.apps.sheets.values import XlError
from tests.apps.sheets.book_helpers import evaluate

TABLE = {"A1": "apple", "A2": "pear", "A3": "fig", "B1": "3", "B2": "5", "B3": "8", "C1": "TRUE"}


def test_the_registry_holds_the_functions_people_use() -> None:
    distinct = {spec.impl for spec in FUNCTIONS.values()}
    assert len(distinct) >= 140
    for name in (
        "SUMIFS",
        "XLOOKUP",
        "NETWORKDAYS",
        "TEXTJOIN",
        "SUMPRODUCT",
        "EOMONTH",
        "IFS",
        "SWITCH",
        "XMATCH",
        "UNIQUE",
        "FILTER",
        "SORT",
        "AVERAGEIFS",
        "MINIFS",
    ):
        assert name in FUNCTIONS


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=POWER(0,0)", XlError("#NUM!")),
        ("=SQRT(-1)", XlError("#NUM!")),
        ('="a"&TRUE', "aTRUE"),
        ("=UPPER(TRUE)", "TRUE"),
        ('=SUM(1,"2",TRUE)', 4),
        ("=SUM(B1:C1)", 3),  # TRUE in a range is skipped
        ("=COUNT(B1:C3)", 3),
        ("=INDEX(B1:B3,7)", XlError("#REF!")),
        ('=VLOOKUP("fig",A1:B3,3,FALSE)', XlError("#REF!")),
        ("=WEEKNUM(DATE(2024,12,31),2)", 53),
        ("=-2^2", 4),
        ("=2^3^2", 64),
    ],
)
def test_excel_semantics(formula: str, expected: object) -> None:
    assert evaluate(formula, TABLE) == expected


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ('=XLOOKUP("pear",A1:A3,B1:B3)', 5),
        ('=XLOOKUP("kiwi",A1:A3,B1:B3,"none")', "none"),
        ("=XLOOKUP(6,B1:B3,A1:A3,,-1)", "pear"),
        ("=XLOOKUP(6,B1:B3,A1:A3,,1)", "fig"),
        ('=XLOOKUP("p*",A1:A3,B1:B3,,2)', 5),
        ('=XLOOKUP("kiwi",A1:A3,B1:B3)', XlError("#N/A")),
        ('=XMATCH("fig",A1:A3)', 3),
        ("=COUNTA(UNIQUE({1;1;2;3;3}))", 3),
        ("=SUM(UNIQUE({1;1;2;3;3},,TRUE))", 2),
        ('=TEXTJOIN("-",TRUE,SORT(A1:A3))', "apple-fig-pear"),
        ('=TEXTJOIN("-",TRUE,SORT(A1:A3,1,-1))', "pear-fig-apple"),
        ('=TEXTJOIN(",",TRUE,FILTER(A1:A3,B1:B3>4))', "pear,fig"),
        ('=FILTER(A1:A3,B1:B3>100,"nothing")', "nothing"),
        ("=SUM(SEQUENCE(4,1,10,5))", 10 + 15 + 20 + 25),
        ('=TEXTBEFORE("a/b/c","/",2)', "a/b"),
        ('=TEXTAFTER("a/b/c","/")', "b/c"),
        ("=SUMPRODUCT(ROUND(B1:B3/2,0))", 2 + 3 + 4),
        ('=TEXTJOIN(",",TRUE,SORTBY(A1:A3,B1:B3,-1))', "fig,pear,apple"),
    ],
)
def test_functions_libreoffice_7_4_lacks(formula: str, expected: object) -> None:
    assert evaluate(formula, TABLE) == expected


@pytest.mark.parametrize(
    ("value", "fmt", "shown"),
    [
        (1234.5, "#,##0.00", "1,234.50"),
        (0.256, "0.0%", "25.6%"),
        (1200, "$#,##0", "$1,200"),
        (-1200, "$#,##0.00", "-$1,200.00"),
        (45352, "yyyy-mm-dd", "2024-03-01"),
        (45352, "mmm d, yyyy", "Mar 1, 2024"),
        (7, "000", "007"),
        (0.5, "General", "0.5"),
        (True, None, "TRUE"),
        (XlError("#N/A"), "0.00", "#N/A"),
    ],
)
def test_number_formats(value: object, fmt: str | None, shown: str) -> None:
    assert format_value(value, fmt) == shown  # type: ignore[arg-type]
