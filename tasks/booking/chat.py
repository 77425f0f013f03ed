"""The chat about trips that the seeded world contains (`seed_data/booking_trips.py`, in
the wordings of `seed_data/booking_text.py`): trip requests and questions in #travel and
over-policy approvals by DM, parsed once per world for the cross-app templates, and the
trip a request asks for (`trip_of`)."""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.slack.models import Channel, Message
from officegym.tasks.booking.common import booking_index

__all__ = ["Trip", "TripPost", "trip_of", "trip_posts"]

PATTERNS = {
    "request": re.compile(
        r"^Trip request: I need a place in (?P<city>.+?) from (?P<dates>\w+ \d+ to \w+ \d+) "
        r"for (?P<purpose>.+?)\. At least (?P<bedrooms>\d+) bedroom"
    ),
    "question": re.compile(r"^@(?P<handle>[\w.-]+) when are you back from (?P<city>.+)\?$"),
    "approval": re.compile(
        r"^Hi (?P<first>\S+), for (?P<purpose>.+) in (?P<city>.+?) \((?P<dates>\w+ \d+ to "
        r'\w+ \d+)\) the only good option is "(?P<title>.+)", which is over'
    ),
}


@dataclass(frozen=True)
class TripPost:
    """One message about a trip: who posted it, where, what it says."""

    message_id: int
    channel_id: int
    channel: str | None
    author_id: int
    fields: dict[str, str]
    reply_id: int | None = None  # the next message in the same DM (an approval's answer)

    def dates(self, today: dt.date) -> tuple[dt.date, dt.date]:
        """The 'Mar 16 to Mar 19' of the post as dates on or after today."""
        return _day(self.fields["dates"].split(" to ")[0], today), _day(
            self.fields["dates"].split(" to ")[1], today
        )


def _day(text: str, today: dt.date) -> dt.date:
    day = dt.datetime.strptime(f"{text} {today.year}", "%b %d %Y").date()
    return day if day >= today else day.replace(year=today.year + 1)


def trip_posts(w: Session, kind: str) -> list[TripPost]:
    return _posts(w.get_bind())[kind]


@functools.lru_cache(maxsize=8)
def _posts(engine: Engine) -> dict[str, list[TripPost]]:
    out: dict[str, list[TripPost]] = {k: [] for k in PATTERNS}
    with Session(engine) as w:
        booking_index(w)  # the world must be dated
        rows = w.execute(
            select(Message.id, Message.channel_id, Channel.name, Message.user_id, Message.text)
            .join(Channel, Channel.id == Message.channel_id)
            .where(Message.thread_parent_id.is_(None), Message.is_deleted.is_(False))
            .order_by(Message.id)
        ).all()
    later: dict[int, list] = {}
    for r in rows:
        later.setdefault(r.channel_id, []).append(r)
    for r in rows:
        for kind, pattern in PATTERNS.items():
            found = pattern.match(r.text)
            if found:
                nxt = [x for x in later[r.channel_id] if x.id > r.id and x.user_id != r.user_id]
                reply = nxt[0].id if nxt and kind == "approval" else None
                out[kind].append(TripPost(r.id, r.channel_id, r[2], r.user_id,
                                          found.groupdict(), reply))  # fmt: skip
    return out


@dataclass(frozen=True)
class Trip:
    """A trip request with one cheapest fitting place within the policy cap."""

    post: TripPost
    city: Any
    check_in: dt.date
    check_out: dt.date
    bedrooms: int
    cap: int  # cents a night
    best: Any  # the listing to book
    titles: tuple[str, ...]  # every fitting place's title (the rivals of the reply)


def trip_of(w: Session, req: TripPost) -> Trip | None:
    """The trip `req` asks for: its city, dates and bedrooms, and the cheapest place that
    fits them within the nightly cap (None unless exactly one place is cheapest)."""
    ci, co = req.dates(booking_index(w).today)
    city = booking.find_city(w, req.fields["city"])
    bedrooms = int(req.fields["bedrooms"])
    cap = booking.nightly_cap(w, city)
    found = booking.search_stays(w, city=city.slug, check_in=ci, check_out=co,
                                 bedrooms=bedrooms, max_price=cap, sort="total_price",
                                 limit=10).results  # fmt: skip
    if len(found) < 2 or found[0].quote.total >= found[1].quote.total:  # type: ignore[union-attr]
        return None
    titles = tuple(sorted({r.listing.title for r in found}))
    return Trip(req, city, ci, co, bedrooms, cap, found[0].listing, titles)
