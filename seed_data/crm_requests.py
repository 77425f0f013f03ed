"""Requests in chat that must be carried out in the CRM, posted after the morning's
other CRM chat: stage changes and questions about named deals in #sales, new lead
tips from events, and case escalation requests in #customer-support. Each names a
real record in a fixed wording (see `crm_text`), so cross-app tasks can use them."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from faker import Faker
from sqlalchemy.orm import Session

from officegym.apps.crm.models import STAGES
from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel
from officegym.seed_data import crm_text as T

if TYPE_CHECKING:
    from officegym.seed_data.crm_chat import Poster
    from officegym.seed_data.crm_crew import Crew, Made

STAGE_REQUESTS, QUESTIONS, LEAD_TIPS, ESCALATIONS = 40, 40, 30, 40


def post_requests(
    s: Session, poster: Poster, crew: Crew, made: Made, fake: Faker, channels: dict[str, Channel]
) -> None:
    """Post every request, shuffled, each naming a different record."""
    rng = poster.rng
    head = crew.sales[0]
    deals = [o for o in made.opportunities if not o.is_closed and o.owner_id != head.id]
    deals = rng.sample(deals, k=min(len(deals), STAGE_REQUESTS + QUESTIONS))
    cases = [c for c in made.cases if c.status in ("New", "Working")
             and c.owner_id != crew.support[0].id and c.account is not None]  # fmt: skip
    cases = rng.sample(cases, k=min(len(cases), ESCALATIONS))
    # A small CRM has fewer open deals than requests: they are shared in the same proportion.
    n_stage = min(STAGE_REQUESTS, len(deals) * STAGE_REQUESTS // (STAGE_REQUESTS + QUESTIONS))
    posts: list[tuple[Person, Channel, str]] = []
    posts += [_stage_request(s, rng, crew, o, channels["sales"]) for o in deals[:n_stage]]
    posts += [_question(s, rng, crew, o, channels["sales"]) for o in deals[n_stage:]]
    taken = {a.name.lower() for a in made.accounts} | {x.company.lower() for x in made.leads}
    posts += [_lead_tip(rng, fake, crew, taken, channels["sales"]) for _ in range(LEAD_TIPS)]
    posts += [_escalation(s, rng, crew, c, channels["customer-support"]) for c in cases]
    rng.shuffle(posts)
    for who, where, text in posts:
        poster.post(who, where, text)


def _someone_else(rng: random.Random, team: list[Person], owner_id: int) -> Person:
    return rng.choice([p for p in team if p.id != owner_id])


def _stage_request(s: Session, rng: random.Random, crew: Crew, opp: Any, where: Channel) -> tuple:
    """A colleague (often the head of sales) asks the owner to move a deal forward."""
    owner = s.get_one(Person, opp.owner_id)
    asker = crew.sales[0] if rng.random() < 0.6 else _someone_else(rng, crew.sales, owner.id)
    later = [st for st in STAGES[STAGES.index(opp.stage) + 1 :] if st != "Closed Lost"]
    stage = rng.choice(later[:2] if len(later) > 1 else later)
    text = T.STAGE_REQUEST.format(owner=owner.handle, opp=opp.name, stage=stage,
                                  reason=rng.choice(T.STAGE_REASONS))  # fmt: skip
    return asker, where, text


def _question(s: Session, rng: random.Random, crew: Crew, opp: Any, where: Channel) -> tuple:
    owner = s.get_one(Person, opp.owner_id)
    asker = _someone_else(rng, crew.sales, owner.id)
    field = rng.choice(T.QUESTION_FIELDS)
    return asker, where, T.FIELD_QUESTION.format(owner=owner.handle, field=field, opp=opp.name)


def _lead_tip(rng: random.Random, fake: Faker, crew: Crew, taken: set[str],
              where: Channel) -> tuple:  # fmt: skip
    """Someone met a prospect at an event; the company is in no CRM record yet."""
    company = fake.company()
    while company.lower() in taken:
        company = fake.company()
    taken.add(company.lower())
    first, last = fake.first_name(), fake.last_name()
    domain = "".join(ch for ch in company.lower().split(" ")[0] if ch.isalnum()) + ".example"
    email = f"{first}.{last}@{domain}".lower()
    text = T.LEAD_TIP.format(first=first, last=last, title=rng.choice(T.CONTACT_TITLES),
                             company=company, event=rng.choice(T.EVENTS), email=email)  # fmt: skip
    return rng.choice(crew.sales), where, text


def _escalation(s: Session, rng: random.Random, crew: Crew, case: Any, where: Channel) -> tuple:
    owner = s.get_one(Person, case.owner_id)
    text = T.ESCALATION_REQUEST.format(owner=owner.handle, number=case.number,
                                       account=case.account.name,
                                       reason=rng.choice(T.ESCALATION_REASONS).lower())  # fmt: skip
    return crew.support[0], where, text
