"""Each sheet's view as the person left it (window, selection, filter view), so a sheet
tab opens the sheet where they were, filter and all, as Sheets does. The routes keep it
in the signed session cookie (never in the world's database: browsing changes no state
a grader reads); this module only reads and writes the mapping it is given."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from officegym.apps.sheets.models import Workbook
from officegym.apps.sheets.views import Grid, view_params

__all__ = ["recall", "remember"]

KEEP = 12  # sheets remembered per browser session
_KEY = "sheets_views"


def _slot(actor_id: int, wb: Workbook, sheet: str) -> str:
    """One person's view of one sheet (one browser may sign in as several people)."""
    return f"{actor_id}:{wb.id}:{sheet.lower()}"


def remember(store: MutableMapping[str, Any], actor_id: int, wb: Workbook, window: Grid) -> None:
    """Note in `store` the view a grid page shows of its sheet (the newest KEEP kept)."""
    params = view_params(window)
    views: dict[str, dict[str, str]] = dict(store.get(_KEY, {}))
    slot = _slot(actor_id, wb, window.sheet.name)
    views.pop(slot, None)
    views[slot] = params
    store[_KEY] = dict(list(views.items())[-KEEP:])


def recall(
    store: Mapping[str, Any], actor_id: int, wb: Workbook, args: Mapping[str, str]
) -> Mapping[str, str]:
    """A sheet tab's link (``tab=1``) as the view last seen of that sheet, if any; the
    link's own ``formulas`` setting holds for every sheet."""
    seen = store.get(_KEY, {}).get(_slot(actor_id, wb, args.get("sheet", "")))
    if not seen:
        return args
    out = dict(seen)
    if args.get("formulas"):
        out["formulas"] = args["formulas"]
    return out
