"""spreadsheets.batchUpdate: Google Sheets API requests mapped onto the sheets service
(the same operations the tools use), applied in order, all or nothing. Sheets and
their properties (title, index, frozen rows), the spreadsheet's title, rows and columns,
sorting, named ranges and merges are here; cell contents in `api_requests_cells`. Kinds
the clone has no model for (hidden sheets, column widths, text formats, basic filters,
conditional formats, ...) answer a clear 400."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import api_requests_cells as cells_kinds
from officegym.apps.sheets import api_requests_text as text_kinds
from officegym.apps.sheets import budget
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.api_fields import field_paths
from officegym.apps.sheets.api_input import (
    dimension,
    grid_area,
    integer,
    obj,
    objects,
    sheet_of,
    text,
    used,
)
from officegym.apps.sheets.api_kinds import GOOGLE_KINDS
from officegym.apps.sheets.api_sheets import grid_range, sheet_resource
from officegym.apps.sheets.models import NamedRange, Sheet, Workbook
from officegym.apps.sheets.refs import Area, col_letters
from officegym.errors import Invalid

__all__ = ["REQUESTS", "UNSUPPORTED", "batch_update"]

Handler = Callable[[Session, Person, Workbook, dict[str, Any]], dict[str, Any]]


def _index(s: Session, wb: Workbook, sheet: Sheet) -> int:
    return [x.id for x in sheets.sheets_of(s, wb)].index(sheet.id)


def add_sheet(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    props = obj(req.get("properties"), "properties")
    title = text(props, "title", f"Sheet{len(sheets.sheets_of(s, wb)) + 1}")
    index = integer(props, "index") if props.get("index") is not None else None
    sheet = sheets.add_sheet(s, me, wb, title, position=index)
    return {"addSheet": sheet_resource(s, wb, sheet, _index(s, wb, sheet))}


def delete_sheet(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    sheet = sheet_of(s, wb, integer(req, "sheetId"))
    sheets.delete_sheet(s, me, wb, sheet)
    return {}


def duplicate_sheet(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    """A copy of a sheet's cells (inputs and formats) under a new name."""
    source = sheet_of(s, wb, integer(req, "sourceSheetId"))
    name = text(req, "newSheetName", f"Copy of {source.name}")
    index = integer(req, "insertSheetIndex") if req.get("insertSheetIndex") is not None else None
    copy = sheets.add_sheet(s, me, wb, name, position=index)
    data = sheets.book(s, wb.id).sheets[source.id]
    if data.cells:
        whole = Area(1, 1, max(data.max_row, 1), max(data.max_col, 1), source.name)
        sheets.copy_range(s, me, wb, whole.label(), Area(1, 1, 1, 1, copy.name).label())
    return {"duplicateSheet": sheet_resource(s, wb, copy, _index(s, wb, copy))}


def _properties(req: dict[str, Any], kind: str) -> tuple[dict[str, Any], set[str]]:
    """An update request's properties and its field mask, which must name something."""
    props = obj(req.get("properties"), "properties")
    fields = field_paths(req.get("fields"))
    if not fields:
        raise Invalid(f"{kind} needs 'fields', e.g. 'title'")
    return props, fields


def update_sheet_properties(
    s: Session, me: Person, wb: Workbook, req: dict[str, Any]
) -> dict[str, Any]:
    """title, gridProperties.frozenRowCount / frozenColumnCount and index (``/`` or
    ``.`` in the mask)."""
    props, fields = _properties(req, "updateSheetProperties")
    sheet = sheet_of(s, wb, props.get("sheetId"))
    if "*" in fields:
        fields = {"title"} | ({"index"} if "index" in props else set())
    for f in sorted(fields):
        if f == "title":
            sheets.rename_sheet(s, me, wb, sheet, text(props, "title"))
        elif f in ("gridProperties.frozenRowCount", "gridProperties"):
            grid = obj(props.get("gridProperties"), "gridProperties")
            sheets.freeze_rows(s, me, wb, sheet, integer(grid, "frozenRowCount", 0))
            if f == "gridProperties":
                sheets.freeze_cols(s, me, wb, sheet, integer(grid, "frozenColumnCount", 0))
        elif f == "gridProperties.frozenColumnCount":
            grid = obj(props.get("gridProperties"), "gridProperties")
            sheets.freeze_cols(s, me, wb, sheet, integer(grid, "frozenColumnCount", 0))
        elif f == "index":
            _move_sheet(s, me, wb, sheet, integer(props, "index"))
        elif f not in ("gridProperties.rowCount", "gridProperties.columnCount", "sheetId"):
            raise Invalid(
                f"updateSheetProperties supports title, index, gridProperties.frozenRowCount "
                f"and gridProperties.frozenColumnCount, not {f!r}"
            )
    return {}


def _move_sheet(s: Session, me: Person, wb: Workbook, sheet: Sheet, index: int) -> None:
    """Move a tab. Google counts `index` before the move: moving the first of three
    sheets behind the second takes index 2."""
    if index < 0:
        raise Invalid("Invalid index: it must be 0 or more")
    now = _index(s, wb, sheet)
    sheets.move_sheet(s, me, wb, sheet, index if index <= now else index - 1)


_MERGE_TYPES = {"MERGE_ALL": "all", "MERGE_COLUMNS": "columns", "MERGE_ROWS": "rows"}


def merge_cells(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    """Merge a range into one cell, or each of its columns or rows."""
    _, area = grid_area(s, wb, req.get("range"))
    how = _MERGE_TYPES.get(req.get("mergeType", "MERGE_ALL"))
    if how is None:
        raise Invalid("Invalid mergeType: MERGE_ALL, MERGE_COLUMNS or MERGE_ROWS")
    sheets.merge_cells(s, me, wb, area.label(), how=how)  # type: ignore[arg-type]
    return {}


def unmerge_cells(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    _, area = grid_area(s, wb, req.get("range"))
    sheets.unmerge_cells(s, me, wb, area.label())
    return {}


def update_spreadsheet_properties(
    s: Session, me: Person, wb: Workbook, req: dict[str, Any]
) -> dict[str, Any]:
    props, fields = _properties(req, "updateSpreadsheetProperties")
    for f in fields:
        if f in ("title", "*"):
            sheets.rename_workbook(s, me, wb, text(props, "title"))
        elif f not in ("locale", "timeZone", "autoRecalc"):
            raise Invalid(f"updateSpreadsheetProperties supports title, not {f!r}")
    return {}


def sort_range(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    """Sort the rows of a range; a spec's dimensionIndex counts from column A."""
    sheet, area = grid_area(s, wb, req.get("range"))
    area = used(s, wb, sheet, area)
    keys = []
    for spec in objects(req.get("sortSpecs"), "sortSpecs"):
        col = integer(spec, "dimensionIndex", 0) + 1
        if not area.c1 <= col <= area.c2:
            raise Invalid(f"Invalid sortSpecs: column {col_letters(col)} is outside the range")
        order = spec.get("sortOrder", "ASCENDING")
        if order not in ("ASCENDING", "DESCENDING"):
            raise Invalid("Invalid sortOrder: ASCENDING or DESCENDING")
        keys.append((col_letters(col), order == "DESCENDING"))
    sheets.sort_range(s, me, wb, area.label(), keys or [(col_letters(area.c1), False)])
    return {}


def change_dimension(op: Literal["insert", "delete"]) -> Handler:
    """The insertDimension or deleteDimension request."""

    def handle(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
        sheet, axis, start, count = dimension(s, wb, req.get("range"))
        sheets.change_dimension(
            s, me, wb, op, sheet=sheet.name, axis=axis, start=start, count=count
        )
        return {}

    return handle


def add_named_range(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    named = obj(req.get("namedRange"), "namedRange")
    sheet, area = grid_area(s, wb, named.get("range"), "namedRange.range")
    row = sheets.define_name(s, me, wb, text(named, "name"), area.label())
    made = {"namedRangeId": str(row.id), "name": row.name, "range": grid_range(sheet, area)}
    return {"addNamedRange": {"namedRange": made}}


def delete_named_range(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    wanted = text(req, "namedRangeId")
    found = s.scalars(select(NamedRange).where(NamedRange.workbook_id == wb.id)).all()
    row = next((n for n in found if str(n.id) == wanted), None)
    if row is None:
        raise Invalid(f"No named range with id: {wanted}")
    sheets.delete_name(s, me, wb, row.name)
    return {}


REQUESTS: dict[str, Handler] = {
    "addSheet": add_sheet,
    "deleteSheet": delete_sheet,
    "duplicateSheet": duplicate_sheet,
    "updateSheetProperties": update_sheet_properties,
    "updateSpreadsheetProperties": update_spreadsheet_properties,
    "sortRange": sort_range,
    "insertDimension": change_dimension("insert"),
    "deleteDimension": change_dimension("delete"),
    "addNamedRange": add_named_range,
    "deleteNamedRange": delete_named_range,
    "mergeCells": merge_cells,
    "unmergeCells": unmerge_cells,
    **cells_kinds.REQUESTS,
    **text_kinds.REQUESTS,
}
# Google's other kinds: a 400 that says so (a misspelt kind is Google's "Unknown name").
UNSUPPORTED = tuple(k for k in GOOGLE_KINDS if k not in REQUESTS)


# Each request kind's fields, as Google's Request objects define them: a misspelt
# field is Google's 400, never silently dropped.
FIELDS: dict[str, frozenset[str]] = {
    kind: frozenset(names.split())
    for kind, names in {
        "addSheet": "properties",
        "deleteSheet": "sheetId",
        "duplicateSheet": "sourceSheetId insertSheetIndex newSheetId newSheetName",
        "updateSheetProperties": "properties fields",
        "updateSpreadsheetProperties": "properties fields",
        "sortRange": "range sortSpecs",
        "insertDimension": "range inheritFromBefore",
        "deleteDimension": "range",
        "addNamedRange": "namedRange",
        "deleteNamedRange": "namedRangeId",
        "mergeCells": "range mergeType",
        "unmergeCells": "range",
        "repeatCell": "range cell fields",
        "updateCells": "rows fields start range",
        "autoFill": "range sourceAndDestination useAlternateSeries",
        "copyPaste": "source destination pasteType pasteOrientation",
        "cutPaste": "source destination pasteType",
        "findReplace": "find replacement matchCase matchEntireCell searchByRegex "
        "includeFormulas range sheetId allSheets",
        "deleteDuplicates": "range comparisonColumns",
        "trimWhitespace": "range",
        "appendCells": "sheetId rows fields tableId",
    }.items()
}


def _params(i: int, kind: str, params: Any) -> dict[str, Any]:
    params = obj(params, f"requests[{i}].{kind}")
    unknown = sorted(set(params) - FIELDS.get(kind, frozenset(params)))
    if unknown:
        raise Invalid(
            f'Invalid JSON payload received. Unknown name "{unknown[0]}" at '
            f"'requests[{i}].{kind}': Cannot find field."
        )
    return params


def _handler(i: int, kind: str) -> Handler:
    handler = REQUESTS.get(kind)
    if handler is not None:
        return handler
    if kind in UNSUPPORTED:
        raise Invalid(
            f"Invalid requests[{i}].{kind}: a valid request, not supported by this clone (it "
            f"has no model for it); supported: {', '.join(REQUESTS)}"
        )
    raise Invalid(
        f"Invalid JSON payload received. Unknown name \"{kind}\" at 'requests[{i}]': "
        "Cannot find field."
    )


def batch_update(s: Session, me: Person, wb: Workbook, body: dict[str, Any]) -> dict[str, Any]:
    """Apply every request in order inside one savepoint: one failing undoes them all."""
    requests = body.get("requests")
    if not isinstance(requests, list) or not requests:
        raise Invalid("Invalid requests: a non-empty list of Request objects")
    replies = []
    with s.begin_nested(), budget.call(len(requests)) as check:
        for i, req in enumerate(requests):
            check(i)
            if not isinstance(req, dict) or len(req) != 1:
                raise Invalid(f"Invalid requests[{i}]: exactly one request kind per Request")
            ((kind, params),) = req.items()
            handler = _handler(i, kind)
            checked = _params(i, kind, params)
            try:
                replies.append(handler(s, me, wb, checked))
            except Invalid as exc:
                raise Invalid(f"Invalid requests[{i}].{kind}: {exc.message}") from None
    return {"spreadsheetId": str(wb.id), "replies": replies}
