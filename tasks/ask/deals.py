"""CRM ask-the-requester templates: a deal's new amount or close date, known only to the
colleague who negotiated it, and the contact an invoice goes to."""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.crm.models import Contact
from officegym.tasks import facts as F
from officegym.tasks.ask.common import ask, teammates
from officegym.tasks.asked import ActedAt
from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Allow, FieldEquals, RowExists
from officegym.tasks.common import call, pick
from officegym.tasks.crm.common import allow_update, crm_index
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

APPS = ("crm", "slack")


def _deal(w: Session, rng: random.Random):
    """A rep's open deal, the rep, and a teammate or manager who asks them to update it."""
    idx = crm_index(w)
    deals = [o for o in idx.open_opps() if idx.roles.get(o.owner_id) == "rep"]
    opp = pick(rng, deals, "open deals of reps")
    me = idx.people[opp.owner_id]
    requester = pick(rng, teammates(w, me), "teammates of the deal's owner")
    return idx, opp, me, requester


def _history(opp_id: int, field: str) -> ActedAt:
    where = {"record_type": "opportunity", "record_id": opp_id, "field": field}
    return ActedAt("crm_field_history", where, "changed_at")


def _update_step(opp, field: str, value: object, written: object, *, name: str) -> Step:
    """Look the deal up and set its `field` to `value` (`written` as the tool takes it).
    TODO(steps): move to tasks/crm/common.py"""
    return Step(
        calls=[
            call("crm_get_opportunity", opportunity=opp.name),
            call("crm_update_opportunity", opportunity=opp.id, **{field: written}),
        ],
        checks=[
            FieldEquals(name=name, table="crm_opportunity", row_id=opp.id, field=field, value=value)
        ],
        allowed=allow_update("opportunity", opp.id, [field]),
    )


@template("crm.ask-deal-amount", difficulty="medium", apps=APPS)
def ask_deal_amount(w: Session, rng: random.Random) -> Spec:
    """Update a deal's amount to the figure a colleague agreed; only they know it: ask."""
    _idx, opp, me, req = _deal(w, rng)
    amount = rng.choice([x for x in range(12_000, 480_000, 250) if x != opp.amount])
    first = req.name.split()[0]
    parts = ask(
        w, me, req,
        fact=F.money(amount, ignoring=(opp.name,)),
        reply=f"We settled on ${amount:,} for {opp.name}. Thanks for updating it!",
        topic=("amount", "figure", "price", "how much", "number", "agreed", "agree", "deal"),
        question="Hi! What amount did the customer agree to on that deal?",
        acted=_history(opp.id, "amount"),
        brief=f"You negotiated the opportunity {opp.name} and the customer agreed to "
        f"${amount:,}.",
    )  # fmt: skip
    return Spec(
        goal=f"{req.name} (@{req.handle}) agreed a new figure with the customer for the "
        f'opportunity "{opp.name}". Update its amount to what was agreed; you do not have the '
        f"figure, so ask {first} for it in a direct message first.",
        persona=me.handle,
        steps=[
            parts.step,
            _update_step(opp, "amount", amount, amount, name="amount is the agreed figure"),
        ],
        hidden=parts.hidden,
    )


@template("crm.ask-close-date", difficulty="medium", apps=APPS)
def ask_close_date(w: Session, rng: random.Random) -> Spec:
    """Move a deal's close date to the day the customer committed to; ask who knows it."""
    idx, opp, me, req = _deal(w, rng)
    days = [idx.today + dt.timedelta(days=d) for d in range(14, 200)]
    day = rng.choice([d for d in days if d != opp.close_date])
    first = req.name.split()[0]
    parts = ask(
        w, me, req,
        fact=F.date(day, ignoring=(opp.name,)),
        reply=f"They committed to signing on {day:%B %-d, %Y}. Please set that as the close date.",
        topic=("date", "day", "when", "close", "closing", "sign", "signing", "commit"),
        question="Hey, which day did the customer commit to for closing that deal?",
        acted=_history(opp.id, "close_date"),
        brief=f"You spoke with the customer of {opp.name}; they committed to sign on "
        f"{day:%B %-d, %Y}.",
    )  # fmt: skip
    return Spec(
        goal=f'{req.name} (@{req.handle}) spoke with the customer of "{opp.name}" about when '
        "they will sign. Set the opportunity's close date to the day they committed to; only "
        f"{first} knows it, so ask them in a direct message first.",
        persona=me.handle,
        steps=[
            parts.step,
            _update_step(
                opp, "close_date", day, day.isoformat(), name="close date is the committed day"
            ),
        ],
        hidden=parts.hidden,
    )


@template("crm.ask-invoice-contact", difficulty="medium", apps=APPS)
def ask_invoice_contact(w: Session, rng: random.Random) -> Spec:
    """Log the invoice email on the account's contact a colleague names; ask them which."""
    idx = crm_index(w)
    contacts = _contacts_by_account(w)
    accounts = [
        a
        for a in idx.accounts
        if idx.roles.get(a.owner_id) == "rep" and len(contacts.get(a.id, ())) >= 3
    ]
    account = pick(rng, accounts, "rep accounts with three or more contacts")
    me = idx.people[account.owner_id]
    req = pick(rng, teammates(w, me), "teammates of the account's owner")
    people = contacts[account.id]
    contact = rng.choice(people)
    invoice = f"INV-{rng.randint(10_000, 99_999)}"
    subject = f"Invoice {invoice} sent"
    first = req.name.split()[0]
    forms = {c.name: tuple(x for x in (c.email,) if x) for c in people}
    parts = ask(
        w, me, req,
        fact=F.choice(contact.name, forms),
        reply=f"Send it to {contact.name}" + (f" ({contact.email})" if contact.email else "")
        + ", they handle invoices there.",
        topic=("who", "whom", "which contact", "contact", "send", "invoice", "person"),
        question=f"Hi {first}, which contact should get that invoice?",
        acted=ActedAt("crm_activity", {"owner_id": me.id}, "created_at"),
        brief=f"At {account.name}, invoices go to {contact.name}.",
    )  # fmt: skip
    where = {"record_type": "contact", "record_id": contact.id, "kind": "email"}
    return Spec(
        goal=f"{req.name} (@{req.handle}) wants invoice {invoice} sent to the right contact at "
        f'{account.name}. Log an email on that contact with the subject "{subject}". You '
        f"don't know which contact it is: ask {first} in a direct message first.",
        persona=me.handle,
        steps=[
            parts.step,
            # TODO(steps): move to tasks/crm/common.py (log an activity)
            Step(
                calls=[
                    call("crm_search_contacts", query=contact.last_name),
                    call(
                        "crm_log_activity",
                        record_type="contact",
                        record_id=contact.id,
                        kind="email",
                        subject=subject,
                    ),
                ],
                checks=[
                    RowExists(
                        name="the email is logged on the right contact",
                        table="crm_activity",
                        where=where,
                        new=True,
                        says={"subject": Says(exactly=subject)},
                    )
                ],
                allowed=[Allow("crm_activity", where={**where, "owner_id": me.id}, limit=1)],
            ),
        ],
        hidden=parts.hidden,
    )


def _contacts_by_account(w: Session) -> dict[int, list[Contact]]:
    """Each account's contacts, by id (read once per world through the session)."""
    out: dict[int, list[Contact]] = {}
    for c in w.scalars(select(Contact).order_by(Contact.id)):
        if c.account_id is not None:
            out.setdefault(c.account_id, []).append(c)
    return out
