"""Long-horizon travel desk: book the cheapest fitting, within-policy stay for each of
several colleagues' trip requests in #travel, each for its traveller, and confirm each in
its thread (a reservation and a reply per request; see `longhaul.py`)."""

from __future__ import annotations

import datetime as dt
import functools
import random
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.tasks.base import Spec, template
from officegym.tasks.booking.chat import TripPost, trip_posts
from officegym.tasks.booking.common import booking_index
from officegym.tasks.booking.steps import book_stay, search_stays_call
from officegym.tasks.common import call, pick, reply_step
from officegym.tasks.cross.longhaul import listing
from officegym.tasks.facts import Fact, choice
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

APPS = ["booking", "slack"]


@dataclass(frozen=True)
class Trip:
    """A trip request with one cheapest fitting place within the policy cap."""

    post: TripPost
    city: Any
    check_in: dt.date
    check_out: dt.date
    bedrooms: int
    cap: int  # cents a night
    best: Any  # the listing to book
    titles: tuple[str, ...]  # every fitting place's title (the rivals of the reply)


def trips(w: Session) -> list[Trip]:
    return _trips(w.get_bind())


@functools.lru_cache(maxsize=8)
def _trips(engine: Engine) -> list[Trip]:
    out: dict[int, Trip] = {}
    with Session(engine) as w:
        today = booking_index(w).today
        for req in trip_posts(w, "request"):
            ci, co = req.dates(today)
            city = booking.find_city(w, req.fields["city"])
            bedrooms = int(req.fields["bedrooms"])
            cap = booking.nightly_cap(w, city)
            found = booking.search_stays(
                w,
                city=city.slug,
                check_in=ci,
                check_out=co,
                bedrooms=bedrooms,
                max_price=cap,
                sort="total_price",
                limit=10,
            ).results
            unique = len(found) >= 2 and found[0].quote.total < found[1].quote.total
            if unique and req.author_id not in out:  # one trip per traveller
                titles = tuple(sorted({r.listing.title for r in found}))
                out[req.author_id] = Trip(
                    req, city, ci, co, bedrooms, cap, found[0].listing, titles
                )
    return sorted(out.values(), key=lambda t: t.post.message_id)


def _bookable(todo: list[Trip]) -> list[Trip]:
    """The trips in order, without any whose place an earlier one books on one of the same
    nights: each trip's cheapest place is found on the world as it starts, so two requests
    for the same city and dates (a small world has few places) pick the same listing, and
    the site refuses the second booking."""
    kept: list[Trip] = []
    for t in todo:
        clash = any(
            k.best.id == t.best.id and k.check_in < t.check_out and t.check_in < k.check_out
            for k in kept
        )
        if not clash:
            kept.append(t)
    return kept


@template("cross.travel-desk", difficulty="hard", apps=APPS)
def travel_desk(w: Session, rng: random.Random) -> Spec:
    """Book several colleagues' #travel trip requests within policy; confirm each in its thread.

    The cheapest fitting stay under the nightly cap, in the traveller's name."""
    idx = booking_index(w)
    every = trips(w)
    if len(every) < 7:
        raise LookupError("the world has too few trip requests for a travel desk")
    todo = _bookable(
        sorted(
            rng.sample(every, rng.randint(7, min(12, len(every)))),
            key=lambda t: t.post.message_id,
        )
    )
    travellers = {t.post.author_id for t in todo}
    me = pick(rng, [p for p in idx.people.values() if p.id not in travellers], "travel agents")
    steps = [Step(calls=[call("slack_search_messages", query="Trip request", channel="travel")])]
    steps += [_trip_step(t, me, idx.people[t.post.author_id]) for t in todo]
    names = listing(idx.people[t.post.author_id].name for t in todo)
    return Spec(
        goal=f"You are on the travel desk today. {names} each posted a trip request in "
        "#travel. For each of them, book the cheapest place that fits their request (their "
        "city, dates and bedrooms) and whose nightly rate is within the travel policy's cap, "
        "in the traveller's name, then reply in their request's thread with the place you "
        "booked and its dates. Other people's requests are not part of this.",
        persona=me.handle,
        steps=steps,
    )


def _trip_step(t: Trip, me: Any, who: Any) -> Step:
    """One request of the desk: find its place, book it for `who`, confirm in its thread."""
    search = search_stays_call(t.city.slug, t.check_in, t.check_out, bedrooms=t.bedrooms,
                               max_price=t.cap // 100, sort="total_price", limit=5)  # fmt: skip
    says = Says(facts=[choice(t.best.title, t.titles), Fact("date", (t.check_in, t.check_out))],
                act="confirm")  # fmt: skip
    text = f"Booked {t.best.title} for you, {t.check_in:%B %-d} to {t.check_out:%B %-d}."
    return (
        Step(calls=[search])
        + book_stay(
            me.id,
            t.best.id,
            t.check_in,
            t.check_out,
            name=f"stay booked for {who.name}",
            where={"guest_id": who.id, "booked_by_id": me.id},
            guest=who.id,
            traveller=who.handle,
        )
        + reply_step(
            me,
            t.post.channel_id,
            t.post.message_id,
            text,
            says,
            name=f"confirmed to {who.name} in the thread",
        )
    )
