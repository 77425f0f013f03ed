"""Booking operations: the one module every caller (routes, tools, seeders, reference
solutions) imports. Functions take the session first and the acting person second,
never commit, and raise `officegym.errors` with a message an agent can act on.

Split by concept and re-exported here: `catalog` (cities, listings, search: read-only),
`calendar` (availability), `stays` (reservations, receipts, host messages), `flights`,
`wishlists`, `policy` (the travel policy and who sees a trip), `ical` (export); every
amount comes from `pricing`.
"""

from __future__ import annotations

from officegym.apps.booking.calendar import busy_nights, check_range, check_stay, require_free
from officegym.apps.booking.catalog import (
    SORTS,
    StayPage,
    StayResult,
    amenity_mask,
    amenity_names,
    cities,
    find_city,
    get_listing,
    listing_quote,
    post_review,
    retitle_listing,
    reviews,
    rule_names,
    rules_of,
    search_stays,
)
from officegym.apps.booking.flights import (
    FlightOption,
    arrival,
    book_flight,
    cancel_flight,
    change_flight,
    departure,
    find_flight_booking,
    flies_on,
    flight_payments,
    get_fare,
    list_flights,
    passengers,
    preview_flight_cancel,
    search_flights,
)
from officegym.apps.booking.ical import trips_ical
from officegym.apps.booking.policy import check_policy, nightly_cap, today
from officegym.apps.booking.pricing import night_rate
from officegym.apps.booking.stays import (
    book_stay,
    cancel_stay,
    change_stay,
    find_reservation,
    host_messages,
    host_reply,
    list_stays,
    message_host,
    payments,
    preview_cancel,
)
from officegym.apps.booking.wishlists import (
    find_wishlist,
    save_listing,
    saved_listings,
    unsave_listing,
    wishlists,
)

__all__ = [
    "SORTS",
    "FlightOption",
    "StayPage",
    "StayResult",
    "amenity_mask",
    "amenity_names",
    "arrival",
    "book_flight",
    "book_stay",
    "busy_nights",
    "cancel_flight",
    "cancel_stay",
    "change_flight",
    "change_stay",
    "check_policy",
    "check_range",
    "check_stay",
    "cities",
    "departure",
    "find_city",
    "find_flight_booking",
    "find_reservation",
    "find_wishlist",
    "flies_on",
    "flight_payments",
    "get_fare",
    "get_listing",
    "host_messages",
    "host_reply",
    "list_flights",
    "list_stays",
    "listing_quote",
    "message_host",
    "night_rate",
    "nightly_cap",
    "passengers",
    "payments",
    "post_review",
    "preview_cancel",
    "preview_flight_cancel",
    "require_free",
    "retitle_listing",
    "reviews",
    "rule_names",
    "rules_of",
    "save_listing",
    "saved_listings",
    "search_flights",
    "search_stays",
    "today",
    "trips_ical",
    "unsave_listing",
    "wishlists",
]
