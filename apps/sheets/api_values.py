"""The Google Sheets API's values, built from the sheets service: A1 ranges as the API
takes them (open-ended ``Orders!A2:C``, ``A:A``, ``2:2``, a sheet's name alone, a named
range), value ranges in every render option, and the inputs of `valueInputOption` RAW
and USER_ENTERED."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.formats import format_value, is_date_format
from officegym.apps.sheets.models import Sheet, Workbook
from officegym.apps.sheets.refs import MAX_COLS, MAX_ROWS, Area, col_index, quote_sheet, split_sheet
from officegym.apps.sheets.values import XlError
from officegym.errors import Forbidden, Invalid, NotFound

__all__ = [
    "GRID_COLS",
    "GRID_ROWS",
    "api_range",
    "cell_input",
    "grid_size",
    "label",
    "render",
    "value_range",
]

GRID_ROWS, GRID_COLS = 1000, 26  # a new Google sheet's grid; larger when the data is
RENDER = ("FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA")
DATE_RENDER = ("SERIAL_NUMBER", "FORMATTED_STRING")
MAX_VALUES = 250_000  # cells in one value range (Google answers up to about 10 MB)
_END = re.compile(r"^\$?([A-Za-z]{0,3})\$?(\d{0,7})$")


def _unparsable(text: str) -> Invalid:
    return Invalid(f"Unable to parse range: {text}", code="bad_range")


def _corner(text: str) -> tuple[int | None, int | None] | None:
    """(row, col) of one end of an A1 range; either may be missing (``A``, ``2``)."""
    m = _END.match(text)
    if m is None or not (m.group(1) or m.group(2)) or m.group(2).startswith("0"):
        return None  # row 0 (``A0``, ``A1:A0``) is no row: Google's 400
    col = col_index(m.group(1)) if m.group(1) else None
    row = int(m.group(2)) if m.group(2) else None
    return row, col


def _area(body: str) -> Area | None:
    """An A1 range, open ends reaching the grid's edge: ``A2:C`` is A2 to the last row
    of C, ``A:A`` a column, ``2:2`` a row, ``B3`` one cell."""
    left, colon, right = body.partition(":")
    a = _corner(left)
    if a is None or (not colon and (a[0] is None or a[1] is None)):
        return None
    b = _corner(right) if colon else a
    if b is None:
        return None
    r1, c1 = a[0] or 1, a[1] or 1
    r2, c2 = b[0] or MAX_ROWS, b[1] or MAX_COLS
    r1, r2, c1, c2 = min(r1, r2), max(r1, r2), min(c1, c2), max(c1, c2)
    if r1 < 1 or c1 < 1 or r2 > MAX_ROWS or c2 > MAX_COLS:
        return None
    return Area(r1, c1, r2, c2)


def _sheet_of(s: Session, wb: Workbook, name: str) -> Sheet | None:
    return next((x for x in sheets.sheets_of(s, wb) if x.name.lower() == name.lower()), None)


def api_range(s: Session, wb: Workbook, text: Any) -> tuple[Sheet, Area]:
    """The sheet and area of an API range: ``Sheet1!A1:B2``, ``Orders!A2:C``, ``A1:B2``
    (first sheet), a sheet's name alone (the whole sheet) or a named range; Google's
    400 "Unable to parse range" for anything else (an unknown sheet included)."""
    if not isinstance(text, str) or not text.strip() or len(text) > 300:
        raise _unparsable(str(text)[:300])
    raw = text.strip()
    name, body = split_sheet(raw)
    if name is None:
        bare = raw[1:-1].replace("''", "'") if raw[:1] == raw[-1:] == "'" else raw
        whole = _sheet_of(s, wb, bare)
        if whole is not None:
            return whole, Area(1, 1, MAX_ROWS, MAX_COLS, whole.name)
        area = _area(raw)
        if area is None:
            return _named(s, wb, raw)
        sheet = sheets.sheets_of(s, wb)[0]
    else:
        found = _sheet_of(s, wb, name)
        if found is None:
            raise _unparsable(raw)
        area = _area(body)
        if area is None:  # a named range after a sheet name, as gspread sends it
            return _named(s, wb, body)
        sheet = found
    return sheet, Area(area.r1, area.c1, area.r2, area.c2, sheet.name)


def _named(s: Session, wb: Workbook, raw: str) -> tuple[Sheet, Area]:
    try:
        return sheets.locate(s, wb, raw)
    except (Invalid, NotFound):
        raise _unparsable(raw) from None


def grid_size(s: Session, wb: Workbook, sheet: Sheet) -> tuple[int, int]:
    data = sheets.book(s, wb.id).sheets[sheet.id]
    return max(GRID_ROWS, data.max_row), max(GRID_COLS, data.max_col)


def label(sheet: Sheet, area: Area) -> str:
    return f"{quote_sheet(sheet.name)}!{area.a1()}"


def render(state: Any, option: str, dates: str = "SERIAL_NUMBER") -> Any:
    """One cell as `valueRenderOption` and `dateTimeRenderOption` show it."""
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
    if isinstance(v, bool | str):
        return v
    if dates == "FORMATTED_STRING" and is_date_format(state.fmt):
        return format_value(v, state.fmt)
    return int(v) if isinstance(v, float) and v.is_integer() and abs(v) < 2**53 else v


def check_options(option: str, major: str, dates: str) -> None:
    if option not in RENDER:
        raise Invalid(f"Invalid valueRenderOption: {option!r} (one of {', '.join(RENDER)})")
    if major not in ("ROWS", "COLUMNS"):
        raise Invalid(f"Invalid majorDimension: {major!r} (ROWS or COLUMNS)")
    if dates not in DATE_RENDER:
        raise Invalid(f"Invalid dateTimeRenderOption: {dates!r} (one of {', '.join(DATE_RENDER)})")


def value_range(
    s: Session,
    actor: Person,
    wb: Workbook,
    text: Any,
    option: str,
    major: str,
    dates: str = "SERIAL_NUMBER",
) -> dict[str, Any]:
    """A ValueRange: the requested range (clipped to the grid) and its values, trailing
    blanks trimmed."""
    check_options(option, major, dates)
    sheet, area = api_range(s, wb, text)
    if sheets.role_of(s, actor, wb) is None:
        raise Forbidden("you cannot open this spreadsheet", code="no_access")
    rows_max, cols_max = grid_size(s, wb, sheet)
    shown = Area(area.r1, area.c1, min(area.r2, rows_max), min(area.c2, cols_max), sheet.name)
    data = sheets.book(s, wb.id).sheets[sheet.id]
    r2, c2 = min(shown.r2, data.max_row), min(shown.c2, data.max_col)
    if (r2 - shown.r1 + 1) * (c2 - shown.c1 + 1) > MAX_VALUES:
        raise Invalid(
            f"{label(sheet, shown)} holds more than {MAX_VALUES} cells; read it in smaller ranges"
        )
    cells = data.cells
    rows = [
        [render(cells.get((r, c)), option, dates) for c in range(shown.c1, c2 + 1)]
        for r in range(shown.r1, r2 + 1)
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
    """What one posted value types: USER_ENTERED reads it as typed (``1,234.50``, ``12%``,
    a date, a formula); RAW keeps text as text. None stays None: the cell is left as it
    is, as Google does (an empty string clears it)."""
    if option not in ("RAW", "USER_ENTERED"):
        raise Invalid("Invalid valueInputOption: it is required, RAW or USER_ENTERED")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        if value != value or value in (float("inf"), float("-inf")) or abs(value) > 1e308:
            raise Invalid("Invalid values: numbers must be finite")
        return value
    if not isinstance(value, str):
        raise Invalid("Invalid values: a cell takes a string, a number, a boolean or null")
    if option == "RAW" and value:
        return "'" + value
    return value
