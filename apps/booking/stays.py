"""Reservations of stays: book (instantly or by request), change dates or guests
(re-quoted), cancel with the refund the listing's policy gives, receipts, and messages
with hosts. A reservation's nights are held in `booking_night`, unique per listing, so a
race between two sessions ends with one booking and a Conflict, never two bookings."""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools

from sqlalchemy import bindparam, delete, insert, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from officegym.apps.booking import approvals, calendar, catalog, pricing
from officegym.apps.booking.models import (
    BookedNight,
    FlightBooking,
    HostMessage,
    Listing,
    Payment,
    Reservation,
)
from officegym.apps.booking.policy import check_policy, require_traveller, today
from officegym.apps.org.models import Person
from officegym.apps.org.service import find_person
from officegym.clock import now
from officegym.db import get
from officegym.errors import Conflict, Forbidden, Invalid, NotFound
from officegym.writes import insert_row, update_if

__all__ = [
    "book_stay",
    "cancel_stay",
    "change_stay",
    "find_reservation",
    "host_messages",
    "host_reply",
    "list_stays",
    "message_host",
    "payments",
    "preview_cancel",
]

MAX_MESSAGE = 2000
_BY_CODE = select(Reservation).where(Reservation.code == bindparam("c"))


def new_code(
    s: Session, model: type[Reservation | FlightBooking], prefix: str, *parts: object, size: int = 8
) -> str:
    """A confirmation code derived from what is booked (deterministic per world), unique
    among `model`'s codes: the same booking made twice at one instant gets another code,
    as a real site never hands out one code twice."""
    for n in itertools.count():
        salted = (*parts, n) if n else parts
        digest = hashlib.sha256("|".join(map(str, salted)).encode()).hexdigest().upper()
        code = prefix + "".join(ch for ch in digest if ch not in "01")[:size]
        if s.scalar(select(model.id).where(model.code == code)) is None:
            return code
    raise AssertionError("unreachable")


def find_reservation(s: Session, actor: Person, ref: str | int) -> Reservation:
    """A reservation of the actor's (as guest or booker) by confirmation code or id."""
    key = str(ref).strip().upper()
    found = s.scalars(_BY_CODE, {"c": key}).first()
    if found is None and key.isdecimal():
        found = get(s, Reservation, int(key))
    if found is None:
        raise NotFound(f"no reservation {ref!r}", code="trip_not_found")
    require_traveller(actor, found.guest_id, found.booked_by_id, f"reservation {ref!r}")
    return found


def book_stay(
    s: Session,
    actor: Person,
    listing: Listing,
    *,
    check_in: dt.date,
    check_out: dt.date,
    guests: int,
    guest: str | None = None,
    purpose: str = "",
    message: str | None = None,
) -> Reservation:
    """Book a stay for the actor (or the `guest` named): confirmed at once for instant-book
    listings (and charged), a request to the host otherwise. A stay over the travel
    policy cap is held, uncharged, as ``pending`` until the traveller's manager decides
    (`approvals`); a manager booking for their own report approves it by booking."""
    traveller = find_person(s, guest) if guest else actor
    calendar.check_stay(listing, check_in, check_out, guests, today(s))
    q = catalog.listing_quote(s, listing, check_in, check_out)
    checked = check_policy(s, traveller, listing.city, q)
    calendar.require_free(s, listing, check_in, check_out)
    at = now(s)
    held = checked.needs_approval and checked.manager != actor
    status = "pending" if held else "confirmed" if listing.instant_book else "requested"
    approver = actor if checked.needs_approval and not held else None
    r = insert_row(
        s, Reservation, code=new_code(s, Reservation, "HM", listing.id, check_in, traveller.id, at),
        listing_id=listing.id, guest_id=traveller.id, booked_by_id=actor.id, check_in=check_in,
        check_out=check_out, guests=guests, status=status, policy=listing.policy,
        **_amounts(q), refund=None, over_policy=checked.over,
        approver_id=approver.id if approver else None,
        purpose=purpose.strip()[:200], created_at=at, cancelled_at=None,
    )  # fmt: skip
    _hold_nights(s, r)
    if status == "confirmed":
        pay(s, r, "charge", q.total, f"Stay at {listing.title}, {r.nights} nights", at)
    if held:
        approvals.request_approval(s, actor, r, checked)
    if message:
        message_host(s, actor, listing, message, reservation=r)
    return r


def _amounts(q: pricing.Quote) -> dict[str, int]:
    return {"accommodation": q.accommodation, "discount": q.discount,
            "cleaning_fee": q.cleaning_fee, "service_fee": q.service_fee,
            "taxes": q.taxes, "total": q.total}  # fmt: skip


def _hold_nights(s: Session, r: Reservation) -> None:
    """Insert the reservation's nights; a night another session holds is a Conflict."""
    days = [r.check_in + dt.timedelta(days=i) for i in range(r.nights)]
    rows = [{"listing_id": r.listing_id, "night": d, "reservation_id": r.id} for d in days]
    try:
        with s.begin_nested():
            s.connection().execute(insert(BookedNight), rows)
    except IntegrityError:
        raise Conflict(
            "someone else just booked some of these nights; search again", code="not_available"
        ) from None


def release_nights(s: Session, r: Reservation) -> None:
    s.connection().execute(delete(BookedNight).where(BookedNight.reservation_id == r.id))


def pay(s: Session, r: Reservation, kind: str, amount: int, memo: str, at: dt.datetime) -> None:
    if amount:
        insert_row(s, Payment, reservation_id=r.id, flight_booking_id=None, kind=kind,
                   amount=amount, memo=memo[:120], created_at=at)  # fmt: skip


def lock(s: Session, r: Reservation) -> None:
    """Re-read a reservation under a row lock before changing its money: PostgreSQL's
    ``FOR UPDATE`` (a served SQLite file's transactions hold the write lock from their
    start), so sessions changing one stay take turns and each sees what the last did."""
    s.refresh(r, with_for_update=True)


def moved_on(r: Reservation) -> Conflict:
    return Conflict(f"reservation {r.code} changed meanwhile; look at it again", code="not_live")


def _require_live(r: Reservation) -> None:
    if r.status not in catalog.LIVE:
        raise Conflict(f"reservation {r.code} is {r.status}", code="not_live")


def change_stay(
    s: Session,
    actor: Person,
    r: Reservation,
    *,
    check_in: dt.date | None = None,
    check_out: dt.date | None = None,
    guests: int | None = None,
) -> tuple[Reservation, int]:
    """Change a live reservation's dates or guests at the listing's prices: the stay is
    re-quoted and the difference charged or refunded. Returns it and the old total. A
    change that takes an unapproved stay over the policy cap is refused (book anew to
    ask for approval); a stay awaiting approval cannot change."""
    lock(s, r)
    _require_live(r)
    if r.status == "pending":
        raise Conflict(
            f"reservation {r.code} is awaiting approval; cancel it and book again to change it",
            code="pending_approval",
        )
    new_in, new_out = check_in or r.check_in, check_out or r.check_out
    new_guests = guests if guests is not None else r.guests
    if (new_in, new_out, new_guests) == (r.check_in, r.check_out, r.guests):
        raise Invalid("nothing to change: give new dates or a new number of guests")
    if r.check_in <= today(s) and new_in != r.check_in:
        raise Conflict("the stay has begun; its check-in date cannot move", code="stay_started")
    listing = s.get_one(Listing, r.listing_id)
    calendar.check_stay(listing, new_in, new_out, new_guests, min(today(s), r.check_in))
    calendar.require_free(s, listing, new_in, new_out, ignore=r.id)
    q = catalog.listing_quote(s, listing, new_in, new_out)
    checked = check_policy(s, s.get_one(Person, r.guest_id), listing.city, q)
    if checked.needs_approval and r.approver_id is None and checked.manager != actor:
        raise Forbidden(
            f"the new average nightly rate {pricing.money(checked.nightly)} is over the travel "
            f"policy cap of {pricing.money(checked.cap)}; @{checked.manager.handle} must approve "
            "it: book the new dates as a new stay to send them the request",
            code="over_policy",
        )
    approver = r.approver_id or (actor.id if checked.needs_approval else None)
    old_total, at = r.total, now(s)
    was = {"status": r.status, "total": old_total, "check_in": r.check_in,
           "check_out": r.check_out, "guests": r.guests}  # fmt: skip
    release_nights(s, r)
    if not update_if(s, r, was, check_in=new_in, check_out=new_out, guests=new_guests,
                     **_amounts(q), over_policy=checked.over,
                     approver_id=approver if checked.over else None):  # fmt: skip
        raise moved_on(r)
    _hold_nights(s, r)
    if r.status == "confirmed":
        memo = f"Change to {new_in:%b %-d}-{new_out:%b %-d}, {new_guests} guests"
        kind = "charge" if q.total > old_total else "refund"
        pay(s, r, kind, abs(q.total - old_total), memo, at)
    return r, old_total


def preview_cancel(s: Session, actor: Person, r: Reservation) -> pricing.Refund:
    """What cancelling now would refund, without cancelling."""
    _require_live(r)
    if r.status == "requested":
        return pricing.Refund(0, "Request not yet accepted: nothing was charged")
    if r.status == "pending":
        return pricing.Refund(0, "Awaiting your manager's approval: nothing was charged")
    return pricing.stay_refund(r, s.info["clock"].peek())


def cancel_stay(s: Session, actor: Person, r: Reservation) -> Reservation:
    """Cancel a live reservation (or withdraw a request); the refund follows the policy
    the listing had when it was booked. Of concurrent cancellations one refunds, the
    others get the Conflict a second cancellation gets."""
    lock(s, r)
    refund = preview_cancel(s, actor, r)
    at = now(s)
    if not update_if(s, r, {"status": r.status}, status="cancelled", refund=refund.amount,
                     cancelled_at=at):  # fmt: skip
        raise moved_on(r)
    release_nights(s, r)
    pay(s, r, "refund", refund.amount, f"Cancellation: {refund.rule}", at)
    return r


def payments(s: Session, r: Reservation) -> list[Payment]:
    stmt = select(Payment).where(Payment.reservation_id == r.id).order_by(Payment.id)
    return list(s.scalars(stmt))


_MINE = (
    select(Reservation)
    .where(or_(Reservation.guest_id == bindparam("p"), Reservation.booked_by_id == bindparam("p")))
    .order_by(Reservation.check_in, Reservation.id)
)


def list_stays(s: Session, actor: Person) -> list[Reservation]:
    """The actor's reservations (as guest or booker), by check-in date."""
    return list(s.scalars(_MINE, {"p": actor.id}))


def message_host(
    s: Session, actor: Person, listing: Listing, text: str, *, reservation: Reservation | None
) -> HostMessage:
    """Send the listing's host a message (about a reservation of the actor's, or before
    booking)."""
    text = text.strip()
    if not text:
        raise Invalid("the message is empty")
    if len(text) > MAX_MESSAGE:
        raise Invalid(f"a message to a host is at most {MAX_MESSAGE} characters")
    return insert_row(s, HostMessage, listing_id=listing.id, person_id=actor.id,
                      reservation_id=reservation.id if reservation else None, from_host=False,
                      text=text, created_at=now(s))  # fmt: skip


def host_reply(s: Session, listing: Listing, guest: Person, text: str) -> HostMessage:
    """The host's message in `guest`'s conversation with the listing (what the guest reads
    in `host_messages`)."""
    text = text.strip()
    if not text or len(text) > MAX_MESSAGE:
        raise Invalid(f"a host's message has 1 to {MAX_MESSAGE} characters")
    values = {"listing_id": listing.id, "person_id": guest.id, "reservation_id": None}
    return insert_row(s, HostMessage, **values, from_host=True, text=text, created_at=now(s))


def host_messages(s: Session, actor: Person, listing_id: int) -> list[HostMessage]:
    """The actor's conversation with a listing's host, oldest first."""
    stmt = (
        select(HostMessage)
        .where(HostMessage.listing_id == listing_id, HostMessage.person_id == actor.id)
        .order_by(HostMessage.created_at, HostMessage.id)
    )
    return list(s.scalars(stmt))
