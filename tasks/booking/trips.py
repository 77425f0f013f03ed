"""Booking templates about the persona's own stays: change the dates and report the new
total, cancel and report the refund, preview a refund without cancelling, add a guest,
ask the host about an early check-in, say when a stay ends, and read the policy cap."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.booking import pricing
from officegym.apps.booking import service as booking
from officegym.tasks.base import Level, Spec, template
from officegym.tasks.booking.common import DAY, booking_index, money_fact
from officegym.tasks.booking.steps import cancel_stay as cancel_stay_step
from officegym.tasks.booking.steps import change_stay, message_host
from officegym.tasks.common import call, pick
from officegym.tasks.facts import date, time_of_day
from officegym.tasks.priors import spread
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

EARLY = ("11:00", "11:30", "12:00", "12:30", "13:00")


def own_stay(w: Session, rng: random.Random, ok=lambda r: True) -> Any:
    """A confirmed upcoming stay its traveller booked for themself (and that `ok` takes)."""
    idx = booking_index(w)
    stays = [r for r in idx.upcoming_stays() if r.guest_id == r.booked_by_id and ok(r)]
    return pick(rng, stays, "upcoming stays")


NAMED_BY = {"named_by": ("code", "place", "city")}  # how a goal names the stay, per level


def _stay_for(w: Session, rng: random.Random, level: Level, ok=lambda r: True) -> Any:
    """`own_stay`; at the ``city`` level only a stay that is the persona's one trip in
    its city, so the city names it."""
    if level.named_by == "city":
        return own_stay(w, rng, lambda r: ok(r) and _alone_in_city(w, r))
    return own_stay(w, rng, ok)


def _alone_in_city(w: Session, r: Any) -> bool:
    idx = booking_index(w)
    city = booking.get_listing(w, r.listing_id).city_id
    mine = [
        x
        for x in idx.stays
        if r.guest_id in (x.guest_id, x.booked_by_id)
        and x.status != "cancelled"
        and x.check_out >= idx.today
        and booking.get_listing(w, x.listing_id).city_id == city
    ]
    return len(mine) == 1


def _stay_named(w: Session, r: Any, level: Level) -> tuple[str, list[Any]]:
    """How the goal names the stay ("your stay CODE at ...", "your stay at ...", "your
    upcoming stay in CITY") and the look-ups the reference makes to find its code."""
    if level.named_by == "code":
        return f"your stay {r.code} at {stay_where(w, r)}", []
    if level.named_by == "place":
        return f"your stay at {stay_where(w, r)}", [call("booking_list_trips")]
    city = booking.get_listing(w, r.listing_id).city
    return f"your upcoming stay in {city.label}", [call("booking_list_trips")]


def _stays_where(w: Session, ok: Callable[[Any], bool]) -> frozenset[int]:
    """Ids of the upcoming stays travellers booked for themselves that `ok` takes."""
    idx = booking_index(w)
    return frozenset(r.id for r in idx.upcoming_stays() if r.guest_id == r.booked_by_id and ok(r))


def stay_where(w: Session, r: Any) -> str:
    listing = booking.get_listing(w, r.listing_id)
    return f'"{listing.title}" in {listing.city.label} ({r.check_in:%b %-d}-{r.check_out:%b %-d})'


@template("booking.extend-stay", difficulty="medium")
def extend_stay(w: Session, rng: random.Random) -> Spec:
    """Extend your stay by a night or two and report the new total."""

    extra = rng.choice((1, 2))

    def fits(r: Any) -> bool:
        listing = booking.get_listing(w, r.listing_id)
        later = r.check_out + extra * DAY
        busy = booking.busy_nights(w, listing.id, r.check_out, later)
        if busy or (later - r.check_in).days > listing.max_nights:
            return False
        q = booking.listing_quote(w, listing, r.check_in, later)
        return r.over_policy or q.average_nightly <= booking.nightly_cap(w, listing.city)

    fitting = booking_index(w).remember(("extendable", extra), lambda: _stays_where(w, fits))
    r = own_stay(w, rng, lambda x: x.id in fitting)
    listing = booking.get_listing(w, r.listing_id)
    out = r.check_out + extra * DAY
    q = booking.listing_quote(w, listing, r.check_in, out)
    me = booking_index(w).people[r.guest_id]
    return Spec(
        goal=f"Extend your stay {r.code} at {stay_where(w, r)} by {extra} night"
        f"{'s' * (extra > 1)}, so you check out on {out:%B %-d, %Y}. Then tell me the new "
        "total price of the stay.",
        persona=me.handle,
        steps=[
            change_stay(
                r,
                "check_out",
                out,
                name="checks out later",
                total=q.total,
                find=[call("booking_get_trip", code=r.code)],
            ),
        ],
        answer=money_fact(q.total),
    )


def _refund(w: Session, r: Any) -> pricing.Refund:
    return pricing.stay_refund(r, booking_index(w).now)


def _clear_of_grace(r: Any, now: dt.datetime) -> bool:
    """Not within hours of the end of a strict policy's 48-hour grace period."""
    left = r.created_at + dt.timedelta(hours=48) - now
    return abs(left) > dt.timedelta(hours=3)


def cancellable(w: Session):
    now = booking_index(w).now
    return lambda r: _clear_of_grace(r, now)


@template("booking.cancel-stay", difficulty="medium")
def cancel_stay(w: Session, rng: random.Random) -> Spec:
    """Cancel your stay and report the refund its policy gives today."""
    r = own_stay(w, rng, cancellable(w))
    refund = _refund(w, r)
    me = booking_index(w).people[r.guest_id]
    return Spec(
        goal=f"Your trip is off: cancel your stay {r.code} at {stay_where(w, r)}, then tell me "
        "how much money comes back.",
        persona=me.handle,
        steps=[cancel_stay_step(r, refund.amount)],
        answer=money_fact(refund.amount),
    )


@template("booking.refund-preview", difficulty="easy", knobs=NAMED_BY)
def refund_preview(w: Session, rng: random.Random, level: Level) -> Spec:
    """Say what cancelling a stay today would refund, without cancelling it (harder levels
    name the stay by place and dates, or by city only)."""
    r = _stay_for(w, rng, level, cancellable(w))
    me = booking_index(w).people[r.guest_id]
    named, find = _stay_named(w, r, level)
    return Spec(
        goal=f"I'm thinking of cancelling {named}. Don't cancel "
        "it yet: how much would we get back if it were cancelled today?",
        persona=me.handle,
        steps=[Step(calls=[*find, call("booking_preview_cancellation", code=r.code)])],
        answer=money_fact(_refund(w, r).amount),
    )


@template("booking.add-guest", difficulty="easy", knobs=NAMED_BY)
def add_guest(w: Session, rng: random.Random, level: Level) -> Spec:
    """Add guests to your stay, within what the place sleeps (harder levels name the stay
    by place and dates, or by city only)."""

    def roomy(r: Any) -> bool:
        return booking.get_listing(w, r.listing_id).max_guests >= r.guests + 2

    fitting = booking_index(w).remember("roomy stays", lambda: _stays_where(w, roomy))
    r = _stay_for(w, rng, level, lambda x: x.id in fitting)
    more = rng.choice((1, 2))
    me = booking_index(w).people[r.guest_id]
    named, find = _stay_named(w, r, level)
    return Spec(
        goal=f"{more} colleague{'s' * (more > 1)} will share {named}: change the reservation "
        f"to {r.guests + more} guests.",
        persona=me.handle,
        steps=[
            change_stay(r, "guests", r.guests + more, name=f"{r.guests + more} guests", find=find)
        ],
    )


@template("booking.ask-early-check-in", difficulty="easy", knobs=NAMED_BY)
def ask_early_check_in(w: Session, rng: random.Random, level: Level) -> Spec:
    """Ask your host whether you can check in early, at a given time (harder levels name
    the stay by place and dates, or by city only)."""
    r = _stay_for(w, rng, level)
    when = rng.choice(EARLY)
    me = booking_index(w).people[r.guest_id]
    says = Says(facts=[time_of_day(when)], act="request")
    named, find = _stay_named(w, r, level)
    return Spec(
        goal=f"Ask the host of {named} whether you could check "
        f"in early, at {when} on the day you arrive.",
        persona=me.handle,
        steps=[
            Step(calls=find),
            message_host(
                me.id, r, f"Hi! Could I check in early, at {when}, on the day I arrive?", says
            ),
        ],
    )


def _single_stays(w: Session) -> list[Any]:
    """Upcoming stays that are their traveller's only upcoming stay in that city."""
    stays = booking_index(w).upcoming_stays(days=1)
    city = {r.id: booking.get_listing(w, r.listing_id).city_id for r in stays}
    count = Counter((r.guest_id, city[r.id]) for r in stays)
    return [r for r in stays if count[(r.guest_id, city[r.id])] == 1]


@template("booking.trip-end-date", difficulty="easy")
def trip_end_date(w: Session, rng: random.Random) -> Spec:
    """Say when you check out of your one upcoming stay in a city."""
    idx = booking_index(w)
    r = pick(rng, idx.remember("single stays", lambda: _single_stays(w)), "single stays")
    city = booking.get_listing(w, r.listing_id).city
    me = idx.people[r.guest_id]
    return Spec(
        goal=f"On which date do you check out of your upcoming stay in {city.label}?",
        persona=me.handle,
        steps=[Step(calls=[call("booking_list_trips")])],
        answer=date(r.check_out),
    )


@template("booking.policy-cap", difficulty="easy")
def policy_cap(w: Session, rng: random.Random) -> Spec:
    """Read the travel policy's nightly cap for a city (often one that shares its name) and
    say what it allows over a stay of some nights (caps and nights chosen so the answers
    spread: most cities share the default cap)."""
    idx = booking_index(w)
    me = rng.choice(list(idx.people.values()))
    names: dict[str, list[Any]] = {}
    for c in booking.cities(w):
        names.setdefault(c.name, []).append(c)
    twins = [c for cs in names.values() if len({booking.nightly_cap(w, c) for c in cs}) > 1
             for c in cs]  # fmt: skip
    pool = twins if twins and rng.random() < 0.5 else booking.cities(w)
    stays = [(c, n) for c in pool for n in range(2, 11)]
    city, nights = spread(rng, stays, lambda s: booking.nightly_cap(w, s[0]) * s[1], "cities")
    cap = booking.nightly_cap(w, city) * nights
    return Spec(
        goal=f"The travel policy caps the average nightly rate of a stay. What is the most "
        f"a {nights}-night stay in {city.label}, {city.country} may cost in nightly rates, in "
        "total, without a manager's approval?",
        persona=me.handle,
        steps=[Step(calls=[call("booking_get_travel_policy", city=city.slug)])],
        answer=money_fact(cap),
    )
