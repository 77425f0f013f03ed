"""The report builder: the service groups, filters and sums as the records say, refuses
what it does not offer, and its page's rows link to list views that hold exactly the
records each row counts."""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.crm import service as crm
from officegym.apps.crm.models import Account, Case, Lead, Opportunity
from officegym.errors import Invalid
from officegym.gym.browser.actions import parse_action
from officegym.gym.browser.solutions import browser_steps
from officegym.tools import ToolCall

from .helpers import Cast, call, sign_in


def test_opportunities_by_stage_sum_the_amounts(db: Session, who: Cast) -> None:
    spec = crm.ReportSpec("opportunity", "stage", "sum", owner_id=who.rep.id)
    report = crm.run_report(db, who.rep, spec)
    mine = list(db.scalars(select(Opportunity).where(Opportunity.owner_id == who.rep.id)))
    assert report.count == len(mine)
    assert report.total == sum(o.amount or 0 for o in mine)
    for row in report.rows:
        in_stage = [o for o in mine if o.stage == row.key]
        assert (row.count, row.total) == (len(in_stage), sum(o.amount or 0 for o in in_stage))
    stages = [r.key for r in report.rows]
    assert stages == sorted(stages, key=["Prospecting", "Qualification", "Needs Analysis",
                                         "Proposal", "Negotiation", "Closed Won",
                                         "Closed Lost"].index)  # fmt: skip


def test_close_months_respect_the_date_range_and_average(db: Session, who: Cast) -> None:
    start, end = dt.date(2026, 1, 1), dt.date(2026, 6, 30)
    spec = crm.ReportSpec("opportunity", "close_month", "average", date_from=start, date_to=end)
    report = crm.run_report(db, who.manager, spec)
    chosen = list(db.scalars(select(Opportunity).where(Opportunity.close_date.between(start, end))))
    assert report.count == len(chosen) > 0
    assert [r.key for r in report.rows] == sorted({(o.close_date.year, o.close_date.month)
                                                   for o in chosen})  # fmt: skip
    priced = [o.amount for o in chosen if o.amount is not None]
    assert report.average == round(sum(priced) / len(priced))


def test_cases_are_counted_by_priority_and_status_filter(db: Session, who: Cast) -> None:
    report = crm.run_report(db, who.support_rep, crm.ReportSpec("case", "priority",
                                                                status="Working"))  # fmt: skip
    n = db.scalar(select(func.count(Case.id)).where(Case.status == "Working"))
    assert report.count == n and report.total is None
    assert [r.label for r in report.rows] == [p for p in ("Low", "Medium", "High", "Critical")
                                              if p in {r.key for r in report.rows}]  # fmt: skip


@pytest.mark.parametrize(
    "spec",
    [
        crm.ReportSpec("contact", "owner"),
        crm.ReportSpec("lead", "stage"),
        crm.ReportSpec("case", "owner", "sum"),
        crm.ReportSpec("opportunity", "stage", status="Won"),
        crm.ReportSpec("lead", "owner", date_field="close_date"),
        crm.ReportSpec("account", "owner", date_field="closed_at"),
        crm.ReportSpec("case", "owner", date_from=dt.date(2026, 2, 1), date_to=dt.date(2026, 1, 1)),
    ],
)
def test_what_the_builder_does_not_offer_is_refused(
    db: Session, who: Cast, spec: crm.ReportSpec
) -> None:
    with pytest.raises(Invalid):
        crm.run_report(db, who.rep, spec)


DAY = dt.timedelta(days=1)


def _between(model: Any, field: str, start: dt.date, end: dt.date) -> Any:
    """Records whose `field` (a timestamp) falls on a day from `start` to `end`."""
    column = getattr(model, field)
    return column >= dt.datetime.combine(start, dt.time()), column < dt.datetime.combine(
        end + DAY, dt.time()
    )


@pytest.mark.parametrize(
    ("rt", "group", "model", "field"),
    [
        ("case", "status", Case, "created_at"),
        ("case", "priority", Case, "closed_at"),
        ("lead", "source", Lead, "created_at"),
        ("lead", "owner", Lead, "converted_at"),
        ("account", "industry", Account, "created_at"),
        ("opportunity", "stage", Opportunity, "created_at"),
    ],
)
def test_the_date_range_applies_to_each_objects_own_dates(
    db: Session, who: Cast, rt: str, group: str, model: Any, field: str
) -> None:
    dates = sorted(d for d in db.scalars(select(getattr(model, field))) if d is not None)
    start, end = dates[len(dates) // 4].date(), dates[len(dates) // 2].date()
    spec = crm.ReportSpec(rt, group, date_from=start, date_to=end, date_field=field)
    report = crm.run_report(db, who.manager, spec)
    n = db.scalar(select(func.count(model.id)).where(*_between(model, field, start, end)))
    assert report.count == n and 0 < n < len(dates)
    assert crm.run_report(db, who.manager, crm.ReportSpec(rt, group)).count > n


def test_a_range_without_a_date_field_takes_the_objects_default(db: Session, who: Cast) -> None:
    start, end = dt.date(2026, 1, 1), dt.date(2026, 2, 15)
    cases = crm.run_report(db, who.manager, crm.ReportSpec("case", "status", date_from=start,
                                                           date_to=end))  # fmt: skip
    n = db.scalar(select(func.count(Case.id)).where(*_between(Case, "created_at", start, end)))
    assert cases.count == n > 0
    deals = crm.ReportSpec("opportunity", "stage", date_from=start, date_to=end)
    assert deals.dated_by == "close_date"


def test_the_page_ranges_over_the_date_chosen_and_names_it(client: FlaskClient, who: Cast) -> None:
    sign_in(client, who.manager)
    page = client.get("/crm/reports/build?object=cases&group=status&date=closed_at"
                      "&from=2026-01-01&to=2026-02-28").get_data(as_text=True)  # fmt: skip
    assert "Cases by status, closed date from" in html.unescape(page)
    assert 'id="report-builder-date"' in page and 'value="closed_at" selected' in page
    assert _rows(page) == []  # the case list cannot narrow by a closed date: no row links
    total = re.search(r'id="report-builder-total"[^>]*><th scope="row">Total</th><td>(\d+)', page)
    everything = client.get("/crm/reports/build?object=cases&group=status").get_data(as_text=True)
    all_total = re.search(r'id="report-builder-total"[^>]*><th scope="row">Total</th><td>(\d+)',
                          everything)  # fmt: skip
    assert total and all_total and 0 < int(total.group(1)) < int(all_total.group(1))


def test_the_tool_takes_a_date_field_or_a_close_date_range(db: Session, who: Cast) -> None:
    args = {"record_type": "lead", "group_by": "status", "date_field": "created_at",
            "date_from": "2026-01-01", "date_to": "2026-02-15"}  # fmt: skip
    got = call(db, who.manager, "crm_run_report", **args)
    n = db.scalar(select(func.count(Lead.id)).where(*_between(Lead, "created_at",
                                                               dt.date(2026, 1, 1),
                                                               dt.date(2026, 2, 15))))  # fmt: skip
    assert got["total"]["count"] == n
    with pytest.raises(Invalid, match="not both"):
        call(db, who.manager, "crm_run_report", **args, close_after="2026-01-01")
    with pytest.raises(Invalid):
        call(db, who.manager, "crm_run_report", record_type="lead", group_by="status",
             date_field="close_date", date_from="2026-01-01")  # fmt: skip


def _rows(page: str) -> list[tuple[str, int, str]]:
    """(list URL, records count, label) of each linked result row."""
    found = re.findall(r'<th scope="row"><a href="([^"]+)" id="report-builder-row-[^"]+"[^>]*>'
                       r"([^<]+)</a></th>\s*<td>(\d+)</td>", page)  # fmt: skip
    return [(html.unescape(url), int(n), label) for url, label, n in found]


@pytest.mark.parametrize(
    "query",
    [
        "object=opportunities&group=owner&summary=sum",
        "object=opportunities&group=close_month&summary=average&from=2026-02-10&to=2026-05-20",
        "object=opportunities&group=account&status=Proposal",
        "object=cases&group=status",
        "object=leads&group=source",
        "object=accounts&group=industry&summary=sum",
    ],
)
def test_each_row_links_to_a_list_of_exactly_its_records(
    client: FlaskClient, who: Cast, query: str
) -> None:
    sign_in(client, who.manager)
    response = client.get(f"/crm/reports/build?{query}")
    assert response.status_code == 200
    rows = _rows(response.get_data(as_text=True))
    assert rows
    for url, n, label in rows[:6]:
        listed = client.get(url).get_data(as_text=True)
        count = re.search(r'id="list-[a-z]+-count"[^>]*>(\d+) ', listed)
        assert count is not None and int(count.group(1)) == n, (label, url)


def test_the_page_shows_formatted_sums_and_refuses_bad_choices(
    client: FlaskClient, who: Cast
) -> None:
    sign_in(client, who.rep)
    page = client.get("/crm/reports").get_data(as_text=True)
    assert 'id="report-builder-new"' in page
    page = client.get("/crm/reports/build?group=stage&summary=sum").get_data(as_text=True)
    assert re.search(r'id="report-builder-total"[^>]*><th scope="row">Total</th><td>\d+</td>\s*'
                     r"<td>\$\d{1,3}(,\d{3})+</td>", page)  # fmt: skip
    assert client.get("/crm/reports/build").status_code == 200  # the form alone
    bad = client.get("/crm/reports/build?object=cases&group=stage")
    assert bad.status_code == 400 and "groups by" in bad.get_data(as_text=True)
    assert 'id="report-builder-object-leads"' in bad.get_data(as_text=True)


def test_the_tool_reports_what_the_page_shows(client: FlaskClient, db: Session, who: Cast) -> None:
    args = {"record_type": "opportunity", "group_by": "stage", "summary": "sum",
            "owner": who.rep.handle, "close_after": "2026-01-01"}  # fmt: skip
    got = call(db, who.rep, "crm_run_report", **args)
    assert got["total"]["count"] == sum(r["count"] for r in got["rows"]) > 0
    assert got["total"]["sum"] == sum(r["sum"] for r in got["rows"])
    (step,) = browser_steps(ToolCall("crm_run_report", args), db, who.rep.handle)
    action = parse_action(step)
    sign_in(client, who.rep)
    page = client.get(action.args["url"]).get_data(as_text=True)
    shown = re.findall(r'<th scope="row"><a [^>]+>([^<]+)</a></th>\s*<td>(\d+)</td>\s*'
                       r"<td>([^<]+)</td>", page)  # fmt: skip
    assert shown == [(r["group"], str(r["count"]), f"${r['sum']:,}") for r in got["rows"]]
    with pytest.raises(Invalid):
        call(db, who.rep, "crm_run_report", record_type="lead", group_by="status", summary="sum")
