"""Sheets tools for agents, part one: finding workbooks and reading, writing and
clearing cells. Rows and columns, sorting, sheets, formats, sharing and files are in
`tools_edit.py`, pivot tables and named ranges in `tools_pivots.py`; importing this
module registers all.

Ranges are written in A1 notation ('A1:C10', 'Data!B2:B9', 'C:C') or by a named
range; a workbook is named by id or exact name; people by handle, email or name.
Reads return at most 10,000 cells (larger ranges come back a page of rows at a time,
with `next_range`).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from officegym.apps.org import service as org
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets import tool_args as A
from officegym.apps.sheets import tools_edit, tools_pivots
from officegym.apps.sheets.refs import Area
from officegym.tools import ToolContext, tool

__all__ = ["tools_edit", "tools_pivots"]  # registered on import


@tool("read")
def sheets_list_workbooks(
    ctx: ToolContext,
    *,
    query: Annotated[str | None, Field(description="Words in the workbook's name.")] = None,
) -> dict[str, Any]:
    """List the workbooks you can open (yours, shared with you, or open to the company),
    most recently changed first."""
    found = sheets.list_workbooks(ctx.session, ctx.actor, query=query)
    return {
        "workbooks": [
            {
                "id": w.id,
                "name": w.name,
                "owner": org.profile(ctx.session, w.owner_id).handle,
                "your_access": sheets.role_of(ctx.session, ctx.actor, w),
                "updated_at": w.updated_at.isoformat(sep=" "),
            }
            for w in found[:100]
        ]
    }


@tool("read")
def sheets_get_workbook(ctx: ToolContext, *, workbook: A.WorkbookRef) -> dict[str, Any]:
    """Show a workbook: its sheets (used rows and columns), named ranges, pivot tables,
    who it is shared with and your access."""
    s = ctx.session
    wb = A.workbook(ctx, workbook)
    view = A.workbook_view(ctx, wb)
    b = sheets.book(s, wb.id)
    view["named_ranges"] = [
        {"name": name, "range": Area(*area, b.sheets[sid].name).label()}
        for name, (sid, area) in sorted(b.names.items())
    ]
    names = {sh.id: sh.name for sh in sheets.sheets_of(s, wb)}
    view["pivots"] = [
        {
            "id": p.id,
            "source": f"{names[p.source_sheet_id]}!{p.source}",
            "anchor": f"{names[p.target_sheet_id]}!{p.anchor}",
            "output": p.extent,
            "rows": p.rows,
            "columns": p.columns,
            "values": p.values,
            "filters": p.filters,
        }
        for p in sheets.pivots_of(s, wb)
    ]
    view["shared_with"] = [{"person": p.handle, "role": r} for p, r in sheets.shares_of(s, wb)]
    return view


@tool("read")
def sheets_read_range(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    range: A.RangeRef,
    sheet: A.SheetOpt = None,
    mode: A.Mode = "values",
) -> dict[str, Any]:
    """Read the cells of a range as rows. Ranges past the sheet's last used row or column
    are cut there; more than 10,000 cells come back one page of rows at a time (ask for
    `next_range` to go on)."""
    wb = A.workbook(ctx, workbook)
    block = sheets.read_range(ctx.session, ctx.actor, wb, range, sheet=sheet, mode=mode)
    out: dict[str, Any] = {"range": block.label, "values": block.rows}
    if block.more_from is not None:
        area = sheets.locate(ctx.session, wb, range, sheet)[1]
        rest = Area(block.more_from, area.c1, area.r2, area.c2, block.sheet.name)
        out["next_range"] = rest.label()
    return out


@tool("write")
def sheets_write_range(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    range: A.RangeRef,
    values: A.Rows,
    sheet: A.SheetOpt = None,
) -> dict[str, Any]:
    """Type values and formulas into cells, the block's top-left at the range's first
    cell (give one cell, or a range of the block's exact size). Formulas recalculate and
    so does everything that depends on the cells; returns the computed values. A formula
    whose result is an array (UNIQUE, FILTER, SORT, =A2:A9 ...) spills into the empty
    cells right of and below it ('spills' says where); if they hold data it shows #REF!
    ('notes' says which cell is in the way). `over_budget` lists dependent formulas left
    at #NUM! because the recalculation ran out of its time budget."""
    wb = A.workbook(ctx, workbook)
    area = sheets.write_range(ctx.session, ctx.actor, wb, range, values, sheet=sheet)
    return A.written(ctx, wb, area)


@tool("write")
def sheets_append_rows(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    values: A.Rows,
    sheet: A.SheetOpt = None,
    range: Annotated[
        str | None,
        Field(
            description="Columns of the table to append to, e.g. 'A:E' (default: the whole sheet)."
        ),
    ] = None,
) -> dict[str, Any]:
    """Add rows below the last non-empty row of a table, starting in its first column."""
    wb = A.workbook(ctx, workbook)
    area = sheets.append_rows(ctx.session, ctx.actor, wb, values, sheet=sheet, ref=range)
    return A.written(ctx, wb, area)


@tool("write")
def sheets_clear_range(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    range: A.RangeRef,
    sheet: A.SheetOpt = None,
    formats: Annotated[bool, Field(description="Also clear number formats.")] = False,
) -> dict[str, Any]:
    """Empty the cells of a range (formulas that read them recalculate)."""
    wb = A.workbook(ctx, workbook)
    n = sheets.clear_range(ctx.session, ctx.actor, wb, range, sheet=sheet, formats=formats)
    return {"ok": True, "cleared_cells": n, **A.cut_short(ctx, wb)}


@tool("read")
def sheets_find_cells(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    query: Annotated[str, Field(description="Text to look for (any case).")],
    sheet: A.SheetOpt = None,
    exact: Annotated[bool, Field(description="Whole cell must equal the text.")] = False,
    in_formulas: Annotated[
        bool, Field(description="Search what was typed (formulas) instead of values.")
    ] = False,
    limit: Annotated[int, Field(description="Most cells to return (1-200).", ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """Find the cells whose value (or formula) contains some text, sheet by sheet, row
    by row."""
    wb = A.workbook(ctx, workbook)
    found = sheets.find_cells(
        ctx.session,
        ctx.actor,
        wb,
        query,
        sheet=sheet,
        exact=exact,
        formulas=in_formulas,
        limit=limit,
    )
    cells = [{"cell": Area(r, c, r, c, sh.name).label(), "value": v} for sh, r, c, v in found]
    return {"matches": cells}


@tool("read")
def sheets_get_history(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    limit: Annotated[int, Field(description="How many changes (1-100).", ge=1, le=100)] = 20,
) -> dict[str, Any]:
    """The latest changes to a workbook: who did what, when, where."""
    wb = A.workbook(ctx, workbook)
    return {
        "changes": [
            {
                "at": c.at.isoformat(sep=" "),
                "by": org.profile(ctx.session, c.actor_id).handle,
                "action": c.action,
                "target": c.target,
                "detail": c.detail,
            }
            for c in sheets.history(ctx.session, wb, limit=limit)
        ]
    }
