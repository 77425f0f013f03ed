"""The Google Sheets API's objects, built from the sheets service: A1 ranges as the API
takes them (a sheet name alone is the whole sheet), value ranges in each render option,
spreadsheet and sheet resources, and the inputs of `valueInputOption` RAW and
USER_ENTERED."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.formats import format_value
from officegym.apps.sheets.models import NamedRange, Sheet, Workbook
from officegym.apps.sheets.refs import Area, quote_sheet
from officegym.apps.sheets.values import XlError
from officegym.errors import Invalid

__all__ = [
    "GRID_COLS",
    "GRID_ROWS",
    "api_range",
    "cell_input",
    "sheet_resource",
    "spreadsheet",
    "value_range",
]

GRID_ROWS, GRID_COLS = 1000, 26  # a new Google sheet's grid; larger when the data is
RENDER = ("FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA")


def api_range(s: Session, wb: Workbook, text: str) -> tuple[Sheet, Area]:
    """The sheet and area of an API range: ``Sheet1!A1:B2``, ``Sheet1!A:A``, ``A1:B2``
    (first sheet), or a sheet's name alone (the whole sheet)."""
    raw = text.strip()
    bare = raw[1:-1].replace("''", "'") if raw.startswith("'") and raw.endswith("'") else raw
    for sh in sheets.sheets_of(s, wb):
        if sh.name.lower() == bare.lower() and "!" not in raw:
            return sh, Area(1, 1, 1_048_576, 16_384, sh.name)
    return sheets.locate(s, wb, raw)


def grid_size(s: Session, wb: Workbook, sheet: Sheet) -> tuple[int, int]:
    data = sheets.book(s, wb.id).sheets[sheet.id]
    return max(GRID_ROWS, data.max_row), max(GRID_COLS, data.max_col)


def label(sheet: Sheet, area: Area) -> str:
    return f"{quote_sheet(sheet.name)}!{area.a1()}"


def _render(state: Any, option: str) -> Any:
    if state is None:
        return ""
    if option == "FORMULA" and state.input and state.input.startswith("="):
        return state.input
    v = state.value
    if v is None:
        return ""
    if option == "FORMATTED_VALUE":
        return format_value(v, state.fmt)
    if isinstance(v, XlError):
        return v.code
    return int(v) if isinstance(v, float) and v.is_integer() and abs(v) < 2**53 else v


def value_range(
    s: Session, actor: Person, wb: Workbook, text: str, option: str, major: str
) -> dict[str, Any]:
    """A ValueRange: the requested range and its values, trailing blanks trimmed."""
    if option not in RENDER:
        raise Invalid(f"valueRenderOption must be one of {', '.join(RENDER)}")
    if major not in ("ROWS", "COLUMNS"):
        raise Invalid("majorDimension must be ROWS or COLUMNS")
    sheet, area = api_range(s, wb, text)
    rows_max, cols_max = grid_size(s, wb, sheet)
    shown = Area(area.r1, area.c1, min(area.r2, rows_max), min(area.c2, cols_max), sheet.name)
    block = sheets.read_range(s, actor, wb, shown.label())
    cells = sheets.book(s, wb.id).sheets[sheet.id].cells
    rows = [
        [_render(cells.get((r, c)), option) for c in range(block.area.c1, block.area.c2 + 1)]
        for r in range(block.area.r1, block.area.r2 + 1)
    ]
    if major == "COLUMNS":
        rows = [list(col) for col in zip(*rows, strict=True)] if rows else []
    out: dict[str, Any] = {"range": label(sheet, shown), "majorDimension": major}
    values = _trim(rows)
    if values:
        out["values"] = values
    return out


def _trim(rows: list[list[Any]]) -> list[list[Any]]:
    trimmed = []
    for row in rows:
        while row and row[-1] == "":
            row = row[:-1]
        trimmed.append(row)
    while trimmed and not trimmed[-1]:
        trimmed.pop()
    return trimmed


def cell_input(value: Any, option: str) -> Any:
    """What one posted value types: USER_ENTERED reads it as typed; RAW keeps text as
    text (a leading '=' or digits stay literal)."""
    if option not in ("RAW", "USER_ENTERED"):
        raise Invalid("valueInputOption is required: RAW or USER_ENTERED")
    if value is None or isinstance(value, bool | int | float):
        return value
    if not isinstance(value, str):
        raise Invalid("values hold strings, numbers and booleans")
    if option == "RAW" and value:
        return "'" + value
    return value


def grid_range(sheet: Sheet, area: Area) -> dict[str, int]:
    """A GridRange (0-based, end-exclusive)."""
    return {
        "sheetId": sheet.id,
        "startRowIndex": area.r1 - 1,
        "endRowIndex": area.r2,
        "startColumnIndex": area.c1 - 1,
        "endColumnIndex": area.c2,
    }


def sheet_resource(s: Session, wb: Workbook, sheet: Sheet, index: int) -> dict[str, Any]:
    rows, cols = grid_size(s, wb, sheet)
    grid: dict[str, Any] = {"rowCount": rows, "columnCount": cols}
    if sheet.frozen_rows:
        grid["frozenRowCount"] = sheet.frozen_rows
    props = {
        "sheetId": sheet.id,
        "title": sheet.name,
        "index": index,
        "sheetType": "GRID",
        "gridProperties": grid,
    }
    return {"properties": props}


def spreadsheet(s: Session, wb: Workbook, base_url: str) -> dict[str, Any]:
    """A Spreadsheet resource: properties, sheets, named ranges."""
    tabs = sheets.sheets_of(s, wb)
    by_id = {t.id: t for t in tabs}
    rows = s.scalars(
        select(NamedRange).where(NamedRange.workbook_id == wb.id).order_by(NamedRange.id)
    )
    named = [
        {
            "namedRangeId": str(n.id),
            "name": n.name,
            "range": grid_range(by_id[n.sheet_id], Area(n.r1, n.c1, n.r2, n.c2)),
        }
        for n in rows
    ]
    out: dict[str, Any] = {
        "spreadsheetId": str(wb.id),
        "properties": {
            "title": wb.name,
            "locale": "en_US",
            "autoRecalc": "ON_CHANGE",
            "timeZone": "America/New_York",
        },
        "sheets": [sheet_resource(s, wb, t, i) for i, t in enumerate(tabs)],
        "spreadsheetUrl": f"{base_url}sheets/{wb.id}",
    }
    if named:
        out["namedRanges"] = named
    return out
