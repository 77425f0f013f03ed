"""Booking templates about flights: the cheapest fare with a checked bag, booking two
travellers on a named flight, moving a flight by its fare's rules and reporting the cost,
and cancelling one and reporting the refund."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking import pricing
from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Fare, Route
from officegym.tasks.base import Spec, template
from officegym.tasks.booking.common import DAY, booking_index, money_fact
from officegym.tasks.booking.steps import cancel_flight as cancel_flight_step
from officegym.tasks.booking.steps import move_flight
from officegym.tasks.checks import Allow, GradeContext, NewRowId, Predicate, RowExists
from officegym.tasks.common import call, pick
from officegym.tasks.priors import spread
from officegym.tasks.steps import Step


def _routes(w: Session, origin_id: int, dest_id: int) -> list[Route]:
    stmt = select(Route).where(Route.origin_id == origin_id, Route.destination_id == dest_id)
    return list(w.scalars(stmt.order_by(Route.departs, Route.id)))


def _fares(w: Session, route: Route) -> list[Fare]:
    return list(w.scalars(select(Fare).where(Fare.route_id == route.id).order_by(Fare.id)))


def _pair(w: Session, rng: random.Random) -> tuple[Any, Any]:
    airports = [c for c in booking.cities(w) if c.airport]
    return tuple(rng.sample(airports, 2))  # type: ignore[return-value]


@template("booking.cheapest-bag-fare", difficulty="medium")
def cheapest_bag_fare(w: Session, rng: random.Random) -> Spec:
    """The lowest economy price with a checked bag between two cities on a day."""
    idx = booking_index(w)
    for _ in range(60):
        origin, dest = _pair(w, rng)
        day = idx.today + rng.randint(3, 40) * DAY
        prices = sorted(
            (pricing.fare_price(f, day, idx.today), f.id)
            for r in _routes(w, origin.id, dest.id) if booking.flies_on(r, day)
            for f in _fares(w, r) if f.cabin == "economy" and f.bags >= 1
        )  # fmt: skip
        if len(prices) >= 2 and prices[0][0] < prices[1][0]:
            break
    else:
        raise LookupError("no fare case")
    me = rng.choice(list(idx.people.values()))
    return Spec(
        goal=f"What is the lowest price per traveller for an economy fare that includes at "
        f"least one checked bag, flying from {origin.label} to {dest.label} on "
        f"{day:%B %-d, %Y}, if bought today?",
        persona=me.handle,
        steps=[Step(calls=[_search(origin, dest, day, cabin="economy")])],
        answer=money_fact(prices[0][0]),
    )


def _search(origin: Any, dest: Any, day: Any, **more: Any) -> Any:
    """The reference's flight search between two cities on a day."""
    return call("booking_search_flights", origin=origin.slug, destination=dest.slug,
                date=day.isoformat(), **more)  # fmt: skip


def _flying(w: Session, rng: random.Random) -> tuple[Any, Any, Any, list[Route]]:
    """Two cities and a day with flights between them."""
    today = booking_index(w).today
    for _ in range(60):
        origin, dest = _pair(w, rng)
        day = today + rng.randint(5, 40) * DAY
        flying = [r for r in _routes(w, origin.id, dest.id) if booking.flies_on(r, day)]
        if flying:
            return origin, dest, day, flying
    raise LookupError("no flight case")


@template("booking.book-flight-for-two", difficulty="medium")
def book_flight_for_two(w: Session, rng: random.Random) -> Spec:
    """Book yourself and a colleague on a named flight at a named fare."""
    idx = booking_index(w)
    origin, dest, day, flying = _flying(w, rng)
    route = rng.choice(flying)
    fare = rng.choice([f for f in _fares(w, route) if f.cabin == "economy"])
    me, mate = rng.sample(list(idx.people.values()), 2)
    made = NewRowId("booking_flight_booking", {"booked_by_id": me.id})
    where = {"route_id": route.id, "fare_id": fare.id, "flight_date": day,
             "booked_by_id": me.id, "status": "confirmed"}  # fmt: skip
    return Spec(
        goal=f"Book yourself and {mate.name} (@{mate.handle}) on flight {route.number} from "
        f"{origin.label} to {dest.label} on {day:%B %-d, %Y}, in the {fare.brand} fare: one "
        "booking for both of you.",
        persona=me.handle,
        steps=[
            Step(calls=[_search(origin, dest, day)]),
            Step(
                calls=[
                    call(
                        "booking_book_flight",
                        fare_id=fare.id,
                        date=day.isoformat(),
                        travellers=[me.handle, mate.handle],
                    ),
                ],
                checks=[
                    RowExists(
                        name="booked on the flight at the fare",
                        table="booking_flight_booking",
                        where=where,
                        new=True,
                    ),
                    Predicate(
                        name="both of you travel, nobody else",
                        fn=_travellers(made, {me.id, mate.id}),
                    ),
                ],
                allowed=[
                    Allow("booking_flight_booking", where={"booked_by_id": me.id}, limit=1),
                    Allow("booking_passenger", where={"flight_booking_id": made}, limit=2),
                    Allow("booking_payment", where={"flight_booking_id": made}, limit=1),
                ],
            ),
        ],
    )


def _travellers(made: NewRowId, people: set[int]):
    def check(g: GradeContext) -> tuple[bool, str]:
        booking_id = made.resolve(g)
        rows = g.new_rows("booking_passenger", {"flight_booking_id": booking_id or -1})
        found = {r["person_id"] for r in rows}
        return found == people, f"travellers {sorted(found)}, want {sorted(people)}"

    return check


def _own_flights(w: Session, ok) -> frozenset[int]:
    """Ids of the upcoming flight bookings of one traveller, booked by them, `ok` takes."""
    idx = booking_index(w)
    return frozenset(f.id for f in idx.upcoming_flights(days=3)
                     if idx.passengers.get(f.id) == [f.booked_by_id] and ok(f))  # fmt: skip


def _fare_rows(w: Session) -> dict[int, Any]:
    """Every fare's row by id, read once per world."""
    idx = booking_index(w)
    return idx.remember("fares", lambda: {f.id: f for f in w.execute(select(*Fare.__table__.c))})


def _own_flight(w: Session, rng: random.Random, ok) -> Any:
    idx = booking_index(w)
    mine = [f for f in idx.upcoming_flights(days=3)
            if idx.passengers.get(f.id) == [f.booked_by_id] and ok(f)]  # fmt: skip
    return pick(rng, mine, "upcoming flights")


@template("booking.change-flight", difficulty="medium")
def change_flight(w: Session, rng: random.Random) -> Spec:
    """Move your flight to a later day by its fare's rules and report what it cost (the
    flight and the day chosen so the costs spread: many changes cost just the fee)."""
    idx = booking_index(w)
    fares = _fare_rows(w)

    def cost(f: Any, shift: int) -> int:
        fare, day = fares[f.fare_id], f.flight_date + shift * DAY
        price = pricing.fare_price(fare, day, idx.today)
        return pricing.flight_change(fare, f.price, price, 1, False).due

    def movable(f: Any, shift: int) -> bool:
        route = w.get_one(Route, f.route_id)
        if fares[f.fare_id].change_fee is None:
            return False
        return booking.flies_on(route, f.flight_date + shift * DAY) and cost(f, shift) > 0

    def movable_ids(shift: int) -> frozenset[int]:
        return idx.remember(
            ("movable", shift), lambda: _own_flights(w, lambda f: movable(f, shift))
        )

    ids = {shift: movable_ids(shift) for shift in (1, 2, 3)}
    mine = idx.upcoming_flights(days=3)
    moves = [(f, shift) for shift in (1, 2, 3) for f in mine if f.id in ids[shift]]
    fb, shift = spread(rng, moves, lambda m: cost(*m), "upcoming flights to move")
    new_day = fb.flight_date + shift * DAY
    due = cost(fb, shift)
    route = w.get_one(Route, fb.route_id)
    return Spec(
        goal=f"Move your flight booking {fb.code} ({route.number} on {fb.flight_date:%B %-d}) "
        f"to the same flight on {new_day:%B %-d, %Y}, then tell me how much the change cost "
        "in total.",
        persona=idx.handle(fb.booked_by_id),
        steps=[
            Step(calls=[call("booking_get_trip", code=fb.code)]),
            move_flight(fb, new_day, fb.total + due),
        ],
        answer=money_fact(due),
    )


@template("booking.cancel-flight", difficulty="medium")
def cancel_flight(w: Session, rng: random.Random) -> Spec:
    """Cancel your flight and report the refund its fare gives (chosen so refunds spread:
    most fares refund nothing, and "$0" must not pass most instances)."""
    idx = booking_index(w)
    fares = _fare_rows(w)

    def refund_of(f: Any) -> Any:
        return pricing.flight_refund(
            fares[f.fare_id], f.total, f.created_at, f.flight_date, idx.now
        )

    mine = [f for f in idx.upcoming_flights(days=3) if idx.passengers.get(f.id) == [f.booked_by_id]]
    fb = spread(rng, mine, lambda f: refund_of(f).amount, "upcoming flights")
    refund = refund_of(fb)
    route = w.get_one(Route, fb.route_id)
    return Spec(
        goal=f"Cancel your flight booking {fb.code} ({route.number} on "
        f"{fb.flight_date:%B %-d, %Y}) and tell me how much is refunded.",
        persona=idx.handle(fb.booked_by_id),
        steps=[cancel_flight_step(fb, refund.amount)],
        answer=money_fact(refund.amount),
    )
