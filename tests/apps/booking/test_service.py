"""The reservation core called directly: bookings hold their nights, re-quote on change,
refund by policy on cancel, obey the travel policy, and refuse bad input with the
project's errors, changing nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.booking import pricing
from officegym.apps.booking import service as booking
from officegym.apps.booking.models import BookedNight, Payment, Reservation
from officegym.apps.org.models import Person
from officegym.errors import Conflict, Forbidden, Invalid, NotFound
from officegym.world import World

from .helpers import DAY, free_stay, person


@pytest.fixture
def s(world: World) -> Iterator[Session]:
    with world.session() as session:
        yield session


def count(s: Session, model: type) -> int:
    return s.scalar(select(func.count()).select_from(model)) or 0


def test_booking_holds_each_night_and_charges_the_quote(s: Session) -> None:
    me = person(s)
    listing, ci, co = free_stay(s)
    q = booking.listing_quote(s, listing, ci, co)
    r = booking.book_stay(s, me, listing, check_in=ci, check_out=co, guests=1)
    assert (r.status, r.total, r.taxes) == ("confirmed", q.total, q.taxes)
    nights = s.scalars(select(BookedNight.night).where(BookedNight.reservation_id == r.id)).all()
    assert sorted(nights) == [ci + i * DAY for i in range(3)]
    [paid] = booking.payments(s, r)
    assert (paid.kind, paid.amount) == ("charge", q.total)
    with pytest.raises(Conflict, match="not available"):
        booking.book_stay(s, me, listing, check_in=ci + DAY, check_out=co + DAY, guests=1)


def test_change_requotes_and_charges_only_the_difference(s: Session) -> None:
    me = person(s)
    listing, ci, co = free_stay(s, nights=3)
    r = booking.book_stay(s, me, listing, check_in=ci, check_out=co, guests=1)
    longer = booking.listing_quote(s, listing, ci, co + DAY)
    if booking.busy_nights(s, listing.id, co, co + DAY):
        pytest.skip("the next night is taken")
    r, old = booking.change_stay(s, me, r, check_out=co + DAY)
    assert r.total == longer.total and r.nights == 4
    last = booking.payments(s, r)[-1]
    assert (last.kind, last.amount) == ("charge", longer.total - old)


def test_cancel_refunds_what_the_policy_gives_and_frees_the_nights(s: Session) -> None:
    me = person(s)
    listing, ci, co = free_stay(s, ahead=3)
    r = booking.book_stay(s, me, listing, check_in=ci, check_out=co, guests=1)
    expected = pricing.stay_refund(r, s.info["clock"].peek())
    booking.cancel_stay(s, me, r)
    assert (r.status, r.refund) == ("cancelled", expected.amount)
    assert not booking.busy_nights(s, listing.id, ci, co) or all(
        b.reservation_id is None for b in booking.busy_nights(s, listing.id, ci, co)
    )
    with pytest.raises(Conflict):
        booking.cancel_stay(s, me, r)


@pytest.mark.parametrize(
    ("shift_in", "shift_out", "guests", "error"),
    [
        (5, 2, 1, "must be after"),  # check-out before check-in
        (-3, 2, 1, "in the past"),
        (10, 12, 0, "guests"),
        (10, 12, 10_000, "guests"),
        (10, 10 + 800, 1, "at most"),  # a stay of years
        (900, 903, 1, "open only"),
    ],
)
def test_bad_stays_are_refused_and_change_nothing(
    s: Session, shift_in: int, shift_out: int, guests: int, error: str
) -> None:
    me = person(s)
    listing, _, _ = free_stay(s)
    today = booking.today(s)
    before = count(s, Reservation), count(s, Payment), count(s, BookedNight)
    with pytest.raises(Invalid, match=error):
        booking.book_stay(s, me, listing, check_in=today + shift_in * DAY,
                          check_out=today + shift_out * DAY, guests=guests)  # fmt: skip
    assert (count(s, Reservation), count(s, Payment), count(s, BookedNight)) == before


def test_unknown_and_ambiguous_cities_name_the_choices(s: Session) -> None:
    with pytest.raises(NotFound):
        booking.search_stays(s, city="Atlantis")
    with pytest.raises(Invalid, match="portland-me") as err:
        booking.search_stays(s, city="Portland")
    assert "portland-or" in str(err.value)
    assert booking.find_city(s, "Portland, Maine").slug == "portland-me"
    assert booking.find_city(s, "PDX").slug == "portland-or"


def test_search_filters_hold_for_every_result(s: Session) -> None:
    ci = booking.today(s) + 20 * DAY
    page = booking.search_stays(
        s, city="chicago-il", check_in=ci, check_out=ci + 4 * DAY, guests=3, bedrooms=2,
        amenities=["wifi", "kitchen"], min_rating=4.0, max_price=300_00, sort="total_price",
        limit=50,
    )  # fmt: skip
    assert page.results
    totals = [r.quote.total for r in page.results if r.quote]
    assert totals == sorted(totals)
    mask = booking.amenity_mask(["wifi", "kitchen"])
    for r in page.results:
        row = r.listing
        assert row.max_guests >= 3 and row.bedrooms >= 2 and row.rating >= 4.0
        assert row.amenities & mask == mask and r.nightly <= 300_00
        assert row.min_nights <= 4 and not booking.busy_nights(s, row.id, ci, ci + 4 * DAY)


def test_reservations_are_invisible_to_other_people(s: Session) -> None:
    me = person(s)
    listing, ci, co = free_stay(s)
    r = booking.book_stay(s, me, listing, check_in=ci, check_out=co, guests=1)
    stranger = s.scalars(select(Person).where(Person.id != me.id)).first()
    with pytest.raises(NotFound):
        booking.find_reservation(s, stranger, r.code)
    assert booking.find_reservation(s, me, r.code.lower()).id == r.id


def test_basic_economy_change_is_refused_and_changes_nothing(s: Session) -> None:
    me = person(s)
    day = booking.today(s) + 30 * DAY
    option = booking.search_flights(s, origin="JFK", destination="ORD", date=day)[0]
    basic = next(f for f, _ in option.fares if f.brand == "Basic Economy")
    fb = booking.book_flight(s, me, basic, date=day)
    before = (fb.flight_date, fb.total, len(booking.flight_payments(s, fb)))
    with pytest.raises(Forbidden, match="no changes allowed"):
        booking.change_flight(s, me, fb, date=day + DAY)
    assert (fb.flight_date, fb.total, len(booking.flight_payments(s, fb))) == before


def test_wishlists_keep_one_copy_of_a_listing(s: Session) -> None:
    me = person(s)
    listing, _, _ = free_stay(s)
    booking.save_listing(s, me, listing, "Chicago trip")
    with pytest.raises(Conflict):
        booking.save_listing(s, me, listing, "chicago  TRIP")
    [w] = [w for w in booking.wishlists(s, me) if w.name == "Chicago trip"]
    assert [x.listing_id for x in booking.saved_listings(s, w)] == [listing.id]
    booking.unsave_listing(s, me, listing, "Chicago trip")
    assert booking.saved_listings(s, w) == []


def test_the_same_booking_made_twice_at_one_instant_gets_two_codes(s: Session) -> None:
    # a confirmation code hashes what is booked and when (a seeder sets the clock to the
    # times it writes): the same flight and stay booked again at the same simulated
    # instant must still get a code of its own
    me, clock = person(s), s.info["clock"]
    at = clock.peek()
    day = booking.today(s) + 30 * DAY
    fare = booking.search_flights(s, origin="JFK", destination="ORD", date=day)[0].fares[0][0]
    flights = []
    for _ in range(2):
        clock.set(at)
        flights.append(booking.book_flight(s, me, fare, date=day))
    assert flights[0].code != flights[1].code
    listing, check_in, check_out = free_stay(s)
    clock.set(at)
    first = booking.book_stay(s, me, listing, check_in=check_in, check_out=check_out, guests=1)
    booking.cancel_stay(s, me, first)
    clock.set(at)
    again = booking.book_stay(s, me, listing, check_in=check_in, check_out=check_out, guests=1)
    assert first.code != again.code
