"""Booking tools, part two: flights (search, fare rules, book, change, cancel), your
trips (list, details with receipts, cancellation previews), the travel policy, the
calendar export and the site's cities."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from officegym.apps.booking import pricing
from officegym.apps.booking import service as booking
from officegym.apps.booking import shapes as V
from officegym.apps.org.service import profile
from officegym.errors import NotFound
from officegym.tools import Ref, ToolContext, tool

Place = Annotated[
    str, Field(description="City name ('Chicago', 'Portland, Oregon'), id or airport code.")
]
Day = Annotated[dt.date, Field(description="Date of the flight, YYYY-MM-DD.")]
FlightCode = Annotated[
    str,
    Field(description="The flight booking's 6-character record locator."),
    Ref("booking_flight_booking", ("code",)),
]
TripCode = Annotated[
    str,
    Field(description="A stay's confirmation code (HM...) or a flight's 6-character record "
          "locator."),
]  # fmt: skip


@tool("read")
def booking_search_flights(
    ctx: ToolContext,
    *,
    origin: Place,
    destination: Place,
    date: Day,
    cabin: Annotated[
        Literal["economy", "business"] | None, Field(description="Only this cabin.")
    ] = None,
) -> dict[str, Any]:
    """Flights between two cities on a date, by departure time, each with its fares
    (brand, price per traveller today, refundability, change fee, bags)."""
    options = booking.search_flights(ctx.session, origin=origin, destination=destination,
                                     date=date, cabin=cabin)  # fmt: skip
    flights = [
        {**V.flight_view(o.route, o.date), "fares": [V.fare_view(f, p) for f, p in o.fares]}
        for o in options
    ]
    return {"flights": flights}


@tool("read")
def booking_get_fare_rules(
    ctx: ToolContext,
    *,
    fare_id: Annotated[
        int, Field(description="The fare's id, as flight search shows it."), Ref("booking_fare")
    ],
) -> dict[str, Any]:
    """A fare's rules: cabin, brand, refundable or not, change fee (or no changes), bags."""
    fare = booking.get_fare(ctx.session, fare_id)
    return {**V.fare_view(fare), "flight": fare.route.number}


@tool("write")
def booking_book_flight(
    ctx: ToolContext,
    *,
    fare_id: Annotated[
        int, Field(description="The fare to buy, from booking_search_flights."), Ref("booking_fare")
    ],
    date: Day,
    travellers: Annotated[
        list[Annotated[str, Ref("org_person", ("handle", "email", "name"))]],
        Field(description="Handles of everyone flying (default: just you)."),
    ] = [],  # noqa: B006
    purpose: Annotated[str, Field(description="What the trip is for.")] = "",
) -> dict[str, Any]:
    """Book seats on a flight at a fare for one or more travellers (charged at once)."""
    s = ctx.session
    fb = booking.book_flight(s, ctx.actor, booking.get_fare(s, fare_id), date=date,
                             travellers=travellers or None, purpose=purpose)  # fmt: skip
    return {"ok": True, "booking": V.flight_booking_view(s, fb, receipt=True)}


@tool("write")
def booking_change_flight(
    ctx: ToolContext,
    *,
    code: FlightCode,
    date: Annotated[dt.date, Field(description="The new date, YYYY-MM-DD.")],
    flight: Annotated[
        str | None,
        Field(description="Another flight number on the same route (default: the same flight)."),
    ] = None,
) -> dict[str, Any]:
    """Move a flight booking to another date (or flight on the same route) at the same
    fare: you pay the fare's change fee plus any rise in price. Fares that allow no
    changes (Basic Economy) are refused, with the rule."""
    s = ctx.session
    fb = booking.find_flight_booking(s, ctx.actor, code)
    fb, change = booking.change_flight(s, ctx.actor, fb, date=date, flight=flight)
    return {"ok": True, "change_fee": V.money(change.fee),
            "fare_difference": V.money(change.difference), "charged": V.money(change.due),
            "booking": V.flight_booking_view(s, fb, receipt=True)}  # fmt: skip


@tool("write")
def booking_cancel_flight(
    ctx: ToolContext,
    *,
    code: FlightCode,
) -> dict[str, Any]:
    """Cancel a flight booking; the refund follows the fare's rules."""
    s = ctx.session
    fb = booking.cancel_flight(s, ctx.actor, booking.find_flight_booking(s, ctx.actor, code))
    return {"ok": True, "refund": V.money(fb.refund), "booking": V.flight_booking_view(s, fb)}


@tool("read")
def booking_list_trips(
    ctx: ToolContext,
    *,
    include_past: Annotated[bool, Field(description="Also trips that are over.")] = False,
    include_cancelled: Annotated[bool, Field(description="Also cancelled ones.")] = False,
) -> dict[str, Any]:
    """Your stays and flights (as traveller or booker), by date."""
    s, me = ctx.session, ctx.actor
    today = booking.today(s)
    stays = [V.reservation_view(s, r) for r in booking.list_stays(s, me)
             if (include_past or r.check_out >= today)
             and (include_cancelled or r.status != "cancelled")]  # fmt: skip
    flights = [V.flight_booking_view(s, f) for f in booking.list_flights(s, me)
               if (include_past or f.flight_date >= today)
               and (include_cancelled or f.status != "cancelled")]  # fmt: skip
    return {"today": today.isoformat(), "stays": stays, "flights": flights}


def find_trip(ctx: ToolContext, code: str) -> tuple[str, Any]:
    """('stay', reservation) or ('flight', booking) for a code of the actor's."""
    try:
        return "stay", booking.find_reservation(ctx.session, ctx.actor, code)
    except NotFound:
        return "flight", booking.find_flight_booking(ctx.session, ctx.actor, code)


@tool("read")
def booking_get_trip(ctx: ToolContext, *, code: TripCode) -> dict[str, Any]:
    """A stay or flight booking of yours with its receipt (amounts, charges, refunds)."""
    s = ctx.session
    kind, trip = find_trip(ctx, code)
    if kind == "stay":
        return V.reservation_view(s, trip, receipt=True)
    return V.flight_booking_view(s, trip, receipt=True)


@tool("read")
def booking_preview_cancellation(ctx: ToolContext, *, code: TripCode) -> dict[str, Any]:
    """What cancelling a stay or flight booking today would refund, and the rule that
    gives it, without cancelling anything."""
    s = ctx.session
    kind, trip = find_trip(ctx, code)
    if kind == "stay":
        refund = booking.preview_cancel(s, ctx.actor, trip)
    else:
        refund = booking.preview_flight_cancel(s, trip)
    return {"code": trip.code, "paid": V.money(trip.total), "refund": V.money(refund.amount),
            "rule": refund.rule}  # fmt: skip


@tool("read")
def booking_get_travel_policy(
    ctx: ToolContext,
    *,
    city: Annotated[
        str | None, Field(description="A city, for its cap (default: every cap).")
    ] = None,
) -> dict[str, Any]:
    """The company's travel policy: the cap on a stay's average nightly rate per city,
    and who approves stays over it (your manager)."""
    s = ctx.session
    manager = profile(s, ctx.actor_id).manager
    out: dict[str, Any] = {
        "rule": "A stay whose average nightly rate (after discounts, before fees and taxes) "
        "is over the city's cap is held, uncharged, until the traveller's manager approves "
        "it: booking it sends them the approval request by DM.",
        "managers_approve": f"stays at most {booking.MARGIN:.0%} over the cap, or with a "
        "business purpose stated when booking; they decline the rest.",
        "your_manager": manager,
    }
    places = [booking.find_city(s, city)] if city else booking.cities(s)
    out["caps"] = [{"city": c.label, "nightly_cap": pricing.money(booking.nightly_cap(s, c))}
                   for c in places]  # fmt: skip
    return out


@tool("read")
def booking_export_ical(ctx: ToolContext) -> dict[str, Any]:
    """Your trips (stays and flights) as an iCalendar (.ics) file's text."""
    stamp = ctx.session.info["clock"].peek()
    return {
        "filename": "trips.ics",
        "ics": booking.trips_ical(ctx.session, ctx.actor, stamp).decode(),
    }


@tool("read")
def booking_list_cities(ctx: ToolContext) -> dict[str, Any]:
    """Every city on the site (several share a name: use the id to be exact)."""
    return {"cities": [V.city_view(c) for c in booking.cities(ctx.session)]}
