"""CRM templates about single records: update a deal, add a contact, plan a follow-up."""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy.orm import Session

from officegym.seed_data.crm_text import CONTACT_TITLES, NEXT_STEPS
from officegym.tasks.base import Level, Spec, template
from officegym.tasks.checks import Same
from officegym.tasks.common import call, pick
from officegym.tasks.crm.common import contact_names, crm_index, only_open_deal
from officegym.tasks.crm.steps import activity_step, create_step, update_step
from officegym.tasks.statements import Says

FIRST = ["Avery", "Jordan", "Morgan", "Riley", "Quinn", "Harper", "Rowan", "Emerson", "Sage"]
LAST = ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Silva", "Novak", "Haddad", "Kowalski"]
TASKS = [
    "Send revised quote",
    "Book the security review",
    "Confirm pilot scope",
    "Share the ROI model",
    "Schedule the executive call",
]


@template("crm.update-deal", difficulty="easy", knobs={"rivals": (0, 1, 2)})
def update_deal(w: Session, rng: random.Random, level: Level) -> Spec:
    """Set a deal's amount and next step (harder levels pick a deal whose account has at
    least one or two other deals, named alike: "Acme - Renewal", "Acme - Expansion")."""
    idx = crm_index(w)
    deals = [o for o in idx.open_opps() if idx.roles.get(o.owner_id) == "rep"]
    if level.rivals:
        deals = [o for o in deals if len(_same_account(idx, o)) >= level.rivals]
    opp = pick(rng, deals, "deals")
    me = idx.people[opp.owner_id]
    amount = rng.choice([x for x in range(10_000, 400_000, 2_500) if x != opp.amount])
    step = rng.choice([s for s in NEXT_STEPS if s != opp.next_step])
    return Spec(
        goal=f'Update the opportunity "{opp.name}": the amount is now ${amount:,} and the next '
        f'step is "{step}".',
        persona=me.handle,
        steps=[
            update_step(
                "opportunity",
                opp.id,
                {"amount": amount, "next_step": step},
                name={"amount": "amount", "next_step": "next step"},
                exact=["next_step"],
                find=[call("crm_get_opportunity", opportunity=opp.name)],
            )
        ],
    )


@template("crm.add-contact", difficulty="easy")
def add_contact(w: Session, rng: random.Random) -> Spec:
    """Add a new contact with title and email to one of your accounts."""
    idx = crm_index(w)
    account = pick(rng, [a for a in idx.accounts if idx.roles.get(a.owner_id) == "rep"], "accounts")
    me = idx.people[account.owner_id]
    first, last, title = rng.choice(FIRST), rng.choice(LAST), rng.choice(CONTACT_TITLES)
    email = f"{first}.{last}@{account.website.removeprefix('www.')}".lower()
    return Spec(
        goal=f"Add {first} {last} ({title}, {email}) as a new contact at the account "
        f"{account.name}.",
        persona=me.handle,
        steps=[
            create_step(
                "contact",
                call(
                    "crm_create_contact",
                    last_name=last,
                    first_name=first,
                    title=title,
                    email=email,
                    account=account.id,
                ),
                {
                    "account_id": account.id,
                    "email": Same(email),
                    "last_name": Same(last),
                    "first_name": Same(first),
                    "title": Same(title),
                },
                name="contact at the account",
                allow={"account_id": account.id},
                find=[call("crm_search_accounts", query=account.name)],
            )
        ],
    )


@template("crm.follow-up-task", difficulty="easy", knobs={"hops": (0, 1, 2)})
def follow_up_task(w: Session, rng: random.Random, level: Level) -> Spec:
    """Create an open follow-up task with a due date on one of your deals (harder levels
    name the deal by its account, or by a contact who works there)."""
    idx = crm_index(w)
    deals = [o for o in idx.open_opps() if idx.roles.get(o.owner_id) == "rep"]
    if level.hops:  # the rep's only open deal with the account, so the account names it
        deals = [o for o in deals if only_open_deal(idx, o, same_owner=True)]
    if level.hops == 2:
        deals = [o for o in deals if contact_names(w).get(o.account_id)]
    opp = pick(rng, deals, "deals")
    me = idx.people[opp.owner_id]
    subject = rng.choice(TASKS)
    due = idx.today + dt.timedelta(days=rng.randint(2, 20))
    named, find = (
        f'the opportunity "{opp.name}"',
        [call("crm_get_opportunity", opportunity=opp.name)],
    )
    if level.hops:
        account = idx.account(opp.account_id)
        named = f"your open opportunity with {account.name}"
        find = [
            call("crm_search_opportunities", account=account.id, owner=me.handle, open_only=True)
        ]
    if level.hops == 2:
        contact = rng.choice(contact_names(w)[opp.account_id])
        named = f"your open opportunity with the account {contact} works at"
        find.insert(0, call("crm_search_contacts", query=contact))
    return Spec(
        goal=f'Create a follow-up task "{subject}" on {named}, due on {due:%A, %B %-d, %Y}.',
        persona=me.handle,
        steps=[
            activity_step(
                "opportunity",
                opp.id,
                me.id,
                "task",
                subject,
                Says(exactly=subject),
                name="open task with due date",
                where={"status": "Open", "due_date": due, "owner_id": me.id},
                due_date=due,
                find=find,
            )
        ],
    )


def _same_account(idx, opp) -> list:
    """The other deals of `opp`'s account: rivals whose names start the same way."""
    return [o for o in idx.opps if o.account_id == opp.account_id and o.id != opp.id]
