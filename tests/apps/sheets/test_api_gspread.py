"""gspread, the most used Python client of Google Sheets, unmodified against a served
world: every everyday call of its users, each followed by a read of the clone's own
state (through the sheets service, not through gspread), so a call that answers but
loses or misplaces data fails."""

from __future__ import annotations

import io
from typing import Any

import gspread
import openpyxl
import pytest
from gspread.utils import ExportFormat

from officegym.apps.org.models import Person
from officegym.apps.sheets.models import Workbook
from officegym.world import World
from tests.apps.sheets.api_clients import gspread_client, owner_of, state


@pytest.fixture
def gc(server: tuple[str, World]) -> gspread.Client:
    """gspread signed in as the owner of "Orders 2025", who may create spreadsheets."""
    base, world = server
    handle, _ = owner_of(world, "Orders 2025")
    return gspread_client(base, handle)


def fresh(gc: gspread.Client, title: str, rows: list[list[Any]]) -> gspread.Spreadsheet:
    """A new spreadsheet with `rows` from A1 of its first sheet."""
    book = gc.create(title)
    book.sheet1.update(rows, "A1", value_input_option="USER_ENTERED")
    return book


TABLE = [
    ["Name", "Region", "Amount"],
    ["Ann", "EMEA", 300],
    ["Bob", "APAC", 100],
    ["Cid", "EMEA", 200],
]


def test_open_by_title_and_read(server: tuple[str, World]) -> None:
    base, world = server
    handle, sid = owner_of(world, "Orders 2025")
    gc = gspread_client(base, handle)
    book = gc.open("Orders 2025")  # Drive files.list by name and mime type
    assert book.id == sid and book.title == "Orders 2025"
    assert gc.open_by_key(sid).title == "Orders 2025"
    ws = book.worksheet("Orders")
    assert [w.title for w in book.worksheets()] == ["Orders"] and book.sheet1.id == ws.id
    everything = ws.get_all_values()
    assert len(everything) == 201 and everything[0] == state(world, sid, "Orders!A1:I1")[0]
    assert ws.row_values(2)[0] == "SO-10001"  # Orders!A2:2, an open-ended row
    column = ws.col_values(1)  # Orders!A:A
    assert len(column) == 201 and column[1:3] == ["SO-10001", "SO-10002"]
    assert ws.acell("A2").value == "SO-10001" and ws.cell(1, 3).value == "Region"
    assert ws.get("A1:B2") == [["Order ID", "Order Date"], ["SO-10001", "2025-01-02"]]
    records = ws.get_all_records()
    assert records[0]["Order ID"] == "SO-10001" and len(records) == 200
    both = ws.batch_get(["A1", "C1:C2"])
    assert both[0] == [["Order ID"]] and both[1] == [["Region"], ["APAC"]]
    raw = ws.get("I2", value_render_option=gspread.utils.ValueRenderOption.unformatted)
    assert isinstance(raw[0][0], int | float)
    with pytest.raises(gspread.SpreadsheetNotFound):
        gc.open("No such spreadsheet")


def test_writes_keep_every_value(server: tuple[str, World], gc: gspread.Client) -> None:
    _, world = server
    book = fresh(gc, "Writes", TABLE)
    ws, sid = book.sheet1, book.id
    assert state(world, sid, "A1:C4") == [[*r] for r in TABLE]
    ws.update_acell("D1", "Note")
    ws.update_cell(2, 4, "=C2*2")
    assert state(world, sid, "D1:D2") == [["Note"], [600]]
    ws.update([["x", None, ""]], "A3")  # null: no change; "": cleared
    assert state(world, sid, "A3:C3") == [["x", "APAC", ""]]
    ws.update([["1,234.50", "2024-02-29 13:45", "12%"]], "E1", value_input_option="USER_ENTERED")
    shown = state(world, sid, "E1:G1", mode="formatted")
    assert shown == [["1,234.50", "2024-02-29 13:45:00", "12%"]]
    assert state(world, sid, "E1:G1")[0][0] == 1234.5 and state(world, sid, "G1") == [[0.12]]
    ws.batch_update(
        [{"range": "H1", "values": [[5]]}, {"range": "I1:J1", "values": [[7, "=H1+I1"]]}],
        value_input_option="USER_ENTERED",
    )
    assert state(world, sid, "H1:J1") == [[5, 7, 12]]
    ws.batch_clear(["H1:I1"])
    ws.clear()
    assert {v for row in state(world, sid, "A1:J4") for v in row} == {""}


def test_rows_go_where_gspread_puts_them(server: tuple[str, World], gc: gspread.Client) -> None:
    _, world = server
    book = fresh(gc, "Rows", TABLE)
    ws, sid = book.sheet1, book.id
    ws.append_row(["Dee", "LATAM", 50])
    ws.append_rows([["Eve", "NA", 10], ["Fay", "NA", 20]])
    assert state(world, sid, "A5:A7") == [["Dee"], ["Eve"], ["Fay"]]
    ws.insert_row(["Top", "EMEA", 1], index=2)  # insertDimension, then append at A2
    assert state(world, sid, "A1:A3") == [["Name"], ["Top"], ["Ann"]]
    ws.insert_rows([["R1"], ["R2"]], row=4)
    assert state(world, sid, "A3:A6") == [["Ann"], ["R1"], ["R2"], ["Bob"]]
    ws.delete_rows(4, 5)
    assert state(world, sid, "A3:A4") == [["Ann"], ["Bob"]]
    ws.insert_cols([["New", "n1"]], col=2)
    assert state(world, sid, "A1:C2") == [["Name", "New", "Region"], ["Top", "n1", "EMEA"]]
    ws.delete_columns(2)
    assert state(world, sid, "B1") == [["Region"]]
    assert len(state(world, sid, "A1:A20")) == 8  # nothing written anywhere else


def test_sort_find_format_and_ranges(server: tuple[str, World], gc: gspread.Client) -> None:
    _, world = server
    book = fresh(gc, "Sorting", [["pad", *TABLE[0]], *[["", *r] for r in TABLE[1:]]])
    ws, sid = book.sheet1, book.id
    ws.sort((4, "des"), range="B2:D4")  # column D of the sheet, not of the range
    assert state(world, sid, "B2:D4") == [
        ["Ann", "EMEA", 300],
        ["Cid", "EMEA", 200],
        ["Bob", "APAC", 100],
    ]
    found = ws.find("Cid")
    assert (found.row, found.col) == (3, 2)
    assert [c.row for c in ws.findall("EMEA")] == [2, 3]
    ws.format("D2:D4", {"numberFormat": {"type": "CURRENCY", "pattern": "$#,##0.00"}})
    assert state(world, sid, "D2", mode="formatted") == [["$300.00"]]
    ws.define_named_range("B2:D4", "People")
    assert [r["name"] for r in book.list_named_ranges()] == ["People"]
    assert [c.value for c in book.named_range("People")][:3] == ["Ann", "EMEA", "$300.00"]
    ws.delete_named_range(book.list_named_ranges()[0]["namedRangeId"])
    assert book.list_named_ranges() == []
    ws.copy_range("B2:B3", "F2")
    assert state(world, sid, "F2:F3") == [["Ann"], ["Cid"]]
    ws.cut_range("F2:F3", "G5")
    assert state(world, sid, "F2:G6") == [["", ""], ["", ""], ["", ""], ["", "Ann"], ["", "Cid"]]
    ws.freeze(rows=1)
    assert (
        book.fetch_sheet_metadata()["sheets"][0]["properties"]["gridProperties"]["frozenRowCount"]
        == 1
    )
    with pytest.raises(gspread.exceptions.APIError) as refused:
        ws.hide()  # the clone has no hidden sheets
    assert refused.value.response.status_code == 400 and "'hidden'" in str(refused.value)


def test_sheets_of_a_spreadsheet(server: tuple[str, World], gc: gspread.Client) -> None:
    _, world = server
    book = fresh(gc, "Tabs", TABLE)
    extra = book.add_worksheet("Extra", rows=10, cols=5)
    copy = book.sheet1.duplicate(new_sheet_name="Copy")
    assert [w.title for w in book.worksheets()] == ["Sheet1", "Extra", "Copy"]
    assert state(world, book.id, "Copy!A1:C4") == [[*r] for r in TABLE]
    extra.update_title("Renamed")
    book.update_title("Tabs renamed")
    with world.session() as s:
        assert s.get_one(Workbook, int(book.id)).name == "Tabs renamed"
    book.del_worksheet(copy)
    assert [w.title for w in book.worksheets()] == ["Sheet1", "Renamed"]


def test_drive_create_share_export_delete(server: tuple[str, World], gc: gspread.Client) -> None:
    base, world = server
    book = fresh(gc, "Shared via Drive", TABLE)
    assert "Shared via Drive" in [f["name"] for f in gc.list_spreadsheet_files()]
    assert [b.id for b in gc.openall("Shared via Drive")] == [book.id]
    with world.session() as s:
        other = s.get_one(Person, 2 if s.get_one(Workbook, int(book.id)).owner_id != 2 else 3)
        email, other_handle = other.email, other.handle
    book.share(email, perm_type="user", role="writer", notify=False)
    roles = {p.get("emailAddress"): p["role"] for p in book.list_permissions()}
    assert roles[email] == "writer" and "owner" in roles.values()
    colleague = gspread_client(base, other_handle)
    colleague.open("Shared via Drive").sheet1.update_acell("A5", "from a colleague")
    assert state(world, book.id, "A5") == [["from a colleague"]]
    book.remove_permissions(email)
    with pytest.raises(PermissionError):  # gspread's reading of Google's 403
        colleague.open_by_key(book.id)
    csv = book.export(ExportFormat.CSV).decode()
    assert csv.splitlines()[:2] == ["Name,Region,Amount", "Ann,EMEA,300"]
    xlsx = book.export(ExportFormat.EXCEL)
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx)).active
    assert sheet["A2"].value == "Ann" and sheet["C2"].value == 300
    gc.del_spreadsheet(book.id)
    with world.session() as s:
        assert s.get(Workbook, int(book.id)) is None


def test_cell_lists_formats_and_low_level_calls(
    server: tuple[str, World], gc: gspread.Client
) -> None:
    _, world = server
    book = fresh(gc, "Cell lists", [[1, 2], [3, 4]])
    ws, sid = book.sheet1, book.id
    cells = ws.range("A1:B2")
    for cell in cells:
        cell.value = int(cell.value) * 10
    ws.update_cells(cells)
    assert state(world, sid, "A1:B2") == [[10, 20], [30, 40]]
    ws.batch_format(
        [{"range": "A1:B2", "format": {"numberFormat": {"type": "NUMBER", "pattern": "0.0"}}}]
    )
    assert ws.get_values("A1:B1") == [["10.0", "20.0"]]
    ws.resize(rows=50, cols=8)  # the clone's grid grows with its data; nothing is lost
    assert state(world, sid, "A1:B2") == [[10, 20], [30, 40]]
    added = book.values_append("Sheet1!A1", {"valueInputOption": "RAW"}, {"values": [["x"]]})
    assert added["updates"]["updatedRange"] == "Sheet1!A3" and state(world, sid, "A3") == [["x"]]
    assert book.values_get("Sheet1!A1:B1")["values"] == [["10.0", "20.0"]]
