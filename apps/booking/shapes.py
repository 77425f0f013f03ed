"""Booking records as plain dicts, the shape tools return (amounts as $ text)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.booking import pricing
from officegym.apps.booking import service as booking
from officegym.apps.booking.models import City, Fare, FlightBooking, Listing, Reservation
from officegym.apps.org.service import profile

money = pricing.money


def city_view(c: City) -> dict[str, Any]:
    return {"city": c.label, "country": c.country, "id": c.slug, "airport": c.airport}


def listing_summary(row: Any, q: pricing.Quote | None, city: City) -> dict[str, Any]:
    """A search result: what a result card shows."""
    out = {
        "listing_id": row.id, "title": row.title, "city": city.label,
        "neighbourhood": row.neighbourhood, "type": row.property_type,
        "bedrooms": row.bedrooms, "beds": row.beds, "baths": row.baths,
        "max_guests": row.max_guests, "rating": row.rating, "reviews": row.review_count,
        "instant_book": row.instant_book, "nightly_rate": money(row.nightly),
        "weekend_rate": money(row.weekend),
    }  # fmt: skip
    if q is not None:
        out |= {"average_nightly": money(q.average_nightly), "total": money(q.total)}
    return out


def quote_view(q: pricing.Quote) -> dict[str, Any]:
    return {
        "check_in": q.check_in.isoformat(),
        "check_out": q.check_out.isoformat(),
        "nights": len(q.nights),
        "lines": [{"item": what, "amount": money(amount)} for what, amount in q.lines()],
        "average_nightly": money(q.average_nightly),
        "total": money(q.total),
    }


def listing_detail(s: Session, listing: Listing) -> dict[str, Any]:
    """A listing page's facts: rooms, amenities, rules, rates, policy, host, reviews."""
    host = listing.host
    out = listing_summary(listing, None, listing.city)
    out |= {
        "description": listing.description,
        "property_type": listing.property_type,
        "amenities": booking.amenity_names(listing.amenities),
        "house_rules": booking.rule_names(listing.rules),
        "minimum_nights": listing.min_nights, "maximum_nights": listing.max_nights,
        "cleaning_fee": money(listing.cleaning_fee),
        "weekly_discount": f"{listing.weekly_discount}%",
        "monthly_discount": f"{listing.monthly_discount}%",
        "cancellation_policy": listing.policy,
        "seasonal_rates": [
            {"season": r.label, "from": r.start.isoformat(), "until": r.end.isoformat(),
             "nightly_rate": money(r.nightly), "weekend_rate": money(r.weekend)}
            for r in booking.rules_of(s, listing.id)
        ],
        "host": {"name": host.name, "superhost": host.superhost, "since": host.since},
        "recent_reviews": [{"author": r.author, "stars": r.stars, "text": r.text,
                            "date": r.written_on.isoformat()}
                           for r in booking.reviews(s, listing.id, 5)],
    }  # fmt: skip
    return out


def reservation_view(s: Session, r: Reservation, *, receipt: bool = False) -> dict[str, Any]:
    listing = r.listing
    out = {
        "code": r.code, "kind": "stay", "status": r.status, "listing_id": listing.id,
        "listing": listing.title, "city": listing.city.label,
        "check_in": r.check_in.isoformat(), "check_out": r.check_out.isoformat(),
        "nights": r.nights, "guests": r.guests,
        "traveller": profile(s, r.guest_id).handle, "booked_by": profile(s, r.booked_by_id).handle,
        "total": money(r.total), "cancellation_policy": r.policy,
    }  # fmt: skip
    if r.purpose:
        out["purpose"] = r.purpose
    if r.refund is not None:
        out["refund"] = money(r.refund)
    if r.over_policy:
        approver = profile(s, r.approver_id).handle if r.approver_id else None
        out["over_policy"] = {"approved_by": approver}
        if r.status == "pending":
            out["over_policy"]["awaiting"] = profile(s, r.guest_id).manager
    if receipt:
        out["receipt"] = _receipt_lines(r) + _payments(booking.payments(s, r))
    return out


def _receipt_lines(r: Reservation) -> list[dict[str, str]]:
    lines = [("Nights", r.accommodation), ("Discount", -r.discount),
             ("Cleaning fee", r.cleaning_fee), ("Service fee", r.service_fee),
             ("Taxes", r.taxes), ("Total", r.total)]  # fmt: skip
    return [{"item": k, "amount": money(v)} for k, v in lines if v or k != "Discount"]


def _payments(rows: list[Any]) -> list[dict[str, str]]:
    return [{"item": f"{p.kind.capitalize()} {p.created_at:%Y-%m-%d}: {p.memo}",
             "amount": money(p.amount if p.kind == "charge" else -p.amount)}
            for p in rows]  # fmt: skip


def fare_view(fare: Fare, price: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "fare_id": fare.id, "cabin": fare.cabin, "brand": fare.brand,
        "refundable": fare.refundable,
        "change_fee": None if fare.change_fee is None else money(fare.change_fee),
        "checked_bags": fare.bags, "rules": pricing.fare_rules(fare),
    }  # fmt: skip
    if price is not None:
        out["price_per_traveller"] = money(price)
    return out


def flight_view(route: Any, day: Any) -> dict[str, Any]:
    departs = booking.departure(route, day)
    hours, minutes = divmod(route.minutes, 60)
    return {"flight": route.number, "airline": route.airline,
            "from": f"{route.origin.label} ({route.origin.airport})",
            "to": f"{route.destination.label} ({route.destination.airport})",
            "date": day.isoformat(), "departs": departs.strftime("%H:%M"),
            "duration": f"{hours}h {minutes:02d}m"}  # fmt: skip


def flight_booking_view(s: Session, fb: FlightBooking, *, receipt: bool = False) -> dict:
    out = {"code": fb.code, "kind": "flight", "status": fb.status,
           **flight_view(fb.route, fb.flight_date), "fare": fare_view(fb.fare),
           "travellers": [profile(s, p).handle for p in booking.passengers(s, fb)],
           "price_per_traveller": money(fb.price), "total": money(fb.total)}  # fmt: skip
    if fb.purpose:
        out["purpose"] = fb.purpose
    if fb.refund is not None:
        out["refund"] = money(fb.refund)
    if receipt:
        out["receipt"] = _payments(booking.flight_payments(s, fb))
    return out
