"""Approval of over-policy stays, as a travel desk runs it: a stay whose average nightly
rate is over the traveller's cap is held (``pending``: its nights held, nothing charged)
and the booker sends the traveller's manager a request in a chat DM naming the stay,
its total and the cap; the manager approves (the stay is confirmed and charged, or sent
to the host as a request for a request-to-book place) or declines (``declined``, the
nights freed, nothing charged), and the decision is answered in the same DM.

`policy_decision` is the rule the company's managers follow, which the simulated
colleagues of an episode apply: approve a stay at most `MARGIN` over the cap, or one
whose booking states a business purpose; decline the rest."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking import pricing, stays
from officegym.apps.booking.models import Reservation
from officegym.apps.booking.policy import PolicyCheck, nightly_cap
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.clock import now
from officegym.errors import Conflict, Invalid, NotFound
from officegym.writes import update_if

__all__ = [
    "MARGIN",
    "Decision",
    "approval_requests",
    "decide_approval",
    "find_request",
    "policy_decision",
    "request_approval",
]

MARGIN = 0.25  # how far over the cap a manager approves a stay without a stated purpose
MAX_NOTE = 500


@dataclass(frozen=True)
class Decision:
    """What the policy says a manager does with a request, and why (said in the DM)."""

    approve: bool
    reason: str


def _stay_line(r: Reservation) -> str:
    listing = r.listing
    return (
        f"{listing.title} in {listing.city.label}, {r.check_in:%b %-d} to "
        f"{r.check_out:%b %-d, %Y} ({r.nights} nights)"
    )


def request_approval(s: Session, actor: Person, r: Reservation, check: PolicyCheck) -> None:
    """Send the traveller's manager the approval request for a held stay, by DM from the
    booker: the stay, its total, its average nightly rate and the cap."""
    assert check.manager is not None
    traveller = s.get_one(Person, r.guest_id)
    who = "I'd" if traveller.id == actor.id else f"{traveller.name} would"
    text = (
        f"Approval request: {who} like to stay at {_stay_line(r)}, "
        f"{pricing.money(r.total)} in all. The average nightly rate "
        f"{pricing.money(check.nightly)} is over the travel policy cap of "
        f"{pricing.money(check.cap)}. Purpose: {r.purpose or 'not given'}. "
        "Approve or decline it under Approvals in Booking."
    )
    dm = chat.open_dm(s, actor, [check.manager])
    chat.post_message(s, actor, dm, text, markup=False)


_PENDING = (
    select(Reservation)
    .join(Person, Person.id == Reservation.guest_id)
    .where(Reservation.status == "pending")
    .order_by(Reservation.created_at, Reservation.id)
)


def approval_requests(s: Session, actor: Person) -> list[Reservation]:
    """The stays awaiting the actor's approval (their reports' over-policy stays), oldest
    request first."""
    return list(s.scalars(_PENDING.where(Person.manager_id == actor.id)))


def find_request(s: Session, actor: Person, code: str) -> Reservation:
    """A stay awaiting the actor's approval, by confirmation code."""
    key = str(code).strip().upper()
    for r in approval_requests(s, actor):
        if r.code == key:
            return r
    raise NotFound(f"no stay {code!r} awaits your approval", code="no_approval_request")


def policy_decision(s: Session, r: Reservation) -> Decision:
    """The travel policy's answer to a request: approve within `MARGIN` over the cap or
    with a stated purpose, decline otherwise."""
    cap = nightly_cap(s, r.listing.city)
    nightly = pricing.share(r.accommodation - r.discount, 1, r.nights)
    if nightly <= cap * (1 + MARGIN):
        return Decision(True, f"it is within {MARGIN:.0%} of the {pricing.money(cap)} cap")
    if r.purpose:
        return Decision(True, f"the trip is for {r.purpose}")
    return Decision(
        False,
        f"{pricing.money(nightly)} a night is more than {MARGIN:.0%} over the "
        f"{pricing.money(cap)} cap and no business purpose was given",
    )


def decide_approval(
    s: Session, actor: Person, r: Reservation, *, approve: bool, note: str = ""
) -> Reservation:
    """The manager's decision on a held stay: approved, it is confirmed and charged (a
    request to the host for a request-to-book place); declined, its nights are freed and
    nothing is charged. The decision (and `note`) is answered in the request's DM."""
    note = note.strip()
    if len(note) > MAX_NOTE:
        raise Invalid(f"a note is at most {MAX_NOTE} characters")
    stays.lock(s, r)
    if r.status != "pending":
        raise Conflict(f"reservation {r.code} is {r.status}, not awaiting approval",
                       code="not_pending")  # fmt: skip
    listing, at = r.listing, now(s)
    status = ("confirmed" if listing.instant_book else "requested") if approve else "declined"
    extra = {"approver_id": actor.id} if approve else {"cancelled_at": at}
    if not update_if(s, r, {"status": "pending"}, status=status, **extra):
        raise stays.moved_on(r)
    if status == "confirmed":
        stays.pay(s, r, "charge", r.total, f"Stay at {listing.title}, {r.nights} nights", at)
    if status == "declined":
        stays.release_nights(s, r)
    _answer(s, actor, r, approve, note)
    return r


def _answer(s: Session, actor: Person, r: Reservation, approve: bool, note: str) -> None:
    """The manager's answer in the DM the request came by."""
    booker = s.get_one(Person, r.booked_by_id)
    verb = "Approved" if approve else "Declined"
    text = f"{verb}: the stay at {_stay_line(r)}, {pricing.money(r.total)}."
    if note:
        text += f" {note}"
    dm = chat.open_dm(s, actor, [booker])
    chat.post_message(s, actor, dm, text, markup=False)
