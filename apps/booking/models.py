"""Booking state: stays (listings, their calendars and reservations) and flights (routes,
fares and flight bookings) on one reservation core, shaped after Airbnb, Booking.com and
an airline's manage-booking pages.

Calendars are sparse: a listing's unavailable nights are `Block` ranges (blocked by the
host or booked by outside guests) plus the company's live reservations, and its prices are
its weekday and weekend rates with `PriceRule` ranges on top (seasons, holidays). Flights
are schedules (`Route`, a flight number flying on some weekdays) with `Fare` filings; a
flight on a date is (route, date). Money is integer cents (whole dollars in practice, as
the sites show US prices); dates are `date` (check-in, check-out, flight day).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, get_args

from sqlalchemy import (
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from officegym.apps.org.models import Person
from officegym.db import CLOCK, Base, intpk

PropertyType = Literal["apartment", "house", "condo", "loft", "townhouse", "cabin", "guesthouse"]
Policy = Literal["flexible", "moderate", "strict"]
StayStatus = Literal["requested", "confirmed", "cancelled", "declined"]
BlockKind = Literal["blocked", "booked"]
Cabin = Literal["economy", "business"]
FlightStatus = Literal["confirmed", "cancelled"]
PaymentKind = Literal["charge", "refund"]

PROPERTY_TYPES: tuple[PropertyType, ...] = get_args(PropertyType)
POLICIES: tuple[Policy, ...] = get_args(Policy)
CABINS: tuple[Cabin, ...] = get_args(Cabin)
# Amenities and house rules are bit sets on the listing (one integer each, cheap to filter).
AMENITIES: tuple[str, ...] = (
    "wifi", "kitchen", "washer", "dryer", "air conditioning", "heating", "workspace",
    "tv", "free parking", "pool", "hot tub", "gym", "ev charger", "crib", "elevator",
    "self check-in", "breakfast", "pets allowed",
)  # fmt: skip
RULES: tuple[str, ...] = ("no smoking", "no parties", "no pets", "quiet hours after 10 pm")


def _listing() -> Mapped[int]:
    return mapped_column(ForeignKey("booking_listing.id"), index=True)


class City(Base):
    """A destination; several share a name (Portland, Oregon and Portland, Maine)."""

    __tablename__ = "booking_city"

    id: Mapped[intpk]
    name: Mapped[str] = mapped_column(String(60), index=True)
    region: Mapped[str] = mapped_column(String(60))  # state, province or nation
    country: Mapped[str] = mapped_column(String(60))
    slug: Mapped[str] = mapped_column(String(80), unique=True)  # e.g. portland-or
    airport: Mapped[str | None] = mapped_column(String(3), unique=True)  # IATA code
    tax_rate: Mapped[int] = mapped_column(Integer)  # occupancy tax, basis points
    timezone: Mapped[str] = mapped_column(String(40))

    @property
    def label(self) -> str:
        return f"{self.name}, {self.region}"


class Host(Base):
    """Someone outside the company who lists places."""

    __tablename__ = "booking_host"

    id: Mapped[intpk]
    name: Mapped[str] = mapped_column(String(120))
    since: Mapped[int] = mapped_column(Integer)  # year joined
    superhost: Mapped[bool] = mapped_column(Boolean, default=False)
    response_rate: Mapped[int] = mapped_column(Integer)  # percent


class Listing(Base):
    __tablename__ = "booking_listing"
    __table_args__ = (Index("ix_booking_listing_search", "city_id", "max_guests", "bedrooms"),)

    id: Mapped[intpk]
    title: Mapped[str] = mapped_column(String(120))
    host_id: Mapped[int] = mapped_column(ForeignKey("booking_host.id"), index=True)
    city_id: Mapped[int] = mapped_column(ForeignKey("booking_city.id"))
    neighbourhood: Mapped[str] = mapped_column(String(60))
    property_type: Mapped[str] = mapped_column(String(12))
    bedrooms: Mapped[int] = mapped_column(Integer)
    beds: Mapped[int] = mapped_column(Integer)
    baths: Mapped[float] = mapped_column(Float)
    max_guests: Mapped[int] = mapped_column(Integer)
    amenities: Mapped[int] = mapped_column(Integer, default=0)  # bits of AMENITIES
    rules: Mapped[int] = mapped_column(Integer, default=0)  # bits of RULES
    min_nights: Mapped[int] = mapped_column(Integer, default=1)
    max_nights: Mapped[int] = mapped_column(Integer, default=60)
    instant_book: Mapped[bool] = mapped_column(Boolean, default=True)
    rating: Mapped[float] = mapped_column(Float, default=0.0)  # 0 when unrated
    review_count: Mapped[int] = mapped_column(Integer, default=0)
    policy: Mapped[str] = mapped_column(String(10))  # cancellation policy
    nightly: Mapped[int] = mapped_column(Integer)  # cents, Sunday-Thursday nights
    weekend: Mapped[int] = mapped_column(Integer)  # cents, Friday and Saturday nights
    cleaning_fee: Mapped[int] = mapped_column(Integer)  # cents, once per stay
    weekly_discount: Mapped[int] = mapped_column(Integer, default=0)  # percent, 7+ nights
    monthly_discount: Mapped[int] = mapped_column(Integer, default=0)  # percent, 28+ nights
    description: Mapped[str] = mapped_column(Text, default="")  # the host's words

    host: Mapped[Host] = relationship(viewonly=True)
    city: Mapped[City] = relationship(viewonly=True)


class PriceRule(Base):
    """Custom nightly rates for nights in [start, end): a season or a holiday."""

    __tablename__ = "booking_price_rule"

    id: Mapped[intpk]
    listing_id: Mapped[int] = _listing()
    label: Mapped[str] = mapped_column(String(40))
    start: Mapped[dt.date] = mapped_column(Date())
    end: Mapped[dt.date] = mapped_column(Date())
    nightly: Mapped[int] = mapped_column(Integer)  # cents
    weekend: Mapped[int] = mapped_column(Integer)  # cents


class Block(Base):
    """Nights [start, end) a listing is unavailable: blocked by the host or booked by
    guests from outside the company."""

    __tablename__ = "booking_block"

    id: Mapped[intpk]
    listing_id: Mapped[int] = _listing()
    start: Mapped[dt.date] = mapped_column(Date())
    end: Mapped[dt.date] = mapped_column(Date())
    kind: Mapped[str] = mapped_column(String(8))


class Review(Base):
    __tablename__ = "booking_review"

    id: Mapped[intpk]
    listing_id: Mapped[int] = _listing()
    author: Mapped[str] = mapped_column(String(60))
    stars: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    written_on: Mapped[dt.date] = mapped_column(Date())


class Reservation(Base):
    """A stay booked by someone in the company for a traveller (often themself). The
    amounts are the quote's lines at booking or at the last change."""

    __tablename__ = "booking_reservation"
    __table_args__ = (Index("ix_booking_reservation_stay", "listing_id", "status", "check_in"),)

    id: Mapped[intpk]
    code: Mapped[str] = mapped_column(String(10), unique=True, info={"free": "generated code"})
    listing_id: Mapped[int] = mapped_column(ForeignKey("booking_listing.id"))
    guest_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)
    booked_by_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"))
    check_in: Mapped[dt.date] = mapped_column(Date())
    check_out: Mapped[dt.date] = mapped_column(Date())
    guests: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10))
    policy: Mapped[str] = mapped_column(String(10))  # the listing's policy when booked
    accommodation: Mapped[int] = mapped_column(Integer)  # nights, cents
    discount: Mapped[int] = mapped_column(Integer)
    cleaning_fee: Mapped[int] = mapped_column(Integer)
    service_fee: Mapped[int] = mapped_column(Integer)
    taxes: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    refund: Mapped[int | None] = mapped_column(Integer)  # set when cancelled
    over_policy: Mapped[bool] = mapped_column(Boolean, default=False)
    approver_id: Mapped[int | None] = mapped_column(ForeignKey("org_person.id"))
    purpose: Mapped[str] = mapped_column(String(200), default="", info={"free": "optional note"})
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)
    cancelled_at: Mapped[dt.datetime | None] = mapped_column(DateTime(), info=CLOCK)

    listing: Mapped[Listing] = relationship(viewonly=True)
    guest: Mapped[Person] = relationship(viewonly=True, foreign_keys=[guest_id])

    @property
    def nights(self) -> int:
        return (self.check_out - self.check_in).days


class BookedNight(Base):
    """One night held by a live reservation: unique per listing, so two sessions racing
    for the same night cannot both commit (the database refuses the second)."""

    __tablename__ = "booking_night"
    __table_args__ = (UniqueConstraint("listing_id", "night"),)

    id: Mapped[intpk]
    listing_id: Mapped[int] = mapped_column(ForeignKey("booking_listing.id"))
    night: Mapped[dt.date] = mapped_column(Date())
    reservation_id: Mapped[int] = mapped_column(ForeignKey("booking_reservation.id"), index=True)


class HostMessage(Base):
    """A message between a guest and a listing's host, about a stay or before one."""

    __tablename__ = "booking_message"

    id: Mapped[intpk]
    listing_id: Mapped[int] = _listing()
    person_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)
    reservation_id: Mapped[int | None] = mapped_column(ForeignKey("booking_reservation.id"))
    from_host: Mapped[bool] = mapped_column(Boolean, default=False)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)


class Wishlist(Base):
    """A person's named list of listings; names are unique per owner."""

    __tablename__ = "booking_wishlist"
    __table_args__ = (UniqueConstraint("owner_id", "name"),)

    id: Mapped[intpk]
    owner_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)


class Saved(Base):
    """A listing saved to a wishlist."""

    __tablename__ = "booking_saved"
    __table_args__ = (UniqueConstraint("wishlist_id", "listing_id"),)  # a listing once per list

    id: Mapped[intpk]
    wishlist_id: Mapped[int] = mapped_column(ForeignKey("booking_wishlist.id"), index=True)
    listing_id: Mapped[int] = mapped_column(ForeignKey("booking_listing.id"))
    added_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)


class TravelPolicy(Base):
    """The company's cap on the average nightly rate of a stay in a city (city_id None: the
    default for every other city); stays above it need the traveller's manager's approval."""

    __tablename__ = "booking_travel_policy"

    id: Mapped[intpk]
    city_id: Mapped[int | None] = mapped_column(ForeignKey("booking_city.id"), unique=True)
    nightly_cap: Mapped[int] = mapped_column(Integer)  # cents


class Route(Base):
    """A scheduled flight: one flight number between two cities on some weekdays."""

    __tablename__ = "booking_route"
    __table_args__ = (Index("ix_booking_route_pair", "origin_id", "destination_id"),)

    id: Mapped[intpk]
    airline: Mapped[str] = mapped_column(String(40))
    number: Mapped[str] = mapped_column(String(8), unique=True)  # e.g. NA 1204
    origin_id: Mapped[int] = mapped_column(ForeignKey("booking_city.id"))
    destination_id: Mapped[int] = mapped_column(ForeignKey("booking_city.id"))
    departs: Mapped[dt.time] = mapped_column()  # local time at the origin
    minutes: Mapped[int] = mapped_column(Integer)  # block time
    weekdays: Mapped[int] = mapped_column(Integer)  # bit 0 Monday ... bit 6 Sunday

    origin: Mapped[City] = relationship(viewonly=True, foreign_keys=[origin_id])
    destination: Mapped[City] = relationship(viewonly=True, foreign_keys=[destination_id])


class Fare(Base):
    """A fare filed on a route: cabin, brand and its rules. `change_fee` None means the fare
    cannot be changed; a non-refundable fare refunds nothing when cancelled (except within
    24 hours of booking, a week or more before departure)."""

    __tablename__ = "booking_fare"

    id: Mapped[intpk]
    route_id: Mapped[int] = mapped_column(ForeignKey("booking_route.id"), index=True)
    cabin: Mapped[str] = mapped_column(String(10))
    brand: Mapped[str] = mapped_column(String(20))  # Basic Economy, Main, Flex, Business
    base: Mapped[int] = mapped_column(Integer)  # cents per traveller, 3+ weeks ahead
    refundable: Mapped[bool] = mapped_column(Boolean)
    change_fee: Mapped[int | None] = mapped_column(Integer)  # cents; None: no changes
    bags: Mapped[int] = mapped_column(Integer)  # checked bags included

    route: Mapped[Route] = relationship(viewonly=True)


class FlightBooking(Base):
    """Seats on one flight (route and date) at one fare for one or more travellers."""

    __tablename__ = "booking_flight_booking"
    __table_args__ = (Index("ix_booking_flight_booking_flight", "route_id", "flight_date"),)

    id: Mapped[intpk]
    code: Mapped[str] = mapped_column(String(6), unique=True, info={"free": "generated locator"})
    route_id: Mapped[int] = mapped_column(ForeignKey("booking_route.id"))
    fare_id: Mapped[int] = mapped_column(ForeignKey("booking_fare.id"))
    flight_date: Mapped[dt.date] = mapped_column(Date())
    booked_by_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)
    status: Mapped[str] = mapped_column(String(10))
    price: Mapped[int] = mapped_column(Integer)  # cents per traveller
    total: Mapped[int] = mapped_column(Integer)  # cents, all travellers, fees paid included
    refund: Mapped[int | None] = mapped_column(Integer)
    purpose: Mapped[str] = mapped_column(String(200), default="", info={"free": "optional note"})
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)
    changed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(), info=CLOCK)
    cancelled_at: Mapped[dt.datetime | None] = mapped_column(DateTime(), info=CLOCK)

    route: Mapped[Route] = relationship(viewonly=True)
    fare: Mapped[Fare] = relationship(viewonly=True)


class Passenger(Base):
    __tablename__ = "booking_passenger"

    id: Mapped[intpk]
    flight_booking_id: Mapped[int] = mapped_column(
        ForeignKey("booking_flight_booking.id"), index=True
    )
    person_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), index=True)


class Payment(Base):
    """One line of a receipt: a charge or a refund on a stay or a flight booking."""

    __tablename__ = "booking_payment"

    id: Mapped[intpk]
    reservation_id: Mapped[int | None] = mapped_column(
        ForeignKey("booking_reservation.id"), index=True
    )
    flight_booking_id: Mapped[int | None] = mapped_column(
        ForeignKey("booking_flight_booking.id"), index=True
    )
    kind: Mapped[str] = mapped_column(String(8))
    amount: Mapped[int] = mapped_column(Integer)  # cents, positive
    memo: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)
