"""Sheets tools, part two: rows and columns, sort and de-duplicate, fill and copy,
sheets and workbooks, number formats, sharing, CSV (pivot tables and named ranges
are in `tools_pivots.py`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from officegym.apps.org import service as org
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets import tool_args as A
from officegym.errors import Invalid
from officegym.tools import Ref, ToolContext, tool


class SortKey(BaseModel):
    model_config = ConfigDict(extra="forbid")
    column: str = Field(description="Column letter, e.g. 'C'.")
    descending: bool = Field(False, description="Largest (or Z) first.")


def _change_dimension(
    ctx: ToolContext,
    op: Literal["insert", "delete"],
    workbook: int | str,
    dimension: str,
    start: int | str,
    count: int,
    sheet: str | None,
) -> dict[str, Any]:
    wb = A.workbook(ctx, workbook)
    axis = A.dimension(dimension)
    sheets.change_dimension(
        ctx.session, ctx.actor, wb, op, sheet=sheet, axis=axis, start=start, count=count
    )
    return {"ok": True, **A.cut_short(ctx, wb)}


@tool("write")
def sheets_insert_dimension(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    dimension: A.Dimension,
    start: A.Start,
    count: A.Count = 1,
    sheet: A.SheetOpt = None,
) -> dict[str, Any]:
    """Insert empty rows before row `start` (or columns before column `start`); cells,
    formulas, named ranges and pivots below or to the right move along."""
    return _change_dimension(ctx, "insert", workbook, dimension, start, count, sheet)


@tool("write")
def sheets_delete_dimension(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    dimension: A.Dimension,
    start: A.Start,
    count: A.Count = 1,
    sheet: A.SheetOpt = None,
) -> dict[str, Any]:
    """Delete rows from row `start` (or columns from column `start`); formulas that named
    deleted cells show #REF!."""
    return _change_dimension(ctx, "delete", workbook, dimension, start, count, sheet)


@tool("write")
def sheets_sort_range(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    range: A.RangeRef,
    by: Annotated[
        list[SortKey], Field(description="Columns to sort by, most important first.", min_length=1)
    ],
    header: A.Header = False,
    sheet: A.SheetOpt = None,
) -> dict[str, Any]:
    """Sort the rows of a range by one or more columns (blanks last)."""
    wb = A.workbook(ctx, workbook)
    keys = [(k.column, k.descending) for k in by]
    area = sheets.sort_range(ctx.session, ctx.actor, wb, range, keys, sheet=sheet, header=header)
    return A.written(ctx, wb, area)


@tool("write")
def sheets_remove_duplicates(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    range: A.RangeRef,
    columns: Annotated[
        list[str],
        Field(
            description="Column letters that make rows duplicates (default: all columns of "
            "the range)."
        ),
    ] = (),
    header: A.Header = False,
    sheet: A.SheetOpt = None,
) -> dict[str, Any]:
    """Delete the rows of a range that repeat an earlier row (text compared in any case),
    moving the rest up."""
    wb = A.workbook(ctx, workbook)
    n = sheets.remove_duplicates(
        ctx.session, ctx.actor, wb, range, columns=columns, sheet=sheet, header=header
    )
    return {"ok": True, "removed_rows": n, **A.cut_short(ctx, wb)}


@tool("write")
def sheets_fill_range(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    range: A.RangeRef,
    direction: Annotated[
        Literal["down", "right"],
        Field(description="down: copy the first row into the rest; right: the first column."),
    ] = "down",
    sheet: A.SheetOpt = None,
) -> dict[str, Any]:
    """Fill a range from its first row (down) or first column (right), as dragging the
    fill handle does: relative references in formulas move along, $-anchored ones stay."""
    wb = A.workbook(ctx, workbook)
    area = sheets.fill_range(ctx.session, ctx.actor, wb, range, direction=direction, sheet=sheet)
    return A.written(ctx, wb, area)


@tool("write")
def sheets_copy_range(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    source: A.RangeRef,
    destination: Annotated[
        str, Field(description="Top-left cell to paste at, e.g. 'F2' or 'Summary!A1'.")
    ],
    sheet: A.SheetOpt = None,
) -> dict[str, Any]:
    """Copy and paste a range (values, formulas, formats); relative references move by
    the offset."""
    wb = A.workbook(ctx, workbook)
    area = sheets.copy_range(ctx.session, ctx.actor, wb, source, destination, sheet=sheet)
    return A.written(ctx, wb, area)


@tool("write")
def sheets_set_number_format(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    range: A.RangeRef,
    format: Annotated[
        str,
        Field(
            description="A preset (general, number, integer, currency, currency_rounded, "
            "percent, percent_decimal, date, date_us, month, text) or a format code such as "
            "'#,##0.00' or 'yyyy-mm-dd'."
        ),
    ],
    sheet: A.SheetOpt = None,
) -> dict[str, Any]:
    """Change how the numbers of a range are shown (values stay the same)."""
    wb = A.workbook(ctx, workbook)
    area = sheets.set_number_format(ctx.session, ctx.actor, wb, range, format, sheet=sheet)
    return {"ok": True, "updated_range": area.label()}


@tool("write")
def sheets_create_workbook(
    ctx: ToolContext,
    *,
    name: Annotated[str, Field(description="The workbook's name.")],
    sheets_: Annotated[
        list[str] | None,
        Field(alias="sheets", description="Names of its sheets (default: one 'Sheet1')."),
    ] = None,
) -> dict[str, Any]:
    """Create a workbook that you own."""
    wb = sheets.create_workbook(ctx.session, ctx.actor, name, sheets_)
    return {"ok": True, "workbook": A.workbook_view(ctx, wb)}


@tool("write")
def sheets_rename_workbook(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    name: Annotated[str, Field(description="The new name.")],
) -> dict[str, Any]:
    """Rename a workbook you can edit."""
    wb = sheets.rename_workbook(ctx.session, ctx.actor, A.workbook(ctx, workbook), name)
    return {"ok": True, "workbook": A.workbook_view(ctx, wb)}


@tool("write")
def sheets_delete_workbook(ctx: ToolContext, *, workbook: A.WorkbookRef) -> dict[str, Any]:
    """Delete a workbook you own, with everything in it."""
    wb = A.workbook(ctx, workbook)
    sheets.delete_workbook(ctx.session, ctx.actor, wb)
    return {"ok": True, "deleted": wb.name}


@tool("write")
def sheets_create_sheet(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    name: A.SheetName,
    position: Annotated[
        int | None, Field(description="Tab position, 0 = first (default: last).", ge=0)
    ] = None,
) -> dict[str, Any]:
    """Add an empty sheet (tab) to a workbook."""
    wb = A.workbook(ctx, workbook)
    sheets.add_sheet(ctx.session, ctx.actor, wb, name, position=position)
    return {"ok": True, "workbook": A.workbook_view(ctx, wb)}


@tool("write")
def sheets_rename_sheet(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    sheet: A.SheetName,
    name: Annotated[str, Field(description="The new name.")],
) -> dict[str, Any]:
    """Rename a sheet; formulas that name it follow."""
    wb = A.workbook(ctx, workbook)
    sheets.rename_sheet(
        ctx.session, ctx.actor, wb, sheets.sheet_named(ctx.session, wb, sheet), name
    )
    return {"ok": True, "workbook": A.workbook_view(ctx, wb)}


@tool("write")
def sheets_delete_sheet(
    ctx: ToolContext, *, workbook: A.WorkbookRef, sheet: A.SheetName
) -> dict[str, Any]:
    """Delete a sheet and its cells; formulas elsewhere that named it show #REF!."""
    wb = A.workbook(ctx, workbook)
    sheets.delete_sheet(ctx.session, ctx.actor, wb, sheets.sheet_named(ctx.session, wb, sheet))
    return {"ok": True, "workbook": A.workbook_view(ctx, wb)}


@tool("write")
def sheets_freeze_rows(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    rows: Annotated[
        int, Field(description="How many top rows stay visible when scrolling (0-50).", ge=0, le=50)
    ],
    sheet: A.SheetOpt = None,
) -> dict[str, Any]:
    """Freeze the top rows of a sheet (0 unfreezes)."""
    wb = A.workbook(ctx, workbook)
    sheets.freeze_rows(ctx.session, ctx.actor, wb, sheets.sheet_named(ctx.session, wb, sheet), rows)
    return {"ok": True}


@tool("write")
def sheets_share_workbook(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    person: Annotated[
        str,
        Field(description="Handle, email or full name of the person."),
        Ref("org_person", ("handle", "email", "name")),
    ],
    role: Annotated[
        Literal["viewer", "editor", "none"],
        Field(description="viewer, editor, or none to remove their access."),
    ],
) -> dict[str, Any]:
    """Share a workbook with a colleague as viewer or editor, or take their access away."""
    wb = A.workbook(ctx, workbook)
    if not person.strip():
        raise Invalid("give the person's handle, email or full name")
    who = org.find_person(ctx.session, person)
    done = sheets.share_workbook(ctx.session, ctx.actor, wb, who, None if role == "none" else role)
    return {"ok": True, "person": who.handle, "role": done}


@tool("write")
def sheets_import_csv(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    csv: Annotated[str, Field(description="CSV text, first line usually the headers.")],
    sheet: A.SheetOpt = None,
    at: Annotated[str, Field(description="Top-left cell to put it at.")] = "A1",
    new_sheet: Annotated[
        str | None, Field(description="Put it in a new sheet of this name instead.")
    ] = None,
) -> dict[str, Any]:
    """Type CSV text into a sheet (numbers, dates and formulas read as typed)."""
    wb = A.workbook(ctx, workbook)
    area = sheets.import_csv(
        ctx.session, ctx.actor, wb, csv, sheet=sheet, at=at, new_sheet=new_sheet
    )
    return A.written(ctx, wb, area)


@tool("read")
def sheets_export_csv(
    ctx: ToolContext, *, workbook: A.WorkbookRef, sheet: A.SheetOpt = None
) -> dict[str, Any]:
    """One sheet as CSV text, cells as shown."""
    wb = A.workbook(ctx, workbook)
    return {"csv": sheets.export_csv(ctx.session, ctx.actor, wb, sheet=sheet)}


@tool("read")
def sheets_filter_rows(
    ctx: ToolContext,
    *,
    workbook: A.WorkbookRef,
    range: A.RangeRef,
    column: Annotated[str, Field(description="Column letter to test, e.g. 'C'.")],
    condition: Annotated[
        str,
        Field(
            description="A criterion as COUNTIF takes it: 'East', '>1000', '<>Closed', "
            "'Acme*', '' for blanks."
        ),
    ],
    header: A.Header = True,
    sheet: A.SheetOpt = None,
) -> dict[str, Any]:
    """The rows of a range whose column meets a condition (a filter view: nothing changes)."""
    from officegym.apps.sheets.functions.criteria import matcher
    from officegym.apps.sheets.refs import col_index

    wb = A.workbook(ctx, workbook)
    block = sheets.read_range(ctx.session, ctx.actor, wb, range, sheet=sheet)
    c = col_index(column.strip().upper()) - block.area.c1 if column.strip().isalpha() else -1
    if not 0 <= c < block.area.cols:
        raise Invalid(f"column {column!r} is not in {block.label}")
    test = matcher(condition)
    raw = sheets.book(ctx.session, wb.id).sheets[block.sheet.id].values
    rows = block.rows[1:] if header else block.rows
    first = block.area.r1 + (1 if header else 0)
    hits = [
        {"row": first + i, "values": r}
        for i, r in enumerate(rows)
        if test(raw.get((first + i, block.area.c1 + c)))
    ]
    return {
        "header": block.rows[0] if header and block.rows else None,
        "rows": hits[:500],
        "matched": len(hits),
    }
