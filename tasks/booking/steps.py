"""Step builders for the acts booking templates repeat: book a stay, change or cancel a
stay, move or cancel a flight, message a host, carry out a trip request from chat. Each
returns the act's reference calls, the checks of the state they leave (named and
weighted as the templates grade them) and its allowances, from values the template
computed; none draws from the rng."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from officegym.tasks.booking.chat import Trip
from officegym.tasks.booking.common import (
    allow_change,
    allow_flight_change,
    allow_new_stay,
    host_told,
)
from officegym.tasks.checks import Allow, FieldEquals, RowExists
from officegym.tasks.common import call, reply_step
from officegym.tasks.facts import Fact, choice
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step
from officegym.tools import ToolCall

__all__ = [
    "AMOUNT_FIELDS",
    "CANCEL_FIELDS",
    "book_stay",
    "book_trip",
    "cancel_flight",
    "cancel_stay",
    "change_stay",
    "message_host",
    "move_flight",
    "search_stays_call",
]

# what re-quoting a changed stay rewrites, beside the field the change is about
AMOUNT_FIELDS = frozenset({"accommodation", "discount", "cleaning_fee", "service_fee", "taxes",
                           "total", "over_policy", "approver_id"})  # fmt: skip
CANCEL_FIELDS = frozenset({"status", "refund", "cancelled_at"})
MOVE_FIELDS = frozenset({"flight_date", "price", "total", "changed_at", "route_id", "fare_id"})


def _iso(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


def search_stays_call(city: str, check_in: dt.date, check_out: dt.date, **more: Any) -> ToolCall:
    """The reference's stay search in `city` for the dates (and `more` filters)."""
    return call("booking_search_stays", city=city, check_in=_iso(check_in),
                check_out=_iso(check_out), **more)  # fmt: skip


def book_stay(
    booked_by: int,
    listing_id: int,
    check_in: dt.date,
    check_out: dt.date,
    *,
    name: str,
    where: Mapping[str, Any],
    guest: int | None = None,
    host: Says | None = None,
    **arguments: Any,
) -> Step:
    """Book `listing_id` for the dates (`arguments`: guests, traveller, approved_by,
    message): the check that a new reservation of it for those dates also matches
    `where`, and one new reservation by `booked_by` allowed (for `guest` only, if given)
    with its nights and charge. With `host`, the booking's message to the host must say
    what `host` asks, and that one message is allowed."""
    made = {"listing_id": listing_id, "check_in": check_in, "check_out": check_out, **where}
    checks: list[Any] = [RowExists(name=name, table="booking_reservation", where=made, new=True)]
    if host is not None:
        checks.append(host_told(listing_id, booked_by, host))
    return Step(
        calls=[
            call(
                "booking_book_stay",
                listing_id=listing_id,
                check_in=_iso(check_in),
                check_out=_iso(check_out),
                **arguments,
            )
        ],
        checks=checks,
        allowed=allow_new_stay(
            booked_by, guest=guest, messages=host is not None, nights=_nights(check_in, check_out)
        ),
    )


def _nights(check_in: dt.date, check_out: dt.date) -> int:
    return (check_out - check_in).days


def _equals(table: str, row_id: int, field: str, value: Any, name: str, weight: float = 1.0):
    return FieldEquals(
        name=name, table=table, row_id=row_id, field=field, value=value, weight=weight
    )


def change_stay(
    r: Any, field: str, value: Any, *, name: str, total: int | None = None, find: Sequence = ()
) -> Step:
    """Change one field of stay `r` (check-out day, guests) after the `find` look-ups: the
    check of its new value (and of the re-quoted `total`, half weight, when the goal asks
    for it) and the one update of the stay, its nights and its charge allowed."""
    checks = [_equals("booking_reservation", r.id, field, value, name)]
    days = {"check_in": r.check_in, "check_out": r.check_out, field: value}
    if total is not None:
        checks.append(_equals("booking_reservation", r.id, "total", total, "re-quoted total", 0.5))
    return Step(
        calls=[*find, call("booking_change_stay", code=r.code, **{field: _iso(value)})],
        checks=checks,
        allowed=allow_change(
            r.id,
            AMOUNT_FIELDS | {field},
            released=_nights(r.check_in, r.check_out),
            held=_nights(days["check_in"], days["check_out"]),
        ),
    )


def _cancel(
    table: str, row: Any, refund: int, refund_name: str, tool: str, allowed: list[Allow]
) -> Step:
    return Step(
        calls=[call("booking_preview_cancellation", code=row.code), call(tool, code=row.code)],
        checks=[
            _equals(table, row.id, "status", "cancelled", "cancelled"),
            _equals(table, row.id, "refund", refund, refund_name, 0.5),
        ],
        allowed=allowed,
    )


def cancel_stay(r: Any, refund: int) -> Step:
    """Preview, then cancel stay `r`: the checks that it is cancelled and refunded
    `refund` cents by its policy (half weight), and that one update allowed."""
    allowed = allow_change(r.id, CANCEL_FIELDS, released=_nights(r.check_in, r.check_out), held=0)
    return _cancel("booking_reservation", r, refund, "refund by the policy",
                   "booking_cancel_stay", allowed)  # fmt: skip


def cancel_flight(fb: Any, refund: int) -> Step:
    """Preview, then cancel flight booking `fb`: the checks that it is cancelled and
    refunded `refund` cents by its fare (half weight), and that one update allowed."""
    allowed = allow_flight_change(fb.id, CANCEL_FIELDS)
    return _cancel("booking_flight_booking", fb, refund, "refund by the fare",
                   "booking_cancel_flight", allowed)  # fmt: skip


def move_flight(fb: Any, day: dt.date, total: int) -> Step:
    """Move flight booking `fb` to `day` by its fare's rules: the checks of the new day
    and of the new `total` (half weight), and that one update allowed."""
    table = "booking_flight_booking"
    return Step(
        calls=[call("booking_change_flight", code=fb.code, date=day.isoformat())],
        checks=[
            _equals(table, fb.id, "flight_date", day, "moved"),
            _equals(table, fb.id, "total", total, "charged by the fare's rules", 0.5),
        ],
        allowed=allow_flight_change(fb.id, MOVE_FIELDS),
    )


def message_host(me_id: int, r: Any, text: str, says: Says) -> Step:
    """Message the host of stay `r` about it: the check that the messages say what `says`
    asks, and one message allowed."""
    where = {"listing_id": r.listing_id, "person_id": me_id}
    return Step(
        calls=[call("booking_message_host", listing_id=r.listing_id, code=r.code, text=text)],
        checks=[host_told(r.listing_id, me_id, says, r.id)],
        allowed=[Allow("booking_message", where=where, limit=1)],
    )


def book_trip(
    t: Trip, me: Any, who: Any, *, name: str, confirmed: str, for_guest: bool = False
) -> Step:
    """Carry out trip request `t` of `who`: search, book its place in their name (`name`:
    the booking's check; `for_guest`: the allowance names the traveller) and reply in the
    request's thread with the place and its dates (`confirmed`: that check)."""
    says = Says(facts=[choice(t.best.title, t.titles), Fact("date", (t.check_in, t.check_out))],
                act="confirm")  # fmt: skip
    text = f"Booked {t.best.title} for you, {t.check_in:%B %-d} to {t.check_out:%B %-d}."
    search = search_stays_call(t.city.slug, t.check_in, t.check_out, bedrooms=t.bedrooms,
                               max_price=t.cap // 100, sort="total_price", limit=5)  # fmt: skip
    booked = book_stay(
        me.id,
        t.best.id,
        t.check_in,
        t.check_out,
        name=name,
        where={"guest_id": who.id, "booked_by_id": me.id},
        guest=who.id if for_guest else None,
        traveller=who.handle,
    )
    reply = reply_step(me, t.post.channel_id, t.post.message_id, text, says, name=confirmed)
    return Step(calls=[search]) + booked + reply
