"""A Google Sheets API PivotTable (in an updateCells request) as one of the clone's
pivot tables: source GridRange, row and column groups and summarised values by
``sourceColumnOffset`` into the source's header row, written at the request's start
cell; a group's ``sortOrder`` and ``valueBucket.valuesIndex`` (sort by a value's total)
order its groups. What the clone's pivots do not model (filter specs, calculated
values, date groupings, sorting by one column group's bucket) is a clear 400."""

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

_GROUP_FIELDS = {"sourceColumnOffset", "showTotals", "sortOrder", "valueBucket", "label"}
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


def _sort(group: dict[str, Any], where: str) -> dict[str, Any]:
    """A PivotGroup's order as the clone's pivot sort spec (empty: ascending labels)."""
    spec: dict[str, Any] = {}
    order = group.get("sortOrder")
    if order is not None:
        if order not in ("ASCENDING", "DESCENDING"):
            raise Invalid(f"Invalid {where}.sortOrder: ASCENDING or DESCENDING")
        spec["order"] = order
    if group.get("valueBucket") is not None:
        bucket = obj(group.get("valueBucket"), f"{where}.valueBucket")
        if bucket.get("buckets"):
            raise Invalid(f"{where}.valueBucket.buckets is not supported (totals only)")
        spec["value"] = integer(bucket, "valuesIndex", 0)
    return spec


def create_from_api(s: Session, me: Person, wb: Workbook, pivot: Any, anchor: Area) -> None:
    """Make the pivot table `pivot` describes, its top-left at `anchor`."""
    pivot = _checked(obj(pivot, "pivotTable"), _PIVOT_FIELDS, "pivotTable")
    sheet, area = grid_area(s, wb, pivot.get("source"), "pivotTable.source")
    area = used_area(s, wb, sheet, area)
    headers = _headers(s, wb, sheet, area)
    groups: dict[str, list[str]] = {"rows": [], "columns": []}
    sort: dict[str, dict[str, Any]] = {}
    for kind, names in groups.items():
        for g in objects(pivot.get(kind), kind):
            names.append(_field(headers, _checked(g, _GROUP_FIELDS, kind), kind))
            if _sort(g, kind):
                sort[names[-1]] = _sort(g, kind)
    values = []
    for v in objects(pivot.get("values"), "values"):
        summary = _checked(v, _VALUE_FIELDS, "values").get("summarizeFunction", "SUM")
        if summary not in SUMMARIES:
            raise Invalid(f"summarizeFunction {summary!r}: the clone has {', '.join(SUMMARIES)}")
        values.append({"field": _field(headers, v, "values"), "summary": summary})
    sheets.create_pivot(
        s, me, wb, area.label(), anchor.label(),
        rows=groups["rows"], columns=groups["columns"], values=values, sort=sort,
    )  # fmt: skip
