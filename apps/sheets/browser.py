"""Browser reference steps of the spreadsheet: each sheets tool call as actions on its
pages, by their stable element ids.

A write of cells opens the grid with the block's top-left selected (the window starts
there) and fills the cells, whose ids are their A1 addresses in lower case, then saves
the grid; blocks larger than the window are done a window at a time. Toolbar
operations select their range in the URL and press the button; pivots, named ranges,
sharing and files use their pages' forms. A read opens the grid (or list) showing the
same cells (for a filter, the filter view with the range's last column selected: the
status bar shows its sum and count). `world` is a read-only session on the task's initial
world, used only through the service (a workbook's id, a sheet's used rows for appends and reads).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session

from officegym.apps.browser_steps import act, goto
from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.sheets import browser_reads as R
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.browser_base import (
    Args,
    Make,
    fill_block,
    grid_url,
    place,
    text,
    workbook,
)
from officegym.apps.sheets.formats import PRESETS
from officegym.apps.sheets.models import Workbook
from officegym.apps.sheets.refs import Area, col_index, col_letters
from officegym.apps.sheets.views import COLS, ROWS, data_region
from officegym.web import stable_id

__all__ = ["STEPS"]


def _write_range(a: Args, w: Session, me: Person) -> list[str]:
    wb = workbook(w, me, a)
    sheet, area = place(w, wb, a["range"], a.get("sheet"))
    return fill_block(wb, sheet, area.r1, area.c1, a["values"])


def _append_rows(a: Args, w: Session, me: Person) -> list[str]:
    wb = workbook(w, me, a)
    sheet, area = place(w, wb, a.get("range") or "A:A", a.get("sheet"))
    cells = sheets.book(w, wb.id).sheets[sheets.sheet_named(w, wb, sheet).id].cells
    right = area.c2 if a.get("range") else 16_384
    last = max(
        (
            r
            for (r, c), st in cells.items()
            if area.c1 <= c <= right and (st.input or st.value is not None)
        ),
        default=0,
    )
    return fill_block(wb, sheet, last + 1, area.c1, a["values"])


def _toolbar(button: str, extra: Callable[[Args, Area], list[str]] | None = None) -> Make:
    def make(a: Args, w: Session, me: Person) -> list[str]:
        wb = workbook(w, me, a)
        sheet, area = place(w, wb, a["range"], a.get("sheet"))
        more = extra(a, area) if extra else []
        return [grid_url(wb, sheet, sel=area.a1()), *more, act("click", button)]

    return make


def _fill(a: Args, w: Session, me: Person) -> list[str]:
    return _toolbar(f"fill-{a.get('direction', 'down')}")(a, w, me)


def _sort(a: Args, w: Session, me: Person) -> list[str]:
    """One sort per key, least important first: the sort is stable, so the result is the
    multi-key order. A range that is its data region with a header row is sorted as in
    Sheets: click a cell of the key column below the header, choose the order, sort."""
    wb = workbook(w, me, a)
    sheet, area = place(w, wb, a["range"], a.get("sheet"))
    one_cell = a.get("header") and _is_region(w, wb, sheet, area)
    out = []
    for key in reversed(a["by"]):
        column = key["column"].upper()
        if one_cell:
            cell = f"{column}{area.r1 + 1}".lower()
            out += [grid_url(wb, sheet), act("click", cell)]
        else:
            out.append(grid_url(wb, sheet, sel=area.a1()))
        out += [
            act("select_option", "sort-column", column),
            act("select_option", "sort-order", "desc" if key.get("descending") else "asc"),
        ]
        out += [act("check", "sort-header")] if a.get("header") and not one_cell else []
        out.append(act("click", "sort-apply"))
    return out


def _is_region(w: Session, wb: Workbook, sheet: str, area: Area) -> bool:
    """Whether `area` is the data region of its cells and lies in the grid's first window
    (so its cells can be clicked on the page as it opens)."""
    if area.r2 > ROWS or area.c2 > COLS or area.rows < 2:
        return False
    data = sheets.book(w, wb.id).sheets[sheets.sheet_named(w, wb, sheet).id]
    found = data_region(data, area.r1 + 1, area.c1)
    return (found.r1, found.c1, found.r2, found.c2) == (area.r1, area.c1, area.r2, area.c2)


def _dedupe(a: Args, w: Session, me: Person) -> list[str]:
    if a.get("columns"):
        raise KeyError("the page removes rows duplicated in every column of the range")
    header = (lambda _a, _r: [act("check", "sort-header")]) if a.get("header") else None
    return _toolbar("dedupe", header)(a, w, me)


def _format(a: Args, w: Session, me: Person) -> list[str]:
    wanted = a["format"].strip()
    key = (
        wanted.lower()
        if wanted.lower() in PRESETS
        else next((k for k, c in PRESETS.items() if c == wanted), None)
    )
    if key is None:
        raise KeyError(f"the page offers the presets only, not {wanted!r}")
    return _toolbar("format-apply", lambda _a, _r: [act("select_option", "format-select", key)])(
        a, w, me
    )


def _lines(verb: str) -> Make:
    def make(a: Args, w: Session, me: Person) -> list[str]:
        wb = workbook(w, me, a)
        sheet = sheets.sheet_named(w, wb, a.get("sheet")).name
        count, start = a.get("count", 1), a["start"]
        if a["dimension"] == "rows":
            sel, button = f"A{start}:A{int(start) + count - 1}", f"{verb}-rows"
        else:
            first = (
                col_index(start.upper())
                if isinstance(start, str) and start.isalpha()
                else int(start)
            )
            sel, button = f"{col_letters(first)}1:{col_letters(first + count - 1)}1", f"{verb}-cols"
        return [grid_url(wb, sheet, sel=sel), act("click", button)]

    return make


def _page(path: str, *fields: tuple[str, str], submit: str, selects: tuple[str, ...] = ()) -> Make:
    """Open a workbook page, fill fields from the arguments (``(element, argument)``),
    press `submit`."""

    def make(a: Args, w: Session, me: Person) -> list[str]:
        wb = workbook(w, me, a)
        out = [goto(f"/sheets/{wb.id}{path}")]
        for element, arg in fields:
            if a.get(arg) is not None:
                verb = "select_option" if element in selects else "fill"
                out.append(act(verb, element, str(a[arg])))
        return [*out, act("click", submit)]

    return make


def _sheet_form(op: str) -> Make:
    def make(a: Args, w: Session, me: Person) -> list[str]:
        wb = workbook(w, me, a)
        if op == "add":
            if a.get("position") is not None:
                raise KeyError("the page adds sheets last")
            return [
                grid_url(wb),
                act("fill", "new-sheet-name", a["name"]),
                act("click", "new-sheet-add"),
            ]
        sheet = sheets.sheet_named(w, wb, a.get("sheet")).name
        if op == "rename":
            return [
                grid_url(wb, sheet),
                act("fill", "rename-sheet-name", a["name"]),
                act("click", "rename-sheet-save"),
            ]
        if op == "freeze":
            return [
                grid_url(wb, sheet),
                act("fill", "freeze-rows", str(a["rows"])),
                act("click", "freeze-save"),
            ]
        return [grid_url(wb, sheet), act("click", "delete-sheet")]

    return make


def _create_workbook(a: Args, w: Session, me: Person) -> list[str]:
    out = [
        goto("/sheets/"),
        act("fill", "new-workbook-name", a["name"]),
        act("click", "new-workbook-create"),
    ]
    names = a.get("sheets") or []
    if names:
        out += [act("fill", "rename-sheet-name", names[0]), act("click", "rename-sheet-save")]
    for name in names[1:]:
        out += [act("fill", "new-sheet-name", name), act("click", "new-sheet-add")]
    return out


def _create_pivot(a: Args, w: Session, me: Person) -> list[str]:
    wb = workbook(w, me, a)
    values, filters = a["values"], a.get("filters") or {}
    if not 1 <= len(values) <= 2 or len(filters) > 1:
        raise KeyError("the pivot editor takes one or two values and at most one filter")
    out = [
        goto(f"/sheets/{wb.id}/pivots"),
        act("fill", "pivot-source", a["source"]),
        act("fill", "pivot-anchor", a["anchor"]),
    ]
    for v, suffix in zip(values, ("", "-2"), strict=False):
        out += [
            act("fill", f"pivot-value-field{suffix}", v["field"]),
            act("select_option", f"pivot-summary{suffix}", v.get("summary", "SUM")),
        ]
    if a.get("rows"):
        out.append(act("fill", "pivot-rows", ", ".join(a["rows"])))
    if a.get("columns"):
        out.append(act("fill", "pivot-columns", ", ".join(a["columns"])))
    for field, allowed in filters.items():
        out += [
            act("fill", "pivot-filter-field", field),
            act("fill", "pivot-filter-values", ", ".join(text(x) for x in allowed)),
        ]
    return [*out, *_pivot_sort(a), act("click", "pivot-create")]


def _pivot_sort(a: Args) -> list[str]:
    """The editor's Order lines: each sorted group named on a line of its own, with its
    order and what it sorts by (its labels, or the first or second value's total)."""
    sort = a.get("sort") or []
    labels = [f"{v.get('summary', 'SUM')} of {v['field']}".lower() for v in a["values"]]
    if len(sort) > 4:
        raise KeyError("the pivot editor has four Order lines")
    out = []
    for i, x in enumerate(sort, start=1):
        by = x.get("by")
        out += [
            act("fill", f"pivot-order-field-{i}", x["field"]),
            act("select_option", f"pivot-order-{i}", str(x.get("order", "ascending")).upper()),
        ]
        if by is not None:
            if by.strip().lower() not in labels:
                raise KeyError(f"the pivot editor sorts by its own values, not {by!r}")
            out.append(
                act("select_option", f"pivot-order-by-{i}", str(labels.index(by.strip().lower())))
            )
    return out


def _pivot_button(verb: str) -> Make:
    def make(a: Args, w: Session, me: Person) -> list[str]:
        wb = workbook(w, me, a)
        return [
            goto(f"/sheets/{wb.id}/pivots"),
            act("click", stable_id("pivot", a["pivot_id"], verb)),
        ]

    return make


def _share(a: Args, w: Session, me: Person) -> list[str]:
    wb = workbook(w, me, a)
    who = org.find_person(w, a["person"]).handle
    if a["role"] == "none":
        return [goto(f"/sheets/{wb.id}/share"), act("click", stable_id("share", who, "remove"))]
    return [
        goto(f"/sheets/{wb.id}/share"),
        act("select_option", "share-person", who),
        act("select_option", "share-role", a["role"]),
        act("click", "share-submit"),
    ]


def _delete_name(a: Args, w: Session, me: Person) -> list[str]:
    wb = workbook(w, me, a)
    return [
        goto(f"/sheets/{wb.id}/names"),
        act("click", stable_id("name", a["name"].upper(), "delete")),
    ]


def _import_csv(a: Args, w: Session, me: Person) -> list[str]:
    wb = workbook(w, me, a)
    sheet = sheets.sheet_named(w, wb, a.get("sheet")).name
    out = [
        grid_url(wb, sheet),
        act("fill", "import-csv-text", a["csv"]),
        act("fill", "import-csv-at", a.get("at", "A1")),
    ]
    if a.get("new_sheet"):
        out.append(act("fill", "import-csv-new-sheet", a["new_sheet"]))
    return [*out, act("click", "import-csv-submit")]


STEPS: dict[str, Make] = {
    "sheets_list_workbooks": lambda a, w, me: [goto("/sheets/", q=a.get("query"))],
    "sheets_get_workbook": R.open_page(),
    "sheets_read_range": R.read,
    "sheets_find_cells": R.find,
    "sheets_get_history": R.open_page("/history"),
    "sheets_filter_rows": R.filter_rows,
    "sheets_export_csv": lambda a, w, me: R.read({**a, "range": "A:ZZ"}, w, me),
    "sheets_write_range": _write_range,
    "sheets_append_rows": _append_rows,
    "sheets_clear_range": _toolbar("clear-range"),
    "sheets_fill_range": _fill,
    "sheets_copy_range": R.copy,
    "sheets_sort_range": _sort,
    "sheets_remove_duplicates": _dedupe,
    "sheets_set_number_format": _format,
    "sheets_insert_dimension": _lines("insert"),
    "sheets_delete_dimension": _lines("delete"),
    "sheets_create_sheet": _sheet_form("add"),
    "sheets_rename_sheet": _sheet_form("rename"),
    "sheets_delete_sheet": _sheet_form("delete"),
    "sheets_freeze_rows": _sheet_form("freeze"),
    "sheets_create_workbook": _create_workbook,
    "sheets_rename_workbook": _page(
        "/share", ("workbook-rename", "name"), submit="workbook-rename-save"
    ),
    "sheets_delete_workbook": _page("/share", submit="workbook-delete"),
    "sheets_create_pivot": _create_pivot,
    "sheets_refresh_pivot": _pivot_button("refresh"),
    "sheets_delete_pivot": _pivot_button("delete"),
    "sheets_define_name": _page(
        "/names", ("name-name", "name"), ("name-range", "range"), submit="name-define"
    ),
    "sheets_delete_name": _delete_name,
    "sheets_share_workbook": _share,
    "sheets_import_csv": _import_csv,
}
