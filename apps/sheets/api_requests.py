"""spreadsheets.batchUpdate: the requests of the Google Sheets API the clone does
(addSheet, deleteSheet, updateSheetProperties, sortRange, insertDimension,
deleteDimension), applied in order, all or nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.api_values import sheet_resource
from officegym.apps.sheets.models import Sheet, Workbook
from officegym.apps.sheets.refs import Area, col_letters
from officegym.errors import Invalid, NotFound

__all__ = ["REQUESTS", "batch_update"]

Handler = Callable[[Session, Person, Workbook, dict[str, Any]], dict[str, Any]]


def _sheet(s: Session, wb: Workbook, sheet_id: Any) -> Sheet:
    for sh in sheets.sheets_of(s, wb):
        if sh.id == sheet_id:
            return sh
    raise NotFound(f"No grid with id: {sheet_id}")


def _index(s: Session, wb: Workbook, sheet: Sheet) -> int:
    return [x.id for x in sheets.sheets_of(s, wb)].index(sheet.id)


def add_sheet(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    props = req.get("properties") or {}
    title = props.get("title") or f"Sheet{len(sheets.sheets_of(s, wb)) + 1}"
    sheet = sheets.add_sheet(s, me, wb, title, position=props.get("index"))
    return {"addSheet": sheet_resource(s, wb, sheet, _index(s, wb, sheet))}


def delete_sheet(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    sheets.delete_sheet(s, me, wb, _sheet(s, wb, req.get("sheetId")))
    return {}


def update_sheet_properties(
    s: Session, me: Person, wb: Workbook, req: dict[str, Any]
) -> dict[str, Any]:
    props = req.get("properties") or {}
    fields = {f.strip() for f in str(req.get("fields", "")).split(",") if f.strip()}
    if not fields:
        raise Invalid("updateSheetProperties needs 'fields', e.g. 'title'")
    sheet = _sheet(s, wb, props.get("sheetId"))
    for f in sorted(fields):
        if f == "title":
            sheets.rename_sheet(s, me, wb, sheet, str(props.get("title", "")))
        elif f == "gridProperties.frozenRowCount":
            rows = int((props.get("gridProperties") or {}).get("frozenRowCount", 0))
            sheets.freeze_rows(s, me, wb, sheet, rows)
        else:
            raise Invalid(
                f"updateSheetProperties supports title and gridProperties.frozenRowCount, not {f!r}"
            )
    return {}


def _grid_area(s: Session, wb: Workbook, grid: dict[str, Any]) -> tuple[Sheet, Area]:
    sheet = _sheet(s, wb, grid.get("sheetId"))
    data = sheets.book(s, wb.id).sheets[sheet.id]
    r1, c1 = int(grid.get("startRowIndex", 0)) + 1, int(grid.get("startColumnIndex", 0)) + 1
    r2 = int(grid.get("endRowIndex", max(data.max_row, 1)))
    c2 = int(grid.get("endColumnIndex", max(data.max_col, 1)))
    if r2 < r1 or c2 < c1:
        raise Invalid("the range is empty (end before start)")
    return sheet, Area(r1, c1, r2, c2, sheet.name)


def sort_range(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    sheet, area = _grid_area(s, wb, req.get("range") or {})
    specs = req.get("sortSpecs") or []
    keys = []
    for spec in specs:
        col = area.c1 + int(spec.get("dimensionIndex", 0))
        keys.append((col_letters(col), spec.get("sortOrder", "ASCENDING") == "DESCENDING"))
    sheets.sort_range(s, me, wb, area.label(), keys, sheet=sheet.name)
    return {}


def _dimension(s: Session, wb: Workbook, rng: dict[str, Any]) -> tuple[Sheet, str, int, int]:
    sheet = _sheet(s, wb, rng.get("sheetId"))
    dim = rng.get("dimension")
    if dim not in ("ROWS", "COLUMNS"):
        raise Invalid("dimension must be ROWS or COLUMNS")
    start, end = int(rng.get("startIndex", 0)), int(rng.get("endIndex", 0))
    if end <= start or start < 0:
        raise Invalid("endIndex must be greater than startIndex")
    return sheet, "row" if dim == "ROWS" else "col", start + 1, end - start


def insert_dimension(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    sheet, axis, start, count = _dimension(s, wb, req.get("range") or {})
    sheets.insert_dimension(s, me, wb, sheet=sheet.name, axis=axis, start=start, count=count)
    return {}


def delete_dimension(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    sheet, axis, start, count = _dimension(s, wb, req.get("range") or {})
    sheets.delete_dimension(s, me, wb, sheet=sheet.name, axis=axis, start=start, count=count)
    return {}


REQUESTS: dict[str, Handler] = {
    "addSheet": add_sheet,
    "deleteSheet": delete_sheet,
    "updateSheetProperties": update_sheet_properties,
    "sortRange": sort_range,
    "insertDimension": insert_dimension,
    "deleteDimension": delete_dimension,
}


def batch_update(s: Session, me: Person, wb: Workbook, body: dict[str, Any]) -> dict[str, Any]:
    """Apply every request in order inside one savepoint: one failing undoes them all."""
    requests = body.get("requests")
    if not isinstance(requests, list) or not requests:
        raise Invalid("requests must be a non-empty list")
    replies = []
    with s.begin_nested():
        for i, req in enumerate(requests):
            if not isinstance(req, dict) or len(req) != 1:
                raise Invalid(f"requests[{i}] must hold exactly one request kind")
            ((kind, params),) = req.items()
            handler = REQUESTS.get(kind)
            if handler is None:
                raise Invalid(
                    f"requests[{i}]: {kind!r} is not supported (supported: {', '.join(REQUESTS)})"
                )
            try:
                replies.append(handler(s, me, wb, params or {}))
            except Invalid as exc:
                raise Invalid(f"Invalid requests[{i}].{kind}: {exc.message}") from None
    return {"spreadsheetId": str(wb.id), "replies": replies}
