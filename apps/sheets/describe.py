"""A change of the history in words, as a person reads it on the History page
("Changed B2 from 10 to 12 in Orders!B2", "Sorted Vendors!A1:C17 by column A, Z→A"),
from the `sheets_change` row `history.record` wrote (its action, target and JSON
detail). Unknown actions fall back to their name and target, never to raw JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from officegym.apps.sheets.models import Change

__all__ = ["describe"]

SHOWN = 5  # cell changes spelled out per row


def _cell(v: Any) -> str:
    return "(blank)" if v in (None, "") else f"“{v}”"


def _cells(c: Change, d: Any) -> str:
    verb = VERBS.get(c.action, c.action.replace("_", " ").capitalize() + ":")
    if not isinstance(d, list) or not d:
        return f"{verb} {c.target} (no cell changed)"
    parts = [f"{x['cell']} {_cell(x.get('before'))} → {_cell(x.get('after'))}" for x in d[:SHOWN]]
    more = f" and {len(d) - SHOWN} more" if len(d) > SHOWN else ""
    return f"{verb} {c.target}: {'; '.join(parts)}{more}"


VERBS = {"write": "Typed into", "copy": "Pasted into", "clear": "Cleared", "append": "Appended to",
         "fill_down": "Filled down", "fill_right": "Filled right", "fill_series": "Filled",
         "undo": "Undid:", "redo": "Redid:"}  # fmt: skip


MERGED = {"columns": " column by column", "rows": " row by row"}


def _sort(c: Change, d: Any) -> str:
    keys = d.get("by", []) if isinstance(d, dict) else []
    words = []
    for k in keys:  # "C desc" as `sort_range` records it
        col, _, order = str(k).partition(" ")
        words.append(f"column {col}, {'Z→A' if order == 'desc' else 'A→Z'}")
    return f"Sorted {c.target}" + (f" by {'; then '.join(words)}" if words else "")


def _pivot(c: Change, d: Any) -> str:
    d = d if isinstance(d, dict) else {}
    values = ", ".join(f"{v.get('summary')} of {v.get('field')}" for v in d.get("values", []))
    rows, cols = ", ".join(d.get("rows", [])), ", ".join(d.get("columns", []))
    what = "; ".join(x for x in (rows and f"rows {rows}", cols and f"columns {cols}", values) if x)
    return f"Created a pivot table {c.target} ({what})"


PHRASES: dict[str, Callable[[Change, Any], str]] = {
    "sort": _sort,
    "create_pivot": _pivot,
    "format": lambda c, d: f"Formatted {c.target} as {d.get('format')}",
    "freeze_rows": lambda c, d: f"Froze {d.get('rows')} row(s) of {c.target}",
    "share": lambda c, d: f"Shared with @{c.target} as {d.get('role') or 'no access'}",
    "link_access": lambda c, d: f"Set link access to {c.target}",
    "create_workbook": lambda c, d: f"Created the workbook {c.target}",
    "rename_workbook": lambda c, d: f"Renamed the workbook from {d.get('old')} to {c.target}",
    "delete_workbook": lambda c, d: f"Deleted the workbook {c.target}",
    "add_sheet": lambda c, d: f"Added the sheet {c.target}",
    "rename_sheet": lambda c, d: f"Renamed the sheet {d.get('old')} to {c.target}",
    "delete_sheet": lambda c, d: f"Deleted the sheet {c.target}",
    "define_name": lambda c, d: f"Named {d.get('range')} {c.target}",
    "delete_name": lambda c, d: f"Deleted the name {c.target}",
    "refresh_pivot": lambda c, d: f"Refreshed the pivot table at {c.target}",
    "delete_pivot": lambda c, d: f"Deleted the pivot table at {c.target}",
    "insert_rows": lambda c, d: f"Inserted rows {c.target}",
    "delete_rows": lambda c, d: f"Deleted rows {c.target}",
    "insert_cols": lambda c, d: f"Inserted columns {c.target}",
    "delete_cols": lambda c, d: f"Deleted columns {c.target}",
    "move_sheet": lambda c, d: f"Moved the sheet {c.target} to position {d.get('index', 0) + 1}",
    "merge": lambda c, d: f"Merged {c.target}" + MERGED.get(str(d.get("how")), ""),
    "unmerge": lambda c, d: f"Unmerged {c.target}",
    "remove_duplicates": lambda c, d: (
        f"Removed {d.get('removed')} duplicate row(s) from {c.target}"
    ),
}


def describe(c: Change) -> str:
    """One sentence saying what the change did."""
    try:
        detail = json.loads(c.detail) if c.detail else {}
    except ValueError:
        detail = c.detail
    phrase = PHRASES.get(c.action)
    try:
        if phrase is not None:
            return phrase(c, detail if isinstance(detail, dict | list) else {})
        if isinstance(detail, list):
            return _cells(c, detail)
    except (AttributeError, KeyError, TypeError):
        pass
    return f"{c.action.replace('_', ' ').capitalize()} {c.target}".strip()
