"""The CRM pages read as Salesforce users know them (Flask test client): the app is
named "CRM", record pages show field labels (form help stays in the form), forms
show and take names and formatted amounts, dates carry their year, lists open on
"My …" with a switch to "All …", numbered pages and sortable columns, and a
read-only record says why."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.crm import service as crm
from officegym.apps.crm.models import Opportunity
from officegym.apps.crm.pages import page_numbers, shown_change, shown_date
from officegym.apps.org.models import Person

from ..pages import html_of
from .helpers import Cast, open_opportunity_of, sign_in

ISO_DAY = re.compile(r"\b20\d\d-\d\d-\d\d\b")
DAY_WITH_YEAR = re.compile(r"\b[A-Z][a-z]{2} \d{1,2}, 20\d\d\b")


def text_of(html: str) -> str:
    """The page's visible text (no tags, no attribute values such as input values)."""
    return re.sub(r"<[^>]+>", " ", html)


def deal_with_contact(db: Session, owner: Person) -> Opportunity:
    """An open opportunity of `owner`'s with a contact (closed ones are locked)."""
    stmt = select(Opportunity).where(
        Opportunity.owner_id == owner.id,
        Opportunity.contact_id.is_not(None),
        Opportunity.stage.not_in(("Closed Won", "Closed Lost")),
    )
    return db.scalars(stmt.order_by(Opportunity.id)).first()  # type: ignore[return-value]


# ---------------------------------------------------------------- naming and labels


def test_the_navigation_names_the_app_crm(client: FlaskClient, who: Cast) -> None:
    sign_in(client, who.rep)
    html = html_of(client, "/crm/opportunities")
    assert re.search(r'data-og-id="nav-crm"[^>]*>CRM</a>', html)
    assert ">Crm<" not in html


def test_a_record_page_shows_labels_and_the_form_its_help(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    opp = deal_with_contact(db, who.rep)
    page = html_of(client, f"/crm/opportunities/{opp.id}")
    assert "<dt>Contact</dt>" in page and "<dt>Probability" not in page
    assert "(id, email or full name)" not in page and "help" not in text_of(page).lower()
    form = html_of(client, f"/crm/opportunities/{opp.id}/edit")
    assert re.search(r'<label for="form-opportunity-contact_id">Contact\s*</label>', form)
    assert 'aria-describedby="form-opportunity-contact_id-help"' in form
    assert "The contact&#39;s full name, email or id." in form


def test_the_edit_form_shows_the_contact_by_name_and_the_amount_formatted(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    opp = deal_with_contact(db, who.rep)
    crm.update_record(db, who.rep, "opportunity", opp, {"amount": 15500})
    db.commit()
    form = html_of(client, f"/crm/opportunities/{opp.id}/edit")
    [contact] = re.findall(r'<input[^>]*name="contact_id"[^>]*>', form)
    [amount] = re.findall(r'<input[^>]*name="amount"[^>]*>', form)
    assert f'value="{opp.contact.name}"' in contact
    assert 'value="15,500"' in amount and 'type="text"' in amount


def edit_form(db: Session, opp: Opportunity, **changes: str) -> dict[str, str]:
    """The edit form as the page fills it, with some inputs changed."""
    values = {"name": opp.name, "account_id": str(opp.account_id), "stage": opp.stage,
              "contact_id": opp.contact.name if opp.contact else "",
              "amount": f"{opp.amount:,}" if opp.amount is not None else "",
              "probability": str(opp.probability),
              "close_date": opp.close_date.isoformat()}  # fmt: skip
    return values | changes


def test_an_unchanged_edit_form_changes_nothing(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    opp = deal_with_contact(db, who.rep)
    before = len(crm.field_history(db, who.rep, "opportunity", opp.id))
    saved = client.post(f"/crm/opportunities/{opp.id}/edit", data=edit_form(db, opp))
    assert saved.status_code == 302
    assert "nothing changed" in html_of(client, saved.location)
    db.expire_all()
    assert len(crm.field_history(db, who.rep, "opportunity", opp.id)) == before


@pytest.mark.parametrize("typed", ["$15,500", "15,500", "15500.00"])
def test_the_edit_form_accepts_a_formatted_amount(
    client: FlaskClient, db: Session, who: Cast, typed: str
) -> None:
    sign_in(client, who.rep)
    opp = open_opportunity_of(db, who.rep)
    form = edit_form(db, opp, amount=typed, contact_id="")
    form.pop("contact_id")
    assert client.post(f"/crm/opportunities/{opp.id}/edit", data=form).status_code == 302
    db.expire_all()
    assert db.get_one(Opportunity, opp.id).amount == 15500
    page = html_of(client, f"/crm/opportunities/{opp.id}")
    assert "$15,500" in page


def test_the_convert_form_takes_a_formatted_amount(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    lead = crm.search(db, who.rep, "lead", filters={"owner_id": who.rep.id}, is_open=True)
    lead = next(x for x in lead.items if crm.records.account_named(db, x.company) is None)
    page = html_of(client, f"/crm/leads/{lead.id}")
    assert re.search(r'<input type="text" name="amount"[^>]*convert-amount', page)
    form = {"create_opportunity": "on", "amount": "$15,500"}
    assert client.post(f"/crm/leads/{lead.id}/convert", data=form).status_code == 302
    db.expire_all()
    lead = db.get_one(type(lead), lead.id)
    assert db.get_one(Opportunity, lead.converted_opportunity_id).amount == 15500
    converted = html_of(client, f"/crm/leads/{lead.id}")
    assert f'href="/crm/opportunities/{lead.converted_opportunity_id}"' in converted


def test_the_edit_form_refuses_an_amount_that_is_not_a_number(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    opp = open_opportunity_of(db, who.rep)
    before = opp.amount
    form = edit_form(db, opp, amount="about 15k")
    form.pop("contact_id")
    refused = client.post(f"/crm/opportunities/{opp.id}/edit", data=form)
    assert refused.status_code == 422
    assert "opportunity amount: must be an amount in whole dollars" in refused.get_data(
        as_text=True
    )
    db.expire_all()
    assert db.get_one(Opportunity, opp.id).amount == before


# ---------------------------------------------------------------- dates and amounts


def test_dates_and_times_are_shown_with_their_year() -> None:
    assert shown_date(dt.date(2026, 3, 11)) == "Mar 11, 2026"
    assert shown_date(dt.datetime(2026, 1, 21, 0, 51)) == "Jan 21, 2026 12:51 AM"
    assert shown_date(dt.datetime(2026, 1, 21, 13, 5)) == "Jan 21, 2026 1:05 PM"
    assert shown_date(None) == ""
    # The field history stores text; it is shown as the field is, whatever the field.
    assert shown_change("opportunity", "closed_at", "2026-01-16 10:03:27") == (
        "Jan 16, 2026 10:03 AM"
    )
    assert shown_change("opportunity", "close_date", "2026-03-07") == "Mar 7, 2026"
    assert shown_change("opportunity", "amount", "15500") == "$15,500"
    assert shown_change("opportunity", "name", "2026-13-99 launch") == "2026-13-99 launch"


def test_no_crm_page_shows_an_iso_date_or_a_date_without_year(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    opp = open_opportunity_of(db, who.rep)
    crm.update_record(db, who.rep, "opportunity", opp, {"close_date": "2026-12-30"})
    db.commit()
    urls = ["/crm/opportunities?view=all", f"/crm/opportunities/{opp.id}", "/crm/pipeline",
            f"/crm/accounts/{opp.account_id}"]  # fmt: skip
    for url in urls:
        text = text_of(html_of(client, url))
        assert not ISO_DAY.search(text), (url, ISO_DAY.search(text))
        assert DAY_WITH_YEAR.search(text), url
    record = text_of(html_of(client, f"/crm/opportunities/{opp.id}"))
    assert "Dec 30, 2026" in record  # the close date and its history row
    assert re.search(r"Created\s+[A-Z][a-z]{2} \d{1,2}, 20\d\d \d{1,2}:\d\d [AP]M", record)
    assert re.search(r"Close date\s+\S.*\s+Dec 30, 2026", record)


def test_amounts_are_shown_with_thousands_separators(client: FlaskClient, who: Cast) -> None:
    sign_in(client, who.rep)
    cells = re.findall(r"<td>(\$[\d,]+)</td>", html_of(client, "/crm/opportunities?view=all"))
    assert cells and any("," in c for c in cells)
    assert all(re.fullmatch(r"\$\d{1,3}(,\d{3})*", c) for c in cells)


# ---------------------------------------------------------------- list views


def row_ids(html: str, kind: str) -> list[int]:
    return [int(x) for x in re.findall(rf' id="list-{kind}-row-(\d+)"', html)]


def count_of(html: str, kind: str) -> int:
    found = re.search(rf'data-og-id="list-{kind}-count">(\d+) ', html)
    assert found, kind
    return int(found.group(1))


@pytest.mark.parametrize("kind", ["accounts", "contacts", "leads", "opportunities", "cases"])
def test_a_list_opens_on_my_records_with_a_switch_to_all(
    client: FlaskClient, db: Session, who: Cast, kind: str
) -> None:
    sign_in(client, who.rep)
    mine = html_of(client, f"/crm/{kind}")
    everyone = html_of(client, f"/crm/{kind}?view=all")
    rt = {"accounts": "account", "contacts": "contact", "leads": "lead",
          "opportunities": "opportunity", "cases": "case"}[kind]  # fmt: skip
    owned = crm.search(db, who.rep, rt, filters={"owner_id": who.rep.id}, limit=1).total
    total = crm.search(db, who.rep, rt, limit=1).total
    assert count_of(mine, kind) == owned and count_of(everyone, kind) == total > owned
    assert re.search(rf'<span [^>]*aria-current="page">My {kind}</span>', mine, re.I)
    assert f'href="/crm/{kind}?view=all" id="list-{kind}-view-all"' in mine
    assert re.search(rf'aria-current="page">All {kind}</span>', everyone, re.I)
    assert f'href="/crm/{kind}?view=mine" id="list-{kind}-view-mine"' in everyone


def test_my_list_holds_only_my_records_and_keeps_the_view_when_filtered(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    html = html_of(client, "/crm/opportunities?view=mine&open=1")
    ids = row_ids(html, "opportunities")
    assert ids and {db.get_one(Opportunity, i).owner_id for i in ids} == {who.rep.id}
    assert '<input type="hidden" name="view" value="mine">' in html
    theirs = html_of(client, f"/crm/opportunities?owner={who.rep2.handle}")
    ids = row_ids(theirs, "opportunities")
    assert ids and {db.get_one(Opportunity, i).owner_id for i in ids} == {who.rep2.id}


def test_recently_viewed_lists_the_records_opened_newest_first(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    empty = html_of(client, "/crm/opportunities?view=recent")
    assert count_of(empty, "opportunities") == 0 and "No records opened yet." in empty
    mine, theirs = open_opportunity_of(db, who.rep), open_opportunity_of(db, who.rep2)
    for opp in (mine, theirs, mine):
        html_of(client, f"/crm/opportunities/{opp.id}")
    html_of(client, f"/crm/accounts/{mine.account_id}")  # another type: its own list
    html = html_of(client, "/crm/opportunities?view=recent")
    assert row_ids(html, "opportunities") == [mine.id, theirs.id]
    assert re.search(r'aria-current="page">Recently Viewed</span>', html)
    assert "list-opportunities-q" not in html  # no filters that the view would ignore
    assert row_ids(html_of(client, "/crm/accounts?view=recent"), "accounts") == [mine.account_id]
    sign_in(client, who.rep2)  # each person has their own
    assert count_of(html_of(client, "/crm/opportunities?view=recent"), "opportunities") == 0


def test_an_unknown_list_view_is_refused(client: FlaskClient, who: Cast) -> None:
    sign_in(client, who.rep)
    response = client.get("/crm/opportunities?view=everything")
    assert response.status_code == 422
    assert "view must be one of mine, all, recent" in response.get_data(as_text=True)


def test_page_numbers_keep_the_ends_and_the_pages_near_the_current_one() -> None:
    assert page_numbers(1, 1) == [1]
    assert page_numbers(1, 4) == [1, 2, 3, 4]
    assert page_numbers(6, 12) == [1, None, 4, 5, 6, 7, 8, None, 12]
    assert page_numbers(12, 12) == [1, None, 10, 11, 12]


def test_a_list_pages_by_number(client: FlaskClient, db: Session, who: Cast) -> None:
    sign_in(client, who.rep)
    first = html_of(client, "/crm/opportunities?view=all&sort=amount")
    total = count_of(first, "opportunities")
    last = -(-total // 25)
    assert last >= 3
    link = re.search(r'<a href="([^"]+)" id="list-opportunities-page-3"[^>]*>3</a>', first)
    assert link is not None
    third = html_of(client, link.group(1).replace("&amp;", "&"))
    expected = crm.search(db, who.rep, "opportunity", sort="amount", limit=25, offset=50)
    assert row_ids(third, "opportunities") == [o.id for o in expected.items]
    assert '<span aria-current="page">3</span>' in third
    assert "list-opportunities-page-3" not in third  # the current page is not a link
    assert f'id="list-opportunities-page-{last}"' in third


def test_a_list_sorts_by_a_column_it_knows_and_refuses_others(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    html = html_of(client, "/crm/opportunities?view=all&sort=close_date")
    dates = [db.get_one(Opportunity, i).close_date for i in row_ids(html, "opportunities")]
    assert dates == sorted(dates) and dates[0] == db.scalar(func.min(Opportunity.close_date))
    assert 'aria-sort="ascending"' in html
    # Owner and account cannot be sorted: their headers are plain text, the URL refused.
    assert "list-opportunities-sort-owner" not in html
    refused = client.get("/crm/opportunities?view=all&sort=owner")
    assert refused.status_code == 422
    assert "cannot be sorted by &#39;owner&#39;" in refused.get_data(as_text=True)


# ---------------------------------------------------------------- read-only records


def test_a_read_only_record_says_why(client: FlaskClient, db: Session, who: Cast) -> None:
    sign_in(client, who.rep)
    theirs = open_opportunity_of(db, who.rep2)
    html = html_of(client, f"/crm/opportunities/{theirs.id}")
    note = re.search(r'data-og-id="record-opportunity-\d+-read-only">([^<]+)<', html)
    assert note is not None and "-edit" not in html.split("crm-fields")[0]
    assert note.group(1) == (
        f"Read only: this opportunity is owned by {theirs.owner.name}, "
        "and reps edit only the records they own."
    )
    mine = open_opportunity_of(db, who.rep)
    assert "read-only" not in html_of(client, f"/crm/opportunities/{mine.id}")
