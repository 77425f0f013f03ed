"""Booking tools for agents, part one: stays (search, listing, quote, availability, book,
change, cancel, host messages, wishlists). Flights, trips, the travel policy and the
calendar export are in `tools_trips.py`; importing this module registers both.

Listings are referred to by `listing_id` (shown in every result), cities by name
('Chicago', 'Portland, Maine'), slug ('portland-me') or airport code, reservations by
their confirmation code (HM...), people by handle. Amounts are US dollars.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from officegym.apps.booking import service as booking
from officegym.apps.booking import shapes as V
from officegym.apps.booking import tools_approvals, tools_trips
from officegym.apps.booking.models import PropertyType
from officegym.errors import Invalid
from officegym.tools import Ref, ToolContext, tool

__all__ = ["tools_approvals", "tools_trips"]  # registered on import

ListingId = Annotated[
    int, Field(description="The listing's id, as search results show it."), Ref("booking_listing")
]
PERSON = Ref("org_person", ("handle", "email", "name"))
CityRef = Annotated[
    str,
    Field(description="City name ('Chicago'), with its state or country when several share "
          "it ('Portland, Maine'), or its id ('portland-me')."),
]  # fmt: skip
CheckIn = Annotated[dt.date, Field(description="Check-in date, YYYY-MM-DD.")]
CheckOut = Annotated[
    dt.date, Field(description="Check-out date, YYYY-MM-DD (the morning you leave).")
]
Guests = Annotated[int, Field(description="How many guests (1-16).", ge=1, le=10_000)]
Code = Annotated[
    str,
    Field(description="The reservation's confirmation code, e.g. HM4K9PXQ2A."),
    Ref("booking_reservation", ("code",)),
]
FirstNight = Annotated[dt.date, Field(description="First night to look at, YYYY-MM-DD.")]
UntilNight = Annotated[
    dt.date, Field(description="Look at nights before this date (at most 120 days on).")
]
Dollars = Annotated[
    int | None, Field(description="US dollars per night (average, after discounts).", ge=0)
]


@tool("read")
def booking_search_stays(
    ctx: ToolContext,
    *,
    city: CityRef,
    check_in: Annotated[
        dt.date | None, Field(description="Check-in date (with check_out).")
    ] = None,
    check_out: Annotated[
        dt.date | None, Field(description="Check-out date (with check_in).")
    ] = None,
    guests: Guests = 1,
    min_price: Dollars = None,
    max_price: Dollars = None,
    bedrooms: Annotated[int | None, Field(description="At least this many bedrooms.", ge=0)] = None,
    beds: Annotated[int | None, Field(description="At least this many beds.", ge=0)] = None,
    property_type: Annotated[
        PropertyType | None, Field(description="Only this type of place.")
    ] = None,
    amenities: Annotated[
        list[str], Field(description="Amenities all required, e.g. ['wifi', 'workspace'].")
    ] = [],  # noqa: B006
    instant_book: Annotated[
        bool | None, Field(description="True: only places you can book at once.")
    ] = None,
    min_rating: Annotated[
        float | None, Field(description="Only places rated at least this (0-5).")
    ] = None,
    sort: Annotated[
        Literal["rating", "total_price", "nightly_price"],
        Field(description="Order: best rated, lowest total for the dates, or lowest nightly rate."),
    ] = "rating",
    limit: Annotated[int, Field(description="Results per page (1-50).", ge=1, le=50)] = 20,
    offset: Annotated[int, Field(description="Skip this many results (paging).", ge=0)] = 0,
) -> dict[str, Any]:
    """Search stays in a city. With dates, only places free every night and taking that
    many nights are listed, each with its average nightly rate and total (fees and taxes
    included) for the stay; prices filter on the average nightly rate."""
    page = booking.search_stays(
        ctx.session, city=city, check_in=check_in, check_out=check_out, guests=guests,
        min_price=None if min_price is None else min_price * 100,
        max_price=None if max_price is None else max_price * 100, bedrooms=bedrooms, beds=beds,
        property_type=property_type, amenities=amenities, instant_book=instant_book,
        min_rating=min_rating, sort=sort, limit=limit, offset=offset,
    )  # fmt: skip
    results = [V.listing_summary(r.listing, r.quote, page.city) for r in page.results]
    return {"city": page.city.label, "total": page.total, "offset": page.offset,
            "results": results}  # fmt: skip


@tool("read")
def booking_get_listing(ctx: ToolContext, *, listing_id: ListingId) -> dict[str, Any]:
    """A listing's details: rooms, amenities, house rules, minimum nights, rates (weekday,
    weekend, seasonal), fees, discounts, cancellation policy, host and recent reviews."""
    return V.listing_detail(ctx.session, booking.get_listing(ctx.session, listing_id))


@tool("read")
def booking_quote_stay(
    ctx: ToolContext, *, listing_id: ListingId, check_in: CheckIn, check_out: CheckOut,
    guests: Guests = 1,
) -> dict[str, Any]:  # fmt: skip
    """The price of a stay line by line (nights x rates, discount, cleaning fee, service
    fee, taxes, total), and whether the listing takes it (free nights, minimum nights,
    guests)."""
    s = ctx.session
    listing = booking.get_listing(s, listing_id)
    booking.check_stay(listing, check_in, check_out, guests, booking.today(s))
    out = V.quote_view(booking.listing_quote(s, listing, check_in, check_out))
    busy = booking.busy_nights(s, listing.id, check_in, check_out)
    out["available"] = not busy
    return out


@tool("read")
def booking_check_availability(
    ctx: ToolContext, *, listing_id: ListingId, start: FirstNight, end: UntilNight,
) -> dict[str, Any]:  # fmt: skip
    """The nights a listing is unavailable between two dates (booked or blocked ranges);
    every other night is free."""
    s = ctx.session
    listing = booking.get_listing(s, listing_id)
    booking.check_range(start, end)
    busy = booking.busy_nights(s, listing.id, start, end)
    return {"listing_id": listing.id, "minimum_nights": listing.min_nights,
            "unavailable": [{"from": b.start.isoformat(), "until": b.end.isoformat(),
                             "why": b.why} for b in busy]}  # fmt: skip


@tool("write")
def booking_book_stay(
    ctx: ToolContext,
    *,
    listing_id: ListingId,
    check_in: CheckIn,
    check_out: CheckOut,
    guests: Guests = 1,
    traveller: Annotated[
        str | None,
        Field(description="Handle of the colleague who travels (default: you)."),
        PERSON,
    ] = None,
    purpose: Annotated[
        str,
        Field(
            description="What the trip is for (the business reason a manager reads in an "
            "approval request)."
        ),
    ] = "",
    message: Annotated[
        str | None, Field(description="A message to the host (useful for request-to-book places).")
    ] = None,
) -> dict[str, Any]:
    """Book a stay: confirmed and charged at once for instant-book places, a request the
    host must accept otherwise. A stay over the traveller's travel policy cap is held as
    'pending' (nights held, nothing charged) and its approval request goes to the
    traveller's manager by DM; it is confirmed or declined when they decide."""
    s = ctx.session
    listing = booking.get_listing(s, listing_id)
    r = booking.book_stay(
        s, ctx.actor, listing, check_in=check_in, check_out=check_out, guests=guests,
        guest=traveller, purpose=purpose, message=message,
    )  # fmt: skip
    return {"ok": True, "reservation": V.reservation_view(s, r, receipt=True)}


@tool("write")
def booking_change_stay(
    ctx: ToolContext,
    *,
    code: Code,
    check_in: Annotated[dt.date | None, Field(description="New check-in date.")] = None,
    check_out: Annotated[dt.date | None, Field(description="New check-out date.")] = None,
    guests: Annotated[
        int | None, Field(description="New number of guests.", ge=1, le=10_000)
    ] = None,
) -> dict[str, Any]:
    """Change a reservation's dates or guests. The stay is re-quoted at the listing's
    prices; the difference is charged or refunded. Returns the old and new totals."""
    s = ctx.session
    r = booking.find_reservation(s, ctx.actor, code)
    r, old = booking.change_stay(s, ctx.actor, r, check_in=check_in, check_out=check_out,
                                 guests=guests)  # fmt: skip
    return {"ok": True, "old_total": V.money(old), "new_total": V.money(r.total),
            "reservation": V.reservation_view(s, r, receipt=True)}  # fmt: skip


@tool("write")
def booking_cancel_stay(ctx: ToolContext, *, code: Code) -> dict[str, Any]:
    """Cancel a reservation; the refund follows the listing's cancellation policy on
    today's date (see booking_preview_cancellation to know it first)."""
    s = ctx.session
    r = booking.cancel_stay(s, ctx.actor, booking.find_reservation(s, ctx.actor, code))
    return {"ok": True, "refund": V.money(r.refund), "reservation": V.reservation_view(s, r)}


@tool("write")
def booking_message_host(
    ctx: ToolContext, *, listing_id: ListingId,
    text: Annotated[str, Field(description="The message.")],
    code: Annotated[
        str | None, Field(description="Your reservation's code, if it is about one.")
    ] = None,
) -> dict[str, Any]:  # fmt: skip
    """Send a message to a listing's host (about your reservation, or before booking)."""
    s = ctx.session
    listing = booking.get_listing(s, listing_id)
    r = booking.find_reservation(s, ctx.actor, code) if code else None
    if r is not None and r.listing_id != listing.id:
        raise Invalid(f"reservation {r.code} is not at listing {listing.id}")
    m = booking.message_host(s, ctx.actor, listing, text, reservation=r)
    return {"ok": True, "message_id": m.id}


@tool("read")
def booking_read_host_messages(ctx: ToolContext, *, listing_id: ListingId) -> dict[str, Any]:
    """Your conversation with a listing's host, oldest first."""
    msgs = booking.host_messages(ctx.session, ctx.actor, listing_id)
    return {"listing_id": listing_id, "messages": [
        {"from": "host" if m.from_host else "you", "time": m.created_at.isoformat(sep=" "),
         "text": m.text} for m in msgs]}  # fmt: skip


@tool("write")
def booking_save_listing(
    ctx: ToolContext, *, listing_id: ListingId,
    wishlist: Annotated[
        str, Field(description="Wishlist name; it is created if you have none by that name.")
    ],
) -> dict[str, Any]:  # fmt: skip
    """Save a listing to one of your wishlists."""
    s = ctx.session
    saved = booking.save_listing(s, ctx.actor, booking.get_listing(s, listing_id), wishlist)
    return {"ok": True, "wishlist_id": saved.wishlist_id, "listing_id": listing_id}


@tool("write")
def booking_unsave_listing(
    ctx: ToolContext, *, listing_id: ListingId,
    wishlist: Annotated[str, Field(description="The wishlist's name.")],
) -> dict[str, Any]:  # fmt: skip
    """Remove a listing from one of your wishlists."""
    s = ctx.session
    booking.unsave_listing(s, ctx.actor, booking.get_listing(s, listing_id), wishlist)
    return {"ok": True}


@tool("read")
def booking_list_wishlists(ctx: ToolContext) -> dict[str, Any]:
    """Your wishlists and the listings saved in each."""
    s = ctx.session
    out = []
    for w in booking.wishlists(s, ctx.actor):
        items = [booking.get_listing(s, x.listing_id) for x in booking.saved_listings(s, w)]
        listed = [{"listing_id": x.id, "title": x.title, "city": x.city.label} for x in items]
        out.append({"name": w.name, "listings": listed})
    return {"wishlists": out}
