"""What the booking pages need besides the service: reading dates, numbers and search
filters from forms and URLs (bad ones become `Invalid`), page URLs, and the calendar
grid of a listing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import url_for
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking import pricing
from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Listing, Reservation, Route
from officegym.apps.org.models import Person
from officegym.apps.org.service import profile
from officegym.errors import Invalid, NotFound

FILTER_KEYS = ("city", "check_in", "check_out", "guests", "min_price", "max_price", "bedrooms",
               "beds", "type", "amenity", "instant", "rating", "sort")  # fmt: skip
CALENDAR_DAYS = 42
MAX_NUMBER = 10**12  # larger whole numbers in a form mean nothing here (and overflow SQL)


def day(form: Mapping[str, Any], key: str, default: dt.date | None = None) -> dt.date:
    value = (form.get(key) or "").strip()
    if not value:
        if default is None:
            raise Invalid(f"give the {key.replace('_', ' ')} date")
        return default
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise Invalid(f"{key.replace('_', ' ')}: {value!r} is not a date (YYYY-MM-DD)") from None


def number(form: Mapping[str, Any], key: str, default: int) -> int:
    value = (form.get(key) or "").strip()
    if not value:
        return default
    try:
        found = int(value)
    except ValueError:
        raise Invalid(f"{key.replace('_', ' ')}: {value[:40]!r} is not a whole number") from None
    if abs(found) > MAX_NUMBER:
        raise Invalid(f"{key.replace('_', ' ')}: {value[:40]!r} is out of range")
    return found


def rating(args: Mapping[str, Any]) -> float | None:
    """The minimum rating filter: a number from 0 to 5, or None."""
    value = (args.get("rating") or "").strip()
    if not value:
        return None
    try:
        found = float(value)
    except ValueError:
        raise Invalid(f"rating: {value[:40]!r} is not a number") from None
    if not 0 <= found <= 5:
        raise Invalid("rating: give a number from 0 to 5")
    return found


def stay_dates(args: Mapping[str, Any]) -> tuple[dt.date, dt.date] | None:
    """The check-in and check-out in the URL, if both are there and readable."""
    try:
        return day(args, "check_in"), day(args, "check_out")
    except Invalid:
        return None


def search_filters(args: Any) -> dict[str, Any]:
    """`service.search_stays` arguments from the search form's URL (dollars to cents)."""
    dates = stay_dates(args)
    dollars = {k: number(args, k, -1) for k in ("min_price", "max_price")}
    return {
        "city": args.get("city", ""), "check_in": dates[0] if dates else None,
        "check_out": dates[1] if dates else None, "guests": number(args, "guests", 1),
        "min_price": dollars["min_price"] * 100 if dollars["min_price"] >= 0 else None,
        "max_price": dollars["max_price"] * 100 if dollars["max_price"] >= 0 else None,
        "bedrooms": number(args, "bedrooms", 0) or None, "beds": number(args, "beds", 0) or None,
        "property_type": args.get("type") or None, "amenities": args.getlist("amenity"),
        "instant_book": True if args.get("instant") else None,
        "min_rating": rating(args), "sort": args.get("sort") or "rating",
    }  # fmt: skip


def flight_ways(args: Mapping[str, Any]) -> list[tuple[str, str, dt.date]]:
    """(origin, destination, date) of each way the flight search asks for: out, and back
    when a return date is given (Invalid if it is before the departure)."""
    out, there = day(args, "date"), (args["origin"], args["destination"])
    if not (args.get("return_date") or "").strip():
        return [(*there, out)]
    back = day(args, "return_date")
    if back < out:
        raise Invalid(f"the return ({back}) must be on or after the departure ({out})")
    return [(*there, out), (there[1], there[0], back)]


def search_url(args: Any, **changes: Any) -> str:
    params: dict[str, Any] = {k: args.getlist(k) if k == "amenity" else args.get(k)
                              for k in FILTER_KEYS if args.get(k)}  # fmt: skip
    params.update(changes)
    return url_for("booking.search", **{k: v for k, v in params.items() if v})


def keep(form: Mapping[str, Any]) -> dict[str, Any]:
    """The stay fields of a refused form to carry back in the URL (short ones only: they
    are dates and a count)."""
    return {
        k: form[k] for k in ("check_in", "check_out", "guests") if 0 < len(form.get(k, "")) <= 20
    }


@dataclass(frozen=True)
class CalendarDay:
    day: dt.date
    status: str  # free, booked, blocked, past
    rate: int


def month_days(s: Session, item: Listing, start: dt.date) -> list[CalendarDay]:
    """Six weeks of nights from the Monday of `start`'s week: free or not, and the rate."""
    first = start - dt.timedelta(days=start.weekday())
    last = first + dt.timedelta(days=CALENDAR_DAYS)
    busy = booking.busy_nights(s, item.id, first, last)
    rules = booking.rules_of(s, item.id)
    today = booking.today(s)
    out = []
    for i in range(CALENDAR_DAYS):
        d = first + dt.timedelta(days=i)
        hit = next((b.why for b in busy if b.start <= d < b.end), None)
        status = "past" if d < today else hit or "free"
        out.append(CalendarDay(d, status, booking.night_rate(item, rules, d).rate))
    return out


def over_cap(s: Session, item: Listing, q: pricing.Quote) -> int | None:
    """The city's nightly cap when quote `q` is over it (None: within it, or no policy)."""
    try:
        cap = booking.nightly_cap(s, item.city)
    except NotFound:
        return None
    return cap if q.average_nightly > cap else None


def handle(s: Session, person_id: int) -> str:
    return profile(s, person_id).handle


def has_reports(s: Session, actor: Person) -> bool:
    """Whether anyone reports to the actor (who then sees Approvals in the menu)."""
    stmt = select(Person.id).where(Person.manager_id == actor.id).limit(1)
    return s.scalar(stmt) is not None


def manager(s: Session, actor: Person) -> str | None:
    return profile(s, actor.id).manager


@dataclass(frozen=True)
class TripRow:
    """One stay or flight as the trips page lists it."""

    kind: str  # "stay" or "flight"
    code: str
    what: str
    where: str
    when: str
    traveller: str
    status: str
    total: int
    start: dt.date


TRIP_SECTIONS = ("Upcoming", "Past", "Cancelled")


def _section(live: bool, ahead: bool) -> str:
    return "Cancelled" if not live else "Upcoming" if ahead else "Past"


def lands(route: Route, day: dt.date) -> str:
    """The local arrival time of `route` leaving on `day`: '11:20', or '07:05 +1 day'."""
    at = booking.arrival(route, day)
    later = (at.date() - day).days
    return f"{at:%H:%M}" + (f" +{later} day{'s' * (later > 1)}" if later > 0 else "")


def trip_sections(s: Session, actor: Person) -> dict[str, list[TripRow]]:
    """The actor's stays and flights apart as a travel desk lists them: upcoming (live
    and not over, soonest first), past (most recent first), cancelled or declined."""
    today = booking.today(s)
    rows: list[tuple[str, TripRow]] = []
    for r in booking.list_stays(s, actor):
        row = TripRow("stay", r.code, r.listing.title, r.listing.city.label,
                      f"{r.check_in:%b %-d, %Y} to {r.check_out:%b %-d, %Y}", r.guest.handle,
                      r.status, r.total, r.check_in)  # fmt: skip
        live = r.status in booking.LIVE
        rows.append((_section(live, r.check_out > today), row))
    for f in booking.list_flights(s, actor):
        route, day = f.route, f.flight_date
        row = TripRow("flight", f.code, f"{route.number} · {f.fare.brand}",
                      f"{route.origin.label} ({route.origin.airport}) to "
                      f"{route.destination.label} ({route.destination.airport})",
                      f"{day:%b %-d, %Y} {route.departs:%H:%M}–{lands(route, day)}",
                      ", ".join(handle(s, p) for p in booking.passengers(s, f)),
                      f.status, f.total, f.flight_date)  # fmt: skip
        live = f.status == "confirmed"
        rows.append((_section(live, f.flight_date >= today), row))
    out: dict[str, list[TripRow]] = {name: [] for name in TRIP_SECTIONS}
    for section, row in rows:
        out[section].append(row)
    for section, items in out.items():
        items.sort(key=lambda t: (t.start, t.code), reverse=section != "Upcoming")
    return out


@dataclass(frozen=True)
class ApprovalRow:
    """A held stay as a manager's approvals page shows it."""

    r: Reservation
    nightly: int
    cap: int


def approval_rows(s: Session, actor: Person) -> list[ApprovalRow]:
    """The stays awaiting the actor's approval, with their nightly rate and cap."""
    return [
        ApprovalRow(r, pricing.share(r.accommodation - r.discount, 1, r.nights),
                    booking.nightly_cap(s, r.listing.city))
        for r in booking.approval_requests(s, actor)
    ]  # fmt: skip
