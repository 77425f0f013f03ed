"""The value writes of the Google Sheets API: values.update, batchUpdate, append and
clear, as Google does them. A ``null`` leaves its cell as it is and ``""`` empties it;
an append finds the table its range names and writes under that table's last row,
from the table's first column (``INSERT_ROWS`` first makes room for the rows)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import budget
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.api_values import api_range, cell_input, label
from officegym.apps.sheets.models import Sheet, Workbook
from officegym.apps.sheets.refs import MAX_COLS, MAX_ROWS, Area, a1
from officegym.errors import Invalid

__all__ = ["append", "batch_write", "clear", "rows_of", "write"]


def rows_of(body: dict[str, Any], option: str) -> list[list[Any]]:
    """The posted values as rows of cell inputs (columns turned into rows)."""
    values = body.get("values", [])
    if not isinstance(values, list) or not all(isinstance(r, list) for r in values):
        raise Invalid("Invalid values: a list of rows, each a list of cells")
    if sum(len(r) for r in values) > sheets.MAX_WRITE:
        raise Invalid(f"Invalid values: at most {sheets.MAX_WRITE} cells per write")
    rows = [[cell_input(v, option) for v in row] for row in values]
    major = body.get("majorDimension", "ROWS")
    if major not in ("ROWS", "COLUMNS", None):
        raise Invalid(f"Invalid majorDimension: {major!r} (ROWS or COLUMNS)")
    if major == "COLUMNS":
        width = max((len(c) for c in rows), default=0)
        rows = [[c[i] if i < len(c) else None for c in rows] for i in range(width)]
    return rows


def _fits(sheet: Sheet, area: Area, rows: list[list[Any]]) -> Area:
    """The area the rows cover from the range's top-left; Google's 400 when they spill
    out of a range larger than one cell."""
    width = max((len(r) for r in rows), default=0)
    covered = Area(area.r1, area.c1, area.r1 + len(rows) - 1, area.c1 + width - 1, sheet.name)
    if covered.r2 > MAX_ROWS or covered.c2 > MAX_COLS:
        raise Invalid("Invalid values: they run off the sheet")
    if area.size > 1 and (covered.r2 > area.r2 or covered.c2 > area.c2):
        raise Invalid(
            f"Requested writing within range [{label(sheet, area)}], but tried writing to "
            f"[{label(sheet, covered)}]"
        )
    return covered


def _put(s: Session, me: Person, wb: Workbook, sheet: Sheet, at: Area, rows: list) -> None:
    """Type every non-null value with the block's top-left at `at`."""
    cells = {
        a1(at.r1 + i, at.c1 + j): v
        for i, row in enumerate(rows)
        for j, v in enumerate(row)
        if v is not None
    }
    if cells:
        sheets.write_cells(s, me, wb, cells, sheet=sheet.name)
    else:
        sheets.require_edit(s, me, wb)


def _updated(wb: Workbook, sheet: Sheet, written: Area | None) -> dict[str, Any]:
    """An UpdateValuesResponse's counts."""
    out: dict[str, Any] = {"spreadsheetId": str(wb.id)}
    if written is None:
        return out
    out.update(
        updatedRange=label(sheet, written),
        updatedRows=written.rows,
        updatedColumns=written.cols,
        updatedCells=written.size,
    )
    return out


def write(
    s: Session, me: Person, wb: Workbook, ref: Any, body: dict[str, Any], option: str
) -> dict[str, Any]:
    """values.update: the values from the range's top-left, nulls left untouched."""
    rows = rows_of(body, option)
    sheet, area = api_range(s, wb, ref)
    if not any(rows):
        sheets.require_edit(s, me, wb)
        return _updated(wb, sheet, None)
    covered = _fits(sheet, area, rows)
    _put(s, me, wb, sheet, covered, rows)
    return _updated(wb, sheet, covered)


def batch_write(s: Session, me: Person, wb: Workbook, body: dict[str, Any]) -> dict[str, Any]:
    """values.batchUpdate: every ValueRange of `data`, all or nothing."""
    option = body.get("valueInputOption", "")
    data = body.get("data") or []
    if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
        raise Invalid("Invalid data: a list of ValueRange objects")
    cells = sum(len(r) for d in data for r in d.get("values") or [] if isinstance(r, list))
    if cells > sheets.MAX_WRITE:
        raise Invalid(f"Invalid data: at most {sheets.MAX_WRITE} cells per call (got {cells})")
    responses = []
    with s.begin_nested(), budget.call(len(data)) as check:
        for i, d in enumerate(data):
            check(i)
            responses.append(write(s, me, wb, d.get("range", ""), d, option))
    totals = {
        f"total{k[0].upper()}{k[1:]}": sum(r.get(k, 0) for r in responses)
        for k in ("updatedRows", "updatedColumns", "updatedCells")
    }
    touched = {r["updatedRange"].rpartition("!")[0] for r in responses if "updatedRange" in r}
    return {
        "spreadsheetId": str(wb.id),
        **totals,
        "totalUpdatedSheets": len(touched),
        "responses": responses,
    }


def _has_data(cells: dict, r: int, c1: int, c2: int) -> bool:
    return any(
        (st := cells.get((r, c))) is not None and (st.input or st.value is not None)
        for c in range(c1, c2 + 1)
    )


def table_end(s: Session, wb: Workbook, sheet: Sheet, area: Area) -> tuple[int, int]:
    """Where an append into `area` writes: the row under the table found in the range
    (its first data row, then every row below it until an empty one) and the table's
    first column; the range's top-left when the range holds no data."""
    data = sheets.book(s, wb.id).sheets[sheet.id]
    cells = data.cells
    c2 = min(area.c2, max(data.max_col, area.c1))
    last = min(area.r2, data.max_row)
    first = next((r for r in range(area.r1, last + 1) if _has_data(cells, r, area.c1, c2)), None)
    if first is None:
        return area.r1, area.c1
    end = first
    while end + 1 <= data.max_row and _has_data(cells, end + 1, area.c1, c2):
        end += 1
    col = min(
        c
        for (r, c), st in cells.items()
        if first <= r <= end and area.c1 <= c <= c2 and (st.input or st.value is not None)
    )
    return end + 1, col


def append(
    s: Session, me: Person, wb: Workbook, ref: Any, body: dict[str, Any], args: dict[str, str]
) -> dict[str, Any]:
    """values.append: under the table of the range (``insertDataOption`` OVERWRITE or
    INSERT_ROWS), from the table's first column."""
    rows = rows_of(body, args.get("valueInputOption", ""))
    how = args.get("insertDataOption", "OVERWRITE")
    if how not in ("OVERWRITE", "INSERT_ROWS"):
        raise Invalid(f"Invalid insertDataOption: {how!r} (OVERWRITE or INSERT_ROWS)")
    sheet, area = api_range(s, wb, ref)
    sheets.require_edit(s, me, wb)
    row, col = table_end(s, wb, sheet, area)
    table = label(sheet, Area(area.r1, area.c1, max(row - 1, area.r1), area.c2))
    if not any(rows):
        return {
            "spreadsheetId": str(wb.id),
            "tableRange": table,
            "updates": _updated(wb, sheet, None),
        }
    at = Area(row, col, row, col, sheet.name)
    covered = _fits(sheet, at, rows)
    if how == "INSERT_ROWS":
        sheets.change_dimension(
            s, me, wb, "insert", sheet=sheet.name, axis="row", start=row, count=covered.rows
        )
    _put(s, me, wb, sheet, covered, rows)
    return {
        "spreadsheetId": str(wb.id),
        "tableRange": table,
        "updates": _updated(wb, sheet, covered),
    }


def clear(s: Session, me: Person, wb: Workbook, ref: Any) -> str:
    """values.clear: empty the range's values (formats stay); its label."""
    sheet, area = api_range(s, wb, ref)
    sheets.clear_range(s, me, wb, area.label(), sheet=sheet.name)
    return label(sheet, area)
