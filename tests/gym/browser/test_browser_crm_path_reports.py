"""The CRM's stage path and report builder in real Chromium, used as a person does: on a
deal's page, click a later stage on the path and "Mark as current stage", or "Mark Stage
as Complete" to move on one stage; on the reports
page, open "New report", group by owner summing the amounts, run it and follow a row to
the list of its records."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page
from sqlalchemy import select

from officegym.apps.crm import service as crm
from officegym.apps.crm.models import STAGES, Opportunity
from officegym.apps.org.models import Person
from officegym.gym.browser.manager import BrowserManager
from officegym.gym.browser.server import AppServer
from tests.gym.browser.helpers import episode_url, in_new_tab

pytestmark = pytest.mark.browser


def _rep_and_deal(server: AppServer) -> tuple[str, int, str]:
    """An account executive, an open deal of theirs not yet in Negotiation, and its stage."""
    with server.world.session() as s:
        stmt = select(Person).where(Person.title.like("%Account Executive%")).order_by(Person.id)
        rep = s.scalars(stmt).first()
        assert rep is not None
        found = crm.search(s, rep, "opportunity", filters={"owner_id": rep.id}, is_open=True,
                           sort="id", limit=50)  # fmt: skip
        opp = next(o for o in found.items if o.stage != "Negotiation")
        return rep.handle, opp.id, opp.stage


def _mark_stage(page: Page, stage: str) -> dict[str, Any]:
    path = page.locator("ol.path")
    before = path.locator('[aria-current="step"]').inner_text()
    path.get_by_text(stage, exact=True).click()
    page.get_by_role("button", name="Mark as current stage").click()
    page.wait_for_load_state()
    return {"before": before, "after": path.locator('[aria-current="step"]').inner_text(),
            "flash": page.locator(".flash").first.inner_text()}  # fmt: skip


def test_a_person_moves_a_deal_on_its_stage_path(
    chromium: BrowserManager, server: AppServer
) -> None:
    handle, rid, stage = _rep_and_deal(server)
    url = episode_url(server, handle, f"/crm/opportunities/{rid}")
    seen = chromium.call(in_new_tab, chromium, url, lambda p: _mark_stage(p, "Negotiation"))
    assert seen["before"].strip() == stage
    assert seen["after"].strip() == "Negotiation"
    assert "Negotiation" in seen["flash"]
    with server.world.session() as s:
        opp = s.get_one(Opportunity, rid)
        assert (opp.stage, opp.probability) == ("Negotiation", 80)
    assert STAGES.index("Negotiation") > STAGES.index(stage)  # type: ignore[arg-type]


def _complete_stage(page: Page) -> dict[str, Any]:
    path = page.locator("ol.path")
    before = path.locator('[aria-current="step"]').inner_text()
    page.get_by_role("button", name="Mark Stage as Complete").click()
    page.wait_for_load_state()
    return {"before": before, "after": path.locator('[aria-current="step"]').inner_text(),
            "flash": page.locator(".flash").first.inner_text()}  # fmt: skip


def test_a_person_marks_the_current_stage_as_complete(
    chromium: BrowserManager, server: AppServer
) -> None:
    handle, rid, stage = _rep_and_deal(server)
    following = STAGES[STAGES.index(stage) + 1]  # type: ignore[arg-type]
    url = episode_url(server, handle, f"/crm/opportunities/{rid}")
    seen = chromium.call(in_new_tab, chromium, url, _complete_stage)
    assert (seen["before"].strip(), seen["after"].strip()) == (stage, following)
    assert following in seen["flash"]
    with server.world.session() as s:
        assert s.get_one(Opportunity, rid).stage == following


def _build_report(page: Page) -> dict[str, Any]:
    page.get_by_role("link", name="New report").click()
    page.get_by_label("Group by").select_option(label="Owner")
    page.get_by_label("Summary").select_option(label="Sum of amount")
    page.get_by_role("button", name="Run report").click()
    table = page.locator("#report-builder-result")
    first = table.locator("tbody tr").first
    row = {"owner": first.locator("th").inner_text(),
           "count": int(first.locator("td").first.inner_text()),
           "sum": first.locator("td").nth(1).inner_text(),
           "total": table.locator("tfoot").inner_text()}  # fmt: skip
    first.get_by_role("link").click()
    page.wait_for_load_state()
    row["list_count"] = page.locator("[id$='-count']").inner_text()
    row["list_total"] = page.locator("#list-opportunities-total").inner_text()
    row["url"] = page.url
    return row


def test_a_person_builds_a_report_and_opens_a_rows_records(
    chromium: BrowserManager, server: AppServer
) -> None:
    handle, _, _ = _rep_and_deal(server)
    url = episode_url(server, handle, "/crm/reports")
    row = chromium.call(in_new_tab, chromium, url, _build_report)
    assert re.fullmatch(r"\$\d{1,3}(,\d{3})*", row["sum"]), row
    assert row["list_count"].startswith(f"{row['count']} opportunit"), row
    assert row["list_total"].endswith(row["sum"]), row  # the list sums what the row summed
    assert "/crm/opportunities?" in row["url"] and "view=all" in row["url"]
    assert "Total" in row["total"]
