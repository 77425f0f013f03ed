"""Trips as an iCalendar file (RFC 5545, written with the `icalendar` package) that a
calendar app opens: one all-day event per stay (check-in to check-out) and one timed
event per flight in its origin's time zone, cancelled ones marked CANCELLED. Every
time zone an event names is defined in a VTIMEZONE block (RFC 5545 3.6.5), covering
the span of the flights."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event
from sqlalchemy.orm import Session

from officegym.apps.booking import flights, stays
from officegym.apps.booking.models import City, FlightBooking, Reservation
from officegym.apps.org.models import Person

__all__ = ["trips_ical"]

DOMAIN = "booking.officegym.test"


def trips_ical(s: Session, actor: Person, stamp: dt.datetime) -> bytes:
    """The actor's stays and flights as one calendar; `stamp` is the simulated now."""
    cal = Calendar()
    cal.add("prodid", "-//officegym//booking//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"Trips of {actor.name}")
    for r in stays.list_stays(s, actor):
        cal.add_component(_stay_event(r, stamp))
    starts: list[dt.date] = []
    for fb in flights.list_flights(s, actor):
        ev = _flight_event(fb, stamp)
        starts.append(ev.decoded("dtstart").date())
        cal.add_component(ev)
    if starts:
        first = max(min(starts) - dt.timedelta(days=1), dt.date(1901, 1, 1))
        last = min(max(starts), _LAST_ZONE_DAY - dt.timedelta(days=2)) + dt.timedelta(days=2)
        cal.add_missing_timezones(first, max(last, first + dt.timedelta(days=1)))
    return cal.to_ical()


_LAST_ZONE_DAY = dt.date(9998, 12, 31)  # icalendar's zone transitions overflow past it


def _stay_event(r: Reservation, stamp: dt.datetime) -> Event:
    listing = r.listing
    ev = Event()
    ev.add("uid", f"stay-{r.code}@{DOMAIN}")
    ev.add("dtstamp", stamp.replace(tzinfo=dt.UTC))
    ev.add("summary", f"Stay: {listing.title}")
    ev.add("dtstart", r.check_in)
    ev.add("dtend", r.check_out)
    ev.add("location", f"{listing.neighbourhood}, {listing.city.label}")
    ev.add("description", f"Confirmation {r.code}, {r.guests} guest(s), status {r.status}")
    ev.add("status", _STAY_STATUS.get(r.status, "CONFIRMED"))
    return ev


# iCalendar's event statuses: a stay awaiting the host or the manager is tentative
_STAY_STATUS = {"cancelled": "CANCELLED", "declined": "CANCELLED", "requested": "TENTATIVE",
                "pending": "TENTATIVE"}  # fmt: skip


def _flight_event(fb: FlightBooking, stamp: dt.datetime) -> Event:
    route = fb.route
    origin: City = route.origin
    start = flights.departure(route, fb.flight_date).replace(tzinfo=ZoneInfo(origin.timezone))
    ev = Event()
    ev.add("uid", f"flight-{fb.code}@{DOMAIN}")
    ev.add("dtstamp", stamp.replace(tzinfo=dt.UTC))
    ev.add("summary", f"Flight {route.number} {origin.airport}-{route.destination.airport}")
    ev.add("dtstart", start)
    try:
        ev.add("dtend", start + dt.timedelta(minutes=route.minutes))
    except OverflowError:  # landing after 9999-12-31: the calendar's last moment
        ev.add("dtend", dt.datetime.max.replace(tzinfo=start.tzinfo))
    ev.add("location", f"{origin.label} ({origin.airport})")
    ev.add("description", f"Record locator {fb.code}, {fb.fare.brand}, status {fb.status}")
    ev.add("status", "CANCELLED" if fb.status == "cancelled" else "CONFIRMED")
    return ev
