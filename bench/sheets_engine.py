"""Benchmark of the spreadsheet engine, on one core.

A workbook of 10,000 cells (8,000 inputs, 2,000 formulas: row formulas filled down and
column summaries) in a seeded world. Prints the medians of: editing one input cell
through the service (recalculating its dependents, saving the changed rows, recording
the change), the same edit in the engine alone, opening the workbook cold (reading
its cells and building the dependency graph), and, side by side with the `formulas`
package (install the `bench` extra), the cost of compiling and evaluating a formula.

    python bench/sheets_engine.py [--runs 200] [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import random

from rich.console import Console
from rich.table import Table
from timing import CLOCKS, median_ms, now, pin_to_one_core, use_clock

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets import store
from officegym.apps.sheets.compiler import _CACHE, compile_formula
from officegym.apps.sheets.engine import Book
from officegym.apps.sheets.parse import lex
from officegym.apps.sheets.runtime import Ctx
from officegym.world import World, world_image

ROWS = 1000
SUMMARIES = [
    "SUM(I2:I1001)",
    "AVERAGE(J2:J1001)",
    'SUMIF(H2:H1001,">50",I2:I1001)',
    'COUNTIF(D2:D1001,">500")',
    "MAX(I2:I1001)",
    "MIN(J2:J1001)",
    "SUMPRODUCT(A2:A1001,B2:B1001)",
    "VLOOKUP(A500,A2:J1001,9,FALSE)",
    "INDEX(J2:J1001,MATCH(MAX(I2:I1001),I2:I1001,0))",
    'ROUND(AVERAGEIFS(I2:I1001,E2:E1001,"<20"),2)',
]


def grid(rng: random.Random) -> list[list[object]]:
    """1,001 rows: 8 input columns, I and J filled-down formulas, then 10 summaries."""
    rows: list[list[object]] = [[*"ABCDEFGH", "Margin", "Best"]]
    for r in range(2, ROWS + 2):
        inputs = [rng.randint(1, 1000) for _ in range(8)]
        best = f"=IF(I{r}>D{r},I{r},D{r})" if r <= ROWS - 8 else None
        rows.append([*inputs, f"=A{r}*B{r}-C{r}", best])
    rows.append([])
    rows.append([f"={f}" for f in SUMMARIES])
    return rows


def build(world: World) -> tuple[int, Person]:
    with world.session() as s:
        me = s.get_one(Person, 1)
        wb = sheets.create_workbook(s, me, "Bench")
        sheets.write_range(s, me, wb, "A1", grid(random.Random(7)))
        b = sheets.book(s, wb.id)
        formulas = sum(1 for st in b.sheets[next(iter(b.sheets))].cells.values() if st.formula)
        cells = sum(len(x.cells) for x in b.sheets.values())
        s.commit()
    print(f"workbook: {cells:,} cells, {formulas:,} formulas")
    return wb.id, me


def service_edit(world: World, wb_id: int, me: Person, n: int) -> float:
    """Median of typing a new number into one input cell through the service."""
    from officegym import memo

    s = world.session()
    memo.enable(s)  # as a tool runner's session: the book stays loaded across calls
    wb = sheets.find_workbook(s, me, wb_id)
    sheets.book(s, wb_id)
    rng = random.Random(1)

    def edit() -> None:
        r = rng.randint(2, ROWS + 1)
        sheets.write_range(s, me, wb, f"{rng.choice('ABCD')}{r}", [[rng.randint(1, 1000)]])

    result = median_ms(edit, n)
    s.rollback()
    s.close()
    return result


def engine_edit(world: World, wb_id: int, n: int) -> float:
    with world.session() as s:
        b = store.load(s, wb_id)
    sid = next(iter(b.sheets))
    rng = random.Random(2)

    def edit() -> None:
        r, c = rng.randint(2, ROWS + 1), rng.randint(1, 4)
        b.set_input(sid, r, c, str(rng.randint(1, 1000)))
        b.recalc([(sid, r, c)])

    return median_ms(edit, n)


def cold_open(world: World, wb_id: int, n: int) -> float:
    """Load the workbook from the database and build its graph, compile cache cold."""

    def open_cold() -> None:
        _CACHE.clear()
        lex.cache_clear()
        with world.session() as s:
            store.load(s, wb_id)

    return median_ms(open_cold, max(5, n // 10))


def ours_per_formula(n: int) -> tuple[float, float, float]:
    """Compile (new relative form), compile (cached form) and evaluate, in ms."""
    b = Book(1, 45000.0)
    b.add_sheet(1, "S")
    for r in range(1, 50):
        b.set_input(1, r, 1, str(r))
        b.set_input(1, r, 2, str(r * 2))
    texts = [f"SUM(A1:A{i % 40 + 3})*2+IF(B{i % 30 + 1}>{i},1,2)" for i in range(n)]
    t = now()
    for i, f in enumerate(texts):
        compile_formula(f, 60 + i, 5)
    fresh = (now() - t) / n * 1e3
    t = now()
    for i in range(n):
        compile_formula(f"SUM(A1:A{(i % 40) + 3})*2+IF(B{(i % 30) + 1}>7,1,2)", 60 + i, 5)
    cached = (now() - t) / n * 1e3
    compiled = compile_formula(texts[0], 60, 5)
    ctx = Ctx(b, 1, 60, 5, 45000.0)
    return fresh, cached, median_ms(lambda: compiled.run(ctx), n)


def theirs_per_formula(n: int) -> tuple[float, float] | None:
    """The `formulas` package's compile and evaluate for the same kind of formula."""
    try:
        import formulas
        import numpy as np
    except ImportError:
        return None
    formulas.Parser().ast("=SUM(A1:A3)*2+IF(B1>1,1,2)")[1].compile()  # its imports, once
    m = max(20, n // 10)
    t = now()
    funcs = [
        formulas.Parser().ast(f"=SUM(A1:A{i % 40 + 3})*2+IF(B{i % 30 + 1}>{i},1,2)")[1].compile()
        for i in range(m)
    ]
    compile_ms = (now() - t) / m * 1e3
    f = funcs[0]
    column = np.arange(1, 4).reshape(3, 1)
    return compile_ms, median_ms(lambda: f(column, 5), n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = parser.parse_args()
    use_clock(args.clock)
    where = pin_to_one_core()
    world = World(world_image("default", 0))
    wb_id, me = build(world)
    fresh, cached, run = ours_per_formula(args.runs)
    theirs = theirs_per_formula(args.runs)
    table = Table(title=f"sheets engine benchmark ({where}, {args.clock} time)")
    for column in ("measure", "value", "unit", "target"):
        table.add_column(column, justify="right" if column == "value" else "left")
    rows = [
        (
            "edit one input, service (recalc + save + history)",
            service_edit(world, wb_id, me, args.runs),
            "ms",
            "<= 2 ms",
        ),
        ("edit one input, engine only (recalc)", engine_edit(world, wb_id, args.runs), "ms", ""),
        (
            "open the workbook cold (10,000 cells)",
            cold_open(world, wb_id, args.runs),
            "ms",
            "<= 200 ms",
        ),
        ("ours: compile a new formula", fresh, "ms", ""),
        ("ours: compile a filled-down formula (cached form)", cached, "ms", ""),
        ("ours: evaluate a formula", run, "ms", ""),
    ]
    if theirs is not None:
        rows += [
            ("formulas pkg: compile a formula", theirs[0], "ms", ""),
            ("formulas pkg: evaluate a formula", theirs[1], "ms", ""),
        ]
    for name, value, unit, target in rows:
        table.add_row(name, f"{value:.3f}", unit, target)
    Console().print(table)
    world.close()


if __name__ == "__main__":
    main()
