"""Browser reference steps of the booking site: each booking tool call as actions on its
pages, by the pages' stable element ids. A write fills and submits the page's form (the
listing page's checkout, a trip's change form, a fare's book form; a cancel confirms on
its own page); a read opens the page that shows the same facts (a search narrowed by
every filter the call gives, as URL parameters; a listing with the dates; a trip with its
receipt). `world` is a read-only session on the task's initial world, used only to look
references up through the service (a city's id, a fare's route, a wishlist's id).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlencode

from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.browser_steps import act, goto
from officegym.apps.org.models import Person

__all__ = ["STEPS"]

Args = Mapping[str, Any]
Make = Callable[[Args, Session, Person], list[str]]
PAGE = 20
# search_stays arguments -> the search page's URL parameters
SEARCH_PARAMS = {"check_in": "check_in", "check_out": "check_out", "guests": "guests",
                 "min_price": "min_price", "max_price": "max_price", "bedrooms": "bedrooms",
                 "beds": "beds", "property_type": "type", "min_rating": "rating",
                 "sort": "sort"}  # fmt: skip


def _url(path: str, params: Mapping[str, Any]) -> str:
    given = {k: v for k, v in params.items() if v not in (None, "", [])}
    return act("goto", f"{path}?{urlencode(given, doseq=True)}" if given else path)


def _search(a: Args, w: Session, me: Person) -> list[str]:
    params: dict[str, Any] = {"city": booking.find_city(w, a["city"]).slug}
    params |= {url: a[arg] for arg, url in SEARCH_PARAMS.items() if a.get(arg) is not None}
    params["amenity"] = list(a.get("amenities") or [])
    params["instant"] = 1 if a.get("instant_book") else None
    params["page"] = int(a.get("offset", 0)) // PAGE + 1 if a.get("offset") else None
    return [_url("/booking/", params)]


def _listing(a: Args, w: Session, me: Person) -> list[str]:
    params = {"check_in": a.get("check_in"), "check_out": a.get("check_out"),
              "guests": a.get("guests")}  # fmt: skip
    return [_url(f"/booking/listings/{int(a['listing_id'])}", params)]


def _availability(a: Args, w: Session, me: Person) -> list[str]:
    return [_url(f"/booking/listings/{int(a['listing_id'])}", {"check_in": a["start"]})]


def _fill(pairs: list[tuple[str, Any]]) -> list[str]:
    return [act("fill", bid, str(v)) for bid, v in pairs if v not in (None, "")]


def _book(a: Args, w: Session, me: Person) -> list[str]:
    return [*_listing(a, w, me), *_fill([
        ("book-traveller", a.get("traveller")), ("book-approved-by", a.get("approved_by")),
        ("book-purpose", a.get("purpose")), ("book-message", a.get("message")),
    ]), act("click", "book-submit")]  # fmt: skip


def _trip_page(code: str) -> str:
    code = str(code).strip().upper()
    return f"/booking/trips/{code}" if code.startswith("HM") else f"/booking/flight-trips/{code}"


def _change(a: Args, w: Session, me: Person) -> list[str]:
    return [goto(_trip_page(a["code"])), *_fill([
        ("change-check-in", a.get("check_in")), ("change-check-out", a.get("check_out")),
        ("change-guests", a.get("guests")), ("change-approved-by", a.get("approved_by")),
    ]), act("click", "change-submit")]  # fmt: skip


def _cancel(a: Args, w: Session, me: Person) -> list[str]:
    return [
        goto(_trip_page(a["code"])),
        act("click", "cancel-submit"),
        act("click", "cancel-confirm"),
    ]


def _message(a: Args, w: Session, me: Person) -> list[str]:
    if a.get("code"):
        return [goto(_trip_page(a["code"])), act("fill", "trip-message-text", a["text"]),
                act("click", "trip-message-send")]  # fmt: skip
    page = goto(f"/booking/listings/{int(a['listing_id'])}")
    return [page, act("fill", "host-message-text", a["text"]), act("click", "host-message-send")]


def _save(a: Args, w: Session, me: Person) -> list[str]:
    return [goto(f"/booking/listings/{int(a['listing_id'])}"),
            act("fill", "save-wishlist", a["wishlist"]), act("click", "save-submit")]  # fmt: skip


def _unsave(a: Args, w: Session, me: Person) -> list[str]:
    found = booking.find_wishlist(w, me, a["wishlist"])
    if found is None:
        raise KeyError("the wishlist is made in the episode; its id is not known ahead")
    bid = f"wishlist-{found.id}-remove-{int(a['listing_id'])}"
    return [goto("/booking/wishlists"), act("click", bid)]


def _flights(a: Args, w: Session, me: Person) -> list[str]:
    params = {"origin": booking.find_city(w, a["origin"]).slug,
              "destination": booking.find_city(w, a["destination"]).slug,
              "date": a["date"], "cabin": a.get("cabin")}  # fmt: skip
    return [_url("/booking/flights", params)]


def _book_flight(a: Args, w: Session, me: Person) -> list[str]:
    fare = booking.get_fare(w, int(a["fare_id"]))
    route = fare.route
    search = {"origin": route.origin.slug, "destination": route.destination.slug,
              "date": a["date"]}  # fmt: skip
    people = ", ".join(str(t).lstrip("@") for t in a.get("travellers") or [])
    return [_url("/booking/flights", search), *_fill([
        (f"fare-{fare.id}-travellers", people), (f"fare-{fare.id}-purpose", a.get("purpose")),
    ]), act("click", f"fare-{fare.id}-book")]  # fmt: skip


def _change_flight(a: Args, w: Session, me: Person) -> list[str]:
    return [goto(_trip_page(a["code"])), *_fill([
        ("flight-change-date", a["date"]), ("flight-change-flight", a.get("flight")),
    ]), act("click", "flight-change-submit")]  # fmt: skip


def _cancel_flight(a: Args, w: Session, me: Person) -> list[str]:
    return [goto(_trip_page(a["code"])), act("click", "flight-cancel-submit"),
            act("click", "flight-cancel-confirm")]  # fmt: skip


def _page(path: str) -> Make:
    return lambda a, w, me: [goto(path)]


STEPS: dict[str, Make] = {
    "booking_search_stays": _search,
    "booking_get_listing": _listing,
    "booking_quote_stay": _listing,
    "booking_check_availability": _availability,
    "booking_book_stay": _book,
    "booking_change_stay": _change,
    "booking_cancel_stay": _cancel,
    "booking_message_host": _message,
    "booking_read_host_messages": _listing,
    "booking_save_listing": _save,
    "booking_unsave_listing": _unsave,
    "booking_list_wishlists": _page("/booking/wishlists"),
    "booking_search_flights": _flights,
    "booking_get_fare_rules": lambda a, w, me: [goto(f"/booking/fares/{int(a['fare_id'])}")],
    "booking_book_flight": _book_flight,
    "booking_change_flight": _change_flight,
    "booking_cancel_flight": _cancel_flight,
    "booking_list_trips": _page("/booking/trips"),
    "booking_get_trip": lambda a, w, me: [goto(_trip_page(a["code"]))],
    "booking_preview_cancellation": lambda a, w, me: [goto(_trip_page(a["code"]))],
    "booking_get_travel_policy": _page("/booking/policy"),
    "booking_export_ical": _page("/booking/trips"),
    "booking_list_cities": _page("/booking/"),
}
