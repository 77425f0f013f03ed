"""A Google Sheets API PivotTable (in an updateCells request) as one of the clone's
pivot tables: source GridRange, row and column groups and summarised values by
``sourceColumnOffset`` into the source's header row, written at the request's start
cell. What the clone's pivots do not model (filter specs, calculated values, date
groupings) is a clear 400."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.api_input import grid_area, integer, obj, objects
from officegym.apps.sheets.api_input import used as used_area
from officegym.apps.sheets.models import SUMMARIES, Sheet, Workbook
from officegym.apps.sheets.refs import Area
from officegym.errors import Invalid

__all__ = ["create_from_api"]

_GROUP_FIELDS = {"sourceColumnOffset", "showTotals", "sortOrder", "label"}
_VALUE_FIELDS = {"sourceColumnOffset", "summarizeFunction", "name"}
_PIVOT_FIELDS = {"source", "rows", "columns", "values", "valueLayout"}


def _headers(s: Session, wb: Workbook, sheet: Sheet, area: Area) -> list[str]:
    cells = sheets.book(s, wb.id).sheets[sheet.id].cells
    return [
        str(cells[(area.r1, c)].value) if (area.r1, c) in cells else ""
        for c in range(area.c1, area.c2 + 1)
    ]


def _field(headers: list[str], item: dict[str, Any], where: str) -> str:
    offset = integer(item, "sourceColumnOffset", 0)
    if offset >= len(headers) or not headers[offset]:
        raise Invalid(f"Invalid {where}.sourceColumnOffset {offset}: no such source column")
    return headers[offset]


def _checked(item: dict[str, Any], allowed: set[str], where: str) -> dict[str, Any]:
    extra = sorted(set(item) - allowed)
    if extra:
        raise Invalid(f"{where}.{extra[0]} is not supported by the clone's pivot tables")
    return item


def create_from_api(s: Session, me: Person, wb: Workbook, pivot: Any, anchor: Area) -> None:
    """Make the pivot table `pivot` describes, its top-left at `anchor`."""
    pivot = _checked(obj(pivot, "pivotTable"), _PIVOT_FIELDS, "pivotTable")
    sheet, area = grid_area(s, wb, pivot.get("source"), "pivotTable.source")
    area = used_area(s, wb, sheet, area)
    headers = _headers(s, wb, sheet, area)
    groups = {
        kind: [
            _field(headers, _checked(g, _GROUP_FIELDS, kind), kind)
            for g in objects(pivot.get(kind), kind)
        ]
        for kind in ("rows", "columns")
    }
    values = []
    for v in objects(pivot.get("values"), "values"):
        summary = _checked(v, _VALUE_FIELDS, "values").get("summarizeFunction", "SUM")
        if summary not in SUMMARIES:
            raise Invalid(f"summarizeFunction {summary!r}: the clone has {', '.join(SUMMARIES)}")
        values.append({"field": _field(headers, v, "values"), "summary": summary})
    sheets.create_pivot(
        s, me, wb, area.label(), anchor.label(),
        rows=groups["rows"], columns=groups["columns"], values=values,
    )  # fmt: skip
