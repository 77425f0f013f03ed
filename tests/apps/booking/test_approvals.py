"""Over-policy stays held for the manager: the request goes by DM, the manager approves
(confirmed, charged) or declines (nights freed, nothing charged), the policy's rule
decides for the simulated managers, and nobody else can decide."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.booking import pricing
from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Reservation
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.errors import Conflict, NotFound
from officegym.tasks.approver import decide_requests
from officegym.world import World

from .helpers import call, over_stay, person


@pytest.fixture
def s(world: World) -> Iterator[Session]:
    with world.session() as session:
        yield session


def book_over(s: Session, me: Person, *, far: bool, purpose: str = ""):
    listing, ci, co = over_stay(s, far=far)
    return booking.book_stay(s, me, listing, check_in=ci, check_out=co, guests=1,
                             purpose=purpose)  # fmt: skip


def dm_texts(s: Session, a: Person, b: Person) -> list[str]:
    dm = chat.find_dm(s, a, [b])
    return [m.text for m in chat.history(s, a, dm, mark_read=False)] if dm else []


def test_an_over_policy_stay_is_held_and_the_manager_asked_by_dm(s: Session) -> None:
    me = person(s)
    manager = s.get_one(Person, me.manager_id)
    r = book_over(s, me, far=False)
    assert (r.status, r.over_policy, r.approver_id) == ("pending", True, None)
    assert booking.payments(s, r) == []
    assert booking.busy_nights(s, r.listing_id, r.check_in, r.check_out)  # nights held
    ask = dm_texts(s, me, manager)[0]  # newest first (the DM may hold seeded requests)
    cap = booking.nightly_cap(s, r.listing.city)
    assert "Approval request" in ask and pricing.money(r.total) in ask
    assert pricing.money(cap) in ask and r.listing.title in ask
    assert booking.approval_requests(s, manager)[-1] == r  # after the seeded ones
    assert booking.preview_cancel(s, me, r).amount == 0
    with pytest.raises(Conflict, match="awaiting approval"):
        booking.change_stay(s, me, r, guests=2)


def test_the_manager_approves_and_the_stay_is_confirmed_and_charged(s: Session) -> None:
    me = person(s)
    manager = s.get_one(Person, me.manager_id)
    r = book_over(s, me, far=False)
    out = call(s, manager, "booking_decide_approval", code=r.code, decision="approve",
               note="Enjoy the trip.")  # fmt: skip
    assert out["reservation"]["status"] == "confirmed"
    assert (r.status, r.approver_id) == ("confirmed", manager.id)
    [paid] = booking.payments(s, r)
    assert (paid.kind, paid.amount) == ("charge", r.total)
    answer = dm_texts(s, me, manager)[0]  # newest first
    assert answer.startswith("Approved") and "Enjoy the trip." in answer
    with pytest.raises(NotFound):
        booking.find_request(s, manager, r.code)


def test_a_declined_stay_frees_its_nights_and_charges_nothing(s: Session) -> None:
    me = person(s)
    manager = s.get_one(Person, me.manager_id)
    r = book_over(s, me, far=True)
    booking.decide_approval(s, manager, r, approve=False)
    assert r.status == "declined" and booking.payments(s, r) == []
    assert not booking.busy_nights(s, r.listing_id, r.check_in, r.check_out)
    with pytest.raises(Conflict, match="declined"):
        booking.decide_approval(s, manager, r, approve=True)


def test_only_the_travellers_manager_sees_and_decides_the_request(s: Session) -> None:
    me = person(s)
    r = book_over(s, me, far=False)
    other = s.scalars(select(Person).where(Person.id.not_in((me.id, me.manager_id)))).first()
    theirs = call(s, other, "booking_list_approvals")["awaiting_you"]  # their own queue only
    assert r.code not in {x["code"] for x in theirs}
    with pytest.raises(NotFound, match="awaits your approval"):
        booking.find_request(s, other, r.code)
    assert r.status == "pending"


def test_a_manager_booking_for_their_report_approves_by_booking(s: Session) -> None:
    me = person(s)
    manager = s.get_one(Person, me.manager_id)
    listing, ci, co = over_stay(s, far=True)
    r = booking.book_stay(s, manager, listing, check_in=ci, check_out=co, guests=1,
                          guest=me.handle)  # fmt: skip
    assert (r.status, r.approver_id) == ("confirmed", manager.id)


@pytest.mark.parametrize(
    ("far", "purpose", "approved"),
    [(False, "", True), (True, "", False), (True, "a visit to a customer", True)],
)
def test_the_policy_approves_within_the_margin_or_with_a_purpose(
    s: Session, far: bool, purpose: str, approved: bool
) -> None:
    me = person(s)
    before = s.scalar(select(func.max(Reservation.id)))
    r = book_over(s, me, far=far, purpose=purpose)
    assert booking.policy_decision(s, r).approve is approved
    [decided] = decide_requests(s, persona_id=me.id, after_id=before)
    assert decided.status == ("confirmed" if approved else "declined")
    answer = dm_texts(s, me, s.get_one(Person, me.manager_id))[0]
    assert answer.startswith("Approved" if approved else "Declined")
    assert "Per the travel policy" in answer


def test_the_simulated_manager_leaves_the_personas_own_requests_alone(s: Session) -> None:
    me = person(s)
    before = s.scalar(select(func.max(Reservation.id)))
    r = book_over(s, me, far=False)
    assert decide_requests(s, persona_id=me.manager_id, after_id=before) == []
    assert r.status == "pending"


def test_the_simulated_managers_leave_the_requests_made_before_the_episode(s: Session) -> None:
    seeded = s.scalars(select(Reservation).where(Reservation.status == "pending")).all()
    assert seeded, "the world seeds approval requests"
    me = person(s)
    before = s.scalar(select(func.max(Reservation.id)))
    r = book_over(s, me, far=True)
    assert decide_requests(s, persona_id=0, after_id=before) == [r]
    assert {x.status for x in seeded} == {"pending"}


def test_withdrawing_a_held_stay_refunds_nothing(s: Session) -> None:
    me = person(s)
    r = book_over(s, me, far=False)
    booking.cancel_stay(s, me, r)
    assert (r.status, r.refund) == ("cancelled", 0) and booking.payments(s, r) == []
