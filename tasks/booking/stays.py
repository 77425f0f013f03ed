"""Booking templates about finding and booking stays: the cheapest place for dates that
meets bedroom and guest needs (traps: a same-name city, blocked nights, minimum stays, a
lower nightly rate with a higher total, too few beds), booking it, the best-rated place
within the travel policy, a request to book with a message, and a wishlist."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.booking.catalog import StayResult
from officegym.tasks.base import Spec, template
from officegym.tasks.booking.common import DAY, booking_index
from officegym.tasks.booking.steps import book_stay, search_stays_call
from officegym.tasks.checks import Allow, NewRowId, RowExists, Same
from officegym.tasks.common import call
from officegym.tasks.facts import choice, time_of_day
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

SAME_NAMES = ("portland-me", "portland-or", "london-on", "london-uk", "paris-tx", "paris-fr",
              "birmingham-al", "birmingham-uk", "cambridge-ma", "springfield-il")  # fmt: skip
AMENITY_ASKS = ("workspace", "washer", "free parking", "air conditioning", "self check-in")
ARRIVALS = ("13:00", "13:30", "14:00", "11:30", "12:00", "12:30")


def _city(w: Session, rng: random.Random) -> Any:
    """A city to search, a same-name one two times in five."""
    if rng.random() < 0.4:
        return booking.find_city(w, rng.choice(SAME_NAMES))
    return rng.choice([c for c in booking.cities(w) if c.slug not in SAME_NAMES])


def _persona(w: Session, rng: random.Random) -> Any:
    idx = booking_index(w)
    return rng.choice([p for p in idx.people.values() if p.manager_id is not None])


def _cheapest(
    w: Session, rng: random.Random, instant: bool, *, spread_cities: bool = False
) -> tuple[Any, dict, StayResult, list]:
    """(city, search arguments, the cheapest result, its rivals) with a trap: the cheapest
    nightly rate, or the cheapest place ignoring the dates, is another listing. With
    `spread_cities`, every city is tried in a seeded order a few times each, so a city
    whose searches often hold a trap is not asked about most of the time."""
    if spread_cities:
        cities = booking.cities(w)
        order = [c for c in rng.sample(cities, len(cities)) for _ in range(3)]
    else:
        order = [None] * 80
    for city in order:
        found = _trap_case(w, rng, city or _city(w, rng), instant)
        if found is not None:
            return found
    raise LookupError("the world has no cheapest-stay case with a trap")


def _trap_case(
    w: Session, rng: random.Random, city: Any, instant: bool
) -> tuple[Any, dict, StayResult, list] | None:
    """A search in `city` on drawn dates and needs whose cheapest total is a trap (None if
    the drawn search holds none)."""
    today = booking_index(w).today
    ci = today + rng.randint(10, 80) * DAY
    args = {"city": city.slug, "check_in": ci, "check_out": ci + rng.randint(2, 6) * DAY,
            "guests": rng.choice((2, 3, 4)), "bedrooms": rng.choice((1, 2, 2, 3))}  # fmt: skip
    found = booking.search_stays(w, **args, instant_book=instant or None,
                                 sort="total_price", limit=50).results  # fmt: skip
    if len(found) < 3 or found[0].quote.total == found[1].quote.total:  # type: ignore[union-attr]
        return None
    undated = {k: v for k, v in args.items() if k not in ("check_in", "check_out")}
    naive = booking.search_stays(w, **undated, sort="nightly_price", limit=3).results
    by_rate = min(found, key=lambda r: (r.nightly, r.listing.id))
    best = found[0]
    if best.listing.id in (naive[0].listing.id, by_rate.listing.id):
        return None
    if best.nightly > booking.nightly_cap(w, city):
        return None
    return city, args, best, [*found[1:10], *naive, by_rate]


def _needs(city: Any, a: dict) -> str:
    nights = (a["check_out"] - a["check_in"]).days
    return (f"in {city.label}, {city.country} for {a['guests']} guests with at least "
            f"{a['bedrooms']} bedroom{'s' * (a['bedrooms'] > 1)}, checking in on "
            f"{a['check_in']:%B %-d, %Y} and out {nights} nights later")  # fmt: skip


@template("booking.cheapest-stay", difficulty="hard")
def cheapest_stay(w: Session, rng: random.Random) -> Spec:
    """Name the place with the lowest total for given dates, guests and bedrooms."""
    city, args, best, rivals = _cheapest(w, rng, instant=False, spread_cities=True)
    titles = sorted({best.listing.title, *(r.listing.title for r in rivals)})
    return Spec(
        goal=f"Which place on the booking site has the lowest total price (fees and taxes "
        f"included) {_needs(city, args)}? Answer with the listing's title.",
        persona=_persona(w, rng).handle,
        steps=[Step(calls=[search_stays_call(**args, sort="total_price", limit=5)])],
        answer=choice(best.listing.title, titles),
    )


@template("booking.book-cheapest-stay", difficulty="hard")
def book_cheapest_stay(w: Session, rng: random.Random) -> Spec:
    """Book the instantly bookable place with the lowest total for given needs."""
    city, args, best, _ = _cheapest(w, rng, instant=True)
    me = _persona(w, rng)
    return Spec(
        goal=f"Book yourself the place with the lowest total price (fees and taxes included) "
        f"among those you can book instantly, {_needs(city, args)}.",
        persona=me.handle,
        steps=[
            Step(calls=[search_stays_call(**args, instant_book=True, sort="total_price", limit=5)]),
            book_stay(
                me.id,
                best.listing.id,
                args["check_in"],
                args["check_out"],
                name="the cheapest place booked for the dates and guests",
                where={"guests": args["guests"], "guest_id": me.id, "status": "confirmed"},
                guests=args["guests"],
            ),
        ],
    )


def _policy_case(w: Session, rng: random.Random) -> tuple[Any, str, dt.date, dt.date, list]:
    """A city, an amenity and dates whose best-rated instant place within the cap is one."""
    today = booking_index(w).today
    for _ in range(60):
        city, amenity = _city(w, rng), rng.choice(AMENITY_ASKS)
        ci = today + rng.randint(7, 70) * DAY
        co = ci + rng.randint(2, 5) * DAY
        found = booking.search_stays(
            w, city=city.slug, check_in=ci, check_out=co, amenities=[amenity],
            max_price=booking.nightly_cap(w, city), instant_book=True, limit=3,
        ).results  # fmt: skip
        if len(found) >= 2 and found[0].listing.rating > found[1].listing.rating:
            return city, amenity, ci, co, found
    raise LookupError("no policy case")


@template("booking.book-within-policy", difficulty="medium")
def book_within_policy(w: Session, rng: random.Random) -> Spec:
    """Book the best-rated place with an amenity that is within the travel policy cap."""
    me = _persona(w, rng)
    city, amenity, ci, co, found = _policy_case(w, rng)
    cap = booking.nightly_cap(w, city)
    best = found[0].listing
    return Spec(
        goal=f"Book yourself a stay in {city.label}, {city.country} from {ci:%B %-d} to "
        f"{co:%B %-d, %Y}: the best-rated place with a {amenity} that you can book instantly "
        "and whose nightly rate is within the company's travel policy cap for that city.",
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    call("booking_get_travel_policy", city=city.slug),
                    search_stays_call(
                        city.slug,
                        ci,
                        co,
                        max_price=cap // 100,
                        amenities=[amenity],
                        instant_book=True,
                        sort="rating",
                        limit=5,
                    ),
                ]
            ),
            book_stay(
                me.id,
                best.id,
                ci,
                co,
                name="best-rated place within the cap booked",
                where={"guest_id": me.id, "status": "confirmed", "over_policy": False},
            ),
        ],
    )


def _request_case(w: Session, rng: random.Random) -> tuple[Any, dt.date, dt.date, list]:
    """A city and dates with request-to-book places within the policy cap."""
    today = booking_index(w).today
    for _ in range(60):
        city = _city(w, rng)
        ci = today + rng.randint(7, 70) * DAY
        co = ci + rng.randint(2, 4) * DAY
        found = booking.search_stays(w, city=city.slug, check_in=ci, check_out=co,
                                     instant_book=False, limit=50).results  # fmt: skip
        cap = booking.nightly_cap(w, city)
        found = [r for r in found if not r.listing.instant_book and r.nightly <= cap]
        if found:
            return city, ci, co, found
    raise LookupError("no request-to-book place")


@template("booking.request-to-book", difficulty="medium")
def request_to_book(w: Session, rng: random.Random) -> Spec:
    """Request a stay at a request-to-book place, telling the host your arrival time."""
    me = _persona(w, rng)
    city, ci, co, found = _request_case(w, rng)
    place = rng.choice(found).listing
    arrive = rng.choice(ARRIVALS)
    text = f"Hello! I will arrive at {arrive}."
    return Spec(
        goal=f'Request to book "{place.title}" (listing {place.id}) in {city.label} from '
        f"{ci:%B %-d} to {co:%B %-d, %Y} for yourself, with a message to the host saying "
        f"you will arrive at {arrive}.",
        persona=me.handle,
        steps=[
            Step(calls=[call("booking_get_listing", listing_id=place.id)]),
            book_stay(
                me.id,
                place.id,
                ci,
                co,
                name="stay requested",
                where={"guest_id": me.id, "status": "requested"},
                host=Says(facts=[time_of_day(arrive)], act="announce"),
                message=text,
            ),
        ],
    )


def _wishlist_case(w: Session, rng: random.Random) -> tuple[Any, str, list]:
    """A city and a type of place whose three best-rated places are clear of the fourth."""
    for _ in range(60):
        city, ptype = _city(w, rng), rng.choice(("apartment", "house", "condo", "loft"))
        found = booking.search_stays(w, city=city.slug, property_type=ptype, limit=4).results
        ratings = [r.listing.rating for r in found]
        if len(found) == 4 and ratings[2] > ratings[3] and len(set(ratings[:3])) == 3:
            return city, ptype, found
    raise LookupError("no wishlist case")


@template("booking.save-to-wishlist", difficulty="medium")
def save_to_wishlist(w: Session, rng: random.Random) -> Spec:
    """Save a city's three best-rated places of a type to a new wishlist."""
    me = _persona(w, rng)
    city, ptype, found = _wishlist_case(w, rng)
    top = [r.listing for r in found[:3]]
    name = f"{city.name} {ptype}s {rng.randint(2, 99)}"
    made = NewRowId("booking_wishlist", {"owner_id": me.id, "name": Same(name)})
    return Spec(
        goal=f'Make a wishlist named "{name}" holding the three best-rated {ptype}s in '
        f"{city.label}, {city.country} (and nothing else).",
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    call("booking_search_stays", city=city.slug, property_type=ptype, limit=5),
                    *[call("booking_save_listing", listing_id=x.id, wishlist=name) for x in top],
                ],
                checks=_wishlist_checks(me.id, name, made, top),
                allowed=[
                    Allow("booking_wishlist", where={"owner_id": me.id}, limit=1),
                    Allow("booking_saved", where={"wishlist_id": made}, limit=3),
                ],
            )
        ],
    )


def _wishlist_checks(me_id: int, name: str, made: NewRowId, top: list[Any]) -> list[Any]:
    """The new wishlist `name` of `me_id` holds the `top` listings and only them."""
    return [
        RowExists(
            name="wishlist made",
            table="booking_wishlist",
            new=True,
            where={"owner_id": me_id, "name": Same(name)},
        ),
        *[
            RowExists(
                name=f"{x.title} saved",
                table="booking_saved",
                new=True,
                where={"wishlist_id": made, "listing_id": x.id},
            )
            for x in top
        ],
        RowExists(
            name="only those three",
            table="booking_saved",
            new=True,
            where={"wishlist_id": made},
            count=3,
            weight=0,
        ),
    ]
