"""Spreadsheet templates that reshape or dress data: sort a table, remove duplicate rows,
format a column, share a workbook, add a line to an expense report above its total."""

from __future__ import annotations

import datetime as dt
import itertools
import random
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.sheets.formats import PRESETS
from officegym.apps.sheets.refs import col_letters
from officegym.apps.sheets.values import compare
from officegym.tasks.base import Level, Spec, template
from officegym.tasks.checks import Allow, GradeContext, Predicate, RowExists
from officegym.tasks.common import call, people_rows, pick
from officegym.tasks.mutants import Equivalent
from officegym.tasks.sheets.common import (
    ORDERS,
    REGIONAL,
    Book,
    allow_cells,
    book_of,
    cells_in,
    grid,
    sheets_index,
    used_rows,
)
from officegym.tasks.sheets.formulas import cell_number
from officegym.tasks.sheets.perturb import Reader
from officegym.tasks.sheets.steps import (
    computed_step,
    final_rows,
    insert_line_step,
    on_book,
    sort_step,
    write_call,
)
from officegym.tasks.steps import Step

SORTABLE = {
    "Pipeline Export": (
        "Opportunities",
        {
            "A": "Opportunity",
            "B": "Account",
            "D": "Owner",
            "E": "Stage",
            "F": "Amount",
            "G": "Close Date",
            "H": "Probability",
        },
    ),
    ORDERS: (
        "Orders",
        {
            "B": "Order Date",
            "C": "Region",
            "D": "Product",
            "F": "Sales Rep",
            "G": "Units",
            "H": "Unit Price",
            "I": "Revenue",
        },
    ),
}
SORTABLE |= {
    "Vendor List": ("Vendors", {"A": "Vendor", "B": "Email", "C": "Category"}),
    "Regional Sales Summary": ("Deals", {"A": "Region", "B": "Amount"}),
    "Product Catalog": ("Orders", {"A": "Order ID", "B": "Product", "C": "Units"}),
}
TEXT_COLUMNS = {
    "Opportunity",
    "Account",
    "Owner",
    "Stage",
    "Region",
    "Product",
    "Sales Rep",
    "Vendor",
    "Email",
    "Category",
    "Order ID",
}
DATE_COLUMNS = {"Close Date", "Order Date"}


@template("sheets.sort-range", difficulty="easy")
def sort_range(w: Session, rng: random.Random) -> Spec:
    """Sort a table by one of its columns, keeping its header in place."""
    name = rng.choice(sorted(SORTABLE))
    sheet, columns = SORTABLE[name]
    book = book_of(w, name)
    last = used_rows(w, book, sheet)
    width = len([v for v in grid(w, book, f"{sheet}!A1:Z1")[0] if v is not None])
    original = grid(w, book, f"{sheet}!A1:{col_letters(width)}{last}")
    ways = [(c, d) for c in sorted(columns) for d in (False, True)]
    letter, desc = pick(
        rng, [(c, d) for c, d in ways if not _ordered(original, c, d)], "unsorted columns"
    )
    order = "largest first" if desc else "smallest first"
    if columns[letter] in TEXT_COLUMNS:
        order = "Z to A" if desc else "A to Z"
    if columns[letter] in DATE_COLUMNS:
        order = "latest first" if desc else "earliest first"
    return Spec(
        goal=f'Sort the {sheet} sheet of "{book.name}" by {columns[letter]} ({order}), keeping the '
        "header row on top and every row intact.",
        persona=rng.choice(book.editors[:12]).handle,
        steps=[
            on_book(
                book,
                sort_step(book, sheet, original, letter, desc, name=f"sorted by {columns[letter]}"),
            )
        ],
    )


def _ordered(rows: list[list[Any]], letter: str, desc: bool) -> bool:
    """Whether the table's rows are already in that order (nothing to sort)."""
    keys = [r[ord(letter) - 65] for r in rows[1:]]
    steps = [compare(a, b) for a, b in itertools.pairwise(keys)]
    return all(c >= 0 for c in steps) if desc else all(c <= 0 for c in steps)


VENDORS = "Vendor List"


def _deduped(book: Book, original: list[list[Any]]):
    seen, want = set(), []
    for row in original[1:]:
        key = tuple(str(v).strip().lower() for v in row)
        if key not in seen:
            seen.add(key)
            want.append(row)

    def check(g: GradeContext) -> tuple[bool, str]:
        rows = final_rows(book, "Vendors", f"A1:C{len(original) + 2}")(g)
        got = [r for r in rows[1:] if any(v is not None for v in r)]
        blank_gap = any(all(v is None for v in r) for r in rows[1 : len(got) + 1])
        ok = rows[0] == original[0] and got == want and not blank_gap
        return ok, f"{len(got)} vendor rows left (want {len(want)}), gaps: {blank_gap}"

    return check


@template("sheets.dedupe-rows", difficulty="medium")
def dedupe_rows(w: Session, rng: random.Random) -> Spec:
    """Remove the duplicate rows of a list, keeping each row's first appearance in order."""
    book = book_of(w, VENDORS)
    last = used_rows(w, book, "Vendors")
    original = grid(w, book, f"Vendors!A1:C{last}")
    me = rng.choice([book.owner, *rng.sample(list(people_rows(w)), 4)])
    who = rng.choice([p for p in people_rows(w) if p.id != me.id]).name
    dedupe = Step(
        calls=[
            call(
                "sheets_remove_duplicates",
                workbook=VENDORS,
                range=f"Vendors!A1:C{last}",
                header=True,
            )
        ],
        checks=[Predicate(name="each vendor once, in order", fn=_deduped(book, original))],
        allowed=allow_cells(book.sheets["Vendors"], f"A2:C{last}", ("update", "delete")),
        equivalent=[
            Equivalent(
                "bool.flip",
                "the header row repeats no vendor, so it stays first either way",
                tool="sheets_remove_duplicates",
                arg="header",
            )
        ],
    )
    return Spec(
        goal=f'{who} pasted two exports into "{VENDORS}" and some vendors now appear twice. '
        "Remove the duplicate rows so each vendor is listed once, keeping the first appearance "
        "and the order, with no empty rows left in the list.",
        persona=me.handle,
        steps=[on_book(book, dedupe)],
    )


FORMATS = {
    "currency_rounded": "whole dollars ($12,500)",
    "currency": "dollars and cents ($12,500.00)",
    "integer": "whole numbers with thousands separators (12,500)",
    "number": "numbers with two decimals and thousands separators (12,500.00)",
}


def _formatted(sheet_id: int, col: int, rows: range, code: str):
    def check(g: GradeContext) -> tuple[bool, str]:
        cells = {
            r["row"]: r["fmt"] for r in g.rows("sheets_cell", {"sheet_id": sheet_id, "col": col})
        }
        wrong = [r for r in rows if cells.get(r) != code]
        return not wrong, f"{len(rows) - len(wrong)} of {len(rows)} cells show {code}"

    return check


@template("sheets.number-format", difficulty="easy")
def number_format(w: Session, rng: random.Random) -> Spec:
    """Show a column's numbers in a given format (the values stay)."""
    targets = [
        (REGIONAL, g, "B", 2, 13, "monthly sales")
        for g in ["EMEA", "APAC", "LATAM", "North America"]
    ]
    targets.append(("Product Catalog", "Prices", "C", 2, 9, "unit prices"))
    deals = used_rows(w, book_of(w, "Regional Sales Summary"), "Deals")
    targets.append(("Regional Sales Summary", "Deals", "B", 2, deals, "deal amounts"))
    name, sheet, letter, first, last, what = rng.choice(targets)
    book = book_of(w, name)
    preset = rng.choice(sorted(FORMATS))
    me = rng.choice(book.editors)
    sid, col = book.sheets[sheet], ord(letter) - 64
    area = f"{letter}{first}:{letter}{last}"
    fmt = Step(
        calls=[
            call(
                "sheets_set_number_format",
                workbook=book.name,
                range=f"{sheet}!{area}",
                format=preset,
            )
        ],
        checks=[
            Predicate(
                name=f"{area} as {preset}",
                fn=_formatted(sid, col, range(first, last + 1), PRESETS[preset]),
            )
        ],
        allowed=[
            Allow(
                "sheets_cell",
                kinds=("update",),
                where={"sheet_id": sid, **cells_in(area)},
                fields=frozenset({"fmt"}),
            )
        ],
    )
    return Spec(
        goal=f'In "{book.name}", show the {what} on the {sheet} sheet ({area}) as '
        f"{FORMATS[preset]}.",
        persona=me.handle,
        steps=[on_book(book, fmt)],
    )


@template("sheets.share-workbook", difficulty="easy", knobs={"rows": (1, 2, 3)})
def share_workbook(w: Session, rng: random.Random, level: Level) -> Spec:
    """Share your expense report with a colleague (harder levels: two or three), as viewer or
    editor."""
    reports = [b for n, b in sorted(sheets_index(w).items()) if n.startswith("Expenses - ")]
    book = pick(rng, reports, "expense reports")
    me = book.owner
    people = [p for p in people_rows(w) if p.id not in (me.id, me.manager_id)]
    other = rng.choice(people)
    role = rng.choice(["viewer", "editor"])
    can = "view" if role == "viewer" else "edit"
    others = [other, *rng.sample([p for p in people if p.id != other.id], level.rows - 1)]
    names = " and ".join(", ".join(p.name for p in others).rsplit(", ", 1))
    return Spec(
        goal=f'Share your expense report "{book.name}" with {names} so they can {can} it '
        f"(and only {can}).",
        persona=me.handle,
        steps=[on_book(book, *(_share(book, p, role) for p in others))],
    )


def _share(book: Book, person: Any, role: str) -> Step:
    """Share the workbook with one person in `role` (viewer or editor)."""
    return Step(
        calls=[call("sheets_share_workbook", workbook=book.name, person=person.handle, role=role)],
        checks=[
            RowExists(
                name=f"shared with {person.name} as {role}",
                table="sheets_share",
                where={"workbook_id": book.id, "person_id": person.id, "role": role},
            )
        ],
        allowed=[
            Allow(
                "sheets_share",
                where={"workbook_id": book.id, "person_id": person.id},
                kinds=("insert",),
                limit=1,
            )
        ],
    )


MERCHANTS = ["Uber", "Hilton", "Delta", "Staples", "Blue Bottle", "Amtrak", "Zoom"]


@template("sheets.append-expense", difficulty="medium")
def append_expense(w: Session, rng: random.Random) -> Spec:
    """Add a line to your expense report above its Total row, the total including it."""
    reports = [b for n, b in sorted(sheets_index(w).items()) if n.startswith("Expenses - ")]
    book = pick(rng, reports, "expense reports")
    total_row = used_rows(w, book, "Expenses")
    first_day = grid(w, book, "Expenses!A2")[0][0]
    day = dt.date(1899, 12, 30) + dt.timedelta(days=int(first_day) + rng.randint(0, 20))
    category = rng.choice(["Travel", "Meals", "Lodging", "Software", "Office Supplies"])
    merchant, amount = rng.choice(MERCHANTS), rng.randint(12, 480)
    new, total = total_row, total_row + 1

    def expect(r: Reader) -> list[list[Any]]:
        return [[sum(cell_number(v) for v in r.column("Expenses", f"D2:D{new}"))]]

    row = [day.isoformat(), category, merchant, amount]
    before = grid(w, book, f"Expenses!A2:D{total_row - 1}")
    line = {"sheet_id": book.sheets["Expenses"], "row": new, "col": 3, "text": merchant}
    return Spec(
        goal=f'Add an expense to your report "{book.name}": {day:%B %-d, %Y}, {category}, '
        f"{merchant}, ${amount}. Put it as the last line above the Total row, and make sure the "
        "total includes it.",
        persona=book.owner.handle,
        steps=[
            on_book(
                book,
                insert_line_step(book, "Expenses", total_row, f"A{new}:E{total}"),
                computed_step(
                    book,
                    "Expenses",
                    f"B{new}:D{new}",
                    lambda r: [[category, merchant, amount]],
                    name="the new line",
                    calls=[write_call(book, f"Expenses!A{new}", [row])],
                ),
                Step(checks=[RowExists(name="the line is there", table="sheets_cell", where=line)]),
                computed_step(
                    book,
                    "Expenses",
                    f"A2:D{new - 1}",
                    lambda r: before,
                    name="the earlier lines stay",
                    calls=(),
                    weight=0,
                ),
                computed_step(
                    book,
                    "Expenses",
                    f"A{total}:D{total}",
                    lambda r: [["Total", None, None, expect(r)[0][0]]],
                    name="the total includes it",
                    rounds=[[("Expenses", f"D{new}", amount + 1000)], [("Expenses", "D2", 1)]],
                    calls=[write_call(book, f"Expenses!D{total}", [[f"=SUM(D2:D{new})"]])],
                ),
                recalc=True,
            )
        ],
    )
