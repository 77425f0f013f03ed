"""Spreadsheet templates about pivot tables: a summary of the orders dataset, grouped,
summarised and filtered as the goal says, that must keep following its source."""

from __future__ import annotations

import math
import random
from collections import defaultdict
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.sheets.refs import col_letters
from officegym.seed_data.sheets_text import ORDER_HEADERS
from officegym.tasks.base import Spec, template
from officegym.tasks.sheets.common import ORDERS, book_of, used_rows
from officegym.tasks.sheets.perturb import Reader
from officegym.tasks.sheets.steps import new_sheet_step, on_book, pivot_step

HEADERS = ORDER_HEADERS  # the orders sheet's columns, as seeded
GROUPS = ["Region", "Category", "Product", "Sales Rep"]
MEASURES = [
    ("Revenue", "SUM"),
    ("Units", "SUM"),
    ("Revenue", "AVERAGE"),
    ("Units", "MAX"),
    ("Order ID", "COUNTA"),
]
WORDS = {"SUM": "total", "AVERAGE": "average", "MAX": "largest", "COUNTA": "number"}
SHEET_NAMES = ["Pivot", "Summary", "Breakdown", "Report"]


def _summary(kind: str, vals: list[Any]) -> float:
    nums = [float(v) for v in vals if isinstance(v, float | int) and not isinstance(v, bool)]
    if kind == "COUNTA":
        return float(sum(1 for v in vals if v not in (None, "")))
    if kind == "SUM":
        return math.fsum(nums)
    return math.fsum(nums) / len(nums) if kind == "AVERAGE" else max(nums)


def expected_table(group: str, field: str, kind: str, keep: tuple[str, str] | None, last: int):
    """What the pivot must show, computed from a (possibly changed) copy's Orders sheet:
    every order on it, down to its last row (an order added below counts)."""

    def expect(r: Reader) -> list[list[Any]]:
        end = max(last, r.rows("Orders"))
        read = {  # the columns the pivot reads (each a source the grader changes)
            h: r.column("Orders", f"{col_letters(i + 1)}2:{col_letters(i + 1)}{end}")
            for i, h in enumerate(HEADERS)
            if h in (group, field, keep[0] if keep else group)
        }
        rows = range(end - 1)
        if keep:
            rows = [i for i in rows if str(read[keep[0]][i]).lower() == keep[1].lower()]
        groups: dict[Any, list[Any]] = defaultdict(list)
        for i in rows:
            groups[read[group][i]].append(read[field][i])
        out = [[group, f"{kind} of {field}"]]
        out += [
            [k, _summary(kind, v)]
            for k, v in sorted(groups.items(), key=lambda kv: str(kv[0]).lower())
        ]
        return [*out, ["Grand Total", _summary(kind, [read[field][i] for i in rows])]]

    return expect


def _rounds(rng: random.Random, last: int) -> list[list[tuple[str, str, Any]]]:
    """Source changes the pivot must follow: amounts, units, a row moved to another group."""
    rows = rng.sample(range(2, last + 1), 4)
    return [
        [("Orders", f"I{rows[0]}", 987_654), ("Orders", f"G{rows[1]}", 77)],
        [
            ("Orders", f"C{rows[2]}", "LATAM"),
            ("Orders", f"D{rows[2]}", "Sensor Kit"),
            ("Orders", f"E{rows[3]}", "Services"),
            ("Orders", f"F{rows[3]}", "Zed Newhire"),
            ("Orders", f"A{rows[3]}", ""),
        ],
    ]


@template("sheets.pivot-summary", difficulty="medium")
def pivot_summary(w: Session, rng: random.Random) -> Spec:
    """Add a sheet and build a pivot table of the orders on it, grouped and summarised as asked."""
    book = book_of(w, ORDERS)
    me, last = book.owner, used_rows(w, book, "Orders")
    group = rng.choice(GROUPS)
    field, kind = rng.choice(MEASURES)
    sheet = rng.choice(SHEET_NAMES)
    keep = None
    if group != "Category" and rng.random() < 0.4:
        keep = ("Category", rng.choice(["Software", "Services", "Hardware"]))
    only = f", counting only {keep[1]} orders" if keep else ""
    measure = "number of orders" if kind == "COUNTA" else f"{WORDS[kind]} {field.lower()}"
    n_groups = 40  # the pivot's cells: A1:B40 of the new sheet
    expect = _padded(expected_table(group, field, kind, keep, last), n_groups)
    return Spec(
        goal=f'In the workbook "{book.name}", add a sheet named "{sheet}" and build a pivot '
        f"table at its cell A1 showing the {measure} for each {group.lower()}{only}, from every "
        "order on the Orders sheet. It has to stay up to date when the orders change.",
        persona=me.handle,
        steps=[
            on_book(
                book,
                new_sheet_step(book, sheet, f"A1:B{n_groups}"),
                pivot_step(
                    book,
                    sheet,
                    group,
                    (field, kind),
                    keep,
                    expect,
                    rounds=_rounds(rng, last),
                    height=n_groups,
                ),
            )
        ],
    )


def _padded(expect, height: int):
    """`expect`'s table followed by blank rows down to `height` rows (nothing else there)."""

    def run(r: Reader) -> list[list[Any]]:
        table = expect(r)
        return table + [[None, None]] * (height - len(table))

    return run
