"""A listing's calendar: which nights are free, and whether a stay may be booked.

Unavailable nights are the listing's blocks (host-blocked or booked by outside guests)
and the nights of its live reservations; nothing is stored per night."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from officegym.apps.booking.catalog import LIVE, overlapping
from officegym.apps.booking.models import Block, Listing, Reservation
from officegym.db import read
from officegym.errors import Conflict, Invalid

__all__ = ["MAX_AHEAD_DAYS", "Busy", "busy_nights", "check_range", "check_stay", "require_free"]

MAX_AHEAD_DAYS = 500  # how far ahead the calendars open
DAY = dt.timedelta(days=1)

_BLOCKS = select(Block.start, Block.end, Block.kind).where(
    Block.listing_id == bindparam("l"), overlapping(Block)
)
_TAKEN = select(Reservation.id, Reservation.check_in, Reservation.check_out).where(
    Reservation.listing_id == bindparam("l"),
    Reservation.status.in_(LIVE),
    overlapping(Reservation),
)


@dataclass(frozen=True)
class Busy:
    """Nights [start, end) a listing cannot be booked, and why."""

    start: dt.date
    end: dt.date
    why: str  # "blocked", "booked"
    reservation_id: int | None = None


def busy_nights(s: Session, listing_id: int, start: dt.date, end: dt.date) -> list[Busy]:
    """Every unavailable range that meets the nights [start, end), by start."""
    params = {"l": listing_id, "ci": start, "co": end}
    out = [Busy(b.start, b.end, b.kind) for b in read(s, _BLOCKS, params)]
    out += [Busy(r.check_in, r.check_out, "booked", r.id) for r in read(s, _TAKEN, params)]
    return sorted(out, key=lambda b: (b.start, b.end))


def check_range(start: dt.date, end: dt.date, most: int = 120) -> None:
    """Invalid unless [start, end) is a range of 1 to `most` nights."""
    if end <= start:
        raise Invalid(f"the end ({end}) must be after the start ({start})")
    if (end - start).days > most:
        raise Invalid(f"look at most {most} nights at a time")


def check_stay(
    listing: Listing, check_in: dt.date, check_out: dt.date, guests: int, today: dt.date
) -> None:
    """Invalid, saying why, unless the listing takes this stay: dates ahead and in order,
    within its minimum and maximum nights, guests within its maximum."""
    if check_out <= check_in:
        raise Invalid(f"check-out ({check_out}) must be after check-in ({check_in})")
    if check_in < today:
        raise Invalid(f"check-in {check_in} is in the past (today is {today})")
    if (check_in - today).days > MAX_AHEAD_DAYS:
        raise Invalid(f"the calendar is open only {MAX_AHEAD_DAYS} days ahead")
    nights = (check_out - check_in).days
    if nights < listing.min_nights:
        raise Invalid(
            f"{listing.title!r} has a minimum stay of {listing.min_nights} nights ({nights} asked)",
            code="min_nights",
        )
    if nights > listing.max_nights:
        raise Invalid(f"{listing.title!r} takes stays of at most {listing.max_nights} nights")
    if not 1 <= guests <= listing.max_guests:
        raise Invalid(
            f"{listing.title!r} sleeps 1 to {listing.max_guests} guests, not {guests}",
            code="too_many_guests",
        )


def require_free(
    s: Session, listing: Listing, check_in: dt.date, check_out: dt.date, ignore: int | None = None
) -> None:
    """Conflict naming the first taken night unless every night is free (the nights of
    reservation `ignore` count as free: a reservation being changed)."""
    for b in busy_nights(s, listing.id, check_in, check_out):
        if b.reservation_id is not None and b.reservation_id == ignore:
            continue
        night = max(b.start, check_in)
        raise Conflict(
            f"{listing.title!r} is not available on the night of {night:%b %-d, %Y} "
            f"({b.why}); pick other dates or another listing",
            code="not_available",
        )
