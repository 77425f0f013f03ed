"""Money under concurrency: many sessions cancelling or changing one stay (or flight) at
the same moment, each on its own thread and connection, on a SQLite file and on
PostgreSQL. One cancellation refunds and the others get the Conflict a second
cancellation gets; whatever the interleaving, a reservation's payments sum to what it
costs and its nights are held once."""

from __future__ import annotations

import datetime as dt
import uuid

from sqlalchemy import func, select

from officegym.apps.booking.models import BookedNight, Payment, Reservation
from officegym.runner import ToolRunner
from officegym.world import World
from tests.officegym.concurrency import at_once
from tests.officegym.test_races import world  # noqa: F401  (the SQLite file / PostgreSQL worlds)

from .helpers import free_stay, person


def booked(w: World, ahead: int) -> tuple[str, str]:
    """A fresh confirmed stay (its code) and the handle of who booked it."""
    with w.session() as s:
        handle = person(s).handle
        listing, ci, co = free_stay(s, ahead=ahead, nights=3)
    runner = ToolRunner(w, handle)
    args = {"listing_id": listing.id, "check_in": ci.isoformat(), "check_out": co.isoformat()}
    made = runner.call("booking_book_stay", args)
    runner.close()
    assert made.ok, made
    return made.result["reservation"]["code"], handle


def ledger(w: World, code: str) -> tuple[Reservation, int, int, int]:
    """The reservation, the sum of its payments (charges minus refunds), its refunds
    count, and how many nights it holds (each night once)."""
    with w.session() as s:
        r = s.scalars(select(Reservation).where(Reservation.code == code)).one()
        pays = s.scalars(select(Payment).where(Payment.reservation_id == r.id)).all()
        net = sum(p.amount if p.kind == "charge" else -p.amount for p in pays)
        refunds = sum(p.kind == "refund" for p in pays)
        nights = select(func.count(BookedNight.id), func.count(BookedNight.night.distinct()))
        n, distinct = s.execute(nights.where(BookedNight.reservation_id == r.id)).one()
        assert n == distinct
        return r, net, refunds, n


def test_twenty_cancellations_at_once_refund_once(world: World) -> None:  # noqa: F811
    code, handle = booked(world, ahead=40)
    outcomes = at_once(world, [(handle, "booking_cancel_stay", {"code": code})] * 20)
    assert sum(o.ok for o in outcomes) == 1, outcomes
    assert {o.code for o in outcomes if not o.ok} == {"not_live"}, outcomes
    r, net, refunds, nights = ledger(world, code)
    assert r.status == "cancelled" and nights == 0
    assert refunds == (1 if r.refund else 0)
    assert net == r.total - r.refund


def test_changes_of_one_stay_at_once_keep_its_ledger_summed(world: World) -> None:  # noqa: F811
    code, handle = booked(world, ahead=60)
    with world.session() as s:
        r = s.scalars(select(Reservation).where(Reservation.code == code)).one()
        ci = r.check_in
    day = dt.timedelta(days=1)
    new_dates = [(ci + i * day, ci + (3 + i) * day) for i in range(4)]
    calls = [
        ("booking_change_stay", {"code": code, "check_in": a.isoformat(),
                                 "check_out": b.isoformat(), "guests": 1 + i % 2})
        for i, (a, b) in enumerate(new_dates)
    ]  # fmt: skip
    outcomes = at_once(world, [(handle, *c) for c in calls])
    assert any(o.ok for o in outcomes), outcomes
    assert all(
        o.ok or o.code in ("not_live", "not_available", "invalid_arguments") for o in outcomes
    ), [o for o in outcomes if not o.ok]
    r, net, _refunds, nights = ledger(world, code)
    assert r.status == "confirmed"
    assert net == r.total
    assert nights == (r.check_out - r.check_in).days


def test_cancelling_while_changing_leaves_a_summed_ledger(world: World) -> None:  # noqa: F811
    code, handle = booked(world, ahead=80)
    with world.session() as s:
        ci = s.scalars(select(Reservation.check_in).where(Reservation.code == code)).one()
    later = {"code": code, "check_in": (ci + dt.timedelta(days=1)).isoformat(),
             "check_out": (ci + dt.timedelta(days=5)).isoformat()}  # fmt: skip
    calls = [("booking_change_stay", later), ("booking_cancel_stay", {"code": code})] * 3
    outcomes = at_once(world, [(handle, *c) for c in calls])
    assert sum(o.ok for o in outcomes if o is not None) >= 1
    r, net, refunds, nights = ledger(world, code)
    assert r.status == "cancelled" and nights == 0 and refunds <= 1
    assert net == r.total - r.refund


def test_one_listing_saved_at_once_makes_one_wishlist_and_one_entry(
    world: World,  # noqa: F811
) -> None:
    from officegym.apps.booking.models import Saved, Wishlist

    with world.session() as s:
        handle = person(s).handle
        listing, _ci, _co = free_stay(s, ahead=100)
        owner = person(s).id
    name = f"Race list {uuid.uuid4().hex[:6]}"
    args = {"listing_id": listing.id, "wishlist": name}
    outcomes = at_once(world, [(handle, "booking_save_listing", args)] * 6)
    assert sum(o.ok for o in outcomes) == 1, outcomes
    assert {o.code for o in outcomes if not o.ok} == {"already_saved"}, outcomes
    with world.session() as s:
        lists = s.scalars(select(Wishlist.id).where(Wishlist.owner_id == owner,
                                                    Wishlist.name == name)).all()  # fmt: skip
        assert len(lists) == 1
        assert s.scalar(select(func.count()).where(Saved.wishlist_id == lists[0])) == 1


def test_ten_flight_cancellations_at_once_refund_once(world: World) -> None:  # noqa: F811
    from officegym.apps.booking import service as booking
    from officegym.apps.booking.models import FlightBooking

    with world.session() as s:
        me = person(s)
        day = booking.today(s) + 45 * dt.timedelta(days=1)
        option = booking.search_flights(s, origin="JFK", destination="ORD", date=day)[0]
        fare = max((f for f, _ in option.fares), key=lambda f: f.base)  # a refundable one
        code = booking.book_flight(s, me, fare, date=day).code
        s.commit()
        handle = me.handle
    outcomes = at_once(world, [(handle, "booking_cancel_flight", {"code": code})] * 10)
    assert sum(o.ok for o in outcomes) == 1, outcomes
    assert {o.code for o in outcomes if not o.ok} == {"not_live"}, outcomes
    with world.session() as s:
        fb = s.scalars(select(FlightBooking).where(FlightBooking.code == code)).one()
        pays = s.scalars(select(Payment).where(Payment.flight_booking_id == fb.id)).all()
        assert fb.status == "cancelled"
        assert sum(p.kind == "refund" for p in pays) == (1 if fb.refund else 0)
        assert sum(p.amount if p.kind == "charge" else -p.amount for p in pays) == (
            fb.total - fb.refund
        )
