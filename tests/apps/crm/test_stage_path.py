"""An opportunity's stage path (Salesforce's Path) on its record page: the stages in
order with closed ones last, passed stages complete, the current one marked as the current
step, and choosing a stage then "Mark as current stage" moving the deal."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.apps.crm.models import STAGES
from officegym.apps.crm.pages import stage_path

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
