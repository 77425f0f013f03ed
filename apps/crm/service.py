"""CRM operations: the only code that changes CRM state.

Every function takes the session first and the acting person second, enforces
the access rules of `access.py` (reps edit their own records, managers their
team's, admins everything; every CRM user reads everything), never commits and
raises `officegym.errors` with a message an agent or a person can act on. Field
values are validated by `fields.py`; every field change lands in the history.
Web routes, tools, CSV import and seeders call only this module (it re-exports
the look-ups, access and report functions they need).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.crm import fields, leads, records
from officegym.apps.crm.access import (
    can_edit,
    edit_rule,
    list_users,
    require_assignable,
    require_edit,
    require_role,
    role_of,
    set_role,
)
from officegym.apps.crm.activities import (
    complete_activity,
    field_history,
    get_activity,
    list_activities,
    log_activity,
)
from officegym.apps.crm.cases import close_case, escalate_case, prepare_case, update_case
from officegym.apps.crm.fields import FieldError
from officegym.apps.crm.leads import Conversion
from officegym.apps.crm.models import Account, Contact, Lead
from officegym.apps.crm.opportunities import (
    change_stage,
    prepare_opportunity,
    require_unlocked,
    update_opportunity,
)
from officegym.apps.crm.records import (
    Page,
    describe,
    find,
    find_by_name,
    get_record,
    record_name,
    search,
)
from officegym.apps.crm.report_builder import ReportSpec, run_report
from officegym.apps.crm.reports import cases_by_status, pipeline_by_owner, pipeline_by_stage
from officegym.apps.org.models import Person
from officegym.errors import Conflict, Invalid

__all__ = [
    "Conversion",
    "Page",
    "ReportSpec",
    "can_edit",
    "cases_by_status",
    "change_stage",
    "close_case",
    "complete_activity",
    "convert_lead",
    "create_record",
    "describe",
    "edit_rule",
    "escalate_case",
    "field_history",
    "find",
    "find_by_name",
    "get_activity",
    "get_record",
    "list_activities",
    "list_users",
    "log_activity",
    "pipeline_by_owner",
    "pipeline_by_stage",
    "reassign_owner",
    "record_name",
    "role_of",
    "run_report",
    "search",
    "set_role",
    "update_record",
]

Values = dict[str, Any]
Prepare = Callable[[Session, Values, bool], tuple[Values, Values]]


# ---------------------------------------------------------------- create and update


def create_record(
    s: Session,
    actor: Person,
    record_type: str,
    values: Mapping[str, Any],
    *,
    owner: Person | None = None,
    imported: bool = False,
) -> Any:
    """Create an account, contact, lead, opportunity or case from field values.

    The owner defaults to the actor; opportunities start at `values['stage']`
    (default Prospecting) with that stage's probability unless one is given, and
    one created Closed Won or Lost is closed today (close date today), as a stage
    change to Closed does.

    `imported` marks records carried over from elsewhere (CSV import), which keep
    the history the file states: a closed opportunity keeps its close date (and is
    closed as of that day); a lead may arrive Converted with its conversion links
    (`converted_account_id` and `converted_contact_id` required,
    `converted_opportunity_id` optional, `converted_at` defaulting to now)."""
    require_role(s, actor)
    prepare = _PREPARE.get(record_type)
    if prepare is None:
        raise Invalid(f"cannot create records of type {record_type!r}")
    clean, extra = prepare(s, dict(values), imported)
    return records.create(s, actor, record_type, clean, owner=owner, extra=extra)


def _prepare_account(s: Session, v: Values, _imported: bool) -> tuple[Values, Values]:
    v["type"] = v.get("type") or "Prospect"
    records.require_unique_account_name(s, str(v.get("name") or ""))
    return v, {}


def _prepare_contact(_s: Session, v: Values, _imported: bool) -> tuple[Values, Values]:
    return v, {}


_PREPARE: dict[str, Prepare] = {
    "account": _prepare_account,
    "contact": _prepare_contact,
    "lead": leads.prepare_lead,
    "opportunity": prepare_opportunity,
    "case": prepare_case,
}


def update_record(
    s: Session, actor: Person, record_type: str, record: Any, changes: Mapping[str, Any]
) -> list[str]:
    """Change fields of a record the actor may edit; returns the fields that changed.

    Owners change with `reassign_owner`; an opportunity's `stage` may be given
    here (it follows `change_stage`, after the other fields and before the
    probability); converted leads and closed records are locked. All or nothing."""
    require_edit(s, actor, record, describe(record_type, record))
    changes = dict(changes)
    for key in ("owner_id", "id", "number", "created_at"):
        if key in changes:
            raise FieldError(record_type, key, "cannot be changed here")
    updater = _UPDATERS.get(record_type, records.update)
    with s.begin_nested():
        return updater(s, actor, record_type, record, changes)


def _update_account(s: Session, actor: Person, rt: str, account: Account, v: Values) -> list[str]:
    if v.get("name"):
        records.require_unique_account_name(s, str(v["name"]), exclude_id=account.id)
    return records.update(s, actor, rt, account, v)


_UPDATERS: dict[str, Callable[[Session, Person, str, Any, Values], list[str]]] = {
    "account": _update_account,
    "lead": leads.update_lead,
    "opportunity": update_opportunity,
    "case": update_case,
}


def reassign_owner(
    s: Session, actor: Person, record_type: str, record: Any, new_owner: Person
) -> Any:
    """Give a record to another CRM user (the actor must be able to edit both sides)."""
    require_edit(s, actor, record, describe(record_type, record))
    if record_type == "opportunity":
        require_unlocked(s, actor, record)
    require_assignable(s, actor, new_owner)
    if record.owner_id == new_owner.id:
        raise Conflict(f"{describe(record_type, record)} is already owned by {new_owner.name}")
    fields.record_changes(s, actor, record_type, record, {"owner_id": new_owner.id})
    return record


# ---------------------------------------------------------------- leads


def convert_lead(
    s: Session,
    actor: Person,
    lead: Lead,
    *,
    account: Account | None = None,
    contact: Contact | None = None,
    create_opportunity: bool = True,
    opportunity_name: str | None = None,
    amount: int | str | None = None,
    close_date: dt.date | str | None = None,
) -> Conversion:
    """Convert a lead: link `account` or create one named after the lead's company,
    link `contact` (of that account) or create one from the lead, optionally open an
    opportunity, then mark the lead Converted. A lead converts only once.

    Given a contact and no account, the lead converts into the contact's account.
    `amount` and `close_date` follow the opportunity's field rules (so '50,000' is
    50000 and '-5' is refused, naming the field)."""
    require_edit(s, actor, lead, describe("lead", lead))
    leads.require_unconverted(lead)
    if contact is not None:
        account = leads.account_of_contact(s, contact, account)
    with s.begin_nested():
        opp_values = {"name": opportunity_name, "amount": amount, "close_date": close_date}
        return _convert(
            s, actor, lead, account, contact, opp_values if create_opportunity else None
        )


def _convert(
    s: Session,
    actor: Person,
    lead: Lead,
    account: Account | None,
    contact: Contact | None,
    opp_values: Values | None,
) -> Conversion:
    owner = s.get_one(Person, lead.owner_id)
    new_account = account is None
    if account is None:
        account = _account_from_lead(s, actor, lead, owner)
    new_contact = contact is None
    if contact is None:
        values = leads.contact_values(lead, account)
        contact = create_record(s, actor, "contact", values, owner=owner)
    opp = None
    if opp_values is not None:
        values = leads.opportunity_values(s, lead, account, contact, opp_values)
        opp = create_record(s, actor, "opportunity", values, owner=owner)
    leads.mark_converted(s, actor, lead, account, contact, opp)
    return Conversion(lead, account, contact, opp, new_account, new_contact)


def _account_from_lead(s: Session, actor: Person, lead: Lead, owner: Person) -> Account:
    existing = records.account_named(s, lead.company)
    if existing is not None:
        raise Conflict(
            f"an account named {lead.company!r} already exists (id {existing.id}); "
            "link it instead of creating a duplicate",
            code="duplicate_account",
        )
    values = {"name": lead.company, "industry": lead.industry, "phone": lead.phone}
    return create_record(s, actor, "account", values, owner=owner)
