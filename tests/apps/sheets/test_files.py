"""xlsx and CSV: a workbook exported and imported again is the same workbook; junk is
refused naming the file; newer functions carry Excel's file prefix."""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook

from officegym.apps.sheets import service as sheets
from officegym.errors import Invalid
from officegym.world import World
from tests.apps.sheets.helpers import owner, workbook


def snapshot(s, me, wb) -> dict:
    b = sheets.book(s, wb.id)
    out = {}
    for sh in sheets.sheets_of(s, wb):
        cells = b.sheets[sh.id].cells
        out[(sh.position, sh.name, sh.frozen_rows)] = {
            k: (c.input, c.value, c.fmt) for k, c in cells.items()
        }
    names = {n: (b.sheets[sid].name, area) for n, (sid, area) in b.names.items()}
    return {"sheets": out, "names": names}


def test_an_exported_workbook_imports_as_the_same_workbook(world: World) -> None:
    with world.session() as s:
        name = "Regional Sales Summary"
        wb, me = workbook(s, name), owner(s, name)
        sheets.define_name(s, me, wb, "DealAmounts", "Deals!B2:B30")
        sheets.write_range(
            s,
            me,
            wb,
            "Summary!D1",
            [['=XLOOKUP("EMEA",A2:A5,B2:B5)', "'0042", "=SUM(DealAmounts)"]],
        )
        sheets.freeze_rows(s, me, wb, sheets.sheet_named(s, wb, "Deals"), 1)
        sheets.set_number_format(s, me, wb, "Summary!B2:B6", "currency")
        data = sheets.export_xlsx(s, me, wb)
        raw = load_workbook(io.BytesIO(data))["Summary"]
        assert raw["D1"].value.startswith("=_xlfn.XLOOKUP(")
        copy = sheets.import_xlsx(s, me, "copy.xlsx", data)
        assert copy.name == "copy" and copy.id != wb.id
        assert snapshot(s, me, copy) == snapshot(s, me, wb)


def test_junk_is_refused_naming_the_file(world: World) -> None:
    with world.session() as s:
        me = owner(s, "Orders 2025")
        before = len(sheets.list_workbooks(s, me))
        for junk in (b"\x00\x01binary junk", b"PK\x03\x04truncated", b""):
            with pytest.raises(Invalid, match=r"report\.xlsx: not an \.xlsx workbook"):
                sheets.import_xlsx(s, me, "report.xlsx", junk)
        assert len(sheets.list_workbooks(s, me)) == before


def test_csv_round_trip_and_typed_values(world: World) -> None:
    with world.session() as s:
        me = owner(s, "Orders 2025")
        wb = sheets.create_workbook(s, me, "CSV")
        area = sheets.import_csv(
            s,
            me,
            wb,
            'Item,Cost,When\nPens,"$1,250",2026-02-03\nInk,12.5,\n,,\nTotal,=SUM(B2:B3),\n',
        )
        assert area.a1() == "A1:C5"
        block = sheets.read_range(s, me, wb, "A1:C5")
        assert block.rows[1][1] == 1250 and block.rows[4][1] == 1262.5
        text = sheets.export_csv(s, me, wb)
        assert text.splitlines()[1] == 'Pens,"$1,250",2026-02-03'
        copy = sheets.create_workbook(s, me, "CSV copy")
        sheets.import_csv(s, me, copy, text)
        assert sheets.export_csv(s, me, copy) == text
