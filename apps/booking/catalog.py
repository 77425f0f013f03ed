"""What the site offers, read-only for everyone: cities, listings with their price rules
and reviews, and search over stays. Cities and listings never change after seeding, so
the city directory is read once per world (as the org directory is)."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, and_, bindparam, exists, select
from sqlalchemy.orm import Session

from officegym.apps.booking import pricing
from officegym.apps.booking.models import (
    AMENITIES,
    PROPERTY_TYPES,
    RULES,
    Block,
    City,
    Listing,
    PriceRule,
    Reservation,
    Review,
)
from officegym.db import get, read
from officegym.errors import Invalid, NotFound
from officegym.writes import insert_row

__all__ = [
    "LIVE",
    "MAX_PAGE",
    "SORTS",
    "StayPage",
    "StayResult",
    "amenity_mask",
    "amenity_names",
    "cities",
    "find_city",
    "get_listing",
    "listing_quote",
    "post_review",
    "reviews",
    "rule_names",
    "rules_of",
    "search_stays",
]

LIVE = ("requested", "pending", "confirmed")  # reservations that hold their nights
SORTS = ("rating", "total_price", "nightly_price")
MAX_PAGE = 50


def cities(s: Session) -> list[City]:
    """Every city, by name then region (read once per world)."""
    cache = s.info.setdefault("directory", {})
    if "booking.cities" not in cache:
        rows = s.scalars(select(City).order_by(City.name, City.region)).all()
        for c in rows:
            s.expunge(c)  # shared by the world's sessions: never tied to one
        cache["booking.cities"] = list(rows)
    return cache["booking.cities"]


def find_city(s: Session, ref: str) -> City:
    """A city by slug (portland-or), airport code (PDX), 'Name, Region' or 'Name, XX', or
    by name alone when only one city has it; Invalid naming each when several do."""
    key = " ".join(ref.replace(",", " , ").split()).lower()
    if not key:
        raise Invalid("give a city, e.g. 'Chicago' or 'Portland, Oregon'")
    all_cities = cities(s)
    for c in all_cities:
        if key in (c.slug, (c.airport or "").lower()):
            return c
    name, _, region = (part.strip() for part in key.partition(","))
    found = [c for c in all_cities if c.name.lower() == name]
    if region:
        found = [c for c in found if region in (c.region.lower(), c.slug.rsplit("-", 1)[1],
                                                 c.country.lower())]  # fmt: skip
    if len(found) == 1:
        return found[0]
    if found:
        options = "; ".join(f"{c.label}, {c.country} ({c.slug})" for c in found)
        raise Invalid(f"{len(found)} cities are called {ref.strip()!r}: {options}; say which")
    raise NotFound(f"no city {ref.strip()!r} on the site", code="city_not_found")


def get_listing(s: Session, listing_id: int) -> Listing:
    listing = get(s, Listing, listing_id)
    if listing is None:
        raise NotFound(f"no listing with id {listing_id}", code="listing_not_found")
    return listing


_RULES = select(PriceRule).where(PriceRule.listing_id == bindparam("l")).order_by(PriceRule.start)
_RULES_OF_MANY = (
    select(PriceRule)
    .where(PriceRule.listing_id.in_(bindparam("ids", expanding=True)))
    .order_by(PriceRule.listing_id, PriceRule.start)
)


def rules_of(s: Session, listing_id: int) -> list[PriceRule]:
    """A listing's price rules (seasons, holidays), earliest first."""
    return list(s.scalars(_RULES, {"l": listing_id}))


def listing_quote(s: Session, listing: Listing, check_in: dt.date, check_out: dt.date):
    """`pricing.quote` of a listing for the dates (its rules and city tax looked up)."""
    city = next(c for c in cities(s) if c.id == listing.city_id)
    return pricing.quote(listing, rules_of(s, listing.id), check_in, check_out, city.tax_rate)


def reviews(s: Session, listing_id: int, limit: int = 10) -> list[Review]:
    stmt = (
        select(Review)
        .where(Review.listing_id == listing_id)
        .order_by(Review.written_on.desc(), Review.id.desc())
        .limit(limit)
    )
    return list(s.scalars(stmt))


def post_review(s: Session, listing: Listing, *, author: str, stars: int, text: str) -> Review:
    """A guest's review of a listing, dated today (the listing's rating is the host site's
    own average and is left as it is)."""
    text = text.strip()
    if not text or not 1 <= stars <= 5:
        raise Invalid("a review needs text and 1 to 5 stars")
    day = s.info["clock"].peek().date()
    return insert_row(
        s, Review, listing_id=listing.id, author=author[:60], stars=stars, text=text, written_on=day
    )


def retitle_listing(s: Session, listing: Listing, title: str) -> Listing:
    """The host renames their listing (1 to 120 characters, as the listing page takes)."""
    title = title.strip()
    if not title or len(title) > 120:
        raise Invalid("a listing title is 1 to 120 characters")
    listing.title = title
    s.flush()
    return listing


def amenity_mask(names: Sequence[str]) -> int:
    """The bit set of amenity names; Invalid naming the options for an unknown one."""
    mask = 0
    for name in names:
        key = name.strip().lower().replace("_", " ")
        if key not in AMENITIES:
            raise Invalid(f"unknown amenity {name!r}; amenities: {', '.join(AMENITIES)}")
        mask |= 1 << AMENITIES.index(key)
    return mask


def amenity_names(mask: int) -> list[str]:
    return [a for i, a in enumerate(AMENITIES) if mask >> i & 1]


def rule_names(mask: int) -> list[str]:
    return [r for i, r in enumerate(RULES) if mask >> i & 1]


# ---------------------------------------------------------------- search


@dataclass(frozen=True)
class StayResult:
    listing: Any  # a row of the listing's columns
    quote: pricing.Quote | None  # None when searched without dates

    @property
    def nightly(self) -> int:
        return self.quote.average_nightly if self.quote else self.listing.nightly


@dataclass(frozen=True)
class StayPage:
    city: City
    results: list[StayResult]
    total: int
    offset: int
    limit: int


def search_stays(
    s: Session,
    *,
    city: str,
    check_in: dt.date | None = None,
    check_out: dt.date | None = None,
    guests: int = 1,
    min_price: int | None = None,
    max_price: int | None = None,
    bedrooms: int | None = None,
    beds: int | None = None,
    property_type: str | None = None,
    amenities: Sequence[str] = (),
    instant_book: bool | None = None,
    min_rating: float | None = None,
    sort: str = "rating",
    limit: int = 20,
    offset: int = 0,
) -> StayPage:
    """Listings in a city that fit the guests (and, given dates, are free every night and
    allow that many nights), matching every filter; prices (per night, in cents) compare
    with the stay's average nightly rate after discounts. Sorted by rating, total price
    for the dates or nightly price."""
    place = find_city(s, city)
    dated = _check_dates(check_in, check_out)
    _check_filters(guests, property_type, sort, min_rating)
    params: dict[str, Any] = {"city": place.id, "guests": guests, "bedrooms": bedrooms or 0,
                              "beds": beds or 0, "mask": amenity_mask(amenities),
                              "type": property_type, "instant": instant_book,
                              "rating": min_rating}  # fmt: skip
    if dated:
        params |= {"ci": check_in, "co": check_out, "n": (check_out - check_in).days}  # type: ignore[operator]
    shape = (dated, property_type is not None, instant_book is not None, min_rating is not None)
    rows = list(read(s, _candidates(shape), params))
    results = _priced(s, rows, place, check_in, check_out)
    results = [r for r in results if _in_range(r.nightly, min_price, max_price)]
    results.sort(key=_SORT_KEYS[sort])
    limit, offset = max(1, min(limit, MAX_PAGE)), max(0, offset)
    return StayPage(place, results[offset : offset + limit], len(results), offset, limit)


def _check_dates(check_in: dt.date | None, check_out: dt.date | None) -> bool:
    if (check_in is None) != (check_out is None):
        raise Invalid("give both check-in and check-out dates, or neither")
    if check_in is None or check_out is None:
        return False
    if check_out <= check_in:
        raise Invalid(f"check-out ({check_out}) must be after check-in ({check_in})")
    if (check_out - check_in).days > 365:
        raise Invalid("a stay can be at most 365 nights")
    return True


def _check_filters(guests: int, ptype: str | None, sort: str, rating: float | None) -> None:
    if not 1 <= guests <= 16:
        raise Invalid(f"guests must be between 1 and 16, not {guests}")
    if ptype is not None and ptype not in PROPERTY_TYPES:
        raise Invalid(f"property type must be one of {', '.join(PROPERTY_TYPES)}")
    if sort not in SORTS:
        raise Invalid(f"sort must be one of {', '.join(SORTS)}, not {sort!r}")
    if rating is not None and not 0 <= rating <= 5:
        raise Invalid("min_rating must be between 0 and 5")


def _in_range(value: int, low: int | None, high: int | None) -> bool:
    return (low is None or value >= low) and (high is None or value <= high)


_SORT_KEYS = {
    "rating": lambda r: (-r.listing.rating, -r.listing.review_count, r.listing.id),
    "total_price": lambda r: (r.quote.total if r.quote else r.listing.nightly, r.listing.id),
    "nightly_price": lambda r: (r.nightly, r.listing.id),
}


def overlapping(model: Any, start: str = "ci", end: str = "co") -> Any:
    """Rows of `model` (a block or a reservation) whose nights meet [start, end)."""
    lo, hi = (model.start, model.end) if model is Block else (model.check_in, model.check_out)
    return and_(lo < bindparam(end), hi > bindparam(start))


@functools.cache
def _candidates(shape: tuple[bool, bool, bool, bool]) -> Select[Any]:
    """The listings a search of this shape selects, built once per shape."""
    dated, typed, instant, rated = shape
    L = Listing
    stmt = select(*L.__table__.c).where(
        L.city_id == bindparam("city"),
        L.max_guests >= bindparam("guests"),
        L.bedrooms >= bindparam("bedrooms"),
        L.beds >= bindparam("beds"),
        L.amenities.op("&")(bindparam("mask")) == bindparam("mask"),
    )
    if typed:
        stmt = stmt.where(L.property_type == bindparam("type"))
    if instant:
        stmt = stmt.where(L.instant_book == bindparam("instant"))
    if rated:
        stmt = stmt.where(L.rating >= bindparam("rating"))
    if dated:
        blocked = exists().where(Block.listing_id == L.id, overlapping(Block))
        booked = exists().where(Reservation.listing_id == L.id, Reservation.status.in_(LIVE),
                                overlapping(Reservation))  # fmt: skip
        stmt = stmt.where(L.min_nights <= bindparam("n"), L.max_nights >= bindparam("n"))
        stmt = stmt.where(~blocked, ~booked)
    return stmt.order_by(L.id)


def _priced(
    s: Session, rows: list[Any], city: City, check_in: dt.date | None, check_out: dt.date | None
) -> list[StayResult]:
    if check_in is None or check_out is None:
        return [StayResult(r, None) for r in rows]
    rules: dict[int, list[PriceRule]] = {}
    if rows:
        for rule in read(s, _RULES_OF_MANY.with_only_columns(*PriceRule.__table__.c),
                         {"ids": [r.id for r in rows]}):  # fmt: skip
            rules.setdefault(rule.listing_id, []).append(rule)
    return [
        StayResult(r, pricing.quote(r, rules.get(r.id, ()), check_in, check_out, city.tax_rate))
        for r in rows
    ]
