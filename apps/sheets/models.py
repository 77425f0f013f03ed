"""Spreadsheet state, shaped after Google Sheets: workbooks owned by a person of the
shared directory and shared with others as viewer or editor, ordered sheets, cells
stored sparsely (input as typed, computed value, type, number format), merged ranges,
named ranges, pivot tables as objects, and the change history graders read.

A cell row exists only where a cell has content or a format. Its computed value is
stored beside its input (`kind` says which column holds it), so graders and every
door read values from the database without a formula engine.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, get_args

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from officegym.db import CLOCK, DERIVED, Base, intpk

Role = Literal["viewer", "editor"]
LinkAccess = Literal["none", "viewer", "editor"]
Kind = Literal["blank", "number", "text", "bool", "error"]
Summary = Literal["SUM", "COUNT", "COUNTA", "AVERAGE", "MIN", "MAX"]
ROLES: tuple[Role, ...] = get_args(Role)
LINK_ACCESS: tuple[LinkAccess, ...] = get_args(LinkAccess)
SUMMARIES: tuple[Summary, ...] = get_args(Summary)


class Workbook(Base):
    __tablename__ = "sheets_workbook"

    id: Mapped[intpk]
    name: Mapped[str] = mapped_column(String(120), index=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)
    link_access: Mapped[str] = mapped_column(String(10), default="none")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)


class Share(Base):
    """A person's access to a workbook they do not own."""

    __tablename__ = "sheets_share"
    __table_args__ = (Index("ix_sheets_share_pair", "workbook_id", "person_id", unique=True),)

    id: Mapped[intpk]
    workbook_id: Mapped[int] = mapped_column(ForeignKey("sheets_workbook.id"))
    person_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)
    role: Mapped[str] = mapped_column(String(10))


class Sheet(Base):
    """A sheet of a workbook; its name is unique in the workbook."""

    __tablename__ = "sheets_sheet"
    __table_args__ = (Index("ix_sheets_sheet_name", "workbook_id", "name", unique=True),)

    id: Mapped[intpk]
    workbook_id: Mapped[int] = mapped_column(ForeignKey("sheets_workbook.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    position: Mapped[int] = mapped_column(Integer)
    frozen_rows: Mapped[int] = mapped_column(Integer, default=0)
    frozen_cols: Mapped[int] = mapped_column(Integer, default=0)


class Cell(Base):
    """One non-empty cell. `input` is what was typed (a formula starts with '='; None on
    a cell holding a value an array formula spilled there); the computed value is `num`
    (number, or 1/0 for a logical) or `text` (text, or the error code such as
    ``#DIV/0!``), as `kind` says. One row per address."""

    __tablename__ = "sheets_cell"
    __table_args__ = (Index("ix_sheets_cell_place", "sheet_id", "row", "col", unique=True),)

    id: Mapped[intpk]
    sheet_id: Mapped[int] = mapped_column(ForeignKey("sheets_sheet.id"))
    row: Mapped[int] = mapped_column(Integer)
    col: Mapped[int] = mapped_column(Integer)
    input: Mapped[str | None] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(8), default="blank")
    num: Mapped[float | None] = mapped_column(Float)
    text: Mapped[str | None] = mapped_column(
        Text, info={"alike": "the spreadsheet compares text whatever its case and spacing"}
    )
    fmt: Mapped[str | None] = mapped_column(String(60))
    # on a formula whose result is an array: its size, "3x2" ("!3x2" when blocked), so a
    # loaded workbook knows which cells hold its spilled values (spill.py)
    spill: Mapped[str | None] = mapped_column(String(24))


class NamedRange(Base):
    __tablename__ = "sheets_named_range"
    __table_args__ = (Index("ix_sheets_named_range_name", "workbook_id", "name", unique=True),)

    id: Mapped[intpk]
    workbook_id: Mapped[int] = mapped_column(ForeignKey("sheets_workbook.id"))
    name: Mapped[str] = mapped_column(String(100))
    sheet_id: Mapped[int] = mapped_column(ForeignKey("sheets_sheet.id"))
    r1: Mapped[int] = mapped_column(Integer)
    c1: Mapped[int] = mapped_column(Integer)
    r2: Mapped[int] = mapped_column(Integer)
    c2: Mapped[int] = mapped_column(Integer)


class Merge(Base):
    """A merged range of a sheet, as a file brought it: the top-left cell holds the
    value and the range shows as one cell. Kept from xlsx imports and written to
    exports."""

    __tablename__ = "sheets_merge"

    id: Mapped[intpk]
    sheet_id: Mapped[int] = mapped_column(ForeignKey("sheets_sheet.id"), index=True)
    r1: Mapped[int] = mapped_column(Integer)
    c1: Mapped[int] = mapped_column(Integer)
    r2: Mapped[int] = mapped_column(Integer)
    c2: Mapped[int] = mapped_column(Integer)


class Pivot(Base):
    """A pivot table: a source range, row and column groups, summarised values and
    filters, written to a target anchor and refreshed when its source changes.

    `rows`/`columns` are lists of source header names; `values` a list of
    ``{"field": header, "summary": "SUM"}``; `filters` ``{header: [allowed values]}``;
    `sort` how a group field is ordered (ascending by its labels when absent):
    ``{header: {"order": "DESCENDING", "value": index into values}}`` (Sheets' "Order"
    and "Sort by")."""

    __tablename__ = "sheets_pivot"

    id: Mapped[intpk]
    workbook_id: Mapped[int] = mapped_column(ForeignKey("sheets_workbook.id"), index=True)
    source_sheet_id: Mapped[int] = mapped_column(ForeignKey("sheets_sheet.id"))
    source: Mapped[str] = mapped_column(String(40))
    target_sheet_id: Mapped[int] = mapped_column(ForeignKey("sheets_sheet.id"))
    anchor: Mapped[str] = mapped_column(String(12))
    rows: Mapped[list] = mapped_column(JSON)
    columns: Mapped[list] = mapped_column(JSON)
    values: Mapped[list] = mapped_column(JSON)
    filters: Mapped[dict] = mapped_column(JSON)
    sort: Mapped[dict | None] = mapped_column(JSON)
    extent: Mapped[str] = mapped_column(String(40), default="")


class Change(Base):
    """One change to a workbook: who, when, what kind, where, and a detail line (for
    cell edits, the first cells' inputs before and after)."""

    __tablename__ = "sheets_change"
    __table_args__ = (DERIVED,)

    id: Mapped[intpk]
    workbook_id: Mapped[int] = mapped_column(Integer, index=True)  # kept after a deletion
    sheet_id: Mapped[int | None] = mapped_column(Integer)
    actor_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"))
    at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)
    action: Mapped[str] = mapped_column(String(30))
    target: Mapped[str] = mapped_column(String(200), default="")
    detail: Mapped[str] = mapped_column(Text, default="")


class UndoStep(Base):
    """One grid edit a person can undo and redo (`undo.py`): every cell it changed, as
    ``[sheet id, row, col, input before, format before, input after, format after]``.
    A step with no cells (`cells` null) is one the grid cannot undo (inserting rows, say):
    undo stops there and says so. `undone` steps are what redo does again; a new edit
    drops them, as in Sheets."""

    __tablename__ = "sheets_undo_step"
    __table_args__ = (DERIVED,)

    id: Mapped[intpk]
    workbook_id: Mapped[int] = mapped_column(Integer, index=True)
    actor_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"))
    action: Mapped[str] = mapped_column(String(30))
    target: Mapped[str] = mapped_column(String(200), default="")
    cells: Mapped[list | None] = mapped_column(JSON)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
