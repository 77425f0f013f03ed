"""CRM templates about leads: convert one (new or existing account) and clean up a
rep's lead list."""

from __future__ import annotations

import functools
import random
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Check, FieldEquals, NewRowId, Predicate, RowExists
from officegym.tasks.common import call, pick
from officegym.tasks.crm.common import allow_new, allow_update, crm_index

CONVERTED = [
    "status",
    "converted_at",
    "converted_account_id",
    "converted_contact_id",
    "converted_opportunity_id",
]


def _open_leads(idx, *, existing_account: bool) -> list:
    names = {a.name.lower(): a for a in idx.accounts}
    return [
        x
        for x in idx.leads
        if x.status in ("New", "Working", "Nurturing")
        and (x.company.lower() in names) == existing_account
        and idx.roles.get(x.owner_id) == "rep"
    ]


def _no_new(table: str):
    def check(g) -> tuple[bool, str]:
        made = g.inserted_ids(table)
        return not made, f"{len(made)} new {table} row(s)"

    return check


def _conversion(lead: Any, account: int | NewRowId, amount: int) -> dict[str, NewRowId]:
    """The contact and the open opportunity a conversion of `lead` must create."""
    return {
        "contact": NewRowId("crm_contact", {"email": lead.email, "account_id": account}),
        "opportunity": NewRowId(
            "crm_opportunity", {"account_id": account, "amount": amount, "closed_at": None}
        ),
    }


def _conversion_checks(
    lead: Any, account: int | NewRowId, made: dict[str, NewRowId]
) -> list[Check]:
    """The lead is converted into that account, contact and open opportunity, and links
    them (not records made beside the conversion, nor an already closed deal)."""
    links = {
        "converted_account_id": account,
        "converted_contact_id": made["contact"],
        "converted_opportunity_id": made["opportunity"],
    }
    return [
        FieldEquals(
            name="lead converted",
            table="crm_lead",
            row_id=lead.id,
            field="status",
            value="Converted",
        ),
        RowExists(
            name="contact created", table="crm_contact", new=True, where=made["contact"].where
        ),
        RowExists(
            name="open opportunity with the amount",
            table="crm_opportunity",
            new=True,
            where=made["opportunity"].where,
        ),
        RowExists(
            name="the lead links the account, contact and opportunity",
            table="crm_lead",
            where={"id": lead.id, **links},
        ),
    ]


@template("crm.convert-lead", difficulty="medium")
def convert_lead(w: Session, rng: random.Random) -> Spec:
    """Convert a qualified lead into an account, a contact and an opportunity."""
    idx = crm_index(w)
    lead = pick(rng, _open_leads(idx, existing_account=False), "convertible leads")
    me = idx.people[lead.owner_id]
    amount = rng.randrange(10_000, 150_000, 1_000)
    acc = NewRowId("crm_account", {"name": lead.company})
    made = _conversion(lead, acc, amount)
    return Spec(
        goal=f"{lead.first_name} {lead.last_name} from {lead.company} is qualified. Convert "
        f"the lead into an account, a contact and an opportunity worth ${amount:,}.",
        persona=me.handle,
        checks=[
            RowExists(
                name="account created", table="crm_account", new=True, where={"name": lead.company}
            ),
            *_conversion_checks(lead, acc, made),
        ],
        allowed=[
            *allow_update("lead", lead.id, CONVERTED),
            *allow_new("account", {"name": lead.company}),
            *allow_new("contact", made["contact"].where),
            *allow_new("opportunity", {"account_id": acc}),
        ],
        solution=[
            call("crm_search_leads", query=lead.last_name, open_only=True),
            call("crm_convert_lead", lead=lead.id, amount=amount),
        ],
    )


@template("crm.convert-lead-existing-account", difficulty="hard")
def convert_lead_existing(w: Session, rng: random.Random) -> Spec:
    """Convert a lead whose company is already an account, without creating a duplicate."""
    idx = crm_index(w)
    lead = pick(rng, _open_leads(idx, existing_account=True), "leads of existing accounts")
    account = next(a for a in idx.accounts if a.name.lower() == lead.company.lower())
    me = idx.people[lead.owner_id]
    amount = rng.randrange(5_000, 90_000, 500)
    made = _conversion(lead, account.id, amount)
    return Spec(
        goal=f"Convert the lead {lead.first_name} {lead.last_name} ({lead.company}) with an "
        f"opportunity worth ${amount:,}. {lead.company} is already an account in the CRM: "
        "attach the lead to it instead of creating a duplicate account.",
        persona=me.handle,
        checks=[
            *_conversion_checks(lead, account.id, made),
            Predicate(name="no duplicate account", fn=_no_new("crm_account"), weight=0),
        ],
        allowed=[
            *allow_update("lead", lead.id, CONVERTED),
            *allow_new("contact", made["contact"].where),
            *allow_new("opportunity", {"account_id": account.id}),
        ],
        solution=[
            call("crm_get_lead", lead=lead.id),
            call("crm_search_accounts", query=lead.company),
            call("crm_convert_lead", lead=lead.id, account=account.id, amount=amount),
        ],
    )


@functools.lru_cache(maxsize=8)
def _cold_lead_sets(engine: Engine) -> list[tuple[Any, str, list[Any]]]:
    """(sales rep, lead source, their 1-4 open Cold leads from it), once per world."""
    with Session(engine) as w:
        idx = crm_index(w)
    cold: dict[tuple[int, str], list[Any]] = {}
    for x in idx.leads:
        if x.source and x.rating == "Cold" and x.status in ("New", "Working"):
            cold.setdefault((x.owner_id, x.source), []).append(x)
    sources = sorted({x.source for x in idx.leads if x.source})
    return [
        (rep, source, cold[rep.id, source])
        for rep in idx.with_role("rep", idx.sales)
        for source in sources
        if 1 <= len(cold.get((rep.id, source), [])) <= 4
    ]


@template("crm.disqualify-cold-leads", difficulty="hard")
def disqualify_cold_leads(w: Session, rng: random.Random) -> Spec:
    """Move a rep's cold leads from one source to Unqualified or Nurturing (others stay)."""
    me, source, targets = pick(rng, _cold_lead_sets(w.get_bind()), "reps with cold leads")
    status = rng.choice(["Unqualified", "Nurturing"])
    return Spec(
        goal=f"Clean up your leads: every lead of yours from the source {source} that is rated "
        f"Cold and still New or Working should get the status {status}. Leave all other "
        "leads as they are.",
        persona=me.handle,
        checks=[
            FieldEquals(
                name=f"{x.first_name} {x.last_name} is {status}",
                table="crm_lead",
                row_id=x.id,
                field="status",
                value=status,
            )
            for x in targets
        ],
        allowed=[a for x in targets for a in allow_update("lead", x.id, ["status"])],
        solution=[
            call("crm_search_leads", owner=me.handle, source=source, rating="Cold", limit=50),
            *[call("crm_update_lead", lead=x.id, status=status) for x in targets],
        ],
    )
