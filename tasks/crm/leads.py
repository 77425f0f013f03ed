"""CRM templates about leads: convert one (new or existing account) and clean up a
rep's lead list."""

from __future__ import annotations

import functools
import random
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from officegym.tasks.base import Spec, template
from officegym.tasks.checks import FieldEquals, NewRowId, Predicate, RowExists
from officegym.tasks.common import call, pick
from officegym.tasks.crm.common import allow_new, allow_update, crm_index
from officegym.tasks.crm.steps import update_step
from officegym.tasks.steps import Step
from officegym.tools import ToolCall

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


def _convert(lead: Any, account: int | NewRowId, amount: int, calls: list[ToolCall]) -> Step:
    """Convert `lead` into `account` with a new contact and an open deal of `amount`: the
    calls, the checks that the lead is converted and links them (not records made beside
    the conversion, nor an already closed deal), and what a conversion changes allowed."""
    made = _conversion(lead, account, amount)
    links = {
        "converted_account_id": account,
        "converted_contact_id": made["contact"],
        "converted_opportunity_id": made["opportunity"],
    }
    checks = [
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
    allowed = [
        *allow_update("lead", lead.id, CONVERTED),
        *allow_new("contact", made["contact"].where),
        *allow_new("opportunity", {"account_id": account}),
    ]
    return Step(calls=calls, checks=checks, allowed=allowed)


@template("crm.convert-lead", difficulty="medium")
def convert_lead(w: Session, rng: random.Random) -> Spec:
    """Convert a qualified lead into an account, a contact and an opportunity."""
    idx = crm_index(w)
    lead = pick(rng, _open_leads(idx, existing_account=False), "convertible leads")
    me = idx.people[lead.owner_id]
    amount = rng.randrange(10_000, 150_000, 1_000)
    acc = NewRowId("crm_account", {"name": lead.company})
    calls = [
        call("crm_search_leads", query=lead.last_name, open_only=True),
        call("crm_convert_lead", lead=lead.id, amount=amount),
    ]
    new_account = Step(
        checks=[
            RowExists(
                name="account created", table="crm_account", new=True, where={"name": lead.company}
            )
        ],
        allowed=allow_new("account", {"name": lead.company}),
    )
    return Spec(
        goal=f"{lead.first_name} {lead.last_name} from {lead.company} is qualified. Convert "
        f"the lead into an account, a contact and an opportunity worth ${amount:,}.",
        persona=me.handle,
        steps=[_convert(lead, acc, amount, calls), new_account],
    )


@template("crm.convert-lead-existing-account", difficulty="hard")
def convert_lead_existing(w: Session, rng: random.Random) -> Spec:
    """Convert a lead whose company is already an account, without creating a duplicate."""
    idx = crm_index(w)
    lead = pick(rng, _open_leads(idx, existing_account=True), "leads of existing accounts")
    account = next(a for a in idx.accounts if a.name.lower() == lead.company.lower())
    me = idx.people[lead.owner_id]
    amount = rng.randrange(5_000, 90_000, 500)
    calls = [
        call("crm_get_lead", lead=lead.id),
        call("crm_search_accounts", query=lead.company),
        call("crm_convert_lead", lead=lead.id, account=account.id, amount=amount),
    ]
    no_duplicate = Predicate(name="no duplicate account", fn=_no_new("crm_account"), weight=0)
    return Spec(
        goal=f"Convert the lead {lead.first_name} {lead.last_name} ({lead.company}) with an "
        f"opportunity worth ${amount:,}. {lead.company} is already an account in the CRM: "
        "attach the lead to it instead of creating a duplicate account.",
        persona=me.handle,
        steps=[_convert(lead, account.id, amount, calls), Step(checks=[no_duplicate])],
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
    search = call("crm_search_leads", owner=me.handle, source=source, rating="Cold", limit=50)
    return Spec(
        goal=f"Clean up your leads: every lead of yours from the source {source} that is rated "
        f"Cold and still New or Working should get the status {status}. Leave all other "
        "leads as they are.",
        persona=me.handle,
        steps=[
            Step(calls=[search]),
            *[
                update_step(
                    "lead",
                    x.id,
                    {"status": status},
                    name=f"{x.first_name} {x.last_name} is {status}",
                )
                for x in targets
            ],
        ],
    )
