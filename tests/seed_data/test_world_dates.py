"""Seeded dates agree with the scenario's own: open deals in the early stages close ahead
of today and no open deal closes before it was created, and workbooks named after a year
carry the scenario's year (the startup world stands in 2025, not the default's 2026), and
last month's expense reports claim last month's real trips, line for line; #travel's
posts and the approval asks fall in their authors' working hours before the trips they
are about, with ids in time order, and hosts write in waking hours."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import HostMessage, Listing, Reservation
from officegym.apps.crm.models import OPEN_STAGES, Opportunity
from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.apps.slack.models import Channel, Message
from officegym.seed_data.scenario import load_scenario
from officegym.seed_data.work_hours import is_waking, is_working
from officegym.world import World, world_image


@pytest.mark.parametrize("scenario", ["default", "startup"])
def test_open_deals_close_after_they_were_opened_and_early_ones_ahead(scenario: str) -> None:
    today = load_scenario(scenario).date.date()
    w = World(world_image(scenario, 0))
    try:
        with w.session() as s:
            open_deals = list(
                s.scalars(select(Opportunity).where(Opportunity.stage.in_(OPEN_STAGES)))
            )
    finally:
        w.close()
    assert open_deals
    early = [o for o in open_deals if o.stage in OPEN_STAGES[:2]]
    assert early and all(o.close_date > today for o in early)
    assert all(o.close_date >= o.created_at.date() for o in open_deals)


def test_dated_workbooks_carry_the_scenario_year() -> None:
    year = load_scenario("startup").date.year
    assert year == 2025
    w = World(world_image("startup", 0))
    try:
        with w.session() as s:
            names = set(s.scalars(select(Workbook.name)))
    finally:
        w.close()
    assert {f"FY{year} Team Budgets", f"Headcount Plan {year}"} <= names
    assert f"Regional Sales {year - 1}" in names
    assert not any("2026" in n for n in names)


@pytest.mark.parametrize("scenario", ["default", "startup"])
def test_expense_reports_claim_the_travellers_real_stays_and_flights(scenario: str) -> None:
    w = World(world_image(scenario, 0))
    try:
        with w.session() as s:
            claimed, booked = set(), set()
            for wb in s.scalars(select(Workbook).where(Workbook.name.like("Expenses - %"))):
                owner = s.get_one(Person, wb.owner_id)
                rows = sheets.read_range(s, owner, wb, "Expenses!A2:E40").rows
                claimed |= {(str(r[4]).split()[1], r[3]) for r in rows if r[4]}
                month = wb.name.rsplit(" - ", 1)[1]
                for r in booking.list_stays(s, owner):
                    if r.status == "confirmed" and f"{r.check_in:%B %Y}" == month:
                        booked.add((r.code, r.total // 100))
                for f in booking.list_flights(s, owner):
                    if f.status == "confirmed" and f"{f.flight_date:%B %Y}" == month:
                        booked.add((f.code, f.total // 100))
    finally:
        w.close()
    assert booked, f"{scenario}: nobody filing a report travelled last month"
    assert claimed == booked


DATES = re.compile(r"(?P<m>[A-Z][a-z]{2}) (?P<d>\d{1,2}) to [A-Z][a-z]{2} \d{1,2}")


def _check_in(text: str, today: dt.date) -> dt.date | None:
    """The first day of the 'Mar 16 to Mar 19' in `text` (this year's or next)."""
    found = DATES.search(text)
    if found is None:
        return None
    day = dt.datetime.strptime(f"{found['m']} {found['d']} {today.year}", "%b %d %Y").date()
    return day if day >= today else day.replace(year=today.year + 1)


@pytest.mark.parametrize("scenario", ["default", "startup"])
def test_travel_posts_fall_in_working_hours_before_their_trips(scenario: str) -> None:
    now = load_scenario(scenario).date
    w = World(world_image(scenario, 0))
    try:
        with w.session() as s:
            travel = s.scalar(select(Channel).where(Channel.name == "travel"))
            assert travel is not None
            posts = list(s.scalars(select(Message).where(Message.channel_id == travel.id)))
            asks = list(s.scalars(select(Message).where(Message.text.like("%travel policy cap%"))))
            dms = {m.channel_id for m in asks}
            dm_posts = list(s.scalars(select(Message).where(Message.channel_id.in_(dms))))
            tz = {p.id: p.timezone for p in s.scalars(select(Person))}
            handles = {p.handle: p.id for p in s.scalars(select(Person))}
            stays: dict[int, list[dt.date]] = {}
            for r in s.scalars(select(Reservation).where(Reservation.status == "confirmed")):
                stays.setdefault(r.guest_id, []).append(r.check_in)
    finally:
        w.close()
    assert len(posts) > 20 and asks
    for m in posts:
        assert is_working(m.created_at, tz[m.user_id]), (m.created_at, m.text)
    # an ask in a DM that ran on past the last working day comes after it (evening, or
    # this morning after the CRM's requests): most asks are in working hours
    assert sum(is_working(m.created_at, tz[m.user_id]) for m in asks) >= 0.8 * len(asks)
    for m in posts + asks:
        assert m.created_at < now
        check_in = _check_in(m.text, now.date())
        if check_in is None:  # a question: the traveller is away later
            who = handles[m.text.split()[0].lstrip("@")]
            assert any(d > m.created_at.date() for d in stays[who]), m.text
        else:
            assert m.created_at.date() < check_in, (m.created_at, m.text)
    ordered = sorted(posts, key=lambda m: m.id)  # ids follow time in #travel
    assert [m.created_at for m in ordered] == sorted(m.created_at for m in posts)
    for ask in asks:  # and an ask comes after what its DM held before it
        assert all(m.created_at <= ask.created_at for m in dm_posts
                   if m.channel_id == ask.channel_id and m.id < ask.id)  # fmt: skip


@pytest.mark.parametrize("scenario", ["default", "startup"])
def test_hosts_write_in_waking_hours_after_the_booking(scenario: str) -> None:
    w = World(world_image(scenario, 0))
    try:
        with w.session() as s:
            booked = {
                (r.guest_id, r.listing_id): r.created_at for r in s.scalars(select(Reservation))
            }
            rows = [
                (h.created_at, s.get_one(Listing, h.listing_id).city.timezone,
                 booked.get((h.person_id, h.listing_id)))
                for h in s.scalars(select(HostMessage).where(HostMessage.from_host.is_(True)))
            ]  # fmt: skip
    finally:
        w.close()
    assert rows
    for when, tz, stay_booked in rows:
        assert is_waking(when, tz), (when, tz)
        assert stay_booked is not None and when > stay_booked
