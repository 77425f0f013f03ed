"""The sheets service over the seeded world: sharing rules, writes that recalculate and
land in the history, reads capped and paged, structural edits that formulas follow,
and bad input that changes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Cell, Change
from officegym.errors import Conflict, Forbidden, Invalid, NotFound
from officegym.world import World
from tests.apps.sheets.helpers import owner, stranger, values, workbook

BUDGETS = "FY2026 Team Budgets"


def test_owner_viewer_and_stranger(world: World) -> None:
    with world.session() as s:
        wb = workbook(s, BUDGETS)
        me = owner(s, BUDGETS)
        viewer = next(p for p, role in sheets.shares_of(s, wb) if role == "viewer")
        outsider = stranger(s, wb)
        assert sheets.role_of(s, viewer, wb) == "viewer"
        assert values(s, viewer, wb, "A1:B1") == [["Team", "Category"]]
        with pytest.raises(Forbidden, match="only view"):
            sheets.write_range(s, viewer, wb, "A1", [["x"]])
        with pytest.raises(NotFound):
            sheets.find_workbook(s, outsider, wb.name)
        with pytest.raises(NotFound):
            sheets.read_range(s, outsider, wb, "A1")
        sheets.share_workbook(s, me, wb, outsider, "editor")
        sheets.write_range(s, outsider, wb, "H1", [["note"]])
        with pytest.raises(Forbidden, match="only the owner"):
            sheets.share_workbook(s, outsider, wb, viewer, "editor")


def test_a_write_recalculates_dependents_and_is_recorded(world: World) -> None:
    with world.session() as s:
        wb, me = workbook(s, BUDGETS), owner(s, BUDGETS)
        total_row = len(values(s, me, wb, "A:A"))
        before = values(s, me, wb, f"C{total_row}:E{total_row}")[0]
        old = values(s, me, wb, "C2:D2")[0]
        sheets.write_range(s, me, wb, "C2", [[old[0] + 1000]])
        after = values(s, me, wb, f"C{total_row}:E{total_row}")[0]
        assert after == [before[0] + 1000, before[1], before[2] - 1000]
        assert values(s, me, wb, "E2")[0][0] == old[1] - old[0] - 1000
        change = s.scalars(
            select(Change).where(Change.workbook_id == wb.id).order_by(Change.id.desc())
        ).first()
        assert (change.action, change.target, change.actor_id) == (
            "write",
            "'Q1'!C2",
            me.id,
        )  # Q1 reads as a cell: quoted
        assert '"before": "' in change.detail and str(old[0] + 1000) in change.detail


def test_reads_stop_at_the_used_area_and_page_past_the_cap(world: World) -> None:
    with world.session() as s:
        wb, me = workbook(s, "Orders 2025"), owner(s, "Orders 2025")
        block = sheets.read_range(s, me, wb, "A1:Z100000")
        assert block.area.c2 == 9 and block.area.r2 == 201 and block.more_from is None
        sheets.write_range(s, me, wb, "A5000", [["far"]])
        block = sheets.read_range(s, me, wb, "A1:Z100000")
        assert len(block.rows) * len(block.rows[0]) <= sheets.MAX_READ
        assert block.more_from == block.area.r2 + 1
        assert len(sheets.read_range(s, me, wb, "1:1").rows[0]) == 9  # cut at the used columns
        sheets.write_range(s, me, wb, "XFD1", [["edge"]])
        with pytest.raises(Invalid, match="columns wide"):
            sheets.read_range(s, me, wb, "1:1")


def test_bad_input_changes_nothing(world: World) -> None:
    with world.session() as s:
        wb, me = workbook(s, "Orders 2025"), owner(s, "Orders 2025")
        cells = s.scalar(select(func.count()).select_from(Cell))
        with pytest.raises(Invalid, match="B3: formula"):
            sheets.write_range(s, me, wb, "A2", [["ok", "fine"], ["x", "=SUM(A1"]])
        with pytest.raises(Invalid, match="at most"):
            sheets.write_range(s, me, wb, "A1", [["x"] * 200] * 200)
        with pytest.raises(Invalid, match="off the sheet"):
            sheets.write_range(s, me, wb, "XFD1", [["a", "b"]])
        with pytest.raises(Invalid, match="binary"):
            sheets.import_csv(s, me, wb, "a,b\n\x00\x01\x02junk")
        with pytest.raises(Invalid, match="not a range"):
            sheets.read_range(s, me, wb, "Q0:ZZZZ9")
        s.rollback()
        assert s.scalar(select(func.count()).select_from(Cell)) == cells
        assert values(s, me, wb, "A2:B2")[0][0] == "SO-10001"


def test_inserted_and_deleted_rows_move_formulas(world: World) -> None:
    with world.session() as s:
        name = "Support Tickets Weekly"
        wb, me = workbook(s, name), owner(s, name)
        last = len(values(s, me, wb, "A:A"))
        formula = sheets.read_range(s, me, wb, f"B{last}", mode="formulas").rows[0][0]
        assert formula == f"=SUM(B2:B{last - 5})"
        sheets.change_dimension(s, me, wb, "insert", sheet=None, axis="row", start=3, count=2)
        assert (
            sheets.read_range(s, me, wb, f"B{last + 2}", mode="formulas").rows[0][0]
            == f"=SUM(B2:B{last - 3})"
        )
        sheets.change_dimension(
            s, me, wb, "delete", sheet=None, axis="row", start=2, count=last + 10
        )
        assert values(s, me, wb, "A1:C1") == [["Week of", "Opened", "Closed"]]
        sheets.write_range(s, me, wb, "E1", [["=B1"]])
        sheets.change_dimension(s, me, wb, "delete", sheet=None, axis="col", start="B")
        assert sheets.read_range(s, me, wb, "D1", mode="formulas").rows[0][0] == "=#REF!"
        assert values(s, me, wb, "D1") == [["#REF!"]]


def test_sort_dedupe_fill_and_copy(world: World) -> None:
    with world.session() as s:
        me = owner(s, "Orders 2025")
        wb = sheets.create_workbook(s, me, "Scratch")
        rows = [["Name", "Score"], ["b", 2], ["a", 9], ["b", 2], ["c", 5], ["a", 9]]
        sheets.write_range(s, me, wb, "A1", rows)
        assert sheets.remove_duplicates(s, me, wb, "A1:B6", header=True) == 2
        sheets.sort_range(s, me, wb, "A1:B4", [("B", True)], header=True)
        assert values(s, me, wb, "A1:B5") == [["Name", "Score"], ["a", 9], ["c", 5], ["b", 2]]
        sheets.write_range(s, me, wb, "C2", [["=B2*10"]])
        sheets.fill_range(s, me, wb, "C2:C4")
        assert values(s, me, wb, "C2:C4") == [[90], [50], [20]]
        sheets.copy_range(s, me, wb, "C2:C4", "D5")
        assert sheets.read_range(s, me, wb, "D5:D7", mode="formulas").rows == [
            ["=C5*10"],
            ["=C6*10"],
            ["=C7*10"],
        ]


def test_sheets_renamed_and_deleted_carry_their_formulas(world: World) -> None:
    with world.session() as s:
        name = "Regional Sales Summary"
        wb, me = workbook(s, name), owner(s, name)
        total = values(s, me, wb, "Summary!B6")[0][0]
        deals = sheets.sheet_named(s, wb, "Deals")
        sheets.rename_sheet(s, me, wb, deals, "Q1 Deals")
        formula = sheets.read_range(s, me, wb, "Summary!B2", mode="formulas").rows[0][0]
        assert "'Q1 Deals'!A2" in formula and values(s, me, wb, "Summary!B6")[0][0] == total
        sheets.define_name(s, me, wb, "Amounts", "'Q1 Deals'!B2:B40")
        sheets.write_range(s, me, wb, "Summary!D1", [["=SUM(Amounts)"]])
        assert values(s, me, wb, "Summary!D1")[0][0] > 0
        sheets.delete_sheet(s, me, wb, deals)
        assert values(s, me, wb, "Summary!B2:B6") == [["#REF!"]] * 5
        with pytest.raises(Conflict, match="at least one sheet"):
            sheets.delete_sheet(s, me, wb, sheets.sheet_named(s, wb, "Summary"))
