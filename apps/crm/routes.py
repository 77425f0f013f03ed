"""The CRM's pages: list views (My / All / Recently Viewed records, filters, sortable
columns, numbered pages), record pages with related lists and actions, create/edit
forms, the pipeline board, reports, CSV export and import. Plain forms (POST then
redirect); every read and change goes through `officegym.apps.crm.service` (CSV
through `csv_io`, which uses the service). Forbidden and NotFound render the error
page (403/404); bad input is flashed.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, flash, g, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from officegym.apps.crm import csv_io, pages, recent, report_pages
from officegym.apps.crm import service as crm
from officegym.apps.crm.models import OPEN_STAGES, STAGES
from officegym.apps.crm.pages import MAX_PAGE, PAGE_SIZE, record_type, record_url, render
from officegym.apps.org import service as org
from officegym.errors import Conflict, Forbidden, Invalid
from officegym.web import flash_errors
from officegym.web_guards import attachment

BOARD_CARDS = 20
bp = Blueprint("crm", __name__, template_folder="templates", static_folder="static")
bp.add_app_template_filter(pages.money, "money")
bp.add_app_template_filter(pages.shown_date, "crm_date")
NAV_LABEL = "CRM"  # the app's name in the top navigation


@bp.get("/")
def index() -> BaseResponse:
    """The CRM opens on the opportunities list."""
    return redirect(url_for("crm.records", kind="opportunities"))


# ---------------------------------------------------------------- lists


@bp.get("/<kind>")
def records(kind: str) -> str:
    """A list view: "My …" (the default) or "All …" records, search words, select filters,
    columns sorted by ``sort`` (a column the list can sort by) and ``dir=desc``, 25 per
    page with numbered pages; the other URL parameters are those of `pages.list_query`.
    A narrowed opportunity list shows the total amount of everything it matches."""
    rt = record_type(kind)
    args = request.args
    query = pages.list_query(rt, args)
    column = args.get("sort", "")
    key = pages.sort_key(rt, column)
    if column and key is None:
        raise Invalid(f"the {kind} list cannot be sorted by {column!r}")
    page_no = min(max(1, args.get("page", 1, type=int)), MAX_PAGE)
    if query.view == "recent":
        found, page_no = recent.recently_viewed(rt), 1
    else:
        found = crm.search(
            g.db, g.actor, rt, **query.search, sort=key, descending=args.get("dir") == "desc",
            limit=PAGE_SIZE, offset=(page_no - 1) * PAGE_SIZE,
        )  # fmt: skip
    pages_total = max(1, -(-found.total // PAGE_SIZE))
    columns = pages.LIST_COLUMNS[rt]
    sortable = {c for c, _ in columns if pages.sort_key(rt, c) and query.view != "recent"}
    return render(
        "crm/list.html", rt=rt, kind=kind, page=found, page_no=page_no, args=args,
        pages_total=pages_total, page_numbers=pages.page_numbers(page_no, pages_total),
        columns=columns, sortable=sortable,
        list_url=_list_url, filters=pages.filter_options(rt), sort_column=column,
        account=query.account, view=query.view,
        amount_total=pages.amount_total(rt, query, found),
    )  # fmt: skip


def _list_url(kind: str, args: Any, **changes: Any) -> str:
    """The list URL with the current query arguments, some of them changed."""
    params = {k: v for k, v in args.items() if v}
    params.update({k: v for k, v in changes.items()})
    return url_for("crm.records", kind=kind, **{k: v for k, v in params.items() if v})


# ---------------------------------------------------------------- records


@bp.get("/<kind>/<int:rid>")
def record(kind: str, rid: int) -> str:
    """A record: its fields, related lists, activities, history and actions."""
    rt = record_type(kind)
    rec = crm.get_record(g.db, g.actor, rt, rid)
    recent.remember(rt, rid)
    related: dict[str, list[Any]] = {}
    if rt == "account":
        for other in ("contact", "opportunity", "case"):
            related[other] = crm.search(g.db, g.actor, other, filters={"account_id": rid},
                                        limit=100).items  # fmt: skip
    editable = crm.can_edit(g.db, g.actor, rec.owner_id)
    return render(
        "crm/record.html", rt=rt, kind=kind, rec=rec, related=related,
        converted=_converted(rec) if rt == "lead" else {},
        activities=crm.list_activities(g.db, g.actor, rt, rid),
        history=crm.field_history(g.db, g.actor, rt, rid)[:30], editable=editable,
        rule=None if editable else crm.edit_rule(g.db, g.actor),
        users=pages.assignable_options(), field_label=pages.field_label,
        accounts=pages.account_options() if rt == "lead" else [],
        path=pages.stage_path(rec.stage) if rt == "opportunity" else [],
        next_stage=pages.next_stage(rec.stage) if rt == "opportunity" else None,
        fields=pages.form_fields(rt, rec), value=pages.shown_value, change=pages.shown_change,
    )  # fmt: skip


def _converted(lead: Any) -> dict[str, Any]:
    """The records a converted lead became, by type, so its page names them."""
    ids = {"account": lead.converted_account_id, "contact": lead.converted_contact_id,
           "opportunity": lead.converted_opportunity_id}  # fmt: skip
    return {rt: crm.get_record(g.db, g.actor, rt, rid) for rt, rid in ids.items() if rid}


@bp.route("/<kind>/new", methods=["GET", "POST"])
def create(kind: str) -> str | BaseResponse | tuple[str, int]:
    """The create form; a valid submission opens the new record."""
    rt = record_type(kind)
    if request.method == "POST":
        try:
            owner = _person(request.form.get("owner"))
            values = pages.form_values(rt, request.form)
            rec = crm.create_record(g.db, g.actor, rt, values, owner=owner)
            return redirect(record_url(rt, rec))
        except (Invalid, Conflict) as exc:
            g.db.rollback()  # the failed change (a lost race too) leaves nothing behind
            flash(exc.message, "error")
            return _form(rt, kind, None, request.form), 422
    return _form(rt, kind, None, {})


@bp.route("/<kind>/<int:rid>/edit", methods=["GET", "POST"])
def edit(kind: str, rid: int) -> str | BaseResponse | tuple[str, int]:
    """The edit form; only the fields that changed are sent to the service."""
    rt = record_type(kind)
    rec = crm.get_record(g.db, g.actor, rt, rid)
    if request.method == "POST":
        try:
            changes = pages.form_values(rt, request.form, rec)
            changed = crm.update_record(g.db, g.actor, rt, rec, changes)
            flash(f"Saved ({', '.join(changed) or 'nothing changed'}).")
            return redirect(record_url(rt, rec))
        except (Invalid, Conflict) as exc:
            g.db.rollback()  # the failed change (a lost race too) leaves nothing behind
            flash(exc.message, "error")
            return _form(rt, kind, rec, request.form), 422
    if not crm.can_edit(g.db, g.actor, rec.owner_id):
        raise Forbidden(
            f"you may not edit {crm.describe(rt, rec)}; it is owned by {rec.owner.name}"
        )
    values = {f.name: pages.form_value(rec, f.name) for f in pages.form_fields(rt, rec)}
    return _form(rt, kind, rec, values)


def _form(rt: str, kind: str, rec: Any, values: Any) -> str:
    users = pages.user_options() if rec is None else []
    return render("crm/form.html", rt=rt, kind=kind, rec=rec, values=values, users=users,
                  fields=pages.form_fields(rt, rec))  # fmt: skip


def _person(ref: str | None) -> Any:
    """A person by handle, email or name; None for an empty form field."""
    return org.find_person(g.db, ref) if ref else None


def _back(rt: str, rec: Any) -> BaseResponse:
    return redirect(record_url(rt, rec))


@bp.post("/<kind>/<int:rid>/reassign")
def reassign(kind: str, rid: int) -> BaseResponse:
    rt = record_type(kind)
    rec = crm.get_record(g.db, g.actor, rt, rid)
    with flash_errors():
        handle = request.form.get("owner", "").strip()
        if not handle:
            raise Invalid("choose the new owner")
        person = org.find_person(g.db, handle)
        crm.reassign_owner(g.db, g.actor, rt, rec, person)
        flash(f"Owner is now {person.name}.")
    return _back(rt, rec)


@bp.post("/<kind>/<int:rid>/activities")
def log_activity(kind: str, rid: int) -> BaseResponse:
    rt = record_type(kind)
    rec = crm.get_record(g.db, g.actor, rt, rid)
    form = request.form
    with flash_errors():
        crm.log_activity(g.db, g.actor, record_type=rt, record_id=rid, kind=form.get("kind", ""),
                         subject=form.get("subject", ""), body=form.get("body", ""),
                         due_date=form.get("due_date") or None)  # fmt: skip
        flash("Activity logged.")
    return _back(rt, rec)


@bp.post("/activities/<int:aid>/complete")
def complete_activity(aid: int) -> BaseResponse:
    activity = crm.get_activity(g.db, g.actor, aid)
    with flash_errors():
        crm.complete_activity(g.db, g.actor, activity)
    return redirect(url_for("crm.record", kind=pages.SLUG[activity.record_type],
                            rid=activity.record_id))  # fmt: skip


# ---------------------------------------------------------------- processes


@bp.post("/opportunities/<int:rid>/stage")
def change_stage(rid: int) -> BaseResponse:
    opp = crm.get_record(g.db, g.actor, "opportunity", rid)
    with flash_errors():
        reason = request.form.get("loss_reason") or None
        crm.change_stage(g.db, g.actor, opp, request.form.get("stage", ""), loss_reason=reason)
        flash(f"Stage is now {opp.stage}.")
    if request.form.get("next") == "board":
        return redirect(url_for("crm.board", owner=request.form.get("owner") or None))
    return redirect(record_url("opportunity", opp))


@bp.post("/opportunities/<int:rid>/complete-stage")
def complete_stage(rid: int) -> BaseResponse:
    """Salesforce's "Mark Stage as Complete": the deal moves from the stage the form was
    shown at (``from``) to the next open one; a page left open after the deal moved on
    changes nothing (a second click never skips a stage)."""
    opp = crm.get_record(g.db, g.actor, "opportunity", rid)
    with flash_errors():
        if request.form.get("from") != opp.stage:
            raise Conflict(f"the deal is already at {opp.stage}; reload to see its path")
        following = pages.next_stage(opp.stage)
        if following is None:
            raise Invalid(f"{opp.stage} is the last open stage: mark the deal Closed Won or Lost")
        crm.change_stage(g.db, g.actor, opp, following)
        flash(f"Stage is now {opp.stage}.")
    return redirect(record_url("opportunity", opp))


@bp.post("/leads/<int:rid>/convert")
def convert(rid: int) -> BaseResponse:
    """Convert a lead; the amount and close date go to the service as typed, so a value
    its field rules refuse is flashed on the lead's page and nothing is converted."""
    lead = crm.get_record(g.db, g.actor, "lead", rid)
    form = request.form
    with flash_errors():
        account = (
            crm.find(g.db, g.actor, "account", form["account"]) if form.get("account") else None
        )
        done = crm.convert_lead(
            g.db, g.actor, lead, account=account,
            create_opportunity=form.get("create_opportunity") == "on",
            opportunity_name=form.get("opportunity_name") or None,
            amount=form.get("amount", "").strip() or None,
            close_date=form.get("close_date", "").strip() or None,
        )  # fmt: skip
        flash(f"Converted to account {done.account.name} and contact {done.contact.name}.")
        return redirect(record_url("account", done.account))
    return _back("lead", lead)


@bp.post("/cases/<int:rid>/escalate")
def escalate(rid: int) -> BaseResponse:
    case = crm.get_record(g.db, g.actor, "case", rid)
    with flash_errors():
        owner = _person(request.form.get("owner"))
        crm.escalate_case(g.db, g.actor, case, reason=request.form.get("reason", ""), owner=owner)
        flash(f"Case {case.number} escalated.")
    return _back("case", case)


@bp.post("/cases/<int:rid>/close")
def close(rid: int) -> BaseResponse:
    case = crm.get_record(g.db, g.actor, "case", rid)
    with flash_errors():
        crm.close_case(g.db, g.actor, case, resolution=request.form.get("resolution", ""))
        flash(f"Case {case.number} closed.")
    return _back("case", case)


# ---------------------------------------------------------------- board, reports, CSV


@bp.get("/pipeline")
def board() -> str:
    """Open opportunities in one column per stage, soonest close date first (20 per column,
    with a link to the full list); optionally one owner's."""
    owner = _person(request.args.get("owner"))
    columns = {}
    for stage in OPEN_STAGES:
        filters = {"stage": stage, "owner_id": owner.id if owner else None}
        columns[stage] = crm.search(g.db, g.actor, "opportunity", filters=filters,
                                    sort="close_date", limit=BOARD_CARDS)  # fmt: skip
    totals = crm.pipeline_by_stage(g.db, g.actor, owner_id=owner.id if owner else None)
    movable = {o.id for found in columns.values() for o in found.items
               if crm.can_edit(g.db, g.actor, o.owner_id)}  # fmt: skip
    shown = [o for found in columns.values() for o in found.items]
    rule = crm.edit_rule(g.db, g.actor) if len(movable) < len(shown) else None
    return render("crm/board.html", columns=columns, stages=STAGES, owner=owner, movable=movable,
                  totals={r.key: r for r in totals}, users=pages.user_options(),
                  rule=rule)  # fmt: skip


@bp.get("/reports")
def reports() -> str:
    """Pipeline by stage and by owner, cases by status; ``owner`` narrows the pipeline by
    stage and the cases to one person's."""
    owner = _person(request.args.get("owner"))
    owner_id = owner.id if owner else None
    return render(
        "crm/reports.html",
        owner=owner,
        users=pages.user_options(),
        by_stage=crm.pipeline_by_stage(g.db, g.actor, owner_id=owner_id),
        by_owner=crm.pipeline_by_owner(g.db, g.actor),
        cases=crm.cases_by_status(g.db, g.actor, owner_id=owner_id),
    )


@bp.get("/reports/build")
def report_builder() -> str | tuple[str, int]:
    """The report builder: choose an object, a field to group by, filters and a summary
    (a GET form: a report is a read); each result row links to the list of its records."""
    error, report = None, None
    try:
        req = report_pages.report_request(request.args)
        if req.spec is not None:
            report = crm.run_report(g.db, g.actor, req.spec)
    except Invalid as exc:
        error = exc.message
        req = report_pages.ReportRequest(report_pages.object_of(request.args), None)
    page = render(
        "crm/report_builder.html", req=req, report=report, error=error, args=request.args,
        objects=report_pages.REPORT_OBJECTS, groups=report_pages.group_choices(req.record_type),
        status=report_pages.status_choices(req.record_type), users=pages.user_options(),
        has_amount=report_pages.has_amount(req.record_type), row_url=report_pages.row_url,
        row_key=report_pages.row_key, dates=report_pages.date_choices(req.record_type),
        date_label=report_pages.DATE_LABEL,
        amount_label=report_pages.AMOUNT_LABEL.get(req.record_type, ""),
        group_label=report_pages.GROUP_LABEL,
    )  # fmt: skip
    return (page, 400) if error else page


@bp.get("/data")
def data() -> str:
    """CSV export links and import forms."""
    return render("crm/data.html", types=csv_io.CSV_TYPES, columns=csv_io.COLUMNS, result=None)


@bp.get("/data/<kind>.csv")
def export(kind: str) -> Response:
    rt = record_type(kind)
    text = csv_io.export_csv(g.db, g.actor, rt)
    headers = {"Content-Disposition": attachment(f"{kind}.csv")}
    return Response(text, mimetype="text/csv", headers=headers)


@bp.post("/data/<kind>/import")
def import_(kind: str) -> str | BaseResponse | tuple[str, int]:
    """Import a CSV file (upload or pasted text): all rows or none."""
    rt = record_type(kind)
    upload = request.files.get("file")
    if upload and upload.filename:
        text = upload.read().decode("utf-8-sig", errors="replace")
    else:
        text = request.form.get("text", "")
    result = csv_io.import_csv(g.db, g.actor, rt, text)
    if result.ok:
        flash(f"Imported {len(result.created)} {kind}.")
        return redirect(url_for("crm.records", kind=kind))
    page = render("crm/data.html", types=csv_io.CSV_TYPES, columns=csv_io.COLUMNS, result=result)
    return page, 422
