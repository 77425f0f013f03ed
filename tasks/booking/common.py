"""World look-ups and allowances shared by the booking templates (and the cross-app ones
about trips). The index is read once per world; searches and quotes go through the
booking service and `pricing` on the read-only session, so a template's expected amounts
are computed exactly as the service computes them for the agent."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, Row, func, select
from sqlalchemy.orm import Session

from officegym.apps.booking.models import FlightBooking, Passenger, Reservation
from officegym.apps.org.models import Person
from officegym.apps.slack.models import Message
from officegym.tasks.checks import Allow, GradeContext, NewRowId, Predicate
from officegym.tasks.statements import Says

__all__ = [
    "BookingIndex",
    "allow_change",
    "allow_flight_change",
    "allow_new_stay",
    "booking_index",
    "host_told",
    "money_fact",
    "new_stay",
]

DAY = dt.timedelta(days=1)


@dataclass(frozen=True)
class BookingIndex:
    """Facts templates look up often, read once per world."""

    now: dt.datetime  # about when an episode starts (the world's simulated now)
    people: dict[int, Row[Any]]  # id -> org_person row
    stays: list[Row[Any]]  # the company's reservations
    flights: list[Row[Any]]  # the company's flight bookings
    passengers: dict[int, list[int]]  # flight booking id -> person ids
    # derived look-ups templates compute once per world (`remember`), as tasks are built
    # at every reset with a new seed
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def remember(self, key: Any, compute: Callable[[], Any]) -> Any:
        """`compute()` the first time `key` is asked for on this world, then its value."""
        if key not in self.memo:
            self.memo[key] = compute()
        return self.memo[key]

    @property
    def today(self) -> dt.date:
        return self.now.date()

    def upcoming_stays(self, *, days: int = 2) -> list[Row[Any]]:
        """Confirmed stays starting `days` or more days from today."""
        return [r for r in self.stays
                if r.status == "confirmed" and (r.check_in - self.today).days >= days]  # fmt: skip

    def upcoming_flights(self, *, days: int = 2) -> list[Row[Any]]:
        soon = self.today + days * DAY
        return [f for f in self.flights if f.status == "confirmed" and f.flight_date >= soon]

    def handle(self, person_id: int) -> str:
        return self.people[person_id].handle


def booking_index(w: Session) -> BookingIndex:
    return _index(w.get_bind())


@functools.lru_cache(maxsize=8)
def _index(engine: Engine) -> BookingIndex:
    with Session(engine) as w:
        last = w.scalar(select(func.max(Message.created_at)))
        if last is None:  # never the wall clock: the same world must give the same tasks
            raise ValueError("booking tasks need a world with chat history to date them")
        people = {p.id: p for p in w.execute(select(*Person.__table__.c).order_by(Person.id))}
        stays = list(w.execute(select(*Reservation.__table__.c).order_by(Reservation.id)))
        flights = list(w.execute(select(*FlightBooking.__table__.c).order_by(FlightBooking.id)))
        passengers: dict[int, list[int]] = {}
        for fid, pid in w.execute(select(Passenger.flight_booking_id, Passenger.person_id)):
            passengers.setdefault(fid, []).append(pid)
    now = last + dt.timedelta(minutes=3)
    return BookingIndex(now, people, stays, flights, passengers)


def money_fact(cents: int, **kw: Any) -> Any:
    """The dollars of `cents` as a money fact (the site's amounts are whole dollars)."""
    from officegym.tasks.facts import money

    return money(cents // 100, **kw)


def new_stay(booked_by: int, **where: Any) -> NewRowId:
    return NewRowId("booking_reservation", {"booked_by_id": booked_by, **where})


def allow_new_stay(
    booked_by: int,
    *,
    guest: int | None = None,
    messages: bool = False,
    nights: int | None = None,
) -> list[Allow]:
    """One new reservation by `booked_by` (for `guest`, if given), the nights it holds
    (`nights` of them, when the caller knows the stay), the one charge a booking makes
    (and the one message to its host the booking sends)."""
    extra = {} if guest is None else {"guest_id": guest}
    made = new_stay(booked_by, **extra)
    out = [
        Allow("booking_reservation", where={"booked_by_id": booked_by, **extra}, limit=1),
        Allow("booking_night", where={"reservation_id": made}, limit=nights),
        Allow("booking_payment", where={"reservation_id": made}, limit=1),
    ]
    if messages:
        out.append(Allow("booking_message", where={"reservation_id": made}, limit=1))
    return out


def allow_change(
    reservation_id: int,
    fields: frozenset[str],
    *,
    released: int | None = None,
    held: int | None = None,
) -> list[Allow]:
    """The update of one reservation (these fields), the nights it gives up (`released`:
    as many as it held) and holds again (`held`: as many as it will hold, none when it is
    cancelled), when the caller knows them, and the one charge or refund a change makes."""
    where = {"reservation_id": reservation_id}
    out = [
        Allow.update("booking_reservation", reservation_id, fields),
        Allow("booking_night", kinds=("delete",), where=where, limit=released),
    ]
    if held != 0:
        out.append(Allow("booking_night", kinds=("insert",), where=where, limit=held))
    out.append(Allow("booking_payment", where=where, limit=1))
    return out


def allow_flight_change(flight_booking_id: int, fields: frozenset[str]) -> list[Allow]:
    """The update of one flight booking (these fields) and the one charge (a change) or
    refund (a cancellation) it makes."""
    return [
        Allow.update("booking_flight_booking", flight_booking_id, fields),
        Allow("booking_payment", where={"flight_booking_id": flight_booking_id}, limit=1),
    ]


def host_told(
    listing_id: int, person_id: int, says: Says, reservation_id: int | None = None
) -> Predicate:
    """Check: the person's new messages to the listing's host (about reservation
    `reservation_id` when given), read together, say what `says` asks (and are not the
    goal's own words posted back)."""
    where = {"listing_id": listing_id, "person_id": person_id}
    if reservation_id is not None:
        where["reservation_id"] = reservation_id

    def check(g: GradeContext) -> tuple[bool, str]:
        rows = g.new_rows("booking_message", where)
        if not rows:
            return False, "no new message to the host"
        ok, detail = says.judge("\n".join(r["text"] for r in rows), g.goal, g.words)
        return ok, f"{len(rows)} message(s) to the host: {detail}"

    return Predicate(name="the host is told", fn=check)
