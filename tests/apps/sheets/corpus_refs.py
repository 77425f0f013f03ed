"""Corpus cases for references computed at run time (INDIRECT, OFFSET), SUBTOTAL, the
iterated rates (IRR, XIRR, RATE) and HYPERLINK, over a small `Flows` sheet: dated cash
flows, and a column of subtotals nested in a grand total (SUBTOTAL must skip them).

Where LibreOffice 7.4 departs from Excel the case is left out here and Excel's result
is asserted in tests/apps/sheets/test_functions_refs.py: a rate that does not converge
or cash flows without a sign change (Excel #NUM!; LibreOffice #N/A or #VALUE!), OFFSET
off the grid's edge (Excel #REF!, LibreOffice #VALUE!), SUBTOTAL of a single cell that
is itself a subtotal (Excel skips it: 0; LibreOffice counts it)."""

from __future__ import annotations

import datetime as dt

_EPOCH = dt.date(1899, 12, 30)


def _serial(y: int, m: int, d: int) -> int:
    return (dt.date(y, m, d) - _EPOCH).days


FLOWS: list[list[object]] = [
    ["Flow", "Date", "Amount", "Uneven"],
    [-10000, _serial(2024, 1, 1), 120, -500],
    [2500, _serial(2024, 3, 15), 80.5, 100],
    [3000, _serial(2024, 9, 30), "n/a", 150],
    [3500, _serial(2025, 2, 1), "=SUBTOTAL(9,C2:C4)", 200],
    [4000, _serial(2025, 7, 4), 40, 0],
    [1500, _serial(2026, 1, 1), 60.25, 125],
    [None, None, "=SUBTOTAL(9,C6:C7)", None],
    [None, None, "=SUBTOTAL(9,C2:C8)+0", None],
]

SUBTOTALS = [f"SUBTOTAL({n},Flows!C2:C9)" for n in (*range(1, 12), *range(101, 112))] + [
    "SUBTOTAL(9,Flows!C2:C9,Data!D2:D41)",
    "SUBTOTAL(1,Data!C:C)",
    "SUBTOTAL(4,Data!C2:D41)",
    "SUBTOTAL(3,Data!A1:I41)",
    "SUBTOTAL(12,Flows!C2:C9)",
    "SUBTOTAL(0,Flows!C2:C9)",
]

RATES = [
    "IRR(Flows!A2:A7)",
    "IRR(Flows!A2:A7,0.3)",
    "IRR(Flows!A2:A5)",
    "IRR(Flows!D2:D7)",
    "XIRR(Flows!A2:A7,Flows!B2:B7)",
    "XIRR(Flows!A2:A5,Flows!B2:B5,0.01)",
    "XIRR(Flows!D2:D7,Flows!B2:B7)",
    "RATE(360,-1000,200000)",
    "RATE(48,-200,8000)",
    "RATE(10,-100,800,0,1)",
    "RATE(12,-100,1000,0,0,0.5)",
    "RATE(24,-250,5000,-1000)",
    "RATE(5,-300,1000,-200,1)",
]

REFERENCES = [
    'INDIRECT("Data!C5")',
    'SUM(INDIRECT("Data!C2:C41"))',
    "INDIRECT(\"'Table'!B3\")",
    'INDIRECT("Data!"&"D"&7)*2',
    'INDIRECT("Table!C"&(2+MOD(7,11)))',
    'COUNTA(INDIRECT("Data!B:B"))',
    'INDIRECT("Data!ZZZZ1")',
    'INDIRECT("")',
    'INDIRECT("Nowhere!A1")',
    'INDIRECT("not a ref")',
    "SUM(OFFSET(Data!C2,0,0,10))",
    "OFFSET(Data!A1,3,2)",
    "SUM(OFFSET(Data!C2:D5,1,1))",
    "AVERAGE(OFFSET(Data!C2,5,0,5,2))",
    "ROWS(OFFSET(Data!A1,0,0,7,3))",
    "COLUMNS(OFFSET(Data!A1,0,0,7,3))",
    'SUM(OFFSET(Data!D2,MATCH("West",Data!B2:B41,0)-1,0,3))',
    "OFFSET(Table!A1,2,1)+OFFSET(Table!A1,3,1)",
    'HYPERLINK("https://example.com/report","Report")',
    'HYPERLINK("https://example.com")',
    'HYPERLINK("mailto:a@example.com",Data!G3)',
]


def sheets() -> dict[str, list[list[object]]]:
    return {"Flows": FLOWS}


def formulas() -> list[str]:
    return [*SUBTOTALS, *RATES, *REFERENCES]
