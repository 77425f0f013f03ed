"""Seeded approval requests: over-policy stays held for a few managers, made through the
booking service (held, uncharged, the manager asked in an existing DM), in the
travellers' working hours before the world's last post, for future stays, in a mix the
policy approves and declines."""

from __future__ import annotations

from collections import Counter

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Payment, Reservation
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Message
from officegym.seed_data.approval_requests import MANAGERS
from officegym.seed_data.work_hours import is_working
from officegym.tasks.base import catalog_session
from officegym.tasks.booking.common import booking_index


@pytest.fixture(scope="module")
def w() -> Session:
    return catalog_session("default", 0)


def held(w: Session) -> list[Reservation]:
    stmt = select(Reservation).where(Reservation.status == "pending").order_by(Reservation.id)
    return list(w.scalars(stmt))


def test_managers_each_have_requests_the_policy_approves_and_declines(w: Session) -> None:
    requests = held(w)
    by_boss: dict[int, list[bool]] = {}
    for r in requests:
        boss = w.get_one(Person, r.guest_id).manager_id
        by_boss.setdefault(boss, []).append(booking.policy_decision(w, r).approve)
    assert 3 <= len(by_boss) <= MANAGERS
    assert all(len(v) >= 3 and set(v) == {True, False} for v in by_boss.values())
    reasons = Counter(bool(r.purpose) for r in requests if booking.policy_decision(w, r).approve)
    assert reasons[True] and reasons[False]  # approved for a purpose, and within the margin


def test_each_request_is_held_and_asked_for_in_the_travellers_dm(w: Session) -> None:
    today = booking_index(w).today
    for r in held(w):
        me = w.get_one(Person, r.guest_id)
        boss = w.get_one(Person, me.manager_id)
        assert (r.booked_by_id, r.over_policy, r.approver_id) == (me.id, True, None)
        assert r.check_in > today and is_working(r.created_at, me.timezone)
        assert not w.scalars(select(Payment).where(Payment.reservation_id == r.id)).all()
        dm = chat.find_dm(w, me, [boss])
        asks = w.scalars(select(Message).where(Message.channel_id == dm.id,
                                               Message.user_id == me.id,
                                               Message.text.contains(r.listing.title)))  # fmt: skip
        dates = f"{r.check_in:%b %-d} to {r.check_out:%b %-d, %Y}"  # a listing may recur
        [asked] = [m for m in asks if m.text.startswith("Approval request") and dates in m.text]
        assert abs((asked.created_at - r.created_at).total_seconds()) < 60


def test_the_requests_come_before_the_worlds_last_post_and_follow_time(w: Session) -> None:
    requests = held(w)
    others = select(func.max(Message.created_at)).where(
        ~Message.text.startswith("Approval request")
    )
    assert max(r.created_at for r in requests) < w.scalar(others)
    assert [r.created_at for r in requests] == sorted(r.created_at for r in requests)
    earlier = w.scalar(select(func.max(Reservation.id)).where(Reservation.status != "pending"))
    assert min(r.id for r in requests) > earlier  # appended after every earlier stay
