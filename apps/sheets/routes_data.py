"""The spreadsheet's other pages, on the blueprint of `routes.py`: pivot tables (the
pivot editor), named ranges, sharing, history, renaming and deleting a workbook, and
files (xlsx import and export, CSV import and export)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Response, flash, g, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from officegym.apps.org import service as org
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.describe import describe
from officegym.apps.sheets.formats import format_value
from officegym.apps.sheets.models import SUMMARIES, Workbook
from officegym.apps.sheets.refs import split_sheet
from officegym.apps.sheets.routes import bp, render, workbook
from officegym.errors import Invalid, NotFound, OfficeGymError
from officegym.web import flash_errors


def _names(text: str) -> list[str]:
    """Field names typed as a comma-separated list."""
    return [x.strip() for x in text.split(",") if x.strip()]


ORDER_LINES = 4  # the editor's Order lines: one a group (rows and columns are 4 at most)
PIVOT_FIELDS = ("source", "anchor", "rows", "columns", "value_field", "summary",
                "value_field_2", "summary_2", "filter_field", "filter_values",
                *(f"{k}_{i}" for i in range(1, ORDER_LINES + 1)
                  for k in ("order_field", "order", "order_by")))  # fmt: skip


@bp.get("/<int:wb_id>/pivots")
def pivots(wb_id: int) -> str:
    """The pivot editor: the workbook's pivot tables and a form to make one (filled from
    the query after a refused attempt, so nothing typed is lost)."""
    wb = workbook(wb_id)
    found = sheets.sheets_of(g.db, wb)
    b = sheets.book(g.db, wb.id)
    headers = sorted(
        {str(v) for x in found for (r, _c), v in b.sheets[x.id].values.items() if r == 1 and v}
    )
    return render(
        "sheets/pivots.html",
        wb=wb,
        pivots=sheets.pivots_of(g.db, wb),
        tabs={x.id: x.name for x in found},
        summaries=SUMMARIES,
        fields=headers[:200],
        form={k: request.args.get(k, "") for k in PIVOT_FIELDS},
    )


def _pivot_values(f: Mapping[str, str]) -> list[dict[str, str]]:
    """The form's value lines (a field and how to summarise it), the blank ones left out."""
    lines = [("value_field", "summary"), ("value_field_2", "summary_2")]
    return [
        {"field": f.get(k, "").strip(), "summary": f.get(sk) or "SUM"}
        for k, sk in lines
        if f.get(k, "").strip() or k == "value_field"
    ]


def _pivot_target(wb: Workbook, anchor: str) -> None:
    """Create the sheet the anchor names when there is none yet (as Sheets does)."""
    named = split_sheet(anchor.strip())[0]
    if named and named.lower() not in {x.name.lower() for x in sheets.sheets_of(g.db, wb)}:
        sheets.add_sheet(g.db, g.actor, wb, named)


def _pivot_sort(f: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """The editor's Order lines (Sheets' "Order" and "Sort by" of each row or column
    group): a group named, ascending or descending, by its labels or by the first or
    second value's total. Lines naming no group are left out unless they ask for an order."""
    out: dict[str, dict[str, Any]] = {}
    for i in range(1, ORDER_LINES + 1):
        name = f.get(f"order_field_{i}", "").strip()
        order = f.get(f"order_{i}") or "ASCENDING"
        by = (f.get(f"order_by_{i}") or "").strip()
        if order not in ("ASCENDING", "DESCENDING") or by not in ("", "0", "1"):
            raise Invalid("order a group ascending or descending, by its labels or a value")
        if not name:
            if order != "ASCENDING" or by:
                raise Invalid(f"order line {i}: name the row or column group it orders")
            continue
        if name.lower() in {k.lower() for k in out}:
            raise Invalid(f"the group {name!r} is ordered on two lines")
        out[name] = {"order": order, **({"value": int(by)} if by else {})}
    return out


@bp.post("/<int:wb_id>/pivots")
def create_pivot(wb_id: int) -> BaseResponse:
    """Create a pivot table from the editor; on error, back to the editor with its fields."""
    wb = workbook(wb_id)
    f = request.form
    try:
        filters = {}
        if f.get("filter_field", "").strip():
            filters[f["filter_field"].strip()] = _names(f.get("filter_values", ""))
        _pivot_target(wb, f.get("anchor", ""))
        pivot = sheets.create_pivot(
            g.db,
            g.actor,
            wb,
            f.get("source", ""),
            f.get("anchor", ""),
            rows=_names(f.get("rows", "")),
            columns=_names(f.get("columns", "")),
            filters=filters,
            values=_pivot_values(f),
            sort=_pivot_sort(f),
        )
    except OfficeGymError as exc:
        g.db.rollback()
        flash(exc.message, "error")
        kept = {k: f.get(k) for k in PIVOT_FIELDS if f.get(k)}
        return redirect(url_for("sheets.pivots", wb_id=wb.id, **kept))
    target = next(x.name for x in sheets.sheets_of(g.db, wb) if x.id == pivot.target_sheet_id)
    flash(f"Pivot table {pivot.id} written at {target}!{pivot.extent}.")
    return redirect(url_for("sheets.grid", wb_id=wb.id, sheet=target, sel=pivot.anchor))


@bp.post("/<int:wb_id>/pivots/<int:pid>/<op>")
def pivot_action(wb_id: int, pid: int, op: str) -> BaseResponse:
    """Refresh or delete one pivot table."""
    wb = workbook(wb_id)
    pivot = next((p for p in sheets.pivots_of(g.db, wb) if p.id == pid), None)
    if pivot is None:
        raise NotFound(f"no pivot table {pid} in {wb.name!r}")
    with flash_errors():
        if op == "refresh":
            sheets.refresh_pivot(g.db, g.actor, wb, pivot)
        elif op == "delete":
            sheets.delete_pivot(g.db, g.actor, wb, pivot)
        else:
            raise Invalid(f"unknown pivot action {op!r}")
        flash(f"Pivot table {pid}: {op} done.")
    return redirect(url_for("sheets.pivots", wb_id=wb.id))


@bp.route("/<int:wb_id>/names", methods=["GET", "POST"])
def names(wb_id: int) -> str | BaseResponse:
    """Named ranges: the list, a form to define one, delete buttons."""
    wb = workbook(wb_id)
    if request.method == "POST":
        with flash_errors():
            if request.form.get("op") == "delete":
                sheets.delete_name(g.db, g.actor, wb, request.form.get("name", ""))
            else:
                sheets.define_name(
                    g.db, g.actor, wb, request.form.get("name", ""), request.form.get("range", "")
                )
            flash("Named ranges saved.")
        return redirect(url_for("sheets.names", wb_id=wb.id))
    b = sheets.book(g.db, wb.id)
    rows = [(n, b.sheets[sid].name, area) for n, (sid, area) in sorted(b.names.items())]
    return render("sheets/names.html", wb=wb, names=rows)


@bp.route("/<int:wb_id>/share", methods=["GET", "POST"])
def share(wb_id: int) -> str | BaseResponse:
    """Who has access; share with a person as viewer or editor, remove, link access."""
    wb = workbook(wb_id)
    if request.method == "POST":
        with flash_errors():
            if request.form.get("op") == "link":
                sheets.set_link_access(g.db, g.actor, wb, request.form.get("link_access", ""))
            else:
                person = org.find_person(g.db, request.form.get("person", "") or "?")
                role = request.form.get("role") or None
                sheets.share_workbook(g.db, g.actor, wb, person, None if role == "none" else role)
            flash("Sharing saved.")
        return redirect(url_for("sheets.share", wb_id=wb.id))
    people = org.list_people(g.db, limit=2000)
    return render(
        "sheets/share.html",
        wb=wb,
        shares=sheets.shares_of(g.db, wb),
        people=people,
        owner=org.profile(g.db, wb.owner_id),
        role=sheets.role_of(g.db, g.actor, wb),
    )


FIND_PAGE = 50  # matches per page of Find


@bp.get("/<int:wb_id>/find")
def find(wb_id: int) -> str:
    """Cells whose value (or formula) holds some text, a page at a time, each shown as the
    cell displays it (dates as dates, money with separators) with a link to it."""
    wb = workbook(wb_id)
    q, args = request.args.get("q", ""), request.args
    page = max(1, int(args["page"])) if args.get("page", "").isdecimal() else 1
    found: list[tuple[Any, int, int, str]] = []
    more = False
    if q.strip():
        hits = sheets.find_cells(
            g.db,
            g.actor,
            wb,
            q,
            sheet=args.get("sheet") or None,
            exact=args.get("exact") == "1",
            formulas=args.get("formulas") == "1",
            limit=page * FIND_PAGE + 1,
        )
        more = len(hits) > page * FIND_PAGE
        b = sheets.book(g.db, wb.id)
        for sh, r, c, _v in hits[(page - 1) * FIND_PAGE : page * FIND_PAGE]:
            st = b.sheets[sh.id].cells.get((r, c))
            found.append((sh, r, c, format_value(st.value, st.fmt) if st else ""))
    link = {k: v for k, v in args.items() if k != "page"}
    return render(
        "sheets/find.html", wb=wb, q=q, found=found, args=args, page=page, more=more, link=link
    )


@bp.get("/<int:wb_id>/history")
def history(wb_id: int) -> str:
    wb = workbook(wb_id)
    changes = sheets.history(g.db, wb, limit=100)
    who = {c.actor_id: org.profile(g.db, c.actor_id) for c in changes}
    return render("sheets/history.html", wb=wb, changes=changes, who=who, describe=describe)


@bp.post("/<int:wb_id>/settings")
def settings(wb_id: int) -> BaseResponse:
    """Rename or delete the workbook."""
    wb = workbook(wb_id)
    with flash_errors():
        if request.form.get("op") == "delete":
            sheets.delete_workbook(g.db, g.actor, wb)
            flash(f"Deleted {wb.name}.")
            return redirect(url_for("sheets.index"))
        sheets.rename_workbook(g.db, g.actor, wb, request.form.get("name", ""))
    return redirect(url_for("sheets.grid", wb_id=wb.id))


@bp.get("/<int:wb_id>/export.xlsx")
def export_xlsx(wb_id: int) -> Response:
    wb = workbook(wb_id)
    data = sheets.export_xlsx(g.db, g.actor, wb)
    kind = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    headers = {"Content-Disposition": sheets.attachment(wb.name, "xlsx")}
    return Response(data, mimetype=kind, headers=headers)


@bp.get("/<int:wb_id>/export.csv")
def export_csv(wb_id: int) -> Response:
    wb = workbook(wb_id)
    text = sheets.export_csv(g.db, g.actor, wb, sheet=request.args.get("sheet"))
    headers = {"Content-Disposition": sheets.attachment(wb.name, "csv")}
    return Response(text, mimetype="text/csv", headers=headers)


@bp.post("/<int:wb_id>/import-csv")
def import_csv(wb_id: int) -> BaseResponse:
    wb = workbook(wb_id)
    f = request.form
    with flash_errors():
        upload = request.files.get("file")
        text = (
            upload.read().decode("utf-8-sig", errors="replace")
            if upload and upload.filename
            else f.get("text", "")
        )
        area = sheets.import_csv(
            g.db,
            g.actor,
            wb,
            text,
            sheet=f.get("sheet") or None,
            at=f.get("at") or "A1",
            new_sheet=f.get("new_sheet") or None,
        )
        flash(f"Imported {area.label()}.")
        return redirect(url_for("sheets.grid", wb_id=wb.id, sheet=area.sheet, sel=area.a1()))
    return redirect(url_for("sheets.grid", wb_id=wb.id))


@bp.post("/import")
def import_xlsx() -> BaseResponse:
    """A new workbook from an uploaded .xlsx file."""
    upload = request.files.get("file")
    with flash_errors():
        if upload is None or not upload.filename:
            raise Invalid("choose an .xlsx file to import")
        wb = sheets.import_xlsx(g.db, g.actor, upload.filename, upload.read())
        return redirect(url_for("sheets.grid", wb_id=wb.id))
    return redirect(url_for("sheets.index"))
