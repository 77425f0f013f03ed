"""Chat wordings about trips, in fixed forms the cross-app templates parse back, and the
phrase grammar of listing reviews (a review's second line, about that stay's host and
neighbourhood)."""

from __future__ import annotations

import datetime as dt

ANNOUNCEMENTS = (
    "Heads up: I'm in {city} {dates} for {purpose}. Staying in {hood}.",
    "Booked my trip to {city} for {purpose}, {dates}. Ping me if you need anything there.",
    "Travelling to {city} {dates} ({purpose}), so slower replies those days.",
)
REQUEST = (
    "Trip request: I need a place in {city} from {dates} for {purpose}. At least {bedrooms} "
    "bedroom(s), within the travel policy (${cap} a night). Could someone book the cheapest "
    "one that fits and confirm the place and dates here?"
)
APPROVAL_ASK = (
    'Hi {first}, for {purpose} in {city} ({dates}) the only good option is "{title}", '
    "which is over the travel policy cap. OK to book it?"
)
APPROVALS = (
    "Approved, go ahead and book it.",
    "Yes, approved. Book it.",
    "Fine by me, approved.",
)
QUESTION = "@{handle} when are you back from {city}?"
# A review's second line, by how the stay went; {host}, {hood}, {city} and {kind} are the
# listing's own (expanded by `seed_data.phrases`).
REVIEW_DETAILS = {
    "good": (
        "{host} left clear check-in notes and answered within the hour.",
        "{hood} was a great base: {nearby} a short walk away.",
        "Quiet at night even though {hood} is busy during the day.",
        "The {kind} was even nicer than the photos, and {host} had {extra}.",
        "Would book this {kind} again next time we are in {city}.",
    ),
    "mixed": (
        "{host} was friendly, but the wifi dropped a few times.",
        "{hood} is lively, so bring earplugs.",
        "Check-in took a while; {host} sorted it out by phone.",
        "The {kind} needs a deep clean, though {host} offered a discount.",
    ),
}
REVIEW_WORDS = {
    "nearby": ["cafes and a grocery store", "the metro", "good restaurants", "a park"],
    "extra": ["coffee and snacks waiting", "a printed guide to the area",
              "extra towels ready", "a late checkout for us"],
}  # fmt: skip


def dates(check_in: dt.date, check_out: dt.date) -> str:
    """'Mar 16 to Mar 19' (the form the templates parse back)."""
    return f"{check_in:%b} {check_in.day} to {check_out:%b} {check_out.day}"
