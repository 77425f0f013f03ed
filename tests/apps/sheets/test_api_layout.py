"""gspread and Google's client on what a sheet's layout holds: merged cells, the order of
its tabs, array formulas that spill; and Google's 400 for layout the clone cannot store
(hidden sheets, column widths, bold text). Each call is followed by a read of the
clone's own state."""

from __future__ import annotations

from typing import Any

import gspread
import pytest
from googleapiclient.errors import HttpError
from sqlalchemy import select

from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Cell, Merge, Workbook
from officegym.world import World
from tests.apps.sheets.api_clients import TABLE, batch, fresh, grid, gspread_client, owner_of, state


def merged(world: World, sid: str | int) -> list[str]:
    """The merged ranges the clone stores for a spreadsheet's sheets, in A1."""
    with world.session() as s:
        wb = s.get_one(Workbook, int(sid))
        return [m.label() for sh in sheets.sheets_of(s, wb) for m in sheets.merges_of(s, sh)]


def tabs(world: World, sid: str | int) -> list[str]:
    with world.session() as s:
        return [x.name for x in sheets.sheets_of(s, s.get_one(Workbook, int(sid)))]


def test_google_merges_and_unmerges_keeping_every_value(
    api: Any, server: tuple[str, World]
) -> None:
    _, world = server
    sid, sh = fresh(api, "Merges", TABLE)
    batch(
        api,
        sid,
        {"mergeCells": {"range": grid(sh, 0, 1, 0, 3), "mergeType": "MERGE_ALL"}},
        {"mergeCells": {"range": grid(sh, 1, 3, 0, 2), "mergeType": "MERGE_ROWS"}},
    )
    assert merged(world, sid) == ["Sheet1!A1:C1", "Sheet1!A2:B2", "Sheet1!A3:B3"]
    meta = api.spreadsheets().get(spreadsheetId=sid).execute()
    assert meta["sheets"][0]["merges"][0] == grid(sh, 0, 1, 0, 3)
    assert state(world, sid, "A1:C3") == [[*r] for r in TABLE[:3]]  # nothing hidden is lost
    with pytest.raises(HttpError) as cut:
        batch(api, sid, {"unmergeCells": {"range": grid(sh, 0, 1, 0, 2)}})
    assert cut.value.resp.status == 400
    assert b"You must select all cells in a merged range" in cut.value.content
    batch(api, sid, {"mergeCells": {"range": grid(sh, 1, 3, 0, 3), "mergeType": "MERGE_COLUMNS"}})
    assert merged(world, sid) == ["Sheet1!A1:C1", "Sheet1!A2:A3", "Sheet1!B2:B3", "Sheet1!C2:C3"]
    batch(api, sid, {"unmergeCells": {"range": grid(sh, 0, 3, 0, 3)}})
    assert merged(world, sid) == [] and state(world, sid, "A1:C3") == [[*r] for r in TABLE[:3]]
    with world.session() as s:
        assert s.scalars(select(Merge).where(Merge.sheet_id == sh)).all() == []


def test_google_moves_tabs_counting_indexes_before_the_move(
    api: Any, server: tuple[str, World]
) -> None:
    _, world = server
    sid, sh = fresh(api, "Tabs order", TABLE)
    batch(api, sid, {"addSheet": {"properties": {"title": "B"}}})
    batch(api, sid, {"addSheet": {"properties": {"title": "C"}}})
    move = {"properties": {"sheetId": sh, "index": 2}, "fields": "index"}
    batch(api, sid, {"updateSheetProperties": move})  # first behind the second, as Google
    assert tabs(world, sid) == ["B", "Sheet1", "C"]
    meta = api.spreadsheets().get(spreadsheetId=sid).execute()
    assert [x["properties"]["index"] for x in meta["sheets"]] == [0, 1, 2]
    assert state(world, sid, "Sheet1!A1:C1") == [TABLE[0]]


def test_layout_the_clone_cannot_store_is_a_clear_400(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, sh = fresh(api, "Layout", TABLE)
    refused = [
        {
            "updateSheetProperties": {
                "properties": {"sheetId": sh, "hidden": True},
                "fields": "hidden",
            }
        },
        {
            "updateDimensionProperties": {
                "range": {"sheetId": sh, "dimension": "COLUMNS", "startIndex": 0, "endIndex": 1},
                "properties": {"pixelSize": 200},
                "fields": "pixelSize",
            }
        },
        {
            "repeatCell": {
                "range": grid(sh, 0, 1, 0, 3),
                "cell": {"userEnteredFormat": {"textFormat": {"bold": True}}},
                "fields": "userEnteredFormat.textFormat.bold",
            }
        },
    ]
    for request in refused:
        with pytest.raises(HttpError) as err:
            batch(api, sid, request)
        assert err.value.resp.status == 400
    assert tabs(world, sid) == ["Sheet1"] and state(world, sid, "A1:C1") == [TABLE[0]]


def test_gspread_merges_reorders_and_reads_spilled_values(server: tuple[str, World]) -> None:
    base, world = server
    handle, _ = owner_of(world, "Orders 2025")
    gc = gspread_client(base, handle)
    book = gc.create("Layout by gspread")
    ws = book.sheet1
    ws.update([["b"], ["a"], ["b"], ["c"]], "A1")
    ws.merge_cells("C1:D2")
    assert merged(world, book.id) == ["Sheet1!C1:D2"]
    ws.unmerge_cells("C1:D2")
    assert merged(world, book.id) == []
    other = book.add_worksheet("Other", rows=5, cols=5)
    book.reorder_worksheets([other, ws])
    assert tabs(world, book.id) == ["Other", "Sheet1"]
    ws.update([["=UNIQUE(A1:A4)", "=SEQUENCE(1,2)"]], "F1", raw=False)
    assert state(world, book.id, "Sheet1!F1:H3") == [["b", 1, 2], ["a", "", ""], ["c", "", ""]]
    formulas = ws.get("F1:G2", value_render_option=gspread.utils.ValueRenderOption.formula)
    assert formulas == [["=UNIQUE(A1:A4)", "=SEQUENCE(1,2)"], ["a"]]
    ws.update([["in the way"]], "F3")
    assert ws.get("F1:F3") == [["#REF!"], [], ["in the way"]]  # Google's empty row
    with world.session() as s:
        where = (Cell.sheet_id == ws.id, Cell.col == 6)
        rows = s.execute(select(Cell.row, Cell.input, Cell.spill).where(*where)).all()
        assert sorted(rows) == [(1, "=UNIQUE(A1:A4)", "!3x1"), (3, "'in the way", None)]
    with pytest.raises(gspread.exceptions.APIError) as bold:
        ws.format("A1", {"textFormat": {"bold": True}})
    assert bold.value.response.status_code == 400


def test_google_reads_a_blocked_spill_with_sheets_note(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, _ = fresh(api, "Blocked", [["=SEQUENCE(3)"], [""], ["in the way"]])
    assert state(world, sid, "A1:A3") == [["#REF!"], [""], ["in the way"]]
    got = api.spreadsheets().get(spreadsheetId=sid, ranges="Sheet1!A1", includeGridData=True)
    cell = got.execute()["sheets"][0]["data"][0]["rowData"][0]["values"][0]
    assert cell["userEnteredValue"] == {"formulaValue": "=SEQUENCE(3)"}
    assert cell["effectiveValue"]["errorValue"] == {
        "type": "REF",
        "message": "Array result was not expanded because it would overwrite data in A3.",
    }
