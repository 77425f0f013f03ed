"""Workbooks in and out as files: xlsx through openpyxl (values, formulas with their
computed values, number formats, sheets, merged and named ranges, frozen rows) and CSV
(one sheet). A file exported and imported again gives the same workbook.

A file that is not what it claims (binary junk, a truncated zip, entity declarations,
too many cells) is refused with `Invalid` naming the file and the reason, and nothing
is created; the xlsx edge itself is `xlsx.py`. Exports cost what the sheet stores and
carry no live formula where the workbook holds text.
"""

from __future__ import annotations

import contextlib
import csv
import io
import zipfile
from typing import Any
from urllib.parse import quote

from openpyxl import Workbook as XlsxBook
from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.defined_name import DefinedName
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import spill, store, xlsx
from officegym.apps.sheets.access import require_edit, role_of
from officegym.apps.sheets.cells import MAX_INPUT, apply
from officegym.apps.sheets.engine import CellState
from officegym.apps.sheets.formats import format_value, typed_value
from officegym.apps.sheets.models import Merge, Sheet, Workbook
from officegym.apps.sheets.places import locate, sheet_named, sheets_of
from officegym.apps.sheets.refs import Area, a1, col_letters, parse_area, quote_sheet
from officegym.apps.sheets.values import Value, XlError, general, serial_of
from officegym.apps.sheets.workbooks import (
    add_sheet,
    create_workbook,
    define_name,
    freeze_cols,
    freeze_rows,
)
from officegym.apps.sheets.xlfn import from_file, to_file
from officegym.errors import Invalid, NotFound

__all__ = [
    "MAX_EXPORT",
    "MAX_FILE",
    "MAX_IMPORT",
    "attachment",
    "export_csv",
    "export_xlsx",
    "import_csv",
    "import_xlsx",
]

MAX_FILE = 10_000_000  # bytes
# cells: an import is one transaction holding the write lock while it types every cell
# (about 30 µs of CPU a cell), so the cap keeps that hold near a second, not six.
MAX_IMPORT = 50_000
MAX_EXPORT = 5_000_000  # fields of one CSV export


def attachment(name: str, ext: str) -> str:
    """A Content-Disposition value downloading `name`.`ext`: an ASCII fallback and the
    UTF-8 name (RFC 6266), so any workbook name makes a valid header."""
    full = xlsx.clean_text(f"{name}.{ext}").replace("\r", " ").replace("\n", " ")
    ascii_name = full.encode("ascii", "replace").decode().replace('"', "'").replace("\\", "_")
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(full, safe='')}"


def _readable(s: Session, actor: Person, wb: Workbook) -> None:
    if role_of(s, actor, wb) is None:
        raise NotFound(f"no workbook with id {wb.id} that you can open", code="workbook_not_found")


def export_xlsx(s: Session, actor: Person, wb: Workbook) -> bytes:
    """The workbook as an .xlsx file: every stored cell (and only those), formulas with
    their computed values, text kept as text, merged ranges, formats, frozen rows."""
    _readable(s, actor, wb)
    b = store.book(s, wb.id)
    out = XlsxBook()
    out.remove(out.active)
    cached: list[dict[str, Value]] = []
    for sheet in sheets_of(s, wb):
        ws = out.create_sheet(xlsx.clean_text(sheet.name))
        cached.append(_write_cells(ws, b.sheets[sheet.id].cells))
        for m in s.scalars(select(Merge).where(Merge.sheet_id == sheet.id).order_by(Merge.id)):
            ws.merge_cells(start_row=m.r1, start_column=m.c1, end_row=m.r2, end_column=m.c2)
        if sheet.frozen_rows or sheet.frozen_cols:
            ws.freeze_panes = f"{col_letters(sheet.frozen_cols + 1)}{sheet.frozen_rows + 1}"
    for name, (sid, (r1, c1, r2, c2)) in sorted(b.names.items()):
        ref = f"{quote_sheet(b.sheets[sid].name)}!{_abs(Area(r1, c1, r2, c2))}"
        original = next((n for n in _names(s, wb) if n.upper() == name), name)
        out.defined_names[original] = DefinedName(original, attr_text=ref)
    data = io.BytesIO()
    out.save(data)
    return xlsx.with_values(data.getvalue(), cached)


def _write_cells(ws: Any, cells: dict[tuple[int, int], CellState]) -> dict[str, Value]:
    """Write a sheet's stored cells; returns the computed values of its formulas by A1
    address. Text is written as text even when it looks like a formula."""
    cached: dict[str, Value] = {}
    for (r, c), st in sorted(cells.items()):
        cell = ws.cell(row=r, column=c)
        if st.formula is not None and st.input:
            cell.value = "=" + xlsx.clean_text(to_file(st.input[1:]))
            cached[cell.coordinate] = st.value
        elif isinstance(st.value, XlError):
            cell.value = st.value.code
        elif isinstance(st.value, str):
            cell.value = xlsx.clean_text(st.value)
            cell.data_type = "s"  # never a formula, whatever it starts with
            cell.quotePrefix = bool(st.input and st.input.startswith("'"))
        else:
            cell.value = st.value
        if st.fmt:
            cell.number_format = xlsx.clean_text(st.fmt)
    return cached


def _names(s: Session, wb: Workbook) -> list[str]:
    from sqlalchemy import select

    from officegym.apps.sheets.models import NamedRange

    return list(s.scalars(select(NamedRange.name).where(NamedRange.workbook_id == wb.id)))


def _abs(area: Area) -> str:
    from officegym.apps.sheets.refs import col_letters

    first = f"${col_letters(area.c1)}${area.r1}"
    return first if area.size == 1 else f"{first}:${col_letters(area.c2)}${area.r2}"


def _open(filename: str, data: bytes) -> Any:
    """The file as a read-only openpyxl workbook, after `xlsx.check` (no entity
    declarations, bounded size and cell count)."""
    if len(data) > MAX_FILE:
        raise Invalid(f"{filename}: larger than {MAX_FILE // 1_000_000} MB", code="bad_file")
    xlsx.check(filename, data, 5 * MAX_IMPORT)
    try:
        return load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except (
        zipfile.BadZipFile,
        InvalidFileException,
        KeyError,
        ValueError,
        OSError,
        TypeError,
        AttributeError,
        IndexError,
        SyntaxError,  # xml.etree's ParseError
    ) as exc:
        raise Invalid(
            f"{filename}: not an .xlsx workbook ({type(exc).__name__}: {str(exc)[:120]})",
            code="bad_file",
        ) from None


def _cell_input(value: Any, data_type: str, quoted: bool, where: str) -> str | None:
    """What typing a file's cell into the clone means: text cells stay text (``00501``,
    ``TRUE``, ``=1+1`` stored as text get a quote prefix), formulas stay formulas."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return general(float(value))
    if hasattr(value, "text") and isinstance(getattr(value, "text", None), str):  # array formulas
        value = value.text
    if hasattr(value, "isoformat"):
        return general(serial_of(value))
    text = str(value)
    if data_type == "f" and "_xl" in text:
        with contextlib.suppress(Invalid):  # reported with the cell when it is typed
            text = "=" + from_file(text[1:])
    elif data_type == "s" and (quoted or _retyped(text)):
        text = "'" + text
    if len(text) > MAX_INPUT:
        raise Invalid(f"{where}: a cell holds at most {MAX_INPUT} characters", code="bad_file")
    return text


def _retyped(text: str) -> bool:
    """Whether typing this text would make it something else (a number, a logical, a
    date, a formula, or text losing a leading quote)."""
    if text.startswith(("=", "'")):
        return True
    value, _ = typed_value(text)
    return value != text or not isinstance(value, str)


def import_xlsx(
    s: Session, actor: Person, filename: str, data: bytes, *, name: str | None = None
) -> Workbook:
    """A new workbook from an .xlsx file: every sheet, value, formula, number format,
    merged range, named range and frozen row count. The file is read as a stream and
    refused as soon as it passes `MAX_IMPORT` cells."""
    book = _open(filename, data)
    try:
        if not book.worksheets or len(book.worksheets) > 200:
            raise Invalid(f"{filename}: between 1 and 200 sheets", code="bad_file")
        read = list(xlsx.read_sheets(book, filename, MAX_IMPORT))
        defined = [(n, dn.attr_text) for n, dn in book.defined_names.items()]
    except (KeyError, IndexError, ValueError, TypeError, AttributeError, SyntaxError) as exc:
        raise Invalid(
            f"{filename}: unreadable sheet ({type(exc).__name__})", code="bad_file"
        ) from None
    finally:
        book.close()
    title = name or filename.rsplit("/", 1)[-1].removesuffix(".xlsx") or "Imported"
    wb = create_workbook(s, actor, title, [x.title for x in read])
    for got, sheet in zip(read, sheets_of(s, wb), strict=True):
        _import_sheet(s, actor, wb, sheet, got, filename)
    for dn_name, text in defined:
        try:
            define_name(s, actor, wb, dn_name, (text or "").replace("$", ""))
        except (Invalid, NotFound) as exc:
            raise Invalid(
                f"{filename}: named range {dn_name!r}: {exc.message}", code="bad_file"
            ) from None
    return wb


def _import_sheet(
    s: Session, actor: Person, wb: Workbook, sheet: Sheet, got: xlsx.SheetIn, filename: str
) -> None:
    inputs, formats = {}, {}
    for (r, c), (value, kind, fmt, quoted) in got.cells.items():
        text = _cell_input(value, kind, quoted, f"{filename}: {sheet.name}!{a1(r, c)}")
        if text is not None:
            inputs[(r, c)] = text
            if fmt and fmt != "General":
                formats[(r, c)] = fmt
    b = store.book(s, wb.id)
    for (r, c), fmt in formats.items():
        b.set_format(sheet.id, r, c, fmt)
    try:
        apply(s, actor, wb, sheet, inputs, "import", sheet.name)
    except Invalid as exc:
        raise Invalid(f"{filename}: {sheet.name}!{exc.message}", code="bad_file") from None
    spilled = spill.adoptable(b, sheet.id)  # the file's spilled values, back to their anchor
    if spilled:
        apply(s, actor, wb, sheet, dict.fromkeys(spilled), "import", sheet.name)
    for ref in got.merges:
        try:
            area = parse_area(ref)
        except Invalid as exc:
            raise Invalid(f"{filename}: merged range {exc.message}", code="bad_file") from None
        s.add(Merge(sheet_id=sheet.id, r1=area.r1, c1=area.c1, r2=area.r2, c2=area.c2))
    if got.frozen_rows:
        freeze_rows(s, actor, wb, sheet, min(got.frozen_rows, 50))
    if got.frozen_cols:
        freeze_cols(s, actor, wb, sheet, min(got.frozen_cols, 26))


def export_csv(s: Session, actor: Person, wb: Workbook, *, sheet: str | None = None) -> str:
    """One sheet as CSV text, cells as they are shown. Text that a spreadsheet opening
    the file would run as a formula (starting with = + - @, a tab or a carriage return)
    gets a leading ``'``, as OWASP advises; numbers are written as shown. A sheet whose
    rectangle is far larger than what it stores (one value in its last cell) is written
    with each row ending at its last value, and refused past `MAX_EXPORT` fields."""
    _readable(s, actor, wb)
    target = sheet_named(s, wb, sheet)
    data = store.book(s, wb.id).sheets[target.id]
    by_row: dict[int, dict[int, str]] = {}
    for (r, c), v in data.values.items():
        by_row.setdefault(r, {})[c] = _shown(v, _fmt(data, r, c))
    rows = max(by_row, default=0)
    width = max((max(cols) for cols in by_row.values()), default=0)
    ragged = rows * width > MAX_EXPORT
    if ragged and rows + sum(max(cols) for cols in by_row.values()) > MAX_EXPORT:
        raise Invalid(
            f"{target.name} is too large for CSV (more than {MAX_EXPORT:,} fields); "
            "export the workbook as xlsx",
            code="too_large",
        )
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    blank = "\n" if ragged else "," * (width - 1) + "\n"
    done = 0
    for r in sorted(by_row):
        out.write(blank * (r - done - 1))  # the empty rows above, at once
        cols, done = by_row[r], r
        last = max(cols) if ragged else width
        writer.writerow([cols.get(c, "") for c in range(1, last + 1)])
    return out.getvalue()


_FORMULA_LEAD = ("=", "+", "-", "@", "\t", "\r")


def _shown(v: Value, fmt: str | None) -> str:
    text = format_value(v, fmt)
    return "'" + text if isinstance(v, str) and text.startswith(_FORMULA_LEAD) else text


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
