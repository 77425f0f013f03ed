"""The booking pages behave as Airbnb and a travel desk do, in real Chromium: a listing
says which night of the dates is taken and offers no Reserve for them; the cancellation
policy's refund schedule is spelled out; trips are apart (upcoming, past) and cancelling
asks for confirmation first; results are cards, labels sit beside their inputs, fares go
by name and flights show when they land."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from officegym.apps.booking import pricing
from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Reservation
from officegym.apps.org import service as org
from officegym.errors import Invalid
from officegym.gym.browser_env import BrowserEnv
from tests.apps.booking.helpers import free_stay
from tests.gym.browser.helpers import on_page, open_page

pytestmark = pytest.mark.browser
DAY = dt.timedelta(days=1)
TASK = {"task": "booking.cheapest-stay", "task_seed": 0}  # @tgrimes: upcoming and past trips


@pytest.fixture
def env(env_for: Callable[..., BrowserEnv]) -> BrowserEnv:
    booking_env = env_for("booking")
    booking_env.reset(options=TASK)
    return booking_env


def taken_stay(env: BrowserEnv) -> tuple[int, dt.date, dt.date, dt.date]:
    """A listing, dates it would take but for one unavailable night, and that night."""
    with env.world.session() as s:
        today = booking.today(s)
        for r in booking.search_stays(s, city="austin-tx", limit=50).results:
            item = r.listing
            for b in booking.busy_nights(s, item.id, today + 10 * DAY, today + 90 * DAY):
                ci = max(b.start - DAY, today + 10 * DAY)
                co = ci + max(item.min_nights, 2) * DAY
                try:
                    booking.check_stay(item, ci, co, 1, today)
                except Invalid:  # a stay this listing does not take: the next
                    continue
                first = booking.busy_nights(s, item.id, ci, co)[0]
                return item.id, ci, co, max(first.start, ci)
    raise AssertionError("no listing in Austin has a taken night in the coming months")


def test_a_listing_names_the_taken_night_and_offers_no_reserve(env: BrowserEnv) -> None:
    lid, ci, co, night = taken_stay(env)
    text = open_page(env, f"/booking/listings/{lid}?check_in={ci}&check_out={co}")
    assert "[listing-taken]" in text and f"the night of {night:%b %-d, %Y}" in text
    assert "[book-submit]" not in text and "Reserve ·" not in text
    assert "[quote]" in text  # the price of the dates is still shown
    with env.world.session() as s:
        item, ci, co = free_stay(s, city="austin-tx")
        total = booking.listing_quote(s, item, ci, co).total
    text = open_page(env, f"/booking/listings/{item.id}?check_in={ci}&check_out={co}")
    assert "[listing-taken]" not in text
    assert f'[book-submit] button "Reserve · {pricing.money(total)}"' in text


def test_a_listing_over_the_policy_cap_says_so_before_reserve(env: BrowserEnv) -> None:
    with env.world.session() as s:
        pricey, ci, co = free_stay(s, city="austin-tx", within=False)
        cheap = free_stay(s, city="austin-tx")[0]
        cap = booking.nightly_cap(s, pricey.city)
        manager = org.profile(s, org.find_person(s, env.task.persona).id).manager  # type: ignore[union-attr]
    text = open_page(env, f"/booking/listings/{pricey.id}?check_in={ci}&check_out={co}")
    note = text[text.index("[listing-over-policy]") : text.index("[book-submit]")]
    assert f"the cap of {pricing.money(cap)}" in note and f"@{manager}" in note
    text = open_page(env, f"/booking/listings/{cheap.id}?check_in={ci}&check_out={co}")
    assert "[listing-over-policy]" not in text and "[book-submit]" in text


def test_a_listing_spells_out_its_refund_schedule_with_dates(env: BrowserEnv) -> None:
    with env.world.session() as s:
        item, ci, co = free_stay(s, city="austin-tx", ahead=20)
        policy = item.policy
    text = open_page(env, f"/booking/listings/{item.id}?check_in={ci}&check_out={co}")
    schedule = text[text.index(f'[listing-terms] table "{policy.capitalize()} cancellation') :]
    full = pricing.POLICIES[policy].tiers[0]
    if full.whole:  # flexible and moderate: all back until a day (5 days) ahead
        assert f"(by {ci - full.days * DAY:%b %-d})" in schedule
    assert "Full refund" in schedule and "the cleaning fee and their taxes" in schedule
    assert "Once the stay has begun" in schedule


def test_trips_are_apart_and_cancelling_asks_first(env: BrowserEnv) -> None:
    with env.world.session() as s:
        me = org.find_person(s, env.task.persona)  # type: ignore[union-attr]
        today = booking.today(s)
        stays = booking.list_stays(s, me)
        ahead = next(r for r in stays if r.status == "confirmed" and r.check_in > today)
        over = next(r for r in stays if r.check_out < today)
        code, refund = ahead.code, booking.preview_cancel(s, me, ahead).amount
        over_code = over.code
    open_page(env, "/booking/trips")

    def region(name: str) -> str:
        return on_page(env, lambda p: p.get_by_role("region", name=name).inner_text())

    upcoming, past = region("Upcoming trips"), region("Past trips")
    assert code in upcoming and code not in past
    assert over_code in past and over_code not in upcoming
    open_page(env, f"/booking/trips/{code}")
    obs, *_ = env.step("click('cancel-submit')")
    assert obs["url"].endswith(f"/booking/trips/{code}/cancel")
    summary = on_page(env, lambda p: p.locator("[data-og-id=cancel-summary]").inner_text())
    assert f"You get back {pricing.money(refund)} of" in summary
    with env.world.session() as s:  # nothing is cancelled before the confirmation
        assert s.get_one(Reservation, ahead.id).status == "confirmed"
    obs, *_ = env.step("click('cancel-confirm')")
    assert obs["error"] == ""
    with env.world.session() as s:
        after = s.get_one(Reservation, ahead.id)
        assert (after.status, after.refund) == ("cancelled", refund)
    open_page(env, "/booking/trips")
    assert code in region("Cancelled trips") and code not in region("Upcoming trips")


def test_results_are_cards_and_labels_sit_beside_their_inputs(env: BrowserEnv) -> None:
    on_page(env, lambda p: p.set_viewport_size({"width": 1024, "height": 768}))
    open_page(env, "/booking/?city=austin-tx")
    cards = on_page(env, lambda p: [p.locator(".cards > .card").nth(i).bounding_box()
                                    for i in range(3)])  # fmt: skip
    bullets = on_page(env, lambda p: p.locator(".cards").evaluate(
        "el => getComputedStyle(el).listStyleType"))  # fmt: skip
    assert bullets == "none"
    assert cards[0]["y"] == cards[1]["y"] and cards[1]["x"] > cards[0]["x"]  # side by side
    assert cards[0]["height"] > 40  # a box, not a line of text

    def pairs(p: Page) -> list[tuple[str, dict, dict]]:
        out = []
        for i in range(p.locator("form[role=search] .field").count()):
            field = p.locator("form[role=search] .field").nth(i)
            label, box = field.locator("label"), field.locator("input, select")
            out.append((label.inner_text(), label.bounding_box(), box.bounding_box()))
        return out

    found = on_page(env, pairs)
    assert len(found) >= 10
    for name, label, box in found:
        same_line = (
            label["y"] < box["y"] + box["height"] and box["y"] < label["y"] + label["height"]
        )
        assert same_line and 0 <= box["x"] - (label["x"] + label["width"]) < 16, name


def test_fares_go_by_name_and_flights_show_arrival(env: BrowserEnv) -> None:
    with env.world.session() as s:
        day = booking.today(s) + 30 * DAY
        option = booking.search_flights(s, origin="BOS", destination="SEA", date=day)[0]
        lands = booking.arrival(option.route, day)
        fare, price = option.fares[0]
        fare_id, brand = fare.id, fare.brand
        pair = f"origin={option.route.origin.slug}&destination={option.route.destination.slug}"
    text = open_page(env, f"/booking/flights?{pair}&date={day}")
    assert f'[fare-{fare_id}-book] button "Book {brand} · {pricing.money(price)}"' in text
    assert "Book fare" not in text
    assert f"arrives {lands:%H:%M}" in text


def test_a_round_trip_search_lists_both_ways_and_books_the_return_for_two(
    env: BrowserEnv,
) -> None:
    with env.world.session() as s:
        out, back = booking.today(s) + 30 * DAY, booking.today(s) + 34 * DAY
        there = booking.search_flights(s, origin="BOS", destination="SEA", date=out)[0].route
        home = booking.search_flights(s, origin="SEA", destination="BOS", date=back)[0]
        fare, price = home.fares[0]
        fare_id, route_id = fare.id, home.route.id
        me = org.find_person(s, env.task.persona)  # type: ignore[union-attr]
        friend = next(p for p in org.list_people(s) if p.id != me.id).handle
        before = len(booking.list_flights(s, me))
        pair = f"origin={there.origin.slug}&destination={there.destination.slug}"
    text = open_page(env, f"/booking/flights?{pair}&date={out}&return_date={back}")
    assert text.index("Outbound") < text.index("Return ·") < text.index(f"[fare-{fare_id}-book]")
    env.step(f"fill('fare-{fare_id}-travellers', '{env.task.persona}, {friend}')")  # type: ignore[union-attr]
    obs, *_ = env.step(f"click('fare-{fare_id}-book')")
    assert obs["error"] == "" and "/booking/flight-trips/" in obs["url"]
    with env.world.session() as s:
        mine = booking.list_flights(s, me)
        fb = next(f for f in mine if f.route_id == route_id and f.flight_date == back)
        assert len(mine) == before + 1 and len(booking.passengers(s, fb)) == 2
        assert fb.total == 2 * price
    text = open_page(env, f"/booking/flights?{pair}&date={back}&return_date={out}")
    assert "[flights-error]" in text and "must be on or after the departure" in text
