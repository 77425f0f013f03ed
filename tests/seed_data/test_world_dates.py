"""Seeded dates agree with the scenario's own: open deals in the early stages close ahead
of today and no open deal closes before it was created, and workbooks named after a year
carry the scenario's year (the startup world stands in 2025, not the default's 2026), and
last month's expense reports claim last month's real trips, line for line."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from officegym.apps.booking import service as booking
from officegym.apps.crm.models import OPEN_STAGES, Opportunity
from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.seed_data.scenario import load_scenario
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
