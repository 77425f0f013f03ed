"""Typed reading of the Google Sheets API's request objects: every field is checked for
its JSON type and range before a service sees it, so a mistyped or nested body is a
400 naming the field, never a crash. GridRange and DimensionRange become the clone's
sheets and areas here, once."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Sheet, Workbook
from officegym.apps.sheets.refs import MAX_COLS, MAX_ROWS, Area
from officegym.errors import Invalid

__all__ = ["boolean", "dimension", "grid_area", "integer", "obj", "objects", "sheet_of", "text"]


def obj(value: Any, where: str) -> dict[str, Any]:
    """A JSON object (None counts as an empty one)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Invalid(f"Invalid value at '{where}': an object is expected")
    return value


def objects(value: Any, where: str) -> list[dict[str, Any]]:
    """A list of JSON objects (None counts as empty)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise Invalid(f"Invalid value at '{where}': a list is expected")
    return [obj(x, f"{where}[{i}]") for i, x in enumerate(value)]


def integer(d: dict[str, Any], key: str, default: int | None = None, *, lo: int = 0) -> int:
    """An integer field (a numeric string too, as Google's JSON accepts int64 strings)."""
    v = d.get(key, default)
    if isinstance(v, str) and v.strip().lstrip("-").isdecimal() and len(v) < 19:
        v = int(v)
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool):
        raise Invalid(f"Invalid value at '{key}' ({v!r}): an integer is expected")
    if not lo <= v <= 2**31:
        raise Invalid(f"Invalid value at '{key}' ({v}): out of range")
    return v


def text(d: dict[str, Any], key: str, default: str | None = None) -> str:
    v = d.get(key, default)
    if not isinstance(v, str):
        raise Invalid(f"Invalid value at '{key}': a string is expected")
    return v


def boolean(d: dict[str, Any], key: str, default: bool = False) -> bool:
    v = d.get(key, default)
    if not isinstance(v, bool):
        raise Invalid(f"Invalid value at '{key}': true or false is expected")
    return v


def sheet_of(s: Session, wb: Workbook, sheet_id: Any) -> Sheet:
    """The sheet of a sheetId (0 or missing: the first sheet, as Google's default
    sheet has id 0)."""
    tabs = sheets.sheets_of(s, wb)
    for sh in tabs:
        if sh.id == sheet_id:
            return sh
    if sheet_id in (None, 0) and tabs:
        return tabs[0]
    raise Invalid(f"No grid with id: {sheet_id!r}")


def grid_area(s: Session, wb: Workbook, grid: Any, where: str = "range") -> tuple[Sheet, Area]:
    """A GridRange (0-based, end-exclusive; a missing end runs to the grid's edge) as
    a sheet and an area."""
    grid = obj(grid, where)
    sheet = sheet_of(s, wb, grid.get("sheetId"))
    r1 = integer(grid, "startRowIndex", 0) + 1
    c1 = integer(grid, "startColumnIndex", 0) + 1
    r2 = integer(grid, "endRowIndex", MAX_ROWS)
    c2 = integer(grid, "endColumnIndex", MAX_COLS)
    if r2 < r1 or c2 < c1 or r2 > MAX_ROWS or c2 > MAX_COLS:
        raise Invalid(f"Invalid {where}: empty or beyond the grid")
    return sheet, Area(r1, c1, r2, c2, sheet.name)


def used(s: Session, wb: Workbook, sheet: Sheet, area: Area) -> Area:
    """The area cut to the sheet's used rows and columns (at least one cell)."""
    data = sheets.book(s, wb.id).sheets[sheet.id]
    r2 = min(area.r2, max(data.max_row, area.r1))
    c2 = min(area.c2, max(data.max_col, area.c1))
    return Area(area.r1, area.c1, r2, c2, sheet.name)


def dimension(s: Session, wb: Workbook, rng: Any) -> tuple[Sheet, str, int, int]:
    """A DimensionRange as (sheet, ``row``/``col``, first line 1-based, count)."""
    rng = obj(rng, "range")
    sheet = sheet_of(s, wb, rng.get("sheetId"))
    dim = rng.get("dimension")
    if dim not in ("ROWS", "COLUMNS"):
        raise Invalid("Invalid range.dimension: ROWS or COLUMNS")
    start, end = integer(rng, "startIndex", 0), integer(rng, "endIndex", 0)
    if end <= start:
        raise Invalid("Invalid range: endIndex must be greater than startIndex")
    return sheet, "row" if dim == "ROWS" else "col", start + 1, end - start
