"""CRM tools for agents, part one: search, get, create and update accounts, contacts
and leads. Opportunities and cases are in `tools_deals.py`; the process tools
(convert a lead, change a stage, log activities, reassign owners, escalate and
close cases, reports) in `tools_process.py`. Importing this module registers all.

Records are referred to by numeric id (shown in every result); accounts and
opportunities also by exact name, contacts and leads by email or full name,
cases by case number; people by handle, email or full name.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from officegym.apps.crm import service as crm
from officegym.apps.crm import tool_args as A
from officegym.apps.crm import tools_deals, tools_process
from officegym.apps.crm.models import AccountType, Industry, LeadSource, LeadStatus, Rating
from officegym.tools import ToolContext, tool

__all__ = ["tools_deals", "tools_process"]  # registered on import

IndustryOpt = Annotated[Industry | None, Field(description="Industry.")]
TypeOpt = Annotated[AccountType | None, Field(description="Account type.")]
SourceOpt = Annotated[LeadSource | None, Field(description="Where the lead came from.")]
RatingOpt = Annotated[Rating | None, Field(description="How promising the lead is.")]
AccountSort = Annotated[
    str, Field(description="Sort by name, industry, type, annual_revenue, employees or created_at.")
]


# ---------------------------------------------------------------- accounts


@tool("read")
def crm_search_accounts(
    ctx: ToolContext,
    *,
    query: A.Query = None,
    industry: IndustryOpt = None,
    type: TypeOpt = None,
    owner: A.Owner = None,
    sort: AccountSort = "name",
    descending: A.Descending = False,
    limit: A.Limit = 20,
    offset: A.Offset = 0,
) -> dict[str, Any]:
    """Search accounts (companies) by name, website or city, with optional filters."""
    filters = {"industry": industry, "type": type, "owner_id": A.person_id(ctx, owner)}
    return A.page(
        ctx, "account", query=query, filters=filters, sort=sort, descending=descending,
        limit=limit, offset=offset,
    )  # fmt: skip


@tool("read")
def crm_get_account(ctx: ToolContext, *, account: A.AccountRef) -> dict[str, Any]:
    """Show an account with its contacts, opportunities, open cases and latest activities."""
    a = crm.find(ctx.session, ctx.actor, "account", account)
    view = A.detail(ctx, "account", a)
    view["contacts"] = A.related(ctx, "contact", a.id)
    view["opportunities"] = A.related(ctx, "opportunity", a.id, sort="close_date")
    view["open_cases"] = A.related(ctx, "case", a.id, is_open=True)
    return view


@tool("write")
def crm_create_account(
    ctx: ToolContext,
    *,
    name: Annotated[str, Field(description="Company name (unique in the CRM).")],
    industry: IndustryOpt = None,
    type: Annotated[AccountType, Field(description="Account type.")] = "Prospect",
    website: Annotated[str | None, Field(description="Web address, e.g. www.acme.com.")] = None,
    phone: A.Phone = None,
    billing_city: Annotated[str | None, Field(description="Billing city.")] = None,
    billing_country: Annotated[str | None, Field(description="Billing country.")] = None,
    annual_revenue: A.Money = None,
    employees: A.Employees = None,
    description: A.Text = None,
    owner: A.NewOwner = None,
) -> dict[str, Any]:
    """Create an account (a company). An account with the same name already existing is an error."""
    values = {
        "name": name, "industry": industry, "type": type, "website": website, "phone": phone,
        "billing_city": billing_city, "billing_country": billing_country,
        "annual_revenue": annual_revenue, "employees": employees, "description": description,
    }  # fmt: skip
    a = crm.create_record(ctx.session, ctx.actor, "account", values, owner=A.person(ctx, owner))
    return A.saved("account", a)


@tool("write")
def crm_update_account(
    ctx: ToolContext,
    *,
    account: A.AccountRef,
    name: Annotated[str | None, Field(description="New company name.")] = None,
    industry: IndustryOpt = None,
    type: TypeOpt = None,
    website: Annotated[str | None, Field(description="New web address.")] = None,
    phone: A.Phone = None,
    billing_city: Annotated[str | None, Field(description="New billing city.")] = None,
    billing_country: Annotated[str | None, Field(description="New billing country.")] = None,
    annual_revenue: A.Money = None,
    employees: A.Employees = None,
    description: A.Text = None,
) -> dict[str, Any]:
    """Change fields of an account you may edit; omitted fields stay as they are."""
    s, me = ctx.session, ctx.actor
    a = crm.find(s, me, "account", account)
    changes = A.given(
        name=name, industry=industry, type=type, website=website, phone=phone,
        billing_city=billing_city, billing_country=billing_country,
        annual_revenue=annual_revenue, employees=employees, description=description,
    )  # fmt: skip
    return A.saved("account", a, crm.update_record(s, me, "account", a, changes))


# ---------------------------------------------------------------- contacts


@tool("read")
def crm_search_contacts(
    ctx: ToolContext,
    *,
    query: A.Query = None,
    account: A.AccountFilter = None,
    owner: A.Owner = None,
    limit: A.Limit = 20,
    offset: A.Offset = 0,
) -> dict[str, Any]:
    """Search contacts (people at customer companies) by name, email or title."""
    filters = {"account_id": A.ref_id(ctx, "account", account), "owner_id": A.person_id(ctx, owner)}
    return A.page(ctx, "contact", query=query, filters=filters, limit=limit, offset=offset)


@tool("read")
def crm_get_contact(ctx: ToolContext, *, contact: A.ContactRef) -> dict[str, Any]:
    """Show a contact with its latest activities."""
    return A.detail(ctx, "contact", crm.find(ctx.session, ctx.actor, "contact", contact))


@tool("write")
def crm_create_contact(
    ctx: ToolContext,
    *,
    last_name: Annotated[str, Field(description="Last name.")],
    first_name: A.FirstName = None,
    account: Annotated[
        int | str | None, Field(description="Their account (id or name)."), A.ACCOUNT
    ] = None,
    title: A.Title = None,
    email: A.Email = None,
    phone: A.Phone = None,
    owner: A.NewOwner = None,
) -> dict[str, Any]:
    """Create a contact, usually at an account."""
    values = {
        "last_name": last_name, "first_name": first_name, "title": title, "email": email,
        "phone": phone, "account_id": A.ref_id(ctx, "account", account),
    }  # fmt: skip
    c = crm.create_record(ctx.session, ctx.actor, "contact", values, owner=A.person(ctx, owner))
    return A.saved("contact", c)


@tool("write")
def crm_update_contact(
    ctx: ToolContext,
    *,
    contact: A.ContactRef,
    first_name: A.FirstName = None,
    last_name: A.LastName = None,
    account: Annotated[
        int | str | None, Field(description="Move to this account."), A.ACCOUNT
    ] = None,
    title: A.Title = None,
    email: A.Email = None,
    phone: A.Phone = None,
) -> dict[str, Any]:
    """Change fields of a contact you may edit; omitted fields stay as they are."""
    s, me = ctx.session, ctx.actor
    c = crm.find(s, me, "contact", contact)
    changes = A.given(
        first_name=first_name, last_name=last_name, title=title, email=email, phone=phone,
        account_id=A.ref_id(ctx, "account", account),
    )  # fmt: skip
    return A.saved("contact", c, crm.update_record(s, me, "contact", c, changes))


# ---------------------------------------------------------------- leads


@tool("read")
def crm_search_leads(
    ctx: ToolContext,
    *,
    query: A.Query = None,
    status: Annotated[LeadStatus | None, Field(description="Only this status.")] = None,
    source: SourceOpt = None,
    rating: RatingOpt = None,
    owner: A.Owner = None,
    open_only: A.OpenOnly = False,
    limit: A.Limit = 20,
    offset: A.Offset = 0,
) -> dict[str, Any]:
    """Search leads by name, company or email, newest first; open_only hides converted
    and unqualified leads."""
    owner_id = A.person_id(ctx, owner)
    filters = {"status": status, "source": source, "rating": rating, "owner_id": owner_id}
    return A.page(
        ctx, "lead", query=query, filters=filters, is_open=True if open_only else None,
        sort="created_at", descending=True, limit=limit, offset=offset,
    )  # fmt: skip


@tool("read")
def crm_get_lead(ctx: ToolContext, *, lead: A.LeadRef) -> dict[str, Any]:
    """Show a lead, what it was converted into (if converted) and its latest activities."""
    return A.detail(ctx, "lead", crm.find(ctx.session, ctx.actor, "lead", lead))


@tool("write")
def crm_create_lead(
    ctx: ToolContext,
    *,
    last_name: Annotated[str, Field(description="Last name.")],
    company: Annotated[str, Field(description="The lead's company.")],
    first_name: A.FirstName = None,
    title: A.Title = None,
    email: A.Email = None,
    phone: A.Phone = None,
    industry: IndustryOpt = None,
    source: SourceOpt = None,
    rating: RatingOpt = None,
    owner: A.NewOwner = None,
) -> dict[str, Any]:
    """Create a lead (a prospect not yet qualified); it starts with status New."""
    values = {
        "last_name": last_name, "company": company, "first_name": first_name, "title": title,
        "email": email, "phone": phone, "industry": industry, "source": source, "rating": rating,
    }  # fmt: skip
    x = crm.create_record(ctx.session, ctx.actor, "lead", values, owner=A.person(ctx, owner))
    return A.saved("lead", x)


@tool("write")
def crm_update_lead(
    ctx: ToolContext,
    *,
    lead: A.LeadRef,
    status: Annotated[
        LeadStatus | None, Field(description="New status (convert with crm_convert_lead).")
    ] = None,
    rating: RatingOpt = None,
    first_name: A.FirstName = None,
    last_name: A.LastName = None,
    company: Annotated[str | None, Field(description="New company.")] = None,
    title: A.Title = None,
    email: A.Email = None,
    phone: A.Phone = None,
    industry: IndustryOpt = None,
    source: SourceOpt = None,
) -> dict[str, Any]:
    """Change fields of a lead you may edit; converted leads cannot be edited."""
    s, me = ctx.session, ctx.actor
    x = crm.find(s, me, "lead", lead)
    changes = A.given(
        status=status, rating=rating, first_name=first_name, last_name=last_name,
        company=company, title=title, email=email, phone=phone, industry=industry, source=source,
    )  # fmt: skip
    return A.saved("lead", x, crm.update_record(s, me, "lead", x, changes))
