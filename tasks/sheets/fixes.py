"""Spreadsheet templates that repair damage: a SUMIF whose range became #REF!, a total
whose range stops short of the data, a grand total typed in by hand that no longer
matches its rows. The repaired cells must compute (`Follows`), not show today's number."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy.orm import Session

from officegym.tasks.base import Spec, template
from officegym.tasks.common import people_rows
from officegym.tasks.sheets.common import Book, book_of, grid, used_rows
from officegym.tasks.sheets.formulas import cell_number
from officegym.tasks.sheets.perturb import Reader
from officegym.tasks.sheets.steps import fix_step, on_book, read_call
from officegym.tasks.steps import Step

ASKS = ["{who} noticed", "{who} pointed out", "{who} flagged", "{who} asked you to look into it:"]


def _asker(w: Session, rng: random.Random, me: Any) -> str:
    other = rng.choice([p for p in people_rows(w) if p.id != me.id])
    return rng.choice(ASKS).format(who=other.name)


SUMMARY = "Regional Sales Summary"


def broken_region(w: Session) -> tuple[Book, int, str, int]:
    """The summary, the row whose SUMIF lost its range, its region, the deals' last row."""
    book = book_of(w, SUMMARY)
    rows = grid(w, book, "Summary!A2:B5")
    i, region = next((i, r[0]) for i, r in enumerate(rows) if str(r[1]) == "#REF!")
    return book, i + 2, region, used_rows(w, book, "Deals")


def region_total(region_row: int, last: int):
    def expect(r: Reader) -> list[list[Any]]:
        region = r.value("Summary", f"A{region_row}")
        deals = r.grid("Deals", f"A2:B{last}")
        mine = sum(cell_number(b) for a, b in deals if str(a).lower() == str(region).lower())
        return [[mine]]

    return expect


def region_rounds(
    rng: random.Random, w: Session, book: Book, region: str, last: int
) -> list[list[Any]]:
    deals = grid(w, book, f"Deals!A2:A{last}")
    mine = [i + 2 for i, (a,) in enumerate(deals) if a == region]
    other = [i + 2 for i, (a,) in enumerate(deals) if a != region]
    return [
        [("Deals", f"B{rng.choice(mine)}", 111_111)],
        [("Deals", f"A{rng.choice(other)}", region)],
    ]


@template("sheets.fix-ref-error", difficulty="medium")
def fix_ref_error(w: Session, rng: random.Random) -> Spec:
    """Repair a regional total that shows #REF! (its SUMIF lost its range)."""
    book, row, region, last = broken_region(w)
    me = rng.choice(book.editors)
    asked = _asker(w, rng, me)
    return Spec(
        goal=f'{asked} the "{SUMMARY}" workbook shows #REF! instead of the {region} total on its '
        f"Summary sheet. Fix cell B{row} so it adds up the amounts of the {region} deals on the "
        "Deals sheet again, with a formula like the other regions'.",
        persona=me.handle,
        steps=[
            Step(calls=[read_call(SUMMARY, "Summary!A1:B6", mode="formulas")]),
            on_book(book, region_fix(rng, w, book, row, region, last), recalc=True),
        ],
    )


def region_fix(rng: random.Random, w: Session, book: Book, row: int, region: str, last: int):
    """Rewrite the summary's SUMIF of one region (row `row`) over the deals to row `last`:
    it must total that region's deals (the grader also moves deals between regions)."""
    return fix_step(
        book,
        "Summary",
        f"B{row}",
        [f"=SUMIF(Deals!A2:A{last},A{row},Deals!B2:B{last})"],
        region_total(row, last),
        name=f"B{row} totals the {region} deals",
        rounds=region_rounds(rng, w, book, region, last),
    )


WEEKLY = "Support Tickets Weekly"


@template("sheets.fix-short-range", difficulty="medium")
def fix_short_range(w: Session, rng: random.Random) -> Spec:
    """Repair totals whose SUM ranges stop weeks short of the data."""
    book = book_of(w, WEEKLY)
    total_row = used_rows(w, book, "Weekly")
    last = total_row - 1
    me = rng.choice(book.editors)
    asked = _asker(w, rng, me)
    cols = rng.choice([("B",), ("C",), ("B", "C")])
    names = {"B": "Opened", "C": "Closed"}

    def expect(r: Reader) -> list[list[Any]]:
        return [[sum(cell_number(v) for v in r.column("Weekly", f"{c}2:{c}{last}")) for c in cols]]

    rounds = [
        [("Weekly", f"{c}{last - 1}", 500) for c in cols],
        [("Weekly", f"{c}3", 1) for c in cols],
    ]
    which = " and ".join(f"{names[c]} ({c}{total_row})" for c in cols)
    fix = fix_step(
        book,
        "Weekly",
        f"{cols[0]}{total_row}",
        [f"=SUM({c}2:{c}{last})" for c in cols],
        expect,
        name="the totals cover every week",
        rounds=rounds,
        target=f"{cols[0]}{total_row}:{cols[-1]}{total_row}",
        reads=[read_call(WEEKLY, f"Weekly!A1:C{total_row}", mode="formulas")],
    )
    return Spec(
        goal=f'{asked} the totals of "{WEEKLY}" leave out the latest weeks. Fix the {which} '
        f"total so it covers every week, rows 2 to {last}, as a formula.",
        persona=me.handle,
        steps=[on_book(book, fix)],
    )


SPEND = "Q1 Marketing Spend"


@template("sheets.fix-stale-total", difficulty="medium")
def fix_stale_total(w: Session, rng: random.Random) -> Spec:
    """Replace a grand total typed in by hand (and now wrong) with a formula."""
    book = book_of(w, SPEND)
    total_row = used_rows(w, book, "Spend")
    me = rng.choice(book.editors)
    asked = _asker(w, rng, me)
    of = rng.choice(["the Q1 Total column (E)", "the monthly totals in that row"])
    src = f"E2:E{total_row - 1}" if "E" in of else f"B{total_row}:D{total_row}"

    def expect(r: Reader) -> list[list[Any]]:
        return [
            [sum(cell_number(v) for row in r.grid("Spend", f"B2:D{total_row - 1}") for v in row)]
        ]

    rounds = [
        [("Spend", f"B{rng.randint(2, total_row - 1)}", 77_700)],
        [("Spend", f"D{rng.randint(2, total_row - 1)}", 0)],
    ]
    fix = fix_step(
        book,
        "Spend",
        f"E{total_row}",
        [f"=SUM({src})"],
        expect,
        name=f"E{total_row} adds up the spending",
        rounds=rounds,
        reads=[read_call(SPEND, f"Spend!A1:E{total_row}", mode="formulas")],
    )
    return Spec(
        goal=f'{asked} the grand total in cell E{total_row} of "{SPEND}" does not match the '
        f"spending above it: someone typed the number in. Replace it with a formula summing {of}, "
        "so it stays right when the numbers change.",
        persona=me.handle,
        steps=[on_book(book, fix)],
    )
