"""Spreadsheet operations: the only code that changes sheets state.

Every function takes the session first and the acting person second, enforces the
sharing rules of `access.py` (owner, editors, viewers, link access), never commits
and raises `officegym.errors` with a message an agent or a person can act on. Routes,
tools, the Google Sheets API, seeders and reference solutions call only this module.
The concepts live in sibling modules: workbooks and sheets (`workbooks`), cells
(`cells`), rows and columns (`structure`), pivot tables (`pivots`), files (`files`),
history (`history`); the formula engine is `engine` (with `compiler`, `functions`).
"""

from __future__ import annotations

from officegym.apps.sheets.access import find_workbook, require_edit, role_of, visible_ids
from officegym.apps.sheets.autofill import fill_series
from officegym.apps.sheets.cells import (
    MAX_READ,
    MAX_WRITE,
    Block,
    append_rows,
    clear_range,
    find_cells,
    json_value,
    read_range,
    set_number_format,
    write_cells,
    write_range,
)
from officegym.apps.sheets.cut import move_range
from officegym.apps.sheets.files import (
    attachment,
    export_csv,
    export_xlsx,
    import_csv,
    import_xlsx,
)
from officegym.apps.sheets.history import history
from officegym.apps.sheets.merges import merge_cells, merges_of, unmerge_cells
from officegym.apps.sheets.paste import copy_range, fill_range
from officegym.apps.sheets.pivots import create_pivot, delete_pivot, pivots_of, refresh_pivot
from officegym.apps.sheets.places import locate, sheet_named, sheets_of
from officegym.apps.sheets.spill import message as spill_note
from officegym.apps.sheets.spill import report as spill_report
from officegym.apps.sheets.store import book
from officegym.apps.sheets.structure import (
    change_dimension,
    remove_duplicates,
    sort_range,
)
from officegym.apps.sheets.undo import redo, undo
from officegym.apps.sheets.undo import track as track_undo
from officegym.apps.sheets.workbooks import (
    add_sheet,
    create_workbook,
    define_name,
    delete_name,
    delete_sheet,
    delete_workbook,
    freeze_cols,
    freeze_rows,
    list_workbooks,
    move_sheet,
    next_workbook_id,
    rename_sheet,
    rename_workbook,
    set_link_access,
    share_workbook,
    shares_of,
)

__all__ = [
    "MAX_READ",
    "MAX_WRITE",
    "Block",
    "add_sheet",
    "append_rows",
    "attachment",
    "book",
    "change_dimension",
    "clear_range",
    "copy_range",
    "create_pivot",
    "create_workbook",
    "define_name",
    "delete_name",
    "delete_pivot",
    "delete_sheet",
    "delete_workbook",
    "export_csv",
    "export_xlsx",
    "fill_range",
    "fill_series",
    "find_cells",
    "find_workbook",
    "freeze_cols",
    "freeze_rows",
    "history",
    "import_csv",
    "import_xlsx",
    "json_value",
    "list_workbooks",
    "locate",
    "merge_cells",
    "merges_of",
    "move_range",
    "move_sheet",
    "next_workbook_id",
    "pivots_of",
    "read_range",
    "redo",
    "refresh_pivot",
    "remove_duplicates",
    "rename_sheet",
    "rename_workbook",
    "require_edit",
    "role_of",
    "set_link_access",
    "set_number_format",
    "share_workbook",
    "shares_of",
    "sheet_named",
    "sheets_of",
    "sort_range",
    "spill_note",
    "spill_report",
    "track_undo",
    "undo",
    "unmerge_cells",
    "visible_ids",
    "write_cells",
    "write_range",
]
