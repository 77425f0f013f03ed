"""CRM templates about single records: update a deal, add a contact, plan a follow-up."""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy.orm import Session

from officegym.seed_data.crm_text import CONTACT_TITLES, NEXT_STEPS
from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Allow, FieldEquals, RowExists, Same
from officegym.tasks.crm.common import allow_new, allow_update, crm_index
from officegym.tasks.slack.common import call, pick
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


@template("crm.update-deal", difficulty="easy")
def update_deal(w: Session, rng: random.Random) -> Spec:
    """Set a deal's amount and next step."""
    idx = crm_index(w)
    opp = pick(rng, [o for o in idx.open_opps() if idx.roles.get(o.owner_id) == "rep"], "deals")
    me = idx.people[opp.owner_id]
    amount = rng.choice([x for x in range(10_000, 400_000, 2_500) if x != opp.amount])
    step = rng.choice([s for s in NEXT_STEPS if s != opp.next_step])
    return Spec(
        goal=f'Update the opportunity "{opp.name}": the amount is now ${amount:,} and the next '
        f'step is "{step}".',
        persona=me.handle,
        checks=[
            FieldEquals(
                name="amount", table="crm_opportunity", row_id=opp.id, field="amount", value=amount
            ),
            FieldEquals(
                name="next step",
                table="crm_opportunity",
                row_id=opp.id,
                field="next_step",
                says=Says(exactly=step),
            ),
        ],
        allowed=allow_update("opportunity", opp.id, ["amount", "next_step"]),
        solution=[
            call("crm_get_opportunity", opportunity=opp.name),
            call("crm_update_opportunity", opportunity=opp.id, amount=amount, next_step=step),
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
        checks=[
            RowExists(
                name="contact at the account",
                table="crm_contact",
                new=True,
                where={
                    "account_id": account.id,
                    "email": Same(email),
                    "last_name": Same(last),
                    "first_name": Same(first),
                    "title": Same(title),
                },
            ),
        ],
        allowed=allow_new("contact", {"account_id": account.id}),
        solution=[
            call("crm_search_accounts", query=account.name),
            call(
                "crm_create_contact",
                last_name=last,
                first_name=first,
                title=title,
                email=email,
                account=account.id,
            ),
        ],
    )


@template("crm.follow-up-task", difficulty="easy")
def follow_up_task(w: Session, rng: random.Random) -> Spec:
    """Create an open follow-up task with a due date on one of your deals."""
    idx = crm_index(w)
    opp = pick(rng, [o for o in idx.open_opps() if idx.roles.get(o.owner_id) == "rep"], "deals")
    me = idx.people[opp.owner_id]
    subject = rng.choice(TASKS)
    due = idx.today + dt.timedelta(days=rng.randint(2, 20))
    where = {"record_type": "opportunity", "record_id": opp.id, "kind": "task", "status": "Open"}
    return Spec(
        goal=f'Create a follow-up task "{subject}" on the opportunity "{opp.name}", due on '
        f"{due:%A, %B %-d, %Y}.",
        persona=me.handle,
        checks=[
            RowExists(
                name="open task with due date",
                table="crm_activity",
                new=True,
                where={**where, "due_date": due, "owner_id": me.id},
                says={"subject": Says(exactly=subject)},
            ),
        ],
        allowed=[
            Allow(
                "crm_activity",
                where={"record_type": "opportunity", "record_id": opp.id, "owner_id": me.id},
                limit=1,
            )
        ],
        solution=[
            call("crm_get_opportunity", opportunity=opp.name),
            call(
                "crm_log_activity",
                record_type="opportunity",
                record_id=opp.id,
                kind="task",
                subject=subject,
                due_date=due.isoformat(),
            ),
        ],
    )
