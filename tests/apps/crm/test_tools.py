"""The CRM permission matrix holds through the tool interface: reps edit their own
records and read everything, managers edit their team's, admins everything,
people without a role nothing. A refused call changes nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from officegym.apps.crm import service as crm
from officegym.apps.crm.models import Case, Contact, FieldHistory, Opportunity
from officegym.errors import Forbidden, Invalid, NotFound
from officegym.tools import tools_for
from officegym.world import World

from .helpers import call, cast, open_opportunity_of

TODAY = dt.date(2026, 3, 2)  # the default scenario's date
# (actor, owner of the opportunity, allowed?)
EDIT_MATRIX = [
    ("rep", "rep", True),
    ("rep", "rep2", False),
    ("manager", "rep", True),
    ("manager", "manager", True),
    ("support_manager", "rep", False),
    ("support_rep", "rep", False),
    ("admin", "rep", True),
    ("admin", "rep2", True),
    ("outsider", "rep", False),
]


def test_at_least_18_documented_crm_tools_are_registered() -> None:
    tools = tools_for(["crm"])
    assert len(tools) >= 18
    names = {t.name for t in tools}
    nouns = {"account": "accounts", "contact": "contacts", "lead": "leads",
             "opportunity": "opportunities", "case": "cases"}  # fmt: skip
    for one, many in nouns.items():
        assert f"crm_search_{many}" in names
        for verb in ("get", "create", "update"):
            assert f"crm_{verb}_{one}" in names
    assert {"crm_convert_lead", "crm_change_opportunity_stage", "crm_log_activity",
            "crm_reassign_owner", "crm_escalate_case", "crm_close_case",
            "crm_pipeline_report"} <= names  # fmt: skip
    assert all(t.description and t.name.startswith("crm_") for t in tools)


@pytest.mark.parametrize(("actor", "owner", "allowed"), EDIT_MATRIX)
def test_edit_permission_matrix(world: World, actor: str, owner: str, allowed: bool) -> None:
    with world.session() as s:
        who = cast(s)
        opp = open_opportunity_of(s, getattr(who, owner))
        before = opp.next_step
        args = {"opportunity": opp.id, "next_step": "Call the CFO"}
        if allowed:
            out = call(s, getattr(who, actor), "crm_update_opportunity", **args)
            assert out["changed"] == ["next_step"]
        else:
            with pytest.raises(Forbidden):
                call(s, getattr(who, actor), "crm_update_opportunity", **args)
            s.rollback()
        assert (s.get_one(Opportunity, opp.id).next_step == "Call the CFO") is allowed
        assert s.get_one(Opportunity, opp.id).next_step == ("Call the CFO" if allowed else before)


@pytest.mark.parametrize("actor", ["rep", "manager", "support_rep", "admin"])
def test_every_crm_user_reads_every_record(world: World, actor: str) -> None:
    with world.session() as s:
        who = cast(s)
        opp = open_opportunity_of(s, who.rep2)
        got = call(s, getattr(who, actor), "crm_get_opportunity", opportunity=opp.name)
        assert (got["id"], got["owner"]) == (opp.id, who.rep2.handle)
        found = call(s, getattr(who, actor), "crm_search_accounts", limit=5)
        assert found["total"] == 200 and len(found["results"]) == 5


def test_people_without_a_role_cannot_even_read(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        with pytest.raises(Forbidden, match="no CRM access"):
            call(s, who.outsider, "crm_search_accounts")
        with pytest.raises(Forbidden):
            call(s, who.outsider, "crm_pipeline_report")


def test_reassignment_rules(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        opp = open_opportunity_of(s, who.rep)
        args = {"record_type": "opportunity", "record_id": opp.id}
        with pytest.raises(Forbidden, match="reps cannot give"):
            call(s, who.rep, "crm_reassign_owner", new_owner=who.rep2.handle, **args)
        with pytest.raises(Forbidden, match="within their team"):
            call(s, who.manager, "crm_reassign_owner", new_owner=who.support_rep.handle, **args)
        with pytest.raises(Invalid, match="no CRM role"):
            call(s, who.admin, "crm_reassign_owner", new_owner=who.outsider.handle, **args)
        assert s.get_one(Opportunity, opp.id).owner_id == who.rep.id
        out = call(s, who.manager, "crm_reassign_owner", new_owner=who.rep2.handle, **args)
        assert out["opportunity"]["owner"] == who.rep2.handle
        history = s.scalars(
            select(FieldHistory).where(
                FieldHistory.record_id == opp.id, FieldHistory.field == "owner_id"
            )
        ).one()
        assert (history.old_value, history.new_value) == (str(who.rep.id), str(who.rep2.id))
        assert history.changed_by_id == who.manager.id


@pytest.mark.parametrize("blank", ["", "  "])
def test_reassigning_to_a_blank_owner_is_a_clear_error(world: World, blank: str) -> None:
    with world.session() as s:
        who = cast(s)
        opp = open_opportunity_of(s, who.rep)
        with pytest.raises(Invalid, match="new_owner is required"):
            call(s, who.manager, "crm_reassign_owner", record_type="opportunity",
                 record_id=opp.id, new_owner=blank)  # fmt: skip
        assert s.get_one(Opportunity, opp.id).owner_id == who.rep.id


def test_support_manager_edits_support_cases_but_not_sales_deals(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        case = crm.search(s, who.admin, "case", filters={"owner_id": who.support_rep.id},
                          is_open=True).items[0]  # fmt: skip
        out = call(s, who.support_manager, "crm_update_case", case=case.number, priority="Critical")
        assert out["case"]["priority"] == "Critical"
        with pytest.raises(Forbidden):
            call(s, who.manager, "crm_update_case", case=case.number, priority="Low")
        s.rollback()
        assert s.get_one(Case, case.id).priority == "Critical"


def test_creating_for_someone_else_follows_the_same_rules(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        with pytest.raises(Forbidden):
            call(
                s,
                who.rep,
                "crm_create_lead",
                last_name="Doe",
                company="Acme",
                owner=who.rep2.handle,
            )
        out = call(s, who.manager, "crm_create_lead", last_name="Doe", company="Acme",
                   owner=who.rep2.handle)  # fmt: skip
        assert out["lead"]["owner"] == who.rep2.handle and out["lead"]["status"] == "New"


def test_bad_references_are_clear_errors(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        with pytest.raises(NotFound, match="no account named"):
            call(s, who.rep, "crm_get_account", account="No Such Company Ltd")
        with pytest.raises(Invalid, match="give at least one field"):
            call(s, who.rep, "crm_update_account", account=1)
        with pytest.raises(Invalid, match="stage"):
            call(s, who.rep, "crm_change_opportunity_stage", opportunity=1, stage="Won")


def test_converting_with_only_a_contact_links_its_account(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        lead = crm.create_record(s, who.rep, "lead", {"last_name": "Lin", "company": "Lin Co"})
        contact = s.scalars(select(Contact).where(Contact.account_id == 3)).first()
        out = call(s, who.rep, "crm_convert_lead", lead=lead.id, contact=contact.id)
        assert (out["account"]["id"], out["account_created"], out["contact"]["id"]) == (
            3,
            False,
            contact.id,
        )
        assert out["opportunity"]["account_id"] == 3


def test_creating_a_closed_opportunity_closes_it_today(world: World) -> None:
    with world.session() as s:
        out = call(s, cast(s).rep, "crm_create_opportunity", name="Done deal", account=1,
                   close_date="2026-12-31", stage="Closed Won")  # fmt: skip
        opp = out["opportunity"]
        assert (opp["probability"], opp["close_date"]) == (100, TODAY.isoformat())
        assert opp["closed_at"].startswith(TODAY.isoformat())


def test_a_deal_created_lost_needs_and_keeps_its_loss_reason(world: World) -> None:
    with world.session() as s:
        rep = cast(s).rep
        args = {"name": "Lost deal", "account": 1, "close_date": "2026-12-31"}
        with pytest.raises(Invalid, match="loss_reason"):
            call(s, rep, "crm_create_opportunity", **args, stage="Closed Lost")
        out = call(s, rep, "crm_create_opportunity", **args, stage="Closed Lost",
                   loss_reason="Competitor")  # fmt: skip
        opp = out["opportunity"]
        assert (opp["probability"], opp["loss_reason"]) == (0, "Competitor")


def test_write_tools_report_what_they_stored(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        n = s.scalar(select(func.count(Opportunity.id)))
        out = call(s, who.rep, "crm_create_opportunity", name="Test deal", account=1,
                   close_date="2026-06-30", amount=12000, stage="Proposal")  # fmt: skip
        opp = out["opportunity"]
        assert (opp["probability"], opp["amount"], opp["close_date"]) == (60, 12000, "2026-06-30")
        assert s.scalar(select(func.count(Opportunity.id))) == n + 1
        report = call(s, who.rep, "crm_pipeline_report", group_by="stage")
        proposal = next(r for r in report["rows"] if r["stage"] == "Proposal")
        assert proposal["amount"] >= 12000
        assert report["total"]["count"] == n + 1
