"""Seeded dates agree with the scenario's own: open deals in the early stages close ahead
of today and no open deal closes before it was created, and workbooks named after a year
carry the scenario's year (the startup world stands in 2025, not the default's 2026)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from officegym.apps.crm.models import OPEN_STAGES, Opportunity
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
