"""The xlsx format at its edges, for `files.py`: reading a file safely and writing what
openpyxl leaves out.

Reading: the package is checked before openpyxl parses it (`check`): no DTD or entity
declaration in any part, a cap on the uncompressed size and on the cell elements of
every worksheet (a small file can expand to millions of cells). Worksheets are then
streamed (`read_sheets`, openpyxl in read-only mode, cells as the file stores them,
gaps never filled) and counted as they are read, so a file past the cell limit is
refused before it is held in memory.

Writing: openpyxl writes no cached value beside a formula, so readers that do not
calculate (pandas, openpyxl with ``data_only=True``) would see every formula empty;
`with_values` adds the computed values to the saved file.
"""

from __future__ import annotations

import functools
import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

from openpyxl.cell.read_only import ReadOnlyCell
from openpyxl.worksheet._reader import WorkSheetParser

from officegym.apps.sheets.values import Value, XlError
from officegym.errors import Invalid

__all__ = [
    "MAX_MERGES",
    "MAX_UNZIPPED",
    "SheetIn",
    "check",
    "clean_text",
    "read_sheets",
    "with_values",
]

MAX_UNZIPPED = 60_000_000  # bytes of all parts of a package, uncompressed
MAX_MERGES = 10_000  # merged ranges per sheet
_CHUNK = 1 << 20
_DTD = re.compile(rb"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)
_CELL_TAG = re.compile(rb"<(?:\w+:)?c[\s/>]")
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udfff]")


def _bad(filename: str, reason: str) -> Invalid:
    return Invalid(f"{filename}: {reason}", code="bad_file")


def check(filename: str, data: bytes, max_cells: int) -> None:
    """Refuse a package with a DTD or entity declaration, one that unzips past
    `MAX_UNZIPPED` bytes, or a worksheet with more than `max_cells` cell elements; read
    as a stream (nothing is held whole)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            total = 0
            for info in z.infolist():
                total = _scan(z, info, filename, total, max_cells)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError) as exc:
        raise _bad(filename, f"not an .xlsx workbook ({exc})") from None
    except (OSError, RuntimeError, ValueError) as exc:  # encrypted or corrupt members
        raise _bad(filename, f"not an .xlsx workbook ({type(exc).__name__})") from None


def _scan(z: zipfile.ZipFile, info: zipfile.ZipInfo, filename: str, total: int, cap: int) -> int:
    counting = info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml")
    cells, tail = 0, b""
    with z.open(info) as part:
        while chunk := part.read(_CHUNK):
            total += len(chunk)
            if total > MAX_UNZIPPED:
                raise _bad(filename, f"unzips to more than {MAX_UNZIPPED // 1_000_000} MB")
            window = tail + chunk
            if _DTD.search(window):
                raise _bad(filename, "holds a DTD or entity declaration; xlsx files have none")
            if counting:
                cells += len(_CELL_TAG.findall(chunk, 0))
                if cells > cap:
                    raise _bad(filename, f"a sheet has more than {cap:,} cells")
            tail = window[-16:]
    return total


@dataclass
class SheetIn:
    """One worksheet as read: its title, cells by (row, col) as ``(value, data_type,
    number format, quote prefix)``, merged ranges (A1) and frozen rows."""

    title: str
    cells: dict[tuple[int, int], tuple[Any, str, str, bool]] = field(default_factory=dict)
    merges: list[str] = field(default_factory=list)
    frozen_rows: int = 0
    frozen_cols: int = 0


def read_sheets(book: Any, filename: str, max_cells: int) -> Iterator[SheetIn]:
    """The worksheets of a read-only openpyxl workbook, streamed; `Invalid` as soon as
    the cells holding something pass `max_cells` (all sheets together)."""
    count = 0
    for ws in book.worksheets:
        sheet = SheetIn(ws.title)
        with ws._get_source() as src:
            parser = WorkSheetParser(
                src,
                ws._shared_strings,
                epoch=book.epoch,
                date_formats=book._date_formats,
                timedelta_formats=book._timedelta_formats,
            )
            for _, row in parser.parse():
                for cell in row:
                    if cell["value"] is None:
                        continue
                    count += 1
                    if count > max_cells:
                        raise _bad(filename, f"holds more than {max_cells:,} cells")
                    sheet.cells[(cell["row"], cell["column"])] = _cell(ws, cell)
        sheet.merges = [str(m.ref) for m in (parser.merged_cells or _NoMerges()).mergeCell]
        if len(sheet.merges) > MAX_MERGES:
            raise _bad(filename, f"a sheet has more than {MAX_MERGES:,} merged ranges")
        sheet.frozen_rows, sheet.frozen_cols = _frozen(parser)
        yield sheet


class _NoMerges:
    mergeCell: tuple[Any, ...] = ()


def _cell(ws: Any, cell: dict[str, Any]) -> tuple[Any, str, str, bool]:
    ro = ReadOnlyCell(ws, **cell)
    quote = bool(cell["style_id"]) and bool(ws.parent._cell_styles[cell["style_id"]].quotePrefix)
    return cell["value"], cell["data_type"], ro.number_format, quote


def _frozen(parser: WorkSheetParser) -> tuple[int, int]:
    """The frozen rows and columns of a sheet's first frozen pane."""
    views = getattr(parser, "views", None)
    for view in getattr(views, "sheetView", None) or ():
        pane = view.pane
        if pane is not None and pane.state in ("frozen", "frozenSplit"):
            return int(pane.ySplit or 0), int(pane.xSplit or 0)
    return 0, 0


def clean_text(text: str) -> str:
    """Text an xlsx can hold: control characters (other than tab, line feed and carriage
    return) and lone surrogates are dropped."""
    return _ILLEGAL.sub("", text)


# openpyxl writes an empty value as <v /> with its own XML writer, <v></v> with lxml's
_FORMULA_CELL = re.compile(
    rb'<c r="([A-Z]+[0-9]+)"((?: s="[0-9]+")?)><f>((?:(?!</f>).)*)</f>(?:<v ?/>|<v></v>)'
)


def with_values(data: bytes, cached: list[dict[str, Value]]) -> bytes:
    """The saved package with each formula cell's computed value written beside its
    formula; `cached[i]` holds the values of the i-th worksheet by A1 address."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO(b"")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            part = src.read(info)
            m = re.fullmatch(r"xl/worksheets/sheet([0-9]+)\.xml", info.filename)
            if m and int(m.group(1)) <= len(cached):
                part = _FORMULA_CELL.sub(
                    functools.partial(_cached, cached[int(m.group(1)) - 1]), part
                )
            dst.writestr(info, part)
    return out.getvalue()


def _cached(values: dict[str, Value], m: re.Match[bytes]) -> bytes:
    ref, style, formula = m.group(1), m.group(2), m.group(3)
    v = values.get(ref.decode())
    kind, text = _typed(v)
    t = f' t="{kind}"'.encode() if kind else b""
    return b'<c r="' + ref + b'"' + style + t + b"><f>" + formula + b"</f><v>" + text + b"</v>"


def _typed(v: Value) -> tuple[str, bytes]:
    if isinstance(v, bool):
        return "b", b"1" if v else b"0"
    if isinstance(v, float | int):
        return (
            ("", repr(float(v)).encode()) if v == v and abs(v) != float("inf") else ("e", b"#NUM!")
        )
    if isinstance(v, XlError):
        return "e", v.code.encode()
    return "str", escape(clean_text(v or "")).encode()
