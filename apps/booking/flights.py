"""Flights: search the schedule for a day, book seats at a fare for one or more
travellers, change the date or flight and cancel, by the fare's rules (`pricing`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from officegym.apps.booking import pricing
from officegym.apps.booking.calendar import MAX_AHEAD_DAYS
from officegym.apps.booking.catalog import find_city
from officegym.apps.booking.models import (
    CABINS,
    Fare,
    FlightBooking,
    Passenger,
    Payment,
    Route,
)
from officegym.apps.booking.policy import today
from officegym.apps.booking.stays import new_code
from officegym.apps.org.models import Person
from officegym.apps.org.service import find_person
from officegym.clock import now
from officegym.db import get
from officegym.errors import Conflict, Forbidden, Invalid, NotFound
from officegym.writes import insert_row, update_if

__all__ = [
    "FlightOption",
    "arrival",
    "book_flight",
    "cancel_flight",
    "change_flight",
    "departure",
    "find_flight_booking",
    "flies_on",
    "flight_payments",
    "get_fare",
    "list_flights",
    "passengers",
    "preview_flight_cancel",
    "search_flights",
]

MAX_TRAVELLERS = 9
_ROUTES = (
    select(Route)
    .where(Route.origin_id == bindparam("o"), Route.destination_id == bindparam("d"))
    .order_by(Route.departs, Route.id)
)
_FARES = select(Fare).where(Fare.route_id == bindparam("r")).order_by(Fare.base, Fare.id)


@dataclass(frozen=True)
class FlightOption:
    route: Route
    date: dt.date
    fares: list[tuple[Fare, int]]  # each fare and its price per traveller that day


def flies_on(route: Route, day: dt.date) -> bool:
    return bool(route.weekdays >> day.weekday() & 1)


def departure(route: Route, day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, route.departs)


def arrival(route: Route, day: dt.date) -> dt.datetime:
    """When the flight leaving on `day` lands, in the destination's local time (naive)."""
    leaves = departure(route, day).replace(tzinfo=ZoneInfo(route.origin.timezone))
    lands = leaves + dt.timedelta(minutes=route.minutes)
    return lands.astimezone(ZoneInfo(route.destination.timezone)).replace(tzinfo=None)


def search_flights(
    s: Session, *, origin: str, destination: str, date: dt.date, cabin: str | None = None
) -> list[FlightOption]:
    """Flights from `origin` to `destination` on `date` with their fares' prices (bought
    today), by departure time; only fares of `cabin` when given."""
    o, d = find_city(s, origin), find_city(s, destination)
    if o.id == d.id:
        raise Invalid("origin and destination are the same city")
    if o.airport is None or d.airport is None:
        where = o if o.airport is None else d
        raise Invalid(f"{where.label} has no airport; fly to a city nearby")
    if cabin is not None and cabin not in CABINS:
        raise Invalid(f"cabin must be one of {', '.join(CABINS)}")
    day = today(s)
    if date < day:
        raise Invalid(f"{date} is in the past (today is {day})")
    _check_horizon(s, date)
    out = []
    for route in s.scalars(_ROUTES, {"o": o.id, "d": d.id}):
        if flies_on(route, date):
            fares = [f for f in s.scalars(_FARES, {"r": route.id}) if cabin in (None, f.cabin)]
            out.append(FlightOption(route, date, [(f, pricing.fare_price(f, date, day))
                                                  for f in fares]))  # fmt: skip
    return out


def _check_horizon(s: Session, date: dt.date) -> None:
    """Invalid for a flight date past the schedule's horizon (the stays' calendar one), so
    no booking lands in year 9999 and the traveller's calendar export stays writable."""
    if (date - today(s)).days > MAX_AHEAD_DAYS:
        raise Invalid(f"flights are sold only {MAX_AHEAD_DAYS} days ahead ({date} is further)")


def get_fare(s: Session, fare_id: int) -> Fare:
    fare = get(s, Fare, fare_id)
    if fare is None:
        raise NotFound(f"no fare with id {fare_id}", code="fare_not_found")
    return fare


def book_flight(
    s: Session,
    actor: Person,
    fare: Fare,
    *,
    date: dt.date,
    travellers: list[str] | None = None,
    purpose: str = "",
) -> FlightBooking:
    """Book `fare`'s flight on `date` for the travellers named (default: the actor)."""
    route = fare.route
    _check_horizon(s, date)
    if not flies_on(route, date):
        raise Invalid(f"flight {route.number} does not fly on {date:%A %b %-d}")
    at = now(s)
    if departure(route, date) <= at:
        raise Invalid(f"flight {route.number} on {date} has already departed")
    people = _travellers(s, actor, travellers)
    price = pricing.fare_price(fare, date, at.date())
    total = price * len(people)
    fb = insert_row(
        s, FlightBooking, code=new_code(s, FlightBooking, "", route.id, date, actor.id, at, size=6),
        route_id=route.id, fare_id=fare.id, flight_date=date, booked_by_id=actor.id,
        status="confirmed", price=price, total=total, refund=None, purpose=purpose.strip()[:200],
        created_at=at, changed_at=None, cancelled_at=None,
    )  # fmt: skip
    for p in people:
        insert_row(s, Passenger, flight_booking_id=fb.id, person_id=p.id)
    memo = f"{route.number} {date:%b %-d}, {fare.brand}, {len(people)} traveller(s)"
    _pay(s, fb, "charge", total, memo, at)
    return fb


def _travellers(s: Session, actor: Person, refs: list[str] | None) -> list[Person]:
    if not refs:
        return [actor]
    people: list[Person] = []
    for ref in refs:
        person = find_person(s, ref)
        if person.id in {p.id for p in people}:
            raise Invalid(f"{person.name} is named twice")
        people.append(person)
    if len(people) > MAX_TRAVELLERS:
        raise Invalid(f"at most {MAX_TRAVELLERS} travellers per booking")
    return people


def _pay(s: Session, fb: FlightBooking, kind: str, amount: int, memo: str, at: dt.datetime) -> None:
    if amount:
        insert_row(s, Payment, reservation_id=None, flight_booking_id=fb.id, kind=kind,
                   amount=amount, memo=memo[:120], created_at=at)  # fmt: skip


_BY_CODE = select(FlightBooking).where(FlightBooking.code == bindparam("c"))
_PASSENGERS = select(Passenger.person_id).where(Passenger.flight_booking_id == bindparam("f"))


def passengers(s: Session, fb: FlightBooking) -> list[int]:
    return sorted(s.scalars(_PASSENGERS, {"f": fb.id}))


def flight_payments(s: Session, fb: FlightBooking) -> list[Payment]:
    stmt = select(Payment).where(Payment.flight_booking_id == fb.id).order_by(Payment.id)
    return list(s.scalars(stmt))


def find_flight_booking(s: Session, actor: Person, ref: str | int) -> FlightBooking:
    """A flight booking the actor made or travels on, by record locator or id."""
    key = str(ref).strip().upper()
    fb = s.scalars(_BY_CODE, {"c": key}).first()
    if fb is None and key.isdecimal():
        fb = get(s, FlightBooking, int(key))
    if fb is None or (fb.booked_by_id != actor.id and actor.id not in passengers(s, fb)):
        raise NotFound(f"no flight booking {ref!r} of yours", code="trip_not_found")
    return fb


def list_flights(s: Session, actor: Person) -> list[FlightBooking]:
    """Flight bookings the actor made or travels on, by date."""
    mine = select(Passenger.flight_booking_id).where(Passenger.person_id == actor.id)
    stmt = select(FlightBooking).where(
        (FlightBooking.booked_by_id == actor.id) | FlightBooking.id.in_(mine)
    )
    return list(s.scalars(stmt.order_by(FlightBooking.flight_date, FlightBooking.id)))


def _lock(s: Session, fb: FlightBooking) -> None:
    """Re-read a booking under a row lock before changing its money (PostgreSQL's
    ``FOR UPDATE``; a served SQLite file's transactions hold the write lock throughout)."""
    s.refresh(fb, with_for_update=True)


def _moved_on(fb: FlightBooking) -> Conflict:
    return Conflict(f"flight booking {fb.code} changed meanwhile; look again", code="not_live")


def _require_confirmed(fb: FlightBooking) -> None:
    if fb.status != "confirmed":
        raise Conflict(f"flight booking {fb.code} is {fb.status}", code="not_live")


def change_flight(
    s: Session, actor: Person, fb: FlightBooking, *, date: dt.date, flight: str | None = None
) -> tuple[FlightBooking, pricing.FlightChange]:
    """Move a booking to another day (and flight number, same route pair), at the same
    fare brand; Forbidden, quoting the rule, when the fare allows no changes."""
    _lock(s, fb)
    _require_confirmed(fb)
    fare, route = fb.fare, fb.route
    at = now(s)
    departed = departure(route, fb.flight_date) <= at
    new_route = _same_pair(s, route, flight) if flight else route
    new_fare = _same_brand(s, new_route, fare)
    _check_horizon(s, date)
    if not flies_on(new_route, date) or departure(new_route, date) <= at:
        raise Invalid(f"flight {new_route.number} does not fly on {date:%A %b %-d} (or has left)")
    if (new_route.id, date) == (route.id, fb.flight_date):
        raise Invalid("that is the flight already booked")
    travellers = len(passengers(s, fb))
    new_price = pricing.fare_price(new_fare, date, at.date())
    change = pricing.flight_change(fare, fb.price, new_price, travellers, departed)
    price, total = max(fb.price, new_price), fb.total + change.due
    was = {"status": fb.status, "total": fb.total, "route_id": route.id,
           "flight_date": fb.flight_date}  # fmt: skip
    if not update_if(s, fb, was, route_id=new_route.id, fare_id=new_fare.id, flight_date=date,
                     price=price, total=total, changed_at=at):  # fmt: skip
        raise _moved_on(fb)
    memo = f"Change to {new_route.number} {date:%b %-d}: fee and fare difference"
    _pay(s, fb, "charge", change.due, memo, at)
    return fb, change


def _same_pair(s: Session, route: Route, number: str) -> Route:
    key = " ".join(number.upper().split())
    for r in s.scalars(_ROUTES, {"o": route.origin_id, "d": route.destination_id}):
        if r.number == key or r.number.replace(" ", "") == key.replace(" ", ""):
            return r
    raise NotFound(f"no flight {number!r} on this route", code="flight_not_found")


def _same_brand(s: Session, route: Route, fare: Fare) -> Fare:
    for f in s.scalars(_FARES, {"r": route.id}):
        if f.brand == fare.brand and f.cabin == fare.cabin:
            return f
    raise Forbidden(f"flight {route.number} sells no {fare.brand} fare", code="no_such_fare")


def preview_flight_cancel(s: Session, fb: FlightBooking) -> pricing.Refund:
    _require_confirmed(fb)
    return pricing.flight_refund(fb.fare, fb.total, fb.created_at, fb.flight_date,
                                 s.info["clock"].peek())  # fmt: skip


def cancel_flight(s: Session, actor: Person, fb: FlightBooking) -> FlightBooking:
    """Cancel a booking; the refund follows the fare's rules (once, however many cancel
    it at the same moment)."""
    _lock(s, fb)
    refund = preview_flight_cancel(s, fb)
    at = now(s)
    if not update_if(s, fb, {"status": "confirmed"}, status="cancelled", refund=refund.amount,
                     cancelled_at=at):  # fmt: skip
        raise _moved_on(fb)
    _pay(s, fb, "refund", refund.amount, f"Cancellation: {refund.rule}", at)
    return fb
