"""Finding sheets and ranges of a workbook from what people write: a sheet by name
(any case), a range as ``A1:C9``, ``'Q1 data'!B2:B40``, ``C:C`` or a named range."""

from __future__ import annotations

import re

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from officegym.apps.sheets.models import NamedRange, Sheet, Workbook
from officegym.apps.sheets.refs import Area, parse_area
from officegym.errors import Invalid, NotFound
from officegym.memo import recall, watch

__all__ = ["NAME_RE", "locate", "sheet_named", "sheets_of"]

NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]{0,99}$")
_SHEETS = (
    select(Sheet).where(Sheet.workbook_id == bindparam("wb")).order_by(Sheet.position, Sheet.id)
)
_NAMED = select(NamedRange).where(NamedRange.workbook_id == bindparam("wb"))


# A tool runner's session remembers a workbook's tabs (every range names a sheet) until a
# sheet row is written.
watch("sheets.tabs", Sheet)


def sheets_of(s: Session, wb: Workbook) -> list[Sheet]:
    """The workbook's sheets in tab order. The memo holds the objects themselves: the
    identity map holds them only weakly, and an edit would load its sheet again."""
    return list(recall(s, "sheets.tabs", wb.id, lambda: list(s.scalars(_SHEETS, {"wb": wb.id}))))


def sheet_named(s: Session, wb: Workbook, name: str | None) -> Sheet:
    """A sheet by name (any case); the first sheet when `name` is None or empty."""
    sheets = sheets_of(s, wb)
    if not sheets:
        raise NotFound(f"{wb.name!r} has no sheets")
    if not name:
        return sheets[0]
    for sheet in sheets:
        if sheet.name.lower() == name.strip().lower():
            return sheet
    names = ", ".join(repr(x.name) for x in sheets)
    raise NotFound(
        f"{wb.name!r} has no sheet named {name!r} (sheets: {names})", code="sheet_not_found"
    )


def locate(s: Session, wb: Workbook, ref: str, sheet: str | None = None) -> tuple[Sheet, Area]:
    """The sheet and area a range reference names; a sheet in the reference wins over
    `sheet`; a defined name gives its range."""
    text = ref.strip()
    if NAME_RE.match(text) and not re.match(r"^[A-Za-z]{1,3}\d+$", text):
        for named in s.scalars(_NAMED, {"wb": wb.id}):
            if named.name.lower() == text.lower():
                found = s.get_one(Sheet, named.sheet_id)
                return found, Area(named.r1, named.c1, named.r2, named.c2, found.name)
    try:
        area = parse_area(text)
    except Invalid:
        raise Invalid(
            f"{ref!r} is not a range such as A1:C10, Sheet2!B2:B9, C:C or a named range "
            f"of {wb.name!r}",
            code="bad_range",
        ) from None
    target = sheet_named(s, wb, area.sheet or sheet)
    return target, Area(area.r1, area.c1, area.r2, area.c2, target.name)
