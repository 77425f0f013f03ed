"""batchUpdate requests on cell contents, mapped onto the sheets service: repeatCell
and updateCells (values, formulas and number formats), autoFill, copyPaste, cutPaste,
findReplace and deleteDuplicates."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import regex
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.api_fields import field_paths
from officegym.apps.sheets.api_input import (
    boolean,
    grid_area,
    integer,
    obj,
    objects,
    sheet_of,
    used,
)
from officegym.apps.sheets.api_input import text as text_field
from officegym.apps.sheets.api_pivots import create_from_api
from officegym.apps.sheets.formats import PRESETS
from officegym.apps.sheets.models import Sheet, Workbook
from officegym.apps.sheets.refs import MAX_COLS, MAX_ROWS, Area, a1, col_letters, parse_area
from officegym.errors import Invalid

__all__ = ["REQUESTS"]

Handler = Callable[[Session, Person, Workbook, dict[str, Any]], dict[str, Any]]
_TYPES = {
    "NUMBER": PRESETS["number"],
    "CURRENCY": PRESETS["currency"],
    "PERCENT": PRESETS["percent_decimal"],
    "DATE": PRESETS["date"],
    "DATE_TIME": "yyyy-mm-dd hh:mm:ss",
    "TIME": "hh:mm:ss",
    "TEXT": "@",
    "SCIENTIFIC": "0.00E+00",
}
FIND_SECONDS = 1.0  # one findReplace's budget over all the cells it searches
_CELL_FIELDS = (
    "userEnteredValue",
    "userEnteredFormat.numberFormat",
    "userEnteredFormat",
    "pivotTable",
)


def _pattern(fmt: Any) -> str:
    """A NumberFormat's pattern (or its type's default pattern)."""
    fmt = obj(fmt, "numberFormat")
    pattern = fmt.get("pattern")
    if isinstance(pattern, str) and pattern:
        return pattern
    kind = fmt.get("type", "NUMBER")
    if kind not in _TYPES:
        raise Invalid(f"Invalid numberFormat.type: {kind!r}")
    return _TYPES[kind]


def _entered(value: Any) -> Any:
    """An ExtendedValue as the input typed into a cell."""
    value = obj(value, "userEnteredValue")
    if not value:
        return ""
    if len(value) != 1:
        raise Invalid("Invalid userEnteredValue: exactly one kind of value")
    ((kind, v),) = value.items()
    if kind == "numberValue" and isinstance(v, int | float) and not isinstance(v, bool):
        return v
    if kind == "boolValue" and isinstance(v, bool):
        return v
    if kind == "stringValue" and isinstance(v, str):
        return "'" + v if v else ""
    if kind == "formulaValue" and isinstance(v, str) and v.startswith("="):
        return v
    raise Invalid(f"Invalid userEnteredValue: {kind!r} of that type is not a cell value")


def _cell_fields(req: dict[str, Any]) -> set[str]:
    fields = field_paths(req.get("fields"))
    if not fields:
        raise Invalid("'fields' is required, e.g. 'userEnteredFormat.numberFormat'")
    if "*" in fields:
        return {"userEnteredValue", "userEnteredFormat.numberFormat"}
    for f in fields:
        if f not in _CELL_FIELDS:
            raise Invalid(
                f"only userEnteredValue, userEnteredFormat.numberFormat and pivotTable are "
                "supported "
                f"(the clone has no model for {f!r})"
            )
    return fields


def _apply(
    s: Session, me: Person, wb: Workbook, sheet: Sheet, cells: dict[str, Any], fields: set[str]
) -> None:
    """Write CellData objects keyed by A1 address: values, then number formats."""
    values, formats = {}, {}
    for ref, data in cells.items():
        data = obj(data, "cell")
        if "userEnteredValue" in fields:
            values[ref] = _entered(data.get("userEnteredValue"))
        if fields & {"userEnteredFormat", "userEnteredFormat.numberFormat"}:
            fmt = obj(data.get("userEnteredFormat"), "userEnteredFormat")
            if set(fmt) - {"numberFormat"}:
                raise Invalid("only userEnteredFormat.numberFormat is supported by this clone")
            formats[ref] = _pattern(fmt["numberFormat"]) if "numberFormat" in fmt else "general"
    if values:
        sheets.write_cells(s, me, wb, values, sheet=sheet.name)
    for ref, pattern in formats.items():
        sheets.set_number_format(s, me, wb, ref, pattern, sheet=sheet.name)


def repeat_cell(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    """One CellData over a range: a number format (or a value) for every cell."""
    sheet, area = grid_area(s, wb, req.get("range"))
    fields = _cell_fields(req)
    cell = obj(req.get("cell"), "cell")
    if "userEnteredValue" in fields:
        area = Area(area.r1, area.c1, min(area.r2, area.r1 + 999), min(area.c2, area.c1 + 99))
        cells = {
            a1(r, c): cell for r in range(area.r1, area.r2 + 1) for c in range(area.c1, area.c2 + 1)
        }
        _apply(s, me, wb, sheet, cells, {"userEnteredValue"})
    if fields - {"userEnteredValue"}:
        fmt = obj(cell.get("userEnteredFormat"), "userEnteredFormat")
        if set(fmt) - {"numberFormat"}:
            raise Invalid("only userEnteredFormat.numberFormat is supported by this clone")
        pattern = _pattern(fmt["numberFormat"]) if "numberFormat" in fmt else "general"
        sheets.set_number_format(s, me, wb, used(s, wb, sheet, area).label(), pattern)
    return {}


def update_cells(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    """RowData from a start cell (or a range's top-left): values, formulas, formats."""
    fields = _cell_fields(req)
    if req.get("start") is not None:
        start = obj(req.get("start"), "start")
        sheet = sheet_of(s, wb, start.get("sheetId"))
        r0, c0 = integer(start, "rowIndex", 0) + 1, integer(start, "columnIndex", 0) + 1
    else:
        sheet, area = grid_area(s, wb, req.get("range"))
        r0, c0 = area.r1, area.c1
    rows = objects(req.get("rows"), "rows")
    cells = {
        a1(r0 + i, c0 + j): data
        for i, row in enumerate(rows)
        for j, data in enumerate(objects(row.get("values"), f"rows[{i}].values"))
    }
    if len(cells) > sheets.MAX_WRITE:
        raise Invalid(f"at most {sheets.MAX_WRITE} cells per request")
    pivots = {ref: obj(d, "cell").get("pivotTable") for ref, d in cells.items()}
    for ref, pivot in pivots.items():
        if pivot is not None:
            at = parse_area(ref)
            create_from_api(s, me, wb, pivot, Area(at.r1, at.c1, at.r1, at.c1, sheet.name))
    plain = {ref: d for ref, d in cells.items() if pivots[ref] is None}
    _apply(s, me, wb, sheet, plain, fields - {"pivotTable"})
    return {}


def auto_fill(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    """Fill a range from its first row (or a source's row or column over fillLength)."""
    if req.get("range") is not None:
        sheet, area = grid_area(s, wb, req.get("range"))
        sheets.fill_range(s, me, wb, area.label(), direction="down")
        return {}
    both = obj(req.get("sourceAndDestination"), "sourceAndDestination")
    sheet, src = grid_area(s, wb, both.get("source"), "source")
    length = integer(both, "fillLength", 0)
    if both.get("dimension") == "COLUMNS":
        if src.cols != 1:
            raise Invalid("series fills (a source of several columns) are not supported")
        area = Area(src.r1, src.c1, src.r2, src.c2 + length, sheet.name)
        sheets.fill_range(s, me, wb, area.label(), direction="right")
    else:
        if src.rows != 1:
            raise Invalid("series fills (a source of several rows) are not supported")
        area = Area(src.r1, src.c1, src.r2 + length, src.c2, sheet.name)
        sheets.fill_range(s, me, wb, area.label(), direction="down")
    return {}


def _paste_type(req: dict[str, Any]) -> None:
    if req.get("pasteType", "PASTE_NORMAL") != "PASTE_NORMAL":
        raise Invalid("only pasteType PASTE_NORMAL is supported by this clone")
    if req.get("pasteOrientation", "NORMAL") != "NORMAL":
        raise Invalid("only pasteOrientation NORMAL is supported (no TRANSPOSE)")


def copy_paste(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    _paste_type(req)
    src_sheet, src = grid_area(s, wb, req.get("source"), "source")
    dst_sheet, dst = grid_area(s, wb, req.get("destination"), "destination")
    src = used(s, wb, src_sheet, src)
    tiles = (
        _repeats(src.rows, dst.rows, dst.r2 == MAX_ROWS),
        _repeats(src.cols, dst.cols, dst.c2 == MAX_COLS),
    )
    corner = Area(dst.r1, dst.c1, dst.r1, dst.c1, dst_sheet.name).label()
    sheets.copy_range(s, me, wb, src.label(), corner, tiles=tiles)
    return {}


def _repeats(size: int, span: int, open_ended: bool) -> int:
    """How many times Google repeats a source of `size` lines over a destination of
    `span` lines: a whole multiple repeats it, anything else pastes it once."""
    if open_ended or span <= size or span % size:
        return 1
    return span // size


def cut_paste(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    """Move the source to the destination: references to the moved cells follow them,
    as Sheets moves them (`cut.move_range`)."""
    _paste_type(req)
    src_sheet, src = grid_area(s, wb, req.get("source"), "source")
    dest = obj(req.get("destination"), "destination")
    dst_sheet = sheet_of(s, wb, dest.get("sheetId"))
    r0, c0 = integer(dest, "rowIndex", 0) + 1, integer(dest, "columnIndex", 0) + 1
    src = used(s, wb, src_sheet, src)
    sheets.move_range(s, me, wb, src.label(), Area(r0, c0, r0, c0, dst_sheet.name).label())
    return {}


def delete_duplicates(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    sheet, area = grid_area(s, wb, req.get("range"))
    area = used(s, wb, sheet, area)
    cols = []
    for d in objects(req.get("comparisonColumns"), "comparisonColumns"):
        first, last = integer(d, "startIndex", 0) + 1, integer(d, "endIndex", 0)
        cols += [col_letters(c) for c in range(first, last + 1)]
    removed = sheets.remove_duplicates(s, me, wb, area.label(), columns=cols)
    return {"deleteDuplicates": {"duplicatesRemovedCount": removed}}


def _matcher(req: dict[str, Any]) -> regex.Pattern[str]:
    find = text_field(req, "find")
    if not find or len(find) > 500:
        raise Invalid("Invalid find: 1 to 500 characters")
    flags = 0 if boolean(req, "matchCase") else regex.IGNORECASE
    body = find if boolean(req, "searchByRegex") else regex.escape(find)
    if boolean(req, "matchEntireCell"):
        body = f"^(?:{body})$"
    try:
        return regex.compile(body, flags)
    except regex.error as exc:
        raise Invalid(f"Invalid find regular expression: {exc}") from None


_GROUP = regex.compile(r"\$(\d+)")


def _replacement(req: dict[str, Any], pattern: regex.Pattern[str]) -> Callable[[Any], str]:
    """The replacement of each match: the text as given, or, with searchByRegex, with
    ``$1``... standing for the match's groups (``$0`` the whole match), as Google does."""
    new = text_field(req, "replacement", "")
    if not boolean(req, "searchByRegex"):
        return lambda _m: new
    for found in _GROUP.finditer(new):
        if int(found.group(1)) > pattern.groups:
            raise Invalid(
                f"Invalid replacement: {found.group(0)} names a group the expression "
                f"does not have (it has {pattern.groups})"
            )
    return lambda m: _GROUP.sub(lambda g: m.group(int(g.group(1))) or "", new)


def _replaced(pattern: regex.Pattern[str], new: Any, typed: str, deadline: float) -> tuple:
    """`typed` with every match replaced, within the request's time budget. Text typed
    with a leading apostrophe (as RAW input is kept) is matched as the text the cell
    shows, without it, and keeps it."""
    quote = "'" if typed.startswith("'") else ""
    shown = typed[len(quote) :]
    try:
        changed, n = pattern.subn(new, shown, timeout=max(0.001, deadline - time.monotonic()))
        return quote + changed, n
    except TimeoutError:
        raise Invalid(
            f"findReplace: the expression took longer than {FIND_SECONDS} s; simplify it"
        ) from None


def _targets(s: Session, wb: Workbook, req: dict[str, Any]) -> list[tuple[Sheet, Area | None]]:
    if req.get("range") is not None:
        return [grid_area(s, wb, req.get("range"))]
    if req.get("sheetId") is not None:
        return [(sheet_of(s, wb, integer(req, "sheetId")), None)]
    if not boolean(req, "allSheets"):
        raise Invalid("findReplace needs a range, a sheetId or allSheets")
    return [(x, None) for x in sheets.sheets_of(s, wb)]


def find_replace(s: Session, me: Person, wb: Workbook, req: dict[str, Any]) -> dict[str, Any]:
    """Replace text in cell inputs (formulas only with includeFormulas)."""
    pattern = _matcher(req)
    literal = _replacement(req, pattern)
    formulas = boolean(req, "includeFormulas")
    deadline = time.monotonic() + FIND_SECONDS
    counts = {"valuesChanged": 0, "formulasChanged": 0, "occurrencesChanged": 0}
    rows, touched = set(), set()
    for sheet, area in _targets(s, wb, req):
        cells = sheets.book(s, wb.id).sheets[sheet.id].cells
        edits = {}
        for (r, c), st in sorted(cells.items()):
            typed = st.input or ""
            is_formula = typed.startswith("=")
            if not typed or (area and not area.contains(r, c)) or (is_formula and not formulas):
                continue
            changed, n = _replaced(pattern, literal, typed, deadline)
            if n and changed != typed:
                edits[a1(r, c)] = changed
                counts["formulasChanged" if is_formula else "valuesChanged"] += 1
                counts["occurrencesChanged"] += n
                rows.add((sheet.id, r))
        if edits:
            sheets.write_cells(s, me, wb, edits, sheet=sheet.name)
            touched.add(sheet.id)
    return {"findReplace": {**counts, "rowsChanged": len(rows), "sheetsChanged": len(touched)}}


REQUESTS: dict[str, Handler] = {
    "repeatCell": repeat_cell,
    "updateCells": update_cells,
    "autoFill": auto_fill,
    "copyPaste": copy_paste,
    "cutPaste": cut_paste,
    "findReplace": find_replace,
    "deleteDuplicates": delete_duplicates,
}
