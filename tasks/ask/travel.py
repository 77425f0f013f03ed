"""Booking ask-the-requester template: book a stay for the nights of a trip only the
manager who sends you knows."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.tasks.ask.common import ask, persona_and_requester
from officegym.tasks.asked import ActedAt
from officegym.tasks.base import Spec, template
from officegym.tasks.booking.common import DAY, allow_new_stay, booking_index
from officegym.tasks.checks import RowExists
from officegym.tasks.common import call
from officegym.tasks.facts import Fact
from officegym.tasks.steps import Step

APPS = ("booking", "slack")
PURPOSES = ("customer workshop", "partner visit", "sales kickoff", "trade show", "site audit")


def _stay(w: Session, rng: random.Random) -> tuple[Any, Any, Any]:
    """(city, the dates as (check-in, check-out), a bookable place within the policy cap)."""
    today = booking_index(w).today
    for _ in range(60):
        city = rng.choice(booking.cities(w))
        ci = today + rng.randint(7, 90) * DAY
        co = ci + rng.randint(2, 5) * DAY
        found = booking.search_stays(w, city=city.slug, check_in=ci, check_out=co,
                                     instant_book=True, limit=10).results  # fmt: skip
        cap = booking.nightly_cap(w, city)
        fits = [r for r in found if r.nightly <= cap]
        if fits:
            return city, (ci, co), rng.choice(fits).listing
    raise LookupError("the world has no bookable stay within the policy cap")


@template("booking.ask-trip-nights", difficulty="medium", apps=APPS)
def ask_trip_nights(w: Session, rng: random.Random) -> Spec:
    """Book a named place for a trip whose nights only the colleague who sends you knows."""
    idx = booking_index(w)
    travellers = [p for p in idx.people.values() if p.manager_id is not None]
    me, req = persona_and_requester(w, rng, travellers)
    city, (ci, co), listing = _stay(w, rng)
    purpose = rng.choice(PURPOSES)
    first = req.name.split()[0]
    parts = ask(
        w, me, req,
        fact=Fact("date", (ci, co), ignoring=(listing.title,)),
        reply=f"You check in on {ci:%B %-d} and check out on {co:%B %-d, %Y}.",
        topic=("nights", "night", "dates", "date", "when", "days", "check in", "check-in",
               "arrive", "stay", "trip", purpose),
        question=f"Hi {first}, which nights should I book for the {purpose}?",
        acted=ActedAt("booking_reservation", {"booked_by_id": me.id}, "created_at"),
        brief=f"You are sending them to the {purpose} in {city.label}: they check in on "
        f"{ci:%B %-d} and check out on {co:%B %-d, %Y}.",
    )  # fmt: skip
    where = {"listing_id": listing.id, "check_in": ci, "check_out": co, "guest_id": me.id,
             "guests": 1, "status": "confirmed"}  # fmt: skip
    return Spec(
        goal=f"{req.name} (@{req.handle}) is sending you to the {purpose} in {city.label}, "
        f'{city.country}. Book yourself "{listing.title}" (listing #{listing.id}) for one '
        f"guest. You don't know the nights yet: ask {first} in a direct message which nights "
        "to book, then book them.",
        persona=me.handle,
        steps=[
            parts.step,
            # TODO(steps): move to tasks/booking/common.py (book a stay)
            Step(
                calls=[
                    call("booking_get_listing", listing_id=listing.id),
                    call(
                        "booking_book_stay",
                        listing_id=listing.id,
                        check_in=ci.isoformat(),
                        check_out=co.isoformat(),
                    ),
                ],
                checks=[
                    RowExists(
                        name="the place booked for the trip's nights",
                        table="booking_reservation",
                        where=where,
                        new=True,
                    )
                ],
                allowed=allow_new_stay(me.id),
            ),
        ],
        hidden=parts.hidden,
    )
