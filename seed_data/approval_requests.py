"""Over-policy stays awaiting a manager's decision: up to `MANAGERS` managers each have
five requests from their reports, made in the last working days the way a traveller
makes one (booking a place over the cap holds it as ``pending`` and DMs the manager), in
a mix the travel policy approves (within `approvals.MARGIN` over the cap, or with a
stated purpose) and declines (beyond it, no purpose). `booking.decide-approvals` hands a
manager the queue.

It runs after every other generator, with a random stream of its own, and dates its
requests before the world's last post, so every earlier row is the same with or without
it and the booking tasks' "now" (just after the last post) does not move.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import City, Listing
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Message
from officegym.seed_data.booking_places import HOME_BY_TIMEZONE, PURPOSES
from officegym.seed_data.context import SeedContext
from officegym.seed_data.work_hours import pick

ORDER = 50
MANAGERS = 8  # at most this many managers have requests waiting
KINDS = ("within", "purpose", "beyond")  # one request of each kind per manager, and two more
DAY = dt.timedelta(days=1)
# Days after the request a stay starts: after the trips the chat asks to book or approve
# (`booking_trips`: up to 45 days ahead of the world date, 5 nights; a request is at most
# 4 days before it), so their places stay free for them.
AHEAD = (56, 84)


@dataclass(frozen=True)
class Ask:
    """One request to make: who travels, to whom it goes, of which kind, and when."""

    traveller: Person
    manager: Person
    kind: str
    at: dt.datetime


def seed(s: Session, ctx: SeedContext) -> None:
    """Book the planned over-policy stays in time order, each held for the manager."""
    sc = ctx.scenario
    rng = random.Random(f"{sc.name}:{ctx.seed}:approval-requests")
    last = s.scalar(select(func.max(Message.created_at)))
    if sc.booking.listings == 0 or last is None:
        return
    made = ctx.made.get("crm")
    accounts = [a.name for a in made.accounts] if made is not None else []
    cities = [c for c in booking.cities(s) if c.airport]
    for ask in sorted(_plan(s, rng, ctx.people, last), key=lambda a: a.at):
        s.info["clock"].set(ask.at)
        _request(s, rng, ask, cities, accounts)


def _plan(s: Session, rng: random.Random, people: list[Person], last: dt.datetime) -> list[Ask]:
    """The requests of up to `MANAGERS` managers (in a drawn order, those with at least two
    requests, one the policy declines): the kinds in a drawn order, from drawn reports
    who already have a DM with them (so no conversation is opened that tasks would find
    new), at working times of the traveller's after their DM's history and before `last`."""
    by_id = {p.id: p for p in people}
    reports: dict[int, list[Person]] = {}
    for p in people:
        if p.manager_id is not None and chat.find_dm(s, p, [by_id[p.manager_id]]):
            reports.setdefault(p.manager_id, []).append(p)
    asks: list[Ask] = []
    kept = 0
    for boss_id in rng.sample(sorted(reports), k=len(reports)):
        planned = _asks(s, rng, by_id[boss_id], reports[boss_id], last)
        if len(planned) >= 2 and "beyond" in {a.kind for a in planned}:
            asks += planned
            kept += 1
            if kept == MANAGERS:
                break
    return asks


def _asks(
    s: Session, rng: random.Random, boss: Person, reports: list[Person], last: dt.datetime
) -> list[Ask]:
    """One manager's requests, of each kind and two more, from as many of the reports as
    there are requests (or all of them), where the traveller's hours leave room."""
    latest: dict[int, dt.datetime] = {}
    out = []
    kinds = [*rng.sample(KINDS, k=len(KINDS)), rng.choice(KINDS), rng.choice(KINDS)]
    travellers = rng.sample(reports, k=min(len(kinds), len(reports)))
    for i, kind in enumerate(kinds):
        traveller = travellers[i % len(travellers)]
        lo = latest.get(traveller.id) or _dm_latest(s, traveller, boss, last - 4 * DAY)
        at = pick(rng, lo + dt.timedelta(minutes=1), last - dt.timedelta(minutes=5),
                  traveller.timezone)  # fmt: skip
        if at is not None:
            latest[traveller.id] = at
            out.append(Ask(traveller, boss, kind, at))
    return out


def _dm_latest(s: Session, a: Person, b: Person, floor: dt.datetime) -> dt.datetime:
    """When the DM of `a` and `b` was last written in (`floor` if later)."""
    dm = chat.find_dm(s, a, [b])
    assert dm is not None
    latest = s.scalar(select(func.max(Message.created_at)).where(Message.channel_id == dm.id))
    return max(floor, latest or floor)


def _request(
    s: Session, rng: random.Random, ask: Ask, cities: list[City], accounts: list[str]
) -> None:
    """Book a stay of the ask's kind for the traveller (held, the manager asked by DM)."""
    home = HOME_BY_TIMEZONE.get(ask.traveller.timezone, "new-york-ny")
    for _ in range(12):
        city = rng.choice([c for c in cities if c.slug != home])
        check_in = ask.at.date() + rng.randint(AHEAD[0], AHEAD[1]) * DAY
        check_out = check_in + rng.randint(2, 4) * DAY
        listing = _place(s, rng, city, check_in, check_out, ask.kind)
        if listing is not None:
            purpose = _purpose(rng, accounts) if ask.kind == "purpose" else ""
            booking.book_stay(s, ask.traveller, listing, check_in=check_in,
                              check_out=check_out, guests=1, purpose=purpose)  # fmt: skip
            return


def _place(
    s: Session, rng: random.Random, city: City, check_in: dt.date, check_out: dt.date, kind: str
) -> Listing | None:
    """An instant-book place over the cap for the dates: within the margin managers
    approve without a purpose (`within`) or beyond it (the other kinds)."""
    cap = booking.nightly_cap(s, city)
    limit = cap * (1 + booking.MARGIN)
    page = booking.search_stays(s, city=city.slug, check_in=check_in, check_out=check_out,
                                instant_book=True, min_price=cap + 100, sort="total_price",
                                limit=50)  # fmt: skip
    fits = [r.listing for r in page.results if (r.nightly <= limit) == (kind == "within")]
    return booking.get_listing(s, rng.choice(fits).id) if fits else None


def _purpose(rng: random.Random, accounts: list[str]) -> str:
    """A business purpose, as travellers state them (a customer visit names the account)."""
    purpose = rng.choice(PURPOSES)
    if purpose == "a customer visit":
        return f"a visit to {rng.choice(accounts)}" if accounts else "a partner workshop"
    return purpose
