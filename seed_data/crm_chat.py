"""Chat about real CRM records, posted on the morning of the scenario date (after
the rest of the chat history): reps asking about named deals in #sales, discount
requests to the head of sales by DM, and support escalation threads naming a case
and its account in #customer-support."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from officegym.apps.crm.models import Case, Opportunity
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, Message
from officegym.clock import SimClock
from officegym.seed_data import crm_text as T
from officegym.seed_data.context import SeedContext
from officegym.seed_data.crm_requests import post_requests
from officegym.seed_data.org import slugify

if TYPE_CHECKING:
    from officegym.seed_data.crm_crew import Crew, Made


class Poster:
    """Posts messages a few minutes apart, starting shortly before the scenario date."""

    def __init__(self, s: Session, ctx: SeedContext) -> None:
        self.s, self.rng = s, ctx.rng
        self.clock: SimClock = s.info["clock"]
        self.when = ctx.scenario.date - dt.timedelta(minutes=59)

    def post(
        self, who: Person, where: Channel, text: str, parent: Message | None = None
    ) -> Message:
        self.when += dt.timedelta(seconds=self.rng.randint(12, 24))
        self.clock.set(self.when)
        return chat.post_message(self.s, who, where, text, thread_parent=parent)


def post(s: Session, ctx: SeedContext, crew: Crew, made: Made) -> None:
    """Deal questions, discount requests and escalation threads about seeded records."""
    poster = Poster(s, ctx)
    open_opps = [
        o for o in made.opportunities if not o.is_closed and o.owner_id != crew.sales[0].id
    ]
    deals = ctx.rng.sample(open_opps, k=min(5, len(open_opps)))
    _deal_questions(s, poster, crew, deals[:3])
    _discount_asks(s, poster, crew, deals[3:])
    open_cases = [
        c for c in made.cases if c.status in ("New", "Working") and c.owner_id != crew.support[0].id
    ]
    _escalations(s, poster, crew, ctx.rng.sample(open_cases, k=min(2, len(open_cases))))
    channels = {
        "sales": _channel(s, crew.admin, team_channel(ctx.scenario.crm.sales_team)),
        "customer-support": _channel(s, crew.admin, team_channel(ctx.scenario.crm.support_team)),
    }
    if all(channels.values()):
        post_requests(s, poster, crew, made, ctx.fake, channels)  # type: ignore[arg-type]


def team_channel(team: str) -> str:
    """The channel of a team (`seed_data/slack.py` names it by the team's slug)."""
    return slugify(team)


def _channel(s: Session, who: Person, name: str) -> Channel | None:
    found = chat.list_channels(s, who, query=name)
    return next((c for c in found if c.name == name), None)


def _deal_questions(s: Session, poster: Poster, crew: Crew, deals: list[Opportunity]) -> None:
    """A colleague asks the owner about a deal; the owner answers all but the last."""
    channel = _channel(s, crew.sales[0], crew.sales[0].team.slug)
    if channel is None:
        return
    for i, opp in enumerate(deals):
        owner = s.get_one(Person, opp.owner_id)
        asker = poster.rng.choice([p for p in crew.sales if p.id != owner.id])
        text = T.DEAL_QUESTIONS[i % len(T.DEAL_QUESTIONS)].format(
            owner=owner.handle,
            opp=opp.name,
            contact=opp.contact.name if opp.contact else "their buyer",
            close=opp.close_date.isoformat(),
            account=opp.account.name,
        )
        question = poster.post(asker, channel, text)
        if i < len(deals) - 1:
            answer = T.DEAL_ANSWERS[i % len(T.DEAL_ANSWERS)]
            poster.post(
                owner, channel, answer.format(stage=opp.stage, next_step=opp.next_step), question
            )


def _discount_asks(s: Session, poster: Poster, crew: Crew, deals: list[Opportunity]) -> None:
    """The owner asks the head of sales, by DM, to approve a discount on a deal."""
    head = crew.sales[0]
    for i, opp in enumerate(deals):
        owner = s.get_one(Person, opp.owner_id)
        dm = chat.open_dm(s, owner, [head])
        text = T.DISCOUNT_ASKS[i % len(T.DISCOUNT_ASKS)]
        first = head.name.split(" ")[0]
        poster.post(owner, dm, text.format(head=first, opp=opp.name, account=opp.account.name))


def _escalations(s: Session, poster: Poster, crew: Crew, cases: list[Case]) -> None:
    """A support colleague raises a case; the head of support asks its owner in the thread."""
    head = crew.support[0]
    channel = _channel(s, head, head.team.slug)
    if channel is None:
        return
    for i, case in enumerate(cases):
        owner = s.get_one(Person, case.owner_id)
        colleagues = [p for p in crew.support[1:] if p.id != owner.id]
        raiser = poster.rng.choice(colleagues or [head])  # a one-person team asks itself
        account = case.account.name if case.account else "a customer"
        text = T.ESCALATIONS[i % len(T.ESCALATIONS)]
        parent = poster.post(
            raiser, channel, text.format(number=case.number, account=account, subject=case.subject)
        )
        reply = T.ESCALATION_REPLIES[i % len(T.ESCALATION_REPLIES)]
        poster.post(head, channel, reply.format(owner=owner.handle, number=case.number), parent)
