"""What the CRM tool modules share: argument types (each with the description an
agent reads) and small helpers that resolve references and shape results."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import Field

from officegym.apps.crm import service as crm
from officegym.apps.crm.shapes import activity_view, record_view
from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.errors import Invalid
from officegym.tools import Ref, ToolContext

ACCOUNT = Ref("crm_account", ("name",))
CONTACT = Ref("crm_contact", ("email",))
PERSON = Ref("org_person", ("handle", "email", "name"))
AccountRef = Annotated[
    int | str, Field(description="Account id, or the account's exact name."), ACCOUNT
]
OppRef = Annotated[
    int | str,
    Field(description="Opportunity id, or its exact name."),
    Ref("crm_opportunity", ("name",)),
]
ContactRef = Annotated[int | str, Field(description="Contact id, email or full name."), CONTACT]
LeadRef = Annotated[
    int | str, Field(description="Lead id, email or full name."), Ref("crm_lead", ("email",))
]
CaseRef = Annotated[
    int | str,
    Field(description="Case number as a string such as '00001005' (as people quote it), or id."),
    Ref("crm_case", ("number",)),
]
AccountFilter = Annotated[
    int | str | None,
    Field(description="Only records of this account (id or exact name)."),
    ACCOUNT,
]
ContactOpt = Annotated[
    int | str | None,
    Field(description="A contact at the account (id, email or full name)."),
    CONTACT,
]
Query = Annotated[
    str | None, Field(description="Words that must all appear in the record's name or text.")
]
Owner = Annotated[str | None, Field(description="Only records of this owner (handle or name).")]
NewOwner = Annotated[
    str | None,
    Field(description="Owner's handle, email or full name (default: you)."),
    PERSON,
]
Limit = Annotated[int, Field(description="How many results to return (1-100).", ge=1, le=100)]
Offset = Annotated[int, Field(description="Skip this many results (for paging).", ge=0)]
Descending = Annotated[bool, Field(description="Sort in descending order.")]
OpenOnly = Annotated[bool, Field(description="Only open records (not closed or converted).")]
Text = Annotated[str | None, Field(description="Free text.")]
Email = Annotated[str | None, Field(description="Email address.")]
Phone = Annotated[str | None, Field(description="Phone number.")]
Title = Annotated[str | None, Field(description="Job title.")]
FirstName = Annotated[str | None, Field(description="First name.")]
LastName = Annotated[str | None, Field(description="Last name.")]
Money = Annotated[int | None, Field(description="Amount in whole US dollars.", ge=0)]
Day = Annotated[dt.date | None, Field(description="Date as YYYY-MM-DD.")]
Employees = Annotated[int | None, Field(description="Number of employees.", ge=0)]


def person(ctx: ToolContext, ref: str | None) -> Person | None:
    """A person by handle, email or full name; None when not given."""
    return org.find_person(ctx.session, ref) if ref else None


def required_person(ctx: ToolContext, ref: str, argument: str) -> Person:
    """A person a required argument names by handle, email or full name; Invalid if blank."""
    if not ref.strip():
        raise Invalid(f"{argument} is required: give a person's handle, email or full name")
    return org.find_person(ctx.session, ref)


def person_id(ctx: ToolContext, ref: str | None) -> int | None:
    found = person(ctx, ref)
    return found.id if found else None


def ref_id(ctx: ToolContext, record_type: str, ref: int | str | None) -> int | None:
    """The id of a record given by id or name; None when not given."""
    if ref is None or ref == "":
        return None
    return crm.find(ctx.session, ctx.actor, record_type, ref).id


def given(**values: Any) -> dict[str, Any]:
    """The fields an update tool was given (None means 'leave as is')."""
    out = {k: v for k, v in values.items() if v is not None}
    if not out:
        raise Invalid("give at least one field to change")
    return out


def page(ctx: ToolContext, record_type: str, **kwargs: Any) -> dict[str, Any]:
    """Search results as a tool returns them: total, offset and one view per record."""
    found = crm.search(ctx.session, ctx.actor, record_type, **kwargs)
    results = [record_view(record_type, r) for r in found.items]
    return {"total": found.total, "offset": found.offset, "results": results}


def related(ctx: ToolContext, record_type: str, account_id: int, **kw: Any) -> list[dict]:
    """Up to 50 records of one type that belong to an account."""
    return page(ctx, record_type, filters={"account_id": account_id}, limit=50, **kw)["results"]


def activities(ctx: ToolContext, record_type: str, record_id: int) -> list[dict[str, Any]]:
    """The ten latest activities logged on a record."""
    found = crm.list_activities(ctx.session, ctx.actor, record_type, record_id)
    return [activity_view(a) for a in found[:10]]


def detail(ctx: ToolContext, record_type: str, record: Any) -> dict[str, Any]:
    """A record's full view plus its latest activities."""
    view = record_view(record_type, record, detail=True)
    view["activities"] = activities(ctx, record_type, record.id)
    return view


def saved(record_type: str, record: Any, changed: list[str] | None = None) -> dict[str, Any]:
    """The answer of a write tool: ok, the record as stored and, for updates, what changed."""
    out: dict[str, Any] = {"ok": True, record_type: record_view(record_type, record, detail=True)}
    if changed is not None:
        out["changed"] = changed
    return out
