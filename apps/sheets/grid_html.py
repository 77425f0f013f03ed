"""The grid's cells as HTML, written here rather than in the template: a window is 250
cells, and Jinja's escaping and calls per attribute made them most of the time a grid
request took. The markup is the template's (`templates/sheets/_grid_table.html` puts
a row's cells in place): every cell an ``<input>`` whose id is its A1 address."""

from __future__ import annotations

from html import escape as _e

from markupsafe import Markup

from officegym.apps.sheets.views import CellView, Grid

__all__ = ["row_cells"]

LOCKED = ' title="Computed by a pivot table (read-only)"'


def row_cells(
    g_: Grid, row: int, cells: list[CellView], role: str | None, formulas: bool
) -> Markup:
    """The ``<td>`` of each cell of one row of the window."""
    sel, left, viewer = g_.selection, g_.left, role == "viewer"
    return Markup(
        "".join(
            _cell(c, row, left + i, sel.contains(row, left + i), viewer, formulas)
            for i, c in enumerate(cells)
        )
    )


def _cell(cell: CellView, row: int, col: int, selected: bool, viewer: bool, formulas: bool) -> str:
    """One cell; its address, kind and number are plain ASCII, the rest is escaped."""
    kind = cell.kind + (" sel" if selected else "") + (" locked" if cell.locked else "")
    extra = ""
    if cell.spill:
        extra += f' data-anchor="{cell.anchor}" data-spill="{_e(cell.spill)}"'
    if cell.number:
        extra += f' data-n="{cell.number}"'
    title = LOCKED if cell.locked else f' title="{_e(cell.note)}"' if cell.note else ""
    readonly = " readonly" if viewer or cell.locked else ""
    value = _e(cell.input if formulas else cell.shown)
    name = cell.address.lower()
    return (
        f'<td role="presentation" class="{kind}"><input name="{name}" '
        f'aria-label="{cell.address}" value="{value}" data-input="{_e(cell.input)}"{extra} '
        f'data-col="{col}" id="{name}" data-og-id="{name}"{readonly}{title} '
        'autocomplete="off"></td>'
    )
