"""The trips calendar defines every time zone its events name (a VTIMEZONE per TZID),
so calendar apps place flights at the right hour; a flight far in the future still
exports."""

from __future__ import annotations

import datetime as dt

from icalendar import Calendar
from sqlalchemy import select, update

from officegym.apps.booking.ical import trips_ical
from officegym.apps.booking.models import FlightBooking
from officegym.apps.org.models import Person
from officegym.world import World

STAMP = dt.datetime(2026, 1, 5, 9, 0)


def _zones(ics: bytes) -> tuple[set[str], set[str]]:
    cal = Calendar.from_ical(ics)
    named = {
        str(ev["dtstart"].params["TZID"])
        for ev in cal.walk("VEVENT")
        if "TZID" in ev["dtstart"].params
    }
    defined = {str(tz["tzid"]) for tz in cal.walk("VTIMEZONE")}
    return named, defined


def test_every_time_zone_an_event_names_is_defined(world: World) -> None:
    with world.session() as s:
        booker = s.scalars(select(FlightBooking.booked_by_id).limit(1)).one()
        named, defined = _zones(trips_ical(s, s.get_one(Person, booker), STAMP))
    assert named and named <= defined


def test_a_flight_in_year_9999_still_exports_its_zone(world: World) -> None:
    with world.session() as s:
        fb = s.scalars(select(FlightBooking).limit(1)).one()
        s.execute(
            update(FlightBooking)
            .where(FlightBooking.id == fb.id)
            .values(flight_date=dt.date(9999, 12, 30))
        )
        named, defined = _zones(trips_ical(s, s.get_one(Person, fb.booked_by_id), STAMP))
    assert named and named <= defined
