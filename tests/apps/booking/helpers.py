"""Finding places and people in the seeded booking world (no hard-coded ids)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Listing
from officegym.apps.org.models import Person
from officegym.tools import ToolContext, call_tool, load_tools

DAY = dt.timedelta(days=1)


def person(s: Session, *, with_manager: bool = True) -> Person:
    stmt = select(Person).where(Person.manager_id.is_not(None) if with_manager else True)
    return s.scalars(stmt.order_by(Person.id)).first()


def free_stay(
    s: Session, city: str = "chicago-il", nights: int = 3, ahead: int = 30, within: bool = True
) -> tuple[Listing, dt.date, dt.date]:
    """An instant-book listing free for `nights` nights from `ahead` days on (within the
    policy cap, or over it)."""
    start = booking.today(s) + ahead * DAY
    cap = booking.nightly_cap(s, booking.find_city(s, city))
    page = booking.search_stays(
        s, city=city, check_in=start, check_out=start + nights * DAY, instant_book=True,
        max_price=cap if within else None, min_price=None if within else cap + 100,
        sort="total_price", limit=50,
    )  # fmt: skip
    listing = next(r.listing for r in page.results if r.listing.min_nights <= nights)
    return booking.get_listing(s, listing.id), start, start + nights * DAY


def over_stay(
    s: Session, *, far: bool, city: str = "new-york-ny", nights: int = 3
) -> tuple[Listing, dt.date, dt.date]:
    """An instant-book stay over the policy cap 30 days ahead: within the margin managers
    approve (`booking.MARGIN`), or beyond it (`far`)."""
    start = booking.today(s) + 30 * DAY
    cap = booking.nightly_cap(s, booking.find_city(s, city))
    page = booking.search_stays(
        s, city=city, check_in=start, check_out=start + nights * DAY, instant_book=True,
        min_price=cap + 100, sort="total_price", limit=50,
    )  # fmt: skip
    limit = cap * (1 + booking.MARGIN)
    for r in page.results if not far else reversed(page.results):
        near = r.quote.average_nightly <= limit  # type: ignore[union-attr]
        if r.listing.min_nights <= nights and near != far:
            return booking.get_listing(s, r.listing.id), start, start + nights * DAY
    raise LookupError(f"no stay {'far' if far else 'just'} over the cap in {city}")


def call(s: Session, actor: Person, name: str, /, **arguments: Any) -> Any:
    load_tools()
    return call_tool(ToolContext(s, actor.id), name, arguments)
