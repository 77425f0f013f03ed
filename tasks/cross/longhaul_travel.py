"""Long-horizon travel desk: book the cheapest fitting, within-policy stay for each of
several colleagues' trip requests in #travel, each for its traveller, and confirm each in
its thread (a reservation and a reply per request; see `longhaul.py`)."""

from __future__ import annotations

import functools
import random

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from officegym.tasks.base import Spec, template
from officegym.tasks.booking.chat import Trip, trip_of, trip_posts
from officegym.tasks.booking.common import booking_index
from officegym.tasks.booking.steps import book_trip
from officegym.tasks.common import call, pick
from officegym.tasks.cross.longhaul import listing
from officegym.tasks.steps import Step

APPS = ["booking", "slack"]


def trips(w: Session) -> list[Trip]:
    return _trips(w.get_bind())


@functools.lru_cache(maxsize=8)
def _trips(engine: Engine) -> list[Trip]:
    out: dict[int, Trip] = {}
    with Session(engine) as w:
        for req in trip_posts(w, "request"):
            trip = trip_of(w, req)
            if trip is not None and req.author_id not in out:  # one trip per traveller
                out[req.author_id] = trip
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
    for t in todo:
        who = idx.people[t.post.author_id]
        steps.append(
            book_trip(t, me, who, name=f"stay booked for {who.name}",
                      confirmed=f"confirmed to {who.name} in the thread", for_guest=True)
        )  # fmt: skip
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
