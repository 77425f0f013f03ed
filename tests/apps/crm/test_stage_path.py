"""An opportunity's stage path (Salesforce's Path) on its record page: the stages in
order with closed ones last, passed stages complete, the current one marked as the current
step, choosing a stage then "Mark as current stage" moving the deal, and "Mark Stage as
Complete" moving it on to the next open stage, once per click on the page it was shown."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.apps.crm import service as crm
from officegym.apps.crm.models import STAGES, Opportunity
from officegym.apps.crm.pages import next_stage, stage_path

from .helpers import Cast, open_opportunity_of, record_page, sign_in


def _steps(page: str) -> list[tuple[str, str]]:
    """(class, text) of each path step, in page order."""
    path = page.split('<ol class="path">')[1].split("</ol>")[0]
    found = re.findall(r'<li class="path-step ([a-z ]+)"[^>]*>(.*?)</li>', path, re.S)
    return [(cls.strip(), " ".join(re.sub(r"<[^>]+>", " ", text).split())) for cls, text in found]


def test_stage_path_states_follow_the_stage_order() -> None:
    assert stage_path("Needs Analysis")[:4] == [
        ("Prospecting", "complete"), ("Qualification", "complete"),
        ("Needs Analysis", "current"), ("Proposal", "upcoming"),
    ]  # fmt: skip
    won = dict(stage_path("Closed Won"))
    assert won["Negotiation"] == "complete" and won["Closed Lost"] == "upcoming"
    assert [s for s, _ in stage_path("Prospecting")] == list(STAGES)


def test_record_page_shows_the_path_with_the_current_step(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    opp = open_opportunity_of(db, who.rep)
    page = record_page(client, who.rep, opp)
    steps = _steps(page)
    assert [text.removesuffix(" (complete)") for _, text in steps] == list(STAGES)
    at = STAGES.index(opp.stage)  # type: ignore[arg-type]
    assert [cls.split()[0] for cls, _ in steps[:at]] == ["complete"] * at
    assert page.count('aria-current="step"') == 1
    current = re.search(r'<li class="path-step current[^"]*" aria-current="step">', page)
    assert current is not None
    assert f'id="record-opportunity-{opp.id}-path-closed-won"' in page
    assert "Mark as current stage" in page
    assert f'id="record-opportunity-{opp.id}-stage"' not in page  # the path replaced the select


def test_marking_a_stage_on_the_path_moves_the_deal(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    opp = open_opportunity_of(db, who.rep)
    target = "Negotiation" if opp.stage != "Negotiation" else "Proposal"
    sign_in(client, who.rep)
    form = {"stage": target, "loss_reason": ""}
    response = client.post(f"/crm/opportunities/{opp.id}/stage", data=form)
    assert response.status_code == 302
    page = client.get(f"/crm/opportunities/{opp.id}").get_data(as_text=True)
    assert ("current", target) in [(c.split()[0], t) for c, t in _steps(page)]
    db.expire_all()
    db.refresh(opp)
    assert opp.stage == target


def test_a_read_only_deal_shows_its_path_without_choices(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    theirs = open_opportunity_of(db, who.rep2)
    page = record_page(client, who.rep, theirs)
    assert page.count('aria-current="step"') == 1
    assert 'type="radio" name="stage"' not in page and "Mark as current stage" not in page
    assert "Read only" in page


def test_the_stage_after_is_the_next_open_one() -> None:
    assert next_stage("Prospecting") == "Qualification"
    assert next_stage("Proposal") == "Negotiation"
    assert [next_stage(s) for s in ("Negotiation", "Closed Won", "Closed Lost")] == [None] * 3


def test_mark_stage_as_complete_moves_the_deal_one_stage_once(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    opp = open_opportunity_of(db, who.rep)
    if opp.stage == "Negotiation":
        crm.change_stage(db, who.rep, opp, "Proposal")
        db.commit()
    start = opp.stage
    page = record_page(client, who.rep, opp)
    assert f'id="record-opportunity-{opp.id}-stage-complete"' in page
    assert "Mark Stage as Complete" in page
    form = {"from": start}
    response = client.post(f"/crm/opportunities/{opp.id}/complete-stage", data=form)
    assert response.status_code == 302
    after = STAGES[STAGES.index(start) + 1]  # type: ignore[arg-type]
    page = client.get(f"/crm/opportunities/{opp.id}").get_data(as_text=True)
    assert ("current", after) in [(c.split()[0], t) for c, t in _steps(page)]
    assert f"Stage is now {after}." in page
    again = client.post(f"/crm/opportunities/{opp.id}/complete-stage", data=form)
    assert again.status_code == 302  # a second click on the old page skips nothing
    assert "already at" in client.get(f"/crm/opportunities/{opp.id}").get_data(as_text=True)
    db.expire_all()
    assert db.get_one(Opportunity, opp.id).stage == after


def test_the_last_open_stage_and_others_deals_offer_no_completion(
    client: FlaskClient, db: Session, who: Cast
) -> None:
    opp = open_opportunity_of(db, who.rep)
    crm.change_stage(db, who.rep, opp, "Negotiation")
    db.commit()
    page = record_page(client, who.rep, opp)
    assert "Mark Stage as Complete" not in page
    client.post(f"/crm/opportunities/{opp.id}/complete-stage", data={"from": "Negotiation"})
    assert "last open stage" in client.get(f"/crm/opportunities/{opp.id}").get_data(as_text=True)
    db.expire_all()
    assert db.get_one(Opportunity, opp.id).stage == "Negotiation"
    theirs = open_opportunity_of(db, who.rep2)
    crm.change_stage(db, who.rep2, theirs, "Proposal")  # a stage with one after it
    db.commit()
    assert "Mark Stage as Complete" not in record_page(client, who.rep, theirs)
    denied = client.post(f"/crm/opportunities/{theirs.id}/complete-stage",
                         data={"from": theirs.stage})  # fmt: skip
    assert denied.status_code == 403
    db.expire_all()
    assert db.get_one(Opportunity, theirs.id).stage == theirs.stage
