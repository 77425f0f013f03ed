"""What the sheets tool modules share: argument types (each with the description an
agent reads) and helpers that shape results."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.apps.sheets.refs import Area, a1
from officegym.tools import Ref, ToolContext

WorkbookRef = Annotated[
    int | str,
    Field(description="Workbook id (from sheets_list_workbooks), or its exact name."),
    Ref("sheets_workbook", ("name",)),
]
RangeRef = Annotated[
    str,
    Field(
        description="A1 range: 'B2', 'A1:D20', 'Data!A1:C9', a whole column 'C:C', or a named "
        "range. A sheet named in the range wins over `sheet`."
    ),
]
SheetOpt = Annotated[str | None, Field(description="Sheet name (default: the first sheet).")]
SheetName = Annotated[str, Field(description="Sheet name, as on its tab.")]
CellValue = str | float | int | bool | None
Rows = Annotated[
    list[list[CellValue]],
    Field(
        description="Rows of cells, top to bottom, each a list left to right. A cell is a number, "
        "text, true/false or null (empty it). Text starting with '=' is a formula, e.g. "
        "'=SUM(B2:B9)'; text such as '$1,200', '12%' or '2026-03-01' is read as a number or a "
        "date, as typing it would; start with an apostrophe to keep it text ('00123)."
    ),
]
Mode = Annotated[
    Literal["values", "formulas", "formatted"],
    Field(
        description="values: computed values; formulas: what was typed (formulas as =...); "
        "formatted: as shown."
    ),
]
Dimension = Annotated[Literal["rows", "columns"], Field(description="rows or columns.")]
Start = Annotated[
    int | str, Field(description="First row number (e.g. 5) or column letter (e.g. 'C').")
]
Count = Annotated[int, Field(description="How many rows or columns (1-10000).", ge=1, le=10_000)]
Header = Annotated[
    bool, Field(description="The range's first row is a header row to leave in place.")
]

MAX_ECHO = 400  # cells of computed values echoed back after a write
MAX_CUT = 20  # cells named when a recalculation cut formulas short


def workbook(ctx: ToolContext, ref: int | str) -> Workbook:
    return sheets.find_workbook(ctx.session, ctx.actor, ref)


def dimension(value: str) -> str:
    return "row" if value == "rows" else "col"


def written(ctx: ToolContext, wb: Workbook, area: Area, **extra: Any) -> dict[str, Any]:
    """What a write returns: the range written, its computed values (small ranges), where
    its array formulas spilled and why any could not (Sheets' note), and the cells its
    recalculation cut short (`cut_short`)."""
    out: dict[str, Any] = {"ok": True, "workbook_id": wb.id, "updated_range": area.label(), **extra}
    b = sheets.book(ctx.session, wb.id)
    sid = b.sheet_id(area.sheet or "")
    if sid is not None:
        out.update(sheets.spill_report(b, sid, (area.r1, area.c1, area.r2, area.c2)))
    if area.size <= MAX_ECHO:
        block = sheets.read_range(ctx.session, ctx.actor, wb, area.label())
        out["values"] = block.rows
    return out | cut_short(ctx, wb)


def cut_short(ctx: ToolContext, wb: Workbook) -> dict[str, Any]:
    """``{"over_budget": ...}`` naming the formulas the write's recalculation left at
    #NUM! because they blew the evaluation budget (`budget`), so the agent is told rather
    than reading #NUM! later; empty if none. Each cut is reported once."""
    b = sheets.book(ctx.session, wb.id)
    over, b.over_budget = b.over_budget, {}
    if not over:
        return {}
    cells = [f"{b.sheets[sid].name}!{a1(row, col)}" for sid, row, col in list(over)[:MAX_CUT]]
    note = {
        "count": len(over),
        "cells": cells,
        "reasons": sorted(set(over.values())),
        "shown": "#NUM!",
    }
    return {"over_budget": note}


def workbook_view(ctx: ToolContext, wb: Workbook) -> dict[str, Any]:
    """A workbook's card: id, name, owner, your access, its sheets with their used size."""
    from officegym.apps.org import service as org

    s = ctx.session
    b = sheets.book(s, wb.id)
    tabs = []
    for sh in sheets.sheets_of(s, wb):
        data = b.sheets[sh.id]
        tabs.append(
            {
                "name": sh.name,
                "rows": data.max_row,
                "columns": data.max_col,
                "frozen_rows": sh.frozen_rows,
                "frozen_columns": sh.frozen_cols,
            }
        )
    return {
        "id": wb.id,
        "name": wb.name,
        "owner": org.profile(s, wb.owner_id).handle,
        "your_access": sheets.role_of(s, ctx.actor, wb),
        "link_access": wb.link_access,
        "updated_at": wb.updated_at.isoformat(sep=" "),
        "sheets": tabs,
    }
