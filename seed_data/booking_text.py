"""Chat wordings about trips, in fixed forms the cross-app templates parse back."""

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


def dates(check_in: dt.date, check_out: dt.date) -> str:
    """'Mar 16 to Mar 19' (the form the templates parse back)."""
    return f"{check_in:%b} {check_in.day} to {check_out:%b} {check_out.day}"
