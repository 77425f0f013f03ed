"""Files that keep their data and carry nothing dangerous: xlsx exports hold computed
values beside formulas (readable with data_only=True and pandas), text stays text both
ways, merged ranges survive, CSV exports neutralise formula-looking text and cost what
the sheet stores; hostile xlsx files (entity declarations, cell bombs) are refused
while they are read."""

from __future__ import annotations

import datetime as dt
import io
import zipfile

import pandas as pd
import pytest
from openpyxl import Workbook as XlsxBook
from openpyxl import load_workbook
from openpyxl.utils.datetime import to_excel
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.sheets import files
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.errors import Invalid
from officegym.world import World
from tests.apps.sheets.helpers import owner, workbook


def _xlsx(build) -> bytes:  # type: ignore[no-untyped-def]
    out = XlsxBook()
    build(out.active)
    data = io.BytesIO()
    out.save(data)
    return data.getvalue()


def _same_as_clone(s, me, wb, data: bytes) -> int:  # type: ignore[no-untyped-def]
    """Compare every stored cell of the clone with the export read with data_only=True;
    returns how many were compared."""
    read = load_workbook(io.BytesIO(data), data_only=True)
    b = sheets.book(s, wb.id)
    compared = 0
    for sh in sheets.sheets_of(s, wb):
        ws = read[sh.name]
        for (r, c), st in b.sheets[sh.id].cells.items():
            got = ws.cell(row=r, column=c).value
            want = sheets.json_value(st.value)
            if isinstance(got, dt.datetime | dt.time):  # a number shown as a date or time
                got = to_excel(got)
            if isinstance(got, int | float) and not isinstance(got, bool):
                assert got == pytest.approx(want), (wb.name, sh.name, r, c)
            else:
                assert (got if got is not None else "") == want, (wb.name, sh.name, r, c, got)
            compared += 1
    return compared


def test_every_seeded_workbook_exports_the_values_the_clone_shows(world: World) -> None:
    with world.session() as s:
        name = "Regional Sales Summary"
        wb, me = workbook(s, name), owner(s, name)
        sheets.write_range(
            s, me, wb, "Summary!F1", [["=1/0", '="a"&"b"', "=2>1", "=SUM(B2:B5)", "'=1+1"]]
        )
        compared = 0
        for each in s.scalars(select(Workbook).order_by(Workbook.id)):
            who = s.get_one(Person, each.owner_id)
            compared += _same_as_clone(s, who, each, sheets.export_xlsx(s, who, each))
        assert compared > 1000
        data = sheets.export_xlsx(s, me, wb)
        frame = pd.read_excel(io.BytesIO(data), sheet_name="Summary", header=None)
        assert frame.iloc[0, 6] == "ab" and bool(frame.iloc[0, 7]) is True


def test_text_cells_stay_text_and_never_become_formulas(world: World) -> None:
    with world.session() as s:
        me = owner(s, "Orders 2025")
        wb = sheets.create_workbook(s, me, "Texts")
        texts = ["'=1+1", "'00501", "'TRUE", "'+44 20", "'@cmd", "bell\x07 and tab\tend"]
        sheets.write_range(s, me, wb, "A1", [[t] for t in texts])
        sheets.set_number_format(s, me, wb, "B1", '0.0" \x02units"')
        data = sheets.export_xlsx(s, me, wb)
        raw = load_workbook(io.BytesIO(data))["Sheet1"]
        assert [raw.cell(row=i, column=1).data_type for i in range(1, 7)] == ["s"] * 6
        assert raw["A1"].value == "=1+1" and raw["A6"].value == "bell and tab\tend"
        csv_text = sheets.export_csv(s, me, wb)
        lines = csv_text.splitlines()
        assert lines[0] == "'=1+1" and lines[3] == "'+44 20" and lines[4] == "'@cmd"
        assert lines[1] == "00501"


def test_xlsx_text_cells_merges_and_values_survive_import(world: World) -> None:
    """Merged ranges come in with the file, go out with exports and follow inserted and
    deleted lines."""

    def build(ws) -> None:  # type: ignore[no-untyped-def]
        for i, text in enumerate(["00501", "007", "TRUE", "1e3", "=1+1"], start=1):
            ws.cell(row=i, column=1, value=text).data_type = "s"
        ws["B1"] = 42
        ws["B2"] = "=B1*2"
        ws.merge_cells("C1:D2")
        ws["C1"] = "merged"

    with world.session() as s:
        me = owner(s, "Orders 2025")
        wb = sheets.import_xlsx(s, me, "typed.xlsx", _xlsx(build))
        rows = sheets.read_range(s, me, wb, "A1:B5").rows
        assert [r[0] for r in rows] == ["00501", "007", "TRUE", "1e3", "=1+1"]
        assert rows[0][1] == 42 and rows[1][1] == 84
        again = load_workbook(io.BytesIO(sheets.export_xlsx(s, me, wb)))["Sheet"]
        assert [str(m) for m in again.merged_cells.ranges] == ["C1:D2"]
        assert again["A3"].value == "TRUE" and again["A3"].data_type == "s"
        sheets.change_dimension(s, me, wb, "insert", sheet=None, axis="row", start=1, count=2)
        sheets.change_dimension(s, me, wb, "insert", sheet=None, axis="col", start="A", count=1)
        moved = load_workbook(io.BytesIO(sheets.export_xlsx(s, me, wb)))["Sheet"]
        assert [str(m) for m in moved.merged_cells.ranges] == ["D3:E4"]
        assert moved["D3"].value == "merged"
        sheets.change_dimension(s, me, wb, "delete", sheet=None, axis="row", start=3, count=2)
        gone = load_workbook(io.BytesIO(sheets.export_xlsx(s, me, wb)))["Sheet"]
        assert list(gone.merged_cells.ranges) == []


def test_a_value_in_the_last_cell_exports_quickly(world: World) -> None:
    with world.session() as s:
        me = owner(s, "Orders 2025")
        wb = sheets.create_workbook(s, me, "Far")
        sheets.write_range(s, me, wb, "A1", [["first"]])
        sheets.write_range(s, me, wb, "XFD1048576", [["last"]])
        text = sheets.export_csv(s, me, wb)
        assert len(text) < 1_100_000 + 20_000  # a line per row, not 17 billion fields
        assert text.startswith("first\n") and text.rstrip("\n").endswith(",last")
        data = sheets.export_xlsx(s, me, wb)
        assert load_workbook(io.BytesIO(data), read_only=True)["Sheet1"].max_row == 1048576


def _with_part(data: bytes, name: str, text: bytes) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info, text if info.filename == name else src.read(info))
    return out.getvalue()


def test_entity_declarations_and_cell_bombs_are_refused(world: World) -> None:
    plain = _xlsx(lambda ws: ws.cell(row=1, column=1, value=1))
    sheet = zipfile.ZipFile(io.BytesIO(plain)).read("xl/worksheets/sheet1.xml")
    laughs = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]>' + sheet[38:]
    cells = b"<c/>" * (5 * files.MAX_IMPORT + 10)
    bomb = sheet.replace(b"<sheetData>", b'<sheetData><row r="2">' + cells + b"</row>")
    with world.session() as s:
        me = owner(s, "Orders 2025")
        before = len(sheets.list_workbooks(s, me))
        entity = _with_part(plain, "xl/worksheets/sheet1.xml", laughs)
        with pytest.raises(Invalid, match="entity declaration"):
            sheets.import_xlsx(s, me, "laughs.xlsx", entity)
        packed = _with_part(plain, "xl/worksheets/sheet1.xml", bomb)
        assert len(packed) < 100_000
        with pytest.raises(Invalid, match="more than"):
            sheets.import_xlsx(s, me, "bomb.xlsx", packed)
        assert len(sheets.list_workbooks(s, me)) == before


def test_download_names_outside_latin1_make_valid_headers() -> None:
    header = files.attachment("Bilan 2026 — 東京\x01", "xlsx")
    header.encode("latin-1")
    assert "filename*=UTF-8''Bilan%202026%20%E2%80%94%20%E6%9D%B1%E4%BA%AC.xlsx" in header


def test_a_workbook_named_outside_latin1_downloads(world: World, client) -> None:  # type: ignore[no-untyped-def]
    with world.session() as s:
        me = owner(s, "Orders 2025")
        wb = sheets.create_workbook(s, me, "Ventes 東京 €")
        sheets.write_range(s, me, wb, "A1", [["=1+1", "'@x"]])
        s.commit()
    client.get(f"/login/{me.handle}")
    got = client.get(f"/sheets/{wb.id}/export.xlsx")
    assert got.status_code == 200
    assert (
        "filename*=UTF-8''Ventes%20%E6%9D%B1%E4%BA%AC%20%E2%82%AC.xlsx"
        in got.headers["Content-Disposition"]
    )
    assert load_workbook(io.BytesIO(got.data), data_only=True)["Sheet1"]["A1"].value == 2
    text = client.get(f"/sheets/{wb.id}/export.csv").get_data(as_text=True)
    assert text == "2,'@x\n"


def test_a_csv_import_past_the_cell_cap_is_refused_whole_and_one_at_it_is_typed(
    world: World,
) -> None:
    """An import is one transaction holding the write lock while it types every cell:
    the cap (`MAX_IMPORT`) bounds that hold; one cell more is refused, naming the cap,
    before any sheet is added."""
    width = 10
    rows = files.MAX_IMPORT // width
    fits = "\n".join(",".join(str(r * width + c) for c in range(width)) for r in range(rows))
    with world.session() as s:
        me = owner(s, "Orders 2025")
        wb = workbook(s, "Orders 2025")
        with pytest.raises(Invalid, match=f"at most {files.MAX_IMPORT} cells per import"):
            files.import_csv(s, me, wb, fits + "\n1", new_sheet="Too big")
        s.rollback()
        area = files.import_csv(s, me, wb, fits, new_sheet="Just fits")
        assert (area.r2, area.c2) == (rows, width)
