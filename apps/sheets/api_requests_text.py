"""batchUpdate kinds over a sheet's text and rows: trimWhitespace (Google's trimming of
every text cell of a range) and appendCells (RowData under the sheet's last row)."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.api_input import grid_area, integer, used
from officegym.apps.sheets.api_requests_cells import update_cells
from officegym.apps.sheets.models import Workbook
from officegym.apps.sheets.refs import a1
from officegym.errors import Invalid

__all__ = ["REQUESTS"]

_SPACE = re.compile(r"\s+")


def _trimmed(typed: str) -> str:
    """Text trimmed as Google trims it: no whitespace at either end, runs of it inside
    one space; text that would now read as a formula or a number stays text."""
    body = typed[1:] if typed.startswith("'") else typed
    out = _SPACE.sub(" ", body).strip()
    keep_text = typed.startswith("'") or out.startswith(("=", "+"))
    return ("'" + out if keep_text and out else out) if out != body else typed


def trim_whitespace(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    sheet, area = grid_area(s, wb, req.get("range"))
    area = used(s, wb, sheet, area)
    cells = sheets.book(s, wb.id).sheets[sheet.id].cells
    edits = {}
    for (r, c), st in cells.items():
        typed = st.input or ""
        if not area.contains(r, c) or typed.startswith("=") or not isinstance(st.value, str):
            continue
        new = _trimmed(typed)
        if new != typed:
            edits[a1(r, c)] = new
    if edits:
        sheets.write_cells(s, me, wb, edits, sheet=sheet.name)
    else:
        sheets.require_edit(s, me, wb)
    return {"trimWhitespace": {"cellsChangedCount": len(edits)}}


def append_cells(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    """The rows under the last row that holds anything, from column A."""
    sheet_id = integer(req, "sheetId")
    tab = next((t for t in sheets.sheets_of(s, wb) if t.id == sheet_id), None)
    if tab is None:
        raise Invalid(f"No grid with id: {sheet_id}")
    last = sheets.book(s, wb.id).sheets[tab.id].max_row
    start = {"sheetId": sheet_id, "rowIndex": last, "columnIndex": 0}
    return update_cells(
        s, me, wb, {"start": start, "rows": req.get("rows"), "fields": req.get("fields")}
    )


REQUESTS = {"trimWhitespace": trim_whitespace, "appendCells": append_cells}
