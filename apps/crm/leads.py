"""Lead rules: statuses, the conversion links a lead gets by converting (into an
account, a contact and maybe an opportunity), and imported leads that arrive
already Converted. `service.convert_lead` runs a conversion on these rules."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.crm import fields, records
from officegym.apps.crm.fields import FieldError
from officegym.apps.crm.models import Account, Contact, Lead, Opportunity
from officegym.apps.org.models import Person
from officegym.clock import now
from officegym.db import get
from officegym.errors import Conflict, Invalid

__all__ = [
    "Conversion",
    "account_of_contact",
    "contact_values",
    "mark_converted",
    "opportunity_values",
    "prepare_lead",
    "require_unconverted",
    "update_lead",
]

Values = dict[str, Any]


@dataclass(frozen=True)
class Conversion:
    """What converting a lead produced or linked."""

    lead: Lead
    account: Account
    contact: Contact
    opportunity: Opportunity | None
    account_created: bool
    contact_created: bool


def prepare_lead(s: Session, v: Values, imported: bool) -> tuple[Values, Values]:
    """A new lead starts New; only an imported one may arrive Converted, with its links."""
    v["status"] = v.get("status") or "New"
    converted = str(v["status"]).strip().lower() == "converted"
    if not imported:
        if converted:
            raise FieldError("lead", "status", "a lead becomes Converted only by converting it")
        return v, {}
    links = {name: v.pop(name, None) for name in fields.CONVERSION}
    if converted:
        return v, _conversion_links(s, links)
    for name, value in links.items():
        if value not in (None, ""):
            raise FieldError("lead", name, f"only a Converted lead has it (status {v['status']})")
    return v, {}


def _conversion_links(s: Session, links: Values) -> Values:
    """The checked conversion links of an imported Converted lead."""
    out = {
        name: fields.clean_with(s, "lead", name, spec, links[name])
        for name, spec in fields.CONVERSION.items()
    }
    out["converted_at"] = out["converted_at"] or now(s)
    return out


def update_lead(s: Session, actor: Person, rt: str, lead: Lead, v: Values) -> list[str]:
    if lead.is_converted:
        raise Conflict(f"lead {lead.id} is converted and can no longer be edited")
    if str(v.get("status", "")).lower() == "converted":
        raise FieldError("lead", "status", "use lead conversion to mark a lead Converted")
    return records.update(s, actor, rt, lead, v)


def require_unconverted(lead: Lead) -> None:
    """Conflict if the lead was converted already (a lead converts only once)."""
    if lead.is_converted:
        raise Conflict(
            f"lead {lead.id} was already converted on {lead.converted_at:%Y-%m-%d} "
            f"(account {lead.converted_account_id}, contact {lead.converted_contact_id})",
            code="already_converted",
        )


def account_of_contact(s: Session, contact: Contact, account: Account | None) -> Account:
    """The account a conversion linking an existing contact goes to: the contact's own
    (the account given, if any, must be it)."""
    own = get(s, Account, contact.account_id) if contact.account_id is not None else None
    if own is None:
        raise Invalid(
            f"contact {contact.id} ({contact.name}) belongs to no account; "
            "give it an account first, or convert without it"
        )
    if account is not None and account.id != own.id:
        raise Invalid(
            f"contact {contact.id} ({contact.name}) is not a contact of account {account.id} "
            f"({account.name}); it belongs to account {own.id} ({own.name}): "
            "link that account, or leave the account out"
        )
    return own


def contact_values(lead: Lead, account: Account) -> Values:
    """The fields of the contact a conversion creates from the lead."""
    return {
        "account_id": account.id,
        "first_name": lead.first_name,
        "last_name": lead.last_name,
        "title": lead.title,
        "email": lead.email,
        "phone": lead.phone,
    }


def opportunity_values(
    s: Session, lead: Lead, account: Account, contact: Contact, given: Values
) -> Values:
    """The fields of the opportunity a conversion opens; `given` holds the caller's name,
    amount and close date (raw: the opportunity's field rules check them)."""
    return {
        "name": given["name"] or f"{account.name} - New Business",
        "account_id": account.id,
        "contact_id": contact.id,
        "amount": given["amount"],
        "close_date": given["close_date"] or _quarter_end(now(s).date()),
        "type": "New Business",
        "lead_source": lead.source,
    }


def mark_converted(
    s: Session,
    actor: Person,
    lead: Lead,
    account: Account,
    contact: Contact,
    opp: Opportunity | None,
) -> None:
    """Set the lead Converted, linked to what it became (each change in the history)."""
    values = {
        "status": "Converted",
        "converted_at": now(s),
        "converted_account_id": account.id,
        "converted_contact_id": contact.id,
        "converted_opportunity_id": opp.id if opp else None,
    }
    fields.record_changes(s, actor, "lead", lead, values)


def _quarter_end(day: dt.date) -> dt.date:
    """The last day of the quarter `day` falls in (Salesforce's default close date)."""
    last_month = (day.month - 1) // 3 * 3 + 3
    if last_month == 12:
        return dt.date(day.year, 12, 31)
    return dt.date(day.year, last_month + 1, 1) - dt.timedelta(days=1)
