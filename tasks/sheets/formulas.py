"""Spreadsheet templates that ask for formulas: a look-up joining two sheets, a summary
sheet of several others, a named range used in a total (a computed column filled down
is `columns.py`). Each output must follow its sources (`Follows`): typed-in numbers
fail."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.sheets.compiler import compile_formula
from officegym.apps.sheets.refs import col_letters, quote_sheet
from officegym.errors import OfficeGymError
from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Allow, GradeContext, Predicate, Same
from officegym.tasks.common import call, people_rows
from officegym.tasks.sheets.common import BUDGETS, REGIONAL, book_of, grid, used_rows
from officegym.tasks.sheets.perturb import Reader, final_book
from officegym.tasks.sheets.steps import (
    computed_step,
    fill_step,
    new_sheet_step,
    on_book,
    read_call,
    write_call,
)
from officegym.tasks.steps import Step

Row = list[Any]
Moved = tuple[int, int, Callable[[list[float]], float]]  # a column, its last row, a figure


def cell_number(v: Any) -> float:
    """A cell's value as a number (blanks, text and true/false count 0)."""
    return float(v) if isinstance(v, float | int) and not isinstance(v, bool) else 0.0


CATALOG = "Product Catalog"


@template("sheets.lookup-join", difficulty="hard")
def lookup_join(w: Session, rng: random.Random) -> Spec:
    """Fill a column by looking each row up on another sheet, and a total from it."""
    book = book_of(w, CATALOG)
    last, prices = used_rows(w, book, "Orders"), used_rows(w, book, "Prices")
    discount = rng.choice([0, 5, 10, 15, 20, 25])
    me = rng.choice([book.owner, *rng.sample(list(people_rows(w)), 3)])
    factor = f"*(1-{discount}%)" if discount else ""
    told = f" less a {discount}% discount" if discount else ""

    def expect(r: Reader) -> list[Row]:
        price = {row[0]: row[2] for row in r.grid("Prices", f"A2:C{prices}")}
        out = []
        for product, units in r.grid("Orders", f"B2:C{last}"):
            p = price.get(product)
            out.append([p, cell_number(units) * cell_number(p) * (1 - discount / 100)])
        return out

    k = rng.sample(range(2, prices + 1), 2)
    rows = rng.sample(range(2, last + 1), 2)
    rounds = [
        [("Prices", f"C{k[0]}", 4321), ("Prices", f"C{k[1]}", 99)],
        [
            ("Orders", f"B{rows[0]}", grid(w, book, f"Prices!A{k[0]}")[0][0]),
            ("Orders", f"C{rows[1]}", 13),
        ],
    ]
    join = fill_step(
        book,
        "Orders",
        "D2",
        [[f"=VLOOKUP(B2,Prices!$A$2:$C${prices},3,FALSE)", f"=C2*D2{factor}"]],
        f"D2:E{last}",
        expect,
        name="prices looked up and totals computed",
        rounds=rounds,
        reads=[read_call(CATALOG, f"Prices!A1:C{prices}")],
    )
    return Spec(
        goal=f'In "{CATALOG}", fill in the Orders sheet for every order (rows 2 to {last}): the '
        "Unit Price column (D) with the product's price looked up on the Prices sheet, and the "
        f"Total column (E) as the units times that price{told}. Use formulas, so a price changed "
        "on the Prices sheet flows through.",
        persona=me.handle,
        steps=[on_book(book, join, recalc=True)],
    )


MEASURE = {
    "total": ("SUM", sum),
    "average": ("AVERAGE", lambda v: sum(v) / len(v)),
    "best month": ("MAX", max),
}


@template("sheets.summary-sheet", difficulty="hard")
def summary_sheet(w: Session, rng: random.Random) -> Spec:
    """Add a summary sheet with one formula per region sheet and a grand total."""
    book = book_of(w, REGIONAL)
    regions = list(book.sheets)
    word = rng.choice(sorted(MEASURE))
    fn, agg = MEASURE[word]
    sheet = rng.choice(["Summary", "Overview", "All Regions", "Totals"])
    me = rng.choice([book.owner, *rng.sample(list(people_rows(w)), 2)])
    label = f"{word.capitalize()} sales"

    def expect(r: Reader) -> list[Row]:
        vals = {g: [cell_number(v) for v in r.column(g, "B2:B13")] for g in regions}
        rows = [[g, agg(vals[g])] for g in regions]
        return [
            ["Region", label],
            *rows,
            ["All regions", agg([x for v in vals.values() for x in v])],
        ]

    rounds = [
        [(g, f"B{rng.randint(2, 13)}", rng.randrange(200_000, 400_000, 1000)) for g in regions[:2]]
    ]
    end = len(regions) + 2
    values = [
        ["Region", label],
        *([g, f"={fn}({quote_sheet(g)}!B2:B13)"] for g in regions),
        ["All regions", f"={fn}({','.join(f'{quote_sheet(g)}!B2:B13' for g in regions)})"],
    ]
    summary = computed_step(
        book,
        sheet,
        f"A1:B{end}",
        expect,
        name="the summary follows the region sheets",
        rounds=rounds,
        calls=[write_call(book, f"{quote_sheet(sheet)}!A1", values)],
    )
    return Spec(
        goal=f'In "{book.name}", add a sheet named "{sheet}" with a header row "Region" / '
        f'"{label}" in A1:B1, then one row per region sheet ({", ".join(regions)}, in that order) '
        f"with the region's {word} of monthly sales as a formula reading that sheet, and a last "
        f'row "All regions" with the {word} over every month of every region, also a formula.',
        persona=me.handle,
        steps=[on_book(book, new_sheet_step(book, sheet, f"A1:B{end}"), summary)],
    )


def _name_defined(book_id: int, sheet_id: int, name: str, col: int, last: int):
    def check(g: GradeContext) -> tuple[bool, str]:
        rows = g.rows("sheets_named_range", {"workbook_id": book_id})
        hit = [r for r in rows if Same(name).matches(r["name"])]
        if not hit:
            return False, f"no named range {name}"
        r = hit[0]
        ok = (r["sheet_id"], r["r1"], r["c1"], r["r2"], r["c2"]) == (sheet_id, 2, col, last, col)
        return ok, f"{name} covers rows {r['r1']}-{r['r2']} of column {col_letters(r['c1'])}"

    return check


def _uses_name(book_id: int, sheet_id: int, cell: tuple[int, int], name: str, moved: Moved):
    """The cell's formula references the name (a name operand of the formula as the
    engine reads it, not text that spells it, as in ``N("Q1_Actual")``) and reads
    through it: on a copy where the name points at another column (`moved`: its
    column, last row and the figure expected of it), the cell gives that column's
    figure."""

    def check(g: GradeContext) -> tuple[bool, str]:
        rows = g.rows("sheets_cell", {"sheet_id": sheet_id, "row": cell[0], "col": cell[1]})
        text = (rows[0]["input"] or "") if rows else ""
        if name.upper() not in _names_in(text, *cell):
            return False, f"the cell holds {text!r}, which names no {name}"
        copy = final_book(g, book_id).fork()
        col, last, figure = moved
        copy.names[name.upper()] = (sheet_id, (2, col, last, col))
        copy.relink_all()
        copy.recalc([(sheet_id, *cell)])
        got = copy.value(sheet_id, *cell)
        want = figure([cell_number(copy.value(sheet_id, r, col)) for r in range(2, last + 1)])
        ok = isinstance(got, float | int) and abs(got - want) <= 1e-6 * max(1.0, abs(want))
        return ok, f"the cell holds {text!r}; with {name} moved it gives {got!r}, want {want!r}"

    return check


def _names_in(text: str, row: int, col: int) -> set[str]:
    """The defined names a cell's input references (none for a value or a bad formula)."""
    if not text.startswith("=") or len(text) < 2:
        return set()
    try:
        refs = compile_formula(text[1:], row, col).refs
    except OfficeGymError:
        return set()
    return {r.name.upper() for r in refs if r.name is not None}


@template("sheets.named-range", difficulty="medium")
def named_range(w: Session, rng: random.Random) -> Spec:
    """Name a column's range and compute a figure from it by name."""
    book = book_of(w, BUDGETS)
    last = used_rows(w, book, "Q1") - 1
    col_letter, what = rng.choice([("C", "Budget"), ("D", "Actual")])
    name = rng.choice([f"{what}s", f"Q1_{what}", f"{what}Amounts"])
    word, fn, agg = rng.choice(
        [
            ("total", "SUM", sum),
            ("average", "AVERAGE", lambda v: sum(v) / len(v)),
            ("largest", "MAX", max),
        ]
    )
    cell = rng.choice(["H2", "I2", "H5"])
    me = book.owner
    col = ord(col_letter) - 64
    sid = book.sheets["Q1"]

    def expect(r: Reader) -> list[Row]:
        return [
            [agg([cell_number(v) for v in r.column("Q1", f"{col_letter}2:{col_letter}{last}")])]
        ]

    rounds = [[("Q1", f"{col_letter}{rng.randint(2, last)}", 123_456)]]
    row, c = int(cell[1:]), ord(cell[0]) - 64
    define = Step(
        calls=[
            call(
                "sheets_define_name",
                workbook=book.name,
                name=name,
                range=f"Q1!{col_letter}2:{col_letter}{last}",
            )
        ],
        checks=[
            Predicate(
                name=f"{name} names {col_letter}2:{col_letter}{last}",
                fn=_name_defined(book.id, sid, name, col, last),
            )
        ],
        allowed=[Allow("sheets_named_range", where={"workbook_id": book.id}, limit=1)],
    )
    figure = computed_step(
        book,
        "Q1",
        cell,
        expect,
        name=f"{cell} follows the column",
        rounds=rounds,
        calls=[write_call(book, f"Q1!{cell}", [[f"={fn}({name})"]])],
        allowed=[
            Allow(
                "sheets_cell",
                kinds=("insert",),
                where={"sheet_id": sid, "row": row, "col": c},
                limit=1,
            )
        ],
    )
    uses = Predicate(
        name=f"{cell} uses {name}",
        fn=_uses_name(book.id, sid, (row, c), name, (7 - col, last, agg)),
    )
    return Spec(
        goal=f'In "{book.name}", define a named range {name} for the {what} column of the Q1 sheet '
        f"(rows 2 to {last}, without the total row), then put a formula in {cell} that gives the "
        f"{word} of {name}, using the name.",
        persona=me.handle,
        steps=[on_book(book, define, figure + Step(checks=[uses]))],
    )
