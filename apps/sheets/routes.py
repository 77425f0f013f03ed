"""The spreadsheet's pages: the workbook list, and a workbook's grid — a bounded window of
one sheet with column letters and row numbers, a name box to jump to a range, a
formula bar, sheet tabs, and a toolbar (fill, insert/delete rows and columns, sort,
filter, number formats, clear, remove duplicates). Pivot tables, named ranges,
sharing, history and files have pages of their own (`routes_data.py`).

Plain forms (POST, then redirect back to the same window and selection); every cell
and control carries a stable id: a cell's id is its A1 address in lower case (``b5``),
so ``fill('b10', '=SUM(B2:B9)')`` then ``click('grid-save')`` types a formula.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, flash, g, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from officegym.apps.org import service as org
from officegym.apps.sheets import grid_html, grid_memory, views
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.formats import PRESETS
from officegym.apps.sheets.models import Workbook
from officegym.apps.sheets.refs import Area, a1, col_letters, parse_area
from officegym.errors import Invalid
from officegym.web import flash_errors

bp = Blueprint("sheets", __name__, template_folder="templates", static_folder="static")
bp.add_app_template_filter(col_letters, "col")
bp.add_app_template_global(grid_html.row_cells, "grid_cells")
KEEP = ("sheet", "at", "sel", "end", "filter_col", "filter", "keep", "formulas")
WINDOW_HEADER = "X-Grid-Window"  # sent by grid_server.js: answer a save with the window


def workbook(wb_id: int) -> Workbook:
    return sheets.find_workbook(g.db, g.actor, wb_id)


def back(wb: Workbook, **changes: Any) -> BaseResponse | str:
    """Redirect to the grid with the form's window and selection (some changed); a
    script's save (`WINDOW_HEADER`) is answered with that window itself, sparing the
    browser a second request and the server the whole page."""
    params = {k: request.form.get(k) for k in KEEP if request.form.get(k)}
    params.update({k: v for k, v in changes.items() if v is not None})
    if request.headers.get(WINDOW_HEADER) == "1":
        return render(
            "sheets/grid_window.html",
            wb=wb,
            g_=_window(wb, params),
            role=sheets.role_of(g.db, g.actor, wb),
            formulas=params.get("formulas") == "1",
        )
    return redirect(url_for("sheets.grid", wb_id=wb.id, **params))


def _window(wb: Workbook, args: Mapping[str, str]) -> views.Grid:
    """The window `args` name; one they name wrongly is flashed, and the sheet shown."""
    try:
        return views.grid(g.db, g.actor, wb, args)
    except Invalid as exc:
        flash(exc.message, "error")
        return views.grid(g.db, g.actor, wb, {"sheet": args.get("sheet", "")})


def render(template: str, **context: Any) -> str:
    return render_template(template, presets=PRESETS, **context)


@bp.get("/")
def index() -> str:
    """Every workbook the signed-in person can open, and forms to make or import one."""
    found = sheets.list_workbooks(g.db, g.actor, query=request.args.get("q") or None)
    roles = {w.id: sheets.role_of(g.db, g.actor, w) for w in found}
    owners = {w.owner_id: org.profile(g.db, w.owner_id).name for w in found}
    return render(
        "sheets/index.html",
        workbooks=found,
        roles=roles,
        owners=owners,
        q=request.args.get("q", ""),
    )


@bp.post("/new")
def create() -> BaseResponse:
    with flash_errors():
        wb = sheets.create_workbook(g.db, g.actor, request.form.get("name", ""))
        return redirect(url_for("sheets.grid", wb_id=wb.id))
    return redirect(url_for("sheets.index"))


@bp.get("/<int:wb_id>")
def grid(wb_id: int) -> str | BaseResponse:
    """A window of one sheet; ``sel`` is the selection, ``at`` the window's top-left; a
    sheet tab's link (``tab=1``) goes to the view last seen of its sheet."""
    wb = workbook(wb_id)
    if request.args.get("tab"):
        args = grid_memory.recall(session, g.actor.id, wb, request.args)
        return redirect(
            url_for("sheets.grid", wb_id=wb.id, **{k: v for k, v in args.items() if k != "tab"})
        )
    args = request.args
    window = _window(wb, args)
    grid_memory.remember(session, g.actor.id, wb, window)
    formulas = args.get("formulas") == "1"
    shown = {"formulas": "1"} if formulas else {}
    return render(
        "sheets/grid.html",
        wb=wb,
        g_=window,
        tabs=sheets.sheets_of(g.db, wb),
        role=sheets.role_of(g.db, g.actor, wb),
        formulas=formulas,
        move=lambda **k: url_for(
            "sheets.grid", wb_id=wb.id, **views.window_link(window, **k), **shown
        ),
        here=views.view_params(window),
    )


@bp.post("/<int:wb_id>/cells")
def save_cells(wb_id: int) -> BaseResponse | str:
    """Save the grid: cells whose text differs from what they showed are typed in."""
    wb = workbook(wb_id)
    sheet, cells = views.posted(g.db, wb, request.form)
    show_inputs = request.form.get("formulas") == "1"
    changed = {}
    for cell in cells:
        posted = request.form[cell.address.lower()]
        if posted != (cell.input if show_inputs else cell.shown):
            changed[cell.address] = posted if posted != "" else None
    label = f"{sheet.name}!{', '.join(sorted(changed))[:150]}"
    with flash_errors(), _undoable(wb, "write", label):
        n = sheets.write_cells(g.db, g.actor, wb, changed, sheet=sheet.name)
        flash(f"Saved {n} cell{'s' if n != 1 else ''}." if n else "Nothing changed.")
    return back(wb, keep=_kept(list(changed)))


def _kept(edited: list[str]) -> str | None:
    """Under a filter, the rows shown stay shown after an edit (Sheets filters again only
    when the filter changes): the edited rows join the form's ``keep`` parameter."""
    form = request.form
    if not form.get("filter_col") or not edited:
        return None
    rows = set(views.kept_rows(form.get("keep", "")))
    for ref in edited:
        with contextlib.suppress(Invalid):
            rows.add(parse_area(ref).r1)
    return ",".join(str(r) for r in sorted(rows)[: views.MAX_KEPT])


@bp.post("/<int:wb_id>/formula")
def save_formula(wb_id: int) -> BaseResponse | str:
    """The formula bar: type its text into the selected cell."""
    wb = workbook(wb_id)
    cell = request.form.get("cell", "")
    with flash_errors(), _undoable(wb, "write", f"{request.form.get('sheet', '')}!{cell}"):
        text = request.form.get("text", "")
        sheets.write_cells(g.db, g.actor, wb, {cell: text or None}, sheet=request.form.get("sheet"))
        flash(f"{cell} saved.")
        return back(wb, keep=_kept([cell]))
    return back(wb)


@bp.post("/<int:wb_id>/paste")
def paste(wb_id: int) -> BaseResponse | str:
    """Paste at the selection: a range copied (or cut) on a page of this workbook, formulas
    moved as Sheets moves them (``source``, ``cut=1``), or text copied elsewhere, one row a
    line and cells split by tabs (``text``)."""
    wb = workbook(wb_id)
    form, sheet = request.form, request.form.get("sheet") or None
    dest = _selection()
    with flash_errors(), _undoable(wb, "move" if form.get("cut") == "1" else "paste", dest.a1()):
        if form.get("source"):
            done = sheets.copy_range(g.db, g.actor, wb, form["source"], dest.a1(), sheet=sheet)
            if form.get("cut") == "1":
                _clear_cut(wb, form["source"], done)
        else:
            rows = [line.split("\t") for line in form.get("text", "").rstrip("\n").split("\n")]
            done = sheets.write_range(g.db, g.actor, wb, a1(dest.r1, dest.c1), rows, sheet=sheet)
        flash(f"Pasted into {done.label()}.")
        return back(wb, sel=Area(done.r1, done.c1, done.r2, done.c2).a1())
    return back(wb)


def _clear_cut(wb: Workbook, source: str, pasted: Area) -> None:
    """After pasting a cut range, clear what of the source the paste did not cover."""
    src_sheet, src = sheets.locate(g.db, wb, source, None)
    if src_sheet.name != pasted.sheet or not _overlap(src, pasted):
        sheets.clear_range(g.db, g.actor, wb, src.a1(), sheet=src_sheet.name)
        return
    left = [
        a1(r, c)
        for r in range(src.r1, src.r2 + 1)
        for c in range(src.c1, src.c2 + 1)
        if not pasted.contains(r, c)
    ]
    if left:
        sheets.write_cells(g.db, g.actor, wb, dict.fromkeys(left), sheet=src_sheet.name)


def _overlap(a: Area, b: Area) -> bool:
    return a.r1 <= b.r2 and b.r1 <= a.r2 and a.c1 <= b.c2 and b.c1 <= a.c2


def _selection() -> Area:
    return views.parse_selection(request.form.get("sel"), Area(1, 1, 1, 1))


def _toolbar(wb: Workbook, op: str, sheet: str, sel: Area) -> str:
    """Run one toolbar button on the selection; returns what to tell the person."""
    s, me, ref = g.db, g.actor, sel.a1()
    form = request.form
    if op in ("fill_down", "fill_right"):
        sheets.fill_range(s, me, wb, ref, direction=op.removeprefix("fill_"), sheet=sheet)
        return f"Filled {ref} {op.removeprefix('fill_')}."
    if op == "fill_series":  # the fill handle, dragged to the cell `to`
        done = sheets.fill_series(s, me, wb, ref, form.get("to", ""), sheet=sheet)
        return f"Filled {done.a1()} from {ref}."
    if op in ("insert_rows", "delete_rows", "insert_cols", "delete_cols"):
        axis = "row" if op.endswith("rows") else "col"
        start, count = (sel.r1, sel.rows) if axis == "row" else (sel.c1, sel.cols)
        change = "insert" if op.startswith("insert") else "delete"
        sheets.change_dimension(s, me, wb, change, sheet=sheet, axis=axis, start=start, count=count)
        return f"{op.replace('_', ' ').capitalize()}: {count}."
    if op == "sort":
        keys = [(form.get("sort_column", ""), form.get("sort_order") == "desc")]
        header = form.get("sort_header") == "on"
        if sel.size == 1:  # one cell: its data region, whose first row is the header
            ref, header = _region(wb, sheet, sel).a1(), True
        sheets.sort_range(s, me, wb, ref, keys, sheet=sheet, header=header)
        return f"Sorted {ref}{' (header row kept on top)' if header else ''}."
    if op == "dedupe":
        n = sheets.remove_duplicates(
            s, me, wb, ref, sheet=sheet, header=form.get("sort_header") == "on"
        )
        return f"Removed {n} duplicate row{'s' if n != 1 else ''}."
    if op == "format":
        sheets.set_number_format(s, me, wb, ref, form.get("format", "general"), sheet=sheet)
        return f"Formatted {ref}."
    if op == "clear":
        n = sheets.clear_range(s, me, wb, ref, sheet=sheet)
        return f"Cleared {n} cell{'s' if n != 1 else ''}."
    raise Invalid(f"unknown action {op!r}")


def _region(wb: Workbook, sheet: str, sel: Area) -> Area:
    """The data region around a single selected cell (what Sheets sorts from one cell)."""
    data = sheets.book(g.db, wb.id).sheets[sheets.sheet_named(g.db, wb, sheet).id]
    return views.data_region(data, sel.r1, sel.c1)


@bp.post("/<int:wb_id>/action")
def action(wb_id: int) -> BaseResponse | str:
    """A toolbar button (fill, insert/delete, sort, dedupe, format, clear) on the selection."""
    wb = workbook(wb_id)
    op, sel = request.form.get("op", ""), _selection()
    if op in ("undo", "redo"):
        return _undo(wb, op)
    with flash_errors(), _undoable(wb, op, sel.a1()):
        flash(_toolbar(wb, op, request.form.get("sheet", ""), sel))
    return back(wb)


def _undoable(wb: Workbook, action: str, target: str) -> contextlib.AbstractContextManager:
    """Keep the grid edit run in the block as one step of the person's undo (on the
    form's sheet; `target` names it, its sheet prefixed when it has none)."""
    name = request.form.get("sheet") or None
    sheet = sheets.sheet_named(g.db, wb, name)
    where = target if "!" in target else f"{sheet.name}!{target}"
    return sheets.track_undo(g.db, g.actor, wb, action, where, sheet_id=sheet.id)


def _undo(wb: Workbook, op: str) -> BaseResponse | str:
    """Undo or redo the person's latest grid edit; the range it changed is selected."""
    with flash_errors():
        words, area = (sheets.undo if op == "undo" else sheets.redo)(g.db, g.actor, wb)
        flash(f"{'Undid' if op == 'undo' else 'Redid'}: {words}.")
        return back(wb, sheet=area.sheet, sel=Area(area.r1, area.c1, area.r2, area.c2).a1())
    return back(wb)


@bp.post("/<int:wb_id>/sheets")
def sheet_tabs(wb_id: int) -> BaseResponse | str:
    """Add, rename, freeze or delete a sheet (``op``: add, rename, freeze, delete)."""
    wb = workbook(wb_id)
    op, form = request.form.get("op", ""), request.form
    with flash_errors():
        if op == "add":
            new = sheets.add_sheet(g.db, g.actor, wb, form.get("name", ""))
            return redirect(url_for("sheets.grid", wb_id=wb.id, sheet=new.name))
        current = sheets.sheet_named(g.db, wb, form.get("sheet"))
        if op == "rename":
            sheets.rename_sheet(g.db, g.actor, wb, current, form.get("name", ""))
            return redirect(url_for("sheets.grid", wb_id=wb.id, sheet=current.name))
        if op == "freeze":
            rows = request.form.get("rows", "0").strip()
            sheets.freeze_rows(g.db, g.actor, wb, current, int(rows) if rows.isdecimal() else -1)
            flash(f"{current.name}: {rows} frozen rows.")
            return redirect(url_for("sheets.grid", wb_id=wb.id, sheet=current.name))
        if op == "delete":
            sheets.delete_sheet(g.db, g.actor, wb, current)
            flash(f"Deleted sheet {current.name}.")
            return redirect(url_for("sheets.grid", wb_id=wb.id))
        raise Invalid(f"unknown sheet action {op!r}")
    return back(wb)


from officegym.apps.sheets import routes_data  # noqa: E402,F401  (registers its pages on bp)
