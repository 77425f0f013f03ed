"""CRM tools for agents, part three: the processes around records — converting leads,
moving deals through the pipeline, logging activities, reassigning owners,
escalating and closing cases — and the reports."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict
from typing import Annotated, Any, Literal

from pydantic import Field

from officegym.apps.crm import service as crm
from officegym.apps.crm import tool_args as A
from officegym.apps.crm.models import ActivityKind, LossReason, RecordType, Stage
from officegym.apps.crm.shapes import activity_view, history_view, person_view, record_view
from officegym.errors import Invalid
from officegym.tools import ToolContext, tool

RecordKind = Annotated[RecordType, Field(description="Type of the record.")]
RecordId = Annotated[int, Field(description="Numeric id of the record.")]
Bound = Annotated[dt.date | None, Field(description="Close date bound, YYYY-MM-DD (inclusive).")]


@tool("write")
def crm_convert_lead(
    ctx: ToolContext,
    *,
    lead: A.LeadRef,
    account: Annotated[
        int | str | None,
        Field(
            description="Existing account to attach the lead to (id or name); by default "
            "the contact's account when a contact is given, else a new account created "
            "from the lead's company."
        ),
        A.ACCOUNT,
    ] = None,
    contact: Annotated[
        int | str | None,
        Field(description="Existing contact at that account to link instead."),
        A.CONTACT,
    ] = None,
    create_opportunity: Annotated[bool, Field(description="Also open an opportunity.")] = True,
    opportunity_name: Annotated[
        str | None, Field(description="Opportunity name (default '<account> - New Business').")
    ] = None,
    amount: A.Money = None,
    close_date: Annotated[
        dt.date | None, Field(description="Close date (default: end of this quarter).")
    ] = None,
) -> dict[str, Any]:
    """Convert a qualified lead into an account, a contact and (optionally) an opportunity,
    and mark it Converted. A lead can be converted only once."""
    s, me = ctx.session, ctx.actor
    x = crm.find(s, me, "lead", lead)
    acct = crm.find(s, me, "account", account) if account is not None else None
    person = crm.find(s, me, "contact", contact) if contact is not None else None
    done = crm.convert_lead(
        s, me, x, account=acct, contact=person, create_opportunity=create_opportunity,
        opportunity_name=opportunity_name, amount=amount, close_date=close_date,
    )  # fmt: skip
    return _conversion_view(done)


def _conversion_view(done: crm.Conversion) -> dict[str, Any]:
    """What crm_convert_lead answers: the records the lead became or was linked to."""
    opp = done.opportunity
    return {
        "ok": True,
        "lead_id": done.lead.id,
        "account": record_view("account", done.account),
        "account_created": done.account_created,
        "contact": record_view("contact", done.contact),
        "opportunity": record_view("opportunity", opp) if opp else None,
    }


@tool("write")
def crm_change_opportunity_stage(
    ctx: ToolContext,
    *,
    opportunity: A.OppRef,
    stage: Annotated[Stage, Field(description="The new stage.")],
    loss_reason: Annotated[
        LossReason | None, Field(description="Why the deal was lost (required for Closed Lost).")
    ] = None,
) -> dict[str, Any]:
    """Move an opportunity to another stage. Probability follows the stage (Prospecting 10,
    Qualification 20, Needs Analysis 30, Proposal 60, Negotiation 80, Closed Won 100,
    Closed Lost 0); closing sets the close date to today and locks the deal."""
    s, me = ctx.session, ctx.actor
    o = crm.find(s, me, "opportunity", opportunity)
    crm.change_stage(s, me, o, stage, loss_reason=loss_reason)
    return A.saved("opportunity", o)


@tool("write")
def crm_log_activity(
    ctx: ToolContext,
    *,
    record_type: RecordKind,
    record_id: RecordId,
    kind: Annotated[ActivityKind, Field(description="call, meeting, email, task or note.")],
    subject: Annotated[str, Field(description="Short subject line.")],
    body: Annotated[str, Field(description="Details or notes.")] = "",
    due_date: Annotated[dt.date | None, Field(description="Due date of a task.")] = None,
) -> dict[str, Any]:
    """Log a call, meeting, email, note or a to-do task on any record. Tasks start Open;
    the rest are logged as Completed."""
    a = crm.log_activity(
        ctx.session, ctx.actor, record_type=record_type, record_id=record_id, kind=kind,
        subject=subject, body=body, due_date=due_date,
    )  # fmt: skip
    return {"ok": True, "activity": activity_view(a)}


@tool("read")
def crm_list_activities(
    ctx: ToolContext, *, record_type: RecordKind, record_id: RecordId
) -> list[dict[str, Any]]:
    """List every activity logged on a record, newest first."""
    found = crm.list_activities(ctx.session, ctx.actor, record_type, record_id)
    return [activity_view(a) for a in found]


@tool("write")
def crm_complete_task(
    ctx: ToolContext,
    *,
    activity_id: Annotated[int, Field(description="Id of the open task (an activity).")],
) -> dict[str, Any]:
    """Mark one of your open tasks Completed."""
    s, me = ctx.session, ctx.actor
    a = crm.get_activity(s, me, activity_id)
    return {"ok": True, "activity": activity_view(crm.complete_activity(s, me, a))}


@tool("write")
def crm_reassign_owner(
    ctx: ToolContext,
    *,
    record_type: RecordKind,
    record_id: RecordId,
    new_owner: Annotated[
        str, Field(description="New owner's handle, email or full name."), A.PERSON
    ],
) -> dict[str, Any]:
    """Give a record to another CRM user. Managers assign within their team; admins to anyone."""
    s, me = ctx.session, ctx.actor
    record = crm.get_record(s, me, record_type, record_id)
    person = A.required_person(ctx, new_owner, "new_owner")
    crm.reassign_owner(s, me, record_type, record, person)
    return A.saved(record_type, record)


@tool("write")
def crm_escalate_case(
    ctx: ToolContext,
    *,
    case: A.CaseRef,
    reason: Annotated[str, Field(description="Why the case is escalated (logged on it).")],
    new_owner: Annotated[
        str | None,
        Field(description="Hand the case to this person too (handle or name)."),
        A.PERSON,
    ] = None,
) -> dict[str, Any]:
    """Escalate an open case: status Escalated, priority raised to at least High, and the
    reason logged as a note; optionally hand it to someone else."""
    s, me = ctx.session, ctx.actor
    c = crm.find(s, me, "case", case)
    crm.escalate_case(s, me, c, reason=reason, owner=A.person(ctx, new_owner))
    return A.saved("case", c)


@tool("write")
def crm_close_case(
    ctx: ToolContext,
    *,
    case: A.CaseRef,
    resolution: Annotated[str, Field(description="How the problem was solved.")],
) -> dict[str, Any]:
    """Close a case with its resolution."""
    s, me = ctx.session, ctx.actor
    c = crm.find(s, me, "case", case)
    crm.close_case(s, me, c, resolution=resolution)
    return A.saved("case", c)


@tool("read")
def crm_pipeline_report(
    ctx: ToolContext,
    *,
    group_by: Annotated[
        Literal["stage", "owner"], Field(description="One line per stage or per owner.")
    ] = "stage",
    owner: Annotated[str | None, Field(description="Only this owner's deals (by stage).")] = None,
    include_closed: Annotated[
        bool, Field(description="By owner: include Closed Won/Lost deals too.")
    ] = False,
    close_after: Bound = None,
    close_before: Bound = None,
) -> dict[str, Any]:
    """Pipeline report: number of deals, total amount and weighted amount (amount times
    probability) per stage or per owner, optionally within a close-date window."""
    s, me = ctx.session, ctx.actor
    window = {"close_after": close_after, "close_before": close_before}
    if group_by == "stage":
        rows = crm.pipeline_by_stage(s, me, owner_id=A.person_id(ctx, owner), **window)
        lines = [{"stage": r.key, **_sums(r)} for r in rows]
    else:
        if owner:
            raise Invalid("filter by owner only when grouping by stage")
        rows = crm.pipeline_by_owner(s, me, open_only=not include_closed, **window)
        lines = [{"owner_name": r.key, "owner_id": r.owner_id, **_sums(r)} for r in rows]
    return {"group_by": group_by, "rows": lines, "total": _sums_total(rows)}


def _sums(r: Any) -> dict[str, int]:
    return {"count": r.count, "amount": r.amount, "weighted": r.weighted}


def _sums_total(rows: list[Any]) -> dict[str, int]:
    return {k: sum(getattr(r, k) for r in rows) for k in ("count", "amount", "weighted")}


@tool("read")
def crm_case_report(
    ctx: ToolContext,
    *,
    owner: Annotated[str | None, Field(description="Only this owner's cases.")] = None,
) -> list[dict[str, Any]]:
    """Cases report: number of cases per status, split by priority."""
    rows = crm.cases_by_status(ctx.session, ctx.actor, owner_id=A.person_id(ctx, owner))
    return [asdict(r) for r in rows]


ReportRecords = Annotated[
    Literal["opportunity", "case", "lead", "account"],
    Field(description="The records to report on."),
]
ReportGroup = Annotated[
    Literal[
        "owner",
        "stage",
        "account",
        "type",
        "close_month",
        "status",
        "priority",
        "origin",
        "source",
        "rating",
        "industry",
    ],
    Field(
        description="The field with one line per value. Opportunities: owner, stage, "
        "account, type, close_month; cases: owner, status, priority, origin, account; "
        "leads: owner, status, source, rating, industry; accounts: owner, type, "
        "industry."
    ),
]
ReportDate = Annotated[
    Literal["close_date", "created_at", "closed_at", "converted_at"] | None,
    Field(
        description="The date the range applies to. Opportunities: close_date (default) "
        "or created_at; cases: created_at (default) or closed_at; leads: created_at "
        "(default) or converted_at; accounts: created_at."
    ),
]
DayBound = Annotated[
    dt.date | None, Field(description="Date range bound on date_field, YYYY-MM-DD (inclusive).")
]
ReportSummary = Annotated[
    Literal["count", "sum", "average"],
    Field(
        description="Besides the count of records: the sum or average of the amount "
        "(opportunities) or annual revenue (accounts); cases and leads are counted."
    ),
]


@tool("read")
def crm_run_report(
    ctx: ToolContext,
    *,
    record_type: ReportRecords,
    group_by: ReportGroup,
    summary: ReportSummary = "count",
    owner: A.Owner = None,
    status: Annotated[
        str | None, Field(description="Only this stage (opportunities) or status (cases, leads).")
    ] = None,
    date_field: ReportDate = None,
    date_from: DayBound = None,
    date_to: DayBound = None,
    close_after: Bound = None,
    close_before: Bound = None,
) -> dict[str, Any]:
    """Summary report, as the report builder page makes it: records grouped by a field,
    each group's record count and, if asked, the sum or average amount (whole dollars;
    the average is over the records that have an amount). A date range (date_from,
    date_to) applies to date_field; close_after/close_before are an opportunity's close
    dates."""
    if close_after or close_before:
        if date_from or date_to or date_field not in (None, "close_date"):
            raise Invalid("give a close-date range or a date range on date_field, not both")
        date_field, date_from, date_to = "close_date", close_after, close_before
    spec = crm.ReportSpec(
        record_type, group_by, summary, owner_id=A.person_id(ctx, owner), status=status,
        date_from=date_from, date_to=date_to, date_field=date_field,
    )  # fmt: skip
    report = crm.run_report(ctx.session, ctx.actor, spec)
    measure = {"sum": "total", "average": "average"}.get(summary)
    rows = []
    for r in report.rows:
        line: dict[str, Any] = {"group": r.label, "count": r.count}
        rows.append(line | ({summary: getattr(r, measure)} if measure else {}))
    total: dict[str, Any] = {"count": report.count}
    if measure:
        total[summary] = getattr(report, measure)
    return {"record_type": record_type, "group_by": group_by, "rows": rows, "total": total}


@tool("read")
def crm_get_field_history(
    ctx: ToolContext, *, record_type: RecordKind, record_id: RecordId
) -> list[dict[str, Any]]:
    """Show who changed which field of a record, when, from what to what (newest first)."""
    found = crm.field_history(ctx.session, ctx.actor, record_type, record_id)
    return [history_view(h) for h in found]


@tool("read")
def crm_list_users(ctx: ToolContext) -> list[dict[str, Any]]:
    """List CRM users with their role (rep, manager, admin) and team."""
    return [person_view(p) | {"role": role} for p, role in crm.list_users(ctx.session, ctx.actor)]
