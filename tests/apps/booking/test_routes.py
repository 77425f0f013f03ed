"""The booking pages through Flask's test client: every page renders with unique,
labelled element ids; checkout, change and cancel forms change state as the service does;
bad input is flashed and changes nothing."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass

from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Listing, Reservation
from officegym.apps.booking.pricing import money
from officegym.apps.org.models import Person
from officegym.world import World

from ..pages import Elements
from .helpers import DAY, free_stay, over_stay, person


@dataclass(frozen=True)
class BookedStay:
    """A stay booked through the listing's form by `book_free_stay`."""

    listing: Listing
    check_in: dt.date
    check_out: dt.date
    form: dict[str, str]
    response: TestResponse


def signed_in(client: FlaskClient, world: World) -> tuple[FlaskClient, str]:
    with world.session() as s:
        handle = person(s).handle
    assert client.get(f"/login/{handle}").status_code == 302
    return client, handle


def book_free_stay(client: FlaskClient, world: World, ahead: int) -> BookedStay:
    """Signed in as the booking persona, book a stay free from `ahead` days on through the
    listing's form: the listing, its dates, the form and the form's response."""
    signed_in(client, world)
    with world.session() as s:
        listing, ci, co = free_stay(s, ahead=ahead)
    form = {"check_in": ci.isoformat(), "check_out": co.isoformat(), "guests": "1"}
    return BookedStay(
        listing, ci, co, form, client.post(f"/booking/listings/{listing.id}/book", data=form)
    )


def check_ids(html: str) -> list[dict]:
    parser = Elements()
    parser.feed(html)
    ids = [e.get("id") for e in parser.elements]
    assert all(ids), [e for e in parser.elements if not e.get("id")][:3]
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    for e in parser.elements:
        assert e["id"] == e.get("data-og-id")
        if e["tag"] in ("input", "select", "textarea"):
            assert e["id"] in parser.labels or e.get("aria-label"), e["id"]
    return parser.elements


def test_every_page_renders_with_unique_labelled_ids(client: FlaskClient, world: World) -> None:
    client, _ = signed_in(client, world)
    with world.session() as s:
        listing, ci, co = free_stay(s)
        stay = next(iter(booking.list_stays(s, person(s))), None)
        flight = next(iter(booking.list_flights(s, person(s))), None)
    dates = f"check_in={ci}&check_out={co}"
    search = f"/booking/?city=chicago-il&{dates}&guests=2&amenity=wifi&sort=total_price"
    urls = ["/booking/", search,
            f"/booking/listings/{listing.id}?{dates}", "/booking/trips", "/booking/wishlists",
            f"/booking/flights?origin=JFK&destination=ORD&date={ci}", "/booking/policy",
            "/booking/fares/1", "/booking/approvals"]  # fmt: skip
    urls += [f"/booking/trips/{stay.code}"] if stay else []
    urls += [f"/booking/flight-trips/{flight.code}"] if flight else []
    for url in urls:
        page = client.get(url)
        assert page.status_code == 200, (url, page.get_data(as_text=True)[:300])
        check_ids(page.get_data(as_text=True))


def test_search_page_shows_the_tools_results_and_total(client: FlaskClient, world: World) -> None:
    client, _ = signed_in(client, world)
    with world.session() as s:
        ci = booking.today(s) + 15 * DAY
        found = booking.search_stays(s, city="portland-me", check_in=ci, check_out=ci + 3 * DAY,
                                     sort="total_price")  # fmt: skip
    html = client.get(f"/booking/?city=portland-me&check_in={ci}&check_out={ci + 3 * DAY}"
                      "&sort=total_price").get_data(as_text=True)  # fmt: skip
    assert re.search(rf'data-og-id="search-count">{found.total} places', html)
    first = found.results[0]
    assert html.index(f'result-{first.listing.id}"') < html.index(
        f'result-{found.results[1].listing.id}"'
    )
    assert f"{money(first.quote.total)} total" in html


def test_checkout_change_and_cancel_through_the_forms(client: FlaskClient, world: World) -> None:
    stay = book_free_stay(client, world, ahead=25)
    listing, ci, done = stay.listing, stay.check_in, stay.response
    assert done.status_code == 302 and "/booking/trips/HM" in done.location
    code = done.location.rsplit("/", 1)[1]
    with world.session() as s:
        r = s.scalars(select(Reservation).where(Reservation.code == code)).one()
        assert (r.listing_id, r.check_in, r.status) == (listing.id, ci, "confirmed")
    bad = client.post(f"/booking/trips/{code}/change", data={"check_out": "2026-02-30"})
    assert bad.status_code == 302
    assert "is not a date" in client.get(f"/booking/trips/{code}").get_data(as_text=True)
    client.post(f"/booking/trips/{code}/cancel")
    with world.session() as s:
        r = s.scalars(select(Reservation).where(Reservation.code == code)).one()
        assert r.status == "cancelled" and r.refund is not None


def test_a_double_booking_is_flashed_and_changes_nothing(client: FlaskClient, world: World) -> None:
    stay = book_free_stay(client, world, ahead=35)
    assert stay.response.status_code == 302
    with world.session() as s:
        before = s.scalar(select(func.count()).select_from(Reservation))
    again = client.post(
        f"/booking/listings/{stay.listing.id}/book", data=stay.form, follow_redirects=True
    )
    assert "not available" in again.get_data(as_text=True)
    with world.session() as s:
        assert s.scalar(select(func.count()).select_from(Reservation)) == before


def test_cancelling_asks_first_and_the_confirmation_changes_nothing(
    client: FlaskClient, world: World
) -> None:
    code = book_free_stay(client, world, ahead=45).response.location.rsplit("/")[-1]
    page = client.get(f"/booking/trips/{code}/cancel")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'data-og-id="cancel-confirm"' in html
    check_ids(html)
    with world.session() as s:
        r = s.scalars(select(Reservation).where(Reservation.code == code)).one()
        assert r.status == "confirmed" and f"get back <strong>{money(r.total)}</strong>" in html
    client.post(f"/booking/trips/{code}/cancel")
    again = client.get(f"/booking/trips/{code}/cancel", follow_redirects=True)
    assert "is cancelled" in again.get_data(as_text=True)
    assert again.request.path == f"/booking/trips/{code}"


def test_round_trip_and_taken_dates_pages_render_with_labelled_ids(
    client: FlaskClient, world: World
) -> None:
    stay = book_free_stay(client, world, ahead=50)
    listing, ci, co = stay.listing, stay.check_in, stay.check_out
    taken = client.get(f"/booking/listings/{listing.id}?check_in={ci}&check_out={co}")
    html = taken.get_data(as_text=True)
    assert 'data-og-id="listing-taken"' in html and 'data-og-id="book-submit"' not in html
    check_ids(html)
    both = client.get(f"/booking/flights?origin=JFK&destination=ORD&date={ci}&return_date={co}")
    html = both.get_data(as_text=True)
    assert 'data-og-id="flights-return-count"' in html and "Book fare" not in html
    check_ids(html)


def test_a_manager_decides_a_held_stay_through_the_approvals_form(
    client: FlaskClient, world: World
) -> None:
    with world.session() as s:
        me = person(s)
        manager = s.get_one(Person, me.manager_id)
        listing, ci, co = over_stay(s, far=True)
        r = booking.book_stay(s, me, listing, check_in=ci, check_out=co, guests=1)
        s.commit()
        code, handle, description = r.code, manager.handle, listing.description
    assert client.get(f"/login/{handle}").status_code == 302
    page = client.get("/booking/approvals").get_data(as_text=True)
    check_ids(page)
    assert code in page and "purpose: not given" in page
    bad = client.post(f"/booking/approvals/{code}", data={"decision": "maybe"})
    assert bad.status_code == 302
    answer = client.post(f"/booking/approvals/{code}", data={"decision": "decline", "note": "No."})
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/booking/approvals")
    with world.session() as s:
        assert s.scalars(select(Reservation).where(Reservation.code == code)).one().status == (
            "declined"
        )
    listing_page = client.get(f"/booking/listings/{listing.id}").get_data(as_text=True)
    assert description and description in listing_page.replace("&#39;", "'")
