"""Undo and redo of grid edits through the grid's own forms: every kind of edit is put
back exactly (values, formulas, dependants), redo does it again, a new edit drops what
could be redone, history says "Undid", and what undo cannot do is refused with nothing
changed; a random run of edits undone to the end leaves the workbook as it was."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.describe import describe
from officegym.apps.sheets.models import Workbook
from tests.apps.sheets.helpers import owner, workbook
from tests.postgres import postgres_world

ORDERS = "Orders 2025"
BLOCK = "Orders!A1:L30"


class Grid:
    """The grid's forms posted as its script posts them, for one workbook."""

    def __init__(self, client: FlaskClient, db: Session, me: Person) -> None:
        self.client, self.db, self.me = client, db, me
        self.wb: Workbook = workbook(db, ORDERS)

    def post(self, path: str, **form: str) -> str:
        data = {"sheet": "Orders", **form}
        res = self.client.post(
            f"/sheets/{self.wb.id}/{path}", data=data, headers={"X-Grid-Window": "1"}
        )
        self.db.rollback()
        assert res.status_code == 200, res.status_code
        return res.get_data(as_text=True)

    def type(self, **cells: str) -> str:
        at = min(cells)  # the window shows the cells from there
        return self.post("cells", at=at, sel=at, **{k.lower(): v for k, v in cells.items()})

    def op(self, op: str, sel: str, **form: str) -> str:
        return self.post("action", op=op, sel=sel, **form)

    def formulas(self, ref: str = BLOCK) -> list[list[Any]]:
        return sheets.read_range(
            self.db, self.me, self.wb, ref, sheet="Orders", mode="formulas"
        ).rows

    def values(self, ref: str = BLOCK) -> list[list[Any]]:
        return sheets.read_range(self.db, self.me, self.wb, ref, sheet="Orders").rows


def grid(client: FlaskClient, db: Session, me: Person) -> Grid:
    return Grid(client, db, me)


def test_a_typed_value_is_undone_and_redone_with_its_dependants(
    client: FlaskClient, db: Session, me: Person
) -> None:
    g = grid(client, db, me)
    g.type(K2="=G2*2")
    g.type(G2="1000")
    assert g.values("K2") == [[2000]]
    g.op("undo", "A1")
    assert g.values("G2") != [[1000]] and g.values("K2") == [[g.values("G2")[0][0] * 2]]
    g.op("redo", "A1")
    assert g.values("G2:K2")[0][::4] == [1000, 2000]
    changes = [describe(c) for c in sheets.history(db, g.wb, limit=3)]
    assert changes[0].startswith("Redid: Typed into Orders!G2")
    assert changes[1].startswith("Undid: Typed into Orders!G2")


def test_paste_cut_clear_fill_sort_and_format_each_undo_exactly(
    client: FlaskClient, db: Session, me: Person
) -> None:
    g = grid(client, db, me)
    start = g.formulas()
    g.post("paste", sel="K2", text="1\t2\n3\t4")
    g.post("paste", sel="M5", source="'Orders'!A2:C3", cut="1")
    g.op("clear", "D4:E6")
    g.op("fill_down", "G2:G9")
    g.op("sort", "I5", sort_column="I", sort_order="desc")
    g.op("format", "H2:H5", format="percent")
    g.type(K10="1", K11="2")
    g.op("fill_series", "K10:K11", to="K14")
    assert g.formulas("K10:K14") == [["1"], ["2"], ["3"], ["4"], ["5"]]
    assert g.formulas() != start
    for _ in range(8):
        assert "flash-error" not in g.op("undo", "A1")
    assert g.formulas() == start
    assert "nothing to undo" in g.op("undo", "A1")


def test_a_new_edit_drops_redo_and_undo_stops_at_inserted_rows(
    client: FlaskClient, db: Session, me: Person
) -> None:
    g = grid(client, db, me)
    g.type(K2="a")
    g.op("undo", "A1")
    g.type(K3="b")
    assert "nothing to redo" in g.op("redo", "A1")
    g.op("insert_rows", "A5")
    before = g.formulas()
    answer = g.op("undo", "A1")
    assert "cannot undo inserting rows" in answer and g.formulas() == before


def test_undo_refuses_a_cell_someone_changed_since(
    client: FlaskClient, db: Session, me: Person
) -> None:
    g = grid(client, db, me)
    g.type(K2="mine")
    sheets.write_range(db, me, g.wb, "Orders!K2", [["theirs"]])  # through the API: no undo
    db.commit()
    answer = g.op("undo", "A1")
    assert "Orders!K2 changed since" in answer and g.values("K2") == [["theirs"]]


def random_edit(g: Grid, rng: random.Random) -> None:
    r, c = rng.randint(2, 20), rng.randint(1, 10)
    cell = f"{'ABCDEFGHIJ'[c - 1]}{r}"
    end = f"{'ABCDEFGHIJ'[min(c + 1, 9)]}{min(r + 3, 28)}"
    kinds = ["type", "formula", "paste", "cut", "clear", "fill", "series", "format", "sort"]
    kind = rng.choice(kinds)
    if kind == "type":
        g.type(**{cell: rng.choice(["7", "x", "", "2025-01-05", "3.5"])})
    elif kind == "formula":
        g.type(**{cell: f"=SUM(A{r}:C{r})+{rng.randint(1, 9)}"})
    elif kind in ("paste", "cut"):
        dest = f"{'ABCDEFGHIJ'[rng.randint(0, 9)]}{rng.randint(2, 24)}"
        cut = {"cut": "1"} if kind == "cut" else {}
        g.post("paste", sel=dest, source=f"'Orders'!{cell}:{end}", **cut)
    elif kind == "clear":
        g.op("clear", f"{cell}:{end}")
    elif kind == "fill":
        g.op(rng.choice(["fill_down", "fill_right"]), f"{cell}:{end}")
    elif kind == "series":
        g.op("fill_series", f"{cell}:{end}", to=f"{end[0]}{min(r + 8, 30)}")
    elif kind == "format":
        g.op("format", f"{cell}:{end}", format=rng.choice(["percent", "currency", "general"]))
    else:
        g.op("sort", f"A{r}:J{r + 5}", sort_column="C", sort_order=rng.choice(["asc", "desc"]))


def test_forty_random_edits_undone_to_the_end_leave_the_workbook_as_it_was(
    client: FlaskClient, db: Session, me: Person
) -> None:
    g = grid(client, db, me)
    start, shown = g.formulas(), g.values()
    rng = random.Random(30)
    for _ in range(40):
        random_edit(g, rng)
    while "flash-error" not in (answer := g.op("undo", "A1")):
        pass
    assert "nothing to undo" in answer
    assert g.formulas() == start and g.values() == shown


@pytest.mark.postgres
def test_undo_and_redo_keep_their_steps_on_postgresql() -> None:
    with postgres_world("og_grid_undo") as world, world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        orders = sheets.sheet_named(s, wb, "Orders")
        with sheets.track_undo(s, me, wb, "write", "Orders!K2", sheet_id=orders.id):
            sheets.write_cells(s, me, wb, {"K2": "on pg", "K3": "=K2"}, sheet="Orders")
        s.commit()
        shown = []
        for step in (sheets.undo, sheets.redo):
            step(s, me, wb)
            s.commit()
            shown.append(sheets.read_range(s, me, wb, "Orders!K2:K3").rows)
        assert shown == [[[""], [""]], [["on pg"], ["on pg"]]]
