"""The spreadsheet template that adds a computed column to a table, as one formula
filled down every row: the columns each seeded workbook can take, and the template.
The column must follow its inputs (`Follows`): typed-in numbers fail."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.sheets.refs import col_letters
from officegym.tasks.base import Spec, template
from officegym.tasks.sheets.common import BUDGETS, ORDERS, PLAN, REGIONAL, book_of, grid, used_rows
from officegym.tasks.sheets.formulas import cell_number
from officegym.tasks.sheets.perturb import Reader
from officegym.tasks.sheets.steps import fill_step, on_book


@dataclass(frozen=True)
class Column:
    """A computed column a workbook can take: where, its header, how one row computes it."""

    workbook: str
    sheet: str
    header: str
    what: str  # how the goal describes it
    formula: Callable[[int], str]  # the formula of row r
    value: Callable[[Reader, int], Any]  # the expected value of row r
    inputs: str  # columns whose cells a round changes
    skip_last: bool = False  # the sheet ends with a total row


def _cell(r: Reader, sheet: str, col: str, row: int) -> float:
    return cell_number(r.value(sheet, f"{col}{row}"))


def _regional(rng: random.Random, p: int, rate: float) -> list[Column]:
    """Columns of one region's sheet of the regional sales (anyone may edit it)."""
    g = rng.choice(["EMEA", "APAC", "LATAM", "North America"])

    def running(x: Reader, r: int) -> float:
        return sum(_cell(x, g, "B", i) for i in range(2, r + 1))

    def share(x: Reader, r: int) -> float:
        return _cell(x, g, "B", r) / sum(_cell(x, g, "B", i) for i in range(2, 14))

    return [
        Column(
            REGIONAL,
            g,
            "Running Total",
            "the sales of the year so far (a running total)",
            lambda r: f"=SUM($B$2:B{r})",
            running,
            "B",
        ),
        Column(
            REGIONAL,
            g,
            "Share of Year",
            "the month's share of the whole year's sales",
            lambda r: f"=B{r}/SUM($B$2:$B$13)",
            share,
            "B",
        ),
        Column(
            REGIONAL,
            g,
            "Target",
            f"the month's sales raised by {p}%",
            lambda r: f"=B{r}*(1+{p}%)",
            lambda x, r: _cell(x, g, "B", r) * (1 + rate),
            "B",
        ),
    ]


# Other names a person might give the same column.
HEADERS = {
    "Weighted Amount": ("Weighted Amount", "Weighted", "Expected Value"),
    "Discounted Amount": ("Discounted Amount", "After Discount"),
    "Revenue per Unit": ("Revenue per Unit", "Avg Price", "Price per Unit"),
    "Net Revenue": ("Net Revenue", "Net", "After Commission"),
    "Gross Revenue": ("Gross Revenue", "With Tax"),
    "List Value": ("List Value", "Units x Price"),
    "Remaining": ("Remaining", "Left to Spend", "Headroom"),
    "Over Budget": ("Over Budget", "Overspent?"),
    "Q2 Budget": ("Q2 Budget", "Next Quarter"),
    "Total Hires": ("Total Hires", "Hires 2026"),
    "Growth": ("Growth", "Net Change"),
    "Running Total": ("Running Total", "Year to Date", "Cumulative"),
    "Share of Year": ("Share of Year", "Share"),
    "Target": ("Target", "Next Year Target"),
}


def _columns(rng: random.Random) -> list[Column]:
    """Every computed column a template may ask for (some with a rate the seed picks)."""
    p = rng.choice([5, 10, 15, 20, 25, 30])
    rate = p / 100
    o, q, pl = "Orders", "Q1", "Plan"
    return [
        Column(
            "Pipeline Export",
            "Opportunities",
            "Weighted Amount",
            "the amount times the probability",
            lambda r: f"=F{r}*H{r}",
            lambda x, r: _cell(x, "Opportunities", "F", r) * _cell(x, "Opportunities", "H", r),
            "FH",
        ),
        Column(
            "Pipeline Export",
            "Opportunities",
            "Discounted Amount",
            f"the amount less a {p}% discount",
            lambda r: f"=F{r}*(1-{p}%)",
            lambda x, r: _cell(x, "Opportunities", "F", r) * (1 - rate),
            "F",
        ),
        Column(
            ORDERS,
            o,
            "Revenue per Unit",
            "the revenue divided by the units",
            lambda r: f"=I{r}/G{r}",
            lambda x, r: _cell(x, o, "I", r) / _cell(x, o, "G", r),
            "IG",
        ),
        Column(
            ORDERS,
            o,
            "Net Revenue",
            f"the revenue less a {p}% commission",
            lambda r: f"=I{r}*(1-{p}%)",
            lambda x, r: _cell(x, o, "I", r) * (1 - rate),
            "I",
        ),
        Column(
            ORDERS,
            o,
            "Gross Revenue",
            f"the revenue plus {p}% sales tax",
            lambda r: f"=I{r}*(1+{p}%)",
            lambda x, r: _cell(x, o, "I", r) * (1 + rate),
            "I",
        ),
        Column(
            ORDERS,
            o,
            "List Value",
            "the units times the unit price",
            lambda r: f"=G{r}*H{r}",
            lambda x, r: _cell(x, o, "G", r) * _cell(x, o, "H", r),
            "GH",
        ),
        Column(
            BUDGETS,
            q,
            "Remaining",
            "the budget minus the actual spending",
            lambda r: f"=C{r}-D{r}",
            lambda x, r: _cell(x, q, "C", r) - _cell(x, q, "D", r),
            "CD",
            True,
        ),
        Column(
            BUDGETS,
            q,
            "Over Budget",
            'the text "Yes" when the actual exceeds the budget, else "No"',
            lambda r: f'=IF(D{r}>C{r},"Yes","No")',
            lambda x, r: "Yes" if _cell(x, q, "D", r) > _cell(x, q, "C", r) else "No",
            "CD",
            True,
        ),
        Column(
            BUDGETS,
            q,
            "Q2 Budget",
            f"the Q1 budget raised by {p}%",
            lambda r: f"=C{r}*(1+{p}%)",
            lambda x, r: _cell(x, q, "C", r) * (1 + rate),
            "C",
            True,
        ),
        Column(
            PLAN,
            pl,
            "Total Hires",
            "the sum of the Q2, Q3 and Q4 hires",
            lambda r: f"=SUM(D{r}:F{r})",
            lambda x, r: sum(_cell(x, pl, c, r) for c in "DEF"),
            "DEF",
            True,
        ),
        Column(
            PLAN,
            pl,
            "Growth",
            "the year-end head count minus the current one",
            lambda r: f"=G{r}-C{r}",
            lambda x, r: _cell(x, pl, "G", r) - _cell(x, pl, "C", r),
            "CD",
            True,
        ),
        *_regional(rng, p, rate),
    ]


def _column_rounds(
    rng: random.Random, col: Column, first: int, last: int
) -> list[list[tuple[str, str, Any]]]:
    rows = rng.sample(range(first, last + 1), min(3, last - first + 1))
    return [
        [
            (col.sheet, f"{c}{r}", rng.randint(2, 40) * 10)
            for r, c in zip(rows, col.inputs * 3, strict=False)
        ]
    ]


@template("sheets.formula-column", difficulty="medium")
def formula_column(w: Session, rng: random.Random) -> Spec:
    """Add a computed column to a table, as one formula filled down every row."""
    columns = _columns(rng)
    regional = [c for c in columns if c.workbook == REGIONAL]
    col = rng.choice(columns + regional * 2)  # anyone may edit those: more instances
    col = dataclasses.replace(col, header=rng.choice(HEADERS.get(col.header, (col.header,))))
    book = book_of(w, col.workbook)
    used = used_rows(w, book, col.sheet)
    last = used - 1 if col.skip_last else used
    width = len([v for v in grid(w, book, f"{col.sheet}!A1:Z1")[0] if v is not None])
    letter = col_letters(width + 1)
    me = rng.choice(book.editors)
    expect = lambda r: [[col.header], *([col.value(r, i)] for i in range(2, last + 1))]  # noqa: E731
    column = fill_step(
        book,
        col.sheet,
        f"{letter}1",
        [[col.header], [col.formula(2)]],
        f"{letter}2:{letter}{last}",
        expect,
        name=f"{letter} computes {col.header}",
        rounds=_column_rounds(rng, col, 2, last),
    )
    return Spec(
        goal=f'In "{book.name}", add a column {letter} headed "{col.header}" to the {col.sheet} '
        f"sheet holding {col.what} for every row from 2 to {last}, as a formula filled down "
        "(so it updates when the numbers change).",
        persona=me.handle,
        steps=[on_book(book, column, recalc=True)],
    )
