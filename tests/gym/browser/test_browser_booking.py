"""The booking site's browser steps drive its real pages in Chromium: a search opens the
results the tool returns, checkout books the stay the tool would book, a change re-quotes
and a cancel refunds by the policy; a Basic Economy change is refused on the page."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import FlightBooking, Reservation
from officegym.apps.org import service as org
from officegym.gym.browser.solutions import browser_steps
from officegym.gym.browser_env import BrowserEnv
from officegym.tools import ToolCall

pytestmark = pytest.mark.browser
DAY = dt.timedelta(days=1)


def play(env: BrowserEnv, call: ToolCall) -> dict:
    """Do `call` through the pages as the env's persona; the last observation."""
    assert env.task is not None
    with env.world.session() as s:
        actions = browser_steps(call, s, env.task.persona)
    for action in actions:
        obs, *_ = env.step(action)
        assert obs["error"] == "", (action, obs["error"])
    return obs


def test_search_checkout_change_and_cancel_in_chromium(browser_env: BrowserEnv) -> None:
    browser_env.reset(options={"task": "slack.post-channel", "task_seed": 0})
    persona = browser_env.task.persona  # type: ignore[union-attr]
    with browser_env.world.session() as s:
        ci = booking.today(s) + 40 * DAY
        found = booking.search_stays(s, city="Portland, Maine", check_in=ci,
                                     check_out=ci + 3 * DAY, instant_book=True,
                                     sort="total_price")  # fmt: skip
        cheapest = next(r for r in found.results if r.listing.min_nights <= 3)
    search = ToolCall("booking_search_stays", {"city": "Portland, Maine",
                      "check_in": ci.isoformat(), "check_out": (ci + 3 * DAY).isoformat(),
                      "instant_book": True, "sort": "total_price"})  # fmt: skip
    obs = play(browser_env, search)
    assert cheapest.listing.title in obs["axtree"] and f"{found.total} places" in obs["axtree"]
    args = {"listing_id": cheapest.listing.id, "check_in": ci.isoformat(),
            "check_out": (ci + 3 * DAY).isoformat(), "purpose": "a conference"}  # fmt: skip
    obs = play(browser_env, ToolCall("booking_book_stay", args))
    with browser_env.world.session() as s:
        me = org.find_person(s, persona)
        r = s.scalars(select(Reservation).where(Reservation.booked_by_id == me.id,
                                                Reservation.check_in == ci)).one()  # fmt: skip
        assert (r.total, r.purpose) == (cheapest.quote.total, "a conference")  # type: ignore[union-attr]
        longer = booking.listing_quote(s, booking.get_listing(s, r.listing_id), ci, ci + 4 * DAY)
        free = not booking.busy_nights(s, r.listing_id, ci + 3 * DAY, ci + 4 * DAY)
    assert r.code in obs["axtree"]
    if free:
        play(browser_env, ToolCall("booking_change_stay", {"code": r.code,
                                   "check_out": (ci + 4 * DAY).isoformat()}))  # fmt: skip
    play(browser_env, ToolCall("booking_cancel_stay", {"code": r.code}))
    with browser_env.world.session() as s:
        after = s.get_one(Reservation, r.id)
        assert after.status == "cancelled" and after.refund == after.total
        if free:
            assert after.total == longer.total


def test_a_basic_economy_change_is_refused_on_the_page(browser_env: BrowserEnv) -> None:
    browser_env.reset(options={"task": "slack.post-channel", "task_seed": 1})
    with browser_env.world.session() as s:
        day = booking.today(s) + 30 * DAY
        option = booking.search_flights(s, origin="BOS", destination="SEA", date=day)[0]
        basic = next(f for f, _ in option.fares if f.brand == "Basic Economy")
        fare_id = basic.id
    play(
        browser_env, ToolCall("booking_book_flight", {"fare_id": fare_id, "date": day.isoformat()})
    )
    with browser_env.world.session() as s:
        fb = s.scalars(select(FlightBooking).order_by(FlightBooking.id.desc())).first()
        code, when = fb.code, fb.flight_date
    obs = play(browser_env, ToolCall("booking_change_flight", {"code": code,
                                     "date": (day + DAY).isoformat()}))  # fmt: skip
    assert "cannot be changed" in obs["axtree"]
    with browser_env.world.session() as s:
        assert s.get_one(FlightBooking, fb.id).flight_date == when


def test_every_booking_read_opens_a_page(browser_env: BrowserEnv) -> None:
    with Session(browser_env.world.engine) as w:
        listing_id = booking.search_stays(w, city="austin-tx").results[0].listing.id
    reads = [ToolCall("booking_get_listing", {"listing_id": listing_id}),
             ToolCall("booking_get_travel_policy", {}), ToolCall("booking_list_trips", {}),
             ToolCall("booking_get_fare_rules", {"fare_id": 3})]  # fmt: skip
    browser_env.reset(options={"task": "slack.post-channel", "task_seed": 2})
    for call in reads:
        obs = play(browser_env, call)
        assert "error" not in obs["url"] and obs["axtree"], call
