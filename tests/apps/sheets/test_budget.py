"""The evaluation budget: each request that would otherwise stall or exhaust a served
world runs in a child process under a 1.5 GB address-space limit and a wall timeout,
and comes back with an error value (or a parse error) instead; ordinary formulas in the
same child still compute. A typed formula that blows the budget is refused with a
clear error and changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from officegym.apps.sheets import budget
from officegym.apps.sheets import service as sheets
from officegym.errors import Invalid
from officegym.runner import ToolRunner
from officegym.world import World
from tests.apps.sheets.helpers import owner

ROOT = Path(__file__).resolve().parents[3]
PRELUDE = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
sys.path.insert(0, {root!r})
from tests.apps.sheets.book_helpers import Sheets
from officegym.apps.sheets import budget
book = Sheets("Data", "Calc")
book.type("Data!A1", "2")
book.type("Data!B1", "3")
book.type("Data!XFD1048576", "5")  # one value in the sheet's last cell
def run(formula):
    book.type("Calc!A1", formula)
    return [str(book["Calc!A1"]), book.book.over_budget.get((2, 1, 1))]
out = {{}}
"""


def child(body: str, timeout: float = 60) -> dict:
    """Run `body` after the prelude in a memory-limited child; its `out` as JSON."""
    code = PRELUDE.format(root=str(ROOT)) + textwrap.dedent(body) + "\nprint(json.dumps(out))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_array_broadcasts_and_dense_whole_sheet_ranges_stop_at_the_cell_cap() -> None:
    out = child("""
        out["broadcast"] = run("=SUM(SEQUENCE(100000)*SEQUENCE(1,100000))")
        out["whole"] = run("=Data!A:XFD")
        out["lookup"] = run("=VLOOKUP(2,Data!A:XFD,2,FALSE)")
        out["ordinary"] = run("=SUM(SEQUENCE(10)*2)")
    """)
    assert out["broadcast"][0] == "#NUM!" and "10,000,000,000 cells" in out["broadcast"][1]
    assert out["whole"][0] == "#NUM!" and "exceeds the limit" in out["whole"][1]
    assert out["lookup"] == ["3.0", None]  # one whole column fits the budget
    assert out["ordinary"] == ["110.0", None]


def test_whole_sheet_aggregates_count_stored_cells_only() -> None:
    out = child("""
        out["sumproduct"] = run("=SUMPRODUCT(Data!A:XFD,Data!A:XFD)")
        out["sum"] = run("=SUM(Data!A:XFD)")
        out["counta"] = run("=COUNTA(Data!A:XFD)")
        out["columns"] = run("=SUMPRODUCT(Data!A:A,Data!B:B)")
        out["blanks"] = run('=COUNTIF(Data!A:XFD,"")')
        out["not_x"] = run('=COUNTIFS(Data!A:C,"<>x",Data!B:D,"<>3")')
    """)
    assert out["sumproduct"] == ["38.0", None]  # 4 + 9 + 25
    assert out["sum"] == ["10.0", None] and out["counta"] == ["3.0", None]
    assert out["columns"] == ["6.0", None]
    assert out["blanks"] == [f"{1048576 * 16384 - 3}.0", None]
    assert out["not_x"] == [f"{1048576 * 3 - 1}.0", None]  # B1 holds 3


def test_text_and_cost_growing_functions_answer_excels_errors() -> None:
    out = child("""
        for name, f in {
            "rept": '=REPT("ab",1e9)',
            "rept_ok": '=LEN(REPT("ab",16383))',
            "substitute": '=SUBSTITUTE(REPT("a",30000),"a",REPT("b",30000))',
            "join": '=LEN(REPT("x",20000)&REPT("y",20000))',
            "fact": "=FACT(1e9)",
            "fact_max": "=FACT(170)>1E306",
            "fact_over": "=FACT(171)",
            "lcm": "=LCM(SEQUENCE(200,1,1E15))",
            "workday": "=WORKDAY(1,2000000)",
            "networkdays": "=NETWORKDAYS(1,2958465)",
            "dollar": "=DOLLAR(1E300,1E9)",
            "round": "=ROUND(1,1E300)",
            "huge": '=VALUE(REPT("9",400))',
        }.items():
            out[name] = run(f)[0]
        out["internal_errors"] = book.book.internal_errors
    """)
    assert out == {
        "rept": "#VALUE!",
        "rept_ok": "32766.0",
        "substitute": "#VALUE!",
        "join": "#VALUE!",
        "fact": "#NUM!",
        "fact_max": "True",
        "fact_over": "#NUM!",
        "lcm": "#NUM!",
        "workday": "2799999.0",
        "networkdays": "2113190.0",
        "dollar": "#VALUE!",
        "round": "#NUM!",
        "huge": "#NUM!",
        "internal_errors": 0,
    }


def test_deep_nesting_is_a_parse_error_not_a_crash() -> None:
    out = child("""
        from officegym.errors import Invalid
        for name, f in {
            "parens": "=" + "(" * 4000 + "1" + ")" * 4000,
            "chain": "=" + "+".join(["1"] * 3000),
            "negations": "=" + "-" * 5000 + "1",
        }.items():
            try:
                book.type("Calc!B1", f)
                out[name] = "accepted"
            except Invalid as exc:
                out[name] = exc.message
        out["wide"] = run("=SUM(1" + ",1" * 2000 + ")")[0]
    """)
    for name in ("parens", "chain", "negations"):
        assert "nested more than 200 levels" in out[name], out[name]
    assert out["wide"] == "2001.0"


def test_a_recalculation_stops_at_its_time_budget() -> None:
    """Time is a clock the test controls (each look at it costs a second), so the first
    formula fits the budget whatever the machine's speed (it once overran 0.5 s of wall
    time on a loaded machine) and the budget still runs out before the hundredth."""
    out = child("""
        heavy = "=SUM(SEQUENCE(200,200)*SEQUENCE(200,200))"
        reads = [0]
        def tick():
            reads[0] += 1
            return float(reads[0])
        for r in range(1, 101):
            book.book.set_input(2, r, 3, heavy)
        with budget.clock(tick), budget.limits(budget.Limits(seconds=500)):
            book.book.recalc([(2, r, 3) for r in range(1, 101)])
        shown = [str(book.book.value(2, r, 3)) for r in range(1, 101)]
        out["first"] = shown[0]
        out["cut"] = sum(v == "#NUM!" for v in shown)
        out["reasons"] = sorted(set(book.book.over_budget.values()))
    """)
    assert out["first"] != "#NUM!"
    assert 0 < out["cut"] < 100, out
    assert out["reasons"] == ["the recalculation took more than 500 s"]


def test_thousands_of_whole_column_sums_recalculate_within_budget() -> None:
    """Each distinct SUM over the same column is computed once per recalculation."""
    out = child("""
        b = book.book
        for r in range(1, 4001):
            b.set_input(1, r, 3, str(r))
            b.set_input(2, r, 2, "=SUM(Data!C:C)")
            b.set_input(2, r, 4, f"=Data!C{r}/SUM(Data!C:C)")  # share of the total
        b.recalc_all()
        book.type("Data!C5", "1005")
        out["over"] = len(b.over_budget)
        out["values"] = sorted({b.value(2, r, 2) for r in range(1, 4001)})
        out["shares"] = sum(b.value(2, r, 4) for r in range(1, 4001))
    """)
    assert out["over"] == 0
    assert out["values"] == [4000 * 4001 / 2 + 1000]
    assert out["shares"] == pytest.approx(1.0)


def test_a_typed_formula_over_budget_is_refused_and_changes_nothing(world: World) -> None:
    with world.session() as s:
        me = owner(s, "Orders 2025")
        wb = sheets.create_workbook(s, me, "Budget")
        sheets.write_range(s, me, wb, "A1", [["=1+1"]])
        s.commit()
    with world.session() as s, pytest.raises(Invalid) as caught:
        sheets.write_range(s, me, wb, "A1", [["=SUM(SEQUENCE(100000)*SEQUENCE(1,100000))"]])
    assert caught.value.code == "over_budget"
    assert "A1: the formula exceeds the evaluation budget" in caught.value.message
    runner = ToolRunner(world, me.handle)
    heavy = {"workbook": wb.id, "range": "A1", "values": [["=SEQUENCE(1E5)*SEQUENCE(1,1E5)"]]}
    out = runner.call("sheets_write_range", heavy)
    again = runner.call("sheets_read_range", {"workbook": wb.id, "range": "A1", "mode": "formulas"})
    runner.close()
    assert not out.ok and out.code == "over_budget" and "1,048,576 cells" in (out.error or "")
    assert again.result["values"] == [["=1+1"]]  # the runner's loaded book was not left changed
    with world.session() as s:
        assert sheets.read_range(s, me, wb, "A1", mode="formulas").rows == [["=1+1"]]


def test_an_xlsx_is_refused_while_it_is_read_once_past_the_cell_limit() -> None:
    out = child("""
        import io
        from openpyxl import Workbook, load_workbook
        from officegym.apps.sheets import xlsx
        from officegym.errors import Invalid
        made = Workbook()
        for r in range(1, 2001):
            made.active.append([r, r + 1, "x"])
        raw = io.BytesIO()
        made.save(raw)
        data = raw.getvalue()
        xlsx.check("big.xlsx", data, 100_000)  # the package itself is sound
        book = load_workbook(io.BytesIO(data), read_only=True)
        seen = []
        try:
            for sheet in xlsx.read_sheets(book, "big.xlsx", 5000):
                seen.append(len(sheet.cells))
            out["result"] = "read"
        except Invalid as exc:
            out["result"] = exc.message
        out["seen"] = seen
        try:
            xlsx.check("big.xlsx", data, 1000)
        except Invalid as exc:
            out["precheck"] = exc.message
    """)
    assert out["result"] == "big.xlsx: holds more than 5,000 cells" and out["seen"] == []
    assert out["precheck"] == "big.xlsx: a sheet has more than 1,000 cells"


def test_a_write_names_the_dependent_cells_its_recalculation_cut_short(world: World) -> None:
    """Formulas that depend on the typed cell and ran out of the time budget show #NUM!,
    and the write tool's result says which ones; the typed value itself is stored."""
    heavy = [["=A1+SUM(SEQUENCE(60,60)*SEQUENCE(60,60))"] for _ in range(60)]
    with world.session() as s, budget.limits(budget.Limits(seconds=600)):
        me = owner(s, "Orders 2025")
        wb = sheets.create_workbook(s, me, "Cut short")
        sheets.write_range(s, me, wb, "B1", heavy)
        s.commit()
    runner = ToolRunner(world, me.handle)
    reads = iter(range(1, 10**9))  # the budget's clock: each look at it costs a second
    with budget.clock(lambda: float(next(reads))), budget.limits(budget.Limits(seconds=100)):
        out = runner.call("sheets_write_range", {"workbook": wb.id, "range": "A1", "values": [[7]]})
    shown = runner.call("sheets_read_range", {"workbook": wb.id, "range": "B1:B60"})
    calm = runner.call("sheets_write_range", {"workbook": wb.id, "range": "C1", "values": [[1]]})
    runner.close()
    assert out.ok and out.result["values"] == [[7]]
    cut = out.result["over_budget"]
    num = [f"Sheet1!B{r}" for r, (v,) in enumerate(shown.result["values"], 1) if v == "#NUM!"]
    assert 0 < cut["count"] == len(num) < 60
    assert cut["cells"] == num[:20] and cut["shown"] == "#NUM!"
    assert cut["reasons"] == ["the recalculation took more than 100 s"]
    assert "over_budget" not in calm.result  # a later write that cut nothing says nothing
