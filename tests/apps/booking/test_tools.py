"""The booking tools through the runner, as an agent calls them: registered with
descriptions, malformed calls become errors that change nothing, the export is a calendar
file the icalendar parser reads back."""

from __future__ import annotations

import datetime as dt

from icalendar import Calendar
from sqlalchemy import func, select

from officegym.apps.booking.models import Reservation
from officegym.runner import ToolRunner
from officegym.tools import tools_for
from officegym.world import World

from .helpers import DAY, free_stay, person


def test_at_least_eighteen_documented_tools() -> None:
    tools = tools_for(["booking"])
    assert len(tools) >= 18
    names = {t.name for t in tools}
    assert {"booking_search_stays", "booking_book_stay", "booking_change_stay",
            "booking_cancel_stay", "booking_preview_cancellation", "booking_search_flights",
            "booking_change_flight", "booking_get_travel_policy",
            "booking_export_ical"} <= names  # fmt: skip
    for t in tools:
        assert t.description and all(
            p.get("description") for p in t.parameters.get("properties", {}).values()
        ), t.name


def test_malformed_calls_are_errors_and_change_nothing(world: World) -> None:
    with world.session() as s:
        me = person(s)
        listing, ci, co = free_stay(s)
    runner = ToolRunner(world, me.handle)
    bad = [
        {"listing_id": listing.id, "check_in": "2026-02-30", "check_out": co.isoformat()},
        {"listing_id": listing.id, "check_in": co.isoformat(), "check_out": ci.isoformat()},
        {"listing_id": listing.id, "check_in": ci.isoformat(), "check_out": co.isoformat(),
         "guests": 0},
        {"listing_id": "many", "check_in": ci.isoformat(), "check_out": co.isoformat()},
        {"listing_id": 10**9, "check_in": ci.isoformat(), "check_out": co.isoformat()},
        {"listing_id": listing.id, "check_in": ci.isoformat()},
    ]  # fmt: skip
    for args in bad:
        out = runner.call("booking_book_stay", args)
        assert not out.ok and out.code != "internal_error", (args, out)
    search = runner.call("booking_search_stays", {"city": "Nowhere City"})
    assert not search.ok and "Nowhere City" in (search.error or "")
    with world.session() as s:
        n = s.scalar(select(func.count()).select_from(Reservation).where(
            Reservation.listing_id == listing.id, Reservation.check_in == ci))  # fmt: skip
    assert n == 0
    runner.close()


def test_the_ical_export_parses_and_holds_the_new_stay(world: World) -> None:
    with world.session() as s:
        me = person(s)
        listing, ci, co = free_stay(s, ahead=40)
    runner = ToolRunner(world, me.handle)
    args = {"listing_id": listing.id, "check_in": ci.isoformat(), "check_out": co.isoformat()}
    booked = runner.call("booking_book_stay", args)
    assert booked.ok, booked.error
    code = booked.result["reservation"]["code"]
    ics = runner.call("booking_export_ical", {}).result["ics"]
    runner.close()
    cal = Calendar.from_ical(ics)
    events = {str(e["uid"]): e for e in cal.walk("VEVENT")}
    event = events[f"stay-{code}@booking.officegym.test"]
    assert event.decoded("dtstart") == ci and event.decoded("dtend") == co
    assert isinstance(event.decoded("dtstart"), dt.date) and co - ci == 3 * DAY


def test_a_listing_reads_with_its_hosts_description(world: World) -> None:
    with world.session() as s:
        listing = free_stay(s)[0]
        handle = person(s).handle
    runner = ToolRunner(world, handle)
    out = runner.call("booking_get_listing", {"listing_id": listing.id})
    runner.close()
    assert out.ok and out.result["description"] == listing.description
    assert listing.title.split(" in ")[-1].split(" #")[0] in out.result["description"]
