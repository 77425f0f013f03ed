"""Spreadsheet templates that ask for formulas: a computed column filled down, a look-up
joining two sheets, a summary sheet of several others, a named range used in a total.
Each output must follow its sources (`Follows`): typed-in numbers fail."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.sheets.compiler import compile_formula
from officegym.apps.sheets.refs import col_letters, quote_sheet
from officegym.errors import OfficeGymError
from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Allow, GradeContext, Predicate, Same
from officegym.tasks.common import call, people_rows
from officegym.tasks.sheets.common import (
    BUDGETS,
    ORDERS,
    PLAN,
    REGIONAL,
    allow_book,
    allow_new_sheet,
    allow_values,
    book_of,
    cells_in,
    grid,
    used_rows,
)
from officegym.tasks.sheets.perturb import Follows, Reader, final_book

Row = list[Any]
Moved = tuple[int, int, Callable[[list[float]], float]]  # a column, its last row, a figure


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


def _num(v: Any) -> float:
    return float(v) if isinstance(v, float | int) and not isinstance(v, bool) else 0.0


def _cell(r: Reader, sheet: str, col: str, row: int) -> float:
    return _num(r.value(sheet, f"{col}{row}"))


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
    return Spec(
        goal=f'In "{book.name}", add a column {letter} headed "{col.header}" to the {col.sheet} '
        f"sheet holding {col.what} for every row from 2 to {last}, as a formula filled down "
        "(so it updates when the numbers change).",
        persona=me.handle,
        checks=[
            Follows(
                name=f"{letter} computes {col.header}",
                workbook_id=book.id,
                target=(col.sheet, f"{letter}1:{letter}{last}"),
                expect=expect,
                rounds=_column_rounds(rng, col, 2, last),
            ),
        ],
        allowed=[
            *allow_book(book),
            *allow_values(book),
            Allow(
                "sheets_cell",
                kinds=("insert", "update"),
                where={"sheet_id": book.sheets[col.sheet], **cells_in(f"{letter}1:{letter}{last}")},
            ),
        ],
        solution=[
            call(
                "sheets_write_range",
                workbook=book.name,
                range=f"{col.sheet}!{letter}1",
                values=[[col.header], [col.formula(2)]],
            ),
            call(
                "sheets_fill_range",
                workbook=book.name,
                range=f"{col.sheet}!{letter}2:{letter}{last}",
                direction="down",
            ),
        ],
    )


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
            out.append([p, _num(units) * _num(p) * (1 - discount / 100)])
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
    return Spec(
        goal=f'In "{CATALOG}", fill in the Orders sheet for every order (rows 2 to {last}): the '
        "Unit Price column (D) with the product's price looked up on the Prices sheet, and the "
        f"Total column (E) as the units times that price{told}. Use formulas, so a price changed "
        "on the Prices sheet flows through.",
        persona=me.handle,
        checks=[
            Follows(
                name="prices looked up and totals computed",
                workbook_id=book.id,
                target=("Orders", f"D2:E{last}"),
                expect=expect,
                rounds=rounds,
            )
        ],
        allowed=[
            *allow_book(book),
            *allow_values(book),
            Allow(
                "sheets_cell",
                kinds=("insert", "update"),
                where={"sheet_id": book.sheets["Orders"], **cells_in(f"D2:E{last}")},
            ),
        ],
        solution=[
            call("sheets_read_range", workbook=CATALOG, range=f"Prices!A1:C{prices}"),
            call(
                "sheets_write_range",
                workbook=CATALOG,
                range="Orders!D2",
                values=[[f"=VLOOKUP(B2,Prices!$A$2:$C${prices},3,FALSE)", f"=C2*D2{factor}"]],
            ),
            call(
                "sheets_fill_range", workbook=CATALOG, range=f"Orders!D2:E{last}", direction="down"
            ),
        ],
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
        vals = {g: [_num(v) for v in r.column(g, "B2:B13")] for g in regions}
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
    _, allowed = allow_new_sheet(book, sheet, f"A1:B{end}")
    return Spec(
        goal=f'In "{book.name}", add a sheet named "{sheet}" with a header row "Region" / '
        f'"{label}" in A1:B1, then one row per region sheet ({", ".join(regions)}, in that order) '
        f"with the region's {word} of monthly sales as a formula reading that sheet, and a last "
        f'row "All regions" with the {word} over every month of every region, also a formula.',
        persona=me.handle,
        checks=[
            Follows(
                name="the summary follows the region sheets",
                workbook_id=book.id,
                target=(sheet, f"A1:B{end}"),
                expect=expect,
                rounds=rounds,
            )
        ],
        allowed=[*allow_book(book), *allowed],
        solution=[
            call("sheets_create_sheet", workbook=book.name, name=sheet),
            call(
                "sheets_write_range",
                workbook=book.name,
                range=f"{quote_sheet(sheet)}!A1",
                values=[
                    ["Region", label],
                    *([g, f"={fn}({quote_sheet(g)}!B2:B13)"] for g in regions),
                    [
                        "All regions",
                        f"={fn}({','.join(f'{quote_sheet(g)}!B2:B13' for g in regions)})",
                    ],
                ],
            ),
        ],
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
        want = figure([_num(copy.value(sheet_id, r, col)) for r in range(2, last + 1)])
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
        return [[agg([_num(v) for v in r.column("Q1", f"{col_letter}2:{col_letter}{last}")])]]

    rounds = [[("Q1", f"{col_letter}{rng.randint(2, last)}", 123_456)]]
    row, c = int(cell[1:]), ord(cell[0]) - 64
    return Spec(
        goal=f'In "{book.name}", define a named range {name} for the {what} column of the Q1 sheet '
        f"(rows 2 to {last}, without the total row), then put a formula in {cell} that gives the "
        f"{word} of {name}, using the name.",
        persona=me.handle,
        checks=[
            Predicate(
                name=f"{name} names {col_letter}2:{col_letter}{last}",
                fn=_name_defined(book.id, sid, name, col, last),
            ),
            Predicate(
                name=f"{cell} uses {name}",
                fn=_uses_name(book.id, sid, (row, c), name, (7 - col, last, agg)),
            ),
            Follows(
                name=f"{cell} follows the column",
                workbook_id=book.id,
                target=("Q1", cell),
                expect=expect,
                rounds=rounds,
            ),
        ],
        allowed=[
            *allow_book(book),
            Allow("sheets_named_range", where={"workbook_id": book.id}, limit=1),
            Allow(
                "sheets_cell",
                kinds=("insert",),
                where={"sheet_id": sid, "row": row, "col": c},
                limit=1,
            ),
        ],
        solution=[
            call(
                "sheets_define_name",
                workbook=book.name,
                name=name,
                range=f"Q1!{col_letter}2:{col_letter}{last}",
            ),
            call(
                "sheets_write_range",
                workbook=book.name,
                range=f"Q1!{cell}",
                values=[[f"={fn}({name})"]],
            ),
        ],
    )
