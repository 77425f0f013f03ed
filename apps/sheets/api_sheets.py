"""The Google Sheets API's Spreadsheet resource: properties, sheets, named ranges and,
with ``includeGridData``, each cell's entered, effective and formatted value and its
number format."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.api_values import api_range, grid_size
from officegym.apps.sheets.formats import format_value, is_date_format
from officegym.apps.sheets.models import NamedRange, Sheet, Workbook
from officegym.apps.sheets.refs import Area
from officegym.apps.sheets.values import XlError
from officegym.errors import Invalid

__all__ = ["grid_range", "sheet_resource", "spreadsheet"]

MAX_GRID_CELLS = 50_000  # cells of grid data in one response


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
    if sheet.frozen_cols:
        grid["frozenColumnCount"] = sheet.frozen_cols
    props = {
        "sheetId": sheet.id,
        "title": sheet.name,
        "index": index,
        "sheetType": "GRID",
        "gridProperties": grid,
    }
    merges = [grid_range(sheet, m) for m in sheets.merges_of(s, sheet)]
    return {"properties": props, **({"merges": merges} if merges else {})}


def _extended(v: Any) -> dict[str, Any]:
    """An ExtendedValue."""
    if isinstance(v, XlError):
        return {"errorValue": {"type": "ERROR", "message": v.code}}
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int | float):
        return {"numberValue": v}
    return {"stringValue": str(v)}


def _number_format(fmt: str) -> dict[str, str]:
    kind = "DATE" if is_date_format(fmt) else "PERCENT" if "%" in fmt else "NUMBER"
    if "$" in fmt and kind == "NUMBER":
        kind = "CURRENCY"
    if is_date_format(fmt) and ("h" in fmt.lower() or "s" in fmt.lower()):
        kind = "DATE_TIME"
    return {"type": kind, "pattern": fmt}


def cell_data(state: Any) -> dict[str, Any]:
    """A CellData: what was entered, what it computes to, how it shows, its format."""
    if state is None:
        return {}
    out: dict[str, Any] = {}
    if state.input is not None:
        if state.input.startswith("=") and len(state.input) > 1:
            out["userEnteredValue"] = {"formulaValue": state.input}
        elif state.value is not None:
            out["userEnteredValue"] = _extended(state.value)
    if state.value is not None:
        out["effectiveValue"] = _extended(state.value)
        out["formattedValue"] = format_value(state.value, state.fmt)
    if state.fmt:
        fmt = {"numberFormat": _number_format(state.fmt)}
        out["userEnteredFormat"] = fmt
        out["effectiveFormat"] = fmt
    return out


def grid_data(s: Session, wb: Workbook, sheet: Sheet, area: Area | None) -> dict[str, Any]:
    """A GridData of the sheet's used cells (within `area` if given); a blocked array
    formula's error carries Sheets' note, as Google's ErrorValue does."""
    book = sheets.book(s, wb.id)
    data = book.sheets[sheet.id]
    r1, c1 = (area.r1, area.c1) if area else (1, 1)
    r2 = min(area.r2 if area else data.max_row, data.max_row)
    c2 = min(area.c2 if area else data.max_col, data.max_col)
    if (r2 - r1 + 1) * (c2 - c1 + 1) > MAX_GRID_CELLS:
        raise Invalid(
            f"grid data of at most {MAX_GRID_CELLS} cells per response; ask for smaller ranges"
        )
    rows = [
        {"values": [cell_data(data.cells.get((r, c))) for c in range(c1, c2 + 1)]}
        for r in range(r1, r2 + 1)
    ]
    for (r, c), (_, _, blocked) in book.spills.anchors.get(sheet.id, {}).items():
        if blocked and r1 <= r <= r2 and c1 <= c <= c2:
            note = sheets.spill_note(book, (sheet.id, r, c))
            error = {"errorValue": {"type": "REF", "message": note}}
            rows[r - r1]["values"][c - c1]["effectiveValue"] = error
    out: dict[str, Any] = {"startRow": r1 - 1, "startColumn": c1 - 1}
    if rows:
        out["rowData"] = rows
    return out


def _named_ranges(s: Session, wb: Workbook, by_id: dict[int, Sheet]) -> list[dict[str, Any]]:
    found = s.scalars(
        select(NamedRange).where(NamedRange.workbook_id == wb.id).order_by(NamedRange.id)
    )
    return [
        {
            "namedRangeId": str(n.id),
            "name": n.name,
            "range": grid_range(by_id[n.sheet_id], Area(n.r1, n.c1, n.r2, n.c2)),
        }
        for n in found
    ]


def _with_data(
    s: Session, wb: Workbook, tabs: list[Sheet], ranges: list[str]
) -> dict[int, list[dict[str, Any]]]:
    """GridData per sheet id: of the ranges asked for, else of every sheet."""
    if not ranges:
        return {t.id: [grid_data(s, wb, t, None)] for t in tabs}
    out: dict[int, list[dict[str, Any]]] = {}
    for text in ranges:
        sheet, area = api_range(s, wb, text)
        out.setdefault(sheet.id, []).append(grid_data(s, wb, sheet, area))
    return out


def spreadsheet(
    s: Session,
    wb: Workbook,
    base_url: str,
    *,
    grid: bool = False,
    ranges: list[str] | None = None,
) -> dict[str, Any]:
    """A Spreadsheet resource: properties, sheets (with their cells when `grid`, or of
    `ranges` when given) and named ranges."""
    tabs = sheets.sheets_of(s, wb)
    data = _with_data(s, wb, tabs, ranges or []) if grid else {}
    listed = []
    for i, t in enumerate(tabs):
        if ranges and grid and t.id not in data:
            continue
        resource = sheet_resource(s, wb, t, i)
        if grid:
            resource["data"] = data.get(t.id, [])
        listed.append(resource)
    out: dict[str, Any] = {
        "spreadsheetId": str(wb.id),
        "properties": {
            "title": wb.name,
            "locale": "en_US",
            "autoRecalc": "ON_CHANGE",
            "timeZone": "America/New_York",
        },
        "sheets": listed,
        "spreadsheetUrl": f"{base_url}gsheets/spreadsheets/d/{wb.id}/edit",
    }
    named = _named_ranges(s, wb, {t.id: t for t in tabs})
    if named:
        out["namedRanges"] = named
    return out
