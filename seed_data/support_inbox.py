"""A week of support requests in #support-inbox: support agents forward what customers
asked for (a contact of a customer account, a problem, and how urgent it is), between
posts that ask for nothing (thanks, reminders, kudos). The long triage template
(`tasks/cross/longhaul_support.py`) turns the requests into cases.

It runs after every other generator with a random stream of its own, and dates its
posts in the five weekdays before the scenario date, so every earlier row is the same
with or without it and the CRM's "today" (the day after the last post) does not move.
The wording is fixed (`REQUEST` and the phrase lists) so templates can read it back.
"""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.crm.models import Account, Contact
from officegym.apps.org.models import Team
from officegym.apps.slack import service as chat
from officegym.clock import SimClock
from officegym.seed_data.context import SeedContext
from officegym.seed_data.crm_text import CASE_SUBJECTS, FEATURES

ORDER = 48
CHANNEL = "support-inbox"
REQUEST = "New request from {contact} at {account}: {problem}. {urgency}"
URGENCY = {
    "Critical": ["All of their users are down.", "Their whole company is locked out."],
    "High": ["It is blocking their month-end work.", "Their team cannot work until it is fixed."],
    "Medium": ["They would like an answer this week.", "They asked for an update soon."],
    "Low": ["No rush, they said.", "They said it can wait until next month."],
}
CHATTER = [
    "{account} confirmed last week's fix works, thanks everyone!",
    "Reminder: please fill in the support rota for next week.",
    "FYI {contact} at {account} sent a thank-you note for our help.",
    "Great response times this week, team.",
    "Heads up: {account} renewed their contract, nice work all.",
]
DAYS, PER_DAY = 5, 6  # weekdays of posts, posts a day (about one in five asks for nothing)


def seed(s: Session, ctx: SeedContext) -> None:
    """Create #support-inbox for the support team and post the week's requests in it."""
    rng = random.Random(f"{ctx.scenario.name}:{ctx.seed}:support-inbox")
    team = s.scalar(select(Team).where(Team.name == ctx.scenario.crm.support_team))
    accounts = _customers(s)
    if team is None or not accounts or ctx.scenario.crm.accounts == 0:
        return
    agents = sorted(team.members, key=lambda p: (not p.title.startswith("Head of"), p.id))
    clock: SimClock = s.info["clock"]
    days = _weekdays_before(ctx.scenario.date.date(), DAYS)
    clock.set(dt.datetime.combine(days[0], dt.time(8, 0)))
    channel = chat.create_channel(s, agents[0], CHANNEL, topic="Customer requests to triage")
    chat.invite(s, agents[0], channel, agents[1:])
    rng.shuffle(accounts)
    for day in days:
        when = dt.datetime.combine(day, dt.time(9, 0))
        for _ in range(PER_DAY):
            when += dt.timedelta(minutes=rng.randint(20, 80))
            clock.set(when)
            text = _request(rng, accounts) if rng.random() < 0.8 else _chatter(rng, s)
            if text:
                chat.post_message(s, rng.choice(agents), channel, text)


def _customers(s: Session) -> list[tuple[Account, Contact]]:
    """Customer accounts with a contact (the first by id), by account id."""
    stmt = (
        select(Account, Contact)
        .join(Contact, Contact.account_id == Account.id)
        .where(Account.type == "Customer")
        .order_by(Account.id, Contact.id)
    )
    seen: dict[int, tuple[Account, Contact]] = {}
    for account, contact in s.execute(stmt):
        seen.setdefault(account.id, (account, contact))
    return list(seen.values())


def _request(rng: random.Random, accounts: list[tuple[Account, Contact]]) -> str | None:
    """A request from the next unused customer (each customer asks once this week)."""
    if not accounts:
        return None
    account, contact = accounts.pop()
    problem = rng.choice(CASE_SUBJECTS).format(feature=rng.choice(FEATURES))
    priority = rng.choice(["Critical", "High", "High", "Medium", "Medium", "Low"])
    return REQUEST.format(
        contact=f"{contact.first_name} {contact.last_name}".strip(),
        account=account.name,
        problem=problem.removeprefix("Request: "),
        urgency=rng.choice(URGENCY[priority]),
    )


def _chatter(rng: random.Random, s: Session) -> str:
    account, contact = rng.choice(_customers(s))
    return rng.choice(CHATTER).format(
        account=account.name, contact=f"{contact.first_name} {contact.last_name}".strip()
    )


def _weekdays_before(today: dt.date, n: int) -> list[dt.date]:
    out: list[dt.date] = []
    day = today
    while len(out) < n:
        day -= dt.timedelta(days=1)
        if day.weekday() < 5:
            out.append(day)
    return sorted(out)
