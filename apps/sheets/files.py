"""Workbooks in and out as files: xlsx through openpyxl (values, formulas, number
formats, sheets, named ranges, frozen rows) and CSV (one sheet). A file exported and
imported again gives the same workbook.

A file that is not what it claims (binary junk, a truncated zip, a sheet too large)
is refused with `Invalid` naming the file and the reason, and nothing is created.
"""

from __future__ import annotations

import contextlib
import csv
import io
import zipfile
from typing import Any

from openpyxl import Workbook as XlsxBook
from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.defined_name import DefinedName
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import store
from officegym.apps.sheets.access import require_edit, role_of
from officegym.apps.sheets.cells import MAX_INPUT, apply
from officegym.apps.sheets.formats import format_value
from officegym.apps.sheets.models import Sheet, Workbook
from officegym.apps.sheets.places import locate, sheet_named, sheets_of
from officegym.apps.sheets.refs import Area, a1, parse_area, quote_sheet
from officegym.apps.sheets.values import XlError, general
from officegym.apps.sheets.workbooks import add_sheet, create_workbook, define_name, freeze_rows
from officegym.apps.sheets.xlfn import from_file, to_file
from officegym.errors import Invalid, NotFound

__all__ = ["MAX_FILE", "MAX_IMPORT", "export_csv", "export_xlsx", "import_csv", "import_xlsx"]

MAX_FILE = 10_000_000  # bytes
MAX_IMPORT = 200_000  # cells


def _readable(s: Session, actor: Person, wb: Workbook) -> None:
    if role_of(s, actor, wb) is None:
        raise NotFound(f"no workbook with id {wb.id} that you can open", code="workbook_not_found")


def export_xlsx(s: Session, actor: Person, wb: Workbook) -> bytes:
    """The workbook as an .xlsx file."""
    _readable(s, actor, wb)
    b = store.book(s, wb.id)
    out = XlsxBook()
    out.remove(out.active)
    for sheet in sheets_of(s, wb):
        ws = out.create_sheet(sheet.name)
        for (r, c), st in sorted(b.sheets[sheet.id].cells.items()):
            cell = ws.cell(row=r, column=c)
            if st.formula is not None and st.input:
                cell.value = "=" + to_file(st.input[1:])
            elif isinstance(st.value, XlError):
                cell.value = st.value.code
            elif st.input is not None and st.input.startswith("'"):
                cell.value = st.value
                cell.quotePrefix = True
            else:
                cell.value = st.value
            if st.fmt:
                cell.number_format = st.fmt
        if sheet.frozen_rows:
            ws.freeze_panes = f"A{sheet.frozen_rows + 1}"
    for name, (sid, (r1, c1, r2, c2)) in sorted(b.names.items()):
        ref = f"{quote_sheet(b.sheets[sid].name)}!{_abs(Area(r1, c1, r2, c2))}"
        original = next((n for n in _names(s, wb) if n.upper() == name), name)
        out.defined_names[original] = DefinedName(original, attr_text=ref)
    data = io.BytesIO()
    out.save(data)
    return data.getvalue()


def _names(s: Session, wb: Workbook) -> list[str]:
    from sqlalchemy import select

    from officegym.apps.sheets.models import NamedRange

    return list(s.scalars(select(NamedRange.name).where(NamedRange.workbook_id == wb.id)))


def _abs(area: Area) -> str:
    from officegym.apps.sheets.refs import col_letters

    first = f"${col_letters(area.c1)}${area.r1}"
    return first if area.size == 1 else f"{first}:${col_letters(area.c2)}${area.r2}"


def _open(filename: str, data: bytes) -> Any:
    if len(data) > MAX_FILE:
        raise Invalid(f"{filename}: larger than {MAX_FILE // 1_000_000} MB", code="bad_file")
    try:
        return load_workbook(io.BytesIO(data), data_only=False)
    except (
        zipfile.BadZipFile,
        InvalidFileException,
        KeyError,
        ValueError,
        OSError,
        TypeError,
    ) as exc:
        raise Invalid(
            f"{filename}: not an .xlsx workbook ({type(exc).__name__}: {str(exc)[:120]})",
            code="bad_file",
        ) from None


def _cell_input(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return general(float(value))
    if hasattr(value, "text") and isinstance(getattr(value, "text", None), str):  # array formulas
        value = value.text
    if hasattr(value, "isoformat"):
        from officegym.apps.sheets.values import serial_of

        return general(serial_of(value))
    text = str(value)
    if text.startswith("=") and "_xl" in text:
        with contextlib.suppress(Invalid):  # reported with the cell when it is typed
            text = "=" + from_file(text[1:])
    if len(text) > MAX_INPUT:
        raise Invalid(f"{where}: a cell holds at most {MAX_INPUT} characters", code="bad_file")
    return text


def import_xlsx(
    s: Session, actor: Person, filename: str, data: bytes, *, name: str | None = None
) -> Workbook:
    """A new workbook from an .xlsx file: every sheet, value, formula, number format,
    named range and frozen row count."""
    book = _open(filename, data)
    sheets = book.worksheets
    total = sum(ws.max_row * ws.max_column for ws in sheets)
    if not sheets or len(sheets) > 200 or total > 5 * MAX_IMPORT:
        raise Invalid(
            f"{filename}: between 1 and 200 sheets of at most {MAX_IMPORT} cells", code="bad_file"
        )
    title = name or filename.rsplit("/", 1)[-1].removesuffix(".xlsx") or "Imported"
    wb = create_workbook(s, actor, title, [ws.title for ws in sheets])
    for ws, sheet in zip(sheets, sheets_of(s, wb), strict=True):
        _import_sheet(s, actor, wb, sheet, ws, filename)
    for dn_name, dn in list(book.defined_names.items()):
        try:
            define_name(s, actor, wb, dn_name, dn.attr_text.replace("$", ""))
        except (Invalid, NotFound) as exc:
            raise Invalid(
                f"{filename}: named range {dn_name!r}: {exc.message}", code="bad_file"
            ) from None
    return wb


def _import_sheet(
    s: Session, actor: Person, wb: Workbook, sheet: Sheet, ws: Any, filename: str
) -> None:
    inputs, formats = {}, {}
    for row in ws.iter_rows():
        for cell in row:
            where = f"{filename}: {sheet.name}!{a1(cell.row, cell.column)}"
            text = _cell_input(cell.value, where)
            if cell.value is not None and isinstance(cell.value, str) and cell.quotePrefix:
                text = "'" + cell.value
            if text is not None:
                inputs[(cell.row, cell.column)] = text
            if cell.number_format and cell.number_format != "General" and cell.value is not None:
                formats[(cell.row, cell.column)] = cell.number_format
    if len(inputs) > MAX_IMPORT:
        raise Invalid(
            f"{filename}: sheet {sheet.name!r} has more than {MAX_IMPORT} cells", code="bad_file"
        )
    b = store.book(s, wb.id)
    for (r, c), fmt in formats.items():
        b.set_format(sheet.id, r, c, fmt)
    try:
        apply(s, actor, wb, sheet, inputs, "import", sheet.name)
    except Invalid as exc:
        raise Invalid(f"{filename}: {sheet.name}!{exc.message}", code="bad_file") from None
    frozen = ws.freeze_panes
    if frozen and parse_area(frozen).r1 > 1:
        freeze_rows(s, actor, wb, sheet, min(parse_area(frozen).r1 - 1, 50))


def export_csv(s: Session, actor: Person, wb: Workbook, *, sheet: str | None = None) -> str:
    """One sheet as CSV text, cells as they are shown."""
    _readable(s, actor, wb)
    target = sheet_named(s, wb, sheet)
    data = store.book(s, wb.id).sheets[target.id]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for r in range(1, data.max_row + 1):
        writer.writerow(
            [
                format_value(data.values.get((r, c)), _fmt(data, r, c))
                for c in range(1, data.max_col + 1)
            ]
        )
    return out.getvalue()


def _fmt(data: Any, r: int, c: int) -> str | None:
    st = data.cells.get((r, c))
    return st.fmt if st else None


def _csv_rows(text: str, delimiter: str) -> list[list[str]]:
    """The rows of CSV text; `Invalid` for binary data, oversized or unreadable text."""
    if "\x00" in text or sum(1 for ch in text[:4096] if ord(ch) < 9 or 13 < ord(ch) < 32) > 8:
        raise Invalid("the CSV text holds binary data; give plain text", code="bad_file")
    if len(text) > MAX_FILE:
        raise Invalid(f"CSV text is limited to {MAX_FILE // 1_000_000} MB", code="bad_file")
    if len(delimiter) != 1:
        raise Invalid("the delimiter is one character")
    try:
        rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter))
    except csv.Error as exc:
        raise Invalid(f"CSV: {exc}", code="bad_file") from None
    if not rows:
        raise Invalid("the CSV text is empty")
    if sum(len(r) for r in rows) > MAX_IMPORT:
        raise Invalid(f"at most {MAX_IMPORT} cells per import", code="bad_file")
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            if len(v) > MAX_INPUT:
                where = f"CSV row {i + 1}, column {j + 1}"
                raise Invalid(f"{where}: more than {MAX_INPUT} characters", code="bad_file")
    return rows


def import_csv(
    s: Session,
    actor: Person,
    wb: Workbook,
    text: str,
    *,
    sheet: str | None = None,
    at: str = "A1",
    new_sheet: str | None = None,
    delimiter: str = ",",
) -> Area:
    """Type CSV text into a sheet from cell `at` (numbers, dates and formulas are read as
    if typed), or into a new sheet named `new_sheet`."""
    require_edit(s, actor, wb)
    rows = _csv_rows(text, delimiter)
    target = add_sheet(s, actor, wb, new_sheet) if new_sheet else sheet_named(s, wb, sheet)
    _, start = locate(s, wb, at, target.name)
    inputs = {
        (start.r1 + i, start.c1 + j): v or None
        for i, row in enumerate(rows)
        for j, v in enumerate(row)
    }
    try:
        apply(s, actor, wb, target, inputs, "import_csv", target.name)
    except Invalid as exc:
        raise Invalid(f"CSV: {exc.message}", code="bad_file") from None
    width = max(max(len(r) for r in rows), 1)
    return Area(start.r1, start.c1, start.r1 + len(rows) - 1, start.c1 + width - 1, target.name)
