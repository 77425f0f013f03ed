"""Sheets tools, part three: pivot tables and named ranges."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from officegym.apps.sheets import service as sheets
from officegym.apps.sheets import tool_args as A
from officegym.apps.sheets.models import Summary
from officegym.apps.sheets.refs import Area, parse_area
from officegym.errors import Invalid, NotFound
from officegym.tools import ToolContext, tool

Source = Annotated[
    str,
    Field(
        description="The data range, headers in its first row, e.g. 'Orders!A1:I401' "
        "or 'Orders!A:I'."
    ),
]

Anchor = Annotated[
    str, Field(description="Top-left cell of the pivot table, e.g. 'Pivot!A1' (on an empty area).")
]
GroupRows = Annotated[
    list[str], Field(description="Source headers to group rows by, e.g. ['Region'].")
]
GroupColumns = Annotated[list[str], Field(description="Source headers to group columns by.")]
Filters = Annotated[
    dict[str, list[str | float]] | None,
    Field(
        description="Only rows whose column has one of these values, e.g. "
        "{'Category': ['Software']}."
    ),
]


class PivotValue(BaseModel):
    model_config = ConfigDict(extra="forbid")
    field: str = Field(description="Header of the source column to summarise, e.g. 'Revenue'.")
    summary: Summary = Field("SUM", description="SUM, COUNT, COUNTA, AVERAGE, MIN or MAX.")


Values = Annotated[
    list[PivotValue],
    Field(
        description="What to summarise, e.g. [{'field': 'Revenue', 'summary': 'SUM'}].",
        min_length=1,
    ),
]


class PivotSort(BaseModel):
    model_config = ConfigDict(extra="forbid")
    field: str = Field(description="A row or column group's header, e.g. 'Region'.")
    order: Literal["ascending", "descending"] = Field("ascending", description="Order.")
    by: str | None = Field(
        None,
        description="Sort a row or column group by a summarised value's total (a column "
        "group: its Grand Total) instead of its labels: the value as the pivot names it, "
        "e.g. 'SUM of Revenue'.",
    )


Sorts = Annotated[
    list[PivotSort],
    Field(description="How groups are ordered (default: ascending by their labels)."),
]


def _sort_spec(sort: Sequence[PivotSort], vals: list[dict[str, str]]) -> dict[str, Any]:
    """The tool's sorts as the pivot stores them (a value named by its label)."""
    labels = [f"{v['summary']} of {v['field']}".lower() for v in vals]
    out: dict[str, Any] = {}
    for x in sort:
        spec: dict[str, Any] = {"order": x.order.upper()}
        if x.by is not None:
            if x.by.strip().lower() not in labels:
                raise Invalid(f"sort by {x.by!r}: the pivot's values are {', '.join(labels)}")
            spec["value"] = labels.index(x.by.strip().lower())
        out[x.field] = spec
    return out


@tool("write")
def sheets_create_pivot(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    source: Source,
    anchor: Anchor,
    values: Values,
    rows: GroupRows = (),
    columns: GroupColumns = (),
    filters: Filters = None,
    sheet: A.SheetOpt = None,
    sort: Sorts = (),
) -> dict[str, Any]:
    """Create a pivot table: it groups the source rows, summarises values, and refreshes
    itself whenever the source cells change. Groups are ascending unless `sort` says
    otherwise. Its output cells belong to it (writes into them are refused: change or
    delete the pivot). Returns its id and output range."""
    wb = A.workbook(ctx, workbook)
    vals = [{"field": v.field, "summary": v.summary} for v in values]
    pivot = sheets.create_pivot(
        ctx.session,
        ctx.actor,
        wb,
        source,
        anchor,
        rows=list(rows),
        columns=list(columns),
        values=vals,
        filters=filters or {},
        sheet=sheet,
        sort=_sort_spec(sort, vals),
    )
    target = sheets.sheets_of(ctx.session, wb)
    name = next(x.name for x in target if x.id == pivot.target_sheet_id)
    area = Area(*_corners(pivot.extent), name)
    return A.written(ctx, wb, area, pivot_id=pivot.id)


def _corners(extent: str) -> tuple[int, int, int, int]:
    a = parse_area(extent)
    return a.r1, a.c1, a.r2, a.c2


def _pivot(ctx: ToolContext, wb: Any, pivot_id: int) -> Any:
    for p in sheets.pivots_of(ctx.session, wb):
        if p.id == pivot_id:
            return p
    raise NotFound(f"{wb.name!r} has no pivot table {pivot_id} (see sheets_get_workbook)")


PivotId = Annotated[int, Field(description="The pivot table's id (see sheets_get_workbook).")]


@tool("write")
def sheets_refresh_pivot(
    ctx: ToolContext, *, workbook: A.WorkbookRef, pivot_id: PivotId
) -> dict[str, Any]:
    """Recompute a pivot table from its source now."""
    wb = A.workbook(ctx, workbook)
    sheets.refresh_pivot(ctx.session, ctx.actor, wb, _pivot(ctx, wb, pivot_id))
    return {"ok": True}


@tool("write")
def sheets_delete_pivot(
    ctx: ToolContext, *, workbook: A.WorkbookRef, pivot_id: PivotId
) -> dict[str, Any]:
    """Delete a pivot table and clear its cells."""
    wb = A.workbook(ctx, workbook)
    sheets.delete_pivot(ctx.session, ctx.actor, wb, _pivot(ctx, wb, pivot_id))
    return {"ok": True}


@tool("write")
def sheets_define_name(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    name: Annotated[str, Field(description="The name, e.g. 'Revenue' (letters, digits, _ and .).")],
    range: A.RangeRef,
) -> dict[str, Any]:
    """Name a range so formulas can use it (=SUM(Revenue)); redefining moves the name."""
    wb = A.workbook(ctx, workbook)
    sheets.define_name(ctx.session, ctx.actor, wb, name, range)
    return {"ok": True}


@tool("write")
def sheets_delete_name(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    name: Annotated[str, Field(description="The named range to delete.")],
) -> dict[str, Any]:
    """Delete a named range (formulas using it show #NAME?)."""
    sheets.delete_name(ctx.session, ctx.actor, A.workbook(ctx, workbook), name)
    return {"ok": True}
