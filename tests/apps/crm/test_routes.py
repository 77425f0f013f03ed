"""The CRM pages through Flask's test client: they render with stable, labelled
element ids, lists filter/sort/page, forms change state, and the permission
matrix holds (403, nothing changed)."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.crm import service as crm
from officegym.apps.crm.models import Account, Case, Lead, Opportunity

from ..pages import assert_addressable
from .helpers import Cast, open_opportunity_of, record_page, sign_in


def fresh(db: Session, obj: object) -> None:
    db.expire_all()
    db.refresh(obj)


def pages(db: Session, who: Cast) -> list[tuple[str, list[str]]]:
    """Every kind of CRM page the rep can open, with ids it must contain."""
    opp = open_opportunity_of(db, who.rep)
    lead = crm.search(db, who.rep, "lead", filters={"owner_id": who.rep.id}, is_open=True).items[0]
    case = db.scalars(select(Case).where(Case.status == "Working")).first()
    kinds = ("accounts", "contacts", "leads", "opportunities", "cases")
    out = [(f"/crm/{k}?view=all", [f"list-{k}-q", f"list-{k}-submit", f"list-{k}-new",
                                   f"list-{k}-next", f"list-{k}-page-2", f"list-{k}-view-mine"])
           for k in kinds]  # fmt: skip
    out += [(f"/crm/{k}", [f"list-{k}-view-all"]) for k in kinds]
    return [
        *out,
        ("/crm/accounts/1", ["record-account-1-activity-subject", "nav-crm"]),
        ("/crm/contacts/1", ["record-contact-1-activity-submit"]),
        (f"/crm/opportunities/{opp.id}", [f"record-opportunity-{opp.id}-path-negotiation",
                                          f"record-opportunity-{opp.id}-edit"]),
        (f"/crm/leads/{lead.id}", [f"record-lead-{lead.id}-convert-submit"]),
        (f"/crm/cases/{case.id}", [f"record-case-{case.id}-activity-kind"]),
        ("/crm/opportunities/new", ["form-opportunity-name", "form-opportunity-stage",
                                    "form-opportunity-owner", "form-opportunity-submit"]),
        (f"/crm/opportunities/{opp.id}/edit", ["form-opportunity-amount"]),
        ("/crm/pipeline", [f"board-opportunity-{opp.id}" if opp.stage else "", "board-owner"]),
        ("/crm/reports", ["report-stage", "report-owner", "report-cases"]),
        ("/crm/data", ["export-accounts", "import-leads-file", "import-opportunities-submit"]),
    ]  # fmt: skip


def test_every_page_renders_with_its_key_element_ids(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    for url, ids in pages(db, who):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        for element_id in [*ids, "crm-nav-accounts", "crm-nav-pipeline"]:
            if element_id.startswith("board-opportunity") and element_id not in html:
                continue  # the board shows the 20 soonest deals per stage
            assert f'id="{element_id}" data-og-id="{element_id}"' in html, (url, element_id)


def test_every_interactive_element_is_addressable_and_labelled(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    for url, _ in pages(db, who):
        assert_addressable(client.get(url).get_data(as_text=True), url)


# ---------------------------------------------------------------- lists


def row_ids(html: str, kind: str) -> list[int]:
    return [int(x) for x in re.findall(rf' id="list-{kind}-row-(\d+)"', html)]


def test_lists_filter_sort_and_page(client: FlaskClient, db: Session, who: Cast) -> None:
    sign_in(client, who.rep)
    html = client.get("/crm/opportunities?stage=Proposal").get_data(as_text=True)
    ids = row_ids(html, "opportunities")
    assert ids and {db.get_one(Opportunity, i).stage for i in ids} == {"Proposal"}
    html = client.get("/crm/opportunities?view=all&sort=amount&dir=desc").get_data(as_text=True)
    top = db.get_one(Opportunity, row_ids(html, "opportunities")[0])
    assert top.amount == db.scalar(select(func.max(Opportunity.amount)))
    first = row_ids(client.get("/crm/accounts?view=all").get_data(as_text=True), "accounts")
    second = row_ids(client.get("/crm/accounts?view=all&page=2").get_data(as_text=True), "accounts")
    assert len(first) == len(second) == 25 and not set(first) & set(second)
    html = client.get(f"/crm/accounts?owner={who.rep.handle}").get_data(as_text=True)
    assert {db.get_one(Account, i).owner_id for i in row_ids(html, "accounts")} == {who.rep.id}


# ---------------------------------------------------------------- forms


def test_create_form_creates_and_bad_input_creates_nothing(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    before = db.scalar(select(func.count(Account.id)))
    bad = client.post("/crm/accounts/new", data={"name": "", "type": "Customer"})
    assert bad.status_code == 422 and "name: is required" in bad.get_data(as_text=True)
    assert db.scalar(select(func.count(Account.id))) == before
    ok = client.post("/crm/accounts/new", data={"name": "Web Made Inc", "type": "Customer",
                                                "employees": "12"})  # fmt: skip
    assert ok.status_code == 302
    made = crm.records.account_named(db, "Web Made Inc")
    assert made is not None and made.owner_id == who.rep.id and made.employees == 12
    assert ok.location.endswith(f"/crm/accounts/{made.id}")


def test_new_opportunity_form_leaves_probability_to_the_stage(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    """As the tool does, the form creates a deal without a probability (the stage's is
    set): the input is not required, so a browser submits the form with it blank."""
    sign_in(client, who.rep)
    page = client.get("/crm/opportunities/new").get_data(as_text=True)
    [probability] = re.findall(r"<input[^>]*form-opportunity-probability[^>]*>", page)
    assert "required" not in probability
    assert re.search(r"<input[^>]*form-opportunity-close_date[^>]*required", page)
    account = db.scalars(select(Account).where(Account.owner_id == who.rep.id)).first()
    assert account is not None
    form = {"name": "Blank probability deal", "account_id": str(account.id),
            "close_date": "2026-09-30", "stage": "Qualification", "probability": ""}  # fmt: skip
    assert client.post("/crm/opportunities/new", data=form).status_code == 302
    made = db.scalars(select(Opportunity).where(Opportunity.name == form["name"])).one()
    assert (made.stage, made.probability, made.owner_id) == ("Qualification", 20, who.rep.id)


def test_edit_form_changes_only_what_changed(client: FlaskClient, db: Session, who: Cast) -> None:
    sign_in(client, who.rep)
    opp = open_opportunity_of(db, who.rep)
    form = {"name": opp.name, "stage": opp.stage, "account_id": str(opp.account_id),
            "close_date": opp.close_date.isoformat(), "amount": "777",
            "probability": str(opp.probability)}  # fmt: skip
    response = client.post(f"/crm/opportunities/{opp.id}/edit", data=form)
    assert response.status_code == 302
    fresh(db, opp)
    assert opp.amount == 777
    assert [h.field for h in crm.field_history(db, who.rep, "opportunity", opp.id)][:1] == [
        "amount"
    ]


def test_stage_form_and_board_move(client: FlaskClient, db: Session, who: Cast) -> None:
    sign_in(client, who.rep)
    opp = open_opportunity_of(db, who.rep)
    target = "Negotiation" if opp.stage != "Negotiation" else "Proposal"
    assert (
        client.post(f"/crm/opportunities/{opp.id}/stage", data={"stage": target}).status_code == 302
    )
    fresh(db, opp)
    assert opp.stage == target
    moved = client.post(
        f"/crm/opportunities/{opp.id}/stage", data={"stage": "Closed Won", "next": "board"}
    )
    assert moved.location.endswith("/crm/pipeline")
    fresh(db, opp)
    assert (opp.stage, opp.probability) == ("Closed Won", 100)


def test_convert_escalate_close_and_log_forms(client: FlaskClient, db: Session, who: Cast) -> None:
    sign_in(client, who.rep)
    lead = open_leads_without_account(db, who)[0]
    response = client.post(f"/crm/leads/{lead.id}/convert",
                           data={"create_opportunity": "on", "amount": "5000"})  # fmt: skip
    assert response.status_code == 302 and "/crm/accounts/" in response.location
    fresh(db, lead)
    assert lead.status == "Converted" and lead.converted_opportunity_id is not None
    again = client.post(f"/crm/leads/{lead.id}/convert", data={}, follow_redirects=True)
    assert "already converted" in again.get_data(as_text=True)
    made = db.get_one(Account, lead.converted_account_id)
    assert f">account {html.escape(made.name)}</a>" in again.get_data(as_text=True)  # by name

    sign_in(client, who.support_manager)
    case = db.scalars(select(Case).where(Case.status == "Working")).first()
    client.post(f"/crm/cases/{case.id}/escalate", data={"reason": "VIP customer"})
    client.post(f"/crm/cases/{case.id}/activities", data={"kind": "call", "subject": "Called"})
    client.post(f"/crm/cases/{case.id}/close", data={"resolution": "Patched"})
    fresh(db, case)
    assert (case.status, case.resolution) == ("Closed", "Patched")
    subjects = [a.subject for a in crm.list_activities(db, who.admin, "case", case.id)]
    assert "Called" in subjects and "Escalated: VIP customer" in subjects


def open_leads_without_account(db: Session, who: Cast) -> list[Lead]:
    page = crm.search(db, who.rep, "lead", filters={"owner_id": who.rep.id}, is_open=True)
    return [x for x in page.items if crm.records.account_named(db, x.company) is None]


def test_convert_form_checks_the_amount_by_the_field_rules(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    refused, accepted = open_leads_without_account(db, who)[:2]
    before = db.scalar(select(func.count(Opportunity.id)))
    response = client.post(f"/crm/leads/{refused.id}/convert", follow_redirects=True,
                           data={"create_opportunity": "on", "amount": "-5"})  # fmt: skip
    assert "opportunity amount: must be a whole number" in response.get_data(as_text=True)
    fresh(db, refused)
    assert refused.status != "Converted"
    assert db.scalar(select(func.count(Opportunity.id))) == before
    client.post(f"/crm/leads/{accepted.id}/convert",
                data={"create_opportunity": "on", "amount": "50,000"})  # fmt: skip
    fresh(db, accepted)
    opp = db.get_one(Opportunity, accepted.converted_opportunity_id)
    assert opp.amount == 50_000


# ---------------------------------------------------------------- permissions


@pytest.mark.parametrize(("actor", "allowed"), [("rep", False), ("support_manager", False),
                                                 ("manager", True), ("admin", True)])  # fmt: skip
def test_web_permission_matrix(
    client: FlaskClient, db: Session, who: Cast, actor: str, allowed: bool
) -> None:
    opp = open_opportunity_of(db, who.rep2)
    stage = opp.stage
    target = "Negotiation" if stage != "Negotiation" else "Proposal"
    sign_in(client, getattr(who, actor))
    edit_page = client.get(f"/crm/opportunities/{opp.id}/edit")
    response = client.post(f"/crm/opportunities/{opp.id}/stage", data={"stage": target})
    assert edit_page.status_code == (200 if allowed else 403)
    assert response.status_code == (302 if allowed else 403)
    fresh(db, opp)
    assert opp.stage == (target if allowed else stage)


def test_reassign_form_follows_team_rules(client: FlaskClient, db: Session, who: Cast) -> None:
    lead = crm.search(db, who.rep, "lead", filters={"owner_id": who.rep.id}, is_open=True).items[0]
    sign_in(client, who.rep)
    refused = client.post(f"/crm/leads/{lead.id}/reassign", data={"owner": who.rep2.handle},
                          follow_redirects=True)  # fmt: skip
    assert "reps cannot give" in refused.get_data(as_text=True)
    sign_in(client, who.manager)
    client.post(f"/crm/leads/{lead.id}/reassign", data={"owner": who.rep2.handle})
    fresh(db, lead)
    assert lead.owner_id == who.rep2.id


def test_reassigning_to_no_one_is_a_flashed_error(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    lead = crm.search(db, who.rep, "lead", filters={"owner_id": who.rep.id}, is_open=True).items[0]
    sign_in(client, who.manager)
    response = client.post(f"/crm/leads/{lead.id}/reassign", data={"owner": ""},
                           follow_redirects=True)  # fmt: skip
    assert response.status_code == 200 and "choose the new owner" in response.get_data(as_text=True)
    fresh(db, lead)
    assert lead.owner_id == who.rep.id


def test_people_without_a_crm_role_get_403(client: FlaskClient, who: Cast) -> None:
    sign_in(client, who.outsider)
    for url in ("/crm/accounts", "/crm/accounts/1", "/crm/pipeline", "/crm/reports"):
        assert client.get(url).status_code == 403, url


# ---------------------------------------------------------------- CSV


def test_csv_export_download_and_import_pages(client: FlaskClient, db: Session, who: Cast) -> None:
    sign_in(client, who.manager)
    csv_text = client.get("/crm/data/leads.csv").get_data(as_text=True)
    assert csv_text.startswith("id,first_name,last_name,company")
    before = db.scalar(select(func.count(Lead.id)))
    bad = "last_name,company,rating\nDoe,Acme,Hot\nRoe,,Lukewarm\n"
    response = client.post("/crm/data/leads/import", data={"text": bad})
    html = response.get_data(as_text=True)
    assert response.status_code == 422 and "Nothing was imported" in html
    assert "<td>3</td><td>company</td>" in html and "<td>3</td><td>rating</td>" in html
    assert db.scalar(select(func.count(Lead.id))) == before
    good = "last_name,company,rating\nDoe,Acme,Hot\nRoe,Acme,Cold\n"
    assert client.post("/crm/data/leads/import", data={"text": good}).status_code == 302
    assert db.scalar(select(func.count(Lead.id))) == before + 2


# ---------------------------------------------------------------- honest pages


def test_the_board_offers_move_only_on_the_reps_own_deals(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    sign_in(client, who.rep)
    html = client.get("/crm/pipeline").get_data(as_text=True)
    cards = re.findall(r'data-og-id="board-opportunity-(\d+)"', html)
    moves = set(re.findall(r'data-og-id="board-opportunity-(\d+)-move"', html))
    locked = set(cards) - moves
    owners = {o.id: o.owner_id for o in db.scalars(select(Opportunity))}
    assert cards and moves and locked
    assert all(owners[int(c)] == who.rep.id for c in moves)
    assert all(owners[int(c)] != who.rep.id for c in locked)
    # Why the other cards cannot move is said once, above the board, not on every card.
    assert html.count("reps edit only the records they own") == 1
    assert 'id="board-read-only"' in html and "can move this deal" not in html


def test_a_refused_move_explains_itself_on_the_board(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    theirs = open_opportunity_of(db, who.rep2)
    before = theirs.stage
    sign_in(client, who.rep)
    board = "http://localhost/crm/pipeline"
    response = client.post(f"/crm/opportunities/{theirs.id}/stage",
                           data={"stage": "Negotiation", "next": "board"},
                           headers={"Referer": board})  # fmt: skip
    assert (response.status_code, response.location) == (303, "/crm/pipeline")
    page = client.get("/crm/pipeline").get_data(as_text=True)
    assert 'class="flash flash-error" role="alert"' in page
    assert f"is owned by {who.rep2.name}" in page
    fresh(db, theirs)
    assert theirs.stage == before


def test_amounts_show_as_currency(client: FlaskClient, db: Session, who: Cast) -> None:
    mine = open_opportunity_of(db, who.rep)
    page = record_page(client, who.rep, mine)
    assert f"${mine.amount:,}" in page
    listed = client.get("/crm/opportunities?open=1").get_data(as_text=True)
    assert re.search(r"Total amount of the \d+ opportunities: \$[\d,]+<", listed)


def test_reassigning_is_offered_only_to_those_who_may_reassign(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    mine = open_opportunity_of(db, who.rep)
    page = record_page(client, who.rep, mine)
    assert "stage-submit" in page and "owner-submit" not in page  # reps keep their deals
    page = record_page(client, who.manager, mine)
    offered = re.findall(
        r'<option value="([a-z0-9]+)"', page.split("Change owner")[1].split("</select>")[0]
    )
    assert who.rep2.handle in offered and who.support_rep.handle not in offered
