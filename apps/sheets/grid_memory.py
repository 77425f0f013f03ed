"""Each sheet's view as the person left it (window, selection, filter view), so a sheet
tab opens the sheet where they were, filter and all, as Sheets does. Kept in the signed
session cookie (never in the world's database: browsing changes no state a grader reads)."""

from __future__ import annotations

from collections.abc import Mapping

from flask import g, session

from officegym.apps.sheets.models import Workbook
from officegym.apps.sheets.views import Grid, window_link

__all__ = ["recall", "remember"]

KEEP = 12  # sheets remembered per browser session
_KEY = "sheets_views"


def _slot(wb: Workbook, sheet: str) -> str:
    """One person's view of one sheet (one browser may sign in as several people)."""
    return f"{g.actor.id}:{wb.id}:{sheet.lower()}"


def remember(wb: Workbook, window: Grid) -> None:
    """Note the view a grid page shows of its sheet (the newest KEEP are kept)."""
    params = window_link(window) | {"sel": window.selection.a1()}
    views: dict[str, dict[str, str]] = dict(session.get(_KEY, {}))
    slot = _slot(wb, window.sheet.name)
    views.pop(slot, None)
    views[slot] = params
    session[_KEY] = dict(list(views.items())[-KEEP:])


def recall(wb: Workbook, args: Mapping[str, str]) -> Mapping[str, str]:
    """A sheet tab's link (``tab=1``) as the view last seen of that sheet, if any; the
    link's own ``formulas`` setting holds for every sheet."""
    seen = session.get(_KEY, {}).get(_slot(wb, args.get("sheet", "")))
    if not seen:
        return args
    out = dict(seen)
    if args.get("formulas"):
        out["formulas"] = args["formulas"]
    return out
