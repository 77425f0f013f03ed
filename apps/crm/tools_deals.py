"""CRM tools for agents, part two: search, get, create and update opportunities
(deals) and support cases."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import Field

from officegym.apps.crm import service as crm
from officegym.apps.crm import tool_args as A
from officegym.apps.crm.models import (
    CaseOrigin,
    CasePriority,
    CaseStatus,
    LeadSource,
    LossReason,
    OpportunityType,
    Stage,
)
from officegym.tools import ToolContext, tool

OppSort = Annotated[
    str, Field(description="Sort by name, stage, amount, probability, close_date or created_at.")
]
Bound = Annotated[dt.date | None, Field(description="Close date bound, YYYY-MM-DD (inclusive).")]
TypeOpt = Annotated[OpportunityType | None, Field(description="Opportunity type.")]


# ---------------------------------------------------------------- opportunities


@tool("read")
def crm_search_opportunities(
    ctx: ToolContext,
    *,
    query: A.Query = None,
    account: A.AccountFilter = None,
    stage: Annotated[Stage | None, Field(description="Only this stage.")] = None,
    owner: A.Owner = None,
    open_only: A.OpenOnly = False,
    close_after: Bound = None,
    close_before: Bound = None,
    sort: OppSort = "close_date",
    descending: A.Descending = False,
    limit: A.Limit = 20,
    offset: A.Offset = 0,
) -> dict[str, Any]:
    """Search opportunities (deals) by name or next step, filtered by account, stage,
    owner, open/closed and close date."""
    filters = {
        "account_id": A.ref_id(ctx, "account", account),
        "stage": stage,
        "owner_id": A.person_id(ctx, owner),
    }
    return A.page(
        ctx, "opportunity", query=query, filters=filters, is_open=True if open_only else None,
        close_after=close_after, close_before=close_before, sort=sort, descending=descending,
        limit=limit, offset=offset,
    )  # fmt: skip


@tool("read")
def crm_get_opportunity(ctx: ToolContext, *, opportunity: A.OppRef) -> dict[str, Any]:
    """Show an opportunity (stage, probability, amount, close date, next step) and its
    latest activities."""
    return A.detail(
        ctx, "opportunity", crm.find(ctx.session, ctx.actor, "opportunity", opportunity)
    )


@tool("write")
def crm_create_opportunity(
    ctx: ToolContext,
    *,
    name: Annotated[str, Field(description="Deal name, e.g. 'Acme Corp - Analytics Platform'.")],
    account: A.AccountRef,
    close_date: Annotated[dt.date, Field(description="Expected close date, YYYY-MM-DD.")],
    amount: A.Money = None,
    stage: Annotated[Stage, Field(description="Starting stage.")] = "Prospecting",
    loss_reason: Annotated[
        LossReason | None, Field(description="Why the deal was lost (required for Closed Lost).")
    ] = None,
    contact: A.ContactOpt = None,
    next_step: Annotated[str | None, Field(description="The next step.")] = None,
    type: TypeOpt = None,
    lead_source: Annotated[LeadSource | None, Field(description="Lead source.")] = None,
    description: A.Text = None,
    owner: A.NewOwner = None,
) -> dict[str, Any]:
    """Create an opportunity on an account; its probability follows the stage. One created
    Closed Won or Lost is closed today (its close date becomes today)."""
    values = {
        "name": name, "account_id": A.ref_id(ctx, "account", account), "close_date": close_date,
        "amount": amount, "stage": stage, "loss_reason": loss_reason,
        "contact_id": A.ref_id(ctx, "contact", contact),
        "next_step": next_step, "type": type, "lead_source": lead_source,
        "description": description,
    }  # fmt: skip
    s, me = ctx.session, ctx.actor
    o = crm.create_record(s, me, "opportunity", values, owner=A.person(ctx, owner))
    return A.saved("opportunity", o)


@tool("write")
def crm_update_opportunity(
    ctx: ToolContext,
    *,
    opportunity: A.OppRef,
    name: Annotated[str | None, Field(description="New name.")] = None,
    amount: A.Money = None,
    close_date: A.Day = None,
    next_step: Annotated[str | None, Field(description="New next step.")] = None,
    probability: Annotated[
        int | None, Field(description="Override the stage's probability (percent).", ge=0, le=100)
    ] = None,
    contact: A.ContactOpt = None,
    type: TypeOpt = None,
    description: A.Text = None,
) -> dict[str, Any]:
    """Change fields of an open opportunity you may edit; omitted fields stay as they are.
    Move it through the pipeline with crm_change_opportunity_stage."""
    s, me = ctx.session, ctx.actor
    o = crm.find(s, me, "opportunity", opportunity)
    changes = A.given(
        name=name, amount=amount, close_date=close_date, next_step=next_step,
        probability=probability, contact_id=A.ref_id(ctx, "contact", contact), type=type,
        description=description,
    )  # fmt: skip
    return A.saved("opportunity", o, crm.update_record(s, me, "opportunity", o, changes))


# ---------------------------------------------------------------- cases


@tool("read")
def crm_search_cases(
    ctx: ToolContext,
    *,
    query: A.Query = None,
    account: A.AccountFilter = None,
    status: Annotated[CaseStatus | None, Field(description="Only this status.")] = None,
    priority: Annotated[CasePriority | None, Field(description="Only this priority.")] = None,
    owner: A.Owner = None,
    open_only: A.OpenOnly = False,
    limit: A.Limit = 20,
    offset: A.Offset = 0,
) -> dict[str, Any]:
    """Search support cases by number or subject, newest first, with optional filters."""
    filters = {
        "account_id": A.ref_id(ctx, "account", account),
        "status": status,
        "priority": priority,
        "owner_id": A.person_id(ctx, owner),
    }
    return A.page(
        ctx, "case", query=query, filters=filters, is_open=True if open_only else None,
        sort="created_at", descending=True, limit=limit, offset=offset,
    )  # fmt: skip


@tool("read")
def crm_get_case(ctx: ToolContext, *, case: A.CaseRef) -> dict[str, Any]:
    """Show a support case with its description, resolution and latest activities."""
    return A.detail(ctx, "case", crm.find(ctx.session, ctx.actor, "case", case))


@tool("write")
def crm_create_case(
    ctx: ToolContext,
    *,
    subject: Annotated[str, Field(description="Short summary of the problem.")],
    account: Annotated[
        int | str | None, Field(description="Customer account (id or name).")
    ] = None,
    contact: A.ContactOpt = None,
    priority: Annotated[CasePriority, Field(description="Priority.")] = "Medium",
    origin: Annotated[CaseOrigin | None, Field(description="How the case came in.")] = None,
    description: A.Text = None,
    owner: A.NewOwner = None,
) -> dict[str, Any]:
    """Open a support case; it starts with status New and gets the next case number."""
    values = {
        "subject": subject, "account_id": A.ref_id(ctx, "account", account),
        "contact_id": A.ref_id(ctx, "contact", contact), "priority": priority, "origin": origin,
        "description": description,
    }  # fmt: skip
    c = crm.create_record(ctx.session, ctx.actor, "case", values, owner=A.person(ctx, owner))
    return A.saved("case", c)


@tool("write")
def crm_update_case(
    ctx: ToolContext,
    *,
    case: A.CaseRef,
    subject: Annotated[str | None, Field(description="New subject.")] = None,
    status: Annotated[
        CaseStatus | None,
        Field(
            description="New, or Working (also reopens a closed case); escalate or close a "
            "case with crm_escalate_case / crm_close_case."
        ),
    ] = None,
    priority: Annotated[CasePriority | None, Field(description="New priority.")] = None,
    origin: Annotated[CaseOrigin | None, Field(description="New origin.")] = None,
    contact: A.ContactOpt = None,
    description: A.Text = None,
) -> dict[str, Any]:
    """Change fields of a case you may edit; a closed case must be reopened first."""
    s, me = ctx.session, ctx.actor
    c = crm.find(s, me, "case", case)
    changes = A.given(
        subject=subject, status=status, priority=priority, origin=origin,
        contact_id=A.ref_id(ctx, "contact", contact), description=description,
    )  # fmt: skip
    return A.saved("case", c, crm.update_record(s, me, "case", c, changes))
