"""Chat wordings about trips, in fixed forms the cross-app templates parse back, and the
phrase grammars of listing reviews (a review's second line, about that stay's host and
neighbourhood) and of listing descriptions (the place, its neighbourhood, what it has)."""

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
# A review's first line, by how the stay went: what kind of stay it was and how it felt
# (the listing's {kind}, {hood}, {city} and {host}, and {has}, one of its amenities).
REVIEW_OPENINGS = {
    "good": (
        "{praise} {stay} {context}.",
        "{host}'s {kind} was {fine} for {purpose}.",
        "We spent {nights} in {hood} for {purpose} and it was {fine}.",
        "{praise} {kind}, and {has} made {purpose} easy.",
        "Everything about this {kind} in {hood} was {fine}.",
    ),
    "mixed": (
        "{ok} {stay} {context}, with a few {issues}.",
        "The {kind} was {okay} for {purpose}, but {snag}.",
        "{nights} in {hood}: {okay} overall, though {snag}.",
    ),
}
REVIEW_WORDS = {
    "praise": ["Lovely", "Terrific", "Wonderful", "Really comfortable", "Spotless", "Excellent",
               "Perfect", "Very pleasant", "Cosy", "Fantastic", "Bright, quiet"],
    "stay": ["stay", "few nights", "week", "weekend", "base", "little place"],
    "context": ["for a work trip to {city}", "in {hood}", "at {host}'s {kind}",
                "for visiting relatives", "for a conference in {city}", "with colleagues",
                "close to everything in {hood}", "on our first visit to {city}"],
    "fine": ["just right", "spotless", "a real find", "better than expected", "ideal",
             "comfortable from start to finish", "exactly as described"],
    "purpose": ["a work trip", "a client visit", "a long weekend", "a conference",
                "a team offsite", "visiting family", "a short city break"],
    "nights": ["Two nights", "Three nights", "A week", "Four nights", "Five nights"],
    "ok": ["Decent", "Okay", "Reasonable", "Acceptable", "Fair"],
    "okay": ["fine", "adequate", "good enough", "all right"],
    "issues": ["rough edges", "small problems", "things to fix", "noisy nights"],
    "snag": ["the street was loud at night", "the check-in instructions were confusing",
             "it was smaller than it looks", "the shower pressure was weak",
             "the heating took a while", "the beds were on the soft side"],

    "nearby": ["cafes and a grocery store", "the metro", "good restaurants", "a park"],
    "extra": ["coffee and snacks waiting", "a printed guide to the area",
              "extra towels ready", "a late checkout for us"],
}  # fmt: skip


# A listing's description: an opening about the place, one about the neighbourhood, one
# about what it has, and a closing; {kind}, {hood}, {city}, {rooms}, {guests}, {has} and
# {host} are the listing's own.
DESCRIPTION = ("{opening} {area} {inside} {closing}",)
DESCRIPTION_WORDS = {
    "opening": [
        "A {light} {kind} with {rooms}, for up to {guests}.",
        "Our {kind} in {hood} has {rooms} and room for {guests}.",
        "Recently updated, this {light} {kind} has {rooms} and sleeps {guests}.",
    ],
    "light": ["bright", "quiet", "sunny", "comfortable", "spacious"],
    "area": [
        "{hood} is one of {city}'s {vibe} neighbourhoods, with {nearby} nearby.",
        "You are a short walk from {nearby}, in the heart of {hood}.",
        "{hood} is {mood} in the evening, with {nearby} a few minutes away.",
    ],
    "vibe": ["liveliest", "calmest", "most walkable", "friendliest"],
    "mood": ["lively", "calm", "quiet", "busy"],
    "nearby": ["cafes and a grocery store", "the metro", "good restaurants", "a park",
               "the river", "a weekend market"],
    "inside": [
        "Guests have {has}.",
        "The place comes with {has}.",
        "Expect {has}, and fresh linens for every stay.",
    ],
    "closing": [
        "{host} is happy to share tips on {city}.",
        "Business travellers like the {kind} for longer stays.",
        "Check-in details arrive the day before you do.",
        "We look forward to hosting you in {city}.",
    ],
}  # fmt: skip
AMENITY_PHRASES = {
    "wifi": "fast wifi",
    "kitchen": "a full kitchen",
    "washer": "a washer",
    "dryer": "a dryer",
    "tv": "a TV",
    "workspace": "a desk to work at",
    "pool": "a pool",
    "hot tub": "a hot tub",
    "gym": "a gym",
    "ev charger": "an EV charger",
    "crib": "a crib",
    "elevator": "an elevator",
    "pets allowed": "room for pets",
}  # fmt: skip (the others read as they are named)


# The host's message after a booking: a greeting, check-in, and a tip about the area.
HOST_WELCOME = ("{greeting} {checkin} {tip}",)
HOST_WORDS = {
    "greeting": [
        "Hi {guest}, thanks for booking with us!",
        "Hello {guest}, we're happy to host you in {city}.",
        "Hi {guest}, your stay is confirmed and we look forward to it.",
    ],
    "checkin": [
        "Check-in is from {hour}; I'll send the door code the day before.",
        "You can check in any time after {hour} with the lockbox by the door.",
        "Check-in starts at {hour}, and checkout is at 11:00.",
    ],
    "hour": ["14:00", "15:00", "16:00"],
    "tip": [
        "Let me know if you need a desk set up for work.",
        "{hood} has {nearby} close by.",
        "Message me here if your arrival time changes.",
    ],
    "nearby": ["great coffee", "a grocery store", "good restaurants", "the metro"],
}  # fmt: skip


def dates(check_in: dt.date, check_out: dt.date) -> str:
    """'Mar 16 to Mar 19' (the form the templates parse back)."""
    return f"{check_in:%b} {check_in.day} to {check_out:%b} {check_out.day}"
